# Conversions between dpfda curves and the functional-data classes of other
# packages (fda's `fd`, tf's `tfd`), long data frames and matrices. fda and
# tf are suggested, never required: their functions are reached through
# requireNamespace() at call time.

#' Convert functional data to and from dpfda curves
#'
#' `as_curves()` turns functional data held in other forms into a [curves()]
#' object on a common public grid; every mechanism calls it on its data, so
#' they all accept what it understands. `as_tfd()` and `as_fd()` convert
#' curves (or a release's released curves) back to the classes of the
#' \pkg{tf} and \pkg{fda} packages; tf's own `tfd()` and `as.tfd()` do the
#' same on curves and releases.
#'
#' * A matrix (curves in **rows**) or a numeric vector (one curve): `grid` as
#'   in [curves()]. \pkg{fda} stores curves in columns: a matrix whose number
#'   of rows equals the length of `grid` gets an error that suggests `t(x)`.
#'   With `na.rm = TRUE`, missing values are dropped and each curve is
#'   interpolated onto `grid` from its other values, as for long data (a
#'   curve missing at an end of the grid does not cover it: an error).
#' * A **long** data frame or tibble with one row per observation: the
#'   columns named by `id`, `arg` and `value` (strings or bare names;
#'   defaults `"id"`, `"arg"`, `"value"`, the layout of `as.data.frame()` on
#'   curves). Rows may come in any order. Without `grid`, every curve must be
#'   observed at the same arguments. With `grid`, each curve is interpolated
#'   onto it (`method = "linear"`, the default), or smoothed
#'   (`method = "smooth"`: a cubic smoothing spline per curve,
#'   [stats::smooth.spline()] with `df` degrees of freedom, or chosen by
#'   generalised cross-validation when `df` is `NULL`; curves with fewer than
#'   4 distinct arguments get their least-squares line) - for noisy, sparse
#'   curves. Curves are never extrapolated: a curve that does not cover the
#'   grid is an error naming the curves and the range all curves share;
#'   `restrict = TRUE` drops the grid points outside that common range
#'   instead (the grid then depends on the observation times, which must be
#'   public, e.g. a study's visit schedule).
#' * A **wide** data frame (no `value` column): one curve per row, one
#'   column per argument; the arguments are read from numeric column names
#'   (a prefix ending in a letter and at most one separator, such as `"t"`,
#'   `"age_"` or [reshape()]'s `"distance."`, is dropped: `"distance.8"` is 8;
#'   [make.names()]'s `"X.5"`, which may stand for -5 or 0.5, is not read) or given as
#'   `grid` (one point per column). The column named by `id`, or else a
#'   column called `"id"`, labels the curves. With numeric column names and a `grid` of another length, the
#'   curves are interpolated onto `grid` as for long data.
#' * A data frame with a **matrix column** of curves, one per row (the layout
#'   of \pkg{refund} and of [dti_cca]): `value` names the column, or, with no
#'   `value`, the only numeric matrix column is taken. The other columns
#'   describe the rows (a subject, a visit, covariates) and are not read;
#'   the arguments are the matrix's numeric column names or `grid`, as for a
#'   wide data frame. A release's `unit =` may name one of those columns:
#'   `dp_mean(dti_cca, unit = id, grid = seq(0, 1, length.out = 93), ...)`.
#' * An `fd` object (\pkg{fda}): evaluated with `fda::eval.fd()` on `grid`
#'   (default `n_grid` equally spaced points of the basis range). Its
#'   `fdnames` give the names: the argument's (`fdnames[[1]]`, e.g. "Age"),
#'   the curves' labels (`fdnames[[2]]`, when one per curve) and the values'
#'   (`fdnames[[3]]`, e.g. "Height (cm)"); an element that is not a single
#'   label is labelled by its name in the list, as in fda's plots (e.g.
#'   "time" for the arguments that `fda::smooth.basis()` stores there).
#'   `arg_name` and `value_name` override them.
#' * A `tfd` object (\pkg{tf}): regular data keep their common arguments;
#'   irregular data need `grid` and are evaluated there by
#'   `tf::tf_evaluate()` (its interpolation). Curves that do not cover `grid`
#'   (tf does not extrapolate) follow the rules of long data: an error that
#'   names them and the range all curves cover, or `incomplete = "drop"`;
#'   `method = "smooth"` smooths each curve's observations as for long data.
#'   The vector's names label the
#'   curves; tf keeps no argument or value label, so give `arg_name` and
#'   `value_name`, or keep the `tfd` as a column of a data frame: `as_curves(d,
#'   value = height)` (or a data frame with a single `tf` column) takes the
#'   column's name as the value name and `id` as the labels.
#' * A `tfb` object (\pkg{tf}'s basis representation, e.g. from
#'   `tf::tfb()`): the basis functions are evaluated exactly at `grid`
#'   (default: the object's own arguments, `tf::tf_arg()`), within its
#'   domain.
#' * A `dpfda_release`: its released curves.
#' * A [curves()] object: returned after a full re-validation; with `grid`,
#'   its (one-dimensional) curves are interpolated onto the new grid.
#'
#' Missing values (`NA`) in the value column are an error that counts them
#' and names the curves; `na.rm = TRUE` drops those observations (the curves
#' are then interpolated from the remaining ones, which needs `grid` when
#' the curves no longer share their arguments).
#'
#' The result remembers the names of the argument and value columns
#' (`arg_name`, `value_name`; for plots' axis labels) and the curve labels
#' (`ids`, in the order of the rows; factor levels keep their order).
#'
#' `as_fd()` fits the curves in the basis `basis` by least squares
#' (`fda::smooth.basis()` without roughness penalty), so a curve that lies in
#' the basis is reproduced exactly. The default basis interpolates: the cubic
#' B-splines with a knot at every grid point but the second and the second
#' to last (the not-a-knot cubic spline; a polynomial below 4 points), so
#' `fda::eval.fd()` at the grid returns the curves' values (a release's
#' values, for instance) to rounding. Give a smaller `basis` to smooth; `as_tfd()` keeps the grid as the
#' arguments (`tf::tfd()`). `as_fd()` writes the names into `fdnames`
#' (argument name, curve labels, value name) and `as_tfd()` the curve labels
#' into the vector's names, so a round trip keeps them.
#'
#' @param x The object to convert.
#' @param grid Evaluation grid (see [curves()]); `NULL` for the defaults
#'   above. For long and wide data frames: the public grid to interpolate
#'   onto.
#' @param n_grid Number of grid points for `fd` objects when `grid` is `NULL`.
#' @param id,arg,value Columns of a data frame: names as strings or bare
#'   names. The rule is tidyselect's: a bare name that is a column of `x`
#'   means that column; anything else is evaluated as usual and must give a
#'   column name, so `col <- "age"; as_curves(d, arg = col)` works (unless
#'   `d` has a column named `col`). The same rule holds for the column
#'   arguments of every mechanism (`id`, `arg`, `value` of [dp_mean()];
#'   `columns` of [dp_kde()] and [dp_kme()], where `c(a, b)` names several;
#'   `age`, `deaths`, `group` of [mortality_distribution()]).
#' @param method `"linear"` (interpolation, default) or `"smooth"`
#'   (smoothing spline per curve) when interpolating onto `grid`.
#' @param incomplete `"error"` (default): a curve that does not cover the
#'   grid (or has no observation left) is an error naming it; `"drop"`: such
#'   curves are left out, and their ids kept in the result's `dropped`.
#'   Which curves are complete depends on the data: [dp_mean()] with
#'   `incomplete = "drop"` pays for it with a noisy count (see there).
#' @param restrict If `TRUE`, grid points outside the range every curve
#'   covers are dropped instead of raising an error. The grid kept then
#'   depends on everyone's observation times, so the mechanisms
#'   ([dp_mean()], [dp_cov()], [pcv_select()], ...) refuse `restrict = TRUE`
#'   (error of class `dpfda_error_privacy`): use it here, on its own, only
#'   when the range it keeps may be published.
#' @param na.rm If `TRUE`, observations with a missing value are dropped.
#' @param df Degrees of freedom of the smoothing splines (`method =
#'   "smooth"`); `NULL` chooses them by generalised cross-validation.
#' @param domain Domain of the curves (see [curves()]); default the grid's
#'   range.
#' @param arg_name,value_name Names of the argument and of the values (for a
#'   matrix, a vector or a `tfd`; data frames take their column names, `fd`
#'   objects their `fdnames` unless these are given).
#' @param basis An \pkg{fda} basis object (`basisfd`) or `NULL` (the cubic
#'   spline interpolating the values, one B-spline per grid point: at most
#'   1,000 points; give a smaller basis for more).
#' @param ... For `as_curves()`, the options of its methods (above); the
#'   other functions take none (a misspelt argument is refused).
#' @return `as_curves()`: a `dpfda_curves` object. `as_tfd()`: a `tfd`
#'   vector. `as_fd()`: an `fd` object.
#' @examples
#' x <- curves(rbind(sin(2 * pi * seq(0, 1, length.out = 30)), 1), seq(0, 1, length.out = 30))
#' d <- as.data.frame(x)
#' head(d)
#' y <- as_curves(d)
#' all.equal(y$values, x$values)
#' as_curves(matrix(rnorm(20), 4, 5), grid = 1:5)
#' # irregular curves onto a common grid, bare column names
#' irr <- data.frame(who = rep(c("a", "b"), c(4, 5)),
#'                   age = c(1, 2.5, 4, 6, 0.5, 2, 3, 5, 6.5),
#'                   cm = c(70, 85, 100, 115, 65, 80, 92, 108, 120))
#' as_curves(irr, id = who, arg = age, value = cm, grid = seq(1, 6, by = 0.5))
#' if (requireNamespace("nlme", quietly = TRUE)) {
#'   oxboys <- as_curves(nlme::Oxboys, id = Subject, arg = age, value = height,
#'                       grid = seq(-1, 0.99, length.out = 40))
#'   oxboys
#' }
#' if (requireNamespace("fda", quietly = TRUE)) {
#'   b <- fda::create.bspline.basis(c(0, 1), nbasis = 8)
#'   f <- fda::fd(matrix(rnorm(16), 8, 2), b)
#'   cf <- as_curves(f, n_grid = 50)
#'   max(abs(as_fd(cf, basis = b)$coefs - f$coefs))
#'   growth <- as_curves(t(fda::growth$hgtm), grid = fda::growth$age)
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
  if (missing(x)) require_arg_error("x", "as_curves")
  if (is.list(x) && !is.null(x$coefs) && !is.null(x$basis)) {
    dpfda_abort(paste("`x` looks like an fda `fd` object that lost its class; rebuild it with fda::fd() or",
                      "evaluate it on a grid first."), arg = "x")
  }
  arg_error("x", paste("a matrix (curves in rows) with `grid`, a numeric vector, a long or wide data frame,",
                       "an fda `fd`, a tf `tfd` or `tfb`, curves or a release"), x)
}

