# Coverage and width of dp_mean(inference = TRUE) + confint(type = "population")
# (issue 29). Known populations: smooth and rough, light and heavy tails;
# epsilon 0.25, 1, 4; n 200, 1000. Every cell: the simultaneous coverage of
# the true mean at nominal 0.95 (target [0.93, 0.97]; where it cannot be
# reached the band must be conservative), the mean half-width, and its ratio
# to the non-private simultaneous band (Gaussian multiplier band from the
# sample covariance). Then the time of the band for n = 1e4 curves on 100
# grid points.
#
#   Rscript bench/bench-population-band.R [reps] [grid points] [nsim] [design]
# (reps: replications per cell, default 1000; nsim: Monte Carlo draws per band, default 2000;
# design: "iclp_qr", "frl_full", "gp", "frl_gauss", "bernstein" or "iclp_ar", default all; several joined by commas;
# optional 5th argument: epsilon values, e.g. "4", and 6th: n values, e.g. "1000".)
#
# Measured (2026-11-29, after the sampling parts' sds were made to add (a fix: adding variances
# could understate the sampling error) and the other components bounded by their top eigenvalue;
# 1000 replications per cell, 2000 draws per band, 23 min per design). Design frl_gauss: coverage
# 0.987-1.000 in all 24 cells, never below nominal (conservative: the variance bounds hold with
# high probability); half-width / non-private half-width (coverage in brackets):
#
#   epsilon   n     smooth light  smooth heavy  rough light   rough heavy
#   0.25     200    73.1 (0.993)  75.3 (0.994)  57.6 (0.996)  59.3 (1.000)
#   1        200    25.5 (1.000)  26.0 (1.000)  20.1 (1.000)  20.6 (0.999)
#   4        200    10.8 (1.000)  11.0 (1.000)   8.6 (1.000)   8.7 (1.000)
#   0.25    1000    32.4 (0.987)  32.7 (0.994)  25.6 (0.991)  25.7 (0.994)
#   1       1000    11.6 (1.000)  11.7 (1.000)   9.2 (1.000)   9.2 (1.000)
#   4       1000     5.29 (1.000)  5.26 (1.000)  4.27 (1.000)  4.25 (1.000)
#
# The default design iclp_qr: coverage 0.999-1.000 in all 24 cells; ratios
#
#   epsilon   n     smooth light  smooth heavy  rough light   rough heavy
#   0.25     200    44.3          45.7          34.9          36.0
#   1        200    33.3          33.9          26.3          26.9
#   4        200    21.2          21.7          16.8          17.1
#   0.25    1000    51.7          52.2          40.9          41.1
#   1       1000    28.6          28.9          22.6          22.8
#   4       1000    17.6          17.8          14.0          14.2
#
# The run before the fix (2026-11-28) had frl_gauss at 4.15 / 4.14 / 3.77 / 3.75 and iclp_qr at
# 16.7 / 16.9 / 13.3 / 13.6 at epsilon 4, n 1000: the valid bound costs 5-28% of width. At epsilon
# 4, n 1000 frl_gauss is the narrowest design; at small n * epsilon ICLP-QR is far narrower. The
# 1.15 target of issue 29 is out of reach of this design: at (4, 1e-5)-DP the Gaussian mu is 0.925,
# and the release's own noise on 50 components (sd 0.026 at each grid point, with 80% of mu^2)
# exceeds the sampling sd (0.016), so even a known covariance would give about 1.9 times the
# non-private band. Speed: the band adds 0.27-0.29 s on top of the ICLP-QR release (0.33-0.45 s for
# FRL on every component) for n = 1e4 curves on 100 grid points (target 1 s).

