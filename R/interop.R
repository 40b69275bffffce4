# Conversions between dpfda curves and the functional-data classes of other
# packages (fda's `fd`, tf's `tfd`), long data frames and matrices. fda and
# tf are suggested, never required: their functions are reached through
# requireNamespace() at call time.

#' Convert functional data to and from dpfda curves
#'
#' `as_curves()` turns functional data held in other forms into a [curves()]
#' object on a common grid; `as_tfd()` and `as_fd()` convert curves (or a
#' release's released curves) back to the classes of the \pkg{tf} and
#' \pkg{fda} packages, so releases can be plotted and analysed with those
#' tools.
#'
#' * A matrix (curves in rows) or a numeric vector (one curve): `grid` as in
#'   [curves()].
#' * A long data frame with one row per (curve, argument) pair: the columns
#'   named by `id`, `arg` and `value` (defaults `"id"`, `"arg"`, `"value"`,
#'   the layout of `as.data.frame()` on curves). Every curve must be observed
#'   on the same set of arguments; rows may come in any order (curves are
#'   sorted by id, their ids kept in the field `ids`).
#' * An `fd` object (\pkg{fda}): evaluated with `fda::eval.fd()` on `grid`
#'   (default `n_grid` equally spaced points of the basis range).
#' * A `tfd` object (\pkg{tf}): regular data keep their common arguments;
#'   irregular data need `grid` and are evaluated there by
#'   `tf::tf_evaluate()` (its interpolation).
#' * A `dpfda_release`: its released curves.
#'
#' `as_fd()` fits the curves in the basis `basis` (default: cubic B-splines
#' with `min(m, 20)` functions on the range of the grid) by least squares
#' (`fda::smooth.basis()` without roughness penalty), so a curve that lies in
#' the basis is reproduced exactly; `as_tfd()` keeps the grid as the
#' arguments (`tf::tfd()`).
#'
#' @param x The object to convert.
#' @param grid Evaluation grid (see [curves()]); `NULL` for the defaults
#'   above.
#' @param n_grid Number of grid points for `fd` objects when `grid` is `NULL`.
#' @param id,arg,value Column names of a long data frame.
#' @param basis An \pkg{fda} basis object (`basisfd`) or `NULL`.
#' @param ... Unused.
#' @return `as_curves()`: a `dpfda_curves` object. `as_tfd()`: a `tfd`
#'   vector. `as_fd()`: an `fd` object.
#' @examples
#' x <- curves(rbind(sin(2 * pi * seq(0, 1, length.out = 30)), 1), seq(0, 1, length.out = 30))
#' d <- as.data.frame(x)
#' head(d)
#' y <- as_curves(d)
#' all.equal(y$values, x$values)
#' as_curves(matrix(rnorm(20), 4, 5), grid = 1:5)
#' if (requireNamespace("fda", quietly = TRUE)) {
#'   b <- fda::create.bspline.basis(c(0, 1), nbasis = 8)
#'   f <- fda::fd(matrix(rnorm(16), 8, 2), b)
#'   cf <- as_curves(f, n_grid = 50)
#'   max(abs(as_fd(cf, basis = b)$coefs - f$coefs))
#' }
#' if (requireNamespace("tf", quietly = TRUE)) {
#'   r <- dp_mean(curves(outer(runif(100, 0.5, 1), sin(2 * pi * seq(0, 1, length.out = 50)))),
#'                epsilon = 1, tau = 1)
#'   as_tfd(r)
#' }
#' @export
as_curves <- function(x, ...) UseMethod("as_curves")

#' @rdname as_curves
#' @export
as_curves.default <- function(x, ...) {
  arg_error("x", "a matrix, numeric vector, long data frame, fda `fd`, tf `tfd`, curves or release", x)
}

#' @rdname as_curves
#' @export
as_curves.dpfda_curves <- function(x, ...) x

#' @rdname as_curves
#' @export
as_curves.dpfda_release <- function(x, ...) x$values

#' @rdname as_curves
#' @export
as_curves.matrix <- function(x, grid = NULL, ...) curves(x, grid)

#' @rdname as_curves
#' @export
as_curves.numeric <- function(x, grid = NULL, ...) curves(x, grid)

