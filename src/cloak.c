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
 * project its mean onto range(U_r) (spec section 2.3.2).  The computed w_i
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
  const int r = st->r, n = st->n;
  int m = 0;
  for (int i = 0; i < n; i++) if (st->u[i] > 0.0) st->idx[m++] = i;
  if (m == 0 || m > CLOAK_NEWTON_MAX_SUPPORT) return 0;
  const void *vmax = vmaxget();   /* workspaces released on return */
  /* add violators, largest q first */
  const double rr = (double) r;
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

  const size_t mm = (size_t) m;
  double *Wsup = (double *) R_alloc((size_t) r * mm, sizeof(double));
  double *Ws = (double *) R_alloc((size_t) r * mm, sizeof(double));
  double *Y = (double *) R_alloc((size_t) r * mm, sizeof(double));
  double *G = (double *) R_alloc(mm * mm, sizeof(double));
  double *H = (double *) R_alloc(mm * mm, sizeof(double));
  double *lam = (double *) R_alloc(mm, sizeof(double));
  double *lnew = (double *) R_alloc(mm, sizeof(double));
  double *grad = (double *) R_alloc(mm, sizeof(double));
  double *d = (double *) R_alloc(mm, sizeof(double));
  char *drop = (char *) R_alloc(mm, sizeof(char));
  double *L = (double *) R_alloc((size_t) r * r, sizeof(double));
  double *Lt = (double *) R_alloc((size_t) r * r, sizeof(double));
  for (int k = 0; k < m; k++) {
    memcpy(Wsup + (size_t) k * r, st->W + (size_t) st->idx[k] * r, (size_t) r * sizeof(double));
    lam[k] = rr * st->u[st->idx[k]];
  }
  const double one = 1.0, zero = 0.0;
  const int inc = 1;
  int steps = 0, loops = 0;
  double f = cloak_dual(Wsup, r, m, lam, Ws, L);
  if (!R_FINITE(f)) {
    vmaxset(vmax);
    return 0;
  }

  while (loops++ < 4 * CLOAK_NEWTON_STEPS && steps < CLOAK_NEWTON_STEPS) {
    /* Y = L^{-1} W_S, G = Y'Y, q = diag(G) */
    memcpy(Y, Wsup, (size_t) r * m * sizeof(double));
    F77_CALL(dtrsm)("L", "L", "N", "N", &r, &m, &one, L, &r, Y, &r
                    FCONE FCONE FCONE FCONE);
    F77_CALL(dsyrk)("L", "T", &m, &r, &one, Y, &r, &zero, G, &m FCONE FCONE);
    /* coordinates at 0 that do not want to grow leave the working set */
    int ndrop = 0;
    double gmax = 0.0;
    for (int k = 0; k < m; k++) {
      grad[k] = 1.0 - G[k + (size_t) k * m];
      drop[k] = lam[k] == 0.0 && grad[k] >= 0.0;
      ndrop += drop[k];
      double viol = lam[k] > 0.0 ? fabs(grad[k]) : -grad[k];
      if (!drop[k] && viol > gmax) gmax = viol;
    }
    if (ndrop > 0) {
      m = cloak_compact(st, Wsup, lam, drop, m);
      continue;
    }
    if (gmax <= gtol) break;
    /* (H + mu I) d = -grad, mu growing until the factorisation works */
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
    if (info != 0) break;
    for (int k = 0; k < m; k++) d[k] = -grad[k];
    F77_CALL(dpotrs)("L", &m, &inc, H, &m, d, &m, &info FCONE);
    if (info != 0) break;
    /* coordinates at 0 that the step would push below 0 leave S */
    ndrop = 0;
    for (int k = 0; k < m; k++) {
      drop[k] = lam[k] == 0.0 && d[k] < 0.0;
      ndrop += drop[k];
    }
    if (ndrop > 0) {
      m = cloak_compact(st, Wsup, lam, drop, m);
      continue;
    }
    /* First the projected arc max(0, lam + t d), t = 1, 1/2, ..., which can
     * drop many coordinates at once (Bertsekas 1982), with the Armijo test
     * on the predicted decrease grad'(lam - lam(t)); if that fails, the
     * ratio test (stop at the first coordinate reaching 0) and Armijo
     * backtracking along the straight segment. */
    double tmax = 1.0, slope = 0.0;
    int block = -1;
    for (int k = 0; k < m; k++) {
      slope += grad[k] * d[k];
      if (d[k] < 0.0 && lam[k] + tmax * d[k] < 0.0) {
        tmax = -lam[k] / d[k];
        block = k;
      }
    }
    steps++;
    if (!(slope < 0.0)) break;
    double t = 1.0, fnew = R_PosInf;
    int accepted = 0, arc = 0;
    if (block >= 0) {
      for (int bt = 0; bt < CLOAK_ARC_TRIES; bt++, t *= 0.5) {
        double pred = 0.0;
        for (int k = 0; k < m; k++) {
          double v = lam[k] + t * d[k];
          lnew[k] = v > 0.0 ? v : 0.0;
          pred += grad[k] * (lam[k] - lnew[k]);
        }
        if (!(pred > 0.0)) break;
        fnew = cloak_dual(Wsup, r, m, lnew, Ws, Lt);
        if (R_FINITE(fnew) && fnew <= f - 1e-4 * pred) { accepted = arc = 1; break; }
      }
    }
    t = tmax;
    for (int bt = 0; !accepted && bt < 60; bt++) {
      for (int k = 0; k < m; k++) {
        lnew[k] = lam[k] + t * d[k];
        if (lnew[k] < 0.0) lnew[k] = 0.0;
      }
      if (block >= 0 && t == tmax) lnew[block] = 0.0;
      fnew = cloak_dual(Wsup, r, m, lnew, Ws, Lt);
      if (R_FINITE(fnew) && fnew <= f + 1e-4 * t * slope) { accepted = 1; break; }
      t *= 0.5;
    }
    if (!accepted) break;
    memcpy(lam, lnew, (size_t) m * sizeof(double));
    memcpy(L, Lt, (size_t) r * r * sizeof(double));
    const double fold = f;
    f = fnew;
    if (fold - f <= 1e-15 * fabs(f) && !arc && !(block >= 0 && t == tmax)) break;   /* stalled */
  }
  /* write back, renormalised to the simplex */
  double sl = 0.0;
  for (int k = 0; k < m; k++) sl += lam[k];
  if (sl > 0.0) {
    for (int k = 0; k < m; k++) st->u[st->idx[k]] = lam[k] / sl;
  }
  vmaxset(vmax);
  return steps;
}

