# Fuzzing of the releases and summaries whose data are tables, chunks and
# column names (the bad-argument table of helper-fuzz.R leaves them out: its
# values cross to the child process by serialisation, and a database
# connection does not). Each case is an expression that the child evaluates
# (helper-child.R): it builds the source there -- the data frame itself, the
# same rows as chunks, or an in-memory SQLite table of them -- from a data
# frame that may be nasty (text or logical where numbers belong, NULLs,
# infinities, huge values, quotes in ids, no rows, one row, duplicated
# cells, arguments outside the grid), then calls one release or summary with
# up to two of its arguments replaced by bad column names or by values of
# the general pool. The outcomes are those of fuzz_run(): a classed error or
# a result, never a crash, a hang, an unclassed error, a non-finite result or
# a warning of another package. fuzz_table_source_cases() runs unchanged
# calls on each source of the same frame, to check that the three agree.

fuzz_table_frames <- function() {
  set.seed(4)
  t5 <- seq(0, 1, length.out = 5)
  good <- data.frame(id = rep(1:6, each = 5), arg = rep(t5, 6), value = as.vector(outer(t5, 1:6) / 6),
                     person = rep(c(1, 1, 2, 3, 3, 3), each = 5), x = stats::runif(30))
  with_col <- function(col, v) {
    d <- good
    d[[col]] <- rep_len(v, nrow(d))
    d
  }
  list(
    good = good,
    "text values" = with_col("value", "a"),
    "numbers as text" = with_col("value", c("0.5", "1e-3")),
    "logical values" = with_col("value", c(TRUE, FALSE)),
    "NULL values" = with_col("value", NA_real_),
    "some NULL args" = with_col("arg", c(t5[-5], NA)),
    "Inf values" = with_col("value", c(Inf, -Inf, 1)),
    "huge values" = with_col("value", c(1e300, -1e300)),
    "huge x" = with_col("x", c(1e300, -1e300, 0.5)),
    "NULL x" = with_col("x", NA_real_),
    "text x" = with_col("x", "b"),
    "args outside the domain" = with_col("arg", c(-5, 0.5, 5, 0.25, 1e10)),
    "duplicated cells" = with_col("arg", c(0, 0, 0.5, 0.5, 1)),
    "quoted text ids" = with_col("id", rep(c("a'b", "c\"d", "e f", "g`h", "i\nj", "k"), each = 5)),
    "NULL ids" = with_col("id", rep(c(NA, 2:6), each = 5)),
    "huge ids" = with_col("id", rep(2^53 + c(0, 2, 4, 6, 8, 10), each = 5)),
    "NULL persons" = with_col("person", c(NA, 2)),
    "text persons" = with_col("person", rep(c("p'1", "p'1", "p2", "p3", "p3", "p3"), each = 5)),
    "no rows" = good[0, ],
    "one row" = good[1, ],
    "one curve" = good[1:5, ]
  )
}

