# Functional-mean summary: the sum over individuals of each individual's
# clipped curve on the public grid (dp_mean()). The basis coefficients of the
# mean are linear in this sum, so a database computes O(grid) numbers.

#' Summary for private functional means
#'
#' The sum over individuals of their clipped curves on a public grid, with
#' the number of individuals: everything [dp_mean()] needs. Each
#' individual's curve is clipped to `tau` (radially in the weighted
#' \eqn{L^2} norm \eqn{\|X\|_W^2 = \sum_k w_k X(t_k)^2}, or pointwise to
#' \eqn{[-\tau, \tau]} with `clip = "sup"`, the Bernstein rule) before the
#' sum, so one individual moves the sum by a bounded amount however many rows
#' they have.
#'
#' **From long data** (a data frame, database table or [dp_chunks()] with
#' columns `id`, `arg`, `value`): each row's argument is snapped to the
#' nearest grid point (a row more than half a grid step beyond the grid's
#' first or last point is near none: it is left out, counted in the
#' summary's `beyond` and said in a warning of class `dpfda_warning_data`;
#' it was counted at the end point); the rows of one individual at
#' the same grid point are averaged; the individual's curve is those values,
#' clipped. A grid point without any row of an individual counts as 0 in the
#' curve and in its norm (the summary reports the number of such
#' `missing_cells`; [dp_mean()] refuses a summary where it is not 0, as it
#' refuses curves that do not cover the grid in memory, unless `incomplete =
#' "drop"`). In a database all of this (clamping,
#' snapping, averaging, norms, clipping and the sums) runs in the engine, and
#' only `length(grid)` sums come back. A row with a missing `id` is refused
#' (`dpfda_error_data`: which individual it belongs to is unknown, and
#' dropping it could make an individual vanish); rows with a missing value in
#' `arg` or `value` are dropped and counted; an individual none of whose
#' rows is left stays in `n` (dropping it would make whether its values are
#' missing public), with no row at any grid point: `m` missing cells, or
#' with `incomplete = "drop"` one incomplete individual. With `unit` and
#' `incomplete = "zero"` such an individual is refused (`dpfda_error_data`;
#' it would be a curve of zeros in its unit's mean), and so is one with no
#' row that names its unit.
#'
#' A [curves()] object is summarised in memory, and gives the same sums as
#' its long form (`as.data.frame()`) on the same grid. [dp_mean()],
#' [dp_cov()] and [pcv_select()] apply this rule to a long data frame in
#' memory too (unless asked to interpolate with `method =`), so the place
#' where the data are stored does not change the release.
#'
#' @param x Curves, a long data frame, a database table (dbplyr) or
#'   [dp_chunks()]; or a data frame whose curves are a matrix column, one per
#'   row ([dti_cca]'s layout, see [as_curves()]; `grid` gives its columns'
#'   arguments, `unit` may name a column, and a row with a missing value is
#'   refused or, with `incomplete = "drop"`, left out and counted with no
#'   contribution).
#' @param grid Public grid (one-dimensional); for curves, their grid.
#' @param tau Public clipping bound.
#' @param weights Quadrature weights of the norm (default: the trapezoid
#'   weights of the grid, as in [kl_basis()]).
#' @param clip `"l2"` (radial, weighted \eqn{L^2}) or `"sup"` (pointwise).
#' @param id,arg,value Column names (strings or bare names, as in [as_curves()]:
#'   `id = Subject`).
#' @param .query Internal: return the lazy query instead of running it.
#' @param unit The privacy unit when one person has several curves: a
#'   column (string or bare name) of a long data frame, table or chunks
#'   (each unit's rows together), or one entry per curve for a curves object. Each
#'   unit contributes the mean of its clipped curves; `n` counts units and
#'   `curves` the curves (see [dp_mean()]). With `incomplete = "drop"` the
#'   incomplete curves are dropped first: a unit is the mean of its complete
#'   curves, and `incomplete_n` counts the units left with none. On a
#'   database table the units' counts of curves are collected first (one row
#'   per unit) and, up to `getOption("dpfda.inline_units")` (20,000) units
#'   of plain numbers or strings, written into the summary's query; with
#'   more units the engine counts them again inside it (the same result,
#'   slower).
#' @param incomplete `"zero"` (default): a grid point without any row of an
#'   individual counts as 0 (reported in `missing_cells`); `"drop"`: an
#'   individual without a row at every grid point contributes nothing (its
#'   curve counts as 0 everywhere) and is counted in `incomplete_n`; `n`
#'   counts every individual either way. A curves object from
#'   `as_curves(incomplete = "drop")` counts its dropped curves so.
#' @param center A public reference curve (as in [dp_mean()]: a function of
#'   the grid, a number or one value per grid point), subtracted from each
#'   individual's cell averages before clipping; in a database the engine
#'   subtracts it. Recorded in the summary's settings, and checked by
#'   [dp_mean()] against its own `center`.
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return A [dpfda_summary] (kind `"mean"`).
#' @examples
#' t <- seq(0, 1, length.out = 21)
#' x <- curves(outer(runif(50, 0.5, 1.5), sin(2 * pi * t)), t)
#' s <- summarise_mean(as.data.frame(x), grid = t, tau = 1)
#' all.equal(s$sums, summarise_mean(x, tau = 1)$sums)
#' @export
summarise_mean <- function(x, grid = NULL, tau, weights = NULL, clip = c("l2", "sup"), id = "id", arg = "arg",
                           value = "value", .query = FALSE, center = NULL, incomplete = c("zero", "drop"),
                           unit = NULL, ...) {
  check_required(c("x", "tau"))
  check_dot_names(dot_args(), character(), "summarise_mean")   # (a misspelt option gets a classed error)
  mf <- summary_matrix_frame(x, grid, incomplete[1L])
  if (!is.null(mf)) return(summarise_mean_impl(mf$curves, grid, tau, weights, clip, .query = .query,
                                               center = center, incomplete = incomplete, unit = mf$unit))
  id <- column_arg_names("id", x)
  arg <- column_arg_names("arg", x)
  value <- column_arg_names("value", x)
  if (!inherits(x, "dpfda_curves")) {
    unit <- column_arg_names("unit", x, NULL)
  } else if (!is.null(unit)) {
    unit <- with_unit_label(unit, substitute(unit))   # (named as dp_mean() names it: "id", not "unit")
  }
  warn_dropped_frame(summarise_mean_impl(x, grid, tau, weights, clip, id, arg, value, .query, center, incomplete,
                                         unit), x)
}

