# dp_online(): the online release of Hall, Rinaldo & Wasserman, Section 5
# (spec hall_gp_functions.md, Algorithms D and E, tests T6, T7, S3).

f1 <- function(t) sin(2 * pi * t)
f2 <- function(p) p[, 1]^2 - p[, 2]
amp_of <- function(o) o$noise_scale * sqrt(o$kernel$variance)
max_abs <- function(a, b) max(abs(a - b))

# ---- T6: the Markov (OU) fast path against the general Schur formulas ------------

schur <- function(k, P, xi, x) {
  C <- kernel_matrix(k, P) / k$variance
  V <- kernel_matrix(k, P, x) / k$variance
  list(mean = drop(crossprod(V, solve(C, xi))), var = drop(1 - crossprod(V, solve(C, V))))
}

test_that("T6: Markov conditional mean and variance equal V'C^-1 xi and 1 - V'C^-1 V", {
  # (exact noise: the same conditional law, the noise values are answers - f)
  for (noise in c("float", "exact")) for (k in list(kernel_exponential(0.2), kernel_matern(1 / 2, 0.35, variance = 2.5))) {
    P <- c(0.3, 0.1, 0.72, 0.45, 0.5)
    o <- with_seed_mode(61, {
      o <- dp_online(f1, k, sensitivity = 0.3, epsilon = 1, delta = 1e-5, noise = noise)
      query(o, P)
      o
    })
    expect_identical(o$kind, "markov")
    xi <- (query(o, P) - f1(P)) / amp_of(o)     # unit-variance noise values
    cases <- c(left = 0.001, left2 = 0.09, interior = 0.2, between_close = 0.47,
               interior2 = 0.6, right = 0.999)
    for (nm in names(cases)) {
      x <- cases[[nm]]
      cd <- dpfda:::online_condition(o, x)
      s <- schur(k, P, xi, x)
      expect(abs(cd$mean - s$mean) < 1e-10, sprintf("%s: mean %.15g vs Schur %.15g", nm, cd$mean, s$mean))
      expect(abs(cd$var - s$var) < 1e-10, sprintf("%s: var %.15g vs Schur %.15g", nm, cd$var, s$var))
    }
    # the paper's (corrected) rho formulas agree where they do not overflow
    g <- 1 / k$lengthscale
    rho <- function(a, b) exp(g * abs(a - b)) - exp(-g * abs(a - b))
    a <- 0.1; b <- 0.3; x <- 0.2
    w_a <- rho(b, x) / rho(a, b); w_b <- rho(a, x) / rho(a, b)
    Kx <- function(y) exp(-g * abs(x - y))
    cd <- dpfda:::online_condition(o, x)
    expect_lt(abs(cd$mean - (w_a * xi[2] + w_b * xi[1])), 1e-10)
    expect_lt(abs(cd$var - (1 - Kx(a) * w_a - Kx(b) * w_b)), 1e-10)
    # answered points: the stored value, no variance
    cd <- dpfda:::online_condition(o, P)
    expect_equal(cd$mean, xi, tolerance = 1e-12)
    expect_identical(cd$var, rep(0, length(P)))
  }
})

test_that("T6: no overflow, NaN or Inf at gamma |x - y| = 1000 and beyond", {
  rho <- function(t) exp(t) - exp(-t)
  expect_true(is.nan(rho(1000) / rho(2000)))   # the paper's form breaks here
  k <- kernel_exponential(1)
  with_seed_mode(62, {
    o <- dp_online(function(t) 0 * t, k, sensitivity = 1, epsilon = 1, delta = 1e-5)
    a <- query(o, c(0, 2000))
    cd <- dpfda:::online_condition(o, c(1000, -1000, 3000, 1e-300, 2000 - 1e-9, 1e300))
    expect_true(all(is.finite(cd$mean)) && all(is.finite(cd$var)))
    expect_equal(cd$var[1:3], c(1, 1, 1))
    expect_equal(cd$mean[1:3], c(0, 0, 0))
    expect_true(all(cd$var >= 0 & cd$var <= 1))
    b <- query(o, c(1000, -1000, 3000, 1e-300, 2000 - 1e-9, -1e300, 1e300, 500, 1500))
    expect_true(all(is.finite(b)))
    # interior point at distance 1000 from both neighbours: independent of them
    P <- c(0, 2000)
    s <- schur(k, P, a / amp_of(o), 1000)
    expect_equal(c(s$mean, s$var), c(0, 1))
  })
})

