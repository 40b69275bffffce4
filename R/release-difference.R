# The difference of two releases on one grid (two groups' private means, say), with the bands
# of its noise and of the difference of the population means. Post-processing: no budget.

#' Differences of two releases: comparing groups
#'
#' `r1 - r2` of two releases on the same public grid (the private mean
#' curves of two groups, say) gives their difference with its uncertainty.
#' It is post-processing of the two releases, so it costs no budget beyond
#' what they spent; when the groups are disjoint sets of individuals, each
#' person's data entered only one of them.
#'
#' The two releases drew their noise independently, so the noise of the
#' difference has a known public law: the difference of the two laws (a
#' Gaussian one when both are Gaussian, otherwise simulated). `confint(d)`
#' gives the band of that noise, pointwise or simultaneous, about the
#' difference of the two non-private summaries. `confint(d, type =
#' "population")` gives a simultaneous band for the difference of the two
#' population means (densities for [dp_kde()]): each release's own
#' population band at level \eqn{1 - (1 - \mathrm{level})/2}, combined as
#' \eqn{[l_1 - u_2,\ u_1 - l_2]}, which covers the difference whenever both
#' cover their means (so at least `level` by Bonferroni, whatever the
#' dependence between the groups). Both releases must then have one: made by
#' `dp_mean(..., inference = TRUE)`, or [dp_kde()]. A band that excludes
#' zero on part of the grid is evidence, at that level, that the population
#' curves differ there.
#'
#' @param e1,e2 Two `dpfda_release` objects with one curve each on the same
#'   one-dimensional grid (release both with the same `grid`); the same
#'   release twice is refused (its noise is one draw, not two independent
#'   ones). Every other operator on a release (`+`, `*`, `==`, ...) is
#'   refused with `dpfda_error_argument`: work on `predict(r)` for the
#'   values.
#' @return An object of class `dpfda_difference`: `values` (the difference,
#'   [curves()]), `first` and `second` (the two releases) and `labels`.
#'   `predict()`, `confint()`, `plot()`, `as.data.frame()`, `tidy()`,
#'   `summary()` and `glance()` work on it. `summary()` and `glance()` give
#'   the expected L2 error of the noise of the difference and, when both
#'   releases have one (ICLP and Bernstein means), a bound on the smoothing
#'   bias of the difference: the sum of the two releases' bounds; `glance()`
#'   also the two releases' privacy units (`privacy_unit_first`,
#'   `privacy_unit_second`).
#' @examples
#' # two groups of 4000 curves whose population means differ on the middle of [0, 1]
#' g <- seq(0, 1, length.out = 41)
#' grp <- function(n, bump) {
#'   curves(outer(rnorm(n, 1, 0.3), sin(pi * g)) + outer(rep(bump, n), dnorm(g, 0.5, 0.1) / 4) +
#'            matrix(rnorm(n * 41, 0, 0.2), n), g)
#' }
#' old <- dp_reproducible(3)   # seeded: reproducible, NOT private
#' ref <- function(t) sin(pi * t)   # a public reference: tau bounds the deviations from it
#' a <- dp_mean(grp(4000, 1), epsilon = 1, tau = 1, center = ref, inference = TRUE)
#' b <- dp_mean(grp(4000, 0), epsilon = 1, tau = 1, center = ref, inference = TRUE)
#' d <- a - b
#' d
#' head(confint(d))                         # the privacy noise of the difference
#' pb <- confint(d, type = "population")    # the difference of the population means
#' range(pb$arg[pb$lower > 0])              # where the band excludes zero
#' plot(d, band = "population")
#' dp_rng(old)
#' @name release-difference
NULL

