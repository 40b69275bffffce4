# Every exported function that takes data re-validates it at entry, whatever
# its class says (issue 16): a NaN or Inf written into an object after
# construction is a classed data error, never absorbed by interpolation or
# reported as an overflow. Missing arguments, privacy warnings and the
# shared mechanism vocabulary (issue 17, "errors that teach").

t11 <- seq(0, 1, length.out = 11)
good_curves <- function(n = 30) curves(outer(seq(0.1, 1, length.out = n), sin(2 * pi * t11)), t11)

poisoned <- function(value, i = 1L, j = 4L) {
  x <- good_curves()
  x$values[i, j] <- value
  x
}

expect_data_error <- function(expr, regexp = NULL) {
  e <- expect_error(expr, class = "dpfda_error_data", regexp = regexp)
  expect_s3_class(e, "dpfda_error_argument")    # the class the constructors raise
  expect_false(grepl("overflow", conditionMessage(e)))
  invisible(e)
}

test_that("curves() itself counts non-finite values and names the curves", {
  v <- rbind(1:3, c(1, NA, Inf), 4:6)
  e <- expect_error(curves(v), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "2 non-finite values \\(NA/NaN, Inf\\) in 1 curve \\(2\\)")
})

test_that("dp_mean() refuses NaN and Inf written into curves after construction, for every mechanism", {
  for (bad in c(NaN, NA, Inf, -Inf)) {
    for (m in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
      e <- expect_data_error(dp_mean(poisoned(bad), epsilon = 1, tau = 1, mechanism = m, delta = if (m == "gp") 1e-5),
                             regexp = "1 non-finite value")
      expect_match(conditionMessage(e), "in 1 curve \\(1\\)")
    }
  }
  # several curves: counted and listed
  x <- good_curves()
  x$values[c(2, 5), 3] <- NaN
  x$values[5, 7] <- Inf
  expect_data_error(dp_mean(x, 1, 1), regexp = "3 non-finite values \\(NA/NaN, Inf\\) in 2 curves \\(2, 5\\)")
})

test_that("the Bernstein path of dp_mean() never lets approx() absorb a NaN (issue 16 audit case)", {
  # the audited configuration: 41 grid points, n = 50, tau = 1, k = 20
  t41 <- seq(0, 1, length.out = 41)
  x <- curves(matrix(0.5, 50, 41), t41)
  x$values[1, 10] <- NaN
  expect_data_error(dp_mean(x, epsilon = 1, tau = 1, mechanism = "bernstein", bernstein_k = 20))
})

test_that("dp_cov(), pcv_select() and as_curves() re-validate curves objects", {
  expect_data_error(dp_cov(poisoned(NaN), epsilon = 1, tau = 1))
  expect_data_error(dp_cov(poisoned(Inf), epsilon = 1, tau = 1))
  b <- kl_basis(kernel_matern(3 / 2, 0.1), t11)
  expect_data_error(pcv_select(poisoned(NaN), 1, 1, "frl", b, epsilon_select = 0.5))
  expect_data_error(as_curves(poisoned(-Inf)))
  r <- dp_mean(good_curves(), 1, 1)
  r$values$values[1, 2] <- NaN
  expect_data_error(as_curves(r))
})

test_that("as_density() and integrate_curves() re-validate their curves too", {
  expect_data_error(as_density(poisoned(NaN)))
  expect_data_error(integrate_curves(poisoned(Inf)))
  r <- dp_mean(good_curves(), 1, 1)
  r$values$values[1, 1] <- NA
  expect_data_error(as_density(r))
})

test_that("grid and dimension inconsistencies written after construction are caught", {
  x <- good_curves()
  x$grid <- x$grid[-1]
  expect_data_error(dp_mean(x, 1, 1), regexp = "10 points but its values have 11 columns")
  x <- good_curves()
  x$grid[3] <- x$grid[2]
  expect_data_error(dp_mean(x, 1, 1), regexp = "strictly increasing")
  x <- good_curves()
  x$grid[2] <- NaN
  expect_data_error(dp_mean(x, 1, 1), regexp = "finite points")
  x <- good_curves()
  x$dim <- 2L
  expect_data_error(dp_mean(x, 1, 1), regexp = "`dim`")
  x <- good_curves()
  x$domain <- c(0.5, 1)
  expect_data_error(dp_mean(x, 1, 1), regexp = "domain")
  x <- good_curves()
  x$values <- "a"
  expect_data_error(dp_mean(x, 1, 1), regexp = "numeric matrix")
  x <- good_curves()
  x$values <- as.vector(x$values)
  expect_data_error(dp_cov(x, 1, 1), regexp = "numeric matrix")
})

