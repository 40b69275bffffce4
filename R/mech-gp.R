# Hall, Rinaldo & Wasserman (2013): release a function with Gaussian-process
# noise whose kernel is the reproducing kernel of an RKHS containing every
# f_D; the noise scale comes from the RKHS sensitivity (Corollary 3.5).

#' Release a function with Gaussian-process noise (Hall et al., Corollary 3.5)
#'
#' Releases \eqn{\tilde f_D = f_D + \sigma G} on the public points `grid`,
#' where \eqn{G} is one path of the centred Gaussian process with covariance
#' `kernel` and \eqn{\sigma =} [dp_noise_scale()]`(sensitivity, epsilon, delta)`.
#' If every \eqn{f_D} lies in the RKHS \eqn{\mathcal H} of `kernel` and
#' \eqn{\|f_D - f_{D'}\|_{\mathcal H} \le \Delta} = `sensitivity` for all
#' neighbouring data sets, the whole path is \eqn{(\epsilon, \delta)}-DP
#' (cylinder \eqn{\sigma}-field), hence so is its restriction to any finite
#' set of points chosen independently of the data, however many.
#'
#' The batch release has law \eqn{N(f_D(X), \sigma^2 K_X)} (the paper's
#' display omits the square). One path is drawn per release (privacy rule 3);
#' [predict()] evaluates the release elsewhere by conditioning on it
#' (kriging), which is post-processing and costs no budget.
#'
#' The paper's calibration is `calibration = "hall"`,
#' \eqn{\sigma = c(\delta)\Delta/\epsilon}, proven for \eqn{\epsilon \le 1};
#' the default `"analytic"` is the exact Gaussian-mechanism calibration, valid
#' for every \eqn{\epsilon} and smaller. Both apply because in the whitened
#' coordinates of any finite projection the mechanism is a Gaussian mechanism
#' with L2 sensitivity at most \eqn{\Delta} (Proposition 3.4).
#'
#' @param f The non-private function: an R function of the points (a vector
#'   in one dimension, an `m x d` matrix otherwise) returning `m` values (or a
#'   one-curve `dpfda_curves` on `grid`, as [kde_gaussian()] returns), or
#'   the values on `grid` directly (a vector, in the order of `grid`: with a
#'   one-dimensional grid that is not sorted, the values are sorted with it; or
#'   a one-curve `dpfda_curves`).
#' @param grid Public evaluation points, fixed before seeing the data (vector,
#'   matrix or list of axes; see [curves()]). Default for a `dpfda_curves`
#'   `f`: its own grid.
#' @param kernel The reproducing kernel of the RKHS in which `sensitivity` is
#'   measured (see [kernels]); it is also the covariance of the noise.
#' @param sensitivity Public RKHS sensitivity \eqn{\Delta}.
#' @param epsilon,delta Privacy parameters.
#' @param calibration `"analytic"`, `"hall"` or `"classical"`; see
#'   [dp_noise_scale()].
#' @param method Sampler for the noise path; see [rgp()].
#' @param ... Passed to [dp_noise_scale()] (e.g. `allow_large_epsilon`).
#' @param noise `"float"` (default; refused where its bounded tails break the
#'   claim, about \eqn{\epsilon > 21} at \eqn{\delta = 10^{-5}}, see
#'   [float_tails]), or `"exact"` for discrete Gaussian noise
#'   on a grid in whitened coordinates (step proportional to the noise
#'   scale; see [exact_noise]; grids
#'   of at most 4000 points; `method` is then unused).
#' @param budget `NULL`, or a [privacy_budget()] to charge.
#' @return A `dpfda_release` (subclass `dpfda_gp_release`) with the released
#'   curve in `values`, the noise kernel in `noise`, and `jitter` and
#'   `sampler` fields. Its `privacy_unit` (printed, and in [glance()]) says
#'   that the individual protected is whatever change of the data
#'   `sensitivity` bounds: the function cannot know it.
#' @references Hall, R., Rinaldo, A. and Wasserman, L. (2013). Differential
#'   privacy for functions and functional data. *Journal of Machine Learning
#'   Research* 14, 703--727.
#' @examples
#' grid <- seq(0, 1, length.out = 200)
#' r <- dp_gp_release(function(t) sin(2 * pi * t), grid, kernel_gaussian(0.1),
#'                    sensitivity = 0.05, epsilon = 1, delta = 1e-5)
#' r
#' plot(r, band = TRUE)
#' predict(r, c(0.123, 0.5))
#' @export
dp_gp_release <- function(f, grid, kernel, sensitivity, epsilon, delta,
                          calibration = c("analytic", "hall", "classical"),
                          method = "auto", ..., noise = c("float", "exact"), budget = NULL) {
  # (a curve brings its own grid, public as the curve's values were computed there)
  if (missing(grid) && !missing(f) && inherits(f, "dpfda_curves")) grid <- check_curves_data(f, "f")$grid
  check_required(c("f", "grid", "kernel", "sensitivity", "epsilon", "delta"))
  budget <- release_open(budget, epsilon, delta)
  call <- match.call()
  noise <- check_noise(noise)
  check_kernel(kernel)
  grid <- as_grid(grid, "grid")
  if (is.null(dim(grid))) {
    # values given as a vector follow their grid points into the sorted order (they stayed in the
    # given order: an unsorted grid paired them with the wrong points, in silence)
    o <- order(grid)
    if (is.numeric(f) && is.null(dim(f)) && !inherits(f, "dpfda_curves") && length(f) == length(grid)) f <- f[o]
    grid <- grid[o]
  }
  values <- evaluate_target(f, grid)
  check_noise_dots(list(...), "dp_gp_release")
  sigma <- dp_noise_scale(sensitivity, epsilon, delta, calibration = calibration, ...)
  warn_zero_sensitivity(sensitivity)
  rel <- gp_release(values, grid, kernel, sigma, mechanism = "gp", epsilon = epsilon, delta = delta,
                    sensitivity = sensitivity,
                    calibration = check_choice(calibration, c("analytic", "hall", "classical"), "calibration"),
                    method = method, call = call, noise_mode = noise)
  rel$privacy_unit <- sensitivity_privacy_unit()
  release_close(rel, budget, "dp_gp_release")
}

