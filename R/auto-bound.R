# tau = "auto": a private bound on the curves' norms (issue 30). A share of
# epsilon buys, by the exponential mechanism, a high quantile of the norms
# among public log-spaced candidate bounds; that candidate becomes tau. One
# pass over the data gives everything: per candidate bin of the norms, the
# count of individuals and two sums on the grid (A: the curves, B: the curves
# divided by their norm, or their signs for the sup rule), from which the sum
# of the curves clipped at any candidate follows exactly:
#   sum_i clip(X_i, c_k) = sum_{bins b <= k} A_b + c_k sum_{bins b > k} B_b.
# The summaries add over chunks and are computed in the engine for tables.

# Candidates per decade of the public log-scale grid of bounds.
auto_bound_per_decade <- 5

# The options of tau = "auto" from dp_mean()'s `...`, checked, with defaults:
# the default range is public (it depends on the measure S of the grid's
# domain only, as the L2 norm of a constant does: |c| sqrt(S)).
auto_bound_options <- function(o, clip, S, max_tau = 1e150) {
  share <- if (is.null(o$bound_share)) NULL else
    check_number(o$bound_share, "bound_share", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  q <- if (is.null(o$bound_quantile)) 0.9 else
    check_number(o$bound_quantile, "bound_quantile", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  range <- o$bound_range
  if (is.null(range)) {
    range <- c(1e-4, 1e4) * (if (clip == "l2") sqrt(S) else 1)
  } else {
    ok <- is.numeric(range) && length(range) == 2L && all(is.finite(range)) && all(range > 0) &&
      range[1L] < range[2L] && range[2L] <= max_tau && range[2L] / range[1L] <= 1e30
    if (!isTRUE(ok)) {
      arg_error("bound_range", sprintf(paste("two positive numbers `c(low, high)`, low < high, at most %s and at",
                                             "most 30 decades apart (the public range of candidate bounds)"),
                                       format(max_tau)), range)
    }
    range <- as.double(range)
  }
  list(share = share, quantile = q, range = range, candidates = auto_bound_candidates(range))
}

# Log-spaced public candidates from range[1] to range[2] (both included).
auto_bound_candidates <- function(range) {
  lr <- log10(range)
  K <- max(1L, as.integer(ceiling((lr[2L] - lr[1L]) * auto_bound_per_decade - 1e-9)))
  cand <- 10^seq(lr[1L], lr[2L], length.out = K + 1L)
  cand[1L] <- range[1L]
  cand[K + 1L] <- range[2L]
  cand
}

# Bin (0-based) of each norm among the candidates: the number of candidates
# strictly below it (a norm equal to a candidate is within that bound). For
# the L2 rule `x` are squared norms and compared with the squared candidates.
auto_bin_index <- function(x, edges) findInterval(x, edges, left.open = TRUE)

# CASE expression of the same bins in SQL, on the column `col` of the query
# in progress `s` (R/engine-sql.R): left-open intervals, as findInterval().
sql_bin_index <- function(s, col, edges) sql_interval(s, col, edges, op = "<=")

# The binned summary from cells of individuals (`ci` 0-based individual index,
# `ck` 0-based grid index, centred value `v`, per-cell weight `wt` (1 / the
# unit's number of curves, or 1)), `unit_of` the unit (1-based) of each
# individual or NULL. Returns A, B ((K + 2) x m), the counts per bin (of units
# when there are units) and the number of cells.
auto_bins_from_cells <- function(ci, ck, v, wt, w, m, cand, clip, unit_of = NULL, n_hist) {
  K2 <- length(cand) + 1L
  A <- B <- matrix(0, K2, m)
  counts <- numeric(K2)
  if (length(v)) {
    if (clip == "l2") {
      nrm2 <- rowsum(w[ck + 1L] * v * v, ci, reorder = TRUE)
      ids <- as.double(rownames(nrm2))
      ibin <- auto_bin_index(nrm2[, 1L], cand^2)
      j <- match(ci, ids)
      cbin <- ibin[j]
      nr <- sqrt(nrm2[j, 1L])
      bv <- ifelse(nr > 0, v / nr, 0)
    } else {
      cbin <- auto_bin_index(abs(v), cand)
      bv <- sign(v)
      mb <- tapply(cbin, ci, max)
      ids <- as.double(names(mb))
      ibin <- as.integer(mb)
    }
    key <- cbin * m + ck
    sa <- rowsum(cbind(wt * v, wt * bv), key, reorder = TRUE)
    kk <- as.double(rownames(sa))
    idx <- cbind(kk %/% m + 1, kk %% m + 1)
    A[idx] <- sa[, 1L]
    B[idx] <- sa[, 2L]
    if (!is.null(unit_of)) {   # a unit's bin: the largest of its curves'
      ub <- tapply(ibin, unit_of[ids + 1], max)
      ibin <- as.integer(ub)
    }
    counts <- tabulate(ibin + 1L, K2)
  }
  # individuals (units) without any cell (incomplete, dropped) have norm 0: bin 0
  counts[1L] <- counts[1L] + (n_hist - sum(counts))
  list(A = A, B = B, counts = as.double(counts), cells = length(v))
}

# The binned summary of a source for dp_mean(tau = "auto"): a dpfda_summary of
# kind "mean_bins" (sums: rbind(A, B)), with `norm_counts`; chunks add.
summarise_mean_bins <- function(src, cand, clip, w, center, incomplete) {
  grid <- src$grid
  m <- grid_size(grid)
  settings <- list(grid = if (is.null(dim(grid))) as.double(grid) else grid, weights = as.double(w),
                   candidates = cand, clip = clip)
  if (!is.null(center)) settings$center <- center
  if (inherits(src$data, "dpfda_summary")) {
    dpfda_abort(paste("tau = \"auto\" needs the data (curves, a data frame, a table or chunks), not a",
                      "summary computed with a fixed tau; give tau."), arg = "tau")
  }
  if ((!is.null(src$unit) || !is.null(src$cols$unit)) && incomplete == "drop") {
    dpfda_abort(paste("tau = \"auto\" with `unit` and incomplete = \"drop\" is not available yet (each works",
                      "without the other): give a numeric tau (dp_accuracy(solve_for = \"tau\") plans one), or",
                      "a grid the curves cover."),
                arg = "incomplete")
  }
  if (!is.null(src$curves)) {
    X <- src$curves$values   # (centred already)
    n <- nrow(X)
    k_drop <- length(src$curves$dropped)
    ci <- rep(seq_len(n) - 1, times = m)
    ck <- rep(seq_len(m) - 1L, each = n)
    wt <- 1
    unit_of <- NULL
    n_hist <- n + k_drop
    if (!is.null(src$unit)) {
      u <- curve_units(src$unit, n)
      wt <- (1 / tabulate(u$index))[u$index][ci + 1]
      unit_of <- u$index
      n_hist <- u$n
    }
    b <- auto_bins_from_cells(ci, ck, as.vector(X), wt, w, m, cand, clip, unit_of, n_hist)
    return(new_dpfda_summary("mean_bins", rbind(b$A, b$B), n_hist, n * m, 0, settings, norm_counts = b$counts,
                             missing_cells = 0, incomplete_n = if (is.null(src$unit)) k_drop else 0,
                             unit = if (!is.null(src$unit)) attr(src$unit, "name", exact = TRUE) %||% "unit",
                             curves = if (!is.null(src$unit)) n))
  }
  cols <- src$cols
  id <- cols$id %||% "id"
  arg <- cols$arg %||% "arg"
  value <- cols$value %||% "value"
  unit <- cols$unit
  inc <- if (incomplete == "drop") "drop" else "zero"
  x <- src$data
  if (inherits(x, "dpfda_chunks")) {
    s <- warn_dropped(chunks_reduce(x, function(d) {
      frame_mean_bins(d, grid, cand, w, clip, id, arg, value, center, inc, unit, settings)
    }, id = if (is.null(unit)) id else unit_id(unit), fill_by = if (!is.null(unit)) id))
    return(s)
  }
  if (is_lazy_table(x)) return(lazy_mean_bins(x, grid, cand, w, clip, id, arg, value, center, inc, unit, settings))
  if (is.data.frame(x)) {   # a long data frame in memory, by the rule of tables
    return(warn_dropped(frame_mean_bins(x, grid, cand, w, clip, id, arg, value, center, inc, unit, settings)))
  }
  arg_error("x", "curves, a long data frame, a database table or dp_chunks()", x)
}

# One data frame (a chunk) of long data: its binned summary.
frame_mean_bins <- function(d, grid, cand, w, clip, id, arg, value, center, incomplete, unit, settings) {
  m <- length(grid)
  top <- cand[length(cand)]
  cells <- frame_clipped_cells(d, grid, top, w, clip, id, arg, value, center, incomplete, unit)
  unit_of <- cells$unit_of
  n_hist <- if (is.null(unit)) cells$n else cells$n_units %||% 0
  b <- auto_bins_from_cells(cells$i, cells$k, cells$v, cells$weight %||% 1, w, m, cand, clip, unit_of, n_hist)
  out <- new_dpfda_summary("mean_bins", rbind(b$A, b$B), n_hist, cells$rows, cells$dropped, settings,
                           norm_counts = b$counts,
                           missing_cells = (cells$n - cells$incomplete_n) * m - b$cells,
                           incomplete_n = cells$incomplete_n)
  if (!is.null(unit)) {
    out$missing_cells <- cells$n * m - b$cells
    out$unit <- unit
    out$curves <- as.double(cells$n)
  }
  with_beyond(out, cells$beyond)
}

# A database table: the same binned summary, computed in the engine.
lazy_mean_bins <- function(x, grid, cand, w, clip, id, arg, value, center, incomplete, unit, settings) {
  m <- length(grid)
  K2 <- length(cand) + 1L
  top <- cand[length(cand)]
  cells <- lazy_clipped_cells(x, grid, top, w, clip, id, arg, value, FALSE, center, incomplete, unit,
                              unit_checked = TRUE)   # (checked below, before any query of the cells)
  nn <- cells$nn
  s <- sq_from(cells$q)   # (SQL written out: R/engine-sql.R)
  v <- sq_id(s, "v")
  sgn <- function(e) sprintf("CASE WHEN %s > 0 THEN 1.0 WHEN %s < 0 THEN -1.0 ELSE 0.0 END", e, e)
  if (clip == "l2") {
    n2 <- sq_id(s, "nrm2")
    s <- sq_mutate(s, list(bin = sql_bin_index(s, "nrm2", cand^2),
                           bv = sprintf("CASE WHEN %s > 0 THEN %s / SQRT(%s) ELSE 0.0 END", n2, v, n2)))
  } else {
    s <- sq_mutate(s, list(av = sprintf("ABS(%s)", v)))
    s <- sq_mutate(s, list(bin = sql_bin_index(s, "av", cand), bv = sgn(v)))
  }
  # the histogram: one bin per individual (the largest of its cells' for the sup rule), per unit the largest
  # (before the units' counts: a bin needs none, and SQLite's parser stack is finite: 17 nested
  # subqueries overflowed it)
  h <- sq_summarise(s, if (is.null(unit)) "id" else "u", list(bin = sprintf("MAX(%s)", sq_id(s, "bin"))))
  hc <- engine_collect(sq_lazy(sq_summarise(h, "bin", list(cnt = "COUNT(*)"))))
  a_ <- v
  b_ <- sq_id(s, "bv")
  if (!is.null(unit)) {   # each unit: the mean of its curves (weight 1 / its number of curves)
    cu <- sq_summarise(sq_from(nn$q), c("id", "u"), list())   # (the distinct pairs)
    if (nn$n_ids != plain_number(engine_collect(sq_lazy(sq_summarise(cu, character(),
                                                                              list(n = "COUNT(*)"))))$n, 0)) {
      abort_curve_in_two_units()
    }
    q <- lazy_unit_counts(sq_lazy(s), sq_lazy(sq_summarise(cu, "u", list(nc = "COUNT(*)"))))
    s <- sq_from(q)
    nc <- sq_id(s, "nc")
    a_ <- sprintf("%s / %s", sq_id(s, "v"), nc)   # (divided inside the sums: no subquery more)
    b_ <- sprintf("%s / %s", sq_id(s, "bv"), nc)
  }
  res <- engine_collect(sq_lazy(sq_summarise(s, c("bin", "k"), list(a = sprintf("SUM(%s)", a_),
                                                                    b = sprintf("SUM(%s)", b_),
                                                                    cells = "COUNT(*)"))))
  A <- B <- matrix(0, K2, m)
  idx <- cbind(as.integer(res$bin) + 1L, as.integer(res$k) + 1L)
  A[idx] <- as.double(res$a)
  B[idx] <- as.double(res$b)
  counts <- numeric(K2)
  counts[as.integer(hc$bin) + 1L] <- as.double(hc$cnt)
  n <- nn$n_ids
  n_cells <- sum(as.double(res$cells))
  n_full <- if (incomplete == "drop") n_cells / m else n
  n_hist <- n
  if (!is.null(unit)) {
    n_hist <- lazy_n_distinct(nn$q, "u")
  }
  counts[1L] <- counts[1L] + (n_hist - sum(counts))
  out <- new_dpfda_summary("mean_bins", rbind(A, B), n_hist, nn$rows, nn$dropped, settings, norm_counts = counts,
                           missing_cells = n_full * m - n_cells, incomplete_n = n - n_full)
  if (!is.null(unit)) {
    out$unit <- unit
    out$curves <- n
  }
  warn_dropped(with_beyond(out, nn$beyond))
}

# The private choice: the exponential mechanism over the K + 2 bins of the
# norms (bin 0: at most c_0; bin b: (c_{b-1}, c_b]; bin K + 1: above c_K)
# with utility -(distance of the target rank t to [r_{b-1}, r_b]), r_b the
# number of individuals with norm at most c_b (r_{-1} = 0, r_{K+1} = n).
# Replacing one individual moves it between bins, so every r_b, hence every
# utility, changes by at most 1: sensitivity 1. Exact integer sampling
# (dp_select()'s sampler). Returns the bin (1-based, 1..K + 2).
auto_bound_select <- function(counts, t, eps_b) {
  r <- cumsum(counts)
  lo <- c(0, r[-length(r)])
  u <- -pmax(0, t - r, lo - t)
  select_exact(u, 1, eps_b)
}

# Individuals the target rank leaves above the bound: at least (1 - q) n, and
# at least k0 = 2 (log(K + 2) + L) / eps_b. The rank utility is flat above
# the largest norm (every bin there has utility -k0), so those bins together
# have probability at most (K + 2) exp(-eps_b k0 / 2) = exp(-L) of being
# chosen: with L = log(1000), a bound far above the data (which would drown
# the release in noise) is chosen at most once in 1000 calls, whatever the
# range. Public (n, the budget and the range only).
auto_bound_tail <- log(1000)
auto_bound_k0 <- function(n, q, eps_b, K2) max((1 - q) * n, 2 * (log(K2) + auto_bound_tail) / eps_b)

# The smallest share of epsilon for which n individuals are enough (the target
# rank n - k0 at least the median, n >= 2 k0).
auto_bound_min_share <- function(n, epsilon, K2) 4 * (log(K2) + auto_bound_tail) / (n * epsilon)

# The share of epsilon spent on the bound: the given one, or by default 0.1,
# raised (up to 0.5) when n epsilon is too small for 0.1; refused (classed)
# when n is too small for the quantile at that share. `room`: the share of
# epsilon the other parts of the release leave (dp_mean()'s count of complete
# individuals and inference take theirs first); the bound must leave some of
# it to the release, and the refusal says so before anything is spent.
auto_bound_share <- function(ab, n, epsilon, bound = "tau", room = 1, others = NULL) {
  K2 <- length(ab$candidates) + 1L
  need <- auto_bound_min_share(n, epsilon, K2)
  top <- min(0.5, 0.75 * room)   # (the most a default share takes: the release keeps a quarter of the rest)
  share <- if (is.null(ab$share)) min(max(0.1, need), top) else ab$share
  others <- others %||% "the other parts of the release"
  left <- if (room < 1) sprintf(" (%s %s %s of epsilon first, so bound_share must be below %s.)", others,
                                if (grepl(" and |parts", others)) "take" else "takes", format(1 - room, digits = 3),
                                format(room, digits = 3)) else ""
  if (share >= room * (1 - 1e-12)) {
    dpfda_abort(sprintf("bound_share (%s) leaves nothing of epsilon for the release: give a smaller `bound_share`.%s",
                        format(share, digits = 4), left), arg = "bound_share")
  }
  if (share < need * (1 - 1e-12)) {
    what <- if (need < room * (1 - 1e-3)) sprintf("a larger `bound_share` (at least %.3g), a larger epsilon", need) else
      sprintf("a larger epsilon (at least %.3g with bound_share = %s)", need * epsilon / top, format(top, digits = 3))
    dpfda_abort(sprintf(paste("n = %s is too small for a private bound at bound_share = %s of epsilon = %s:",
                              "the private quantile needs n * epsilon * bound_share >= %.3g (%s candidate",
                              "bounds). Give `%s`, or %s, or a narrower `bound_range`.%s"),
                        format(n), format(share, digits = 4), format(epsilon, digits = 4),
                        4 * (log(K2) + auto_bound_tail), K2 - 1L, bound, what, left),
                class = "dpfda_error_privacy", arg = "bound_share")
  }
  share
}

# The mean summary (kind "mean") of candidate k (1-based) from the binned one.
mean_bins_at <- function(sb, k) {
  cand <- sb$settings$candidates
  K2 <- length(cand) + 1L
  A <- sb$sums[seq_len(K2), , drop = FALSE]
  B <- sb$sums[K2 + seq_len(K2), , drop = FALSE]
  sums <- colSums(A[seq_len(k), , drop = FALSE]) + cand[k] * colSums(B[-seq_len(k), , drop = FALSE])
  settings <- sb$settings
  settings$candidates <- NULL
  settings$tau <- cand[k]
  settings <- settings[intersect(c("grid", "weights", "tau", "clip", "center"), names(settings))]
  out <- new_dpfda_summary("mean", unname(sums), sb$n, sb$rows, sb$dropped, settings,
                           missing_cells = sb$missing_cells, incomplete_n = sb$incomplete_n)
  if (!is.null(sb$unit)) {
    out$unit <- sb$unit
    out$curves <- sb$curves
  }
  out
}

# The private choice of a bound from a binned summary `sb` (the checks, the
# share, the exponential mechanism). A choice outside the range (the bin
# below the lowest or above the highest candidate) is refused after the
# budget of the bound is charged: the refusal is a function of the private
# choice only. Returns the bin (1-based), the bound and the record.
# `bound` and `values` name the bound and what it bounds in the messages.
auto_bound_choose <- function(sb, ab, epsilon, budget, label, drop_hint = TRUE, bound = "tau",
                              values = "the norms of the curves", room = 1, others = NULL) {
  n <- sb$n
  share <- auto_bound_share(ab, n, epsilon, bound, room, others)
  eps_b <- share * epsilon
  cand <- ab$candidates
  K2 <- length(cand) + 1L
  k0 <- auto_bound_k0(n, ab$quantile, eps_b, K2)
  b <- auto_bound_select(sb$norm_counts, n - k0, eps_b)
  if (b == 1L || b == K2) {
    charge_budget(budget, eps_b, 0, sprintf("%s %s = \"auto\" (bound only, refused)", label, bound), unit = sb$unit)
    dpfda_abort(sprintf(paste("The private bound fell %s `bound_range` = [%s, %s]: %s",
                              "seem to lie %s it. Give `%s`, or a `bound_range` %s (the budget of the bound,",
                              "epsilon %s, is spent)."),
                        if (b == 1L) "below" else "above", format(ab$range[1L]), format(ab$range[2L]), values,
                        if (b == 1L) "below" else "above", bound,
                        if (b == 1L) "with a smaller low end" else "with a larger high end",
                        format(eps_b, digits = 4)),
                class = "dpfda_error_data", arg = "bound_range")
  }
  # bin b (1-based) is (c_{b-2}, c_{b-1}]: its upper end, candidate b, becomes tau
  list(index = b, tau = cand[b], epsilon = eps_b, share = share, quantile = 1 - k0 / n, range = ab$range)
}

# dp_mean(tau = "auto"): the binned summary, the checks, the private choice.
# Returns the mean summary at the chosen bound with the record of the choice.
mean_auto_bound <- function(src, ab, clip, w, center, incomplete, epsilon, budget, room = 1, others = NULL) {
  sb <- summarise_mean_bins(src, ab$candidates, clip, w, center, incomplete)
  if (incomplete == "error") refuse_missing_cells(sb)
  ch <- auto_bound_choose(sb, ab, epsilon, budget, "dp_mean", room = room, others = others)
  c(list(summary = mean_bins_at(sb, ch$index)), ch)
}

# The options of tau = "auto" taken out of `...` (for functions whose `...`
# goes elsewhere): list(auto = the options, rest = the other arguments).
split_bound_options <- function(dots) {
  nm <- names(dots) %||% rep("", length(dots))
  is_b <- nm %in% c("bound_share", "bound_range", "bound_quantile")
  list(auto = dots[is_b], rest = dots[!is_b])
}

# `tau`: a positive number, or "auto" where the function offers it.
check_tau <- function(tau, auto = TRUE, upper = 1e150) {
  if (is.character(tau) || is.factor(tau)) {
    arg_error("tau", sprintf(if (auto) "a positive number at most %s, or \"auto\" (a private bound)" else
      "a positive number at most %s", format(upper)), tau)
  }
  check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = upper)
}

# A line of the print of a release whose tau was chosen privately.
print_tau_auto <- function(x) {
  if (!is.null(x$tau_auto)) {
    rg <- x$tau_auto$range
    cat(sprintf(paste("  tau chosen privately (bound_share %s of epsilon: %s; targeting the %s quantile of the norms;",
                      "candidates over bound_range [%s, %s], in the data's units)\n"),
                format(x$tau_auto$share, digits = 3), format(x$tau_auto$epsilon, digits = 4),
                format(x$tau_auto$quantile, digits = 3), format(rg[1L], digits = 3), format(rg[2L], digits = 3)))
  }
  invisible()
}

# The options of tau = "auto" given with a numeric tau: an error (they would be ignored).
auto_bound_unused <- function(opts, bound = "tau", names = c("bound_share", "bound_range", "bound_quantile")) {
  given <- intersect(names, names(opts))
  if (length(given)) {
    dpfda_abort(sprintf("`%s` applies only with %s = \"auto\"; drop it or give %s = \"auto\".", given[1L],
                        bound, bound), arg = given[1L])
  }
  invisible()
}
