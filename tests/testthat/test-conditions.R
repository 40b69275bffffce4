# The texts of the main errors, reviewed as snapshots (tests/testthat/_snaps/conditions.md):
# any change of wording shows in review. Classes are checked by the other files.

test_that("errors seen by new users say what is wrong and how to fix it (issue 32)", {
  cw <- as.data.frame(ChickWeight)
  gk <- seq(1, 6, length.out = 30)
  reg <- function(f, ...) dp_gp_regression(f, data = cw, newdata = data.frame(Time = 1:3), kernel = kernel_gaussian(3),
                                           noise_variance = 100, y_bound = c(0, 400), epsilon = 1, delta = 1e-4, ...)
  expect_snapshot(error = TRUE, reg(weight ~ Time + Diet))
  expect_snapshot(error = TRUE, reg(weight ~ Tme))
  expect_snapshot(error = TRUE, reg(weight ~ Time, mechanism = "standard", method = "cloaking"))
  expect_snapshot(error = TRUE, dp_kde(faithful$eruptions, grid = gk, bandwidth = 0.3, epsilon = 1, domain = c(6, 1)))
  expect_snapshot(error = TRUE, dp_kde(faithful$eruptions, grid = gk, bandwidth = 0.3, epsilon = 1, domain = c(2, 6)))
  expect_snapshot(error = TRUE, dp_kde(faithful, grid = gk, bandwidth = 0.3, epsilon = 1, domain = c(1, 6)))
  g2 <- as.matrix(expand.grid(seq(1.5, 5.5, length.out = 5), seq(40, 100, length.out = 5)))
  expect_snapshot(error = TRUE, dp_kde(as.matrix(faithful), grid = g2, epsilon = 1, bandwidth = c(0.3, 5),
                                       mechanism = "iclp"))
})

test_that("the main errors of the mechanisms (missing epsilon, bad delta, unknown option, shape)", {
  t <- seq(0, 1, length.out = 11)
  x <- curves(outer(c(-1, 0.5, 1), sin(2 * pi * t)), t)
  expect_snapshot(error = TRUE, dp_mean(x, tau = 1))
  expect_snapshot(error = TRUE, dp_mean(x, epsilon = 1, tau = 1, mechanism = "gp", delta = 2))
  expect_snapshot(error = TRUE, dp_mean(x, epsilon = 1, tau = 1, nope = 3))
  expect_snapshot(error = TRUE, dp_mean(x, epsilon = 1, tau = 1, mechanism = "nope"))
  expect_snapshot(error = TRUE, dp_cov(x, tau = 1))
  expect_snapshot(error = TRUE, dp_cov(x, epsilon = 1, tau = 1, nope = 3))
  expect_snapshot(error = TRUE, dp_kde(c(0.2, 0.5), grid = t, bandwidth = 0.1, epsilon = 1))
  expect_snapshot(error = TRUE, dp_kde(c(0.2, 0.5), grid = t, bandwidth = 0.1, epsilon = 1, delta = -1))
  expect_snapshot(error = TRUE, dp_gp_release(function(a) a, t, kernel_gaussian(0.2), sensitivity = 1, epsilon = 1))
  expect_snapshot(error = TRUE, dp_bernstein(function(a) a, epsilon = 1))
  expect_snapshot(error = TRUE, dp_kme(matrix(1:4, 2), epsilon = 1))
})
