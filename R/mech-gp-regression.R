# Smith, Alvarez, Zwiessele & Lawrence (2019): differentially private
# Gaussian-process regression. Inputs x are public, outputs y private and
# bounded; only the posterior mean needs noise.

#' Differentially private Gaussian-process regression
#'
#' Releases the posterior mean of a Gaussian-process regression at the public
#' test points `newdata` under \eqn{(\epsilon, \delta)}-DP, where neighbouring
#' data sets differ in one output \eqn{y_i} (inputs `x` are public). Outputs
#' are clipped to the public interval `y_bound = c(lower, upper)` and centred
#' at its midpoint (the zero-mean prior is placed there), so one record moves
#' one output by at most \eqn{d = } `upper - lower`.
#'
#' * `mechanism = "standard"` (Section 2): Hall et al.'s mechanism. The posterior
#'   mean \eqn{f_D = \sum_i \alpha_i k(x_i, \cdot)}, \eqn{\alpha = K^{-1} y},
#'   lies in the RKHS of `kernel`, and noise \eqn{\sigma G}, \eqn{G \sim
#'   GP(0, k)}, is added at `newdata`. The sensitivity is chosen by `bound`:
#'   `"rkhs"` (default) is the exact RKHS sensitivity
#'   \eqn{d \sqrt{\max_j [K^{-1} K' K^{-1}]_{jj}}} (\eqn{K = K' + \sigma_n^2 I});
#'   `"paper_b"` is the paper's \eqn{d\, \sqrt v\, b(K^{-1})} (the larger of the
#'   maximal row sums of the positive and negative parts of \eqn{K^{-1}});
#'   it bounds the sup-norm change, not the RKHS norm the theorem needs, and
#'   is kept for reproducing the paper; `"infinity"` is
#'   \eqn{d\, \sqrt v\, \|K^{-1}\|_\infty}, a proven RKHS bound
#'   (\eqn{\|\sum_i a_i k(x_i, \cdot)\|^2 = a^\top K' a \le v \|a\|_1^2} for
#'   a kernel bounded by \eqn{v}). With kernel variance \eqn{v = 1} these are
#'   the paper's formulas.
#' * `mechanism = "cloaking"` (Section 3): noise \eqn{N(0, \sigma^2 M)} at the
#'   test points with \eqn{M = \sum_i \lambda_i c_i c_i^\top} from
#'   [cloaking_covariance()], \eqn{C = K_{*f} K^{-1}} (one column \eqn{c_i}
#'   per training point). A neighbour moves the released vector by \eqn{d
#'   c_i}, whose Mahalanobis norm is \eqn{d \sqrt{c_i^\top M^+ c_i} \le d}
#'   after the solver's final scaling, so \eqn{\sigma} =
#'   [dp_noise_scale()]\eqn{(d \sqrt{\max_i c_i^\top M^+ c_i}, \epsilon,
#'   \delta)}. (The paper multiplies by \eqn{\max_i q_i} instead of its square
#'   root, which under-noises when the solver has not converged; with the
#'   scaling both agree.) Usually far less noise than `"standard"`. The test
#'   points must be fixed before seeing `y`; the release cannot be evaluated
#'   elsewhere. More test points than training points (singular \eqn{M}) are
#'   handled: the noise lives in the range of \eqn{C}, as does every
#'   neighbour's shift.
#'
#' **Automatic bound** (`y_bound = "auto"`). A share `bound_share` of
#' `epsilon` buys the bound privately, by the rule of `tau = "auto"` in
#' [dp_mean()] applied to the outputs' distances \eqn{|y_i - c|} to a public
#' centre \eqn{c} = `bound_center` (default 0): the exponential mechanism
#' over public candidates, five per decade on a log scale over `bound_range`
#' (default \eqn{[10^{-4}, 10^4] \sqrt{v + \sigma_n^2}}, the prior sd of the
#' outputs from the public kernel variance \eqn{v} and `noise_variance`, so
#' the default follows the units of the model), targets a high quantile of
#' the distances (`bound_quantile`, default 0.9, lowered by the same public
#' rule at small \eqn{n}), and the chosen candidate \eqn{B} gives `y_bound =
#' c + c(-B, B)`. Replacing one output moves every rank of the histogram by
#' at most 1 (sensitivity 1). The rest of `epsilon` and all of `delta` go to
#' the release, calibrated to that `y_bound`, so the whole call is
#' \eqn{(\epsilon, \delta)}-DP and charges exactly `epsilon` and `delta`,
#' one ledger entry for the bound and the release (see Automatic bounds in
#' [privacy_budget()] for how it composes under `"gdp"` and `"zcdp"`). The
#' default share
#' is 0.1, raised up to 0.5 when \eqn{n\,\epsilon} is small; too few outputs
#' for the share is an error of class `dpfda_error_privacy`, and a choice
#' outside `bound_range` (the outputs lie outside it) one of class
#' `dpfda_error_data`, after the bound's budget is charged; each says what
#' to do (give `y_bound`, a larger share, another range). The release
#' records `y_bound`, `y_bound_auto` (`bound` \eqn{B}, `epsilon`, `share`,
#' `quantile`, `range`, `center`) and `epsilon_release`; the print says
#' "y_bound chosen privately (share ... of epsilon)". The private quantile
#' needs a few hundred outputs at \eqn{\epsilon = 1} (\eqn{n \epsilon}
#' `bound_share` at least about 43 with the default range).
#'
#' **Several rows per person (`unit`).** Without `unit` each output is one
#' individual's. With `unit` (the inputs of every row stay public, as
#' without it), all outputs of one unit may change at once, each by at most
#' \eqn{d}: the released vector moves by \eqn{\sum_{i \in u} s_i c_i} with
#' \eqn{|s_i| \le d}. The noise is calibrated to the largest such shift over
#' the units: for cloaking its Mahalanobis norm in \eqn{M}, for `"standard"`
#' the RKHS norm (`bound = "rkhs"`) or the triangle inequality over the
#' unit's rows (`"infinity"`; `"paper_b"` has no unit version). The maximum of
#' a convex function over the box \eqn{[-d, d]^k} is at a vertex, so for units
#' of up to 12 rows all sign vectors are searched (exact); larger units use
#' the smaller of the triangle inequality and \eqn{\sqrt{k \lambda_{\max}}}.
#' Units of one row give the release without `unit`. A unit's rows at nearby
#' inputs add up (about \eqn{k} times one row's shift for \eqn{k} rows at one
#' place), so the noise grows with the largest unit: cloaking's \eqn{M} is the
#' one-row optimum, scaled. With `y_bound = "auto"` the histogram weighs each
#' row 1 / (its unit's rows) (a whole unit moves it by at most 1). `n` and the
#' print count units.
#'
#' The posterior variance depends on public quantities only and is returned as
#' it is. The paper calibrates with \eqn{c(\delta)\Delta/\epsilon}
#' (`calibration = "hall"`), proven only for \eqn{\epsilon \le 1}; its
#' Figure 1A uses \eqn{\epsilon = 100}, which needs
#' `allow_large_epsilon = TRUE` and carries no guarantee.
#'
#' @param x Public training inputs (vector, `n x D` matrix or data frame of
#'   numeric columns), or a formula `y ~ x1 + ...` whose variables are
#'   columns of `data`.
#' @param y Private training outputs (length `n`), clipped to `y_bound`
#'   (omit it with a formula).
#' @param newdata Public test points (vector or `P x D` matrix, no
#'   duplicates); with a formula or a data frame `x`, a data frame with the
#'   predictor columns (taken by name, in x's order; other columns are
#'   ignored), or a matrix whose column names are x's columns (taken by name
#'   too). One-dimensional test points are sorted.
#' @param data With a formula (in the pipe's order the data frame may come
#'   first and the formula second, `d |> f(y ~ x, ...)`): the data frame holding its variables.
#' @param unit The privacy unit when one person has several rows: a vector
#'   with one entry per row of `x` (e.g. a person id), or with a formula a
#'   column of `data` (a string or a bare name). `NULL`: each row is its own
#'   unit. See Details.
#' @param kernel The GP prior kernel (see [kernels]). Its `variance` is the
#'   prior variance of the outputs about the midpoint of `y_bound`: give it
#'   on the outputs' scale (below 1% of `noise_variance` and of the squared
#'   half-range of `y_bound`, a `dpfda_warning_utility` says that the
#'   posterior mean will stay near the midpoint).
#' @param noise_variance Public observation-noise variance \eqn{\sigma_n^2 > 0}.
#' @param y_bound Public `c(lower, upper)` bounds on the outputs (one positive
#'   number `B` stands for `c(-B, B)`), or `"auto"`:
#'   chosen privately with a share of `epsilon` (see Automatic bound).
#' @param epsilon,delta Privacy parameters.
#' @param budget `NULL`, or a [privacy_budget()] to charge (the release is
#'   refused, with an error of class `dpfda_error_budget`, when it would
#'   exceed the budget).
#' @param mechanism `"cloaking"` (default) or `"standard"`, as the
#'   `mechanism` argument of the other functions.
#' @param method The former name of `mechanism`, still accepted as an alias.
#' @param calibration See [dp_noise_scale()].
#' @param bound Sensitivity bound of the standard method (see Details).
#' @param tol Solver tolerance passed to [cloaking_covariance()].
#' @param ... Passed to [dp_noise_scale()] (e.g. `allow_large_epsilon`); with
#'   `y_bound = "auto"`, its options `bound_share`, `bound_range`,
#'   `bound_quantile` (as for `tau = "auto"` in [dp_mean()]) and
#'   `bound_center` (the public centre of the outputs, default 0).
#' @param noise `"float"` (default), or `"exact"` for discrete Gaussian noise
#'   on a grid in whitened coordinates (step proportional to the noise
#'   scale), calibrated through zCDP
#'   (see [exact_noise]).
#' @return A `dpfda_release` (subclass `dpfda_gpreg_release`) with the released
#'   mean at `newdata` in `values`, plus `posterior_variance`,
#'   `noise_covariance` (covariance of the added noise at `newdata`),
#'   `regression` (the method), and for cloaking `lambda` and `max_constraint`
#'   (with `y_bound = "auto"`: `y_bound_auto`, `epsilon_release`).
#' @references Smith, M. T., Alvarez, M. A., Zwiessele, M. and Lawrence, N. D.
#'   (2018). Differentially private regression with Gaussian processes.
#'   *AISTATS*, PMLR 84, 1195--1203.
#' @examples
#' old <- dp_reproducible(1)
#' # (the cloaking noise falls with n: at n = 40 the release would be mostly noise, and say so)
#' x <- sort(runif(500))
#' y <- sin(6 * x) + rnorm(500, 0, 0.2)
#' r <- dp_gp_regression(x, y, seq(0, 1, length.out = 30), kernel_gaussian(0.2),
#'                       noise_variance = 0.04, y_bound = c(-2, 2), epsilon = 1, delta = 1e-5)
#' r
#' plot(r, band = TRUE)
#' # formula interface (133 records of MASS::mcycle: at epsilon = 1 mostly noise, as the
#' # warning says; dp_accuracy() tells before releasing)
#' if (requireNamespace("MASS", quietly = TRUE)) {
#'   r2 <- dp_gp_regression(accel ~ times, data = MASS::mcycle,
#'                          newdata = data.frame(times = seq(2, 58, length.out = 50)),
#'                          kernel = kernel_gaussian(5, variance = 2500), noise_variance = 500,
#'                          y_bound = c(-150, 100), epsilon = 1, delta = 1e-5)
#' }
#' # y_bound chosen privately (a share of epsilon) around a public centre
#' x3 <- runif(400)
#' y3 <- 10 + sin(6 * x3) + rnorm(400, 0, 0.3)
#' r3 <- dp_gp_regression(x3, y3, seq(0, 1, length.out = 30), kernel_gaussian(0.2),
#'                        noise_variance = 0.09, y_bound = "auto", epsilon = 1, delta = 1e-5,
#'                        bound_center = 10)
#' r3$y_bound
#' dp_rng(old)
#' @export
dp_gp_regression <- function(x, y, newdata, kernel, noise_variance, y_bound, epsilon, delta,
                             mechanism = c("cloaking", "standard"),
                             calibration = c("analytic", "hall", "classical"),
                             bound = c("rkhs", "paper_b", "infinity"), tol = 1e-8, ...,
                             noise = c("float", "exact"), budget = NULL, data = NULL, method = NULL, unit = NULL) {
  call <- match.call()
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  fr <- if (!missing(x)) frame_predictors(x)   # (named columns of a data frame: kept for predict())
  fd <- if (!missing(x)) formula_call(x, !missing(y), data, if (!missing(newdata)) newdata, "dp_gp_regression",
                                      "newdata", new_required = TRUE, y = if (!missing(y)) y)
  if (!is.null(fd)) {
    x <- fd$x
    y <- fd$y
    data <- fd$data
    newdata <- fd$newdata
  }
  check_required(c("x", "y", "newdata", "kernel", "noise_variance", "y_bound", "epsilon", "delta"),
                 advice = list(delta = paste("delta = 1e-5 (well below 1/n): the GP regression adds Gaussian",
                                             "noise and is (epsilon, delta)-DP; for pure DP, dp_bin_regression()"),
                               kernel = paste(arg_advice[["kernel"]], "(or chosen privately among public candidates",
                                              "by dp_gp_select(), with noise_variance)"),
                               noise_variance = paste(arg_advice[["noise_variance"]], "(or chosen privately by",
                                                      "dp_gp_select())"),
                               y_bound = paste(arg_advice[["y_bound"]], "or \"auto\" to spend a share of epsilon",
                                               "on them")))
  newdata <- newdata_in_x_order(newdata, x)   # (columns by name, as with a formula)
  noise <- check_noise(noise)
  budget <- release_open(budget)
  # `mechanism` as in every other function; `method` (its former name) stays an alias
  mechanism_given <- !missing(mechanism)
  mechanism <- check_choice(mechanism, c("cloaking", "standard"), "mechanism")
  if (!is.null(method)) {
    alias <- check_choice(method, c("cloaking", "standard"), "method")
    if (mechanism_given && !identical(alias, mechanism)) {
      dpfda_abort(sprintf("Give `mechanism` (here \"%s\") or its alias `method` (\"%s\"), not both.",
                          mechanism, alias), arg = "method")
    }
    mechanism <- alias
  }
  method <- mechanism
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  bound <- check_choice(bound, c("rkhs", "paper_b", "infinity"), "bound")
  epsilon <- check_epsilon(epsilon)
  delta <- check_delta(delta, zero = gaussian_delta_zero("dp_gp_regression()", "dp_bin_regression()"))
  units <- if (!is.null(unit)) regression_units(unit, NROW(as_points(x, "x")), data)
  # (units of one row each are rows: the release without a unit, paper_b included)
  if (!is.null(units) && units$n < length(units$codes) && method == "standard" && bound == "paper_b") {
    dpfda_abort(paste("bound = \"paper_b\" (the paper's bound, not a proven RKHS bound) has no version for a",
                      "privacy unit of several rows; use bound = \"rkhs\" or \"infinity\"."), arg = "bound")
  }
  warn_privacy(epsilon, delta, if (is.null(units)) length(y) else units$n)
  tol <- check_number(tol, "tol", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                      what = "a number strictly between 0 and 1")   # also when unused (standard)
  # y_bound = "auto" (R/auto-y-bound.R): its options come out of `...` (the rest goes to dp_noise_scale())
  dots <- split_ybound_options(list(...))
  check_noise_dots(dots$rest, "dp_gp_regression")
  ch <- NULL
  eps_rel <- epsilon
  if (identical(y_bound, "auto")) {
    # the public inputs and outputs checked before any budget is spent
    n <- nrow(as_points(x, "x"))
    check_y_values(y, n)
    check_kernel(kernel)
    noise_variance <- check_number(noise_variance, "noise_variance", lower = 0, lower_open = TRUE)
    # the default range follows the prior sd of the outputs, sqrt(v + noise_variance) (public)
    ab <- ybound_auto_options(dots$auto, sqrt(kernel$variance + noise_variance))
    ch <- ybound_choose(ybound_hist(y, ab$center, ab$candidates, units$weights), units$n %||% n, ab, epsilon,
                        budget, "dp_gp_regression")
    y_bound <- ch$y_bound
    eps_rel <- epsilon - ch$epsilon
  } else {
    auto_bound_unused(dots$auto, "y_bound", ybound_option_names)
  }
  # the charge: the release's (epsilon, delta) with its Gaussian profile; with y_bound = "auto" one
  # entry for the bound and the release together (R/auto-y-bound.R)
  finish <- function(rel, label) {
    rel$n <- length(y)   # (the records: one per individual, as the print says)
    if (!is.null(units)) {
      rel$n <- units$n
      rel$privacy_unit <- privacy_unit_points(units$n, units$label)
    }
    rel <- formula_release(rel, fd %||% fr)
    if (is.null(ch)) return(release_close(rel, budget, label))
    ybound_close(rel, budget, paste(label, "y_bound = \"auto\""), ch, epsilon)
  }
  # the individuals in a canonical order (the release does not depend on the order they came in)
  xp <- tryCatch(as_points(x, "x"), error = function(e) NULL)
  # (only valid data are reordered: a refusal names the position the user gave, Inf included)
  if (!is.null(xp) && is.numeric(y) && length(y) == nrow(xp) && all(is.finite(y)) && all(is.finite(xp))) {
    o <- canonical_rows(xp, y)
    x <- xp[o, , drop = FALSE]
    y <- y[o]
    if (!is.null(units)) units$codes <- units$codes[o]
  }
  # (a unit of several rows needs K^-1 itself for the standard RKHS bound: unit_gp_bound())
  several <- !is.null(units) && units$n < length(units$codes)
  parts <- gp_regression_parts(x, y, newdata, kernel, noise_variance, y_bound,
                               inverse = if (method == "standard") (if (several && bound == "rkhs") TRUE else "stats")
                                         else FALSE, auto_ok = TRUE)
  warn_prior_scale(kernel, noise_variance, parts$y_bound)
  d <- parts$d
  if (method == "standard") {
    sens <- d * if (several) unit_gp_bound(parts, kernel, noise_variance, bound, units$codes)
                else standard_gp_bound(parts, kernel, noise_variance, bound)
    sigma <- do.call(dp_noise_scale, c(list(sens, eps_rel, delta, calibration = calibration), dots$rest))
    rel <- gp_release(parts$mean, parts$grid, kernel, sigma, mechanism = "gp-regression-standard",
                      epsilon = eps_rel, delta = delta, sensitivity = sens, call = call,
                      calibration = calibration, regression = "standard", bound = bound,
                      y_bound = parts$y_bound, posterior_variance = parts$variance,
                      build = new_gpreg_release, noise_mode = noise)
    rel$noise_covariance <- rel$noise_scale^2 * (kernel_matrix(kernel, parts$points) +
                                                   rel$jitter * diag(nrow(parts$points)))
    return(finish(rel, "dp_gp_regression (standard)"))
  }
  cl <- cloaking_covariance(parts$C, tol = tol)
  rel <- cloaking_release(parts, cl, eps_rel, delta, calibration, call, noise_args = dots$rest,
                          noise_mode = noise, unit_codes = if (several) units$codes)
  finish(rel, "dp_gp_regression (cloaking)")
}

