# The sensitivity of a release that is linear in the outputs when a whole privacy unit (a person
# with several rows) is replaced: dp_gp_regression(unit =). One row moving its output by at most 1
# shifts the release by a vector z_i; a unit moves all of its rows' outputs, so the shift is
# sum_{i in u} s_i z_i with |s_i| <= 1, of squared norm s' G_u s (G_u = the Gram matrix of the unit's
# z_i in the norm the noise is calibrated in).

# The largest shift norm max_u max_{s in [-1, 1]^k} sqrt(s' G_u s) over the units (`codes`, 1..n, one
# per row). A convex function's maximum over the box is at a vertex: for units of up to `exact_max`
# rows the 2^(k-1) sign vectors are searched (s and -s agree), above that the triangle inequality
# (sum_i sqrt(G_ii))^2 bounds it. The units of one size are searched together: `gather(i)` returns
# the columns of rows `i` (one per unit) of a matrix V with s' G_u s = value(V s, s, idx) (idx: the
# units' rows, one unit per row of idx), and the sign vectors are visited in Gray-code order, so that
# each step adds one column block.
unit_shift_norm <- function(gather, value, codes, exact_max = 12L) {
  sizes <- tabulate(codes, max(0L, codes))
  rows <- split(seq_along(codes), factor(codes, levels = seq_along(sizes)))   # (codes need not be 1..n: a subset)
  best <- 0
  for (k in setdiff(sort(unique(sizes)), 0L)) {
    idx <- matrix(unlist(rows[sizes == k], use.names = FALSE), ncol = k, byrow = TRUE)
    cols <- lapply(seq_len(k), function(j) gather(idx[, j]))
    if (k > exact_max) {
      tri <- 0
      for (j in seq_len(k)) tri <- tri + sqrt(pmax(value(cols[[j]], 1, idx[, j, drop = FALSE]), 0))
      best <- max(best, tri^2)
      next
    }
    s <- rep(1, k)
    V <- Reduce(`+`, cols)
    best <- max(best, value(V, s, idx))
    for (t in seq_len(2^(k - 1L) - 1L)) {
      j <- 2L + gray_flip_bit(t)   # (the first sign stays +1)
      s[j] <- -s[j]
      # (one block per step; every 32 steps the sum afresh, so that rounding does not accumulate
      # over the 2^11 steps of a unit of 12 rows: the sensitivity is never computed short)
      V <- if (t %% 32L == 0L) Reduce(`+`, Map(`*`, s, cols)) else V + 2 * s[j] * cols[[j]]
      best <- max(best, value(V, s, idx))
    }
  }
  sqrt(max(0, best))
}

# The bit that changes between the Gray codes of t - 1 and t: the number of trailing zeros of t.
gray_flip_bit <- function(t) {
  z <- 0L
  while (t %% 2 == 0) {
    t <- t %/% 2
    z <- z + 1L
  }
  z
}
