# Privacy accounting (R/budget.R): composition numbers against closed forms
# and published values, the ledger, refusals, and the wiring into mechanisms.

test_that("basic and advanced composition match the closed forms", {
  b <- compose_epsilon(c(0.1, 0.2, 0.3), c(1e-6, 0, 1e-6))
  expect_equal(b$epsilon, 0.6)
  expect_equal(b$delta, 2e-6)
  # Dwork, Rothblum and Vadhan: k-fold eps0 gives sqrt(2k log(1/d')) eps0 + k eps0 (e^eps0 - 1)
  a <- compose_epsilon(rep(0.1, 10), method = "advanced", delta_slack = 1e-6)
  expect_equal(a$epsilon, sqrt(2 * 10 * log(1e6)) * 0.1 + 10 * 0.1 * (exp(0.1) - 1), tolerance = 1e-14)
  expect_equal(a$epsilon, 1.767429, tolerance = 1e-6)   # worked by hand
  expect_equal(a$delta, 1e-6)
  # k = 100, eps0 = 0.01, delta' = 1e-5: 0.47985 + 0.01005 (hand computation)
  a2 <- compose_epsilon(rep(0.01, 100), method = "advanced", delta_slack = 1e-5)
  expect_equal(a2$epsilon, 0.48990, tolerance = 1e-4)
  # the heterogeneous form reduces to the same value for equal epsilons and beats basic for many
  expect_lt(compose_epsilon(rep(0.01, 1000), method = "advanced", delta_slack = 1e-6)$epsilon, 10)
})

test_that("GDP: exact profile, sqrt(k) composition and inverse", {
  # delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)
  for (mu in c(0.3, 1, 2.5)) for (e in c(0, 0.5, 1, 3)) {
    expect_equal(gdp_delta(e, mu), pnorm(-e / mu + mu / 2) - exp(e) * pnorm(-e / mu - mu / 2),
                 tolerance = 1e-10)
  }
  expect_equal(gdp_delta(1, 1), 0.12693674, tolerance = 1e-7)   # Phi(-0.5) - e Phi(-1.5)
  e <- gdp_epsilon(1, 1e-5)
  expect_equal(gdp_delta(e, 1), 1e-5, tolerance = 1e-6)
  expect_lte(gdp_delta(e, 1), 1e-5)
  # a Gaussian mechanism calibrated analytically at (1, 1e-5) is mu = 1 / sigma GDP, and the inverse recovers eps
  s <- dp_noise_scale(1, 1, 1e-5)
  expect_equal(gdp_epsilon(1 / s, 1e-5), 1, tolerance = 1e-8)
  # k-fold mu-GDP is sqrt(k) mu-GDP: the ledger of 4 releases equals one sqrt(4) mu release
  b <- privacy_budget(10, 1e-5, composition = "gdp")
  eps1 <- gdp_epsilon(0.5, 1e-6)
  for (i in 1:4) spend(b, eps1, 1e-6, mu = 0.5)
  expect_equal(budget_spent(b)$epsilon, gdp_epsilon(sqrt(4) * 0.5, 1e-5), tolerance = 1e-9)
  expect_lt(budget_spent(b)$epsilon, 4 * eps1)
})

test_that("zCDP: rho = Delta^2 / (2 sigma^2), rho adds, conversion matches OpenDP", {
  # OpenDP make_zCDP_to_approxDP: sigma = 4, Delta = 1, delta = 1e-3 -> 0.6880024554878085
  expect_equal(zcdp_epsilon(1 / (2 * 4^2), 1e-3), 0.6880024554878085, tolerance = 1e-9)
  expect_lte(zcdp_delta(zcdp_epsilon(0.1, 1e-5), 0.1), 1e-5 * (1 + 1e-8))
  # never worse than the textbook bound rho + 2 sqrt(rho log(1/delta))
  for (rho in c(0.01, 0.5, 3)) {
    expect_lte(zcdp_epsilon(rho, 1e-6), rho + 2 * sqrt(rho * log(1e6)))
  }
  # two Gaussian releases with sigma = 4, Delta = 1 compose to rho = 1/16
  b <- privacy_budget(5, 1e-3, composition = "zcdp")
  e1 <- gdp_epsilon(1 / 4, 1e-4)
  spend(b, e1, 1e-4, mu = 1 / 4)
  spend(b, e1, 1e-4, mu = 1 / 4)
  expect_equal(budget_spent(b)$epsilon, zcdp_epsilon(2 / 32, 1e-3), tolerance = 1e-9)
  # a pure eps-DP release counts eps^2 / 2
  b2 <- privacy_budget(5, 1e-3, composition = "zcdp")
  for (i in 1:50) spend(b2, 0.1)
  expect_equal(budget_spent(b2)$epsilon, zcdp_epsilon(50 * 0.1^2 / 2, 1e-3), tolerance = 1e-9)
  expect_lt(budget_spent(b2)$epsilon, 5)
})