#' @rdname as_curves
#' @export
as_curves.dpfda_curves <- function(x, grid = NULL, method = c("linear", "smooth"), restrict = FALSE, df = NULL,
                                   ...) {
  x <- check_curves_data(x, "x")
  if (is.null(grid)) return(x)
  # onto another public grid, like long data (1-D curves only)
  if (x$dim != 1L) arg_error("grid", "NULL for curves on a multi-dimensional grid", grid)
  n <- nrow(x$values)
  m <- ncol(x$values)
  ids <- if (!is.null(x$ids) && length(x$ids) == n) x$ids else seq_len(n)
  out <- long_to_curves(factor(rep(as.character(ids), times = m), levels = unique(as.character(ids))),
                        rep(x$grid, each = n), as.vector(x$values), grid,
                        check_choice(method, c("linear", "smooth"), "method"), check_flag(restrict, "restrict"),
                        FALSE, df, arg_name = if (is.null(x$arg_name)) "t" else x$arg_name,
                        value_name = if (is.null(x$value_name)) "value" else x$value_name)
  out$ids <- ids
  out
}

#' @rdname as_curves
#' @export
as_curves.dpfda_release <- function(x, ...) check_curves_data(x$values, "x")

#' @rdname as_curves
#' @export
as_curves.matrix <- function(x, grid = NULL, ..., na.rm = FALSE, method = c("linear", "smooth"), df = NULL,
                             incomplete = c("error", "drop"), domain = NULL, arg_name = "t", value_name = "value") {
  # (a misspelt option is refused; the releases pass every option of as_curves() to the method their
  # data need, so those another method takes, e.g. n_grid, pass unused)
  check_dot_names(list(...), as_curves_options, "as_curves")
  na.rm <- check_flag(na.rm, "na.rm")
  incomplete <- check_choice(incomplete, c("error", "drop"), "incomplete")
  if (na.rm && is.numeric(x) && anyNA(x)) {
    # as for long data: the missing observations are dropped and each curve is interpolated onto
    # the grid from the others (never extrapolated)
    if (is.null(grid)) arg_error("grid", "the grid of the columns of `x` (needed with na.rm = TRUE)", grid)
    g <- as_grid(grid, "grid")
    if (!is.null(dim(g)) || length(g) != ncol(x)) {
      arg_error("grid", sprintf("a one-dimensional grid with one point per column of `x` (%d)", ncol(x)), grid)
    }
    ids <- if (!is.null(rownames(x))) rownames(x) else as.character(seq_len(nrow(x)))
    empty <- rowSums(!is.na(x)) == 0L
    if (any(empty) && incomplete == "error") {
      dpfda_abort(sprintf("Curve%s %s of `x` %s only missing values; drop %s or use incomplete = \"drop\".",
                          if (sum(empty) == 1L) "" else "s", paste(utils::head(ids[empty], 5L), collapse = ", "),
                          if (sum(empty) == 1L) "has" else "have", if (sum(empty) == 1L) "it" else "them"),
                  class = data_error_class, arg = "x")
    }
    if (all(empty)) dpfda_abort("Every value of `x` is missing.", class = data_error_class, arg = "x")
    keep <- !is.na(as.vector(x))
    if (!is.null(df)) df <- check_number(df, "df", lower = 1, upper = 1e6, lower_open = TRUE)
    out <- long_to_curves(factor(rep(ids, times = ncol(x)), levels = ids)[keep], rep(as.double(g), each = nrow(x))[keep],
                          as.vector(x)[keep], sort(as.double(g)), check_choice(method, c("linear", "smooth"), "method"),
                          FALSE, FALSE, df, arg_name, value_name, incomplete = incomplete)
    if (incomplete == "drop") out$dropped <- c(ids[empty], out$dropped)
    if (!is.null(domain)) out$domain <- as_domain(domain, out$grid)
    return(record_matrix_rows(out, ids))
  }
  if (incomplete == "drop" && is.numeric(x) && !all(is.finite(x))) {
    # without na.rm, a row with a missing value does not cover the grid: left out, as the rows of
    # long data and of a wide data frame are (curves() refuses missing values)
    bad <- incomplete_rows(x)
    ids <- if (!is.null(rownames(x))) rownames(x) else as.character(seq_len(nrow(x)))
    out <- curves(x[!bad, , drop = FALSE], grid, domain)
    out$ids <- ids[!bad]
    out$dropped <- ids[bad]
    return(record_matrix_rows(set_curve_names(out, arg_name, value_name), ids))
  }
  out <- curves(x, grid, domain)   # (row names become the labels, `ids`)
  set_curve_names(out, arg_name, value_name)
}

