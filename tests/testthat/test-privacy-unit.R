# Person-level privacy (issue 31, dp_mean): with `unit =` each person
# contributes the mean of their clipped curves, n counts persons, and
# changing everything about one person moves the release by at most the
# sensitivity it is calibrated for; without it, a person with k curves moves
# it up to k times as far. The same on every source.

unit_data <- function() {
  X <- dti_cca$cca
  ok <- stats::complete.cases(X)
  list(X = X[ok, ], id = dti_cca$id[ok], t = seq(0, 1, length.out = ncol(X)))
}

wl2 <- function(v, t) sqrt(sum(dpfda:::quadrature_weights(t) * v^2))

test_that("unit =: n counts persons, the print says so, and a whole-person swap stays within 2 tau / n", {
  d <- unit_data()
  tau <- 0.2
  cen <- 0.5
  rel <- function(X, ...) with_seed_mode(31, dp_mean(curves(X, d$t), epsilon = 1, tau = tau, center = cen, ...))
  r <- rel(d$X, unit = d$id)
  n_units <- length(unique(d$id))
  expect_equal(r$n, n_units)
  expect_output(print(r), sprintf("privacy unit: unit \\(%d units, %d curves\\)", n_units, nrow(d$X)))
  expect_output(print(rel(d$X)), sprintf("privacy unit: one curve \\(%d\\)", nrow(d$X)))
  # the person with the most curves: all of them replaced by extreme curves
  big <- names(which.max(table(d$id)))
  k <- sum(d$id == big)
  expect_gt(k, 2)
  X2 <- d$X
  X2[d$id == big, ] <- 10
  r2 <- rel(X2, unit = d$id)
  expect_lte(wl2(predict(r2) - predict(r), d$t), 2 * tau / n_units * (1 + 1e-9))
  # without unit =, the same swap moves the curve-level release by more than its bound 2 tau / n:
  # the feature is needed
  a <- rel(d$X)
  b <- rel(X2)
  s1 <- summarise_mean(curves(d$X - cen, d$t), tau = tau)
  s2 <- summarise_mean(curves(X2 - cen, d$t), tau = tau)
  expect_gt(wl2((s2$sums - s1$sums) / s1$n, d$t), 2 * tau / nrow(d$X))
  u1 <- summarise_mean(curves(d$X - cen, d$t), tau = tau, unit = d$id)
  u2 <- summarise_mean(curves(X2 - cen, d$t), tau = tau, unit = d$id)
  expect_lte(wl2((u2$sums - u1$sums) / u1$n, d$t), 2 * tau / n_units * (1 + 1e-9))
  expect_error(dp_mean(curves(d$X, d$t), epsilon = 1, tau = tau, unit = d$id[-1]), class = "dpfda_error_argument")
})

test_that("unit =: memory, data frames, chunks and SQLite give the same release", {
  d <- unit_data()
  sel <- d$id %in% unique(d$id)[1:40]
  X <- d$X[sel, ]
  ids <- d$id[sel]
  curve_id <- seq_len(nrow(X))
  long <- data.frame(curve = rep(curve_id, times = ncol(X)), person = rep(ids, times = ncol(X)),
                     t = rep(d$t, each = nrow(X)), y = as.vector(X))
  long <- long[order(long$person, long$curve, long$t), ]
  rel <- function(x, ...) with_seed_mode(7, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, ...))
  r_mem <- rel(curves(X, d$t), unit = ids)
  r_df <- rel(long, id = curve, arg = t, value = y, grid = d$t, unit = person)
  r_ch <- rel(dp_chunks(split(long, ceiling(seq_len(nrow(long)) / 500))), id = "curve", arg = "t", value = "y",
              grid = d$t, unit = "person")
  expect_equal(r_df$n, length(unique(ids)))
  expect_equal(predict(r_df), predict(r_mem), tolerance = 1e-10)
  expect_equal(predict(r_ch), predict(r_mem), tolerance = 1e-10)
  expect_match(r_ch$privacy_unit, "^person")
  # a curve whose rows name two persons is refused
  bad <- long
  bad$person[1] <- bad$person[1] + 1e6
  expect_error(rel(bad, id = curve, arg = t, value = y, grid = d$t, unit = person), class = "dpfda_error")
})