# The standard mechanism's sensitivity per unit d when every output of one unit (`codes`, one per row)
# moves (R/unit-sensitivity.R). "rkhs": the RKHS norm of sum_{i in u} s_i K^-1 e_i k(x, .) is
# s' G_u s with G = A K' A = A - noise_variance A^2 (A = K^-1, K' = K - noise_variance I);
# "infinity": sqrt(v) ||A s||_1 <= sqrt(v) sum_{i in u} ||A e_i||_1 (the triangle inequality).
unit_gp_bound <- function(parts, kernel, noise_variance, bound, codes) {
  if (bound == "infinity") {
    S <- parts$Kinv_stats
    return(sqrt(kernel$variance) * max(rowsum(S[, 3L] + S[, 4L], codes)))
  }
  A <- parts$Kinv
  # s' G_u s = s' A s - noise_variance ||A s||^2, with A s (n x units) built column block by block
  quad <- function(V, s, idx) {
    q <- 0
    for (j in seq_along(s)) q <- q + s[j] * V[cbind(idx[, j], seq_len(nrow(idx)))]
    q - noise_variance * colSums(V^2)
  }
  unit_shift_norm(function(i) A[, i, drop = FALSE], quad, codes)
}

# The cloaking mechanism for any mean that is linear in the clipped outputs,
# parts$mean = mid + C (y - mid) (shared with dp_sparse_gp_regression()):
# noise sigma * C diag(sqrt(lambda)) z ~ N(0, sigma^2 M), an exact draw that
# works for singular M, with sigma calibrated to d sqrt(max_i c_i' M^+ c_i).
cloaking_release <- function(parts, cl, epsilon, delta, calibration, call, noise_args = list(),
                             mechanism = "gp-regression-cloaking", regression = "cloaking", ...,
                             noise_mode = "float", unit_codes = NULL) {
  sens <- parts$d * if (is.null(unit_codes)) sqrt(cl$max_constraint) else cloaking_unit_bound(parts$C, cl, unit_codes)
  sigma <- do.call(dp_noise_scale, c(list(sens, epsilon, delta, calibration = calibration), noise_args))
  # Release the mean projected on range(M) plus N(0, sigma^2 M) noise: the parts
  # of the mean (and of every neighbour's shift d c_i) outside that range,
  # below the solver's rank threshold, would otherwise carry no noise at all.
  mid <- mean(parts$y_bound)
  B <- cl$basis
  M <- cl$M
  step <- rho <- NULL
  if (noise_mode == "exact") {
    # whitened coordinates of range(M): M = B Mb B', Mb = L L'; w = L^-1 B' (mean - mid) has
    # ||L^-1 B' d c_i|| <= d sqrt(c_i' M^+ c_i) <= sens; exact discrete Gaussian on w, release B L w~
    Mb <- crossprod(B, M %*% B)
    fct <- chol_jitter((Mb + t(Mb)) / 2, jitter = 1e-10)
    w <- forwardsolve(fct$L, as.vector(crossprod(B, parts$mean - mid)))
    lat <- exact_lattice(sigma, "gaussian")   # (a grid in units of the noise: R/noise-exact.R)
    sens_x <- sens + exact_rounding(length(w), lat$step, "l2")
    sigma <- exact_gaussian_sigma(sens_x, epsilon, delta)
    released <- mid + as.vector(B %*% (fct$L %*% exact_gaussian_noise(w, sigma, lat$k, lat$unit)))
    rm(w)
    M <- B %*% tcrossprod(fct$L) %*% t(B)
    step <- lat$step
    rho <- sens_x^2 / (2 * sigma^2)
  } else {
    check_float_tails("gaussian", epsilon, delta, m = ncol(cl$factor),
                      shift = if (sigma > 0) sens / sigma else 0, what = mechanism,
                      calibration = calibration)
    z <- noise_draw(ncol(cl$factor), "normal")
    released <- mid + as.vector(B %*% crossprod(B, parts$mean - mid)) + sigma * as.vector(cl$factor %*% z)
  }
  vals <- new_dpfda_curves(matrix(released, nrow = 1L), parts$grid, as_domain(NULL, parts$grid))
  new_gpreg_release(vals, mechanism = mechanism, epsilon = epsilon, delta = delta,
                    sensitivity = sens, noise_scale = sigma,
                    noise = sprintf("%s with cloaking covariance M (see noise_covariance)",
                                    if (noise_mode == "exact") "discrete Gaussian (exact)" else "Gaussian"),
                    call = call, calibration = calibration, regression = regression,
                    y_bound = parts$y_bound, posterior_variance = parts$variance,
                    noise_covariance = sigma^2 * M, lambda = cl$lambda,
                    max_constraint = cl$max_constraint, ..., noise_exact = if (noise_mode == "exact") TRUE,
                    grid_step = step, zcdp_rho = rho)
}

