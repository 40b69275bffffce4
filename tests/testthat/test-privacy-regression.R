# Privacy regression suite (issue 16): fast empirical audits of every
# mechanism family at worst-case neighbouring inputs, plus the guards of the
# hardening (float tails, hand-declared mu). An audit gives a one-sided
# Clopper-Pearson lower bound on epsilon (dp_audit(), confidence 0.99 here,
# fixed seeds): a correct mechanism stays below its claim, so these tests
# fail only when a change breaks a guarantee. Each audit also asks for a
# bound that is not vacuous (the audit has power at these neighbours), and one
# test checks that the same machinery does refute an under-noised release.
# Float releases are audited with their outputs rounded to 10 significant
# digits (idealised arithmetic; see ?dp_audit, `digits`).

audit99 <- function(mech, data, neighbour, n, epsilon, delta = 0, projection, seed) {
  dp_audit(mech, data, neighbour, n = n, epsilon = epsilon, delta = delta, projection = projection,
           seed = seed, digits = 10, confidence = 0.99)
}

test_that("Laplace family (dp_bin_regression): one response moved across y_bound", {
  xs <- c(0.1, 0.3, 0.5, 0.7, 0.9)
  ys <- c(-1, 0.2, -0.5, 0.4, 0.1)
  ys2 <- replace(ys, 1, 1)
  mech <- function(d) dp_bin_regression(xs, d, 2, c(-1, 1), 1, c(0, 1))
  a <- audit99(mech, ys, ys2, 600, 1, projection = "laplace", seed = 1601)
  expect_lte(a$epsilon_lower, 1)
  expect_gt(a$epsilon_lower, 0.3)
})

test_that("Bernstein family (dp_bernstein, Laplace): every lattice value moved by the sensitivity", {
  # k = 1: two lattice values, each moved by the full sensitivity (the worst case: the
  # Laplace scale covers the L1 sensitivity of all of them)
  mech <- function(d) dp_bernstein(d, 1, 1, k = 1)
  a <- audit99(mech, c(0, 0), c(1, 1), 600, 1, projection = "laplace", seed = 1602)
  expect_lte(a$epsilon_lower, 1)
  expect_gt(a$epsilon_lower, 0.2)
})

test_that("ICLP family (dp_mean, iclp_qr): one curve moved along the dominant coefficient", {
  # A smooth kernel, a large eta and a large psi concentrate the weights g_j of the
  # QR sensitivity (g_j ~ lambda_j^(eta - 1/2) / psi) on the first component, so moving one curve from -tau v_1 to
  # +tau v_1 costs nearly the whole epsilon on one Laplace coordinate.
  g <- seq(0, 1, length.out = 15)
  K <- kernel_gaussian(0.5)
  n <- 5
  opts <- list(mechanism = "iclp_qr", kernel = K, select = "manual", eta = 4, psi = 100, h = 1)
  run <- function(X) do.call(dp_mean, c(list(curves(X, g), epsilon = 1, tau = 1), opts))
  r0 <- run(matrix(0, n, length(g)))
  w <- dpfda:::qr_shrink(r0$basis$values, 4, 100)$g
  share <- w[1] / sqrt(sum(w^2))          # the privacy loss of the worst single coordinate
  expect_gt(share, 0.99)
  v1 <- r0$basis$vectors[, 1]
  Xa <- matrix(0, n, length(g))
  Xb <- Xa
  Xa[1, ] <- v1
  Xb[1, ] <- -v1
  mech <- function(X) run(X)$coefficients[1]
  a <- audit99(mech, Xa, Xb, 600, 1, projection = "identity", seed = 1603)
  expect_lte(a$epsilon_lower, 1)
  expect_gt(a$epsilon_lower, 0.3)
})

test_that("KME family (dp_kme, pure DP): one point moved away from the synthetic point", {
  z <- matrix(0.5)
  x <- matrix(rep(0.5, 4))
  x2 <- x
  x2[1] <- 5                                 # k(0.5, 5) is 0 to double precision
  K <- kernel_gaussian(0.2)
  # the coordinate moves by 1/N, its sensitivity bound is 2/N: at most epsilon / 2 is visible,
  # so the audit is run at a claim of 2
  mech <- function(d) dp_kme(d, K, epsilon = 2, delta = 0, synthetic = z, domain = c(0, 5), public = TRUE)$weights
  a <- audit99(mech, x, x2, 600, 2, projection = "identity", seed = 1604)
  expect_lte(a$epsilon_lower, 2)
  expect_gt(a$epsilon_lower, 0.3)
})