test_that("T6: a repeated query returns the stored answer and draws nothing", {
  with_seed_mode(63, {
    for (k in list(kernel_exponential(0.2), kernel_gaussian(0.2))) {
      o <- dp_online(f1, k, sensitivity = 0.5, epsilon = 1, delta = 1e-5)
      a <- query(o, c(0.3, 0.6, 0.3))
      expect_identical(a[1], a[3])
      seed <- .Random.seed
      b <- query(o, c(0.6, 0.3, 0.6))
      expect_identical(.Random.seed, seed)        # no new randomness
      expect_identical(b, a[c(2, 1, 2)])
      expect_identical(length(o), 2L)
    }
  })
})

# ---- T7: the general path equals the batch release with the same normals ----------

test_that("T7: general-path answers equal f + sigma L z, L = chol(K_P + tau v I), in query order", {
  set.seed(70)
  P2 <- matrix(runif(24), 12, 2)
  cases <- list(
    list(k = kernel_gaussian(0.4), P = P2, f = f2, tau = 1e-8, method = "auto"),
    list(k = kernel_matern(3 / 2, 0.3, variance = 3), P = matrix(runif(10)), f = function(t) t^2,
         tau = 1e-10, method = "auto"),
    list(k = kernel_exponential(0.25), P = matrix(runif(9)), f = f1, tau = 1e-6, method = "cholesky")
  )
  for (cs in cases) {
    P <- cs$P
    m <- nrow(P)
    pts <- function(i) if (ncol(P) == 1L) P[i, 1] else P[i, , drop = FALSE]
    res <- with_seed_mode(71, {
      o <- dp_online(cs$f, cs$k, sensitivity = 0.2, epsilon = 1, delta = 1e-5, tau = cs$tau,
                     method = cs$method, noise = "float")
      # one query, a batch, a repeat (no draw) and the rest
      a <- c(query(o, pts(1)), query(o, pts(2:5)))
      rep_ans <- query(o, pts(c(3, 1)))
      a <- c(a, query(o, pts(6:m)))
      list(a = a, rep = rep_ans, o = o)
    })
    expect_identical(res$o$kind, "cholesky")
    expect_identical(res$rep, res$a[c(3, 1)])
    z <- with_seed_mode(71, stats::rnorm(m))
    K <- kernel_matrix(cs$k, P)
    L <- t(chol(K + cs$tau * cs$k$variance * diag(m)))
    fv <- if (ncol(P) == 1L) cs$f(P[, 1]) else cs$f(P)
    sigma <- dp_noise_scale(0.2, 1, 1e-5)
    expect_lt(max_abs(res$a, fv + sigma * drop(L %*% z)), 1e-8)
  }
})

test_that("T7 for the Markov path: exact conditionals reproduce f + sigma chol(K_P) z", {
  set.seed(72)
  P <- runif(15)
  k <- kernel_exponential(0.3, variance = 2)
  a <- with_seed_mode(73, {
    o <- dp_online(f1, k, sensitivity = 0.2, epsilon = 1, delta = 1e-5, noise = "float")
    vapply(P, function(p) query(o, p), 0)
  })
  z <- with_seed_mode(73, stats::rnorm(15))
  L <- t(chol(kernel_matrix(k, P)))
  expect_lt(max_abs(a, f1(P) + dp_noise_scale(0.2, 1, 1e-5) * drop(L %*% z)), 1e-8)
})

# ---- S3: joint law under adaptive query orders ---------------------------------------

