# tau = "auto" in dp_mean() (R/auto-bound.R, issue 30): a share of epsilon
# buys a private high quantile of the norms on a public log grid; the whole
# call charges exactly epsilon; every source gives the same release.

auto_data <- function(n = 300, m = 21, seed = 1) {
  set.seed(seed)
  t <- seq(0, 1, length.out = m)
  X <- outer(rep(1, n), 0.3 * sin(2 * pi * t)) + outer(rnorm(n, 0, 0.3), cos(pi * t)) +
    outer(rnorm(n, 0, 0.15), cos(2 * pi * t))
  list(t = t, X = X, cu = curves(X, t))
}

test_that("the binned summary gives exactly the clipped sums at every candidate (l2, sup, centre, units)", {
  d <- auto_data(60)
  ab <- dpfda:::auto_bound_options(list(bound_range = c(0.01, 10)), "l2", 1)
  w <- dpfda:::quadrature_weights(d$t)
  cen <- 0.1 * d$t
  units <- rep(1:20, each = 3)
  for (clip in c("l2", "sup")) for (u in list(NULL, units)) {
    cu <- d$cu
    cu$values <- cu$values - rep(cen, each = nrow(cu$values))
    src <- list(curves = cu, grid = d$t, unit = u)
    sb <- dpfda:::summarise_mean_bins(src, ab$candidates, clip, w, cen, "error")
    expect_equal(sum(sb$norm_counts), if (is.null(u)) 60 else 20)
    for (k in c(1, 2, 9, 16)) {
      s <- dpfda:::mean_bins_at(sb, k)
      ref <- summarise_mean(d$cu, tau = ab$candidates[k], clip = clip, weights = w, center = cen, unit = u)
      expect_equal(s$sums, ref$sums, tolerance = 1e-12)
      expect_equal(s$n, ref$n)
    }
  }
})

test_that("a long data frame by the rule of tables gives the binned summary of its curves", {
  d <- auto_data(40, m = 11)
  long <- as.data.frame(d$cu)
  long$person <- (as.integer(factor(long$id)) + 1L) %/% 2L
  ab <- dpfda:::auto_bound_options(list(), "l2", 1)
  w <- dpfda:::quadrature_weights(d$t)
  per_curve <- long$person[!duplicated(long$id)]
  for (clip in c("l2", "sup")) for (u in list(NULL, "person")) {
    a <- dpfda:::summarise_mean_bins(list(curves = d$cu, grid = d$t, unit = if (!is.null(u)) per_curve),
                                     ab$candidates, clip, w, NULL, "error")
    b <- dpfda:::summarise_mean_bins(list(data = long, cols = list(unit = u), grid = d$t), ab$candidates, clip, w,
                                     NULL, "error")
    expect_equal(b$norm_counts, a$norm_counts)
    expect_equal(b$sums, a$sums, tolerance = 1e-12)
    expect_equal(b$n, a$n)
  }
})

