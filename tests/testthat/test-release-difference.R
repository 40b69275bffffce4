# r1 - r2: the difference of two releases on one grid, its noise law and its bands.

rd_grid <- seq(0, 1, length.out = 21)
rd_ref <- function(t) sin(pi * t)
rd_bump <- function(t) dnorm(t, 0.5, 0.1) / 4
# curves within tau = 1 of the reference: amplitude in [0.6, 1.4], a bump, bounded rough noise
rd_group <- function(n, bump, rough = TRUE) {
  g <- rd_grid
  curves(outer(runif(n, 0.6, 1.4), sin(pi * g)) + outer(rep(bump, n), rd_bump(g)) +
           if (rough) matrix(runif(n * length(g), -0.3, 0.3), n) else 0, g)
}
rd_pair <- function(n = 300, seed = 1, ...) {
  set.seed(seed)
  xa <- rd_group(n, 1)
  xb <- rd_group(n, 0)
  with_seed_mode(seed, list(a = dp_mean(xa, tau = 1, center = rd_ref, ...), b = dp_mean(xb, tau = 1, center = rd_ref, ...)))
}

test_that("r1 - r2 is the difference of the released curves, and of their predictions", {
  p <- rd_pair(epsilon = 1)
  d <- p$a - p$b
  expect_s3_class(d, "dpfda_difference")
  expect_identical(d$labels, c("p$a", "p$b"))
  expect_equal(predict(d), predict(p$a) - predict(p$b))
  nd <- c(0.1, 0.33, 0.9)
  expect_equal(predict(d, nd), predict(p$a, nd) - predict(p$b, nd))
  expect_output(print(d), "p\\$a - p\\$b: the difference of two releases")
  expect_output(print(d), "privacy unit: one curve \\(300\\)")
  expect_false(grepl("\n", format(d)))
  expect_named(as.data.frame(d), c("id", "arg", "value", "se", "lower", "upper"))
  expect_named(tidy(d), c("id", "arg", "estimate", "std.error", "conf.low", "conf.high"))
  expect_named(tidy(d, conf.int = FALSE), c("id", "arg", "estimate", "std.error"))
})

test_that("summary() and glance() of a difference give its noise and the sum of the two bias bounds", {
  p <- rd_pair(epsilon = 1)
  d <- p$a - p$b
  ga <- glance(p$a)
  gb <- glance(p$b)
  gd <- glance(d)
  expect_identical(nrow(gd), 1L)
  expect_identical(c(gd$first, gd$second), c("p$a", "p$b"))
  expect_identical(c(gd$n_first, gd$n_second), c(300, 300))
  expect_identical(c(gd$epsilon_first, gd$epsilon_second), c(1, 1))
  expect_identical(c(gd$privacy_unit_first, gd$privacy_unit_second), c(ga$privacy_unit, gb$privacy_unit))
  expect_identical(ga$privacy_unit, "one curve (300)")
  # independent noises: the variances add, so the expected squared L2 errors add
  expect_equal(gd$expected_l2, sqrt(ga$expected_l2^2 + gb$expected_l2^2))
  # bias_1 - bias_2: at most the sum of the two bounds (triangle inequality), both positive here
  expect_true(ga$bias_l2 > 0 && gb$bias_l2 > 0)
  expect_equal(gd$bias_l2, ga$bias_l2 + gb$bias_l2)
  expect_equal(gd$total_l2, sqrt(gd$expected_l2^2 + gd$bias_l2^2))
  s <- summary(d)
  expect_s3_class(s, "summary.dpfda_difference")
  expect_equal(s$expected_l2_noise, gd$expected_l2)
  expect_equal(unname(s$values[["Max."]]), max(predict(d)))
  expect_output(print(s), "smoothing bias of the difference at most")
  expect_output(print(s), "p\\$a - p\\$b: the difference of two releases")
  expect_error(glance(d, foo = 1), class = "dpfda_error_argument")
  # densities have no bias bound: NA, and the print says nothing of it
  set.seed(2)
  k <- with_seed_mode(2, lapply(list(rnorm(200, 0.4, 0.1), rnorm(150, 0.6, 0.1)), dp_kde, epsilon = 1, delta = 1e-5,
                                domain = c(0, 1), bandwidth = 0.1))
  gk <- glance(k[[1L]] - k[[2L]])
  expect_true(is.na(gk$bias_l2) && is.na(gk$total_l2))
  expect_identical(gk$noise_family, "gaussian")
  expect_false(any(grepl("smoothing bias", capture.output(print(summary(k[[1L]] - k[[2L]]))))))
})

test_that("the noise law of a difference is the sum of the two independent laws (exact for Gaussian noise)", {
  p <- rd_pair(epsilon = 1, delta = 1e-5, mechanism = "gp")
  d <- p$a - p$b
  la <- dpfda:::noise_law(p$a)
  lb <- dpfda:::noise_law(p$b)
  ld <- dpfda:::noise_law(d)
  expect_identical(ld$family, "gaussian")
  expect_equal(ld$var, la$var + lb$var)
  ci <- confint(d)
  expect_equal(ci$upper - ci$estimate, qnorm(0.975) * sqrt(la$var + lb$var))
  expect_equal(ld$cov(), la$cov() + lb$cov())
})

