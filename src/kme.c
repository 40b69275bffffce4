/* kme.c -- Balog, Tolstikhin & Schoelkopf (2018): private release of kernel
 * mean embeddings.  Plain C kernels (no R objects); their .Call glue is
 * kme-call.c.
 *
 *  - kme_rowmeans:  kbar_m = (1/N) sum_n k(z_m, x_n), X processed in chunks
 *    of rows (memory O(M + chunk * D)), never an M x N matrix.
 *  - kme_seqchol:   the authors' skip-threshold sequential incomplete
 *    Cholesky (= modified Gram-Schmidt in the RKHS), blocked or pivoted; in
 *    place over one M x M buffer.
 *  - kme_rff:       cos/sin random Fourier features of points (map) or their
 *    mean over the rows (chunked, dgemm + sin/cos).
 *  - kme_greedy:    greedy approximate pre-images by Adam from public start
 *    points; reads only the (noisy) target vector.
 *  - kme_lasso:     cyclic coordinate descent for
 *    ||y - Phi' w||^2 + lambda ||w||_1 in Gram form with a duality-gap stop.
 */
#include "dpfda.h"
#include <string.h>
#include <math.h>
#include <stdint.h>

/* Sine and cosine of one angle, for the random features (10^9 evaluations
 * at the paper's sizes).  Reduction modulo pi/4 in three parts (Cody-Waite,
 * exact for |t| < 2^29 since the first part has few bits) and minimax
 * polynomials on [-pi/4, pi/4] with the Cephes library's published
 * coefficients; about 1 ulp, so cos^2 + sin^2 = 1 to rounding.  Large
 * arguments go to libm. */
static const double KME_FOPI = 1.27323954473516268615;      /* 4 / pi */
static const double KME_DP1 = 7.85398125648498535156e-1;    /* pi/4 = DP1 + DP2 + DP3 */
static const double KME_DP2 = 3.77489470793079817668e-8;
static const double KME_DP3 = 2.69515142907905952645e-15;
static const double KME_SC[6] = {1.58962301576546568060e-10, -2.50507477628578072866e-8,
                                 2.75573136213857245213e-6, -1.98412698295895385996e-4,
                                 8.33333333332211858878e-3, -1.66666666666666307295e-1};
static const double KME_CC[6] = {-1.13585365213876817300e-11, 2.08757008419747316778e-9,
                                 -2.75573141792967388112e-7, 2.48015872888517045348e-5,
                                 -1.38888888888730564116e-3, 4.16666666666665929218e-2};

/* The polynomial part for |t| < 1e8, branch-free (bit masks select sine or
 * cosine, signs are exact +-1 factors) and with the Horner steps written
 * out, so that a loop over it vectorises at -O2 (kme_sincos_block); the same
 * operations in the same order as the scalar branches, hence the same
 * values bit for bit. */
static inline void kme_sincos_core(double t, double *s, double *c)
{
  double a = fabs(t);   /* the caller makes sure a < 1e8 */
  int j = (int) (a * KME_FOPI);   /* a >= 0: truncation is floor */
  j += j & 1;
  double q = (double) j;
  double z = ((a - q * KME_DP1) - q * KME_DP2) - q * KME_DP3;
  double zz = z * z;
  double ps = ((((KME_SC[0] * zz + KME_SC[1]) * zz + KME_SC[2]) * zz + KME_SC[3]) * zz + KME_SC[4]) * zz +
    KME_SC[5];
  double pc = ((((KME_CC[0] * zz + KME_CC[1]) * zz + KME_CC[2]) * zz + KME_CC[3]) * zz + KME_CC[4]) * zz +
    KME_CC[5];
  ps = z + z * zz * ps;
  pc = 1.0 - 0.5 * zz + zz * zz * pc;
  /* angle = k pi/2 + z, k = (j / 2) mod 4: odd k swaps sine and cosine;
     sine sign + + - - (flipped for t < 0), cosine sign + - - + */
  int k = (j >> 1) & 3;
  uint64_t odd = (uint64_t) 0 - (uint64_t) (k & 1), pb, cb;
  memcpy(&pb, &ps, sizeof pb);
  memcpy(&cb, &pc, sizeof cb);
  uint64_t sb = (pb & ~odd) | (cb & odd), vb = (cb & ~odd) | (pb & odd);
  double sv, cv;
  memcpy(&sv, &sb, sizeof sv);
  memcpy(&cv, &vb, sizeof cv);
  double ssg = (double) (1 - 2 * ((k >> 1) & 1)), csg = (double) (1 - 2 * (((k + 1) >> 1) & 1));
  double tsg = (double) (1 - 2 * (t < 0));
  *s = (tsg * ssg) * sv;
  *c = csg * cv;
}

