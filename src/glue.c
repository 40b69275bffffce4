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
