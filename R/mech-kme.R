# Balog, Tolstikhin & Schoelkopf (ICML 2018): differentially private database
# release via kernel mean embeddings. The C core is src/kme.c.
#
# Privacy model: substitution neighbours (bounded DP), N = nrow(x) public.
# The data are touched only in kme_rowmeans() (Algorithm 1, the exponential
# mechanism) and kme_rff_mean() (Algorithm 2); everything after the noise is
# post-processing of public inputs and the noisy vector.

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
  .Call(C_dpfda_kme_rowmeans, zs, xs, kernel_code(kernel), kme_nu(kernel), kernel$variance,
        as.integer(chunk))
}

# mean(K_xx) over all N^2 pairs (evaluation / oracle only).
kme_mean_gram <- function(kernel, x) {
  xs <- kernel_scale_points(kernel, x, "x")
  .Call(C_dpfda_kme_mean_gram, xs, kernel_code(kernel), kme_nu(kernel), kernel$variance)
}

# Basis of span{k(z_m, .)}: sequential skip-threshold incomplete Cholesky
# (the authors' modified Gram-Schmidt with drop threshold tol), or the pivoted
# variant. Depends on K_zz only.
kme_basis <- function(K, tol = 1e-5, pivot = FALSE, block = 64L) {
  b <- .Call(C_dpfda_kme_seqchol, K, as.double(tol), as.logical(pivot), as.integer(block))
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
#' @param kernel A kernel object with variance at most 1.
#' @param J Even number of features (\eqn{J/2} frequencies).
#' @param dim Dimension of the points.
#' @return An object of class `dpfda_kme_rff` with the frequency matrix `W`
#'   (`dim x J/2`), the feature `scale`, `J` and the kernel.
#' @examples
#' rff <- kme_rff(kernel_gaussian(1), J = 200, dim = 2)
#' rff
#' @export
kme_rff <- function(kernel, J, dim) {
  check_required()
  kme_check_kernel(kernel)
  J <- check_count(J, "J", min = 2, max = 1e7)
  if (J %% 2L != 0L) arg_error("J", "an even whole number (cos/sin pairs)", J)
  dim <- check_count(dim, "dim", min = 1, max = 1e4)
  if (!is.na(kernel$dim) && kernel$dim != dim) {
    dpfda_abort(sprintf("`dim` is %d but the kernel is defined in %d dimensions.", dim, kernel$dim),
                arg = "dim")
  }
  check_alloc(as.double(dim) * J / 2, "frequency matrix")
  Jp <- J %/% 2L
  W <- kme_spectral_draw(kernel, Jp, dim)
  storage.mode(W) <- "double"
  structure(list(W = W, scale = sqrt(kernel$variance / Jp), J = J, dim = dim, kernel = kernel),
            class = "dpfda_kme_rff")
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
  .Call(C_dpfda_kme_rff, x, rff$W, rff$scale, as.logical(mean), as.integer(chunk))
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
#' @return An `n x J` matrix or a vector of length `J` (cos features first,
#'   then the sin features).
#' @examples
#' rff <- kme_rff(kernel_gaussian(1), J = 100, dim = 2)
#' phi <- kme_features(rff, matrix(rnorm(6), 3))
#' rowSums(phi^2)   # exactly 1
#' @export
kme_features <- function(rff, x, mean = FALSE) {
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

kme_default_lr <- function(kernel) {
  ls <- if (kernel$type == "gaussian" && !is.null(kernel$H)) sqrt(mean(diag(kernel$H)))
        else mean(kernel$lengthscale)
  ls / 2
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
#' @param lr Adam learning rate; `NULL` for half the kernel's lengthscale
#'   (the authors used 100 with lengthscales 141 to 224).
#' @param weights `"lasso"` (the authors' choice), `"greedy"` or `"l1ball"`.
#' @param l1_bound The bound \eqn{C} of `weights = "l1ball"`.
#' @param lasso_lambda Penalty \eqn{\lambda \ge 0} of the Lasso.
#' @param domain `NULL` or a public box (`c(lower, upper)` or a `2 x dim`
#'   matrix) to which the points are clipped during the search.
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
                            l1_bound = 1) {
  check_required()
  rff <- kme_check_rff(rff)
  target <- check_numeric_vector(target, "target")
  if (length(target) != rff$J) {
    dpfda_abort(sprintf("`target` must have length %d (the number of features), not %d.", rff$J,
                        length(target)), arg = "target")
  }
  start <- as_points(start, "start", d = rff$dim)
  iters <- check_count(iters, "iters", min = 1, max = 1e6)
  lr <- if (is.null(lr)) kme_default_lr(rff$kernel) else
    check_number(lr, "lr", lower = 0, lower_open = TRUE)
  weights <- check_choice(weights, c("lasso", "greedy", "l1ball"), "weights")
  l1_bound <- check_number(l1_bound, "l1_bound", lower = 0, lower_open = TRUE)
  lasso_lambda <- check_number(lasso_lambda, "lasso_lambda", lower = 0)
  box <- kme_domain(domain, rff$dim)
  M <- nrow(start)
  check_alloc(as.double(M) * rff$J + as.double(M)^2, "reduced-set feature matrices")
  g <- .Call(C_dpfda_kme_greedy, target, rff$W, rff$scale, start + 0, as.integer(iters),
             c(lr, 0.9, 0.999, 1e-8), if (is.null(box)) numeric(0) else box[1L, ],
             if (is.null(box)) numeric(0) else box[2L, ])
  z <- g[[1L]]
  if (!all(is.finite(z))) dpfda_abort("The pre-image search diverged; use a smaller `lr`.",
                                      class = "dpfda_error_numeric", arg = "lr")
  Phi <- kme_features_raw(rff, z)      # M x J
  w <- g[[2L]]
  if (weights == "lasso") {
    G <- tcrossprod(Phi)
    cc <- as.vector(Phi %*% target)
    fit <- .Call(C_dpfda_kme_lasso, G, cc, sum(target^2), lasso_lambda, numeric(M), 10000L, 1e-10)
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

# Rows of z that occur exactly among the rows of x (cheap: hash on column 1).
kme_rows_in <- function(z, x) {
  cand <- which(!is.na(match(z[, 1L], x[, 1L])))
  if (!length(cand)) return(FALSE)
  key <- function(a) do.call(paste, c(as.data.frame(a), sep = "\r"))
  xs <- x[x[, 1L] %in% z[cand, 1L], , drop = FALSE]
  any(key(z[cand, , drop = FALSE]) %in% key(xs))
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
  if (!is.null(lr)) lr <- check_number(lr, "lr", lower = 0, lower_open = TRUE)
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

# ---- the mechanism -------------------------------------------------------------

#' Private database release through kernel mean embeddings (Balog et al.)
#'
#' Releases a weighted synthetic data set \eqn{\{(z_m, w_m)\}_{m=1}^M} whose
#' embedding \eqn{\tilde\mu = \sum_m w_m k(z_m, \cdot)} is an
#' \eqn{(\epsilon, \delta)}-differentially private estimate of the kernel mean
#' embedding \eqn{\hat\mu_X = N^{-1}\sum_n k(x_n, \cdot)} of the rows of `x`
#' (Balog, Tolstikhin and Schoelkopf, 2018). Use the release through
#' [kme_expectation()], [kme_mmd()], [kme_mmd_test()], `predict()` (the
#' function \eqn{\tilde\mu}) and `plot()`.
#'
#' **Privacy model.** Neighbouring data sets differ by the substitution of
#' one row; \eqn{N} = `nrow(x)` is public. The kernel must satisfy
#' \eqn{k(x, x) \le 1} everywhere (checked: the variance of the kernel), so
#' \eqn{\|\hat\mu_D - \hat\mu_{D'}\|_H \le 2/N} (Lemma 13). Rows outside a
#' declared public `domain` are clamped to it (the kernels need no domain for
#' privacy; the box is also used for synthetic points and pre-images).
#'
#' **`method = "subspace"`** (Algorithm 1). The `M` synthetic points are
#' fixed before the data are touched: the rows of `synthetic` (public points
#' that you declare public; when they are rows of `x`, `public = TRUE`
#' acknowledges that those individuals are not protected, as in the paper's
#' "leak" scenario) or, with `synthetic = NULL`, `M` uniform draws from
#' `domain`. An orthonormal basis of \eqn{span\{k(z_m,\cdot)\}} is computed
#' from \eqn{K_{zz}} alone by the authors' sequential incomplete Cholesky that
#' skips points whose squared residual norm is at most `tol`
#' \eqn{\cdot k(z,z)} (their modified Gram-Schmidt; `pivot = TRUE` takes the
#' largest residual first). The \eqn{F} coordinates \eqn{\alpha} of the
#' projection of \eqn{\hat\mu_X} move by at most \eqn{2/N} in L2, get
#' Gaussian noise of scale \eqn{\sigma}, and are mapped back to weights
#' (skipped points get weight 0). With `l1_bound = C`, the weights are
#' replaced by the closest (in the RKHS) weights with \eqn{\|w\|_1 \le C}
#' (Theorem 11; post-processing).
#'
#' **`method = "random_features"`** (Algorithm 2). The mean of `J` random
#' Fourier features ([kme_rff()], cos/sin pairs with \eqn{\|\phi(x)\| = 1}
#' exactly; the authors' cos-only features do not satisfy the norm bound the
#' proof needs) gets Gaussian noise of scale \eqn{\sigma}; then
#' [kme_reduced_set()] fits `M` points and weights to the noisy vector from
#' the public start points `synthetic` (or uniform draws from `domain`)
#' without ever seeing `x`. `lasso_lambda = NULL` is the authors'
#' \eqn{\lambda = 100/N}.
#'
#' **`method = "exponential"`** (Section 3.4). Chooses one of the public
#' `candidates` (each a matrix of points with uniform weights, or a list with
#' `points` and `weights`) by the exponential mechanism with utility
#' \eqn{-\|\hat\mu_X - \mu_R\|_H} and sensitivity \eqn{2/N}, sampled exactly
#' (Gumbel-max, [dp_select()]). Pure \eqn{\epsilon}-DP (`delta` is not used and
#' may be 0). Only for small problems: it evaluates
#' \eqn{\mathrm{mean}(K_{xx})}, \eqn{N^2} kernel values. Not available for
#' database tables and chunks: \eqn{\mathrm{mean}(K_{xx}) = \|\hat\mu_X\|_H^2}
#' is a sum over pairs of rows, not a sum over individuals, so no summary
#' of fixed size (like the kernel sums of the other methods) determines the
#' utility.
#'
#' **Pure differential privacy.** With `delta = 0` (an option of the
#' specification, not used in the paper), Laplace noise replaces the Gaussian
#' noise: the L1 sensitivity of the \eqn{F} subspace coordinates (or \eqn{J}
#' features) is at most \eqn{\sqrt F} (\eqn{\sqrt J}) times the L2
#' sensitivity, so the scale is \eqn{\sqrt F \Delta/\epsilon}
#' (\eqn{\sqrt J \Delta/\epsilon}) and the release is \eqn{\epsilon}-DP. (The
#' authors' unused Laplace branch has the wrong sensitivity \eqn{2/\sqrt N}.)
#'
#' **Noise scale.** \eqn{\sigma} = [dp_noise_scale]`(Delta, epsilon, delta,
#' calibration)` with \eqn{\Delta = 2\sqrt{v}/N}, \eqn{v = k(x, x) \le 1}
#' (the paper's \eqn{2/N} for \eqn{v = 1}). With `tight = TRUE`,
#' \eqn{\Delta = \sqrt{2v}/N}: valid for the subspace and exponential
#' methods because every kernel of the package is nonnegative, so
#' \eqn{\|k(x,\cdot) - k(x',\cdot)\|_H^2 = 2v - 2k(x,x') \le 2v} (an
#' improvement over the paper, not in it; refused for random features, whose
#' inner products can be negative). `"classical"` is the paper's \eqn{\sigma^2 = 8
#' \log(1.25/\delta)/(N^2\epsilon^2)}, proven for \eqn{\epsilon < 1} only
#' (the paper also uses it at \eqn{\epsilon = 1}; here that is refused);
#' `"analytic"` (default) is the exact Gaussian calibration, smaller and
#' valid for every \eqn{\epsilon}. It never depends on the data. The noise
#' is drawn in floating point from the package noise source ([dp_rng()]),
#' i.e. with idealised numerics (no snapping against floating-point attacks,
#' Mironov 2012).
#'
#' **Differences from the paper**, all documented in the package's
#' specification: cos/sin instead of cos-only features; the analytic
#' calibration by default; clamping to an optional public box; the default
#' Adam learning rate is half the lengthscale (the paper: 100 for
#' lengthscales 141 to 224); the reduced set starts from copies of the start
#' points (the authors' code shares them across runs).
#'
#' @param x Private data: a numeric vector (1-D), an `N x D` matrix or a data
#'   frame of numeric columns, one row per individual (`columns` in `...`
#'   selects columns of a data frame); or a database table (dbplyr lazy
#'   table), [dp_chunks()] or a [summarise_kme()] summary, summarised outside
#'   memory (give the point `columns` in `...`; methods `"subspace"` and
#'   `"random_features"`: the exponential method needs
#'   \eqn{\|\hat\mu_X\|_H^2}, a sum over pairs of rows rather than over
#'   individuals, so it needs the rows in memory).
#' @param kernel A kernel object ([kernels]) with variance at most 1.
#' @param epsilon Privacy parameter.
#' @param delta Privacy parameter in \[0, 1): 0 gives pure
#'   \eqn{\epsilon}-DP (Laplace noise, or the exponential mechanism, which
#'   ignores `delta`).
#' @param method `"subspace"`, `"random_features"` or `"exponential"`.
#' @param synthetic Public points: the synthetic points of Algorithm 1 or the
#'   start points of Algorithm 2 (an `M x D` matrix; the first `M` rows are
#'   used); or a public generator, a function of `M` returning `M` points
#'   (e.g. the paper's `function(M) matrix(rnorm(2 * M, 0, 500), M)`), called
#'   without the data; or `NULL` for uniform draws from `domain`.
#' @param M Number of synthetic / reduced-set points; `NULL` for all rows of
#'   `synthetic`.
#' @param J Number of random features (even), for `"random_features"`.
#' @param calibration `"analytic"` or `"classical"`.
#' @param domain `NULL` or a public box (`c(lower, upper)` or a `2 x D`
#'   matrix): data are clamped to it.
#' @param public `TRUE` acknowledges that `synthetic` may contain rows of `x`
#'   that are already public (otherwise that raises a warning).
#' @param tol Skip threshold of the basis (relative to \eqn{k(z, z)}).
#' @param pivot Pivoted instead of sequential basis.
#' @param l1_bound `NULL`, or \eqn{C \ge 1}: bound on \eqn{\|w\|_1}
#'   (Theorem 11 for the subspace method; for random features the reduced
#'   set then solves the constrained problem (5) instead of the Lasso).
#' @param iters,lr Adam iterations and learning rate of the pre-image search.
#' @param lasso_lambda Lasso penalty; `NULL` for \eqn{100/N}.
#' @param candidates For `"exponential"`: a list of public candidate data
#'   sets.
#' @param chunk Rows of `x` processed at once (memory \eqn{O(M \cdot chunk)}).
#' @param tight Use the sensitivity \eqn{\sqrt{2v}/N} of nonnegative kernels
#'   instead of the paper's \eqn{2\sqrt{v}/N} (subspace and exponential
#'   methods).
#' @param noise `"float"` (default) or `"exact"`: the noisy coordinates
#'   (subspace coefficients or mean random features) are rounded to a grid
#'   \eqn{2^{-k}} and get discrete Gaussian noise calibrated through zCDP
#'   for the sensitivity plus the rounding distance (discrete Laplace when
#'   `delta = 0`); see [exact_noise]. Not for `method = "exponential"`.
#' @param ... `columns`: the `D` point columns, as strings or bare names
#'   (`columns = c(eruptions, waiting)`; the rule is in [as_curves()]); for
#'   a database table or chunks also `id` (an individual's rows are weighted
#'   by one over their number, see [summarise_kme()]).
#' @param unit The privacy unit when one person has several points: a column
#'   (string or bare name) of a data frame, table or chunks (chunks sorted by
#'   it; `id` in `...` is its older name), or a vector with one entry per
#'   point for a vector or matrix. A unit with \eqn{r} points adds each with
#'   weight \eqn{1/r}, so its embedding is a convex combination of kernel
#'   features with norm at most one and the sensitivity is that of one point
#'   with `N` the number of units (methods `"subspace"` and
#'   `"random_features"`). `NULL` (default): every point is its own unit.
#'   The print says which.
#' @param budget `NULL` or a [privacy_budget()] to charge (Gaussian
#'   releases are recorded with \eqn{\mu = \Delta/\sigma} for exact
#'   composition).
#' @return An object of class `dpfda_kme` (a `dpfda_release`): `points`
#'   (`M x D`), `weights`, `method`, `epsilon`, `delta`, the L2 `sensitivity`
#'   used (\eqn{2/N} for unit-variance kernels), `noise_scale`, `noise_dim` (\eqn{F} or \eqn{J}), the kernel,
#'   `n`, the random features (Algorithm 2), the rng mode and the call. It
#'   never holds \eqn{\alpha}, \eqn{\bar k}, the mean features nor the noise.
#' @references Balog, M., Tolstikhin, I. and Schoelkopf, B. (2018).
#'   Differentially private database release via kernel mean embeddings.
#'   ICML.
#' @examples
#' old <- dp_reproducible(1)
#' x <- matrix(rnorm(2000), ncol = 2)
#' z <- matrix(runif(200, -3, 3), ncol = 2)
#' k <- kernel_gaussian(1)
#' r <- dp_kme(x, k, epsilon = 0.5, delta = 1e-5, synthetic = z)
#' r
#' kme_expectation(r, function(p) p[, 1]^2)   # E X1^2, smoothed by the kernel
#' r2 <- dp_kme(x, k, epsilon = 0.5, delta = 1e-5, method = "random_features",
#'   synthetic = z[1:20, ], J = 400, iters = 30)
#' kme_mmd(r, r2)
#' dp_rng(old)
#' @export
dp_kme <- function(x, kernel, epsilon, delta, method = c("subspace", "random_features", "exponential"),
                   synthetic = NULL, M = NULL, J = 1000, calibration = c("analytic", "classical"),
                   domain = NULL, public = FALSE, tol = 1e-5, pivot = FALSE, l1_bound = NULL,
                   iters = 100, lr = NULL, lasso_lambda = NULL, candidates = NULL, chunk = 2048,
                   tight = FALSE, noise = c("float", "exact"), budget = NULL, ..., unit = NULL) {
  check_required(c("x", "kernel", "epsilon", "delta"),
                 advice = list(delta = paste("delta = 1e-5 for Gaussian noise (well below 1/N), or delta = 0",
                                             "for pure DP (Laplace noise)")))
  eng <- if (...length()) capture_dots(..., .cols = c("columns", "id")) else list()   # strings or bare names
  if (!missing(x) && (is.data.frame(x) || is_engine_input(x))) {
    eng <- resolve_column_opts(eng, x, c("columns", "id"), n = list(columns = NULL))
  }
  # the privacy unit: a column of a data frame, table or chunks, or one entry per point in memory
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  if (!missing(x) && is_engine_input(x) && !is.null(unit)) eng$id <- point_units(x, unit, NULL, eng$id)$id
  if (!missing(x) && is_engine_input(x)) {   # database table, chunks or summary: R/summary-kme.R
    return(dp_kme_engine(x, kernel, epsilon, delta, method, synthetic, M, J, calibration, domain, tol, pivot,
                         l1_bound, iters, lr, lasso_lambda, tight, noise, budget, match.call(),
                         columns = eng$columns, id = eng$id))
  }
  if (!is.null(unit) && is.data.frame(x)) {   # the unit column of each point, then the point columns alone
    ucol <- column_names(unit, names(x), "unit")
    unit <- structure(as.data.frame(x)[[ucol]], name = ucol)
    if (is.null(eng$columns)) eng$columns <- setdiff(names(x), ucol)
  }
  x <- select_point_columns(x, eng$columns)   # in memory: the named columns of a data frame
  eng$columns <- NULL
  if (length(eng)) {
    dpfda_abort("`...` (columns, id) is used only with a database table or chunks; give `unit` for points in memory.",
                arg = "...")
  }
  units <- if (!is.null(unit)) point_units(if (is.data.frame(x)) as.matrix(x) else x, unit, NULL, NULL)
  budget <- release_open(budget, epsilon, delta, if (is.null(units)) NROW(x) else units$n_units)
  call <- match.call()
  noise <- check_noise(noise)
  method <- check_choice(method, c("subspace", "random_features", "exponential"), "method")
  x <- as_points(x, "x")
  D <- ncol(x)
  N <- nrow(x)
  o <- kme_check_options(kernel, epsilon, delta, calibration, tol, pivot, l1_bound, iters, lr, lasso_lambda,
                         J, M, tight, method)
  list2env(o, environment())   # the checked values replace the arguments of the same names
  laplace <- delta == 0
  box <- kme_domain(domain, D)
  public <- check_flag(public, "public")
  chunk <- check_count(chunk, "chunk", min = 1, max = 1e6)
  sens <- kme_sensitivity(kernel, N, tight)
  x <- kme_clamp(x, box)
  kernel_scale_points(kernel, x[1L, , drop = FALSE], "x")   # dimension / overflow check

  if (method != "exponential" && !is.null(candidates)) {
    dpfda_abort("`candidates` is used only with method = \"exponential\"; leave it NULL.", arg = "candidates")
  }
  if (method == "exponential" && !is.null(synthetic)) {
    dpfda_abort("`synthetic` is not used by method = \"exponential\" (give `candidates`); leave it NULL.",
                arg = "synthetic")
  }
  if (method == "exponential") {
    if (!is.null(units)) {
      dpfda_abort(paste("`unit` is available for method = \"subspace\" and \"random_features\": the exponential",
                        "method's utility involves all pairs of points, not a sum over units."), arg = "unit")
    }
    if (noise == "exact") {
      dpfda_abort("`noise = \"exact\"` applies to noisy coordinates; the exponential method has none.",
                  arg = "noise")
    }
    rel <- kme_expmech(x, kernel, epsilon, delta, candidates, chunk, call, sens)
    rel$privacy_unit <- privacy_unit_points(N)
    return(release_close(rel, budget, "dp_kme", list(privacy_part(epsilon, delta))))
  }
  z <- kme_synthetic(synthetic, M, D, box, x, public)
  M <- nrow(z)
  if (method == "subspace") check_alloc(3 * as.double(M)^2, "synthetic-point Gram matrices") else
    check_alloc(as.double(chunk) * J / 2 + as.double(M) * J + as.double(M)^2, "random-feature matrices")
  rff <- if (method == "random_features") kme_rff(kernel, J, D)   # public, data-independent
  # one path for every source: the summary (kernel sums at z, or mean features; the only touch of
  # the data, in chunks of rows), then the release step shared with tables and chunks
  s <- if (is.null(units)) {
    summarise_kme_impl(x, kernel, method, synthetic = if (method == "subspace") z, rff = rff, domain = domain)
  } else {   # a unit with r points adds each with weight 1/r (its embedding has norm <= 1); N counts units
    summarise_kme_impl(units$x, kernel, method, synthetic = if (method == "subspace") z, rff = rff,
                       domain = domain, columns = units$columns, id = "unit")
  }
  if (!is.null(units)) s$unit <- units$label
  kme_release(s, z, rff, kernel, method, epsilon, delta, calibration, tol, pivot, l1_bound, iters, lr,
              lasso_lambda, tight, noise, box, call, budget)
}

# The last step of every dp_kme() path (in memory and from a summary): check
# for overflow, build the release and charge the budget once it exists.
# Gaussian noise on the coordinates is charged as mu = Delta_2 / sigma (GDP);
# discrete Gaussian noise by its zCDP rho.
kme_finish_release <- function(z, w, sigma, ex, extra, kernel, method, epsilon, delta, N, noise_dim, laplace,
                               calibration, box, call, sens, budget) {
  if (!is.finite(sigma) || !all(is.finite(w))) {
    dpfda_abort("The noise scale or the weights overflow; epsilon is too small for this N.",
                class = "dpfda_error_numeric", arg = "epsilon")
  }
  if (!is.null(ex)) extra <- c(extra, list(noise_exact = TRUE, grid_step = ex$step, zcdp_rho = ex$rho))
  rel <- new_dpfda_kme(z, w, kernel, method, epsilon, delta, N, sigma, noise_dim,
                       if (laplace) "laplace" else calibration, box, call, extra, sensitivity = sens)
  release_close(rel, budget, "dp_kme",
                list(privacy_part(epsilon, delta, mu = if (!laplace && is.null(ex)) sens / sigma, rho = ex$rho)))
}

# Float noise only inside its regime (?float_tails): Laplace on m coordinates
# (pure epsilon), or Gaussian with an L2 shift of `shift` standard deviations.
kme_check_tails <- function(laplace, epsilon, delta, m, shift) {
  if (laplace) check_float_tails("laplace", epsilon, delta, m = m, what = "dp_kme()")
  else check_float_tails("gaussian", epsilon, delta, m = m, shift = if (is.finite(shift)) shift else 0,
                         what = "dp_kme()")
}

# Exact (floating-point-safe) noise for the F noisy coordinates of dp_kme():
# they are rounded to the grid 2^-k, which can move a neighbour's vector by
# 2^-k per coordinate (L2: sqrt(F) 2^-k, L1: F 2^-k); discrete Gaussian noise
# calibrated through zCDP for the larger L2 sensitivity, or discrete Laplace
# (delta = 0) for the L1 sensitivity sqrt(F) Delta + F 2^-k. Returns the
# sampler, the noise scale, the grid step and rho (Gaussian).
kme_exact <- function(F, sens, epsilon, delta, laplace) {
  if (laplace) {
    b0 <- sqrt(F) * sens / epsilon
    k <- max(exact_grid(b0, "laplace"), ceiling(log2(100 * F / (sqrt(F) * sens))))
    b <- (sqrt(F) * sens + F * 2^-k) / epsilon
    return(list(draw = function(v) exact_laplace_noise(v, b, k), scale = b, step = 2^-k, rho = NULL))
  }
  k <- exact_grid(kme_sigma(1, epsilon, delta, "analytic", sens), "gaussian")
  s2 <- sens + exact_rounding(F, k, "l2")
  sigma <- exact_gaussian_sigma(s2, epsilon, delta)
  list(draw = function(v) exact_gaussian_noise(v, sigma, k), scale = sigma, step = 2^-k,
       rho = s2^2 / (2 * sigma^2))
}

new_dpfda_kme <- function(z, w, kernel, method, epsilon, delta, N, sigma, noise_dim, calibration, box,
                          call, extra = list(), sensitivity = 2 / N) {
  vals <- new_dpfda_curves(matrix(as.double(w), nrow = 1L), as.double(seq_along(w)), c(1, max(1, length(w))))
  kind <- if (method != "exponential" && delta == 0) "Laplace" else "Gaussian"
  noise <- switch(method,
    subspace = sprintf("%s on %d subspace coordinates", kind, noise_dim),
    random_features = sprintf("%s on %d random features", kind, noise_dim),
    exponential = sprintf("exponential mechanism over %d candidates", noise_dim))
  r <- new_dpfda_release(vals, mechanism = paste0("kme_", method), epsilon = epsilon, delta = delta,
                         sensitivity = sensitivity, noise_scale = sigma, noise = noise, call = call,
                         points = z, weights = as.double(w), method = method, kernel = kernel, n = N,
                         noise_dim = noise_dim, calibration = calibration, domain = box,
                         class = "dpfda_kme")
  for (nm in names(extra)) r[nm] <- list(extra[[nm]])
  r
}

kme_synthetic <- function(synthetic, M, D, box, x, public) {
  if (is.function(synthetic)) {
    # a public generator: called with M only, it never sees the data
    if (is.null(M)) dpfda_abort("`M` is needed to draw points from the `synthetic` generator.", arg = "M")
    check_alloc(as.double(M) * D, "synthetic points")
    z <- synthetic(M)
    if (is.null(dim(z)) && D > 1L && is.numeric(z) && length(z) == M * D) z <- matrix(z, M, D)
    z <- as_points(z, "synthetic(M)", d = D)
    if (nrow(z) != M) {
      dpfda_abort(sprintf("`synthetic(M)` must return %d points, not %d.", M, nrow(z)), arg = "synthetic")
    }
    return(z)
  }
  if (is.null(synthetic)) {
    if (is.null(box)) {
      dpfda_abort("Give public `synthetic` points, or a public `domain` to draw them from.",
                  arg = "synthetic")
    }
    if (is.null(M)) dpfda_abort("`M` is needed to draw synthetic points from `domain`.", arg = "M")
    check_alloc(as.double(M) * D, "synthetic points")
    z <- vapply(seq_len(D), function(k) stats::runif(M, box[1L, k], box[2L, k]), numeric(M))
    return(matrix(z, M, D))
  }
  z <- as_points(synthetic, "synthetic", d = D)
  if (!is.null(M)) {
    if (M > nrow(z)) {
      dpfda_abort(sprintf("`M` (%d) exceeds the number of `synthetic` points (%d).", M, nrow(z)), arg = "M")
    }
    z <- z[seq_len(M), , drop = FALSE]
  }
  # This check reads the data: it is a message to the curator who runs the
  # mechanism, never part of the release.
  if (!public && kme_rows_in(z, x)) {
    dpfda_warn(paste("Some `synthetic` points are rows of `x`: those individuals are protected only",
                     "if their rows were already public. Set public = TRUE to acknowledge."),
               class = "dpfda_warning_privacy")
  }
  z
}

# Exponential mechanism over public candidate data sets (utility -||mu_X - mu_R||_H).
kme_expmech <- function(x, kernel, epsilon, delta, candidates, chunk, call, sens) {
  ok <- is.list(candidates) && !is.data.frame(candidates) && length(candidates) >= 1L &&
    length(candidates) <= 1e4
  if (!isTRUE(ok)) arg_error("candidates", "a list of 1 to 10000 public candidate data sets", candidates)
  D <- ncol(x)
  N <- nrow(x)
  cand <- lapply(seq_along(candidates), function(i) {
    cc <- candidates[[i]]
    if (is.list(cc) && !is.data.frame(cc)) {
      p <- as_points(cc$points, sprintf("candidates[[%d]]$points", i), d = D)
      w <- check_numeric_vector(cc$weights, sprintf("candidates[[%d]]$weights", i))
      if (length(w) != nrow(p)) {
        dpfda_abort(sprintf("`candidates[[%d]]` has %d points but %d weights.", i, nrow(p), length(w)),
                    arg = "candidates")
      }
    } else {
      p <- as_points(cc, sprintf("candidates[[%d]]", i), d = D)
      w <- rep(1 / nrow(p), nrow(p))
    }
    list(points = p, weights = w)
  })
  if (as.double(N)^2 > 4e10) {
    dpfda_abort("The exponential mechanism needs N^2 kernel values; N is too large (at most 2e5).",
                class = "dpfda_error_numeric", arg = "x")
  }
  kxx <- kme_mean_gram(kernel, x)
  util <- vapply(cand, function(cc) {
    kb <- kme_rowmeans(kernel, cc$points, x, chunk)
    K <- kernel_matrix(kernel, cc$points)
    -sqrt(max(0, kxx - 2 * sum(cc$weights * kb) + sum(cc$weights * (K %*% cc$weights))))
  }, 0)
  sel <- quiet_privacy(dp_select(util, sensitivity = sens, epsilon = epsilon))
  ch <- cand[[sel$index]]
  new_dpfda_kme(ch$points, ch$weights, kernel, "exponential", epsilon, delta, N, 0, length(cand),
                "exponential", NULL, call, list(selected = sel$index), sensitivity = sens)
}

# ---- methods and uses of a release --------------------------------------------

check_kme <- function(release, arg = "release") {
  if (!inherits(release, "dpfda_kme")) arg_error(arg, "a dp_kme() release", release)
  release
}

#' @export
print.dpfda_kme <- function(x, ...) {
  lab <- c(subspace = "Algorithm 1 (synthetic-data subspace)",
           random_features = "Algorithm 2 (random features + reduced set)",
           exponential = "exponential mechanism")[[x$method]]
  cat(sprintf("<dpfda_kme> private kernel mean embedding, %s\n", lab))
  if (x$method == "exponential") {
    cat(sprintf("  epsilon = %s-DP, N = %d, utility sensitivity %s, candidate %d of %d chosen\n",
                format(x$epsilon, digits = 4), x$n, format(x$sensitivity, digits = 4), x$selected, x$noise_dim))
  } else {
    cat(sprintf("  (epsilon = %s, delta = %s)-DP, N = %d, L2 sensitivity %s\n",
                format(x$epsilon, digits = 4), format(x$delta, digits = 4), x$n, format(x$sensitivity, digits = 4)))
    cat(sprintf("  noise: %s, scale %s (%s)\n", x$noise, format(x$noise_scale, digits = 4), x$calibration))
  }
  cat(sprintf("  %d weighted points in %d dimension%s; sum(w) = %s, ||w||_1 = %s\n", nrow(x$points),
              ncol(x$points), if (ncol(x$points) == 1L) "" else "s", format(sum(x$weights), digits = 4),
              format(sum(abs(x$weights)), digits = 4)))
  cat("  kernel: ", format(x$kernel), "\n", sep = "")
  if (!is.null(x$privacy_unit)) cat(sprintf("  privacy unit: %s\n", x$privacy_unit))
  print_noise_source(x$rng)
  invisible(x)
}

#' @export
summary.dpfda_kme <- function(object, ...) {
  structure(list(method = object$method, epsilon = object$epsilon, delta = object$delta,
                 sensitivity = object$sensitivity, noise_scale = object$noise_scale,
                 noise_dim = object$noise_dim, M = nrow(object$points), mass = sum(object$weights),
                 l1 = sum(abs(object$weights)), nonzero = sum(object$weights != 0), rng = object$rng,
                 # everything print() says, so that summary() never says less
                 printed = utils::capture.output(print(object))),
            class = "summary.dpfda_kme")
}

#' @export
print.summary.dpfda_kme <- function(x, ...) {
  cat(x$printed, sep = "\n")
  cat(sprintf("summary: kme release (%s): epsilon = %s, delta = %s, noise scale %s on %d coordinates\n", x$method,
              format(x$epsilon, digits = 4), format(x$delta, digits = 4), format(x$noise_scale, digits = 4),
              x$noise_dim))
  cat(sprintf("%d points (%d nonzero weights), total mass %s, ||w||_1 = %s, rng %s\n", x$M, x$nonzero,
              format(x$mass, digits = 4), format(x$l1, digits = 4), x$rng))
  invisible(x)
}

#' @export
as.data.frame.dpfda_kme <- function(x, row.names = NULL, optional = FALSE, level = 0.95, ...) {
  p <- x$points
  colnames(p) <- paste0("z", seq_len(ncol(p)))
  # the embedding at the points with its noise band (R/confint.R), NA without a noise law
  ci <- tryCatch(confint.dpfda_kme(x, level = level, ...), dpfda_error_unsupported = function(e) NULL)
  d <- data.frame(p, weight = x$weights, value = stats::predict(x))
  d$se <- if (is.null(ci)) NA_real_ else ci$se
  d$lower <- if (is.null(ci)) NA_real_ else ci$lower
  d$upper <- if (is.null(ci)) NA_real_ else ci$upper
  d
}

#' Evaluate a private kernel mean embedding
#'
#' \eqn{\tilde\mu(y) = \sum_m w_m k(z_m, y)} at the rows of `newdata` (by
#' default at the synthetic points): post-processing of the release.
#'
#' @param object A [dp_kme()] release.
#' @param newdata Points (vector or matrix with the release's dimension), or
#'   `NULL` for the synthetic points.
#' @param ... Unused.
#' @return The embedding at each point.
#' @examples
#' old <- dp_reproducible(2)
#' r <- dp_kme(rnorm(500), kernel_gaussian(0.5), 1, 1e-5, synthetic = seq(-3, 3, by = 0.5))
#' predict(r, c(-1, 0, 1))
#' dp_rng(old)
#' @export
predict.dpfda_kme <- function(object, newdata = NULL, ...) {
  refuse_interval(list(...), "a kernel mean embedding")
  if (is.null(newdata)) newdata <- object$points
  release_predict(object, newdata, ...)
}

#' @export
release_predict.dpfda_kme <- function(object, newdata, ...) {
  y <- as_points(newdata, "newdata", d = ncol(object$points))
  nz <- object$weights != 0
  if (!any(nz)) return(numeric(nrow(y)))
  as.vector(kernel_matrix(object$kernel, y, object$points[nz, , drop = FALSE]) %*% object$weights[nz])
}

#' @export
plot.dpfda_kme <- function(x, y = NULL, dims = c(1L, 2L), main = NULL, ...) {
  p <- x$points
  w <- x$weights
  if (is.null(main)) main <- sprintf("dp_kme (%s), epsilon = %s", x$method, format(x$epsilon, digits = 3))
  col <- ifelse(w >= 0, "#1F77B4", "#D62728")
  if (ncol(p) == 1L) {
    graphics::plot(p[, 1L], w, type = "h", col = col, xlab = "z", ylab = "weight", main = main, ...)
    graphics::abline(h = 0, col = "grey60")
  } else {
    cex <- 0.3 + 3 * sqrt(abs(w) / max(abs(w), .Machine$double.eps))
    graphics::plot(p[, dims[1L]], p[, dims[2L]], cex = cex, col = col, pch = 16,
                   xlab = paste0("z", dims[1L]), ylab = paste0("z", dims[2L]), main = main, ...)
    graphics::legend("topright", legend = c("positive weight", "negative weight"),
                     col = c("#1F77B4", "#D62728"), pch = 16, bty = "n")
  }
  invisible(x)
}

#' Expectations under a private kernel mean embedding
#'
#' \eqn{E\,h(X) = \langle \mu_X, h\rangle_H \approx \sum_m w_m h(z_m)} by the
#' reproducing property (Balog et al., eq. 4); exact for \eqn{h} in the RKHS
#' up to the release's error, an approximation otherwise. The weights can be
#' negative and need not sum to one; `normalise = TRUE` divides by
#' \eqn{\sum_m w_m} (a user choice, not part of the paper).
#'
#' @param release A [dp_kme()] release.
#' @param h A function of an `M x D` matrix of points returning `M` finite
#'   numbers (or an `M x q` matrix for several functions at once).
#' @param normalise Divide by the total mass \eqn{\sum_m w_m}.
#' @return The estimate(s), with the total mass as attribute `"mass"`.
#' @examples
#' old <- dp_reproducible(3)
#' r <- dp_kme(rnorm(1000, 1), kernel_gaussian(0.5), 1, 1e-5, synthetic = seq(-3, 5, by = 0.25))
#' kme_expectation(r, function(p) p[, 1])    # about 1
#' dp_rng(old)
#' @export
kme_expectation <- function(release, h, normalise = FALSE) {
  check_required()
  check_kme(release)
  if (!is.function(h)) arg_error("h", "a function of the points", h)
  normalise <- check_flag(normalise, "normalise")
  v <- h(release$points)
  if (!is.numeric(v) || !all(is.finite(v)) || NROW(v) != nrow(release$points)) {
    dpfda_abort(sprintf("`h` must return one finite number per point (%d), or a matrix with that many rows.",
                        nrow(release$points)), arg = "h")
  }
  out <- if (is.matrix(v)) as.vector(crossprod(v, release$weights)) else sum(release$weights * v)
  mass <- sum(release$weights)
  if (normalise) {
    if (abs(mass) < .Machine$double.eps) {
      dpfda_abort("The total mass of the release is 0: it cannot be normalised.",
                  class = "dpfda_error_numeric", arg = "normalise")
    }
    out <- out / mass
  }
  attr(out, "mass") <- mass
  out
}

# Weighted sample (points, weights) from a release or points.
kme_as_weighted <- function(y, d, arg, weights = NULL) {
  if (inherits(y, "dpfda_kme")) return(list(points = y$points, weights = y$weights))
  p <- as_points(y, arg, d = d)
  if (is.null(weights)) return(list(points = p, weights = rep(1 / nrow(p), nrow(p))))
  weights <- check_numeric_vector(weights, "weights_y")
  if (length(weights) != nrow(p)) {
    dpfda_abort(sprintf("`weights_y` must have one weight per row of `y` (%d), not %d.", nrow(p),
                        length(weights)), arg = "weights_y")
  }
  list(points = p, weights = weights)
}

kme_sq_dist <- function(kernel, a, b) {
  check_alloc(as.double(length(a$weights) + length(b$weights))^2, "kernel matrices")
  saa <- sum(a$weights * (kernel_matrix(kernel, a$points) %*% a$weights))
  sbb <- sum(b$weights * (kernel_matrix(kernel, b$points) %*% b$weights))
  sab <- sum(a$weights * (kernel_matrix(kernel, a$points, b$points) %*% b$weights))
  saa - 2 * sab + sbb
}

#' Maximum mean discrepancy to a private embedding
#'
#' \eqn{\|\sum_m w_m k(z_m,\cdot) - \sum_l v_l k(y_l,\cdot)\|_H} with
#' \eqn{v_l = 1/L} (a sample) or given weights, or between two releases (same
#' kernel). The square is clamped at 0 before the root.
#'
#' @param release A [dp_kme()] release.
#' @param y A sample (`L x D` matrix or vector) or another release.
#' @param weights_y Optional weights for the rows of `y`.
#' @return The RKHS distance.
#' @examples
#' old <- dp_reproducible(4)
#' r <- dp_kme(rnorm(1000), kernel_gaussian(1), 1, 1e-5, synthetic = seq(-3, 3, by = 0.5))
#' kme_mmd(r, rnorm(200))
#' kme_mmd(r, rnorm(200, 2))
#' dp_rng(old)
#' @export
kme_mmd <- function(release, y, weights_y = NULL) {
  check_required()
  check_kme(release)
  a <- list(points = release$points, weights = release$weights)
  if (!inherits(y, "dpfda_kme") && is.null(weights_y)) {
    # a plain sample: row means and the mean Gram matrix in C, no L x L matrix
    y <- as_points(y, "y", d = ncol(a$points))
    check_alloc(as.double(nrow(a$points))^2, "kernel matrix of the release")
    saa <- sum(a$weights * (kernel_matrix(release$kernel, a$points) %*% a$weights))
    sab <- sum(a$weights * kme_rowmeans(release$kernel, a$points, y))
    return(sqrt(max(0, saa - 2 * sab + kme_mean_gram(release$kernel, y))))
  }
  b <- kme_as_weighted(y, ncol(a$points), "y", weights_y)
  sqrt(max(0, kme_sq_dist(release$kernel, a, b)))
}

#' Two-sample test against a private embedding (extension)
#'
#' Tests \eqn{H_0: \mu_Y = \mu_X} with statistic \eqn{T =
#' \|\tilde\mu_X - \hat\mu_Y\|_H^2} for a sample `y`, treating the release as
#' fixed. The paper only says a test can be built on this distance; this
#' calibration is an extension of the package. The null distribution of
#' \eqn{T} is simulated as the sum of (i) the privacy noise, exactly
#' \eqn{\sigma^2\chi^2_F} for Algorithm 1 (for Algorithm 2,
#' \eqn{\sigma^2\chi^2_J}, the noise norm in feature space; the sum of squared
#' Laplace draws for `delta = 0`), and (ii) the
#' sampling error of both empirical embeddings, by the bootstrap of
#' \eqn{\|\hat\mu_{Y^*} - \hat\mu_Y\|^2} scaled by \eqn{1 + L/N}. The
#' projection or reduced-set bias of the release is **not** accounted for,
#' so the test is conservative only when that bias is small (many
#' well-spread synthetic points). Resampling uses R's generator.
#'
#' @param release A [dp_kme()] release.
#' @param y The sample, `L x D`.
#' @param B Number of null simulations.
#' @return An object of class `htest`.
#' @examples
#' old <- dp_reproducible(5)
#' r <- dp_kme(rnorm(2000), kernel_gaussian(1), 1, 1e-5, synthetic = seq(-4, 4, by = 0.25))
#' kme_mmd_test(r, rnorm(200), B = 199)$p.value
#' kme_mmd_test(r, rnorm(200, 1), B = 199)$p.value
#' dp_rng(old)
#' @export
kme_mmd_test <- function(release, y, B = 999) {
  check_required()
  check_kme(release)
  y <- as_points(y, "y", d = ncol(release$points))
  B <- check_count(B, "B", min = 1, max = 1e6)
  L <- nrow(y)
  check_alloc(as.double(L)^2, "kernel matrix of y")
  Kyy <- kernel_matrix(release$kernel, y)
  a <- list(points = release$points, weights = release$weights)
  stat <- max(0, kme_sq_dist(release$kernel, a, list(points = y, weights = rep(1 / L, L))))
  scale <- 1 + L / release$n
  null <- vapply(seq_len(B), function(b) {
    cnt <- tabulate(sample.int(L, L, replace = TRUE), L) / L - 1 / L
    boot <- max(0, sum(cnt * (Kyy %*% cnt)))
    priv <- if (release$noise_scale == 0) 0 else if (identical(release$calibration, "laplace")) {
      release$noise_scale^2 * sum(stats::rexp(release$noise_dim)^2)   # |Laplace(b)| = b Exp(1)
    } else release$noise_scale^2 * stats::rchisq(1, release$noise_dim)
    scale * boot + priv
  }, 0)
  p <- (1 + sum(null >= stat)) / (B + 1)
  structure(list(statistic = c(MMD2 = stat), p.value = p, parameter = c(B = B),
                 method = "MMD test against a private kernel mean embedding (bootstrap + privacy noise)",
                 data.name = deparse(substitute(y)), alternative = "mu_Y != mu_X"),
            class = "htest")
}

#' Mixture-of-Gaussians data of Balog et al. (Appendix B)
#'
#' \eqn{C} components with weights proportional to \eqn{1, 1/2, \dots, 1/C};
#' component means drawn from \eqn{N(center\,1_D, sd\_means^2 I)} and rows from
#' \eqn{N(\mu_c, sd\_within^2 I)}. The paper says "covariance 200 I" and
#' "30 I"; the authors' code uses them as standard deviations, as here.
#' Uses R's generator.
#'
#' @param N Number of rows.
#' @param D Dimension.
#' @param C Number of components.
#' @param center,sd_means,sd_within Mean of the component means and the two
#'   standard deviations.
#' @return A list with `x` (`N x D`), `label`, `means` (`C x D`) and `probs`.
#' @examples
#' d <- kme_mog_data(1000, 2)
#' dim(d$x)
#' @export
kme_mog_data <- function(N = 1e5, D = 2, C = 10, center = 100, sd_means = 200, sd_within = 30) {
  N <- check_count(N, "N", min = 1, max = 1e8)
  D <- check_count(D, "D", min = 1, max = 1e4)
  C <- check_count(C, "C", min = 1, max = 1e6)
  center <- check_number(center, "center", lower = -1e100, upper = 1e100)
  sd_means <- check_number(sd_means, "sd_means", lower = 0, upper = 1e100)
  sd_within <- check_number(sd_within, "sd_within", lower = 0, upper = 1e100)
  check_alloc(as.double(N) * D + as.double(C) * D, "mixture data")
  probs <- (1 / seq_len(C)) / sum(1 / seq_len(C))
  means <- matrix(stats::rnorm(C * D, center, sd_means), C, D)
  label <- sample.int(C, N, replace = TRUE, prob = probs)
  x <- means[label, , drop = FALSE] + matrix(stats::rnorm(N * D, 0, sd_within), N, D)
  list(x = x, label = label, means = means, probs = probs)
}