test_engines("unit =: a table gives the release of memory; a curve of two units is refused", function(con) {
  d <- unit_data()
  sel <- d$id %in% unique(d$id)[1:40]
  X <- d$X[sel, ]
  ids <- d$id[sel]
  long <- data.frame(curve = rep(seq_len(nrow(X)), times = ncol(X)), person = rep(ids, times = ncol(X)),
                     t = rep(d$t, each = nrow(X)), y = as.vector(X))
  rel <- function(x, ...) with_seed_mode(7, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, ...))
  r_mem <- rel(curves(X, d$t), unit = ids)
  DBI::dbWriteTable(con, "dti", long)
  r_sql <- rel(dplyr::tbl(con, "dti"), id = "curve", arg = "t", value = "y", grid = d$t, unit = "person")
  expect_equal(predict(r_sql), predict(r_mem), tolerance = 1e-10)
  expect_equal(r_sql$n, length(unique(ids)))
  long$person[1] <- long$person[1] + 1e6
  DBI::dbWriteTable(con, "bad", long)
  expect_error(rel(dplyr::tbl(con, "bad"), id = "curve", arg = "t", value = "y", grid = d$t, unit = "person"),
               class = "dpfda_error_data")
})

test_that("whole-person swaps: audited below epsilon with unit =, above it without (issue 31)", {
  g <- seq(0, 1, length.out = 5)
  ids <- c(1, 1, 1, 2, 3, 4)                           # person 1 has three curves
  person1 <- function(a) rbind(matrix(a, 3, 5), matrix(0, 3, 5))
  audit <- function(unit) {
    mech <- function(X) predict(suppressWarnings(dp_mean(curves(X, g), epsilon = 1, tau = 1, mechanism = "frl",
                                                         select = "manual", M = 1, unit = unit)))
    dp_audit(mech, person1(1), person1(-1), n = 1500, epsilon = 1, projection = "lda", seed = 3101, digits = 10,
             confidence = 0.99)
  }
  a <- audit(ids)
  expect_lte(a$epsilon_lower, 1)
  expect_gt(a$epsilon_lower, 0.3)                      # (0.54 measured: the audit has power)
  b <- audit(NULL)                                      # curves as units: the person costs about 3 epsilon
  expect_gt(b$epsilon_lower, 1)                         # (1.90 measured)
})

# ---- dp_cov(), dp_fpca(), pcv_select() (issue 31, second part) ----------------------------------

# Persons 35 to 74 of dti_cca: a mix of one to seven scans each, in long form.
unit_long <- function(d = unit_data()) {
  sel <- d$id %in% unique(d$id)[35:74]
  X <- d$X[sel, ]
  ids <- d$id[sel]
  long <- data.frame(curve = rep(seq_len(nrow(X)), times = ncol(X)), person = rep(ids, times = ncol(X)),
                     t = rep(d$t, each = nrow(X)), y = as.vector(X))
  list(X = X, ids = ids, t = d$t, long = long[order(long$person, long$curve, long$t), ])
}

# The J x J matrix that the covariance release perturbs: S2 / n - abar abar^T.
cov_matrix <- function(s) {
  S1 <- s$sums[, 1L]
  S2 <- s$sums[, -1L, drop = FALSE]
  S2 / s$n - tcrossprod(S1 / s$n)
}

