# Coverage and width of quantile(dp_kde(...), interval = "population"): intervals for the
# quartiles of the population density, through the distribution function (R/density-quantile-
# interval.R: the Dvoretzky-Kiefer-Wolfowitz inequality for the sampling, the integrated noise's
# simultaneous quantile, the integration on the grid bounded).
#
# Known populations on [-5, 5] (truncated to it; bench/band-helpers.R): a standard normal, the
# bimodal mixture 0.5 N(-1.5, 0.5^2) + 0.5 N(1.5, 0.5^2), and a t with 3 degrees of freedom
# (heavy tails). Mechanism "gp" (delta 1e-5), bandwidth 0.3, 101 grid points; epsilon 0.25, 1, 4;
# n 200, 1000, 10000. In each cell, over the replications:
#   coverage_q1, _q2, _q3  each quartile of the target in its interval
#   coverage_all           the three at once (the intervals are simultaneous)
#   half_width             mean half-width of the three intervals
#   ratio_np               half_width / the half-width of the non-private distribution-free
#                          interval for each quartile (order statistics, binomial, 95% each)
#   band_route             the mean half-width of the intervals from the simultaneous population
#                          band (the route of the other mechanisms, and of `smoothness`), on the
#                          first 50 replications, for comparison
#   seconds                the median time of quantile(interval = "population")
# The target: the quartiles of the smoothed density f_h = K_h * f on the grid's range, normalised
# there (by quadrature on 8001 points).
#
# Measured (2026-12-02, 300 replications per cell, nsim 2000, two processes on the 2-core machine,
# 47 min), after the sampling bound became the DKW bound times the kernel's mass within the domain
# (1.5 rather than 2 times it inside the grid): coverage 1.000 of each quartile and of all three at
# once in all 27 cells, never below nominal: the intervals are conservative. Half-width (mean of
# the three quartiles), and in brackets the first run's (2026-12-01, 500 replications, 2 times DKW):
#                 epsilon 0.25                        1                              4
#   n             200    1000          10000          200    1000          10000          200          1000          10000
#   normal        4.73   0.875 (1.06)  0.163 (0.185)  2.12   0.403 (0.484) 0.127 (0.149)  0.861 (1.62) 0.296 (0.370) 0.117 (0.139)
#   bimodal       4.77   1.19  (1.43)  0.356 (0.386)  2.57   0.630 (0.715) 0.307 (0.338)  1.18  (2.00) 0.518 (0.597) 0.291 (0.323)
#   t3            4.75   1.06  (1.27)  0.187 (0.213)  2.22   0.477 (0.579) 0.146 (0.171)  1.09  (1.76) 0.347 (0.435) 0.135 (0.159)
# (At n 200, epsilon 0.25 and 1, the first run gave 4.86-4.88 and 2.41-2.85.) The band
# route (first 50 replications) gave 2.25 / 1.03 / 0.68 (normal, n 1000, epsilon 0.25 / 1 / 4): the
# route through the distribution function is 1.7-2.7 times narrower at n 1000, 1.2-1.8 at n 10000,
# and 1.0-3.3 at n 200. Against the non-private distribution-free interval, 1.8-6.2 times as wide at
# n 10000 (most for the normal, whose quartiles are the most precisely known), 1.9-10.9 at n 1000,
# 2.9-24 at n 200: at large n the sampling bound (DKW is uniform over x, and enters the integrals
# left and right of x) and the integration on the grid (0.013 here, grid step h / 3) set the width.
# quantile(interval = "population") took 0.3-0.6 s here (nsim 2000, 101 grid points, a loaded
# machine; 0.13-0.19 s in the first run).
#
#   Rscript bench/bench-quantile-interval.R [reps] [nsim] [populations]
# (reps per cell, default 200; nsim Monte Carlo draws of the noise quantile, default 2000;
# populations comma-separated, default all: run two processes on two cores)