# The cloaking sensitivity per unit d when every output of one unit (`codes`) moves: the Mahalanobis
# norm of sum_{i in u} s_i c_i in M (R/unit-sensitivity.R), from the whitened columns z_i = F^+ c_i
# (M = F F', F of full column rank: z_i' z_j = c_i' M^+ c_j on the range the release is projected on).
# F = U_r T with U_r the orthonormal `basis` and T lower triangular (src/cloak.c), so F^+ c =
# T^{-1} U_r' c: a triangular solve, as the solver computes q_i. (The normal equations F'F z = F'c
# square T's condition number: 1e16 for ChickWeight's repeated times, where they failed.)
# One row's is sqrt(q_i) <= sqrt(max_constraint); the rounding margin of the solver's final scaling
# covers this computation as it covers q_i's.
cloaking_unit_bound <- function(C, cl, codes) {
  Fm <- cl$factor
  if (ncol(Fm) == 0L) return(0)   # (C of rank 0: the projected release moves with no output)
  Z <- forwardsolve(crossprod(cl$basis, Fm), crossprod(cl$basis, C))
  sqrt(1 + cl$margin) * unit_shift_norm(function(i) Z[, i, drop = FALSE], function(V, s, idx) colSums(V^2), codes)
}

#' The release of dp_gp_regression() and dp_sparse_gp_regression(): class
#' `dpfda_gpreg_release`; the standard mechanism's (a GP path, with `jitter`
#' and `sampler`) is also a `dpfda_gp_release`.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()).
#' @param jitter,sampler The GP noise fields of the standard mechanism (see
#'   new_gp_release()).
#' @param calibration How sigma was calibrated.
#' @param regression "standard", "cloaking" or "cloaking-fitc".
#' @param bound The standard mechanism's bound on the RKHS sensitivity.
#' @param y_bound The public response bounds.
#' @param posterior_variance The public posterior variance at the new points.
#' @param noise_covariance The covariance of the noise at the new points
#'   (the standard mechanism's is set after the release, from its jitter).
#' @param lambda,max_constraint The cloaking mechanism's eigenvalues and
#'   max_i c_i' M^+ c_i (the sensitivity is d sqrt(max_constraint)).
#' @param inducing The inducing points of dp_sparse_gp_regression().
#' @param inducing_asked The number of inducing points asked for (`inducing =
#'   m`, set after the release; k-means gives fewer when `x` has fewer distinct
#'   points).
#' @param noise_exact,grid_step,calibration_exact,zcdp_rho Exact noise only.
#' @param epsilon_release,y_bound_auto With y_bound = "auto" (set by
#'   ybound_close()): the epsilon of the release proper and the record of the
#'   private choice of the bound.
#' @param n The number of records (one per individual; the print's privacy unit).
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_gpreg_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                              call = NULL, jitter = NULL, sampler = NULL, calibration = NULL, regression = NULL,
                              bound = NULL, y_bound = NULL, posterior_variance = NULL, noise_covariance = NULL,
                              lambda = NULL, max_constraint = NULL, inducing = NULL, noise_exact = NULL,
                              grid_step = NULL, calibration_exact = NULL, zcdp_rho = NULL,
                              epsilon_release = NULL, y_bound_auto = NULL, n = NULL,
                              predictors = NULL, inducing_asked = NULL) {
  release_from_fields(new_gpreg_release, c("dpfda_gpreg_release", if (!is.null(jitter)) "dpfda_gp_release"))
}

