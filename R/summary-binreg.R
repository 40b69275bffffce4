# Binning-regression summary (dp_bin_regression()): per bin of the public
# domain, the number of rows and the sum of the outputs clamped to y_bound.
# A database clamps, bins and sums; prod(bins) x 2 numbers come back.

#' Summary for private binning regression
#'
#' What [dp_bin_regression()] needs from the data: for every bin of the
#' public `domain` (`bins` equal intervals per dimension, bins numbered as in
#' `expand.grid`, the first dimension fastest), the number of rows and the
#' sum of the outputs clamped to `y_bound`. Inputs outside `domain` are
#' clamped into the boundary bins, as in memory.
#'
#' **Rows and missing values.** Each row is one individual's (input, output)
#' record: the inputs are public in this mechanism (so the bin counts are),
#' and neighbouring data sets differ in one output (see
#' [dp_bin_regression()]); for an individual with several rows give `unit`:
#' each unit's rows then weigh 1 / (its number of rows), `count` holds the
#' weights per bin and `n` the number of units. A row with a missing input
#' (or unit) is dropped and counted
#' (`dropped`): the inputs are public, so this depends on public data only. A
#' missing output is **not** a reason to drop a row, since that would change
#' a public count with a private value: it is replaced by the midpoint of
#' `y_bound` (a public value, so the row moves its bin sum by at most the
#' width of `y_bound`, as any other output) and counted (`missing_y`, with a
#' warning of class `dpfda_warning_data`). Non-finite values are clamped.
#'
#' @param x Public inputs in memory (a vector or an `n x D` matrix, with `y`
#'   the outputs), or a data frame, database table (dbplyr) or [dp_chunks()]
#'   with the input columns `columns` and the output column `y`.
#' @param y The outputs (in memory), or the name of the output column (a string
#'   or a bare name, as in [as_curves()]).
#' @param bins Number of bins per dimension (one, or one per dimension).
#' @param y_bound Public `c(lower, upper)` bounds on the outputs.
#' @param domain Public region binned: `c(lower, upper)` in one dimension, a
#'   `2 x D` matrix (rows lower, upper) or a list of ranges, one per input
#'   (named: matched to `columns` by name), otherwise.
#' @param columns Names of the input columns (`D` of them; strings or bare names, as in [as_curves()]:
#'   `columns = c(u, v)`).
#' @param .query Internal: return the lazy query instead of running it.
#' @param unit The privacy unit when one person has several rows: a column
#'   of `x` (data frame, table, chunks with each unit's rows together), or a vector with one
#'   entry per row in memory. See [dp_bin_regression()].
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return A [dpfda_summary] (kind `"binreg"`): `sums` is the `prod(bins) x
#'   2` matrix of counts and clamped output sums.
#' @examples
#' d <- data.frame(u = runif(500), v = runif(500))
#' d$resp <- sin(6 * d$u) + d$v + rnorm(500, 0, 0.2)
#' s <- summarise_bin_regression(d, "resp", bins = c(4, 3), y_bound = c(-2, 3),
#'                               domain = rbind(c(0, 0), c(1, 1)), columns = c("u", "v"))
#' s
#' dp_bin_regression(s, epsilon = 1)
#' @export
summarise_bin_regression <- function(x, y = "y", bins, y_bound, domain, columns = NULL, .query = FALSE, ...,
                                     unit = NULL) {
  check_required(c("x", "bins", "y_bound", "domain"))
  check_dot_names(dot_args(), character(), "summarise_bin_regression")   # (a misspelt option gets a classed error)
  # (in memory `y` is a vector of responses, not a column name)
  y <- if (is.data.frame(x) || is_lazy_table(x) || inherits(x, "dpfda_chunks")) column_arg_names("y", x) else y
  columns <- column_arg_names("columns", x, NULL)
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  summarise_bin_regression_impl(x, y, bins, y_bound, domain, columns, .query, unit = unit)
}

