# bench/summary.R -- run the benchmark scripts and print every ratio they
# report (ours / peer or floor, with its target) in one table.
#
# Each script reports its ratios through bench_ratio() (bench/timing.R), which
# appends a row to the file named by DPFDA_BENCH_SUMMARY; this runner sets it,
# runs the scripts one after the other (each in its own R process, output to
# bench/summary-logs/<script>.log), and prints the table. Ratios come from one
# run of each script, so ours and its peer are timed under the same load.
#
# Run from the repository root: Rscript bench/summary.R [script ...]
#   (default: every bench/bench-*.R; e.g. Rscript bench/summary.R bench-iclp.R)
# Exit status 0 always (a report); the last line counts the targets met.

args <- commandArgs(trailingOnly = TRUE)
scripts <- if (length(args)) file.path("bench", basename(args)) else
  sort(Sys.glob("bench/bench-*.R"))
scripts <- scripts[file.exists(scripts)]
out <- tempfile("dpfda-bench-", fileext = ".tsv")
logdir <- file.path("bench", "summary-logs")
dir.create(logdir, showWarnings = FALSE)
Sys.setenv(DPFDA_BENCH_SUMMARY = out)
rscript <- file.path(R.home("bin"), "Rscript")
for (s in scripts) {
  log <- file.path(logdir, sub("\\.R$", ".log", basename(s)))
  cat(sprintf("running %s ... ", s))
  t0 <- proc.time()[["elapsed"]]
  status <- system2(rscript, s, stdout = log, stderr = log)
  cat(sprintf("%.0f s%s\n", proc.time()[["elapsed"]] - t0,
              if (!identical(status, 0L)) sprintf(" (exit status %s, see %s)", status, log) else ""))
}
if (!file.exists(out)) {
  cat("No ratios were reported.\n")
  quit(status = 0)
}
tab <- utils::read.delim(out, stringsAsFactors = FALSE)
unlink(out)
fmt <- function(s) ifelse(s >= 1, sprintf("%.3g s", s), sprintf("%.3g ms", 1e3 * s))
show <- data.frame(task = tab$task, ours = fmt(tab$ours_s), peer = tab$peer, peer_time = fmt(tab$peer_s),
                   ratio = sprintf("%.2f", tab$ratio), target = sprintf("<= %.2f", tab$target),
                   met = ifelse(tab$met, "yes", "NO"))
cat(sprintf("\nBenchmark ratios (ours / peer), %s, %s\n", R.version.string,
            format(Sys.time(), "%Y-%m-%d %H:%M")))
old <- options(width = 200)
print(show, row.names = FALSE, right = FALSE)
options(old)
cat(sprintf("%d of %d ratio targets met\n", sum(tab$met), nrow(tab)))
