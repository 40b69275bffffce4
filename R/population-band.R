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
# (FRL: S = diag(1 on the first M components, 0 beyond); with M = J, the
# whole basis, there is no smoothing bias: the basis spans the grid.)
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

# The factors the release keeps of each basis coefficient of the mean (it is
# linear in the mean): the QR shrinkage, or 1 on the first M components and
# 0 beyond them (FRL).
inference_keep <- function(mechanism, basis, params) {
  if (mechanism == "bernstein") return(rep(1, length(basis$values)))   # (the polynomials' range, kept whole)
  # ICLP-AR: the first J_tau components (at least one, so that the spread has a component), unshrunk:
  # the thresholding is handled by the band (R/population-band-ar.R)
  if (mechanism == "iclp_ar") return(as.double(seq_along(basis$values) <= max(params$J_tau, 1L)))
  if (mechanism == "frl") return(as.double(seq_along(basis$values) <= params$M))
  qr_shrink(basis$values, params$eta, params$psi, basis_measure(basis))$s
}

# The components of the summary: those the shrinkage keeps at least 1% of
# (beyond them the sampling error is bounded by Cauchy-Schwarz), and among
# them the first K (at most 4) whose covariance is estimated in full; for
# the others only the top eigenvalue of their second moment. K and the split of the
# budget (below) are public constants set by
# bench/bench-population-band-decompose.R: the noise that the variance bound
# of the K x K block carries grows like K^2 (K (K + 1) / 2 entries, each with
# sensitivity ~ K R^2 / n), while the eigenvalue's bound costs
# (its noise) x (the number of components beyond K); at epsilon 4 and 1, n
# 1000, K = 3 or 4 with an even split gave half-widths 5-10% below K = 6
# with a 4:1 split (QR and FRL, smooth and rough populations), K = 10 up to
# 40% above.
inference_components <- function(s) {
  Jt <- max(1L, sum(s >= 0.01))
  c(K = min(4L, Jt), Jt = Jt)
}

# The private part of the release. `cs`: a cov summary on the first Jt
# components (cbind(sum a_i, sum a_i a_i')); `coef`: the released
# coefficients (centred release); `sh`: shrinkage factors. Two releases,
# half of `epsilon` each (all of it to the first when Jt = K):
# * the upper triangle of (1/n) sum c_i c_i' on the first K components,
#   c_i = S_K (a_iK - p): L1 sensitivity (||s_K||^2 + s_1^2) R^2 / n;
# * the top eigenvalue L of M = (1/n) sum d_i d_i', d_i = (s_j a_ij) over j
#   in (K, Jt]: replacing one curve adds a positive semidefinite d d' / n and
#   removes one, each of norm ||d||^2 / n <= s_{K+1}^2 tau^2 / n, so L moves
#   by at most that (Weyl): the sensitivity of the trace it replaces, and
#   L <= trace. The band bounds the variance of sum_j d_j v_j(t) by
#   L ||v(t)||^2; with the trace this was up to the number of components
#   too large when the spread is spread over them (rough curves: a 3.8
#   times smaller bound, bench/bench-population-band-decompose.R).
# Both with exact discrete Laplace noise (floating-point safe).
population_inference <- function(cs, coef, sh, K, Jt, n, tau, epsilon, gdp = NULL, delta = 0) {
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
  # the top eigenvalue of the second moments of the components (K, Jt] and its sensitivity
  j <- if (Jt > K) (K + 1L):Jt else integer()
  top <- if (length(j)) tail_top_eigenvalue(cs$sums[j, 1L + j, drop = FALSE], sh[j], n)
  sens_t <- if (length(j)) max(sh[j])^2 * tau^2 / n
  if (!is.null(gdp)) {
    return(c(list(K = K, Jt = Jt, point = p), population_noise_gdp(C, up, top, sens_t, R, sK, n, gdp, delta)))
  }
  eps_m <- if (length(j)) 0.5 * epsilon else epsilon
  sens <- (sum(sK^2) + max(sK)^2) * R^2 / n
  b <- sens / eps_m
  ex <- iclp_exact_coefficients(C[up], rep(b, sum(up)), eps_m)
  out <- list(K = K, Jt = Jt, second_moment = symmetric_from_upper(ex$coef, up), laplace_scale = b * ex$inflation,
              sensitivity = sens, point = p, epsilon = epsilon, tail_top = 0, tail_scale = 0)
  if (length(j)) {
    eps_t <- epsilon - eps_m
    et <- iclp_exact_coefficients(top, sens_t / eps_t, eps_t)
    out$tail_top <- et$coef
    out$tail_scale <- sens_t / eps_t * et$inflation
  }
  out
}