# Query the m points one at a time in an adaptive order: the next point
# depends on the sign of the answer just released. Returns the answers in
# point order.
adaptive_answers <- function(o, P) {
  m <- nrow(P)
  pt <- function(i) if (ncol(P) == 1L) P[i, 1] else P[i, , drop = FALSE]
  remaining <- seq_len(m)
  ans <- numeric(m)
  i <- remaining[sample.int(m, 1L)]
  repeat {
    a <- query(o, pt(i))
    ans[i] <- a
    remaining <- remaining[remaining != i]
    if (!length(remaining)) break
    i <- if (a > 0) remaining[1L] else remaining[length(remaining)]
  }
  ans
}

joint_residuals <- function(seed, N, k, P, f, method = "auto", noise = "float") {
  fv <- if (ncol(P) == 1L) f(P[, 1]) else f(P)
  with_seed_mode(seed, {
    R <- matrix(0, N, nrow(P))
    # exact noise: one calibration (the lattice and the zCDP sigma) for all N sessions
    o <- dp_online(f, k, sensitivity = 0.5, epsilon = 1, delta = 1e-3, calibration = "hall",
                   method = method, noise = noise)
    sigma <- o$noise_scale
    for (r in seq_len(N)) {
      o <- if (noise == "float") {
        dp_online(f, k, sensitivity = 0.5, epsilon = 1, delta = 1e-3, calibration = "hall",
                  method = method, noise = noise)
      } else online_exact_copy(o)
      R[r, ] <- (adaptive_answers(o, P) - fv) / sigma
    }
    R
  })
}

# A fresh session with the calibration of `o` (exact noise), without redoing
# the zCDP search of dp_online() N times: the same C state parameters.
online_exact_copy <- function(o) {
  st <- as.environment(as.list.environment(o, all.names = TRUE))
  ex <- o$exact
  st$ptr <- .Call(dpfda:::C_dpfda_online_create, o$noise_scale * sqrt(o$kernel$variance), o$tau,
                  dpfda:::kernel_code(o$kernel),
                  as.double(if (is.null(o$kernel$nu)) 0.5 else o$kernel$nu),
                  if (dpfda:::kernel_is_markov_1d(o$kernel)) 1 / o$kernel$lengthscale else 0,
                  c(2^-ex$k, ex$p, ex$nmax, ex$unit))
  st$d <- st$kind <- st$general <- NULL
  st$fast <- FALSE
  class(st) <- "dpfda_online_session"
  st
}

test_that("S3: adaptive answers have covariance sigma^2 K; 10% less noise fails the check", {
  N <- 4000
  tol <- 5 * sqrt(2 / N)
  set.seed(30)
  cases <- list(
    ou = list(k = kernel_exponential(0.3), P = matrix(sort(runif(6))), f = f1, kind = "markov"),
    gauss_1d = list(k = kernel_gaussian(0.3), P = matrix(runif(6)), f = f1, kind = "cholesky"),
    gauss_2d = list(k = kernel_gaussian(0.5), P = matrix(runif(12), 6, 2), f = f2, kind = "cholesky")
  )
  cases$ou_exact <- c(cases$ou, noise = "exact")
  cases$gauss_2d_exact <- c(cases$gauss_2d, noise = "exact")
  for (nm in names(cases)) {
    cs <- cases[[nm]]
    R <- joint_residuals(31, N, cs$k, cs$P, cs$f, noise = if (is.null(cs$noise)) "float" else cs$noise)
    K <- kernel_matrix(cs$k, cs$P)
    E <- crossprod(R) / N
    expect(max(abs(E - K)) < tol, sprintf("%s: max |cov - K| = %.4f >= %.4f", nm, max(abs(E - K)), tol))
    expect_lt(max(abs(colMeans(R))), 5 / sqrt(N))
    E9 <- crossprod(0.9 * R) / N
    expect(max(abs(E9 - K)) > tol, sprintf("%s: 10%% less noise passes the check", nm))
  }
})

# ---- the release and the privacy of what is printed or returned ----------------------