test_that("the budget refuses an overspend, keeps the ledger, and says why", {
  b <- privacy_budget(1, 1e-5, composition = "basic")
  spend(b, 0.6, label = "first")
  err <- expect_error(spend(b, 0.5, label = "second"), class = "dpfda_error_budget")
  expect_s3_class(err, "dpfda_error_privacy")
  expect_match(conditionMessage(err), "second")
  expect_equal(nrow(summary(b)), 1L)
  spend(b, 0.4, label = "fits exactly")
  expect_equal(budget_spent(b)$epsilon, 1)
  expect_error(spend(b, 1e-6), class = "dpfda_error_budget")
  # delta is a budget too
  b2 <- privacy_budget(10, 1e-6, composition = "basic")
  expect_error(spend(b2, 0.1, delta = 2e-6), class = "dpfda_error_budget")
  # advanced composition admits 100 releases of 0.05 in a budget of 3 (basic would stop at 60)
  ba <- privacy_budget(3, 1e-5, composition = "advanced")
  bb <- privacy_budget(3, 1e-5, composition = "basic")
  for (i in 1:100) spend(ba, 0.05)
  expect_equal(budget_spent(ba)$epsilon,
               sqrt(2 * log(1e5) * 100 * 0.05^2) + 100 * 0.05 * expm1(0.05), tolerance = 1e-12)
  n_basic <- 0
  repeat {
    ok <- tryCatch({spend(bb, 0.05); TRUE}, dpfda_error_budget = function(e) FALSE)
    if (!ok) break
    n_basic <- n_basic + 1
  }
  expect_equal(n_basic, 60)
})

test_that("a Gaussian mu inconsistent with the claimed (eps, delta) is not used", {
  b <- privacy_budget(10, 1e-3)
  expect_warning(spend(b, 0.1, 1e-6, mu = 5), "does not imply",   # far less private than (0.1, 1e-6): ignored
                 class = "dpfda_warning_privacy")
  expect_true(is.na(summary(b)$mu))
  expect_equal(budget_spent(b)$epsilon, 0.1)
})

test_that("print and summary show the ledger", {
  b <- privacy_budget(2, 1e-5)
  spend(b, 0.5, label = "a")
  spend(b, 0.25, label = "b")
  expect_output(print(b), "spent: epsilon 0.75")
  s <- summary(b)
  expect_equal(s$label, c("a", "b"))
  expect_equal(s$total_epsilon, c(0.5, 0.75))
  expect_equal(s$total_delta, c(0, 0))
  expect_output(print(s), "Privacy ledger")
  # the delta each running total holds at: summed under basic composition, the budget's under GDP
  bb <- privacy_budget(3, 1e-5, composition = "basic")
  spend(bb, 1, delta = 1e-6)
  spend(bb, 1, delta = 2e-6)
  expect_equal(summary(bb)$total_delta, c(1e-6, 3e-6))
  bg <- privacy_budget(3, 1e-5, composition = "gdp")
  expect_warning(spend(bg, 0.5, delta = 1e-6, mu = 0.2), "does not imply")   # (dropped: not implied)
  spend(bg, 0.5)
  sg <- summary(bg)
  # (each total is the smallest valid statement: here the basic sum at delta 1e-6 beats the GDP one)
  expect_equal(sg$total_epsilon[2], budget_spent(bg)$epsilon)
  expect_equal(sg$total_delta[2], budget_spent(bg)$delta)
  expect_true(all(sg$total_delta <= 1e-5))
  bz <- privacy_budget(10, 1e-5, composition = "gdp")
  for (i in 1:16) spend(bz, 0.5, delta = 1e-7, mu = 0.09)   # (mu implies (0.5, 1e-7))
  sz <- summary(bz)
  expect_lt(sz$total_epsilon[16], 8)               # GDP composition beats the basic sum ...
  expect_equal(sz$total_delta[16], 1e-5)           # ... stated at the budget's delta
})

