/* kl-markov-call.c -- .Call glue of the Markov route to the Karhunen-Loeve
 * basis (kernels in kl-markov.c). */
#include "asserts.h"

/* .Call: list(values, vectors (n x J), n_positive) as dpfda_iclp_basis(), or
 * NULL when this route does not apply (the caller uses the dense one).
 * t: sorted grid; w: positive weights; gamma = 1 / lengthscale; variance v;
 * J: -1 (all above tol) or the number to keep. */
SEXP dpfda_kl_markov_basis(SEXP t, SEXP w, SEXP gamma, SEXP variance, SEXP tol, SEXP J)
{
  static const char *fn = "dpfda_kl_markov_basis";
  const double *pt = dpfda_arg_real(t, fn, "t");
  int n = (int) XLENGTH(t);
  DPFDA_ASSERT(n >= 2, fn, "t", "at least 2 points");
  const double *pw = dpfda_arg_real_n(w, n, fn, "w");
  double g = dpfda_arg_num(gamma, fn, "gamma"), v = dpfda_arg_num(variance, fn, "variance");
  double tl = dpfda_arg_num(tol, fn, "tol");
  int Jk = dpfda_arg_int1(J, fn, "J"), npos;
  double *d = (double *) R_alloc(n, sizeof(double));
  double *e = (double *) R_alloc(n, sizeof(double));
  double *sw = (double *) R_alloc(n, sizeof(double));
  if (!dpfda_kl_markov_setup(pt, pw, n, g, v, tl, d, e, sw, &npos)) return R_NilValue;
  int keep = (Jk > 0 && Jk < npos) ? Jk : npos;
  SEXP rv = PROTECT(Rf_allocVector(REALSXP, keep));
  SEXP rV = PROTECT(Rf_allocMatrix(REALSXP, n, keep));
  if (dpfda_kl_markov_vectors(d, e, sw, n, keep, REAL(rv), REAL(rV)) != 0) {
    UNPROTECT(2);
    return R_NilValue;
  }
  SEXP out = dpfda_kl_basis_list(rv, rV, npos);
  UNPROTECT(2);
  return out;
}
