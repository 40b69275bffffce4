# ICLP (Lin and Reimherr): kl_basis, riclp, dp_mean, pss_params, pcv_select.
# Privacy is tested as a property (exact log-density ratios of the Laplace
# coefficients), not through the reconstructed constants of the spec.

mat32 <- kernel_matern(3 / 2, 0.1)

# Weighted Gram matrix the basis must diagonalise.
weighted_gram <- function(kernel, t, w) {
  G <- kernel_matrix(kernel, t)
  sqrt(w) * G * rep(sqrt(w), each = length(w))
}

# Two neighbouring data sets: x1 and x1 with its first curve replaced by `new`.
neighbours <- function(X, new, t) list(curves(X, t), curves(rbind(new, X[-1, , drop = FALSE]), t))

# Releases on D and D' with the same seed: identical noise, so their
# difference is exactly the difference of the noiseless summaries.
twin_release <- function(pair, seed, ...) {
  list(with_seed_mode(seed, dp_mean(pair[[1]], ...)), with_seed_mode(seed, dp_mean(pair[[2]], ...)))
}

# Exact worst-case privacy loss sum_j |c_j - c'_j| / b_j of independent
# Laplace coefficients with scales b (the sup over outputs of the log ratio),
# and the log ratio at one output y.
laplace_loss_sup <- function(dc, b) sum(abs(dc) / b)
laplace_log_ratio <- function(y, c1, c2, b) sum((abs(y - c2) - abs(y - c1)) / b)

# Coefficient difference of two releases and the Laplace scales of the noise.
release_gap <- function(r) {
  B <- r[[1]]$basis
  dc <- as.vector(kl_coef_test(B, r[[1]]$values$values - r[[2]]$values$values))
  lam <- B$values
  b <- switch(r[[1]]$mechanism,
              iclp_qr = r[[1]]$noise_scale * sqrt(lam / 2),
              iclp_ar = r[[1]]$noise_scale * sqrt(lam / 2),
              frl = rep(r[[1]]$noise_scale, length(lam)))
  k <- switch(r[[1]]$mechanism, iclp_ar = r[[1]]$params$J_tau, frl = r[[1]]$params$M, length(lam))
  list(dc = dc, b = b, k = k, lam = lam)
}
kl_coef_test <- function(B, v) v %*% (B$weights * B$vectors)

test_that("kl_basis matches eigen() of the weighted Gram matrix and is weighted-orthonormal", {
  t <- sort(c(0, 1, seq(0.01, 0.99, length.out = 38)^1.3))    # irregular: trapezoid weights differ
  b <- kl_basis(mat32, t)
  w <- b$weights
  expect_equal(sum(w), 1)
  e <- eigen(weighted_gram(mat32, t, w), symmetric = TRUE)
  keep <- e$values > 1e-12 * e$values[1]
  expect_equal(b$values, e$values[keep], tolerance = 1e-10)
  expect_equal(b$J, sum(keep))
  expect_equal(crossprod(b$vectors, w * b$vectors), diag(b$J), tolerance = 1e-10)
  # vectors agree with eigen() up to sign, and the sign convention holds
  U <- e$vectors[, keep] / sqrt(w)
  expect_equal(abs(colSums(U * w * b$vectors)), rep(1, b$J), tolerance = 1e-8)
  expect_true(all(apply(b$vectors * sqrt(w), 2, function(u) u[which.max(abs(u))] > 0)))
  # the kernel on the grid is V diag(lambda) V'
  expect_equal(b$vectors %*% (b$values * t(b$vectors)), kernel_matrix(mat32, t), tolerance = 1e-8)
  expect_equal(b$trace, sum(b$values))
  # Nystrom extension reproduces the eigenvectors at the grid points
  expect_equal(predict(b, t), b$vectors, tolerance = 1e-8, ignore_attr = TRUE)
  nv <- predict(b, c(0.123, 0.777))
  expect_equal(dim(nv), c(2L, b$J))
  expect_true(all(is.finite(nv)))
  # J keeps the leading pairs; uniform weights 1/m give trace 1 for a unit-variance kernel (spec T2)
  t101 <- seq(0, 1, length.out = 101)
  b5 <- kl_basis(mat32, t101, J = 5, weights = rep(1 / 101, 101))
  b_all <- kl_basis(mat32, t101, weights = rep(1 / 101, 101))
  expect_equal(b5$values, b_all$values[1:5])
  expect_equal(b_all$trace, 1, tolerance = 1e-10)
  expect_equal(b_all$trace_total, 1)
  expect_s3_class(b5, "dpfda_kl_basis")
  expect_output(print(b5), "5 eigenpairs")
  # eigenvalue decay: log-log slope over j = 10..40 near -2h = -4 (spec T2)
  sl <- coef(lm(log(b_all$values[10:40]) ~ log(10:40)))[2]
  expect_lt(abs(sl + 4) / 4, 0.15)
})

