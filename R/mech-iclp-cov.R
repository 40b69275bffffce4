# Pure-DP covariance function release with the ICLP on the tensor basis
# (Lin and Reimherr, Appendix C.1).

#' Differentially private covariance function (ICLP)
#'
#' Releases the covariance surface \eqn{\Gamma(s, t)} of `n` curves on a
#' common one-dimensional public grid by reduction to a mean (Appendix C.1 of
#' Lin and Reimherr): with \eqn{a_i} the coefficients of the clipped curves in
#' the [kl_basis()] \eqn{(\lambda_j, v_j)} of `kernel` (\eqn{\|a_i\| \le
#' \tau}), the estimate has coefficients \eqn{A = \frac1n \sum_i a_i a_i^\top}
#' (`centered = FALSE`, the second moment) or \eqn{A - \bar a \bar a^\top}
#' (`centered = TRUE`) in the tensor basis \eqn{v_j \otimes v_k}, whose
#' kernel \eqn{C \otimes C} has eigenvalues \eqn{\lambda_j \lambda_k}.
#'
#' * Summary (QR on the tensor space): \eqn{\hat\Gamma = \sum_{j,k} s_{jk}
#'   A_{jk} v_j \otimes v_k}, \eqn{s_{jk} = (\lambda_j\lambda_k)^\eta /
#'   ((\lambda_j\lambda_k)^\eta + \psi)}.
#' * Sensitivity: one replaced curve moves \eqn{A} by at most \eqn{B} in
#'   Frobenius norm, \eqn{B = 2\tau^2/n} (\eqn{\|a a^\top\|_F = \|a\|^2 \le
#'   \tau^2}) or \eqn{B = 6\tau^2/n} centred (the mean term adds
#'   \eqn{\|\bar a\delta^\top + \delta\bar a'^\top\|_F \le 4\tau^2/n});
#'   by Cauchy--Schwarz the ICLP-norm sensitivity is \eqn{\Delta = B (\sum_{j,k}
#'   g_{jk}^2)^{1/2}}, \eqn{g_{jk} = (\lambda_j\lambda_k)^{\eta - 1/2} /
#'   ((\lambda_j\lambda_k)^\eta + \psi)}.
#' * Noise: \eqn{\sigma \sum_{j,k} \sqrt{\lambda_j\lambda_k} Z_{jk} v_j
#'   \otimes v_k} with independent unit-variance Laplace \eqn{Z_{jk}} on
#'   **all** \eqn{(j, k)} (not symmetric), \eqn{\sigma = \sqrt2\Delta/\epsilon},
#'   drawn by the same code as [dp_mean()]. The released surface is then
#'   symmetrised, \eqn{(\tilde\Gamma + \tilde\Gamma^\top)/2}, which is
#'   post-processing. (Drawing \eqn{Z_{jk} = Z_{kj}} instead would count
#'   each off-diagonal coefficient twice in the sensitivity.)
#'
#' Defaults (flagged: the paper gives no tuning for the covariance): \eqn{\eta}
#' and \eqn{\psi} from [pss_params()]`("iclp_qr", n, epsilon, h, tau^2)`.
#' As in [dp_mean()], \eqn{\psi} (given or default) is on the domain rescaled
#' to unit measure (the tensor domain has measure \eqn{S^2}; the formulas use
#' \eqn{\lambda_j\lambda_k / S^2}), so the release does not depend on the
#' units of the grid, and the surface scales as \eqn{c^2} with values
#' \eqn{y \to cy} (`tau` \eqn{\to |c|}`tau`). The
#' released object lives on the tensor grid (`m^2` points), so keep `m`
#' moderate (the tensor basis holds \eqn{m^2 J^2} numbers).
#'
#' @param x The private curves on a one-dimensional grid: a [curves()]
#'   object or anything [as_curves()] understands (re-validated at entry);
#'   or data outside memory: a long database table (dbplyr), [dp_chunks()]
#'   or a [summarise_cov()] summary, with `grid` and the column names `id`,
#'   `arg`, `value` in `...`. The table's summary is computed by the engine
#'   and the release is the same as in memory (see [summarise_cov()]).
#' @param epsilon Privacy budget.
#' @param tau Public bound on the weighted \eqn{L^2} norm of a curve (curves
#'   are radially clipped to it; for a summary `x` it may be left out, and the
#'   summary's bound, centre and `J` are taken), or `"auto"`: chosen privately with a share
#'   of `epsilon`, by the rule of [dp_mean()] (see its section Automatic
#'   bound: the same candidates, target and errors; `bound_share`,
#'   `bound_range`, `bound_quantile` in `...`); the rest of `epsilon` goes to
#'   the release, so the call charges exactly `epsilon`, and the release
#'   records `tau` and `tau_auto`. The norms are histogrammed in a first pass
#'   (by the engine for a table) and the covariance summary is computed at
#'   the chosen bound in a second; chunks, read once, give in one pass the
#'   sums of the coefficient vectors and of their outer products per bin of
#'   the norms (unscaled and divided by the norm, or its square), from which
#'   the covariance summary at any candidate follows exactly: the same
#'   release as in memory (but for single values beyond \eqn{2^{10}} times
#'   the chosen `tau` over the square root of the smallest quadrature weight,
#'   which memory clamps at that point and chunks at the top of the range;
#'   every curve is clipped to norm `tau` either way).
#'   [dp_fpca()] passes it on.
#' @param kernel The ICLP covariance kernel of one argument (default Matern
#'   3/2 with lengthscale 0.1 times the width of the domain).
#' @param centered `TRUE` (covariance) or `FALSE` (second moment, about
#'   `center` when one is given).
#' @param eta,psi QR parameters (`NULL`: PSS defaults above); `psi` on the unit-measure domain.
#' @param J `NULL` or the number of basis components per argument. `NULL`:
#'   every component of the kernel's basis on the grid, but at most
#'   \eqn{\lfloor 2^{12.5}/m \rfloor} (57 for \eqn{m = 100} grid points) so
#'   that the tensor basis stays within the size limit; the components beyond
#'   are shrunk to almost nothing by the QR smoothing.
#' @param h Eigenvalue decay exponent (`NULL`: from the kernel).
#' @param noise `"float"` or `"exact"` (discrete Laplace on the rounded
#'   coefficients, see [dp_mean()] and [exact_noise]).
#' @param budget `NULL` or a [privacy_budget()] to charge.
#' @param grid Passed to [as_curves()] when `x` is not a curves object; for a
#'   database table or [dp_chunks()], the public grid of the curves
#'   (required).
#' @param center A public reference curve (as in [dp_mean()]), subtracted
#'   from every curve before clipping, so that `tau` bounds the deviations
#'   from it; on a database table or chunks the engine subtracts it. It is
#'   not added back: with `centered = FALSE` the release is the second moment
#'   about `center`.
#' @param ... For data that are not curves yet: options of [as_curves()]
#'   (`id`, `arg`, `value` as strings or bare names, `method`, `na.rm`, `df`,
#'   `n_grid`; not `restrict`, whose grid would depend on the data); for a database table or chunks, the column
#'   names `id`, `arg`, `value` (see [summarise_cov()]); with `tau = "auto"`,
#'   `bound_share`, `bound_range`, `bound_quantile`; with `incomplete =
#'   "drop"`, `count_share` and `mean_share`. `delta = 0` is accepted (the
#'   release is pure epsilon-DP); a positive `delta` is refused.
#' @param unit The privacy unit when one person has several curves (as in
#'   [dp_mean()]): a column (string or bare name) of a data frame, table or
#'   chunks (in chunks, each unit's rows together), or a vector with one entry per curve.
#'   Each unit contributes the mean of its curves' clipped coefficient
#'   vectors and the mean of their outer products, whose norms are bounded
#'   as one curve's, so changing everything about one unit moves the summary
#'   by at most the sensitivity the release is calibrated for, with `n` the
#'   number of units. `NULL` (default): every curve is its own unit. The print
#'   says which ("privacy unit: one curve (376)" / "privacy unit: id (142
#'   units)"; a release never states how many curves the units have: that count is
#'   not private).
#' @param incomplete What to do with individuals whose curves do not cover
#'   the grid (long data without a row at some grid point; the same rule on
#'   every source, as in [dp_mean()]): `"error"` (default) refuses them and
#'   says how many cells are empty (and refuses curves from
#'   `as_curves(incomplete = "drop")`, which need `"drop"` here too); `"drop"`
#'   leaves them out of the covariance. Dropping is a data-dependent choice of n, so the release is
#'   calibrated for all `N` individuals (the incomplete ones contributing 0)
#'   and three private releases make it: the second moment
#'   \eqn{\sum_i a_i a_i^\top / N} (uncentred, sensitivity
#'   \eqn{2\tau^2/N}), with `centered = TRUE` the mean coefficients
#'   \eqn{\sum_i a_i / N} (ICLP-QR, `mean_share` of the epsilon left after the
#'   count, default 0.25), and a count of the complete individuals (exact
#'   discrete Laplace, `count_share` of epsilon, default 0.1, clamped to
#'   \eqn{[1, N]}; a `dpfda_warning_count` when its noise sd exceeds half of
#'   it, as in [dp_mean()]). With \eqn{f = N / \tilde n_c} the release is
#'   \eqn{f M - f^2 m m^\top} (post-processing; epsilon in all). The release
#'   records `n_complete`, `scale_factor`, `epsilon_count`,
#'   `epsilon_mean` and the mean release (`mean_release`); [confint()] uses
#'   the noise law of all three parts (the mean's quadratic term with a
#'   Gaussian fourth moment).
#' @return A `dpfda_release` of class `dpfda_iclp_cov_release`: the released
#'   surface on the tensor grid `expand.grid(t, t)` (`values`), its symmetric
#'   `J x J` coefficient matrix (`coefficients`), `basis`, `params`, `tau`,
#'   `n`, `centered` (with `tau = "auto"`: `tau_auto`, `epsilon_release`).
#'   [predict()] takes a two-column matrix of \eqn{(s, t)}
#'   pairs (Nystrom extension, post-processing).
#' @examples
#' t <- seq(0, 1, length.out = 15)
#' x <- curves(outer(rnorm(1000), sin(pi * t)) / 2, t)
#' r <- dp_cov(x, epsilon = 1, tau = 0.75, kernel = kernel_matern(3/2, 0.2))
#' r
#' predict(r, cbind(c(0.5, 0.25), c(0.5, 0.75)))
#' # (a share of 0.1 of epsilon at n = 1000)
#' dp_cov(x, epsilon = 1, tau = "auto", kernel = kernel_matern(3/2, 0.2))$tau
#' @export
dp_cov <- function(x, epsilon, tau, kernel = NULL, centered = TRUE, eta = NULL,
                   psi = NULL, J = NULL, h = NULL, noise = c("float", "exact"), budget = NULL, grid = NULL,
                   center = NULL, ..., unit = NULL, incomplete = c("error", "drop")) {
  call <- match.call()
  if (!missing(x) && inherits(x, "dpfda_summary")) {   # the public tau, centre and J summarise_cov() recorded
    if (missing(tau) && !is.null(x$settings$tau)) tau <- x$settings$tau
    center <- center %||% x$settings$center
    if (is.null(J) && is.matrix(x$settings$projection)) J <- ncol(x$settings$projection)
  }
  check_required(c("x", "epsilon", "tau"))
  budget <- release_open(budget)
  noise <- check_noise(noise)
  incomplete <- check_choice(incomplete, c("error", "drop"), "incomplete")
  # one path for every source: settings -> summary (R/summary-cov.R) -> cov_release()
  # the privacy unit: a column of a data frame, table or chunks, or one entry per curve (as dp_mean())
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  dots <- split_bound_options(pure_dp_delta(capture_dots(..., .cols = c("id", "arg", "value")), "dp_cov()"))
  shares <- cov_drop_shares(dots$rest, incomplete)
  dots$rest <- shares$rest
  src <- cov_source(x, dots$rest, grid, unit, incomplete)
  epsilon <- check_epsilon(epsilon)
  auto <- identical(tau, "auto")   # a private bound (R/auto-bound.R)
  if (!auto) {
    tau <- check_tau(tau, upper = 1e75)
    auto_bound_unused(dots$auto)
  }
  if (is.null(kernel)) kernel <- default_mech_kernel(src$domain)
  check_kernel(kernel)
  centered <- check_flag(centered, "centered")
  if (!is.null(eta)) eta <- check_number(eta, "eta", lower = 0, lower_open = TRUE, upper = 100)
  if (!is.null(psi)) psi <- check_number(psi, "psi", lower = 0, lower_open = TRUE, upper = 1e100)
  if (!is.null(h)) h <- check_number(h, "h", lower = 0, lower_open = TRUE, upper = Inf)
  m <- length(src$grid)
  if (!is.null(J)) J <- check_count(J, "J", min = 1, max = m)
  cen <- center_values(center, src$grid)
  basis <- cov_basis(kernel, src$grid, J)
  eps_rel <- epsilon
  if (auto) {
    # a share of epsilon buys tau from the histogram of the norms (the dp_mean() rule); the rest is the release's
    ch <- cov_auto_bound(src, dots$auto, basis, cen, epsilon, budget, incomplete)
    tau <- ch$tau
    eps_rel <- epsilon - ch$epsilon
  }
  s <- if (auto && !is.null(ch$summary)) ch$summary else cov_summary(src, basis, tau, cen, incomplete)
  warn_privacy(epsilon, 0, s$n)
  drop <- incomplete == "drop"
  rel <- if (drop) {
    # (checked once multiplied by N / count: its noise is that much larger than the parts' own)
    release_utility_check(quiet_utility(
      cov_release_drop(s, basis, eps_rel, tau, kernel, centered, eta, psi, h, noise, call, src$domain, shares)))
  } else {
    cov_release(s$sums[, 1L], s$sums[, -1L, drop = FALSE], s$n, basis, eps_rel, tau, kernel, centered, eta,
                psi, h, noise, call, src$domain)
  }
  rel$privacy_unit <- privacy_unit_of(s)
  # the axes named as the data's (both are the argument; the values are its covariance)
  # (the defaults "t" and "value" name nothing, so curves without names give what a summary gives)
  nm <- source_axis_names(src)
  if (is.character(nm$arg) && length(nm$arg) == 1L && !identical(nm$arg, "t")) rel$values$arg_name <- rep(nm$arg, 2L)
  if (is.character(nm$value) && length(nm$value) == 1L && !identical(nm$value, "value")) {
    rel$values$value_name <- sprintf("covariance of %s", nm$value)
  }
  if (auto) {
    rel$epsilon <- epsilon
    rel$epsilon_release <- eps_rel
    rel$tau_auto <- ch[c("epsilon", "share", "quantile", "range")]
  }
  # one charge for every part (bound, count, mean, covariance): epsilon in all
  parts <- if (auto || drop) list(privacy_part(epsilon)) else list(release_part(rel))
  # (the covariance of dp_fpca() of curves is charged under dp_fpca's name: the ledger said "dp_cov")
  uc <- user_call()
  label <- if (is.call(uc) && identical(as.character(uc[[1L]]), "dp_fpca")) "dp_fpca (its covariance)" else "dp_cov"
  release_close(rel, budget, if (auto) paste(label, "(tau = \"auto\")") else label, parts)
}

