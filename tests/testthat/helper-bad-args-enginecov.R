# Bad-argument harness entries for the covariance and binning-regression
# summaries (R/summary-cov.R, R/summary-binreg.R); merged into
# test-bad-arguments.R. Their inputs are tables, chunks and column names,
# whose bad values are tested one by one in test-engine-cov-binreg.R.
bad_arg_excluded_enginecov <- function() {
  why <- "inputs are tables, chunks and column names: bad input tested in test-engine-cov-binreg.R"
  c(summarise_cov = why, summarise_bin_regression = why)
}
