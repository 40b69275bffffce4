/* online-call.c -- .Call glue of the online release (kernel in online.c).
 *
 * The state lives in malloc'd memory behind an external pointer (tag
 * "dpfda_online_state") that is freed by a finalizer.  A saved and reloaded
 * object has a NULL address: every entry point reports that (NULL / -1 /
 * FALSE) and R raises a classed error; nothing here dereferences it.
 */
#include <string.h>
#include <limits.h>
#include "asserts.h"
#include "online.h"

static SEXP state_tag(void)
{
  static SEXP tag = NULL;   /* a symbol: never collected */
  if (tag == NULL) tag = Rf_install("dpfda_online_state");
  return tag;
}

static void state_finalize(SEXP ptr)
{
  online_state *s = (online_state *) R_ExternalPtrAddr(ptr);
  if (s != NULL) {
    online_free(s);
    R_ClearExternalPtr(ptr);
  }
}

/* The state behind ptr, or NULL when the object was serialised and reloaded. */
static online_state *state_get(SEXP ptr)
{
  if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != state_tag())
    Rf_error("dpfda internal: not an online state");
  return (online_state *) R_ExternalPtrAddr(ptr);
}

/* As state_get, but also NULL in a process other than the creator (fork):
 * for the entry points that draw noise or decide what to draw. */
static online_state *state_get_here(SEXP ptr)
{
  online_state *s = state_get(ptr);
  if (s != NULL && s->gen != dpfda_fork_generation()) return NULL;
  return s;
}

/* amp = sigma sqrt(variance); tau relative jitter; ktype, nu: kernel;
 * gamma = 1 / lengthscale for the Markov path (0 otherwise); exact: NULL
 * (float noise) or c(step, p, nmax, unit): lattice step 2^-k of the whitened
 * coordinates in units of `unit`, integer variance of the discrete Gaussian
 * in steps^2, the most points to answer, and the lattice's unit (validated
 * in R). */
SEXP dpfda_online_create(SEXP amp, SEXP tau, SEXP ktype, SEXP nu, SEXP gamma, SEXP exact)
{
  double ex[4] = {0.0, 0.0, 0.0, 0.0};
  if (!Rf_isNull(exact)) {
    if (TYPEOF(exact) != REALSXP || XLENGTH(exact) != 4) Rf_error("dpfda internal: bad exact parameters");
    memcpy(ex, REAL(exact), sizeof ex);
    double pmax = dpfda_discrete_gaussian_max();
    if (!(ex[0] > 0.0 && R_FINITE(ex[0]) && ex[1] >= 1.0 && ex[1] <= pmax && ex[1] == floor(ex[1]) &&
          ex[2] >= 1.0 && ex[2] <= (double) INT_MAX - 2.0 && ex[3] > 0.0 && R_FINITE(ex[3])))
      Rf_error("dpfda internal: bad exact parameters");
  }
  online_state *s = online_new(Rf_asReal(amp), Rf_asReal(tau), Rf_asInteger(ktype), Rf_asReal(nu),
                               Rf_asReal(gamma), Rf_isNull(exact) ? NULL : ex);
  if (s == NULL) Rf_error("dpfda: cannot allocate the online state");
  SEXP ptr = PROTECT(R_MakeExternalPtr(s, state_tag(), R_NilValue));
  R_RegisterCFinalizerEx(ptr, state_finalize, TRUE);
  UNPROTECT(1);
  return ptr;
}

/* Fix the algorithm and the dimension (first query). FALSE if the state is gone. */
SEXP dpfda_online_setup(SEXP ptr, SEXP kind, SEXP d)
{
  online_state *s = state_get_here(ptr);
  if (s == NULL) return Rf_ScalarLogical(FALSE);
  int res = online_setup(s, Rf_asInteger(kind), Rf_asInteger(d));
  if (res == 1) Rf_error("dpfda internal: bad online setup");
  if (res == 2) Rf_error("dpfda internal: online setup changed");
  return Rf_ScalarLogical(TRUE);
}

/* Number of points answered; -1 when the state is gone. */
SEXP dpfda_online_count(SEXP ptr)
{
  online_state *s = state_get(ptr);
  return Rf_ScalarInteger(s == NULL ? -1 : s->n);
}

/* 1-based rows of x (k x d) at which f must be evaluated (online_plan()).
 * NULL when the state is gone or this is not the process that created it. */