# summarise_mean() with column names (strings).
summarise_mean_impl <- function(x, grid = NULL, tau, weights = NULL, clip = c("l2", "sup"), id = "id", arg = "arg",
                                value = "value", .query = FALSE, center = NULL, incomplete = c("zero", "drop"),
                                unit = NULL) {
  clip <- check_choice(clip, c("l2", "sup"), "clip")
  incomplete <- check_choice(incomplete, c("zero", "drop"), "incomplete")
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e150)
  if (inherits(x, "dpfda_curves")) {
    x <- check_curves_data(x)   # never trust the class: a hand-edited curve may hold NaN
    if (x$dim != 1L) {          # (curves in memory may live on a tensor grid)
      if (!is.null(grid) && !isTRUE(all.equal(as.vector(grid), as.vector(x$grid)))) {
        dpfda_abort("`grid` must be the grid of the curves `x`.", arg = "grid")
      }
      grid <- x$grid
    } else grid <- summary_grid_1d(x, grid, "Long data")
  } else grid <- summary_grid_1d(x, grid, "Long data", arg)
  m <- grid_size(grid)
  w <- if (is.null(weights)) {
    if (m == 1L) 1 else quadrature_weights(grid)
  } else check_numeric_vector(weights, "weights")
  if (length(w) != m) {
    dpfda_abort(sprintf("`weights` must have one weight per grid point (%d), not %d.", m, length(w)),
                arg = "weights")
  }
  settings <- list(grid = if (is.null(dim(grid))) as.double(grid) else grid, weights = as.double(w), tau = tau,
                   clip = clip)
  if (!is.null(center)) settings$center <- center_values(center, grid)   # a public centre, subtracted first
  if (incomplete == "drop") settings$incomplete <- "drop"
  unit_name <- if (is.null(unit)) NULL else
    if (inherits(x, "dpfda_curves")) attr(unit, "name", exact = TRUE) %||% "unit" else unit

  if (inherits(x, "dpfda_curves")) {
    V <- if (is.null(settings$center)) x$values else x$values - rep(settings$center, each = nrow(x$values))
    X <- if (clip == "l2") clip_curves_l2(V, w, tau) else pmin(pmax(V, -tau), tau)
    # curves that as_curves(incomplete = "drop") left out count as individuals with no contribution
    k <- length(x$dropped)
    if (!is.null(unit)) {   # each unit contributes the mean of its clipped curves (norm <= tau)
      u <- curve_units(unit, nrow(X))
      wt <- 1 / tabulate(u$index)[u$index]
      # incomplete = "drop": the units of the curves left out that have no complete curve count as units
      # with no contribution (each remaining unit is the mean of its complete curves)
      du <- attr(unit, "dropped_units", exact = TRUE)
      k_u <- units_without_complete(unit, du)
      return(new_dpfda_summary("mean", as.vector(crossprod(X, wt)), u$n + k_u, nrow(X) * m, 0, settings,
                               missing_cells = 0, incomplete_n = k_u, unit = unit_name,
                               curves = nrow(X) + length(du)))
    }
    return(new_dpfda_summary("mean", colSums(X), nrow(X) + k, nrow(X) * m, 0, settings, missing_cells = 0,
                             incomplete_n = k))
  }
  have <- engine_names_or(x)   # (chunks: NULL, the names are checked chunk by chunk)
  id <- engine_columns(id, have, "id", 1L)
  arg <- engine_columns(arg, have, "arg", 1L)
  value <- engine_columns(value, have, "value", 1L)
  if (inherits(x, "dpfda_chunks")) {
    return(warn_dropped(chunks_reduce(x, function(d) {
      summarise_mean_impl(d, grid, tau, w, clip, id, arg, value, center = settings$center, incomplete = incomplete,
                          unit = unit)
    }, id = if (is.null(unit)) id else unit_id(unit), fill_by = if (!is.null(unit)) id)))
  }
  if (is_lazy_table(x)) return(summarise_mean_lazy(x, grid, tau, w, clip, id, arg, value, settings, .query, unit))
  if (!is.data.frame(x)) {
    arg_error("x", paste("curves (as_curves(x, grid = ) converts a matrix, a tfd or an fd), a long data frame, a",
                         "database table or dp_chunks()"), x)
  }
  cells <- frame_clipped_cells(x, grid, tau, w, clip, id, arg, value, settings$center, incomplete, unit)
  sums <- numeric(m)
  s <- rowsum(cells$contrib * (cells$weight %||% 1), cells$k, reorder = TRUE)
  sums[as.integer(rownames(s)) + 1L] <- s[, 1L]
  out <- new_dpfda_summary("mean", sums, cells$n, cells$rows, cells$dropped, settings,
                           missing_cells = (cells$n - cells$incomplete_n) * m - length(cells$contrib),
                           incomplete_n = cells$incomplete_n)
  if (!is.null(unit)) {   # the privacy unit: n counts units, each the mean of its (complete) curves
    out$missing_cells <- (cells$n - cells$incomplete_n) * m - length(cells$contrib)
    out$incomplete_n <- as.double(cells$incomplete_units %||% 0)
    out$n <- as.double(cells$n_units %||% 0)
    out$unit <- unit_name
    out$curves <- as.double(cells$n)
  }
  with_beyond(out, cells$beyond)
}

# The unit of each curve (a vector with one entry per curve): index and count.
curve_units <- function(unit, n) {
  # (atomic first: anyNA() of a function is an error, and a function has length 1, as one curve has)
  if (is.null(dim(unit)) && (is.atomic(unit) || is.factor(unit)) && length(unit) == n && !anyNA(unit)) {
    # (codes of the values themselves: as.character() of numbers is not cheap)
    index <- unit_codes(unit)
    return(list(index = index, n = max(0L, index)))
  }
  arg_error("unit", sprintf("a vector with one privacy unit (e.g. a person id) per curve (%d), without missing values",
                            n), unit)
}

# The public one-dimensional grid of a summary (sorted): that of curves `x`,
# or `grid`; `what` names the data in the error for a grid of points.
summary_grid_1d <- function(x, grid, what, arg = NULL) {
  if (inherits(x, "dpfda_curves")) {
    if (is.null(grid)) grid <- x$grid
    if (!isTRUE(all.equal(as.double(grid), as.double(x$grid)))) {
      dpfda_abort("`grid` must be the grid of the curves `x`.", arg = "grid")
    }
  }
  if (is.null(grid)) abort_grid_required("the public grid of the curves", table_grid_hint(x, arg))
  grid <- as_grid(grid, "grid")
  if (!is.null(dim(grid))) dpfda_abort(sprintf("%s are summarised on a one-dimensional grid.", what), arg = "grid")
  sort(as.double(grid))
}

