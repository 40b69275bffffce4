# Binning baselines of Smith et al. (dp_bin_regression) and the integral kernel.

plaplace <- function(q, scale = 1) ifelse(q < 0, 0.5 * exp(q / scale), 1 - 0.5 * exp(-q / scale))

test_that("the Laplace scale is d / (n_b epsilon) for every occupied bin", {
  x <- c(0.05, 0.1, 0.12, 0.55, 0.56, 0.57, 0.58, 0.95)
  y <- c(1, 2, 3, 0, 10, -5, 1, 1)
  r <- with_seed_mode(1, dp_bin_regression(x, y, bins = 4, y_bound = c(-1, 3), epsilon = 0.5,
                                           domain = c(0, 1)))
  expect_identical(r$counts, c(3L, 0L, 4L, 1L))
  expect_equal(r$laplace_scale, c(4 / (3 * 0.5), 0, 4 / (4 * 0.5), 4 / 0.5))
  expect_equal(r$sensitivity, 4)
  expect_equal(r$noise_scale, 4 / 0.5)
  expect_identical(r$delta, 0)
  expect_identical(r$epsilon, 0.5)
  expect_s3_class(r, c("dpfda_bin_release", "dpfda_release"))
  expect_invisible(validate_dpfda_release(r))
  expect_equal(r$values$grid, c(0.125, 0.375, 0.625, 0.875))
  # the empty bin holds the public midpoint of y_bound and no noise
  expect_identical(predict(r)[2], 1)
  expect_output(print(r), "4 bins .* 3 occupied")
})

test_that("bin indexing matches a brute-force loop, clamps x and keeps the upper edge", {
  set.seed(11)
  X <- cbind(runif(300, -0.2, 1.2), runif(300, 2, 5))
  bins <- c(4L, 3L)
  dom <- rbind(c(0, 2), c(1, 5))
  idx <- dpfda:::bin_index(X, bins, dom, clamp = TRUE)
  brute <- integer(nrow(X))
  for (i in seq_len(nrow(X))) {
    k <- integer(2)
    for (j in 1:2) {
      w <- (dom[2, j] - dom[1, j]) / bins[j]
      u <- min(max(X[i, j], dom[1, j]), dom[2, j])
      kk <- 0L
      while (kk < bins[j] - 1L && u >= dom[1, j] + (kk + 1L) * w) kk <- kk + 1L
      k[j] <- kk
    }
    brute[i] <- 1L + k[1] + bins[1] * k[2]
  }
  expect_identical(as.integer(idx), brute)
  # the upper edge belongs to the last bin; outside points are NA without clamping
  expect_identical(as.integer(dpfda:::bin_index(cbind(1, 5), bins, dom)), 12L)
  expect_true(is.na(dpfda:::bin_index(cbind(1.01, 3), bins, dom, clamp = FALSE)))
  # centres follow the same (expand.grid) order as the indices
  cen <- dpfda:::bin_centres(bins, dom)
  expect_identical(as.integer(dpfda:::bin_index(cen, bins, dom)), 1:12)
  s <- dpfda:::bin_summary(X, X[, 1], bins, dom, c(-10, 10))
  expect_identical(sum(s$counts), 300L)
  expect_equal(s$means[s$counts > 0], as.vector(tapply(X[, 1], idx, mean)))
})

test_that("released noise is Laplace at the right scale (KS test, and fails at 0.7x / 1.3x)", {
  # 40 bins with counts 1..40; 300 releases give 12000 noise draws
  nb <- 40L
  counts <- seq_len(nb)
  x <- rep((seq_len(nb) - 0.5) / nb, counts)
  y <- rep(c(-1, 0.5, 2), length.out = length(x))
  yb <- c(-1, 2)
  eps <- 0.8
  s <- dpfda:::bin_summary(matrix(x), y, nb, matrix(c(0, 1)), yb)
  expect_identical(s$counts, counts)
  z <- with_seed_mode(5, unlist(lapply(seq_len(300), function(i) {
    r <- dp_bin_regression(x, y, nb, yb, eps, c(0, 1))
    (predict(r) - s$means) / r$laplace_scale
  })))
  expect_gt(stats::ks.test(z, plaplace)$p.value, 1e-3)
  expect_lt(stats::ks.test(z, plaplace, scale = 0.7)$p.value, 1e-6)
  expect_lt(stats::ks.test(z, plaplace, scale = 1.3)$p.value, 1e-6)
  # Laplace scale b has standard deviation sqrt(2) b
  expect_equal(stats::sd(z), sqrt(2), tolerance = 0.05)
})

