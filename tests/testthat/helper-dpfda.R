# Shared helpers for the tests.

# Run code in seeded mode with a fixed seed, restoring the caller's mode.
with_seed_mode <- function(seed, code) {
  old <- dp_rng("seeded")
  on.exit(dp_rng(old), add = TRUE)
  set.seed(seed)
  force(code)
}

# Empirical covariance of paths (rows are draws), centred at the known mean 0.
empirical_cov <- function(paths) crossprod(paths) / nrow(paths)

# CPU seconds (user + system) of an expression: timing limits in the tests use
# CPU time, which a loaded CI machine does not stretch as it does wall time.
# Assignments inside `expr` land in the caller's frame (a promise).
cpu_seconds <- function(expr) {
  t <- system.time(expr)
  t[["user.self"]] + t[["sys.self"]]
}
