# cloaking_covariance() (R/cloak.R, src/cloak.c): the optimal cloaking noise
# covariance of Smith et al. (Section 3), checked against its optimality
# conditions, against a slow plain-R reference solver, and for privacy:
# every training point's Mahalanobis shift c_i' M^+ c_i is at most 1.

# ---- helpers -------------------------------------------------------------------

# Cloaking matrix C = K_*f (K + noise I)^{-1} of a GP with a Gaussian kernel,
# n training inputs uniform on [0, 1]^d, P test inputs on [-0.2, 1.2]^d.
cloak_gp_matrix <- function(n, P, d = 1, lengthscale = 0.2, noise = 0.1) {
  x <- matrix(stats::runif(n * d), n)
  xs <- matrix(stats::runif(P * d, -0.2, 1.2), P)
  k <- kernel_gaussian(rep(lengthscale, d))
  kernel_matrix(k, xs, x) %*% solve(kernel_matrix(k, x) + noise * diag(n))
}

# q_i = c_i' M^+ c_i for M = C diag(lambda) C' computed independently of the
# package: R's own SVD of C, reduced to rank r (W = V_r'), Cholesky of
# W diag(lambda) W'. (On the retained part of the columns; the P x P
# pseudo-inverse itself is too ill-conditioned to use when C has singular
# values down to 1e-8 of the largest.)
cloak_q_indep <- function(C, lambda, r) {
  W <- t(svd(C)$v[, seq_len(r), drop = FALSE])
  L <- chol(W %*% (lambda * t(W)))
  colSums(backsolve(L, W, transpose = TRUE)^2)
}

# q through the P x P pseudo-inverse of M (rank r): for well-conditioned C.
cloak_q_pinv <- function(C, M, r) {
  e <- eigen(M, symmetric = TRUE)
  V <- e$vectors[, seq_len(r), drop = FALSE]
  colSums((crossprod(V, C) / sqrt(e$values[seq_len(r)]))^2)
}

# Slow plain-R reference solver: the same reduction to rank r, a uniform
# start, Frank-Wolfe with away steps and exact line search (Todd-Yildirim)
# with everything recomputed from scratch at every step, run to a gap of
# 1e-10; then lambda is scaled by max q. Returns the objective -log pdet M.
cloak_reference <- function(C, r, tol = 1e-10, maxit = 2e5) {
  sv <- svd(C)
  W <- t(sv$v[, seq_len(r), drop = FALSE])
  nz <- colSums(C != 0) > 0
  u <- ifelse(nz, 1 / sum(nz), 0)
  qfun <- function(u) {
    L <- chol(W %*% (u * t(W)))
    colSums(backsolve(L, W, transpose = TRUE)^2)
  }
  it <- 0
  repeat {
    q <- qfun(u)
    ep <- max(q[nz]) / r - 1
    S <- which(u > 0)
    jm <- S[which.min(q[S])]
    em <- 1 - q[jm] / r
    if (max(ep, em) <= tol || it >= maxit) break
    it <- it + 1
    if (ep >= em) {
      j <- which.max(ifelse(nz, q, -Inf))
      tau <- (q[j] - r) / (r * (q[j] - 1))
      u <- (1 - tau) * u
      u[j] <- u[j] + tau
    } else {
      j <- jm
      tmax <- u[j] / (1 - u[j])
      tau <- if (q[j] > 1) min(tmax, (r - q[j]) / (r * (q[j] - 1))) else tmax
      u <- (1 + tau) * u
      u[j] <- if (tau >= tmax) 0 else u[j] - tau
    }
  }
  lambda <- r * u
  lambda <- lambda * max(qfun(lambda))
  L <- chol(W %*% (lambda * t(W)))
  list(lambda = lambda, gap = max(ep, em), iterations = it,
       objective = -2 * sum(log(diag(L))) - 2 * sum(log(sv$d[seq_len(r)])))
}

# ---- optimality and agreement with the reference ---------------------------------

