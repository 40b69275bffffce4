# Private bandwidth (PTR IQR) and the exponential mechanism.

test_that("T11: the distance to instability has sensitivity 1 on neighbouring data", {
  set.seed(11)
  for (rep in 1:40) {
    n <- sample(20:200, 1)
    x <- rnorm(n)
    y <- x
    y[sample(n, 1)] <- sample(c(rnorm(1), 1e6, -1e6, x[1]), 1)
    w <- log(1 + 1 / log(n))
    xs <- sort(x); ys <- sort(y)
    i1 <- ceiling(n / 4); i3 <- ceiling(3 * n / 4)
    s <- xs[i3] - xs[i1]
    k <- floor(log(s) / w)
    A1 <- dpfda:::ptr_iqr_distance(dpfda:::ptr_order_stat(xs), n, i1, i3, k * w, (k + 1) * w)
    A2 <- dpfda:::ptr_iqr_distance(dpfda:::ptr_order_stat(ys), n, i1, i3, k * w, (k + 1) * w)
    expect_lte(abs(A1 - A2), 1)
    expect_gte(A1, 1)
  }
})

test_that("the private IQR is a bin centre near the truth, and fails less often with more data", {
  rate <- function(n) with_seed_mode(n, mean(replicate(40, is.na(dpfda:::ptr_iqr(rnorm(n), 1, 1e-3, c(0, 0.5))))))
  r <- sapply(c(100, 1000, 20000), rate)
  expect_gte(r[1], r[3])
  expect_lt(r[3], 0.2)
  v <- with_seed_mode(5, dpfda:::ptr_iqr(rnorm(20000), 1, 1e-3, c(0, 0.5)))
  expect_equal(v, 1.349, tolerance = 0.15)
})

test_that("dp_bandwidth applies the rule of thumb and the fallback, and spends its budget", {
  b <- with_seed_mode(2, dp_bandwidth(rnorm(50000), 1, 1e-4, fallback = 1))
  expect_s3_class(b, "dpfda_bandwidth")
  expect_true(b$private)
  expect_equal(b$bandwidth, (4 / (2 * 50000))^(1 / 5) * 1.349 / 1.34, tolerance = 0.15)
  expect_equal(c(b$epsilon, b$delta), c(1, 1e-4))
  f <- with_seed_mode(2, dp_bandwidth(matrix(rnorm(40), 20), 0.1, 1e-4, fallback = c(0.2, 0.3)))
  expect_equal(f$bandwidth, c(0.2, 0.3))
  expect_false(any(f$private))
  expect_error(with_seed_mode(2, dp_bandwidth(rnorm(20), 0.1, 1e-4)), class = "dpfda_error_ptr")
  s <- with_seed_mode(2, dp_bandwidth(rnorm(50000), 1, 1e-4, rule = "scott", fallback = 1))
  expect_lt(s$bandwidth, b$bandwidth)
  r <- dp_kde(rnorm(100), seq(-3, 3, length.out = 50), f$bandwidth[1], 1, 1e-5, domain = c(-3, 3))
  expect_s3_class(r, "dpfda_release")
})

test_that("T10: exponential-mechanism probabilities and privacy ratio", {
  u <- c(0, 1, 3, 2.5)
  u2 <- u + c(1, -1, 0.5, -0.3)      # neighbouring utilities, sensitivity 1
  p <- dpfda:::select_probabilities(u, 1, 0.7)
  q <- dpfda:::select_probabilities(u2, 1, 0.7)
  expect_equal(sum(p), 1)
  expect_lte(max(p / q, q / p), exp(0.7) * (1 + 1e-12))
  # huge utilities stay finite
  expect_true(all(is.finite(dpfda:::select_probabilities(c(1e300, 0), 1, 1))))
  # empirical frequencies of the Gumbel-max sampler match
  N <- 20000
  idx <- with_seed_mode(9, replicate(N, dp_select(u, 1, 0.7)$index))
  expect_lt(max(abs(tabulate(idx, 4) / N - p)), 5 * sqrt(0.25 / N))
  # a sampler that ignored epsilon / (2 sensitivity) would fail this
  expect_gt(max(abs(tabulate(idx, 4) / N - dpfda:::select_probabilities(u, 1, 1.4))), 5 * sqrt(0.25 / N))
})