# Each individual's clipped curve, cell by cell, from a long data frame (the
# in-memory half of summarise_mean(), shared with summarise_cov()): rows
# with a missing value dropped and counted, arguments snapped to the grid,
# rows of one (individual, grid point) averaged, the curve clipped. Returns
# the cells' individual `i` (0-based), grid index `k` (0-based) and clipped
# value `contrib`, with `n`, `rows`, `dropped`, the individuals `ids` and the rows kept (`data`).
# An individual none of whose rows is complete has no cell, and stays in `n`
# (last in `ids`): incomplete, as a matrix's row of missing values is
# (vanished_individuals()); `keep_gone = FALSE` refuses it instead.
frame_clipped_cells <- function(x, grid, tau, w, clip, id, arg, value, center = NULL, incomplete = "zero",
                                unit = NULL, keep_gone = is.null(unit) || incomplete == "drop") {
  m <- length(grid)
  for (a in c("id", "arg", "value", if (!is.null(unit)) "unit")) {   # chunks: the columns are known only now
    cn <- get(a)
    if (!cn %in% names(x)) engine_missing_column(cn, names(x), a)
  }
  abort_missing_ids(sum(is.na(x[[id]])), nrow(x))
  cl <- frame_clean(x, c(arg, value), c(id, unit))
  d <- cl$data
  # rows beyond the grid's ends by more than half a step are near no grid point: left out (counted)
  inside <- grid_reach_inside(as.double(d[[arg]]), grid)
  beyond <- sum(!inside)
  if (beyond > 0) d <- d[inside, , drop = FALSE]
  gone <- if (cl$dropped > 0 || beyond > 0) vanished_individuals(x, d, id, unit, keep_gone)
  uid <- c(unique(d[[id]]), gone$ids)
  n <- length(uid)
  if (!nrow(d)) {                        # every row dropped: no cells
    out <- list(i = numeric(), k = integer(), contrib = numeric(), v = numeric(), n = n, rows = cl$rows,
                dropped = cl$dropped, incomplete_n = if (incomplete == "drop") n else 0, ids = uid, data = d,
                beyond = beyond)
    if (!is.null(unit)) {
      u <- unique(gone$units)
      out[c("weight", "n_units", "incomplete_units", "unit_of", "unit_values")] <-
        list(numeric(), length(u), if (incomplete == "drop") length(u) else 0, match(gone$units, u), gone$units)
    }
    return(out)
  }
  k <- snap_to_grid(as.double(d[[arg]]), grid)
  cell <- (match(d[[id]], uid) - 1) * m + k
  B <- value_clamp_bound(tau, w, clip)
  cs <- rowsum(cbind(pmin(pmax(as.double(d[[value]]), -B), B), 1), cell, reorder = TRUE)
  cell_u <- as.double(rownames(cs))
  v <- cs[, 1L] / cs[, 2L]
  ck <- as.integer(cell_u %% m)
  ci <- cell_u %/% m
  n_inc <- 0
  full <- rep(TRUE, n)
  if (incomplete == "drop") {   # individuals without a cell at every grid point contribute nothing
    full <- tabulate(ci + 1L, n) == m
    n_inc <- sum(!full)
    keep <- full[ci + 1L]
    v <- v[keep]
    ck <- ck[keep]
    ci <- ci[keep]
  }
  if (!is.null(center)) v <- v - center[ck + 1L]   # the public centre, before clipping
  if (clip == "l2") {
    nrm2 <- rowsum(w[ck + 1L] * v * v, ci, reorder = TRUE)
    sc <- ifelse(nrm2[, 1L] > tau * tau, tau / sqrt(nrm2[, 1L]), 1)
    contrib <- v * sc[match(ci, as.double(rownames(nrm2)))]
  } else {
    contrib <- pmin(pmax(v, -tau), tau)
  }
  out <- list(i = ci, k = ck, contrib = unname(contrib), n = n, rows = cl$rows, dropped = cl$dropped,
              incomplete_n = n_inc, v = unname(v), ids = uid, data = d, beyond = beyond)
  if (!is.null(unit)) {   # weight 1 / (complete curves of the unit) per curve; a curve belongs to one unit
    ukey <- as.character(d[[unit]])
    cu <- c(ukey[match(uid[seq_len(n - length(gone$ids))], d[[id]])], gone$units)
    if (any(ukey != cu[match(d[[id]], uid)])) {
      abort_curve_in_two_units(as.character(d[[id]][which(ukey != cu[match(d[[id]], uid)])[1L]]))
    }
    ui <- match(cu, unique(cu))
    nu <- max(0L, ui)
    nc <- tabulate(ui[full], nu)   # (incomplete = "drop": the complete curves only)
    out$weight <- (1 / nc)[ui][ci + 1L]
    out$n_units <- nu
    out$incomplete_units <- sum(nc == 0)   # units without a complete curve: no contribution
    out$unit_of <- ui   # (the unit of each individual, for tau = "auto")
    out$unit_values <- cu
  }
  out
}

# The individuals of long data `x` none of whose rows survived the cleaning
# (`d`: the rows kept): with a privacy unit, also the unit of each (from its
# rows that name one, as strings). An individual with rows stays an
# individual whatever its values: dropping it would let n (public) tell
# whether its values are missing. `keep = FALSE` (or no row naming its unit)
# refuses it (abort_vanished_individuals()).
vanished_individuals <- function(x, d, id, unit = NULL, keep = TRUE) {
  ids <- unique(x[[id]])
  ids <- ids[!ids %in% d[[id]]]
  if (!length(ids)) return(NULL)
  if (!keep) abort_vanished_individuals(length(ids), unit = TRUE)
  if (is.null(unit)) return(list(ids = ids))
  u <- as.character(units_of_ids(x, ids, id, unit))
  if (anyNA(u)) abort_vanished_individuals(sum(is.na(u)), no_unit = TRUE)
  list(ids = ids, units = u)
}

# The unit of each individual `ids` of long data `x`: from its first row that names one, whether that
# row was kept or not (NA for an individual none of whose rows names its unit).
units_of_ids <- function(x, ids, id, unit) {
  named <- !is.na(x[[unit]])
  x[[unit]][named][match(ids, x[[id]][named])]
}

# The public bound to which every observed value is clamped before cells are
# averaged and curves clipped, so that finite data always give finite sums,
# averages and norms (on every source alike). "l2": 2^10 tau / sqrt(min w), a
# value that alone would give its curve a norm of 2^10 tau at the lightest
# grid point (capped at sqrt(1e300 / sum(w)), which only binds for tau beyond
# about 1e140); "sup": 2^10 tau. Data within the bound are not changed.
value_clamp_bound <- function(tau, w, clip) {
  if (clip == "sup") return(2^10 * tau)
  wp <- w[w > 0]
  if (!length(wp)) return(2^10 * tau)
  min(2^10 * tau / sqrt(min(wp)), sqrt(1e300 / sum(wp)))
}

# The reach of a one-dimensional grid: from half a step before its first
# point to half a step after its last (the first and last gaps; the whole
# line for one point). A row of long data within it counts at its nearest
# grid point; beyond it, it is near no grid point and is left out (it was
# snapped to the end: nlme's Orthodont ages 14 averaged into age 12 of a grid
# 8, 10, 12). Returns c(lo, hi).
grid_reach <- function(grid) {
  m <- length(grid)
  # one point has no step: its reach is the point itself (every row was averaged into it, growth's
  # heights at all ages into age 5: 135.2 against 110.2 at 5)
  if (m < 2L) return(grid[1L] + c(-1, 1) * 1e-10 * max(1, abs(grid[1L])))
  c(grid[1L] - (grid[2L] - grid[1L]) / 2, grid[m] + (grid[m] - grid[m - 1L]) / 2)
}

grid_reach_inside <- function(a, grid) {
  r <- grid_reach(grid)
  a >= r[1L] & a <= r[2L]
}

# A summary counts the rows beyond its grid's reach (`beyond`, only when some were: the summaries of
# data that have none stay as they were); warn_dropped() says so.
with_beyond <- function(s, beyond) {
  if (isTRUE(beyond > 0)) s$beyond <- as.double(beyond)
  s
}

# Grid index (0-based) of the nearest grid point, after clamping to the range.
grid_uniform_step <- function(grid) {
  m <- length(grid)
  if (m < 2L) return(NA_real_)
  step <- (grid[m] - grid[1L]) / (m - 1)
  if (max(abs(diff(grid) - step)) <= 1e-9 * step) step else NA_real_
}

snap_to_grid <- function(a, grid) {
  m <- length(grid)
  if (m == 1L) return(integer(length(a)))
  a <- pmin(pmax(a, grid[1L]), grid[m])
  step <- grid_uniform_step(grid)
  if (!is.na(step)) return(as.integer(pmin(pmax(floor((a - grid[1L]) / step + 0.5), 0), m - 1)))
  findInterval(a, (grid[-1L] + grid[-m]) / 2)
}