# incomplete = "drop" in dp_cov(): `count_share` (default 0.1) of epsilon buys
# the noisy count of the complete individuals, and with `centered = TRUE`
# `mean_share` (default 0.25) of the rest the mean coefficients (both in `...`).
cov_drop_shares <- function(dots, incomplete) {
  nm <- names(dots) %||% rep("", length(dots))
  is_s <- nm %in% c("count_share", "mean_share")
  o <- dots[is_s]
  if (incomplete != "drop") switch_unused(o, names(o), "incomplete = \"drop\"")
  list(rest = dots[!is_s],
       count = if (is.null(o$count_share)) 0.1 else
         check_number(o$count_share, "count_share", lower = 0, lower_open = TRUE, upper = 0.5),
       mean = if (is.null(o$mean_share)) 0.25 else
         check_number(o$mean_share, "mean_share", lower = 0, lower_open = TRUE, upper = 0.9))
}

# dp_cov(incomplete = "drop"): the summary holds N individuals (units), the
# incomplete ones with a_i = 0, so the releases below are calibrated for N,
# which the data do not choose. Three releases, epsilon in all:
# * the second moment M = sum a_i a_i' / N (uncentred: sensitivity 2 tau^2 / N),
# * with centered = TRUE, the mean m = sum a_i / N (ICLP-QR on the same basis),
# * the count n_c of complete individuals (exact discrete Laplace, scale
#   1 / eps_count, clamped to [1, N]).
# With f = N / n_c the covariance of the complete individuals is
# f M - f^2 m m' (second moment: f M), post-processing of the three.
cov_release_drop <- function(s, basis, epsilon, tau, kernel, centered, eta, psi, h, noise, call, domain, shares) {
  N <- s$n
  eps_count <- shares$count * epsilon
  eps_mean <- if (centered) shares$mean * (epsilon - eps_count) else 0
  eps_cov <- epsilon - eps_count - eps_mean
  rel <- cov_release(s$sums[, 1L], s$sums[, -1L, drop = FALSE], N, basis, eps_cov, tau, kernel, FALSE, eta,
                     psi, h, noise, call, domain)
  count <- noisy_complete_count(N - (s$incomplete_n %||% 0), N, eps_count)
  f <- N / count
  m <- length(basis$grid)
  M <- f * matrix(rel$values$values[1L, ], m, m)
  if (centered) {
    mr <- cov_mean_part(s$sums[, 1L], N, basis, eps_mean, tau, kernel, h, noise)
    mv <- f * as.vector(mr$values$values)
    M <- M - tcrossprod(mv)
    rel$mean_release <- mr
  }
  rel$values$values <- matrix(as.vector(M), nrow = 1L)
  Cm <- crossprod(basis$vectors, basis$weights * M) %*% (basis$weights * basis$vectors)
  rel$coefficients <- (Cm + t(Cm)) / 2
  rel$centered <- centered
  rel$scale_factor <- f
  rel$n_complete <- count
  rel$epsilon_count <- eps_count
  rel$epsilon_mean <- eps_mean
  rel$epsilon_release <- eps_cov
  rel$epsilon <- epsilon
  rel
}

