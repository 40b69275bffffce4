# dp_gp_release (Corollary 3.5) and kriging predict.

grid <- seq(0, 1, length.out = 8)

test_that("the noise scale follows the calibration and the release covariance is sigma^2 K", {
  k <- kernel_matern(5 / 2, 0.3)
  f <- function(t) sin(2 * pi * t)
  r <- dp_gp_release(f, grid, k, sensitivity = 0.2, epsilon = 0.5, delta = 1e-4)
  expect_equal(r$noise_scale, dp_noise_scale(0.2, 0.5, 1e-4))
  expect_equal(dp_gp_release(f, grid, k, 0.2, 0.5, 1e-4, calibration = "hall")$noise_scale,
               dp_cdelta(1e-4) * 0.2 / 0.5)
  N <- 4000
  res <- with_seed_mode(3, t(replicate(N, predict(dp_gp_release(f, grid, k, 0.2, 0.5, 1e-4)) - f(grid))))
  tol <- 5 * r$noise_scale^2 * sqrt(2 / N)
  K <- kernel_matrix(k, grid)
  expect_lt(max(abs(empirical_cov(res) - r$noise_scale^2 * K)), tol)
  expect_gt(max(abs(empirical_cov(0.9 * res) - r$noise_scale^2 * K)), tol)
})

test_that("values can be given directly, and the release hides them", {
  v <- grid^2
  r <- with_seed_mode(1, dp_gp_release(v, grid, kernel_gaussian(0.2), 0.1, 1, 1e-5))
  r2 <- with_seed_mode(1, dp_gp_release(function(t) t^2, grid, kernel_gaussian(0.2), 0.1, 1, 1e-5))
  expect_identical(r$values$values, r2$values$values)
  expect_false(isTRUE(all.equal(predict(r), v)))
  expect_invisible(validate_dpfda_release(r))
  expect_error(dp_gp_release(1:3, grid, kernel_gaussian(0.2), 0.1, 1, 1e-5), class = "dpfda_error_argument")
  expect_error(dp_gp_release(function(t) stop("no"), grid, kernel_gaussian(0.2), 0.1, 1, 1e-5),
               class = "dpfda_error_argument")
})

test_that("a curve brings its own grid to dp_gp_release()", {
  v <- grid^2
  r <- with_seed_mode(1, dp_gp_release(v, grid, kernel_gaussian(0.2), 0.1, 1, 1e-5))
  # (before: "`grid` is missing" for a curve that has one)
  r2 <- with_seed_mode(1, dp_gp_release(curves(v, grid), kernel = kernel_gaussian(0.2), sensitivity = 0.1,
                                        epsilon = 1, delta = 1e-5))
  expect_identical(r2$values$values, r$values$values)
  expect_identical(r2$values$grid, r$values$grid)
  expect_error(dp_gp_release(curves(rbind(v, v), grid), kernel = kernel_gaussian(0.2), sensitivity = 0.1,
                             epsilon = 1, delta = 1e-5), "must hold one curve", class = "dpfda_error_argument")
  e <- expect_error(dp_gp_release(v, kernel = kernel_gaussian(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5),
                    class = "dpfda_error_argument")
  expect_identical(e$arg, "grid")
})

test_that("predict conditions on the released path: exact at grid points, no fresh noise", {
  r <- dp_gp_release(function(t) cos(3 * t), grid, kernel_gaussian(0.3), 0.1, 1, 1e-5)
  expect_equal(predict(r, grid), predict(r), tolerance = 1e-6)
  new <- c(0.05, 0.5, 0.77)
  expect_identical(predict(r, new), predict(r, new))
  # kriging of a path from the kernel's RKHS is exact: predict a known function
  k <- kernel_gaussian(0.3)
  g <- function(t) 0.7 * kernel_matrix(k, t, 0.2) - 0.4 * kernel_matrix(k, t, 0.8)
  rel <- new_dpfda_release(curves(as.vector(g(grid)), grid), "gp", 1, 1e-5, 0, 0, k,
                           jitter = 0, class = "dpfda_gp_release")
  expect_equal(predict(rel, new), as.vector(g(new)), tolerance = 1e-5)
})

test_that("2-D tensor grids use the Kronecker sampler", {
  r <- dp_gp_release(function(p) p[, 1] * p[, 2], list(seq(0, 1, 0.1), seq(0, 1, 0.1)),
                     kernel_gaussian(0.2), 0.1, 1, 1e-5)
  expect_identical(r$sampler, "kronecker")
  expect_identical(ncol(r$values$values), 121L)
})

test_that("dp_gp_release(): values given as a vector on an unsorted grid stay with their points", {
  # (the grid was sorted and the values were not: c(3, 1, 2, 0) at c(0.3, 0.1, 0.2, 0) came out as 3, 1, 2, 0
  # at 0, 0.1, 0.2, 0.3)
  r <- with_seed_mode(3, dp_gp_release(c(3, 1, 2, 0), c(0.3, 0.1, 0.2, 0), kernel_gaussian(0.1),
                                       sensitivity = 1e-9, epsilon = 1, delta = 1e-5))
  expect_identical(r$values$grid, c(0, 0.1, 0.2, 0.3))
  expect_equal(as.vector(r$values$values), c(0, 1, 2, 3), tolerance = 1e-6)
  # the same release as sorted inputs, and as a function of the points
  set.seed(4)
  g <- sample(seq(0, 1, length.out = 200))
  k <- kernel_gaussian(0.1)
  a <- with_seed_mode(5, dp_gp_release(sin(2 * pi * g), g, k, sensitivity = 0.01, epsilon = 1, delta = 1e-5))
  b <- with_seed_mode(5, dp_gp_release(sin(2 * pi * sort(g)), sort(g), k, sensitivity = 0.01, epsilon = 1,
                                       delta = 1e-5))
  cc <- with_seed_mode(5, dp_gp_release(function(t) sin(2 * pi * t), g, k, sensitivity = 0.01, epsilon = 1,
                                        delta = 1e-5))
  expect_identical(a$values, b$values)
  expect_identical(a$values, cc$values)
})
