/* rng-call.c -- .Call glue of the noise source (rng.c). */
#include "asserts.h"

SEXP dpfda_rng_mode_get(void)
{
  return Rf_ScalarString(Rf_mkChar(dpfda_rng_mode() == DPFDA_RNG_SEEDED ? "seeded" : "secure"));
}

SEXP dpfda_rng_mode_set(SEXP mode)
{
  static const char *fn = "dpfda_rng_mode_set";
  int m = dpfda_arg_int1(mode, fn, "mode");
  DPFDA_ASSERT(m == DPFDA_RNG_SECURE || m == DPFDA_RNG_SEEDED, fn, "mode", "0 (secure) or 1 (seeded)");
  dpfda_rng_set_mode(m);
  return dpfda_rng_mode_get();
}

/* what: 0 uniform, 1 normal, 2 exponential */
SEXP dpfda_rng_draw(SEXP n, SEXP what)
{
  static const char *fn = "dpfda_rng_draw";
  R_xlen_t len = dpfda_arg_length(n, fn, "n");
  int w = dpfda_arg_int1(what, fn, "what");
  DPFDA_ASSERT(w >= 0 && w <= 2, fn, "what", "0, 1 or 2");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, len));
  dpfda_rng_fill(w, len, REAL(out));
  UNPROTECT(1);
  return out;
}

SEXP dpfda_laplace_draw(SEXP n, SEXP scale)
{
  static const char *fn = "dpfda_laplace_draw";
  R_xlen_t len = dpfda_arg_length(n, fn, "n");
  double b = dpfda_arg_num(scale, fn, "scale");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, len));
  dpfda_laplace_fill(len, b, REAL(out));
  UNPROTECT(1);
  return out;
}
