# bench/bench-engine.R -- data outside memory: summaries computed in a
# database engine against collecting the table into R, and a CSV file read
# in chunks.
#
#  1. A table `pts` of N rows (columns v, y) and a long table of curves
#     `visits` (id, arg, value; N / 10 rows, 51 grid points per curve) in
#     SQLite, in PostgreSQL when a server is given (DPFDA_PG_HOST, ...: `make
#     bench` starts a throwaway one through tools/pg-test.sh) and RPostgres is
#     installed, and in DuckDB when the duckdb package is installed. For each
#     mechanism the engine computes the summary and only it comes back to R:
#       kde     dp_kde() on v (the engine clamps, bins and sums; 4096 bins)
#       binreg  dp_bin_regression() of y on v (40 bins: counts and sums)
#       mean    dp_mean() of the curves (per-individual clipping; 51 sums)
#       cov     dp_cov() of the curves (J = 10: 10 + 100 sums; a join with
#               the public projection matrix)
#       kme     dp_kme(), Algorithm 1, on (v, y): Gaussian kernel sums at 50
#               public points (50 kernel values per row)
#       rff     dp_kme(), Algorithm 2, on (v, y): 100 random features (50
#               frequencies, cos and sin)
#     against collect() from SQLite then the in-memory path ("collect").
#     Time, rows per second and peak memory of the R process (peak resident
#     set, VmHWM, and R's own heap), each phase in a fresh R process so that
#     the peaks are separate.
#  2. A CSV file of N_csv rows through csv_chunks() at N_csv / 100, N_csv / 10
#     and N_csv rows (the same chunk size, min(1e6, N_csv / 1000) rows): the
#     peak memory must not grow with the rows.
#
# Times are those of the whole call (connection open, packages loaded). CPU
# time is that of the R process, which includes the embedded engine (DuckDB
# may use several threads), and is the fairer figure on a busy machine.
#
# Sizes: DPFDA_BENCH_ROWS (default 1e6, a quick `make bench`; the issue's
# figures are at 1e7), DPFDA_BENCH_CSV_ROWS (default: N; the issue's 1e8 rows
# take about 1 GB in DPFDA_BENCH_DIR and tens of minutes per pass;
# DPFDA_BENCH_KEEP_CSV=1 keeps the files and reuses them; 0 rows: no CSV);
# DPFDA_BENCH_ENGINES=postgres,sqlite (comma-separated; "collect" included
# with sqlite) runs only those engines, DPFDA_BENCH_WHAT=kme,rff only those
# summaries. E.g.
#   DPFDA_BENCH_ROWS=1e7 DPFDA_BENCH_CSV_ROWS=1e8 DPFDA_BENCH_DIR=/tmp/dpfda-bench \
#     nice Rscript bench/bench-engine.R
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # fmt_s(), verdict()

args <- commandArgs(trailingOnly = TRUE)
phase <- sub("^--phase=", "", grep("^--phase=", args, value = TRUE))
N <- as.numeric(Sys.getenv("DPFDA_BENCH_ROWS", "1e6"))
N_csv <- as.numeric(Sys.getenv("DPFDA_BENCH_CSV_ROWS", format(N, scientific = FALSE)))
dir <- Sys.getenv("DPFDA_BENCH_DIR", file.path(tempdir(), "dpfda-bench-engine"))
db_file <- function(engine) file.path(dir, if (engine == "duckdb") "bench.duckdb" else "bench.sqlite")
grid <- seq(0, 1, length.out = 501)
tg <- seq(0, 1, length.out = 51)
h <- 0.02
kc <- kernel_matern(3 / 2, 0.1)
kk <- kernel_gaussian(0.5)
kme_z <- local({
  set.seed(7)
  cbind(stats::runif(50, 0, 1), stats::runif(50, -1.5, 1.5))
})
kme_dom <- rbind(c(0, -2), c(1, 2))
kme_rff_feat <- function() with_seed_mode(8, kme_rff(kk, 100, 2))
with_seed_mode <- function(seed, expr) {
  old <- dp_reproducible(seed)
  on.exit(dp_rng(old))
  expr
}
csv_sizes <- if (N_csv > 0) c(csv_a = N_csv / 100, csv_b = N_csv / 10, csv_c = N_csv) else numeric()  # 0: none
csv_path <- function(p) file.path(dir, paste0(p, ".csv"))

fmt_n <- function(n) format(n, big.mark = ",", scientific = FALSE)

