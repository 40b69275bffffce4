# Thin wrapper of the .Call entry point of src/units.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_unit_runs <- function(key) .Call(C_dpfda_unit_runs, key)