test_that("every mechanism charges exactly epsilon: share for the bound, the rest (and delta) for the release", {
  d <- auto_data(400)
  for (mech in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
    b <- privacy_budget(10, delta = 1e-2, composition = "basic")
    old <- dp_reproducible(11)
    r <- dp_mean(d$cu, epsilon = 0.8, tau = "auto", mechanism = mech, delta = if (mech == "gp") 1e-3,
                 budget = b, bound_share = 0.2)
    dp_rng(old)
    expect_equal(r$epsilon, 0.8, tolerance = 1e-15)
    expect_equal(r$tau_auto$epsilon, 0.16, tolerance = 1e-15)
    expect_equal(r$epsilon_release, 0.64, tolerance = 1e-15)
    expect_equal(budget_spent(b)$epsilon, 0.8, tolerance = 1e-15)
    expect_equal(budget_spent(b)$delta, if (mech == "gp") 1e-3 else 0)
    expect_true(r$tau %in% dpfda:::auto_bound_candidates(r$tau_auto$range))
    # the release is calibrated exactly as a release with that tau and the rest of epsilon
    ref <- dp_mean(d$cu, epsilon = 0.64, tau = r$tau, mechanism = mech, delta = if (mech == "gp") 1e-3)
    expect_equal(r$sensitivity, ref$sensitivity, tolerance = 1e-12)
    expect_equal(r$noise_scale, ref$noise_scale, tolerance = 1e-12)
    expect_output(print(r), "tau chosen privately \\(bound_share 0.2 of epsilon")
  }
  # the default share: 0.1, raised (public rule in n and epsilon) when n epsilon is small (seeded: with
  # secure noise a bound above the range is drawn in at most 1 call of 1000, by design, and failed CI once)
  old <- dp_reproducible(12)
  on.exit(dp_rng(old), add = TRUE)
  r <- dp_mean(d$cu, epsilon = 2, tau = "auto")
  expect_equal(r$tau_auto$share, 0.1)
  r <- dp_mean(d$cu[1:150], epsilon = 1, tau = "auto")
  expect_equal(r$tau_auto$share, dpfda:::auto_bound_min_share(150, 1, 42))
  expect_gt(r$tau_auto$share, 0.1)
  # with incomplete = "drop": bound + count + release = epsilon
  b <- privacy_budget(10, composition = "basic")
  r <- dp_mean(d$cu, epsilon = 1, tau = "auto", incomplete = "drop", budget = b)
  expect_equal(r$tau_auto$epsilon + r$epsilon_count + r$epsilon_release, 1, tolerance = 1e-15)
  expect_equal(budget_spent(b)$epsilon, 1, tolerance = 1e-15)
  # with units: per-unit norms, n counts units
  r <- dp_mean(d$cu, epsilon = 1, tau = "auto", unit = rep(1:200, each = 2))
  expect_equal(r$n, 200)
  expect_match(r$privacy_unit, "200 units")
})

test_that("the selection follows the exponential mechanism's law exactly (seeded distribution test)", {
  counts <- c(0, 5, 20, 60, 80, 60, 20, 5, 0, 0, 0, 0)   # 250 norms in 12 bins
  t <- 150
  eps_b <- 0.2
  r <- cumsum(counts)
  u <- -pmax(0, t - r, c(0, r[-12]) - t)
  p <- dpfda:::select_probabilities(u, 1, eps_b)
  old <- dp_reproducible(2024)
  on.exit(dp_rng(old))
  N <- 20000
  k <- vapply(seq_len(N), function(i) dpfda:::auto_bound_select(counts, t, eps_b), 1)
  f <- tabulate(k, 12) / N
  # every frequency within 4.5 standard errors of its probability
  expect_true(all(abs(f - p) <= 4.5 * sqrt(p * (1 - p) / N) + 1e-12))
  # power: the law at twice the epsilon (half the noise) is rejected by the same test
  p2 <- dpfda:::select_probabilities(u, 1, 2 * eps_b)
  expect_false(all(abs(f - p2) <= 4.5 * sqrt(p2 * (1 - p2) / N) + 1e-12))
  # the top bins are never favoured: far above the data the probability is below exp(-L) / (K + 2)
  expect_lt(sum(p[9:12]), 1)
})

