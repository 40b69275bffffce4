# y_bound = "auto" in dp_gp_regression() and dp_bin_regression()
# (R/auto-y-bound.R, issue 30): a share of epsilon buys a private high
# quantile of |y - bound_center| on a public log grid; the whole call charges
# exactly epsilon; every source of dp_bin_regression() gives the same release.

yb_data <- function(n = 300, seed = 1, D = 1) {
  set.seed(seed)
  x <- if (D == 1) sort(runif(n)) else matrix(runif(n * D), n)
  u <- if (D == 1) x else x[, 1]
  list(x = x, y = 2 + sin(6 * u) + rnorm(n, 0, 0.3))
}

test_that("the binned summary gives exactly the clamped bin sums at every candidate (centre, missing, 2-D)", {
  for (D in 1:2) {
    d <- yb_data(150, D = D)
    d$y[c(3, 40)] <- NA
    ab <- dpfda:::ybound_auto_options(list(bound_center = 2, bound_range = c(0.01, 10)))
    dom <- if (D == 1) c(0, 1) else rbind(c(0, 0), c(1, 1))
    sb <- suppressWarnings(dpfda:::summarise_binreg_bins(d$x, d$y, 4, dom, ab, NULL))
    expect_equal(sum(sb$norm_counts), 150)
    expect_equal(sb$norm_counts, dpfda:::ybound_hist(d$y, 2, ab$candidates))
    for (k in c(1, 2, 8, 12, 16)) {
      yb <- 2 + c(-1, 1) * ab$candidates[k]
      s <- dpfda:::binreg_bins_at(sb, k, yb)
      ref <- suppressWarnings(summarise_bin_regression(d$x, d$y, bins = 4, y_bound = yb, domain = dom))
      expect_equal(s$sums, ref$sums, tolerance = 1e-12)
      expect_equal(s$n, ref$n)
      expect_equal(s$missing_y, 2)
    }
  }
})

test_that("both functions charge exactly epsilon: the share for the bound, the rest (and delta) for the release", {
  old0 <- dp_reproducible(33)   # (seeded, as the next test: the accounting, not the bound's law)
  on.exit(dp_rng(old0), add = TRUE)
  d <- yb_data(400)
  g <- seq(0, 1, length.out = 25)
  for (mech in c("cloaking", "standard")) {
    b <- privacy_budget(10, delta = 1e-2, composition = "basic")
    old <- dp_reproducible(11)
    r <- dp_gp_regression(d$x, d$y, g, kernel_gaussian(0.2), 0.09, y_bound = "auto", epsilon = 0.8,
                          delta = 1e-4, mechanism = mech, budget = b, bound_share = 0.25, bound_center = 2)
    dp_rng(old)
    expect_equal(r$epsilon, 0.8, tolerance = 1e-15)
    expect_equal(r$y_bound_auto$epsilon, 0.2, tolerance = 1e-15)
    expect_equal(r$epsilon_release, 0.6, tolerance = 1e-15)
    expect_equal(budget_spent(b)$epsilon, 0.8, tolerance = 1e-15)
    expect_equal(budget_spent(b)$delta, 1e-4)
    B <- r$y_bound_auto$bound
    expect_true(B %in% dpfda:::auto_bound_candidates(r$y_bound_auto$range))
    expect_equal(r$y_bound, 2 + c(-B, B))
    expect_equal(mean(r$y_bound), 2)
    # the release is calibrated exactly as one with that y_bound and the rest of epsilon
    ref <- dp_gp_regression(d$x, d$y, g, kernel_gaussian(0.2), 0.09, y_bound = r$y_bound, epsilon = 0.6,
                            delta = 1e-4, mechanism = mech)
    expect_equal(r$sensitivity, ref$sensitivity, tolerance = 1e-12)
    expect_equal(r$noise_scale, ref$noise_scale, tolerance = 1e-12)
    expect_output(print(r), "y_bound chosen privately \\(bound_share 0.25 of epsilon: 0.2")
  }
  # the default range follows the public prior sd sqrt(v + noise_variance)
  r <- dp_gp_regression(d$x, d$y, g, kernel_gaussian(0.2, variance = 4), 5, y_bound = "auto", epsilon = 1,
                        delta = 1e-4)
  expect_equal(r$y_bound_auto$range, c(1e-4, 1e4) * 3)
  b <- privacy_budget(10, composition = "basic")
  r <- dp_bin_regression(d$x, d$y, 8, "auto", 0.8, c(0, 1), budget = b, bound_share = 0.25, method = "integral",
                         newdata = c(0.1, 0.5))
  expect_equal(r$epsilon, 0.8, tolerance = 1e-15)
  expect_equal(r$epsilon_release, 0.6, tolerance = 1e-15)
  expect_equal(budget_spent(b)$epsilon, 0.8, tolerance = 1e-15)
  expect_equal(r$noise_scale, diff(r$y_bound) / 0.6, tolerance = 1e-14)
  expect_equal(r$laplace_scale, diff(r$y_bound) / (r$counts * 0.6), tolerance = 1e-14)
  expect_equal(r$y_bound_auto$range, c(1e-4, 1e4))
  expect_output(print(r), "y_bound chosen privately \\(bound_share 0.25 of epsilon")
  # the default share: 0.1, raised by the public rule in n and epsilon (as tau = "auto")
  r <- dp_bin_regression(d$x, d$y, 8, "auto", 3, c(0, 1))
  expect_equal(r$y_bound_auto$share, 0.1)
  r <- dp_bin_regression(d$x, d$y, 8, "auto", 1, c(0, 1))
  expect_equal(r$y_bound_auto$share, dpfda:::auto_bound_min_share(400, 1, 42))
  # exact noise: bound + release still exactly epsilon
  b <- privacy_budget(10, composition = "basic")
  r <- dp_bin_regression(d$x, d$y, 8, "auto", 1, c(0, 1), noise = "exact", budget = b)
  expect_equal(budget_spent(b)$epsilon, 1, tolerance = 1e-15)
})