test_that("the noise bands of a difference cover the difference of two independent noises at their level", {
  # Laplace-type noise (ICLP-QR): the band is simulated; fresh draws of both noises must fall in it at the level,
  # and a band that ignored one of the two noises (half the variance) would cover about 0.83
  p <- rd_pair(epsilon = 1)
  d <- p$a - p$b
  la <- dpfda:::noise_law(p$a)
  lb <- dpfda:::noise_law(p$b)
  set.seed(42)
  e <- la$draw(4000) - lb$draw(4000)
  for (type in c("pointwise", "simultaneous")) {
    ci <- confint(d, type = type, nsim = 20000)
    half <- ci$upper - ci$estimate
    inside <- abs(e) <= rep(half, each = nrow(e))
    cover <- if (type == "pointwise") mean(inside) else mean(apply(inside, 1L, all))
    expect_gt(cover, 0.935)
    expect_lt(cover, 0.965)
  }
})

test_that("the population band of a difference is the Bonferroni combination of the two bands", {
  p <- rd_pair(epsilon = 1, inference = TRUE)
  d <- p$a - p$b
  pb <- confint(d, type = "population", nsim = 2000)
  b1 <- confint(p$a, type = "population", level = 0.975, nsim = 2000)
  b2 <- confint(p$b, type = "population", level = 0.975, nsim = 2000)
  expect_equal(pb$lower, b1$lower - b2$upper)
  expect_equal(pb$upper, b1$upper - b2$lower)
  expect_identical(attr(pb, "type"), "population")
  expect_output(print(pb), "band for the difference of the population means")
  # the two bands' construction, said once when they are alike, else each with its label
  m <- attr(b1, "method")
  if (identical(m, attr(b2, "method"))) {
    expect_match(attr(pb, "method"), paste0("Each: ", m), fixed = TRUE)
  } else {
    expect_match(attr(pb, "method"), paste0("p$a: ", m), fixed = TRUE)
  }
  expect_output(print(d), "type = \"population\"\\): the difference of the population means")
  # a release without inference: a classed error that names it
  q <- rd_pair(epsilon = 1)
  expect_error(confint(p$a - q$b, type = "population"), "q\\$b has none", class = "dpfda_error_unsupported")
  expect_output(print(p$a - q$b), "needs both releases made with dp_mean\\(inference = TRUE\\)")
})

test_that("the population band of a difference covers the true difference (known populations)", {
  # two groups of 300 curves within tau of the reference, means differing by a bump; 60 replications
  cover <- vapply(1:60, function(i) {
    set.seed(100 + i)
    xa <- rd_group(300, 1, rough = i %% 2 == 0)
    xb <- rd_group(300, 0, rough = i %% 2 == 0)
    d <- with_seed_mode(i, dp_mean(xa, epsilon = 1, tau = 1, center = rd_ref, inference = TRUE) -
                           dp_mean(xb, epsilon = 1, tau = 1, center = rd_ref, inference = TRUE))
    pb <- suppressWarnings(confint(d, type = "population", nsim = 2000), classes = "dpfda_warning_clipping")
    all(pb$lower <= rd_bump(rd_grid) & rd_bump(rd_grid) <= pb$upper)
  }, NA)
  expect_gte(mean(cover), 0.95)
})

test_that("densities and Bernstein releases subtract on their common grid; a change of units scales the difference", {
  set.seed(3)
  g <- seq(0, 1, length.out = 41)
  k <- with_seed_mode(2, list(dp_kde(rbeta(500, 2, 5), g, 0.1, epsilon = 1, delta = 1e-6, domain = c(0, 1)),
                              dp_kde(rbeta(500, 5, 2), g, 0.1, epsilon = 1, delta = 1e-6, domain = c(0, 1))))
  dk <- k[[1]] - k[[2]]
  pk <- confint(dk, type = "population", nsim = 2000)
  expect_output(print(pk), "difference of the population densities")
  expect_true(all(pk$lower <= pk$estimate + 1e-12 | pk$lower < 0))
  b <- rd_pair(epsilon = 1, mechanism = "bernstein")
  db <- b$a - b$b
  expect_equal(predict(db), predict(b$a) - predict(b$b))
  expect_silent(confint(db))
  # a dp_bernstein() release is its polynomial, on 201 points of its domain (as plot() draws it)
  f <- function(t) sin(2 * pi * t)
  bl <- with_seed_mode(4, list(dp_bernstein(f, sensitivity = 0.01, epsilon = 1, k = 10, h = 2),
                               dp_bernstein(function(t) t, sensitivity = 0.01, epsilon = 1, k = 10, h = 2)))
  dl <- bl[[1]] - bl[[2]]
  expect_length(predict(dl), 201L)
  expect_equal(predict(dl), predict(bl[[1]], seq(0, 1, length.out = 201)) - predict(bl[[2]], seq(0, 1, length.out = 201)))
  expect_silent(confint(dl))
  # units: values in other units (x 100) scale the difference and its noise band
  set.seed(1)
  xa <- rd_group(200, 1)
  xb <- rd_group(200, 0)
  r <- function(c) with_seed_mode(5, dp_mean(curves(c * xa$values, rd_grid), epsilon = 1, tau = c, center = function(t) c * rd_ref(t)) -
                                     dp_mean(curves(c * xb$values, rd_grid), epsilon = 1, tau = c, center = function(t) c * rd_ref(t)))
  d1 <- r(1)
  d2 <- r(100)
  expect_equal(100 * predict(d1), predict(d2), tolerance = 1e-10)
  expect_equal(100 * confint(d1, type = "simultaneous")$upper, confint(d2, type = "simultaneous")$upper, tolerance = 1e-10)
})

