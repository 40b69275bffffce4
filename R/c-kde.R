# Thin wrappers of the .Call entry points of src/kde.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_kde_sum <- function(x, t) .Call(C_dpfda_kde_sum, x, t)
c_kde_binned_sum <- function(x, t, c0, delta, B) .Call(C_dpfda_kde_binned_sum, x, t, c0, delta, B)