#' @rdname release-difference
#' @export
`-.dpfda_release` <- function(e1, e2) {
  if (missing(e2)) {
    dpfda_abort("A release has no negative: subtract two releases (r1 - r2), or negate predict(r).", arg = "e1")
  }
  labels <- c(short_deparse(substitute(e1)), short_deparse(substitute(e2)))
  for (k in 1:2) {
    r <- list(e1, e2)[[k]]
    if (!inherits(r, "dpfda_release")) {
      dpfda_abort(sprintf(paste("`%s - %s` subtracts two releases; %s is not one. To shift or scale the released",
                                "values, work on predict(r)."), labels[1L], labels[2L], labels[k]),
                  arg = c("e1", "e2")[k])
    }
  }
  a <- difference_view(e1, labels[1L])
  b <- difference_view(e2, labels[2L])
  if (identical(a$values$values, b$values$values)) {
    # (r - r printed a noise sd of 17 and a band of +-33.5 around an exact 0: one noise draw, not two)
    dpfda_abort(sprintf(paste("%s and %s are the same release (equal values): the bands of a difference need",
                              "two independent noise draws, from releases of two groups of individuals."),
                        labels[1L], labels[2L]), arg = "e2")
  }
  ga <- a$values$grid
  gb <- b$values$grid
  if (length(ga) != length(gb) || !isTRUE(all.equal(as.double(ga), as.double(gb), tolerance = 1e-12))) {
    dpfda_abort(sprintf(paste("%s and %s are on different grids (%d points on [%s, %s] and %d on [%s, %s]):",
                              "release both on one public grid (`grid`) to compare them."), labels[1L], labels[2L],
                        length(ga), format(min(ga)), format(max(ga)), length(gb), format(min(gb)), format(max(gb))),
                arg = "e2")
  }
  v <- a$values
  v$values <- a$values$values - b$values$values
  v$ids <- NULL
  v$value_name <- sprintf("difference of %s", a$values$value_name %||% "value")
  structure(list(values = v, first = a, second = b, labels = labels), class = "dpfda_difference")
}

#' @rdname release-difference
#' @export
Ops.dpfda_release <- function(e1, e2) {
  # every operator but `-` of two releases (its own method): R's "non-numeric argument to binary
  # operator" was unclassed and said nothing of what to do
  dpfda_abort(sprintf(paste("`%s` is not defined for releases: a release is a noisy function with its",
                            "guarantee, not a number. `r1 - r2` gives the difference of two releases (with its",
                            "bands); for arithmetic on the released values use predict(r) or r$values$values."),
                      .Generic), arg = "e1")
}

# A release as one side of a difference: its published function on its grid (a Bernstein
# release's polynomial, as plot() draws it), one curve on a one-dimensional grid.
difference_view <- function(r, label) {
  validate_dpfda_release(r)
  if (inherits(r, "dpfda_kme_release")) {
    dpfda_abort(sprintf(paste("%s is a kernel mean embedding (weights on points), not a curve on a grid: compare",
                              "embeddings with kme_mmd()."), label), arg = "e1")
  }
  v <- release_view(r)
  if (v$values$dim != 1L || nrow(v$values$values) != 1L) {
    dpfda_abort(sprintf(paste("%s is not one curve on a one-dimensional grid (%d curve(s), %d dimension(s)):",
                              "differences are of one-dimensional releases."), label, nrow(v$values$values),
                        v$values$dim), arg = "e1")
  }
  v
}

# The law of noise_1 - noise_2 for independent noises: Gaussian when both are, else simulated.
law_difference <- function(la, lb) {
  fam <- if (la$family == "gaussian" && lb$family == "gaussian") "gaussian" else "laplace"
  out <- new_law(fam, la$var + lb$var, function(nsim) la$draw(nsim) - lb$draw(nsim),
                 function() la$cov() + lb$cov(), la$grid,
                 sprintf("the difference of two independent noises: %s; %s", la$note, lb$note))
  # (what glance() says: "gaussian - laplace" for an ICLP release against a GP one, which it called
  # "laplace"; `family` stays the one the bands read, Gaussian or simulated)
  out$families <- if (la$family == lb$family) la$family else paste(la$family, lb$family, sep = " - ")
  if (!is.null(la$A) && !is.null(lb$A)) {   # one linear map of both noises' independent coordinates
    out$A <- cbind(la$A, -lb$A)
    out$zdraw <- function(nsim) cbind(la$zdraw(nsim), lb$zdraw(nsim))
    if (!is.null(la$map) || !is.null(lb$map)) {   # (a Kronecker basis: the fast map of each part)
      pa <- ncol(la$A)
      part <- function(l, z) if (!is.null(l$map)) l$map(z) else z %*% t(l$A)
      out$map <- function(z) part(la, z[, seq_len(pa), drop = FALSE]) - part(lb, z[, -seq_len(pa), drop = FALSE])
    }
  }
  out
}

