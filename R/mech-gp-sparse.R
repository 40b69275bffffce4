# Inducing-point (FITC) cloaking for large n. Not in Smith et al. (2018),
# which only mentions inducing inputs as future work (its conclusion); the
# FITC cloaking matrix follows the authors' later code.

#' Differentially private sparse (inducing-point) Gaussian-process regression
#'
#' The cloaking mechanism of [dp_gp_regression()] applied to the FITC
#' (fully independent training conditional) approximation of the posterior
#' mean, so that tens of thousands of training points can be used: with
#' \eqn{m} public inducing inputs \eqn{Z}, every step costs \eqn{O(n m^2 +
#' P n m)} and no \eqn{n \times n} matrix is formed.
#'
#' With \eqn{K_{MM} = k(Z, Z)}, \eqn{K_{NM} = k(X, Z)}, \eqn{K_{*M} = k(X_*,
#' Z)}, \eqn{\Lambda = \mathrm{diag}(K_{NN} - K_{NM} K_{MM}^{-1} K_{MN})} and
#' \eqn{Q = K_{MM} + K_{MN} (\Lambda + \sigma_n^2 I)^{-1} K_{NM}}, the FITC
#' posterior mean at the test points is \eqn{C_{FITC} y} with the cloaking
#' matrix \eqn{C_{FITC} = K_{*M} Q^{-1} K_{MN} (\Lambda + \sigma_n^2
#' I)^{-1}} (\eqn{P \times n}), applied to the
#' outputs clipped to `y_bound` and centred at its midpoint.
#'
#' **Privacy.** The released vector is \eqn{C_{FITC} y} plus \eqn{N(0,
#' \sigma^2 M)} noise with \eqn{M} from [cloaking_covariance()] of
#' \eqn{C_{FITC}} and \eqn{\sigma =} [dp_noise_scale()]\eqn{(d
#' \sqrt{\max_i c_i^\top M^+ c_i}, \epsilon, \delta)}, exactly as the
#' cloaking method of [dp_gp_regression()]. The argument there uses only
#' that the mean is linear in \eqn{y}, so that a neighbour (one output
#' changed by at most \eqn{d}) shifts the mean by \eqn{d\, c_i}, whatever the
#' matrix \eqn{C}: the guarantee holds for the FITC mean (an approximation of
#' the exact posterior mean, which is *not* what is protected or released)
#' provided the inducing inputs are public. They must not depend on `y`:
#' give a matrix (e.g. a grid), or a number \eqn{m}, which places them by
#' k-means on the public `x` ([stats::kmeans()] started from a deterministic
#' farthest-point choice of centres: no random numbers are used, so the
#' noise stream of a seeded session is not disturbed).
#'
#' With `unit` (several rows per person) the noise is calibrated to the
#' largest shift all outputs of one unit can make together, as for cloaking
#' in [dp_gp_regression()] (Several rows per person); `n` counts units.
#'
#' The posterior variance (FITC, noise excluded) depends on public
#' quantities only and is returned as it is.
#'
#' @inheritParams dp_gp_regression
#' @param x Public training inputs (vector, `n x D` matrix or data frame of
#'   numeric columns), or a formula `y ~ x1 + ...` whose variables are
#'   columns of `data`.
#' @param y Private training outputs (length `n`), clipped to `y_bound`
#'   (omit it with a formula).
#' @param newdata Public test points (vector or `P x D` matrix, no
#'   duplicates); with a formula or a data frame `x`, a data frame with the
#'   predictor columns (taken by name, in x's order). One-dimensional test
#'   points are sorted.
#' @param inducing Public inducing inputs: an `m x D` matrix (a vector of
#'   length at least 2 in one dimension), or a single whole number \eqn{m}
#'   for k-means on `x` (one inducing point at `t` is `matrix(t)`).
#' @param tol Solver tolerance passed to [cloaking_covariance()].
#' @param ... Passed to [dp_noise_scale()] (e.g. `allow_large_epsilon`).
#' @param y_bound Public `c(lower, upper)` bounds on the outputs (one positive
#'   number `B` stands for `c(-B, B)`).
#' @return A `dpfda_release` (subclass `dpfda_gpreg_release`, `regression =
#'   "cloaking-fitc"`) with the released mean at `newdata`, and
#'   `posterior_variance`, `noise_covariance`, `lambda`, `max_constraint`,
#'   `inducing` (the inducing inputs used).
#' @seealso [dp_gp_regression()], [cloaking_covariance()].
#' @references Snelson, E. and Ghahramani, Z. (2006). Sparse Gaussian
#'   processes using pseudo-inputs. *NIPS* 18.
#'
#'   Smith, M. T., Alvarez, M. A., Zwiessele, M. and Lawrence, N. D. (2018).
#'   Differentially private regression with Gaussian processes. *AISTATS*,
#'   PMLR 84, 1195--1203.
#' @examples
#' old <- dp_reproducible(1)
#' x <- runif(2000)
#' y <- sin(6 * x) + rnorm(2000, 0, 0.3)
#' r <- dp_sparse_gp_regression(x, y, seq(0, 1, length.out = 25), inducing = 15,
#'                              kernel = kernel_gaussian(0.15), noise_variance = 0.09,
#'                              y_bound = c(-2, 2), epsilon = 1, delta = 1e-5)
#' r
#' dp_rng(old)
#' @export
dp_sparse_gp_regression <- function(x, y, newdata, inducing, kernel, noise_variance, y_bound,
                                    epsilon, delta, calibration = c("analytic", "hall", "classical"),
                                    tol = 1e-8, ..., noise = c("float", "exact"), budget = NULL, data = NULL,
                                    unit = NULL) {
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  fr <- if (!missing(x)) frame_predictors(x)   # (named columns of a data frame: kept for predict())
  fd <- if (!missing(x)) formula_call(x, !missing(y), data, if (!missing(newdata)) newdata,
                                      "dp_sparse_gp_regression", "newdata", new_required = TRUE, y = if (!missing(y)) y)
  if (!is.null(fd)) {
    x <- fd$x
    y <- fd$y
    data <- fd$data
    newdata <- fd$newdata
  }
  check_required(c("x", "y", "newdata", "inducing", "kernel", "noise_variance", "y_bound", "epsilon", "delta"))
  newdata <- newdata_in_x_order(newdata, x)   # (columns by name, as dp_gp_regression())
  budget <- release_open(budget, epsilon, delta, if (is.null(unit)) NROW(x))
  call <- match.call()
  noise <- check_noise(noise)
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  epsilon <- check_epsilon(epsilon)
  delta <- check_delta(delta, zero = gaussian_delta_zero("dp_sparse_gp_regression()", "dp_bin_regression()"))
  tol <- check_number(tol, "tol", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                      what = "a number strictly between 0 and 1")
  check_kernel(kernel)
  pts <- as_points(x, "x")
  n <- nrow(pts)
  check_y_values(y, n)
  units <- regression_units(unit, n, data, delta)
  y_bound <- check_y_bound(y_bound)
  grid <- as_grid(newdata, "newdata")
  if (is.null(dim(grid))) grid <- sort(grid)
  newpts <- as_points(grid, "newdata", d = ncol(pts))
  Z <- inducing_points(inducing, pts, nrow(newpts))
  fitc <- fitc_parts(pts, newpts, Z, kernel, noise_variance)
  warn_prior_scale(kernel, noise_variance, y_bound)
  mid <- mean(y_bound)
  yc <- pmin(pmax(as.double(y), y_bound[1]), y_bound[2]) - mid
  parts <- list(mean = as.vector(fitc$C %*% yc) + mid, C = fitc$C, variance = fitc$variance,
                grid = grid, points = newpts, d = diff(y_bound), y_bound = y_bound, n = n)
  cl <- cloaking_covariance(parts$C, tol = tol)
  rel <- cloaking_release(parts, cl, epsilon, delta, calibration, call,
                          noise_args = check_noise_dots(list(...), "dp_sparse_gp_regression"),
                          mechanism = "gp-regression-cloaking-fitc", regression = "cloaking-fitc",
                          inducing = Z, noise_mode = noise,
                          unit_codes = if (!is.null(units) && units$n < n) units$codes)
  rel$n <- n   # (the records: one per individual, as the print says)
  if (is.numeric(inducing) && length(inducing) == 1L && is.null(dim(inducing))) rel$inducing_asked <- inducing
  if (!is.null(units)) {
    rel$n <- units$n
    rel$privacy_unit <- privacy_unit_points(units$n, units$label)
  }
  release_close(formula_release(rel, fd %||% fr), budget, "dp_sparse_gp_regression")
}

