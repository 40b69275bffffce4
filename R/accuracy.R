# Utility before spending: the accuracy of a mechanism from its public
# settings (no data, no budget), or of an existing release.

#' Accuracy of a private release before spending any budget
#'
#' The privacy noise of every dpfda mechanism has a law fixed by public
#' quantities only: the mechanism, the number of curves `n`, the public bound
#' `tau` (or a sensitivity), `epsilon`, `delta`, the kernel and the grid.
#' `dp_accuracy()` computes that law's size **without data and without
#' touching a budget**, so you can choose `n`, `epsilon` or the grid before
#' releasing anything. Called with a release (`dp_accuracy(release)`), it
#' gives the same numbers for that release, from its public fields.
#'
#' Reported on the grid:
#' * `pointwise_sd`: the standard deviation of the noise at each grid point
#'   (exact);
#' * `expected_l2`: the root-mean-square \eqn{L^2} norm of the noise,
#'   \eqn{(E\|N\|_{L^2}^2)^{1/2} = (\sum_i w_i \mathrm{sd}_i^2)^{1/2}} with
#'   trapezoid weights \eqn{w_i} (exact);
#' * `expected_sup`: the mean sup-norm \eqn{E \max_i |N(t_i)|} (Monte Carlo
#'   from the public noise law, `nsim` draws with a fixed public seed; your
#'   random-number state is left untouched);
#' * for a [dp_kme()] release or plan, also `expected_rkhs`: the root-mean-square
#'   RKHS norm of the noise, the MMD it adds to the embedding (its "grid" is
#'   the release's points, where the L2 figures say little).
#'
#' The released value is the clipped, smoothed summary plus this noise. The
#' smoothing (the shrinkage of ICLP-QR and GP, the thresholds of ICLP-AR, the
#' truncation of FRL, the Bernstein polynomial) moves the mean by an amount
#' that depends on the mean; over every mean bounded by `tau` it can be all
#' of `tau` (reported as `bias_worst_l2`, e.g. \eqn{\tau \max_j (1 - s_j)} for
#' QR). The public bound reported as `bias_l2` (and `bias_sup`, pointwise
#' `bias_pointwise`) is the exact worst case (QR, GP, FRL; an upper bound for
#' AR's sup and Bernstein) over the means of the class
#' \eqn{\{\mu = \sum_j a_j v_j : \sum_j a_j^2 / \lambda_j \le \tau^2 /
#' \lambda_1\}}, the ball of the kernel's reproducing-kernel Hilbert space
#' (eigenpairs \eqn{(\lambda_j, v_j)} of [kl_basis()] on the grid) that
#' allows the full norm `tau` along the first eigenfunction: e.g. for QR
#' \eqn{\tau \max_j (1 - s_j) (\lambda_j / \lambda_1)^{1/2}}. It depends on
#' `kernel`, `grid`, `tau` and the tuning only. Bernstein uses [dp_mean()]'s
#' default kernel as its reference (`kernel` if given). Clipping adds no bias
#' when every curve is within `tau`; otherwise its bias depends on the data
#' and is not included. `total_l2` \eqn{= (\mathrm{noise}^2 +
#' \mathrm{bias}^2)^{1/2}} bounds the root-mean-square \eqn{L^2} error (the
#' noise has mean zero); `total_sup` is `expected_sup + bias_sup`. Under the
#' default tuning `total_l2` is non-increasing in `epsilon` and `n` for every
#' mean mechanism (the noise alone is not: stronger smoothing at small
#' `epsilon` removes the noise with the signal), with one exception: for
#' `"iclp_ar"` in `n`. Its default \eqn{\psi = \tau / n} lets one more
#' component through each time `n` passes a step, and that component's noise
#' can outweigh the bias it removes (on 51 grid points, `tau` 1, `epsilon`
#' 1: total 1.40 at `n` = 20, 1.76 at `n` = 21). Between steps it falls, and
#' `solve_for = "n"` checks the end of every step, so it still returns the
#' smallest `n` that meets the target. The `"cov"` bound is the
#' same over the tensor class (Hilbert--Schmidt norm, no sup); `"kde"` has
#' none (its bias depends on the density); a `dp_gp_release()` has no
#' smoothing.
#'
#' With `target_l2` (or `target_sup`; `target_rkhs` for `"kme"`) and the settings (not a release: that
#' is an error whose message writes the settings call for it), the smallest `n` (`solve_for = "n"`)
#' or `epsilon` (`solve_for = "epsilon"`) whose **total** error
#' (`total_l2`, or `total_sup`) is at most the target is found by bisection
#' (or the largest `tau`, `solve_for = "tau"`),
#' holding every other setting fixed (a doubling search then bisection; up to
#' `n = 1e12`, `epsilon` up to `1e4`); `Inf` when the bias bound alone
#' exceeds the target.
#'
#' Settings understood (`mechanism`):
#' * [dp_mean()]'s mechanisms `"iclp_qr"`, `"iclp_ar"`, `"frl"`,
#'   `"bernstein"` and `"gp"` (with `delta`): give `n`, `epsilon`, `tau`,
#'   `grid` and optionally `kernel` and dp_mean's options in `...` (`eta`,
#'   `psi`, `M`, `J`, `h`, `bernstein_k`, `calibration`, `pss_rule`,
#'   `frl_noise` (with `delta` for `"gaussian"`), ...); the parameters are
#'   those of `select = "pss"`. A `center` may be given as in [dp_mean()]
#'   (so that a release's call can be copied) and changes nothing: `tau`
#'   bounds the deviations from the centre, wherever it is.
#' * `"cov"`: [dp_cov()] (the ICLP covariance; its grid is the tensor grid
#'   of `grid` with itself), with `n`, `epsilon`, `tau`, `grid`, `kernel`,
#'   and `J`, `centered` in `...`. The error is in the Hilbert--Schmidt norm.
#' * `"kde"`: [dp_kde()] with its default Gaussian-process mechanism: give
#'   `n` (points), `epsilon`, `delta`, `grid` (or `domain` in `...`, for
#'   [dp_kde()]'s default grid over it) and `bandwidth` in `...`. With
#'   `kde_mechanism = "iclp"` or `"frl"` in `...`, the pure-DP mechanisms of
#'   Lin and Reimherr (no `delta`), with their options (`kernel`, `eta`,
#'   `J`, `M`, `tol`, `sensitivity_method`) in `...` as well, and with
#'   `kde_mechanism = "bernstein"` (options `bernstein_k`, dp_kde()'s `k`,
#'   and `h`; no `delta`) or
#'   `"sobolev"` (with `delta`; option `calibration`): their noise
#'   follows from these settings alone, so the plan is the noise law of a
#'   release with them (made on no data, under a public seed).
#' * `"bandwidth"`: [dp_bandwidth()]: give `epsilon`, `delta`, optionally `n`,
#'   and `d` (dimensions), `offsets` in `...`; the result (class
#'   `dpfda_accuracy_bandwidth`) gives `n_needed`, the `n` its private test
#'   needs (see [dp_bandwidth()]), and whether `n` is enough. Or give `n`
#'   without `epsilon` (or `solve_for = "epsilon"`): `epsilon_needed` is the
#'   epsilon at which the test passes on `n` points (no target needed).
#' * `"gp"` with `sensitivity` (and no `tau`): [dp_gp_release()], the
#'   Gaussian-process release of one function with RKHS sensitivity
#'   `sensitivity` (give `calibration` in `...` if not `"analytic"`, and `noise =
#'   "exact"` for the discrete Gaussian of `noise = "exact"`, whose zCDP
#'   calibration is wider; any other option is refused).
#' * `"gp_regression"`: [dp_gp_regression()] (cloaking). Its inputs are
#'   public and only the outputs private, so its noise follows exactly from
#'   the inputs `x` (they set `n`), the test points (`newdata` in `...`, or
#'   `grid`), `kernel`, `noise_variance` and `y_bound` in `...`, `epsilon`,
#'   `delta`, and optionally `unit`, `calibration` and `noise` (`"exact"`
#'   for the discrete Gaussian of `noise = "exact"`, which a large epsilon
#'   needs) in `...`: the plan
#'   equals `dp_accuracy()` of the release made with those settings, and no
#'   output is needed. With a target, `solve_for = "epsilon"` (the default
#'   here) gives the epsilon that reaches it; the regression's bias is not
#'   bounded.
#' * `"bin_regression"`: [dp_bin_regression()], the same way: the public
#'   inputs `x`, and `bins`, `domain`, `y_bound` (and optionally `unit`) in
#'   `...`; the counts of the bins set the noise.
#' * `"kme"`: [dp_kme()] (methods `"subspace"`, the default, and
#'   `"random_features"`), with `n` (individuals, or units with `unit =`),
#'   `epsilon`, `delta` (0 for Laplace noise), `kernel`, and in `...` the
#'   public points `synthetic` (or `domain` and `M` to draw them, under
#'   `seed`: a release draws its own, so the basis may keep a few points
#'   more or fewer), `method`, `J`, `calibration`, `tol`, `pivot`, `tight`,
#'   `noise` (and `d`, the dimension, when only a range `c(lower, upper)`
#'   gives the domain); `iters`, `lr`, `lasso_lambda`, `public`, `chunk` are
#'   taken and change nothing. Its figure is `expected_rkhs`, the
#'   root-mean-square RKHS norm of the noise (the MMD it adds to the data's
#'   embedding, \eqn{\sigma \sqrt{F}} for \eqn{F} Gaussian coordinates), the
#'   same as `dp_accuracy()` of the release; the grid figures are at the
#'   synthetic points (the start points for random features, whose release
#'   moves them). Solve for `n` or `epsilon` with `target_rkhs`. The
#'   embedding's other error (the projection onto the points' span, the
#'   reduced-set fit) depends on the data and is not bounded; the
#'   exponential method and `l1_bound` have no noise law to plan.
#'
#' @param x `NULL` (use the settings), a `dpfda_release`, or the mechanism's
#'   name (a shortcut for `mechanism =`); for `mechanism = "gp_regression"`
#'   or `"bin_regression"`, the public inputs of the regression. For
#'   `glance()`: a `dpfda_accuracy`.
#' @param mechanism The mechanism (see Details), or several to compare them:
#'   `dp_accuracy(mechanism = c("iclp_qr", "frl", "gp"), ...)` plans each
#'   with the same settings (`delta` is used by the Gaussian ones only) and
#'   returns a data frame of class `dpfda_accuracy_comparison`, one row per
#'   mechanism (`mechanism`, `n`, `epsilon`, `delta`, `tau`, the noise,
#'   bias and total errors, and `n_needed` or `epsilon_needed` with a
#'   target), whose print names the best; `attr(, "plans")` holds each
#'   `dpfda_accuracy`.
#' @param n Number of individuals (public).
#' @param epsilon,delta Privacy parameters (`delta = NULL` is 0, pure DP).
#' @param tau Public bound on each curve (as in [dp_mean()], [dp_cov()]),
#'   or `"auto"` to plan a release whose bound is chosen privately (their
#'   `tau = "auto"`): give in `...` `norms`, a public planning sample of
#'   typical norms of the curves (after the centre; e.g. from a pilot or
#'   published study), and optionally `bound_share`, `bound_range`,
#'   `bound_quantile`. The histogram of the norms is taken as `n` times that
#'   sample's distribution; the law of the chosen bound is then exact (the
#'   exponential mechanism's probabilities), and the reported errors are those
#'   of the noise averaged over it (pointwise variances and squared
#'   \eqn{L^2} errors mixed with those probabilities), with the release's
#'   share of `epsilon`. The result adds `tau_distribution` (candidate
#'   bounds and probabilities), `bound_share`, `epsilon_release` and
#'   `p_refused` (the probability that the bound falls outside the range;
#'   the errors are conditional on no refusal). Targets are not available
#'   with `"auto"`.
#' @param kernel Noise kernel; `NULL` for [dp_mean()]'s default.
#' @param grid Public grid of the release.
#' @param sensitivity For `mechanism = "gp"` without `tau`: the RKHS
#'   sensitivity of [dp_gp_release()].
#' @param ... Mechanism options (see Details).
#' @param target_l2,target_sup Optional target for the total
#'   root-mean-square \eqn{L^2} error or the total mean sup error (noise and
#'   bias bound).
#' @param solve_for `"n"`, `"epsilon"` or `"tau"`: what to solve for with a
#'   target. `"tau"` gives `tau_needed`, the *largest* bound whose total error
#'   meets the target (the noise and the smoothing-bias bound grow in
#'   proportion to `tau`, as `tau^2` for `"cov"`; the clipping bias of curves
#'   beyond it, which falls as `tau` grows, has no public bound and is not
#'   included): the bound a planned release can afford.
#'   What is solved for needs no value (`dp_accuracy("iclp_qr", n = 93, tau
#'   = 1, grid = g, target_l2 = 0.1, solve_for = "epsilon")`); the result
#'   then describes the release at the solution, also when a value was given
#'   (kept as `n_given`, `epsilon_given` or `tau_given`, which the print names).
#' @param nsim Monte Carlo draws for `expected_sup`.
#' @param target_rkhs For `mechanism = "kme"`: a target for the
#'   root-mean-square RKHS norm of the noise (`expected_rkhs`, the MMD the
#'   noise adds to the embedding); `target_l2` and `target_sup` are for the
#'   other mechanisms.
#' @param seed Seed of the public Monte Carlo simulation.
#' @return A list of class `dpfda_accuracy` with `mechanism`, `grid`,
#'   `pointwise_sd`, `expected_l2`, `expected_sup`, `family` (`"gaussian"`
#'   or `"laplace"`), `noise` (a description), the bias bounds `bias_l2`,
#'   `bias_sup`, `bias_pointwise`, `bias_worst_l2` and `bias_note`, the totals
#'   `total_l2` and `total_sup` (`NA` where there is no bias bound), the
#'   settings `n`, `epsilon`, `delta`, `tau`, and with a target `n_needed` or
#'   `epsilon_needed`; where that is `Inf`, `unreachable` (`solve_for`, the
#'   search's `limit`, the `bias` bound there, and whether the figures are at
#'   a `placeholder`, and `other_helps`: whether the other of `n` and
#'   `epsilon` would lower the bias), which the print explains with the
#'   setting to change. For a pure-DP release that spent part of `epsilon`
#'   elsewhere (`inference = TRUE`, `incomplete = "drop"`, `tau = "auto"`,
#'   PCV), `epsilon_release`: the part that made the values, which the
#'   figures describe and a plan of them takes (`epsilon` stays the total).
#'   `glance()` gives the settings and the scalar figures as one row (with
#'   `n_needed`, `epsilon_needed` or `tau_needed` when solved for).
#' @seealso [confint.dpfda_release()] for bands of a release's noise.
#' @examples
#' g <- seq(0, 1, length.out = 101)
#' a <- dp_accuracy(mechanism = "iclp_qr", n = 500, epsilon = 1, tau = 1, grid = g)
#' a
#' # how many curves for a total root-mean-square L2 error of 0.01?
#' dp_accuracy(mechanism = "iclp_qr", n = 500, epsilon = 1, tau = 1, grid = g,
#'             target_l2 = 0.01)$n_needed
#' # planning a release with a private bound: typical norms from a pilot study
#' dp_accuracy(mechanism = "iclp_qr", n = 500, epsilon = 1, tau = "auto", grid = g,
#'             norms = abs(rnorm(50, 0.7, 0.2)))
#' # a Gaussian-process release of one function
#' dp_accuracy(mechanism = "gp", sensitivity = 0.05, epsilon = 1, delta = 1e-5,
#'             kernel = kernel_gaussian(0.1), grid = g)$expected_l2
#' # the n the private bandwidth test of dp_bandwidth() needs, and the epsilon it
#' # needs on 352 points
#' dp_accuracy(mechanism = "bandwidth", n = 352, epsilon = 0.5, delta = 1e-6)
#' dp_accuracy(mechanism = "bandwidth", n = 352, delta = 1e-6)$epsilon_needed
#' # a kernel mean embedding of 1000 points on 100 public points: the epsilon
#' # for an MMD of 0.05 from the noise
#' z <- as.matrix(expand.grid(seq(-3, 3, length.out = 10), seq(-3, 3, length.out = 10)))
#' dp_accuracy(mechanism = "kme", n = 1000, delta = 1e-5, kernel = kernel_gaussian(1),
#'             synthetic = z, target_rkhs = 0.05, solve_for = "epsilon")$epsilon_needed
#' # which mechanism reaches a total L2 error of 0.05 with the least epsilon?
#' dp_accuracy(mechanism = c("iclp_qr", "frl", "gp"), n = 500, tau = 1, grid = g,
#'             delta = 1e-5, target_l2 = 0.05, solve_for = "epsilon")
#' # GP regression: the inputs are public, so the noise is known before the
#' # release; the epsilon for an L2 noise error of 200 on MASS's mcycle design
#' if (requireNamespace("MASS", quietly = TRUE)) {
#'   dp_accuracy(MASS::mcycle$times, mechanism = "gp_regression",
#'               newdata = seq(5, 55, length.out = 51), kernel = kernel_gaussian(8, variance = 2500),
#'               noise_variance = 2500, y_bound = c(-150, 100), delta = 1e-5, target_l2 = 200)
#' }
#' @export
dp_accuracy <- function(x = NULL, mechanism = "iclp_qr", n = NULL, epsilon = NULL, delta = 0, tau = NULL,
                        kernel = NULL, grid = NULL, sensitivity = NULL, ..., target_l2 = NULL,
                        target_sup = NULL, solve_for = c("n", "epsilon", "tau"), nsim = 2000, seed = 1,
                        target_rkhs = NULL) {
  if (is.character(x) && length(x) >= 1L) {   # dp_accuracy("frl", n = ...): the mechanism first
    mechanism <- x
    x <- NULL
  }
  if (is.null(x) && is.character(mechanism) && length(mechanism) > 1L) {   # R/accuracy-compare.R
    args <- c(list(n = n, epsilon = epsilon, delta = delta, tau = tau, kernel = kernel, grid = grid,
                   sensitivity = sensitivity, target_l2 = target_l2, target_sup = target_sup, nsim = nsim,
                   seed = seed, target_rkhs = target_rkhs), list(...),
              if (!missing(solve_for)) list(solve_for = solve_for))
    return(accuracy_compare(mechanism, args[!vapply(args, is.null, NA)]))
  }
  nsim <- check_count(nsim, "nsim", min = 10, max = 1e7)
  seed <- check_count(seed, "seed", min = 0)
  if (!is.null(target_l2)) target_l2 <- check_number(target_l2, "target_l2", lower = 0, lower_open = TRUE)
  if (!is.null(target_sup)) target_sup <- check_number(target_sup, "target_sup", lower = 0, lower_open = TRUE)
  if (!is.null(target_rkhs)) target_rkhs <- check_number(target_rkhs, "target_rkhs", lower = 0, lower_open = TRUE)
  # the privacy settings are checked whatever the mechanism uses of them (delta = NULL: pure DP, as
  # `delta = if (gaussian) 1e-5` gives for the others)
  if (is.null(delta)) delta <- 0
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  if (!is.null(sensitivity)) {
    sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, lower_open = TRUE, upper = 1e150)
  }
  if (!is.null(target_l2) && !is.null(target_sup)) {
    dpfda_abort("Give one of `target_l2` and `target_sup`, not both.", arg = "target_sup")
  }
  # an embedding's error is its RKHS norm (the MMD), every other release's its L2 or sup norm (R/accuracy-kme.R)
  kme <- identical(mechanism, "kme") || inherits(x, "dpfda_kme_release")
  if (!is.null(target_rkhs) && !kme) {
    dpfda_abort(paste("`target_rkhs` is the target of a kernel mean embedding (mechanism = \"kme\"); for this",
                      "mechanism give `target_l2` or `target_sup`."), arg = "target_rkhs")
  }
  if (kme && (!is.null(target_l2) || !is.null(target_sup))) {
    dpfda_abort(sprintf(paste("An embedding's error is the RKHS norm of its noise (the MMD it adds): give",
                              "`target_rkhs = %s` instead of `%s`."), format(c(target_l2, target_sup)),
                        if (!is.null(target_l2)) "target_l2" else "target_sup"),
                arg = if (!is.null(target_l2)) "target_l2" else "target_sup")
  }
  # the regressions: `x` is the public inputs, not a release (R/accuracy-gpreg.R)
  gpreg <- is.character(mechanism) && length(mechanism) == 1L && mechanism %in% c("gp_regression", "bin_regression")
  inputs <- NULL
  if (gpreg && !inherits(x, "dpfda_release")) {
    inputs <- x
    x <- NULL
  }
  if (gpreg && (!is.null(tau) || !is.null(sensitivity))) {
    arg <- if (!is.null(tau)) "tau" else "sensitivity"
    dpfda_abort(sprintf(paste("`%s` is not a setting of mechanism \"%s\": its noise follows from the public",
                              "inputs `x` and the regression's other public settings."), arg, mechanism), arg = arg)
  }
  if (!is.null(x)) {
    if (!inherits(x, "dpfda_release")) {
      arg_error("x", "a dpfda_release, or NULL (then give the settings: mechanism, n, epsilon, tau, grid)", x)
    }
    if (!is.null(target_l2) || !is.null(target_sup) || !is.null(target_rkhs)) {
      # (a target plans another release, whose settings the user chooses; silently ignoring it, as
      # before, answered another question)
      tg <- if (!is.null(target_l2)) sprintf("target_l2 = %s", format(target_l2)) else
        if (!is.null(target_sup)) sprintf("target_sup = %s", format(target_sup)) else
          sprintf("target_rkhs = %s", format(target_rkhs))
      # (the call suggested must run: it named regression releases' mechanisms, which are no
      # settings of dp_accuracy(), and a tau they do not have)
      planned <- x$mechanism %in% c(accuracy_mechanisms, "cov-iclp") && is.numeric(x$tau)
      reg <- inherits(x, "dpfda_gpreg_release") || inherits(x, "dpfda_bin_release")
      msg <- if (planned) {
        sprintf(paste("A target plans a release from its settings, not from a release made: e.g.",
                      "dp_accuracy(mechanism = \"%s\", n = %s, epsilon = %s,%s tau = %s, grid = r$values$grid,",
                      "%s, solve_for = \"n\") for the n this release's settings need (r: this",
                      "release; add its kernel and tuning options if you set them)."),
                if (identical(x$mechanism, "cov-iclp")) "cov" else x$mechanism, format(x$n), format(x$epsilon),
                if (isTRUE(x$delta > 0)) sprintf(" delta = %s,", format(x$delta)) else "", format(x$tau), tg)
      } else if (x$mechanism %in% c("kde-gp", "kde-iclp", "kde-frl")) {
        sprintf(paste("A target plans a release from its settings, not from a release made: e.g.",
                      "dp_accuracy(mechanism = \"kde\", kde_mechanism = \"%s\", n = %s, epsilon = %s,%s",
                      "grid = r$values$grid, bandwidth = r$bandwidth, %s, solve_for = \"n\") for the n this",
                      "release's settings need (r: this release; add its domain and options if you set them)."),
                sub("^kde-", "", x$mechanism), format(x$n), format(x$epsilon),
                if (isTRUE(x$delta > 0)) sprintf(" delta = %s,", format(x$delta)) else "", tg)
      } else if (inherits(x, "dpfda_kme_release") && !identical(x$method, "exponential")) {
        sprintf(paste("A target plans a release from its settings, not from a release made: e.g.",
                      "dp_accuracy(mechanism = \"kme\", n = %s, epsilon = %s, delta = %s, kernel = r$kernel,",
                      "method = \"%s\", synthetic = , %s, solve_for = \"n\") for the n this release's settings",
                      "need (r: this release; give its public synthetic points and options)."),
                format(x$n), format(x$epsilon), format(x$delta), x$method, tg)
      } else if (reg) {
        sprintf(paste("A target plans a release from its settings, not from a release made: give the",
                      "regression's public inputs and settings, e.g. dp_accuracy(x, mechanism = \"%s\", %s,",
                      "%s, solve_for = \"epsilon\") with x the inputs (see ?dp_accuracy)."),
                if (inherits(x, "dpfda_bin_release")) "bin_regression" else "gp_regression",
                if (inherits(x, "dpfda_bin_release")) "bins = , domain = , y_bound =" else
                  "newdata = r$values$grid, kernel = , noise_variance = , y_bound = , delta =", tg)
      } else {
        sprintf(paste("A target plans a release from its settings, and dp_accuracy() plans mechanisms %s,",
                      "\"gp_regression\" and \"bin_regression\"; a \"%s\" release is not among them (its",
                      "expected error: dp_accuracy(r) without a target)."),
                paste0("\"", accuracy_mechanisms, "\"", collapse = ", "), x$mechanism)
      }
      dpfda_abort(msg,
                  class = c("dpfda_error_unsupported", "dpfda_error_argument"),
                  arg = if (!is.null(target_l2)) "target_l2" else if (!is.null(target_sup)) "target_sup" else
                    "target_rkhs")
    }
    law <- published_law(x)
    s <- law_summary(law, nsim, seed)
    out <- new_accuracy(s, law, mechanism = x$mechanism, n = x$n, epsilon = x$epsilon, delta = x$delta,
                        tau = x$tau, bias = release_bias_bound(x))
    if (inherits(x, "dpfda_kme_release")) out$expected_rkhs <- kme_noise_norm(x)
    # (a pure-DP release that spent a share of epsilon elsewhere, e.g. on inference, a count or tau:
    # its figures are those of the part that made the values, the epsilon a plan of them takes)
    er <- x$epsilon_release
    if (is.numeric(er) && length(er) == 1L && is.finite(er) && er < x$epsilon * (1 - 1e-9) && identical(x$delta, 0)) {
      out$epsilon_release <- er
    }
    return(out)
  }
  if (identical(mechanism, "bandwidth")) {
    return(accuracy_bandwidth(n, epsilon, delta, list(...), if (!missing(solve_for)) solve_for))
  }
  if (identical(tau, "auto")) {   # the bound chosen privately: a mixture over its candidates (R/auto-bound.R)
    if (!is.null(target_l2) || !is.null(target_sup)) {
      dpfda_abort(paste("Targets (`target_l2`, `target_sup`) are not available with tau = \"auto\"; plan with a",
                        "numeric tau, or compare a few n and epsilon with tau = \"auto\"."), arg = "tau")
    }
    return(accuracy_auto(mechanism, n, epsilon, delta, kernel, grid, list(...), nsim, seed))
  }
  solving <- !is.null(target_l2) || !is.null(target_sup) || !is.null(target_rkhs)
  if (solving && gpreg) {
    # the inputs fix n: epsilon is what is solved for (the default here)
    solve_for <- if (missing(solve_for)) "epsilon" else check_choice(solve_for, c("n", "epsilon", "tau"), "solve_for")
    if (solve_for != "epsilon") {
      dpfda_abort(sprintf(paste("For mechanism \"%s\" the public inputs `x` fix n and there is no tau:",
                                "solve_for = \"epsilon\" (not \"%s\"); to plan another n, give the inputs it would",
                                "have."), mechanism, solve_for), arg = "solve_for")
    }
  }
  if (solving) solve_for <- check_choice(solve_for, c("n", "epsilon", "tau"), "solve_for")
  if (solving && kme && solve_for == "tau") {
    dpfda_abort("An embedding has no tau to solve for: use solve_for = \"n\" or \"epsilon\".", arg = "solve_for")
  }
  # what is solved for needs no value: a placeholder starts the search, and the result then
  # describes the release at the solution
  placeholder <- solving && ((solve_for == "epsilon" && is.null(epsilon)) || (solve_for == "n" && is.null(n)) ||
                               (solve_for == "tau" && is.null(tau) && is.null(sensitivity)))
  if (placeholder && solve_for == "epsilon") epsilon <- 1
  if (placeholder && solve_for == "n") n <- 100
  if (placeholder && solve_for == "tau") tau <- 1
  opts <- list(...)
  st <- if (identical(mechanism, "gp_regression")) accuracy_settings_gpreg(inputs, n, epsilon, delta, kernel, grid, opts)
    else if (identical(mechanism, "bin_regression")) accuracy_settings_binreg(inputs, n, epsilon, opts)
    else if (identical(mechanism, "kme")) accuracy_settings_kme(n, epsilon, delta, kernel, grid, opts, seed)
    else accuracy_settings(mechanism, n, epsilon, delta, tau, kernel, grid, sensitivity, opts)
  plan_at <- function(n_at, e_at) {
    law <- st$law(n_at, e_at)
    out <- new_accuracy(law_summary(law, nsim, seed), law, mechanism = st$mechanism, n = n_at, epsilon = e_at,
                        delta = st$delta, tau = st$tau, bias = st$bias(n_at, e_at))
    if (!is.null(st$rkhs)) out$expected_rkhs <- st$rkhs(n_at, e_at)
    out
  }
  out <- plan_at(st$n, st$epsilon)
  if (solving) {
    # the solvers use the total: noise and the bound on the smoothing bias
    bias0 <- function(b, what) { v <- b[[what]]; if (is.null(v) || !is.finite(v)) 0 else v }
    err_of <- if (!is.null(target_rkhs)) {
      function(s, n, e) as.double(s$rkhs(n, e))
    } else if (!is.null(target_l2)) {
      function(s, n, e) {
        noise <- suppressWarnings(law_summary(s$law(n, e), sup = FALSE)$expected_l2)
        sqrt(noise^2 + bias0(s$bias(n, e), "l2")^2)
      }
    } else {
      function(s, n, e) suppressWarnings(mean(law_sup_draws(s$law(n, e), nsim, seed))) + bias0(s$bias(n, e), "sup")
    }
    err <- function(n, e) err_of(st, n, e)
    target <- if (!is.null(target_l2)) target_l2 else if (!is.null(target_sup)) target_sup else target_rkhs
    if (solve_for == "tau") {
      # the largest bound whose total error meets the target (R/accuracy-tau.R)
      at <- accuracy_tau_needed(st, function(s) err_of(s, s$n, s$epsilon), target,
                                function(tau_at) accuracy_settings(mechanism, n, epsilon, delta, tau_at, kernel,
                                                                   grid, sensitivity, opts))
      out$tau_needed <- at
      out$target <- c(l2 = target_l2, sup = target_sup, rkhs = target_rkhs)
      if (placeholder || !isTRUE(all.equal(at, tau))) {   # the plan at the solution
        keep <- out[c("tau_needed", "target")]
        st <- accuracy_settings(mechanism, n, epsilon, delta, at, kernel, grid, sensitivity, opts)
        out <- plan_at(st$n, st$epsilon)
        out[names(keep)] <- keep
        out$tau_given <- if (!placeholder) tau
      }
      return(out)
    }
    upper <- if (solve_for == "n") 1e12 else 1e4   # (the end of the search)
    if (solve_for == "n") {
      if (is.null(st$n)) {
        dpfda_abort("This mechanism has no `n` to solve for; use solve_for = \"epsilon\".", arg = "solve_for")
      }
      out$n_needed <- solve_monotone(function(v) err(v, st$epsilon), target, start = st$n, lower = 2,
                                     upper = upper, integer = TRUE)
      # (a tuning that changes in steps of n can raise the error at a step: the smallest n may lie at
      # the end of an earlier step)
      if (!is.null(st$step)) {
        out$n_needed <- solve_stepwise(function(v) err(v, st$epsilon), target, st$step, out$n_needed, upper)
      }
    } else {
      out$epsilon_needed <- solve_monotone(function(v) err(st$n, v), target, start = st$epsilon,
                                           lower = 1e-6, upper = upper, integer = FALSE)
    }
    out$target <- c(l2 = target_l2, sup = target_sup, rkhs = target_rkhs)
    if (isTRUE(st$default_psi)) out$default_psi <- TRUE
    needed <- if (solve_for == "n") out$n_needed else out$epsilon_needed
    if (!is.finite(needed)) {
      # why no value reaches the target: the bias bound at the end of the search (it does not fall
      # with epsilon where the default tuning depends on n only, e.g. FRL's M, Bernstein's k)
      b_end <- if (solve_for == "n") st$bias(upper, st$epsilon) else st$bias(st$n, upper)
      what <- if (!is.null(target_l2)) "l2" else "sup"
      # (would the other lever lower that bias? not where the tuning depends on one of them only, e.g.
      # Bernstein's k on neither, FRL's M and AR's psi on n only: then the advice does not send the
      # user from n to epsilon and back)
      b_both <- tryCatch(bias0(st$bias(1e12, 1e4), what), error = function(e) NA_real_)
      out$unreachable <- list(solve_for = solve_for, bias = bias0(b_end, what), limit = upper, placeholder = placeholder,
                              other_helps = !isTRUE(b_both >= bias0(b_end, what) * (1 - 1e-6)))
    }
    # the plan at the solution, not at the placeholder or the value given (as for tau: the figures
    # were at the given n = 39, total 32.6 against a target of 1, under "n needed ... 43,226")
    n_at <- if (solve_for == "n") out$n_needed else st$n
    e_at <- if (solve_for == "epsilon") out$epsilon_needed else st$epsilon
    given <- if (solve_for == "n") st$n else st$epsilon
    if (is.finite(n_at) && is.finite(e_at) && (placeholder || !isTRUE(all.equal(needed, given)))) {
      keep <- out[intersect(c("n_needed", "epsilon_needed", "target", "unreachable", "default_psi"), names(out))]
      out <- plan_at(n_at, e_at)
      out[names(keep)] <- keep
      if (!placeholder) out[[paste0(solve_for, "_given")]] <- given
    }
  }
  out
}

