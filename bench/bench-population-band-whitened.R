# Could a mean release other than the papers' reach issue 29's width target
# (the population band at most 1.15 times the non-private simultaneous band at
# epsilon 4, n 1000)? bench-population-band-decompose.R shows that the
# ICLP/FRL releases cannot (their oracle bands are 15 and 2.6 times wider): their noise is
# spread evenly over the components, while the sampling variability of a mean
# sits in a few. This script measures the floor of the route that shapes the
# noise like the curves' covariance (not implemented in dpfda; a measurement
# only): Gaussian noise on the whitened scores of the curves, the whitening
# from a private second moment.
#
#   1. coefficients of the curves on P public cosines (L2 geometry), clipped
#      to tau; their second moment with Gaussian noise (sensitivity
#      2 tau^2 / n, Frobenius); its top K eigenpairs (lambda, V)
#   2. the scores on V divided by sqrt(lambda), clipped to
#      sqrt(qchisq(0.99, K)); their mean with Gaussian noise
#   3. what V leaves (the residual curves), clipped to their 95% norm
#      quantile; its mean with Gaussian noise
#   the three parts compose in zCDP (shares 1:2:1 of the rho of (epsilon,
#   1e-5)).
#
# The band is given every advantage a private band does not have: the
# sampling covariance is the sample's own (no private bound), the residual's
# clipping bound is read off the data, no clipping bias and no budget for
# the spread. So each ratio (the band's mean half-width over the non-private
# one, 5 draws of the noise) is a floor for any band around such a release.
#
#   Rscript bench/bench-population-band-whitened.R
#
# Measured 2026-11-30 (population of bench-population-band.R: smooth, three
# components with sds 0.4, 0.25, 0.15; two runs):
#
#   epsilon  n     curves about 0 (tau 1.5)        curves about the true mean (an oracle centre)
#   4       1000   1.42-1.60 (P 10), 2.0 (P 50)    tau 0.8-1.0: 1.22-1.29; tau 1.5: 1.40-1.42
#   1       1000   4.9-6.2 (P 10), 9-10 (P 50)
#   0.25     200   92-108 (P 10), 137-191 (P 50)
#
# Tuned by hand about the oracle centre (tau 0.9; P 4, 5, 7, 10; K 2, 3; shares of rho from 1:1:1 to
# 1:8:1): at best 1.19-1.21 (P 5, K 3, shares near 1:2:1), the others 1.23-1.53. And 1.03 when the
# population's eigenpairs are known (the whole budget on
# the whitened mean). So the target is reachable only when the covariance
# of the curves is public: learning it privately from n = 1000 curves at
# epsilon 4 (second-moment noise sd 0.01 per entry against the third
# eigenvalue 0.0225) costs more than the 15% the target allows, even before
# the private variance bound a valid band needs.

suppressPackageStartupMessages(library(dpfda))
source("bench/band-helpers.R")
list2env(band_smooth_population(50), environment())   # m, g, mu, phi, sds, draw
sw <- sqrt(dpfda:::quadrature_weights(g))    # values * sw: coordinates in which the Euclidean norm is L2
rho_of <- function(eps, delta) stats::uniroot(function(r) zcdp_epsilon(r, delta) - eps, c(1e-8, 100), tol = 1e-12)$root
cosines <- function(P) qr.Q(qr(sw * outer(g, 0:(P - 1), function(t, k) cos(k * pi * t))))
clip_rows <- function(Y, b) Y * pmin(1, b / pmax(sqrt(rowSums(Y^2)), 1e-300))
half_width <- function(cov_values) {          # mean half-width of the 95% simultaneous Gaussian band
  sd <- sqrt(diag(cov_values))
  Z <- matrix(rnorm(4000 * m), 4000) %*% chol(cov_values + diag(1e-12, m))
  mean(stats::quantile(apply(abs(Z) / rep(sd, each = 4000), 1, max), 0.95, names = FALSE) * sd)
}

whitened_ratio <- function(X, eps, P, K, tau, share = c(1, 2, 1)) {
  n <- nrow(X)
  Y <- X * rep(sw, each = n)
  S <- stats::cov(X) / n                       # the sampling covariance of the mean (oracle)
  rho <- rho_of(eps, 1e-5) * share / sum(share)
  B <- cosines(P)
  C <- clip_rows(Y %*% B, tau)
  E <- matrix(rnorm(P * P, 0, (2 * tau^2 / n) / sqrt(2 * rho[1])), P)
  E[lower.tri(E)] <- t(E)[lower.tri(E)]
  e <- eigen(crossprod(C) / n + E, symmetric = TRUE)
  lam <- pmax(e$values[seq_len(K)], 1e-6)
  V <- B %*% e$vectors[, seq_len(K), drop = FALSE]
  sd_w <- (2 * sqrt(stats::qchisq(0.99, K)) / n) / sqrt(2 * rho[2])
  R <- Y - (Y %*% V) %*% t(V)
  sd_r <- (2 * stats::quantile(sqrt(rowSums(R^2)), 0.95, names = FALSE) / n) / sqrt(2 * rho[3])
  noise <- (V %*% (lam * sd_w^2 * t(V)) + sd_r^2 * (diag(m) - V %*% t(V))) / outer(sw, sw)
  half_width(S + noise) / half_width(S)
}

show <- function(label, r) cat(sprintf("%-52s %.2f (sd %.2f)\n", label, mean(r), stats::sd(r)))
set.seed(1)
cat("half-width / non-private half-width (floor of a band around the whitened release; 5 noise draws)\n")
for (cfg in list(c(4, 1000), c(1, 1000), c(0.25, 200))) {
  X <- draw(cfg[2])
  for (P in c(10, 50)) for (K in c(3, 5)) {
    show(sprintf("epsilon %.2f, n %d, about 0 (tau 1.5), P %d, K %d", cfg[1], cfg[2], P, K),
         replicate(5, whitened_ratio(X, cfg[1], P, K, 1.5)))
  }
}
X <- draw(1000)
Xc <- X - outer(rep(1, 1000), mu(g))
for (tau in c(0.8, 1, 1.5)) {
  show(sprintf("epsilon 4, n 1000, about the true mean (tau %.1f), P 10, K 3", tau),
       replicate(5, whitened_ratio(Xc, 4, 10, 3, tau)))
}
sd_w <- (2 * sqrt(stats::qchisq(0.99, 3)) / 1000) / sqrt(2 * rho_of(4, 1e-5))
cat(sprintf("population eigenpairs known (epsilon 4, n 1000): whitened noise sd %.4f against the sampling sd %.4f: %.3f\n",
            sd_w, 1 / sqrt(1000), sqrt(1 + 1000 * sd_w^2)))
