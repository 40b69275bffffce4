# Bounded tails of the floating-point samplers (src/rng.c) and the regime in
# which float noise keeps its privacy claim. Internal API:
#
#   float_tail_gaussian(shift, m)   # mass the shifted neighbour puts outside the other's support
#   float_tail_laplace(epsilon, m)
#   check_float_tails(type, epsilon, delta, m, shift, what)   # refuse, classed, outside the regime

#' Tails of floating-point noise and the regime of `noise = "float"`
#'
#' The floating-point samplers of dpfda (see [dp_rng()]) turn one 53-bit
#' uniform into a variate, so they cannot return arbitrarily large values:
#' a standard Gaussian variate has \eqn{|Z| \le z_{\max} =
#' \Phi^{-1}(1 - 2^{-55}) \approx 8.3744} and a unit Laplace variate
#' \eqn{|L| \le 54 \log 2 \approx 37.43}. A release of one data set then
#' never lands beyond the cut-off, while the release of a neighbouring data
#' set, whose mean is shifted, does with some probability \eqn{t}: on those
#' outputs the privacy loss is infinite, and the mechanism is only
#' \eqn{(\epsilon, \delta + t)}-DP. (Inside the common support the density
#' ratio is that of the untruncated noise, so \eqn{t} is the whole damage.)
#'
#' **Bounds.** For Gaussian noise with \eqn{m} standard normal draws and a
#' neighbour shift of L2 norm \eqn{s} standard deviations (\eqn{s =
#' \Delta/\sigma}),
#' \deqn{t \le \bar\Phi(z_{\max} - s) + \sqrt m\, s\, \varphi(z_{\max} - 1/2)
#' + m\, 2^{-54}}
#' (the worst case puts the whole shift on one coordinate; the middle term
#' covers shifts spread over many coordinates, the last the granularity of
#' the sampler). For Laplace noise calibrated to pure \eqn{\epsilon}-DP
#' (\eqn{\sum_j |{\rm shift}_j| / b_j \le \epsilon} over \eqn{m}
#' coordinates), \eqn{t \le 2^{-55} (e^\epsilon + 2m)}.
#'
#' **Regime.** dpfda uses float noise only where
#' * Gaussian: \eqn{t \le \delta / 10} (so the release is
#'   \eqn{(\epsilon, 1.1\,\delta)}-DP at worst); with the analytic
#'   calibration this holds up to \eqn{\epsilon \approx 24.4} at
#'   \eqn{\delta = 10^{-3}}, 21.3 at \eqn{10^{-5}} and 15.6 at
#'   \eqn{10^{-8}} (for \eqn{m} from 100 to \eqn{10^6}); at
#'   \eqn{\delta = 10^{-12}} only up to 4.5 with \eqn{m = 100}, and not at
#'   all from \eqn{m = 10^4} on (the granularity term \eqn{m 2^{-54}}
#'   alone exceeds \eqn{\delta/10});
#' * Laplace: \eqn{t \le 10^{-10}}. A pure \eqn{\epsilon}-DP claim has no
#'   \eqn{\delta} to absorb the tail; relative to the \eqn{e^\epsilon} of the
#'   claim the tail is constant (\eqn{t / e^\epsilon \approx 2^{-55}}), so
#'   the rule bounds its absolute size: the release is
#'   \eqn{(\epsilon, 10^{-10})}-DP at worst. This holds up to
#'   \eqn{\epsilon \approx 15.1} (14.3 with \eqn{10^6} coordinates).
#'
#' Outside the regime a mechanism with `noise = "float"` stops, before
#' drawing any noise, with an error of class `dpfda_error_tail` (also
#' `dpfda_error_privacy`) that names the tail mass and suggests
#' `noise = "exact"`: the exact samplers ([exact_noise]) draw integers with
#' unbounded support and have no cut-off. The issue-16 example, the Gaussian
#' mechanism at \eqn{\epsilon = 30}, \eqn{\delta = 10^{-5}} (shift 4.657
#' standard deviations, \eqn{t \approx 10^{-4}}, ten times \eqn{\delta}), is
#' refused.
#'
#' Seeded mode (`dp_reproducible()`) is not private anyway; the same rule is
#' applied so that results do not depend on the mode. Not checked:
#' `calibration = "hall"` beyond \eqn{\epsilon = 1}, which needs
#' `allow_large_epsilon = TRUE` and carries no guarantee in the first place.
#'
#' @name float_tails
#' @seealso [exact_noise], [dp_noise_scale()], [dp_rng()]
#' @examples
#' # the largest values the float samplers can return
#' stats::qnorm(2^-55, lower.tail = FALSE)
#' 54 * log(2)
#' # epsilon = 30, delta = 1e-5 is outside the regime of float Gaussian noise
#' grid <- seq(0, 1, length.out = 20)
#' try(dp_gp_release(sin(2 * pi * grid), grid, kernel_gaussian(0.2), sensitivity = 0.1,
#'                   epsilon = 30, delta = 1e-5))
NULL

