# Coverage and width of quantile(dp_kde(...), interval = "population"): intervals for the
# quartiles of the population density, from the release's simultaneous population band.
#
# Known populations on [-5, 5] (truncated to it), as bench-kde-population-band.R: a standard
# normal, the bimodal mixture 0.5 N(-1.5, 0.5^2) + 0.5 N(1.5, 0.5^2), and a t with 3 degrees of
# freedom (heavy tails). Mechanism "gp" (delta 1e-5), bandwidth 0.3, 101 grid points; epsilon
# 0.25, 1, 4; n 200, 1000, 10000. In each cell, over the replications:
#   coverage_q1, _q2, _q3  each quartile of the target in its interval
#   coverage_all           the three at once (the intervals are simultaneous)
#   coverage_f             the three quartiles of f itself in the intervals made with
#                          smoothness = B (B = 1.05 max |f''|; the t3's jump at the ends
#                          breaks the assumption there, as in bench-kde-population-band.R)
#   half_width             mean half-width of the three intervals
#   ratio_np               half_width / the half-width of the non-private distribution-free
#                          interval for each quartile (order statistics, binomial, 95% each)
# The target is what quantile() estimates, for the population: the quartiles of the smoothed
# density f_h = K_h * f at the grid points, linear between them, normalised on the grid's range.
#
#   Rscript bench/bench-quantile-interval.R [reps] [nsim]
# (reps per cell, default 200; nsim Monte Carlo draws of the noise quantile, default 2000)

suppressPackageStartupMessages(library(dpfda))
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 200L
nsim <- if (length(args) >= 2L) as.integer(args[2L]) else 2000L
dom <- c(-5, 5)
g <- seq(dom[1], dom[2], length.out = 101)
h <- 0.3
probs <- c(0.25, 0.5, 0.75)

xs <- seq(dom[1], dom[2], length.out = 8001)
wq <- c(0.5, rep(1, length(xs) - 2), 0.5) * diff(xs[1:2])
raw <- list(normal = function(x) dnorm(x),
            bimodal = function(x) 0.5 * dnorm(x, -1.5, 0.5) + 0.5 * dnorm(x, 1.5, 0.5),
            t3 = function(x) dt(x, 3))
rawdraw <- list(normal = function(n) rnorm(n),
                bimodal = function(n) rnorm(n, ifelse(runif(n) < 0.5, -1.5, 1.5), 0.5),
                t3 = function(n) rt(n, 3))
grid_quantiles <- function(values, grid) quantile(as_density(curves(matrix(values, 1), grid)), probs, names = FALSE)
pops <- lapply(names(raw), function(p) {
  Z <- sum(wq * raw[[p]](xs))
  f <- function(x) raw[[p]](x) / Z
  fx <- f(xs)
  fh <- vapply(g, function(t) sum(wq * dnorm(t - xs, sd = h) * fx), 0)
  dx <- 1e-3
  fpp <- max(abs(f(xs + dx) - 2 * f(xs) + f(xs - dx)) / dx^2)
  cdf <- cumsum(wq * fx)
  qf <- vapply(probs, function(p) xs[which(cdf >= p)[1L]], 0)   # quartiles of f (to 1.25e-3)
  draw <- function(n) {
    out <- numeric(0)
    while (length(out) < n) {
      y <- rawdraw[[p]](2 * n)
      out <- c(out, y[y >= dom[1] & y <= dom[2]])
    }
    out[seq_len(n)]
  }
  list(name = p, qh = grid_quantiles(fh, g), qf = qf, B = 1.05 * fpp, draw = draw)
})

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
for (pop in pops) for (eps in c(0.25, 1, 4)) for (n in c(200, 1000, 10000)) {
  set.seed(1000 * eps + n)
  cover <- matrix(FALSE, reps, 3)
  cover_f <- logical(reps)
  half <- half_np <- numeric(reps)
  tq <- numeric(reps)
  for (r in seq_len(reps)) {
    x <- pop$draw(n)
    rel <- dp_kde(x, g, h, epsilon = eps, delta = 1e-5, domain = dom)
    # the intervals from the population band, computed once for both targets (the first replication
    # checks that quantile(interval = "population") gives the same)
    tq[r] <- system.time({
      ci <- confint(rel, type = "population", nsim = nsim)
      q <- dpfda:::band_quantile_interval(ci$arg, ci$lower, ci$upper, probs)
    })[["elapsed"]]
    if (r == 1L) {
      qp <- quantile(rel, probs, interval = "population", nsim = nsim)
      stopifnot(identical(qp$lower, q$lower), identical(qp$upper, q$upper))
    }
    cover[r, ] <- q$lower <= pop$qh & pop$qh <= q$upper
    # with smoothness = B the band is the f_h band widened by B h^2 / 2 at each end and cut at 0 (an
    # identity test-kde-population-band.R checks), so its intervals are derived here, not recomputed
    sb <- pop$B * h^2 / 2
    qs <- dpfda:::band_quantile_interval(ci$arg, pmax(ci$lower - sb, 0), ci$upper + sb, probs)
    cover_f[r] <- all(qs$lower <= pop$qf & pop$qf <= qs$upper)
    half[r] <- mean(q$upper - q$lower) / 2
    half_np[r] <- mean(vapply(probs, function(p) np_half(x, p), 0))
  }
  rows[[length(rows) + 1L]] <- data.frame(
    population = pop$name, epsilon = eps, n = n, coverage_q1 = mean(cover[, 1]), coverage_q2 = mean(cover[, 2]),
    coverage_q3 = mean(cover[, 3]), coverage_all = mean(apply(cover, 1, all)), coverage_f = mean(cover_f),
    half_width = mean(half), ratio_np = mean(half) / mean(half_np), seconds = stats::median(tq))
  # (seconds: the median time of the band and the intervals, the work of quantile(interval = ))
  print(rows[[length(rows)]], row.names = FALSE, digits = 3)
}
res <- do.call(rbind, rows)
cat("\nAll cells (coverage of the quartiles of f_h each and at once; coverage_f: of f, with smoothness = B):\n")
print(res, row.names = FALSE, digits = 3)
cat(sprintf("\nmin coverage_all %.3f, min coverage_f %.3f (nominal 0.95); %.0f s\n", min(res$coverage_all),
            min(res$coverage_f), proc.time()[["elapsed"]] - t0))
