# confint() for releases: coverage of the true privacy noise by simulation
# (releases of known, noise-free targets; fixed seeds), and the tidy outputs.

ci_grid <- seq(0, 1, length.out = 31)
ci_zero <- curves(matrix(0, 40, length(ci_grid)), ci_grid)

# Empirical coverage over R releases: the release minus the known target must
# lie within the band; returns pointwise coverage at a few points and the
# simultaneous coverage.
coverage <- function(make, target, R, level = 0.9, seed = 1) {
  r1 <- with_seed_mode(seed, make())
  pw <- confint(r1, level = level, nsim = 4000)
  sm <- confint(r1, level = level, type = "simultaneous", nsim = 4000)
  hp <- pw$upper - pw$estimate
  hs <- sm$upper - sm$estimate
  N <- with_seed_mode(seed + 1, t(vapply(seq_len(R), function(i) predict(make()) - target,
                                         numeric(length(target)))))
  list(pointwise = colMeans(abs(N) <= rep(hp, each = R)),
       simultaneous = mean(apply(abs(N) <= rep(hs, each = R), 1, all)),
       method_pw = attr(pw, "method"), method_sm = attr(sm, "method"))
}

# Honest binomial tolerance: 4 standard errors of a proportion.
tol <- function(level, R) 4 * sqrt(level * (1 - level) / R)

test_that("bands of Gaussian-process noise cover at their level (exact pointwise, simulated simultaneous)", {
  g <- seq(0, 1, length.out = 41)
  f <- sin(2 * pi * g)
  R <- 400
  cv <- coverage(function() dp_gp_release(f, g, kernel_gaussian(0.15), sensitivity = 0.1, epsilon = 1,
                                          delta = 1e-5), f, R, level = 0.9, seed = 10)
  expect_match(cv$method_pw, "^exact")
  expect_match(cv$method_sm, "exact Gaussian")
  expect_lt(abs(cv$simultaneous - 0.9), tol(0.9, R))
  # pointwise coverage averaged over the grid (correlated, so compare at three points too)
  expect_lt(abs(mean(cv$pointwise) - 0.9), tol(0.9, R))
  for (j in c(1, 20, 41)) expect_lt(abs(cv$pointwise[j] - 0.9), tol(0.9, R))
})

test_that("bands of Laplace-type noise (ICLP, FRL, Bernstein polynomial) cover at their level", {
  R <- 300
  for (m in c("iclp_qr", "frl", "bernstein")) {
    cv <- coverage(function() suppressWarnings(dp_mean(ci_zero, epsilon = 1, tau = 1, mechanism = m)),
                   numeric(length(ci_grid)), R, level = 0.8, seed = 20)
    expect_match(cv$method_pw, "Monte Carlo", info = m)
    expect_match(cv$method_sm, "Monte Carlo", info = m)
    expect_lt(abs(cv$simultaneous - 0.8), tol(0.8, R), label = paste(m, "simultaneous"))
    expect_lt(abs(cv$pointwise[16] - 0.8), tol(0.8, R), label = paste(m, "pointwise"))
  }
})

test_that("independent lattice noise gets exact bands that cover", {
  R <- 400
  f <- function(t) t^2
  lat <- (0:10) / 10
  cv <- coverage(function() dp_bernstein(f, sensitivity = 0.01, epsilon = 1, k = 10), f(lat), R,
                 level = 0.9, seed = 30)
  expect_match(cv$method_pw, "^exact")
  expect_match(cv$method_sm, "^exact")
  expect_lt(abs(cv$simultaneous - 0.9), tol(0.9, R))
  expect_lt(abs(mean(cv$pointwise) - 0.9), tol(0.9, R))
  # the exact pointwise half-width of Laplace(b) at level p is b log(1 / (1 - p))
  r <- with_seed_mode(1, dp_bernstein(f, sensitivity = 0.01, epsilon = 1, k = 10))
  ci <- confint(r, level = 0.9)
  expect_equal(ci$upper - ci$estimate, rep(r$noise_scale * log(10), 11))
  # simultaneous (Sidak, exact for independent coordinates): (1 - exp(-c / b))^11 = 0.9
  cs <- confint(r, level = 0.9, type = "simultaneous")
  expect_equal((1 - exp(-(cs$upper - cs$estimate) / r$noise_scale))^11, rep(0.9, 11))
})