test_that("functions given as curves to the GP and Bernstein mechanisms are checked too", {
  f <- curves(sin(2 * pi * t11), t11)
  f$values[1, 3] <- NaN
  expect_error(dp_gp_release(f, t11, kernel_gaussian(0.2), 1, 1, 1e-5), class = "dpfda_error_argument")
  shifted <- curves(sin(2 * pi * t11), t11 + 1)
  expect_error(dp_gp_release(shifted, t11, kernel_gaussian(0.2), 1, 1, 1e-5), class = "dpfda_error_data",
               regexp = "another grid")
  lat <- curves(rep(1, 21), seq(0, 1, length.out = 21))
  lat$values[1, 5] <- Inf
  expect_error(dp_bernstein(lat, 0.1, 1, k = 20), class = "dpfda_error_argument")
})

test_that("point-data mechanisms count and locate non-finite values", {
  x <- seq(0.05, 0.95, length.out = 40)
  y <- sin(6 * x)
  xb <- x
  xb[c(3, 9)] <- c(NaN, Inf)
  grid <- seq(0, 1, length.out = 15)
  k <- kernel_gaussian(0.2)
  calls <- list(
    kde = function(v) dp_kde(v, grid, bandwidth = 0.1, epsilon = 1, delta = 1e-5),
    kde_iclp = function(v) dp_kde(v, grid, bandwidth = 0.1, epsilon = 1, mechanism = "iclp"),
    kde_bern = function(v) dp_kde(v, grid, bandwidth = 0.1, epsilon = 1, mechanism = "bernstein"),
    kme = function(v) dp_kme(v, k, epsilon = 1, delta = 1e-5, domain = c(0, 1)),
    bandwidth = function(v) dp_bandwidth(v, epsilon = 1, delta = 1e-6, fallback = 0.1),
    gpreg = function(v) dp_gp_regression(v, y, grid, k, 0.1, c(-1, 1), 1, 1e-5),
    sparse = function(v) dp_sparse_gp_regression(v, y, grid, 5, k, 0.1, c(-1, 1), 1, 1e-5),
    bins = function(v) dp_bin_regression(v, y, 5, c(-1, 1), 1, c(0, 1)),
    svm = function(v) dp_svm(v, sign(y), 0.1, k, grid, 1, 1e-5),
    krr = function(v) dp_krr(v, y, 0.1, k, grid, c(-1, 1), 1, 1e-5),
    erm = function(v) dp_erm(v, y, 1, 0.1, grid, y_bound = 1),
    gp_select = function(v) dp_gp_select(v, y, list(k, kernel_gaussian(0.5)), c(-1, 1), 1,
                                         noise_variance = 0.1, include_dp_noise = FALSE))
  for (nm in names(calls)) {
    e <- expect_error(calls[[nm]](xb), class = "dpfda_error", info = nm)
    expect_match(conditionMessage(e), "2 non-finite values \\(NA, NaN or Inf\\) at positions 3, 9", info = nm)
    expect_s3_class(e, "dpfda_error_data")
  }
})