test_that("random GP designs: constraint, KKT, sum(lambda) = rank, objective = reference", {
  designs <- list(                   # n, P, d, lengthscale, noise variance
    c(5, 3, 1, 0.3, 0.1), c(5, 40, 1, 0.2, 0.1), c(12, 1, 1, 0.2, 0.1), c(20, 80, 1, 0.2, 0.1),
    c(30, 30, 1, 0.05, 0.01), c(40, 12, 1, 0.1, 0.5), c(60, 40, 1, 0.1, 0.1), c(60, 80, 1, 0.05, 0.1),
    c(8, 50, 2, 0.3, 0.1), c(25, 25, 2, 0.4, 0.05), c(45, 70, 2, 0.25, 0.1), c(60, 20, 2, 0.5, 0.2),
    c(60, 80, 2, 0.15, 0.01), c(50, 5, 2, 0.3, 0.1)
  )
  for (k in seq_along(designs)) {
    g <- designs[[k]]
    C <- with_seed_mode(100 + k, cloak_gp_matrix(g[1], g[2], g[3], g[4], g[5]))
    cl <- cloaking_covariance(C)
    lab <- sprintf("design %d (n = %d, P = %d, d = %d)", k, g[1], g[2], g[3])
    r <- cl$rank
    expect_true(cl$converged, label = lab)
    expect_gte(r, 1L)
    expect_lte(r, min(g[1], g[2]))
    expect_true(all(cl$lambda >= 0), label = lab)
    # privacy: every constraint holds after the final scaling, also when
    # recomputed independently of the package
    expect_lte(cl$max_constraint, 1 + 1e-9, label = lab)
    expect_equal(cl$max_constraint, max(cl$q))
    q <- cloak_q_indep(C, cl$lambda, r)
    expect_lte(max(q), 1 + 1e-9, label = lab)
    expect_equal(q, cl$q, tolerance = 1e-7, label = lab)
    # KKT (Kiefer-Wolfowitz): q_j = 1 wherever lambda_j > 0, sum(lambda) = r
    on <- cl$lambda > 1e-8
    expect_lte(max(abs(cl$q[on] - 1)), 1e-6, label = lab)
    expect_equal(sum(cl$lambda), r, tolerance = 1e-6, label = lab)
    expect_lte(cl$gap, 1e-8)
    # the same optimum as the slow reference (ours carries the rounding
    # margin, a factor 1 + margin on M: add r log(1 + margin) back)
    ref <- cloak_reference(C, r)
    expect_lte(ref$gap, 1e-10)
    expect_lt(abs(cl$objective + r * log1p(cl$margin) - ref$objective), 1e-6, label = lab)
    # M itself is the unique optimum: compare with the reference's M
    Mref <- C %*% (ref$lambda * t(C))
    expect_lt(max(abs(cl$M - Mref)), 1e-6 * max(abs(Mref)), label = lab)
  }
})

test_that("the objective is -log pdet M and M = C diag(lambda) C'", {
  # well-conditioned C, so that the P x P computations are accurate
  C <- with_seed_mode(7, matrix(stats::rnorm(8 * 30), 8))
  cl <- cloaking_covariance(C)
  expect_equal(cl$rank, 8L)
  expect_true(cl$converged)
  expect_equal(cl$M, C %*% (cl$lambda * t(C)), tolerance = 1e-10)
  expect_equal(cl$objective, -as.numeric(determinant(cl$M)$modulus), tolerance = 1e-10)
  expect_equal(cl$M, tcrossprod(cl$factor), tolerance = 1e-12)
  expect_equal(cloak_q_pinv(C, cl$M, cl$rank), cl$q, tolerance = 1e-10)
  expect_lte(max(abs(cl$q[cl$lambda > 1e-8] - 1)), 1e-8)
  expect_equal(sum(cl$lambda), 8, tolerance = 1e-8)
})

