# dp_krr(unit =), dp_svm(unit =): one person with several rows (issue 31's person-level privacy,
# carried to the regularised risk minimisers of Hall et al., Section 4.3). Each unit's rows weigh
# 1 / (its rows) in the loss and n counts units; replacing every row of one unit then moves the fit
# by at most the sensitivity of one row with n units, in RKHS norm.

# dp_krr()'s sensitivity 2 B kappa (1 + kappa / sqrt(lambda)) / (lambda n), kappa = 1 (written out here)
sensitivity_krr_ref <- function(B, lambda, n) (2 * B * (1 + 1 / sqrt(lambda))) * 1 / (lambda * n)

erm_unit_data <- function(n_units = 30, seed = 5, big = 8) {
  set.seed(seed)
  k <- c(big, sample(1:4, n_units - 1L, replace = TRUE))
  person <- rep(seq_len(n_units), k)
  x <- stats::runif(length(person))
  x[person == 1L] <- 0.5   # the largest person's rows at one place: their losses pull together
  list(x = x, person = person, k = k)
}

test_that("KRR: replacing all rows of the largest person moves the unit fit by at most its sensitivity", {
  d <- erm_unit_data()
  lambda <- 50   # a large lambda makes the bound nearly tight (f is about y / (n lambda))
  k <- kernel_gaussian(0.1)
  yb <- c(-1, 1)
  y <- ifelse(d$x > 0.4, 1, -1)
  swap <- y
  swap[d$person == 1L] <- -1e6   # every output of person 1 to far below the bound (clipped to -1)
  n_units <- length(d$k)
  sens_unit <- sensitivity_krr_ref(1, lambda, n_units)
  sens_row <- sensitivity_krr_ref(1, lambda, length(y))
  f1 <- krr_fit(d$x, y, lambda, k, yb, unit = d$person)
  f2 <- krr_fit(d$x, swap, lambda, k, yb, unit = d$person)
  dist_unit <- rkhs_distance(k, f1$x, f1$coefficients, f2$x, f2$coefficients)
  expect_lte(dist_unit, sens_unit)
  expect_gt(dist_unit, 0.8 * sens_unit)   # (a test that can fail: the bound is nearly reached)
  # without the unit the same swap moves the fit by about 8 row sensitivities: protected as 8 people
  r1 <- krr_fit(d$x, y, lambda, k, yb)
  r2 <- krr_fit(d$x, swap, lambda, k, yb)
  expect_gt(rkhs_distance(k, r1$x, r1$coefficients, r2$x, r2$coefficients), 5 * sens_row)
  # the release is calibrated to the unit sensitivity, exactly
  g <- seq(0, 1, length.out = 41)
  rel <- function(yy) with_seed_mode(7, dp_krr(d$x, yy, lambda, k, g, yb, epsilon = 1, delta = 1e-5,
                                               unit = d$person))
  a <- rel(y)
  b <- rel(swap)
  expect_equal(a$sensitivity, sens_unit, tolerance = 1e-14)
  expect_equal(a$noise_scale, dp_noise_scale(sens_unit, 1, 1e-5), tolerance = 1e-14)
  expect_equal(a$n, n_units)
  expect_match(a$privacy_unit, "person (30 units)", fixed = TRUE)   # (named after `d$person`)
  # the same draw of noise: the releases differ by f1 - f2 on the grid, at most kappa * ||f1 - f2||_H
  expect_equal(as.vector(a$values$values - b$values$values), predict(f1, g) - predict(f2, g), tolerance = 1e-9)
  expect_lte(max(abs(a$values$values - b$values$values)), sens_unit * (1 + 1e-9))
})

