# Private kernel SVM (Hall, Rinaldo & Wasserman, Section 4.3; spec T8, S6) and
# the kernel ridge regression extension.

# The circle data of our Figure 3 reproduction (spec section 4.3).
circle_data <- function(n, d = 2, flip = 0.05) {
  x <- matrix(stats::runif(d * n), n)
  y <- ifelse(sqrt(rowSums((x - 0.5)^2)) < 0.3, 1, -1)
  k <- sample.int(n, round(flip * n))
  y[k] <- -y[k]
  list(x = x, y = y)
}

# Independent reference solver (plain R): accelerated projected gradient
# (FISTA with gradient-based restart) on the dual,
# min (1/(4 lambda)) b'Qb - sum(b) over the box [0, 1/n]^n, followed by an
# active-set polish: with the bounds found by FISTA fixed, the free
# coordinates solve the linear system Q_FF b_F = 2 lambda - Q_FA b_A exactly.
svm_dual_fista <- function(K, y, lambda, maxit = 5e3) {
  n <- length(y)
  C <- 1 / n
  Q <- K * outer(y, y)
  L <- max(eigen(Q, symmetric = TRUE, only.values = TRUE)$values) / (2 * lambda)
  proj <- function(b) pmin(pmax(b, 0), C)
  gap <- function(b) {
    m <- as.vector(Q %*% b) / (2 * lambda)   # y_i g(x_i)
    mean(pmax(0, 1 - m)) + sum(b * m) - sum(b)
  }
  b <- z <- numeric(n)
  t <- 1
  for (it in seq_len(maxit)) {
    b_new <- proj(z - (as.vector(Q %*% z) / (2 * lambda) - 1) / L)
    if (sum((z - b_new) * (b_new - b)) > 0) t <- 1   # restart the momentum
    t_new <- (1 + sqrt(1 + 4 * t^2)) / 2
    z <- b_new + ((t - 1) / t_new) * (b_new - b)
    b <- b_new
    t <- t_new
  }
  # polish on the active set found above
  free <- b > 1e-9 * C & b < (1 - 1e-9) * C
  bp <- ifelse(b > C / 2, C, 0)
  if (any(free)) {
    rhs <- 2 * lambda - Q[free, !free, drop = FALSE] %*% bp[!free]
    bp[free] <- solve(Q[free, free, drop = FALSE], rhs)
  }
  if (all(bp >= 0 & bp <= C) && gap(bp) < gap(b)) b <- bp
  list(b = b, a = b * y / (2 * lambda), gap = gap(b),
       dual = sum(b) - sum(b * (Q %*% b)) / (4 * lambda))
}

# Does any numeric leaf of a (nested) list or call equal one of `secrets`?
holds_any <- function(obj, secrets) {
  if (is.numeric(obj)) {
    return(any(vapply(secrets, function(s) length(obj) == length(s) &&
                        isTRUE(all.equal(as.vector(obj), as.vector(s), check.attributes = FALSE)), NA)))
  }
  if (is.list(obj) || is.call(obj)) {
    for (el in as.list(obj)) if (!missing(el) && holds_any(el, secrets)) return(TRUE)
  }
  FALSE
}

svm_primal <- function(K, y, a, lambda) {
  f <- as.vector(K %*% a)
  mean(pmax(0, 1 - y * f)) + lambda * sum(a * f)
}

test_that("the solver satisfies the KKT conditions and stops at gap <= gap_tol", {
  d <- with_seed_mode(11, circle_data(300))
  k <- kernel_gaussian(0.15)
  for (tol in c(1e-6, 1e-10)) {
    fit <- svm_fit(d$x, d$y, lambda = 0.01, kernel = k, gap_tol = tol)
    n <- length(d$y)
    b <- fit$dual
    expect_true(all(b >= 0 & b <= 1 / n))
    expect_lte(fit$gap, tol)
    expect_gt(fit$iterations, 0L)
    expect_equal(fit$coefficients, b * d$y / (2 * 0.01))
    # the gap recomputed in R from the returned b matches
    K <- kernel_matrix(k, d$x)
    m <- d$y * as.vector(K %*% fit$coefficients)   # y_i g(x_i)
    expect_equal(m, d$y * fit$fitted)
    gap_r <- mean(pmax(0, 1 - m)) + sum(b * m) - sum(b)
    expect_lt(abs(gap_r - fit$gap), 1e-12)
    expect_lt(abs(unname(fit$objective["primal"] - fit$objective["dual"]) - fit$gap), 1e-12)
    # the gap is a sum of non-negative complementarity terms
    # (1/n - b_i)(1 - m_i)_+ + b_i (m_i - 1)_+, so each is at most the gap
    comp <- (1 / n - b) * pmax(0, 1 - m) + b * pmax(0, m - 1)
    expect_true(all(comp >= -1e-15))
    expect_lte(max(comp), tol + 1e-13)
    # margin conditions, quantified by the same terms: b_i = 0 => m_i >= 1 - n gap;
    # b_i = 1/n => m_i <= 1 + n gap; otherwise |m_i - 1| <= gap / min(b_i, 1/n - b_i)
    g <- fit$gap + 1e-14
    expect_true(all(m[b == 0] >= 1 - n * g))
    expect_true(all(m[b == 1 / n] <= 1 + n * g))
    inner <- b > 0 & b < 1 / n
    expect_true(any(inner))
    expect_true(all(abs(m[inner] - 1) <= g / pmin(b[inner], 1 / n - b[inner])))
    # and approximately, for coordinates well inside the box
    well <- b > 0.01 / n & b < 0.99 / n
    if (any(well)) expect_lt(max(abs(m[well] - 1)), 100 * n * g)
  }
})

