/* kme-call.c -- .Call glue of the kernel mean embedding kernels (kme.c). */
#include <string.h>
#include "asserts.h"

/* Z: M x D, X: N x D (pre-scaled); the mean of k(z_m, .) over the rows of X. */
SEXP dpfda_kme_rowmeans(SEXP Z, SEXP X, SEXP type, SEXP nu, SEXP variance, SEXP chunk)
{
  static const char *fn = "dpfda_kme_rowmeans";
  int M, D, N, DX;
  const double *Zp = dpfda_arg_matrix(Z, &M, &D, fn, "Z"), *Xp = dpfda_arg_matrix(X, &N, &DX, fn, "X");
  DPFDA_ASSERT(DX == D, fn, "X", "a matrix with the columns of `Z`");
  DPFDA_ASSERT(N >= 1, fn, "X", "non-empty");
  int ch = dpfda_arg_int1(chunk, fn, "chunk");
  if (ch < 1) ch = 1;
  if (ch > N) ch = N;
  SEXP out = PROTECT(Rf_allocVector(REALSXP, M));
  kme_rowmeans(dpfda_arg_int1(type, fn, "type"), Zp, M, Xp, N, D, dpfda_arg_num(nu, fn, "nu"),
               dpfda_arg_num(variance, fn, "variance"), ch, REAL(out));
  UNPROTECT(1);
  return out;
}

/* mean(K_xx) over all N^2 pairs of the rows of X (N x D, pre-scaled). */
SEXP dpfda_kme_mean_gram(SEXP X, SEXP type, SEXP nu, SEXP variance)
{
  static const char *fn = "dpfda_kme_mean_gram";
  int N, D;
  const double *Xp = dpfda_arg_matrix(X, &N, &D, fn, "X");
  DPFDA_ASSERT(N >= 1, fn, "X", "non-empty");
  return Rf_ScalarReal(kme_mean_gram(dpfda_arg_int1(type, fn, "type"), Xp, N, D, dpfda_arg_num(nu, fn, "nu"),
                                     dpfda_arg_num(variance, fn, "variance")));
}

/* Sequential incomplete Cholesky of K (M x M): list(L = M x F, kept = the
 * 1-based points of the F columns, d = residuals at visit).  K is copied:
 * sequential mode overwrites the copy in place; pivoting reads arbitrary
 * columns, so K is kept aside in that case. */
SEXP dpfda_kme_seqchol(SEXP K, SEXP tol, SEXP pivot, SEXP block)
{
  static const char *fn = "dpfda_kme_seqchol";
  int M, MK;
  const double *Kp = dpfda_arg_matrix(K, &M, &MK, fn, "K");
  DPFDA_ASSERT(MK == M, fn, "K", "square");
  int piv = dpfda_arg_flag(pivot, fn, "pivot");
  double t = dpfda_arg_num(tol, fn, "tol");
  SEXP L = PROTECT(Rf_allocMatrix(REALSXP, M, M));
  SEXP kept = PROTECT(Rf_allocVector(INTSXP, M));
  SEXP d = PROTECT(Rf_allocVector(REALSXP, M));
  int F;
  if (!piv) {
    memcpy(REAL(L), Kp, (size_t) M * M * sizeof(double));
    int P = dpfda_arg_int1(block, fn, "block");
    F = (P > 1 && M > P) ? kme_seqchol_blocked(REAL(L), M, t, P, INTEGER(kept), REAL(d))
                         : kme_seqchol(REAL(L), M, t, INTEGER(kept), REAL(d));
  } else {
    F = kme_seqchol_pivoted(Kp, M, t, REAL(L), INTEGER(kept), REAL(d));
  }
  SEXP Lout = PROTECT(Rf_allocMatrix(REALSXP, M, F));
  if (F > 0) memcpy(REAL(Lout), REAL(L), (size_t) M * F * sizeof(double));
  SEXP keptout = PROTECT(Rf_allocVector(INTSXP, F));
  for (int c = 0; c < F; c++) INTEGER(keptout)[c] = INTEGER(kept)[c] + 1;
  SEXP res = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(res, 0, Lout);
  SET_VECTOR_ELT(res, 1, keptout);
  SET_VECTOR_ELT(res, 2, d);
  static const char *const names[] = {"L", "kept", "d"};
  dpfda_set_names(res, 3, names);
  UNPROTECT(6);
  return res;
}

/* Random Fourier features of the rows of X (N x D) for the frequencies W
 * (D x J'): their mean (2 J') or the N x 2 J' map. */
