# Smith, Alvarez, Zwiessele & Lawrence (2019), Section 4 and the supplement
# "Integral Kernel": the binning baselines. The inputs x are public, so the
# bin counts are public; the bin means of the clipped outputs get Laplace
# noise (parallel composition); predictions are post-processing.

#' Differentially private regression by binning (Laplace mechanism)
#'
#' The baselines of Smith et al. (Section 4): the public `domain` is cut into
#' `bins` equal intervals per dimension (equal hyper-rectangles), the outputs
#' are clipped to the public `y_bound` (width \eqn{d}), and the mean of every
#' occupied bin is released with Laplace noise of scale
#' \eqn{(d / n_b) / \epsilon}, where \eqn{n_b} is the bin's count.
#'
#' **Privacy.** Neighbouring data sets differ in one output (the inputs `x`
#' are public, so the counts \eqn{n_b} and the bin of every record are
#' public). Changing one clipped output moves the sum of its bin by at most
#' \eqn{d} and no other bin: the vector of bin sums has \eqn{L_1}
#' sensitivity \eqn{d}, and Laplace noise of scale \eqn{d / \epsilon} on each
#' sum, divided by the public \eqn{n_b}, is exactly the noise above. The
#' release is \eqn{\epsilon}-DP (\eqn{\delta = 0}) by parallel composition
#' over the disjoint bins (Dwork and Roth 2014, Section 3.4).
#'
#' **One person, several rows** (`unit`). Each row is one individual's by
#' default. With `unit` (e.g. a person measured at several ages), each
#' unit's rows weigh 1 / (its number of rows): the bins hold the public sums
#' of the weights (in place of the counts) and the weighted sums of the
#' clipped outputs, whose \eqn{L_1} sensitivity to all the outputs of one
#' unit is still \eqn{d}, so the noise is the same and the whole unit is
#' protected; the released bin means are the weighted means (each unit
#' counts once, as in [dp_mean()] with `unit`) and `n` counts units. Without
#' it, a person with \eqn{k} rows is protected as \eqn{k} individuals, with
#' \eqn{k \epsilon}.
#'
#' **Departures from the paper's code** (both are privacy leaks there):
#' the bin edges come from the public `domain`, not from the range of the
#' data plus a 10% margin (the range of `x` is public here, but in the
#' paper's code the same rule was also applied where it is not, and a
#' required public input makes the choice explicit); and empty bins take the
#' public midpoint of `y_bound`, not the mean of the data (the "population
#' mean" of the paper, which is computed from the private outputs without
#' noise). Inputs outside `domain` are clamped into it, i.e. counted in the
#' nearest boundary bin (documented clamping, DESIGN.md rule 2).
#'
#' **Automatic bound** (`y_bound = "auto"`): chosen privately with a share
#' `bound_share` of `epsilon`, by the rule of [dp_gp_regression()] (section
#' Automatic bound: a high quantile of \eqn{|y_i - c|}, \eqn{c} =
#' `bound_center`, default 0, among public candidates over `bound_range`,
#' default \eqn{[10^{-4}, 10^4]}, in the units of `y`: scale it and
#' `bound_center` with `y` to keep the release under a change of units),
#' giving `y_bound = c + c(-B, B)`; the rest
#' of `epsilon` goes to the Laplace release, so the call charges exactly
#' `epsilon`, and the release records `y_bound_auto` and `epsilon_release`.
#' Tables and chunks give the same release as points in memory: the engine
#' computes, per bin of the domain and per bin of \eqn{|y - c|} among the
#' candidates, the count and the sums of \eqn{y - c} and of its sign (a
#' missing output counts at \eqn{c}), from which the histogram and the
#' clamped bin sums at any candidate follow exactly, in one pass. A
#' [summarise_bin_regression()] summary (clamped to a fixed `y_bound`)
#' cannot choose a bound.
#'
#' **Predictions** at `newdata` (post-processing of the released bin means,
#' no further privacy cost, see [predict.dpfda_bin_release()]):
#' * `method = "simple"`: the released mean of the bin containing the point;
#'   points outside `domain` get the midpoint of `y_bound`.
#' * `method = "integral"`: a Gaussian process whose observations are the
#'   released bin means, each the average of the latent function over its
#'   bin (the paper's "integral kernel"; observing the integral
#'   \eqn{F_b = V m_b} is the same because all bins share the volume
#'   \eqn{V}). The prior of the latent function is the Gaussian kernel
#'   \eqn{v \exp(-\sum_j (u_j - u'_j)^2 / (2\ell_j^2))} centred at the
#'   midpoint of `y_bound`, integrated in closed form (see
#'   [integral_kernel()]). Each bin mean carries the known Laplace noise
#'   variance \eqn{2 (d / (n_b \epsilon))^2} plus a free Gaussian noise
#'   variance \eqn{\tau^2}. The kernel variance \eqn{v}, the lengthscales
#'   \eqn{\ell_j} and \eqn{\tau^2} are fitted by type-II maximum likelihood
#'   ([stats::optim()], L-BFGS-B on log scale) to the released values only:
#'   post-processing, so the privacy guarantee is unchanged. The predictions
#'   are the posterior mean of the latent function.
#'
#' @param x Public inputs: a vector (one dimension) or an `n x D` matrix, or
#'   a formula `y ~ x1 + ...` whose variables are columns of `data`. Or
#'   a data frame, a database table (dbplyr) or [dp_chunks()] with the
#'   input columns named by `columns` (in `...`) and the output column `y`
#'   (the same rows give the same release from each),
#'   or a [summarise_bin_regression()] summary (then `y` is not needed and
#'   `bins`, `y_bound`, `domain` default to the summary's). The engine
#'   clamps, bins and sums; the release is the same as in memory (missing
#'   values: see [summarise_bin_regression()]).
#' @param y Private outputs (length `n`), clipped to `y_bound` (a missing
#'   output counts at the midpoint of `y_bound`, with a warning, as in
#'   tables: dropping it would change the public bin counts); for a data
#'   frame with `columns`, a table or chunks, the name of the output column.
#' @param bins Number of bins per dimension: one whole number, or one per
#'   dimension. Equal bins of `domain`, each `[a, b)` (the last one closed):
#'   a point on an edge counts in the bin above it, and so does a point
#'   within \eqn{10^{-9}} of a bin's width below it, so that rounding after a
#'   change of units (Fahrenheit to Celsius) does not move it.
#' @param y_bound Public `c(lower, upper)` bounds on the outputs (one positive
#'   number `B` stands for `c(-B, B)`), or `"auto"`
#'   (chosen privately with a share of `epsilon`, see Automatic bound).
#' @param epsilon Privacy parameter (\eqn{\delta = 0}).
#' @param budget `NULL`, or a [privacy_budget()] to charge (the release is
#'   refused, with an error of class `dpfda_error_budget`, when it would
#'   exceed the budget).
#' @param domain Public region binned: `c(lower, upper)` in one dimension, a
#'   `2 x D` matrix (rows lower, upper) or a list of ranges, one per input
#'   (named: matched to the inputs by name, as `list(Temp = c(55, 100),
#'   Wind = c(0, 22))` for `Ozone ~ Temp + Wind`), otherwise. Required: it
#'   must not be derived from the data.
#' @param newdata Optional public points at which predictions are computed
#'   (stored as `predictions`); with a formula, a data frame with the
#'   predictor columns.
#' @param data With a formula (in the pipe's order the data frame may come
#'   first and the formula second, `d |> f(y ~ x, ...)`): the data frame holding its variables (in
#'   memory; for a table or chunks give `columns` and `y`).
#' @param unit The privacy unit when one person has several rows: a column
#'   (a string or a bare name) of `data`, of a data frame, a table or chunks
#'   (in chunks, each unit's rows together), or a vector with one entry per row of `x` in
#'   memory. `NULL`: each row is its own unit.
#' @param method `"simple"` or `"integral"` (how predictions are formed).
#' @param noise `"float"` (default), or `"exact"`: the bin sums are rounded
#'   to a grid of step \eqn{g = 2^{-20} d/\epsilon} (sensitivity \eqn{d + g}) and get exact
#'   discrete Laplace noise (see [exact_noise]); the released means are the
#'   noisy sums over the public counts.
#' @param ... Options of the integral fit: `lengthscale` (one or one per
#'   dimension), `variance`, `noise_variance` (starting values, or fixed
#'   values with `optimise = FALSE`) and `optimise` (default `TRUE`); for a
#'   data frame, a table or chunks, `columns` (the names of the input columns); with
#'   `y_bound = "auto"`, `bound_share`, `bound_range`, `bound_quantile` and
#'   `bound_center` (see [dp_gp_regression()]).
#' @return A `dpfda_release` of subclass `dpfda_bin_release`. Its `values`
#'   are the released bin means on the grid of bin centres (empty bins hold
#'   the midpoint of `y_bound`); `sensitivity` is \eqn{d} (the \eqn{L_1}
#'   sensitivity of the bin sums) and `noise_scale` \eqn{d / \epsilon} (the
#'   Laplace scale on the sums; with `y_bound = "auto"`, \eqn{\epsilon} is
#'   `epsilon_release`). Further fields: `counts`, `laplace_scale`
#'   (per bin, 0 for empty bins), `bins`, `domain`, `y_bound`, `method`,
#'   `fit` (the integral GP's fitted hyperparameters, or `NULL`), and
#'   `predictions` at `newdata` (or `NULL`); with `y_bound = "auto"`,
#'   `y_bound_auto` (`bound`, `epsilon`, `share`, `quantile`, `range`,
#'   `center`) and `epsilon_release` (`epsilon` is the whole call's).
#' @seealso [dp_gp_regression()] (cloaking), [integral_kernel()].
#' @references Smith, M. T., Alvarez, M. A., Zwiessele, M. and Lawrence, N. D.
#'   (2018). Differentially private regression with Gaussian processes.
#'   *AISTATS*, PMLR 84, 1195--1203.
#' @examples
#' old <- dp_reproducible(1)
#' x <- runif(200)
#' y <- sin(6 * x) + rnorm(200, 0, 0.2)
#' r <- dp_bin_regression(x, y, bins = 10, y_bound = c(-2, 2), epsilon = 1,
#'                        domain = c(0, 1), newdata = seq(0, 1, 0.1))
#' r$predictions
#' ri <- dp_bin_regression(x, y, bins = 10, y_bound = c(-2, 2), epsilon = 1,
#'                         domain = c(0, 1), method = "integral")
#' predict(ri, seq(0, 1, 0.1))
#' # y_bound chosen privately with a share of epsilon (0.1 here)
#' ra <- dp_bin_regression(x, y, bins = 10, y_bound = "auto", epsilon = 3, domain = c(0, 1))
#' ra$y_bound
#' ra
#' # a formula, as with lm()
#' aq <- na.omit(airquality)
#' dp_bin_regression(Ozone ~ Temp, data = aq, bins = 10, y_bound = c(0, 170), epsilon = 1,
#'                   domain = c(50, 100))
#' # several rows per individual (a chick weighed 12 times): protect the chick, not a weighing
#' # (50 chicks: three periods of a week carry the growth; seven bins were mostly noise)
#' rc <- dp_bin_regression(weight ~ Time, data = ChickWeight, bins = 3, y_bound = c(0, 400),
#'                         epsilon = 1, domain = c(0, 21), unit = Chick)
#' rc$privacy_unit
#' dp_rng(old)
#' @export
dp_bin_regression <- function(x, y, bins, y_bound, epsilon, domain, newdata = NULL,
                              method = c("simple", "integral"), ..., noise = c("float", "exact"),
                              budget = NULL, data = NULL, unit = NULL) {
  check_required(c("x", "epsilon"))
  call <- match.call()
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  # `y` forced once (a bare column name is an error to evaluate): forcing it again after an error
  # made R warn "restarting interrupted promise evaluation" on every such call
  y_expr <- substitute(y)
  y_val <- if (!missing(y)) tryCatch(y, error = function(e) e)
  fd <- formula_call(x, !missing(y), data, newdata, "dp_bin_regression", "bins", y = y_val, missing_y = TRUE)
  if (!is.null(fd)) {
    x <- fd$x
    y <- fd$y
    data <- fd$data
    newdata <- fd$newdata
    if (!is.null(unit)) {   # a column of `data`: one unit per row
      ucol <- column_names(unit, names(data), "unit")
      unit <- structure(data[[ucol]], name = ucol)
    }
  }
  if (!is.null(unit) && inherits(x, "dpfda_summary")) {
    dpfda_abort("`unit` is for data; a summary has its unit already (give `unit` to summarise_bin_regression()).",
                arg = "unit")
  }
  # one path for every source: the bin summary (R/summary-binreg.R) of points in memory, a table or
  # chunks (or a given summary), then bin_release()
  engine <- is_engine_input(x)
  opts <- if (...length()) capture_dots(..., .cols = "columns") else list()
  # for a table or chunks, and a data frame with `columns` (the same rows as chunks give the same
  # release; it was refused in memory), `y` (and `columns` in `...`) name columns: strings or bare names
  named <- engine || (is.data.frame(x) && !is.null(opts$columns))
  if (named && !missing(y)) y <- column_names(column_arg(y_expr, y_val, "y"), engine_names_or(x), "y")
  noise <- check_noise(noise)
  budget <- release_open(budget)
  method <- check_choice(method, c("simple", "integral"), "method")
  if (named) opts <- resolve_column_opts(opts, x, "columns", n = list(columns = NULL))
  columns <- opts$columns
  opts$columns <- NULL
  # y_bound = "auto" (R/auto-y-bound.R): its options come out of `...`
  bo <- split_ybound_options(opts)
  opts <- bo$rest
  # (an unknown option named before the data are read, with the nearest of every option's names: the
  # message listed the integral fit's options only, after a pass over the data)
  unknown <- setdiff(names(opts), c(integral_option_names, ""))
  if (length(unknown)) {
    abort_unknown_option(unknown[1L], "dp_bin_regression", c(option_names("dp_bin_regression"), "columns",
                                                             integral_option_names, ybound_option_names))
  }
  auto <- !missing(y_bound) && identical(y_bound, "auto")
  if (!missing(y_bound) && !auto) y_bound <- check_y_bound(y_bound, auto_ok = TRUE)
  if (!auto) auto_bound_unused(bo$auto, "y_bound", ybound_option_names)
  ab <- NULL
  if (auto && inherits(x, "dpfda_summary")) {
    dpfda_abort(paste("y_bound = \"auto\" needs the data (points and outputs, a data frame, a table or chunks),",
                      "not a summary clamped to a fixed y_bound; give y_bound."), arg = "y_bound")
  }
  if (inherits(x, "dpfda_summary")) {
    s <- check_summary(x, "binreg")
    st <- s$settings
    same <- function(a, b) isTRUE(all.equal(as.double(a), as.double(b)))
    if (!missing(bins) && !same(rep_len(bins, length(st$bins)), st$bins)) {
      dpfda_abort("`bins` differs from the bins of the summary `x` (or omit it).", arg = "bins")
    }
    if (!missing(y_bound) && !same(y_bound, st$y_bound)) {
      dpfda_abort("`y_bound` differs from the bounds the summary `x` was clamped to (or omit it).", arg = "y_bound")
    }
    if (!missing(domain) && !same(domain_from_ranges(domain), st$domain)) {
      dpfda_abort("`domain` differs from the domain of the summary `x` (or omit it).", arg = "domain")
    }
  } else {
    check_required(c("y", "bins", "y_bound", "domain"),
                   advice = list(domain = "the public region to bin, e.g. c(lower, upper) (not derived from the data)"))
    if (engine && is.null(columns)) {
      dpfda_abort("`columns` (in `...`) is required: the names of the input columns of the table.",
                  arg = "columns")
    }
    if (!named && !is.null(columns)) {
      dpfda_abort("`columns` is for a data frame, a database table or chunks; `x` holds the inputs themselves.",
                  arg = "columns")
    }
    if (auto) {   # a share of epsilon buys y_bound; the rest goes to the release
      ab <- binreg_auto_bound(x, y, bins, domain, bo$auto, columns, check_epsilon(epsilon), budget, unit)
      s <- ab$summary
    } else {
      s <- summarise_bin_regression_impl(x, y, bins, y_bound, domain, columns = columns, unit = unit)
    }
    st <- s$settings
  }
  epsilon <- check_epsilon(epsilon)
  warn_privacy(epsilon, 0, s$n)
  D <- length(st$bins)
  opts <- check_integral_options(opts, D)
  newpts <- if (is.null(newdata)) NULL else as_points(newdata, "newdata", d = D)
  counts <- s$sums[, 1L]
  # counts as integers; with a unit, the weights per bin (1 / the rows of each row's unit)
  if (is.null(s$unit) && max(counts) < .Machine$integer.max) counts <- as.integer(round(counts))
  if (is.null(ab)) {
    return(formula_release(bin_release(counts, unname(s$sums[, 2L]), st$bins, st$domain, st$y_bound, epsilon, method,
                                       opts, newpts, noise, budget, call, s$unit, s$n), fd))
  }
  rel <- bin_release(counts, unname(s$sums[, 2L]), st$bins, st$domain, st$y_bound, epsilon - ab$epsilon, method,
                     opts, newpts, noise, NULL, call, s$unit, s$n)
  # one charge for the bound and the release: epsilon in all
  ybound_close(formula_release(rel, fd), budget, "dp_bin_regression (y_bound = \"auto\")", ab, epsilon)
}

