/* gpreg.c -- Gaussian-process regression pieces for the DP mechanisms of
 * Smith et al.: posterior mean, cloaking matrix C = K_*f K^{-1}, posterior
 * variance, and (optionally) K^{-1}, all from one Cholesky factor of
 * K = K' + sigma_n^2 I.  The .Call glue is in gpreg-call.c.
 */
#include <string.h>
#include "dpfda.h"

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

/* K (n x n, destroyed: becomes its lower factor), Kfs (n x P, destroyed:
 * becomes K^{-1} K_f*), kss (P prior variances).  Outputs: C (P x n),
 * var (P), Kinv (n x n, or NULL).  Returns the LAPACK info. */
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
