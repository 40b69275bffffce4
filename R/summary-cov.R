# Covariance summary (dp_cov()): the clipped basis coefficients a_i of each
# individual's curve, summed (for the centring) and summed as outer products
# a_i a_i^T. A database computes the per-individual clipped curves as for
# the mean (R/summary-mean.R), projects them on the public basis, and
# returns J + J^2 numbers: never O(rows), never O(grid^2).

#' Summary for private covariance functions
#'
#' What [dp_cov()] needs from the data: with \eqn{a_i} the coefficients of
#' individual \eqn{i}'s clipped curve in the [kl_basis()] of `kernel` on the
#' public grid (\eqn{a_i = V^\top W X_i}), the sum \eqn{\sum_i a_i} and the
#' sum of outer products \eqn{\sum_i a_i a_i^\top}, with the number of
#' individuals. The clipping is that of [summarise_mean()] with `clip =
#' "l2"` (radial, weighted \eqn{L^2} norm, quadrature weights of the basis),
#' so \eqn{\|a_i\| \le \tau} however many rows an individual has.
#'
#' **From long data** (a data frame, database table or [dp_chunks()] with
#' columns `id`, `arg`, `value`), each individual's curve is built as in
#' [summarise_mean()]: arguments snapped to the nearest grid point (rows
#' beyond the grid's reach left out, with a warning), rows at one grid point averaged, a grid point
#' without any row counted as 0 (reported as `missing_cells`, which
#' [dp_cov()] refuses when it is not 0), rows with a
#' missing value in `id`, `arg` or `value` dropped and counted (an
#' individual none of whose rows is left counted with no row, as in
#' [summarise_mean()]). In a database
#' the engine does all of this, the projection on the basis (a join with the
#' public `m x J` projection matrix) and the sums; `J + J^2` numbers come
#' back (the sums of products in blocks of at most 500 per query, for
#' backends that limit the number of columns).
#'
#' @param x Curves on a one-dimensional grid, a long data frame, a database
#'   table (dbplyr) or [dp_chunks()]; or a data frame whose curves are a
#'   matrix column (as in [summarise_mean()]).
#' @param grid Public grid (one-dimensional); for curves, their grid.
#' @param tau Public clipping bound (weighted \eqn{L^2} norm).
#' @param kernel The kernel of the basis (default as in [dp_cov()]: Matern
#'   3/2 with lengthscale 0.1 times the width of the grid).
#' @param J `NULL` (all positive eigenvalues, at most as many as [dp_cov()]
#'   allows on the grid: the same default) or the number of basis
#'   components.
#' @param id,arg,value Column names (strings or bare names, as in [as_curves()]:
#'   `id = Subject`).
#' @param .query Internal: return the lazy query instead of running it.
#' @param center A public reference curve subtracted before clipping (see
#'   [summarise_mean()]); [dp_cov()] checks it against its own `center`.
#' @param unit The privacy unit when one person has several curves (see
#'   [dp_mean()]): a column of a data frame, table or chunks (each unit's
#'   rows together), or one entry per curve for curves. Each unit contributes the
#'   mean of its curves' clipped coefficients and the mean of their outer
#'   products (norms at most \eqn{\tau} and \eqn{\tau^2}, as one curve's),
#'   and `n` counts units. `NULL`: every curve is its own unit.
#' @param incomplete `"zero"` (default): a grid point without any row of an
#'   individual counts as 0 (reported in `missing_cells`, which [dp_cov()]
#'   refuses); `"drop"`: an individual (unit) without a row at every grid point
#'   contributes nothing and is counted in `incomplete_n`, `n` still counting
#'   it, as in [summarise_mean()] (for [dp_cov()] with `incomplete = "drop"`).
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return A [dpfda_summary] (kind `"cov"`): `sums` is the `J x (J + 1)`
#'   matrix `cbind(sum of a_i, sum of a_i a_i^T)`.
#' @examples
#' t <- seq(0, 1, length.out = 15)
#' x <- curves(outer(rnorm(400), sin(pi * t)) / 2, t)
#' k <- kernel_matern(3/2, 0.2)
#' s <- summarise_cov(as.data.frame(x), grid = t, tau = 1, kernel = k, J = 5)
#' all.equal(s$sums, summarise_cov(x, tau = 1, kernel = k, J = 5)$sums)
#' dp_cov(s, epsilon = 1, tau = 1, kernel = k, J = 5)
#' @export
summarise_cov <- function(x, grid = NULL, tau, kernel = NULL, J = NULL, id = "id", arg = "arg", value = "value",
                          .query = FALSE, center = NULL, unit = NULL, incomplete = c("zero", "drop"), ...) {
  check_required(c("x", "tau"))
  check_dot_names(dot_args(), character(), "summarise_cov")   # (a misspelt option gets a classed error)
  incomplete <- check_choice(incomplete, c("zero", "drop"), "incomplete")
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e75)
  mf <- summary_matrix_frame(x, grid, incomplete)   # a matrix column of curves, and the units of their rows
  if (!is.null(mf)) {
    x <- mf$curves
    unit <- mf$unit
  }
  if (is.null(grid) && is.null(mf) && is_lazy_table(x)) {   # (with the argument column's values, as dp_cov())
    abort_grid_required("the public grid of the curves", table_grid_hint(x, column_arg_names("arg", x)))
  }
  grid <- cov_summary_grid(x, grid)
  if (is.null(kernel)) kernel <- default_mech_kernel(range(grid))
  check_kernel(kernel)
  if (!is.null(J)) J <- check_count(J, "J", min = 1, max = length(grid))
  basis <- cov_basis(kernel, grid, J)
  # (a matrix or tf column's curves need no column names: evaluating `value = cca` a second time
  # gave R's "restarting interrupted promise evaluation" warning)
  cols <- list(id = "id", arg = "arg", value = "value")
  if (is.null(mf)) {
    cols <- list(id = column_arg_names("id", x), arg = column_arg_names("arg", x), value = column_arg_names("value", x))
  }
  if (is.null(mf) && !inherits(x, "dpfda_curves")) unit <- column_arg_names("unit", x, NULL)
  if (is.null(mf) && inherits(x, "dpfda_curves") && !is.null(unit)) unit <- with_unit_label(unit, substitute(unit))
  s <- summarise_cov_basis(x, basis, tau, cols$id, cols$arg, cols$value, .query, center, unit, incomplete)
  if (is.null(mf)) warn_dropped_frame(s, x) else s
}

