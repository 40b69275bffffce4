/* linalg.c -- Cholesky with a jitter ladder and symmetric eigendecomposition
 * (leading eigenpairs by MRRR).  One .Call entry point, the short glue at
 * the end.
 *
 * Privacy rule: noise covariances may only grow.  The ladder therefore adds
 * tau * I to the diagonal (never clips eigenvalues), and its first rung is at
 * least 10 * n * eps * max(diag) so that the rounding error of the
 * factorisation (about n * eps * max(diag)) is dominated by the jitter and
 * L L^T >= A still holds in exact arithmetic.
 */
#include <float.h>
#include <string.h>
#include "asserts.h"

int dpfda_chol_jitter(double *A, int n, double tau0, double tau_max,
                      double *tau_used)
{
  size_t nn = (size_t) n * (size_t) n;
  double *orig = (double *) R_alloc(nn, sizeof(double));
  memcpy(orig, A, nn * sizeof(double));
  double dmax = 0.0;
  for (int i = 0; i < n; i++) if (A[i + (size_t) i * n] > dmax) dmax = A[i + (size_t) i * n];
  if (!(dmax > 0.0)) dmax = 1.0;
  double floor_tau = 10.0 * n * DBL_EPSILON * dmax;
  double tau = tau0 > 0.0 ? tau0 : 0.0;
  if (tau > 0.0 && tau < floor_tau) tau = floor_tau;
  int info = 0;
  for (;;) {
    if (tau > 0.0)
      for (int i = 0; i < n; i++) A[i + (size_t) i * n] = orig[i + (size_t) i * n] + tau;
    F77_CALL(dpotrf)("L", &n, A, &n, &info FCONE);
    if (info == 0) break;
    tau = tau > 0.0 ? 10.0 * tau : floor_tau;
    if (tau > tau_max) { *tau_used = tau / 10.0; return info; }
    memcpy(A, orig, nn * sizeof(double));
    R_CheckUserInterrupt();
  }
  for (int j = 1; j < n; j++)
    memset(A + (size_t) j * n, 0, (size_t) j * sizeof(double));
  *tau_used = tau;
  return 0;
}

/* dstemr is not declared in R_ext/Lapack.h (R's LAPACK has it: dsyevr calls it). */
extern void F77_NAME(dstemr)(const char *jobz, const char *range, const int *n, double *d,
                             double *e, const double *vl, const double *vu, const int *il,
                             const int *iu, int *m, double *w, double *z, const int *ldz,
                             const int *nzc, int *isuppz, int *tryrac, double *work,
                             const int *lwork, int *iwork, const int *liwork, int *info
                             FCLEN FCLEN);

/* Tridiagonal reduction of the symmetric A (lower triangle, overwritten by
 * dsytrd's reflectors) and all its eigenvalues, ascending (dsterf, O(n^2)).
 * d, e, tau, ev: n, n, n (tau needs n - 1), n doubles.  Returns the LAPACK
 * info. */
int dpfda_tridiag_values(double *A, int n, double *d, double *e, double *tau, double *ev)
{
  int info = 0, lwork = -1;
  double wq;
  F77_CALL(dsytrd)("L", &n, A, &n, d, e, tau, &wq, &lwork, &info FCONE);
  if (info != 0) return info;
  lwork = (int) wq;
  double *work = (double *) R_alloc(lwork > 1 ? lwork : 1, sizeof(double));
  F77_CALL(dsytrd)("L", &n, A, &n, d, e, tau, work, &lwork, &info FCONE);
  if (info != 0) return info;
  double *ec = (double *) R_alloc(n, sizeof(double));
  memcpy(ev, d, (size_t) n * sizeof(double));
  memcpy(ec, e, (size_t) n * sizeof(double));
  F77_CALL(dsterf)(&n, ev, ec, &info);   /* ascending */
  return info;
}

/* Eigenpairs il..iu (1-based, ascending) of the symmetric tridiagonal matrix
 * with diagonal d and subdiagonal e (n - 1 entries; not changed) by MRRR
 * (dstemr, range "A" when all are wanted: dqds instead of bisection).
 * values (iu - il + 1) and vectors (n x (iu - il + 1)) ascending; nothing
 * else is written (dstemr's own eigenvalue array must be n long).  Returns
 * the LAPACK info (-1000 if dstemr found fewer eigenpairs). */