# The calls: the source is `x`; the names of the data frame's columns are
# given as strings.
fuzz_table_calls <- function() {
  t5 <- seq(0, 1, length.out = 5)
  g11 <- seq(0, 1, length.out = 11)
  cols <- list(id = "id", arg = "arg", value = "value")
  kme_k <- kernel_gaussian(0.3)
  list(
    dp_mean = c(list(epsilon = 1, tau = 2, grid = t5), cols),
    "dp_mean unit" = c(list(epsilon = 1, tau = 2, grid = t5, unit = "person"), cols),
    "dp_mean inference" = c(list(epsilon = 2, tau = 2, grid = t5, inference = TRUE), cols),
    "dp_mean frl" = c(list(epsilon = 1, tau = 2, mechanism = "frl", grid = t5), cols),
    "dp_mean bernstein" = c(list(epsilon = 1, tau = 2, mechanism = "bernstein", grid = t5), cols),
    "dp_mean drop" = c(list(epsilon = 1, tau = 2, grid = t5, incomplete = "drop"), cols),
    dp_cov = c(list(epsilon = 1, tau = 2, grid = t5), cols),
    "dp_cov unit" = c(list(epsilon = 1, tau = 2, grid = t5, unit = "person"), cols),
    dp_kde = list(grid = g11, bandwidth = 0.2, epsilon = 1, delta = 1e-5, binned = TRUE, columns = "x"),
    "dp_kde unit" = list(grid = g11, bandwidth = 0.2, epsilon = 1, delta = 1e-5, columns = "x", unit = "person"),
    "dp_kde iclp" = list(grid = g11, bandwidth = 0.2, epsilon = 1, mechanism = "iclp", columns = "x"),
    dp_kme = list(kernel = kme_k, epsilon = 1, delta = 1e-5, synthetic = matrix(g11), domain = c(0, 1),
                  columns = "x"),
    "dp_kme rff" = list(kernel = kme_k, epsilon = 1, delta = 1e-5, method = "random_features", J = 40,
                        synthetic = matrix(g11), domain = c(0, 1), columns = "x"),
    dp_bin_regression = list(y = "value", bins = 4, y_bound = c(-1, 1), epsilon = 1, domain = c(0, 1),
                             columns = "x"),
    "dp_bin_regression unit" = list(y = "value", bins = 4, y_bound = c(-1, 1), epsilon = 1, domain = c(0, 1),
                                    columns = "x", unit = "person"),
    dp_bandwidth = list(epsilon = 4, delta = 1e-6, fallback = 0.2, domain = c(0, 1), binned = TRUE, columns = "x"),
    "dp_bandwidth unit" = list(epsilon = 4, delta = 1e-6, fallback = 0.2, domain = c(0, 1), binned = TRUE,
                               columns = "x", unit = "person"),
    summarise_mean = c(list(grid = t5, tau = 2), cols),
    "summarise_mean sup" = c(list(grid = t5, tau = 2, clip = "sup", center = 0.5), cols),
    summarise_cov = c(list(grid = t5, tau = 2, J = 3), cols),
    summarise_kde = list(grid = g11, bandwidth = 0.2, columns = "x"),
    summarise_kme = list(kernel = kme_k, synthetic = matrix(g11), domain = c(0, 1), columns = "x"),
    summarise_bin_regression = list(y = "value", bins = 4, y_bound = c(-1, 1), domain = c(0, 1), columns = "x"),
    dp_fpca = c(list(npc = 2, epsilon = 1, tau = 2, grid = t5), cols)
  )
}

# Bad values for column-name arguments, added to the general pool.
fuzz_column_values <- function() {
  list("a missing column" = "nope", "an empty name" = "", "NA name" = NA_character_,
       "two names" = c("id", "arg"), "a number" = 1, "a name with a quote" = "va\"lue",
       "the value column" = "value", "the id column" = "id", "the x column" = "x",
       "the person column" = "person")
}

# n cases from a fixed seed: each an expression for the child.
fuzz_table_cases <- function(n, seed, defs) {
  frames <- fuzz_table_frames()
  calls <- fuzz_table_calls()
  # ("long vector", as in fuzz_table_source_cases(): a synthetic set of 1e5 points makes the table's
  # kernel sums slow, not wrong; seed 58 ran summarise_kme() on SQLite past the child's time limit)
  pool <- c(fuzz_column_values(), fuzz_values(defs)[setdiff(names(fuzz_values(defs)), "long vector")])
  colpool <- fuzz_column_values()
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  column_args <- c("id", "arg", "value", "columns", "unit")
  cases <- vector("list", n)
  for (i in seq_len(n)) {
    fr <- sample(names(frames), 1L)
    cl <- sample(names(calls), 1L)
    src <- sample(c("sqlite", "sqlite", "frame", "chunks"), 1L)
    args <- calls[[cl]]
    k <- sample(0:2, 1L, prob = c(0.4, 0.45, 0.15))
    what <- character()
    if (k > 0L) {
      for (a in sample(names(args), min(k, length(args)))) {
        # column arguments mostly get column-name trouble; the others anything in the pool
        p <- if (a %in% column_args && stats::runif(1) < 0.7) colpool else pool
        v <- sample(names(p), 1L)
        args[a] <- list(p[[v]])
        what <- c(what, paste(a, "=", v))
      }
    }
    fun <- sub(" .*", "", cl)
    cases[[i]] <- list(label = sprintf("%s(<%s as %s>%s)", cl, fr, src,
                                       if (length(what)) paste0(", ", paste(what, collapse = ", ")) else ""),
                       expr = fuzz_table_expr(fun, frames[[fr]], src, args))
  }
  cases
}

