# Balog, Tolstikhin & Schoelkopf: private kernel mean embeddings (R/mech-kme.R,
# src/kme.c). Oracles from the spec balog_kme_release.md section 6.3.

kme_toy <- function(N = 200, M = 30, D = 2, seed = 1) {
  set.seed(seed)
  list(x = matrix(rnorm(N * D), N, D), z = matrix(runif(M * D, -3, 3), M, D), k = kernel_gaussian(0.8))
}

# Port of the authors' modified Gram-Schmidt in the RKHS (compute_basis):
# returns the kept indices and the coefficient matrix B (F x M) with
# b_f = sum_m B[f, m] k(z_m, .).
mgs_basis <- function(K, eps = 1e-5) {
  M <- nrow(K)
  B <- matrix(0, 0, M)
  kept <- integer(0)
  for (m in seq_len(M)) {
    v <- numeric(M); v[m] <- 1
    for (f in seq_len(nrow(B))) {
      v <- v - sum(B[f, ] * (K %*% v)) * B[f, ]
    }
    nrm2 <- sum(v * (K %*% v))
    if (nrm2 > eps) {
      B <- rbind(B, v / sqrt(nrm2))
      kept <- c(kept, m)
    }
  }
  list(B = B, kept = kept)
}

test_that("noise off: weights solve the Galerkin system and reproduce the projection", {
  t <- kme_toy()
  f <- dpfda:::kme_fit_subspace(t$x, t$z, t$k, sigma = 1, noise = FALSE)
  K <- kernel_matrix(t$k, t$z)
  kb <- colMeans(kernel_matrix(t$k, t$x, t$z))
  expect_equal(f$kbar, kb, tolerance = 1e-13)
  S <- f$basis$kept
  expect_lt(max(abs(K[S, S] %*% f$weights[S] - kb[S])), 1e-8)
  expect_true(all(f$weights[-S] == 0))
  # RKHS distance: formula of the package vs a direct computation with all
  # kernel matrices, and vs the projection form kxx - ||alpha||^2
  Kxx <- kernel_matrix(t$k, t$x)
  w <- f$weights
  direct <- mean(Kxx) - 2 * sum(w * kb) + sum(w * (K %*% w))
  expect_equal(mean(Kxx) - sum(f$alpha^2), direct, tolerance = 1e-9)
  r <- structure(list(points = t$z, weights = w, kernel = t$k), class = "dpfda_kme_release")
  expect_equal(kme_mmd(r, t$x)^2, direct, tolerance = 1e-9)
  # projection optimality: not worse than the uniform-weight baseline
  base <- mean(Kxx) - 2 * mean(kb) + mean(K)
  expect_lte(direct, base + 1e-12)
  # z = x: the projection reproduces the empirical embedding exactly
  g <- dpfda:::kme_fit_subspace(t$x[1:40, ], t$x[1:40, ], t$k, 1, tol = 1e-12, noise = FALSE)
  expect_lt(mean(kernel_matrix(t$k, t$x[1:40, ])) - sum(g$alpha^2), 1e-8)
})

test_that("the basis is the authors' Gram-Schmidt, orthonormal, with the prefix property", {
  t <- kme_toy(M = 40)
  z <- rbind(t$z, t$z[c(3, 7), ])                 # duplicates must be skipped
  z <- z[c(1:10, 41, 11:40, 42), ]
  K <- kernel_matrix(t$k, z)
  b <- dpfda:::kme_basis(K)
  ref <- mgs_basis(K)
  expect_identical(b$kept, ref$kept)
  expect_false(11L %in% b$kept)
  # B = L_S^{-1} on the kept points
  Binv <- forwardsolve(b$Ls, diag(b$F))
  expect_lt(max(abs(Binv - ref$B[, b$kept])), 1e-8)
  expect_lt(max(abs(Binv %*% K[b$kept, b$kept] %*% t(Binv) - diag(b$F))), 1e-8)
  # the blocked (panel, BLAS-3) factorisation gives the same basis
  for (P in c(2L, 7L, 16L)) {
    bb <- dpfda:::kme_basis(K, block = P)
    expect_identical(bb$kept, b$kept)
    expect_equal(bb$L, b$L, tolerance = 1e-12)
    expect_equal(bb$d, b$d, tolerance = 1e-12)
  }
  b1 <- dpfda:::kme_basis(K, block = 1L)
  expect_identical(b1$kept, b$kept)
  # prefix: basis of the first 20 points = first F(20) columns
  b20 <- dpfda:::kme_basis(K[1:20, 1:20])
  expect_identical(b20$kept, b$kept[b$kept <= 20])
  expect_equal(b20$L, b$L[1:20, seq_len(b20$F)], tolerance = 1e-12)
  # pivoted: same span when nothing is dropped
  t2 <- kme_toy(M = 12)
  f1 <- dpfda:::kme_fit_subspace(t2$x, t2$z, t2$k, 1, noise = FALSE)
  f2 <- dpfda:::kme_fit_subspace(t2$x, t2$z, t2$k, 1, pivot = TRUE, noise = FALSE)
  expect_equal(f1$basis$F, 12L)
  expect_equal(sum(f1$alpha^2), sum(f2$alpha^2), tolerance = 1e-6)
  expect_equal(f1$weights, f2$weights, tolerance = 1e-6)
})