suppressPackageStartupMessages(library(dpfda))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 200L
nsim <- if (length(args) >= 2L) as.integer(args[2L]) else 2000L
pop_names <- if (length(args) >= 3L) strsplit(args[3L], ",")[[1L]] else c("normal", "bimodal", "t3")
dom <- c(-5, 5)
g <- seq(dom[1], dom[2], length.out = 101)
h <- 0.3
probs <- c(0.25, 0.5, 0.75)

source("bench/band-helpers.R")
kp <- kde_bench_populations(dom, g, h)
xs <- kp$xs
wq <- kp$wq
# the quartiles of f_h on [-5, 5], normalised there: f_h on the quadrature points, then its CDF
target_quartiles <- function(pop) {
  fhx <- vapply(xs, function(t) sum(wq * dnorm(t - xs, sd = h) * pop$fx), 0)
  cdf <- cumsum(wq * fhx)
  cdf <- cdf / cdf[length(cdf)]
  vapply(probs, function(p) stats::approx(cdf, xs, p, ties = "ordered")$y, 0)
}

# the non-private, distribution-free 95% interval for the p-quantile: order statistics by the binomial
np_half <- function(x, p) {
  n <- length(x)
  s <- sort(x)
  lo <- max(stats::qbinom(0.025, n, p), 1)
  hi <- min(stats::qbinom(0.975, n, p) + 1, n)
  (s[hi] - s[lo]) / 2
}

cat(sprintf(paste("quantile(dp_kde(), interval = \"population\"): %d replications per cell, nsim %d,",
                  "grid %d points on [%g, %g], h = %g, quartiles\n\n"), reps, nsim, length(g), dom[1], dom[2], h))
rows <- list()
t0 <- proc.time()[["elapsed"]]
for (pop in Filter(function(p) p$name %in% pop_names, kp$pops)) {
  tq_pop <- target_quartiles(pop)
  for (eps in c(0.25, 1, 4)) for (n in c(200, 1000, 10000)) {
    set.seed(1000 * eps + n)
    cover <- matrix(FALSE, reps, 3)
    half <- half_np <- tq <- numeric(reps)
    band_half <- numeric(0)
    for (r in seq_len(reps)) {
      x <- pop$draw(n)
      rel <- dp_kde(x, g, h, epsilon = eps, delta = 1e-5, domain = dom)
      tq[r] <- system.time(q <- quantile(rel, probs, interval = "population", nsim = nsim))[["elapsed"]]
      cover[r, ] <- q$lower <= tq_pop & tq_pop <= q$upper
      half[r] <- mean(q$upper - q$lower) / 2
      half_np[r] <- mean(vapply(probs, function(p) np_half(x, p), 0))
      if (r <= 50L) {   # the band route, for comparison
        ci <- confint(rel, type = "population", nsim = nsim)
        b <- dpfda:::band_quantile_interval(ci$arg, ci$lower, ci$upper, probs)
        band_half <- c(band_half, mean(b$upper - b$lower) / 2)
      }
    }
    rows[[length(rows) + 1L]] <- data.frame(
      population = pop$name, epsilon = eps, n = n, coverage_q1 = mean(cover[, 1]), coverage_q2 = mean(cover[, 2]),
      coverage_q3 = mean(cover[, 3]), coverage_all = mean(apply(cover, 1, all)), half_width = mean(half),
      ratio_np = mean(half) / mean(half_np), band_route = mean(band_half), seconds = stats::median(tq))
    print(rows[[length(rows)]], row.names = FALSE, digits = 3)
  }
}
res <- do.call(rbind, rows)
cat("\nAll cells (coverage of the quartiles of f_h, each and all three at once):\n")
print(res, row.names = FALSE, digits = 3)
cat(sprintf("\nmin coverage_all %.3f (nominal 0.95); %.0f s\n", min(res$coverage_all), proc.time()[["elapsed"]] - t0))