test_that("neighbours: one bin moves by at most d / n_b and the privacy loss is at most epsilon", {
  set.seed(3)
  n <- 60
  X <- cbind(runif(n), runif(n))
  y <- rnorm(n, 1, 2)
  yb <- c(-2, 4)
  d <- diff(yb)
  bins <- c(3L, 3L)
  dom <- rbind(c(0, 0), c(1, 1))
  eps <- 0.7
  r <- with_seed_mode(2, dp_bin_regression(X, y, bins, yb, eps, dom))
  s <- dpfda:::bin_summary(X, y, bins, dom, yb)
  occ <- s$counts > 0
  sc <- r$laplace_scale[occ]
  z <- predict(r)[occ]   # the released values
  grid_z <- sapply(seq_len(sum(occ)), function(b) s$means[occ][b] + sc[b] * seq(-6, 6, by = 0.25))
  worst <- 0
  for (i in seq_len(n)) {
    for (new_y in c(yb[1] - 1, yb[2] + 1, y[i] + d, y[i] - d)) {
      y2 <- y
      y2[i] <- new_y
      s2 <- dpfda:::bin_summary(X, y2, bins, dom, yb)
      dm <- s2$means[occ] - s$means[occ]
      expect_lte(sum(dm != 0), 1L)
      expect_lte(max(abs(dm)), d / s$counts[s$index[i]] * (1 + 1e-12))
      # log density ratio of the release under D and D', at the released
      # values and on a grid of outputs around the means
      lr <- function(v) sum((abs(v - s2$means[occ]) - abs(v - s$means[occ])) / sc)
      loss <- max(abs(c(lr(z), apply(grid_z, 1L, lr))))
      expect_lte(loss, eps * (1 + 1e-12))
      worst <- max(worst, sum(abs(dm) / sc))
    }
  }
  # the bound is attained: moving one output across y_bound costs exactly epsilon
  expect_equal(worst, eps)
})

test_that("empty bins and points outside the domain get the public midpoint", {
  x <- runif(50, 0, 0.5)
  y <- rnorm(50, 10, 1)
  r <- with_seed_mode(4, dp_bin_regression(x, y, 10, c(0, 20), 1, c(0, 1),
                                           newdata = c(0.25, 0.75, 1, 1.5, -0.1)))
  expect_true(all(r$counts[6:10] == 0))
  expect_identical(predict(r)[6:10], rep(10, 5))
  expect_identical(r$laplace_scale[6:10], rep(0, 5))
  expect_identical(r$predictions[c(2, 3, 4, 5)], rep(10, 4))
  expect_identical(r$predictions[1], predict(r)[3])
  # inputs outside the domain are clamped into the boundary bin
  r0 <- dp_bin_regression(runif(5, 2, 3), 1:5, 4, c(0, 4), 1, c(0, 1), method = "integral",
                          newdata = c(0.2, 0.7))
  expect_identical(r0$counts, c(0L, 0L, 0L, 5L))
  expect_true(all(is.finite(r0$predictions)))
  # data outside y_bound are clipped
  # (the noiseless limit: the float-tail guard is switched off, ?float_tails)
  r1 <- with_seed_mode(1, dpfda:::without_float_tail_check(dp_bin_regression(0.5, 100, 1, c(0, 1), 1e12, c(0, 1))))
  expect_equal(predict(r1), 1, tolerance = 1e-9)
})

test_that("predictions are post-processing: deterministic, no noise drawn, method switch", {
  set.seed(8)
  x <- runif(120)
  y <- sin(5 * x) + rnorm(120, 0, 0.1)
  r <- with_seed_mode(6, dp_bin_regression(x, y, 8, c(-2, 2), 2, c(0, 1), method = "integral",
                                           newdata = seq(0, 1, 0.05)))
  with_seed_mode(1, {
    before <- .Random.seed
    p1 <- predict(r, seq(0, 1, 0.05))
    p2 <- predict(r, seq(0, 1, 0.05), method = "simple")
    expect_identical(.Random.seed, before)
  })
  expect_identical(p1, r$predictions)
  expect_identical(p2, dpfda:::release_predict(r, seq(0, 1, 0.05), method = "simple"))
  expect_true(r$fit$optimised)
  # the integral GP tracks the function at a generous privacy level
  expect_lt(sqrt(mean((p1 - sin(5 * seq(0, 1, 0.05)))^2)), 0.3)
  # fixed hyperparameters through `...`
  rf <- with_seed_mode(6, dp_bin_regression(x, y, 8, c(-2, 2), 2, c(0, 1), method = "integral",
                                            lengthscale = 0.2, variance = 1, noise_variance = 0.01,
                                            optimise = FALSE))
  expect_identical(rf$fit$lengthscale, 0.2)
  expect_false(rf$fit$optimised)
  expect_identical(predict(rf), predict(r))   # same seed: same released means
})

