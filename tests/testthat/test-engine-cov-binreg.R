# dp_cov() and dp_bin_regression() on data outside memory (R/summary-cov.R,
# R/summary-binreg.R): the summary of a long data frame, of chunks and of a
# database table (SQLite; DuckDB when installed) equals the in-memory summary
# to 1e-9, and the release equals the in-memory release under
# dp_reproducible(); the release step is the in-memory one (cov_release(),
# bin_release()). SQL for PostgreSQL and Spark on dbplyr's simulated
# connections; bad input.

cb_data <- function() {
  old <- dp_reproducible(31)
  on.exit(dp_rng(old))
  t <- seq(0, 1, length.out = 17)
  cu <- curves(outer(runif(50, 0.2, 2.5), sin(2 * pi * t)) + outer(rnorm(50, 0, 0.4), cos(pi * t)), t)
  long <- data.frame(patient = rep(seq_len(50), each = 17), day = rep(t, 50), score = as.vector(t(cu$values)))
  u <- runif(400)
  v <- runif(400, -1, 1)
  resp <- sin(6 * u) + v + rnorm(400, 0, 0.3)
  resp[1:3] <- c(5, -6, 2.5)                                     # outside y_bound: clamped
  u[4:5] <- c(-0.3, 1.4)                                         # outside the domain: boundary bins
  list(t = t, cu = cu, long = long, k = kernel_matern(3 / 2, 0.2),
       pts = data.frame(u = u, v = v, resp = resp), dom2 = rbind(c(0, -1), c(1, 1)))
}

cb_same <- function(seed, a, b) {
  old <- dp_reproducible(seed)
  on.exit(dp_rng(old))
  r1 <- force(a)
  dp_reproducible(seed)
  r2 <- force(b)
  list(r1, r2)
}

test_that("covariance summary: curves, long data, chunks and parts agree; clipping bounds each individual", {
  d <- cb_data()
  s <- summarise_cov(d$cu, tau = 1, kernel = d$k, J = 6)
  expect_s3_class(s, "dpfda_summary")
  expect_equal(dim(s$sums), c(6L, 7L))
  expect_equal(s$n, 50)
  # in-memory definition: clipped coefficients, their sum and sum of outer products
  b <- kl_basis(d$k, d$t, J = 6)
  A <- dpfda:::kl_coef(b, dpfda:::clip_curves_l2(d$cu$values, b$weights, 1))
  expect_equal(s$sums, cbind(colSums(A), crossprod(A)), tolerance = 1e-12, ignore_attr = TRUE)
  expect_lte(sum(diag(s$sums[, -1])), 50 * 1^2 + 1e-9)           # sum of ||a_i||^2 <= n tau^2
  expect_lt(sum(diag(s$sums[, -1])), sum(dpfda:::kl_coef(b, d$cu$values)^2))   # the clipping bites
  sl <- summarise_cov(d$long, d$t, 1, d$k, 6, id = "patient", arg = "day", value = "score")
  expect_equal(sl$sums, s$sums, tolerance = 1e-12)
  expect_equal(sl$missing_cells, 0)
  parts <- summarise_cov(d$long[d$long$patient <= 20, ], d$t, 1, d$k, 6, "patient", "day", "score") +
    summarise_cov(d$long[d$long$patient > 20, ], d$t, 1, d$k, 6, "patient", "day", "score")
  expect_equal(parts$sums, s$sums, tolerance = 1e-12)
  expect_equal(parts$n, 50)
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  utils::write.csv(d$long, f, row.names = FALSE)
  sc <- summarise_cov(csv_chunks(f, rows = 60), d$t, 1, d$k, 6, "patient", "day", "score")
  expect_equal(sc$sums, s$sums, tolerance = 1e-12)
  expect_equal(sc$n, 50)
  # other settings do not add
  expect_error(s + summarise_cov(d$cu, tau = 2, kernel = d$k, J = 6), class = "dpfda_error_argument")
  expect_error(s + summarise_mean(d$cu, tau = 1), class = "dpfda_error_argument")
})

