# dp_accuracy(): the size of the privacy noise from public settings, checked
# against the noise of real releases (releases of all-zero data are pure
# noise: every summary of zero curves is zero, clipped or shrunk).

acc_grid <- seq(0, 1, length.out = 31)
acc_zero <- curves(matrix(0, 40, length(acc_grid)), acc_grid)
acc_w <- dpfda:::quadrature_weights(acc_grid)

# R releases of zero data by `mechanism` (seeded): an R x m matrix of noise.
acc_noise <- function(R, mechanism, seed = 1, epsilon = 1, tau = 1) {
  with_seed_mode(seed, t(vapply(seq_len(R), function(i) {
    suppressWarnings(predict(dp_mean(acc_zero, epsilon = epsilon, tau = tau, mechanism = mechanism,
                                     delta = if (mechanism == "gp") 1e-3)))
  }, numeric(length(acc_grid)))))
}

test_that("the settings and the release give the same accuracy, for every dp_mean mechanism", {
  for (m in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
    r <- with_seed_mode(1, suppressWarnings(dp_mean(acc_zero, epsilon = 1, tau = 1, mechanism = m,
                                                    delta = if (m == "gp") 1e-3)))
    a1 <- dp_accuracy(r, nsim = 500)
    a2 <- dp_accuracy(mechanism = m, n = 40, epsilon = 1, tau = 1, grid = acc_grid, delta = 1e-3,
                      nsim = 500)
    expect_s3_class(a1, "dpfda_accuracy")
    expect_equal(a1$pointwise_sd, a2$pointwise_sd, tolerance = 1e-10, info = m)
    expect_equal(a1$expected_l2, a2$expected_l2, tolerance = 1e-10, info = m)
    expect_equal(a1$expected_sup, a2$expected_sup, tolerance = 1e-10, info = m)
    expect_length(a1$pointwise_sd, length(acc_grid))
    expect_true(all(a1$pointwise_sd > 0))
  }
})

test_that("a dp_mean() call copied into dp_accuracy(): center changes nothing, unit is refused with advice", {
  a <- dp_accuracy(mechanism = "iclp_qr", n = 40, epsilon = 1, tau = 1, grid = acc_grid, nsim = 200)
  b <- dp_accuracy(mechanism = "iclp_qr", n = 40, epsilon = 1, tau = 1, grid = acc_grid, nsim = 200, center = 5)
  expect_equal(b$expected_l2, a$expected_l2)
  expect_equal(b$bias_l2, a$bias_l2)
  e <- expect_error(dp_accuracy(mechanism = "iclp_qr", n = 40, epsilon = 1, tau = 1, grid = acc_grid, unit = 1:40),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "number of units")
  expect_error(dp_accuracy(mechanism = "iclp_qr", n = 40, epsilon = 1, tau = 1, grid = acc_grid, centre = 5),
               class = "dpfda_error_argument", regexp = "`centre` is not an option")
})

test_that("expected L2 and sup errors match simulated releases within 5%", {
  # many-component noise: R releases give a Monte Carlo error of about 1-2%,
  # so the 5% tolerance is about 3 standard errors and can fail
  for (m in c("iclp_qr", "bernstein", "gp")) {
    R <- 200
    N <- acc_noise(R, m, seed = 11)
    l2_sim <- sqrt(mean(N^2 %*% acc_w))
    sup_sim <- mean(apply(abs(N), 1, max))
    a <- dp_accuracy(mechanism = m, n = 40, epsilon = 1, tau = 1, grid = acc_grid, delta = 1e-3, nsim = 4000)
    expect_lt(abs(a$expected_l2 / l2_sim - 1), 0.05, label = paste(m, "L2"))
    expect_lt(abs(a$expected_sup / sup_sim - 1), 0.05, label = paste(m, "sup"))
    # pointwise sd pooled over the grid
    expect_lt(abs(mean(a$pointwise_sd^2) / mean(N^2) - 1), 0.1, label = paste(m, "pointwise"))
  }
})

test_that("few-component noise (FRL, ICLP-AR) matches simulation within its Monte Carlo error", {
  for (m in c("frl", "iclp_ar")) {
    R <- 250
    N <- acc_noise(R, m, seed = 12)
    sq <- as.vector(N^2 %*% acc_w)
    a <- dp_accuracy(mechanism = m, n = 40, epsilon = 1, tau = 1, grid = acc_grid, nsim = 4000)
    # mean squared L2 norm: 4 standard errors of the simulation
    expect_lt(abs(mean(sq) - a$expected_l2^2), 4 * sd(sq) / sqrt(R), label = paste(m, "L2^2"))
    sups <- apply(abs(N), 1, max)
    expect_lt(abs(mean(sups) - a$expected_sup), 4 * sd(sups) / sqrt(R) + 0.02 * a$expected_sup,
              label = paste(m, "sup"))
  }
})

test_that("the Gaussian-process release of a function: expected L2 matches simulation within 5%", {
  g <- seq(0, 1, length.out = 41)
  k <- kernel_gaussian(0.1)
  N <- with_seed_mode(3, t(vapply(1:200, function(i) {
    predict(dp_gp_release(numeric(41), g, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5))
  }, numeric(41))))
  w <- dpfda:::quadrature_weights(g)
  a <- dp_accuracy(mechanism = "gp", sensitivity = 0.1, epsilon = 1, delta = 1e-5, kernel = k, grid = g,
                   nsim = 4000)
  expect_equal(a$pointwise_sd, rep(dp_noise_scale(0.1, 1, 1e-5), 41))
  expect_lt(abs(a$expected_l2 / sqrt(mean(N^2 %*% w)) - 1), 0.05)
  expect_lt(abs(a$expected_sup / mean(apply(abs(N), 1, max)) - 1), 0.05)
})

test_that("the n and epsilon needed for a target are the smallest that reach it", {
  # the solvers use the total error (noise and the bound on the smoothing bias)
  base <- list(mechanism = "iclp_qr", epsilon = 1, tau = 1, grid = acc_grid, nsim = 200)
  a <- do.call(dp_accuracy, c(base, list(n = 100, target_l2 = 0.01)))
  l2_at <- function(n) do.call(dp_accuracy, c(base, list(n = n)))$total_l2
  expect_true(is.finite(a$n_needed))
  expect_lte(l2_at(a$n_needed), 0.01)
  expect_gt(l2_at(a$n_needed - 1), 0.01)
  # epsilon
  e <- do.call(dp_accuracy, c(base, list(n = 100, target_l2 = 0.05, solve_for = "epsilon")))
  l2_eps <- function(eps) dp_accuracy(mechanism = "iclp_qr", n = 100, epsilon = eps, tau = 1,
                                      grid = acc_grid, nsim = 200)$total_l2
  expect_lte(l2_eps(e$epsilon_needed), 0.05)
  expect_gt(l2_eps(e$epsilon_needed * 0.999), 0.05)
  # the sup target is reached too (Monte Carlo with common random numbers)
  s <- do.call(dp_accuracy, c(base, list(n = 100, target_sup = 0.05)))
  expect_lte(do.call(dp_accuracy, c(base, list(n = s$n_needed)))$total_sup, 0.05 * 1.0001)
  # Bernstein noise is proportional to 1 / n and its bias (k = 20) does not depend on n: the n
  # needed is exact, sqrt(target^2 - bias^2) for the noise
  b0 <- dp_accuracy(mechanism = "bernstein", n = 10, epsilon = 1, tau = 1, grid = acc_grid, nsim = 100)
  tg <- 1.05 * b0$bias_l2
  b <- dp_accuracy(mechanism = "bernstein", n = 10, epsilon = 1, tau = 1, grid = acc_grid, target_l2 = tg,
                   nsim = 100)
  expect_equal(b$n_needed, ceiling(10 * b0$expected_l2 / sqrt(tg^2 - b0$bias_l2^2) - 1e-9))
  expect_equal(dp_accuracy(mechanism = "bernstein", n = 10, epsilon = 1, tau = 1, grid = acc_grid,
                           target_l2 = 0.99 * b0$bias_l2, nsim = 100)$n_needed, Inf)
  expect_output(print(a), "n needed")
  # searching down from a start that is already good enough (odd start: whole numbers only)
  d <- do.call(dp_accuracy, c(base, list(n = 100001, target_l2 = 0.05)))
  expect_lte(l2_at(d$n_needed), 0.05)
  expect_gt(l2_at(d$n_needed - 1), 0.05)
  # unreachable within the search range
  expect_equal(do.call(dp_accuracy, c(base, list(n = 10, target_l2 = 1e-12)))$n_needed, Inf)
})