test_that("released() holds the answers only, sorted in 1-D, in query order otherwise", {
  with_seed_mode(40, {
    o <- dp_online(f1, kernel_exponential(0.2), sensitivity = 0.1, epsilon = 0.5, delta = 1e-6,
                   noise = "float")
    a <- query(o, c(0.7, 0.2, 0.9, 0.2, 0.5))
    r <- released(o)
  })
  expect_s3_class(r, c("dpfda_online_release", "dpfda_gp_release", "dpfda_release"))
  expect_invisible(validate_dpfda_release(r))
  expect_identical(r$values$grid, c(0.2, 0.5, 0.7, 0.9))
  expect_identical(as.vector(r$values$values), a[c(2, 5, 1, 3)])
  expect_identical(r$mechanism, "gp_online")
  expect_identical(r$rng, "seeded")
  expect_identical(r$queries, 4L)
  expect_identical(r$sampler, "online-markov")
  expect_identical(c(r$epsilon, r$delta, r$sensitivity), c(0.5, 1e-6, 0.1))
  expect_equal(r$noise_scale, dp_noise_scale(0.1, 0.5, 1e-6))
  expect_identical(r$noise, kernel_exponential(0.2))
  # nothing non-private: no function, no field holding f or the raw noise
  expect_length(intersect(names(r), c("f", "data", "x", "y", "noise_path", "raw_noise", "nonprivate", "summary")), 0L)
  expect_false(any(vapply(unclass(r), is.function, NA)))
  expect_false(any(vapply(unclass(r), is.environment, NA)))
  raw_noise <- (a - f1(c(0.7, 0.2, 0.9, 0.2, 0.5)))
  nums <- unlist(lapply(unclass(r), function(v) if (is.numeric(v)) v))
  expect_false(any(abs(outer(nums, raw_noise, "-")) < 1e-12))
  expect_false(any(abs(outer(nums, f1(c(0.7, 0.2, 0.9)), "-")) < 1e-12))   # (f1(0.5) is ~0)
  expect_false(any(abs(outer(as.vector(r$values$values), f1(c(0.7, 0.2, 0.9, 0.5)), "-")) < 1e-12))
  # kriging on the release is post-processing and reproduces the answers
  expect_equal(predict(r, c(0.5, 0.9)), a[c(5, 3)], tolerance = 1e-6)

  with_seed_mode(41, {
    o2 <- dp_online(f2, kernel_gaussian(0.5), sensitivity = 0.1, epsilon = 1, delta = 1e-5,
                    noise = "float")
    P <- rbind(c(0.5, 0.5), c(0, 1), c(1, 0))
    a2 <- query(o2, P)
  })
  r2 <- released(o2)
  expect_invisible(validate_dpfda_release(r2))
  expect_identical(r2$values$grid, P)
  expect_identical(as.vector(r2$values$values), a2)
  expect_identical(r2$sampler, "online-cholesky")
  expect_equal(r2$jitter, 1e-10)
})