summarise_mean_lazy <- function(x, grid, tau, w, clip, id, arg, value, settings, .query, unit = NULL) {
  m <- length(grid)
  # (the unit rides along the cells: one unit per curve is checked below, before any cell is summed)
  cells <- lazy_clipped_cells(x, grid, tau, w, clip, id, arg, value, .query, settings$center,
                              settings$incomplete %||% "zero", unit, unit_checked = TRUE)
  nn <- cells$nn
  q <- cells$q
  drop <- identical(settings$incomplete, "drop")
  by_cells <- FALSE
  if (!is.null(unit)) {   # each unit: the mean of its clipped curves (weight 1 / its number of curves)
    # one grouping by curve: its unit (the smallest and largest value, to check that it has one), then
    # the units' counts of curves, collected (one row per unit)
    sc <- sq_from(nn$q)
    u_ <- sq_id(sc, "u")
    per_curve <- sq_summarise(sc, "id", list(u = sprintf("MIN(%s)", u_), u2 = sprintf("MAX(%s)", u_)))
    per_unit <- sq_summarise(per_curve, "u", list(nc = "COUNT(*)", two = sprintf(
      "SUM(CASE WHEN %s <> %s THEN 1 ELSE 0 END)", u_, sq_id(sc, "u2"))))
    counted <- sq_lazy(sq_mutate(per_unit, list(), keep = c("u", "nc")))
    per_unit <- sq_lazy(per_unit)
    if (!.query) {
      uc <- engine_collect(per_unit)
      if (sum(plain_double(uc$two)) > 0) abort_curve_in_two_units()
      cnt <- list(ids = sum(plain_double(uc$nc)), units = as.double(nrow(uc)))
    }
    # Two ways to divide by the unit's count of curves. SQLite (which joins a small table by a scan of
    # it per row) and "drop": group by unit and grid point first; when every curve has a cell at every
    # grid point (always so with "drop"), the unit's cells at k are its curves, `cl`. Other engines:
    # each cell joined to its unit's count, the collected counts written into the query when they are
    # few (no second grouping of the rows), else the counting query itself.
    by_cells <- drop || inherits(dbplyr::remote_con(q), "SQLiteConnection")
    if (by_cells) {
      s <- sq_from(q)
      s <- sq_summarise(s, c("u", "k"), list(c = sprintf("SUM(%s)", sq_id(s, "c")), cl = "COUNT(*)"))
      # (.query: exact when no cell is missing)
      q <- sq_lazy(sq_mutate(s, list(c = sprintf("%s / %s", sq_id(s, "c"), sq_id(s, "cl")))))
    } else {
      q <- lazy_join_unit_counts(q, (if (!.query) unit_counts_inline(q, uc)) %||% counted)
    }
  }
  joined <- !is.null(unit) && !by_cells
  by_k <- function(q, joined) {
    s <- sq_from(q)
    cells <- if (is.null(unit) || joined) "COUNT(*)" else sprintf("SUM(%s)", sq_id(s, "cl"))   # (cl: a unit's cells)
    matched <- if (joined) list(matched = sprintf("SUM(CASE WHEN %s IS NULL THEN 0 ELSE 1 END)", sq_id(s, "nc")))
    sq_lazy(sq_summarise(s, "k", c(list(s = sprintf("SUM(%s)", sq_id(s, "c")), cells = cells), matched)))
  }
  q <- by_k(q, joined)
  if (.query) return(q)
  res <- engine_collect(q)
  # again with the counts counted in the query (a join): grouped by cells, when a cell is missing ("zero");
  # joined to the written counts, when a unit did not survive the round trip through R (a decimal column)
  if ((by_cells && !drop && sum(plain_double(res$cells)) < cnt$ids * m) ||
      (joined && sum(plain_double(res$matched)) < sum(plain_double(res$cells)))) {
    res <- engine_collect(by_k(lazy_join_unit_counts(cells$q, counted), TRUE))
  }
  sums <- numeric(m)
  sums[as.integer(res$k) + 1L] <- res$s
  n <- nn$n_ids   # (every individual, those with no complete row too: no cell, incomplete)
  n_full <- if (drop) sum(res$cells) / m else n   # (drop: whole curves only)
  out <- new_dpfda_summary("mean", sums, n, nn$rows, nn$dropped, settings,
                           missing_cells = n_full * m - sum(res$cells), incomplete_n = n - n_full)
  if (!is.null(unit)) {
    out$n <- nn$n_units %||% plain_double(cnt$units)
    if (drop) {   # units without a complete curve: no contribution
      n_complete <- lazy_n_distinct(cells$q, "u")
      out$incomplete_n <- out$n - n_complete
    }
    out$unit <- unit
    out$curves <- n
  }
  warn_dropped(with_beyond(out, nn$beyond))
}

# The units' counts of curves (`uc`: columns u and nc, one row per unit, as
# collected) as a table written into the query, or NULL when they are more
# than getOption("dpfda.inline_units") (a second grouping of the rows is then
# cheaper than the text), repeat in R (values the engine tells apart but R
# does not), or are not plain numbers or strings (dates, for instance).
unit_counts_inline <- function(q, uc, max_units = getOption("dpfda.inline_units", 20000)) {
  u <- uc$u
  plain <- (is.null(oldClass(u)) && (is.character(u) || is.integer(u) || is.double(u))) ||
    identical(oldClass(u), "integer64")
  if (nrow(uc) == 0L || nrow(uc) > max_units || !plain || anyDuplicated(u)) {
    return(NULL)
  }
  lazy_inline(q, data.frame(u = u, nc = as.integer(plain_double(uc$nc))))
}

# Each cell's clipped value divided by its unit's count of curves (`counts`:
# a lazy table with columns u and nc; see lazy_unit_counts()).
lazy_join_unit_counts <- function(q, counts) {
  s <- sq_from(lazy_unit_counts(q, counts))
  sq_lazy(sq_mutate(s, list(c = sprintf("%s / %s", sq_id(s, "c"), sq_id(s, "nc")))))
}

# Adds to the cells `q` (one row per curve and grid point, columns id and u)
# their unit's count of curves `nc`: a left join with `counts` (columns u
# and nc), so that a cell whose unit is not matched keeps nc NULL, which a
# caller can count. SQLite instead counts by windows (the rank of the curve
# in its unit, then the largest rank): its joins with a grouped subquery can
# run as a scan of the subquery for every row (6e4 cells of 1500 units: 5 s).
lazy_unit_counts <- function(q, counts) {
  s <- sq_from(q)
  u <- sq_id(s, "u")
  if (inherits(s$con, "SQLiteConnection")) {
    s <- sq_mutate(s, list(rk = sprintf("DENSE_RANK() OVER (PARTITION BY %s ORDER BY %s)", u, sq_id(s, "id"))))
    return(sq_lazy(sq_mutate(s, list(nc = sprintf("MAX(%s) OVER (PARTITION BY %s)", sq_id(s, "rk"), u)),
                             keep = setdiff(s$vars, "rk"))))
  }
  sq_lazy(sq_join(s, sq_from(counts), "u", "nc"))
}

