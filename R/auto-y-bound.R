# y_bound = "auto" in dp_gp_regression() and dp_bin_regression() (issue 30):
# the rule of tau = "auto" (R/auto-bound.R) applied to the absolute outputs
# |y_i - c| about a public centre c (`bound_center`, default 0). A share of
# epsilon buys, by the exponential mechanism over public log-spaced
# candidates, a high quantile B of |y - c|, and y_bound becomes c + c(-B, B).
# Neighbours differ in one output (the inputs are public), so replacing it
# moves every rank r_b of the histogram by at most 1: sensitivity 1, as for
# the norms. The rest of epsilon (and all of delta) goes to the release,
# calibrated to the chosen y_bound: the call is epsilon-DP by composition.

# The options of y_bound = "auto" (names in `...`).
ybound_option_names <- c("bound_share", "bound_range", "bound_quantile", "bound_center")

# The options of y_bound = "auto" taken out of a list of `...` arguments:
# list(auto = the options, rest = the other arguments).
split_ybound_options <- function(dots) {
  nm <- names(dots) %||% rep("", length(dots))
  is_b <- nm %in% ybound_option_names
  list(auto = dots[is_b], rest = dots[!is_b])
}

# Checked options of y_bound = "auto", with defaults: the range of the
# candidates is c(1e-4, 1e4) times a public scale of the outputs (the prior
# sd sqrt(v + noise_variance) of GP regression, so the default follows the
# units the user gave the kernel; 1 for binning), the centre 0.
ybound_auto_options <- function(o, scale = 1) {
  center <- if (is.null(o$bound_center)) 0 else
    check_number(o$bound_center, "bound_center", lower = -1e150, upper = 1e150,
                 what = "one finite public number (the centre of the outputs' bound)")
  o$bound_center <- NULL
  if (is.null(o$bound_range)) {
    rng <- c(1e-4, 1e4) * scale
    if (all(is.finite(rng)) && rng[1L] > 0 && rng[2L] <= 1e150) o$bound_range <- rng
  }
  ab <- auto_bound_options(o, "sup", 1, max_tau = 1e150)
  ab$center <- center
  ab
}

# The histogram of |y - c| over the K + 2 bins of the candidates (bin 0: at
# most c_0, ..., bin K + 1: above c_K). Missing outputs count as c (bin 0).
ybound_hist <- function(y, center, cand, weights = NULL) {
  v <- abs(as.double(y) - center)
  v[is.na(v)] <- 0
  b <- auto_bin_index(v, cand) + 1L
  if (is.null(weights)) return(as.double(tabulate(b, length(cand) + 1L)))
  # (with a privacy unit each row weighs 1 / its unit's rows: a whole unit moves the cumulative
  # weights by at most 1, as one row does the counts)
  out <- numeric(length(cand) + 1L)
  per <- rowsum(weights, b)
  out[as.integer(rownames(per))] <- per[, 1L]
  out
}

# The private choice of y_bound from the histogram `counts` of n outputs.
# Returns the record (bound B = tau, epsilon, share, quantile, range) with
# the centre and y_bound = centre + c(-B, B).
ybound_choose <- function(counts, n, ab, epsilon, budget, label) {
  ch <- auto_bound_choose(list(n = n, norm_counts = counts), ab, epsilon, budget, label, bound = "y_bound",
                          values = sprintf("the outputs' distances |y - %s| to the centre", format(ab$center)))
  ch$center <- ab$center
  ch$y_bound <- ab$center + c(-1, 1) * ch$tau
  if (!all(is.finite(ch$y_bound)) || !(ch$y_bound[1L] < ch$y_bound[2L])) {
    dpfda_abort("The chosen y_bound overflows or collapses at this `bound_center`; centre the outputs first.",
                class = "dpfda_error_numeric", arg = "bound_center")
  }
  ch
}

# The charge of a call with y_bound = "auto" (R/release-driver.R): the bound
# (pure epsilon_b-DP) and the release (its own epsilon and delta, with its
# Gaussian mu for GP regression) as parts of one charge, after the release
# succeeded; `rel` still holds the release's own epsilon. Returns the release
# with the call's epsilon and the record of the choice.
ybound_close <- function(rel, budget, label, ch, epsilon) {
  parts <- list(privacy_part(ch$epsilon, name = "bound"), release_part(rel))
  rel$epsilon_release <- rel$epsilon
  rel$epsilon <- epsilon
  rel$y_bound_auto <- ybound_record(ch)
  release_close(rel, budget, label, parts)
}

# The record of the choice kept in the release (public once privatised).
ybound_record <- function(ch) c(list(bound = ch$tau), ch[c("epsilon", "share", "quantile", "range", "center")])

