/* cloak.c -- the optimal cloaking covariance of Smith, Alvarez, Zwiessele and
 * Lawrence ("Differentially private regression with Gaussian processes",
 * AISTATS 2018, Section 3 and supplement).
 *
 * Problem.  C = K_*f K^{-1} is P x n with columns c_i.  Find the noise
 * covariance M = sum_i lambda_i c_i c_i' (lambda >= 0) of least -log pdet
 * volume such that q_i = c_i' M^+ c_i <= 1 for every i: the minimum-volume
 * origin-centred ellipsoid {z : z' M^+ z <= 1} containing all +-c_i.  Its
 * dual is D-optimal design on the points c_i (Kiefer-Wolfowitz): with
 * weights u on the simplex and Mu = sum u_i c_i c_i', u is optimal iff
 * max_i c_i' Mu^+ c_i = r = rank(C), and then lambda = r u, sum lambda = r,
 * q_i = 1 wherever lambda_i > 0.
 *
 * Reduction.  Thin SVD C = U S V'.  Keep the r singular values above
 * rank_tol * s_1 and put W = V_r' (r x n, orthonormal rows).  The problem is
 * affine invariant: with Mt = W Lambda W' (r x r) and B = U_r S_r,
 * M = B Mt B' and c_i' M^+ c_i = w_i' Mt^{-1} w_i for the retained part
 * B w_i of c_i.  Working with W (not C) keeps Mt well conditioned: the w_i
 * form a tight frame (W W' = I), so cond(Mt*) <= r n at the optimum however
 * fast the singular values of C decay.  The parts of the c_i outside
 * range(U_r) (norm at most about rank_tol * s_1) are not covered by any
 * noise; their largest norm is returned as `residual` and a release must
 * project its mean onto range(U_r) (R/mech-gp-regression.R does).  The computed w_i
 * agree with S_r^{-1} U_r' c_i only to about eps s_1 / s_r (relative), so
 * rank_tol also bounds how accurately q can be certified from C; the final
 * scaling below includes a margin for it.
 *
 * Solver (on W, weights u on the simplex, qt_i = w_i' Mt(u)^{-1} w_i).
 *  1. Start: uniform weight on the r columns chosen by QR with column
 *     pivoting of W (a well-conditioned spanning set, the Kumar-Yildirim
 *     idea); if C has full column rank this is already the optimum
 *     (lambda = 1, M = C C').
 *  2. Frank-Wolfe with away steps (Wolfe-Atwood; the WA-TY algorithm of
 *     Todd and Yildirim 2007, linearly convergent by Ahipasaoglu, Sun and
 *     Todd 2008): eps+ = max_i qt_i / r - 1, eps- = 1 - min_{u_i > 0} qt_i / r.
 *     If eps+ >= eps- move towards the worst point j with the exact line
 *     search step tau = (qt_j - r) / (r (qt_j - 1)); otherwise move away
 *     from the least useful support point, tau = (r - qt_j) / (r (qt_j - 1))
 *     capped at u_j / (1 - u_j) (a "drop" step).  Mt^{-1} and all qt_i are
 *     updated in O(n r) by Sherman-Morrison and refreshed exactly from u
 *     (Cholesky) every CLOAK_REFRESH steps and before any convergence test.
 *  3. Newton polishing: every CLOAK_POLISH + |support| / 2 Frank-Wolfe steps,
 *     an active-set Newton method on the convex dual
 *     g(lambda) = -log det(W_S Lambda W_S') + sum lambda over the working set
 *     S = current support plus the few largest violators (gradient 1 - q,
 *     Hessian G o G with G = W_S' Mt^{-1} W_S, Levenberg-Marquardt shift),
 *     with a projected-arc search that can drop many coordinates at once,
 *     else a ratio test that drops the first reaching 0, and Armijo
 *     backtracking.  Frank-Wolfe
 *     alone converges only linearly, and very slowly on the nearly
 *     degenerate problems smooth kernels give (1e5 steps leave gaps of 1e-4
 *     at n = 2000); with the Newton phases a few hundred to a few thousand
 *     steps reach 1e-10.
 *  Stop when max(eps+, eps-) <= tol, from freshly recomputed qt.  eps+ is
 *  the certified duality gap: the optimal -log pdet M exceeds ours by at
 *  most r log(1 + eps+) after the final scaling.
 *
 * Final scaling (makes privacy independent of convergence).  lambda = r u is
 * multiplied by s = max_i q_i (1 + margin), with q recomputed from a fresh
 * Cholesky factor, so that max_i q_i = 1 / (1 + margin) <= 1; if rounding
 * leaves the recomputed maximum above 1 the scaling is repeated.  The
 * rounding margin 8 eps s_1 / s_r (at most 1.8e-7 with rank_tol = 1e-8)
 * covers the error of the SVD reduction (see Reduction above).
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "dpfda.h"

#define CLOAK_REFRESH   100   /* exact recomputation of Mt^{-1}, qt every this many steps */
#define CLOAK_NEWTON_MAX_SUPPORT 1500  /* polish only while |S| is at most this */
#define CLOAK_NEWTON_STEPS 30
#define CLOAK_NEWTON_MAX_ADD 10   /* violators added to S per Newton phase */
#define CLOAK_LM 1.0              /* Levenberg-Marquardt shift: CLOAK_LM |grad| max(H_kk) */
#define CLOAK_POLISH 20           /* Frank-Wolfe steps between Newton phases (plus |S| / 2) */
#define CLOAK_ARC_TRIES 4         /* projected-arc trials before the ratio test */

