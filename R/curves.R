# Functional-data objects: n curves observed on a common public grid.

#' Curves on a common grid
#'
#' `curves()` stores `n` functions observed on the same `m` grid points: the
#' currency of dpfda. Released values, data curves, densities and noise paths
#' are all `dpfda_curves`.
#'
#' The grid is public. One-dimensional grids are sorted (the columns of
#' `values` follow) and must not contain duplicates. A grid in `d > 1`
#' dimensions is an `m x d` matrix, or a list of `d` axis vectors that is
#' expanded to the tensor grid in [expand.grid()] order (first axis fastest).
#'
#' @param values A numeric vector (one curve) or an `n x m` matrix (one curve
#'   per row) of finite values. Row names label the curves (`ids`).
#' @param grid The evaluation points: a vector of length `m`, an `m x d`
#'   matrix, or a list of axis vectors. Defaults to `m` equally spaced points
#'   on \[0, 1\].
#' @param domain The domain: `c(lower, upper)` in one dimension, a `2 x d`
#'   matrix otherwise. Defaults to the range of the grid.
#' @return An object of class `dpfda_curves`: a list with `values` (`n x m`
#'   matrix), `grid` (vector, or `m x d` matrix), `domain`, `dim`, and the
#'   names of the argument and of the values, `arg_name` (default `"t"`) and
#'   `value_name` (default `"value"`; [as_curves()] takes them from the data's
#'   columns, plots use them as axis labels), and `ids`, the curves' labels,
#'   when `values` has row names.
#' @examples
#' t <- seq(0, 1, length.out = 50)
#' x <- curves(rbind(sin(2 * pi * t), cos(2 * pi * t)), t)
#' x
#' plot(x)
#' as.data.frame(x)[1:3, ]
#' @export
curves <- function(values, grid = NULL, domain = NULL, ...) {
  check_dot_names(dot_args(), character(), "curves")
  check_required()
  if (is.data.frame(values)) values <- as.matrix(values)
  if (!is.numeric(values) || length(values) == 0L ||
      (!is.null(dim(values)) && length(dim(values)) != 2L)) {
    arg_error("values", "a numeric vector or matrix of finite values", values)
  }
  if (is.null(dim(values))) values <- matrix(as.double(values), nrow = 1L)
  if (!all(is.finite(values))) {
    check_curves_data(list(values = values, grid = seq_len(ncol(values)), dim = 1L,
                           domain = c(1, ncol(values))), "values")
  }
  storage.mode(values) <- "double"
  m <- ncol(values)
  if (is.null(grid)) grid <- if (m == 1L) 0 else seq(0, 1, length.out = m)
  grid <- as_grid(grid, "grid")
  if (grid_size(grid) != m) {
    hint <- if (grid_size(grid) == nrow(values) && nrow(values) != m) {
      paste(" dpfda stores one curve per row; fda stores curves in columns: did you mean t(x)",
            "(as_curves(t(x), grid = ...))?")
    } else ""
    dpfda_abort(sprintf("`grid` has %d points but `values` has %d columns.%s", grid_size(grid), m, hint),
                arg = "grid")
  }
  if (is.null(dim(grid))) {
    o <- order(grid)
    if (is.unsorted(grid)) {
      grid <- grid[o]
      values <- values[, o, drop = FALSE]
    }
  }
  domain <- as_domain(domain, grid)
  ids <- rownames(values)   # the curves' labels (a station, a person), as as_curves() keeps them
  dimnames(values) <- NULL
  out <- new_dpfda_curves(values, grid, domain)
  if (!is.null(ids)) out$ids <- ids
  out
}

new_dpfda_curves <- function(values, grid, domain, ..., arg_name = "t", value_name = "value",
                             class = character()) {
  structure(list(values = values, grid = grid, domain = domain,
                 dim = if (is.null(dim(grid))) 1L else ncol(grid), ...,
                 arg_name = arg_name, value_name = value_name),
            class = c(class, "dpfda_curves"))
}


