/* online.c -- online release of ONE Gaussian-process path, one query at a
 * time (Hall, Rinaldo & Wasserman 2013, Section 5, corrected: we condition
 * on the noise values, not on the released values, and the conditional
 * variance is scaled by sigma^2).
 *
 * Plain C on the state (online.h) in malloc'd memory; the .Call glue
 * (online-call.c) keeps it behind an external pointer.
 *
 * Two algorithms, chosen by R at the first query:
 *
 *  GENERAL (Algorithm D): points P (k x d), the lower Cholesky factor L of
 *    K_P / v + tau I (unit-variance kernel; v = kernel variance, folded into
 *    the amplitude) stored as packed rows (row j at offset j (j + 1) / 2) in
 *    a buffer grown geometrically, and the standard normals u used so far.
 *    A new point x: l = L^{-1} K(P, x), d2 = K(x, x) + tau - |l|^2 (raised
 *    to tau if below tau / 2: more noise is safe, never less), g = l'u +
 *    sqrt(d2) z, append the row [l', sqrt(d2)] and z.  O(k d + k^2) per
 *    query.  With the same z's the answers equal the batch release
 *    f + amp L z in query order.
 *
 *  MARKOV (Algorithm E): exponential kernel exp(-gamma |x - y|) in 1-D.  The
 *    path is Markov, so a new point conditions only on its two neighbours.
 *    Points are kept in an AVL tree (array of nodes, int links): O(log k)
 *    neighbour search and insertion, worst case.  The conditional law is
 *    written with expm1, so that it neither overflows nor cancels: for
 *    a < x < b, t1 = gamma (x - a), t2 = gamma (b - x),
 *    q = 1 - exp(-2 t) = -expm1(-2 t),
 *      mean = [e^{-t1} q2 g(a) + e^{-t2} q1 g(b)] / q12,  var = q1 q2 / q12,
 *    with q12 = -expm1(-2 (t1 + t2)); one-sided: mean = e^{-t} g, var = q.
 *
 * Answers are f(x) + amp * g with amp = sigma sqrt(v).  Repeated points
 * return the stored answer and draw nothing.  All noise comes from rng.c
 * (dpfda_norm between dpfda_rng_begin / dpfda_rng_end).  Memory that held
 * noise is wiped before it is freed.
 *
 *  EXACT NOISE (noise = "exact"): the same factorisation, run on the
 *    whitened coordinates instead of the normals.  With L L' the (unit
 *    variance) covariance of the answered points in query order, the
 *    answers are a = L y with y = w + noise, w = L^{-1} f (private).  A new
 *    point with row [l', d] of L: w_new = (f(x) - l'w) / d, and
 *      y_new = step * (round(w_new / step) + Z),  Z ~ N_Z(0, p) exactly
 *    (discrete.c; round clamped to +/- 2^52 steps), a = l'y + d y_new.
 *    So each answer is its conditional mean l'y (earlier answers) plus d
 *    times a lattice value: the conditional Gaussian step m + sqrt(v) z with
 *    z a discrete Gaussian.  Markov path: l'w and l'y are the two-neighbour
 *    means of f and of the answers, d^2 the conditional variance; the node
 *    keeps f(x) (private) in the place of g.  General path: w is kept next
 *    to y (which takes the place of u).  Privacy (R/mech-online.R): y is an
 *    adaptive sequence of discrete Gaussian mechanisms whose squared
 *    sensitivities sum to at most (Delta + sqrt(nmax) step)^2; no more than
 *    nmax points are answered.
 */
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <float.h>
#include "online.h"

/* ---- memory ---------------------------------------------------------------- */

static void wipe(void *p, size_t bytes)
{
  volatile unsigned char *v = (volatile unsigned char *) p;
  while (bytes--) *v++ = 0;
}

static void release_storage(online_state *s);

void online_free(online_state *s)
{
  if (s == NULL) return;
  release_storage(s);
  wipe(s, sizeof *s);
  free(s);
}

/* The noise bracket of rng.c, also dropping the buffered bits of the exact
 * sampler at both ends (seeded mode stays reproducible call by call). */
static void rng_open(void) { dpfda_rng_begin(); dpfda_discrete_reset(); }
static void rng_close(void) { dpfda_discrete_reset(); dpfda_rng_end(); }

