/* iclp.c -- Karhunen-Loeve bases and Independent Component Laplace Process
 * (ICLP) paths (Lin and Reimherr).
 *
 * Basis: the eigenpairs (gamma_j, u_j) of the weighted Gram matrix
 * A = W^{1/2} G W^{1/2} (only the kept ones: dpfda_eigen_top, LAPACK dsytrd +
 * dstemr on an index range + dormtr on the kept columns; on a symmetric grid
 * the same on two halves of A, see iclp_eigen_split) give the
 * eigenvalues lambda_j = gamma_j of the integral operator (quadrature rule W)
 * and the eigenfunctions v_j(t_i) = u_ij / sqrt(w_i), orthonormal in the
 * weighted inner product: V' W V = I.
 *
 * Paths: rows of  center' V' + (s o Z)' V'  with Z i.i.d. unit-variance Laplace
 * (scale 1/sqrt(2)) from the package noise source and s_j the per-component
 * standard deviations (sigma sqrt(lambda_j) for the ICLP).  The raw noise never
 * leaves C.  The .Call glue is in iclp-call.c.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "dpfda.h"

/* Centrosymmetric split (exact, an orthogonal change of basis).  A
 * stationary kernel on a grid symmetric about its centre (a uniform 1-D grid,
 * a tensor of such grids) with symmetric weights gives a weighted Gram matrix
 * A with A[i, k] = A[n-1-i, n-1-k] (J A J = A, J the reversal).  With
 * h = floor(n / 2), q_i = (e_i + e_{n-1-i}) / sqrt 2, p_i = (e_i - e_{n-1-i}) /
 * sqrt 2 (i < h) and, for odd n, q_h = e_h (the centre), [Q P] is orthogonal
 * and Q' A P = 0, so
 *   A = [Q P] diag(A+, A-) [Q P]',   A+ = Q' A Q (n - h square), A- = P' A P (h square):
 * the eigenvectors of A are Q y (symmetric) and P y (antisymmetric) for the
 * eigenvectors y of the two halves.  Two tridiagonal reductions of half size
 * cost 2 * 4/3 (n/2)^3 = a quarter of one of size n, and so do the
 * back-transformations.  The grid points and the trapezoid weights (from
 * differences of grid points) are symmetric only to rounding (about 100 eps
 * relative at n = 500), so the split is used when A is centrosymmetric to
 * within 8 n eps max|A|, and the halves are built from the symmetrised
 * (A + J A J) / 2: a perturbation of the size of the backward error of the
 * LAPACK reduction itself (about n eps ||A||), and the eigenpairs returned are
 * exact (to rounding) for it.  The ICLP mechanisms calibrate their noise to
 * the basis they are given (orthonormal: V' W V = I, with its eigenvalues),
 * so their privacy does not depend on which of the two matrices it is. */
#define ICLP_SPLIT_MIN 16   /* below this the split saves nothing measurable */

static int iclp_centrosymmetric(const double *A, int n)
{
  double amax = 0.0, dmax = 0.0;
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++) {
      double a = A[i + (size_t) k * n], b = A[(n - 1 - i) + (size_t) (n - 1 - k) * n];
      if (fabs(a) > amax) amax = fabs(a);
      if (fabs(a - b) > dmax) dmax = fabs(a - b);
    }
  return amax > 0.0 && dmax <= 8.0 * n * DBL_EPSILON * amax;
}

/* The halves: Ap ((n-h) x (n-h)) and Am (h x h), lower triangles filled. */
static void iclp_halves(const double *A, int n, double *Ap, double *Am)
{
  int h = n / 2, hp = n - h;
#define AA(i, k) A[(i) + (size_t) (k) * n]
  for (int k = 0; k < h; k++)
    for (int i = k; i < h; i++) {
      int ir = n - 1 - i, kr = n - 1 - k;
      double s = 0.5 * (AA(i, k) + AA(ir, kr)), c = 0.5 * (AA(i, kr) + AA(ir, k));
      Ap[i + (size_t) k * hp] = s + c;
      Am[i + (size_t) k * h] = s - c;
    }
  if (hp > h) {   /* odd n: the centre row of A+ */
    for (int k = 0; k < h; k++)
      Ap[h + (size_t) k * hp] = M_SQRT1_2 * (AA(h, k) + AA(h, n - 1 - k));
    Ap[h + (size_t) h * hp] = AA(h, h);
  }
#undef AA
}

/* The leading eigenpairs of a centrosymmetric A via its halves: same
 * contract as dpfda_eigen_top (values, vectors (n x k) ascending). */
