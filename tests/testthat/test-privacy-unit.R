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
  expect_output(print(r), sprintf("privacy unit: id \\(%d units\\)", n_units))
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
  # one curve and a function as its unit (length 1, as one curve): a classed error, not anyNA()'s (found by tools/fuzz.R)
  expect_error(dp_mean(1e-300, epsilon = 1, tau = tau, unit = function(x) x), class = "dpfda_error_argument")
})

test_that("unit = as a vector: the print names the variable or column it came from", {
  d <- unit_data()
  rel <- function(...) suppressWarnings(dp_mean(curves(d$X, d$t), epsilon = 1, tau = 0.2, center = 0.5, ...))
  persons <- d$id
  ok <- stats::complete.cases(dti_cca$cca)
  expect_match(rel(unit = persons)$privacy_unit, "^persons \\(142 units\\)")
  expect_match(rel(unit = dti_cca$id[ok])$privacy_unit, "^id \\(")
  expect_match(rel(unit = dti_cca[ok, "id"])$privacy_unit, "^id \\(")
  expect_match(rel(unit = dti_cca[["id"]][ok])$privacy_unit, "^id \\(")
  expect_match(rel(unit = as.character(persons))$privacy_unit, "^persons \\(")   # (a conversion keeps the name)
  expect_match(rel(unit = paste0("p", persons))$privacy_unit, "^unit \\(")   # (another expression: no name)
  expect_match(suppressWarnings(dp_cov(curves(d$X, d$t), epsilon = 1, tau = 0.2, center = 0.5, J = 4,
                                       unit = persons))$privacy_unit, "^persons")
  who <- rep(1:50, each = 4)
  k <- suppressWarnings(dp_kde(stats::runif(200), seq(0, 1, length.out = 21), 0.1, epsilon = 1, delta = 1e-5,
                               unit = who))
  expect_match(k$privacy_unit, "^who \\(50 units\\)")
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

test_that("unit = with wide data frames: a matrix column (dti_cca's layout) or numeric columns, unit a column", {
  d <- unit_data()
  sel <- d$id %in% unique(d$id)[35:74]          # persons with 1 to 8 scans
  expect_gt(max(table(d$id[sel])), 3)
  rows <- which(stats::complete.cases(dti_cca$cca))[sel]
  frame <- dti_cca[rows, ]                       # id, visit, case, sex and the matrix column cca
  rel <- function(x, ...) with_seed_mode(7, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, ...))
  r_mem <- rel(curves(d$X[sel, ], d$t), unit = d$id[sel])
  r_mat <- rel(frame, unit = id, grid = d$t)    # the only matrix column is the curves; `grid` its arguments
  expect_identical(r_mat$values$values, r_mem$values$values)
  expect_equal(r_mat$n, 40)
  expect_identical(r_mat$privacy_unit, r_mem$privacy_unit)
  expect_identical(rel(frame, unit = "id", value = "cca", grid = d$t)$values$values, r_mem$values$values)
  # the columns of the rows are not arguments; without `grid` the matrix's arguments are unknown
  expect_equal(unname(as_curves(frame, grid = d$t)$values), unname(d$X[sel, ]))
  expect_error(as_curves(frame), class = "dpfda_error_argument")
  # `id` labels rows of a matrix column; a person's id repeated says to use unit = instead
  expect_error(rel(frame, id = id, grid = d$t), "unit = id", class = "dpfda_error_argument")
  # numeric columns named by their arguments, with a unit column among them: not an argument
  W <- d$X[sel, c(1, 24, 47, 70, 93)]
  colnames(W) <- format(d$t[c(1, 24, 47, 70, 93)])
  wide <- data.frame(person = d$id[sel], W, check.names = FALSE)
  r_w <- rel(wide, unit = person)
  expect_identical(r_w$values$values, rel(curves(W, d$t[c(1, 24, 47, 70, 93)]), unit = d$id[sel])$values$values)
  expect_equal(r_w$n, 40)
  # dp_cov() and pcv_select() read the same layouts
  k <- kernel_matern(3/2, 0.2)
  cv <- function(x, ...) with_seed_mode(7, suppressWarnings(dp_cov(x, epsilon = 1, tau = 0.2, center = 0.5,
                                                                  kernel = k, J = 6, ...)))
  expect_identical(cv(frame, unit = id, grid = d$t)$values$values, cv(curves(d$X[sel, ], d$t), unit = d$id[sel])$values$values)
  b <- kl_basis(k, d$t)
  ps <- function(x, ...) with_seed_mode(3, pcv_select(x, epsilon = 1, tau = 0.2, mechanism = "iclp_qr", basis = b,
                                                      epsilon_select = 0.5, folds = 5, ...))
  fr0 <- frame
  fr0$cca <- fr0$cca - 0.5
  expect_identical(ps(fr0, unit = id, grid = d$t)$index, ps(curves(d$X[sel, ] - 0.5, d$t), unit = d$id[sel])$index)
  # incomplete = "drop": a row whose curve misses the end of the grid is left out, its unit still counted
  f2 <- rbind(frame, frame[1, ])
  f2$id[nrow(f2)] <- 99999L
  f2$cca[nrow(f2), 93] <- NA
  r_d <- rel(f2, unit = id, grid = d$t, na.rm = TRUE, incomplete = "drop")
  expect_equal(r_d$n, 41)
  expect_identical(r_d$privacy_unit, "id (41 units)")
  expect_error(rel(f2, unit = id, grid = d$t), class = "dpfda_error_data")
  # the summaries read the matrix column too (they read other data frames as long data)
  s_f <- summarise_mean(frame, tau = 0.2, grid = d$t, unit = id, center = 0.5)
  s_c <- summarise_mean(curves(d$X[sel, ], d$t), tau = 0.2, unit = d$id[sel], center = 0.5)
  expect_identical(s_f$sums, s_c$sums)
  expect_equal(s_f$n, 40)
  expect_identical(summarise_cov(frame, tau = 0.2, grid = d$t, unit = "id", center = 0.5, kernel = k, J = 6)$sums,
                   summarise_cov(curves(d$X[sel, ], d$t), tau = 0.2, unit = d$id[sel], center = 0.5, kernel = k,
                                 J = 6)$sums)
  # a row with a missing value: refused, or with incomplete = "drop" left out (no na.rm needed), its
  # unit counted; the whole of dti_cca (6 such scans) gives the sums of its 376 complete ones
  f3 <- f2
  f3$cca[nrow(f3), 40] <- NA
  f3$cca[nrow(f3), 93] <- 0.5
  expect_error(summarise_mean(f3, tau = 0.2, grid = d$t, unit = id), class = "dpfda_error_data")
  s_d <- summarise_mean(f3, tau = 0.2, grid = d$t, unit = id, center = 0.5, incomplete = "drop")
  expect_identical(s_d$sums, s_c$sums)
  expect_equal(c(s_d$n, s_d$incomplete_n), c(41, 1))
  expect_equal(rel(f3, unit = id, grid = d$t, incomplete = "drop")$n, 41)
  all_dti <- summarise_mean(dti_cca, tau = 0.2, grid = d$t, unit = id, center = 0.5, incomplete = "drop")
  expect_identical(all_dti$sums, summarise_mean(curves(d$X, d$t), tau = 0.2, unit = d$id, center = 0.5)$sums)
  expect_equal(all_dti$n, length(unique(dti_cca$id)))
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
  expect_output(print(r1), sprintf("privacy unit: id \\(%d units\\)", n_units))
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
  expect_output(print(p), "privacy unit: id \\(")
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
  expect_equal(r_ch$privacy_unit, sprintf("person (%d units)", length(unique(u$ids))))
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
  expect_match(r_sql$privacy_unit, sprintf("^person \\(%d units\\)", length(unique(u$ids))))
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
  # the print and glance() say whom the choice protects, as a release's do (they said nothing)
  expect_identical(s2$privacy_unit, sprintf("person (%d units)", n_units))
  expect_output(print(s2), sprintf("privacy unit: person (%d units)", n_units), fixed = TRUE)
  expect_identical(glance(s2)$privacy_unit, s2$privacy_unit)
  expect_identical(glance(s2)$n, n_units)
  expect_identical(sel(curves(u$X - 0.5, u$t))$privacy_unit, sprintf("one curve (%d)", nrow(u$X)))
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

# ---- dp_kde(), dp_kme() (points with a person column) ---------------------------------------------

# 60 persons with 1, 2, 5 or 10 points each on [0, 1].
unit_points <- function() {
  set.seed(3101)
  person <- rep(1:60, times = rep(c(1, 2, 5, 10), 15))
  x <- stats::plogis(stats::rnorm(length(person), stats::qlogis(stats::runif(60, 0.2, 0.8))[person], 0.3))
  list(x = x, person = person, df = data.frame(person = person, v = x))
}

test_that("dp_kde(unit =): a whole-person swap moves the release by at most the person-level sensitivity", {
  p <- unit_points()
  g <- seq(0, 1, length.out = 201)
  n_units <- 60
  big <- as.integer(names(which.max(table(p$person))))
  x2 <- p$x
  x2[p$person == big] <- 1                                   # all the person's points at the edge
  for (mech in c("gp", "bernstein")) {
    rel <- function(x, ...) with_seed_mode(9, suppressWarnings(
      dp_kde(x, g, bandwidth = 0.05, epsilon = 1, delta = if (mech == "gp") 1e-3 else 0, mechanism = mech, ...)))
    a <- rel(p$x, unit = p$person)
    b <- rel(x2, unit = p$person)
    expect_equal(a$n, n_units)
    expect_equal(a$sensitivity, rel(p$x[!duplicated(p$person)])$sensitivity)   # one point of n_units
    # the same noise: the difference is the estimate's, in sup norm at most the sensitivity (gp: RKHS norm
    # with k(x, x) = 1 bounds the sup norm; bernstein: sup-norm sensitivity on the lattice, then a convex
    # combination)
    expect_lte(max(abs(predict(b) - predict(a))), a$sensitivity * (1 + 1e-9))
    expect_gt(max(abs(predict(b) - predict(a))), 0.3 * a$sensitivity)
    # without unit =, the same swap moves the point-level release by more than its sensitivity
    a0 <- rel(p$x, binned = TRUE)
    b0 <- rel(x2, binned = TRUE)
    expect_gt(max(abs(predict(b0) - predict(a0))), a0$sensitivity)
    expect_output(print(a), "privacy unit: person \\(60 units\\)")
    expect_output(print(a0), sprintf("privacy unit: one point \\(%d\\)", length(p$x)))
  }
  expect_error(dp_kde(p$x, g, bandwidth = 0.05, epsilon = 1, delta = 1e-3, unit = p$person[-1]),
               class = "dpfda_error_argument")
  expect_error(dp_kde(p$x, g, bandwidth = 0.05, epsilon = 1, delta = 1e-3, binned = FALSE, unit = p$person),
               class = "dpfda_error")
})

test_that("dp_kde(unit =) and dp_kme(unit =): memory, data frames, chunks and summaries give the same release", {
  p <- unit_points()
  g <- seq(0, 1, length.out = 101)
  chunks <- function() dp_chunks(split(p$df, ceiling(seq_len(nrow(p$df)) / 50)))
  for (mech in c("gp", "bernstein", "iclp", "frl")) {
    rel <- function(x, ...) with_seed_mode(5, suppressWarnings(
      dp_kde(x, g, bandwidth = 0.05, epsilon = 1, delta = 1e-3, mechanism = mech, ...)))
    a <- rel(p$x, unit = p$person)
    for (r in list(rel(p$df, unit = person), rel(p$df, columns = v, unit = "person"),
                   rel(chunks(), columns = "v", unit = "person"),
                   rel(summarise_kde(p$df, grid = g, bandwidth = 0.05, columns = v, unit = person,
                                     mechanism = mech)))) {
      expect_equal(predict(r), predict(a), tolerance = 1e-12)
      expect_equal(r$n, 60)
    }
    expect_match(rel(p$df, unit = person)$privacy_unit, "^person \\(60 units\\)")
  }
  k <- kernel_gaussian(0.2)
  z <- matrix(seq(0, 1, length.out = 20))
  for (m in c("subspace", "random_features")) {
    rk <- function(x, ...) with_seed_mode(5, dp_kme(x, k, epsilon = 1, delta = 1e-5, method = m, synthetic = z,
                                                    J = 50, iters = 5, ...))
    a <- rk(p$x, unit = p$person)
    expect_equal(a$n, 60)
    expect_equal(a$sensitivity, 2 / 60)
    for (r in list(rk(p$df, unit = person), rk(chunks(), columns = "v", unit = "person"))) {
      expect_equal(r$weights, a$weights, tolerance = 1e-7)   # (ill-conditioned subspace weights)
    }
    expect_output(print(rk(p$df, unit = person)), "privacy unit: person \\(60 units\\)")
    expect_output(print(rk(p$x)), "privacy unit: one point \\(270\\)")
  }
  # the exponential method with a unit in memory (tables and chunks refuse it: its utility needs all pairs)
  expect_error(dp_kme(chunks(), k, epsilon = 1, delta = 0, method = "exponential", candidates = list(z),
                      columns = "v", unit = "person"), class = "dpfda_error")
})

test_that("dp_kme(method = \"exponential\", unit =): person-level utilities, exact law within epsilon", {
  p <- unit_points()
  k <- kernel_gaussian(0.2)
  cand <- lapply(c(0.2, 0.35, 0.5, 0.65, 0.8, 1), function(m) matrix(pmin(1, m + seq(-0.1, 0.1, length.out = 9))))
  cl <- lapply(cand, function(cc) list(points = cc, weights = rep(1 / nrow(cc), nrow(cc))))
  big <- as.integer(names(which.max(table(p$person))))       # 10 points
  x2 <- p$x
  x2[p$person == big] <- 1
  w <- function(person) { r <- tabulate(person); 1 / (max(person) * r[person]) }
  u1 <- dpfda:::kme_exp_utility(matrix(p$x), k, cl, 64L, w(p$person))
  u2 <- dpfda:::kme_exp_utility(matrix(x2), k, cl, 64L, w(p$person))
  sens <- 2 / 60                                           # v = 1, 60 persons
  expect_lte(max(abs(u1 - u2)), sens + 1e-12)
  expect_gt(max(abs(u1 - u2)), 0.3 * sens)                 # the swap is a strong one
  # one unit per point: the weighted utilities are the C kernel means'
  u0 <- dpfda:::kme_exp_utility(matrix(p$x), k, cl, 64L)
  expect_equal(dpfda:::kme_exp_utility(matrix(p$x), k, cl, 64L, rep(1 / length(p$x), length(p$x))), u0,
               tolerance = 1e-12)
  # the exact selection law of the two neighbours: log ratio <= epsilon, and without the unit (row-level
  # sensitivity 2 / 270) the same swap of 10 points exceeds it
  law <- function(u, s, eps) { a <- eps * u / (2 * s); exp(a - max(a)) / sum(exp(a - max(a))) }
  eps <- 1
  expect_lte(max(abs(log(law(u1, sens, eps)) - log(law(u2, sens, eps)))), eps + 1e-12)
  r1 <- dpfda:::kme_exp_utility(matrix(p$x), k, cl, 64L)
  r2 <- dpfda:::kme_exp_utility(matrix(x2), k, cl, 64L)
  expect_gt(max(abs(log(law(r1, 2 / 270, eps)) - log(law(r2, 2 / 270, eps)))), eps)
  # the release: n counts persons, sensitivity 2 / 60, the same from a vector and a data frame
  rk <- function(x, ...) with_seed_mode(9, dp_kme(x, k, epsilon = eps, delta = 0, method = "exponential",
                                                  candidates = cand, ...))
  a <- rk(p$x, unit = p$person)
  b <- rk(p$df, unit = person)
  expect_equal(a$n, 60)
  expect_equal(a$sensitivity, sens)
  expect_identical(a$selected, b$selected)
  expect_equal(b$privacy_unit, "person (60 units)")
  expect_valid_release(a)
  # the sampled choice follows the law (seeded draws, chi-square at a fixed seed)
  draws <- with_seed_mode(11, vapply(1:1000, function(i) {
    dp_kme(p$x, k, epsilon = eps, delta = 0, method = "exponential", candidates = cand, unit = p$person)$selected
  }, 0L))
  pr <- law(u1, sens, eps)
  expect_gt(suppressWarnings(stats::chisq.test(tabulate(draws, length(cand)), p = pr))$p.value, 0.001)
})

test_that("summarise_kme(unit =): a whole-person swap moves the mean features by at most 2 / n_persons", {
  p <- unit_points()
  rff <- with_seed_mode(1, kme_rff(kernel_gaussian(0.2), J = 200, dim = 1))
  big <- as.integer(names(which.max(table(p$person))))
  x2 <- p$x
  x2[p$person == big] <- 1
  mu <- function(x, ...) {
    s <- summarise_kme(x, kernel_gaussian(0.2), method = "random_features", rff = rff, ...)
    s$sums / s$n
  }
  expect_lte(sqrt(sum((mu(x2, unit = p$person) - mu(p$x, unit = p$person))^2)), 2 / 60 * (1 + 1e-9))
  expect_gt(sqrt(sum((mu(x2) - mu(p$x))^2)), 2 / length(p$x))   # points as units: beyond their bound
})

test_engines("dp_kde(unit =) and dp_kme(unit =): a table gives the release of memory", function(con) {
  p <- unit_points()
  g <- seq(0, 1, length.out = 101)
  DBI::dbWriteTable(con, "pts_unit", p$df)
  tb <- dplyr::tbl(con, "pts_unit")
  for (mech in c("gp", "iclp")) {
    rel <- function(x, ...) with_seed_mode(5, suppressWarnings(
      dp_kde(x, g, bandwidth = 0.05, epsilon = 1, delta = 1e-3, mechanism = mech, ...)))
    a <- rel(p$x, unit = p$person)
    r <- rel(tb, columns = "v", unit = "person")
    expect_equal(predict(r), predict(a), tolerance = 1e-9)
    expect_equal(r$n, 60)
    expect_match(r$privacy_unit, "^person \\(60 units\\)")
  }
  rk <- function(x, ...) with_seed_mode(5, dp_kme(x, kernel_gaussian(0.2), epsilon = 1, delta = 1e-5,
                                                  method = "random_features", synthetic = matrix(1:5 / 6),
                                                  J = 50, iters = 5, ...))
  expect_equal(rk(tb, columns = "v", unit = "person")$weights, rk(p$x, unit = p$person)$weights, tolerance = 1e-8)
})

test_that("whole-person swaps in dp_kde: audited below epsilon with unit =, above it without (issue 31)", {
  g <- seq(0, 1, length.out = 5)
  ids <- c(1, 1, 1, 2, 3, 4)                           # person 1 has three points
  person1 <- function(a) c(rep(a, 3), 0.25, 0.25, 0.75)
  audit <- function(unit) {
    # FRL with one coefficient: its sensitivity (the exact maximum over pairs of grid points) is attained
    # by a unit moved from the end of the grid to its centre (the first eigenfunction is symmetric), so
    # the audit can come close to epsilon
    mech <- function(x) predict(suppressWarnings(dp_kde(x, g, bandwidth = 0.2, epsilon = 1, mechanism = "frl",
                                                        M = 1, unit = unit)))
    dp_audit(mech, person1(0), person1(0.5), n = 1500, epsilon = 1, projection = "lda", seed = 3102, digits = 10,
             confidence = 0.99)
  }
  a <- audit(ids)
  expect_lte(a$epsilon_lower, 1)
  expect_gt(a$epsilon_lower, 0.5)                      # the audit has power (0.74 measured)
  b <- audit(NULL)                                      # points as units: the person costs about 3 epsilon
  expect_gt(b$epsilon_lower, 1.5)                       # (2.65 measured)
})

# ---- unit = with incomplete = "drop" --------------------------------------------------------------

# 30 persons with 1 to 3 curves on 10 points; curves 1 (person 1's only one), 2 (one of person 2's
# two) and 5 lack their last three points.
unit_incomplete <- function() {
  set.seed(2)
  g <- seq(0, 1, length.out = 10)
  person <- rep(1:30, times = rep(1:3, 10))
  nc <- length(person)
  X <- outer(stats::rnorm(30, 0.5, 0.1)[person], sin(pi * g)) + matrix(stats::rnorm(nc * 10, 0, 0.05), nc)
  long <- data.frame(curve = rep(seq_len(nc), times = 10), person = rep(person, times = 10),
                     t = rep(g, each = nc), y = as.vector(X))
  inc <- c(1, 2, 5)
  long <- long[!(long$curve %in% inc & long$t > 0.7), ]
  list(g = g, X = X, person = person, inc = inc, long = long[order(long$person, long$curve, long$t), ])
}

test_that("unit = with incomplete = \"drop\": curves dropped, then units counted; the same from every source", {
  d <- unit_incomplete()
  s <- summarise_mean(d$long, grid = d$g, tau = 1, id = curve, arg = t, value = y, unit = person,
                      incomplete = "drop")
  expect_equal(s$n, 30)                 # every person is a unit
  expect_equal(s$incomplete_n, 1)       # person 1 has no complete curve: no contribution
  expect_equal(s$missing_cells, 0)
  cc <- setdiff(seq_len(nrow(d$X)), d$inc)   # each other person: the mean of their complete curves
  V <- dpfda:::clip_curves_l2(d$X[cc, ], dpfda:::quadrature_weights(d$g), 1)
  expect_equal(s$sums, colSums(rowsum(V, d$person[cc]) / as.vector(table(d$person[cc]))), tolerance = 1e-12)
  rel <- function(x, ...) with_seed_mode(4, suppressWarnings(dp_mean(x, epsilon = 1, tau = 1, incomplete = "drop",
                                                                    ...)))
  a <- rel(d$long, id = curve, arg = t, value = y, grid = d$g, unit = person)
  b <- rel(dp_chunks(split(d$long, ceiling(seq_len(nrow(d$long)) / 40))), id = "curve", arg = "t", value = "y",
           grid = d$g, unit = "person")
  expect_equal(predict(b), predict(a), tolerance = 1e-12)
  expect_equal(a$n, 30)
  expect_equal(a$epsilon, 1)            # the count of complete units is inside the budget
  expect_true(a$epsilon_count > 0)
  # without drop, the incomplete curves are refused as before
  expect_error(dp_mean(d$long, epsilon = 1, tau = 1, id = curve, arg = t, value = y, grid = d$g, unit = person),
               class = "dpfda_error")
})

test_engines("unit = with incomplete = \"drop\": a table gives the release of memory", function(con) {
  d <- unit_incomplete()
  DBI::dbWriteTable(con, "unit_inc", d$long)
  rel <- function(x, ...) with_seed_mode(4, suppressWarnings(dp_mean(x, epsilon = 1, tau = 1, incomplete = "drop",
                                                                    ...)))
  a <- rel(d$long, id = curve, arg = t, value = y, grid = d$g, unit = person)
  r <- rel(dplyr::tbl(con, "unit_inc"), id = "curve", arg = "t", value = "y", grid = d$g, unit = "person")
  expect_equal(predict(r), predict(a), tolerance = 1e-10)
  expect_equal(r$n_complete, a$n_complete)
  s <- summarise_mean(dplyr::tbl(con, "unit_inc"), grid = d$g, tau = 1, id = "curve", arg = "t", value = "y",
                      unit = "person", incomplete = "drop")
  expect_equal(c(s$n, s$incomplete_n), c(30, 1))
  # incomplete = "zero" with missing cells: a unit's count of curves is not its count of cells at every
  # grid point; the counts collected first are joined
  z_mem <- summarise_mean(d$long, grid = d$g, tau = 1, id = curve, arg = t, value = y, unit = person)
  z_sql <- summarise_mean(dplyr::tbl(con, "unit_inc"), grid = d$g, tau = 1, id = "curve", arg = "t", value = "y",
                          unit = "person")
  expect_gt(z_sql$missing_cells, 0)
  expect_equal(z_sql$sums, z_mem$sums, tolerance = 1e-10)
  expect_equal(c(z_sql$n, z_sql$missing_cells), c(z_mem$n, z_mem$missing_cells))
})

test_engines("unit = on a table: the units' counts written into the query or counted in it", function(con) {
  d <- unit_incomplete()
  long <- d$long
  mem <- function(u) summarise_mean(transform(long, u = u), grid = d$g, tau = 1, id = curve, arg = t, value = y,
                                    unit = u)
  sql <- function(tab) summarise_mean(dplyr::tbl(con, tab), grid = d$g, tau = 1, id = "curve", arg = "t",
                                      value = "y", unit = "u")
  # string units, one with a quote; units that are dates (compared by the engine, not written)
  units <- list(chr = c("O'Brien", paste0("p", 2:30))[long$person],
                date = as.Date("2020-01-01") + long$person)
  for (nm in names(units)) {
    DBI::dbWriteTable(con, paste0("u_", nm), transform(long, u = units[[nm]]))
    s_mem <- mem(units[[nm]])
    s_sql <- sql(paste0("u_", nm))
    expect_equal(s_sql$sums, s_mem$sums, tolerance = 1e-10, info = nm)
    expect_equal(c(s_sql$n, s_sql$curves, s_sql$missing_cells), c(30, nrow(d$X), s_mem$missing_cells), info = nm)
  }
  # 64-bit integer units (collected as integer64), written back as integers
  DBI::dbExecute(con, paste("CREATE TABLE u_big AS SELECT curve, t, y, CAST(person AS BIGINT) * 3000000000 AS u",
                            "FROM u_chr"))
  s_big <- sql("u_big")
  expect_equal(s_big$sums, mem(long$person)$sums, tolerance = 1e-10)
  expect_equal(s_big$n, 30)
  # more units than getOption("dpfda.inline_units"): counted inside the query, the same summary
  old <- options(dpfda.inline_units = 5)
  on.exit(options(old))
  s_cnt <- sql("u_chr")
  expect_equal(s_cnt$sums, mem(units$chr)$sums, tolerance = 1e-10)
  expect_false(grepl("VALUES", dbplyr::sql_render(summarise_mean(dplyr::tbl(con, "u_chr"), grid = d$g, tau = 1,
                                                                  id = "curve", arg = "t", value = "y", unit = "u",
                                                                  .query = TRUE))))
  # a curve whose rows name two units is refused on this path too
  bad <- transform(long, u = units$chr)
  bad$u[which(bad$curve == 3)[1]] <- "zz"
  DBI::dbWriteTable(con, "u_bad", bad)
  expect_error(sql("u_bad"), class = "dpfda_error_data")
})

test_that("unit = costs little time (a small bench/bench-unit.R): within 2x of the row-level release", {
  skip_on_cran()
  set.seed(31)
  person <- rep(1:600, times = rep(1:8, 75))[1:2000]
  g <- seq(0, 1, length.out = 50)
  X <- outer(stats::rnorm(600, 0.5, 0.1)[person], sin(pi * g)) + matrix(stats::rnorm(2000 * 50, 0, 0.05), 2000)
  v <- stats::plogis(stats::rnorm(1e5))
  pv <- rep(seq_len(25000), each = 4)
  cpu <- function(f) min(replicate(3, {
    t <- proc.time()
    f()
    t <- proc.time() - t
    t[["user.self"]] + t[["sys.self"]]
  }))
  q <- function(e) suppressWarnings(e)
  m0 <- cpu(function() q(dp_mean(curves(X, g), epsilon = 1, tau = 1)))
  m1 <- cpu(function() q(dp_mean(curves(X, g), epsilon = 1, tau = 1, unit = person)))
  k0 <- cpu(function() q(dp_kde(v, seq(0, 1, length.out = 101), 0.05, epsilon = 1, delta = 1e-5, binned = TRUE)))
  k1 <- cpu(function() q(dp_kde(v, seq(0, 1, length.out = 101), 0.05, epsilon = 1, delta = 1e-5, unit = pv)))
  expect_lte(m1, 2 * m0 + 0.05)
  expect_lte(k1, 2 * k0 + 0.05)
})

test_that("unit = on SQLite: the units' counts joined by an index, not a scan per unit", {
  # SQLite (3.40) ran the inner join of the rows with their units' counts as a scan of the rows for
  # every unit: 2e4 points took 15 s (0.7 s without a unit). Now within a few times the row-level one.
  skip_on_cran()
  set.seed(7)
  pts <- data.frame(person = rep(seq_len(6000), length.out = 2e4), v = stats::runif(2e4))
  tp <- sqlite_tbl(pts, "pts")
  cpu <- function(f) {
    t <- proc.time()
    f()
    t <- proc.time() - t
    t[["user.self"]] + t[["sys.self"]]
  }
  g <- seq(0, 1, length.out = 51)
  k0 <- cpu(function() summarise_kde(tp, g, 0.05, columns = "v", domain = c(0, 1)))
  k1 <- cpu(function() summarise_kde(tp, g, 0.05, columns = "v", domain = c(0, 1), unit = "person"))
  expect_lte(k1, 4 * k0 + 0.5)
  # the automatic bound of dp_mean() with a unit (its count of curves joined to the cells)
  gm <- seq(0, 1, length.out = 20)
  long <- data.frame(curve = rep(seq_len(2000), times = 20), person = rep(seq_len(2000) %/% 2, times = 20),
                     t = rep(gm, each = 2000), y = stats::rnorm(4e4))
  tb <- sqlite_tbl(long, "curves")
  # (seeded: a bound above the range, refused, is drawn in at most 1 call of 1000 by design)
  a0 <- cpu(function() with_seed_mode(3, suppressWarnings(dp_mean(tb, epsilon = 1, tau = "auto", id = "curve",
                                                                  arg = "t", value = "y", grid = gm))))
  a1 <- cpu(function() with_seed_mode(3, suppressWarnings(dp_mean(tb, epsilon = 1, tau = "auto", id = "curve",
                                                                  arg = "t", value = "y", grid = gm, unit = "person"))))
  expect_lte(a1, 4 * a0 + 0.5)
})

test_that("dp_cov(tau = \"auto\", unit =): the bound's histogram counts units, as dp_mean()'s", {
  d <- unit_data()
  r <- with_seed_mode(1, suppressWarnings(dp_cov(curves(d$X, d$t), epsilon = 1, tau = "auto", center = 0.5, J = 6,
                                                 unit = d$id)))
  expect_equal(r$n, length(unique(d$id)))
  expect_equal(r$epsilon, 1)
  sb <- dpfda:::summarise_mean_bins(list(curves = curves(d$X - 0.5, d$t), grid = d$t, unit = d$id),
                                    c(0.05, 0.1, 0.2, 0.4), "l2", dpfda:::quadrature_weights(d$t), NULL, "error")
  expect_equal(sum(sb$norm_counts), length(unique(d$id)))   # one count per person, not per scan
})

test_that("unit_codes(): one code per unit, sorted (C run count) or not (match), every key type", {
  uc <- dpfda:::unit_codes
  ref <- function(u) match(u, unique(u))
  for (u in list(c(1L, 1L, 2L, 5L, 5L, 5L), c(3L, 1L, 3L, 2L), c(0.5, 0.5, 2, 2, 7), c(2, 1, 2),
                 c(-0, 0, 1), factor(c("b", "a", "b")), factor(c("a", "a", "b")), c("x", "x", "y"),
                 c("y", "x", "y"), c(TRUE, FALSE, TRUE), c(FALSE, TRUE, TRUE), 7L, numeric())) {
    expect_identical(as.integer(uc(u)), as.integer(ref(if (is.factor(u)) as.integer(u) else u)))
  }
  expect_type(uc(c(1, 1, 2)), "integer")
  expect_null(dpfda:::c_unit_runs(c(2L, 1L)))      # a decreasing key is never run-counted
  expect_null(dpfda:::c_unit_runs(c(1, NaN)))
  expect_equal(dpfda:::c_unit_runs(c(1L, 1L, 4L)), c(1L, 1L, 2L))
})

test_that("a unit release states nothing that depends on how many records a unit has", {
  # neighbours: person 1 (1 to 3 curves or points) replaced by a person with 8; under the same
  # seed only the released estimates (and what is computed from them) may differ; the old print
  # "id (300 units, 585 curves)" stated the number of curves, which is not private
  t <- seq(0, 1, length.out = 20)
  set.seed(1)
  person <- rep(1:150, sample(1:3, 150, TRUE))
  X <- outer(stats::rnorm(length(person), 0.5, 0.1), sin(pi * t))
  X2 <- rbind(X[person != 1, ], outer(rep(0.9, 8), cos(pi * t)))
  p2 <- c(person[person != 1], rep(1L, 8))
  k <- kernel_matern(3 / 2, 0.2)
  pts <- function(X, u) data.frame(x = pmin(pmax(X[, 5], 0), 1), y = X[, 6], u = u)
  cases <- list(
    mean = list(function(X, u) dp_mean(curves(X, t), epsilon = 1, tau = 1, unit = u), c("values", "coefficients")),
    mean_inference = list(function(X, u) dp_mean(curves(X, t), epsilon = 1, tau = 1, unit = u, inference = TRUE),
                          c("values", "coefficients", "inference")),
    mean_frl = list(function(X, u) dp_mean(curves(X, t), epsilon = 1, tau = 1, unit = u, mechanism = "frl"),
                    c("values", "coefficients")),
    cov = list(function(X, u) dp_cov(curves(X, t), epsilon = 1, tau = 1, unit = u, kernel = k, J = 4),
               c("values", "coefficients")),
    kde = list(function(X, u) dp_kde(pts(X, u)[c("x", "u")], t, 0.2, epsilon = 1, delta = 1e-5, unit = "u"),
               "values"),
    kde_iclp = list(function(X, u) dp_kde(pts(X, u)[c("x", "u")], t, 0.2, epsilon = 1, unit = "u",
                                          mechanism = "iclp"), c("values", "coefficients")),
    kme = list(function(X, u) dp_kme(pts(X, u), kernel_gaussian(0.3), epsilon = 1, delta = 1e-5,
                                     synthetic = cbind(c(0, 0.5, 1), c(0, 0.5, 1)), unit = "u"),
               c("values", "weights")))
  for (nm in names(cases)) {
    f <- cases[[nm]][[1L]]
    r1 <- unclass(suppressWarnings(with_seed_mode(5, f(X, person))))
    r2 <- unclass(suppressWarnings(with_seed_mode(5, f(X2, p2))))
    expect_setequal(names(r1), names(r2))
    same <- setdiff(names(r1), cases[[nm]][[2L]])
    differ <- same[!vapply(same, function(f) identical(r1[[f]], r2[[f]]), NA)]
    expect_identical(differ, character(0), label = paste(nm, "fields that depend on the records per unit"))
    expect_match(r1$privacy_unit, "^u \\(150 units\\)$")
    expect_false(identical(r1$values, r2$values))   # (the data did change)
  }
})

test_that("as_curves(incomplete = \"drop\") of wide rows takes a unit vector of the rows; a subset drops the rest", {
  g <- seq(0, 1, length.out = 93)
  x <- as_curves(dti_cca, grid = g, incomplete = "drop")
  ok <- stats::complete.cases(dti_cca$cca)
  expect_length(x, sum(ok))
  rel <- function(y, u) with_seed_mode(3, dp_mean(y, unit = u, tau = 0.2, epsilon = 1, center = 0.5))
  # the unit of every row of dti_cca (382), not only of the 376 complete ones
  r_all <- rel(x, dti_cca$id)
  expect_identical(r_all$values, rel(x, dti_cca$id[ok])$values)
  expect_identical(r_all$privacy_unit, "u (142 units)")   # (named after the argument of rel())
  o <- sample(sum(ok))   # the order of the curves does not matter
  expect_equal(rel(x[o], dti_cca$id)$values, r_all$values, tolerance = 1e-12)
  # a subset is a new data set: the curves left out of the whole no longer count in n, and the
  # unit vector of all rows no longer fits it
  expect_equal(rel(x[1:10], NULL)$n, 10)
  expect_null(x[1:10]$dropped)
  expect_identical(x[1:10]$ids, x$ids[1:10])
  expect_error(rel(x[1:300], dti_cca$id), class = "dpfda_error_argument")
  # a reordering keeps the 6 left out (counted, no contribution): a release of the curves alone
  # needs incomplete = "drop" (the mean over a noisy count of the complete ones)
  expect_error(rel(x[o], NULL), "left out 6 incomplete ones", class = "dpfda_error_data")
  expect_equal(with_seed_mode(3, dp_mean(x[o], tau = 0.2, epsilon = 1, center = 0.5, incomplete = "drop"))$n,
               nrow(dti_cca))
})

test_that("a unit that is one of the point columns is a classed error on every source (found by tools/fuzz.R)", {
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  d <- data.frame(person = rep(1:6, each = 5), x = stats::runif(30))
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "t", d)
  for (src in list(d, dplyr::tbl(con, "t"), dp_chunks(split(d, rep(1:3, each = 10))))) {
    expect_error(dp_bandwidth(src, epsilon = 4, delta = 1e-6, fallback = 0.2, domain = c(0, 1), binned = TRUE,
                              columns = "x", unit = "x"), "also one of the point columns", class = "dpfda_error_argument")
    expect_error(dp_kde(src, seq(0, 1, 0.1), 0.1, epsilon = 1, delta = 1e-6, domain = c(0, 1), columns = "x", unit = "x"),
                 "also one of the point columns", class = "dpfda_error_argument")
  }
})

test_that("a wide data frame whose id column is also the unit gives the long form's release", {
  od <- as.data.frame(nlme::Orthodont)
  od$Subject <- as.character(od$Subject)
  w <- stats::reshape(od[, c("Subject", "age", "distance")], idvar = "Subject", timevar = "age", direction = "wide")
  g <- c(8, 10, 12, 14)
  a <- with_seed_mode(2, dp_mean(w, id = Subject, epsilon = 1, tau = 10, center = 22, unit = Subject))
  b <- with_seed_mode(2, dp_mean(od, id = Subject, arg = age, value = distance, grid = g, epsilon = 1, tau = 10,
                                 center = 22, unit = Subject))
  expect_equal(a$values$values, b$values$values, tolerance = 1e-12)
  expect_identical(a$privacy_unit, "Subject (27 units)")
  ca <- with_seed_mode(2, suppressWarnings(dp_cov(w, id = Subject, epsilon = 1, tau = 10, center = 22,
                                                  unit = Subject, J = 3)))
  expect_identical(ca$privacy_unit, a$privacy_unit)
})

test_that("a bad unit is named as `unit`: an unknown bare name on dti_cca, a misspelt column of chunks", {
  ok <- stats::complete.cases(dti_cca$cca)
  g <- seq(0, 1, length.out = 93)
  e <- expect_error(dp_mean(dti_cca[ok, ], epsilon = 1, tau = 0.2, center = 0.5, unit = idd, grid = g),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`unit` names a column \"idd\"", fixed = TRUE)
  long <- data.frame(scan = rep(1:4, each = 3), person = rep(1:2, each = 6), arg = rep(c(0, 0.5, 1), 4),
                     value = stats::rnorm(12))
  e <- expect_error(dp_mean(dp_chunks(long, rows = 5), epsilon = 1, tau = 1, unit = "persn", id = "scan", arg = "arg",
                            value = "value", grid = c(0, 0.5, 1)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`unit` names the column \"persn\"", fixed = TRUE)
  # the same for points in chunks (dp_kde(), dp_kme())
  pts <- data.frame(p = rep(1:20, each = 3), v = seq(0.01, 0.99, length.out = 60))
  g <- seq(0, 1, length.out = 11)
  e <- expect_error(dp_kde(dp_chunks(pts, rows = 7), g, 0.1, epsilon = 1, delta = 1e-5, columns = "v", unit = "persn",
                           domain = c(0, 1)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`unit` names the column \"persn\"", fixed = TRUE)
  e <- expect_error(dp_kme(dp_chunks(pts, rows = 7), kernel_gaussian(0.3), epsilon = 1, delta = 1e-5, columns = "v",
                           unit = "persn", synthetic = matrix(g)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`unit` names the column \"persn\"", fixed = TRUE)
  expect_identical(summarise_kde(dp_chunks(pts, rows = 7), g, 0.1, columns = "v", unit = "p", domain = c(0, 1))$unit,
                   "p")
})

test_that("the same units have the same name: factor(id), a summary of curves, and the budget says so", {
  ok <- stats::complete.cases(dti_cca$cca)
  x <- curves(dti_cca$cca[ok, ], seq(0, 1, length.out = 93))
  id <- dti_cca$id[ok]
  r1 <- with_seed_mode(1, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, unit = id))
  r2 <- with_seed_mode(1, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, unit = factor(id)))
  expect_identical(r2$privacy_unit, r1$privacy_unit)
  expect_identical(r1$privacy_unit, "id (142 units)")
  s <- summarise_mean(x, tau = 0.2, center = 0.5, unit = id)
  expect_identical(s$unit, "id")
  expect_identical(summarise_cov(x, tau = 0.2, center = 0.5, unit = id, J = 4)$unit, "id")
  b <- privacy_budget(3)
  with_seed_mode(1, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, unit = id, budget = b))
  expect_silent(with_seed_mode(1, dp_mean(s, epsilon = 1, budget = b)))   # (no warning of mixed units)
  expect_output(print(b), "privacy unit: a whole id (`unit`, every release)", fixed = TRUE)
  # units under two names: said as such, not as "the others one record"
  ii <- id
  local_privacy_warnings()
  expect_warning(with_seed_mode(1, dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, unit = ii, budget = b)),
                 class = "dpfda_warning_privacy")
  out <- paste(capture.output(print(b)), collapse = " ")
  expect_match(out, "every charge protects a whole unit, but they are named differently (id, ii)", fixed = TRUE)
  expect_false(grepl("the others one record", out, fixed = TRUE))
})

test_that("a summary's unit is its own: `unit =` with a summary is refused by every release", {
  # dp_mean(summary, unit = id) ignored `unit` in silence: a summary of 376 scans was released as
  # one curve per individual while the caller asked for persons (142), so a person with 8 scans had
  # 8 times the epsilon asked for. dp_cov(), dp_fpca(), dp_kde() and dp_kme() refused it already.
  d <- dti_cca[complete.cases(dti_cca$cca), ]
  gr <- seq(0, 1, length.out = 93)
  s <- summarise_mean(d, grid = gr, tau = 0.3, center = 0.45)
  su <- summarise_mean(d, grid = gr, tau = 0.3, center = 0.45, unit = id)
  b <- privacy_budget(epsilon = 5)
  expect_error(dp_mean(s, epsilon = 1, unit = id, budget = b), "a summary has its unit already",
               class = "dpfda_error_privacy")
  expect_error(dp_mean(su, epsilon = 1, unit = "visit", budget = b), "this one: `id`", class = "dpfda_error_argument")
  expect_equal(nrow(b$ledger), 0L)
  expect_equal(dp_mean(su, epsilon = 1)$n, 142)
  sc <- summarise_cov(d, grid = gr, tau = 0.3, J = 3)
  expect_error(dp_cov(sc, epsilon = 1, unit = id), class = "dpfda_error_argument")
  expect_error(dp_fpca(sc, epsilon = 1, unit = id), class = "dpfda_error_argument")
  x <- data.frame(v = seq(0.1, 0.9, length.out = 50), u = rep(1:10, 5))
  sk <- summarise_kme(x, kernel_gaussian(0.3), synthetic = matrix(seq(0, 1, length.out = 5)), columns = "v")
  expect_error(dp_kme(sk, kernel_gaussian(0.3), epsilon = 1, delta = 1e-5, unit = u), class = "dpfda_error_argument")
})

test_that("unit =: a row without its unit gives the same release from every source and chunk size", {
  # One row of curve 7 lacks its unit (its other rows name it). Memory and SQLite drop the row, as any
  # row with a missing value; chunks split the unit's rows at the missing value, and the row alone
  # seemed a curve with no unit: refused with 10 or 7 rows a chunk, released with 100. Also: with
  # incomplete = "drop" and inference = TRUE, SQLite overflowed its parser stack (17 nested queries).
  set.seed(1)
  gr <- seq(0, 1, length.out = 5)
  long <- data.frame(id = rep(1:12, each = 5), arg = rep(gr, 12), value = rnorm(60), u = rep(1:6, each = 10))
  long$u[32] <- NA
  env <- environment()
  srcs <- list(frame = long, chunks10 = dp_chunks(long, rows = 10), chunks7 = dp_chunks(long, rows = 7),
               sqlite = sqlite_tbl(long, "u1", envir = env))
  rel <- function(x, ...) with_seed_mode(1, suppressWarnings(dp_mean(x, unit = "u", grid = gr, epsilon = 1, tau = 3,
                                                                     incomplete = "drop", ...)))
  relc <- function(x) with_seed_mode(2, suppressWarnings(dp_cov(x, unit = "u", grid = gr, epsilon = 1, tau = 3, J = 2,
                                                                incomplete = "drop")))
  ref <- rel(long)
  ref_inf <- rel(long, inference = TRUE)
  ref_cov <- relc(long)
  expect_equal(ref$n, 6)
  for (nm in names(srcs)[-1L]) {
    expect_equal(rel(srcs[[nm]])$values$values, ref$values$values, tolerance = 1e-12, info = nm)
    r <- rel(srcs[[nm]], inference = TRUE)
    expect_equal(r$values$values, ref_inf$values$values, tolerance = 1e-12, info = nm)
    expect_equal(r$n_complete, ref_inf$n_complete, info = nm)
    expect_equal(relc(srcs[[nm]])$values, ref_cov$values, tolerance = 1e-10, info = nm)
  }
})