test_that("privacy audit: the selection and the whole call stay below epsilon; too little noise is caught", {
  # selection alone on worst-case neighbours (one individual moved across the target's bins)
  cD <- c(0, 0, 0, 50, 0, 0, 50, 0, 0, 0)
  cN <- c(0, 0, 0, 49, 0, 0, 51, 0, 0, 0)
  sel <- function(eps) function(cn) dpfda:::auto_bound_select(cn, 50, eps)
  a <- dp_audit(sel(1), cD, cN, n = 20000, epsilon = 1, projection = "identity", seed = 31, confidence = 0.99)
  expect_lte(a$epsilon_lower, 1)
  bad <- dp_audit(sel(8), cD, cN, n = 20000, epsilon = 1, projection = "identity", seed = 31, confidence = 0.99)
  expect_gt(bad$epsilon_lower, 1)   # eight times the epsilon (an eighth of the noise) is refuted
  # the whole call (bound + release) on neighbours that differ in one curve, moved from a small norm
  # to a large one across the bins of the bound (and from -tau to +tau for the release)
  g <- seq(0, 1, length.out = 5)
  base <- matrix(rep(c(0.2, 0.3), each = 50), 100, 5)
  D <- base
  N2 <- base
  N2[1, ] <- -3
  D[1, ] <- 3
  whole <- function(X) {
    r <- dp_mean(curves(X, g), epsilon = 1, tau = "auto", mechanism = "frl", select = "manual", M = 1,
                 bound_share = 0.5, bound_range = c(0.1, 10))
    c(log(r$tau), r$coefficients[1])
  }
  w <- dp_audit(whole, D, N2, n = 1500, epsilon = 1, projection = function(o) o[2] + 10 * o[1], seed = 5,
                confidence = 0.99)
  expect_lte(w$epsilon_lower, 1)
  # the curve moved from a small norm (-0.2, below the target's bin) to 3: both the bound and the release move
  N2[1, ] <- -0.2
  w2 <- dp_audit(whole, D, N2, n = 1500, epsilon = 1, projection = function(o) o[2] + 10 * o[1], seed = 6,
                 confidence = 0.99)
  expect_lte(w2$epsilon_lower, 1)
})

test_that("tables, chunks and data frames give the same release as memory under dp_reproducible()", {
  d <- auto_data(120, m = 11)
  long <- as.data.frame(d$cu)
  long$person <- (as.integer(factor(long$id)) + 1L) %/% 2L
  same <- function(mk, ...) {
    old <- dp_reproducible(77)
    on.exit(dp_rng(old))
    a <- dp_mean(d$cu, epsilon = 1, tau = "auto", ...)
    dp_reproducible(77)
    b <- mk()
    expect_identical(a$tau, b$tau)
    expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
    a
  }
  for (mech in c("iclp_qr", "bernstein")) {
    same(function() dp_mean(long, epsilon = 1, tau = "auto", grid = d$t, mechanism = mech), mechanism = mech)
    same(function() dp_mean(dp_chunks(split(long, (seq_len(nrow(long)) - 1L) %/% 200L)), epsilon = 1,
                            tau = "auto", grid = d$t, mechanism = mech), mechanism = mech)
  }
})

test_engines("dp_mean(tau = \"auto\") on a table equals memory (centre, units, incomplete = \"drop\")", function(con) {
  d <- auto_data(240, m = 11)
  long <- as.data.frame(d$cu)
  long$person <- (as.integer(factor(long$id)) + 1L) %/% 2L
  DBI::dbWriteTable(con, "auto_long", long)
  tb <- dplyr::tbl(con, "auto_long")
  cen <- function(t) 0.05 * t
  units <- (seq_len(240) + 1L) %/% 2L
  for (mech in c("iclp_qr", "frl", "bernstein", "gp")) {
    dl <- if (mech == "gp") 1e-3
    old <- dp_reproducible(9)
    a <- dp_mean(d$cu, epsilon = 1, tau = "auto", mechanism = mech, delta = dl, center = cen)
    dp_reproducible(9)
    b <- dp_mean(tb, epsilon = 1, tau = "auto", grid = d$t, mechanism = mech, delta = dl, center = cen)
    dp_rng(old)
    expect_identical(a$tau, b$tau)
    expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
  }
  old <- dp_reproducible(10)
  a <- dp_mean(d$cu, epsilon = 1, tau = "auto", unit = units)
  dp_reproducible(10)
  b <- dp_mean(tb, epsilon = 1, tau = "auto", grid = d$t, unit = "person")
  expect_identical(a$tau, b$tau)
  expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
  expect_match(b$privacy_unit, "person \\(120 units\\)")
  # incomplete curves: memory (as_curves drop) and table agree
  part <- long[!(long$id %in% unique(long$id)[1:5] & long$arg > 0.5), ]
  DBI::dbWriteTable(con, "auto_part", part)
  dp_reproducible(12)
  a <- dp_mean(part, epsilon = 1, tau = "auto", grid = d$t, incomplete = "drop")
  dp_reproducible(12)
  b <- dp_mean(dplyr::tbl(con, "auto_part"), epsilon = 1, tau = "auto", grid = d$t, incomplete = "drop")
  dp_rng(old)
  expect_identical(a$tau, b$tau)
  expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
  expect_equal(a$n_complete, b$n_complete)
})

