# Public bounds on the smoothing bias of the mean (and covariance) releases
# (issue 29). The noise of a release has a public law; its centre is the
# clipped summary after shrinkage (QR, GP), thresholding (AR), truncation
# (FRL) or a Bernstein polynomial, which moves a mean by an amount that
# depends on the mean. Over every mean bounded by tau this can be all of
# tau (a mean in the most-shrunk component), so the useful public bound is
# over a smoothness class fixed by the kernel and tau alone:
#
#   H(tau) = { mu = sum_j a_j v_j : sum_j a_j^2 / lambda_j <= tau^2 / lambda_1 },
#
# the ball of the kernel's reproducing-kernel Hilbert space (on the grid,
# the kl_basis() eigenpairs (lambda_j, v_j) with all positive eigenvalues)
# whose radius lets the mean have the full norm tau along the first
# eigenfunction. H(tau) lies inside the L2 ball of radius tau, and the
# bounds below are the exact worst cases over H(tau) (L2 norm for QR, GP,
# FRL, AR; pointwise, hence sup, for QR, GP, FRL) or upper bounds of them.
# Every quantity is public (kernel, grid, tau, tuning parameters).
# Clipping adds no bias when every curve is within tau; otherwise its bias
# is data-dependent and not included (the docs say so).

# The kernel's diagonal on the grid (k(t, t)), for the part of the class
# beyond a truncated basis.
kernel_diag_on <- function(kernel, grid) {
  if (kernel$type %in% c("matern", "exponential", "gaussian")) {
    return(rep(kernel$variance %||% 1, grid_size(grid)))
  }
  diag(kernel_matrix(kernel, grid))
}

# Worst cases over H(tau) of a linear bias (I - diag(c)) on the basis
# coefficients: c_j = 1 - (the factor kept). `keep` the factors kept on
# the basis (s_j for QR / GP, 1 / 0 for FRL); components beyond a
# truncated basis are lost (factor 0).
bias_linear_basis <- function(basis, keep, tau) {
  lam <- basis$values
  V <- basis$vectors
  R2 <- tau^2 / lam[1L]
  cc <- 1 - keep
  trunc <- basis$J < (basis$n_positive %||% basis$J)
  # pointwise: R * sqrt(sum_j c_j^2 lam_j v_j(t)^2 + the lost part sum_{j > J} lam_j v_j(t)^2)
  kept <- as.vector((V * V) %*% lam)
  tail <- if (trunc) pmax(kernel_diag_on(basis$kernel, basis$grid) - kept, 0) else 0
  pw <- sqrt(R2 * (as.vector((V * V) %*% (cc^2 * lam)) + tail))
  l2 <- bias_linear_l2(basis, keep, tau)
  worst <- tau * max(abs(cc), if (trunc) 1 else 0)
  list(pointwise = pw, l2 = l2, sup = max(pw), worst_l2 = worst)
}

# The L2 part of bias_linear_basis() alone (cheap: no pointwise bound), for
# tuning rules that compare many `keep`.
bias_linear_l2 <- function(basis, keep, tau) {
  lam <- basis$values
  trunc <- basis$J < (basis$n_positive %||% basis$J)
  sqrt(tau^2 / lam[1L] * max((1 - keep)^2 * lam, if (trunc) lam[basis$J] else 0))
}