#
# With the private count of clipped curves (clip_share 0.1 of the inference part; 2026-11-29, 200
# replications per cell, 8.2 min per design): coverage iclp_qr 0.995-1.000, frl_gauss 0.985-1.000
# in all 24 cells; half-width ratios at epsilon 4, n 1000 17.8 / 18.0 / 17.6 / 14.1 (iclp_qr) and
# 5.31 / 5.28 / 4.24 / 4.19 (frl_gauss), within Monte Carlo error of the runs above (the spread's
# 10% smaller share matters little). The populations clip 0.06-1.3% of the curves; the mean
# private estimate (clamped to [0, 1], so biased up where the count is noisy) is 0.3-0.6% at
# epsilon 4, n 1000 and up to 0.33 at epsilon 0.25, n 200, where one release cannot tell (its
# interval spans 0-100%). The clipping warning (fraction above 5% with confidence 0.999) came in
# 2 of 9600 bands (iclp_qr, n 200), none for frl_gauss. Speed: the band adds 0.46-0.50 s on top of
# the release for n = 1e4 curves on 100 grid points.
#
# Design bernstein (dp_mean(mechanism = "bernstein", inference = TRUE), 2026-11-30, 100 replications
# per cell, 3.9 min; tau = 1.5 is a sup bound there, so 5-13% of these curves are clamped somewhere):
# coverage 0.99-1.00 in all 24 cells, conservative; half-width ratios 81 / 40 / 27 (n 200) and
# 64 / 48 / 43 (n 1000) at epsilon 0.25 / 1 / 4 (smooth light; 22-84 over all cells; 42.7 / 43.3 /
# 33.7 / 33.9 at epsilon 4, n 1000). The band is the bias bound's: about 1.5 of the 1.59
# half-width at n 1000 is the worst-case Bernstein approximation bias of degree 20 (1.72 at its
# largest) over the class that allows RKHS norm tau / sqrt(lambda_1) = 3.2, where this population's
# mean has 0.70 and its own bias is 0.071; the sampling and noise parts shrink with n epsilon as
# for the other designs. A larger bernstein_k lowers the bound (0.92 at k = 100) and raises the
# lattice noise.
#
# Design bernstein again at full size (2026-11-30, 1000 replications per cell, 2000 draws per band,
# 45.7 min): coverage 0.997-1.000 in all 24 cells, never below nominal; half-width ratios
#
#   epsilon   n     smooth light  smooth heavy  rough light   rough heavy
#   0.25     200    80.7          83.3          63.7          65.6
#   1        200    40.2          40.9          31.7          32.5
#   4        200    27.4          28.0          21.6          22.0
#   0.25    1000    63.5          64.1          50.2          50.5
#   1       1000    48.0          48.4          37.8          38.2
#   4       1000    42.7          43.1          33.7          34.2
#
# (the rough populations clip 9-13% of their curves somewhere against the sup bound; the clipping
# warning came in 29% of the bands of rough light curves at epsilon 4, n 1000, where the private
# count is sharp enough to tell that more than 5% are clipped.)
#
# Design iclp_ar (the thresholded release: sampling bounded component by component, Bonferroni,
# plus the noise quantile; 2026-11-30, 100 replications per cell, 2.7 min): coverage 1.00 in all
# 24 cells; half-width ratios 51-299, at epsilon 4, n 1000 104 / 106 / 82 / 83. About 3.2 of the
# 3.9 half-width at n 1000 is the thresholding bias bound (the bound of R/bias-bound.R is there the
# whole class's radius, tau / sqrt(lambda_1): the components beyond J_tau may hold any mean of the
# class); the rest shrinks with n epsilon.
#
# Design iclp_ar again at full size (2026-11-30, 1000 replications per cell, 2000 draws per band,
# 45.6 min): coverage 1.000 in all 24 cells (never below nominal); half-width ratios
#
#   epsilon   n     smooth light  smooth heavy  rough light   rough heavy
#   0.25     200    288           297           227           233
#   1        200    116           118            92            94
#   4        200     64            66            51            52
#   0.25    1000    284           287           224           225
#   1       1000    143           144           113           114
#   4       1000    104           105            82            84

suppressPackageStartupMessages(library(dpfda))
source("bench/band-helpers.R")   # nonprivate_band(), band_cell_done()
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 1000L
m <- if (length(args) >= 2L) as.integer(args[2L]) else 50L
nsim <- if (length(args) >= 3L) as.integer(args[3L]) else 2000L      # Monte Carlo draws of each band
only <- if (length(args) >= 4L) args[4L] else NA                      # one design only
g <- seq(0, 1, length.out = m)
mu <- function(t) 0.4 * sin(2 * pi * t) + 0.3 * t          # the population mean
phi <- rbind(sqrt(2) * sin(pi * g), sqrt(2) * cos(2 * pi * g), sqrt(2) * sin(3 * pi * g))
sds <- c(0.4, 0.25, 0.15)
tau <- 1.5

