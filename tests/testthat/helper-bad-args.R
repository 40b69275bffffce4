# Builders shared by test-bad-arguments.R and the topic files
# helper-bad-args-<topic>.R that extend its tables.

# Every argument in `args` x every value in `values` of `fun` is allowed.
allow <- function(fun, args, values) {
  data.frame(fun = fun, expand.grid(arg = args, value = values, stringsAsFactors = FALSE))
}

# A hand-written case; X in `expr` stands for .Machine$double.xmax.
nasty <- function(expr, expect = "error", class = "dpfda_error") {
  e <- do.call(substitute, list(substitute(expr), list(X = quote(.Machine$double.xmax))))
  list(label = paste(deparse(e, width.cutoff = 200L), collapse = " "), expr = e,
       expect = expect, class = class, keep = expect == "ok")
}
