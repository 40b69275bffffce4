# Engine summaries on every engine (helper-engines.R: SQLite, PostgreSQL
# under make test, DuckDB where installed): plain doubles whatever the
# engine's types (PostgreSQL counts are bigint), empty tables and chunks as a
# classed error, integer-valued data to 1e-9 (exact SQL literals), column
# types and schemas.

types_data <- function() {
  old <- dp_reproducible(5)
  on.exit(dp_rng(old))
  t <- seq(0, 1, length.out = 11)
  long <- data.frame(patient = rep(1:6, each = 11), day = rep(t, 6), score = rnorm(66))
  long <- long[-c(3, 17), ]                                        # two missing cells
  pts <- data.frame(a = runif(200), b = runif(200), resp = rnorm(200), who = rep(1:40, 5))
  md <- data.frame(age = rep(0:20, 2), deaths = c(1:21, 21:1), region = rep(c("a", "b"), each = 21))
  list(t = t, long = long, pts = pts, md = md, z = cbind(c(0.2, 0.5, 0.8), c(0.3, 0.6, 0.1)))
}

# Every summary of `tb` (long data), `tp` (points) and `tm` (deaths), with the
# same settings in memory and in the engine.
types_summaries <- function(tb, tp, tm, d, points = TRUE) {
  k <- kernel_gaussian(0.5)
  rff <- with_seed_mode(2, kme_rff(k, 8, 2))
  c(list(mean = summarise_mean(tb, d$t, 1, id = "patient", arg = "day", value = "score"),
         cov = summarise_cov(tb, d$t, 1, kernel_matern(3 / 2, 0.3), 3, "patient", "day", "score")),
    if (points) types_point_summaries(tp, d, k, rff),
    list(mortality = summarise_mortality(tm, group = "region"),
         binreg = summarise_bin_regression(tp, "resp", c(4, 3), c(-2, 2), rbind(c(0, 0), c(1, 1)), c("a", "b"))))
}

# (`only`: the name of one summary, computed alone)
types_point_summaries <- function(tp, d, k = kernel_gaussian(0.5), rff = with_seed_mode(2, kme_rff(k, 8, 2)),
                                  only = NULL) {
  f <- list(kde = function() summarise_kde(tp, d$t, 0.1, bins = 200, columns = "a"),
            kde_id = function() summarise_kde(tp, d$t, 0.1, bins = 200, columns = "a", id = "who"),
            kde_grid = function() summarise_kde(tp, d$t, columns = "a", mechanism = "iclp"),
            kde_kernel = function() summarise_kde(tp, list(d$t, d$t), 0.3, columns = c("a", "b")),
            kme = function() summarise_kme(tp, k, synthetic = d$z, columns = c("a", "b")),
            kme_rff = function() summarise_kme(tp, k, "random_features", rff = rff, columns = c("a", "b")))
  if (!is.null(only)) return(f[[only]]())
  lapply(f, function(g) g())
}

expect_plain_doubles <- function(s, info) {
  for (f in intersect(names(s), c("sums", "n", "rows", "dropped", "missing_cells", "missing_y"))) {
    v <- s[[f]]
    expect_identical(typeof(v), "double", info = paste(info, f))
    expect_null(oldClass(v), info = paste(info, f))
    expect_length(setdiff(names(attributes(v)), c("dim", "dimnames", "names")), 0L)
  }
}

test_engines("every number of every summary is a plain double, equal to memory", function(con) {
  d <- types_data()
  DBI::dbWriteTable(con, "long", d$long, overwrite = TRUE)
  DBI::dbWriteTable(con, "pts", d$pts, overwrite = TRUE)
  DBI::dbWriteTable(con, "md", d$md, overwrite = TRUE)
  se <- types_summaries(dplyr::tbl(con, "long"), dplyr::tbl(con, "pts"), dplyr::tbl(con, "md"), d)
  sm <- types_summaries(d$long, d$pts, d$md, d)
  for (nm in names(se)) {
    expect_plain_doubles(se[[nm]], nm)
    expect_equal(se[[nm]]$sums, sm[[nm]]$sums, tolerance = 1e-9, info = nm)
    expect_equal(se[[nm]]$n, sm[[nm]]$n, info = nm)
  }
  # what bit64 would otherwise hide: cat(), unclass() and saveRDS() see 2, not 9.9e-324
  expect_identical(unclass(se$mean$missing_cells), 2)
  expect_identical(capture.output(cat(se$mean$missing_cells)), "2")
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f))
  saveRDS(se$mean, f)
  expect_identical(unclass(readRDS(f)$missing_cells), 2)
  expect_identical(se$cov$missing_cells, 2)
})