test_that("confint has the documented shape and states its method", {
  r <- with_seed_mode(2, dp_mean(ci_zero, epsilon = 1, tau = 1))
  ci <- confint(r)
  expect_s3_class(ci, "dpfda_confint")
  expect_named(ci, c("id", "arg", "estimate", "se", "lower", "upper"))
  expect_equal(nrow(ci), length(ci_grid))
  expect_equal(ci$estimate, predict(r))
  expect_true(all(ci$lower < ci$estimate & ci$estimate < ci$upper))
  expect_equal(attr(ci, "level"), 0.95)
  expect_equal(attr(ci, "type"), "pointwise")
  # wider at a higher level; simultaneous wider than pointwise
  expect_true(all(confint(r, level = 0.99)$upper > ci$upper))
  expect_true(all(confint(r, type = "simultaneous")$upper > ci$upper))
  # deterministic (fixed public seed) and leaves the caller's RNG alone
  set.seed(5)
  s <- .Random.seed
  expect_identical(confint(r), ci)
  expect_identical(.Random.seed, s)
  expect_output(print(ci), "pointwise 95% band of the privacy noise")
  expect_error(confint(r, level = 1.5), class = "dpfda_error_argument")
  expect_error(confint(r, type = "both"), class = "dpfda_error_argument")
})

test_that("confint(parm = ) returns those rows of the band computed on the whole grid", {
  # (parm was ignored: confint(r, parm = 1:3) returned every grid point)
  r <- with_seed_mode(2, dp_mean(ci_zero, epsilon = 1, tau = 1))
  for (type in c("pointwise", "simultaneous")) {
    all <- confint(r, type = type)
    some <- confint(r, parm = c(5, 2), type = type)
    expect_s3_class(some, "dpfda_confint")
    expect_equal(unclass(some)[names(all)], lapply(unclass(all[c(5, 2), ]), unname), ignore_attr = TRUE)
    expect_identical(attributes(some)[c("level", "type", "method")], attributes(all)[c("level", "type", "method")])
    expect_identical(confint(r, parm = seq_len(nrow(all)) == 3, type = type)$upper, all$upper[3])
  }
  for (bad in list(0, nrow(confint(r)) + 1, 1.5, "t1", NA, c(TRUE, FALSE))) {
    e <- expect_error(confint(r, parm = bad), class = "dpfda_error_argument")
    expect_identical(e$arg, "parm")
  }
})

test_that("as.data.frame, tidy and glance of releases", {
  r <- with_seed_mode(3, dp_gp_release(function(t) t, ci_grid, kernel_matern(5 / 2, 0.2), sensitivity = 0.1,
                                       epsilon = 1, delta = 1e-5))
  d <- as.data.frame(r)
  expect_named(d, c("id", "arg", "value", "se", "lower", "upper"))
  sd <- dp_noise_scale(0.1, 1, 1e-5)
  expect_equal(d$se, rep(sd, length(ci_grid)))
  expect_equal(d$upper - d$value, rep(qnorm(0.975) * sd, length(ci_grid)))
  expect_equal(as.data.frame(r, level = 0.5)$upper - d$value, rep(qnorm(0.75) * sd, length(ci_grid)))
  td <- tidy(r)
  expect_named(td, c("id", "arg", "estimate", "std.error", "conf.low", "conf.high"))
  expect_equal(td$conf.low, d$lower)
  expect_named(tidy(r, conf.int = FALSE), c("id", "arg", "estimate", "std.error"))
  gl <- glance(r)
  expect_equal(nrow(gl), 1L)
  for (nm in c("mechanism", "epsilon", "delta", "sensitivity", "noise_scale", "noise_sd_max", "expected_l2",
               "tau", "n")) expect_true(nm %in% names(gl), label = nm)
  expect_equal(gl$noise_sd_max, sd)
  expect_identical(tidy, generics::tidy)
  expect_identical(glance, generics::glance)
  # the public settings of a mean release
  m <- with_seed_mode(3, dp_mean(ci_zero, epsilon = 0.5, tau = 2))
  gm <- glance(m)
  expect_equal(c(gm$epsilon, gm$tau, gm$n), c(0.5, 2, 40))
  expect_equal(gm$expected_l2, dp_accuracy(m)$expected_l2)
  # the privacy unit as the print states it: curves, persons, records of a frequency table, a regression's
  expect_identical(gm$privacy_unit, "one curve (40)")
  mu <- with_seed_mode(3, dp_mean(ci_zero, epsilon = 0.5, tau = 2, unit = rep(1:10, each = 4)))
  expect_identical(glance(mu)$privacy_unit, "unit (10 units)")
  kc <- with_seed_mode(3, dp_kde(c(0.2, 0.5), seq(0, 1, 0.1), 0.1, epsilon = 1, delta = 1e-6, counts = c(30, 12)))
  expect_identical(glance(kc)$privacy_unit, "one record (42)")
  bx <- with_seed_mode(3, dp_bin_regression(runif(30), runif(30), bins = 3, y_bound = c(0, 1), epsilon = 1,
                                            domain = c(0, 1)))
  for (rel in list(m, mu, kc, bx)) {
    expect_output(print(rel), sprintf("privacy unit: %s", glance(rel)$privacy_unit), fixed = TRUE)
  }
})

test_that("releases without additive noise on their values get NA bands and an unsupported error", {
  r <- new_dpfda_release(curves(sin(ci_grid), ci_grid), mechanism = "example", epsilon = 1, delta = 0,
                         sensitivity = 1, noise_scale = 1, noise = "none")
  expect_error(confint(r), class = "dpfda_error_unsupported")
  d <- as.data.frame(r)
  expect_true(all(is.na(d$se) & is.na(d$lower) & is.na(d$upper)))
  expect_true(is.na(glance(r)$expected_l2))
  expect_output(print(r), "example mechanism")
})

