# Building blocks of the private kernel mean embeddings (Balog, Tolstikhin &
# Schoelkopf 2018), free of data: kernel checks, noise scales and
# sensitivities, the synthetic-data subspace fit, random Fourier features and
# the reduced-set fit. The mechanism is R/mech-kme.R, the methods of its
# release R/kme-methods.R; the C core is src/kme.c.

# ---- internal building blocks ------------------------------------------------

# k(x, x) <= 1 for every x: the kernels of R/kernels.R are stationary with
# k(x, x) = variance, so the bound is a check of the declared variance.
kme_check_kernel <- function(kernel) {
  check_kernel(kernel)
  if (kernel$variance > 1) {
    dpfda_abort(sprintf(paste0("The kernel must satisfy k(x, x) <= 1 for every x (Lemma 13 of Balog et al.); ",
                               "its variance is %s. Use variance <= 1."), format(kernel$variance)),
                class = "dpfda_error_privacy", arg = "kernel")
  }
  kernel
}

kme_nu <- function(kernel) as.double(if (is.null(kernel$nu)) 0.5 else kernel$nu)

# kbar_m = (1/N) sum_n k(z_m, x_n), computed in chunks of rows of x in C.
kme_rowmeans <- function(kernel, z, x, chunk = 2048L) {
  zs <- kernel_scale_points(kernel, z, "synthetic")
  xs <- kernel_scale_points(kernel, x, "x")
  c_kme_rowmeans(zs, xs, kernel_code(kernel), kme_nu(kernel), kernel$variance,
                 as.integer(chunk))
}

# mean(K_xx) over all N^2 pairs (evaluation / oracle only).
kme_mean_gram <- function(kernel, x) {
  xs <- kernel_scale_points(kernel, x, "x")
  c_kme_mean_gram(xs, kernel_code(kernel), kme_nu(kernel), kernel$variance)
}

# Basis of span{k(z_m, .)}: sequential skip-threshold incomplete Cholesky
# (the authors' modified Gram-Schmidt with drop threshold tol), or the pivoted
# variant. Depends on K_zz only.
kme_basis <- function(K, tol = 1e-5, pivot = FALSE, block = 64L) {
  b <- c_kme_seqchol(K, as.double(tol), as.logical(pivot), as.integer(block))
  b$F <- length(b$kept)
  b$Ls <- b$L[b$kept, , drop = FALSE]   # F x F lower triangular (in kept order)
  b
}

# Noise scale for L2 sensitivity 2 / N (or `sensitivity`).
kme_sigma <- function(N, epsilon, delta, calibration = "analytic", sensitivity = 2 / N) {
  dp_noise_scale(sensitivity, epsilon, delta, calibration = calibration)
}

# Sensitivity of the empirical embedding (and of any projection of it):
# ||k(x, .) - k(x', .)|| / N <= 2 sqrt(v) / N with v = sup k(x, x) (Lemma 13);
# tight: sqrt(2 v) / N, valid because every kernel of R/kernels.R is
# nonnegative, so ||k(x, .) - k(x', .)||^2 = 2 v - 2 k(x, x') <= 2 v.
kme_sensitivity <- function(kernel, N, tight = FALSE) {
  if (tight) sqrt(2 * kernel$variance) / N else 2 * sqrt(kernel$variance) / N
}

# The paper's formula sigma^2 = 8 log(1.25 / delta) / (N^2 eps^2), for the
# reproduction only (the paper applies it at eps = 1 too, where the classical
# bound is not proven; dp_kme() refuses that combination).
kme_sigma_paper <- function(N, epsilon, delta) sqrt(8 * log(1.25 / delta)) / (N * epsilon)

# Algorithm 1 core. `noise = FALSE` is the internal test hook (no noise).
# Returns the weights and, for internal/oracle callers only, alpha and kbar.
# With `laplace = TRUE` the noise is Laplace of scale sqrt(F) * sigma (pass
# sigma = sensitivity / epsilon): L1 sensitivity <= sqrt(F) * L2 sensitivity.
kme_fit_subspace <- function(x, z, kernel, sigma, tol = 1e-5, pivot = FALSE, noise = TRUE,
                             chunk = 2048L, basis = NULL, laplace = FALSE, exact = NULL) {
  K <- kernel_matrix(kernel, z)
  if (is.null(basis)) basis <- kme_basis(K, tol, pivot)   # public: K_zz only
  kbar <- kme_rowmeans(kernel, z, x, chunk)               # first touch of the data
  kept <- basis$kept
  alpha <- forwardsolve(basis$Ls, kbar[kept])
  scale <- if (laplace) sqrt(basis$F) * sigma else sigma
  g <- if (!noise) numeric(basis$F) else if (laplace) rlaplace(basis$F, 1) else noise_draw(basis$F, "normal")
  beta <- if (noise && !is.null(exact)) exact(alpha) else alpha + scale * g   # exact: see kme_exact()
  w <- numeric(nrow(z))
  w[kept] <- backsolve(basis$Ls, beta, upper.tri = FALSE, transpose = TRUE)
  list(weights = w, alpha = alpha, beta = beta, kbar = kbar, K = K, basis = basis, noise_scale = scale)
}

