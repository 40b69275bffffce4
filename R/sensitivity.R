# Public sensitivities of the summaries released by the mechanisms.

#' RKHS sensitivity of the Gaussian kernel density estimate
#'
#' Replace-one sensitivity, in the RKHS of the noise kernel, of the Gaussian
#' KDE with \eqn{n} points (Hall, Rinaldo and Wasserman 2013, Sections
#' 4.1--4.2).
#'
#' * `mechanism = "gp"`: the noise kernel is the KDE's own kernel, unnormalised
#'   (\eqn{\exp(-\frac12 (x-y)^\top H^{-1}(x-y))}), and
#'   \eqn{\Delta = \sqrt2 / (n (2\pi)^{d/2} |H|^{1/2})}, i.e.
#'   \eqn{\sqrt2/(n(2\pi h^2)^{d/2})} for \eqn{H = h^2 I}. Proof: \eqn{f_D -
#'   f_{D'} = a (K_{x_n} - K_{x_n'})} with \eqn{a} the normalising constant
#'   over \eqn{n}, whose squared RKHS norm is \eqn{a^2 (2 - 2K(x_n, x_n')) \le
#'   2a^2}. Computed in log space.
#' * `mechanism = "sobolev"`: the noise kernel is \eqn{\exp(-\|x-y\|_1/h)}
#'   (the Sobolev space \eqn{H^1} with \eqn{\gamma = 1/h}) and \eqn{\Delta =
#'   2/((2\pi)^{d/4} n h^d)}. The paper's intermediate constants contain two
#'   errors (\eqn{\int\phi^2 = 1/(2\sqrt\pi h)}, \eqn{\sup\phi^2 = 1/(2\pi
#'   h^2)}); with them corrected the bound still holds (0.3707 <= 0.3989), so
#'   this value is correct. Isotropic bandwidth only.
#'
#' **Binned estimates.** The binned KDE of [kde_gaussian()] replaces each
#' point's kernel by a convex combination \eqn{u = \sum_b w_b K_{c_b}} of
#' kernels at bin centres. For the Gaussian noise kernel \eqn{\|u\|^2 \le 1}
#' (convexity of the norm, \eqn{\|K_c\| = 1}) and \eqn{\langle u, v\rangle
#' \ge 0} (the kernel is non-negative), so \eqn{\|u - v\|^2 \le 2} and the same
#' \eqn{\Delta} holds. For the Sobolev kernel the triangle inequality gives
#' \eqn{\|u\| \le \max_b \|\phi_{c_b}\|}, so the same bound holds too.
#'
#' @param n Number of data points (public).
#' @param bandwidth \eqn{h}, per-dimension \eqn{h_j}, or a matrix \eqn{H}.
#' @param d Dimension (taken from a matrix or vector bandwidth when given; a
#'   `d` given as well must agree with it, or is refused).
#' @param mechanism `"gp"` or `"sobolev"`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return \eqn{\Delta}.
#' @examples
#' sensitivity_kde(100, 0.1)                        # 0.05641896
#' sensitivity_kde(100, 0.1, mechanism = "sobolev") # 0.1263238
#' sensitivity_kde(100, diag(c(0.01, 0.04)))
#' @export
sensitivity_kde <- function(n, bandwidth, d = 1L, mechanism = c("gp", "sobolev"), ...) {
  check_dot_names(dot_args(), character(), "sensitivity_kde")
  check_required()
  n <- check_count(n, "n", max = 1e15)
  mechanism <- check_mechanism(mechanism, c("gp", "sobolev"), "sensitivity_kde")
  # (a `d` that contradicts the bandwidth was ignored: the bandwidth's dimension, a smaller sensitivity)
  d_given <- !missing(d)
  d_bw <- if (is.matrix(bandwidth)) nrow(bandwidth) else if (is.numeric(bandwidth) && length(bandwidth) > 1L) {
    length(bandwidth)
  }
  if (!is.null(d_bw)) {
    if (d_given) check_dim_agrees(check_count(d, "d", max = 1e4), d_bw, "d")
    d <- d_bw
  } else {
    d <- check_count(d, "d", max = 1e4)
  }
  bw <- as_bandwidth(bandwidth, d)
  out <- if (mechanism == "gp") {
    exp(0.5 * log(2) - log(n) - 0.5 * d * log(2 * pi) - 0.5 * bw$logdet)
  } else {
    if (!bw$isotropic) {
      dpfda_abort(paste("The Sobolev mechanism needs an isotropic (scalar) bandwidth, not one per axis.",
                        "Rescale the columns so that one bandwidth suits all of them, or use mechanism = \"gp\",",
                        "which takes a bandwidth per axis or a matrix."), arg = "bandwidth")
    }
    exp(log(2) - 0.25 * d * log(2 * pi) - log(n) - d * log(sqrt(bw$H[1, 1])))
  }
  if (!is.finite(out)) {
    dpfda_abort("The KDE sensitivity overflows for this bandwidth; use a larger bandwidth.",
                class = "dpfda_error_numeric", arg = "bandwidth")
  }
  out
}