int dpfda_tridiag_range(int n, const double *d, const double *e, int il, int iu, double *values,
                        double *vectors)
{
  int keep = iu - il + 1;
  if (keep <= 0) return 0;
  int info = 0, lwork = -1, m = 0, tryrac = 1, liwork = -1, iwq;
  double wq, vl = 0.0, vu = 0.0;
  double *dc = (double *) R_alloc(n, sizeof(double));
  double *ec = (double *) R_alloc(n, sizeof(double));
  double *wv = (double *) R_alloc(n, sizeof(double));    /* dstemr's W: n long, whatever the range */
  int *isuppz = (int *) R_alloc(2 * (size_t) n, sizeof(int));
  memcpy(dc, d, (size_t) n * sizeof(double));
  memcpy(ec, e, (size_t) (n - 1) * sizeof(double));
  ec[n - 1] = 0.0;
  const char *range = keep == n ? "A" : "I";
  F77_CALL(dstemr)("V", range, &n, dc, ec, &vl, &vu, &il, &iu, &m, wv, vectors, &n, &keep,
                   isuppz, &tryrac, &wq, &lwork, &iwq, &liwork, &info FCONE FCONE);
  if (info != 0) return info;
  lwork = (int) wq;
  liwork = iwq;
  double *w2 = (double *) R_alloc(lwork > 1 ? lwork : 1, sizeof(double));
  int *iw2 = (int *) R_alloc(liwork > 1 ? liwork : 1, sizeof(int));
  tryrac = 1;
  F77_CALL(dstemr)("V", range, &n, dc, ec, &vl, &vu, &il, &iu, &m, wv, vectors, &n, &keep,
                   isuppz, &tryrac, w2, &lwork, iw2, &liwork, &info FCONE FCONE);
  if (info != 0) return info;
  if (m != keep) return -1000;
  memcpy(values, wv, (size_t) keep * sizeof(double));
  return 0;
}

/* The `keep` largest eigenpairs of the matrix reduced by
 * dpfda_tridiag_values() (A, d, e, tau as it left them): MRRR (dstemr) on
 * the index range n-keep+1..n of the tridiagonal matrix, then the
 * back-transformation of those vectors only (dormtr).  values (keep) and
 * vectors (n x keep) ASCENDING.  Returns the LAPACK info (-1000 if dstemr
 * found fewer eigenpairs). */
int dpfda_tridiag_vectors(double *A, int n, const double *d, const double *e, double *tau,
                          int keep, double *values, double *vectors)
{
  if (keep <= 0) return 0;
  int info = dpfda_tridiag_range(n, d, e, n - keep + 1, n, values, vectors);
  if (info != 0) return info;
  /* back-transform the kept eigenvectors: Z <- Q Z */
  int lwork = -1;
  double wq;
  F77_CALL(dormtr)("L", "L", "N", &n, &keep, A, &n, tau, vectors, &n, &wq, &lwork, &info
                   FCONE FCONE FCONE);
  if (info != 0) return info;
  lwork = (int) wq;
  double *w3 = (double *) R_alloc(lwork > 1 ? lwork : 1, sizeof(double));
  F77_CALL(dormtr)("L", "L", "N", &n, &keep, A, &n, tau, vectors, &n, w3, &lwork, &info
                   FCONE FCONE FCONE);
  return info;
}

/* Leading eigenpairs of the symmetric A (destroyed): the eigenvalues that are
 * > 0 and > tol * lambda_max, at most J of them when J > 0.  Same steps as
 * dsyevr (dsytrd, MRRR on the tridiagonal matrix, dormtr) but MRRR computes
 * only the kept eigenvectors and the back-transformation is applied to those
 * columns only: 4/3 n^3 + O(n^2 k) + 2 n^2 k flops instead of 4/3 n^3 + 2 n^3.
 * values (n) and vectors (n x k) are filled in ASCENDING order, k is returned
 * in *k; *npos receives the number above the tolerance.  Returns the LAPACK
 * info (0 on success). */
int dpfda_eigen_top(double *A, int n, double tol, int J, double *values, double *vectors,
                    int *k, int *npos)
{
  *k = 0;
  *npos = 0;
  double *d = (double *) R_alloc(n, sizeof(double));
  double *e = (double *) R_alloc(n, sizeof(double));
  double *tau = (double *) R_alloc(n, sizeof(double));
  double *ev = (double *) R_alloc(n, sizeof(double));
  int info = dpfda_tridiag_values(A, n, d, e, tau, ev);
  if (info != 0) return info;
  double l1 = ev[n - 1];
  int keep = 0;
  if (l1 > 0.0)
    for (int j = n - 1; j >= 0; j--) {
      if (ev[j] > 0.0 && ev[j] > tol * l1) keep++; else break;
    }
  *npos = keep;
  if (J > 0 && J < keep) keep = J;
  if (keep == 0) return 0;
  info = dpfda_tridiag_vectors(A, n, d, e, tau, keep, values, vectors);
  if (info != 0) return info;
  *k = keep;
  return 0;
}

/* ---- .Call glue ------------------------------------------------------------- */

/* .Call: list(L = lower factor, jitter = tau, info = LAPACK info) */
SEXP dpfda_chol_factor(SEXP A, SEXP tau0, SEXP tau_max)
{
  static const char *fn = "dpfda_chol_factor";
  int n;
  dpfda_arg_square(A, &n, fn, "A");
  double t0 = dpfda_arg_num(tau0, fn, "tau0"), tmax = dpfda_arg_num(tau_max, fn, "tau_max");
  SEXP L = PROTECT(Rf_duplicate(A));   /* keeps the attributes of A */
  double tau = 0.0;
  int info = dpfda_chol_jitter(REAL(L), n, t0, tmax, &tau);
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(out, 0, L);
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(tau));
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(info));
  static const char *const names[] = {"L", "jitter", "info"};
  dpfda_set_names(out, 3, names);
  UNPROTECT(2);
  return out;
}