# Euclidean projection onto the L1 ball of radius C (Duchi et al. 2008).
kme_proj_l1 <- function(v, C) {
  if (sum(abs(v)) <= C) return(v)
  u <- sort(abs(v), decreasing = TRUE)
  cs <- cumsum(u)
  rho <- max(which(u > (cs - C) / seq_along(u)))
  theta <- (cs[rho] - C) / rho
  sign(v) * pmax(abs(v) - theta, 0)
}

# min_u u'Ku - 2 b'u subject to ||u||_1 <= C, by FISTA with the L1-ball
# projection (step 1 / (2 lambda_max(K))), from u0.
kme_l1_quadratic <- function(K, b, C, u0, maxit = 10000L, tol = 1e-10) {
  Lmax <- 2 * max(eigen(K, symmetric = TRUE, only.values = TRUE)$values)
  if (!(Lmax > 0)) return(kme_proj_l1(u0, C))
  obj <- function(u) sum(u * (K %*% u)) - 2 * sum(b * u)
  u <- kme_proj_l1(u0, C)
  y <- u
  t <- 1
  f_old <- obj(u)
  for (i in seq_len(maxit)) {
    grad <- 2 * (as.vector(K %*% y) - b)
    u_new <- kme_proj_l1(y - grad / Lmax, C)
    t_new <- (1 + sqrt(1 + 4 * t^2)) / 2
    y <- u_new + ((t - 1) / t_new) * (u_new - u)
    u <- u_new
    t <- t_new
    f <- obj(u)
    if (abs(f_old - f) <= tol * max(1, abs(f))) break
    f_old <- f
  }
  u
}

# Theorem 11: argmin_{||u||_1 <= C} ||sum_m (u_m - w0_m) k(z_m, .)||_H
# (post-processing: K_zz and w0 only).
kme_l1_reweight <- function(K, w0, C, maxit = 10000L, tol = 1e-10) {
  if (sum(abs(w0)) <= C) return(w0)
  kme_l1_quadratic(K, as.vector(K %*% w0), C, w0, maxit, tol)
}

# Spectral frequencies (D x J') of the kernel: k(x, y) = variance * E cos(w'(x - y)).
kme_spectral_draw <- function(kernel, Jp, D) {
  g <- matrix(stats::rnorm(D * Jp), D, Jp)
  if (kernel$type == "gaussian") {
    if (!is.null(kernel$H)) return(backsolve(kernel$H_chol, g))   # Cov = H^{-1}
    ls <- rep_len(kernel$lengthscale, D)
    return(g / ls)
  }
  if (kernel$type == "exponential" && kernel$norm == "l1" && D > 1L) {
    return(matrix(tan(pi * (stats::runif(D * Jp) - 0.5)), D, Jp) / kernel$lengthscale)
  }
  # Matern(nu) (and the L2 exponential = Matern 1/2): multivariate t with 2 nu
  # degrees of freedom and scale 1 / lengthscale
  nu <- if (kernel$type == "matern") kernel$nu else 0.5
  u <- stats::rchisq(Jp, df = 2 * nu)
  sweep(g, 2L, sqrt(2 * nu / u), "*") / kernel$lengthscale
}

