# Tuning of the ICLP mechanisms (Lin and Reimherr, Section 4.4): the
# privacy-safe defaults of PSS (public, free) and the private cross-validation
# of PCV (pcv_select(), which spends its own epsilon).

#' Privacy-safe selection (PSS) of the ICLP tuning parameters
#'
#' The tuning-free choices of Lin and Reimherr (Section 4.4):
#' the rate-optimal orders of Corollary 15 with constant `const` (1 by
#' default). They depend only on public quantities (`n`, `epsilon`, `h`,
#' `tau`), so they cost no privacy budget. \eqn{h} is the eigenvalue decay
#' exponent, \eqn{\lambda_j \asymp j^{-2h}} (`Inf` allowed: limits are used).
#'
#' * `"iclp_qr"`: \eqn{\eta = 1 + 1/(2h)}; \eqn{\psi = c (n\epsilon^2)^{-2h\eta
#'   / (2h+1)}} (`rule = "theory"`, the lower end of the Corollary 15 interval,
#'   matching the Cauchy--Schwarz sensitivity), \eqn{c/n} (`"theory_upper"`)
#'   or \eqn{(n\epsilon^2/\tau)^{-\eta}} (`"authors_code"`, matched to the
#'   authors' "sup" bound; with the Cauchy--Schwarz bound its privacy error
#'   is not \eqn{O(1/n)}).
#' * `"iclp_ar"`: \eqn{\eta = 2(1 + 1/h)}, \eqn{\psi = c\tau/n}.
#' * `"frl"`: the set of `M` in \eqn{[\lceil n^{1/(2h)} - 1\rceil, \lfloor
#'   n^{1/3} \rfloor]}; `M` is its smallest element (the authors' real-data
#'   choice; picking by error against the truth would be an oracle). With
#'   `rule = "authors_code"` the literal floating-point expressions are used
#'   (`floor(1000^(1/3))` is 9); otherwise a `1e-9` guard. An empty set
#'   (\eqn{h < 3/2}) gives \eqn{M = \max(1, \lfloor n^{1/3} \rfloor)}.
#'   This rule is for the paper's Laplace noise. With Gaussian noise
#'   ([dp_mean()] with `frl_noise = "gaussian"`, whose scale does not grow
#'   with `M`) [dp_mean()] and [dp_accuracy()] use instead the `M` that
#'   minimises the planned total L2 error, \eqn{M\sigma^2 +
#'   (\tau^2/\lambda_1)\lambda_{M+1}} (public; \eqn{\sigma} the Gaussian
#'   scale, the second term the worst-case truncation bias of [dp_accuracy()]).
#' * `"gp"`: \eqn{\eta = 1}, \eqn{\psi = c/n} (the paper does not say; flagged).
#' * `"bernstein"`: `k = 20`.
#'
#' @param mechanism One of `"iclp_qr"`, `"iclp_ar"`, `"frl"`, `"bernstein"`, `"gp"`.
#' @param n Number of curves (public).
#' @param epsilon Privacy budget of the release.
#' @param h Eigenvalue decay exponent of the kernel.
#' @param tau Public norm bound of the curves.
#' @param rule `"theory"`, `"theory_upper"` or `"authors_code"`.
#' @param const The constant \eqn{c}.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A list with `mechanism`, `eta`, `psi`, `M`, `M_set`, `k`, `rule`, `h`.
#'
#' **Units.** \eqn{\psi} is the parameter on the domain rescaled to unit
#' measure (see the Units section of [dp_mean()]), and `tau` the bound there:
#' [dp_mean()] and [dp_accuracy()] pass \eqn{\tau / \sqrt S} for an
#' \eqn{L^2} bound \eqn{\tau} on a domain of measure \eqn{S}, so the
#' defaults do not depend on the units of the grid. The QR and GP defaults do
#' not depend on the units of the values either; the AR \eqn{\psi} (a
#' threshold) scales with them. `rule = "authors_code"` reproduces the
#' authors' code, whose \eqn{\psi} involves `tau` and therefore the units of
#' the values (the paper's curves are on \eqn{[0, 1]} with their own scale).
#' @examples
#' pss_params("iclp_qr", n = 1000, epsilon = 1, h = 2)
#' pss_params("frl", n = 1000, epsilon = 1, h = 2, rule = "authors_code")$M_set
#' @export
pss_params <- function(mechanism = c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp"), n, epsilon, h,
                       tau = 1, rule = c("theory", "theory_upper", "authors_code"), const = 1, ...) {
  check_dot_names(dot_args(), character(), "pss_params")
  check_required()
  mechanism <- check_mechanism(mechanism, iclp_mechanisms, "pss_params")
  n <- check_count(n, "n", max = 1e15)
  epsilon <- check_epsilon(epsilon)
  h <- check_number(h, "h", lower = 0, lower_open = TRUE, upper = Inf)
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e150)
  rule <- check_choice(rule, c("theory", "theory_upper", "authors_code"), "rule")
  const <- check_number(const, "const", lower = 0, lower_open = TRUE, upper = 1e10)
  out <- list(mechanism = mechanism, eta = NULL, psi = NULL, M = NULL, M_set = NULL, k = NULL,
              rule = rule, h = h)
  ih <- if (is.finite(h)) 1 / h else 0
  switch(mechanism,
    iclp_qr = {
      eta <- 1 + ih / 2
      ex <- if (is.finite(h)) 2 * h * eta / (2 * h + 1) else eta
      out$eta <- eta
      out$psi <- switch(rule, theory = const * (n * epsilon^2)^(-ex), theory_upper = const / n,
                        authors_code = const * (n * epsilon^2 / tau)^(-eta))
    },
    iclp_ar = { out$eta <- 2 * (1 + ih); out$psi <- const * tau / n },
    gp = { out$eta <- 1; out$psi <- const / n },
    bernstein = { out$k <- 20L },
    frl = {
      g <- if (rule == "authors_code") 0 else 1e-9
      lo <- max(1, ceiling(n^(ih / 2) - 1 - g))
      hi <- floor(n^(1 / 3) + g)
      out$M_set <- if (lo <= hi) seq(lo, hi) else integer()
      out$M <- as.integer(if (length(out$M_set)) lo else max(1, hi))
    })
  if (!is.null(out$psi) && !(is.finite(out$psi) && out$psi > 0)) {
    dpfda_abort(sprintf(paste("The PSS regularisation parameter psi (a power of n * epsilon^2 = %s) under- or",
                              "overflows: n and epsilon are too extreme for the rule; give `psi` yourself",
                              "(select = \"manual\"), or a less extreme epsilon."),
                        format(n * epsilon^2, digits = 3)),
                class = "dpfda_error_numeric", arg = "epsilon")
  }
  out
}

