# Hall, Rinaldo & Wasserman: private KDE (Sections 4.1, 4.1.1, 4.2).

mixture <- function(n) {
  comp <- rbinom(n, 1, 0.5)
  ifelse(comp == 1, rnorm(n, 0.7, 0.1), rnorm(n, 0.3, 0.1))
}

test_that("T3: sensitivities and noise scales of the paper's figures", {
  expect_equal(sensitivity_kde(100, 0.1), 0.05641896, tolerance = 1e-7)
  expect_equal(dp_noise_scale(sensitivity_kde(100, 0.1), 1, 0.1, "hall"), 0.1380993, tolerance = 1e-6)
  expect_equal(sensitivity_kde(100, 0.1, mechanism = "sobolev"), 0.1263238, tolerance = 1e-6)
  expect_equal(dp_noise_scale(sensitivity_kde(100, 0.1, mechanism = "sobolev"), 1, 0.1, "hall"),
               0.3092086, tolerance = 1e-6)
  for (d in 1:5) {
    expect_equal(sensitivity_kde(37, 0.2^2 * diag(d)), sensitivity_kde(37, 0.2, d = d), tolerance = 1e-12)
  }
  # Sobolev / Gaussian ratio sqrt(2) (2 pi)^(d/4)
  r <- sapply(1:4, function(d) sensitivity_kde(10, 0.3, d, "sobolev") / sensitivity_kde(10, 0.3, d))
  expect_equal(r, c(2.23903, 3.544908, 5.612417, 8.885766), tolerance = 1e-6)
  # log-space normalisation: h^d underflows for d = 600 but the result is finite
  expect_equal(log(sensitivity_kde(10, 0.2, d = 600)),
               0.5 * log(2) - log(10) - 300 * log(2 * pi * 0.04), tolerance = 1e-12)
})

test_that("the C KDE equals a plain-R reference (isotropic, per-dimension, full H)", {
  set.seed(2)
  x <- mixture(100)
  grid <- seq(0, 1, length.out = 101)
  ref <- sapply(grid, function(t) mean(dnorm(t, x, 0.1)))
  expect_equal(as.vector(kde_gaussian(x, grid, 0.1)$values), ref, tolerance = 1e-12)
  x2 <- matrix(runif(60), 30)
  g2 <- as.matrix(expand.grid(seq(0, 1, 0.25), seq(0, 1, 0.25)))
  H <- matrix(c(0.02, 0.005, 0.005, 0.03), 2)
  Hi <- solve(H)
  refH <- apply(g2, 1, function(t) {
    mean(apply(x2, 1, function(xi) exp(-0.5 * drop(t(t - xi) %*% Hi %*% (t - xi))))) /
      (2 * pi * sqrt(det(H)))
  })
  expect_equal(as.vector(kde_gaussian(x2, g2, H)$values), refH, tolerance = 1e-12)
  refD <- apply(g2, 1, function(t) mean(dnorm(t[1], x2[, 1], 0.1) * dnorm(t[2], x2[, 2], 0.3)))
  expect_equal(as.vector(kde_gaussian(x2, g2, c(0.1, 0.3))$values), refD, tolerance = 1e-12)
})

test_that("the binned KDE is close to the exact one", {
  set.seed(3)
  x <- rnorm(5000, 0.5, 0.15)
  grid <- seq(0, 1, length.out = 300)
  e <- kde_gaussian(x, grid, 0.05, binned = FALSE)
  b <- kde_gaussian(x, grid, 0.05, binned = TRUE)
  expect_lt(max(abs(e$values - b$values)), 1e-4 * max(e$values))
  expect_error(kde_gaussian(matrix(x, ncol = 2), list(grid, grid), 0.1, binned = TRUE),
               class = "dpfda_error_argument")
})

