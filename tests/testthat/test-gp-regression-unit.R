# dp_gp_regression(unit =): one person with several rows (issue 31's person-level privacy, carried to
# Smith et al.'s GP regression). The inputs stay public; every output of one unit may move by up to d
# at once, and the noise is calibrated to the largest shift that can make, over the units.

gpu_data <- function(n_units = 20, seed = 2) {
  set.seed(seed)
  k <- c(6, sample(1:3, n_units - 1L, replace = TRUE))
  person <- rep(seq_len(n_units), k)
  x <- stats::runif(length(person))
  x[person == 1L] <- seq(0.45, 0.55, length.out = 6)   # the largest unit's rows close together
  list(x = x, y = sin(6 * x) + stats::rnorm(length(x), 0, 0.2), person = person)
}

gpu_release <- function(d, y = d$y, seed = 4, ...) {
  with_seed_mode(seed, dp_gp_regression(d$x, y, newdata = seq(0, 1, length.out = 15), kernel = kernel_gaussian(0.2),
                                        noise_variance = 0.04, y_bound = c(-2, 2), epsilon = 1, delta = 1e-5, ...))
}

# The FITC cloaking matrix of the sparse release (the package's, internal).
fitc_cloaking_matrix_ref <- function(x, g, m) dpfda:::fitc_cloaking_matrix(x, g, m, kernel_gaussian(0.2), 0.04)

# All sign vectors of length k (rows), for the independent worst case.
all_signs <- function(k) as.matrix(expand.grid(rep(list(c(-1, 1)), k)))

test_that("cloaking with a unit: the worst whole-unit swap reaches the calibrated sensitivity, never more", {
  d <- gpu_data()
  r <- gpu_release(d, unit = d$person)
  # the Mahalanobis norm in M = F F' (F from cloaking_covariance() of the public C, full column rank):
  # ||F^+ v||, by least squares (QR) rather than the package's normal equations
  kern <- kernel_gaussian(0.2)
  C <- kernel_matrix(kern, seq(0, 1, length.out = 15), d$x) %*% solve(kernel_matrix(kern, d$x) + 0.04 * diag(length(d$x)))
  Fm <- cloaking_covariance(C)$factor
  expect_equal(tcrossprod(Fm), r$noise_covariance / r$noise_scale^2, tolerance = 1e-6)   # (M to the solver's tol)
  mahalanobis_m <- function(v) sqrt(sum(qr.coef(qr(Fm), v)^2))
  # the largest unit's worst sign vector, from the outputs' shifts alone (an independent route):
  # release once with the unit's outputs at mid + s d / 2 and once at mid - s d / 2
  rows <- which(d$person == 1L)
  S <- all_signs(length(rows))
  shift <- function(s) {
    y1 <- y2 <- d$y
    y1[rows] <- 2 * s
    y2[rows] <- -2 * s
    mahalanobis_m(as.vector(gpu_release(d, y1, unit = d$person)$values$values -
                              gpu_release(d, y2, unit = d$person)$values$values))
  }
  # (the vertex search, in closed form: C's columns from unit output shifts)
  worst <- max(vapply(seq_len(nrow(S) / 2L), function(j) shift(S[j, ]), 0))
  expect_lte(worst, r$sensitivity * (1 + 1e-6))
  expect_gt(worst, 0.999 * r$sensitivity)   # this unit is the worst one: the bound is reached
  # the row-level release under the same swap moves by far more than its one-row calibration
  r0 <- gpu_release(d)
  y1 <- y2 <- d$y
  y1[rows] <- 2
  y2[rows] <- -2
  # (the same M: the unit's release scales the one-row optimum's noise)
  m0 <- mahalanobis_m(as.vector(gpu_release(d, y1)$values$values - gpu_release(d, y2)$values$values))
  expect_gt(m0, 2.5 * r0$sensitivity)
  expect_equal(r$n, 20)
  expect_output(print(r), "privacy unit: person (20 units)", fixed = TRUE)
})