test_that("dp_kde(bandwidth = \"auto\") is refused with a pointer to dp_bandwidth() (1-D: no \"1 positive numbers\")", {
  e <- expect_error(dp_kde(c(0.2, 0.5), seq(0, 1, length.out = 5), "auto", 1, 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "must be a positive number (or a 1 x 1 positive-definite matrix); for one chosen privately from the data, see dp_bandwidth()", fixed = TRUE)
  expect_identical(e$arg, "bandwidth")
  e <- expect_error(dp_kde(cbind(c(0.2, 0.5), 0.1), list(seq(0, 1, length.out = 5), seq(0, 1, length.out = 5)),
                           -1, 1, 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "2 positive numbers, or a 2 x 2", fixed = TRUE)
})

# The distance to instability of the (weighted) IQR on data and on a neighbour; units weigh 1 in all.
ptr_distance_of <- function(x, unit = NULL) {
  o <- order(x)
  ws <- if (!is.null(unit)) (1 / tabulate(unit)[unit])[o]
  n <- if (is.null(unit)) length(x) else max(unit)
  at <- dpfda:::ptr_order_stat(x[o], ws)
  i1 <- ceiling(n / 4)
  i3 <- ceiling(3 * n / 4)
  w <- log(1 + 1 / log(n))
  k <- floor(log(at(i3) - at(i1)) / w)
  dpfda:::ptr_iqr_distance(at, n, i1, i3, k * w, (k + 1) * w)
}

test_that("with a unit the distance to instability has sensitivity 1 in whole-unit replacements", {
  set.seed(12)
  worst <- 0
  worst_rows <- 0
  for (rep in 1:60) {
    nu <- sample(20:150, 1)
    k <- sample(1:8, nu, replace = TRUE)   # 1 to 8 points per person
    unit <- rep(seq_len(nu), k)
    x <- rnorm(length(unit), rnorm(nu, 0, 0.5)[unit], 1)
    # replace every point of the person with the most points by extremes, or by another person's points
    big <- which.max(k)
    y <- x
    y[unit == big] <- switch(rep %% 3 + 1, rep(1e6, k[big]), rep(c(-1e6, 1e6), length.out = k[big]),
                             rnorm(k[big], 0, 0.01))
    A1 <- ptr_distance_of(x, unit)
    A2 <- ptr_distance_of(y, unit)
    expect_gte(A1, 1)
    worst <- max(worst, abs(A1 - A2))
    # each point its own unit (the guarantee of rows): the same swap moves A by up to k points
    worst_rows <- max(worst_rows, abs(ptr_distance_of(x) - ptr_distance_of(y)))
  }
  expect_lte(worst, 1)
  expect_gt(worst_rows, 1)   # (so the unit is needed: 6 here)
  # units of one point each: the distance of rows exactly
  x <- rnorm(300)
  expect_identical(ptr_distance_of(x, seq_along(x)), ptr_distance_of(x))
})

test_that("dp_bandwidth(unit =): person-level rule, n in units, same as rows with one point per unit", {
  set.seed(3)
  x <- rnorm(4000)
  a <- with_seed_mode(4, dp_bandwidth(x, 1, 1e-6, fallback = 0.5, domain = c(-5, 5)))
  b <- with_seed_mode(4, dp_bandwidth(x, 1, 1e-6, fallback = 0.5, domain = c(-5, 5), unit = seq_along(x)))
  expect_identical(b$bandwidth, a$bandwidth)
  expect_match(b$privacy_unit, "(4,000 units)", fixed = TRUE)
  # 3000 persons with 4 points each (the test needs about 1308 at epsilon 4): n counts persons, and a
  # data frame takes the unit by its column name
  d <- data.frame(v = rnorm(12000, rep(rnorm(3000, 0, 0.3), each = 4)), person = rep(1:3000, each = 4))
  p <- with_seed_mode(4, dp_bandwidth(d, 4, 1e-6, fallback = 0.5, domain = c(-5, 5), unit = person))
  expect_identical(p$n, 3000L)
  expect_true(p$private)
  expect_equal(p$bandwidth, (4 / (2 * 3000))^(1 / 5) * IQR(d$v) / 1.34, tolerance = 0.15)
  expect_output(print(p), "privacy unit: person (3,000 units)", fixed = TRUE)
  p2 <- with_seed_mode(4, dp_bandwidth(d$v, 4, 1e-6, fallback = 0.5, domain = c(-5, 5), unit = d$person))
  expect_identical(p2$bandwidth, p$bandwidth)
  # a person-level density with a bandwidth released at the level of points is refused (its guarantee
  # would not hold for persons); with a person-level one it runs
  g <- seq(-5, 5, length.out = 51)
  e <- expect_error(dp_kde(d, g, bandwidth = with_seed_mode(4, dp_bandwidth(d$v, 2, 1e-6, fallback = 0.5,
                                                                            domain = c(-5, 5))),
                           epsilon = 1, delta = 1e-6, unit = person, columns = v), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "dp_bandwidth(..., unit = )", fixed = TRUE)
  expect_s3_class(e, "dpfda_error_privacy")   # (as ?dp_kde says, and as a bandwidth of other units is)
  r <- with_seed_mode(4, dp_kde(d, g, bandwidth = p, epsilon = 1, delta = 1e-6, unit = person, columns = v))
  expect_match(r$privacy_unit, "person", fixed = TRUE)
  s <- summarise_kde(d, g, p, columns = "v", unit = "person")
  expect_error(dp_kde(s, g, bandwidth = a, epsilon = 1, delta = 1e-6), class = "dpfda_error_argument")
  expect_error(dp_bandwidth(d$v, 2, 1e-6, unit = d$person[-1]), class = "dpfda_error_argument")
  expect_error(dp_bandwidth(d, 2, 1e-6, unit = nope), class = "dpfda_error_argument")
  # ... and one released for other units (rows, or visits that cut across persons) is refused too, on
  # every mechanism and from a summary, before the density is charged; the same units under the name
  # of a vector (`d$person`) are the same units
  d$row <- seq_len(nrow(d))
  d$visit <- rep_len(1:12, 12000)   # (each person's 4 points at 4 of the 12 visits)
  for (u in c("row", "visit")) {
    hb <- with_seed_mode(4, dp_bandwidth(d, 4, 1e-6, fallback = 0.5, domain = c(-5, 5), columns = "v", unit = u))
    for (m in c("gp", "iclp", "bernstein")) {
      b <- privacy_budget(epsilon = 10, delta = 1e-3)
      e <- expect_error(dp_kde(d, g, bandwidth = hb, epsilon = 1, delta = 1e-6, unit = person, columns = v,
                               mechanism = m, budget = b), class = "dpfda_error_privacy")
      expect_match(conditionMessage(e), sprintf("for the privacy unit \"%s (", u), fixed = TRUE)
      expect_false(any(b$ledger$label == "dp_kde"), info = paste(u, m))
    }
    expect_error(dp_kde(s, g, bandwidth = hb, epsilon = 1, delta = 1e-6), class = "dpfda_error_privacy")
  }
  expect_match(with_seed_mode(4, dp_kde(d, g, bandwidth = p2, epsilon = 1, delta = 1e-6, unit = person,
                                        columns = v))$privacy_unit, "person (3,000 units)", fixed = TRUE)
  # a density of points may use a bandwidth of persons (each point is within one)
  expect_match(with_seed_mode(4, dp_kde(d, g, bandwidth = p, epsilon = 1, delta = 1e-6, columns = v))$privacy_unit,
               "one point", fixed = TRUE)
})

test_that("binned = TRUE: the quartiles of the data rounded to 2^16 bins; chunks give the same bandwidth", {
  set.seed(8)
  d <- data.frame(v = rnorm(20000, rep(rnorm(5000, 0, 0.3), each = 4)), w = runif(20000), person = rep(1:5000, each = 4))
  rel <- function(...) with_seed_mode(3, dp_bandwidth(..., epsilon = 1, delta = 1e-6, fallback = 0.5))
  a <- rel(d$v, domain = c(-5, 5))
  b <- rel(d$v, domain = c(-5, 5), binned = TRUE)
  expect_true(b$private)
  expect_equal(b$bandwidth, a$bandwidth, tolerance = 1e-3)   # (the same bin of log IQR here)
  ch <- function() dp_chunks(split(d, ceiling(seq_len(nrow(d)) / 3000)))
  expect_identical(rel(ch(), domain = c(-5, 5), columns = "v")$bandwidth, b$bandwidth)
  expect_identical(rel(d, domain = c(-5, 5), columns = v, binned = TRUE)$bandwidth, b$bandwidth)
  u <- rel(d, domain = c(-5, 5), columns = "v", unit = person, binned = TRUE)
  expect_identical(rel(ch(), domain = c(-5, 5), columns = "v", unit = person)$bandwidth, u$bandwidth)
  expect_identical(u$n, 5000)
  # the IQR of the rounded data is within a bin width of the data's
  at <- dpfda:::bandwidth_hist_at(tabulate(dpfda:::bandwidth_bin_of(d$v, -5, 10 / 65536, 65536) + 1, 65536), -5,
                                  10 / 65536)
  q <- sort(d$v)[ceiling(c(0.25, 0.75) * 20000)]
  expect_lte(abs((at(15000) - at(5000)) - diff(q)), 2 * 10 / 65536)
  # a domain far wider than the data: the bins are coarse against the released IQR, and it says so
  expect_warning(rel(d$v * 1e-4, domain = c(-5, 5), binned = TRUE), "exceed 1% of the released IQR",
                 class = "dpfda_warning_utility")
  # a table or chunks need a domain and the columns; binned = TRUE a domain
  expect_error(rel(ch(), columns = "v"), "`domain` is required for a table or chunks", class = "dpfda_error_argument")
  expect_error(rel(ch(), domain = c(-5, 5)), "`columns`", class = "dpfda_error_argument")
  expect_error(rel(d$v, binned = TRUE), "`domain` is required with binned = TRUE", class = "dpfda_error_argument")
  expect_error(rel(d$v, domain = c(-5, 5), binned = NA), class = "dpfda_error_argument")
  expect_error(rel(d$v, domain = c(-5, 5), colums = "v"), "colums", class = "dpfda_error_argument")
})

test_engines("dp_bandwidth() from a table equals memory with binned = TRUE (with a unit, in two dimensions)", function(con) {
  set.seed(9)
  d <- data.frame(v = rnorm(8000, rep(rnorm(2000, 0, 0.3), each = 4)), w = runif(8000),
                  person = rep(sprintf("p%04d", 1:2000), each = 4))
  DBI::dbWriteTable(con, "pts", d)
  tb <- dplyr::tbl(con, "pts")
  rel <- function(...) with_seed_mode(3, suppressWarnings(dp_bandwidth(..., epsilon = 4, delta = 1e-6, fallback = 0.5)))
  expect_identical(rel(tb, domain = c(-5, 5), columns = "v")$bandwidth,
                   rel(d, domain = c(-5, 5), columns = "v", binned = TRUE)$bandwidth)
  a <- rel(tb, domain = c(-5, 5), columns = "v", unit = "person")
  expect_identical(a$bandwidth, rel(d, domain = c(-5, 5), columns = "v", unit = person, binned = TRUE)$bandwidth)
  expect_identical(a$n, 2000)
  dom <- cbind(v = c(-5, 5), w = c(0, 1))
  expect_identical(rel(tb, domain = dom)$bandwidth, rel(d, domain = dom, binned = TRUE)$bandwidth)
  # missing values are refused on every source (dropping them made the count of complete rows public)
  d$v[c(3, 77)] <- NA
  DBI::dbWriteTable(con, "pts_na", d)
  expect_error(dp_bandwidth(dplyr::tbl(con, "pts_na"), 4, 1e-6, fallback = 0.5, domain = c(-5, 5), columns = "v"),
               "2 of the 8,000 rows", class = "dpfda_error_data")
  expect_error(dp_bandwidth(d, 4, 1e-6, fallback = 0.5, domain = c(-5, 5), columns = "v", unit = person),
               "2 of the 8,000 rows", class = "dpfda_error_data")
})

test_that("dp_bandwidth(): a domain that misses the data is said on every source, and a failed test names the data's shape", {
  # (faithful$waiting with domain c(1, 6): all 272 points clamped, a silent fallback; a refusal said
  # "needs about n >= 5,714 (30000 given)")
  w <- expect_warning(with_seed_mode(1, dp_bandwidth(faithful$waiting, 1, 1e-6, domain = c(1, 6), fallback = 3)),
                      class = "dpfda_warning_data")
  expect_match(conditionMessage(w), "272 of the 272 points (100%) lie outside `domain` ([1, 6])", fixed = TRUE)
  expect_silent(with_seed_mode(1, dp_bandwidth(faithful$waiting, 1, 1e-6, domain = c(40, 100), fallback = 3)))
  # binned in memory, chunks and a table: the same count
  expect_warning(with_seed_mode(1, dp_bandwidth(faithful$waiting, 1, 1e-6, domain = c(1, 6), fallback = 3,
                                                binned = TRUE)),
                 "272 of the 272 points", class = "dpfda_warning_data")
  expect_warning(with_seed_mode(1, dp_bandwidth(dp_chunks(faithful, 100), 1, 1e-6, domain = c(1, 6), fallback = 3,
                                                columns = "waiting")),
                 "272 of the 272 points", class = "dpfda_warning_data")
  tb <- sqlite_tbl(faithful)
  dom <- rbind(c(1, 1), c(6, 6))
  colnames(dom) <- c("eruptions", "waiting")
  w <- expect_warning(with_seed_mode(1, dp_bandwidth(tb, 1, 1e-6, fallback = 3, domain = dom)),
                      class = "dpfda_warning_data")
  expect_match(conditionMessage(w), "272 of the 272 points (100%)", fixed = TRUE)   # (waiting is beyond it)
  expect_silent(with_seed_mode(1, dp_bandwidth(tb, 1, 1e-6, fallback = 3,
                                               domain = list(eruptions = c(1, 6), waiting = c(40, 100)))))
  # many points, and a test that fails all the same: the message names the data's shape, not n
  set.seed(1)
  e <- expect_error(suppressWarnings(with_seed_mode(1, dp_bandwidth(stats::rnorm(30000, 50, 10), 1, 1e-6,
                                                                    domain = c(0, 10)))),
                    class = "dpfda_error_ptr")
  expect_match(conditionMessage(e), "30,000 are given: the data's interquartile range is unstable here", fixed = TRUE)
  expect_error(with_seed_mode(1, dp_bandwidth(stats::rnorm(50, 50, 10), 1, 1e-6)), "the test needs about n >=",
               class = "dpfda_error_ptr")
})

test_that("a density with a released bandwidth prints and glances the guarantee of both", {
  # (print() and glance() said "(epsilon = 1, delta = 1e-06)-DP" while the bandwidth had spent as much again)
  x <- faithful$eruptions
  b <- with_seed_mode(1, dp_bandwidth(x, 1, 1e-6, fallback = 0.3))
  r <- with_seed_mode(2, dp_kde(x, seq(1, 6, length.out = 51), b, 1, 1e-6, domain = c(1, 6)))
  expect_output(print(r), "bandwidth released by dp_bandwidth() on the same data: (epsilon = 1, delta = 1e-06) more, (epsilon = 2, delta = 2e-06) in all",
                fixed = TRUE)
  g <- glance(r)
  expect_equal(c(g$epsilon, g$delta, g$epsilon_total, g$delta_total), c(1, 1e-6, 2, 2e-6))
  r0 <- with_seed_mode(2, dp_kde(x, seq(1, 6, length.out = 51), 0.3, 1, 1e-6, domain = c(1, 6)))
  expect_equal(c(glance(r0)$epsilon_total, glance(r0)$delta_total), c(1, 1e-6))
  expect_false(any(grepl("dp_bandwidth", utils::capture.output(print(r0)))))
  # the noise line of ICLP names its law (it printed the kernel alone, as a GP's does)
  ri <- with_seed_mode(2, dp_kde(x, seq(1, 6, length.out = 51), 0.3, 1, mechanism = "iclp", domain = c(1, 6)))
  expect_output(print(ri), "noise: Laplace on the coefficients in the KL basis of the", fixed = TRUE)
  expect_identical(glance(ri)$noise_family, "laplace")
  rg <- with_seed_mode(2, dp_kde(x, seq(1, 6, length.out = 51), 0.3, 1, 1e-6, domain = c(1, 6)))
  expect_false(any(grepl("Laplace on the coefficients", utils::capture.output(print(rg)))))
})
