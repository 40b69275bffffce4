# ggplot2 methods (ggplot2 is suggested): autoplot() for curves, releases and
# mortality distributions, registered when ggplot2 is loaded.

utils::globalVariables(c("arg", "value", "id", "group", "age", "density", "lo", "hi", "t1", "t2", "z1", "z2", "weight",
                         "sign", "component", "what", "band"))

# Register `method` for the generic `pkg::generic` on class `cls`, now if pkg
# is loaded and again whenever it is loaded later.
register_s3_later <- function(pkg, generic, cls, method) {
  reg <- function(...) {
    registerS3method(generic, cls, method, envir = asNamespace(pkg))
  }
  if (isNamespaceLoaded(pkg)) reg()
  setHook(packageEvent(pkg, "onLoad"), reg)
}

.onLoad <- function(libname, pkgname) {
  register_s3_later("ggplot2", "autoplot", "dpfda_curves", autoplot_dpfda_curves)
  register_s3_later("ggplot2", "autoplot", "dpfda_release", autoplot_dpfda_release)
  register_s3_later("ggplot2", "autoplot", "dpfda_mortality", autoplot_dpfda_mortality)
  register_s3_later("ggplot2", "autoplot", "dpfda_kme_release", autoplot_dpfda_kme_release)
  register_s3_later("ggplot2", "autoplot", "dpfda_fpca", autoplot_dpfda_fpca)
  register_s3_later("ggplot2", "autoplot", "dpfda_difference", autoplot_dpfda_difference)
  # (ggplot2's "Objects of class <dpfda_bandwidth> are not supported"): refused as plot() is, and a
  # session draws its answers so far
  register_s3_later("ggplot2", "autoplot", "dpfda_bandwidth", function(object, ...) plot.dpfda_bandwidth(object))
  register_s3_later("ggplot2", "autoplot", "dpfda_selection", function(object, ...) plot.dpfda_selection(object))
  register_s3_later("ggplot2", "autoplot", "dpfda_pcv_selection", function(object, ...) plot.dpfda_selection(object))
  register_s3_later("ggplot2", "autoplot", "dpfda_online_session",
                    function(object, ...) ggplot2::autoplot(released(object), ...))
  invisible(NULL)
}

#' ggplot2 plots of curves, releases, mortality distributions and KME releases
#'
#' With \pkg{ggplot2} installed, `ggplot2::autoplot()` draws dpfda objects:
#' curves as lines (one per curve; the first curve of two-dimensional curves
#' as a raster), releases as their released curves with an optional band of
#' the privacy noise (pointwise or simultaneous, see [confint.dpfda_release()]) and an optional non-private
#' reference (dashed), mortality distributions as one density per group,
#' [dp_kme()] releases as their weighted synthetic points (size by
#' \eqn{|w|}, colour by sign; the first two coordinates, or weight against
#' the point in one dimension), and the difference of two releases
#' (`r1 - r2`, [release-difference]) with its band.
#' The methods are registered when \pkg{ggplot2} is loaded.
#'
#' @param object A `dpfda_curves`, `dpfda_release`, `dpfda_mortality`,
#'   `dpfda_kme_release` or `dpfda_difference`.
#' @param band For releases: `FALSE`, `TRUE` (pointwise), `"pointwise"`,
#'   `"simultaneous"` or `"population"` (the band for the population mean of a
#'   `dp_mean(..., inference = TRUE)` release): shade a band at level `level`
#'   (public information, see [confint.dpfda_release()]); the legend names
#'   the release, the band and the reference.
#' @param reference For releases: an optional non-private reference, a
#'   function of the grid points, a numeric vector on the release's grid or a
#'   [curves()] object (see [plot.dpfda_release()]).
#' @param ... Unused.
#' @return A `ggplot` object.
#' @name autoplot-dpfda
#' @examples
#' if (requireNamespace("ggplot2", quietly = TRUE)) {
#'   g <- rgp(3, kernel_matern(5/2, 0.2), seq(0, 1, length.out = 100))
#'   ggplot2::autoplot(g)
#' }
NULL

