# Many tests reproduce the papers' settings (epsilon up to 100, delta = 0.1
# with n = 100), which draw the classed warnings dpfda_warning_epsilon and
# dpfda_warning_delta. They are switched off for the suite; the tests of
# the warnings themselves (test-entry-validation.R) switch them on locally.
options(dpfda.privacy_warnings = FALSE)

local_privacy_warnings <- function(env = parent.frame()) {
  old <- options(dpfda.privacy_warnings = TRUE)
  do.call(on.exit, list(substitute(options(old), list(old = old)), add = TRUE), envir = env)
  invisible(old)
}