/* Move a buffer to a bigger block, wiping the old one when it held noise. */
static void *move_to(void *old, size_t old_bytes, size_t new_bytes, int secret)
{
  void *nb = malloc(new_bytes);
  if (nb == NULL) return NULL;
  if (old != NULL) {
    memcpy(nb, old, old_bytes);
    if (secret) wipe(old, old_bytes);
    free(old);
  }
  return nb;
}

/* Capacity for at least `need` points; 0 on failure (state unchanged). */
static int reserve_points(online_state *s, int need)
{
  if (need <= s->cap) return 1;
  if (need == INT_MAX) return 0;
  size_t nc = s->cap > 0 ? (size_t) s->cap : 16;
  while (nc < (size_t) need) nc *= 2;
  if (nc > (size_t) INT_MAX - 1) nc = (size_t) INT_MAX - 1;
  size_t oc = (size_t) s->cap;
  if (s->kind == KIND_MARKOV) {
    ou_val *nv = (ou_val *) malloc(nc * sizeof(ou_val));
    if (nv == NULL) return 0;
    ou_node *nn = (ou_node *) move_to(s->nodes, oc * sizeof(ou_node), nc * sizeof(ou_node), 1);
    if (nn == NULL) { free(nv); return 0; }
    if (oc > 0) {
      memcpy(nv, s->vals, oc * sizeof(ou_val));
      wipe(s->vals, oc * sizeof(ou_val));
    }
    free(s->vals);
    s->nodes = nn;
    s->vals = nv;
  } else {
    size_t d = (size_t) s->d;
    double *nx = (double *) malloc(nc * d * sizeof(double));
    double *nxs = (double *) malloc(nc * d * sizeof(double));
    double *na = (double *) malloc(nc * sizeof(double));
    double *nu = (double *) malloc(nc * sizeof(double));
    double *nw = s->exact ? (double *) malloc(nc * sizeof(double)) : NULL;
    if (!nx || !nxs || !na || !nu || (s->exact && !nw)) {
      free(nx); free(nxs); free(na); free(nu); free(nw);
      return 0;
    }
    if (oc > 0) {
      memcpy(nx, s->x, oc * d * sizeof(double));
      memcpy(nxs, s->xs, oc * d * sizeof(double));
      memcpy(na, s->ans, oc * sizeof(double));
      memcpy(nu, s->u, oc * sizeof(double));
      wipe(s->u, oc * sizeof(double));
      if (s->exact) {
        memcpy(nw, s->w, oc * sizeof(double));
        wipe(s->w, oc * sizeof(double));
      }
    }
    free(s->x); free(s->xs); free(s->ans); free(s->u); free(s->w);
    s->x = nx; s->xs = nxs; s->ans = na; s->u = nu; s->w = nw;
  }
  s->cap = (int) nc;
  return 1;
}

/* Room in L for the rows of `need` points (packed: need (need + 1) / 2). */
static int reserve_factor(online_state *s, int need)
{
  size_t want = (size_t) need * ((size_t) need + 1) / 2;
  if (want <= s->capL) return 1;
  size_t nc = s->capL > 0 ? s->capL : 136;
  while (nc < want) nc *= 2;
  double *nl = (double *) realloc(s->L, nc * sizeof(double));   /* L holds no noise */
  if (nl == NULL) return 0;
  s->L = nl;
  s->capL = nc;
  return 1;
}

/* ---- small dense helpers ----------------------------------------------------------- */

static double dot(const double *a, const double *b, int n)
{
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; i++) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

static inline double *factor_row(const online_state *s, int j)
{
  return s->L + (size_t) j * ((size_t) j + 1) / 2;
}

/* row i of the column-major k x d matrix x, into r */
static inline void get_row(const double *x, int k, int d, int i, double *r)
{
  for (int c = 0; c < d; c++) r[c] = x[i + (size_t) c * k];
}

/* index of a stored point equal to r (exact), or -1 */
static int general_find(const online_state *s, const double *r)
{
  int d = s->d;
  for (int j = 0; j < s->n; j++) {
    const double *p = s->x + (size_t) j * d;
    int c = 0;
    while (c < d && p[c] == r[c]) c++;
    if (c == d) return j;
  }
  return -1;
}

