# A short fuzzing run (helper-fuzz.R): random bad arguments, one to three at
# a time, for every exported function, in child R processes. `make fuzz`
# runs a long one (tools/fuzz.R).

test_that("random bad arguments never crash, hang or raise an unclassed error", {
  skip_if(is.null(dpfda_child_lib()), "dpfda is not installed")
  n <- as.integer(Sys.getenv("DPFDA_FUZZ_N", "400"))
  defs <- bad_arg_definitions(environment())
  res <- fuzz_run(fuzz_cases(n, seed = 20261121, defs))
  s <- fuzz_summary(res)
  bad <- res[res$outcome %in% c("crash", "hang", "other_error") | res$nonfinite | res$foreign_warning, ]
  expect(nrow(bad) == 0L,
         sprintf("%d of %d fuzz cases failed:\n%s", nrow(bad), n,
                 paste(sprintf("  %s -> %s <%s>: %s", bad$label, bad$outcome, bad$class, bad$message),
                       collapse = "\n")))
  expect_equal(s[["cases"]], n)
})