test_that("full column rank gives lambda = 1 and M = C C' (paper's supplement)", {
  # the Figure-2 toy of the spec: two training and two test points
  k <- kernel_gaussian(1.5)
  x <- c(1, 2)
  C2 <- kernel_matrix(k, c(1.2, 2.6), x) %*% solve(kernel_matrix(k, x) + 0.05 * diag(2))
  cl <- cloaking_covariance(C2)
  expect_equal(cl$lambda, c(1, 1), tolerance = 1e-10)
  expect_equal(cl$M, matrix(c(0.6274, 0.0486, 0.0486, 1.3492), 2), tolerance = 1e-4)
  expect_equal(cl$M, tcrossprod(C2), tolerance = 1e-12)
  expect_identical(cl$iterations, 0L)
  # random tall matrices, and a GP with more test than training points
  for (s in 1:5) {
    C <- with_seed_mode(s, matrix(stats::rnorm(60 * (5 + s)), 60))
    cl <- cloaking_covariance(C)
    expect_equal(cl$rank, 5L + s)
    expect_equal(cl$lambda, rep(1, 5 + s), tolerance = 1e-10)
    expect_equal(cl$M, tcrossprod(C), tolerance = 1e-10)
    expect_equal(cl$q, rep(1, 5 + s), tolerance = 1e-10)
  }
  C <- with_seed_mode(3, cloak_gp_matrix(8, 40, 1, 0.05, 0.1))
  cl <- cloaking_covariance(C)
  expect_equal(cl$rank, 8L)
  expect_equal(cl$lambda, rep(1, 8), tolerance = 1e-10)
  expect_equal(cl$M, tcrossprod(C), tolerance = 1e-10)
})

# ---- singular M (P > n) ----------------------------------------------------------

test_that("P > n: M is symmetric PSD of rank r and the noise lives in range(C)", {
  C <- with_seed_mode(11, cloak_gp_matrix(30, 60, 1, 0.3, 0.1))
  # a rank threshold that leaves a clear gap in the spectrum of M, so that
  # its rank can be read off its eigenvalues and its pseudo-inverse is
  # accurate
  cl <- cloaking_covariance(C, rank_tol = 1e-3)
  r <- cl$rank
  expect_lt(r, 30L)
  expect_true(isSymmetric(cl$M, tol = 0))
  ev <- eigen(cl$M, symmetric = TRUE, only.values = TRUE)$values
  expect_true(all(ev[seq_len(r)] > 1e-8 * ev[1]))
  expect_true(all(abs(ev[-seq_len(r)]) < 1e-13 * ev[1]))
  expect_gt(min(ev), -1e-13 * ev[1])                 # PSD up to rounding
  expect_lte(max(cloak_q_pinv(C, cl$M, r)), 1 + 1e-9)
  # the default threshold: rank and range through `basis` and `factor`
  cl <- cloaking_covariance(C)
  r <- cl$rank
  expect_true(isSymmetric(cl$M, tol = 0))
  expect_equal(dim(cl$basis), c(60L, r))
  expect_equal(dim(cl$factor), c(60L, r))
  expect_equal(crossprod(cl$basis), diag(r), tolerance = 1e-12)
  expect_equal(cl$M, tcrossprod(cl$factor), tolerance = 1e-12)
  # an exact N(0, M) draw lies in range(basis) = the top-r range of C
  z <- with_seed_mode(1, cl$factor %*% matrix(stats::rnorm(r * 200), r))
  expect_lt(max(abs(z - cl$basis %*% crossprod(cl$basis, z))), 1e-12 * max(abs(z)))
  Ur <- svd(C)$u[, seq_len(r)]
  expect_lt(max(abs(cl$basis - Ur %*% crossprod(Ur, cl$basis))), 1e-6)
  # the parts of the columns the noise does not cover are below the threshold
  expect_lte(cl$residual, 1e-8 * cl$singular_values[1] * sqrt(30))
  expect_equal(cl$singular_values, svd(C)$d, tolerance = 1e-10)
  expect_lte(max(cloak_q_indep(C, cl$lambda, r)), 1 + 1e-9)
})

