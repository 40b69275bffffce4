/* summary.c -- sufficient summaries that are sums over records, so that a
 * database engine or chunks of a file can compute them and parts can be
 * added (R/summary-*.R).
 *  - dpfda_summary_bin:  weighted 1-D linear binning onto B regular centres
 *    c_0 + b * delta (the binning of kde.c with a weight per point).
 *  - dpfda_summary_kde:  Gaussian kernel sums at the points t from given bin
 *    weights (the second half of dpfda_kde_binned_sum).
 * Inputs are pre-scaled by the bandwidth, as in kde.c.
 */
#include "asserts.h"

/* Weighted linear binning of x (n) onto nb >= 1 regular centres a + b d:
 * weights pw (NULL: 1 each) into w (nb). */
static void summary_bin(const double *px, R_xlen_t n, const double *pw, double a, double d, int nb,
                        double *w)
{
  for (int b = 0; b < nb; b++) w[b] = 0.0;
  for (R_xlen_t i = 0; i < n; i++) {
    double m = pw != NULL ? pw[i] : 1.0;
    double pos = (px[i] - a) / d;
    if (!(pos > 0.0)) { w[0] += m; continue; }
    if (pos >= (double) (nb - 1)) { w[nb - 1] += m; continue; }
    int lo = (int) pos;
    double f = pos - lo;
    w[lo] += m * (1.0 - f);
    w[lo + 1] += m * f;
  }
}

/* ---- .Call glue ------------------------------------------------------------- */

/* wt: a weight per point, or anything of another length for weight 1. */
SEXP dpfda_summary_bin(SEXP x, SEXP wt, SEXP c0, SEXP delta, SEXP B)
{
  static const char *fn = "dpfda_summary_bin";
  const double *px = dpfda_arg_real(x, fn, "x");
  R_xlen_t n = XLENGTH(x);
  const double *pw = XLENGTH(wt) == n ? dpfda_arg_real(wt, fn, "wt") : NULL;
  int nb = dpfda_arg_int1(B, fn, "B");
  DPFDA_ASSERT(nb >= 1, fn, "B", "at least 1");
  double a = dpfda_arg_num(c0, fn, "c0"), d = dpfda_arg_num(delta, fn, "delta");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, nb));
  summary_bin(px, n, pw, a, d, nb, REAL(out));
  UNPROTECT(1);
  return out;
}

SEXP dpfda_summary_kde(SEXP w, SEXP t, SEXP c0, SEXP delta)
{
  static const char *fn = "dpfda_summary_kde";
  const double *pw = dpfda_arg_real(w, fn, "w"), *pt = dpfda_arg_real(t, fn, "t");
  DPFDA_ASSERT(XLENGTH(w) >= 1, fn, "w", "non-empty");
  R_xlen_t m = XLENGTH(t);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  dpfda_kde_binned(pw, (int) XLENGTH(w), dpfda_arg_num(c0, fn, "c0"), dpfda_arg_num(delta, fn, "delta"), pt, m,
                   REAL(out));
  UNPROTECT(1);
  return out;
}