test_that("under GDP and zCDP budgets the Gaussian release keeps its mu; the parts are charged together", {
  # (seeded: in secure mode the private bound fell beyond its range once in a CI run, and the test is
  # about the accounting, which the audits below test for the bound's law)
  old <- dp_reproducible(84)
  on.exit(dp_rng(old), add = TRUE)
  d <- yb_data(400)
  g <- seq(0, 1, length.out = 10)
  b <- privacy_budget(3, delta = 1e-3, composition = "gdp")
  r <- dp_gp_regression(d$x, d$y, g, kernel_gaussian(0.2), 0.09, "auto", 1, 1e-4, budget = b, bound_share = 0.2)
  l <- summary(b)
  expect_equal(nrow(l), 2L)   # the bound (pure DP) and the release (Gaussian): one entry each
  expect_match(l$label, "\\[(bound|release)\\]$")
  i <- grep("[bound]", l$label, fixed = TRUE)
  expect_equal(l$epsilon[i], 0.2, tolerance = 1e-15)
  expect_equal(l$epsilon[-i], 0.8, tolerance = 1e-15)
  expect_equal(l$delta[-i], 1e-4)
  expect_true(is.na(l$mu[i]))
  expect_equal(l$mu[-i], r$sensitivity / r$noise_scale, tolerance = 1e-12)
  bb <- privacy_budget(3, delta = 1e-3, composition = "basic")
  r <- dp_gp_regression(d$x, d$y, g, kernel_gaussian(0.2), 0.09, "auto", 1, 1e-4, budget = bb, bound_share = 0.2)
  expect_equal(budget_spent(bb)$epsilon, 1, tolerance = 1e-15)
  # zCDP: a pure binned regression counts as epsilon^2 / 2
  bz <- privacy_budget(5, delta = 1e-6, composition = "zcdp")
  r <- dp_bin_regression(d$x, d$y, 8, "auto", 1, c(0, 1), budget = bz, bound_share = 0.3)
  r2 <- dp_bin_regression(d$x, d$y, 8, "auto", 1, c(0, 1), budget = bz, bound_share = 0.3)
  expect_equal(budget_spent(bz)$epsilon, min(2, dpfda:::zcdp_epsilon_unit(2 * 1^2 / 2, 1e-6)))
  # a release the budget refuses charges nothing
  bs <- privacy_budget(1.5, composition = "basic")
  spend(bs, 0.9, label = "before")
  expect_error(dp_bin_regression(d$x, d$y, 8, "auto", 1, c(0, 1), budget = bs, bound_share = 0.3),
               class = "dpfda_error_budget")
  expect_equal(nrow(summary(bs)), 1L)
  expect_equal(budget_spent(bs)$epsilon, 0.9)
})