# The largest eigenvalue of (1/n) S A2 S, A2 the sums of a_i a_i' of some
# components and S = diag(s) their shrinkage (0 when the matrix is 0).
tail_top_eigenvalue <- function(A2, s, n) {
  M <- A2 * outer(s, s) / n
  max(eigen((M + t(M)) / 2, symmetric = TRUE, only.values = TRUE)$values, 0)
}

# The symmetric matrix whose upper triangle (diagonal included, `up`) is v.
symmetric_from_upper <- function(v, up) {
  M <- matrix(0, nrow(up), ncol(up))
  M[up] <- v
  M + t(M) - diag(diag(M), nrow(up))
}

# With a Gaussian release (dp_mean(inference = TRUE) with mechanism "gp" or
# "frl" with frl_noise = "gaussian"; float noise, analytic calibration) the
# whole call is one mu-GDP budget, mu the largest
# that is (epsilon, delta)-DP (taken a hair below it), shared by three
# Gaussian mechanisms whose squared mus add up to mu^2 (GDP composes
# exactly): the release gets (1 - share) of mu^2, the K x K block and the
# top eigenvalue of the other components the rest (half each; all to the
# block when there are none; `clip_share` of the spread's part to the count
# of clipped curves). Gaussian noise is calibrated to the L2 (Frobenius) sensitivity
# of the block, sqrt(2) s_1^2 R^2 / n (||c c' - d d'||_F^2 = ||c||^4 +
# ||d||^4 - 2 (c'd)^2 <= 2 (s_1 R)^4), which does not grow with K as the L1
# sensitivity (||s_K||^2 + s_1^2) R^2 / n of the Laplace block does; at
# epsilon 4, n 1000 its noise is about 5 times smaller.
# (`clip`: the part of the spread's mu^2 that goes to the count of clipped
# curves, R/population-clipped.R)
inference_gdp_split <- function(epsilon, delta, share, clip = 0) {
  mu <- gdp_mu_for(epsilon, delta) * (1 - 1e-9)   # (gdp_mu_for() is an upper end: step below it)
  c(total = mu, release = sqrt(1 - share) * mu, spread = sqrt(share * (1 - clip)) * mu,
    clip = sqrt(share * clip) * mu, share = share)
}

# The Gaussian noise of the spread: the block C[up] and, when there is one, the top eigenvalue `top`
# (sensitivity sens_t).
population_noise_gdp <- function(C, up, top, sens_t, R, sK, n, gdp, delta) {
  mu_b <- gdp[["spread"]] / if (is.null(top)) 1 else sqrt(2)
  sens <- sqrt(2) * max(sK)^2 * R^2 / n
  ij <- which(up, arr.ind = TRUE)
  entry_sd <- sens / mu_b * ifelse(ij[, 1L] == ij[, 2L], 1, 1 / sqrt(2))   # (off the diagonal: / sqrt(2))
  check_float_tails("gaussian", gdp[["total"]], delta, m = length(entry_sd) + 1, shift = mu_b,
                    what = "dp_mean(inference = TRUE) (the spread)")
  out <- list(second_moment = symmetric_from_upper(C[up] + entry_sd * noise_draw(length(entry_sd), "normal"), up),
              family = "gaussian", entry_sd = entry_sd, sensitivity = sens, epsilon = NA_real_,
              mu = c(total = gdp[["total"]], release = gdp[["release"]], spread = gdp[["spread"]], block = mu_b),
              tail_top = 0, tail_scale = 0)
  if (!is.null(top)) {
    mu_t <- gdp[["spread"]] / sqrt(2)
    out$tail_top <- top + sens_t / mu_t * noise_draw(1, "normal")
    out$tail_scale <- sens_t / mu_t
    out$mu[["tail"]] <- mu_t
  }
  out
}