# Each individual's clipped curve, cell by cell, as a lazy query with columns
# id, k (0-based grid index) and c (clipped value): the engine half of
# summarise_mean(), shared with summarise_cov(). Also returns the row and
# missing-value counts (`nn`). `unit_checked`: the caller has checked that
# every curve has one unit (the cells then carry it without grouping by it).
lazy_clipped_cells <- function(x, grid, tau, w, clip, id, arg, value, .query, center = NULL, incomplete = "zero",
                               unit = NULL, unit_checked = FALSE) {
  m <- length(grid)
  cols <- c(id = id, arg = arg, value = value, if (!is.null(unit)) c(unit = unit))
  new <- c("id", "arg", "value", if (!is.null(unit)) "u")
  q <- lazy_select(x, cols, new, numeric = c("arg", "value"), check = !.query)
  r <- grid_reach(grid)
  nn <- lazy_drop_null(q, new, check = !.query, ids = "id", finite = c("arg", "value"),
                       gone = if (!is.null(unit) && incomplete != "drop") "refuse_unit" else "keep",
                       units = if (!is.null(unit)) "u", reach = list(col = "arg", lo = r[1L], hi = r[2L]))
  s <- sq_from(nn$q)   # (SQL written out: R/engine-sql.R)
  id_ <- sq_id(s, "id")
  k_ <- sq_id(s, "k")
  v_ <- sq_id(s, "v")
  g1 <- sq_lit(grid[1L])      # literals exact to the last bit, as R's snap_to_grid()
  B <- value_clamp_bound(tau, w, clip)   # (as in memory: finite data never overflow)
  # the clamps of argument and value in one SELECT (a third nested one cost SQLite about 25 %)
  s <- sq_mutate(s, list(value = sq_clamp(s, sq_id(s, "value"), sq_lit(-B), sq_lit(B)),
                         ac = sq_clamp(s, sq_id(s, "arg"), g1, sq_lit(grid[m]))))
  step <- grid_uniform_step(grid)
  ac <- sq_id(s, "ac")
  s <- sq_mutate(s, list(k = if (m == 1L) "0" else if (!is.na(step)) {
    sq_clamp(s, sprintf("FLOOR(((%s - %s) / %s) + 0.5)", ac, g1, sq_lit(step)), "0.0", sq_lit(m - 1))
  } else {
    sql_interval(s, "ac", (grid[-1L] + grid[-m]) / 2)
  }))
  # with a unit: grouped by it too (the caller checks one unit per curve from these groups), or, when
  # that was checked already, the unit rides along (a shorter sort key)
  keys <- c("id", if (!is.null(unit) && !unit_checked) "u", "k")
  s <- sq_summarise(s, keys, c(if (!is.null(unit) && unit_checked) list(u = sprintf("MIN(%s)", sq_id(s, "u"))),
                               list(v = sprintf("AVG(%s)", sq_id(s, "value")))))
  if (incomplete == "drop") {   # individuals without a cell at every grid point contribute nothing
    s <- sq_mutate(s, list(nk = sprintf("COUNT(*) OVER (PARTITION BY %s)", id_)))
    s <- sq_filter(s, sprintf("%s = %s", sq_id(s, "nk"), sq_lit(m)))
  }
  if (!is.null(center)) s <- sq_mutate(s, list(v = sprintf("%s - %s", v_, sql_lookup_tree(k_, center, 0L))))
  if (clip == "l2") {
    # (the weight looked up inside the window: one subquery less, SQLite's parser stack being finite)
    s <- sq_mutate(s, list(nrm2 = sprintf("SUM((%s * %s) * %s) OVER (PARTITION BY %s)", sql_lookup_tree(k_, w, 0L),
                                          v_, v_, id_)))
    n2 <- sq_id(s, "nrm2")
    s <- sq_mutate(s, list(c = sprintf("%s * CASE WHEN (%s > %s) THEN (%s / SQRT(%s)) WHEN NOT (%s > %s) THEN 1.0 END",
                                       v_, n2, sq_lit(tau * tau), sq_lit(tau), n2, n2, sq_lit(tau * tau))))
  } else {
    s <- sq_mutate(s, list(c = sq_clamp(s, v_, sq_lit(-tau), sq_lit(tau))))
  }
  list(q = sq_lazy(s), nn = nn)
}

# A double as an SQL literal exact to the last bit (dbplyr writes 15 digits),
# with a decimal point so that no engine reads it as an integer.
sql_lit <- function(x) {
  s <- sql_num(x)
  dbplyr::sql(ifelse(grepl("[.eEnN]", s), s, paste0(s, ".0")))
}

# The number of units of the curves that as_curves(incomplete = "drop") left out that have no
# complete curve left (`unit`: the units of the curves kept, with those of the dropped curves as
# its attribute "dropped_units"): they count as units with no contribution.
units_without_complete <- function(unit, du = attr(unit, "dropped_units", exact = TRUE)) {
  if (length(du)) length(setdiff(unique(as.character(du)), as.character(unit))) else 0
}

# Curves from as_curves(incomplete = "drop") hold only the complete curves and count the dropped
# ones, which the summaries take as individuals adding 0 (so that N, the calibration's count, is
# all of them). Released without incomplete = "drop", whose noisy count of the complete ones
# divides the mean, that was a mean over N shrunk towards `center` by the dropped share, in
# silence (45 of 50 ChickWeight chicks: 10%). The default refuses, as for data with gaps.
# With a privacy unit, a unit is the mean of its complete curves: only units left with none add 0.
# Private cross-validation over the complete curves only would be calibrated to their number, which
# depends on the data (the count that incomplete = "drop" buys with noise): refused.
abort_pcv_dropped <- function(fun, arg) {
  dpfda_abort(sprintf(paste("%s cross-validates over complete curves, and which curves are complete (and how many)",
                            "depends on the data: its calibration would reveal their number, which incomplete =",
                            "\"drop\" counts with noise. Use select = \"pss\" or \"manual\" with incomplete = \"drop\",",
                            "or give curves that cover the grid."), fun),
              class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = arg)
}

refuse_dropped_curves <- function(x, incomplete, fun, units = NULL) {
  k <- length(x$dropped)
  if (identical(incomplete, "drop") || !k) return(invisible())
  if (!is.null(units)) {
    k_u <- units_without_complete(units)
    if (!k_u) return(invisible())
    dpfda_abort(sprintf(paste("`x` holds curves from as_curves(incomplete = \"drop\"), and %d unit%s of `unit`",
                              "ha%s no complete curve left. Give incomplete = \"drop\" to %s() as well: the release",
                              "is then over a noisy count of the units with a complete curve. Without it those",
                              "units would count as 0 and pull the estimate towards `center` (or 0) in silence."),
                        k_u, if (k_u == 1L) "" else "s", if (k_u == 1L) "s" else "ve", fun),
                class = data_error_class, arg = "incomplete")
  }
  n <- nrow(x$values)
  dpfda_abort(sprintf(paste("`x` holds %d complete curve%s of %d: as_curves(incomplete = \"drop\") left out %d",
                            "incomplete one%s. Give incomplete = \"drop\" to %s() as well: the release is then over",
                            "a noisy count of the complete curves, its noise calibrated for all %d (which curves",
                            "are complete depends on the data). Without it the %d would count as 0 and pull the",
                            "estimate towards `center` (or 0) by %s%% in silence."),
                      n, if (n == 1L) "" else "s", n + k, k, if (k == 1L) "" else "s", fun, n + k, k,
                      format(signif(100 * k / (n + k), 2))),
              class = data_error_class, arg = "incomplete")
}