# Shared pieces: clipped and centred outputs, posterior mean, cloaking matrix,
# posterior variance (and K^{-1} for the standard bounds), computed in C.
# inverse = "stats" (the standard mechanism): no cloaking matrix C (NULL), the
# mean from alpha = K^{-1} y, and only the row functionals of K^{-1} that
# standard_gp_bound() reads (src/gpreg.c, dpfda_gp_standard).
gp_regression_parts <- function(x, y, newdata, kernel, noise_variance, y_bound, inverse = FALSE, auto_ok = FALSE) {
  check_kernel(kernel)
  x <- as_points(x, "x")
  n <- nrow(x)
  check_y_values(y, n)
  y_bound <- check_y_bound(y_bound, auto_ok)
  noise_variance <- check_number(noise_variance, "noise_variance", lower = 0, lower_open = TRUE)
  grid <- as_grid(newdata, "newdata")
  if (is.null(dim(grid))) grid <- sort(grid)
  pts <- as_points(grid, "newdata", d = ncol(x))
  check_alloc(as.double(n) * (n + 2 * nrow(pts)), "GP regression system")
  mid <- mean(y_bound)
  yc <- pmin(pmax(as.double(y), y_bound[1]), y_bound[2]) - mid
  K <- kernel_matrix(kernel, x)
  diag(K) <- diag(K) + noise_variance
  Kfs <- kernel_matrix(kernel, x, pts)
  kss <- rep(kernel$variance, nrow(pts))
  stats <- identical(inverse, "stats")
  r <- if (stats) c_gp_standard_parts(K, Kfs, kss, yc)
       else c_gp_posterior_parts(K, Kfs, kss, as.integer(isTRUE(inverse)))
  if (r$info != 0L) {
    dpfda_abort("The training covariance K + noise_variance I is not positive definite.",
                class = "dpfda_error_numeric", arg = "noise_variance")
  }
  list(mean = if (stats) as.vector(crossprod(Kfs, r$alpha)) + mid else as.vector(r$C %*% yc) + mid,
       C = r$C, variance = r$variance,
       Kinv = if (!stats) r$Kinv, Kinv_stats = r$Kinv_stats,
       grid = grid, points = pts, d = diff(y_bound), y_bound = as.double(y_bound), n = n)
}

