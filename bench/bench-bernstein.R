# bench/bench-bernstein.R -- evaluating a Bernstein release (Aldà & Rubinstein).
#
# A dim = 2, k = 20 release (441 lattice values) evaluated at 1e4 random
# points, h = 1, against the `diffpriv` package's evaluator
# (predict.bernstein: for every query point it loops over the lattice points
# and multiplies dbinom() terms, O(dim (k+1)^dim) dbinom calls per point).
# Without diffpriv, a faithful R reimplementation of that evaluator is timed
# instead. Target: dpfda at least 100x faster, same values (1e-12).
# Also reported: h = 3 on the same release, the tensor-grid path (100 x 100
# plotting grid) and a dim = 3 release.
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # med(), fmt()

# diffpriv's evaluation scheme, rewritten: lattice by expand.grid, per point
# apply() over the lattice rows of dbinom(), product over coordinates, sum.
diffpriv_like <- function(coeffs, k, dims, D) {
  latt <- as.matrix(expand.grid(replicate(dims, 0:k, simplify = FALSE)))
  one <- function(ys) {
    pmfs <- apply(latt, 1, stats::dbinom, size = rep(k, dims), prob = ys)
    if (dims > 1) pmfs <- apply(pmfs, 2, prod)
    sum(pmfs * coeffs)
  }
  apply(D, 1, one)
}

old <- dp_rng("seeded")
set.seed(1)
k <- 20
n <- 1e4
r <- dp_bernstein(function(p) sin(3 * p[, 1]) * p[, 2], sensitivity = 1e-3, epsilon = 1, k = k, dim = 2)
Y <- matrix(stats::runif(2 * n), ncol = 2)
cat(sprintf("dpfda %s; dim = 2, k = %d (%d lattice values), %g query points\n\n",
            utils::packageVersion("dpfda"), k, (k + 1)^2, n))

t_ours <- med(function() predict(r, Y, h = 1), reps = 10)
ours <- predict(r, Y, h = 1)
has_dp <- requireNamespace("diffpriv", quietly = TRUE)
if (has_dp) {
  ref <- getExportedValue("diffpriv", "bernstein")(function(x) 0, dims = 2, k = k)
  ref$coeffs <- predict(r)                      # the same noisy lattice values
  t0 <- proc.time()[["elapsed"]]
  theirs <- stats::predict(ref, Y)
  t_ref <- proc.time()[["elapsed"]] - t0
  label <- sprintf("diffpriv %s predict.bernstein", utils::packageVersion("diffpriv"))
} else {
  t0 <- proc.time()[["elapsed"]]
  theirs <- diffpriv_like(predict(r), k, 2, Y)
  t_ref <- proc.time()[["elapsed"]] - t0
  label <- "diffpriv's scheme reimplemented in R (diffpriv not installed)"
}
diff <- max(abs(ours - theirs))
ratio <- t_ref / t_ours
cat(sprintf("dpfda predict (C, mode contractions), h = 1: %s\n", fmt(t_ours)))
cat(sprintf("%s:  %s\n", label, fmt(t_ref)))
cat(sprintf("speed ratio %.0fx; max |difference| %.2e\n", ratio, diff))
cat(sprintf("%s: at least 100x faster with the same values (ratio %.0fx, difference %.1e)\n\n",
            if (ratio >= 100 && diff <= 1e-12) "PASS" else "FAIL", ratio, diff))

t_h3 <- med(function() predict(r, Y, h = 3), reps = 10)
cat(sprintf("dpfda predict h = 3 (A_h applied once per call): %s\n", fmt(t_h3)))
g <- seq(0, 1, length.out = 100)
t_grid <- med(function() predict(r, list(g, g), h = 3), reps = 10)
G <- as.matrix(expand.grid(g, g))
t_pts <- med(function() predict(r, G[sample(nrow(G)), ], h = 3), reps = 10)
cat(sprintf("100 x 100 plotting grid, h = 3: tensor path %s; same points unordered (pointwise) %s (%.1fx)\n",
            fmt(t_grid), fmt(t_pts), t_pts / t_grid))
r3 <- dp_bernstein(function(p) rowSums(p), sensitivity = 1e-3, epsilon = 1, k = 20, dim = 3)
Y3 <- matrix(stats::runif(3 * n), ncol = 3)
t3 <- med(function() predict(r3, Y3, h = 2), reps = 5)
cat(sprintf("dim = 3, k = 20 (%d lattice values), 1e4 points, h = 2: %s\n", 21^3, fmt(t3)))
dp_rng(old)