# The row of the matrix (labels `ids`) of each curve and of each curve left
# out, as wide_matrix_to_curves() records them: a unit vector with one entry
# per row then gives the units of both (rows_units_of_curves()).
record_matrix_rows <- function(out, ids) {
  if (anyDuplicated(ids)) return(out)
  ids <- as.character(ids)
  out$frame_rows <- match(as.character(out$ids %||% rownames(out$values)), ids)
  if (length(out$dropped)) out$dropped_rows <- match(as.character(out$dropped), ids)
  out
}

# The rows of a matrix of curves that incomplete = "drop" leaves out without na.rm: those with a
# missing or non-finite value, which do not cover the grid (all of them: an error).
incomplete_rows <- function(M) {
  bad <- rowSums(!is.finite(M)) > 0
  if (all(bad)) {
    dpfda_abort("Every curve has a missing value; nothing is left after dropping incomplete curves.",
                class = data_error_class, arg = "x")
  }
  bad
}

#' @rdname as_curves
#' @export
as_curves.numeric <- function(x, grid = NULL, ..., domain = NULL, arg_name = "t", value_name = "value") {
  set_curve_names(curves(x, grid, domain), arg_name, value_name)
}

set_curve_names <- function(x, arg_name, value_name) {
  ok <- function(s) is.character(s) && length(s) == 1L && !is.na(s)
  if (!ok(arg_name)) arg_error("arg_name", "a single string", arg_name)
  if (!ok(value_name)) arg_error("value_name", "a single string", value_name)
  x$arg_name <- arg_name
  x$value_name <- value_name
  x
}

#' @rdname as_curves
#' @export
as_curves.data.frame <- function(x, id = NULL, arg = NULL, value = NULL, grid = NULL,
                                 method = c("linear", "smooth"), restrict = FALSE, na.rm = FALSE,
                                 df = NULL, incomplete = c("error", "drop"), ...) {
  # (a misspelt option is refused; the releases pass every option of as_curves() to the method their
  # data need, so those another method takes, e.g. n_grid, pass unused)
  check_dot_names(list(...), as_curves_options, "as_curves")
  # strings or bare names (the rule of column_names(), R/entry.R)
  id <- column_arg(substitute(id), tryCatch(id, error = function(e) e), "id")
  arg <- column_arg(substitute(arg), tryCatch(arg, error = function(e) e), "arg")
  value <- column_arg(substitute(value), tryCatch(value, error = function(e) e), "value")
  x <- as.data.frame(x)            # tibbles and grouped data
  if (nrow(x) == 0L) arg_error("x", "a data frame with rows", x)
  method <- check_choice(method, c("linear", "smooth"), "method")
  restrict <- check_flag(restrict, "restrict")
  na.rm <- check_flag(na.rm, "na.rm")
  incomplete <- check_choice(incomplete, c("error", "drop"), "incomplete")
  if (!is.null(df)) df <- check_number(df, "df", lower = 1, upper = 1e6, lower_open = TRUE)
  col <- function(spec, argname, default = NULL) {
    column_names(spec, names(x), argname, default = if (!is.null(default) && default %in% names(x)) default)
  }
  value_nm <- col(value, "value", "value")
  is_tf <- vapply(x, function(v) inherits(v, "tf"), NA)
  if (is.null(value_nm) && sum(is_tf) == 1L) value_nm <- names(x)[is_tf]
  # a column of curves, one per row: `id` must label the rows uniquely
  unique_row_ids <- function(id_nm) {
    if (!is.null(id_nm) && anyDuplicated(x[[id_nm]])) {
      dup <- x[[id_nm]][anyDuplicated(x[[id_nm]])]
      dpfda_abort(sprintf(paste("`id` (column \"%s\") repeats values (%s is on %d rows), but the column \"%s\" holds",
                                "one curve per row, so `id` must label rows uniquely (or be left out). For several",
                                "curves per person, give the person as the privacy unit of the release instead:",
                                "unit = %s."), id_nm, format(dup), sum(x[[id_nm]] == dup), value_nm, id_nm), arg = "id")
    }
  }
  if (!is.null(value_nm) && inherits(x[[value_nm]], "tf")) {
    # a tf column (tidyfun's layout): its curves, named after the column and labelled by `id` (so that
    # the curves incomplete = "drop" leaves out are named by it)
    tfv <- x[[value_nm]]
    id_nm <- col(id, "id", "id")
    unique_row_ids(id_nm)
    own <- if (is.null(id_nm)) tf_curve_labels(tfv)   # the tf's own labels
    lab <- if (!is.null(id_nm)) as.character(x[[id_nm]]) else own %||% as.character(seq_len(nrow(x)))
    names(tfv) <- lab
    out <- as_curves.tfd(tfv, grid = grid, method = method, restrict = restrict, na.rm = na.rm, df = df,
                         incomplete = incomplete, value_name = value_nm)
    # the row of each curve and of each one left out, so that a column of the rows (a privacy unit)
    # follows them, as for a matrix column
    out$frame_rows <- match(as.character(out$ids), lab)
    if (length(out$dropped)) out$dropped_rows <- match(as.character(out$dropped), lab)
    out$ids <- if (!is.null(id_nm)) x[[id_nm]][out$frame_rows] else if (!is.null(own)) lab[out$frame_rows] else
      out$frame_rows
    return(out)
  }
  # a matrix column (refund's layout, as dti_cca$cca): one curve per row, the other columns describe
  # the rows; with no `value` the only matrix column is taken
  mats <- matrix_columns(x)
  if (is.null(value_nm) && length(mats) == 1L) value_nm <- mats
  if (!is.null(value_nm) && is.matrix(x[[value_nm]])) {
    id_nm <- col(id, "id")
    unique_row_ids(id_nm)
    return(wide_matrix_to_curves(x[[value_nm]], if (!is.null(id_nm)) x[[id_nm]], grid, method, restrict, na.rm,
                                 df, incomplete, value_name = value_nm))
  }
  if (is.null(value_nm)) {
    return(wide_to_curves(x, col(id, "id", "id"), grid, method, restrict, na.rm, df, incomplete))
  }
  id_nm <- col(id, "id", "id")
  arg_nm <- col(arg, "arg", "arg")
  if (is.null(id_nm)) {
    dpfda_abort(sprintf("Give `id`, the column that says which curve a row belongs to (columns: %s).",
                        paste0("\"", names(x), "\"", collapse = ", ")), arg = "id")
  }
  if (is.null(arg_nm)) {
    dpfda_abort(sprintf("Give `arg`, the column of the curves' arguments (e.g. time or age; columns: %s).",
                        paste0("\"", names(x), "\"", collapse = ", ")), arg = "arg")
  }
  long_to_curves(x[[id_nm]], x[[arg_nm]], x[[value_nm]], grid, method, restrict, na.rm, df,
                 arg_name = arg_nm, value_name = value_nm, incomplete = incomplete)
}

