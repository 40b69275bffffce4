/* binning.c -- the integral (bin-integral / bin-average) Gaussian kernel of
 * the binning baseline of Smith et al. (supplement, "Integral Kernel").
 *
 * Unit-variance Gaussian kernel exp(-(u - u')^2 / (2 l^2)) per dimension,
 * a = sqrt(2) l, h(z) = g(z) - 1 = |z| sqrt(pi) erf(|z|) + expm1(-z^2):
 *   k_FF((s,t),(s',t')) = a^2/2 [h((t-s')/a) + h((s-t')/a) - h((t-t')/a) - h((s-s')/a)]
 *   k_fF(u,(s,t))       = sqrt(pi) a / 2 [erf((t-u)/a) + erf((u-s)/a)]
 * products over dimensions; divided by the widths for bin averages.
 * l d/dl of one term a^2/2 h(x/a) is a^2 h(x/a) - a x sqrt(pi)/2 erf(x/a).
 */
#include <math.h>
#include "asserts.h"

#define SQRT_PI 1.772453850905516027298

static double h_int(double z)
{
  z = fabs(z);
  return z * SQRT_PI * erf(z) + expm1(-z * z);
}

/* l d/dl of a^2/2 h(x/a), i.e. a^2 h(x/a) - a x sqrt(pi)/2 erf(x/a) */
static double dh_int(double x, double a)
{
  double ax = fabs(x);
  return a * a * h_int(ax / a) - a * ax * 0.5 * SQRT_PI * erf(ax / a);
}

/* One dimension: k (B1 x B2) and optionally l dk/dl. */
static void integral_1d(const double *s1, const double *t1, int B1,
                        const double *s2, const double *t2, int B2,
                        double l, int average, double *k, double *dk)
{
  double a = M_SQRT2 * l;
  for (int j = 0; j < B2; j++) {
    for (int i = 0; i < B1; i++) {
      double A = t1[i] - s2[j], B = s1[i] - t2[j], C = t1[i] - t2[j], E = s1[i] - s2[j];
      double v = 0.5 * a * a * ((h_int(A / a) + h_int(B / a)) - (h_int(C / a) + h_int(E / a)));
      double w = average ? (t1[i] - s1[i]) * (t2[j] - s2[j]) : 1.0;
      size_t ij = i + (size_t) j * B1;
      k[ij] = v / w;
      if (dk != NULL) {
        double dv = (dh_int(A, a) + dh_int(B, a)) - (dh_int(C, a) + dh_int(E, a));
        dk[ij] = dv / w;
      }
    }
  }
}

/* .Call: boxes (lo1, hi1) B1 x D and (lo2, hi2) B2 x D, lengthscales (D),
 * average (logical), deriv (logical). Returns list(K, dK) with dK a
 * B1 x B2 x D array of l_j dK/dl_j (or NULL). */
SEXP dpfda_integral_gram(SEXP lo1, SEXP hi1, SEXP lo2, SEXP hi2, SEXP ls, SEXP average,
                         SEXP deriv)
{
  static const char *fn = "dpfda_integral_gram";
  int B1 = Rf_nrows(lo1), B2 = Rf_nrows(lo2), D = Rf_length(ls);
  dpfda_arg_real(ls, fn, "ls");
  dpfda_arg_real_n(lo1, (R_xlen_t) B1 * D, fn, "lo1");
  dpfda_arg_real_n(hi1, (R_xlen_t) B1 * D, fn, "hi1");
  dpfda_arg_real_n(lo2, (R_xlen_t) B2 * D, fn, "lo2");
  dpfda_arg_real_n(hi2, (R_xlen_t) B2 * D, fn, "hi2");
  int avg = dpfda_arg_flag(average, fn, "average"), der = dpfda_arg_flag(deriv, fn, "deriv");
  size_t nn = (size_t) B1 * B2;
  SEXP K = PROTECT(Rf_allocMatrix(REALSXP, B1, B2));
  SEXP dK = R_NilValue;
  if (der) {
    dK = Rf_allocVector(REALSXP, (R_xlen_t) nn * D);
    PROTECT(dK);
    SEXP dims = PROTECT(Rf_allocVector(INTSXP, 3));
    INTEGER(dims)[0] = B1;
    INTEGER(dims)[1] = B2;
    INTEGER(dims)[2] = D;
    Rf_setAttrib(dK, R_DimSymbol, dims);
    UNPROTECT(1);
  } else {
    PROTECT(dK);
  }
  double *k = REAL(K);
  double *kj = (double *) R_alloc(nn > 0 ? nn : 1, sizeof(double));
  double *dkj = der ? (double *) R_alloc(nn > 0 ? nn : 1, sizeof(double)) : NULL;
  for (size_t i = 0; i < nn; i++) k[i] = 1.0;
  for (int d = 0; d < D; d++) {
    R_CheckUserInterrupt();
    integral_1d(REAL(lo1) + (size_t) d * B1, REAL(hi1) + (size_t) d * B1, B1,
                REAL(lo2) + (size_t) d * B2, REAL(hi2) + (size_t) d * B2, B2,
                REAL(ls)[d], avg, kj, dkj);
    if (der) {
      /* multiply the derivatives of the other dimensions by this factor */
      for (int e = 0; e < d; e++) {
        double *de = REAL(dK) + (size_t) e * nn;
        for (size_t i = 0; i < nn; i++) de[i] *= kj[i];
      }
      double *dd = REAL(dK) + (size_t) d * nn;
      for (size_t i = 0; i < nn; i++) dd[i] = k[i] * dkj[i];
    }
    for (size_t i = 0; i < nn; i++) k[i] *= kj[i];
  }
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
  SET_VECTOR_ELT(out, 0, K);
  SET_VECTOR_ELT(out, 1, dK);
  static const char *const names[] = {"K", "dK"};
  dpfda_set_names(out, 2, names);
  UNPROTECT(3);
  return out;
}

/* .Call: points P x D, boxes (lo, hi) B x D, lengthscales, average:
 * k_fF, P x B (unit variance). */
SEXP dpfda_integral_cross(SEXP pts, SEXP lo, SEXP hi, SEXP ls, SEXP average)
{
  static const char *fn = "dpfda_integral_cross";
  int P = Rf_nrows(pts), B = Rf_nrows(lo), D = Rf_length(ls);
  dpfda_arg_real(ls, fn, "ls");
  dpfda_arg_real_n(pts, (R_xlen_t) P * D, fn, "pts");
  dpfda_arg_real_n(lo, (R_xlen_t) B * D, fn, "lo");
  dpfda_arg_real_n(hi, (R_xlen_t) B * D, fn, "hi");
  int avg = dpfda_arg_flag(average, fn, "average");
  SEXP K = PROTECT(Rf_allocMatrix(REALSXP, P, B));
  double *k = REAL(K);
  size_t nn = (size_t) P * B;
  for (size_t i = 0; i < nn; i++) k[i] = 1.0;
  for (int d = 0; d < D; d++) {
    R_CheckUserInterrupt();
    double a = M_SQRT2 * REAL(ls)[d];
    const double *u = REAL(pts) + (size_t) d * P;
    const double *s = REAL(lo) + (size_t) d * B, *t = REAL(hi) + (size_t) d * B;
    for (int j = 0; j < B; j++) {
      double w = avg ? t[j] - s[j] : 1.0;
      for (int i = 0; i < P; i++) {
        double v = 0.5 * SQRT_PI * a * (erf((t[j] - u[i]) / a) + erf((u[i] - s[j]) / a));
        k[i + (size_t) j * P] *= v / w;
      }
    }
  }
  UNPROTECT(1);
  return K;
}
