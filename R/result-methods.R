# plot() and summary() of the results that are not curves: a released
# bandwidth (dp_bandwidth()), a selection (dp_select(), dp_gp_select(),
# pcv_select()) and an online session (dp_online()). R's defaults failed on
# them with unclassed errors ("'x' is a list, but does not have components
# 'x' and 'y'") or printed the raw list; summary() of every other result
# repeats its print, and so do these.

# A classed refusal that says what to plot (or predict from) instead.
abort_nothing_to_plot <- function(what, instead, thing = "curve to plot", arg = "x") {
  dpfda_abort(sprintf("There is no %s in %s; %s", thing, what, instead), class = "dpfda_error_unsupported", arg = arg)
}

#' Plots and summaries of bandwidths, selections and online sessions
#'
#' A released bandwidth ([dp_bandwidth()]) and a selection ([dp_select()],
#' [dp_gp_select()], [pcv_select()]) are numbers, not curves: `plot()` of
#' them is refused with a classed error (`dpfda_error_unsupported`) that
#' says what to plot instead, `predict()` is refused the same way (it says
#' which release to make and predict from), and `summary()` gives the object, which
#' prints as it does. `plot()` of an online session ([dp_online()]) draws
#' its public answers so far, `released(x)`; `summary()`, `glance()`,
#' `tidy()`, `confint()` and `as.data.frame()` of a session are those of
#' `released(x)` (a session that has answered nothing has nothing to
#' describe: `dpfda_error_state`), and `predict()` is refused: new points
#' are answered by [query()]. `confint()` of a bandwidth or a selection is
#' refused (a number, no noise law); `as.data.frame()` of them is `tidy()`.
#'
#' @param x,object A `dpfda_bandwidth`, `dpfda_selection` or
#'   `dpfda_online_session`.
#' @param ... For an online session, passed to the method of its release
#'   (e.g. `band = TRUE` for [plot()]); otherwise unused.
#' @param row.names,optional Not used (as.data.frame()'s arguments).
#' @return `plot()`: of a session, invisibly the release plotted. `summary()`:
#'   the object itself, or for a session the summary of its release.
#'   `glance()`, `tidy()`: data frames, as for a release.
#' @seealso [dp_bandwidth()], [dp_select()], [pcv_select()], [dp_online()].
#' @examples
#' s <- dp_online(function(t) sin(2 * pi * t), kernel_exponential(0.1), sensitivity = 0.1,
#'                epsilon = 1, delta = 1e-5)
#' invisible(query(s, seq(0, 1, length.out = 50)))
#' plot(s)
#' glance(s)
#' b <- dp_bandwidth(faithful$eruptions, epsilon = 1, delta = 1e-5, fallback = 0.3)
#' summary(b)
#' try(plot(b))
#' @name result_methods
NULL

#' @rdname result_methods
#' @export
plot.dpfda_bandwidth <- function(x, ...) {
  abort_nothing_to_plot("a released bandwidth",
                        "plot the density released with it: plot(dp_kde(x, grid, bandwidth = b, ...)).")
}

#' @rdname result_methods
#' @export
plot.dpfda_selection <- function(x, ...) {
  abort_nothing_to_plot("a selection", paste("print() says which candidate was chosen and tidy() lists the",
                                             "candidates; plot the release made with it."))
}

#' @rdname result_methods
#' @export
plot.dpfda_pcv_selection <- plot.dpfda_selection

# predict() of a number: refused as plot() is (R's default failed with "no applicable method").
abort_nothing_to_predict <- function(what, instead) {
  abort_nothing_to_plot(what, instead, "fitted curve to predict from", "object")
}

#' @rdname result_methods
#' @export
predict.dpfda_bandwidth <- function(object, ...) {
  abort_nothing_to_predict("a released bandwidth", paste("release the density with it, dp_kde(x, grid, bandwidth = b,",
                                                         "...), and predict() from that release."))
}

#' @rdname result_methods
#' @export
predict.dpfda_selection <- function(object, ...) {
  abort_nothing_to_predict("a selection", paste("it chooses a candidate. Release with the choice (for dp_gp_select():",
                                                "dp_gp_regression(x, y, newdata, kernel = s$kernel, noise_variance =",
                                                "s$noise_variance, ...); for pcv_select(): dp_mean(..., select =",
                                                "\"manual\") with its value) and predict() from that release."))
}

#' @rdname result_methods
#' @export
predict.dpfda_pcv_selection <- predict.dpfda_selection

#' @rdname result_methods
#' @export
summary.dpfda_bandwidth <- function(object, ...) object

#' @rdname result_methods
#' @export
summary.dpfda_selection <- function(object, ...) object

#' @rdname result_methods
#' @export
summary.dpfda_pcv_selection <- function(object, ...) object

#' @rdname result_methods
#' @export
plot.dpfda_online_session <- function(x, ...) {
  r <- released(x)
  graphics::plot(r, ...)
  invisible(r)
}

#' @rdname result_methods
#' @export
summary.dpfda_online_session <- function(object, ...) summary(released(object), ...)

#' @rdname result_methods
#' @export
glance.dpfda_online_session <- function(x, ...) glance(released(x), ...)

#' @rdname result_methods
#' @export
tidy.dpfda_online_session <- function(x, ...) tidy(released(x), ...)

#' @rdname result_methods
#' @export
confint.dpfda_online_session <- function(object, ...) stats::confint(released(object), ...)

#' @rdname result_methods
#' @export
as.data.frame.dpfda_online_session <- function(x, row.names = NULL, optional = FALSE, ...) {
  as.data.frame(released(x), row.names = row.names, optional = optional, ...)
}

#' @rdname result_methods
#' @export
predict.dpfda_online_session <- function(object, ...) {
  # (R's "no applicable method"): a session answers new points with query(), which keeps every
  # answer consistent with the earlier ones; predict() would answer without recording them
  dpfda_abort(paste("A session answers new points with query(s, x) (part of the same release, consistent with its",
                    "earlier answers); the answers so far are released(s)."),
              class = "dpfda_error_unsupported", arg = "object")
}

# confint() of a number: no band (R's default failed with "no applicable method for 'vcov'").
abort_no_band <- function(what, instead) {
  dpfda_abort(sprintf("There is no band for %s: %s", what, instead), class = "dpfda_error_unsupported",
              arg = "object")
}

#' @rdname result_methods
#' @export
confint.dpfda_bandwidth <- function(object, ...) {
  abort_no_band("a released bandwidth (one number, with no noise law to describe)",
                "release the density with it, dp_kde(x, grid, bandwidth = b, ...), and confint() that release.")
}

#' @rdname result_methods
#' @export
confint.dpfda_selection <- function(object, ...) {
  abort_no_band("a selection (the exponential mechanism chooses a candidate; it adds no noise)",
                "tidy() lists the candidates with their probabilities; confint() the release made with the choice.")
}

#' @rdname result_methods
#' @export
confint.dpfda_pcv_selection <- confint.dpfda_selection

#' @rdname result_methods
#' @export
as.data.frame.dpfda_bandwidth <- function(x, row.names = NULL, optional = FALSE, ...) tidy(x, ...)

#' @rdname result_methods
#' @export
as.data.frame.dpfda_selection <- function(x, row.names = NULL, optional = FALSE, ...) tidy(x, ...)

#' @rdname result_methods
#' @export
as.data.frame.dpfda_pcv_selection <- function(x, row.names = NULL, optional = FALSE, ...) tidy(x, ...)
