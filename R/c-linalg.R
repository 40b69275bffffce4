# Thin wrappers of the .Call entry points of src/linalg.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_chol_factor <- function(A, tau0, tau_max) .Call(C_dpfda_chol_factor, A, tau0, tau_max)