test_that("SVM: replacing all rows of the largest person moves the unit fit by at most its sensitivity", {
  d <- erm_unit_data()
  lambda <- 1   # every margin below 1: each dual variable at its bound, the bound is reached
  k <- kernel_gaussian(0.1)
  y <- ifelse(d$x > 0.4, 1, -1)
  swap <- y
  swap[d$person == 1L] <- -1   # the 8 rows of person 1 flip their label
  n_units <- length(d$k)
  tol <- 1e-11
  f1 <- svm_fit(d$x, y, lambda, k, gap_tol = tol, unit = d$person)
  f2 <- svm_fit(d$x, swap, lambda, k, gap_tol = tol, unit = d$person)
  bound <- sensitivity_erm(1, lambda, n_units)
  dist_unit <- rkhs_distance(k, f1$x, f1$coefficients, f2$x, f2$coefficients)
  expect_lte(dist_unit, bound + 2 * sqrt(tol / lambda))
  expect_gt(dist_unit, 0.99 * bound)
  r1 <- svm_fit(d$x, y, lambda, k, gap_tol = tol)
  r2 <- svm_fit(d$x, swap, lambda, k, gap_tol = tol)
  # without the unit: 8 times the bound of one row
  expect_gt(rkhs_distance(k, r1$x, r1$coefficients, r2$x, r2$coefficients),
            7.9 * sensitivity_erm(1, lambda, length(y)))
  # the release's sensitivity: one row's with n = units, plus the strict term
  r <- with_seed_mode(3, dp_svm(d$x, y, lambda, k, seq(0, 1, 0.1), epsilon = 1, delta = 1e-5,
                                unit = d$person))
  expect_identical(r$sensitivity, bound + 2 * sqrt(1e-8 / lambda))
  expect_equal(r$n, n_units)
})

test_that("a unit whose rows are copies of one row weighs as that one row (KRR exactly, SVM to its gap)", {
  set.seed(11)
  m <- 40
  x1 <- stats::runif(m)
  y1 <- sin(6 * x1) + stats::rnorm(m, 0, 0.3)
  k <- c(1, sample(1:5, m - 1L, replace = TRUE))
  rep_id <- rep(seq_len(m), k)
  kern <- kernel_gaussian(0.15)
  one <- krr_fit(x1, y1, 0.01, kern, c(-2, 2))
  many <- krr_fit(x1[rep_id], y1[rep_id], 0.01, kern, c(-2, 2), unit = rep_id)
  g <- seq(0, 1, length.out = 30)
  expect_equal(predict(many, g), predict(one, g), tolerance = 1e-9)
  yl <- ifelse(y1 > 0, 1, -1)
  tol <- 1e-11
  s1 <- svm_fit(x1, yl, 0.01, kern, gap_tol = tol)
  sm <- svm_fit(x1[rep_id], yl[rep_id], 0.01, kern, gap_tol = tol, unit = rep_id)
  expect_lte(rkhs_distance(kern, s1$x, s1$coefficients, sm$x, sm$coefficients), 2 * sqrt(tol / 0.01))
  # the weighted dual's box: 0 <= b_i <= 1 / (n_units k_i), and the objective is the weighted one
  expect_true(all(sm$dual >= 0 & sm$dual <= sm$weights * (1 + 1e-12)))
  expect_equal(sum(sm$weights), 1)
  expect_lte(unname(sm$objective["primal"] - sm$objective["dual"]), tol * (1 + 1e-6))
  expect_equal(unname(sm$objective["primal"]), unname(s1$objective["primal"]), tolerance = 1e-6)
})

test_that("one row per unit gives the release without a unit; the order of rows does not matter", {
  set.seed(12)
  n <- 60
  x <- stats::runif(n)
  y <- sin(6 * x) + stats::rnorm(n, 0, 0.3)
  g <- seq(0, 1, length.out = 25)
  kern <- kernel_gaussian(0.15)
  krr <- function(...) with_seed_mode(9, dp_krr(..., lambda = 0.05, kernel = kern, grid = g, y_bound = c(-2, 2),
                                                 epsilon = 1, delta = 1e-5))
  svm <- function(...) with_seed_mode(9, dp_svm(..., lambda = 0.05, kernel = kern, grid = g, epsilon = 1,
                                                 delta = 1e-5))
  expect_identical(krr(x, y, unit = seq_len(n))$values$values, krr(x, y)$values$values)
  yl <- ifelse(y > 0, 1, -1)
  expect_identical(svm(x, yl, unit = seq_len(n))$values$values, svm(x, yl)$values$values)
  # persons of several rows, shuffled: the same release
  person <- sample(1:20, n, replace = TRUE)
  o <- sample.int(n)
  expect_equal(krr(x[o], y[o], unit = person[o])$values$values, krr(x, y, unit = person)$values$values,
               tolerance = 1e-10)
  expect_identical(svm(x[o], yl[o], unit = person[o])$values$values, svm(x, yl, unit = person)$values$values)
  # units given as text, a factor or numbers: the same release
  expect_identical(krr(x, y, unit = paste0("p", person))$values$values, krr(x, y, unit = person)$values$values)
})