# The data's cov summary on the first Jt components of the release's basis,
# from the same source as the mean summary (curves in memory are centred
# already; tables and chunks get the centre in the engine).
population_summary <- function(src, basis, Jt, tau, cen, incomplete = "error") {
  bK <- basis
  bK$vectors <- basis$vectors[, seq_len(Jt), drop = FALSE]
  bK$values <- basis$values[seq_len(Jt)]
  bK$J <- Jt
  if (!is.null(basis$projection)) bK$projection <- basis$projection[, seq_len(Jt), drop = FALSE]
  if (!is.null(src$tee)) return(src$tee$summary())     # chunks: computed while the mean read them
  data <- if (!is.null(src$curves)) src$curves else src$data
  cols <- src$cols
  # with a privacy unit each unit adds the mean of its curves' a_i a_i' (an upper bound, in the
  # positive semidefinite order, on the outer product of its mean curve: the band stays conservative)
  # (incomplete = "drop": the incomplete individuals add nothing, as in the mean; the second moments
  # stay sums over all N, and N p p' bounds the n_complete p p' of the complete ones from above)
  summarise_cov_basis(data, bK, tau, cols$id %||% "id", cols$arg %||% "arg", cols$value %||% "value",
                      center = if (is.null(src$curves)) cen, unit = if (!is.null(src$curves)) src$unit else cols$unit,
                      incomplete = if (incomplete == "drop") "drop" else "zero")
}

