# Shared timing helpers of the bench/ scripts (sourced from the repository
# root: make bench, make demo).
has_bench <- requireNamespace("bench", quietly = TRUE)

# Median time (seconds) of f() over `reps` runs.
med <- function(f, reps = 5) {
  if (has_bench) {
    as.numeric(suppressWarnings(bench::mark(f(), iterations = reps, check = FALSE, memory = FALSE))$median)
  } else stats::median(replicate(reps, system.time(f())[["elapsed"]]))
}

# A duration for printing, in ms below a second.
fmt <- function(s, digits = 2) {
  if (s < 1) sprintf("%.*f ms", digits, 1000 * s) else sprintf("%.2f s", s)
}

# A duration to 3 significant digits (s or ms).
fmt_s <- function(s) if (s >= 1) sprintf("%.3g s", s) else sprintf("%.3g ms", 1e3 * s)

# PASS / FAIL / SKIP (ok = NA) lines, printed at once and collected in
# `verdicts` for the final summary.
verdicts <- character()
verdict <- function(ok, what) {
  v <- sprintf("%s: %s", if (is.na(ok)) "SKIP" else if (isTRUE(ok)) "PASS" else "FAIL", what)
  verdicts <<- c(verdicts, v)
  cat(v, "\n", sep = "")
}

# One row of the summary table (bench/summary.R): the ratio ours / peer of
# task `task`, the target ratio and whether it is met. Printed, and appended to
# the file named by DPFDA_BENCH_SUMMARY when set (bench/summary.R sets it).
bench_ratio <- function(task, ours, peer, peer_name, target, ok = ours / peer <= target) {
  r <- ours / peer
  cat(sprintf("ratio %s: %s / %s (%s) = %.2f (target <= %.2f) %s\n", task, fmt_s(ours), fmt_s(peer),
              peer_name, r, target, if (isTRUE(ok)) "met" else "NOT met"))
  f <- Sys.getenv("DPFDA_BENCH_SUMMARY")
  if (nzchar(f)) {
    row <- data.frame(task = task, ours_s = signif(ours, 4), peer = peer_name, peer_s = signif(peer, 4),
                      ratio = round(r, 3), target = target, met = isTRUE(ok))
    utils::write.table(row, f, append = file.exists(f), col.names = !file.exists(f), row.names = FALSE,
                       sep = "\t", quote = FALSE)
  }
  invisible(r)
}
