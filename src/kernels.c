/* kernels.c -- Gram and cross-Gram matrices.
 *
 * The R layer rescales the points first (by the lengthscales, or by the
 * inverse Cholesky factor of a bandwidth matrix H), so every kernel here has
 * unit lengthscale: Gaussian v exp(-|u|^2/2), exponential v exp(-|u|_p),
 * Matern(nu) in r = |u|_2.  The kernels take plain arrays; the one .Call
 * entry point (the Gram matrix) is the short glue at the end.
 */
#include "asserts.h"

int dpfda_bessel_work_len(double nu) { return (int) floor(nu) + 1; }

/* The Matern correlation 2^(1-nu) / Gamma(nu) s^nu K_nu(s) as its series in x = s^2 / 4,
 *   sum_k (-x)^k / (k! (nu - 1)(nu - 2)...(nu - k)),
 * for nu > 1 where K_nu(s) overflows: there (2/s)^nu Gamma(nu) > 1e308, so the part of order s^(2 nu)
 * that the series leaves out is below 1e-600 of it.  Terms shrink once k (nu - k) exceeds x; the
 * sum stops at a relative 1e-17 (or before k reaches nu). */
static double matern_series(double s, double nu)
{
  double x = s * s / 4.0, term = 1.0, sum = 1.0;
  for (int k = 0; k + 1.0 < nu && k < 100000; k++) {
    term *= -x / ((k + 1.0) * (nu - k - 1.0));
    sum += term;
    if (fabs(term) <= 1e-17 * fabs(sum)) break;
  }
  return sum > 1.0 ? 1.0 : (sum < 0.0 ? 0.0 : sum);
}

/* Matern correlation at scaled distance r >= 0; closed forms for the
 * half-integer orders, the exponentially scaled Bessel function otherwise so
 * that large r neither overflows nor loses the product to 0 * Inf. */
static double matern_r(double r, double nu, double *bk)
{
  if (r == 0.0) return 1.0;
  /* exp(-r) underflows long before the polynomial factors could matter; this
   * also avoids Inf * 0 = NaN for astronomically large r. */
  if (r > 1e4) return 0.0;
  if (nu == 0.5) return exp(-r);
  if (nu == 1.5) { double s = M_SQRT_3 * r; return (1.0 + s) * exp(-s); }
  if (nu == 2.5) {
    double s = sqrt(5.0) * r;
    return (1.0 + s + s * s / 3.0) * exp(-s);
  }
  double s = sqrt(2.0 * nu) * r;
  double kb = Rf_bessel_k_ex(s, nu, 2.0, bk);      /* exp(s) K_nu(s) */
  /* K_nu(s) overflows for large nu at small s (nu = 500: every s below 88): the correlation was
   * then exactly 1, and the noise a constant.  There the series in s^2 serves instead. */
  if (!R_FINITE(kb)) return matern_series(s, nu);
  if (!(kb > 0.0)) return 0.0;
  double lg = (1.0 - nu) * M_LN2 - Rf_lgammafn(nu) + nu * log(s) - s + log(kb);
  if (!R_FINITE(lg)) return matern_series(s, nu);
  double v = exp(lg);
  return v > 1.0 ? 1.0 : v;   /* rounding can overshoot k(0) = 1 at tiny r */
}

double dpfda_kernel_eval_r(int type, double r, double nu, double variance,
                           double *bk)
{
  switch (type) {
  case DPFDA_K_GAUSSIAN: return variance * exp(-0.5 * r * r);
  case DPFDA_K_EXP_L1:
  case DPFDA_K_EXP_L2:   return variance * exp(-r);
  case DPFDA_K_MATERN:   return variance * matern_r(r, nu, bk);
  default:               return NA_REAL;
  }
}

/* distance between x[., ] and y[., ] (rows with leading dimensions ldx, ldy):
 * squared L2 is never formed for L1. */
double dpfda_kernel_eval(int type, const double *x, R_xlen_t ldx,
                         const double *y, R_xlen_t ldy, int d, double nu,
                         double variance, double *bk)
{
  double acc = 0.0;
  if (type == DPFDA_K_EXP_L1) {
    for (int k = 0; k < d; k++) acc += fabs(x[k * ldx] - y[k * ldy]);
    return variance * exp(-acc);
  }
  for (int k = 0; k < d; k++) {
    double u = x[k * ldx] - y[k * ldy];
    acc += u * u;
  }
  if (type == DPFDA_K_GAUSSIAN) return variance * exp(-0.5 * acc);
  return dpfda_kernel_eval_r(type, sqrt(acc), nu, variance, bk);
}

void dpfda_gram(int type, const double *x, int n, const double *y, int m,
                int d, double nu, double variance, int symmetric, double *out)
{
  double *bk = (double *) R_alloc(dpfda_bessel_work_len(nu), sizeof(double));
  for (int j = 0; j < m; j++) {
    int i0 = symmetric ? j : 0;
    for (int i = i0; i < n; i++) {
      double v = dpfda_kernel_eval(type, x + i, n, y + j, m, d, nu, variance, bk);
      out[i + (R_xlen_t) j * n] = v;
      if (symmetric) out[j + (R_xlen_t) i * n] = v;
    }
    if ((j & 63) == 63) R_CheckUserInterrupt();
  }
}

/* ---- .Call glue ------------------------------------------------------------- */

/* .Call: x (n x d), y (m x d) or NULL for the symmetric Gram of x. */
SEXP dpfda_kernel_gram(SEXP x, SEXP y, SEXP type, SEXP nu, SEXP variance)
{
  static const char *fn = "dpfda_kernel_gram";
  int sym = Rf_isNull(y), n, m, d, dy;
  const double *px = dpfda_arg_real_rc(x, &n, &d, fn, "x");
  const double *py = sym ? px : dpfda_arg_real_rc(y, &m, &dy, fn, "y");
  if (sym) m = n;
  else DPFDA_ASSERT(dy == d, fn, "y", "NULL or a matrix with the columns of `x`");
  int tp = dpfda_arg_int1(type, fn, "type");
  DPFDA_ASSERT(tp >= DPFDA_K_GAUSSIAN && tp <= DPFDA_K_MATERN, fn, "type", "a kernel code from 1 to 4");
  double v = dpfda_arg_num(nu, fn, "nu"), var = dpfda_arg_num(variance, fn, "variance");
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, n, m));
  dpfda_gram(tp, px, n, py, m, d, v, var, sym, REAL(out));
  UNPROTECT(1);
  return out;
}