new_accuracy <- function(s, law, mechanism, n, epsilon, delta, tau, bias = NULL) {
  num <- function(v) if (is.numeric(v) && length(v) == 1L) v else NA_real_
  b_l2 <- num(bias$l2)
  b_sup <- num(bias$sup)
  structure(list(mechanism = mechanism, grid = law$grid, pointwise_sd = s$pointwise_sd,
                 expected_l2 = s$expected_l2, expected_sup = s$expected_sup, family = law$family,
                 noise = law$note, bias_l2 = b_l2, bias_sup = b_sup, bias_pointwise = bias$pointwise,
                 bias_worst_l2 = num(bias$worst_l2), bias_note = bias$note %||% "not available",
                 total_l2 = sqrt(s$expected_l2^2 + (if (is.finite(b_l2)) b_l2^2 else NA_real_)),
                 total_sup = s$expected_sup + b_sup,
                 n = n, epsilon = epsilon, delta = delta, tau = tau),
            class = "dpfda_accuracy")
}

#' @rdname dp_accuracy
#' @export
glance.dpfda_accuracy <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  num <- function(v) if (is.numeric(v) && length(v) == 1L) v else NA_real_
  out <- data.frame(mechanism = x$mechanism, epsilon = num(x$epsilon), delta = num(x$delta), n = num(x$n),
                    tau = num(x$tau), expected_l2 = x$expected_l2, expected_sup = x$expected_sup,
                    bias_l2 = num(x$bias_l2), bias_sup = num(x$bias_sup), total_l2 = num(x$total_l2),
                    total_sup = num(x$total_sup))
  for (f in c("n_needed", "epsilon_needed", "tau_needed")) if (!is.null(x[[f]])) out[[f]] <- num(x[[f]])
  if (!is.null(x$expected_rkhs)) out$expected_rkhs <- as.double(x$expected_rkhs)
  out
}