# n curves of a population: scores Gaussian ("light") or t with 3 df scaled to the same sd
# ("heavy"); "rough" adds an Ornstein-Uhlenbeck path (Matern 1/2, lengthscale 0.05, sd 0.2)
rough_chol <- chol(kernel_matrix(kernel_matern(1 / 2, 0.05), g) + diag(1e-10, m))
draw <- function(n, shape, tails) {
  z <- if (tails == "light") matrix(rnorm(3 * n), n) else matrix(rt(3 * n, 3) / sqrt(3), n)
  X <- outer(rep(1, n), mu(g)) + (z * rep(sds, each = n)) %*% phi
  if (shape == "rough") {
    e <- matrix(rnorm(n * m), n) %*% rough_chol
    if (tails == "heavy") e <- e * sqrt(3 / rchisq(n, 3)) / sqrt(3)
    X <- X + 0.2 * e
  }
  X
}

w <- dpfda:::quadrature_weights(g)
truth <- mu(g)
b <- kl_basis(dpfda:::default_mean_kernel(g), g)
a_mu <- as.vector(dpfda:::kl_coef(b, matrix(truth, 1)))
cat(sprintf("population mean: RKHS norm %.3f; the bias class allows %.3f (tau / sqrt(lambda_1))\n",
            sqrt(sum(a_mu^2 / b$values)), tau / sqrt(b$values[1])))


# two designs of the release: the default ICLP-QR (PSS smoothing, worst-case smoothing-bias bound)
# and the unsmoothed FRL on every basis component (M = J, L1 bound sqrt(M)), which has no smoothing
# bias (the basis spans the grid) and needs no smoothness class
# (and the GP release, (epsilon, delta = 1e-5)-DP, QR smoothing with Gaussian noise; and FRL on
# every component with Gaussian noise, (epsilon, delta = 1e-5)-DP, calibrated to the l2 sensitivity
# 2 tau / n: no smoothing bias and no sqrt(M) of the Laplace l1 bound)
designs <- list(iclp_qr = list(), frl_full = list(mechanism = "frl", M = m, frl_bound = "sqrtM"),
                gp = list(mechanism = "gp", delta = 1e-5),
                frl_gauss = list(mechanism = "frl", M = m, frl_noise = "gaussian", delta = 1e-5),
                bernstein = list(mechanism = "bernstein"), iclp_ar = list(mechanism = "iclp_ar"))
cells <- expand.grid(epsilon = c(0.25, 1, 4), n = c(200, 1000), tails = c("light", "heavy"),
                     shape = c("smooth", "rough"), design = names(designs), stringsAsFactors = FALSE)
if (!is.na(only)) cells <- cells[cells$design %in% strsplit(only, ",")[[1L]], ]
if (length(args) >= 5L) cells <- cells[cells$epsilon %in% as.numeric(strsplit(args[5L], ",")[[1L]]), ]
if (length(args) >= 6L) cells <- cells[cells$n %in% as.numeric(strsplit(args[6L], ",")[[1L]]), ]
set.seed(2929)
out <- NULL
t_all <- Sys.time()
for (i in seq_len(nrow(cells))) {
  cl <- cells[i, ]
  cov_hit <- logical(reps)
  np_hit <- logical(reps)
  half <- np_half <- numeric(reps)
  clipped <- private_clipped <- numeric(reps)
  warned <- logical(reps)
  for (r in seq_len(reps)) {
    X <- draw(cl$n, cl$shape, cl$tails)
    clipped[r] <- if (cl$design == "bernstein") mean(apply(abs(X) > tau, 1L, any)) else   # (tau: a sup bound)
      mean(sqrt(as.vector(X^2 %*% w)) > tau)
    rel <- suppressWarnings(do.call(dp_mean, c(list(curves(X, g), epsilon = cl$epsilon, tau = tau,
                                                     inference = TRUE), designs[[cl$design]])))
    # (the band warns when its private count says many curves exceed tau: counted, not shown)
    ci <- withCallingHandlers(confint(rel, type = "population", nsim = nsim),
                              dpfda_warning_clipping = function(e) {
                                warned[r] <<- TRUE
                                invokeRestart("muffleWarning")
                              })
    private_clipped[r] <- glance(rel)$clipped_fraction
    cov_hit[r] <- all(ci$lower <= truth & truth <= ci$upper)
    half[r] <- mean(ci$upper - ci$lower) / 2
    npb <- nonprivate_band(X)
    np_hit[r] <- all(abs(npb$centre - truth) <= npb$half)
    np_half[r] <- mean(npb$half)
  }
  row <- data.frame(cl, reps = reps, coverage = mean(cov_hit), mc_se = sqrt(mean(cov_hit) * (1 - mean(cov_hit)) / reps),
                    half_width = mean(half), nonprivate_half = mean(np_half), width_ratio = mean(half) / mean(np_half),
                    nonprivate_coverage = mean(np_hit), share_clipped = mean(clipped),
                    private_clipped = mean(private_clipped), clip_warned = mean(warned))
  out <- band_cell_done(row, out)
}
cat(sprintf("\n%d cells x %d replications in %.1f min\n", nrow(cells), reps,
            as.numeric(difftime(Sys.time(), t_all, units = "mins"))))
