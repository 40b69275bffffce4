/* cloak-call.c -- .Call glue of the cloaking solver (kernel in cloak.c). */
#include <string.h>
#include "asserts.h"

/* C: double P x n matrix of finite values (validated in R).  Returns a
 * list; `info` is 0 on success, 1 if the SVD failed, 2 if the reduced
 * solver failed, 3 if the final factorisation failed. */
SEXP dpfda_cloak_solve(SEXP C, SEXP tol_, SEXP maxit_, SEXP rank_tol_)
{
  static const char *fn = "dpfda_cloak_solve";
  int P, n;
  const double *Cx = dpfda_arg_matrix(C, &P, &n, fn, "C");
  const double tol = dpfda_arg_num(tol_, fn, "tol"), rank_tol = dpfda_arg_num(rank_tol_, fn, "rank_tol");
  const int maxit = dpfda_arg_int1(maxit_, fn, "maxit");
  DPFDA_ASSERT(P >= 1 && n >= 1, fn, "C", "non-empty");
  DPFDA_ASSERT(tol > 0.0, fn, "tol", "positive");
  DPFDA_ASSERT(rank_tol > 0.0, fn, "rank_tol", "positive");
  DPFDA_ASSERT(maxit >= 0, fn, "maxit", "at least 0");
  const int k = P < n ? P : n;
  static const char *const names[] = {"M", "lambda", "q", "max_constraint", "objective",
                                      "rank", "iterations", "converged", "gap", "scale",
                                      "basis", "factor", "singular_values", "residual",
                                      "margin", "info"};
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 16));
  dpfda_set_names(out, 16, names);
  dpfda_cloak_out o;
  SET_VECTOR_ELT(out, 0, Rf_allocMatrix(REALSXP, P, P));
  SET_VECTOR_ELT(out, 1, Rf_allocVector(REALSXP, n));
  SET_VECTOR_ELT(out, 2, Rf_allocVector(REALSXP, n));
  SET_VECTOR_ELT(out, 12, Rf_allocVector(REALSXP, k));
  o.M = REAL(VECTOR_ELT(out, 0));
  o.lambda = REAL(VECTOR_ELT(out, 1));
  o.q = REAL(VECTOR_ELT(out, 2));
  o.sv = REAL(VECTOR_ELT(out, 12));
  dpfda_cloak(Cx, P, n, tol, maxit, rank_tol, &o);
  if (o.info == 0) {   /* P x rank (P x 0 for C = 0); NULL on failure */
    SET_VECTOR_ELT(out, 10, Rf_allocMatrix(REALSXP, P, o.rank));
    SET_VECTOR_ELT(out, 11, Rf_allocMatrix(REALSXP, P, o.rank));
    size_t bytes = (size_t) P * o.rank * sizeof(double);
    if (o.rank > 0) {
      memcpy(REAL(VECTOR_ELT(out, 10)), o.basis, bytes);
      memcpy(REAL(VECTOR_ELT(out, 11)), o.factor, bytes);
    }
  }
  SET_VECTOR_ELT(out, 3, Rf_ScalarReal(o.max_constraint));
  SET_VECTOR_ELT(out, 4, Rf_ScalarReal(o.objective));
  SET_VECTOR_ELT(out, 5, Rf_ScalarInteger(o.rank));
  SET_VECTOR_ELT(out, 6, Rf_ScalarInteger(o.iterations));
  SET_VECTOR_ELT(out, 7, Rf_ScalarLogical(o.converged));
  SET_VECTOR_ELT(out, 8, Rf_ScalarReal(o.gap));
  SET_VECTOR_ELT(out, 9, Rf_ScalarReal(o.scale));
  SET_VECTOR_ELT(out, 13, Rf_ScalarReal(o.residual));
  SET_VECTOR_ELT(out, 14, Rf_ScalarReal(o.margin));
  SET_VECTOR_ELT(out, 15, Rf_ScalarInteger(o.info));
  UNPROTECT(1);
  return out;
}
