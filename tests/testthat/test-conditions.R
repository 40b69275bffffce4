# The texts of the main errors, reviewed as snapshots (tests/testthat/_snaps/conditions.md):
# any change of wording shows in review. Classes are checked by the other files.

test_that("errors seen by new users say what is wrong and how to fix it (issue 32)", {
  cw <- as.data.frame(ChickWeight)
  gk <- seq(1, 6, length.out = 30)
  reg <- function(f, ...) dp_gp_regression(f, data = cw, newdata = data.frame(Time = 1:3), kernel = kernel_gaussian(3),
                                           noise_variance = 100, y_bound = c(0, 400), epsilon = 1, delta = 1e-4, ...)
  expect_snapshot(error = TRUE, reg(weight ~ Time + Diet))
  expect_snapshot(error = TRUE, reg(weight ~ Tme))
  expect_snapshot(error = TRUE, reg(weight ~ Time, mechanism = "standard", method = "cloaking"))
  expect_snapshot(error = TRUE, dp_kde(faithful$eruptions, grid = gk, bandwidth = 0.3, epsilon = 1, domain = c(6, 1)))
  expect_snapshot(error = TRUE, dp_kde(faithful$eruptions, grid = gk, bandwidth = 0.3, epsilon = 1, domain = c(2, 6)))
  expect_snapshot(error = TRUE, dp_kde(faithful, grid = gk, bandwidth = 0.3, epsilon = 1, domain = c(1, 6)))
  g2 <- as.matrix(expand.grid(seq(1.5, 5.5, length.out = 5), seq(40, 100, length.out = 5)))
  expect_snapshot(error = TRUE, dp_kde(as.matrix(faithful), grid = g2, epsilon = 1,
                                       bandwidth = matrix(c(0.09, 0.5, 0.5, 25), 2), mechanism = "iclp"))
})

test_that("the main errors of the mechanisms (missing epsilon, bad delta, unknown option, shape)", {
  t <- seq(0, 1, length.out = 11)
  x <- curves(outer(c(-1, 0.5, 1), sin(2 * pi * t)), t)
  expect_snapshot(error = TRUE, dp_mean(x, tau = 1))
  expect_snapshot(error = TRUE, dp_mean(x, epsilon = 1, tau = 1, mechanism = "gp", delta = 2))
  expect_snapshot(error = TRUE, dp_mean(x, epsilon = 1, tau = 1, nope = 3))
  expect_snapshot(error = TRUE, dp_mean(x, epsilon = 1, tau = 1, mechanism = "nope"))
  expect_snapshot(error = TRUE, dp_cov(x, tau = 1))
  expect_snapshot(error = TRUE, dp_cov(x, epsilon = 1, tau = 1, nope = 3))
  expect_snapshot(error = TRUE, dp_kde(c(0.2, 0.5), grid = t, bandwidth = 0.1, epsilon = 1))
  expect_snapshot(error = TRUE, dp_kde(c(0.2, 0.5), grid = t, bandwidth = 0.1, epsilon = 1, delta = -1))
  expect_snapshot(error = TRUE, dp_gp_release(function(a) a, t, kernel_gaussian(0.2), sensitivity = 1, epsilon = 1))
  expect_snapshot(error = TRUE, dp_bernstein(function(a) a, epsilon = 1))
  expect_snapshot(error = TRUE, dp_kme(matrix(1:4, 2), epsilon = 1))
})

