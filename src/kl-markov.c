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
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "dpfda.h"

#define KL_MARKOV_COND 1e6

/* .Call: list(values, vectors (n x J), n_positive) as dpfda_iclp_basis(), or
 * NULL when this route does not apply (the caller uses the dense one).
 * t: sorted grid; w: positive weights; gamma = 1 / lengthscale; variance v;
 * J: -1 (all above tol) or the number to keep. */
SEXP dpfda_kl_markov_basis(SEXP t, SEXP w, SEXP gamma, SEXP variance, SEXP tol, SEXP J)
{
  int n = (int) XLENGTH(t);
  if (TYPEOF(t) != REALSXP || TYPEOF(w) != REALSXP || XLENGTH(w) != n || n < 2)
    Rf_error("dpfda_kl_markov_basis: bad arguments");
  const double *pt = REAL(t), *pw = REAL(w);
  double g = Rf_asReal(gamma), v = Rf_asReal(variance), tl = Rf_asReal(tol);
  int Jk = Rf_asInteger(J);
  if (!(g > 0.0 && R_FINITE(g) && v > 0.0 && R_FINITE(v) && tl >= 0.0 && tl < 1.0)) return R_NilValue;
  double *d = (double *) R_alloc(n, sizeof(double));
  double *e = (double *) R_alloc(n, sizeof(double));
  double *sw = (double *) R_alloc(n, sizeof(double));
  for (int i = 0; i < n; i++) {
    if (!(pw[i] > 0.0 && R_FINITE(pw[i]) && R_FINITE(pt[i]))) return R_NilValue;
    sw[i] = sqrt(pw[i]);
  }
  /* v K^{-1} row by row: the previous gap (q_{i-1}) and the next (r_i, q_i) */
  double qprev = 0.0;   /* q_{i-1} */
  for (int i = 0; i < n; i++) {
    double diag = i > 0 ? 1.0 / qprev : 0.0;
    if (i < n - 1) {
      double dt = pt[i + 1] - pt[i];
      if (!(dt > 0.0)) return R_NilValue;              /* repeated or unsorted points */
      double r = exp(-g * dt), q = -expm1(-2.0 * g * dt);
      if (!(q > 0.0)) return R_NilValue;
      diag += (i == 0 ? 1.0 : r * r) / q;              /* first row: 1/q_1 = 1 + r^2/q */
      e[i] = -r / q / (v * sw[i] * sw[i + 1]);
      qprev = q;
    }
    d[i] = diag / (v * pw[i]);
    if (!R_FINITE(d[i]) || (i < n - 1 && !R_FINITE(e[i]))) return R_NilValue;
  }
  /* all eigenvalues of T, ascending (dsterf destroys its copies) */
  double *mu = (double *) R_alloc(n, sizeof(double));
  double *ec = (double *) R_alloc(n, sizeof(double));
  memcpy(mu, d, (size_t) n * sizeof(double));
  memcpy(ec, e, (size_t) (n - 1) * sizeof(double));
  ec[n - 1] = 0.0;
  int info = 0;
  F77_CALL(dsterf)(&n, mu, ec, &info);
  if (info != 0 || !(mu[0] > 0.0) || mu[n - 1] > KL_MARKOV_COND * mu[0]) return R_NilValue;
  /* lambda_j = 1/mu_j > tol * lambda_1  <=>  tol * mu_j < mu_1 */
  int npos = 0;
  while (npos < n && tl * mu[npos] < mu[0]) npos++;
  int keep = (Jk > 0 && Jk < npos) ? Jk : npos;
  double *val = (double *) R_alloc(n, sizeof(double));
  SEXP rv = PROTECT(Rf_allocVector(REALSXP, keep));
  SEXP rV = PROTECT(Rf_allocMatrix(REALSXP, n, keep));
  double *U = REAL(rV);
  info = dpfda_tridiag_range(n, d, e, 1, keep, val, U);   /* (dstedc: 2x slower at n = 500) */
  if (info != 0) {
    UNPROTECT(2);
    return R_NilValue;
  }
  /* ascending mu = descending lambda; eigenfunctions as in iclp.c, in place */
  for (int j = 0; j < keep; j++) {
    double *u = U + (size_t) j * n;
    dpfda_kl_eigenfunction(u, n, sw, u);
    REAL(rv)[j] = 1.0 / val[j];
  }
  SEXP out = dpfda_kl_basis_list(rv, rV, npos);
  UNPROTECT(2);
  return out;
}