# The same calls, unchanged, on each source of one frame (in memory, chunks,
# SQLite): n pairs of (call, frame), three cases each, their numbers kept for
# the parent to compare (the same outcome, the same release under
# dp_reproducible()).
fuzz_table_source_cases <- function(n, seed, defs = NULL) {
  frames <- fuzz_table_frames()
  calls <- fuzz_table_calls()
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  pairs <- expand.grid(call = names(calls), frame = names(frames), stringsAsFactors = FALSE)
  pairs <- pairs[sample(nrow(pairs), min(n, nrow(pairs))), ]
  # with `defs` (bad_arg_definitions()): one argument of each call replaced by a bad value, the same on
  # every source (the outcome must still agree)
  # ("long vector": a synthetic set of 1e5 points makes the table's kernel sums slow, not wrong)
  pool <- if (!is.null(defs)) c(fuzz_column_values(), fuzz_values(defs)[setdiff(names(fuzz_values(defs)), "long vector")])
  cases <- list()
  for (i in seq_len(nrow(pairs))) {
    args <- calls[[pairs$call[i]]]
    what <- ""
    if (!is.null(pool)) {
      a <- sample(names(args), 1L)
      v <- sample(names(pool), 1L)
      args[a] <- list(pool[[v]])
      what <- sprintf(" (%s = %s)", a, v)
    }
    for (src in fuzz_table_sources()) {
      cases[[length(cases) + 1L]] <- list(
        label = sprintf("%s%s | %s | %s", pairs$call[i], what, pairs$frame[i], src), keep = TRUE,
        expr = fuzz_table_expr(sub(" .*", "", pairs$call[i]), frames[[pairs$frame[i]]], src, args))
    }
  }
  cases
}

# The sources compared: PostgreSQL too where a test server is given
# (tools/pg-test.sh) and RPostgres is installed.
fuzz_table_sources <- function() {
  c("frame", "chunks", "sqlite",
    if (nzchar(Sys.getenv("DPFDA_PG_HOST")) && requireNamespace("RPostgres", quietly = TRUE)) "postgres")
}

# The expression of one case: the source built in the child, then the call
# under dp_reproducible(); its value the numbers of the result (a summary's
# sums and counts, a release's values, an FPCA's eigenvalues and functions).
fuzz_table_expr <- function(fun, df, src, args) {
  bquote((function() {
    df <- .(df)
    x <- switch(.(src),
      frame = df,
      chunks = dp_chunks(split(df, ceiling(seq_len(nrow(df)) / 7))),
      sqlite = {
        con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
        on.exit(DBI::dbDisconnect(con))
        DBI::dbWriteTable(con, "t", df)
        dplyr::tbl(con, "t")
      },
      postgres = {   # (the test server of tools/pg-test.sh; a temporary table, gone with the connection)
        con <- DBI::dbConnect(RPostgres::Postgres(), host = Sys.getenv("DPFDA_PG_HOST"),
                              port = Sys.getenv("DPFDA_PG_PORT"), user = Sys.getenv("DPFDA_PG_USER"),
                              dbname = Sys.getenv("DPFDA_PG_DBNAME"))
        on.exit(DBI::dbDisconnect(con))
        DBI::dbWriteTable(con, "t", df, temporary = TRUE)
        dplyr::tbl(con, "t")
      })
    old <- dp_reproducible(11)
    on.exit(dp_rng(old), add = TRUE)
    v <- do.call(.(fun), c(list(x), .(args)))
    if (inherits(v, "dpfda_summary")) return(c(v$sums, v$n, v$rows, v$dropped))
    if (inherits(v, "dpfda_kme_release")) return(c(as.double(v$values$values), as.double(v$points)))
    if (inherits(v, "dpfda_bandwidth")) return(c(v$bandwidth, v$n))
    if (is.list(v$values)) return(as.double(v$values$values))
    c(v$values, v$harmonics$values)   # (dp_fpca(): eigenvalues and eigenfunctions)
  })())
}

# The cases of one (call, data) pair (`key`) on every source agree: one
# outcome (`out`) among those not `excluded`, and where they succeed, the
# same numbers to 1e-9. `lab`: the cases' labels (their last word the source).
expect_sources_agree <- function(run, lab, key, out, excluded) {
  msg <- vapply(run$results, function(r) r$message %||% "", "")
  for (k in unique(key)) {
    i <- which(key == k & !excluded)
    testthat::expect(length(unique(out[i])) <= 1L,
                     sprintf("%s: %s", k, paste(sprintf("%s %s (%s)", sub(".* ", "", lab[i]), out[i], msg[i]),
                                                collapse = "; ")))
    ok <- i[out[i] == "ok"]
    for (j in ok[-1L]) {
      testthat::expect_equal(run$results[[j]]$value, run$results[[ok[1L]]]$value, tolerance = 1e-9, info = lab[j])
    }
  }
}
