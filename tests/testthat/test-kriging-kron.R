# predict() of a released surface on a tensor grid with a separable kernel:
# Kronecker kriging (per-axis eigendecompositions), equal to dense kriging.

dense_kriging <- function(rel, newdata) {
  g <- dpfda:::as_points(rel$values$grid, "grid")
  K <- kernel_matrix(rel$noise, g)
  tau <- max(rel$jitter, 1e-10 * rel$noise$variance)
  w <- solve(K + diag(tau, nrow(K)), t(rel$values$values))
  as.vector(kernel_matrix(rel$noise, newdata, g) %*% w)
}

test_that("Kronecker kriging equals dense kriging for separable kernels", {
  ax <- seq(0, 1, length.out = 14)
  ay <- seq(-1, 1, length.out = 9)
  f <- as.vector(outer(ax, ay, function(a, b) sin(3 * a) * cos(2 * b)))
  old <- dp_rng()
  on.exit(dp_rng(old))
  dp_reproducible(2)
  P <- cbind(stats::runif(30), stats::runif(30, -1, 1))
  # (a lengthscale per axis: the whole kernel applied to one axis recycled c(0.25, 0.6) over the points, with
  # a warning from sweep(); dp_svm(kernel = kernel_gaussian(c(30, 7))) predicted with it)
  for (k in list(kernel_exponential(0.3, norm = "l1"), kernel_gaussian(0.5, variance = 2),
                 kernel_gaussian(c(0.25, 0.6)), kernel_gaussian(c(0.6, 0.25), variance = 1.5),
                 kernel_gaussian(H = diag(c(0.09, 0.2))))) {
    r <- dp_gp_release(f, list(ax, ay), k, sensitivity = 0.1, epsilon = 1, delta = 1e-3)
    expect_false(is.null(dpfda:::tensor_axes(dpfda:::as_points(r$values$grid, "grid"))))
    a <- expect_silent(predict(r, P))
    b <- dense_kriging(r, P)
    expect_equal(a, b, tolerance = 1e-7 * max(1, max(abs(b))))
  }
  # exponential (l1) kernel: well conditioned, interpolates the grid values
  r <- dp_gp_release(f, list(ax, ay), kernel_exponential(0.3, norm = "l1"), 0.1, 1, 1e-3)
  g <- dpfda:::as_points(r$values$grid, "grid")
  expect_equal(predict(r, g[c(1, 20, 126), ]), r$values$values[1, c(1, 20, 126)], tolerance = 1e-8)
})

test_that("grids that are not tensor grids and non-separable kernels use dense kriging", {
  g <- cbind(c(0, 0.5, 1, 0.2), c(0, 0.1, 0.7, 0.9))
  expect_null(dpfda:::tensor_axes(g))
  expect_null(dpfda:::tensor_axes(as.matrix(expand.grid(1:3, 1:2))[c(2, 1, 3:6), ]))
  expect_false(dpfda:::kernel_separable(kernel_matern(3 / 2, 0.2)))
  expect_false(dpfda:::kernel_separable(kernel_exponential(0.2, norm = "l2")))
  expect_true(dpfda:::kernel_separable(kernel_gaussian(0.2)))
  # a diagonal bandwidth matrix is a lengthscale per axis; a rotated one is not separable
  expect_true(dpfda:::kernel_separable(kernel_gaussian(H = diag(c(0.1, 0.3)))))
  expect_false(dpfda:::kernel_separable(kernel_gaussian(H = matrix(c(0.1, 0.05, 0.05, 0.3), 2))))
})

test_that("a kernel with a lengthscale per axis refuses points of another dimension (never recycles them)", {
  k <- kernel_gaussian(c(0.25, 0.6))
  k$dim <- NA_integer_   # (as the Kronecker path once set it, which made sweep() recycle the lengthscales)
  expect_error(kernel_matrix(k, matrix(1:3, ncol = 1L)), "2 lengthscales, one per dimension", class = "dpfda_error_argument")
  expect_equal(kernel_matrix(k, cbind(0, 0), cbind(0.25, 0.6)), matrix(exp(-1)))
})
