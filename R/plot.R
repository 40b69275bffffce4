# Base-graphics plots of curves and releases.

#' Plot curves and releases
#'
#' One-dimensional curves are drawn as a spaghetti plot ([graphics::matplot()]);
#' on a two-dimensional tensor grid the first curve is drawn as an image with
#' contours. Axis labels default to the names of the argument and value
#' columns the curves were made from (`"t"` and `"value"` otherwise). For a
#' release, the released curves are drawn; with `band = TRUE` (or
#' `"pointwise"`, `"simultaneous"`) a band of the privacy noise at level
#' `level` from [confint.dpfda_release()] (public information) is shaded
#' around the first curve, and a legend names the release, the band and the
#' reference; `band = "population"` shades the simultaneous band for the
#' population mean of a `dp_mean(..., inference = TRUE)` release, or for the
#' smoothed population density of a [dp_kde()] release.
#'
#' @param x A `dpfda_curves` object or a `dpfda_release`.
#' @param y Unused.
#' @param col,lty,lwd,type,xlab,ylab,main Graphical parameters.
#' @param band For releases: `FALSE`, `TRUE` (a pointwise band),
#'   `"pointwise"`, `"simultaneous"` or `"population"`.
#' @param level Level of the band.
#' @param reference For releases: an optional non-private reference drawn
#'   dashed: a function of the grid points (e.g. the true curve of a teaching
#'   example), a numeric vector on the release's grid or a [curves()] object.
#'   A Bernstein release ([dp_bernstein()]) is drawn as its polynomial on 201
#'   points of its domain, with the noisy lattice values as points; its
#'   reference may be given on either.
#' @param legend For releases: draw a legend (when there is a band or a
#'   reference).
#' @param ... Passed to [graphics::matplot()] / [graphics::matlines()].
#' @return `x`, invisibly.
#' @examples
#' g <- rgp(3, kernel_matern(5/2, 0.2), seq(0, 1, length.out = 100))
#' plot(g)
#' lines(g[1], col = "black", lwd = 2)
#' @export
plot.dpfda_curves <- function(x, y, col = NULL, lty = 1, lwd = 1, type = "l",
                              xlab = NULL, ylab = NULL, main = NULL, ...) {
  if (is.null(main)) main <- format(x)
  labs <- if (x$dim == 2L) {
    if (is.null(xlab)) curves_axis_labels(x) else paste0(xlab, 1:2)
  }
  if (is.null(xlab)) xlab <- curves_arg_label(x)
  if (is.null(ylab)) ylab <- curves_value_label(x)
  if (x$dim == 1L) {
    if (is.null(col)) col <- curve_palette(nrow(x$values))
    graphics::matplot(x$grid, t(x$values), type = type, col = col, lty = lty, lwd = lwd,
                      xlab = xlab, ylab = ylab, main = main, ...)
  } else if (x$dim == 2L && !is.null(axes <- tensor_axes(x$grid)) &&
             !any(vapply(axes, is.unsorted, NA))) {
    z <- matrix(x$values[1L, ], length(axes[[1L]]), length(axes[[2L]]))
    graphics::image(axes[[1L]], axes[[2L]], z, col = grDevices::hcl.colors(64, "viridis"),
                    xlab = labs[1L], ylab = labs[2L], main = main, ...)
    graphics::contour(axes[[1L]], axes[[2L]], z, add = TRUE, drawlabels = FALSE)
  } else {
    dpfda_abort("Only one-dimensional curves and curves on two-dimensional tensor grids can be plotted.",
                arg = "x")
  }
  invisible(x)
}