typedef struct {
  int r, n;
  const double *W;   /* r x n */
  const int *elig;   /* column may carry weight (nonzero column of C) */
  double *u;         /* weights, sum 1 */
  double *Minv;      /* r x r, full symmetric */
  double *qt;        /* n */
  double *work_rn;   /* r x n */
  double *work_rr;   /* r x r */
  double *v;         /* r */
  double *g;         /* n */
  int *idx;          /* n */
} cloak_state;

/* Mt = sum_{u_i > 0} u_i w_i w_i' (lower triangle of A, r x r). */
static void cloak_form(const double *W, int r, int n, const double *u,
                       double *A, double *Ws)
{
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (u[i] > 0.0) {
      const double s = sqrt(u[i]);
      const double *wi = W + (size_t) i * r;
      double *o = Ws + (size_t) m * r;
      for (int k = 0; k < r; k++) o[k] = s * wi[k];
      m++;
    }
  }
  const double one = 1.0, zero = 0.0;
  if (m == 0) {
    memset(A, 0, (size_t) r * r * sizeof(double));
    return;
  }
  F77_CALL(dsyrk)("L", "N", &r, &m, &one, Ws, &r, &zero, A, &r FCONE FCONE);
}

/* Exact Mt^{-1} and qt from u.  Returns the dpotrf info (0 on success). */
static int cloak_refresh(cloak_state *st)
{
  const int r = st->r, n = st->n;
  double *A = st->work_rr;
  cloak_form(st->W, r, n, st->u, A, st->work_rn);
  int info = 0;
  F77_CALL(dpotrf)("L", &r, A, &r, &info FCONE);
  if (info != 0) return info;
  F77_CALL(dpotri)("L", &r, A, &r, &info FCONE);
  if (info != 0) return info;
  for (int j = 0; j < r; j++)
    for (int i = j; i < r; i++) {
      double a = A[i + (size_t) j * r];
      st->Minv[i + (size_t) j * r] = a;
      st->Minv[j + (size_t) i * r] = a;
    }
  const double one = 1.0, zero = 0.0;
  F77_CALL(dgemm)("N", "N", &r, &n, &r, &one, st->Minv, &r, st->W, &r, &zero,
                  st->work_rn, &r FCONE FCONE);
  for (int i = 0; i < n; i++) {
    const double *wi = st->W + (size_t) i * r, *ri = st->work_rn + (size_t) i * r;
    double s = 0.0;
    for (int k = 0; k < r; k++) s += wi[k] * ri[k];
    st->qt[i] = st->elig[i] ? s : 0.0;
  }
  return 0;
}

/* Optimality measures from the current qt. */
static double cloak_gap(const cloak_state *st, int *jplus, int *jminus,
                        double *eplus, double *eminus)
{
  const int n = st->n;
  const double r = (double) st->r;
  double qmax = -1.0, qmin = DBL_MAX;
  int jp = -1, jm = -1;
  for (int i = 0; i < n; i++) {
    if (!st->elig[i]) continue;
    if (st->qt[i] > qmax) { qmax = st->qt[i]; jp = i; }
    if (st->u[i] > 0.0 && st->qt[i] < qmin) { qmin = st->qt[i]; jm = i; }
  }
  *jplus = jp;
  *jminus = jm;
  *eplus = qmax / r - 1.0;
  *eminus = jm >= 0 ? 1.0 - qmin / r : 0.0;
  return *eplus > *eminus ? *eplus : *eminus;
}

/* One Frank-Wolfe step: towards (away = 0) or away from (away = 1) point j.
 * Returns 0 on success, 1 if the step is degenerate (caller refreshes). */
