# The release object returned by every mechanism.

# Fields that would leak the non-private answer or the raw noise.
forbidden_release_fields <- c("summary", "nonprivate", "truth", "f", "noise_path", "raw_noise", "data", "x", "y")

#' Release objects
#'
#' Every mechanism of dpfda returns a `dpfda_release`: the released values
#' (a [curves()] object), the mechanism, the privacy parameters, the public
#' sensitivity and noise scale, the noise kernel or basis, the noise-source
#' mode and the call. It never stores the non-private summary, the data or
#' the raw noise. Further evaluation is post-processing of the released
#' values (see [predict.dpfda_release()]).
#'
#' `new_dpfda_release()` is the constructor used by mechanisms; it checks
#' that `epsilon` is a finite positive number, `delta` in \eqn{[0, 1)} and
#' `sensitivity` finite and non-negative (`dpfda_error_privacy`), and that
#' the released values, the noise scale and the other numeric fields are not
#' infinite or NaN (noise of scale \eqn{\propto 1/\epsilon} can overflow: a
#' classed `dpfda_error_numeric`).
#' `validate_dpfda_release()` checks the invariants (used by the tests).
#'
#' The constructor also warns, with class `dpfda_warning_utility`, when the
#' expected \eqn{L^2} norm of the privacy noise is more than half the
#' largest norm the public settings let the signal have (`tau` for
#' [dp_mean()], or the \eqn{L^2} norm of its public `center` when larger;
#' for the regressions, which work about the midpoint of `y_bound`, half its
#' range, or its smallest absolute value when larger (bounds of one sign),
#' times the root of the domain's measure; for a density from [dp_kde()], the
#' norm of the estimate from a single point, the largest an estimate with its
#' bandwidth can have): such a release is mostly noise,
#' with a relative error above 50 percent even for a signal of that size. The
#' check uses public quantities only. Printing
#' a release shows the range of its pointwise noise standard deviation and
#' its expected \eqn{L^2} noise error (see [dp_accuracy()]). Set
#' `options(dpfda.utility_warning = FALSE)` to silence the warning (e.g. in
#' simulations that make many deliberately noisy releases).
#'
#' @param values A `dpfda_curves` object with the released values.
#' @param mechanism A short name, e.g. `"gp"`, `"bernstein"`.
#' @param epsilon,delta Privacy parameters spent by the release.
#' @param sensitivity The public sensitivity used.
#' @param noise_scale The noise multiplier (standard deviation of Gaussian
#'   noise, or Laplace scale).
#' @param noise The noise kernel, basis or description.
#' @param call The user's call.
#' @param ... Further public fields (e.g. `calibration`, `jitter`).
#' @param class Subclasses, most specific first.
#' @param x,object A release.
#' @return A `dpfda_release`.
#' @examples
#' t <- seq(0, 1, length.out = 50)
#' r <- new_dpfda_release(curves(sin(2 * pi * t), t), mechanism = "example",
#'   epsilon = 1, delta = 1e-5, sensitivity = 0.1, noise_scale = 0.5,
#'   noise = kernel_gaussian(0.1))
#' r
#' @export
new_dpfda_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale,
                              noise = NULL, call = NULL, ..., class = character()) {
  # (exported for extensions: their missing arguments and non-curves values are classed errors)
  check_required(c("values", "mechanism", "epsilon", "delta", "sensitivity", "noise_scale"),
                 advice = list(values = "the released values, a curves() object",
                               mechanism = "a short name of the mechanism, e.g. \"gp\"",
                               sensitivity = "the public sensitivity used",
                               noise_scale = "the noise multiplier (standard deviation or Laplace scale)"))
  if (!inherits(values, "dpfda_curves")) arg_error("values", "a curves() object with the released values", values)
  # the guarantee and its calibration are finite numbers (epsilon = Inf printed "(epsilon = Inf, ...)-DP" and
  # passed validate_dpfda_release())
  bad <- guarantee_problem(list(epsilon = epsilon, delta = delta, sensitivity = sensitivity))
  if (!is.null(bad)) arg_error(bad$field, bad$what, bad$value, "dpfda_error_privacy")
  # the one check of the constructor: noise of scale ~ 1/epsilon can overflow
  overflow <- function(v) is.double(v) && any(is.infinite(v) | is.nan(v))
  if ((inherits(values, "dpfda_curves") && !all(is.finite(values$values))) || overflow(noise_scale) ||
      any(vapply(list(...), overflow, NA))) {
    dpfda_abort(sprintf(paste("The released values overflow (noise scale %s): epsilon is too small or a",
                              "bound too large for double precision."), format(noise_scale, digits = 4)),
                class = "dpfda_error_numeric")
  }
  out <- structure(list(values = values, mechanism = mechanism, epsilon = epsilon, delta = delta,
                        sensitivity = sensitivity, noise_scale = noise_scale, noise = noise,
                        rng = dp_rng(), call = public_call(call), ...),
                   class = c(class, "dpfda_release"))
  release_utility_check(out)
  out
}