test_that("dp_accuracy touches neither data, budget nor the caller's random numbers", {
  set.seed(42)
  before <- .Random.seed
  a <- dp_accuracy(mechanism = "iclp_qr", n = 50, epsilon = 1, tau = 1, grid = acc_grid)
  expect_identical(.Random.seed, before)
  expect_false("x" %in% names(formals(dpfda:::accuracy_settings)))
  # the same settings give the same answer (fixed public seed)
  expect_identical(a, dp_accuracy(mechanism = "iclp_qr", n = 50, epsilon = 1, tau = 1, grid = acc_grid))
})

test_that("dp_accuracy errors are classed and say what to give", {
  expect_error(dp_accuracy(mechanism = "iclp_qr", n = 10, tau = 1, grid = acc_grid),
               class = "dpfda_error_argument", regexp = "epsilon")
  expect_error(dp_accuracy(mechanism = "iclp_qr", epsilon = 1, tau = 1, grid = acc_grid),
               class = "dpfda_error_argument", regexp = "`n` is needed")
  expect_error(dp_accuracy(mechanism = "iclp_qr", n = 10, epsilon = 1, grid = acc_grid),
               class = "dpfda_error_argument", regexp = "`tau` is needed")
  expect_error(dp_accuracy(mechanism = "iclp_qr", n = 10, epsilon = 1, tau = 1),
               class = "dpfda_error_argument", regexp = "`grid` is needed")
  expect_error(dp_accuracy(mechanism = "gp", epsilon = 1, delta = 1e-5, grid = acc_grid),
               class = "dpfda_error_argument", regexp = "sensitivity")
  expect_error(dp_accuracy(mechanism = "nope", n = 10, epsilon = 1, tau = 1, grid = acc_grid),
               class = "dpfda_error_argument")
  expect_error(dp_accuracy(mechanism = "iclp_qr", n = 10, epsilon = -1, tau = 1, grid = acc_grid),
               class = "dpfda_error_privacy")
  expect_error(dp_accuracy(1:3), class = "dpfda_error_argument")
  expect_equal(dp_accuracy("frl", n = 10, epsilon = 1, tau = 1, grid = acc_grid, nsim = 50)$expected_l2,
               dp_accuracy(mechanism = "frl", n = 10, epsilon = 1, tau = 1, grid = acc_grid, nsim = 50)$expected_l2)
  expect_error(dp_accuracy(mechanism = "iclp_qr", n = 10, epsilon = 1, tau = 1, grid = acc_grid, bogus = 1),
               class = "dpfda_error_argument", regexp = "bogus")
  expect_error(dp_accuracy(mechanism = "iclp_qr", n = 10, epsilon = 1, tau = 1, grid = acc_grid,
                           target_l2 = 1, target_sup = 1), class = "dpfda_error_argument")
})

test_that("releases print their noise size; a release that is mostly noise warns (public quantities only)", {
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old), add = TRUE)
  r <- with_seed_mode(2, dp_mean(acc_zero, epsilon = 1, tau = 1))
  expect_output(print(r), "noise sd on the grid in .*expected L2 noise error")
  a <- dp_accuracy(r)
  expect_output(print(r), format(a$expected_l2, digits = 4), fixed = TRUE)
  # n = 2, epsilon = 0.05: the FRL noise dwarfs anything tau allows, whatever the data
  small <- curves(matrix(0, 2, length(acc_grid)), acc_grid)
  big <- curves(matrix(5, 2, length(acc_grid)), acc_grid)
  expect_warning(dp_mean(small, epsilon = 0.05, tau = 1, mechanism = "frl"), class = "dpfda_warning_utility")
  expect_warning(dp_mean(big, epsilon = 0.05, tau = 1, mechanism = "frl"), class = "dpfda_warning_utility")
  expect_warning(dp_mean(big, epsilon = 0.05, tau = 1, mechanism = "bernstein"), class = "dpfda_warning_utility")
  expect_gt(dp_accuracy(mechanism = "frl", n = 2, epsilon = 0.05, tau = 1, grid = acc_grid)$expected_l2, 1)
  # the GP regression and binning releases check against their y_bound
  expect_warning(dp_bin_regression(runif(3), runif(3), bins = 10, y_bound = c(0, 1), epsilon = 0.05,
                                   domain = c(0, 1)), class = "dpfda_warning_utility")
  # plenty of data: no warning, whatever the data
  many <- curves(matrix(5, 400, length(acc_grid)), acc_grid)
  expect_no_warning(dp_mean(many, epsilon = 1, tau = 1))
  expect_no_warning(dp_mean(curves(matrix(0, 400, length(acc_grid)), acc_grid), epsilon = 1, tau = 1))
  # the option switches it off
  options(dpfda.utility_warning = FALSE)
  expect_no_warning(dp_mean(small, epsilon = 0.05, tau = 1, mechanism = "frl"))
})

test_that("dp_accuracy of a covariance release matches its settings", {
  g <- seq(0, 1, length.out = 15)
  x <- curves(matrix(0, 30, 15), g)
  r <- with_seed_mode(4, dp_cov(x, epsilon = 1, tau = 1, J = 4))
  a1 <- dp_accuracy(r, nsim = 300)
  a2 <- dp_accuracy(mechanism = "cov", n = 30, epsilon = 1, tau = 1, grid = g, J = 4, nsim = 300)
  expect_equal(a1$pointwise_sd, a2$pointwise_sd, tolerance = 1e-10)
  expect_length(a1$pointwise_sd, 15^2)
  # the print speaks of a covariance and says there is no sup bound (it printed "NA (sup)", "sup at most NA")
  out <- capture.output(print(a2))
  expect_false(any(grepl("NA", out, fixed = TRUE)))
  expect_true(any(grepl("for a covariance as smooth as the kernel allows", out, fixed = TRUE)))
  expect_true(any(grepl("for any covariance within tau^2", out, fixed = TRUE)))
  expect_true(any(grepl("(no sup bound of the bias for this mechanism)", out, fixed = TRUE)))
  # zero data with centring: the released surface is pure noise; pooled variance within 15%
  N <- with_seed_mode(5, t(vapply(1:100, function(i) predict(dp_cov(x, epsilon = 1, tau = 1, J = 4)),
                                  numeric(225))))
  expect_lt(abs(mean(N^2) / mean(a1$pointwise_sd^2) - 1), 0.15)
})

test_that("dp_accuracy for dp_kde's Gaussian-process mechanism matches the release", {
  set.seed(6)
  pts <- runif(200)
  g <- seq(0, 1, length.out = 51)
  r <- with_seed_mode(6, dp_kde(pts, g, bandwidth = 0.1, epsilon = 1, delta = 1e-5, domain = c(0, 1)))
  a1 <- dp_accuracy(r, nsim = 200)
  a2 <- dp_accuracy(mechanism = "kde", n = 200, epsilon = 1, delta = 1e-5, grid = g, bandwidth = 0.1, nsim = 200)
  expect_equal(a1$pointwise_sd, a2$pointwise_sd, tolerance = 1e-8)
  expect_equal(a1$expected_sup, a2$expected_sup, tolerance = 1e-6)
  expect_equal(a1$pointwise_sd, rep(r$noise_scale, 51))
  expect_error(dp_accuracy(mechanism = "kde", n = 200, epsilon = 1, delta = 1e-5, grid = g),
               class = "dpfda_error_argument", regexp = "bandwidth")
  # a domain alone plans the release on dp_kde()'s default grid over it (before: "`grid` is needed")
  r3 <- with_seed_mode(6, dp_kde(pts, bandwidth = 0.1, epsilon = 1, delta = 1e-5, domain = c(0, 1)))
  a3 <- dp_accuracy(mechanism = "kde", n = 200, epsilon = 1, delta = 1e-5, domain = c(0, 1), bandwidth = 0.1,
                    nsim = 200)
  expect_equal(a3$expected_l2, dp_accuracy(r3, nsim = 200)$expected_l2, tolerance = 1e-8)
  expect_length(a3$pointwise_sd, 101L)
  e <- expect_error(dp_accuracy(mechanism = "kde", n = 200, epsilon = 1, delta = 1e-5, bandwidth = 0.1),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "or its `domain`", fixed = TRUE)
})

