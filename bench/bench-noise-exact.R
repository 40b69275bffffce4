# bench/bench-noise-exact.R -- the price of floating-point-safe noise.
#
# Times the exact samplers of src/discrete.c (discrete Laplace and discrete
# Gaussian on a 2^-k grid, Canonne-Kamath-Steinke, integer arithmetic only)
# against the floating-point samplers a user would otherwise call (dpfda's
# rlaplace() and stats::rnorm()), per 1e6 draws in the secure noise mode, and
# a whole release with noise = "exact" against noise = "float". Also reports
# the utility cost: the noise scale of the exact release over the float one.
# Targets: exact samplers within 50x of the float ones (they do much more
# work per draw); releases within 25x (a release with Gaussian noise also runs the
# zCDP calibration, a bisection of about 15 ms, which dominates small releases).
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # med(), fmt()
old <- dp_rng("secure")
on.exit(dp_rng(old))

n <- 1e6
zeros <- numeric(n)
kl <- dpfda:::exact_grid(1, "laplace")
kg <- dpfda:::exact_grid(1, "gaussian")
rows <- list(
  list("Laplace, scale 1 (2^20 grid steps)", function() dpfda:::exact_laplace_noise(zeros, 1, kl),
       function() rlaplace(n, 1), 50),
  list("Gaussian, sd 1 (2^24 grid steps)", function() dpfda:::exact_gaussian_noise(zeros, 1, kg),
       function() stats::rnorm(n), 50)
)
cat(sprintf("dpfda %s; %g draws, secure noise source; %d-bit integers in the sampler\n\n",
            utils::packageVersion("dpfda"), n, dpfda:::exact_noise_bits()))
cat(sprintf("%-38s %12s %12s %8s  %s\n", "sampler", "exact", "float", "ratio", "target"))
ok <- TRUE
for (r in rows) {
  te <- med(r[[2]], 3)
  tf <- med(r[[3]], 3)
  pass <- te / tf <= r[[4]]
  ok <- ok && pass
  cat(sprintf("%-38s %12s %12s %7.1fx  <= %dx %s\n", r[[1]], fmt(te), fmt(tf), te / tf, r[[4]],
              if (pass) "PASS" else "FAIL"))
}

cat("\nWhole releases (noise = \"exact\" / noise = \"float\"):\n")
x <- seq(0, 1, length.out = 200)
K <- kernel_gaussian(0.1)
rel <- list(
  list("dp_bernstein, k = 50, dim = 2 (2601 values)",
       function(noise) dp_bernstein(function(p) sin(3 * p[, 1]) * p[, 2], 1e-3, 1, k = 50, dim = 2,
                                    noise = noise)),
  list("dp_bernstein, Gaussian, k = 50, dim = 2",
       function(noise) dp_bernstein(function(p) sin(3 * p[, 1]) * p[, 2], 1e-3, 1, k = 50, dim = 2,
                                    delta = 1e-5, noise = noise)),
  list("dp_gp_release, 200 points",
       function(noise) dp_gp_release(sin(2 * pi * x), x, K, 0.1, 1, 1e-5, noise = noise, method = "cholesky"))
)
cat(sprintf("%-42s %10s %10s %7s %14s  %s\n", "release", "exact", "float", "ratio", "noise scale +", "target"))
for (r in rel) {
  te <- med(function() r[[2]]("exact"), 5)
  tf <- med(function() r[[2]]("float"), 5)
  cost <- r[[2]]("exact")$noise_scale / r[[2]]("float")$noise_scale - 1
  pass <- te / tf <= 25
  ok <- ok && pass
  cat(sprintf("%-42s %10s %10s %6.1fx %13.2f%%  <= 25x %s\n", r[[1]], fmt(te), fmt(tf), te / tf, 100 * cost,
              if (pass) "PASS" else "FAIL"))
}
cat(if (ok) "\nPASS\n" else "\nFAIL\n")