# Peak resident set of this process (Linux), in MB; NA elsewhere.
peak_rss <- function() {
  f <- "/proc/self/status"
  if (!file.exists(f)) return(NA_real_)
  l <- grep("^VmHWM:", readLines(f), value = TRUE)
  if (!length(l)) NA_real_ else as.numeric(gsub("[^0-9]", "", l)) / 1024
}
heap_peak <- function() sum(gc()[, ncol(gc())])   # "max used" (MB) since gc(reset = TRUE)

pg_available <- function() {
  nzchar(Sys.getenv("DPFDA_PG_HOST")) && requireNamespace("RPostgres", quietly = TRUE)
}

connect <- function(engine, read_only = TRUE) {
  if (engine == "postgres") {
    return(DBI::dbConnect(RPostgres::Postgres(), host = Sys.getenv("DPFDA_PG_HOST"),
                          port = as.integer(Sys.getenv("DPFDA_PG_PORT", "5432")),
                          user = Sys.getenv("DPFDA_PG_USER"), dbname = Sys.getenv("DPFDA_PG_DBNAME")))
  }
  if (engine == "duckdb") {
    DBI::dbConnect(getExportedValue("duckdb", "duckdb")(), dbdir = db_file(engine), read_only = read_only)
  } else DBI::dbConnect(RSQLite::SQLite(), db_file(engine))
}

# One phase "<what>_<engine>" (engine: sqlite, duckdb, or collect = collect
# from SQLite then in memory); prints a RESULT line.
run_phase <- function(phase) {
  what <- sub("_[^_]+$", "", phase)
  engine <- sub("^.*_", "", phase)
  con <- if (what != "csv") connect(if (engine == "collect") "sqlite" else engine)
  on.exit(if (!is.null(con)) {
    if (engine == "duckdb") DBI::dbDisconnect(con, shutdown = TRUE) else DBI::dbDisconnect(con)
  })
  gc(reset = TRUE)
  p0 <- proc.time()
  rows <- suppressWarnings(if (engine == "collect") {
    switch(what,
      kde = {
        x <- dplyr::collect(dplyr::select(dplyr::tbl(con, "pts"), "v"))$v
        r <- dp_kde(x, grid, h, epsilon = 1, delta = 1e-6, binned = TRUE)
        length(x)
      },
      binreg = {
        d <- dplyr::collect(dplyr::tbl(con, "pts"))
        r <- dp_bin_regression(d$v, d$y, 40, c(-2, 2), 1, c(0, 1))
        nrow(d)
      },
      mean = {
        d <- as.data.frame(dplyr::collect(dplyr::tbl(con, "visits")))
        r <- dp_mean(summarise_mean(d, tg, tau = 2), epsilon = 1, tau = 2)
        nrow(d)
      },
      cov = {
        d <- as.data.frame(dplyr::collect(dplyr::tbl(con, "visits")))
        r <- dp_cov(summarise_cov(d, tg, tau = 2, kernel = kc, J = 10), epsilon = 1, tau = 2, kernel = kc, J = 10)
        nrow(d)
      },
      kme = {
        d <- dplyr::collect(dplyr::tbl(con, "pts"))
        r <- dp_kme(cbind(d$v, d$y), kk, 1, 1e-6, synthetic = kme_z, domain = kme_dom)
        nrow(d)
      },
      rff = {
        d <- dplyr::collect(dplyr::tbl(con, "pts"))
        s <- summarise_kme(cbind(d$v, d$y), kk, "random_features", rff = kme_rff_feat(), domain = kme_dom)
        r <- dp_kme(s, kk, 1, 1e-6, method = "random_features", synthetic = kme_z, domain = kme_dom, iters = 5)
        nrow(d)
      })
  } else if (what == "csv") {
    s <- summarise_kde(csv_chunks(csv_path(phase), rows = min(1e6, N_csv / 1000), colClasses = "numeric"), grid, h,
                       columns = "v")
    r <- dp_kde(s, grid, h, epsilon = 1, delta = 1e-6)
    s$rows
  } else {
    switch(what,
      kde = {
        s <- summarise_kde(dplyr::tbl(con, "pts"), grid, h, columns = "v")
        r <- dp_kde(s, grid, h, epsilon = 1, delta = 1e-6)
        s$rows
      },
      binreg = {
        s <- summarise_bin_regression(dplyr::tbl(con, "pts"), "y", 40, c(-2, 2), c(0, 1), columns = "v")
        r <- dp_bin_regression(s, epsilon = 1)
        s$rows
      },
      mean = {
        s <- summarise_mean(dplyr::tbl(con, "visits"), tg, tau = 2)
        r <- dp_mean(s, epsilon = 1, tau = 2)
        s$rows
      },
      cov = {
        s <- summarise_cov(dplyr::tbl(con, "visits"), tg, tau = 2, kernel = kc, J = 10)
        r <- dp_cov(s, epsilon = 1, tau = 2, kernel = kc, J = 10)
        s$rows
      },
      kme = {
        s <- summarise_kme(dplyr::tbl(con, "pts"), kk, synthetic = kme_z, domain = kme_dom, columns = c("v", "y"))
        r <- dp_kme(s, kk, 1, 1e-6)
        s$rows
      },
      rff = {
        s <- summarise_kme(dplyr::tbl(con, "pts"), kk, "random_features", rff = kme_rff_feat(), domain = kme_dom,
                           columns = c("v", "y"))
        r <- dp_kme(s, kk, 1, 1e-6, method = "random_features", synthetic = kme_z, domain = kme_dom, iters = 5)
        s$rows
      })
  })   # (utility warnings of the small default sizes are not the point here)
  p1 <- proc.time() - p0
  cat(sprintf("RESULT %s %.6g %.6g %.6g %.6g %.6g\n", phase, p1[["elapsed"]], rows, peak_rss(), heap_peak(),
              p1[["user.self"]] + p1[["sys.self"]]))
}