#' @export
print.dpfda_accuracy <- function(x, ...) {
  cat(sprintf("<dpfda_accuracy> %s, epsilon = %s, delta = %s%s%s\n", x$mechanism, format(x$epsilon, digits = 4),
              format(x$delta, digits = 4), if (is.null(x$n)) "" else sprintf(", n = %s", format(x$n)),
              if (is.null(x$tau)) "" else sprintf(", tau = %s", format(x$tau, digits = 4))))
  if (!is.null(x$epsilon_release)) {
    cat(sprintf(paste("  the values spent epsilon %s of it (the rest went to the release's other parts): the",
                      "figures below are theirs, and a plan of them takes epsilon = %s\n"),
                format(x$epsilon_release, digits = 4), format(x$epsilon_release, digits = 4)))
  }
  cat(sprintf("  noise: %s (%s)\n", x$noise, x$family))
  cat(sprintf("  pointwise noise sd in %s over %d grid points\n", format_range(range(x$pointwise_sd)),
              length(x$pointwise_sd)))
  cat(sprintf("  expected L2 noise error (root mean square) %s; expected sup error %s\n",
              format(x$expected_l2, digits = 4), format(x$expected_sup, digits = 4)))
  if (!is.null(x$expected_rkhs)) print_kme_noise_norm(x$expected_rkhs)
  if (identical(x$bias_note, "no smoothing") && is.null(x$tau)) {
    # (a release of one function adds noise to the function itself: the print spoke of tau and
    # clipped curves, which it does not have)
    cat("  bias: none (noise added to the function itself: no smoothing, no clipping); the total is the noise\n")
  } else if (is.finite(x$bias_l2 %||% NA_real_)) {
    # (a covariance plan has no sup bound of the bias: said, not printed as NA)
    what <- if (identical(x$mechanism, "cov")) c("covariance", "tau^2") else c("mean", "tau")
    sup <- is.finite(x$bias_sup %||% NA_real_)
    kern <- bias_kernel_words(x$mechanism)
    cat(sprintf("  smoothing bias at most %s (L2)%s for a %s as smooth as %s allows; up to %s\n",
                format(x$bias_l2, digits = 4), if (sup) sprintf(" and %s (sup)", format(x$bias_sup, digits = 4)) else "",
                what[1L], kern, format(x$bias_worst_l2, digits = 4)))
    cat(sprintf("    for any %s within %s; no clipping bias when the curves are within tau\n", what[1L], what[2L]))
    # (the bound is for a mean as smooth as the kernel allows: a step in the mean was outside it, and its
    # error above the "at most"; said where the figure is)
    cat(sprintf("  total (noise and bias): L2 at most %s (root mean square)%s, for a %s as smooth as %s allows\n",
                format(x$total_l2, digits = 4),
                if (sup) sprintf(", sup at most %s", format(x$total_sup, digits = 4)) else
                  " (no sup bound of the bias for this mechanism)", what[1L], kern))
  } else if (!is.null(x$bias_note)) {
    cat(sprintf("  bias: %s\n", x$bias_note))
  }
  at <- function(what) {
    given <- x[[paste0(what, "_given")]]
    if (is.finite(x[[paste0(what, "_needed")]]) && !identical(x$mechanism, "bandwidth"))
      sprintf(" (the figures above are at it%s)", if (is.null(given)) "" else
        sprintf(", not at %s = %s", what, format(given, digits = 4, big.mark = ","))) else ""
  }
  if (!is.null(x$n_needed)) cat(sprintf("  n needed for the target %s: %s%s\n", names(x$target),
                                        format(x$n_needed, big.mark = ","), at("n")))
  if (!is.null(x$epsilon_needed)) cat(sprintf("  epsilon needed for the target %s: %s%s\n", names(x$target),
                                              format(x$epsilon_needed, digits = 4), at("epsilon")))
  if (isTRUE(x$epsilon_needed > 10) && is.finite(x$epsilon_needed)) {
    cat(paste("    (an epsilon above 10 protects little: a release at it warns (dpfda_warning_epsilon), and with",
              "float noise its far tails may be refused; noise = \"exact\" has none. A larger n or target, or",
              "less smoothing, may serve better)\n"))
  }
  if (!is.null(x$tau_needed)) {
    cat(sprintf(paste("  the largest tau for the target %s: %s (the figures above are at it%s); curves beyond it",
                      "are clipped, a bias that no public bound includes\n"), names(x$target),
                format(x$tau_needed, digits = 4),
                if (!is.null(x$tau_given)) sprintf(", not at tau = %s", format(x$tau_given, digits = 4)) else ""))
  }
  if (isTRUE(x$default_psi)) {
    # (the default psi follows n and epsilon: more epsilon goes mostly into less bias, so the epsilon
    # needed at the default can be many times what a fixed psi needs: 274 against 11 for an L2 target
    # of 0.05 on 500 curves)
    cat(paste("    (at the default psi, which falls with n and epsilon: a fixed psi, given in ..., may need much",
              "less; compare a few, e.g. psi = 1e-4, 1e-3, 1e-2)\n"))
  }
  u <- x$unreachable
  if (!is.null(u) && x$mechanism %in% c("gp-regression-cloaking", "bin-laplace")) {
    # (a regression's inputs fix n, and it has no psi or eta: its own settings are the levers)
    cat(sprintf(paste("    no epsilon up to %s reaches it: the noise does not fall below the target; the inputs",
                      "`x` fix n, so set a larger target, narrow y_bound or %s%s\n"),
                format(u$limit), if (x$mechanism == "bin-laplace") "use fewer, wider bins" else
                  "use a larger noise_variance (a smoother fit)",
                if (isTRUE(u$placeholder)) sprintf("; the figures above are at the placeholder epsilon = %s",
                                                   format(x$epsilon)) else ""))
  } else if (!is.null(u) && x$mechanism %in% c("kme_subspace", "kme_random_features")) {
    # (no bias bound: the noise alone, which falls with both n and epsilon)
    cat(sprintf(paste("    no %s up to %s reaches it: the noise does not fall below the target; plan %s, use fewer",
                      "noisy coordinates (fewer synthetic points M, or features J) or set a larger target%s\n"),
                u$solve_for, format(u$limit), if (u$solve_for == "n") "a larger epsilon" else "a larger n",
                if (isTRUE(u$placeholder)) sprintf("; the figures above are at the placeholder %s = %s",
                                                   u$solve_for, format(x[[u$solve_for]])) else ""))
  } else if (!is.null(u)) {
    other <- if (u$solve_for == "n") "epsilon" else "n"
    cat(sprintf(paste("    no %s up to %s reaches it: the smoothing-bias bound alone is %s at that end%s;",
                      "%s, smooth less (%s in ...) or set a larger target%s\n"),
                u$solve_for, format(u$limit), format(u$bias, digits = 4),
                if (u$bias > 0) "" else " (the noise does not fall below the target)",
                if (!isFALSE(u$other_helps)) sprintf("plan %s with solve_for = \"%s\"", other, other) else
                  "neither n nor epsilon lowers it under this tuning: instead",
                switch(x$mechanism, frl = "a larger M", bernstein = "a larger bernstein_k", iclp_ar = "a smaller psi",
                       cov = "a larger J, a smaller psi", "a smaller psi or eta"),
                if (isTRUE(u$placeholder)) sprintf("; the figures above are at the placeholder %s = %s",
                                                   u$solve_for, format(x[[u$solve_for]])) else ""))
  }
  if (!is.null(x$tau_distribution)) {
    td <- x$tau_distribution
    cat(sprintf(paste("  tau = \"auto\" (share %s of epsilon): tau is %s with probability %s (most likely);",
                      "the errors average over its law; a refusal (norms outside the range) has probability %s\n"),
                format(x$bound_share, digits = 3), format(td$tau[which.max(td$probability)], digits = 4),
                format(max(td$probability), digits = 3), format(x$p_refused, digits = 3)))
  }
  invisible(x)
}

