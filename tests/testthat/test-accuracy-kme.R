# dp_accuracy(mechanism = "kme"): the noise of a dp_kme() release planned from
# public settings, checked against releases (their fields and their actual
# noise) and solved for n and epsilon with `target_rkhs`.

kme_acc_z <- with_seed_mode(3, matrix(runif(120, -3, 3), ncol = 2))
kme_acc_k <- kernel_gaussian(1)

test_that("the plan is the release's accuracy, for every noise of the subspace and random-feature methods", {
  x <- with_seed_mode(4, matrix(rnorm(600), ncol = 2))
  cases <- list(gauss = list(), laplace = list(delta = 0), exact = list(noise = "exact"),
                exact_laplace = list(delta = 0, noise = "exact"), tight = list(tight = TRUE),
                classical = list(calibration = "classical"),
                rf = list(method = "random_features", J = 100, iters = 2),
                rf_laplace = list(method = "random_features", J = 100, iters = 2, delta = 0))
  for (nm in names(cases)) {
    s <- list(epsilon = 0.5, delta = 1e-5, synthetic = kme_acc_z)
    s[names(cases[[nm]])] <- cases[[nm]]
    r <- with_seed_mode(1, suppressWarnings(do.call(dp_kme, c(list(x, kme_acc_k), s))))
    a <- dp_accuracy(r, nsim = 200)
    p <- do.call(dp_accuracy, c(list(mechanism = "kme", n = 300, kernel = kme_acc_k, nsim = 200), s))
    expect_s3_class(p, "dpfda_accuracy")
    expect_equal(as.double(p$expected_rkhs), as.double(a$expected_rkhs), tolerance = 1e-12, info = nm)
    expect_identical(attr(p$expected_rkhs, "coordinates"), attr(a$expected_rkhs, "coordinates"), info = nm)
    expect_identical(p$mechanism, r$mechanism, info = nm)
    if (is.null(cases[[nm]]$method)) {   # (random features: the release's points are fitted to the data)
      expect_equal(p$pointwise_sd, a$pointwise_sd, tolerance = 1e-12, info = nm)
      expect_equal(p$expected_sup, a$expected_sup, tolerance = 1e-12, info = nm)
    }
  }
})

test_that("the planned RKHS norm is the calibration's: sqrt(F) sigma for Gaussian, sqrt(2 F) sqrt(F) Delta / epsilon for Laplace", {
  n <- 500
  K <- kernel_matrix(kme_acc_k, kme_acc_z)
  F <- sum(eigen(K, symmetric = TRUE, only.values = TRUE)$values > 1e-9)   # (tol 1e-5 keeps the full rank here)
  p <- dp_accuracy(mechanism = "kme", n = n, epsilon = 0.7, delta = 1e-6, kernel = kme_acc_k, synthetic = kme_acc_z)
  expect_identical(as.integer(attr(p$expected_rkhs, "coordinates")), as.integer(F))
  expect_equal(as.double(p$expected_rkhs), sqrt(F) * dp_noise_scale(2 / n, 0.7, 1e-6), tolerance = 1e-12)
  pl <- dp_accuracy(mechanism = "kme", n = n, epsilon = 0.7, delta = 0, kernel = kme_acc_k, synthetic = kme_acc_z)
  expect_equal(as.double(pl$expected_rkhs), sqrt(2 * F) * sqrt(F) * (2 / n) / 0.7, tolerance = 1e-12)
  # a kernel of variance 0.25 halves the sensitivity, and the noise
  p4 <- dp_accuracy(mechanism = "kme", n = n, epsilon = 0.7, delta = 1e-6,
                    kernel = kernel_gaussian(1, variance = 0.25), synthetic = kme_acc_z)
  expect_equal(as.double(p4$expected_rkhs), as.double(p$expected_rkhs) / 2, tolerance = 1e-12)
})

