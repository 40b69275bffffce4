# Budgets and exact (floating-point-safe) noise for the ICLP family and KME
# (dp_mean, dp_cov, dp_erm, dp_kde "iclp"/"frl", pcv_select, dp_kme).

icurves <- function(n = 60, m = 20, seed = 1) {
  t <- seq(0, 1, length.out = m)
  set.seed(seed)
  curves(outer(runif(n, 0.5, 1), sin(2 * pi * t)) + matrix(rnorm(n * m, sd = 0.1), n), t)
}

test_that("ICLP mechanisms charge the budget once, PCV included, and refuse an overspend", {
  x <- icurves()
  b <- privacy_budget(3, 1e-4, composition = "basic")
  with_seed_mode(1, dp_mean(x, 0.5, 1, budget = b))
  with_seed_mode(2, dp_mean(x, 0.5, 1, "frl", select = "pcv", epsilon_select = 0.25, folds = 3, budget = b))
  with_seed_mode(3, dp_cov(x, 0.5, 1, kernel = kernel_matern(1.5, 0.2), budget = b))
  g <- seq(0, 1, length.out = 21)
  with_seed_mode(4, dp_erm(runif(50), rnorm(50), 0.25, 0.1, g, y_bound = 2, budget = b))
  with_seed_mode(5, dp_kde(runif(50), g, 0.1, 0.25, mechanism = "iclp", budget = b))
  s <- summary(b)
  expect_equal(s$label, c("dp_mean", "dp_mean + pcv_select", "dp_cov", "dp_erm", "dp_kde"))
  expect_equal(s$epsilon, c(0.5, 0.75, 0.5, 0.25, 0.25))
  expect_equal(budget_spent(b)$epsilon, 2.25)
  before <- nrow(summary(b))
  expect_error(dp_mean(x, 1, 1, budget = b), class = "dpfda_error_budget")
  expect_equal(nrow(summary(b)), before)                 # a refused release is not charged
  bs <- privacy_budget(1)
  s1 <- with_seed_mode(6, pcv_select(x, 1, 1, "frl", kl_basis(kernel_matern(1.5, 0.1), x$grid),
                                     epsilon_select = 0.4, folds = 3, budget = bs))
  expect_equal(budget_spent(bs)$epsilon, 0.4)
})

test_that("the GP variant of dp_mean and dp_kme record mu for exact Gaussian composition", {
  x <- icurves()
  b <- privacy_budget(10, 1e-3)
  r <- with_seed_mode(1, dp_mean(x, 1, 1, "gp", delta = 1e-5, budget = b))
  k <- with_seed_mode(2, dp_kme(matrix(runif(200), 100, 2), kernel_gaussian(0.3), 1, 1e-5,
                                synthetic = matrix(runif(20), 10, 2), budget = b))
  s <- summary(b)
  expect_equal(s$mu, c(r$sensitivity / r$noise_scale, k$sensitivity / k$noise_scale))
  # two mu-GDP releases compose to sqrt(mu1^2 + mu2^2)-GDP, less than basic composition
  mu <- sqrt(sum(s$mu^2))
  expect_equal(budget_spent(b)$epsilon, min(2, gdp_epsilon(mu, budget_spent(b)$delta)), tolerance = 1e-6)
  expect_lt(budget_spent(b)$epsilon, 2)
})

test_that("exact ICLP / FRL noise: coefficients on the grid, calibrated discrete Laplace, 0.7x detected", {
  x <- icurves(80, 15)
  r <- with_seed_mode(1, dp_mean(x, 1, 1, "iclp_qr", noise = "exact"))
  expect_true(r$noise_exact)
  u <- r$coefficients / r$grid_step
  expect_lt(max(abs(u - round(u))), 1e-6)
  expect_lte(r$noise_inflation, 1.0101)
  expect_gte(r$noise_inflation, 1)
  # FRL: the centre is the mean coefficient vector of the clipped curves (first M)
  b <- kl_basis(kernel_matern(3 / 2, 0.1), x$grid)
  A <- dpfda:::kl_coef(b, dpfda:::clip_curves_l2(x$values, b$weights, 1))
  rs <- with_seed_mode(7, lapply(1:3000, function(i) dp_mean(x, 1, 1, "frl", noise = "exact")))
  M <- rs[[1]]$params$M
  step <- rs[[1]]$grid_step
  centre <- round(colMeans(A)[seq_len(M)] / step) * step
  Z <- t(vapply(rs, function(r) r$coefficients[seq_len(M)], numeric(M))) - rep(centre, each = 3000)
  scale <- rs[[1]]$noise_scale * rs[[1]]$noise_inflation            # Laplace scale b' (before ceiling)
  z <- as.vector(Z) / scale
  plap <- function(q) ifelse(q < 0, 0.5 * exp(q), 1 - 0.5 * exp(-q))
  expect_gt(suppressWarnings(ks.test(z, plap)$p.value), 1e-3)
  expect_lt(suppressWarnings(ks.test(z / 0.7, plap)$p.value), 1e-6)
  # the privacy loss of the rounded mechanism on a worst-case pair stays below epsilon
  y <- x$values
  y[1, ] <- -y[1, ] * 5                                               # clipped to norm tau, opposite sign
  A2 <- dpfda:::kl_coef(b, dpfda:::clip_curves_l2(y, b$weights, 1))
  du <- abs(round(colMeans(A)[seq_len(M)] / step) - round(colMeans(A2)[seq_len(M)] / step))
  t_units <- ceiling(scale / step)
  expect_lte(sum(du / t_units), 1 + 1e-12)
})