test_engines("an empty table is a classed error saying it has no rows, for every summary", function(con) {
  d <- types_data()
  DBI::dbWriteTable(con, "long0", d$long[0, ], overwrite = TRUE)
  DBI::dbWriteTable(con, "pts0", d$pts[0, ], overwrite = TRUE)
  DBI::dbWriteTable(con, "md0", d$md[0, ], overwrite = TRUE)
  tb <- dplyr::tbl(con, "long0")
  tp <- dplyr::tbl(con, "pts0")
  tm <- dplyr::tbl(con, "md0")
  k <- kernel_gaussian(0.5)
  calls <- list(
    quote(summarise_mean(tb, d$t, 1, id = "patient", arg = "day", value = "score")),
    quote(summarise_cov(tb, d$t, 1, kernel_matern(3 / 2, 0.3), 3, "patient", "day", "score")),
    quote(summarise_kde(tp, d$t, 0.1, columns = "a")),
    quote(summarise_kde(tp, d$t, 0.1, columns = "a", id = "who")),
    quote(summarise_kde(tp, d$t, columns = "a", mechanism = "frl")),
    quote(summarise_kde(tp, list(d$t, d$t), 0.3, columns = c("a", "b"))),
    quote(summarise_kme(tp, k, synthetic = d$z, columns = c("a", "b"))),
    quote(summarise_kme(tp, k, "random_features", rff = with_seed_mode(2, kme_rff(k, 8, 2)), columns = c("a", "b"))),
    quote(summarise_mortality(tm, group = "region")),
    quote(summarise_bin_regression(tp, "resp", c(4, 3), c(-2, 2), rbind(c(0, 0), c(1, 1)), c("a", "b"))),
    quote(dp_mean(tb, epsilon = 1, tau = 1, grid = d$t, id = "patient", arg = "day", value = "score")),
    quote(dp_kde(tp, d$t, 0.1, epsilon = 1, delta = 1e-3, columns = "a")),
    quote(dp_kme(tp, k, 1, 1e-5, synthetic = d$z, columns = c("a", "b"))),
    quote(mortality_distribution(tm, group = "region")))
  for (cl in calls) {
    e <- tryCatch(eval(cl), error = function(e) e)
    expect_s3_class(e, "dpfda_error_data")
    expect_match(conditionMessage(e), "has no rows", fixed = TRUE, info = deparse(cl)[1L])
  }
})

test_that("an empty data frame or chunk source is a classed error saying it has no rows", {
  d <- types_data()
  k <- kernel_gaussian(0.5)
  for (x in list(d$long[0, ], dp_chunks(list(d$long[0, ])))) {
    expect_error(summarise_mean(x, d$t, 1, id = "patient", arg = "day", value = "score"), "no rows",
                 class = "dpfda_error_data")
    expect_error(summarise_cov(x, d$t, 1, kernel_matern(3 / 2, 0.3), 3, "patient", "day", "score"), "no rows",
                 class = "dpfda_error_data")
  }
  # (a function source is read by one call: a new one for each)
  for (mk in list(function() d$pts[0, ], function() dp_chunks(list(d$pts[0, ])), function() dp_chunks(function() NULL))) {
    expect_error(summarise_kde(mk(), d$t, 0.1, columns = "a"), "no rows", class = "dpfda_error_data")
    expect_error(summarise_kde(mk(), d$t, columns = "a", mechanism = "iclp"), "no rows", class = "dpfda_error_data")
    expect_error(summarise_kme(mk(), k, synthetic = d$z, columns = c("a", "b")), "no rows", class = "dpfda_error_data")
    expect_error(summarise_bin_regression(mk(), "resp", c(4, 3), c(-2, 2), rbind(c(0, 0), c(1, 1)), c("a", "b")),
                 "no rows", class = "dpfda_error_data")
  }
  expect_error(summarise_mortality(d$md[0, ], group = "region"), "no rows", class = "dpfda_error_data")
})