# Axis labels: the names of the columns the curves came from, if recorded.
curves_arg_label <- function(x) {
  a <- x$arg_name
  if (is.character(a) && length(a) >= 1L && !is.na(a[1L]) && nzchar(a[1L])) a[1L] else "t"
}
# The labels of the axes of two-dimensional curves: the names of the columns they came from
# (e.g. a density of MASS::geyser's waiting and duration), else the argument label numbered.
curves_axis_labels <- function(x, xlab = curves_arg_label(x)) curves_axis_names(x) %||% paste0(xlab, seq_len(x$dim))
# The names recorded one per axis of curves in several dimensions, or NULL.
curves_axis_names <- function(x) {
  a <- x$arg_name
  if (x$dim > 1L && is.character(a) && length(a) == x$dim && !anyNA(a) && all(nzchar(a))) a
}
curves_value_label <- function(x) {
  v <- x$value_name
  if (is.character(v) && length(v) == 1L && !is.na(v) && nzchar(v)) v else "value"
}

# A release's values with axis names where none were recorded: a density is of x (not t) and its
# values are a density.
release_labelled_values <- function(x) {
  v <- x$values
  if (inherits(x, "dpfda_kde_release")) {
    if (identical(curves_arg_label(v), "t")) v$arg_name <- "x"
    if (identical(curves_value_label(v), "value")) v$value_name <- "density"
  }
  v
}

# The function a release publishes, as a release to draw. A Bernstein release
# keeps its noisy lattice values, but what it publishes is their Bernstein
# polynomial of order h: joining the lattice values by lines drew a different
# (rougher) function. The view holds the polynomial on 201 points of the
# domain (51 x 51 in the plane), and its noise law is that of the polynomial.
release_view <- function(x) {
  if (inherits(x, "dpfda_bin_release")) return(bin_step_view(x))
  if (!inherits(x, "dpfda_bernstein_release") || !as.integer(x$dim) %in% 1:2) return(x)
  view <- x
  if (identical(as.integer(x$dim), 1L)) {
    dom <- as.double(x$domain)
    grid <- seq(dom[1L], dom[2L], length.out = 201L)
    vals <- bernstein_predict(x, grid)
  } else {   # in the plane: the polynomial on 51 x 51 points of the box (an image; no band there)
    dom <- matrix(x$domain, 2L, 2L)
    axes <- lapply(1:2, function(j) seq(dom[1L, j], dom[2L, j], length.out = 51L))
    vals <- as.vector(bernstein_predict(x, axes))   # (column-major: first coordinate fastest)
    grid <- as.matrix(expand.grid(axes, KEEP.OUT.ATTRS = FALSE))
    colnames(grid) <- colnames(x$values$grid)
  }
  view$values <- new_dpfda_curves(matrix(vals, nrow = 1L), grid, x$values$domain,
                                  arg_name = x$values$arg_name %||% "t",
                                  value_name = x$values$value_name %||% "value")
  view$lattice <- x
  view$line_label <- sprintf("Bernstein polynomial (h = %d)", as.integer(x$h))
  class(view) <- c("dpfda_bernstein_view", "dpfda_release")
  view
}

#' @export
noise_law.dpfda_bernstein_view <- function(x, ...) law_bernstein(x$lattice, x$values$grid)

# A binned regression of method "simple" publishes a step function: each bin's
# released mean over the whole bin (predict()). Joining the bin centres by lines
# drew slopes it does not have. The view holds each mean at both ends of its bin
# (pulled in by 1e-9 of a bin so the grid increases); its band is the release's,
# bin by bin (release_band()), as the two ends of a bin share its one Laplace
# draw. Up to 500 bins (beyond, the centres joined by lines are the steps to the
# eye); integral-GP fits and bins in the plane are drawn as before.
bin_step_view <- function(x) {
  if (length(x$bins) != 1L || !identical(x$method, "simple") || x$bins > 500L) return(x)
  k <- as.integer(x$bins)
  dom <- as.double(x$domain)
  w <- (dom[2L] - dom[1L]) / k
  lo <- dom[1L] + (seq_len(k) - 1) * w
  grid <- as.vector(rbind(lo + 1e-7 * w, lo + (1 - 1e-7) * w))
  idx <- rep(seq_len(k), each = 2L)
  view <- x
  view$values <- new_dpfda_curves(x$values$values[, idx, drop = FALSE], grid, x$values$domain,
                                  arg_name = x$values$arg_name %||% "t",
                                  value_name = x$values$value_name %||% "value")
  view$step_index <- idx
  view$step_of <- x
  view$centres <- x$values   # (a reference may be given at the bin centres)
  view$reference_grid <- seq(dom[1L], dom[2L], length.out = 201L)
  view$line_label <- "bin means (a step function)"
  class(view) <- c("dpfda_bin_step_view", "dpfda_release")
  view
}