test_that("a missing required argument is a classed error that names it and says how to choose it", {
  x <- good_curves()
  miss <- function(expr, arg, regexp = NULL) {
    e <- expect_error(expr, class = "dpfda_error_argument")
    expect_identical(e$arg, arg)
    expect_match(conditionMessage(e), sprintf("`%s` is missing", arg), fixed = TRUE)
    if (!is.null(regexp)) expect_match(conditionMessage(e), regexp)
    invisible(e)
  }
  miss(dp_mean(x, tau = 1), "epsilon", "epsilon = 1")
  miss(dp_mean(x, 1), "tau", "public bound")
  miss(dp_mean(epsilon = 1, tau = 1), "x")
  miss(dp_mean(x, 1, 1, mechanism = "gp"), "delta", "delta = 1e-5.*mechanism = \"iclp\" for pure DP")
  miss(dp_cov(x, tau = 1), "epsilon")
  miss(dp_kde(faithful$eruptions, seq(1, 6, length.out = 20), bandwidth = 0.3, epsilon = 1), "delta",
       "delta = 1e-5.*mechanism \"gp\".*mechanism = \"iclp\" for pure DP")
  miss(dp_kde(faithful$eruptions, seq(1, 6, length.out = 20), bandwidth = 0.3, delta = 1e-5), "epsilon")
  miss(dp_kde(faithful$eruptions, seq(1, 6, length.out = 20), bandwidth = 0.3, epsilon = 1, mechanism = "sobolev"),
       "delta", "sobolev")
  miss(dp_kme(faithful, epsilon = 1, delta = 1e-5), "kernel", "kernel_gaussian")
  miss(dp_kme(faithful, kernel_gaussian(1), epsilon = 1), "delta", "delta = 0 for pure DP")
  miss(dp_gp_release(sin, t11, kernel_gaussian(0.1), 1, 1), "delta")
  miss(dp_gp_release(sin, t11, sensitivity = 1, epsilon = 1, delta = 1e-5), "kernel")
  miss(dp_bernstein(sin, 1, 1), "k", "k = 20")
  miss(dp_select(1:3, 1), "epsilon")
  miss(dp_bandwidth(1:20, epsilon = 1), "delta")
  miss(dp_online(sin, kernel_gaussian(0.1), 1, 1), "delta")
  miss(dp_gp_regression(1:5, 1:5, 1:3, kernel_gaussian(1), 1, c(0, 5), 1), "delta")
  miss(dp_gp_regression(1:5, 1:5, 1:3, kernel_gaussian(1), y_bound = c(0, 5), epsilon = 1, delta = 1e-5),
       "noise_variance")
  miss(dp_sparse_gp_regression(1:5, 1:5, 1:3, 2, kernel_gaussian(1), 1, c(0, 5), 1), "delta")
  miss(dp_bin_regression(1:5, 1:5, 3, c(0, 5), domain = c(0, 6)), "epsilon")
  miss(dp_svm(1:5, c(1, -1, 1, -1, 1), 0.1, kernel_gaussian(1), 1:3, 1), "delta")
  miss(dp_krr(1:5, 1:5, 0.1, kernel_gaussian(1), 1:3, c(0, 5), 1), "delta")
  miss(dp_erm(1:5 / 6, 1:5, epsilon = 1, grid = t11, y_bound = 5), "psi")
  miss(dp_gp_select(1:5, 1:5, list(kernel_gaussian(1)), c(0, 5)), "epsilon")
  miss(pcv_select(x, 1, 1, "frl", kernel_matern(3 / 2, 0.1)), "epsilon_select")
  miss(mortality_distribution(age = 1:3), "deaths")
  miss(as_curves(), "x")
})

test_that("epsilon above 10 and delta at least 1/n give classed warnings; an option silences them", {
  expect_false(getOption("dpfda.privacy_warnings", TRUE))   # the suite's setting (helper-privacy-warnings.R)
  local_privacy_warnings()
  x <- good_curves(30)
  expect_warning(dp_mean(x, epsilon = 11, tau = 1), class = "dpfda_warning_epsilon")
  expect_warning(dp_mean(x, 1, 1, mechanism = "gp", delta = 1 / 30), class = "dpfda_warning_delta")
  w <- expect_warning(dp_mean(x, 1, 1, mechanism = "gp", delta = 0.05), class = "dpfda_warning_delta")
  expect_match(conditionMessage(w), "1/n = 0.03333")
  expect_no_warning(dp_mean(x, 1, 1, mechanism = "gp", delta = 1e-3))
  expect_no_warning(dp_mean(x, 10, 1))
  # one warning per call, even when the mechanism calls another
  ws <- character()
  withCallingHandlers(dp_mean(x, epsilon = 12, tau = 1, mechanism = "bernstein"),
                      warning = function(w) { ws <<- c(ws, class(w)[1]); invokeRestart("muffleWarning") })
  expect_identical(ws, "dpfda_warning_epsilon")
  pts <- seq(0.05, 0.95, length.out = 50)
  expect_warning(dp_kde(pts, t11, bandwidth = 0.1, epsilon = 1, delta = 0.1), class = "dpfda_warning_delta")
  expect_warning(dp_kme(matrix(pts), kernel_gaussian(1), epsilon = 12, delta = 1e-6, domain = c(0, 1), M = 10), class = "dpfda_warning_epsilon")
  expect_warning(dp_gp_release(sin, t11, kernel_gaussian(0.2), 1, 15, 1e-5, allow_large_epsilon = TRUE),
                 class = "dpfda_warning_epsilon")
  options(dpfda.privacy_warnings = FALSE)
  expect_no_warning(dp_mean(x, epsilon = 11, tau = 1))
})