test_that("riclp paths have the truncated kernel covariance and Laplace components", {
  t <- seq(0, 1, length.out = 30)
  N <- 20000
  x <- with_seed_mode(11, riclp(N, mat32, t, J = 10))
  expect_s3_class(x, "dpfda_curves")
  expect_equal(dim(x$values), c(N, 30L))
  expect_identical(x$rng, "seeded")
  expect_equal(x$J, 10L)
  b <- kl_basis(mat32, t, J = 10)
  C <- b$vectors %*% (b$values * t(b$vectors))           # sum_j lambda_j v_j v_j'
  S <- empirical_cov(x$values)
  tol <- 5 * sqrt(2 / N) * sqrt(outer(diag(C), diag(C)))
  expect_true(all(abs(S - C) <= tol))
  # the full-rank ICLP has the kernel itself as covariance
  # coefficients / sqrt(lambda_j) are unit-variance Laplace: KS at the right scale, not at 0.7x
  Z <- sweep(kl_coef_test(b, x$values), 2, sqrt(b$values), "/")
  plap <- function(q, s) ifelse(q < 0, 0.5 * exp(q / s), 1 - 0.5 * exp(-q / s))
  p_ok <- vapply(1:3, function(j) suppressWarnings(ks.test(Z[, j], plap, s = 1 / sqrt(2))$p.value), 0)
  p_bad <- vapply(1:3, function(j) suppressWarnings(ks.test(Z[, j], plap, s = 0.7 / sqrt(2))$p.value), 0)
  expect_true(all(p_ok > 1e-3))
  expect_true(all(p_bad < 1e-6))
  expect_equal(apply(Z[, 1:5], 2, var), rep(1, 5), tolerance = 0.06)
  kurt <- mean(Z[, 1]^4) / mean(Z[, 1]^2)^2
  expect_gt(kurt, 5)
  expect_lt(kurt, 7)
  expect_lt(max(abs(cor(Z)[upper.tri(diag(10))])), 0.03)
  # a precomputed basis gives the same paths
  y1 <- with_seed_mode(3, riclp(2, b, t))
  y2 <- with_seed_mode(3, riclp(2, mat32, t, J = 10))
  # a kl_basis() carries its grid: riclp() needs none then
  expect_identical(with_seed_mode(3, riclp(2, b))$values, y1$values)
  expect_error(riclp(2, mat32), class = "dpfda_error_argument")
  expect_equal(y1$values, y2$values)
})

test_that("worst-case privacy loss of ICLP-QR is epsilon, attained; sigma = Delta/eps would give sqrt(2) eps", {
  t <- seq(0, 1, length.out = 60)
  N <- 50
  tau <- 1
  eps <- 0.7
  b <- kl_basis(mat32, t)
  X <- with_seed_mode(1, riclp(N, mat32, t)$values) * 0.3
  # extreme pair: X1 - X1' = 2 tau g/||g|| in coefficients (Cauchy-Schwarz equality)
  par <- pss_params("iclp_qr", N, eps, 2)
  g <- par$eta
  gw <- b$values^(par$eta - 0.5) / (b$values^par$eta + par$psi)
  u <- as.vector(b$vectors %*% (gw / sqrt(sum(gw^2))))
  pair <- neighbours(rbind(tau * u, X[-1, ]), -tau * u, t)
  r <- twin_release(pair, 5, epsilon = eps, tau = tau)
  gap <- release_gap(r)
  expect_equal(r[[1]]$sensitivity, 2 * tau / N * sqrt(sum(gw^2)))
  expect_equal(r[[1]]$noise_scale, sqrt(2) * r[[1]]$sensitivity / eps)
  loss <- laplace_loss_sup(gap$dc, gap$b)
  expect_equal(loss, eps, tolerance = 1e-9)
  # the sup is attained at y_j = c_j + large * sign(c_j - c'_j)
  c2 <- rep(0, length(gap$dc))
  c1 <- gap$dc
  y <- c1 + 1e3 * sign(c1 - c2)
  expect_equal(laplace_log_ratio(y, c1, c2, gap$b), eps, tolerance = 1e-9)
  # the authors' ICLP_RKHS calibration (sigma = Delta / eps) loses sqrt(2) eps: detected
  loss_bad <- laplace_loss_sup(gap$dc, gap$b / sqrt(2))
  expect_equal(loss_bad, sqrt(2) * eps, tolerance = 1e-9)
  expect_false(loss_bad <= eps + 1e-9)
  # random outputs never exceed epsilon
  set.seed(2)
  lr <- replicate(2000, {
    yy <- c1 + rnorm(length(c1), sd = gap$b * 3)
    laplace_log_ratio(yy, c1, c2, gap$b)
  })
  expect_true(all(lr <= eps + 1e-9))
})