test_that("errors and warnings name the exported function the user called, without its data", {
  t <- seq(0, 1, length.out = 5)
  x <- curves(matrix(1:10, 2), t)
  call_of <- function(expr) conditionCall(tryCatch(expr, error = identity))
  expect_identical(call_of(dp_mean(x, tau = 1)), quote(dp_mean()))
  expect_identical(call_of(dpfda::dp_cov(x, epsilon = 1, tau = 1, nope = 1)), quote(dp_cov()))
  expect_identical(call_of(do.call(dp_mean, list(x, tau = 1))), quote(dp_mean()))
  wrap <- function(...) dp_kde(...)
  expect_identical(call_of(wrap(1:3)), quote(dp_kde()))
  # an export that calls another export: the outer one, which the user called
  expect_identical(call_of(dp_fpca(x, npc = 0)), quote(dp_fpca()))
  # an error in a method names the generic the user called (R names the frame by the method)
  r <- dp_mean(x, epsilon = 1, tau = 10)
  expect_identical(call_of(confint(r, type = "population")), quote(confint()))
  expect_identical(call_of(predict(r, interval = "nope")), quote(predict()))
  local_privacy_warnings()
  w <- tryCatch(dp_kde(c(0.2, 0.5, 0.7), t, 0.2, epsilon = 1, delta = 0.5), warning = identity)
  expect_s3_class(w, "dpfda_warning_delta")
  expect_identical(conditionCall(w), quote(dp_kde()))
})

test_that("required arguments are checked one way, and no plain stop() is left in the package", {
  ns <- asNamespace("dpfda")
  fns <- Filter(function(f) is.function(get(f, envir = ns)), ls(ns, all.names = TRUE))
  src <- vapply(fns, function(f) paste(deparse(body(get(f, envir = ns))), collapse = "\n"), "")
  # stop() only re-raises a classed condition object; never stopifnot()
  plain <- grepl("stopifnot\\(|(^|[^_.a-zA-Z])stop\\((?!cnd\\)|e\\))", src, perl = TRUE)
  expect_identical(fns[plain], character(0))
  expect_false(any(c("require_args", "require_formals") %in% fns))
  # every exported function with required formals checks them through check_required()
  ex <- intersect(getNamespaceExports(ns), fns)
  req <- Filter(function(f) {
    fm <- formals(get(f, envir = ns))
    is.function(get(f, envir = ns)) && !is.null(fm) &&
      any(vapply(fm, is.symbol, NA) & names(fm) != "..." & !nzchar(vapply(fm, function(a) if (is.symbol(a))
        as.character(a) else "x", "")))
  }, ex)
  uses <- vapply(req, function(f) grepl("check_required(", src[[f]], fixed = TRUE) ||
                   !grepl("missing(", src[[f]], fixed = TRUE), NA)
  # (query() checks its two arguments by hand: it runs once per point, on the fast path)
  expect_identical(setdiff(req[!uses], "query"), character(0))
  # the message and class of a missing argument, with the function named
  e <- tryCatch(dp_mean(tau = 1, epsilon = 1), error = identity)
  expect_s3_class(e, "dpfda_error_argument")
  expect_match(conditionMessage(e), "`x` is missing in dp_mean()", fixed = TRUE)
  # a hand-edited curves object fails its invariants with a classed error
  x <- curves(matrix(1:10, 2), seq(0, 1, length.out = 5))
  x$values[1, 1] <- NaN
  expect_error(dpfda:::validate_dpfda_curves(x), class = "dpfda_error_data")
})

test_that("dp_kde() refuses an option its mechanism does not take with a classed error (was R's 'unused argument')", {
  t <- seq(0, 1, length.out = 9)
  x <- c(0.2, 0.4, 0.9)
  expect_error(dp_kde(x, t, 0.1, epsilon = 1, delta = 1e-5, nope = 2), "`nope` is not an option of dp_kde",
               class = "dpfda_error_argument")
  expect_error(dp_kde(x, t, 0.1, epsilon = 1, delta = 1e-5, eta = 2),
               "option of mechanism \"iclp\" and \"frl\" only, not of \"gp\"", class = "dpfda_error_argument")
  expect_error(dp_kde(x, t, 0.1, epsilon = 1, delta = 1e-5, mechanism = "bernstein", allow_large_epsilon = TRUE),
               class = "dpfda_error_argument")
  expect_error(dp_kde(x, t, 0.1, 1, 1e-5, "gp", NULL, "analytic", NULL, NULL, 20L, 3L, 2), class = "dpfda_error")
  expect_s3_class(dp_kde(x, t, 0.1, epsilon = 1, mechanism = "iclp", counts = c(3, 1, 2)), "dpfda_release")
  expect_s3_class(suppressWarnings(dp_kde(x, t, 0.1, epsilon = 20, delta = 1e-5, calibration = "hall",
                                          allow_large_epsilon = TRUE)), "dpfda_release")
})

