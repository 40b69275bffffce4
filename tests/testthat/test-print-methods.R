# Every print method of the package, as a reviewed snapshot (issue 32): a
# change of wording, of a figure or of the fields a print shows appears in
# review. Seeded noise, so the figures are reproducible (and every release
# print ends with the "NOT private" footer).

print_fixtures <- function() {
  with_seed_mode(32, {
    t <- seq(0, 1, length.out = 9)
    x <- curves(outer(seq(-1, 1, length.out = 40), sin(pi * t)) / 2, t)
    k <- kernel_matern(3 / 2, 0.2)
    pts <- matrix(stats::rnorm(200), ncol = 2)
    xr <- seq(0, 1, length.out = 30)
    yr <- sin(2 * pi * xr)
    b <- privacy_budget(10, 1e-4, composition = "basic")
    rel_mean <- dp_mean(x, epsilon = 1, tau = 1, budget = b)
    rel_cov <- dp_cov(x, epsilon = 1, tau = 1, kernel = k, J = 4)
    kme <- dp_kme(pts, kernel_gaussian(1), epsilon = 0.5, delta = 1e-5, synthetic = matrix(seq(-2, 2, length.out = 20), 10))
    list(
      curves = x,
      summary_curves = summary(x),
      summary_density = summary(as_density(curves(rbind(dnorm(t, 0.5, 0.2), 1 + t), t))),
      kernel = k,
      kl_basis = kl_basis(k, t, J = 3),
      budget = b,
      summary_budget = summary(b),
      chunks = dp_chunks(split(as.data.frame(x), rep(1:2, length.out = 360))),
      summary = summarise_mean(as.data.frame(x), grid = t, tau = 1),
      release_gp = dp_gp_release(sin(t), t, kernel_gaussian(0.3), 0.1, epsilon = 1, delta = 1e-5),
      summary_release = summary(rel_mean),
      iclp_mean = rel_mean,
      iclp_mean_drop = suppressWarnings(dp_mean(as.data.frame(x)[-(1:3), ], epsilon = 1, tau = 1, grid = t,
                                                incomplete = "drop"), classes = "dpfda_warning_utility"),
      iclp_mean_auto = dp_mean(x, epsilon = 4, tau = "auto"),
      bernstein_mean = dp_mean(x, epsilon = 1, tau = 1, mechanism = "bernstein"),
      iclp_cov = rel_cov,
      fpca = dp_fpca(rel_cov, npc = 2),
      summary_fpca = summary(dp_fpca(rel_cov, npc = 2)),
      iclp_erm = dp_erm(xr, yr, epsilon = 1, psi = 0.01, grid = t, eta = 2, y_bound = 2),
      iclp_kde = dp_kde(stats::runif(100), t, 0.2, epsilon = 1, mechanism = "iclp"),
      kde_gp = dp_kde(stats::runif(100), t, 0.2, epsilon = 1, delta = 1e-5),
      bernstein = dp_bernstein(function(a) a^2, sensitivity = 0.1, epsilon = 1, k = 4),
      bin_regression = dp_bin_regression(xr, yr, 5, c(-1, 1), epsilon = 1, domain = c(0, 1)),
      gp_regression = dp_gp_regression(xr, yr, t, kernel_gaussian(0.2), 0.1, c(-1, 1), epsilon = 1, delta = 1e-5),
      krr_fit = krr_fit(xr, yr, lambda = 1e-3, kernel = kernel_gaussian(0.1), y_bound = c(-1, 1)),
      svm_fit = svm_fit(pts, ifelse(pts[, 1] > 0, 1, -1), lambda = 0.01, kernel = kernel_gaussian(0.5)),
      logistic_fit = logistic_fit(pts / 4, ifelse(pts[, 1] > 0, 1, -1), C = 10),
      kme = kme,
      summary_kme = summary(kme),
      kme_rff = kme_rff(kernel_gaussian(1), 2, 8),
      online = dp_online(function(a) sin(2 * pi * a), kernel_exponential(0.1), sensitivity = 0.1, epsilon = 1,
                         delta = 1e-5),
      selection = dp_select(c(1, 5, 2), sensitivity = 1, epsilon = 2),
      pcv_selection = pcv_select(x, epsilon = 1, tau = 1, mechanism = "frl", basis = kl_basis(k, t),
                                 epsilon_select = 0.5),
      bandwidth = dp_bandwidth(pts, epsilon = 1, delta = 1e-6, fallback = 0.3),
      accuracy = dp_accuracy(rel_mean),
      accuracy_bandwidth = dp_accuracy(mechanism = "bandwidth", epsilon = 1, delta = 1e-6, d = 2),
      accuracy_comparison = dp_accuracy(mechanism = c("iclp_qr", "frl"), n = 50, epsilon = 1, tau = 1,
                                        grid = seq(0, 1, length.out = 11)),
      confint = confint(rel_mean),
      mortality = mortality_distribution(data.frame(age = rep(0:10, 2), deaths = rep(c(5, 3), each = 11),
                                                    region = rep(c("a", "b"), each = 11)),
                                         age = age, deaths = deaths, group = region),
      gp_selection = dp_gp_select(xr, yr, expand.grid(lengthscale = c(0.1, 0.5), noise_variance = c(0.05, 0.5)),
                                  y_bound = c(-2, 2), epsilon = 1, folds = 3, epsilon_regression = 1, delta = 0.01),
      audit = dp_audit(function(d) sum(d) + rlaplace(1, 1), c(1, 0, 1), c(1, 0, 0), n = 500, epsilon = 1, seed = 3),
      frl_mean = dp_mean(x, epsilon = 1, tau = 1, mechanism = "frl"),
      frl_gaussian_mean = dp_mean(x, epsilon = 1, tau = 1, mechanism = "frl", frl_noise = "gaussian", delta = 1e-5,
                                  M = 9),
      difference = rel_mean - dp_mean(x, epsilon = 1, tau = 1),
      difference_summary = summary(rel_mean - dp_mean(x, epsilon = 1, tau = 1)),
      quantile_interval = quantile(dp_kde(stats::runif(100), t, 0.2, epsilon = 1, delta = 1e-5), c(0.25, 0.5),
                                   interval = "noise", nsim = 500),
      krr = suppressWarnings(dp_krr(xr, yr, lambda = 0.1, kernel = kernel_gaussian(0.2), grid = t, y_bound = c(-1, 1),
                                    epsilon = 1, delta = 1e-5)),
      svm = dp_svm(pts, factor(ifelse(pts[, 1] > 0, "yes", "no")), lambda = 0.1, kernel = kernel_gaussian(0.5),
                   grid = as.matrix(expand.grid(c(-1, 1), c(-1, 1))), epsilon = 1, delta = 1e-5)
    )
  })
}