# The release step of dp_bin_regression(), shared by the in-memory and the
# engine path (R/summary-binreg.R): from the public bin counts and the sums
# of the clipped outputs per bin (with `unit`, the unit column's name, and n
# units: the bins' weights and weighted sums).
bin_release <- function(counts, sums, bins, dom, y_bound, epsilon, method, opts, newpts, noise, budget, call,
                        unit = NULL, n = NULL) {
  D <- length(bins)
  d <- diff(y_bound)
  mid <- mean(y_bound)
  occ <- counts > 0
  means <- rep(NA_real_, length(counts))
  means[occ] <- sums[occ] / counts[occ]
  scale <- numeric(length(counts))
  scale[occ] <- d / (counts[occ] * epsilon)
  if (!all(is.finite(scale))) {
    dpfda_abort("The Laplace scale d / (n_b epsilon) overflows; `epsilon` is too small for `y_bound`.",
                class = "dpfda_error_numeric", arg = "epsilon")
  }
  if (noise == "float") check_float_tails("laplace", epsilon, m = sum(occ), what = "dp_bin_regression()")
  charge_budget(budget, epsilon, 0, "dp_bin_regression", unit = unit)
  released <- rep(mid, length(counts))
  grid_step <- NULL
  if (noise == "exact" && any(occ)) {
    # the bin sums (L1 sensitivity d: one response moves one sum) rounded to the grid, which
    # adds one grid step; exact discrete Laplace of scale (d + step) / epsilon; means after
    lat <- exact_lattice(d / epsilon, "laplace")
    grid_step <- lat$step
    noisy <- exact_laplace_noise(sums[occ], (d + grid_step) / epsilon, lat$k, lat$unit)
    released[occ] <- noisy / counts[occ]
    scale[occ] <- (d + grid_step) / (counts[occ] * epsilon)
  } else {
    released[occ] <- means[occ] + scale[occ] * rlaplace(sum(occ), 1)
  }
  if (!all(is.finite(released))) {
    dpfda_abort("The released bin means overflow; rescale `y_bound`.", class = "dpfda_error_numeric",
                arg = "y_bound")
  }
  centres <- bin_centres(bins, dom)
  vals <- new_dpfda_curves(matrix(released, nrow = 1L), centres, if (D == 1L) as.vector(dom) else dom)
  exact <- !is.null(grid_step)
  rel <- new_bin_release(vals, mechanism = "bin-laplace", epsilon = epsilon, delta = 0, sensitivity = d,
                         noise_scale = if (exact) (d + grid_step) / epsilon else d / epsilon,
                         noise = if (exact) {
                           paste("exact discrete Laplace on the bin sums rounded to the grid",
                                 "(scale (d + grid_step) / epsilon)")
                         } else "Laplace on the bin sums (per-bin scale d / (n_b epsilon) on the means)",
                         call = call, counts = counts, laplace_scale = scale, bins = bins,
                         domain = dom, y_bound = y_bound, method = method, fit = NULL,
                         predictions = NULL, noise_exact = if (exact) TRUE, grid_step = grid_step)
  rel$n <- sum(counts)   # (every record falls in a bin: one record per individual, as the print says)
  if (!is.null(unit)) {   # (a unit, by its name: the bins' weights add up to the number of units)
    rel$n <- n
    rel$privacy_unit <- privacy_unit_points(n, unit)
  }
  if (method == "integral") {
    rel$fit <- integral_gp_fit(rel, opts)
  }
  if (!is.null(newpts)) rel$predictions <- release_predict(rel, newpts)
  rel
}