if (length(phase)) {
  run_phase(phase)
  quit(save = "no")
}

for (p in c("DBI", "dplyr", "dbplyr", "RSQLite")) {
  if (!requireNamespace(p, quietly = TRUE)) {
    cat(sprintf("SKIP: %s is not installed\n", p))
    quit(save = "no")
  }
}
engines <- c("sqlite", if (pg_available()) "postgres", if (requireNamespace("duckdb", quietly = TRUE)) "duckdb")
sel <- Sys.getenv("DPFDA_BENCH_ENGINES")             # e.g. "duckdb": only those engines (no collect phases)
if (nzchar(sel)) engines <- intersect(strsplit(sel, ",")[[1]], engines)
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
pg_version <- if ("postgres" %in% engines) {
  con <- connect("postgres")
  v <- DBI::dbGetQuery(con, "SHOW server_version")[[1]]
  DBI::dbDisconnect(con)
  sprintf("PostgreSQL %s (RPostgres %s)", v, utils::packageVersion("RPostgres"))
} else "PostgreSQL: no server (DPFDA_PG_HOST) or no RPostgres (skipped)"
cat(sprintf("dpfda %s; RSQLite %s; %s; duckdb %s; N = %s rows (curves: %s rows; CSV: %s rows)\n",
            utils::packageVersion("dpfda"), utils::packageVersion("RSQLite"), pg_version,
            if ("duckdb" %in% engines) as.character(utils::packageVersion("duckdb")) else "not installed (skipped)",
            fmt_n(N), fmt_n(N / 10), fmt_n(N_csv)))
cat(sprintf("load: %s\n\n", paste(readLines("/proc/loadavg", warn = FALSE), collapse = "")))

# ---- data (written in batches, never all in memory) --------------------------
set.seed(1)
t_setup <- proc.time()[["elapsed"]]
cons <- lapply(stats::setNames(engines, engines), connect, read_only = FALSE)
for (con in cons) for (tb in c("pts", "visits")) if (DBI::dbExistsTable(con, tb)) DBI::dbRemoveTable(con, tb)
batch <- 1e6
for (b in seq_len(ceiling(N / batch))) {
  k <- min(batch, N - (b - 1) * batch)
  v <- stats::rnorm(k, 0.5, 0.15)
  d <- data.frame(v = v, y = sin(6 * v) + stats::rnorm(k, 0, 0.3))
  for (con in cons) DBI::dbWriteTable(con, "pts", d, append = TRUE)
}
nv <- floor(N / 10 / length(tg)) * length(tg)     # whole curves
ids_per_batch <- batch / length(tg)
for (b in seq_len(ceiling(nv / batch))) {
  k <- min(batch, nv - (b - 1) * batch)
  nid <- ceiling(k / length(tg))
  id0 <- (b - 1) * ids_per_batch
  amp <- stats::runif(nid, 0.5, 1.5)
  d <- data.frame(id = rep(id0 + seq_len(nid), each = length(tg)), arg = rep(tg, nid),
                  value = as.vector(outer(sin(2 * pi * tg), amp)))[seq_len(k), ]
  for (con in cons) DBI::dbWriteTable(con, "visits", d, append = TRUE)
}
for (con in cons) DBI::dbDisconnect(con, shutdown = TRUE)
write_csv_rows <- function(f, n) {
  if (identical(Sys.getenv("DPFDA_BENCH_KEEP_CSV"), "1") && file.exists(f)) return(invisible())   # reuse
  cat("v\n", file = f)
  for (b in seq_len(ceiling(n / batch))) {
    k <- min(batch, n - (b - 1) * batch)
    utils::write.table(data.frame(v = round(stats::rnorm(k, 0.5, 0.15), 6)), f, append = TRUE, sep = ",",
                       row.names = FALSE, col.names = FALSE)
  }
}
for (p in names(csv_sizes)) write_csv_rows(csv_path(p), csv_sizes[[p]])   # csv_a.csv, ...
cat(sprintf("setup (tables and CSV files written in batches): %s\n\n", fmt_s(proc.time()[["elapsed"]] - t_setup)))

