# confint(dp_kde(...), type = "population") (issue 29): the band for the
# population density. The full table is bench/bench-kde-population-band.R.

kp_grid <- seq(-4, 4, length.out = 41)
kp_h <- 0.4
# f_h = K_h * f for the standard normal truncated to [-4, 4] (quadrature)
kp_fh <- local({
  xs <- seq(-4, 4, length.out = 4001)
  w <- c(0.5, rep(1, length(xs) - 2), 0.5) * diff(xs[1:2])
  fx <- dnorm(xs) / sum(w * dnorm(xs))
  vapply(kp_grid, function(t) sum(w * dnorm(t - xs, sd = kp_h) * fx), 0)
})
kp_draw <- function(n) {
  x <- rnorm(2 * n)
  x[abs(x) <= 4][seq_len(n)]
}
# coverage of f_h over `reps` releases, for the full band and for the band without one of its terms
kp_coverage <- function(n, eps, reps, parts = list(full = c("sampling", "noise"))) {
  hit <- vapply(parts, function(p) 0, 0)
  for (r in seq_len(reps)) {
    rel <- dp_kde(kp_draw(n), kp_grid, kp_h, epsilon = eps, delta = 1e-5)
    for (k in names(parts)) {
      b <- dpfda:::kde_population_band(rel, 0.95, 1000, 1, parts = parts[[k]])
      hit[[k]] <- hit[[k]] + all(b$lower <= kp_fh & kp_fh <= b$upper)
    }
  }
  hit / reps
}

test_that("the population band of a density: columns, method, asymmetric ends, no budget", {
  old_rng <- dp_reproducible(1)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  b <- privacy_budget(1, delta = 1e-4)
  r <- dp_kde(kp_draw(300), kp_grid, kp_h, epsilon = 0.5, delta = 1e-5, budget = b)
  spent <- budget_spent(b)
  ci <- confint(r, type = "population")
  expect_s3_class(ci, "dpfda_confint")
  expect_named(ci, c("id", "arg", "estimate", "se", "lower", "upper"))
  expect_equal(attr(ci, "type"), "population")
  expect_match(attr(ci, "method"), "smoothed density f_h = K_h \\* f")
  expect_match(attr(ci, "method"), "Bernstein's inequality")
  expect_true(all(ci$lower <= ci$upper) && all(ci$lower >= 0))
  expect_true(all(ci$upper <= 1 / (sqrt(2 * pi) * kp_h) + 1e-12))   # f_h <= K_h(0)
  expect_output(print(ci), "band for the population density")
  # the smoothness bound widens each end by B h^2 / 2 (then f >= 0), and the band is for f
  cs <- confint(r, type = "population", smoothness = 0.5)
  expect_match(attr(cs, "method"), "the density f \\(\\|f''\\| <= 0.5 assumed")
  expect_equal(cs$upper, ci$upper + 0.5 * kp_h^2 / 2)
  expect_equal(cs$lower, pmax(ci$lower - 0.5 * kp_h^2 / 2, 0))
  # a band is post-processing: nothing more is charged
  expect_equal(budget_spent(b), spent)
  td <- tidy(r, type = "population")
  expect_equal(td$conf.low, ci$lower)
  expect_equal(td$conf.high, ci$upper)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(r, band = "population"))
})

test_that("the band covers f_h, and would not without its sampling or its noise term", {
  old_rng <- dp_reproducible(2)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  # epsilon 4, n 200: sampling dominates; the noise band alone misses f_h
  cv <- kp_coverage(200, 4, 30, list(full = c("sampling", "noise"), noise_only = "noise"))
  expect_gte(cv[["full"]], 0.9)
  expect_lt(cv[["noise_only"]], 0.5)
  # epsilon 0.25, n 200: the noise dominates; the sampling term alone misses f_h
  cv2 <- kp_coverage(200, 0.25, 25, list(full = c("sampling", "noise"), sampling_only = "sampling"))
  expect_gte(cv2[["full"]], 0.9)
  expect_lt(cv2[["sampling_only"]], 0.5)
})

