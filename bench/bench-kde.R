# bench/bench-kde.R -- private KDE against the non-private estimators a user
# would otherwise call.
#
# dp_kde() with n = 1e6 points and m = 1000 grid points in one dimension,
# timed end to end (binned kernel sums in C + one Gaussian-process noise path
# on the grid, Cholesky of the 1000 x 1000 Gram matrix included), against
# stats::density() and KernSmooth::bkde() computing the NON-private estimate
# on the same grid with the same bandwidth. Target: dp_kde under 2 s.
# Also the exact (unbinned) C kernel sum at n = 1e5 against a plain-R
# vectorised reference, and the binning error.
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # med(), fmt()
fmt1 <- function(s) fmt(s, 1)

old <- dp_rng("secure")
set.seed(1)
n <- 1e6
m <- 1000
h <- 0.02
x <- stats::rnorm(n, 0.5, 0.15)
grid <- seq(0, 1, length.out = m)
cat(sprintf("dpfda %s; n = %g, m = %d, h = %g; noise source %s\n\n", utils::packageVersion("dpfda"),
            n, m, h, dp_rng()))

t_dp <- med(function() dp_kde(x, grid, h, epsilon = 1, delta = 1e-8, domain = c(0, 1)))   # (delta below 1/n)
t_density <- med(function() stats::density(x, bw = h, from = 0, to = 1, n = m))
cat(sprintf("dp_kde (private, binned, + GP noise): %s\n", fmt1(t_dp)))
cat(sprintf("stats::density (non-private, FFT):      %s  (dp_kde / density = %.2f)\n",
            fmt1(t_density), t_dp / t_density))
if (requireNamespace("KernSmooth", quietly = TRUE)) {
  t_bkde <- med(function() KernSmooth::bkde(x, bandwidth = h, gridsize = m, range.x = c(0, 1)))
  cat(sprintf("KernSmooth::bkde (non-private, binned): %s  (dp_kde / bkde = %.2f)\n",
              fmt1(t_bkde), t_dp / t_bkde))
} else cat("KernSmooth not installed: skipped\n")
t_noise <- med(function() rgp(1, kernel_gaussian(h), grid))
cat(sprintf("  of which the noise path (rgp, m = %d): %s\n", m, fmt1(t_noise)))
cat(sprintf("%s: private KDE of 1e6 points on 1000 grid points under 2 s (%s)\n\n",
            if (t_dp < 2) "PASS" else "FAIL", fmt1(t_dp)))

x5 <- x[1:1e5]
t_exact <- med(function() kde_gaussian(x5, grid, h, binned = FALSE), reps = 3)
t_plain <- med(function() vapply(grid, function(t) mean(stats::dnorm(t, x5, h)), 1), reps = 3)
e <- kde_gaussian(x5, grid, h, binned = FALSE)$values
b <- kde_gaussian(x5, grid, h, binned = TRUE)$values
cat(sprintf("exact C kernel sum, n = 1e5: %s; plain R (vapply + dnorm): %s (%.1fx slower)\n",
            fmt1(t_exact), fmt1(t_plain), t_plain / t_exact))
cat(sprintf("binned vs exact at n = 1e5: max abs difference %.2e (max density %.2f)\n",
            max(abs(e - b)), max(e)))

# The noise band of a density in the plane (51 x 51 tensor grid, separable Gaussian kernel):
# confint() draws its Monte Carlo paths through the per-axis eigendecompositions; what a user would
# otherwise run is one draw of the same paths from the dense covariance (MASS::mvrnorm(), an
# eigendecomposition of the 2601 x 2601 matrix), timed once. Target: the whole band at most a
# tenth of the dense draw. (Measured 2026-12-02 on the loaded 2-core machine: 5.2 s against 104 s,
# ratio 0.05; before the per-axis draws, confint() itself took 210 s there, after 3.3 s.)
q2 <- cbind(stats::rnorm(1e4, 175, 6), stats::rnorm(1e4, -20, 5))
r2 <- dp_kde(q2, epsilon = 1, delta = 1e-6, domain = rbind(c(160, -40), c(190, -10)), bandwidth = c(1, 1))
t_band <- med(function() confint(r2, type = "simultaneous", nsim = 10000), reps = 3)
law <- dpfda:::noise_law(r2)
if (requireNamespace("MASS", quietly = TRUE)) {
  Sig <- law$cov()
  t_dense <- system.time(MASS::mvrnorm(10000, rep(0, nrow(Sig)), Sig))[["elapsed"]]
  cat(sprintf("simultaneous noise band in the plane (51 x 51, 10,000 paths): %s; the same paths drawn densely: %s\n",
              fmt1(t_band), fmt1(t_dense)))
  bench_ratio("2-D KDE noise band / dense paths", t_band, t_dense, "MASS::mvrnorm", 0.1)
}

# The ICLP density in the plane (Lin and Reimherr's mechanism; the exponential l1 kernel on the
# same 51 x 51 grid): its Karhunen-Loeve basis is the Kronecker product of the axes' bases, so the
# release and its band need no eigendecomposition of the 2601 x 2601 weighted Gram matrix. The
# floor of the route without that structure is that eigendecomposition alone (base::eigen(), LAPACK
# dsyevr), timed once. Target: the release and its simultaneous band together at most a quarter of it.
t_iclp <- med(function() dp_kde(q2, epsilon = 1, mechanism = "iclp", bandwidth = 1.5,
                                domain = rbind(c(160, -40), c(190, -10))), reps = 3)
ri <- dp_kde(q2, epsilon = 1, mechanism = "iclp", bandwidth = 1.5, domain = rbind(c(160, -40), c(190, -10)))
t_iband <- med(function() confint(ri, type = "simultaneous"), reps = 3)
b <- ri$basis
Gw <- sqrt(b$weights) * dpfda:::kernel_matrix(b$kernel, dpfda:::as_points(b$grid, "grid")) *
  rep(sqrt(b$weights), each = length(b$weights))
t_eigen <- system.time(eigen(Gw, symmetric = TRUE))[["elapsed"]]
rm(Gw)
cat(sprintf(paste("ICLP density in the plane (51 x 51): release %s, simultaneous band %s; the dense",
                  "eigendecomposition of its Gram matrix alone: %s\n"), fmt1(t_iclp), fmt1(t_iband), fmt1(t_eigen)))
bench_ratio("2-D ICLP KDE release + band / dense eigen", t_iclp + t_iband, t_eigen, "base::eigen", 0.25)
dp_rng(old)