test_that("as_curves() refuses a misspelt option of a matrix or data frame instead of ignoring it", {
  long <- data.frame(id = rep(1:2, each = 3), arg = rep(1:3, 2), value = 1:6)
  expect_error(as_curves(long, na.rn = TRUE), "`na.rn` is not an option of as_curves", class = "dpfda_error_argument")
  expect_error(as_curves(matrix(1:6, 2), grid = 1:3, incompelte = "drop"), "`incompelte`",
               class = "dpfda_error_argument")
  expect_error(as_curves(long, 2), class = "dpfda_error_argument")
  expect_s3_class(as_curves(long, n_grid = 5), "dpfda_curves")   # (an option of the fd method, passed by releases)
})

test_that("a misspelt option of a Gaussian mechanism is named in a classed error (was R's 'unused argument')", {
  t <- seq(0, 1, length.out = 9)
  xr <- seq(0.05, 0.95, length.out = 30)
  yr <- sin(2 * pi * xr)
  pts <- cbind(xr, yr)
  lab <- ifelse(yr > 0, 1, -1)
  k <- kernel_gaussian(0.2)
  calls <- list(
    dp_gp_release = function(...) dp_gp_release(function(a) a, t, k, 0.1, epsilon = 1, delta = 1e-5, ...),
    dp_gp_regression = function(...) dp_gp_regression(xr, yr, t, k, 0.1, c(-1, 1), epsilon = 1, delta = 1e-5, ...),
    dp_sparse_gp_regression = function(...) dp_sparse_gp_regression(xr, yr, t, 5, k, 0.1, c(-1, 1), epsilon = 1,
                                                                    delta = 1e-5, ...),
    dp_krr = function(...) dp_krr(xr, yr, 0.01, k, t, c(-1, 1), epsilon = 1, delta = 1e-5, ...),
    dp_svm = function(...) dp_svm(pts, lab, 0.01, kernel_gaussian(0.5), pts[1:3, ], epsilon = 1, delta = 1e-5, ...),
    dp_online = function(...) dp_online(function(a) a, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5, ...))
  for (fun in names(calls)) {
    e <- expect_error(calls[[fun]](alow_large_epsilon = TRUE), class = "dpfda_error_argument")
    expect_match(conditionMessage(e), sprintf("`alow_large_epsilon` is not an option of %s\\(\\)", fun))
    expect_error(calls[[fun]](TRUE), class = "dpfda_error_argument")   # unnamed
    expect_true(inherits(suppressWarnings(calls[[fun]](allow_large_epsilon = FALSE)),
                         c("dpfda_release", "dpfda_online_session")))
  }
})

test_that("as_fd() refuses a grid too large for its default basis, and the converters a misspelt argument", {
  skip_if_not_installed("fda")
  expect_error(as_fd(curves(matrix(sin(seq(0, 1, length.out = 1001)), 1), seq(0, 1, length.out = 1001))),
               "give a `basis` with fewer functions", class = "dpfda_error_argument")
  x <- curves(matrix(1:6, 2), 1:3)
  expect_error(as_fd(x, bassis = NULL), "`bassis` is not an option of as_fd", class = "dpfda_error_argument")
  expect_error(as_density(x, 1), class = "dpfda_error_argument")
})