# One constructor per class of release (issue 32), each next to its
# mechanism with the documented list of its fields: a class's fields are the
# arguments of its constructor (after the common ones of new_dpfda_release()),
# so release_fields() reads them from there and
# tests/testthat/test-release-constructors.R fails when a call site stores a
# field its class does not document.

# The fields of every release (new_dpfda_release()); `rng` is set by it.
release_common_fields <- c("values", "mechanism", "epsilon", "delta", "sensitivity", "noise_scale", "noise",
                           "rng", "call")

# Most specific class -> its constructor.
release_constructors <- c(
  dpfda_gp_release = "new_gp_release",
  dpfda_online_release = "new_online_release",
  dpfda_svm_release = "new_svm_release",
  dpfda_krr_release = "new_krr_release",
  dpfda_gpreg_release = "new_gpreg_release",
  dpfda_bin_release = "new_bin_release",
  dpfda_bernstein_release = "new_bernstein_release",
  dpfda_iclp_release = "new_iclp_release",
  dpfda_iclp_cov_release = "new_iclp_cov_release",
  dpfda_iclp_erm_release = "new_iclp_erm_release",
  dpfda_kde_release = "new_kde_release",
  dpfda_kde_bernstein_release = "new_kde_bernstein_release",
  dpfda_iclp_kde_release = "new_iclp_kde_release",
  dpfda_kme_release = "new_kme_release"
)

# The documented fields of a class of release (besides the common ones).
release_fields <- function(class) {
  if (!(is.character(class) && length(class) == 1L && class %in% names(release_constructors))) {
    dpfda_abort(sprintf("`class` must be one of the release classes %s.",
                        paste(names(release_constructors), collapse = ", ")), arg = "class")
  }
  ctor <- get(release_constructors[[class]], envir = asNamespace("dpfda"), mode = "function")
  setdiff(names(formals(ctor)), release_common_fields)
}

# The body of every class constructor: the release with the common fields and
# the class's own fields from the constructor's frame `env`, in the order of
# its arguments. A field given as NULL is left out (as assigning NULL into a
# list would), except the `nullable` ones, which are stored even as NULL when
# the call site gives them (the object has always had them).
release_from_fields <- function(ctor, class, nullable = character(), env = parent.frame()) {
  nm <- setdiff(names(formals(ctor)), release_common_fields)
  fields <- list()
  for (f in nm) {
    v <- get(f, envir = env)
    if (!is.null(v)) {
      fields[f] <- list(v)
    } else if (f %in% nullable && !eval(call("missing", as.name(f)), env)) {
      fields[f] <- list(NULL)
    }
  }
  args <- c(list(values = env$values, mechanism = env$mechanism, epsilon = env$epsilon, delta = env$delta,
                 sensitivity = env$sensitivity, noise_scale = env$noise_scale, noise = env$noise,
                 call = env$call),
            fields, list(class = class))
  do.call(new_dpfda_release, args, quote = TRUE)
}

