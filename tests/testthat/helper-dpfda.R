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

# A release as every dpfda release must be: the documented common fields, a
# valid guarantee, no data in its call, a print that ends with the noise
# source for seeded noise, and a summary that says at least what print says.
expect_valid_release <- function(r) {
  testthat::expect_s3_class(r, "dpfda_release")
  testthat::expect_silent(validate_dpfda_release(r))
  testthat::expect_true(all(c("values", "mechanism", "epsilon", "delta", "sensitivity", "noise_scale", "rng",
                              "call") %in% names(r)))
  args <- if (is.call(r$call)) as.list(r$call)[-1L] else list()
  testthat::expect_false(any(vapply(args, function(a) is.numeric(a) && length(a) > 10L, NA)))
  out <- utils::capture.output(print(r))
  testthat::expect_match(out[1L], "^<dpfda_(release|kme_release)> ")
  if (identical(r$rng, "seeded")) testthat::expect_match(out[length(out)], "NOT private", fixed = TRUE)
  s <- utils::capture.output(print(summary(r)))
  testthat::expect_true(all(out %in% s))
  invisible(r)
}

# RKHS distance between two kernel expansions with centres x1, x2 (union
# expansion): sqrt(c' K_U c). (The ERM sensitivity tests: test-svm.R, test-erm-unit.R.)
rkhs_distance <- function(kernel, x1, a1, x2, a2) {
  U <- rbind(x1, x2)
  cc <- c(a1, -a2)
  sqrt(max(0, drop(crossprod(cc, kernel_matrix(kernel, U) %*% cc))))
}

# dp_kde() on points in memory beyond its grid without a `domain` warns that they were moved to the grid's ends;
# tests that compare such releases across sources (where the engines clamp alike, silently) mean it.
quiet_grid_clamp <- function(expr) {
  withCallingHandlers(expr, dpfda_warning_data = function(w) {
    if (grepl("outside the range of the grid", conditionMessage(w), fixed = TRUE)) invokeRestart("muffleWarning")
  })
}
