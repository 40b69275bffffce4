# Quantiles, means and quartiles of densities on a grid (as_density(), mortality_distribution(),
# dp_kde() releases): post-processing of a release, so free of privacy cost.

#' Quantiles and means of densities
#'
#' The quantiles (`quantile()`) and the mean and quartiles (`summary()`) of
#' one-dimensional densities on a grid: a
#' private median or quartiles from a released density ([dp_kde()] then
#' [as_density()]), or the median and mean age at death of each group of a
#' [mortality_distribution()]. Both are post-processing of what was
#' released, so they cost no privacy budget.
#'
#' The density is taken as linear between its grid points (zero outside the
#' grid): the density whose integral is the trapezoid rule by which
#' [as_density()] normalises, so its distribution function is piecewise
#' quadratic and the quantiles and mean below are exact for it (not
#' interpolated from a coarser table). A curve that does not integrate to
#' one (a density built by hand) is divided by its integral first.
#'
#' A [dp_kde()] release is first made a density by [as_density()] (negative
#' noise set to zero, the result normalised); its noise makes the quantiles
#' noisy too, most in the tails, where the released density is small and
#' relatively noisy.
#'
#' @section Intervals:
#' `quantile(r, probs, interval = "population")` of a one-dimensional
#' [dp_kde()] release gives, for each probability, the estimate and an
#' interval for the quantile of the **population density** (the density
#' smoothed by the kernel, \eqn{f_h = K_h * f}, on the grid's range and
#' normalised there; the density \eqn{f} itself with `smoothness`), and
#' `interval = "noise"` one for the quantile of the non-private estimate
#' (what the same release would give without its noise). The intervals hold
#' for all the probabilities at once, with probability at least `level`.
#' They cost no budget: they are post-processing of the release and of its
#' public noise law. The same holds for a [dp_mean()] of densities (curves
#' from [as_density()] or [mortality_distribution()], one density per
#' individual): its population interval is for the quantiles of the
#' population mean density and needs `inference = TRUE`. Two routes:
#'
#' * **Through the distribution function** (every noise interval; the
#'   population interval of mechanisms `"gp"` and `"sobolev"`, whose
#'   estimate is a Gaussian kernel density, without
#'   `unit` or `smoothness`). A quantile depends on the density only
#'   through its integrals, and the integral of the noise has a much
#'   smaller simultaneous quantile than a band of the noise at each point.
#'   The noise interval bounds the integrated noise at every point at once
#'   (Monte Carlo quantile of its public law). The population interval adds
#'   the sampling error by the Dvoretzky-Kiefer-Wolfowitz inequality with
#'   Massart's constant (a smoothed distribution function is at most as far
#'   from its population's as the empirical one, \eqn{\sup|F_n - F|}, times
#'   the kernel's mass within `domain`, since both are 0 below it and 1
#'   above it: half at a domain end), the integration on the grid (at most \eqn{\Delta^2/8 \cdot
#'   4\phi(1)/h^2} for grid step \eqn{\Delta}: keep \eqn{\Delta \le h/3}),
#'   and the binning and rounding bounds of the population band. The
#'   distribution function so bounded is inverted at 600 points across the
#'   grid.
#' * **Through the simultaneous band** (the population interval of the other
#'   mechanisms, of a release with `unit`, with `smoothness`, and of a
#'   mean of densities): the range of the quantiles of every
#'   density that lies within the simultaneous band of that type at the
#'   grid points (taken, like the estimate, as linear between them, negative
#'   values set to zero and normalised on the grid's range), found exactly
#'   on a grid 16 times finer than the release's.
#'
#' An interval that would miss the estimate (the estimate sets negative
#' noise to zero) is widened to it. The population interval needs what the
#' population band needs (a bandwidth chosen without the data, not by
#' [dp_bandwidth()] on them; see [confint.dpfda_release()]). With few points
#' or a small epsilon it can span the whole grid. Coverage and width of the
#' population quartiles are measured in `bench/bench-quantile-interval.R`:
#' the route through the distribution function is about half as wide as the
#' band's at n = 1000.
#'
#' @section In the plane:
#' `summary()` of densities on a two-dimensional (tensor) grid gives their
#' means, standard deviations and correlation instead of quartiles
#' (products of trapezoid weights). For a two-dimensional [dp_kde()]
#' release, `summary(r)` takes the released values as a signed density:
#' the noise has mean zero, whereas setting its negative values to zero
#' (as [as_density()] does) spreads its positive part over the grid and
#' moves the moments towards the domain's centre, widening the standard
#' deviations and shrinking the correlation. When the noise dominates, a
#' signed density's moment can be impossible (a mean beyond the grid, a
#' correlation beyond \eqn{\pm 1}): each is then moved into its possible
#' range (means within the axis's range, standard deviations up to half of
#' it, the correlation in \eqn{[-1, 1]}; post-processing) and marked in the
#' column `moved`, with a note. Each comes with `noise_sd`, its
#' standard deviation under the release's public noise law (200 fresh draws
#' added to the release, public seed): post-processing, no budget. The
#' quantiles of one axis are those of its margin,
#' `quantile(as_density(r, margin = "lat"))` (see [as_density()]), without
#' intervals, or `quantile(r, probs, margin = "lat", interval = "noise")`
#' with intervals for the margin's privacy noise.
#'
#' @param x A one-dimensional `dpfda_density` (from [as_density()] or
#'   [mortality_distribution()]), a [dp_kde()] release, or a [dp_mean()]
#'   release of such densities. (Other curves and
#'   releases are refused with advice: make them densities with
#'   [as_density()].)
#' @param probs Probabilities in \[0, 1\].
#' @param names Whether to name the quantiles by their probabilities ("25%").
#' @param interval For a [dp_kde()] release: `"none"` (the quantiles
#'   alone), `"noise"` or `"population"`: a data frame with an interval for
#'   each quantile (see Intervals).
#' @param margin For a [dp_kde()] release on a tensor grid of two or more
#'   dimensions: one axis, by number or name. The quantiles are then those of
#'   that margin (the release integrated over the other axes, see
#'   [as_density()]), and `interval = "noise"` bounds them for the margin's
#'   integrated noise (the route through the distribution function, which
#'   holds for the additive noise of every mechanism). Population intervals
#'   are not given for a margin.
#' @param level,nsim,seed,smoothness For `interval`: the level, and the
#'   Monte Carlo draws, seed and assumed bound on \eqn{|f''|} of the band it
#'   comes from (see [confint.dpfda_release()]).
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return `quantile()`: a vector of quantiles for a single density, or a
#'   matrix with one row per density (named by the groups of a mortality
#'   object) and one column per probability. With `interval`, a data frame
#'   (class `dpfda_quantile_interval`) with columns `prob`, `estimate`,
#'   `lower` and `upper`, whose print says what the intervals cover and how;
#'   its attributes `level`, `interval`, `target` and `method` say the same. `summary()`: the summary of the
#'   curves (pointwise mean and sd, see [curves()]) with `distribution`, a
#'   data frame with one row per density: `group` (its group's label, or its
#'   number), `min` and `max` (the ends of its support on the grid), `q1`,
#'   `median`, `q3` and `mean`. (`mean()` of densities stays the pointwise
#'   mean curve, as for any curves.)
#' @examples
#' x <- faithful$eruptions
#' old <- dp_reproducible(1)   # seeded: reproducible, NOT private
#' r <- dp_kde(x, seq(1, 6, length.out = 101), 0.2, epsilon = 1, delta = 1e-6, domain = c(1, 6))
#' quantile(r, c(0.25, 0.5, 0.75))   # private quartiles (post-processing of r)
#' quantile(x, c(0.25, 0.5, 0.75))   # the data's own (not private)
#' # intervals: for the quartiles without the privacy noise (narrow), and for the population
#' # quartiles (of the density smoothed by the kernel; wide with 272 points)
#' quantile(r, c(0.25, 0.5, 0.75), interval = "noise")
#' quantile(r, c(0.25, 0.5, 0.75), interval = "population")
#' summary(as_density(r))$distribution
#' dp_rng(old)
#'
#' # median and mean age at death of each group
#' age <- rep(0:100, 2)
#' deaths <- c(200 * exp(-(0:100) / 2) + 50 * dnorm(0:100, 70, 12) * 100,
#'             5 * exp(-(0:100) / 2) + 80 * dnorm(0:100, 82, 9) * 100)
#' m <- mortality_distribution(data.frame(age, deaths, region = rep(c("A", "B"), each = 101)),
#'                             group = region)
#' quantile(m, 0.5)
#' summary(m)
#' @name density-summaries
NULL