test_that("every mechanism charges its release once, with its own (eps, delta)", {
  with_seed_mode(1, {
    x <- seq(0, 1, length.out = 8)
    b <- privacy_budget(100, 0.5, composition = "basic")
    r <- list(
      dp_bernstein(rep(0.2, 5), 0.01, epsilon = 0.5, k = 4, budget = b),
      dp_gp_release(sin(x), x, kernel_gaussian(0.3), 0.1, epsilon = 0.7, delta = 1e-4, budget = b),
      dp_kde(c(0.2, 0.4, 0.5), x, 0.2, epsilon = 0.3, delta = 1e-4, budget = b),
      dp_select(c(1, 2, 3), 1, epsilon = 0.2, budget = b),
      dp_gp_regression(c(0.1, 0.5, 0.9), c(0.2, -0.1, 0.4), x, kernel_gaussian(0.3), 0.1, c(-1, 1),
                       epsilon = 0.9, delta = 1e-4, budget = b),
      dp_krr(c(0.1, 0.5, 0.9), c(0.2, -0.1, 0.4), 0.1, kernel_gaussian(0.3), x, c(-1, 1),
             epsilon = 0.4, delta = 1e-4, budget = b),
      dp_bin_regression(c(0.1, 0.5, 0.9), c(0.2, -0.1, 0.4), 2, c(-1, 1), epsilon = 0.6,
                        domain = c(0, 1), budget = b)
    )
    s <- summary(b)
    expect_equal(s$label, c("dp_bernstein", "dp_gp_release", "dp_kde", "dp_select",
                            "dp_gp_regression (cloaking)", "dp_krr", "dp_bin_regression"))
    expect_equal(s$epsilon, c(0.5, 0.7, 0.3, 0.2, 0.9, 0.4, 0.6))
    expect_equal(s$delta, c(0, 1e-4, 1e-4, 0, 1e-4, 1e-4, 0))
    # Gaussian releases carry mu = sensitivity / sigma
    expect_equal(s$mu[2], r[[2]]$sensitivity / r[[2]]$noise_scale)
    expect_true(is.na(s$mu[1]))
    # a release that would overspend is refused and nothing is returned
    small <- privacy_budget(0.5)
    dp_bernstein(rep(0.2, 5), 0.01, epsilon = 0.5, k = 4, budget = small)
    out <- NULL
    expect_error(out <- dp_bernstein(rep(0.2, 5), 0.01, epsilon = 0.1, k = 4, budget = small),
                 class = "dpfda_error_budget")
    expect_null(out)
    expect_error(dp_bernstein(rep(0.2, 5), 0.01, 1, 4, budget = list(epsilon = 1)),
                 class = "dpfda_error_argument")
  })
})

test_that("multi-step procedures charge every step, sub-steps once", {
  with_seed_mode(2, {
    x <- c(rnorm(200, 0.4, 0.1), rnorm(200, 0.7, 0.05))
    g <- seq(0, 1, length.out = 20)
    b <- privacy_budget(10, 1e-3, composition = "basic")
    bw <- dp_bandwidth(x, epsilon = 0.5, delta = 1e-4, fallback = 0.1, budget = b)
    dp_kde(x, g, bw, epsilon = 1, delta = 1e-4, budget = b)
    dp_kde(x, g, bw, epsilon = 1, delta = 1e-4, budget = b)
    expect_equal(summary(b)$label, c("dp_bandwidth", "dp_kde", "dp_kde"))
    expect_equal(budget_spent(b)$epsilon, 2.5)
    # a bandwidth released without the budget is charged when used with it, once
    b2 <- privacy_budget(10, 1e-3, composition = "basic")
    bw2 <- dp_bandwidth(x, epsilon = 0.5, delta = 1e-4, fallback = 0.1)
    dp_kde(x, g, bw2, epsilon = 1, delta = 1e-4, budget = b2)
    dp_kde(x, g, bw2, epsilon = 1, delta = 1e-4, mechanism = "bernstein", k = 5, budget = b2)
    expect_equal(summary(b2)$label, c("dp_bandwidth (used by dp_kde)", "dp_kde", "dp_kde"))
    expect_equal(budget_spent(b2)$delta, 3e-4)
    # private hyper-parameters, then the regression
    xs <- seq(0, 1, length.out = 30)
    y <- sin(6 * xs) + rnorm(30, 0, 0.2)
    cand <- expand.grid(lengthscale = c(0.1, 0.5), noise_variance = c(0.05, 0.5))
    b3 <- privacy_budget(3, 1e-3, composition = "basic")
    s <- dp_gp_select(xs, y, cand, y_bound = c(-2, 2), epsilon = 1, folds = 3, include_dp_noise = FALSE,
                      budget = b3)
    dp_gp_regression(xs, y, g, s$kernel, s$noise_variance, c(-2, 2), epsilon = 1, delta = 1e-4, budget = b3)
    expect_equal(summary(b3)$epsilon, c(1, 1))
    expect_error(dp_gp_regression(xs, y, g, s$kernel, s$noise_variance, c(-2, 2), epsilon = 1.5,
                                  delta = 1e-4, budget = b3), class = "dpfda_error_budget")
  })
})