/* l = L^{-1} K(P, xs_new) into l[0..n-1]; returns d2 after the guard. */
static double general_solve(const online_state *s, const double *xsr, double *l, double *bk)
{
  int n = s->n, d = s->d;
  for (int j = 0; j < n; j++)
    l[j] = dpfda_kernel_eval(s->ktype, xsr, 1, s->xs + (size_t) j * d, 1, d, s->nu, 1.0, bk);
  for (int j = 0; j < n; j++) {
    const double *Lj = factor_row(s, j);
    l[j] = (l[j] - dot(Lj, l, j)) / Lj[j];
  }
  double kxx = dpfda_kernel_eval(s->ktype, xsr, 1, xsr, 1, d, s->nu, 1.0, bk);
  double d2 = kxx + s->tau - dot(l, l, n);
  if (!(d2 >= 0.5 * s->tau)) d2 = s->tau;   /* rounding guard: raise, never lower */
  return d2;
}

/* ---- AVL tree ---------------------------------------------------------------------- */

static inline int h_of(const ou_node *t, int i) { return i < 0 ? 0 : t[i].height; }

static inline void h_fix(ou_node *t, int i)
{
  int hl = h_of(t, t[i].child[0]), hr = h_of(t, t[i].child[1]);
  t[i].height = 1 + (hl > hr ? hl : hr);
}

/* rotate the subtree at y: its child on side `side` becomes its root */
static int rotate(ou_node *t, int y, int side)
{
  int x = t[y].child[side];
  t[y].child[side] = t[x].child[1 - side];
  t[x].child[1 - side] = y;
  h_fix(t, y);
  h_fix(t, x);
  return x;
}

static int rebalance(ou_node *t, int i)
{
  h_fix(t, i);
  int b = h_of(t, t[i].child[0]) - h_of(t, t[i].child[1]);
  if (b > 1 || b < -1) {
    int side = b > 1 ? 0 : 1, c = t[i].child[side];
    if (h_of(t, t[c].child[side]) < h_of(t, t[c].child[1 - side]))
      t[i].child[side] = rotate(t, c, 1 - side);
    return rotate(t, i, side);
  }
  return i;
}

/* Node with key x, or -1; *pred / *succ: nearest smaller / larger keys;
 * path (may be NULL): the nodes passed.  The side is an index, not a
 * branch: random keys would mispredict every level. */
static int ou_search(const online_state *s, double x, int *pred, int *succ, ou_path *path)
{
  const ou_node *t = s->nodes;
  int cur = s->root, pr = -1, su = -1, depth = 0;
  while (cur >= 0) {
    double k = t[cur].key;
    if (x == k) break;
    int right = x > k;
    if (path && depth < AVL_MAX_DEPTH) path->node[depth] = cur;   /* (AVL height < 48) */
    depth++;
    pr = right ? cur : pr;
    su = right ? su : cur;
    cur = t[cur].child[right];
  }
  *pred = pr;
  *succ = su;
  if (path) path->n = depth;
  return cur;
}

/* insert a key known to be absent below the end of its search path;
 * capacity reserved by the caller */
static void ou_insert(online_state *s, double key, double g, double ans, const ou_path *path)
{
  ou_node *t = s->nodes;
  int idx = s->n, depth = path->n;
  t[idx].key = key;
  t[idx].child[0] = t[idx].child[1] = -1;
  t[idx].height = 1;
  s->vals[idx].g = g;
  s->vals[idx].ans = ans;
  s->n++;
  if (depth == 0) {
    s->root = idx;
    return;
  }
  int parent = path->node[depth - 1];
  t[parent].child[key > t[parent].key] = idx;
  for (int k = depth - 1; k >= 0; k--) {
    int p = path->node[k], h0 = t[p].height;
    int r = rebalance(t, p);
    if (k == 0) s->root = r;
    else {
      int q = path->node[k - 1];
      t[q].child[t[q].child[1] == p] = r;
    }
    /* a rotation restores the height the subtree had before the insertion, and
     * an unchanged height leaves every ancestor as it was: stop (same tree) */
    if (r != p || t[r].height == h0) break;
  }
}

