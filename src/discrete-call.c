/* discrete-call.c -- .Call glue of the exact integer samplers (kernels in
 * discrete.c).  The asserts keep every parameter within the limits under
 * which the kernels' integer products cannot overflow. */
#include <math.h>
#include "asserts.h"

#define DISCRETE_MAX_SCALE 0x1.0p40   /* discrete Laplace scales */
#define DISCRETE_MAX_NUM   0x1.0p52   /* numerators and denominators of exp(-num / den) */

static int whole_in(double x, double lo, double hi) { return x >= lo && x <= hi && x == floor(x); }

SEXP dpfda_discrete_bits(void)
{
  return Rf_ScalarInteger(dpfda_discrete_word());
}

/* n draws; scale: one integer t, or n of them (one per draw) */
SEXP dpfda_discrete_laplace_draw(SEXP n, SEXP scale)
{
  static const char *fn = "dpfda_discrete_laplace_draw";
  R_xlen_t len = dpfda_arg_length(n, fn, "n");
  const double *sc = dpfda_arg_real(scale, fn, "scale");
  R_xlen_t ns = XLENGTH(scale);
  DPFDA_ASSERT(ns == 1 || ns == len, fn, "scale", "one scale, or one per draw");
  for (R_xlen_t j = 0; j < ns; j++)
    DPFDA_ASSERT(whole_in(sc[j], 1, DISCRETE_MAX_SCALE), fn, "scale", "whole numbers in [1, 2^40]");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, len));
  dpfda_dlaplace_fill(len, sc, ns, REAL(out));
  UNPROTECT(1);
  return out;
}

SEXP dpfda_discrete_gaussian_draw(SEXP n, SEXP sigma2)
{
  static const char *fn = "dpfda_discrete_gaussian_draw";
  R_xlen_t len = dpfda_arg_length(n, fn, "n");
  double s = dpfda_arg_num(sigma2, fn, "sigma2");
  DPFDA_ASSERT(whole_in(s, 1, dpfda_discrete_gaussian_max()), fn, "sigma2",
               "a whole number from 1 to the limit of dpfda_discrete_bits()");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, len));
  dpfda_dgauss_fill(len, s, REAL(out));
  UNPROTECT(1);
  return out;
}

/* n draws of Bernoulli(exp(-num / den)) (tests of the exact sampler) */
SEXP dpfda_bernoulli_exp_draw(SEXP n, SEXP num, SEXP den)
{
  static const char *fn = "dpfda_bernoulli_exp_draw";
  R_xlen_t len = dpfda_arg_length(n, fn, "n");
  double a = dpfda_arg_num(num, fn, "num"), b = dpfda_arg_num(den, fn, "den");
  DPFDA_ASSERT(whole_in(a, 0, DISCRETE_MAX_NUM), fn, "num", "a whole number in [0, 2^52]");
  DPFDA_ASSERT(whole_in(b, 1, DISCRETE_MAX_NUM), fn, "den", "a whole number in [1, 2^52]");
  SEXP out = PROTECT(Rf_allocVector(LGLSXP, len));
  dpfda_bern_exp_fill(len, a, b, LOGICAL(out));
  UNPROTECT(1);
  return out;
}

/* Exact exponential mechanism (dpfda_exp_mech()): the 1-based index drawn
 * with probability proportional to exp(-num[i] / den). */
SEXP dpfda_exp_mech_exact(SEXP num, SEXP den)
{
  static const char *fn = "dpfda_exp_mech_exact";
  const double *a = dpfda_arg_real(num, fn, "num");
  R_xlen_t len = XLENGTH(num);
  DPFDA_ASSERT(len >= 1 && len <= 2147483647, fn, "num", "of length 1 to 2^31 - 1");
  double b = dpfda_arg_num(den, fn, "den");
  DPFDA_ASSERT(whole_in(b, 1, DISCRETE_MAX_NUM), fn, "den", "a whole number in [1, 2^52]");
  int has_zero = 0;
  for (R_xlen_t i = 0; i < len; i++) {
    DPFDA_ASSERT(whole_in(a[i], 0, DISCRETE_MAX_NUM), fn, "num", "whole numbers in [0, 2^52]");
    if (a[i] == 0) has_zero = 1;
  }
  DPFDA_ASSERT(has_zero, fn, "num", "score gaps with a 0 (the best candidate)");
  return Rf_ScalarInteger((int) dpfda_exp_mech(a, len, b) + 1);
}