test_that("exact (discrete Gaussian) releases are accounted through their rho in zCDP", {
  with_seed_mode(3, {
    x <- seq(0, 1, length.out = 6)
    b <- privacy_budget(10, 1e-3, composition = "zcdp")
    r1 <- dp_gp_release(sin(x), x, kernel_gaussian(0.3), 0.1, 1, 1e-5, noise = "exact", budget = b)
    r2 <- dp_bernstein(rep(0, 5), 0.01, 1, 4, delta = 1e-5, noise = "exact", budget = b)
    s <- summary(b)
    expect_true(all(is.na(s$mu)))                 # discrete Gaussian: no GDP claim
    expect_equal(s$rho, c(r1$zcdp_rho, r2$zcdp_rho))
    expect_equal(budget_spent(b)$epsilon, zcdp_epsilon(r1$zcdp_rho + r2$zcdp_rho, 1e-3), tolerance = 1e-9)
    expect_lt(budget_spent(b)$epsilon, 2)
    # a rho that does not imply the claimed (eps, delta) is not used
    b2 <- privacy_budget(10, 1e-3, composition = "zcdp")
    dpfda:::charge_budget(b2, 0.1, 1e-6, "bogus", rho = 5)
    expect_true(is.na(summary(b2)$rho))
  })
})

test_that("zcdp_delta() on a long vector agrees with the one-epsilon solver and is fast", {
  e <- c(0, 0.01, 0.1, 0.5, 1, 2, 5, 10, 50, 1e3, 1e300)
  for (rho in c(1e-6, 0.01, 0.5, 3, 100)) {
    one <- vapply(e, function(x) zcdp_delta(x, rho), 1)
    expect_equal(zcdp_delta(e, rho), one, tolerance = 1e-10)
  }
  expect_lt(cpu_seconds(zcdp_delta(seq(0, 1, length.out = 1e5), 0.5)), 10)
})

test_that("a refused release says what remains; GDP and zCDP prints explain their delta (issue 29)", {
  b <- privacy_budget(1, composition = "basic")
  spend(b, 0.9)
  err <- tryCatch(spend(b, 0.2), error = identity)
  expect_s3_class(err, "dpfda_error_budget")
  expect_match(conditionMessage(err), "(epsilon = 0.1, delta = 0) remains", fixed = TRUE)
  expect_output(print(b), "remaining (epsilon = 0.1, delta = 0)", fixed = TRUE)
  g <- privacy_budget(1, 1e-5, composition = "gdp")
  spend(g, 0.3, 1e-6)
  expect_output(print(g), "at the budget's delta = 1e-05")
  expect_output(print(g), "not summed over releases")
  err <- tryCatch(spend(g, 2, 1e-6), error = identity)
  expect_match(conditionMessage(err), "remains", fixed = TRUE)
})