test_that("data outside a given domain are clamped; without one they are used as they are", {
  grid <- seq(0, 1, length.out = 11)
  a <- kde_gaussian(c(-5, 0.5, 7), grid, 0.1, domain = c(0, 1))
  b <- kde_gaussian(c(0, 0.5, 1), grid, 0.1, domain = c(0, 1))
  expect_equal(a$values, b$values)
  # (the default clamped to the grid's range: at the single point 3 the estimate of faithful$eruptions was
  # that of 272 points at 3, 1.33, and dp_online(function(t) kde_gaussian(x, t, b)) answered with it)
  x <- faithful$eruptions
  at <- c(3, 1, 4.4)
  exact <- vapply(at, function(t) mean(dnorm(t, x, 0.3)), 1)
  expect_equal(as.vector(kde_gaussian(x, 3, 0.3)$values), exact[1], tolerance = 1e-12)
  f <- kde_gaussian(x, at, 0.3)
  expect_equal(f$values[1, match(at, f$grid)], exact, tolerance = 1e-12)
  expect_equal(as.vector(kde_gaussian(c(-5, 0.5, 7), grid, 0.1)$values), colMeans(outer(c(-5, 0.5, 7), grid, function(a, t)
    dnorm(t, a, 0.1))), tolerance = 1e-12)
  # binned without a domain: the bins span the grid, points beyond it enter exactly
  set.seed(2)
  y <- c(rnorm(500), 6 + rnorm(40), -9)
  g <- seq(-2, 2, length.out = 301)
  e <- kde_gaussian(y, g, 0.2, binned = FALSE)$values
  expect_equal(kde_gaussian(y, g, 0.2, binned = TRUE)$values, e, tolerance = 1e-5)
  expect_equal(as.vector(e), colMeans(outer(y, g, function(a, t) dnorm(t, a, 0.2))), tolerance = 1e-12)
  # the online session's answers are the estimate of all the data at the queried points
  old <- dp_reproducible(3)
  on.exit(dp_rng(old))
  o <- suppressWarnings(dp_online(function(t) kde_gaussian(x, t, 0.3), kernel_gaussian(0.3),   # (epsilon 1e6: noise sd 5e-6)
                                  sensitivity = sensitivity_kde(272, 0.3), epsilon = 1e6, delta = 1e-6,
                                  allow_large_epsilon = TRUE))
  expect_lt(abs(query(o, 3) - exact[1]), 5e-5)
  expect_lt(max(abs(query(o, c(1, 4.4)) - exact[2:3])), 5e-5)
})

test_that("noise of the release has covariance sigma^2 K at 5 grid points (N = 2500)", {
  set.seed(4)
  x <- mixture(100)
  grid <- c(0.1, 0.3, 0.35, 0.6, 0.9)
  f <- as.vector(kde_gaussian(x, grid, 0.1, domain = c(0, 1))$values)
  N <- 2500
  for (mech in c("gp", "sobolev")) {
    res <- with_seed_mode(40, t(replicate(N, predict(dp_kde(x, grid, 0.1, 1, 0.1, mechanism = mech,
                                                           calibration = "hall", domain = c(0, 1))) - f)))
    expect_lt(max(abs(colMeans(res))), 0.1)   # centred on the estimate of the same (clamped) data
    r1 <- dp_kde(x, grid, 0.1, 1, 0.1, mechanism = mech, calibration = "hall", domain = c(0, 1))
    s <- r1$noise_scale
    K <- kernel_matrix(r1$noise, grid)
    tol <- 5 * s^2 * sqrt(2 / N)
    expect_lt(max(abs(empirical_cov(res) - s^2 * K)), tol)
    expect_gt(max(abs(empirical_cov(0.9 * res) - s^2 * K)), tol)  # 10% too little noise is caught
  }
})