/* The conditional law of the OU path (unit variance) at x given the
 * neighbours pred (< x) and succ (> x), either of which may be -1: the mean
 * is (c[0] v(pred) + c[1] v(succ)) / c[2] for the values v at the
 * neighbours (the noise g, or in exact mode f and the answers: the same
 * linear map), and *var the variance. */
static void ou_coef(const online_state *s, double x, int pred, int succ, double c[3], double *var)
{
  const ou_node *t = s->nodes;
  double gm = s->gamma;
  c[0] = c[1] = 0.0;
  c[2] = 1.0;
  if (pred < 0 && succ < 0) { *var = 1.0; return; }
  if (pred < 0 || succ < 0) {
    int j = pred < 0 ? succ : pred;
    double dist = pred < 0 ? t[j].key - x : x - t[j].key;   /* > 0, may be +Inf */
    double tt = gm * dist;
    c[pred < 0 ? 1 : 0] = exp(-tt);
    *var = -expm1(-2.0 * tt);
    return;
  }
  double a = t[pred].key, b = t[succ].key;
  double t1 = gm * (x - a), t2 = gm * (b - x);
  double r1 = exp(-t1), r2 = exp(-t2);
  double q1 = -expm1(-2.0 * t1), q2 = -expm1(-2.0 * t2);
  double q12 = -expm1(-2.0 * (t1 + t2));
  if (q12 > 0.0) {
    c[0] = r1 * q2;
    c[1] = r2 * q1;
    c[2] = q12;
    *var = q1 * q2 / q12;
  } else {            /* gamma (b - a) underflows: a, x, b coincide for the kernel */
    c[0] = c[1] = 0.5;
    *var = 0.0;
  }
  if (!(*var >= 0.0)) *var = 0.0;   /* cannot happen: products of non-negatives */
}

/* (c[0] v(pred) + c[1] v(succ)) / c[2], v = the field g (which = 0) or ans */
static inline double ou_mix(const online_state *s, int pred, int succ, const double c[3], int which)
{
  const ou_val *t = s->vals;
  double va = pred < 0 ? 0.0 : (which == 0 ? t[pred].g : t[pred].ans);
  double vb = succ < 0 ? 0.0 : (which == 0 ? t[succ].g : t[succ].ans);
  return (c[0] * va + c[1] * vb) / c[2];
}

/* Conditional mean of the unit-variance noise and variance at x (float
 * mode: the noise g is stored; exact mode: (answers - f) / amp). */
static void ou_condition(const online_state *s, double x, int pred, int succ,
                         double *mean, double *var)
{
  double c[3];
  ou_coef(s, x, pred, succ, c, var);
  if (!s->exact) *mean = ou_mix(s, pred, succ, c, 0);
  else *mean = (ou_mix(s, pred, succ, c, 1) - ou_mix(s, pred, succ, c, 0)) / s->amp;
}

/* ---- exact noise --------------------------------------------------------------------- */

/* The noisy whitened coordinate of w, in units u = gunit of the lattice:
 * u step (round(w / u / step) + Z), Z ~ N_Z(0, dgp), |Z| <= 2^40
 * (discrete.c).  w / u of 2^52 steps or more is on the lattice already (its
 * ulp is a step or more) and is kept, so nothing is clamped or overflows
 * however small the step; the one addition below is exact where
 * |round + Z| < 2^53 and otherwise rounds that exact lattice value; the
 * product by u is post-processing of the lattice value (a finite one that
 * overflows is the largest double of its sign).  w not NaN. */
static double exact_step(const online_state *s, double w)
{
  double wu = w / s->gunit;
  double q = wu / s->gstep;   /* exact: the step is a power of two */
  double wr = fabs(q) < 0x1.0p52 ? nearbyint(q) * s->gstep : wu;
  dpfda_discrete_reset();   /* each draw from fresh bits: one query or a batch, the same draws */
  int64_t z = dpfda_discrete_gaussian(s->dgp);
  double y = wr + (double) z * s->gstep;
  double out = s->gunit * y;
  if (!R_FINITE(out) && R_FINITE(y)) out = y > 0.0 ? DBL_MAX : -DBL_MAX;
  return out;
}

/* Answer a new point x (absent from the tree; neighbours pred, succ;
 * f(x) = fx) on the Markov path and insert it: ST_OK with the answer in
 * *ans, or ST_NONFINITE (nothing inserted).  Capacity reserved by the
 * caller; inside an rng bracket. */