test_that("predict(clamp = TRUE) clamps to y_bound, never further from the noise-free means; the print counts", {
  # mcycle-like: few points per bin at epsilon 1, so noisy means beyond the outputs' range
  set.seed(9)
  x <- runif(60, 0, 60)
  y <- pmin(pmax(50 * sin(x / 8) + rnorm(60, 0, 20), -150), 150)
  r <- with_seed_mode(2, dp_bin_regression(x, y, 20, 150, 1, c(0, 60)))
  v <- predict(r)
  beyond <- sum(abs(v) > 150)
  expect_gt(beyond, 0L)
  expect_output(print(r), sprintf("%d of 20 released bin means lie beyond y_bound", beyond))
  vc <- predict(r, clamp = TRUE)
  expect_identical(vc, pmin(pmax(v, -150), 150))
  # the noise-free bin means lie within y_bound, so each clamped mean is at least as close to them
  b <- findInterval(x, seq(0, 60, length.out = 21), rightmost.closed = TRUE)
  m <- vapply(1:20, function(j) if (any(b == j)) mean(y[b == j]) else 0, 0)
  expect_true(all(abs(vc - m) <= abs(v - m)))
  nd <- c(5, 30, 55)
  expect_identical(predict(r, nd, clamp = TRUE), pmin(pmax(predict(r, nd), -150), 150))
  expect_identical(predict(r, nd, method = "integral", clamp = TRUE),
                   pmin(pmax(predict(r, nd, method = "integral"), -150), 150))
  expect_error(predict(r, nd, clamp = NA), class = "dpfda_error_argument")
  # a release within its bounds prints no count
  r2 <- with_seed_mode(2, dp_bin_regression(x, y, 4, 150, 5, c(0, 60)))
  expect_true(all(abs(predict(r2)) <= 150))
  expect_false(any(grepl("beyond y_bound", utils::capture.output(print(r2)))))
})

test_that("the integral kernel matches numerical integration and the GPy convention", {
  # GPy's integral kernel uses exp(-r^2 / l^2): l = 0.7 there is 0.7 / sqrt(2) here
  expect_equal(integral_kernel(0.1, 1.3, -0.4, 0.5, lengthscale = 0.7 / sqrt(2))[1, 1], 0.5051847,
               tolerance = 1e-7)
  k1 <- function(u, v, l) exp(-(u - v)^2 / (2 * l^2))
  dbl <- function(s, t, s2, t2, l) {
    stats::integrate(function(u) vapply(u, function(uu) {
      stats::integrate(function(v) k1(uu, v, l), s2, t2, rel.tol = 1e-12, abs.tol = 0)$value
    }, 1), s, t, rel.tol = 1e-12, abs.tol = 0)$value
  }
  set.seed(1)
  for (i in 1:6) {
    b <- sort(runif(2, -1, 1))
    b2 <- sort(runif(2, -1, 2))
    l <- runif(1, 0.1, 1.5)
    expect_equal(integral_kernel(b[1], b[2], b2[1], b2[2], lengthscale = l)[1, 1],
                 dbl(b[1], b[2], b2[1], b2[2], l), tolerance = 1e-7)
    u <- runif(1, -1.5, 1.5)
    expect_equal(integral_cross_kernel(u, b[1], b[2], lengthscale = l)[1, 1],
                 stats::integrate(function(v) k1(u, v, l), b[1], b[2], rel.tol = 1e-12)$value,
                 tolerance = 1e-7)
  }
  # 2-D: product over dimensions, times the variance; averages divide by the volumes
  lo <- rbind(c(0, 0), c(0.5, -0.2))
  hi <- rbind(c(0.3, 0.4), c(1, 0.1))
  l2 <- c(0.4, 0.7)
  K <- integral_kernel(lo, hi, lengthscale = l2, variance = 2)
  expect_equal(K[1, 2], 2 * dbl(0, 0.3, 0.5, 1, 0.4) * dbl(0, 0.4, -0.2, 0.1, 0.7), tolerance = 1e-7)
  Ka <- integral_kernel(lo, hi, lengthscale = l2, variance = 2, average = TRUE)
  vol <- apply(hi - lo, 1L, prod)
  expect_equal(Ka, K / outer(vol, vol))
  # narrow bins: the averages tend to the point kernel
  w <- 1e-4
  kg <- kernel_gaussian(0.3, variance = 1.5)
  p <- c(0.2, 0.9)
  expect_equal(integral_kernel(p - w / 2, p + w / 2, lengthscale = 0.3, variance = 1.5, average = TRUE),
               kernel_matrix(kg, p), tolerance = 1e-6)
  expect_equal(integral_cross_kernel(c(0, 0.5), p - w / 2, p + w / 2, lengthscale = 0.3, variance = 1.5,
                                     average = TRUE),
               kernel_matrix(kg, c(0, 0.5), p), tolerance = 1e-6)
  # positive semi-definite on random boxes, and exactly symmetric
  lo <- matrix(runif(80, 0, 1), 40)
  hi <- lo + matrix(runif(80, 0.01, 0.3), 40)
  G <- integral_kernel(lo, hi, lengthscale = c(0.2, 0.5))
  expect_true(isSymmetric(G, tol = 0))
  ev <- eigen(G, symmetric = TRUE, only.values = TRUE)$values
  expect_gt(min(ev), -1e-12 * max(ev))
})