# dp_accuracy(mechanism = "bandwidth"): the n the private IQR test of
# dp_bandwidth() needs at this budget, or (solve_for = "epsilon", or n given
# without epsilon) the epsilon it needs on n points (public planning, no data).
accuracy_bandwidth <- function(n, epsilon, delta, opts, solve_for = NULL) {
  bad <- setdiff(names(opts), c("d", "offsets"))
  if (length(bad)) dpfda_abort(sprintf("`%s` is not an option of mechanism \"bandwidth\" (give `d`, `offsets`).",
                                       bad[1L]), arg = bad[1L])
  solve_for <- if (!is.null(solve_for)) check_choice(solve_for, c("n", "epsilon"), "solve_for") else
    if (is.null(epsilon) && !is.null(n)) "epsilon" else "n"
  if (solve_for == "epsilon" && is.null(n)) {
    dpfda_abort("`n` is needed to solve for epsilon with mechanism \"bandwidth\": the number of points.", arg = "n")
  }
  if (solve_for == "n" && is.null(epsilon)) {
    dpfda_abort(paste("`epsilon` is needed for mechanism \"bandwidth\": the budget of dp_bandwidth() (or give `n`",
                      "and solve_for = \"epsilon\" for the epsilon its test needs)."), arg = "epsilon")
  }
  delta <- check_number(delta, "delta", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                        what = "a number in (0, 1): dp_bandwidth() is (epsilon, delta)-DP",
                        class = "dpfda_error_privacy")
  d <- if (is.null(opts$d)) 1L else check_count(opts$d, "d", max = 1e3)
  offsets <- opts$offsets %||% c(0, 0.5)
  ok <- is.numeric(offsets) && length(offsets) >= 1L && all(is.finite(offsets)) && all(offsets >= 0 & offsets < 1)
  if (!isTRUE(ok)) arg_error("offsets", "numbers in [0, 1)", offsets)
  if (!is.null(n)) n <- check_count(n, "n", min = 8, max = 1e15)
  eps_needed <- NULL
  if (solve_for == "epsilon") {   # (the result then describes the test at that epsilon)
    eps_needed <- bandwidth_epsilon_needed(n, delta, d, offsets)
    if (!is.finite(eps_needed)) {
      dpfda_abort(sprintf("No epsilon makes the private IQR test pass on n = %s points; it needs more points.",
                          format(n)), arg = "n")
    }
    epsilon <- eps_needed
  }
  epsilon <- check_epsilon(epsilon)
  nn <- bandwidth_n_needed(epsilon, delta, d, offsets)
  structure(list(mechanism = "bandwidth", n = n, epsilon = epsilon, delta = delta, d = d, n_needed = nn,
                 enough = if (is.null(n)) NA else n >= nn, epsilon_needed = eps_needed),
            class = "dpfda_accuracy_bandwidth")
}

