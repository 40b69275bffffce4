/* gp.c -- Gaussian-process paths on finite point sets.
 *
 * Four exact samplers, all drawing through rng.c:
 *  cholesky   any kernel, any points: Z L^T with L from the jitter ladder.
 *  markov     exponential kernel on sorted 1-D points: AR(1) recursion, O(m).
 *  kronecker  separable kernel on a tensor grid: (L_1 x ... x L_d) z.
 *  circulant  stationary kernel on a regular 1-D grid: FFT of the circulant
 *             embedding (Wood & Chan), O(M log M), two paths per FFT.
 * Outputs are npath x m matrices (one path per row), as curves store them.
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

/* ---- (a) dense Cholesky ------------------------------------------------------ */

SEXP dpfda_gp_cholesky(SEXP K, SEXP npath, SEXP tau0, SEXP tau_max)
{
  int m = Rf_nrows(K), np = Rf_asInteger(npath);
  double *L = (double *) R_alloc((size_t) m * m, sizeof(double));
  memcpy(L, REAL(K), (size_t) m * m * sizeof(double));
  double tau = 0.0;
  int info = dpfda_chol_jitter(L, m, Rf_asReal(tau0), Rf_asReal(tau_max), &tau);
  if (info != 0)
    Rf_error("the kernel matrix is not positive definite even with jitter %g (LAPACK info %d)",
             tau, info);
  SEXP paths = PROTECT(Rf_allocMatrix(REALSXP, np, m));
  dpfda_rng_begin();
  dpfda_norm_fill(REAL(paths), (R_xlen_t) np * m);
  dpfda_rng_end();
  dpfda_tril_times_rows(L, m, np, REAL(paths));
  SEXP out = named_pair(paths, "paths", Rf_ScalarReal(tau), "jitter");
  UNPROTECT(1);
  return out;
}

/* .Call: npath x m paths L z from a lower Cholesky factor L (upper triangle
 * zero), as dpfda_gp_cholesky draws them (same normals in the same order):
 * for factors cached by R across releases. */
SEXP dpfda_gp_chol_draw(SEXP L, SEXP npath)
{
  int m = Rf_nrows(L), np = Rf_asInteger(npath);
  if (Rf_ncols(L) != m || np < 0 || TYPEOF(L) != REALSXP) Rf_error("dpfda_gp_chol_draw: bad arguments");
  SEXP paths = PROTECT(Rf_allocMatrix(REALSXP, np, m));
  dpfda_rng_begin();
  dpfda_norm_fill(REAL(paths), (R_xlen_t) np * m);
  dpfda_rng_end();
  dpfda_tril_times_rows(REAL(L), m, np, REAL(paths));
  UNPROTECT(1);
  return paths;
}

/* ---- (b) exact AR(1) for exp(-rate |s - t|) ------------------------------------ */

void dpfda_gp_markov(const double *t, R_xlen_t m, double rate, double sd,
                     int npath, double *out)
{
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
}

SEXP dpfda_gp_markov_path(SEXP t, SEXP rate, SEXP sd, SEXP npath)
{
  R_xlen_t m = XLENGTH(t);
  int np = Rf_asInteger(npath);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, np, (int) m));
  dpfda_rng_begin();
  dpfda_gp_markov(REAL(t), m, Rf_asReal(rate), Rf_asReal(sd), np, REAL(out));
  dpfda_rng_end();
  UNPROTECT(1);
  return out;
}

/* ---- (c) Kronecker product of per-axis factors ------------------------------------ */

SEXP dpfda_gp_kronecker(SEXP factors, SEXP npath)
{
  int d = Rf_length(factors), np = Rf_asInteger(npath);
  R_xlen_t m = 1;
  for (int j = 0; j < d; j++) m *= Rf_nrows(VECTOR_ELT(factors, j));
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, np, (int) m));
  double *z = (double *) R_alloc(m, sizeof(double));
  double *o = REAL(out);
  dpfda_rng_begin();
  for (int p = 0; p < np; p++) {
    dpfda_norm_fill(z, m);
    R_xlen_t pre = 1;
    for (int j = 0; j < d; j++) {
      SEXP Lj = VECTOR_ELT(factors, j);
      int mj = Rf_nrows(Lj);
      int ipre = (int) pre;
      R_xlen_t post = m / (pre * mj);
      /* each block z[(pre x mj) slab] := slab L_j^T, i.e. L_j along axis j */
      for (R_xlen_t q = 0; q < post; q++)
        dpfda_tril_times_rows(REAL(Lj), mj, ipre, z + q * pre * mj);
      pre *= mj;
    }
    for (R_xlen_t k = 0; k < m; k++) o[p + k * np] = z[k];
  }
  dpfda_rng_end();
  UNPROTECT(1);
  return out;
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

/* cov: first row of the M x M symmetric circulant (M a power of two).
 * Returns list(paths, min_eigen_ratio) or, when the embedding has an
 * eigenvalue below -tol * max, list(NULL, ratio) so that R can pad or fall
 * back.  Accepted small negative eigenvalues are raised to 0 and every
 * eigenvalue gets eta = 4 log2(M) eps sum|c|, which bounds the FFT rounding
 * error: the sampled covariance is then >= the kernel's (jitter, not clipping
 * downwards). */
SEXP dpfda_gp_circulant(SEXP cov, SEXP m_, SEXP npath, SEXP tol)
{
  R_xlen_t M = XLENGTH(cov);
  int m = Rf_asInteger(m_), np = Rf_asInteger(npath);
  double *lam = (double *) R_alloc(M, sizeof(double));
  double *im = (double *) R_alloc(M, sizeof(double));
  const double *c = REAL(cov);
  double abssum = 0.0;
  for (R_xlen_t k = 0; k < M; k++) { lam[k] = c[k]; im[k] = 0.0; abssum += fabs(c[k]); }
  dpfda_fft(lam, im, M, 0);
  double lmax = 0.0, lmin = 0.0;
  for (R_xlen_t k = 0; k < M; k++) {
    if (lam[k] > lmax) lmax = lam[k];
    if (lam[k] < lmin) lmin = lam[k];
  }
  double ratio = lmax > 0.0 ? lmin / lmax : -1.0;
  if (ratio < -Rf_asReal(tol)) {
    SEXP out = named_pair(R_NilValue, "paths", Rf_ScalarReal(ratio), "min_eigen_ratio");
    return out;
  }
  double eta = 4.0 * log2((double) M) * DBL_EPSILON * abssum;
  for (R_xlen_t k = 0; k < M; k++)
    lam[k] = sqrt(((lam[k] > 0.0 ? lam[k] : 0.0) + eta) / (double) M);

  SEXP paths = PROTECT(Rf_allocMatrix(REALSXP, np, m));
  double *o = REAL(paths);
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
  SEXP out = named_pair(paths, "paths", Rf_ScalarReal(ratio), "min_eigen_ratio");
  UNPROTECT(1);
  return out;
}
