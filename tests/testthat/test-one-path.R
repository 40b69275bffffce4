# One path per mechanism (issue 28, part 2): dp_mean() and dp_cov() compute
# a summary from any source (curves in memory, long data frames, chunks,
# database tables, a given summary) and one release function turns it into
# the release; so every source gives the same release under the same seed,
# with `center` on every source.

one_path_data <- function(n = 30, m = 12, seed = 4) {
  set.seed(seed)
  t <- seq(0, 1, length.out = m)
  x <- curves(1 + outer(runif(n, 0.5, 1.5), sin(2 * pi * t)) + matrix(rnorm(n * m, 0, 0.2), n), t)
  list(t = t, x = x, d = as.data.frame(x))
}

test_that("dp_mean(): memory, data frame, chunks and summary give the same release, every mechanism", {
  p <- one_path_data()
  cen <- function(t) 1 + 0 * t
  for (mech in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
    for (cc in list(NULL, cen)) {
      rel <- function(x, ...) with_seed_mode(9, dp_mean(x, epsilon = 1, tau = 1.5, mechanism = mech, delta = if (mech == "gp") 1e-3,
                                                        center = cc, ...))
      r_mem <- rel(p$x)
      r_df <- rel(p$d, grid = p$t)
      r_ch <- rel(dp_chunks(split(p$d, ceiling(seq_len(nrow(p$d)) / 50))), grid = p$t)
      s <- summarise_mean(p$d, grid = p$t, tau = 1.5, clip = if (mech == "bernstein") "sup" else "l2", center = cc)
      r_s <- rel(s)
      for (r in list(r_df, r_ch, r_s)) {
        expect_equal(predict(r), predict(r_mem), tolerance = 1e-10, info = mech)
        expect_equal(r$n, r_mem$n)
        expect_equal(r$noise_scale, r_mem$noise_scale, tolerance = 1e-12)
      }
      # the centre is added back on every source
      if (!is.null(cc)) expect_equal(mean(predict(r_ch)), mean(predict(r_mem)), tolerance = 1e-10)
    }
  }
  # a summary computed without the release's centre is refused
  s0 <- summarise_mean(p$d, grid = p$t, tau = 1.5)
  expect_error(dp_mean(s0, epsilon = 1, tau = 1.5, center = 1), class = "dpfda_error_argument")
})

test_that("dp_cov(): every source gives the same release; center is its own argument (not `centered`)", {
  p <- one_path_data()
  k <- kernel_matern(1.5, 0.2)
  for (cc in list(NULL, 1)) {
    for (centered in c(TRUE, FALSE)) {
      rel <- function(x, ...) with_seed_mode(3, dp_cov(x, epsilon = 1, tau = 1.5, kernel = k, J = 4,
                                                       centered = centered, center = cc, ...))
      r_mem <- rel(p$x)
      r_ch <- rel(dp_chunks(split(p$d, ceiling(seq_len(nrow(p$d)) / 50))), grid = p$t)
      r_s <- rel(summarise_cov(p$d, grid = p$t, tau = 1.5, kernel = k, J = 4, center = cc))
      expect_equal(predict(r_ch), predict(r_mem), tolerance = 1e-10)
      expect_equal(predict(r_s), predict(r_mem), tolerance = 1e-10)
    }
  }
  # `center =` once partially matched `centered` (and silently meant TRUE)
  r1 <- with_seed_mode(3, dp_cov(p$x, epsilon = 1, tau = 1.5, kernel = k, J = 4, centered = FALSE, center = 1))
  r2 <- with_seed_mode(3, dp_cov(p$x, epsilon = 1, tau = 1.5, kernel = k, J = 4, centered = FALSE))
  expect_false(r1$centered)
  expect_false(isTRUE(all.equal(predict(r1), predict(r2))))
  # the second moment about the centre 1 is that of the curves minus 1
  x1 <- p$x
  x1$values <- x1$values - 1
  r3 <- with_seed_mode(3, dp_cov(x1, epsilon = 1, tau = 1.5, kernel = k, J = 4, centered = FALSE))
  expect_equal(predict(r1), predict(r3), tolerance = 1e-10)
})