float_gauss_zmax <- function() stats::qnorm(2^-55, lower.tail = FALSE)
float_laplace_max <- function() 54 * log(2)

# Upper bound on the probability that the neighbour shifted by an L2 norm of
# `shift` standard deviations, with m normal draws, lands outside the cube
# [-zmax, zmax]^m of the unshifted one. Derivation (x_i = |shift_i|):
#  * per coordinate P_float(Z > a) <= Phi-bar(a) + 2^-55 (one 2^-54 atom, half of it per sign);
#  * coordinates with x_i <= 1/2: Phi-bar(z - x) <= Phi-bar(z) + x phi(z - 1/2) and
#    sum x_i <= sqrt(m) s;
#  * coordinates with x_i > 1/2: u -> Phi-bar(z - sqrt(u)) / u is non-decreasing while
#    x (z - x) >= 2 (Mills ratio), so their sum is at most Phi-bar(z - s).
float_tail_gaussian <- function(shift, m) {
  z <- float_gauss_zmax()
  s <- shift
  if (!(s > 0)) return(0)
  if (!is.finite(s) || (s > 0.5 && s * (z - s) < 2)) return(1)
  t <- stats::pnorm(z - s, lower.tail = FALSE) + sqrt(m) * s * stats::dnorm(z - 0.5) + m * 2^-54
  min(1, t)
}

# The same for Laplace noise of pure epsilon-DP: per coordinate
# P_float(L > a) <= exp(-a) / 2 + 2^-55 with cut-off T = 54 log 2, so the mass
# beyond it is at most 2^-55 (e^{s_j} + 1); sum_j e^{s_j} under sum_j s_j <=
# epsilon is largest at one coordinate: 2^-55 (e^epsilon + 2m).
float_tail_laplace <- function(epsilon, m) {
  min(1, 2^-55 * (exp(epsilon) + 2 * m))
}

float_tail_laplace_limit <- function() 1e-10

# Internal test hook, not exported: the noiseless limit (epsilon -> Inf) of a
# mechanism is checked against its non-private target with float noise at
# epsilon = 1e12, where no privacy is claimed (exact noise has no tail limit and
# is checked over the whole range of epsilon in test-noise-exact.R).
float_tail_state <- new.env(parent = emptyenv())
float_tail_state$enforce <- TRUE
without_float_tail_check <- function(expr) {
  old <- float_tail_state$enforce
  float_tail_state$enforce <- FALSE
  on.exit(float_tail_state$enforce <- old, add = TRUE)
  expr
}

# Refuse float noise outside its regime (see ?float_tails). type "gaussian"
# (shift = L2 sensitivity / sigma; NULL: the largest shift any valid
# calibration of (epsilon, delta) uses, 1 / analytic sigma) or "laplace"
# (epsilon = the largest sum over coordinates of |shift_j| / b_j, which is the
# claimed epsilon for the pure Laplace mechanism).
check_float_tails <- function(type = c("gaussian", "laplace"), epsilon, delta = 0, m = 1,
                              shift = NULL, what = "this release", calibration = NULL) {
  type <- match.arg(type)
  # calibration = "hall" beyond epsilon = 1 needs allow_large_epsilon = TRUE and is documented
  # to carry no guarantee at all (the paper's figures): nothing left to protect
  if (identical(calibration, "hall") && epsilon > 1) return(invisible(NA_real_))
  if (!isTRUE(float_tail_state$enforce)) return(invisible(NA_real_))
  m <- max(1, as.double(m))
  if (type == "gaussian") {
    if (is.null(shift)) shift <- 1 / analytic_gaussian_sigma(epsilon, delta)
    t <- float_tail_gaussian(shift, m)
    limit <- delta / 10
  } else {
    t <- float_tail_laplace(epsilon, m)
    # a release that claims a delta may spend a tenth of it on the tail, as for Gaussian noise
    limit <- max(float_tail_laplace_limit(), delta / 10)
  }
  if (!(t <= limit)) {
    # (formatted only here: this check runs on every float release)
    detail <- if (type == "gaussian") {
      sprintf("a shift of %s standard deviations against the float Gaussian cut-off %s",
              format(shift, digits = 4), format(float_gauss_zmax(), digits = 5))
    } else {
      sprintf("epsilon = %s against the float Laplace cut-off %s scales",
              format(epsilon, digits = 4), format(float_laplace_max(), digits = 4))
    }
    dpfda_abort(sprintf(paste("Float noise cannot keep the privacy claim of %s: with %s, a neighbouring",
                              "data set lands beyond the largest value the sampler returns with",
                              "probability up to %s (more than the allowed %s). Use noise = \"exact\"",
                              "(unbounded discrete noise) or a smaller epsilon; see ?float_tails."),
                        what, detail, format(t, digits = 3), format(limit, digits = 3)),
                class = c("dpfda_error_tail", "dpfda_error_privacy"), tail_mass = t, limit = limit)
  }
  invisible(t)
}