# The public grid of a covariance summary: that of curves, or `grid`.
cov_summary_grid <- function(x, grid) {
  if (inherits(x, "dpfda_curves") && x$dim != 1L) {
    dpfda_abort("`x` must hold curves on a one-dimensional grid.", arg = "x")
  }
  summary_grid_1d(x, grid, "Covariances")
}

# The summary on a given basis (shared by summarise_cov() and dp_cov()).
summarise_cov_basis <- function(x, basis, tau, id, arg, value, .query = FALSE, center = NULL, unit = NULL,
                                incomplete = "zero") {
  grid <- as.double(basis$grid)
  m <- length(grid)
  # a_i = X_i %*% P: the kernel basis's coefficients of the L2-clipped curve (kl_coef()), or a given
  # projection of the curve clamped at every point (the Bernstein band, R/population-band-bernstein.R)
  P <- basis$projection %||% (basis$weights * basis$vectors)
  clip <- basis$clip %||% "l2"
  settings <- list(grid = grid, weights = as.double(basis$weights), tau = tau, clip = clip, projection = P)
  if (!is.null(center)) settings$center <- center_values(center, grid)   # a public centre, subtracted first
  # incomplete = "drop": an individual without a row at every grid point contributes a_i = 0 and is
  # counted in `incomplete_n` (the rule of summarise_mean())
  if (incomplete == "drop") settings$incomplete <- "drop"
  # each curve's coefficients a_i with weight wt_i (1, or 1 / the curves of its unit, so that a unit adds
  # the mean of its a_i and the mean of its a_i a_i^T)
  # (sum_i w_i a_i a_i' as crossprod(sqrt(w) A): the symmetric product, half the work of crossprod(A * w, A))
  cov_sums <- function(A, wt = NULL) if (is.null(wt)) cbind(colSums(A), crossprod(A)) else
    cbind(as.vector(crossprod(A, wt)), crossprod(A * sqrt(wt)))
  if (inherits(x, "dpfda_curves")) {
    x <- check_curves_data(x)   # never trust the class: a hand-edited curve may hold NaN
    V <- if (is.null(settings$center)) x$values else x$values - rep(settings$center, each = nrow(x$values))
    A <- (if (clip == "l2") clip_curves_l2(V, basis$weights, tau) else pmin(pmax(V, -tau), tau)) %*% P
    k <- if (incomplete == "drop") length(x$dropped) else 0   # curves as_curves(incomplete = "drop") left out
    if (!is.null(unit)) {
      u <- curve_units(unit, nrow(A))
      du <- if (incomplete == "drop") attr(unit, "dropped_units", exact = TRUE)
      k_u <- units_without_complete(unit, du)
      return(new_dpfda_summary("cov", cov_sums(A, 1 / tabulate(u$index)[u$index]), u$n + k_u, nrow(A) * m, 0,
                               settings, missing_cells = 0, unit = attr(unit, "name", exact = TRUE) %||% "unit",
                               curves = nrow(A) + length(du), incomplete_n = k_u))
    }
    return(new_dpfda_summary("cov", cov_sums(A), nrow(A) + k, nrow(A) * m, 0, settings, missing_cells = 0,
                             incomplete_n = k))
  }
  have <- engine_names_or(x)   # (chunks: NULL, the names are checked chunk by chunk)
  id <- engine_columns(id, have, "id", 1L)
  arg <- engine_columns(arg, have, "arg", 1L)
  value <- engine_columns(value, have, "value", 1L)
  if (inherits(x, "dpfda_chunks")) {
    return(warn_dropped(chunks_reduce(x, function(d) summarise_cov_basis(d, basis, tau, id, arg, value,
                                                                         center = settings$center, unit = unit,
                                                                         incomplete = incomplete),
                                      id = if (is.null(unit)) id else unit_id(unit), fill_by = if (!is.null(unit)) id)))
  }
  if (is_lazy_table(x)) return(summarise_cov_lazy(x, basis, tau, id, arg, value, settings, .query, unit))
  if (!is.data.frame(x)) {
    arg_error("x", paste("curves (as_curves(x, grid = ) converts a matrix, a tfd or an fd), a long data frame, a",
                         "database table or dp_chunks()"), x)
  }
  cells <- frame_clipped_cells(x, grid, tau, basis$weights, clip, id, arg, value, settings$center, incomplete,
                               unit = unit)
  A <- rowsum(cells$contrib * P[cells$k + 1L, , drop = FALSE], cells$i, reorder = TRUE)
  if (!nrow(A)) A <- matrix(0, 0L, ncol(P))
  missing <- (cells$n - cells$incomplete_n) * m - length(cells$contrib)
  if (!is.null(unit)) {   # the weight of each curve (row of A, sorted by curve index)
    wt <- cells$weight[match(as.double(rownames(A)), cells$i)]
    return(with_beyond(new_dpfda_summary("cov", cov_sums(A, wt), cells$n_units %||% 0, cells$rows, cells$dropped,
                                         settings, missing_cells = missing, unit = unit, curves = as.double(cells$n),
                                         incomplete_n = as.double(cells$incomplete_units %||% 0)), cells$beyond))
  }
  with_beyond(new_dpfda_summary("cov", cov_sums(A), cells$n, cells$rows, cells$dropped, settings,
                                missing_cells = missing, incomplete_n = cells$incomplete_n), cells$beyond)
}