#' The release of dp_bin_regression(): class `dpfda_bin_release`.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `values` are the released bin
#'   means at the bin centres.
#' @param counts The public bin counts.
#' @param laplace_scale The Laplace scale of each bin mean (0 for empty bins).
#' @param bins,domain The bins per axis and the domain.
#' @param y_bound The public response bounds.
#' @param method "simple" or "integral".
#' @param fit The integral-GP fit of method = "integral" (set after the
#'   release from it; NULL otherwise, always stored).
#' @param predictions The predictions at `newdata` (set after the release;
#'   NULL without newdata, always stored).
#' @param noise_exact,grid_step Exact noise only: TRUE and the grid the bin
#'   sums were rounded to.
#' @param epsilon_release,y_bound_auto With y_bound = "auto" (set by
#'   ybound_close()).
#' @param n The number of records (one per individual; the print's privacy unit).
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_bin_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL, call = NULL,
                            counts = NULL, laplace_scale = NULL, bins = NULL, domain = NULL, y_bound = NULL,
                            method = NULL, fit = NULL, predictions = NULL, noise_exact = NULL, grid_step = NULL,
                            epsilon_release = NULL, y_bound_auto = NULL, n = NULL,
                            predictors = NULL) {
  release_from_fields(new_bin_release, "dpfda_bin_release", nullable = c("fit", "predictions"))
}