test_that("standard mechanism with a unit: the RKHS sensitivity is the worst sign vector's", {
  d <- gpu_data()
  kern <- kernel_gaussian(0.2)
  r <- gpu_release(d, unit = d$person, mechanism = "standard")
  # independent: alpha = (K' + s2 I)^-1 y; a unit's output shift s moves f by sum_i (A s)_i k(x_i, .)
  Kp <- kernel_matrix(kern, matrix(d$x))
  A <- solve(Kp + 0.04 * diag(length(d$x)))
  G <- A %*% Kp %*% A
  worst <- 0
  for (u in unique(d$person)) {
    rows <- which(d$person == u)
    S <- all_signs(length(rows))
    worst <- max(worst, max(rowSums((S %*% G[rows, rows, drop = FALSE]) * S)))
  }
  expect_equal(r$sensitivity, 4 * sqrt(worst), tolerance = 1e-8)
  expect_gt(r$sensitivity, 1.5 * gpu_release(d, mechanism = "standard")$sensitivity)
  # "infinity": sqrt(v) times the largest sum over a unit of ||A e_i||_1
  ri <- gpu_release(d, unit = d$person, mechanism = "standard", bound = "infinity")
  expect_equal(ri$sensitivity, 4 * max(rowsum(rowSums(abs(A)), d$person)), tolerance = 1e-8)
  expect_error(gpu_release(d, unit = d$person, mechanism = "standard", bound = "paper_b"),
               class = "dpfda_error_argument")
})

test_that("units of one row give the release without a unit; the order of rows does not matter", {
  d <- gpu_data()
  n <- length(d$x)
  # (paper_b too: it has no version for units of several rows, and was refused for units of one)
  expect_identical(gpu_release(d, unit = seq_len(n), mechanism = "standard", bound = "paper_b")$values,
                   gpu_release(d, mechanism = "standard", bound = "paper_b")$values)
  for (m in c("cloaking", "standard")) {
    expect_identical(gpu_release(d, unit = seq_len(n), mechanism = m)$values,
                     gpu_release(d, mechanism = m)$values)
    o <- sample.int(n)
    ds <- list(x = d$x[o], y = d$y[o], person = d$person[o])
    expect_equal(gpu_release(ds, unit = ds$person, mechanism = m)$values$values,
                 gpu_release(d, unit = d$person, mechanism = m)$values$values, tolerance = 1e-9)
  }
})

test_that("a formula takes the unit from `data`; y_bound = \"auto\" weighs each unit as one", {
  d <- gpu_data(n_units = 150, seed = 8)
  df <- data.frame(t = d$x, v = d$y, who = d$person)
  nd <- data.frame(t = seq(0, 1, length.out = 10))
  f <- function(...) with_seed_mode(5, dp_gp_regression(v ~ t, data = df, newdata = nd, kernel = kernel_gaussian(0.2),
                                                         noise_variance = 0.04, epsilon = 2, delta = 1e-5, ...))
  a <- f(y_bound = c(-2, 2), unit = who)
  m <- with_seed_mode(5, dp_gp_regression(df$t, df$v, newdata = nd$t, kernel = kernel_gaussian(0.2),
                                          noise_variance = 0.04, y_bound = c(-2, 2), epsilon = 2, delta = 1e-5,
                                          unit = df$who))
  expect_identical(m$values$values, a$values$values)
  expect_equal(f(y_bound = c(-2, 2), unit = "who")$values$values, a$values$values)
  au <- f(y_bound = "auto", unit = who, bound_share = 0.3)
  expect_equal(au$n, 150)
  expect_true(all(is.finite(au$y_bound)))
  # one row per unit: the automatic bound and release of the rows without a unit
  df1 <- df[!duplicated(df$who), ]
  g1 <- function(...) with_seed_mode(5, dp_gp_regression(v ~ t, data = df1, newdata = nd, kernel = kernel_gaussian(0.2),
                                                          noise_variance = 0.04, epsilon = 2, delta = 1e-5,
                                                          y_bound = "auto", bound_share = 0.3, ...))
  expect_identical(g1(unit = who)$values, g1()$values)
  expect_error(f(y_bound = c(-2, 2), unit = nobody), class = "dpfda_error_argument")
  expect_error(f(y_bound = c(-2, 2), unit = df$who[-1]), class = "dpfda_error_argument")
})