test_that("the band's interval holds every mean the two events allow", {
  # {mu in [lo, hi] : |r - mu| <= q + s(mu)} by brute force on a fine grid of mu
  old_rng <- dp_reproducible(3)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  m <- 30
  lo <- rep(0, m)
  hi <- runif(m, 0.5, 2)
  r <- runif(m, -0.5, 2.5)
  q <- runif(m, 0, 0.3)
  n <- 150
  L <- log(2 * m / 0.025)
  iv <- dpfda:::kde_mu_interval(r, q, lo, hi, n, L)
  for (i in seq_len(m)) {
    mu <- seq(lo[i], hi[i], length.out = 20001)
    ok <- abs(r[i] - mu) <= q[i] + dpfda:::kde_bernstein_dev((hi[i] - mu) * (mu - lo[i]), hi[i] - lo[i], n, L)
    if (any(ok)) {
      expect_lte(iv$lower[i], min(mu[ok]) + 1e-9)
      expect_gte(iv$upper[i], max(mu[ok]) - 1e-9)
      expect_lt(iv$upper[i] - max(mu[ok]), 1e-3)
    } else {
      expect_true(iv$empty[i])
    }
  }
  # Bernstein's deviation: P(|mean - mu| > s) <= 2 exp(-L) for a Bernoulli kernel (exact binomial tail)
  p <- 0.02
  s <- dpfda:::kde_bernstein_dev(p * (1 - p), 1, n, L)
  tail <- stats::pbinom(floor(n * (p - s)), n, p) + stats::pbinom(ceiling(n * (p + s)) - 1, n, p, lower.tail = FALSE)
  expect_lte(tail, 2 * exp(-L))
})

test_that("iclp, frl, sobolev and Bernstein density releases have population bands", {
  old_rng <- dp_reproducible(4)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  x <- kp_draw(400)
  for (mech in c("sobolev", "iclp", "frl", "bernstein")) {
    r <- if (mech == "sobolev") dp_kde(x, kp_grid, kp_h, epsilon = 1, delta = 1e-5, mechanism = mech) else
      dp_kde(x, kp_grid, kp_h, epsilon = 1, mechanism = mech)
    ci <- confint(r, type = "population", nsim = 1000)
    expect_true(all(ci$lower <= ci$upper), info = mech)
    expect_match(attr(ci, "method"), if (mech %in% c("iclp", "frl")) "power kernel" else "f_h", info = mech)
  }
  # the ICLP kernel's range: k(t, x) for points between grid nodes stays within [lo, hi]
  r <- dp_kde(x, kp_grid, kp_h, epsilon = 1, mechanism = "iclp")
  kr <- dpfda:::kde_population_kernel(r, 1L)
  b <- r$basis
  Kmat <- r$params$normaliser * b$vectors %*% (b$values^r$params$eta * t(b$vectors))
  for (xx in c(-3.97, -1.23, 0.01, 2.5)) {
    k <- as.vector(Kmat %*% dpfda:::iclp_kde_bin(matrix(xx), list(kp_grid)))
    expect_true(all(k >= kr$lo - 1e-12 & k <= kr$hi + 1e-12))
  }
  # binned estimates add the bound on the binning error
  rb <- dp_kde(x, kp_grid, kp_h, epsilon = 1, delta = 1e-5, binned = TRUE, bins = 200)
  expect_equal(rb$bin_width, 8 / 199)
  pb <- dpfda:::kde_population_band(rb, 0.95, 1000, 1)
  expect_equal(pb$bias, rep((8 / 199)^2 / 8 / (sqrt(2 * pi) * kp_h^3), length(kp_grid)))
  # noise = "exact" rounds before the noise: the band adds at least one step
  for (mech in c("gp", "iclp")) {
    re <- if (mech == "gp") dp_kde(x, kp_grid, kp_h, epsilon = 1, delta = 1e-5, noise = "exact") else
      dp_kde(x, kp_grid, kp_h, epsilon = 1, mechanism = mech, noise = "exact")
    pe <- dpfda:::kde_population_band(re, 0.95, 1000, 1)
    expect_true(all(pe$bias >= re$grid_step), info = mech)
    expect_match(pe$method, "rounding", info = mech)
  }
})

