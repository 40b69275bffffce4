# Uncertainty of releases: bands of the privacy noise (confint), tidy data
# frames (as.data.frame, tidy, glance).

#' Bands for the privacy noise of a release
#'
#' A release is the non-private summary plus noise whose law is public (the
#' mechanism, noise scale and kernel or basis). `confint()` gives, at each
#' grid point, an interval `released -/+ q` that contains the non-private
#' summary with probability `level` over the privacy noise:
#'
#' * `type = "pointwise"`: at each point separately;
#' * `type = "simultaneous"`: at all grid points at once, a band
#'   `released -/+ c * se` with `c` the `level` quantile of
#'   \eqn{\max_i |N_i| / \mathrm{se}_i}.
#' * `type = "population"` (a [dp_mean()] release made with `inference =
#'   TRUE`): a simultaneous band for the **population mean function** (of
#'   the curves, centred on the public `center` and added back). Its `se`
#'   combines the sampling variability and the privacy noise of the mean
#'   (its public law). The sampling variance at each grid point is bounded
#'   from the release's private second moments: on the first \eqn{K}
#'   components by the noisy moments (projected on the positive
#'   semidefinite cone) plus a simultaneous quantile of their known Laplace
#'   noise at the point; on the other kept components by their noisy
#'   largest eigenvalue plus its noise quantile, times the squared basis
#'   functions; on the components the release drops, by `tau` (Cauchy--Schwarz);
#'   together holding with probability at least \eqn{1 - (1 - level)/10}.
#'   The three parts' standard deviations add (their correlation is unknown:
#'   adding variances would understate a spread shared by the first
#'   components and the others). The multiplier is the Monte Carlo quantile of
#'   the maximum of the standardised sum (Gaussian sampling part with the
#'   correlation of the noisy moments, the exact noise law), at level
#'   `level` plus the share left to the bounds; the half-width adds the bound
#'   on the smoothing bias of [dp_accuracy()] at each grid point (the worst
#'   case for a mean in the kernel's RKHS ball that allows norm `tau` along
#'   the first eigenfunction; zero for FRL on every component; for
#'   `"bernstein"` the components are those of the Bernstein polynomials'
#'   range and the bias is the polynomial's approximation bias; for
#'   `"iclp_ar"`, whose thresholding is not linear, the sampling error is
#'   bounded component by component and added to the noise quantile, see
#'   [dp_mean()]). Clipping
#'   bias is not included: there is none when every curve is within `tau`.
#'   The result's `method` says all this. Coverage and width are measured in
#'   `bench/bench-population-band.R` (where each part of the width comes
#'   from: `bench/bench-population-band-decompose.R`): the band is
#'   conservative, and much wider than a non-private band wherever the
#'   privacy noise of the mean exceeds the sampling error.
#' * `type = "population"` for a [dp_kde()] release (mechanisms `"gp"`,
#'   `"sobolev"`, `"iclp"`, `"frl"`; `"bernstein"` in one dimension): a band,
#'   simultaneous at the grid points, for the **smoothed population density**
#'   \eqn{f_h = K_h * f} (the density of the points clamped to `domain`,
#'   smoothed by the Gaussian kernel of the bandwidth), or, with `smoothness
#'   = B` (an assumed bound \eqn{|f''| \le B}, the Hessian's norm in several
#'   dimensions; Gaussian-kernel mechanisms), for the **density** \eqn{f}
#'   itself: each end moves by \eqn{B\,\mathrm{tr}(H)/2 = B h^2/2}. It
#'   spends no budget: the estimate is an average of a kernel bounded in
#'   \eqn{[lo(t), hi(t)]}, so its sampling error is bounded by Bernstein's
#'   inequality with the variance bound \eqn{(hi - \mu)(\mu - lo)} and a
#'   union bound over the grid, and the released value itself bounds the
#'   unknown \eqn{\mu(t)}: the band is the set of \eqn{\mu} within the
#'   noise's simultaneous quantile (its public law) plus that deviation of
#'   the release (not symmetric about it; \eqn{f_h \ge 0}). `1 - level` is
#'   split between the two by a public rule (the split giving the narrowest
#'   band at the uniform density). Binned estimates add the bound on the
#'   binning error; for `"bernstein"` the mean of the release is the iterated
#'   Bernstein polynomial of \eqn{f_h}, whose distance to \eqn{f_h} at each
#'   grid point is bounded by the largest it can be for any law of the data:
#'   the bias is linear in the law, so this is its largest value for one
#'   point mass, found on a fine grid of the domain (step at most
#'   \eqn{h_{bw}/200}) plus the most it can change between two of its points
#'   (or the general \eqn{2^{h-1} D^2 \sup|f_h''| / (8k)} with
#'   \eqn{\sup|f_h''| \le B} under `smoothness`, if smaller). Without
#'   `smoothness` a band for \eqn{f_h} stops at its largest possible value,
#'   the kernel's peak \eqn{K_h(0)}. For `"iclp"` and
#'   `"frl"` the target is the mechanism's own smoothed density (the power
#'   kernel of the bandwidth after binning to the grid), and `smoothness` is
#'   refused. With several points per privacy unit (`unit`), each unit adds
#'   the average of its points' kernels, bounded by the same limits, and the
#'   band is over the \eqn{n} independent units for the mean of the units'
#'   own smoothed densities (which is \eqn{f_h} when every point has density
#'   \eqn{f}, whatever the number of points per unit). A bandwidth from
#'   [dp_bandwidth()] on the same data is refused
#'   (`dpfda_error_unsupported`): the argument needs a bandwidth fixed
#'   without the points. `se` is the noise sd combined with the
#'   largest sampling sd the band allows. Coverage and width:
#'   `bench/bench-kde-population-band.R`. Intervals for the density's
#'   quantiles (a private median, say) follow from this band, or from the
#'   simultaneous noise band: `quantile(r, interval = )`, see
#'   [density-summaries].
#'
#' How `q` and `c` are computed is stated in the result (`attr(, "method")`):
#' Gaussian noise gives exact pointwise intervals from the known covariance
#' (normal quantiles of its diagonal); for Gaussian noise with correlated
#' coordinates the simultaneous constant is simulated from the exact Gaussian
#' law. Laplace-type noise (ICLP, FRL, Bernstein) is a linear image of
#' i.i.d. Laplace variables, and both bands are Monte Carlo quantiles of that
#' public law (`nsim` draws, fixed public `seed`; your random-number state is
#' left untouched). Independent coordinates (a Bernstein lattice, the bins of
#' [dp_bin_regression()]) give exact bands for both types.
#'
#' For a [dp_kme()] release the band is for its embedding
#' \eqn{\tilde\mu(z) = \sum_m w_m k(z_m, z)} at its points `z` (columns
#' named as the data's point columns, `predictors`, or `z1`, `z2`, ...,
#' instead of `id`, `arg`). Method `"subspace"`: the noise
#' added to the `F` subspace coordinates reaches the points through a known
#' linear map, so Gaussian noise (`delta > 0`) gives exact pointwise bands and
#' Laplace noise (`delta = 0`) Monte Carlo ones. Method `"random_features"`:
#' the band of the noise added to the `J` random features, seen through the
#' features at the points (exact for Gaussian noise); the reduced-set fit that
#' turns the noisy features into points and weights is post-processing whose
#' approximation error is not included. The exponential method adds no noise
#' and releases with `l1_bound` are projected after the noise: both give a
#' classed error (`dpfda_error_unsupported`).
#'
#' The pointwise and simultaneous bands cover the **noise** only. What the
#' mechanism estimates is the clipped and smoothed summary (shrunk for the
#' ICLP and GP, truncated to `M` components for FRL, a polynomial for
#' Bernstein); clipping and smoothing add a bias that these bands do not
#' include (the population band bounds the smoothing bias). It can be most of
#' the error: at FRL's default `M` (3 on 200 curves at epsilon 1) the 95\%
#' noise band covered the sample mean at 80\% of the grid points, and all of
#' it in none of 200 releases; the print's smoothing-bias bound says how far
#' the two can be. Computing a band is
#' post-processing: it costs no privacy budget.
#'
#' The population band of a Bernstein mean (`dp_mean(mechanism =
#' "bernstein", inference = TRUE)`) is cut to the centre \eqn{\pm} `tau`, the
#' range within which that mechanism clamps every curve at every grid point.
#'
#' An empty bin of a [dp_bin_regression()] release holds the midpoint of
#' `y_bound` without noise (`se` 0); its band is the whole of `y_bound`, since
#' nothing is known of the bin's mean but its bounds.
#'
#' @param object A `dpfda_release`.
#' @param parm Optional: the rows to return (whole numbers, in the order of
#'   `as.data.frame()` of the release, or one `TRUE`/`FALSE` per row). The band
#'   is computed on every point first, so a simultaneous or population band
#'   stays simultaneous over the whole grid.
#' @param level Coverage probability.
#' @param type `"pointwise"`, `"simultaneous"` or `"population"` (see above).
#' @param nsim Monte Carlo draws where simulation is needed (on large grids,
#'   such as the surface of a covariance release, at most \eqn{10^7} simulated
#'   values: \eqn{\max(1000, 10^7 / m)} draws on \eqn{m} points). A
#'   simultaneous noise band takes at least \eqn{50 / (1 - level)} draws
#'   (within that cap), so that its quantile is resolved at high levels.
#' @param seed Seed of the public simulation.
#' @param smoothness For `type = "population"` of a [dp_kde()] release:
#'   `NULL` (a band for the smoothed density \eqn{f_h}) or an assumed bound
#'   \eqn{B \ge 0} on \eqn{|f''|} (a band for the density \eqn{f}).
#' @param ... Unused.
#' @return A data frame of class `dpfda_confint` with columns `id`, `arg`
#'   (or `arg1`, `arg2`, ...), `estimate`, `se` (noise standard deviation),
#'   `lower`, `upper`, and attributes `level`, `type`, `method`.
#' @seealso [dp_accuracy()]; [as.data.frame()], `tidy()` and `glance()` for
#'   releases.
#' @examples
#' g <- seq(0, 1, length.out = 101)
#' r <- dp_gp_release(function(t) sin(2 * pi * t), g, kernel_gaussian(0.1),
#'                    sensitivity = 0.05, epsilon = 1, delta = 1e-5)
#' head(confint(r))
#' attr(confint(r, type = "simultaneous"), "method")
#' # a density: the band for the smoothed population density f_h (no budget spent),
#' # and for the density itself if |f''| <= 0.5 is assumed
#' rk <- dp_kde(rnorm(500), seq(-4, 4, length.out = 81), bandwidth = 0.4, epsilon = 1, delta = 1e-5)
#' head(confint(rk, type = "population"))
#' head(confint(rk, type = "population", smoothness = 0.5))
#' @export
confint.dpfda_release <- function(object, parm, level = 0.95, type = c("pointwise", "simultaneous", "population"),
                                  nsim = 10000, seed = 1, smoothness = NULL, ...) {
  confint_no_extras(...)
  type <- check_choice(type, c("pointwise", "simultaneous", "population"), "type")
  kde <- inherits(object, "dpfda_kde_release")
  if (!is.null(smoothness) && !(kde && identical(type, "population"))) {
    dpfda_abort(paste("`smoothness` bounds the smoothing bias of a density: it is used only with type =",
                      "\"population\" for a dp_kde() release."), arg = "smoothness")
  }
  b <- if (identical(type, "population")) {
    level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                          what = "a number in (0, 1)")
    nsim <- check_count(nsim, "nsim", min = 100, max = 1e7)
    seed <- check_count(seed, "seed", min = 0)
    pb <- if (kde) kde_population_band(object, level, nsim, seed, smoothness) else
      population_band(object, level, nsim, seed)
    c(pb, list(level = level, type = "population"))
  } else confint_band(object, level, type, nsim, seed)
  level <- b$level
  type <- b$type
  d <- as.data.frame(object$values)
  n <- nrow(object$values$values)
  # as.data.frame(curves) orders by id, then grid point
  half <- rep(b$half, times = n)
  d$estimate <- d$value
  d$value <- NULL
  d$se <- rep(b$sd, times = n)
  # (the population band of a density is not symmetric about the estimate)
  d$lower <- if (is.null(b$lower)) d$estimate - half else rep(b$lower, times = n)
  d$upper <- if (is.null(b$upper)) d$estimate + half else rep(b$upper, times = n)
  if (inherits(object, "dpfda_bin_release") && any(object$counts == 0)) {
    # an empty bin holds the midpoint of y_bound by convention, without noise: a band of width 0
    # there read as a mean known exactly; nothing is known of it but y_bound
    e <- which(object$counts == 0)
    d$lower[e] <- object$y_bound[1L]
    d$upper[e] <- object$y_bound[2L]
    b$method <- sprintf("%s; %d empty bin%s: the whole of y_bound (no data, so no estimate)", b$method,
                        length(e), if (length(e) == 1L) "" else "s")
  }
  confint_rows(structure(d, level = level, type = type, method = b$method, class = c("dpfda_confint", "data.frame")),
               if (!missing(parm)) parm)
}

