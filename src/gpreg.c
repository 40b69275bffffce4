/* gpreg.c -- Gaussian-process regression pieces for the DP mechanisms of
 * Smith et al.: posterior mean, cloaking matrix C = K_*f K^{-1}, posterior
 * variance, and (optionally) K^{-1}, all from one Cholesky factor of
 * K = K' + sigma_n^2 I.
 */
#include <string.h>
#include "dpfda.h"

/* K (n x n, destroyed: becomes its lower factor), Kfs (n x P, destroyed:
 * becomes K^{-1} K_f*), kss (P prior variances).  Outputs: C (P x n),
 * var (P), Kinv (n x n, or NULL).  Returns the dpotrf info. */
/* K <- its lower Cholesky factor L; Kfs <- V = L^{-1} K_f*; var = the
 * posterior variance k** - colSums(V^2) (noise excluded).  The dpotrf info. */
static int factor_and_variance(double *K, int n, double *Kfs, int P, const double *kss, double *var)
{
  int info;
  const double one = 1.0;
  F77_CALL(dpotrf)("L", &n, K, &n, &info FCONE);
  if (info != 0) return info;
  if (P > 0)
    F77_CALL(dtrsm)("L", "L", "N", "N", &n, &P, &one, K, &n, Kfs, &n
                    FCONE FCONE FCONE FCONE);
  for (int j = 0; j < P; j++) {
    double s = 0.0;
    for (int i = 0; i < n; i++) { double v = Kfs[i + (size_t) j * n]; s += v * v; }
    double v = kss[j] - s;
    var[j] = v > 0.0 ? v : 0.0;
  }
  return 0;
}

int dpfda_gp_posterior(double *K, int n, double *Kfs, int P, const double *kss,
                       double *C, double *var, double *Kinv)
{
  const double one = 1.0;
  int info = factor_and_variance(K, n, Kfs, P, kss, var);
  if (info != 0) return info;
  /* W = L^{-T} V = K^{-1} K_f*; C = W^T */
  F77_CALL(dtrsm)("L", "L", "T", "N", &n, &P, &one, K, &n, Kfs, &n
                  FCONE FCONE FCONE FCONE);
  for (int j = 0; j < P; j++)
    for (int i = 0; i < n; i++) C[j + (size_t) i * P] = Kfs[i + (size_t) j * n];
  if (Kinv != NULL) {
    memcpy(Kinv, K, (size_t) n * n * sizeof(double));
    F77_CALL(dpotri)("L", &n, Kinv, &n, &info FCONE);
    if (info != 0) return info;
    for (int j = 0; j < n; j++)
      for (int i = 0; i < j; i++) Kinv[i + (size_t) j * n] = Kinv[j + (size_t) i * n];
  }
  return 0;
}

/* Row functionals of A = K^{-1} from its lower triangle (dpotri output):
 * out (n x 4) = diag(A), rowSums(A^2), rowSums(pmax(A, 0)), rowSums(pmax(-A, 0)).
 * One pass over the lower triangle, column by column (contiguous), each
 * entry counted for its row and, off the diagonal, for its column. */
static void kinv_stats(const double *A, int n, double *out)
{
  double *dg = out, *sq = out + n, *ps = out + 2 * (size_t) n, *ng = out + 3 * (size_t) n;
  memset(out, 0, 4 * (size_t) n * sizeof(double));
  for (int j = 0; j < n; j++) {
    const double *a = A + (size_t) j * n;
    double ajj = a[j];
    dg[j] = ajj;
    sq[j] += ajj * ajj;
    if (ajj > 0.0) ps[j] += ajj; else ng[j] -= ajj;
    double sqj = 0.0, psj = 0.0, ngj = 0.0;
    for (int i = j + 1; i < n; i++) {
      double v = a[i], v2 = v * v;
      sq[i] += v2;
      sqj += v2;
      if (v > 0.0) { ps[i] += v; psj += v; } else { ng[i] -= v; ngj -= v; }
    }
    sq[j] += sqj;
    ps[j] += psj;
    ng[j] += ngj;
  }
}

/* .Call: list(C, variance, Kinv or NULL, info).  (The standard mechanism,
 * which needs only row functionals of K^{-1} and no C, has its own entry
 * point below.) */
