/* asserts.h -- argument asserts shared by the .Call glue.
 *
 * Users' arguments are validated in R with messages that say how to fix
 * them; these asserts only stop a wrong type, shape or value that reaches C
 * anyway (a bug, or a direct .Call) before any pointer is read, with an R
 * error naming the entry point and the argument.  Each returns the checked
 * value or data pointer, so the glue reads an argument in one line.
 */
#ifndef DPFDA_ASSERTS_H
#define DPFDA_ASSERTS_H
#include "dpfda.h"

#define DPFDA_ARG_FAIL(fn, arg, what) \
  Rf_error("dpfda internal: %s(): `%s` must be %s", (fn), (arg), (what))

/* a condition on values already read (a shape that must match, a range) */
#define DPFDA_ASSERT(cond, fn, arg, what) \
  do { if (!(cond)) DPFDA_ARG_FAIL(fn, arg, what); } while (0)

/* a double vector (any length, any attributes) */
static inline double *dpfda_arg_real(SEXP x, const char *fn, const char *arg)
{
  if (TYPEOF(x) != REALSXP) DPFDA_ARG_FAIL(fn, arg, "a double vector");
  return REAL(x);
}

/* a double vector of length n */
static inline double *dpfda_arg_real_n(SEXP x, R_xlen_t n, const char *fn, const char *arg)
{
  if (TYPEOF(x) != REALSXP || XLENGTH(x) != n) DPFDA_ARG_FAIL(fn, arg, "a double vector of the right length");
  return REAL(x);
}

/* a double matrix; its dimensions into *nrow, *ncol (either may be NULL) */
static inline double *dpfda_arg_matrix(SEXP x, int *nrow, int *ncol, const char *fn, const char *arg)
{
  if (TYPEOF(x) != REALSXP || !Rf_isMatrix(x)) DPFDA_ARG_FAIL(fn, arg, "a double matrix");
  if (nrow) *nrow = Rf_nrows(x);
  if (ncol) *ncol = Rf_ncols(x);
  return REAL(x);
}

/* a double vector or matrix; rows and columns as R counts them (a vector is
 * one column) into *nrow, *ncol (either may be NULL) */
static inline double *dpfda_arg_real_rc(SEXP x, int *nrow, int *ncol, const char *fn, const char *arg)
{
  if (TYPEOF(x) != REALSXP) DPFDA_ARG_FAIL(fn, arg, "a double vector or matrix");
  if (nrow) *nrow = Rf_nrows(x);
  if (ncol) *ncol = Rf_ncols(x);
  return REAL(x);
}

/* a square double matrix; its order into *n */
static inline double *dpfda_arg_square(SEXP x, int *n, const char *fn, const char *arg)
{
  if (TYPEOF(x) != REALSXP || !Rf_isMatrix(x) || Rf_nrows(x) != Rf_ncols(x))
    DPFDA_ARG_FAIL(fn, arg, "a square double matrix");
  *n = Rf_nrows(x);
  return REAL(x);
}

/* NULL (returns NULL) or a double vector of length n */
static inline double *dpfda_arg_real_or_null(SEXP x, R_xlen_t n, const char *fn, const char *arg)
{
  if (Rf_isNull(x)) return NULL;
  if (TYPEOF(x) != REALSXP || XLENGTH(x) != n) DPFDA_ARG_FAIL(fn, arg, "NULL or a double vector of the right length");
  return REAL(x);
}

/* a list (a generic vector); returns its length */
static inline R_xlen_t dpfda_arg_list(SEXP x, const char *fn, const char *arg)
{
  if (TYPEOF(x) != VECSXP) DPFDA_ARG_FAIL(fn, arg, "a list");
  return XLENGTH(x);
}

/* an integer vector */
static inline int *dpfda_arg_int(SEXP x, const char *fn, const char *arg)
{
  if (TYPEOF(x) != INTSXP) DPFDA_ARG_FAIL(fn, arg, "an integer vector");
  return INTEGER(x);
}

/* one number (double, integer or logical), not NA */
static inline double dpfda_arg_num(SEXP x, const char *fn, const char *arg)
{
  int ok = (TYPEOF(x) == REALSXP || TYPEOF(x) == INTSXP || TYPEOF(x) == LGLSXP) && XLENGTH(x) == 1;
  double v = ok ? Rf_asReal(x) : NA_REAL;
  if (ISNAN(v)) DPFDA_ARG_FAIL(fn, arg, "one number, not NA");
  return v;
}

/* one finite number */
static inline double dpfda_arg_finite(SEXP x, const char *fn, const char *arg)
{
  double v = dpfda_arg_num(x, fn, arg);
  if (!R_FINITE(v)) DPFDA_ARG_FAIL(fn, arg, "finite");
  return v;
}

/* one whole number (an integer, or a double taken by truncation), not NA */
static inline int dpfda_arg_int1(SEXP x, const char *fn, const char *arg)
{
  int ok = (TYPEOF(x) == REALSXP || TYPEOF(x) == INTSXP || TYPEOF(x) == LGLSXP) && XLENGTH(x) == 1;
  int v = ok ? Rf_asInteger(x) : NA_INTEGER;
  if (v == NA_INTEGER) DPFDA_ARG_FAIL(fn, arg, "one whole number, not NA");
  return v;
}

/* one whole number >= 0 (as int1) */
static inline int dpfda_arg_nonneg(SEXP x, const char *fn, const char *arg)
{
  int v = dpfda_arg_int1(x, fn, arg);
  if (v < 0) DPFDA_ARG_FAIL(fn, arg, "at least 0");
  return v;
}

/* a length: one number >= 0 (double or integer, a double taken by
 * truncation), as the draws take n = as.double(count) */
static inline R_xlen_t dpfda_arg_length(SEXP x, const char *fn, const char *arg)
{
  double v = dpfda_arg_num(x, fn, arg);
  if (!(v >= 0.0 && v <= (double) R_XLEN_T_MAX)) DPFDA_ARG_FAIL(fn, arg, "a length (a whole number >= 0)");
  return (R_xlen_t) v;
}

/* TRUE or FALSE (or a number: nonzero is TRUE) */
static inline int dpfda_arg_flag(SEXP x, const char *fn, const char *arg)
{
  int ok = (TYPEOF(x) == LGLSXP || TYPEOF(x) == INTSXP || TYPEOF(x) == REALSXP) && XLENGTH(x) == 1;
  int v = ok ? Rf_asLogical(x) : NA_LOGICAL;
  if (v == NA_LOGICAL) DPFDA_ARG_FAIL(fn, arg, "TRUE or FALSE");
  return v;
}

#endif
