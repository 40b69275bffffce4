# bench/bench-bandwidth.R -- dp_bandwidth() on N points (default 1e6; DPFDA_BENCH_ROWS): in memory
# (exact quartiles, and binned = TRUE: 2^16 bins of the domain), from an SQLite table (the engine
# groups the rows by bin), and what a user would do instead with a table: collect the column, then
# the in-memory call; with and without a privacy unit (persons of 4 points). Median wall time of 3
# runs after one warm-up, and the ratios to the in-memory call.
#   Rscript bench/bench-bandwidth.R
#
# Measured 2026-11-30 (1e6 points, CI running beside it): memory 120 ms (3.06 s before the distance
# to instability was searched in doubling blocks instead of over all n + 1 steps), binned 172 ms
# (1.43x), SQLite 752 ms (6.3x: a check of the column types, a count of the dropped rows and the
# grouping by bin, each a scan), collect then memory 273 ms (2.3x), memory with a unit 235 ms,
# SQLite with a unit 1.59 s (the rows per person: a second grouping). SQLite runs in this process,
# so collecting its million doubles is cheap; the engine's path never holds the rows in R, which is
# what a table that does not fit in memory needs.
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # fmt_s(), bench_ratio()
N <- as.numeric(Sys.getenv("DPFDA_BENCH_ROWS", "1e6"))
set.seed(1)
d <- data.frame(v = stats::rnorm(N), person = rep(seq_len(ceiling(N / 4)), each = 4)[seq_len(N)])
con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
DBI::dbWriteTable(con, "d", d)
tb <- dplyr::tbl(con, "d")
old <- dp_reproducible(1)
dl <- 0.01 / N
tm <- function(f) {
  f()
  stats::median(replicate(3, system.time(f())[["elapsed"]]))
}
cases <- list(
  memory = function() dp_bandwidth(d$v, 1, dl, domain = c(-6, 6)),
  "memory, binned" = function() dp_bandwidth(d$v, 1, dl, domain = c(-6, 6), binned = TRUE),
  "SQLite" = function() dp_bandwidth(tb, 1, dl, domain = c(-6, 6), columns = "v"),
  "collect, then memory" = function() dp_bandwidth(dplyr::pull(tb, "v"), 1, dl, domain = c(-6, 6)),
  "memory, unit" = function() dp_bandwidth(d$v, 1, dl, domain = c(-6, 6), unit = d$person),
  "SQLite, unit" = function() dp_bandwidth(tb, 1, dl, domain = c(-6, 6), columns = "v", unit = "person"))
t <- vapply(cases, tm, 1)
for (nm in names(t)) cat(sprintf("%-22s %9s  (%.2f x memory)\n", nm, fmt_s(t[[nm]]), t[[nm]] / t[["memory"]]))
dp_rng(old)
DBI::dbDisconnect(con)