test_that("the largest next release is what the budget still accepts, beyond budget minus spent (issue 29)", {
  # GDP: two Gaussian releases compose sublinearly; a pure release adds its epsilon
  gdp_spent <- function() {
    b <- privacy_budget(2, 1e-5)
    spend(b, 1, 1e-5, mu = 0.01)
    spend(b, 0.5, 1e-5, mu = 0.01)
    b
  }
  s <- budget_spent(gdp_spent())
  nx <- s$next_release
  expect_equal(nx$noise, c("pure", "gaussian"))
  expect_equal(nx$epsilon[1L], 2 - s$epsilon, tolerance = 1e-12)
  expect_equal(nx$delta, c(0, 1e-5))
  expect_gt(nx$epsilon[2L], s$remaining_epsilon + 0.5)    # 1.55 against 0.854
  # the Gaussian headroom is tight: a hair below fits, a hair above is refused
  b <- gdp_spent()
  expect_silent(spend(b, nx$epsilon[2L] * (1 - 1e-6), 1e-5, mu = 0.01))
  expect_equal(budget_spent(b)$epsilon, 2, tolerance = 1e-5)
  b <- gdp_spent()
  expect_error(spend(b, nx$epsilon[2L] * (1 + 1e-4), 1e-5, mu = 0.01), class = "dpfda_error_budget")
  expect_error(spend(b, nx$epsilon[1L] * (1 + 1e-4)), class = "dpfda_error_budget")
  expect_silent(spend(b, nx$epsilon[1L] * (1 - 1e-6)))
  # print and refusal state it, rounded down (so that the number shown fits)
  b <- gdp_spent()
  shown <- dpfda:::format_down(nx$epsilon[2L])
  expect_lte(as.numeric(shown), nx$epsilon[2L])
  expect_output(print(b), sprintf("up to (epsilon %s, delta 1e-05) if Gaussian", shown), fixed = TRUE)
  err <- tryCatch(spend(b, 1.9, 1e-5, mu = 0.01), error = identity)
  expect_match(conditionMessage(err), sprintf("or up to (epsilon %s, delta 1e-05) if Gaussian", shown), fixed = TRUE)
  # zCDP: many small pure releases compose below their sum; the pure headroom is found on the total
  zc <- function() {
    b <- privacy_budget(2, 1e-5, composition = "zcdp")
    for (i in 1:40) spend(b, 0.05)
    b
  }
  s <- budget_spent(zc())
  expect_lt(s$epsilon, 1.9)                                  # below the sum 2 of the epsilons
  nx <- s$next_release
  b <- zc()
  expect_silent(spend(b, nx$epsilon[1L] * (1 - 1e-6)))
  b <- zc()
  expect_error(spend(b, nx$epsilon[1L] * (1 + 1e-4)), class = "dpfda_error_budget")
  # zCDP, Gaussian: a hair below the headroom fits, a hair above is refused
  expect_gt(nx$epsilon[2L], nx$epsilon[1L])
  b <- zc()
  expect_silent(spend(b, nx$epsilon[2L] * (1 - 1e-6), 1e-5, mu = 0.01))
  b <- zc()
  expect_error(spend(b, nx$epsilon[2L] * (1 + 1e-4), 1e-5, mu = 0.01), class = "dpfda_error_budget")
  # advanced composition: 40 releases of 0.05 compose to about 1.62; the pure headroom is tight
  adv <- function() {
    b <- privacy_budget(2, 1e-5, composition = "advanced")
    for (i in 1:40) spend(b, 0.05)
    b
  }
  s <- budget_spent(adv())
  expect_lt(s$epsilon, 1.7)
  e <- s$next_release$epsilon[1L]
  b <- adv()
  expect_silent(spend(b, e * (1 - 1e-5)))
  b <- adv()
  expect_error(spend(b, e * (1 + 1e-4)), class = "dpfda_error_budget")
  # cheap enough for every print (a ledger of 40 releases)
  expect_lt(cpu_seconds(for (i in 1:5) budget_spent(zc())) / 5, 0.5)
  # zCDP after a pure release and a Gaussian one whose delta was summed: at the budget's delta no Gaussian
  # release fits, at the delta the sum leaves one of the remaining epsilon does (it said "(epsilon 0, delta
  # 1e-06) if Gaussian" while a (0.05, 5e-7) release was accepted)
  zm <- function() {
    b <- privacy_budget(1, 1e-6, composition = "zcdp")
    spend(b, 0.3)
    spend(b, 0.5, 1e-7)
    b
  }
  nx <- budget_spent(zm())$next_release
  expect_equal(nx$epsilon, c(0.2, 0.2), tolerance = 1e-6)
  expect_equal(nx$delta, c(0, 9e-7), tolerance = 1e-12)
  b <- zm()
  expect_silent(spend(b, nx$epsilon[2L] * (1 - 1e-6), nx$delta[2L]))
  expect_error(spend(zm(), 0.2 * (1 + 1e-4), nx$delta[2L]), class = "dpfda_error_budget")
  expect_error(spend(zm(), 0.01, 1e-6), class = "dpfda_error_budget")   # at the budget's delta: nothing fits
  expect_output(print(zm()), "or up to (epsilon 0.2, delta 9e-07) if Gaussian", fixed = TRUE)
  # basic composition: the difference, and no Gaussian release without delta
  b <- privacy_budget(1, composition = "basic")
  spend(b, 0.9)
  expect_equal(budget_spent(b)$next_release$epsilon, c(0.1, 0), tolerance = 1e-12)
  expect_false(any(grepl("next release", capture.output(print(b)))))
  expect_equal(dpfda:::format_down(1.55267), "1.552")
  expect_equal(dpfda:::format_down(0.1 * 3 / 3), "0.1")
})

test_that("tidy(), glance() and as.data.frame() of a budget: the ledger and one row of totals", {
  # (both were R's unclassed "no applicable method" / "cannot coerce class")
  b <- privacy_budget(epsilon = 2, delta = 1e-5)
  g0 <- glance(b)
  expect_equal(g0[c("spent_epsilon", "releases", "remaining_epsilon")],
               data.frame(spent_epsilon = 0, releases = 0L, remaining_epsilon = 2))
  expect_identical(nrow(tidy(b)), 0L)
  x <- curves(matrix(seq(0.1, 0.9, length.out = 200), 20), seq(0, 1, length.out = 10))
  with_seed_mode(1, {
    dp_mean(x, epsilon = 0.5, tau = 1, budget = b)
    dp_mean(x, epsilon = 0.5, tau = 1, mechanism = "gp", delta = 1e-6, budget = b)
  })
  td <- tidy(b)
  expect_identical(class(td), "data.frame")
  expect_named(td, c("label", "epsilon", "delta", "mu", "rho", "unit", "total_epsilon", "total_delta"))
  expect_equal(td, as.data.frame(unclass(summary(b)))[names(td)], ignore_attr = TRUE)
  expect_identical(as.data.frame(b), td)
  s <- budget_spent(b)
  g <- glance(b)
  expect_identical(nrow(g), 1L)
  expect_equal(g$spent_epsilon, s$epsilon)
  expect_equal(g$remaining_epsilon, s$remaining_epsilon)
  expect_equal(g$releases, 2L)
  expect_equal(g$next_epsilon_pure, s$next_release$epsilon[s$next_release$noise == "pure"])
  expect_identical(g$composition, b$composition)
  expect_error(tidy(b, wide = TRUE), class = "dpfda_error_argument")
  expect_error(glance(structure(list(), class = "dpfda_budget")), class = "dpfda_error_argument")
})