test_that("T4/T9: exact delta of the finite projection on worst-case neighbours is <= delta", {
  n <- 100
  h <- 0.1
  grid <- seq(0, 1, length.out = 60)
  a <- 1 / (n * sqrt(2 * pi) * h)
  k <- kernel_gaussian(h)
  for (cal in c("analytic", "hall")) {
    sig <- dp_noise_scale(sensitivity_kde(n, h), 1, 0.1, calibration = cal)
    worst <- 0
    for (pair in list(c(0, 1), c(0.2, 0.8), c(0.5, 0.55), c(0, 0.5))) {
      S <- sort(unique(c(grid, pair)))
      diff <- a * (kernel_matrix(k, S, pair[1]) - kernel_matrix(k, S, pair[2]))
      fct <- chol_jitter(kernel_matrix(k, S))
      z <- forwardsolve(fct$L, diff)
      maha <- sqrt(sum(z^2))
      expect_lte(maha, sensitivity_kde(n, h) * (1 + 1e-8))
      # Proposition 3.4: equality when both points are in S
      expect_equal(maha, a * sqrt(2 - 2 * exp(-diff(pair)^2 / (2 * h^2))), tolerance = 1e-4)
      worst <- max(worst, gaussian_delta(1, sig, maha))
    }
    expect_lte(worst, 0.1)
  }
  # with the analytic calibration the worst case is (nearly) tight, and 10% less noise breaks it
  sig <- dp_noise_scale(sensitivity_kde(n, h), 1, 0.1)
  expect_gt(gaussian_delta(1, 0.9 * sig, sensitivity_kde(n, h)), 0.1)
})

test_that("S4: privacy-loss audit on a 5-point grid matches the Gaussian law", {
  n <- 100
  h <- 0.1
  grid <- c(0, 0.25, 0.5, 0.75, 1)
  k <- kernel_gaussian(h)
  a <- 1 / (n * sqrt(2 * pi) * h)
  dlt <- a * (kernel_matrix(k, grid, 0) - kernel_matrix(k, grid, 1))
  sig <- dp_noise_scale(sensitivity_kde(n, h), 1, 0.1, "hall")
  K <- kernel_matrix(k, grid)
  Ki <- solve(K)
  DS <- sqrt(drop(t(dlt) %*% Ki %*% dlt)) / sig
  noise <- with_seed_mode(7, rgp(20000, k, grid)$values) * sig
  # L = log p_D(X) / p_D'(X) at X = f_D + noise, f_D' = f_D - dlt
  L <- -(noise %*% Ki %*% dlt) / sig^2 - drop(t(dlt) %*% Ki %*% dlt) / (2 * sig^2)
  L <- -L
  expect_equal(mean(L), DS^2 / 2, tolerance = 0.1)
  expect_equal(var(as.vector(L)), DS^2, tolerance = 0.1)
  expect_lte(mean(L > 1), 0.1)
})

test_that("S6: figure residual root-mean-squares are 0.138 (gp) and 0.309 (sobolev)", {
  set.seed(1)
  x <- mixture(100)
  grid <- seq(0, 1, length.out = 1000)
  f <- as.vector(kde_gaussian(x, grid, 0.1)$values)
  r1 <- with_seed_mode(1, dp_kde(x, grid, 0.1, 1, 0.1, calibration = "hall"))
  r2 <- with_seed_mode(1, dp_kde(x, grid, 0.1, 1, 0.1, mechanism = "sobolev", calibration = "hall"))
  expect_equal(r1$noise_scale, 0.1380993, tolerance = 1e-6)
  expect_equal(r2$noise_scale, 0.3092086, tolerance = 1e-6)
  rms_over <- function(mech, seeds) mean(sapply(seeds, function(s) {
    r <- predict(with_seed_mode(s, dp_kde(x, grid, 0.1, 1, 0.1, mechanism = mech, calibration = "hall")))
    sqrt(mean((r - f)^2))
  })^2)^0.5
  expect_equal(rms_over("gp", 1:40), 0.138, tolerance = 0.1)
  expect_equal(rms_over("sobolev", 1:40), 0.309, tolerance = 0.1)
})

test_that("releases hold no data, print their settings, and need public grid and bandwidth", {
  x <- runif(50)
  r <- dp_kde(x, seq(0, 1, length.out = 20), 0.1, 1, 1e-5)
  expect_invisible(validate_dpfda_release(r))
  expect_false(any(vapply(r, function(v) identical(v, x), NA)))
  expect_s3_class(r, "dpfda_kde_release")
  expect_error(dp_kde(x, bandwidth = 0.1, epsilon = 1, delta = 0.1), class = "dpfda_error_argument")
  expect_error(dp_kde(x, seq(0, 1, 0.1), epsilon = 1, delta = 0.1), class = "dpfda_error_argument")
  expect_error(dp_kde(x, seq(0, 1, 0.1), diag(2), 1, 0.1), class = "dpfda_error_argument")
  expect_error(dp_kde(x, seq(0, 1, 0.1), 0.1, 2, 0.1, calibration = "hall"), class = "dpfda_error_privacy")
  expect_error(dp_kde(matrix(x, 25), list(1:3, 1:3), c(0.1, 0.2), 1, 0.1, mechanism = "sobolev"),
               class = "dpfda_error_argument")
  d <- as_density(r)
  expect_equal(integrate_curves(d), 1)
})

