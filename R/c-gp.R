# Thin wrappers of the .Call entry points of src/gp-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_gp_markov_path <- function(t, rate, sd, npath) .Call(C_dpfda_gp_markov_path, t, rate, sd, npath)
c_gp_kronecker <- function(factors, npath) .Call(C_dpfda_gp_kronecker, factors, npath)
c_gp_chol_draw <- function(L, npath) .Call(C_dpfda_gp_chol_draw, L, npath)
c_gp_circulant <- function(cov, m, npath, tol) .Call(C_dpfda_gp_circulant, cov, m, npath, tol)