test_that("dp_cov from a summary, chunks or long data equals the in-memory release", {
  d <- cb_data()
  for (centered in c(TRUE, FALSE)) {
    r <- cb_same(1, dp_cov(d$cu, epsilon = 1, tau = 1, kernel = d$k, J = 6, centered = centered),
                 dp_cov(summarise_cov(d$cu, tau = 1, kernel = d$k, J = 6), epsilon = 1, tau = 1, kernel = d$k,
                        J = 6, centered = centered))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
    expect_equal(r[[2]]$coefficients, r[[1]]$coefficients, tolerance = 1e-9)
    expect_equal(r[[2]]$sensitivity, r[[1]]$sensitivity)
    expect_equal(r[[2]]$noise_scale, r[[1]]$noise_scale)
    expect_equal(r[[2]]$n, 50)
  }
  # the sensitivity is the in-memory calibration: B (sum g^2)^(1/2), B = 6 tau^2 / n centred
  b <- kl_basis(d$k, d$t, J = 6)
  lam2 <- as.vector(outer(b$values, b$values))
  p <- r[[2]]$params
  expect_equal(cb_same(1, NULL, dp_cov(summarise_cov(d$cu, tau = 1, kernel = d$k, J = 6), epsilon = 1, tau = 1,
                                       kernel = d$k, J = 6))[[2]]$sensitivity,
               6 / 50 * sqrt(sum(dpfda:::qr_shrink(lam2, p$eta, p$psi)$g^2)), tolerance = 1e-12)
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  utils::write.csv(d$long, f, row.names = FALSE)
  r <- cb_same(2, dp_cov(d$cu, epsilon = 2, tau = 1.5, kernel = d$k),
               dp_cov(csv_chunks(f, rows = 100), epsilon = 2, tau = 1.5, kernel = d$k, grid = d$t, id = "patient",
                      arg = "day", value = "score"))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  # default kernel (from the range of the grid) and exact noise
  r <- cb_same(3, dp_cov(d$cu, epsilon = 1, tau = 1, J = 5, noise = "exact"),
               dp_cov(dp_chunks(list(d$long[1:170, ], d$long[-(1:170), ])), epsilon = 1, tau = 1, J = 5,
                      noise = "exact", grid = d$t, id = "patient", arg = "day", value = "score"))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  expect_true(isTRUE(r[[2]]$noise_exact))
  # noise is added: the release differs from the non-private estimate
  sm <- summarise_cov(d$cu, tau = 1, kernel = d$k, J = 6)
  S <- sm$sums[, -1] / 50 - tcrossprod(sm$sums[, 1] / 50)
  r <- cb_same(4, NULL, dp_cov(sm, epsilon = 1, tau = 1, kernel = d$k, J = 6))[[2]]
  expect_gt(max(abs(r$coefficients - S)), 1e-6)
  # charged to a budget as in memory
  b1 <- privacy_budget(10)
  b2 <- privacy_budget(10)
  with_seed_mode(5, dp_cov(d$cu, epsilon = 1, tau = 1, kernel = d$k, J = 6, budget = b1))
  with_seed_mode(5, dp_cov(sm, epsilon = 1, tau = 1, kernel = d$k, J = 6, budget = b2))
  expect_equal(budget_spent(b2), budget_spent(b1))
})

