# The sensitivity of a release that is linear in the outputs when a whole privacy unit (a person
# with several rows) is replaced: dp_gp_regression(unit =). One row moving its output by at most 1
# shifts the release by a vector z_i; a unit moves all of its rows' outputs, so the shift is
# sum_{i in u} s_i z_i with |s_i| <= 1, of squared norm s' G_u s (G_u = the Gram matrix of the unit's
# z_i in the norm the noise is calibrated in).

# The largest shift norm max_u max_{s in [-1, 1]^k} sqrt(s' G_u s) over the units (`codes`, 1..n, one per
# row); `block(idx)` returns the Gram block of rows `idx`. A convex function's maximum over the box is
# at a vertex: for up to `exact_max` rows the 2^(k-1) sign vectors are searched (s and -s agree), above
# that the smaller of the triangle inequality (sum_i sqrt(G_ii))^2 and k lambda_max(G_u) bounds it.
unit_shift_norm <- function(block, codes, exact_max = 12L) {
  groups <- split(seq_along(codes), codes)
  signs <- vector("list", exact_max)
  best <- 0
  for (idx in groups) {
    G <- block(idx)
    k <- length(idx)
    v <- if (k == 1L) {
      G[1L, 1L]
    } else if (k <= exact_max) {
      if (is.null(signs[[k]])) {
        signs[[k]] <- cbind(1, as.matrix(expand.grid(rep(list(c(-1, 1)), k - 1L))))
      }
      S <- signs[[k]]
      max(rowSums((S %*% G) * S))
    } else {
      min(sum(sqrt(pmax(diag(G), 0)))^2, k * max(eigen(G, symmetric = TRUE, only.values = TRUE)$values))
    }
    best <- max(best, v)
  }
  sqrt(max(0, best))
}
