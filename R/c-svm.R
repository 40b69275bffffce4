# Thin wrappers of the .Call entry points of src/svm-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_svm_fit <- function(K, y, cap, lambda, gap_tol, maxit) .Call(C_dpfda_svm_fit, K, y, cap, lambda, gap_tol, maxit)