test_that("dp_cov on data outside memory: bad input", {
  d <- cb_data()
  sm <- summarise_cov(d$cu, tau = 1, kernel = d$k, J = 6)
  expect_error(dp_cov(sm, epsilon = 1, tau = 2, kernel = d$k, J = 6), class = "dpfda_error_argument")
  expect_error(dp_cov(sm, epsilon = 1, tau = 1, kernel = d$k, J = 5), class = "dpfda_error_argument")
  expect_error(dp_cov(sm, epsilon = 1, tau = 1, kernel = kernel_matern(3 / 2, 0.3), J = 6),
               class = "dpfda_error_argument")
  expect_error(dp_cov(summarise_mean(d$cu, tau = 1), epsilon = 1, tau = 1), class = "dpfda_error_argument")
  ch <- function() dp_chunks(list(d$long))
  expect_error(dp_cov(ch(), epsilon = 1, tau = 1, id = "patient", arg = "day", value = "score"),
               class = "dpfda_error_argument")                                         # no grid
  expect_error(dp_cov(ch(), epsilon = 1, tau = 1, grid = d$t, id = "nope", arg = "day", value = "score"),
               class = "dpfda_error_argument")                                         # missing column
  expect_error(dp_cov(ch(), epsilon = 1, tau = 1, grid = d$t, id = "patient", arg = "day", value = "score",
                      colour = 1), class = "dpfda_error_argument")                     # unknown argument
  expect_error(dp_cov(d$cu, epsilon = 1, tau = 1, colour = 1), class = "dpfda_error_argument")
  bad <- transform(d$long, score = as.character(score))
  expect_error(summarise_cov(bad, d$t, 1, d$k, 6, "patient", "day", "score"), class = "dpfda_error_data")
  na <- d$long
  na$score[c(5, 40)] <- NA
  expect_warning(s <- summarise_cov(dp_chunks(list(na)), d$t, 1, d$k, 6, "patient", "day", "score"),
                 class = "dpfda_warning_data")
  expect_equal(s$dropped, 2)
  expect_equal(s$missing_cells, 2)
  expect_equal(s$sums, summarise_cov(na[!is.na(na$score), ], d$t, 1, d$k, 6, "patient", "day", "score")$sums,
               tolerance = 1e-12)
  # the two absent cells: refused at the release, as curves that do not cover the grid in memory
  expect_error(dp_cov(s, epsilon = 1, tau = 1, kernel = d$k, J = 6), class = "dpfda_error_data")
  allna <- transform(d$long[1:34, ], score = NA_real_)                     # every row dropped: no individuals
  expect_error(suppressWarnings(dp_cov(dp_chunks(list(allna)), epsilon = 1, tau = 1, grid = d$t, id = "patient",
                                       arg = "day", value = "score")), class = "dpfda_error_data")
  expect_error(summarise_cov(d$long, NULL, 1, d$k, 6, "patient", "day", "score"), class = "dpfda_error_argument")
  expect_error(summarise_cov(d$cu, tau = -1), class = "dpfda_error_argument")
  expect_error(summarise_cov(d$long, seq(0, 1, length.out = 600), 1, d$k, 20, "patient", "day", "score"),
               class = "dpfda_error_numeric")                   # tensor basis too large (J = NULL takes 9)
})

test_that("binning-regression summary: memory, data frame, chunks and parts agree; clamping", {
  d <- cb_data()
  p <- d$pts
  s <- summarise_bin_regression(cbind(p$u, p$v), p$resp, c(5, 4), c(-2, 3), d$dom2)
  sm <- dpfda:::bin_summary(cbind(p$u, p$v), p$resp, c(5L, 4L), d$dom2, c(-2, 3))
  expect_equal(unname(s$sums[, 1]), as.double(sm$counts))
  expect_equal(unname(s$sums[, 2]), sm$sums, tolerance = 1e-12)
  expect_equal(sum(s$sums[, 1]), 400)
  expect_lte(max(abs(s$sums[, 2]) / pmax(s$sums[, 1], 1)), 3)              # clamped to y_bound
  sf <- summarise_bin_regression(p, "resp", c(5, 4), c(-2, 3), d$dom2, columns = c("u", "v"))
  expect_equal(sf$sums, s$sums, tolerance = 1e-12)
  sp <- summarise_bin_regression(p[1:150, ], "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v")) +
    summarise_bin_regression(p[-(1:150), ], "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v"))
  expect_equal(sp$sums, s$sums, tolerance = 1e-12)
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  utils::write.csv(p, f, row.names = FALSE)
  sc <- summarise_bin_regression(csv_chunks(f, rows = 70), "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v"))
  expect_equal(sc$sums, s$sums, tolerance = 1e-12)
  expect_equal(sc$n, 400)
  expect_error(s + summarise_bin_regression(p, "resp", c(5, 4), c(-2, 2), d$dom2, c("u", "v")),
               class = "dpfda_error_argument")
})