# The coefficients a_ij = sum_k P[k + 1, j] c_ik of each curve (cells c_ik
# at grid index k), as SQL aggregates to stand in the SELECT that groups the
# cells q by curve; `s` is that query in progress (R/engine-sql.R). Three
# ways, by engine and shape:
# * SQLite, m <= 5 J: the cells pivoted by grid index, SUM(CASE WHEN k = K
#   THEN c ELSE 0 END), combined with P. SQLite shares identical aggregates of
#   one SELECT, so the J sums reuse the m pivots, and each cell's c (the
#   clipped value, an expression of the subquery) is computed once, in the
#   matching branch.
# * SQLite otherwise: a CASE tree per component giving P[k, j]
#   (sql_lookup_tree(), about log2(m) comparisons), then SUM(c * p_j), which
#   computes c J times. (A join with an inline table of P ran as a scan of its
#   m rows for every cell: 1e6 cells, m = 50, J = 8, 1.5 times the time of the
#   whole mean summary.) On 1e5 cells the pivot costs about 6 ms per grid point
#   and the tree 35 ms per component: m = 50, J = 50 (dp_cov's default
#   J) 2.3 -> 1.1 s; m = 200, J = 4 the tree 0.4 s, the pivot 1.1 s.
# * Other engines: a join with the inline table, which they hash (PostgreSQL,
#   m = 50, J = 50: 1.0-1.2 s against 1.6 s for the pivot).
# Returns the query to group (with the columns p1, ..., pJ joined, or not) and
# the J aggregates.
sql_cell_projection <- function(q, P) {
  s <- sq_from(q)
  m <- nrow(P)
  J <- ncol(P)
  if (inherits(s$con, "SQLiteConnection") && m <= 5L * J) {
    piv <- sprintf("SUM(CASE WHEN %s = %d THEN %s ELSE 0 END)", sq_id(s, "k"), seq_len(m) - 1L, sq_id(s, "c"))
    return(list(s = s, sums = vapply(seq_len(J), function(j) {
      nz <- P[, j] != 0
      sql_sum_nested(sprintf("%s * %s", piv[nz], sql_num(P[nz, j])))
    }, "")))
  }
  if (inherits(s$con, "SQLiteConnection")) {
    k <- sq_id(s, "k")
    cols <- lapply(seq_len(J), function(j) sql_lookup_tree(k, P[, j], 0L))
    s <- sq_mutate(s, stats::setNames(cols, paste0("p", seq_len(J))))
  } else {
    pub <- data.frame(k = as.double(seq_len(m) - 1L), P)
    names(pub) <- c("k", paste0("p", seq_len(J)))
    s <- sq_join(s, sq_from(lazy_inline(q, pub)), "k", names(pub)[-1L], "INNER")
  }
  list(s = s, sums = sprintf("SUM(%s * %s)", sq_id(s, "c"), sq_id(s, paste0("p", seq_len(J)))))
}