test_that("the utility warning fires on raw Oxboys heights with a large tau, not on a centred release", {
  skip_if_not_installed("nlme")
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old), add = TRUE)
  g <- seq(-1, 0.99, length.out = 30)
  ox <- as_curves(nlme::Oxboys, id = Subject, arg = age, value = height, grid = g)
  reference <- function(a) 149 + 6.5 * a
  # n = 26, epsilon = 1: the ICLP noise is about 0.9 tau whatever tau is (the noise scales with tau)
  a <- dp_accuracy(mechanism = "iclp_qr", n = 26, epsilon = 1, tau = 200, grid = g)
  expect_gt(a$expected_l2, 100)
  expect_lt(a$expected_l2, 200)                            # below tau: why a noise > tau rule missed it
  # (FRL's noise on its few coefficients is smaller, about 0.3 tau here: its raw release is off by the
  # truncation bias, which depends on the data and is not what this public check measures)
  for (m in c("iclp_qr", "iclp_ar", "bernstein")) {
    w <- expect_warning(with_seed_mode(52, dp_mean(ox, epsilon = 1, tau = 200, mechanism = m)),
                        class = "dpfda_warning_utility")
    expect_match(conditionMessage(w), "Centre the data", info = m)
  }
  # centred on a public reference with a bound on the deviations: the release is the reference plus a
  # deviation plus noise well below the size of the curves
  expect_no_warning(with_seed_mode(53, dp_mean(ox, epsilon = 1, tau = 28, center = reference)))
  expect_no_warning(with_seed_mode(53, dp_mean(ox, epsilon = 1, tau = 20, mechanism = "bernstein",
                                               center = reference)))
  # centred but tau as large as the heights: still mostly noise, and the advice is about tau
  w <- expect_warning(with_seed_mode(54, dp_mean(ox, epsilon = 1, tau = 200, center = reference)),
                      class = "dpfda_warning_utility")
  expect_match(conditionMessage(w), "norm of the public centre")
  expect_match(conditionMessage(w), "Lower the bound tau")
  # the rule is public: noise L2 against half the signal size, the same for any data of the same settings
  many <- curves(matrix(0, 400, length(g)), g)
  expect_no_warning(with_seed_mode(55, dp_mean(many, epsilon = 1, tau = 28)))
  expect_lt(dp_accuracy(mechanism = "iclp_qr", n = 400, epsilon = 1, tau = 28, grid = g)$expected_l2, 14)
})

test_that("solve_for needs no value of what it solves for (issue 29)", {
  g <- seq(0, 1, length.out = 30)
  a <- dp_accuracy(mechanism = "iclp_qr", n = 93, tau = 1, grid = g, target_l2 = 0.3, solve_for = "epsilon")
  expect_true(is.finite(a$epsilon_needed))
  expect_equal(a$epsilon, a$epsilon_needed)               # the plan at the solution
  expect_lte(a$expected_l2, 0.3 * (1 + 1e-6))
  # the same as solving from a given starting epsilon
  b <- dp_accuracy(mechanism = "iclp_qr", n = 93, epsilon = 2, tau = 1, grid = g, target_l2 = 0.3,
                   solve_for = "epsilon")
  expect_equal(a$epsilon_needed, b$epsilon_needed, tolerance = 1e-3)
  d <- dp_accuracy(mechanism = "frl", epsilon = 1, tau = 1, grid = g, target_l2 = 0.1)
  expect_equal(d$n, d$n_needed)
  expect_lte(d$expected_l2, 0.1)
})

test_that("an unreachable target does not send the user from n to epsilon and back when neither lowers the bias", {
  g <- seq(0, 1, length.out = 93)
  # Bernstein's k is fixed: its bias bound depends on neither n nor epsilon
  for (sf in c("n", "epsilon")) {
    a <- dp_accuracy(mechanism = "bernstein", n = 141, epsilon = 1, tau = 0.2, grid = g, target_l2 = 0.05,
                     solve_for = sf)
    expect_false(a$unreachable$other_helps, info = sf)
    out <- paste(capture.output(print(a)), collapse = "\n")
    expect_match(out, "neither n nor epsilon lowers it under this tuning: instead, smooth less (a larger bernstein_k",
                 fixed = TRUE)
    expect_false(grepl("with solve_for =", out, fixed = TRUE), info = sf)
  }
  # ICLP-QR's default psi falls with n: solving for epsilon still points to n
  q <- dp_accuracy(mechanism = "iclp_qr", n = 141, tau = 0.2, grid = g, target_l2 = 1e-9, solve_for = "epsilon")
  expect_true(q$unreachable$other_helps)
  expect_match(paste(capture.output(print(q)), collapse = "\n"), "plan n with solve_for = \"n\"", fixed = TRUE)
})

test_that("dp_accuracy() of a release with a share elsewhere states the epsilon its figures are for", {
  d <- dti_cca[dti_cca$visit == 1, ]
  x <- curves(d$cca[stats::complete.cases(d$cca), ], seq(0, 1, length.out = 93))
  r <- with_seed_mode(2, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, inference = TRUE))
  a <- dp_accuracy(r)
  expect_equal(a$epsilon, 1)
  expect_equal(a$epsilon_release, 0.8)
  expect_output(print(a), "a plan of them takes epsilon = 0.8", fixed = TRUE)
  p <- dp_accuracy(mechanism = "iclp_qr", n = r$n, epsilon = a$epsilon_release, tau = 0.2, grid = x$grid)
  expect_equal(p$total_l2, a$total_l2, tolerance = 1e-6)   # (the plan at that epsilon is the release's)
  expect_null(dp_accuracy(with_seed_mode(2, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5)))$epsilon_release)
})

test_that("the utility warning names the lever that lowers the smoothing of each mechanism", {
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old), add = TRUE)
  d <- dti_cca[dti_cca$visit == 1, ]
  ok <- stats::complete.cases(d$cca)
  x <- curves(d$cca[ok, ], seq(0, 1, length.out = 93))
  w <- expect_warning(with_seed_mode(1, dp_mean(x, epsilon = 5, tau = 0.2, center = 0.5, mechanism = "frl")),
                      class = "dpfda_warning_utility")
  expect_match(conditionMessage(w), "not with epsilon", fixed = TRUE)
  expect_match(conditionMessage(w), "a larger M in ...", fixed = TRUE)
  # FRL's default M does not change with epsilon, as the warning says
  b <- vapply(c(1, 5, 100), function(e) dp_accuracy(mechanism = "frl", n = 141, epsilon = e, tau = 0.2,
                                                     grid = x$grid)$bias_l2, 0)
  expect_equal(b, rep(b[1], 3))
})

test_that("an unreachable target says why: the bias bound at the end of the search, and the placeholder", {
  g <- c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21)   # (ChickWeight's days: FRL's default M depends on n only)
  a <- dp_accuracy(mechanism = "frl", n = 50, tau = 1500, grid = g, target_l2 = 300, solve_for = "epsilon")
  expect_identical(a$epsilon_needed, Inf)
  expect_equal(a$unreachable$bias, dp_accuracy(mechanism = "frl", n = 50, epsilon = 1e4, tau = 1500, grid = g)$bias_l2)
  expect_gt(a$unreachable$bias, 300)
  out <- paste(capture.output(print(a)), collapse = "\n")
  expect_match(out, "no epsilon up to 10000 reaches it: the smoothing-bias bound alone is 1247", fixed = TRUE)
  expect_match(out, "plan n with solve_for = \"n\", smooth less (a larger M in ...)", fixed = TRUE)
  expect_match(out, "the figures above are at the placeholder epsilon = 1", fixed = TRUE)
  # and the advice works: with M = 12 (every component, no smoothing bias) the target is reached
  b <- dp_accuracy(mechanism = "frl", n = 50, tau = 1500, grid = g, target_l2 = 300, solve_for = "epsilon", M = 12)
  expect_true(is.finite(b$epsilon_needed))
  expect_null(b$unreachable)
  expect_lte(b$total_l2, 300 * (1 + 1e-6))
  # solving for n from a given epsilon: no placeholder sentence
  d <- dp_accuracy(mechanism = "frl", n = 50, epsilon = 1, tau = 1500, grid = g, target_l2 = 1e-9, solve_for = "n",
                   nsim = 100)
  expect_identical(d$n_needed, Inf)
  expect_false(grepl("placeholder", paste(capture.output(print(d)), collapse = " ")))
})

