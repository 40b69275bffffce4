/* binning.c -- the integral (bin-integral / bin-average) Gaussian kernel of
 * the binning baseline of Smith et al. (supplement, "Integral Kernel").
 *
 * Unit-variance Gaussian kernel exp(-(u - u')^2 / (2 l^2)) per dimension,
 * a = sqrt(2) l, h(z) = g(z) - 1 = |z| sqrt(pi) erf(|z|) + expm1(-z^2):
 *   k_FF((s,t),(s',t')) = a^2/2 [h((t-s')/a) + h((s-t')/a) - h((t-t')/a) - h((s-s')/a)]
 *   k_fF(u,(s,t))       = sqrt(pi) a / 2 [erf((t-u)/a) + erf((u-s)/a)]
 * products over dimensions; divided by the widths for bin averages.
 * l d/dl of one term a^2/2 h(x/a) is a^2 h(x/a) - a x sqrt(pi)/2 erf(x/a).
 * The .Call glue is in binning-call.c.
 */
#include <math.h>
#include "dpfda.h"

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

/* K (B1 x B2) = k_FF between the boxes (lo1, hi1) (B1 x D) and (lo2, hi2)
 * (B2 x D) with lengthscales ls (D), divided by the box volumes when
 * average; when dK is not NULL, dK (B1 x B2 x D) = l_j dK/dl_j. */
void dpfda_binning_gram(const double *lo1, const double *hi1, int B1, const double *lo2,
                        const double *hi2, int B2, const double *ls, int D, int average,
                        double *k, double *dK)
{
  size_t nn = (size_t) B1 * B2;
  double *kj = (double *) R_alloc(nn > 0 ? nn : 1, sizeof(double));
  double *dkj = dK != NULL ? (double *) R_alloc(nn > 0 ? nn : 1, sizeof(double)) : NULL;
  for (size_t i = 0; i < nn; i++) k[i] = 1.0;
  for (int d = 0; d < D; d++) {
    R_CheckUserInterrupt();
    integral_1d(lo1 + (size_t) d * B1, hi1 + (size_t) d * B1, B1,
                lo2 + (size_t) d * B2, hi2 + (size_t) d * B2, B2, ls[d], average, kj, dkj);
    if (dK != NULL) {
      /* multiply the derivatives of the other dimensions by this factor */
      for (int e = 0; e < d; e++) {
        double *de = dK + (size_t) e * nn;
        for (size_t i = 0; i < nn; i++) de[i] *= kj[i];
      }
      double *dd = dK + (size_t) d * nn;
      for (size_t i = 0; i < nn; i++) dd[i] = k[i] * dkj[i];
    }
    for (size_t i = 0; i < nn; i++) k[i] *= kj[i];
  }
}

/* K (P x B) = k_fF between the points pts (P x D) and the boxes (lo, hi)
 * (B x D), unit variance, lengthscales ls (D), per unit volume when average. */
void dpfda_binning_cross(const double *pts, int P, const double *lo, const double *hi, int B,
                         const double *ls, int D, int average, double *k)
{
  size_t nn = (size_t) P * B;
  for (size_t i = 0; i < nn; i++) k[i] = 1.0;
  for (int d = 0; d < D; d++) {
    R_CheckUserInterrupt();
    double a = M_SQRT2 * ls[d];
    const double *u = pts + (size_t) d * P;
    const double *s = lo + (size_t) d * B, *t = hi + (size_t) d * B;
    for (int j = 0; j < B; j++) {
      double w = average ? t[j] - s[j] : 1.0;
      for (int i = 0; i < P; i++) {
        double v = 0.5 * SQRT_PI * a * (erf((t[j] - u[i]) / a) + erf((u[i] - s[j]) / a));
        k[i + (size_t) j * P] *= v / w;
      }
    }
  }
}