# `parm` of confint(): the rows to keep (whole numbers, or a logical vector with one entry per
# row), after the band was computed on every point, so a simultaneous band stays simultaneous
# over all of them. (It was ignored: confint(r, parm = 1:3) returned every row.)
confint_rows <- function(d, parm) {
  if (is.null(parm)) return(d)
  m <- nrow(d)
  ok <- if (is.logical(parm)) length(parm) == m && !anyNA(parm) else
    is.numeric(parm) && length(parm) >= 1L && all(is.finite(parm)) && all(parm == round(parm)) &&
      all(parm >= 1) && all(parm <= m)
  if (!isTRUE(ok)) {
    arg_error("parm", sprintf(paste("row numbers of the band (whole numbers from 1 to %d, in the order of",
                                    "as.data.frame() of the release) or %d TRUE/FALSE values"), m, m), parm)
  }
  out <- d[parm, , drop = FALSE]
  rownames(out) <- NULL
  attributes(out)[c("level", "type", "method")] <- attributes(d)[c("level", "type", "method")]
  out
}

#' @export
print.dpfda_confint <- function(x, ...) {
  pop <- if (startsWith(attr(x, "method") %||% "", "population band for")) "density" else "mean"
  target <- attr(x, "target") %||% paste("population", pop)   # (a difference of releases names its own)
  what <- if (identical(attr(x, "type"), "population"))
            paste0("simultaneous %s%% band for the ", target, " (%s)\n")
          else paste(attr(x, "type"), "%s%% band of the privacy noise (%s)\n")
  cat(sprintf(what, format(100 * attr(x, "level")), attr(x, "method")))
  print(structure(x, class = "data.frame", level = NULL, type = NULL, method = NULL, target = NULL), ...)
  invisible(x)
}

