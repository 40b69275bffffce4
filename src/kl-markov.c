/* kl-markov.c -- the Karhunen-Loeve basis of the exponential (Ornstein-
 * Uhlenbeck) kernel k(s, t) = v exp(-gamma |s - t|) on a sorted 1-D grid,
 * without the n x n Gram matrix and without an n^3 step.
 *
 * The Gram matrix K of a Markov kernel has a tridiagonal inverse.  With
 * r_i = exp(-gamma (t_{i+1} - t_i)) and q_i = 1 - r_i^2 (as -expm1(-2 gamma dt),
 * no cancellation), the path is x_{i+1} = r_i x_i + sqrt(q_i) e_i, so
 *   v K^{-1}:  [1,1] = 1/q_1,  [n,n] = 1/q_{n-1},
 *              [i,i] = 1/q_{i-1} + r_i^2/q_i  (interior),  [i,i+1] = -r_i/q_i.
 * For the weighted Gram matrix A = W^{1/2} K W^{1/2} (iclp.c), T = A^{-1} =
 * W^{-1/2} K^{-1} W^{-1/2} is tridiagonal as well: A's eigenvalues are
 * lambda = 1/mu for the eigenvalues mu of T, with the same eigenvectors, the
 * largest lambda at the bottom of T's spectrum.  All mu by dqds (dsterf,
 * O(n^2)), the kept eigenvectors by MRRR on the index range 1..k (O(n k)).
 *
 * Accuracy: lambda_1 = 1/mu_1 is accurate to about eps * cond(A) relative
 * (mu_1 to eps * ||T||), where the dense route gives eps.  The basis is used
 * only when cond(A) = mu_n / mu_1 <= KL_MARKOV_COND (relative error below
 * 1e-10 at the largest eigenvalues); otherwise, and for repeated or unsorted
 * points, the caller is told to use the dense route.  The ICLP mechanisms
 * calibrate their noise to the basis they are given (V' W V = I, with its
 * eigenvalues), so privacy does not depend on which route made it.
 * The .Call glue is in kl-markov-call.c.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "dpfda.h"

#define KL_MARKOV_COND 1e6

/* T = v^{-1} W^{-1/2} K^{-1} W^{-1/2}: diagonal d (n), subdiagonal e (n - 1
 * used), and sw = sqrt(w).  0 when a weight or a point is not finite, a
 * weight not positive, the points are repeated or unsorted, or an entry of
 * T is not finite; else 1. */
static int kl_markov_tridiag(const double *pt, const double *pw, int n, double g, double v,
                             double *d, double *e, double *sw)
{
  for (int i = 0; i < n; i++) {
    if (!(pw[i] > 0.0 && R_FINITE(pw[i]) && R_FINITE(pt[i]))) return 0;
    sw[i] = sqrt(pw[i]);
  }
  /* v K^{-1} row by row: the previous gap (q_{i-1}) and the next (r_i, q_i) */
  double qprev = 0.0;   /* q_{i-1} */
  for (int i = 0; i < n; i++) {
    double diag = i > 0 ? 1.0 / qprev : 0.0;
    if (i < n - 1) {
      double dt = pt[i + 1] - pt[i];
      if (!(dt > 0.0)) return 0;                       /* repeated or unsorted points */
      double r = exp(-g * dt), q = -expm1(-2.0 * g * dt);
      if (!(q > 0.0)) return 0;
      diag += (i == 0 ? 1.0 : r * r) / q;              /* first row: 1/q_1 = 1 + r^2/q */
      e[i] = -r / q / (v * sw[i] * sw[i + 1]);
      qprev = q;
    }
    d[i] = diag / (v * pw[i]);
    if (!R_FINITE(d[i]) || (i < n - 1 && !R_FINITE(e[i]))) return 0;
  }
  return 1;
}

/* The first step of the route for the sorted grid t (n >= 2), weights w,
 * gamma = 1 / lengthscale g, variance v: T into d, e (n each), sqrt(w) into
 * sw, and into *npos the number of eigenvalues above tol * lambda_1.
 * Returns 1, or 0 when the route does not apply (the caller uses the dense
 * one). */
int dpfda_kl_markov_setup(const double *t, const double *w, int n, double g, double v, double tol,
                          double *d, double *e, double *sw, int *npos)
{
  if (!(g > 0.0 && R_FINITE(g) && v > 0.0 && R_FINITE(v) && tol >= 0.0 && tol < 1.0)) return 0;
  if (!kl_markov_tridiag(t, w, n, g, v, d, e, sw)) return 0;
  /* all eigenvalues of T, ascending (dsterf destroys its copies) */
  double *mu = (double *) R_alloc(n, sizeof(double));
  double *ec = (double *) R_alloc(n, sizeof(double));
  memcpy(mu, d, (size_t) n * sizeof(double));
  memcpy(ec, e, (size_t) (n - 1) * sizeof(double));
  ec[n - 1] = 0.0;
  int info = 0;
  F77_CALL(dsterf)(&n, mu, ec, &info);
  if (info != 0 || !(mu[0] > 0.0) || mu[n - 1] > KL_MARKOV_COND * mu[0]) return 0;
  /* lambda_j = 1/mu_j > tol * lambda_1  <=>  tol * mu_j < mu_1 */
  int k = 0;
  while (k < n && tol * mu[k] < mu[0]) k++;
  *npos = k;
  return 1;
}

/* The second step: the keep largest eigenvalues (values, descending) and
 * eigenfunctions (vectors, n x keep) from d, e, sw of dpfda_kl_markov_setup().
 * Returns 0, or the LAPACK info. */
int dpfda_kl_markov_vectors(const double *d, const double *e, const double *sw, int n, int keep,
                            double *values, double *vectors)
{
  double *val = (double *) R_alloc(n, sizeof(double));
  int info = dpfda_tridiag_range(n, d, e, 1, keep, val, vectors);   /* (dstedc: 2x slower at n = 500) */
  if (info != 0) return info;
  /* ascending mu = descending lambda; eigenfunctions as in iclp.c, in place */
  for (int j = 0; j < keep; j++) {
    double *u = vectors + (size_t) j * n;
    dpfda_kl_eigenfunction(u, n, sw, u);
    values[j] = 1.0 / val[j];
  }
  return 0;
}
