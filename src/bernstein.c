/* bernstein.c -- the (iterated) Bernstein mechanism of Alda & Rubinstein.
 *
 * Released object: noisy values v on the lattice {0, 1/k_1, ..., 1} x ... x
 * {0, 1/k_d, ..., 1}, stored as a tensor with dims m_j = k_j + 1, first
 * coordinate fastest.  Evaluation of the iterated Bernstein polynomial of
 * order h at y is
 *     sum_nu v_nu prod_j b^(h)_{nu_j}(y_j),   b^(h)(y)' = b(y)' A_h,
 *     A_h = sum_{i<h} (I - M)^i,  M[mu, nu] = b_nu(mu / k),
 * computed as: c = v x_1 A_h x_2 ... x_d A_h (once per release and h), then
 * sum_mu c_mu prod_j b_{mu_j}(y_j) by successive mode contractions.
 *
 *  basis:      b_{nu,k}(y) from the binomial mode floor((k+1) y), whose value
 *              comes from Rmath's dbinom (saddle-point, full relative
 *              accuracy), then ratios outward; the ratios are <= 1 away from
 *              the mode, so nothing overflows and underflow ends the support.
 *  A_h:        Horner, A_1 = I, A_{j+1} = I + A_j - M A_j (dgemm), for
 *              h <= 16; binary powering of the same sum above (S_{2n} = S_n +
 *              N^n S_n, S_{n+1} = I + N S_n, N = I - M).  Never the paper's
 *              alternating binomial sum, which cancels catastrophically.
 *  A_h X:      either form A_h and multiply, or run the Horner recursion on
 *              the columns of X (C <- X + C - M C), whichever costs fewer
 *              flops.
 *  tensors:    mode products by "apply along mode 1, then rotate" (transpose
 *              the m_1 x rest matrix), d times, which restores the layout.
 *
 * Validation and memory checks happen in R (R/mech-bernstein.R); the .Call
 * glue is in bernstein-call.c.
 */
#include <string.h>
#include "dpfda.h"

/* b_{nu,k}(y), nu = 0..k, into b[0..k]; *plo, *phi bound the nonzero entries. */
static void bern_row(double y, int k, double *b, int *plo, int *phi)
{
  int lo, hi;
  if (!(y > 0.0)) {                         /* y <= 0 (R clamps): e_0 */
    memset(b, 0, (size_t) (k + 1) * sizeof(double));
    b[0] = 1.0;
    lo = hi = 0;
  } else if (!(y < 1.0)) {                  /* y >= 1: e_k */
    memset(b, 0, (size_t) (k + 1) * sizeof(double));
    b[k] = 1.0;
    lo = hi = k;
  } else {
    double fm = floor(((double) k + 1.0) * y);
    int mode = fm > (double) k ? k : (int) fm;
    double r = y / (1.0 - y);               /* 1 - y is exact for y >= 1/2 */
    double v0 = Rf_dbinom((double) mode, (double) k, y, 0), v = v0;
    b[mode] = v0;
    hi = mode;
    for (int nu = mode; nu < k; nu++) {     /* b_{nu+1} = b_nu (k-nu)/(nu+1) y/(1-y) */
      v *= ((double) (k - nu) / (double) (nu + 1)) * r;
      if (v == 0.0) break;
      b[nu + 1] = v;
      hi = nu + 1;
    }
    for (int nu = hi + 1; nu <= k; nu++) b[nu] = 0.0;
    v = v0;
    lo = mode;
    for (int nu = mode; nu > 0; nu--) {     /* b_{nu-1} = b_nu nu/(k-nu+1) (1-y)/y */
      v *= ((double) nu / (double) (k - nu + 1)) / r;
      if (v == 0.0) break;
      b[nu - 1] = v;
      lo = nu - 1;
    }
    for (int nu = 0; nu < lo; nu++) b[nu] = 0.0;
  }
  if (plo) *plo = lo;
  if (phi) *phi = hi;
}

