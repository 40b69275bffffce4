# Calibration of Gaussian noise: from sensitivity and (epsilon, delta) to sigma.

#' The constant c(delta) of Hall, Rinaldo and Wasserman
#'
#' \eqn{c(\delta) = \sqrt{2 \log(2/\delta)}}, their equation (6): with noise
#' \eqn{c(\delta)\Delta/\epsilon} times a Gaussian process whose RKHS measures
#' the sensitivity \eqn{\Delta}, the release is \eqn{(\epsilon, \delta)}-DP for
#' \eqn{\epsilon \le 1}.
#'
#' @param delta A number in (0, 1).
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return \eqn{c(\delta)}.
#' @examples
#' dp_cdelta(0.1) # 2.447746831
#' @export
dp_cdelta <- function(delta, ...) {
  check_dot_names(dot_args(), character(), "dp_cdelta")
  check_required()
  delta <- check_number(delta, "delta", lower = 0, upper = 1, lower_open = TRUE,
                        upper_open = TRUE, what = "a number in (0, 1)",
                        class = "dpfda_error_privacy")
  out <- sqrt(2 * log(2 / delta))
  # 2 / delta overflows for subnormal delta; the difference of logs does not
  if (!is.finite(out)) out <- sqrt(2 * (log(2) - log(delta)))
  out
}

#' Noise scale of the Gaussian mechanism
#'
#' The standard deviation \eqn{\sigma} of Gaussian noise (or the multiplier of
#' a Gaussian process path) that makes a release with L2 / RKHS sensitivity
#' \eqn{\Delta} \eqn{(\epsilon, \delta)}-differentially private.
#'
#' * `"analytic"` (default): the smallest \eqn{\sigma} for which the exact
#'   privacy profile of the Gaussian mechanism (Balle and Wang, 2018),
#'   \deqn{\delta(\epsilon) = \Phi\left(\frac{\Delta}{2\sigma} -
#'   \frac{\epsilon\sigma}{\Delta}\right) - e^{\epsilon}
#'   \Phi\left(-\frac{\Delta}{2\sigma} - \frac{\epsilon\sigma}{\Delta}\right),}
#'   is at most `delta`. Valid for every \eqn{\epsilon > 0} and never larger
#'   than the other two, for noise with unbounded tails: the package's
#'   floating-point sampler stops at about 8.37 standard deviations, so the
#'   mechanisms refuse float noise at large \eqn{\epsilon} (about 21 at
#'   \eqn{\delta = 10^{-5}}; see [float_tails]) and take `noise =
#'   "exact"` there. Found by bisection on \eqn{\log \sigma} to a relative
#'   precision of \eqn{10^{-12}}, returning the upper end of the bracket so the
#'   guarantee holds.
#' * `"hall"`: \eqn{c(\delta)\Delta/\epsilon} with [dp_cdelta()] (the papers'
#'   calibration); proven only for \eqn{\epsilon \le 1}, so larger
#'   \eqn{\epsilon} is refused unless `allow_large_epsilon = TRUE` (it does
#'   fail for \eqn{\epsilon} around 10: where the Gaussian mechanism's exact
#'   \eqn{\delta} at this \eqn{\sigma} exceeds the one claimed, a warning of
#'   class `dpfda_warning_privacy` gives it, and a release made so records
#'   that true \eqn{\delta} as its `delta`, with the one asked for as
#'   `delta_claimed`, and charges a budget with it).
#' * `"classical"`: \eqn{\sqrt{2\log(1.25/\delta)}\Delta/\epsilon} (Dwork and
#'   Roth, Theorem A.1), valid for \eqn{\epsilon < 1} only.
#'
#' @param sensitivity Non-negative L2 (or RKHS / Mahalanobis) sensitivity.
#' @param epsilon Positive privacy parameter.
#' @param delta Number in (0, 1).
#' @param calibration One of `"analytic"`, `"hall"`, `"classical"`.
#' @param allow_large_epsilon Allow \eqn{\epsilon > 1} with `"hall"`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The noise scale \eqn{\sigma}.
#' @examples
#' dp_noise_scale(1, epsilon = 1, delta = 1e-5)
#' dp_noise_scale(1, epsilon = 1, delta = 1e-5, calibration = "hall")
#' dp_noise_scale(1, epsilon = 0.5, delta = 1e-5, calibration = "classical")
#' @export
dp_noise_scale <- function(sensitivity, epsilon, delta,
                           calibration = c("analytic", "hall", "classical"),
                           allow_large_epsilon = FALSE, ...) {
  check_dot_names(dot_args(), character(), "dp_noise_scale")
  check_required()
  sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, class = "dpfda_error_privacy")
  epsilon <- check_epsilon(epsilon)
  delta <- check_delta(delta, zero = gaussian_delta_zero("this release"))
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  allow_large_epsilon <- check_flag(allow_large_epsilon, "allow_large_epsilon")
  if (sensitivity == 0) return(0)
  sigma <- switch(calibration,
    hall = {
      if (epsilon > 1 && !allow_large_epsilon) {
        dpfda_abort(sprintf(paste0("`epsilon` must be at most 1 for calibration = \"hall\" ",
                                   "(the bound is proven only there), not %s. Use calibration = ",
                                   "\"analytic\", or allow_large_epsilon = TRUE."), format(epsilon)),
                    class = "dpfda_error_privacy", arg = "epsilon")
      }
      sg <- dp_cdelta(delta) * sensitivity / epsilon
      if (epsilon > 1) warn_hall_beyond_one(epsilon, delta, sensitivity / sg)
      sg
    },
    classical = {
      if (epsilon >= 1) {
        dpfda_abort(sprintf(paste0("`epsilon` must be below 1 for calibration = \"classical\", ",
                                   "not %s. Use calibration = \"analytic\"."), format(epsilon)),
                    class = "dpfda_error_privacy", arg = "epsilon")
      }
      cl <- sqrt(2 * log(1.25 / delta))
      if (!is.finite(cl)) cl <- sqrt(2 * (log(1.25) - log(delta)))
      cl * sensitivity / epsilon
    },
    analytic = sensitivity * analytic_gaussian_sigma(epsilon, delta)
  )
  if (!is.finite(sigma)) {
    dpfda_abort(sprintf("The noise scale overflows for sensitivity %s, epsilon %s and delta %s.",
                        format(sensitivity), format(epsilon), format(delta)),
                class = "dpfda_error_numeric")
  }
  sigma
}