test_that("Gaussian / GP shift (dp_gp_release): RKHS distance 1 at the calibrated (2, 0.1)", {
  x <- seq(0, 1, length.out = 6)
  K <- kernel_gaussian(0.3)
  f1 <- as.vector(kernel_matrix(K, x, 0.4))   # k(., 0.4): RKHS norm 1
  w <- solve(kernel_matrix(K, x), f1)          # likelihood-ratio direction
  mech <- function(d) dp_gp_release(d, x, K, sensitivity = 1, epsilon = 2, delta = 0.1)
  a <- audit99(mech, rep(0, 6), f1, 600, 2, delta = 0.1, projection = function(v) sum(w * v), seed = 1605)
  expect_lte(a$epsilon_lower, 2)
  expect_gt(a$epsilon_lower, 0.5)
})

test_that("the audits can fail: an under-noised release is refuted", {
  # a count (sensitivity 1) released with the package's internal exact Laplace sampler at
  # half the scale that epsilon = 1 needs: its true epsilon is 2, and the same audit as
  # above, with as many runs, refutes the claim
  k <- dpfda:::exact_grid(0.5, "laplace")
  half <- function(d) dpfda:::exact_laplace_noise(sum(d), 0.5, k)
  z <- audit99(half, c(1, 0, 1), c(1, 0, 0), 600, 1, projection = "identity", seed = 1606)
  expect_gt(z$epsilon_lower, 1)
  expect_false(z$passed)
  # and the correctly calibrated one passes
  full <- function(d) dpfda:::exact_laplace_noise(sum(d), 1, k - 1L)
  a <- audit99(full, c(1, 0, 1), c(1, 0, 0), 600, 1, projection = "identity", seed = 1606)
  expect_lte(a$epsilon_lower, 1)
})

