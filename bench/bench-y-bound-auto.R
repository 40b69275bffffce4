# bench/bench-y-bound-auto.R -- how good is a private output bound,
# y_bound = "auto" in dp_bin_regression() and dp_gp_regression()?
#
# Issue 30. Simulation with known truth: x ~ U(0, 1) (public), y = f(x) + e,
# f(x) = sin(2 pi x), e = 0.5 z with z standard normal (light tails) or t_3
# scaled to variance 1 (heavy tails); epsilon 1. Per cell and replication the
# error of the release against the truth with
#   auto   y_bound = "auto" (default share, quantile, range, centre 0;
#          epsilon 1 in all),
#   grid   y_bound = c(-B, B), B = c q95 for c in {0.25, 0.5, 1, 2, 4}, q95 the
#          true 95 % quantile of |y| (from 10^6 draws), epsilon 1,
#   ten    B = 10 q95 (a guess ten times too large).
# * Binning (dp_bin_regression(), 10 bins on [0, 1], Laplace): n in {100,
#   300, 3000}; the error is the RMS over the bins of the released bin mean
#   minus the true bin average of f.
# * GP regression (dp_gp_regression(), cloaking, Gaussian kernel l = 0.2,
#   v = 1, noise_variance 0.25, delta 1e-5): n in {300, 1000}; the error is
#   the RMS over 20 test points of the released posterior mean minus f.
# Reported per cell: mean errors, auto / best of grid (target <= 1.3), auto /
# ten (target <= 0.5), the ratio of medians, the median and largest chosen
# B / q95, `far` (replications with B > 10 q95: a bound above the data, by
# design at most 1 in 1000 calls, see R/auto-bound.R, but it dominates a mean
# error when it happens) and the share of epsilon the bound used.
#
# The script is a report: it always exits with status 0.
# Run: Rscript bench/bench-y-bound-auto.R [replications binning] [replications GP]
#      (defaults 200 and 40)

if (!requireNamespace("dpfda", quietly = TRUE) && dir.exists(".Rlib")) {
  .libPaths(c(normalizePath(".Rlib"), .libPaths()))   # the Makefile's library
}
suppressPackageStartupMessages(library(dpfda))

args <- commandArgs(trailingOnly = TRUE)
REPS <- if (length(args) >= 1L) as.integer(args[1L]) else 200L
REPS_GP <- if (length(args) >= 2L) as.integer(args[2L]) else 40L
MULT <- c(0.25, 0.5, 1, 2, 4)
EPS <- 1
SEED <- 2031
BINS <- 10

f <- function(x) sin(2 * pi * x)
gen <- function(n, tails) {
  x <- stats::runif(n)
  e <- if (tails == "light") stats::rnorm(n) else stats::rt(n, 3) / sqrt(3)
  list(x = x, y = f(x) + 0.5 * e)
}
# true bin averages of f over the 10 equal bins of [0, 1]
edges <- seq(0, 1, length.out = BINS + 1L)
truth_bins <- (cos(2 * pi * edges[-(BINS + 1L)]) - cos(2 * pi * edges[-1L])) / (2 * pi * diff(edges))
gtest <- seq(0.025, 0.975, length.out = 20)
rms <- function(e) sqrt(mean(e^2))

cat(sprintf("dpfda %s, %s; %d (binning) and %d (GP) replications per cell, epsilon %s\n",
            utils::packageVersion("dpfda"), R.version.string, REPS, REPS_GP, format(EPS)))
set.seed(SEED)
q95 <- c(light = unname(stats::quantile(abs(gen(1e6, "light")$y), 0.95)),
         heavy = unname(stats::quantile(abs(gen(1e6, "heavy")$y), 0.95)))
old <- dp_reproducible(SEED)   # reproducible noise (the report is a simulation, not a release)