test_engines("integer-valued data (ages) agree with memory to 1e-9: exact SQL literals", function(con) {
  old <- dp_reproducible(9)
  on.exit(dp_rng(old))
  ages <- sample(0:100, 1e5, replace = TRUE)
  DBI::dbWriteTable(con, "ages", data.frame(age = ages, agei = as.integer(ages)), overwrite = TRUE)
  ta <- dplyr::tbl(con, "ages")
  g <- seq(0, 100, length.out = 31)      # a step of 10/3: not a 15-digit number
  for (col in c("age", "agei")) {
    expect_equal(summarise_kde(ta, g, 2, columns = col)$sums, summarise_kde(ages, g, 2)$sums, tolerance = 1e-9,
                 info = col)
    expect_equal(summarise_kde(ta, g, columns = col, mechanism = "iclp")$sums,
                 summarise_kde(ages, g, mechanism = "iclp")$sums, tolerance = 1e-9, info = col)
  }
})

test_that("double constants in the engine's SQL are written to round-trip exactly", {
  skip_if_not_installed("dbplyr", "2.5.0")
  t <- dbplyr::tbl_lazy(data.frame(x = 1, y = 2), con = dbplyr::simulate_postgres())
  g <- seq(0, 100, length.out = 31)
  delta <- 100 / 4095                                  # the bin width of 4096 bins on [0, 100]
  q <- engine_sql(t, "kde", grid = g, bandwidth = 2, columns = "x", bins = 4096)
  expect_match(q, sprintf("%.17g", delta), fixed = TRUE)
  q <- engine_sql(t, "kde", grid = g, columns = "x", mechanism = "iclp")
  expect_match(q, sprintf("%.17g", 10 / 3), fixed = TRUE)
  q <- engine_sql(t, "kme_kernel", kernel = kernel_gaussian(0.3), synthetic = cbind(1 / 3, 2 / 3),
                  domain = c(0, 1 / 7), columns = c("x", "y"))
  expect_match(q, sprintf("%.17g", 1 / 7), fixed = TRUE)
  expect_match(q, sprintf("%.17g", (1 / 3) / 0.3), fixed = TRUE)   # the public point, scaled
})

test_engines("integer, bigint, numeric and real columns; tables in another schema", function(con) {
  d <- types_data()
  p <- d$pts
  is_sqlite <- inherits(con, "SQLiteConnection")
  DBI::dbWriteTable(con, "pts", p, overwrite = TRUE)
  # the same values in other column types (where the engine has them)
  types <- if (is_sqlite) c("INTEGER", "REAL", "NUMERIC") else c("INTEGER", "BIGINT", "REAL", "NUMERIC(12, 6)",
                                                                "DOUBLE PRECISION")
  pr <- p
  pr$a <- round(p$a * 1e3)        # integer-valued, so every type holds it exactly
  pr$b <- round(p$b * 1e3)
  DBI::dbWriteTable(con, "ptsr", pr, overwrite = TRUE)
  dom <- rbind(c(0, 0), c(1000, 1000))
  g <- seq(0, 1000, length.out = 11)
  ref_kde <- summarise_kde(pr$a, g, 50, bins = 300)$sums
  ref_br <- summarise_bin_regression(pr, "resp", c(4, 3), c(-2, 2), dom, c("a", "b"))$sums
  for (ty in types) {
    tn <- paste0("pts_", gsub("[^a-z]", "", tolower(ty)))
    DBI::dbExecute(con, sprintf("CREATE TABLE %s (a %s, b %s, resp DOUBLE PRECISION, who INTEGER)", tn, ty, ty))
    DBI::dbExecute(con, sprintf("INSERT INTO %s SELECT a, b, resp, who FROM ptsr", tn))
    tt <- dplyr::tbl(con, tn)
    expect_equal(summarise_kde(tt, g, 50, bins = 300, columns = "a")$sums, ref_kde, tolerance = 1e-9, info = ty)
    expect_equal(summarise_bin_regression(tt, "resp", c(4, 3), c(-2, 2), dom, c("a", "b"))$sums, ref_br,
                 tolerance = 1e-9, info = ty)
    sk <- summarise_kme(tt, kernel_gaussian(300), synthetic = cbind(c(100, 500), c(900, 400)), columns = c("a", "b"))
    expect_equal(sk$sums, summarise_kme(cbind(pr$a, pr$b), kernel_gaussian(300),
                                        synthetic = cbind(c(100, 500), c(900, 400)))$sums, tolerance = 1e-9, info = ty)
    expect_plain_doubles(sk, ty)
  }
  # a table in another schema (an attached database in SQLite)
  if (is_sqlite) {
    DBI::dbExecute(con, "ATTACH DATABASE ':memory:' AS other")
  } else {
    DBI::dbExecute(con, "CREATE SCHEMA other")
    on.exit(try(DBI::dbExecute(con, "DROP SCHEMA other CASCADE"), silent = TRUE), add = TRUE)
  }
  DBI::dbWriteTable(con, DBI::Id(schema = "other", table = "pts"), p)
  # (duckdb's own tbl() method hands `from` to DBI::dbExistsTable(), which refuses in_schema(); DBI::Id() is
  # the same table)
  to <- dplyr::tbl(con, if (inherits(con, "duckdb_connection")) DBI::Id(schema = "other", table = "pts") else
    dbplyr::in_schema("other", "pts"))
  expect_equal(summarise_kde(to, d$t, 0.1, bins = 200, columns = "a")$sums,
               summarise_kde(p$a, d$t, 0.1, bins = 200)$sums, tolerance = 1e-9)
  expect_equal(summarise_kme(to, kernel_gaussian(0.5), synthetic = d$z, columns = c("a", "b"))$sums,
               summarise_kme(cbind(p$a, p$b), kernel_gaussian(0.5), synthetic = d$z)$sums, tolerance = 1e-9)
})

