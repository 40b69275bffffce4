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

test_that("dp_mean() and dp_cov() give the same release from SQLite tables, with center", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  p <- one_path_data()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
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