# Values of the target on the grid: an R function, a vector, or a curve.
evaluate_target <- function(f, grid, arg = "f") {
  m <- grid_size(grid)
  one_curve <- function(f) {
    f <- check_curves_data(f, arg)
    if (nrow(f$values) != 1L) dpfda_abort(sprintf("`%s` must hold one curve.", arg), arg = arg)
    if (ncol(f$values) == m &&
        !isTRUE(all.equal(unname(as_points(f$grid, arg)), unname(as_points(grid, "grid"))))) {
      dpfda_abort(sprintf("`%s` is a curve on another grid than `grid`; evaluate it on `grid` first.", arg),
                  class = data_error_class, arg = arg)
    }
    f$values[1L, ]
  }
  v <- if (is.function(f)) {
    # the user's function: its errors become classed, its warnings are passed on classed
    withCallingHandlers(
      tryCatch(f(grid), error = function(e) {
        dpfda_abort(sprintf("`%s` failed on the grid: %s", arg, conditionMessage(e)), arg = arg)
      }),
      warning = function(w) {
        dpfda_warn(sprintf("`%s` warned on the grid: %s", arg, conditionMessage(w)), "dpfda_warning_target")
        invokeRestart("muffleWarning")
      })
  } else f
  # (a function may return one curve on the grid, as kde_gaussian() does; dp_bernstein() took it and
  # this refused it as "not a list of length 1")
  if (inherits(v, "dpfda_curves")) v <- one_curve(v)
  if (!is.numeric(v) || length(v) != m || !all(is.finite(v))) {
    arg_error(arg, sprintf("a function returning, or a vector of, %d finite values (one per grid point)", m), v,
              private = TRUE)
  }
  as.double(v)
}

