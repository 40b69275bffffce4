# Bin-count summaries: the linearly binned 1-D KDE (bin weights on regular
# centres spanning the domain), the KDE weights on the grid itself (ICLP /
# FRL), the Gaussian kernel sums at public points (KDE in more than one
# dimension), and deaths by group and age (mortality distributions). In
# memory, in a database (dbplyr) or chunk by chunk.

#' Summaries by binning: kernel density estimates and mortality distributions
#'
#' `summarise_kde()` computes the summary that [dp_kde()] needs for its
#' `mechanism`:
#'
#' * `"gp"`, `"sobolev"`, `"bernstein"` on a one-dimensional grid: the
#'   linear-binning weights of the data on `bins` regular centres spanning
#'   `domain` (data clamped to it), the summary behind the binned estimate of
#'   [kde_gaussian()] (kind `"kde"`);
#' * `"iclp"`, `"frl"`: the (multi)linear-binning weights of the data on the
#'   grid points themselves (a one-dimensional or sorted tensor grid; kind
#'   `"kde_grid"`): each record adds weights that sum to one, which is what
#'   the sensitivity of [dp_kde()]'s ICLP and FRL releases assumes;
#'   `bandwidth` and `bins` are not used;
#' * `"gp"`, `"sobolev"` on a grid matrix (several dimensions): the Gaussian
#'   kernel sums \eqn{\sum_i K_H(t - x_i)} at the grid points, as
#'   [kde_gaussian()] computes them in memory (kind `"kde_kernel"`);
#'   `"bernstein"`: the same at the \eqn{(k+1)^d} points of the Bernstein
#'   lattice on `domain`.
#'
#' `summarise_mortality()` computes the deaths by group and age behind
#' [mortality_distribution()] (rows with the same group and age are added;
#' an age absent from a group counts as 0 deaths).
#'
#' The data may be a numeric vector or matrix (KDE) or data frame in memory,
#' a database table (a dbplyr lazy table: SQLite, DuckDB, PostgreSQL,
#' Spark), or [dp_chunks()]. In a database, clamping, binning, kernel
#' evaluation and the sums run in the engine and only the sums (`bins`, grid
#' or lattice points, or the group x age table) come back. Kernel sums at
#' \eqn{m} points cost \eqn{O(m)} per row in the engine (one sum per point,
#' the points written into the query; no join).
#'
#' **Individuals.** Without `id`, each row is one individual (`n` = rows).
#' With `id` (KDE), an individual with \eqn{r} rows contributes each with
#' weight \eqn{1/r}, so every individual adds total weight one (a convex
#' combination of kernels, whose sensitivity is that of one record) and `n`
#' is the number of distinct ids. For mortality the unit is the group (see
#' [mortality_distribution()]).
#'
#' **Bad input.** A missing column is an error (`dpfda_error_argument`), a
#' non-numeric column too (`dpfda_error_data`); rows with a missing value
#' (NULL) in a used column are dropped and counted (`dropped`, with a warning
#' of class `dpfda_warning_data`) in the summaries of curves, deaths and
#' regressions, where a row is a part of an individual (but a row whose
#' `id` or `group` is missing, and a group none of whose rows is complete,
#' are refused: they would leave the public `n`; an individual none of whose
#' rows is complete stays in `n` with no observation), and refused
#' (`dpfda_error_data`) in those of points ([summarise_kde()],
#' [summarise_kme()]), where a row is a record and dropping it would make
#' the number of complete records public; values outside `domain` are clamped to it
#' (a KDE summary counts those points, `outside`, in the same pass, and
#' [dp_kde()] warns about them as it does for points in memory; a `domain`
#' given here counts as given to [dp_kde()] of the summary); negative
#' deaths are an error.
#'
#' @param x The data: see above.
#' @param grid Public evaluation grid: a vector, or a matrix of points (one
#'   column per dimension; a tensor grid for `"iclp"` and `"frl"`), or a list
#'   of axes.
#' @param bandwidth The public bandwidth (sets the default `bins`); not used
#'   by `"iclp"` and `"frl"`.
#' @param domain Public bounds `c(lower, upper)` (or a `2 x d` matrix, or a list of ranges as in [dp_kde()]);
#'   default the range of `grid`.
#' @param bins Number of bin centres (1-D); default as in [kde_gaussian()]: at
#'   least 4096 and 8 per bandwidth.
#' @param columns Names of the data columns, one per dimension of the grid
#'   (tables, data frames, chunks; strings or bare names, as in [as_curves()]).
#' @param id `NULL` or the name of an id column (see Individuals; a string or
#'   a bare name); `unit` is its newer name.
#' @param unit The privacy unit when one person has several points: a column
#'   (as `id`) of a data frame, table or chunks (each unit's rows together), or a
#'   vector with one entry per point for points in memory. A unit with
#'   \eqn{r} points adds each with weight \eqn{1/r}, and `n` counts units.
#' @param counts `NULL`, or a column (string or bare name) of a data frame,
#'   table or chunks holding whole-number frequencies: each row stands for
#'   that many records (a frequency table, e.g. points with their counts),
#'   its weight in the sums is its count and `n` is the number of records,
#'   each its own privacy unit (not with `unit`). A missing count
#'   is refused as other missing values are; a negative or fractional count is
#'   an error (`dpfda_error_data`).
#' @param mechanism The [dp_kde()] mechanism the summary is for (see above).
#' @param k Bernstein lattice size (`"bernstein"` in several dimensions).
#' @param age,deaths,group Column names for `summarise_mortality()` (strings or bare names, as in [as_curves()]);
#'   `group` may be `NULL` (one group); left out, it is the column `group`
#'   where the data have one and one group otherwise (as
#'   [mortality_distribution()] on a data frame).
#' @param .query Internal: return the lazy query instead of running it.
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return A [dpfda_summary].
#' @examples
#' x <- c(rnorm(500, 0.3, 0.1), rnorm(500, 0.7, 0.1))
#' g <- seq(0, 1, length.out = 201)
#' s <- summarise_kde(x, grid = g, bandwidth = 0.05)
#' s
#' if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
#'   con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
#'   DBI::dbWriteTable(con, "obs", data.frame(value = x))
#'   s2 <- summarise_kde(dplyr::tbl(con, "obs"), grid = g, bandwidth = 0.05, columns = "value")
#'   print(max(abs(s2$sums - s$sums)))
#'   sg <- summarise_kde(dplyr::tbl(con, "obs"), grid = g, columns = "value", mechanism = "iclp")
#'   DBI::dbDisconnect(con)
#' }
#' @export
summarise_kde <- function(x, grid, bandwidth, domain = NULL, bins = NULL, columns = NULL, id = NULL,
                          mechanism = c("gp", "sobolev", "bernstein", "iclp", "frl"), k = 20L, .query = FALSE,
                          unit = NULL, counts = NULL, ...) {
  check_required(c("x", "grid"))
  check_dot_names(dot_args(), character(), "summarise_kde")   # (a misspelt option gets a classed error)
  domain <- domain_from_ranges(domain)
  # the kernel sums need the bandwidth; the grid summary of "iclp" and "frl" does not
  if (!is.character(mechanism) || !mechanism[1L] %in% c("iclp", "iclp_qr", "frl")) check_required("bandwidth")
  columns <- column_arg_names("columns", x, NULL)
  if (is.data.frame(x) || is_engine_input(x)) {
    columns <- columns_for_named_kde(grid, domain, if (!missing(bandwidth)) bandwidth, engine_names_or(x), columns)
  }
  id <- column_arg_names("id", x)
  pu <- point_units(x, unit_arg(substitute(unit), tryCatch(unit, error = function(e) e)), columns, id)
  counts <- column_arg_names("counts", x)
  if (!is.null(counts)) {
    check_counts_source(x, pu$id)
    check_counts_column(counts, pu$columns)
  }
  s <- summarise_kde_impl(pu$x, grid, bandwidth, domain, bins, pu$columns, pu$id, mechanism, k, .query,
                          counts = counts)
  # (a domain given here is given for the release too: dp_kde(s) does not warn as if the grid's range
  # bounded the data by default)
  if (inherits(s, "dpfda_summary") && !is.null(domain)) s$domain_given <- TRUE
  s
}

