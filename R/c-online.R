# Thin wrappers of the .Call entry points of src/online-call.c: the only R code that
# calls into that file. No checks here: the callers validate, the C glue asserts.

c_online_create <- function(amp, tau, ktype, nu, gamma, exact) {
  .Call(C_dpfda_online_create, amp, tau, ktype, nu, gamma, exact)
}
c_online_query1 <- function(object, x) .Call(C_dpfda_online_query1, object, x)
c_online_plan <- function(ptr, x) .Call(C_dpfda_online_plan, ptr, x)
c_online_answer <- function(ptr, x, xs, need, fval, limit) {
  .Call(C_dpfda_online_answer, ptr, x, xs, need, fval, limit)
}
c_online_collect <- function(ptr) .Call(C_dpfda_online_collect, ptr)
c_online_count <- function(ptr) .Call(C_dpfda_online_count, ptr)
c_online_setup <- function(ptr, kind, d) .Call(C_dpfda_online_setup, ptr, kind, d)
c_online_condition <- function(ptr, x, xs) .Call(C_dpfda_online_condition, ptr, x, xs)
