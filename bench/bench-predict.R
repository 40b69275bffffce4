# predict() of a released 2-D surface (Gaussian kernel, 100 x 100 tensor grid)
# at 1000 new points (issue 19: memory <= 200 MB, time reported). With a
# separable kernel on a tensor grid, kriging goes through the per-axis
# eigendecompositions (exactly the dense K + tau I system, never an m x m
# matrix); the peer is the dense kriging system on a 40 x 40 grid (m = 1600),
# extrapolated to m = 10^4 by m^3 (time) and m^2 (memory: 800 MB for K alone).
# Run: R_LIBS=<lib with dpfda> Rscript bench/bench-predict.R
if (!requireNamespace("dpfda", quietly = TRUE) && dir.exists(".Rlib")) {
  .libPaths(c(normalizePath(".Rlib"), .libPaths()))
}
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # med(), fmt_s(), verdict(), bench_ratio()
set.seed(1)
k <- kernel_gaussian(0.1)
surface <- function(na) {
  ax <- seq(0, 1, length.out = na)
  dp_gp_release(as.vector(outer(ax, ax, function(a, b) sin(3 * a) * b)), list(ax, ax), k,
                sensitivity = 0.1, epsilon = 1, delta = 1e-3)
}
P <- matrix(runif(2000), 1000, 2)
r <- surface(100)
invisible(gc(reset = TRUE))
base <- sum(gc()[, 2])
t_ours <- med(function() predict(r, P), 3)
invisible(gc(reset = TRUE))
p <- predict(r, P)
peak <- sum(gc()[, 6]) - base
# dense peer on a 40 x 40 grid
r40 <- surface(40)
dense <- function() {
  g <- as.matrix(r40$values$grid)
  K <- kernel_matrix(k, g)
  w <- solve(K + diag(1e-10, nrow(K)), as.vector(r40$values$values))
  as.vector(kernel_matrix(k, P, g) %*% w)
}
t_dense40 <- med(dense, 3)
t_dense <- t_dense40 * (1e4 / 1600)^3
cat(sprintf("100 x 100 grid, 1000 new points: predict %s, peak extra memory %.1f MB; dense kriging at m = 1600 %s (m = 10^4 by m^3: %s, K alone 800 MB)\n",
            fmt_s(t_ours), peak, fmt_s(t_dense40), fmt_s(t_dense)))
verdict(peak <= 200, sprintf("predict() on a 100 x 100 surface within 200 MB (%.1f MB)", peak))
bench_ratio("predict 2-D surface 100 x 100 at 1000 points / dense kriging (m^3 extrapolated)", t_ours,
            t_dense, "dense kriging", 1)