# A line of the print of a release whose y_bound was chosen privately.
print_ybound_auto <- function(x) {
  a <- x$y_bound_auto
  if (!is.null(a)) {
    cat(sprintf(paste("  y_bound chosen privately (bound_share %s of epsilon: %s; targeting the %s quantile",
                      "of |y - %s| over [%s, %s])\n"),
                format(a$share, digits = 3), format(a$epsilon, digits = 4), format(a$quantile, digits = 3),
                format(a$center, digits = 4), format(a$range[1L], digits = 3), format(a$range[2L], digits = 3)))
  }
  invisible()
}

# ---- dp_bin_regression(): the binned summary ---------------------------------

# Per bin of the public domain (rows) and per bin of |y - c| among the
# candidates: the count of rows, the sums A of y - c and S of sign(y - c)
# (columns: count, A_0..A_{K+1}, S_0..S_{K+1}), with the histogram of |y - c|
# (`norm_counts`). At candidate c_k (bin index k, 1-based) the sum of the
# outputs clamped to c + c(-c_k, c_k) in a bin is exactly
#   c n_b + sum_{j <= k} A_j + c_k sum_{j > k} S_j
# (an output is clamped iff |y - c| > c_k). Values above the top candidate
# are always clamped: their A is kept 0 (an infinite output stays finite).
# The summaries add over chunks; a table computes it in the engine.
binreg_bins_summary <- function(pts, y, settings, rows, dropped, w = NULL) {
  cand <- settings$candidates
  K2 <- length(cand) + 1L
  B <- prod(settings$bins)
  miss <- is.na(y)
  v <- as.double(y) - settings$center
  v[miss] <- 0
  kb <- auto_bin_index(abs(v), cand)
  va <- ifelse(kb == K2 - 1L, 0, v)
  idx <- bin_index(pts, settings$bins, settings$domain, clamp = TRUE)
  # (with a unit each row weighs 1 / its unit's rows: the histogram's ranks move by at most 1 when a
  # whole unit is replaced, as for one output without a unit)
  ww <- if (is.null(w)) rep(1, length(v)) else w
  sums <- matrix(0, B, 1L + 2L * K2)
  hist <- numeric(K2)
  if (length(v)) {
    cnt <- rowsum(ww, idx, reorder = TRUE)
    sums[as.integer(rownames(cnt)), 1L] <- cnt[, 1L]
    agg <- rowsum(cbind(ww * va, ww * sign(v)), (idx - 1) * K2 + kb, reorder = TRUE)
    key <- as.double(rownames(agg))
    r <- key %/% K2 + 1
    j <- key %% K2 + 1
    sums[cbind(r, 1 + j)] <- agg[, 1L]
    sums[cbind(r, 1 + K2 + j)] <- agg[, 2L]
    h <- rowsum(ww, kb, reorder = TRUE)
    hist[as.integer(rownames(h)) + 1L] <- h[, 1L]
  }
  new_dpfda_summary("binreg_bins", sums, nrow(pts), rows, dropped, settings, missing_y = sum(miss),
                    norm_counts = hist)   # (with a unit, binreg_unit() sets n)
}

# The summary of kind "binreg" (counts, clamped sums) at bin index k, with y_bound.
binreg_bins_at <- function(sb, k, y_bound) {
  st <- sb$settings
  cand <- st$candidates
  K2 <- length(cand) + 1L
  A <- sb$sums[, 1L + seq_len(K2), drop = FALSE]
  S <- sb$sums[, 1L + K2 + seq_len(K2), drop = FALSE]
  cnt <- sb$sums[, 1L]
  s <- st$center * cnt + rowSums(A[, seq_len(k), drop = FALSE]) + cand[k] * rowSums(S[, -seq_len(k), drop = FALSE])
  settings <- list(bins = st$bins, domain = st$domain, y_bound = y_bound)
  new_dpfda_summary("binreg", cbind(count = cnt, sum = s), sb$n, sb$rows, sb$dropped, settings,
                    missing_y = sb$missing_y)
}