# The sum of SQL terms as nested halves ((a + b) + (c + d)): depth log2 of
# their number, where a + b + c + ... is as deep as it is long (SQLite
# refuses an expression deeper than 1000).
sql_sum_nested <- function(terms) {
  n <- length(terms)
  if (!n) return("0.0")
  if (n <= 8L) return(paste0("(", paste(terms, collapse = " + "), ")"))
  h <- n %/% 2L
  paste0("(", sql_sum_nested(terms[seq_len(h)]), " + ", sql_sum_nested(terms[-seq_len(h)]), ")")
}

summarise_cov_lazy <- function(x, basis, tau, id, arg, value, settings, .query, unit = NULL) {
  grid <- settings$grid
  m <- length(grid)
  P <- settings$projection
  Jb <- ncol(P)
  drop <- identical(settings$incomplete, "drop")
  cells <- lazy_clipped_cells(x, grid, tau, settings$weights, settings$clip, id, arg, value, .query, settings$center,
                              if (drop) "drop" else "zero", unit = unit)
  # each curve's coefficients on the public projection matrix P (SQL written out: R/engine-sql.R;
  # dbplyr's translation of the J (J + 1) / 2 sums below took 1.4 of the 2.6 s of a call on a table
  # of 200 rows, J = 20)
  pr <- sql_cell_projection(cells$q, P)
  s <- pr$s
  id_ <- function(nm) sq_id(s, nm)
  a_ <- id_(paste0("a", seq_len(Jb)))
  s <- sq_summarise(s, c("id", if (!is.null(unit)) "u"),   # (one unit per curve: checked below)
                    c(stats::setNames(as.list(pr$sums), paste0("a", seq_len(Jb))), list(cells = "COUNT(*)")))
  # the weight of each curve: 1, or 1 / the curves of its unit (a unit adds the mean of its a_i and of
  # its a_i a_i^T): a window over the per-curve rows (no second pass over the cells, no join)
  wt <- ""
  if (!is.null(unit)) {
    nc <- sprintf("COUNT(*) OVER (PARTITION BY %s)", id_("u"))
    s <- sq_mutate(s, list(wt = paste0("1.0 / ", sql_double(s$con, nc))))
    wt <- paste0(" * ", id_("wt"))
  }
  # per-individual coefficient vectors -> their sums and sums of products (SUM skips NULL)
  pairs <- which(upper.tri(diag(Jb), diag = TRUE), arr.ind = TRUE)
  prods <- as.list(sprintf("SUM(%s * %s%s)", a_[pairs[, 1L]], a_[pairs[, 2L]], wt))
  names(prods) <- sprintf("q%d_%d", pairs[, 1L], pairs[, 2L])
  first <- c(list(n = "COUNT(*)", cells = sprintf("SUM(%s)", id_("cells"))),
             if (!is.null(unit)) list(nu = sprintf("SUM(%s)", id_("wt")), nid = sprintf("COUNT(DISTINCT %s)", id_("id"))),
             stats::setNames(as.list(sprintf("SUM(%s%s)", a_, wt)), paste0("s", seq_len(Jb))))
  block <- sq_max_columns(s$con) - length(first)
  blocks <- split(seq_along(prods), ceiling(seq_along(prods) / block))
  agg <- function(e) sq_lazy(sq_summarise(s, character(), e))
  if (.query) return(agg(c(first, prods[blocks[[1L]]])))
  res <- as.list(engine_collect(agg(c(first, prods[blocks[[1L]]]))))
  for (b in blocks[-1L]) res <- c(res, as.list(engine_collect(agg(prods[b]))))
  n <- as.double(res$n)
  nn <- cells$nn
  if (!is.null(unit) && n > 0 && as.double(res$nid) != n) {   # a curve (id) in two units: two rows
    abort_curve_in_two_units()
  }
  # every individual counts, those with no complete row too (no cell: incomplete, or with "zero"
  # missing cells; with a unit and "zero" lazy_drop_null() refused them)
  if (drop) {   # the incomplete individuals (units) count, with no contribution
    n_all <- if (is.null(unit)) nn$n_ids else
      nn$n_units %||% lazy_n_distinct(nn$q, "u")
    n_done <- if (is.null(unit)) n else
      lazy_n_distinct(cells$q, "u")
    if (!(n > 0)) {
      return(warn_dropped(with_beyond(new_dpfda_summary("cov", matrix(0, Jb, Jb + 1L), n_all, nn$rows, nn$dropped,
                                                        settings, missing_cells = 0, incomplete_n = n_all),
                                      nn$beyond)))
    }
  }
  if (!(n > 0)) {
    return(warn_dropped(with_beyond(new_dpfda_summary("cov", matrix(0, Jb, Jb + 1L), nn$n_ids, nn$rows, nn$dropped,
                                                      settings, missing_cells = nn$n_ids * m), nn$beyond)))
  }
  S1 <- vapply(seq_len(Jb), function(j) as.double(res[[paste0("s", j)]]), 1)
  S2 <- matrix(0, Jb, Jb)
  S2[pairs] <- vapply(names(prods), function(nm) as.double(res[[nm]]), 1)
  S2[pairs[, 2:1, drop = FALSE]] <- S2[pairs]
  if (!is.null(unit)) {   # n counts units: the weights of a unit's curves add to one
    out <- new_dpfda_summary("cov", cbind(S1, S2, deparse.level = 0), round(as.double(res$nu)),
                             nn$rows, nn$dropped, settings, missing_cells = n * m - as.double(res$cells),
                             unit = unit, curves = n)
    if (drop) {
      out$n <- n_all
      out$incomplete_n <- n_all - n_done
      out$curves <- nn$n_ids
    }
    return(warn_dropped(with_beyond(out, nn$beyond)))
  }
  out <- new_dpfda_summary("cov", cbind(S1, S2, deparse.level = 0), nn$n_ids, nn$rows, nn$dropped, settings,
                           missing_cells = (if (drop) n else nn$n_ids) * m - as.double(res$cells), incomplete_n = 0)
  if (drop) {
    out$n <- n_all
    out$incomplete_n <- n_all - n
  }
  warn_dropped(with_beyond(out, nn$beyond))
}