# The mean coefficients for dp_cov(incomplete = "drop", centered = TRUE): the
# ICLP-QR release of dp_mean() (PSS tuning) on the covariance's basis.
cov_mean_part <- function(S1, n, basis, epsilon, tau, kernel, h, noise) {
  if (is.null(h)) h <- kernel_edr(kernel, 1L)
  o <- iclp_check_options(list(), "iclp_qr", "pss")
  par <- iclp_params("iclp_qr", "pss", o, n, epsilon, tau, h, basis, NULL, kernel)
  out <- iclp_release_core("iclp_qr", S1 / n, basis$values, basis, n, epsilon, tau, par, o, kernel, noise = noise,
                           what = "dp_cov() (its mean part)")
  iclp_mean_release(out, new_dpfda_curves(out$values, basis$grid, range(basis$grid)), basis, "iclp_qr", epsilon,
                    par, kernel, NULL, h, tau, n, "pss")
}

# dp_cov(tau = "auto"): the histogram of the curves' norms (after the public
# centre, in the basis's weights, as dp_cov() clips) from the binned summary
# of dp_mean(tau = "auto"), and the private choice. Chunks are read once: one
# pass gives the binned covariance summary (cov_bins_frame()), from which the
# histogram and the covariance summary at the chosen bound follow; the
# choice then carries that summary (`summary`).
cov_auto_bound <- function(src, opts, basis, cen, epsilon, budget, incomplete = "error") {
  ab <- auto_bound_options(opts, "l2", sum(basis$weights), max_tau = 1e75)
  if (inherits(src$data, "dpfda_chunks")) {
    cols <- src$cols
    unit <- cols$unit
    if (!is.null(unit) && incomplete == "drop") {   # (the rule of every source, summarise_mean_bins())
      dpfda_abort(paste("tau = \"auto\" with `unit` and incomplete = \"drop\" is not available yet (each works",
                      "without the other): give a numeric tau (dp_accuracy(solve_for = \"tau\") plans one), or",
                      "a grid the curves cover."),
                  arg = "incomplete")
    }
    settings <- list(grid = as.double(basis$grid), weights = as.double(basis$weights), candidates = ab$candidates,
                     clip = "l2", projection = basis$weights * basis$vectors)
    if (!is.null(cen)) settings$center <- cen
    if (incomplete == "drop") settings$incomplete <- "drop"
    sb <- warn_dropped(chunks_reduce(src$data, function(d) {
      cov_bins_frame(d, basis, ab$candidates, cols$id %||% "id", cols$arg %||% "arg", cols$value %||% "value",
                     cen, unit, settings)
    }, id = if (is.null(unit)) cols$id %||% "id" else unit_id(unit), fill_by = if (!is.null(unit)) cols$id %||% "id"))
    if (incomplete == "error") refuse_missing_cells(sb)
    ch <- auto_bound_choose(sb, ab, epsilon, budget, "dp_cov")
    ch$summary <- cov_bins_at(sb, ch$index)
    return(ch)
  }
  bsrc <- if (!is.null(src$curves)) {
    cu <- src$curves
    if (!is.null(cen)) cu$values <- cu$values - rep(cen, each = nrow(cu$values))
    list(curves = cu, grid = src$grid, unit = src$unit)   # (per unit: a unit's bin is its largest curve's)
  } else list(data = src$data, cols = src$cols, grid = src$grid)
  sb <- summarise_mean_bins(bsrc, ab$candidates, "l2", basis$weights, cen, incomplete)
  if (incomplete == "error") refuse_missing_cells(sb)
  auto_bound_choose(sb, ab, epsilon, budget, "dp_cov")
}