#' Random Fourier features with unit norm
#'
#' Draws \eqn{J/2} frequencies \eqn{\omega_j} from the spectral distribution
#' of a stationary kernel and defines \eqn{\phi(x) = \sqrt{v/(J/2)}\,
#' [\cos(\omega_j^\top x), \sin(\omega_j^\top x)]_{j}}, so that
#' \eqn{\phi(x)^\top\phi(y) = (v/(J/2)) \sum_j \cos(\omega_j^\top(x-y))}
#' estimates \eqn{k(x, y)} without bias and \eqn{\|\phi(x)\|_2^2 = v = k(x, x)}
#' holds **exactly** for every \eqn{x}. This is what the sensitivity
#' \eqn{2/N} of Algorithm 2 of Balog et al. needs; their cos-only features
#' \eqn{\sqrt{2/J}\cos(\omega_j^\top x + b_j)} have \eqn{\|\phi(x)\|^2} up to 2.
#'
#' Spectral distributions: Gaussian kernel \eqn{N(0, \ell^{-2} I)} (or
#' \eqn{N(0, H^{-1})}); Matern(\eqn{\nu}) and the L2 exponential kernel a
#' multivariate \eqn{t} with \eqn{2\nu} degrees of freedom and scale
#' \eqn{1/\ell}; the L1 exponential kernel independent Cauchy coordinates.
#' The frequencies are public randomness drawn with R's generator (so
#' `set.seed()` fixes them); they never depend on data.
#'
#' The features are taken at \eqn{x - o} for a public `origin` \eqn{o}
#' (default 0): the kernel estimate does not depend on it, but the feature
#' vector of a translated point rotates within each cos/sin pair, so
#' [dp_kme()] sets it to the centroid of its public start points, which moves
#' with the data under a change of units (the release is then the same in
#' any units, under [dp_reproducible()]).
#'
#' @param kernel A kernel object with variance at most 1.
#' @param J Even number of features (\eqn{J/2} frequencies).
#' @param dim Dimension of the points.
#' @param origin `NULL` (the zero vector) or a public point (`dim` numbers):
#'   the features are those of \eqn{x - }`origin`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return An object of class `dpfda_kme_rff` with the frequency matrix `W`
#'   (`dim x J/2`), the feature `scale`, `J`, the kernel and `origin`.
#' @examples
#' rff <- kme_rff(kernel_gaussian(1), J = 200, dim = 2)
#' rff
#' @export
kme_rff <- function(kernel, J, dim, origin = NULL, ...) {
  check_dot_names(dot_args(), character(), "kme_rff")
  check_required()
  kme_check_kernel(kernel)
  J <- check_count(J, "J", min = 2, max = 1e7)
  if (J %% 2L != 0L) arg_error("J", "an even whole number (cos/sin pairs)", J)
  dim <- check_count(dim, "dim", min = 1, max = 1e4)
  if (!is.na(kernel$dim) && kernel$dim != dim) {
    dpfda_abort(sprintf("`dim` is %d but the kernel is defined in %d dimensions.", dim, kernel$dim),
                arg = "dim")
  }
  origin <- if (is.null(origin)) rep(0, dim) else {
    if (!is.numeric(origin) || length(origin) != dim || !all(is.finite(origin))) {
      arg_error("origin", sprintf("NULL or %d finite number%s (a public point)", dim, if (dim == 1L) "" else "s"),
                origin)
    }
    as.double(origin)
  }
  check_alloc(as.double(dim) * J / 2, "frequency matrix")
  Jp <- J %/% 2L
  W <- kme_spectral_draw(kernel, Jp, dim)
  storage.mode(W) <- "double"
  structure(list(W = W, scale = sqrt(kernel$variance / Jp), J = J, dim = dim, kernel = kernel, origin = origin),
            class = "dpfda_kme_rff")
}

# The public origin of the features (0 for objects made before it existed).
kme_rff_origin <- function(rff) if (is.null(rff$origin)) rep(0, rff$dim) else rff$origin

# Points, or a 2 x dim box, relative to the features' origin (and back, sign = -1).
kme_shift <- function(x, rff, sign = 1) {
  o <- kme_rff_origin(rff)
  if (is.null(x) || !any(o != 0)) return(x)
  x - sign * rep(o, each = nrow(x))
}

#' @export
print.dpfda_kme_rff <- function(x, ...) {
  cat(sprintf("<dpfda_kme_rff> %d cos/sin random Fourier features in %d dimension%s (||phi(x)|| = %s)\n",
              x$J, x$dim, if (x$dim == 1L) "" else "s", format(sqrt(x$scale^2 * x$J / 2), digits = 4)))
  cat("  for: ", format(x$kernel), "\n", sep = "")
  invisible(x)
}

kme_check_rff <- function(rff, arg = "rff") {
  if (!inherits(rff, "dpfda_kme_rff")) arg_error(arg, "a kme_rff() object", rff)
  rff
}