# ---- issue 29: the bound on the smoothing bias and the total error ----------

test_that("the smoothing bias bound has the value computed by hand and is attained (QR, FRL)", {
  g <- seq(0, 1, length.out = 41)
  k <- kernel_matern(3 / 2, 0.1)
  b <- kl_basis(k, g)
  lam <- b$values
  tau <- 0.7
  eta <- 1.25; psi <- 1e-3
  s <- lam^eta / (lam^eta + psi)                       # on [0, 1] the unit-measure psi is psi
  hand <- tau / sqrt(lam[1]) * max((1 - s) * sqrt(lam))
  a <- dp_accuracy(mechanism = "iclp_qr", n = 100, epsilon = 1, tau = tau, grid = g, kernel = k,
                   eta = eta, psi = psi, nsim = 50)
  expect_equal(a$bias_l2, hand, tolerance = 1e-12)
  expect_equal(a$bias_worst_l2, tau * max(1 - s), tolerance = 1e-12)
  expect_equal(a$total_l2, sqrt(a$expected_l2^2 + hand^2), tolerance = 1e-12)
  # attained: the mean R sqrt(lam_j) v_j at the worst component is in the class and loses exactly this
  j <- which.max((1 - s) * sqrt(lam))
  mu_coef <- numeric(length(lam)); mu_coef[j] <- tau / sqrt(lam[1]) * sqrt(lam[j])
  expect_lte(sum(mu_coef^2 / lam), tau^2 / lam[1] * (1 + 1e-12))
  expect_equal(sqrt(sum(((1 - s) * mu_coef)^2)), hand, tolerance = 1e-12)
  # FRL keeps M components: the bias is tau sqrt(lam_{M+1} / lam_1)
  f <- dp_accuracy(mechanism = "frl", n = 100, epsilon = 1, tau = tau, grid = g, kernel = k, M = 4, nsim = 50)
  expect_equal(f$bias_l2, tau * sqrt(lam[5] / lam[1]), tolerance = 1e-12)
})

test_that("the pointwise and L2 bias bounds hold for random means of the class (every mean mechanism)", {
  g <- seq(0, 1, length.out = 31)
  k <- dpfda:::default_mean_kernel(g)
  b <- kl_basis(k, g)
  lam <- b$values; V <- b$vectors; w <- b$weights
  tau <- 1
  set.seed(29)
  # random coefficients on the boundary of the class sum a^2 / lam <= tau^2 / lam_1, concentrated
  # on few components (the worst cases) or spread
  draws <- lapply(1:150, function(i) {
    z <- rnorm(length(lam)) * (if (i %% 2) rbinom(length(lam), 1, 0.1) else 1)
    if (!any(z != 0)) z[1] <- 1
    a <- z * sqrt(lam)
    a / sqrt(sum(a^2 / lam)) * tau / sqrt(lam[1])
  })
  for (m in c("iclp_qr", "gp", "frl", "iclp_ar", "bernstein")) {
    r <- with_seed_mode(1, suppressWarnings(dp_mean(curves(matrix(0, 20, 31), g), epsilon = 1, tau = tau,
                                                    mechanism = m, delta = if (m == "gp") 1e-3)))
    bb <- dpfda:::release_bias_bound(r)
    expect_equal(dp_accuracy(r, nsim = 50)$bias_l2, bb$l2, info = m)
    for (a in draws) {
      mu <- as.vector(V %*% a)
      centre <- switch(m,
        iclp_qr = , gp = as.vector(V %*% (dpfda:::qr_shrink(lam, r$params$eta, r$params$psi)$s * a)),
        frl = as.vector(V[, seq_len(r$params$M), drop = FALSE] %*% a[seq_len(r$params$M)]),
        iclp_ar = {
          t <- dpfda:::ar_threshold(lam, r$params$eta, r$params$psi, 1)
          jt <- r$params$J_tau
          as.vector(V[, seq_len(jt), drop = FALSE] %*% dpfda:::soft_threshold(a[seq_len(jt)], t[seq_len(jt)]))
        },
        bernstein = {
          lat <- seq(0, 1, length.out = 21)
          br <- list(values = list(values = matrix(0, 1, 21)), k = 20L, h = 1L, dim = 1L, domain = c(0, 1),
                     noise_type = "laplace")
          as.vector(dpfda:::bernstein_map(br, g) %*% approx(g, mu, xout = lat)$y)
        })
      err <- centre - mu
      expect_true(all(abs(err) <= bb$pointwise * (1 + 1e-9) + 1e-12), info = m)
      expect_lte(sqrt(sum(w * err^2)), bb$l2 * (1 + 1e-9) + 1e-12)
    }
  }
})

test_that("the total L2 error is non-increasing in epsilon and n for every mechanism (default tuning)", {
  g <- seq(0, 1, length.out = 31)
  eps <- 10^seq(-6, 3, by = 0.25)
  ns <- c(10, 30, 100, 300, 1000, 1e4, 1e5)
  for (m in c("iclp_qr", "iclp_ar", "frl", "gp", "bernstein")) {
    tot <- function(n, e) {
      dp_accuracy(mechanism = m, n = n, epsilon = e, tau = 1, grid = g, delta = 1e-5, nsim = 10)$total_l2
    }
    for (n in c(50, 1000)) {
      v <- vapply(eps, function(e) tot(n, e), 0)
      expect_true(all(is.finite(v)), info = m)
      expect_true(all(diff(v) <= 1e-12 * v[-1]), info = paste(m, "epsilon, n =", n))
    }
    for (e in c(0.01, 1, 100)) {
      v <- vapply(ns, function(n) tot(n, e), 0)
      expect_true(all(diff(v) <= 1e-12 * v[-1]), info = paste(m, "n, epsilon =", e))
    }
  }
})

test_that("ICLP-AR: the total may rise where a component enters; solve_for = \"n\" still finds the smallest n", {
  g <- seq(0, 1, length.out = 51)
  tot <- function(n) dp_accuracy(mechanism = "iclp_ar", n = n, epsilon = 1, tau = 1, grid = g, nsim = 10)$total_l2
  ns <- 2:420
  v <- vapply(ns, tot, 0)
  expect_true(any(diff(v) > 0.05))   # (the steps, e.g. n = 20 to 21: documented)
  for (target in c(0.5, 0.6, 0.65, 0.7, 1)) {
    a <- dp_accuracy(mechanism = "iclp_ar", n = 200, epsilon = 1, tau = 1, grid = g, nsim = 10, target_l2 = target)
    expect_identical(as.numeric(a$n_needed), as.numeric(ns[which(v <= target)[1L]]), info = target)
  }
  # with psi given there are no steps: the plain bisection
  b <- dp_accuracy(mechanism = "iclp_ar", n = 200, epsilon = 1, tau = 1, grid = g, nsim = 10, target_l2 = 0.6,
                   psi = 0.01)
  expect_true(is.finite(b$n_needed))
})