test_that("exact noise in dp_kde(iclp / frl), dp_cov and dp_erm, and the GP mean (whitened discrete Gaussian)", {
  g <- seq(0, 1, length.out = 31)
  set.seed(2)
  z <- runif(200)
  for (mech in c("iclp", "frl")) {
    r <- with_seed_mode(3, dp_kde(z, g, 0.08, 1, mechanism = mech, noise = "exact"))
    expect_true(r$noise_exact)
    cf <- r$coefficients                         # re-projected from the values: rounding error only
    expect_lt(max(abs(cf - round(cf / r$grid_step) * r$grid_step)), 1e-9 * max(abs(cf)))
  }
  x <- icurves(40, 10)
  expect_true(with_seed_mode(4, dp_cov(x, 1, 1, kernel = kernel_matern(1.5, 0.2), noise = "exact"))$noise_exact)
  expect_true(with_seed_mode(5, dp_erm(runif(40), rnorm(40), 1, 0.1, g, y_bound = 2, noise = "exact"))$noise_exact)
  rg <- with_seed_mode(7, dp_mean(x, 1, 1, "gp", delta = 1e-3, noise = "exact"))
  expect_true(rg$noise_exact)
  expect_equal(rg$zcdp_rho, (rg$sensitivity + sqrt(ncol(x$values)) * rg$grid_step)^2 / (2 * rg$noise_scale^2),
               tolerance = 1e-10)
  rb <- with_seed_mode(6, dp_mean(x, 1, 1, "bernstein", noise = "exact"))
  expect_true(rb$noise_exact)
})

test_that("exact KME noise: grid values, calibrated discrete Gaussian / Laplace, charged by rho", {
  ex <- dpfda:::kme_exact(50, 2 / 1000, 1, 1e-5, laplace = FALSE)
  v <- with_seed_mode(1, replicate(200, ex$draw(rep(0.123456789, 50))))
  expect_lt(max(abs(v / ex$step - round(v / ex$step))), 1e-9)
  z <- as.vector(v - round(0.123456789 / ex$step) * ex$step) / ex$scale
  expect_gt(suppressWarnings(ks.test(z, "pnorm")$p.value), 1e-3)
  expect_lt(suppressWarnings(ks.test(z / 0.7, "pnorm")$p.value), 1e-6)
  # the zCDP rho implies the claimed (epsilon, delta) for the inflated sensitivity
  expect_lte(zcdp_delta(1, ex$rho), 1e-5 * (1 + 1e-9))
  expect_gt(ex$scale, dp_noise_scale(2 / 1000, 1, 1e-5))        # never less noise than the float version
  exl <- dpfda:::kme_exact(50, 2 / 1000, 1, 0, laplace = TRUE)
  expect_gte(exl$scale, sqrt(50) * 2 / 1000)
  b <- privacy_budget(10, 1e-3, composition = "zcdp")
  x <- matrix(runif(400), 200, 2)
  r1 <- with_seed_mode(2, dp_kme(x, kernel_gaussian(0.3), 1, 1e-5, synthetic = matrix(runif(30), 15, 2),
                                 noise = "exact", budget = b))
  r2 <- with_seed_mode(3, dp_kme(x, kernel_gaussian(0.3), 1, 1e-5, method = "random_features", J = 100,
                                 synthetic = matrix(runif(10), 5, 2), iters = 5, noise = "exact", budget = b))
  expect_true(r1$noise_exact && r2$noise_exact)
  expect_equal(nrow(summary(b)), 2L)
  expect_false(anyNA(summary(b)$rho))
  expect_error(dp_kme(x, kernel_gaussian(0.3), 1, 1e-5, method = "exponential",
                      candidates = list(matrix(runif(4), 2)), noise = "exact"), class = "dpfda_error_argument")
})