test_that("sensitivity bounds hold by brute force for every mechanism (random and extreme neighbours)", {
  t <- seq(0, 1, length.out = 40)
  N <- 30
  tau <- 1.5
  eps <- 1
  b <- kl_basis(mat32, t)
  base <- with_seed_mode(4, riclp(N + 40, mat32, t)$values)
  cand <- lapply(1:40, function(i) base[N + i, ] * (if (i %% 3 == 0) 5 else runif(1, 0.1, 1.5)))
  cand <- c(cand, list(tau * b$vectors[, 1], -tau * b$vectors[, 8], tau * b$vectors[, 30], 0 * t))
  X0 <- base[1:N, ] * 0.5
  settings <- list(
    list(mechanism = "iclp_qr", select = "pss"),
    list(mechanism = "iclp_ar", select = "pss"),
    list(mechanism = "iclp_ar", select = "manual", eta = 3, psi = 0.01, ar_bound = "cs"),
    list(mechanism = "frl", select = "manual", M = 6),
    list(mechanism = "frl", select = "manual", M = 6, frl_bound = "sqrtM")
  )
  for (s in settings) {
    worst <- 0
    for (i in seq_along(cand)) {
      first <- if (i %% 2 == 0) cand[[length(cand) - 1 - (i %% 3)]] else X0[1, ]
      pair <- neighbours(rbind(first, X0[-1, ]), cand[[i]], t)
      r <- do.call(twin_release, c(list(pair, 100 + i, epsilon = eps, tau = tau), s))
      gap <- release_gap(r)
      k <- seq_len(gap$k)
      # nothing moves outside the noisy components
      expect_lt(max(abs(gap$dc[-k]), 0), 1e-12)
      sens_norm <- if (s$mechanism == "frl") sum(abs(gap$dc[k])) else sum(abs(gap$dc[k]) / sqrt(gap$lam[k]))
      expect_lte(sens_norm, r[[1]]$sensitivity * (1 + 1e-10))
      loss <- laplace_loss_sup(gap$dc[k], gap$b[k])
      expect_lte(loss, eps * (1 + 1e-10))
      worst <- max(worst, loss)
    }
    # AR with the PSS psi thresholds most coefficients of these small curves away
    if (!(s$mechanism == "iclp_ar" && s$select == "pss")) expect_gt(worst, 0.05)
  }
  # FRL "sqrtM" is attained at X1 - X1' = 2 tau (1, ..., 1)/sqrt(M)
  M <- 6
  u <- as.vector(b$vectors[, 1:M] %*% rep(1 / sqrt(M), M))
  pair <- neighbours(rbind(tau * u, X0[-1, ]), -tau * u, t)
  r <- twin_release(pair, 9, epsilon = eps, tau = tau, mechanism = "frl", select = "manual", M = M,
                    frl_bound = "sqrtM")
  gap <- release_gap(r)
  expect_equal(laplace_loss_sup(gap$dc[1:M], gap$b[1:M]), eps, tolerance = 1e-9)
  # GP: Cameron-Martin norm of the difference <= Delta_K, attained, and delta holds
  j <- which.max(b$values^0.5 / (b$values + 1 / N))
  u <- b$vectors[, j]
  pair <- neighbours(rbind(tau * u, X0[-1, ]), -tau * u, t)
  r <- twin_release(pair, 9, epsilon = eps, tau = tau, mechanism = "gp", delta = 1e-4)
  dc <- as.vector(kl_coef_test(b, r[[1]]$values$values - r[[2]]$values$values))
  expect_equal(sqrt(sum(dc^2 / b$values)), r[[1]]$sensitivity, tolerance = 1e-8)
  expect_lte(gaussian_delta(eps, r[[1]]$noise_scale, r[[1]]$sensitivity), 1e-4 * (1 + 1e-8))
  # Bernstein: lattice values move by at most 2 tau / N; the L1 loss is <= eps
  pair <- neighbours(rbind(rep(tau, 40), X0[-1, ]), rep(-tau, 40), t)
  r <- twin_release(pair, 9, epsilon = eps, tau = tau, mechanism = "bernstein")
  dl <- r[[1]]$bernstein$values$values - r[[2]]$bernstein$values$values
  expect_lte(max(abs(dl)), 2 * tau / N * (1 + 1e-10))
  expect_lte(sum(abs(dl)) / r[[1]]$noise_scale, eps * (1 + 1e-10))
})