test_that("a budget states its privacy unit: a person only when every release charged protects one", {
  set.seed(6)
  g <- seq(0, 1, length.out = 8)
  X <- matrix(rnorm(90 * 8, 0, 0.3), 90) + rep(sin(2 * pi * g), each = 90)
  id <- rep(1:30, each = 3)
  b <- privacy_budget(epsilon = 5)
  expect_silent(with_seed_mode(1, dp_mean(curves(X, g), epsilon = 1, tau = 2, unit = id, budget = b)))
  expect_silent(with_seed_mode(1, dp_cov(curves(X, g), epsilon = 1, tau = 2, J = 3, unit = id, budget = b)))
  expect_output(print(b), "privacy unit: a whole id (`unit`, every release)", fixed = TRUE)
  expect_identical(summary(b)$unit, c("id", "id"))
  # a release of records charged to it: warned, and the total holds for one record only
  w <- expect_warning(with_seed_mode(1, dp_mean(curves(X, g), epsilon = 1, tau = 2, budget = b)),
                      class = "dpfda_warning_privacy")
  expect_match(conditionMessage(w), "protects one record, while earlier releases charged to this budget protect a whole id",
               fixed = TRUE)
  expect_output(print(b), "privacy unit: one record -- 2 of 3 charges protect a whole unit (id)", fixed = TRUE)
  expect_identical(summary(b)$unit, c("id", "id", "one record"))
  # records only: said so, no warning; a person-level bandwidth and density together: no warning
  b2 <- privacy_budget(epsilon = 5, delta = 1e-5)
  expect_silent(with_seed_mode(1, dp_mean(curves(X, g), epsilon = 1, tau = 2, budget = b2)))
  expect_output(print(b2), "privacy unit: one record (curve, point or row)", fixed = TRUE)
  b3 <- privacy_budget(epsilon = 5, delta = 1e-5)
  p <- data.frame(v = rnorm(600), person = rep(1:200, 3))
  bw <- with_seed_mode(1, dp_bandwidth(p, 1, 1e-6, fallback = 0.4, domain = c(-4, 4), unit = person, budget = b3))
  expect_silent(with_seed_mode(1, dp_kde(p, seq(-4, 4, length.out = 41), bw, epsilon = 1, delta = 1e-6, unit = person,
                                         columns = v, budget = b3)))
  expect_identical(summary(b3)$unit, c("person", "person"))
})

test_that("a budget with delta = 0 does not offer a Gaussian release of epsilon 0", {
  old <- dp_reproducible(5)
  on.exit(dp_rng(old))
  b <- privacy_budget(epsilon = 1)
  x <- faithful$eruptions
  dp_kde(x, bandwidth = 0.3, epsilon = 0.9, budget = b, domain = c(1, 6), mechanism = "iclp")
  out <- utils::capture.output(print(b))
  expect_false(any(grepl("if Gaussian", out)))   # (it said "or up to (epsilon 0, delta 0) if Gaussian")
  expect_match(paste(out, collapse = "\n"), "remaining (epsilon = 0.1, delta = 0)", fixed = TRUE)
  e <- expect_error(dp_kde(x, bandwidth = 0.3, epsilon = 0.2, budget = b, domain = c(1, 6), mechanism = "iclp"),
                    class = "dpfda_error_budget")
  expect_false(grepl("if Gaussian", conditionMessage(e)))
  expect_match(conditionMessage(e), "so (epsilon = 0.1, delta = 0) remains", fixed = TRUE)
})