/* Basis values at n points as columns of the (k+1) x n matrix bt. */
static void bern_basis_cols(const double *y, R_xlen_t n, int k, double *bt)
{
  for (R_xlen_t i = 0; i < n; i++) {
    bern_row(y[i], k, bt + i * (R_xlen_t) (k + 1), NULL, NULL);
    if ((i & 1023) == 1023) R_CheckUserInterrupt();
  }
}

/* Mt = M' : column mu holds b(mu / k), i.e. Mt[nu + mu m] = M[mu, nu]. */
static void bern_nodes(int k, double *Mt)
{
  R_xlen_t m = k + 1;
  for (int mu = 0; mu <= k; mu++)
    bern_row(mu == k ? 1.0 : (double) mu / (double) k, k, Mt + mu * m, NULL, NULL);
}

/* C = op(A) B for m x m A and m x n B (column-major). */
static void gemm_sq(const char *ta, int m, int n, const double *A, const double *B, double *C)
{
  const double one = 1.0, zero = 0.0;
  if (m == 0 || n == 0) return;
  F77_CALL(dgemm)(ta, "N", &m, &n, &m, &one, A, &m, B, &m, &zero, C, &m FCONE FCONE);
}

static void set_identity(double *A, int m)
{
  memset(A, 0, (size_t) m * (size_t) m * sizeof(double));
  for (int i = 0; i < m; i++) A[i + (R_xlen_t) i * m] = 1.0;
}

/* Number of matrix products that forming A_h costs (method 0: automatic). */
static double bern_form_products(int h, int method)
{
  if (h <= 1) return 0.0;
  if (method == 1 || (method == 0 && h <= 16)) return (double) (h - 1);
  double p = 0.0;
  for (int b = 30; b >= 0; b--) {
    if (!((h >> b) & 1)) continue;
    for (int c = b - 1; c >= 0; c--) p += ((h >> c) & 1) ? 4.0 : 2.0;
    break;
  }
  return p;
}

/* A_h into S ((k+1)^2).  method: 0 automatic, 1 Horner, 2 binary powering.
 * Mt from bern_nodes(); P, T workspaces of (k+1)^2 doubles. */
static void bern_iter_matrix(int k, int h, int method, const double *Mt,
                             double *S, double *P, double *T)
{
  int m = k + 1;
  R_xlen_t mm = (R_xlen_t) m * m;
  set_identity(S, m);
  if (h <= 1) return;
  if (method == 1 || (method == 0 && h <= 16)) {
    for (int j = 1; j < h; j++) {               /* S <- I + S - M S */
      gemm_sq("T", m, m, Mt, S, T);
      for (R_xlen_t i = 0; i < mm; i++) S[i] -= T[i];
      for (int i = 0; i < m; i++) S[i + (R_xlen_t) i * m] += 1.0;
      R_CheckUserInterrupt();
    }
    return;
  }
  /* binary powering: (S, P) = (S_n, N^n), starting at n = 1 */
  double *Sc = S, *Pc = P, *Tc = T;
  for (int i = 0; i < m; i++)                    /* P = N = I - M */
    for (int j = 0; j < m; j++)
      Pc[i + (R_xlen_t) j * m] = (i == j ? 1.0 : 0.0) - Mt[j + (R_xlen_t) i * m];
  int top = 30;
  while (!((h >> top) & 1)) top--;
  for (int b = top - 1; b >= 0; b--) {
    gemm_sq("N", m, m, Pc, Sc, Tc);              /* S_{2n} = S_n + N^n S_n */
    for (R_xlen_t i = 0; i < mm; i++) Sc[i] += Tc[i];
    gemm_sq("N", m, m, Pc, Pc, Tc);              /* N^{2n} */
    double *sw = Pc; Pc = Tc; Tc = sw;
    if ((h >> b) & 1) {
      gemm_sq("T", m, m, Mt, Sc, Tc);            /* S_{n+1} = I + S_n - M S_n */
      for (R_xlen_t i = 0; i < mm; i++) Sc[i] -= Tc[i];
      for (int i = 0; i < m; i++) Sc[i + (R_xlen_t) i * m] += 1.0;
      gemm_sq("T", m, m, Mt, Pc, Tc);            /* N^{n+1} = N^n - M N^n */
      for (R_xlen_t i = 0; i < mm; i++) Pc[i] -= Tc[i];
    }
    R_CheckUserInterrupt();
  }
  if (Sc != S) memcpy(S, Sc, (size_t) mm * sizeof(double));
}