#' @rdname new_dpfda_release
#' @export
validate_dpfda_release <- function(x) {
  check_required()
  if (!inherits(x, "dpfda_release")) arg_error("x", "a dpfda_release", x)
  need <- c("values", "mechanism", "epsilon", "delta", "sensitivity", "noise_scale", "noise",
            "rng", "call")
  miss <- setdiff(need, names(x))
  if (length(miss)) dpfda_abort(sprintf("The release lacks field(s) %s.", paste(miss, collapse = ", ")))
  bad <- intersect(names(x), forbidden_release_fields)
  if (length(bad)) {
    dpfda_abort(sprintf("The release stores non-private field(s) %s.", paste(bad, collapse = ", ")),
                class = "dpfda_error_privacy")
  }
  fail <- function(what) dpfda_abort(sprintf("`x` is not a valid dpfda_release: %s.", what), arg = "x")
  tryCatch(validate_dpfda_curves(x$values, "values"), dpfda_error = function(e) fail(conditionMessage(e)))
  if (!(is.character(x$mechanism) && length(x$mechanism) == 1L)) fail("`mechanism` must be a string")
  bad <- guarantee_problem(x[c("epsilon", "delta", "sensitivity")])
  if (!is.null(bad)) fail(sprintf("`%s` must be %s, not %s", bad$field, bad$what, describe_value(bad$value)))
  if (!(is.numeric(x$noise_scale) && isTRUE(all(is.finite(x$noise_scale) & x$noise_scale >= 0)))) {
    fail("`noise_scale` must be finite numbers >= 0")
  }
  if (!isTRUE(x$rng %in% c("secure", "seeded"))) fail("`rng` must be \"secure\" or \"seeded\"")
  invisible(x)
}

# The first of a release's guarantee fields (`epsilon`, `delta`, `sensitivity`, a named list) that is
# not what a guarantee needs, as list(field, what, value); NULL when all are (the constructor and the
# validator check the same).
guarantee_problem <- function(g) {
  ok <- c(epsilon = is.numeric(g$epsilon) && length(g$epsilon) == 1L && isTRUE(is.finite(g$epsilon) && g$epsilon > 0),
          delta = is.numeric(g$delta) && length(g$delta) == 1L && isTRUE(g$delta >= 0 && g$delta < 1),
          sensitivity = is.numeric(g$sensitivity) && length(g$sensitivity) >= 1L &&
            isTRUE(all(is.finite(g$sensitivity) & g$sensitivity >= 0)))
  if (all(ok)) return(NULL)
  f <- names(ok)[!ok][1L]
  list(field = f, what = c(epsilon = "a finite number > 0", delta = "a number in [0, 1)",
                           sensitivity = "finite numbers >= 0")[[f]], value = g[[f]])
}

# The noise law of the function a release publishes: a Bernstein release's values are its noisy lattice,
# but it publishes their polynomial of order h (release_view()), whose noise is smaller (the print and
# dp_accuracy() gave the lattice's: 0.247 in L2 on faithful's eruptions, where the polynomial's is 0.14).
published_law <- function(x) noise_law(if (inherits(x, "dpfda_bernstein_release")) release_view(x) else x)

#' @rdname new_dpfda_release
#' @export
format.dpfda_release <- function(x, ...) {
  # (one line: format() of the list was the deparsed values, thousands of characters)
  sprintf("<dpfda_release> %s mechanism, (epsilon = %s, delta = %s)-DP", x$mechanism,
          format(x$epsilon, digits = 4), format(x$delta, digits = 4))
}

