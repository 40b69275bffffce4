/* glue.c -- small helpers shared by the .Call wrappers. */
#include "dpfda.h"

/* Names the n elements of the (protected) list x with the C strings names. */
void dpfda_set_names(SEXP x, int n, const char *const *names)
{
  SEXP nms = PROTECT(Rf_allocVector(STRSXP, n));
  for (int i = 0; i < n; i++) SET_STRING_ELT(nms, i, Rf_mkChar(names[i]));
  Rf_setAttrib(x, R_NamesSymbol, nms);
  UNPROTECT(1);
}

/* list(values, vectors, n_positive): the Karhunen-Loeve basis as kl_basis()
 * reads it from either route, dense (iclp-call.c) or Markov
 * (kl-markov-call.c); rv, rV protected by the caller. */
SEXP dpfda_kl_basis_list(SEXP rv, SEXP rV, int npos)
{
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
  SET_VECTOR_ELT(out, 0, rv);
  SET_VECTOR_ELT(out, 1, rV);
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(npos));
  static const char *const names[] = {"values", "vectors", "n_positive"};
  dpfda_set_names(out, 3, names);
  UNPROTECT(1);
  return out;
}