# The data of dp_mean(), from any source: curves in memory (anything
# as_curves() reads, with its options from `...`), or a long table, chunks or
# a mean summary, whose column names come from `...`. Returns the curves (in
# memory) or the engine source with its columns, the public grid, domain and
# dimension, and the options left for the mechanism.
mean_source <- function(x, opts, grid, incomplete = "error", unit = NULL, select = "pss") {
  snap <- long_frame_on_grid(x, opts, grid)
  if (snap && select == "pcv") {
    # PCV needs each curve: the table rule (snap, average) gives them here
    opts <- resolve_column_opts(opts, x, c("id", "arg", "value"))
    x <- frame_snap_curves(x, sort(as_grid(grid, "grid")), opts$id %||% "id", opts$arg %||% "arg",
                           opts$value %||% "value", unit, incomplete, drop_hint = TRUE)
    grid <- NULL
    opts <- opts[setdiff(names(opts), c("id", "arg", "value", "na.rm", "restrict"))]
    if (!is.null(unit)) unit <- attr(x, "units")
  } else if (snap) {
    x <- structure(list(frame = x), class = "dpfda_long_frame")
  }
  if (!is_engine_input(x) && !inherits(x, "dpfda_long_frame")) {
    if (is.data.frame(x)) opts <- resolve_column_opts(opts, x, c("id", "arg", "value"))
    conv <- names(opts) %in% as_curves_options
    curves_in <- inherits(x, "dpfda_curves") || inherits(x, "dpfda_release")
    frame <- if (is.data.frame(x)) as.data.frame(x)
    x <- tryCatch(do.call(as_mech_curves, c(list(wide_frame_drop_unit(x, unit, opts), grid = grid), opts[conv],
                                            if (!curves_in && incomplete == "drop") list(incomplete = "drop"))),
                  dpfda_error_data = function(e) abort_long_frame_grid(e, frame, opts, "dp_mean"))
    units <- memory_units(unit, x, frame, opts)
    refuse_dropped_curves(x, incomplete, "dp_mean", units)
    return(list(curves = x, data = NULL, cols = list(), grid = x$grid, domain = x$domain, dim = x$dim,
                n = nrow(x$values), opts = opts[!conv], unit = units))
  }
  if (inherits(x, "dpfda_long_frame")) x <- x$frame
  opts <- resolve_column_opts(opts, x, c("id", "arg", "value"))
  cols <- opts[intersect(names(opts), c("id", "arg", "value"))]
  # long data: rows with a missing value are dropped and counted on every source (na.rm has no work
  # left); restrict = FALSE is the rule anyway
  opts$na.rm <- NULL
  opts$restrict <- NULL
  if (!is.null(unit) && inherits(x, "dpfda_summary")) {
    # (a summary's n and sums are those of its own unit: a `unit` here was ignored in silence, and
    # a summary of scans was released as if it protected persons)
    dpfda_abort(sprintf(paste("`unit` is for data; a summary has its unit already (%s). Give `unit` to",
                              "summarise_mean() instead."),
                        if (is.null(x$unit)) "this one: one curve" else sprintf("this one: `%s`", x$unit)),
                class = c("dpfda_error_privacy", "dpfda_error_argument"), arg = "unit")
  }
  if (!is.null(unit)) cols$unit <- column_names(unit, engine_names_or(x), "unit")
  if (inherits(x, "dpfda_summary")) {
    grid <- check_summary(x, "mean")$settings$grid
  } else if (is.null(grid)) {
    abort_grid_required("the public grid of the curves in the table or chunks", table_grid_hint(x, cols$arg %||% "arg"))
  }
  grid <- sort(as_grid(grid, "grid"))
  list(curves = NULL, data = x, cols = cols, grid = grid, domain = as_domain(NULL, grid), dim = 1L, n = NA,
       opts = opts[setdiff(names(opts), names(cols))])
}

# A long data frame (id, arg, value) in memory with a public one-dimensional
# grid follows the rule of tables and chunks (snap each argument to the
# nearest grid point, average the rows of a cell), so that the same data give
# the same release wherever they are stored. Options that ask for another
# conversion (interpolation `method`, smoothing `df`/`n_grid`) keep as_curves().
long_frame_on_grid <- function(x, opts, grid) {
  if (!is.data.frame(x) || is.null(grid) || inherits(x, "dpfda_curves")) return(FALSE)
  if (any(names(opts) %in% c("method", "df", "n_grid")) || isTRUE(opts$restrict)) return(FALSE)
  g <- tryCatch(as_grid(grid, "grid"), error = function(e) NULL)
  if (is.null(g) || !is.null(dim(g))) return(FALSE)
  # (a bare column name, `value = distance`, is resolved here: left unresolved, it sent the frame to
  # as_curves()'s interpolation, and the release depended on how the column was named)
  value <- tryCatch(column_names(opts$value %||% "value", names(x), "value"), error = function(e) NULL)
  # (a matrix column or a tf column holds whole curves: as_curves() reads them)
  is.character(value) && length(value) == 1L && value %in% names(x) && !is.matrix(x[[value]]) &&
    !inherits(x[[value]], "tf")
}

# dp_mean(), dp_cov() and pcv_select() on a long data frame without `grid`
# whose curves are observed at different arguments: as_curves() refuses
# (`e`, with field args_differ) and proposes a grid to interpolate onto, but
# given a grid these functions follow the rule of tables (snap each row to the
# nearest grid point), so the error is theirs: it proposes the grid that keeps
# the most curves complete under that rule, either the distinct arguments (a
# common schedule with missed visits: ChickWeight) or an equispaced grid of
# the typical number of observations over the range most curves cover (ages
# that vary around the visits: nlme::Oxboys), and interpolation as the
# alternative. Any other error, or a frame it cannot read, is rethrown as is.
abort_long_frame_grid <- function(e, x, opts, fun) {
  if (!isTRUE(e$args_differ) || !is.data.frame(x)) stop(e)
  nm <- function(o, d) if (is.character(o) && length(o) == 1L && o %in% names(x)) o else d
  id <- nm(opts$id, "id")
  arg <- nm(opts$arg, "arg")
  d <- as.data.frame(x)
  if (!all(c(id, arg) %in% names(d)) || !is.numeric(d[[arg]])) stop(e)
  a <- as.double(d[[arg]])
  ok <- is.finite(a) & !is.na(d[[id]])
  a <- a[ok]
  ids <- as.character(d[[id]][ok])
  if (length(unique(ids)) < 2L) stop(e)
  lo_i <- tapply(a, ids, min)
  hi_i <- tapply(a, ids, max)
  D <- sort(unique(a))
  cands <- list()
  if (length(D) <= 101L) cands$distinct <- D
  lo_m <- stats::median(lo_i)
  hi_m <- stats::median(hi_i)
  k <- as.integer(min(101, max(2, stats::median(tapply(a, ids, function(z) length(unique(z)))))))
  if (lo_m < hi_m) cands$seq <- seq(lo_m, hi_m, length.out = k)
  # visits at roughly the same times in every curve (a pharmacokinetic design: 0, 0.25, 0.5, 1, 2, ...,
  # 24 h): the median of each curve's j-th argument, from the curves with the usual number of them
  per <- tapply(a, ids, function(z) sort(unique(z)), simplify = FALSE)
  nk <- lengths(per)
  if (k <= 25L && sum(nk == k) >= length(per) / 2) {
    v <- apply(do.call(rbind, per[nk == k]), 2, stats::median)
    if (all(diff(v) > 0)) cands$visits <- v
  }
  if (!length(cands)) stop(e)
  complete <- vapply(cands, function(g) {
    cells <- tapply(snap_to_grid(a, g), ids, function(z) length(unique(z)))
    sum(cells == length(g))
  }, 1)
  best <- names(cands)[which.max(complete)]   # (ties: the distinct arguments, exact; then the equispaced grid)
  n <- length(lo_i)
  f <- function(v) format(signif(v, 4))
  grid_txt <- if (best == "seq") sprintf("seq(%s, %s, length.out = %d)", f(lo_m), f(hi_m), k) else
    if (best == "visits") sprintf(paste("c(%s) (the median of each curve's 1st, 2nd, ... argument; the study's",
                                        "nominal times, if it has them, are public and better)"),
                                  paste(vapply(cands$visits, f, ""), collapse = ", ")) else
      if (length(D) <= 12L) sprintf("c(%s)", paste(vapply(D, f, ""), collapse = ", ")) else
        sprintf("sort(unique(x$%s)) (its %d distinct values)", arg, length(D))
  kept <- complete[[best]]
  drop_txt <- if (kept == n) " (every curve has a row nearest each of its points)" else if (kept > 0) {
    sprintf(paste(" with incomplete = \"drop\", which leaves out, and counts privately, the %d curve%s without a",
                  "row nearest each point (%d of %d have one)"), n - kept, if (n - kept == 1L) "" else "s", kept, n)
  } else " (but no curve has a row nearest every point of it: interpolate instead)"
  lo <- max(lo_i)
  hi <- min(hi_i)
  dpfda_abort(sprintf(paste("The curves are observed at different arguments (%d distinct values of `%s`). Give",
                            "%s() the public `grid` of the release: each row's argument is then snapped to the",
                            "nearest grid point and an individual's rows at one point averaged, the rule of",
                            "database tables and chunks (see ?summarise_mean). The grid is published with the",
                            "release: fix it from the study design (e.g. the planned times), not from these data.",
                            "For orientation, grid = %s%s. Or interpolate",
                            "each curve onto the grid with method = \"linear\" (curves are not extrapolated%s)."),
                      length(D), arg, fun, grid_txt, drop_txt,
                      if (lo < hi) sprintf(": a grid inside [%s, %s], the range all curves cover, or incomplete = \"drop\"",
                                           f(lo), f(hi)) else ", so add incomplete = \"drop\""),
              class = setdiff(class(e), c("dpfda_error", "error", "condition")), arg = "grid")
}

