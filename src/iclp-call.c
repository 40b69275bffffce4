/* iclp-call.c -- .Call glue of the dense Karhunen-Loeve basis and of the
 * ICLP paths (kernels in iclp.c). */
#include <string.h>
#include "asserts.h"

/* .Call: list(values, vectors (n x J), n_positive) */
SEXP dpfda_iclp_basis(SEXP G, SEXP w, SEXP tol, SEXP J)
{
  static const char *fn = "dpfda_iclp_basis";
  int n;
  const double *pG = dpfda_arg_square(G, &n, fn, "G");
  DPFDA_ASSERT(n >= 1, fn, "G", "non-empty");
  const double *pw = dpfda_arg_real_n(w, n, fn, "w");
  double tl = dpfda_arg_num(tol, fn, "tol");
  int Jk = dpfda_arg_int1(J, fn, "J"), npos = 0;
  double *vals = (double *) R_alloc(n, sizeof(double));
  double *vecs = (double *) R_alloc((size_t) n * n, sizeof(double));
  int keep = dpfda_iclp_basis_dense(pG, pw, n, tl, Jk, vals, vecs, &npos);
  if (keep < 0) Rf_error("dpfda internal: %s(): the eigensolver failed (LAPACK info %d)", fn, -keep - 1);
  SEXP rv = PROTECT(Rf_allocVector(REALSXP, keep));
  SEXP rV = PROTECT(Rf_allocMatrix(REALSXP, n, keep));
  if (keep > 0) {
    memcpy(REAL(rv), vals, (size_t) keep * sizeof(double));
    memcpy(REAL(rV), vecs, (size_t) keep * n * sizeof(double));
  }
  SEXP out = dpfda_kl_basis_list(rv, rV, npos);
  UNPROTECT(2);
  return out;
}

/* .Call: npath x m matrix of V (center + s o Z). `center` may be NULL. */
SEXP dpfda_iclp_draw(SEXP V, SEXP s, SEXP npath, SEXP center)
{
  static const char *fn = "dpfda_iclp_draw";
  int m, J;
  const double *pV = dpfda_arg_real_rc(V, &m, &J, fn, "V");
  const double *ps = dpfda_arg_real_n(s, J, fn, "s");
  int n = dpfda_arg_nonneg(npath, fn, "npath");
  const double *pc = dpfda_arg_real_or_null(center, J, fn, "center");
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, n, m));
  if (n > 0 && m > 0) dpfda_iclp_paths(pV, m, J, ps, pc, n, REAL(out));
  UNPROTECT(1);
  return out;
}
