# The (iterated) Bernstein mechanism of Aldà & Rubinstein (R/mech-bernstein.R,
# src/bernstein.c). References below are plain R written from the paper's
# definitions (dbinom, the Horner recursion, nested sums), independent of the
# C code.

bern_ref_basis <- function(y, k) outer(y, 0:k, function(y, v) stats::dbinom(v, k, y))
bern_ref_M <- function(k) bern_ref_basis((0:k) / k, k)          # M[mu + 1, nu + 1] = b_nu(mu / k)
bern_ref_A <- function(k, h) {                                   # Horner: A_{j+1} = I + (I - M) A_j
  M <- bern_ref_M(k)
  I <- diag(k + 1)
  A <- I
  if (h > 1) for (j in 2:h) A <- I + (I - M) %*% A
  A
}
bern_ref_A_binomial <- function(k, h) {                          # the paper's Definition 8
  M <- bern_ref_M(k)
  A <- matrix(0, k + 1, k + 1)
  P <- diag(k + 1)
  for (i in 1:h) {
    A <- A + choose(h, i) * (-1)^(i - 1) * P
    P <- P %*% M
  }
  A
}
bern_ref_iter <- function(y, k, h) bern_ref_basis(y, k) %*% bern_ref_A(k, h)
# sum over the whole lattice of v_nu prod_j b^(h)_{nu_j}(y_j), nu_1 fastest
bern_ref_eval <- function(v, k, h, Y) {
  Y <- matrix(Y, ncol = length(k))
  nu <- as.matrix(expand.grid(lapply(k, function(kj) 0:kj)))
  B <- lapply(seq_along(k), function(j) bern_ref_iter(Y[, j], k[j], h))
  vapply(seq_len(nrow(Y)), function(i) {
    w <- rep(1, nrow(nu))
    for (j in seq_along(k)) w <- w * B[[j]][i, nu[, j] + 1]
    sum(w * v)
  }, 1)
}
bern_plaplace <- function(q, scale) ifelse(q < 0, 0.5 * exp(q / scale), 1 - 0.5 * exp(-q / scale))
# a release of given lattice values without noise (sensitivity 0 is public knowledge)
bern_exact <- function(v, k, h = 1, dim = 1, domain = NULL) {
  dp_bernstein(v, sensitivity = 0, epsilon = 1, k = k, h = h, dim = dim, domain = domain)
}

# ---- basis ---------------------------------------------------------------------

test_that("the plain basis matches dbinom, is a partition of unity and symmetric", {
  y <- c(0, 1e-12, 0.013, 0.25, 0.5, 0.77, 0.999, 1 - 1e-15, 1)
  for (k in c(1, 2, 7, 20, 150)) {
    B <- bernstein_basis(y, k)
    expect_equal(dim(B), c(length(y), k + 1))
    expect_equal(B, bern_ref_basis(y, k), tolerance = 1e-13 * k)
    expect_true(all(B >= 0))
    expect_lt(max(abs(rowSums(B) - 1)), 1e-14 * k)
    expect_equal(B[, (k + 1):1], bernstein_basis(1 - y, k), tolerance = 1e-13 * k)
    expect_identical(B[1, ], c(1, rep(0, k)))
    expect_identical(B[length(y), ], c(rep(0, k), 1))
  }
})

test_that("the basis at k = 10^4 is finite, accurate and sums to one", {
  y <- c(0, 1e-300, 1e-5, 0.3, 0.5, 0.9, 1 - 1e-12, 1)
  for (k in c(1000, 5000, 1e4)) {
    B <- bernstein_basis(y, k)
    expect_true(all(is.finite(B)))
    expect_true(all(B >= 0))
    expect_lt(max(abs(rowSums(B) - 1)), 1e-12)
    ref <- bern_ref_basis(y, k)
    big <- ref > 1e-200
    expect_lt(max(abs(B[big] - ref[big]) / ref[big]), 1e-10)
  }
  # choose(k, nu) * y^nu * (1 - y)^(k - nu) is NaN / Inf here
  expect_false(all(is.finite(choose(1e4, 0:1e4) * 0.5^(0:1e4) * 0.5^(1e4 - 0:1e4))))
})

test_that("A_h: Horner equals the binomial sum for small h, A_1 = I, powering equals Horner", {
  for (k in c(3, 10, 25)) {
    expect_equal(dpfda:::bernstein_iter_matrix(k, 1), diag(k + 1))
    for (h in 2:8) {
      expect_lt(max(abs(dpfda:::bernstein_iter_matrix(k, h) - bern_ref_A_binomial(k, h))), 1e-12)
    }
  }
  for (k in c(5, 20)) for (h in c(2, 3, 7, 16, 17, 33, 60)) {
    horner <- bern_ref_A(k, h)
    expect_lt(max(abs(dpfda:::bernstein_iter_matrix(k, h, "horner") - horner)), 1e-12)
    expect_lt(max(abs(dpfda:::bernstein_iter_matrix(k, h, "doubling") - horner)), 1e-12)
    expect_lt(max(abs(dpfda:::bernstein_iter_matrix(k, h) - horner)), 1e-12)
  }
  # why the binomial sum is not used: at h = 60 it is wrong by orders of magnitude
  expect_gt(max(abs(bern_ref_A_binomial(20, 60) - bern_ref_A(20, 60))), 1)
})

