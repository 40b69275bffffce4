# Coverage and width of the population band of a difference of two releases, `confint(a - b, type =
# "population")` (the Bonferroni combination of the two groups' population bands at level 0.975).
# Known populations: two groups of the smooth population of band-helpers.R, the second with its
# mean shifted by a bump, without (smooth) or with (rough) independent noise at every grid point;
# dp_mean(inference = TRUE) of each group, ICLP-QR, tau = 1.5 as in bench-population-band.R.
# epsilon 0.25, 1, 4; n 200 and 1000 per group. Every cell: the simultaneous coverage of the true
# difference at nominal 0.95, the mean half-width and its ratio to the non-private simultaneous
# band of the difference (Gaussian multiplier band from the two sample covariances).
#
#   Rscript bench/bench-population-band-difference.R [reps] [nsim]
# (reps: replications per cell, default 1000; nsim: Monte Carlo draws per band, default 2000.)
#
# Run from the repository root.
#
# Measured (2026-12-01, 1000 replications per cell, 2000 draws per band, 19 min): coverage 1.000 in
# all 12 cells (conservative, never below nominal); half-width (the ratio to the non-private band):
#
#   epsilon   n     smooth        rough
#   0.25     200    7.79 (66.3)   7.79 (53.4)
#   1        200    6.11 (52.0)   6.11 (41.8)
#   4        200    3.82 (32.5)   3.82 (26.1)
#   0.25    1000    4.05 (76.9)   4.05 (61.9)
#   1       1000    2.29 (43.6)   2.29 (35.1)
#   4       1000    1.37 (26.0)   1.37 (21.0)
#
# The half-widths are the same for both populations: the public parts of the two bands (the
# worst-case smoothing bias for a mean in the kernel's RKHS ball of radius tau / sqrt(lambda_1),
# and the privacy noise) set them, not the sampling variance, as for one group
# (bench-population-band.R: 14-18 times the non-private band at epsilon 4, n 1000). The
# difference adds two such bands at level 0.975, so about twice one group's width.
suppressPackageStartupMessages(library(dpfda))
source("bench/band-helpers.R")

args <- commandArgs(TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 1000L
nsim <- if (length(args) >= 2L) as.integer(args[2L]) else 2000L
pop <- band_smooth_population(41)
g <- pop$g
bump <- function(t) 0.3 * exp(-(t - 0.5)^2 / (2 * 0.08^2))
draw <- function(n, shift, rough) {
  X <- pop$draw(n) + if (shift) outer(rep(1, n), bump(g)) else 0
  if (rough) X <- X + matrix(runif(n * length(g), -0.3, 0.3), n)
  X
}
tau <- 1.5   # (as in bench-population-band.R: a few curves exceed it; the band does not include that bias)
truth <- -bump(g)   # mean of the first group minus that of the second

# The non-private simultaneous band of the difference of two independent means.
nonprivate_difference <- function(Xa, Xb, level = 0.95, nsim = 2000) {
  S <- stats::cov(Xa) / nrow(Xa) + stats::cov(Xb) / nrow(Xb)
  e <- eigen(S, symmetric = TRUE)
  A <- e$vectors %*% diag(sqrt(pmax(e$values, 0)))
  sd0 <- sqrt(pmax(diag(S), 1e-300))
  Z <- matrix(rnorm(nsim * ncol(S)), nsim) %*% t(A)
  stats::quantile(apply(abs(Z) / rep(sd0, each = nsim), 1, max), level) * sd0
}

out <- NULL
t0 <- proc.time()[["elapsed"]]
for (rough in c(FALSE, TRUE)) for (n in c(200L, 1000L)) for (eps in c(0.25, 1, 4)) {
  set.seed(1000 * n + 10 * eps + rough)
  res <- vapply(seq_len(reps), function(i) {
    Xa <- draw(n, FALSE, rough)
    Xb <- draw(n, TRUE, rough)
    old <- dp_reproducible(i)
    on.exit(dp_rng(old))
    d <- dp_mean(curves(Xa, g), epsilon = eps, tau = tau, inference = TRUE) -
      dp_mean(curves(Xb, g), epsilon = eps, tau = tau, inference = TRUE)
    pb <- suppressWarnings(confint(d, type = "population", nsim = nsim))
    np <- nonprivate_difference(Xa, Xb)
    c(cover = all(pb$lower <= truth & truth <= pb$upper), half = mean(pb$upper - pb$lower) / 2,
      ratio = mean((pb$upper - pb$lower) / 2) / mean(np))
  }, numeric(3))
  row <- data.frame(population = if (rough) "rough" else "smooth", n = n, epsilon = eps,
                    coverage = mean(res["cover", ]), half_width = mean(res["half", ]),
                    ratio_nonprivate = mean(res["ratio", ]))
  out <- band_cell_done(row, out)
}
cat(sprintf("\n%d replications per cell, %d draws per band, %.0f s\n", reps, nsim, proc.time()[["elapsed"]] - t0))
print(out, digits = 3, row.names = FALSE)
