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