# confint(), tidy() and as.data.frame() of a release take no other
# arguments: a misspelt one (or plot()'s `band = "population"`) would
# otherwise be dropped and give the noise band without a word.
confint_no_extras <- function(...) {
  extra <- names(list(...)) %||% rep("", ...length())
  if (!length(extra)) return(invisible())
  nm <- extra[1L]
  if (identical(nm, "band")) {
    dpfda_abort(paste("confint(), tidy() and as.data.frame() choose the band with `type` (\"pointwise\",",
                      "\"simultaneous\" or \"population\"); `band` is plot()'s name for it."),
                arg = "band")
  }
  dpfda_abort(sprintf(paste("%s is not an argument of confint() for a release: use `level`, `type`, `nsim`, `seed`",
                            "or `smoothness`; see ?confint.dpfda_release."),
                      if (nzchar(nm)) sprintf("`%s`", nm) else "An unnamed value"),
              arg = if (nzchar(nm)) nm else "...")
}

# Half-widths of a band on the grid and the method used.
# The arguments of confint() checked, and the band of the release's noise law
# (shared by the methods for releases and for KME releases).
confint_band <- function(object, level, type, nsim, seed) {
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                        what = "a number in (0, 1)")
  type <- check_choice(type, c("pointwise", "simultaneous"), "type")
  nsim <- check_count(nsim, "nsim", min = 100, max = 1e7)
  seed <- check_count(seed, "seed", min = 0)
  law <- noise_law(object)
  c(noise_band(law, level, type, nsim, seed), list(level = level, type = type, sd = sqrt(law$var)))
}