test_that("lengthscale derivatives of the integral kernel (C) match finite differences", {
  set.seed(9)
  lo <- matrix(runif(30, 0, 1), 10)
  hi <- lo + matrix(runif(30, 0.05, 0.4), 10)
  ls <- c(0.3, 0.8, 0.5)
  K <- dpfda:::integral_gram(lo, hi, lo, hi, ls, average = TRUE, deriv = TRUE)
  expect_equal(unclass(K)[, ], integral_kernel(lo, hi, lengthscale = ls, average = TRUE),
               ignore_attr = TRUE)
  h <- 1e-6
  for (j in 1:3) {
    up <- ls
    dn <- ls
    up[j] <- ls[j] * exp(h)
    dn[j] <- ls[j] * exp(-h)
    fd <- (dpfda:::integral_gram(lo, hi, lo, hi, up, TRUE) - dpfda:::integral_gram(lo, hi, lo, hi, dn, TRUE)) /
      (2 * h)
    expect_equal(attr(K, "dK")[, , j], fd, tolerance = 1e-6)
  }
})

test_that("the gradient of the integral GP's likelihood matches finite differences", {
  set.seed(10)
  lo <- matrix(runif(24, 0, 1), 12)
  lohi <- list(lower = lo, upper = lo + 0.1)
  yv <- rnorm(12)
  lap <- runif(12, 0, 0.2)
  th <- c(log(0.3), log(0.6), log(1.5), log(0.05))
  g <- dpfda:::integral_nll(th, lohi, yv, lap)$g
  fd <- vapply(seq_along(th), function(j) {
    e <- replace(numeric(4), j, 1e-6)
    (dpfda:::integral_nll(th + e, lohi, yv, lap)$f - dpfda:::integral_nll(th - e, lohi, yv, lap)$f) / 2e-6
  }, 1)
  expect_equal(g, fd, tolerance = 1e-5)
})

test_that("bad inputs are classed errors naming the argument", {
  x <- runif(10)
  expect_error(dp_bin_regression(x, x, 3, c(0, 1), 1), class = "dpfda_error_argument")
  expect_error(dp_bin_regression(x, x, 0, c(0, 1), 1, c(0, 1)), "`bins`", class = "dpfda_error_argument")
  expect_error(dp_bin_regression(x, x, 2.5, c(0, 1), 1, c(0, 1)), "`bins`")
  expect_error(dp_bin_regression(cbind(x, x), x, c(2, 2, 2), c(0, 1), 1, rbind(c(0, 0), c(1, 1))), "`bins`")
  expect_error(dp_bin_regression(x, x, 3, c(1, 0), 1, c(0, 1)), "`y_bound`")
  expect_error(dp_bin_regression(x, x, 3, c(0, 1), -1, c(0, 1)), class = "dpfda_error_privacy")
  expect_error(dp_bin_regression(x, x, 3, c(0, 1), 1, c(1, 0)), "`domain`")
  expect_error(dp_bin_regression(cbind(x, x), x, 3, c(0, 1), 1, c(0, 1)), "`domain`")
  expect_error(dp_bin_regression(x, x[-1], 3, c(0, 1), 1, c(0, 1)), "`y`")
  expect_error(dp_bin_regression(x, x, 3, c(0, 1), 1, c(0, 1), newdata = cbind(1, 1)), "`newdata`")
  expect_error(dp_bin_regression(x, x, 3, c(0, 1), 1, c(0, 1), method = "x"), "`method`")
  expect_error(dp_bin_regression(x, x, 3, c(0, 1), 1, c(0, 1), method = "integral", foo = 1), "`...`")
  expect_error(dp_bin_regression(x, x, 3, c(0, 1), 1, c(0, 1), method = "integral", lengthscale = -1),
               "`lengthscale`")
  expect_error(dp_bin_regression(x, x, 1e9, c(0, 1), 1, c(0, 1)), class = "dpfda_error_numeric")
  expect_error(dp_bin_regression(x, x, 3, c(0, 1e300), 1e-300, c(0, 1)), class = "dpfda_error_numeric")
  expect_error(integral_kernel(1, 0), "`upper`")
  expect_error(integral_kernel(0, 1, lengthscale = c(1, 2)), "`lengthscale`")
  expect_error(integral_cross_kernel(cbind(1, 2), 0, 1), "`points`")
})

