# Top-J eigenpairs (dsytrd + dstemr on an index range) and the session cache
# of KL bases (R/kl-basis.R).

test_that("the index-range basis matches a full eigendecomposition", {
  t <- seq(0, 1, length.out = 120)
  w <- rep(1 / 120, 120)
  for (k in list(kernel_matern(3 / 2, 0.1), kernel_gaussian(0.2))) {
    old <- options(dpfda.kl_cache_size = 0)
    b <- kl_basis(k, t, weights = w)
    b5 <- kl_basis(k, t, weights = w, J = 5)
    options(old)
    G <- kernel_matrix(k, t)
    e <- eigen(sqrt(w) * G * rep(sqrt(w), each = 120), symmetric = TRUE)
    n_keep <- sum(e$values > 0 & e$values > 1e-12 * e$values[1])
    expect_equal(b$n_positive, n_keep)
    expect_equal(b$J, n_keep)
    expect_equal(b$values, e$values[seq_len(b$J)], tolerance = 1e-10 * e$values[1])
    # eigenvectors up to sign (the first five are well separated)
    u <- sqrt(w) * b$vectors[, 1:5]
    expect_equal(abs(colSums(u * e$vectors[, 1:5])), rep(1, 5), tolerance = 1e-8)
    expect_equal(crossprod(b$vectors, w * b$vectors), diag(b$J), tolerance = 1e-10)
    expect_equal(b5$values, b$values[1:5], tolerance = 1e-12)
    # up to sign: antisymmetric eigenvectors on a symmetric grid have two
    # largest entries of equal size, so the sign convention is a rounding tie
    sg <- sign(colSums(w * b5$vectors * b$vectors[, 1:5]))
    expect_equal(sweep(b5$vectors, 2L, sg, "*"), b$vectors[, 1:5], tolerance = 1e-8)
    expect_equal(b5$n_positive, n_keep)
  }
})

test_that("cached bases are identical to fresh ones and keyed on every input", {
  dpfda:::kl_cache_clear()
  t <- seq(0, 1, length.out = 60)
  k <- kernel_matern(5 / 2, 0.2)
  old <- options(dpfda.kl_cache_size = 0)
  fresh <- kl_basis(k, t, J = 10)
  options(dpfda.kl_cache_size = 8)
  b1 <- kl_basis(k, t, J = 10)
  b2 <- kl_basis(k, t, J = 10)
  expect_identical(b1, fresh)
  expect_identical(b2, fresh)
  expect_length(dpfda:::kl_cache$entries, 1L)
  # different J, weights, kernel or grid: a different basis
  expect_equal(kl_basis(k, t, J = 5)$J, 5L)
  b3 <- kl_basis(k, t, J = 10, weights = rep(1 / 60, 60))
  expect_false(isTRUE(all.equal(b3$vectors, fresh$vectors)))
  b4 <- kl_basis(kernel_matern(5 / 2, 0.3), t, J = 10)
  expect_false(isTRUE(all.equal(b4$values, fresh$values)))
  b5 <- kl_basis(k, t^2, J = 10)
  expect_false(isTRUE(all.equal(b5$values, fresh$values)))
  expect_length(dpfda:::kl_cache$entries, 5L)
  # bounded size, first in first out
  options(dpfda.kl_cache_size = 2)
  kl_basis(k, t, J = 3)
  expect_length(dpfda:::kl_cache$entries, 2L)
  options(old)
  dpfda:::kl_cache_clear()
  expect_length(dpfda:::kl_cache$entries, 0L)
})

test_that("riclp draws the same paths with and without the cache", {
  t <- seq(0, 1, length.out = 80)
  k <- kernel_exponential(0.1)
  old <- options(dpfda.kl_cache_size = 0)
  dp_reproducible(3)
  a <- riclp(2, k, t)
  options(dpfda.kl_cache_size = 8)
  riclp(1, k, t)                      # fills the cache
  dp_reproducible(3)
  b <- riclp(2, k, t)
  options(old)
  dp_rng("secure")
  expect_identical(a$values, b$values)
})

test_that("rgp draws the same paths with and without a cached Cholesky factor", {
  t <- seq(0, 1, length.out = 70)
  k <- kernel_matern(5 / 2, 0.2)
  old <- options(dpfda.kl_cache_size = 0)
  on.exit(options(old))
  dp_reproducible(8)
  a <- rgp(3, k, t, method = "cholesky")
  options(dpfda.kl_cache_size = 8)
  dpfda:::kl_cache_clear()
  rgp(1, k, t, method = "cholesky")         # fills the cache
  expect_length(dpfda:::kl_cache$entries, 1L)
  dp_reproducible(8)
  b <- rgp(3, k, t, method = "cholesky")
  dp_rng("secure")
  expect_identical(a$values, b$values)
  expect_identical(a$jitter, b$jitter)
  # a different jitter or grid is a different factor
  rgp(1, k, t^2, method = "cholesky")
  expect_length(dpfda:::kl_cache$entries, 2L)
  dpfda:::kl_cache_clear()
})