static int ou_new(online_state *s, double x, double fx, int pred, int succ, const ou_path *path,
                  double *ans)
{
  double c[3], var, a, keep;
  ou_coef(s, x, pred, succ, c, &var);
  if (!s->exact) {
    double g = ou_mix(s, pred, succ, c, 0) + sqrt(var) * dpfda_norm();
    a = fx + s->amp * g;
    keep = g;
  } else {
    double mf = ou_mix(s, pred, succ, c, 0), ma = ou_mix(s, pred, succ, c, 1);
    if (var > 0.0) {
      double sd = sqrt(var), w = (fx - mf) / sd;
      if (ISNAN(w)) return ST_NONFINITE;
      a = ma + sd * exact_step(s, w);
      keep = fx;
    } else {          /* the kernel cannot tell x from its neighbours: their interpolation */
      a = ma;
      keep = mf;
    }
  }
  if (!R_FINITE(a)) return ST_NONFINITE;
  ou_insert(s, x, keep, a, path);
  *ans = a;
  return ST_OK;
}

/* ---- plan: which query rows need f? ------------------------------------------------ */

static const double *cmp_x;
static int cmp_k, cmp_d;

static int cmp_rows(const void *pa, const void *pb)
{
  int ia = *(const int *) pa, ib = *(const int *) pb;
  for (int c = 0; c < cmp_d; c++) {
    double a = cmp_x[ia + (size_t) c * cmp_k], b = cmp_x[ib + (size_t) c * cmp_k];
    if (a < b) return -1;
    if (a > b) return 1;
  }
  return (ia > ib) - (ia < ib);
}

/* ---- the kernel's entry points ------------------------------------------------------ */

/* A new state (NULL when out of memory).  exact: NULL (float noise) or
 * {step, p, nmax, unit}, validated by the caller (see online_create in the glue). */
online_state *online_new(double amp, double tau, int ktype, double nu, double gamma,
                         const double *exact)
{
  online_state *s = (online_state *) calloc(1, sizeof(online_state));
  if (s == NULL) return NULL;
  s->kind = KIND_UNSET;
  s->amp = amp;
  s->tau = tau;
  s->ktype = ktype;
  s->nu = nu;
  s->gamma = gamma;
  s->root = -1;
  s->gen = dpfda_fork_generation();
  if (exact != NULL) {
    s->exact = 1;
    s->gstep = exact[0];
    s->dgp = (uint64_t) exact[1];
    s->nmax = (int) exact[2];
    s->gunit = exact[3];
  }
  return s;
}

/* Fix the algorithm and the dimension (first query): 0, 1 for a bad
 * setup, 2 when it differs from the one fixed before. */
/* Back to no storage (nothing answered yet): the buffers were sized for another kind or dimension. */
static void release_storage(online_state *s)
{
  size_t cap = (size_t) s->cap;
  if (s->u) wipe(s->u, cap * sizeof(double));
  if (s->w) wipe(s->w, cap * sizeof(double));
  if (s->nodes) wipe(s->nodes, cap * sizeof(ou_node));
  if (s->vals) wipe(s->vals, cap * sizeof(ou_val));
  free(s->x); free(s->xs); free(s->ans); free(s->u); free(s->L); free(s->w); free(s->nodes);
  free(s->vals);
  s->x = s->xs = s->ans = s->u = s->L = s->w = NULL;
  s->nodes = NULL;
  s->vals = NULL;
  s->cap = 0;
  s->capL = 0;
  s->root = -1;
}

int online_setup(online_state *s, int kind, int d)
{
  /* a first query that failed (f's values refused) answered nothing: another dimension or kind may
   * set the session up afresh (it stayed fixed to the failed query's) */
  if (s->kind != KIND_UNSET && s->n == 0 && (s->kind != kind || s->d != d)) {
    release_storage(s);
    s->kind = KIND_UNSET;
  }
  if (s->kind == KIND_UNSET) {
    if ((kind != KIND_GENERAL && kind != KIND_MARKOV) || d < 1 || (kind == KIND_MARKOV && d != 1))
      return 1;
    s->kind = kind;
    s->d = d;
    return 0;
  }
  return s->kind != kind || s->d != d ? 2 : 0;
}