# The points whose noise counts in a simultaneous band: an sd at rounding level against the largest
# (a GP regression's prediction far from the data: sd 4.6e-17 beside 87.8) is no noise, and its
# draws, rounding errors, divided by it made the multiplier 135 instead of about 2.5.
noisy_points <- function(s) s > 1e-10 * max(s, 0)

noise_band <- function(law, level, type, nsim, seed) {
  sd <- sqrt(law$var)
  pos <- noisy_points(sd)
  mpos <- sum(pos)
  iid <- isTRUE(law$iid)
  gauss <- law$family == "gaussian"
  if (type == "pointwise") {
    if (gauss) {
      return(list(half = stats::qnorm((1 + level) / 2) * sd,
                  method = "exact: normal quantiles of the known Gaussian noise covariance"))
    }
    if (iid) {   # |Laplace(b)| <= b log(1 / (1 - level)); sd = sqrt(2) b
      return(list(half = sd / sqrt(2) * -log1p(-level),
                  method = "exact: quantiles of independent Laplace noise"))
    }
    qq <- law_abs_quantiles(law, level, nsim, seed)
    return(list(half = qq$q, method = sprintf(paste("Monte Carlo: %d draws from the public law of the",
                                                      "Laplace-type noise (%s)"), qq$nsim, law$note)))
  }
  if (mpos == 0L) return(list(half = sd, method = "no noise"))
  if (iid) {   # independent coordinates: Sidak is exact
    p1 <- level^(1 / mpos)
    c <- if (gauss) stats::qnorm((1 + p1) / 2) else -log1p(-p1) / sqrt(2)
    return(list(half = c * sd, method = sprintf("exact: independent %s noise on %d points",
                                                if (gauss) "Gaussian" else "Laplace", mpos)))
  }
  # (a level beyond what the draws resolve: at level 0.9999, 1000 draws put 0.1 of a draw above the
  # quantile and the band came out 9% too narrow; at least 50 draws beyond it, or said)
  nsim <- mc_draws(max(nsim, ceiling(50 / (1 - level))), length(sd))
  if (nsim * (1 - level) < 10) {
    dpfda_warn(sprintf(paste("A simultaneous band at level %s needs more than the %d draws that fit in memory",
                             "on %d points to resolve its quantile (%s draws lie beyond it): the band may be",
                             "too narrow; use a lower level or fewer points."), format(level), nsim, length(sd),
                       format(nsim * (1 - level), digits = 2)), class = "dpfda_warning_utility")
  }
  ratio <- noise_max_ratios(law, sd, nsim, seed)
  c <- stats::quantile(ratio, level, names = FALSE, type = 8)
  list(half = c * sd,
       method = sprintf("Monte Carlo: %d draws of the maximum standardised noise from %s", nsim,
                        if (gauss) "the exact Gaussian noise law (known covariance)"
                        else sprintf("the public law of the Laplace-type noise (%s)", law$note)))
}