# Sensitivity of the standard method per unit d.
standard_gp_bound <- function(parts, kernel, noise_variance, bound) {
  S <- parts$Kinv_stats
  if (!is.null(S)) {
    # columns: diag(A), rowSums(A^2), rowSums(pmax(A, 0)), rowSums(pmax(-A, 0)), A = K^{-1}
    return(switch(bound,
      rkhs = sqrt(max(0, max(S[, 1L] - noise_variance * S[, 2L]))),
      paper_b = sqrt(kernel$variance) * max(max(S[, 3L]), max(S[, 4L])),
      infinity = sqrt(kernel$variance) * max(S[, 3L] + S[, 4L])))
  }
  A <- parts$Kinv
  switch(bound,
    rkhs = sqrt(max(0, max(diag(A) - noise_variance * rowSums(A * A)))),
    # |k| <= v gives ||sum_i a_i k(x_i, .)||_H^2 = a' K' a <= v ||a||_1^2, hence sqrt(v)
    paper_b = sqrt(kernel$variance) * max(max(rowSums(pmax(A, 0))), max(rowSums(pmax(-A, 0)))),
    infinity = sqrt(kernel$variance) * max(rowSums(abs(A))))
}

#' @export
release_details.dpfda_gpreg_release <- function(x) {
  cat(sprintf("  GP regression (%s), outputs clipped to [%s, %s]; posterior sd in [%s, %s]\n",
              x$regression, format(x$y_bound[1], digits = 4), format(x$y_bound[2], digits = 4),
              format(sqrt(min(x$posterior_variance)), digits = 3),
              format(sqrt(max(x$posterior_variance)), digits = 3)))
  if (!is.null(x$inducing)) {   # (the sparse regression: how many inducing inputs it used)
    m <- NROW(x$inducing)
    asked <- x$inducing_asked
    cat(sprintf("  %d inducing inputs%s\n", m, if (is.numeric(asked) && asked > m) {
      sprintf(" (k-means on x; %d asked, but x has only %d distinct points)", as.integer(asked), m)
    } else ""))
  }
  print_ybound_auto(x)
}