# The invariants of a curves object; a classed error naming the first that fails.
validate_dpfda_curves <- function(x, arg = "x") {
  fail <- function(what) {
    dpfda_abort(sprintf("`%s` is not a valid dpfda_curves object: %s.", arg, what), class = "dpfda_error_data",
                arg = arg)
  }
  if (!inherits(x, "dpfda_curves")) fail("it does not have class dpfda_curves")
  if (!(is.matrix(x$values) && is.double(x$values))) fail("`values` must be a numeric matrix")
  if (!all(is.finite(x$values))) fail("`values` must be finite")
  if (!isTRUE(ncol(x$values) == grid_size(x$grid))) fail("`values` must have one column per grid point")
  if (!isTRUE(x$dim == (if (is.null(dim(x$grid))) 1L else ncol(x$grid)))) fail("`dim` must match the grid")
  if (x$dim == 1L) {
    if (is.unsorted(x$grid, strictly = TRUE)) fail("the grid must be strictly increasing")
    if (!(length(x$domain) == 2L && x$domain[1] <= min(x$grid) && x$domain[2] >= max(x$grid))) {
      fail("the domain must contain the grid")
    }
  } else if (anyDuplicated(x$grid) || !identical(dim(x$domain), c(2L, x$dim))) {
    fail("the grid points must be distinct and the domain a 2 x d matrix")
  }
  invisible(x)
}

# Grid: vector (1-D, strictly unique), m x d matrix, or list of axes.
as_grid <- function(grid, arg = "grid") {
  if (is.list(grid) && !is.data.frame(grid)) {
    ok <- length(grid) >= 1L && all(vapply(grid, function(a) is.numeric(a) && length(a) >= 1L &&
                                              all(is.finite(a)) && !anyDuplicated(a), NA))
    if (!ok) arg_error(arg, "a list of numeric axis vectors with finite, distinct values", grid)
    sizes <- vapply(grid, length, 1)
    check_alloc(prod(sizes) * length(grid), "tensor grid")
    if (length(grid) == 1L) return(sort(as.double(grid[[1L]])))
    g <- as.matrix(expand.grid(lapply(grid, as.double), KEEP.OUT.ATTRS = FALSE))
    dimnames(g) <- NULL
    return(g)
  }
  if (is.data.frame(grid)) grid <- as.matrix(grid)
  if (!is.numeric(grid) || length(grid) == 0L || !all(is.finite(grid)) ||
      (!is.null(dim(grid)) && length(dim(grid)) != 2L)) {
    arg_error(arg, "a numeric vector or matrix of finite grid points", grid)
  }
  if (!is.null(dim(grid)) && ncol(grid) == 1L) grid <- as.vector(grid)
  if (is.null(dim(grid))) {
    if (anyDuplicated(grid)) abort_duplicated_grid(arg, grid)
    return(as.double(grid))
  }
  storage.mode(grid) <- "double"
  dimnames(grid) <- NULL
  if (anyDuplicated(grid)) abort_duplicated_grid(arg, grid)
  grid
}

# The values of `v` at `points` when `v` is a one-curve curves object on exactly those points, in
# any order (a target written with kde_gaussian(x, t, b) returns one, on its sorted grid); `v`
# unchanged otherwise, for the caller's own check of the values.
curve_values_at <- function(v, points, arg) {
  if (!inherits(v, "dpfda_curves") || !is.matrix(v$values) || nrow(v$values) != 1L) return(v)
  p <- unname(as.matrix(points))
  g <- unname(as.matrix(v$grid))
  if (!identical(dim(p), dim(g)) || !is.numeric(p)) return(v)
  op <- do.call(order, as.data.frame(p))
  og <- do.call(order, as.data.frame(g))
  if (!isTRUE(all.equal(p[op, , drop = FALSE], g[og, , drop = FALSE], check.attributes = FALSE))) return(v)
  vals <- check_curves_data(v, arg)$values[1L, ]
  out <- numeric(length(vals))
  out[op] <- vals[og]
  out
}