#' @export
release_details.dpfda_bin_release <- function(x) {
  cat(sprintf("  %s bins (%s per dimension), %d occupied; outputs clipped to [%s, %s]; predictions: %s\n",
              format(length(x$counts), big.mark = ","), paste(x$bins, collapse = " x "),
              sum(x$counts > 0), format(x$y_bound[1], digits = 4), format(x$y_bound[2], digits = 4),
              x$method))
  v <- as.vector(x$values$values)
  out <- sum(v < x$y_bound[1] | v > x$y_bound[2])
  if (out > 0L) {
    cat(sprintf("  %d of %d released bin means lie beyond y_bound (noise): predict(clamp = TRUE) clamps them\n",
                out, length(v)))
  }
  if (!is.null(x$fit)) {
    cat(sprintf("  integral GP: variance %s, lengthscale %s, extra noise variance %s\n",
                format(x$fit$variance, digits = 4), paste(format(x$fit$lengthscale, digits = 4), collapse = ", "),
                format(x$fit$noise_variance, digits = 4)))
  }
  print_ybound_auto(x)
}

#' Predictions from a binned release
#'
#' Post-processing of the released bin means of [dp_bin_regression()]: no
#' fresh noise is drawn and no privacy is spent.
#'
#' @param object A `dpfda_bin_release`.
#' @param newdata Points (vector or `P x D` matrix); `NULL` returns the
#'   released bin means. For a release fit through a formula, a data frame
#'   whose predictor columns are taken by name.
#' @param method `"simple"` (the released mean of the bin holding the point;
#'   the midpoint of `y_bound` outside the domain, with a classed warning,
#'   `dpfda_warning_extrapolation`) or `"integral"` (posterior
#'   mean of the integral-kernel GP fitted to the released means). Defaults
#'   to the method of the release.
#' @param clamp If `TRUE`, predictions are clamped to `y_bound`. The noise of
#'   a bin with few points can carry its mean far beyond the outputs' range
#'   (the release's print counts such bins); the regression function of the
#'   clipped outputs lies within `y_bound`, so clamping never moves a
#'   prediction further from the noise-free one, and narrows the error of
#'   those bins (post-processing, no budget). It makes the predictions
#'   biased towards the interior, which is why it is not the default.
#' @param interval `"none"` (default) or `"confidence"`: a matrix with
#'   columns `fit`, `lwr`, `upr`, the pointwise band of the **privacy
#'   noise** the prediction carries (the prediction from the non-private bin
#'   means lies in it with probability `level`; sampling variability and the
#'   bias of binning are not included). With `"simple"` it is the exact
#'   Laplace band of the point's bin (half-width \eqn{b \log(1/(1 -
#'   level))}, \eqn{b} that bin's `laplace_scale`); in an empty bin and
#'   outside the domain, where the prediction is the midpoint without data,
#'   the band is the whole of `y_bound`. With `"integral"` the posterior mean
#'   is a linear image of the occupied bins' Laplace noise, and its band is
#'   the quantile of that law (Monte Carlo, 10000 draws), when the GP's
#'   hyperparameters were fixed before the release (`optimise = FALSE` in
#'   [dp_bin_regression()]); fitted to the noisy means they depend on the
#'   noise, and asking for the band is a classed error
#'   (`dpfda_error_unsupported`). With `clamp = TRUE` the band's ends are
#'   clamped to `y_bound` too (the regression function of the clipped
#'   outputs lies there, so coverage is kept).
#' @param level Coverage probability of the interval.
#' @param ... Unused.
#' @return A numeric vector of predictions; with `interval = "confidence"`, a
#'   matrix with columns `fit`, `lwr`, `upr`.
#' @examples
#' x <- runif(100)
#' r <- dp_bin_regression(x, x^2, 5, c(0, 1), 1, c(0, 1))
#' predict(r, c(0.1, 0.5, 0.9))
#' predict(r, c(0.1, 0.5, 0.9), clamp = TRUE)   # within c(0, 1)
#' predict(r, c(0.1, 0.5, 0.9), interval = "confidence")   # the noise band
#' @export
predict.dpfda_bin_release <- function(object, newdata = NULL, method = object$method, clamp = FALSE,
                                      interval = c("none", "confidence"), level = 0.95, ...) {
  check_dot_names(list(...), NULL, "predict")
  clamp <- check_flag(clamp, "clamp")
  interval <- check_choice(interval, c("none", "confidence"), "interval")
  if (interval == "confidence") level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE,
                                                      upper_open = TRUE)
  if (!is.null(newdata)) newdata <- predictor_columns(object, newdata)
  out <- if (is.null(newdata)) as.vector(object$values$values) else {
    warn_outside_grid(object$values, newdata)   # (the midpoint of y_bound there, as documented)
    release_predict(object, newdata, method = method)
  }
  lim <- function(v) pmin(pmax(v, object$y_bound[1L]), object$y_bound[2L])
  if (interval == "none") return(if (clamp) lim(out) else out)
  b <- bin_predict_band(object, newdata, method, level)
  band <- cbind(fit = out, lwr = out - b$half, upr = out + b$half)
  band[b$nothing, c("lwr", "upr")] <- rep(object$y_bound, each = sum(b$nothing))
  # (the regression function of the clipped outputs lies within y_bound: clamping the band's ends
  # keeps its coverage)
  if (clamp) band[] <- lim(band)
  band
}