test_that("the unit shift norm is the exact vertex maximum up to 12 rows and an upper bound above", {
  set.seed(21)
  shift_norm <- dpfda:::unit_shift_norm
  norm_z <- function(Z, codes) shift_norm(function(i) Z[, i, drop = FALSE], function(V, s, idx) colSums(V^2), codes)
  for (k in c(1L, 2L, 5L, 12L, 14L)) {
    Z <- matrix(stats::rnorm(6 * k), 6, k)
    G <- crossprod(Z)
    brute <- sqrt(max(rowSums((all_signs(k) %*% G) * all_signs(k))))
    got <- norm_z(Z, rep(1L, k))
    if (k <= 12L) expect_equal(got, brute, tolerance = 1e-12) else expect_gte(got, brute)
    # the triangle inequality bounds it
    expect_lte(brute, sum(sqrt(diag(G))) * (1 + 1e-12))
  }
  # several units of several sizes, rows interleaved: the largest, each unit searched over its own rows
  Z <- matrix(stats::rnorm(5 * 30), 5, 30)
  codes <- sample(rep(1:9, times = c(1, 2, 3, 4, 5, 6, 4, 3, 2)))
  brute <- max(vapply(1:9, function(u) {
    Zu <- Z[, codes == u, drop = FALSE]
    S <- all_signs(ncol(Zu))
    max(colSums((Zu %*% t(S))^2))
  }, 0))
  expect_equal(norm_z(Z, codes), sqrt(brute), tolerance = 1e-12)
  expect_equal(norm_z(diag(c(1, 2, 3)), c(1L, 1L, 2L)), 3)
  expect_equal(norm_z(diag(c(1, 2, 3)), c(1L, 2L, 2L)), sqrt(13))
})

test_that("exact noise with a unit is calibrated to the unit's sensitivity", {
  d <- gpu_data()
  r <- gpu_release(d, unit = d$person, noise = "exact")
  expect_equal(r$sensitivity, gpu_release(d, unit = d$person)$sensitivity)
  expect_true(isTRUE(r$noise_exact))
})

test_that("sparse (FITC) cloaking with a unit: the worst swap of the largest unit stays within the sensitivity", {
  d <- gpu_data(n_units = 60, seed = 3)
  g <- seq(0, 1, length.out = 12)
  sp <- function(y, ...) with_seed_mode(4, dp_sparse_gp_regression(d$x, y, g, inducing = 8, kernel = kernel_gaussian(0.2),
                                                                    noise_variance = 0.04, y_bound = c(-2, 2),
                                                                    epsilon = 1, delta = 1e-5, ...))
  r <- sp(d$y, unit = d$person)
  r0 <- sp(d$y)
  expect_equal(r$n, 60)
  expect_gt(r$sensitivity, 1.5 * r0$sensitivity)
  expect_identical(sp(d$y, unit = seq_along(d$y))$values, r0$values)
  Fm <- cloaking_covariance(fitc_cloaking_matrix_ref(d$x, g, 8))$factor
  rows <- which(d$person == 1L)
  S <- all_signs(length(rows))
  worst <- max(vapply(seq_len(nrow(S) / 2L), function(j) {
    y1 <- y2 <- d$y
    y1[rows] <- 2 * S[j, ]
    y2[rows] <- -2 * S[j, ]
    sqrt(sum(qr.coef(qr(Fm), as.vector(sp(y1, unit = d$person)$values$values - sp(y2, unit = d$person)$values$values))^2))
  }, 0))
  expect_lte(worst, r$sensitivity * (1 + 1e-6))
})