# One data frame (a chunk) of long data: per bin of the curves' norms among the
# candidates (rows), the sums of the coefficient vectors a_i and of a_i / |X_i|
# and of the outer products a_i a_i' and a_i a_i' / |X_i|^2 (columns: A1, B1,
# A2, B2; weighted 1 / the unit's curves with `unit`), with the histogram of
# the norms (per unit its largest curve's; an individual left out by
# incomplete = "drop" counts as norm 0, as in dp_mean()). Clipping at c_k scales a_i by
# min(1, c_k / |X_i|), so the covariance summary at candidate k is exactly
#   S1 = sum_{b <= k} A1_b + c_k sum_{b > k} B1_b,
#   S2 = sum_{b <= k} A2_b + c_k^2 sum_{b > k} B2_b.
cov_bins_frame <- function(d, basis, cand, id, arg, value, cen, unit, settings) {
  grid <- as.double(basis$grid)
  m <- length(grid)
  w <- basis$weights
  P <- settings$projection
  J <- ncol(P)
  K2 <- length(cand) + 1L
  drop <- identical(settings$incomplete, "drop")
  cells <- frame_clipped_cells(d, grid, cand[length(cand)], w, "l2", id, arg, value, cen,
                               if (drop) "drop" else "zero", unit = unit)
  sums <- matrix(0, K2, 2L * J + 2L * J * J)
  counts <- numeric(K2)
  n_hist <- if (is.null(unit)) cells$n else cells$n_units %||% 0
  if (length(cells$v)) {
    ci <- cells$i
    nrm2 <- rowsum(w[cells$k + 1L] * cells$v^2, ci, reorder = TRUE)
    A <- rowsum(cells$v * P[cells$k + 1L, , drop = FALSE], ci, reorder = TRUE)   # a_i, rows as nrm2
    ids <- as.double(rownames(nrm2))
    ibin <- auto_bin_index(nrm2[, 1L], cand^2)
    nr <- sqrt(nrm2[, 1L])
    inv <- ifelse(nr > 0, 1 / nr, 0)
    wt <- if (is.null(unit)) rep(1, length(ids)) else cells$weight[match(ids, ci)]
    for (b in unique(ibin)) {
      sel <- ibin == b
      Ab <- A[sel, , drop = FALSE]
      wb <- wt[sel]
      ib <- inv[sel]
      sums[b + 1L, ] <- c(colSums(wb * Ab), colSums(wb * ib * Ab), as.vector(crossprod(wb * Ab, Ab)),
                          as.vector(crossprod(wb * ib^2 * Ab, Ab)))
    }
    if (!is.null(unit)) ibin <- as.integer(tapply(ibin, cells$unit_of[ids + 1], max))   # a unit: its largest
    counts <- as.double(tabulate(ibin + 1L, K2))
  }
  counts[1L] <- counts[1L] + (n_hist - sum(counts))   # individuals without a cell: norm 0
  out <- new_dpfda_summary("cov_bins", sums, n_hist, cells$rows, cells$dropped, settings, norm_counts = counts,
                           missing_cells = (cells$n - cells$incomplete_n) * m - length(cells$v),
                           incomplete_n = as.double(if (is.null(unit)) cells$incomplete_n else
                             cells$incomplete_units %||% 0))
  if (!is.null(unit)) {
    out$unit <- unit
    out$curves <- as.double(cells$n)
  }
  with_beyond(out, cells$beyond)
}

