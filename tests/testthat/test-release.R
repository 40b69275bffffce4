t <- seq(0, 1, length.out = 21)
mk <- function(rng = "secure") {
  old <- dp_rng(rng)
  on.exit(dp_rng(old))
  new_dpfda_release(curves(sin(2 * pi * t), t), "example", epsilon = 1, delta = 1e-5,
                    sensitivity = 0.1, noise_scale = dp_noise_scale(0.1, 1, 1e-5),
                    noise = kernel_gaussian(0.1), call = quote(example()))
}

test_that("releases validate and carry the public fields only", {
  r <- mk()
  expect_s3_class(r, "dpfda_release")
  expect_invisible(validate_dpfda_release(r))
  r$nonprivate <- 1
  expect_error(validate_dpfda_release(r), class = "dpfda_error_privacy")
  expect_error(validate_dpfda_release(list()), class = "dpfda_error_argument")
})

test_that("print says when the noise was seeded", {
  expect_snapshot(print(mk("seeded")))
  expect_false(any(grepl("seeded", capture.output(print(mk("secure"))))))
})

test_that("predict returns the released values and refuses off-grid points", {
  r <- mk()
  expect_equal(predict(r), sin(2 * pi * t))
  expect_equal(predict(r, t[c(3, 5)]), sin(2 * pi * t[c(3, 5)]))
  expect_error(predict(r, 0.123), class = "dpfda_error_argument")
  expect_identical(nrow(as.data.frame(r)), 21L)
  pdf(NULL)
  on.exit(dev.off())
  expect_invisible(plot(r, band = TRUE))
  expect_invisible(plot(r))
  s <- summary(r)
  expect_output(print(s), "example mechanism")
})

test_that("the stored call never carries data values", {
  x <- runif(20)
  r1 <- dp_kde(x, seq(0, 1, length.out = 10), 0.1, 1, 1e-5)
  expect_identical(r1$call$x, as.name("x"))
  r2 <- do.call(dp_kde, list(x = x, grid = seq(0, 1, length.out = 10), bandwidth = 0.1, epsilon = 1, delta = 1e-5))
  expect_identical(r2$call$x, as.name("<private>"))
  expect_false(any(vapply(as.list(r2$call), function(a) identical(a, x), NA)))
  r3 <- dp_kde(c(0.2, 0.4, 0.9), seq(0, 1, length.out = 10), 0.1, 1, 1e-5)
  expect_identical(r3$call$x, as.name("<private>"))
  # do.call() puts the function and every value into the call: the privacy unit of each curve
  # (which curves are one person's) and the points' counts are data too, and the function is named
  t <- seq(0, 1, length.out = 9)
  X <- outer(seq(-1, 1, length.out = 40), sin(pi * t)) / 2
  ids <- rep(1:20, 2)
  r4 <- suppressWarnings(do.call(dp_mean, list(curves(X, t), epsilon = 1, tau = 1, unit = ids)))
  expect_identical(r4$call[[1L]], as.name("dp_mean"))
  expect_identical(r4$call$unit, as.name("<private>"))
  leaf_sizes <- function(e) if (is.call(e)) unlist(lapply(as.list(e), leaf_sizes)) else length(e)
  expect_true(all(leaf_sizes(r4$call) == 1L))   # names and single public settings only
  r5 <- do.call(dp_kde, list(c(0.2, 0.4, 0.9), t, 0.1, epsilon = 1, mechanism = "iclp", counts = c(3, 1, 2)))
  expect_identical(r5$call$counts, as.name("<private>"))
  expect_identical(r5$call[[1L]], as.name("dp_kde"))
  d <- data.frame(x = runif(40), p = ids)
  expect_identical(dp_kde(d, t, 0.2, epsilon = 1, delta = 1e-5, unit = p)$call$unit, as.name("p"))   # a column name
})