# Which points repeat (the first, as a row of a matrix grid), and the fix.
abort_duplicated_grid <- function(arg, grid) {
  matrix_grid <- !is.null(dim(grid))
  dup <- which(duplicated(grid))
  first <- if (matrix_grid) sprintf("row %d repeats an earlier row", dup[1L]) else
    sprintf("position %d repeats %s", dup[1L], format(grid[dup[1L]], digits = 6))
  dpfda_abort(sprintf("`%s` must not contain duplicated points: %d duplicate%s (%s); remove them, e.g. with unique(%s).",
                      arg, length(dup), if (length(dup) == 1L) "" else "s", first, arg), arg = arg)
}

grid_size <- function(grid) if (is.null(dim(grid))) length(grid) else nrow(grid)

as_domain <- function(domain, grid) {
  domain <- domain_from_ranges(domain)
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  rng <- if (d == 1L) range(grid) else apply(grid, 2L, range)
  if (is.null(domain)) return(rng)
  if (d == 1L) {
    shape <- is.numeric(domain) && length(domain) == 2L && all(is.finite(domain))
    if (isTRUE(shape) && domain[1] >= domain[2]) {
      dpfda_abort(sprintf("`domain` must be c(lower, upper) with lower < upper; it is c(%s, %s).%s",
                          format(domain[1]), format(domain[2]),
                          if (domain[1] > domain[2]) sprintf(" Did you mean c(%s, %s)?", format(domain[2]),
                                                             format(domain[1])) else ""), arg = "domain")
    }
    if (isTRUE(shape) && (domain[1] > rng[1] || domain[2] < rng[2])) {
      dpfda_abort(sprintf("`domain` = c(%s, %s) must contain the grid, which spans [%s, %s].", format(domain[1]),
                          format(domain[2]), format(rng[1]), format(rng[2])), arg = "domain")
    }
    if (!isTRUE(shape)) arg_error("domain", "c(lower, upper) containing the grid", domain)
    return(as.double(domain))
  }
  ok <- is.numeric(domain) && is.matrix(domain) && identical(dim(domain), c(2L, d)) &&
    all(is.finite(domain)) && all(domain[1, ] <= rng[1, ]) && all(domain[2, ] >= rng[2, ])
  if (!isTRUE(ok)) {
    dpfda_abort(sprintf(paste("`domain` must be a 2 x %d matrix of bounds containing the grid (row 1 the lower bounds,",
                              "row 2 the upper, one column per axis; or a list of %d ranges c(lower, upper)), not %s.%s"),
                        d, d, describe_value(domain), domain_transposed_hint(domain)), arg = "domain")
  }
  storage.mode(domain) <- "double"
  domain
}

# A domain given as a list of ranges, one c(lower, upper) per axis (the way
# one writes xlim and ylim), as the 2 x d matrix of bounds (row 1 lower, row 2
# upper; the list's names as column names; one range as c(lower, upper)). Anything else is returned as it
# is, for the checks.
domain_from_ranges <- function(domain) {
  if (!is.list(domain) || is.data.frame(domain) || length(domain) < 1L) return(domain)
  ok <- vapply(domain, function(r) is.numeric(r) && length(r) == 2L && is.null(dim(r)), NA)
  if (!all(ok)) {
    dpfda_abort(sprintf(paste("`domain` as a list must hold one range c(lower, upper) per axis; element %d is %s."),
                        which(!ok)[1L], describe_value(domain[[which(!ok)[1L]]])), arg = "domain")
  }
  if (length(domain) == 1L) return(as.double(domain[[1L]]))   # (one axis: c(lower, upper))
  out <- matrix(as.double(unlist(domain, use.names = FALSE)), nrow = 2L)
  colnames(out) <- names(domain)
  out
}

# A domain given as a named list of ranges (a matrix with column names) for
# inputs with names: its columns in the inputs' order, matched by name (a
# list in another order than the inputs would bound the wrong axes).
domain_by_names <- function(domain, inputs) {
  nm <- colnames(domain)
  if (!is.matrix(domain) || is.null(nm) || all(!nzchar(nm)) || is.null(inputs) || length(inputs) != ncol(domain)) {
    return(domain)
  }
  if (!setequal(nm, inputs)) {
    dpfda_abort(sprintf("`domain` names the axes %s, but the inputs are %s; name one range per input.",
                        paste0("\"", nm, "\"", collapse = ", "), paste0("\"", inputs, "\"", collapse = ", ")),
                arg = "domain")
  }
  domain[, inputs, drop = FALSE]
}