test_that("the bound follows the exponential mechanism's law exactly at share * epsilon (whole call)", {
  # outputs spread over several candidate bins, so the law is not degenerate
  set.seed(5)
  n <- 200
  x <- runif(n)
  y <- exp(rnorm(n, 0, 0.8))
  ab <- dpfda:::ybound_auto_options(list(bound_range = c(0.1, 10)))
  counts <- dpfda:::ybound_hist(y, 0, ab$candidates)
  eps_b <- 0.5 * 1
  K2 <- length(ab$candidates) + 1L
  t <- n - dpfda:::auto_bound_k0(n, 0.9, eps_b, K2)
  r <- cumsum(counts)
  u <- -pmax(0, t - r, c(0, r[-K2]) - t)
  p <- dpfda:::select_probabilities(u, 1, eps_b)
  old <- dp_reproducible(2025)
  on.exit(dp_rng(old))
  N <- 4000
  B <- vapply(seq_len(N), function(i) {
    dp_bin_regression(x, y, 4, "auto", 1, c(0, 1), bound_share = 0.5, bound_range = c(0.1, 10))$y_bound_auto$bound
  }, 1)
  k <- match(B, ab$candidates)
  expect_false(anyNA(k))
  f <- tabulate(k, K2) / N
  expect_true(all(abs(f - p) <= 4.5 * sqrt(p * (1 - p) / N) + 1e-12))
  # power: the law of a selection with twice the epsilon (half the noise) is rejected by the same test
  p2 <- dpfda:::select_probabilities(u, 1, 2 * eps_b)
  expect_false(all(abs(f - p2) <= 4.5 * sqrt(p2 * (1 - p2) / N) + 1e-12))
  # dp_gp_regression() draws its bound by the same function from the same histogram (the prior
  # sd is 1 here, so the default range is c(1e-4, 1e4))
  for (s in 1:5) {
    dp_reproducible(s)
    rg <- dp_gp_regression(x, y, c(0.2, 0.8), kernel_gaussian(0.3, variance = 0.5), 0.5, "auto", 1, 1e-4,
                           bound_share = 0.5)
    dp_reproducible(s)
    ab2 <- dpfda:::ybound_auto_options(list(bound_share = 0.5))
    ch <- dpfda:::ybound_choose(dpfda:::ybound_hist(y, 0, ab2$candidates), n, ab2, 1, NULL, "x")
    expect_identical(rg$y_bound, ch$y_bound)
  }
})

test_that("privacy audit of the whole call (bound + release) on worst-case neighbours stays below epsilon", {
  # 100 outputs: 62 at |y| = 0.2, 37 at 0.5 and one moved; the target rank n - k0 = 62.8 sits between
  # the two bins, so a bound read off the data without noise would differ between the neighbours
  x <- seq(0.005, 0.995, length.out = 100)
  base <- c(rep(c(0.2, -0.2), 31), rep(c(0.5, -0.5), length.out = 37), 0)
  D <- base
  D[100] <- 3
  N1 <- base
  N1[100] <- -0.2     # the moved output changes bins (the bound's law moves) and its bin sum
  N2 <- base
  N2[100] <- -3       # same bin of |y|, largest move of the release
  whole <- function(y) {
    r <- dp_bin_regression(x, y, 5, "auto", 1, c(0, 1), bound_share = 0.5, bound_range = c(0.1, 10))
    c(log(diff(r$y_bound)), r$values$values[1, 5])
  }
  proj <- function(o) o[2] + 10 * o[1]
  a1 <- dp_audit(whole, D, N1, n = 1500, epsilon = 1, projection = proj, seed = 5, confidence = 0.99)
  expect_lte(a1$epsilon_lower, 1)
  a2 <- dp_audit(whole, D, N2, n = 1500, epsilon = 1, projection = proj, seed = 6, confidence = 0.99)
  expect_lte(a2$epsilon_lower, 1)
  # the same audit catches a bound chosen without noise (the rank read off the data) on these neighbours
  leaky <- function(y) {
    ab <- dpfda:::ybound_auto_options(list(bound_range = c(0.1, 10)))
    r <- cumsum(dpfda:::ybound_hist(y, 0, ab$candidates))
    B <- ab$candidates[which(r >= 100 - dpfda:::auto_bound_k0(100, 0.9, 0.5, 12))[1]]
    rr <- dp_bin_regression(x, y, 5, c(-B, B), 0.5, c(0, 1))
    c(log(2 * B), rr$values$values[1, 5])
  }
  bad <- dp_audit(leaky, D, N1, n = 1500, epsilon = 1, projection = proj, seed = 5, confidence = 0.99)
  expect_gt(bad$epsilon_lower, 1)
})