test_that("the solver agrees with an independent plain-R solver (n = 30)", {
  d <- with_seed_mode(7, circle_data(30, flip = 0.1))
  k <- kernel_gaussian(0.2)
  lambda <- 0.02
  fit <- svm_fit(d$x, d$y, lambda, k, gap_tol = 1e-12)
  K <- kernel_matrix(k, d$x)
  ref <- svm_dual_fista(K, d$y, lambda)
  expect_lte(ref$gap, 1e-10)
  expect_lt(abs(svm_primal(K, d$y, fit$coefficients, lambda) - svm_primal(K, d$y, ref$a, lambda)), 1e-9)
  expect_lt(abs(unname(fit$objective["dual"]) - ref$dual), 1e-9)
  # the primal minimiser is unique (2 lambda-strong convexity):
  # ||g_C - g_R||_H <= sqrt(gap_C / lambda) + sqrt(gap_R / lambda)
  dist <- rkhs_distance(k, d$x, fit$coefficients, d$x, ref$a)
  expect_lte(dist, sqrt(fit$gap / lambda) + sqrt(max(0, ref$gap) / lambda) + 1e-7)
  expect_equal(as.vector(K %*% fit$coefficients), as.vector(K %*% ref$a), tolerance = 1e-4)
})

test_that("the fit is a deterministic function of the data and leaves R's RNG alone", {
  d <- with_seed_mode(3, circle_data(100))
  set.seed(1)
  f1 <- svm_fit(d$x, d$y, 0.01, kernel_gaussian(0.2))
  after <- stats::runif(1)
  set.seed(1)
  f2 <- svm_fit(d$x, d$y, 0.01, kernel_gaussian(0.2))
  expect_identical(f1$coefficients, f2$coefficients)
  expect_identical(stats::runif(1), after)
})

test_that("maxit reached is a classed numeric error", {
  d <- with_seed_mode(3, circle_data(100))
  expect_error(svm_fit(d$x, d$y, 0.001, kernel_gaussian(0.1), gap_tol = 1e-12, maxit = 1),
               class = "dpfda_error_numeric")
  expect_error(dp_svm(d$x, d$y, 0.001, kernel_gaussian(0.1), rbind(c(0, 0), c(1, 1)), 1, 0.1,
                      gap_tol = 1e-12, maxit = 1), class = "dpfda_error_numeric")
})

test_that("sensitivity_erm follows the formula", {
  expect_equal(sensitivity_erm(1, 0.01, 1000), 0.1)
  expect_equal(sensitivity_erm(2, 0.5, 10, sup_kxx = 4), 2 * 2 / (0.5 * 10))
  expect_error(sensitivity_erm(1, 0, 10), class = "dpfda_error_argument")
  expect_error(sensitivity_erm(1, 0.1, 0), class = "dpfda_error_argument")
  expect_error(sensitivity_erm(-1, 0.1, 10), class = "dpfda_error_argument")
  expect_error(sensitivity_erm(1e300, 1e-300, 1), class = "dpfda_error_numeric")
})

test_that("neighbouring SVM fits are within 1/(lambda n) in RKHS norm (T8)", {
  n <- 200
  lambda <- 0.01
  k <- kernel_gaussian(0.15)
  d <- with_seed_mode(21, circle_data(n))
  fit <- svm_fit(d$x, d$y, lambda, k, gap_tol = 1e-11)
  bound <- sensitivity_erm(1, lambda, n)
  expect_equal(bound, 0.5)
  dists <- with_seed_mode(22, vapply(seq_len(25), function(r) {
    i <- sample.int(n, 1L)
    x2 <- d$x
    y2 <- d$y
    x2[i, ] <- stats::runif(2)   # replace the point ...
    y2[i] <- -d$y[i]             # ... and flip its label
    fit2 <- svm_fit(x2, y2, lambda, k, gap_tol = 1e-11)
    rkhs_distance(k, d$x, fit$coefficients, x2, fit2$coefficients)
  }, 0))
  # solver error: each fit is within sqrt(gap_tol / lambda) of the exact one
  expect_true(all(dists <= bound + 2 * sqrt(1e-11 / lambda)))
  expect_gt(max(dists), 0.02)   # the pairs really differ
})

