# Thin wrappers of the .Call entry points of src/iclp-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_iclp_basis <- function(G, w, tol, J) .Call(C_dpfda_iclp_basis, G, w, tol, J)
c_iclp_draw <- function(V, s, npath, center) .Call(C_dpfda_iclp_draw, V, s, npath, center)