test_that("brute force over neighbours: alpha moves by at most sqrt(2)/N (Gaussian), 2/N in general", {
  set.seed(3)
  N <- 20
  x <- matrix(rnorm(N * 2), N, 2)
  z <- matrix(runif(30, -3, 3), 15, 2)
  repl <- rbind(x[1:5, ], z, matrix(c(50, 50, -40, 10), 2, byrow = TRUE), matrix(rnorm(20, sd = 2), 10))
  for (k in list(kernel_gaussian(1), kernel_matern(5 / 2, 0.7), kernel_exponential(1, "l1"))) {
    K <- kernel_matrix(k, z)
    b <- dpfda:::kme_basis(K)
    alpha <- function(xx) forwardsolve(b$Ls, colMeans(kernel_matrix(k, xx, z))[b$kept])
    a0 <- alpha(x)
    worst <- 0
    for (i in c(1, 7, N)) for (j in seq_len(nrow(repl))) {
      x1 <- x; x1[i, ] <- repl[j, ]
      worst <- max(worst, sqrt(sum((alpha(x1) - a0)^2)))
    }
    expect_lte(worst, 2 / N + 1e-12)
    expect_lte(worst, sqrt(2) / N + 1e-12)   # nonnegative kernels with k(x, x) = 1
    # tightness for the Gaussian: z_1 against a far point z_2, both kept
  }
  k <- kernel_gaussian(0.3)
  zz <- rbind(c(0, 0), c(10, 10))
  b <- dpfda:::kme_basis(kernel_matrix(k, zz))
  alpha <- function(xx) forwardsolve(b$Ls, colMeans(kernel_matrix(k, xx, zz))[b$kept])
  x0 <- rbind(matrix(5, N - 1, 2), zz[1, ]); x1 <- x0; x1[N, ] <- zz[2, ]
  expect_equal(sqrt(sum((alpha(x1) - alpha(x0))^2)), sqrt(2) / N, tolerance = 1e-6)
  # the exact Gaussian privacy profile at the worst shift 2/N
  sig <- dpfda:::kme_sigma(N, 0.5, 1e-5, "classical")
  expect_lte(gaussian_delta(0.5, sig, 2 / N), 1e-5)
  sig <- dpfda:::kme_sigma(N, 2, 1e-5, "analytic")
  expect_lte(gaussian_delta(2, sig, 2 / N), 1e-5 * (1 + 1e-9))
})

test_that("tight sensitivity sqrt(2 v) / N for nonnegative kernels; 2 sqrt(v) / N otherwise", {
  t <- kme_toy(N = 50, M = 5)
  r <- with_seed_mode(1, dp_kme(t$x, t$k, 0.5, 1e-5, synthetic = t$z, tight = TRUE))
  expect_equal(r$sensitivity, sqrt(2) / 50)
  expect_equal(r$noise_scale, dp_noise_scale(sqrt(2) / 50, 0.5, 1e-5))
  k5 <- kernel_gaussian(0.8, variance = 0.25)
  r <- with_seed_mode(1, dp_kme(t$x, k5, 0.5, 1e-5, synthetic = t$z))
  expect_equal(r$sensitivity, 2 * 0.5 / 50)
  expect_error(dp_kme(t$x, t$k, 0.5, 1e-5, method = "random_features", synthetic = t$z, J = 20, tight = TRUE),
               class = "dpfda_error_privacy")
  # brute force with variance 0.25: shifts of alpha stay below sqrt(2 v) / N
  K <- kernel_matrix(k5, t$z)
  b <- dpfda:::kme_basis(K)
  alpha <- function(xx) forwardsolve(b$Ls, colMeans(kernel_matrix(k5, xx, t$z))[b$kept])
  a0 <- alpha(t$x)
  worst <- max(vapply(1:100, function(j) {
    x1 <- t$x; x1[j %% 50 + 1, ] <- rnorm(2, sd = 3)
    sqrt(sum((alpha(x1) - a0)^2))
  }, 0))
  expect_lte(worst, sqrt(2 * 0.25) / 50 + 1e-12)
  expect_lte(gaussian_delta(0.5, r$noise_scale / sqrt(2), worst), 1e-5)   # tight noise covers it
})

test_that("calibration constants", {
  # sqrt(8 log(1.25e6)) / 1e5 = 1.0597605e-4 (the spec rounds to 1.059757e-4)
  expect_equal(dpfda:::kme_sigma_paper(1e5, 1, 1e-6), 1.0597605e-4, tolerance = 1e-7)
  for (N in c(10, 1e3, 1e5)) for (e in c(0.01, 0.5)) for (d in c(1e-3, 1e-8)) {
    s <- dpfda:::kme_sigma(N, e, d, "classical")
    expect_equal(s * N * e / sqrt(8 * log(1.25 / d)), 1, tolerance = 1e-12)
    expect_lte(dpfda:::kme_sigma(N, e, d, "analytic"), s)
  }
  t <- kme_toy(N = 50, M = 5)
  expect_error(dp_kme(t$x, t$k, 1, 1e-5, synthetic = t$z, calibration = "classical"),
               class = "dpfda_error_privacy")
  expect_error(dp_kme(t$x, kernel_gaussian(1, variance = 2), 1, 1e-5, synthetic = t$z),
               class = "dpfda_error_privacy")
  r0 <- with_seed_mode(1, dp_kme(t$x, t$k, 1, 0, synthetic = t$z))
  expect_equal(r0$noise_scale, sqrt(r0$noise_dim) * (2 / 50) / 1)
  expect_output(print(r0), "Laplace")
})

test_that("delta = 0: Laplace noise of scale sqrt(F) 2/(N eps) on the coordinates (0.7x is caught)", {
  t <- kme_toy(N = 100, M = 6, seed = 4)
  f0 <- dpfda:::kme_fit_subspace(t$x, t$z, t$k, 1, noise = FALSE)
  Ls <- f0$basis$Ls
  S <- f0$basis$kept
  F <- length(S)
  b <- sqrt(F) * (2 / 100) / 0.5
  R <- 1500
  nz <- with_seed_mode(24, t(vapply(seq_len(R), function(i) {
    r <- dp_kme(t$x, t$k, 0.5, 0, synthetic = t$z)
    as.vector(crossprod(Ls, r$weights[S])) - f0$alpha
  }, numeric(F))))
  ok <- function(e) {
    v <- mean(e^2) / (2 * b^2)                  # Laplace variance 2 b^2
    m <- mean(abs(e)) / b                       # E|e| = b
    c(abs(v - 1) < 5 * sqrt(5 / (R * F)), abs(m - 1) < 5 / sqrt(R * F),
      stats::ks.test(as.vector(abs(e)) / b, "pexp")$p.value > 1e-6)
  }
  expect_equal(ok(nz), c(TRUE, TRUE, TRUE))
  expect_false(any(ok(0.7 * nz)))
  # random features: scale sqrt(J) 2 / (N eps)
  r <- with_seed_mode(25, dp_kme(t$x, t$k, 0.5, 0, method = "random_features", synthetic = t$z, J = 40,
                                 iters = 5))
  expect_equal(r$noise_scale, sqrt(40) * (2 / 100) / 0.5)
  expect_equal(r$calibration, "laplace")
})