# The covariance summary (kind "cov") at candidate k (1-based) from the binned one.
cov_bins_at <- function(sb, k) {
  st <- sb$settings
  cand <- st$candidates
  J <- ncol(st$projection)
  S1 <- colSums(sb$sums[seq_len(k), seq_len(J), drop = FALSE]) +
    cand[k] * colSums(sb$sums[-seq_len(k), J + seq_len(J), drop = FALSE])
  S2 <- colSums(sb$sums[seq_len(k), 2L * J + seq_len(J * J), drop = FALSE]) +
    cand[k]^2 * colSums(sb$sums[-seq_len(k), 2L * J + J * J + seq_len(J * J), drop = FALSE])
  settings <- list(grid = st$grid, weights = st$weights, tau = cand[k], clip = st$clip, projection = st$projection)
  if (!is.null(st$center)) settings$center <- st$center
  if (!is.null(st$incomplete)) settings$incomplete <- st$incomplete
  out <- new_dpfda_summary("cov", unname(cbind(S1, matrix(S2, J, J))), sb$n, sb$rows, sb$dropped, settings,
                           missing_cells = sb$missing_cells, incomplete_n = sb$incomplete_n)
  if (!is.null(sb$unit)) {
    out$unit <- sb$unit
    out$curves <- sb$curves
  }
  out
}