static int cloak_fw_step(cloak_state *st, int j, int away)
{
  const int r = st->r, n = st->n;
  const double rr = (double) r;
  const double kappa = st->qt[j];
  double tau, a, b;
  if (!away) {
    if (!(kappa > rr)) return 1;
    tau = (kappa - rr) / (rr * (kappa - 1.0));
    a = 1.0 - tau;
    b = tau;
  } else {
    const double uj = st->u[j];
    if (!(uj < 1.0)) return 1;
    double tmax = uj / (1.0 - uj);
    tau = kappa > 1.0 ? (rr - kappa) / (rr * (kappa - 1.0)) : tmax;
    if (!(tau > 0.0)) return 1;
    if (tau >= tmax) tau = tmax;
    a = 1.0 + tau;
    b = -tau;
  }
  if (!(tau > 0.0) || !R_FINITE(tau)) return 1;
  const double denom = a + b * kappa;
  if (!(denom > 1e-12 * a)) return 1;

  /* v = Mt^{-1} w_j, g = W' v */
  const double one = 1.0, zero = 0.0;
  const int inc = 1;
  F77_CALL(dsymv)("L", &r, &one, st->Minv, &r, st->W + (size_t) j * r, &inc,
                  &zero, st->v, &inc FCONE);
  F77_CALL(dgemv)("T", &r, &n, &one, st->W, &r, st->v, &inc, &zero, st->g,
                  &inc FCONE);
  const double ia = 1.0 / a, c = b / denom;
  for (int i = 0; i < n; i++)
    if (st->elig[i]) st->qt[i] = (st->qt[i] - c * st->g[i] * st->g[i]) * ia;
  for (int jj = 0; jj < r; jj++) {
    const double vj = st->v[jj];
    double *col = st->Minv + (size_t) jj * r;
    for (int ii = 0; ii < r; ii++) col[ii] = (col[ii] - c * st->v[ii] * vj) * ia;
  }
  /* weights */
  if (!away) {
    for (int i = 0; i < n; i++) st->u[i] *= a;
    st->u[j] += tau;
  } else {
    const int drop = tau >= st->u[j] / (1.0 - st->u[j]);
    for (int i = 0; i < n; i++) st->u[i] *= a;
    st->u[j] = drop ? 0.0 : st->u[j] - tau;
    if (st->u[j] < 0.0) st->u[j] = 0.0;
  }
  return 0;
}

/* Dual objective g(lam) = -log det(W_S Lam W_S') + sum lam on the support
 * columns Wsup (r x m).  Returns +Inf if the matrix is not positive definite.
 * On success L (r x r) holds the Cholesky factor. */
static double cloak_dual(const double *Wsup, int r, int m, const double *lam,
                         double *Ws, double *L)
{
  double sl = 0.0;
  for (int k = 0; k < m; k++) {
    const double s = sqrt(lam[k]);
    for (int i = 0; i < r; i++) Ws[i + (size_t) k * r] = s * Wsup[i + (size_t) k * r];
    sl += lam[k];
  }
  const double one = 1.0, zero = 0.0;
  F77_CALL(dsyrk)("L", "N", &r, &m, &one, Ws, &r, &zero, L, &r FCONE FCONE);
  int info = 0;
  F77_CALL(dpotrf)("L", &r, L, &r, &info FCONE);
  if (info != 0) return R_PosInf;
  double ld = 0.0;
  for (int k = 0; k < r; k++) ld += log(L[k + (size_t) k * r]);
  return -2.0 * ld + sl;
}

/* Remove the working-set entries with drop[k] != 0 (their weight is 0). */
static int cloak_compact(cloak_state *st, double *Wsup, double *lam,
                         const char *drop, int m)
{
  const int r = st->r;
  int m2 = 0;
  for (int k = 0; k < m; k++) {
    if (drop[k]) { st->u[st->idx[k]] = 0.0; continue; }
    if (m2 != k) {
      memcpy(Wsup + (size_t) m2 * r, Wsup + (size_t) k * r, (size_t) r * sizeof(double));
      st->idx[m2] = st->idx[k];
      lam[m2] = lam[k];
    }
    m2++;
  }
  return m2;
}

/* The Newton working set: support columns of W, their weights, workspaces. */
typedef struct {
  int r, m;
  double *Wsup;        /* r x m: the columns of W in the working set */
  double *Ws, *Y;      /* r x m */
  double *G, *H;       /* m x m */
  double *lam, *lnew, *grad, *d;   /* m */
  double *L, *Lt;      /* r x r: Cholesky factors (current, trial) */
  char *drop;          /* m */
} cloak_nt;

/* The working set S into st->idx: the current support plus (at most
 * CLOAK_NEWTON_MAX_ADD) largest violators (q_i > r), largest first.
 * Returns |S|, or 0 when the support is empty or too large to polish. */
static int cloak_nt_select(cloak_state *st)
{
  const int n = st->n;
  const double rr = (double) st->r;
  int m = 0;
  for (int i = 0; i < n; i++) if (st->u[i] > 0.0) st->idx[m++] = i;
  if (m == 0 || m > CLOAK_NEWTON_MAX_SUPPORT) return 0;
  char *flag = (char *) R_alloc((size_t) n, sizeof(char));
  memset(flag, 0, (size_t) n);
  for (int a = 0; a < CLOAK_NEWTON_MAX_ADD && m < CLOAK_NEWTON_MAX_SUPPORT; a++) {
    int best = -1;
    double qb = rr;
    for (int i = 0; i < n; i++) {
      if (!st->elig[i] || st->u[i] > 0.0 || flag[i] || st->qt[i] <= qb) continue;
      qb = st->qt[i];
      best = i;
    }
    if (best < 0) break;
    flag[best] = 1;
    st->idx[m++] = best;
  }
  return m;
}

