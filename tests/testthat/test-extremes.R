# Numerical robustness at the extremes (issue: bandwidths 1e-4 and 1e4,
# k = 2000, grids of 1e5 points, epsilon from 1e-3 to 1e3): results are finite
# and correct, or a classed error; never NaN, Inf or a crash.

finite_or_classed <- function(expr) {
  v <- tryCatch(expr, dpfda_error = function(e) e)
  if (inherits(v, "dpfda_error")) return(invisible(v))
  vals <- if (inherits(v, "dpfda_release")) v$values$values else if (inherits(v, "dpfda_curves")) v$values else v
  expect_true(all(is.finite(vals)))
  invisible(v)
}

test_that("KDE mechanisms at bandwidths 1e-4 and 1e4 and epsilon 1e-3 to 1e3", {
  set.seed(1)
  x <- runif(500)
  g <- seq(0, 1, length.out = 101)
  for (h in c(1e-4, 1e4)) for (eps in c(1e-3, 1, 1e3)) {
    r <- with_seed_mode(1, finite_or_classed(dp_kde(x, g, h, eps, 1e-5, mechanism = "gp", domain = c(0, 1))))
    if (inherits(r, "dpfda_release")) expect_equal(r$sensitivity, sensitivity_kde(500, h))
    with_seed_mode(2, finite_or_classed(dp_kde(x, g, h, eps, mechanism = "iclp", domain = c(0, 1))))
    with_seed_mode(3, finite_or_classed(dp_kde(x, g, h, eps, mechanism = "bernstein", domain = c(0, 1))))
  }
  # the GP sensitivity is computed in log space: exact even where h^d under/overflows
  expect_equal(sensitivity_kde(10, 1e-4, d = 50), exp(0.5 * log(2) - log(10) - 25 * log(2 * pi) - 50 * log(1e-4)))
  expect_equal(sensitivity_kde(10, 1e4, d = 50), exp(0.5 * log(2) - log(10) - 25 * log(2 * pi) - 50 * log(1e4)))
})

test_that("the noise calibration is finite and monotone for epsilon from 1e-3 to 1e3", {
  eps <- 10^seq(-3, 3, by = 0.5)
  s <- vapply(eps, function(e) dp_noise_scale(1, e, 1e-6), 0)
  expect_true(all(is.finite(s)) && all(s > 0))
  expect_true(all(diff(s) < 0))
  # each is the smallest DP scale: the exact profile holds at s and fails at 0.99 s
  expect_true(all(mapply(function(e, si) gaussian_delta(e, si, 1), eps, s) <= 1e-6 * (1 + 1e-6)))
  expect_true(all(mapply(function(e, si) gaussian_delta(e, 0.99 * si, 1), eps, s) > 1e-6))
})

test_that("Bernstein bases at k = 2000 are a partition of unity and non-negative", {
  y <- c(0, 1e-6, 0.3, 0.5, 0.999999, 1)
  B <- bernstein_basis(y, 2000)
  expect_true(all(is.finite(B)) && all(B >= 0))
  expect_equal(rowSums(B), rep(1, length(y)), tolerance = 1e-10)
  r <- with_seed_mode(4, dp_bernstein(function(t) sin(2 * pi * t), 0.01, 1, k = 2000))
  expect_true(all(is.finite(predict(r, y))))
})

test_that("samplers on grids of 1e5 points: finite paths with the right marginal variance", {
  g <- seq(0, 1, length.out = 1e5)
  p1 <- with_seed_mode(5, rgp(1, kernel_exponential(0.01), g, method = "markov"))
  p2 <- with_seed_mode(6, rgp(1, kernel_matern(3 / 2, 0.01), g, method = "circulant"))
  for (p in list(p1, p2)) {
    expect_true(all(is.finite(p$values)))
    expect_gt(var(as.vector(p$values)), 0.5)       # lengthscale 0.01 on [0, 1]: ~100 independent stretches
    expect_lt(var(as.vector(p$values)), 2)
  }
  e <- expect_error(rgp(1, kernel_gaussian(0.01), g, method = "cholesky"), class = "dpfda_error")
  expect_match(conditionMessage(e), "memory|GB|doubles|bytes", ignore.case = TRUE)
})

test_that("the exponential mechanism is exact in log space for huge utility gaps", {
  s <- with_seed_mode(7, dp_select(c(0, -1e300, -1e300), 1, 1))
  expect_identical(s$index, 1L)
  p <- dpfda:::select_probabilities(c(1e300, 1e300 - 1e290), 1, 1)
  expect_true(all(is.finite(p)))
  expect_equal(sum(p), 1)
})