# A formula without `newdata`: what to give, with the formula's predictors (it said "`newdata` must
# be a numeric vector or matrix of finite grid points, not NULL").
formula_newdata_missing <- function(formula, fun) {
  pv <- if (length(formula) == 3L) setdiff(all.vars(formula[[3L]]), ".") else character()
  if (!length(pv)) pv <- "x"
  require_arg_error("newdata", fun, sprintf(paste(
    "the public points at which to release the regression function: a data frame with the formula's",
    "predictor%s, e.g. newdata = %s(%s)"), if (length(pv) == 1L) "" else "s",
    if (length(pv) == 1L) "data.frame" else "expand.grid",
    paste(sprintf("%s = seq(lower, upper, length.out = %d)", pv, if (length(pv) == 1L) 50L else 10L),
          collapse = ", ")))
}

# The formula interface of the regressions and classifiers (`y ~ x1 + ...`,
# variables in `data`): NULL when `x` is not a formula (then `data` must be
# NULL), else formula_data()'s x, y and new points. `y_given`: the caller got
# a `y` too (refused); `new`: the new points (NULL: none), `new_arg` the name
# of their argument; `new_required`: dp_gp_regression() needs them.
formula_call <- function(x, y_given, data, new, fun, new_arg, labels = FALSE, new_required = FALSE, y = NULL,
                         missing_y = FALSE) {
  if (y_given && is.null(data) && is.data.frame(x) &&
      isTRUE(tryCatch(inherits(y, "formula"), error = function(e) FALSE))) {   # (y may be a bare column name)
    # the pipe's order, `mcycle |> dp_gp_regression(accel ~ times, ...)`: the data first, the formula second
    # (it was read as predictors x and a response y, and refused for a reason that did not say so)
    data <- x
    x <- y
    y_given <- FALSE
  }
  if (!inherits(x, "formula")) {
    if (!is.null(data)) {
      dpfda_abort(sprintf("`data` is used with a formula: %s(y ~ x, data = , %s = , ...).", fun, new_arg),
                  arg = "data")
    }
    return(NULL)
  }
  if (y_given && is.data.frame(y) && is.null(data)) {
    # (lm(dist ~ speed, cars) takes the data second; here the second argument is `y`)
    dpfda_abort(sprintf(paste("`y` is a data frame: with a formula, give the data frame by name, %s(%s, data = <data",
                              "frame>, ...); the second argument of %s() is `y`."),
                        fun, short_deparse(x), fun), arg = "data")
  }
  if (y_given) dpfda_abort("Give either a formula (with `data`) or `x` and `y`, not a formula and `y`.", arg = "y")
  if (new_required && is.null(new)) formula_newdata_missing(x, fun)
  out <- formula_data(x, data, new, fun, labels, missing_y)
  out$data <- data   # (for `unit`, a column of the data)
  out
}

