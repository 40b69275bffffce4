# Thin wrappers of the .Call entry points of src/bernstein-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_bernstein_perturb <- function(values, scale, type) .Call(C_dpfda_bernstein_perturb, values, scale, type)
c_bernstein_basis <- function(y, k, h, method) .Call(C_dpfda_bernstein_basis, y, k, h, method)
c_bernstein_iterate <- function(k, h, method) .Call(C_dpfda_bernstein_iterate, k, h, method)
c_bernstein_coef <- function(values, dims, h, method) .Call(C_dpfda_bernstein_coef, values, dims, h, method)
c_bernstein_eval_grid <- function(coef, dims, axes) .Call(C_dpfda_bernstein_eval_grid, coef, dims, axes)
c_bernstein_eval <- function(coef, dims, Y) .Call(C_dpfda_bernstein_eval, coef, dims, Y)
