# Every sampler draws paths whose covariance is the kernel's, and the
# samplers agree with each other. N = 20000 seeded draws; entry-wise
# tolerance 5 * sqrt(2 / N) (the sd of an empirical covariance entry of unit
# variance processes is at most sqrt(2 / N)).

N <- 20000
tol <- 5 * sqrt(2 / N)

expect_cov <- function(paths, K, tol) {
  E <- empirical_cov(paths)
  expect_lt(max(abs(E - K)), tol)
}

draw <- function(seed, ...) with_seed_mode(seed, rgp(N, ...))

set.seed(1)
t_irr <- sort(runif(15))
t_reg <- seq(0, 1, length.out = 15)

test_that("cholesky paths have the kernel's covariance (1-D and 3-D)", {
  k <- kernel_matern(3 / 2, 0.3)
  g <- draw(11, k, t_irr, method = "cholesky")
  expect_identical(g$method, "cholesky")
  expect_cov(g$values, kernel_matrix(k, t_irr), tol)
  x3 <- matrix(runif(36), 12, 3)
  k3 <- kernel_gaussian(0.5, variance = 1)
  g3 <- draw(12, k3, x3, method = "cholesky")
  expect_cov(g3$values, kernel_matrix(k3, x3), tol)
})

test_that("a sampler whose noise is 10% too small fails the covariance check", {
  k <- kernel_matern(3 / 2, 0.3)
  g <- draw(11, k, t_irr, method = "cholesky")
  E <- empirical_cov(0.9 * g$values)
  expect_gt(max(abs(E - kernel_matrix(k, t_irr))), tol)
})

test_that("markov (AR(1)) paths have the exponential kernel's covariance, unsorted points too", {
  k <- kernel_exponential(0.3, variance = 2)
  pts <- sample(t_irr)
  g <- draw(13, k, pts, method = "markov")
  expect_identical(g$method, "markov")
  expect_cov(g$values / sqrt(2), kernel_matrix(k, sort(pts)) / 2, tol)
  expect_identical(rgp(1, k, pts)$method, "markov")
})

test_that("kronecker paths have the separable kernel's covariance on tensor grids", {
  axes <- list(seq(0, 1, length.out = 4), c(0, 0.2, 0.7, 1))
  k <- kernel_gaussian(c(0.3, 0.5))
  g <- draw(14, k, axes, method = "kronecker")
  expect_identical(g$method, "kronecker")
  grid <- as.matrix(expand.grid(axes))
  expect_cov(g$values, kernel_matrix(k, grid), tol)

  k1 <- kernel_exponential(0.4, "l1")
  axes2 <- list(c(0, 0.5, 1), seq(0, 1, length.out = 5))
  g1 <- draw(15, k1, axes2)
  expect_identical(g1$method, "kronecker")
  expect_cov(g1$values, kernel_matrix(k1, as.matrix(expand.grid(axes2))), tol)

  kH <- kernel_gaussian(H = diag(c(0.09, 0.25)), variance = 1)
  gH <- draw(16, kH, axes, method = "kronecker")
  expect_cov(gH$values, kernel_matrix(kH, grid), tol)
})

test_that("kronecker refuses non-separable kernels and non-tensor grids", {
  expect_error(rgp(1, kernel_matern(3 / 2), list(1:3, 1:3), method = "kronecker"),
               class = "dpfda_error_argument")
  expect_error(rgp(1, kernel_gaussian(1), matrix(runif(10), 5), method = "kronecker"),
               class = "dpfda_error_argument")
})

test_that("circulant paths have the kernel's covariance", {
  for (k in list(kernel_matern(3 / 2, 0.2), kernel_exponential(0.3), kernel_matern(5 / 2, 0.1, 2))) {
    g <- draw(17, k, t_reg, method = "circulant")
    expect_identical(g$method, "circulant")
    v <- k$variance
    expect_cov(g$values / sqrt(v), kernel_matrix(k, t_reg) / v, tol)
  }
})

test_that("markov, kronecker and circulant agree with cholesky", {
  k <- kernel_exponential(0.25)
  base <- empirical_cov(draw(21, k, t_reg, method = "cholesky")$values)
  for (m in c("markov", "circulant")) {
    other <- empirical_cov(draw(22, k, t_reg, method = m)$values)
    expect_lt(max(abs(other - base)), tol)
  }
  axes <- list(seq(0, 1, length.out = 4), seq(0, 1, length.out = 4))
  kg <- kernel_gaussian(0.4)
  a <- empirical_cov(draw(23, kg, axes, method = "cholesky")$values)
  b <- empirical_cov(draw(24, kg, axes, method = "kronecker")$values)
  expect_lt(max(abs(a - b)), tol)
})

test_that("auto picks circulant on long regular grids and falls back when the embedding is indefinite", {
  expect_identical(rgp(1, kernel_matern(3 / 2, 0.05), seq(0, 1, length.out = 200))$method, "circulant")
  # a very smooth kernel on a short window: the embedding is indefinite
  g <- rgp(2, kernel_gaussian(2), seq(0, 1, length.out = 100))
  expect_identical(g$method, "cholesky")
  expect_gt(g$jitter, 0)
  expect_identical(rgp(1, kernel_gaussian(0.1), runif(30))$method, "cholesky")
})

test_that("large grids: circulant at 1e5 points and markov at 1e6 points", {
  g <- rgp(1, kernel_matern(3 / 2, 0.01), seq(0, 1, length.out = 1e5))
  expect_identical(g$method, "circulant")
  expect_equal(ncol(g$values), 1e5)
  h <- with_seed_mode(8, rgp(1, kernel_exponential(1e-4), seq(0, 1, length.out = 1e6)))
  expect_identical(h$method, "markov")
  expect_true(all(is.finite(h$values)))
  # the stationary variance of the AR(1) path stays 1 (1e4 correlation lengths)
  expect_equal(var(as.vector(h$values)), 1, tolerance = 0.05)
})

test_that("Cholesky of a 1000-point Gaussian Gram needs jitter, succeeds and reports it", {
  t <- seq(0, 1, length.out = 1000)
  K <- kernel_matrix(kernel_gaussian(0.1), t)
  expect_error(chol(K))
  f <- chol_jitter(K)
  expect_gte(f$jitter, 1e-10)
  expect_lte(f$jitter, 1e-6)
  R <- f$L %*% t(f$L) - K - f$jitter * diag(1000)
  expect_lt(max(abs(R)), f$jitter / 2)   # rounding dominated by the jitter
  expect_true(all(f$L[upper.tri(f$L)] == 0))
  g <- rgp(1, kernel_gaussian(0.1), t, method = "cholesky")
  expect_gte(g$jitter, 1e-10)
})

test_that("chol_jitter refuses indefinite matrices with a numeric error", {
  A <- matrix(c(1, 2, 2, 1), 2)
  expect_error(chol_jitter(A), class = "dpfda_error_numeric")
})

test_that("seeded paths are reproducible and print that they are not private", {
  a <- with_seed_mode(5, rgp(2, kernel_matern(3 / 2, 0.2), t_reg))
  b <- with_seed_mode(5, rgp(2, kernel_matern(3 / 2, 0.2), t_reg))
  expect_identical(a$values, b$values)
  expect_identical(a$rng, "seeded")
  expect_output(print(a), "seeded mode")
})