test_that("large n: the binned release of 1e6 points on 1000 grid points is fast", {
  x <- rnorm(1e6, 0.5, 0.15)
  tm <- cpu_seconds(r <- dp_kde(x, seq(0, 1, length.out = 1000), 0.02, 1, 1e-6, domain = c(0, 1)))
  expect_lt(tm, 5)
  expect_identical(r$sensitivity, sensitivity_kde(1e6, 0.02))
})

test_that("T2: the tail step of Proposition 2.4 holds for c(delta)", {
  for (del in 10^seq(-12, -0.3, by = 0.1)) {
    cc <- dp_cdelta(del)
    expect_lte(pnorm(cc - 1 / (2 * cc), lower.tail = FALSE), del)
  }
})

test_that("T5: Sobolev norm of kernel sections and the KDE bound of Section 4.2", {
  g <- 3
  ks <- function(s) function(t) exp(-g * abs(t - s))
  dks <- function(s) function(t) -g * sign(t - s) * exp(-g * abs(t - s))
  expect_equal(sobolev_norm_1d(ks(0), dks(0), g), 1, tolerance = 1e-6)
  expect_equal(sobolev_norm_1d(ks(0.4), dks(0.4), g), 1, tolerance = 1e-6)
  dif <- function(t) ks(0.2)(t) - ks(0.7)(t)
  ddif <- function(t) dks(0.2)(t) - dks(0.7)(t)
  expect_equal(sobolev_norm_1d(dif, ddif, g)^2, 2 - 2 * exp(-g * 0.5), tolerance = 1e-6)
  # ||phi_a - phi_b|| <= 2 / ((2 pi)^(1/4) h) for the Gaussian bump at h = 0.1, gamma = 1/h
  h <- 0.1
  phi <- function(a) function(t) dnorm(t, a, h)
  dphi <- function(a) function(t) -(t - a) / h^2 * dnorm(t, a, h)
  worst <- 0
  for (a in seq(-0.3, 1.3, by = 0.2)) for (b in seq(-0.3, 1.3, by = 0.2)) {
    nrm <- sobolev_norm_1d(function(t) phi(a)(t) - phi(b)(t),
                           function(t) dphi(a)(t) - dphi(b)(t), 1 / h)
    worst <- max(worst, nrm)
  }
  expect_lte(worst, 2 / ((2 * pi)^(1 / 4) * h))
  expect_gt(worst, 5)   # the bound is about 2x conservative (spec: 6.674 vs 12.632)
  expect_equal(100 * sensitivity_kde(100, h, mechanism = "sobolev"), 2 / ((2 * pi)^(1 / 4) * h))
})

test_that("dp_kde(mechanism = 'bernstein') releases a lattice and evaluates it on the grid", {
  set.seed(12)
  x <- mixture(500)
  grid <- seq(0, 1, length.out = 101)
  r <- with_seed_mode(3, dp_kde(x, grid, 0.1, epsilon = 1, delta = 0, mechanism = "bernstein", k = 20, h = 3,
                                domain = c(0, 1)))
  expect_s3_class(r, "dpfda_kde_release")
  expect_identical(r$delta, 0)
  expect_equal(r$sensitivity, sensitivity_bernstein_kde(500, 0.1))
  expect_equal(r$noise_scale, r$sensitivity * 21 / 1)
  expect_equal(predict(r), predict(r$lattice, grid))
  expect_equal(predict(r, c(0.25, 0.5)), predict(r$lattice, c(0.25, 0.5)))
  expect_invisible(validate_dpfda_release(r))
  g <- with_seed_mode(3, dp_kde(x, grid, 0.1, epsilon = 1, delta = 1e-5, mechanism = "bernstein", domain = c(0, 1)))
  expect_identical(g$lattice$noise_type, "gaussian")
  # one degree per axis given as dp_bernstein() takes it: equal degrees are that degree, others refused by name
  set.seed(13)
  x2 <- cbind(runif(200), runif(200))
  g2 <- list(seq(0, 1, length.out = 6), seq(0, 1, length.out = 7))
  k2 <- function(k) with_seed_mode(3, dp_kde(x2, g2, 0.2, epsilon = 1, mechanism = "bernstein", k = k, h = 1,
                                             domain = rbind(c(0, 0), c(1, 1))))
  expect_identical(k2(c(8, 8))$values, k2(8)$values)
  expect_error(k2(c(8, 12)), "one degree `k` on every axis", class = "dpfda_error_argument")
})

