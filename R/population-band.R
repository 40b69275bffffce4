# Population bands for dp_mean(inference = TRUE) (issue 29).
#
# The released mean is  mu_hat = V S abar + V e  (ICLP-QR: abar the mean of
# the clipped curves' basis coefficients, S = diag(s_j) the shrinkage, e the
# ICLP noise with a public law). Against the population mean mu of the
# curves (centred on the public `center`):
#
#   mu_hat - mu = V S (abar - a)            sampling, covariance V S Sigma S V' / n
#               + V e                        privacy noise, public law
#               - V (I - S) a - (mu - V a)   smoothing bias (bounded, R/bias-bound.R)
#               + (E clip(X) - E X)          clipping bias (0 when the curves are within tau)
#
# The only unknown besides the bias is Sigma. A share of epsilon releases a
# private upper estimate of it on the first K components (those the
# shrinkage keeps; the rest is bounded): the second moments of the shrunk
# coefficients c_i = S_K (a_iK - p) about a public point p (the released
# coefficients projected on the tau ball). For any p they are
# Sigma_c + S (a - p)(a - p)' S >= Sigma_c, so p costs coverage nothing.
# With ||a_iK - p|| <= R = tau + ||p||, ||c_i||_1 <= ||s_K|| R and
# ||c_i|| <= s_1 R, so the upper triangle of (1/n) sum c_i c_i' moves in L1
# by at most (||s_K||^2 + s_1^2) R^2 / n when one curve is replaced: exact
# discrete Laplace noise with that L1 calibration (as the ICLP coefficients
# of noise = "exact") makes it epsilon_inference-DP, post-processing of the
# summary that every source computes alike (summarise_cov_basis()).

# The components of the summary: those the shrinkage keeps at least 1% of
# (beyond them the sampling error is bounded by Cauchy-Schwarz), and among
# them the first K (at most 6, the Laplace noise of the K x K matrix grows
# like K^2) whose covariance is estimated in full; for the others only the
# trace of their second moment.
inference_components <- function(s) {
  Jt <- max(1L, sum(s >= 0.01))
  c(K = min(6L, Jt), Jt = Jt)
}

# The private part of the release. `cs`: a cov summary on the first Jt
# components (cbind(sum a_i, sum a_i a_i')); `coef`: the released
# coefficients (centred release); `sh`: shrinkage factors. Two releases,
# split 4:1 of `epsilon`:
# * the upper triangle of (1/n) sum c_i c_i' on the first K components,
#   c_i = S_K (a_iK - p): L1 sensitivity (||s_K||^2 + s_1^2) R^2 / n;
# * the trace of (1/n) sum over j in (K, Jt] of s_j^2 a_ij^2: each term in
#   [0, s_{K+1}^2 tau^2], so sensitivity s_{K+1}^2 tau^2 / n.
# Both with exact discrete Laplace noise (floating-point safe).
population_inference <- function(cs, coef, sh, K, Jt, n, tau, epsilon) {
  A1 <- cs$sums[seq_len(K), 1L]
  A2 <- cs$sums[seq_len(K), 1L + seq_len(K), drop = FALSE]
  p <- coef[seq_len(K)]
  np <- sqrt(sum(p^2))
  if (np > tau) p <- p * tau / np                     # the public point, in the tau ball
  R <- tau + sqrt(sum(p^2))
  sK <- sh[seq_len(K)]
  D <- (A2 - outer(p, A1) - outer(A1, p)) / n + outer(p, p)   # (1/n) sum (a_i - p)(a_i - p)'
  C <- D * outer(sK, sK)
  up <- upper.tri(C, diag = TRUE)
  eps_m <- if (Jt > K) 0.8 * epsilon else epsilon
  sens <- (sum(sK^2) + max(sK)^2) * R^2 / n
  b <- sens / eps_m
  ex <- iclp_exact_coefficients(C[up], rep(b, sum(up)), eps_m)
  Ch <- matrix(0, K, K)
  Ch[up] <- ex$coef
  Ch <- Ch + t(Ch) - diag(diag(Ch), K)
  out <- list(K = K, Jt = Jt, second_moment = Ch, laplace_scale = b * ex$inflation, sensitivity = sens,
              point = p, epsilon = epsilon, tail_trace = 0, tail_scale = 0)
  if (Jt > K) {
    j <- (K + 1L):Jt
    tr <- sum(diag(cs$sums[j, 1L + j, drop = FALSE]) * sh[j]^2) / n
    eps_t <- epsilon - eps_m
    bt <- max(sh[j])^2 * tau^2 / n / eps_t
    et <- iclp_exact_coefficients(tr, bt, eps_t)
    out$tail_trace <- et$coef
    out$tail_scale <- bt * et$inflation
  }
  out
}