# What a population band of the difference is for, and the legend of a band of either kind
# (plot() and autoplot()).
difference_target <- function(x) {
  sprintf("difference of the population %s", if (inherits(x$first, "dpfda_kde_release")) "densities" else "means")
}

difference_band_label <- function(x, type, level) {
  if (type == "population") sprintf("%s%% band for the %s", format(100 * level), difference_target(x)) else
    sprintf("%s%% %s band of the privacy noise", format(100 * level), type)
}

#' @export
noise_law.dpfda_difference <- function(x, ...) {
  la <- noise_law(x$first)
  lb <- noise_law(x$second)
  m <- ncol(x$values$values)
  if (length(la$var) != m || length(lb$var) != m) {
    dpfda_abort("The noise laws of the two releases are not on their common grid.",
                class = "dpfda_error_unsupported", arg = "x")
  }
  law_difference(la, lb)
}

#' @export
print.dpfda_difference <- function(x, ...) {
  cat(sprintf("<dpfda_difference> %s - %s: the difference of two releases (post-processing: no budget beyond theirs)\n",
              x$labels[1L], x$labels[2L]))
  for (k in 1:2) {
    r <- list(x$first, x$second)[[k]]
    cat(sprintf("  %s: %s release, (epsilon = %s, delta = %s)-DP%s\n", x$labels[k], r$mechanism,
                format(r$epsilon, digits = 4), format(r$delta, digits = 4),
                if (!is.null(r$privacy_unit)) paste0(", privacy unit: ", r$privacy_unit) else ""))
  }
  cat(sprintf("  values: %s\n", format(x$values)))
  f <- difference_figures(x)
  if (!is.null(f$law)) {
    cat(sprintf(paste("  noise sd of the difference on the grid in [%s, %s]; expected L2 noise error %s",
                      "(the two noises are independent)\n"), format(min(f$sd), digits = 4),
                format(max(f$sd), digits = 4), format(f$expected_l2, digits = 4)))
  }
  # (a population band needs one for each side: dp_mean(inference = TRUE), or a density)
  has_pop <- function(r) !is.null(r$inference) || inherits(r, "dpfda_kde_release")
  cat(if (has_pop(x$first) && has_pop(x$second)) {
    sprintf("  confint(d): band of the privacy noise; confint(d, type = \"population\"): the %s\n", difference_target(x))
  } else {
    paste("  confint(d): band of the privacy noise (a band for the difference of the population means needs both",
          "releases made with dp_mean(inference = TRUE))\n")
  })
  invisible(x)
}

#' @export
format.dpfda_difference <- function(x, ...) format_header(x)

#' @rdname release-difference
#' @param object A `dpfda_difference`.
#' @param newdata Points at which to evaluate both releases (see
#'   [predict.dpfda_release()]); `NULL`: the common grid.
#' @param ... Unused (for `predict()`: passed to both releases' `predict()`).
#' @export
predict.dpfda_difference <- function(object, newdata = NULL, ...) {
  if (is.null(newdata)) return(as.vector(object$values$values))
  stats::predict(object$first, newdata, ...) - stats::predict(object$second, newdata, ...)
}