# The pointwise noise band of predict.dpfda_bin_release(): the half-width of the
# noise the prediction carries at each point, and which points say nothing but
# y_bound (an empty bin, or outside the domain, where the prediction is the
# midpoint without data). "simple": the bin's own Laplace noise, exact.
# "integral": the posterior mean is a linear image of the occupied bins' noise
# when the GP's hyperparameters are fixed (optimise = FALSE); fitted to the
# noisy means, they depend on the noise, and no public law is known.
bin_predict_band <- function(object, newdata, method, level) {
  method <- check_choice(method, c("simple", "integral"), "method")
  scale <- as.double(object$laplace_scale)
  q <- -log1p(-level)   # |Laplace(b)| <= b log(1 / (1 - level))
  if (is.null(newdata)) return(list(half = scale * q, nothing = object$counts == 0))
  pts <- as_points(newdata, "newdata", d = length(object$bins))
  if (method == "simple") {
    idx <- bin_index(pts, object$bins, object$domain, clamp = FALSE)
    nothing <- is.na(idx) | object$counts[idx] == 0
    nothing[is.na(nothing)] <- TRUE
    half <- ifelse(nothing, 0, scale[idx] * q)
    return(list(half = half, nothing = nothing))
  }
  fit <- object$fit
  if (is.null(fit) || !identical(fit$optimised, FALSE)) {
    dpfda_abort(paste("interval = \"confidence\" with method = \"integral\" needs the integral GP's hyperparameters",
                      "fixed before the release (dp_bin_regression(..., method = \"integral\", lengthscale = ,",
                      "variance = , noise_variance = , optimise = FALSE)): fitted to the noisy bin means they",
                      "depend on the noise, and the prediction's noise has no known law. Use method = \"simple\"",
                      "for a band, or predict without `interval`."),
                class = "dpfda_error_unsupported", arg = "interval")
  }
  occ <- which(object$counts > 0)
  if (!length(occ)) return(list(half = rep(0, nrow(pts)), nothing = rep(TRUE, nrow(pts))))
  lohi <- bin_bounds(occ, object$bins, object$domain)
  K <- integral_bins_cov(lohi, fit$lengthscale, fit$variance, 2 * scale[occ]^2 + fit$noise_variance)
  Kfb <- integral_cross(pts, lohi$lower, lohi$upper, fit$lengthscale) * fit$variance
  W <- t(solve(K, t(Kfb)))   # (K symmetric: the prediction is W times the occupied bins' values)
  law <- law_linear(W, scale[occ], "laplace", pts, "independent Laplace on the bin means, then the GP's posterior mean")
  list(half = noise_band(law, level, "pointwise", 10000L, 1L)$half, nothing = rep(FALSE, nrow(pts)))
}

