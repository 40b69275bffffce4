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
#' @param noise `"exact"` (default) or `"float"`. `"exact"` samples the
#'   exponential mechanism exactly with integer arithmetic: the score gaps
#'   \eqn{g_i = \max_k s_k - s_i}, \eqn{s_i = \epsilon u_i/(2\Delta_u)},
#'   are rounded up to multiples of \eqn{2^{-j}} (and capped at
#'   \eqn{2^{52-j}}), and candidate \eqn{i}, proposed uniformly, is accepted
#'   with an exact Bernoulli\eqn{(e^{-g_i})} draw (Canonne, Kamath and
#'   Steinke, 2020) until one is accepted. The gaps are formed from the
#'   utilities (\eqn{u_{\max}/2 - u_i/2}, then the scale), so their
#'   floating-point error is relative to the gap, never to the size of the
#'   utilities; with the rounding up, every gap is off by less than
#'   \eqn{2^{1-j}}, which costs at most \eqn{2^{2-j}} of privacy. The gaps
#'   use \eqn{\epsilon (1 - 2^{-20})} and \eqn{j} is chosen so that
#'   \eqn{2^{2-j} \le 2^{-21}\epsilon}: the selection is \eqn{\epsilon}-DP
#'   exactly for any finite utilities (epsilon at least \eqn{2^{-29}};
#'   smaller is refused). `"float"`: the Gumbel-max trick with
#'   floating-point Gumbel variates (bounded to about \eqn{[-3.6, 37.4]},
#'   refused outside its regime, see [float_tails]). Measured CPU time of a
#'   whole call, exact against float: 0.06 against 0.24 ms for 10
#'   candidates, 0.13 against 0.23 ms for 1000 (0.07 against 0.21 ms at
#'   \eqn{\epsilon = 0.01}): exact is not slower, hence the default. The
#'   expected number of proposals is at most the number of candidates.
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return An object of class `dpfda_selection` with the selected `index`
#'   (and its name as `label` when `utility` is named: the candidates' names
#'   are public, all kept as `labels`), `epsilon`, `sensitivity`, the number of candidates and the
#'   rng mode.
#'   `glance()` gives them as one row (for [dp_gp_select()] also `delta`
#'   and `epsilon_regression`; never the utilities, which are not private).
#' @examples
#' s <- dp_select(c(1, 5, 2), sensitivity = 1, epsilon = 2)
#' s$index
#' @export
dp_select <- function(utility, sensitivity, epsilon, budget = NULL, noise = c("exact", "float"), ...) {
  check_required(c("utility", "sensitivity", "epsilon"),
                 advice = list(utility = "the private utility of each candidate (a numeric vector)",
                               sensitivity = "the public sensitivity of the utilities (how much one individual moves any of them)"))
  check_dot_names(dot_args(), character(), "dp_select")   # (a misspelt option gets a classed error)
  budget <- release_open(budget, epsilon)
  noise <- check_choice(noise, c("exact", "float"), "noise")
  labels <- names(utility)   # (the candidates' public names, when the utilities carry them)
  utility <- check_numeric_vector(utility, "utility")
  sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, lower_open = TRUE,
                              class = "dpfda_error_privacy")
  epsilon <- check_epsilon(epsilon)
  score <- epsilon * utility / (2 * sensitivity)
  if (noise == "float" && !all(is.finite(score))) {   # (exact noise forms its gaps without overflow)
    dpfda_abort("`utility` times epsilon / (2 sensitivity) overflows.", class = "dpfda_error_numeric",
                arg = "utility")
  }
  if (noise == "float") {
    # a Gumbel variate -log(E) of the float sampler lies in about [-3.6, 37.4]: a candidate more
    # than 41 behind can never win on one data set and can on a neighbour; the Laplace bound of
    # ?float_tails (cut-off 37.4) covers it
    check_float_tails("laplace", epsilon, m = length(score), what = "dp_select()")
  }
  charge_budget(budget, epsilon, 0, "dp_select")
  index <- if (noise == "exact") select_exact(utility, sensitivity, epsilon) else {
    g <- -log(noise_draw(length(score), "exponential"))
    which.max(score + g)
  }
  label <- if (length(labels) == length(score) && !is.na(labels[index]) && nzchar(labels[index])) labels[index]
  structure(c(list(index = index), if (!is.null(label)) list(label = label),
              list(epsilon = epsilon, sensitivity = sensitivity, n_candidates = length(score), noise = noise,
                   rng = dp_rng()), if (length(labels) == length(score)) list(labels = labels)),
            class = "dpfda_selection")
}

# Exact exponential mechanism (see ?dp_select, `noise`): integer score gaps
# on the grid 2^-j, exact rejection sampling in C (src/discrete.c).
select_exact <- function(utility, sensitivity, epsilon) {
  g <- select_exact_gaps(utility, sensitivity, epsilon)
  c_exp_mech_exact(g$num, g$den)
}