/* Workspaces of the working set of size m (R_alloc), with Wsup and lam
 * (= r u on S) filled in. */
static void cloak_nt_alloc(cloak_nt *w, const cloak_state *st, int m)
{
  const int r = st->r;
  const size_t mm = (size_t) m;
  w->r = r;
  w->m = m;
  w->Wsup = (double *) R_alloc((size_t) r * mm, sizeof(double));
  w->Ws = (double *) R_alloc((size_t) r * mm, sizeof(double));
  w->Y = (double *) R_alloc((size_t) r * mm, sizeof(double));
  w->G = (double *) R_alloc(mm * mm, sizeof(double));
  w->H = (double *) R_alloc(mm * mm, sizeof(double));
  w->lam = (double *) R_alloc(mm, sizeof(double));
  w->lnew = (double *) R_alloc(mm, sizeof(double));
  w->grad = (double *) R_alloc(mm, sizeof(double));
  w->d = (double *) R_alloc(mm, sizeof(double));
  w->drop = (char *) R_alloc(mm, sizeof(char));
  w->L = (double *) R_alloc((size_t) r * r, sizeof(double));
  w->Lt = (double *) R_alloc((size_t) r * r, sizeof(double));
  for (int k = 0; k < m; k++) {
    memcpy(w->Wsup + (size_t) k * r, st->W + (size_t) st->idx[k] * r, (size_t) r * sizeof(double));
    w->lam[k] = (double) r * st->u[st->idx[k]];
  }
}

/* G = Y'Y with Y = L^{-1} W_S, the gradient 1 - diag(G), and the coordinates
 * at 0 that do not want to grow (drop).  *gmax: the largest violation of
 * optimality among the others.  Returns the number to drop. */
static int cloak_nt_gradient(cloak_nt *w, double *gmax)
{
  const int r = w->r, m = w->m;
  const double one = 1.0, zero = 0.0;
  memcpy(w->Y, w->Wsup, (size_t) r * m * sizeof(double));
  F77_CALL(dtrsm)("L", "L", "N", "N", &r, &m, &one, w->L, &r, w->Y, &r
                  FCONE FCONE FCONE FCONE);
  F77_CALL(dsyrk)("L", "T", &m, &r, &one, w->Y, &r, &zero, w->G, &m FCONE FCONE);
  int ndrop = 0;
  double gm = 0.0;
  for (int k = 0; k < m; k++) {
    w->grad[k] = 1.0 - w->G[k + (size_t) k * m];
    w->drop[k] = w->lam[k] == 0.0 && w->grad[k] >= 0.0;
    ndrop += w->drop[k];
    double viol = w->lam[k] > 0.0 ? fabs(w->grad[k]) : -w->grad[k];
    if (!w->drop[k] && viol > gm) gm = viol;
  }
  *gmax = gm;
  return ndrop;
}

/* The Newton direction d: (H + mu I) d = -grad with H = G o G, mu growing
 * until the factorisation works.  Returns the LAPACK info (0: success). */
static int cloak_nt_direction(cloak_nt *w, double gmax)
{
  const int m = w->m, inc = 1;
  const double *G = w->G;
  double *H = w->H;
  double hmax = 0.0;
  for (int k = 0; k < m; k++) {
    double gkk = G[k + (size_t) k * m];
    if (gkk * gkk > hmax) hmax = gkk * gkk;
  }
  int info = 1;
  double mu = hmax * (1e-12 + (gmax < 1.0 ? gmax : 1.0) * CLOAK_LM);
  for (int tries = 0; tries < 10 && info != 0; tries++, mu *= 100.0) {
    for (int b = 0; b < m; b++) {
      for (int a = b; a < m; a++) {
        double gab = G[a + (size_t) b * m];
        H[a + (size_t) b * m] = gab * gab;
      }
      H[b + (size_t) b * m] += mu;
    }
    F77_CALL(dpotrf)("L", &m, H, &m, &info FCONE);
  }
  if (info != 0) return info;
  for (int k = 0; k < m; k++) w->d[k] = -w->grad[k];
  F77_CALL(dpotrs)("L", &m, &inc, H, &m, w->d, &m, &info FCONE);
  return info;
}

/* The projected arc max(0, lam + t d), t = 1, 1/2, ..., which can drop many
 * coordinates at once (Bertsekas 1982), with the Armijo test on the
 * predicted decrease grad'(lam - lam(t)).  1 if a point was accepted (in
 * lnew, its factor in Lt, its value in *fnew). */