# summarise_kde() with column names (strings); a summary with an `id` records it as its privacy unit.
summarise_kde_impl <- function(x, grid, bandwidth, domain = NULL, bins = NULL, columns = NULL, id = NULL,
                               mechanism = c("gp", "sobolev", "bernstein", "iclp", "frl"), k = 20L,
                               .query = FALSE, counts = NULL) {
  s <- summarise_kde_sums(x, grid, bandwidth, domain, bins, columns, id, mechanism, k, .query, counts = counts)
  if (!is.null(id) && inherits(s, "dpfda_summary")) s$unit <- as.vector(id)
  if (!is.null(counts) && inherits(s, "dpfda_summary")) s$counts <- counts
  s
}

# `counts` of the KDE summaries: a column of a data frame, table or chunks whose
# rows each stand for that many records (a frequency table); not with a unit.
# (`summarise`: the summary function that takes them, named when `x` is a summary, which has its counts)
check_counts_source <- function(x, id, summarise = NULL) {
  if (inherits(x, "dpfda_summary") && !is.null(summarise)) {
    dpfda_abort(sprintf("`counts` is for data; a summary has its counts already (give `counts` to %s()).",
                        summarise), arg = "counts")
  }
  if (!is.data.frame(x) && !is_engine_input(x)) {
    dpfda_abort(paste("`counts` names a column of a data frame, database table or chunks; for points in a vector",
                      "or matrix give the counts themselves, one per point."), arg = "counts")
  }
  if (!is.null(id)) abort_counts_with_unit()
  invisible()
}

# The counts must be a column of their own, not one of the points'.
check_counts_column <- function(counts, columns) {
  if (is.character(counts) && counts %in% columns) {
    dpfda_abort(sprintf(paste("`counts` (\"%s\") is also one of the point columns (`columns`); the counts must be a",
                              "column of their own."), counts), arg = "counts")
  }
  invisible()
}

# The rows of point data in a table, weighted: the point columns as `xn` (numeric, finite), the id
# and the counts (as cw) when given, rows with a missing value dropped (lazy_drop_null(): the rows
# read and dropped), the counts checked in SQL, and the weight `wt` of each row (lazy_weight(): 1,
# 1 / the individual's rows, or the count) in the query `q`. `id_name` names the id in errors.
lazy_weighted_points <- function(x, columns, xn, id = NULL, counts = NULL, check = TRUE, nan_null = character(),
                                 id_name = "id") {
  cols <- stats::setNames(c(columns, id, counts), c(rep("columns", length(columns)), if (!is.null(id)) id_name,
                                                    if (!is.null(counts)) "counts"))
  new <- c(xn, if (!is.null(id)) "id", if (!is.null(counts)) "cw")
  q <- lazy_select(x, cols, new, numeric = c(xn, "cw"), check = check, nan_null = nan_null)
  nn <- lazy_drop_null(q, new, check = check, finite = c(xn, "cw"))
  if (check && nn$dropped > 0) lazy_abort_missing_points(q, new, c(columns, id, counts), c(xn, "cw"), nn)
  if (!is.null(counts) && check) lazy_check_counts(nn$q)
  nn$q <- lazy_weight(nn$q, if (!is.null(id)) "id", !is.null(counts))
  nn
}

# Points of a table with a missing value: refused (abort_missing_points()), naming the columns that
# hold them (one more query, on this path only). `new`: the columns of the query `q` as renamed,
# `orig` the table's names of them, `finite` those whose values must be finite.
lazy_abort_missing_points <- function(q, new, orig, finite, nn) {
  s <- sq_from(q)
  flags <- lapply(new, function(cn) {
    qc <- sq_id(s, cn)
    sprintf("SUM(CASE WHEN %s THEN 0 ELSE 1 END)", if (cn %in% finite) sprintf("(%s - %s) = 0", qc, qc) else
      paste(qc, "IS NOT NULL"))
  })
  cnt <- engine_collect(sq_lazy(sq_summarise(s, character(), stats::setNames(flags, new))))
  bad <- orig[vapply(new, function(cn) plain_number(cnt[[cn]], 0) > 0, NA)]
  abort_missing_points(nn$dropped, nn$rows, where = columns_phrase(if (length(bad)) paste0("\"", bad, "\"")))
}

# SUM of a 0/1 flag (SQL), or with a frequency table's weights `wt` the records it flags.
sq_flag_sum <- function(flag, wt = NULL) {
  if (is.null(wt)) sprintf("SUM(%s)", flag) else sprintf("SUM(%s * %s)", wt, flag)
}

abort_counts_with_unit <- function() {
  dpfda_abort(paste("Give `counts` or a unit (`unit`, `id`), not both: with `counts` every record of a count is",
                    "its own privacy unit; with a unit every unit's rows weigh one in all."), arg = "counts")
}