test_that("the summary is projected on exactly the noisy components (no leak through the complement)", {
  t <- seq(0, 1, length.out = 50)
  X <- with_seed_mode(7, riclp(40, kernel_gaussian(0.05), t)$values)   # rough curves, off-span energy
  x <- curves(X, t)
  proj_resid <- function(r, k) {
    B <- r$basis
    V <- B$vectors[, seq_len(k), drop = FALSE]
    f <- as.vector(r$values$values)
    max(abs(f - V %*% crossprod(V, B$weights * f)))
  }
  r <- with_seed_mode(1, dp_mean(x, 1, 2, J = 12))
  expect_equal(r$basis$J, 12L)
  expect_lt(proj_resid(r, 12), 1e-10)
  r <- with_seed_mode(1, dp_mean(x, 1, 2, mechanism = "iclp_ar", select = "manual", eta = 3, psi = 0.05))
  expect_lt(r$params$J_tau, r$basis$J)
  expect_lt(proj_resid(r, r$params$J_tau), 1e-10)
  r <- with_seed_mode(1, dp_mean(x, 1, 2, mechanism = "frl", select = "manual", M = 4))
  expect_lt(proj_resid(r, 4), 1e-10)
  # predict(): Nystrom extension reproduces the released values at the grid
  r <- with_seed_mode(1, dp_mean(x, 1, 2, J = 12))
  expect_equal(predict(r, t), as.vector(r$values$values), tolerance = 1e-8)
  p <- predict(r, c(0.0123, 0.5))
  expect_length(p, 2)
  expect_true(all(is.finite(p)))
  expect_equal(predict(r), as.vector(r$values$values))
  rb <- with_seed_mode(1, dp_mean(x, 1, 2, mechanism = "bernstein", bernstein_k = 8))
  expect_equal(predict(rb, t), as.vector(rb$values$values), tolerance = 1e-10)
})

test_that("releases hold no data, no non-private mean and no raw noise", {
  t <- seq(0, 1, length.out = 30)
  X <- with_seed_mode(8, riclp(25, mat32, t)$values) * 0.2
  x <- curves(X, t)
  mu <- colMeans(X)
  for (m in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
    r <- with_seed_mode(2, dp_mean(x, 1, 1, mechanism = m, delta = if (m == "gp") 1e-3))
    expect_s3_class(r, "dpfda_iclp_release")
    expect_s3_class(r, "dpfda_release")
    expect_silent(validate_dpfda_release(r))
    flat <- function(v) if (is.list(v)) unlist(lapply(v, flat), use.names = FALSE) else if (is.numeric(v)) as.vector(v)
    nums <- flat(unclass(r)[setdiff(names(r), c("basis", "call"))])
    nums <- nums[is.finite(nums)]
    for (i in seq_len(nrow(X))) expect_false(any(abs(outer(nums, X[i, ], "-")) < 1e-14))
    expect_false(any(vapply(mu, function(v) any(abs(as.numeric(nums) - v) < 1e-14), NA)))
    expect_output(print(r), m)
  }
  r <- with_seed_mode(2, dp_mean(x, 1, 1, select = "pcv", epsilon_select = 0.3, folds = 5))
  expect_equal(r$epsilon, 1.3)
  expect_equal(r$epsilon_select, 0.3)
  expect_s3_class(r$pcv, "dpfda_pcv_selection")
  expect_null(r$pcv$loss)
})

