# Thin wrappers of the .Call entry points of src/kme-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_kme_greedy <- function(target, W, scale, Zinit, iters, adam, lower, upper) {
  .Call(C_dpfda_kme_greedy, target, W, scale, Zinit, iters, adam, lower, upper)
}
c_kme_lasso <- function(G, c, yy, lambda, w0, maxit, tol) {
  .Call(C_dpfda_kme_lasso, G, c, yy, lambda, w0, maxit, tol)
}
c_kme_rowmeans <- function(Z, X, type, nu, variance, chunk) {
  .Call(C_dpfda_kme_rowmeans, Z, X, type, nu, variance, chunk)
}
c_kme_mean_gram <- function(X, type, nu, variance) .Call(C_dpfda_kme_mean_gram, X, type, nu, variance)
c_kme_seqchol <- function(K, tol, pivot, block) .Call(C_dpfda_kme_seqchol, K, tol, pivot, block)
c_kme_rff <- function(X, W, scale, mean, chunk) .Call(C_dpfda_kme_rff, X, W, scale, mean, chunk)