test_engines("awkward column names (reserved words, spaces, quotes, case) in the SQL dpfda writes", function(con) {
  # the inner queries are written as text (R/engine-sql.R): every name must be quoted by the connection
  d <- types_data()
  long <- stats::setNames(d$long, c("select", "my day", "Sc\"ore"))
  long$`Unit x` <- long$select %% 3
  pts <- stats::setNames(d$pts, c("from", "b b", "resp", "Who"))
  DBI::dbWriteTable(con, "odd long", long, overwrite = TRUE)
  DBI::dbWriteTable(con, "odd_pts", pts, overwrite = TRUE)
  k <- kernel_gaussian(0.5)
  each <- function(tb, tp) {
    list(mean = summarise_mean(tb, d$t, 1, id = "select", arg = "my day", value = "Sc\"ore"),
         mean_sup = summarise_mean(tb, d$t, 1, clip = "sup", id = "select", arg = "my day", value = "Sc\"ore",
                                   center = rep(0.1, 11)),
         mean_unit = summarise_mean(tb, d$t, 1, id = "select", arg = "my day", value = "Sc\"ore", unit = "Unit x"),
         cov = summarise_cov(tb, d$t, 1, kernel_matern(3 / 2, 0.3), 3, "select", "my day", "Sc\"ore"),
         cov_unit = summarise_cov(tb, d$t, 1, kernel_matern(3 / 2, 0.3), 3, "select", "my day", "Sc\"ore",
                                  unit = "Unit x"),
         kde_id = summarise_kde(tp, d$t, 0.1, bins = 200, columns = "from", id = "Who"),
         kde_grid = summarise_kde(tp, d$t, columns = "from", mechanism = "iclp", id = "Who"),
         kde_2d = summarise_kde(tp, list(d$t, c(0, 0.3, 1)), columns = c("from", "b b"), mechanism = "frl"),
         kme = summarise_kme(tp, k, synthetic = d$z, columns = c("from", "b b"), id = "Who"))
  }
  se <- each(dplyr::tbl(con, "odd long"), dplyr::tbl(con, "odd_pts"))
  sm <- each(long, pts)
  for (nm in names(se)) {
    expect_equal(se[[nm]]$sums, sm[[nm]]$sums, tolerance = 1e-9, info = nm)
    expect_equal(se[[nm]]$n, sm[[nm]]$n, info = nm)
  }
})

test_engines("a user's query with a line break inside a string keeps its meaning under the SQL dpfda writes", function(con) {
  # engine_sql() indents the nested queries for reading; inside a quoted string that would change it
  d <- types_data()
  long <- d$long
  long$site <- ifelse(long$patient %% 2 == 0, "a\nb", "a")
  DBI::dbWriteTable(con, "sites", long, overwrite = TRUE)
  tb <- dplyr::filter(dplyr::tbl(con, "sites"), site == "a\nb")
  se <- summarise_mean(tb, d$t, 1, id = "patient", arg = "day", value = "score")
  sm <- summarise_mean(long[long$site == "a\nb", ], d$t, 1, id = "patient", arg = "day", value = "score")
  expect_equal(se$n, 3)
  expect_equal(se$sums, sm$sums, tolerance = 1e-9)
  expect_match(engine_sql(tb, "mean", grid = d$t, tau = 1, id = "patient", arg = "day", value = "score"),
               "'a\nb'", fixed = TRUE)
  expect_true(dpfda:::sq_breaks_in_quotes("SELECT * FROM t WHERE x = 'a\nb'"))
  expect_false(dpfda:::sq_breaks_in_quotes("SELECT *\nFROM t WHERE x = 'a''b'"))
})