test_that("the iterated basis is a partition of unity and reproduces linear functions for every h", {
  y <- seq(0, 1, length.out = 101)
  for (k in c(1, 4, 20)) for (h in c(1:10, 25, 60)) {
    Bh <- bernstein_basis(y, k, h)
    expect_lt(max(abs(rowSums(Bh) - 1)), 1e-12)
    expect_lt(max(abs(Bh %*% (3 * (0:k) / k - 1) - (3 * y - 1))), 1e-12)
  }
  expect_equal(bernstein_basis(y, 20, 4), bern_ref_iter(y, 20, 4), tolerance = 1e-13)
})

test_that("B_k^(h)(y^2) = y^2 + y (1 - y) / k^h to 1e-12 for h = 1..60 and k up to 200", {
  y <- seq(0, 1, length.out = 201)
  worst <- 0
  for (k in c(1, 2, 5, 10, 20, 50)) for (h in 1:60) {
    err <- max(abs(bernstein_basis(y, k, h) %*% ((0:k) / k)^2 - (y^2 + y * (1 - y) / k^h)))
    worst <- max(worst, err)
  }
  for (k in c(100, 200)) for (h in c(1:6, 10, 17, 30, 45, 60)) {
    err <- max(abs(bernstein_basis(y, k, h) %*% ((0:k) / k)^2 - (y^2 + y * (1 - y) / k^h)))
    worst <- max(worst, err)
  }
  expect_lt(worst, 1e-12)
  # the same through a release (coefficient transform + contraction)
  for (h in c(1, 3, 60)) {
    r <- bern_exact(((0:200) / 200)^2, k = 200, h = h)
    expect_lt(max(abs(predict(r, y) - (y^2 + y * (1 - y) / 200^h))), 1e-12)
  }
})

test_that("Lebesgue constants, max |A_h| and noise factors match the spec's reference numbers", {
  y <- seq(0, 1, length.out = 2001)
  leb <- function(k, h) max(rowSums(abs(bernstein_basis(y, k, h))))
  # spec section 6.4, k = 20 to four decimals
  expect_equal(vapply(1:5, function(h) leb(20, h), 1), c(1, 1.1641, 1.2273, 1.2637, 1.3003),
               tolerance = 6e-5 / 1.3)
  # other rows, as printed (two decimals or three digits)
  expect_equal(vapply(c(2, 3, 4, 5, 10, 20, 100, 1000), function(h) leb(5, h), 1),
               c(1.19, 1.21, 1.26, 1.30, 1.59, 2.02, 3.06, 3.11), tolerance = 0.006)
  expect_equal(vapply(c(2, 3, 4, 5, 10, 20, 100, 1000), function(h) leb(10, h), 1),
               c(1.16, 1.23, 1.28, 1.30, 1.63, 2.12, 4.26, 11.7), tolerance = 0.006)
  expect_equal(vapply(c(2, 3, 4, 5, 10, 20, 100), function(h) leb(40, h), 1),
               c(1.16, 1.23, 1.26, 1.29, 1.65, 2.13, 4.70), tolerance = 0.006)
  for (h in 1:6) expect_lte(leb(20, h), 2^h - 1 + 1e-12)
  # h -> infinity: equispaced Lagrange interpolation (Lebesgue constant 3.106 for k = 5)
  expect_equal(leb(5, 1000), 3.106, tolerance = 1e-3)
  Bl <- bernstein_basis((0:5) / 5, 5, 1000)
  expect_lt(max(abs(Bl - diag(6))), 1e-6)
  # max |A_h| at k = 20
  expect_equal(vapply(c(1:5, 10), function(h) max(abs(dpfda:::bernstein_iter_matrix(20, h))), 1),
               c(1, 1.82, 2.59, 3.34, 4.06, 7.49), tolerance = 0.003)
  # noise variance factor sum_nu b^(h)_nu(y)^2: mean over y at k = 20, sup = 1 (at y = 0, 1) up to
  # h = 9 (the spec's "h <= 10" is rounded: 1.0033 at h = 10)
  msq <- vapply(1:5, function(h) mean(rowSums(bernstein_basis(y, 20, h)^2)), 1)
  expect_equal(msq, c(0.195, 0.261, 0.302, 0.332, 0.354), tolerance = 0.003)
  for (h in c(1, 5, 9)) expect_equal(max(rowSums(bernstein_basis(y, 20, h)^2)), 1, tolerance = 1e-12)
})