static int cloak_nt_arc(cloak_nt *w, double f, double *fnew)
{
  const int m = w->m;
  double t = 1.0;
  for (int bt = 0; bt < CLOAK_ARC_TRIES; bt++, t *= 0.5) {
    double pred = 0.0;
    for (int k = 0; k < m; k++) {
      double v = w->lam[k] + t * w->d[k];
      w->lnew[k] = v > 0.0 ? v : 0.0;
      pred += w->grad[k] * (w->lam[k] - w->lnew[k]);
    }
    if (!(pred > 0.0)) break;
    *fnew = cloak_dual(w->Wsup, w->r, m, w->lnew, w->Ws, w->Lt);
    if (R_FINITE(*fnew) && *fnew <= f - 1e-4 * pred) return 1;
  }
  return 0;
}

/* The ratio test (stop at the first coordinate reaching 0, `block`, at
 * tmax) and Armijo backtracking along the straight segment.  1 if a point
 * was accepted (as cloak_nt_arc); *t: the step taken. */
static int cloak_nt_backtrack(cloak_nt *w, double f, double tmax, int block, double slope,
                              double *fnew, double *t)
{
  const int m = w->m;
  *t = tmax;
  for (int bt = 0; bt < 60; bt++) {
    for (int k = 0; k < m; k++) {
      w->lnew[k] = w->lam[k] + *t * w->d[k];
      if (w->lnew[k] < 0.0) w->lnew[k] = 0.0;
    }
    if (block >= 0 && *t == tmax) w->lnew[block] = 0.0;
    *fnew = cloak_dual(w->Wsup, w->r, m, w->lnew, w->Ws, w->Lt);
    if (R_FINITE(*fnew) && *fnew <= f + 1e-4 * *t * slope) return 1;
    *t *= 0.5;
  }
  return 0;
}

/* A step along d from lam (value f): the projected arc first, else the
 * ratio test and backtracking.  Returns -1 if d is not a descent direction,
 * 0 if no point was accepted, 1 if one was (lnew, Lt, *fnew), with *exempt
 * set when a small decrease is no sign of a stall (a coordinate reached 0). */
static int cloak_nt_step(cloak_nt *w, double f, double *fnew, int *exempt)
{
  const int m = w->m;
  double tmax = 1.0, slope = 0.0;
  int block = -1;
  for (int k = 0; k < m; k++) {
    slope += w->grad[k] * w->d[k];
    if (w->d[k] < 0.0 && w->lam[k] + tmax * w->d[k] < 0.0) {
      tmax = -w->lam[k] / w->d[k];
      block = k;
    }
  }
  if (!(slope < 0.0)) return -1;
  *fnew = R_PosInf;
  if (block >= 0 && cloak_nt_arc(w, f, fnew)) {
    *exempt = 1;
    return 1;
  }
  double t;
  int accepted = cloak_nt_backtrack(w, f, tmax, block, slope, fnew, &t);
  *exempt = block >= 0 && t == tmax;
  return accepted;
}

/* Remove the working-set entries marked in w->drop (their weight is 0). */
static void cloak_nt_compact(cloak_state *st, cloak_nt *w)
{
  w->m = cloak_compact(st, w->Wsup, w->lam, w->drop, w->m);
}

/* Newton iterations on the working set w from the value f; returns the
 * number of steps taken.  w->lam holds the last accepted point. */
static int cloak_nt_iterate(cloak_state *st, cloak_nt *w, double f, double gtol)
{
  int steps = 0, loops = 0;
  while (loops++ < 4 * CLOAK_NEWTON_STEPS && steps < CLOAK_NEWTON_STEPS) {
    double gmax;
    if (cloak_nt_gradient(w, &gmax) > 0) {   /* coordinates at 0 that do not want to grow */
      cloak_nt_compact(st, w);
      continue;
    }
    if (gmax <= gtol) break;
    if (cloak_nt_direction(w, gmax) != 0) break;
    /* coordinates at 0 that the step would push below 0 leave S */
    int ndrop = 0;
    for (int k = 0; k < w->m; k++) {
      w->drop[k] = w->lam[k] == 0.0 && w->d[k] < 0.0;
      ndrop += w->drop[k];
    }
    if (ndrop > 0) {
      cloak_nt_compact(st, w);
      continue;
    }
    steps++;
    double fnew;
    int exempt = 0;
    if (cloak_nt_step(w, f, &fnew, &exempt) <= 0) break;
    memcpy(w->lam, w->lnew, (size_t) w->m * sizeof(double));
    memcpy(w->L, w->Lt, (size_t) w->r * w->r * sizeof(double));
    const double fold = f;
    f = fnew;
    if (fold - f <= 1e-15 * fabs(f) && !exempt) break;   /* stalled */
  }
  return steps;
}