static int iclp_eigen_split(const double *A, int n, double tol, int J, double *values,
                            double *vectors, int *k, int *npos)
{
  int h = n / 2, hp = n - h;
  int nh[2] = {hp, h};
  double *H[2], *d[2], *e[2], *tau[2], *ev[2];
  *k = 0;
  *npos = 0;
  for (int s = 0; s < 2; s++) {
    H[s] = (double *) R_alloc((size_t) nh[s] * nh[s], sizeof(double));
    d[s] = (double *) R_alloc(nh[s], sizeof(double));
    e[s] = (double *) R_alloc(nh[s], sizeof(double));
    tau[s] = (double *) R_alloc(nh[s], sizeof(double));
    ev[s] = (double *) R_alloc(nh[s], sizeof(double));
  }
  iclp_halves(A, n, H[0], H[1]);
  for (int s = 0; s < 2; s++) {
    int info = dpfda_tridiag_values(H[s], nh[s], d[s], e[s], tau[s], ev[s]);
    if (info != 0) return info;
  }
  /* merge the two ascending spectra from the top: which eigenvalues are kept,
   * and from which half (src: 0 symmetric, 1 antisymmetric), descending */
  int *src = (int *) R_alloc(n, sizeof(int));
  int top[2] = {nh[0] - 1, nh[1] - 1}, keep = 0;
  double l1 = ev[0][nh[0] - 1];
  if (ev[1][nh[1] - 1] > l1) l1 = ev[1][nh[1] - 1];
  while (l1 > 0.0 && keep < n) {
    int s = top[1] < 0 || (top[0] >= 0 && ev[0][top[0]] >= ev[1][top[1]]) ? 0 : 1;
    double v = ev[s][top[s]];
    if (!(v > 0.0 && v > tol * l1)) break;
    src[keep++] = s;
    top[s]--;
  }
  *npos = keep;
  if (J > 0 && J < keep) keep = J;
  if (keep == 0) return 0;
  int kk[2] = {0, 0};
  for (int j = 0; j < keep; j++) kk[src[j]]++;
  /* eigenpairs of each half (ascending), then Q y / P y into descending slots */
  double *Y[2], *lam[2];
  for (int s = 0; s < 2; s++) {
    Y[s] = (double *) R_alloc((size_t) nh[s] * (kk[s] > 0 ? kk[s] : 1), sizeof(double));
    lam[s] = (double *) R_alloc(nh[s], sizeof(double));
    int info = dpfda_tridiag_vectors(H[s], nh[s], d[s], e[s], tau[s], kk[s], lam[s], Y[s]);
    if (info != 0) return info;
  }
  int next[2] = {kk[0] - 1, kk[1] - 1};
  for (int j = 0; j < keep; j++) {
    int s = src[j], c = next[s]--;
    const double *y = Y[s] + (size_t) c * nh[s];
    double *u = vectors + (size_t) (keep - 1 - j) * n;   /* ascending order, as dpfda_eigen_top */
    double sg = s == 0 ? 1.0 : -1.0;
    for (int i = 0; i < h; i++) {
      u[i] = M_SQRT1_2 * y[i];
      u[n - 1 - i] = sg * M_SQRT1_2 * y[i];
    }
    if (hp > h) u[h] = s == 0 ? y[h] : 0.0;   /* antisymmetric: zero at the centre */
    values[keep - 1 - j] = lam[s][c];
  }
  *k = keep;
  return 0;
}

/* Eigenpairs of W^{1/2} G W^{1/2}, descending, with eigenfunctions scaled by
 * W^{-1/2} and the sign convention of dpfda_kl_eigenfunction() (an
 * antisymmetric eigenvector from the split has two largest entries of
 * exactly equal size and opposite signs).
 * Keeps the eigenvalues above tol * lambda_1 (and > 0), at most J of them
 * when J > 0.  values/vectors must hold n and n*n doubles; returns the number
 * kept (>= 0) or -(LAPACK info) - 1 on failure. *npos receives the number of
 * eigenvalues above the tolerance. */
int dpfda_iclp_basis_dense(const double *G, const double *w, int n, double tol, int J,
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
  int keep = 0, info;
  if (n >= ICLP_SPLIT_MIN && iclp_centrosymmetric(A, n))
    info = iclp_eigen_split(A, n, tol, J, ev, U, &keep, npos);
  else
    info = dpfda_eigen_top(A, n, tol, J, ev, U, &keep, npos);
  if (info != 0) return -abs(info) - 1;
  /* ev, U ascending: the largest is the last of the keep columns */
  for (int j = 0; j < keep; j++) {
    dpfda_kl_eigenfunction(U + (size_t) (keep - 1 - j) * n, n, sw, vectors + (size_t) j * n);
    values[j] = ev[keep - 1 - j];
  }
  return keep;
}

/* v = +/- u / sqrt(w) (sw = sqrt(w)), the sign making positive the first
 * entry of u whose size is within 1e-9 (relative) of the largest: mirrored
 * entries of a symmetric or antisymmetric eigenvector (equal, or equal to
 * rounding) then decide alike whichever route computed the vector.  v may
 * be u (each entry is read before it is written). */
void dpfda_kl_eigenfunction(const double *u, int n, const double *sw, double *v)
{
  double amax = 0.0;
  for (int i = 0; i < n; i++) if (fabs(u[i]) > amax) amax = fabs(u[i]);
  int ifirst = 0;
  while (ifirst < n - 1 && fabs(u[ifirst]) < amax * (1.0 - 1e-9)) ifirst++;
  double sgn = u[ifirst] < 0.0 ? -1.0 : 1.0;
  for (int i = 0; i < n; i++) v[i] = sgn * u[i] / sw[i];
}

/* out (npath x m) = rows (center + s o Z_r)' V',  Z_r unit-variance Laplace. */
void dpfda_iclp_paths(const double *V, int m, int J, const double *s,
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
