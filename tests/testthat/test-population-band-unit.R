# dp_mean(inference = TRUE, unit = ): the population band with a privacy unit
# (issues 29 and 31). A person has 1 to 6 curves sharing a person effect; the
# band is for the population mean of the persons' mean curves.

pbu_grid <- seq(0, 1, length.out = 21)
pbu_mu <- function(t) 0.4 * sin(2 * pi * t) + 0.3 * t
pbu_draw <- function(n_persons, g = pbu_grid) {
  k <- sample(1:6, n_persons, replace = TRUE)
  person <- rep(seq_len(n_persons), k)
  phi <- rbind(sqrt(2) * sin(pi * g), sqrt(2) * cos(2 * pi * g))
  eff <- matrix(rnorm(2 * n_persons), n_persons) * rep(c(0.4, 0.2), each = n_persons)   # per person
  within <- matrix(rnorm(2 * length(person)), length(person)) * 0.05
  X <- outer(rep(1, length(person)), pbu_mu(g)) + (eff[person, , drop = FALSE] + within) %*% phi
  list(X = X, person = person)
}

test_that("inference with unit: n counts persons, the spread release is person-level calibrated", {
  set.seed(1)
  d <- pbu_draw(80)
  r <- with_seed_mode(3, dp_mean(curves(d$X, pbu_grid), epsilon = 1, tau = 1.5, inference = TRUE, unit = d$person))
  expect_equal(r$n, 80)
  expect_equal(r$epsilon, 1)
  # the recorded sensitivity is the formula's with n = 80 persons
  sK <- dpfda:::inference_keep("iclp_qr", r$basis, r$params)[seq_len(r$inference$K)]
  expect_equal(r$inference$sensitivity, (sum(sK^2) + max(sK)^2) * (1.5 + sqrt(sum(r$inference$point^2)))^2 / 80)
  ci <- confint(r, type = "population")
  expect_true(all(is.finite(ci$lower) & ci$lower < ci$upper))
  expect_match(r$privacy_unit, "80 units")
  # the second-moment statistic moves by at most its L1 sensitivity (for n = persons) when every curve
  # of the person with the most curves is replaced by extreme curves
  b <- r$basis
  K <- r$inference$K
  Jt <- r$inference$Jt
  sh <- dpfda:::inference_keep("iclp_qr", b, r$params)
  bK <- b
  bK$vectors <- b$vectors[, seq_len(Jt), drop = FALSE]
  bK$values <- b$values[seq_len(Jt)]
  bK$J <- Jt
  p <- r$inference$point
  stat <- function(X) {
    cs <- dpfda:::summarise_cov_basis(curves(X, pbu_grid), bK, 1.5, "id", "arg", "value", unit = d$person)
    A1 <- cs$sums[1:K, 1]
    A2 <- cs$sums[1:K, 1 + 1:K, drop = FALSE]
    C <- ((A2 - outer(p, A1) - outer(A1, p)) / 80 + outer(p, p)) * outer(sh[1:K], sh[1:K])
    C[upper.tri(C, diag = TRUE)]
  }
  big <- as.integer(names(which.max(table(d$person))))
  rows <- which(d$person == big)
  worst <- 0
  for (j in seq_len(K)) for (sg in c(-1, 1)) {
    X2 <- d$X
    X2[rows, ] <- matrix(sg * 10 * b$vectors[, j], length(rows), length(pbu_grid), byrow = TRUE)
    worst <- max(worst, sum(abs(stat(X2) - stat(d$X))))
  }
  expect_lte(worst, r$inference$sensitivity * (1 + 1e-9))
  expect_gt(worst, 0.2 * r$inference$sensitivity)
  # without the unit the same swap of several curves exceeds the row-level sensitivity (n = curves)
  stat_row <- function(X) {
    cs <- dpfda:::summarise_cov_basis(curves(X, pbu_grid), bK, 1.5, "id", "arg", "value")
    n <- nrow(X)
    A1 <- cs$sums[1:K, 1]
    A2 <- cs$sums[1:K, 1 + 1:K, drop = FALSE]
    C <- ((A2 - outer(p, A1) - outer(A1, p)) / n + outer(p, p)) * outer(sh[1:K], sh[1:K])
    C[upper.tri(C, diag = TRUE)]
  }
  sens_row <- r$inference$sensitivity * 80 / nrow(d$X)
  X2 <- d$X
  X2[rows, ] <- matrix(10 * b$vectors[, 1], length(rows), length(pbu_grid), byrow = TRUE)
  expect_gt(sum(abs(stat_row(X2) - stat_row(d$X))), sens_row)
})