# A formula `y ~ x1 + x2` evaluated in `data`: numeric predictors (no
# intercept, no transformations beyond what model.frame() does), the
# response, and the same predictors taken from `newdata`.
formula_data <- function(formula, data, newdata, fun, labels = FALSE, missing_y = FALSE) {
  if (is.null(data)) {
    dpfda_abort(sprintf("A formula needs `data`, the data frame holding its variables: %s(y ~ x, data = d, ...).",
                        fun), arg = "data")
  }
  if (!is.data.frame(data)) arg_error("data", "a data frame", data)
  if (!nrow(data)) {
    dpfda_abort(sprintf("`data` has no rows (its columns: %s): %s() needs at least one record.",
                        paste0("\"", names(data), "\"", collapse = ", "), fun),
                class = data_error_class, arg = "data")
  }
  if (length(formula) != 3L) dpfda_abort("The formula must have a response: y ~ x.", arg = "x")
  vars <- all.vars(formula[[3L]])
  miss <- setdiff(c(all.vars(formula[[2L]]), vars), c(names(data), "."))
  # (as lm(): a name that is not a column is looked up where the formula was written, e.g. a scale
  # factor `s` in y * s ~ x; only names found nowhere are refused)
  env <- environment(formula) %||% parent.frame()
  miss <- miss[!vapply(miss, exists, NA, envir = env)]
  if (length(miss)) {
    dpfda_abort(sprintf("The formula names %s, which %s not a column of `data` (its columns: %s).",
                        paste0("`", miss, "`", collapse = ", "), if (length(miss) == 1L) "is" else "are",
                        paste0("\"", names(data), "\"", collapse = ", ")), arg = "x")
  }
  mf <- tryCatch(stats::model.frame(formula, data, na.action = stats::na.pass),
                 error = function(e) dpfda_abort(sprintf("The formula cannot be evaluated in `data`: %s",
                                                         conditionMessage(e)), arg = "x"))
  y <- stats::model.response(mf)
  X <- mf[-1L]
  num <- vapply(X, is.numeric, NA)
  if (!all(num)) {
    k <- which(!num)[1L]
    dpfda_abort(sprintf(paste("The formula's predictor `%s` is %s; %s() needs numeric predictors. Leave it",
                              "out of the formula, or convert it to a number first (a factor: one model per",
                              "level, e.g. on subset(data, %s == \"...\"))."),
                        names(X)[k], describe_value(X[[k]]), fun, names(X)[k]), arg = "x")
  }
  X <- as.matrix(X)
  # (labels = TRUE: a classifier's response, numbers, a factor or logical, checked by the caller)
  if (!labels && !is.numeric(y)) arg_error("y", "a numeric response", y)
  # (missing_y: a missing response is the caller's to handle, as from vectors; dp_bin_regression()
  # counts it at the midpoint of y_bound, since dropping the row would change the public bin counts)
  bad <- (if (missing_y) FALSE else if (is.numeric(y)) !is.finite(y) else is.na(y)) | rowSums(!is.finite(X)) > 0
  if (any(bad)) {
    dpfda_abort(sprintf("`data` has %d row%s with missing or non-finite values in the formula's %s (rows %s); remove them first (e.g. with stats::complete.cases()).",
                        sum(bad), if (sum(bad) == 1L) "" else "s", if (missing_y) "predictors" else "variables",
                        paste(utils::head(which(bad), 5L), collapse = ", ")),
                class = data_error_class, arg = "data")
  }
  # the predictors' terms, evaluated on newdata as predict.lm() does (log(speed), I(speed / 10),
  # poly(speed, 2) from a column `speed`; they asked for a column named "log(speed)")
  tt <- stats::delete.response(stats::terms(mf))
  nd <- newdata
  if (is.data.frame(newdata)) nd <- formula_newdata(tt, newdata, colnames(X))
  pv <- colnames(X)
  if (ncol(X) == 1L) X <- as.vector(X)
  list(x = X, y = if (labels && !is.numeric(y)) y else as.double(y), newdata = nd, predictors = pv,
       response = if (is.name(formula[[2L]])) as.character(formula[[2L]]), terms = tt)
}