/* Active-set Newton on the dual g(lam) = -log det(W_S Lam W_S') + sum lam,
 * lam >= 0, over the working set S = the current support plus the (at most
 * CLOAK_NEWTON_MAX_ADD) largest violators of the constraint (q_i > 1, added
 * at lam_i = 0).  Gradient 1 - q, Hessian G o G with G = W_S' Mt^{-1} W_S,
 * shifted by a Levenberg-Marquardt term proportional to the gradient (the
 * Hessian is singular when the optimal lambda is not unique, and nearly so
 * for nearly collinear columns).  Coordinates at 0 that do not want to grow
 * leave S; a ratio test stops at the first coordinate reaching 0; Armijo
 * backtracking.  Updates st->u (renormalised to the simplex).  Returns the
 * number of Newton steps taken (0: no progress was possible). */
static int cloak_newton(cloak_state *st, double gtol)
{
  const void *vmax = vmaxget();   /* workspaces released on return */
  int m = cloak_nt_select(st);
  if (m == 0) {
    vmaxset(vmax);
    return 0;
  }
  cloak_nt w;
  cloak_nt_alloc(&w, st, m);
  double f = cloak_dual(w.Wsup, w.r, m, w.lam, w.Ws, w.L);
  if (!R_FINITE(f)) {
    vmaxset(vmax);
    return 0;
  }
  int steps = cloak_nt_iterate(st, &w, f, gtol);
  /* write back, renormalised to the simplex */
  double sl = 0.0;
  for (int k = 0; k < w.m; k++) sl += w.lam[k];
  if (sl > 0.0) {
    for (int k = 0; k < w.m; k++) st->u[st->idx[k]] = w.lam[k] / sl;
  }
  vmaxset(vmax);
  return steps;
}

/* The solver's state for W (r x n) with weights u, workspaces from R_alloc. */
static void cloak_state_init(cloak_state *st, const double *W, int r, int n, const int *elig,
                             double *u)
{
  st->r = r;
  st->n = n;
  st->W = W;
  st->elig = elig;
  st->u = u;
  st->Minv = (double *) R_alloc((size_t) r * r, sizeof(double));
  st->qt = (double *) R_alloc((size_t) n, sizeof(double));
  st->work_rn = (double *) R_alloc((size_t) r * n, sizeof(double));
  st->work_rr = (double *) R_alloc((size_t) r * r, sizeof(double));
  st->v = (double *) R_alloc((size_t) r, sizeof(double));
  st->g = (double *) R_alloc((size_t) n, sizeof(double));
  st->idx = (int *) R_alloc((size_t) n, sizeof(int));
}

/* Start: uniform weight on the r pivots of QR with column pivoting of W.
 * Returns the dgeqp3 info. */
static int cloak_start(cloak_state *st)
{
  int r = st->r, n = st->n;
  double *A = st->work_rn, *u = st->u;
  memcpy(A, st->W, (size_t) r * n * sizeof(double));
  int *jpvt = st->idx, info = 0, lwork = -1;
  for (int i = 0; i < n; i++) jpvt[i] = 0;
  double *tau = (double *) R_alloc((size_t) r, sizeof(double)), wq;
  F77_CALL(dgeqp3)(&r, &n, A, &r, jpvt, tau, &wq, &lwork, &info);
  if (info != 0) return info;
  lwork = (int) wq;
  double *work = (double *) R_alloc((size_t) lwork, sizeof(double));
  F77_CALL(dgeqp3)(&r, &n, A, &r, jpvt, tau, work, &lwork, &info);
  if (info != 0) return info;
  for (int i = 0; i < n; i++) u[i] = 0.0;
  for (int k = 0; k < r; k++) u[jpvt[k] - 1] = 1.0 / r;
  return 0;
}

/* Frank-Wolfe with away steps and Newton phases from the start in st, until
 * the gap is at most tol (from exact values) or maxit steps.  Returns 0, or
 * -1 when a refresh failed. */
static int cloak_iterate(cloak_state *st, double tol, int maxit, int *iters, double *gap_out,
                         int *converged)
{
  int it = 0, since_refresh = 0, since_newton = 0;
  double gap = 0.0;
  *converged = 0;
  for (unsigned int pass = 1;; pass++) {
    if ((pass & 255U) == 0) R_CheckUserInterrupt();
    int jp, jm;
    double ep, em;
    gap = cloak_gap(st, &jp, &jm, &ep, &em);
    if (gap <= tol || it >= maxit) {
      if (since_refresh > 0) {   /* decide on exact values */
        if (cloak_refresh(st) != 0) return -1;
        since_refresh = 0;
        if (gap <= tol) continue;   /* test again */
        gap = cloak_gap(st, &jp, &jm, &ep, &em);
      }
      *converged = gap <= tol;
      break;
    }
    /* Newton phases cost O(m^2 r + m^3) for a support of size m, a
     * Frank-Wolfe step O(n r): let Frank-Wolfe grow the support between them */
    int msupp = 0;
    for (int i = 0; i < st->n; i++) msupp += st->u[i] > 0.0;
    if (since_newton >= CLOAK_POLISH + msupp / 2) {
      int ns = cloak_newton(st, 0.1 * tol);
      since_newton = 0;
      if (ns > 0) {
        it += ns;
        if (cloak_refresh(st) != 0) return -1;
        since_refresh = 0;
        continue;
      }
    }
    const int away = em > ep;
    int degenerate = cloak_fw_step(st, away ? jm : jp, away) != 0;
    if (degenerate && since_refresh == 0) break;   /* stalled on exact values */
    if (!degenerate) {
      it++;
      since_newton++;
    }
    if (degenerate || ++since_refresh >= CLOAK_REFRESH) {
      if (cloak_refresh(st) != 0) return -1;
      since_refresh = 0;
    }
  }
  *iters = it;
  *gap_out = gap;
  return 0;
}