SEXP dpfda_online_plan(SEXP ptr, SEXP x)
{
  online_state *s = state_get_here(ptr);
  if (s == NULL) return R_NilValue;
  const double *px = dpfda_arg_real(x, "dpfda_online_plan", "x");
  int k = Rf_nrows(x), d = Rf_ncols(x);
  if (s->kind == KIND_UNSET || d != s->d) Rf_error("dpfda internal: online plan before setup");
  int *rows = (int *) R_alloc(k > 0 ? k : 1, sizeof(int));
  int m = online_plan(s, px, k, d, rows);
  SEXP out = PROTECT(Rf_allocVector(INTSXP, m));
  if (m > 0) memcpy(INTEGER(out), rows, (size_t) m * sizeof(int));
  UNPROTECT(1);
  return out;
}

/* Answer the rows of x (k x d) in order (online_answer()).  xs: the rows
 * scaled to unit lengthscale (general path; NULL for the Markov path).
 * need: the rows that plan() returned; fval: f at those rows (NULL when
 * need is empty).  Returns the k answers; NULL if the state is gone (or
 * this is a forked process).  On failure the answers not given are NA and
 * the attribute "status" says why: 1 an answer is not finite, 2 out of
 * memory, 4 too many points, 5 f gave a wrong number of values, 6 f gave a
 * non-finite value, 7 over `limit`.  Statuses 4-7 are raised before any
 * draw; after 1 or 2 the points answered stay answered. */
SEXP dpfda_online_answer(SEXP ptr, SEXP x, SEXP xs, SEXP need, SEXP fval, SEXP limit)
{
  online_state *s = state_get_here(ptr);
  if (s == NULL) return R_NilValue;
  int k = Rf_nrows(x), d = Rf_ncols(x);
  if (s->kind == KIND_UNSET || d != s->d || TYPEOF(x) != REALSXP || TYPEOF(need) != INTSXP)
    Rf_error("dpfda internal: bad online answer call");
  if (s->kind == KIND_GENERAL &&
      (TYPEOF(xs) != REALSXP || Rf_nrows(xs) != k || Rf_ncols(xs) != d))
    Rf_error("dpfda internal: bad scaled points");
  const double *pf = TYPEOF(fval) == REALSXP ? REAL(fval) : NULL;
  R_xlen_t nf = pf != NULL ? XLENGTH(fval) : -1;
  SEXP out = PROTECT(Rf_allocVector(REALSXP, k));
  int status = online_answer(s, REAL(x), s->kind == KIND_GENERAL ? REAL(xs) : NULL, k, INTEGER(need),
                             LENGTH(need), pf, nf, Rf_asReal(limit), REAL(out));
  if (status != ST_OK) {
    SEXP st = PROTECT(Rf_ScalarInteger(status));
    Rf_setAttrib(out, Rf_install("status"), st);
    UNPROTECT(1);
  }
  UNPROTECT(1);
  return out;
}

/* The value bound to sym in the frame of env, or NULL if unbound. */
static SEXP frame_get(SEXP env, SEXP sym)
{
  SEXP v = Rf_findVarInFrame3(env, sym, TRUE);
  return v == R_UnboundValue ? NULL : v;
}

/* The state of object when it is a "dpfda_online_session" environment whose first
 * query chose the Markov path (object$fast) and has f and max_doubles:
 * sets *f and *limit.  NULL otherwise (the caller dispatches as usual). */
static SEXP query1_ptr(SEXP object, SEXP *f, double *limit)
{
  static SEXP s_fast = NULL, s_ptr, s_f, s_lim, s_cls;
  if (s_fast == NULL) {
    s_fast = Rf_install("fast"); s_ptr = Rf_install("ptr"); s_f = Rf_install("f");
    s_lim = Rf_install("max_doubles");
    s_cls = Rf_mkChar("dpfda_online_session");
    R_PreserveObject(s_cls);
  }
  if (TYPEOF(object) != ENVSXP) return NULL;
  SEXP cls = Rf_getAttrib(object, R_ClassSymbol);
  if (TYPEOF(cls) != STRSXP || XLENGTH(cls) != 1 || STRING_ELT(cls, 0) != s_cls) return NULL;
  SEXP fast = frame_get(object, s_fast), ptr = frame_get(object, s_ptr), fn = frame_get(object, s_f),
    lim = frame_get(object, s_lim);
  if (fast == NULL || TYPEOF(fast) != LGLSXP || XLENGTH(fast) != 1 || LOGICAL(fast)[0] != 1 ||
      ptr == NULL || TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrTag(ptr) != state_tag() ||
      fn == NULL || !Rf_isFunction(fn) || lim == NULL || TYPEOF(lim) != REALSXP || XLENGTH(lim) != 1)
    return NULL;
  *f = fn;
  *limit = REAL(lim)[0];
  return ptr;
}