test_that("seeded subspace releases: the noisy coordinates have covariance sigma^2 I (and 0.7x is caught)", {
  t <- kme_toy(N = 100, M = 6, seed = 4)
  f0 <- dpfda:::kme_fit_subspace(t$x, t$z, t$k, 1, noise = FALSE)
  Ls <- f0$basis$Ls
  S <- f0$basis$kept
  F <- length(S)
  expect_equal(F, 6L)
  R <- 1500
  noise <- with_seed_mode(11, t(vapply(seq_len(R), function(i) {
    r <- dp_kme(t$x, t$k, 0.5, 1e-4, synthetic = t$z)
    as.vector(crossprod(Ls, r$weights[S])) - f0$alpha     # beta - alpha
  }, numeric(F))))
  sigma <- dpfda:::kme_sigma(100, 0.5, 1e-4)
  check <- function(nz) {
    C <- empirical_cov(nz) / sigma^2
    ratio <- sum(diag(C)) / F                             # ~ chi2_{RF} / (RF)
    ok_diag <- abs(ratio - 1) < 5 * sqrt(2 / (R * F))
    ok_off <- max(abs(C[upper.tri(C)])) < 5 / sqrt(R)
    ks <- stats::ks.test(rowSums(nz^2) / sigma^2, "pchisq", df = F)$p.value
    c(ok_diag && ok_off, ks > 1e-6)
  }
  expect_equal(check(noise), c(TRUE, TRUE))
  expect_equal(check(0.7 * noise), c(FALSE, FALSE))
  expect_equal(check(noise / 0.7), c(FALSE, FALSE))
})

test_that("random features: norm 1 exactly, unbiased kernel, sensitivity 2/N, seeded noise covariance", {
  for (k in list(kernel_gaussian(c(0.5, 2)), kernel_matern(3 / 2, 1), kernel_exponential(1, "l1"),
                 kernel_gaussian(H = matrix(c(1, 0.3, 0.3, 0.5), 2)))) {
    set.seed(5)
    rff <- kme_rff(k, J = 400, dim = 2)
    x <- matrix(rnorm(200, sd = 30), 100, 2)
    expect_lt(max(abs(rowSums(kme_features(rff, x)^2) - 1)), 1e-12)
    # mean of phi(x)'phi(y) over independent feature draws within 4 s.e. of k(x, y)
    p <- rbind(c(0, 0), c(0.6, -0.4))
    v <- vapply(1:60, function(i) {
      ph <- kme_features(kme_rff(k, 400, 2), p)
      sum(ph[1, ] * ph[2, ])
    }, 0)
    expect_lt(abs(mean(v) - kernel_matrix(k, p)[1, 2]), 4 * sd(v) / sqrt(60) + 1e-12)
  }
  # uniform error of phi'phi against k shrinks like J^(-1/2)
  set.seed(23)
  g <- as.matrix(expand.grid(seq(-2, 2, 0.5), seq(-2, 2, 0.5)))
  kg <- kernel_gaussian(1)
  Kg <- kernel_matrix(kg, g)
  sup_err <- function(J) mean(vapply(1:5, function(i) {
    ph <- kme_features(kme_rff(kg, J, 2), g)
    max(abs(tcrossprod(ph) - Kg))
  }, 0))
  e1 <- sup_err(100); e2 <- sup_err(6400)
  expect_gt(e1 / e2, 8 / 2)     # 8 = sqrt(6400 / 100), up to a factor 2
  expect_lt(e1 / e2, 8 * 2)
  # brute-force neighbours of the mean feature vector
  set.seed(6)
  N <- 15
  rff <- kme_rff(kernel_gaussian(1), 100, 2)
  x <- matrix(rnorm(2 * N), N, 2)
  m0 <- kme_features(rff, x, mean = TRUE)
  expect_equal(m0, colMeans(kme_features(rff, x)), tolerance = 1e-13)
  worst <- max(vapply(1:200, function(j) {
    x1 <- x; x1[j %% N + 1, ] <- rnorm(2, sd = 5)
    sqrt(sum((kme_features(rff, x1, mean = TRUE) - m0)^2))
  }, 0))
  expect_lte(worst, 2 / N + 1e-12)
  # seeded noise on the mean features: covariance sigma^2 I
  sigma <- 0.01
  R <- 400
  nz <- with_seed_mode(12, t(vapply(seq_len(R), function(i) {
    dpfda:::kme_noisy_features(rff, x, sigma) - m0
  }, numeric(100))))
  ratio <- mean(nz^2) / sigma^2
  expect_lt(abs(ratio - 1), 5 * sqrt(2 / (R * 100)))
  expect_gt(abs(0.49 * ratio - 1), 5 * sqrt(2 / (R * 100)))   # 0.7x noise would be caught
  expect_lt(max(abs(cor(nz[, 1:10])[upper.tri(diag(10))])), 5 / sqrt(R))
})