test_that("approximation rates: slopes near -h for a smooth function, error decreasing in h", {
  f <- function(t) exp(t) * sin(3 * t)
  y <- seq(0, 1, length.out = 2001)
  err <- function(k, h) max(abs(predict(bern_exact(f((0:k) / k), k, h), y) - f(y)))
  # spec section 4.3 A, reference values at k = 20
  expect_equal(vapply(1:4, function(h) err(20, h), 1), c(0.103, 1.05e-2, 1.87e-3, 5.25e-4),
               tolerance = 0.01)
  for (h in 1:4) {    # between k = 80 and 160 (at 40 -> 80, h = 4 still gives -3.71)
    slope <- log(err(160, h) / err(80, h)) / log(2)
    expect_lt(abs(slope + h), 0.2)
  }
  e <- vapply(1:5, function(h) err(20, h), 1)
  expect_true(all(diff(e) < 0))
  # the h = 1 bounds: |B_k f - f| <= ||f''|| / (8k) for f = y^2 (attained), Hölder (4k)^(-1/2)
  expect_equal(max(abs(predict(bern_exact(((0:10) / 10)^2, 10), y) - y^2)), 2 / 80)
  g <- function(t) abs(t - 0.5)
  for (k in c(5, 20, 80)) {
    expect_lte(max(abs(predict(bern_exact(g((0:k) / k), k), y) - g(y))), (4 * k)^(-1 / 2))
  }
})

# ---- tensor evaluation -----------------------------------------------------------

test_that("tensor evaluation equals a direct nested sum in 1, 2 and 3 dimensions", {
  set.seed(11)
  cases <- list(list(k = 9, h = 1), list(k = 6, h = 3), list(k = c(4, 7), h = 1),
                list(k = c(5, 3), h = 4), list(k = c(3, 4, 2), h = 2), list(k = c(2, 2, 3), h = 1))
  for (cs in cases) {
    d <- length(cs$k)
    v <- stats::rnorm(prod(cs$k + 1))
    r <- bern_exact(v, cs$k, cs$h, dim = d)
    Y <- matrix(stats::runif(30 * d), ncol = d)
    Y[1, ] <- 0
    Y[2, ] <- 1
    ref <- bern_ref_eval(v, cs$k, cs$h, Y)
    expect_equal(predict(r, if (d == 1) Y[, 1] else Y), ref, tolerance = 1e-12)
    # the same through the grid path (list of axes)
    axes <- lapply(seq_len(d), function(j) sort(stats::runif(3 + j)))
    G <- as.matrix(expand.grid(axes))
    got <- predict(r, axes)
    expect_equal(as.vector(got), bern_ref_eval(v, cs$k, cs$h, G), tolerance = 1e-12)
    if (d > 1) expect_identical(dim(got), lengths(axes))
  }
})

test_that("2-D products and multi-affine functions are reproduced; grid path equals pointwise path", {
  k <- 7
  h <- 3
  r <- dp_bernstein(function(p) p[, 1]^2 * p[, 2], sensitivity = 0, epsilon = 1, k = k, h = h, dim = 2)
  g <- seq(0, 1, length.out = 30)
  G <- as.matrix(expand.grid(g, g))
  truth <- (G[, 1]^2 + G[, 1] * (1 - G[, 1]) / k^h) * G[, 2]
  expect_lt(max(abs(predict(r, G) - truth)), 1e-14)              # tensor-grid fast path
  perm <- sample(nrow(G))
  expect_lt(max(abs(predict(r, G[perm, ]) - truth[perm])), 1e-14) # pointwise path
  expect_equal(as.vector(predict(r, list(g, g))), predict(r, G[perm, ])[order(perm)], tolerance = 1e-14)
  ma <- function(p) 1 + 2 * p[, 1] - p[, 2] + 3 * p[, 1] * p[, 2]
  r1 <- dp_bernstein(ma, sensitivity = 0, epsilon = 1, k = 1, dim = 2)
  expect_lt(max(abs(predict(r1, G) - ma(G))), 1e-14)
  # a single point of length dim
  expect_equal(predict(r1, c(0.3, 0.6)), ma(cbind(0.3, 0.6)))
})

test_that("both ways of applying A_h give the same coefficients and basis", {
  set.seed(3)
  for (k in list(5, c(4, 6), c(3, 2, 4))) for (h in c(2, 5, 20)) {
    v <- stats::rnorm(prod(k + 1))
    a <- dpfda:::bernstein_coef(v, k, h, "form")
    b <- dpfda:::bernstein_coef(v, k, h, "columns")
    expect_equal(a, b, tolerance = 1e-12)
  }
  y <- stats::runif(7)
  for (method in 1:2) {
    expect_equal(.Call(dpfda:::C_dpfda_bernstein_basis, y, 12L, 6L, method), bern_ref_iter(y, 12, 6),
                 tolerance = 1e-12)
  }
})

