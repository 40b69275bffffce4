# Thin wrappers of the .Call entry points of src/binning-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_integral_gram <- function(lo1, hi1, lo2, hi2, ls, average, deriv) {
  .Call(C_dpfda_integral_gram, lo1, hi1, lo2, hi2, ls, average, deriv)
}
c_integral_cross <- function(pts, lo, hi, ls, average) .Call(C_dpfda_integral_cross, pts, lo, hi, ls, average)