# The names of the numeric matrix columns of a data frame (curves, one per row).
matrix_columns <- function(x) names(x)[vapply(x, function(v) is.matrix(v) && is.numeric(v), NA)]

# Wide layout: one curve per row, one column per argument.
wide_to_curves <- function(x, id_nm, grid, method, restrict, na.rm, df, incomplete = "error") {
  ids <- if (is.null(id_nm)) NULL else x[[id_nm]]
  if (anyDuplicated(names(x))) {
    # (x[setdiff(names(x), id)] kept the first of two columns "x1": the other curve values vanished)
    dup <- names(x)[anyDuplicated(names(x))]
    dpfda_abort(sprintf(paste("`x` has two columns named \"%s\": a wide data frame needs one column per argument.",
                              "Rename or drop one (e.g. names(x) <- make.unique(names(x)))."), dup),
                class = data_error_class, arg = "x")
  }
  vals <- x[setdiff(names(x), id_nm)]
  if (!is.null(ids) && anyDuplicated(ids[!is.na(ids)])) {
    # (the long data of as.data.frame(curves, names = TRUE), columns id, age, height: "Wide data: give
    # `grid`" sent the user the wrong way)
    other <- names(vals)[vapply(vals, is.numeric, NA)]
    eg <- if (length(other) == 2L) sprintf("as_curves(x, id = %s, arg = %s, value = %s)", id_nm, other[1L], other[2L])
          else sprintf("as_curves(x, id = %s, arg = <argument column>, value = <value column>)", id_nm)
    dup <- ids[!is.na(ids)][anyDuplicated(ids[!is.na(ids)])]
    dpfda_abort(sprintf(paste("`x` has no `value` column, so it is read as wide (one curve per row), but its",
                              "`%s` column repeats (%s is on %d rows): it looks like long data, one row per",
                              "observation. Name its columns: %s."),
                        id_nm, format(dup), sum(ids == dup, na.rm = TRUE), eg), arg = "value")
  }
  num <- vapply(vals, is.numeric, NA)
  if (!all(num)) {
    lab <- if (sum(!num) == 1L && is.null(id_nm)) {
      sprintf(" If column \"%s\" labels the curves, give id = %s.", names(vals)[!num], names(vals)[!num])
    } else ""
    dpfda_abort(sprintf(paste("`x` has no `value` column, so it is read as wide (one curve per row), but",
                              "column%s %s %s not numeric.%s For long data name the columns: id = , arg = ,",
                              "value = ."), if (sum(!num) == 1L) "" else "s",
                        paste0("\"", names(vals)[!num], "\"", collapse = ", "),
                        if (sum(!num) == 1L) "is" else "are", lab), arg = "x")
  }
  wide_matrix_to_curves(as.matrix(vals), ids, grid, method, restrict, na.rm, df, incomplete)
}

# The arguments that wide columns' names give: numbers ("0.5"), or a number after
# a prefix that ends in a letter and at most one separator ("t1", "age12.5",
# "t1e-04", and reshape()'s "distance.8", "distance.0.5"; the rule stripped
# everything before the first digit or dot, so "distance.8" read as 0.8 and
# "distance.10" as 0.1). make.names()'s "X.5" stands for "-5" as well as
# ".5": not read (NA: `grid` is then needed).
# The column names that name no argument where the others do (all numbers, or all a prefix and a
# number): a covariate such as "age" among "1", "2", ... (NULL when no such reading holds).
odd_argument_columns <- function(nm) {
  plain <- !is.na(suppressWarnings(as.numeric(nm)))
  pre <- !is.na(args_from_column_names(ifelse(plain, "", nm)))   # (the prefix reading alone)
  ok <- if (sum(plain) >= sum(pre)) plain else pre
  if (sum(ok) >= 2L && !all(ok)) nm[!ok]
}

args_from_column_names <- function(nm) {
  a <- suppressWarnings(as.numeric(nm))
  if (!anyNA(a)) return(a)
  num <- "([-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?)$"
  ok <- grepl(paste0("^.*?[A-Za-z][._ ]?", num), nm, perl = TRUE) & !grepl("^X[.][0-9.]", nm)
  out <- rep(NA_real_, length(nm))
  out[ok] <- as.numeric(sub(paste0("^.*?[A-Za-z][._ ]?", num), "\\1", nm[ok], perl = TRUE))
  out
}