test_that("the domain is rescaled, and points outside it are clamped", {
  r <- dp_bernstein(function(t) 2 * t + 1, sensitivity = 0, epsilon = 1, k = 6, h = 2, domain = c(-1, 3))
  expect_equal(r$values$grid, seq(-1, 3, length.out = 7))
  expect_identical(r$domain, c(-1, 3))
  expect_equal(predict(r, c(-1, 0.3, 3)), 2 * c(-1, 0.3, 3) + 1, tolerance = 1e-14)
  expect_warning(v <- predict(r, c(-100, 1e300, 3.5)), class = "dpfda_warning_extrapolation")
  expect_identical(v, predict(r, c(-1, 3, 3)))
  dom <- rbind(c(0, 10), c(1, 20))
  r2 <- dp_bernstein(function(p) p[, 1] + p[, 2], sensitivity = 0, epsilon = 1, k = c(2, 3), dim = 2,
                     domain = dom)
  expect_identical(r2$domain, dom)
  expect_identical(dim(r2$values$grid), c(12L, 2L))
  expect_equal(range(r2$values$grid[, 2]), c(10, 20))
  expect_warning(v <- predict(r2, rbind(c(0.5, 15), c(2, 25))), class = "dpfda_warning_extrapolation")
  expect_equal(v, c(15.5, 21), tolerance = 1e-13)
  # the nearest-lattice baseline: ties go up (floor(y k + 1/2), not round())
  r3 <- bern_exact(c(10, 20, 30, 40, 50), 4)
  expect_warning(v <- predict(r3, c(0, 0.125, 0.374, 0.375, 1, 7), type = "nearest"),
                 class = "dpfda_warning_extrapolation")
  expect_identical(v, c(10, 20, 20, 30, 50, 50))
  expect_identical(predict(r3, list(c(0, 0.125)), type = "nearest"), c(10, 20))
  r4 <- bern_exact(1:12, c(2, 3), dim = 2)
  expect_identical(predict(r4, rbind(c(0.5, 1), c(0, 0.34)), type = "nearest"), c(11, 4))
})

# ---- privacy -------------------------------------------------------------------------

test_that("Laplace noise has scale sensitivity (k+1)^dim / epsilon and the right law", {
  S <- 0.003
  eps <- 0.7
  r <- with_seed_mode(1, dp_bernstein(function(p) rep(0, nrow(p)), sensitivity = S, epsilon = eps,
                                      k = 99, dim = 2))
  expect_identical(r$noise_scale, S * (99 + 1)^2 / eps)
  expect_identical(r$lattice_sensitivity, S * 100^2)
  expect_identical(r$noise_type, "laplace")
  z <- predict(r)
  expect_length(z, 1e4)
  expect_gt(stats::ks.test(z, bern_plaplace, scale = r$noise_scale)$p.value, 1e-3)
  expect_lt(stats::ks.test(z, bern_plaplace, scale = 0.7 * r$noise_scale)$p.value, 1e-3)
  expect_lt(stats::ks.test(z, bern_plaplace, scale = 1.3 * r$noise_scale)$p.value, 1e-3)
  for (d in 1:3) {
    r <- with_seed_mode(2, dp_bernstein(function(p) rep(0, NROW(p)), sensitivity = 2, epsilon = 3, k = 4,
                                        dim = d))
    expect_identical(r$noise_scale, 2 * 5^d / 3)
  }
  # h never enters the calibration
  expect_identical(dp_bernstein(0:5, 1, 1, k = 5, h = 9)$noise_scale, 6)
})

test_that("the Gaussian variant uses the L2 lattice sensitivity with dp_noise_scale()", {
  S <- 0.01
  r <- with_seed_mode(4, dp_bernstein(function(t) rep(0, length(t)), sensitivity = S, epsilon = 0.5,
                                      k = 4999, delta = 1e-6))
  expect_identical(r$noise_type, "gaussian")
  expect_identical(r$lattice_sensitivity, S * sqrt(5000))
  expect_identical(r$noise_scale, dp_noise_scale(S * sqrt(5000), 0.5, 1e-6))
  expect_gt(stats::ks.test(predict(r), "pnorm", sd = r$noise_scale)$p.value, 1e-3)
  expect_lt(stats::ks.test(predict(r), "pnorm", sd = 0.9 * r$noise_scale)$p.value, 1e-3)
  r2 <- dp_bernstein(0:20, S, 0.5, k = 20, delta = 1e-6, calibration = "hall")
  expect_identical(r2$noise_scale, dp_noise_scale(S * sqrt(21), 0.5, 1e-6, calibration = "hall"))
  # the paper's Theorem 7 (Laplace, advanced composition), when it beats lambda
  r3 <- dp_bernstein(0:999, S, 1, k = 999, delta = 1e-5, calibration = "composition")
  lam_d <- 2 * S * sqrt(2 * 1000 * log(1 / 1e-5)) / 1
  expect_identical(r3$noise_scale, lam_d)
  eps0 <- S / lam_d
  expect_lte(sqrt(2 * 1000 * log(1e5)) * eps0 + 1000 * eps0 * expm1(eps0), 1)
  r4 <- dp_bernstein(0:5, S, 1, k = 5, delta = 1e-5, calibration = "composition")
  expect_identical(r4$noise_scale, S * 6 / 1)        # lambda_delta > lambda: pure scale
})

test_that("worst-case neighbouring lattice vectors: the Laplace log density ratio is at most epsilon", {
  S <- 0.25
  eps <- 0.9
  k <- 6
  d <- 2
  m <- (k + 1)^d
  r <- with_seed_mode(5, dp_bernstein(function(p) p[, 1] * p[, 2], S, eps, k = k, dim = d))
  lam <- r$noise_scale
  set.seed(6)
  v <- stats::rnorm(m)
  logratio <- function(o, v, w) sum(abs(o - w) - abs(o - v)) / lam   # log p_v(o) - log p_w(o)
  worst <- -Inf
  for (w in list(v + S, v - S, v + S * sign(stats::rnorm(m)))) {     # shift by S at every point
    for (i in 1:200) {
      o <- v + stats::rnorm(m, sd = 3 * lam)
      worst <- max(worst, logratio(o, v, w))
    }
    o <- v - S * sign(w - v) * 10                                    # beyond both: the extreme
    expect_equal(logratio(o, v, w), eps, tolerance = 1e-12)
    worst <- max(worst, logratio(o, v, w))
  }
  expect_lte(worst, eps * (1 + 1e-12))
})

