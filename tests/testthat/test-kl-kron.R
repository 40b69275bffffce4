# kl_basis() of a separable kernel on a tensor grid: the Kronecker route
# (products of the axes' eigenpairs) against the dense eigendecomposition of
# W^1/2 G W^1/2, and the noise law's draws through the factors.

dense_eigen <- function(kernel, pts, w) {
  G <- dpfda:::kernel_matrix(kernel, pts)
  e <- eigen(sqrt(w) * G * rep(sqrt(w), each = length(w)), symmetric = TRUE)
  list(values = e$values, G = G)
}

test_that("the Kronecker basis is the dense basis: eigenvalues, orthonormality, reconstruction, signs", {
  a1 <- c(0, 0.1, 0.25, 0.4, 0.7, 0.8, 1)          # uneven spacing
  a2 <- seq(-2, 3, length.out = 9)
  a3 <- seq(0, 1, length.out = 4)
  cases <- list(
    list(kernel_gaussian(c(0.3, 1.5)), list(a1, a2)),
    list(kernel_gaussian(H = diag(c(0.04, 0.8))), list(a1, a2)),
    list(kernel_exponential(0.5, "l1", variance = 2.5), list(a1, a2)),
    list(kernel_exponential(c(0.2, 1.5), "l1"), list(a1, a2)),
    list(kernel_gaussian(0.6), list(a1, a2, a3)))
  for (cs in cases) {
    pts <- as.matrix(expand.grid(cs[[2]], KEEP.OUT.ATTRS = FALSE))
    b <- kl_basis(cs[[1]], pts, tol = 1e-10)
    expect_false(is.null(b$kron))                  # the route was taken
    w <- b$weights
    d <- dense_eigen(cs[[1]], pts, w)
    expect_equal(b$values, d$values[seq_len(b$J)], tolerance = 1e-9)
    expect_equal(b$n_positive, sum(d$values > 1e-10 * d$values[1L]))
    expect_equal(crossprod(b$vectors, w * b$vectors), diag(b$J), tolerance = 1e-9)
    # G W v_j = lambda_j v_j: each column an eigenfunction of the discretised operator
    expect_equal(d$G %*% (w * b$vectors), b$vectors * rep(b$values, each = nrow(pts)),
                 tolerance = 1e-8)
    # signs: positive at the first entry of sqrt(w) v within 1e-9 of the largest
    u <- b$vectors * sqrt(w)
    first <- apply(abs(u), 2L, function(x) which(x >= max(x) * (1 - 1e-9))[1L])
    expect_true(all(u[cbind(first, seq_len(b$J))] > 0))
  }
  # with every eigenpair kept the basis reproduces the Gram matrix
  pts <- as.matrix(expand.grid(a1, a2, KEEP.OUT.ATTRS = FALSE))
  k <- kernel_exponential(0.5, "l1")
  b <- kl_basis(k, pts)
  expect_equal(b$J, nrow(pts))
  expect_equal(b$vectors %*% (b$values * t(b$vectors)), dpfda:::kernel_matrix(k, pts), tolerance = 1e-9)
})

test_that("J keeps the leading products, and other grids, kernels and weights take the dense route", {
  a1 <- seq(0, 1, length.out = 12)
  a2 <- seq(0, 2, length.out = 10)
  pts <- as.matrix(expand.grid(a1, a2, KEEP.OUT.ATTRS = FALSE))
  k <- kernel_gaussian(c(0.2, 0.5))
  b <- kl_basis(k, pts, J = 7)
  d <- dense_eigen(k, pts, b$weights)
  expect_equal(b$J, 7L)
  expect_equal(b$values, d$values[1:7], tolerance = 1e-9)
  expect_equal(dim(b$kron$index), c(7L, 2L))
  # the leading product is the product of the axes' leading eigenvalues
  expect_equal(b$kron$index[1L, ], c(1L, 1L))
  # uniform weights (the authors' code) factor too
  expect_false(is.null(kl_basis(k, pts, weights = rep(1 / 120, 120))$kron))
  # weights that are not a product, a kernel that is not separable, points that are not a tensor grid
  w <- dpfda:::quadrature_weights(pts)
  w[5] <- 2 * w[5]
  bd <- kl_basis(k, pts, weights = w)
  expect_null(bd$kron)
  dd <- dense_eigen(k, pts, w)
  expect_equal(bd$values[1:5], dd$values[1:5], tolerance = 1e-9)
  expect_null(kl_basis(kernel_matern(3 / 2, 0.3), pts)$kron)
  expect_null(kl_basis(kernel_exponential(0.3, "l2"), pts)$kron)
  expect_null(kl_basis(k, pts[-1L, ], weights = rep(1, 119))$kron)
})

test_that("the noise law of a 2-D ICLP density draws through the factors exactly as through the basis", {
  set.seed(3)
  X <- cbind(stats::rnorm(300), stats::rnorm(300, 1, 2))
  g <- list(seq(-3, 3, length.out = 15), seq(-4, 6, length.out = 13))
  for (J in list(NULL, 40L)) {
    r <- with_seed_mode(1, suppressWarnings(dp_kde(X, g, bandwidth = c(0.5, 1), epsilon = 1, mechanism = "iclp",
                                                   J = J, kernel = kernel_gaussian(c(1, 2)))))
    expect_false(is.null(r$basis$kron))
    law <- dpfda:::noise_law(r)
    expect_false(is.null(law$map))
    z <- law$zdraw(5)
    expect_equal(law$map(z), z %*% t(law$A), tolerance = 1e-12)
    # scaled laws (dp_mean(incomplete = "drop")) scale the map too
    ls <- dpfda:::law_scale(law, 1.7)
    expect_equal(ls$map(z), 1.7 * z %*% t(law$A), tolerance = 1e-12)
    # and a difference of two such releases
    r2 <- with_seed_mode(2, suppressWarnings(dp_kde(X[1:150, ], g, bandwidth = c(0.5, 1), epsilon = 1,
                                                    mechanism = "iclp", J = J, kernel = kernel_gaussian(c(1, 2)))))
    ld <- dpfda:::law_difference(law, dpfda:::noise_law(r2))
    zz <- ld$zdraw(4)
    expect_equal(ld$map(zz), zz %*% t(ld$A), tolerance = 1e-12)
  }
})