# A matrix of curves, one per row, its columns the arguments: named by them
# ("0.5", "t1") or given by `grid`. `ids`: the curves' labels (default the
# row numbers). The curves record the row of each (`frame_rows`) and of each
# dropped one (`dropped_rows`), so that a column of the rows (a privacy unit)
# follows them.
wide_matrix_to_curves <- function(M, ids, grid, method, restrict, na.rm, df, incomplete = "error",
                                  value_name = "value") {
  storage.mode(M) <- "double"
  nm <- colnames(M)
  if (is.null(nm)) nm <- rep("", ncol(M))
  a <- args_from_column_names(nm)
  if (anyNA(a) || anyDuplicated(a)) {
    if (is.null(grid) || grid_size(as_grid(grid, "grid")) != ncol(M)) {
      # (a covariate among named arguments: say which column is not one)
      odd <- odd_argument_columns(nm)
      hint <- if (length(odd)) {
        sprintf(" Column%s %s name%s no argument: if %s not a curve's value%s, leave %s out of `x`.",
                if (length(odd) == 1L) "" else "s", paste0("\"", utils::head(odd, 5L), "\"", collapse = ", "),
                if (length(odd) == 1L) "s" else "", if (length(odd) == 1L) "it is" else "they are",
                if (length(odd) == 1L) "" else "s", if (length(odd) == 1L) "it" else "them")
      } else ""
      dpfda_abort(sprintf(paste("Wide data: give `grid` with one point per column (%d), or name the columns",
                                "by their arguments (e.g. \"0.5\", \"t1\").%s"), ncol(M), hint), arg = "grid")
    }
    a <- as_grid(grid, "grid")
    # (the grid is the columns' arguments; kept as the target for na.rm = TRUE to interpolate onto)
    if (!na.rm) grid <- NULL
  }
  if (!anyNA(a) && !anyDuplicated(a) && !is.null(grid) && is.numeric(grid) && is.null(dim(grid)) &&
      length(grid) == ncol(M) && !isTRUE(all.equal(sort(as.double(a)), sort(as.double(grid)), tolerance = 1e-10))) {
    # one grid point per column, and names that read as other arguments: which are the columns'
    # arguments? (growth's heights in columns "visit1".."visit31" with grid = the ages were read at
    # ages 1..31 and interpolated onto the ages, 34 cm off, without a word)
    shown <- function(v) paste(c(format(utils::head(v, 3L)), if (length(v) > 3L) "..."), collapse = ", ")
    dpfda_abort(sprintf(paste("`grid` has one point per column (%d), and the column names (\"%s\", ...) read as",
                              "other arguments (%s): which are the columns' arguments is ambiguous. If `grid`",
                              "gives them, rename the columns by it or drop the names (e.g. unname() a matrix);",
                              "if the names do, convert without `grid` (as_curves(x)) and interpolate the curves",
                              "onto the grid with as_curves(<curves>, grid = )."), ncol(M), nm[1L],
                        shown(a)), arg = "grid")
  }
  if (is.null(ids)) ids <- seq_len(nrow(M))
  all_ids <- ids
  # incomplete = "drop" without na.rm: a row with a missing value does not cover the grid, and is
  # left out (with na.rm = TRUE its observed values are interpolated, and only the rows that do not
  # reach the grid's ends are left out)
  bad <- if (incomplete == "drop" && !na.rm) incomplete_rows(M) else logical(nrow(M))
  if (any(bad)) {
    M <- M[!bad, , drop = FALSE]
    ids <- ids[!bad]
  }
  out <- long_to_curves(rep(ids, times = ncol(M)), rep(a, each = nrow(M)), as.vector(M), grid, method, restrict,
                        na.rm, df, arg_name = "t", value_name = value_name, incomplete = incomplete)
  if (any(bad)) out$dropped <- c(as.character(all_ids[bad]), out$dropped)
  record_matrix_rows(out, all_ids)
}

# The hint of the error above when a few short curves make the range all
# curves cover small (ChickWeight: chick 18 is weighed on days 0 and 2 only,
# 45 of the 50 chicks on days 0 to 21): the range most curves cover, with
# incomplete = "drop" (which accounts for the dropping). "" when it is the
# range all curves cover already.
common_range_hint <- function(lo_i, hi_i, lo, hi, n_args) {
  lo_m <- stats::median(lo_i)
  hi_m <- stats::median(hi_i)
  if (!(lo_m < hi_m) || (lo_m >= lo && hi_m <= hi)) return("")
  k <- sum(lo_i <= lo_m & hi_i >= hi_m)
  sprintf(paste("%s or grid = seq(%s, %s, length.out = %d) with incomplete = \"drop\", which leaves out the %d",
                "curve%s that do not cover it (%d of %d do)"),
          if (lo < hi) ";" else ":", format(signif(lo_m, 4)), format(signif(hi_m, 4)), min(101L, n_args),
          length(lo_i) - k, if (length(lo_i) - k == 1L) "" else "s", k, length(lo_i))
}

# How to give dates or times as the numbers a release needs.
date_arg_fix <- function(name, v) {
  origin <- if (inherits(v, "Date")) "as.Date(\"2020-01-01\")" else "as.POSIXct(\"2020-01-01\", tz = \"UTC\")"
  sprintf(paste("give the arguments as numbers in the unit the release should use, from a public origin, e.g.",
                "x$days <- as.numeric(difftime(x$%s, %s, units = \"days\")) and arg = days (the grid in the same",
                "unit)."), name, origin)
}