#' Norm of the Sobolev space H^1 with the exponential kernel
#'
#' The norm of the RKHS of \eqn{K(x, y) = \exp(-\gamma |x - y|)} on
#' \eqn{[a, b]} (Hall et al. 2013, eq. 10, with its parenthesis typo
#' corrected): \deqn{\|f\|^2 = \tfrac12 (f(a)^2 + f(b)^2) + \frac{1}{2\gamma}
#' \int_a^b (f'(t)^2 + \gamma^2 f(t)^2)\, dt,} computed with
#' [stats::integrate()]. Use it to check a sensitivity bound for a family of
#' functions numerically; a numerical norm of sampled functions is a test tool,
#' not a proof of a bound.
#'
#' @param f,fprime The function and its derivative (vectorised R functions).
#' @param gamma The kernel's rate \eqn{\gamma > 0} (\eqn{1/\ell}).
#' @param lower,upper The interval.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The norm \eqn{\|f\|}.
#' @examples
#' g <- 3; s <- 0.4
#' k <- function(t) exp(-g * abs(t - s))
#' dk <- function(t) -g * sign(t - s) * exp(-g * abs(t - s))
#' sobolev_norm_1d(k, dk, g) # 1: the norm of a kernel section
#' @export
sobolev_norm_1d <- function(f, fprime, gamma, lower = 0, upper = 1, ...) {
  check_dot_names(dot_args(), character(), "sobolev_norm_1d")
  check_required()
  if (!is.function(f)) arg_error("f", "a function", f)
  if (!is.function(fprime)) arg_error("fprime", "a function", fprime)
  gamma <- check_number(gamma, "gamma", lower = 0, lower_open = TRUE)
  lower <- check_number(lower, "lower")
  upper <- check_number(upper, "upper")
  if (!(upper > lower)) arg_error("upper", sprintf("greater than `lower` (%s)", format(lower)), upper)
  # the user's functions must be vectorised and finite: anything else is a classed error
  checked <- function(g, arg) {
    force(g)
    function(t) {
      v <- tryCatch(g(t),
                    error = function(e) dpfda_abort(sprintf("`%s` failed: %s", arg, conditionMessage(e)), arg = arg),
                    warning = function(w) dpfda_abort(sprintf("`%s` warned: %s", arg, conditionMessage(w)), arg = arg))
      if (!is.numeric(v) || length(v) != length(t) || !all(is.finite(v))) {
        arg_error(arg, "a vectorised function returning one finite value per point", v, private = TRUE)
      }
      v
    }
  }
  f <- checked(f, "f")
  fprime <- checked(fprime, "fprime")
  integrand <- function(t) fprime(t)^2 + gamma^2 * f(t)^2
  int <- tryCatch(stats::integrate(integrand, lower, upper, subdivisions = 1000L,
                                   rel.tol = 1e-10)$value,
                  dpfda_error = function(e) stop(e),
                  error = function(e) dpfda_abort(sprintf("Integration failed: %s", conditionMessage(e)),
                                                  class = "dpfda_error_numeric"))
  sqrt(0.5 * (f(lower)^2 + f(upper)^2) + int / (2 * gamma))
}