test_that("pss_params reproduces the spec's values; QR sensitivity matches the spec's check", {
  sets <- list(`100` = 3:4, `400` = 4:7, `700` = 5:8, `1000` = 5:9, `1500` = 6:11, `2000` = 6:12,
               `5000` = 8:17, `10000` = 9:21)
  for (n in names(sets)) {
    expect_equal(pss_params("frl", as.numeric(n), 1, 2, rule = "authors_code")$M_set, sets[[n]], info = n)
  }
  expect_equal(pss_params("frl", 1000, 1, 2)$M_set, 5:10)   # clean mode: floor(1000^(1/3)) is 10
  expect_equal(pss_params("iclp_ar", 1000, 1, 2)$eta, 3)
  expect_equal(pss_params("iclp_ar", 1000, 1, 2, tau = 2)$psi, 2 / 1000)
  q <- pss_params("iclp_qr", 1000, 0.5, 2)
  expect_equal(q$eta, 1.25)
  expect_equal(q$psi, 1 / (1000 * 0.25))
  expect_equal(pss_params("iclp_qr", 1000, 0.5, 2, rule = "theory_upper")$psi, 1e-3)
  expect_equal(pss_params("iclp_qr", 1000, 0.5, 2, tau = 2, rule = "authors_code")$psi, (250 / 2)^-1.25)
  # spec T5: Delta_QR (CS) = 0.059335 for Matern 3/2, N = 1000, eta = 1.25, psi = 1/N, 101 points, w = 1/101
  b <- kl_basis(mat32, seq(0, 1, length.out = 101), weights = rep(1 / 101, 101))
  g <- b$values^0.75 / (b$values^1.25 + 1e-3)
  expect_equal(2 / 1000 * sqrt(sum(g^2)), 0.059335, tolerance = 1e-4)
})

test_that("pcv_select spends its own budget with a bounded utility sensitivity", {
  t <- seq(0, 1, length.out = 30)
  X <- with_seed_mode(9, riclp(60, mat32, t)$values) * 0.3 + rep(sin(2 * pi * t), each = 60)
  x <- curves(X, t)
  b <- kl_basis(mat32, t)
  s <- with_seed_mode(1, pcv_select(x, 1, 1, "frl", b, epsilon_select = 0.5, folds = 6))
  expect_s3_class(s, "dpfda_pcv_selection")
  expect_equal(s$epsilon, 0.5)
  expect_equal(s$sensitivity, (4 + 5 * 10 * 8 / 50) / 60)
  expect_true(s$value %in% s$candidates)
  s2 <- with_seed_mode(1, pcv_select(x, 1, 1, "iclp_qr", mat32, epsilon_select = 0.5, folds = 6))
  expect_length(s2$candidates, 20)
  expect_output(print(s2), "psi")
  # the choice under the name of dp_mean()'s argument, so that dp_mean(..., psi = s$psi) uses it
  expect_identical(s$M, s$value)
  expect_null(s$psi)
  expect_identical(s2$psi, s2$value)
  r2 <- with_seed_mode(2, dp_mean(x, 1, 1, kernel = mat32, eta = s2$eta, psi = s2$psi))
  expect_identical(r2$params$psi, s2$value)
  # from a long data frame (bare or string column names, grid): the same selection as from the curves
  long <- data.frame(who = rep(seq_len(60), each = 30), when = rep(t, 60), y = as.vector(t(X)))
  s3 <- with_seed_mode(1, pcv_select(long, 1, 1, "frl", b, epsilon_select = 0.5, folds = 6, grid = t,
                                     id = who, arg = when, value = y))
  expect_identical(s3[c("candidates", "index", "sensitivity")], s[c("candidates", "index", "sensitivity")])
  col <- "when"
  s4 <- with_seed_mode(1, pcv_select(long, 1, 1, "frl", b, epsilon_select = 0.5, folds = 6, grid = t,
                                     id = "who", arg = col, value = "y"))
  expect_identical(s4$index, s$index)
  expect_error(pcv_select(x, 1, 1, "frl", b, epsilon_select = 0.5, bogus = 6), class = "dpfda_error_argument")
  expect_error(pcv_select(long, 1, 1, "frl", b, epsilon_select = 0.5, grid = t, id = nope, arg = when, value = y),
               class = "dpfda_error_argument")
})