#' @export
release_predict.dpfda_bin_release <- function(object, newdata, method = object$method, ...) {
  method <- check_choice(method, c("simple", "integral"), "method")
  D <- length(object$bins)
  pts <- as_points(newdata, "newdata", d = D)
  vals <- as.vector(object$values$values)
  mid <- mean(object$y_bound)
  if (method == "simple") {
    idx <- bin_index(pts, object$bins, object$domain, clamp = FALSE)
    out <- rep(mid, nrow(pts))
    out[!is.na(idx)] <- vals[idx[!is.na(idx)]]
    return(out)
  }
  fit <- object$fit
  if (is.null(fit)) fit <- integral_gp_fit(object, check_integral_options(list(), D))
  occ <- which(object$counts > 0)
  if (!length(occ)) return(rep(mid, nrow(pts)))
  lohi <- bin_bounds(occ, object$bins, object$domain)
  Kfb <- integral_cross(pts, lohi$lower, lohi$upper, fit$lengthscale) * fit$variance
  as.vector(Kfb %*% fit$alpha) + mid
}

# ---- binning ------------------------------------------------------------------

check_y_bound <- function(y_bound, auto_ok = FALSE) {
  # one positive number B is c(-B, B), |y| <= B (as dp_erm() has always taken it)
  if (is.numeric(y_bound) && is.null(dim(y_bound)) && length(y_bound) == 1L && isTRUE(is.finite(y_bound)) &&
      y_bound > 0 && is.finite(2 * y_bound)) {
    return(c(-1, 1) * as.double(y_bound))
  }
  ok <- is.numeric(y_bound) && is.null(dim(y_bound)) && length(y_bound) == 2L &&
    all(is.finite(y_bound)) && y_bound[1] < y_bound[2] && is.finite(diff(y_bound))
  if (!isTRUE(ok)) {
    rev_hint <- if (is.numeric(y_bound) && length(y_bound) == 2L && all(is.finite(y_bound)) &&
                    y_bound[1] > y_bound[2]) sprintf(" Did you mean c(%s, %s)?", format(y_bound[2]),
                                                     format(y_bound[1])) else ""
    dpfda_abort(sprintf("`y_bound` must be c(lower, upper) with lower < upper, or a positive number B for c(-B, B)%s, not %s.%s",
                        if (auto_ok) ", or \"auto\" (a private bound)" else "", describe_value(y_bound), rev_hint),
                arg = "y_bound")
  }
  as.double(y_bound)
}

