# Empirical privacy audit (R/audit.R): the bound stays below epsilon for
# correct mechanisms and exceeds it when the noise is 0.7 times too small.
# (The full audit of every mechanism runs in `make demo`, tools/reproduce/audit.R.)

# truth + factor * (release at epsilon - truth), the truth from the same mechanism at epsilon = 1e9
# (the noiseless limit: no privacy claimed, so the float-tail guard is off there, ?float_tails)
shrunk <- function(make, epsilon, factor = 0.7) {
  cache <- list()
  function(d) {
    key <- paste(format(d, digits = 17), collapse = ",")
    val <- function(r) if (inherits(r, "dpfda_release")) as.vector(r$values$values) else r
    if (is.null(cache[[key]])) cache[[key]] <<- val(dpfda:::without_float_tail_check(make(1e9)(d)))
    t <- cache[[key]]
    t + factor * (val(make(epsilon)(d)) - t)
  }
}

test_that("the Clopper-Pearson bound is computed as documented", {
  b <- dpfda:::audit_bound(600, 200, 1000, 0, 0.025)
  expect_equal(b, log(qbeta(0.025, 600, 401) / qbeta(0.975, 201, 800)))
  b2 <- dpfda:::audit_bound(600, 200, 1000, 0.1, 0.025)
  expect_equal(b2, log((qbeta(0.025, 600, 401) - 0.1) / qbeta(0.975, 201, 800)))
  expect_equal(dpfda:::audit_bound(0, 10, 1000, 0, 0.025), -Inf)
})

test_that("scalar Laplace: correct noise passes, 0.7x noise is refuted", {
  good <- function(d) sum(d) + rlaplace(1, 1)
  bad <- function(d) sum(d) + rlaplace(1, 0.7)
  a <- dp_audit(good, c(1, 0, 1), c(1, 0, 0), n = 20000, epsilon = 1, seed = 5)
  expect_lt(a$epsilon_lower, 1)
  expect_gt(a$epsilon_lower, 0.8)      # and the audit is not vacuous
  expect_true(a$passed)
  z <- dp_audit(bad, c(1, 0, 1), c(1, 0, 0), n = 20000, epsilon = 1, seed = 6)
  expect_gt(z$epsilon_lower, 1)
  expect_false(z$passed)
  # the same data set twice: nothing to find
  same <- dp_audit(good, c(1, 0, 1), c(1, 0, 1), n = 5000, seed = 7)
  expect_lt(same$epsilon_lower, 0.15)
  # a deterministic (non-private) mechanism is caught with a large bound
  det <- dp_audit(function(d) sum(d), c(1, 0, 1), c(1, 0, 0), n = 1000, epsilon = 1)
  expect_gt(det$epsilon_lower, 4)   # the most 500 runs can show: log(1 / qbeta(0.975, 1, 500))
  expect_output(print(z), "REFUTED")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(a))
})

test_that("dp_bernstein (pure DP) at worst-case neighbours: passes; 0.7x noise refuted", {
  make <- function(e) function(d) dp_bernstein(d, 1, e, k = 2)
  a <- dp_audit(make(1), c(0, 0, 0), c(1, 1, 1), n = 20000, epsilon = 1, projection = "laplace",
                seed = 8, digits = 10)
  expect_lt(a$epsilon_lower, 1)
  z <- dp_audit(shrunk(make, 1), c(0, 0, 0), c(1, 1, 1), n = 20000, epsilon = 1, projection = "laplace",
                seed = 9, digits = 10)
  expect_gt(z$epsilon_lower, 1)
})

test_that("Gaussian mechanism audited at its (epsilon, delta): passes; 0.7x noise refuted", {
  x <- seq(0, 1, length.out = 6)
  K <- kernel_gaussian(0.3)
  f1 <- as.vector(kernel_matrix(K, x, 0.4))   # RKHS distance 1 from 0
  make <- function(e) function(d) dp_gp_release(d, x, K, sensitivity = 1, epsilon = e, delta = 0.1)
  # the worst-case projection: the likelihood-ratio direction K^-1 (f1 - f0) = e_3 here
  w <- solve(kernel_matrix(K, x), f1)
  proj <- function(v) sum(w * v)
  a <- dp_audit(make(2), rep(0, 6), f1, n = 2000, epsilon = 2, delta = 0.1, projection = proj,
                seed = 10, digits = 10)
  expect_lt(a$epsilon_lower, 2)
  z <- dp_audit(shrunk(make, 2), rep(0, 6), f1, n = 2000, epsilon = 2, delta = 0.1, projection = proj,
                seed = 11, digits = 10)
  expect_gt(z$epsilon_lower, 2)
  # without subtracting delta the same runs would look worse: delta is accounted for
  z0 <- dp_audit(shrunk(make, 2), rep(0, 6), f1, n = 2000, epsilon = 2, delta = 0, projection = proj,
                 seed = 11, digits = 10)
  expect_gt(z0$epsilon_lower, z$epsilon_lower)
})

test_that("audits are reproducible and leave the caller's noise source and seed alone", {
  old <- dp_rng("secure")
  on.exit(dp_rng(old), add = TRUE)
  set.seed(42)
  before <- .Random.seed
  m <- function(d) d + rlaplace(1, 1)
  a1 <- dp_audit(m, 0, 1, n = 500, seed = 3)
  a2 <- dp_audit(m, 0, 1, n = 500, seed = 3)
  expect_identical(a1$projections, a2$projections)
  expect_identical(dp_rng(), "secure")
  expect_identical(.Random.seed, before)
})