#' @rdname density-summaries
#' @importFrom stats quantile
#' @export
quantile.dpfda_density <- function(x, probs = seq(0, 1, 0.25), names = TRUE, ...) {
  if ("interval" %in% names(list(...))) {   # (was: "not an option of quantile(); see ?quantile", stats' page)
    dpfda_abort(paste("`interval` is an option of quantile() for a release (dp_kde(), or dp_mean() of densities),",
                      "whose noise it covers; these densities are not a release and have no interval. See",
                      "?`density-summaries`."), arg = "interval")
  }
  check_dot_names(list(...), character(), "quantile")
  pl <- density_pieces(x)
  check_probs(probs)
  names <- check_flag(names, "names")
  out <- density_quantiles(pl, probs)
  colnames(out) <- if (names) paste0(format(100 * probs, trim = TRUE, digits = 7), "%")
  rownames(out) <- pl$labels
  if (nrow(out) == 1L) {
    v <- out[1L, ]
    names(v) <- colnames(out)
    return(v)
  }
  out
}

# The quantiles of each density of density_pieces(): one row per density.
density_quantiles <- function(pl, probs) {
  q <- vapply(seq_len(nrow(pl$f)), function(i) piecewise_linear_quantile(pl$t, pl$f[i, ], pl$cdf[i, ], probs),
              numeric(length(probs)))
  matrix(q, nrow = nrow(pl$f), byrow = TRUE)
}