/* Whether forming A_h beats the column recursion for an m x ncol block. */
static int bern_use_form(int k, int h, double ncol, int method)
{
  if (method == 1) return 1;
  if (method == 2) return 0;
  double m = (double) k + 1.0;
  double cform = bern_form_products(h, 0) * m * m * m + m * m * ncol;
  double cvec = ((double) h - 1.0) * m * m * ncol;
  return cform < cvec;
}

/* Workspace of bern_apply in doubles: Mt plus either 3 (k+1)^2 (form) or
 * (k+1) ncol (column recursion). */
static R_xlen_t bern_apply_work(int k, int h, R_xlen_t ncol, int method)
{
  R_xlen_t m = k + 1, w = m * m;
  if (h <= 1) return 0;
  if (bern_use_form(k, h, (double) ncol, method)) w += 3 * m * m;
  else w += m * ncol;
  return w;
}

/* out = op(A_h) X for the (k+1) x ncol matrix X; op is transposition when
 * trans != 0.  method: 0 automatic, 1 form A_h, 2 column recursion.  work
 * holds bern_apply_work() doubles; *formed caches A_h between calls with the
 * same k (set to -1 initially). */
static void bern_apply(int k, int h, int trans, int method, const double *X, int ncol,
                       double *out, double *work, int *formed)
{
  int m = k + 1;
  R_xlen_t mm = (R_xlen_t) m * m, len = (R_xlen_t) m * ncol;
  if (h <= 1) {
    memcpy(out, X, (size_t) len * sizeof(double));
    return;
  }
  double *Mt = work;
  if (bern_use_form(k, h, (double) ncol, method)) {
    double *S = work + mm, *P = S + mm, *T = P + mm;
    if (*formed != k) {
      bern_nodes(k, Mt);
      bern_iter_matrix(k, h, 0, Mt, S, P, T);
      *formed = k;
    }
    gemm_sq(trans ? "T" : "N", m, ncol, S, X, out);
    return;
  }
  double *T = work + mm;
  if (*formed != -2 - k) {     /* nodes only (the form cache is clobbered) */
    bern_nodes(k, Mt);
    *formed = -2 - k;
  }
  memcpy(out, X, (size_t) len * sizeof(double));
  for (int j = 1; j < h; j++) {      /* C <- X + C - op(M) C; M C = Mt' C */
    gemm_sq(trans ? "N" : "T", m, ncol, Mt, out, T);
    for (R_xlen_t i = 0; i < len; i++) out[i] = X[i] + out[i] - T[i];
    R_CheckUserInterrupt();
  }
}

/* out (cols x rows) = transpose of in (rows x cols). */
static void transpose(const double *in, R_xlen_t rows, R_xlen_t cols, double *out)
{
  const R_xlen_t B = 32;
  for (R_xlen_t c0 = 0; c0 < cols; c0 += B)
    for (R_xlen_t r0 = 0; r0 < rows; r0 += B) {
      R_xlen_t c1 = c0 + B < cols ? c0 + B : cols, r1 = r0 + B < rows ? r0 + B : rows;
      for (R_xlen_t c = c0; c < c1; c++)
        for (R_xlen_t r = r0; r < r1; r++) out[c + r * cols] = in[r + c * rows];
    }
}

/* Apply A_h along every mode of the tensor v (dims m_j = k_j + 1, total mt)
 * into out.  work: 2 mt + max_j bern_apply_work(). */