fx <- print_fixtures()
for (nm in names(fx)) {
  test_that(sprintf("print: %s", nm), {
    # (the live online session prints the noise source of now, which other test files may have changed)
    old <- dp_rng("secure")
    on.exit(dp_rng(old), add = TRUE)
    obj <- fx[[nm]]
    expect_snapshot(print(obj))
  })
}

test_that("every release above is a valid release", {
  for (r in Filter(function(o) inherits(o, "dpfda_release"), fx)) expect_valid_release(r)
})

test_that("every print method of the package has a fixture above", {
  ns <- asNamespace("dpfda")
  all <- ls(ns, all.names = TRUE)
  # the print methods and the details each kind of release adds to the shared release print
  methods <- c(sub("^print\\.", "", grep("^print\\.", all, value = TRUE)),
               setdiff(sub("^(release|selection)_details\\.", "", grep("^(release|selection)_details\\.", all,
                                                                          value = TRUE)), "default"))
  covered <- unique(unlist(lapply(fx, class)))
  expect_identical(setdiff(methods, covered), character(0))
})

test_that("tidy(), glance() and plot() of a release refuse a misspelt argument instead of ignoring it", {
  r <- with_seed_mode(1, suppressWarnings(dp_mean(curves(matrix(rnorm(200), 20), seq(0, 1, length.out = 10)),
                                                  epsilon = 1, tau = 3)))
  expect_error(tidy(r, conf.levle = 0.9), class = "dpfda_error_argument", regexp = "`conf.levle` is not an argument of tidy")
  expect_error(tidy(r, level = 0.9), class = "dpfda_error_argument", regexp = "conf.level")
  expect_error(tidy(r, band = "simultaneous"), class = "dpfda_error_argument", regexp = "`band` is plot")
  expect_identical(tidy(r, type = "simultaneous", conf.level = 0.9)$conf.low,
                   confint(r, type = "simultaneous", level = 0.9)$lower)
  expect_error(glance(r, foo = 1), class = "dpfda_error_argument", regexp = "`foo` is not an option of glance")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_error(plot(r, bands = "pointwise"), class = "dpfda_error_argument",
               regexp = "`bands` is neither an argument of plot\\(\\) \\(`band`.*did you mean `band`\\?")
  expect_silent(plot(r, band = "pointwise", col = "red", lwd = 2, xlim = c(0, 0.5)))
})

