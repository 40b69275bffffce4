# Population bands for dp_mean(mechanism = "iclp_ar", inference = TRUE).
#
# ICLP-AR releases b_j = soft(abar_j, t_j) + e_j on the first J_tau
# components (0 beyond): soft thresholding of the mean's coefficients, then
# noise of a public law. Against the population mean mu = sum_j a_j v_j:
#
#   mu_hat - mu = sum_{j <= J_tau} v_j (soft(abar_j) - soft(a_j))   sampling
#               + sum_{j <= J_tau} v_j e_j                           privacy noise
#               + [sum_{j <= J_tau} v_j (soft(a_j) - a_j) - the rest] thresholding bias
#
# The thresholding is not linear, so the sampling error has no covariance
# of its own; but soft thresholding is nondecreasing and 1-Lipschitz, so
# soft(abar_j) - soft(a_j) = theta_j (abar_j - a_j) with theta_j in [0, 1],
# and |sampling(t)| <= sum_j |v_j(t)| |abar_j - a_j| whatever the thetas. The
# band bounds every |abar_j - a_j| at once (Bonferroni over the J_tau
# components, each Gaussian with variance Sigma_jj / n), Sigma_jj bounded
# from the private second moments as for the linear mechanisms
# (R/population-band.R: the K x K block's diagonal, and the top eigenvalue of
# the others, which bounds each of their diagonal entries); the noise part
# by the Monte Carlo quantile of its maximum over the grid; the bias by the
# bound of R/bias-bound.R. The two random parts' quantiles add (a union
# bound): wider than a linear band, by up to the square root of J_tau where
# the components' errors would have cancelled, but valid for any
# thresholding.
population_band_ar <- function(object, level, nsim, seed, gamma_share = 0.1) {
  inf <- object$inference
  basis <- object$basis
  V <- basis$vectors
  n <- object$n
  f <- object$scale_factor %||% 1
  K <- inf$K
  Jt <- inf$Jt %||% K
  jt <- object$params$J_tau
  lv <- band_levels(object, level, gamma_share)   # (R/population-band.R)
  level_asked <- level
  level <- lv$level
  gamma <- lv$gamma
  drop <- lv$drop
  gamma_c <- lv$gamma_c
  rest <- (1 - level - gamma - gamma_c) / 2          # the sampling part's and the noise part's
  # upper bounds on the variances of the components: the block's diagonal (simultaneously, with
  # probability 1 - gamma / 2), the top eigenvalue of the others (1 - gamma / 2)
  vu <- inference_var_upper(inf, diag(K), gamma / 2, nsim, seed + 1L)
  L_up <- if (Jt <= K) 0 else max(inf$tail_top, 0) + inf$tail_scale * log(2 / gamma)
  var_j <- c(vu$var, rep(L_up, max(Jt - K, 0L)))[seq_len(jt)]
  samp_sd <- if (jt > 0L) as.vector(abs(V[, seq_len(jt), drop = FALSE]) %*% sqrt(var_j / n)) else
    numeric(nrow(V))
  z <- if (jt > 0L) stats::qnorm(1 - rest / (2 * jt)) else 0
  law <- noise_law(object)
  noise_sd <- sqrt(law$var)
  nsim <- mc_draws(nsim, length(noise_sd))
  pos <- noisy_points(noise_sd)
  qn <- if (!any(pos)) 0 else with_public_seed(seed, {
    N <- law$draw(nsim)
    stats::quantile(apply(abs(N[, pos, drop = FALSE]) / rep(noise_sd[pos], each = nsim), 1L, max), 1 - rest,
                    names = FALSE, type = 8)
  })
  bias <- mean_bias_bound("iclp_ar", basis, object$params, object$tau, object$threshold_scale %||% 1)$pointwise * f
  half <- (z * samp_sd + qn * noise_sd) * f + bias
  if (drop) half <- drop_count_widen(object, half, gamma_c)
  list(half = half, sd = sqrt(samp_sd^2 + law$var) * f, bias = bias, multiplier = max(z, qn),
       multipliers = c(sampling = z, noise = qn),
       parts = list(sampling = samp_sd * f, sampling_rest = 0 * samp_sd, noise = noise_sd * f),
       method = sprintf(paste("population band: sampling (the thresholding is nondecreasing and 1-Lipschitz,",
                              "so its error is at most sum_j |v_j(t)| |abar_j - a_j|; each of the %d released",
                              "components bounded at once (Bonferroni, z = %s) with private variance upper bounds",
                              "from the second moments of %d components%s, %s, held with probability %s),",
                              "plus the privacy noise of the mean (public law, Monte Carlo quantile of its",
                              "maximum, %d draws), the two parts' quantiles added%s; thresholding bias",
                              "bounded (worst case for a mean in the kernel's RKHS ball of radius tau /",
                              "sqrt(lambda_1)); %s"),
                        jt, format(z, digits = 3), K,
                        if (Jt > K) sprintf(" and the top eigenvalue of those of %d more", Jt - K) else "",
                        paste("epsilon", format(inf$epsilon, digits = 3)), format(1 - gamma, digits = 4), nsim,
                        lv$notes, clipped_statement(object, level_asked)))
}
