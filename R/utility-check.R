# The utility checks every release makes on public quantities (the noise
# against the signal size, the shrinkage), and the switch that silences them.

# Called on every new release: warn (classed) when the noise is more than
# half the size of the signal the public settings allow (then even a signal
# at that size comes out with a relative L2 error above 50 percent). Public
# quantities only: the noise law, tau (or the response bounds) and the
# public centre.
release_utility_check <- function(x) {
  if (!isTRUE(getOption("dpfda.utility_warning", TRUE))) return(invisible(x))
  if (inherits(x, "dpfda_kme_release")) return(kme_utility_check(x))
  s <- tryCatch(signal_size_l2(x), error = function(e) NULL)
  bound <- s$size
  if (is.null(bound) || !is.finite(bound)) return(invisible(x))
  law <- tryCatch(noise_law(x), error = function(e) NULL)
  if (is.null(law)) return(invisible(x))
  l2 <- sqrt(sum(law$weights * law$var))
  if (is.finite(l2) && l2 > bound / 2) {
    advice <- if (inherits(x, "dpfda_kde_release")) "Use a larger bandwidth (the noise is calibrated to it)"
              else if (!is.null(x[["center"]])) "Lower the bound tau on the deviations from the centre"
              else if (inherits(x, "dpfda_iclp_cov_release"))
                "Lower the bound tau (centred on a public reference, `center`, curves need it for their deviations only)"
              else if (is.numeric(x$tau)) "Centre the data on a public reference (`center`) and lower the bound (tau)"
              else "Narrow the public bounds"
    dpfda_warn(sprintf(paste("The privacy noise of this %s release (expected L2 error %s) is more than half",
                             "the L2 size of the signal its public settings allow (%s: %s): the release is",
                             "mostly noise, with a relative error above 50%% even for a signal of that size.",
                             "%s, use more individuals (n) or a larger epsilon; check with dp_accuracy()",
                             "before releasing."),
                       x$mechanism, format(l2, digits = 3), format(bound, digits = 3), s$what, advice),
               "dpfda_warning_utility")
    return(invisible(x))
  }
  if (inherits(x, "dpfda_kde_release")) return(invisible(x))   # (no tau, no shrinkage of a signal bound)
  release_shrinkage_check(x)   # one warning: the noise one says enough when it fires
}

# A kernel mean embedding whose noise is more than half the largest RKHS norm
# an embedding can have: the embedding of any distribution (weights summing to
# 1, or 1 / k within a unit) has norm at most sqrt(sup k(x, x)), the root of
# the (stationary) kernel's variance, reached by a point mass. Public: the
# noise's expected RKHS norm (kme_noise_norm()) and the kernel.
kme_utility_check <- function(x) {
  e <- kme_noise_norm(x)
  v <- x$kernel$variance
  if (is.null(e) || !is.numeric(v) || length(v) != 1L || !is.finite(v) || v <= 0) return(invisible(x))
  bound <- sqrt(v)
  if (as.double(e) > bound / 2) {
    dpfda_warn(sprintf(paste("The privacy noise of this dp_kme() release (expected RKHS norm %s, the MMD it adds to",
                             "the data's embedding) is more than half the largest RKHS norm an embedding can have",
                             "(%s: the root of the kernel's variance k(x, x), a point mass's): the release is mostly",
                             "noise. Use more individuals (N = %s), a larger epsilon, or fewer %s (the noise grows",
                             "with the root of their number, %d)."),
                       format(as.double(e), digits = 3), format(bound, digits = 3), format(x$n),
                       if (identical(x$method, "subspace")) "synthetic points" else "random features",
                       as.integer(attr(e, "coordinates"))),
               "dpfda_warning_utility")
  }
  invisible(x)
}