static void bern_coef_work(const double *v, const int *dims, int d, R_xlen_t mt, int h,
                      int method, double *out, double *work)
{
  double *cur = work, *tmp = work + mt, *aw = work + 2 * mt;
  int formed = -1;
  memcpy(cur, v, (size_t) mt * sizeof(double));
  for (int j = 0; j < d; j++) {
    int mj = dims[j];
    R_xlen_t rest = mt / mj;
    bern_apply(mj - 1, h, 0, method, cur, (int) rest, tmp, aw, &formed);
    transpose(tmp, mj, rest, cur);                /* mode j+1 becomes the fastest */
  }
  memcpy(out, cur, (size_t) mt * sizeof(double));
}

/* Value at one point y (length d, in [0,1]^d) of sum_mu c_mu prod_j b_{mu_j}(y_j):
 * contraction of mode 1 first, over the support of each basis only.
 * ws: mt / m_1 doubles; bb: max m_j doubles. */
static double bern_contract(const double *c, const int *dims, int d, R_xlen_t mt,
                            const double *y, double *ws, double *bb)
{
  const double *src = c;
  R_xlen_t len = mt;
  for (int j = 0; j < d; j++) {
    int mj = dims[j], lo, hi;
    bern_row(y[j], mj - 1, bb, &lo, &hi);
    R_xlen_t rest = len / mj;
    for (R_xlen_t r = 0; r < rest; r++) {   /* in place after the first mode */
      const double *col = src + r * mj;
      double s = 0.0;
      for (int mu = lo; mu <= hi; mu++) s += col[mu] * bb[mu];
      ws[r] = s;
    }
    src = ws;
    len = rest;
  }
  return ws[0];
}

/* ---- the kernels of the .Call entry points (bernstein-call.c) --------------- */

/* out (n x (k+1)) = b^(h)_{nu,k}(y_i); method as bern_apply(). */
void dpfda_bern_basis(const double *y, R_xlen_t n, int k, int h, int method, double *out)
{
  R_xlen_t m = k + 1;
  double *bt = (double *) R_alloc((size_t) (n * m > 0 ? n * m : 1), sizeof(double));
  bern_basis_cols(y, n, k, bt);
  if (h > 1 && n > 0) {                        /* columns of A_h' B' are b^(h)(y_i) */
    double *bh = (double *) R_alloc((size_t) (n * m), sizeof(double));
    double *work = (double *) R_alloc((size_t) bern_apply_work(k, h, n, method), sizeof(double));
    int formed = -1;
    bern_apply(k, h, 1, method, bt, (int) n, bh, work, &formed);
    bt = bh;
  }
  transpose(bt, m, n, out);
}

/* out ((k+1) x (k+1)) = A_h; method 0 auto, 1 Horner, 2 binary powering. */
void dpfda_bern_iterate(int k, int h, int method, double *out)
{
  R_xlen_t m = k + 1;
  double *Mt = (double *) R_alloc((size_t) (3 * m * m), sizeof(double));
  bern_nodes(k, Mt);
  bern_iter_matrix(k, h, method, Mt, out, Mt + m * m, Mt + 2 * m * m);
}

/* out (mt) = v x_1 A_h ... x_d A_h for the tensor v with dims m_j >= 2
 * (product mt); method 0 auto, 1 form, 2 column recursion. */
void dpfda_bern_coef(const double *v, const int *dims, int d, R_xlen_t mt, int h, int method,
                     double *out)
{
  if (h <= 1) {
    memcpy(out, v, (size_t) mt * sizeof(double));
    return;
  }
  R_xlen_t aw = 0;
  for (int j = 0; j < d; j++) {
    R_xlen_t w = bern_apply_work(dims[j] - 1, h, mt / dims[j], method);
    if (w > aw) aw = w;
  }
  double *work = (double *) R_alloc((size_t) (2 * mt + aw), sizeof(double));
  bern_coef_work(v, dims, d, mt, h, method, out, work);
}

/* out (n): the polynomial with coefficients c (dims, product mt) at the rows
 * of Y (n x d), each coordinate clamped to [0, 1]. */
