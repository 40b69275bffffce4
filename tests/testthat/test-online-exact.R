# dp_online(noise = "exact"): discrete Gaussian steps on a lattice of the
# whitened coordinates (src/online.c, R/mech-online.R).

f1 <- function(t) sin(2 * pi * t)
nmax_default <- floor(2^29 / 5)

# the calibration, recomputed here from its definition (see ?dp_online, Privacy)
exact_calibration <- function(sensitivity, epsilon, delta, kernel, nmax = nmax_default) {
  v <- kernel$variance
  sigma0 <- dp_noise_scale(sensitivity, epsilon, delta)
  # the lattice in units of the noise sd before rounding (the same answers in any unit of f)
  unit <- sigma0 * sqrt(v)
  k <- 24 + 1
  repeat {
    step <- unit * 2^-k
    S <- sqrt(v) * sensitivity + sqrt(nmax) * step
    # smallest sd whose zCDP rho = S^2 / (2 sd^2) gives (epsilon, delta)
    sd <- uniroot(function(s) zcdp_delta(epsilon, S^2 / (2 * s^2)) / delta - 1,
                  c(S / 100, S * 100), tol = 1e-12 * S)$root
    p <- ceiling((sd / step)^2 * (1 + 1e-12))
    if (p <= 2^52) break
    k <- k - 1
  }
  list(step = step, S = S, sd = sd, p = p, amp = sqrt(p) * step)
}

test_that("calibration: zCDP of the whitened sensitivity plus the rounding of nmax points", {
  cases <- list(list(0.1, 1, 1e-5, kernel_exponential(0.1)),
                list(0.3, 0.2, 1e-6, kernel_matern(1 / 2, 0.2, variance = 4)),
                list(2, 5, 1e-3, kernel_gaussian(0.3)))
  for (cs in cases) {
    o <- dp_online(f1, cs[[4]], sensitivity = cs[[1]], epsilon = cs[[2]], delta = cs[[3]])
    ex <- exact_calibration(cs[[1]], cs[[2]], cs[[3]], cs[[4]])
    v <- cs[[4]]$variance
    expect_identical(o$noise, "exact")
    expect_identical(o$exact$step, ex$step)
    expect_identical(o$exact$nmax, nmax_default)
    expect_lte(abs(o$exact$p - ex$p), 1e-6 * ex$p)
    expect_equal(o$noise_scale * sqrt(v), ex$amp, tolerance = 1e-8)
    # the accounting: (epsilon, delta) holds; with 5 percent less noise it does not
    rho <- ex$S^2 / (2 * (o$noise_scale * sqrt(v))^2)
    expect_equal(o$exact$rho, rho, tolerance = 1e-10)
    expect_lte(zcdp_delta(cs[[2]], rho), cs[[3]] * (1 + 1e-9))
    expect_gt(zcdp_delta(cs[[2]], rho / 0.95^2), cs[[3]] * 1.01)
    # the rounding term is small: below 1 percent of the sensitivity at these settings
    expect_lt(sqrt(nmax_default) * ex$step, 0.01 * sqrt(v) * cs[[1]])
    # the float calibration would use less noise: exact costs 3 to 25 percent here
    ratio <- o$noise_scale / dp_noise_scale(cs[[1]], cs[[2]], cs[[3]])
    expect_gt(ratio, 1.03)
    expect_lt(ratio, 1.25)
  }
  # a smaller memory limit is a smaller nmax: a finer accounting
  old <- options(dpfda.max_doubles = 5000)
  on.exit(options(old))
  o <- dp_online(f1, kernel_exponential(0.1), 0.1, 1, 1e-5)
  expect_identical(o$exact$nmax, 1000)
  expect_equal(o$exact$rho, (0.1 + sqrt(1000) * o$exact$step)^2 / (2 * o$noise_scale^2))
})