check_bins <- function(bins, D) {
  ok <- is.numeric(bins) && is.null(dim(bins)) && length(bins) %in% c(1L, D) &&
    all(is.finite(bins)) && all(bins == round(bins)) && all(bins >= 1) && all(bins <= 2^31 - 1)
  if (!isTRUE(ok)) {
    arg_error("bins", if (D == 1L) "a whole number of bins, at least 1" else
      sprintf("a whole number of bins, at least 1: one for every dimension, or %d (one per dimension)", D), bins)
  }
  bins <- rep_len(as.double(bins), D)
  check_alloc(prod(bins) * (D + 3), "set of bins")
  as.integer(bins)
}

# Public domain: c(lower, upper) in 1-D, 2 x D matrix otherwise; returned as
# a 2 x D matrix.
check_bin_domain <- function(domain, D) {
  given <- domain   # (a refusal shows what the user gave, not the matrix made of it)
  if (D == 1L && is.numeric(domain) && is.null(dim(domain)) && length(domain) == 2L) {
    domain <- matrix(domain, nrow = 2L)
  }
  ok <- is.numeric(domain) && is.matrix(domain) && identical(dim(domain), c(2L, D)) &&
    all(is.finite(domain)) && all(domain[1, ] < domain[2, ]) && all(is.finite(domain[2, ] - domain[1, ]))
  if (!isTRUE(ok)) {
    what <- if (D == 1L) "c(lower, upper) with lower < upper" else
      sprintf("a 2 x %d matrix (rows lower, upper) with lower < upper", D)
    arg_error("domain", what, given)
  }
  storage.mode(domain) <- "double"
  dimnames(domain) <- NULL
  domain
}