test_that("confint covers GP regression, binning and covariance releases", {
  set.seed(1)
  x <- runif(30)
  y <- sin(2 * pi * x)
  g <- seq(0, 1, length.out = 11)
  r <- with_seed_mode(1, suppressWarnings(dp_gp_regression(x, y, g, kernel_gaussian(0.2), noise_variance = 0.1,
                                                           y_bound = c(-1, 1), epsilon = 1, delta = 0.01)))
  ci <- confint(r)
  expect_equal(ci$se, sqrt(diag(r$noise_covariance)))
  b <- with_seed_mode(1, dp_bin_regression(x, y, bins = 5, y_bound = c(-1, 1), epsilon = 1, domain = c(0, 1)))
  cb <- confint(b, level = 0.9)
  expect_equal(cb$upper - cb$estimate, b$laplace_scale * log(10))
  cv <- with_seed_mode(1, dp_cov(curves(matrix(0, 20, 9), seq(0, 1, length.out = 9)), epsilon = 1, tau = 1,
                                 J = 3))
  cc <- confint(cv, type = "simultaneous", nsim = 500)
  expect_equal(nrow(cc), 81L)
  expect_true(all(cc$lower <= cc$estimate))
})

test_that("plots use the curves' column names and label the band and the reference", {
  r <- with_seed_mode(7, dp_mean(ci_zero, epsilon = 1, tau = 1))
  expect_equal(dpfda:::curves_arg_label(r$values), "t")
  expect_equal(dpfda:::curves_value_label(r$values), "value")
  r$values$arg_name <- "age"
  r$values$value_name <- "height"
  expect_equal(dpfda:::curves_arg_label(r$values), "age")
  expect_equal(dpfda:::curves_value_label(r$values), "height")
  b <- dpfda:::release_band(r, "simultaneous", 0.9)
  expect_match(b$label, "90% simultaneous band of the privacy noise")
  expect_null(dpfda:::release_band(r, FALSE, 0.9))
  expect_error(dpfda:::release_band(r, "sideways", 0.9), class = "dpfda_error_argument")
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(r, band = TRUE, reference = numeric(length(ci_grid))))
  expect_invisible(plot(r, band = "simultaneous", level = 0.8))
  expect_invisible(plot(r$values))
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(r, band = TRUE, reference = numeric(length(ci_grid)))
  expect_s3_class(p, "ggplot")
  lab <- p$labels
  expect_equal(lab$x, "age")
  expect_equal(lab$y, "height")
  built <- ggplot2::ggplot_build(p)
  expect_true(any(vapply(built$data, function(d) "ymin" %in% names(d), NA)))   # the band is drawn
  expect_true("95% pointwise band of the privacy noise" %in% unlist(lapply(built$plot$scales$scales,
                                                                       function(s) s$get_labels())))
  q <- ggplot2::autoplot(r$values)
  expect_null(q$labels$colour)                                                  # no "curve: 1" legend
})

test_that("the noise laws of dp_kde()'s ICLP and FRL releases match simulation", {
  set.seed(8)
  p <- runif(300)
  g <- seq(0, 1, length.out = 41)
  for (m in c("iclp", "frl")) {
    # the KDE summary does not depend on epsilon: a release at epsilon = 1e9 is the summary
    r0 <- with_seed_mode(8, dpfda:::without_float_tail_check(dp_kde(p, g, bandwidth = 0.1, epsilon = 1e9, mechanism = m, domain = c(0, 1))))
    N <- with_seed_mode(9, t(replicate(150, predict(dp_kde(p, g, bandwidth = 0.1, epsilon = 1, mechanism = m,
                                                           domain = c(0, 1))) - predict(r0))))
    r <- with_seed_mode(9, dp_kde(p, g, bandwidth = 0.1, epsilon = 1, mechanism = m, domain = c(0, 1)))
    v <- dp_accuracy(r, nsim = 100)$pointwise_sd^2
    expect_lt(abs(mean(N^2) / mean(v) - 1), 0.15, label = m)
    ci <- confint(r, level = 0.9, nsim = 2000)
    expect_lt(abs(mean(abs(N) <= rep(ci$upper - ci$estimate, each = nrow(N))) - 0.9), tol(0.9, 150), label = m)
  }
})

# ---- dp_kme() -------------------------------------------------------------------

kme_ci_data <- function() {
  old <- dp_reproducible(41)
  on.exit(dp_rng(old))
  list(x = c(rnorm(200, -1, 0.5), rnorm(100, 1.5, 0.7)), z = seq(-3, 3.5, by = 0.25), k = kernel_gaussian(0.6))
}