test_that("independent steps are a discrete Gaussian on the lattice with the stated sd (KS, moments)", {
  # points 10^4 lengthscales apart: e^{-10^4} is 0 in double precision, so each answer
  # is its own first step: y = step (round(f / step) + Z), Z ~ N_Z(0, p)
  k <- kernel_exponential(0.01)
  x <- seq(0, by = 100, length.out = 20000)
  fz <- function(t) 0 * t
  a <- with_seed_mode(81, {
    o <- dp_online(fz, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5)
    query(o, x)
  })
  step <- o$exact$step
  amp <- o$noise_scale
  z <- a / step
  expect_lt(max(abs(z - round(z))), 1e-6)             # on the lattice (up to the product by its unit)
  expect_true(all(abs(z) < 2^53))
  expect_gt(suppressWarnings(stats::ks.test(a / amp, "pnorm")$p.value), 1e-3)
  N <- length(a)
  expect_lt(abs(mean(a / amp)), 5 / sqrt(N))
  expect_lt(abs(var(a / amp) - 1), 5 * sqrt(2 / N))
  # 10 percent less noise fails the same checks
  expect_gt(abs(var(0.9 * a / amp) - 1), 5 * sqrt(2 / N))
  expect_lt(suppressWarnings(stats::ks.test(0.9 * a / amp, "pnorm")$p.value), 1e-3)
  # a non-zero f: the step is round(f / step) + Z, so (a - f) / amp is the same law
  b <- with_seed_mode(82, {
    o2 <- dp_online(function(t) rep(0.37, length(t)), k, sensitivity = 0.1, epsilon = 1, delta = 1e-5)
    query(o2, x)
  })
  expect_lt(max(abs(b / step - round(b / step))), 1e-6)
  expect_gt(suppressWarnings(stats::ks.test((b - 0.37) / amp, "pnorm")$p.value), 1e-3)
  expect_lt(abs(var((b - 0.37) / amp) - 1), 5 * sqrt(2 / N))
})

test_that("Markov path: each answer is the neighbours' interpolation plus sqrt(v) times a lattice value", {
  k <- kernel_exponential(0.2)
  g <- 1 / k$lengthscale
  P <- c(0.5, 0.1, 0.9, 0.3, 0.7, 0.2, 0.95, 0.04)
  res <- with_seed_mode(83, {
    o <- dp_online(f1, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5)
    list(o = o, a = vapply(P, function(p) query(o, p), 0))
  })
  o <- res$o
  a <- res$a
  step <- o$exact$step
  for (i in seq_along(P)) {
    x <- P[i]
    prev <- P[seq_len(i - 1L)]
    pa <- a[seq_len(i - 1L)]
    lo <- prev[prev < x]; hi <- prev[prev > x]
    if (!length(lo) && !length(hi)) { m <- 0; v <- 1 }
    else if (!length(lo)) { b <- min(hi); t <- g * (b - x); m <- exp(-t) * pa[prev == b]; v <- -expm1(-2 * t) }
    else if (!length(hi)) { b <- max(lo); t <- g * (x - b); m <- exp(-t) * pa[prev == b]; v <- -expm1(-2 * t) }
    else {
      l <- max(lo); h <- min(hi); t1 <- g * (x - l); t2 <- g * (h - x)
      q1 <- -expm1(-2 * t1); q2 <- -expm1(-2 * t2); q12 <- -expm1(-2 * (t1 + t2))
      m <- (exp(-t1) * q2 * pa[prev == l] + exp(-t2) * q1 * pa[prev == h]) / q12
      v <- q1 * q2 / q12
    }
    y <- (a[i] - m) / sqrt(v) / step        # the public part removed: a lattice value
    expect(abs(y - round(y)) < 1e-4, sprintf("point %g: (a - m) / sqrt(v) is %.6f steps", x, y))
  }
})

test_that("general path: the answers are L y with y on the lattice", {
  set.seed(84)
  P <- matrix(runif(16), 8, 2)
  k <- kernel_gaussian(0.5)
  f2 <- function(p) p[, 1]^2 - p[, 2]
  a <- with_seed_mode(85, {
    o <- dp_online(f2, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5, tau = 1e-6)
    c(query(o, P[1:3, ]), query(o, P[4, , drop = FALSE]), query(o, P[5:8, ]))
  })
  expect_identical(o$kind, "cholesky")
  L <- t(chol(kernel_matrix(k, P) / k$variance + 1e-6 * diag(8)))
  y <- forwardsolve(L, a) / o$exact$step
  expect_lt(max(abs(y - round(y))), 1e-3)
  # and the whitened noise is the discrete Gaussian around L^{-1} f (within a few sd)
  w <- forwardsolve(L, f2(P))
  expect_lt(max(abs(forwardsolve(L, a) - w)) / o$noise_scale, 6)
  expect_identical(released(o)$sampler, "online-cholesky-exact")
})