#' @export
print.dpfda_accuracy_bandwidth <- function(x, ...) {
  cat(sprintf("<dpfda_accuracy> dp_bandwidth(), epsilon = %s, delta = %s, d = %d%s\n", format(x$epsilon, digits = 4),
              format(x$delta, digits = 4), x$d, if (is.null(x$n)) "" else sprintf(", n = %s", format(x$n))))
  cat(sprintf(paste("  the private IQR test needs about n >= %s to pass with probability 0.9 (continuous,",
                    "Gaussian-shaped data; ties and heavy tails need more)%s\n"), format(x$n_needed, big.mark = ","),
              if (isTRUE(x$enough)) ": n is enough" else if (isFALSE(x$enough)) ": give a public `fallback`" else ""))
  if (!is.null(x$epsilon_needed)) {
    cat(sprintf("  epsilon needed for the test to pass on n = %s points: %s\n", format(x$n, big.mark = ","),
                format(x$epsilon_needed, digits = 4)))
  }
  invisible(x)
}

# The smallest v in [lower, upper] with f(v) <= target, f decreasing in v.
solve_monotone <- function(f, target, start, lower, upper, integer) {
  lo <- max(lower, min(start, upper))
  if (f(lo) <= target) {
    hi <- lo
    while (lo > lower && f(lo) <= target) {
      hi <- lo
      lo <- max(lower, if (integer) floor(lo / 2) else lo / 2)
    }
    if (f(lo) <= target) return(if (integer) ceiling(lo) else lo)
  } else {
    hi <- lo
    repeat {
      hi <- min(upper, hi * 2)
      if (f(hi) <= target) break
      if (hi >= upper) return(Inf)
      lo <- hi
    }
  }
  # f(lo) > target >= f(hi)
  for (i in 1:200) {
    if (integer && hi - lo <= 1) break
    if (!integer && hi / lo < 1 + 1e-4) break
    mid <- if (integer) floor(sqrt(lo * hi)) else sqrt(lo * hi)
    if (integer && (mid <= lo || mid >= hi)) mid <- floor((lo + hi) / 2)
    if (f(mid) <= target) hi <- mid else lo <- mid
  }
  if (integer) ceiling(hi) else hi
}