#' @rdname as_curves
#' @export
as_curves.data.frame <- function(x, id = "id", arg = "arg", value = "value", ...) {
  for (nm in c("id", "arg", "value")) {
    col <- get(nm)
    if (!is.character(col) || length(col) != 1L || !col %in% names(x)) {
      arg_error(nm, sprintf("the name of a column of `x` (one of %s)", paste(names(x), collapse = ", ")),
                col)
    }
  }
  a <- x[[arg]]
  v <- x[[value]]
  ids <- x[[id]]
  if (!is.numeric(a) || !all(is.finite(a))) arg_error("arg", "a column of finite numbers", a)
  if (!is.numeric(v) || !all(is.finite(v))) arg_error("value", "a column of finite numbers", v)
  if (anyNA(ids) || nrow(x) == 0L) arg_error("id", "a column without missing values, with rows", ids)
  grid <- sort(unique(a))
  uid <- sort(unique(ids))
  row <- match(ids, uid)
  col <- match(a, grid)
  if (anyDuplicated(cbind(row, col))) {
    dpfda_abort("Some curve has two values at the same argument.", arg = "x")
  }
  if (nrow(x) != length(uid) * length(grid)) {
    dpfda_abort(paste("Every curve must be observed on the same arguments; interpolate to a common grid",
                      "first (e.g. tf::tf_interpolate())."), arg = "x")
  }
  M <- matrix(NA_real_, length(uid), length(grid))
  M[cbind(row, col)] <- as.double(v)
  out <- curves(M, grid)
  out$ids <- uid
  out
}

#' @rdname as_curves
#' @export
as_curves.fd <- function(x, grid = NULL, n_grid = 101L, ...) {
  need_package("fda", "as_curves() on an fd object")
  rng <- x$basis$rangeval
  if (is.null(grid)) {
    n_grid <- check_count(n_grid, "n_grid", min = 2, max = 1e6)
    grid <- seq(rng[1L], rng[2L], length.out = n_grid)
  } else {
    grid <- as_grid(grid, "grid")
    if (!is.null(dim(grid)) || min(grid) < rng[1L] || max(grid) > rng[2L]) {
      arg_error("grid", sprintf("a vector of points in the basis range [%s, %s]", format(rng[1L]),
                                format(rng[2L])), grid)
    }
  }
  v <- fda::eval.fd(grid, x)
  curves(t(v), grid)
}

#' @rdname as_curves
#' @export
as_curves.tfd <- function(x, grid = NULL, ...) {
  need_package("tf", "as_curves() on a tfd object")
  if (is.null(grid)) {
    if (!inherits(x, "tfd_reg")) {
      dpfda_abort("Irregular tfd data need a common `grid` to be evaluated on.", arg = "grid")
    }
    grid <- tf::tf_arg(x)
    if (is.list(grid)) grid <- grid[[1L]]
  } else {
    grid <- as_grid(grid, "grid")
    if (!is.null(dim(grid))) arg_error("grid", "a vector of points", grid)
  }
  ev <- tf::tf_evaluate(x, arg = grid)
  M <- do.call(rbind, lapply(ev, as.double))
  if (!all(is.finite(M))) {
    dpfda_abort("Some curves are not defined on all of `grid` (outside their domain?).", arg = "grid")
  }
  curves(M, grid)
}

#' @rdname as_curves
#' @export
as_tfd <- function(x, ...) {
  need_package("tf", "as_tfd()")
  cv <- as_curves(x)
  if (cv$dim != 1L || length(cv$grid) < 2L) arg_error("x", "one-dimensional curves on at least two points", x)
  tf::tfd(cv$values, arg = cv$grid)
}

#' @rdname as_curves
#' @export
as_fd <- function(x, basis = NULL, ...) {
  need_package("fda", "as_fd()")
  cv <- as_curves(x)
  if (cv$dim != 1L) arg_error("x", "one-dimensional curves", x)
  g <- cv$grid
  if (length(g) < 2L) arg_error("x", "curves on at least two grid points", x)
  if (is.null(basis)) {
    basis <- fda::create.bspline.basis(range(g), nbasis = max(4L, min(length(g), 20L)), norder = 4L)
  } else if (!inherits(basis, "basisfd")) {
    arg_error("basis", "an fda basis object (class basisfd) or NULL", basis)
  }
  if (basis$nbasis > length(g)) {
    dpfda_abort(sprintf("`basis` has %d functions but the grid only %d points.", basis$nbasis, length(g)),
                arg = "basis")
  }
  fda::smooth.basis(g, t(cv$values), basis)$fd
}

# A classed error when a suggested package is missing.
need_package <- function(pkg, what) {
  if (!requireNamespace(pkg, quietly = TRUE)) {
    dpfda_abort(sprintf("%s needs the package '%s': install.packages(\"%s\").", what, pkg, pkg),
                class = "dpfda_error_dependency")
  }
}