SEXP dpfda_kme_rff(SEXP X, SEXP W, SEXP scale, SEXP mean, SEXP chunk)
{
  static const char *fn = "dpfda_kme_rff";
  int N, D, DW, Jp;
  const double *Xp = dpfda_arg_matrix(X, &N, &D, fn, "X"), *Wp = dpfda_arg_matrix(W, &DW, &Jp, fn, "W");
  DPFDA_ASSERT(DW == D, fn, "W", "a matrix with a row per column of `X`");
  DPFDA_ASSERT(N >= 1, fn, "X", "non-empty");
  DPFDA_ASSERT(Jp >= 1, fn, "W", "non-empty");
  int mn = dpfda_arg_flag(mean, fn, "mean"), ch = dpfda_arg_int1(chunk, fn, "chunk");
  if (ch < 1) ch = 1;
  if (ch > N) ch = N;
  SEXP out = PROTECT(mn ? Rf_allocVector(REALSXP, 2 * (R_xlen_t) Jp)
                        : Rf_allocMatrix(REALSXP, N, 2 * Jp));
  kme_rff(Xp, N, D, Wp, Jp, dpfda_arg_num(scale, fn, "scale"), mn, ch, REAL(out));
  UNPROTECT(1);
  return out;
}

/* Greedy pre-images (kme_greedy()): list(Z, beta, residual norms).  lower,
 * upper: the box (D values each), or anything else for none. */
SEXP dpfda_kme_greedy(SEXP target, SEXP W, SEXP scale, SEXP Zinit, SEXP iters, SEXP adam,
                      SEXP lower, SEXP upper)
{
  static const char *fn = "dpfda_kme_greedy";
  int D, Jp, M, DZ;
  const double *Wp = dpfda_arg_matrix(W, &D, &Jp, fn, "W"), *Zp = dpfda_arg_matrix(Zinit, &M, &DZ, fn, "Zinit");
  DPFDA_ASSERT(DZ == D, fn, "Zinit", "a matrix with a column per row of `W`");
  const double *tg = dpfda_arg_real_n(target, 2 * (R_xlen_t) Jp, fn, "target");
  const double *ad = dpfda_arg_real_n(adam, 2 + 2 * (R_xlen_t) D, fn, "adam");   /* b1, b2, lr[D], eps[D] */
  const double *lo = TYPEOF(lower) == REALSXP && XLENGTH(lower) == D ? REAL(lower) : NULL;
  const double *hi = TYPEOF(upper) == REALSXP && XLENGTH(upper) == D ? REAL(upper) : NULL;
  SEXP res = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(res, 0, Rf_allocMatrix(REALSXP, M, D));
  SET_VECTOR_ELT(res, 1, Rf_allocVector(REALSXP, M));
  SET_VECTOR_ELT(res, 2, Rf_allocVector(REALSXP, M));
  kme_greedy(tg, Wp, D, Jp, dpfda_arg_num(scale, fn, "scale"), Zp, M, dpfda_arg_int1(iters, fn, "iters"), ad,
             lo, hi, REAL(VECTOR_ELT(res, 0)), REAL(VECTOR_ELT(res, 1)), REAL(VECTOR_ELT(res, 2)));
  UNPROTECT(1);
  return res;
}

/* A(z) and its gradient (D + 1 values), for finite-difference tests. */
SEXP dpfda_kme_preimage_grad(SEXP target, SEXP W, SEXP scale, SEXP z)
{
  static const char *fn = "dpfda_kme_preimage_grad";
  int D, Jp;
  const double *Wp = dpfda_arg_matrix(W, &D, &Jp, fn, "W");
  const double *tg = dpfda_arg_real_n(target, 2 * (R_xlen_t) Jp, fn, "target");
  const double *zp = dpfda_arg_real_n(z, D, fn, "z");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, D + 1));
  double *theta = (double *) R_alloc(3 * (size_t) Jp, sizeof(double));
  REAL(out)[0] = kme_pre_objective(tg, Wp, Jp, D, dpfda_arg_num(scale, fn, "scale"), zp, theta, REAL(out) + 1);
  UNPROTECT(1);
  return out;
}

/* Lasso in Gram form (kme_lasso()) from w0: list(w, gap, sweeps). */
SEXP dpfda_kme_lasso(SEXP G, SEXP c, SEXP yy, SEXP lambda, SEXP w0, SEXP maxit, SEXP tol)
{
  static const char *fn = "dpfda_kme_lasso";
  int M, MG;
  const double *Gp = dpfda_arg_matrix(G, &M, &MG, fn, "G");
  DPFDA_ASSERT(MG == M, fn, "G", "square");
  const double *cp = dpfda_arg_real_n(c, M, fn, "c"), *w0p = dpfda_arg_real_n(w0, M, fn, "w0");
  SEXP w = PROTECT(Rf_allocVector(REALSXP, M));
  memcpy(REAL(w), w0p, (size_t) M * sizeof(double));
  double gap;
  int sweeps = kme_lasso(Gp, cp, M, dpfda_arg_num(yy, fn, "yy"), dpfda_arg_num(lambda, fn, "lambda"),
                         dpfda_arg_int1(maxit, fn, "maxit"), dpfda_arg_num(tol, fn, "tol"), REAL(w), &gap);
  SEXP res = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(res, 0, w);
  SET_VECTOR_ELT(res, 1, Rf_ScalarReal(gap));
  SET_VECTOR_ELT(res, 2, Rf_ScalarInteger(sweeps));
  UNPROTECT(2);
  return res;
}