test_that("the reduced set sees only the noisy vector (called without x) and copies its start points", {
  expect_false(any(c("x", "data", "X") %in% names(formals(kme_reduced_set))))
  t <- kme_toy(N = 300, M = 8)
  rec <- new.env()
  suppressMessages(trace("kme_reduced_set", where = asNamespace("dpfda"), print = FALSE,
        tracer = bquote({
          e <- .(rec)
          e$args <- as.list(match.call())[-1L]
          e$target <- target
          e$start <- start
        })))
  on.exit(suppressMessages(untrace("kme_reduced_set", where = asNamespace("dpfda"))), add = TRUE)
  z0 <- t$z + 0
  r <- with_seed_mode(7, dp_kme(t$x, t$k, 1, 1e-5, method = "random_features", synthetic = t$z, J = 200,
                                iters = 20))
  expect_identical(names(rec$args), c("target", "rff", "start", "iters", "lr", "weights", "lasso_lambda", "domain", "l1_bound"))
  expect_length(rec$target, 200L)
  expect_identical(rec$start, z0)
  expect_identical(t$z, z0)                       # not modified in place
  # the target is the seeded noisy vector: same seed, same features, same noise (on its lattice of
  # 2^-20 noise scales)
  sg <- dpfda:::kme_sigma(300, 1, 1e-5)
  rff <- with_seed_mode(7, {
    rf <- kme_rff(t$k, 200, 2, origin = colMeans(t$z))   # (dp_kme: the start points' centroid)
    list(rf = rf, noisy = dpfda:::kme_noisy_features(rf, t$x, sg))
  })
  expect_equal(rec$target, dpfda:::kme_canonical_target(rff$noisy, sg), tolerance = 1e-12)
  expect_lte(max(abs(rec$target - rff$noisy)), sg * 2^-21 * (1 + 1e-9))
  expect_gt(max(abs(rec$target - rff$noisy)), 0)
  expect_equal(r$rff$W, rff$rf$W)
  expect_true(all(is.finite(r$weights)))
})

test_that("greedy pre-images, analytic gradient and the Lasso", {
  set.seed(8)
  k <- kernel_gaussian(1)
  rff <- kme_rff(k, 400, 2)
  zs <- c(0.3, -0.2)
  target <- kme_features(rff, rbind(zs), mean = TRUE)
  rs <- kme_reduced_set(target, rff, start = rbind(zs + c(0.2, -0.1)), iters = 300, lr = 0.05,
                        weights = "greedy", lasso_lambda = 0, domain = NULL)
  expect_lt(max(abs(rs$points - zs)), 1e-3)
  expect_equal(rs$greedy_beta, 1, tolerance = 1e-5)
  # gradient vs finite differences
  psi <- rnorm(400)
  gr <- .Call(dpfda:::C_dpfda_kme_preimage_grad, psi, rff$W, rff$scale, zs)
  fd <- vapply(1:2, function(j) {
    h <- 1e-6; e <- c(0, 0); e[j] <- h
    (.Call(dpfda:::C_dpfda_kme_preimage_grad, psi, rff$W, rff$scale, zs + e)[1] -
        .Call(dpfda:::C_dpfda_kme_preimage_grad, psi, rff$W, rff$scale, zs - e)[1]) / (2 * h)
  }, 0)
  expect_equal(gr[-1], fd, tolerance = 1e-6)
  # three Adam steps match a reference R implementation
  adam_ref <- function(psi, W, s, z, iters, lr) {
    Jp <- ncol(W); mv <- vv <- numeric(length(z))
    for (t in seq_len(iters)) {
      th <- as.vector(crossprod(W, z))
      A <- s * sum(psi[1:Jp] * cos(th) + psi[Jp + 1:Jp] * sin(th))
      gA <- s * as.vector(W %*% (-psi[1:Jp] * sin(th) + psi[Jp + 1:Jp] * cos(th)))
      g <- -2 * A * gA / (s^2 * Jp)
      mv <- 0.9 * mv + 0.1 * g; vv <- 0.999 * vv + 0.001 * g^2
      z <- z - lr * sqrt(1 - 0.999^t) / (1 - 0.9^t) * mv / (sqrt(vv) + 1e-8)
    }
    z
  }
  psi0 <- kme_features(rff, matrix(rnorm(20), 10), mean = TRUE)
  z3 <- kme_reduced_set(psi0, rff, start = rbind(c(0.5, 0.5)), iters = 3, lr = 0.1, weights = "greedy",
                        lasso_lambda = 0, domain = NULL)$points
  expect_equal(as.vector(z3), adam_ref(psi0, rff$W, rff$scale, c(0.5, 0.5), 3, 0.1), tolerance = 1e-12)
  # residual norms non-increasing; Lasso KKT conditions
  target <- kme_features(rff, matrix(rnorm(100), 50, 2), mean = TRUE)
  lam <- 1e-3
  rs <- kme_reduced_set(target, rff, start = matrix(runif(20, -2, 2), 10, 2), iters = 30, lr = 0.2,
                        weights = "lasso", lasso_lambda = lam, domain = c(-3, 3))
  expect_true(all(diff(rs$residual_norms) <= 1e-12))
  expect_true(all(abs(rs$points) <= 3))
  Phi <- kme_features(rff, rs$points)
  g <- 2 * as.vector(Phi %*% (target - crossprod(Phi, rs$weights)))
  nz <- rs$weights != 0
  if (any(!nz)) expect_lt(max(abs(g[!nz])), lam * (1 + 1e-3))
  expect_equal(g[nz], lam * sign(rs$weights[nz]), tolerance = 1e-3)
  # orthogonal design: soft thresholding exactly
  y <- c(3, -0.2, 1, 0.05)
  fit <- .Call(dpfda:::C_dpfda_kme_lasso, diag(4), y, sum(y^2), 0.5, numeric(4), 100L, 1e-14)
  expect_equal(fit[[1]], sign(y) * pmax(abs(y) - 0.25, 0))
})

