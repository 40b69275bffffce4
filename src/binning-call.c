/* binning-call.c -- .Call glue of the integral kernel (kernels in binning.c). */
#include "asserts.h"

/* .Call: boxes (lo1, hi1) B1 x D and (lo2, hi2) B2 x D, lengthscales (D),
 * average (logical), deriv (logical). Returns list(K, dK) with dK a
 * B1 x B2 x D array of l_j dK/dl_j (or NULL). */
SEXP dpfda_integral_gram(SEXP lo1, SEXP hi1, SEXP lo2, SEXP hi2, SEXP ls, SEXP average,
                         SEXP deriv)
{
  static const char *fn = "dpfda_integral_gram";
  int B1 = Rf_nrows(lo1), B2 = Rf_nrows(lo2), D = Rf_length(ls);
  const double *l = dpfda_arg_real(ls, fn, "ls");
  const double *a1 = dpfda_arg_real_n(lo1, (R_xlen_t) B1 * D, fn, "lo1");
  const double *b1 = dpfda_arg_real_n(hi1, (R_xlen_t) B1 * D, fn, "hi1");
  const double *a2 = dpfda_arg_real_n(lo2, (R_xlen_t) B2 * D, fn, "lo2");
  const double *b2 = dpfda_arg_real_n(hi2, (R_xlen_t) B2 * D, fn, "hi2");
  int avg = dpfda_arg_flag(average, fn, "average"), der = dpfda_arg_flag(deriv, fn, "deriv");
  SEXP K = PROTECT(Rf_allocMatrix(REALSXP, B1, B2));
  SEXP dK = PROTECT(der ? Rf_alloc3DArray(REALSXP, B1, B2, D) : R_NilValue);
  dpfda_binning_gram(a1, b1, B1, a2, b2, B2, l, D, avg, REAL(K), der ? REAL(dK) : NULL);
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
  SET_VECTOR_ELT(out, 0, K);
  SET_VECTOR_ELT(out, 1, dK);
  static const char *const names[] = {"K", "dK"};
  dpfda_set_names(out, 2, names);
  UNPROTECT(3);
  return out;
}

/* .Call: points P x D, boxes (lo, hi) B x D, lengthscales, average:
 * k_fF, P x B (unit variance). */
SEXP dpfda_integral_cross(SEXP pts, SEXP lo, SEXP hi, SEXP ls, SEXP average)
{
  static const char *fn = "dpfda_integral_cross";
  int P = Rf_nrows(pts), B = Rf_nrows(lo), D = Rf_length(ls);
  const double *l = dpfda_arg_real(ls, fn, "ls");
  const double *u = dpfda_arg_real_n(pts, (R_xlen_t) P * D, fn, "pts");
  const double *s = dpfda_arg_real_n(lo, (R_xlen_t) B * D, fn, "lo");
  const double *t = dpfda_arg_real_n(hi, (R_xlen_t) B * D, fn, "hi");
  int avg = dpfda_arg_flag(average, fn, "average");
  SEXP K = PROTECT(Rf_allocMatrix(REALSXP, P, B));
  dpfda_binning_cross(u, P, s, t, B, l, D, avg, REAL(K));
  UNPROTECT(1);
  return K;
}