test_that("dp_bin_regression from a summary or chunks equals the in-memory release", {
  d <- cb_data()
  p <- d$pts
  for (noise in c("float", "exact")) {
    r <- cb_same(11, dp_bin_regression(p$u, p$resp, 8, c(-2, 3), 1, c(0, 1), newdata = c(0.1, 0.5), noise = noise),
                 dp_bin_regression(dp_chunks(list(p[1:99, ], p[-(1:99), ])), "resp", 8, c(-2, 3), 1, c(0, 1),
                                   newdata = c(0.1, 0.5), noise = noise, columns = "u"))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9, info = noise)
    expect_identical(r[[2]]$counts, r[[1]]$counts)
    expect_equal(r[[2]]$laplace_scale, r[[1]]$laplace_scale)
    expect_equal(r[[2]]$noise_scale, r[[1]]$noise_scale)
    expect_equal(r[[2]]$predictions, r[[1]]$predictions, tolerance = 1e-9)
  }
  s <- summarise_bin_regression(p, "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v"))
  r <- cb_same(12, dp_bin_regression(cbind(p$u, p$v), p$resp, c(5, 4), c(-2, 3), 1, d$dom2, method = "integral"),
               dp_bin_regression(s, epsilon = 1, method = "integral"))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  expect_equal(r[[2]]$fit$lengthscale, r[[1]]$fit$lengthscale, tolerance = 1e-6)
  # the noise is that of the in-memory mechanism: scale d / (n_b epsilon) on the means
  expect_equal(r[[2]]$laplace_scale[r[[2]]$counts > 0], 5 / (r[[2]]$counts[r[[2]]$counts > 0] * 1))
  expect_false(isTRUE(all.equal(r[[2]]$values$values[1, s$sums[, 1] > 0],
                                (s$sums[, 2] / s$sums[, 1])[s$sums[, 1] > 0])))
  b1 <- privacy_budget(3)
  b2 <- privacy_budget(3)
  with_seed_mode(13, dp_bin_regression(cbind(p$u, p$v), p$resp, c(5, 4), c(-2, 3), 1, d$dom2, budget = b1))
  with_seed_mode(13, dp_bin_regression(s, epsilon = 1, budget = b2))
  expect_equal(budget_spent(b2), budget_spent(b1))
})