test_that("the release has covariance sigma^2 K around the non-private fit", {
  d <- with_seed_mode(5, circle_data(40, d = 1))
  k <- kernel_gaussian(0.2)
  lambda <- 0.05
  grid <- c(0.1, 0.35, 0.6, 0.9)
  fit <- svm_fit(d$x, d$y, lambda, k)
  f_grid <- fit$fun(grid)
  N <- 4000
  r1 <- dp_svm(d$x, d$y, lambda, k, grid, epsilon = 0.8, delta = 1e-4)
  res <- with_seed_mode(9, t(replicate(N, predict(dp_svm(d$x, d$y, lambda, k, grid, epsilon = 0.8,
                                                         delta = 1e-4)) - f_grid)))
  s <- r1$noise_scale
  tol <- 5 * s^2 * sqrt(2 / N)
  K <- kernel_matrix(k, grid)
  expect_lt(max(abs(colMeans(res))), 5 * s / sqrt(N))
  expect_lt(max(abs(empirical_cov(res) - s^2 * K)), tol)
  # a noise scale 10% too small is detected
  expect_gt(max(abs(empirical_cov(0.9 * res) - s^2 * K)), tol)
})

test_that("the noise scale is dp_noise_scale of the ERM sensitivity (+ the strict term)", {
  d <- with_seed_mode(2, circle_data(150))
  g <- list(c(0, 0.5, 1), c(0, 1))
  k <- kernel_gaussian(0.2)
  r <- dp_svm(d$x, d$y, 0.01, k, g, epsilon = 0.5, delta = 1e-5)
  sens <- 1 / (0.01 * 150) + 2 * sqrt(1e-8 / 0.01)
  expect_equal(r$sensitivity, sens)
  expect_identical(r$noise_scale, dp_noise_scale(sens, 0.5, 1e-5))
  r <- dp_svm(d$x, d$y, 0.01, k, g, epsilon = 0.5, delta = 1e-5, strict = FALSE,
              calibration = "hall")
  expect_equal(r$sensitivity, 1 / 1.5)
  expect_identical(r$noise_scale, dp_noise_scale(1 / 1.5, 0.5, 1e-5, calibration = "hall"))
  # sup K(x, x) is the kernel variance
  r <- dp_svm(d$x, d$y, 0.01, kernel_gaussian(0.2, variance = 4), g, epsilon = 0.5, delta = 1e-5,
              strict = FALSE, gap_tol = 1e-4)
  expect_equal(r$sensitivity, 2 / 1.5)
  r <- dp_svm(d$x, d$y, 0.01, k, g, epsilon = 0.5, delta = 1e-5, gap_tol = 1e-4)
  expect_equal(r$sensitivity, 1 / 1.5 + 2 * sqrt(1e-4 / 0.01))
  expect_identical(r$mechanism, "svm")
  expect_s3_class(r, c("dpfda_svm_release", "dpfda_gp_release", "dpfda_release"))
})

test_that("Figure 3: the private classifier agrees with the non-private one (S6)", {
  t0 <- sum(proc.time()[c("user.self", "sys.self")])   # CPU seconds
  n <- 1000
  d <- with_seed_mode(5, circle_data(n))
  k <- kernel_gaussian(0.1)
  axes <- list(seq(0, 1, length.out = 100), seq(0, 1, length.out = 100))
  r <- with_seed_mode(5, dp_svm(d$x, d$y, lambda = 0.01, kernel = k, grid = axes, epsilon = 1,
                                delta = 0.1, calibration = "hall", strict = FALSE))
  expect_identical(r$sampler, "kronecker")
  expect_equal(r$sensitivity, 0.1)
  expect_equal(r$noise_scale, 0.2447746831, tolerance = 1e-9)
  fit <- svm_fit(d$x, d$y, 0.01, k)
  g <- as.matrix(expand.grid(axes))
  f <- fit$fun(g)
  agree <- mean(predict(r, type = "class") == ifelse(f >= 0, 1, -1))
  expect_gt(agree, 0.9)
  # the +1 region is the disc of radius 0.3: the non-private fit finds it
  truth <- ifelse(sqrt(rowSums((g - 0.5)^2)) < 0.3, 1, -1)
  expect_gt(mean(ifelse(f >= 0, 1, -1) == truth), 0.9)
  expect_identical(predict(r, type = "class"), ifelse(predict(r) >= 0, 1L, -1L))
  expect_lt(sum(proc.time()[c("user.self", "sys.self")]) - t0, 10)
})

