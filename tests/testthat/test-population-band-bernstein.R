# dp_mean(mechanism = "bernstein", inference = TRUE): the population band of
# the Bernstein release (issue 29; R/population-band-bernstein.R).

test_that("Bernstein band: the basis spans the release's mean map, and the radius bounds every clamped curve", {
  g <- seq(0, 2, length.out = 30)
  k <- 12L
  Tm <- dpfda:::bernstein_mean_operator(g, k)
  expect_equal(rowSums(Tm), rep(1, 30), tolerance = 1e-12)   # an average with non-negative weights
  expect_gte(min(Tm), -1e-15)
  set.seed(1)
  X <- matrix(rnorm(30 * 40, sin(g), 0.3), 40, byrow = TRUE)
  # the release is T xbar (xbar the clamped mean) plus the polynomial of its lattice noise
  r <- with_seed_mode(2, dp_mean(curves(X, g), epsilon = 1, tau = 0.5, mechanism = "bernstein",
                                 bernstein_k = k))
  xbar <- colMeans(pmin(pmax(X, -0.5), 0.5))
  lat <- g[1] + (0:k) / k * (g[30] - g[1])
  e <- as.vector(r$bernstein$values$values) - stats::approx(g, xbar, xout = lat)$y
  expect_equal(as.vector(predict(r)), as.vector(Tm %*% xbar + dpfda:::bernstein_map(r$bernstein, g) %*% e),
               tolerance = 1e-12)
  ib <- dpfda:::bernstein_inference_basis(g, k)
  expect_equal(crossprod(ib$vectors, ib$weights * ib$vectors), diag(ib$J), tolerance = 1e-10)
  # a_i = P' x_i are the coordinates of T x_i
  A <- X %*% ib$projection
  expect_equal(A %*% t(ib$vectors), X %*% t(Tm), tolerance = 1e-10)
  # every curve clamped to [-tau, tau] has ||a_i|| <= tau sqrt(|domain|), attained by the constant tau
  Z <- rbind(matrix(sample(c(-0.5, 0.5), 30 * 300, TRUE), 300), rep(0.5, 30), rep(c(-0.5, 0.5), 15))
  nrm <- sqrt(rowSums((Z %*% ib$projection)^2))
  rad <- dpfda:::inference_radius(ib, 0.5)
  expect_equal(rad, 0.5 * sqrt(2))
  expect_lte(max(nrm), rad * (1 + 1e-12))
  expect_equal(nrm[301], rad, tolerance = 1e-10)
})

test_that("Bernstein band: calibration of the spread, worst-case neighbours, exact epsilon", {
  set.seed(3)
  X <- pb_draw(200)
  b <- privacy_budget(epsilon = 2)
  r <- with_seed_mode(4, dp_mean(curves(X, pb_grid), epsilon = 2, tau = 2, mechanism = "bernstein",
                                 inference = TRUE, budget = b))
  expect_equal(r$epsilon, 2)
  expect_equal(budget_spent(b)[["epsilon"]], 2, tolerance = 1e-12)
  inf <- r$inference
  ib <- inf$basis
  K <- inf$K
  expect_equal(K, 4L)
  expect_equal(inf$Jt, ib$J)
  R <- dpfda:::inference_radius(ib, 2) + sqrt(sum(inf$point^2))
  expect_equal(inf$sensitivity, 5 * R^2 / 200)          # (||s_K||^2 + s_1^2) R^2 / n with s = 1
  expect_equal(inf$epsilon, 2 * 0.2 * 0.9)               # the spread's part of the inference share
  expect_gte(inf$laplace_scale, inf$sensitivity / (0.5 * inf$epsilon))
  # replacing one curve by an extreme one moves the second moments by at most the sensitivity
  p <- inf$point
  stat <- function(X) {
    cs <- dpfda:::summarise_cov_basis(curves(X, pb_grid), ib, 2, "id", "arg", "value")
    A1 <- cs$sums[1:K, 1]
    A2 <- cs$sums[1:K, 1 + 1:K, drop = FALSE]
    C <- (A2 - outer(p, A1) - outer(A1, p)) / 200 + outer(p, p)
    C[upper.tri(C, diag = TRUE)]
  }
  base <- stat(X)
  worst <- 0
  for (j in 1:K) for (sg in c(-1, 1)) {
    X2 <- X
    X2[1, ] <- sg * 50 * ib$vectors[, j]   # clamped to +-tau at every point
    worst <- max(worst, sum(abs(stat(X2) - base)))
  }
  expect_lte(worst, inf$sensitivity)
  expect_gt(worst, 0.1 * inf$sensitivity)
  # the count of clipped curves uses the sup norm, as the clamping
  X3 <- X
  X3[1:30, 5] <- 3
  expect_equal(dpfda:::population_clipped_count(list(curves = curves(X3, pb_grid)), ib, 2, NULL, "error"),
               sum(apply(abs(X3) > 2, 1, any)))
  ci <- confint(r, type = "population")
  expect_match(attr(ci, "method"), "Bernstein polynomials of degree 20")
  expect_match(attr(ci, "method"), "Bernstein approximation bias bounded")
  expect_true(all(ci$lower < ci$upper))
})