/* Solve the reduced problem on W (r x n).  Returns 0, or a LAPACK info code
 * (negative when the refresh failed).  u: weights on the simplex. */
static int cloak_solve_reduced(const double *W, int r, int n, const int *elig,
                               double tol, int maxit, double *u, int *iters,
                               double *gap_out, int *converged)
{
  cloak_state st;
  st.r = r;
  st.n = n;
  st.W = W;
  st.elig = elig;
  st.u = u;
  st.Minv = (double *) R_alloc((size_t) r * r, sizeof(double));
  st.qt = (double *) R_alloc((size_t) n, sizeof(double));
  st.work_rn = (double *) R_alloc((size_t) r * n, sizeof(double));
  st.work_rr = (double *) R_alloc((size_t) r * r, sizeof(double));
  st.v = (double *) R_alloc((size_t) r, sizeof(double));
  st.g = (double *) R_alloc((size_t) n, sizeof(double));
  st.idx = (int *) R_alloc((size_t) n, sizeof(int));

  /* start: the r pivots of QR with column pivoting of W */
  {
    double *A = st.work_rn;
    memcpy(A, W, (size_t) r * n * sizeof(double));
    int *jpvt = st.idx, info = 0, lwork = -1;
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
  }
  int info = cloak_refresh(&st);
  if (info != 0) return -1;

  int it = 0, since_refresh = 0, since_newton = 0;
  const int polish_every = CLOAK_POLISH;
  double gap = 0.0;
  *converged = 0;
  for (unsigned int pass = 1;; pass++) {
    if ((pass & 255U) == 0) R_CheckUserInterrupt();
    int jp, jm;
    double ep, em;
    gap = cloak_gap(&st, &jp, &jm, &ep, &em);
    if (gap <= tol) {
      if (since_refresh > 0) {
        if (cloak_refresh(&st) != 0) return -1;
        since_refresh = 0;
        continue;
      }
      *converged = 1;
      break;
    }
    if (it >= maxit) {
      if (since_refresh > 0) {
        if (cloak_refresh(&st) != 0) return -1;
        since_refresh = 0;
        gap = cloak_gap(&st, &jp, &jm, &ep, &em);
        *converged = gap <= tol;
      }
      break;
    }
    /* Newton phases cost O(m^2 r + m^3) for a support of size m, a
     * Frank-Wolfe step O(n r): let Frank-Wolfe grow the support between them */
    int msupp = 0;
    for (int i = 0; i < n; i++) msupp += u[i] > 0.0;
    if (since_newton >= polish_every + msupp / 2) {
      int ns = cloak_newton(&st, 0.1 * tol);
      since_newton = 0;
      if (ns > 0) {
        it += ns;
        if (cloak_refresh(&st) != 0) return -1;
        since_refresh = 0;
        continue;
      }
    }
    const int away = em > ep;
    if (cloak_fw_step(&st, away ? jm : jp, away) != 0) {
      if (since_refresh == 0) break;   /* stalled on exact values */
      if (cloak_refresh(&st) != 0) return -1;
      since_refresh = 0;
      continue;
    }
    it++;
    since_newton++;
    if (++since_refresh >= CLOAK_REFRESH) {
      if (cloak_refresh(&st) != 0) return -1;
      since_refresh = 0;
    }
  }
  *iters = it;
  *gap_out = gap;
  return 0;
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

/* .Call entry point.  C: double P x n matrix of finite values (validated in
 * R).  Returns a list; `info` is 0 on success, 1 if the SVD failed, 2 if
 * the reduced solver failed, 3 if the final factorisation failed. */
SEXP dpfda_cloak_solve(SEXP C, SEXP tol_, SEXP maxit_, SEXP rank_tol_)
{
  if (!Rf_isReal(C) || !Rf_isMatrix(C))
    Rf_error("dpfda_cloak_solve: C must be a double matrix");
  const int P = Rf_nrows(C), n = Rf_ncols(C);
  const double tol = Rf_asReal(tol_), rank_tol = Rf_asReal(rank_tol_);
  const int maxit = Rf_asInteger(maxit_);
  if (P < 1 || n < 1 || !(tol > 0.0) || !(rank_tol > 0.0) ||
      maxit == NA_INTEGER || maxit < 0)
    Rf_error("dpfda_cloak_solve: invalid arguments");
  const double *Cx = REAL(C);
  const int k = P < n ? P : n;

  const char *names[] = {"M", "lambda", "q", "max_constraint", "objective",
                         "rank", "iterations", "converged", "gap", "scale",
                         "basis", "factor", "singular_values", "residual",
                         "margin", "info"};
  const int nout = 16;
  SEXP out = PROTECT(Rf_allocVector(VECSXP, nout));
  dpfda_set_names(out, nout, names);
  SEXP Ms = PROTECT(Rf_allocMatrix(REALSXP, P, P));
  SEXP lams = PROTECT(Rf_allocVector(REALSXP, n));
  SEXP qs = PROTECT(Rf_allocVector(REALSXP, n));
  SEXP svs = PROTECT(Rf_allocVector(REALSXP, k));
  double *M = REAL(Ms), *lam = REAL(lams), *q = REAL(qs), *s = REAL(svs);
  memset(M, 0, (size_t) P * P * sizeof(double));
  memset(lam, 0, (size_t) n * sizeof(double));
  memset(q, 0, (size_t) n * sizeof(double));
  memset(s, 0, (size_t) k * sizeof(double));
  SET_VECTOR_ELT(out, 0, Ms);
  SET_VECTOR_ELT(out, 1, lams);
  SET_VECTOR_ELT(out, 2, qs);
  SET_VECTOR_ELT(out, 12, svs);
  int info_out = 0, r = 0, iters = 0, conv = 1;
  double gap = 0.0, scale = 1.0, objective = 0.0, maxq = 0.0, resid = 0.0,
         margin = 0.0;
  SEXP basis = R_NilValue, factor = R_NilValue;

  /* nonzero columns */
  int *elig = (int *) R_alloc((size_t) n, sizeof(int));
  int nelig = 0;
  for (int i = 0; i < n; i++) {
    const double *ci = Cx + (size_t) i * P;
    int nz = 0;
    for (int p = 0; p < P; p++) if (ci[p] != 0.0) { nz = 1; break; }
    elig[i] = nz;
    nelig += nz;
  }

  double *U = NULL, *VT = NULL;
  if (nelig > 0) {
    /* thin SVD by dgesdd */
    double *A = (double *) R_alloc((size_t) P * n, sizeof(double));
    memcpy(A, Cx, (size_t) P * n * sizeof(double));
    U = (double *) R_alloc((size_t) P * k, sizeof(double));
    VT = (double *) R_alloc((size_t) k * n, sizeof(double));
    int *iwork = (int *) R_alloc(8 * (size_t) k, sizeof(int));
    int lwork = -1, info = 0;
    double wq;
    F77_CALL(dgesdd)("S", &P, &n, A, &P, s, U, &P, VT, &k, &wq, &lwork, iwork,
                     &info FCONE);
    if (info == 0) {
      lwork = (int) wq;
      double *work = (double *) R_alloc((size_t) lwork, sizeof(double));
      F77_CALL(dgesdd)("S", &P, &n, A, &P, s, U, &P, VT, &k, work, &lwork, iwork,
                       &info FCONE);
    }
    if (info != 0) {
      info_out = 1;
    } else {
      for (int j = 0; j < k; j++) if (s[j] > rank_tol * s[0]) r = j + 1;
    }
  }

  if (info_out == 0 && r > 0) {
    /* W = first r rows of VT */
    double *W = (double *) R_alloc((size_t) r * n, sizeof(double));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < r; j++) W[j + (size_t) i * r] = VT[j + (size_t) i * k];
    double *u = (double *) R_alloc((size_t) n, sizeof(double));
    int info = cloak_solve_reduced(W, r, n, elig, tol, maxit, u, &iters, &gap, &conv);
    if (info != 0) info_out = 2;
    if (info_out == 0) {
      double *L = (double *) R_alloc((size_t) r * r, sizeof(double));
      double *Ws = (double *) R_alloc((size_t) r * n, sizeof(double));
      for (int i = 0; i < n; i++) lam[i] = elig[i] ? (double) r * u[i] : 0.0;
      /* Final scaling by s = max_i q_i (1 + margin).  The rounding margin
       * covers the error of the reduction: the computed w_i differ from
       * S_r^{-1} U_r' c_i by about eps s_1 / s_r, so q_i recomputed from C
       * by any other route agrees only to that relative accuracy.  Later
       * passes only repair rounding: they rescale (by a hair more) while
       * the recomputed maximum is above 1. */
      margin = 8.0 * DBL_EPSILON * (s[0] / s[r - 1]);
      int done = 0;
      for (int pass = 0; pass < 6 && info_out == 0; pass++) {
        if (cloak_final_q(W, r, n, lam, L, Ws, q) != 0) { info_out = 3; break; }
        double mq = 0.0;
        for (int i = 0; i < n; i++) if (q[i] > mq) mq = q[i];
        maxq = mq;
        if (pass > 0 && mq <= 1.0) { done = 1; break; }
        if (!(mq > 0.0) || !R_FINITE(mq)) { info_out = 3; break; }
        mq *= pass == 0 ? 1.0 + margin : 1.0 + 8.0 * DBL_EPSILON;
        for (int i = 0; i < n; i++) lam[i] *= mq;
        scale *= mq;
      }
      if (info_out == 0 && !done) info_out = 3;
      if (info_out == 0) {
        double ld = 0.0;
        for (int j = 0; j < r; j++) ld += log(L[j + (size_t) j * r]) + log(s[j]);
        objective = -2.0 * ld;
        basis = PROTECT(Rf_allocMatrix(REALSXP, P, r));
        factor = PROTECT(Rf_allocMatrix(REALSXP, P, r));
        double *Bx = REAL(basis), *Fx = REAL(factor);
        memcpy(Bx, U, (size_t) P * r * sizeof(double));
        /* T = diag(s_r) L (lower), F = U_r T */
        for (int j = 0; j < r; j++)
          for (int i = 0; i < r; i++)
            L[i + (size_t) j * r] = i >= j ? s[i] * L[i + (size_t) j * r] : 0.0;
        const double one = 1.0, zero = 0.0;
        F77_CALL(dgemm)("N", "N", &P, &r, &r, &one, Bx, &P, L, &r, &zero, Fx, &P
                        FCONE FCONE);
        F77_CALL(dsyrk)("L", "N", &P, &r, &one, Fx, &P, &zero, M, &P FCONE FCONE);
        for (int j = 0; j < P; j++)
          for (int i = j + 1; i < P; i++) M[j + (size_t) i * P] = M[i + (size_t) j * P];
        /* uncovered parts of the columns: sum_{j >= r} s_j^2 VT[j, i]^2 */
        for (int i = 0; i < n; i++) {
          double e = 0.0;
          for (int j = r; j < k; j++) {
            double t = s[j] * VT[j + (size_t) i * k];
            e += t * t;
          }
          if (e > resid) resid = e;
        }
        resid = sqrt(resid);
        SET_VECTOR_ELT(out, 10, basis);
        SET_VECTOR_ELT(out, 11, factor);
        UNPROTECT(2);
      }
    }
  } else if (info_out == 0) {
    /* rank 0: C = 0, nothing to cover */
    SET_VECTOR_ELT(out, 10, Rf_allocMatrix(REALSXP, P, 0));
    SET_VECTOR_ELT(out, 11, Rf_allocMatrix(REALSXP, P, 0));
  }
  if (info_out != 0) conv = 0;
  SET_VECTOR_ELT(out, 3, Rf_ScalarReal(maxq));
  SET_VECTOR_ELT(out, 4, Rf_ScalarReal(objective));
  SET_VECTOR_ELT(out, 5, Rf_ScalarInteger(r));
  SET_VECTOR_ELT(out, 6, Rf_ScalarInteger(iters));
  SET_VECTOR_ELT(out, 7, Rf_ScalarLogical(conv));
  SET_VECTOR_ELT(out, 8, Rf_ScalarReal(gap));
  SET_VECTOR_ELT(out, 9, Rf_ScalarReal(scale));
  SET_VECTOR_ELT(out, 13, Rf_ScalarReal(resid));
  SET_VECTOR_ELT(out, 14, Rf_ScalarReal(margin));
  SET_VECTOR_ELT(out, 15, Rf_ScalarInteger(info_out));
  UNPROTECT(5);
  return out;
}