static inline void kme_sincos(double t, double *s, double *c)
{
  if (!(fabs(t) < 1e8)) { *s = sin(t); *c = cos(t); return; }
  kme_sincos_core(t, s, c);
}

/* Sines and cosines of n angles: one vectorised loop when all are below 1e8
 * in modulus (the usual case), else element by element.  GCC at -O2
 * vectorises only loops that need no run-time overlap check (hence restrict,
 * and no inlining, which would drop it) and no scalar epilogue (hence the
 * trip count n & ~7 and a separate remainder loop). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
  defined(__GLIBC__)
/* and an AVX2 clone chosen at load time where the CPU has it (4 lanes instead
   of SSE2's 2; no FMA, so the same roundings and the same values) */
__attribute__((noinline, target_clones("avx2", "default")))
#elif defined(__GNUC__)
__attribute__((noinline))
#endif
static void kme_sincos_block(const double *restrict t, int n, double *restrict s, double *restrict c)
{
  int small = 1, n8 = n & ~7, i;
  for (i = 0; i < n; i++) small &= fabs(t[i]) < 1e8;
  if (small) {
    for (i = 0; i < n8; i++) kme_sincos_core(t[i], s + i, c + i);
    for (; i < n; i++) kme_sincos_core(t[i], s + i, c + i);
  } else {
    for (i = 0; i < n; i++) kme_sincos(t[i], s + i, c + i);
  }
}

/* th = X w for a column-major nb x D block X (the angles of one frequency w):
 * axpys over the small dimension, vectorised as kme_sincos_block. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void kme_angles(const double *restrict xc, int nb, int D, const double *restrict w,
                       double *restrict th)
{
  int n8 = nb & ~7, i;
  for (i = 0; i < n8; i++) th[i] = xc[i] * w[0];
  for (; i < nb; i++) th[i] = xc[i] * w[0];
  for (int k = 1; k < D; k++) {
    const double *xk = xc + (size_t) k * nb;
    double wk = w[k];
    for (i = 0; i < n8; i++) th[i] += xk[i] * wk;
    for (; i < nb; i++) th[i] += xk[i] * wk;
  }
}

/* ---- kernel row means --------------------------------------------------- */

/* n long doubles from R_alloc, which only guarantees the alignment of a
 * double: long double needs 16 bytes on x86-64 (UBSan flags misaligned
 * stores), so over-allocate and align by hand. */
static long double *alloc_long_double(size_t n)
{
  char *p = R_alloc(n * sizeof(long double) + 16, 1);
  uintptr_t a = ((uintptr_t) p + 15u) & ~(uintptr_t) 15u;
  return (long double *) a;
}

/* sum of k(z, x_i) over the cnt rows x_i of xr (row-major, D columns); the
 * Gaussian kernel by its own loop, where the time goes. */
static double kme_kernel_sum(int type, const double *z, const double *xr, R_xlen_t cnt, int D,
                             double nu, double variance, double *bk)
{
  double s = 0.0;
  if (type == DPFDA_K_GAUSSIAN) {
    for (R_xlen_t i = 0; i < cnt; i++) {
      const double *x = xr + (size_t) i * D;
      double r2 = 0.0;
      for (int k = 0; k < D; k++) { double u = z[k] - x[k]; r2 += u * u; }
      s += exp(-0.5 * r2);
    }
    return s * variance;
  }
  for (R_xlen_t i = 0; i < cnt; i++)
    s += dpfda_kernel_eval(type, z, 1, xr + (size_t) i * D, 1, D, nu, variance, bk);
  return s;
}