void dpfda_bern_eval(const double *c, const int *dims, int d, R_xlen_t mt, const double *y,
                     R_xlen_t n, double *o)
{
  int mmax = 0;
  for (int j = 0; j < d; j++) if (dims[j] > mmax) mmax = dims[j];
  double *ws = (double *) R_alloc((size_t) (mt / dims[0]), sizeof(double));
  double *bb = (double *) R_alloc((size_t) mmax, sizeof(double));
  double *yi = (double *) R_alloc((size_t) d, sizeof(double));
  R_xlen_t every = mt > 4096 ? 1 : 4096 / mt + 1;   /* interrupts about every 4096 mt flops */
  for (R_xlen_t i = 0; i < n; i++) {
    for (int j = 0; j < d; j++) {
      double v = y[i + j * n];
      yi[j] = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);   /* R clamps; this only asserts */
    }
    o[i] = bern_contract(c, dims, d, mt, yi, ws, bb);
    if (i % every == every - 1) R_CheckUserInterrupt();
  }
}

/* Size of the largest intermediate of dpfda_bern_eval_grid(), (prod_{i<=j}
 * G_i)(prod_{i>j} m_i), and the number of grid points into *gtot. */
static R_xlen_t bern_grid_big(const int *dims, int d, R_xlen_t mt, const R_xlen_t *g, R_xlen_t *gtot)
{
  R_xlen_t big = mt, cur = mt;
  *gtot = 1;
  for (int j = 0; j < d; j++) {
    cur = cur / dims[j] * g[j];
    *gtot *= g[j];
    if (cur > big) big = cur;
  }
  return big;
}

/* out (prod g_j): the polynomial with coefficients c (dims, product mt) on
 * the tensor grid of the d axes (axis j: g[j] points, clamped to [0, 1]),
 * first axis fastest: mode products with the g_j x m_j basis matrices
 * (B_1 C B_2' in two dimensions). */
void dpfda_bern_eval_grid(const double *c, const int *dims, int d, R_xlen_t mt,
                          const double *const *axes, const R_xlen_t *g, double *out)
{
  R_xlen_t gtot, big = bern_grid_big(dims, d, mt, g, &gtot), cur = mt;
  if (gtot == 0) return;
  double *X = (double *) R_alloc((size_t) big, sizeof(double));
  double *Z = (double *) R_alloc((size_t) big, sizeof(double));
  memcpy(X, c, (size_t) mt * sizeof(double));
  for (int j = 0; j < d; j++) {
    int gj = (int) g[j], mj = dims[j];
    R_xlen_t rest = cur / mj;
    double *yc = (double *) R_alloc((size_t) gj, sizeof(double));
    for (int i = 0; i < gj; i++) {
      double v = axes[j][i];
      yc[i] = v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v);
    }
    double *bt = (double *) R_alloc((size_t) gj * mj, sizeof(double));
    bern_basis_cols(yc, gj, mj - 1, bt);     /* mj x gj */
    const double one = 1.0, zero = 0.0;
    int ir = (int) rest;
    F77_CALL(dgemm)("T", "N", &gj, &ir, &mj, &one, bt, &mj, X, &mj, &zero, Z, &gj FCONE FCONE);
    transpose(Z, gj, rest, X);                          /* rest x gj */
    cur = rest * gj;
    R_CheckUserInterrupt();
  }
  memcpy(out, X, (size_t) gtot * sizeof(double));
}

/* out = v + i.i.d. noise of scale s (type 0 Laplace, 1 Gaussian) from the
 * package noise source; s <= 0 copies v.  The noise itself is never kept. */
void dpfda_bern_perturb(const double *v, R_xlen_t n, double s, int type, double *o)
{
  if (s > 0.0) {
    dpfda_rng_begin();
    if (type == 0) for (R_xlen_t i = 0; i < n; i++) o[i] = v[i] + dpfda_laplace(s);
    else           for (R_xlen_t i = 0; i < n; i++) o[i] = v[i] + s * dpfda_norm();
    dpfda_rng_end();
  } else {
    memcpy(o, v, (size_t) n * sizeof(double));
  }
}