# The binned summary from any source of dp_bin_regression(): points and
# outputs in memory, a data frame, chunks or a table (in the engine).
summarise_binreg_bins <- function(x, y, bins, domain, ab, columns, unit = NULL) {
  if (inherits(x, "dpfda_summary")) {
    dpfda_abort(paste("y_bound = \"auto\" needs the data (points and outputs, a data frame, a table or chunks),",
                      "not a summary clamped to a fixed y_bound; give y_bound."), arg = "y_bound")
  }
  src <- binreg_source(x, y, columns, unit)
  y <- src$y
  columns <- src$columns
  D <- src$D
  pts <- src$pts   # (points in memory; NULL for a data frame, a table or chunks)
  bins <- check_bins(bins, D)
  dom <- check_bin_domain(domain, D)
  K2 <- length(ab$candidates) + 1L
  check_alloc(prod(as.double(bins)) * (1 + 2 * K2), "binned summary of y_bound = \"auto\"")
  settings <- list(bins = bins, domain = dom, candidates = ab$candidates, center = ab$center)
  f <- function(p, yy, rows, dropped, w) binreg_bins_summary(p, yy, settings, rows, dropped, w)
  if (inherits(x, "dpfda_chunks")) {
    return(warn_binreg(binreg_unit(chunks_reduce(x, function(d) binreg_frame(d, y, columns, settings, f, src$unit),
                                                 id = src$unit), src)))
  }
  if (is_lazy_table(x)) return(summarise_binreg_bins_lazy(x, y, columns, settings, src$unit))
  if (is.data.frame(x)) return(warn_binreg(binreg_unit(binreg_frame(x, y, columns, settings, f, src$unit), src)))
  warn_binreg(binreg_unit(f(pts, as.double(y), nrow(pts), 0, src$weights), src))
}

# A table: the same binned summary, computed in the engine (the domain bin and
# the bin of |y - c| of every row, then counts and sums per pair of bins).
summarise_binreg_bins_lazy <- function(x, y, columns, settings, unit = NULL) {
  D <- length(columns)
  xn <- paste0("x", seq_len(D))
  nn <- binreg_lazy_rows(x, y, columns, unit)
  s <- sq_from(nn$q)   # (SQL written out: R/engine-sql.R)
  wt <- sq_id(s, "wt")
  cand <- settings$candidates
  K2 <- length(cand) + 1L
  ce <- sq_lit(settings$center)
  y_ <- sq_id(s, "y")
  s <- sq_mutate(s, list(b = binreg_sql_index(s, xn, settings), v = sprintf("COALESCE(%s, %s) - %s", y_, ce, ce),
                         ym = sprintf("CASE WHEN %s IS NULL THEN 1.0 ELSE 0.0 END", y_)))
  v <- sq_id(s, "v")
  s <- sq_mutate(s, list(av = sprintf("ABS(%s)", v)))
  s <- sq_mutate(s, list(kb = sql_bin_index(s, "av", cand)))
  s <- sq_mutate(s, list(va = sprintf("CASE WHEN %s = %d THEN 0.0 ELSE %s END", sq_id(s, "kb"), K2 - 1L, v),
                         sg = sprintf("CASE WHEN %s > 0 THEN 1.0 WHEN %s < 0 THEN -1.0 ELSE 0.0 END", v, v)))
  q <- sq_lazy(sq_summarise(s, c("b", "kb"), list(cnt = sprintf("SUM(%s)", wt),
                                                  a = sprintf("SUM(%s * %s)", wt, sq_id(s, "va")),
                                                  s = sprintf("SUM(%s * %s)", wt, sq_id(s, "sg")),
                                                  my = sprintf("SUM(%s)", sq_id(s, "ym")))))
  res <- engine_collect(q)
  B <- prod(settings$bins)
  sums <- matrix(0, B, 1L + 2L * K2)
  hist <- numeric(K2)
  if (nrow(res)) {
    r <- as.integer(round(as.double(res$b))) + 1L
    j <- as.integer(round(as.double(res$kb))) + 1L
    cnt <- as.double(res$cnt)
    per <- rowsum(cnt, r)
    sums[as.integer(rownames(per)), 1L] <- per[, 1L]
    sums[cbind(r, 1L + j)] <- as.double(res$a)
    sums[cbind(r, 1L + K2 + j)] <- as.double(res$s)
    per <- rowsum(cnt, j)
    hist[as.integer(rownames(per))] <- per[, 1L]
  }
  out <- new_dpfda_summary("binreg_bins", sums, sum(hist), nn$rows, nn$dropped, settings,
                           missing_y = sum(as.double(res$my)), norm_counts = hist)
  warn_binreg(binreg_unit(out, list(unit = unit, unit_label = unit)))
}

# dp_bin_regression(y_bound = "auto"): the binned summary, the private choice,
# and the "binreg" summary at the chosen bound with the record of the choice.
binreg_auto_bound <- function(x, y, bins, domain, opts, columns, epsilon, budget, unit = NULL) {
  ab <- ybound_auto_options(opts, 1)
  sb <- summarise_binreg_bins(x, y, bins, domain, ab, columns, unit)
  ch <- ybound_choose(sb$norm_counts, sb$n, ab, epsilon, budget, "dp_bin_regression")
  s <- binreg_bins_at(sb, ch$index, ch$y_bound)
  s$unit <- sb$unit
  c(list(summary = s), ch)
}