test_that("predict under any h is post-processing: no new noise, release unchanged", {
  old <- dp_rng("seeded")
  on.exit(dp_rng(old), add = TRUE)
  set.seed(21)
  r <- dp_bernstein(function(p) sin(3 * p[, 1]) + p[, 2], sensitivity = 0.01, epsilon = 1, k = 8, dim = 2)
  copy <- r
  Y <- matrix(stats::runif(40), ncol = 2)
  seed <- .Random.seed
  p1 <- predict(r, Y)
  p3 <- predict(r, Y, h = 3)
  p3b <- predict(r, Y, h = 3)
  pg <- predict(r, list(c(0.1, 0.5), c(0.2, 0.9)), h = 5)
  expect_identical(.Random.seed, seed)
  expect_identical(r, copy)
  expect_identical(p3, p3b)
  expect_gt(max(abs(p1 - p3)), 1e-6)
  expect_identical(predict(r, Y, h = 1), predict(r, Y))
  # a release with h = 3 evaluates as the h = 1 release does with h = 3
  set.seed(21)
  r3 <- dp_bernstein(function(p) sin(3 * p[, 1]) + p[, 2], sensitivity = 0.01, epsilon = 1, k = 8, dim = 2,
                     h = 3)
  expect_identical(r3$values, r$values)
  expect_identical(r3$noise_scale, r$noise_scale)
  expect_identical(predict(r3, Y), p3)
  # same seed, same release; secure mode: different releases
  set.seed(21)
  expect_identical(dp_bernstein(function(p) sin(3 * p[, 1]) + p[, 2], 0.01, 1, k = 8, dim = 2)$values,
                   r$values)
  dp_rng("secure")
  a <- dp_bernstein(function(t) t, 0.01, 1, k = 8)
  b <- dp_bernstein(function(t) t, 0.01, 1, k = 8)
  expect_false(identical(a$values$values, b$values$values))
  expect_identical(predict(a, c(0.2, 0.3), h = 2), predict(a, c(0.2, 0.3), h = 2))
})

test_that("release objects hold no non-private values", {
  x <- c(0.21, 0.47, 0.52, 0.93)      # "private data"
  target <- function(t) 1000 + vapply(t, function(u) mean(abs(u - x)), 1)
  lattice_values <- target((0:10) / 10)
  r <- with_seed_mode(7, dp_bernstein(target, sensitivity = 0.25, epsilon = 1, k = 10, h = 2))
  expect_s3_class(r, c("dpfda_bernstein_release", "dpfda_release"))
  expect_invisible(validate_dpfda_release(r))
  expect_length(intersect(names(r), dpfda:::forbidden_release_fields), 0L)
  expect_setequal(names(r), c("values", "mechanism", "epsilon", "delta", "sensitivity", "noise_scale",
                              "noise", "rng", "call", "k", "h", "dim", "domain", "calibration",
                              "noise_type", "lattice_sensitivity", "privacy_unit"))
  nums <- unlist(lapply(unclass(r), function(e) if (is.numeric(e)) e else if (is.list(e)) unlist(e)))
  expect_false(any(nums %in% lattice_values))
  expect_false(any(nums %in% x))
  # no function (closure over the data) or environment anywhere in the object
  has_closure <- function(o) {
    if (is.function(o) || is.environment(o)) return(TRUE)
    if (is.list(o)) return(any(vapply(o, has_closure, NA)))
    FALSE
  }
  expect_false(has_closure(unclass(r)))
  expect_identical(r$call$f, as.name("target"))
  r2 <- dp_bernstein(function(t) t + x[1], 0.1, 1, k = 3)
  expect_identical(r2$call$f, as.name("<private>"))
  expect_lt(length(serialize(r, NULL)), 4000)
  # print labels the seeded mode
  expect_output(print(r), "seeded")
  expect_output(print(r), "h = 2")
})

test_that("h = 1 evaluation agrees with the diffpriv package", {
  skip_if_not_installed("diffpriv")
  set.seed(8)
  for (cs in list(list(k = 10, d = 1), list(k = 5, d = 2), list(k = 3, d = 3))) {
    r <- with_seed_mode(9, dp_bernstein(function(p) rowSums(as.matrix(p)^2), sensitivity = 0.05,
                                        epsilon = 1, k = cs$k, dim = cs$d))
    ref <- getExportedValue("diffpriv", "bernstein")(function(x) 0, dims = cs$d, k = cs$k)
    ref$coeffs <- predict(r)                 # the same noisy lattice values, same lattice order
    Y <- matrix(stats::runif(20 * cs$d), ncol = cs$d)
    ours <- predict(r, if (cs$d == 1) Y[, 1] else Y, h = 1)
    theirs <- stats::predict(ref, if (cs$d == 1) Y[, 1] else Y)
    expect_equal(ours, theirs, tolerance = 1e-12)
  }
})