test_that("population bands of densities are refused where the argument does not hold (classed)", {
  old_rng <- dp_reproducible(5)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  x <- kp_draw(200)
  d <- data.frame(x = x, person = rep(1:100, 2))
  ri <- dp_kde(x, kp_grid, kp_h, epsilon = 1, mechanism = "iclp")
  expect_error(confint(ri, type = "population", smoothness = 1), class = "dpfda_error_unsupported")
  r <- dp_kde(x, kp_grid, kp_h, epsilon = 1, delta = 1e-5)
  expect_error(confint(r, type = "simultaneous", smoothness = 1), class = "dpfda_error_argument")
  expect_error(confint(r, type = "population", smoothness = -1), class = "dpfda_error")
  expect_error(confint(r, type = "population", smoothness = "a"), class = "dpfda_error")
  rp <- r
  rp$bandwidth_budget <- list(epsilon = 0.1, delta = 0)   # a bandwidth released from the same data
  expect_error(confint(rp, type = "population"), "independently of the data", class = "dpfda_error_unsupported")
  g2 <- list(seq(-3, 3, length.out = 6), seq(-3, 3, length.out = 6))
  r2 <- dp_kde(cbind(rnorm(100), rnorm(100)), g2, 0.5, epsilon = 1, mechanism = "bernstein", k = 4,
               domain = cbind(c(-3, 3), c(-3, 3)))
  expect_error(confint(r2, type = "population"), "one dimension", class = "dpfda_error_unsupported")
  # the mean's population band takes no smoothness
  mr <- dp_mean(curves(matrix(runif(40), 4), seq(0, 1, length.out = 10)), epsilon = 1, tau = 1)
  expect_error(confint(mr, type = "population", smoothness = 1), class = "dpfda_error_argument")
})

test_that("the explorer's density view draws the population band when it is asked for", {
  ex <- function(name) get(name, envir = asNamespace("dpfda"))
  set <- ex("explore_builtin")()$density$mixture
  p <- ex("explore_defaults")(set, "density")
  p$releases <- 1L
  p$population <- TRUE
  v <- ex("explore_view")("density", set, p, seed = 3)
  expect_true(isTRUE(v$band$population))
  ci <- confint(v$release, type = "population", nsim = 2000)
  expect_equal(v$band$lower, ci$lower)
  expect_equal(v$band$upper, ci$upper)
  p$population <- FALSE
  expect_null(ex("explore_view")("density", set, p, seed = 3)$band$population)
})

test_engines("the population band of a density from a table is the band of memory (binned alike)", function(con) {
  old_rng <- dp_reproducible(6)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  x <- kp_draw(300)
  DBI::dbWriteTable(con, "kp_pts", data.frame(v = x))
  tb <- dplyr::tbl(con, "kp_pts")
  for (mech in c("gp", "iclp")) {
    rel <- function(src, ...) with_seed_mode(7, dp_kde(src, kp_grid, kp_h, epsilon = 1, delta = 1e-5,
                                                      mechanism = mech, ...))
    a <- if (mech == "gp") rel(x, binned = TRUE) else rel(x)
    r <- rel(tb, columns = "v")
    expect_equal(r$bin_width, a$bin_width)
    ca <- confint(a, type = "population", nsim = 1000)
    cr <- confint(r, type = "population", nsim = 1000)
    expect_equal(cr$lower, ca$lower, tolerance = 1e-9)
    expect_equal(cr$upper, ca$upper, tolerance = 1e-9)
  }
})

test_that("a one-dimensional release that does not record its binning is refused, not guessed", {
  old_rng <- dp_reproducible(7)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  r <- dp_kde(kp_draw(100), kp_grid, kp_h, epsilon = 1, delta = 1e-5)
  r$bin_width <- NULL
  expect_error(confint(r, type = "population"), "binned", class = "dpfda_error_unsupported")
})