test_that("labels may be +-1, 0/1, logical or a two-level factor; anything else is an error", {
  d <- with_seed_mode(4, circle_data(60))
  k <- kernel_gaussian(0.2)
  g <- c(0.2, 0.8)
  grid <- cbind(g, g)
  ref <- svm_fit(d$x, d$y, 0.05, k)$coefficients
  expect_identical(svm_fit(d$x, (d$y + 1) / 2, 0.05, k)$coefficients, ref)
  expect_identical(svm_fit(d$x, factor(d$y, levels = c(-1, 1), labels = c("out", "in")), 0.05, k)$coefficients,
                   ref)
  expect_identical(svm_fit(d$x, as.integer(d$y), 0.05, k)$coefficients, ref)
  expect_identical(svm_fit(d$x, d$y > 0, 0.05, k)$coefficients, ref)   # TRUE is +1, as in glm()
  expect_identical(with_seed_mode(1, dp_svm(y ~ x1 + x2, data = data.frame(y = d$y > 0, x1 = d$x[, 1], x2 = d$x[, 2]),
                                            lambda = 0.05, kernel = k, grid = grid, epsilon = 1, delta = 1e-5))$values$values,
                   with_seed_mode(1, dp_svm(d$x, d$y, 0.05, k, grid, 1, 1e-5))$values$values)
  r1 <- with_seed_mode(1, dp_svm(d$x, d$y, 0.05, k, grid, 1, 1e-5))
  r2 <- with_seed_mode(1, dp_svm(d$x, (d$y + 1) / 2, 0.05, k, grid, 1, 1e-5))
  expect_identical(r1$values, r2$values)
  bad <- list(c(-1, 0, 1), c(1, 2), "a", factor(c("a", "b", "c")), c(1, NA), c(TRUE, NA),
              factor(c("a", NA), levels = c("a", "b")))
  for (y in bad) {
    xx <- d$x[seq_along(y), , drop = FALSE]
    expect_error(svm_fit(xx, y, 0.05, k), class = "dpfda_error_argument")
    expect_error(dp_svm(xx, y, 0.05, k, grid, 1, 1e-5), class = "dpfda_error_argument")
  }
  y_bad <- d$y
  y_bad[3] <- 0.5
  err <- tryCatch(dp_svm(d$x, y_bad, 0.05, k, grid, 1, 1e-5), error = identity)
  expect_s3_class(err, "dpfda_error")
  expect_identical(err$arg, "y")
})

test_that("bad inputs are classed errors naming the argument", {
  d <- with_seed_mode(4, circle_data(30))
  k <- kernel_gaussian(0.2)
  grid <- rbind(c(0.2, 0.2), c(0.8, 0.8))
  arg_of <- function(expr) {
    e <- tryCatch(expr, error = identity)
    expect_s3_class(e, "dpfda_error")
    e$arg
  }
  xna <- d$x
  xna[2, 1] <- NA
  expect_identical(arg_of(dp_svm(xna, d$y, 0.01, k, grid, 1, 1e-5)), "x")
  expect_identical(arg_of(dp_svm(d$x, d$y[-1], 0.01, k, grid, 1, 1e-5)), "y")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0, k, grid, 1, 1e-5)), "lambda")
  expect_identical(arg_of(dp_svm(d$x, d$y, -1, k, grid, 1, 1e-5)), "lambda")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, "k", grid, 1, 1e-5)), "kernel")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, c(0.2, 0.5), 1, 1e-5)), "grid")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, grid, 0, 1e-5)), "epsilon")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, grid, 1, 1)), "delta")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, grid, 1, 1e-5, gap_tol = 2)), "gap_tol")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, grid, 1, 1e-5, maxit = 0)), "maxit")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, grid, 1, 1e-5, strict = NA)), "strict")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, grid, 1, 1e-5, domain = c(1, 0))), "domain")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, kernel_gaussian(c(0.1, 0.1, 0.1)), grid, 1, 1e-5)), "x")
  expect_identical(arg_of(dp_svm(d$x, d$y, 0.01, k, epsilon = 1, delta = 1e-5)), "grid")
  expect_error(dp_svm(d$x, d$y, 0.01, k, grid, 2, 1e-5, calibration = "hall"), class = "dpfda_error_privacy")
  expect_error(predict(dp_svm(d$x, d$y, 0.01, k, grid, 1, 1e-5), type = "prob"), class = "dpfda_error_argument")
})

test_that("releases hold no data, no fit and no data-dependent solver output", {
  d <- with_seed_mode(8, circle_data(50))
  k <- kernel_gaussian(0.2)
  grid <- list(c(0.25, 0.75), c(0.25, 0.75))
  fit <- svm_fit(d$x, d$y, 0.02, k)
  r <- dp_svm(d$x, d$y, 0.02, k, grid, 1, 1e-5)
  r_do <- do.call(dp_svm, list(x = d$x, y = d$y, lambda = 0.02, kernel = k, grid = grid,
                               epsilon = 1, delta = 1e-5))
  fg <- fit$fun(as.matrix(expand.grid(grid)))
  secrets <- list(d$x, d$y, fit$coefficients, fit$dual, fg)
  for (rel in list(r, r_do)) {
    expect_invisible(validate_dpfda_release(rel))
    expect_false(any(c("x", "y", "fit", "coefficients", "gap", "iterations", "dual") %in% names(rel)))
    expect_false(holds_any(unclass(rel), secrets))
    call_args <- as.list(rel$call)[-1]
    expect_true(all(vapply(call_args[c("x", "y")], is.name, NA)))
  }
  expect_identical(r_do$call$x, as.name("<private>"))
  expect_identical(r_do$call$y, as.name("<private>"))
  # the search does find a secret when there is one
  expect_true(holds_any(list(a = 1, b = list(c = fit$dual)), secrets))
  expect_true(holds_any(list(a = 1, b = as.call(list(as.name("f"), d$y))), list(d$y)))
})

