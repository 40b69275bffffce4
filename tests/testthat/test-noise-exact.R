# Exact discrete samplers (src/discrete.c) and noise = "exact" in the
# mechanisms (R/noise-exact.R): exact probabilities against the pmf,
# released values on the grid, calibration including the rounding distance.

# Pearson chi-square of integer draws against a pmf on the integers; cells
# with expected count below 5 are pooled into the two tails.
chisq_pvalue <- function(z, pmf, support = -200:200) {
  p <- pmf(support)
  p <- p / sum(p)
  n <- length(z)
  keep <- which(n * p >= 5)
  lo <- min(support[keep])
  hi <- max(support[keep])
  cells <- lo:hi
  obs <- c(sum(z < lo), tabulate(z[z >= lo & z <= hi] - lo + 1L, length(cells)), sum(z > hi))
  ex <- n * c(sum(p[support < lo]), p[support >= lo & support <= hi], sum(p[support > hi]))
  use <- ex > 0
  stat <- sum((obs[use] - ex[use])^2 / ex[use])
  stats::pchisq(stat, sum(use) - 1L, lower.tail = FALSE)
}

dlap_pmf <- function(t) function(x) exp(-abs(x) / t)
dgauss_pmf <- function(s2) function(x) exp(-x^2 / (2 * s2))

test_that("Bernoulli(exp(-gamma)) is exact for rational gamma", {
  with_seed_mode(11, {
    n <- 40000
    # (the last two: Bernoulli(n / d) compares long binary expansions of n / d)
    for (g in list(c(0, 1), c(1, 3), c(1, 1), c(5, 2), c(7, 3), c(2^50 + 1, 3 * 2^50), c(3^30, 2^48))) {
      x <- .Call(dpfda:::C_dpfda_bernoulli_exp_draw, n, g[1], g[2])
      p <- exp(-g[1] / g[2])
      expect_gt(stats::binom.test(sum(x), n, p)$p.value, 1e-6)
      # power: a 15% relative error in the probability is rejected
      if (g[1] > 0) expect_lt(stats::binom.test(sum(x), n, p * 0.85)$p.value, 1e-6)
    }
  })
})

test_that("discrete Laplace and Gaussian samplers match their pmf (chi-square)", {
  with_seed_mode(12, {
    n <- 50000
    for (t in c(1, 2, 5)) {
      z <- .Call(dpfda:::C_dpfda_discrete_laplace_draw, n, t)
      expect_true(all(z == round(z)))
      expect_gt(chisq_pvalue(z, dlap_pmf(t)), 1e-6)
      expect_lt(chisq_pvalue(z, dlap_pmf(0.7 * t)), 1e-6)   # power against 0.7x noise
    }
    for (s2 in c(1, 3, 20)) {
      z <- .Call(dpfda:::C_dpfda_discrete_gaussian_draw, n, s2)
      expect_true(all(z == round(z)))
      expect_gt(chisq_pvalue(z, dgauss_pmf(s2)), 1e-6)
      expect_lt(chisq_pvalue(z, dgauss_pmf(0.49 * s2)), 1e-6)
    }
    # large parameters (the regime used by the mechanisms): moments
    z <- .Call(dpfda:::C_dpfda_discrete_gaussian_draw, 20000, 2^48)
    expect_equal(sd(z) / 2^24, 1, tolerance = 0.03)
    z <- .Call(dpfda:::C_dpfda_discrete_laplace_draw, 20000, 2^20)
    expect_equal(mean(abs(z)) / 2^20, 1, tolerance = 0.03)
  })
  # the secure source (both halves of each 64 OS bits are used): the same laws
  old <- dp_rng("secure")
  z <- .Call(dpfda:::C_dpfda_discrete_gaussian_draw, n, 3)
  expect_gt(chisq_pvalue(z, dgauss_pmf(3)), 1e-6)
  expect_lt(chisq_pvalue(z, dgauss_pmf(0.49 * 3)), 1e-6)
  z <- .Call(dpfda:::C_dpfda_discrete_laplace_draw, n, 2)
  expect_gt(chisq_pvalue(z, dlap_pmf(2)), 1e-6)
  x <- .Call(dpfda:::C_dpfda_bernoulli_exp_draw, n, 1, 3)
  expect_gt(stats::binom.test(sum(x), n, exp(-1 / 3))$p.value, 1e-6)
  dp_rng(old)
  expect_error(.Call(dpfda:::C_dpfda_discrete_laplace_draw, 1, 0.5))
  expect_error(.Call(dpfda:::C_dpfda_discrete_laplace_draw, 3, c(1, 2)))
  # one scale per coordinate (heterogeneous scales, e.g. ICLP coefficients)
  z <- with_seed_mode(13, .Call(dpfda:::C_dpfda_discrete_laplace_draw, 40000, rep(c(1, 8), 20000)))
  expect_equal(c(mean(abs(z[c(TRUE, FALSE)])), mean(abs(z[c(FALSE, TRUE)]))),
               c(2 * exp(-1) / (1 - exp(-2)), 2 * exp(-1 / 8) / (1 - exp(-2 / 8))), tolerance = 0.05)
  expect_error(.Call(dpfda:::C_dpfda_discrete_gaussian_draw, 1, 2^60))
})