# summarise_bin_regression() with column names (strings); `unit` a column name (a data frame, a table,
# chunks) or a vector with one entry per row (in memory).
summarise_bin_regression_impl <- function(x, y = "y", bins, y_bound, domain, columns = NULL, .query = FALSE,
                                          unit = NULL) {
  y_bound <- check_y_bound(y_bound)
  src <- binreg_source(x, y, columns, unit)
  y <- src$y
  columns <- src$columns
  D <- src$D
  pts <- src$pts   # (points in memory; NULL for a data frame, a table or chunks)
  bins <- check_bins(bins, D)
  # (a list of ranges, one per input, as dp_kde() takes it; named, matched to the inputs by name)
  inputs <- columns %||% if (is.matrix(x) || is.data.frame(x)) colnames(x)
  dom <- check_bin_domain(domain_by_names(domain_from_ranges(domain), inputs), D)
  settings <- list(bins = bins, domain = dom, y_bound = y_bound)
  f <- function(p, yy, rows, dropped, w) binreg_summary(p, yy, settings, rows, dropped, w)
  if (inherits(x, "dpfda_chunks")) {
    return(warn_binreg(binreg_unit(chunks_reduce(x, function(d) binreg_frame(d, y, columns, settings, f, src$unit),
                                                 id = src$unit), src)))
  }
  if (is_lazy_table(x)) return(summarise_binreg_lazy(x, y, columns, settings, .query, src$unit))
  if (is.data.frame(x)) return(warn_binreg(binreg_unit(binreg_frame(x, y, columns, settings, f, src$unit), src)))
  warn_binreg(binreg_unit(f(pts, as.double(y), nrow(pts), 0, src$weights), src))
}

# The summary of rows with a unit (each weighing 1 / its unit's rows, unit_weights(): replacing all of
# a unit's outputs moves the weighted bin sums by at most the width of y_bound in L1, as one output
# does without a unit): n is the number of units (the sum of the weights, whole), and the unit's name
# is recorded for the print.
binreg_unit <- function(s, src) {
  if (is.null(src$unit)) return(s)
  s$n <- round(if (inherits(s, "dpfda_summary") && !is.null(s$norm_counts)) sum(s$norm_counts) else sum(s$sums[, 1L]))
  s$unit <- src$unit_label
  s
}

# From public inputs and outputs in memory: missing outputs set to the
# midpoint (counted), then the bins of bin_summary() (R/mech-gp-binning.R),
# each row weighing `w` (1, or 1 / its unit's rows).
binreg_summary <- function(pts, y, settings, rows, dropped, w = NULL) {
  miss <- is.na(y)
  y[miss] <- mean(settings$y_bound)
  s <- bin_summary(pts, y, settings$bins, settings$domain, settings$y_bound, w)
  new_dpfda_summary("binreg", cbind(count = as.double(s$counts), sum = s$sums), nrow(pts), rows, dropped,
                    settings, missing_y = sum(miss))
}

# A data frame (a chunk): numeric columns, rows with a missing input (or unit) dropped.
# `summarise(points, outputs, rows, dropped, weights)` makes the summary of the kept points and
# outputs (the "binreg" one; y_bound = "auto" gives its binned one, R/auto-y-bound.R); with a `unit`
# column each kept row weighs 1 / (the kept rows of its unit).
binreg_frame <- function(d, y, columns, settings, summarise, unit = NULL) {
  if (!nrow(d)) engine_no_rows("data frame")
  for (cl in columns) if (!cl %in% names(d)) engine_missing_column(cl, names(d), "columns")
  if (!y %in% names(d)) engine_missing_column(y, names(d), "y")
  if (!is.null(unit) && !unit %in% names(d)) engine_missing_column(unit, names(d), "unit")
  for (cl in c(columns, y)) {
    if (!is.numeric(d[[cl]]) && !all(is.na(d[[cl]]))) {
      abort_not_numeric(d[[cl]], cl, if (cl %in% columns) "columns" else "y")
    }
  }
  pts <- matrix(as.double(unlist(d[columns], use.names = FALSE)), nrow(d))
  bad <- rowSums(is.na(pts)) > 0
  if (!is.null(unit)) bad <- bad | is.na(d[[unit]])
  w <- if (!is.null(unit)) unit_weights(d[[unit]][!bad])
  summarise(pts[!bad, , drop = FALSE], as.double(d[[y]])[!bad], rows = nrow(d), dropped = sum(bad), w)
}

warn_binreg <- function(s) {
  warn_dropped(s, "a missing value")   # (non-finite inputs are clamped, not dropped)
  if (s$missing_y > 0) {
    dpfda_warn(sprintf(paste("%s row%s with a missing output counted at the midpoint of `y_bound` (dropping",
                             "them would change the public bin counts)."),
                       format(s$missing_y, big.mark = ","), if (s$missing_y == 1) "" else "s"),
               "dpfda_warning_data")
  }
  s
}

