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
#' columns `id`, `arg`, `value`): arguments are clamped to the range of the
#' grid and snapped to the nearest grid point; the rows of one individual at
#' the same grid point are averaged; the individual's curve is those values,
#' clipped. A grid point without any row of an individual counts as 0 in the
#' curve and in its norm (the summary reports the number of such
#' `missing_cells`; interpolate to the grid first, or choose a grid that the
#' data cover, when it is not 0). In a database all of this (clamping,
#' snapping, averaging, norms, clipping and the sums) runs in the engine, and
#' only `length(grid)` sums come back. Rows with a missing value in `id`,
#' `arg` or `value` are dropped and counted.
#'
#' A [curves()] object is summarised in memory, and gives the same sums as
#' its long form (`as.data.frame()`) on the same grid.
#'
#' @param x Curves, a long data frame, a database table (dbplyr) or
#'   [dp_chunks()].
#' @param grid Public grid (one-dimensional); for curves, their grid.
#' @param tau Public clipping bound.
#' @param weights Quadrature weights of the norm (default: the trapezoid
#'   weights of the grid, as in [kl_basis()]).
#' @param clip `"l2"` (radial, weighted \eqn{L^2}) or `"sup"` (pointwise).
#' @param id,arg,value Column names (strings or bare names, as in [as_curves()]:
#'   `id = Subject`).
#' @param .query Internal: return the lazy query instead of running it.
#' @return A [dpfda_summary] (kind `"mean"`).
#' @examples
#' t <- seq(0, 1, length.out = 21)
#' x <- curves(outer(runif(50, 0.5, 1.5), sin(2 * pi * t)), t)
#' s <- summarise_mean(as.data.frame(x), grid = t, tau = 1)
#' all.equal(s$sums, summarise_mean(x, tau = 1)$sums)
#' @export
summarise_mean <- function(x, grid = NULL, tau, weights = NULL, clip = c("l2", "sup"), id = "id", arg = "arg",
                           value = "value", .query = FALSE) {
  require_args(c("x", "tau"), "summarise_mean")
  id <- column_arg_names("id", x)
  arg <- column_arg_names("arg", x)
  value <- column_arg_names("value", x)
  summarise_mean_impl(x, grid, tau, weights, clip, id, arg, value, .query)
}

# summarise_mean() with column names (strings).
summarise_mean_impl <- function(x, grid = NULL, tau, weights = NULL, clip = c("l2", "sup"), id = "id", arg = "arg",
                                value = "value", .query = FALSE) {
  clip <- check_choice(clip, c("l2", "sup"), "clip")
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e150)
  grid <- summary_grid_1d(x, grid, "Long data")
  m <- length(grid)
  w <- if (is.null(weights)) {
    if (m == 1L) 1 else quadrature_weights(grid)
  } else check_numeric_vector(weights, "weights")
  if (length(w) != m) {
    dpfda_abort(sprintf("`weights` must have one weight per grid point (%d), not %d.", m, length(w)),
                arg = "weights")
  }
  settings <- list(grid = as.double(grid), weights = as.double(w), tau = tau, clip = clip)

  if (inherits(x, "dpfda_curves")) {
    X <- if (clip == "l2") clip_curves_l2(x$values, w, tau) else pmin(pmax(x$values, -tau), tau)
    return(new_dpfda_summary("mean", colSums(X), nrow(X), nrow(X) * m, 0, settings, missing_cells = 0))
  }
  have <- engine_names_or(x)   # (chunks: NULL, the names are checked chunk by chunk)
  id <- engine_columns(id, have, "id", 1L)
  arg <- engine_columns(arg, have, "arg", 1L)
  value <- engine_columns(value, have, "value", 1L)
  if (inherits(x, "dpfda_chunks")) {
    return(warn_dropped(chunks_reduce(x, function(d) {
      summarise_mean_impl(d, grid, tau, w, clip, id, arg, value)
    }, id = id)))
  }
  if (is_lazy_table(x)) return(summarise_mean_lazy(x, grid, tau, w, clip, id, arg, value, settings, .query))
  if (!is.data.frame(x)) arg_error("x", "curves, a long data frame, a database table or dp_chunks()", x)
  cells <- frame_clipped_cells(x, grid, tau, w, clip, id, arg, value)
  sums <- numeric(m)
  s <- rowsum(cells$contrib, cells$k, reorder = TRUE)
  sums[as.integer(rownames(s)) + 1L] <- s[, 1L]
  new_dpfda_summary("mean", sums, cells$n, cells$rows, cells$dropped, settings,
                    missing_cells = cells$n * m - length(cells$contrib))
}