# " Did you mean t(domain)?" when the matrix holds one axis per row (c(lower, upper) in each
# row, as rbind(xlim, ylim) gives) rather than one per column.
domain_transposed_hint <- function(domain) {
  tr <- is.numeric(domain) && is.matrix(domain) && ncol(domain) == 2L && all(is.finite(domain)) &&
    all(domain[, 1L] < domain[, 2L]) && !(nrow(domain) == 2L && all(domain[1L, ] < domain[2L, ]))
  if (tr) " It holds one axis per row: did you mean t(domain)?" else ""
}

# Axes of a tensor grid (expand.grid order), or NULL when the grid is not one.
tensor_axes <- function(grid) {
  if (is.null(dim(grid))) return(list(grid))
  axes <- lapply(seq_len(ncol(grid)), function(j) unique(grid[, j]))
  if (prod(vapply(axes, length, 1)) != nrow(grid)) return(NULL)
  full <- as.matrix(expand.grid(axes, KEEP.OUT.ATTRS = FALSE))
  if (!identical(unname(full), unname(grid))) return(NULL)
  axes
}

# Quadrature weights on the grid: trapezoid rule in 1-D, products of
# trapezoid weights on tensor grids.
quadrature_weights <- function(grid) {
  trap <- function(t) {
    m <- length(t)
    if (m == 1L) return(1)
    # an equispaced grid (as the engines' snapping sees it) gets its exact weights, step / 2 at the ends
    # and step inside: the differences of seq() vary in the last bits, and a database lookup of weights
    # equal but for rounding was a CASE as long as the grid (SQLite compiled 1e5 points in 112 s)
    step <- grid_uniform_step(t)
    if (!is.na(step)) return(c(step / 2, rep(step, m - 2L), step / 2))
    h <- diff(t)
    (c(h, 0) + c(0, h)) / 2
  }
  if (is.null(dim(grid))) {
    o <- order(grid)
    w <- numeric(length(grid))
    w[o] <- trap(grid[o])
    return(w)
  }
  axes <- tensor_axes(grid)
  if (is.null(axes) || any(vapply(axes, is.unsorted, NA))) {
    dpfda_abort("Integration needs a one-dimensional grid or a sorted tensor grid.",
                arg = "grid")
  }
  w <- 1
  for (a in axes) w <- as.vector(outer(w, trap(a)))
  w
}

format_range <- function(r) sprintf("[%s, %s]", format(r[1], digits = 4), format(r[2], digits = 4))
# A box c(lo_1, ...) x c(hi_1, ...) as "[lo_1, hi_1] x [lo_2, hi_2]".
format_box <- function(lo, hi) paste(vapply(seq_along(lo), function(j) format_range(c(lo[j], hi[j])), ""),
                                     collapse = " x ")

#' @export
format.dpfda_curves <- function(x, ...) {
  dom <- if (x$dim == 1L) format_range(x$domain) else
    paste(apply(x$domain, 2L, format_range), collapse = " x ")
  cls <- class(x)[1L]
  sprintf("%s[%d]: %s -> %s on %d points", cls, nrow(x$values), dom,
          format_range(range(x$values)), ncol(x$values))
}

#' @export
print.dpfda_curves <- function(x, ...) {
  cat(format(x), "\n", sep = "")
  if (identical(x$rng, "seeded")) {
    cat("  (drawn in seeded mode: reproducible from the seed, not private)\n")
  }
  invisible(x)
}

#' @export
summary.dpfda_curves <- function(object, ...) {
  v <- object$values
  structure(list(n = nrow(v), m = ncol(v), dim = object$dim, domain = object$domain,
                 mean = colMeans(v),
                 sd = if (nrow(v) > 1L) apply(v, 2L, stats::sd) else rep(NA_real_, ncol(v)),
                 range = range(v), header = format(object)),
            class = "summary.dpfda_curves")
}

