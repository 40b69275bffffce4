# Inducing-point (FITC) cloaking: dp_sparse_gp_regression, fitc_cloaking_matrix.

# q_i = c_i' M^+ c_i computed independently (eigen-decomposition of M), and
# the largest part of any c_i outside the range of M (relative).
cloak_check <- function(C, M) {
  e <- eigen((M + t(M)) / 2, symmetric = TRUE)
  keep <- e$values > 1e-12 * max(e$values)
  U <- e$vectors[, keep, drop = FALSE]
  W <- crossprod(U, C)
  q <- colSums(W * (W / e$values[keep]))
  off <- sqrt(colSums((C - U %*% W)^2)) / max(sqrt(colSums(C^2)))
  list(max_q = max(q), off_range = max(off))
}

test_that("n = 20000, m = 50, P = 100 runs in seconds and satisfies the privacy constraint", {
  skip_on_cran()
  set.seed(42)
  n <- 20000
  x <- cbind(runif(n), runif(n))
  y <- sin(6 * x[, 1]) + cos(4 * x[, 2]) + rnorm(n, 0, 0.3)
  g <- as.matrix(expand.grid(seq(0.05, 0.95, length.out = 10), seq(0.05, 0.95, length.out = 10)))
  k <- kernel_gaussian(0.2)
  el <- cpu_seconds(
    r <- with_seed_mode(1, dp_sparse_gp_regression(x, y, g, inducing = 50, kernel = k, noise_variance = 0.09,
                                                   y_bound = c(-3, 3), epsilon = 1, delta = 0.01))
  )
  expect_lt(el, 30)
  expect_s3_class(r, c("dpfda_gpreg_release", "dpfda_release"))
  expect_invisible(validate_dpfda_release(r))
  expect_identical(r$regression, "cloaking-fitc")
  expect_identical(dim(r$inducing), c(50L, 2L))
  expect_lte(r$max_constraint, 1 + 1e-9)
  # independent check on the FITC cloaking matrix
  C <- dpfda:::fitc_cloaking_matrix(x, g, r$inducing, k, 0.09)
  expect_identical(dim(C), c(100L, 20000L))
  chk <- cloak_check(C, r$noise_covariance / r$noise_scale^2)
  expect_lte(chk$max_q, 1 + 1e-9)
  expect_lt(chk$off_range, 1e-6)
  expect_equal(r$sensitivity, 6 * sqrt(r$max_constraint))
  expect_equal(r$noise_scale, dp_noise_scale(r$sensitivity, 1, 0.01))
  # useful: the noise is small and the mean close to the truth at n = 20000
  truth <- sin(6 * g[, 1]) + cos(4 * g[, 2])
  expect_lt(sqrt(mean((predict(r) - truth)^2)), 0.2)
})

test_that("with inducing = x the FITC cloaking matrix is the exact one", {
  set.seed(3)
  x <- sort(runif(25))
  xs <- seq(-0.1, 1.1, length.out = 40)
  k <- kernel_gaussian(0.3, variance = 1.5)
  Cf <- dpfda:::fitc_cloaking_matrix(x, xs, x, k, 0.2)
  parts <- dpfda:::gp_regression_parts(x, rnorm(25), xs, k, 0.2, c(-3, 3))
  expect_equal(Cf, parts$C, tolerance = 1e-6)
  fp <- dpfda:::fitc_parts(matrix(x), matrix(xs), matrix(x), k, 0.2)
  expect_equal(fp$variance, parts$variance, tolerance = 1e-6)
  # 2-D, inducing at the inputs given as a matrix
  X <- cbind(runif(20), runif(20))
  G <- as.matrix(expand.grid(c(0.2, 0.5, 0.8), c(0.3, 0.7)))
  k2 <- kernel_gaussian(c(0.4, 0.6))
  expect_equal(dpfda:::fitc_cloaking_matrix(X, G, X, k2, 0.1),
               dpfda:::gp_regression_parts(X, rnorm(20), G, k2, 0.1, c(-1, 1))$C, tolerance = 1e-6)
})

test_that("with inducing = x (n <= P) the release equals dp_gp_regression's cloaking release", {
  set.seed(4)
  x <- sort(runif(12))
  y <- sin(4 * x) + rnorm(12, 0, 0.1)
  xs <- seq(0, 1, length.out = 30)
  k <- kernel_gaussian(0.25)
  a <- with_seed_mode(7, dp_sparse_gp_regression(x, y, xs, matrix(x), k, 0.05, c(-2, 2), 0.5, 1e-3))
  b <- with_seed_mode(7, dp_gp_regression(x, y, xs, k, 0.05, c(-2, 2), 0.5, 1e-3))
  expect_equal(predict(a), predict(b), tolerance = 1e-6)
  expect_equal(a$noise_scale, b$noise_scale, tolerance = 1e-8)
  expect_equal(a$noise_covariance, b$noise_covariance, tolerance = 1e-6)
  expect_equal(a$lambda, b$lambda, tolerance = 1e-6)
  expect_identical(a$mechanism, "gp-regression-cloaking-fitc")
})

