# Private hyper-parameter selection for GP regression (Smith et al.,
# supplement "Hyperparameter selection"): the exponential mechanism over the
# negative cross-validated sum of squared errors.

#' Private hyper-parameter selection for Gaussian-process regression
#'
#' Chooses one of several GP hyper-parameter settings (kernel and noise
#' variance) by the exponential mechanism ([dp_select()]) with utility
#' \eqn{u(r) = -\mathrm{SSE}(r)}, the sum over `folds` cross-validation folds
#' of the squared, clipped prediction errors of the cloaking-method
#' regression (Smith et al., supplement). The selection is
#' \eqn{\epsilon}-DP with respect to changing one output \eqn{y_i}; the
#' inputs `x` are public.
#'
#' **Folds.** With `folds = K` the rows (with `unit`, the units) are split
#' into \eqn{K} folds of near-equal sizes by a uniformly random partition
#' drawn from the noise source ([dp_rng()]), independent of the data, so the
#' sensitivity bound below holds given the folds. It is laid on the rows in a
#' canonical order (by `x`, then `y`; units by their rows in it), so the order
#' the rows come in does not change the selection under
#' [dp_reproducible()]; the labels are returned in `folds`. Or give `folds`
#' as a vector of public fold labels (e.g. a function of the public `x`),
#' which must not be chosen by looking at `y`.
#'
#' **Utility.** In fold \eqn{k} the outputs (clipped to `y_bound`, centred
#' at its midpoint) of the other folds predict the fold's outputs through
#' the cloaking matrix \eqn{C_k}; with `include_dp_noise = TRUE` the
#' predictions carry the cloaking noise that [dp_gp_regression()] would add
#' at `epsilon_regression` and `delta`, so that the selection accounts for
#' the privacy noise (Figure 5 of the paper). Each error is clipped to
#' \eqn{[-L, L]}, \eqn{L =} `error_limit` \eqn{\times d}, \eqn{d =}
#' `diff(y_bound)`.
#'
#' **Sensitivity (`sensitivity_rule = "corrected"`, the default), a proven
#' bound.** (i) If \eqn{e, e' \in [-L, L]} and \eqn{|e' - e| \le a} then
#' \eqn{|e'^2 - e^2| \le b(a) := L^2 - (L - a)_+^2} (take \eqn{|e'| \ge |e|};
#' \eqn{e'^2 - (|e'| - a)_+^2} increases with \eqn{|e'| \le L}); clipping is
#' 1-Lipschitz, so a change \eqn{a} of a raw error changes the clipped error
#' by at most \eqn{a}. (ii) Changing \eqn{y_j} changes its clipped value by
#' \eqn{\delta}, \eqn{|\delta| \le d}. In a fold \eqn{k} where \eqn{j}
#' trains, the predictions move by \eqn{\delta c_{jk}} (column \eqn{j} of
#' \eqn{C_k}; the noise does not depend on \eqn{y}), so the fold's SSE
#' changes by at most \eqn{S_k(j) = \sum_m b(d |c_{jk,m}|) \le 2 L d
#' \|c_{jk}\|_1}. This includes the cross term \eqn{2 \delta c_{jk}^\top (p -
#' t)} that the paper's \eqn{d^2 \|c_{jk}\|_2^2} omits. (iii) In the fold
#' where \eqn{j} is tested only its own target moves, by at most \eqn{d}:
#' at most \eqn{b(d) = 2Ld - d^2}. (iv) Each point is tested in exactly one
#' fold, so \eqn{|u(D) - u(D')| \le \Delta_j = b(d) + \sum_{k \ne f(j)}
#' S_k(j)} and \eqn{\Delta_u = \max_r \max_j \Delta_j(r)}. The maximum over
#' \eqn{j} of the sum is taken exactly (at most the paper's "sum of the
#' \eqn{K-1} largest per-fold maxima" of the same terms). The bound holds for
#' every realisation of the simulated noise, so the exponential mechanism is
#' \eqn{\epsilon}-DP conditionally on it, hence unconditionally.
#'
#' **`sensitivity_rule = "paper"`** reproduces the paper:
#' \eqn{(1 + 2\,\mathrm{error\_limit}) d^2 + \sum d^2 \max_j \|c_{jk}\|_2^2}
#' over the \eqn{K-1} folds with the largest terms (\eqn{9 d^2 + \dots} for
#' `error_limit = 4`). It is *not* a bound (a `dpfda_warning_privacy` is given; the
#' missing cross term; the tests exhibit a violation), the paper's "lower
#' bound" should read "upper bound", and its K-fold argument does not cover
#' the Monte-Carlo cross-validation it actually ran (a point may be tested
#' in many splits; here folds always partition the data).
#'
#' **Budget.** The selection spends `epsilon` (pure, \eqn{\delta = 0}).
#' `epsilon_regression` and `delta` only describe the regression that will
#' use the chosen hyper-parameters (they set the simulated noise) and are
#' not spent here: that regression spends its own budget, for a total of
#' (`epsilon + epsilon_regression`, `delta`) by sequential composition.
#'
#' @param x Public inputs (vector or `n x D` matrix), or a formula
#'   `y ~ x1 + x2` whose variables are columns of `data` (numeric predictors,
#'   rows in the order of `data`, which sets the folds).
#' @param y Private outputs (length `n`), clipped to `y_bound` (not given
#'   with a formula).
#' @param data With a formula (in the pipe's order the data frame may come
#'   first and the formula second, `d |> f(y ~ x, ...)`), the data frame holding its variables (and the
#'   `unit` column, when `unit` names one).
#' @param candidates The hyper-parameter settings: a data frame with columns
#'   `lengthscale`, `noise_variance` and optionally `variance` (default 1),
#'   one Gaussian kernel ([kernel_gaussian()]) per row; or a list whose
#'   elements are `list(kernel = <kernel>, noise_variance = <number>)`.
#' @param y_bound Public `c(lower, upper)` bounds on the outputs (one positive
#'   number `B` stands for `c(-B, B)`).
#' @param epsilon Privacy budget of the selection.
#' @param budget `NULL`, or a [privacy_budget()] to charge (the release is
#'   refused, with an error of class `dpfda_error_budget`, when it would
#'   exceed the budget).
#' @param ... Passed to [dp_noise_scale()] for the simulated regression noise
#'   (e.g. `allow_large_epsilon`).
#' @param folds Number of folds \eqn{K \ge 2} (a random partition, see
#'   Folds), or a vector of `n` public fold labels.
#' @param error_limit Errors are clipped to \eqn{\pm} `error_limit` \eqn{d}
#'   (the paper's "completely arbitrary bound" 4).
#' @param include_dp_noise Add the cloaking noise of the final regression to
#'   the cross-validated predictions.
#' @param epsilon_regression,delta Privacy parameters of the regression that
#'   will follow (required when `include_dp_noise = TRUE`; not spent here).
#' @param sensitivity_rule `"corrected"` (a proven bound, default) or
#'   `"paper"` (the paper's formula; not a bound, for reproduction only).
#' @param calibration Calibration of the simulated regression noise (see
#'   [dp_noise_scale()]).
#' @param tol Tolerance of [cloaking_covariance()] for the simulated noise.
#' @param unit The privacy unit when one person has several rows: a vector
#'   with one entry per row of `x`, or with a formula a column of `data`
#'   (`unit = Subject` or `unit = "Subject"`). Folds then hold whole units (`folds = K`
#'   partitions the units at random; fold labels must be constant within a
#'   unit), and the sensitivity is that of
#'   changing every output of one unit (the inputs and which rows belong to
#'   which unit stay public): \eqn{k_u b(d)} in its test fold plus
#'   \eqn{\sum_m b(d \sum_{i \in u} |c_{ik,m}|)} in every other fold, the
#'   largest over the units. `NULL`: each row is its own unit.
#' @return An object of class `c("dpfda_gp_selection", "dpfda_selection")`:
#'   the fields of [dp_select()] (`index`, `epsilon` spent, `sensitivity`
#'   \eqn{\Delta_u}, `n_candidates`, `rng`) plus the chosen `candidate`
#'   (its row or list element), its `kernel` and `noise_variance`, `candidates`, `folds` (the labels), `error_limit`,
#'   `sensitivity_rule`, `include_dp_noise`, `epsilon_regression`, `delta`
#'   (the regression's; the selection's own delta is 0, as `glance()` shows
#'   it, with the regression's as `epsilon_regression` and
#'   `delta_regression`) and the call. Neither the utilities nor the selection probabilities are
#'   returned (they are not private).
#' @seealso [dp_gp_regression()], [dp_select()].
#' @references Smith, M. T., Alvarez, M. A., Zwiessele, M. and Lawrence, N. D.
#'   (2018). Differentially private regression with Gaussian processes.
#'   *AISTATS*, PMLR 84, 1195--1203.
#' @examples
#' old <- dp_reproducible(1)
#' x <- seq(0, 1, length.out = 100)
#' y <- sin(6 * x) + rnorm(100, 0, 0.2)
#' cand <- expand.grid(lengthscale = c(0.05, 0.2, 0.8), noise_variance = c(0.04, 0.5))
#' s <- dp_gp_select(x, y, cand, y_bound = c(-2, 2), epsilon = 1, folds = 5,
#'                   epsilon_regression = 1, delta = 1e-3)
#' s
#' # the regression then spends its own budget (total epsilon 2)
#' r <- dp_gp_regression(x, y, seq(0, 1, length.out = 20), s$kernel, s$noise_variance,
#'                       y_bound = c(-2, 2), epsilon = 1, delta = 1e-3)
#'
#' # a formula, with one chick (up to 12 weighings) as the privacy unit: the
#' # folds hold whole chicks
#' cw <- expand.grid(lengthscale = c(3, 10), noise_variance = c(100, 1000), variance = 1e4)
#' dp_gp_select(weight ~ Time, data = ChickWeight, candidates = cw, y_bound = c(0, 400),
#'              epsilon = 1, folds = 5, epsilon_regression = 1, delta = 1e-3, unit = Chick)
#' dp_rng(old)
#' @export
dp_gp_select <- function(x, y, candidates, y_bound, epsilon, ..., folds = 10, error_limit = 4,
                         include_dp_noise = TRUE, epsilon_regression = NULL, delta = NULL,
                         sensitivity_rule = c("corrected", "paper"),
                         calibration = c("analytic", "hall", "classical"), tol = 1e-8, budget = NULL,
                         unit = NULL, data = NULL) {
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  call <- match.call()
  # (y ~ x1 + ..., variables in `data`, as dp_gp_regression(); `unit` may then name a column of `data`)
  fd <- if (!missing(x)) formula_call(x, !missing(y), data, NULL, "dp_gp_select", "candidates", y = if (!missing(y)) y)
  if (!is.null(fd)) {
    x <- fd$x
    y <- fd$y
    data <- fd$data
  }
  check_required(c("x", "y", "candidates", "y_bound", "epsilon"))
  budget <- release_open(budget, epsilon, if (is.null(delta)) 0 else delta, if (is.null(unit)) NROW(x))
  pts <- as_points(x, "x")
  n <- nrow(pts)
  check_y_values(y, n)
  units <- regression_units(unit, n, data)
  cands <- check_candidates(candidates, ncol(pts))
  y_bound <- check_y_bound(y_bound)
  epsilon <- check_epsilon(epsilon)
  # the rows in a canonical order (as dp_gp_regression()): the random folds are laid on it, and the
  # cross-validation runs on the rows in it, so that each fold's systems, the cloaking solver's path
  # and the simulated noise do not depend on the order the rows came in (the folds are returned in
  # that order)
  o <- canonical_rows(pts, y)
  fold <- if (is.numeric(folds) && length(folds) == 1L && n > 1L) {
    gp_random_folds(check_count(folds, "folds", min = 2, max = if (is.null(units)) n else units$n), o, units,
                    cbind(pts, y))
  } else {
    check_folds(folds, n, units$codes)
  }
  error_limit <- check_number(error_limit, "error_limit", lower = 0, lower_open = TRUE)
  include_dp_noise <- check_flag(include_dp_noise, "include_dp_noise")
  sensitivity_rule <- check_choice(sensitivity_rule, c("corrected", "paper"), "sensitivity_rule")
  if (!is.null(units) && sensitivity_rule == "paper") {
    dpfda_abort("sensitivity_rule = \"paper\" (not a bound) has no version for a privacy unit; use \"corrected\".",
                arg = "sensitivity_rule")
  }
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  tol <- check_number(tol, "tol", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                      what = "a number strictly between 0 and 1")
  noise_dots <- check_noise_dots(list(...), "dp_gp_select")
  noise <- NULL
  if (include_dp_noise) {
    if (is.null(epsilon_regression)) {
      arg_error("epsilon_regression", "a positive number when include_dp_noise = TRUE", NULL,
                class = "dpfda_error_privacy")
    }
    if (is.null(delta)) {
      arg_error("delta", "a number in (0, 1) when include_dp_noise = TRUE", NULL,
                class = "dpfda_error_privacy")
    }
    noise <- list(epsilon = check_epsilon(epsilon_regression, "epsilon_regression"),
                  delta = check_delta(delta), calibration = calibration, tol = tol, args = noise_dots)
  } else {
    if (!is.null(epsilon_regression)) epsilon_regression <- check_epsilon(epsilon_regression, "epsilon_regression")
    if (!is.null(delta)) delta <- check_delta(delta)
  }
  d <- diff(y_bound)
  L <- error_limit * d
  if (!is.finite(L) || !is.finite(L^2 * n)) {
    dpfda_abort("`error_limit` times the width of `y_bound` overflows.", class = "dpfda_error_numeric",
                arg = "error_limit")
  }
  yc <- pmin(pmax(as.double(y[o]), y_bound[1]), y_bound[2]) - mean(y_bound)
  codes <- units$codes[o]
  sse <- sens <- numeric(length(cands))
  bar <- dp_progress(length(cands), "dp_gp_select(): cross-validating the candidates")
  for (r in seq_along(cands)) {
    cv <- gp_cv_candidate(pts[o, , drop = FALSE], cands[[r]], fold[o], d, noise, codes)
    sse[r] <- gp_cv_sse(cv, yc, L)
    sens[r] <- gp_cv_sensitivity(cv, d, L, n, sensitivity_rule, codes)
    bar$tick()
  }
  bar$done()
  delta_u <- max(sens)
  if (sensitivity_rule == "paper") {
    dpfda_warn(paste("sensitivity_rule = \"paper\" is not a proven bound on the change of the",
                     "cross-validated SSE (it omits the cross term): the selection is not guaranteed",
                     "to be epsilon-DP. Use it only to reproduce the paper."),
               class = c("dpfda_warning_privacy", "dpfda_warning"))
  }
  charge_budget(budget, epsilon, 0, "dp_gp_select (hyper-parameters)", unit = units$label)
  sel <- quiet_privacy(dp_select(-sse, delta_u, epsilon))
  chosen <- cands[[sel$index]]
  candidate <- if (is.data.frame(candidates)) candidates[sel$index, , drop = FALSE] else candidates[[sel$index]]
  structure(c(unclass(sel),
              list(candidate = candidate, kernel = chosen$kernel, noise_variance = chosen$noise_variance,
                   candidates = candidates, folds = fold, error_limit = error_limit,
                   sensitivity_rule = sensitivity_rule, include_dp_noise = include_dp_noise,
                   epsilon_regression = epsilon_regression, delta = delta, call = public_call(call),
                   # (without a unit every record is its own, as the regression's print says)
                   privacy_unit = if (!is.null(units)) privacy_unit_points(units$n, units$label) else
                     privacy_unit_points(n, records = TRUE))),
            class = c("dpfda_gp_selection", "dpfda_selection"))
}