# ---- each phase in a fresh R process -----------------------------------------
rscript <- file.path(R.home("bin"), "Rscript")
whats <- c("kde", "binreg", "mean", "cov", "kme", "rff")
sel_what <- Sys.getenv("DPFDA_BENCH_WHAT")
if (nzchar(sel_what)) whats <- intersect(strsplit(sel_what, ",")[[1]], whats)
phases <- c(as.vector(t(outer(whats,
                              c(engines, if ("sqlite" %in% engines) "collect"), paste, sep = "_"))),
            names(csv_sizes))
res <- list()
cat(sprintf("%-15s %13s %9s %9s %12s %12s %9s %8s\n", "phase", "rows", "elapsed", "CPU", "rows/s", "rows/CPU-s",
            "peak RSS", "R heap"))
for (p in phases) {
  out <- system2(rscript, c("bench/bench-engine.R", paste0("--phase=", p)), stdout = TRUE,
                 env = c(paste0("DPFDA_BENCH_DIR=", dir), paste0("DPFDA_BENCH_ROWS=", N),
                         paste0("DPFDA_BENCH_CSV_ROWS=", N_csv)))
  l <- grep("^RESULT", out, value = TRUE)
  if (!length(l)) {
    cat(sprintf("phase %s failed:\n%s\n", p, paste(out, collapse = "\n")))
    next
  }
  v <- strsplit(l, " ")[[1]]
  res[[p]] <- as.numeric(v[3:7])
  cat(sprintf("%-15s %13s %9s %9s %12s %12s %6.0f MB %5.0f MB\n",
              p, format(res[[p]][2], big.mark = ",", scientific = FALSE), fmt_s(res[[p]][1]), fmt_s(res[[p]][5]),
              format(round(res[[p]][2] / res[[p]][1]), big.mark = ","),
              format(round(res[[p]][2] / res[[p]][5]), big.mark = ","), res[[p]][3], res[[p]][4]))
}
cat("\n")
for (w in whats) {   # (below 1e6 rows the loaded packages dominate: SKIP)
  e <- res[[paste0(w, "_sqlite")]]
  cl <- res[[paste0(w, "_collect")]]
  if (!is.null(e) && !is.null(cl)) {
    verdict(if (N >= 1e6) e[3] < cl[3] else NA, sprintf("%s: engine summary (SQLite) peak memory %.0f MB below collect + in memory %.0f MB",
                                  w, e[3], cl[3]))
  }
  pg <- res[[paste0(w, "_postgres")]]
  if (!is.null(pg) && !is.null(e)) {      # every engine path on PostgreSQL at least as fast as on SQLite
    verdict(if (N >= 1e6) pg[1] <= e[1] else NA,
            sprintf("%s: PostgreSQL %s <= SQLite %s (elapsed)", w, fmt_s(pg[1]), fmt_s(e[1])))
  }
  if (!is.null(pg) && !is.null(cl) && w %in% c("kme", "rff", "cov")) {   # the join / many-sums paths
    verdict(if (N >= 1e6) pg[1] <= 3 * cl[1] else NA,
            sprintf("%s: PostgreSQL %s within 3x of collect + in memory %s (elapsed)", w, fmt_s(pg[1]), fmt_s(cl[1])))
  }
}
a <- res$csv_a
b <- res$csv_b
cc <- res$csv_c
if (!is.null(cc) && !is.null(b)) {
  verdict(cc[3] < 1.25 * b[3] + 50,
          sprintf("CSV chunks: peak memory %.0f / %.0f / %.0f MB at %s / %s / %s rows does not grow with the rows",
                  if (is.null(a)) NA else a[3], b[3], cc[3], fmt_n(csv_sizes[[1]]), fmt_n(csv_sizes[[2]]),
                  fmt_n(csv_sizes[[3]])))
}
if (!identical(Sys.getenv("DPFDA_BENCH_KEEP_CSV"), "1")) unlink(dir, recursive = TRUE)
