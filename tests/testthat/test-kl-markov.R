# kl_basis() for the exponential (Ornstein-Uhlenbeck) kernel on a 1-D grid
# goes through the tridiagonal inverse of the Gram matrix (src/kl-markov.c):
# the same eigendecomposition as the dense weighted Gram matrix, without an
# m^3 step; ill-conditioned or degenerate cases decline and take the dense route.

dense_kl <- function(k, t, w) {
  G <- kernel_matrix(k, t)
  A <- sqrt(w) * G * rep(sqrt(w), each = length(t))
  eigen(A, symmetric = TRUE)
}

test_that("the tridiagonal route equals the dense eigendecomposition (uniform and irregular grids)", {
  old <- options(dpfda.kl_cache_size = 0)
  on.exit(options(old))
  set.seed(5)
  cases <- list(list(kernel_exponential(0.01), seq(0, 1, length.out = 300)),
                list(kernel_exponential(0.05, variance = 3), sort(runif(150))),
                list(kernel_matern(1 / 2, 0.05), seq(0, 2, length.out = 121) + c(0, runif(119, -0.005, 0.005), 0)),
                list(kernel_exponential(1), seq(-1, 3, length.out = 200)))
  for (cs in cases) {
    k <- cs[[1]]
    t <- cs[[2]]
    w <- dpfda:::quadrature_weights(t)
    r <- .Call(dpfda:::C_dpfda_kl_markov_basis, t, w, 1 / k$lengthscale, k$variance, 1e-12, -1L)
    expect_false(is.null(r))                            # this route was taken
    b <- kl_basis(k, t)
    expect_identical(b$values, r$values)
    e <- dense_kl(k, t, w)
    expect_equal(b$values, e$values[seq_len(b$J)], tolerance = 1e-10)
    U <- sqrt(w) * b$vectors
    expect_equal(crossprod(U), diag(b$J), tolerance = 1e-11)   # orthonormal: V' W V = I
    A <- sqrt(w) * kernel_matrix(k, t) * rep(sqrt(w), each = length(t))
    expect_lt(max(abs(A %*% U[, 1:10] - sweep(U[, 1:10], 2L, b$values[1:10], "*"))), 1e-11 * b$values[1])
    expect_equal(abs(colSums(U[, 1:5] * e$vectors[, 1:5])), rep(1, 5), tolerance = 1e-9)
    expect_equal(b$trace_total, sum(w * diag(kernel_matrix(k, t))), tolerance = 1e-14)
    # truncation by J and by tol keeps the leading pairs
    b5 <- kl_basis(k, t, J = 5)
    expect_equal(b5$values, b$values[1:5], tolerance = 1e-12)
    expect_equal(abs(colSums(w * b5$vectors * b$vectors[, 1:5])), rep(1, 5), tolerance = 1e-9)
    bt <- kl_basis(k, t, tol = 0.01)
    expect_identical(bt$J, sum(e$values > 0.01 * e$values[1]))
  }
})

test_that("ill-conditioned or degenerate inputs decline and the dense route answers", {
  t <- seq(0, 1, length.out = 200)
  w <- dpfda:::quadrature_weights(t)
  call <- function(t, w, ls) .Call(dpfda:::C_dpfda_kl_markov_basis, t, w, 1 / ls, 1, 1e-12, -1L)
  expect_null(call(t, w, 1e4))                       # cond(A) far above 1e6
  expect_null(call(c(0, 0.5, 0.5, 1), c(0.25, 0.25, 0.25, 0.25), 0.1))   # a repeated point
  expect_null(call(c(0, 1, 0.5), rep(1 / 3, 3), 0.1))                    # unsorted
  old <- options(dpfda.kl_cache_size = 0)
  on.exit(options(old))
  k <- kernel_exponential(1e4)
  b <- kl_basis(k, t, J = 3)
  e <- dense_kl(k, t, w)
  expect_equal(b$values, e$values[1:3], tolerance = 1e-12)
})
