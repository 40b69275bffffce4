# Private bandwidth (PTR IQR) and the exponential mechanism.

test_that("T11: the distance to instability has sensitivity 1 on neighbouring data", {
  set.seed(11)
  for (rep in 1:40) {
    n <- sample(20:200, 1)
    x <- rnorm(n)
    y <- x
    y[sample(n, 1)] <- sample(c(rnorm(1), 1e6, -1e6, x[1]), 1)
    w <- log(1 + 1 / log(n))
    xs <- sort(x); ys <- sort(y)
    i1 <- ceiling(n / 4); i3 <- ceiling(3 * n / 4)
    s <- xs[i3] - xs[i1]
    k <- floor(log(s) / w)
    A1 <- dpfda:::ptr_iqr_distance(xs, i1, i3, k * w, (k + 1) * w)
    A2 <- dpfda:::ptr_iqr_distance(ys, i1, i3, k * w, (k + 1) * w)
    expect_lte(abs(A1 - A2), 1)
    expect_gte(A1, 1)
  }
})

test_that("the private IQR is a bin centre near the truth, and fails less often with more data", {
  rate <- function(n) with_seed_mode(n, mean(replicate(40, is.na(dpfda:::ptr_iqr(rnorm(n), 1, 1e-3, c(0, 0.5))))))
  r <- sapply(c(100, 1000, 20000), rate)
  expect_gte(r[1], r[3])
  expect_lt(r[3], 0.2)
  v <- with_seed_mode(5, dpfda:::ptr_iqr(rnorm(20000), 1, 1e-3, c(0, 0.5)))
  expect_equal(v, 1.349, tolerance = 0.15)
})

test_that("dp_bandwidth applies the rule of thumb and the fallback, and spends its budget", {
  b <- with_seed_mode(2, dp_bandwidth(rnorm(50000), 1, 1e-4, fallback = 1))
  expect_s3_class(b, "dpfda_bandwidth")
  expect_true(b$private)
  expect_equal(b$bandwidth, (4 / (2 * 50000))^(1 / 5) * 1.349 / 1.34, tolerance = 0.15)
  expect_equal(c(b$epsilon, b$delta), c(1, 1e-4))
  f <- with_seed_mode(2, dp_bandwidth(matrix(rnorm(40), 20), 0.1, 1e-4, fallback = c(0.2, 0.3)))
  expect_equal(f$bandwidth, c(0.2, 0.3))
  expect_false(any(f$private))
  expect_error(with_seed_mode(2, dp_bandwidth(rnorm(20), 0.1, 1e-4)), class = "dpfda_error_ptr")
  s <- with_seed_mode(2, dp_bandwidth(rnorm(50000), 1, 1e-4, rule = "scott", fallback = 1))
  expect_lt(s$bandwidth, b$bandwidth)
  r <- dp_kde(rnorm(100), seq(-3, 3, length.out = 50), f$bandwidth[1], 1, 1e-5)
  expect_s3_class(r, "dpfda_release")
})

test_that("T10: exponential-mechanism probabilities and privacy ratio", {
  u <- c(0, 1, 3, 2.5)
  u2 <- u + c(1, -1, 0.5, -0.3)      # neighbouring utilities, sensitivity 1
  p <- dpfda:::select_probabilities(u, 1, 0.7)
  q <- dpfda:::select_probabilities(u2, 1, 0.7)
  expect_equal(sum(p), 1)
  expect_lte(max(p / q, q / p), exp(0.7) * (1 + 1e-12))
  # huge utilities stay finite
  expect_true(all(is.finite(dpfda:::select_probabilities(c(1e300, 0), 1, 1))))
  # empirical frequencies of the Gumbel-max sampler match
  N <- 20000
  idx <- with_seed_mode(9, replicate(N, dp_select(u, 1, 0.7)$index))
  expect_lt(max(abs(tabulate(idx, 4) / N - p)), 5 * sqrt(0.25 / N))
  # a sampler that ignored epsilon / (2 sensitivity) would fail this
  expect_gt(max(abs(tabulate(idx, 4) / N - dpfda:::select_probabilities(u, 1, 1.4))), 5 * sqrt(0.25 / N))
})

test_that("dp_kde(bandwidth = \"auto\") is refused with a pointer to dp_bandwidth() (1-D: no \"1 positive numbers\")", {
  e <- expect_error(dp_kde(c(0.2, 0.5), seq(0, 1, length.out = 5), "auto", 1, 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "must be a positive number (or a 1 x 1 positive-definite matrix); for one chosen privately from the data, see dp_bandwidth()", fixed = TRUE)
  expect_identical(e$arg, "bandwidth")
  e <- expect_error(dp_kde(cbind(c(0.2, 0.5), 0.1), list(seq(0, 1, length.out = 5), seq(0, 1, length.out = 5)),
                           -1, 1, 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "2 positive numbers, or a 2 x 2", fixed = TRUE)
})