test_that("without `grid`, a public domain gives dp_kde() its default grid (101 points; 51 per axis in 2-D)", {
  rel <- function(...) {
    old <- dp_reproducible(8)
    on.exit(dp_rng(old))
    dp_kde(..., epsilon = 1, delta = 1e-6)
  }
  a <- rel(precip, domain = c(0, 70), bandwidth = 5)
  b <- rel(precip, grid = seq(0, 70, length.out = 101), domain = c(0, 70), bandwidth = 5)
  expect_identical(a$values$grid, b$values$grid)
  expect_identical(a$values$values, b$values$values)
  dom <- cbind(duration = c(0, 6), waiting = c(40, 110))   # (the names take the columns of MASS::geyser's order)
  g <- data.frame(waiting = rep(seq(40, 110, length.out = 20), 2), duration = rep(c(1, 5), each = 20))
  a <- rel(g, domain = dom, bandwidth = c(duration = 0.5, waiting = 5))
  b <- rel(g, grid = list(duration = seq(0, 6, length.out = 51), waiting = seq(40, 110, length.out = 51)),
           domain = dom, bandwidth = c(duration = 0.5, waiting = 5))
  expect_equal(dim(a$values$grid), c(51L * 51L, 2L))
  expect_identical(a$values$values, b$values$values)
  # no domain, or one in three dimensions: the grid is required, and the message says how to get one
  e <- expect_error(dp_kde(precip, bandwidth = 5, epsilon = 1, delta = 1e-6), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "or a public `domain` (c(lower, upper)", fixed = TRUE)
  expect_identical(e$arg, "grid")
  expect_error(dp_kde(matrix(runif(30), 10), bandwidth = 0.1, epsilon = 1, delta = 1e-6, domain = rbind(rep(0, 3), 1)),
               "`grid` is required", class = "dpfda_error_argument")
  # a domain that cannot be one is named
  expect_error(dp_kde(precip, bandwidth = 5, epsilon = 1, delta = 1e-6, domain = c(70, 0)), "Did you mean c\\(0, 70\\)",
               class = "dpfda_error_argument")
  expect_error(dp_kde(precip, bandwidth = 5, epsilon = 1, delta = 1e-6, domain = c(0, Inf)), "`domain` must be",
               class = "dpfda_error_argument")
})