test_that("covariates outside the domain are clamped", {
  d <- with_seed_mode(6, circle_data(60))
  k <- kernel_gaussian(0.2)
  x_out <- d$x
  x_out[1:3, 1] <- c(5, -2, 1.5)
  x_in <- x_out
  x_in[1:3, 1] <- c(1, 0, 1)
  expect_identical(svm_fit(x_out, d$y, 0.05, k, domain = c(0, 1))$coefficients,
                   svm_fit(x_in, d$y, 0.05, k)$coefficients)
  dom <- rbind(c(0, 0), c(1, 1))
  g <- rbind(c(0.3, 0.3), c(0.6, 0.6))
  r1 <- with_seed_mode(2, dp_svm(x_out, d$y, 0.05, k, g, 1, 1e-5, domain = dom))
  r2 <- with_seed_mode(2, dp_svm(x_in, d$y, 0.05, k, g, 1, 1e-5))
  expect_identical(r1$values, r2$values)
})

test_that("predict off the grid krigs the released path and classes follow its sign", {
  d <- with_seed_mode(4, circle_data(100))
  k <- kernel_gaussian(0.15)
  axes <- list(seq(0, 1, length.out = 12), seq(0, 1, length.out = 12))
  r <- with_seed_mode(3, dp_svm(d$x, d$y, 0.01, k, axes, 1, 0.1))
  new <- rbind(c(0.5, 0.5), c(0.05, 0.95), c(0.31, 0.77))
  v <- predict(r, new)
  expect_length(v, 3L)
  expect_identical(predict(r, new), v)
  expect_identical(predict(r, new, type = "class"), ifelse(v >= 0, 1L, -1L))
  expect_equal(predict(r, as.matrix(expand.grid(axes))[1:5, ]), predict(r)[1:5], tolerance = 1e-6)
})

# ---- kernel ridge regression (extension) -----------------------------------------

test_that("krr_fit solves (K + n lambda I) a = clipped, centred y", {
  x <- with_seed_mode(1, stats::runif(80))
  y <- sin(2 * pi * x) + with_seed_mode(2, stats::rnorm(80, sd = 0.3))
  y[1:3] <- c(10, -10, 3)
  k <- kernel_gaussian(0.1)
  fit <- krr_fit(x, y, 0.01, k, y_bound = c(-2, 2))
  yc <- pmin(pmax(y, -2), 2)
  expect_equal(fit$y, yc)
  K <- kernel_matrix(k, x)
  expect_equal(as.vector((K + 80 * 0.01 * diag(80)) %*% fit$coefficients), yc - 0)
  fit2 <- krr_fit(x, y, 0.01, k, y_bound = c(-1, 3))
  expect_equal(fit2$offset, 1)
  expect_equal(as.vector((K + 0.8 * diag(80)) %*% fit2$coefficients), pmin(pmax(y, -1), 3) - 1)
  expect_equal(predict(fit2, c(0.3, 0.5)), 1 + as.vector(kernel_matrix(k, c(0.3, 0.5), x) %*% fit2$coefficients))
  # clipping: responses beyond the bound act as the bound
  expect_equal(krr_fit(x, yc, 0.01, k, c(-2, 2))$coefficients, fit$coefficients)
  fit3 <- krr_fit(x, y, 0.01, k, y_bound = c(-1, 3), center = FALSE)
  expect_equal(fit3$offset, 0)
  expect_equal(as.vector((K + 0.8 * diag(80)) %*% fit3$coefficients), pmin(pmax(y, -1), 3))
  # `centre`, the older spelling, is the same argument; other names are refused
  expect_identical(krr_fit(x, y, 0.01, k, y_bound = c(-1, 3), centre = FALSE)$coefficients, fit3$coefficients)
  expect_error(krr_fit(x, y, 0.01, k, y_bound = c(-1, 3), centr = FALSE), class = "dpfda_error")
  expect_error(krr_fit(x, y, 0.01, k, y_bound = c(-1, 3), centre = NA), "`centre`", class = "dpfda_error")
})

