# Empirical privacy audit (R/audit.R): the bound stays below epsilon for
# correct mechanisms and exceeds it when the noise is 0.7 times too small.
# (The full audit of every mechanism runs in `make demo`, tools/reproduce/audit.R.)
# Audits with `digits` replay most runs (audit_replay_runs); the tests at the
# end check that the replay reproduces the runs made end to end.

# truth + factor * (release at epsilon - truth), the truth from the same mechanism at epsilon = 1e9
# (the noiseless limit: no privacy claimed, so the float-tail guard is off there, ?float_tails)
shrunk <- function(make, epsilon, factor = 0.7) {
  cache <- list()
  function(d) {
    key <- paste(format(d, digits = 17), collapse = ",")
    val <- function(r) if (inherits(r, "dpfda_release")) as.vector(r$values$values) else r
    if (is.null(cache[[key]])) cache[[key]] <<- val(dpfda:::without_float_tail_check(make(1e9)(d)))
    t <- cache[[key]]
    t + factor * (val(make(epsilon)(d)) - t)
  }
}

test_that("the Clopper-Pearson bound is computed as documented", {
  b <- dpfda:::audit_bound(600, 200, 1000, 0, 0.025)
  expect_equal(b, log(qbeta(0.025, 600, 401) / qbeta(0.975, 201, 800)))
  b2 <- dpfda:::audit_bound(600, 200, 1000, 0.1, 0.025)
  expect_equal(b2, log((qbeta(0.025, 600, 401) - 0.1) / qbeta(0.975, 201, 800)))
  expect_equal(dpfda:::audit_bound(0, 10, 1000, 0, 0.025), -Inf)
})

test_that("the event is the first best of all candidates (the loop over thresholds, sides, directions)", {
  brute <- function(a, b, thresholds, delta, alpha) {
    cand <- unique(stats::quantile(c(a, b), probs = seq(0, 1, length.out = thresholds + 2L), names = FALSE,
                                   type = 1))
    cnt <- function(p, t, side) if (side == ">") sum(p > t) else sum(p <= t)
    best <- list(value = -Inf)
    for (t in cand) for (side in c(">", "<=")) for (dir in c("data>neighbour", "neighbour>data")) {
      x <- if (dir == "data>neighbour") a else b
      y <- if (dir == "data>neighbour") b else a
      v <- dpfda:::audit_bound(cnt(x, t, side), cnt(y, t, side), length(a), delta, alpha / (4 * length(cand)))
      if (v > best$value) best <- list(value = v, threshold = t, side = side, direction = dir)
    }
    if (!is.finite(best$value)) best <- list(value = 0, threshold = cand[1L], side = ">", direction = "data>neighbour")
    best
  }
  set.seed(3)
  for (case in 1:6) {
    a <- round(rnorm(500, if (case %% 2) 0.5 else 0), if (case > 3) 1 else 8)   # ties when rounded
    b <- round(rnorm(500), if (case > 3) 1 else 8)
    if (case == 6) b <- a                                                   # nothing to find
    for (delta in c(0, 0.05)) {
      expect_equal(dpfda:::audit_select_event(a, b, 16, delta, 0.025), brute(a, b, 16, delta, 0.025))
    }
  }
})

test_that("scalar Laplace: correct noise passes, 0.7x noise is refuted", {
  good <- function(d) sum(d) + rlaplace(1, 1)
  bad <- function(d) sum(d) + rlaplace(1, 0.7)
  a <- dp_audit(good, c(1, 0, 1), c(1, 0, 0), n = 20000, epsilon = 1, seed = 5)
  expect_lt(a$epsilon_lower, 1)
  expect_gt(a$epsilon_lower, 0.8)      # and the audit is not vacuous
  expect_true(a$passed)
  z <- dp_audit(bad, c(1, 0, 1), c(1, 0, 0), n = 20000, epsilon = 1, seed = 6)
  expect_gt(z$epsilon_lower, 1)
  expect_false(z$passed)
  # the same data set twice: nothing to find
  same <- dp_audit(good, c(1, 0, 1), c(1, 0, 1), n = 5000, seed = 7)
  expect_lt(same$epsilon_lower, 0.15)
  # a deterministic (non-private) mechanism is caught with a large bound
  det <- dp_audit(function(d) sum(d), c(1, 0, 1), c(1, 0, 0), n = 1000, epsilon = 1)
  expect_gt(det$epsilon_lower, 4)   # the most 500 runs can show: log(1 / qbeta(0.975, 1, 500))
  expect_output(print(z), "REFUTED")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(a))
})

