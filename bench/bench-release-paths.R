# Release paths before and after a change (issue 28: no path slower by more
# than 5 %). Times every mechanism's release from each in-memory source and
# from SQLite, as CPU seconds (user + system, best of `reps`, which is the
# least disturbed by other load), and writes them to a CSV; with two CSVs
# (an old build and this one) it prints the ratios.
#
#   Rscript bench/bench-release-paths.R out.csv            # time the installed dpfda
#   Rscript bench/bench-release-paths.R --compare old.csv new.csv
#
# Measured 2026-11-30 (reps 3, a loaded 2-core machine), the engine's inner queries written as SQL
# text (R/engine-sql.R) against the build before: every SQLite path faster, dp_cov 10.25 -> 2.62 s,
# dp_kde 0.215 -> 0.063-0.082 s, dp_mean 0.57-0.83 -> 0.32-0.52 s (ratios 0.26-0.84); the in-memory
# paths, whose code did not change, within 0.97-1.07 in the quieter of two runs (up to 1.58 on
# 10-ms paths in the other, with a simulation running beside it).
args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 3L && args[1L] == "--compare") {
  a <- utils::read.csv(args[2L])
  b <- utils::read.csv(args[3L])
  m <- merge(a, b, by = "path", suffixes = c("_old", "_new"))
  m$ratio <- round(m$cpu_new / m$cpu_old, 3)
  m$within_5pct <- m$ratio <= 1.05
  print(m[order(-m$ratio), ], row.names = FALSE)
  cat(sprintf("\n%d of %d paths within 5 %% of the old build\n", sum(m$within_5pct), nrow(m)))
  quit(save = "no")
}
out <- if (length(args)) args[1L] else "release-paths.csv"
suppressPackageStartupMessages(library(dpfda))
reps <- as.integer(Sys.getenv("DPFDA_BENCH_REPS", "5"))
cpu <- function(f) {
  f()   # warm-up (caches, byte code)
  min(vapply(seq_len(reps), function(i) {
    t <- system.time(f())
    t[["user.self"]] + t[["sys.self"]]
  }, 0))
}
quiet <- function(expr) suppressWarnings(suppressMessages(expr))
set.seed(1)
n <- 2000
g <- seq(0, 1, length.out = 50)
X <- outer(rnorm(n, 1, 0.3), sin(2 * pi * g)) + matrix(rnorm(n * 50, 0, 0.2), n)
cv <- curves(X, g)
long <- data.frame(id = rep(seq_len(n), 50), arg = rep(g, each = n), value = as.vector(X))
pts <- rbeta(20000, 2, 5)
xy <- data.frame(x = runif(5000), y = rnorm(5000))
has_sql <- requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)
if (has_sql) {
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  DBI::dbWriteTable(con, "long", long)
  DBI::dbWriteTable(con, "pts", data.frame(x = pts))
  tl <- dplyr::tbl(con, "long")
  tp <- dplyr::tbl(con, "pts")
}
paths <- list()
for (mech in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
  o <- if (mech == "gp") list(delta = 1e-5) else list()
  paths[[paste0("dp_mean ", mech, " curves")]] <- function() quiet(do.call(dp_mean, c(list(cv, 1, 2, mech), o)))
  paths[[paste0("dp_mean ", mech, " data frame")]] <- function() quiet(do.call(dp_mean, c(list(long, 1, 2, mech, grid = g), o)))
  if (has_sql) paths[[paste0("dp_mean ", mech, " SQLite")]] <- function() quiet(do.call(dp_mean, c(list(tl, 1, 2, mech, grid = g), o)))
}
paths[["dp_cov curves"]] <- function() quiet(dp_cov(cv, 1, 2))
paths[["dp_cov data frame"]] <- function() quiet(dp_cov(long, 1, 2, grid = g))
if (has_sql) paths[["dp_cov SQLite"]] <- function() quiet(dp_cov(tl, 1, 2, grid = g))
gk <- seq(0, 1, length.out = 64)
paths[["dp_kde gp vector"]] <- function() quiet(dp_kde(pts, gk, 0.05, 1, 1e-5, domain = c(0, 1)))
paths[["dp_kde iclp vector"]] <- function() quiet(dp_kde(pts, gk, 0.05, 1, mechanism = "iclp", domain = c(0, 1)))
if (has_sql) paths[["dp_kde gp SQLite"]] <- function() quiet(dp_kde(tp, gk, 0.05, 1, 1e-5, domain = c(0, 1), columns = "x"))
paths[["dp_bin_regression vectors"]] <- function() quiet(dp_bin_regression(xy$x, xy$y, bins = 20, y_bound = c(-3, 3),
                                                                           epsilon = 1, domain = c(0, 1)))
res <- data.frame(path = names(paths), cpu = vapply(paths, function(f) {
  r <- tryCatch(cpu(f), error = function(e) NA_real_)
  r
}, 0), row.names = NULL)
print(res, row.names = FALSE)
utils::write.csv(res, out, row.names = FALSE)