test_engines("dp_mean() and dp_cov() from a table equal memory, with center", function(con) {
  p <- one_path_data()
  DBI::dbWriteTable(con, "curves", p$d)
  tb <- dplyr::tbl(con, "curves")
  for (mech in c("iclp_qr", "bernstein")) {
    a <- with_seed_mode(2, dp_mean(tb, epsilon = 1, tau = 1.5, mechanism = mech, grid = p$t, center = 1))
    b <- with_seed_mode(2, dp_mean(p$x, epsilon = 1, tau = 1.5, mechanism = mech, center = 1))
    expect_equal(predict(a), predict(b), tolerance = 1e-10)
  }
  k <- kernel_matern(1.5, 0.2)
  a <- with_seed_mode(2, dp_cov(tb, epsilon = 1, tau = 1.5, kernel = k, J = 4, grid = p$t, center = 1))
  b <- with_seed_mode(2, dp_cov(p$x, epsilon = 1, tau = 1.5, kernel = k, J = 4, center = 1))
  expect_equal(predict(a), predict(b), tolerance = 1e-10)
})

test_that("na.rm = TRUE is honoured for matrices (interpolated as long data), not silently ignored", {
  t <- seq(0, 1, length.out = 6)
  m <- outer(c(1, 2, 3), t + 1)
  m2 <- m
  m2[2, 3] <- NA
  expect_error(as_curves(m2, grid = t), class = "dpfda_error")
  cv <- as_curves(m2, grid = t, na.rm = TRUE)
  expect_equal(cv$values, m)                       # linear curves: the gap is filled exactly
  expect_equal(as_curves(m2, grid = t, na.rm = TRUE)$values,
               as_curves(data.frame(id = rep(1:3, 6), arg = rep(t, each = 3), value = as.vector(m2)),
                         grid = t, na.rm = TRUE)$values)
  m2[1, 1] <- NA                                   # missing at the end of the grid: not covered
  expect_error(as_curves(m2, grid = t, na.rm = TRUE), class = "dpfda_error_data")
  r <- with_seed_mode(1, dp_mean(m2[-1, ], epsilon = 1, tau = 5, grid = t, na.rm = TRUE))
  expect_equal(r$n, 2)
})

test_that("dp_bin_regression(): a missing output counts at the midpoint in memory as in tables", {
  xs <- seq(0.05, 0.95, length.out = 20)
  ys <- sin(2 * pi * xs)
  ys[3] <- NA
  d <- data.frame(u = xs, y = ys)
  expect_warning(dp_bin_regression(xs, ys, 4, c(-1, 1), 1, c(0, 1)), class = "dpfda_warning_data")
  a <- suppressWarnings(with_seed_mode(1, dp_bin_regression(xs, ys, 4, c(-1, 1), 1, c(0, 1))))
  b <- suppressWarnings(with_seed_mode(1, dp_bin_regression(dp_chunks(list(d)), "y", 4, c(-1, 1), 1, c(0, 1),
                                                            columns = "u")))
  expect_equal(predict(a), predict(b))
})

test_that("incomplete curves: one rule on every source, and incomplete = \"drop\" accounted (issue 28)", {
  cw <- datasets::ChickWeight
  cw <- as.data.frame(cw[cw$Time <= 20, ])
  cw$Chick <- as.integer(as.character(cw$Chick))
  cw <- cw[order(cw$Chick, cw$Time), ]
  g <- seq(0, 20, by = 2)
  rel <- function(x, ...) dp_mean(x, id = Chick, arg = Time, value = weight, grid = g, epsilon = 1, tau = 600, ...)
  expect_error(rel(cw), class = "dpfda_error_data")                       # 4 chicks died early
  ch <- function() dp_chunks(split(cw, ceiling(seq_len(nrow(cw)) / 150)))
  expect_error(rel(ch()), class = "dpfda_error_data")                     # was: zeros, with a warning
  # (50 chicks at epsilon 1: the noisy count's sd is 14, which dp_mean() says: dpfda_warning_utility)
  a <- with_seed_mode(3, suppressWarnings(rel(cw, incomplete = "drop"), classes = "dpfda_warning_utility"))
  b <- with_seed_mode(3, suppressWarnings(rel(ch(), incomplete = "drop"), classes = "dpfda_warning_utility"))
  expect_equal(predict(a), predict(b), tolerance = 1e-10)
  expect_equal(a$n, length(unique(cw$Chick)))                             # calibrated for every chick
  expect_equal(a$epsilon, 1)
  expect_equal(a$epsilon_count, 0.1)
  expect_equal(a$scale_factor, a$n / a$n_complete)
  # the whole call is charged once, epsilon in total
  bud <- privacy_budget(1, composition = "basic")
  with_seed_mode(3, rel(cw, incomplete = "drop", budget = bud))
  expect_equal(budget_spent(bud)$epsilon, 1)
  # the noise law (confint) carries the factor
  law <- dpfda:::noise_law(a)
  a1 <- a
  a1$scale_factor <- NULL
  expect_equal(law$var, dpfda:::noise_law(a1)$var * a$scale_factor^2)
})