#' @export
print.summary.dpfda_curves <- function(x, ...) {
  cat(x$header, "\n", sep = "")
  cat(sprintf("  pointwise mean in %s; ", format_range(range(x$mean))))
  if (all(is.na(x$sd))) cat("one curve\n") else
    cat(sprintf("pointwise sd in %s\n", format_range(range(x$sd))))
  invisible(x)
}

#' @export
length.dpfda_curves <- function(x) nrow(x$values)

#' @export
`[.dpfda_curves` <- function(x, i, j, ...) {
  v <- x$values
  i <- if (missing(i)) seq_len(nrow(v)) else curve_index(i, nrow(v), "i", "curves")
  j <- if (missing(j)) seq_len(ncol(v)) else curve_index(j, ncol(v), "j", "grid points")
  vv <- v[i, j, drop = FALSE]
  if (length(vv) == 0L) dpfda_abort("Subsetting would leave no curves or no grid points.", arg = "i")
  g <- if (x$dim == 1L) x$grid[j] else x$grid[j, , drop = FALSE]
  out <- x
  out$values <- vv
  out$grid <- g
  # what as_curves() recorded per curve follows the curves; the incomplete curves it left out
  # (counted by a release as individuals with no contribution) belong to the whole set only:
  # a subset that leaves out some curves is a new data set without them (a reordering keeps them)
  for (f in c("ids", "frame_rows")) if (length(x[[f]]) == nrow(v)) out[[f]] <- x[[f]][i]
  if (!setequal(i, seq_len(nrow(v)))) out$dropped <- out$dropped_rows <- NULL
  out
}

# The positions that the index `i` of x[i, j] selects among n (curves or grid
# points): numbers in 1..n (or all negative, to leave those out) or logicals
# of length at most n, without NA (an NA would make a curve of missing values).
curve_index <- function(i, n, arg, what) {
  ok <- !anyNA(i) && ((is.numeric(i) && all(abs(i) <= n) && (all(i >= 0) || all(i <= 0))) ||
                        (is.logical(i) && length(i) <= n))
  if (!ok) {
    arg_error(arg, sprintf("positions of %s (numbers in 1..%d, all negative to leave those out, or logicals)",
                           what, n), i)
  }
  seq_len(n)[i]
}

#' @export
as.matrix.dpfda_curves <- function(x, ...) x$values

#' @rdname curves
#' @details `tidy()` of curves is their long data frame, as `as.data.frame()`
#'   gives it (one row per curve and grid point; a mortality object's
#'   `group`, `age`, `density`), under broom's name.
#' @export
tidy.dpfda_curves <- function(x, ..., names = FALSE) {
  check_dot_names(list(...), character(), "tidy")
  if (inherits(x, "dpfda_mortality")) return(as.data.frame(x))
  as.data.frame(x, names = names)
}