# A band or a reference is drawn about one-dimensional releases only; an image
# of a density in the plane drew neither and said nothing.
refuse_band_beyond_1d <- function(v, band, reference) {
  if (v$dim == 1L || (is.null(band_type(band)) && is.null(reference))) return(invisible())
  what <- if (!is.null(reference)) "reference" else "band"
  dpfda_abort(sprintf(paste("`%s` is drawn for one-dimensional releases only; this one is %d-dimensional: take its",
                            "band from confint() (columns lower, upper), or plot a reference separately."), what, v$dim),
              class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = what)
}

# `band` (or `reference`) given to a plot that draws neither (components, weighted points): refused
# with a classed error (it reached graphics as "\"band\" is not a graphical parameter", 6 to 12 times)
refuse_band_option <- function(dots, what, instead) {
  for (a in intersect(c("band", "reference"), names(dots))) {
    dpfda_abort(sprintf("`%s` is not drawn on %s: %s", a, what, instead),
                class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = a)
  }
}

# band argument -> NULL or "pointwise" / "simultaneous"
band_type <- function(band) {
  if (isFALSE(band) || is.null(band)) return(NULL)
  if (isTRUE(band)) return("pointwise")
  check_choice(band, c("pointwise", "simultaneous", "population"), "band")
}

# The band of a release's first curve on its grid, or NULL when the noise law
# is not available.
release_band <- function(x, band, level) {
  type <- band_type(band)
  if (is.null(type)) return(NULL)
  # a population band was asked for explicitly: a release without it says why (classed error)
  of <- x$step_of %||% x
  ci <- if (type == "population") confint.dpfda_release(of, level = level, type = type) else
    tryCatch(confint.dpfda_release(of, level = level, type = type), dpfda_error_unsupported = function(e) NULL)
  if (is.null(ci)) return(NULL)
  ci <- ci[ci$id == 1L, , drop = FALSE]
  if (!is.null(x$step_index)) ci <- ci[x$step_index, , drop = FALSE]   # (a step view: each bin's band at its ends)
  list(lower = ci$lower, upper = ci$upper,
       label = if (type == "population")
                 sprintf("%s%% band for the population %s", format(100 * level),
                         # (a density's band is for f_h, the density smoothed by the kernel; see
                         # confint(type = "population", smoothness =) for f itself)
                         if (inherits(x, "dpfda_kde_release")) "density smoothed by the kernel" else "mean")
               else sprintf("%s%% %s band of the privacy noise", format(100 * level), type))
}

#' @rdname plot.dpfda_curves
#' @export
lines.dpfda_curves <- function(x, col = NULL, lty = 1, lwd = 1, ...) {
  if (x$dim != 1L) dpfda_abort("`lines()` needs one-dimensional curves.", arg = "x")
  if (is.null(col)) col <- curve_palette(nrow(x$values))
  graphics::matlines(x$grid, t(x$values), col = col, lty = lty, lwd = lwd, ...)
  invisible(x)
}

# `...` of a plot method: graphical parameters only. The graphics functions ignore a name they do
# not know without a word, so `plot(r, bands = "population")` drew no band and said nothing.
check_graphics_dots <- function(dots, fun, own) {
  known <- c(names(graphics::par(no.readonly = FALSE)), "type", "xlim", "ylim", "log", "sub", "asp", "axes",
             "frame.plot", "panel.first", "panel.last", "ann")
  check_dot_names(dots, known, fun, unknown = function(name) {
    near <- closest_name(name, own)
    dpfda_abort(sprintf("`%s` is neither an argument of %s() (%s) nor a graphical parameter (see ?par)%s.", name,
                        fun, paste0("`", own, "`", collapse = ", "),
                        if (is.null(near)) "" else sprintf("; did you mean `%s`?", near)), arg = name)
  })
}