test_that("dp_bernstein (pure DP) at worst-case neighbours: passes; 0.7x noise refuted", {
  make <- function(e) function(d) dp_bernstein(d, 1, e, k = 2)
  a <- dp_audit(make(1), c(0, 0, 0), c(1, 1, 1), n = 20000, epsilon = 1, projection = "laplace",
                seed = 8, digits = 10)
  expect_lt(a$epsilon_lower, 1)
  z <- dp_audit(shrunk(make, 1), c(0, 0, 0), c(1, 1, 1), n = 20000, epsilon = 1, projection = "laplace",
                seed = 9, digits = 10)
  expect_gt(z$epsilon_lower, 1)
})

test_that("Gaussian mechanism audited at its (epsilon, delta): passes; 0.7x noise refuted", {
  x <- seq(0, 1, length.out = 6)
  K <- kernel_gaussian(0.3)
  f1 <- as.vector(kernel_matrix(K, x, 0.4))   # RKHS distance 1 from 0
  make <- function(e) function(d) dp_gp_release(d, x, K, sensitivity = 1, epsilon = e, delta = 0.1)
  # the worst-case projection: the likelihood-ratio direction K^-1 (f1 - f0) = e_3 here
  w <- solve(kernel_matrix(K, x), f1)
  proj <- function(v) sum(w * v)
  a <- dp_audit(make(2), rep(0, 6), f1, n = 2000, epsilon = 2, delta = 0.1, projection = proj,
                seed = 10, digits = 10)
  expect_lt(a$epsilon_lower, 2)
  z <- dp_audit(shrunk(make, 2), rep(0, 6), f1, n = 2000, epsilon = 2, delta = 0.1, projection = proj,
                seed = 11, digits = 10)
  expect_gt(z$epsilon_lower, 2)
  # without subtracting delta the same runs would look worse: delta is accounted for
  z0 <- dp_audit(shrunk(make, 2), rep(0, 6), f1, n = 2000, epsilon = 2, delta = 0, projection = proj,
                 seed = 11, digits = 10)
  expect_gt(z0$epsilon_lower, z$epsilon_lower)
})

test_that("audits are reproducible and leave the caller's noise source and seed alone", {
  old <- dp_rng("secure")
  on.exit(dp_rng(old), add = TRUE)
  set.seed(42)
  before <- .Random.seed
  m <- function(d) d + rlaplace(1, 1)
  a1 <- dp_audit(m, 0, 1, n = 500, seed = 3)
  a2 <- dp_audit(m, 0, 1, n = 500, seed = 3)
  expect_identical(a1$projections, a2$projections)
  expect_identical(dp_rng(), "secure")
  expect_identical(.Random.seed, before)
})