# Counts read from data: whole numbers, at least 0 (rows with a missing count are dropped before).
check_count_values <- function(v) {
  bad <- which(!(v >= 0 & v == floor(v)))
  if (length(bad)) {
    dpfda_abort(sprintf("`counts` must be non-negative whole numbers (records per row); row %d has %s.", bad[1L],
                        format(v[bad[1L]])), class = "dpfda_error_data", arg = "counts")
  }
  as.double(v)
}

# The same in a database: the rows of `q` (column cw) whose count is negative or not whole.
lazy_check_counts <- function(q) {
  s <- sq_from(q)
  cw <- sq_id(s, "cw")
  res <- engine_collect(sq_lazy(sq_summarise(s, character(), list(
    bad = sprintf("SUM(CASE WHEN %s < 0 OR %s <> FLOOR(%s) THEN 1 ELSE 0 END)", cw, cw, cw),
    tot = sprintf("SUM(%s)", cw)))))
  if (plain_number(res$bad, 0) > 0) {
    dpfda_abort(sprintf("`counts` must be non-negative whole numbers (records per row); %s rows of the table are not.",
                        format(plain_number(res$bad, 0))), class = "dpfda_error_data", arg = "counts")
  }
  invisible()
}

# The privacy unit of point data (dp_kde(), dp_kme() and their summaries): a
# column name for data frames, tables and chunks (the `id` of the summaries),
# or a vector with one entry per point for points in memory, which then
# become a data frame with columns .x1, ..., .xd and `unit`. Returns the data,
# the point columns and the id column.
point_units <- function(x, unit, columns, id) {
  if (is.null(unit)) return(list(x = x, columns = columns, id = id))
  if (!is.null(id)) {
    dpfda_abort("Give the privacy unit once: `unit` (or its older name `id`), not both.", arg = "unit")
  }
  if (inherits(x, "dpfda_summary")) {
    dpfda_abort("`unit` is for data; a summary has its unit already (give `unit` to the summarise_*() function).",
                arg = "unit")
  }
  if (is.data.frame(x) || is_engine_input(x)) {
    # (as chunks' id, its errors name `unit`: unit_id())
    return(list(x = x, columns = columns, id = unit_id(check_unit_column(column_names(unit, engine_names_or(x), "unit"),
                                                                          columns))))
  }
  u <- if (inherits(unit, "dpfda_column_ref")) with_unit_label(unit$value, unit$expr) else unit
  # a plain vector of finite numbers is one column already (as_points() would copy it into a matrix)
  pts <- if (is.numeric(x) && is.null(dim(x)) && length(x) && all(is.finite(x))) list(as.double(x)) else {
    p <- as_points(x, "x")
    lapply(seq_len(ncol(p)), function(j) p[, j])
  }
  np <- length(pts[[1L]])
  if (!(is.null(dim(u)) && (is.atomic(u) || is.factor(u)) && length(u) == np && !anyNA(u))) {
    arg_error("unit", sprintf("a vector with one privacy unit (e.g. a person id) per point (%d), without missing values",
                              np), u)
  }
  # the unit as integer codes (one hash here; the summary's weights then hash small integers)
  codes <- unit_codes(u)
  df <- stats::setNames(c(pts, list(codes)), c(paste0(".x", seq_along(pts)), "unit"))
  df <- structure(df, class = "data.frame", row.names = .set_row_names(np), dpfda_clean = TRUE)
  list(x = df, columns = names(df)[seq_along(pts)], id = "unit",
       label = attr(u, "name", exact = TRUE) %||% "unit", n_units = max(0L, codes))
}

# Integer codes 1..K of the units (in order of appearance): a run count for
# sorted units (data grouped by person: one pass in C, no hashing), match()
# otherwise.
unit_codes <- function(u) {
  key <- if (is.factor(u) || is.logical(u)) as.integer(u) else as.vector(u)
  if (is.integer(key) || is.double(key)) {
    runs <- c_unit_runs(key)   # (NULL when the keys are not sorted)
    if (!is.null(runs)) return(runs)
  } else if (length(key) > 1L && !is.unsorted(key)) {
    n <- length(key)
    return(cumsum(c(TRUE, key[-1L] != key[-n])))
  }
  match(key, unique(key))
}

# The weight of each row of a unit: 1 / (its unit's number of rows), so that every unit weighs 1.
unit_weights <- function(unit, codes = unit_codes(unit)) {
  1 / tabulate(codes, max(0L, codes))[codes]
}

# A per-row argument of the regressions in memory (`unit`, `counts`): a vector with one entry per row
# of the n rows, or a column (a string or a bare name) of a formula's `data`, labelled by its name.
regression_column <- function(arg, n, data, name, entry) {
  ref <- inherits(arg, "dpfda_column_ref")
  if (is.data.frame(data) && (ref || (is.character(arg) && length(arg) == 1L && n > 1L))) {
    col <- column_names(arg, names(data), name, what = "`data`")
    return(structure(data[[col]], name = col))
  }
  if (ref && inherits(arg$value, "error")) {
    dpfda_abort(sprintf(paste("`%s` = %s is not a variable; it names a column only with a formula and its",
                              "`data`. Give a vector with one %s per row of `x`, or use",
                              "y ~ x, data = d, %s = %s."), name, deparse1(arg$expr), entry, name, deparse1(arg$expr)),
                arg = name)
  }
  if (ref) with_unit_label(arg$value, arg$expr) else arg
}

# The privacy unit of n rows in memory (the regressions and bin regression): a vector with one entry
# per row, or a column (a string or a bare name) of a formula's `data`. Returns each row's weight
# 1 / (its unit's rows), its unit's code (1..n), the number of units `n` and the unit's name for the
# print; NULL without one. With `delta`, the warning on delta against the number of units (the
# callers' release_open() was given none: the units were not known yet).
regression_units <- function(unit, n, data = NULL, delta = NULL) {
  if (is.null(unit)) return(NULL)
  u <- regression_column(unit, n, data, "unit", "privacy unit")
  if (!(is.null(dim(u)) && (is.atomic(u) || is.factor(u)) && length(u) == n && !anyNA(u))) {
    arg_error("unit", sprintf("a vector with one privacy unit (e.g. a person id) per row (%d), without missing values",
                              n), u)
  }
  codes <- unit_codes(u)
  if (!is.null(delta)) warn_privacy(NULL, delta, max(0L, codes))
  list(weights = unit_weights(codes = codes), codes = codes, n = max(0L, codes),
       label = attr(u, "name", exact = TRUE) %||% "unit")
}