test_that("bad input to tau = \"auto\" gets classed errors saying what to do", {
  d <- auto_data(300)
  expect_error(dp_mean(d$cu, 1, tau = "aut"), class = "dpfda_error_argument", regexp = "\"auto\"")
  for (bs in list(0, 1, -0.1, "a", c(0.1, 0.2), NA)) {
    expect_error(dp_mean(d$cu, 1, tau = "auto", bound_share = bs), class = "dpfda_error_argument")
  }
  for (br in list(1, c(2, 1), c(-1, 1), c(0, 1), c(1, Inf), "a", c(1e-20, 1e20))) {
    expect_error(dp_mean(d$cu, 1, tau = "auto", bound_range = br), class = "dpfda_error_argument",
                 regexp = "bound_range")
  }
  expect_error(dp_mean(d$cu, 1, tau = "auto", bound_quantile = 1), class = "dpfda_error_argument")
  expect_error(dp_mean(d$cu, 1, tau = 1, bound_share = 0.2), class = "dpfda_error_argument",
               regexp = "only with tau")
  # n too small for the quantile: give tau or a larger share
  expect_error(dp_mean(d$cu[1:40], 1, tau = "auto"), class = "dpfda_error_privacy", regexp = "Give `tau`")
  expect_error(dp_mean(d$cu, 1, tau = "auto", bound_share = 0.05), class = "dpfda_error_privacy",
               regexp = "larger `bound_share`")
  # a range that excludes the norms: refused, the bound's budget spent
  b <- privacy_budget(5, composition = "basic")
  expect_error(dp_mean(d$cu, 1, tau = "auto", bound_range = c(10, 1000), budget = b), class = "dpfda_error_data",
               regexp = "below `bound_range`")
  expect_equal(budget_spent(b)$epsilon, dpfda:::auto_bound_min_share(300, 1, 12), tolerance = 1e-14)
  expect_error(dp_mean(d$cu, 1, tau = "auto", bound_range = c(1e-6, 1e-4)), class = "dpfda_error_data",
               regexp = "above `bound_range`.*Give `tau`")
  # a summary clipped at a fixed tau cannot choose one
  expect_error(dp_mean(summarise_mean(d$cu, tau = 1), 1, tau = "auto"), class = "dpfda_error_argument",
               regexp = "needs the data")
  expect_error(dp_mean(d$cu, 1, tau = "auto", incomplete = "drop", count_share = 0.95, bound_share = 0.2),
               class = "dpfda_error_argument", regexp = "count_share")
  # a bound_share that the count and the inference leave no room for: refused before anything is spent,
  # naming the shares that took the rest
  b <- privacy_budget(5, composition = "basic")
  expect_error(dp_mean(d$cu, 1, tau = "auto", incomplete = "drop", count_share = 0.5, bound_share = 0.5, budget = b),
               class = "dpfda_error_argument", regexp = "count_share takes 0.5 of epsilon first, so bound_share must be below 0.5")
  expect_error(dp_mean(d$cu, 1, tau = "auto", incomplete = "drop", bound_share = 0.9, budget = b),
               class = "dpfda_error_argument", regexp = "leaves nothing.*count_share takes 0.1 of epsilon first")
  expect_error(dp_mean(d$cu, 1, tau = "auto", incomplete = "drop", inference = TRUE, bound_share = 0.75, budget = b),
               class = "dpfda_error_argument", regexp = "count_share and inference_share take 0.28 of epsilon first")
  expect_equal(budget_spent(b)$epsilon, 0)
  # too few individuals for the room left: the advice is an epsilon at which the default share fits
  e <- expect_error(dp_mean(d$cu[1:40], 1, tau = "auto", incomplete = "drop", inference = TRUE, budget = b),
                    class = "dpfda_error_privacy", regexp = "a larger epsilon \\(at least [0-9.]+ with bound_share = 0.5\\)")
  eps_ok <- as.numeric(sub(".*at least ([0-9.]+) with.*", "\\1", conditionMessage(e)))
  expect_gt(eps_ok, 1 / 0.72)   # (the share needed at epsilon 1 is beyond the room)
  expect_error(suppressWarnings(dp_mean(d$cu[1:40], eps_ok * 1.01, tau = "auto", incomplete = "drop",
                                        inference = TRUE)), NA)
  expect_error(dp_mean(d$cu[1:40], eps_ok * 0.99, tau = "auto", incomplete = "drop", inference = TRUE),
               class = "dpfda_error_privacy")
})