#' Data frames and tidy summaries of releases
#'
#' `as.data.frame()` gives one row per curve and grid point with the
#' released `value`, the noise standard deviation `se` and a pointwise band
#' `lower`, `upper` at level `level` (see [confint.dpfda_release()]; `NA`
#' when the release's noise is not additive on its values). For a [dp_kme()]
#' release the rows are its points (columns named as the data's, or `z1`,
#' `z2`, ...) with their `weight`, the
#' embedding `value` at the point and its band (`NA` for the exponential
#' method and with `l1_bound`). `tidy()` gives the same in the broom vocabulary (`estimate`,
#' `std.error`, `conf.low`, `conf.high`), `glance()` one row of public
#' settings: `mechanism`, `epsilon`, `delta`, `sensitivity`, `noise_scale`,
#' the range of the noise sd, the expected \eqn{L^2} noise error, the public
#' bound on the smoothing bias `bias_l2` and the `total_l2` of both (as
#' [dp_accuracy()]; `NA` where there is no such bound), `tau`, `n`,
#' the noise source and `clipped_fraction`, the private estimate of the
#' share of curves (units) beyond `tau` of a `dp_mean(inference = TRUE)`
#' release (clamped to \eqn{[0, 1]}, so biased up where the count is noisy),
#' and `clipped_count`, the noisy count itself (unbiased, so averaging it
#' over releases is fair; it may be negative or above `n`) (both `NA` for
#' other releases), and `epsilon_total`, `delta_total`: the guarantee of the
#' release with that of a bandwidth [dp_bandwidth()] released on the same
#' data and passed to [dp_kde()] (composed; the release's own otherwise),
#' and `privacy_unit`, the individual the guarantee protects as the print
#' states it ("one curve (35)", "Subject (27 units)", "one record (272)";
#' `n` counts those).
#' For a [dp_kme()] release `expected_l2` is the root-mean-square noise of
#' the embedding at the released points (weighted as in `noise_law()`), and
#' `glance()` adds `expected_rkhs`, the root-mean-square RKHS norm of the
#' noise (the MMD it puts between the release and the data's embedding; for
#' random features, in the feature space), the figure that `print()` shows,
#' which says more than the noise at the points.
#' `tidy()` and `glance()` are the generics of the
#' \pkg{generics} package (re-exported), so `broom::tidy()` finds them too.
#'
#' @param x A `dpfda_release`.
#' @param row.names,optional Unused.
#' @param level Level of the pointwise band.
#' @param names `TRUE` to name the argument and value columns after the
#'   data's (`arg_name`, `value_name` of the released curves, e.g. `age`,
#'   `height`), with the curve labels in `id`; `FALSE` (default) for `arg`
#'   and `value`.
#' @param conf.int For `tidy()`: add the band columns.
#' @param conf.level Level of the band for `tidy()`.
#' @param ... Passed to [confint.dpfda_release()] (e.g. `nsim`, or `type =
#'   "population"` for the population band of a `dp_mean(..., inference =
#'   TRUE)` release).
#' @return A data frame.
#' @name tidy.dpfda_release
#' @examples
#' g <- seq(0, 1, length.out = 51)
#' x <- curves(outer(runif(100, 0.5, 1), sin(2 * pi * g)), g)
#' r <- dp_mean(x, epsilon = 1, tau = 1)
#' head(as.data.frame(r))
#' head(tidy(r))
#' glance(r)
NULL