test_that("what remains is printed rounded down, so that spending it is accepted; a Gaussian release that cannot fit is said", {
  # (gdp: "remaining epsilon = 0.569" for 0.56897, and spend(b, 0.569) was refused)
  b <- privacy_budget(1, 1e-5)
  spend(b, 0.5, 1e-6, mu = 1 / dp_noise_scale(1, 0.5, 1e-6))
  out <- utils::capture.output(print(b))
  rest <- glance(b)$remaining_epsilon
  shown <- as.numeric(sub(".*remaining epsilon = ([0-9.e-]+).*", "\\1", grep("remaining epsilon =", out, value = TRUE)))
  expect_lte(shown, rest)
  expect_gt(shown, rest * 0.999)
  expect_silent(spend(b, shown))
  # 0.1 remaining reads as 0.1 (not 0.09999)
  b2 <- privacy_budget(1, composition = "basic")
  spend(b2, 0.9)
  expect_output(print(b2), "remaining (epsilon = 0.1, delta = 0)", fixed = TRUE)
  # advanced composition near its end: the Gaussian release offered (at a part of the delta left, which
  # it said did not fit) is one that fits
  b3 <- privacy_budget(3, 1e-5, composition = "advanced")
  for (i in 1:30) spend(b3, 0.1, delta = 1e-7)
  out3 <- paste(utils::capture.output(print(b3)), collapse = " ")
  expect_false(grepl("(epsilon 0, delta", out3, fixed = TRUE))
  g3 <- glance(b3)
  expect_gt(g3$next_epsilon_gaussian, 0)
  expect_silent(spend(b3, g3$next_epsilon_gaussian, delta = g3$next_delta_gaussian))
})

test_that("a budget says when its releases drew seeded (reproducible, not private) noise", {
  b <- privacy_budget(3, 1e-5)
  x <- faithful$eruptions
  old <- dp_reproducible(1)
  r1 <- dp_kde(x, seq(1, 6, length.out = 21), 0.3, 0.5, mechanism = "iclp", domain = c(1, 6), budget = b)
  dp_rng(old)
  expect_output(print(b), "1 of the 1 releases drew seeded noise (dp_reproducible()): reproducible, NOT private",
                fixed = TRUE)
  old <- dp_rng("secure")
  r2 <- dp_kde(x, seq(1, 6, length.out = 21), 0.3, 0.5, mechanism = "iclp", domain = c(1, 6), budget = b)
  dp_rng(old)
  spend(b, 0.1, label = "by hand")   # (declared by hand: no noise drawn, not counted either way)
  expect_output(print(b), "1 of the 3 releases drew seeded noise", fixed = TRUE)
  b2 <- privacy_budget(1)
  old <- dp_rng("secure")
  dp_kde(x, seq(1, 6, length.out = 21), 0.3, 0.5, mechanism = "iclp", domain = c(1, 6), budget = b2)
  dp_rng(old)
  expect_false(any(grepl("seeded", utils::capture.output(print(b2)))))
})

test_that("zCDP: pure releases may be added by the basic rule to the Gaussian part, as the print says", {
  muof <- function(e, d) 1 / dp_noise_scale(1, e, d)
  b <- privacy_budget(1, 1e-5, composition = "zcdp")
  for (i in 1:3) spend(b, 0.3, 1e-6, mu = muof(0.3, 1e-6))
  s <- budget_spent(b)
  expect_equal(s$epsilon, zcdp_epsilon(3 * muof(0.3, 1e-6)^2 / 2, 1e-5), tolerance = 1e-9)
  expect_lt(s$epsilon, 0.52)
  # 0.512 + 0.3 <= 1 (basic composition of the converted Gaussian part and the pure release): accepted;
  # the pure release as rho = 0.045 alone would have refused it
  expect_silent(spend(b, 0.3))
  expect_equal(budget_spent(b)$epsilon, s$epsilon + 0.3, tolerance = 1e-9)
  # the next Gaussian release: the print offers it, and spending exactly that is accepted
  nx <- budget_spent(b)$next_release
  expect_gt(nx$epsilon[2], 0.3)
  expect_silent(spend(b, nx$epsilon[2], nx$delta[2], mu = muof(nx$epsilon[2], nx$delta[2])))
  expect_error(spend(b, 0.01, 1e-5, mu = muof(0.01, 1e-5)), class = "dpfda_error_budget")
  expect_lte(budget_spent(b)$epsilon, 1 + 1e-9)
})

test_that("GDP: a Gaussian release whose own delta exceeds the budget's is counted at the budget's delta", {
  mu <- 1 / dp_noise_scale(1, 0.5, 1e-3)
  b <- privacy_budget(2, 1e-5, composition = "gdp")
  expect_silent(spend(b, 0.5, 1e-3, mu = mu))
  expect_equal(budget_spent(b)$epsilon, gdp_epsilon(mu, 1e-5), tolerance = 1e-9)
  # basic composition cannot: the refusal says that the release's delta alone is too large
  bb <- privacy_budget(2, 1e-5, composition = "basic")
  e <- expect_error(spend(bb, 0.5, 1e-3, mu = mu), class = "dpfda_error_budget")
  expect_match(conditionMessage(e), "its delta alone is more than the budget's delta = 1e-05", fixed = TRUE)
})