# Shared by every GP-noise mechanism: add sigma times one GP path with the
# given kernel to `values` on `grid`, and wrap the result with the class
# constructor `build` (new_gp_release() or a subclass's; `...`: that class's
# own fields). The non-private values and the path never leave this function.
gp_release <- function(values, grid, kernel, sigma, mechanism, epsilon, delta, sensitivity,
                       method = "auto", call = NULL, ..., build = new_gp_release, noise_mode = "float") {
  if (noise_mode == "exact") {
    return(gp_release_exact(values, grid, kernel, sigma, mechanism, epsilon, delta, sensitivity,
                            call = call, ..., build = build))
  }
  # m: generous count of the normal draws behind one path (any sampler of rgp())
  check_float_tails("gaussian", epsilon, delta, m = 4 * grid_size(grid) + 1024,
                    shift = if (sigma > 0) sensitivity / sigma else 0, what = mechanism,
                    calibration = list(...)$calibration)
  noise <- rgp(1L, kernel, grid, method = method)
  released <- matrix(values, nrow = 1L) + sigma * noise$values
  vals <- new_dpfda_curves(released, noise$grid, as_domain(NULL, noise$grid))
  build(vals, mechanism = mechanism, epsilon = epsilon, delta = delta, sensitivity = sensitivity,
        noise_scale = sigma, noise = kernel, call = call, jitter = noise$jitter, sampler = noise$method, ...)
}

#' A release with Gaussian-process noise (dp_gp_release()): class
#' `dpfda_gp_release`. The fields of the GP-noise subclasses (dp_svm(),
#' dp_krr(), dp_kde() "gp"/"sobolev", dp_gp_regression(mechanism =
#' "standard"), dp_online()) start with the same noise fields.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `noise` is the kernel of the GP.
#' @param jitter Diagonal jitter added to the kernel matrix of the grid when
#'   drawing the path (kriging in predict() adds the same).
#' @param sampler How the path was drawn (rgp()'s method, or
#'   "whitened-exact").
#' @param noise_exact,grid_step,calibration_exact,zcdp_rho Exact noise only
#'   (noise = "exact"): TRUE, the grid step the whitened values were rounded
#'   to, "zcdp", and the zCDP rho of the discrete Gaussian.
#' @param calibration How sigma was calibrated ("analytic", "hall",
#'   "classical").
#' @param privacy_unit What the release protects, as printed (dp_gp_release():
#'   what `sensitivity` bounds).
#' @noRd
new_gp_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL, call = NULL,
                           jitter = NULL, sampler = NULL, noise_exact = NULL, grid_step = NULL,
                           calibration_exact = NULL, zcdp_rho = NULL, calibration = NULL, privacy_unit = NULL) {
  release_from_fields(new_gp_release, "dpfda_gp_release")
}

#' @export
release_predict.dpfda_gp_release <- function(object, newdata, ...) {
  kriging_predict(object$values, object$noise, newdata, object$jitter)
}

# Kriging (RKHS interpolation) of released curves at new points: the
# conditional mean of a path with covariance K + tau I given its values on
# the grid. Post-processing only: no fresh noise is drawn (privacy rule 3).
kriging_predict <- function(values, kernel, newdata, jitter = 0) {
  g <- as_points(values$grid, "grid")
  p <- as_points(newdata, "newdata", d = ncol(g))
  axes <- if (ncol(g) >= 2L && kernel_separable(kernel)) tensor_axes(g)
  if (!is.null(axes)) return(kriging_predict_kron(values$values, kernel, axes, p, jitter))
  check_alloc(as.double(nrow(g))^2 + as.double(nrow(g)) * nrow(p), "kriging system")
  K <- kernel_matrix(kernel, g)
  tau <- max(jitter, 1e-10 * kernel$variance)
  fct <- chol_jitter(K, jitter = tau / max(diag(K)))
  w <- backsolve(t(fct$L), forwardsolve(fct$L, t(values$values)))
  out <- kernel_matrix(kernel, p, g) %*% w
  if (ncol(out) == 1L) as.vector(out) else t(out)
}