test_that("dp_gp_select(unit =): folds hold whole units, and the sensitivity covers a whole unit's outputs", {
  d <- gpu_data(n_units = 30, seed = 6)
  cand <- expand.grid(lengthscale = c(0.1, 0.4), noise_variance = c(0.04, 0.3))
  sel <- function(y, folds = 5, ...) with_seed_mode(3, dp_gp_select(d$x, y, cand, y_bound = c(-2, 2), epsilon = 1,
                                                                     folds = folds, include_dp_noise = FALSE, ...))
  s <- sel(d$y, unit = d$person)
  # every unit in one fold
  expect_true(all(tapply(s$folds, d$person, function(f) length(unique(f))) == 1L))
  expect_output(print(s), "privacy unit: person (30 units)", fixed = TRUE)
  # without a unit every record is its own, as the regression's print says (it said nothing)
  s0 <- sel(d$y)
  expect_identical(s0$privacy_unit, sprintf("one record (%d)", length(d$y)))
  expect_identical(glance(s0)$privacy_unit, s0$privacy_unit)
  # the SSE of every candidate moves by at most the sensitivity when all outputs of the largest unit move
  yc <- pmin(pmax(d$y, -2), 2)
  codes <- dpfda:::unit_codes(d$person)
  L <- 4 * 4
  worst <- 0
  for (r in seq_len(nrow(cand))) {
    cv <- dpfda:::gp_cv_candidate(matrix(d$x), list(kernel = kernel_gaussian(cand$lengthscale[r]),
                                                    noise_variance = cand$noise_variance[r]), s$folds, 4)
    rows <- which(d$person == 1L)
    for (v in c(-2, 2)) {
      y2 <- yc
      y2[rows] <- v
      worst <- max(worst, abs(dpfda:::gp_cv_sse(cv, yc, L) - dpfda:::gp_cv_sse(cv, y2, L)))
    }
  }
  expect_lte(worst, s$sensitivity)
  expect_gt(s$sensitivity, sel(d$y)$sensitivity)
  # the calibration, written out unit by unit: k_u b(d) in its test fold, sum_m b(d sum_{i in u} |C_mi|) elsewhere
  b <- function(a) L^2 - pmax(L - a, 0)^2
  expected <- max(vapply(seq_len(nrow(cand)), function(r) {
    cv <- dpfda:::gp_cv_candidate(matrix(d$x), list(kernel = kernel_gaussian(cand$lengthscale[r]),
                                                    noise_variance = cand$noise_variance[r]), s$folds, 4)
    max(vapply(unique(d$person), function(u) {
      rows <- which(d$person == u)
      tot <- length(rows) * b(4)
      for (f in cv) {
        tr <- f$train %in% rows
        if (any(tr)) tot <- tot + sum(b(4 * rowSums(abs(f$C[, tr, drop = FALSE]))))
      }
      tot
    }, 0))
  }, 0))
  expect_equal(s$sensitivity, expected, tolerance = 1e-12)
  # fold labels that split a unit are refused; the paper's rule has no unit version
  expect_error(sel(d$y, unit = d$person, folds = rep(1:2, length.out = length(d$y))),
               "whole", class = "dpfda_error_argument")
  expect_error(sel(d$y, unit = d$person, sensitivity_rule = "paper"), class = "dpfda_error_argument")
  expect_identical(sel(d$y, unit = seq_along(d$y))$sensitivity, sel(d$y)$sensitivity)
})

test_that("the unit shift norm takes codes with gaps (the training rows of a fold)", {
  set.seed(4)
  Z <- matrix(stats::rnorm(4 * 12), 4, 12)
  codes <- rep(c(2L, 5L, 9L), times = c(3, 4, 5))
  norm_z <- function(Z, codes) dpfda:::unit_shift_norm(function(i) Z[, i, drop = FALSE],
                                                       function(V, s, idx) colSums(V^2), codes)
  expect_equal(norm_z(Z, codes), norm_z(Z, rep(1:3, times = c(3, 4, 5))), tolerance = 1e-14)
  # dp_gp_select() simulates the regression's noise at the unit's calibration
  d <- gpu_data(n_units = 30, seed = 6)
  cand <- data.frame(lengthscale = 0.2, noise_variance = 0.1)
  cv1 <- with_seed_mode(1, dpfda:::gp_cv_candidate(matrix(d$x), list(kernel = kernel_gaussian(0.2), noise_variance = 0.1),
                                                    rep(1:3, length.out = length(d$x)), 4,
                                                    list(epsilon = 1, delta = 1e-5, calibration = "analytic", tol = 1e-8,
                                                         args = list())))
  codes <- dpfda:::unit_codes(d$person)
  fold_u <- ((codes - 1L) %% 3L) + 1L
  cvu <- with_seed_mode(1, dpfda:::gp_cv_candidate(matrix(d$x), list(kernel = kernel_gaussian(0.2), noise_variance = 0.1),
                                                    fold_u, 4, list(epsilon = 1, delta = 1e-5, calibration = "analytic",
                                                                    tol = 1e-8, args = list()), codes))
  cvr <- with_seed_mode(1, dpfda:::gp_cv_candidate(matrix(d$x), list(kernel = kernel_gaussian(0.2), noise_variance = 0.1),
                                                    fold_u, 4, list(epsilon = 1, delta = 1e-5, calibration = "analytic",
                                                                    tol = 1e-8, args = list())))
  expect_gt(sum(abs(cvu[[1]]$noise)), 1.2 * sum(abs(cvr[[1]]$noise)))
  expect_length(cv1, 3L)
})