#' @export
selection_details.dpfda_gp_selection <- function(x) {
  k <- x$kernel
  cat(sprintf("  chosen: %s kernel, lengthscale %s, variance %s; noise variance %s\n", k$type,
              if (is.null(k$lengthscale)) "(H)" else paste(format(k$lengthscale, digits = 4), collapse = ", "),
              format(k$variance, digits = 4), format(x$noise_variance, digits = 4)))
  cat(sprintf("  utility: -SSE over %d folds, errors clipped at +/- %s d; sensitivity %s (%s rule)\n",
              length(unique(x$folds)), format(x$error_limit), format(x$sensitivity, digits = 4),
              x$sensitivity_rule))
  if (!is.null(x$privacy_unit)) {
    cat(sprintf("  privacy unit: %s%s\n", x$privacy_unit,
                if (startsWith(x$privacy_unit, "one record")) "" else " (folds hold whole units)"))
  }
  cat("  the regression with these hyper-parameters spends its own budget (sequential composition)\n")
}

# ---- internals ----------------------------------------------------------------

# Candidates -> list of list(kernel, noise_variance).
check_candidates <- function(candidates, D) {
  what <- paste("a data frame with columns `lengthscale`, `noise_variance` (and optionally `variance`),",
                "or a list of list(kernel = , noise_variance = )")
  if (is.data.frame(candidates)) {
    nm <- names(candidates)
    ok <- nrow(candidates) >= 1L && all(c("lengthscale", "noise_variance") %in% nm) &&
      all(nm %in% c("lengthscale", "noise_variance", "variance"))
    if (!isTRUE(ok)) arg_error("candidates", what, candidates)
    # (a bad value was refused as "must be a data frame ..., not an object of class <data.frame>":
    # which column and row, and why)
    for (cl in intersect(c("lengthscale", "noise_variance", "variance"), nm)) {
      v <- candidates[[cl]]
      if (!is.numeric(v)) {
        dpfda_abort(sprintf("`candidates`: its column `%s` must be numeric, not %s.", cl, describe_value(v)),
                    arg = "candidates")
      }
      bad <- which(!(is.finite(v) & v > 0))
      if (length(bad)) {
        dpfda_abort(sprintf("`candidates`: its column `%s` must hold positive finite numbers; row %d is %s%s.", cl, bad[1L],
                            format(v[bad[1L]]), if (length(bad) > 1L) sprintf(" (and %d more rows)", length(bad) - 1L)
                            else ""), arg = "candidates")
      }
    }
    var <- if ("variance" %in% nm) candidates$variance else rep(1, nrow(candidates))
    return(lapply(seq_len(nrow(candidates)), function(i) {
      list(kernel = kernel_gaussian(candidates$lengthscale[i], var[i]),
           noise_variance = as.double(candidates$noise_variance[i]))
    }))
  }
  ok <- is.list(candidates) && !inherits(candidates, "dpfda_kernel") && length(candidates) >= 1L &&
    all(vapply(candidates, function(cd) {
      is.list(cd) && inherits(cd$kernel, "dpfda_kernel") && is.numeric(cd$noise_variance) &&
        length(cd$noise_variance) == 1L && is.finite(cd$noise_variance) && cd$noise_variance > 0 &&
        (is.na(cd$kernel$dim) || cd$kernel$dim == D)
    }, NA))
  if (!isTRUE(ok)) arg_error("candidates", what, candidates)
  lapply(candidates, function(cd) list(kernel = cd$kernel, noise_variance = as.double(cd$noise_variance)))
}

