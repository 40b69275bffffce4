/* gp.c -- Gaussian-process paths on finite point sets.
 *
 * Exact samplers, all drawing through rng.c:
 *  cholesky   any kernel, any points: Z L^T with L a lower Cholesky factor
 *             (from the jitter ladder of linalg.c, cached by R).
 *  markov     exponential kernel on sorted 1-D points: AR(1) recursion, O(m).
 *  kronecker  separable kernel on a tensor grid: (L_1 x ... x L_d) z.
 *  circulant  stationary kernel on a regular 1-D grid: FFT of the circulant
 *             embedding (Wood & Chan), O(M log M), two paths per FFT.
 * Outputs are npath x m matrices (one path per row), as curves store them.
 * The .Call glue is in gp-call.c.
 */
#include <float.h>
#include <string.h>
#include "dpfda.h"

/* B := B L^T for B (nrow x m), L lower triangular m x m. */
void dpfda_tril_times_rows(const double *L, int m, int nrow, double *B)
{
  const double one = 1.0;
  if (nrow <= 0 || m <= 0) return;
  F77_CALL(dtrmm)("R", "L", "T", "N", &nrow, &m, &one, L, &m, B, &nrow
                  FCONE FCONE FCONE FCONE);
}

/* ---- (a) dense Cholesky ------------------------------------------------------ */

/* out (npath x m) = Z L^T, Z i.i.d. standard normal, L lower m x m with its
 * upper triangle zero. */
void dpfda_gp_chol_paths(const double *L, int m, int npath, double *out)
{
  dpfda_rng_begin();
  dpfda_norm_fill(out, (R_xlen_t) npath * m);
  dpfda_rng_end();
  dpfda_tril_times_rows(L, m, npath, out);
}

/* ---- (b) exact AR(1) for exp(-rate |s - t|) ------------------------------------ */

void dpfda_gp_markov(const double *t, R_xlen_t m, double rate, double sd,
                     int npath, double *out)
{
  dpfda_rng_begin();
  for (int p = 0; p < npath; p++) {
    double g = sd * dpfda_norm();
    out[p] = g;
    for (R_xlen_t k = 1; k < m; k++) {
      double dt = t[k] - t[k - 1];
      double r = exp(-rate * dt);
      double inn = sd * sqrt(-expm1(-2.0 * rate * dt));  /* sqrt(1 - r^2), stable */
      g = r * g + inn * dpfda_norm();
      out[p + k * (R_xlen_t) npath] = g;
      if ((k & 0xFFFFF) == 0xFFFFF) R_CheckUserInterrupt();
    }
  }
  dpfda_rng_end();
}

/* ---- (c) Kronecker product of per-axis factors ------------------------------------ */

/* out (npath x prod m_j): paths (L_1 x ... x L_d) z, first axis fastest, for
 * the lower factors L[j] (m[j] x m[j]). */
void dpfda_gp_kronecker_paths(const double *const *L, const int *mj, int d, int npath, double *o)
{
  R_xlen_t m = 1;
  for (int j = 0; j < d; j++) m *= mj[j];
  double *z = (double *) R_alloc(m, sizeof(double));
  dpfda_rng_begin();
  for (int p = 0; p < npath; p++) {
    dpfda_norm_fill(z, m);
    R_xlen_t pre = 1;
    for (int j = 0; j < d; j++) {
      int ipre = (int) pre;
      R_xlen_t post = m / (pre * mj[j]);
      /* each block z[(pre x mj) slab] := slab L_j^T, i.e. L_j along axis j */
      for (R_xlen_t q = 0; q < post; q++)
        dpfda_tril_times_rows(L[j], mj[j], ipre, z + q * pre * mj[j]);
      pre *= mj[j];
    }
    for (R_xlen_t k = 0; k < m; k++) o[p + k * npath] = z[k];
  }
  dpfda_rng_end();
}

/* ---- (d) circulant embedding ---------------------------------------------------- */

