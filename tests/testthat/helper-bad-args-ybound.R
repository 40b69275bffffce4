# Bad-argument harness entries for y_bound = "auto" (R/auto-y-bound.R): its
# options come through `...`, so the harness's formal-by-formal replacement
# does not reach them; these hand-written calls do. Merged into
# test-bad-arguments.R.

nasty_cases_ybound <- function() {
  list(
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), rep(0.5, 300), 3, "auto", 1, c(0, 1), bound_share = NA),
          class = "dpfda_error_argument"),
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), rep(0.5, 300), 3, "auto", 1, c(0, 1), bound_center = X),
          class = "dpfda_error_argument"),
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), rep(0.5, 300), 3, "auto", 1, c(0, 1), bound_range = c(1, X)),
          class = "dpfda_error_argument"),
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), rep(0.5, 300), 3, "auto", 1, c(0, 1), bound_quantile = 2),
          class = "dpfda_error_argument"),
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), rep(0.5, 300), 3, c(0, 1), 1, c(0, 1), bound_share = 0.2),
          class = "dpfda_error_argument"),
    # an output at the largest double: above every candidate, always clamped (no overflow)
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), c(rep(0.5, 299), X), 3, "auto", 1, c(0, 1)), expect = "ok"),
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), c(rep(0.5, 299), -Inf), 3, "auto", 1, c(0, 1)),
          expect = "either"),
    # a centre far from the outputs: every |y - c| above the range, refused after the bound's budget
    nasty(dp_bin_regression(seq(0, 1, length.out = 300), rep(0.5, 300), 3, "auto", 1, c(0, 1), bound_center = 1e150),
          class = "dpfda_error_data"),
    nasty(dp_gp_regression(seq(0, 1, length.out = 300), rep(0.5, 300), c(0, 1), kernel_gaussian(0.3), 0.1, "auto", 1,
                           1e-5, bound_center = -X), class = "dpfda_error_argument"),
    nasty(dp_gp_regression(seq(0, 1, length.out = 300), rep(0.5, 300), c(0, 1), kernel_gaussian(0.3, variance = X),
                           0.1, "auto", 1, 1e-5)),
    nasty(dp_gp_regression(seq(0, 1, length.out = 30), rep(0.5, 30), c(0, 1), kernel_gaussian(0.3), 0.1, "auto", 1,
                           1e-5), class = "dpfda_error_privacy")
  )
}