# The data's cov summary on the first Jt components of the release's basis,
# from the same source as the mean summary (curves in memory are centred
# already; tables and chunks get the centre in the engine).
population_summary <- function(src, basis, Jt, tau, cen) {
  bK <- basis
  bK$vectors <- basis$vectors[, seq_len(Jt), drop = FALSE]
  bK$values <- basis$values[seq_len(Jt)]
  bK$J <- Jt
  if (!is.null(src$tee)) return(src$tee$summary())     # chunks: computed while the mean read them
  data <- if (!is.null(src$curves)) src$curves else src$data
  cols <- src$cols
  summarise_cov_basis(data, bK, tau, cols$id %||% "id", cols$arg %||% "arg", cols$value %||% "value",
                      center = if (is.null(src$curves)) cen)
}

# Chunks are read once: the cov summary is computed from the same chunks as
# the mean summary, as they pass. The rows of the last id of a chunk are held
# back until the next one (as chunks_reduce() does), so an individual is
# never split; the mean summary's pass checks the order of the ids.
chunks_tee <- function(chunks, f, id) {
  force(chunks)   # (the caller replaces its source by the tee)
  total <- NULL
  held <- NULL
  add <- function(d) if (nrow(d)) total <<- if (is.null(total)) f(d) else total + f(d)
  tee <- dp_chunks(function() {
    d <- chunks$next_chunk()
    end <- is.null(d) || (is.data.frame(d) && nrow(d) == 0L)
    if (end) {
      if (!is.null(held)) add(held)
      held <<- NULL
      return(d)
    }
    if (is.data.frame(d) && id %in% names(d)) {
      e <- if (is.null(held)) d else rbind(held, d[names(held)])
      ids <- e[[id]]
      ok <- !is.na(ids)
      hold <- if (any(ok)) ok & ids == ids[ok][sum(ok)] else rep(FALSE, nrow(e))
      held <<- e[hold, , drop = FALSE]
      add(e[!hold, , drop = FALSE])
    }
    d
  })
  list(chunks = tee, summary = function() {
    if (is.null(total)) dpfda_abort("The chunks hold no rows.", class = "dpfda_error_data", arg = "x")
    total
  })
}

# An upper bound, with probability at least 1 - gamma over the inference
# noise, on the covariance of the shrunk coefficients: the noisy matrix
# projected on the positive semidefinite cone plus the (1 - gamma) quantile
# of the operator norm of the public Laplace noise matrix (simulated).
inference_cov_upper <- function(inf, gamma, nsim, seed) {
  K <- inf$K
  e <- eigen(inf$second_moment, symmetric = TRUE)
  psd <- e$vectors %*% (pmax(e$values, 0) * t(e$vectors))
  psd + diag(inf$laplace_scale * laplace_opnorm_quantile(K, 1 - gamma, min(nsim, 2000L), seed + 1L), K)
}

# The p quantile of the operator norm of a symmetric K x K matrix with
# i.i.d. standard Laplace entries on and above the diagonal (public, by
# simulation with a fixed seed; it scales with the Laplace scale, so it is
# computed once per setting and kept).
opnorm_cache <- new.env(parent = emptyenv())
laplace_opnorm_quantile <- function(K, p, nsim, seed) {
  key <- paste(K, format(p, digits = 15), nsim, seed)
  if (!is.null(opnorm_cache[[key]])) return(opnorm_cache[[key]])
  up <- upper.tri(diag(K), diag = TRUE)
  opn <- with_public_seed(seed, vapply(seq_len(nsim), function(i) {
    E <- matrix(0, K, K)
    E[up] <- stats::rexp(sum(up)) - stats::rexp(sum(up))
    E <- E + t(E) - diag(diag(E), K)
    max(abs(eigen(E, symmetric = TRUE, only.values = TRUE)$values))
  }, 0))
  opnorm_cache[[key]] <- stats::quantile(opn, p, names = FALSE, type = 8)
}

