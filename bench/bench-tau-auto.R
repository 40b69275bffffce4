# bench/bench-tau-auto.R -- how good is a private bound, dp_mean(tau = "auto")?
#
# Issue 30. Simulation with known truth: curves 0.3 sin(2 pi t) + sum_j s_j
# z_j sqrt(2) cos(j pi t), j = 1..4, s_j = 0.3 / j, on 101 points of [0, 1],
# with Gaussian scores z (light tails) or t_3 scores scaled to variance 1
# (heavy tails); n in {100, 300, 3000}; epsilon 1; the default mechanism
# (ICLP-QR, PSS parameters). Per cell and replication the L2 error of the
# released mean against the true mean 0.3 sin(2 pi t) with
#   auto   tau = "auto" (default share, quantile and range; epsilon 1 in all),
#   grid   tau = c q95 for c in {0.25, 0.5, 1, 2, 4}, q95 the true 95 %
#          quantile of the norms (from 10^5 curves), epsilon 1 for the release,
#   ten    tau = 10 q95 (a guess ten times too large).
# Reported per cell: mean errors, auto / best of grid (target <= 1.3) and
# auto / ten (target <= 0.5), with the median of the chosen tau / q95 and the
# share of epsilon the bound used.
#
# The script is a report: it always exits with status 0.
# Run: Rscript bench/bench-tau-auto.R [replications]   (default 200)

if (!requireNamespace("dpfda", quietly = TRUE) && dir.exists(".Rlib")) {
  .libPaths(c(normalizePath(".Rlib"), .libPaths()))   # the Makefile's library
}
suppressPackageStartupMessages(library(dpfda))

args <- commandArgs(trailingOnly = TRUE)
REPS <- if (length(args)) as.integer(args[1L]) else 200L
NS <- c(100, 300, 3000)
MULT <- c(0.25, 0.5, 1, 2, 4)
EPS <- 1
SEED <- 2030

t <- seq(0, 1, length.out = 101)
mu <- 0.3 * sin(2 * pi * t)
w <- dpfda:::quadrature_weights(t)
basis <- vapply(1:4, function(j) sqrt(2) * cos(j * pi * t), numeric(length(t)))
sds <- 0.3 / (1:4)

gen <- function(n, tails) {
  Z <- if (tails == "light") matrix(stats::rnorm(n * 4), n) else matrix(stats::rt(n * 4, 3) / sqrt(3), n)
  sweep(Z %*% (t(basis) * sds), 2, mu, "+")
}
l2 <- function(f) sqrt(sum(w * f^2))
norms <- function(X) sqrt(rowSums(sweep(X^2, 2, w, "*")))

cat(sprintf("dpfda %s, %s; %d replications per cell, epsilon %s\n", utils::packageVersion("dpfda"),
            R.version.string, REPS, format(EPS)))
set.seed(SEED)
q95 <- c(light = unname(stats::quantile(norms(gen(1e5, "light")), 0.95)),
         heavy = unname(stats::quantile(norms(gen(1e5, "heavy")), 0.95)))
old <- dp_reproducible(SEED)   # reproducible noise (the report is a simulation, not a release)

rows <- list()
t0 <- proc.time()[["elapsed"]]
for (tails in c("light", "heavy")) for (n in NS) {
  E <- matrix(NA_real_, REPS, length(MULT) + 2L)
  tau_ratio <- share <- numeric(REPS)
  for (r in seq_len(REPS)) {
    X <- gen(n, tails)
    cx <- curves(X, t)
    for (j in seq_along(MULT)) {
      E[r, j] <- l2(dp_mean(cx, EPS, MULT[j] * q95[[tails]])$values$values[1L, ] - mu)
    }
    E[r, length(MULT) + 1L] <- l2(dp_mean(cx, EPS, 10 * q95[[tails]])$values$values[1L, ] - mu)
    a <- dp_mean(cx, EPS, "auto")
    E[r, length(MULT) + 2L] <- l2(a$values$values[1L, ] - mu)
    tau_ratio[r] <- a$tau / q95[[tails]]
    share[r] <- a$tau_auto$share
  }
  m <- colMeans(E)
  best <- min(m[seq_along(MULT)])
  rows[[length(rows) + 1L]] <- data.frame(
    tails = tails, n = n, best_grid = best, best_c = MULT[which.min(m[seq_along(MULT)])],
    ten = m[length(MULT) + 1L], auto = m[length(MULT) + 2L],
    auto_over_best = m[length(MULT) + 2L] / best, auto_over_ten = m[length(MULT) + 2L] / m[length(MULT) + 1L],
    median_auto = stats::median(E[, length(MULT) + 2L]) / stats::median(E[, which.min(m[seq_along(MULT)])]),
    tau_over_q95 = stats::median(tau_ratio), max_tau_over_q95 = max(tau_ratio), share = share[1L])
}
dp_rng(old)
res <- do.call(rbind, rows)
cat(sprintf("true q95 of the norms: light %.3f, heavy %.3f; %.0f s\n\n", q95[["light"]], q95[["heavy"]],
            proc.time()[["elapsed"]] - t0))
print(format(res, digits = 3), row.names = FALSE)
cat(sprintf("\nauto / best of grid: max %.3f (target <= 1.3): %s\n", max(res$auto_over_best),
            if (max(res$auto_over_best) <= 1.3) "met" else "NOT met"))
cat(sprintf("auto / ten times too large: max %.3f (target <= 0.5): %s\n", max(res$auto_over_ten),
            if (max(res$auto_over_ten) <= 0.5) "met" else "NOT met"))
cat("(errors are means over replications; median_auto: the ratio of median errors, auto against the best c)\n")