test_that("dti_cca: the total error is monotone and epsilon_needed uses it", {
  d <- dti_cca[dti_cca$visit == 1, ]
  g <- seq(0, 1, length.out = 93)
  eps <- c(1e-6, 0.01, 0.1, 0.5, 1, 10, 222)
  a <- lapply(eps, function(e) dp_accuracy(mechanism = "iclp_qr", n = 141, epsilon = e, tau = 0.2, grid = g,
                                           nsim = 20))
  noise <- vapply(a, `[[`, 0, "expected_l2")
  total <- vapply(a, `[[`, 0, "total_l2")
  expect_true(any(diff(noise) > 0))                    # the noise alone is not monotone (the issue)
  expect_true(all(diff(total) <= 0))
  expect_equal(total[1], 0.2, tolerance = 1e-6)        # everything shrunk: the bias is all of tau
  s <- dp_accuracy(mechanism = "iclp_qr", n = 141, tau = 0.2, grid = g, target_l2 = 0.06,
                   solve_for = "epsilon", nsim = 20)
  expect_lte(s$total_l2, 0.06 * (1 + 1e-6))
  below <- dp_accuracy(mechanism = "iclp_qr", n = 141, epsilon = s$epsilon_needed * 0.99, tau = 0.2, grid = g,
                       nsim = 20)
  expect_gt(below$total_l2, 0.06)
  expect_gt(s$epsilon_needed, 0.1)                     # not the 1e-6 the noise alone would give
  expect_lt(s$epsilon_needed, 10)
  n_s <- dp_accuracy(mechanism = "iclp_qr", epsilon = 1, tau = 0.2, grid = g, target_l2 = 0.05,
                     solve_for = "n", nsim = 20)
  expect_lte(n_s$total_l2, 0.05 * (1 + 1e-6))
})

test_that("a release whose smoothing removes the signal warns (classed); print and glance show the bias", {
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old))
  d <- dti_cca[dti_cca$visit == 1, ]
  ok <- stats::complete.cases(d$cca)
  x <- curves(d$cca[ok, ], seq(0, 1, length.out = 93))
  expect_warning(r <- dp_mean(x, epsilon = 0.001, tau = 0.2, center = 0.5), class = "dpfda_warning_utility")
  expect_warning(dp_mean(x, epsilon = 0.001, tau = 0.2, center = 0.5), "removes most of the signal")
  out <- capture.output(print(r))
  expect_true(any(grepl("smoothing bias at most 0.2 ", out)))
  # a useful release does not warn
  expect_no_warning(r1 <- dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5))
  # FRL: keeping one component removes most of a smooth mean's room; keeping five does not warn
  expect_warning(dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, mechanism = "frl", select = "manual", M = 1),
                 "1 of 93 components", class = "dpfda_warning_utility")
  expect_no_warning(dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, mechanism = "frl", select = "manual", M = 5))
  gl <- glance(r1)
  a <- dp_accuracy(r1, nsim = 50)
  expect_equal(gl$bias_l2, a$bias_l2)
  expect_equal(gl$total_l2, a$total_l2)
  expect_true(any(grepl("total \\(noise and bias\\)", capture.output(print(a)))))
})

test_that("dp_accuracy(mechanism = \"bandwidth\") previews the n dp_bandwidth()'s test needs", {
  a <- dp_accuracy(mechanism = "bandwidth", n = 352, epsilon = 0.5, delta = 1e-6)
  expect_s3_class(a, "dpfda_accuracy_bandwidth")
  expect_false(a$enough)
  expect_gt(a$n_needed, 352)
  expect_output(print(a), "needs about n >=")
  # more budget, fewer points; more dimensions (the budget is split), more points
  a1 <- dp_accuracy(mechanism = "bandwidth", epsilon = 1, delta = 1e-6)
  expect_lt(a1$n_needed, a$n_needed)
  expect_gt(dp_accuracy(mechanism = "bandwidth", epsilon = 1, delta = 1e-6, d = 2)$n_needed, a1$n_needed)
  # the planning figure is met: Gaussian data of that size pass at least 90% of the time, a quarter of
  # it mostly fails
  old <- dp_reproducible(3)
  on.exit(dp_rng(old))
  pass <- function(n) mean(replicate(60, dp_bandwidth(rnorm(n), epsilon = 1, delta = 1e-6, fallback = 1)$private))
  expect_gte(pass(a1$n_needed), 0.9)
  expect_lt(pass(round(a1$n_needed / 4)), 0.5)
  # the release says it, and a failed test without fallback says what n it needs
  b <- dp_bandwidth(rnorm(500), epsilon = 1, delta = 1e-6, fallback = 1)
  expect_equal(b$n_needed, a1$n_needed)
  expect_output(print(b), "needs about n >=")
  expect_error(dp_bandwidth(rnorm(352), epsilon = 0.5, delta = 1e-6), "needs about n >= ", class = "dpfda_error_ptr")
  expect_error(dp_accuracy(mechanism = "bandwidth", delta = 1e-6), class = "dpfda_error")
  expect_error(dp_accuracy(mechanism = "bandwidth", epsilon = 1, delta = 0), class = "dpfda_error_privacy")
  # delta = NULL is pure DP (a caller's `delta = if (gaussian) 1e-5` for the pure mechanisms)
  expect_equal(dp_accuracy(mechanism = "iclp_qr", n = 93, epsilon = 1, tau = 1, grid = acc_grid, delta = NULL)$l2,
               dp_accuracy(mechanism = "iclp_qr", n = 93, epsilon = 1, tau = 1, grid = acc_grid)$l2)
  expect_error(dp_accuracy(mechanism = "gp", n = 93, epsilon = 1, tau = 1, grid = acc_grid, delta = NULL),
               class = "dpfda_error")
})

test_that("the explorer's numbers show the bias bound and the total of dp_accuracy()", {
  skip_if_not_installed("shiny")
  e <- asNamespace("dpfda")
  x <- curves(matrix(0, 40, length(acc_grid)), acc_grid)
  r <- with_seed_mode(1, dp_mean(x, epsilon = 1, tau = 1))
  acc <- e$explore_expected_error(r)
  a <- dp_accuracy(r, nsim = 50)
  expect_equal(acc$bias_l2, a$bias_l2)
  v <- list(release = r, accuracy = acc, expected = acc$rms, measured = 0.1, band = list(source = "x"),
            halfwidth = 0.2, n = 40, seconds = 0.1, cpu = 0.1)
  html <- as.character(e$explore_numbers_html(v, list()))
  expect_match(html, sprintf("data-key=\"bias\">%s<", format(a$bias_l2, digits = 4)), fixed = TRUE)
  expect_match(html, "data-key=\"total\"", fixed = TRUE)
})

test_that("dp_accuracy(mechanism = \"bandwidth\") solves for the epsilon the test needs on n points", {
  e <- dp_accuracy(mechanism = "bandwidth", n = 352, delta = 1e-6)
  expect_identical(e, dp_accuracy(mechanism = "bandwidth", n = 352, delta = 1e-6, epsilon = 3,
                                  solve_for = "epsilon"))   # (what is solved for needs no value)
  eps <- e$epsilon_needed
  expect_true(is.finite(eps) && eps > 0.5)   # 352 points are too few at 0.5 (above)
  # the two planning figures agree: n_needed at eps is n (up to the integer step), and a hair less
  # epsilon needs more points
  expect_lte(e$n_needed, 352)
  expect_gt(dpfda:::bandwidth_n_needed(eps * (1 - 1e-3), 1e-6), 351)
  expect_identical(dpfda:::bandwidth_epsilon_needed(50, 1e-6, d = 2), Inf)   # (too few points for any epsilon)
  for (n in c(200, 1000, 1e5)) {
    en <- dpfda:::bandwidth_epsilon_needed(n, 1e-6, d = 2)
    expect_lte(dpfda:::bandwidth_n_needed(en * (1 + 1e-9), 1e-6, d = 2), n)
    expect_gt(dpfda:::bandwidth_n_needed(en * (1 - 1e-3), 1e-6, d = 2), n)
  }
  expect_output(print(e), "epsilon needed for the test to pass on n = 352 points")
  # and it is met: Gaussian data of 352 points pass at that epsilon at least about 90% of the time
  old <- dp_reproducible(4)
  on.exit(dp_rng(old))
  expect_gte(mean(replicate(60, dp_bandwidth(rnorm(352), epsilon = eps, delta = 1e-6, fallback = 1)$private)),
             0.85)
  # the failed test's message says it too, rounded up (three digits)
  msg <- conditionMessage(expect_error(dp_bandwidth(rnorm(352), epsilon = 0.5, delta = 1e-6),
                                       "or about epsilon >= [0-9.]+ on these 352 points"))
  shown <- as.numeric(sub(".*epsilon >= ([0-9.]+) on these.*", "\\1", msg))
  expect_true(shown >= eps && shown <= eps * 1.01)
  expect_error(dp_accuracy(mechanism = "bandwidth", delta = 1e-6, solve_for = "epsilon"), "`n` is needed")
  expect_error(dp_accuracy(mechanism = "bandwidth", n = 8, delta = 1e-300), class = "dpfda_error")
})