test_that("replayed runs are the runs the mechanism makes end to end (same seed, same outputs)", {
  x <- seq(0, 1, length.out = 6)
  K <- kernel_gaussian(0.3)
  f1 <- as.vector(kernel_matrix(K, x, 0.4))
  cases <- list(
    list(function(d) sum(d) + rlaplace(1, 1), c(1, 0, 1), c(1, 0, 0), "identity", "laplace", 1L),
    list(function(d) dp_bernstein(d, 1, 1, k = 2), c(0, 0, 0), c(1, 1, 1), "laplace", "laplace", 3L),
    list(function(d) dp_gp_release(d, x, K, 1, 2, 0.1), rep(0, 6), f1, "lda", "normal", 6L))
  for (cs in cases) {
    fast <- dp_audit(cs[[1]], cs[[2]], cs[[3]], n = 1000, projection = cs[[4]], seed = 21, digits = 10)
    slow <- dp_audit(cs[[1]], cs[[2]], cs[[3]], n = 1000, projection = cs[[4]], seed = 21, digits = 10,
                     genuine = 1)
    rp <- fast$replay$data
    expect_identical(rp$family, cs[[5]])
    expect_identical(rp$variates, cs[[6]])
    expect_gt(rp$replayed, 800)
    expect_identical(rp$genuine + rp$replayed, 1000L)
    expect_true(is.na(slow$replay$data$family))
    # the same outputs (to 10 digits), so the same event, counts and bound
    expect_equal(fast$projections, slow$projections, tolerance = 1e-9)
    expect_equal(fast[c("event", "counts", "epsilon_lower")], slow[c("event", "counts", "epsilon_lower")],
                 tolerance = 1e-9)
  }
})

test_that("the replay refutes under-noised mechanisms as the end-to-end runs do", {
  bad <- function(d) sum(d) + rlaplace(1, 0.7)
  z <- dp_audit(bad, c(1, 0, 1), c(1, 0, 0), n = 20000, epsilon = 1, seed = 6, digits = 10)
  expect_gt(z$replay$data$replayed, 15000)
  expect_gt(z$epsilon_lower, 1)
  # the release claims the calibrated noise scale but adds 0.7 times it: the replay is fitted to
  # what the mechanism does, not to what it claims
  x <- seq(0, 1, length.out = 6)
  K <- kernel_gaussian(0.3)
  f1 <- as.vector(kernel_matrix(K, x, 0.4))
  liar <- function(d) {
    r <- dp_gp_release(d, x, K, 1, 2, 0.1)
    r$values$values <- matrix(d, 1L) + 0.7 * (r$values$values - matrix(d, 1L))
    r
  }
  w <- solve(kernel_matrix(K, x), f1)
  zz <- dp_audit(liar, rep(0, 6), f1, n = 2000, epsilon = 2, delta = 0.1, projection = function(v) sum(w * v),
                 seed = 11, digits = 10)
  expect_identical(zz$replay$data$family, "normal")
  expect_gt(zz$epsilon_lower, 2)
})

test_that("mechanisms that are not affine in their noise are run end to end", {
  # a clip that bites in about 5% of the runs; a varying number of draws; an exponential mechanism
  clip <- function(d) { v <- d + rlaplace(1, 1); if (abs(v) > 3) 0 else v }
  vary <- function(d) d + sum(rlaplace(1L + (stats::runif(1) < 0.5), 1))
  sel <- function(d) dp_select(d, 1, 1)
  for (m in list(clip, vary, sel)) {
    data <- if (identical(m, sel)) c(0, 1, 1) else 0
    nb <- if (identical(m, sel)) c(1, 0, 0) else 1
    a <- dp_audit(m, data, nb, n = 2000, seed = 4, digits = 10, projection = "identity")
    b <- dp_audit(m, data, nb, n = 2000, seed = 4, digits = 10, projection = "identity", genuine = 1)
    expect_true(is.na(a$replay$data$family))
    expect_identical(a$replay$data$genuine, 2000L)
    expect_identical(a$projections, b$projections)
  }
  # a deterministic mechanism draws nothing: "replayed" as its constant output
  det <- dp_audit(function(d) sum(d), c(1, 0, 1), c(1, 0, 0), n = 1000, digits = 10)
  expect_identical(det$replay$data$family, "none")
  expect_gt(det$epsilon_lower, 4)
})

test_that("a warning of the user's mechanism comes back classed, naming the data set", {
  # (the fuzzer: a factor as `data` made `+` warn from the mechanism, a warning of no dpfda class)
  warny <- function(d) {
    if (length(d) > 2L) warning("three entries")
    sum(d) + rlaplace(1, 1)
  }
  got <- list()
  withCallingHandlers(dp_audit(warny, c(1, 0, 1), c(1, 0), n = 200, seed = 3), warning = function(w) {
    got[[length(got) + 1L]] <<- w
    invokeRestart("muffleWarning")
  })
  # once, with its count, not once per run
  expect_length(got, 1L)
  expect_s3_class(got[[1L]], "dpfda_warning_audit")
  expect_match(conditionMessage(got[[1L]]), "`mechanism` warned on `data` \\(200 times\\): three entries")
})