# The tensor basis holds m^2 J^2 doubles: refuse sizes dpfda does not allow
# (checked before any summary is computed).
# The basis of a covariance release (dp_cov(), summarise_cov(), dp_accuracy("cov")): `J`
# components per argument, or with J = NULL every component of the kernel on the grid, at most as
# many as the size limit below allows (57 for 100 grid points: the default failed there, and the
# components beyond are shrunk to almost nothing by the QR smoothing anyway). Depends on the
# public kernel and grid only.
cov_basis <- function(kernel, grid, J = NULL) {
  m <- length(grid)
  basis <- kl_basis(kernel, grid, J = J)
  if (is.null(J) && as.double(m)^2 * basis$J^2 > 2^25) basis <- kl_basis(kernel, grid, J = cov_max_J(m))
  cov_check_size(m, basis$J)
  basis
}

# The most components per argument the size limit allows on m grid points.
cov_max_J <- function(m) max(1L, as.integer(floor(sqrt(2^25) / m)))

cov_check_size <- function(m, Jb) {
  if (as.double(m)^2 * Jb^2 > 2^25) {
    jfit <- cov_max_J(m)
    dpfda_abort(sprintf(paste("The tensor basis of the covariance would need %s doubles (%d grid points, J = %d",
                              "components per argument), more than dpfda allows (%s). Give J = %d or fewer",
                              "(e.g. J = %d), or a coarser grid%s."),
                        format(as.double(m)^2 * Jb^2, big.mark = ",", scientific = FALSE), m, Jb,
                        format(2^25, big.mark = ","), jfit, min(jfit, 10L),
                        if (jfit < 5L) sprintf(" (at most %d points for J = 10)", floor(sqrt(2^25) / 10)) else ""),
                class = "dpfda_error_numeric", arg = "J")
  }
  invisible()
}

