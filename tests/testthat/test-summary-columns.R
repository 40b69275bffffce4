# Column arguments of the exported summarise_*() functions: strings or bare
# names (the rule of ?as_curves), on data frames, chunks and database tables,
# giving the same summaries; dpfda's own calls never re-read a resolved name
# as a bare name (a data frame with both an "id" and a "patient" column).

col_data <- function() {
  old <- dp_reproducible(31)
  on.exit(dp_rng(old))
  t <- seq(0, 1, length.out = 11)
  long <- data.frame(patient = rep(1:30, each = 11), day = rep(t, 30),
                     score = as.vector(outer(t, runif(30, 0.5, 2), function(a, b) b * sin(2 * pi * a))))
  long$id <- rep(1:2, length.out = nrow(long))      # a decoy column named like the argument
  long$arg <- 0
  long$value <- 99
  pts <- data.frame(u = runif(200), v = runif(200), id = rep(1:2, 100))
  pts$resp <- sin(3 * pts$u) + pts$v
  md <- data.frame(age = rep(0:20, 2), deaths = c(exp(-(0:20) / 5) * 100, (0:20) + 1),
                   region = rep(c("a", "b"), each = 21), group = "decoy")
  list(t = t, long = long, pts = pts, md = md)
}

test_that("summarise_mean() and summarise_cov(): bare names equal strings (data frame, chunks)", {
  d <- col_data()
  ref <- summarise_mean(d$long, d$t, 1, id = "patient", arg = "day", value = "score")
  expect_identical(ref$n, 30)
  expect_equal(summarise_mean(d$long, d$t, 1, id = patient, arg = day, value = score)$sums, ref$sums)
  idc <- "patient"
  expect_equal(summarise_mean(d$long, d$t, 1, id = idc, arg = day, value = score)$sums, ref$sums)
  ch <- dp_chunks(list(d$long[1:150, ], d$long[-(1:150), ]))
  s_ch <- summarise_mean(ch, d$t, 1, id = patient, arg = day, value = score)
  expect_equal(s_ch$sums, ref$sums, tolerance = 1e-12)
  expect_identical(s_ch$n, 30)                 # patients, not the decoy column's 2 values
  k <- kernel_exponential(0.3)
  cref <- summarise_cov(d$long, d$t, 1, kernel = k, J = 4, id = "patient", arg = "day", value = "score")
  expect_equal(summarise_cov(d$long, d$t, 1, kernel = k, J = 4, id = patient, arg = day, value = score)$sums,
               cref$sums)
  ch <- dp_chunks(list(d$long[1:150, ], d$long[-(1:150), ]))    # (chunks are read once)
  expect_equal(summarise_cov(ch, d$t, 1, kernel = k, J = 4, id = patient, arg = day, value = score)$sums,
               cref$sums, tolerance = 1e-12)
  e <- expect_error(summarise_mean(d$long, d$t, 1, id = nope, arg = day, value = score),
                    class = "dpfda_error_argument")
  expect_identical(e$arg, "id")
  expect_match(conditionMessage(e), "nope")
})

test_that("summarise_kde(), summarise_kme(), summarise_mortality(), summarise_bin_regression(): bare names", {
  d <- col_data()
  g <- seq(0, 1, length.out = 11)
  expect_equal(summarise_kde(d$pts, g, 0.1, columns = u, bins = 200)$sums,
               summarise_kde(d$pts, g, 0.1, columns = "u", bins = 200)$sums)
  ps <- d$pts[order(d$pts$id), ]           # chunks come sorted by id
  s_id <- summarise_kde(dp_chunks(list(ps[1:90, ], ps[-(1:90), ])), g, 0.1, columns = u, id = id, bins = 200)
  expect_identical(s_id$n, 2)                  # id = the column "id" (a bare name that is a column)
  z <- matrix(runif(10), ncol = 2)
  kg <- kernel_gaussian(0.5)
  expect_equal(summarise_kme(d$pts, kg, synthetic = z, columns = c(u, v))$sums,
               summarise_kme(d$pts, kg, synthetic = z, columns = c("u", "v"))$sums)
  expect_equal(summarise_kme(dp_chunks(list(d$pts)), kg, synthetic = z, columns = c(u, "v"))$sums,
               summarise_kme(d$pts, kg, synthetic = z, columns = c("u", "v"))$sums, tolerance = 1e-12)
  mref <- summarise_mortality(d$md, age = "age", deaths = "deaths", group = "region")
  expect_equal(summarise_mortality(d$md, age = age, deaths = deaths, group = region)$sums, mref$sums)
  expect_equal(summarise_mortality(dp_chunks(list(d$md[1:20, ], d$md[-(1:20), ])), age = age, deaths = deaths,
                                   group = region)$sums, mref$sums, tolerance = 1e-12)
  dom <- rbind(c(0, 0), c(1, 1))
  bref <- summarise_bin_regression(d$pts, "resp", c(3, 2), c(-1, 3), dom, columns = c("u", "v"))
  expect_equal(summarise_bin_regression(d$pts, resp, c(3, 2), c(-1, 3), dom, columns = c(u, v))$sums, bref$sums)
  expect_equal(summarise_bin_regression(dp_chunks(list(d$pts)), resp, c(3, 2), c(-1, 3), dom,
                                        columns = c(u, v))$sums, bref$sums, tolerance = 1e-12)
  # in memory without a data frame, y stays a vector of responses
  expect_equal(summarise_bin_regression(cbind(d$pts$u, d$pts$v), d$pts$resp, c(3, 2), c(-1, 3), dom)$sums,
               bref$sums, tolerance = 1e-12)
})