test_that("chunks give the same release as points in memory under dp_reproducible()", {
  d <- yb_data(300, D = 2)
  frame <- data.frame(u = d$x[, 1], v = d$x[, 2], resp = d$y)
  frame$resp[7] <- NA
  yy <- d$y
  yy[7] <- NA
  dom <- rbind(c(0, 0), c(1, 1))
  old <- dp_reproducible(77)
  on.exit(dp_rng(old))
  a <- suppressWarnings(dp_bin_regression(d$x, yy, c(3, 2), "auto", 1, dom, bound_center = 2))
  dp_reproducible(77)
  b <- suppressWarnings(dp_bin_regression(dp_chunks(split(frame, rep(1:3, each = 100))), resp, c(3, 2), "auto", 1,
                                          dom, columns = c(u, v), bound_center = 2))
  expect_identical(a$y_bound, b$y_bound)
  expect_equal(a$values$values, b$values$values, tolerance = 1e-12)
  expect_warning(dp_bin_regression(dp_chunks(list(frame)), "resp", c(3, 2), "auto", 1, dom, columns = c("u", "v")),
                 class = "dpfda_warning_data")
  # a formula (data frame) gives the GP regression the same release as vectors
  fr <- data.frame(u = d$x[, 1], resp = d$y)
  dp_reproducible(3)
  g1 <- dp_gp_regression(fr$u, fr$resp, c(0.2, 0.7), kernel_gaussian(0.3), 0.1, "auto", 1, 1e-4, bound_center = 2)
  dp_reproducible(3)
  g2 <- dp_gp_regression(resp ~ u, data = fr, newdata = data.frame(u = c(0.2, 0.7)), kernel = kernel_gaussian(0.3),
                         noise_variance = 0.1, y_bound = "auto", epsilon = 1, delta = 1e-4, bound_center = 2)
  expect_identical(g1$y_bound, g2$y_bound)
  expect_equal(g1$values$values, g2$values$values, tolerance = 1e-12)
  expect_equal(g1$y_bound_auto$center, 2)
})

test_engines("dp_bin_regression(y_bound = \"auto\") on a table equals memory (centre, missing outputs, 2-D)",
             function(con) {
  d <- yb_data(300, D = 2)
  frame <- data.frame(u = d$x[, 1], v = d$x[, 2], resp = d$y)
  frame$resp[c(7, 200)] <- NA
  frame$u[11] <- NA
  DBI::dbWriteTable(con, "yb_auto", frame)
  tb <- dplyr::tbl(con, "yb_auto")
  dom <- rbind(c(0, 0), c(1, 1))
  for (cen in c(0, 2)) {
    old <- dp_reproducible(9)
    a <- suppressWarnings(dp_bin_regression(dp_chunks(list(frame)), "resp", c(3, 2), "auto", 1, dom,
                                            columns = c("u", "v"), bound_center = cen))
    dp_reproducible(9)
    b <- suppressWarnings(dp_bin_regression(tb, "resp", c(3, 2), "auto", 1, dom, columns = c("u", "v"),
                                            bound_center = cen))
    dp_rng(old)
    expect_identical(a$y_bound, b$y_bound)
    expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
    expect_equal(a$counts, b$counts)
  }
  ab <- dpfda:::ybound_auto_options(list(bound_center = 2))
  s1 <- suppressWarnings(dpfda:::summarise_binreg_bins(dp_chunks(list(frame)), "resp", c(3, 2), dom, ab,
                                                       c("u", "v")))
  s2 <- suppressWarnings(dpfda:::summarise_binreg_bins(tb, "resp", c(3, 2), dom, ab, c("u", "v")))
  expect_equal(s2$norm_counts, s1$norm_counts)
  expect_equal(s2$sums, s1$sums, tolerance = 1e-12)
  expect_equal(c(s2$n, s2$dropped, s2$missing_y), c(s1$n, s1$dropped, s1$missing_y))
})