check_epsilon <- function(epsilon, arg = "epsilon") {
  check_number(epsilon, arg, lower = 0, lower_open = TRUE, class = "dpfda_error_privacy")
}

# `zero`: why delta = 0 (pure DP, a natural thing to ask for) is refused here and what to
# do instead; said in place of the bare range.
check_delta <- function(delta, arg = "delta", zero = NULL) {
  if (!is.null(zero) && is.numeric(delta) && length(delta) == 1L && isTRUE(delta == 0)) {
    dpfda_abort(sprintf("`%s` is 0 (pure DP), but %s.", arg, zero), class = c("dpfda_error_privacy", "dpfda_error_argument"),
                arg = arg)
  }
  check_number(delta, arg, lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
               what = "a number in (0, 1)", class = "dpfda_error_privacy")
}

#' Exact privacy profile of the Gaussian mechanism
#'
#' \eqn{\delta(\epsilon)} of Balle and Wang (2018) for Gaussian noise of
#' standard deviation `sigma` and L2 sensitivity `sensitivity`, computed in
#' log space so it stays accurate for large \eqn{\epsilon} and tiny
#' \eqn{\delta}. Used to verify every Gaussian calibration.
#'
#' @param epsilon Non-negative numbers.
#' @param sigma Noise standard deviation.
#' @param sensitivity L2 sensitivity.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The smallest \eqn{\delta} for which the mechanism is
#'   \eqn{(\epsilon, \delta)}-DP, for each `epsilon`.
#' @examples
#' gaussian_delta(1, sigma = dp_noise_scale(1, 1, 1e-5), sensitivity = 1) # <= 1e-5
#' @export
gaussian_delta <- function(epsilon, sigma, sensitivity = 1, ...) {
  check_dot_names(dot_args(), character(), "gaussian_delta")
  check_required()
  ok <- is.numeric(epsilon) && length(epsilon) >= 1L && all(is.finite(epsilon)) && all(epsilon >= 0)
  if (!isTRUE(ok)) arg_error("epsilon", "non-negative finite numbers", epsilon, "dpfda_error_privacy")
  sigma <- check_number(sigma, "sigma", lower = 0, lower_open = TRUE)
  sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, lower_open = TRUE)
  gaussian_delta_unit(epsilon, sensitivity / sigma)
}