test_that("seeded mode reproduces; one query or a batch give the same answers", {
  k <- kernel_exponential(0.1)
  x <- c(0.5, 0.2, 0.8, 0.2, 0.35, 1.4, -0.3)
  run <- function(batch) with_seed_mode(86, {
    o <- dp_online(f1, k, 0.1, 1, 1e-5)
    if (batch) query(o, x) else vapply(x, function(p) query(o, p), 0)
  })
  a <- run(TRUE)
  expect_identical(run(TRUE), a)
  expect_identical(run(FALSE), a)
  expect_identical(a[2], a[4])
  for (kk in list(kernel_gaussian(0.3))) {
    r1 <- with_seed_mode(87, query(dp_online(f1, kk, 0.1, 1, 1e-5), x))
    r2 <- with_seed_mode(87, query(dp_online(f1, kk, 0.1, 1, 1e-5), x))
    expect_identical(r1, r2)
  }
})

test_that("released() and the budget record the exact accounting", {
  b <- privacy_budget(2, 1e-4, composition = "zcdp")
  r <- with_seed_mode(88, {
    o <- dp_online(f1, kernel_exponential(0.1), 0.1, 1, 1e-5, budget = b)
    query(o, c(0.2, 0.6))
    released(o)
  })
  expect_true(r$noise_exact)
  expect_identical(r$calibration_exact, "zcdp")
  expect_identical(r$grid_step, o$exact$step)
  expect_equal(r$zcdp_rho, o$exact$rho)
  expect_identical(r$sampler, "online-markov-exact")
  expect_equal(b$ledger$rho, o$exact$rho)
  expect_output(print(o), "exact")
  # float noise keeps the Gaussian (GDP) accounting
  b2 <- privacy_budget(2, 1e-4)
  o2 <- dp_online(f1, kernel_exponential(0.1), 0.1, 1, 1e-5, noise = "float", budget = b2)
  expect_equal(b2$ledger$mu, 0.1 / o2$noise_scale)
  expect_true(is.na(b$ledger$mu))
  expect_null(o2$exact)
})

test_that("exact noise has no float tail limit; float noise keeps its refusal", {
  expect_error(dp_online(f1, kernel_exponential(0.1), 1, 30, 1e-5, noise = "float"),
               class = "dpfda_error_tail")
  o <- dp_online(f1, kernel_exponential(0.1), 1, 30, 1e-5)
  expect_true(all(is.finite(with_seed_mode(89, query(o, c(0.1, 0.4))))))
  # sensitivity 0: no noise at all, in both modes
  for (noise in c("exact", "float")) {
    o0 <- dp_online(f1, kernel_exponential(0.1), 0, 1, 1e-5, noise = noise)
    expect_identical(query(o0, c(0.1, 0.25)), f1(c(0.1, 0.25)))
  }
})

test_that("the accounting's point cap is enforced before any draw", {
  old <- options(dpfda.max_doubles = 50)   # nmax = 10 points
  on.exit(options(old))
  o <- dp_online(f1, kernel_exponential(0.1), 0.1, 1, 1e-5)
  expect_identical(o$exact$nmax, 10)
  expect_error(query(o, seq(0, 1, length.out = 11)), class = "dpfda_error_numeric")
  expect_identical(length(o), 0L)
  expect_length(query(o, seq(0, 1, length.out = 10)), 10L)
  expect_error(query(o, 2), class = "dpfda_error_numeric")     # the fast path refuses too
  expect_identical(length(o), 10L)
  o2 <- dp_online(function(p) p[, 1], kernel_gaussian(0.3), 0.1, 1, 1e-5)
  expect_error(query(o2, matrix(runif(22), 11, 2)), class = "dpfda_error_numeric")
})
