# Defects found by using densities and data sources as a statistician would (session of
# 2026-12-02): each test fails on the behaviour before its fix.

test_that("dp_kde(grid = NULL) with a domain takes the default grid, as leaving grid out does", {
  x <- datasets::faithful$eruptions
  a <- with_seed_mode(2, dp_kde(x, NULL, 0.3, 1, 1e-6, domain = c(1, 6)))
  b <- with_seed_mode(2, dp_kde(x, bandwidth = 0.3, epsilon = 1, delta = 1e-6, domain = c(1, 6)))
  expect_identical(a$values$values, b$values$values)
  expect_length(a$values$grid, 101L)
})

test_that("a Gaussian-calibration option given to a pure-DP density says why it is refused", {
  e <- expect_error(dp_kde(stats::runif(50), seq(0, 1, length.out = 21), 0.1, 20, mechanism = "iclp",
                           allow_large_epsilon = TRUE), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "Gaussian calibration of \"gp\" and \"sobolev\"", fixed = TRUE)
})

test_that("a text value in a CSV column is named with its row and chunk, and the file is let go", {
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  writeLines(c("x", "0.1", "0.2", "0.3", "abc", "0.5"), f)
  ch <- csv_chunks(f, rows = 3)
  before <- nrow(showConnections())
  e <- expect_error(dp_kde(ch, seq(0, 1, length.out = 11), 0.1, 1, 1e-6, columns = "x", domain = c(0, 1)),
                    class = "dpfda_error_data")
  expect_match(conditionMessage(e), "must be numeric, not character (\"abc\" in row 1). (In chunk 2 of the source.)",
               fixed = TRUE)
  expect_identical(nrow(showConnections()), before)   # (the file's connection was left open)
})

test_that("a factor column is refused with the conversion that keeps its values, not its level codes", {
  d <- data.frame(x = factor(c(0.2, 0.5, 0.9)))
  e <- expect_error(dp_kde(d, seq(0, 1, length.out = 11), 0.2, 1, 1e-5, domain = c(0, 1)), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "as.numeric(as.character(f))", fixed = TRUE)
  e <- expect_error(dp_kde(dp_chunks(list(d)), seq(0, 1, length.out = 11), 0.2, 1, 1e-5, columns = "x",
                           domain = c(0, 1)), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "level codes", fixed = TRUE)
})

test_that("a dropped row of death counts says that its age counts 0 deaths in its group", {
  d <- data.frame(age = rep(0:2, 2), deaths = c(1, NA, 2, 1, 1, 1), g = rep(c("a", "b"), each = 3))
  w <- expect_warning(m <- mortality_distribution(d, group = g), class = "dpfda_warning_data")
  expect_match(conditionMessage(w), "then counts 0 deaths in its group", fixed = TRUE)
  expect_equal(m$values[1, 2], 0)
  w <- expect_warning(mortality_distribution(dp_chunks(list(d)), age = "age", deaths = "deaths", group = "g"),
                      class = "dpfda_warning_data")
  expect_match(conditionMessage(w), "then counts 0 deaths in its group", fixed = TRUE)
})

test_that("mortality_distribution() without `group` groups alike from every source", {
  # a column "group" groups wherever the data have one (memory summed it into one distribution
  # with a warning while chunks and tables grouped); without one, every source gives one group
  d <- data.frame(age = rep(0:3, 2), deaths = c(1, 2, 3, 4, 4, 3, 2, 1), group = rep(c("b", "a"), each = 4))
  srcs <- list(memory = d, chunks = dp_chunks(list(d[1:3, ], d[4:8, ])), summary = summarise_mortality(d))
  if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
    con <- DBI::dbConnect(RSQLite::SQLite())
    on.exit(DBI::dbDisconnect(con), add = TRUE)
    DBI::dbWriteTable(con, "g", d)
    DBI::dbWriteTable(con, "one", d[1:4, 1:2])
    srcs$sqlite <- dplyr::tbl(con, "g")
  }
  ms <- lapply(srcs, function(x) expect_silent(mortality_distribution(x)))
  for (m in ms) {
    expect_identical(m$groups, c("a", "b"))
    expect_equal(m$values, ms$memory$values, tolerance = 1e-12)
  }
  expect_equal(ms$memory$values[2, ] * dpfda:::quadrature_weights(0:3) * 10, c(1, 2, 3, 4))
  one <- list(mortality_distribution(d[1:4, 1:2]), mortality_distribution(dp_chunks(list(d[1:4, 1:2]))),
              mortality_distribution(summarise_mortality(d[1:4, 1:2])))
  if (!is.null(srcs$sqlite)) one$sqlite <- mortality_distribution(dplyr::tbl(con, "one"))
  for (m in one) {
    expect_identical(m$groups, "all")
    expect_equal(m$values, one[[1]]$values, tolerance = 1e-12)
  }
  # a `group` named by the user must exist
  expect_error(summarise_mortality(d[, 1:2], group = "group"), "does not have", class = "dpfda_error_argument")
})

test_that("mortality groups keep a factor's level order from chunks as from the data frame", {
  d <- data.frame(age = rep(0:3, 3), deaths = c(1, 2, 3, 4, 4, 3, 2, 1, 1, 1, 1, 1),
                  region = factor(rep(c("b", "c", "a"), each = 4), levels = c("c", "b", "a")))
  m1 <- mortality_distribution(d, age = age, deaths = deaths, group = region)
  m2 <- mortality_distribution(dp_chunks(list(d[1:5, ], d[6:12, ])), age = "age", deaths = "deaths", group = "region")
  expect_identical(m1$groups, c("c", "b", "a"))
  expect_identical(m2$groups, m1$groups)
  expect_equal(m2$values, m1$values)
  # character groups: sorted from every source
  d$region <- as.character(d$region)
  expect_identical(mortality_distribution(dp_chunks(list(d)), age = "age", deaths = "deaths", group = "region")$groups,
                   c("a", "b", "c"))
})