# The FITC cloaking matrix C_FITC (P x n) on its own (internal; see the header).
fitc_cloaking_matrix <- function(x, newdata, inducing, kernel, noise_variance) {
  check_kernel(kernel)
  pts <- as_points(x, "x")
  newpts <- as_points(newdata, "newdata", d = ncol(pts))
  Z <- inducing_points(inducing, pts, nrow(newpts))
  fitc_parts(pts, newpts, Z, kernel, noise_variance)$C
}

# FITC cloaking matrix and posterior variance, O(n m^2 + P n m), through the
# whitened form: K_MM = L L', V = L^{-1} K_MN, B = I + V D^{-1} V',
# Q^{-1} = L^{-T} B^{-1} L^{-1}, so C = (K_*M L^{-T}) B^{-1} V D^{-1}.
fitc_parts <- function(pts, newpts, Z, kernel, noise_variance) {
  noise_variance <- check_number(noise_variance, "noise_variance", lower = 0, lower_open = TRUE)
  n <- nrow(pts)
  m <- nrow(Z)
  P <- nrow(newpts)
  check_alloc(as.double(n) * (2 * m + P) + as.double(m) * (m + P), "FITC system")
  Kmm <- kernel_matrix(kernel, Z)
  Lmm <- chol_jitter(Kmm, jitter = 1e-10)$L
  V <- forwardsolve(Lmm, t(kernel_matrix(kernel, pts, Z)))            # m x n
  knn <- rep(kernel$variance, n)
  lam <- pmax(knn - colSums(V^2), 0)                                   # diag(K_NN - Q_NN)
  Dinv <- 1 / (lam + noise_variance)
  VD <- sweep(V, 2L, Dinv, "*")                                        # V D^{-1}
  B <- tcrossprod(VD, V)
  diag(B) <- diag(B) + 1
  Rb <- tryCatch(chol(B), error = function(e) NULL)
  if (is.null(Rb) || !all(is.finite(Rb))) {
    dpfda_abort("The FITC system is not positive definite; increase `noise_variance`.",
                class = "dpfda_error_numeric", arg = "noise_variance")
  }
  Ws <- forwardsolve(Lmm, t(kernel_matrix(kernel, newpts, Z)))         # m x P: L^{-1} K_M*
  G <- backsolve(Rb, backsolve(Rb, Ws, transpose = TRUE))              # B^{-1} L^{-1} K_M*
  C <- crossprod(G, VD)                                                # P x n
  # posterior variance: k** - K_*M K_MM^{-1} K_M* + K_*M Q^{-1} K_M*
  U <- backsolve(Rb, Ws, transpose = TRUE)
  variance <- pmax(kernel$variance - colSums(Ws^2) + colSums(U^2), 0)
  if (!all(is.finite(C))) {
    dpfda_abort("The FITC cloaking matrix overflows; rescale the kernel or the inputs.",
                class = "dpfda_error_numeric", arg = "kernel")
  }
  list(C = C, variance = variance)
}

