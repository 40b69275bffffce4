# Gaussian calibration: exact privacy profile checks (Balle & Wang 2018).

# Plain-R reference of delta(eps) for moderate values (no log-space tricks).
delta_plain <- function(eps, sigma, sens = 1) {
  D <- sens / sigma
  pnorm(D / 2 - eps / D) - exp(eps) * pnorm(-D / 2 - eps / D)
}

test_that("dp_cdelta(0.1) = 2.447746831", {
  expect_equal(round(dp_cdelta(0.1), 9), 2.447746831)
  expect_equal(dp_cdelta(1e-5), sqrt(2 * log(2e5)))
})

test_that("analytic sigma is the smallest that meets delta on the grid of (epsilon, delta)", {
  for (eps in c(0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 20)) {
    for (del in c(1e-10, 1e-6, 1e-3, 0.1)) {
      s <- dp_noise_scale(1, eps, del)
      expect_lte(gaussian_delta(eps, s, 1), del)
      expect_gt(gaussian_delta(eps, 0.99 * s, 1), del)
    }
  }
})

test_that("the log-space privacy profile equals the plain formula", {
  eps <- c(0, 0.1, 1, 3)
  for (sig in c(0.5, 1, 4)) {
    expect_equal(gaussian_delta(eps, sig, 1), delta_plain(eps, sig), tolerance = 1e-10)
  }
})

test_that("the noise scale is linear in the sensitivity and zero sensitivity means no noise", {
  s1 <- dp_noise_scale(1, 0.7, 1e-6)
  expect_equal(dp_noise_scale(3.5, 0.7, 1e-6), 3.5 * s1, tolerance = 1e-10)
  expect_identical(dp_noise_scale(0, 0.7, 1e-6), 0)
})

test_that("hall and classical calibrations follow their formulas and refuse large epsilon", {
  expect_equal(dp_noise_scale(2, 0.5, 0.1, "hall"), dp_cdelta(0.1) * 2 / 0.5)
  expect_equal(dp_noise_scale(2, 0.5, 1e-5, "classical"), sqrt(2 * log(1.25e5)) * 2 / 0.5)
  expect_error(dp_noise_scale(1, 2, 1e-5, "hall"), class = "dpfda_error_privacy")
  expect_equal(dp_noise_scale(1, 2, 1e-5, "hall", allow_large_epsilon = TRUE), dp_cdelta(1e-5) / 2)
  # beyond epsilon = 1 the Hall scale is allowed on request; where its exact delta exceeds the claim
  # (from about epsilon = 9 at delta = 1e-5), a warning gives it
  expect_no_warning(dp_noise_scale(1, 5, 1e-5, "hall", allow_large_epsilon = TRUE))
  w <- expect_warning(s10 <- dp_noise_scale(1, 10, 1e-5, "hall", allow_large_epsilon = TRUE),
                      class = "dpfda_warning_privacy")
  expect_gt(gaussian_delta(10, s10), 1e-5)
  expect_match(conditionMessage(w), sprintf("delta = %s)-DP", format(gaussian_delta(10, s10), digits = 3)),
               fixed = TRUE)
  expect_error(dp_noise_scale(1, 1, 1e-5, "classical"), class = "dpfda_error_privacy")
})

test_that("analytic never needs more noise than hall or classical where those hold", {
  for (eps in c(0.05, 0.5, 0.99)) for (del in c(1e-8, 1e-3)) {
    a <- dp_noise_scale(1, eps, del)
    expect_lte(a, dp_noise_scale(1, eps, del, "hall"))
    expect_lte(a, dp_noise_scale(1, eps, del, "classical"))
  }
})

test_that("Hall's calibration: exact delta matches the spec's oracle values", {
  # D_M = alpha / c(beta): delta(1) = 1.558e-3 at beta = 0.1, and it fails
  # (delta > beta) at alpha = 10.
  expect_equal(gaussian_delta(1, dp_cdelta(0.1) / 1, 1), 1.558e-3, tolerance = 1e-3)
  expect_equal(gaussian_delta(10, dp_cdelta(0.1) / 10, 1), 2.644e-1, tolerance = 1e-3)
  expect_gt(gaussian_delta(10, dp_cdelta(0.1) / 10, 1), 0.1)
})

test_that("privacy-loss Monte Carlo agrees with the analytic delta", {
  # privacy loss of N(0, s^2) vs N(1, s^2) at x ~ N(0, s^2):
  # L = (1 - 2x) / (2 s^2); delta = E[(1 - exp(eps - L))_+].
  s <- dp_noise_scale(1, 1, 1e-3)
  set.seed(42)
  x <- rnorm(2e6, 0, s)
  L <- (1 - 2 * x) / (2 * s^2)
  mc <- mean(pmax(0, 1 - exp(1 - L)))
  expect_equal(mc, 1e-3, tolerance = 0.15)
})