/* 1-based rows of x (k x d, set up) that are neither stored nor a repeat of
 * an earlier row of x, into rows: exactly the rows at which f must be
 * evaluated.  Returns how many. */
int online_plan(online_state *s, const double *px, int k, int d, int *rows)
{
  int *cand = (int *) R_alloc(k > 0 ? k : 1, sizeof(int));
  int nc = 0;
  if (s->kind == KIND_MARKOV) {
    int pr, su;
    for (int i = 0; i < k; i++)
      if (ou_search(s, px[i], &pr, &su, NULL) < 0) cand[nc++] = i;
  } else {
    double *r = (double *) R_alloc(d, sizeof(double));
    for (int i = 0; i < k; i++) {
      get_row(px, k, d, i, r);
      if (general_find(s, r) < 0) cand[nc++] = i;
      if ((i & 255) == 255) R_CheckUserInterrupt();
    }
  }
  /* keep the first occurrence of each distinct row: sort by (row, index) */
  char *keep = (char *) R_alloc(k > 0 ? k : 1, 1);
  memset(keep, 0, k > 0 ? k : 1);
  if (nc > 0) {
    int *srt = (int *) R_alloc(nc, sizeof(int));
    memcpy(srt, cand, nc * sizeof(int));
    cmp_x = px; cmp_k = k; cmp_d = d;
    qsort(srt, nc, sizeof(int), cmp_rows);
    keep[srt[0]] = 1;
    for (int j = 1; j < nc; j++) {
      int a = srt[j - 1], b = srt[j], c = 0;
      while (c < d && px[a + (size_t) c * k] == px[b + (size_t) c * k]) c++;
      if (c < d) keep[b] = 1;
    }
  }
  int m = 0;
  for (int i = 0; i < k; i++) if (keep[i]) rows[m++] = i + 1;
  return m;
}

/* Memory, in doubles, of a state with m points (checked before growing). */
static double state_doubles(const online_state *s, double m)
{
  if (s->kind == KIND_MARKOV) return m * (double) (sizeof(ou_node) + sizeof(ou_val)) / sizeof(double);
  return m * (m + 1.0) / 2.0 + (2.0 * s->d + 2.0 + (s->exact ? 1.0 : 0.0)) * m;
}

/* Everything that can be refused before the first draw: f values missing
 * (fval NULL or nf != nn) or not finite, too many points, over `limit`,
 * out of memory.  Reserves the room for nn new points. */
static int answer_precheck(online_state *s, int nn, const double *pf, R_xlen_t nf, double limit)
{
  if (nn <= 0) return ST_OK;
  if (pf == NULL || nf != nn) return ST_BAD_F_LEN;
  for (int j = 0; j < nn; j++) if (!R_FINITE(pf[j])) return ST_BAD_F_VAL;
  double m = (double) s->n + nn;
  if (m > (double) INT_MAX - 2.0) return ST_FULL;
  if (state_doubles(s, m) > limit || (s->exact && m > (double) s->nmax)) return ST_LIMIT;
  if (!reserve_points(s, (int) m) || (s->kind == KIND_GENERAL && !reserve_factor(s, (int) m)))
    return ST_NOMEM;
  return ST_OK;
}

/* The Markov path: answer the k points px in order (out), drawing for the
 * rows in need (f values pf).  Returns the status. */
static int answer_markov(online_state *s, const double *px, int k, const int *pn, int nn,
                         const double *pf, int seeded, double *o)
{
  int status = ST_OK, j = 0;   /* j: next entry of need / fval */
  ou_path path;
  rng_open();
  for (int i = 0; i < k; i++) {
    if ((i & 4095) == 4095) {        /* never longjmp inside the rng bracket */
      rng_close();
      R_CheckUserInterrupt();
      rng_open();
    }
    int is_new = j < nn && pn[j] == i + 1;
    int pr, su, hit = ou_search(s, px[i], &pr, &su, &path);
    if (is_new) j++;
    if (hit >= 0) { o[i] = s->vals[hit].ans; continue; }
    if (!is_new) { status = ST_BAD_F_LEN; break; }   /* not planned: cannot happen */
    if (!reserve_points(s, s->n + 1)) { status = ST_NOMEM; break; }
    double a;
    if ((status = ou_new(s, px[i], pf[j - 1], pr, su, &path, &a)) != ST_OK) break;
    if (seeded) s->seeded = 1;
    o[i] = a;
  }
  rng_close();
  return status;
}