test_that("dp_bin_regression on data outside memory: bad input, missing values", {
  d <- cb_data()
  p <- d$pts
  s <- summarise_bin_regression(p, "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v"))
  expect_error(dp_bin_regression(s, epsilon = 1, bins = 6), class = "dpfda_error_argument")
  expect_error(dp_bin_regression(s, epsilon = 1, y_bound = c(-1, 1)), class = "dpfda_error_argument")
  expect_error(dp_bin_regression(s, epsilon = 1, domain = rbind(c(0, 0), c(1, 1))), class = "dpfda_error_argument")
  expect_error(dp_bin_regression(s), class = "dpfda_error_argument")                          # no epsilon
  expect_error(dp_bin_regression(s, epsilon = 1, lengthscale = -1, method = "integral"),
               class = "dpfda_error_argument")
  ch <- function(x = p) dp_chunks(list(x))
  expect_error(dp_bin_regression(ch(), "resp", 5, c(-2, 3), 1, c(0, 1)), class = "dpfda_error_argument")  # columns
  expect_error(dp_bin_regression(ch(), "resp", 5, c(-2, 3), 1, columns = "u"), class = "dpfda_error_argument")
  expect_error(dp_bin_regression(ch(), "nope", 5, c(-2, 3), 1, c(0, 1), columns = "u"),
               class = "dpfda_error_argument")
  expect_error(dp_bin_regression(ch(), "resp", 5, c(-2, 3), 1, c(0, 1), columns = "w"),
               class = "dpfda_error_argument")
  expect_error(dp_bin_regression(ch(transform(p, u = as.character(u))), "resp", 5, c(-2, 3), 1, c(0, 1),
                                 columns = "u"), class = "dpfda_error_data")
  expect_error(summarise_bin_regression(p, "resp", 5, c(3, -2), c(0, 1), "u"), class = "dpfda_error_argument")
  expect_error(summarise_bin_regression(p$u, p$resp[-1], 5, c(-2, 3), c(0, 1)), class = "dpfda_error_argument")
  # a missing input drops the row (inputs are public); a missing output is set
  # to the midpoint of y_bound, so that the public counts do not depend on it
  na <- p
  na$u[7] <- NA
  na$resp[c(8, 9)] <- NA
  expect_warning(expect_warning(sn <- summarise_bin_regression(ch(na), "resp", c(5, 4), c(-2, 3), d$dom2,
                                                               c("u", "v")), class = "dpfda_warning_data"),
                 class = "dpfda_warning_data")
  expect_equal(sn$dropped, 1)
  expect_equal(sn$missing_y, 2)
  expect_equal(sn$n, 399)
  ref <- p[-7, ]
  ref$resp[c(7, 8)] <- 0.5
  expect_equal(sn$sums, summarise_bin_regression(ref, "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v"))$sums,
               tolerance = 1e-12)
  na2 <- p
  na2$resp[10] <- NA
  expect_warning(s2 <- summarise_bin_regression(na2, "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v")),
                 class = "dpfda_warning_data")
  expect_identical(s2$sums[, 1], s$sums[, 1])                                 # counts unchanged
  expect_warning(s3 <- summarise_bin_regression(cbind(p$u, p$v), na2$resp, c(5, 4), c(-2, 3), d$dom2),
                 class = "dpfda_warning_data")                                # in memory: the same rule
  expect_equal(s3$sums, s2$sums, tolerance = 1e-12)
  expect_equal(s3$missing_y, 1)
})

# ---- database engines -----------------------------------------------------------