test_that("an ICLP density on a Kronecker basis is calibrated to the coefficients it adds noise to", {
  # the sensitivity 1 / n max_{k, l} sum_j g_j |v_j(t_k) - v_j(t_l)| depends on the basis within
  # eigenspaces of equal eigenvalues (equal axes give many); the audit recomputes the privacy loss
  # of moving one point between any two grid nodes from the release's own basis and noise scale
  set.seed(4)
  X <- cbind(stats::runif(200), stats::runif(200))
  g <- list(seq(0, 1, length.out = 11), seq(0, 1, length.out = 11))
  r <- with_seed_mode(1, suppressWarnings(dp_kde(X, g, bandwidth = 0.2, epsilon = 0.7, mechanism = "iclp")))
  b <- r$basis
  expect_false(is.null(b$kron))
  expect_identical(r$params$sensitivity_method, "exact")
  lam <- b$values
  D <- r$params$normaliser * b$vectors * rep(lam^r$params$eta, each = nrow(b$vectors)) / r$n   # Delta a = D[k, ] - D[l, ]
  lap <- r$noise_scale * sqrt(lam / 2)                                                        # Laplace scales
  loss <- max(vapply(seq_len(nrow(D)), function(k) max(abs(D - rep(D[k, ], each = nrow(D))) %*% (1 / lap)), 0))
  expect_lte(loss, 0.7 * (1 + 1e-9))
  expect_gt(loss, 0.7 * 0.999)    # and tight: the exact method
})

test_that("an exponential kernel with a lengthscale per axis: its Gram matrix, and the ICLP density it serves", {
  P <- cbind(c(0, 1, 0.3, 0.75), c(0, 0.2, 1, -0.4))
  k1 <- kernel_exponential(c(1, 0.5))
  expect_equal(kernel_matrix(k1, P), exp(-abs(outer(P[, 1], P[, 1], "-")) - abs(outer(P[, 2], P[, 2], "-")) / 0.5))
  k2 <- kernel_exponential(c(1, 0.5), norm = "l2", variance = 2)
  expect_equal(kernel_matrix(k2, P), 2 * exp(-sqrt(outer(P[, 1], P[, 1], "-")^2 + outer(P[, 2], P[, 2], "-")^2 / 0.25)))
  expect_true(dpfda:::kernel_separable(k1))
  expect_false(dpfda:::kernel_is_markov_1d(k1))
  expect_match(format(k1), "l = 1.0, 0.5", fixed = TRUE)
  expect_error(kernel_matrix(k1, cbind(1:3)), "2 dimensions", class = "dpfda_error_argument")
  # random Fourier features draw from its spectral law: per-axis Cauchy (l1) or a scaled t (l2)
  set.seed(6)
  for (k in list(kernel_exponential(c(0.1, 0.2)), kernel_exponential(c(0.1, 0.2, 0.3), norm = "l2"))) {
    D <- length(k$lengthscale)
    f <- kme_rff(k, J = 40000, dim = D)
    dd <- rbind(c(0.2, -0.15, 0.1)[seq_len(D)], c(0.05, 0.1, -0.3)[seq_len(D)])
    for (i in 1:2) {
      mc <- mean(cos(as.vector(crossprod(f$W, dd[i, ]))))   # (its sd: at most 1 / sqrt(2 J) = 0.0035)
      expect_lt(abs(mc - as.vector(kernel_matrix(k, dd[i, , drop = FALSE], matrix(0, 1, D)))), 0.015)
    }
  }
  for (bad in list(c(1, -1), c(1, NA), c(1, Inf), matrix(1, 1, 2), "a")) {
    expect_error(kernel_exponential(bad), "lengthscale", class = "dpfda_error_argument")
  }
  # dp_kde(mechanism = "iclp") in the plane with a bandwidth per axis (e.g. from dp_bandwidth()): the
  # default exponential kernel with those lengthscales, calibrated to its (Kronecker) basis
  set.seed(5)
  X <- cbind(stats::runif(300), stats::rnorm(300, 0, 3))
  g <- list(seq(0, 1, length.out = 11), seq(-8, 8, length.out = 9))
  r <- with_seed_mode(1, suppressWarnings(dp_kde(X, g, bandwidth = c(0.1, 1.5), epsilon = 0.7, mechanism = "iclp")))
  expect_equal(r$basis$kernel$lengthscale, c(0.1, 1.5))
  expect_false(is.null(r$basis$kron))
  b <- r$basis
  lam <- b$values
  D <- r$params$normaliser * b$vectors * rep(lam^r$params$eta, each = nrow(b$vectors)) / r$n
  lap <- r$noise_scale * sqrt(lam / 2)
  loss <- max(vapply(seq_len(nrow(D)), function(k) max(abs(D - rep(D[k, ], each = nrow(D))) %*% (1 / lap)), 0))
  expect_lte(loss, 0.7 * (1 + 1e-9))
  expect_gt(loss, 0.7 * 0.999)
  # a bandwidth matrix with a correlation is refused for this kernel, with the way out
  expect_error(dp_kde(X, g, bandwidth = matrix(c(0.01, 0.05, 0.05, 2), 2), epsilon = 1, mechanism = "iclp"),
               "bandwidth per axis", class = "dpfda_error_argument")
})