# Long observations (id, argument, value) to curves on a common grid.
long_to_curves <- function(ids, a, v, grid, method, restrict, na.rm, df, arg_name, value_name,
                           incomplete = "error") {
  if (inherits(a, c("Date", "POSIXt", "difftime"))) {
    # (a date is a number of days or seconds: which unit, and from which public origin, is the user's
    # choice, and it sets the scale of tau, an L2 norm over the arguments)
    dpfda_abort(sprintf("`arg` (\"%s\") holds %s values: %s", arg_name, class(a)[1L], date_arg_fix(arg_name, a)),
                arg = "arg")
  }
  if (!is.numeric(a)) arg_error("arg", "a numeric column (the curves' arguments)", a)
  if (!is.numeric(v)) arg_error("value", "a numeric column (the curves' values)", v)
  if (is.null(ids) || length(ids) != length(a)) arg_error("id", "a column of curve labels", ids)
  if (anyNA(ids)) {
    dpfda_abort(sprintf("The `id` column has %d missing value%s; every row must say which curve it belongs to.",
                        sum(is.na(ids)), if (sum(is.na(ids)) == 1L) "" else "s"), arg = "id")
  }
  uid <- if (is.factor(ids)) levels(droplevels(ids)) else sort(unique(ids))
  row <- match(as.character(ids), as.character(uid))
  bad_a <- !is.finite(a)
  if (any(bad_a)) {
    dpfda_abort(sprintf("The `arg` column has %d missing or non-finite value%s (curves %s); remove those rows.",
                        sum(bad_a), if (sum(bad_a) == 1L) "" else "s",
                        paste(utils::head(unique(as.character(uid[row[bad_a]])), 5L), collapse = ", ")),
                class = data_error_class, arg = "arg")
  }
  bad_v <- !is.finite(v)
  dropped <- character()
  if (any(bad_v) && !na.rm && incomplete == "drop") {
    # a curve with a missing value is incomplete: left out and named, as a matrix's row with one (it
    # was refused, and the message advised incomplete = "drop"); dp_mean() and dp_cov() count it
    gone <- unique(row[bad_v])
    dropped <- as.character(uid[gone])
    if (length(gone) == length(uid)) {
      dpfda_abort("Every curve has a missing value; nothing is left after dropping incomplete curves.",
                  class = data_error_class, arg = "value")
    }
    keep <- !(row %in% gone)
    a <- a[keep]
    v <- v[keep]
    left <- setdiff(seq_along(uid), gone)
    row <- match(row[keep], left)
    uid <- uid[left]
    bad_v <- rep(FALSE, length(v))
  }
  if (any(bad_v)) {
    if (!na.rm) {
      cur <- unique(as.character(uid[row[bad_v]]))
      dpfda_abort(sprintf(paste("The `value` column has %d missing or non-finite value%s, in %d curve%s (%s%s).",
                                "Leave out those curves with incomplete = \"drop\" (dp_mean(), dp_cov(): a",
                                "count of complete individuals is then released too), drop those observations with",
                                "na.rm = TRUE (and give `grid` to interpolate), or repair them."),
                          sum(bad_v), if (sum(bad_v) == 1L) "" else "s", length(cur),
                          if (length(cur) == 1L) "" else "s", paste(utils::head(cur, 5L), collapse = ", "),
                          if (length(cur) > 5L) ", ..." else ""),
                  class = data_error_class, arg = "value")
    }
    keep <- !bad_v
    a <- a[keep]
    v <- v[keep]
    row <- row[keep]
    if (!length(a)) dpfda_abort("Every value is missing.", class = data_error_class, arg = "value")
  }
  a <- as.double(a)
  v <- as.double(v)
  key <- paste(row, a)
  if (anyDuplicated(key)) {
    k <- which(duplicated(key))[1L]
    dpfda_abort(sprintf("Curve %s has two values at the argument %s; average or remove duplicates first.",
                        as.character(uid[row[k]]), format(a[k])), class = data_error_class, arg = "x")
  }
  present <- sort(unique(row))
  if (length(present) < length(uid) && incomplete == "drop") {   # curves with no observation left
    dropped <- c(dropped, as.character(uid[-present]))
    uid <- uid[present]
    row <- match(row, present)
    present <- seq_along(uid)
  }
  if (length(present) < length(uid)) {
    dpfda_abort(sprintf("Curve%s %s %s no observations left.", if (length(uid) - length(present) == 1L) "" else "s",
                        paste(utils::head(as.character(uid[-present]), 5L), collapse = ", "),
                        if (length(uid) - length(present) == 1L) "has" else "have"),
                class = data_error_class, arg = "x")
  }
  if (is.null(grid)) {
    g <- sort(unique(a))
    if (length(a) != length(uid) * length(g)) {
      cnt <- tabulate(row, length(uid))
      lo_i <- tapply(a, row, min)
      hi_i <- tapply(a, row, max)
      lo <- max(lo_i)
      hi <- min(hi_i)
      short <- which(cnt < length(g))
      # (the ranges come from the data: they orient the user, who fixes the published grid from the design)
      dpfda_abort(sprintf(paste("The curves are observed at different arguments (%d distinct values; curve %s has",
                                "%d). Give a common `grid` to interpolate onto. The grid is published with the",
                                "release: fix it from the study design (e.g. the planned times), not from these",
                                "data. For orientation%s%s."),
                          length(g), as.character(uid[short[1L]]), cnt[short[1L]],
                          if (lo < hi) sprintf(": grid = seq(%s, %s, length.out = %d) lies inside the range all curves cover",
                                               format(signif(lo, 4)), format(signif(hi, 4)),
                                               min(101L, length(g))) else "",
                          common_range_hint(lo_i, hi_i, lo, hi, length(g))),
                  class = data_error_class, arg = "x", args_differ = TRUE)
    }
    M <- matrix(NA_real_, length(uid), length(g))
    M[cbind(row, match(a, g))] <- v
  } else {
    g <- as_grid(grid, "grid")
    if (!is.null(dim(g))) arg_error("grid", "a vector of points (one-dimensional curves)", grid)
    g <- sort(g)
    lo_i <- as.vector(tapply(a, factor(row, seq_along(uid)), min))
    hi_i <- as.vector(tapply(a, factor(row, seq_along(uid)), max))
    lo <- max(lo_i)
    hi <- min(hi_i)
    tol <- 1e-10 * max(1, abs(range(g)))
    out <- lo_i > g[1L] + tol | hi_i < g[length(g)] - tol
    if (any(out) && incomplete == "drop" && !restrict) {
      # the curves that do not cover the grid are dropped and named (dp_mean() accounts for it)
      if (all(out)) {
        dpfda_abort(sprintf("No curve covers the grid [%s, %s]; nothing is left after dropping incomplete curves.",
                            format(signif(g[1L], 4)), format(signif(g[length(g)], 4))),
                    class = data_error_class, arg = "grid")
      }
      dropped <- c(dropped, as.character(uid[out]))
      keep_rows <- !out[row]
      a <- a[keep_rows]
      v <- v[keep_rows]
      row <- match(row[keep_rows], which(!out))
      uid <- uid[!out]
      out <- rep(FALSE, length(uid))
    }
    if (any(out)) {
      if (restrict && lo <= hi) {
        g <- g[g >= lo - tol & g <= hi + tol]
        if (!length(g)) {
          dpfda_abort(sprintf("No point of `grid` lies in the range all curves cover, [%s, %s].",
                              format(signif(lo, 4)), format(signif(hi, 4))), arg = "grid")
        }
      } else {
        which_out <- which(out)
        desc <- vapply(utils::head(which_out, 5L), function(i)
          sprintf("%s on [%s, %s]", as.character(uid[i]), format(signif(lo_i[i], 4)), format(signif(hi_i[i], 4))), "")
        common <- if (lo <= hi) {
          sprintf(paste("The range all curves cover is [%s, %s]: give a public grid inside it (e.g. grid =",
                        "seq(%s, %s, length.out = %d)), or drop the curves above; as_curves(restrict = TRUE)",
                        "drops the grid points outside it, but the grid then depends on the data."),
                  format(signif(lo, 4)), format(signif(hi, 4)), format(signif(lo, 4)), format(signif(hi, 4)),
                  length(g))
        } else {
          sprintf("The curves share no common range (latest start %s, earliest end %s): drop the curves above.",
                  format(signif(lo, 4)), format(signif(hi, 4)))
        }
        dpfda_abort(sprintf("%d curve%s do%s not cover the grid [%s, %s] (curves are not extrapolated): %s%s. %s",
                            length(which_out), if (length(which_out) == 1L) "" else "s",
                            if (length(which_out) == 1L) "es" else "", format(signif(g[1L], 4)),
                            format(signif(g[length(g)], 4)), paste(desc, collapse = "; "),
                            if (length(which_out) > 5L) sprintf("; and %d more", length(which_out) - 5L) else "",
                            paste(common, "Or keep the public grid and leave these curves out with",
                                  "incomplete = \"drop\" (dp_mean(), dp_cov(), as_curves(); a release then",
                                  "counts the complete curves privately).")),
                    class = data_error_class, arg = "grid", ids = uid[which_out])
      }
    }
    M <- matrix(NA_real_, length(uid), length(g))
    # rows sorted by curve then argument, split once: linear in the rows (a scan per curve was
    # quadratic, 95 s for 20,000 curves of 20 rows)
    o <- order(row, a)
    by_curve <- split(o, factor(row[o], seq_along(uid)))
    for (i in seq_along(uid)) {
      k <- by_curve[[i]]
      M[i, ] <- fit_curve(a[k], v[k], g, method, df)
    }
  }
  out <- curves(M, g)
  out$ids <- uid
  if (incomplete == "drop") out$dropped <- dropped   # ids of the incomplete curves left out
  set_curve_names(out, arg_name, value_name)
}