test_that("released() reports the secure source when no draw was seeded", {
  old <- dp_rng("secure")
  on.exit(dp_rng(old))
  o <- dp_online(f1, kernel_exponential(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
  a <- query(o, c(0.1, 0.2))
  expect_true(all(is.finite(a)))
  expect_identical(released(o)$rng, "secure")
  o2 <- dp_online(f1, kernel_exponential(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
  expect_false(isTRUE(all.equal(query(o2, c(0.1, 0.2)), a)))   # fresh entropy
  dp_rng("seeded")
  query(o, 0.3)
  expect_identical(released(o)$rng, "seeded")
})

test_that("print() warns that the object is curator-side and shows no private value", {
  secret <- function(t) rep(987654.321, length(t))
  with_seed_mode(42, {
    o <- dp_online(secret, kernel_exponential(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
    out0 <- capture.output(print(o))
    query(o, c(0.1, 0.5))
    out <- capture.output(print(o))
  })
  expect_true(any(grepl("CURATOR-SIDE", out)))
  expect_true(any(grepl("serialise", out)))
  expect_true(any(grepl("answered 2 distinct points", out)))
  expect_true(any(grepl("chosen at the first query", out0)))
  expect_false(any(grepl("98765|9.876", c(out0, out))))
  expect_identical(length(o), 2L)
})

test_that("f is evaluated only at new queried points, once per query", {
  seen <- list()
  f <- function(t) {
    seen[[length(seen) + 1L]] <<- t
    t
  }
  with_seed_mode(43, {
    o <- dp_online(f, kernel_exponential(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
    query(o, c(0.1, 0.2, 0.1))
    query(o, c(0.2, 0.1))
    query(o, c(0.3, 0.2, 0.4, 0.3))
  })
  expect_identical(seen, list(c(0.1, 0.2), c(0.3, 0.4)))
})

test_that("seeded mode reproduces; the general path survives a singular Gram matrix", {
  run <- function() with_seed_mode(44, {
    o <- dp_online(f1, kernel_gaussian(0.1), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
    query(o, seq(0, 1, length.out = 300))   # Gram matrix numerically singular
  })
  a <- run()
  expect_identical(run(), a)
  expect_true(all(is.finite(a)))
  with_seed_mode(45, {
    o <- dp_online(f1, kernel_gaussian(1), sensitivity = 0.1, epsilon = 1, delta = 1e-5, tau = 1e-10)
    query(o, c(0, 1e-9, 2e-9))
    cd <- dpfda:::online_condition(o, c(1.5e-9, 3e-9))
    expect_true(all(cd$var >= 0.5e-10))           # the guard raises, never lowers
    expect_true(all(is.finite(cd$mean)))
  })
})

test_that("a saved and reloaded online release refuses to answer", {
  o <- with_seed_mode(46, {
    o <- dp_online(f1, kernel_exponential(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
    query(o, 0.5)
    o
  })
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(o, file)
  o2 <- readRDS(file)
  expect_error(query(o2, 0.7), class = "dpfda_error_state")
  expect_error(query(o2, 0.5), class = "dpfda_error_state")
  expect_error(released(o2), class = "dpfda_error_state")
  expect_error(dpfda:::online_condition(o2, 0.5), class = "dpfda_error_state")
  expect_identical(length(o2), 0L)
  expect_output(print(o2), "STATE LOST")
  # never queried: the reloaded copy cannot start a second path either
  o3 <- dp_online(f1, kernel_gaussian(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
  saveRDS(o3, file)
  expect_error(query(readRDS(file), 0.7), class = "dpfda_error_state")
  # the original is unaffected
  expect_length(query(o, 0.7), 1L)
  gc()
  expect_identical(length(o), 2L)
})

test_that("a forked copy refuses to answer", {
  skip_on_os("windows")
  o <- dp_online(f1, kernel_exponential(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
  query(o, 0.5)
  job <- parallel::mcparallel(tryCatch(query(o, 0.7), error = function(e) class(e)))
  res <- parallel::mccollect(job)[[1]]
  expect_true("dpfda_error_state" %in% res)
  expect_identical(length(o), 1L)
})

# ---- bad inputs -------------------------------------------------------------------------

test_that("bad arguments give classed errors naming the argument", {
  k <- kernel_exponential(0.2)
  mk <- function(...) dp_online(f1, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5, ...)
  err <- function(expr, arg, class = "dpfda_error_argument") {
    e <- expect_error(expr, class = class)
    if (!is.null(arg)) expect_identical(e$arg, arg)
  }
  err(dp_online(1:3, k, 0.1, 1, 1e-5), "f")
  err(dp_online(f1, "k", 0.1, 1, 1e-5), "kernel")
  err(dp_online(f1, k, -1, 1, 1e-5), "sensitivity", "dpfda_error_privacy")
  err(dp_online(f1, k, 0.1, 0, 1e-5), "epsilon", "dpfda_error_privacy")
  err(dp_online(f1, k, 0.1, 1, 1), "delta", "dpfda_error_privacy")
  err(mk(calibration = "x"), "calibration")
  err(mk(tau = 0), "tau")
  err(mk(tau = 1), "tau")
  err(mk(method = "kronecker"), "method")
  err(dp_online(f1, kernel_gaussian(0.2), 0.1, 1, 1e-5, method = "markov"), "method")
  err(mk(bogus = 1), "bogus")   # (the option is named, as by every mechanism)
  err(dp_online(f1, k, 0.1, 2, 1e-5, calibration = "hall"), "epsilon", "dpfda_error_privacy")
  expect_s3_class(dp_online(f1, k, 0.1, 2, 1e-5, calibration = "hall", allow_large_epsilon = TRUE),
                  "dpfda_online_session")
  err(dp_online(f1, kernel_exponential(1e-320), 0.1, 1, 1e-5), NULL, "dpfda_error_numeric")

  o <- mk()
  err(query(o, "a"), "x")
  err(query(o, NA_real_), "x")
  err(query(o, c(0.1, Inf)), "x")
  err(query(o, numeric(0)), "x")
  err(query(o, list(0.1)), "x")
  err(query(1, 0.5), "object")
  err(query(NULL, 0.5), "object")
  err(released(list()), "object")
  err(released(o), "object", "dpfda_error_state")       # nothing answered yet
  expect_length(query(o, c(0.1, 0.2)), 2L)
  err(query(o, cbind(0.1, 0.2)), "x")                    # dimension fixed by the first query

  err(query(dp_online(function(t) stop("boom"), k, 0.1, 1, 1e-5), 0.1), "f")
  err(query(dp_online(function(t) 1, k, 0.1, 1, 1e-5), c(0.1, 0.2)), "f")
  err(query(dp_online(function(t) NA_real_ * t, k, 0.1, 1, 1e-5), 0.1), "f")
  err(query(dp_online(function(t) "a", k, 0.1, 1, 1e-5), 0.1), "f")
  o2 <- dp_online(function(t) c(1, NaN), k, 0.1, 1, 1e-5)
  err(query(o2, c(0.1, 0.2)), "f")
  expect_identical(length(o2), 0L)                       # refused before any draw

  err(query(dp_online(f2, kernel_gaussian(c(0.2, 0.3)), 0.1, 1, 1e-5), c(0.1, 0.2)), "x")
  err(query(dp_online(f2, k, 0.1, 1, 1e-5, method = "markov"), cbind(0.1, 0.2)), "x")
  err(query(dp_online(f1, kernel_gaussian(1e-300), 0.1, 1, 1e-5), 1e300), "x", "dpfda_error_numeric")
})

test_that("memory and overflow limits are classed errors and refuse before drawing", {
  old <- options(dpfda.max_doubles = 1000)
  o <- dp_online(f1, kernel_gaussian(0.2), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
  options(old)
  expect_error(query(o, seq(0, 1, length.out = 100)), class = "dpfda_error_numeric")
  expect_identical(length(o), 0L)
  expect_length(query(o, seq(0, 1, length.out = 30)), 30L)

  # (near-independent points, so that some noise value is positive and overflows)
  big <- dp_online(function(t) rep(.Machine$double.xmax, length(t)), kernel_exponential(1e-3),
                   sensitivity = 1e300, epsilon = 1, delta = 1e-5, noise = "float")
  e <- expect_error(query(big, seq(0, 1, length.out = 40)), class = "dpfda_error_numeric")
  expect_lt(length(big), 40L)
  expect_true(length(big) == 0L || all(is.finite(released(big)$values$values)))
  # exact noise: such a scale is outside the range of the lattice, refused at creation
  expect_error(dp_online(function(t) t, kernel_exponential(1e-3), sensitivity = 1e300, epsilon = 1,
                         delta = 1e-5), class = "dpfda_error_numeric")
  # f beyond 2^52 lattice steps is clamped there (as every exact mechanism): finite answers
  big <- dp_online(function(t) rep(.Machine$double.xmax, length(t)), kernel_exponential(1e-3),
                   sensitivity = 1e200, epsilon = 1, delta = 1e-5)
  expect_true(all(is.finite(query(big, seq(0, 1, length.out = 40)))))
})

# ---- speed -------------------------------------------------------------------------------

test_that("10^5 sequential OU queries take well under 5 seconds (bench: under 1 s)", {
  skip_on_cran()
  skip_if(nzchar(Sys.getenv("DPFDA_NO_TIMING")), "timing disabled (e.g. under valgrind)")
  set.seed(50)
  x <- runif(1e5)
  o <- dp_online(f1, kernel_exponential(0.01), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
  t_seq <- cpu_seconds(for (xi in x) query(o, xi))
  expect_lt(t_seq, 5)
  expect_identical(length(o), 100000L)
  o2 <- dp_online(f1, kernel_exponential(0.01), sensitivity = 0.1, epsilon = 1, delta = 1e-5)
  t_batch <- cpu_seconds(query(o2, x))
  expect_lt(t_batch, 2)
})

test_that("a target may return a one-curve curves object on the queried points (kde_gaussian())", {
  # (it was "`f` must be a function returning 2 numbers (one per new point), not a list of length 1")
  x <- faithful$eruptions
  S <- sensitivity_kde(length(x), 0.3)
  o1 <- with_seed_mode(6, dp_online(function(t) kde_gaussian(x, t, 0.3, domain = c(1, 6)), kernel_gaussian(0.3),
                                    sensitivity = S, epsilon = 1, delta = 1e-5))
  # (the values in the order of the points: the curves object's grid is sorted, so `$values[1, ]` of
  # kde_gaussian(x, c(2, 4.5, 3), b) is in the order 2, 3, 4.5)
  in_order <- function(t) {
    k <- kde_gaussian(x, t, 0.3, domain = c(1, 6))
    k$values[1, match(t, k$grid)]
  }
  o2 <- with_seed_mode(6, dp_online(in_order, kernel_gaussian(0.3), sensitivity = S, epsilon = 1, delta = 1e-5))
  q1 <- with_seed_mode(7, query(o1, c(2, 4.5, 3)))
  q2 <- with_seed_mode(7, query(o2, c(2, 4.5, 3)))
  expect_identical(q1, q2)
  expect_identical(with_seed_mode(8, query(o1, c(1.5, 5))), with_seed_mode(8, query(o2, c(1.5, 5))))
  # curves on other points than those queried are refused
  o3 <- dp_online(function(t) kde_gaussian(x, t + 0.1, 0.3, domain = c(1, 6)), kernel_gaussian(0.3),
                  sensitivity = S, epsilon = 1, delta = 1e-5)
  expect_error(query(o3, c(2, 3)), "`f` must be a function returning 2 numbers", class = "dpfda_error_argument")
})

test_that("a first query that answered nothing does not fix the session's dimension", {
  # (f's 2 x 2 matrix refused on a 2-D first query; then a 1-D query was refused as "must have 2 columns")
  f <- function(t) if (is.matrix(t) && ncol(t) == 2L) t else sin(2 * pi * t)
  for (k in list(kernel_gaussian(0.1), kernel_exponential(0.1))) {
    o <- with_seed_mode(3, dp_online(f, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5))
    expect_error(query(o, matrix(c(0.1, 0.2, 0.3, 0.4), 2)), class = "dpfda_error_argument")
    expect_identical(length(o), 0L)
    a <- with_seed_mode(4, query(o, c(0.5, 0.2)))
    expect_length(a, 2L)
    expect_identical(length(o), 2L)
    # once answered, the dimension is fixed
    expect_error(query(o, matrix(c(0.1, 0.2, 0.3, 0.4), 2)), "1 column", class = "dpfda_error_argument")
    # and the session is the one a clean first 1-D query gives
    o2 <- with_seed_mode(3, dp_online(f, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5))
    expect_equal(with_seed_mode(4, query(o2, c(0.5, 0.2))), a)
  }
})