# The public one-dimensional grid of a summary (sorted): that of curves `x`,
# or `grid`; `what` names the data in the error for a grid of points.
summary_grid_1d <- function(x, grid, what) {
  if (inherits(x, "dpfda_curves")) {
    if (is.null(grid)) grid <- x$grid
    if (!isTRUE(all.equal(as.double(grid), as.double(x$grid)))) {
      dpfda_abort("`grid` must be the grid of the curves `x`.", arg = "grid")
    }
  }
  if (is.null(grid)) dpfda_abort("`grid` is required: the public grid of the curves.", arg = "grid")
  grid <- as_grid(grid, "grid")
  if (!is.null(dim(grid))) dpfda_abort(sprintf("%s are summarised on a one-dimensional grid.", what), arg = "grid")
  sort(as.double(grid))
}

# Each individual's clipped curve, cell by cell, from a long data frame (the
# in-memory half of summarise_mean(), shared with summarise_cov()): rows
# with a missing value dropped and counted, arguments snapped to the grid,
# rows of one (individual, grid point) averaged, the curve clipped. Returns
# the cells' individual `i` (0-based), grid index `k` (0-based) and clipped
# value `contrib`, with `n`, `rows`, `dropped`.
frame_clipped_cells <- function(x, grid, tau, w, clip, id, arg, value) {
  m <- length(grid)
  for (a in c("id", "arg", "value")) {   # chunks: the columns are known only now
    cn <- get(a)
    if (!cn %in% names(x)) engine_missing_column(cn, names(x), a)
  }
  cl <- frame_clean(x, c(arg, value), id)
  d <- cl$data
  if (!nrow(d)) {                        # every row dropped: no cells
    return(list(i = numeric(), k = integer(), contrib = numeric(), n = 0, rows = cl$rows, dropped = cl$dropped))
  }
  uid <- unique(d[[id]])
  n <- length(uid)
  k <- snap_to_grid(as.double(d[[arg]]), grid)
  cell <- (match(d[[id]], uid) - 1) * m + k
  cs <- rowsum(cbind(as.double(d[[value]]), 1), cell, reorder = TRUE)
  cell_u <- as.double(rownames(cs))
  v <- cs[, 1L] / cs[, 2L]
  ck <- as.integer(cell_u %% m)
  ci <- cell_u %/% m
  if (clip == "l2") {
    nrm2 <- rowsum(w[ck + 1L] * v * v, ci, reorder = TRUE)
    sc <- ifelse(nrm2[, 1L] > tau * tau, tau / sqrt(nrm2[, 1L]), 1)
    contrib <- v * sc[match(ci, as.double(rownames(nrm2)))]
  } else {
    contrib <- pmin(pmax(v, -tau), tau)
  }
  list(i = ci, k = ck, contrib = unname(contrib), n = n, rows = cl$rows, dropped = cl$dropped)
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

summarise_mean_lazy <- function(x, grid, tau, w, clip, id, arg, value, settings, .query) {
  m <- length(grid)
  cells <- lazy_clipped_cells(x, grid, tau, w, clip, id, arg, value, .query)
  nn <- cells$nn
  q <- cells$q
  q <- dplyr::group_by(q, !!as.name("k"))
  q <- dplyr::summarise(q, s = sum(!!as.name("c"), na.rm = TRUE), cells = dplyr::n())
  if (.query) return(q)
  res <- engine_collect(q)
  sums <- numeric(m)
  sums[as.integer(res$k) + 1L] <- res$s
  n <- lazy_n_ids(nn$q)
  warn_dropped(new_dpfda_summary("mean", sums, n, nn$rows, nn$dropped, settings,
                                 missing_cells = n * m - sum(res$cells)))
}

# Each individual's clipped curve, cell by cell, as a lazy query with columns
# id, k (0-based grid index) and c (clipped value): the engine half of
# summarise_mean(), shared with summarise_cov(). Also returns the row and
# missing-value counts (`nn`).
lazy_clipped_cells <- function(x, grid, tau, w, clip, id, arg, value, .query) {
  m <- length(grid)
  q <- lazy_select(x, c(id = id, arg = arg, value = value), c("id", "arg", "value"),
                   numeric = c("arg", "value"), check = !.query)
  nn <- lazy_drop_null(q, c("id", "arg", "value"), check = !.query)
  q <- nn$q
  g1 <- sql_lit(grid[1L])      # literals exact to the last bit, as R's snap_to_grid()
  q <- dplyr::mutate(q, ac = pmin(pmax(!!as.name("arg"), !!g1, na.rm = TRUE), !!sql_lit(grid[m]), na.rm = TRUE))
  step <- grid_uniform_step(grid)
  q <- if (m == 1L) dplyr::mutate(q, k = 0L) else if (!is.na(step)) {
    dplyr::mutate(q, k = pmin(pmax(floor((!!as.name("ac") - !!g1) / !!sql_lit(step) + 0.5), 0, na.rm = TRUE),
                              !!(m - 1), na.rm = TRUE))
  } else {
    dplyr::mutate(q, k = !!sql_interval(q, "ac", (grid[-1L] + grid[-m]) / 2))
  }
  q <- dplyr::group_by(q, !!as.name("id"), !!as.name("k"))
  q <- dplyr::summarise(q, v = mean(!!as.name("value"), na.rm = TRUE))
  q <- dplyr::ungroup(q)
  if (clip == "l2") {
    q <- dplyr::mutate(q, wk = !!sql_lookup(q, "k", w))
    q <- dplyr::group_by(q, !!as.name("id"))
    q <- dplyr::mutate(q, nrm2 = sum(!!quote(wk * v * v), na.rm = TRUE))
    q <- dplyr::ungroup(q)
    q <- dplyr::mutate(q, c = !!as.name("v") * dplyr::if_else(!!as.name("nrm2") > !!sql_lit(tau * tau),
                                                               !!sql_lit(tau) / sqrt(!!as.name("nrm2")), 1))
  } else {
    q <- dplyr::mutate(q, c = pmin(pmax(!!as.name("v"), !!sql_lit(-tau), na.rm = TRUE), !!sql_lit(tau), na.rm = TRUE))
  }
  list(q = q, nn = nn)
}

# A double as an SQL literal exact to the last bit (dbplyr writes 15 digits),
# with a decimal point so that no engine reads it as an integer.
sql_lit <- function(x) {
  s <- sql_num(x)
  dbplyr::sql(ifelse(grepl("[.eEnN]", s), s, paste0(s, ".0")))
}

# dp_mean() on a long table, chunks or a summary: the release of dp_mean()
# from the clipped curve sums.
dp_mean_engine <- function(x, epsilon, tau, mechanism, kernel, select, noise, budget, call, ...) {
  opts <- resolve_column_opts(capture_dots(..., .cols = c("id", "arg", "value")), x, c("id", "arg", "value"))
  eng <- opts[intersect(names(opts), c("grid", "id", "arg", "value"))]
  opts <- opts[setdiff(names(opts), names(eng))]
  budget <- check_budget(budget)
  noise <- check_noise(noise)
  epsilon <- check_epsilon(epsilon)
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e150)
  mechanism <- check_mechanism(mechanism, iclp_mechanisms, "dp_mean")
  if (!is.null(kernel)) check_kernel(kernel)
  select <- check_choice(select, c("pss", "pcv", "manual"), "select")
  if (select == "pcv") {
    dpfda_abort("select = \"pcv\" needs the curves in memory; use \"pss\" or \"manual\" with a table or chunks.",
                arg = "select")
  }
  if (length(opts) && (is.null(names(opts)) || any(!nzchar(names(opts))))) {
    dpfda_abort("All arguments in `...` must be named.", arg = "...")
  }
  bad <- setdiff(names(opts), dp_mean_options)
  if (length(bad)) {
    dpfda_abort(sprintf("`%s` is not an option of dp_mean(); see ?dp_mean.", bad[1L]), arg = bad[1L])
  }
  o <- iclp_check_options(opts, mechanism, select)
  clip <- if (mechanism == "bernstein") "sup" else "l2"
  if (inherits(x, "dpfda_summary")) {
    s <- check_summary(x, "mean")
    grid <- s$settings$grid
    if (!identical(s$settings$clip, clip) || !isTRUE(all.equal(s$settings$tau, tau))) {
      dpfda_abort(sprintf("The summary was clipped with %s, tau = %s; this release needs %s, tau = %s.",
                          s$settings$clip, format(s$settings$tau), clip, format(tau)), arg = "x")
    }
  } else {
    grid <- eng$grid
    if (is.null(grid)) dpfda_abort("`grid` is required (in `...`): the public grid of the curves.", arg = "grid")
  }
  grid <- sort(as_grid(grid, "grid"))
  if (is.null(kernel)) kernel <- default_mech_kernel(range(grid))   # as dp_mean() in memory
  if (mechanism == "bernstein") {
    if (!inherits(x, "dpfda_summary")) {
      s <- do.call(summarise_mean_impl, c(list(x, grid = grid, tau = tau, clip = "sup"), eng[names(eng) != "grid"]))
    }
    s <- check_summary(s, "mean")
    warn_missing_cells(s)
    n <- s$n
    g <- grid
    if (length(g) < 2L) dpfda_abort("mechanism = \"bernstein\" needs at least 2 grid points.", arg = "grid")
    lat <- g[1L] + (0:o$k) / o$k * (g[length(g)] - g[1L])
    f_lat <- stats::approx(g, s$sums / n, xout = lat, rule = 2)$y
    br <- dp_bernstein(f_lat, sensitivity = 2 * tau / n, epsilon = epsilon, k = o$k,
                       domain = c(g[1L], g[length(g)]), noise = noise)
    br$call <- NULL
    vals <- new_dpfda_curves(matrix(stats::predict(br, g), nrow = 1L), g, as_domain(NULL, g))
    rel <- new_dpfda_release(vals, mechanism = "bernstein", epsilon = epsilon, delta = 0,
                             sensitivity = 2 * tau / n, noise_scale = br$noise_scale,
                             noise = sprintf("i.i.d. Laplace on %d Bernstein lattice values", o$k + 1L),
                             call = call, bernstein = br, params = list(k = o$k), tau = tau, n = n,
                             selection = select, epsilon_release = epsilon, epsilon_select = 0,
                             noise_exact = noise == "exact", class = "dpfda_iclp_release")
    charge_release(budget, rel, "dp_mean")
    return(rel)
  }
  basis <- kl_basis(kernel, grid, J = o$J, weights = o$weights, tol = o$tol)
  if (inherits(x, "dpfda_summary")) {
    if (!isTRUE(all.equal(s$settings$weights, basis$weights))) {
      dpfda_abort("The summary was computed with other quadrature `weights` than the basis.", arg = "weights")
    }
  } else {
    s <- do.call(summarise_mean_impl, c(list(x, grid = basis$grid, tau = tau, weights = basis$weights, clip = "l2"),
                                   eng[names(eng) != "grid"]))
  }
  s <- check_summary(s, "mean")
  warn_missing_cells(s)
  n <- s$n
  h <- if (is.null(o$h)) kernel_edr(kernel, 1L) else o$h
  par <- iclp_params(mechanism, select, o, n, epsilon, tau, h, basis, NULL, kernel)
  a <- as.vector(kl_coef(basis, matrix(s$sums / n, nrow = 1L)))
  lam <- basis$values
  out <- iclp_release_core(mechanism, a, lam, basis, n, epsilon, tau, par, o, kernel, noise = noise)
  vals <- new_dpfda_curves(out$values, basis$grid, as_domain(NULL, basis$grid))
  rel <- iclp_mean_release(out, vals, basis, mechanism, epsilon, par, kernel, call, h, tau, n, select)
  iclp_mean_charge(budget, out, mechanism, epsilon, par)
  rel
}

warn_missing_cells <- function(s) {
  if (isTRUE(s$missing_cells > 0)) {
    dpfda_warn(sprintf(paste("%s (individual, grid point) cells have no observation and count as 0;",
                             "interpolate the curves to the grid first, or use a grid the data cover."),
                       format(s$missing_cells, big.mark = ",")), "dpfda_warning_data")
  }
  invisible(s)
}