# A release whose smoothing removes most of the signal: the public bound on
# the smoothing bias (for a mean as smooth as the kernel allows, see
# R/bias-bound.R) is more than half of tau and all but a few components (at
# most 3 keep more than 10% of their size) are shrunk (nearly) to 0, so the
# release is mostly the public centre (0, or `center`). The noise check above can then be silent, since shrinking the
# signal shrinks the noise too.
release_shrinkage_check <- function(x) {
  # the shrinkage, thresholding or truncation of the ICLP-type mechanisms; a Bernstein release's
  # smoothing is fixed by k, whatever n and epsilon
  if (!(x$mechanism %in% c("iclp_qr", "iclp_ar", "frl", "gp"))) return(invisible(x))
  b <- release_bias_bound(x)
  if (is.null(b) || !is.finite(b$l2) || !(b$l2 > x$tau / 2)) return(invisible(x))
  # ... and all but a few components (at most 3) are shrunk to (nearly) 0
  nk <- switch(x$mechanism,
    iclp_qr = , gp = sum(qr_shrink(x$basis$values, x$params$eta, x$params$psi, basis_measure(x$basis))$s > 0.1),
    frl = x$params$M, iclp_ar = x$params$J_tau)
  if (!is.numeric(nk) || length(nk) != 1L || is.na(nk) || nk > 3) return(invisible(x))
  kept <- sprintf(" (%d of %d components keep more than 10%% of their size)", as.integer(nk), x$basis$J)
  law <- tryCatch(noise_law(x), error = function(e) NULL)
  l2 <- if (is.null(law)) NA_real_ else sqrt(sum(law$weights * law$var))
  dpfda_warn(sprintf(paste("The smoothing of this %s release removes most of the signal%s: its bias is up to %s",
                           "in L2 norm for a mean as smooth as the kernel allows (tau = %s), against a noise",
                           "error of %s. The release is mostly the public centre. %s; dp_accuracy() shows the",
                           "total error before releasing."),
                     x$mechanism, kept, format(b$l2, digits = 3), format(x$tau, digits = 3),
                     format(l2, digits = 3), shrinkage_advice(x)),
             "dpfda_warning_utility")
  invisible(x)
}

# What lowers the smoothing of a release under its default tuning: the PSS smoothing of ICLP-QR and of
# Gaussian FRL falls with n and epsilon; that of FRL with Laplace noise (M), ICLP-AR (psi = tau / n)
# and the GP mechanism (psi = 1 / n) with n only, so a larger epsilon would not help them.
shrinkage_advice <- function(x) {
  if (x$mechanism == "iclp_qr" || (x$mechanism == "frl" && identical(x$params$frl_noise, "gaussian"))) {
    return("Use more individuals (n) or a larger epsilon")
  }
  sprintf(paste("Use more individuals (n): the default tuning of %s smooths less as n grows, not with epsilon",
                "(a larger epsilon leaves this bias as it is); or smooth less by hand (%s in ...)"),
          x$mechanism, switch(x$mechanism, frl = "a larger M", "a smaller psi"))
}

# Evaluate `expr` without the utility warning (for a release that is
# completed, e.g. centred, after its construction and checked then); the
# warning about the noisy count of complete individuals is not checked again
# later, so it passes.
quiet_utility <- function(expr) {
  withCallingHandlers(expr, dpfda_warning_utility = function(w) {
    if (!inherits(w, "dpfda_warning_count")) invokeRestart("muffleWarning")
  })
}

