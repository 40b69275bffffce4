# dp_bin_regression(unit =): one person with several rows (issue 31's person-level privacy, carried
# to bin regression). Each unit's rows weigh 1 / (its rows); the weighted bin sums move by at most the
# width d of y_bound in L1 when every output of one unit changes, so the noise of one row protects
# the whole unit.

binreg_unit_data <- function(n_units = 40, seed = 3) {
  set.seed(seed)
  k <- sample(1:6, n_units, replace = TRUE)
  d <- data.frame(person = rep(seq_len(n_units), k), age = runif(sum(k), -1, 1))
  d$height <- 150 + 6 * d$age + rep(rnorm(n_units, 0, 5), k) + rnorm(nrow(d), 0, 0.5)
  d
}

test_that("replacing every output of one person moves the weighted bin sums by at most d in L1", {
  d <- binreg_unit_data()
  yb <- c(120, 180)
  big <- as.integer(names(which.max(table(d$person))))
  worst <- worst_rows <- 0
  for (v in c(-1e6, 1e6, 120, 180)) {
    d2 <- d
    d2$height[d2$person == big] <- v
    s1 <- summarise_bin_regression(d, "height", 8, yb, c(-1, 1), "age", unit = person)
    s2 <- summarise_bin_regression(d2, "height", 8, yb, c(-1, 1), "age", unit = person)
    expect_identical(s1$sums[, 1L], s2$sums[, 1L])   # (the weights per bin: public, unchanged)
    worst <- max(worst, sum(abs(s1$sums[, 2L] - s2$sums[, 2L])))
    r1 <- summarise_bin_regression(d, "height", 8, yb, c(-1, 1), "age")
    r2 <- summarise_bin_regression(d2, "height", 8, yb, c(-1, 1), "age")
    worst_rows <- max(worst_rows, sum(abs(r1$sums[, 2L] - r2$sums[, 2L])))
  }
  expect_lte(worst, diff(yb) * (1 + 1e-12))
  # without the unit the same swap moves the sums by up to (rows of that person) x d: protected as that many
  expect_gt(worst_rows, 1.5 * diff(yb))
  # under the same seed the release moves by at most the noise's scale allows: the same draws, so the
  # difference of the released sums is that of the data's, at most d
  rel <- function(df) with_seed_mode(4, dp_bin_regression(df, y = "height", columns = "age", bins = 8, y_bound = yb,
                                                         domain = c(-1, 1), epsilon = 1, unit = person))
  d2 <- d
  d2$height[d2$person == big] <- 1e6
  a <- rel(d)
  b <- rel(d2)
  expect_lte(sum(abs(a$values$values - b$values$values) * a$counts), diff(yb) * (1 + 1e-9))
})

test_that("bin regression with a unit: n counts units, the print says so, every source gives the same release", {
  d <- binreg_unit_data()
  rel <- function(x, ...) with_seed_mode(6, dp_bin_regression(x, bins = 8, y_bound = c(120, 180), domain = c(-1, 1),
                                                              epsilon = 1, ...))
  a <- rel(height ~ age, data = d, unit = person)
  expect_equal(a$n, 40)
  expect_equal(sum(a$counts), 40)
  expect_match(a$privacy_unit, "person (40 units)", fixed = TRUE)
  expect_output(print(a), "privacy unit: person (40 units)", fixed = TRUE)
  b <- rel(d, y = "height", columns = "age", unit = "person")
  m <- rel(d$age, d$height, unit = d$person)
  ch <- rel(dp_chunks(split(d, ceiling(seq_len(nrow(d)) / 25))), y = "height", columns = "age", unit = person)
  s <- summarise_bin_regression(d, "height", 8, c(120, 180), c(-1, 1), "age", unit = person)
  r_s <- rel(s)
  for (r in list(b, m, ch, r_s)) expect_equal(r$values$values, a$values$values, tolerance = 1e-12)
  # one row per unit: the release without a unit
  d1 <- d[!duplicated(d$person), ]
  expect_identical(rel(d1, y = "height", columns = "age", unit = person)$values$values,
                   rel(d1, y = "height", columns = "age")$values$values)
  # y_bound = "auto" with a unit: the histogram counts units (weights), on every source
  auto <- function(x, ...) with_seed_mode(6, dp_bin_regression(x, bins = 8, y_bound = "auto", domain = c(-1, 1),
                                                               epsilon = 4, bound_center = 150, ...))
  aa <- auto(height ~ age, data = d, unit = person)
  expect_equal(aa$n, 40)
  expect_equal(auto(d, y = "height", columns = "age", unit = person)$values$values, aa$values$values,
               tolerance = 1e-12)
  # a unit with a summary, or a unit vector of the wrong length, is refused
  expect_error(rel(s, unit = d$person), class = "dpfda_error_argument")
  expect_error(rel(d$age, d$height, unit = d$person[-1]), class = "dpfda_error_argument")
  expect_error(rel(d, y = "height", columns = "age", unit = nope), class = "dpfda_error_argument")
})

test_engines("bin regression with a unit from a table equals memory", function(con) {
  d <- binreg_unit_data()
  d$person <- sprintf("p%02d", d$person)   # (a unit of text)
  DBI::dbWriteTable(con, "ox", d)
  rel <- function(x, ...) with_seed_mode(6, dp_bin_regression(x, y = "height", columns = "age", bins = 8,
                                                              domain = c(-1, 1), unit = "person", ...))
  for (yb in list(c(120, 180), "auto")) {
    o <- if (identical(yb, "auto")) list(epsilon = 4, bound_center = 150) else list(epsilon = 1)
    a <- do.call(rel, c(list(d, y_bound = yb), o))
    b <- do.call(rel, c(list(dplyr::tbl(con, "ox"), y_bound = yb), o))
    expect_equal(b$values$values, a$values$values, tolerance = 1e-10)
    expect_equal(b$n, 40)
  }
})
