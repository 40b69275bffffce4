# Conversions to and from fda, tf, long data frames and matrices (R/interop.R).

test_that("long data frames and matrices round-trip through curves", {
  g <- seq(0, 1, length.out = 17)
  x <- curves(rbind(sin(2 * pi * g), cos(2 * pi * g), g^2), g)
  d <- as.data.frame(x)
  y <- as_curves(d[sample(nrow(d)), ])          # any row order
  expect_equal(y$values, x$values)
  expect_equal(y$grid, x$grid)
  expect_equal(as_curves(x$values, grid = g)$values, x$values)
  expect_equal(as_curves(sin(g), grid = g)$values, matrix(sin(g), 1))
  expect_identical(as_curves(x), x)
  r <- new_dpfda_release(x, mechanism = "example", epsilon = 1, delta = 0, sensitivity = 1, noise_scale = 1,
                         noise = "none")
  expect_identical(as_curves(r), x)
  # other column names
  d2 <- data.frame(subject = d$id, t = d$arg, fa = d$value)
  expect_equal(as_curves(d2, id = "subject", arg = "t", value = "fa")$values, x$values)
})

test_that("bad long data frames give classed errors naming the argument", {
  d <- data.frame(id = rep(1:2, each = 3), arg = rep(1:3, 2), value = 1:6)
  e <- expect_error(as_curves(d, arg = "time"), class = "dpfda_error_argument")
  expect_identical(e$arg, "arg")
  e <- expect_error(as_curves(d[-1, ]), class = "dpfda_error_argument")
  expect_identical(e$arg, "x")
  d$value[2] <- NA
  e <- expect_error(as_curves(d), class = "dpfda_error_argument")
  expect_identical(e$arg, "value")
  e <- expect_error(as_curves(list(1, 2)), class = "dpfda_error_argument")
  expect_identical(e$arg, "x")
  d <- data.frame(id = c(1, 1), arg = c(1, 1), value = 1:2)
  expect_error(as_curves(d), class = "dpfda_error_argument")
})

test_that("fd -> curves -> fd reproduces the coefficients to 1e-10", {
  skip_if_not_installed("fda")
  b <- fda::create.bspline.basis(c(0, 2), nbasis = 9)
  set.seed(3)
  f <- fda::fd(matrix(rnorm(27), 9, 3), b)
  cv <- as_curves(f, n_grid = 60)
  expect_equal(dim(cv$values), c(3L, 60L))
  expect_equal(range(cv$grid), c(0, 2))
  expect_equal(cv$values, unname(t(fda::eval.fd(cv$grid, f))))
  back <- as_fd(cv, basis = b)
  expect_lt(max(abs(back$coefs - f$coefs)), 1e-10)
  expect_s3_class(as_fd(cv), "fd")
  e <- expect_error(as_curves(f, grid = c(-1, 1)), class = "dpfda_error_argument")
  expect_identical(e$arg, "grid")
  e <- expect_error(as_fd(cv, basis = "bspline"), class = "dpfda_error_argument")
  expect_identical(e$arg, "basis")
})

test_that("tfd <-> curves round-trips, releases become tfd", {
  skip_if_not_installed("tf")
  g <- seq(0, 1, length.out = 25)
  x <- curves(rbind(sin(2 * pi * g), g), g)
  tt <- as_tfd(x)
  expect_s3_class(tt, "tfd")
  back <- as_curves(tt)
  expect_equal(back$values, x$values, tolerance = 1e-12)
  expect_equal(back$grid, g)
  r <- with_seed_mode(1, dp_mean(curves(outer(runif(50, 0.5, 1), sin(2 * pi * g)), g), 1, 1))
  expect_length(as_tfd(r), 1L)
  # evaluate on another grid
  expect_equal(as_curves(tt, grid = c(0, 0.5, 1))$values[2, ], c(0, 0.5, 1), tolerance = 1e-12)
})

test_that("conversions to tf / fda give a classed error when the package is missing", {
  g <- seq(0, 1, length.out = 5)
  cv <- curves(g, g)
  if (!requireNamespace("tf", quietly = TRUE)) expect_error(as_tfd(cv), class = "dpfda_error_dependency")
  if (!requireNamespace("fda", quietly = TRUE)) expect_error(as_fd(cv), class = "dpfda_error_dependency")
  expect_error(dpfda:::need_package("surely.not.a.package", "x"), class = "dpfda_error_dependency")
})