test_that("the utility warning of a regression measures the noise against half the range of y_bound", {
  # (against max |y_bound|: cars' stopping distances in [0, 130] in 8 bins have noise of L2 size 166, more
  # than half of what the largest deviation from the midpoint, 65, allows over the bin centres (279), and
  # gave no warning: half of 130's 558 is 279)
  old <- options(dpfda.utility_warning = TRUE)   # (off in the suite: helper-uncertainty.R)
  on.exit(options(old))
  rel <- function(bins) with_seed_mode(1, dp_bin_regression(dist ~ speed, data = cars, y_bound = c(0, 130),
                                                            bins = bins, epsilon = 1, domain = c(4, 25)))
  e <- expect_warning(rel(8), class = "dpfda_warning_utility")
  expect_match(conditionMessage(e), "half the range of y_bound over the domain", fixed = TRUE)
  expect_match(conditionMessage(e), "(279: half", fixed = TRUE)
  expect_no_warning(rel(5))   # (noise 85)
  # bounds of one sign keep the outputs at least min |y_bound| from 0, as a public centre does for dp_mean():
  # the same noise on outputs of 1000 to 1130 is a small relative error
  shifted <- transform(cars, dist = dist + 1000)
  expect_no_warning(with_seed_mode(1, dp_bin_regression(dist ~ speed, data = shifted, y_bound = c(1000, 1130),
                                                        bins = 8, epsilon = 1, domain = c(4, 25))))
  expect_identical(dpfda:::regression_signal(c(1000, 1130)), 1000)
  expect_identical(dpfda:::regression_signal(c(-150, 100)), 125)
  expect_identical(dpfda:::regression_signal(c(-200, -10)), 95)
})

test_that("one positive number as y_bound is c(-B, B) in every regression, as in dp_erm()", {
  # (dp_gp_regression(y_bound = 150) was refused: "must be c(lower, upper)", while dp_erm() took it)
  set.seed(3)
  x <- runif(60)
  y <- sin(2 * pi * x) + rnorm(60, 0, 0.2)
  nd <- c(0.25, 0.5, 0.75)
  same <- function(f) {
    a <- with_seed_mode(9, f(2))
    b <- with_seed_mode(9, f(c(-2, 2)))
    expect_identical(predict(a, nd), predict(b, nd))
    expect_identical(as.double(a$y_bound), c(-2, 2))
  }
  same(function(yb) dp_bin_regression(x, y, 6, yb, epsilon = 1, domain = c(0, 1)))
  same(function(yb) dp_gp_regression(x, y, nd, kernel_gaussian(0.2), 0.04, yb, epsilon = 1, delta = 1e-5))
  same(function(yb) dp_sparse_gp_regression(x, y, nd, seq(0, 1, length.out = 10), kernel_gaussian(0.2), 0.04, yb,
                                            epsilon = 1, delta = 1e-5))
  same(function(yb) dp_krr(x, y, 0.1, kernel_gaussian(0.2), seq(0, 1, length.out = 21), y_bound = yb, epsilon = 1,
                           delta = 1e-5))
  expect_equal(summarise_bin_regression(x, y, 6, 2, c(0, 1))$settings$y_bound, c(-2, 2))
  expect_equal(dp_accuracy(x, mechanism = "bin_regression", bins = 6, y_bound = 2, domain = c(0, 1), epsilon = 1)$expected_l2,
               dp_accuracy(x, mechanism = "bin_regression", bins = 6, y_bound = c(-2, 2), domain = c(0, 1),
                           epsilon = 1)$expected_l2)
  for (bad in list(0, -2, NA_real_, c(1, 2, 3))) {
    expect_error(dp_bin_regression(x, y, 6, bad, epsilon = 1, domain = c(0, 1)), "positive number B",
                 class = "dpfda_error_argument")
  }
})