# ---- errors ----------------------------------------------------------------------------

test_that("f may return a one-curve curves object on the lattice (kde_gaussian()), as the values themselves", {
  x <- faithful$eruptions
  S <- sensitivity_kde(n = length(x), bandwidth = 0.3)
  # (it was "`f` must return 21 finite numbers ..., not an object of class <dpfda_curves>")
  old <- dp_reproducible(5)
  on.exit(dp_rng(old))
  r1 <- dp_bernstein(function(t) kde_gaussian(x, t, 0.3), S, 1, k = 20, domain = c(1, 6))
  dp_reproducible(5)
  r2 <- dp_bernstein(function(t) kde_gaussian(x, t, 0.3)$values[1, ], S, 1, k = 20, domain = c(1, 6))
  expect_identical(r1$values$values, r2$values$values)
  # a curves object on other points than the lattice is refused, not silently used
  expect_error(dp_bernstein(function(t) kde_gaussian(x, seq(1, 6, length.out = 21)[-1], 0.3), S, 1, k = 20,
                            domain = c(1, 6)),
               "`f` must return 21 finite numbers", class = "dpfda_error_argument")
  expect_error(dp_bernstein(function(t) kde_gaussian(x, t + 0.01, 0.3), S, 1, k = 20, domain = c(1, 6)),
               "not an object of class <dpfda_curves>", class = "dpfda_error_argument")
  # a curves object given as the values: on the lattice it is used, on other points of the same number refused
  lat <- seq(1, 6, length.out = 21)
  dp_reproducible(5)
  r3 <- dp_bernstein(kde_gaussian(x, lat, 0.3), S, 1, k = 20, domain = c(1, 6))
  expect_equal(r3$values$values, r1$values$values, tolerance = 1e-12)   # (the lattice, computed otherwise)
  expect_error(dp_bernstein(kde_gaussian(x, lat + 0.01, 0.3), S, 1, k = 20, domain = c(1, 6)),
               "`f` is a curve on other points than the 21 lattice points", class = "dpfda_error_argument")
})

test_that("bad input gives classed errors that name the argument", {
  f <- function(t) t
  expect_error(dp_bernstein(f, -1, 1, k = 3), class = "dpfda_error_privacy")
  expect_error(dp_bernstein(f, 1, 0, k = 3), "`epsilon`", class = "dpfda_error_privacy")
  expect_error(dp_bernstein(f, 1, 1, k = 3, delta = 1), "`delta`", class = "dpfda_error_privacy")
  expect_error(dp_bernstein(f, 1, 1, k = 0), "`k`", class = "dpfda_error_argument")
  expect_error(dp_bernstein(f, 1, 1, k = 2.5), "`k`", class = "dpfda_error_argument")
  expect_error(dp_bernstein(f, 1, 1, k = c(2, 3), dim = 1), "`k`", class = "dpfda_error_argument")
  expect_error(dp_bernstein(f, 1, 1, k = c(2, 3)), "12 finite numbers", class = "dpfda_error_argument")   # (dim 2 from k)
  expect_error(dp_bernstein(f, 1, 1, k = 3, h = 0), "`h`", class = "dpfda_error_argument")
  expect_error(dp_bernstein(f, 1, 1, k = 3, dim = 0), "`dim`", class = "dpfda_error_argument")
  expect_error(dp_bernstein(f, 1, 1, k = 3, domain = c(1, 0)), "`domain`", class = "dpfda_error_argument")
  expect_error(dp_bernstein(f, 1, 1, k = 3, domain = c(-Inf, 0)), "`domain`")
  expect_error(dp_bernstein(f, 1, 1, k = 3, domain = c(-1e308, 1e308)), "`domain`")
  expect_error(dp_bernstein(f, 1, 1, k = 10, domain = c(1, 1 + 4.5e-16)), "too narrow", class = "dpfda_error_argument")
  expect_error(dp_bernstein(f, 1, 1, k = 3, dim = 2, domain = matrix(0:1, 2, 3)), "`domain`")
  expect_error(dp_bernstein(f, 1, 1, k = 3, delta = 1e-5, calibration = "x"), "`calibration`")
  expect_error(dp_bernstein(function(t) c(t, 1), 1, 1, k = 3), "`f` must return 4 finite", class = "dpfda_error_argument")
  expect_error(dp_bernstein(function(t) t / 0, 1, 1, k = 3), "non-finite", class = "dpfda_error_argument")
  expect_error(dp_bernstein(function(t) stop("boom"), 1, 1, k = 3), "boom", class = "dpfda_error_argument")
  expect_error(dp_bernstein(1:3, 1, 1, k = 3), "`f` must be 4", class = "dpfda_error_argument")
  expect_error(dp_bernstein("a", 1, 1, k = 3), "`f`", class = "dpfda_error_argument")
  expect_warning(dp_bernstein(function(t) {warning("careful"); t}, 1, 1, k = 3), class = "dpfda_warning_target")
  expect_error(dp_bernstein(f, .Machine$double.xmax, 1, k = 3), class = "dpfda_error_numeric")
  expect_error(dp_bernstein(f, .Machine$double.xmax, 1, k = 3, delta = 0.1), class = "dpfda_error_numeric")
  expect_error(dp_bernstein(function(t) rep(.Machine$double.xmax, 4), 1e300, 1e-5, k = 3),
               class = "dpfda_error_numeric")
  expect_error(dp_bernstein(f, 1, 2, k = 3, delta = 1e-5, calibration = "hall"), class = "dpfda_error_privacy")

  expect_error(bernstein_basis(c(0.5, 1.5), 3), "`y`", class = "dpfda_error_argument")
  expect_error(bernstein_basis(NA_real_, 3), "`y`", class = "dpfda_error_argument")
  expect_error(bernstein_basis(0.5, 0), "`k`", class = "dpfda_error_argument")
  expect_error(bernstein_basis(0.5, 3, h = 1.5), "`h`", class = "dpfda_error_argument")
  expect_error(bernstein_basis(stats::runif(1e6), 1e4), "memory", class = "dpfda_error_numeric")

  r <- dp_bernstein(function(p) p[, 1], 0.1, 1, k = 3, dim = 2)
  expect_error(predict(r, c(0.1, 0.2, 0.3)), "`newdata`", class = "dpfda_error_argument")
  expect_error(predict(r, matrix(NA_real_, 1, 2)), "`newdata`", class = "dpfda_error_argument")
  expect_error(predict(r, list(0.1)), "`newdata`", class = "dpfda_error_argument")
  expect_error(predict(r, cbind(0.1, 0.2), h = 0), "`h`", class = "dpfda_error_argument")
  expect_error(predict(r, cbind(0.1, 0.2), type = "x"), "`type`", class = "dpfda_error_argument")
  expect_error(predict(r, h = 2), "`newdata`", class = "dpfda_error_argument")
  bad <- r
  bad$values$values <- bad$values$values[, -1, drop = FALSE]
  expect_error(predict(bad, cbind(0.1, 0.2)), "`object`", class = "dpfda_error_argument")
})