test_that("the PCV utility sensitivity holds by brute force on random and extreme neighbours", {
  t <- seq(0, 1, length.out = 25)
  n <- 40
  b <- kl_basis(mat32, t)
  clip <- function(X) dpfda:::clip_curves_l2(X, b$weights, 1)
  pieces <- function(X) {
    Xc <- clip(X)
    list(A = dpfda:::kl_coef(b, Xc), X2 = as.vector((Xc^2) %*% b$weights))
  }
  o <- list(frl_bound = "M", ar_bound = "sum", threshold_scale = 1)
  fold <- rep_len(1:5, n)
  sens <- dpfda:::pcv_sensitivity(fold, 1)
  expect_equal(sens, (4 + 4 * 8 * 8 / 32) / 40)
  cands <- list(frl = 1:10, iclp_qr = exp(seq(log(1e-4), log(0.5), length.out = 8)),
                iclp_ar = exp(seq(log(1e-3), log(0.5), length.out = 8)))
  worst <- 0
  for (trial in 1:30) {
    X <- with_seed_mode(100 + trial, riclp(n, mat32, t)$values) * 0.4 +
      rep(sin(2 * pi * t), each = n) * (trial %% 3) / 2
    # replacement: an extreme curve (norm tau, opposite to the others) or a random one
    new <- if (trial %% 2) -2 * b$vectors[, 1 + trial %% 4] else with_seed_mode(trial, riclp(1, mat32, t)$values)
    i <- 1 + trial %% n
    Y <- X
    Y[i, ] <- new
    p1 <- pieces(X)
    p2 <- pieces(Y)
    for (mech in names(cands)) {
      eta <- if (mech == "frl") NULL else pss_params(mech, n, 1, 2, 1)$eta
      l1 <- dpfda:::pcv_losses(p1$A, p1$X2, fold, cands[[mech]], mech, b$values, 1, 1, eta, o)
      l2 <- dpfda:::pcv_losses(p2$A, p2$X2, fold, cands[[mech]], mech, b$values, 1, 1, eta, o)
      worst <- max(worst, max(abs(l1 - l2)) / sens)
    }
  }
  expect_lte(worst, 1)
  expect_gt(worst, 0.1)      # the bound is not vacuous: real neighbours come within a factor of 10
})

test_that("bad inputs are classed errors naming the argument", {
  t <- seq(0, 1, length.out = 20)
  x <- curves(matrix(sin(t), 3, 20, byrow = TRUE), t)
  err <- function(expr, arg, class = "dpfda_error") {
    e <- tryCatch(expr, error = identity)
    expect_s3_class(e, class)
    expect_match(conditionMessage(e), arg, fixed = TRUE)
  }
  err(kl_basis("a", t), "`kernel`")
  err(kl_basis(mat32, t, J = 0), "`J`")
  err(kl_basis(mat32, t, J = 21), "`J`")
  err(kl_basis(mat32, t, weights = rep(-1, 20)), "`weights`")
  err(kl_basis(mat32, t, weights = 1:3), "`weights`")
  err(kl_basis(kernel_gaussian(1), seq(0, 1, length.out = 50), J = 50), "`J`")
  err(riclp(-1, mat32, t), "`n`")
  err(riclp(2, mat32, t, J = 99), "`J`")
  err(dp_mean("t", 1, 1), "`x`")   # a numeric vector is one curve (as_curves())
  err(dp_mean(x, -1, 1), "`epsilon`", "dpfda_error_privacy")
  err(dp_mean(x, 1, 0), "`tau`")
  err(dp_mean(x, 1, 1, mechanism = "foo"), "`mechanism`")
  err(dp_mean(x, 1, 1, select = "manual"), "`eta`")
  err(dp_mean(x, 1, 1, mechanism = "frl", select = "manual"), "`M`")
  err(dp_mean(x, 1, 1, mechanism = "frl", select = "manual", M = 50), "`M`")
  err(dp_mean(x, 1, 1, mechanism = "gp"), "`delta`", "dpfda_error_privacy")
  err(dp_mean(x, 1, 1, select = "pcv"), "`epsilon_select`", "dpfda_error_privacy")
  err(dp_mean(x, 1, 1, foo = 2), "`foo`")
  err(dp_mean(x, 1, 1, kernel = kernel_gaussian(0.1)), "`h`")
  err(dp_mean(x, 1, 1, psi = -1), "`psi`")
  err(pss_params("iclp_qr", 0, 1, 2), "`n`")
  err(pss_params("iclp_qr", 10, 1, -2), "`h`")
  err(pcv_select(x, 1, 1, "frl", mat32, epsilon_select = 0), "`epsilon_select`", "dpfda_error_privacy")
  err(pcv_select(x, 1, 1, "frl", mat32, epsilon_select = 1, folds = 10), "`folds`")
  err(pcv_select(x, 1, 1, "frl", kl_basis(mat32, seq(0, 1, length.out = 7)), epsilon_select = 1), "`basis`")
  err(predict(kl_basis(mat32, t), NA), "`newdata`")
})

