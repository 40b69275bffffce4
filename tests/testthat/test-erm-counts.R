# dp_krr(counts =), dp_svm(counts =) and their non-private fits: a frequency table of rows (each row
# stands for `counts` records with the same covariates and response). Row i weighs c_i in the loss and
# n = sum(c) counts records, so the fit and the release are those of the rows repeated, and replacing
# one record moves the fit by at most the sensitivity of one record among n.

erm_table <- function(seed = 3) {
  set.seed(seed)
  x <- round(stats::runif(25), 2)
  y <- sin(2 * pi * x) + stats::rnorm(25, sd = 0.3)
  cnt <- sample(0:6, 25, replace = TRUE)
  cnt[1L] <- 6
  list(x = x, y = y, cnt = cnt, rx = rep(x, cnt), ry = rep(y, cnt), N = as.integer(sum(cnt)))
}

test_that("KRR with counts is the KRR of the repeated rows: fit, sensitivity, release and print", {
  d <- erm_table()
  k <- kernel_gaussian(0.1)
  g <- seq(0, 1, length.out = 31)
  f_tab <- krr_fit(d$x, d$y, 0.05, k, c(-2, 2), counts = d$cnt)
  f_rep <- krr_fit(d$rx, d$ry, 0.05, k, c(-2, 2))
  expect_equal(predict(f_tab, g), predict(f_rep, g), tolerance = 1e-9)
  a <- with_seed_mode(4, dp_krr(d$x, d$y, 0.05, k, g, c(-2, 2), epsilon = 1, delta = 1e-5, counts = d$cnt))
  b <- with_seed_mode(4, dp_krr(d$rx, d$ry, 0.05, k, g, c(-2, 2), epsilon = 1, delta = 1e-5))
  expect_identical(a$n, b$n)
  expect_identical(a$n, d$N)
  expect_identical(a$sensitivity, b$sensitivity)   # (the n of records, not the 25 rows: less noise, and right)
  expect_identical(a$noise_scale, b$noise_scale)
  expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
  expect_identical(a$privacy_unit, sprintf("one record (%d)", d$N))
  expect_output(print(a), sprintf("one record (%d)", d$N), fixed = TRUE)
  # a formula with the counts as a column of `data`, bare or as a string
  tab <- data.frame(x = d$x, y = d$y, n = d$cnt)
  c1 <- with_seed_mode(4, dp_krr(y ~ x, data = tab, lambda = 0.05, kernel = k, grid = g, y_bound = c(-2, 2),
                                 epsilon = 1, delta = 1e-5, counts = n))
  c2 <- with_seed_mode(4, dp_krr(y ~ x, data = tab, lambda = 0.05, kernel = k, grid = g, y_bound = c(-2, 2),
                                 epsilon = 1, delta = 1e-5, counts = "n"))
  expect_equal(c1$values$values, a$values$values, tolerance = 1e-12)
  expect_equal(c2$values$values, a$values$values, tolerance = 1e-12)
})

test_that("KRR with counts: replacing one record moves the fit by at most the sensitivity of one record in N", {
  d <- erm_table()
  k <- kernel_gaussian(0.1)
  lambda <- 50   # the bound is nearly reached at a large lambda
  # neighbour: one record of the first row (count 6) moves to x = 0.9 with a response far below the bound
  x2 <- c(d$x, 0.9)
  y2 <- c(d$y, -1e6)
  c1 <- c(d$cnt, 0)
  c2 <- c(d$cnt[1L] - 1, d$cnt[-1L], 1)
  f1 <- krr_fit(x2, y2, lambda, k, c(-1, 1), counts = c1)
  f2 <- krr_fit(x2, y2, lambda, k, c(-1, 1), counts = c2)
  sens <- sensitivity_krr(1, lambda, d$N, k$variance)
  dist <- rkhs_distance(k, f1$x, f1$coefficients, f2$x, f2$coefficients)
  expect_lte(dist, sens)
  expect_gt(dist, 0.5 * sens)
  # the zero count of the extra row leaves it out: the fit of the table without that row
  f0 <- krr_fit(d$x, d$y, lambda, k, c(-1, 1), counts = d$cnt)
  expect_equal(predict(f1, seq(0, 1, 0.1)), predict(f0, seq(0, 1, 0.1)), tolerance = 1e-12)
})