test_that("every regression release says its privacy unit: one record (issue 31: every print says it)", {
  set.seed(1)
  x <- stats::runif(40)
  y <- sin(2 * pi * x) + stats::rnorm(40, sd = 0.2)
  nd <- seq(0, 1, length.out = 7)
  k <- kernel_gaussian(0.2)
  q <- function(e) suppressWarnings(e)
  rs <- list(gp_regression = q(dp_gp_regression(x, y, nd, k, 0.1, c(-2, 2), 1, 1e-5)),
             standard = q(dp_gp_regression(x, y, nd, k, 0.1, c(-2, 2), 1, 1e-5, mechanism = "standard")),
             sparse = q(dp_sparse_gp_regression(x, y, nd, 5, k, 0.1, c(-2, 2), 1, 1e-5)),
             krr = q(dp_krr(x, y, 0.1, k, nd, c(-2, 2), 1, 1e-5)),
             svm = q(dp_svm(x, sign(y), 0.1, k, nd, 1, 1e-5)),
             bin = q(dp_bin_regression(x, y, 4, c(-2, 2), 1, c(0, 1))),
             erm = q(dp_erm(x, y, 1, 0.1, nd, y_bound = 2)))
  for (nm in names(rs)) {
    expect_equal(as.numeric(rs[[nm]]$n), 40, info = nm)
    expect_true(any(grepl("privacy unit: one record (40)", utils::capture.output(print(rs[[nm]])), fixed = TRUE)),
                info = nm)
  }
})

test_that("format() of a release is its one-line header, as print() starts", {
  # (format() of the list gave the deparsed values, thousands of characters)
  g <- seq(0, 1, length.out = 21)
  r <- with_seed_mode(9, dp_mean(curves(outer(seq(0.5, 1.5, length.out = 50), sin(pi * g)), g), 1, 1))
  f <- format(r)
  expect_length(f, 1L)
  expect_identical(f, "<dpfda_release> iclp_qr mechanism, (epsilon = 1, delta = 0)-DP")
  expect_identical(capture.output(print(r))[1L], f)
})

test_that("format() of every object above is one line that print() starts with (never a deparsed list)", {
  # (format() of a budget was "<environment: 0x...>", of an accuracy plan a column of numbers per field)
  old <- dp_rng("secure")
  on.exit(dp_rng(old), add = TRUE)
  for (nm in names(fx)) {
    obj <- fx[[nm]]
    if (is.data.frame(obj) || startsWith(class(obj)[1L], "summary.")) next   # (data frames keep their format)
    f <- format(obj)
    expect_true(is.character(f) && length(f) == 1L && nzchar(f), info = nm)
    expect_false(grepl("<environment|^list\\(", f), info = nm)
    first <- trimws(utils::capture.output(print(obj))[1L])
    if (!inherits(obj, "dpfda_kernel")) expect_true(startsWith(f, first), info = nm)   # (a kernel: its formula)
  }
  b <- fx$budget
  expect_match(format(b), "spent: epsilon .* remaining")
  expect_match(format(fx$accuracy), "expected L2 noise error [0-9.]+, total with the bias at most")
})

test_that("dp_erm(unit =) prints its units, not the number of their rows", {
  set.seed(3)
  id <- rep(1:12, each = 3)
  x <- stats::runif(36)
  y <- sin(2 * pi * x)
  g <- seq(0, 1, length.out = 15)
  r <- suppressWarnings(dp_erm(x, y, epsilon = 1, psi = 0.01, grid = g, y_bound = 2, unit = id))
  out <- paste(utils::capture.output(print(r)), collapse = "\n")
  expect_match(out, "ERM of the points of 12 units", fixed = TRUE)
  expect_false(grepl("36 points", out, fixed = TRUE))   # (the number of rows of the units is private: not stated)
  expect_null(r$n_rows)
  expect_match(out, "(12 units)", fixed = TRUE)
  r1 <- suppressWarnings(dp_erm(x, y, epsilon = 1, psi = 0.01, grid = g, y_bound = 2))
  expect_match(paste(utils::capture.output(print(r1)), collapse = "\n"), "ERM of 36 points:", fixed = TRUE)
})