# The curves of a long data frame by the rule of tables: a cell (individual,
# grid point) is the mean of its rows; rows with a missing value are dropped.
# An individual without a row at some grid point is incomplete: refused (as
# refuse_missing_cells() refuses such a summary) or, with incomplete = "drop",
# left out and counted in `dropped` as as_curves() does. The curves' units (one per
# curve) are attached as attribute "units" when `unit` names a column.
frame_snap_curves <- function(x, grid, id, arg, value, unit = NULL, incomplete = "error", drop_hint = FALSE) {
  ucol <- if (!is.null(unit)) column_names(unit, names(x), "unit")
  cells <- frame_clipped_cells(x, grid, Inf, rep(1, length(grid)), "sup", id, arg, value, unit = ucol,
                               keep_gone = TRUE)   # (one with no complete row: incomplete)
  warn_dropped_rows(cells$dropped)   # (as a table and chunks warn; a data frame was silent)
  warn_beyond_rows(cells$beyond, grid)
  vals <- matrix(NA_real_, cells$n, length(grid))
  vals[cbind(cells$i + 1, cells$k + 1L)] <- cells$contrib
  ids <- cells$ids
  rownames(vals) <- as.character(ids)
  full <- rowSums(is.na(vals)) == 0L
  if (incomplete == "error") {
    refuse_missing_cells(list(missing_cells = sum(is.na(vals)), where = missing_cells_where(x, grid, id, arg, value)),
                         drop_hint)
  }
  if (incomplete == "drop") {
    if (!any(full)) {
      dpfda_abort("No individual has a row at every grid point; nothing is left after dropping incomplete ones.",
                  class = "dpfda_error_data", arg = "grid")
    }
    vals <- vals[full, , drop = FALSE]
  }
  out <- curves(vals, grid)
  out$arg_name <- arg
  out$value_name <- value
  if (incomplete == "drop") out$dropped <- as.character(ids[!full])
  if (!is.null(ucol)) {   # the unit of each curve kept, and (incomplete = "drop") those of the curves left out
    u_all <- units_of_ids(x, ids, id, ucol)
    attr(out, "units") <- structure(u_all[full | incomplete != "drop"], name = ucol,
                                    dropped_units = if (incomplete == "drop" && any(!full)) u_all[!full])
  }
  out
}

# The mean summary of dp_mean()'s source: computed (weights of the basis, the
# public centre subtracted in the engine), or given and checked against the
# settings of this release.
mean_summary <- function(src, tau, clip, basis, center, incomplete = "error") {
  w <- if (!is.null(basis)) basis$weights
  if (inherits(src$data, "dpfda_summary")) {
    s <- check_summary(src$data, "mean")
    if (!identical(s$settings$clip, clip) || !isTRUE(all.equal(s$settings$tau, tau))) {
      dpfda_abort(sprintf("The summary was clipped with %s, tau = %s; this release needs %s, tau = %s.",
                          s$settings$clip, format(s$settings$tau), clip, format(tau)), arg = "x")
    }
    if (!is.null(w) && !isTRUE(all.equal(s$settings$weights, w))) {
      dpfda_abort("The summary was computed with other quadrature `weights` than the basis.", arg = "weights")
    }
    if (!isTRUE(all.equal(s$settings$center, center))) {
      abort_summary_center("summarise_mean")
    }
    if (incomplete == "drop" && !identical(s$settings$incomplete, "drop")) {
      dpfda_abort("incomplete = \"drop\" needs a summary computed with summarise_mean(incomplete = \"drop\").",
                  arg = "incomplete")
    }
  } else {
    data <- if (!is.null(src$curves)) src$curves else src$data   # (curves: centred already)
    s <- do.call(summarise_mean_impl, c(list(data, grid = src$grid, tau = tau, weights = w, clip = clip,
                                             center = if (is.null(src$curves)) center,
                                             incomplete = if (incomplete == "drop") "drop" else "zero"), src$cols,
                                        if (!is.null(src$unit)) list(unit = src$unit)))
    if (!is.null(attr(src$unit, "name", exact = TRUE))) s$unit <- attr(src$unit, "name", exact = TRUE)
    s <- warn_dropped_frame(s, data)
  }
  s <- check_summary(s, "mean")
  if (incomplete == "error") refuse_missing_cells(s, src = src) else s
}

# The empty (individual, grid point) cells of a long data frame in memory under the rule of tables
# (rows with a missing value dropped, arguments snapped to the grid), as "Chick 18 at Time = 4", first
# individuals first: named in the refusal, where the user can look at them.
missing_cells_where <- function(d, grid, id, arg, value) {
  a <- suppressWarnings(as.double(d[[arg]]))
  v <- d[[value]]
  ok <- is.finite(a) & !is.na(v) & !is.na(d[[id]])
  ok[ok] <- grid_reach_inside(a[ok], grid)   # (a row beyond the grid's reach fills no cell)
  ids <- d[[id]][ok]
  u <- sort(unique(d[[id]][!is.na(d[[id]])]))   # (one with no complete row: missing everywhere)
  k <- snap_to_grid(a[ok], grid)
  have <- matrix(FALSE, length(u), length(grid))
  have[cbind(match(ids, u), k + 1L)] <- TRUE
  miss <- which(!have, arr.ind = TRUE)
  miss <- miss[order(miss[, 1L], miss[, 2L]), , drop = FALSE]
  sprintf("%s %s at %s = %s", id, as.character(u[miss[, 1L]]), arg, format(signif(grid[miss[, 2L]], 4), trim = TRUE))
}

# The privacy unit of each in-memory curve of `x` (NULL without `unit`): the
# vector given (one entry per curve), or, when the curves were built from the
# long data frame `frame`, the `unit` column of each curve's rows (one unit
# per curve: checked), named after the column. `opts` holds the column names.
memory_units <- function(unit, x, frame, opts) {
  if (is.null(unit)) return(NULL)
  ucol <- if (!is.null(frame) && !is.null(x$frame_rows)) frame_unit_column(unit, frame)
  if (!is.null(ucol)) return(row_units(frame[[ucol]], ucol, x))   # wide rows: one curve per row
  # (a bare name that is neither a variable nor a column: say so, not "not a list")
  if (!is.null(frame) && inherits(unit, "dpfda_column_ref") && inherits(unit$value, "error")) {
    column_names(unit, names(frame), "unit")
  }
  if (is.null(frame) || is.null(frame[["value"]] %||% opts$value)) {
    u <- if (inherits(unit, "dpfda_column_ref")) with_unit_label(unit$value, unit$expr) else unit
    return(if (is.null(frame)) rows_units_of_curves(u, x) else u)
  }
  ucol <- column_names(unit, names(frame), "unit")
  idcol <- opts$id %||% "id"
  ids <- x$ids %||% rownames(x$values)   # (curves snapped by frame_snap_curves() carry them as row names)
  u <- frame[[ucol]][match(as.character(ids), as.character(frame[[idcol]]))]
  if (length(u) != nrow(x$values)) arg_error("unit", "a column of the long data frame `x`", unit)
  if (anyNA(u)) arg_error("unit", "a column without missing values", frame[[ucol]])
  per <- tapply(as.character(frame[[ucol]]), as.character(frame[[idcol]]), function(v) length(unique(v)))
  if (any(per > 1L)) {
    abort_curve_in_two_units(names(per)[per > 1L][1L])
  }
  # incomplete = "drop": the units of the curves left out (a unit with no complete curve still counts)
  du <- if (length(x$dropped)) frame[[ucol]][match(as.character(x$dropped), as.character(frame[[idcol]]))]
  structure(u, name = ucol, dropped_units = du)
}