test_that("a difference of releases that are not comparable is a classed error that says why", {
  p <- rd_pair(epsilon = 1)
  other <- with_seed_mode(1, dp_mean(curves(matrix(runif(300), 10), seq(0, 1, length.out = 30)), epsilon = 1, tau = 1))
  expect_error(p$a - other, "different grids", class = "dpfda_error_argument")
  expect_error(p$a - 1, "is not one", class = "dpfda_error_argument")
  expect_error(-p$a, "no negative", class = "dpfda_error_argument")
  km <- with_seed_mode(1, dp_kme(runif(50), kernel_gaussian(0.2), 1, 1e-5, synthetic = seq(0, 1, 0.25)))
  expect_error(km - km, "kme_mmd", class = "dpfda_error_argument")
  k2 <- with_seed_mode(1, dp_kde(cbind(runif(50), runif(50)), list(seq(0, 1, 0.25), seq(0, 1, 0.25)), 0.2,
                                 epsilon = 1, delta = 1e-6, domain = rbind(c(0, 0), c(1, 1))))
  expect_error(k2 - k2, "one-dimensional", class = "dpfda_error_argument")
  d <- p$a - p$b
  expect_error(confint(d, level = 2), class = "dpfda_error_argument")
  expect_error(confint(d, band = "population"), "type", class = "dpfda_error_argument")
  expect_error(as.data.frame(d, levle = 0.9), "levle", class = "dpfda_error_argument")
  expect_error(tidy(d, conf.levle = 0.9), class = "dpfda_error_argument")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(d))
  expect_silent(plot(d, band = TRUE))
  expect_silent(plot(d, band = "simultaneous"))
  expect_error(plot(d, band = "population"), class = "dpfda_error_unsupported")
  expect_error(plot(d, bnad = TRUE), "band", class = "dpfda_error_argument")
})

test_that("autoplot() of a difference draws it with its band", {
  skip_if_not_installed("ggplot2")
  p <- rd_pair(epsilon = 1, inference = TRUE)
  d <- p$a - p$b
  g0 <- ggplot2::autoplot(d)
  expect_s3_class(g0, "ggplot")
  g1 <- ggplot2::autoplot(d, band = "population")
  built <- ggplot2::ggplot_build(g1)
  ci <- confint(d, type = "population")
  ribbon <- built$data[[2]]
  expect_equal(ribbon$ymin, ci$lower)
  expect_equal(ribbon$ymax, ci$upper)
  expect_identical(g1$labels$title, "p$a - p$b")
})

test_that("glance() of a difference names both noise families when they differ", {
  # (an ICLP release against a GP one said "laplace": a user test)
  t <- seq(0, 1, length.out = 20)
  set.seed(1)
  cv <- curves(outer(rnorm(100), sin(2 * pi * t)), t)
  cv2 <- curves(outer(rnorm(100), sin(2 * pi * t)), t)
  a <- with_seed_mode(1, dp_mean(cv, epsilon = 1, tau = 2))
  a2 <- with_seed_mode(2, dp_mean(cv2, epsilon = 1, tau = 2))
  b <- with_seed_mode(3, dp_mean(cv2, epsilon = 1, tau = 2, mechanism = "gp", delta = 1e-5))
  expect_identical(glance(a - b)$noise_family, "laplace - gaussian")
  expect_identical(glance(a - a2)$noise_family, "laplace")
})

test_that("operators other than `-` on releases are refused with a class (R's error was unclassed)", {
  t <- seq(0, 1, length.out = 11)
  a <- dp_mean(curves(matrix(stats::rnorm(100 * 11, 0, 0.2), 100), t), epsilon = 1, tau = 1)
  b <- dp_mean(curves(matrix(stats::rnorm(100 * 11, 0, 0.2), 100), t), epsilon = 1, tau = 1)
  expect_error(a + b, "`\\+` is not defined for releases", class = "dpfda_error_argument")
  expect_error(a * 2, "predict\\(r\\)", class = "dpfda_error_argument")
  expect_error(a == b, class = "dpfda_error_argument")
  expect_s3_class(a - b, "dpfda_difference")
  expect_error(-a, class = "dpfda_error_argument")
})