test_that("a target with a release is refused with the settings call (it was silently ignored)", {
  g <- c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21)
  r <- with_seed_mode(1, dp_mean(curves(matrix(rnorm(50 * 12, 100, 20), 50), g), epsilon = 2, tau = 600))
  e <- expect_error(dp_accuracy(r, target_l2 = 100), class = "dpfda_error_unsupported")
  expect_identical(e$arg, "target_l2")
  cl <- regmatches(conditionMessage(e), regexpr("dp_accuracy\\(mechanism.*solve_for = \"n\"\\)", conditionMessage(e)))
  expect_match(cl, "n = 50, epsilon = 2, tau = 600", fixed = TRUE)
  a <- eval(parse(text = cl))   # the call it writes runs
  expect_true(is.finite(a$n_needed))
  expect_error(dp_accuracy(r, target_sup = 10), class = "dpfda_error_unsupported")
  expect_s3_class(dp_accuracy(r), "dpfda_accuracy")
})

test_that("solve_for = \"tau\": the largest bound whose total error meets the target, for every mechanism", {
  g <- seq(0, 1, length.out = 41)
  for (m in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
    a <- dp_accuracy(mechanism = m, n = 141, epsilon = 1, delta = 1e-5, grid = g, target_l2 = 0.05, solve_for = "tau",
                     nsim = 10)
    # the plan is at the solution, and its total is the target
    expect_equal(a$tau, a$tau_needed, info = m)
    expect_equal(a$total_l2, 0.05, tolerance = 1e-8, info = m)
    # a plan at a 1% larger bound misses the target, at a 1% smaller one meets it
    at <- function(f) dp_accuracy(mechanism = m, n = 141, epsilon = 1, delta = 1e-5, tau = f * a$tau_needed,
                                  grid = g, nsim = 10)$total_l2
    expect_gt(at(1.01), 0.05)
    expect_lt(at(0.99), 0.05)
  }
  # sup targets; the covariance (Hilbert-Schmidt error in tau^2); a given tau is only the start
  s <- dp_accuracy(mechanism = "frl", n = 141, epsilon = 1, tau = 0.2, grid = g, target_sup = 0.2, solve_for = "tau")
  expect_equal(s$total_sup, 0.2, tolerance = 1e-8)
  expect_output(print(s), "the largest tau for the target sup: .* not at tau = 0.2")
  g21 <- seq(0, 1, length.out = 21)   # (nsim = 10: the sup error of a covariance, not used here, is slow)
  cv <- dp_accuracy(mechanism = "cov", n = 141, epsilon = 1, grid = g21, target_l2 = 0.01, solve_for = "tau",
                    nsim = 10)
  expect_equal(dp_accuracy(mechanism = "cov", n = 141, epsilon = 1, tau = cv$tau_needed, grid = g21,
                           nsim = 10)$total_l2, 0.01, tolerance = 1e-8)
  expect_equal(dp_accuracy(mechanism = "cov", n = 141, epsilon = 1, tau = 2 * cv$tau_needed, grid = g21,
                           nsim = 10)$total_l2, 0.04, tolerance = 1e-8)   # (tau^2)
  # more epsilon affords a larger bound
  expect_gt(dp_accuracy(mechanism = "iclp_qr", n = 141, epsilon = 4, grid = g, target_l2 = 0.05,
                        solve_for = "tau")$tau_needed, dp_accuracy(mechanism = "iclp_qr", n = 141, epsilon = 1, grid = g,
                                                                   target_l2 = 0.05, solve_for = "tau")$tau_needed)
  # the comparison names the largest; a density has no tau
  cmp <- dp_accuracy(mechanism = c("iclp_qr", "frl"), n = 141, epsilon = 1, grid = g, target_l2 = 0.05,
                     solve_for = "tau")
  expect_equal(cmp$tau_needed, cmp$tau)
  expect_output(print(cmp), "largest bound tau for the target")
  expect_error(dp_accuracy(mechanism = "kde", n = 100, epsilon = 1, delta = 1e-5, bandwidth = 0.1, grid = g,
                           target_l2 = 0.1, solve_for = "tau"), "no bound tau", class = "dpfda_error_argument")
  # an error that is not proportional to tau (no mechanism's, today): the bisection finds the bound
  st_at <- function(t) list(tau = t, mechanism = "test")
  tn <- dpfda:::accuracy_tau_needed(st_at(1), function(s) s$tau^1.5 + 0.1 * s$tau, 2, st_at)
  expect_equal(tn^1.5 + 0.1 * tn, 2, tolerance = 1e-3)
})

test_that("GP regression is planned from its public inputs: the plan is the release's noise, and draws nothing", {
  # (mechanism "gp_regression" did not exist: the noise of a cloaking release was known only after it)
  skip_if_not_installed("MASS")
  mc <- MASS::mcycle
  g <- seq(5, 55, length.out = 26)
  k <- kernel_gaussian(8, variance = 2500)
  plan <- function(...) dp_accuracy(mc$times, mechanism = "gp_regression", newdata = g, kernel = k,
                                    noise_variance = 2500, y_bound = c(-150, 100), delta = 1e-5, ...)
  rel <- function(eps, ...) suppressWarnings(dp_gp_regression(mc$times, mc$accel, g, k, 2500, c(-150, 100),
                                                              epsilon = eps, delta = 1e-5, ...))
  a <- plan(epsilon = 1)
  b <- dp_accuracy(with_seed_mode(1, rel(1)))
  expect_equal(a$pointwise_sd, b$pointwise_sd, tolerance = 1e-10)
  expect_equal(a$expected_l2, b$expected_l2, tolerance = 1e-10)
  expect_identical(a$n, 133L)
  # a person-level plan: the unit's sensitivity, n counts units
  u <- rep(1:67, each = 2)[1:133]
  au <- plan(epsilon = 1, unit = u)
  expect_equal(au$expected_l2, dp_accuracy(with_seed_mode(1, rel(1, unit = u)))$expected_l2, tolerance = 1e-10)
  expect_equal(au$n, 67)
  # noise = "exact" (what a large epsilon needs: float noise refuses its tails) is planned as released
  # (it was not an option, and the float plan was 4% short of the exact release's error)
  ae <- plan(target_l2 = 30, noise = "exact")
  expect_equal(dp_accuracy(with_seed_mode(1, rel(ae$epsilon_needed, noise = "exact")))$expected_l2, 30,
               tolerance = 1e-3)
  expect_equal(plan(epsilon = 2, noise = "exact")$expected_l2,
               dp_accuracy(with_seed_mode(1, rel(2, noise = "exact")))$expected_l2, tolerance = 1e-8)
  expect_gt(au$expected_l2, 1.5 * a$expected_l2)
  # the epsilon for a target, checked on the release made at it
  p <- plan(target_l2 = 200)
  expect_gt(p$epsilon_needed, 1)
  expect_equal(dp_accuracy(with_seed_mode(1, rel(p$epsilon_needed)))$expected_l2, 200, tolerance = 1e-3)
  # no draw: the reproducible noise source is where it was
  r1 <- with_seed_mode(9, {plan(epsilon = 1); dp_mean(curves(matrix(0.5, 5, 26), g), epsilon = 1, tau = 1)})
  r2 <- with_seed_mode(9, dp_mean(curves(matrix(0.5, 5, 26), g), epsilon = 1, tau = 1))
  expect_identical(r1$values$values, r2$values$values)
  # what does not apply is refused
  expect_error(plan(target_l2 = 200, solve_for = "n"), regexp = "fix n", class = "dpfda_error")
  expect_error(plan(epsilon = 1, tau = 3), regexp = "`tau` is not a setting", class = "dpfda_error")
  expect_error(dp_accuracy(mc$times, mechanism = "gp_regression", newdata = g, kernel = k, noise_variance = 2500,
                                 y_bound = "auto", epsilon = 1, delta = 1e-5), regexp = "chosen from the outputs", class = "dpfda_error")
  expect_error(dp_accuracy(mechanism = "gp_regression", newdata = g, kernel = k, noise_variance = 2500,
                                 y_bound = c(-150, 100), epsilon = 1, delta = 1e-5), regexp = "public inputs", class = "dpfda_error")
  expect_error(plan(epsilon = 1, n = 500), regexp = "which `x` fixes", class = "dpfda_error")
  # the outputs passed by position (as in dp_gp_regression(x, y, ...)) land in `n`: one message, which
  # shows none of them (it was one copy per output, each printing its value)
  e <- expect_error(dp_accuracy(mc$times, mc$accel, mechanism = "bin_regression", bins = 6, y_bound = c(-150, 100),
                                epsilon = 1, domain = c(0, 60)), class = "dpfda_error_argument")
  expect_length(conditionMessage(e), 1L)
  expect_match(conditionMessage(e), "leave it out")
  expect_false(grepl(format(mc$accel[2]), conditionMessage(e), fixed = TRUE))
  expect_length(conditionMessage(expect_error(plan(epsilon = 1, n = c(1.5, 2)), class = "dpfda_error_argument")), 1L)
})