# Kernels that are products of one-dimensional kernels of the coordinates:
# k(x, y) = v prod_d k1(x_d, y_d) (kernel_axis_factors() gives the k1).
kernel_separable <- function(kernel) !is.null(kernel_axis_factors(kernel, 2L))

# (x_d A_d) applied to each row of an r x prod(dims) matrix Z (the first axis fastest, as expand.grid()
# orders a tensor grid; A_d is p_d x dims[d]): Z (x_d A_d)', r x prod(p_d), one mode at a time, the
# Kronecker product never formed. The rows stay the fastest index, and each mode is one product per
# slice of the modes after it.
kron_rows_apply <- function(Z, mats, dims) {
  r <- nrow(Z)
  A <- Z
  lead <- r
  for (d in seq_along(dims)) {
    trail <- prod(dims[-seq_len(d)])
    Md <- t(mats[[d]])
    if (trail == 1) {
      A <- matrix(A, lead) %*% Md
    } else {
      dim(A) <- c(lead, dims[d], trail)
      out <- array(0, c(lead, ncol(Md), trail))
      for (k in seq_len(trail)) out[, , k] <- A[, , k] %*% Md
      A <- out
    }
    lead <- lead * ncol(Md)
  }
  dim(A) <- c(r, length(A) / r)
  A
}

# The eigendecompositions of the per-axis kernel matrices k1[[d]] on axes[[d]], and the eigenvalues
# of their Kronecker product in the tensor grid's order (the first axis fastest).
kron_axis_eigen <- function(k1, axes) {
  eig <- lapply(seq_along(axes), function(d) eigen(kernel_matrix(k1[[d]], matrix(axes[[d]], ncol = 1L)),
                                                   symmetric = TRUE))
  list(eig = eig, lam = Reduce(function(acc, e) as.vector(outer(acc, e$values)), eig[-1L], eig[[1L]]$values))
}

# Kriging on a tensor grid with a separable kernel, exactly as the dense
# kriging_predict() (same K + tau I, no approximation) but through the
# eigendecompositions K_d = Q_d diag(l_d) Q_d' of the one-dimensional factors:
# K + tau I = (x Q_d) (v x l_d + tau) (x Q_d)'. Memory O(sum m_d^2 + n m_d)
# instead of O(m^2) for m = prod m_d grid points (10^4 points: kilobytes, not
# 800 MB); the prediction k(x, grid)' w is a product of per-axis cross-kernels.
kriging_predict_kron <- function(values, kernel, axes, p, jitter) {
  v <- kernel$variance
  tau <- max(jitter, 1e-10 * v)
  dims <- lengths(axes)
  D <- length(axes)
  # one unit-variance kernel per axis, with that axis's lengthscale (the whole kernel on one column
  # recycled a lengthscale per axis over the points: wrong predictions with kernel_gaussian(c(30, 7)))
  k1 <- kernel_axis_factors(kernel, D)
  ke <- kron_axis_eigen(k1, axes)
  eig <- ke$eig
  lam <- ke$lam
  den <- v * lam + tau
  mode_apply <- function(Y, mats) t(kron_rows_apply(t(Y), mats, dims))   # (on the columns of Y)
  Y <- t(values)                                              # m x r
  W <- mode_apply(Y, lapply(eig, function(e) t(e$vectors)))   # Q' y
  W <- W / den
  W <- mode_apply(W, lapply(eig, function(e) e$vectors))      # (K + tau I)^{-1} y
  # k(p, grid)' w = v sum over the grid of prod_d k1(p_d, axis_d) w
  Kp <- lapply(seq_len(D), function(d) kernel_matrix(k1[[d]], p[, d, drop = FALSE], matrix(axes[[d]], ncol = 1L)))
  out <- vapply(seq_len(ncol(W)), function(j) {
    A <- array(W[, j], dims)
    # contract the last axes first: T_i = sum over axes 2..D, then axis 1
    Tm <- matrix(A, dims[1L])                                 # m_1 x prod(rest)
    if (D == 1L) return(v * as.vector(Kp[[1L]] %*% Tm))
    acc <- Kp[[1L]] %*% Tm                                     # n x prod(rest)
    for (d in 2:D) {
      rest <- prod(dims[-seq_len(d)])
      acc3 <- array(acc, c(nrow(p), dims[d], rest))
      acc <- matrix(0, nrow(p), rest)
      for (b in seq_len(dims[d])) acc <- acc + Kp[[d]][, b] * acc3[, b, ]
    }
    v * as.vector(acc)
  }, numeric(nrow(p)))
  if (ncol(W) == 1L) as.vector(out) else t(out)
}

