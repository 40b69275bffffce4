# Thin wrappers of the .Call entry points of src/rng-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_rng_draw <- function(n, what) .Call(C_dpfda_rng_draw, n, what)
c_laplace_draw <- function(n, scale) .Call(C_dpfda_laplace_draw, n, scale)
c_rng_mode_get <- function() .Call(C_dpfda_rng_mode_get)
c_rng_mode_set <- function(mode) .Call(C_dpfda_rng_mode_set, mode)
