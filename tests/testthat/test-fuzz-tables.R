# Fuzzing of the data that come as tables, chunks and column names
# (helper-fuzz-tables.R), in child R processes: random nasty data and bad
# arguments never crash, hang or raise an unclassed error; unchanged calls
# give the same outcome and the same release from memory, chunks, SQLite and
# (under make test) PostgreSQL.
# `make fuzz` runs a long one (tools/fuzz.R).

test_that("random nasty tables, chunks and column names never crash, hang or raise an unclassed error", {
  skip_if(is.null(dpfda_child_lib()), "dpfda is not installed")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  n <- as.integer(Sys.getenv("DPFDA_FUZZ_TABLES_N", "120"))
  defs <- bad_arg_definitions(environment())
  res <- fuzz_run(fuzz_table_cases(n, seed = 20261130, defs))
  bad <- res[res$outcome %in% c("crash", "hang", "other_error") | res$nonfinite | res$foreign_warning, ]
  expect(nrow(bad) == 0L,
         sprintf("%d of %d table fuzz cases failed:\n%s", nrow(bad), n,
                 paste(sprintf("  %s -> %s <%s>: %s", bad$label, bad$outcome, bad$class, bad$message),
                       collapse = "\n")))
  expect_gt(sum(res$outcome == "ok"), n / 5)           # (the bad values do not stop every call)
  expect_gt(sum(res$outcome == "dpfda_error"), n / 5)
})

test_that("the same nasty data give the same outcome and release from memory, chunks, SQLite and PostgreSQL", {
  skip_if(is.null(dpfda_child_lib()), "dpfda is not installed")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  n <- as.integer(Sys.getenv("DPFDA_FUZZ_SOURCES_N", "40"))
  cases <- fuzz_table_source_cases(n, seed = 20261130)
  run <- dpfda_child_run(cases, time_limit = 30, timeout = 600)
  expect(isTRUE(run$finished), dpfda_child_failure(run, cases))
  lab <- vapply(cases, `[[`, "", "label")
  key <- sub(" [|] [a-z]+$", "", lab)
  # SQLite has no logical type: TRUE / FALSE are stored as the integers 1 / 0, numbers there
  skip_sqlite <- grepl("logical values", key) & grepl("[|] sqlite$", lab)
  if (pg_required()) expect_true("postgres" %in% fuzz_table_sources())
  out <- vapply(run$results, function(r) if (r$status == "ok") "ok" else paste(r$class[1L], r$status), "")
  expect_sources_agree(run, lab, key, out, skip_sqlite)
  expect_gt(length(unique(key)), n / 2)
})

test_that("one bad argument gives the same outcome (a result or a classed error) on every source", {
  # which error comes first may differ (memory checks the data before some arguments); that one
  # refuses and another answers may not, except where documented: `grid` is required outside memory
  # (memory takes the data's), chunks must come sorted by `id`, PostgreSQL's floating-point range
  skip_if(is.null(dpfda_child_lib()), "dpfda is not installed")
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  n <- as.integer(Sys.getenv("DPFDA_FUZZ_SOURCES_N", "40"))
  cases <- fuzz_table_source_cases(n, seed = 20261131, defs = bad_arg_definitions(environment()))
  run <- dpfda_child_run(cases, time_limit = 30, timeout = 600)
  expect(isTRUE(run$finished), dpfda_child_failure(run, cases))
  lab <- vapply(cases, `[[`, "", "label")
  key <- sub(" [|] [a-z]+$", "", lab)
  msg <- vapply(run$results, function(r) r$message %||% "", "")
  out <- vapply(run$results, `[[`, "", "status")
  expect_false(any(out %in% c("other_error")), info = paste(lab[out == "other_error"], collapse = "; "))
  # (and PostgreSQL refuses a product that underflows, e.g. with tau = 1e-300: a classed error there)
  documented <- (grepl("(grid = NULL)", lab, fixed = TRUE) & grepl("`grid` is required", msg, fixed = TRUE)) |
    grepl("refused a floating-point result out of range", msg, fixed = TRUE) |
    grepl("must come together in the chunks", msg, fixed = TRUE) |
    (grepl("logical values", key) & grepl("[|] sqlite$", lab))
  expect_sources_agree(run, lab, key, out, documented)
})
