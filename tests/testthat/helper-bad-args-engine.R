# Bad-argument harness entries for data outside memory (R/engine.R,
# R/summary-*.R); merged into test-bad-arguments.R. Their inputs are
# tables, chunk sources and column names, whose bad values (missing or
# non-numeric columns, NULLs, unsorted chunks, mismatched summaries) are
# tested one by one in test-engine.R.
bad_arg_excluded_engine <- function() {
  why <- "inputs are tables, chunks and column names: bad input tested in test-engine.R"
  c(summarise_kde = why, summarise_mean = why, summarise_mortality = why, summarise_kme = why,
    dp_chunks = why, csv_chunks = why, engine_sql = why)
}