#' Private cross-validation of the ICLP tuning parameters
#'
#' The PCV of Lin and Reimherr (Section 4.4, after Mirshani et al.; spec
#' section 5.2) made differentially private: `folds`-fold cross-validation over a
#' grid of candidates (\eqn{\psi} for ICLP-QR / AR, `M` for FRL), with the
#' candidate chosen by the exponential mechanism [dp_select()] at budget
#' `epsilon_select`. The paper's criterion averages
#' \eqn{\|\tilde\mu_r - X_i\|^2} over test curves and `R` noise draws; here
#' its expectation over the noise is used exactly,
#' \eqn{\|\hat\mu_{-k} - X_i\|_W^2 + E\|\text{noise}\|_W^2} (the second term
#' is public: \eqn{\sigma^2 \sum \lambda_j} for the ICLP, \eqn{2 M b^2} for
#' FRL, with the training-fold size in the sensitivity). The utility is
#' minus its average over all curves; curves are clipped to `tau` and every
#' summary map is 1-Lipschitz with norm at most `tau`, so one replaced curve
#' changes the utility by at most \eqn{(4\tau^2 + \max_k \sum_{k' \ne k}
#' n_{k'} 8\tau^2/(n - n_{k'}))/n} (about \eqn{12\tau^2/n}), the sensitivity
#' given to [dp_select()]. The folds are a random partition drawn from the
#' noise source, independent of the data, laid on the curves (or units) in a
#' canonical order of their values, so that the order of the individuals does
#' not change the selection under [dp_reproducible()]. Only the chosen
#' candidate leaves the function (the cross-validation scores are private).
#'
#' Default candidates (section 5.2): FRL `M` from \eqn{\max(M_{min} - 2, 1)} to
#' \eqn{\min(M_{max} + 5, 20)} around the PSS set; QR 20 log-spaced \eqn{\psi}
#' from \eqn{0.5 (n\epsilon^2)^{-\eta}} to \eqn{2/n}; AR 20 log-spaced
#' \eqn{\psi} from \eqn{0.5\tau/n} to \eqn{\tau/n}. These are the paper's
#' grids for curves standardised to norm \eqn{\tau = 1} (its QR lower end
#' \eqn{0.5 (n\epsilon^2/\tau)^{-\eta}} and AR upper end \eqn{1/n}), carried
#' to any units: QR's \eqn{\psi} shrinks the kernel's eigenvalues and does not
#' depend on the size of the values, AR's scales with \eqn{\tau}, as in
#' [dp_mean()]; `candidates = "paper"` gives the paper's ends as written.
#' Candidates of \eqn{\psi} are on the unit-measure domain, as `psi` in
#' [dp_mean()] (with \eqn{\tau / \sqrt S} in these formulas), so the selection
#' depends neither on the units of the grid nor on those of the values.
#'
#' @param x A [curves()] object, or anything [as_curves()] understands (a
#'   long data frame with `id`, `arg`, `value` and `grid`, a matrix with
#'   `grid`, an fda `fd`, a tf `tfd`). For `glance()`: a `dpfda_pcv_selection`.
#' @param epsilon The budget of the release that will use the selection
#'   (it sets the noise term of the criterion).
#' @param tau Public bound on the weighted \eqn{L^2} norm of a curve.
#' @param mechanism `"iclp_qr"`, `"iclp_ar"` or `"frl"`.
#' @param basis A [kl_basis()] on the grid of `x`, or a kernel, from which the
#'   basis is computed with default settings. `NULL` (default): the kernel of
#'   [dp_mean()], Matern 3/2 with lengthscale 0.1 times the width of the
#'   domain.
#' @param kernel A kernel, as in [dp_mean()] (the same as giving it as
#'   `basis`).
#' @param epsilon_select Budget spent by the selection.
#' @param candidates `NULL` (defaults above), `"paper"` (the paper's grids
#'   as its code computes them, with \eqn{\tau} in the values' units: they
#'   move with the units, so only for reproduction) or a vector of candidates.
#' @param folds Number of folds (at least 2, at most `n`).
#' @param eta \eqn{\eta} for QR / AR (default: PSS).
#' @param h Eigenvalue decay exponent (default: from the kernel).
#' @param frl_bound,ar_bound,threshold_scale See [dp_mean()].
#' @param budget `NULL` or a [privacy_budget()], charged `epsilon_select`.
#'   ([dp_mean()] with `select = "pcv"` charges the selection itself.)
#' @param grid,... For data that are not curves yet: the public grid and the
#'   options of [as_curves()] (`id`, `arg`, `value` as strings or bare names,
#'   `method`, `na.rm`, ...; not `restrict`), as in [dp_mean()].
#' @param center A public reference curve subtracted from every curve before
#'   clipping (a function of the grid, a number, or one value per grid point),
#'   as in [dp_mean()]: `tau` then bounds the deviations from it. Give the
#'   same `center` to the release that uses the selection.
#' @param unit The privacy unit when one person has several curves (as in
#'   [dp_mean()]): a column of a long data frame, or a vector with one entry
#'   per curve. The folds then hold whole units, each unit enters the
#'   criterion as one individual (the mean of its clipped curves in the
#'   training means, the mean of its curves' losses in the test folds), and
#'   `n` in the sensitivity counts units. `NULL`: every curve is its own unit.
#' @return An object of class `dpfda_pcv_selection`: `mechanism`,
#'   `parameter` (`"psi"` or `"M"`), `candidates`, `index`, `value` (also
#'   under the parameter's name, `psi` or `M`, the argument of [dp_mean()]
#'   it sets),
#'   `epsilon` (= `epsilon_select`, spent), `sensitivity`, `folds`, `rng`,
#'   `n` (curves, or units with `unit`) and `privacy_unit` (printed, as a
#'   release's: "one curve (300)", "person (100 units)"); `glance()` gives
#'   them as one row.
#' @examples
#' t <- seq(0, 1, length.out = 50)
#' x <- curves(outer(runif(300, 0.5, 1), sin(2 * pi * t)), t)
#' b <- kl_basis(kernel_matern(3/2, 0.1), t)
#' # (public candidates for M: below 4 the truncation would remove most of what a
#' # mean within tau may hold, and the release would warn of its bias)
#' s <- pcv_select(x, epsilon = 1, tau = 1, mechanism = "frl", basis = b, epsilon_select = 0.5,
#'                 candidates = c(5, 10, 20))
#' s
#' # the release with the chosen M (spending epsilon = 1 more)
#' dp_mean(x, epsilon = 1, tau = 1, mechanism = "frl", kernel = kernel_matern(3/2, 0.1),
#'         select = "manual", M = s$M)
#' @export
pcv_select <- function(x, epsilon, tau, mechanism = c("iclp_qr", "iclp_ar", "frl"), basis = NULL,
                       epsilon_select, candidates = NULL, folds = 10, eta = NULL, h = NULL,
                       frl_bound = c("M", "sqrtM"), ar_bound = c("sum", "cs"), threshold_scale = 1,
                       budget = NULL, grid = NULL, ..., unit = NULL, center = NULL, kernel = NULL) {
  check_required(c("x", "epsilon", "tau", "epsilon_select"),
                 advice = list(epsilon_select = "the budget spent by the selection, e.g. 0.5"))
  # `kernel` as in dp_mean(): the basis is the kernel's
  if (!is.null(kernel)) {
    if (!is.null(basis)) dpfda_abort("Give `basis` or `kernel`, not both.", arg = "kernel")
    if (!inherits(kernel, "dpfda_kernel")) arg_error("kernel", "a kernel, e.g. kernel_matern(3/2, 0.1)", kernel)
    basis <- kernel
  }
  if (is_engine_input(x)) {   # (each curve enters the folds: a summary of a table cannot give them)
    dpfda_abort(paste("pcv_select() cross-validates over the curves themselves, so it needs them in memory,",
                      "not a table, chunks or a summary: read them first (e.g. with dplyr::collect()), or",
                      "release with dp_mean(select = \"pss\")."), arg = "x")
  }
  budget <- release_open(budget)
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  dots <- pure_dp_delta(capture_dots(..., .cols = c("id", "arg", "value")), "pcv_select()")
  frame <- if (is.data.frame(x)) as.data.frame(x)
  if (!is.null(frame)) dots <- resolve_column_opts(dots, x, intersect(names(dots), c("id", "arg", "value")))
  if (!is.null(unit) && long_frame_on_grid(x, dots, grid)) {   # long data: the rule of tables, with the units
    x <- frame_snap_curves(x, sort(as_grid(grid, "grid")), dots$id %||% "id", dots$arg %||% "arg",
                           dots$value %||% "value", unit)
    units <- attr(x, "units")
    x <- check_curves_data(x)
  } else {
    x <- mech_curves_with_options(wide_frame_drop_unit(x, unit, dots), grid, dots, "pcv_select")
    units <- memory_units(unit, x, frame, dots)
  }
  if (length(x$dropped)) abort_pcv_dropped("pcv_select()", "x")
  unit_name <- if (!is.null(units)) attr(units, "name", exact = TRUE) %||% "unit"   # (for the budget's ledger)
  units <- if (!is.null(units)) curve_units(units, nrow(x$values))
  # the public centre: tau bounds the deviations from it, as in dp_mean(center = )
  cen <- center_values(center, x$grid)
  if (!is.null(cen)) x$values <- x$values - rep(cen, each = nrow(x$values))
  epsilon <- check_epsilon(epsilon)
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e150)
  mechanism <- check_mechanism(mechanism, c("iclp_qr", "iclp_ar", "frl"), "pcv_select")
  if (is.null(basis)) basis <- default_mech_kernel(x$domain)   # (dp_mean()'s default)
  if (inherits(basis, "dpfda_kernel")) basis <- kl_basis(basis, x$grid)
  if (!inherits(basis, "dpfda_kl_basis")) arg_error("basis", "a kl_basis() or a kernel", basis)
  if (nrow(basis$vectors) != ncol(x$values) ||
      !isTRUE(all.equal(as_points(basis$grid, "basis"), as_points(x$grid, "x"), check.attributes = FALSE))) {
    dpfda_abort("`basis` must be computed on the grid of `x`.", arg = "basis")
  }
  epsilon_select <- check_epsilon(epsilon_select, "epsilon_select")
  n <- if (is.null(units)) nrow(x$values) else units$n
  if (n < 2L) {
    dpfda_abort(sprintf("`x` must hold at least 2 %s for cross-validation.", if (is.null(units)) "curves" else
      "units"), arg = "x")
  }
  folds <- check_count(folds, "folds", min = 2, max = n)
  if (is.null(h)) h <- kernel_edr(basis$kernel, x$dim)
  h <- check_number(h, "h", lower = 0, lower_open = TRUE, upper = Inf)
  o <- list(frl_bound = check_choice(frl_bound, c("M", "sqrtM"), "frl_bound"),
            ar_bound = check_choice(ar_bound, c("sum", "cs"), "ar_bound"),
            threshold_scale = check_number(threshold_scale, "threshold_scale", lower = 0,
                                           lower_open = TRUE, upper = 1e10))
  if (!is.null(eta)) eta <- check_number(eta, "eta", lower = 0, lower_open = TRUE, upper = 100)
  # candidates of psi live on the unit-measure domain (L2 bound tau / sqrt(S)), as dp_mean()'s psi
  o$measure <- basis_measure(basis)
  tau_u <- tau / sqrt(o$measure)
  if (mechanism != "frl" && is.null(eta)) eta <- pss_params(mechanism, n, epsilon, h, tau_u)$eta
  paper <- identical(candidates, "paper")
  if (is.null(candidates) || paper) {
    # the paper's grids are for curves standardised to norm 1; carried to any units (the default),
    # QR's psi does not depend on the size of the values (its shrinkage is of the kernel's
    # eigenvalues) and AR's scales with tau, as dp_mean()'s do: with the paper's ends the choice
    # moved with the units of the values (1 of 20 in MW, 13 in GW on adelaide_monday)
    t1 <- if (paper) tau_u else 1
    candidates <- switch(mechanism,
      frl = {
        p <- pss_params("frl", n, epsilon, h, tau_u, "authors_code")
        rng <- if (length(p$M_set)) range(p$M_set) else c(p$M, p$M)
        seq(max(rng[1] - 2, 1), min(rng[2] + 5, 20, basis$J))
      },
      iclp_qr = exp(seq(log(0.5 * (n * epsilon^2 / t1)^(-eta)), log(2 / n), length.out = 20)),
      iclp_ar = exp(seq(log(0.5 * tau_u / n), log(if (paper) 1 / n else tau_u / n), length.out = 20)))
  } else {
    ok <- is.numeric(candidates) && is.null(dim(candidates)) && length(candidates) >= 1L &&
      all(is.finite(candidates)) && all(candidates > 0) &&
      (mechanism != "frl" || all(candidates == round(candidates) & candidates <= basis$J))
    if (!isTRUE(ok)) {
      arg_error("candidates", if (mechanism == "frl") sprintf("whole numbers between 1 and %d", basis$J)
                else "positive finite numbers", candidates)
    }
    candidates <- as.double(candidates)
  }
  lam <- basis$values
  A <- kl_coef(basis, clip_curves_l2(x$values, basis$weights, tau))   # n x J coefficients
  X2 <- as.vector((clip_curves_l2(x$values, basis$weights, tau)^2) %*% basis$weights)
  if (!is.null(units)) {
    # one row per unit: the mean of its curves' coefficients (norm <= tau) and of their squared norms
    # (the mean of the units' curves' losses ||mu - X_i||^2 = mean ||X_i||^2 - 2 <mu, abar> + ||mu||^2)
    k <- tabulate(units$index, units$n)
    A <- rowsum(A, units$index, reorder = TRUE) / k
    X2 <- as.vector(rowsum(X2, units$index, reorder = TRUE)) / k
  }
  fold <- pcv_folds(A, X2, folds)
  loss <- pcv_losses(A, X2, fold, candidates, mechanism, lam, epsilon, tau, eta, o)
  sens <- pcv_sensitivity(fold, tau)
  s <- quiet_privacy(dp_select(-loss, sensitivity = sens, epsilon = epsilon_select))
  charge_budget(budget, epsilon_select, 0, "pcv_select", unit = unit_name)
  out <- list(mechanism = mechanism, parameter = if (mechanism == "frl") "M" else "psi",
              candidates = candidates, index = s$index, value = candidates[s$index],
              eta = if (mechanism == "frl") NULL else eta,
              epsilon = epsilon_select, sensitivity = sens, folds = folds, rng = dp_rng(), n = n,
              # (whom the choice protects, as a release's print says it: curves, or units with `unit`)
              privacy_unit = privacy_unit_of(list(n = n, unit = unit_name)))
  # the choice also under the name of dp_mean()'s argument: dp_mean(..., psi = s$psi) (s$psi was NULL, so
  # the release silently took its default)
  out[[out$parameter]] <- out$value
  structure(out, class = "dpfda_pcv_selection")
}