test_that("Theorem 11: L1-bounded re-weighting", {
  set.seed(9)
  v <- rnorm(20)
  u <- dpfda:::kme_proj_l1(v, 2)
  expect_lte(sum(abs(u)), 2 + 1e-10)
  # brute force: the projection is the closest point of the ball (random feasible points)
  for (i in 1:200) {
    p <- dpfda:::kme_proj_l1(rnorm(20) * 3, 2)
    expect_gte(sum((p - v)^2), sum((u - v)^2) - 1e-12)
  }
  # the constrained reduced set (paper's eq. 5 with C = 1)
  rff <- kme_rff(kernel_gaussian(1), 200, 2)
  target <- kme_features(rff, matrix(rnorm(100), 50), mean = TRUE) + rnorm(200, sd = 0.05)
  st <- matrix(runif(20, -2, 2), 10)
  r1 <- kme_reduced_set(target, rff, st, iters = 20, lr = 0.2, weights = "l1ball", lasso_lambda = 0,
                        domain = NULL, l1_bound = 1)
  expect_lte(sum(abs(r1$weights)), 1 + 1e-10)
  obj <- function(w) sum((target - crossprod(kme_features(rff, r1$points), w))^2)
  for (i in 1:50) expect_gte(obj(dpfda:::kme_proj_l1(rnorm(10), 1)), obj(r1$weights) - 1e-10)
  t <- kme_toy(N = 500, M = 25)
  r2 <- with_seed_mode(10, dp_kme(t$x, t$k, 0.2, 1e-5, method = "random_features", synthetic = t$z, J = 200,
                                  iters = 20, l1_bound = 1))
  expect_lte(sum(abs(r2$weights)), 1 + 1e-10)
  r <- with_seed_mode(10, dp_kme(t$x, t$k, 0.2, 1e-5, synthetic = t$z, l1_bound = 1.5))
  expect_lte(sum(abs(r$weights)), 1.5 + 1e-8)
  K <- kernel_matrix(t$k, t$z)
  w0 <- c(0.5, rep(0, 24))
  expect_identical(dpfda:::kme_l1_reweight(K, w0, 1), w0)
})

test_that("exponential mechanism: exact probabilities within e^epsilon for neighbours; frequencies", {
  set.seed(13)
  N <- 30
  k <- kernel_gaussian(1)
  x <- matrix(rnorm(2 * N), N, 2)
  cands <- lapply(0:5, function(i) matrix(rnorm(6, mean = i / 2), 3, 2))
  util <- function(xx) vapply(cands, function(p) -kme_mmd(structure(list(points = p, weights = rep(1 / 3, 3),
                                                                             kernel = k), class = "dpfda_kme_release"),
                                                          xx), 0)
  eps <- 1
  p0 <- dpfda:::select_probabilities(util(x), 2 / N, eps)
  for (j in 1:20) {
    x1 <- x; x1[j, ] <- rnorm(2, sd = 4)
    p1 <- dpfda:::select_probabilities(util(x1), 2 / N, eps)
    expect_lte(max(abs(log(p1 / p0))), eps + 1e-12)
  }
  # empirical frequencies of dp_kme's choice match the softmax
  sel <- with_seed_mode(14, vapply(1:600, function(i) {
    dp_kme(x, k, eps, 0, method = "exponential", candidates = cands)$selected
  }, 0L))
  obs <- tabulate(sel, 6)
  set.seed(19)
  expect_gt(stats::chisq.test(obs, p = p0, simulate.p.value = TRUE, B = 2000)$p.value, 1e-3)
})

test_that("release hygiene, reproducibility and uses of a release", {
  t <- kme_toy(N = 400, M = 30)
  r <- with_seed_mode(15, dp_kme(t$x, t$k, 1, 1e-5, synthetic = t$z))
  r2 <- with_seed_mode(15, dp_kme(t$x, t$k, 1, 1e-5, synthetic = t$z))
  expect_identical(r$weights, r2$weights)
  expect_s3_class(r, "dpfda_release")
  validate_dpfda_release(r)
  expect_false(any(c("alpha", "kbar", "beta", "noise_vector", "x", "data", "target") %in% names(r)))
  expect_identical(r$points, t$z)
  expect_equal(r$noise_scale, dpfda:::kme_sigma(400, 1, 1e-5))
  # secure mode gives different releases
  old <- dp_rng("secure")
  a <- dp_kme(t$x, t$k, 1, 1e-5, synthetic = t$z)$weights
  b <- dp_kme(t$x, t$k, 1, 1e-5, synthetic = t$z)$weights
  dp_rng(old)
  expect_false(identical(a, b))
  # rows of x as synthetic points: warning unless acknowledged
  expect_warning(with_seed_mode(1, dp_kme(t$x, t$k, 1, 1e-5, synthetic = t$x[1:10, ])),
                 class = "dpfda_warning_privacy")
  expect_silent(with_seed_mode(1, dp_kme(t$x, t$k, 1, 1e-5, synthetic = t$x[1:10, ], public = TRUE)))
  # predict is the kernel expansion; expectation of h = k(y0, .) equals it
  y0 <- rbind(c(0.1, 0.2))
  expect_equal(predict(r, y0), sum(r$weights * kernel_matrix(t$k, t$z, y0)))
  expect_equal(as.numeric(kme_expectation(r, function(p) kernel_matrix(t$k, p, y0)[, 1])), predict(r, y0))
  e <- kme_expectation(r, function(p) cbind(1, p[, 1]), normalise = TRUE)
  expect_equal(e[1], 1)
  expect_equal(kme_mmd(r, r), 0)
  expect_equal(kme_mmd(r, t$z, weights_y = r$weights), 0)
  # a public generator for the synthetic points
  rg <- with_seed_mode(3, dp_kme(t$x, t$k, 1, 1e-5, synthetic = function(M) matrix(rnorm(2 * M, 0, 2), M), M = 7))
  expect_equal(dim(rg$points), c(7L, 2L))
  expect_error(dp_kme(t$x, t$k, 1, 1e-5, synthetic = function(M) 1:3, M = 7), class = "dpfda_error")
  # clamping to a public domain
  xb <- t$x; xb[1, ] <- c(100, -100)
  rb <- with_seed_mode(16, dp_kme(xb, t$k, 1, 1e-5, synthetic = t$z, domain = c(-3, 3)))
  xc <- pmin(pmax(xb, -3), 3)
  rc <- with_seed_mode(16, dp_kme(xc, t$k, 1, 1e-5, synthetic = t$z))
  expect_equal(rb$weights, rc$weights)
  # print / summary / plot / as.data.frame
  expect_output(print(r), "Algorithm 1")
  expect_output(print(summary(r)), "total mass")
  grDevices::pdf(NULL); plot(r); plot(with_seed_mode(1, dp_kme(t$x[, 1], kernel_gaussian(1), 1, 1e-5,
                                                               synthetic = seq(-2, 2, 0.5)))); grDevices::dev.off()
  # points, weights, the embedding at the points and its noise band (R/confint.R)
  expect_named(as.data.frame(r), c("z1", "z2", "weight", "value", "se", "lower", "upper"))
  expect_equal(nrow(as.data.frame(r)), 30L)
})