test_that("neighbours shift the FITC mean by exactly d c_i (linearity), whatever C", {
  set.seed(5)
  n <- 300
  x <- runif(n)
  y <- runif(n, -1, 1)
  xs <- seq(0, 1, length.out = 15)
  Z <- matrix(seq(0, 1, length.out = 8))
  k <- kernel_gaussian(0.2)
  C <- dpfda:::fitc_cloaking_matrix(x, xs, Z, k, 0.1)
  yb <- c(-1, 1)
  mean_of <- function(yy) as.vector(C %*% (pmin(pmax(yy, yb[1]), yb[2]) - 0)) + 0
  for (i in c(1, 50, 300)) {
    y2 <- y
    y2[i] <- if (y[i] > 0) -1 else 1
    expect_equal(mean_of(y2) - mean_of(y), (y2[i] - y[i]) * C[, i], tolerance = 1e-12)
  }
  cl <- cloaking_covariance(C)
  expect_lte(cloak_check(C, cl$M)$max_q, 1 + 1e-9)
})

test_that("k-means inducing points use only the public x and no random numbers", {
  set.seed(6)
  x <- cbind(runif(500), runif(500))
  with_seed_mode(1, {
    before <- .Random.seed
    Z1 <- dpfda:::inducing_points(30, x)
    expect_identical(.Random.seed, before)
  })
  Z2 <- dpfda:::inducing_points(30, x)
  expect_identical(Z1, Z2)
  expect_identical(dim(Z1), c(30L, 2L))
  expect_true(all(Z1 >= 0 & Z1 <= 1))
  # the release does not depend on y through the inducing points
  r1 <- with_seed_mode(2, dp_sparse_gp_regression(x, rnorm(500), cbind(0.5, 0.5), 30, kernel_gaussian(0.3),
                                                  0.1, c(-3, 3), 1, 0.01))
  r2 <- with_seed_mode(2, dp_sparse_gp_regression(x, rnorm(500), cbind(0.5, 0.5), 30, kernel_gaussian(0.3),
                                                  0.1, c(-3, 3), 1, 0.01))
  expect_identical(r1$inducing, r2$inducing)
  expect_identical(r1$noise_covariance, r2$noise_covariance)
  # fewer distinct inputs than m: the distinct inputs themselves
  expect_identical(dpfda:::inducing_points(10, matrix(c(1, 2, 2, 3))), matrix(c(1, 2, 3)))
  # ... whatever the order of the individuals (k-means visits the points in turn: the inducing points,
  # hence the release, moved by 0.24% when 300 points were permuted)
  p <- sample(nrow(x))
  expect_identical(dpfda:::inducing_points(30, x[p, ]), Z1)
  set.seed(1)
  x1 <- runif(300)
  y1 <- sin(2 * pi * x1) + rnorm(300, sd = 0.3)
  o <- sample(300)
  rel <- function(i) with_seed_mode(5, dp_sparse_gp_regression(x1[i], y1[i], seq(0, 1, length.out = 20), inducing = 15,
                                                                kernel = kernel_gaussian(0.15), noise_variance = 0.09,
                                                                y_bound = c(-2, 2), epsilon = 1, delta = 0.01))
  a <- rel(seq_len(300))
  b <- rel(o)
  expect_identical(a$inducing, b$inducing)
  expect_equal(predict(a), predict(b), tolerance = 1e-8)
})

test_that("bad inputs are classed errors naming the argument", {
  x <- runif(30)
  y <- rnorm(30)
  sp <- function(...) dp_sparse_gp_regression(x, y, c(0.2, 0.8), ..., kernel = kernel_gaussian(0.2),
                                              noise_variance = 0.1, y_bound = c(-3, 3), epsilon = 1,
                                              delta = 0.01)
  expect_error(sp(inducing = 0), "`inducing`", class = "dpfda_error_argument")
  expect_error(sp(inducing = 2.5), "`inducing`")
  expect_error(sp(inducing = c(0.1, 0.1)), "`inducing`")
  expect_error(sp(inducing = cbind(1:2, 1:2)), "`inducing`")
  expect_error(sp(inducing = "a"), "`inducing`")
  expect_error(dp_sparse_gp_regression(x, y, c(0.2, 0.8), 5, kernel_gaussian(0.2), 0, c(-3, 3), 1, 0.01),
               "`noise_variance`")
  expect_error(dp_sparse_gp_regression(x, y, c(0.2, 0.2), 5, kernel_gaussian(0.2), 0.1, c(-3, 3), 1, 0.01),
               "`newdata`")
  expect_error(dp_sparse_gp_regression(x, y, c(0.2, 0.8), 5, "k", 0.1, c(-3, 3), 1, 0.01), "`kernel`")
  expect_error(dp_sparse_gp_regression(x, y, c(0.2, 0.8), 5, kernel_gaussian(0.2), 0.1, c(-3, 3), 1, 0),
               class = "dpfda_error_privacy")
  expect_error(dpfda:::fitc_cloaking_matrix(x, cbind(1, 2), 5, kernel_gaussian(0.2), 0.1), "`newdata`")
})