# Feature matrix (n x J) or mean feature vector (J) of points (no checks).
kme_features_raw <- function(rff, x, mean = FALSE, chunk = 1024L) {
  c_kme_rff(kme_shift(x, rff), rff$W, rff$scale, as.logical(mean), as.integer(chunk))
}

#' Evaluate random Fourier features
#'
#' The feature matrix \eqn{\Phi} (one row \eqn{\phi(x_i)^\top} per point) or,
#' with `mean = TRUE`, the mean feature vector \eqn{N^{-1}\sum_i \phi(x_i)}
#' (computed in chunks of rows). Non-private: for private data use
#' [dp_kme()].
#'
#' @param rff A [kme_rff()] object.
#' @param x Points, a vector (1-D) or a matrix with `rff$dim` columns.
#' @param mean Return the mean feature vector instead of the matrix.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return An `n x J` matrix or a vector of length `J` (cos features first,
#'   then the sin features).
#' @examples
#' rff <- kme_rff(kernel_gaussian(1), J = 100, dim = 2)
#' phi <- kme_features(rff, matrix(rnorm(6), 3))
#' rowSums(phi^2)   # exactly 1
#' @export
kme_features <- function(rff, x, mean = FALSE, ...) {
  check_dot_names(dot_args(), character(), "kme_features")
  check_required()
  rff <- kme_check_rff(rff)
  x <- as_points(x, "x", d = rff$dim)
  mean <- check_flag(mean, "mean")
  if (!mean) check_alloc(as.double(nrow(x)) * rff$J, "feature matrix")
  kme_features_raw(rff, x, mean)
}

# Algorithm 2, lines 3-4: mean features plus Gaussian noise (`noise = FALSE`
# is the internal test hook).
kme_noisy_features <- function(rff, x, sigma, chunk = 1024L, noise = TRUE, laplace = FALSE, exact = NULL) {
  mu <- kme_features_raw(rff, x, mean = TRUE, chunk = chunk)
  if (!noise) return(mu)
  if (!is.null(exact)) return(exact(mu))
  if (laplace) mu + sigma * rlaplace(length(mu), 1) else mu + sigma * noise_draw(length(mu), "normal")
}

# Half the kernel's lengthscale along each of the D coordinates: Adam's step per coordinate, so that a
# change of units of one coordinate (its lengthscale with it) changes the search by that unit only
# (one step of half the mean lengthscale, 2.1 for faithful's c(0.5, 8), was four lengthscales of the
# eruptions: the search went its own way, and a shift of the data moved the points by 28).
kme_default_lr <- function(kernel, D = 1L) {
  ls <- if (kernel$type == "gaussian" && !is.null(kernel$H)) sqrt(diag(as.matrix(kernel$H)))
        else kernel$lengthscale
  rep_len(as.double(ls), D) / 2
}

# The Adam settings of the C search: beta1, beta2, the step per coordinate (`lr`: one number for
# every coordinate, or one per coordinate) and an epsilon per coordinate (`eps`; default in the
# units of the gradients, 1e-8 per unit lengthscale).
kme_adam_settings <- function(lr, kernel, D, eps = 1e-8 / (2 * kme_default_lr(kernel, D))) {
  lr <- if (is.null(lr)) kme_default_lr(kernel, D) else rep_len(as.double(lr), D)
  c(0.9, 0.999, lr, rep_len(as.double(eps), D))
}

# `lr` given by the user: a positive number, or one per coordinate.
check_kme_lr <- function(lr, D = NULL) {
  ok <- is.numeric(lr) && is.null(dim(lr)) && length(lr) >= 1L && all(is.finite(lr)) && all(lr > 0) &&
    (is.null(D) || length(lr) %in% c(1L, D))
  if (!isTRUE(ok)) {
    arg_error("lr", if (is.null(D)) "a positive number, or one per coordinate" else
      sprintf("a positive number, or %d (one per coordinate)", D), lr)
  }
  as.double(lr)
}