# A frequency table in memory (dp_krr(), dp_svm()): `counts`, one whole count per row or a column of a
# formula's `data`; each row stands for that many records, each its own privacy unit. The weights of
# regression_units() are then the counts and `n` the number of records, so the loss is that of the
# repeated rows; `records` makes the print say "one record (n)". NULL without counts.
regression_counts <- function(counts, n, data = NULL, delta = NULL, unit = NULL) {
  if (is.null(counts)) return(NULL)
  if (!is.null(unit)) abort_counts_with_unit()
  v <- regression_column(counts, n, data, "counts", "count (records)")
  if (!(is.null(dim(v)) && is.numeric(v) && length(v) == n && !anyNA(v))) {
    arg_error("counts", sprintf("a numeric vector with one count (records) per row (%d), without missing values", n), v)
  }
  w <- check_count_values(v)
  if (!(sum(w) > 0)) {
    dpfda_abort("`counts` add up to 0 records: there are no data to release.", class = "dpfda_error_data",
                arg = "counts")
  }
  N <- sum(w)
  if (N <= .Machine$integer.max) N <- as.integer(N)
  if (!is.null(delta)) warn_privacy(NULL, delta, N)
  list(weights = w, codes = seq_len(n), n = N, label = "record", records = TRUE)
}

# The rows of regression data (`data$x`, `data$y`) in memory and their weights: a frequency table
# (`counts`, regression_counts()) or a privacy unit (regression_units()), `units` NULL for neither. A
# count of 0 leaves its row out (the solvers take positive weights).
erm_weighted_rows <- function(data, unit, counts, frame = NULL, delta = NULL) {
  units <- regression_counts(counts, length(data$y), frame, delta, unit) %||%
    regression_units(unit, length(data$y), frame, delta)
  keep <- if (!is.null(units)) units$weights > 0
  if (is.null(keep) || all(keep)) return(list(data = data, units = units))
  data$x <- data$x[keep, , drop = FALSE]
  data$y <- data$y[keep]
  units$weights <- units$weights[keep]
  units$codes <- units$codes[keep]
  list(data = data, units = units)
}

# "one point (n)" or "<unit> (n units)": the privacy unit of a KDE or KME release. (Not the
# number of points of the units: replacing one unit changes it, so a release never states it.)
privacy_unit_points <- function(n, unit = NULL, records = FALSE) {
  f <- function(v) format(v, big.mark = ",", scientific = FALSE)
  if (records) return(sprintf("one record (%s)", f(n)))   # (rows with counts: n counts records)
  if (is.null(unit)) sprintf("one point (%s)", f(n)) else sprintf("%s (%s units)", unit, f(n))
}

summarise_kde_sums <- function(x, grid, bandwidth, domain = NULL, bins = NULL, columns = NULL, id = NULL,
                               mechanism = c("gp", "sobolev", "bernstein", "iclp", "frl"), k = 20L,
                               .query = FALSE, .weights = NULL, counts = NULL) {
  mechanism <- check_mechanism(mechanism, c("gp", "sobolev", "bernstein", "iclp_qr", "frl"), "summarise_kde",
                               local = c(iclp_qr = "iclp"))
  grid <- as_grid(grid, "grid")
  if (mechanism %in% c("iclp", "frl")) return(summarise_kde_grid(x, grid, domain, columns, id, .query, counts))
  check_required("bandwidth")
  if (!is.null(dim(grid))) {
    return(summarise_kde_kernel(x, grid, bandwidth, domain, columns, id, mechanism, k, .query, counts))
  }
  dom <- kde_check_domain(as_domain(domain, grid))
  bw <- as_bandwidth(bandwidth, 1L)
  h <- sqrt(bw$H[1, 1])
  B <- if (is.null(bins)) min(2^22, max(4096, ceiling(8 * diff(dom) / h) + 1)) else
    check_count(bins, "bins", min = 2, max = 2^26)
  settings <- list(domain = dom, bins = as.double(B))
  delta <- diff(dom) / (B - 1)
  if (!is.null(id)) id <- engine_columns(id, engine_names_or(x), "id", 1L)

  if (inherits(x, "dpfda_chunks")) {
    return(warn_dropped(chunks_reduce(x, function(d) {
      summarise_kde_impl(d, grid, bandwidth, dom, B, columns, id, counts = counts)
    }, id = id)))
  }
  if (is_lazy_table(x)) {
    columns <- kde_columns(columns, colnames(x), 1L, c(id, counts))
    nn <- lazy_weighted_points(x, columns, "x", id, counts, check = !.query)
    s <- sq_from(nn$q)   # (SQL written out: R/engine-sql.R)
    lo <- sq_lit(dom[1])   # literals exact to the last bit (dbplyr writes 15 digits)
    s <- sq_mutate(s, list(pos = sprintf("(%s - %s) / %s", sq_clamp(s, sq_id(s, "x"), lo, sq_lit(dom[2])), lo,
                                         sq_lit(delta))))
    pos <- sq_id(s, "pos")
    s <- sq_mutate(s, list(b = sq_least(s, sprintf("FLOOR(%s)", pos), sq_lit(B - 2))))
    s <- sq_mutate(s, list(f = sprintf("%s - %s", pos, sq_id(s, "b"))))
    wt <- sq_id(s, "wt")
    f <- sq_id(s, "f")
    s <- sq_summarise(s, "b", list(a0 = sprintf("SUM(%s * (1.0 - %s))", wt, f), a1 = sprintf("SUM(%s * %s)", wt, f),
                                   cnt = sprintf("SUM(%s)", wt),
                                   out = sq_outside_sum(sq_id(s, "x"), dom[1], dom[2], if (!is.null(counts)) wt)))
    q <- sq_lazy(s)
    if (.query) return(q)
    res <- engine_collect(q)
    w <- numeric(B)
    b <- as.integer(res$b)
    w[b + 1L] <- w[b + 1L] + res$a0
    w[b + 2L] <- w[b + 2L] + res$a1
    n <- if (is.null(id)) sum(res$cnt) else round(sum(res$cnt))   # (an id's weights add to one: no 2nd scan)
    return(warn_dropped(new_dpfda_summary("kde", w, n, nn$rows, nn$dropped, settings,
                                          outside = sum(plain_double(res$out)))))
  }
  # in memory: a vector / one-column matrix, or a data frame with `columns`
  if (is.data.frame(x)) {
    columns <- kde_columns(columns, names(x), 1L, c(id, counts))
    cl <- frame_clean_points(x, c(columns, counts), id)
    d <- cl$data
    v <- d[[columns]]
    ids <- if (!is.null(id)) d[[id]]
    if (!is.null(counts)) .weights <- check_count_values(d[[counts]])
    dropped <- cl$dropped
    rows <- cl$rows
  } else {
    v <- as_points(x, "x", d = 1L)[, 1L]
    ids <- NULL
    dropped <- 0
    rows <- length(v)
  }
  v <- as.double(v)
  outside <- points_outside(v, dom, .weights)   # (with counts: the records)
  v <- pmin(pmax(v, dom[1]), dom[2])
  # (.weights: dp_kde()'s counts, records per point, checked there)
  wt <- if (!is.null(.weights)) .weights else if (is.null(ids)) numeric(0) else id_weights(ids)
  w <- c_summary_bin(v, as.vector(wt), dom[1], delta, as.integer(B))
  n <- if (!is.null(.weights)) sum(.weights) else if (is.null(ids)) length(v) else attr(wt, "n_ids")
  new_dpfda_summary("kde", w, n, rows, dropped, settings, outside = outside)
}

