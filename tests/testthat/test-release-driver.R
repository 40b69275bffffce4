# The shared preamble and epilogue (R/release-driver.R): one charge per
# release, equal to the (epsilon, delta) the release reports, whatever parts
# make it.

test_that("release_close() composes parts and refuses a release whose parts do not add up", {
  b <- privacy_budget(10, 1e-3, composition = "gdp")
  rel <- list(epsilon = 1, delta = 1e-5)
  # one Gaussian part keeps its mu (tight GDP composition)
  dpfda:::release_close(rel, b, "one", list(dpfda:::privacy_part(1, 1e-5, mu = 0.2)))
  expect_equal(b$ledger$mu, 0.2)
  # several parts without a profile: one entry, the sum of (epsilon, delta)
  dpfda:::release_close(list(epsilon = 1, delta = 1e-5), b, "pure",
                        list(dpfda:::privacy_part(0.4, name = "bound"), dpfda:::privacy_part(0.6, 1e-5)))
  expect_equal(nrow(b$ledger), 2L)
  expect_equal(b$ledger$epsilon[2], 1)
  expect_equal(b$ledger$delta[2], 1e-5)
  expect_true(is.na(b$ledger$mu[2]))
  # a Gaussian part with others: one entry per part, all at once, the Gaussian one with its mu
  dpfda:::release_close(rel, b, "two", list(dpfda:::privacy_part(0.4, name = "bound"),
                                            dpfda:::privacy_part(0.6, 1e-5, mu = 0.1)))
  expect_equal(b$ledger$label[3:4], c("two [bound]", "two [release]"))
  expect_equal(b$ledger$mu[3:4], c(NA, 0.1))
  # refused as a whole: nothing of it is charged
  small <- privacy_budget(1.5, 1e-3, composition = "basic")
  dpfda:::release_close(list(epsilon = 1, delta = 0), small, "first", list(dpfda:::privacy_part(1)))
  expect_error(dpfda:::release_close(rel, small, "two", list(dpfda:::privacy_part(0.4, name = "bound"),
                                                             dpfda:::privacy_part(0.6, 1e-5, mu = 0.1))),
               class = "dpfda_error_budget")
  expect_equal(nrow(small$ledger), 1L)
  # parts that do not add up to the release's claim: an internal error, nothing charged
  expect_error(dpfda:::release_close(rel, b, "bad", list(dpfda:::privacy_part(0.5))),
               class = "dpfda_error_internal")
  expect_error(dpfda:::release_close(list(epsilon = 1, delta = 0), b, "bad", list(dpfda:::privacy_part(1, 1e-6))),
               class = "dpfda_error_internal")
  expect_equal(nrow(b$ledger), 4L)
  # zero parts (an unused share) are left out
  dpfda:::release_close(list(epsilon = 1, delta = 0), b, "zero",
                        list(dpfda:::privacy_part(0), dpfda:::privacy_part(1, mu = 0.3, rho = NULL)))
  expect_equal(nrow(b$ledger), 5L)
})

test_that("every composite release charges exactly what it reports, once", {
  set.seed(4)
  t <- seq(0, 1, length.out = 9)
  x <- curves(outer(rnorm(150), sin(pi * t)) / 2 + 0.1 * matrix(rnorm(150 * 9), 150), t)
  d <- as.data.frame(x)
  inc <- d[!(d$id %in% c(2, 5) & d$arg > 0.6), ]
  one <- function(expr, eps) {
    b <- privacy_budget(50, 1e-3, composition = "basic")
    r <- suppressWarnings(with_seed_mode(9, expr(b)))   # (ICLP-AR warns that J_tau = J here)
    expect_equal(nrow(b$ledger), 1L)
    expect_equal(budget_spent(b)$epsilon, r$epsilon)
    expect_equal(r$epsilon, eps)
    r
  }
  for (m in c("iclp_qr", "iclp_ar", "frl", "bernstein")) {
    one(function(b) dp_mean(x, epsilon = 1, tau = 2, mechanism = m, budget = b), 1)
    one(function(b) dp_mean(inc, epsilon = 1, tau = 2, grid = t, mechanism = m, incomplete = "drop", budget = b), 1)
    one(function(b) dp_mean(x, epsilon = 1, tau = "auto", mechanism = m, budget = b), 1)
  }
  r <- one(function(b) dp_mean(x, epsilon = 1, tau = 2, mechanism = "gp", delta = 1e-5, budget = b), 1)
  expect_equal(r$delta, 1e-5)
  # a Gaussian release with a private bound: two entries (bound, release), the release with its mu
  b <- privacy_budget(5, 1e-3, composition = "gdp")
  r <- with_seed_mode(9, dp_mean(x, epsilon = 2, tau = "auto", mechanism = "gp", delta = 1e-5, budget = b))
  expect_equal(b$ledger$label, c("dp_mean (tau = \"auto\") [release]", "dp_mean (tau = \"auto\") [bound]"))
  expect_equal(sum(b$ledger$epsilon), r$epsilon)
  expect_equal(b$ledger$mu[1], r$sensitivity / r$noise_scale)
  one(function(b) dp_mean(x, epsilon = 1, tau = 2, select = "pcv", epsilon_select = 0.5, budget = b), 1.5)
  one(function(b) dp_mean(x, epsilon = 1, tau = 2, inference = TRUE, budget = b), 1)
  one(function(b) dp_mean(inc, epsilon = 1, tau = "auto", grid = t, incomplete = "drop", budget = b), 1)
  one(function(b) dp_cov(x, epsilon = 1, tau = 2, budget = b), 1)
  one(function(b) dp_cov(x, epsilon = 1, tau = "auto", budget = b), 1)
  one(function(b) dp_cov(inc, epsilon = 1, tau = 2, grid = t, incomplete = "drop", budget = b), 1)
  one(function(b) dp_kde(runif(200), t, 0.2, epsilon = 0.5, mechanism = "bernstein", k = 5, budget = b), 0.5)
  one(function(b) dp_kde(runif(200), t, 0.2, epsilon = 0.5, mechanism = "iclp", budget = b), 0.5)
  one(function(b) dp_kme(matrix(runif(100), 50), kernel_gaussian(0.3), epsilon = 0.7, delta = 1e-5,
                         domain = rbind(c(0, 0), c(1, 1)), M = 20, budget = b), 0.7)
})

test_that("a release charged in several parts counts as one release", {
  b <- privacy_budget(5, 1e-3, composition = "gdp")
  dpfda:::release_close(list(epsilon = 1, delta = 1e-5), b, "two",
                        list(dpfda:::privacy_part(0.4, name = "bound"), dpfda:::privacy_part(0.6, 1e-5, mu = 0.1)))
  dpfda:::release_close(list(epsilon = 1, delta = 0), b, "one", list(dpfda:::privacy_part(1)))
  expect_equal(nrow(b$ledger), 3L)
  expect_equal(budget_spent(b)$releases, 2L)
  expect_output(print(b), "over 2 releases")
})