test_engines("bare names in summarise_*() on a table and in engine_sql()", function(con) {
  d <- col_data()
  DBI::dbWriteTable(con, "long", d$long)
  tb <- dplyr::tbl(con, "long")
  ref <- summarise_mean(d$long, d$t, 1, id = "patient", arg = "day", value = "score")
  s <- summarise_mean(tb, d$t, 1, id = patient, arg = day, value = score)
  expect_equal(s$sums, ref$sums, tolerance = 1e-9)
  expect_identical(s$n, 30)
  expect_identical(engine_sql(tb, "mean", grid = d$t, tau = 1, id = patient, arg = day, value = score),
                   engine_sql(tb, "mean", grid = d$t, tau = 1, id = "patient", arg = "day", value = "score"))
})

test_that("a release from a summary takes the tau and centre the summary recorded; others are refused", {
  g <- seq(0, 1, length.out = 93)
  s <- summarise_mean(dti_cca, grid = g, tau = 0.2, unit = id, incomplete = "drop", center = 0.5)
  expect_output(print(s), "142 units of \"id\" \\(382 curves\\) from 34,968 values")
  given <- with_seed_mode(2, dp_mean(s, epsilon = 1, tau = 0.2, center = rep(0.5, 93), incomplete = "drop"))
  taken <- with_seed_mode(2, dp_mean(s, epsilon = 1, incomplete = "drop"))
  expect_identical(taken$values, given$values)
  expect_equal(taken$tau, 0.2)
  expect_error(dp_mean(s, epsilon = 1, tau = 0.3), "clipped with l2, tau = 0.2")
  expect_error(dp_mean(s, epsilon = 1, center = 0.4), class = "dpfda_error")
  x <- curves(dti_cca$cca[stats::complete.cases(dti_cca$cca), ], g)
  sc <- summarise_cov(x, tau = 0.2, J = 4, center = 0.5)
  c1 <- suppressWarnings(with_seed_mode(4, dp_cov(sc, epsilon = 1)))   # (J from the summary too)
  c2 <- suppressWarnings(with_seed_mode(4, dp_cov(x, epsilon = 1, J = 4, tau = 0.2, center = 0.5)))
  expect_equal(c1$values, c2$values, tolerance = 1e-10)
})

test_that("dp_kde() and summarise_kde() take the columns a named grid names, in its order", {
  # (MASS::geyser is (waiting, duration): a grid of (duration, waiting) took the columns in the data's
  # order and clamped every point into the other axis's domain, without a word)
  gy <- data.frame(waiting = c(80, 71, 57, 80, 75, 77, 60, 86, 77, 56), duration = c(4, 2.2, 1.8, 4.5, 4, 3.9, 1.9, 4.6, 4, 2))
  g <- list(duration = seq(1, 6, length.out = 8), waiting = seq(40, 110, length.out = 9))
  dom <- rbind(c(1, 40), c(6, 110))
  rel <- function(x, ...) with_seed_mode(4, dp_kde(x, bandwidth = c(0.5, 8), epsilon = 1, delta = 1e-5, domain = dom, ...))
  a <- rel(gy, grid = g)
  b <- rel(as.matrix(gy[c("duration", "waiting")]), grid = unname(g))
  expect_identical(a$values$values, b$values$values)
  expect_identical(rel(gy, grid = g, columns = c(duration, waiting))$values$values, b$values$values)
  expect_error(rel(gy, grid = g, columns = c("waiting", "duration")), class = "dpfda_error_argument",
               regexp = "must agree, in the same order")
  expect_error(rel(gy, grid = stats::setNames(g, c("dur", "wait"))), class = "dpfda_error_argument",
               regexp = "no column \"dur\"")
  # the domain's column names and a named bandwidth are read the same way
  dom_n <- dom
  colnames(dom_n) <- c("duration", "waiting")
  expect_identical(with_seed_mode(4, dp_kde(gy, grid = unname(g), bandwidth = c(0.5, 8), epsilon = 1, delta = 1e-5,
                                            domain = dom_n))$values$values, b$values$values)
  expect_identical(with_seed_mode(4, dp_kde(gy, grid = unname(g), bandwidth = c(duration = 0.5, waiting = 8),
                                            epsilon = 1, delta = 1e-5, domain = dom))$values$values, b$values$values)
  expect_error(dp_kde(gy, grid = g[2:1], bandwidth = c(8, 0.5), epsilon = 1, delta = 1e-5, domain = dom_n),
               class = "dpfda_error_argument", regexp = "`domain` names its columns")
  s <- summarise_kde(gy, g, c(0.5, 8), domain = dom)
  s2 <- summarise_kde(gy, unname(g), c(0.5, 8), domain = dom, columns = c("duration", "waiting"))
  expect_identical(s$sums, s2$sums)
})