# A density's domain must have positive length on every axis: a grid of one
# point and no `domain` would clamp every point onto it (an estimate that
# does not depend on the data; a division by zero in the engine's binning).
kde_check_domain <- function(dom) {
  dm <- matrix(dom, nrow = 2L)
  if (any(!(dm[1L, ] < dm[2L, ]))) {
    dpfda_abort(paste("The density's domain has zero length on an axis: the grid is a single point there and no",
                      "`domain` is given. Give a grid of at least 2 points per axis, or `domain` = c(lower, upper)."),
                arg = "grid")
  }
  dom
}

engine_names_or <- function(x) {
  if (is.data.frame(x) || is_lazy_table(x)) engine_names(x) else NULL
}

# The kernel density estimate of dp_kde() from a table, chunks or a summary
# (1-D bin weights, or kernel sums at the grid or lattice points in more
# dimensions): a function evaluating it, and n (as kde_points_estimate()).
kde_summary_estimate <- function(x, grid, bandwidth, bw, dom, bins, columns, id, mechanism, k, d, counts = NULL) {
  s <- if (inherits(x, "dpfda_summary")) x else
    summarise_kde_impl(x, grid, bandwidth, domain = dom, bins = bins, columns = columns, id = id,
                       mechanism = mechanism, k = k, counts = counts)
  s <- check_summary(s, if (d == 1L) "kde" else "kde_kernel")
  if (!isTRUE(all.equal(s$settings$domain, dom))) {
    dpfda_abort("The summary was computed on another `domain`.", arg = "domain")
  }
  if (inherits(x, "dpfda_summary") && d == 1L && !is.null(bins) && !identical(as.double(bins), as.double(s$settings$bins))) {
    # (the summary's bins are its own: another `bins` here was ignored in silence, 39% off at a peak)
    dpfda_abort(sprintf(paste("The summary was binned onto %s bins, not `bins` = %s: leave `bins` out (the",
                              "summary's are used) or summarise again with bins = %s."),
                        format(s$settings$bins), format(bins), format(bins)), arg = "bins")
  }
  list(at = if (d == 1L) kde_bins_at(s, bw, dom) else kde_kernel_at(s, bw), n = s$n, summary = s,
       privacy_unit = privacy_unit_points(s$n, s$unit, !is.null(s$counts)),
       bin_width = function(m) if (d == 1L) diff(dom) / (s$settings$bins - 1) else 0)
}

# The binned estimate at any 1-D points from a "kde" summary.
kde_bins_at <- function(s, bw, dom) {
  hh <- sqrt(bw$H[1, 1])
  delta_b <- diff(dom) / (s$settings$bins - 1)
  if (!is.finite(delta_b / hh) || !(delta_b / hh > 0)) {
    dpfda_abort("`bandwidth` is out of range for binning on this domain.", class = "dpfda_error_numeric",
                arg = "bandwidth")
  }
  function(p) {
    sums <- c_summary_kde(s$sums, as.double(p) / hh, dom[1] / hh, delta_b / hh)
    exp(bw$log_norm - log(s$n) + log(sums))
  }
}

# The estimate at the points of a "kde_kernel" summary (the grid, or the
# Bernstein lattice); other points are an error.
kde_kernel_at <- function(s, bw) {
  if (!isTRUE(all.equal(s$settings$H, bw$H))) {
    dpfda_abort("The summary was computed with another `bandwidth`.", arg = "bandwidth")
  }
  pts <- s$settings$points
  key <- function(p) do.call(paste, c(as.data.frame(matrix(sprintf("%.17g", p), nrow(p))), sep = "\r"))
  function(p) {
    i <- match(key(as_points(p, "grid")), key(pts))
    if (anyNA(i)) {
      dpfda_abort(paste("The summary holds kernel sums at other points: summarise with the grid, domain,",
                        "mechanism and `k` of this release."), arg = "x")
    }
    exp(bw$log_norm - log(s$n) + log(s$sums[i]))
  }
}

#' @rdname summarise_kde
#' @export
summarise_mortality <- function(x, age = "age", deaths = "deaths", group = "group", .query = FALSE, ...) {
  check_required("x")
  check_dot_names(dot_args(), character(), "summarise_mortality")   # (a misspelt option gets a classed error)
  age <- column_arg_names("age", x)
  deaths <- column_arg_names("deaths", x)
  group_if_present <- missing(group)   # (the default "group": summarise_mortality_impl() drops it where absent)
  group <- if (group_if_present) "group" else column_arg_names("group", x)
  warn_dropped_frame(summarise_mortality_impl(x, age, deaths, group, .query, group_if_present = group_if_present),
                     x, after = mortality_dropped_note)
}