test_that("a domain may be a list of ranges, one per axis; one written an axis per row is named", {
  rel <- function(...) {
    old <- dp_reproducible(8)
    on.exit(dp_rng(old))
    dp_kde(..., epsilon = 1, delta = 1e-6)
  }
  q <- quakes[1:200, ]
  a <- rel(q, columns = c("long", "lat"), domain = list(long = c(160, 190), lat = c(-40, -10)), bandwidth = c(1, 1))
  b <- rel(q, columns = c("long", "lat"), domain = cbind(long = c(160, 190), lat = c(-40, -10)), bandwidth = c(1, 1))
  expect_identical(a$values$values, b$values$values)
  expect_identical(a$values$grid, b$values$grid)
  # (the list's names take the columns, as a matrix's column names do)
  b2 <- rel(q[, c("lat", "long")], domain = list(long = c(160, 190), lat = c(-40, -10)), bandwidth = c(1, 1))
  expect_identical(b2$values$values, a$values$values)
  # one dimension, and the summary and the bandwidth take it too
  expect_identical(rel(precip, domain = list(c(0, 70)), bandwidth = 5)$values$values,
                   rel(precip, domain = c(0, 70), bandwidth = 5)$values$values)
  expect_equal(summarise_kde(q, list(seq(160, 190, 5), seq(-40, -10, 5)), c(1, 1), columns = c("long", "lat"),
                             domain = list(c(160, 190), c(-40, -10)))$f,
               summarise_kde(q, list(seq(160, 190, 5), seq(-40, -10, 5)), c(1, 1), columns = c("long", "lat"),
                             domain = cbind(c(160, 190), c(-40, -10)))$f)
  # rbind(xlim, ylim) holds an axis per row: before, "`grid` is required", with the domain given
  e <- expect_error(rel(q, columns = c("long", "lat"), domain = rbind(c(160, 190), c(-40, -10)), bandwidth = c(1, 1)),
                    class = "dpfda_error_argument")
  expect_identical(e$arg, "domain")
  expect_match(conditionMessage(e), "rows c(160, 190), c(-40, -10)). It holds one axis per row: did you mean t(domain)?",
               fixed = TRUE)
  g <- list(seq(160, 190, 5), seq(-40, -10, 5))
  e <- expect_error(rel(q, g, columns = c("long", "lat"), domain = rbind(c(160, 190), c(-40, -10)), bandwidth = c(1, 1)),
                    "did you mean t\\(domain\\)", class = "dpfda_error_argument")
  expect_error(rel(q, columns = c("long", "lat"), domain = list(c(160, 190), "a"), bandwidth = c(1, 1)),
               "element 2 is \"a\"", class = "dpfda_error_argument")
  expect_error(rel(q, columns = c("long", "lat"), domain = "world", bandwidth = c(1, 1)),
               "`domain` gives no default grid", class = "dpfda_error_argument")
})

test_that("dp_kde() says when points in memory were moved to the ends of a grid over part of the data", {
  # (a zoom on [3, 4] of faithful's eruptions released 0.49 at 3, where the density is 0.055, without a word)
  x <- faithful$eruptions
  g <- seq(3, 4, by = 0.05)
  w <- expect_warning(r <- with_seed_mode(1, dp_kde(x, g, 0.3, epsilon = 1, delta = 1e-6)), class = "dpfda_warning_data")
  expect_match(conditionMessage(w), "229 of the 272 points lie outside the range of the grid \\(\\[3, 4\\]\\)")
  expect_match(conditionMessage(w), "Give `domain`")
  # with a public domain the release is that of all the points on the grid, and nothing is said
  r2 <- expect_silent(with_seed_mode(1, dp_kde(x, g, 0.3, epsilon = 1, delta = 1e-6, domain = c(1, 6))))
  f <- kde_gaussian(x, g, 0.3)$values[1, ]
  expect_lt(max(abs(predict(r2) - f)), 6 * r2$noise_scale)
  expect_gt(max(abs(predict(r) - f)), 0.3)   # the piled-up release is far from it
  for (mech in c("bernstein", "iclp")) {
    expect_warning(with_seed_mode(1, dp_kde(x, g, 0.3, epsilon = 1, mechanism = mech)), "229 of the 272",
                   class = "dpfda_warning_data")
  }
  expect_warning(with_seed_mode(1, dp_kde(cbind(x, faithful$waiting), list(g, seq(60, 80, by = 5)), c(0.3, 5),
                                          epsilon = 1, delta = 1e-6)), "moved to its edges", class = "dpfda_warning_data")
  # no warning for data inside the grid, nor before an error about another argument
  expect_silent(with_seed_mode(1, dp_kde(x, seq(1, 6, by = 0.25), 0.3, epsilon = 1, delta = 1e-6)))
  said <- 0   # (the missing delta is found after the points were looked at)
  expect_error(withCallingHandlers(dp_kde(x, g, 0.3, epsilon = 1), warning = function(w) {
    said <<- said + 1
    invokeRestart("muffleWarning")
  }), "delta", class = "dpfda_error")
  expect_identical(said, 0)
})