test_that("dp_krr sensitivity is 2 B kappa (1 + kappa / sqrt(lambda)) / (lambda n)", {
  x <- with_seed_mode(1, stats::runif(50))
  y <- x^2
  grid <- seq(0, 1, length.out = 6)
  r <- dp_krr(x, y, 0.1, kernel_gaussian(0.2), grid, y_bound = c(-1, 3), epsilon = 1, delta = 1e-5)
  B <- 2
  expect_equal(r$sensitivity, 2 * B * (1 + 1 / sqrt(0.1)) / (0.1 * 50))
  expect_identical(r$noise_scale, dp_noise_scale(r$sensitivity, 1, 1e-5))
  expect_identical(r$offset, 1)
  r <- dp_krr(x, y, 0.1, kernel_gaussian(0.2, variance = 4), grid, y_bound = c(-1, 3), epsilon = 1,
              delta = 1e-5, center = FALSE)
  r_old <- dp_krr(x, y, 0.1, kernel_gaussian(0.2, variance = 4), grid, y_bound = c(-1, 3), epsilon = 1,
                  delta = 1e-5, centre = FALSE)   # (the older spelling)
  expect_identical(r_old$sensitivity, r$sensitivity)
  expect_identical(r_old$offset, 0)
  B <- 3
  expect_equal(r$sensitivity, 2 * B * 2 * (1 + 2 / sqrt(0.1)) / (0.1 * 50))
  expect_identical(r$mechanism, "krr")
  expect_invisible(validate_dpfda_release(r))
  expect_s3_class(r, c("dpfda_krr_release", "dpfda_gp_release", "dpfda_release"))
  expect_error(dp_krr(x, y, 0.1, kernel_gaussian(0.2), grid, y_bound = c(3, -1), epsilon = 1, delta = 1e-5),
               class = "dpfda_error_argument")
  expect_error(dp_krr(x, y, 0.1, kernel_gaussian(0.2), grid, epsilon = 1, delta = 1e-5),
               class = "dpfda_error_argument")
  expect_error(dp_krr(x, c(y[-1], NA), 0.1, kernel_gaussian(0.2), grid, c(0, 1), 1, 1e-5),
               class = "dpfda_error_argument")
  expect_error(dp_krr(x, y[-1], 0.1, kernel_gaussian(0.2), grid, c(0, 1), 1, 1e-5),
               class = "dpfda_error_argument")
})

test_that("neighbouring kernel ridge fits are within the KRR sensitivity", {
  n <- 100
  lambda <- 0.01
  k <- kernel_gaussian(0.1)
  yb <- c(-1, 2)
  x <- with_seed_mode(31, stats::runif(n))
  y <- with_seed_mode(32, ifelse(stats::runif(n) < 0.5, -1, 2))   # responses at the bounds
  fit <- krr_fit(x, y, lambda, k, yb)
  bound <- 2 * 1.5 * (1 + 1 / sqrt(lambda)) / (lambda * n)
  dists <- with_seed_mode(33, vapply(seq_len(25), function(r) {
    i <- sample.int(n, 1L)
    x2 <- x
    y2 <- y
    x2[i] <- stats::runif(1)
    y2[i] <- if (y[i] > 0.5) -5 else 5   # far outside: clipped to the other bound
    fit2 <- krr_fit(x2, y2, lambda, k, yb)
    rkhs_distance(k, matrix(x), fit$coefficients, matrix(x2), fit2$coefficients)
  }, 0))
  expect_true(all(dists <= bound))
  expect_gt(max(dists), 0.01)
})

test_that("dp_krr releases the fit plus sigma G, predicting around the offset", {
  x <- with_seed_mode(1, stats::runif(60))
  y <- 5 + x
  k <- kernel_gaussian(0.15)
  grid <- c(0.2, 0.5, 0.8)
  fit <- krr_fit(x, y, 0.05, k, c(4, 7))
  N <- 2000
  res <- with_seed_mode(12, t(replicate(N, predict(dp_krr(x, y, 0.05, k, grid, c(4, 7), 1, 1e-3)) -
                                          fit$fun(grid))))
  s <- dp_krr(x, y, 0.05, k, grid, c(4, 7), 1, 1e-3)$noise_scale
  expect_lt(max(abs(empirical_cov(res) - s^2 * kernel_matrix(k, grid))), 5 * s^2 * sqrt(2 / N))
  r <- dp_krr(x, y, 0.05, k, grid, c(4, 7), 1, 1e-3)
  expect_equal(predict(r, grid), predict(r), tolerance = 1e-6)
  # far from the grid kriging returns the offset, and says that it extrapolates
  expect_warning(far <- predict(r, 50), class = "dpfda_warning_extrapolation")
  expect_equal(far, 5.5)
  expect_false(any(c("x", "y", "coefficients") %in% names(r)))
})

test_that("the order of the individuals does not change the release", {
  # (the solver's coordinate steps visit the records in turn: a permutation moved the release by 7e-7)
  set.seed(2)
  X <- matrix(runif(600), 300)
  Y <- ifelse(rowSums((X - 0.5)^2) < 0.09, 1, -1)
  o <- sample(300)
  axes <- list(seq(0, 1, length.out = 15), seq(0, 1, length.out = 15))
  rel <- function(i) with_seed_mode(5, dp_svm(X[i, ], Y[i], lambda = 0.01, kernel = kernel_gaussian(0.15), grid = axes,
                                               epsilon = 1, delta = 1e-5))
  expect_identical(rel(o)$values, rel(seq_len(300))$values)
})

test_that("dp_svm() with a data frame and a named grid takes the columns by name", {
  set.seed(3)
  X <- data.frame(b = runif(200), a = runif(200, 0, 2))
  Y <- ifelse((X$a - 1)^2 + (X$b - 0.5)^2 < 0.2, 1, -1)
  axes <- list(a = seq(0, 2, length.out = 8), b = seq(0, 1, length.out = 6))
  rel <- function(x, g) with_seed_mode(5, dp_svm(x, Y, lambda = 0.05, kernel = kernel_gaussian(0.3), grid = g,
                                                  epsilon = 1, delta = 1e-5))
  expect_identical(rel(X, axes)$values$values, rel(as.matrix(X[c("a", "b")]), unname(axes))$values$values)
  expect_identical(rel(X, axes)$values$arg_name, c("a", "b"))   # (the axes named after the columns)
  expect_error(rel(X, stats::setNames(axes, c("a", "c"))), class = "dpfda_error_argument", regexp = "no column \"c\"")
})