test_that("dp_audit(): a projection function gets one output as a vector, and its errors are classed", {
  g21 <- seq(0, 1, length.out = 21)
  mech <- function(d) dp_kde(d, g21, 0.05, epsilon = 1, mechanism = "iclp", domain = c(0, 1))
  x0 <- rep(0.2, 100)
  x1 <- c(rep(0.2, 99), 0.9)
  e <- expect_error(dp_audit(mech, x0, x1, n = 100, projection = function(r) sum(r$values$values)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "numeric vector of 21 values, not the release object", fixed = TRUE)
  a <- dp_audit(mech, x0, x1, n = 200, projection = function(v) v[17] - v[5])
  expect_true(is.finite(a$epsilon_lower))
})

test_that("an audit charges no budget, and a mechanism's failure keeps its class", {
  # (the first runs of an audit of a release with `budget =` spent the budget, and the audit then
  # failed on the refusal as a plain argument error)
  set.seed(4)
  x <- runif(40)
  nb <- replace(x, 1, 1)
  b <- privacy_budget(epsilon = 1, composition = "basic")
  mech <- function(d) dp_kde(d, seq(0, 1, length.out = 11), 0.2, epsilon = 0.5, mechanism = "iclp",
                             domain = c(0, 1), budget = b)
  a <- dp_audit(mech, x, nb, n = 200)
  expect_s3_class(a, "dpfda_audit")
  expect_identical(nrow(b$ledger), 0L)
  expect_equal(budget_spent(b)$epsilon, 0)
  # outside an audit the same function charges as before
  r <- with_seed_mode(2, mech(x))
  expect_equal(budget_spent(b)$epsilon, 0.5)
  # a spent budget's refusal outside, and a failure inside keeps the mechanism's class
  b2 <- privacy_budget(epsilon = 0.4, composition = "basic")
  expect_error(dp_kde(x, seq(0, 1, length.out = 11), 0.2, epsilon = 0.5, mechanism = "iclp", domain = c(0, 1),
                      budget = b2), class = "dpfda_error_budget")
  e <- expect_error(dp_audit(function(d) dp_kde(d, seq(0, 1, length.out = 11), 0.2, epsilon = 0.5,
                                                mechanism = "iclp", domain = c(0, 1), budget = 3),
                             x, nb, n = 200), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "failed on `data`", fixed = TRUE)
  e <- expect_error(dp_audit(function(d) stop(structure(class = c("dpfda_error_data", "dpfda_error", "error",
                                                                     "condition"),
                                                                 list(message = "bad data", call = NULL))),
                             x, nb, n = 200), class = "dpfda_error_data")
  expect_s3_class(e, "dpfda_error_argument")
})

test_that("the package's own warnings come back once per data set with their count and class", {
  # (2000 runs: 2000 times "the release is mostly noise")
  old <- options(dpfda.utility_warning = TRUE)   # (off in the suite)
  on.exit(options(old))
  d0 <- data.frame(x = seq(0.05, 0.95, length.out = 40), y = 0)
  d1 <- d0
  d1$y[1] <- 1
  m <- function(d) dp_bin_regression(d$x, d$y, bins = 4, y_bound = c(-1, 1), epsilon = 0.05, domain = c(0, 1))
  got <- list()
  withCallingHandlers(dp_audit(m, d0, d1, n = 200, epsilon = 0.05, seed = 2), warning = function(w) {
    got[[length(got) + 1L]] <<- w
    invokeRestart("muffleWarning")
  })
  expect_lte(length(got), 4L)
  expect_true(all(vapply(got, inherits, NA, "dpfda_warning")))
  expect_true(any(vapply(got, function(w) grepl("200 times, in the audit's runs on `data`", conditionMessage(w),
                                                 fixed = TRUE), NA)))
})