#' @rdname curves
#' @param x A `dpfda_curves` object.
#' @param row.names,optional Unused.
#' @param names For `as.data.frame()`: `FALSE` (default) for the columns
#'   `id` (curve number), `arg` (or `arg1`, `arg2`, ...) and `value`, the
#'   layout [as_curves()] reads back by default; `TRUE` to name the columns
#'   after the curves' `arg_name` and `value_name` (e.g. `age`, `height`,
#'   as recorded by [as_curves()]) with the curve labels in `id`.
#' @param ... Unused (in `curves()`, a name that is not an option, e.g. a
#'   misspelling, is an error that names it).
#' @export
as.data.frame.dpfda_curves <- function(x, row.names = NULL, optional = FALSE, ..., names = FALSE) {
  names <- check_flag(names, "names")
  n <- nrow(x$values)
  m <- ncol(x$values)
  ids <- seq_len(n)
  if (names && !is.null(x$ids) && length(x$ids) == n) {
    ids <- if (is.factor(x$ids)) x$ids else factor(x$ids, levels = unique(x$ids))
  }
  out <- data.frame(id = rep(ids, times = m))
  if (x$dim == 1L) {
    out$arg <- rep(x$grid, each = n)
  } else {
    for (k in seq_len(x$dim)) out[[paste0("arg", k)]] <- rep(x$grid[, k], each = n)
  }
  out$value <- as.vector(x$values)
  out <- out[order(rep(seq_len(n), times = m), seq_len(nrow(out))), , drop = FALSE]
  rownames(out) <- NULL
  if (names) {
    an <- curves_arg_label(x)
    vn <- curves_value_label(x)
    if (x$dim == 1L) names(out)[names(out) == "arg"] <- an
    ax <- curves_axis_names(x)   # (several dimensions: the names of the columns, when recorded one per axis)
    if (!is.null(ax) && !any(ax %in% c("id", "value"))) names(out)[match(paste0("arg", seq_len(x$dim)), names(out))] <- ax
    names(out)[names(out) == "value"] <- if (vn %in% c("id", an)) paste0(vn, "_value") else vn
  }
  out
}

#' @export
mean.dpfda_curves <- function(x, ...) {
  out <- x
  out$values <- matrix(colMeans(x$values), nrow = 1L)
  out
}

#' Densities from curves
#'
#' Post-processing that turns released curves into proper densities: negative
#' values are set to zero and each curve is divided by its integral (trapezoid
#' rule on a one-dimensional grid, products of trapezoid weights on a tensor
#' grid). A curve that is zero (or negative) everywhere becomes the uniform
#' density on the grid's domain, with a warning (class `dpfda_warning_utility`:
#' such a release carries no information on the density). Post-processing
#' never costs privacy.
#'
#' **Margins.** With `margin`, curves on a tensor grid of two or more
#' dimensions (a [dp_kde()] of two columns) are first integrated over the
#' other axes (trapezoid rule), which gives the marginal density of that axis
#' on its own grid: the distribution of one column, for free, from a release
#' of several. The signed values are integrated, and only the margin's
#' negative values are then set to zero: the noise has mean zero, and it
#' averages out along the axes integrated over, where setting it to zero
#' first would add its positive part everywhere. [quantile()] and [summary()]
#' of the result give the margin's quantiles, quartiles and mean.
#'
#' @param x A `dpfda_curves` object or a release whose values are curves.
#' @param margin `NULL`, or one axis of curves on a tensor grid of two or
#'   more dimensions, by number or by name (the data's column names, as in
#'   `summary()`): the marginal densities of that axis.
#' @param ... Unused.
#' @return An object of class `dpfda_density` (also `dpfda_curves`); with
#'   `margin`, on the grid of that axis.
#' @seealso [density-summaries]: the quantiles, quartiles and means of
#'   the densities.
#' @examples
#' t <- seq(-3, 3, length.out = 101)
#' d <- as_density(curves(dnorm(t) + 0.01 * sin(5 * t), t))
#' sum(integrate_curves(d))
#'
#' # the margins of a private density of two columns: no further budget
#' old <- dp_reproducible(1)   # seeded: reproducible, NOT private
#' r <- dp_kde(quakes[, c("long", "lat")], epsilon = 1, delta = 1e-6, bandwidth = c(1, 1),
#'             domain = list(long = c(160, 190), lat = c(-40, -10)))
#' lat <- as_density(r, margin = "lat")
#' quantile(lat, c(0.25, 0.5, 0.75))
#' quantile(quakes$lat, c(0.25, 0.5, 0.75))   # the data's own (not private)
#' dp_rng(old)
#' @export
as_density <- function(x, margin = NULL, ...) {
  check_required()
  check_dot_names(list(...), NULL, "as_density")
  if (inherits(x, "dpfda_release")) x <- x$values
  if (!inherits(x, "dpfda_curves")) arg_error("x", "a dpfda_curves object", x)
  x <- check_curves_data(x, "x")
  if (!is.null(margin)) x <- curves_margin(x, margin)
  w <- quadrature_weights(x$grid)
  v <- pmax(x$values, 0)
  mass <- as.vector(v %*% w)
  zero <- !(mass > 0)
  if (any(zero)) {
    dpfda_warn(sprintf(paste("%s of the %d curves %s no positive part (%s): %s replaced by the uniform density",
                             "on the grid's domain."), sum(zero), length(zero), if (sum(zero) == 1L) "has" else "have",
                       paste0("curve ", utils::head(which(zero), 5L), collapse = ", "),
                       if (sum(zero) == 1L) "it is" else "they are"), "dpfda_warning_utility")
    v[zero, ] <- 1
    mass[zero] <- sum(w)
  }
  out <- x
  out$values <- v / mass
  class(out) <- c("dpfda_density", setdiff(class(x), c("dpfda_density", "dpfda_release")))
  out
}