run_cell <- function(n, tails, reps, release) {
  E <- matrix(NA_real_, reps, length(MULT) + 2L)
  ratio <- share <- numeric(reps)
  for (r in seq_len(reps)) {
    d <- gen(n, tails)
    for (j in seq_along(MULT)) E[r, j] <- release(d, MULT[j] * q95[[tails]] * c(-1, 1))$err
    E[r, length(MULT) + 1L] <- release(d, 10 * q95[[tails]] * c(-1, 1))$err
    a <- release(d, "auto")
    E[r, length(MULT) + 2L] <- a$err
    ratio[r] <- a$rel$y_bound_auto$bound / q95[[tails]]
    share[r] <- a$rel$y_bound_auto$share
  }
  m <- colMeans(E)
  jb <- which.min(m[seq_along(MULT)])
  data.frame(tails = tails, n = n, best_grid = m[jb], best_c = MULT[jb], ten = m[length(MULT) + 1L],
             auto = m[length(MULT) + 2L], auto_over_best = m[length(MULT) + 2L] / m[jb],
             auto_over_ten = m[length(MULT) + 2L] / m[length(MULT) + 1L],
             median_auto = stats::median(E[, length(MULT) + 2L]) / stats::median(E[, jb]),
             B_over_q95 = stats::median(ratio), max_B_over_q95 = max(ratio), far = sum(ratio > 10),
             share = share[1L],
             grid = paste(formatC(m[seq_along(MULT)], format = "f", digits = 4), collapse = " "))
}

bin_release <- function(d, yb) {
  rel <- suppressWarnings(dp_bin_regression(d$x, d$y, BINS, yb, EPS, c(0, 1)))   # (privacy warnings: too noisy)
  list(rel = rel, err = rms(rel$values$values[1L, ] - truth_bins))
}
gp_release <- function(d, yb) {
  rel <- suppressWarnings(dp_gp_regression(d$x, d$y, gtest, kernel_gaussian(0.2), noise_variance = 0.25,
                                           y_bound = yb, epsilon = EPS, delta = 1e-5))
  list(rel = rel, err = rms(rel$values$values[1L, ] - f(gtest)))
}

show <- function(res, title) {
  cat(sprintf("\n%s\n", title))
  out <- res
  num <- vapply(out, is.numeric, NA)
  out[num] <- lapply(out[num], function(v) signif(v, 3))
  print(out[setdiff(names(out), "grid")], row.names = FALSE)
  cat("  mean error per grid bound (c = 0.25 0.5 1 2 4):\n")
  for (i in seq_len(nrow(res))) cat(sprintf("    %s n = %5d: %s\n", res$tails[i], res$n[i], res$grid[i]))
  cat(sprintf("  auto / best of grid <= 1.3 in %d of %d cells (worst %.2f); auto / ten <= 0.5 in %d of %d (worst %.2f)\n",
              sum(res$auto_over_best <= 1.3), nrow(res), max(res$auto_over_best),
              sum(res$auto_over_ten <= 0.5), nrow(res), max(res$auto_over_ten)))
}

cat(sprintf("true q95 of |y|: light %.3f, heavy %.3f\n", q95[["light"]], q95[["heavy"]]))
t0 <- proc.time()[["elapsed"]]
rb <- do.call(rbind, lapply(c("light", "heavy"), function(tl) {
  do.call(rbind, lapply(c(100, 300, 3000), function(n) run_cell(n, tl, REPS, bin_release)))
}))
show(rb, sprintf("dp_bin_regression() (10 bins, Laplace), %.0f s", proc.time()[["elapsed"]] - t0))
t0 <- proc.time()[["elapsed"]]
rg <- do.call(rbind, lapply(c("light", "heavy"), function(tl) {
  do.call(rbind, lapply(c(300, 1000), function(n) run_cell(n, tl, REPS_GP, gp_release)))
}))
show(rg, sprintf("dp_gp_regression() (cloaking), %.0f s", proc.time()[["elapsed"]] - t0))
dp_rng(old)
invisible(NULL)