test_that("confint() of a subspace dp_kme() release covers the noise-free embedding at its points", {
  d <- kme_ci_data()
  # the noise-free embedding in the subspace at the points (the internal no-noise hook)
  w0 <- dpfda:::kme_fit_subspace(as.matrix(d$x), as.matrix(d$z), d$k, sigma = 1, noise = FALSE)$weights
  target <- as.vector(kernel_matrix(d$k, d$z) %*% w0)
  R <- 400
  for (delta in c(1e-5, 0)) {                               # Gaussian, then Laplace coordinates
    cv <- coverage(function() dp_kme(d$x, d$k, 1, delta, synthetic = d$z), target, R, level = 0.9,
                   seed = if (delta > 0) 42 else 43)
    if (delta > 0) {
      expect_match(cv$method_pw, "^exact")
      expect_match(cv$method_sm, "exact Gaussian")
    } else {
      expect_match(cv$method_pw, "^Monte Carlo.*laplace noise on [0-9]+ subspace coordinates")
    }
    lab <- if (delta > 0) "Gaussian" else "Laplace"
    expect_lt(abs(cv$simultaneous - 0.9), tol(0.9, R), label = paste(lab, "simultaneous"))
    expect_lt(abs(mean(cv$pointwise) - 0.9), tol(0.9, R), label = paste(lab, "pointwise mean"))
    for (j in c(1, 12, 27)) expect_lt(abs(cv$pointwise[j] - 0.9), tol(0.9, R), label = paste(lab, "pointwise", j))
  }
  # a band 20% too narrow (noise too small for the law) would be caught
  r <- with_seed_mode(44, dp_kme(d$x, d$k, 1, 1e-5, synthetic = d$z))
  ci <- confint(r, level = 0.9, type = "simultaneous")
  N <- with_seed_mode(45, t(vapply(seq_len(R), function(i) predict(dp_kme(d$x, d$k, 1, 1e-5, synthetic = d$z)) -
                                     target, numeric(length(target)))))
  narrow <- mean(apply(abs(N) <= rep(0.8 * (ci$upper - ci$estimate), each = R), 1, all))
  expect_gt(0.9 - narrow, tol(0.9, R))
  # the pointwise sd: sigma sqrt(k(z, z)) at the kept points (A = L there)
  expect_equal(ci$se[r$kept], rep(r$noise_scale * sqrt(d$k$variance), length(r$kept)), tolerance = 1e-8)
})

test_that("confint() of a random-feature dp_kme() release is the law of the noise added to the features", {
  d <- kme_ci_data()
  r <- with_seed_mode(46, dp_kme(d$x, d$k, 1, 1e-5, method = "random_features", synthetic = d$z[1:8], J = 200,
                                 iters = 5))
  ci <- confint(r, level = 0.9)
  expect_match(attr(ci, "method"), "^exact")
  # ||phi(z)||^2 = k(z, z) exactly: the pointwise sd is sigma sqrt(variance)
  expect_equal(ci$se, rep(r$noise_scale * sqrt(d$k$variance), nrow(r$points)), tolerance = 1e-10)
  expect_match(noise_law_note <- dpfda:::noise_law(r)$note, "reduced-set fit is not included")
  # the noise Algorithm 2 adds (internal hook, the release's features and scale), seen at the points
  Phi <- kme_features(r$rff, r$points)
  mu <- kme_features(r$rff, d$x, mean = TRUE)
  R <- 400
  N <- with_seed_mode(47, t(vapply(seq_len(R), function(i) {
    as.vector(Phi %*% (dpfda:::kme_noisy_features(r$rff, as.matrix(d$x), r$noise_scale) - mu))
  }, numeric(nrow(Phi)))))
  sm <- confint(r, level = 0.9, type = "simultaneous")
  expect_lt(abs(mean(apply(abs(N) <= rep(sm$upper - sm$estimate, each = R), 1, all)) - 0.9), tol(0.9, R))
  expect_lt(abs(mean(abs(N) <= rep(ci$upper - ci$estimate, each = R)) - 0.9), tol(0.9, R))
})