# The curves integrated over all axes of their tensor grid but one (`margin`: its number or name),
# by the trapezoid rule of each axis: curves on that axis's grid.
curves_margin <- function(x, margin) margin_map(x, margin)$curves

# The same, with the linear map it applies (`map`: a matrix of values on the tensor grid, one curve
# per row, to the marginal values on the axis's sorted grid), for the noise of a release.
margin_map <- function(x, margin) {
  ax_names <- curves_axis_names(x)
  if (x$dim < 2L) {
    dpfda_abort("`margin` is for curves on a grid of two or more dimensions; these are on a one-dimensional grid.",
                arg = "margin")
  }
  axes <- tensor_axes(x$grid)
  if (is.null(axes)) {
    dpfda_abort("`margin` needs curves on a tensor grid (every combination of the axes' points); these are on scattered points.",
                arg = "margin")
  }
  k <- if (is.character(margin) && length(margin) == 1L && !is.na(margin) && !is.null(ax_names)) {
    match(margin, ax_names)
  } else if (is.numeric(margin) && length(margin) == 1L && !is.na(margin) && margin %in% seq_len(x$dim)) {
    as.integer(margin)
  } else NA_integer_
  if (is.na(k) || k < 1L || k > x$dim) {
    arg_error("margin", sprintf("one axis: a number from 1 to %d%s", x$dim, if (is.null(ax_names)) "" else
      sprintf(" or one of the names %s", paste0("\"", ax_names, "\"", collapse = ", "))), margin)
  }
  dims <- lengths(axes)
  mats <- lapply(seq_along(axes), function(d) if (d == k) diag(dims[d]) else matrix(quadrature_weights(axes[[d]]), 1L))
  o <- order(axes[[k]])
  map <- function(V) kron_rows_apply(V, mats, dims)[, o, drop = FALSE]
  dom <- x$domain
  out <- new_dpfda_curves(map(x$values), axes[[k]][o], if (is.matrix(dom)) dom[, k] else range(axes[[k]]),
                          arg_name = if (is.null(ax_names)) sprintf("%s%d", curves_arg_label(x), k) else ax_names[k],
                          value_name = x$value_name)
  if (!is.null(x$groups)) out$groups <- x$groups
  list(curves = out, map = map)
}

#' Integrals of curves on their grid
#'
#' The trapezoid rule (products of trapezoid weights on tensor grids) applied
#' to each curve.
#'
#' @param x A `dpfda_curves` object, or a release of curves (e.g. of
#'   [dp_mean()]: the integral of its released values).
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A numeric vector with one integral per curve.
#' @examples
#' t <- seq(0, 1, length.out = 11)
#' integrate_curves(curves(rbind(t, t^2), t)) # 0.5, 0.335
#' @export
integrate_curves <- function(x, ...) {
  check_dot_names(dot_args(), character(), "integrate_curves")
  check_required()
  if (inherits(x, "dpfda_release") && inherits(x$values, "dpfda_curves")) x <- x$values   # (its released curves)
  if (!inherits(x, "dpfda_curves")) arg_error("x", "a dpfda_curves object or a release of curves", x)
  x <- check_curves_data(x, "x")
  as.vector(x$values %*% quadrature_weights(x$grid))
}