/* Z: M x D (column-major, pre-scaled), X: N x D (column-major, pre-scaled). */
void kme_rowmeans(int type, const double *Z, int M, const double *X, R_xlen_t N, int D,
                  double nu, double variance, int chunk, double *out)
{
  double *bk = (double *) R_alloc(dpfda_bessel_work_len(nu), sizeof(double));
  double *zr = (double *) R_alloc((size_t) M * D, sizeof(double));   /* row-major Z */
  double *xr = (double *) R_alloc((size_t) chunk * D, sizeof(double)); /* row-major chunk */
  long double *acc = alloc_long_double((size_t) M);
  for (int m = 0; m < M; m++) {
    acc[m] = 0.0L;
    for (int k = 0; k < D; k++) zr[(size_t) m * D + k] = Z[m + (R_xlen_t) k * M];
  }
  for (R_xlen_t n0 = 0; n0 < N; n0 += chunk) {
    int nb = (int) ((N - n0) < chunk ? (N - n0) : chunk);
    for (int i = 0; i < nb; i++)
      for (int k = 0; k < D; k++) xr[(size_t) i * D + k] = X[n0 + i + (R_xlen_t) k * N];
    for (int m = 0; m < M; m++) {
      double s = kme_kernel_sum(type, zr + (size_t) m * D, xr, nb, D, nu, variance, bk);
      acc[m] += (long double) s;
    }
    R_CheckUserInterrupt();
  }
  for (int m = 0; m < M; m++) out[m] = (double) (acc[m] / (long double) N);
}

/* mean(K_xx) over all N^2 pairs of the rows of X (N x D, pre-scaled), by the
 * upper triangle (evaluation only). */
double kme_mean_gram(int type, const double *X, R_xlen_t N, int D, double nu, double variance)
{
  double *bk = (double *) R_alloc(dpfda_bessel_work_len(nu), sizeof(double));
  double *xr = (double *) R_alloc((size_t) N * D, sizeof(double));
  for (R_xlen_t i = 0; i < N; i++)
    for (int k = 0; k < D; k++) xr[(size_t) i * D + k] = X[i + (R_xlen_t) k * N];
  long double tot = 0.0L;
  for (R_xlen_t i = 0; i < N; i++) {
    double s = kme_kernel_sum(type, xr + (size_t) i * D, xr + (size_t) (i + 1) * D, N - i - 1, D, nu,
                              variance, bk);
    tot += 2.0L * (long double) s + (long double) variance;
    if ((i & 255) == 255) R_CheckUserInterrupt();
  }
  return (double) (tot / ((long double) N * (long double) N));
}

/* ---- sequential incomplete Cholesky with skip ---------------------------- */

/* A holds K (M x M, lower triangle used) and is overwritten: on exit its
 * first F columns hold L (M x F, column c is the c-th kept point's column,
 * rows in the ORIGINAL point order).  kept[c] = index (0-based) of the point
 * that produced column c; d[i] = residual squared norm of point i when it was
 * visited.  Skips point i when d_i <= tol * K_ii (tol is absolute when
 * k(z, z) = 1, as in the authors' code).  The blocked and pivoted variants
 * follow. */
int kme_seqchol(double *A, int M, double tol, int *kept, double *d)
{
  double *diag0 = (double *) R_alloc(M > 0 ? M : 1, sizeof(double));
  double *tmp = (double *) R_alloc(M > 0 ? M : 1, sizeof(double));
  double *lrow = (double *) R_alloc(M > 0 ? M : 1, sizeof(double));
  double one = 1.0, mone = -1.0;
  int inc1 = 1;
  for (int i = 0; i < M; i++) diag0[i] = d[i] = A[i + (R_xlen_t) i * M];
  int F = 0;
  for (int f = 0; f < M; f++) {
    if (!(d[f] > tol * diag0[f])) continue;
    double piv = sqrt(d[f]);
    int nr = M - f - 1;
    /* column f of A is still K[., f] (only columns < F <= f were overwritten) */
    if (nr > 0) memcpy(tmp, A + f + 1 + (R_xlen_t) f * M, (size_t) nr * sizeof(double));
    if (F > 0 && nr > 0) {
      for (int c = 0; c < F; c++) lrow[c] = A[f + (R_xlen_t) c * M];
      F77_CALL(dgemv)("N", &nr, &F, &mone, A + f + 1, &M, lrow, &inc1, &one, tmp, &inc1 FCONE);
    }
    double *col = A + (R_xlen_t) F * M;
    for (int i = 0; i < f; i++) col[i] = 0.0;
    col[f] = piv;
    for (int i = 0; i < nr; i++) {
      double v = tmp[i] / piv;
      col[f + 1 + i] = v;
      d[f + 1 + i] -= v * v;
    }
    kept[F] = f;
    F++;
    if ((f & 31) == 31) R_CheckUserInterrupt();
  }
  return F;
}