test_that("dp_cov(tau = \"auto\") and dp_fpca(): exact charge, calibration, classed refusals", {
  d <- auto_data(300, m = 11)
  b <- privacy_budget(5, composition = "basic")
  old <- dp_reproducible(3)
  on.exit(dp_rng(old))
  r <- suppressWarnings(dp_cov(d$cu, epsilon = 1, tau = "auto", budget = b, bound_share = 0.25))
  expect_equal(budget_spent(b)$epsilon, 1, tolerance = 1e-15)
  expect_equal(r$epsilon, 1)
  expect_equal(r$epsilon_release, 0.75)
  expect_equal(r$tau_auto$epsilon, 0.25)
  ref <- suppressWarnings(dp_cov(d$cu, epsilon = 0.75, tau = r$tau))
  expect_equal(r$noise_scale, ref$noise_scale, tolerance = 1e-12)
  expect_output(print(r), "tau chosen privately \\(bound_share 0.25")
  p <- suppressWarnings(dp_fpca(d$cu, npc = 2, epsilon = 1, tau = "auto"))
  expect_true(p$release$tau %in% dpfda:::auto_bound_candidates(p$release$tau_auto$range))
  # chunks (read once): one pass gives the binned covariance summary, the same release as memory
  long <- as.data.frame(d$cu)
  long$person <- (as.integer(factor(long$id)) + 1L) %/% 2L
  ids <- unique(long$id)
  cen <- function(t) 0.1 * t
  for (u in list(NULL, "person")) {
    dp_reproducible(6)
    a <- suppressWarnings(dp_cov(long, epsilon = 1, tau = "auto", grid = d$t, center = cen, unit = u))
    dp_reproducible(6)
    b2 <- privacy_budget(5, composition = "basic")
    b <- suppressWarnings(dp_cov(dp_chunks(split(long, (match(long$id, ids) - 1L) %/% 37L)), epsilon = 1,
                                 tau = "auto", grid = d$t, center = cen, unit = u, budget = b2))
    expect_identical(a$tau, b$tau)
    expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
    expect_identical(a$privacy_unit, b$privacy_unit)
    expect_equal(budget_spent(b2)$epsilon, 1, tolerance = 1e-15)
  }
  # incomplete = "drop" on chunks: the individuals left out count as norm 0, as in memory
  part <- long[!(long$id %in% ids[c(3, 50, 51)] & long$arg > 0.5), ]
  dp_reproducible(7)
  a <- suppressWarnings(dp_cov(part, epsilon = 1, tau = "auto", grid = d$t, incomplete = "drop"))
  dp_reproducible(7)
  b <- suppressWarnings(dp_cov(dp_chunks(split(part, (match(part$id, ids) - 1L) %/% 41L)), epsilon = 1,
                               tau = "auto", grid = d$t, incomplete = "drop"))
  expect_identical(a$tau, b$tau)
  expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
  expect_null(b$incomplete_n)
  expect_equal(a$n_complete, b$n_complete)
  for (src in list(part, dp_chunks(list(part)))) {   # units with incomplete = "drop": refused on every source
    expect_error(dp_cov(src, epsilon = 1, tau = "auto", grid = d$t, incomplete = "drop", unit = "person"),
                 class = "dpfda_error_argument", regexp = "not available yet.*give a numeric tau")
    # (the message blamed `unit` with drop, which work together at a numeric tau)
    expect_error(dp_mean(src, epsilon = 1, tau = "auto", grid = d$t, incomplete = "drop", unit = "person"),
                 class = "dpfda_error_argument", regexp = "tau = \"auto\" with `unit` and incomplete")
  }
  expect_error(dp_cov(dp_chunks(list(part)), epsilon = 1, tau = "auto", grid = d$t), class = "dpfda_error_data",
               regexp = "incomplete = \"drop\"")
  # the binned summary gives exactly the covariance summary at every candidate above 2^-10 times the
  # largest values (below, the fixed-tau summary also clamps single values at 2^10 tau / sqrt(min w),
  # which the one-pass summary does at the top of the range; either keeps every norm within tau)
  ab <- dpfda:::auto_bound_options(list(), "l2", 1)
  basis <- dpfda:::kl_basis(dpfda:::default_mech_kernel(range(d$t)), d$t)
  st <- list(grid = d$t, weights = basis$weights, candidates = ab$candidates, clip = "l2",
             projection = basis$weights * basis$vectors)
  sb <- dpfda:::cov_bins_frame(long, basis, ab$candidates, "id", "arg", "value", NULL, NULL, st)
  for (k in c(12, 15, 20, 30)) {
    ref <- dpfda:::summarise_cov_basis(d$cu, basis, ab$candidates[k], "id", "arg", "value")
    expect_equal(dpfda:::cov_bins_at(sb, k)$sums, ref$sums, tolerance = 1e-10)
  }
  expect_error(dp_cov(d$cu, epsilon = 1, tau = 1, bound_share = 0.2), class = "dpfda_error_argument")
  expect_error(dp_cov(d$cu, epsilon = 1, tau = "auto", bound_range = c(1, 1e80)), class = "dpfda_error_argument")
  expect_error(dp_cov(d$cu[1:50], epsilon = 1, tau = "auto"), class = "dpfda_error_privacy")
})

