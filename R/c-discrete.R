# Thin wrappers of the .Call entry points of src/discrete-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_exp_mech_exact <- function(num, den) .Call(C_dpfda_exp_mech_exact, num, den)
c_discrete_bits <- function() .Call(C_dpfda_discrete_bits)
c_discrete_laplace_draw <- function(n, scale) .Call(C_dpfda_discrete_laplace_draw, n, scale)
c_discrete_gaussian_draw <- function(n, sigma2) .Call(C_dpfda_discrete_gaussian_draw, n, sigma2)