# folds = K: a uniformly random partition of the rows (with a privacy unit, of the units) into K
# folds of near-equal sizes, drawn from the noise source and laid on them in the canonical order `o`
# of the rows (canonical_rows() of (x, y); units by their rows in it, canonical_units(), so that
# units of one row are rows), so that the order the rows came in does not change the selection under
# dp_reproducible(). The partition is uniform whatever that order, and independent of the data as a
# partition of the individuals, which is all the privacy argument uses: given the folds, the
# sensitivity bound holds (as for pcv_select()'s folds). (Row i in fold (i - 1) mod K + 1, the rule
# before, made the selection depend on the order of the rows, and on y when the rows were sorted by
# it.)
gp_random_folds <- function(K, o, units = NULL, rows = NULL) {
  m <- if (is.null(units)) length(o) else units$n
  by_draw <- integer(m)
  by_draw[order(noise_draw(m, "uniform"))] <- rep_len(seq_len(K), m)
  if (is.null(units)) {
    fold <- integer(m)
    fold[o] <- by_draw
    return(fold)
  }
  ufold <- integer(m)
  ufold[canonical_units(o, units$codes, rows)] <- by_draw
  ufold[units$codes]
}

# The units in a canonical order: by their rows' ranks in the canonical order of the rows (`o`; equal
# rows share a rank), sorted, compared as sequences. By the first row alone, units whose first rows
# tie (chicks of one weight at day 0) kept the order they came in, and a shuffle of the rows moved
# 35 of 50 chicks to other folds. Units with the same rows are interchangeable.
canonical_units <- function(o, codes, rows) {
  n <- length(o)
  r <- as.matrix(rows)[o, , drop = FALSE]
  same <- c(FALSE, if (n > 1L) rowSums(r[-1L, , drop = FALSE] != r[-n, , drop = FALSE]) == 0)
  rank <- integer(n)
  rank[o] <- cumsum(!same)
  by_unit <- split(rank, codes)
  k <- max(lengths(by_unit))
  keys <- t(vapply(by_unit, function(r) c(sort(r), rep(0L, k - length(r))), integer(k)))
  if (k == 1L) keys <- matrix(keys, ncol = 1L)
  do.call(order, c(unname(as.data.frame(keys)), list(method = "radix")))
}