# ICLP-AR: soft thresholding at t_j on the first J_tau components (bias of
# component j at most min(|a_j|, t_j)), the others set to 0. L2: the exact
# worst case over H(tau) is a fractional knapsack (gain a_j^2, cost
# a_j^2 / lambda_j, capped at t_j^2), filled in the order of lambda_j.
bias_ar_basis <- function(basis, t, jt, tau) {
  lam <- basis$values
  V <- basis$vectors
  J <- length(lam)
  R2 <- tau^2 / lam[1L]
  trunc <- basis$J < (basis$n_positive %||% basis$J)
  budget <- R2
  gain <- 0
  for (j in seq_len(J)) {
    if (budget <= 0) break
    if (j <= jt) {
      u2 <- min(t[j]^2, lam[j] * budget)
      gain <- gain + u2
      budget <- budget - u2 / lam[j]
    } else {
      gain <- gain + lam[j] * budget
      budget <- 0
    }
  }
  if (budget > 0 && trunc) gain <- gain + lam[J] * budget
  kept_all <- as.vector((V * V) %*% lam)
  tail <- if (trunc) pmax(kernel_diag_on(basis$kernel, basis$grid) - kept_all, 0) else 0
  idx <- seq_len(jt)
  rest <- setdiff(seq_len(J), idx)
  rest_pw <- if (length(rest)) as.vector((V[, rest, drop = FALSE]^2) %*% lam[rest]) else 0
  pw1 <- sqrt(R2 * (kept_all + tail))
  pw2 <- (if (jt > 0) as.vector(abs(V[, idx, drop = FALSE]) %*% t[idx]) else 0) + sqrt(R2 * (rest_pw + tail))
  pw <- pmin(pw1, pw2)
  worst <- if (jt < J || trunc) tau else min(tau, sqrt(sum(t[idx]^2)))
  list(pointwise = pw, l2 = sqrt(gain), sup = max(pw), worst_l2 = worst)
}

# Bernstein: the centre at t is sum_i c_i(t) mu(t_i) (linear interpolation
# to the lattice, then the polynomial); its error over H is exactly
# R * sqrt(((C - I) K (C - I)')_tt) with K the reference kernel's Gram
# matrix. The reference kernel is dp_mean()'s default (Bernstein has none);
# tau is a sup bound, so the class has radius tau sqrt(S) / sqrt(lambda_1).
bias_bernstein_grid <- function(grid, k, tau, kernel = NULL) {
  g <- sort(as.double(grid))
  m <- length(g)
  if (is.null(kernel)) kernel <- default_mean_kernel(g)
  w <- quadrature_weights(g)
  C <- bernstein_mean_operator(g, k)   # (R/population-band-bernstein.R)
  K <- kernel_matrix(kernel, g)
  lam1 <- kl_basis(kernel, g, J = 1L)$values[1L]
  R2 <- tau^2 * sum(w) / lam1
  D <- C - diag(m)
  pw <- sqrt(pmax(R2 * rowSums((D %*% K) * D), 0))
  list(pointwise = pw, l2 = sqrt(sum(w * pw^2)), sup = max(pw), worst_l2 = 2 * tau * sqrt(sum(w)))
}

# The bias bound of a dp_mean()-type setting: mechanism, basis, parameters
# (eta, psi, M, J_tau), tau, threshold_scale (AR).
mean_bias_bound <- function(mechanism, basis, params, tau, threshold_scale = 1, grid = NULL) {
  if (mechanism == "bernstein") {
    b <- bias_bernstein_grid(grid, params$k %||% 20L, tau)
  } else {
    S <- basis_measure(basis)
    lam <- basis$values
    b <- switch(mechanism,
      iclp_qr = , gp = bias_linear_basis(basis, qr_shrink(lam, params$eta, params$psi, S)$s, tau),
      frl = bias_linear_basis(basis, as.double(seq_along(lam) <= params$M), tau),
      iclp_ar = {
        t <- ar_threshold(lam, params$eta, params$psi, threshold_scale, S)
        bias_ar_basis(basis, t, sum(t < tau), tau)
      })
  }
  b$note <- bias_note
  b
}

bias_note <- paste("smoothing bias, worst case over means in the kernel's RKHS ball that allows norm tau",
                   "along the first eigenfunction (curves within tau: no clipping bias)")

# The bias bound of an existing release, or NULL when there is none.
release_bias_bound <- function(x) {
  if (!inherits(x, "dpfda_iclp_release") || !is.numeric(x$tau)) return(NULL)
  tryCatch({
    b <- if (identical(x$mechanism, "bernstein")) {
      mean_bias_bound("bernstein", NULL, x$params, x$tau, grid = x$values$grid)
    } else {
      mean_bias_bound(x$mechanism, x$basis, x$params, x$tau, x$threshold_scale %||% 1)
    }
    if (!is.null(x$scale_factor)) {   # incomplete = "drop": the centre is scaled by the factor
      b$pointwise <- b$pointwise * x$scale_factor
      b[c("l2", "sup", "worst_l2")] <- lapply(b[c("l2", "sup", "worst_l2")], `*`, x$scale_factor)
    }
    b
  }, error = function(e) NULL)
}