/* Fast path of query(object, x), called by the generic before any dispatch:
 * one point x (a finite double without attributes) on the Markov (1-D OU)
 * path of an object of class exactly "dpfda_online_session" whose first query chose
 * that path (object$fast): the checks, the search, f(x) when x is new, the
 * draw and the insertion in one call, O(log n), with no R-level work.  Same
 * algorithm and draws as plan() + answer() for a single point.  Returns the
 * answer (a double without attributes), a positive integer status of
 * answer() on a failure after the draw (the point is not answered), NULL
 * when the state is gone or this is a forked process, or integer 0 when
 * nothing was done and the caller must dispatch as usual
 * (any other object or x, f failed or gave a bad value, or a limit would be
 * passed: the method checks again and reports it).  f is evaluated before
 * any change of the state or draw. */
SEXP dpfda_online_query1(SEXP object, SEXP x)
{
  /* cheap checks first: anything unusual goes to the method */
  if (TYPEOF(x) != REALSXP || XLENGTH(x) != 1 || ATTRIB(x) != R_NilValue || !R_FINITE(REAL(x)[0]))
    return Rf_ScalarInteger(0);
  SEXP f;
  double lim, a = NA_REAL, xv = REAL(x)[0];
  SEXP ptr = query1_ptr(object, &f, &lim);
  if (ptr == NULL) return Rf_ScalarInteger(0);
  online_state *s = state_get_here(ptr);
  if (s == NULL) return R_NilValue;
  if (s->kind != KIND_MARKOV) return Rf_ScalarInteger(0);
  if (online_markov_lookup(s, xv, &a)) return Rf_ScalarReal(a);
  /* f(x) before any change of the state or draw; ptr protected, as f may
   * rebind object$ptr (whose finalizer would free s).  f may run R code,
   * even a query of this object: online_markov_add() searches again. */
  PROTECT(ptr);
  SEXP call = PROTECT(Rf_lang2(f, x));
  int err = 0;
  SEXP fv = PROTECT(R_tryEvalSilent(call, R_GlobalEnv, &err));   /* errors: the method reports */
  if (err || TYPEOF(fv) != REALSXP || XLENGTH(fv) != 1 || !R_FINITE(REAL(fv)[0])) {
    UNPROTECT(3);
    return Rf_ScalarInteger(0);
  }
  int status = online_markov_add(s, xv, REAL(fv)[0], lim, &a);
  UNPROTECT(3);
  if (status < 0) return Rf_ScalarInteger(0);
  return status == ST_OK ? Rf_ScalarReal(a) : Rf_ScalarInteger(status);
}

/* Test hook: conditional mean and variance of the path at each row of x
 * (online_condition()).  A k x 2 matrix; NULL when the state is gone. */
SEXP dpfda_online_condition(SEXP ptr, SEXP x, SEXP xs)
{
  online_state *s = state_get(ptr);
  if (s == NULL) return R_NilValue;
  const double *px = dpfda_arg_real(x, "dpfda_online_condition", "x");
  int k = Rf_nrows(x), d = Rf_ncols(x);
  if (s->kind == KIND_UNSET || d != s->d) Rf_error("dpfda internal: condition before setup");
  const double *pxs = NULL;
  if (s->kind == KIND_GENERAL) {
    pxs = dpfda_arg_real(xs, "dpfda_online_condition", "xs");
    if (Rf_nrows(xs) != k || Rf_ncols(xs) != d) Rf_error("dpfda internal: bad scaled points");
  }
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, k, 2));
  online_condition(s, px, pxs, k, REAL(out));
  UNPROTECT(1);
  return out;
}

/* The public part of the state: list(points = n x d matrix (sorted for the
 * Markov path, query order otherwise), values = answers, seeded = logical).
 * NULL when the state is gone. */
SEXP dpfda_online_collect(SEXP ptr)
{
  online_state *s = state_get(ptr);
  if (s == NULL) return R_NilValue;
  int n = s->n, d = s->d > 0 ? s->d : 1;
  SEXP pts = PROTECT(Rf_allocMatrix(REALSXP, n, d));
  SEXP vals = PROTECT(Rf_allocVector(REALSXP, n));
  online_collect(s, REAL(pts), REAL(vals));
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(out, 0, pts);
  SET_VECTOR_ELT(out, 1, vals);
  SET_VECTOR_ELT(out, 2, Rf_ScalarLogical(s->seeded));
  static const char *const names[] = {"points", "values", "seeded"};
  dpfda_set_names(out, 3, names);
  UNPROTECT(3);
  return out;
}