test_that("the population band of a density with a privacy unit: over units, covers f_h", {
  # persons with 1 to 8 points, strongly correlated within a person (a person effect), every point
  # with the truncated standard normal as its marginal density: the target is f_h
  old_rng <- dp_reproducible(31)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  draw <- function(n_persons) {
    k <- sample(1:8, n_persons, replace = TRUE)
    person <- rep(seq_len(n_persons), k)
    # a person effect u and own noise e with u + e standard normal (correlation 0.8 within a person)
    u <- rnorm(n_persons, 0, sqrt(0.8))[person]
    x <- u + rnorm(length(person), 0, sqrt(0.2))
    keep <- abs(x) <= 4
    data.frame(x = x[keep], person = person[keep])
  }
  hits <- vapply(1:30, function(i) {
    d <- draw(300)
    r <- dp_kde(d, kp_grid, kp_h, epsilon = 4, delta = 1e-5, columns = "x", unit = "person")
    b <- confint(r, type = "population", nsim = 1000)
    all(b$lower <= kp_fh & kp_fh <= b$upper)
  }, NA)
  expect_gte(mean(hits), 0.9)
  d <- draw(300)
  r <- dp_kde(d, kp_grid, kp_h, epsilon = 4, delta = 1e-5, columns = "x", unit = "person")
  expect_equal(r$n, 300)
  b <- confint(r, type = "population")
  expect_match(attr(b, "method"), "averaged over the privacy units")
  # the band counts units: the same points as independent rows give a narrower one
  r_rows <- dp_kde(d$x, kp_grid, kp_h, epsilon = 4, delta = 1e-5)
  b_rows <- confint(r_rows, type = "population")
  expect_gt(mean(b$upper - b$lower), mean(b_rows$upper - b_rows$lower))
})

test_that("the Bernstein band's polynomial bias is the worst law's own, and the band stops at the kernel's peak", {
  # (the general bound 2^(h-1) D^2 / (8 k) sup|f_h''| made the band about 6.6 wide on faithful's
  # eruptions, 12 times the density's peak)
  old_rng <- dp_reproducible(6)   # (seeded noise: the coverage counts are the same every run)
  on.exit(dp_rng(old_rng), add = TRUE)
  x <- kp_draw(300)
  r <- with_seed_mode(6, dp_kde(x, kp_grid, kp_h, epsilon = 1, mechanism = "bernstein", k = 20))
  kr <- dpfda:::kde_population_kernel(r, 1L)
  lat <- r$lattice
  A <- dpfda:::bernstein_map(lat, kp_grid)
  xl <- -4 + (0:lat$k) / lat$k * 8
  # the bias of the polynomial to f_h for one point mass y, and for mixtures: never above the bound
  bias_of <- function(y, w = rep(1 / length(y), length(y))) {
    as.vector(A %*% (stats::dnorm(outer(xl, y, "-"), sd = kp_h) %*% w) -
                stats::dnorm(outer(kp_grid, y, "-"), sd = kp_h) %*% w)
  }
  ys <- c(-4, -3.9, -1.234, 0, 0.5, 2.71, 4, runif(50, -4, 4))
  worst <- apply(abs(vapply(ys, bias_of, numeric(length(kp_grid)))), 1L, max)
  expect_true(all(worst <= kr$poly_exact + 1e-12))
  expect_true(all(abs(bias_of(x)) <= kr$poly_exact + 1e-12))   # the data's own law
  expect_true(all(abs(bias_of(rnorm(500))) <= kr$poly_exact + 1e-12))
  # and it is tight: a fine search over point masses reaches it up to the grid step's margin
  fine <- apply(abs(vapply(seq(-4, 4, length.out = 8001), bias_of, numeric(length(kp_grid)))), 1L, max)
  expect_true(all(fine >= kr$poly_exact - 0.005))
  # far below the general bound
  expect_lt(max(kr$poly_exact), 0.2 * kr$poly * kr$fpp)
  ci <- confint(r, type = "population")
  expect_lte(max(ci$upper), 1 / (sqrt(2 * pi) * kp_h) + 1e-12)
  expect_match(attr(ci, "method"), "the worst law's own bias", fixed = TRUE)
  # coverage of f_h by the narrower band (the bench has the full table)
  hit <- 0
  for (i in 1:20) {
    rr <- dp_kde(kp_draw(300), kp_grid, kp_h, epsilon = 1, mechanism = "bernstein", k = 20)
    b <- dpfda:::kde_population_band(rr, 0.95, 1000, 1)
    hit <- hit + all(b$lower <= kp_fh & kp_fh <= b$upper)
  }
  expect_gte(hit, 19)
})