# Curves that as_curves(incomplete = "drop") made from the rows of a wide
# table (a matrix, a wide data frame, a matrix column) record the row of each
# curve and of each one left out: a unit vector with one entry per row of
# that table (dti_cca$id for as_curves(dti_cca, incomplete = "drop")) then
# gives the units of the curves and of the rows left out. Any other vector
# is returned as it is (one entry per curve).
rows_units_of_curves <- function(u, x) {
  fr <- x$frame_rows
  dr <- x$dropped_rows
  if (is.null(fr) || !is.null(dim(u)) || !(is.atomic(u) || is.factor(u)) || anyNA(u) ||
      length(u) == nrow(x$values) || length(u) != length(fr) + length(dr) || !setequal(c(fr, dr), seq_along(u))) {
    return(u)   # (one entry per curve, or not a unit vector: curve_units() says what is wrong)
  }
  row_units(u, attr(u, "name", exact = TRUE), x)
}

# A data frame in memory whose curves are a matrix column, one per row
# (dti_cca's layout; `value` names it, or, when that is not a column, the
# only numeric matrix column is taken): list(curves on `grid`, the `unit`
# column of their rows). NULL for any other input (long data).
# A row with a missing value is an incomplete individual: refused, or with
# incomplete = "drop" left out and counted with no contribution (as
# as_curves(incomplete = "drop") curves are), its unit still counted.
matrix_frame_curves <- function(x, grid, value, unit, incomplete = "zero") {
  mats <- matrix_columns(x)
  value <- if (!is.null(value) && value %in% mats) value else if (is.null(value) && length(mats) == 1L) mats
  if (is.null(value)) return(NULL)
  M <- x[[value]]
  bad <- rowSums(!is.finite(M)) > 0
  if (any(bad) && incomplete != "drop") {
    rows <- paste(c(utils::head(which(bad), 5L), if (sum(bad) > 5L) "..."), collapse = ", ")
    dpfda_abort(sprintf(paste("%d row%s of `x` (%s) %s missing or non-finite values in the matrix column \"%s\";",
                              "give incomplete = \"drop\" to leave those individuals out (they count with no",
                              "contribution), or repair them."), sum(bad), if (sum(bad) == 1L) "" else "s", rows,
                        if (sum(bad) == 1L) "has" else "have", value), class = data_error_class, arg = "x")
  }
  cv <- wide_matrix_to_curves(M, NULL, grid, "linear", FALSE, FALSE, NULL,
                              incomplete = if (any(bad)) "drop" else "error", value_name = value)
  list(curves = cv, unit = if (!is.null(unit)) row_units(x[[unit]], unit, cv))
}

# The unit column `col` (named `name`) of wide rows, one curve per row
# (curves `x` recording their rows, wide_matrix_to_curves()): the units of
# the curves, and of the rows that incomplete = "drop" left out.
row_units <- function(col, name, x) {
  if (anyNA(col)) arg_error("unit", "a column without missing values", col)
  structure(col[x$frame_rows], name = name, dropped_units = col[x$dropped_rows])
}

# A wide data frame in memory (one curve per row, no `value` column): its
# unit column describes the rows and is not one of the curves' arguments.
wide_frame_drop_unit <- function(x, unit, opts) {
  if (!is.data.frame(x) || is.null(unit) || !is.null(opts$value) || "value" %in% names(x)) return(x)
  if (any(vapply(x, function(v) inherits(v, "tf"), NA))) return(x)
  u <- frame_unit_column(unit, x)
  # (a unit column that is also the curves' `id` stays: the id needs it, and it is no curve value)
  if (is.null(u) || identical(frame_unit_column(opts$id, x), u)) x else x[setdiff(names(x), u)]
}

# The column of the data frame `frame` that `unit` names (a bare name or a
# single string), or NULL when `unit` is not one (a vector of units).
frame_unit_column <- function(unit, frame) {
  if (!inherits(unit, "dpfda_column_ref") && !(is.character(unit) && length(unit) == 1L)) return(NULL)
  tryCatch(column_names(unit, names(frame), "unit"), dpfda_error = function(e) NULL)
}

# summarise_mean() and summarise_cov() of a data frame whose curves are a
# matrix column or a tf column: its curves (matrix_frame_curves(), as_curves())
# and the units of their rows, with the `value` and `unit` arguments of the
# caller (`env`); NULL for any other input.
summary_matrix_frame <- function(x, grid, incomplete, env = parent.frame()) {
  if (!is.data.frame(x)) return(NULL)
  tfs <- names(x)[vapply(x, function(v) inherits(v, "tf"), NA)]
  if (!length(matrix_columns(x)) && !length(tfs)) return(NULL)
  value <- tryCatch(column_arg_names("value", x, env = env), dpfda_error = function(e) NULL)
  unit <- column_arg_names("unit", x, NULL, env = env)
  if (length(tfs) && (if (is.null(value)) length(tfs) == 1L else value %in% tfs)) {
    # a tf column (tidyfun's layout): its curves as dp_mean() reads them, the unit column following them
    cv <- as_curves(x, value = value %||% tfs, grid = grid, incomplete = if (incomplete == "drop") "drop" else "error")
    return(list(curves = cv, unit = if (!is.null(unit)) row_units(x[[unit]], unit, cv)))
  }
  matrix_frame_curves(x, grid, value, unit, incomplete)
}

# "one curve (n)" or "<unit> (n units)": what one individual of the guarantee is. (Not the
# number of curves of the units: replacing one unit changes it, so a release never states it.)
privacy_unit_of <- function(s) {
  f <- function(v) format(v, big.mark = ",", scientific = FALSE)
  if (is.null(s$unit)) sprintf("one curve (%s)", f(s$n)) else sprintf("%s (%s units)", s$unit, f(s$n))
}

# One rule on every source: a curve that does not cover the grid is refused
# (in memory by as_curves(); in a table or chunks, a cell without a row).
refuse_missing_cells <- function(s, drop_hint = TRUE, src = NULL) {
  if (isTRUE(s$missing_cells > 0)) {
    if (is.data.frame(src$data)) {   # (a frame in memory: the empty cells can be named)
      s$where <- missing_cells_where(src$data, src$grid, src$cols$id %||% "id", src$cols$arg %||% "arg",
                                     src$cols$value %||% "value")
    }
    where <- if (length(s$where)) {
      sprintf(" (%s%s)", paste(utils::head(s$where, 3L), collapse = ", "), if (length(s$where) > 3L) ", ..." else "")
    } else ""
    dpfda_abort(sprintf(paste("%s (individual, grid point) cell%s %s no observation%s: some curves do not cover",
                              "the grid. Use a grid the data cover, or interpolate the curves to the grid first",
                              "(as_curves(), or method = \"linear\" for a data frame in memory)%s."),
                        format(s$missing_cells, big.mark = ","), if (s$missing_cells == 1) "" else "s",
                        if (s$missing_cells == 1) "has" else "have", where,
                        if (drop_hint) ", or give incomplete = \"drop\" to leave those individuals out" else ""),
                class = data_error_class, arg = "x")
  }
  s
}