test_that("bad input to y_bound = \"auto\" gets classed errors saying what to do", {
  d <- yb_data(300)
  g <- c(0.2, 0.8)
  gp <- function(...) dp_gp_regression(d$x, d$y, g, kernel_gaussian(0.2), 0.09, epsilon = 1, delta = 1e-4, ...)
  br <- function(...) dp_bin_regression(d$x, d$y, 5, epsilon = 1, domain = c(0, 1), ...)
  for (f in list(gp, br)) {
    expect_error(f(y_bound = "aut"), class = "dpfda_error_argument", regexp = "\"auto\"")
    for (bs in list(0, 1, -0.1, "a", c(0.1, 0.2), NA)) {
      expect_error(f(y_bound = "auto", bound_share = bs), class = "dpfda_error_argument", regexp = "bound_share")
    }
    for (rg in list(1, c(2, 1), c(-1, 1), c(1, Inf), c(1e-20, 1e20))) {
      expect_error(f(y_bound = "auto", bound_range = rg), class = "dpfda_error_argument", regexp = "bound_range")
    }
    for (bc in list(NA, Inf, "a", c(1, 2))) {
      expect_error(f(y_bound = "auto", bound_center = bc), class = "dpfda_error_argument", regexp = "bound_center")
    }
    expect_error(f(y_bound = "auto", bound_quantile = 1), class = "dpfda_error_argument")
    expect_error(f(y_bound = c(-3, 5), bound_share = 0.2), class = "dpfda_error_argument",
                 regexp = "only with y_bound = \"auto\"")
    expect_error(f(y_bound = c(-3, 5), bound_center = 1), class = "dpfda_error_argument", regexp = "only with y_bound")
    # n too small for the quantile: give y_bound, a larger share or epsilon
    expect_error(f(y_bound = "auto", bound_share = 0.05), class = "dpfda_error_privacy",
                 regexp = "Give `y_bound`.*larger `bound_share`")
    # a range that excludes every |y|: refused, the bound's budget spent
    b <- privacy_budget(5, composition = "basic")
    # (the choice is private, so it can fall inside the range with a small probability: a fixed seed)
    expect_error(with_seed_mode(7, f(y_bound = "auto", bound_range = c(100, 1000), bound_share = 0.3, budget = b)),
                 class = "dpfda_error_data", regexp = "below `bound_range`.*Give `y_bound`")
    expect_equal(budget_spent(b)$epsilon, 0.3, tolerance = 1e-14)
    expect_error(with_seed_mode(7, f(y_bound = "auto", bound_range = c(1e-6, 1e-4))), class = "dpfda_error_data",
                 regexp = "above `bound_range`.*larger high end")
  }
  expect_error(dp_bin_regression(d$x[1:30], d$y[1:30], 5, "auto", 1, c(0, 1)), class = "dpfda_error_privacy",
               regexp = "n = 30 is too small.*Give `y_bound`")
  # a summary clamped to a fixed y_bound cannot choose one
  s <- summarise_bin_regression(d$x, d$y, 5, c(-5, 5), c(0, 1))
  expect_error(dp_bin_regression(s, epsilon = 1, y_bound = "auto"), class = "dpfda_error_argument",
               regexp = "needs the data")
  # the outputs are checked before any budget is spent
  b <- privacy_budget(5, composition = "basic")
  expect_error(dp_gp_regression(d$x, c(d$y[-1], NA), g, kernel_gaussian(0.2), 0.09, "auto", 1, 1e-4, budget = b),
               class = "dpfda_error_data", regexp = "non-finite value")
  expect_equal(budget_spent(b)$epsilon, 0)
})

test_that("a small bench: y_bound = \"auto\" beats a bound ten times too large and is near a good one", {
  # (bench/bench-y-bound-auto.R at full size; here 10 replications of one cell)
  f <- function(u) sin(2 * pi * u)
  g <- seq(0.05, 0.95, by = 0.1)
  old <- dp_reproducible(8)
  on.exit(dp_rng(old))
  set.seed(8)
  e <- replicate(10, {
    x <- runif(1000)
    y <- f(x) + rnorm(1000, 0, 0.5)
    q95 <- 1.8   # about the 95% quantile of |y|
    err <- function(r) sqrt(mean((r$values$values[1, ] - f(g))^2))
    c(auto = err(dp_bin_regression(x, y, 10, "auto", 1, c(0, 1))),
      good = err(dp_bin_regression(x, y, 10, c(-q95, q95), 1, c(0, 1))),
      ten = err(dp_bin_regression(x, y, 10, 10 * c(-q95, q95), 1, c(0, 1))))
  })
  m <- rowMeans(e)
  expect_lt(m[["auto"]] / m[["ten"]], 0.5)
  expect_lt(m[["auto"]] / m[["good"]], 1.6)
})
