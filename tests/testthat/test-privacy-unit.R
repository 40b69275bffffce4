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
