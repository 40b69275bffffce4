/* svm-call.c -- .Call glue of the kernel SVM solver (kernel in svm.c). */
#include "asserts.h"

/* .Call entry: list(b, a, gap, iterations, converged); cap holds the weights
 * c_i of the hinge losses (1/n without a privacy unit).  Arguments are
 * validated in R (R/mech-svm.R); only cheap asserts here. */
SEXP dpfda_svm_fit(SEXP K, SEXP y, SEXP cap, SEXP lambda, SEXP gap_tol, SEXP maxit)
{
  static const char *fn = "dpfda_svm_fit";
  int n;
  const double *pK = dpfda_arg_square(K, &n, fn, "K");
  DPFDA_ASSERT(n >= 1, fn, "K", "non-empty");
  const double *py = dpfda_arg_real_n(y, n, fn, "y");
  const double *pc = dpfda_arg_real_n(cap, n, fn, "cap");
  for (int i = 0; i < n; i++) DPFDA_ASSERT(pc[i] > 0.0, fn, "cap", "positive");
  const double lam = dpfda_arg_num(lambda, fn, "lambda"), tol = dpfda_arg_num(gap_tol, fn, "gap_tol");
  const int mx = dpfda_arg_int1(maxit, fn, "maxit");
  DPFDA_ASSERT(lam > 0.0, fn, "lambda", "positive");
  DPFDA_ASSERT(tol > 0.0, fn, "gap_tol", "positive");
  DPFDA_ASSERT(mx >= 1, fn, "maxit", "at least 1");
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 5));
  SEXP bs = PROTECT(Rf_allocVector(REALSXP, n));
  SEXP as = PROTECT(Rf_allocVector(REALSXP, n));
  double gap;
  int iter, conv = dpfda_svm(pK, py, pc, n, lam, tol, mx, REAL(bs), REAL(as), &gap, &iter);
  SET_VECTOR_ELT(out, 0, bs);
  SET_VECTOR_ELT(out, 1, as);
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(gap));
  SET_VECTOR_ELT(out, 3, Rf_ScalarInteger(iter));
  SET_VECTOR_ELT(out, 4, Rf_ScalarLogical(conv));
  static const char *const names[] = {"b", "a", "gap", "iterations", "converged"};
  dpfda_set_names(out, 5, names);
  UNPROTECT(3);
  return out;
}