test_that("`columns` selects columns of a matrix with column names (scale()), as of a data frame", {
  # (refused before: "`x` is a double vector of length 598")
  g <- scale(MASS::geyser)
  grid <- list(seq(-2, 2, length.out = 5), seq(-2, 2, length.out = 6))
  dom <- rbind(c(-4, -4), c(4, 4))   # (the data's public bounds: none is moved to the grid's edges)
  a <- with_seed_mode(3, dp_kde(g, grid, 0.5, epsilon = 1, delta = 1e-6, columns = c(duration, waiting), domain = dom))
  b <- with_seed_mode(3, dp_kde(as.data.frame(g), grid, 0.5, epsilon = 1, delta = 1e-6, columns = c("duration", "waiting"),
                                domain = dom))
  expect_identical(a$values$values, b$values$values)
  expect_identical(a$values$arg_name, c("duration", "waiting"))
  k <- function(x, ...) with_seed_mode(4, dp_kme(x, kernel_gaussian(1), epsilon = 1, delta = 1e-6, M = 20,
                                                  domain = rbind(c(-3, -3), c(3, 3)), ...))
  expect_identical(k(g, columns = c("waiting", "duration"))$weights, k(as.data.frame(g), columns = c(waiting, duration))$weights)
  expect_error(dp_kde(unname(g), grid, 0.5, epsilon = 1, delta = 1e-6, columns = c("duration", "waiting")),
               "299 x 2 matrix without column names", class = "dpfda_error_argument")
  expect_error(dp_kde(g, grid, 0.5, epsilon = 1, delta = 1e-6, columns = c("duration", "nope")), "nope",
               class = "dpfda_error_argument")
})

test_that("a density release that is mostly noise warns: noise against the largest estimate the bandwidth allows", {
  old <- options(dpfda.utility_warning = TRUE)   # (the helper silences it for the other tests)
  on.exit(options(old))
  x <- faithful$eruptions
  g <- seq(1, 6, length.out = 101)
  noise_l2 <- function(r) {
    law <- dpfda:::noise_law(r)
    sqrt(sum(law$weights * law$var))
  }
  # the public signal size is the norm of the estimate from one point: the Gaussian kernel's own norm,
  # checked against a single point's KDE on a fine grid far from its ends (1-D and 2-D)
  r <- with_seed_mode(1, dp_kde(x, g, 0.3, epsilon = 1, delta = 1e-6))
  s <- dpfda:::kde_signal_l2(r)
  expect_equal(s, 1 / sqrt(2 * sqrt(pi) * 0.3))
  fine <- seq(-3, 3, length.out = 2001)
  one <- kde_gaussian(0, fine, 0.3)
  expect_equal(sqrt(sum(dpfda:::quadrature_weights(fine) * as.vector(one$values)^2)), s, tolerance = 1e-6)
  r2 <- with_seed_mode(1, dp_kde(cbind(x, faithful$waiting), list(g, seq(40, 100, by = 5)), c(0.3, 5),
                                 epsilon = 1, delta = 1e-6))
  expect_equal(dpfda:::kde_signal_l2(r2), sqrt(1 / (4 * pi * 0.3 * 5)))
  # ICLP and FRL: the norm of the (nearly) noiseless release of one point at the centre of the domain
  # (FRL: of its first M = 3 components only)
  for (m in c("iclp", "frl")) {
    one <- with_seed_mode(2, dp_kde(3.5, g, 0.3, epsilon = 1e4, mechanism = m, M = 3, domain = c(1, 6), noise = "exact"))
    expect_equal(dpfda:::kde_signal_l2(one), sqrt(sum(dpfda:::quadrature_weights(g) * as.vector(one$values$values)^2)),
                 tolerance = 3e-3, info = m)   # (the discrete noise)
  }
  # the warning fires exactly when the expected L2 noise exceeds half of that size, for each mechanism
  for (m in c("gp", "iclp", "bernstein")) {
    seen <- logical()
    for (eps in c(0.05, 0.1, 0.3, 1)) {
      said <- NULL
      r <- withCallingHandlers(with_seed_mode(3, dp_kde(x, g, 0.3, epsilon = eps, delta = if (m == "gp") 1e-6 else 0,
                                                        mechanism = m)),
                               dpfda_warning_utility = function(w) {
                                 said <<- conditionMessage(w)
                                 invokeRestart("muffleWarning")
                               })
      expect_identical(!is.null(said), noise_l2(r) > dpfda:::kde_signal_l2(r) / 2, info = paste(m, eps))
      if (!is.null(said)) expect_match(said, "estimate from one point.*larger bandwidth", info = m)
      seen <- c(seen, !is.null(said))
    }
    expect_true(any(seen) && !all(seen), info = m)   # (both sides of the rule are reached)
  }
  # the rule is public: all the points in one place (the largest signal) warn the same
  expect_warning(with_seed_mode(4, dp_kde(rep(3.5, 272), g, 0.3, epsilon = 0.05, delta = 1e-6)),
                 class = "dpfda_warning_utility")
  # a larger bandwidth takes the same data and budget below the threshold
  expect_no_warning(with_seed_mode(4, dp_kde(x, g, 1, epsilon = 0.1, delta = 1e-6)))
})

