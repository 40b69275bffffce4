/* kde.c -- Gaussian kernel sums for kernel density estimation.
 *
 * Points arrive pre-scaled by the bandwidth (x / h, or H^{-1/2} x), so the
 * kernel is exp(-|u|^2 / 2); R applies the normalising constant in log space.
 *  exact:  s_j = sum_i exp(-|t_j - x_i|^2 / 2), O(n m d).
 *  binned: 1-D linear binning onto B regular bin centres, then
 *          s_j = sum_b w_b exp(-(t_j - c_b)^2 / 2) over the bins within the
 *          kernel's numerical support, O(n + m B).
 * The kernels take plain arrays; the .Call glue is the short section at the end.
 */
#include "asserts.h"

void dpfda_kde_exact(const double *x, R_xlen_t n, const double *t, R_xlen_t m,
                     int d, double *out)
{
  for (R_xlen_t j = 0; j < m; j++) {
    double s = 0.0;
    for (R_xlen_t i = 0; i < n; i++) {
      double r2 = 0.0;
      for (int k = 0; k < d; k++) {
        double u = t[j + k * m] - x[i + k * n];
        r2 += u * u;
      }
      s += exp(-0.5 * r2);
    }
    out[j] = s;
    if ((j & 15) == 15) R_CheckUserInterrupt();
  }
}

/* Linear binning: each point splits unit mass between its two neighbouring
 * centres c_0 + b * delta (b = 0..B-1); points beyond the end centres go to
 * the end centre (R clamps data to the domain first). */
void dpfda_linear_bin(const double *x, R_xlen_t n, double c0, double delta,
                      int B, double *w)
{
  for (int b = 0; b < B; b++) w[b] = 0.0;
  for (R_xlen_t i = 0; i < n; i++) {
    double pos = (x[i] - c0) / delta;
    if (!(pos > 0.0)) { w[0] += 1.0; continue; }
    if (pos >= (double) (B - 1)) { w[B - 1] += 1.0; continue; }
    int lo = (int) pos;
    double f = pos - lo;
    w[lo] += 1.0 - f;
    w[lo + 1] += f;
  }
}

void dpfda_kde_binned(const double *w, int B, double c0, double delta,
                      const double *t, R_xlen_t m, double *out)
{
  const double cut = 10.0;      /* exp(-cut^2 / 2) = 2e-22: negligible against 1 */
  for (R_xlen_t j = 0; j < m; j++) {
    double pos = (t[j] - c0) / delta;
    double reach = cut / delta;
    double lo_d = floor(pos - reach), hi_d = ceil(pos + reach);
    /* written so that NaN and infinities select the whole (or no) range */
    int lo = lo_d >= 0.0 ? (lo_d <= B - 1 ? (int) lo_d : B) : 0;
    int hi = hi_d <= B - 1 ? (hi_d >= 0.0 ? (int) hi_d : -1) : B - 1;
    double s = 0.0;
    for (int b = lo; b <= hi; b++) {
      if (w[b] == 0.0) continue;
      double u = t[j] - (c0 + b * delta);
      s += w[b] * exp(-0.5 * u * u);
    }
    out[j] = s;
    if ((j & 255) == 255) R_CheckUserInterrupt();
  }
}

/* ---- .Call glue ------------------------------------------------------------- */

/* .Call: x (n x d scaled data), t (m x d scaled grid) -> kernel sums (m) */
SEXP dpfda_kde_sum(SEXP x, SEXP t)
{
  static const char *fn = "dpfda_kde_sum";
  int n, m, d, dt;
  const double *px = dpfda_arg_real_rc(x, &n, &d, fn, "x"), *pt = dpfda_arg_real_rc(t, &m, &dt, fn, "t");
  DPFDA_ASSERT(dt == d, fn, "t", "a matrix with the columns of `x`");
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  dpfda_kde_exact(px, n, pt, m, d, REAL(out));
  UNPROTECT(1);
  return out;
}

/* .Call: 1-D binned kernel sums; x and t scaled, bins c0 + (0..B-1) delta */
SEXP dpfda_kde_binned_sum(SEXP x, SEXP t, SEXP c0, SEXP delta, SEXP B)
{
  static const char *fn = "dpfda_kde_binned_sum";
  const double *px = dpfda_arg_real(x, fn, "x"), *pt = dpfda_arg_real(t, fn, "t");
  int nb = dpfda_arg_int1(B, fn, "B");
  DPFDA_ASSERT(nb >= 1, fn, "B", "at least 1");
  double a = dpfda_arg_num(c0, fn, "c0"), dl = dpfda_arg_num(delta, fn, "delta");
  R_xlen_t m = XLENGTH(t);
  double *w = (double *) R_alloc(nb, sizeof(double));
  dpfda_linear_bin(px, XLENGTH(x), a, dl, nb, w);
  SEXP out = PROTECT(Rf_allocVector(REALSXP, m));
  dpfda_kde_binned(w, nb, a, dl, pt, m, REAL(out));
  UNPROTECT(1);
  return out;
}