# The folds: a random partition into `folds` parts of (nearly) equal size, drawn from the noise source
# and laid on the individuals (rows of A, X2) in a canonical order of their data, so that the order
# they came in does not change the selection. The partition is uniform whatever that order, and
# independent of the data as a partition of the individuals, which is all the privacy argument uses.
pcv_folds <- function(A, X2, folds) {
  n <- length(X2)
  by_draw <- integer(n)
  by_draw[order(noise_draw(n, "uniform"))] <- rep_len(seq_len(folds), n)
  fold <- integer(n)
  fold[canonical_rows(cbind(A, X2))] <- by_draw
  fold
}

# Expected cross-validation loss of each candidate: A (n x J coefficients of
# the clipped curves), X2 (their squared norms), fold (fold of each curve).
pcv_losses <- function(A, X2, fold, candidates, mechanism, lam, epsilon, tau, eta, o) {
  n <- nrow(A)
  nk <- tabulate(fold, max(fold))
  bar <- dp_progress(length(candidates), "pcv_select(): cross-validating the candidates")
  on.exit(bar$done())
  vapply(candidates, function(cand) {
    bar$tick()
    params <- if (mechanism == "frl") list(M = as.integer(cand)) else list(eta = eta, psi = cand)
    tot <- 0
    for (k in seq_along(nk)) {
      te <- fold == k
      ntr <- n - nk[k]
      a <- colMeans(A[!te, , drop = FALSE])
      pl <- iclp_plan(mechanism, a, lam, ntr, epsilon, tau, params, o)
      cvec <- numeric(length(lam))
      cvec[pl$idx] <- pl$center
      # ||mu - X_i||^2 = ||X_i||^2 - 2 <mu, X_i> + ||mu||^2 (mu in span V)
      tot <- tot + sum(X2[te] - 2 * as.vector(A[te, , drop = FALSE] %*% cvec) + sum(cvec^2)) +
        nk[k] * sum(pl$sd^2)
    }
    tot / n
  }, 0)
}