# The release step of dp_cov(), shared by the in-memory and the engine path
# (R/summary-cov.R): from the sums over individuals of the clipped
# coefficient vectors (S1 = sum a_i) and of their outer products
# (S2 = sum a_i a_i^T), the public basis and n.
cov_release <- function(S1, S2, n, basis, epsilon, tau, kernel, centered, eta, psi, h, noise, call,
                        domain) {
  m <- length(basis$grid)
  Jb <- basis$J
  if (is.null(h)) h <- kernel_edr(kernel, 1L)
  # psi is on the unit-measure domain (see basis_measure()): the tensor domain has measure S^2 (mu2)
  mu2 <- basis_measure(basis)^2
  if (is.null(eta) || is.null(psi)) {
    p <- pss_params("iclp_qr", n, epsilon, h, tau^2 / mu2)
    if (is.null(eta)) eta <- p$eta
    if (is.null(psi)) psi <- p$psi
  }
  S <- S2 / n
  if (centered) {
    abar <- S1 / n
    S <- S - tcrossprod(abar)
  }
  lam2 <- as.vector(outer(basis$values, basis$values))
  B <- (if (centered) 6 else 2) * tau^2 / n
  sens <- B * sqrt(sum(qr_shrink(lam2, eta, psi, mu2)$g^2))
  tb <- list(values = lam2, vectors = kronecker(basis$vectors, basis$vectors),
             grid = as_grid(list(basis$grid, basis$grid)), J = Jb^2)
  out <- iclp_release_core("iclp_qr", as.vector(S), lam2, tb, n, epsilon, tau^2,
                           params = list(params = list(eta = eta, psi = psi)), o = list(measure = mu2), kernel = kernel,
                           sensitivity = sens, noise = noise, what = "dp_cov()")
  Mv <- matrix(out$values, m, m)
  Mv <- (Mv + t(Mv)) / 2                                            # symmetrise: post-processing
  Cm <- crossprod(basis$vectors, basis$weights * Mv) %*% (basis$weights * basis$vectors)
  vals <- new_dpfda_curves(matrix(as.vector(Mv), nrow = 1L), tb$grid, cbind(domain, domain))
  new_iclp_cov_release(vals, mechanism = "cov-iclp", epsilon = epsilon, delta = 0,
                       sensitivity = out$sensitivity, noise_scale = out$noise_scale, noise = kernel,
                       call = call, coefficients = (Cm + t(Cm)) / 2, basis = basis,
                       params = list(eta = eta, psi = psi, h = h, J = Jb), tau = tau, n = n,
                       centered = centered, noise_exact = out$noise_exact, grid_step = out$grid_step,
                       noise_inflation = out$noise_inflation)
}