#' @rdname new_dpfda_release
#' @export
print.dpfda_release <- function(x, ...) {
  cat(format(x), "\n", sep = "")
  cat(sprintf("  sensitivity %s, noise scale %s\n", format(x$sensitivity, digits = 4),
              format(x$noise_scale, digits = 4)))
  law <- tryCatch(published_law(x), error = function(e) NULL)
  if (inherits(x$noise, "dpfda_kernel")) {
    # (an exact release's noise scale is its discrete Gaussian's, calibrated by zCDP: wider than
    # dp_noise_scale()'s float calibration, which the print left unexplained)
    exact <- if (isTRUE(x$noise_exact) && identical(x$calibration_exact, "zcdp")) {
      sprintf(" (exact: discrete Gaussian, calibrated by zCDP with rho %s, not by the float %s calibration)",
              format(x$zcdp_rho, digits = 4), x$calibration %||% "analytic")
    } else ""
    cat("  noise: ", noise_description(x, law$family), exact, "\n", sep = "")
  }
  else if (is.character(x$noise)) cat("  noise: ", x$noise, "\n", sep = "")
  cat("  values: ", format(x$values), "\n", sep = "")
  if (!is.null(law)) {
    sds <- sqrt(law$var)
    # (an empty bin holds the midpoint of y_bound without noise: its sd 0 is no estimate's)
    empty <- if (inherits(x, "dpfda_bin_release")) x$counts == 0 else rep(FALSE, length(sds))
    cat(sprintf("  noise sd %s in %s%s; expected L2 noise error %s (see confint(), dp_accuracy())\n",
                if (inherits(x, "dpfda_bernstein_release")) "of the released polynomial" else
                  if (inherits(x, "dpfda_bin_release")) "of the bin means" else "on the grid",
                if (all(empty)) "[none]" else format_range(range(sds[!empty])),
                if (any(empty)) sprintf(" (%d empty bin%s: the midpoint of y_bound, no estimate)", sum(empty),
                                        if (sum(empty) == 1L) "" else "s") else "",
                format(sqrt(sum(law$weights * law$var)), digits = 4)))
  }
  pu <- release_privacy_unit(x)
  if (!is.na(pu)) cat(sprintf("  privacy unit: %s\n", pu))
  bb <- x$bandwidth_budget
  if (!is.null(bb)) {   # (the header's guarantee is this release's; the bandwidth's was spent on the same data)
    cat(sprintf(paste("  bandwidth released by dp_bandwidth() on the same data: (epsilon = %s, delta = %s) more,",
                      "(epsilon = %s, delta = %s) in all\n"), format(bb$epsilon), format(bb$delta),
                format(x$epsilon + bb$epsilon), format(x$delta + bb$delta)))
  }
  b <- release_bias_bound(x)
  if (!is.null(b) && is.finite(b$l2)) {
    cat(sprintf("  smoothing bias at most %s in L2 for a mean as smooth as %s allows (%s for any mean within tau)\n",
                format(b$l2, digits = 4), bias_kernel_words(x$mechanism), format(b$worst_l2, digits = 4)))
  }
  release_details(x)
  print_noise_source(x$rng)
  invisible(x)
}

# The print's "noise:" line for a release whose noise is described by a
# kernel: a Gaussian process with that covariance, or for FRL independent
# noise on the first M coefficients in the kernel's KL basis, for ICLP
# (`family` of its noise law "laplace") Laplace noise on the coefficients in
# that basis (it printed the kernel alone, as if the noise were a GP).
noise_description <- function(x, family = NULL) {
  M <- x$params$M
  if (identical(x$mechanism, "frl") && is.numeric(M) && length(M) == 1L) {
    family <- if (identical(x$params$frl_noise, "gaussian")) "Gaussian" else "Laplace"
    return(sprintf("%s on the first %d coefficients in the KL basis of the %s", family, as.integer(M),
                   format(x$noise)))
  }
  if (identical(family, "laplace")) {
    return(sprintf("Laplace on the coefficients in the KL basis of the %s", format(x$noise)))
  }
  format(x$noise)
}

# The lines a kind of release adds to the shared print, between the common
# fields above and the footer (in the manner of print.htest: one printer,
# each mechanism its own details). Default: none.
release_details <- function(x) UseMethod("release_details")

#' @export
release_details.default <- function(x) invisible(NULL)

# The footer of every print of a private output: seeded noise is reproducible
# from its seed, so whatever it protects is not private.
print_noise_source <- function(rng) {
  if (identical(rng, "seeded")) cat("  noise source: seeded (reproducible from the seed, NOT private)\n")
}

