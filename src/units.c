/* units.c -- integer codes of privacy units (person ids).
 *
 * Data grouped by person usually arrive sorted by it: the codes 1..K are then
 * a count of runs, one pass without hashing (R's match() hashes every key,
 * about half the cost of a unit = release on 1e6 points).  Only keys in
 * non-decreasing order are coded here: a run count of unsorted keys would
 * split a unit into several and give it several times its weight, so those
 * are refused (NULL) and R falls back to match().
 */
#include <limits.h>
#include "dpfda.h"
#include "asserts.h"

/* codes of non-decreasing keys into out; returns 0 when the keys decrease somewhere */
static int unit_runs_int(const int *key, R_xlen_t n, int *out)
{
  int code = 0;
  for (R_xlen_t i = 0; i < n; i++) {
    if (i > 0 && key[i] < key[i - 1]) return 0;
    if (i == 0 || key[i] != key[i - 1]) code++;
    out[i] = code;
  }
  return 1;
}

static int unit_runs_real(const double *key, R_xlen_t n, int *out)
{
  int code = 0;
  for (R_xlen_t i = 0; i < n; i++) {
    if (ISNAN(key[i]) || (i > 0 && key[i] < key[i - 1])) return 0;
    if (i == 0 || key[i] != key[i - 1]) code++;
    out[i] = code;
  }
  return 1;
}

/* .Call: the codes (integer vector) of sorted integer or double keys, or NULL */
SEXP dpfda_unit_runs(SEXP key)
{
  R_xlen_t n = XLENGTH(key);
  if (n >= INT_MAX) return R_NilValue;
  SEXP out = PROTECT(Rf_allocVector(INTSXP, n));
  int ok;
  if (TYPEOF(key) == INTSXP) ok = unit_runs_int(INTEGER(key), n, INTEGER(out));
  else ok = unit_runs_real(dpfda_arg_real(key, "dpfda_unit_runs", "key"), n, INTEGER(out));
  UNPROTECT(1);
  return ok ? out : R_NilValue;
}