# The smallest integer v >= 2 with f(v) <= target when f falls within each step of a tuning
# (`step(v)`, a non-decreasing integer, e.g. ICLP-AR's released components) but may jump up where
# the step changes: the first step whose last value meets the target holds the answer, found by
# bisection inside it. `found` is the answer of a plain bisection (an upper bound, or Inf).
solve_stepwise <- function(f, target, step, found, upper) {
  hi_all <- if (is.finite(found)) found - 1 else upper
  lo <- 2
  while (lo <= hi_all) {
    j <- step(lo)
    a <- lo
    b <- hi_all   # the last value of this step: bisection on the monotone step
    if (step(b) != j) {
      while (b - a > 1) {
        mid <- floor((a + b) / 2)
        if (step(mid) == j) a <- mid else b <- mid
      }
      b <- a
    }
    if (f(b) <= target) return(solve_monotone(f, target, start = lo, lower = lo, upper = b, integer = TRUE))
    lo <- b + 1
  }
  found
}

# dp_mean()'s default kernel on a grid (follows a change of dp_mean's default).
default_mean_kernel <- function(grid) {
  k <- tryCatch(eval(formals(dp_mean)$kernel, envir = list(x = list(grid = grid)),
                     enclos = environment(dp_mean)), error = function(e) NULL)
  if (inherits(k, "dpfda_kernel")) return(k)
  kernel_matern(3 / 2, 0.1 * diff(range(grid)))
}

# A setting a plan of `mechanism` needs: its absence is an error saying what it is.
plan_need <- function(v, arg, mechanism, hint) {
  if (is.null(v)) dpfda_abort(sprintf("`%s` is needed for mechanism \"%s\": %s.", arg, mechanism, hint), arg = arg)
}