test_that("dp_svm(), dp_krr() and dp_erm() take a formula with `data`, as dp_gp_regression() does", {
  set.seed(21)
  d <- data.frame(u = runif(80), w = runif(80))
  d$lab <- factor(ifelse(d$u + 0.2 * rnorm(80) > 0.5, "yes", "no"))
  d$out <- sin(2 * pi * d$u) + rnorm(80, sd = 0.1)
  nd <- seq(0, 1, length.out = 9)
  k <- kernel_gaussian(0.3)
  same <- function(a, b) expect_equal(with_seed_mode(3, a())$values$values, with_seed_mode(3, b())$values$values)
  same(function() dp_svm(lab ~ u, data = d, lambda = 0.1, kernel = k, grid = nd, epsilon = 1, delta = 1e-5),
       function() dp_svm(d$u, d$lab, 0.1, k, nd, 1, 1e-5))
  # a data frame of new points with the predictor column, in two dimensions
  g2 <- expand.grid(u = c(0.2, 0.8), w = c(0.3, 0.7))
  same(function() dp_svm(lab ~ u + w, data = d, lambda = 0.1, kernel = k, grid = g2, epsilon = 1, delta = 1e-5),
       function() dp_svm(cbind(d$u, d$w), d$lab, 0.1, k, as.matrix(g2), 1, 1e-5))
  same(function() dp_krr(out ~ u, data = d, lambda = 0.1, kernel = k, grid = nd, y_bound = c(-2, 2), epsilon = 1,
                         delta = 1e-5),
       function() dp_krr(d$u, d$out, 0.1, k, nd, c(-2, 2), 1, 1e-5))
  same(function() dp_erm(out ~ u, data = d, epsilon = 1, psi = 0.01, grid = nd, y_bound = 2),
       function() dp_erm(d$u, d$out, 1, 0.01, nd, y_bound = 2))
  expect_error(dp_svm(lab ~ u, d$lab, data = d, lambda = 0.1, kernel = k, grid = nd, epsilon = 1, delta = 1e-5),
               class = "dpfda_error_argument", regexp = "not a formula and `y`")
  expect_error(dp_krr(d$u, d$out, 0.1, k, nd, c(-2, 2), 1, 1e-5, data = d), class = "dpfda_error_argument",
               regexp = "`data` is used with a formula")
  expect_error(dp_erm(out ~ nope, data = d, epsilon = 1, psi = 0.01, grid = nd, y_bound = 2),
               class = "dpfda_error_argument", regexp = "`nope`")
  expect_error(dp_krr(lab ~ u, data = d, lambda = 0.1, kernel = k, grid = nd, y_bound = c(-2, 2), epsilon = 1,
                      delta = 1e-5), class = "dpfda_error_argument", regexp = "numeric response")
})

test_that("every regression takes the data first and the formula second, the pipe's order", {
  # (`mcycle |> dp_bin_regression(accel ~ times, ...)` read the data frame as predictors and was refused with
  # "`columns` is needed"; the GP regressions took the formula for y)
  set.seed(22)
  d <- data.frame(u = runif(60), id = rep(1:20, 3))
  d$out <- sin(2 * pi * d$u) + rnorm(60, sd = 0.1)
  d$lab <- factor(ifelse(d$out > 0, "yes", "no"))
  nd <- seq(0, 1, length.out = 7)
  k <- kernel_gaussian(0.3)
  both <- function(f, ...) {
    a <- with_seed_mode(4, suppressWarnings(f(out ~ u, data = d, ...)))
    b <- with_seed_mode(4, suppressWarnings(f(d, out ~ u, ...)))
    expect_identical(b$values$values, a$values$values)
    expect_identical(b$predictors, "u")
    b
  }
  both(dp_bin_regression, bins = 5, y_bound = 2, epsilon = 1, domain = c(0, 1))
  # `unit`, a column of the data, is found in the data given first
  both(dp_bin_regression, bins = 5, y_bound = 2, epsilon = 1, domain = c(0, 1), unit = id)
  both(dp_gp_regression, newdata = data.frame(u = nd), kernel = k, noise_variance = 0.1, y_bound = 2, epsilon = 1,
       delta = 1e-5)
  both(dp_sparse_gp_regression, newdata = data.frame(u = nd), inducing = data.frame(u = nd), kernel = k,
       noise_variance = 0.1, y_bound = 2, epsilon = 1, delta = 1e-5)
  both(dp_krr, lambda = 0.1, kernel = k, grid = nd, y_bound = 2, epsilon = 1, delta = 1e-5)
  both(dp_erm, epsilon = 1, psi = 0.01, grid = nd, y_bound = 2)
  a <- with_seed_mode(4, dp_svm(lab ~ u, data = d, lambda = 0.1, kernel = k, grid = nd, epsilon = 1, delta = 1e-5))
  b <- with_seed_mode(4, dp_svm(d, lab ~ u, lambda = 0.1, kernel = k, grid = nd, epsilon = 1, delta = 1e-5))
  expect_identical(b$values$values, a$values$values)
  cand <- data.frame(lengthscale = c(0.1, 0.3), noise_variance = 0.1)
  s1 <- with_seed_mode(4, dp_gp_select(out ~ u, data = d, candidates = cand, y_bound = 2, epsilon = 1,
                                       epsilon_regression = 1, delta = 1e-5))
  s2 <- with_seed_mode(4, dp_gp_select(d, out ~ u, candidates = cand, y_bound = 2, epsilon = 1,
                                       epsilon_regression = 1, delta = 1e-5))
  expect_identical(s2$index, s1$index)
  # with `data` given too, the second argument is still `y`: refused as before
  expect_error(dp_krr(d, out ~ u, lambda = 0.1, kernel = k, grid = nd, y_bound = 2, epsilon = 1, delta = 1e-5,
                      data = d), class = "dpfda_error_argument")
})