test_that("inference with unit: the same release from curves, a data frame and chunks", {
  set.seed(2)
  d <- pbu_draw(40)
  n <- nrow(d$X)
  long <- data.frame(id = rep(seq_len(n), times = ncol(d$X)), person = rep(d$person, times = ncol(d$X)),
                     arg = rep(pbu_grid, each = n), value = as.vector(d$X))
  long <- long[order(long$person, long$id), ]
  rel <- function(x, ...) with_seed_mode(7, dp_mean(x, epsilon = 1, tau = 1.5, inference = TRUE, ...))
  r_mem <- rel(curves(d$X, pbu_grid), unit = d$person)
  r_df <- rel(long, grid = pbu_grid, unit = person)
  r_ch <- rel(dp_chunks(unname(split(long, ceiling(seq_len(nrow(long)) / 150)))), grid = pbu_grid, unit = "person")
  for (r in list(r_df, r_ch)) {
    expect_equal(r$n, 40)
    expect_equal(predict(r), predict(r_mem), tolerance = 1e-10)
    expect_equal(r$inference$second_moment, r_mem$inference$second_moment, tolerance = 1e-10)
    expect_equal(r$inference$tail_top, r_mem$inference$tail_top, tolerance = 1e-10)
    expect_equal(confint(r, type = "population")$upper, confint(r_mem, type = "population")$upper,
                 tolerance = 1e-10)
  }
})

test_engines("inference with unit: a table gives the release of memory", function(con) {
  set.seed(4)
  d <- pbu_draw(30)
  n <- nrow(d$X)
  long <- data.frame(id = rep(seq_len(n), times = ncol(d$X)), person = rep(d$person, times = ncol(d$X)),
                     arg = rep(pbu_grid, each = n), value = as.vector(d$X))
  rel <- function(x, ...) with_seed_mode(8, dp_mean(x, epsilon = 1, tau = 1.5, inference = TRUE, ...))
  r_mem <- rel(curves(d$X, pbu_grid), unit = d$person, center = 0.1)
  DBI::dbWriteTable(con, "pbu", long)
  r_sql <- rel(dplyr::tbl(con, "pbu"), grid = pbu_grid, center = 0.1, unit = "person")
  expect_equal(r_sql$n, 30)
  expect_equal(predict(r_sql), predict(r_mem), tolerance = 1e-10)
  expect_equal(r_sql$inference$second_moment, r_mem$inference$second_moment, tolerance = 1e-8)
  expect_equal(r_sql$inference$tail_top, r_mem$inference$tail_top, tolerance = 1e-8)
})

test_that("inference with unit: the band covers the population mean of persons (small simulation)", {
  set.seed(31)
  hits <- vapply(1:40, function(i) {
    d <- pbu_draw(300)
    r <- dp_mean(curves(d$X, pbu_grid), epsilon = 2, tau = 1.5, inference = TRUE, unit = d$person)
    # (the noisy count of clipped units may rarely call for the clipping warning: not this test's topic)
    ci <- suppressWarnings(confint(r, type = "population", nsim = 1000), classes = "dpfda_warning_clipping")
    all(ci$lower <= pbu_mu(pbu_grid) & pbu_mu(pbu_grid) <= ci$upper)
  }, NA)
  expect_gte(mean(hits), 0.9)
})