test_that("dp_kme() takes the columns that the synthetic points' column names name", {
  set.seed(5)
  gy <- data.frame(waiting = runif(60, 40, 110), duration = runif(60, 1, 6))
  z <- cbind(duration = seq(1, 6, length.out = 16), waiting = rep(seq(40, 110, length.out = 4), 4))
  rel <- function(x, s, ...) with_seed_mode(4, dp_kme(x, kernel_gaussian(c(0.5, 8)), epsilon = 1, delta = 1e-5,
                                                      synthetic = s, ...))
  a <- rel(gy, z)
  b <- rel(as.matrix(gy[c("duration", "waiting")]), unname(z))
  expect_identical(a$weights, b$weights)
  expect_error(rel(gy, z, columns = c("waiting", "duration")), class = "dpfda_error_argument",
               regexp = "`synthetic` names its columns")
  zz <- z
  colnames(zz) <- c("d", "w")
  expect_error(rel(gy, zz), class = "dpfda_error_argument", regexp = "no column \"d\"")
})

test_that("dp_bandwidth() takes the columns that its domain's column names name", {
  set.seed(5)
  gy <- data.frame(waiting = rnorm(20000, 75, 10), duration = rnorm(20000, 3.5, 0.8))
  dom <- cbind(duration = c(0, 7), waiting = c(30, 120))
  a <- with_seed_mode(4, dp_bandwidth(gy, epsilon = 1, delta = 1e-6, fallback = c(0.3, 5), domain = dom))
  b <- with_seed_mode(4, dp_bandwidth(as.matrix(gy[c("duration", "waiting")]), epsilon = 1, delta = 1e-6,
                                      fallback = c(0.3, 5), domain = unname(dom)))
  expect_identical(a$bandwidth, b$bandwidth)
  expect_true(all(a$bandwidth != c(0.3, 5)))   # (the private rule, not the fallback)
  expect_lt(a$bandwidth[1], a$bandwidth[2])     # duration first
  colnames(dom) <- c("d", "w")
  expect_error(dp_bandwidth(gy, epsilon = 1, delta = 1e-6, domain = dom), class = "dpfda_error_argument",
               regexp = "no column \"d\"")
})

test_that("a one-column table or chunks need no `columns` for dp_kde(), as a data frame in memory; dp_kme() alike", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  set.seed(8)
  pts <- data.frame(v = runif(60))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "p", pts)
  DBI::dbWriteTable(con, "p2", data.frame(v = runif(10), w = runif(10)))
  g <- seq(0, 1, length.out = 6)
  kde <- function(x, ...) with_seed_mode(1, dp_kde(x, grid = g, bandwidth = 0.2, epsilon = 1, delta = 1e-5, ...))
  mem <- kde(pts, binned = TRUE)   # (tables and chunks bin the points: the binned estimate in memory)
  expect_equal(kde(dplyr::tbl(con, "p"))$values$values, mem$values$values, tolerance = 1e-12)
  expect_equal(kde(dp_chunks(list(pts[1:30, , drop = FALSE], pts[31:60, , drop = FALSE])))$values$values,
               mem$values$values, tolerance = 1e-12)
  # two columns: which one is the points' must be said, and the message lists them
  expect_error(kde(dplyr::tbl(con, "p2")), class = "dpfda_error_argument",
               regexp = "`columns` is needed here: name the column of the points among \"v\", \"w\"")
  z <- matrix(seq(0, 1, length.out = 8))
  kme <- function(x, ...) with_seed_mode(1, dp_kme(x, kernel_gaussian(0.2), epsilon = 1, delta = 1e-5, domain = c(0, 1),
                                                    synthetic = z, ...))
  expect_equal(kme(dplyr::tbl(con, "p"))$weights, kme(pts)$weights, tolerance = 1e-10)
  expect_error(kme(dp_chunks(list(pts))), class = "dpfda_error_argument", regexp = "chunks are read one at a time")
})

test_that("points stored as text: the message says how to convert them, not to select no column", {
  e <- expect_error(dp_kde(data.frame(v = c("0.1", "0.5", "0.7")), grid = seq(0, 1, length.out = 5), bandwidth = 0.2,
                           epsilon = 1, delta = 1e-5), class = "dpfda_error")
  expect_match(conditionMessage(e), "as.numeric()", fixed = TRUE)
  expect_false(grepl("[c(\"\")]", conditionMessage(e), fixed = TRUE))
})