#' @rdname new_dpfda_release
#' @export
summary.dpfda_release <- function(object, ...) {
  law <- tryCatch(published_law(object), error = function(e) NULL)
  structure(list(mechanism = object$mechanism, epsilon = object$epsilon, delta = object$delta,
                 sensitivity = object$sensitivity, noise_scale = object$noise_scale,
                 n = object$n, tau = object$tau,
                 privacy_unit = object$privacy_unit,
                 noise_sd = if (!is.null(law)) range(sqrt(law$var)),
                 expected_l2_noise = if (!is.null(law)) sqrt(sum(law$weights * law$var)),
                 rng = object$rng, values = summary(object$values),
                 # everything print() says, so that summary() never says less
                 printed = utils::capture.output(print(object)),
                 # a density on a line: its support, quartiles and mean (?density-summaries), post-processing
                 distribution = if (inherits(object, "dpfda_kde_release") && identical(object$values$dim, 1L))
                   tryCatch(summary(as_density(object))$distribution, dpfda_error = function(e) NULL),
                 # (in the plane: the means, standard deviations and correlation, with their noise)
                 moments = if (inherits(object, "dpfda_kde_release") && identical(object$values$dim, 2L) &&
                               nrow(object$values$values) == 1L)
                   tryCatch(release_moments_2d(object), dpfda_error = function(e) NULL)),
            class = "summary.dpfda_release")
}

#' @export
print.summary.dpfda_release <- function(x, ...) {
  cat(x$printed, sep = "\n")
  cat("summary of the released values:\n")
  print(x$values)
  if (!is.null(x$distribution)) {
    print_distribution(x$distribution[setdiff(names(x$distribution), "group")],
                       "  as a distribution (as_density(): negative values set to 0, normalised):")
  }
  if (!is.null(x$moments)) {
    m <- x$moments
    # (four significant digits each, as text: a numeric column printed 179.4722 as "179.5000")
    m[c("estimate", "noise_sd")] <- lapply(m[c("estimate", "noise_sd")], function(v) {
      formatC(v, digits = 4, format = "fg", flag = "#")
    })
    cat(paste("  as a distribution in the plane (the released values as a signed density, normalised; noise_sd:",
              "the standard deviation of each under the public noise law):\n"))
    print(m[setdiff(names(m), "moved")], row.names = FALSE)
    if (any(m$moved)) {
      cat(sprintf(paste("  %s beyond the range a distribution on the grid can have (the noise dominates) moved",
                        "into it\n"), paste(m$statistic[m$moved], collapse = ", ")))
    }
  }
  invisible(x)
}