# One curve's observations (sorted arguments) evaluated on the grid.
fit_curve <- function(a, v, g, method, df) {
  if (length(a) == 1L) return(rep(v, length(g)))
  if (method == "linear") return(stats::approx(a, v, xout = g, rule = 2, ties = "ordered")$y)
  if (length(a) < 4L) {
    co <- stats::lm.fit(cbind(1, a), v)$coefficients
    return(as.vector(co[1L] + co[2L] * g))
  }
  fit <- if (is.null(df)) stats::smooth.spline(a, v) else stats::smooth.spline(a, v, df = min(df, length(a)))
  stats::predict(fit, g)$y
}

#' @rdname as_curves
#' @export
as_curves.fd <- function(x, grid = NULL, n_grid = 101L, ..., arg_name = NULL, value_name = NULL) {
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
  if (length(dim(x$coefs)) > 2L) {
    dpfda_abort(sprintf(paste("`x` is a multivariate fd object (%d functions per replicate); convert one",
                              "function at a time, e.g. as_curves(x[, 1])."), dim(x$coefs)[3L]), arg = "x")
  }
  v <- fda::eval.fd(grid, x)
  out <- curves(t(v), grid)
  # fda's names: fdnames = list(args, reps, funs), e.g. list("Age", girls, "Height (cm)"); an
  # element that is not one label (smooth.basis() stores the arguments) is labelled by its name,
  # as fda's plots do (e.g. list(time = <ages>, reps = <girls>, values = "value"))
  fdn <- x$fdnames
  one <- function(s) if (is.character(s) && length(s) == 1L && !is.na(s) && nzchar(s)) s
  lab <- function(k, default) {
    if (length(fdn) < k) return(default)
    one(fdn[[k]]) %||% one(names(fdn)[k]) %||% default
  }
  reps <- if (length(fdn) >= 2L) fdn[[2L]] else NULL
  if (is.character(reps) && length(reps) == nrow(out$values) && !anyNA(reps)) out$ids <- reps
  set_curve_names(out, arg_name %||% lab(1L, "t"), value_name %||% lab(3L, "value"))
}

#' @rdname as_curves
#' @export
as_curves.tfb <- function(x, grid = NULL, ..., incomplete = c("error", "drop"), arg_name = "t",
                          value_name = "value") {
  need_package("tf", "as_curves() on a tfb object")
  check_dot_names(list(...), as_curves_options, "as_curves")
  incomplete <- check_choice(incomplete, c("error", "drop"), "incomplete")
  # a basis representation is a function: evaluated exactly at the grid (not interpolated
  # between its own arguments); tf_evaluate(), since tf::tfd() on a tfb needs tf attached
  if (is.null(grid)) {
    grid <- tf::tf_arg(x)
    if (is.list(grid)) grid <- grid[[1L]]
  } else {
    grid <- as_grid(grid, "grid")
    if (!is.null(dim(grid))) arg_error("grid", "a vector of points", grid)
    dom <- tf::tf_domain(x)
    if (min(grid) < dom[1L] || max(grid) > dom[2L]) {
      dpfda_abort(sprintf(paste("`grid` must lie within the domain [%s, %s] of the tfb object (its basis is",
                                "not defined outside); it spans [%s, %s]."), format(dom[1L]), format(dom[2L]),
                          format(min(grid)), format(max(grid))), arg = "grid")
    }
  }
  if (length(x) == 0L) arg_error("x", "a tfb object with at least one curve", x)
  M <- do.call(rbind, lapply(tf::tf_evaluate(x, arg = grid), as.double))
  if (!all(is.finite(M))) {
    bad <- which(!apply(is.finite(M), 1L, all))
    dpfda_abort(sprintf("`x` has curves with missing or non-finite values on `grid` (curve%s %s).",
                        if (length(bad) == 1L) "" else "s", paste(utils::head(bad, 5L), collapse = ", ")),
                arg = "x")
  }
  out <- curves(M, grid)
  if (incomplete == "drop") out$dropped <- character()
  if (!is.null(tf_curve_labels(x))) out$ids <- names(x)
  set_curve_names(out, arg_name, value_name)
}

#' @rdname as_curves
#' @export
as_curves.tfd <- function(x, grid = NULL, ..., method = c("linear", "smooth"), restrict = FALSE, na.rm = FALSE,
                          df = NULL, incomplete = c("error", "drop"), arg_name = "t", value_name = "value") {
  need_package("tf", "as_curves() on a tfd object")
  if (inherits(x, "tfb")) {   # (a tfb column of a data frame)
    return(as_curves.tfb(x, grid = grid, ..., incomplete = incomplete, arg_name = arg_name, value_name = value_name))
  }
  check_dot_names(list(...), as_curves_options, "as_curves")
  method <- check_choice(method, c("linear", "smooth"), "method")
  incomplete <- check_choice(incomplete, c("error", "drop"), "incomplete")
  # (checked as for long data: a bad df fell back to GCV, with a warning a curve)
  if (!is.null(df)) df <- check_number(df, "df", lower = 1, upper = 1e6, lower_open = TRUE)
  # an empty (NA) curve is an individual without observations, not a curve to leave out: the long
  # path keeps it in n (it was dropped, so that n told whether its values are missing), as is a
  # grid beyond the object's domain (tf_evaluate() refused it with tf's own error)
  if (any(tf_empty_curves(x)) ||
      (!is.null(grid) && is.numeric(grid) && is.null(dim(grid)) && any(is.finite(grid)) &&
         (min(grid, na.rm = TRUE) < tf::tf_domain(x)[1L] || max(grid, na.rm = TRUE) > tf::tf_domain(x)[2L]))) {
    if (!is.null(grid)) {
      grid <- as_grid(grid, "grid")
      if (!is.null(dim(grid))) arg_error("grid", "a vector of points", grid)
    }
    return(tfd_long_curves(x, grid, method, restrict, na.rm, df, incomplete, arg_name, value_name))
  }
  if (is.null(grid)) {
    if (!inherits(x, "tfd_reg")) {
      # (the long path says which grid all curves cover)
      return(tfd_long_curves(x, NULL, method, restrict, na.rm, df, incomplete, arg_name, value_name))
    }
    grid <- tf::tf_arg(x)
    if (is.list(grid)) grid <- grid[[1L]]
  } else {
    grid <- as_grid(grid, "grid")
    if (!is.null(dim(grid))) arg_error("grid", "a vector of points", grid)
  }
  ev <- tf::tf_evaluate(x, arg = grid)
  M <- do.call(rbind, lapply(ev, as.double))
  if (!all(is.finite(M)) || method == "smooth" || isTRUE(restrict)) {
    # curves that do not cover the grid (irregular data): the rules, messages and incomplete = "drop"
    # of long data (it said only "Some curves are not defined on all of `grid`", and ignored
    # incomplete = "drop")
    return(tfd_long_curves(x, grid, method, restrict, na.rm, df, incomplete, arg_name, value_name))
  }
  out <- curves(M, grid)
  if (incomplete == "drop") out$dropped <- character()
  # tf keeps curve labels as names; the argument and value labels come from a
  # data frame's columns (as_curves(d, value = <tfd column>)) or arg_name / value_name
  if (!is.null(names(x)) && !anyNA(names(x))) out$ids <- names(x)
  set_curve_names(out, arg_name, value_name)
}