# Chunks are read once: the cov summary is computed from the same chunks as
# the mean summary, as they pass. The rows of the last id of a chunk are held
# back until the next one (as chunks_reduce() does), so an individual is
# never split; the mean summary's pass checks the order of the ids.
chunks_tee <- function(chunks, f, id, fill_by = NULL) {
  force(chunks)   # (the caller replaces its source by the tee)
  force(fill_by)
  chunks_start(chunks)
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
      ids <- chunk_keys(e, id, fill_by)
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

# Upper bounds on the sampling variances v_t' C v_t at every grid point t
# at once (v_t the t-th row of V_K, C the second moment of the shrunk
# coefficients), holding with probability at least 1 - gamma over the
# inference noise. The release is Ch = C + E with E the symmetric matrix of
# Laplace noise (public law); its projection Ch_psd on the positive
# semidefinite cone is >= Ch, so v'Cv <= v'Ch_psd v + |v'Ev|, and |v_t'E v_t|
# is at most sd_E(t) times the (1 - gamma) quantile of max_t |v_t'E v_t| /
# sd_E(t) (simulated with a public seed). This replaces a bound on the
# operator norm of E, which must hold in every direction at once: at epsilon
# 4, n 1000 it made the sampling sd 2.6 times its noise-free value, the
# pointwise bound about 1.4 times (bench/bench-population-band-decompose.R).
# Returns the bounds and the symmetric square root A of Ch_psd (Ch_psd = A A'
# = A^2): unique, unlike a factor built on eigenvectors, whose signs eigen()
# may flip when the data's units change, which re-paired the Monte Carlo
# draws with the components and moved the band (by 0.03% in a test).
inference_var_upper <- function(inf, VK, gamma, nsim, seed) {
  K <- inf$K
  gauss <- identical(inf$family, "gaussian")   # (the Gaussian block of a mu-GDP spread, entry sds entry_sd)
  e <- eigen(inf$second_moment, symmetric = TRUE)
  A <- e$vectors %*% (sqrt(pmax(e$values, 0)) * t(e$vectors))
  raw <- rowSums((VK %*% A)^2)
  # v_t'E v_t = sum_{j <= k} E_jk w_jk(t), w_jk = v_j v_k (2 v_j v_k off the diagonal); Laplace: one
  # scale b for every entry (sd sqrt(2) b), Gaussian: each entry's own sd (in the order of `up`)
  up <- which(upper.tri(diag(K), diag = TRUE), arr.ind = TRUE)
  W <- t(VK[, up[, 1L], drop = FALSE] * VK[, up[, 2L], drop = FALSE]) * ifelse(up[, 1L] == up[, 2L], 1, 2)
  if (gauss) W <- W * inf$entry_sd
  sdE <- sqrt((if (gauss) 1 else 2) * colSums(W^2))   # (Laplace: per unit scale)
  ok <- sdE > 0
  nsim <- min(nsim, 4000L)
  q <- with_public_seed(seed, {
    nz <- nsim * nrow(up)
    E <- matrix(if (gauss) stats::rnorm(nz) else stats::rexp(nz) - stats::rexp(nz), nsim)
    r <- abs(E %*% W[, ok, drop = FALSE]) / rep(sdE[ok], each = nsim)
    stats::quantile(apply(r, 1L, max), 1 - gamma, names = FALSE, type = 8)
  })
  list(var = raw + (if (gauss) 1 else inf$laplace_scale) * q * sdE, raw = raw, A = A)
}

# The levels of a population band (shared by the linear and the ICLP-AR bands):
# select = "pcv": the tuning was chosen privately from the data among L
# candidates; a band at level 1 - (1 - level) / L for each of them covers
# whichever the selection picked (a union bound: the release's noise is drawn
# after the selection, independently of it). `gamma`: the share of the error
# left to the variance bounds; `gamma_c`: to the noisy count of incomplete =
# "drop". `notes`: what the method says of both.
band_levels <- function(object, level, gamma_share) {
  L <- if (identical(object$selection, "pcv")) length(object$pcv$candidates) else 1L
  level <- 1 - (1 - level) / L
  drop <- !is.null(object$epsilon_count)
  gamma_c <- if (drop) (1 - level) * 0.05 else 0
  notes <- paste0("", if (L > 1L) sprintf(paste("; Bonferroni over the %d candidates of the private",
                                            "cross-validation (each at level %s)"), L, format(level, digits = 4)),
                  if (drop) paste("; incomplete individuals dropped: for the mean of the complete curves,",
                                  "widened by the error of the noisy count (held with probability",
                                  paste0(format(1 - gamma_c, digits = 4), ")")))
  list(level = level, gamma = (1 - level) * gamma_share, drop = drop, gamma_c = gamma_c, notes = notes)
}

# The simultaneous band for the population mean of a dp_mean(inference =
# TRUE) release: half-widths on the grid and the method.
population_band <- function(object, level, nsim, seed, gamma_share = 0.1) {
  inf <- object$inference
  if (is.null(inf)) {
    mean_release <- inherits(object, "dpfda_iclp_release")   # (every dp_mean() mechanism)
    dpfda_abort(paste("type = \"population\" needs a release made with dp_mean(..., inference = TRUE), which",
                      "spends part of epsilon on the spread of the curves, or one of dp_kde();",
                      if (mean_release) "this release has none." else
                        sprintf(paste("a %s release has none: its bands (type = \"pointwise\" or \"simultaneous\")",
                                      "cover the privacy noise around the non-private estimate, not the sampling",
                                      "error."), object$mechanism)),
                class = "dpfda_error_unsupported", arg = "type")
  }
  if (identical(object$mechanism, "iclp_ar")) return(population_band_ar(object, level, nsim, seed, gamma_share))
  basis <- inf$basis %||% object$basis   # (Bernstein: the basis of the polynomials' range)
  V <- basis$vectors
  lam <- basis$values
  K <- inf$K
  n <- object$n
  f <- object$scale_factor %||% 1
  sh <- inference_keep(object$mechanism, basis, object$params)
  lv <- band_levels(object, level, gamma_share)
  level_asked <- level
  level <- lv$level
  gamma <- lv$gamma
  drop <- lv$drop
  gamma_c <- lv$gamma_c
  VK <- V[, seq_len(K), drop = FALSE]
  vu <- inference_var_upper(inf, VK, gamma / 2, nsim, seed + 1L)
  # sampling in the components (K, Jt]: variance at most L sum_j v_j(t)^2 / n with L an upper
  # bound (probability 1 - gamma / 2) on the top eigenvalue of their second moments; beyond Jt
  # (s_j < 0.01): at most tau^2 sum_{j > Jt} s_j^2 v_j(t)^2 / n (Cauchy-Schwarz, ||a_i|| <= tau)
  Jt <- inf$Jt %||% K
  mid <- if (Jt > K) (K + 1L):Jt else integer()
  far <- setdiff(seq_along(lam), seq_len(Jt))
  # (an upper bound on the eigenvalue with probability 1 - gamma / 2: a Laplace or Gaussian tail)
  L_up <- if (!length(mid)) 0 else max(inf$tail_top, 0) + inf$tail_scale *
    if (identical(inf$family, "gaussian")) stats::qnorm(1 - gamma / 2) else log(2 / gamma)
  mid_sd <- if (length(mid)) sqrt(L_up * rowSums(V[, mid, drop = FALSE]^2) / n) else 0
  far_sd <- if (length(far)) sqrt(inference_radius(basis, object$tau)^2 * as.vector(V[, far, drop = FALSE]^2 %*% sh[far]^2) / n) else 0
  # the three parts of the sampling error are correlated in any way the population likes (the
  # basis is the kernel's, not the curves' principal components): their standard deviations add
  # (Minkowski), where adding variances understates a spread along one direction shared by the
  # first K components and the others by up to a factor sqrt(2)
  tail_sd <- mid_sd + far_sd
  samp_sd <- sqrt(vu$var / n)
  all_sd <- samp_sd + tail_sd
  raw_sd <- sqrt(vu$raw / n)
  law <- noise_law(object)
  se <- sqrt(all_sd^2 + law$var) * f
  nsim <- mc_draws(nsim, length(se))
  ratio <- with_public_seed(seed, {
    # the sampling part: Gaussian with the correlation of the noisy second moments of the first K
    # components, scaled up to the bounds on the whole sampling sd (independent where those moments
    # give no variance)
    G <- matrix(stats::rnorm(nsim * K), nsim) %*% t(VK %*% vu$A) / sqrt(n)
    pos <- raw_sd > 1e-8 * max(raw_sd, 1e-300)
    G[, pos] <- G[, pos] * rep(all_sd[pos] / raw_sd[pos], each = nsim)
    if (any(!pos)) G[, !pos] <- matrix(stats::rnorm(nsim * sum(!pos)), nsim) * rep(all_sd[!pos], each = nsim)
    N <- law$draw(nsim)
    apply(abs((G + N) * f) / rep(se, each = nsim), 1L, max)
  })
  q <- stats::quantile(ratio, 1 - (1 - level - gamma - gamma_c), names = FALSE, type = 8)
  bias <- mean_bias_bound(object$mechanism, basis, object$params, object$tau, grid = object$values$grid)$pointwise * f
  half <- q * se + bias
  if (drop) half <- drop_count_widen(object, half, gamma_c)
  cut <- bernstein_band_cut(object, half)
  list(half = half, lower = cut$lower, upper = cut$upper, sd = se, bias = bias, multiplier = q,
       parts = list(sampling = samp_sd * f, sampling_rest = tail_sd * f, noise = sqrt(law$var) * f),
       method = sprintf(paste("population band: sampling (pointwise private variance upper bounds from the second moments",
                              "of %d components%s, %s, held with probability %s;",
                              "the other components bounded; the parts' standard deviations added), privacy",
                              "noise of the mean (public law), Monte Carlo multiplier (%d draws)%s; %s; %s"),
                        K, if (Jt > K) sprintf(" and the top eigenvalue of those of %d more", Jt - K) else "", if (is.null(inf$mu)) paste("epsilon", format(inf$epsilon, digits = 3)) else
                          paste("Gaussian, mu", format(inf$mu[["spread"]], digits = 3)),
                        format(1 - gamma, digits = 4), nsim,
                        lv$notes,
                        if (identical(object$mechanism, "bernstein")) {
                          paste("the components span the range of the Bernstein polynomials of degree",
                                object$params$k, "(the curves clamped at each grid point); Bernstein",
                                "approximation bias bounded (worst case for a mean in the default kernel's",
                                "RKHS ball of radius tau sqrt(|domain|) / sqrt(lambda_1))")
                        } else if (all(bias == 0)) "no smoothing bias (every basis component kept)" else
                          paste("smoothing bias bounded (worst case for a mean in the kernel's RKHS ball",
                                "of radius tau / sqrt(lambda_1))"), clipped_statement(object, level_asked)))
}

# The Bernstein mean clamps every curve to [c(t) - tau, c(t) + tau] at each grid point (c the public
# centre, 0 without one), so the mean it estimates lies there too: the band is cut to that range,
# a valid band of the same level under the band's own assumptions. (On a gait data set the band
# was +-270 degrees about curves clamped to +-tau; where the band lies wholly beyond the range,
# the nearest end of the range is kept.) NULL ends for the other mechanisms, whose clipping is in
# L2 and bounds no single point.
bernstein_band_cut <- function(object, half) {
  if (!identical(object$mechanism, "bernstein")) return(list())
  g <- object$values$grid
  cen <- if (is.null(object$center)) 0 else center_at(object$center, g)
  est <- object$values$values[1L, ]
  lo_r <- cen - object$tau
  hi_r <- cen + object$tau
  lower <- pmin(pmax(est - half, lo_r), hi_r)
  upper <- pmax(pmin(est + half, hi_r), lo_r)
  # (cut to the whole range at every point, the band says no more than the public bound: on fda's
  # growth girls, n = 54, its 20% of epsilon bought nothing, and nothing said so)
  tol <- 1e-9 * object$tau
  if (isTRUE(getOption("dpfda.utility_warning", TRUE)) && all(lower <= lo_r + tol & upper >= hi_r - tol)) {
    dpfda_warn(sprintf(paste("The population band is the public range center +- tau (%s) at every grid point: at",
                             "this n and epsilon it says no more than the bound. A larger n or epsilon, a smaller",
                             "tau, or mechanism = \"iclp_qr\" (plan with dp_accuracy()) would narrow it."),
                       format(object$tau, digits = 4)), "dpfda_warning_utility")
  }
  list(lower = lower, upper = upper)
}

# incomplete = "drop": the release is (S + N e) / c with S the sum of the n_c
# complete clipped curves and c = n_c + L the noisy count (discrete Laplace,
# scale 1 / epsilon_count). Against the mean mu_c of the complete curves its
# error is  S / c - mu_c + N e / c = (n_c / c) (S / n_c - mu_c) + N e / c
# + mu_c (n_c - c) / c. The first two are the sampling and noise parts of the
# band already (scaled by f = N / c: the second moments are sums over all N,
# so (N / c)^2 v'Mv / N = n_c v'E[cc']v / c^2); the last is at most
# r |mu_c(t)| with r = q / c, q the (1 - gamma_c) quantile of |L|. With
# |mu_c| <= |estimate| + half on the band's own event, the half-width h0 of
# the other parts becomes (h0 + r |estimate|) / (1 - r).
drop_count_widen <- function(object, half, gamma_c) {
  dc <- drop_count_error(object, gamma_c)
  r <- dc[["r"]]
  if (!(r < 0.5)) {
    dpfda_abort(sprintf(paste("The noisy count of complete individuals (%s) is too small against its noise (%s at",
                              "this level) for a population band; %s"), format(object$n_complete, digits = 4),
                        format(dc[["q"]], digits = 3), drop_count_advice(object, gamma_c)),
                class = "dpfda_error_unsupported", arg = "object")
  }
  # (the released values less the centre: the scaled centred release, of every mechanism)
  est <- abs(as.vector(object$values$values) - if (is.null(object$center)) 0 else center_at(object$center, object$values$grid))
  (half + r * est) / (1 - r)
}

# The (1 - gamma_c) quantile q of the count's noise |L| (P(|L| >= k) <= 2 exp(-k / b) for discrete
# Laplace of scale b) and its ratio r = q / c to the noisy count: a band needs r < 1/2.
drop_count_error <- function(object, gamma_c) {
  q <- log(2 / gamma_c) / object$epsilon_count
  c(q = q, r = q / object$n_complete)
}

# What makes r < 1/2: the count's epsilon (count_share times epsilon) above 2 log(2 / gamma_c) / c.
drop_count_advice <- function(object, gamma_c) {
  need <- 2 * log(2 / gamma_c) / object$n_complete
  eps_total <- object$epsilon   # (count_share is a share of the whole epsilon)
  share <- ceiling(100 * 1.1 * need / eps_total) / 100
  sprintf("the count's epsilon (%s) would need to exceed about %s: %s", format(object$epsilon_count, digits = 3),
          format(need, digits = 3), if (share <= 0.5) {
            sprintf("use count_share = %s (in ...) at this epsilon, more individuals or a larger epsilon.", format(share))
          } else "use more individuals or a larger epsilon (no count_share up to 0.5 suffices at this epsilon).")
}

# A dp_mean(inference = TRUE, incomplete = "drop") release whose noisy count is too uncertain for
# a population band at `level`: the warning at the release (the budget of the spread is spent
# then, and the band refused only at confint()), or NULL.
drop_band_refusal <- function(object, level = 0.95) {
  if (is.null(object$inference) || is.null(object$epsilon_count) || is.null(object$n_complete)) return(NULL)
  gamma_c <- band_levels(object, level, 0.1)$gamma_c
  dc <- drop_count_error(object, gamma_c)
  if (dc[["r"]] < 0.5) return(NULL)
  sprintf(paste("No population band at level %s: the noisy count of complete individuals (%s) is too small",
                "against its noise (%s at that level), and confint(type = \"population\") will refuse it; %s"),
          format(level), format(object$n_complete, digits = 4), format(dc[["q"]], digits = 3),
          drop_count_advice(object, gamma_c))
}

# dp_mean(inference = TRUE) is available for every mechanism (ICLP-AR through
# R/population-band-ar.R, Bernstein through R/population-band-bernstein.R) on curves,
# data frames, tables and chunks, with or without `unit`, with every `select`
# and incomplete = "drop" (not from a mean summary, which lacks the second
# moments).
check_inference <- function(mechanism, select, incomplete, unit, src) {
  no <- function(what, arg) {
    dpfda_abort(sprintf("inference = TRUE is not available %s yet.", what),
                class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = arg)
  }
  if (inherits(src$data, "dpfda_summary")) {
    no("from a mean summary (it lacks the second moments; give the data, a table or chunks)", "x")
  }
  invisible(TRUE)
}