test_that("the seeded mode reproduces exact noise, the secure mode does not", {
  a <- with_seed_mode(3, .Call(dpfda:::C_dpfda_discrete_laplace_draw, 5, 100))
  b <- with_seed_mode(3, .Call(dpfda:::C_dpfda_discrete_laplace_draw, 5, 100))
  expect_identical(a, b)
  old <- dp_rng("secure")
  on.exit(dp_rng(old))
  set.seed(3)
  c1 <- .Call(dpfda:::C_dpfda_discrete_laplace_draw, 5, 100)
  set.seed(3)
  c2 <- .Call(dpfda:::C_dpfda_discrete_laplace_draw, 5, 100)
  expect_false(identical(c1, c2))
})

test_that("exact Bernstein releases lie on the grid with the rounding in the sensitivity", {
  with_seed_mode(4, {
    S <- 0.01
    r <- dp_bernstein(seq(0, 1, length.out = 11), S, epsilon = 1, k = 10, noise = "exact")
    g <- r$grid_step
    v <- predict(r)
    # on the lattice: multiples of the step (up to the rounding of the last product by the unit)
    expect_lt(max(abs(v / g - round(v / g))), 1e-6)
    # Laplace scale (S + g) m / eps, grid 2^-20 of the float scale (the lattice's unit: the same
    # release in other units of the values, R/noise-exact.R)
    expect_equal(r$noise_scale, (S + g) * 11 / 1)
    expect_true(r$noise_exact)
    expect_equal(S * 11 / g, 2^20)
    # Gaussian: discrete Gaussian calibrated by zCDP at the rounded L2 sensitivity
    rg <- dp_bernstein(rep(0, 11), S, epsilon = 1, k = 10, delta = 1e-5, noise = "exact")
    l2 <- (S + rg$grid_step) * sqrt(11)
    expect_equal(rg$lattice_sensitivity, l2)
    rho <- l2^2 / (2 * rg$noise_scale^2)
    expect_lte(zcdp_delta(1, rho), 1e-5 * (1 + 1e-8))
    expect_gt(zcdp_delta(1, rho * 1.01), 1e-5)        # tight: no more noise than needed
    v <- predict(rg)
    expect_lt(max(abs(v / rg$grid_step - round(v / rg$grid_step))), 1e-6)
    expect_equal(rg$calibration, "zcdp")
    # exact KDE through the Bernstein lattice
    rk <- dp_kde(c(0.2, 0.5, 0.6), seq(0, 1, length.out = 7), 0.2, 1, 0, mechanism = "bernstein", k = 5,
                 noise = "exact")
    lat <- rk$lattice$values$values
    expect_lt(max(abs(lat / rk$lattice$grid_step - round(lat / rk$lattice$grid_step))), 1e-6)
  })
})

test_that("exact Bernstein noise has the calibrated scale (and not 0.7x of it)", {
  with_seed_mode(5, {
    S <- 0.01
    z <- replicate(3000, predict(dp_bernstein(rep(0, 3), S, epsilon = 1, k = 2, noise = "exact")))
    b <- dp_bernstein(rep(0, 3), S, epsilon = 1, k = 2, noise = "exact")$noise_scale
    # E|X| = b for Laplace(b); 9000 draws give a relative sd of 1 / sqrt(9000) ~ 1%
    expect_equal(mean(abs(z)) / b, 1, tolerance = 0.05)
    expect_gt(mean(abs(z)), 0.85 * b)                  # 0.7x noise would give 0.7
    expect_lt(abs(cor(z[1, ], z[2, ])), 0.05)           # independent coordinates
  })
})