#' @rdname autoplot-dpfda
autoplot_dpfda_curves <- function(object, ...) {
  need_package("ggplot2", "autoplot()")
  d <- as.data.frame(object)
  xl <- curves_arg_label(object)
  yl <- curves_value_label(object)
  if (object$dim == 1L) {
    d$id <- factor(d$id)
    p <- ggplot2::ggplot(d, ggplot2::aes(x = arg, y = value, group = id)) + ggplot2::labs(x = xl, y = yl)
    if (nrow(object$values) == 1L) return(p + ggplot2::geom_line())
    p + ggplot2::geom_line(ggplot2::aes(colour = id)) + ggplot2::labs(colour = object$id_name %||% "curve")
  } else if (object$dim == 2L) {
    d <- d[d$id == 1L, ]
    d <- data.frame(t1 = d$arg1, t2 = d$arg2, value = d$value)
    ggplot2::ggplot(d, ggplot2::aes(x = t1, y = t2, fill = value)) + ggplot2::geom_raster() +
      ggplot2::labs(x = curves_axis_labels(object, xl)[1L], y = curves_axis_labels(object, xl)[2L], fill = yl)
  } else {
    dpfda_abort("Only one- and two-dimensional curves can be plotted.", arg = "object")
  }
}

#' @rdname autoplot-dpfda
#' @param level Level of the band.
autoplot_dpfda_release <- function(object, band = FALSE, reference = NULL, level = 0.95, ...) {
  need_package("ggplot2", "autoplot()")
  shown <- release_view(object)   # (a Bernstein release: its polynomial)
  v <- release_labelled_values(shown)
  title <- release_title(object)
  refuse_band_beyond_1d(v, band, reference)
  if (v$dim != 1L || nrow(v$values) > 1L) return(autoplot_dpfda_curves(v) + ggplot2::ggtitle(title))
  b <- release_band(shown, band, level)
  rel_lab <- shown$line_label %||% "private release"
  d <- data.frame(arg = v$grid, value = v$values[1L, ], what = rel_lab)
  ltys <- c(1)
  names(ltys) <- rel_lab
  if (!is.null(reference)) {
    ref_lab <- "reference (not private)"
    rf <- release_reference(reference, v, shown)
    d <- rbind(d, data.frame(arg = rf$arg, value = rf$value, what = ref_lab))
    ltys[ref_lab] <- 2
  }
  d$what <- factor(d$what, levels = names(ltys))
  p <- ggplot2::ggplot(d, ggplot2::aes(x = arg, y = value))
  if (!is.null(b)) {
    # (wrapped: "95% band for the population density smoothed by the kernel" ran off a 5-inch plot)
    bd <- data.frame(arg = v$grid, lo = b$lower, hi = b$upper, band = paste(strwrap(b$label, 44), collapse = "\n"))
    p <- p + ggplot2::geom_ribbon(data = bd, ggplot2::aes(x = arg, ymin = lo, ymax = hi, fill = band),
                                  inherit.aes = FALSE, alpha = 0.3) +
      ggplot2::scale_fill_manual(values = "grey50", name = NULL)
  }
  if (!is.null(shown$lattice)) {   # the noisy lattice values the polynomial is made of
    lat <- shown$lattice$values
    p <- p + ggplot2::geom_point(data = data.frame(arg = lat$grid, value = lat$values[1L, ]), shape = 1)
  }
  p + ggplot2::geom_line(ggplot2::aes(linetype = what)) +
    ggplot2::scale_linetype_manual(values = ltys, name = NULL) +
    ggplot2::labs(x = curves_arg_label(v), y = curves_value_label(v), title = title) +
    ggplot2::theme(legend.position = "bottom")
}