# Public fold labels (a vector, one per row) as 1..K; with a privacy unit (`codes`, 1..n_units in
# order of appearance) every fold must hold whole units.
check_folds <- function(folds, n, codes = NULL) {
  ok <- (is.numeric(folds) || is.factor(folds) || is.character(folds)) && is.null(dim(folds)) &&
    length(folds) == n && !anyNA(folds) && length(unique(folds)) >= 2L
  if (!isTRUE(ok)) {
    arg_error("folds", sprintf("a number of folds between 2 and n = %d, or %d fold labels with at least two distinct values",
                               n, n), folds)
  }
  fold <- as.integer(factor(folds))
  if (!is.null(codes) && any(tabulate(codes[!duplicated(cbind(codes, fold))]) > 1L)) {
    dpfda_abort("`folds` must keep each unit's rows in one fold (a unit is tested or trains as a whole).",
                arg = "folds")
  }
  fold
}

# Cloaking matrix of the test rows given the training rows (P x n); test
# points may repeat.
gp_cloaking_matrix <- function(x_train, x_test, kernel, noise_variance) {
  K <- kernel_matrix(kernel, x_train)
  diag(K) <- diag(K) + noise_variance
  Kfs <- kernel_matrix(kernel, x_train, x_test)
  r <- c_gp_posterior_parts(K, Kfs, rep(kernel$variance, nrow(x_test)), FALSE)
  if (r$info != 0L) {
    dpfda_abort("A training covariance K + noise_variance I is not positive definite.",
                class = "dpfda_error_numeric", arg = "candidates")
  }
  r$C
}