test_that("dp_cov(unit =): a whole-person swap moves the summary and the release by at most 6 tau^2 / n_persons", {
  d <- unit_data()
  tau <- 0.2
  cen <- 0.5
  k <- kernel_matern(3/2, 0.2)
  n_units <- length(unique(d$id))
  big <- names(which.max(table(d$id)))
  X2 <- d$X
  X2[d$id == big, ] <- 10                                       # extreme curves (clipped to norm tau)
  rel <- function(X, ...) with_seed_mode(31, suppressWarnings(dp_cov(curves(X, d$t), epsilon = 1, tau = tau,
                                                                    center = cen, kernel = k, J = 8, ...)))
  r1 <- rel(d$X, unit = d$id)
  r2 <- rel(X2, unit = d$id)
  expect_equal(r1$n, n_units)
  bound <- 6 * tau^2 / n_units
  expect_equal(r1$sensitivity, rel(d$X[!duplicated(d$id), ])$sensitivity)   # calibrated as for n_units curves
  expect_lte(sqrt(sum((r2$coefficients - r1$coefficients)^2)), bound * (1 + 1e-9))
  expect_gt(sqrt(sum((r2$coefficients - r1$coefficients)^2)), 0)
  expect_output(print(r1), sprintf("privacy unit: unit \\(%d units, %d curves\\)", n_units, nrow(d$X)))
  expect_output(print(r1), sprintf("covariance of %d units", n_units))
  expect_output(print(rel(d$X)), sprintf("privacy unit: one curve \\(%d\\)", nrow(d$X)))
  # the summaries: with unit = within the person-level bound; without, the curve-level summary moves
  # by more than its bound 6 tau^2 / n_curves (the feature is needed)
  sc <- function(X, ...) summarise_cov(curves(X - cen, d$t), tau = tau, kernel = k, J = 8, ...)
  u1 <- sc(d$X, unit = d$id)
  u2 <- sc(X2, unit = d$id)
  expect_lte(sqrt(sum((cov_matrix(u2) - cov_matrix(u1))^2)), bound * (1 + 1e-9))
  c1 <- sc(d$X)
  c2 <- sc(X2)
  expect_gt(sqrt(sum((cov_matrix(c2) - cov_matrix(c1))^2)), 6 * tau^2 / nrow(d$X))
  # fpca: post-processing of the person-level covariance; it says so
  p <- with_seed_mode(31, suppressWarnings(dp_fpca(curves(d$X, d$t), npc = 2, epsilon = 1, tau = tau, center = cen,
                                                   kernel = k, J = 8, unit = d$id)))
  expect_equal(p$release$n, n_units)
  expect_equal(p$values, dp_fpca(r1, npc = 2)$values)
  expect_output(print(p), "privacy unit: unit \\(")
  expect_error(dp_cov(curves(d$X, d$t), epsilon = 1, tau = tau, J = 8, unit = d$id[-1]),
               class = "dpfda_error_argument")
})

test_that("dp_cov(unit =) and dp_fpca(unit =): memory, data frames and chunks give the same release", {
  u <- unit_long()
  expect_gt(max(table(u$ids)), 3)
  k <- kernel_matern(3/2, 0.2)
  rel <- function(x, ...) with_seed_mode(7, suppressWarnings(dp_cov(x, epsilon = 1, tau = 0.2, center = 0.5,
                                                                   kernel = k, J = 6, ...)))
  r_mem <- rel(curves(u$X, u$t), unit = u$ids)
  r_df <- rel(u$long, id = curve, arg = t, value = y, grid = u$t, unit = person)
  r_ch <- rel(dp_chunks(split(u$long, ceiling(seq_len(nrow(u$long)) / 500))), id = "curve", arg = "t",
              value = "y", grid = u$t, unit = "person")
  s <- summarise_cov(u$long, grid = u$t, tau = 0.2, kernel = k, J = 6, center = 0.5, unit = person,
                     id = curve, arg = t, value = y)
  r_s <- rel(s, grid = u$t)
  expect_equal(r_df$n, length(unique(u$ids)))
  for (r in list(r_df, r_ch, r_s)) expect_equal(r$values$values, r_mem$values$values, tolerance = 1e-10)
  expect_equal(r_ch$privacy_unit, sprintf("person (%d units, %d curves)", length(unique(u$ids)), nrow(u$X)))
  # chunks not sorted by the unit are refused; a curve of two units too
  shuffled <- u$long[order(u$long$t, u$long$curve), ]
  expect_error(rel(dp_chunks(split(shuffled, ceiling(seq_len(nrow(shuffled)) / 500))), id = "curve",
                   arg = "t", value = "y", grid = u$t, unit = "person"), class = "dpfda_error_data")
  bad <- u$long
  bad$person[1] <- bad$person[1] + 1e6
  expect_error(rel(bad, id = curve, arg = t, value = y, grid = u$t, unit = person), class = "dpfda_error_data")
  # summaries of different units do not add
  s0 <- summarise_cov(u$long, grid = u$t, tau = 0.2, kernel = k, J = 6, center = 0.5, id = curve, arg = t,
                      value = y)
  expect_error(s + s0, class = "dpfda_error")
})