test_that("dp_kme() releases: as.data.frame and tidy carry the band; no band without additive noise", {
  d <- kme_ci_data()
  r <- with_seed_mode(48, dp_kme(d$x, d$k, 1, 1e-5, synthetic = d$z))
  df <- as.data.frame(r)
  expect_named(df, c("z1", "weight", "value", "se", "lower", "upper"))
  expect_equal(df$value, predict(r))
  ci <- confint(r)
  expect_named(ci, c("z1", "estimate", "se", "lower", "upper"))
  expect_equal(df$lower, ci$lower)
  expect_equal(as.data.frame(r, level = 0.5)$upper - df$value, qnorm(0.75) * df$se)
  expect_named(tidy(r), c("z1", "weight", "estimate", "std.error", "conf.low", "conf.high"))
  expect_equal(glance(r)$noise_sd_max, r$noise_scale * sqrt(d$k$variance), tolerance = 1e-8)
  expect_equal(dp_accuracy(r)$pointwise_sd, ci$se)
  # two dimensions: columns z1, z2
  X <- with_seed_mode(49, cbind(rnorm(100), rnorm(100)))
  r2 <- with_seed_mode(49, dp_kme(X, kernel_gaussian(1), 1, 1e-5, synthetic = cbind(-1:1, c(0, 1, -1))))
  expect_named(confint(r2), c("z1", "z2", "estimate", "se", "lower", "upper"))
  # the projected weights (l1_bound) and the exponential method have no additive noise law
  rl <- with_seed_mode(50, dp_kme(d$x, d$k, 1, 1e-5, synthetic = d$z, l1_bound = 2))
  expect_error(confint(rl), class = "dpfda_error_unsupported", regexp = "l1_bound")
  expect_true(all(is.na(as.data.frame(rl)$se)))
  re <- with_seed_mode(51, dp_kme(d$x, d$k, 1, 1e-5, method = "exponential",
                                  candidates = list(d$z[1:5], d$z[6:10])))
  expect_error(confint(re), class = "dpfda_error_unsupported", regexp = "exponential")
  expect_error(confint(r, level = 2), class = "dpfda_error_argument")
})

test_that("predict(interval = \"confidence\") returns fit/lwr/upr from the noise band, never a silent fit (issue 32)", {
  dp_reproducible(1)
  x <- sort(runif(40))
  y <- sin(6 * x) + rnorm(40, 0, 0.2)
  g <- seq(0, 1, length.out = 30)
  r <- dp_gp_regression(x, y, g, kernel_gaussian(0.2), noise_variance = 0.04, y_bound = c(-2, 2),
                        epsilon = 1, delta = 0.01)
  p <- predict(r, interval = "confidence", level = 0.9)
  ci <- confint(r, level = 0.9, type = "pointwise")
  expect_identical(colnames(p), c("fit", "lwr", "upr"))
  expect_equal(unname(p[, "fit"]), predict(r))
  expect_equal(unname(p[, "lwr"]), ci$lower)
  expect_equal(unname(p[, "upr"]), ci$upper)
  expect_equal(unname(predict(r, g[c(5, 2)], interval = "confidence", level = 0.9)), unname(p[c(5, 2), ]))
  expect_error(predict(r, 0.123, interval = "confidence"), class = "dpfda_error_unsupported")
  expect_error(predict(r, interval = "prediction"), class = "dpfda_error_argument")
  expect_error(predict(r, interval = "confidence", level = 1.5), class = "dpfda_error_argument")
  # the default is unchanged
  expect_equal(predict(r, g[3]), predict(r)[3])
})

# predict(r, c(off, gpt), interval = "confidence") for the release r of rel(): the fit is the
# prediction; the grid point gpt (the grid's 4th) has the band of confint(); the half-widths off the
# grid are the 95% quantile of the prediction's noise, over repeated releases of the same data
# |prediction - its mean| (the noise; the estimate is fixed).
expect_offgrid_band <- function(rel, r, off, gpt, seed, info) {
  p <- predict(r, c(off, gpt), interval = "confidence")
  expect_identical(colnames(p), c("fit", "lwr", "upr"))
  expect_equal(unname(p[, "fit"]), predict(r, c(off, gpt)), info = info)
  ci <- confint(r, type = "pointwise")
  k <- length(off) + 1L
  expect_equal(unname(p[k, c("lwr", "upr")]), c(ci$lower[4], ci$upper[4]), tolerance = 1e-8, info = info)
  set.seed(seed)
  pr <- replicate(1500, predict(rel(), off))
  emp <- apply(abs(pr - rowMeans(pr)), 1L, stats::quantile, 0.95)
  half <- unname((p[-k, "upr"] - p[-k, "lwr"]) / 2)
  expect_equal(half, unname(emp), tolerance = 0.1, info = info)
}

test_that("predict(interval = \"confidence\") off the grid: the noise of the prediction, for ICLP, FRL and GP", {
  # (it was refused: "available at the release's grid points only")
  g <- seq(1.5, 5.5, length.out = 21)
  x <- faithful$eruptions
  off <- c(2.05, 3.333, 5.1)
  for (mech in c("iclp", "frl", "gp")) {
    rel <- function() if (mech == "gp") dp_kde(x, g, 0.3, epsilon = 1, delta = 1e-5) else
      dp_kde(x, g, 0.3, epsilon = 1, mechanism = mech)
    expect_offgrid_band(rel, with_seed_mode(3, rel()), off, g[4], 8, mech)
  }
  # dp_mean (ICLP) with a centre and off-grid ages
  X <- t(fda::growth$hgtf)
  rm <- with_seed_mode(4, dp_mean(curves(X, fda::growth$age), epsilon = 1, tau = 60, center = 130))
  pm <- predict(rm, c(1.5, 7.25), interval = "confidence")
  expect_true(all(pm[, "lwr"] < pm[, "fit"] & pm[, "fit"] < pm[, "upr"]))
  expect_equal(unname(pm[, "fit"]), predict(rm, c(1.5, 7.25)))
})