# dp_accuracy(tau = "auto"): the noise of a release whose bound is chosen by
# dp_mean()'s (or dp_cov()'s) private rule, for curves whose norms are like
# the public planning sample `norms` (in `...`). The histogram is its
# expectation, n times the sample's distribution over the bins; the law of the
# chosen bound is then exact (the exponential mechanism's probabilities), and
# the errors average over it: pointwise variances and squared L2 errors are
# mixed with those probabilities, as is the mean sup error. The release's
# epsilon is what the bound leaves. Refusals (a bound outside the range) are
# reported, and the errors are conditional on no refusal.
accuracy_auto <- function(mechanism, n, epsilon, delta, kernel, grid, opts, nsim, seed) {
  if (is.character(mechanism) && length(mechanism) == 1L && mechanism %in% c("iclp", "qr", "ar")) {
    mechanism <- c(iclp = "iclp_qr", qr = "iclp_qr", ar = "iclp_ar")[[mechanism]]
  }
  mechanism <- check_choice(mechanism, c(iclp_mechanisms, "cov"), "mechanism")
  if (is.null(n)) dpfda_abort("`n` is needed for tau = \"auto\": the number of individuals.", arg = "n")
  n <- check_count(n, "n", min = 1, max = 1e15)
  if (is.null(epsilon)) dpfda_abort("`epsilon` is needed: the privacy budget you plan to spend.", arg = "epsilon")
  epsilon <- check_epsilon(epsilon)
  if (is.null(grid)) dpfda_abort("`grid` is needed: the public grid of the release.", arg = "grid")
  g <- as_grid(grid, "grid")
  norms <- opts$norms
  ok <- is.numeric(norms) && length(norms) >= 1L && all(is.finite(norms)) && all(norms >= 0)
  if (!isTRUE(ok)) {
    arg_error("norms", paste("a sample of typical norms of the curves (non-negative numbers, e.g. from a pilot or",
                             "public study), in `...`: the accuracy of tau = \"auto\" depends on where they lie"),
              norms)
  }
  opts$norms <- NULL
  parts <- split_bound_options(opts)
  clip <- if (mechanism == "bernstein") "sup" else "l2"
  S <- if (clip == "l2") sum(if (is.null(dim(g)) && length(g) == 1L) 1 else quadrature_weights(g)) else 1
  ab <- auto_bound_options(parts$auto, clip, S, max_tau = if (mechanism == "cov") 1e75 else 1e150)
  share <- auto_bound_share(ab, n, epsilon)
  eps_b <- share * epsilon
  cand <- ab$candidates
  K2 <- length(cand) + 1L
  Fc <- stats::ecdf(norms)(cand)
  counts <- n * diff(c(0, Fc, 1))
  k0 <- auto_bound_k0(n, ab$quantile, eps_b, K2)
  r <- cumsum(counts)
  u <- -pmax(0, (n - k0) - r, c(0, r[-K2]) - (n - k0))
  p <- select_probabilities(u, 1, eps_b)
  p_refused <- p[1L] + p[K2]
  keep <- which(p > 1e-4 * max(p) & seq_len(K2) > 1L & seq_len(K2) < K2)
  if (!length(keep)) {
    dpfda_abort("With these norms the private bound would almost surely fall outside `bound_range`; widen it.",
                class = "dpfda_error_data", arg = "bound_range")
  }
  q <- p[keep] / sum(p[keep])
  eps_rel <- epsilon - eps_b
  sums <- lapply(keep, function(b) {
    st <- accuracy_settings(mechanism, n, eps_rel, delta, cand[b], kernel, grid, NULL, parts$rest)
    law <- st$law(st$n, st$epsilon)
    list(s = suppressWarnings(law_summary(law, nsim, seed)), law = law, st = st)
  })
  v <- Reduce(`+`, Map(function(z, w) w * z$s$pointwise_sd^2, sums, q))
  l2 <- sqrt(sum(vapply(seq_along(q), function(i) q[i] * sums[[i]]$s$expected_l2^2, 0)))
  es <- sum(vapply(seq_along(q), function(i) q[i] * sums[[i]]$s$expected_sup, 0))
  mode <- sums[[which.max(q)]]
  out <- new_accuracy(list(pointwise_sd = sqrt(v), expected_l2 = l2, expected_sup = es), mode$law,
                      mechanism = mode$st$mechanism, n = n, epsilon = epsilon, delta = mode$st$delta, tau = "auto")
  out$tau_distribution <- data.frame(tau = cand[keep], probability = q)
  out$bound_share <- share
  out$epsilon_release <- eps_rel
  out$p_refused <- p_refused
  out
}