test_that("dp_kde(): a reversed grid is sorted by every mechanism, delta = NULL is delta omitted, a 3-D grid is asked for", {
  x <- faithful$waiting
  g <- seq(40, 100, by = 2)
  for (m in c("bernstein", "iclp", "frl")) {
    a <- suppressWarnings(with_seed_mode(1, dp_kde(x, g, 4, 1, mechanism = m, domain = c(40, 100))))
    b <- suppressWarnings(with_seed_mode(1, dp_kde(x, rev(g), 4, 1, NULL, mechanism = m, domain = c(40, 100))))
    expect_identical(b$values$grid, g)   # (Bernstein kept the grid reversed)
    expect_identical(a$values$values, b$values$values)
    expect_identical(b$delta, 0)
  }
  expect_error(dp_kde(x, g, 4, 1, NULL, domain = c(40, 100)), "adds Gaussian noise", class = "dpfda_error_privacy")
  e <- expect_error(dp_kde(trees, bandwidth = c(2, 5, 10), epsilon = 1, delta = 1e-6,
                           domain = list(c(8, 21), c(60, 90), c(10, 80))))
  expect_match(conditionMessage(e), "in three or more dimensions there is no default grid", fixed = TRUE)
})

test_that("dp_kde() of a summary refuses a `bins` other than the summary's (it was ignored in silence)", {
  g <- seq(0, 70, length.out = 141)
  s8 <- summarise_kde(precip, grid = g, bandwidth = 3, bins = 8)
  expect_error(dp_kde(s8, g, 3, epsilon = 1, delta = 1e-5, bins = 4096), "binned onto 8 bins",
               class = "dpfda_error_argument")
  a <- with_seed_mode(1, dp_kde(s8, g, 3, epsilon = 1, delta = 1e-5, bins = 8))
  b <- with_seed_mode(1, dp_kde(precip, g, 3, epsilon = 1, delta = 1e-5, bins = 8, binned = TRUE))
  expect_equal(a$values$values, b$values$values, tolerance = 1e-12)
  expect_equal(with_seed_mode(1, dp_kde(s8, g, 3, epsilon = 1, delta = 1e-5))$values$values, a$values$values)
})

test_that("a named bandwidth in another order than the grid's axes: the message names the grid, not `columns`", {
  gl <- list(long = seq(165, 190, length.out = 6), lat = seq(-40, -10, length.out = 7))
  e <- expect_error(dp_kde(quakes, gl, c(lat = 2, long = 1), epsilon = 1, delta = 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "but `grid` (its axes) takes \"long\", \"lat\"", fixed = TRUE)
  expect_identical(e$arg, "bandwidth")
  e2 <- expect_error(dp_kde(quakes, gl, c(lat = 2, long = 1), epsilon = 1, delta = 1e-5, columns = c("long", "lat")),
                     class = "dpfda_error_argument")
  expect_match(conditionMessage(e2), "but `columns` takes", fixed = TRUE)
  # (in the grid's order it runs)
  expect_s3_class(dp_kde(quakes, gl, c(long = 1, lat = 2), epsilon = 1, delta = 1e-5), "dpfda_release")
})