#' Evaluate a release
#'
#' Without `newdata`, the released values on the grid (a vector for one
#' curve, otherwise an `n x m` matrix). With `newdata`, mechanisms that can
#' evaluate elsewhere do so by post-processing only (conditioning a GP on the
#' released path, evaluating a Bernstein polynomial, ...); they never draw
#' fresh noise. The base method answers only at grid points. Points beyond
#' the range of the grid get a classed warning (`dpfda_warning_extrapolation`):
#' there the values are only the mechanism's extension of the release.
#'
#' With `interval = "confidence"` the result is a matrix with columns `fit`,
#' `lwr` and `upr`, as [stats::predict.lm()] gives: the pointwise band of
#' the **privacy noise** of [confint()] (the non-private summary lies in it
#' with probability `level`; sampling variability and clipping or smoothing
#' bias are not included). It is available at the release's grid points
#' (`newdata = NULL` or points of the grid), and at any points where the
#' prediction is a known linear image of the release's noise: ICLP and FRL
#' releases ([dp_mean()], [dp_kde()] with `"iclp"` or `"frl"`, [dp_erm()];
#' the Nystrom extension of the noisy Karhunen-Loeve coefficients), GP
#' releases ([dp_gp_release()], [dp_kde()] with `"gp"` or `"sobolev"`; the
#' kriged noise path, exact normal quantiles, on grids of up to 4000 points;
#' also [dp_gp_regression()] with `method = "standard"`), the `"gp"`
#' mechanism of [dp_mean()] (the grid's GP noise projected on the KL basis
#' and extended) and Bernstein releases (`dp_mean(mechanism = "bernstein")`,
#' `dp_kde(mechanism = "bernstein")`: the band of the lattice's polynomial,
#' see [predict.dpfda_bernstein_release()]). The band is the pointwise
#' quantile of that noise's public law (Monte Carlo, 10000 draws, for
#' Laplace-type noise). Binned regressions have their own band
#' ([predict.dpfda_bin_release()]). Elsewhere (cloaking GP regression, whose
#' release holds values at its `newdata` only, ...) asking for an interval
#' off the grid is a classed error (`dpfda_error_unsupported`) rather than a
#' silent `fit`.
#'
#' Off the grid, the band covers the extension of the non-private values
#' (kriged, projected, or the polynomial), not the target function between
#' the grid points: the interpolation error is not in it. On a coarse grid it
#' can be most of the error (6 grid points on \eqn{[0, 1]}, a lengthscale of
#' 0.05 and \eqn{\sin 2\pi t}: the band at 0.1 and 0.3 never held the
#' function in 1000 releases); predict where the grid is fine enough for the
#' function, or release on the points you need.
#'
#' @param object A `dpfda_release`.
#' @param newdata Points (vector or matrix), or `NULL`. For a release fit
#'   through a formula (`dp_gp_regression(y ~ x, data = )`, `dp_krr()`,
#'   `dp_svm()`, `dp_erm()`, ...) or on a data frame of named columns
#'   (`dp_svm(d[c("glu", "bmi")], y, ...)`, a density of named columns from
#'   `dp_kde()`), a data frame such as a test set:
#'   its predictor columns (the release's `predictors`) are taken by name,
#'   in any order (other columns are ignored), as `predict.lm()` does; a
#'   formula's transformed predictors (`log(speed)`, `poly(speed, 2)`) are
#'   evaluated on the data frame's columns (`speed`), as there.
#' @param interval `"none"` (default) or `"confidence"` (see above).
#' @param level Coverage probability of the interval.
#' @param ... Options of the mechanism's evaluation (a density's Bernstein
#'   lattice: `h`, `type`); anything else is refused.
#' @return Released values at the requested points; with `interval =
#'   "confidence"`, a matrix with columns `fit`, `lwr`, `upr` (one-curve
#'   releases).
#' @export
predict.dpfda_release <- function(object, newdata = NULL, interval = c("none", "confidence"), level = 0.95, ...) {
  # (a density's Bernstein lattice takes its own h and type)
  check_dot_names(list(...), if (inherits(object, "dpfda_kde_bernstein_release")) c("h", "type"), "predict")
  interval <- check_choice(interval, c("none", "confidence"), "interval")
  newdata <- predictor_columns(object, newdata)
  if (interval == "confidence" && inherits(object, "dpfda_kde_bernstein_release") && !is.null(newdata) &&
      anyNA(release_grid_index(object, newdata))) {
    # off the grid a Bernstein density is the lattice's polynomial there: its band is known as well
    # (beyond the lattice's domain, its predict() warns)
    return(predict.dpfda_bernstein_release(object$lattice, newdata, ..., interval = "confidence", level = level))
  }
  if (interval == "confidence") return(release_predict_band(object, newdata, level))
  v <- object$values$values
  if (is.null(newdata)) return(if (nrow(v) == 1L) as.vector(v) else v)
  # (the values first: a release with values on its grid only refuses other points, and a warning
  # about extended values before that refusal described values never returned)
  out <- release_predict(object, newdata, ...)
  warn_outside_grid(object$values, newdata)
  out
}

# predict() beyond the range of the release's grid returns each mechanism's
# extension (the Nystrom extension of the eigenfunctions decays to the centre,
# a Bernstein polynomial or a kriged GP goes its own way): numbers the release
# says nothing about. Said with a classed warning rather than refused, so that
# a deliberate use keeps working.
warn_outside_grid <- function(v, newdata) {
  dom <- v$domain
  p <- tryCatch(as_points(newdata, "newdata", d = v$dim), error = function(e) NULL)
  if (is.null(p) || !is.numeric(dom)) return(invisible())
  lo <- if (is.matrix(dom)) dom[1L, ] else dom[1L]
  hi <- if (is.matrix(dom)) dom[2L, ] else dom[2L]
  tol <- 1e-9 * pmax(hi - lo, 1e-300)
  out <- rowSums(p < rep(lo - tol, each = nrow(p)) | p > rep(hi + tol, each = nrow(p))) > 0
  if (any(out)) {
    dpfda_warn(sprintf(paste("%d of the %d points of `newdata` lie outside the range of the release's grid (%s):",
                             "the release was computed on the grid, and there the values are only the",
                             "mechanism's extension of it."), sum(out), length(out),
                       format_box(lo, hi)),
               "dpfda_warning_extrapolation")
  }
  invisible()
}