test_that("a formula takes the unit as a column of `data`; bad units are classed errors", {
  d <- data.frame(weight = ChickWeight$weight, Time = ChickWeight$Time, Chick = ChickWeight$Chick)
  g <- data.frame(Time = seq(0, 21, length.out = 22))
  rel <- function(...) with_seed_mode(2, dp_krr(..., lambda = 1, kernel = kernel_gaussian(5), grid = g,
                                                 y_bound = c(0, 400), epsilon = 1, delta = 1e-5))
  a <- rel(weight ~ Time, data = d, unit = Chick)
  expect_equal(a$n, 50)
  expect_output(print(a), "privacy unit: Chick (50 units)", fixed = TRUE)
  expect_identical(rel(weight ~ Time, data = d, unit = "Chick")$values$values, a$values$values)
  expect_identical(rel(d$Time, d$weight, unit = d$Chick)$values$values, a$values$values)
  expect_error(rel(weight ~ Time, data = d, unit = Chicken), class = "dpfda_error_argument")
  expect_error(rel(d$Time, d$weight, unit = Chick), "names a column only with a formula",
               class = "dpfda_error_argument")
  expect_error(rel(d$Time, d$weight, unit = d$Chick[-1]), "per row \\(578\\)", class = "dpfda_error_argument")
  u <- as.character(d$Chick)
  u[3] <- NA
  expect_error(rel(d$Time, d$weight, unit = u), class = "dpfda_error_argument")
  expect_error(rel(d$Time, d$weight, unit = list(1)), class = "dpfda_error_argument")
  # a budget records the unit of the charge
  b <- privacy_budget(3, 1e-4)
  rel(weight ~ Time, data = d, unit = Chick, budget = b)
  expect_output(print(b), "a whole Chick")
  # delta against the number of units (50), not the rows (578): 0.03 is above 1/50
  local_privacy_warnings()
  svm <- function(delta, ...) with_seed_mode(2, dp_svm(d$Time, ifelse(d$weight > 100, 1, -1), 1, kernel_gaussian(5),
                                                       0:21, epsilon = 1, delta = delta, ...))
  expect_warning(svm(0.03, unit = d$Chick), "1/n = 0.02", class = "dpfda_warning_delta")
  expect_warning(svm(0.01), class = "dpfda_warning_delta")
  expect_no_warning(svm(0.01, unit = d$Chick))
})

test_that("dp_erm (ICLP): a whole-unit swap moves the ICLP norm by at most the unit sensitivity", {
  set.seed(5)
  np <- 40
  k <- c(10, sample(1:3, np - 1L, replace = TRUE))
  person <- rep(seq_len(np), k)
  x <- stats::runif(length(person))
  x[person == 1L] <- 0.5
  y <- ifelse(x > 0.4, 1, -1)
  y2 <- y
  y2[person == 1L] <- -1   # the 10 rows of person 1 change their response
  g <- seq(0, 1, length.out = 41)
  iclp_norm <- function(r1, r2) sum(abs(r1$coefficients - r2$coefficients) / sqrt(r1$basis$values))
  for (loss in c("square", "logistic")) {
    f <- function(yy, ...) with_seed_mode(3, dp_erm(x, yy, epsilon = 1, psi = 100, grid = g, eta = 2, loss = loss,
                                                    y_bound = if (loss == "square") 1, ...))
    a <- f(y, unit = person)
    b <- f(y2, unit = person)
    expect_lte(iclp_norm(a, b), a$sensitivity)
    expect_gt(iclp_norm(a, b), 0.3 * a$sensitivity)
    expect_equal(a$n, np)
    # without the unit the same swap exceeds the one-row calibration (3.6 and 6.9 times here)
    a0 <- f(y)
    expect_gt(iclp_norm(a0, f(y2)), 3 * a0$sensitivity)
    expect_equal(a$sensitivity * np, a0$sensitivity * length(y), tolerance = 1e-12)
    expect_identical(f(y, unit = seq_along(y))$values, a0$values)
  }
  d <- data.frame(x = x, y = y, who = person)
  r <- with_seed_mode(3, dp_erm(y ~ x, data = d, epsilon = 1, psi = 1, grid = data.frame(x = g), eta = 2,
                                y_bound = 1, unit = who))
  expect_output(print(r), "privacy unit: who (40 units)", fixed = TRUE)
})