test_that("float noise is refused where its truncated tails break the claim", {
  # src/rng.c: |Z| <= qnorm(1 - 2^-55) = 8.3744; |Laplace| <= 54 log 2 scales
  expect_equal(dpfda:::float_gauss_zmax(), -stats::qnorm(2^-55), tolerance = 1e-12)
  expect_gt(dpfda:::float_gauss_zmax(), 8.37)
  expect_lt(dpfda:::float_gauss_zmax(), 8.38)
  # issue 16: epsilon = 30, delta = 1e-5 shifts by 4.657 sd; about 1e-4 beyond the cut-off
  s <- 1 / dpfda:::analytic_gaussian_sigma(30, 1e-5)
  expect_equal(s, 4.657, tolerance = 1e-3)
  t <- dpfda:::float_tail_gaussian(s, 1)
  expect_gt(t, 9e-5)
  expect_lt(t, 1.1e-4)
  grid <- seq(0, 1, length.out = 8)
  K <- kernel_gaussian(0.3)
  err <- expect_error(dp_gp_release(rep(0, 8), grid, K, 0.1, epsilon = 30, delta = 1e-5),
                      class = "dpfda_error_tail")
  expect_s3_class(err, "dpfda_error_privacy")
  expect_match(conditionMessage(err), "noise = \"exact\"")
  # exact noise has no cut-off: the same release is made
  r <- dp_gp_release(rep(0, 8), grid, K, 0.1, epsilon = 30, delta = 1e-5, noise = "exact")
  expect_true(isTRUE(r$noise_exact))
  # inside the regime float noise is used as before
  expect_s3_class(dp_gp_release(rep(0, 8), grid, K, 0.1, epsilon = 20, delta = 1e-5), "dpfda_release")
  # every Gaussian float path and every Laplace float path checks
  expect_error(dp_bernstein(rep(0, 3), 1, 30, k = 2, delta = 1e-5), class = "dpfda_error_tail")
  expect_error(dp_bernstein(rep(0, 3), 1, 16, k = 2), class = "dpfda_error_tail")
  expect_s3_class(dp_bernstein(rep(0, 3), 1, 14, k = 2), "dpfda_release")
  X <- curves(matrix(0, 3, 6), seq(0, 1, length.out = 6))
  expect_error(dp_mean(X, 16, 1), class = "dpfda_error_tail")
  expect_error(dp_mean(X, 30, 1, mechanism = "gp", delta = 1e-5), class = "dpfda_error_tail")
  # the refusal names the user's call, not an internal mechanism
  e <- expect_error(dp_mean(X, 16, 1), class = "dpfda_error_tail")
  expect_match(conditionMessage(e), "dp_mean(mechanism = \"iclp_qr\")", fixed = TRUE)
  e <- expect_error(dp_cov(X, 16, 1), class = "dpfda_error_tail")
  expect_match(conditionMessage(e), "claim of dp_cov()", fixed = TRUE)
  e <- expect_error(dp_kde(c(0.2, 0.5, 0.7), seq(0, 1, length.out = 20), bandwidth = 0.2, epsilon = 16,
                           mechanism = "iclp", domain = c(0, 1)), class = "dpfda_error_tail")
  expect_match(conditionMessage(e), "claim of dp_kde(mechanism = ", fixed = TRUE)
  e <- expect_error(dp_erm(seq(0, 1, length.out = 6), rep(0, 6), epsilon = 16, psi = 0.1,
                           grid = seq(0, 1, length.out = 6), y_bound = 1), class = "dpfda_error_tail")
  expect_match(conditionMessage(e), "claim of dp_erm()", fixed = TRUE)
  expect_false(grepl("claim of iclp_qr", conditionMessage(e), fixed = TRUE))
  expect_error(dp_bin_regression(c(0.2, 0.7), c(0, 1), 2, c(0, 1), 16, c(0, 1)), class = "dpfda_error_tail")
  expect_error(dp_online(function(t) 0 * t, K, 0.1, 30, 1e-5, noise = "float"), class = "dpfda_error_tail")
  expect_s3_class(dp_online(function(t) 0 * t, K, 0.1, 30, 1e-5), "dpfda_online_session")   # exact: the default
  expect_error(dp_kme(matrix(0.5, 3), K, 30, 1e-5, synthetic = matrix(0.5), domain = c(0, 1), public = TRUE),
               class = "dpfda_error_tail")
  expect_error(dp_select(c(1, 2), 1, 16, noise = "float"), class = "dpfda_error_tail")
  expect_error(dp_bandwidth(stats::qnorm(ppoints(50)), 80, 1e-6, fallback = 1, noise = "float"),
               class = "dpfda_error_tail")
  # a refused release spends nothing
  b <- privacy_budget(100, 1e-3)
  expect_error(dp_gp_release(rep(0, 8), grid, K, 0.1, epsilon = 30, delta = 1e-5, budget = b),
               class = "dpfda_error_tail")
  expect_equal(budget_spent(b)$releases, 0L)
})

test_that("spend(mu =) cannot buy releases: the issue-16 exploit is refused", {
  b <- privacy_budget(1, 1e-5)
  n <- 0L
  for (i in 1:999) {
    ok <- tryCatch({
      spend(b, 0.9, 1e-6, mu = 0.001)
      TRUE
    }, dpfda_error_budget = function(e) FALSE)
    if (!ok) break
    n <- n + 1L
  }
  expect_equal(n, 1L)
  # the ledger holds the mu of the claim (0.9, 1e-6), not the declared 0.001
  mu_claim <- summary(b)$mu[1]
  expect_gt(mu_claim, 0.2)
  expect_lte(gdp_delta(0.9, mu_claim), 1e-6 * (1 + 1e-9))
  expect_gt(gdp_delta(0.9, mu_claim * (1 + 1e-6)), 1e-6)
  # an honest mu is recorded (up to the bisection) and composes as before
  b2 <- privacy_budget(10, 1e-5)
  e1 <- gdp_epsilon(0.5, 1e-6)
  for (i in 1:4) spend(b2, e1, 1e-6, mu = 0.5)
  expect_equal(summary(b2)$mu, rep(0.5, 4), tolerance = 1e-8)
  expect_lt(budget_spent(b2)$epsilon, 4 * e1)
})
