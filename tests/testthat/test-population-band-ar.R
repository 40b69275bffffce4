# dp_mean(mechanism = "iclp_ar", inference = TRUE): the population band of the
# thresholded release (issue 29; R/population-band-ar.R).

test_that("ICLP-AR band: the spread is calibrated for unshrunk coefficients, exact epsilon, the parts", {
  set.seed(3)
  X <- pb_draw(300)
  b <- privacy_budget(epsilon = 2)
  r <- with_seed_mode(4, dp_mean(curves(X, pb_grid), epsilon = 2, tau = 1.5, mechanism = "iclp_ar",
                                 inference = TRUE, budget = b))
  expect_equal(r$epsilon, 2)
  expect_equal(budget_spent(b)[["epsilon"]], 2, tolerance = 1e-12)
  inf <- r$inference
  jt <- r$params$J_tau
  expect_gte(jt, 2L)
  expect_equal(inf$Jt, jt)                                 # the released components, unshrunk
  expect_equal(inf$sensitivity, (inf$K + 1) * (1.5 + sqrt(sum(inf$point^2)))^2 / 300)
  expect_equal(inf$tail_scale > 0, jt > inf$K)
  pb <- dpfda:::population_band(r, 0.95, 2000, 1L)
  ci <- confint(r, type = "population", nsim = 2000, seed = 1)
  expect_equal((ci$upper - ci$lower) / 2, pb$half)
  expect_match(attr(ci, "method"), "1-Lipschitz")
  expect_match(attr(ci, "method"), sprintf("each of the %d released components", jt))
  # the parts: the half-width is the sum of the quantiles of its parts and the bias bound
  expect_equal(pb$half, pb$bias + pb$multipliers[["sampling"]] * pb$parts$sampling +
                 pb$multipliers[["noise"]] * pb$parts$noise)
  expect_equal(pb$multipliers[["sampling"]], stats::qnorm(1 - (0.05 * 0.9 / 2) / (2 * jt)))
})

test_that("ICLP-AR band: curves, a data frame and chunks give the same release and band", {
  set.seed(8)
  X <- pb_draw(60)
  n <- nrow(X)
  long <- data.frame(id = rep(seq_len(n), each = length(pb_grid)), arg = rep(pb_grid, n), value = as.vector(t(X)))
  rel <- function(x, ...) with_seed_mode(9, dp_mean(x, epsilon = 2, tau = 1.5, mechanism = "iclp_ar",
                                                    inference = TRUE, ...))
  r_mem <- rel(curves(X, pb_grid))
  for (r in list(rel(long, grid = pb_grid), rel(dp_chunks(unname(split(long, ceiling(seq_len(nrow(long)) / 70)))),
                                                grid = pb_grid))) {
    expect_equal(predict(r), predict(r_mem), tolerance = 1e-10)
    expect_equal(r$inference$second_moment, r_mem$inference$second_moment, tolerance = 1e-10)
    expect_equal(confint(r, type = "population")$upper, confint(r_mem, type = "population")$upper, tolerance = 1e-10)
  }
})

test_that("ICLP-AR band: covers the thresholded mean without its bias bound; its noise part is exact", {
  # the band less its bias bound must cover sum_j v_j soft(a_j, t_j) (a_j the population mean's
  # coefficients; small simulation)
  set.seed(30)
  thresholded <- function(r, coef) {
    b <- r$basis
    jt <- r$params$J_tau
    t <- dpfda:::ar_threshold(b$values, r$params$eta, r$params$psi, 1, dpfda:::basis_measure(b))
    as.vector(b$vectors[, seq_len(jt), drop = FALSE] %*% dpfda:::soft_threshold(coef[seq_len(jt)], t[seq_len(jt)]))
  }
  hits <- vapply(1:30, function(i) {
    r <- dp_mean(curves(pb_draw(1000), pb_grid), epsilon = 4, tau = 1.5, mechanism = "iclp_ar", inference = TRUE)
    a <- as.vector(dpfda:::kl_coef(r$basis, matrix(pb_mu(pb_grid), 1L)))
    pb <- dpfda:::population_band(r, 0.95, 1000, 1L)
    all(abs(as.vector(predict(r)) - thresholded(r, a)) <= pb$half - pb$bias)
  }, NA)
  expect_gte(mean(hits), 0.9)
  # the noise part alone, on fixed data (so the sampling error is fixed): its quantile covers the
  # noise of 300 releases about the thresholded mean of the data as often as it should, and 0.6 of it
  # clearly less often
  X <- pb_draw(300)
  r0 <- dp_mean(curves(X, pb_grid), epsilon = 2, tau = 1.5, mechanism = "iclp_ar", inference = TRUE)
  pb <- dpfda:::population_band(r0, 0.95, 4000, 1L)
  abar <- colMeans(dpfda:::kl_coef(r0$basis, dpfda:::clip_curves_l2(X, r0$basis$weights, 1.5)))
  target <- thresholded(r0, abar)
  qn <- pb$multipliers[["noise"]] * pb$parts$noise
  inside <- with_seed_mode(12, vapply(1:300, function(i) {
    r <- dp_mean(curves(X, pb_grid), epsilon = 2, tau = 1.5, mechanism = "iclp_ar", inference = TRUE)
    e <- abs(as.vector(predict(r)) - target)
    c(all(e <= qn), all(e <= 0.6 * qn))
  }, c(NA, NA)))
  nominal <- 1 - (1 - 0.95 - 0.05 * 0.1) / 2   # the noise part's share of the level
  expect_gt(mean(inside[1, ]), nominal - 0.04)
  expect_lt(mean(inside[2, ]), nominal - 0.15)
})