#' @rdname autoplot-dpfda
autoplot_dpfda_difference <- function(object, band = FALSE, level = 0.95, ...) {
  need_package("ggplot2", "autoplot()")
  v <- object$values
  type <- band_type(band)
  d <- data.frame(arg = v$grid, value = v$values[1L, ])
  p <- ggplot2::ggplot(d, ggplot2::aes(x = arg, y = value)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey40", linetype = 3)
  if (!is.null(type)) {
    ci <- confint.dpfda_difference(object, level = level, type = type)
    lab <- paste(strwrap(difference_band_label(object, type, level), 44), collapse = "\n")
    bd <- data.frame(arg = ci$arg, lo = ci$lower, hi = ci$upper, band = lab)
    p <- p + ggplot2::geom_ribbon(data = bd, ggplot2::aes(x = arg, ymin = lo, ymax = hi, fill = band),
                                  inherit.aes = FALSE, alpha = 0.3) +
      ggplot2::scale_fill_manual(values = "grey50", name = NULL)
  }
  p + ggplot2::geom_line() +
    ggplot2::labs(x = curves_arg_label(v), y = "difference",
                  title = sprintf("%s - %s", object$labels[1L], object$labels[2L])) +
    ggplot2::theme(legend.position = "bottom")
}

#' @rdname autoplot-dpfda
autoplot_dpfda_mortality <- function(object, ...) {
  need_package("ggplot2", "autoplot()")
  d <- as.data.frame(object)
  ggplot2::ggplot(d, ggplot2::aes(x = age, y = density, colour = group)) + ggplot2::geom_line() +
    ggplot2::labs(colour = NULL)
}

#' @rdname autoplot-dpfda
autoplot_dpfda_kme_release <- function(object, ...) {
  need_package("ggplot2", "autoplot()")
  refuse_band_kme(list(...))   # (ignored in silence)
  p <- object$points
  d <- data.frame(z1 = p[, 1L], z2 = if (ncol(p) > 1L) p[, 2L] else object$weights,
                  weight = abs(object$weights), sign = ifelse(object$weights >= 0, "positive", "negative"))
  lab <- kme_point_names(object)   # (the data's column names, when recorded)
  g <- ggplot2::ggplot(d, ggplot2::aes(x = z1, y = z2, colour = sign))
  g <- if (ncol(p) > 1L) {
    g + ggplot2::geom_point(ggplot2::aes(size = weight), alpha = 0.7) + ggplot2::labs(x = lab[1L], y = lab[2L])
  } else {
    g + ggplot2::geom_segment(ggplot2::aes(xend = z1, yend = 0)) +
      ggplot2::labs(x = if (lab[1L] == "z1") "z" else lab[1L], y = "weight")
  }
  g + ggplot2::ggtitle(sprintf("dp_kme (%s), epsilon = %s", object$method, format(object$epsilon, digits = 3)))
}

# A non-private reference curve on the grid of curves v.
release_reference <- function(reference, v, shown = NULL) {
  # (a Bernstein release: also its lattice, where its values were given before; a binned
  # regression: its bin centres, and a function is drawn on 201 points, not at the bins' ends)
  lattice <- shown$lattice$values %||% shown$centres
  grids <- list(v$grid)
  if (!is.null(lattice)) grids <- c(grids, list(lattice$grid))
  if (is.function(reference)) {
    at <- shown$reference_grid %||% v$grid
    val <- tryCatch(reference(at), error = function(e) {
      dpfda_abort(sprintf("`reference` failed at the release's grid: %s", conditionMessage(e)), arg = "reference",
                  parent = e)
    })
    if (inherits(val, "dpfda_curves")) val <- val$values[1L, ]
    if (!is.numeric(val) || length(val) != length(at) || !all(is.finite(val))) {
      arg_error("reference", sprintf("a function returning %d finite values at the release's grid points",
                                     length(at)), val)
    }
    return(list(arg = at, value = as.double(val)))
  }
  sizes <- vapply(grids, length, 1L)
  what <- if (length(grids) == 1L) sprintf("%d", sizes[1L]) else if (!is.null(shown$centres))
    sprintf("%d (the bin centres)", sizes[2L]) else
    sprintf("%d (the polynomial's grid) or %d (the lattice)", sizes[1L], sizes[2L])
  if (!is.null(shown$centres)) {   # (the step view's grid holds the bins' ends: not a reference's grid)
    grids <- grids[2L]
    sizes <- sizes[2L]
  }
  val <- if (inherits(reference, "dpfda_curves")) reference$values[1L, ] else reference
  hit <- match(length(val), sizes)
  if (inherits(reference, "dpfda_curves") && is.na(hit)) {
    arg_error("reference", sprintf("curves on the release's %s grid points", what), reference)
  }
  if (!is.numeric(val) || is.na(hit) || !all(is.finite(val))) {
    arg_error("reference", sprintf("a function of the grid, or a numeric vector of %s finite values (the release's grid)",
                                   what), reference)
  }
  list(arg = grids[[hit]], value = as.double(val))
}