test_that("the bin regression is planned from its public inputs (counts of the bins), with a unit too", {
  aq <- stats::na.omit(datasets::airquality)
  plan <- function(...) dp_accuracy(aq$Temp, mechanism = "bin_regression", bins = 8, domain = c(50, 100),
                                    y_bound = c(0, 170), ...)
  rel <- function(eps, ...) dp_bin_regression(Ozone ~ Temp, data = aq, bins = 8, y_bound = c(0, 170), epsilon = eps,
                                              domain = c(50, 100), ...)
  a <- plan(epsilon = 1)
  b <- dp_accuracy(with_seed_mode(1, rel(1)))
  expect_equal(a$pointwise_sd, b$pointwise_sd, tolerance = 1e-12)
  expect_equal(a$n, 111)
  p <- plan(target_l2 = 50)
  expect_equal(dp_accuracy(with_seed_mode(1, rel(p$epsilon_needed)))$expected_l2, 50, tolerance = 1e-3)
  cw <- datasets::ChickWeight
  au <- dp_accuracy(cw$Time, mechanism = "bin_regression", bins = 3, domain = c(0, 21), y_bound = c(0, 400),
                    epsilon = 1, unit = cw$Chick)
  ru <- with_seed_mode(1, dp_bin_regression(weight ~ Time, data = cw, bins = 3, y_bound = c(0, 400), epsilon = 1,
                                            domain = c(0, 21), unit = Chick))
  expect_equal(au$expected_l2, dp_accuracy(ru)$expected_l2, tolerance = 1e-12)
  expect_equal(au$n, 50)
  expect_error(plan(epsilon = 1, kernel = kernel_gaussian(1), lambda = 2), "`lambda` is not an option", class = "dpfda_error")
  expect_error(dp_accuracy(aq$Temp, mechanism = "bin_regression", bins = 8, y_bound = c(0, 170), epsilon = 1),
               "`domain` is needed", class = "dpfda_error")
})

test_that("the utility warning of a covariance of uncentred curves advises a public centre", {
  skip_if_not_installed("fda")
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old))
  gr <- fda::growth
  cv <- curves(t(cbind(gr$hgtm, gr$hgtf)), gr$age)
  # heights of 93 children: a bound on each curve's norm is the size of the heights, and the noise
  # of the covariance exceeds half of tau^2
  w <- expect_warning(with_seed_mode(3, dp_cov(cv, epsilon = 2, tau = 700)), class = "dpfda_warning_utility")
  expect_match(conditionMessage(w), "tau^2, the bound of the covariance", fixed = TRUE)
  expect_match(conditionMessage(w), "Lower the bound tau (centred on a public reference, `center`, curves need it",
               fixed = TRUE)
})

test_that("dp_accuracy(mechanism = \"kde\", kde_mechanism = \"iclp\"/\"frl\") plans the pure-DP densities exactly", {
  # their noise follows from public settings alone: the plan equals dp_accuracy() of the release
  x <- faithful$eruptions
  for (km in c("iclp", "frl")) {
    r <- with_seed_mode(1, suppressWarnings(dp_kde(x, bandwidth = 0.3, epsilon = 0.7, mechanism = km, domain = c(1, 6))))
    seed_before <- .Random.seed
    mode_before <- dp_rng()
    a <- dp_accuracy(mechanism = "kde", n = length(x), epsilon = 0.7, bandwidth = 0.3, domain = c(1, 6), kde_mechanism = km)
    expect_identical(.Random.seed, seed_before)     # the caller's noise source is not advanced
    expect_identical(dp_rng(), mode_before)
    ar <- dp_accuracy(r)
    expect_equal(a$pointwise_sd, ar$pointwise_sd, tolerance = 1e-12)
    expect_equal(a$expected_l2, ar$expected_l2, tolerance = 1e-12)
    expect_identical(a$mechanism, sprintf("kde (%s)", km))
    # the epsilon a target needs: the noise of these mechanisms is proportional to 1 / (n epsilon)
    s <- dp_accuracy(mechanism = "kde", n = length(x), epsilon = 0.7, bandwidth = 0.3, domain = c(1, 6),
                     kde_mechanism = km, target_l2 = ar$expected_l2 / 2, solve_for = "epsilon")
    expect_equal(s$epsilon_needed, 1.4, tolerance = 1e-3)
  }
  # in the plane, with a bandwidth per axis and options of the mechanism
  q <- quakes[, c("long", "lat")]
  dom <- list(long = c(160, 190), lat = c(-40, -10))
  r2 <- with_seed_mode(2, suppressWarnings(dp_kde(q, epsilon = 1, bandwidth = c(1.5, 1), domain = dom,
                                                  mechanism = "iclp", J = 300)))
  a2 <- dp_accuracy(mechanism = "kde", n = 1000, epsilon = 1, bandwidth = c(1.5, 1), domain = dom,
                    kde_mechanism = "iclp", J = 300)
  expect_equal(a2$expected_l2, dp_accuracy(r2)$expected_l2, tolerance = 1e-12)
  # refusals, by name
  expect_error(dp_accuracy(mechanism = "kde", n = 100, epsilon = 1, domain = c(0, 1), kde_mechanism = "iclp"),
               "bandwidth", class = "dpfda_error_argument")
  expect_error(dp_accuracy(mechanism = "kde", n = 100, epsilon = 1, domain = c(0, 1), bandwidth = 0.1,
                           kde_mechanism = "iclp", calibration = "hall"), "calibration", class = "dpfda_error_argument")
  # "bernstein" and "sobolev" are planned the same way (they were refused): the plan is the release's noise
  x <- datasets::faithful$eruptions
  g <- seq(1, 6, length.out = 51)
  for (km in c("bernstein", "sobolev")) {
    dl <- if (km == "sobolev") 1e-5 else 0
    a <- dp_accuracy(mechanism = "kde", kde_mechanism = km, n = length(x), epsilon = 1, delta = dl, grid = g,
                     bandwidth = 0.3, domain = c(1, 6))
    r <- with_seed_mode(4, suppressWarnings(dp_kde(x, g, 0.3, epsilon = 1, delta = dl, mechanism = km,
                                                   domain = c(1, 6))))
    expect_equal(a$expected_l2, dp_accuracy(r)$expected_l2, tolerance = 1e-12, info = km)
    expect_identical(a$mechanism, sprintf("kde (%s)", km))
  }
  expect_equal(dp_accuracy(mechanism = "kde", kde_mechanism = "bernstein", n = 272, epsilon = 1, grid = g,
                           bandwidth = 0.3, domain = c(1, 6), bernstein_k = 10)$expected_l2,
               dp_accuracy(with_seed_mode(4, suppressWarnings(dp_kde(x, g, 0.3, epsilon = 1, mechanism = "bernstein",
                                                                     domain = c(1, 6), k = 10))))$expected_l2,
               tolerance = 1e-12)
  expect_error(dp_accuracy(mechanism = "kde", n = 100, epsilon = 1, domain = c(0, 1), bandwidth = 0.1,
                           kde_mechanism = "sobolev"), "delta", class = "dpfda_error_privacy")
  expect_error(dp_accuracy(mechanism = "kde", n = 100, epsilon = 1, domain = c(0, 1), bandwidth = 0.1,
                           kde_mechanism = "bernstein", J = 3), "`J` is not an option", class = "dpfda_error_argument")
  expect_error(dp_accuracy(mechanism = "kde", n = 100, epsilon = 1, domain = c(0, 1), bandwidth = 0.1),
               "kde_mechanism = \"iclp\"", class = "dpfda_error_privacy")
})