test_that("predict(interval = \"confidence\") off the grid for dp_mean()'s gp and bernstein mechanisms", {
  # (both were refused off the grid)
  g <- seq(0, 1, length.out = 41)
  X <- t(sapply(1:150, function(i) sin(2 * pi * g) * (i %% 7) / 7))
  off <- c(0.005, 0.333, 0.9)
  for (mech in c("gp", "bernstein")) {
    rel <- function() suppressWarnings(if (mech == "gp") dp_mean(X, grid = g, epsilon = 1, tau = 1, mechanism = "gp",
                                                                  delta = 1e-3) else
      dp_mean(X, grid = g, epsilon = 1, tau = 1, mechanism = "bernstein"))
    expect_offgrid_band(rel, with_seed_mode(5, rel()), off, g[4], 9, mech)
  }
})

test_that("predict(interval = \"confidence\") for binned regressions: the bin's Laplace band, the integral GP's", {
  # (it was refused on every point)
  x <- faithful$eruptions
  y <- faithful$waiting
  r <- with_seed_mode(6, dp_bin_regression(x, y, bins = 8, domain = c(1.5, 5.5), y_bound = c(40, 100), epsilon = 1))
  ci <- confint(r, type = "pointwise")
  p0 <- predict(r, interval = "confidence")
  expect_equal(unname(p0[, "lwr"]), ci$lower)
  expect_equal(unname(p0[, "upr"]), ci$upper)
  # off the centres: the band of the point's bin, exact Laplace quantiles
  off <- c(1.6, 2.05, 3.3, 5.45)
  p <- predict(r, off, interval = "confidence", level = 0.9)
  b <- findInterval(off, seq(1.5, 5.5, length.out = 9))
  expect_equal(unname(p[, "fit"]), predict(r, off))
  expect_equal(unname(p[, "upr"] - p[, "fit"]), r$laplace_scale[b] * log(10))
  # outside the domain, nothing but y_bound is known
  expect_warning(po <- predict(r, 6, interval = "confidence"), class = "dpfda_warning_extrapolation")
  expect_equal(unname(po[1, ]), c(70, 40, 100))
  expect_true(all(predict(r, off, interval = "confidence", clamp = TRUE)[, -1] >= 40))
  # the integral GP with fixed hyperparameters: a linear image of the bins' noise, checked against
  # repeated releases of the same data
  rel <- function() dp_bin_regression(x, y, bins = 8, domain = c(1.5, 5.5), y_bound = c(40, 100), epsilon = 1,
                                      method = "integral", lengthscale = 1, variance = 100, noise_variance = 4,
                                      optimise = FALSE)
  ri <- with_seed_mode(7, rel())
  pint <- predict(ri, off, interval = "confidence")
  set.seed(10)
  pr <- replicate(1500, predict(rel(), off))
  emp <- apply(abs(pr - rowMeans(pr)), 1L, stats::quantile, 0.95)
  expect_equal(unname((pint[, "upr"] - pint[, "lwr"]) / 2), unname(emp), tolerance = 0.1)
  # fitted hyperparameters depend on the noise: no known law, refused
  rf <- with_seed_mode(8, dp_bin_regression(x, y, bins = 8, domain = c(1.5, 5.5), y_bound = c(40, 100),
                                            epsilon = 1, method = "integral"))
  expect_error(predict(rf, off, interval = "confidence"), class = "dpfda_error_unsupported", regexp = "optimise")
  expect_error(predict(r, off, interval = "confidence", level = 2), class = "dpfda_error_argument")
  # minutes instead of hours on the x axis (domain, lengthscale and points with it): the same bands
  r60 <- with_seed_mode(6, dp_bin_regression(60 * x, y, bins = 8, domain = 60 * c(1.5, 5.5), y_bound = c(40, 100),
                                             epsilon = 1))
  expect_equal(predict(r60, 60 * off, interval = "confidence", level = 0.9), p)
  ri60 <- with_seed_mode(7, dp_bin_regression(60 * x, y, bins = 8, domain = 60 * c(1.5, 5.5), y_bound = c(40, 100),
                                              epsilon = 1, method = "integral", lengthscale = 60, variance = 100,
                                              noise_variance = 4, optimise = FALSE))
  expect_equal(predict(ri60, 60 * off, interval = "confidence"), pint, tolerance = 1e-8)
})