test_engines("incomplete curves in a table: refused by default, dropped alike with incomplete = \"drop\"",
             function(con) {
  cw <- datasets::ChickWeight
  cw <- as.data.frame(cw[cw$Time <= 20, ])
  cw$Chick <- as.integer(as.character(cw$Chick))
  cw$weight <- as.double(cw$weight)
  cw$Time <- as.double(cw$Time)
  g <- seq(0, 20, by = 2)
  rel <- function(x, ...) dp_mean(x, id = Chick, arg = Time, value = weight, grid = g, epsilon = 1, tau = 600, ...)
  DBI::dbWriteTable(con, "cw", cw)
  expect_error(rel(dplyr::tbl(con, "cw")), class = "dpfda_error_data")
  s <- with_seed_mode(3, rel(dplyr::tbl(con, "cw"), incomplete = "drop"))
  a <- with_seed_mode(3, rel(cw, incomplete = "drop"))
  expect_equal(predict(s), predict(a), tolerance = 1e-10)
  expect_equal(s$n, a$n)
})

test_that("incomplete = \"drop\" stays epsilon-DP when a person's curve turns incomplete (audit)", {
  g <- seq(0, 1, length.out = 5)
  long <- function(vals, covered) {
    do.call(rbind, lapply(seq_along(vals), function(i) {
      a <- if (covered[i]) g else g[1:3]
      data.frame(id = i, arg = a, value = vals[i])
    }))
  }
  # six people; in the neighbour the first one's extreme, complete curve becomes incomplete
  d1 <- long(c(1, rep(0, 5)), rep(TRUE, 6))
  d2 <- long(c(-1, rep(0, 5)), c(FALSE, rep(TRUE, 5)))
  # the release and its public noisy count of complete individuals, audited together
  mech <- function(d) {
    r <- suppressWarnings(dp_mean(d, epsilon = 2, tau = 1, grid = g, mechanism = "frl", select = "manual", M = 1,
                                  incomplete = "drop", count_share = 0.5))
    c(predict(r), r$n_complete)
  }
  a <- dp_audit(mech, d1, d2, n = 1500, epsilon = 2, projection = "lda", seed = 2801, digits = 10,
                confidence = 0.99)
  expect_lte(a$epsilon_lower, 2)
  expect_gt(a$epsilon_lower, 0.5)   # (0.90 measured: the audit has power here)
})

test_that("a long data frame's columns as bare names or strings: the same rule, the same release", {
  # (bare names sent the frame through as_curves()'s interpolation: nlme::Orthodont, measured at ages
  # 8, 10, 12, 14, gave a release on the grid 8:14 with bare names and a refusal with strings)
  o <- data.frame(nlme::Orthodont)
  rel <- function(f, ...) with_seed_mode(3, suppressWarnings(f(o, ..., epsilon = 1, tau = 15, center = 24)))
  for (g in list(c(8, 9.5, 11, 14), c(8, 10, 12, 14))) {
    a <- rel(dp_mean, id = Subject, arg = age, value = distance, grid = g)
    b <- rel(dp_mean, id = "Subject", arg = "age", value = "distance", grid = g)
    expect_identical(predict(a), predict(b))
    ca <- rel(dp_cov, id = Subject, arg = age, value = distance, grid = g)
    cb <- rel(dp_cov, id = "Subject", arg = "age", value = "distance", grid = g)
    expect_identical(ca$values, cb$values)
  }
  expect_error(rel(dp_mean, id = Subject, arg = age, value = distance, grid = 8:14), class = "dpfda_error_data",
               regexp = "81 \\(individual, grid point\\) cells have no observation")
  # interpolation stays available on request
  i <- rel(dp_mean, id = Subject, arg = age, value = distance, grid = 8:14, method = "linear")
  expect_length(predict(i), 7L)
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "o", data.frame(Subject = as.character(o$Subject), age = o$age, distance = o$distance))
  skip_if_not_installed("dbplyr")
  tb <- with_seed_mode(3, dp_mean(dplyr::tbl(con, "o"), id = Subject, arg = age, value = distance,
                                  grid = c(8, 9.5, 11, 14), epsilon = 1, tau = 15, center = 24))
  expect_equal(predict(tb), predict(rel(dp_mean, id = Subject, arg = age, value = distance, grid = c(8, 9.5, 11, 14))),
               tolerance = 1e-10)
})