#' @rdname tidy.dpfda_release
#' @export
as.data.frame.dpfda_release <- function(x, row.names = NULL, optional = FALSE, level = 0.95, ...,
                                        names = FALSE) {
  d <- as.data.frame(x$values, names = names)
  ci <- tryCatch(confint.dpfda_release(x, level = level, ...), dpfda_error_unsupported = function(e) NULL)
  if (is.null(ci)) {
    d$se <- d$lower <- d$upper <- NA_real_
    d <- d[, c(setdiff(names(d), c("se", "lower", "upper")), "se", "lower", "upper")]
  } else {
    d$se <- ci$se
    d$lower <- ci$lower
    d$upper <- ci$upper
  }
  d
}

#' @importFrom generics tidy glance
#' @export
generics::tidy

#' @export
generics::glance

#' @rdname tidy.dpfda_release
#' @export
tidy.dpfda_release <- function(x, conf.int = TRUE, conf.level = 0.95, ...) {
  # (named as tidy() names it: the message said `level`)
  conf.level <- check_number(conf.level, "conf.level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                             what = "a number in (0, 1)")
  dots <- list(...)
  if ("level" %in% names(dots)) {
    dpfda_abort("tidy() takes the level of its band as `conf.level` (broom's name), not `level`.", arg = "level")
  }
  nms <- names(dots) %||% rep("", length(dots))
  bad <- nms[!nms %in% c("type", "nsim", "seed", "smoothness")]
  if (length(bad) && !identical(bad[1L], "band")) {
    dpfda_abort(sprintf(paste("%s is not an argument of tidy() for a release: use `conf.int`, `conf.level`, `type`,",
                              "`nsim`, `seed` or `smoothness`; see ?tidy.dpfda_release."),
                        if (nzchar(bad[1L])) sprintf("`%s`", bad[1L]) else "An unnamed value"),
                arg = if (nzchar(bad[1L])) bad[1L] else "...")
  }
  d <- as.data.frame(x, level = conf.level, ...)
  names(d)[names(d) == "value"] <- "estimate"
  names(d)[names(d) == "se"] <- "std.error"
  if (isTRUE(conf.int)) {
    names(d)[names(d) == "lower"] <- "conf.low"
    names(d)[names(d) == "upper"] <- "conf.high"
  } else {
    d$lower <- d$upper <- NULL
  }
  d
}

#' @rdname tidy.dpfda_release
#' @export
glance.dpfda_release <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")   # (no options: a typo would be ignored)
  law <- tryCatch(published_law(x), dpfda_error_unsupported = function(e) NULL)
  sd <- if (is.null(law)) NA_real_ else sqrt(law$var)
  num <- function(v) if (is.numeric(v) && length(v) == 1L) as.double(v) else NA_real_
  b <- release_bias_bound(x)
  l2 <- if (is.null(law)) NA_real_ else sqrt(sum(law$weights * law$var))
  bias <- if (is.null(b)) NA_real_ else b$l2
  data.frame(mechanism = x$mechanism, epsilon = x$epsilon, delta = x$delta,
             sensitivity = num(x$sensitivity), noise_scale = num(x$noise_scale),
             noise_family = if (is.null(law)) NA_character_ else law$family,
             noise_sd_min = min(sd), noise_sd_max = max(sd),
             expected_l2 = l2, bias_l2 = bias, total_l2 = sqrt(l2^2 + bias^2),
             tau = num(x$tau), n = num(x$n), rng = x$rng,
             clipped_fraction = if (is.null(x$inference$clipped)) NA_real_ else
               clipped_fraction(x$inference$clipped)[["estimate"]],
             clipped_count = if (is.null(x$inference$clipped)) NA_real_ else as.double(x$inference$clipped$count),
             # with a bandwidth released on the same data (dp_bandwidth()): both guarantees composed
             epsilon_total = x$epsilon + (x$bandwidth_budget$epsilon %||% 0),
             delta_total = x$delta + (x$bandwidth_budget$delta %||% 0),
             # (what the print says: "one curve (35)", "Subject (27 units)", "one record (272)")
             privacy_unit = release_privacy_unit(x),
             stringsAsFactors = FALSE)
}

