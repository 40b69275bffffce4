# Defects found by using the embeddings and the Bernstein mechanism as a statistician would
# (session of 2026-12-02): each test fails on the behaviour before its fix.

test_that("kme_mmd() refuses two releases of different kernels", {
  z <- seq(-3, 3, 0.5)
  x <- stats::qnorm(stats::ppoints(100))
  ra <- with_seed_mode(1, dp_kme(x, kernel_gaussian(1), 1, 1e-5, synthetic = z))
  rb <- with_seed_mode(1, dp_kme(x, kernel_gaussian(5), 1, 1e-5, synthetic = z))
  e <- expect_error(kme_mmd(ra, rb), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "different kernels", fixed = TRUE)
  expect_error(kme_mmd(rb, ra), class = "dpfda_error_argument")
  expect_gte(kme_mmd(ra, ra), 0)
})

test_that("kme_mmd() and kme_mmd_test() read a data frame's columns by name, as predict() does", {
  d <- list(eruptions = c(1, 6), waiting = c(40, 100))
  r <- with_seed_mode(1, suppressWarnings(dp_kme(datasets::faithful, kernel_gaussian(c(0.5, 8)), 1, 1e-5, M = 40,
                                                 domain = d)))
  y <- datasets::faithful[101:200, ]
  expect_equal(kme_mmd(r, y[c("waiting", "eruptions")]), kme_mmd(r, y))
  set.seed(1)
  p1 <- kme_mmd_test(r, y, B = 99)$p.value
  set.seed(1)
  p2 <- kme_mmd_test(r, y[c("waiting", "eruptions")], B = 99)$p.value
  expect_identical(p1, p2)
  e <- expect_error(kme_mmd(r, data.frame(foo = 1:3, bar = 4:6)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "lacks \"eruptions\", \"waiting\"", fixed = TRUE)
  expect_error(kme_mmd_test(r, y[1, ], B = 19), "at least 2 points", class = "dpfda_error_argument")
  # h of kme_expectation() sees the data's column names
  expect_equal(as.vector(kme_expectation(r, function(p) p[, "waiting"])),
               as.vector(kme_expectation(r, function(p) p[, 2])))
})

test_that("random features with lengthscales that differ by coordinate give the same points in any units", {
  run <- function(x, k, d, ...) {
    with_seed_mode(1, suppressWarnings(dp_kme(x, k, 1, 1e-5, M = 30, domain = d, method = "random_features",
                                              J = 200, iters = 20, ...)))
  }
  x <- as.matrix(datasets::faithful)
  d <- cbind(c(1, 6), c(40, 100))
  k <- kernel_gaussian(c(0.5, 8))
  a <- run(x, k, d)
  b <- run(sweep(x, 2, c(1, -1), "+"), k, sweep(d, 2, c(1, -1), "+"))        # a shift
  expect_equal(sweep(a$points, 2, c(1, -1), "+"), b$points, tolerance = 1e-8)
  A <- c(60, 1 / 60)                                                           # minutes to seconds, hours
  c2 <- run(sweep(x, 2, A, "*"), kernel_gaussian(c(0.5, 8) * A), sweep(d, 2, A, "*"))
  expect_equal(sweep(a$points, 2, A, "*"), c2$points, tolerance = 1e-6)
  expect_equal(a$weights, c2$weights, tolerance = 1e-6)
  # a step per coordinate is accepted, and one of another length refused
  expect_s3_class(run(x, k, d, lr = c(0.25, 4)), "dpfda_kme_release")
  expect_error(run(x, k, d, lr = c(1, 2, 3)), class = "dpfda_error_argument")
})

test_that("a Bernstein release prints and plans the noise of its polynomial, not of its lattice", {
  e <- datasets::faithful$eruptions
  kde <- function(t) vapply(t, function(u) mean(stats::dnorm(u, e, 0.3)), 0)
  r <- with_seed_mode(1, dp_bernstein(kde, stats::dnorm(0, 0, 0.3) / 272, 1, k = 15, h = 2, domain = c(1, 6)))
  v <- dpfda:::release_view(r)
  lv <- noise_law(v)
  l2 <- sqrt(sum(lv$weights * lv$var))
  expect_lt(l2, 0.8 * r$noise_scale * sqrt(2) * sqrt(5))   # (the lattice's figure was sd * sqrt(5))
  expect_equal(dp_accuracy(r)$expected_l2, l2, tolerance = 1e-12)
  expect_equal(glance(r)$expected_l2, l2, tolerance = 1e-12)
  expect_match(paste(capture.output(print(r)), collapse = "\n"),
               sprintf("noise sd of the released polynomial in .*; expected L2 noise error %s", format(l2, digits = 4)))
})

test_that("a simultaneous band at a high level takes the draws its quantile needs", {
  g <- seq(0, 1, length.out = 51)
  x <- curves(outer(seq(0.5, 1, length.out = 200), sin(2 * pi * g)), g)
  r <- with_seed_mode(2, dp_mean(x, epsilon = 1, tau = 1))
  a <- confint(r, type = "simultaneous", level = 0.9999, nsim = 1000)
  b <- confint(r, type = "simultaneous", level = 0.9999, nsim = 1e5)
  expect_equal(a$upper - a$estimate, b$upper - b$estimate, tolerance = 0.03)
})
