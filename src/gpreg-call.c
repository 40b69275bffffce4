/* gpreg-call.c -- .Call glue of the Gaussian-process regression pieces
 * (kernels in gpreg.c).  The kernels destroy their inputs: the glue hands
 * them copies. */
#include <string.h>
#include "asserts.h"

/* Copies of K (n x n) and Kfs (n x P) after asserting their shapes and that
 * of kss (P); n and P into *n, *P. */
static void gpreg_inputs(SEXP K, SEXP Kfs, SEXP kss, const char *fn, int *n, int *P, double **k,
                         double **w)
{
  const double *pK = dpfda_arg_square(K, n, fn, "K");
  int nr;
  const double *pF = dpfda_arg_real_rc(Kfs, &nr, P, fn, "Kfs");
  DPFDA_ASSERT(nr == *n, fn, "Kfs", "a matrix with a row per row of `K`");
  dpfda_arg_real_n(kss, *P, fn, "kss");
  *k = (double *) R_alloc((size_t) *n * *n, sizeof(double));
  *w = (double *) R_alloc((size_t) *n * (*P > 0 ? *P : 1), sizeof(double));
  memcpy(*k, pK, (size_t) *n * *n * sizeof(double));
  memcpy(*w, pF, (size_t) *n * *P * sizeof(double));
}

/* list(a, b, c, info) named by names (a, b, c protected by the caller) */
static SEXP gpreg_list(SEXP a, SEXP b, SEXP c, int info, const char *const *names)
{
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 4));
  SET_VECTOR_ELT(out, 0, a);
  SET_VECTOR_ELT(out, 1, b);
  SET_VECTOR_ELT(out, 2, c);
  SET_VECTOR_ELT(out, 3, Rf_ScalarInteger(info));
  dpfda_set_names(out, 4, names);
  UNPROTECT(1);
  return out;
}

/* .Call: list(C, variance, Kinv or NULL, info).  (The standard mechanism,
 * which needs only row functionals of K^{-1} and no C, has its own entry
 * point below.) */
SEXP dpfda_gp_posterior_parts(SEXP K, SEXP Kfs, SEXP kss, SEXP want_inverse)
{
  static const char *fn = "dpfda_gp_posterior_parts";
  int n, P;
  double *k, *w;
  gpreg_inputs(K, Kfs, kss, fn, &n, &P, &k, &w);
  int inv = dpfda_arg_flag(want_inverse, fn, "want_inverse");
  SEXP C = PROTECT(Rf_allocMatrix(REALSXP, P, n));
  SEXP var = PROTECT(Rf_allocVector(REALSXP, P));
  SEXP Kinv = PROTECT(inv ? Rf_allocMatrix(REALSXP, n, n) : R_NilValue);
  int info = dpfda_gp_posterior(k, n, w, P, REAL(kss), REAL(C), REAL(var), inv ? REAL(Kinv) : NULL);
  static const char *const names[] = {"C", "variance", "Kinv", "info"};
  SEXP out = gpreg_list(C, var, Kinv, info, names);
  UNPROTECT(3);
  return out;
}

/* .Call: list(alpha = K^{-1} y, variance, Kinv_stats (n x 4, see
 * kinv_stats() in gpreg.c), info) for the standard mechanism. */
SEXP dpfda_gp_standard_parts(SEXP K, SEXP Kfs, SEXP kss, SEXP y)
{
  static const char *fn = "dpfda_gp_standard_parts";
  int n, P;
  double *k, *w;
  gpreg_inputs(K, Kfs, kss, fn, &n, &P, &k, &w);
  dpfda_arg_real_n(y, n, fn, "y");
  SEXP alpha = PROTECT(Rf_duplicate(y));   /* keeps the attributes of y */
  SEXP var = PROTECT(Rf_allocVector(REALSXP, P));
  SEXP st = PROTECT(Rf_allocMatrix(REALSXP, n, 4));
  int info = dpfda_gp_standard(k, n, w, P, REAL(kss), REAL(alpha), REAL(var), REAL(st));
  static const char *const names[] = {"alpha", "variance", "Kinv_stats", "info"};
  SEXP out = gpreg_list(alpha, var, st, info, names);
  UNPROTECT(3);
  return out;
}
