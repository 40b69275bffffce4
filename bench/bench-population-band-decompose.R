# Where the width of the population band (dp_mean(inference = TRUE) +
# confint(type = "population"), issue 29) comes from, against the
# non-private simultaneous band (Gaussian multiplier band from the sample
# covariance). One data set per setting (smooth, light-tailed population of
# bench-population-band.R); means over the grid of:
#   sampling (K-block covariance upper bound; its noise-free part in brackets),
#   sampling of the other kept components (top-eigenvalue bound; the three parts' sds add),
#   privacy noise of the mean release, the total se, the multiplier,
#   the smoothing-bias bound, the half-width and its ratio to the non-private one,
#   and (oracle) the ratio of a band that knows the population covariance: the floor for the release.
#
#   Rscript bench/bench-population-band-decompose.R
#
# Measured 2026-11-29 (one data set per row, secure noise, so each row varies by about 10% between
# runs): half-width / non-private half-width, and the oracle's
#
#   epsilon  n     iclp_qr (PSS)        frl, M = J, sqrtM   frl, M = J, Gaussian
#   4       1000   17.3 (oracle 15.3)   8.8 (6.0)           4.9 (2.6)
#   1       1000   28.0 (23.4)         27.1 (23.7)         11.8 (7.8)
#   0.25     200   45.6 (37.1)        235  (221)           78.2 (65.1)
#
# Even a band that knows the population covariance is 2.6 times the non-private band at epsilon 4,
# n 1000 around the narrowest release (the release's own noise, sd 0.026 at a grid point against
# the sampling sd 0.016): issue 29's 1.15 is out of reach of any band around these releases. The
# private variance bounds cost the rest (2.6 -> 4.9): the top eigenvalue of the 46 other
# components (0.032 of the 0.060 se) and the K block (0.022; its noise-free value 0.016). (Giving
# the eigenvalue 85% of the spread's mu^2 instead of half was 1% wider in the two cells run with
# 1000 replications, epsilon 0.25 and 1 at n 200: 73.9 and 25.8 against 73.1 and 25.5.)

suppressPackageStartupMessages(library(dpfda))
source("bench/band-helpers.R")
list2env(band_smooth_population(50), environment())   # m, g, mu, phi, sds, draw
tau <- 1.5
designs <- list(
  "iclp_qr (PSS)" = list(),
  "frl, M = J, sqrtM" = list(mechanism = "frl", M = m, frl_bound = "sqrtM"),
  "frl, M = J, Gaussian" = list(mechanism = "frl", M = m, frl_noise = "gaussian", delta = 1e-5))
# the population's own covariance of a curve (3 components)
L_pop <- t(phi) * rep(c(0.4, 0.25, 0.15), each = m)   # m x 3: cov = L_pop L_pop'
sd_pop <- sqrt(rowSums(L_pop^2))
# The oracle: a band that knows the population covariance (no budget spent on the spread, no
# variance bound), with the release's own noise law and bias bound: the floor of any band for this
# release; its ratio to the non-private band is what issue 29's 1.15 target asks of the whole.
oracle_ratio <- function(r, n, bias, np_half) {
  law <- dpfda:::noise_law(r)
  se <- sqrt(sd_pop^2 / n + law$var)
  Z <- matrix(rnorm(4000 * 3), 4000) %*% t(L_pop) / sqrt(n) + law$draw(4000)
  q <- stats::quantile(apply(abs(Z) / rep(se, each = 4000), 1, max), 0.95, names = FALSE)
  mean(q * se + bias) / np_half
}
rows <- NULL
for (cfg in list(c(4, 1000), c(1, 1000), c(0.25, 200))) {
  set.seed(1)
  X <- draw(cfg[2])
  S <- stats::cov(X) / cfg[2]
  sd0 <- sqrt(diag(S))
  Z <- matrix(rnorm(4000 * m), 4000) %*% chol(S + diag(1e-12, m))
  q0 <- stats::quantile(apply(abs(Z) / rep(sd0, each = 4000), 1, max), 0.95, names = FALSE)
  for (d in names(designs)) {
    r <- do.call(dp_mean, c(list(curves(X, g), epsilon = cfg[1], tau = tau, inference = TRUE), designs[[d]]))
    pb <- dpfda:::population_band(r, 0.95, 2000, 1)
    inf <- r$inference
    e <- eigen(inf$second_moment, symmetric = TRUE)
    psd <- e$vectors %*% (pmax(e$values, 0) * t(e$vectors))
    VK <- r$basis$vectors[, seq_len(inf$K), drop = FALSE]
    raw <- sqrt(pmax(rowSums((VK %*% psd) * VK), 0) / r$n)
    rows <- rbind(rows, data.frame(
      epsilon = cfg[1], n = cfg[2], design = d, np_sd = mean(sd0), np_mult = q0, np_half = mean(q0 * sd0),
      samp = mean(pb$parts$sampling), samp_raw = mean(raw), samp_rest = mean(pb$parts$sampling_rest),
      noise = mean(pb$parts$noise), se = mean(pb$sd), mult = pb$multiplier, bias = mean(pb$bias),
      half = mean(pb$half), ratio = mean(pb$half) / mean(q0 * sd0),
      oracle = oracle_ratio(r, cfg[2], pb$bias, mean(q0 * sd0))))
  }
}
print(rows, digits = 3, row.names = FALSE)