pbb_data <- function() {
  set.seed(5)
  X <- pb_draw(45)
  X[2, 3] <- 9   # clamped
  n <- nrow(X)
  list(X = X, long = data.frame(id = rep(seq_len(n), each = length(pb_grid)), arg = rep(pb_grid, n),
                                value = as.vector(t(X))))
}
pbb_release <- function(x, ...) {
  with_seed_mode(6, dp_mean(x, epsilon = 2, tau = 1.5, mechanism = "bernstein", inference = TRUE, center = pb_mu, ...))
}
pbb_same <- function(r, r_mem) {
  expect_equal(predict(r), predict(r_mem), tolerance = 1e-10)
  expect_equal(r$inference$second_moment, r_mem$inference$second_moment, tolerance = 1e-8)
  expect_equal(r$inference$tail_top, r_mem$inference$tail_top, tolerance = 1e-8)
  expect_equal(r$inference$clipped, r_mem$inference$clipped)
  expect_equal(confint(r, type = "population")$upper, confint(r_mem, type = "population")$upper, tolerance = 1e-8)
}

test_that("Bernstein band: curves, a data frame and chunks give the same release and band", {
  d <- pbb_data()
  r_mem <- pbb_release(curves(d$X, pb_grid))
  r_df <- pbb_release(d$long, grid = pb_grid)
  r_ch <- pbb_release(dp_chunks(unname(split(d$long, ceiling(seq_len(nrow(d$long)) / 100)))), grid = pb_grid)
  for (r in list(r_df, r_ch)) pbb_same(r, r_mem)
})

test_engines("Bernstein band: a table gives the release and band of memory", function(con) {
  d <- pbb_data()
  DBI::dbWriteTable(con, "pbb", d$long)   # (before the seeded call: writing a table may draw random numbers)
  pbb_same(pbb_release(dplyr::tbl(con, "pbb"), grid = pb_grid), pbb_release(curves(d$X, pb_grid)))
})

test_that("Bernstein band: without its bias bound it still covers the smoothed mean (small simulation)", {
  # n epsilon large, so that the sampling error dominates the lattice noise: the band less its bias
  # bound must cover T mu, the polynomial of the population mean; without the sampling part it fails
  set.seed(29)
  Tmu <- as.vector(dpfda:::bernstein_mean_operator(pb_grid, 20L) %*% pb_mu(pb_grid))
  res <- vapply(1:40, function(i) {
    r <- dp_mean(curves(pb_draw(2000), pb_grid), epsilon = 8, tau = 2.5, mechanism = "bernstein", inference = TRUE)
    pb <- dpfda:::population_band(r, 0.95, 1000, 1L)
    err <- abs(as.vector(predict(r)) - Tmu)
    c(all(err <= pb$half - pb$bias), all(err <= pb$multiplier * pb$parts$noise))
  }, c(NA, NA))
  expect_gte(mean(res[1, ]), 0.9)
  expect_lt(mean(res[2, ]), 0.5)
})

test_that("a Bernstein population band that is the whole public range warns; a narrower one does not", {
  skip_if_not_installed("fda")
  g <- fda::growth
  r <- with_seed_mode(1, suppressWarnings(dp_mean(t(g$hgtf), grid = g$age, mechanism = "bernstein", tau = 30,
                                                  center = function(s) 75 + 6 * s, epsilon = 1, inference = TRUE)))
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old), add = TRUE)
  b <- expect_warning(confint(r, type = "population"), class = "dpfda_warning_utility")
  expect_match(conditionMessage(b), "public range center +- tau (30) at every grid point", fixed = TRUE)
  set.seed(1)
  t <- seq(0, 1, length.out = 30)
  X <- outer(stats::rnorm(3000, 0, 0.3), sin(pi * t))
  r2 <- with_seed_mode(1, suppressWarnings(dp_mean(X, grid = t, mechanism = "bernstein", tau = 5, epsilon = 4,
                                                   inference = TRUE)))
  expect_no_warning(b2 <- confint(r2, type = "population"))
  expect_lt(min(b2$upper - b2$lower), 10)
})