# The data of dp_cov(), from any source: curves in memory (with the options
# of as_curves() from `...`), or a long table, chunks or a covariance summary
# (column names from `...`). As mean_source().
cov_source <- function(x, dots, grid, unit = NULL, incomplete = "error") {
  if (is.data.frame(x)) dots <- resolve_column_opts(dots, x, intersect(names(dots), c("id", "arg", "value")))
  if (long_frame_on_grid(x, dots, grid)) {   # the rule of tables (see mean_source())
    x <- structure(list(frame = x), class = "dpfda_long_frame")
    dots$na.rm <- NULL
    dots$restrict <- NULL
  }
  if (!is_engine_input(x) && !inherits(x, "dpfda_long_frame")) {
    frame <- if (is.data.frame(x)) as.data.frame(x)
    if (!is.null(frame)) dots <- resolve_column_opts(dots, x, intersect(names(dots), c("id", "arg", "value")))
    x <- mech_curves_with_options(wide_frame_drop_unit(x, unit, dots), grid, dots, "dp_cov", incomplete)
    if (x$dim != 1L) dpfda_abort("`x` must hold curves on a one-dimensional grid.", arg = "x")
    units <- memory_units(unit, x, frame, dots)
    refuse_dropped_curves(x, incomplete, "dp_cov", units)
    return(list(curves = x, data = NULL, cols = list(), grid = x$grid, domain = x$domain, unit = units))
  }
  if (inherits(x, "dpfda_long_frame")) x <- x$frame
  eng <- resolve_column_opts(dots, x, c("id", "arg", "value"))
  if (length(eng) && (is.null(names(eng)) || any(!nzchar(names(eng))))) {
    abort_unnamed_dots()
  }
  bad <- setdiff(names(eng), c("id", "arg", "value"))
  if (length(bad) && bad[1L] %in% memory_curve_options) abort_memory_option(bad[1L])
  if (length(bad)) {
    dpfda_abort(sprintf("`%s` is not an argument of dp_cov() on a table (give id, arg, value); see ?dp_cov.",
                        bad[1L]), arg = bad[1L])
  }
  if (inherits(x, "dpfda_summary")) {
    s <- check_summary(x, "cov")
    if (!is.null(grid) && !isTRUE(all.equal(sort(as.double(grid)), s$settings$grid))) {
      dpfda_abort("`grid` must be the grid of the summary `x` (or NULL).", arg = "grid")
    }
    grid <- s$settings$grid
  } else {
    if (is.null(grid)) abort_grid_required("the public grid of the curves", table_grid_hint(x, eng$arg %||% "arg"))
    grid <- cov_summary_grid(NULL, grid)
  }
  if (!is.null(unit)) {
    if (inherits(x, "dpfda_summary")) {
      dpfda_abort("`unit` is for data; a summary has its unit already (give `unit` to summarise_cov()).",
                  arg = "unit")
    }
    eng$unit <- column_names(unit, engine_names_or(x), "unit")
  }
  list(curves = NULL, data = x, cols = eng, grid = grid, domain = range(grid))
}