# Settings -> a function (n, epsilon) -> noise law, with the checked settings.
accuracy_settings <- function(mechanism, n, epsilon, delta, tau, kernel, grid, sensitivity, opts) {
  if (is.character(mechanism) && length(mechanism) == 1L && mechanism %in% names(accuracy_aliases)) {
    mechanism <- accuracy_aliases[[mechanism]]
  }
  # (the two planned elsewhere in dp_accuracy() are named in the error too)
  mechanism <- check_choice(mechanism, c(accuracy_mechanisms, "bandwidth", "gp_regression", "bin_regression", "kme"),
                            "mechanism")
  need <- function(v, arg, hint) plan_need(v, arg, mechanism, hint)
  need(epsilon, "epsilon", "the privacy budget you plan to spend, e.g. epsilon = 1")
  epsilon <- check_epsilon(epsilon)
  kde_domain <- NULL
  if (mechanism == "kde" && !is.null(opts$domain)) {
    # (as dp_kde(): a public domain without a grid gives the default grid over it)
    kde_domain <- domain_from_ranges(opts$domain)
    if (is.null(grid)) grid <- kde_default_grid(kde_domain)
    opts$domain <- NULL
  }
  need(grid, "grid", if (mechanism == "kde") "the public grid of the release, or its `domain` for dp_kde()'s default grid"
       else "the public grid of the release")
  grid <- as_grid(grid, "grid")
  if (is.null(kernel)) kernel <- default_mean_kernel(grid)
  check_kernel(kernel)
  if (mechanism == "gp" && is.null(tau)) {
    need(sensitivity, "sensitivity", "the RKHS sensitivity of dp_gp_release(), or give `n` and `tau` for dp_mean()")
    sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, class = "dpfda_error_privacy")
    delta <- check_delta(delta, zero = gaussian_delta_zero("mechanism \"gp\""))
    # (any other name was ignored: noise = "exact" planned the float noise, 8% too small, and a
    # misspelt calibraton = "hall" the analytic one)
    bad <- setdiff(names(opts), c("calibration", "noise"))
    if (length(bad)) abort_unknown_option(bad[1L], "dp_accuracy", c(option_names("dp_accuracy"), "calibration", "noise"))
    calibration <- check_choice(opts$calibration %||% "analytic", c("analytic", "hall", "classical"), "calibration")
    noise <- check_noise(opts$noise %||% "float")
    law <- function(n, e) {
      sigma <- dp_noise_scale(sensitivity, e, delta, calibration)
      if (noise == "exact") sigma <- gp_exact_sigma(sigma, sensitivity, grid_size(grid), e, delta)$sigma
      law_gp(sigma, kernel, grid)
    }
    return(list(law = law, bias = function(n, e) list(l2 = 0, sup = 0, worst_l2 = 0, note = "no smoothing"),
                mechanism = "gp (dp_gp_release)", n = NULL, epsilon = epsilon, delta = delta, tau = NULL))
  }
  need(n, "n", "the number of individuals (curves)")
  n <- check_count(n, "n", min = 1, max = 1e15)
  if (mechanism == "kde") return(accuracy_settings_kde(n, epsilon, delta, grid, opts, kde_domain))
  need(tau, "tau", "the public bound on each curve's norm, as in dp_mean()")
  opts$center <- NULL   # (a call copied from dp_mean(): tau bounds the deviations from the centre, whatever it is)
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e150)
  if (mechanism == "gp" || identical(opts$frl_noise, "gaussian")) {
    opts$delta <- check_delta(if (is.null(opts$delta)) delta else opts$delta,
                              zero = gaussian_delta_zero(sprintf("mechanism \"%s\"", mechanism), "mechanism = \"iclp_qr\""))
    delta <- opts$delta
  } else {
    delta <- 0
  }
  if (mechanism == "cov") return(accuracy_settings_cov(n, epsilon, tau, kernel, grid, opts))
  bad <- setdiff(names(opts), dp_mean_options)
  if (length(bad) && bad[1L] %in% c("unit", "incomplete", "select", "inference", "x", "id", "arg", "value")) {
    dpfda_abort(sprintf(paste("`%s` is an argument of dp_mean() that dp_accuracy() does not plan with: leave it out%s."),
                        bad[1L], switch(bad[1L], unit = " and give `n`, the number of units",
                                        inference = paste(" and plan the release's part of epsilon: epsilon * (1 -",
                                                          "inference_share), 0.8 epsilon by default (pure-DP",
                                                          "mechanisms; a Gaussian release shares a mu-GDP budget",
                                                          "with the spread instead, see ?dp_mean)"),
                                        incomplete = paste(" and plan with epsilon * (1 - count_share), 0.9",
                                                           "epsilon by default, and n the number of complete",
                                                           "individuals"), "")),
                arg = bad[1L])
  }
  if (length(bad)) abort_unknown_option(bad[1L], "dp_accuracy", c(option_names("dp_accuracy"), dp_mean_options))
  o <- iclp_check_options(opts, mechanism, "pss")
  if (mechanism == "bernstein") {
    if (!is.null(dim(grid))) dpfda_abort("mechanism = \"bernstein\" needs a one-dimensional grid.", arg = "grid")
    g <- sort(grid)
    br <- list(values = list(values = matrix(0, 1L, o$k + 1L)), k = o$k, h = 1L, dim = 1L,
               domain = c(g[1L], g[length(g)]), noise_type = "laplace")
    A <- bernstein_map(br, g)
    law <- function(n, e) {
      law_linear(A, rep(2 * tau / n * (o$k + 1) / e, ncol(A)), "laplace", g,
                 sprintf("i.i.d. Laplace on %d Bernstein lattice values, then the polynomial", ncol(A)))
    }
    bb <- bias_bernstein_grid(g, o$k, tau, kernel)   # k is fixed: the same for every n and epsilon
    bias <- function(n, e) bb
    return(list(law = law, bias = bias, mechanism = mechanism, n = n, epsilon = epsilon, delta = 0, tau = tau))
  }
  basis <- kl_basis(kernel, grid, J = o$J, weights = o$weights, tol = o$tol)
  h <- if (is.null(o$h)) kernel_edr(kernel, if (is.null(dim(grid))) 1L else ncol(grid)) else o$h
  lam <- basis$values
  o$measure <- basis_measure(basis)   # psi on the unit-measure domain, as dp_mean()
  params_at <- function(n, e) {
    p <- pss_params(mechanism, n, e, h, tau / sqrt(o$measure), o$pss_rule)
    p <- if (mechanism == "frl") list(M = p$M) else list(eta = p$eta, psi = p$psi)
    if (frl_gaussian(mechanism, o)) p$M <- frl_gaussian_pss_M(basis, n, e, tau, o)   # (as dp_mean())
    for (nm in names(p)) if (!is.null(o[[nm]])) p[[nm]] <- o[[nm]]
    if (mechanism == "frl") p$M <- min(p$M, basis$J)
    p
  }
  bias <- function(n, e) mean_bias_bound(mechanism, basis, params_at(n, e), tau, o$threshold_scale)
  law <- function(n, e) {
    p <- params_at(n, e)
    if (mechanism == "gp") {
      dk <- iclp_sensitivity("gp", lam, n, tau, p, o)
      return(law_gp(dp_noise_scale(dk, e, o$delta, o$calibration), kernel, basis$grid))
    }
    pl <- iclp_plan(mechanism, numeric(length(lam)), lam, n, e, tau, p, o)
    law_iclp(list(mechanism = mechanism, basis = basis, noise_scale = pl$noise_scale,
                  params = list(M = p$M, J_tau = pl$J_tau, frl_noise = o$frl_noise),
                  values = list(grid = basis$grid)))
  }
  # ICLP-AR's components released (J_tau) grow with n in steps under the default psi = tau / n
  step <- if (mechanism == "iclp_ar" && is.null(o$psi)) {
    function(n) {
      p <- params_at(n, epsilon)
      sum(ar_threshold(lam, p$eta, p$psi, o$threshold_scale, o$measure) < tau)
    }
  }
  list(law = law, bias = bias, mechanism = mechanism, n = n, epsilon = epsilon, delta = delta, tau = tau,
       default_psi = mechanism %in% c("iclp_qr", "iclp_ar") && is.null(o$psi), step = step)
}

accuracy_settings_kde <- function(n, epsilon, delta, grid, opts, domain = NULL) {
  km <- check_choice(if (is.null(opts$kde_mechanism)) "gp" else opts$kde_mechanism,
                     c("gp", "iclp", "frl", "bernstein", "sobolev"), "kde_mechanism")
  opts$kde_mechanism <- NULL
  if (km != "gp") return(accuracy_settings_kde_iclp(n, epsilon, grid, km, opts, domain, delta))
  bad <- setdiff(names(opts), c("bandwidth", "calibration"))
  if (length(bad)) dpfda_abort(sprintf("`%s` is not an option of dp_kde()'s \"gp\" mechanism here.", bad[1L]),
                               arg = bad[1L])
  if (is.null(opts$bandwidth)) {
    dpfda_abort("`bandwidth` is needed for mechanism \"kde\": the public bandwidth you plan to use.",
                arg = "bandwidth")
  }
  delta <- check_delta(delta, zero = gaussian_delta_zero("dp_kde()'s mechanism \"gp\"", "kde_mechanism = \"iclp\""))
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  bw <- as_bandwidth(opts$bandwidth, d)
  calibration <- opts$calibration %||% "analytic"
  law <- function(n, e) {
    sens <- sensitivity_kde(n, if (is.matrix(bw$H) && !bw$isotropic) bw$H else sqrt(bw$H[1, 1]), d = d)
    law_gp(dp_noise_scale(sens, e, delta, calibration), bw$kernel, grid)
  }
  bias <- function(n, e) list(l2 = NA_real_, sup = NA_real_, worst_l2 = NA_real_,
                              note = "the kernel smoothing bias depends on the density: no public bound")
  list(law = law, bias = bias, mechanism = "kde (gp)", n = n, epsilon = epsilon, delta = delta, tau = NULL)
}