test_that("predict() methods without an interval refuse `interval` instead of ignoring it (issue 32)", {
  dp_reproducible(2)
  b <- dp_bernstein(function(a) sin(a), sensitivity = 0.1, epsilon = 1, k = 5)
  expect_equal(predict(b, 0.3, interval = "none"), predict(b, 0.3))
  expect_error(predict(b, 0.3, intervals = "confidence"), class = "dpfda_error_argument", regexp = "`intervals`")
  x <- runif(60)
  r <- dp_bin_regression(x, sin(3 * x), bins = 5, y_bound = c(-1, 1), epsilon = 1, domain = c(0, 1))
  expect_error(predict(r, 0.3, intervals = "confidence"), class = "dpfda_error_argument", regexp = "`intervals`")
  k <- dp_kme(matrix(runif(40), 20), kernel_gaussian(0.3), epsilon = 1, delta = 1e-5, M = 5,
              domain = rbind(c(0, 0), c(1, 1)))
  expect_error(predict(k, interval = "confidence"), class = "dpfda_error_unsupported")
})

test_that("confint(), tidy() and as.data.frame() refuse arguments they would drop (band = is plot()'s)", {
  g <- seq(0, 1, length.out = 21)
  set.seed(3)
  r <- dp_mean(curves(outer(runif(50, 0.5, 1), sin(pi * g)), g), epsilon = 1, tau = 1)
  expect_error(confint(r, band = "population"), class = "dpfda_error_argument", regexp = "with `type`")
  expect_error(tidy(r, band = "population"), class = "dpfda_error_argument", regexp = "plot\\(\\)'s name")
  expect_error(as.data.frame(r, band = "simultaneous"), class = "dpfda_error_argument")
  expect_error(confint(r, levle = 0.9), class = "dpfda_error_argument", regexp = "`levle` is not an argument")
  expect_error(confint(r, NULL, 0.9, "pointwise", 100, 1, NULL, 5), class = "dpfda_error_argument",
               regexp = "unnamed value")
  # the documented ones still pass through
  expect_equal(nrow(tidy(r, type = "simultaneous", nsim = 200)), length(g))
})

test_that("predict(interval = \"confidence\") of a Bernstein release is the band of the evaluated polynomial", {
  # (refused before: the value at a point is a known linear combination of the noisy lattice values)
  f <- function(t) cos(3 * t)
  t <- c(0, 0.05, 0.25, 0.5, 0.93, 1)
  rg <- with_seed_mode(6, dp_bernstein(f, sensitivity = 0.02, epsilon = 1, k = 8, delta = 1e-5))
  p <- predict(rg, t, interval = "confidence", level = 0.9)
  B <- bernstein_basis(t, 8)
  expect_equal(unname(p[, "fit"]), predict(rg, t))
  expect_equal(unname(p[, "upr"] - p[, "fit"]), qnorm(0.95) * rg$noise_scale * sqrt(rowSums(B^2)), tolerance = 1e-12)
  p2 <- predict(rg, t, h = 3, interval = "confidence")     # any order: the iterated basis's weights
  expect_equal(unname(p2[, "upr"] - p2[, "fit"]), qnorm(0.975) * rg$noise_scale * sqrt(rowSums(bernstein_basis(t, 8, 3)^2)),
               tolerance = 1e-12)
  rl <- with_seed_mode(7, dp_bernstein(f, sensitivity = 0.02, epsilon = 1, k = 8))
  pl <- expect_silent(predict(rl, t, interval = "confidence"))   # (the default `type`, matched to one value)
  half <- unname(pl[, "upr"] - pl[, "fit"])
  b <- rl$noise_scale
  expect_equal(half[c(1, 6)], rep(-b * log(0.05), 2), tolerance = 1e-12)   # an end point: one Laplace value, exact
  set.seed(11)   # the combined Laplace noise's 95% quantile, drawn independently of the package
  L <- matrix(rexp(2e5 * 9) - rexp(2e5 * 9), ncol = 9) * b
  ref <- apply(abs(L %*% t(B[2:5, ])), 2, quantile, 0.95)
  expect_equal(half[2:5], unname(ref), tolerance = 0.03)
  expect_true(all(half[2:5] < -b * log(0.05)))   # inside, the polynomial averages: narrower than a lattice value's
  pn <- predict(rl, t, type = "nearest", interval = "confidence")
  expect_equal(unname(pn[, "upr"] - pn[, "fit"]), rep(-b * log(0.05), 6), tolerance = 1e-12)
  expect_equal(unname(predict(rl, interval = "confidence")), unname(as.matrix(confint(rl)[, c("estimate", "lower", "upper")])))
  r2 <- with_seed_mode(8, dp_bernstein(function(p) p[, 1] * p[, 2], sensitivity = 0.02, epsilon = 1, k = 4, dim = 2,
                                        delta = 1e-5))
  ax <- list(c(0.2, 0.7), c(0.1, 0.5, 0.9))
  p3 <- predict(r2, ax, interval = "confidence")
  expect_equal(dim(p3), c(6L, 3L))
  expect_equal(unname(p3[, "fit"]), as.vector(predict(r2, ax)))
  B2 <- kronecker(bernstein_basis(ax[[2]], 4), bernstein_basis(ax[[1]], 4))   # expand.grid order
  expect_equal(unname(p3[, "upr"] - p3[, "fit"]), qnorm(0.975) * r2$noise_scale * sqrt(rowSums(B2^2)), tolerance = 1e-12)
  expect_error(predict(rl, t, interval = "confidence", level = 2), class = "dpfda_error_argument")
})