test_that("one vocabulary of mechanism names, old names kept as aliases", {
  x <- good_curves()
  for (alias in c("iclp", "qr", "ICLP_QR", "iclp-qr")) {
    dp_reproducible(1)
    a <- dp_mean(x, 1, 1, mechanism = alias)
    dp_reproducible(1)
    b <- dp_mean(x, 1, 1, mechanism = "iclp_qr")
    expect_identical(a$mechanism, "iclp_qr")
    expect_equal(a$values$values, b$values$values)
  }
  expect_identical(dp_mean(x, 1, 1, mechanism = "ar")$mechanism, "iclp_ar")
  pts <- seq(0.05, 0.95, length.out = 50)
  dp_reproducible(2)
  k1 <- dp_kde(pts, t11, bandwidth = 0.1, epsilon = 1, mechanism = "iclp_qr")
  dp_reproducible(2)
  k2 <- dp_kde(pts, t11, bandwidth = 0.1, epsilon = 1, mechanism = "iclp")
  expect_equal(k1$values$values, k2$values$values)
  expect_identical(k1$mechanism, "kde-iclp")
  e <- expect_error(dp_kde(pts, t11, bandwidth = 0.1, epsilon = 1, mechanism = "iclp_ar"),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "not available in dp_kde\\(\\).*\"gp\", \"sobolev\".*dp_mechanisms")
  expect_error(dp_mean(x, 1, 1, mechanism = "sobolev"), class = "dpfda_error_argument", regexp = "dp_mean\\(\\)")
  expect_identical(pss_params("iclp", n = 100, epsilon = 1, h = 2)$mechanism, "iclp_qr")
  expect_error(dp_mean(x, 1, 1, mechanism = NA_character_), class = "dpfda_error_argument")
})

test_that("after a test that switches the warnings on, the suite's setting is back", {
  expect_false(getOption("dpfda.privacy_warnings", TRUE))
})

