# kl_basis() on grids symmetric about their centre: the weighted Gram matrix
# is centrosymmetric and is decomposed through its two half-size blocks
# (src/iclp.c, iclp_eigen_split). The result must be the eigendecomposition
# of the full matrix whatever the parity of m, and grids without the symmetry
# must take the direct route.

kl_check <- function(k, grid, J = NULL, sign_check = TRUE) {
  old <- options(dpfda.kl_cache_size = 0)
  on.exit(options(old))
  b <- kl_basis(k, grid, J = J)
  pts <- dpfda:::as_points(dpfda:::as_grid(grid, "grid"), "grid")
  G <- kernel_matrix(k, pts)
  w <- b$weights
  m <- length(w)
  A <- sqrt(w) * G * rep(sqrt(w), each = m)
  e <- eigen(A, symmetric = TRUE)
  U <- sqrt(w) * b$vectors
  expect_equal(b$values, e$values[seq_len(b$J)], tolerance = 1e-12 * e$values[1])
  expect_equal(crossprod(U), diag(b$J), tolerance = 1e-12)
  # eigen-equations A u = lambda u, and the leading vectors up to sign
  expect_lt(max(abs(A %*% U - sweep(U, 2L, b$values, "*"))), 1e-12 * e$values[1])
  expect_equal(abs(colSums(U[, 1:4] * e$vectors[, 1:4])), rep(1, 4), tolerance = 1e-8)
  # sign convention: the first entry within 1e-9 of the largest size is positive
  # (mirrored entries are equal up to rounding)
  first_max <- function(u) u[which(abs(u) >= max(abs(u)) * (1 - 1e-9))[1L]]
  if (sign_check) expect_true(all(apply(U, 2L, first_max) > 0))
  b
}

test_that("the centrosymmetric split gives the full eigendecomposition (odd and even m)", {
  for (m in c(16L, 17L, 60L, 61L)) {
    t <- seq(0, 1, length.out = m)
    for (k in list(kernel_gaussian(0.2), kernel_matern(3 / 2, 0.1), kernel_exponential(0.3))) {
      b <- kl_check(k, t)
      b5 <- kl_check(k, t, J = 5)
      expect_equal(b5$values, b$values[1:5], tolerance = 1e-13)
      # the mirrored grid: symmetric and antisymmetric eigenfunctions
      s <- colSums(b$weights * b$vectors * b$vectors[m:1, ])
      expect_equal(abs(s), rep(1, b$J), tolerance = 1e-10)
      expect_true(any(s < 0) && any(s > 0))
    }
  }
})

test_that("tensor grids and grids without the symmetry give the same eigenpairs", {
  # (on a tensor grid, entries tie under reflections of one axis too: the
  # sign convention is then a rounding tie, not checked)
  kl_check(kernel_gaussian(0.3), list(seq(0, 1, length.out = 9), seq(0, 2, length.out = 6)),
           sign_check = FALSE)
  kl_check(kernel_matern(5 / 2, 0.2), seq(0, 1, length.out = 40)^2)     # not symmetric
  kl_check(kernel_matern(5 / 2, 0.2), c(0, sort((1:30 * 0.6180339887) %% 1), 1))
})