# One candidate: per fold the cloaking matrix, the indices and the simulated
# cloaking noise (data independent), or zero noise; with a privacy unit (`codes`) the noise of
# dp_gp_regression(unit =), calibrated to a whole unit of the training rows.
gp_cv_candidate <- function(pts, cand, fold, d, noise = NULL, codes = NULL) {
  check_alloc(as.double(nrow(pts))^2 * 2, "cross-validation system")
  lapply(sort(unique(fold)), function(k) {
    train <- which(fold != k)
    test <- which(fold == k)
    C <- gp_cloaking_matrix(pts[train, , drop = FALSE], pts[test, , drop = FALSE], cand$kernel,
                            cand$noise_variance)
    z <- numeric(length(test))
    if (!is.null(noise)) {
      cl <- cloaking_covariance(C, tol = noise$tol)
      per_d <- if (is.null(codes)) sqrt(cl$max_constraint) else cloaking_unit_bound(C, cl, codes[train])
      sigma <- do.call(dp_noise_scale, c(list(d * per_d, noise$epsilon, noise$delta,
                                              calibration = noise$calibration), noise$args))
      # drawn through the factor of M = C diag(lambda) C' (unique up to signs, made canonical), not
      # through lambda, which is not unique when the test points are fewer than the training points:
      # C at the rounding level of a change of units gave lambda 0.2 apart, and with the same seed
      # another noise realisation, so another candidate in 1 of 20 seeds
      z <- sigma * as.vector(cl$factor %*% noise_draw(ncol(cl$factor), "normal"))
    }
    list(C = C, train = train, test = test, noise = z)
  })
}