cb_engine_checks <- function(con) {
  d <- cb_data()
  DBI::dbWriteTable(con, "visits", d$long, overwrite = TRUE)
  vis <- dplyr::tbl(con, "visits")
  s <- summarise_cov(d$cu, tau = 1, kernel = d$k, J = 6)
  se <- summarise_cov(vis, d$t, 1, d$k, 6, "patient", "day", "score")
  expect_equal(se$sums, s$sums, tolerance = 1e-9)
  expect_equal(se$n, 50)
  expect_equal(se$missing_cells, 0)
  expect_equal(se$rows, nrow(d$long))
  for (centered in c(TRUE, FALSE)) {
    r <- cb_same(21, dp_cov(d$cu, epsilon = 1, tau = 1, kernel = d$k, J = 6, centered = centered),
                 dp_cov(vis, epsilon = 1, tau = 1, kernel = d$k, J = 6, centered = centered, grid = d$t,
                        id = "patient", arg = "day", value = "score"))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
    expect_equal(r[[2]]$sensitivity, r[[1]]$sensitivity)
  }
  # rows between the grid points and beyond its reach (left out, with a warning), a non-uniform grid,
  # a missing cell
  out <- rbind(d$long[-3, ], data.frame(patient = c(1, 2, 2), day = c(-3, 5, 0.51), score = c(10, -10, 4)))
  DBI::dbWriteTable(con, "visits2", out, overwrite = TRUE)
  beyond <- function(code) expect_warning(code, "2 rows of long data lie beyond", class = "dpfda_warning_data")
  for (g in list(c(0, 0.1, 0.25, 0.5, 0.8, 1), d$t)) {
    beyond(a <- summarise_cov(dplyr::tbl(con, "visits2"), g, 2, d$k, NULL, "patient", "day", "score"))
    beyond(b <- summarise_cov(out, g, 2, d$k, NULL, "patient", "day", "score"))
    expect_equal(a$sums, b$sums, tolerance = 1e-9)
    expect_equal(a$missing_cells, b$missing_cells)
  }
  # more than 500 products: the sums of products come back in several queries
  g40 <- seq(0, 1, length.out = 40)
  beyond(a <- summarise_cov(dplyr::tbl(con, "visits2"), g40, 2, d$k, 33, "patient", "day", "score"))
  beyond(b <- summarise_cov(out, g40, 2, d$k, 33, "patient", "day", "score"))
  expect_equal(a$sums, b$sums, tolerance = 1e-9)
  # binning regression, 1-D and 2-D, clamping of inputs and outputs
  p <- d$pts
  DBI::dbWriteTable(con, "pts", p, overwrite = TRUE)
  pt <- dplyr::tbl(con, "pts")
  sb <- summarise_bin_regression(pt, "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v"))
  expect_equal(sb$sums, summarise_bin_regression(p, "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v"))$sums,
               tolerance = 1e-9)
  expect_equal(sb$n, 400)
  for (noise in c("float", "exact")) {
    r <- cb_same(22, dp_bin_regression(p$u, p$resp, 8, c(-2, 3), 1, c(0, 1), noise = noise),
                 dp_bin_regression(pt, "resp", 8, c(-2, 3), 1, c(0, 1), noise = noise, columns = "u"))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
    expect_identical(r[[2]]$counts, r[[1]]$counts)
  }
  r <- cb_same(23, dp_bin_regression(cbind(p$u, p$v), p$resp, c(5, 4), c(-2, 3), 1, d$dom2),
               dp_bin_regression(pt, "resp", c(5, 4), c(-2, 3), 1, d$dom2, columns = c("u", "v")))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  # column names as bare names (the rule of ?as_curves), also through a variable holding a name
  r2 <- cb_same(23, dp_bin_regression(pt, "resp", c(5, 4), c(-2, 3), 1, d$dom2, columns = c("u", "v")),
                dp_bin_regression(pt, resp, c(5, 4), c(-2, 3), 1, d$dom2, columns = c(u, v)))
  expect_equal(r2[[2]]$values$values, r2[[1]]$values$values, tolerance = 1e-12)   # DuckDB sums in parallel: order varies
  ycol <- "resp"
  r3 <- cb_same(24, dp_bin_regression(pt, "resp", 8, c(-2, 3), 1, c(0, 1), columns = "u"),
                dp_bin_regression(pt, ycol, 8, c(-2, 3), 1, c(0, 1), columns = u))
  expect_equal(r3[[2]]$values$values, r3[[1]]$values$values, tolerance = 1e-12)   # DuckDB sums in parallel: order varies
  expect_error(dp_bin_regression(pt, nope, 8, c(-2, 3), 1, c(0, 1), columns = u), class = "dpfda_error_argument")
  rc <- cb_same(25, dp_cov(vis, epsilon = 1, tau = 1, kernel = d$k, J = 6, grid = d$t,
                           id = "patient", arg = "day", value = "score"),
                dp_cov(vis, epsilon = 1, tau = 1, kernel = d$k, J = 6, grid = d$t, id = patient, arg = day,
                       value = score))
  expect_equal(rc[[2]]$values$values, rc[[1]]$values$values, tolerance = 1e-12)   # DuckDB sums in parallel: order varies
  # NULLs: input dropped and counted, output at the midpoint and counted
  na <- p
  na$u[7] <- NA
  na$resp[c(8, 9)] <- NA
  DBI::dbWriteTable(con, "pts_na", na, overwrite = TRUE)
  ws <- character()
  sn <- withCallingHandlers(
    summarise_bin_regression(dplyr::tbl(con, "pts_na"), "resp", c(5, 4), c(-2, 3), d$dom2, c("u", "v")),
    dpfda_warning_data = function(w) {
      ws <<- c(ws, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  expect_length(ws, 2L)
  expect_equal(c(sn$dropped, sn$missing_y, sn$n, sn$rows), c(1, 2, 399, 400))
  expect_equal(sn$sums, suppressWarnings(summarise_bin_regression(na, "resp", c(5, 4), c(-2, 3), d$dom2,
                                                                  c("u", "v")))$sums, tolerance = 1e-9)
  invisible(TRUE)
}

test_engines("dp_cov and dp_bin_regression on a table equal the in-memory release", cb_engine_checks)

test_engines("bad input in a table for dp_cov and dp_bin_regression", function(con) {
  d <- cb_data()
  DBI::dbWriteTable(con, "bad", transform(d$long, txt = "a", score = ifelse(seq_along(score) %in% c(3, 30), NA,
                                                                             score)))
  tb <- dplyr::tbl(con, "bad")
  expect_error(dp_cov(tb, epsilon = 1, tau = 1, grid = d$t, id = "patient", arg = "day", value = "nope"),
               class = "dpfda_error_argument")
  expect_error(dp_cov(tb, epsilon = 1, tau = 1, grid = d$t, id = "patient", arg = "day", value = "txt"),
               class = "dpfda_error_data")
  expect_warning(s <- summarise_cov(tb, d$t, 1, d$k, 6, "patient", "day", "score"), class = "dpfda_warning_data")
  expect_equal(c(s$dropped, s$rows, s$missing_cells), c(2, nrow(d$long), 2))
  DBI::dbWriteTable(con, "allnull", data.frame(patient = 1:3, day = 0.5, score = NA_real_))
  expect_error(suppressWarnings(dp_cov(dplyr::tbl(con, "allnull"), epsilon = 1, tau = 1, grid = d$t, id = "patient",
                                       arg = "day", value = "score")), class = "dpfda_error_data")
  expect_error(dp_bin_regression(tb, "score", 5, c(-2, 2), 1, c(0, 1), columns = "txt"), class = "dpfda_error_data")
  expect_error(dp_bin_regression(tb, "txt", 5, c(-2, 2), 1, c(0, 1), columns = "day"), class = "dpfda_error_data")
  expect_error(dp_bin_regression(tb, "score", 5, c(-2, 2), 1, c(0, 1), columns = "nope"),
               class = "dpfda_error_argument")
})

test_that("the SQL of the covariance and binning summaries for PostgreSQL and Spark", {
  skip_if_not_installed("dbplyr", "2.5.0")
  df <- data.frame(id = 1, arg = 0.5, value = 1, x = 0.2, y = 0.1)
  g <- seq(0, 1, length.out = 11)
  cons <- list(postgres = dbplyr::simulate_postgres())
  if (exists("simulate_spark_sql", asNamespace("dbplyr"))) cons$spark <- dbplyr::simulate_spark_sql()
  for (nm in names(cons)) {
    t <- dbplyr::tbl_lazy(df, con = cons[[nm]])
    q <- dbplyr::sql_render(summarise_cov(t, g, 1, kernel_matern(3 / 2, 0.2), 4, .query = TRUE))
    expect_match(q, "PARTITION BY", fixed = TRUE, info = nm)          # the per-individual norm
    expect_match(q, "SQRT", ignore.case = TRUE, info = nm)            # radial clipping
    expect_match(q, "JOIN", fixed = TRUE, info = nm)                  # the public projection matrix,
    expect_match(q, if (nm == "spark") "AS DOUBLE)" else "AS DOUBLE PRECISION)", fixed = TRUE, info = nm)   # typed
    expect_match(q, "FROM (VALUES (CAST(0.0 AS", fixed = TRUE, info = nm)
    expect_match(q, "q4_4", fixed = TRUE, info = nm)                  # J (J + 1) / 2 sums of products
    expect_false(grepl("q4_3", q, fixed = TRUE))
    q <- dbplyr::sql_render(summarise_bin_regression(t, "y", c(4, 3), c(-1, 1), rbind(c(0, 0), c(1, 1)),
                                                     c("x", "arg"), .query = TRUE))
    expect_match(q, "FLOOR", ignore.case = TRUE, info = nm)
    expect_match(q, "GREATEST", fixed = TRUE, info = nm)              # clamping
    expect_match(q, "COALESCE", fixed = TRUE, info = nm)              # missing outputs at the midpoint
    expect_match(q, "GROUP BY", fixed = TRUE, info = nm)
  }
})

test_engines("the covariance's sums of products split over several queries (J = 70) agree with memory", function(con) {
  # 70 * 71 / 2 = 2485 sums of products: more than one query holds on any engine (sq_max_columns())
  old <- dp_reproducible(32)
  on.exit(dp_rng(old))
  t <- seq(0, 1, length.out = 70)
  X <- outer(runif(12, 0.2, 2), sin(2 * pi * t)) + matrix(rnorm(12 * 70, 0, 0.3), 12)
  long <- data.frame(who = rep(seq_len(12), 70), t = rep(t, each = 12), y = as.vector(X))
  DBI::dbWriteTable(con, "wide_cov", long, overwrite = TRUE)
  k <- kernel_matern(3 / 2, 0.05)
  se <- summarise_cov(dplyr::tbl(con, "wide_cov"), t, 3, k, 70, "who", "t", "y")
  sm <- summarise_cov(long, t, 3, k, 70, "who", "t", "y")
  expect_gt(70 * 71 / 2, dpfda:::sq_max_columns(con))
  expect_equal(dim(se$sums), c(70L, 71L))
  expect_equal(se$sums, sm$sums, tolerance = 1e-9)
  expect_equal(se$n, 12)
})

test_that("SQLite: the covariance's projection pivots the cells or looks P up by a CASE tree, alike", {
  # m <= 5 J: the cells pivoted by grid index (the J sums share the m pivots); otherwise a CASE tree
  # per component (R/summary-cov.R, sql_cell_projection())
  set.seed(33)
  t <- seq(0, 1, length.out = 11)
  X <- outer(runif(30, 0.2, 2), sin(2 * pi * t)) + matrix(rnorm(30 * 11, 0, 0.3), 30)
  long <- data.frame(id = rep(seq_len(30), 11), arg = rep(t, each = 30), value = as.vector(X))
  tb <- sqlite_tbl(long)
  k <- kernel_matern(3 / 2, 0.2)
  for (J in c(2L, 3L, 11L)) {
    q <- dbplyr::sql_render(summarise_cov(tb, t, 2, k, J, .query = TRUE))
    pivot <- grepl("SUM(CASE WHEN `k` = 10 THEN `c` ELSE 0 END) * ", q, fixed = TRUE)
    expect_identical(pivot, J >= 3L, info = J)
    expect_identical(grepl("END AS `p1`", q, fixed = TRUE), !pivot, info = J)   # (the tree's column)
    expect_equal(summarise_cov(tb, t, 2, k, J)$sums, summarise_cov(long, t, 2, k, J)$sums, tolerance = 1e-9,
                 info = J)
  }
})

test_that("SQL sums are nested in halves, within SQLite's expression depth", {
  terms <- as.character(1:100)
  s <- dpfda:::sql_sum_nested(terms)
  expect_equal(eval(parse(text = s)), sum(1:100))
  ch <- strsplit(s, "")[[1]]
  expect_lte(max(cumsum((ch == "(") - (ch == ")"))), 6)
  expect_identical(dpfda:::sql_sum_nested(character()), "0.0")
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  # a flat sum of 1200 terms is 1200 deep: "Expression tree is too large (maximum depth 1000)"
  terms <- sprintf("%d.0", 1:1200)
  expect_error(DBI::dbGetQuery(con, paste("SELECT", paste(terms, collapse = " + "))), "too large")
  expect_equal(DBI::dbGetQuery(con, paste("SELECT", dpfda:::sql_sum_nested(terms), "AS s"))$s, sum(1:1200))
})