/* Blocked (panel) version of kme_seqchol with the same result: for each panel
 * of P consecutive points, the residual columns against all previous basis
 * columns come from one dgemm (BLAS-3), then the skip decisions and rank-1
 * updates run sequentially inside the panel.  R is an M x P workspace. */
int kme_seqchol_blocked(double *A, int M, double tol, int P, int *kept, double *d)
{
  double *diag0 = (double *) R_alloc(M > 0 ? M : 1, sizeof(double));
  double *R = (double *) R_alloc((size_t) M * P, sizeof(double));
  int *cand = (int *) R_alloc(P, sizeof(int));
  double *Bm = (double *) R_alloc((size_t) M * P, sizeof(double));
  double one = 1.0, mone = -1.0;
  /* d holds the current residual diagonal of every point (exact at visit) */
  for (int i = 0; i < M; i++) diag0[i] = d[i] = A[i + (R_xlen_t) i * M];
  int F = 0;
  for (int f0 = 0; f0 < M; f0 += P) {
    int pb = (M - f0) < P ? (M - f0) : P, nr = M - f0, pc = 0;
    /* residuals only decrease: points already below the threshold are
       skipped without computing their residual column */
    for (int j = 0; j < pb; j++) if (d[f0 + j] > tol * diag0[f0 + j]) cand[pc++] = j;
    for (int c = 0; c < pc; c++)
      memcpy(R + (size_t) c * nr, A + f0 + (R_xlen_t) (f0 + cand[c]) * M, (size_t) nr * sizeof(double));
    if (F > 0 && pc > 0) {
      /* Bm (pc x F) = the candidates' rows of L */
      for (int l = 0; l < F; l++)
        for (int c = 0; c < pc; c++) Bm[c + (size_t) l * pc] = A[f0 + cand[c] + (R_xlen_t) l * M];
      F77_CALL(dgemm)("N", "T", &nr, &pc, &F, &mone, A + f0, &M, Bm, &pc, &one, R, &nr FCONE FCONE);
    }
    for (int c = 0; c < pc; c++) {
      int j = cand[c], f = f0 + j;
      double *rj = R + (size_t) c * nr;
      if (!(d[f] > tol * diag0[f])) continue;
      double piv = sqrt(d[f]);
      rj[j] = piv;
      for (int i = j + 1; i < nr; i++) {
        rj[i] /= piv;
        d[f0 + i] -= rj[i] * rj[i];
      }
      for (int q = c + 1; q < pc; q++) {
        double *rq = R + (size_t) q * nr;
        double cc = rj[cand[q]];
        if (cc != 0.0) for (int i = j + 1; i < nr; i++) rq[i] -= cc * rj[i];
      }
      /* column F of A <- L column (the panel's K columns are already copied) */
      double *col = A + (R_xlen_t) F * M;
      for (int i = 0; i < f; i++) col[i] = 0.0;
      for (int i = j; i < nr; i++) col[f0 + i] = rj[i];
      kept[F] = f;
      F++;
    }
    R_CheckUserInterrupt();
  }
  return F;
}

/* Pivoted variant: at each step the point of largest relative residual
 * d_i / K_ii, while above tol.  K (M x M) is read, L (M x M) written apart
 * (pivoting reads arbitrary columns of K).  kept, d as kme_seqchol(). */