# predict() methods that have no interval refuse `interval` (in their `...`)
# instead of ignoring it, and any other name in `...` (a misspelt
# `intervals = "confidence"` would silently give no band).
refuse_interval <- function(dots, what) {
  iv <- dots[["interval", exact = TRUE]]
  if (!is.null(iv) && !identical(iv, "none")) {
    dpfda_abort(sprintf("`interval` is not available for predict() on %s; confint() gives its noise band.", what),
                class = "dpfda_error_unsupported", arg = "interval")
  }
  check_dot_names(dots, "interval", "predict")
}

# predict(interval = "confidence"): the pointwise noise band of confint() at
# grid points, as fit / lwr / upr.
release_predict_band <- function(object, newdata, level) {
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  if (nrow(object$values$values) != 1L) {
    dpfda_abort("interval = \"confidence\" is for a release of one curve; use confint() for several.",
                class = "dpfda_error_unsupported", arg = "interval")
  }
  idx <- seq_len(grid_size(object$values$grid))
  if (!is.null(newdata)) {
    idx <- release_grid_index(object, newdata)
    if (anyNA(idx)) {
      # off the grid: the band of the noise the prediction carries, where it is a known linear image
      # of the release's noise
      law <- noise_law_at(object, newdata)
      if (is.null(law)) {
        dpfda_abort(paste("interval = \"confidence\" off the release's grid is available for ICLP, FRL, GP and",
                          "Bernstein releases (whose predictions are linear images of their noise); for this one only at",
                          "its grid points (newdata = NULL or points of the grid). Predict without `interval`,",
                          "or take confint(object) on the grid."),
                    class = "dpfda_error_unsupported", arg = "newdata")
      }
      fit <- predict.dpfda_release(object, newdata)
      half <- noise_band(law, level, "pointwise", 10000L, 1L)$half
      return(cbind(fit = fit, lwr = fit - half, upr = fit + half))
    }
  }
  ci <- stats::confint(object, level = level, type = "pointwise")
  cbind(fit = ci$estimate[idx], lwr = ci$lower[idx], upr = ci$upper[idx])
}

# The public law of the noise in predict(object, newdata) at points off the release's grid, where
# the prediction is a known linear image of the release's noise: ICLP and FRL releases (the
# Nystrom extension of the noisy Karhunen-Loeve coefficients: the law of the grid with the
# eigenvectors extended to newdata), dp_mean()'s Bernstein releases (the lattice's polynomial),
# and Gaussian noise paths on the grid carried by a linear map W (dp_mean(mechanism = "gp"): the
# KL projection; GP releases: kriging). NULL for the others.
noise_law_at <- function(object, newdata) {
  mech <- object$mechanism
  kl <- inherits(object, c("dpfda_iclp_release", "dpfda_iclp_kde_release", "dpfda_iclp_erm_release")) &&
    !is.null(object$basis)
  bern <- inherits(object, "dpfda_iclp_release") && identical(mech, "bernstein") && !is.null(object$bernstein)
  if (bern || (kl && !identical(mech, "gp"))) {
    # the law on the grid evaluated at newdata: the lattice's polynomial there (Bernstein), or the
    # eigenvectors extended by Nystrom (KL coefficients)
    ext <- object
    ext$values$grid <- newdata
    if (!bern) {
      ext$basis$vectors <- stats::predict(object$basis, newdata)
      ext$basis$kron <- NULL
    }
    return(noise_law(ext))
  }
  gp_path <- inherits(object, "dpfda_gp_release") && !is.null(object$noise)
  if (!(kl || gp_path)) return(NULL)
  m <- grid_size(object$values$grid)
  if (m > 4000L) return(NULL)   # (the map from every grid point: m x m)
  # a Gaussian noise path N on the grid, carried to newdata by a linear map W (newdata points x grid points)
  if (kl) {   # dp_mean(mechanism = "gp"): projected on the KL basis and extended, W = B(newdata) (w * V)'
    b <- object$basis
    W <- stats::predict(b, newdata) %*% t(b$weights * b$vectors)
    note <- "the grid's Gaussian-process noise, projected on the KL basis and extended"
  } else {    # kriging of the noise path
    unit <- object$values
    unit$values <- diag(m)
    W <- kriging_predict(unit, object$noise, newdata, object$jitter)
    # (grid points x new points; one new point in the plane came back as a 1 x m row: "non-conformable")
    W <- if (is.matrix(W) && nrow(W) == m) t(W) else matrix(W, ncol = m)
    note <- "the grid's Gaussian noise kriged to newdata"
  }
  WC <- W %*% noise_law(object)$cov()   # (with the scale factor of incomplete = "drop")
  law_gaussian_cov(rowSums(WC * W), function() WC %*% t(W), newdata, note)
}