test_that("an impossible lattice is a classed numeric error that mentions memory", {
  expect_error(dp_bernstein(function(p) rep(0, nrow(p)), 1, 1, k = 1e4, dim = 5),
               "memory", class = "dpfda_error_numeric")
  expect_error(dp_bernstein(function(p) rep(0, nrow(p)), 1, 1, k = 2^31 - 2, dim = 1000),
               "memory", class = "dpfda_error_numeric")
  r <- dp_bernstein(function(p) p[, 1], 0.1, 1, k = 3, dim = 2)
  expect_error(predict(r, list(seq(0, 1, length.out = 1e5), seq(0, 1, length.out = 1e5))),
               "memory", class = "dpfda_error_numeric")
})

test_that("evaluation is fast (dim 2, k = 50, 1e5 points)", {
  skip_on_cran()
  r <- dp_bernstein(function(p) p[, 1] * p[, 2], 0.01, 1, k = 50, dim = 2, h = 3)
  set.seed(1)
  Y <- matrix(stats::runif(2e5), ncol = 2)
  expect_lt(cpu_seconds(predict(r, Y)), 5)
})

test_that("the map from lattice values to the polynomial equals one prediction per lattice value", {
  # (bernstein_map() evaluated the polynomial once per lattice value: 2.4 s for 1000 points at k = 15 in
  # the plane; now a row-wise Kronecker product of the axes' bases times the order-h coefficient map)
  slow_map <- function(br, points, h, type) {
    p <- length(br$values$values)
    do.call(cbind, lapply(seq_len(p), function(j) {
      br$values$values <- matrix(as.double(seq_len(p) == j), nrow = 1L)
      as.vector(dpfda:::bernstein_predict(br, points, h = h, type = type))
    }))
  }
  set.seed(8)
  f2 <- function(p) sin(3 * p[, 1]) * cos(2 * p[, 2])
  r2 <- with_seed_mode(1, dp_bernstein(f2, sensitivity = 0.05, epsilon = 1, k = c(4, 6),
                                       domain = rbind(c(-1, 0), c(2, 3))))
  expect_identical(r2$dim, 2L)   # (the dimension from the 2 x 2 domain; it was refused without dim = 2)
  pts <- cbind(runif(40, -1.5, 2.5), runif(40, -0.5, 3.5))   # (some outside: clamped alike)
  for (h in 1:3) for (type in c("bernstein", "nearest")) {
    expect_equal(dpfda:::bernstein_map(r2, pts, h, type), slow_map(r2, pts, h, type), tolerance = 1e-12,
                 info = paste(h, type))
  }
  ax <- list(seq(-1, 2, length.out = 5), seq(0, 3, length.out = 4))
  expect_equal(dpfda:::bernstein_map(r2, ax, 2), slow_map(r2, ax, 2, "bernstein"), tolerance = 1e-12)
  r3 <- with_seed_mode(2, dp_bernstein(function(p) rowSums(p^2), sensitivity = 0.05, epsilon = 1, k = c(2, 3, 2)))
  p3 <- matrix(runif(30), 10)
  expect_equal(dpfda:::bernstein_map(r3, p3, 2), slow_map(r3, p3, 2, "bernstein"), tolerance = 1e-12)
  r1 <- with_seed_mode(3, dp_bernstein(function(t) sin(3 * t), sensitivity = 0.05, epsilon = 1, k = 9))
  u <- runif(20)
  expect_equal(dpfda:::bernstein_map(r1, u, 1, "nearest"), slow_map(r1, u, 1, "nearest"))
  # the prediction band uses it: predict() with interval = "confidence" in the plane, fit equal to predict()
  expect_warning(pr <- predict(r2, pts[1:5, ], interval = "confidence"), class = "dpfda_warning_extrapolation")
  expect_equal(pr[, "fit"], suppressWarnings(predict(r2, pts[1:5, ])), tolerance = 1e-12)
})