int kme_seqchol_pivoted(const double *K, int M, double tol, double *L, int *kept, double *d)
{
  double *diag0 = (double *) R_alloc(M, sizeof(double));
  int *done = (int *) R_alloc(M, sizeof(int));
  double *tmp = (double *) R_alloc(M > 0 ? M : 1, sizeof(double));
  double *lrow = (double *) R_alloc(M > 0 ? M : 1, sizeof(double));
  double one = 1.0, mone = -1.0;
  int inc1 = 1;
  for (int i = 0; i < M; i++) { diag0[i] = d[i] = K[i + (R_xlen_t) i * M]; done[i] = 0; }
  int F = 0;
  for (int step = 0; step < M; step++) {
    int f = -1;
    double best = 0.0;
    for (int i = 0; i < M; i++) {
      if (done[i]) continue;
      double r = diag0[i] > 0 ? d[i] / diag0[i] : 0.0;
      if (f < 0 || r > best) { best = r; f = i; }
    }
    if (f < 0 || !(best > tol)) break;
    done[f] = 1;
    double pv = sqrt(d[f]);
    memcpy(tmp, K + (R_xlen_t) f * M, (size_t) M * sizeof(double));
    if (F > 0) {
      for (int c = 0; c < F; c++) lrow[c] = L[f + (R_xlen_t) c * M];
      F77_CALL(dgemv)("N", &M, &F, &mone, L, &M, lrow, &inc1, &one, tmp, &inc1 FCONE);
    }
    double *col = L + (R_xlen_t) F * M;
    for (int i = 0; i < M; i++) {
      if (i == f) col[i] = pv;
      else if (!done[i]) { double v = tmp[i] / pv; col[i] = v; d[i] -= v * v; }
      else col[i] = 0.0;
    }
    kept[F] = f;
    F++;
    if ((step & 31) == 31) R_CheckUserInterrupt();
  }
  return F;
}


/* ---- random Fourier features (cos/sin pairs) ----------------------------- */

/* phi(x) = s * [cos(W'x), sin(W'x)] with s = sqrt(variance / J'), so that
 * ||phi(x)||^2 = variance exactly (cos^2 + sin^2 = 1).  W: D x J'.
 * mean = 1: out is the 2J' vector of column means over the N rows of X;
 * mean = 0: out is the N x 2J' feature matrix. */
void kme_rff(const double *X, R_xlen_t N, int D, const double *W, int Jp, double scale,
                    int mean, int chunk, double *out)
{
  /* per chunk of rows (column-major copy) and frequency: the angles by an
     axpy over the small dimension (vectorisable), then sine and cosine */
  double *xc = (double *) R_alloc((size_t) chunk * D, sizeof(double));
  double *th = (double *) R_alloc((size_t) chunk, sizeof(double));
  double *sv = (double *) R_alloc((size_t) chunk, sizeof(double));
  double *cv = (double *) R_alloc((size_t) chunk, sizeof(double));
  long double *acc = NULL;
  if (mean) {
    acc = alloc_long_double((size_t) 2 * Jp);
    for (int j = 0; j < 2 * Jp; j++) acc[j] = 0.0L;
  }
  for (R_xlen_t n0 = 0; n0 < N; n0 += chunk) {
    int nb = (int) ((N - n0) < chunk ? (N - n0) : chunk);
    for (int k = 0; k < D; k++)
      memcpy(xc + (size_t) k * nb, X + n0 + (R_xlen_t) k * N, (size_t) nb * sizeof(double));
    for (int j = 0; j < Jp; j++) {
      kme_angles(xc, nb, D, W + (size_t) j * D, th);
      kme_sincos_block(th, nb, sv, cv);
      if (mean) {
        double sc = 0.0, ss = 0.0;   /* in order: the sums as before, bit for bit */
        for (int i = 0; i < nb; i++) { sc += cv[i]; ss += sv[i]; }
        acc[j] += (long double) sc;
        acc[Jp + j] += (long double) ss;
      } else {
        double *oc = out + n0 + (R_xlen_t) j * N, *os = out + n0 + (R_xlen_t) (Jp + j) * N;
        for (int i = 0; i < nb; i++) {
          oc[i] = scale * cv[i];
          os[i] = scale * sv[i];
        }
      }
    }
    R_CheckUserInterrupt();
  }
  if (mean) for (int j = 0; j < 2 * Jp; j++) out[j] = scale * (double) (acc[j] / (long double) N);
}

/* ---- greedy pre-images (Adam) -------------------------------------------- */


/* ---- greedy pre-images (Adam) -------------------------------------------- */

/* A(z) = Psi' phi(z) and its gradient for cos/sin features (||phi|| const).
 * theta: 3 Jp doubles of workspace (the angles, then their sines and
 * cosines, computed in one vectorised pass). */