# summarise_mortality() with column names (strings). group_if_present: `group` is the default
# name, used only where the data have such a column (one distribution otherwise), as a data
# frame in memory does, so that every source groups alike.
summarise_mortality_impl <- function(x, age = "age", deaths = "deaths", group = "group", .query = FALSE,
                                     group_if_present = FALSE, .chunk = FALSE) {
  have <- engine_names_or(x)   # (chunks: NULL, the names are checked chunk by chunk)
  if (group_if_present && !is.null(have) && !is.null(group) && !(group %in% have)) group <- NULL
  age <- engine_columns(age, have, "age", 1L)
  deaths <- engine_columns(deaths, have, "deaths", 1L)
  if (!is.null(group)) group <- engine_columns(group, have, "group", 1L)
  if (inherits(x, "dpfda_chunks")) {
    # a factor's level order, as in memory (chunks of a data frame listed its groups sorted, a data
    # frame in its levels' order): the levels are the schema, read from the first chunk, which
    # also settles a default `group` the chunks lack
    lv <- NULL
    first <- TRUE
    out <- chunks_reduce(x, function(d) {
      if (first && group_if_present && !is.null(group) && !(group %in% names(d))) group <<- NULL
      first <<- FALSE
      if (is.null(lv) && !is.null(group) && is.factor(d[[group]])) lv <<- levels(d[[group]])
      summarise_mortality_impl(d, age, deaths, group, .chunk = TRUE)
    })
    if (!is.null(lv)) out$settings$group_levels <- lv
    out <- mortality_check_groups(out)   # (a group's rows may lie in several chunks: checked on the whole)
    return(warn_dropped(out, after = mortality_dropped_note))
  }
  if (is_lazy_table(x)) {
    cols <- c(age = age, deaths = deaths, group = group)
    new <- c("age", "deaths", if (!is.null(group)) "grp")
    q <- lazy_select(x, cols, new, numeric = c("age", "deaths"), check = !.query)
    nn <- lazy_drop_null(q, new, check = !.query, finite = c("age", "deaths"), ids = if (!is.null(group)) "grp",
                         ids_by = "group", ids_who = "group")
    s <- sq_from(nn$q)   # (SQL written out: R/engine-sql.R)
    if (is.null(group)) s <- sq_mutate(s, list(grp = "'all'"))
    dd <- sq_id(s, "deaths")
    q <- sq_lazy(sq_summarise(s, c("grp", "age"), list(d = sprintf("SUM(%s)", dd),
                                                       neg = sprintf("SUM(CASE WHEN %s < 0 THEN 1.0 ELSE 0.0 END)", dd))))
    if (.query) return(q)
    res <- as.data.frame(engine_collect(q))
    if (any(res$neg > 0)) {
      dpfda_abort("`deaths` must be non-negative; the table has negative death counts.",
                  class = "dpfda_error_data", arg = "deaths")
    }
    abort_negative_age(sum(as.double(res$age) < 0), NULL)
    s <- mortality_table(res$grp, res$age, res$d)
    return(warn_dropped(new_dpfda_summary("mortality", s, nrow(s), nn$rows, nn$dropped, list()),
                        after = mortality_dropped_note))
  }
  if (!is.data.frame(x)) arg_error("x", "a data frame, database table or dp_chunks()", x)
  if (!is.null(group)) abort_missing_ids(sum(is.na(x[[group]])), nrow(x), "group", "group")
  cl <- frame_clean(x, c(age, deaths), group)
  d <- cl$data
  if (any(d[[deaths]] < 0)) {
    dpfda_abort("`deaths` must be non-negative; the data have negative death counts.",
                class = "dpfda_error_data", arg = "deaths")
  }
  abort_negative_age(sum(d[[age]] < 0), which(x[[age]] < 0)[1L])
  g <- if (is.null(group)) rep("all", nrow(d)) else d[[group]]
  s <- mortality_table(g, d[[age]], d[[deaths]])
  out <- new_dpfda_summary("mortality", s, nrow(s), cl$rows, cl$dropped, list(),
                           groups_seen = if (!is.null(group)) sort(unique(as.character(x[[group]]))))
  if (!.chunk) out <- mortality_check_groups(out)
  out
}

# Ages are non-negative: a negative one was refused later, by a message about the summary's own
# vector of every group's ages ("a double vector of length 1938" for 1919 rows). `k`: how many rows
# (or a table's (group, age) cells), `first`: the first row in memory (NULL on a table).
abort_negative_age <- function(k, first) {
  if (!(k > 0)) return(invisible(NULL))
  dpfda_abort(sprintf("`age` must be non-negative; %s %s%s of the data %s a negative age%s.", format(k, big.mark = ","),
                      if (is.null(first)) "(group, age) cell" else "row", if (k == 1) "" else "s",
                      if (k == 1) "holds" else "hold",
                      if (is.null(first)) "" else sprintf(" (first at row %d)", first)),
              class = "dpfda_error_data", arg = "age")
}

# A group none of whose rows is complete would vanish from the table (and from n, the public number
# of groups): refused (abort_vanished_individuals()). `groups_seen`: every group with a row, added
# over chunks by `+`.
mortality_check_groups <- function(s) {
  if (!is.null(s$groups_seen)) abort_vanished_individuals(length(s$groups_seen) - nrow(s$sums), "group", "group")
  s$groups_seen <- NULL
  s
}

# Deaths summed by (group, age) as a named group x age matrix.
mortality_table <- function(g, a, d) {
  g <- as.character(g)
  a <- as.double(a)
  lev <- sort(unique(g))
  ages <- sort(unique(a))
  out <- matrix(0, length(lev), length(ages), dimnames = list(lev, format_age(ages)))
  if (length(d)) {
    s <- tapply(as.double(d), list(factor(g, lev), factor(format_age(a), format_age(ages))), sum)
    s[is.na(s)] <- 0
    out[, ] <- s
  }
  out
}

# The mortality distributions of a summary (groups and ages sorted, as on
# every source).
mortality_from_summary <- function(s) {
  s <- check_summary(s, "mortality", "age")
  m <- s$sums
  ages <- as.double(colnames(m))
  grp <- rep(rownames(m), each = ncol(m))
  lv <- s$settings$group_levels
  if (!is.null(lv)) grp <- factor(grp, levels = c(intersect(lv, rownames(m)), setdiff(rownames(m), lv)))
  mortality_distribution(rep(ages, nrow(m)), as.vector(t(m)), grp)
}

# ---- KDE summaries beyond 1-D bins -------------------------------------------