# The integer gaps num / den of select_exact(). The gaps are formed from the
# utilities, not from rounded scores: u_max / 2 - u_i / 2 is exact up to one
# rounding of the difference (no overflow), and one more rounding times the
# scale c = e_use / sensitivity, so a gap g carries a relative error below
# 2^-52 (absolute below 2^-j where it is not capped at 2^(52 - j)), whatever
# the size of the utilities; scores rounded first (as before 0.2.0) lost
# |score| 2^-53, which at utilities near 2^52 cost 0.5 of privacy. With the
# ceiling, each gap is off by less than 2^(1 - j) + tiny, which costs less
# than 2^(2 - j) <= 2^-21 epsilon; e_use = epsilon (1 - 2^-20) pays for it.
select_exact_gaps <- function(utility, sensitivity, epsilon) {
  e_use <- epsilon * (1 - 2^-20)
  j <- max(0, ceiling(log2(2^23 / epsilon)))
  if (j > 52) {
    dpfda_abort(sprintf(paste("`epsilon` = %s is below the smallest epsilon of the exact exponential mechanism",
                              "(2^-29, about 1.9e-9); use noise = \"float\"."), format(epsilon)),
                class = "dpfda_error_numeric", arg = "epsilon")
  }
  u <- as.double(utility)
  half <- max(u) / 2 - u / 2                                # >= 0, exactly 0 at the best, finite
  gap <- (e_use / sensitivity) * half                       # = e_use (u_max - u_i) / (2 sensitivity)
  num <- pmin(ceiling(gap * 2^j), 2^52)                     # capping is 1-Lipschitz in the scores
  num[half == 0] <- 0                                       # (a tiny sensitivity: Inf * 0)
  list(num = as.double(num), den = as.double(2^j))
}

# Exact selection probabilities (for tests and documentation), log-sum-exp.
select_probabilities <- function(utility, sensitivity, epsilon) {
  s <- epsilon * utility / (2 * sensitivity)
  p <- exp(s - max(s))
  p / sum(p)
}

#' @rdname dp_select
#' @param x For `glance()`: a `dpfda_selection` (from `dp_select()` or
#'   [dp_gp_select()]).
#' @export
glance.dpfda_selection <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  out <- data.frame(index = x$index, label = x$label %||% NA_character_, n_candidates = x$n_candidates,
                    epsilon = x$epsilon,
                    sensitivity = x$sensitivity, noise = x$noise %||% NA_character_, rng = x$rng)
  if (inherits(x, "dpfda_gp_selection")) {
    # (the selection is pure: its delta is 0; `delta` of the object is the regression's, shown as such)
    out$delta <- 0
    out$epsilon_regression <- x$epsilon_regression %||% NA_real_
    out$delta_regression <- x$delta %||% NA_real_
    out$noise_variance <- x$noise_variance
    out$privacy_unit <- x$privacy_unit %||% NA_character_
  }
  out
}

#' @rdname dp_select
#' @details `tidy()` of a selection gives one row per candidate: its
#'   `index`, its public description (the `label` of a named utility; for
#'   [dp_gp_select()] the columns of its candidates, or the kernel and noise
#'   variance of a list of them) and `chosen` (`TRUE` for the selected one).
#'   Never the utilities: they are not private.
#' @export
tidy.dpfda_selection <- function(x, ...) {
  check_dot_names(list(...), character(), "tidy")
  out <- data.frame(index = seq_len(x$n_candidates))
  if (inherits(x, "dpfda_gp_selection")) {
    cd <- x$candidates
    if (is.data.frame(cd)) {
      out <- cbind(out, as.data.frame(cd, row.names = NULL))
    } else {
      out$kernel <- vapply(cd, function(c) format(c$kernel), "")
      out$noise_variance <- vapply(cd, function(c) as.double(c$noise_variance), 0)
    }
  } else if (length(x$labels) == x$n_candidates) {
    out$label <- x$labels
  }
  out$chosen <- out$index == x$index
  rownames(out) <- NULL
  out
}

#' @export
print.dpfda_selection <- function(x, ...) {
  cat(sprintf("<dpfda_selection> candidate %d%s of %d, epsilon = %s (exponential mechanism)\n",
              x$index, if (is.null(x$label)) "" else sprintf(" (\"%s\")", x$label), x$n_candidates,
              format(x$epsilon, digits = 4)))
  selection_details(x)
  print_noise_source(x$rng)
  invisible(x)
}

# The lines a kind of selection adds before the footer (as release_details()).
selection_details <- function(x) UseMethod("selection_details")

#' @export
selection_details.default <- function(x) invisible(NULL)