# ---- kernel mean embeddings (dp_kme) ------------------------------------------
#
# A dp_kme() release is a weighted set of points; its embedding at the points
# is mu(z) = K(z, Z) w. The noise law is public (Balog et al., Algorithms 1 and 2):
# * subspace (Algorithm 1): beta = alpha + s g on the F kept coordinates, and
#   w_S = L_S^{-T} beta, so the noise of the embedding at the points is
#   A (s g) with A = K(z, Z_S) L_S^{-T} (L_S L_S' = K_SS; A = L at the kept
#   points): Gaussian g (delta > 0) or standard Laplace g (delta = 0);
# * random features (Algorithm 2): s g is added to the J mean features; at a
#   point y it is phi(y)' s g. The released points and weights are a
#   reduced-set fit to the noisy features (post-processing); the band is that
#   of the added noise and does not include the fit's approximation error.
# With noise = "exact" the coordinates are discrete (a 2^-k grid) with the
# recorded scale; their law is taken as the continuous one of that scale.
#' @export
noise_law.dpfda_kme_release <- function(x, ...) {
  z <- x$points
  grid <- if (ncol(z) == 1L) as.vector(z) else z
  fam <- if (isTRUE(x$delta == 0)) "laplace" else "gaussian"
  exact <- if (isTRUE(x$noise_exact)) "; discrete noise on a fine grid, taken as continuous" else ""
  if (identical(x$method, "exponential")) {
    dpfda_abort(paste("A dp_kme(method = \"exponential\") release selects one public candidate: it has no",
                      "additive noise and so no noise band."), class = "dpfda_error_unsupported", arg = "object")
  }
  if (!is.null(x$l1_bound)) {
    dpfda_abort(paste("With `l1_bound` the weights are projected onto an L1 ball after the noise (a",
                      "non-linear step), so the released embedding has no additive noise law; release without",
                      "`l1_bound` for bands."), class = "dpfda_error_unsupported", arg = "object")
  }
  if (identical(x$method, "subspace")) {
    K <- kernel_matrix(x$kernel, z)
    b <- kme_basis(K, x$tol, x$pivot)                   # public: K_zz only, as in the release
    if (!identical(as.integer(b$kept), as.integer(x$kept))) {
      dpfda_abort("The release's subspace basis cannot be rebuilt from its points.",
                  class = "dpfda_error_unsupported", arg = "object")
    }
    A <- t(forwardsolve(b$Ls, K[b$kept, , drop = FALSE]))
    return(law_linear(A, rep(x$noise_scale, ncol(A)), fam, grid,
                      sprintf("%s noise on %d subspace coordinates%s", fam, ncol(A), exact)))
  }
  A <- kme_features_raw(x$rff, z)
  law_linear(A, rep(x$noise_scale, ncol(A)), fam, grid,
             sprintf(paste("%s noise on %d random features, seen through the features at the points; the",
                           "reduced-set fit is not included%s"), fam, ncol(A), exact))
}