double kme_pre_objective(const double *Psi, const double *W, int Jp, int D, double scale,
                                const double *z, double *theta, double *grad)
{
  double *sn = theta + Jp, *cs = theta + 2 * (size_t) Jp;
  for (int j = 0; j < Jp; j++) {
    double t = 0.0;
    const double *w = W + (size_t) j * D;
    for (int k = 0; k < D; k++) t += w[k] * z[k];
    theta[j] = t;
  }
  kme_sincos_block(theta, Jp, sn, cs);
  double A = 0.0;
  if (grad) for (int k = 0; k < D; k++) grad[k] = 0.0;
  for (int j = 0; j < Jp; j++) {
    double c = cs[j], s = sn[j];
    A += Psi[j] * c + Psi[Jp + j] * s;
    if (grad) {
      double g = -Psi[j] * s + Psi[Jp + j] * c;
      const double *w = W + (size_t) j * D;
      for (int k = 0; k < D; k++) grad[k] += g * w[k];
    }
  }
  if (grad) for (int k = 0; k < D; k++) grad[k] *= scale;
  return scale * A;
}

/* One pre-image: iters Adam steps (adam = {beta1, beta2, lr[D], eps[D]}: a
 * step and an epsilon per coordinate, so that with lengthscales that differ by
 * coordinate the search is the same in any units) from z (D, updated in
 * place) on the loss -A(z)^2 / ||phi||^2, clamped to the box [lo, hi] where
 * given.  Work: theta (3 Jp), g, mv, vv (D). */
static void kme_adam(const double *Psi, const double *W, int Jp, int D, double sc, int iters,
                     const double *adam, const double *lo, const double *hi, double *z,
                     double *theta, double *g, double *mv, double *vv)
{
  double b1 = adam[0], b2 = adam[1];
  const double *lr = adam + 2, *eps = adam + 2 + D;
  double phinorm2 = sc * sc * Jp;   /* ||phi(z)||^2 */
  for (int k = 0; k < D; k++) mv[k] = vv[k] = 0.0;
  double p1 = 1.0, p2 = 1.0;
  for (int t = 1; t <= iters; t++) {
    double A = kme_pre_objective(Psi, W, Jp, D, sc, z, theta, g);
    /* loss L = -A^2 / ||phi||^2, gradient -2 A grad(A) / ||phi||^2 */
    for (int k = 0; k < D; k++) g[k] = -2.0 * A * g[k] / phinorm2;
    p1 *= b1; p2 *= b2;
    double step = sqrt(1.0 - p2) / (1.0 - p1);
    for (int k = 0; k < D; k++) {
      mv[k] = b1 * mv[k] + (1.0 - b1) * g[k];
      vv[k] = b2 * vv[k] + (1.0 - b2) * g[k] * g[k];
      z[k] -= lr[k] * step * mv[k] / (sqrt(vv[k]) + eps[k]);
      if (lo && z[k] < lo[k]) z[k] = lo[k];
      if (hi && z[k] > hi[k]) z[k] = hi[k];
    }
    if ((t & 1023) == 0) R_CheckUserInterrupt();
  }
}

/* Greedy pre-images of target (2 Jp) for the features of W (D x Jp, scale
 * sc): for each of the M start points (Zinit, M x D) in turn, Adam on z,
 * then the residual target loses its projection on phi(z).  Zout (M x D),
 * beta (M: the weights) and rnorm (M: the residual norms after each). */