#' @rdname release-difference
#' @param parm Rows to keep, as for [confint.dpfda_release()].
#' @param level,type,nsim,seed As for [confint.dpfda_release()]: `type`
#'   `"pointwise"` or `"simultaneous"` (bands of the privacy noise), or
#'   `"population"` (simultaneous, for the difference of the population
#'   means).
#' @export
confint.dpfda_difference <- function(object, parm, level = 0.95, type = c("pointwise", "simultaneous", "population"),
                                     nsim = 10000, seed = 1, ...) {
  confint_no_extras(...)
  type <- check_choice(type, c("pointwise", "simultaneous", "population"), "type")
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                        what = "a number in (0, 1)")
  nsim <- check_count(nsim, "nsim", min = 100, max = 1e7)
  seed <- check_count(seed, "seed", min = 0)
  est <- as.vector(object$values$values)
  if (type == "population") {
    each <- 1 - (1 - level) / 2
    band <- function(r, label) {
      tryCatch(confint.dpfda_release(r, level = each, type = "population", nsim = nsim, seed = seed),
               dpfda_error = function(e) {
                 dpfda_abort(sprintf(paste("The population band of the difference needs one for each release, and %s",
                                           "has none: %s"), label, conditionMessage(e)),
                             class = "dpfda_error_unsupported", arg = "object")
               })
    }
    b1 <- band(object$first, object$labels[1L])
    b2 <- band(object$second, object$labels[2L])
    lower <- b1$lower - b2$upper
    upper <- b1$upper - b2$lower
    se <- sqrt(b1$se^2 + b2$se^2)
    m1 <- attr(b1, "method")
    m2 <- attr(b2, "method")
    parts <- if (identical(m1, m2)) sprintf("Each: %s", m1) else   # (said once when the two are made alike)
      sprintf("%s: %s. %s: %s", object$labels[1L], m1, object$labels[2L], m2)
    method <- sprintf(paste("Bonferroni: the population bands of %s and %s at level %s each, combined as",
                            "[l1 - u2, u1 - l2] (at least %s whatever the dependence of the groups). %s"),
                      object$labels[1L], object$labels[2L], format(each), format(level), parts)
  } else {
    law <- noise_law(object)
    b <- noise_band(law, level, type, nsim, seed)
    se <- sqrt(law$var)
    lower <- est - b$half
    upper <- est + b$half
    method <- b$method
  }
  d <- data.frame(id = 1L, arg = object$values$grid, estimate = est, se = se, lower = lower, upper = upper)
  target <- if (type == "population") difference_target(object)
  confint_rows(structure(d, level = level, type = type, method = method, target = target,
                         class = c("dpfda_confint", "data.frame")), if (!missing(parm)) parm)
}

#' @rdname release-difference
#' @param x A `dpfda_difference`.
#' @param row.names,optional Unused.
#' @export
as.data.frame.dpfda_difference <- function(x, row.names = NULL, optional = FALSE, level = 0.95, ...) {
  confint_no_extras(...)   # (a misspelt option is refused, not dropped)
  ci <- tryCatch(confint.dpfda_difference(x, level = level), dpfda_error_unsupported = function(e) NULL) %||%
    list(se = NA_real_, lower = NA_real_, upper = NA_real_)   # (no noise law: NA, as for a release)
  data.frame(id = 1L, arg = x$values$grid, value = as.vector(x$values$values), se = ci$se, lower = ci$lower,
             upper = ci$upper)
}

#' @rdname release-difference
#' @param conf.int,conf.level For `tidy()`: whether to add the pointwise
#'   band of the noise, and its level.
#' @export
tidy.dpfda_difference <- function(x, conf.int = TRUE, conf.level = 0.95, ...) {
  check_dot_names(list(...), character(), "tidy")
  conf.int <- check_flag(conf.int, "conf.int")
  d <- as.data.frame.dpfda_difference(x, level = conf.level)
  out <- data.frame(id = d$id, arg = d$arg, estimate = d$value, std.error = d$se)
  if (conf.int) {
    out$conf.low <- d$lower
    out$conf.high <- d$upper
  }
  out
}

# The figures of a difference that print(), summary() and glance() share: the noise of the
# difference (the two noises are independent: variances add) and a bound on its smoothing bias
# (bias_1 - bias_2, so at most b_1 + b_2 in L2 by the triangle inequality; NA when a side has none).
difference_figures <- function(x) {
  law <- tryCatch(noise_law(x), dpfda_error = function(e) NULL)
  b <- lapply(list(x$first, x$second), release_bias_bound)
  bias <- if (any(vapply(b, is.null, NA))) NA_real_ else b[[1L]]$l2 + b[[2L]]$l2
  l2 <- if (is.null(law)) NA_real_ else sqrt(sum(law$weights * law$var))
  list(law = law, sd = if (is.null(law)) NA_real_ else sqrt(law$var), expected_l2 = l2, bias_l2 = bias,
       total_l2 = sqrt(l2^2 + bias^2))
}