summarise_binreg_lazy <- function(x, y, columns, settings, .query, unit = NULL) {
  D <- length(columns)
  xn <- paste0("x", seq_len(D))
  nn <- binreg_lazy_rows(x, y, columns, unit, check = !.query)
  s <- sq_from(nn$q)   # (SQL written out: R/engine-sql.R)
  bins <- settings$bins
  yb <- settings$y_bound
  y_ <- sq_id(s, "y")
  wt <- sq_id(s, "wt")
  yc <- sq_clamp(s, sprintf("COALESCE(%s, %s)", y_, sq_lit(mean(yb))), sq_lit(yb[1L]), sq_lit(yb[2L]))
  s <- sq_mutate(s, list(b = binreg_sql_index(s, xn, settings), yc = yc,
                         ym = sprintf("CASE WHEN %s IS NULL THEN 1.0 ELSE 0.0 END", y_)))
  q <- sq_lazy(sq_summarise(s, "b", list(cnt = sprintf("SUM(%s)", wt), s = sprintf("SUM(%s * %s)", wt, sq_id(s, "yc")),
                                         my = sprintf("SUM(%s)", sq_id(s, "ym")))))
  if (.query) return(q)
  res <- engine_collect(q)
  B <- prod(bins)
  sums <- matrix(0, B, 2L, dimnames = list(NULL, c("count", "sum")))
  b <- as.integer(round(as.double(res$b))) + 1L
  sums[b, 1L] <- as.double(res$cnt)
  sums[b, 2L] <- as.double(res$s)
  out <- new_dpfda_summary("binreg", sums, sum(sums[, 1L]), nn$rows, nn$dropped, settings,
                           missing_y = sum(as.double(res$my)))
  warn_binreg(binreg_unit(out, list(unit = unit, unit_label = unit)))
}

# The rows of a table for bin regression: inputs x1.., output y (and the unit as `id`), rows with a
# missing input (or unit) dropped and counted, and the weight `wt` of each row (1, or 1 / its unit's rows).
binreg_lazy_rows <- function(x, y, columns, unit = NULL, check = TRUE) {
  D <- length(columns)
  xn <- paste0("x", seq_len(D))
  cols <- stats::setNames(c(columns, y, unit), c(rep("columns", D), "y", if (!is.null(unit)) "unit"))
  q <- lazy_select(x, cols, c(xn, "y", if (!is.null(unit)) "id"), numeric = c(xn, "y"), check = check,
                   nan_null = c(xn, "y"))
  nn <- lazy_drop_null(q, c(xn, if (!is.null(unit)) "id"), check = check)
  nn$q <- lazy_weight(nn$q, if (!is.null(unit)) "id")
  nn
}

# The SQL expression of the (0-based) bin of the inputs `xn` of the query in
# progress `s`, as bin_index(): floor((u - lower) / width + bin_edge_tol()), clamped to the
# bins (exact literals). The position is clamped before FLOOR, not after:
# the same bin for every finite position, but SQLite's FLOOR of +Inf or of a
# position beyond 2^63 (an input of 1e300) overflows its 64-bit integer and
# gave bin 0 (memory: the top bin).
binreg_sql_index <- function(s, xn, settings) {
  dom <- settings$domain
  bins <- settings$bins
  mult <- cumprod(c(1, bins))[seq_along(xn)]
  terms <- vapply(seq_along(xn), function(j) {
    w <- (dom[2, j] - dom[1, j]) / bins[j]
    kj <- sprintf("FLOOR(%s)", sq_clamp(s, sprintf("(%s - %s) / %s + %s", sq_id(s, xn[j]), sq_lit(dom[1, j]), sq_lit(w),
                                                   sq_lit(bin_edge_tol())), "0.0", sq_lit(bins[j] - 1)))
    if (mult[j] == 1) kj else sprintf("%s * %s", kj, sq_lit(mult[j]))
  }, "")
  paste(terms, collapse = " + ")
}

# The outputs and the point columns of bin regression's data (names for a data
# frame, a table or chunks; checked values in memory), and their dimension.
binreg_source <- function(x, y, columns, unit = NULL) {
  if (inherits(x, "dpfda_chunks") || is.data.frame(x) || is_lazy_table(x)) {
    have <- engine_names_or(x)
    columns <- engine_columns(columns, have, "columns")
    ucol <- if (!is.null(unit)) column_names(unit, have, "unit")
    return(list(y = engine_columns(y, have, "y", 1L), columns = columns, D = length(columns), unit = ucol,
                unit_label = ucol))
  }
  pts <- as_points(x, "x")
  if (!is.numeric(y) || !is.null(dim(y)) || length(y) != nrow(pts)) {
    arg_error("y", sprintf("a numeric vector of %d values (one per row of `x`)", nrow(pts)), y)
  }
  out <- list(y = y, columns = columns, D = ncol(pts), pts = pts)
  if (!is.null(unit)) {   # one unit per row, as points' units are given (R/summary-bins.R)
    u <- regression_units(unit, nrow(pts))
    out$weights <- u$weights
    out$unit <- "unit"
    out$unit_label <- u$label
  }
  out
}