# The mean of each density (the integral of t f(t), f linear between grid points).
density_mean <- function(pl) {
  h <- diff(pl$t)
  a <- pl$t[-length(pl$t)]
  m <- vapply(seq_len(nrow(pl$f)), function(i) {
    f0 <- pl$f[i, -ncol(pl$f)]
    f1 <- pl$f[i, -1L]
    # over each interval, f linear from f0 to f1: h (a (f0 + f1) / 2 + h (f0 + 2 f1) / 6)
    sum(h * (a * (f0 + f1) / 2 + h * (f0 + 2 * f1) / 6))
  }, 0)
  names(m) <- pl$labels
  m
}

#' @rdname density-summaries
#' @param object A one-dimensional `dpfda_density`.
#' @export
summary.dpfda_density <- function(object, ...) {
  out <- NextMethod()   # the pointwise summary of the curves
  if (object$dim == 1L) {
    pl <- density_pieces(object)
    q <- density_quantiles(pl, c(0, 0.25, 0.5, 0.75, 1))
    out$distribution <- data.frame(group = pl$labels %||% seq_len(nrow(pl$f)), min = q[, 1L], q1 = q[, 2L],
                                   median = q[, 3L], mean = density_mean(pl), q3 = q[, 4L], max = q[, 5L],
                                   row.names = NULL)
  } else if (object$dim == 2L) {
    out$distribution <- density_moments_2d(object)
  }
  class(out) <- c("summary.dpfda_density", class(out))
  out
}

#' @rdname density-summaries
#' @details `glance()` of one- and two-dimensional densities is the table of
#'   `summary()`'s `distribution`: one row per density.
#' @export
glance.dpfda_density <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  out <- summary(x)$distribution
  if (is.null(out)) {
    dpfda_abort("glance() of densities summarises one- and two-dimensional ones; this one is on a grid beyond the plane.",
                arg = "x")
  }
  out
}

#' @rdname density-summaries
#' @details `tidy()` of a density's `summary()` is its `distribution` table
#'   (as `glance()` of the density).
#' @method tidy summary.dpfda_density
#' @export
tidy.summary.dpfda_density <- function(x, ...) {
  check_dot_names(list(...), character(), "tidy")
  if (is.null(x$distribution)) {
    dpfda_abort("tidy() of a density summary gives its distribution table, of one- and two-dimensional densities only.",
                arg = "x")
  }
  x$distribution
}

#' @export
print.summary.dpfda_density <- function(x, ...) {
  NextMethod()
  if (!is.null(x$distribution)) {
    print_distribution(x$distribution, if ("correlation" %in% names(x$distribution))
      "  as distributions in the plane (means, standard deviations, correlation):" else
      "  as distributions (support, quartiles, mean):")
  }
  invisible(x)
}

# The table of summary()'s `distribution` under a header: four significant digits, at most 10 rows
# (also for a dp_kde() release's summary, R/release.R).
print_distribution <- function(d, header) {
  cat(header, "\n", sep = "")
  shown <- utils::head(d, 10L)
  num <- vapply(shown, is.numeric, NA) & names(shown) != "group"
  shown[num] <- lapply(shown[num], signif, 4)
  print(shown, row.names = FALSE)
  if (nrow(d) > 10L) cat(sprintf("  ... and %d more (summary(x)$distribution)\n", nrow(d) - 10L))
}

