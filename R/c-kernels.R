# Thin wrappers of the .Call entry points of src/kernels.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_kernel_gram <- function(x, y, type, nu, variance) .Call(C_dpfda_kernel_gram, x, y, type, nu, variance)
