# make fuzz: a long random-argument fuzzing run of every exported function
# (tests/testthat/helper-fuzz.R), then N / 2 cases of nasty tables, chunks and
# column names (tests/testthat/helper-fuzz-tables.R), each call in a child R
# process.
#   Rscript tools/fuzz.R [N] [SEED]     (defaults 5000 and a seed from the clock)
# Prints the summary (crashes, hangs, unclassed errors, NaN/Inf results) and
# the failing cases (including calls that raise a warning not of a dpfda
# class), writes fuzz-results.csv, exits non-zero on any failure.
suppressPackageStartupMessages({
  library(testthat)
  library(dpfda)
})
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1L) as.integer(args[1]) else 5000L
seed <- if (length(args) >= 2L) as.integer(args[2]) else as.integer(Sys.time()) %% 100000L
env <- new.env(parent = asNamespace("dpfda"))
for (f in list.files("tests/testthat", pattern = "^helper-.*[.]R$", full.names = TRUE)) sys.source(f, env)
defs <- env$bad_arg_definitions(env, "tests/testthat")
t0 <- proc.time()[["elapsed"]]
res <- env$fuzz_run(env$fuzz_cases(n, seed, defs))
if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
  res <- rbind(res, env$fuzz_run(env$fuzz_table_cases(n %/% 2L, seed, defs)))
}
s <- env$fuzz_summary(res)
cat(sprintf("fuzz: seed %d, %.0f s\n", seed, proc.time()[["elapsed"]] - t0))
print(s)
bad <- res[res$outcome %in% c("crash", "hang", "other_error") | res$nonfinite | res$foreign_warning, ]
if (nrow(bad)) {
  cat("\nFailing cases:\n")
  cat(sprintf("  %s -> %s <%s>: %s\n", bad$label, bad$outcome, bad$class, bad$message), sep = "")
}
utils::write.csv(res, "fuzz-results.csv", row.names = FALSE)
quit(status = if (nrow(bad)) 1L else 0L)