# Clipped cross-validated SSE (yc: clipped outputs centred at the midpoint).
gp_cv_sse <- function(cv, yc, L) {
  sum(vapply(cv, function(f) {
    e <- as.vector(f$C %*% yc[f$train]) + f$noise - yc[f$test]
    sum(pmin(pmax(e, -L), L)^2)
  }, 1))
}

# Largest change of a squared error clipped to [-L, L] when the raw error
# moves by a (see the roxygen derivation).
sq_change_bound <- function(a, L) L^2 - pmax(L - a, 0)^2

# Sensitivity of the CV SSE of one candidate (n = number of points). With a privacy unit (`codes`, folds
# holding whole units), all outputs of one unit move: in its test fold its k rows' targets (k b(d)), in
# every other fold each test prediction by at most d sum_{i in u} |C_mi|.
gp_cv_sensitivity <- function(cv, d, L, n, rule = c("corrected", "paper"), codes = NULL) {
  rule <- match.arg(rule)
  if (!is.null(codes)) {
    per_unit <- tabulate(codes) * sq_change_bound(d, L)
    for (f in cv) {
      S <- rowsum(t(abs(f$C)), codes[f$train])   # units x test points: sum over the unit's rows of |C_mi|
      u <- as.integer(rownames(S))
      per_unit[u] <- per_unit[u] + rowSums(sq_change_bound(d * S, L))
    }
    return(max(per_unit))
  }
  if (rule == "paper") {
    s <- vapply(cv, function(f) d^2 * max(colSums(f$C^2)), 1)
    s <- sort(s, decreasing = TRUE)
    return(d^2 + 2 * d * L + sum(s[seq_len(length(s) - 1L)]))
  }
  per_point <- rep(sq_change_bound(d, L), n)
  for (f in cv) {
    per_point[f$train] <- per_point[f$train] + colSums(sq_change_bound(d * abs(f$C), L))
  }
  max(per_point)
}
