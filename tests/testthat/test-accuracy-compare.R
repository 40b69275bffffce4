# dp_accuracy() with several mechanisms: one row per mechanism, each the single plan (R/accuracy-compare.R).

test_that("a comparison holds each mechanism's own plan, and its print names the best", {
  g <- seq(0, 1, length.out = 41)
  cmp <- dp_accuracy(mechanism = c("iclp_qr", "frl", "gp"), n = 300, epsilon = 1, tau = 0.5, grid = g,
                     delta = 1e-5)
  expect_s3_class(cmp, "dpfda_accuracy_comparison")
  expect_equal(cmp$mechanism, c("iclp_qr", "frl", "gp"))
  for (m in cmp$mechanism) {
    one <- dp_accuracy(mechanism = m, n = 300, epsilon = 1, tau = 0.5, grid = g, delta = 1e-5)
    row <- cmp[cmp$mechanism == m, ]
    expect_equal(row$expected_l2, one$expected_l2)
    expect_equal(row$total_l2, one$total_l2)
    expect_equal(row$expected_sup, one$expected_sup)
    expect_identical(attr(cmp, "plans")[[m]], one)
  }
  expect_equal(cmp$delta, c(0, 0, 1e-5))             # delta is used by the Gaussian mechanism only
  best <- cmp$mechanism[which.min(cmp$total_l2)]
  expect_output(print(cmp), paste("smallest total L2 error .*:", best))
  # the mechanism first, as for one mechanism
  expect_equal(dp_accuracy(c("iclp_qr", "gp"), n = 300, epsilon = 1, tau = 0.5, grid = g, delta = 1e-5)$total_l2,
               cmp$total_l2[c(1, 3)])
})

test_that("a comparison solves for epsilon or n per mechanism; a target out of reach is Inf, without a plan", {
  g <- seq(0, 1, length.out = 41)
  cmp <- dp_accuracy(mechanism = c("iclp_qr", "frl", "gp"), n = 300, tau = 0.5, grid = g, delta = 1e-5,
                     target_l2 = 0.03, solve_for = "epsilon")
  for (m in cmp$mechanism) {
    one <- dp_accuracy(mechanism = m, n = 300, tau = 0.5, grid = g, delta = 1e-5, target_l2 = 0.03,
                       solve_for = "epsilon")
    expect_equal(cmp$epsilon_needed[cmp$mechanism == m], one$epsilon_needed)
  }
  reach <- is.finite(cmp$epsilon_needed)
  expect_true(any(reach) && any(!reach))             # (FRL's truncation bias alone exceeds the target)
  expect_true(all(is.na(cmp$total_l2[!reach])) && all(is.na(cmp$epsilon[!reach])))
  expect_equal(cmp$total_l2[reach], rep(0.03, sum(reach)), tolerance = 1e-3)
  expect_output(print(cmp), paste("least epsilon for the target:",
                                  cmp$mechanism[reach][which.min(cmp$epsilon_needed[reach])]))
  cn <- dp_accuracy(mechanism = c("iclp_qr", "gp"), epsilon = 1, tau = 0.5, grid = g, delta = 1e-5,
                    target_l2 = 0.1)
  expect_equal(cn$n_needed[1], dp_accuracy(mechanism = "iclp_qr", epsilon = 1, tau = 0.5, grid = g,
                                           target_l2 = 0.1)$n_needed)
})

test_that("a comparison refuses what it cannot compare, naming the argument", {
  g <- seq(0, 1, length.out = 21)
  for (bad in list(c("iclp_qr", "bandwidth"), c("iclp_qr", "iclp_qr"), c("iclp_qr", NA), c("iclp_qr", "nope"))) {
    expect_error(dp_accuracy(mechanism = bad, n = 100, epsilon = 1, tau = 1, grid = g),
                 class = "dpfda_error_argument", regexp = "mechanism")
  }
  # an error of one mechanism's settings is that mechanism's (gp needs delta > 0)
  expect_error(dp_accuracy(mechanism = c("iclp_qr", "gp"), n = 100, epsilon = 1, tau = 1, grid = g),
               class = "dpfda_error")
})