# Public inducing inputs: a matrix (or 1-D vector), or m for k-means on x.
# P (number of test points) sizes the memory check done before k-means.
inducing_points <- function(inducing, pts, P = 0) {
  D <- ncol(pts)
  if (is.numeric(inducing) && length(inducing) == 1L && is.null(dim(inducing))) {
    m <- check_count(inducing, "inducing", min = 1, max = 1e5)
    check_alloc(as.double(nrow(pts)) * (2 * m + P) + as.double(m) * (m + P), "FITC system")
    return(kmeans_public(pts, m))
  }
  Z <- as_points(inducing, "inducing", d = D)
  if (anyDuplicated(Z)) dpfda_abort("`inducing` must not contain duplicated points.", arg = "inducing")
  Z
}

# Deterministic k-means on the public inputs: farthest-point start (from the
# point nearest the centroid), then stats::kmeans (Hartigan-Wong) from those
# centres. No random numbers are used.
kmeans_public <- function(pts, m, iter = 50L) {
  # in a canonical (sorted) order: Hartigan-Wong visits the points in turn, so the local optimum,
  # hence the release, depended on the order of the individuals (0.24% on 300 points)
  u <- unique(pts)
  u <- u[canonical_rows(u), , drop = FALSE]
  if (nrow(u) <= m) return(u)
  d2 <- rowSums(sweep(u, 2L, colMeans(u))^2)
  idx <- integer(m)
  idx[1] <- which.min(d2)
  dmin <- rowSums(sweep(u, 2L, u[idx[1], ])^2)
  for (j in seq_len(m)[-1]) {
    idx[j] <- which.max(dmin)
    dmin <- pmin(dmin, rowSums(sweep(u, 2L, u[idx[j], ])^2))
  }
  centres <- u[idx, , drop = FALSE]
  km <- tryCatch(withCallingHandlers(stats::kmeans(u, centers = centres, iter.max = iter),
                                     warning = function(w) invokeRestart("muffleWarning")),
                 error = function(e) NULL)
  if (!is.null(km) && all(is.finite(km$centers))) centres <- km$centers
  centres <- unique(unname(centres))
  storage.mode(centres) <- "double"
  centres
}