# Exact (discrete Gaussian) noise in the whitened coordinates w = L^-1 f,
# L L' = K + tau I: ||L^-1 (f - f')||_2 <= ||f - f'||_H (the jitter only
# shrinks it), so w is a Gaussian-mechanism summary with L2 sensitivity
# `sensitivity`. w is rounded to the grid of step g (exact_lattice(): in units of sigma; L2
# sensitivity + sqrt(m) g),
# discrete Gaussian noise calibrated by zCDP is added, and L w~ is released
# (post-processing). See ?exact_noise.
gp_release_exact <- function(values, grid, kernel, sigma, mechanism, epsilon, delta, sensitivity,
                             call = NULL, ..., build = new_gp_release) {
  ex <- gp_exact_path(values, grid, kernel, sigma, sensitivity, epsilon, delta)
  vals <- new_dpfda_curves(matrix(ex$values, nrow = 1L), grid, as_domain(NULL, grid))
  build(vals, mechanism = mechanism, epsilon = epsilon, delta = delta, sensitivity = sensitivity,
        noise_scale = ex$sigma, noise = kernel, call = call, jitter = ex$jitter, sampler = "whitened-exact",
        noise_exact = TRUE, grid_step = ex$step, calibration_exact = "zcdp", zcdp_rho = ex$rho, ...)
}

# The core of the above, shared with dp_mean(mechanism = "gp"): `values` on
# `grid` plus exact noise; returns the released values, the discrete Gaussian
# sigma, the grid step, zCDP rho and the jitter of the factor.
gp_exact_path <- function(values, grid, kernel, sigma, sensitivity, epsilon, delta) {
  if (is.list(grid)) {
    dpfda_abort("`noise = \"exact\"` needs the grid as a vector or matrix of points, not a list of axes.",
                arg = "grid")
  }
  pts <- as_points(grid, "grid")
  m <- nrow(pts)
  if (m > 4000L) {
    dpfda_abort(sprintf("`noise = \"exact\"` whitens with a dense Cholesky factor: at most 4000 grid points, not %d.",
                        m), arg = "grid")
  }
  fct <- chol_jitter(kernel_matrix(kernel, pts), jitter = 1e-10)
  w <- forwardsolve(fct$L, values)
  ex <- gp_exact_sigma(sigma, sensitivity, m, epsilon, delta)
  wt <- exact_gaussian_noise(w, ex$sigma, ex$lattice$k, ex$lattice$unit)
  released <- as.vector(fct$L %*% wt)
  rm(w, wt)
  list(values = released, sigma = ex$sigma, step = ex$lattice$step, rho = ex$rho, jitter = fct$jitter)
}

# The discrete Gaussian of an exact GP release on m points, from the float calibration `sigma`:
# the lattice (in units of the noise: R/noise-exact.R, exact_lattice()), the sensitivity with the
# rounding to it, and the zCDP sigma and rho. Public; dp_accuracy() plans with it.
gp_exact_sigma <- function(sigma, sensitivity, m, epsilon, delta) {
  lat <- exact_lattice(max(sigma, sensitivity * 1e-12, .Machine$double.xmin * 2^40), "gaussian")
  sens <- sensitivity + exact_rounding(m, lat$step, "l2")
  sig <- exact_gaussian_sigma(sens, epsilon, delta)
  list(sigma = sig, lattice = lat, rho = sens^2 / (2 * sig^2))
}