test_that("summary(release) says at least what print() says (n, tau, noise, privacy unit) (issue 32)", {
  t <- seq(0, 1, length.out = 21)
  set.seed(5)
  x <- curves(outer(rnorm(60, 1, 0.2), sin(2 * pi * t)), t)
  rels <- list(with_seed_mode(1, dp_mean(x, epsilon = 1, tau = 2)),
               with_seed_mode(1, dp_mean(x, epsilon = 1, tau = 2, unit = rep(1:30, 2))),
               with_seed_mode(1, dp_kde(runif(50), t, 0.1, 1, 1e-5)),
               with_seed_mode(1, dp_cov(x, epsilon = 1, tau = 2)))
  for (r in rels) {
    printed <- utils::capture.output(print(r))
    s <- summary(r)
    out <- utils::capture.output(print(s))
    expect_true(all(printed %in% out))
    expect_identical(s$n, r$n)
    expect_identical(s$tau, r$tau)
    expect_true(any(grepl("summary of the released values", out)))
  }
  s <- summary(rels[[2]])
  expect_match(s$privacy_unit, "30 units")
  expect_equal(s$expected_l2_noise, sqrt(sum(noise_law(rels[[2]])$weights * noise_law(rels[[2]])$var)))
})

test_that("predict() refuses a misspelt option instead of silently giving no band", {
  t <- seq(0, 1, length.out = 11)
  r <- with_seed_mode(1, dp_mean(curves(outer(seq(-1, 1, length.out = 30), sin(pi * t)) / 2, t), epsilon = 1,
                                 tau = 1))
  expect_error(predict(r, 0.5, intervals = "confidence"), "`intervals` is not an option of predict",
               class = "dpfda_error_argument")
  expect_error(predict(r, 0.5, 2, 3, 4), class = "dpfda_error")
  expect_equal(unname(predict(r, 0.5, interval = "confidence")[, "fit"]), predict(r, 0.5))
  rb <- with_seed_mode(1, dp_kde(seq(0.05, 0.95, length.out = 50), t, 0.2, epsilon = 1, delta = 1e-5,
                                 mechanism = "bernstein"))
  expect_true(is.finite(predict(rb, 0.5, h = 3)))   # the lattice's own options pass
  expect_error(predict(rb, 0.5, hh = 3), class = "dpfda_error_argument")
  rl <- with_seed_mode(1, dp_bernstein(function(a) a^2, sensitivity = 0.1, epsilon = 1, k = 4))
  expect_error(predict(rl, 0.5, kind = "nearest"), "`kind` is not an option of predict",
               class = "dpfda_error_argument")
})

test_that("predict() beyond the grid's range warns that the values are only the mechanism's extension", {
  t <- seq(0, 1, length.out = 20)
  x <- curves(outer(seq(0.5, 1.5, length.out = 30), sin(pi * t)), t)
  for (m in c("iclp_qr", "bernstein", "gp")) {
    r <- with_seed_mode(3, suppressWarnings(dp_mean(x, epsilon = 1, tau = 2, mechanism = m, delta = 1e-5)))
    expect_warning(predict(r, c(-0.5, 0.5)), class = "dpfda_warning_extrapolation", regexp = "1 of the 2 points")
    expect_no_warning(predict(r, c(0, 0.37, 1)))
  }
  k <- with_seed_mode(1, dp_kde(matrix(runif(100), 50), grid = list(t, t), bandwidth = 0.2, epsilon = 1, delta = 1e-5))
  expect_warning(predict(k, rbind(c(0.5, 0.5), c(0.5, 1.2))), class = "dpfda_warning_extrapolation",
                 regexp = "\\[0, 1\\] x \\[0, 1\\]")
  # dp_bernstein() (clamped to the domain there) and dp_bin_regression() (the midpoint of y_bound there)
  # returned those values without a word
  bp <- with_seed_mode(1, dp_bernstein(function(a) a^2, sensitivity = 0.1, epsilon = 1, k = 4))
  expect_warning(v <- predict(bp, c(-1, 0.5, 3)), class = "dpfda_warning_extrapolation", regexp = "2 of the 3 points")
  expect_identical(v[c(1, 3)], predict(bp, c(0, 1)))
  expect_no_warning(predict(bp, c(0, 0.5, 1)))
  bx <- seq(0.05, 0.95, length.out = 40)
  br <- with_seed_mode(1, dp_bin_regression(bx, bx^2, 4, c(0, 1), 1, c(0, 1)))
  expect_warning(v <- predict(br, c(-1, 0.5)), class = "dpfda_warning_extrapolation", regexp = "1 of the 2 points")
  expect_identical(v[1], 0.5)
  expect_no_warning(predict(br, c(0, 0.5, 1)))
  b2 <- with_seed_mode(1, dp_bin_regression(cbind(bx, rev(bx)), bx, 2, c(0, 1), 1, rbind(c(0, 0), c(1, 1))))
  expect_warning(predict(b2, rbind(c(0.5, 0.5), c(0.5, 2))), class = "dpfda_warning_extrapolation")
})