# "kde_grid" (dp_kde(mechanism = "iclp" / "frl")): each point spread over the
# public (tensor) grid itself by (multi)linear binning, weights summing to one
# per record (1/r per row of an individual with r rows), exactly
# iclp_kde_bin() of R/mech-iclp-kde.R. The grid axes must be sorted.
summarise_kde_grid <- function(x, grid, domain, columns, id, .query, counts = NULL) {
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  axes <- kde_grid_axes(grid)
  dom <- kde_check_domain(as_domain(domain, grid))
  settings <- list(axes = axes, domain = dom)
  have <- engine_names_or(x)
  if (!is.null(id)) id <- engine_columns(id, have, "id", 1L)
  if (inherits(x, "dpfda_chunks")) {
    columns <- kde_columns(columns, NULL, d)
    return(warn_dropped(chunks_reduce(x, function(dd) summarise_kde_grid(dd, grid, dom, columns, id, FALSE, counts),
                                      id = id)))
  }
  if (is_lazy_table(x)) {
    return(summarise_kde_grid_lazy(x, axes, kde_columns(columns, have, d, c(id, counts)), id, settings, .query,
                                   counts))
  }
  fp <- kde_frame_points(x, d, columns, id, counts)
  wt <- if (!is.null(fp$counts)) fp$counts else if (is.null(fp$ids)) NULL else id_weights(fp$ids)
  p <- iclp_kde_bin(clamp_to_domain(fp$pts, dom), axes, as.vector(wt))
  n <- if (!is.null(fp$counts)) sum(fp$counts) else if (is.null(fp$ids)) nrow(fp$pts) else attr(wt, "n_ids")
  new_dpfda_summary("kde_grid", p, n, fp$rows, fp$dropped, settings, outside = points_outside(fp$pts, dom, fp$counts))
}

# Sorted axes of a 1-D grid or a sorted tensor grid (first axis fastest).
kde_grid_axes <- function(grid) {
  axes <- tensor_axes(grid)
  if (is.null(axes) || (!is.null(dim(grid)) && any(vapply(axes, is.unsorted, NA)))) {
    dpfda_abort("mechanism = \"iclp\" / \"frl\" needs a one-dimensional grid or a sorted tensor grid.",
                arg = "grid")
  }
  if (is.null(dim(grid))) list(sort(grid)) else axes
}

# In the engine: per axis, the interval index i_j and the fraction f_j in
# [0, 1] -- arithmetic (FLOOR) on a regular axis, CASE expressions on an
# irregular one, never a join (a join with a small table is a scan per row
# in SQLite) -- then the 2^d corner weights summed by cell. Only O(grid) sums
# come back.
summarise_kde_grid_lazy <- function(x, axes, columns, id, settings, .query, counts = NULL) {
  d <- length(axes)
  xn <- paste0("x", seq_len(d))
  nn <- lazy_weighted_points(x, columns, xn, id, counts, check = !.query)
  s <- sq_from(nn$q)   # (SQL written out: R/engine-sql.R)
  sizes <- lengths(axes)
  # clamping to the axis is clamping to the domain, then to the grid, as in memory; the points beyond
  # the domain counted in the same step (one level of nesting: SQLite's parser has a depth limit)
  dom <- matrix(settings$domain, nrow = 2L)
  xq <- vapply(xn, function(v) sq_id(s, v), "")
  clamps <- lapply(which(sizes > 1L), function(j) sq_clamp(s, xq[j], sq_lit(axes[[j]][1L]), sq_lit(axes[[j]][sizes[j]])))
  s <- sq_mutate(s, c(stats::setNames(clamps, xn[sizes > 1L]),
                      list(outside = sq_outside_flag(xq, dom[1L, ], dom[2L, ]))))
  for (j in seq_len(d)) {
    a <- axes[[j]]
    m <- length(a)
    ij <- paste0("i", j)
    fj <- paste0("f", j)
    if (m == 1L) {
      s <- sq_mutate(s, stats::setNames(list("0.0", "0.0"), c(ij, fj)))
      next
    }
    xj <- sq_id(s, xn[j])
    step <- (a[m] - a[1L]) / (m - 1)
    if (max(abs(diff(a) - step)) <= 1e-9 * step) {
      pos <- paste0("pos", j)
      s <- sq_mutate(s, stats::setNames(list(sprintf("(%s - %s) / %s", xj, sq_lit(a[1L]), sq_lit(step))), pos))
      s <- sq_mutate(s, stats::setNames(list(sq_least(s, sprintf("FLOOR(%s)", sq_id(s, pos)), sq_lit(m - 2))), ij))
      fr <- sprintf("%s - %s", sq_id(s, pos), sq_id(s, ij))
    } else {
      s <- sq_mutate(s, stats::setNames(list(sql_interval(s, xn[j], a[2:(m - 1L)])), ij))
      fr <- sql_axis_fraction(s, xn[j], a)
    }
    s <- sq_mutate(s, stats::setNames(list(sq_clamp(s, fr, "0.0", "1.0")), fj))
  }
  strides <- cumprod(c(1, sizes))[seq_len(d)]
  s <- sq_mutate(s, list(cell = paste(sprintf("%s * %s", sq_id(s, paste0("i", seq_len(d))), sq_lit(strides)),
                                      collapse = " + ")))
  corners <- kde_corners(sizes)
  wt <- sq_id(s, "wt")
  wcols <- lapply(seq_len(nrow(corners)), function(r) {
    fs <- vapply(seq_len(d), function(j) {
      fj <- sq_id(s, paste0("f", j))
      if (corners[r, j] == 1L) fj else sprintf("(1.0 - %s)", fj)
    }, "")
    sprintf("SUM(%s * %s)", wt, paste(fs, collapse = " * "))
  })
  names(wcols) <- paste0("w", seq_along(wcols))
  q <- sq_lazy(sq_summarise(s, "cell", c(wcols, list(cnt = sprintf("SUM(%s)", wt),
                                                    out = sq_flag_sum(sq_id(s, "outside"),
                                                                      if (!is.null(counts)) wt)))))
  if (.query) return(q)
  res <- engine_collect(q)
  p <- numeric(prod(sizes))
  cell <- as.double(res$cell)
  for (r in seq_len(nrow(corners))) {
    pos <- cell + sum(corners[r, ] * strides) + 1
    w <- as.double(res[[paste0("w", r)]])
    keep <- w != 0
    p[pos[keep]] <- p[pos[keep]] + w[keep]
  }
  n <- if (is.null(id)) sum(res$cnt) else round(sum(res$cnt))   # (an id's weights add to one: no 2nd scan)
  warn_dropped(new_dpfda_summary("kde_grid", p, n, nn$rows, nn$dropped, settings,
                                 outside = sum(plain_double(res$out))))
}

# CASE expression: the fraction (x - a_i) / (a_{i+1} - a_i) of `col` in its
# interval of the sorted axis `a` (the same intervals as sql_interval()).
sql_axis_fraction <- function(s, col, a) {
  qc <- sq_id(s, col)
  m <- length(a)
  frac <- sprintf("(%s - %s) / %s", qc, sql_num(a[-m]), sql_num(diff(a)))
  paste0("CASE ", paste(sprintf("WHEN %s < %s THEN %s", qc, sql_num(a[2:(m - 1L)]), frac[seq_len(m - 2L)]),
                        collapse = " "), " ELSE ", frac[m - 1L], " END")
}