test_that("the two-sample test rejects a shifted sample and holds its level roughly", {
  set.seed(17)
  x <- matrix(rnorm(4000), ncol = 2)
  z <- as.matrix(expand.grid(seq(-3, 3, 0.5), seq(-3, 3, 0.5)))
  k <- kernel_gaussian(1)
  r <- with_seed_mode(18, dp_kme(x, k, 1, 1e-5, synthetic = z))
  y1 <- matrix(rnorm(300, 0.5), ncol = 2)
  t1 <- kme_mmd_test(r, y1, B = 199)
  expect_lt(t1$p.value, 0.01)
  # the data name is the call's, not the deparsed matrix (it printed all 300 numbers)
  expect_identical(t1$data.name, "y1 against the private embedding r")
  expect_match(kme_mmd_test(r, matrix(rnorm(300), ncol = 2), B = 9)$data.name,
               "^matrix\\(rnorm\\(300\\), ncol = 2\\) against")
  # under the null: few rejections at 5% and p-values spread over (0, 1) (mean 0.49 here; a test whose
  # bootstrap ignored the privacy noise rejects far more often, one that overstated it gives p near 1)
  p <- vapply(1:20, function(i) kme_mmd_test(r, matrix(rnorm(300), ncol = 2), B = 99)$p.value, 0)
  expect_lt(mean(p < 0.05), 0.3)
  expect_gt(mean(p), 0.25)
  expect_lt(mean(p), 0.75)
})

test_that("C helpers: sine/cosine accuracy, mean Gram matrix, row means of other kernels", {
  set.seed(20)
  rff <- kme_rff(kernel_gaussian(1), 2000, 1)
  x <- c(seq(-1e4, 1e4, length.out = 301), rnorm(20, sd = 1e9), 0, pi / 4, pi / 2, -pi, 3 * pi / 4)
  P <- outer(x, rff$W[1, ])
  expect_lt(max(abs(kme_features(rff, x) / rff$scale - cbind(cos(P), sin(P)))), 1e-14)
  xx <- matrix(rnorm(300), 100, 3)
  for (k in list(kernel_gaussian(0.7), kernel_matern(5 / 2, 1, variance = 0.5), kernel_exponential(2, "l1"))) {
    expect_equal(dpfda:::kme_mean_gram(k, xx), mean(kernel_matrix(k, xx)), tolerance = 1e-13)
    z <- xx[1:7, ] + 0.1
    expect_equal(dpfda:::kme_rowmeans(k, z, xx, chunk = 13), colMeans(kernel_matrix(k, xx, z)), tolerance = 1e-13)
  }
})

test_that("experiment paths agree with direct releases (oracle code for the figures)", {
  t <- kme_toy(N = 300, M = 40)
  p <- with_seed_mode(21, dpfda:::kme_alg1_path(t$x, t$z, t$k, c(1, 5, 20, 40), c(0.1, 1), 1e-5))
  kxx <- mean(kernel_matrix(t$k, t$x))
  for (M in c(5, 40)) {
    f <- dpfda:::kme_fit_subspace(t$x, t$z[1:M, ], t$k, 1, noise = FALSE)
    r <- structure(list(points = t$z[1:M, ], weights = f$weights, kernel = t$k), class = "dpfda_kme_release")
    expect_equal(p$proj[p$M == M], kme_mmd(r, t$x), tolerance = 1e-6)
    base <- sqrt(mean(kernel_matrix(t$k, t$z[1:M, ])) - 2 * mean(kernel_matrix(t$k, t$x, t$z[1:M, ])) + kxx)
    expect_equal(p$base[p$M == M], base, tolerance = 1e-8)
  }
  expect_true(all(p$`alg1_eps0.1` >= p$proj))
  expect_identical(dpfda:::kme_paper_grid_M(1e4)[c(1, 15, 84)], c(1L, 16L, 10000L))
  expect_length(dpfda:::kme_paper_grid_M(1e4), 84L)
  expect_identical(dpfda:::kme_paper_report_M(1e4),
                   as.integer(c(1, 3, 5, 10, 17, 31, 56, 100, 177, 316, 562, 1000, 1778, 3162, 5623, 10000)))
  q <- with_seed_mode(22, dpfda:::kme_alg2_path(t$x, t$k, t$z, c(1), 1e-5, J = 200, report = c(1, 5, 10),
                                                iters = 20))
  expect_equal(nrow(q), 3L)
  expect_true(all(is.finite(q$dist)))
})