#' The release of dp_cov(): class `dpfda_iclp_cov_release`.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `values` are the released
#'   covariance on the grid x grid, `epsilon` the whole call's.
#' @param coefficients The released (symmetric) coefficient matrix on the basis.
#' @param basis The public KL basis.
#' @param params The tuning (eta, psi, h, J).
#' @param tau The public bound.
#' @param n The number of individuals (public).
#' @param centered Whether the covariance is centred (incomplete = "drop":
#'   always the second moment minus the private mean's outer product).
#' @param noise_exact,grid_step,noise_inflation The exact-noise record of the
#'   ICLP core (always stored, possibly NULL).
#' @param mean_release,scale_factor,n_complete,epsilon_count,epsilon_mean
#'   incomplete = "drop" (set after the release by cov_release_drop()): the
#'   private mean (centred), the factor N / count, the noisy count of complete
#'   individuals, and the epsilons of the count and mean. (Not the exact
#'   number of incomplete individuals: with the public N it would give the
#'   count that the noisy one hides.)
#' @param epsilon_release The epsilon of the covariance release proper (set
#'   after the release with incomplete = "drop" or tau = "auto").
#' @param privacy_unit What one individual of the guarantee is (set after the
#'   release).
#' @param tau_auto tau = "auto" (set after the release): the record of the
#'   private choice of tau.
#' @noRd
new_iclp_cov_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                                 call = NULL, coefficients = NULL, basis = NULL, params = NULL, tau = NULL,
                                 n = NULL, centered = NULL, noise_exact = NULL, grid_step = NULL,
                                 noise_inflation = NULL, mean_release = NULL, scale_factor = NULL,
                                 n_complete = NULL, epsilon_count = NULL,
                                 epsilon_mean = NULL, epsilon_release = NULL, privacy_unit = NULL,
                                 tau_auto = NULL) {
  release_from_fields(new_iclp_cov_release, "dpfda_iclp_cov_release",
                      nullable = c("noise_exact", "grid_step", "noise_inflation"))
}