# Corners {0, 1}^d of a cell (first axis fastest), without the upper corner
# of a one-point axis.
kde_corners <- function(sizes) {
  corners <- as.matrix(expand.grid(rep(list(0:1), length(sizes))))
  keep <- apply(corners, 1L, function(b) all(b == 0L | sizes > 1L))
  corners[keep, , drop = FALSE]
}

# "kde_kernel" (multi-dimensional "gp", "sobolev", "bernstein"): the Gaussian
# kernel sums sum_i K_H(t - x_i) at public points -- the grid, or the
# Bernstein lattice -- exactly what kde_gaussian() computes in memory in more
# than one dimension (it does not bin there). In a database one sum per point
# (the KME kernel-sum query of R/summary-kme.R): O(rows x points) work in the
# engine, O(points) back.
summarise_kde_kernel <- function(x, grid, bandwidth, domain, columns, id, mechanism, k, .query, counts = NULL) {
  d <- ncol(grid)
  bw <- as_bandwidth(bandwidth, d)
  dom <- kde_check_domain(as_domain(domain, grid))
  pts <- if (mechanism == "bernstein") kde_lattice(k, dom, d) else grid
  settings <- list(points = pts, domain = dom, H = bw$H)
  have <- engine_names_or(x)
  if (!is.null(id)) id <- engine_columns(id, have, "id", 1L)
  if (inherits(x, "dpfda_chunks")) {
    columns <- kde_columns(columns, NULL, d)
    return(warn_dropped(chunks_reduce(x, function(dd) {
      summarise_kde_kernel(dd, grid, bandwidth, dom, columns, id, mechanism, k, FALSE, counts)
    }, id = id)))
  }
  if (is_lazy_table(x)) {
    return(summarise_kme_lazy(x, bw$kernel, "subspace", pts, NULL, dom, kde_columns(columns, have, d, c(id, counts)),
                              id, "kde_kernel", settings, .query, counts = counts))
  }
  fp <- kde_frame_points(x, d, columns, id, counts)
  xs <- clamp_to_domain(fp$pts, dom)
  sums <- if (!is.null(fp$counts)) as.vector(kernel_matrix(bw$kernel, pts, xs) %*% fp$counts) else
    if (is.null(fp$ids)) c_kde_sum(bw$scale(xs), bw$scale(pts)) else
    as.vector(kernel_matrix(bw$kernel, pts, xs) %*% id_weights(fp$ids))
  n <- if (!is.null(fp$counts)) sum(fp$counts) else if (is.null(fp$ids)) nrow(xs) else length(unique(fp$ids))
  new_dpfda_summary("kde_kernel", sums, n, fp$rows, fp$dropped, settings,
                    outside = points_outside(fp$pts, dom, fp$counts))
}

# The Bernstein lattice of dp_kde(mechanism = "bernstein") on the domain box.
kde_lattice <- function(k, dom, d) {
  k <- check_bernstein_k(k, d)
  bernstein_lattice(rep_len(k, d), bernstein_domain(dom, d))
}

# `columns`: one existing column per dimension of the grid. Not given: the
# columns of a table or data frame other than the id, when there are exactly
# d (the rule for data frames in memory, so a one-column table needs no
# `columns`); chunks (`have` NULL) must name them.
kde_columns <- function(columns, have, d, id = NULL) {
  if (is.null(columns) && !is.null(have) && length(setdiff(have, id)) == d) columns <- setdiff(have, id)
  if (is.character(columns) && length(columns) != d) {
    dpfda_abort(sprintf("`columns` must name %d column%s, one per dimension of the grid, not %d.", d,
                        if (d == 1L) "" else "s", length(columns)), arg = "columns")
  }
  engine_columns(columns, have, "columns", d)
}

# Points, ids, rows and dropped rows of an in-memory input: a vector or
# matrix, or a data frame with `columns` (rows with missing values dropped).
kde_frame_points <- function(x, d, columns, id, counts = NULL) {
  if (!is.data.frame(x)) {
    pts <- as_points(x, "x", d = d)
    return(list(pts = pts, ids = NULL, rows = nrow(pts), dropped = 0))
  }
  columns <- kde_columns(columns, names(x), d, c(id, counts))
  cl <- frame_clean_points(x, c(columns, counts), id)
  pts <- matrix(as.double(unlist(cl$data[columns], use.names = FALSE)), nrow(cl$data), d)
  list(pts = pts, ids = if (!is.null(id)) cl$data[[id]], rows = cl$rows, dropped = cl$dropped,
       counts = if (!is.null(counts)) check_count_values(cl$data[[counts]]))
}

# Row weights 1/r for an individual with r rows (ids compared by value, as an
# engine's GROUP BY does; match() and tabulate() are linear, table() is not).
id_weights <- function(ids) {
  # small positive integer ids (the codes of point_units()) index the counts directly
  i <- if (is.integer(ids) && length(ids) && min(ids) >= 1L && max(ids) <= 2 * length(ids)) ids else
    match(ids, unique(ids))
  cnt <- tabulate(i)
  if (!all(cnt > 0)) {   # (codes with gaps: the ids present, numbered 1..n)
    i <- cumsum(cnt > 0)[i]
    cnt <- cnt[cnt > 0]
  }
  structure((1 / cnt)[i], n_ids = length(cnt))   # (the number of individuals, without another unique())
}

# The number of points (rows of `pts`) outside the box `dom` (c(lower, upper),
# or 2 x d): those a density clamps to it (dp_kde() says so when there are
# many, on every source).
points_outside <- function(pts, dom, counts = NULL) {
  dm <- matrix(dom, nrow = 2L)
  pts <- matrix(pts, ncol = ncol(dm))
  out <- rowSums(pts < rep(dm[1L, ], each = nrow(pts)) | pts > rep(dm[2L, ], each = nrow(pts))) > 0
  as.double(if (is.null(counts)) sum(out) else sum(counts[out]))   # (with counts: the records)
}

# In the engine, the same count: a 0/1 flag per row, before the clamping
# (`cols`: the quoted columns, one per axis), and its sum in one dimension.
sq_outside_flag <- function(cols, lo, hi) {
  sprintf("CASE WHEN %s THEN 1.0 ELSE 0.0 END",
          paste(sprintf("%s < %s OR %s > %s", cols, vapply(lo, sq_lit, ""), cols, vapply(hi, sq_lit, "")),
                collapse = " OR "))
}
sq_outside_sum <- function(col, lo, hi, wt = NULL) sq_flag_sum(sq_outside_flag(col, lo, hi), wt)
