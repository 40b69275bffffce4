/* linalg.c -- Cholesky with a jitter ladder and symmetric eigendecomposition.
 *
 * Privacy rule: noise covariances may only grow.  The ladder therefore adds
 * tau * I to the diagonal (never clips eigenvalues), and its first rung is at
 * least 10 * n * eps * max(diag) so that the rounding error of the
 * factorisation (about n * eps * max(diag)) is dominated by the jitter and
 * L L^T >= A still holds in exact arithmetic.
 */
#include <float.h>
#include <string.h>
#include "dpfda.h"

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

/* All eigenpairs of the symmetric A (destroyed), ascending, via dsyevr with
 * a workspace query.  Returns the LAPACK info. */
int dpfda_eigen_sym(double *A, int n, double *values, double *vectors)
{
  int m, info, lwork = -1, liwork = -1, iwq;
  double wq, vl = 0.0, vu = 0.0, abstol = 0.0;
  int il = 1, iu = n;
  int *isuppz = (int *) R_alloc(2 * (size_t) (n > 0 ? n : 1), sizeof(int));
  F77_CALL(dsyevr)("V", "A", "L", &n, A, &n, &vl, &vu, &il, &iu, &abstol, &m,
                   values, vectors, &n, isuppz, &wq, &lwork, &iwq, &liwork,
                   &info FCONE FCONE FCONE);
  if (info != 0) return info;
  lwork = (int) wq;
  liwork = iwq;
  double *work = (double *) R_alloc(lwork, sizeof(double));
  int *iwork = (int *) R_alloc(liwork, sizeof(int));
  F77_CALL(dsyevr)("V", "A", "L", &n, A, &n, &vl, &vu, &il, &iu, &abstol, &m,
                   values, vectors, &n, isuppz, work, &lwork, iwork, &liwork,
                   &info FCONE FCONE FCONE);
  return info;
}

/* .Call: list(L = lower factor, jitter = tau, info = LAPACK info) */
SEXP dpfda_chol_factor(SEXP A, SEXP tau0, SEXP tau_max)
{
  int n = Rf_nrows(A);
  SEXP L = PROTECT(Rf_duplicate(A));
  double tau = 0.0;
  int info = dpfda_chol_jitter(REAL(L), n, Rf_asReal(tau0), Rf_asReal(tau_max), &tau);
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(out, 0, L);
  SET_VECTOR_ELT(out, 1, Rf_ScalarReal(tau));
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(info));
  static const char *const names[] = {"L", "jitter", "info"};
  dpfda_set_names(out, 3, names);
  UNPROTECT(2);
  return out;
}

/* .Call: list(values = descending, vectors) like base::eigen(symmetric = TRUE) */
SEXP dpfda_eigen_compute(SEXP A)
{
  int n = Rf_nrows(A);
  double *a = (double *) R_alloc((size_t) n * n, sizeof(double));
  memcpy(a, REAL(A), (size_t) n * n * sizeof(double));
  double *w = (double *) R_alloc(n > 0 ? n : 1, sizeof(double));
  double *z = (double *) R_alloc((size_t) n * n > 0 ? (size_t) n * n : 1, sizeof(double));
  int info = dpfda_eigen_sym(a, n, w, z);
  if (info != 0) Rf_error("dsyevr failed with info = %d", info);
  SEXP vals = PROTECT(Rf_allocVector(REALSXP, n));
  SEXP vecs = PROTECT(Rf_allocMatrix(REALSXP, n, n));
  for (int j = 0; j < n; j++) {
    REAL(vals)[j] = w[n - 1 - j];
    memcpy(REAL(vecs) + (size_t) j * n, z + (size_t) (n - 1 - j) * n, n * sizeof(double));
  }
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
  SET_VECTOR_ELT(out, 0, vals);
  SET_VECTOR_ELT(out, 1, vecs);
  static const char *const names[] = {"values", "vectors"};
  dpfda_set_names(out, 2, names);
  UNPROTECT(3);
  return out;
}