# The default title of a release's plot: the mechanism and its guarantee, on two lines when one
# would not fit a default device (gp-regression-cloaking's was cut off at 7 inches).
release_title <- function(x) {
  mech <- as.character(x$mechanism %||% "")[1L]
  priv <- sprintf("epsilon = %s, delta = %s", format(x$epsilon, digits = 3), format(x$delta, digits = 3))
  sep <- if (nchar(mech) + nchar(priv) > 34L) "\n" else ", "
  sprintf("%s release%s%s", mech, sep, priv)
}

#' @rdname plot.dpfda_curves
#' @export
plot.dpfda_release <- function(x, y, band = FALSE, reference = NULL, main = NULL, xlab = NULL, ylab = NULL,
                               level = 0.95, legend = TRUE, ...) {
  check_graphics_dots(list(...), "plot", c("band", "reference", "level", "legend"))
  if (is.null(main)) {
    main <- release_title(x)
  }
  shown <- release_view(x)
  v <- release_labelled_values(shown)
  if (v$dim != 1L) {   # (an image: the axes are named by the curves unless xlab is given)
    refuse_band_beyond_1d(v, band, reference)
    plot(v, main = main, xlab = xlab, ylab = ylab, ...)
    return(invisible(x))
  }
  if (is.null(xlab)) xlab <- curves_arg_label(v)
  if (is.null(ylab)) ylab <- curves_value_label(v)
  b <- release_band(shown, band, level)
  ref <- if (!is.null(reference)) release_reference(reference, v, shown) else NULL
  lat <- shown$lattice$values   # (a Bernstein release: its noisy lattice values, drawn as points)
  graphics::plot(range(v$grid), range(v$values, b$lower, b$upper, ref$value, lat$values), type = "n", xlab = xlab,
                 ylab = ylab, main = main)
  if (!is.null(b)) {
    graphics::polygon(c(v$grid, rev(v$grid)), c(b$lower, rev(b$upper)),
                      col = grDevices::adjustcolor("grey60", 0.4), border = NA)
  }
  graphics::lines(v, ...)
  if (!is.null(lat)) graphics::points(lat$grid, lat$values[1L, ], pch = 1, cex = 0.8)
  if (!is.null(ref)) graphics::lines(ref$arg, ref$value, lty = 2, lwd = 2)
  if (isTRUE(legend) && (!is.null(b) || !is.null(ref) || !is.null(lat))) {
    lab <- c(shown$line_label %||% "private release", if (!is.null(lat)) "noisy lattice values", if (!is.null(b)) b$label,
             if (!is.null(ref)) "reference (not private)")
    graphics::legend("topleft", legend = lab, bty = "n", cex = 0.8,
                     lty = c(1, if (!is.null(lat)) NA, if (!is.null(b)) NA, if (!is.null(ref)) 2),
                     lwd = c(1, if (!is.null(lat)) NA, if (!is.null(b)) NA, if (!is.null(ref)) 2),
                     pch = c(NA, if (!is.null(lat)) 1, if (!is.null(b)) 15, if (!is.null(ref)) NA),
                     col = c("black", if (!is.null(lat)) "black", if (!is.null(b)) grDevices::adjustcolor("grey60", 0.6),
                             if (!is.null(ref)) "black"),
                     pt.cex = c(1, if (!is.null(lat)) 0.8, if (!is.null(b)) 2, if (!is.null(ref)) 1))
  }
  invisible(x)
}

#' @rdname plot.dpfda_curves
#' @export
lines.dpfda_release <- function(x, ...) {
  graphics::lines(release_view(x)$values, ...)
  invisible(x)
}

curve_palette <- function(n) {
  if (n == 1L) return("black")
  grDevices::hcl.colors(min(n, 12L), "Dark 3")
}