test_that("SVM with counts is the SVM of the repeated rows, to the solver's gap", {
  d <- erm_table(8)
  lab <- ifelse(d$y > 0, 1, -1)
  k <- kernel_gaussian(0.15)
  g <- seq(0, 1, length.out = 31)
  f_tab <- svm_fit(d$x, lab, 0.05, k, gap_tol = 1e-12, counts = d$cnt)
  f_rep <- svm_fit(d$rx, rep(lab, d$cnt), 0.05, k, gap_tol = 1e-12)
  # ||f_tab - f_rep||_H <= sqrt(gap_tab / lambda) + sqrt(gap_rep / lambda)
  expect_lte(max(abs(predict(f_tab, g) - predict(f_rep, g))), 2 * sqrt(1e-12 / 0.05))
  a <- with_seed_mode(2, dp_svm(d$x, lab, 0.05, k, g, epsilon = 1, delta = 1e-5, counts = d$cnt))
  b <- with_seed_mode(2, dp_svm(d$rx, rep(lab, d$cnt), 0.05, k, g, epsilon = 1, delta = 1e-5))
  expect_identical(a$sensitivity, b$sensitivity)
  expect_identical(a$n, d$N)
  expect_lte(max(abs(a$values$values - b$values$values)), 2 * sqrt(1e-8 / 0.05))
  expect_identical(a$privacy_unit, sprintf("one record (%d)", d$N))
  # the order of the table's rows does not matter
  o <- rev(seq_along(d$x))
  a2 <- with_seed_mode(2, dp_svm(d$x[o], lab[o], 0.05, k, g, epsilon = 1, delta = 1e-5, counts = d$cnt[o]))
  expect_equal(a2$values$values, a$values$values, tolerance = 1e-12)
})

test_that("bad counts in the regressions are classed errors that name them", {
  d <- erm_table()
  k <- kernel_gaussian(0.1)
  g <- seq(0, 1, 0.1)
  krr <- function(...) dp_krr(d$x, d$y, 0.05, k, g, c(-2, 2), epsilon = 1, delta = 1e-5, ...)
  expect_error(krr(counts = d$cnt, unit = seq_along(d$x)), class = "dpfda_error_argument", regexp = "not both")
  expect_error(krr(counts = d$cnt[-1]), class = "dpfda_error_argument", regexp = "one count")
  expect_error(krr(counts = replace(d$cnt, 2, NA)), class = "dpfda_error_argument", regexp = "`counts`")
  expect_error(krr(counts = replace(d$cnt, 2, -1)), class = "dpfda_error_data", regexp = "whole numbers")
  expect_error(krr(counts = replace(d$cnt, 2, 1.5)), class = "dpfda_error_data", regexp = "whole numbers")
  expect_error(krr(counts = 0 * d$cnt), class = "dpfda_error_data", regexp = "0 records")
  expect_error(krr(counts = as.character(d$cnt)), class = "dpfda_error_argument", regexp = "numeric")
  expect_error(dp_svm(d$x, sign(d$y), 0.05, k, g, epsilon = 1, delta = 1e-5, counts = nn),
               class = "dpfda_error_argument", regexp = "not a variable")
  tab <- data.frame(x = d$x, y = d$y, n = d$cnt)
  expect_error(dp_krr(y ~ x, data = tab, lambda = 0.05, kernel = k, grid = g, y_bound = c(-2, 2), epsilon = 1,
                      delta = 1e-5, counts = "nn"), class = "dpfda_error_argument", regexp = "nn")
})