/* In-place iterative radix-2 FFT, n a power of two; forward uses exp(-2 pi i jk/n). */
void dpfda_fft(double *re, double *im, R_xlen_t n, int inverse)
{
  for (R_xlen_t i = 1, j = 0; i < n; i++) {          /* bit reversal */
    R_xlen_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = re[i]; re[i] = re[j]; re[j] = t;
      t = im[i]; im[i] = im[j]; im[j] = t;
    }
  }
  double sgn = inverse ? 1.0 : -1.0;
  R_xlen_t half = n / 2 > 0 ? n / 2 : 1;
  double *cs = (double *) R_alloc(half, sizeof(double));
  double *sn = (double *) R_alloc(half, sizeof(double));
  for (R_xlen_t k = 0; k < half; k++) {               /* exact table, no recurrence drift */
    double a = 2.0 * M_PI * (double) k / (double) n;
    cs[k] = cos(a);
    sn[k] = sgn * sin(a);
  }
  for (R_xlen_t len = 2; len <= n; len <<= 1) {
    R_xlen_t step = n / len, h = len / 2;
    for (R_xlen_t s = 0; s < n; s += len) {
      for (R_xlen_t k = 0; k < h; k++) {
        double wr = cs[k * step], wi = sn[k * step];
        R_xlen_t a = s + k, b = a + h;
        double xr = re[b] * wr - im[b] * wi;
        double xi = re[b] * wi + im[b] * wr;
        re[b] = re[a] - xr; im[b] = im[a] - xi;
        re[a] += xr;        im[a] += xi;
      }
    }
  }
}

/* The eigenvalues lam (M) of the M x M symmetric circulant with first row c
 * (M a power of two) and sum |c| into *abssum.  Returns min / max of the
 * eigenvalues (-1 when none is positive). */
double dpfda_circulant_eigen(const double *c, R_xlen_t M, double *lam, double *abssum)
{
  double *im = (double *) R_alloc(M, sizeof(double));
  double as = 0.0;
  for (R_xlen_t k = 0; k < M; k++) { lam[k] = c[k]; im[k] = 0.0; as += fabs(c[k]); }
  dpfda_fft(lam, im, M, 0);
  double lmax = 0.0, lmin = 0.0;
  for (R_xlen_t k = 0; k < M; k++) {
    if (lam[k] > lmax) lmax = lam[k];
    if (lam[k] < lmin) lmin = lam[k];
  }
  *abssum = as;
  return lmax > 0.0 ? lmin / lmax : -1.0;
}

/* out (npath x m, m <= M) = paths from the eigenvalues lam of
 * dpfda_circulant_eigen() (overwritten by the scales of the spectral
 * weights).  Small negative eigenvalues are raised to 0 and every eigenvalue
 * gets eta = 4 log2(M) eps sum|c|, which bounds the FFT rounding error: the
 * sampled covariance is then >= the kernel's (jitter, not clipping
 * downwards). */
void dpfda_circulant_paths(double *lam, R_xlen_t M, double abssum, int m, int np, double *o)
{
  double eta = 4.0 * log2((double) M) * DBL_EPSILON * abssum;
  for (R_xlen_t k = 0; k < M; k++)
    lam[k] = sqrt(((lam[k] > 0.0 ? lam[k] : 0.0) + eta) / (double) M);
  double *wr = (double *) R_alloc(M, sizeof(double));
  double *wi = (double *) R_alloc(M, sizeof(double));
  dpfda_rng_begin();
  for (int p = 0; p < np; p += 2) {
    for (R_xlen_t k = 0; k < M; k++) {
      wr[k] = lam[k] * dpfda_norm();
      wi[k] = lam[k] * dpfda_norm();
    }
    dpfda_fft(wr, wi, M, 0);
    for (int k = 0; k < m; k++) {
      o[p + (R_xlen_t) k * np] = wr[k];
      if (p + 1 < np) o[p + 1 + (R_xlen_t) k * np] = wi[k];
    }
    R_CheckUserInterrupt();
  }
  dpfda_rng_end();
}