# The means, standard deviations and correlation of densities on a two-dimensional (tensor) grid,
# taken as they are on it (products of trapezoid weights, normalised): one row per density, the
# columns named by the axes (a density of columns long and lat gives mean_long, mean_lat, sd_long,
# sd_lat, correlation).
density_moments_2d <- function(x) {
  x <- check_curves_data(x, "x")
  ax <- curves_axis_names(x) %||% c("arg1", "arg2")
  out <- as.data.frame(moments_2d(x$values, as.matrix(x$grid), quadrature_weights(x$grid)))
  names(out) <- c(paste0("mean_", ax), paste0("sd_", ax), "correlation")
  cbind(group = if (!is.null(x$groups) && length(x$groups) == nrow(x$values)) as.character(x$groups) else
    seq_len(nrow(x$values)), out)
}

# The five moments of each row of f (values at the points g, quadrature weights w) as a density
# normalised by its integral, signed values kept; NA where a variance is not positive.
moments_2d <- function(f, g, w) {
  p <- f * rep(w, each = nrow(f))
  p <- p / rowSums(p)
  mu <- p %*% g
  e2 <- p %*% g^2
  exy <- as.vector(p %*% (g[, 1L] * g[, 2L]))
  v <- e2 - mu^2
  cv <- exy - mu[, 1L] * mu[, 2L]
  v[!(v > 0)] <- NA_real_
  cbind(mu, sqrt(v), cv / sqrt(v[, 1L] * v[, 2L]))
}

# The moments of a released density in the plane, with their noise: the released values taken as a
# signed density (the noise has mean zero; setting its negative values to 0, as as_density() does,
# would move the mass towards the domain's centre, widen the spread and shrink the correlation),
# and the standard deviation of each under the public noise law, from `nsim` fresh draws added to
# the release (post-processing, public seed).
# A signed density's moments can be impossible when the noise dominates (a 2-D Bernstein release
# of faithful at epsilon 1 gave correlation -4.9; at epsilon 0.5 a mean of -49.7 on [1, 6]): each is
# moved into its possible range (post-processing), marked `moved`.
release_moments_2d <- function(x, nsim = 200L, seed = 1L) {
  v <- x$values
  ax <- curves_axis_names(v) %||% c("arg1", "arg2")
  g <- as.matrix(v$grid)
  w <- quadrature_weights(v$grid)
  est <- moments_2d_possible(moments_2d(v$values[1L, , drop = FALSE], g, w), g)
  law <- tryCatch(noise_law(x), error = function(e) NULL)
  sd <- if (is.null(law)) rep(NA_real_, 5L) else {
    D <- with_public_seed(seed, law$draw(nsim))
    sims <- moments_2d_possible(moments_2d(D + rep(v$values[1L, ], each = nsim), g, w), g)$values
    apply(sims, 2L, stats::sd, na.rm = TRUE)
  }
  data.frame(statistic = c(paste0("mean_", ax), paste0("sd_", ax), "correlation"),
             estimate = as.vector(est$values), noise_sd = sd, moved = as.vector(est$moved))
}

# The moments (rows of mean_1, mean_2, sd_1, sd_2, correlation) moved into the ranges a distribution
# on the grid's box can have: means within each axis's range, standard deviations in [0, half the
# range] (a variance that is not positive: 0, and no correlation), the correlation in [-1, 1].
moments_2d_possible <- function(m, g) {
  lo <- apply(g, 2L, min)
  hi <- apply(g, 2L, max)
  out <- m
  for (k in 1:2) {
    out[, k] <- pmin(pmax(m[, k], lo[k]), hi[k])
    out[, 2L + k] <- pmin(ifelse(is.na(m[, 2L + k]), 0, m[, 2L + k]), (hi[k] - lo[k]) / 2)
  }
  flat <- !(out[, 3L] > 0 & out[, 4L] > 0)
  out[, 5L] <- ifelse(flat, NA_real_, pmin(pmax(m[, 5L], -1), 1))
  moved <- !(out == m) | xor(is.na(out), is.na(m))
  moved[is.na(moved)] <- FALSE
  list(values = out, moved = moved)
}

#' @rdname density-summaries
#' @export
quantile.dpfda_curves <- function(x, ...) {
  dpfda_abort(paste("quantile() is for densities: make the curves densities with as_density(x) (negative values set",
                    "to zero, each curve divided by its integral), then take their quantiles."), arg = "x")
}