/* Answer a new point (row r, scaled rs, f value fx) on the general path and
 * store it: ST_OK with the answer in *ans, or ST_NONFINITE (nothing
 * stored).  Capacity reserved by the caller; inside an rng bracket. */
static int general_new(online_state *s, const double *r, const double *rs, double fx, double *bk,
                       double *ans)
{
  int n = s->n, d = s->d;
  double *row = factor_row(s, n);          /* the new row of L, built in place */
  double d2 = general_solve(s, rs, row, bk);
  double sd = sqrt(d2), z, a, wn = 0.0;
  if (!s->exact) {
    z = dpfda_norm();
    a = fx + s->amp * (dot(row, s->u, n) + sd * z);
  } else {        /* z: the noisy whitened coordinate y (see the top) */
    wn = (fx - dot(row, s->w, n)) / sd;
    if (ISNAN(wn)) return ST_NONFINITE;
    z = exact_step(s, wn);
    a = dot(row, s->u, n) + sd * z;
  }
  if (!R_FINITE(a)) return ST_NONFINITE;
  row[n] = sd;
  memcpy(s->x + (size_t) n * d, r, d * sizeof(double));
  memcpy(s->xs + (size_t) n * d, rs, d * sizeof(double));
  s->ans[n] = a;
  s->u[n] = z;
  if (s->exact) s->w[n] = wn;
  s->n = n + 1;
  *ans = a;
  return ST_OK;
}

/* The general path: as answer_markov, with the scaled points pxs. */
static int answer_general(online_state *s, const double *px, const double *pxs, int k,
                          const int *pn, int nn, const double *pf, int seeded, double *o)
{
  int status = ST_OK, j = 0, d = s->d;
  double *r = (double *) R_alloc(d, sizeof(double));
  double *rs = (double *) R_alloc(d, sizeof(double));
  double *bk = (double *) R_alloc(dpfda_bessel_work_len(s->nu), sizeof(double));
  rng_open();
  for (int i = 0; i < k; i++) {
    if (s->n >= 256 || (i & 255) == 255) {
      rng_close();
      R_CheckUserInterrupt();
      rng_open();
    }
    int is_new = j < nn && pn[j] == i + 1;
    if (is_new) j++;
    get_row(px, k, d, i, r);
    int hit = general_find(s, r);
    if (hit >= 0) { o[i] = s->ans[hit]; continue; }
    if (!is_new) { status = ST_BAD_F_LEN; break; }
    if (!reserve_points(s, s->n + 1) || !reserve_factor(s, s->n + 1)) { status = ST_NOMEM; break; }
    get_row(pxs, k, d, i, rs);
    double a;
    if ((status = general_new(s, r, rs, pf[j - 1], bk, &a)) != ST_OK) break;
    if (seeded) s->seeded = 1;
    o[i] = a;
  }
  rng_close();
  return status;
}

/* Answer the rows of x (k x d, set up) in order into out (NA where not
 * answered).  xs: the rows scaled to unit lengthscale (general path).
 * need: the nn rows that online_plan() returned; fval: f at those rows (nf
 * values; NULL when f gave no double vector).  Nothing is drawn unless fval
 * is complete and finite and the state may grow to hold every new point
 * within `limit` doubles.  Returns the status (ST_OK: all answered). */
int online_answer(online_state *s, const double *x, const double *xs, int k, const int *need,
                  int nn, const double *fval, R_xlen_t nf, double limit, double *out)
{
  for (int i = 0; i < k; i++) out[i] = NA_REAL;
  int status = answer_precheck(s, nn, fval, nf, limit);
  if (status != ST_OK) return status;
  int seeded = dpfda_rng_mode() == DPFDA_RNG_SEEDED;
  if (s->kind == KIND_MARKOV) return answer_markov(s, x, k, need, nn, fval, seeded, out);
  return answer_general(s, x, xs, k, need, nn, fval, seeded, out);
}

/* The stored answer at x on the Markov path: 1 (in *ans), or 0. */
int online_markov_lookup(const online_state *s, double x, double *ans)
{
  int pr, su, hit = ou_search(s, x, &pr, &su, NULL);
  if (hit < 0) return 0;
  *ans = s->vals[hit].ans;
  return 1;
}