test_that("a grid with repeated points says which and how to remove them", {
  e <- expect_error(dp_mean(matrix(0, 2, 4), 1, 1, grid = c(0.1, 0.5, 0.1, 0.9)),
                    class = "dpfda_error_argument")
  expect_identical(e$arg, "grid")
  expect_match(conditionMessage(e), "1 duplicate (position 3 repeats 0.1); remove them, e.g. with unique(grid)",
               fixed = TRUE)
  g <- as.matrix(expand.grid(c(0, 0.5, 1), c(0, 1)))
  e <- expect_error(dp_svm(g, c(-1, 1, -1, 1, -1, 1), lambda = 0.1, kernel = kernel_gaussian(0.3),
                           grid = rbind(g, g[2:3, ]), epsilon = 1, delta = 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "2 duplicates (row 7 repeats an earlier row)", fixed = TRUE)
})

test_that("several missing required arguments are named in one error, each with its advice", {
  x <- cbind(stats::runif(20), stats::runif(20))
  y <- rep(c(-1, 1), 10)
  # (dp_svm() said "`kernel` is missing", then on the next call "`delta` is missing")
  e <- expect_error(dp_svm(x, y, epsilon = 1, lambda = 0.01, grid = c(0, 1)), class = "dpfda_error_argument")
  expect_identical(e$arg, "kernel")
  expect_match(conditionMessage(e), "^`kernel`, `delta` are missing in dp_svm\\(\\): give `kernel`, a kernel object.*; `delta`, a small public delta")
  e <- expect_error(dp_mean(curves(matrix(0, 2, 3), 1:3)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`epsilon`, `tau` are missing in dp_mean(): give `epsilon`, the privacy budget",
               fixed = TRUE)
  # dp_bin_regression() names `domain` with the others; dp_kde() the grid (or domain) with the bandwidth
  e <- expect_error(dp_bin_regression(dist ~ speed, data = cars, epsilon = 1), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "^`bins`, `y_bound`, `domain` are missing in dp_bin_regression\\(\\)")
  expect_match(conditionMessage(e), "`domain`, the public region to bin", fixed = TRUE)
  e <- expect_error(dp_kde(faithful$eruptions, epsilon = 1), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "^`grid` \\(or `domain`\\) and `bandwidth` are missing in dp_kde\\(\\)")
  expect_error(dp_kde(faithful$eruptions, epsilon = 1, bandwidth = 0.3), "^`grid` is required", class = "dpfda_error_argument")
  expect_error(dp_kde(faithful$eruptions, epsilon = 1, domain = c(1, 6)), "^`bandwidth` is required",
               class = "dpfda_error_argument")
  # dp_kme() without synthetic points or a domain: the call that gives them
  e <- expect_error(dp_kme(as.matrix(iris[, 1:4]), kernel = kernel_gaussian(1), epsilon = 1, delta = 1e-5),
                    class = "dpfda_error_argument")
  expect_identical(e$arg, "synthetic")
  expect_match(conditionMessage(e), "(a matrix of 4 columns), or a public `domain`", fixed = TRUE)
  expect_match(conditionMessage(e), "domain = rbind(lower, upper) (one column per dimension), with M =", fixed = TRUE)
  # select = "pcv" without its budget says what it costs
  e <- expect_error(dp_mean(curves(matrix(stats::runif(60), 6), 1:10), epsilon = 1, tau = 1, select = "pcv"),
                    class = "dpfda_error_privacy")
  expect_match(conditionMessage(e), "e.g. epsilon_select = 0.5; the call then charges epsilon + 0.5", fixed = TRUE)
  # one missing argument keeps its sentence
  e <- expect_error(dp_svm(x, y, epsilon = 1, lambda = 0.01, kernel = kernel_gaussian(0.3), grid = c(0, 1)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "^`delta` is missing in dp_svm\\(\\): give a small public delta")
})

test_that("every exported function refuses an argument it does not have with a classed error", {
  # (58 exported functions had no `...`: R's unclassed "unused argument", e.g. kme_mmd_test(kernel = ))
  ns <- asNamespace("dpfda")
  exports <- setdiff(sort(getNamespaceExports("dpfda")),
                     c("new_dpfda_release", "validate_dpfda_release", "tidy", "glance", "dp_explore"))
  for (f in exports) {
    fn <- get(f, envir = ns)
    if (!is.function(fn)) next
    e <- tryCatch(suppressWarnings(fn(not_an_option_zz = 1)), error = identity)
    expect(inherits(e, "dpfda_error"), sprintf("%s(not_an_option_zz = 1): %s", f,
                                               if (inherits(e, "error")) conditionMessage(e) else "no error"))
  }
  # with the required arguments given, the unknown name is the error, with the option it likely meant
  x <- matrix(stats::runif(40), 20)
  r <- with_seed_mode(1, dp_kme(x, kernel = kernel_gaussian(0.5), epsilon = 1, delta = 1e-5,
                                domain = rbind(c(0, 0), c(1, 1)), M = 20))
  e <- expect_error(kme_mmd_test(r, x, kernel = kernel_gaussian(0.5)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`kernel` is not an option of kme_mmd_test(); see ?kme_mmd_test.", fixed = TRUE)
  expect_identical(e$arg, "kernel")
  expect_error(curves(x, 1:2, domian = c(0, 3)), "`domian` is not an option of curves() (did you mean `domain`?)",
               fixed = TRUE, class = "dpfda_error_argument")
  expect_error(kernel_gaussian(lenghtscale = 0.2), "(did you mean `lengthscale`?)", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_error(kde_gaussian(x[, 1], seq(0, 1, 0.1), 0.1, bandwith = 0.2), "did you mean `bandwidth`",
               class = "dpfda_error_argument")
  expect_error(spend(privacy_budget(1), 0.1, lable = "a"), "did you mean `label`", class = "dpfda_error_argument")
  expect_error(rlaplace(3, 1, 2), "rlaplace() was given a value after its last argument", fixed = TRUE,
               class = "dpfda_error_argument")
  # the functions keep working
  expect_length(rlaplace(3, 1), 3L)
  expect_s3_class(kernel_gaussian(0.2), "dpfda_kernel")
})

test_that("every exported function called without a required argument gives a classed error naming it", {
  ns <- asNamespace("dpfda")
  exports <- sort(getNamespaceExports("dpfda"))
  exports <- setdiff(exports, c("new_dpfda_release",     # the constructor without validation (DESIGN.md 5)
                               "tidy", "glance"))       # generics' own generics, re-exported
  checked <- 0L
  for (f in exports) {
    fn <- get(f, envir = ns)
    if (!is.function(fn)) next
    fm <- formals(fn)
    req <- setdiff(names(fm)[vapply(fm, function(a) identical(a, quote(expr = )), NA)], "...")
    if (!length(req)) next
    e <- tryCatch(suppressWarnings(fn()), error = function(e) e)
    expect(inherits(e, "dpfda_error_argument"),
           sprintf("%s() without arguments: %s", f, if (inherits(e, "error")) conditionMessage(e) else "no error"))
    if (inherits(e, "dpfda_error_argument")) {
      expect_identical(e$arg, req[1L], info = f)
      # (one missing argument: "`x` is missing"; several: "`x`, `epsilon`, `tau` are missing", each with its advice)
      expect_match(conditionMessage(e), sprintf("^`%s`( is|(, `[A-Za-z_.0-9]+`)+ are) missing", req[1L]), info = f)
    }
    checked <- checked + 1L
  }
  expect_gt(checked, 60L)
})