release_predict <- function(object, newdata, ...) UseMethod("release_predict")

# What one individual of the guarantee is, as print() and glance() state it: "one curve (376)" /
# "id (142 units)"; a release of records without one (the regressions) is one record per
# individual; NA when the release does not say.
# A release of a function given with its sensitivity (dp_gp_release(), dp_bernstein()) protects what
# that sensitivity bounds; the caller decides, so the print says so rather than nothing.
sensitivity_privacy_unit <- function() "what `sensitivity` bounds (the change of f you allowed between neighbours)"

release_privacy_unit <- function(x) {
  pu <- x$privacy_unit
  if (is.character(pu) && length(pu) == 1L && !is.na(pu)) return(pu)
  if (is.numeric(x$n) && length(x$n) == 1L) return(sprintf("one record (%s)", format(x$n, big.mark = ",")))
  NA_character_
}

# The grid index of each point of `newdata` (NA off the release's grid),
# points compared exactly.
release_grid_index <- function(object, newdata) {
  g <- as_points(object$values$grid, "grid")
  p <- as_points(newdata, "newdata", d = ncol(g))
  key <- function(a) apply(a, 1L, function(r) paste(format(r, digits = 17), collapse = ","))
  match(key(p), key(g))
}

#' @export
release_predict.default <- function(object, newdata, ...) {
  idx <- release_grid_index(object, newdata)
  if (anyNA(idx)) {
    g <- object$values$grid
    where <- if (is.null(dim(g))) sprintf("%d points from %s to %s", length(g), format(min(g), digits = 4),
                                          format(max(g), digits = 4)) else sprintf("%d points", nrow(g))
    dpfda_abort(sprintf(paste("`newdata` contains points off the release grid; the %s mechanism releases values only",
                              "at its grid (%s: `values$grid` of the release); give the points you need when",
                              "releasing."), object$mechanism, where),
                arg = "newdata")
  }
  v <- object$values$values[, idx, drop = FALSE]
  if (nrow(v) == 1L) as.vector(v) else v
}

# The user's call without private values: arguments that carry data (x, y,
# f, the privacy unit of each record, the counts of dp_kde(), ...) are kept
# only when they are variable names; values written into the call (or passed
# through do.call()) are replaced by `<private>`. do.call() also puts the
# function itself into the call: its name replaces it.
# Which kernel a smoothing-bias bound measures smoothness with: a Bernstein polynomial has none of its
# own, and its bound uses dp_mean()'s default kernel as the reference (?dp_accuracy).
bias_kernel_words <- function(mechanism) {
  if (identical(mechanism, "bernstein")) "the reference kernel (dp_mean()'s default)" else "the kernel"
}

private_call_args <- c("x", "y", "f", "data", "values", "utility", "unit", "counts", "age", "deaths", "group",
                       "folds")

public_call <- function(call) {
  if (!is.call(call)) return(call)
  if (is.function(call[[1L]])) call[[1L]] <- as.name(exported_name_of(call[[1L]]) %||% "<function>")
  nms <- names(call)
  if (is.null(nms)) return(call)
  for (i in seq_along(call)[-1L]) {
    if (nms[i] %in% private_call_args && !is.symbol(call[[i]])) call[[i]] <- as.name("<private>")
  }
  call
}

# The name under which dpfda exports the function `f` (NULL if none).
exported_name_of <- function(f) {
  ns <- asNamespace("dpfda")
  for (nm in getNamespaceExports(ns)) {
    g <- get0(nm, envir = ns, inherits = FALSE)
    if (is.function(g) && identical(g, f)) return(nm)
  }
  NULL
}