test_that("an epsilon so small that the PSS rule overflows is named in the error", {
  t <- seq(0, 1, length.out = 10)
  x <- curves(matrix(rnorm(100), 10), t)
  e <- expect_error(dp_mean(x, epsilon = 1e-300, tau = 3), class = "dpfda_error_numeric")
  expect_identical(e$arg, "epsilon")
  expect_match(conditionMessage(e), "n \\* epsilon\\^2 = 1e-599|n \\* epsilon\\^2 = 0")
})

test_that("delta = 0 means pure DP: accepted by the Laplace mechanisms, refused with advice by the Gaussian ones", {
  # (every mechanism refused it as "must be a number in (0, 1)", although a pure-DP release has delta 0)
  x <- curves(matrix(seq(0.1, 0.9, length.out = 200), 20), seq(0, 1, length.out = 10))
  for (m in c("iclp_qr", "iclp_ar", "frl", "bernstein")) {
    r0 <- with_seed_mode(3, suppressWarnings(dp_mean(x, epsilon = 1, tau = 1, delta = 0, mechanism = m)))
    r1 <- with_seed_mode(3, suppressWarnings(dp_mean(x, epsilon = 1, tau = 1, mechanism = m)))
    expect_identical(r0$values, r1$values, info = m)
    expect_identical(r0$delta, 0, info = m)
  }
  e <- expect_error(dp_mean(x, epsilon = 1, tau = 1, delta = 0, mechanism = "gp"), class = "dpfda_error_privacy")
  expect_match(conditionMessage(e), "delta = 1e-5", fixed = TRUE)
  expect_error(dp_mean(x, epsilon = 1, tau = 1, delta = 0, mechanism = "frl", frl_noise = "gaussian"),
               "adds Gaussian noise", class = "dpfda_error_argument")
  expect_error(dp_mean(x, epsilon = 1, tau = 1, delta = -1), class = "dpfda_error_privacy")
})

test_that("delta = 0 elsewhere: accepted by the pure-DP dp_cov(), dp_fpca(), pcv_select(); the Gaussian ones say why not", {
  # (dp_cov() said "`delta` is not an argument of dp_cov()", dp_kde(mechanism = "sobolev") and the
  # others "must be a number in (0, 1), not 0", without saying that their noise is Gaussian)
  g <- seq(0, 1, length.out = 10)
  x <- curves(outer(seq(0.1, 0.9, length.out = 40), sin(pi * g)), g)
  q <- function(e) suppressWarnings(e)
  same <- function(f) expect_identical(with_seed_mode(4, q(f(list(delta = 0))))$values,
                                       with_seed_mode(4, q(f(list())))$values)
  same(function(d) do.call(dp_cov, c(list(x, epsilon = 1, tau = 1), d)))
  expect_identical(with_seed_mode(4, q(dp_fpca(x, epsilon = 1, tau = 1, delta = 0)))$values,
                   with_seed_mode(4, q(dp_fpca(x, epsilon = 1, tau = 1)))$values)
  b <- kl_basis(kernel_matern(3 / 2, 0.2), g)
  expect_identical(with_seed_mode(4, pcv_select(x, 1, 1, "frl", b, epsilon_select = 1, delta = 0))$value,
                   with_seed_mode(4, pcv_select(x, 1, 1, "frl", b, epsilon_select = 1))$value)
  e <- expect_error(dp_cov(x, epsilon = 1, tau = 1, delta = 1e-5), class = "dpfda_error_privacy")
  expect_identical(e$arg, "delta")
  expect_match(conditionMessage(e), "pure epsilon-DP", fixed = TRUE)
  gaussian <- list(
    quote(dp_kde(seq(0.1, 0.9, length.out = 30), g, bandwidth = 0.2, epsilon = 1, delta = 0, mechanism = "sobolev")),
    quote(dp_kde(seq(0.1, 0.9, length.out = 30), g, bandwidth = 0.2, epsilon = 1, delta = 0)),
    quote(dp_gp_release(sin(g), g, kernel_gaussian(0.3), sensitivity = 1, epsilon = 1, delta = 0)),
    quote(dp_noise_scale(1, epsilon = 1, delta = 0)),
    quote(dp_gp_regression(g, sin(g), g, kernel_gaussian(0.3), noise_variance = 0.1, y_bound = c(-1, 1), epsilon = 1,
                           delta = 0)),
    quote(dp_accuracy(mechanism = "gp", n = 100, tau = 1, grid = g, epsilon = 1, delta = 0)),
    quote(dp_bandwidth(seq(0.1, 0.9, length.out = 30), epsilon = 1, delta = 0)))
  for (cl in gaussian) {
    e <- expect_error(eval(cl), class = "dpfda_error_privacy", info = deparse(cl))
    expect_identical(e$arg, "delta", info = deparse(cl))
    expect_match(conditionMessage(e), "is 0 \\(pure DP\\), but .*(Gaussian noise|delta > 0)", info = deparse(cl))
  }
})