# The predictors of a formula's terms `tt` evaluated on the data frame `newdata` (its variables by
# name, other columns ignored), as a vector (one predictor) or a matrix with the columns `pv`.
formula_newdata <- function(tt, newdata, pv) {
  vars <- all.vars(tt)
  miss <- setdiff(vars, names(newdata))
  if (length(miss)) {
    dpfda_abort(sprintf("`newdata` must have the predictor column%s %s (the variable%s the formula's predictors use); it lacks %s.",
                        if (length(vars) == 1L) "" else "s", paste0("\"", vars, "\"", collapse = ", "),
                        if (length(vars) == 1L) "" else "s", paste0("\"", miss, "\"", collapse = ", ")),
                arg = "newdata")
  }
  mf <- tryCatch(stats::model.frame(tt, newdata, na.action = stats::na.pass),
                 error = function(e) dpfda_abort(sprintf("The formula's predictors cannot be evaluated in `newdata`: %s",
                                                         conditionMessage(e)), arg = "newdata"))
  nd <- as.matrix(mf)
  nd <- nd[, pv, drop = FALSE]
  if (ncol(nd) == 1L) as.vector(nd) else nd
}

# A release fit through a formula keeps the names of its predictors: predict() takes those columns
# of a data frame by name, as predict.lm() does, and plots label the axes by the predictors and
# the values by the response (`response = FALSE` for a classifier, whose values are scores);
# as.data.frame(names = TRUE) names the columns after them (with several predictors it said
# arg1, arg2).
formula_release <- function(rel, fd, response = TRUE) {
  if (is.null(fd)) return(rel)
  rel$predictors <- fd$predictors
  rel$terms <- fd$terms   # (predict() evaluates them on newdata)
  if (length(fd$predictors) == 1L || length(fd$predictors) == rel$values$dim) rel$values$arg_name <- fd$predictors
  if (response && !is.null(fd$response)) rel$values$value_name <- fd$response
  rel
}

# A release fit on a data frame `x` of named columns (no formula) keeps their names as a formula's
# predictors: predict() takes those columns of a data frame by name. (A test set with other columns
# was refused, and one with the same columns in another order was read by position: swapped inputs.)
frame_predictors <- function(x) {
  nm <- if (is.data.frame(x)) names(x)
  if (length(nm) >= 1L && !anyNA(nm) && all(nzchar(nm)) && !anyDuplicated(nm)) list(predictors = nm)
}

# newdata for predict(): with a release fit through a formula and a data frame, the predictor
# columns by name (a data frame with other columns too, e.g. a test set, as predict.lm() takes it).
predictor_columns <- function(object, newdata, arg = "newdata") {
  pv <- object[["predictors"]]
  if (!is.null(pv) && is.matrix(newdata) && length(pv) > 1L && all(pv %in% colnames(newdata))) {
    return(newdata[, pv, drop = FALSE])   # (a matrix with the predictors' names: by name, not position)
  }
  if (is.null(pv) || !is.data.frame(newdata)) return(newdata)
  tt <- object[["terms"]]
  if (inherits(tt, "terms") && !all(pv %in% names(newdata))) return(formula_newdata(tt, newdata, pv))
  miss <- setdiff(pv, names(newdata))
  if (length(miss)) {
    dpfda_abort(sprintf("`%s` must have the release's predictor column%s %s (as in the data it was fit on); it lacks %s.",
                        arg, if (length(pv) == 1L) "" else "s", paste0("\"", pv, "\"", collapse = ", "),
                        paste0("\"", miss, "\"", collapse = ", ")), arg = arg)
  }
  nd <- newdata[pv]
  if (length(pv) == 1L) nd[[1L]] else nd
}

# The prior's variance against the outputs' (public settings only): a kernel of variance 1 (the
# default) for outputs of size 100 (MASS::mcycle, noise_variance 500) makes the posterior mean
# the midpoint of y_bound almost everywhere, which looks like a failed release. Said, not refused.
warn_prior_scale <- function(kernel, noise_variance, y_bound) {
  v <- kernel$variance
  half <- diff(as.double(y_bound)) / 2
  if (is.numeric(v) && is.finite(v) && v < 0.01 * noise_variance && v < 0.01 * half^2) {
    dpfda_warn(sprintf(paste("The kernel's variance (%s) is tiny against noise_variance (%s) and the outputs'",
                             "range (y_bound half-width %s): the posterior mean stays near the midpoint of",
                             "y_bound. Give the kernel the outputs' prior variance, e.g. variance = %s."),
                       format(v, digits = 3), format(noise_variance, digits = 3), format(half, digits = 3),
                       format(signif((half / 2)^2, 2))),
               "dpfda_warning_utility")
  }
  invisible()
}