test_engines("non-finite values (Inf, -Inf, NaN) are dropped (curves) or refused (points) as in memory; bin regression clamps Inf as in memory", function(con) {
  # memory drops a row with a non-finite value in a used column (frame_clean()), a table held them
  # (SQLite's Inf, PostgreSQL's 'Infinity' and 'NaN') and clamped them: found by the table fuzzer
  d <- types_data()
  d$long$score[c(4, 20)] <- c(Inf, -Inf)
  d$long$day[30] <- Inf
  d$long$score[40] <- NaN
  d$pts$a[c(3, 50)] <- c(Inf, -Inf)
  d$pts$b[7] <- NaN
  d$pts$resp[c(9, 11)] <- c(Inf, NaN)
  d$md$deaths[5] <- Inf
  DBI::dbWriteTable(con, "long", d$long, overwrite = TRUE)
  DBI::dbWriteTable(con, "pts", d$pts, overwrite = TRUE)
  DBI::dbWriteTable(con, "md", d$md, overwrite = TRUE)
  if (dpfda:::is_postgres(con)) {   # (a NaN is written as NULL: make it a real NaN there)
    DBI::dbExecute(con, sprintf("UPDATE long SET score = 'NaN' WHERE patient = %d AND ABS(day - %.17g) < 1e-12",
                                d$long$patient[40], d$long$day[40]))
    DBI::dbExecute(con, sprintf("UPDATE pts SET b = 'NaN' WHERE ABS(a - %.17g) < 1e-12", d$pts$a[7]))
    DBI::dbExecute(con, sprintf("UPDATE pts SET resp = 'NaN' WHERE ABS(a - %.17g) < 1e-12", d$pts$a[11]))
    expect_equal(dpfda:::plain_number(DBI::dbGetQuery(con, "SELECT COUNT(*) AS n FROM pts WHERE b = 'NaN' OR resp = 'NaN'")$n, 0), 2)
  }
  se <- suppressWarnings(types_summaries(dplyr::tbl(con, "long"), dplyr::tbl(con, "pts"), dplyr::tbl(con, "md"), d,
                                         points = FALSE))
  sm <- suppressWarnings(types_summaries(d$long, d$pts, d$md, d, points = FALSE))
  # points: a row with a non-finite value is refused on both sources (each summary reads `a`, or `a` and `b`)
  for (src in list(dplyr::tbl(con, "pts"), d$pts)) {
    for (one in c("kde", "kde_id", "kde_grid", "kde_kernel", "kme", "kme_rff")) {
      expect_error(types_point_summaries(src, d, only = one), "rows read from `x`", class = "dpfda_error_data",
                   info = one)
    }
  }
  for (nm in names(se)) {
    expect_equal(se[[nm]]$sums, sm[[nm]]$sums, tolerance = 1e-9, info = nm)
    expect_equal(se[[nm]]$n, sm[[nm]]$n, info = nm)
    expect_equal(se[[nm]]$dropped, sm[[nm]]$dropped, info = nm)
    expect_equal(se[[nm]]$missing_y, sm[[nm]]$missing_y, info = nm)
    expect_true(all(is.finite(se[[nm]]$sums)), info = nm)
  }
  expect_equal(se$mean$dropped, 4)   # the Inf, -Inf, Inf argument and NaN rows
  expect_equal(se$mortality$dropped, 1)
  expect_equal(se$binreg$dropped, 1)    # (the NaN input; Inf inputs clamped, a NaN output at the midpoint)
  expect_warning(summarise_mean(dplyr::tbl(con, "long"), d$t, 1, id = "patient", arg = "day", value = "score"),
                 "4 rows with a missing or non-finite value", class = "dpfda_warning_data")
  # and a release: the same under dp_reproducible()
  r <- lapply(list(dplyr::tbl(con, "long"), d$long), function(x) {
    old <- dp_reproducible(8)
    on.exit(dp_rng(old))
    suppressWarnings(dp_mean(x, 1, 2, grid = d$t, id = "patient", arg = "day", value = "score", incomplete = "drop"))
  })
  expect_equal(r[[1]]$values$values, r[[2]]$values$values, tolerance = 1e-9)
})