#' Reduced set of a noisy random-feature embedding (Algorithm 2, step 6)
#'
#' Finds points \eqn{z_m} and weights \eqn{w_m} with \eqn{\sum_m w_m
#' \phi(z_m) \approx} `target`: greedy approximate pre-images (each point
#' maximises \eqn{(\Psi^\top\phi(z))^2} for the current residual \eqn{\Psi} by
#' `iters` Adam steps from its public start point, then \eqn{\Psi} is
#' deflated), followed by a Lasso re-fit of all weights, \eqn{\min_w
#' \|target - \Phi^\top w\|^2 + \lambda \|w\|_1}, by coordinate descent in C
#' with a duality-gap stop; or the greedy coefficients
#' (`weights = "greedy"`); or the constrained problem of the paper's
#' equation (5), \eqn{\min \|target - \Phi^\top w\|^2} subject to
#' \eqn{\|w\|_1 \le} `l1_bound` (`weights = "l1ball"`, FISTA), whose
#' \eqn{C = 1} the consistency of transformed outputs (Corollary 15) needs.
#'
#' This function is pure post-processing: it has **no data argument**. In
#' [dp_kme()] it receives only the noisy mean feature vector, the public
#' features and the public start points, so its output is as private as the
#' noisy vector.
#'
#' @param target The noisy mean feature vector (length `rff$J`).
#' @param rff The [kme_rff()] features the target was computed with.
#' @param start Public start points, an `M x dim` matrix (one reduced-set point
#'   per row; copied, never modified).
#' @param iters Adam iterations per point.
#' @param lr Adam learning rate: one number, or one per coordinate; `NULL`
#'   for half the kernel's lengthscale along each coordinate, so that the
#'   search is the same in any units (the authors used 100 with lengthscales
#'   141 to 224).
#' @param weights `"lasso"` (the authors' choice), `"greedy"` or `"l1ball"`.
#' @param l1_bound The bound \eqn{C} of `weights = "l1ball"`.
#' @param lasso_lambda Penalty \eqn{\lambda \ge 0} of the Lasso.
#' @param domain `NULL` or a public box (`c(lower, upper)` or a `2 x dim`
#'   matrix) to which the points are clipped during the search.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A list with `points` (`M x dim`), `weights`, the greedy
#'   coefficients `greedy_beta`, the residual norms after each greedy step
#'   and the final residual norm `||target - Phi' w||`.
#' @examples
#' k <- kernel_gaussian(1)
#' rff <- kme_rff(k, J = 200, dim = 1)
#' target <- kme_features(rff, c(-1, 1), mean = TRUE)
#' rs <- kme_reduced_set(target, rff, start = matrix(c(-0.5, 0.5), 2), iters = 50,
#'   lr = 0.1, weights = "lasso", lasso_lambda = 1e-4, domain = NULL, l1_bound = 1)
#' rs$points
#' @export
kme_reduced_set <- function(target, rff, start, iters = 100, lr = NULL,
                            weights = c("lasso", "greedy", "l1ball"), lasso_lambda = 0, domain = NULL,
                            l1_bound = 1, ...) {
  check_dot_names(dot_args(), character(), "kme_reduced_set")
  check_required()
  rff <- kme_check_rff(rff)
  target <- check_numeric_vector(target, "target")
  if (length(target) != rff$J) {
    dpfda_abort(sprintf("`target` must have length %d (the number of features), not %d.", rff$J,
                        length(target)), arg = "target")
  }
  start <- as_points(start, "start", d = rff$dim)
  iters <- check_count(iters, "iters", min = 1, max = 1e6)
  if (!is.null(lr)) lr <- check_kme_lr(lr, rff$dim)
  weights <- check_choice(weights, c("lasso", "greedy", "l1ball"), "weights")
  l1_bound <- check_number(l1_bound, "l1_bound", lower = 0, lower_open = TRUE)
  lasso_lambda <- check_number(lasso_lambda, "lasso_lambda", lower = 0)
  box <- kme_domain(domain, rff$dim)
  M <- nrow(start)
  check_alloc(as.double(M) * rff$J + as.double(M)^2, "reduced-set feature matrices")
  # (the search runs relative to the features' origin, as the features are defined; Adam's epsilon
  # is in the units of the gradients, 1e-8 per unit lengthscale, so that a change of units leaves it)
  sbox <- kme_shift(box, rff)
  adam <- kme_adam_settings(lr, rff$kernel, rff$dim)
  g <- c_kme_greedy(target, rff$W, rff$scale, kme_shift(start, rff) + 0, as.integer(iters), adam,
                    if (is.null(sbox)) numeric(0) else sbox[1L, ], if (is.null(sbox)) numeric(0) else sbox[2L, ])
  z <- kme_shift(g[[1L]], rff, -1)
  if (!all(is.finite(z))) dpfda_abort("The pre-image search diverged; use a smaller `lr`.",
                                      class = "dpfda_error_numeric", arg = "lr")
  Phi <- kme_features_raw(rff, z)      # M x J
  w <- g[[2L]]
  if (weights == "lasso") {
    G <- tcrossprod(Phi)
    cc <- as.vector(Phi %*% target)
    fit <- c_kme_lasso(G, cc, sum(target^2), lasso_lambda, numeric(M), 10000L, 1e-10)
    w <- fit[[1L]]
  } else if (weights == "l1ball") {
    w <- kme_l1_quadratic(tcrossprod(Phi), as.vector(Phi %*% target), l1_bound, w)
  }
  resid <- sqrt(sum((target - as.vector(crossprod(Phi, w)))^2))
  list(points = z, weights = w, greedy_beta = g[[2L]], residual_norms = g[[3L]], residual = resid)
}