#' @rdname density-summaries
#' @export
quantile.dpfda_release <- function(x, probs = seq(0, 1, 0.25), names = TRUE,
                                   interval = c("none", "noise", "population"), level = 0.95, nsim = 10000,
                                   seed = 1, smoothness = NULL, margin = NULL, ...) {
  if (!inherits(x, "dpfda_kde_release") && !isTRUE(x$of_densities)) {
    dpfda_abort(sprintf(paste("quantile() is for densities, and this %s release is not one. For a density release",
                              "(dp_kde(), or dp_mean() of densities), or curves that are densities, use as_density()",
                              "first."),
                        x$mechanism %||% "this mechanism"), arg = "x")
  }
  check_dot_names(list(...), character(), "quantile", unknown = function(name) {
    abort_unknown_option(name, "quantile", setdiff(names(formals(quantile.dpfda_release)), "..."))
  })
  interval <- check_choice(interval, c("none", "noise", "population"), "interval")
  if (!is.null(smoothness) && interval != "population") {
    dpfda_abort("`smoothness` is for the population interval: give interval = \"population\" with it.",
                arg = "smoothness")
  }
  if (interval == "none") return(stats::quantile(as_density(x, margin = margin), probs = probs, names = names))
  check_probs(probs)
  if (!is.null(margin)) curves_margin(x$values, margin)   # (its checks, before any simulation)
  release_quantile_interval(x, probs, interval, level, nsim, seed, smoothness, margin)
}

check_probs <- function(probs) {
  ok <- is.numeric(probs) && is.null(dim(probs)) && length(probs) >= 1L && !anyNA(probs) &&
    all(probs >= 0 & probs <= 1)
  if (!isTRUE(ok)) arg_error("probs", "probabilities: numbers in [0, 1], without missing values", probs)
  invisible(probs)
}

# The sorted grid, the densities on it (normalised by the trapezoid rule,
# negative values refused) and their distribution functions at the grid points.
density_pieces <- function(x) {
  x <- check_curves_data(x, "x")
  if (x$dim != 1L) {
    dpfda_abort(sprintf(paste("Quantiles and means are those of a one-dimensional density; this one is on a",
                              "%d-dimensional grid. Take a margin first: %s is the density of one axis",
                              "(post-processing: no budget)."), x$dim, margin_hint(x)),
                arg = "x")
  }
  o <- order(x$grid)
  t <- as.double(x$grid[o])
  f <- x$values[, o, drop = FALSE]
  if (length(t) < 2L) dpfda_abort("A density needs a grid of at least 2 points.", arg = "x")
  if (any(f < 0)) {
    dpfda_abort("The density has negative values: make it a density with as_density() first.", arg = "x",
                class = "dpfda_error_data")
  }
  h <- diff(t)
  pieces <- (f[, -ncol(f), drop = FALSE] + f[, -1L, drop = FALSE]) * rep(h / 2, each = nrow(f))
  mass <- rowSums(pieces)
  if (!all(mass > 0)) {
    dpfda_abort("A density is zero everywhere on its grid: it has no quantiles.", arg = "x",
                class = "dpfda_error_data")
  }
  f <- f / mass
  cdf <- t(apply(cbind(0, pieces / mass), 1L, cumsum))
  labels <- if (!is.null(x$groups) && length(x$groups) == nrow(f)) as.character(x$groups) else NULL
  list(t = t, f = f, cdf = cdf, labels = labels)
}

# as_density(x, margin = ...) with the first axis's name when the curves record one.
margin_hint <- function(x) sprintf("as_density(x, margin = %s)", margin_value_hint(x))
margin_value_hint <- function(x) {
  ax <- curves_axis_names(x)
  if (is.null(ax)) "1" else paste0("\"", ax[1L], "\"")
}

# Quantiles of the density linear between grid points t (values f, CDF F at
# the grid points): in the interval [t_i, t_i+1] with F_i <= p, the root u of
# F_i + f_i u + s u^2 / 2 = p (s the slope), in the form 2 r / (f_i + sqrt(f_i^2 + 2 s r)),
# which has no cancellation and holds for s = 0 and s < 0.
piecewise_linear_quantile <- function(t, f, cdf, probs) {
  m <- length(t)
  # (rounding: a cumulative sum can pass 1 before a zero tail, and findInterval() needs it sorted;
  # 1 in 125 random densities with a zero tail stopped quantile() with an error)
  cdf <- pmin(cummax(cdf), 1)
  cdf[m] <- 1
  vapply(probs, function(p) {
    if (p <= 0) return(t[which(cdf > 0)[1L] - 1L])   # the start of the support
    i <- min(findInterval(p, cdf, left.open = TRUE), m - 1L)
    i <- max(i, 1L)
    h <- t[i + 1L] - t[i]
    s <- (f[i + 1L] - f[i]) / h
    r <- p - cdf[i]
    den <- f[i] + sqrt(max(f[i]^2 + 2 * s * r, 0))
    u <- if (den > 0) 2 * r / den else 0
    t[i] + min(max(u, 0), h)
  }, 0)
}
