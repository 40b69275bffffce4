# The exponential mechanism (McSherry & Talwar; Hall et al. Section 3.2).

#' Exponential mechanism
#'
#' Selects candidate \eqn{i} with probability proportional to
#' \eqn{\exp(\epsilon u_i / (2 \Delta_u))}, where \eqn{u_i} are utilities and
#' \eqn{\Delta_u} is their public sensitivity (the largest change of any
#' \eqn{u_i} between neighbouring data sets): \eqn{\epsilon}-DP. Sampling uses
#' the Gumbel-max trick in log space, \eqn{\arg\max_i \epsilon u_i/(2\Delta_u)
#' + G_i} with \eqn{G_i = -\log E_i} from the package's noise source, so huge
#' utilities neither overflow nor underflow.
#'
#' Hall et al. (Section 3.2) select a function \eqn{g_i} from a finite class
#' with utility \eqn{-d(g_i, f_D)}; their display omits \eqn{\Delta_u}, which
#' is correct only when the distance has sensitivity 1. For a norm distance,
#' \eqn{\Delta_u \le \sup \|f_D - f_{D'}\|} by the triangle inequality.
#'
#' @param utility Numeric vector of finite utilities (higher is better).
#' @param sensitivity Public sensitivity \eqn{\Delta_u > 0} of the utilities.
#' @param epsilon Privacy parameter.
#' @param budget `NULL`, or a [privacy_budget()] to charge (the release is
#'   refused, with an error of class `dpfda_error_budget`, when it would
#'   exceed the budget).
#' @return An object of class `dpfda_selection` with the selected `index`,
#'   `epsilon`, `sensitivity`, the number of candidates and the rng mode.
#' @examples
#' s <- dp_select(c(1, 5, 2), sensitivity = 1, epsilon = 2)
#' s$index
#' @export
dp_select <- function(utility, sensitivity, epsilon, budget = NULL) {
  require_args(c("utility", "sensitivity", "epsilon"), "dp_select",
               advice = list(utility = "the private utility of each candidate (a numeric vector)"))
  warn_privacy(epsilon)
  budget <- check_budget(budget)
  utility <- check_numeric_vector(utility, "utility")
  sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, lower_open = TRUE,
                              class = "dpfda_error_privacy")
  epsilon <- check_epsilon(epsilon)
  score <- epsilon * utility / (2 * sensitivity)
  if (!all(is.finite(score))) {
    dpfda_abort("`utility` times epsilon / (2 sensitivity) overflows.", class = "dpfda_error_numeric",
                arg = "utility")
  }
  charge_budget(budget, epsilon, 0, "dp_select")
  g <- -log(noise_draw(length(score), "exponential"))
  structure(list(index = which.max(score + g), epsilon = epsilon, sensitivity = sensitivity,
                 n_candidates = length(score), rng = dp_rng()),
            class = "dpfda_selection")
}

# Exact selection probabilities (for tests and documentation), log-sum-exp.
select_probabilities <- function(utility, sensitivity, epsilon) {
  s <- epsilon * utility / (2 * sensitivity)
  p <- exp(s - max(s))
  p / sum(p)
}

#' @export
print.dpfda_selection <- function(x, ...) {
  cat(sprintf("<dpfda_selection> candidate %d of %d, epsilon = %s (exponential mechanism)\n",
              x$index, x$n_candidates, format(x$epsilon, digits = 4)))
  if (identical(x$rng, "seeded")) cat("  noise source: seeded (reproducible from the seed, NOT private)\n")
  invisible(x)
}