test_engines("a density on a one-point grid without a domain is refused on every source; with a domain it agrees", function(con) {
  # (PostgreSQL divided by zero, unclassed; SQLite, memory and chunks gave three different answers or
  # errors: the table fuzzer)
  set.seed(12)
  d <- data.frame(x = runif(40))
  DBI::dbWriteTable(con, "one_pt", d, overwrite = TRUE)
  srcs <- list(table = dplyr::tbl(con, "one_pt"), frame = d, chunks = dp_chunks(split(d, rep(1:2, 20))))
  for (nm in names(srcs)) {
    expect_error(summarise_kde(srcs[[nm]], 0.5, 0.2, columns = "x"), class = "dpfda_error_argument",
                 regexp = "zero length", info = nm)
    expect_error(summarise_kde(srcs[[nm]], 0.5, columns = "x", mechanism = "iclp"), class = "dpfda_error_argument",
                 regexp = "zero length", info = nm)
  }
  expect_error(dp_kde(srcs$table, 0.5, 0.2, 1, 1e-5, columns = "x"), class = "dpfda_error_argument", regexp = "zero length")
  expect_error(dp_kde(d, 0.5, 0.2, 1, 1e-5), class = "dpfda_error_argument", regexp = "zero length")
  expect_error(dp_kde(d, 0.5, 0.2, 1, mechanism = "iclp"), class = "dpfda_error_argument", regexp = "zero length")
  se <- summarise_kde(dplyr::tbl(con, "one_pt"), 0.5, 0.2, domain = c(0, 1), columns = "x")
  sm <- summarise_kde(d, 0.5, 0.2, domain = c(0, 1), columns = "x")
  expect_equal(se$sums, sm$sums, tolerance = 1e-9)
  # `binned` is checked on every source (it is used in memory only)
  expect_error(dp_kde(dplyr::tbl(con, "one_pt"), seq(0, 1, 0.1), 0.2, 1, 1e-5, binned = "yes", columns = "x"),
               class = "dpfda_error_argument", regexp = "binned")
})

test_engines("a bound near the limits of double precision: a result or a classed error, never the database's own", function(con) {
  # PostgreSQL raises "value out of range: underflow" where a product underflows to 0 (tau = 1e-300:
  # the sums of products of the clipped coefficients); R and SQLite give 0
  d <- types_data()
  DBI::dbWriteTable(con, "long", d$long, overwrite = TRUE)
  tb <- dplyr::tbl(con, "long")
  r <- tryCatch(summarise_cov(tb, d$t, 1e-300, kernel_matern(3 / 2, 0.3), 3, "patient", "day", "score"),
                dpfda_error_numeric = function(e) e)
  if (inherits(r, "dpfda_error")) {
    expect_match(conditionMessage(r), "Rescale the data")
  } else {
    expect_equal(r$sums, summarise_cov(d$long, d$t, 1e-300, kernel_matern(3 / 2, 0.3), 3, "patient", "day", "score")$sums)
  }
  if (dpfda:::is_postgres(con)) expect_s3_class(r, "dpfda_error_numeric")
})

test_that("SQLite: text in a numeric column is missing (refused for points), not a point at the top of the domain", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  set.seed(8)
  x <- stats::runif(200)
  DBI::dbWriteTable(con, "d", data.frame(x = x))
  DBI::dbWriteTable(con, "d0", data.frame(x = x))
  DBI::dbExecute(con, "INSERT INTO d VALUES ('abc'), ('abc'), ('abc'), (X'0102'), ('abc')")
  t <- dplyr::tbl(con, "d")
  g <- seq(0, 1, length.out = 51)
  # the 5 text and blob values are missing values (refused, as a NULL), not points clamped to the top
  expect_error(with_seed_mode(4, dp_kde(t, g, 0.1, 1, 1e-6, columns = "x", domain = c(0, 1))),
               "^5 of the 205 rows", class = "dpfda_error_data")
  expect_error(summarise_kde(t, grid = g, bandwidth = 0.1, columns = "x", domain = c(0, 1)), "^5 of the 205 rows",
               class = "dpfda_error_data")
  r <- with_seed_mode(4, dp_kde(dplyr::tbl(con, "d0"), g, 0.1, 1, 1e-6, columns = "x", domain = c(0, 1)))
  expect_equal(r$n, 200)
  m <- with_seed_mode(4, dp_kde(x, g, 0.1, 1, 1e-6, domain = c(0, 1)))
  expect_equal(r$values$values, m$values$values, tolerance = 1e-6)   # (the engine bins finely)
})