#' @export
release_predict.dpfda_iclp_cov_release <- function(object, newdata, ...) {
  p <- as_points(newdata, "newdata", d = 2L)
  B1 <- stats::predict(object$basis, p[, 1L])
  B2 <- stats::predict(object$basis, p[, 2L])
  rowSums((B1 %*% object$coefficients) * B2)
}

#' @export
release_details.dpfda_iclp_cov_release <- function(x) {
  per_unit <- !is.null(x$privacy_unit) && !startsWith(x$privacy_unit, "one curve")
  cat(sprintf("  %s of %s %s clipped to tau = %s; eta = %s, psi = %s, J = %d per argument\n",
              if (x$centered) "covariance" else "second moment", format(x$n),
              if (per_unit) "units (the mean of each unit's curves)" else "curves", format(x$tau, digits = 4),
              format(x$params$eta, digits = 4), format(x$params$psi, digits = 4), x$params$J))
  print_tau_auto(x)
  if (!is.null(x$scale_factor)) {
    cat(sprintf(paste("  incomplete curves dropped: over a noisy count of %s complete individuals (epsilon %s",
                      "of the total)%s\n"), format(x$n_complete, digits = 6), format(x$epsilon_count, digits = 4),
                if (x$epsilon_mean > 0) sprintf(", centred on a private mean (epsilon %s)",
                                                format(x$epsilon_mean, digits = 4)) else ""))
    cat(count_scale_note(x))
  }
}