test_that("exact GP release: whitened coordinates are i.i.d. with the zCDP sigma", {
  with_seed_mode(6, {
    x <- seq(0, 1, length.out = 6)
    K <- kernel_gaussian(0.3)
    f <- sin(2 * pi * x)
    r <- dp_gp_release(f, x, K, sensitivity = 0.2, epsilon = 1, delta = 1e-5, noise = "exact")
    expect_true(r$noise_exact)
    m <- 6
    sens <- 0.2 + sqrt(m) * r$grid_step
    expect_equal(r$noise_scale, dpfda:::exact_gaussian_sigma(sens, 1, 1e-5))
    expect_lte(zcdp_delta(1, sens^2 / (2 * r$noise_scale^2)), 1e-5 * (1 + 1e-8))
    # the price of exactness: zCDP calibration against the analytic one (about 8% here)
    ratio <- r$noise_scale / dp_noise_scale(0.2, 1, 1e-5)
    expect_gt(ratio, 1)
    expect_lt(ratio, 1.2)
    L <- chol_jitter(kernel_matrix(K, x), jitter = 1e-10)$L
    W <- replicate(2000, {
      rr <- dp_gp_release(f, x, K, sensitivity = 0.2, epsilon = 1, delta = 1e-5, noise = "exact")
      forwardsolve(L, predict(rr) - f)
    })
    v <- empirical_cov(t(W)) / r$noise_scale^2
    # 12000 squared coordinates: the variance ratio has a relative sd of about 1.3%
    expect_equal(mean(diag(v)), 1, tolerance = 0.06)
    expect_lt(max(abs(v[upper.tri(v)])), 0.12)
    # exact noise is refused where it is not implemented, never silently replaced
    expect_error(dp_gp_release(f, list(x, x), K, 0.2, 1, 1e-5, noise = "exact"), class = "dpfda_error")
  })
})

test_that("exact noise keeps huge summaries (no clamp at 2^52 grid steps) without overflowing", {
  with_seed_mode(7, {
    big <- .Machine$double.xmax
    r <- dp_bernstein(c(0, big, -big), 1, 1, 2, noise = "exact")
    v <- predict(r)
    expect_true(all(is.finite(v)))
    # values of 2^52 grid steps or more are on the grid already: the noise (a few units of the
    # grid) is below their last bit (before issue 26 they were clamped to 2^52 steps)
    expect_equal(v[2:3], c(big, -big))
    expect_equal(v[1] / r$grid_step, round(v[1] / r$grid_step))
  })
})

test_that("exact cloaking regression: noise covariance sigma^2 M (not 0.7x), zCDP calibration", {
  with_seed_mode(8, {
    xs <- c(0.1, 0.3, 0.5, 0.7, 0.9)
    ys <- c(-1, 0.2, -0.5, 0.4, 0.1)
    nd <- seq(0, 1, length.out = 5)
    K <- kernel_gaussian(0.3)
    truth <- predict(dpfda:::without_float_tail_check(dp_gp_regression(xs, ys, nd, K, 0.1, c(-1, 1), 1e9, 0.5)))
    r <- dp_gp_regression(xs, ys, nd, K, 0.1, c(-1, 1), 1, 1e-5, noise = "exact")
    expect_true(r$noise_exact)
    sens <- r$sensitivity + sqrt(qr(r$noise_covariance)$rank) * r$grid_step
    expect_equal(r$noise_scale, dpfda:::exact_gaussian_sigma(sens, 1, 1e-5), tolerance = 1e-12)
    Z <- t(replicate(1500, predict(dp_gp_regression(xs, ys, nd, K, 0.1, c(-1, 1), 1, 1e-5,
                                                    noise = "exact")) - truth))
    ratio <- sum(diag(empirical_cov(Z))) / sum(diag(r$noise_covariance))
    expect_equal(ratio, 1, tolerance = 0.1)   # 0.7x noise would give 0.49
    # standard method, SVM and KRR go through the whitened GP route
    rs <- dp_gp_regression(xs, ys, nd, K, 0.1, c(-1, 1), 1, 1e-5, method = "standard", noise = "exact")
    expect_true(rs$noise_exact)
    expect_true(dp_krr(xs, ys, 0.1, K, nd, c(-1, 1), 1, 1e-5, noise = "exact")$noise_exact)
    expect_true(dp_svm(xs, sign(ys), 0.1, K, nd, 1, 1e-5, noise = "exact")$noise_exact)
    expect_true(dp_sparse_gp_regression(xs, ys, nd, xs[c(1, 5)], K, 0.1, c(-1, 1), 1, 1e-5,
                                        noise = "exact")$noise_exact)
  })
})

test_that("exact bin regression: discrete Laplace on the bin sums, scale (d + grid step) / epsilon", {
  with_seed_mode(9, {
    xs <- c(0.1, 0.2, 0.3, 0.6, 0.8)
    ys <- c(-1, 0.2, -0.5, 0.4, 0.1)
    r <- dp_bin_regression(xs, ys, 2, c(-1, 1), 1, c(0, 1), noise = "exact")
    expect_true(r$noise_exact)
    expect_equal(r$noise_scale, (2 + r$grid_step) / 1)
    truth_sum <- c(sum(ys[1:3]), sum(ys[4:5]))
    E <- t(replicate(4000, predict(dp_bin_regression(xs, ys, 2, c(-1, 1), 1, c(0, 1), noise = "exact")) *
                       c(3, 2))) - rep(truth_sum, each = 4000)
    expect_equal(colMeans(abs(E)) / r$noise_scale, c(1, 1), tolerance = 0.06)   # 0.7x would give 0.7
  })
})