test_that("advanced composition offers a Gaussian release at a part of the delta left, and it fits", {
  # (at all the delta left the composition keeps none for itself: the print said "no Gaussian release
  # fits" and then a (0.2, 1e-6) release was accepted)
  x <- seq(0, 1, length.out = 20)
  mk <- function() {
    b <- privacy_budget(epsilon = 3, delta = 1e-5, composition = "advanced")
    for (i in 1:100) spend(b, 0.05)
    b
  }
  b <- mk()
  gl <- glance(b)
  expect_gt(gl$next_epsilon_gaussian, 0.2)
  expect_lt(gl$next_delta_gaussian, 1e-5)
  expect_false(any(grepl("no Gaussian release fits", capture.output(print(b)), fixed = TRUE)))
  rel <- function(bud, e) dp_gp_release(sin(2 * pi * x), x, kernel_gaussian(0.1), sensitivity = 0.1, epsilon = e,
                                        delta = gl$next_delta_gaussian, budget = bud)
  expect_s3_class(rel(b, gl$next_epsilon_gaussian), "dpfda_release")
  expect_error(rel(mk(), gl$next_epsilon_gaussian * 1.01), class = "dpfda_error_budget")
})

test_that("a release the budget refuses says nothing of its private bound (warnings wait for the charge)", {
  # The utility warning of a y_bound = "auto" / tau = "auto" release showed the privately chosen bound
  # before the budget refused the release: every refused call gave a fresh private draw for free (a
  # user test). Such warnings (utility, noisy count) now wait until the budget is charged.
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old), add = TRUE)
  set.seed(1)
  x <- seq(0, 1, length.out = 100)
  y <- sin(6 * x) + stats::rnorm(100, 0, 0.2)
  rel <- function(b) dp_gp_regression(x, y, seq(0, 1, length.out = 20), kernel_gaussian(0.2), 0.04,
                                      y_bound = "auto", epsilon = 1.5, delta = 1e-6, budget = b)
  b <- privacy_budget(1, 1e-5)
  spend(b, 0.9)
  seen <- character()
  keep <- function(w) {
    seen <<- c(seen, class(w)[1L])
    invokeRestart("muffleWarning")
  }
  for (i in 1:3) expect_error(withCallingHandlers(rel(b), warning = keep), class = "dpfda_error_budget")
  expect_length(seen, 0L)
  expect_equal(nrow(b$ledger), 1L)
  # charged: the same warning is given, before the release returns (and without a budget, at once)
  expect_warning(rel(privacy_budget(10, 1e-5)), "privacy noise", class = "dpfda_warning_utility")
  expect_warning(rel(NULL), "privacy noise", class = "dpfda_warning_utility")
  # after the charge, later warnings of the same call are not lost; and no hold outlives its call
  expect_length(dpfda:::held_warnings$stack, 0L)
})

test_that("spend(mu = ) takes a mu computed for exactly its (epsilon, delta), and says when it drops one", {
  # (a mu computed for (1, 1e-5) is over by rounding, 3e-14 relative: it was dropped without a word, so
  # a later Gaussian release that the print said fits was refused; a user test)
  b <- privacy_budget(2, 1e-5)
  spend(b, 1, 1e-5, mu = 1 / dp_noise_scale(1, 1, 1e-5) * (1 + 1e-12))
  expect_false(is.na(b$ledger$mu[1]))
  spend(b, 0.5, 1e-5, mu = 1 / dp_noise_scale(1, 0.5, 1e-5))
  expect_equal(nrow(b$ledger), 2L)
  expect_warning(spend(b, 0.1, 1e-6, mu = 0.5), "does not imply", class = "dpfda_warning_privacy")
  expect_true(is.na(b$ledger$mu[3]))
})

test_that("advanced composition: a Gaussian release at a tiny delta is found for next_release; delta 0 in spend()'s warning", {
  # (572 releases of (0.01, 1e-6) on (1, 1e-3): "no Gaussian release fits" with a row of epsilon 0, while
  # one of (0.007, 1e-9) was accepted)
  a <- privacy_budget(1, delta = 1e-3, composition = "advanced")
  for (i in 1:572) spend(a, 0.01, delta = 1e-6)
  nx <- budget_spent(a)$next_release
  g <- nx[nx$noise == "gaussian", ]
  expect_gt(g$epsilon, 0.005)
  expect_gt(g$delta, 0)
  expect_output(print(a), "if Gaussian")
  expect_silent(spend(a, g$epsilon * (1 - 1e-6), g$delta, mu = dpfda:::gdp_mu_for(g$epsilon * (1 - 1e-6), g$delta)))
  # (with delta = 0 no mu implies the claim: the warning said "at most NULL here")
  b <- privacy_budget(3, 1e-5)
  w <- expect_warning(spend(b, 0.5, 0, mu = 0.1), class = "dpfda_warning_privacy")
  expect_no_match(conditionMessage(w), "NULL")
  expect_match(conditionMessage(w), "delta above 0")
})