# Linear (column-major, first dimension fastest: the order of expand.grid)
# bin index of each row of `pts`. Points outside the domain are clamped into
# the boundary bins (clamp = TRUE) or get NA. The upper edge belongs to the
# last bin. Bins are [a, b): a point on an edge is in the bin above it, and
# so is one within bin_edge_tol() of a bin's width below it. The position
# (u - lower) / width of a point on an edge is rounded in other units
# (airquality's 65 F at 18.33 C: 2.9999999999999996 bins): it moved to the
# bin below, and a change of units changed the counts.
bin_edge_tol <- function() 1e-9

bin_index <- function(pts, bins, domain, clamp = TRUE) {
  idx <- rep(0, nrow(pts))
  out <- rep(FALSE, nrow(pts))
  mult <- 1
  for (j in seq_along(bins)) {
    lo <- domain[1, j]
    w <- (domain[2, j] - lo) / bins[j]
    u <- pts[, j]
    out <- out | u < lo | u > domain[2, j]
    k <- floor((u - lo) / w + bin_edge_tol())
    k <- pmin(pmax(k, 0), bins[j] - 1)
    idx <- idx + k * mult
    mult <- mult * bins[j]
  }
  idx <- idx + 1
  if (!clamp) idx[out] <- NA
  idx
}

# Counts and means (of the clipped outputs) per bin.
bin_summary <- function(pts, y, bins, domain, y_bound, w = NULL) {
  yc <- pmin(pmax(as.double(y), y_bound[1]), y_bound[2])
  idx <- bin_index(pts, bins, domain, clamp = TRUE)
  B <- prod(bins)
  counts <- if (is.null(w)) tabulate(idx, nbins = B) else {   # (weights: the sum of each bin's)
    cw <- numeric(B)
    if (length(idx)) {
      aw <- rowsum(w, idx, reorder = TRUE)
      cw[as.integer(rownames(aw))] <- aw[, 1L]
    }
    cw
  }
  if (!is.null(w)) yc <- w * yc
  sums <- numeric(B)
  agg <- rowsum(yc, idx, reorder = TRUE)
  sums[as.integer(rownames(agg))] <- agg[, 1L]
  means <- rep(NA_real_, B)
  means[counts > 0] <- sums[counts > 0] / counts[counts > 0]
  list(counts = counts, sums = sums, means = means, index = idx)
}

# Lower and upper corners of the bins with linear indices `idx` (B x D each).
bin_bounds <- function(idx, bins, domain) {
  D <- length(bins)
  k <- idx - 1
  lower <- upper <- matrix(0, length(idx), D)
  for (j in seq_len(D)) {
    kj <- k %% bins[j]
    k <- k %/% bins[j]
    w <- (domain[2, j] - domain[1, j]) / bins[j]
    lower[, j] <- domain[1, j] + kj * w
    upper[, j] <- domain[1, j] + (kj + 1) * w
  }
  list(lower = lower, upper = upper)
}

# Bin centres as a grid: a vector in 1-D, else a matrix in expand.grid order.
bin_centres <- function(bins, domain) {
  axes <- lapply(seq_along(bins), function(j) {
    w <- (domain[2, j] - domain[1, j]) / bins[j]
    domain[1, j] + (seq_len(bins[j]) - 0.5) * w
  })
  if (length(axes) == 1L) return(axes[[1L]])
  g <- as.matrix(expand.grid(axes, KEEP.OUT.ATTRS = FALSE))
  dimnames(g) <- NULL
  g
}