test_that("pcv_select(center = ) selects as on the centred curves, as dp_mean(center = ) releases", {
  # (pcv_select() had no `center`: curves far from 0, e.g. heights, were clipped at tau around 0)
  g <- seq(0, 1, length.out = 12)
  set.seed(8)
  m <- outer(rnorm(60, 1, 0.1), sin(pi * g)) + matrix(rnorm(720, 0, 0.05), 60)
  b <- kl_basis(kernel_matern(3 / 2, 0.2), g)
  cen <- function(t) 100 + 10 * t
  a <- with_seed_mode(5, pcv_select(curves(m + rep(cen(g), each = 60), g), 1, 2, "iclp_qr", b, epsilon_select = 1,
                                    center = cen))
  z <- with_seed_mode(5, pcv_select(curves(m, g), 1, 2, "iclp_qr", b, epsilon_select = 1))
  expect_identical(a$index, z$index)
  expect_equal(a$value, z$value)
  expect_error(pcv_select(curves(m, g), 1, 2, "iclp_qr", b, epsilon_select = 1, center = "a"),
               class = "dpfda_error_argument")
})

test_that("pcv_select() refuses a table, chunks or a summary with a classed error (it raised dplyr's)", {
  set.seed(2)
  g <- seq(0, 1, length.out = 6)
  d <- data.frame(id = rep(1:20, each = 6), arg = rep(g, 20), value = rnorm(120))
  b <- kl_basis(kernel_matern(1.5, 0.2), g)
  srcs <- list(dp_chunks(list(d)), summarise_mean(d, grid = g, tau = 2))
  if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
    srcs <- c(srcs, list(sqlite_tbl(d)))
  }
  for (x in srcs) {
    e <- expect_error(pcv_select(x, epsilon = 1, tau = 2, basis = b, epsilon_select = 0.5, grid = g),
                      class = "dpfda_error_argument")
    expect_match(conditionMessage(e), "needs them in memory", fixed = TRUE)
    expect_identical(e$arg, "x")
  }
})

test_that("pcv_select() defaults to dp_mean()'s kernel, and takes it as `kernel` too", {
  g <- seq(0, 10, length.out = 30)   # a grid in other units: the default lengthscale is 0.1 of its width
  set.seed(2)
  x <- curves(outer(stats::runif(60, 0.5, 1), sin(2 * pi * g / 10)) + matrix(stats::rnorm(1800, 0, 0.3), 60), g)
  sel <- function(...) vapply(c(1, 5, 6), function(seed) {
    with_seed_mode(seed, pcv_select(x, epsilon = 1, tau = 2, epsilon_select = 5, ...)$index)
  }, 1L)
  ref <- sel(basis = kl_basis(kernel_matern(3 / 2, 1), g))
  expect_false(identical(sel(basis = kernel_matern(3 / 2, 0.1)), ref))   # (the basis matters here)
  expect_identical(sel(), ref)
  expect_identical(sel(kernel = kernel_matern(3 / 2, 1)), ref)
  expect_error(sel(kernel = kernel_matern(3 / 2, 1), basis = kernel_matern(3 / 2, 1)), "not both",
               class = "dpfda_error_argument")
  expect_error(sel(kernel = "matern"), class = "dpfda_error_argument")
})