test_that("the final scaling is what makes every constraint hold", {
  C <- with_seed_mode(5, cloak_gp_matrix(40, 60, 1, 0.1, 0.1))
  # stopped early on purpose: the weights are far from optimal ...
  expect_warning(cl <- cloaking_covariance(C, maxit = 1), class = "dpfda_warning_convergence")
  expect_false(cl$converged)
  r <- cl$rank
  expect_gt(cl$gap, 0.01)
  expect_gt(cl$scale, 1.01)
  # ... but after the scaling every constraint holds
  expect_lte(max(cloak_q_indep(C, cl$lambda, r)), 1 + 1e-9)
  expect_lte(cl$max_constraint, 1 + 1e-9)
  # without the scaling (M / scale) they would not
  expect_gt(max(cloak_q_indep(C, cl$lambda / cl$scale, r)), 1 + 1e-3)
  # and a converged M made any smaller fails the check at once
  cl <- cloaking_covariance(C)
  expect_lte(max(cloak_q_indep(C, cl$lambda, cl$rank)), 1 + 1e-9)
  expect_gt(max(cloak_q_indep(C, 0.9 * cl$lambda, cl$rank)), 1.1)
  expect_gt(max(cloak_q_indep(C, (1 - 1e-6) * cl$lambda, cl$rank)), 1 + 1e-7)
  # the same through the P x P pseudo-inverse on a well-conditioned C
  C <- with_seed_mode(6, matrix(stats::rnorm(8 * 30), 8))
  cl <- cloaking_covariance(C)
  expect_lte(max(cloak_q_pinv(C, cl$M, 8)), 1 + 1e-9)
  expect_gt(max(cloak_q_pinv(C, 0.9 * cl$M, 8)), 1 + 1e-9)
  # every column lies in range(M): (I - M M^+) c_i = 0
  e <- eigen(cl$M, symmetric = TRUE)
  expect_lt(max(abs(C - e$vectors %*% crossprod(e$vectors, C))), 1e-12)
})

# ---- special cases ---------------------------------------------------------------

test_that("P = 1, n = 1, zero columns, C = 0, duplicates and rank one", {
  # P = 1: the interval [-max|c|, max|c|]
  cl <- cloaking_covariance(matrix(c(1, -3, 2), 1))
  expect_equal(cl$lambda, c(0, 1, 0))
  expect_equal(drop(cl$M), 9, tolerance = 1e-12)
  expect_equal(cl$q, c(1, 9, 4) / 9, tolerance = 1e-12)
  # n = 1: M = c c'
  cv <- c(1, -2, 0.5)
  cl <- cloaking_covariance(matrix(cv))
  expect_equal(cl$lambda, 1, tolerance = 1e-12)
  expect_equal(cl$M, tcrossprod(cv), tolerance = 1e-12)
  expect_equal(cl$rank, 1L)
  cl <- cloaking_covariance(matrix(2, 1, 1))
  expect_equal(drop(cl$M), 4, tolerance = 1e-12)
  # zero columns never constrain
  C <- with_seed_mode(2, cloak_gp_matrix(20, 30, 1, 0.2, 0.1))
  C0 <- cbind(0, C[, 1:10], 0, C[, 11:20])
  cl0 <- cloaking_covariance(C0)
  cl <- cloaking_covariance(C)
  expect_equal(cl0$lambda[c(1, 12)], c(0, 0))
  expect_equal(cl0$q[c(1, 12)], c(0, 0))
  expect_equal(cl0$M, cl$M, tolerance = 1e-7)
  # C = 0: nothing to cover
  cl <- cloaking_covariance(matrix(0, 3, 4))
  expect_identical(cl$rank, 0L)
  expect_equal(cl$M, matrix(0, 3, 3))
  expect_equal(cl$lambda, rep(0, 4))
  expect_equal(cl$max_constraint, 0)
  expect_equal(dim(cl$factor), c(3L, 0L))
  # rank one: c_i = a_i v, the largest |a_i| carries all the weight
  v <- c(1, 2, 2) / 3
  cl <- cloaking_covariance(outer(v, c(0.5, -2, 1, 1.5)))
  expect_equal(cl$lambda, c(0, 1, 0, 0), tolerance = 1e-12)
  expect_equal(cl$M, 4 * tcrossprod(v), tolerance = 1e-12)
  # duplicated training column: M unchanged, the weight is shared;
  # duplicated test point: identical noise marginals at both copies, the
  # others unchanged (spec 5.1, invariances). These hold when the rank is
  # exact: with C truncated at rank_tol, duplicating a row or column changes
  # which directions are kept, hence the (whitened) problem. So take P = 6
  # test points, n = 20 and a well-conditioned C of exact rank 6.
  C <- with_seed_mode(3, cloak_gp_matrix(20, 6, 1, 0.15, 0.1))
  clc <- cloaking_covariance(C)
  expect_identical(clc$rank, 6L)
  cld <- cloaking_covariance(cbind(C, C[, 3]))
  expect_identical(cld$rank, 6L)
  expect_equal(cld$M, clc$M, tolerance = 1e-10)
  expect_equal(cld$lambda[3] + cld$lambda[21], clc$lambda[3], tolerance = 1e-8)
  clr <- cloaking_covariance(rbind(C, C[4, ]))
  expect_identical(clr$rank, 6L)
  expect_equal(clr$M[7, ], clr$M[4, ], tolerance = 1e-12)
  expect_equal(clr$M[1:6, 1:6], clc$M, tolerance = 1e-10)
})