# The simultaneous band for the population mean of a dp_mean(inference =
# TRUE) release: half-widths on the grid and the method.
population_band <- function(object, level, nsim, seed) {
  inf <- object$inference
  if (is.null(inf)) {
    dpfda_abort(paste("type = \"population\" needs a release made with dp_mean(..., inference = TRUE), which",
                      "spends part of epsilon on the spread of the curves; this release has none."),
                class = "dpfda_error_unsupported", arg = "type")
  }
  basis <- object$basis
  V <- basis$vectors
  lam <- basis$values
  K <- inf$K
  n <- object$n
  f <- object$scale_factor %||% 1
  sh <- qr_shrink(lam, object$params$eta, object$params$psi, basis_measure(basis))$s
  gamma <- (1 - level) / 10                          # the share of the error left to the covariance bounds
  Sig <- inference_cov_upper(inf, gamma / 2, nsim, seed)
  VK <- V[, seq_len(K), drop = FALSE]
  # sampling in the components (K, Jt]: variance at most T sum_j v_j(t)^2 / n with T an upper
  # bound (probability 1 - gamma / 2) on the trace of their second moment; beyond Jt (s_j < 0.01):
  # at most tau^2 sum_{j > Jt} s_j^2 v_j(t)^2 / n (Cauchy-Schwarz, ||a_i|| <= tau)
  Jt <- inf$Jt %||% K
  mid <- if (Jt > K) (K + 1L):Jt else integer()
  far <- setdiff(seq_along(lam), seq_len(Jt))
  T_up <- if (length(mid)) max(inf$tail_trace, 0) + inf$tail_scale * log(2 / gamma) else 0
  tail_var <- (if (length(mid)) T_up * as.vector(V[, mid, drop = FALSE]^2 %*% rep(1, length(mid))) else 0) +
    (if (length(far)) object$tau^2 * as.vector(V[, far, drop = FALSE]^2 %*% sh[far]^2) else 0)
  tail_sd <- sqrt(tail_var / n)
  rest <- c(mid, far)
  L <- tryCatch(chol(Sig), error = function(e) chol(Sig + diag(1e-12 * max(diag(Sig)), K)))
  samp_sd <- sqrt(pmax(rowSums((VK %*% Sig) * VK), 0) / n)
  law <- noise_law(object)
  se <- sqrt(samp_sd^2 + law$var + tail_sd^2) * f
  nsim <- mc_draws(nsim, length(se))
  ratio <- with_public_seed(seed, {
    G <- matrix(stats::rnorm(nsim * K), nsim) %*% L %*% t(VK) / sqrt(n)
    Tl <- if (length(rest)) matrix(stats::rnorm(nsim), nsim) %*% t(tail_sd) else 0
    N <- law$draw(nsim)
    apply(abs((G + Tl + N) * f) / rep(se, each = nsim), 1L, max)
  })
  q <- stats::quantile(ratio, 1 - (1 - level - gamma), names = FALSE, type = 8)
  bias <- mean_bias_bound("iclp_qr", basis, object$params, object$tau)$pointwise * f
  list(half = q * se + bias, sd = se, bias = bias, multiplier = q,
       method = sprintf(paste("population band: sampling (private covariance upper bound on %d components",
                              "and the trace of %d more, epsilon %s, held with probability %s; the other",
                              "components bounded), privacy",
                              "noise of the mean (public law), Monte Carlo multiplier (%d draws); smoothing",
                              "bias bounded (worst case for a mean in the kernel's RKHS ball of radius",
                              "tau / sqrt(lambda_1)); clipping bias not included (none when the curves are",
                              "within tau)"),
                        K, Jt - K, format(inf$epsilon, digits = 3), format(1 - gamma, digits = 4), nsim))
}

# dp_mean(inference = TRUE) is available for the default mechanism on curves,
# data frames, tables and chunks (not from a mean summary, which lacks the
# second moments, nor with `unit` or incomplete = "drop" yet).
check_inference <- function(mechanism, select, incomplete, unit, src) {
  no <- function(what, arg) {
    dpfda_abort(sprintf("inference = TRUE is not available %s yet.", what),
                class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = arg)
  }
  if (mechanism != "iclp_qr") no(sprintf("for mechanism \"%s\" (use \"iclp_qr\")", mechanism), "mechanism")
  if (select == "pcv") no("with select = \"pcv\" (use \"pss\" or \"manual\")", "select")
  if (incomplete == "drop") no("with incomplete = \"drop\"", "incomplete")
  if (!is.null(unit)) no("with `unit`", "unit")
  if (inherits(src$data, "dpfda_summary")) {
    no("from a mean summary (it lacks the second moments; give the data, a table or chunks)", "x")
  }
  invisible(TRUE)
}