test_that("dp_bernstein(): a calibration other than the default with delta = 0 is refused (Laplace has none)", {
  expect_error(dp_bernstein(function(t) t, 0.1, 1, k = 4, calibration = "hall"), "applies to delta > 0",
               class = "dpfda_error_argument")
  expect_s3_class(dp_bernstein(function(t) t, 0.1, 1, k = 4, calibration = "hall", delta = 1e-5), "dpfda_release")
  expect_s3_class(dp_bernstein(function(t) t, 0.1, 1, k = 4, calibration = "analytic"), "dpfda_release")
})

test_that("sensitivity helpers refuse a dim that contradicts the bandwidth (it was ignored: S 4x too small)", {
  e <- expect_error(sensitivity_bernstein_kde(100, c(0.1, 0.2), dim = 3), "disagrees", class = "dpfda_error_privacy")
  expect_identical(e$arg, "dim")
  expect_error(sensitivity_bernstein_kde(100, diag(c(0.01, 0.04)), dim = 3), class = "dpfda_error_privacy")
  expect_error(sensitivity_bernstein_naive_bayes(100, c(0.1, 0.2), dim = 3), class = "dpfda_error_privacy")
  # an agreeing dim, or none, is the bandwidth's
  expect_identical(sensitivity_bernstein_kde(100, c(0.1, 0.2), dim = 2), sensitivity_bernstein_kde(100, c(0.1, 0.2)))
  expect_identical(sensitivity_bernstein_naive_bayes(100, c(0.1, 0.2), dim = 2),
                   sensitivity_bernstein_naive_bayes(100, c(0.1, 0.2)))
  expect_equal(sensitivity_bernstein_naive_bayes(100, 0.1, dim = 3),
               2 * 2 * (1 / (sqrt(2 * pi) * 0.1))^3 / 100)
})

test_that("an array of lattice values must have the lattice's shape; epsilon = Inf is refused without a warning", {
  A <- array(1:20, c(4, 5))
  # (k = c(4, 3): a 5 x 4 lattice; the 4 x 5 array was read as a flat vector, each value at another point)
  expect_error(dp_bernstein(A, 0.1, 1, k = c(4, 3)), "5 x 4", class = "dpfda_error_argument")
  r1 <- with_seed_mode(1, dp_bernstein(t(A), 0.1, 1, k = c(4, 3)))
  r2 <- with_seed_mode(1, dp_bernstein(as.vector(t(A)), 0.1, 1, k = c(4, 3)))
  expect_identical(r1$values$values, r2$values$values)
  expect_silent(with_seed_mode(1, dp_bernstein(matrix(1:6, 6), 0.1, 1, k = 5)))   # (one axis: a column is fine)
  expect_no_warning(expect_error(dp_bernstein(function(t) t, 0.01, Inf, k = 5), class = "dpfda_error"))
})

test_that("Bernstein targets say when they move data into [0, 1] (priestley_chao(), logistic_fit())", {
  expect_warning(priestley_chao(c(0.1, 5, 0.5), 1:3, 0.5, 0.1, bound = 5), "1 of the 3 design points",
                 class = "dpfda_warning_data")
  X <- cbind(c(0.2, 3, 0.5, 0.9), c(0.1, 0.4, 7, 0.3))
  expect_warning(logistic_fit(X, c(1, -1, 1, -1)), "2 of the 4 rows", class = "dpfda_warning_data")
  expect_no_warning(logistic_fit(X / 10, c(1, -1, 1, -1)))
})

test_that("integral_kernel(average = TRUE) names a box of zero width (it said the kernel overflows)", {
  e <- expect_error(integral_kernel(0.3, 0.3, average = TRUE), "zero width", class = "dpfda_error_argument")
  expect_identical(e$arg, "upper")
  expect_equal(integral_kernel(0.3, 0.3), matrix(0, 1, 1))
  expect_error(integral_cross_kernel(0.5, 0.3, 0.3, average = TRUE), "zero width", class = "dpfda_error_argument")
})

test_that("sensitivity_kde() refuses a `d` that contradicts the bandwidth", {
  expect_error(sensitivity_kde(100, c(0.1, 0.2), d = 3), "`d` \\(3\\) disagrees", class = "dpfda_error_privacy")
  expect_error(sensitivity_kde(100, diag(c(0.01, 0.04)), d = 1), class = "dpfda_error_privacy")
  expect_identical(sensitivity_kde(100, c(0.1, 0.2), d = 2), sensitivity_kde(100, c(0.1, 0.2)))
  expect_equal(sensitivity_kde(100, 0.1, d = 2), sqrt(2) / (100 * 2 * pi * 0.01))
})
