# Thin wrappers of the .Call entry points of src/kl-markov-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_kl_markov_basis <- function(t, w, gamma, variance, tol, J) {
  .Call(C_dpfda_kl_markov_basis, t, w, gamma, variance, tol, J)
}