test_that("random features: the same release in any order of the points and from a table (the search is chaotic)", {
  # (the reduced-set search amplified the rounding of the feature sums in another order: points moved
  # by 1e-5, and by 0.2 with iters = 1000; its target is now on a lattice of 2^-20 noise scales)
  set.seed(31)
  x <- c(rbeta(400, 2, 5), rbeta(300, 6, 2))
  o <- sample(length(x))
  k <- kernel_gaussian(0.2)
  z <- matrix(seq(0, 1, length.out = 9))
  rel <- function(d, ...) with_seed_mode(5, dp_kme(d, k, 1, 1e-5, method = "random_features", synthetic = z,
                                                   domain = c(0, 1), iters = 1000, ...))
  a <- rel(matrix(x))
  b <- rel(matrix(x[o]))
  expect_identical(a$points, b$points)
  expect_identical(a$values$values, b$values$values)
  s <- with_seed_mode(5, summarise_kme(matrix(x[o]), k, method = "random_features", rff = kme_rff(k, 1000, 1),
                                      domain = c(0, 1)))
  s0 <- with_seed_mode(5, summarise_kme(matrix(x), k, method = "random_features", rff = kme_rff(k, 1000, 1),
                                       domain = c(0, 1)))
  expect_false(identical(s$sums, s0$sums))   # (the sums do differ in their last bits)
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr", "2.5.0")
  tb <- sqlite_tbl(data.frame(x = x), "kme_pts")
  cc <- rel(tb, columns = "x")
  expect_identical(a$points, cc$points)
})

test_that("a KME release reports the RKHS norm of its noise (the MMD it adds), checked by simulation", {
  # (print, glance and dp_accuracy gave only the noise sd at the points, 0.025 on geyser at epsilon 1,
  # where the noise moves the embedding by 0.35 in the RKHS, about the size of the embedding itself)
  set.seed(5)
  x <- matrix(runif(80), 40, 2)
  Z <- matrix(runif(40), 20, 2)
  k <- kernel_gaussian(0.4)
  K <- kernel_matrix(k, Z)
  for (delta in c(1e-5, 0)) {
    rs <- with_seed_mode(9, lapply(1:400, function(i) dp_kme(x, k, epsilon = 1, delta = delta, synthetic = Z)))
    r <- rs[[1]]
    e <- dpfda:::kme_noise_norm(r)
    expect_equal(as.double(e), r$noise_scale * sqrt((if (delta == 0) 2 else 1) * r$noise_dim))
    W <- sapply(rs, function(ri) ri$weights)
    D <- W - rowMeans(W)                       # noise of each release about their mean (the noiseless fit)
    ms <- mean(colSums(D * (K %*% D))) * 400 / 399
    expect_equal(sqrt(ms), as.double(e), tolerance = 0.05)   # 400 draws: the mean square within about 5%
    expect_output(print(r), sprintf("expected RKHS norm of the noise %s", format(as.double(e), digits = 4)))
    expect_equal(glance(r)$expected_rkhs, as.double(e))
    a <- dp_accuracy(r)
    expect_equal(as.double(a$expected_rkhs), as.double(e))
    expect_equal(glance(a)$expected_rkhs, as.double(e))
    expect_output(print(a), "expected RKHS norm of the noise")
  }
  rf <- with_seed_mode(2, dp_kme(x, k, epsilon = 1, delta = 1e-5, method = "random_features", J = 300, M = 10,
                                 domain = rbind(c(0, 0), c(1, 1))))
  expect_output(print(rf), "expected norm of the noise on the 300 features")
  expect_equal(glance(rf)$expected_rkhs, rf$noise_scale * sqrt(300))
})

test_that("a KME or KDE release from named columns predicts from a data frame by name", {
  # (a data frame with the columns in another order was read by position, without a word)
  d <- as.data.frame(scale(MASS::geyser))
  k <- with_seed_mode(6, dp_kme(d, kernel_gaussian(1), epsilon = 1, delta = 1e-6, M = 30,
                                domain = rbind(c(-3, -3), c(3, 3))))
  expect_identical(k$predictors, c("waiting", "duration"))
  pts <- d[1:5, ]
  expect_identical(predict(k, pts[c("duration", "waiting")]), predict(k, as.matrix(pts)))
  expect_error(predict(k, pts["waiting"]), "lacks \"duration\"", class = "dpfda_error_argument")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(k))
  # a table's `columns` name them as well
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  DBI::dbWriteTable(con, "g", d)
  kt <- with_seed_mode(6, dp_kme(dplyr::tbl(con, "g"), kernel_gaussian(1), epsilon = 1, delta = 1e-6,
                                 synthetic = k$points, columns = c("duration", "waiting")))
  expect_identical(kt$predictors, c("duration", "waiting"))
  # the tables of the release name the point columns as the data do (they were z1, z2)
  expect_named(as.data.frame(k), c("waiting", "duration", "weight", "value", "se", "lower", "upper"))
  expect_named(confint(k), c("waiting", "duration", "estimate", "se", "lower", "upper"))
  expect_named(tidy(k), c("waiting", "duration", "weight", "estimate", "std.error", "conf.low", "conf.high"))
  expect_identical(as.matrix(as.data.frame(k)[1:2]), unname(k$points), ignore_attr = TRUE)
  # a data column called like a column of those tables keeps z1, z2
  dv <- stats::setNames(d, c("value", "duration"))
  kv <- with_seed_mode(6, dp_kme(dv, kernel_gaussian(1), epsilon = 1, delta = 1e-6, M = 30,
                                 domain = rbind(c(-3, -3), c(3, 3))))
  expect_named(as.data.frame(kv), c("z1", "z2", "weight", "value", "se", "lower", "upper"))
  # dp_kde in the plane
  g2 <- list(seq(-2, 2, length.out = 5), seq(-2, 2, length.out = 6))
  r <- with_seed_mode(7, dp_kde(d, g2, 0.5, epsilon = 1, delta = 1e-6, columns = c(duration, waiting),
                                domain = rbind(c(-4, -4), c(4, 4))))
  expect_identical(r$predictors, c("duration", "waiting"))
  expect_identical(suppressWarnings(predict(r, pts[c("waiting", "duration")])),
                   suppressWarnings(predict(r, as.matrix(pts[c("duration", "waiting")]))))
})