test_that("releases' actual noise has the planned RKHS norm (would fail with too little noise)", {
  # every point at the first synthetic point: the embedding k(z1, .) lies in the points' span, so
  # the released embedding minus it is the noise alone, of RKHS norm^2 (w - e1)' K (w - e1)
  n <- 200
  x <- kme_acc_z[rep(1L, n), ]
  K <- kernel_matrix(kme_acc_k, kme_acc_z)
  e1 <- c(1, numeric(nrow(kme_acc_z) - 1L))
  for (delta in c(1e-5, 0)) {
    p <- dp_accuracy(mechanism = "kme", n = n, epsilon = 2, delta = delta, kernel = kme_acc_k, synthetic = kme_acc_z)
    sq <- with_seed_mode(11, vapply(1:150, function(i) {
      r <- suppressWarnings(dp_kme(x, kme_acc_k, 2, delta, synthetic = kme_acc_z, public = TRUE))
      d <- r$weights - e1
      sum(d * (K %*% d))
    }, 0))
    # E||noise||^2 = expected_rkhs^2; 150 draws of a sum of 60 squares: sd of the mean about 1.2%
    # (Gaussian) and 1.8% (Laplace) of it
    expect_equal(sqrt(mean(sq)), as.double(p$expected_rkhs), tolerance = 0.04, info = delta)
  }
})

test_that("target_rkhs solves for epsilon and n, and the release at the solution meets it", {
  s <- dp_accuracy(mechanism = "kme", n = 1000, delta = 1e-5, kernel = kme_acc_k, synthetic = kme_acc_z,
                   target_rkhs = 0.05, solve_for = "epsilon")
  expect_true(is.finite(s$epsilon_needed))
  expect_equal(s$epsilon, s$epsilon_needed)   # (the figures are at the solution)
  expect_lte(as.double(s$expected_rkhs), 0.05)
  below <- dp_accuracy(mechanism = "kme", n = 1000, epsilon = s$epsilon_needed * (1 - 1e-3), delta = 1e-5,
                       kernel = kme_acc_k, synthetic = kme_acc_z)
  expect_gt(as.double(below$expected_rkhs), 0.05)
  x <- with_seed_mode(2, matrix(rnorm(2000), ncol = 2))
  r <- with_seed_mode(1, dp_kme(x, kme_acc_k, s$epsilon_needed, 1e-5, synthetic = kme_acc_z))
  expect_lte(as.double(dp_accuracy(r)$expected_rkhs), 0.05)
  sn <- dp_accuracy(mechanism = "kme", epsilon = 0.5, delta = 1e-5, kernel = kme_acc_k, synthetic = kme_acc_z,
                    target_rkhs = 0.05, solve_for = "n")
  expect_lte(as.double(sn$expected_rkhs), 0.05)
  fewer <- dp_accuracy(mechanism = "kme", n = sn$n_needed - 1, epsilon = 0.5, delta = 1e-5, kernel = kme_acc_k,
                       synthetic = kme_acc_z)
  expect_gt(as.double(fewer$expected_rkhs), 0.05)
  expect_match(paste(capture.output(print(sn)), collapse = "\n"), "n needed for the target rkhs")
  expect_true("n_needed" %in% names(glance(sn)) && "expected_rkhs" %in% names(glance(sn)))
})

test_that("points drawn from a domain: a public seed, the caller's random numbers untouched", {
  set.seed(5)
  before <- .Random.seed
  p1 <- dp_accuracy(mechanism = "kme", n = 400, epsilon = 1, delta = 1e-5, kernel = kme_acc_k,
                    domain = rbind(c(-3, -3), c(3, 3)), M = 50)
  expect_identical(.Random.seed, before)
  p2 <- dp_accuracy(mechanism = "kme", n = 400, epsilon = 1, delta = 1e-5, kernel = kme_acc_k,
                    domain = list(c(-3, 3), c(-3, 3)), M = 50)
  expect_identical(p1$expected_rkhs, p2$expected_rkhs)
  expect_identical(ncol(p1$grid), 2L)
  # a one-dimensional domain, and the dimension from `d`
  p3 <- dp_accuracy(mechanism = "kme", n = 400, epsilon = 1, delta = 1e-5, kernel = kme_acc_k,
                    domain = c(0, 10), M = 20)
  expect_null(dim(p3$grid))
  p4 <- dp_accuracy(mechanism = "kme", n = 400, epsilon = 1, delta = 1e-5, kernel = kme_acc_k,
                    domain = c(0, 10), M = 20, d = 3)
  expect_identical(ncol(p4$grid), 3L)
})

