# Where the width of the population band (dp_mean(inference = TRUE) +
# confint(type = "population"), issue 29) comes from, against the
# non-private simultaneous band (Gaussian multiplier band from the sample
# covariance). One data set per setting (smooth, light-tailed population of
# bench-population-band.R); means over the grid of:
#   sampling (K-block covariance upper bound; its noise-free part in brackets),
#   sampling of the other kept components (top-eigenvalue bound; the three parts' sds add),
#   privacy noise of the mean release, the total se, the multiplier,
#   the smoothing-bias bound, the half-width and its ratio to the non-private one.
#
#   Rscript bench/bench-population-band-decompose.R

suppressPackageStartupMessages(library(dpfda))
m <- 50
g <- seq(0, 1, length.out = m)
mu <- function(t) 0.4 * sin(2 * pi * t) + 0.3 * t
phi <- rbind(sqrt(2) * sin(pi * g), sqrt(2) * cos(2 * pi * g), sqrt(2) * sin(3 * pi * g))
draw <- function(n) outer(rep(1, n), mu(g)) + (matrix(rnorm(3 * n), n) * rep(c(0.4, 0.25, 0.15), each = n)) %*% phi
tau <- 1.5
designs <- list(
  "iclp_qr (PSS)" = list(),
  "frl, M = J, sqrtM" = list(mechanism = "frl", M = m, frl_bound = "sqrtM"))
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
      half = mean(pb$half), ratio = mean(pb$half) / mean(q0 * sd0)))
  }
}
print(rows, digits = 3, row.names = FALSE)