test_that("a Bernstein density gives predict(interval = \"confidence\") off its grid too", {
  x <- faithful$eruptions
  r <- with_seed_mode(9, dp_kde(x, seq(1, 6, by = 0.25), 0.3, epsilon = 1, mechanism = "bernstein", domain = c(1, 6)))
  t <- c(2.123, 4.5, 5.01)
  p <- predict(r, t, interval = "confidence", level = 0.9)
  expect_equal(unname(p[, "fit"]), predict(r, t))
  expect_equal(p, predict(r$lattice, t, interval = "confidence", level = 0.9))
  expect_true(all(p[, "upr"] > p[, "fit"]) && all(p[, "lwr"] < p[, "fit"]))
  expect_equal(dim(predict(r, c(2, 4.5), interval = "confidence")), c(2L, 3L))   # grid points: the confint() band
  expect_warning(predict(r, 7, interval = "confidence"), class = "dpfda_warning_extrapolation")
  g <- with_seed_mode(9, dp_kde(x, seq(1, 6, by = 0.25), 0.3, epsilon = 1, delta = 1e-6, domain = c(1, 6)))
  pg <- predict(g, 2.123, interval = "confidence")   # a GP density: the kriged noise's band (it was refused)
  expect_true(pg[, "lwr"] < pg[, "fit"] && pg[, "fit"] < pg[, "upr"])
})

test_that("the GP noise law on a tensor grid draws through the factors, with the dense law's covariance", {
  # (the dense draw decomposed the m x m covariance: 30 s for summary() or confint() of a 51 x 51 density)
  axes <- list(seq(0, 1, length.out = 6), seq(-2, 3, length.out = 5))
  g <- as.matrix(expand.grid(axes))
  for (k in list(kernel_gaussian(c(0.4, 2)), kernel_gaussian(0.7, variance = 2), kernel_exponential(0.5, "l1"))) {
    law <- dpfda:::law_gp(0.3, k, g, jitter = 1e-3)
    S <- law$cov()
    D <- dpfda:::with_public_seed(4, law$draw(40000))
    expect_equal(dim(D), c(40000L, 30L))
    # each covariance within 4 of its Monte Carlo standard errors (sqrt((S_ii S_jj + S_ij^2) / n))
    se <- sqrt((outer(diag(S), diag(S)) + S^2) / 40000)
    expect_lt(max(abs(stats::cov(D) - S) / se), 4.5, label = format(k))
  }
  # a grid that is not a tensor grid keeps the dense draw
  pts <- matrix(runif(20), 10)
  law <- dpfda:::law_gp(1, kernel_gaussian(0.5), pts)
  expect_lt(max(abs(stats::cov(dpfda:::with_public_seed(5, law$draw(20000))) - law$cov())), 0.05)
})

test_that("a simultaneous band ignores points whose noise is at rounding level", {
  # (mcycle's predictions far from the data have se 4.6e-17 and 0: their rounding errors divided by
  # that se made the multiplier about 135 and the band at t = 10 [-11822, 11998])
  skip_if_not_installed("MASS")
  r <- with_seed_mode(3, dp_gp_regression(accel ~ times, data = MASS::mcycle,
                                          newdata = data.frame(times = c(10, 30, 100, 200)),
                                          kernel = kernel_gaussian(5, variance = 2500), noise_variance = 500,
                                          y_bound = c(-150, 100), epsilon = 1, delta = 1e-5))
  b <- confint(r, type = "simultaneous")
  p <- confint(r, type = "pointwise")
  mult <- (b$upper - b$estimate)[1] / b$se[1]
  expect_gt(mult, stats::qnorm(0.975))
  expect_lt(mult, 3.5)
  expect_true(all(b$upper - b$lower >= p$upper - p$lower - 1e-9))
})

test_that("predict(interval = ) at one point of a two-dimensional GP release or density (it was non-conformable)", {
  g2 <- list(seq(0, 1, 0.25), seq(0, 1, 0.25))
  r2 <- with_seed_mode(1, dp_gp_release(function(p) p[, 1] * p[, 2], g2, kernel_gaussian(0.3), 0.05, 1, 1e-5))
  one <- predict(r2, cbind(0.1, 0.2), interval = "confidence")
  two <- predict(r2, rbind(c(0.1, 0.2), c(0.3, 0.3)), interval = "confidence")
  expect_identical(dim(one), c(1L, 3L))
  expect_equal(one[1, ], two[1, ], tolerance = 1e-12)
  k <- with_seed_mode(2, dp_kde(cbind(stats::rnorm(200), stats::rnorm(200)), list(seq(-3, 3, 1), seq(-3, 3, 1)), 0.5,
                                epsilon = 1, delta = 1e-5))
  expect_identical(dim(predict(k, cbind(0.1, 0.2), interval = "confidence")), c(1L, 3L))
})