test_that("invariances: column order, scale of C", {
  C <- with_seed_mode(9, cloak_gp_matrix(35, 25, 2, 0.3, 0.1))
  cl <- cloaking_covariance(C)
  perm <- with_seed_mode(1, sample(35))
  clp <- cloaking_covariance(C[, perm])
  expect_equal(clp$M, cl$M, tolerance = 1e-7)
  expect_equal(clp$objective, cl$objective, tolerance = 1e-8)
  cls <- cloaking_covariance(1e3 * C)
  expect_equal(cls$M, 1e6 * cl$M, tolerance = 1e-8)
  expect_equal(cls$lambda, cl$lambda, tolerance = 1e-7)
  expect_equal(cls$objective, cl$objective - 2 * cl$rank * log(1e3), tolerance = 1e-8)
  # dimnames are carried over
  dimnames(C) <- list(paste0("t", 1:25), paste0("y", 1:35))
  cln <- cloaking_covariance(C)
  expect_identical(names(cln$lambda), colnames(C))
  expect_identical(rownames(cln$M), rownames(C))
})

# ---- bad input -------------------------------------------------------------------

test_that("bad input gives classed errors", {
  C <- matrix(c(1, 0.5, 0.2, 1), 2)
  bad_C <- list(1:4, c(0.1, 0.2), "a", list(C), data.frame(a = 1:2, b = 2:3),
                matrix(c(1, NA, 0, 1), 2), matrix(c(1, Inf, 0, 1), 2), matrix(c(1, NaN, 0, 1), 2),
                matrix(numeric(0), 0, 3), matrix(numeric(0), 3, 0), matrix(TRUE, 2, 2),
                matrix("a", 2, 2), matrix(1i, 2, 2), NULL, array(1, c(2, 2, 2)))
  for (b in bad_C) {
    expect_error(cloaking_covariance(b), class = "dpfda_error_argument")
  }
  for (tol in list(0, -1, 1, 2, NA, NaN, Inf, "a", c(1e-8, 1e-6), NULL, TRUE)) {
    expect_error(cloaking_covariance(C, tol = tol), class = "dpfda_error_argument")
  }
  for (maxit in list(0, -1, 1.5, NA, Inf, "a", 2^31, c(1, 2), NULL)) {
    expect_error(cloaking_covariance(C, maxit = maxit), class = "dpfda_error_argument")
  }
  for (rt in list(0, -1e-8, 1, NA, "a", c(1e-8, 1e-6))) {
    expect_error(cloaking_covariance(C, rank_tol = rt), class = "dpfda_error_argument")
  }
  expect_error(cloaking_covariance(C, tol = 0), "`tol` must be")
  # sizes and overflow are numeric errors, not crashes
  expect_error(cloaking_covariance(matrix(1, 20000, 1)), class = "dpfda_error_numeric")
  expect_error(cloaking_covariance(matrix(c(1e300, 2e300, 3e300, 1e300), 2)), class = "dpfda_error_numeric")
  expect_error(cloaking_covariance(matrix(c(1e-300, 2e-300, 3e-300, 1e-300), 2)), class = "dpfda_error_numeric")
  # integer input is fine
  expect_equal(cloaking_covariance(matrix(1:4, 2))$M, tcrossprod(matrix(1:4, 2)), tolerance = 1e-12)
})