test_that("repeated inputs (every unit weighed at the same times) give the unit sensitivity of the QR route", {
  # ChickWeight's chicks (up to 12 weighings each, at the same times), 4 folds of 5: the factor F of
  # M has condition about 1e8, and the normal equations F'F z = F'c (condition 1e16) were singular
  d <- ChickWeight[((dpfda:::unit_codes(ChickWeight$Chick) - 1L) %% 5L) != 0L, ]
  kern <- kernel_gaussian(10, 1e4)
  g <- sort(unique(d$Time))
  r <- with_seed_mode(2, dp_gp_regression(weight ~ Time, data = d, newdata = g, kernel = kern, noise_variance = 100,
                                          y_bound = c(0, 400), epsilon = 1, delta = 1e-3, unit = Chick))
  # the release's own C, its columns in the release's canonical order (another order, or a C rounded
  # differently by 2e-11, gives another optimal M, 1e-5 away, with a unit sensitivity 1.6e-4 away:
  # the release is calibrated to the M it adds)
  d <- d[dpfda:::canonical_rows(matrix(d$Time), d$weight), ]
  C <- dpfda:::gp_regression_parts(d$Time, d$weight, g, kern, 100, c(0, 400))$C
  cl <- cloaking_covariance(C)
  expect_equal(tcrossprod(cl$factor), r$noise_covariance / r$noise_scale^2, tolerance = 1e-10)
  Z <- qr.coef(qr(cl$factor), C)   # F^+ c_i by least squares
  worst <- max(vapply(split(seq_len(nrow(d)), as.character(d$Chick)), function(rows) {
    max(sqrt(colSums((Z[, rows, drop = FALSE] %*% t(all_signs(length(rows))))^2)))
  }, 0))
  expect_equal(r$sensitivity / 400, worst, tolerance = 1e-6)
  expect_equal(r$n, 40)
})

test_that("dp_gp_select() takes a formula, its unit a column of `data`, and gives the vector call's selection", {
  cw <- expand.grid(lengthscale = c(3, 10), noise_variance = c(100, 1000), variance = 1e4)
  d <- ChickWeight[ChickWeight$Chick %in% levels(ChickWeight$Chick)[1:15], ]
  sel <- function(...) with_seed_mode(5, dp_gp_select(..., candidates = cw, y_bound = c(0, 400), epsilon = 1, folds = 3,
                                                      epsilon_regression = 1, delta = 1e-3))
  s1 <- sel(weight ~ Time, data = d, unit = Chick)
  s2 <- sel(d$Time, d$weight, unit = d$Chick)
  expect_identical(s1$index, s2$index)
  expect_equal(s1$sensitivity, s2$sensitivity, tolerance = 1e-12)
  expect_identical(s1$folds, s2$folds)
  expect_output(print(s1), "privacy unit: Chick (15 units)", fixed = TRUE)
  expect_identical(sel(weight ~ Time, data = d, unit = "Chick")$sensitivity, s1$sensitivity)
  expect_error(sel(weight ~ Time, data = d, unit = Hen), "Hen", class = "dpfda_error_argument")
  expect_error(sel(weight ~ Time, d$weight, data = d), class = "dpfda_error_argument")
  expect_error(sel(weight ~ Time), "data", class = "dpfda_error_argument")
})