#' @rdname confint.dpfda_release
#' @export
confint.dpfda_kme_release <- function(object, parm, level = 0.95, type = c("pointwise", "simultaneous"),
                              nsim = 10000, seed = 1, ...) {
  b <- confint_band(object, level, type, nsim, seed)
  level <- b$level
  type <- b$type
  p <- object$points
  colnames(p) <- kme_point_names(object)
  est <- stats::predict(object)
  d <- data.frame(p, estimate = est, se = b$sd, lower = est - b$half, upper = est + b$half, check.names = FALSE)
  confint_rows(structure(d, level = level, type = type, method = b$method, class = c("dpfda_confint", "data.frame")),
               if (!missing(parm)) parm)
}

# max_j |N_ij| / s_j for each row i of N, over the columns with s_j > 0 (0 if there is none).
standardised_row_max <- function(N, s) {
  pos <- noisy_points(s)
  if (!any(pos)) return(rep(0, nrow(N)))
  M <- abs(N[, pos, drop = FALSE]) * rep(1 / s[pos], each = nrow(N))
  M[cbind(seq_len(nrow(M)), max.col(M, ties.method = "first"))]
}

# nsim draws of max_t |N(t)| / sd(t) over the points with sd > 0, from
# the public noise law with a public seed, in chunks of at most 2e6 values.
noise_max_ratios <- function(law, sd, nsim, seed) {
  with_public_seed(seed, {
    chunk <- max(1L, min(nsim, floor(2e6 / max(1, length(sd)))))
    out <- numeric(0)
    while (length(out) < nsim) {
      d <- law$draw(min(chunk, nsim - length(out)))
      out <- c(out, standardised_row_max(d, sd))
    }
    out
  })
}
