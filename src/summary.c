/* summary.c -- sufficient summaries that are sums over records, so that a
 * database engine or chunks of a file can compute them and parts can be
 * added (R/summary-*.R).
 *  - dpfda_summary_bin:  weighted 1-D linear binning onto B regular centres
 *    c_0 + b * delta (the binning of kde.c with a weight per point).
 *  - dpfda_summary_kde:  Gaussian kernel sums at the points t from given bin
 *    weights (the second half of dpfda_kde_binned_sum).
 * Inputs are pre-scaled by the bandwidth, as in kde.c.
 */
#include "dpfda.h"

SEXP dpfda_summary_bin(SEXP x, SEXP wt, SEXP c0, SEXP delta, SEXP B)
{
  int nb = Rf_asInteger(B);
  R_xlen_t n = XLENGTH(x);
  int weighted = XLENGTH(wt) == n;
  const double *px = REAL(x), *pw = weighted ? REAL(wt) : NULL;
  double a = Rf_asReal(c0), d = Rf_asReal(delta);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, nb));
  double *w = REAL(out);
  for (int b = 0; b < nb; b++) w[b] = 0.0;
  for (R_xlen_t i = 0; i < n; i++) {
    double m = weighted ? pw[i] : 1.0;
    double pos = (px[i] - a) / d;
    if (!(pos > 0.0)) { w[0] += m; continue; }
    if (pos >= (double) (nb - 1)) { w[nb - 1] += m; continue; }
    int lo = (int) pos;
    double f = pos - lo;
    w[lo] += m * (1.0 - f);
    w[lo + 1] += m * f;
  }
  UNPROTECT(1);
  return out;
}

SEXP dpfda_summary_kde(SEXP w, SEXP t, SEXP c0, SEXP delta)
{
  R_xlen_t m = XLENGTH(t);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  dpfda_kde_binned(REAL(w), (int) XLENGTH(w), Rf_asReal(c0), Rf_asReal(delta), REAL(t), m, REAL(out));
  UNPROTECT(1);
  return out;
}