# calibration = "hall" beyond epsilon = 1 (allowed for the papers' figures): the Gaussian
# mechanism's exact delta at this sigma, said when it exceeds the delta the release will claim
# (at epsilon = 10, delta = 1e-5 it is 1.36e-5; the print and the budget record the claim).
warn_hall_beyond_one <- function(epsilon, delta, shift) {
  true_delta <- gaussian_delta_unit(epsilon, shift)
  if (true_delta > delta * (1 + 1e-9)) {
    dpfda_warn(sprintf(paste("calibration = \"hall\" beyond epsilon = 1 has no proven guarantee, and here it fails:",
                             "its noise gives (epsilon = %s, delta = %s)-DP, not the delta = %s asked for; a release",
                             "records that true delta (and a budget is charged with it). Use calibration =",
                             "\"analytic\" for the guarantee asked for."),
                       format(epsilon), format(true_delta, digits = 3), format(delta)),
               class = "dpfda_warning_privacy")
  }
  invisible(true_delta)
}

# delta(eps) for a Gaussian shift of D standard deviations.
gaussian_delta_unit <- function(epsilon, D) {
  if (D == 0) return(rep(0, length(epsilon)))   # no shift: no privacy loss
  a <- D / 2 - epsilon / D
  b <- -D / 2 - epsilon / D
  l1 <- stats::pnorm(a, log.p = TRUE)
  l2 <- epsilon + stats::pnorm(b, log.p = TRUE)
  # exp(l1) - exp(l2) = exp(l1) * (1 - exp(l2 - l1)); l2 < l1 always
  out <- exp(l1) * -expm1(pmin(l2 - l1, 0))
  out[l1 == -Inf] <- 0   # both terms underflow (huge epsilon / D): -Inf - -Inf would be NaN
  pmax(0, out)
}

# Calibrations are pure functions of public numbers found by bisection (tens
# of R calls each); repeated releases (simulations, audits) look them up by
# the exact bits of their arguments.
calib_cache <- new.env(parent = emptyenv())
calib_memo <- function(what, args, compute) {
  key <- paste(what, paste(sprintf("%a", as.double(args)), collapse = ","))
  v <- calib_cache[[key]]
  if (is.null(v)) {
    v <- compute()
    if (length(calib_cache) >= 1000L) rm(list = ls(calib_cache, all.names = TRUE), envir = calib_cache)
    assign(key, v, envir = calib_cache)
  }
  v
}

# Smallest sigma (per unit sensitivity) with delta(epsilon) <= delta.
analytic_gaussian_sigma <- function(epsilon, delta, rel_tol = 1e-12) {
  if (length(epsilon) != 1L || length(delta) != 1L || length(rel_tol) != 1L) {
    return(analytic_gaussian_sigma_solve(epsilon, delta, rel_tol))
  }
  calib_memo("analytic", c(epsilon, delta, rel_tol),
             function() analytic_gaussian_sigma_solve(epsilon, delta, rel_tol))
}

analytic_gaussian_sigma_solve <- function(epsilon, delta, rel_tol) {
  ok <- function(s) gaussian_delta_unit(epsilon, 1 / s) <= delta
  hi <- 1
  while (!ok(hi)) {
    hi <- hi * 2
    if (!is.finite(hi)) {
      dpfda_abort(sprintf("No finite noise scale achieves delta = %s at epsilon = %s.",
                          format(delta), format(epsilon)), class = "dpfda_error_numeric")
    }
  }
  lo <- hi / 2
  while (ok(lo) && lo > 1e-300) lo <- lo / 2
  while ((hi - lo) > rel_tol * hi) {
    mid <- (lo + hi) / 2
    if (ok(mid)) hi <- mid else lo <- mid
  }
  hi
}
