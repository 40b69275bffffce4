/* gp-call.c -- .Call glue of the Gaussian-process path samplers (kernels in
 * gp.c).  Each returns an npath x m matrix, one path per row. */
#include "asserts.h"

static SEXP named_pair(SEXP a, const char *na, SEXP b, const char *nb)
{
  /* a and b are often fresh allocations (Rf_ScalarReal(...) in the call):
   * protect them before allocating the list */
  PROTECT(a);
  PROTECT(b);
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
  SET_VECTOR_ELT(out, 0, a);
  SET_VECTOR_ELT(out, 1, b);
  const char *names[] = {na, nb};
  dpfda_set_names(out, 2, names);
  UNPROTECT(3);
  return out;
}

/* .Call: npath x m paths L z from a lower Cholesky factor L (upper triangle
 * zero): for factors cached by R across releases. */
SEXP dpfda_gp_chol_draw(SEXP L, SEXP npath)
{
  static const char *fn = "dpfda_gp_chol_draw";
  int m;
  const double *pL = dpfda_arg_square(L, &m, fn, "L");
  int np = dpfda_arg_nonneg(npath, fn, "npath");
  SEXP paths = PROTECT(Rf_allocMatrix(REALSXP, np, m));
  dpfda_gp_chol_paths(pL, m, np, REAL(paths));
  UNPROTECT(1);
  return paths;
}

/* .Call: AR(1) paths of sd^2 exp(-rate |s - t|) on the sorted points t */
SEXP dpfda_gp_markov_path(SEXP t, SEXP rate, SEXP sd, SEXP npath)
{
  static const char *fn = "dpfda_gp_markov_path";
  const double *pt = dpfda_arg_real(t, fn, "t");
  double r = dpfda_arg_num(rate, fn, "rate"), s = dpfda_arg_num(sd, fn, "sd");
  int np = dpfda_arg_nonneg(npath, fn, "npath");
  R_xlen_t m = XLENGTH(t);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, np, (int) m));
  dpfda_gp_markov(pt, m, r, s, np, REAL(out));
  UNPROTECT(1);
  return out;
}

/* .Call: paths on a tensor grid from a list of per-axis lower factors */
SEXP dpfda_gp_kronecker(SEXP factors, SEXP npath)
{
  static const char *fn = "dpfda_gp_kronecker";
  int d = (int) dpfda_arg_list(factors, fn, "factors"), np = dpfda_arg_nonneg(npath, fn, "npath");
  const double **L = (const double **) R_alloc(d, sizeof(double *));
  int *mj = (int *) R_alloc(d, sizeof(int));
  R_xlen_t m = 1;
  for (int j = 0; j < d; j++) {
    L[j] = dpfda_arg_square(VECTOR_ELT(factors, j), mj + j, fn, "factors[[j]]");
    m *= mj[j];
  }
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, np, (int) m));
  dpfda_gp_kronecker_paths(L, mj, d, np, REAL(out));
  UNPROTECT(1);
  return out;
}

/* cov: first row of the M x M symmetric circulant (M a power of two).
 * Returns list(paths, min_eigen_ratio) or, when the embedding has an
 * eigenvalue below -tol * max, list(NULL, ratio) so that R can pad or fall
 * back. */
SEXP dpfda_gp_circulant(SEXP cov, SEXP m_, SEXP npath, SEXP tol)
{
  static const char *fn = "dpfda_gp_circulant";
  const double *c = dpfda_arg_real(cov, fn, "cov");
  R_xlen_t M = XLENGTH(cov);
  int m = dpfda_arg_nonneg(m_, fn, "m"), np = dpfda_arg_nonneg(npath, fn, "npath");
  DPFDA_ASSERT(M >= 1 && (M & (M - 1)) == 0, fn, "cov", "of a power-of-two length");
  DPFDA_ASSERT(m <= M, fn, "m", "at most the length of `cov`");
  double tl = dpfda_arg_num(tol, fn, "tol"), abssum;
  double *lam = (double *) R_alloc(M, sizeof(double));
  double ratio = dpfda_circulant_eigen(c, M, lam, &abssum);
  if (ratio < -tl) return named_pair(R_NilValue, "paths", Rf_ScalarReal(ratio), "min_eigen_ratio");
  SEXP paths = PROTECT(Rf_allocMatrix(REALSXP, np, m));
  dpfda_circulant_paths(lam, M, abssum, m, np, REAL(paths));
  SEXP out = named_pair(paths, "paths", Rf_ScalarReal(ratio), "min_eigen_ratio");
  UNPROTECT(1);
  return out;
}
