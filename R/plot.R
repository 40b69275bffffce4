# Base-graphics plots of curves and releases.

#' Plot curves and releases
#'
#' One-dimensional curves are drawn as a spaghetti plot ([graphics::matplot()]);
#' on a two-dimensional tensor grid the first curve is drawn as an image with
#' contours. For a release, the released curves are drawn; with `band = TRUE`
#' a pointwise band of +/- 2 noise standard deviations (public information,
#' computed from the noise scale and kernel) is shaded.
#'
#' @param x A `dpfda_curves` object or a `dpfda_release`.
#' @param y Unused.
#' @param col,lty,lwd,type,xlab,ylab,main Graphical parameters.
#' @param band For releases: shade +/- 2 pointwise noise standard deviations.
#' @param reference For releases: an optional non-private reference drawn
#'   dashed (a numeric vector on the release's grid or a [curves()] object),
#'   e.g. to show a teaching example next to the truth.
#' @param ... Passed to [graphics::matplot()] / [graphics::matlines()].
#' @return `x`, invisibly.
#' @examples
#' g <- rgp(3, kernel_matern(5/2, 0.2), seq(0, 1, length.out = 100))
#' plot(g)
#' lines(g[1], col = "black", lwd = 2)
#' @export
plot.dpfda_curves <- function(x, y, col = NULL, lty = 1, lwd = 1, type = "l",
                              xlab = "t", ylab = "value", main = NULL, ...) {
  if (is.null(main)) main <- format(x)
  if (x$dim == 1L) {
    if (is.null(col)) col <- curve_palette(nrow(x$values))
    graphics::matplot(x$grid, t(x$values), type = type, col = col, lty = lty, lwd = lwd,
                      xlab = xlab, ylab = ylab, main = main, ...)
  } else if (x$dim == 2L && !is.null(axes <- tensor_axes(x$grid)) &&
             !any(vapply(axes, is.unsorted, NA))) {
    z <- matrix(x$values[1L, ], length(axes[[1L]]), length(axes[[2L]]))
    graphics::image(axes[[1L]], axes[[2L]], z, col = grDevices::hcl.colors(64, "viridis"),
                    xlab = "t1", ylab = "t2", main = main, ...)
    graphics::contour(axes[[1L]], axes[[2L]], z, add = TRUE, drawlabels = FALSE)
  } else {
    dpfda_abort("Only one-dimensional curves and curves on two-dimensional tensor grids can be plotted.",
                arg = "x")
  }
  invisible(x)
}

#' @rdname plot.dpfda_curves
#' @export
lines.dpfda_curves <- function(x, col = NULL, lty = 1, lwd = 1, ...) {
  if (x$dim != 1L) dpfda_abort("`lines()` needs one-dimensional curves.", arg = "x")
  if (is.null(col)) col <- curve_palette(nrow(x$values))
  graphics::matlines(x$grid, t(x$values), col = col, lty = lty, lwd = lwd, ...)
  invisible(x)
}

#' @rdname plot.dpfda_curves
#' @export
plot.dpfda_release <- function(x, y, band = FALSE, reference = NULL, main = NULL, xlab = "t", ylab = "value",
                               ...) {
  if (is.null(main)) {
    main <- sprintf("%s release, epsilon = %s, delta = %s", x$mechanism,
                    format(x$epsilon, digits = 3), format(x$delta, digits = 3))
  }
  v <- x$values
  sd <- if (isTRUE(band)) release_pointwise_sd(x) else NULL
  if (!is.null(sd) && v$dim == 1L) {
    lo <- apply(v$values, 2L, min) - 2 * sd
    hi <- apply(v$values, 2L, max) + 2 * sd
    graphics::plot(range(v$grid), range(lo, hi), type = "n", xlab = xlab, ylab = ylab, main = main)
    graphics::polygon(c(v$grid, rev(v$grid)), c(v$values[1L, ] - 2 * sd, rev(v$values[1L, ] + 2 * sd)),
                      col = grDevices::adjustcolor("grey60", 0.4), border = NA)
    graphics::lines(v, ...)
  } else if (!is.null(reference) && v$dim == 1L) {
    ref <- release_reference(reference, v)
    graphics::plot(range(v$grid), range(v$values, ref), type = "n", xlab = xlab, ylab = ylab, main = main)
    graphics::lines(v, ...)
  } else {
    plot(v, main = main, xlab = xlab, ylab = ylab, ...)
  }
  if (!is.null(reference) && v$dim == 1L) graphics::lines(v$grid, release_reference(reference, v), lty = 2, lwd = 2)
  invisible(x)
}

#' @rdname plot.dpfda_curves
#' @export
lines.dpfda_release <- function(x, ...) {
  graphics::lines(x$values, ...)
  invisible(x)
}

# Pointwise noise sd of a release with Gaussian-process noise, else NULL.
release_pointwise_sd <- function(x) {
  if (is.matrix(x$noise_covariance)) return(sqrt(pmax(diag(x$noise_covariance), 0)))
  if (inherits(x$noise, "dpfda_kernel")) {
    return(rep(x$noise_scale * sqrt(x$noise$variance), ncol(x$values$values)))
  }
  NULL
}

curve_palette <- function(n) {
  if (n == 1L) return("black")
  grDevices::hcl.colors(min(n, 12L), "Dark 3")
}