/* Answer x (finite, f(x) = fx finite) on the Markov path, as online_answer()
 * for one point: the status (ST_OK with the answer in *ans; a stored point
 * is returned as is), or -1 when nothing was done because a limit would be
 * passed or memory is short (the caller reports it). */
int online_markov_add(online_state *s, double x, double fx, double limit, double *ans)
{
  double m = (double) s->n + 1.0;
  if (m > (double) INT_MAX - 2.0 || state_doubles(s, m) > limit ||
      (s->exact && m > (double) s->nmax) || !reserve_points(s, (int) m))
    return -1;
  ou_path path;
  int pr, su, hit = ou_search(s, x, &pr, &su, &path);
  if (hit >= 0) {
    *ans = s->vals[hit].ans;
    return ST_OK;
  }
  rng_open();
  int status = ou_new(s, x, fx, pr, su, &path, ans);
  if (status == ST_OK && dpfda_rng_mode() == DPFDA_RNG_SEEDED) s->seeded = 1;
  rng_close();
  return status;
}

/* Test hook: conditional mean and variance (unit variance, before the
 * amplitude) of the path at each row of x (k x d, set up) given the state,
 * into the k x 2 out; draws nothing and changes nothing. */
void online_condition(const online_state *s, const double *px, const double *pxs, int k,
                      double *o)
{
  if (s->kind == KIND_MARKOV) {
    for (int i = 0; i < k; i++) {
      int pr, su, hit = ou_search(s, px[i], &pr, &su, NULL);
      if (hit >= 0) {
        const ou_val *nd = s->vals + hit;
        o[i] = s->exact ? (nd->ans - nd->g) / s->amp : nd->g;
        o[i + k] = 0.0;
        continue;
      }
      ou_condition(s, px[i], pr, su, o + i, o + i + k);
    }
    return;
  }
  int d = s->d;
  double *r = (double *) R_alloc(d, sizeof(double));
  double *rs = (double *) R_alloc(d, sizeof(double));
  double *l = (double *) R_alloc(s->n > 0 ? s->n : 1, sizeof(double));
  double *bk = (double *) R_alloc(dpfda_bessel_work_len(s->nu), sizeof(double));
  for (int i = 0; i < k; i++) {
    get_row(px, k, d, i, r);
    int hit = general_find(s, r);
    if (hit >= 0) {
      const double *Lh = factor_row(s, hit);
      o[i] = s->exact ? (dot(Lh, s->u, hit + 1) - dot(Lh, s->w, hit + 1)) / s->amp
                      : dot(Lh, s->u, hit + 1);
      o[i + k] = 0.0;
      continue;
    }
    get_row(pxs, k, d, i, rs);
    double d2 = general_solve(s, rs, l, bk);
    o[i] = s->exact ? (dot(l, s->u, s->n) - dot(l, s->w, s->n)) / s->amp : dot(l, s->u, s->n);
    o[i + k] = d2;
  }
}

static void ou_inorder(const ou_node *t, const ou_val *v, int root, int n, double *keys, double *vals)
{
  int *stack = (int *) R_alloc(AVL_MAX_DEPTH, sizeof(int));
  int top = 0, cur = root, j = 0;
  while ((cur >= 0 || top > 0) && j < n) {
    while (cur >= 0 && top < AVL_MAX_DEPTH) { stack[top++] = cur; cur = t[cur].child[0]; }
    cur = stack[--top];
    keys[j] = t[cur].key;
    vals[j++] = v[cur].ans;
    cur = t[cur].child[1];
  }
}

/* The answered points (n x max(d, 1), sorted for the Markov path, query
 * order otherwise) and their answers. */
void online_collect(const online_state *s, double *points, double *values)
{
  int n = s->n, d = s->d > 0 ? s->d : 1;
  if (s->kind == KIND_MARKOV) {
    ou_inorder(s->nodes, s->vals, s->root, n, points, values);
  } else if (n > 0) {
    for (int j = 0; j < n; j++)
      for (int c = 0; c < d; c++) points[j + (size_t) c * n] = s->x[(size_t) j * d + c];
    memcpy(values, s->ans, n * sizeof(double));
  }
}
