# Bad-argument harness entries for conversions and progress bars
# (R/interop.R, R/progress.R); merged into test-bad-arguments.R.

bad_arg_table_interop <- function() {
  g <- seq(0, 1, length.out = 5)
  cv <- curves(rbind(sin(2 * pi * g), g), g)
  list(
    as_curves = list(list(x = as.data.frame(cv))),
    dp_progress = list(list(total = 3, label = "x")),
    dp_progress_enabled = list(list()),
    as_tfd = if (requireNamespace("tf", quietly = TRUE)) list(list(x = cv)),
    as_fd = if (requireNamespace("fda", quietly = TRUE)) list(list(x = cv, basis = NULL))
  )[c(TRUE, TRUE, TRUE, requireNamespace("tf", quietly = TRUE), requireNamespace("fda", quietly = TRUE))]
}

# Without the suggested packages these conversions can only fail (with a
# classed dpfda_error_dependency, tested in test-interop.R).
bad_arg_excluded_interop <- function() {
  c(as_tfd = if (!requireNamespace("tf", quietly = TRUE)) "tf is not installed",
    as_fd = if (!requireNamespace("fda", quietly = TRUE)) "fda is not installed")
}

bad_arg_allowed_interop <- function() {
  rbind(
    # numbers and matrices are curves (one curve of one point, or rows)
    allow("as_curves", "x", c("-1", "0", "1e10", "2^31", "double.xmax", "wrong length")),
    # a long data frame: any data frame with the right columns is valid
    allow("as_curves", "x", "a data.frame"),
    # any size of progress bar is valid (it is only drawn interactively)
    allow("dp_progress", "total", c("0", "1e10", "2^31")),
    allow("dp_progress", "label", "a string"),
    # basis = NULL is the default; as_tfd / as_fd need tf / fda and give a
    # classed dpfda_error_dependency without them
    if (requireNamespace("fda", quietly = TRUE)) {
      rbind(allow("as_fd", "basis", "NULL"),
            allow("as_fd", "x", c("-1", "0", "1e10", "2^31", "double.xmax", "wrong length", "a data.frame")))
    },
    if (requireNamespace("tf", quietly = TRUE)) {
      allow("as_tfd", "x", c("-1", "0", "1e10", "2^31", "double.xmax", "wrong length", "a data.frame"))
    }
  )
}