# Public box: NULL, c(lower, upper) or a 2 x d matrix -> 2 x d matrix or NULL.
kme_domain <- function(domain, d) {
  if (is.null(domain)) return(NULL)
  if (is.numeric(domain) && is.null(dim(domain)) && length(domain) == 2L) {
    domain <- matrix(rep(domain, d), 2L)
  }
  ok <- is.numeric(domain) && is.matrix(domain) && nrow(domain) == 2L && ncol(domain) == d &&
    all(is.finite(domain)) && all(domain[1L, ] < domain[2L, ])
  if (!isTRUE(ok)) arg_error("domain", sprintf("NULL, c(lower, upper) or a 2 x %d matrix of bounds", d), domain)
  storage.mode(domain) <- "double"
  dimnames(domain) <- NULL
  domain
}

kme_clamp <- function(x, box) {
  if (is.null(box)) return(x)
  for (k in seq_len(ncol(x))) x[, k] <- pmin(pmax(x[, k], box[1L, k]), box[2L, k])
  x
}

# How many rows of z occur exactly among the rows of x (cheap: hash on column 1).
kme_rows_in <- function(z, x) {
  cand <- which(!is.na(match(z[, 1L], x[, 1L])))
  if (!length(cand)) return(0L)
  key <- function(a) do.call(paste, c(as.data.frame(a), sep = "\r"))
  xs <- x[x[, 1L] %in% z[cand, 1L], , drop = FALSE]
  sum(key(z[cand, , drop = FALSE]) %in% key(xs))
}

# Checks of the options shared by dp_kme() and its engine path
# (R/summary-kme.R), in one place. `exponential_ok`: whether method =
# "exponential" is available on this path, which the refusal of `tight`
# with random features names as the alternative.
kme_check_options <- function(kernel, epsilon, delta, calibration, tol, pivot, l1_bound, iters, lr,
                              lasso_lambda, J, M, tight, method, exponential_ok = TRUE) {
  kme_check_kernel(kernel)
  epsilon <- check_epsilon(epsilon)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  calibration <- check_choice(calibration, c("analytic", "classical"), "calibration")
  tol <- check_number(tol, "tol", lower = 0, upper = 1, upper_open = TRUE)
  pivot <- check_flag(pivot, "pivot")
  if (!is.null(l1_bound)) l1_bound <- check_number(l1_bound, "l1_bound", lower = 1)
  iters <- check_count(iters, "iters", min = 1, max = 1e6)
  if (!is.null(lr)) lr <- check_kme_lr(lr)   # (its length against the dimension: kme_reduced_set())
  if (!is.null(lasso_lambda)) lasso_lambda <- check_number(lasso_lambda, "lasso_lambda", lower = 0)
  J <- check_count(J, "J", min = 2, max = 1e7)
  if (J %% 2L != 0L) arg_error("J", "an even whole number (cos/sin pairs)", J)
  if (!is.null(M)) M <- check_count(M, "M", min = 1, max = 1e6)
  tight <- check_flag(tight, "tight")
  if (tight && method == "random_features") {
    dpfda_abort(sprintf(paste("`tight = TRUE` is not valid with random features (their inner products can be",
                              "negative); use it with method = %s."),
                        if (exponential_ok) "\"subspace\" or \"exponential\"" else "\"subspace\""),
                arg = "tight", class = "dpfda_error_privacy")
  }
  list(epsilon = epsilon, delta = delta, calibration = calibration, tol = tol,
       pivot = pivot, l1_bound = l1_bound, iters = iters, lr = lr, lasso_lambda = lasso_lambda, J = J, M = M,
       tight = tight)
}