test_that("a misspelt argument is named with the option it most likely meant (was 'tau is missing' or R's 'unused argument')", {
  x <- curves(matrix(seq(0.1, 0.9, length.out = 40), 4), seq(0, 1, length.out = 10))
  # a required argument misspelt: the typo is named, not only the missing argument
  e <- expect_error(dp_mean(x, epsilon = 1, taw = 1), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`taw` is not an option of dp_mean() (did you mean `tau`?)", fixed = TRUE)
  expect_identical(e$arg, "taw")
  e <- expect_error(dp_kde(c(0.2, 0.5), grid = 1:3 / 4, bandwith = 0.3, epsilon = 1, delta = 1e-6),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "(did you mean `bandwidth`?)", fixed = TRUE)
  # an optional one: the suggestion comes from the function's own arguments
  e <- expect_error(dp_mean(x, epsilon = 1, tau = 1, centre = 0), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "did you mean `center`?", fixed = TRUE)
  # the functions without options in `...` refuse a misspelt name with a classed error, unevaluated
  expect_error(summarise_mean(x, tau = 1, wieghts = 1), "`wieghts` is not an option of summarise_mean() (did you mean `weights`?)",
               fixed = TRUE, class = "dpfda_error_argument")
  expect_error(summarise_mortality(data.frame(age = 1, deaths = 1), ages = no_such_object),
               "did you mean `age`?", fixed = TRUE, class = "dpfda_error_argument")
  expect_error(privacy_budget(1, compsition = "basic"), "did you mean `composition`?", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_error(privacy_budget(1, 0, "gdp", 5), "was given a value after its last argument", class = "dpfda_error_argument")
  expect_error(dp_bandwidth(c(0.2, 0.5), epsilon = 1, delat = 1e-6), "did you mean `delta`?", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_error(dp_select(c(1, 2), sensitivity = 1, epsilon = 1, noice = "float"), "did you mean `noise`?",
               fixed = TRUE, class = "dpfda_error_argument")
  expect_error(summarise_kde(c(0.2, 0.5), grid = 1:3 / 4, bandwidth = 0.3, domain = c(0, 1), foo = 2),
               "`foo` is not an option of summarise_kde(); see", fixed = TRUE, class = "dpfda_error_argument")
  expect_error(dp_erm(1:3 / 4, 1:3 / 4, epsilon = 1, psi = 0.1, grid = 1:3 / 4, lost = "square"),
               "did you mean `loss`?", fixed = TRUE, class = "dpfda_error_argument")
  expect_error(dp_bernstein(sin, 0.01, 1, 5, calibrate = "hall"), "did you mean `calibration`?", fixed = TRUE,
               class = "dpfda_error_argument")
  for (f in c("summarise_cov", "summarise_kme", "summarise_bin_regression")) {
    expect_error(do.call(f, list(x, zzz_typo = 1)), class = "dpfda_error_argument")
  }
  # options of `...` that are not formal arguments are suggested too (they were not: no "did you mean")
  e <- expect_error(dp_kde(faithful, column = "eruptions", grid = seq(1, 6, length.out = 30), bandwidth = 0.3,
                           epsilon = 1, delta = 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`column` is not an option of dp_kde() (did you mean `columns`?)", fixed = TRUE)
  e <- expect_error(dp_kme(faithful, column = "eruptions", epsilon = 1, delta = 1e-5, kernel = kernel_gaussian(1),
                           domain = c(1, 6), M = 20), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`column` is not an option of dp_kme() (did you mean `columns`?)", fixed = TRUE)
  expect_error(dp_kme(faithful, id = "eruptions", epsilon = 1, delta = 1e-5, kernel = kernel_gaussian(1),
                      domain = c(1, 6), M = 20), "`id` is used only with a database table or chunks", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_error(dp_kde(faithful$eruptions, grid = 1:6, bandwidth = 0.3, epsilon = 1, delta = 1e-5, inference = TRUE),
               "dp_kde() needs none: confint(r, type = \"population\")", fixed = TRUE, class = "dpfda_error_argument")
  expect_error(dp_mean(x, epsilon = 1, tau = 1, frl_nois = "gaussian"), "did you mean `frl_noise`?", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_error(dp_accuracy(mechanism = "frl", n = 100, epsilon = 1, tau = 1, grid = x$grid, frl_nois = "gaussian"),
               "`frl_nois` is not an option of dp_accuracy() (did you mean `frl_noise`?)", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_error(dp_cov(x, epsilon = 1, tau = 1, centre = 0), "did you mean `center`?", fixed = TRUE,
               class = "dpfda_error_argument")
  e <- expect_error(dp_fpca(x, epsilon = 1, tau = 1, n_pc = 2), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "The number of components of dp_fpca() is `npc`, not `n_pc`", fixed = TRUE)
  # summarise_kde() names itself (not an internal function) when the bandwidth is missing
  e <- expect_error(summarise_kde(faithful, columns = "eruptions", grid = seq(1, 6, length.out = 30)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`bandwidth` is missing in summarise_kde():", fixed = TRUE)
  expect_s3_class(summarise_kde(faithful, columns = "eruptions", grid = seq(1, 6, length.out = 30), mechanism = "iclp"),
                  "dpfda_summary")
  # a formula's data frame given second, as lm(dist ~ speed, cars): the second argument is `y`
  for (f in c("dp_gp_regression", "dp_bin_regression", "dp_krr", "dp_erm", "dp_svm", "dp_gp_select",
              "dp_sparse_gp_regression")) {
    e <- expect_error(do.call(f, list(quote(dist ~ speed), cars, epsilon = 1)), class = "dpfda_error_argument")
    expect_match(conditionMessage(e), sprintf("`y` is a data frame: with a formula, give the data frame by name, %s(dist ~ speed, data = <data frame>", f),
                 fixed = TRUE, info = f)
  }
  # missing arguments without advice point to the help page (they read "give `n`; `bound`; `gap`.")
  e <- expect_error(sensitivity_bernstein_priestley_chao(bandwidth = 0.1), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "give `n`, `bound`, `gap` (see ?sensitivity_bernstein_priestley_chao).",
               fixed = TRUE)
  expect_error(sensitivity_kde(bandwidth = 1), "`n` is missing in sensitivity_kde(); see ?sensitivity_kde", fixed = TRUE,
               class = "dpfda_error_argument")
  e <- expect_error(kme_mmd(), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`y`, a sample to compare with the release", fixed = TRUE)   # (was "the private responses")
  expect_error(dp_audit(), "`mechanism`, a function of one data set returning a release", fixed = TRUE,
               class = "dpfda_error_argument")
  # the exported constructor: missing arguments and values that are not curves are classed errors (R's
  # "argument "values" is missing, with no default")
  expect_error(new_dpfda_release(), "are missing in new_dpfda_release()", fixed = TRUE, class = "dpfda_error_argument")
  expect_error(new_dpfda_release(1:3, "x", 1, 0, 1, 1), "`values` must be a curves() object", fixed = TRUE,
               class = "dpfda_error_argument")
  # no suggestion when nothing is close
  expect_null(dpfda:::closest_name("qqqqqq", c("tau", "epsilon")))
  expect_identical(dpfda:::closest_name("eps", c("tau", "epsilon")), "epsilon")
  expect_identical(dpfda:::closest_name("centre", c("centered", "center")), "center")
})

test_that("a column given under a wrong name gets a classed error that names it (was R's 'object not found')", {
  co2 <- as.data.frame(CO2)
  # a misspelt column argument: the bare column name cannot be evaluated; the error names the argument
  e <- expect_error(dp_mean(co2, epsilon = 1, tau = 20, valu = uptake), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`valu = uptake` could not be evaluated: object 'uptake' not found. Did you mean `value = uptake`?",
               fixed = TRUE)
  expect_identical(e$arg, "valu")
  # a name that is no column argument: the column arguments are listed
  e <- expect_error(dp_mean(co2, epsilon = 1, tau = 20, y = uptake), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "give it as `id = ` or `arg = ` or `value = `", fixed = TRUE)
  e <- expect_error(dp_kde(faithful, epsilon = 1, delta = 1e-5, domain = c(1, 6), bandwidth = 0.3, colums = waiting),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "Did you mean `columns = waiting`?", fixed = TRUE)
  expect_error(dp_kme(faithful, epsilon = 1, delta = 1e-5, kernel = kernel_gaussian(1), colums = waiting),
               "Did you mean `columns = waiting`?", fixed = TRUE, class = "dpfda_error_argument")
  expect_error(dp_cov(co2, epsilon = 1, tau = 20, valeu = uptake), "Did you mean `value = uptake`?", fixed = TRUE,
               class = "dpfda_error_argument")
  # an option whose value fails: the option and R's reason
  e <- expect_error(dp_mean(co2, epsilon = 1, tau = 20, eta = no_such_object), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`eta = no_such_object` could not be evaluated: object 'no_such_object' not found",
               fixed = TRUE)
  # an argument whose call raises one of dpfda's errors keeps that error and its class
  e <- expect_error(dp_mean(co2, epsilon = 1, tau = 20, weights = kernel_gaussian(-1)), class = "dpfda_error_argument",
                    regexp = "lengthscale")
  expect_false(grepl("could not be evaluated", conditionMessage(e), fixed = TRUE))
  expect_identical(e$arg, "lengthscale")
  # an unknown option of dp_mean() is named before the data are read (was: an error about the data's columns)
  expect_error(dp_mean(co2, epsilon = 1, tau = 20, t = "conc"), "`t` is not an option of dp_mean()", fixed = TRUE,
               class = "dpfda_error_argument")
})

test_that("every warning of the package inherits dpfda_warning, whatever its subclass", {
  # (a utility warning was of class dpfda_warning_utility only: one handler could not catch them all)
  old <- options(dpfda.utility_warning = TRUE)   # (off in the suite: helper-uncertainty.R)
  on.exit(options(old))
  set.seed(1)
  x <- curves(matrix(rnorm(30 * 21), 30), seq(0, 1, length.out = 21))
  w <- tryCatch(dp_mean(x, epsilon = 1, tau = 1), dpfda_warning = function(w) w)   # mostly noise
  expect_s3_class(w, "dpfda_warning")
  expect_true(any(startsWith(class(w), "dpfda_warning_")))
  # the generic warning keeps one dpfda_warning, first
  g <- tryCatch(dpfda:::dpfda_warn("x"), warning = function(w) w)
  expect_identical(class(g), c("dpfda_warning", "warning", "condition"))
  s <- tryCatch(dpfda:::dpfda_warn("x", c("dpfda_warning_data", "dpfda_warning")), warning = function(w) w)
  expect_identical(class(s), c("dpfda_warning_data", "dpfda_warning", "warning", "condition"))
})

test_that("a choice takes a unique abbreviation, as match.arg() does, and refuses an ambiguous one", {
  # (confint(r, type = "pop") was refused: every other R function with a choice accepts it)
  dp_reproducible(29)
  x <- curves(matrix(rnorm(40 * 11, 0.5, 0.1), 40), seq(0, 1, length.out = 11))
  r <- dp_mean(x, epsilon = 1, tau = 1, inference = TRUE)
  expect_identical(confint(r, type = "pop"), confint(r, type = "population"))
  expect_identical(attr(confint(r, type = "sim"), "type"), "simultaneous")
  # "po" is pointwise and population: refused, and the message says why
  e <- expect_error(confint(r, type = "po"), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "the abbreviation matches more than one", fixed = TRUE)
  expect_error(confint(r, type = ""), "`type` must be one of", class = "dpfda_error_argument")
  expect_error(confint(r, type = "populations"), "`type` must be one of", class = "dpfda_error_argument")
  # an exact name wins over a longer one it abbreviates
  expect_identical(dpfda:::check_choice("gp", c("gp", "gp_sobolev"), "m"), "gp")
  expect_identical(dpfda:::check_choice("gp_s", c("gp", "gp_sobolev"), "m"), "gp_sobolev")
})

test_that("a vector of data with a missing value is refused as a data error too (unit, counts, y)", {
  # (a missing value in a column was dpfda_error_data, the same in a vector argument only
  # dpfda_error_argument: one handler did not catch every refusal of missing values)
  set.seed(1)
  x <- runif(50)
  y <- sin(x)
  g <- seq(0, 1, length.out = 11)
  u <- rep(1:25, 2)
  u[3] <- NA
  cn <- rep(1, 50)
  cn[2] <- NA
  y[4] <- NA
  for (e in list(tryCatch(dp_kde(x, g, 0.1, 1, 1e-5, unit = u), error = identity),
                 tryCatch(dp_kde(x, g, 0.1, 1, 1e-5, counts = cn), error = identity),
                 tryCatch(dp_krr(x, y, kernel = kernel_gaussian(0.2), grid = g, epsilon = 1, delta = 1e-5,
                                 lambda = 0.1, y_bound = c(-2, 2)), error = identity))) {
    expect_s3_class(e, "dpfda_error_data")
    expect_s3_class(e, "dpfda_error_argument")
  }
  # a scalar argument that is NA stays an argument error only
  e <- tryCatch(dp_kde(x, g, NA_real_, 1, 1e-5), error = identity)
  expect_s3_class(e, "dpfda_error")
  expect_false(inherits(e, "dpfda_error_data"))
})

test_that("a declared sensitivity of 0 is said (dp_gp_release(), dp_bernstein()): no noise is added", {
  local_privacy_warnings()
  g <- seq(0, 1, length.out = 11)
  expect_warning(r <- dp_gp_release(function(t) sin(t), g, kernel_gaussian(0.2), sensitivity = 0, epsilon = 1,
                                    delta = 1e-5), "no noise is added", class = "dpfda_warning_privacy")
  expect_equal(r$values$values[1, ], sin(g))
  expect_warning(dp_bernstein(function(t) t^2, sensitivity = 0, epsilon = 1, k = 4), "no noise is added",
                 class = "dpfda_warning_privacy")
  expect_no_warning(dp_gp_release(function(t) sin(t), g, kernel_gaussian(0.2), sensitivity = 0.1, epsilon = 1,
                                  delta = 1e-5))
})

test_that("dp_gp_release() and dp_bernstein() say that their privacy unit is what `sensitivity` bounds", {
  # (they take a function, not data: the individual protected is the caller's; print and glance said nothing)
  g <- seq(0, 1, length.out = 11)
  rs <- list(dp_gp_release(sin, g, kernel_gaussian(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5),
             dp_bernstein(function(t) t^2, sensitivity = 0.1, epsilon = 1, k = 4))
  for (r in rs) {
    expect_match(paste(capture.output(print(r)), collapse = "\n"), "privacy unit: what `sensitivity` bounds")
    expect_match(generics::glance(r)$privacy_unit, "`sensitivity` bounds")
  }
})

test_that("a number below its lower bound is refused with that bound in words", {
  # (check_number() said "a finite number" for any lower bound but 0: `l1_bound` 0.5, whose docs ask
  # C >= 1, was refused as "must be a finite number, not 0.5")
  z <- cbind(seq(0, 1, length.out = 4), seq(1, 0, length.out = 4))
  X <- cbind(stats::runif(30), stats::runif(30))
  e <- expect_error(dp_kme(X, kernel_gaussian(0.5), epsilon = 1, delta = 1e-5, synthetic = z, l1_bound = 0.5),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`l1_bound` must be a number at least 1", fixed = TRUE)
  expect_identical(dpfda:::number_what(1, 5, TRUE, FALSE), "a number above 1 and at most 5")
  expect_identical(dpfda:::number_what(0, 1, TRUE, TRUE), "a positive number below 1")
  expect_match(conditionMessage(expect_error(dp_bandwidth(faithful$eruptions, 1, 1e-6, fallback = -1),
                                             class = "dpfda_error_argument")), "NULL or a positive number")
})
