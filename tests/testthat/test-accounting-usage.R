# Defects found by using the accounting and the basic mechanisms as a teacher would (session of
# 2026-12-02): each test fails on the behaviour before its fix.

test_that("spend() and budget_spent() ask for a budget, not 'NULL or a budget'", {
  for (b in list(NULL, "b")) {
    e <- expect_error(spend(b, 0.1), class = "dpfda_error_argument")
    expect_match(conditionMessage(e), "`budget` must be a privacy_budget(), not", fixed = TRUE)
  }
  e <- expect_error(budget_spent(NULL), class = "dpfda_error_argument")
  expect_false(grepl("NULL or", conditionMessage(e), fixed = TRUE))
})

test_that("dp_rng() refuses two modes instead of setting the first", {
  old <- dp_rng()
  on.exit(dp_rng(old))
  dp_rng("seeded")
  expect_error(dp_rng(c("secure", "seeded")), class = "dpfda_error_argument")
  expect_identical(dp_rng(), "seeded")   # (unchanged)
})

test_that("messages: 'a 2 x 2 matrix', the columns dp_explore() lacks, no delta warning before its error", {
  e <- expect_error(dp_select(matrix(1:4, 2), 1, 2), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "not a 2 x 2 integer matrix", fixed = TRUE)
  e <- expect_error(dp_explore(data = datasets::faithful), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "it has no column x or y (its columns: eruptions, waiting)", fixed = TRUE)
  expect_no_warning(expect_error(dp_kde(stats::runif(50), seq(0, 1, length.out = 11), 0.1, 1, 1.5),
                                 class = "dpfda_error_privacy"))
})

test_that("gdp_epsilon() and zcdp_epsilon() take a vector of mu or rho, as the deltas take epsilons", {
  expect_equal(gdp_epsilon(c(0.5, 1), 1e-5), c(gdp_epsilon(0.5, 1e-5), gdp_epsilon(1, 1e-5)))
  expect_equal(zcdp_epsilon(c(0.1, 1), 1e-5), c(zcdp_epsilon(0.1, 1e-5), zcdp_epsilon(1, 1e-5)))
  # each inverts its delta
  e <- gdp_epsilon(c(0.3, 2), 1e-6)
  expect_equal(c(gdp_delta(e[1], 0.3), gdp_delta(e[2], 2)), c(1e-6, 1e-6), tolerance = 1e-6)
  e <- expect_error(gdp_epsilon(c(1, NA), 1e-5), class = "dpfda_error_privacy")
  expect_match(conditionMessage(e), "(c(1, NA))", fixed = TRUE)
  expect_error(zcdp_epsilon(c(0.1, -1), 1e-5), class = "dpfda_error_privacy")
})