#' @rdname release-difference
#' @export
summary.dpfda_difference <- function(object, ...) {
  check_dot_names(list(...), character(), "summary")
  f <- difference_figures(object)
  structure(list(labels = object$labels, values = summary(as.vector(object$values$values)),
                 noise_sd = range(f$sd), expected_l2_noise = f$expected_l2, bias_l2 = f$bias_l2,
                 total_l2 = f$total_l2, printed = utils::capture.output(print(object))),
            class = "summary.dpfda_difference")
}

#' @export
print.summary.dpfda_difference <- function(x, ...) {
  cat(x$printed, sep = "\n")
  if (is.finite(x$bias_l2)) {
    cat(sprintf(paste("  smoothing bias of the difference at most %s in L2 (the sum of the two bounds); noise and",
                      "bias together %s\n"), format(x$bias_l2, digits = 4), format(x$total_l2, digits = 4)))
  }
  cat("summary of the released difference:\n")
  print(x$values)
  invisible(x)
}

#' @rdname release-difference
#' @export
glance.dpfda_difference <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  f <- difference_figures(x)
  side <- function(r, what) if (is.numeric(r[[what]]) && length(r[[what]]) == 1L) as.double(r[[what]]) else NA_real_
  data.frame(first = x$labels[1L], second = x$labels[2L], mechanism_first = x$first$mechanism,
             mechanism_second = x$second$mechanism, epsilon_first = side(x$first, "epsilon"),
             epsilon_second = side(x$second, "epsilon"), delta_first = side(x$first, "delta"),
             delta_second = side(x$second, "delta"), n_first = side(x$first, "n"), n_second = side(x$second, "n"),
             noise_family = if (is.null(f$law)) NA_character_ else f$law$families %||% f$law$family,
             noise_sd_min = min(f$sd), noise_sd_max = max(f$sd), expected_l2 = f$expected_l2,
             bias_l2 = f$bias_l2, total_l2 = f$total_l2,
             privacy_unit_first = release_privacy_unit(x$first), privacy_unit_second = release_privacy_unit(x$second),
             stringsAsFactors = FALSE)
}

#' @rdname release-difference
#' @param y Unused.
#' @param band `FALSE`, `TRUE` (pointwise), `"pointwise"`, `"simultaneous"`
#'   or `"population"`: the band to shade (see `confint()`).
#' @param main,xlab,ylab Graphical parameters.
#' @export
plot.dpfda_difference <- function(x, y, band = FALSE, level = 0.95, main = NULL, xlab = NULL, ylab = NULL, ...) {
  check_graphics_dots(list(...), "plot", c("band", "level"))
  v <- x$values
  type <- band_type(band)
  ci <- if (!is.null(type)) confint.dpfda_difference(x, level = level, type = type)
  if (is.null(main)) main <- sprintf("%s - %s", x$labels[1L], x$labels[2L])
  graphics::plot(range(v$grid), range(v$values, 0, ci$lower, ci$upper), type = "n", main = main,
                 xlab = xlab %||% curves_arg_label(v), ylab = ylab %||% "difference")
  if (!is.null(ci)) {
    graphics::polygon(c(v$grid, rev(v$grid)), c(ci$lower, rev(ci$upper)), col = grDevices::adjustcolor("grey60", 0.4),
                      border = NA)
  }
  graphics::abline(h = 0, lty = 3, col = "grey40")
  graphics::lines(v$grid, v$values[1L, ], lwd = 2, ...)
  if (!is.null(ci)) {
    graphics::legend("topleft", bty = "n", cex = 0.8, lty = c(1, NA), pch = c(NA, 15), pt.cex = c(1, 2),
                     col = c("black", grDevices::adjustcolor("grey60", 0.6)),
                     legend = c("difference of the releases", difference_band_label(x, type, level)))
  }
  invisible(x)
}