test_that("solve_for with the value also given: the plan is at the solution for n and epsilon, as for tau", {
  # (the figures were at the given n = 39, total 32.6 against a target of 1, under "n needed ... 43,226")
  g <- seq(1, 18, length.out = 31)
  a <- dp_accuracy("iclp_qr", n = 39, epsilon = 1, tau = 60, grid = g, target_l2 = 1, solve_for = "n")
  expect_identical(a$n, a$n_needed)
  expect_identical(a$n_given, 39)
  expect_lte(a$total_l2, 1 + 1e-6)
  expect_equal(a$total_l2, 1, tolerance = 0.05)   # (the smallest n: the target is met, barely)
  expect_output(print(a), "(the figures above are at it, not at n = 39)", fixed = TRUE)
  b <- dp_accuracy("iclp_qr", n = 39, epsilon = 1, tau = 60, grid = g, target_l2 = 30, solve_for = "epsilon")
  expect_identical(b$epsilon, b$epsilon_needed)
  expect_identical(b$epsilon_given, 1)
  expect_equal(b$total_l2, 30, tolerance = 0.01)
  expect_output(print(b), "not at epsilon = 1)", fixed = TRUE)
  # given and already the solution: no "not at"; no value given: no "not at" either
  c0 <- dp_accuracy("iclp_qr", n = 39, epsilon = b$epsilon_needed, tau = 60, grid = g, target_l2 = 30,
                    solve_for = "epsilon")
  expect_null(c0$epsilon_given)
  d0 <- dp_accuracy("iclp_qr", n = 39, tau = 60, grid = g, target_l2 = 30, solve_for = "epsilon")
  expect_null(d0$epsilon_given)
  expect_equal(d0$total_l2, b$total_l2)
  expect_false(any(grepl("not at", utils::capture.output(print(d0)))))
})

test_that("planning a release with inference = TRUE: the refusal says which epsilon to plan with, and that plan is the release's", {
  g93 <- seq(0, 1, length.out = 93)
  e <- expect_error(dp_accuracy("iclp_qr", n = 142, epsilon = 1, tau = 0.2, grid = g93, inference = TRUE),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "epsilon * (1 - inference_share), 0.8 epsilon by default", fixed = TRUE)
  expect_error(dp_accuracy("iclp_qr", n = 142, epsilon = 1, tau = 0.2, grid = g93, incomplete = "drop"),
               "epsilon * (1 - count_share)", fixed = TRUE)
  r2 <- with_seed_mode(3, dp_mean(dti_cca[dti_cca$visit == 1 & stats::complete.cases(dti_cca$cca), ], grid = g93,
                                  epsilon = 1, tau = 0.2, center = 0.5, inference = TRUE))
  p <- dp_accuracy("iclp_qr", n = r2$n, epsilon = 0.8, tau = 0.2, grid = g93)
  expect_equal(glance(r2)$expected_l2, p$expected_l2, tolerance = 1e-8)
})

test_that("a target with a density or regression release is refused with advice that fits it", {
  x <- faithful$eruptions
  r <- with_seed_mode(1, dp_kde(x, seq(1, 6, length.out = 51), 0.3, 1, 1e-6, domain = c(1, 6)))
  e <- expect_error(dp_accuracy(r, target_l2 = 0.05), class = "dpfda_error_unsupported")
  cl <- regmatches(conditionMessage(e), regexpr("dp_accuracy\\(mechanism.*solve_for = \"n\"\\)", conditionMessage(e)))
  a <- eval(parse(text = cl))   # the call it writes runs
  expect_true(is.finite(a$n_needed))
  g <- suppressWarnings(with_seed_mode(1, dp_gp_regression(cars$speed, cars$dist, 4:25,
                                                           kernel_gaussian(5, variance = 400), 225, c(0, 130),
                                                           epsilon = 1, delta = 1e-5)))
  e2 <- expect_error(dp_accuracy(g, target_l2 = 100), class = "dpfda_error_unsupported")
  expect_match(conditionMessage(e2), "dp_accuracy(x, mechanism = \"gp_regression\"", fixed = TRUE)
  expect_false(grepl("gp-regression-cloaking\", n =", conditionMessage(e2), fixed = TRUE))
})

test_that("an unreachable regression target gives a regression's levers, not psi, eta or solve_for = \"n\"", {
  x <- seq(0, 60, length.out = 40)
  g <- seq(0, 60, length.out = 12)
  a <- dp_accuracy(x, mechanism = "gp_regression", delta = 1e-5, kernel = kernel_gaussian(5), grid = g,
                   noise_variance = 400, y_bound = c(-150, 100), target_sup = 1e-3, solve_for = "epsilon",
                   nsim = 100)
  expect_identical(a$epsilon_needed, Inf)
  out <- paste(capture.output(print(a)), collapse = " ")
  expect_match(out, "the inputs `x` fix n", fixed = TRUE)
  expect_match(out, "larger noise_variance", fixed = TRUE)
  expect_false(grepl("\\bpsi\\b|\\beta\\b|solve_for", out, perl = TRUE))
  # the advice holds: a larger noise variance lowers the planned noise
  sup <- function(v) dp_accuracy(x, mechanism = "gp_regression", epsilon = 1, delta = 1e-5,
                                 kernel = kernel_gaussian(5), grid = g, noise_variance = v,
                                 y_bound = c(-150, 100), nsim = 100)$expected_sup
  expect_lt(sup(1600), sup(400))
})

test_that("solving at the default psi says that a fixed psi may need much less", {
  g <- seq(0, 1, length.out = 101)
  a <- dp_accuracy(mechanism = "iclp_qr", n = 500, tau = 1, grid = g, target_l2 = 0.05, solve_for = "epsilon",
                   nsim = 200)
  expect_match(paste(capture.output(print(a)), collapse = "\n"), "at the default psi, which falls with n and epsilon",
               fixed = TRUE)
  b <- dp_accuracy(mechanism = "iclp_qr", n = 500, tau = 1, grid = g, target_l2 = 0.05, solve_for = "epsilon",
                   psi = 3e-4, eta = 1.25, nsim = 200)
  expect_false(grepl("default psi", paste(capture.output(print(b)), collapse = "\n"), fixed = TRUE))
  expect_lt(b$epsilon_needed, a$epsilon_needed / 5)   # (the advice holds: 11 against 274)
})

test_that("a solved epsilon above 10 is flagged in the print, one below is not", {
  g <- seq(0, 1, length.out = 101)
  hi <- dp_accuracy(mechanism = "iclp_qr", n = 93, tau = 1, grid = g, target_l2 = 0.1, solve_for = "epsilon")
  expect_gt(hi$epsilon_needed, 10)
  expect_output(print(hi), "an epsilon above 10 protects little", fixed = TRUE)
  lo <- dp_accuracy(mechanism = "iclp_qr", n = 93, tau = 1, grid = g, target_l2 = 0.5, solve_for = "epsilon")
  expect_lt(lo$epsilon_needed, 10)
  expect_false(any(grepl("above 10", capture.output(print(lo)), fixed = TRUE)))
})