# The covariance summary of dp_cov()'s source on the release's basis:
# computed, or given and checked against the settings of this release.
cov_summary <- function(src, basis, tau, center, incomplete = "error") {
  if (inherits(src$data, "dpfda_summary")) {
    s <- check_summary(src$data, "cov")
    if (!isTRUE(all.equal(s$settings$tau, tau))) {
      dpfda_abort(sprintf("The summary was clipped with tau = %s; this release needs tau = %s.",
                          format(s$settings$tau), format(tau)), arg = "x")
    }
    P <- basis$weights * basis$vectors
    if (!identical(dim(P), dim(s$settings$projection)) ||
        !isTRUE(all.equal(P, s$settings$projection, tolerance = 1e-8))) {
      dpfda_abort(paste("The summary was computed on another basis (kernel, J or grid) than this release;",
                        "give dp_cov() the `kernel` and `J` of summarise_cov()."), arg = "x")
    }
    if (!isTRUE(all.equal(s$settings$center, center))) {
      abort_summary_center("summarise_cov")
    }
    if (incomplete == "drop" && !identical(s$settings$incomplete, "drop")) {
      dpfda_abort("incomplete = \"drop\" needs a summary computed with summarise_cov(incomplete = \"drop\").",
                  arg = "incomplete")
    }
  } else {
    data <- if (!is.null(src$curves)) src$curves else src$data
    s <- summarise_cov_basis(data, basis, tau, src$cols$id %||% "id", src$cols$arg %||% "arg",
                             src$cols$value %||% "value", center = center, unit = src$unit %||% src$cols$unit,
                             incomplete = if (incomplete == "drop") "drop" else "zero")
    s <- warn_dropped_frame(s, data)
  }
  s <- check_summary(s, "cov")
  if (incomplete == "error") refuse_missing_cells(s, src = src) else s
}