# A tfd's names where they label its curves (none missing or repeated), else NULL.
tf_curve_labels <- function(x) {
  nm <- names(x)
  if (!is.null(nm) && !anyNA(nm) && !anyDuplicated(nm)) nm
}

# Which curves of a tfd are empty (an NA element: no evaluations).
tf_empty_curves <- function(x) {
  v <- tf::tf_evaluations(x)
  vapply(v, function(e) length(e) == 0L || all(is.na(e)), NA)
}

# A tfd as long data (one row per observation) through long_to_curves(); the curves keep their
# order (ids: the tfd's names, else 1, 2, ...). An empty curve is one row with a missing value:
# an individual with no observation, which stays in n (refused under incomplete = "error").
tfd_long_curves <- function(x, grid, method, restrict, na.rm, df, incomplete, arg_name, value_name) {
  a <- tf::tf_arg(x)
  if (!is.list(a)) a <- rep(list(a), length(x))
  v <- tf::tf_evaluations(x)
  empty <- tf_empty_curves(x)
  if (any(empty)) {
    a0 <- tf::tf_domain(x)[1L]
    a[empty] <- list(a0)
    v[empty] <- list(NA_real_)
  }
  nm <- tf_curve_labels(x)
  lab <- nm %||% as.character(seq_along(x))
  ids <- factor(rep(lab, lengths(a)), levels = lab)
  out <- long_to_curves(ids, unlist(a, use.names = FALSE), unlist(v, use.names = FALSE), grid, method, restrict,
                        na.rm, df, arg_name = arg_name, value_name = value_name, incomplete = incomplete)
  if (is.null(nm)) out$ids <- as.integer(as.character(out$ids))
  out
}

#' @rdname as_curves
#' @export
as_tfd <- function(x, ...) {
  check_required()
  check_dot_names(list(...), NULL, "as_tfd")
  need_package("tf", "as_tfd()")
  cv <- as_curves(x)
  if (cv$dim != 1L || length(cv$grid) < 2L) arg_error("x", "one-dimensional curves on at least two points", x)
  out <- tf::tfd(cv$values, arg = cv$grid)
  if (!is.null(cv$ids) && length(cv$ids) == length(out)) names(out) <- as.character(cv$ids)
  out
}

# tf's own generics, so that tf::tfd(r) and tf::as.tfd(r) work on a release or curves (they gave an
# empty tfd with a warning); registered when tf is loaded
#' @exportS3Method tf::tfd
tfd.dpfda_curves <- function(data, ...) as_tfd(data, ...)
#' @exportS3Method tf::tfd
tfd.dpfda_release <- function(data, ...) as_tfd(data, ...)
#' @exportS3Method tf::as.tfd
as.tfd.dpfda_curves <- function(data, ...) as_tfd(data, ...)
#' @exportS3Method tf::as.tfd
as.tfd.dpfda_release <- function(data, ...) as_tfd(data, ...)

#' @rdname as_curves
#' @export
as_fd <- function(x, basis = NULL, ...) {
  check_required()
  check_dot_names(list(...), NULL, "as_fd")
  need_package("fda", "as_fd()")
  cv <- as_curves(x)
  if (cv$dim != 1L) arg_error("x", "one-dimensional curves", x)
  g <- cv$grid
  if (length(g) < 2L) arg_error("x", "curves on at least two grid points", x)
  if (is.null(basis)) {
    # the interpolating cubic spline (not-a-knot: a knot at every grid point but the second and the
    # second to last, so m functions for m points): eval.fd() at the grid returns the values exactly.
    # fda fits it with dense m x m algebra (1,000 points: 4.5 s; 5,000: minutes; 1e5: 80 GB)
    m <- length(g)
    if (m > 1000L) {
      dpfda_abort(sprintf(paste("`x` has %s grid points: the default basis (one B-spline per point) is too",
                                "large for fda; give a `basis` with fewer functions, e.g.",
                                "fda::create.bspline.basis(c(%s, %s), nbasis = 50)."),
                          format(m, big.mark = ","), format(g[1L]), format(g[m])), arg = "basis")
    }
    basis <- if (m >= 4L) fda::create.bspline.basis(range(g), norder = 4L, breaks = g[-c(2L, m - 1L)]) else
      fda::create.bspline.basis(range(g), norder = m, breaks = range(g))
  } else if (!inherits(basis, "basisfd")) {
    arg_error("basis", "an fda basis object (class basisfd) or NULL", basis)
  }
  if (basis$nbasis > length(g)) {
    dpfda_abort(sprintf("`basis` has %d functions but the grid only %d points.", basis$nbasis, length(g)),
                arg = "basis")
  }
  rv <- basis$rangeval
  if (!is.numeric(rv) || length(rv) != 2L || min(g) < rv[1L] || max(g) > rv[2L]) {
    # (fda's own error, "Knots do not span the values of X", was unclassed)
    dpfda_abort(sprintf(paste("`basis` is defined on [%s, %s], which does not span the grid [%s, %s]: create it on",
                              "the grid's range, e.g. fda::create.bspline.basis(c(%s, %s), nbasis = %d)."),
                        format(rv[1L]), format(rv[2L]), format(min(g)), format(max(g)), format(min(g)),
                        format(max(g)), basis$nbasis), arg = "basis")
  }
  reps <- if (!is.null(cv$ids) && length(cv$ids) == nrow(cv$values)) as.character(cv$ids) else
    paste0("rep", seq_len(nrow(cv$values)))
  # the names travel as fdnames = list(args, reps, funs), fda's labels
  fda::smooth.basis(g, t(cv$values), basis,
                    fdnames = list(curves_arg_label(cv), reps, curves_value_label(cv)))$fd
}

# A classed error when a suggested package is missing.
need_package <- function(pkg, what) {
  if (!requireNamespace(pkg, quietly = TRUE)) {
    dpfda_abort(sprintf("%s needs the package '%s': install.packages(\"%s\").", what, pkg, pkg),
                class = "dpfda_error_dependency")
  }
}
