/* iclp.c -- Karhunen-Loeve bases and Independent Component Laplace Process
 * (ICLP) paths (Lin and Reimherr).
 *
 * Basis: the eigenpairs (gamma_j, u_j) of the weighted Gram matrix
 * A = W^{1/2} G W^{1/2} (only the kept ones: dpfda_eigen_top, LAPACK dsytrd +
 * dstemr on an index range + dormtr on the kept columns) give the
 * eigenvalues lambda_j = gamma_j of the integral operator (quadrature rule W)
 * and the eigenfunctions v_j(t_i) = u_ij / sqrt(w_i), orthonormal in the
 * weighted inner product: V' W V = I.
 *
 * Paths: rows of  center' V' + (s o Z)' V'  with Z i.i.d. unit-variance Laplace
 * (scale 1/sqrt(2)) from the package noise source and s_j the per-component
 * standard deviations (sigma sqrt(lambda_j) for the ICLP).  The raw noise never
 * leaves C.
 */
#include <math.h>
#include <string.h>
#include "dpfda.h"

/* Eigenpairs of W^{1/2} G W^{1/2}, descending, with eigenfunctions scaled by
 * W^{-1/2} and the sign convention "largest |entry| of each vector positive".
 * Keeps the eigenvalues above tol * lambda_1 (and > 0), at most J of them
 * when J > 0.  values/vectors must hold n and n*n doubles; returns the number
 * kept (>= 0) or -(LAPACK info) - 1 on failure. *npos receives the number of
 * eigenvalues above the tolerance. */
static int iclp_basis(const double *G, const double *w, int n, double tol, int J,
                      double *values, double *vectors, int *npos)
{
  size_t nn = (size_t) n * (size_t) n;
  double *A = (double *) R_alloc(nn, sizeof(double));
  double *sw = (double *) R_alloc(n, sizeof(double));
  for (int i = 0; i < n; i++) sw[i] = sqrt(w[i]);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++)
      A[i + (size_t) k * n] = sw[i] * G[i + (size_t) k * n] * sw[k];
  double *ev = (double *) R_alloc(n, sizeof(double));
  double *U = (double *) R_alloc(nn, sizeof(double));
  int keep = 0;
  int info = dpfda_eigen_top(A, n, tol, J, ev, U, &keep, npos);
  if (info != 0) return -abs(info) - 1;
  /* ev, U ascending: the largest is the last of the keep columns */
  for (int j = 0; j < keep; j++) {
    const double *u = U + (size_t) (keep - 1 - j) * n;
    double *v = vectors + (size_t) j * n;
    int imax = 0;
    for (int i = 1; i < n; i++) if (fabs(u[i]) > fabs(u[imax])) imax = i;
    double sgn = u[imax] < 0.0 ? -1.0 : 1.0;
    for (int i = 0; i < n; i++) v[i] = sgn * u[i] / sw[i];
    values[j] = ev[keep - 1 - j];
  }
  return keep;
}

/* .Call: list(values, vectors (n x J), n_positive) */
SEXP dpfda_iclp_basis(SEXP G, SEXP w, SEXP tol, SEXP J)
{
  int n = Rf_nrows(G);
  if (n < 1 || Rf_ncols(G) != n || XLENGTH(w) != n)
    Rf_error("dpfda_iclp_basis: bad dimensions");
  double *vals = (double *) R_alloc(n, sizeof(double));
  double *vecs = (double *) R_alloc((size_t) n * n, sizeof(double));
  int npos = 0;
  int keep = iclp_basis(REAL(G), REAL(w), n, Rf_asReal(tol), Rf_asInteger(J), vals, vecs, &npos);
  if (keep < 0) Rf_error("dsyevr failed with info = %d", -keep - 1);
  SEXP rv = PROTECT(Rf_allocVector(REALSXP, keep));
  SEXP rV = PROTECT(Rf_allocMatrix(REALSXP, n, keep));
  if (keep > 0) {
    memcpy(REAL(rv), vals, (size_t) keep * sizeof(double));
    memcpy(REAL(rV), vecs, (size_t) keep * n * sizeof(double));
  }
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(out, 0, rv);
  SET_VECTOR_ELT(out, 1, rV);
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(npos));
  static const char *const names[] = {"values", "vectors", "n_positive"};
  dpfda_set_names(out, 3, names);
  UNPROTECT(3);
  return out;
}

/* out (npath x m) = rows (center + s o Z_r)' V',  Z_r unit-variance Laplace. */
static void iclp_paths(const double *V, int m, int J, const double *s,
                       const double *center, int npath, double *out)
{
  if (J == 0) {
    memset(out, 0, (size_t) npath * m * sizeof(double));
    return;
  }
  double *Z = (double *) R_alloc((size_t) J * npath, sizeof(double));
  const double b = M_SQRT1_2;   /* Laplace scale of a unit-variance component */
  dpfda_rng_begin();
  for (int r = 0; r < npath; r++)
    for (int j = 0; j < J; j++) Z[j + (size_t) r * J] = s[j] * dpfda_laplace(b);
  dpfda_rng_end();
  if (center != NULL)
    for (int r = 0; r < npath; r++)
      for (int j = 0; j < J; j++) Z[j + (size_t) r * J] += center[j];
  double one = 1.0, zero = 0.0;
  if (npath == 1) {
    /* one path: out = V z by columns of V (contiguous; the transposed dgemm
       below reads V along rows).  Same products summed in the same order. */
    int inc = 1;
    F77_CALL(dgemv)("N", &m, &J, &one, V, &m, Z, &inc, &zero, out, &inc FCONE);
  } else {
    /* out = Z' V'  : (npath x J) (J x m) */
    F77_CALL(dgemm)("T", "T", &npath, &m, &J, &one, Z, &J, V, &m, &zero, out, &npath
                    FCONE FCONE);
  }
  memset(Z, 0, (size_t) J * npath * sizeof(double));   /* do not leave the noise around */
}

/* .Call: npath x m matrix of V (center + s o Z). `center` may be NULL (R_NilValue). */
SEXP dpfda_iclp_draw(SEXP V, SEXP s, SEXP npath, SEXP center)
{
  int m = Rf_nrows(V), J = Rf_ncols(V), n = Rf_asInteger(npath);
  if (XLENGTH(s) != J || n < 0 || (!Rf_isNull(center) && XLENGTH(center) != J))
    Rf_error("dpfda_iclp_draw: bad dimensions");
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, n, m));
  if (n > 0 && m > 0)
    iclp_paths(REAL(V), m, J, REAL(s), Rf_isNull(center) ? NULL : REAL(center), n, REAL(out));
  UNPROTECT(1);
  return out;
}
