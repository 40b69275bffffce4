# dp_bandwidth() from a database table or chunks, and binned in memory: the
# quartiles are taken of the data rounded to a fine public grid on the
# domain (2^16 bins per coordinate: their centres), so one histogram per
# coordinate is all that is read; a database groups the rows by bin and
# returns at most 2^16 weights per coordinate, chunks add theirs. Rounding
# each point to its bin is a function of that point alone, so the private
# test on the rounded data keeps its guarantee; the IQR moves by at most one
# bin width (2^-16 of the domain's width). Memory with binned = TRUE gives
# the same bandwidth as a table under dp_reproducible().

# Bins per coordinate of the rounding grid.
bandwidth_hist_bins <- 65536L

# The bin (0-based) of values `v` on [lo, hi] cut into B bins: the position
# clamped before floor(), exactly as the SQL below (so that every source puts
# a value in the same bin, also +-Inf and values beyond the domain).
bandwidth_bin_of <- function(v, lo, w, B) floor(pmin(pmax((v - lo) / w, 0), B - 1))

# The histograms (B x d weights: counts, or with a unit the sums of 1 / the
# unit's points) of every source. Returns H, the rows read and dropped (a
# missing or non-finite value in a used column, or a missing unit: dropped as
# dp_kde() drops them), and the number of individuals n (points, or units).
bandwidth_histograms <- function(x, dom, unit = NULL, columns = NULL, counts = NULL) {
  B <- bandwidth_hist_bins
  d <- ncol(dom)
  w <- (dom[2L, ] - dom[1L, ]) / B
  if (is_lazy_table(x)) return(bandwidth_hist_lazy(x, dom, w, B, unit, columns, counts))
  f <- function(df) bandwidth_hist_frame(df, dom, w, B, unit, columns, counts)
  s <- warn_dropped(if (inherits(x, "dpfda_chunks")) chunks_reduce(x, f, id = unit_id(unit)) else f(x))
  list(H = s$sums, rows = s$rows, dropped = s$dropped, n = round(sum(s$sums[, 1L])), outside = s$outside)
}

# One data frame (a chunk, or the points in memory as a frame `.x1`, ..., `unit`): the summary of
# kind "bw_hist" of its kept rows. (`counts`: a column of records per row, each row weighing its count.)
bandwidth_hist_frame <- function(df, dom, w, B, unit, columns, counts = NULL) {
  if (!nrow(df)) engine_no_rows("data frame")
  for (cl in c(columns, unit)) if (!cl %in% names(df)) engine_missing_column(cl, names(df), "columns")
  if (!is.null(counts) && !counts %in% names(df)) engine_missing_column(counts, names(df), "counts")
  for (cl in c(columns, counts)) {
    if (!is.numeric(df[[cl]]) && !all(is.na(df[[cl]]))) {
      abort_not_numeric(df[[cl]], cl, if (identical(cl, counts)) "counts" else "columns")
    }
  }
  X <- matrix(as.double(unlist(df[columns], use.names = FALSE)), nrow(df))
  bad <- rowSums(!is.finite(X)) > 0
  if (!is.null(unit)) bad <- bad | is.na(df[[unit]])
  if (!is.null(counts)) bad <- bad | !is.finite(df[[counts]])
  abort_missing_points(sum(bad), nrow(df))
  X <- X[!bad, , drop = FALSE]
  wt <- if (!is.null(counts)) check_count_values(as.double(df[[counts]][!bad])) else
    if (!is.null(unit)) unit_weights(df[[unit]][!bad])
  H <- matrix(0, B, ncol(X))
  for (j in seq_len(ncol(X))) {
    k <- bandwidth_bin_of(X[, j], dom[1L, j], w[j], B)
    if (is.null(wt)) {
      H[, j] <- tabulate(k + 1, B)
    } else if (length(k)) {
      a <- rowsum(wt, k, reorder = FALSE)   # (a hash of the bins; no sort of the rows)
      H[as.integer(rownames(a)) + 1L, j] <- a[, 1L]
    }
  }
  new_dpfda_summary("bw_hist", H, nrow(X), nrow(df), sum(bad), list(domain = dom, bins = B),
                    outside = points_outside(X, dom, if (!is.null(counts)) wt))   # (the warning's count: records)
}

# A table: one query per coordinate, grouping the kept rows by bin (SUM of the weights).
bandwidth_hist_lazy <- function(x, dom, w, B, unit, columns, counts = NULL) {
  d <- length(columns)
  xn <- paste0("x", seq_len(d))
  nn <- lazy_weighted_points(x, columns, xn, unit, counts, nan_null = c(xn, if (!is.null(counts)) "cw"),
                             id_name = "unit")
  s <- sq_from(nn$q)
  H <- matrix(0, B, d)
  outside <- 0
  for (j in seq_len(d)) {
    pos <- sq_clamp(s, sprintf("(%s - %s) / %s", sq_id(s, xn[j]), sq_lit(dom[1L, j]), sq_lit(w[j])), "0.0",
                    sq_lit(B - 1))
    sj <- sq_mutate(s, list(b = sprintf("FLOOR(%s)", pos)))
    sums <- list(wt = sprintf("SUM(%s)", sq_id(sj, "wt")))
    # (the rows beyond the domain, counted in the first coordinate's pass, as in memory)
    if (j == 1L) {
      sums$out <- sq_outside_sum(vapply(xn, function(v) sq_id(sj, v), ""), dom[1L, ], dom[2L, ],
                                 if (!is.null(counts)) sq_id(sj, "wt"))
    }
    res <- engine_collect(sq_lazy(sq_summarise(sj, "b", sums)))
    H[as.integer(round(as.double(res$b))) + 1L, j] <- as.double(res$wt)
    if (j == 1L) outside <- sum(plain_double(res$out))
  }
  list(H = H, rows = nn$rows, dropped = nn$dropped, n = round(sum(H[, 1L])), outside = outside)
}

# The order statistics of coordinate j from its histogram: the bin centres, weighted.
bandwidth_hist_at <- function(h, lo, w) {
  nz <- which(h > 0)
  ptr_order_stat(lo + (nz - 0.5) * w, h[nz])
}