# dp_kde(mechanism = "iclp", "frl", "bernstein" or "sobolev"): the noise law follows from the grid,
# the kernel, the bandwidth, the domain, n and epsilon (and delta for "sobolev") alone (the
# sensitivity is a maximum over grid points or the lattice, not over data), so the plan is the law
# of a release of one point counted n times (`counts`). It is made under a public seed with the
# seeded source, both restored: the caller's noise source is not advanced, and no data enter.
accuracy_settings_kde_iclp <- function(n, epsilon, grid, km, opts, domain, delta = 0) {
  # ("bernstein_k", as in dp_mean(): a `k` here would match dp_accuracy()'s `kernel`)
  ok <- c("bandwidth", switch(km, bernstein = c("bernstein_k", "h"), sobolev = "calibration",
                              setdiff(iclp_kde_options, "counts")))
  bad <- setdiff(names(opts), ok)
  if (length(bad)) {
    dpfda_abort(sprintf("`%s` is not an option of dp_kde()'s \"%s\" mechanism here (%s).", bad[1L], km,
                        paste0("`", ok, "`", collapse = ", ")), arg = bad[1L])
  }
  if (is.null(opts$bandwidth)) {
    dpfda_abort(sprintf("`bandwidth` is needed for mechanism \"kde\" (\"%s\"): the public bandwidth you plan to use.",
                        km), arg = "bandwidth")
  }
  delta <- if (km == "sobolev") {
    check_delta(delta, zero = gaussian_delta_zero("dp_kde()'s mechanism \"sobolev\"", "kde_mechanism = \"iclp\""))
  } else 0
  pts <- as_points(grid, "grid")
  dom <- if (is.null(domain)) apply(pts, 2L, range) else matrix(domain, nrow = 2L)
  centre <- matrix(colMeans(dom), 1L)
  x0 <- if (ncol(centre) == 1L) as.vector(centre) else centre
  release <- function(n, e) {
    old <- dp_rng("seeded")
    on.exit(dp_rng(old))
    o <- opts[setdiff(names(opts), "bandwidth")]
    names(o)[names(o) == "bernstein_k"] <- "k"
    args <- c(list(x0, grid, opts$bandwidth, e, delta, mechanism = km, domain = if (!is.null(domain)) domain,
                   counts = n), o)
    suppressWarnings(do.call(dp_kde, args))
  }
  last <- new.env()   # (the last law made: dp_accuracy() asks again for the one checked here)
  law <- function(n, e) {
    if (!identical(last$at, c(n, e))) {
      last$law <- noise_law(with_public_seed(1L, release(n, e)))
      last$at <- c(n, e)
    }
    last$law
  }
  law(n, epsilon)   # (the settings are checked now, by dp_kde() itself)
  bias <- function(n, e) list(l2 = NA_real_, sup = NA_real_, worst_l2 = NA_real_,
                              note = "the smoothing bias depends on the density: no public bound")
  list(law = law, bias = bias, mechanism = sprintf("kde (%s)", km), n = n, epsilon = epsilon, delta = delta,
       tau = NULL)
}

accuracy_settings_cov <- function(n, epsilon, tau, kernel, grid, opts) {
  bad <- setdiff(names(opts), c("J", "centered", "eta", "psi", "h"))
  if (length(bad)) dpfda_abort(sprintf("`%s` is not an option of dp_cov(); see ?dp_cov.", bad[1L]), arg = bad[1L])
  if (!is.null(dim(grid))) dpfda_abort("mechanism = \"cov\" needs a one-dimensional grid.", arg = "grid")
  basis <- cov_basis(kernel, grid, if (!is.null(opts$J)) check_count(opts$J, "J", min = 1, max = length(grid)))
  centered <- if (is.null(opts$centered)) TRUE else check_flag(opts$centered, "centered")
  h <- opts$h %||% kernel_edr(kernel, 1L)
  lam2 <- as.vector(outer(basis$values, basis$values))
  tg <- as_grid(list(basis$grid, basis$grid))
  S2 <- basis_measure(basis)^2   # psi on the unit-measure tensor domain, as dp_cov()
  law <- function(n, e) {
    p <- pss_params("iclp_qr", n, e, h, tau^2 / S2)
    eta <- opts$eta %||% p$eta
    psi <- opts$psi %||% p$psi
    sens <- (if (centered) 6 else 2) * tau^2 / n * sqrt(sum(qr_shrink(lam2, eta, psi, S2)$g^2))
    noise_law.dpfda_iclp_cov_release(list(basis = basis, noise_scale = sqrt(2) * sens / e,
                                          values = list(grid = tg)))
  }
  # Hilbert-Schmidt bias over the tensor class sum c_jk^2 / (lam_j lam_k) <= tau^4 / lam_1^2
  bias <- function(n, e) {
    p <- pss_params("iclp_qr", n, e, h, tau^2 / S2)
    sh <- qr_shrink(lam2, opts$eta %||% p$eta, opts$psi %||% p$psi, S2)$s
    list(l2 = tau^2 / basis$values[1L] * sqrt(max((1 - sh)^2 * lam2)), sup = NA_real_,
         worst_l2 = tau^2 * max(1 - sh), note = bias_note)
  }
  list(law = law, bias = bias, mechanism = "cov", n = n, epsilon = epsilon, delta = 0, tau = tau)
}

# ---- the utility warning of new releases ---------------------------------------

# The largest L2 norm the public bounds allow the released signal (the
# clipped summary, without noise) to have, or NULL when the mechanism has no
# such public bound.
signal_bound_l2 <- function(x) {
  if (inherits(x, "dpfda_kde_release")) return(kde_signal_l2(x))
  if (inherits(x, "dpfda_iclp_cov_release")) return(x$tau^2)
  if (inherits(x, "dpfda_iclp_release") && is.numeric(x$tau)) {
    if (identical(x$mechanism, "bernstein")) {
      return(x$tau * sqrt(sum(quadrature_weights(x$values$grid))))
    }
    return(x$tau)
  }
  if (inherits(x, c("dpfda_gpreg_release", "dpfda_bin_release", "dpfda_krr_release", "dpfda_iclp_erm_release")) &&
      is.numeric(x$y_bound)) {
    w <- tryCatch(sum(quadrature_weights(x$values$grid)), error = function(e) NULL)
    if (!is.null(w)) return(regression_signal(x$y_bound) * sqrt(w))
  }
  NULL
}

# The largest L2 norm a density estimate with the release's public bandwidth
# can have: that of the estimate from a single point (all the mass in one
# place; spreading it can only lower the norm, by the triangle inequality).
# Gaussian kernel with covariance H (gp, sobolev, bernstein): the kernel's own
# norm, ||K_H||^2 = (4 pi)^(-d/2) det(H)^(-1/2), ignoring the domain's edges
# (which only lower it). ICLP / FRL: the power-kernel estimate of a point at
# the grid node nearest the domain's centre, normalised as the release's
# (R/mech-iclp-kde.R), c * V (lambda^eta * V[k, ]), whose norm is c times the
# root of sum_j lambda_j^(2 eta) V_kj^2 (V orthonormal in the grid's
# weights), over the released components (the first M for FRL).
kde_signal_l2 <- function(x) {
  if (inherits(x, "dpfda_iclp_kde_release")) {
    b <- x$basis
    p <- x$params
    if (is.null(b$vectors) || !is.numeric(p$eta) || !is.numeric(p$normaliser)) return(NULL)
    idx <- if (is.numeric(p$M)) seq_len(min(p$M, b$J)) else seq_len(b$J)
    dom <- x$values$domain
    g <- as_points(b$grid, "grid")
    centre <- if (is.null(dim(dom))) mean(dom) else colMeans(dom)
    k <- which.min(colSums((t(g) - centre)^2))
    return(p$normaliser * sqrt(sum(b$values[idx]^(2 * p$eta) * b$vectors[k, idx]^2)))
  }
  H <- as.matrix(x$bandwidth)
  dH <- if (length(H) && all(is.finite(H))) det(H) else NA_real_
  if (!is.finite(dH) || dH <= 0) return(NULL)
  sqrt((4 * pi)^(-nrow(H) / 2) / sqrt(dH))
}

# The pointwise signal of a regression with response bounds c(lower, upper),
# as dp_mean()'s: the regressions work about the midpoint (the GP prior's
# mean, the centring of KRR and ERM), so the data tell a deviation from it
# of at most half the range; when the bounds keep the outputs away from 0
# (both of one sign), the function is at least min |y_bound| in size, as a
# release centred on a public reference is at least the reference. (max
# |y_bound| let cars' distances in [0, 130] pass with noise of the whole
# range.)
regression_signal <- function(y_bound) {
  if (length(y_bound) != 2L) return(max(abs(y_bound)))
  floor <- if (y_bound[1L] > 0 || y_bound[2L] < 0) min(abs(y_bound)) else 0
  max(diff(range(y_bound)) / 2, floor)
}

# The size of the released curve that the public settings imply: the bound
# above; with a public centre (dp_mean(center = )), the L2 norm of the centre
# when that is larger, since the release is the centre plus a deviation
# bounded by tau.
signal_size_l2 <- function(x) {
  b <- signal_bound_l2(x)
  what <- if (inherits(x, "dpfda_kde_release"))
            "the estimate from one point, the largest a density estimate with this bandwidth can be"
          else if (inherits(x, "dpfda_iclp_cov_release")) "tau^2, the bound of the covariance"
          else if (identical(x$mechanism, "bernstein")) "tau times the root of the domain's length"
          else if (is.numeric(x$tau)) "the bound tau"
          else if (regression_signal(x$y_bound) > diff(range(x$y_bound)) / 2)
            "the smallest |y_bound| over the domain, the least size of the outputs"
          else "half the range of y_bound over the domain, the largest deviation from its midpoint"
  cen <- x[["center"]]                     # [[ ]]: no partial match of other fields (`centered`)
  if (is.null(b) || is.null(cen)) return(list(size = b, what = what))
  g <- x$values$grid
  cn <- tryCatch(sqrt(sum(quadrature_weights(g) * center_at(cen, g)^2)), error = function(e) NA_real_)
  if (is.finite(cn) && cn > b) return(list(size = cn, what = "the L2 norm of the public centre"))
  list(size = b, what = what)
}
