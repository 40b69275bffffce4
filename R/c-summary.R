# Thin wrappers of the .Call entry points of src/summary.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_summary_bin <- function(x, wt, c0, delta, B) .Call(C_dpfda_summary_bin, x, wt, c0, delta, B)
c_summary_kde <- function(w, t, c0, delta) .Call(C_dpfda_summary_kde, w, t, c0, delta)