test_that("dp_accuracy() of a GP release plans exact noise, refuses unknown options and speaks of no tau", {
  # (noise = "exact" and a misspelt calibraton = "hall" were ignored: the plan gave the float
  # analytic 0.1865 where the exact release has 0.2023)
  g <- seq(0, 1, length.out = 101)
  k <- kernel_gaussian(0.1)
  plan <- function(...) dp_accuracy(mechanism = "gp", sensitivity = 0.05, epsilon = 1, delta = 1e-5, kernel = k,
                                    grid = g, ...)
  r <- with_seed_mode(1, dp_gp_release(sin, g, k, sensitivity = 0.05, epsilon = 1, delta = 1e-5, noise = "exact"))
  expect_equal(plan(noise = "exact")$expected_l2, dp_accuracy(r)$expected_l2, tolerance = 1e-8)   # (the jitter)
  expect_gt(plan(noise = "exact")$expected_l2, plan()$expected_l2 * 1.05)
  rh <- with_seed_mode(1, dp_gp_release(sin, g, k, sensitivity = 0.05, epsilon = 1, delta = 1e-5, calibration = "hall"))
  expect_equal(plan(calibration = "hall")$expected_l2, dp_accuracy(rh)$expected_l2, tolerance = 1e-12)
  expect_error(plan(calibraton = "hall"), "`calibraton` is not an option of dp_accuracy()", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_error(plan(noise = "exakt"), class = "dpfda_error_argument")
  out <- capture.output(print(plan()))
  expect_false(any(grepl("tau", out, fixed = TRUE)))
  expect_true(any(grepl("bias: none (noise added to the function itself", out, fixed = TRUE)))
})

test_that("calibration = \"hall\" beyond epsilon 1 records the true delta of its noise and charges it", {
  # (the release printed "(epsilon = 40, delta = 1e-05)-DP" where its noise gives delta 0.156)
  g <- seq(0, 1, length.out = 100)
  w <- expect_warning(r <- with_seed_mode(1, dp_gp_release(sin, g, kernel_gaussian(0.1), sensitivity = 0.01,
                                                           epsilon = 40, delta = 1e-5, calibration = "hall",
                                                           allow_large_epsilon = TRUE)),
                      class = "dpfda_warning_privacy")
  td <- gaussian_delta(40, r$noise_scale, r$sensitivity)
  expect_gt(td, 0.1)
  expect_equal(r$delta, td, tolerance = 1e-12)
  expect_identical(r$delta_claimed, 1e-5)
  expect_output(print(r), sprintf("delta = %s)-DP", format(r$delta, digits = 4)), fixed = TRUE)
  b <- privacy_budget(100, 0.5, composition = "basic")
  r2 <- suppressWarnings(with_seed_mode(1, dp_gp_release(sin, g, kernel_gaussian(0.1), sensitivity = 0.01, epsilon = 40,
                                                         delta = 1e-5, calibration = "hall", allow_large_epsilon = TRUE,
                                                         budget = b)))
  expect_equal(budget_spent(b)[["delta"]], td, tolerance = 1e-9)
  # where the claim holds, nothing changes
  r3 <- with_seed_mode(1, dp_gp_release(sin, g, kernel_gaussian(0.1), sensitivity = 0.01, epsilon = 1, delta = 1e-5,
                                        calibration = "hall"))
  expect_identical(r3$delta, 1e-5)
  expect_null(r3$delta_claimed)
})

test_that("a refusal of what a private function returned gives its shape, never its values", {
  # (a dp_online() query's error showed the analyst "rows c(0.777, 0.888)" of the curator's function)
  o <- with_seed_mode(1, dp_online(function(t) c(0.777, 0.888)[seq_along(t)] + 0 * t, kernel_exponential(0.1),
                                   sensitivity = 0.1, epsilon = 1, delta = 1e-5))
  e <- expect_error(query(o, cbind(0.1, 0.2)), class = "dpfda_error_argument")
  expect_false(grepl("0.777", conditionMessage(e), fixed = TRUE))
  e <- expect_error(dp_gp_release(function(t) c(0.4242, NA, 1), c(0.1, 0.2, 0.3), kernel_gaussian(0.1),
                                  sensitivity = 0.1, epsilon = 1, delta = 1e-5), class = "dpfda_error_argument")
  expect_false(grepl("0.4242", conditionMessage(e), fixed = TRUE))
  expect_match(conditionMessage(e), "a double vector of length 3 with 1 missing or non-finite value", fixed = TRUE)
})

test_that("a GDP budget that refuses an exact Gaussian release points to zCDP composition", {
  # (the second exact release of (1, 1e-5) in a (2, 1e-5) GDP budget was refused with "no Gaussian
  # release fits", where a zCDP budget takes three)
  x <- seq(0, 1, length.out = 50)
  rel <- function(b) with_seed_mode(1, dp_gp_release(sin(2 * pi * x), x, kernel_gaussian(0.1), sensitivity = 0.1,
                                                     epsilon = 1, delta = 1e-5, noise = "exact", budget = b))
  b <- privacy_budget(2, 1e-5)
  rel(b)
  e <- expect_error(rel(b), class = "dpfda_error_budget")
  expect_match(conditionMessage(e), "composition = \"zcdp\"), counts them by their rho", fixed = TRUE)
  z <- privacy_budget(2, 1e-5, composition = "zcdp")
  for (i in 1:3) rel(z)
  expect_identical(nrow(z$ledger), 3L)
  # a float release refused in a GDP budget gets no such note
  f <- privacy_budget(1, 1e-5)
  e <- expect_error(with_seed_mode(1, dp_gp_release(sin(2 * pi * x), x, kernel_gaussian(0.1), sensitivity = 0.1,
                                                    epsilon = 2, delta = 1e-5, budget = f)), class = "dpfda_error_budget")
  expect_false(grepl("zcdp", conditionMessage(e), fixed = TRUE))
})

test_that("the print of an exact GP release says its noise is a discrete Gaussian calibrated by zCDP", {
  # (it printed "noise scale 0.2023" beside dp_noise_scale()'s 0.1865 without a word)
  g <- seq(0, 1, length.out = 101)
  r <- with_seed_mode(1, dp_gp_release(sin, g, kernel_gaussian(0.1), sensitivity = 0.05, epsilon = 1, delta = 1e-5,
                                       noise = "exact"))
  expect_output(print(r), "(exact: discrete Gaussian, calibrated by zCDP with rho 0.03056", fixed = TRUE)
  f <- with_seed_mode(1, dp_gp_release(sin, g, kernel_gaussian(0.1), sensitivity = 0.05, epsilon = 1, delta = 1e-5))
  expect_false(any(grepl("exact:", capture.output(print(f)), fixed = TRUE)))
})