test_that("kme plans refuse what they cannot plan, with classed errors naming the argument", {
  base <- list(mechanism = "kme", n = 100, epsilon = 1, delta = 1e-5, kernel = kme_acc_k, synthetic = kme_acc_z)
  err <- function(extra, class = "dpfda_error_argument") {
    a <- base
    a[names(extra)] <- extra
    a <- a[!vapply(a, is.null, NA)]
    e <- tryCatch(do.call(dp_accuracy, a), error = function(e) e)
    expect_s3_class(e, class)
    e
  }
  e <- err(list(target_l2 = 0.1))
  expect_match(conditionMessage(e), "target_rkhs = 0.1", fixed = TRUE)
  expect_identical(e$arg, "target_l2")
  expect_identical(err(list(target_rkhs = 0.1, solve_for = "tau"))$arg, "solve_for")
  expect_identical(err(list(method = "exponential"), "dpfda_error_unsupported")$arg, "method")
  expect_identical(err(list(l1_bound = 2), "dpfda_error_unsupported")$arg, "l1_bound")
  expect_identical(err(list(unit = "id"))$arg, "unit")
  expect_match(conditionMessage(err(list(counts = 3))), "sum of the counts")
  expect_identical(err(list(grid = seq(0, 1, 0.1)))$arg, "grid")
  expect_identical(err(list(kernel = NULL))$arg, "kernel")
  expect_identical(err(list(n = NULL))$arg, "n")
  expect_identical(err(list(synthetic = NULL))$arg, "synthetic")
  expect_identical(err(list(synthetic = NULL, domain = c(0, 1)))$arg, "M")
  expect_identical(err(list(zz = 1))$arg, "zz")
  expect_identical(err(list(method = "random_features", tight = TRUE), "dpfda_error_privacy")$arg, "tight")
  expect_identical(err(list(kernel = kernel_gaussian(1, variance = 4)), "dpfda_error")$arg, "kernel")
  expect_identical(err(list(J = 3, method = "random_features"))$arg, "J")
  # float noise refused where a release refuses it: its far tails (noise = "exact" has none)
  e <- err(list(epsilon = 3000, delta = 0), "dpfda_error")
  expect_match(conditionMessage(e), "noise = \"exact\"", fixed = TRUE)
  expect_silent(dp_accuracy(mechanism = "kme", n = 100, epsilon = 3000, delta = 0, kernel = kme_acc_k,
                            synthetic = kme_acc_z, noise = "exact"))
  # a target of another mechanism's release or settings
  g <- seq(0, 1, length.out = 11)
  e <- tryCatch(dp_accuracy(mechanism = "iclp_qr", n = 100, epsilon = 1, tau = 1, grid = g, target_rkhs = 1),
                error = function(e) e)
  expect_s3_class(e, "dpfda_error_argument")
  expect_identical(e$arg, "target_rkhs")
  r <- with_seed_mode(1, dp_kme(with_seed_mode(2, matrix(rnorm(600), ncol = 2)), kme_acc_k, 1, 1e-5,
                                synthetic = kme_acc_z))
  e <- tryCatch(dp_accuracy(r, target_rkhs = 0.1), error = function(e) e)
  expect_s3_class(e, "dpfda_error_unsupported")
  expect_match(conditionMessage(e), "mechanism = \"kme\"", fixed = TRUE)
})
