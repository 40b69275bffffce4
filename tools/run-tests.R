# Run the whole testthat suite against the installed package and print
# "N passed, N failed" as the last line; exit non-zero on any failure.
suppressPackageStartupMessages(library(testthat))
library(dpfda)
# DPFDA_TEST_FILTER: a regular expression on test file names (make valgrind).
filter <- Sys.getenv("DPFDA_TEST_FILTER")
# DPFDA_TEST_JOBS: files run in that many R processes at once (testthat's parallel mode, each file
# whole in one worker, the slowest first: DESCRIPTION's Config/testthat/start-first). make test
# uses one per core; 1 (the default) runs in this process, as valgrind and the sanitizers need.
jobs <- suppressWarnings(as.integer(Sys.getenv("DPFDA_TEST_JOBS", "1")))
if (!is.na(jobs) && jobs > 1L) {
  Sys.setenv(TESTTHAT_PARALLEL = "true", TESTTHAT_CPUS = jobs)
  cat(sprintf("running the test files in %d R processes\n", jobs))
} else {
  Sys.setenv(TESTTHAT_PARALLEL = "false")
}
res <- test_dir("tests/testthat", package = "dpfda", load_package = "installed",
                filter = if (nzchar(filter)) filter else NULL,
                reporter = ProgressReporter$new(show_praise = FALSE),
                stop_on_failure = FALSE, stop_on_warning = FALSE)
df <- as.data.frame(res)
# seconds per test file, slowest first (where the suite's time goes; testthat's parallel mode does not
# time the tests)
if (is.na(jobs) || jobs <= 1L) {
  secs <- sort(tapply(df$real, df$file, sum), decreasing = TRUE)
  cat("\nseconds per test file:\n")
  cat(sprintf("  %7.1f  %s\n", secs, names(secs)), sep = "")
}
passed <- sum(df$passed)
failed <- sum(df$failed) + sum(df$error)
skipped <- sum(df$skipped)
cat(sprintf("\n%d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0 || passed == 0) 1L else 0L)