test_that("a dp_kme() release that is mostly noise says so (utility warning), against the kernel's largest norm", {
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old))
  set.seed(3)
  x <- scale(as.matrix(iris[, 1:4]))
  z <- matrix(runif(400 * 4, -3, 3), ncol = 4)
  # 150 points, 400 synthetic points: noise of expected RKHS norm about 1, the largest an embedding has
  w <- expect_warning(r <- with_seed_mode(1, dp_kme(x, kernel_gaussian(1), epsilon = 1, delta = 1e-5, synthetic = z)),
                      class = "dpfda_warning_utility")
  e <- as.double(dpfda:::kme_noise_norm(r))
  expect_gt(e, 0.5)
  expect_match(conditionMessage(w), sprintf("expected RKHS norm %s", format(e, digits = 3)), fixed = TRUE)
  expect_match(conditionMessage(w), "N = 150")
  # the bound is the root of the kernel's variance, and the noise scales with it: the same warning
  expect_warning(r4 <- with_seed_mode(1, dp_kme(x, kernel_gaussian(1, variance = 0.25), epsilon = 1, delta = 1e-5,
                                                synthetic = z)), class = "dpfda_warning_utility")
  expect_equal(as.double(dpfda:::kme_noise_norm(r4)) / e, 0.5, tolerance = 1e-8)
  # a larger epsilon brings the noise below half the bound: silent
  r8 <- expect_silent(with_seed_mode(1, dp_kme(x, kernel_gaussian(1), epsilon = 3, delta = 1e-5, synthetic = z)))
  expect_lt(as.double(dpfda:::kme_noise_norm(r8)), 0.5)
  # more points: silent
  xx <- matrix(rnorm(20000), ncol = 2)
  expect_silent(with_seed_mode(1, dp_kme(xx, kernel_gaussian(1), epsilon = 1, delta = 1e-5,
                                         synthetic = matrix(runif(200, -3, 3), ncol = 2))))
  # random features: the norm on the features
  expect_warning(with_seed_mode(1, dp_kme(x, kernel_gaussian(1), epsilon = 1, delta = 1e-5, method = "random_features",
                                          synthetic = z[1:20, ], J = 400, iters = 5)),
                 "fewer random features", class = "dpfda_warning_utility")
})

test_that("a domain names the columns it bounds, and one that does not fit the data is said, on every source", {
  # (dp_kme() read a domain matrix by position: with MASS::geyser's columns waiting, then duration, a
  # domain for (duration, waiting) clamped all 299 points, in silence; dp_kde() matches the names and warns)
  skip_if_not_installed("MASS")
  geyser <- MASS::geyser
  K <- kernel_gaussian(c(0.5, 8))
  dom <- rbind(c(0.5, 40), c(6, 110))
  colnames(dom) <- c("duration", "waiting")
  rel <- function(x, domain, ...) with_seed_mode(3, dp_kme(x, K, epsilon = 1, delta = 1e-5, domain = domain, M = 30,
                                                          ...))
  # the named domain takes (duration, waiting), as a list of ranges and as columns do
  a <- expect_silent(rel(geyser, dom))
  b <- expect_silent(rel(geyser, list(duration = c(0.5, 6), waiting = c(40, 110))))
  cc <- expect_silent(rel(geyser[c("duration", "waiting")], unname(dom)))
  expect_identical(a$weights, b$weights)
  expect_identical(a$weights, cc$weights)
  expect_identical(a$points, cc$points)
  m <- kme_expectation(a, function(p) p, normalise = TRUE)
  expect_lt(abs(m[1] - mean(geyser$duration)), 0.6)   # the first axis is the duration
  expect_lt(abs(m[2] - mean(geyser$waiting)), 6)
  # a matrix of points with column names is read the same way
  expect_identical(rel(as.matrix(geyser), dom)$weights, a$weights)
  # the same domain read by position (no names) does not fit: the warning names the points' columns
  w <- expect_warning(rel(geyser, unname(dom)), class = "dpfda_warning_data")
  expect_match(conditionMessage(w), "299 of the 299 points (100%) lie outside `domain`", fixed = TRUE)
  expect_match(conditionMessage(w), "(waiting, duration)", fixed = TRUE)
  # a few points beyond the domain are clamped silently (its purpose); a tenth or more are said
  x1 <- c(seq(0.1, 0.9, length.out = 95), 2, 3, 4, 5, 6)
  expect_silent(with_seed_mode(3, dp_kme(x1, kernel_gaussian(0.3), 1, 1e-5, domain = c(0, 1), M = 10)))
  expect_warning(with_seed_mode(3, dp_kme(c(x1, 7:12), kernel_gaussian(0.3), 1, 1e-5, domain = c(0, 1), M = 10)),
                 "11 of the 106 points (10%)", fixed = TRUE, class = "dpfda_warning_data")
  # chunks and an SQLite table: the same count from their summary, the same release as in memory
  expect_warning(with_seed_mode(3, dp_kme(dp_chunks(geyser, 100), K, 1, 1e-5, domain = unname(dom), M = 30,
                                          columns = c("waiting", "duration"))),
                 "299 of the 299 points", class = "dpfda_warning_data")
  tb <- sqlite_tbl(geyser)
  expect_warning(rel(tb, unname(dom)), "299 of the 299 points", class = "dpfda_warning_data")
  expect_identical(expect_silent(rel(tb, dom))$weights, a$weights)
  # names that are not columns of the data are refused
  bad <- dom
  colnames(bad) <- c("duration", "wait")
  expect_error(rel(geyser, bad), "has no column \"wait\"", class = "dpfda_error_argument")
})

test_that("the warning about synthetic points among the rows of x says how many, and that a public grid may meet them", {
  x <- faithful$waiting
  w <- expect_warning(with_seed_mode(1, dp_kme(x, kernel_gaussian(5), 1, 1e-5, synthetic = c(40.5, 76, 99.5))),
                      class = "dpfda_warning_privacy")
  expect_match(conditionMessage(w), "1 of the 3 `synthetic` points equal rows of `x`", fixed = TRUE)
  expect_match(conditionMessage(w), "a public grid", fixed = TRUE)
  expect_silent(with_seed_mode(1, dp_kme(x, kernel_gaussian(5), 1, 1e-5, synthetic = c(40.5, 76.5, 99.5))))
})