/* Solve the reduced problem on W (r x n).  Returns 0, or a LAPACK info code
 * (negative when the refresh failed).  u: weights on the simplex. */
static int cloak_solve_reduced(const double *W, int r, int n, const int *elig,
                               double tol, int maxit, double *u, int *iters,
                               double *gap_out, int *converged)
{
  cloak_state st;
  cloak_state_init(&st, W, r, n, elig, u);
  int info = cloak_start(&st);
  if (info != 0) return info;
  if (cloak_refresh(&st) != 0) return -1;
  return cloak_iterate(&st, tol, maxit, iters, gap_out, converged);
}

/* Final q_i = ||L^{-1} w_i||^2 for M~ = W diag(lam) W' (lower Cholesky L
 * returned in L).  Returns the dpotrf info. */
static int cloak_final_q(const double *W, int r, int n, const double *lam,
                         double *L, double *Ws, double *q)
{
  cloak_form(W, r, n, lam, L, Ws);
  int info = 0;
  F77_CALL(dpotrf)("L", &r, L, &r, &info FCONE);
  if (info != 0) return info;
  memcpy(Ws, W, (size_t) r * n * sizeof(double));
  const double one = 1.0;
  F77_CALL(dtrsm)("L", "L", "N", "N", &r, &n, &one, L, &r, Ws, &r
                  FCONE FCONE FCONE FCONE);
  for (int i = 0; i < n; i++) {
    const double *yi = Ws + (size_t) i * r;
    double s = 0.0;
    for (int k = 0; k < r; k++) s += yi[k] * yi[k];
    q[i] = s;
  }
  return 0;
}

/* The columns of C (P x n) that are not zero; returns how many. */
static int cloak_eligible(const double *C, int P, int n, int *elig)
{
  int nelig = 0;
  for (int i = 0; i < n; i++) {
    const double *ci = C + (size_t) i * P;
    int nz = 0;
    for (int p = 0; p < P; p++) if (ci[p] != 0.0) { nz = 1; break; }
    elig[i] = nz;
    nelig += nz;
  }
  return nelig;
}

/* Thin SVD C = U diag(s) VT by dgesdd (U: P x k, VT: k x n, k = min(P, n),
 * R_alloc).  Returns the LAPACK info. */
static int cloak_svd(const double *C, int P, int n, double *s, double **U, double **VT)
{
  int k = P < n ? P : n;
  double *A = (double *) R_alloc((size_t) P * n, sizeof(double));
  memcpy(A, C, (size_t) P * n * sizeof(double));
  *U = (double *) R_alloc((size_t) P * k, sizeof(double));
  *VT = (double *) R_alloc((size_t) k * n, sizeof(double));
  int *iwork = (int *) R_alloc(8 * (size_t) k, sizeof(int));
  int lwork = -1, info = 0;
  double wq;
  F77_CALL(dgesdd)("S", &P, &n, A, &P, s, *U, &P, *VT, &k, &wq, &lwork, iwork,
                   &info FCONE);
  if (info == 0) {
    lwork = (int) wq;
    double *work = (double *) R_alloc((size_t) lwork, sizeof(double));
    F77_CALL(dgesdd)("S", &P, &n, A, &P, s, *U, &P, *VT, &k, work, &lwork, iwork,
                     &info FCONE);
  }
  return info;
}

/* Final scaling of lam = r u by s = max_i q_i (1 + margin).  The rounding
 * margin covers the error of the reduction: the computed w_i differ from
 * S_r^{-1} U_r' c_i by about eps s_1 / s_r, so q_i recomputed from C by any
 * other route agrees only to that relative accuracy.  Later passes only
 * repair rounding: they rescale (by a hair more) while the recomputed
 * maximum is above 1.  L (r x r) gets the final Cholesky factor.  Returns 0,
 * or 3 when the factorisation failed or the scaling did not settle. */