test_that("a missing label is said as such (a data error naming y and its position)", {
  ir <- droplevels(iris[iris$Species != "setosa", ])
  y <- ir$Species
  y[3] <- NA
  e <- expect_error(dp_svm(ir[c("Petal.Length", "Petal.Width")], y, lambda = 0.1, kernel = kernel_gaussian(1),
                           grid = as.matrix(ir[1:5, c("Petal.Length", "Petal.Width")]), epsilon = 1, delta = 1e-5),
                    class = "dpfda_error_data")
  expect_match(conditionMessage(e), "`y` holds 1 missing label (first at position 3)", fixed = TRUE)
  expect_error(svm_fit(c(0.1, 0.5, 0.9), c(1, NA, -1), 0.1, kernel_gaussian(0.3)), class = "dpfda_error_data")
})

test_that("predict(type = \"class\", interval = ) gives the classes at the fit and the band's ends, named", {
  # (a factor `y` gave a factor with dimensions: printed without fit/lwr/upr, and lost in data.frame())
  set.seed(1)
  x <- matrix(runif(200), 100)
  y <- ifelse(x[, 1] + x[, 2] > 1, 1, -1)
  g <- as.matrix(expand.grid(seq(0, 1, 0.25), seq(0, 1, 0.25)))
  fit <- function(lab) with_seed_mode(1, dp_svm(x, lab, kernel = kernel_gaussian(0.3), grid = g, epsilon = 1,
                                                delta = 1e-5, lambda = 0.1))
  r <- fit(y)
  ci <- predict(r, x[1:6, ], type = "class", interval = "confidence")
  v <- predict(r, x[1:6, ], interval = "confidence")
  expect_identical(colnames(ci), c("fit", "lwr", "upr"))
  expect_identical(unname(ci), unname(ifelse(v >= 0, 1L, -1L)))
  rf <- fit(factor(ifelse(y > 0, "yes", "no")))
  cf <- predict(rf, x[1:6, ], type = "class", interval = "confidence")
  expect_s3_class(cf, "data.frame")
  expect_identical(names(cf), c("fit", "lwr", "upr"))
  expect_identical(levels(cf$fit), c("no", "yes"))
  for (j in 1:3) expect_identical(as.character(cf[[j]]), ifelse(ci[, j] > 0, "yes", "no"))
})

test_that("svm_fit() predicts classes in the labels' terms, as dp_svm(); center and centre must agree", {
  ir <- droplevels(iris[iris$Species != "setosa", ])
  X <- as.matrix(ir[, 3:4]) / 10
  fit <- svm_fit(X, ir$Species, lambda = 0.01, kernel = kernel_gaussian(0.2))
  cl <- predict(fit, X, type = "class")
  expect_s3_class(cl, "factor")
  expect_identical(levels(cl), levels(ir$Species))
  expect_gt(mean(cl == ir$Species), 0.8)   # (it was -1 / +1: an accuracy of 0 in silence)
  expect_identical(predict(svm_fit(X, ir$Species == "virginica", 0.01, kernel_gaussian(0.2)), X[1:3, ], type = "class"),
                   as.vector(cl[1:3] == "virginica"))
  d <- MASS::mcycle
  e <- expect_error(krr_fit(d$times, d$accel, 0.01, kernel_gaussian(5), y_bound = c(-150, 100), center = FALSE,
                            centre = TRUE), "disagree", class = "dpfda_error_argument")
  expect_identical(e$arg, "centre")
  expect_equal(predict(krr_fit(d$times, d$accel, 0.01, kernel_gaussian(5), y_bound = c(-150, 100), centre = FALSE), 30),
               predict(krr_fit(d$times, d$accel, 0.01, kernel_gaussian(5), y_bound = c(-150, 100), center = FALSE), 30))
})
