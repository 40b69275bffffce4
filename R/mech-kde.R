# Private kernel density estimation (Hall, Rinaldo & Wasserman, Section 4).

#' Private kernel density estimate
#'
#' Releases a Gaussian kernel density estimate on a public grid with
#' Gaussian-process noise calibrated by its RKHS sensitivity (Hall, Rinaldo and
#' Wasserman 2013):
#'
#' * `mechanism = "gp"` (Section 4.1, 4.1.1): noise kernel
#'   \eqn{\exp(-\frac12 (x-y)^\top H^{-1} (x-y))}, the KDE's own kernel
#'   unnormalised; isotropic, per-dimension or full bandwidth matrix, any
#'   dimension. Smooth released curves.
#' * `mechanism = "sobolev"` (Section 4.2): noise kernel
#'   \eqn{\exp(-\|x-y\|_1/h)} (Sobolev space \eqn{H^1}, \eqn{\gamma = 1/h}),
#'   isotropic bandwidth; rougher curves and \eqn{\sqrt2(2\pi)^{d/4}} times
#'   larger sensitivity, but a general route for functions in \eqn{H^1}.
#'
#' The sensitivities are those of [sensitivity_kde()]; the noise scale is
#' [dp_noise_scale()] with the chosen `calibration` (the paper uses
#' `"hall"`). The grid, domain and bandwidth are public inputs and must not be
#' derived from the data: use [dp_bandwidth()] for a private bandwidth (its
#' budget is recorded in the release). Data outside `domain` are clamped to
#' it. The released curve is the raw noisy estimate (it may be negative and
#' need not integrate to one); [as_density()] post-processes it into a density.
#'
#' Large data sets in one dimension use the binned estimate of
#' [kde_gaussian()] (see `binned`); it has the same sensitivity, proved in
#' [sensitivity_kde()].
#'
#' @param x Private data: a vector or an `n x d` matrix. `n` is public.
#' @param grid Public evaluation points (see [curves()]); a list of axes gives
#'   a tensor grid, sampled by the fast Kronecker sampler.
#' @param bandwidth \eqn{h}, per-dimension \eqn{h_j}, a matrix \eqn{H}, or a
#'   `dpfda_bandwidth` from [dp_bandwidth()].
#' @param epsilon,delta Privacy parameters of this release.
#' @param mechanism `"gp"` or `"sobolev"`.
#' @param domain Public bounds for clamping the data (default: the range of
#'   the grid).
#' @param calibration See [dp_noise_scale()].
#' @param binned,bins See [kde_gaussian()].
#' @param ... Passed to [dp_noise_scale()] (e.g. `allow_large_epsilon`).
#' @return A `dpfda_release` (subclasses `dpfda_kde_release`,
#'   `dpfda_gp_release`) with the released curve, sensitivity, noise scale and
#'   noise kernel.
#' @references Hall, R., Rinaldo, A. and Wasserman, L. (2013). Differential
#'   privacy for functions and functional data. *JMLR* 14, 703--727.
#' @examples
#' x <- c(rnorm(50, 0.3, 0.1), rnorm(50, 0.7, 0.1))
#' grid <- seq(0, 1, length.out = 500)
#' r <- dp_kde(x, grid, bandwidth = 0.1, epsilon = 1, delta = 0.1, calibration = "hall")
#' r$noise_scale # 0.1380993
#' plot(r)
#' lines(kde_gaussian(x, grid, 0.1), col = "grey")
#' @export
dp_kde <- function(x, grid, bandwidth, epsilon, delta, mechanism = c("gp", "sobolev"),
                   domain = NULL, calibration = c("analytic", "hall", "classical"),
                   binned = NULL, bins = NULL, ...) {
  call <- match.call()
  if (missing(grid)) {
    dpfda_abort("`grid` is required: evaluation points must be public and chosen without looking at the data.",
                arg = "grid")
  }
  if (missing(bandwidth)) {
    dpfda_abort("`bandwidth` is required: give a public value or one released by dp_bandwidth().",
                arg = "bandwidth")
  }
  mechanism <- check_choice(mechanism, c("gp", "sobolev"), "mechanism")
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  epsilon <- check_epsilon(epsilon)
  delta <- check_delta(delta)
  grid <- as_grid(grid, "grid")
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  bw <- as_bandwidth(bandwidth, d)
  if (mechanism == "sobolev" && !bw$isotropic) {
    dpfda_abort("The Sobolev mechanism needs an isotropic (scalar) bandwidth.", arg = "bandwidth")
  }
  f <- kde_gaussian(x, grid, bandwidth, domain = domain, binned = binned, bins = bins)
  n <- nrow(as_points(x, "x", d = d))
  sens <- sensitivity_kde(n, if (is.matrix(bw$H) && !bw$isotropic) bw$H else sqrt(bw$H[1, 1]),
                          d = d, mechanism = mechanism)
  noise_kernel <- if (mechanism == "gp") bw$kernel else
    kernel_exponential(sqrt(bw$H[1, 1]), norm = "l1")
  sigma <- dp_noise_scale(sens, epsilon, delta, calibration = calibration, ...)
  bw_budget <- if (inherits(bandwidth, "dpfda_bandwidth")) bandwidth[c("epsilon", "delta")] else NULL
  gp_release(f$values[1L, ], f$grid, noise_kernel, sigma,
             mechanism = paste0("kde-", mechanism), epsilon = epsilon, delta = delta,
             sensitivity = sens, call = call, calibration = calibration, n = n,
             bandwidth = bw$H, domain = f$domain, bandwidth_budget = bw_budget,
             class = "dpfda_kde_release")
}
