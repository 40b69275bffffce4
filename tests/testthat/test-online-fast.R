# The single-point fast path of query() on the Markov (OU) path (one C call).

test_that("single-point queries give the same answers as one batch query", {
  f <- function(t) sin(2 * pi * t)
  k <- kernel_exponential(0.05)
  x <- c(seq(0.05, 0.95, length.out = 40)[sample.int(40)], 0.5, 0.05, -0.3, 1.7)
  x <- c(x, x[1:5])   # repeats are answered from the stored path
  old <- dp_rng()
  on.exit(dp_rng(old))
  dp_reproducible(11)
  o1 <- dp_online(f, k, 0.1, 1, 1e-5)
  a <- vapply(x, function(xi) query(o1, xi), 0)
  dp_reproducible(11)
  o2 <- dp_online(f, k, 0.1, 1, 1e-5)
  b <- query(o2, x)
  expect_identical(a, b)
  expect_identical(a[length(x) - 4:0], a[1:5])
  expect_identical(length(o1), length(unique(x)))
  expect_identical(released(o1), released(o2))
})

test_that("errors and bad values of f on the fast path are classed and change nothing", {
  k <- kernel_exponential(0.1)
  o <- dp_online(function(t) t, k, 0.1, 1, 1e-5)
  query(o, 0.2)                                    # fixes the Markov path
  o$f <- function(t) if (t > 0.5) stop("boom") else t
  expect_error(query(o, 0.7), class = "dpfda_error_argument")
  o$f <- function(t) if (t > 0.5) NaN else t
  expect_error(query(o, 0.8), class = "dpfda_error_argument")
  o$f <- function(t) c(t, t)
  expect_error(query(o, 0.9), class = "dpfda_error_argument")
  expect_identical(length(o), 1L)
  o$f <- function(t) t
  expect_true(is.finite(query(o, 0.3)))
  expect_identical(length(o), 2L)
  # integer points take the general path with the same result type
  expect_true(is.double(query(o, 1L)))
})

# The Markov path keeps the answered points in a balanced tree (rotations on
# both sides); a plain sorted vector with the same conditional formulas and
# the same normals must give the same answers in any query order.
plain_ou_answers <- function(x, gamma, amp, f, z) {
  xs <- g <- numeric(0)
  out <- numeric(length(x))
  for (i in seq_along(x)) {
    j <- findInterval(x[i], xs)
    n <- length(xs)
    if (n == 0L) { m <- 0; v <- 1 }
    else if (j == 0L) { t <- gamma * (xs[1L] - x[i]); m <- exp(-t) * g[1L]; v <- -expm1(-2 * t) }
    else if (j == n) { t <- gamma * (x[i] - xs[n]); m <- exp(-t) * g[n]; v <- -expm1(-2 * t) }
    else {
      t1 <- gamma * (x[i] - xs[j]); t2 <- gamma * (xs[j + 1L] - x[i])
      q1 <- -expm1(-2 * t1); q2 <- -expm1(-2 * t2); q12 <- -expm1(-2 * (t1 + t2))
      m <- (exp(-t1) * q2 * g[j] + exp(-t2) * q1 * g[j + 1L]) / q12
      v <- q1 * q2 / q12
    }
    gi <- m + sqrt(v) * z[i]
    xs <- append(xs, x[i], j)
    g <- append(g, gi, j)
    out[i] <- f(x[i]) + amp * gi
  }
  out
}

test_that("the tree of answered points: any query order gives the sorted-vector answers", {
  set.seed(81)
  u <- runif(600)
  orders <- list(ascending = sort(u), descending = sort(u, decreasing = TRUE),
                 zigzag = c(rbind(sort(u)[1:300], sort(u, decreasing = TRUE)[1:300])),
                 random = u)
  k <- kernel_exponential(0.05)
  f1 <- function(t) sin(2 * pi * t)
  for (nm in names(orders)) {
    x <- orders[[nm]]
    a <- with_seed_mode(82, {
      o <- dp_online(f1, k, sensitivity = 0.1, epsilon = 1, delta = 1e-5, noise = "float")
      vapply(x, function(xi) query(o, xi), 0)
    })
    z <- with_seed_mode(82, stats::rnorm(length(x)))
    b <- plain_ou_answers(x, 1 / k$lengthscale, o$noise_scale, f1, z)
    expect_lt(max(abs(a - b)), 1e-9, label = nm)
    r <- released(o)
    expect_identical(r$values$grid, sort(x), label = nm)
    expect_identical(as.vector(r$values$values), a[order(x)], label = nm)
    expect_identical(query(o, rev(x)), rev(a), label = nm)   # every point found again
  }
})