test_that("dp_bin_regression() with a bare column name for y gives no stray warning", {
  # (R said "restarting interrupted promise evaluation": `y` was forced again after an error)
  set.seed(1)
  d <- data.frame(u = stats::runif(200), out = stats::rnorm(200))
  expect_silent(with_seed_mode(1, dp_bin_regression(d, y = out, bins = 5, y_bound = c(-2, 2), epsilon = 1,
                                                    domain = c(0, 1), columns = u)))
})

test_that("a list of ranges is a domain (as dp_kde() takes it), named ranges matched to the inputs by name", {
  # (it was refused as "a list of length 2" by dp_bin_regression(), dp_krr() and dp_svm())
  d <- airquality[complete.cases(airquality), ]
  m <- rbind(c(55, 0), c(100, 22))
  fit <- function(dom) with_seed_mode(3, suppressWarnings(
    dp_bin_regression(Ozone ~ Temp + Wind, data = d, bins = c(4, 3), y_bound = c(0, 170), epsilon = 1, domain = dom)))
  ref <- fit(m)
  for (dom in list(list(c(55, 100), c(0, 22)), list(Temp = c(55, 100), Wind = c(0, 22)),
                   list(Wind = c(0, 22), Temp = c(55, 100)))) {
    r <- fit(dom)
    expect_equal(r$domain, ref$domain)
    expect_equal(r$values$values, ref$values$values)
  }
  expect_error(fit(list(Wnd = c(0, 22), Temp = c(55, 100))), class = "dpfda_error_argument", regexp = "Wnd")
  expect_error(fit(list(c(55, 100), "a")), class = "dpfda_error_argument", regexp = "domain")
  # a summary compared with a list of ranges (an unclassed coercion error before)
  s <- summarise_bin_regression(d, y = "Ozone", columns = c("Temp", "Wind"), bins = c(4, 3), y_bound = c(0, 170),
                                domain = list(Wind = c(0, 22), Temp = c(55, 100)))
  expect_equal(s$settings$domain, ref$domain)
  rs <- with_seed_mode(3, suppressWarnings(dp_bin_regression(s, epsilon = 1, domain = list(c(55, 100), c(0, 22)))))
  expect_equal(rs$values$values, ref$values$values)
  expect_error(dp_bin_regression(s, epsilon = 1, domain = list(c(50, 100), c(0, 22))), class = "dpfda_error_argument")
  # dp_krr() clamps the covariates to the same box
  gk <- expand.grid(Temp = c(60, 80, 95), Wind = c(3, 10, 18))
  kr <- function(dom) with_seed_mode(4, dp_krr(Ozone ~ Temp + Wind, data = d, grid = gk, kernel = kernel_gaussian(c(10, 5)),
                                               lambda = 0.1, y_bound = c(0, 170), epsilon = 1, delta = 1e-5,
                                               domain = dom))
  k1 <- kr(m)
  k2 <- kr(list(Wind = c(0, 22), Temp = c(55, 100)))
  expect_equal(predict(k2, data.frame(Temp = 80, Wind = 10)), predict(k1, data.frame(Temp = 80, Wind = 10)))
})

test_that("an unknown option of dp_bin_regression() is named before the data are read, with the nearest name", {
  # (the message listed the integral fit's four options only, after the summary's pass over the data)
  set.seed(1)
  d <- data.frame(x = runif(80), y = rnorm(80))
  br <- function(...) dp_bin_regression(d, y = "y", bins = 5, y_bound = c(-3, 3), epsilon = 1, domain = c(0, 1),
                                        columns = "x", ...)
  expect_error(br(lengthscal = 0.2), "did you mean `lengthscale`", class = "dpfda_error_argument")
  expect_error(br(bound_shar = 0.1), "did you mean `bound_share`", class = "dpfda_error_argument")
  expect_error(br(foo = 2), "`foo` is not an option of dp_bin_regression()", class = "dpfda_error_argument")
  expect_error(br(delta = 1e-5), "pure epsilon-DP", class = "dpfda_error_argument")
})