test_engines("dp_cov(tau = \"auto\") on a table equals memory", function(con) {
  d <- auto_data(200, m = 9)
  DBI::dbWriteTable(con, "auto_cov", as.data.frame(d$cu))
  cen <- function(t) 0.1 * t
  old <- dp_reproducible(4)
  a <- suppressWarnings(dp_cov(d$cu, epsilon = 1, tau = "auto", center = cen))
  dp_reproducible(4)
  b <- suppressWarnings(dp_cov(dplyr::tbl(con, "auto_cov"), epsilon = 1, tau = "auto", grid = d$t, center = cen))
  dp_rng(old)
  expect_identical(a$tau, b$tau)
  expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
})

test_that("a small bench: tau = \"auto\" beats a bound ten times too large and is near a good one", {
  # (bench/bench-tau-auto.R at full size; here 12 replications of one cell)
  t <- seq(0, 1, length.out = 51)
  mu <- 0.3 * sin(2 * pi * t)
  w <- dpfda:::quadrature_weights(t)
  B <- vapply(1:4, function(j) sqrt(2) * cos(j * pi * t), numeric(51)) %*% diag(0.3 / (1:4))
  old <- dp_reproducible(8)
  on.exit(dp_rng(old))
  set.seed(8)
  e <- replicate(12, {
    X <- sweep(matrix(rnorm(300 * 4), 300) %*% t(B), 2, mu, "+")
    cx <- curves(X, t)
    err <- function(r) sqrt(sum(w * (r$values$values[1, ] - mu)^2))
    c(auto = err(dp_mean(cx, 1, "auto")), good = err(dp_mean(cx, 1, 0.36)), ten = err(dp_mean(cx, 1, 7.2)))
  })
  m <- rowMeans(e)
  expect_lt(m[["auto"]] / m[["ten"]], 0.5)
  expect_lt(m[["auto"]] / m[["good"]], 1.6)
})