print(out, digits = 3, row.names = FALSE)

# speed: n = 1e4 curves on 100 grid points
g100 <- seq(0, 1, length.out = 100)
X <- outer(rep(1, 1e4), mu(g100)) + matrix(rnorm(3e4), 1e4) %*% (rbind(sqrt(2) * sin(pi * g100),
  sqrt(2) * cos(2 * pi * g100), sqrt(2) * sin(3 * pi * g100)) * sds)
x <- curves(X, g100)
best <- function(f) min(replicate(3, system.time(f())[["elapsed"]]))
t_rel <- best(function() dp_mean(x, epsilon = 1, tau = tau))
t_inf <- best(function() dp_mean(x, epsilon = 1, tau = tau, inference = TRUE))
rel <- dp_mean(x, epsilon = 1, tau = tau, inference = TRUE)
t_band <- best(function() confint(rel, type = "population"))
cat(sprintf(paste("\nspeed (n = 1e4, 100 grid points, best of 3): release %.3f s; release with inference %.3f s",
                  "(+%.3f s); confint(type = \"population\") %.3f s; band on top of the release %.3f s (target <= 1 s)\n"),
            t_rel, t_inf, t_inf - t_rel, t_band, t_inf - t_rel + t_band))
frl <- list(mechanism = "frl", M = 100, frl_bound = "sqrtM")
t_rel <- best(function() do.call(dp_mean, c(list(x, epsilon = 1, tau = tau), frl)))
t_inf <- best(function() do.call(dp_mean, c(list(x, epsilon = 1, tau = tau, inference = TRUE), frl)))
rel <- do.call(dp_mean, c(list(x, epsilon = 1, tau = tau, inference = TRUE), frl))
t_band <- best(function() confint(rel, type = "population"))
cat(sprintf(paste("FRL on every component: release %.3f s; with inference %.3f s (+%.3f s); confint %.3f s;",
                  "band on top of the release %.3f s\n"), t_rel, t_inf, t_inf - t_rel, t_band, t_inf - t_rel + t_band))
# (the Bernstein and ICLP-AR bands: 0.30 s and 0.18 s on top of the release, 2026-11-30)
for (mech in c("bernstein", "iclp_ar")) {
  t_rel <- best(function() suppressWarnings(dp_mean(x, epsilon = 1, tau = tau, mechanism = mech)))
  t_inf <- best(function() suppressWarnings(dp_mean(x, epsilon = 1, tau = tau, mechanism = mech, inference = TRUE)))
  rel <- suppressWarnings(dp_mean(x, epsilon = 1, tau = tau, mechanism = mech, inference = TRUE))
  t_band <- best(function() confint(rel, type = "population"))
  cat(sprintf("%s: release %.3f s; with inference %.3f s; confint %.3f s; band on top of the release %.3f s\n",
              mech, t_rel, t_inf, t_band, t_inf - t_rel + t_band))
}
