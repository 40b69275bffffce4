/* svm.c -- bias-free kernel SVM by dual coordinate ascent (Hall et al., Sec. 4.3).
 *
 * Primal (paper, eq. 12, hinge loss, no intercept), with public weights c_i
 * (c_i = 1/n in the paper; c_i = 1 / (n_units k_i) when a privacy unit with
 * k_i rows weighs 1 as a whole, R/erm-core.R):
 *   min_g  P(g) = sum_i c_i (1 - y_i g(x_i))_+ + lambda ||g||_H^2.
 * Dual, with Q_ij = y_i y_j K_ij:
 *   max_b  D(b) = sum_i b_i - (1/(4 lambda)) b'Qb,   0 <= b_i <= c_i,
 * and g = sum_i a_i K(x_i, .) with a_i = b_i y_i / (2 lambda).
 *
 * We keep u = K (b o y), so that (Qb)_i = y_i u_i and g(x_i) = u_i / (2 lambda).
 * One coordinate step maximises D exactly in b_i (clipped Newton step,
 * exact because D is quadratic):
 *   G_i = 1 - y_i u_i / (2 lambda),  b_i <- clip(b_i + 2 lambda G_i / K_ii, 0, c_i),
 * and u is updated by one column of K in O(n) when b_i moves.
 *
 * The duality gap at the primal point g_b defined by b,
 *   gap = P(g_b) - D(b)
 *       = sum_i c_i (1 - y_i u_i/(2 lambda))_+ + b'Qb/(2 lambda) - sum_i b_i,
 * bounds P(g_b) - min P, hence (2 lambda-strong convexity of P)
 * ||g_b - f_D||_H^2 <= gap / lambda.  We stop when gap <= gap_tol.  The gap
 * used for stopping is recomputed from an exact u = K (b o y) before we
 * accept it, so rounding drift in the incremental updates cannot fake it.
 *
 * Sweep order: each sweep visits every coordinate once, in a fresh random
 * permutation drawn from a private splitmix64 generator with a FIXED seed.
 * The result is therefore a deterministic function of the data (reproducible
 * whatever R's seed) and R's random-number stream is left untouched, while
 * keeping the better convergence of randomly permuted sweeps.  This is the
 * optimiser only: privacy noise never comes from here.  The .Call glue is in
 * svm-call.c.
 */
#include <stdint.h>
#include <string.h>
#include "dpfda.h"

#define SVM_PERM_SEED 0x5DEECE66D2024ULL
#define SVM_REFRESH   64    /* recompute u exactly every this many sweeps */

static uint64_t splitmix64(uint64_t *state)
{
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Fisher-Yates shuffle of perm[0..n-1] in place. */
static void shuffle(int *perm, int n, uint64_t *state)
{
  for (int k = n - 1; k > 0; k--) {
    /* 53 random bits -> uniform on [0, 1); bias is far below 2^-20 */
    double u = (double) (splitmix64(state) >> 11) * 0x1.0p-53;
    int j = (int) (u * (double) (k + 1));
    if (j > k) j = k;
    int t = perm[k]; perm[k] = perm[j]; perm[j] = t;
  }
}

/* u = K (b o y), using only the columns with b_i > 0. */
static void svm_exact_u(const double *K, const double *y, const double *b, int n,
                        double *u)
{
  memset(u, 0, (size_t) n * sizeof(double));
  for (int i = 0; i < n; i++) {
    if (b[i] == 0.0) continue;
    const double c = b[i] * y[i];
    const double *Ki = K + (size_t) i * n;
    for (int j = 0; j < n; j++) u[j] += c * Ki[j];
  }
}

/* Duality gap P(g_b) - D(b), see the header comment. */
static double svm_gap(const double *y, const double *cap, const double *b, const double *u,
                     int n, double lambda)
{
  const double inv2l = 1.0 / (2.0 * lambda);
  double hinge = 0.0, quad = 0.0, lin = 0.0;
  for (int i = 0; i < n; i++) {
    double m = y[i] * u[i] * inv2l;          /* y_i g(x_i) */
    if (m < 1.0) hinge += cap[i] * (1.0 - m);
    quad += b[i] * y[i] * u[i];              /* b'Qb */
    lin += b[i];
  }
  return hinge + quad * inv2l - lin;
}

/* Solve the bias-free SVM dual.  K: n x n Gram matrix (column-major), y in
 * {-1, +1}, cap the weights c_i (the box of b_i, summing to 1).  On return b
 * holds the dual solution, u = K (b o y), *gap the
 * duality gap (from an exact u) and *iter the number of sweeps.  Returns 1
 * when gap <= gap_tol, 0 when maxit sweeps were not enough. */
static int svm_dual_cd(const double *K, const double *y, const double *cap, int n, double lambda,
                      double gap_tol, int maxit, double *b, double *u,
                      double *gap, int *iter)
{
  const double twol = 2.0 * lambda, inv2l = 1.0 / twol;
  int *perm = (int *) R_alloc((size_t) n, sizeof(int));
  uint64_t state = SVM_PERM_SEED;
  for (int i = 0; i < n; i++) { perm[i] = i; b[i] = 0.0; u[i] = 0.0; }
  *gap = svm_gap(y, cap, b, u, n, lambda);   /* = 1 at b = 0 */
  *iter = 0;
  if (*gap <= gap_tol) return 1;

  for (int sweep = 1; sweep <= maxit; sweep++) {
    shuffle(perm, n, &state);
    for (int k = 0; k < n; k++) {
      const int i = perm[k];
      const double *Ki = K + (size_t) i * n;
      const double G = 1.0 - y[i] * u[i] * inv2l;
      double nb;
      if (Ki[i] > 0.0) {
        nb = b[i] + twol * G / Ki[i];
      } else {
        /* K_ii = 0 for a PSD K means column i is zero: D is linear in b_i */
        nb = G > 0.0 ? cap[i] : 0.0;
      }
      if (nb < 0.0) nb = 0.0; else if (nb > cap[i]) nb = cap[i];
      const double d = nb - b[i];
      if (d != 0.0) {
        b[i] = nb;
        const double c = d * y[i];
        for (int j = 0; j < n; j++) u[j] += c * Ki[j];
      }
    }
    *iter = sweep;
    if (sweep % SVM_REFRESH == 0) svm_exact_u(K, y, b, n, u);
    *gap = svm_gap(y, cap, b, u, n, lambda);
    if (*gap <= gap_tol) {
      /* confirm with an exact u before stopping */
      svm_exact_u(K, y, b, n, u);
      *gap = svm_gap(y, cap, b, u, n, lambda);
      if (*gap <= gap_tol) return 1;
    }
    R_CheckUserInterrupt();
  }
  svm_exact_u(K, y, b, n, u);
  *gap = svm_gap(y, cap, b, u, n, lambda);
  return *gap <= gap_tol;
}

/* The fit for the n x n Gram matrix K, labels y (+-1) and weights cap: dual b (n), the
 * coefficients a (n) of g = sum_i a_i K(x_i, .), the final gap and sweeps.
 * Returns 1 when the gap reached gap_tol within maxit sweeps. */
int dpfda_svm(const double *K, const double *y, const double *cap, int n, double lambda,
              double gap_tol, int maxit, double *b, double *a, double *gap, int *iter)
{
  double *u = (double *) R_alloc((size_t) n, sizeof(double));
  *gap = 0.0;
  *iter = 0;
  int conv = svm_dual_cd(K, y, cap, n, lambda, gap_tol, maxit, b, u, gap, iter);
  for (int i = 0; i < n; i++) a[i] = b[i] * y[i] / (2.0 * lambda);
  return conv;
}