static int cloak_scale(const double *W, int r, int n, double *L, dpfda_cloak_out *o)
{
  double *Ws = (double *) R_alloc((size_t) r * n, sizeof(double));
  o->margin = 8.0 * DBL_EPSILON * (o->sv[0] / o->sv[r - 1]);
  for (int pass = 0; pass < 6; pass++) {
    if (cloak_final_q(W, r, n, o->lambda, L, Ws, o->q) != 0) return 3;
    double mq = 0.0;
    for (int i = 0; i < n; i++) if (o->q[i] > mq) mq = o->q[i];
    o->max_constraint = mq;
    if (pass > 0 && mq <= 1.0) return 0;
    if (!(mq > 0.0) || !R_FINITE(mq)) return 3;
    mq *= pass == 0 ? 1.0 + o->margin : 1.0 + 8.0 * DBL_EPSILON;
    for (int i = 0; i < n; i++) o->lambda[i] *= mq;
    o->scale *= mq;
  }
  return 3;
}

/* The outputs of a solved problem from the final factor L of M~: objective,
 * factor F = U_r diag(s_r) L (P x r, R_alloc), M = F F' and the largest
 * norm of the parts of the columns outside range(U_r). */
static void cloak_outputs(int P, int n, int k, int r, const double *U, const double *VT,
                          double *L, dpfda_cloak_out *o)
{
  const double *s = o->sv;
  double ld = 0.0;
  for (int j = 0; j < r; j++) ld += log(L[j + (size_t) j * r]) + log(s[j]);
  o->objective = -2.0 * ld;
  double *F = (double *) R_alloc((size_t) P * r, sizeof(double));
  o->basis = U;
  o->factor = F;
  /* T = diag(s_r) L (lower), F = U_r T */
  for (int j = 0; j < r; j++)
    for (int i = 0; i < r; i++)
      L[i + (size_t) j * r] = i >= j ? s[i] * L[i + (size_t) j * r] : 0.0;
  const double one = 1.0, zero = 0.0;
  F77_CALL(dgemm)("N", "N", &P, &r, &r, &one, U, &P, L, &r, &zero, F, &P
                  FCONE FCONE);
  F77_CALL(dsyrk)("L", "N", &P, &r, &one, F, &P, &zero, o->M, &P FCONE FCONE);
  for (int j = 0; j < P; j++)
    for (int i = j + 1; i < P; i++) o->M[j + (size_t) i * P] = o->M[i + (size_t) j * P];
  /* uncovered parts of the columns: sum_{j >= r} s_j^2 VT[j, i]^2 */
  double resid = 0.0;
  for (int i = 0; i < n; i++) {
    double e = 0.0;
    for (int j = r; j < k; j++) {
      double t = s[j] * VT[j + (size_t) i * k];
      e += t * t;
    }
    if (e > resid) resid = e;
  }
  o->residual = sqrt(resid);
}

/* The reduced problem on W = the first r rows of VT, the final scaling and
 * the outputs.  Returns the info code of dpfda_cloak(). */
static int cloak_solve_rank(int P, int n, int k, const int *elig, double tol, int maxit,
                            const double *U, const double *VT, dpfda_cloak_out *o)
{
  const int r = o->rank;
  double *W = (double *) R_alloc((size_t) r * n, sizeof(double));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < r; j++) W[j + (size_t) i * r] = VT[j + (size_t) i * k];
  double *u = (double *) R_alloc((size_t) n, sizeof(double));
  if (cloak_solve_reduced(W, r, n, elig, tol, maxit, u, &o->iterations, &o->gap,
                          &o->converged) != 0) return 2;
  double *L = (double *) R_alloc((size_t) r * r, sizeof(double));
  for (int i = 0; i < n; i++) o->lambda[i] = elig[i] ? (double) r * u[i] : 0.0;
  int info = cloak_scale(W, r, n, L, o);
  if (info != 0) return info;
  cloak_outputs(P, n, k, r, U, VT, L, o);
  return 0;
}

void dpfda_cloak(const double *C, int P, int n, double tol, int maxit, double rank_tol,
                 dpfda_cloak_out *o)
{
  const int k = P < n ? P : n;
  memset(o->M, 0, (size_t) P * P * sizeof(double));
  memset(o->lambda, 0, (size_t) n * sizeof(double));
  memset(o->q, 0, (size_t) n * sizeof(double));
  memset(o->sv, 0, (size_t) k * sizeof(double));
  o->basis = o->factor = NULL;
  o->rank = o->iterations = 0;
  o->converged = 1;
  o->gap = o->objective = o->max_constraint = o->residual = o->margin = 0.0;
  o->scale = 1.0;
  o->info = 0;
  int *elig = (int *) R_alloc((size_t) n, sizeof(int));
  double *U = NULL, *VT = NULL;
  if (cloak_eligible(C, P, n, elig) > 0) {
    if (cloak_svd(C, P, n, o->sv, &U, &VT) != 0) o->info = 1;
    else for (int j = 0; j < k; j++) if (o->sv[j] > rank_tol * o->sv[0]) o->rank = j + 1;
  }
  /* rank 0: C = 0, nothing to cover */
  if (o->info == 0 && o->rank > 0) o->info = cloak_solve_rank(P, n, k, elig, tol, maxit, U, VT, o);
  if (o->info != 0) o->converged = 0;
}
