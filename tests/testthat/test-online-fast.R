# The single-point fast path of query() on the Markov (OU) path (one C call).

test_that("single-point queries give the same answers as one batch query", {
  f <- function(t) sin(2 * pi * t)
  k <- kernel_exponential(0.05)
  x <- c(seq(0.05, 0.95, length.out = 40)[sample.int(40)], 0.5, 0.05, -0.3, 1.7)
  x <- c(x, x[1:5])   # repeats are answered from the stored path
  old <- dp_rng()
  on.exit(dp_rng(old))
  dp_reproducible(11)
  o1 <- dp_online(f, k, 0.1, 1, 1e-5)
  a <- vapply(x, function(xi) query(o1, xi), 0)
  dp_reproducible(11)
  o2 <- dp_online(f, k, 0.1, 1, 1e-5)
  b <- query(o2, x)
  expect_identical(a, b)
  expect_identical(a[length(x) - 4:0], a[1:5])
  expect_identical(length(o1), length(unique(x)))
  expect_identical(released(o1), released(o2))
})

test_that("errors and bad values of f on the fast path are classed and change nothing", {
  k <- kernel_exponential(0.1)
  o <- dp_online(function(t) t, k, 0.1, 1, 1e-5)
  query(o, 0.2)                                    # fixes the Markov path
  o$f <- function(t) if (t > 0.5) stop("boom") else t
  expect_error(query(o, 0.7), class = "dpfda_error_argument")
  o$f <- function(t) if (t > 0.5) NaN else t
  expect_error(query(o, 0.8), class = "dpfda_error_argument")
  o$f <- function(t) c(t, t)
  expect_error(query(o, 0.9), class = "dpfda_error_argument")
  expect_identical(length(o), 1L)
  o$f <- function(t) t
  expect_true(is.finite(query(o, 0.3)))
  expect_identical(length(o), 2L)
  # integer points take the general path with the same result type
  expect_true(is.double(query(o, 1L)))
})
