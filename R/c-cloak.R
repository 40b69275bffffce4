# Thin wrappers of the .Call entry points of src/cloak-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_cloak_solve <- function(C, tol, maxit, rank_tol) .Call(C_dpfda_cloak_solve, C, tol, maxit, rank_tol)
