# Kernel matrices against plain-R outer() references.

ref_gram <- function(x, y, f) {
  x <- as.matrix(x); y <- as.matrix(y)
  outer(seq_len(nrow(x)), seq_len(nrow(y)), Vectorize(function(i, j) f(x[i, ] - y[j, ])))
}

matern_ref <- function(r, nu) {
  s <- sqrt(2 * nu) * r
  ifelse(r == 0, 1, 2^(1 - nu) / gamma(nu) * s^nu * besselK(s, nu))
}

for (d in c(1L, 3L)) {
  set.seed(100 + d)
  x <- matrix(runif(7 * d), 7, d)
  y <- matrix(runif(5 * d), 5, d)
  cases <- list(
    gauss_iso = list(kernel_gaussian(0.3, variance = 2), function(u) 2 * exp(-sum(u^2) / (2 * 0.09))),
    exp_l1 = list(kernel_exponential(0.4, "l1", variance = 1.5), function(u) 1.5 * exp(-sum(abs(u)) / 0.4)),
    exp_l2 = list(kernel_exponential(0.4, "l2"), function(u) exp(-sqrt(sum(u^2)) / 0.4)),
    matern12 = list(kernel_matern(1 / 2, 0.5), function(u) exp(-sqrt(sum(u^2)) / 0.5)),
    matern32 = list(kernel_matern(3 / 2, 0.5, 3), function(u) { r <- sqrt(3) * sqrt(sum(u^2)) / 0.5; 3 * (1 + r) * exp(-r) }),
    matern52 = list(kernel_matern(5 / 2, 0.5), function(u) { r <- sqrt(5) * sqrt(sum(u^2)) / 0.5; (1 + r + r^2 / 3) * exp(-r) }),
    matern_general = list(kernel_matern(1.3, 0.7), function(u) matern_ref(sqrt(sum(u^2)) / 0.7, 1.3))
  )
  if (d == 3L) {
    ls <- c(0.2, 0.5, 1.1)
    H <- matrix(c(0.5, 0.1, 0.05, 0.1, 0.3, 0.02, 0.05, 0.02, 0.2), 3)
    Hi <- solve(H)
    cases$gauss_ard <- list(kernel_gaussian(ls), function(u) exp(-sum((u / ls)^2) / 2))
    cases$gauss_H <- list(kernel_gaussian(H = H), function(u) exp(-drop(t(u) %*% Hi %*% u) / 2))
  }
  for (nm in names(cases)) {
    local({
      k <- cases[[nm]][[1]]
      f <- cases[[nm]][[2]]
      test_that(sprintf("kernel_matrix matches outer() reference: %s, d = %d", nm, d), {
        expect_equal(kernel_matrix(k, x), ref_gram(x, x, f), tolerance = 1e-12)
        expect_equal(kernel_matrix(k, x, y), ref_gram(x, y, f), tolerance = 1e-12)
        expect_true(isSymmetric(kernel_matrix(k, x)))
      })
    })
  }
}

test_that("general-order Matern agrees with the closed forms at half-integers", {
  r <- c(0, 1e-8, 0.01, 0.5, 3, 40)
  for (nu in c(0.5, 1.5, 2.5)) {
    closed <- kernel_matrix(kernel_matern(nu, 1), matrix(r), matrix(0))
    near <- kernel_matrix(kernel_matern(nu + 1e-9, 1), matrix(r), matrix(0))
    expect_equal(near, closed, tolerance = 1e-6)
  }
  # huge distances underflow to 0 instead of NaN
  expect_equal(kernel_matrix(kernel_matern(1.3, 1), matrix(1e6), matrix(0))[1, 1], 0)
})

test_that("kernels print what they are", {
  expect_snapshot({
    kernel_gaussian(0.1)
    kernel_gaussian(c(0.1, 0.2), variance = 2)
    kernel_gaussian(H = diag(2))
    kernel_exponential(0.5, "l2")
    kernel_matern(5 / 2, 0.3)
  })
})

test_that("kernel dimension mismatches are classed errors", {
  expect_error(kernel_matrix(kernel_gaussian(c(1, 2)), matrix(0, 2, 3)), class = "dpfda_error")
  expect_error(kernel_matrix(kernel_gaussian(1), matrix(0, 2, 3), matrix(0, 2, 2)), class = "dpfda_error")
  expect_error(kernel_gaussian(H = matrix(c(1, 2, 2, 1), 2)), class = "dpfda_error_argument")
})

test_that("Matern kernels of large order are right where K_nu overflows (they were exactly 1, the noise a constant)", {
  # reference: the log of K_nu by its integral representation, on a fine grid
  ref <- function(r, nu, l) {
    s <- sqrt(2 * nu) * r / l
    tt <- seq(0, 50, length.out = 200001)
    lv <- -s * cosh(tt) + nu * tt + log1p(exp(-2 * nu * tt)) - log(2)
    m <- max(lv)
    exp((1 - nu) * log(2) - lgamma(nu) + nu * log(s) + m + log(sum(exp(lv - m)) * diff(tt[1:2])))
  }
  r <- c(5e-4, 0.01, 0.1, 0.3, 1)
  for (nu in c(100, 150, 500, 1000)) {
    k <- kernel_matrix(kernel_matern(nu = nu, lengthscale = 0.3), c(0, r))[1, -1]
    expect_equal(k, vapply(r, ref, 0, nu = nu, l = 0.3), tolerance = 1e-9, info = nu)
  }
  # the release's noise is no constant: its spread across the grid is the kernel's
  g <- seq(0, 1, length.out = 101)
  d <- with_seed_mode(1, predict(dp_gp_release(function(t) sin(2 * pi * t), g, kernel_matern(nu = 500, lengthscale = 0.3),
                                               sensitivity = 0.1, epsilon = 1, delta = 1e-5)) - sin(2 * pi * g))
  expect_gt(diff(range(d)), 0.1)
})