SEXP dpfda_gp_posterior_parts(SEXP K, SEXP Kfs, SEXP kss, SEXP want_inverse)
{
  int n = Rf_nrows(K), P = Rf_ncols(Kfs);
  double *k = (double *) R_alloc((size_t) n * n, sizeof(double));
  double *w = (double *) R_alloc((size_t) n * (P > 0 ? P : 1), sizeof(double));
  memcpy(k, REAL(K), (size_t) n * n * sizeof(double));
  memcpy(w, REAL(Kfs), (size_t) n * P * sizeof(double));
  SEXP C = PROTECT(Rf_allocMatrix(REALSXP, P, n));
  SEXP var = PROTECT(Rf_allocVector(REALSXP, P));
  SEXP Kinv = PROTECT(Rf_asInteger(want_inverse) == 1 ? Rf_allocMatrix(REALSXP, n, n) : R_NilValue);
  int info = dpfda_gp_posterior(k, n, w, P, REAL(kss), REAL(C), REAL(var),
                                Rf_isNull(Kinv) ? NULL : REAL(Kinv));
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 4));
  SET_VECTOR_ELT(out, 0, C);
  SET_VECTOR_ELT(out, 1, var);
  SET_VECTOR_ELT(out, 2, Kinv);
  SET_VECTOR_ELT(out, 3, Rf_ScalarInteger(info));
  static const char *const names[] = {"C", "variance", "Kinv", "info"};
  dpfda_set_names(out, 4, names);
  UNPROTECT(4);
  return out;
}

/* The standard mechanism's pieces, without the cloaking matrix C it does not
 * use: from one Cholesky factor L of K, the posterior variance (one triangular
 * solve V = L^{-1} K_f*, as above), the weights alpha = K^{-1} y of the
 * posterior mean (two triangular solves with one right-hand side; the mean
 * is K_*f alpha) and the row functionals of K^{-1} (dpotri on L, then
 * kinv_stats()).  The essential work is the factorisation (n^3/3 flops) and
 * the inverse (2 n^3/3; every sensitivity bound reads all of K^{-1}); the
 * solve for C (n^2 P flops) is skipped.  K, Kfs, y destroyed (y becomes
 * alpha).  Returns the LAPACK info. */
int dpfda_gp_standard(double *K, int n, double *Kfs, int P, const double *kss, double *y,
                      double *var, double *stats)
{
  int inc = 1, info = factor_and_variance(K, n, Kfs, P, kss, var);
  if (info != 0) return info;
  F77_CALL(dtrsv)("L", "N", "N", &n, K, &n, y, &inc FCONE FCONE FCONE);
  F77_CALL(dtrsv)("L", "T", "N", &n, K, &n, y, &inc FCONE FCONE FCONE);
  F77_CALL(dpotri)("L", &n, K, &n, &info FCONE);
  if (info != 0) return info;
  kinv_stats(K, n, stats);
  return 0;
}

/* .Call: list(alpha = K^{-1} y, variance, Kinv_stats (n x 4, see
 * kinv_stats()), info) for the standard mechanism. */
SEXP dpfda_gp_standard_parts(SEXP K, SEXP Kfs, SEXP kss, SEXP y)
{
  int n = Rf_nrows(K), P = Rf_ncols(Kfs);
  if (Rf_ncols(K) != n || Rf_nrows(Kfs) != n || XLENGTH(kss) != P || XLENGTH(y) != n)
    Rf_error("dpfda_gp_standard_parts: bad dimensions");
  double *k = (double *) R_alloc((size_t) n * n, sizeof(double));
  double *w = (double *) R_alloc((size_t) n * (P > 0 ? P : 1), sizeof(double));
  memcpy(k, REAL(K), (size_t) n * n * sizeof(double));
  memcpy(w, REAL(Kfs), (size_t) n * P * sizeof(double));
  SEXP alpha = PROTECT(Rf_duplicate(y));
  SEXP var = PROTECT(Rf_allocVector(REALSXP, P));
  SEXP st = PROTECT(Rf_allocMatrix(REALSXP, n, 4));
  int info = dpfda_gp_standard(k, n, w, P, REAL(kss), REAL(alpha), REAL(var), REAL(st));
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 4));
  SET_VECTOR_ELT(out, 0, alpha);
  SET_VECTOR_ELT(out, 1, var);
  SET_VECTOR_ELT(out, 2, st);
  SET_VECTOR_ELT(out, 3, Rf_ScalarInteger(info));
  static const char *const names[] = {"alpha", "variance", "Kinv_stats", "info"};
  dpfda_set_names(out, 4, names);
  UNPROTECT(4);
  return out;
}
