# Thin wrappers of the .Call entry points of src/gpreg-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_gp_posterior_parts <- function(K, Kfs, kss, want_inverse) {
  .Call(C_dpfda_gp_posterior_parts, K, Kfs, kss, want_inverse)
}
c_gp_standard_parts <- function(K, Kfs, kss, y) .Call(C_dpfda_gp_standard_parts, K, Kfs, kss, y)
