# bench/bench-engine.R -- data outside memory: a summary computed in a
# database engine against collecting the table into R, and a CSV file read
# in chunks.
#
#  1. SQLite table of N rows (default 1e7): dp_kde() on the lazy table (the
#     engine clamps, bins and sums; 4096 numbers come back) against
#     collect() then the in-memory dp_kde(binned = TRUE). Time, rows per
#     second and peak memory of the R process (peak resident set, VmHWM, and
#     R's own heap), each in a fresh R process so that peaks are separate.
#  2. dp_mean() on a long table of curves (id, arg, value) in SQLite, N / 10
#     rows, engine against collect + in memory.
#  3. A CSV file of N rows through csv_chunks() (1e6 rows a chunk), and the
#     same at N / 10 rows: the peak memory must not grow with the rows.
#
# Times are those of the call (connection open, packages loaded); CPU time is
# that of the R process, which includes the embedded SQLite engine, and is
# the fairer figure on a busy machine. The phases (each in its own process):
# kde_engine / kde_collect, mean_engine / mean_collect, csv_tenth / csv_full
# (chunks of min(1e6, rows / 1000) rows: 100 and 1000 chunks; R's collector
# needs some tens of chunks to reach its steady heap, flat after that).
#
# Sizes: DPFDA_BENCH_ROWS (default 1e7); the issue asks for 1e8 CSV rows,
# which takes DPFDA_BENCH_CSV_ROWS = 1e8 and about ten minutes per pass.
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # fmt_s(), verdict()

args <- commandArgs(trailingOnly = TRUE)
phase <- sub("^--phase=", "", grep("^--phase=", args, value = TRUE))
N <- as.numeric(Sys.getenv("DPFDA_BENCH_ROWS", "1e7"))
N_csv <- as.numeric(Sys.getenv("DPFDA_BENCH_CSV_ROWS", format(N, scientific = FALSE)))
dir <- Sys.getenv("DPFDA_BENCH_DIR", file.path(tempdir(), "dpfda-bench-engine"))
db <- file.path(dir, "bench.sqlite")
grid <- seq(0, 1, length.out = 501)
tg <- seq(0, 1, length.out = 51)
h <- 0.02

# Peak resident set of this process (Linux), in MB; NA elsewhere.
peak_rss <- function() {
  f <- "/proc/self/status"
  if (!file.exists(f)) return(NA_real_)
  l <- grep("^VmHWM:", readLines(f), value = TRUE)
  if (!length(l)) NA_real_ else as.numeric(gsub("[^0-9]", "", l)) / 1024
}
heap_peak <- function() sum(gc()[, ncol(gc())])   # "max used" (MB) since gc(reset = TRUE)

run_phase <- function(phase) {
  con <- DBI::dbConnect(RSQLite::SQLite(), db)
  on.exit(DBI::dbDisconnect(con))
  gc(reset = TRUE)
  rss0 <- peak_rss()
  p0 <- proc.time()
  rows <- switch(phase,
    kde_engine = {
      r <- dp_kde(dplyr::tbl(con, "pts"), grid, h, epsilon = 1, delta = 1e-6, columns = "v")
      r$n
    },
    kde_collect = {
      x <- dplyr::collect(dplyr::tbl(con, "pts"))$v
      r <- dp_kde(x, grid, h, epsilon = 1, delta = 1e-6, binned = TRUE)
      length(x)
    },
    mean_engine = {
      s <- summarise_mean(dplyr::tbl(con, "visits"), tg, tau = 2, id = "id", arg = "arg", value = "value")
      r <- dp_mean(s, epsilon = 1, tau = 2)
      s$rows
    },
    mean_collect = {
      d <- as.data.frame(dplyr::collect(dplyr::tbl(con, "visits")))
      s <- summarise_mean(d, tg, tau = 2)
      r <- dp_mean(s, epsilon = 1, tau = 2)
      nrow(d)
    },
    csv_full = , csv_tenth = {
      f <- file.path(dir, if (phase == "csv_full") "full.csv" else "tenth.csv")
      s <- summarise_kde(csv_chunks(f, rows = min(1e6, N_csv / 1000), colClasses = "numeric"), grid, h,
                         columns = "v")
      r <- dp_kde(s, grid, h, epsilon = 1, delta = 1e-6)
      s$rows
    })
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
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
cat(sprintf("dpfda %s; RSQLite %s; N = %s rows (CSV: %s)\n\n", utils::packageVersion("dpfda"),
            utils::packageVersion("RSQLite"), format(N, big.mark = ","), format(N_csv, big.mark = ",")))

# ---- data (written in batches, never all in memory) --------------------------
set.seed(1)
t_setup <- proc.time()[["elapsed"]]
con <- DBI::dbConnect(RSQLite::SQLite(), db)
for (tb in c("pts", "visits")) if (DBI::dbExistsTable(con, tb)) DBI::dbRemoveTable(con, tb)
batch <- 1e6
for (b in seq_len(ceiling(N / batch))) {
  k <- min(batch, N - (b - 1) * batch)
  DBI::dbWriteTable(con, "pts", data.frame(v = stats::rnorm(k, 0.5, 0.15)), append = TRUE)
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
  DBI::dbWriteTable(con, "visits", d, append = TRUE)
}
DBI::dbDisconnect(con)
write_csv_rows <- function(f, n) {
  cat("v\n", file = f)
  for (b in seq_len(ceiling(n / batch))) {
    k <- min(batch, n - (b - 1) * batch)
    utils::write.table(data.frame(v = stats::rnorm(k, 0.5, 0.15)), f, append = TRUE, sep = ",",
                       row.names = FALSE, col.names = FALSE)
  }
}
write_csv_rows(file.path(dir, "full.csv"), N_csv)
write_csv_rows(file.path(dir, "tenth.csv"), N_csv / 10)
cat(sprintf("setup (SQLite tables and CSV files written in batches): %s\n\n",
            fmt_s(proc.time()[["elapsed"]] - t_setup)))

# ---- each phase in a fresh R process -----------------------------------------
rscript <- file.path(R.home("bin"), "Rscript")
res <- list()
for (p in c("kde_engine", "kde_collect", "mean_engine", "mean_collect", "csv_tenth", "csv_full")) {
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
  cat(sprintf("%-12s %11s rows  elapsed %8s  CPU %8s  %10s rows/CPU-s  peak RSS %6.0f MB  R heap %6.0f MB\n",
              p, format(res[[p]][2], big.mark = ",", scientific = FALSE), fmt_s(res[[p]][1]), fmt_s(res[[p]][5]),
              format(round(res[[p]][2] / res[[p]][5]), big.mark = ","), res[[p]][3], res[[p]][4]))
}
cat("\n")
if (!is.null(res$kde_engine) && !is.null(res$kde_collect)) {
  verdict(res$kde_engine[3] < res$kde_collect[3],
          sprintf("KDE: engine summary peak memory (%.0f MB) below collect + in memory (%.0f MB)",
                  res$kde_engine[3], res$kde_collect[3]))
}
if (!is.null(res$csv_full) && !is.null(res$csv_tenth)) {
  verdict(res$csv_full[3] < 1.25 * res$csv_tenth[3] + 50,
          sprintf("CSV chunks: peak memory at %s rows (%.0f MB) does not grow from %s rows (%.0f MB)",
                  format(N_csv, big.mark = ","), res$csv_full[3], format(N_csv / 10, big.mark = ","),
                  res$csv_tenth[3]))
}
unlink(dir, recursive = TRUE)