void kme_greedy(const double *target, const double *W, int D, int Jp, double sc,
                const double *Zinit, int M, int iters, const double *adam, const double *lo,
                const double *hi, double *Zout, double *beta, double *rnorm)
{
  double *Psi = (double *) R_alloc(2 * (size_t) Jp, sizeof(double));
  memcpy(Psi, target, 2 * (size_t) Jp * sizeof(double));
  double *theta = (double *) R_alloc(3 * (size_t) Jp, sizeof(double));
  double *z = (double *) R_alloc(D, sizeof(double)), *g = (double *) R_alloc(D, sizeof(double));
  double *mv = (double *) R_alloc(D, sizeof(double)), *vv = (double *) R_alloc(D, sizeof(double));
  double phinorm2 = sc * sc * Jp;   /* ||phi(z)||^2 */
  for (int m = 0; m < M; m++) {
    for (int k = 0; k < D; k++) z[k] = Zinit[m + (R_xlen_t) k * M];
    kme_adam(Psi, W, Jp, D, sc, iters, adam, lo, hi, z, theta, g, mv, vv);
    double A = kme_pre_objective(Psi, W, Jp, D, sc, z, theta, NULL);
    double b = A / phinorm2, r2 = 0.0;
    for (int j = 0; j < Jp; j++) {
      Psi[j] -= b * sc * cos(theta[j]);
      Psi[Jp + j] -= b * sc * sin(theta[j]);
    }
    for (int j = 0; j < 2 * Jp; j++) r2 += Psi[j] * Psi[j];
    for (int k = 0; k < D; k++) Zout[m + (R_xlen_t) k * M] = z[k];
    beta[m] = b;
    rnorm[m] = sqrt(r2);
    R_CheckUserInterrupt();
  }
}

/* ---- Lasso by coordinate descent (Gram form) ----------------------------- */

/* The duality gap of w (r = c - G w): primal P = yy - 2c'w + w'Gw +
 * lam|w|_1; the residual rho = y - Phi'w has ||rho||^2 = yy - 2c'w + w'Gw,
 * rho'y = yy - c'w, Phi rho = r; dual point theta = s rho with
 * s = min(1, lam / (2 max|r|)). */
static double kme_lasso_gap(const double *cp, const double *wp, const double *r, int M, double y2,
                            double lam)
{
  double cw = 0.0, wGw = 0.0, l1 = 0.0, rmax = 0.0;
  for (int i = 0; i < M; i++) {
    cw += cp[i] * wp[i];
    wGw += wp[i] * (cp[i] - r[i]);   /* (G w)_i = c_i - r_i */
    l1 += fabs(wp[i]);
    if (fabs(r[i]) > rmax) rmax = fabs(r[i]);
  }
  double rr = y2 - 2.0 * cw + wGw;
  if (rr < 0) rr = 0;
  double P = rr + lam * l1;
  double s = rmax > 0 ? lam / (2.0 * rmax) : 1.0;
  if (s > 1.0) s = 1.0;
  double Dual = 2.0 * s * (y2 - cw) - s * s * rr;
  return P - Dual;
}

/* minimise yy - 2 c'w + w'Gw + lambda ||w||_1 (= ||y - Phi'w||^2 + lambda||w||_1
 * with G = Phi Phi' (M x M), c = Phi y, yy = ||y||^2) from w (updated in
 * place).  Stops when the duality gap (*gap) is at most tol * yy.  Returns
 * the number of sweeps (at most maxit). */
int kme_lasso(const double *Gp, const double *cp, int M, double y2, double lam, int mx, double tl,
              double *wp, double *gap)
{
  double *r = (double *) R_alloc(M > 0 ? M : 1, sizeof(double));   /* r = c - G w */
  for (int i = 0; i < M; i++) r[i] = cp[i];
  for (int j = 0; j < M; j++) if (wp[j] != 0.0)
    for (int i = 0; i < M; i++) r[i] -= Gp[i + (R_xlen_t) j * M] * wp[j];
  *gap = R_PosInf;
  int sweep;
  for (sweep = 1; sweep <= mx; sweep++) {
    for (int j = 0; j < M; j++) {
      double gjj = Gp[j + (R_xlen_t) j * M];
      if (!(gjj > 0)) continue;
      double rho = r[j] + gjj * wp[j];
      double a = fabs(rho) - lam / 2.0;
      double nw = a > 0 ? (rho > 0 ? a : -a) / gjj : 0.0;
      double dw = nw - wp[j];
      if (dw != 0.0) {
        const double *gc = Gp + (R_xlen_t) j * M;
        for (int i = 0; i < M; i++) r[i] -= gc[i] * dw;
        wp[j] = nw;
      }
    }
    *gap = kme_lasso_gap(cp, wp, r, M, y2, lam);
    if (*gap <= tl * y2) break;
    if ((sweep & 15) == 0) R_CheckUserInterrupt();
  }
  return sweep > mx ? mx : sweep;
}