test_engines("dp_cov(unit =): a table gives the release of memory", function(con) {
  u <- unit_long()
  k <- kernel_matern(3/2, 0.2)
  rel <- function(x, ...) with_seed_mode(7, suppressWarnings(dp_cov(x, epsilon = 1, tau = 0.2, center = 0.5,
                                                                   kernel = k, J = 6, ...)))
  r_mem <- rel(curves(u$X, u$t), unit = u$ids)
  DBI::dbWriteTable(con, "dti_cov", u$long)
  r_sql <- rel(dplyr::tbl(con, "dti_cov"), id = "curve", arg = "t", value = "y", grid = u$t, unit = "person")
  expect_equal(r_sql$values$values, r_mem$values$values, tolerance = 1e-8)
  expect_equal(r_sql$n, length(unique(u$ids)))
  expect_match(r_sql$privacy_unit, sprintf("^person \\(%d units, %d curves\\)", length(unique(u$ids)), nrow(u$X)))
  bad <- u$long
  bad$person[1] <- bad$person[1] + 1e6
  DBI::dbWriteTable(con, "dti_cov_bad", bad)
  expect_error(rel(dplyr::tbl(con, "dti_cov_bad"), id = "curve", arg = "t", value = "y", grid = u$t,
                   unit = "person"), class = "dpfda_error_data")
})

test_that("pcv_select(unit =): folds of whole units, n counts units; the same from a data frame", {
  u <- unit_long()
  b <- kl_basis(kernel_matern(3/2, 0.1), u$t)
  n_units <- length(unique(u$ids))
  sel <- function(x, ...) with_seed_mode(3, pcv_select(x, epsilon = 1, tau = 0.2, mechanism = "iclp_qr", basis = b,
                                                       epsilon_select = 0.5, folds = 5, ...))
  s1 <- sel(curves(u$X - 0.5, u$t), unit = u$ids)
  long <- u$long
  long$y <- long$y - 0.5
  s2 <- sel(long, id = curve, arg = t, value = y, grid = u$t, unit = person)
  expect_identical(s1$index, s2$index)
  # the replace-one-unit sensitivity with n = units (about 12 tau^2 / n_units), not n = curves
  fold <- integer(n_units)
  fold[order(with_seed_mode(3, dpfda:::noise_draw(n_units, "uniform")))] <- rep_len(1:5, n_units)
  expect_equal(s1$sensitivity, dpfda:::pcv_sensitivity(fold, 0.2))
  expect_gt(s1$sensitivity, sel(curves(u$X - 0.5, u$t))$sensitivity * nrow(u$X) / n_units * 0.9)
  expect_error(sel(curves(u$X[1:3, ], u$t), unit = rep(1, 3)), class = "dpfda_error_argument")
  # dp_mean(select = "pcv", unit =): the selection runs over units too
  r <- with_seed_mode(3, suppressWarnings(dp_mean(curves(u$X, u$t), epsilon = 1, tau = 0.2, center = 0.5,
                                                  select = "pcv", epsilon_select = 0.3, unit = u$ids)))
  expect_equal(r$n, n_units)
  expect_output(print(r), sprintf("mean of %d units", n_units))
})