test_that("the explorer offers tau = \"auto\": views and the error panel", {
  B <- dpfda:::explore_builtin()
  set <- B$mean[[1L]]
  p <- dpfda:::explore_defaults(set, "mean")
  p$releases <- 2L
  p$tau_auto <- TRUE
  v <- dpfda:::explore_view("mean", set, p, seed = 3)
  expect_true(!is.null(v$release$tau_auto))
  expect_true(any(grepl("tau chosen privately", v$notes)))
  p$n <- 60L   # too few for the smallest epsilons: those are left out with a note
  e <- dpfda:::explore_errors("mean", set, p, seed = 3)
  expect_true(all(is.finite(e$table$expected)))
  expect_lt(nrow(e$table), length(dpfda:::explore_eps_grid))
  expect_true(any(grepl("tau = \"auto\" at epsilon", e$notes)))
})

test_that("dp_accuracy(tau = \"auto\"): the law of the bound is exact and the errors are its mixture", {
  t <- seq(0, 1, length.out = 31)
  w <- dpfda:::quadrature_weights(t)
  set.seed(4)
  X <- outer(rnorm(300, 1, 0.4), sin(2 * pi * t)) + outer(rnorm(300, 0, 0.3), cos(pi * t))
  nrm <- sqrt(rowSums(sweep(X^2, 2, w, "*")))
  a <- dp_accuracy(mechanism = "frl", n = 300, epsilon = 1, tau = "auto", grid = t, norms = nrm, bound_share = 0.2)
  expect_equal(a$bound_share, 0.2)
  expect_equal(a$epsilon_release, 0.8)
  expect_output(print(a), "tau = \"auto\" \\(share 0.2 of epsilon\\)")
  # the errors: the mixture over the bound's law of the fixed-tau errors at the release's epsilon
  fixed <- vapply(a$tau_distribution$tau, function(tb) {
    dp_accuracy(mechanism = "frl", n = 300, epsilon = 0.8, tau = tb, grid = t)$expected_l2
  }, 0)
  expect_equal(a$expected_l2, sqrt(sum(a$tau_distribution$probability * fixed^2)), tolerance = 1e-12)
  # the law of the bound: data whose norms are the planning sample choose as planned
  old <- dp_reproducible(5)
  on.exit(dp_rng(old))
  cx <- curves(X, t)
  taus <- replicate(400, dp_mean(cx, 1, "auto", mechanism = "frl", bound_share = 0.2)$tau)
  f <- vapply(a$tau_distribution$tau, function(tb) mean(abs(taus - tb) < 1e-12 * tb), 0)
  p <- a$tau_distribution$probability
  expect_true(all(abs(f - p) <= 4.5 * sqrt(p * (1 - p) / 400) + 0.01))
  expect_error(dp_accuracy(mechanism = "frl", n = 300, epsilon = 1, tau = "auto", grid = t),
               class = "dpfda_error_argument", regexp = "norms")
  expect_error(dp_accuracy(mechanism = "frl", n = 300, epsilon = 1, tau = "auto", grid = t, norms = nrm,
                           target_l2 = 0.1), class = "dpfda_error_argument")
  expect_error(dp_accuracy(mechanism = "frl", n = 30, epsilon = 1, tau = "auto", grid = t, norms = nrm),
               class = "dpfda_error_privacy")
})
