/* bernstein-call.c -- .Call glue of the Bernstein mechanism (kernels in
 * bernstein.c).  Lattice sizes arrive as doubles m_j = k_j + 1. */
#include <limits.h>
#include "asserts.h"

/* The lattice sizes (each >= 2) as ints, their number into *d and their
 * product into *mt. */
static int *bern_dims(SEXP dims, int *d, R_xlen_t *mt, const char *fn)
{
  const double *pd = dpfda_arg_real(dims, fn, "dims");
  *d = Rf_length(dims);
  DPFDA_ASSERT(*d >= 1, fn, "dims", "non-empty");
  int *out = (int *) R_alloc(*d, sizeof(int));
  R_xlen_t m = 1;
  for (int j = 0; j < *d; j++) {
    DPFDA_ASSERT(pd[j] >= 2 && pd[j] <= INT_MAX, fn, "dims", "lattice sizes of at least 2");
    out[j] = (int) pd[j];
    m *= out[j];
  }
  *mt = m;
  return out;
}

/* y (n), k, h, method -> n x (k+1) matrix of b^(h)_{nu,k}(y_i) */
SEXP dpfda_bernstein_basis(SEXP y, SEXP k, SEXP h, SEXP method)
{
  static const char *fn = "dpfda_bernstein_basis";
  const double *py = dpfda_arg_real(y, fn, "y");
  int kk = dpfda_arg_int1(k, fn, "k"), hh = dpfda_arg_int1(h, fn, "h"), meth = dpfda_arg_int1(method, fn, "method");
  DPFDA_ASSERT(kk >= 1, fn, "k", "at least 1");
  DPFDA_ASSERT(hh >= 1, fn, "h", "at least 1");
  R_xlen_t n = XLENGTH(y);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, (int) n, kk + 1));
  dpfda_bern_basis(py, n, kk, hh, meth, REAL(out));
  UNPROTECT(1);
  return out;
}

/* k, h, method (0 auto, 1 Horner, 2 binary powering) -> A_h */
SEXP dpfda_bernstein_iterate(SEXP k, SEXP h, SEXP method)
{
  static const char *fn = "dpfda_bernstein_iterate";
  int kk = dpfda_arg_int1(k, fn, "k"), hh = dpfda_arg_int1(h, fn, "h"), meth = dpfda_arg_int1(method, fn, "method");
  DPFDA_ASSERT(kk >= 1, fn, "k", "at least 1");
  DPFDA_ASSERT(hh >= 1, fn, "h", "at least 1");
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, kk + 1, kk + 1));
  dpfda_bern_iterate(kk, hh, meth, REAL(out));
  UNPROTECT(1);
  return out;
}

/* values (prod dims), dims (double m_j), h, method (0 auto, 1 form, 2 column
 * recursion) -> coefficient tensor c = v x_1 A_h ... x_d A_h (as a vector) */
SEXP dpfda_bernstein_coef(SEXP values, SEXP dims, SEXP h, SEXP method)
{
  static const char *fn = "dpfda_bernstein_coef";
  int d, hh = dpfda_arg_int1(h, fn, "h"), meth = dpfda_arg_int1(method, fn, "method");
  R_xlen_t mt;
  int *dm = bern_dims(dims, &d, &mt, fn);
  const double *v = dpfda_arg_real_n(values, mt, fn, "values");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, mt));
  dpfda_bern_coef(v, dm, d, mt, hh, meth, REAL(out));
  UNPROTECT(1);
  return out;
}

/* coef (prod dims), dims, Y (n x d in [0,1]) -> n values */
SEXP dpfda_bernstein_eval(SEXP coef, SEXP dims, SEXP Y)
{
  static const char *fn = "dpfda_bernstein_eval";
  int d, nr, nc;
  R_xlen_t mt;
  int *dm = bern_dims(dims, &d, &mt, fn);
  const double *c = dpfda_arg_real_n(coef, mt, fn, "coef");
  const double *y = dpfda_arg_real_rc(Y, &nr, &nc, fn, "Y");
  DPFDA_ASSERT(nc == d, fn, "Y", "a matrix with a column per lattice dimension");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, nr));
  dpfda_bern_eval(c, dm, d, mt, y, nr, REAL(out));
  UNPROTECT(1);
  return out;
}

/* coef (prod dims), dims, axes (list of d double vectors in [0,1]) -> values
 * on the tensor grid, first axis fastest */
SEXP dpfda_bernstein_eval_grid(SEXP coef, SEXP dims, SEXP axes)
{
  static const char *fn = "dpfda_bernstein_eval_grid";
  int d;
  R_xlen_t mt, gtot = 1;
  int *dm = bern_dims(dims, &d, &mt, fn);
  const double *c = dpfda_arg_real_n(coef, mt, fn, "coef");
  DPFDA_ASSERT(dpfda_arg_list(axes, fn, "axes") == d, fn, "axes", "a list of one vector per lattice dimension");
  const double **ax = (const double **) R_alloc(d, sizeof(double *));
  R_xlen_t *g = (R_xlen_t *) R_alloc(d, sizeof(R_xlen_t));
  for (int j = 0; j < d; j++) {
    ax[j] = dpfda_arg_real(VECTOR_ELT(axes, j), fn, "axes[[j]]");
    g[j] = XLENGTH(VECTOR_ELT(axes, j));
    gtot *= g[j];
  }
  SEXP out = PROTECT(Rf_allocVector(REALSXP, gtot));
  dpfda_bern_eval_grid(c, dm, d, mt, ax, g, REAL(out));
  UNPROTECT(1);
  return out;
}

/* values, scale, type (0 Laplace, 1 Gaussian) -> values + i.i.d. noise, drawn
 * from the package noise source.  The noise itself is never returned. */
SEXP dpfda_bernstein_perturb(SEXP values, SEXP scale, SEXP type)
{
  static const char *fn = "dpfda_bernstein_perturb";
  const double *v = dpfda_arg_real(values, fn, "values");
  double s = dpfda_arg_num(scale, fn, "scale");
  int tp = dpfda_arg_int1(type, fn, "type");
  R_xlen_t n = XLENGTH(values);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
  dpfda_bern_perturb(v, n, s, tp, REAL(out));
  UNPROTECT(1);
  return out;
}