# Replace-one sensitivity of the PCV utility: the replaced curve's own term
# (4 tau^2) plus its effect, through the training means, on the other folds.
pcv_sensitivity <- function(fold, tau) {
  n <- length(fold)
  nk <- tabulate(fold, max(fold))
  others <- vapply(seq_along(nk), function(k) sum((nk * 8 * tau^2 / (n - nk))[-k]), 0)
  (4 * tau^2 + max(others)) / n
}

#' @rdname pcv_select
#' @export
glance.dpfda_pcv_selection <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  data.frame(mechanism = x$mechanism, parameter = x$parameter, value = x$value, index = x$index,
             n_candidates = length(x$candidates), epsilon = x$epsilon, sensitivity = x$sensitivity,
             folds = x$folds, rng = x$rng, n = x$n %||% NA_real_, privacy_unit = x$privacy_unit %||% NA_character_,
             stringsAsFactors = FALSE)
}

#' @rdname pcv_select
#' @details `tidy()` gives one row per candidate: its `index`, its value of
#'   the tuning parameter (a column named `psi` or `M`) and `chosen`.
#' @export
tidy.dpfda_pcv_selection <- function(x, ...) {
  check_dot_names(list(...), character(), "tidy")
  out <- data.frame(index = seq_along(x$candidates))
  out[[x$parameter]] <- as.double(x$candidates)
  out$chosen <- out$index == x$index
  out
}

#' @export
print.dpfda_pcv_selection <- function(x, ...) {
  cat(sprintf("<dpfda_pcv_selection> %s = %s (candidate %d of %d) for %s, epsilon spent %s\n",
              x$parameter, format(x$value, digits = 4), x$index, length(x$candidates), x$mechanism,
              format(x$epsilon, digits = 4)))
  if (!is.null(x$privacy_unit)) cat(sprintf("  privacy unit: %s\n", x$privacy_unit))
  print_noise_source(x$rng)
  invisible(x)
}
