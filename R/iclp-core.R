# The building blocks of the ICLP / FRL / GP mechanisms of Lin and Reimherr,
# free of data: option checks, the tuning on the unit-measure domain, the
# shrinkage and thresholds, sensitivities, and the one release step on
# Karhunen-Loeve coefficients (iclp_release_core()) that dp_mean(), dp_cov(),
# dp_kde() and dp_erm() share.

iclp_check_options <- function(o, mechanism, select) {
  if (!is.null(o$eta)) o$eta <- check_number(o$eta, "eta", lower = 0, lower_open = TRUE, upper = 100)
  if (!is.null(o$psi)) o$psi <- check_number(o$psi, "psi", lower = 0, lower_open = TRUE, upper = 1e100)
  if (!is.null(o$M)) o$M <- check_count(o$M, "M", max = 1e5)
  o$k <- if (is.null(o$bernstein_k)) 20L else check_count(o$bernstein_k, "bernstein_k", max = 1e4)
  if (!is.null(o$h)) o$h <- check_number(o$h, "h", lower = 0, lower_open = TRUE, upper = Inf)
  # delta = 0 (pure DP) is what the Laplace mechanisms give anyway: accepted and ignored there,
  # refused with advice where the noise is Gaussian (below)
  if (identical(as.vector(o$delta), 0) || identical(as.vector(o$delta), 0L)) {
    gaussian <- mechanism == "gp" || identical(o$frl_noise, "gaussian")
    if (gaussian) {
      dpfda_abort(sprintf(paste("`delta` is 0, but mechanism \"%s\" adds Gaussian noise and is (epsilon, delta)-DP",
                                "with delta > 0: give delta = 1e-5 (well below 1/n), or use mechanism = \"iclp\"",
                                "for pure DP."), if (mechanism == "gp") "gp" else "frl (frl_noise = \"gaussian\")"),
                  class = c("dpfda_error_argument", "dpfda_error_privacy"), arg = "delta")
    }
    o$delta <- NULL
  }
  if (!is.null(o$delta)) o$delta <- check_delta(o$delta)
  o$calibration <- if (is.null(o$calibration)) "analytic" else
    check_choice(o$calibration, c("analytic", "hall", "classical"), "calibration")
  o$tol <- if (is.null(o$tol)) 1e-12 else check_number(o$tol, "tol", lower = 0, upper = 1, upper_open = TRUE)
  o$pss_rule <- if (is.null(o$pss_rule)) "theory" else
    check_choice(o$pss_rule, c("theory", "theory_upper", "authors_code"), "pss_rule")
  o$frl_bound <- if (is.null(o$frl_bound)) "M" else check_choice(o$frl_bound, c("M", "sqrtM"), "frl_bound")
  o$frl_noise <- if (is.null(o$frl_noise)) "laplace" else
    check_choice(o$frl_noise, c("laplace", "gaussian"), "frl_noise")
  if (o$frl_noise == "gaussian") check_frl_gaussian(o, mechanism, select)
  o$ar_bound <- if (is.null(o$ar_bound)) "sum" else check_choice(o$ar_bound, c("sum", "cs"), "ar_bound")
  o$threshold_scale <- if (is.null(o$threshold_scale)) 1 else
    check_number(o$threshold_scale, "threshold_scale", lower = 0, lower_open = TRUE, upper = 1e10)
  if (!is.null(o$epsilon_select)) o$epsilon_select <- check_epsilon(o$epsilon_select, "epsilon_select")
  o$count_share <- if (is.null(o$count_share)) 0.1 else
    check_number(o$count_share, "count_share", lower = 0, lower_open = TRUE, upper = 0.5)
  o$inference_share <- if (is.null(o$inference_share)) 0.2 else
    check_number(o$inference_share, "inference_share", lower = 0, lower_open = TRUE, upper = 0.9)
  o$clip_share <- if (is.null(o$clip_share)) 0.1 else
    check_number(o$clip_share, "clip_share", lower = 0, upper = 0.5)
  if (mechanism == "gp" && is.null(o$delta)) {
    dpfda_abort(paste("`delta` is missing: mechanism \"gp\" is (epsilon, delta)-DP and needs `delta` (in `...`);",
                      "give delta = 1e-5 (well below 1/n), or use mechanism = \"iclp\" for pure DP."),
                class = c("dpfda_error_argument", "dpfda_error_privacy"), arg = "delta")
  }
  if (select == "pcv") {
    if (is.null(o$epsilon_select)) {
      dpfda_abort(paste("`epsilon_select` must be given (in `...`) for select = \"pcv\": the budget of the",
                        "private cross-validation, spent on top of `epsilon` (e.g. epsilon_select = 0.5; the",
                        "call then charges epsilon + 0.5)."),
                  class = "dpfda_error_privacy", arg = "epsilon_select")
    }
    if (mechanism %in% c("bernstein", "gp")) {
      dpfda_abort(sprintf("select = \"pcv\" is available for \"iclp_qr\", \"iclp_ar\" and \"frl\", not \"%s\".",
                          mechanism), arg = "select")
    }
  }
  tuned <- switch(mechanism, iclp_qr = , iclp_ar = , gp = c("eta", "psi"), frl = "M", bernstein = character())
  if (select == "manual") {
    miss <- tuned[vapply(tuned, function(p) is.null(o[[p]]), NA)]
    if (length(miss)) {
      dpfda_abort(sprintf("`%s` must be given (in `...`) with select = \"manual\".", miss[1L]), arg = miss[1L])
    }
  }
  o
}

# EDR exponent h (lambda_j ~ j^(-2h)) of the package's kernels.
kernel_edr <- function(kernel, d = 1L) {
  switch(kernel$type,
         matern = (2 * kernel$nu + d) / (2 * d),
         exponential = (1 + d) / (2 * d),
         gaussian = dpfda_abort(paste("The Gaussian kernel has super-polynomial eigenvalue decay: give the",
                                      "EDR exponent `h` (in `...`) for the PSS choice."), arg = "h"))
}

# Radial clipping in the weighted L2 norm (values first clamped to
# value_clamp_bound(), as every summary does, so that norms never overflow).
clip_curves_l2 <- function(X, w, tau) {
  B <- value_clamp_bound(tau, w, "l2")
  if (any(abs(X) > B)) X <- pmin(pmax(X, -B), B)
  nrm <- sqrt(as.vector((X * X) %*% w))
  s <- ifelse(nrm > tau, tau / nrm, 1)
  X * s
}

# Parameters of the summary from select = "pss" / "manual" / "pcv".
iclp_params <- function(mechanism, select, o, n, epsilon, tau, h, basis, x, kernel, unit = NULL) {
  out <- list(epsilon_select = 0, pcv = NULL)
  # PSS defaults on the unit-measure domain, where the L2 bound is tau / sqrt(S)
  tau_u <- tau / sqrt(basis_measure(basis))
  if (select == "pcv") {
    eta <- if (!is.null(o$eta)) o$eta else
      if (mechanism != "frl") pss_params(mechanism, n, epsilon, h, tau_u, o$pss_rule)$eta else NULL
    s <- pcv_select(x, epsilon, tau, mechanism, basis, epsilon_select = o$epsilon_select,
                    candidates = o$candidates, folds = if (is.null(o$folds)) 10 else o$folds,
                    eta = eta, h = h, frl_bound = o$frl_bound, ar_bound = o$ar_bound,
                    threshold_scale = o$threshold_scale, unit = unit)   # (whole units in the folds)
    out$epsilon_select <- s$epsilon
    out$pcv <- s
    out$params <- if (mechanism == "frl") list(M = as.integer(s$value)) else list(eta = eta, psi = s$value)
  } else if (select == "pss") {
    p <- pss_params(mechanism, n, epsilon, h, tau_u, o$pss_rule)
    out$params <- if (mechanism == "frl") list(M = p$M) else list(eta = p$eta, psi = p$psi)
    if (frl_gaussian(mechanism, o)) out$params$M <- frl_gaussian_pss_M(basis, n, epsilon, tau, o)
    for (nm in names(out$params)) if (!is.null(o[[nm]])) out$params[[nm]] <- o[[nm]]   # explicit overrides
  } else {
    out$params <- if (mechanism == "frl") list(M = o$M) else list(eta = o$eta, psi = o$psi)
  }
  if (mechanism == "frl" && out$params$M > basis$J) {
    dpfda_abort(sprintf("`M` must be at most the number of basis components (%d), not %d.", basis$J,
                        out$params$M), arg = "M")
  }
  out
}

# ---- unit-free tuning (issue 28) ---------------------------------------------
# Under a change of units t -> a + b t of the argument (d dimensions) the
# quadrature weights, hence the measure S of the domain and the kl_basis()
# eigenvalues, scale by |b|^d; the basis coefficients and the L2 bound tau by
# |b|^(d/2). The shrinkage lambda^eta / (lambda^eta + psi) and the AR
# thresholds compare lambda with the absolute number psi, so a fixed psi
# would mean a different smoothing (and a different noise) in every unit.
# psi and the PSS defaults are therefore defined on the domain rescaled to
# unit measure: the mechanisms use the eigenvalues lambda / S and, for the AR
# thresholds (which live on the scale of the coefficients), sqrt(S) times the
# unit-domain threshold. This equals psi * S^eta (QR, GP) and
# psi * S^((eta + 1) / 2) (AR) on the data's own scale. On a domain of
# measure 1 (the papers' [0, 1]) nothing changes.

# The measure of the domain as the quadrature sees it (sum of the weights);
# exactly 1 on the unit domain up to rounding, so that the papers' settings
# on [0, 1] are used bit for bit.
basis_measure <- function(basis) {
  S <- sum(basis$weights)
  if (is.null(S) || !is.finite(S) || S <= 0 || abs(S - 1) < 1e-9) 1 else S
}

# QR shrinkage factors and the ICLP / Cameron-Martin sensitivity weights on
# the data's scale, with psi on the unit-measure domain (S: basis_measure()).
qr_shrink <- function(lam, eta, psi, S = 1) {
  if (S != 1) lam <- lam / S
  le <- lam^eta
  g <- lam^(eta - 0.5) / (le + psi)
  list(s = le / (le + psi), g = if (S != 1) g / sqrt(S) else g)
}

ar_threshold <- function(lam, eta, psi, scale, S = 1) {
  if (S == 1) return(scale * psi / (2 * lam^(eta / 2)))
  sqrt(S) * scale * psi / (2 * (lam / S)^(eta / 2))
}

soft_threshold <- function(a, t) sign(a) * pmax(abs(a) - t, 0)

# Sensitivities (ICLP norm for QR / AR, l1 for FRL, Cameron-Martin for GP).
# o$measure: basis_measure() of the basis (psi is on the unit-measure domain).
iclp_sensitivity <- function(mechanism, lam, n, tau, params, o) {
  S <- if (is.null(o$measure)) 1 else o$measure
  switch(mechanism,
    iclp_qr = 2 * tau / n * sqrt(sum(qr_shrink(lam, params$eta, params$psi, S)$g^2)),
    gp = 2 * tau / n * max(qr_shrink(lam, params$eta, params$psi, S)$g),
    iclp_ar = {
      t <- ar_threshold(lam, params$eta, params$psi, o$threshold_scale, S)
      jt <- sum(t < tau)
      if (jt == 0L) 0 else if (o$ar_bound == "sum") 2 * tau / n * sum(lam[seq_len(jt)]^-0.5)
      else 2 * tau / n * sqrt(sum(1 / lam[seq_len(jt)]))
    },
    # FRL: l1 over the first M coefficients (Laplace); with Gaussian noise their l2 norm, at most the
    # curve's L2 norm (the basis is orthonormal), so 2 tau / n whatever M
    frl = 2 * tau / n * (if (identical(o$frl_noise, "gaussian")) 1 else if (o$frl_bound == "M") params$M
                         else sqrt(params$M))
  )
}

# Summary coefficients, noise standard deviations per component, sensitivity.
# `sensitivity` (optional) overrides the mean-specific value (used by dp_kde(), dp_cov()).
iclp_plan <- function(mechanism, a, lam, n, epsilon, tau, params, o, sensitivity = NULL) {
  J <- length(lam)
  delta_s <- if (is.null(sensitivity)) iclp_sensitivity(mechanism, lam, n, tau, params, o) else sensitivity
  S <- if (is.null(o$measure)) 1 else o$measure
  switch(mechanism,
    iclp_qr = {
      sigma <- sqrt(2) * delta_s / epsilon
      list(center = qr_shrink(lam, params$eta, params$psi, S)$s * a, sd = sigma * sqrt(lam),
           idx = seq_len(J), sensitivity = delta_s, noise_scale = sigma, J_tau = NA_integer_)
    },
    iclp_ar = {
      t <- ar_threshold(lam, params$eta, params$psi, o$threshold_scale, S)
      jt <- sum(t < tau)
      sigma <- sqrt(2) * delta_s / epsilon
      idx <- seq_len(jt)
      list(center = soft_threshold(a[idx], t[idx]), sd = sigma * sqrt(lam[idx]), idx = idx,
           sensitivity = delta_s, noise_scale = sigma, J_tau = jt)
    },
    frl = {
      idx <- seq_len(params$M)
      if (identical(o$frl_noise, "gaussian")) {      # the Gaussian mechanism on the M coefficients
        # (with inference = TRUE its share of a mu-GDP budget, R/population-band.R)
        sg <- if (!is.null(o$gdp)) delta_s / o$gdp[["release"]] else
          dp_noise_scale(delta_s, epsilon, o$delta, o$calibration)
        return(list(center = a[idx], sd = rep(sg, length(idx)), idx = idx, sensitivity = delta_s,
                    noise_scale = sg, J_tau = NA_integer_, family = "gaussian"))
      }
      b <- delta_s / epsilon                         # Laplace scale; sd = sqrt(2) b
      list(center = a[idx], sd = rep(sqrt(2) * b, length(idx)), idx = idx, sensitivity = delta_s,
           noise_scale = b, J_tau = NA_integer_)
    })
}

iclp_release_core <- function(mechanism, a, lam, basis, n, epsilon, tau, params, o, kernel,
                              sensitivity = NULL, noise = "float", what = NULL) {
  # (`what` names the user's call in a float-tail refusal)
  if (is.null(what)) what <- sprintf("dp_mean(mechanism = \"%s\")", mechanism)
  p <- params$params
  if (is.null(o$measure)) o$measure <- basis_measure(basis)   # psi is on the unit-measure domain
  S <- o$measure
  if (mechanism == "gp") {
    dk <- iclp_sensitivity("gp", lam, n, tau, p, o)
    # (with inference = TRUE its share of a mu-GDP budget, R/population-band.R)
    sg <- if (!is.null(o$gdp)) dk / o$gdp[["release"]] else dp_noise_scale(dk, epsilon, o$delta, o$calibration)
    if (noise == "exact") {
      # discrete Gaussian in the whitened coordinates of the grid, as dp_gp_release(noise = "exact")
      f <- as.vector(basis$vectors %*% (qr_shrink(lam, p$eta, p$psi, S)$s * a))
      ex <- gp_exact_path(f, basis$grid, kernel, sg, dk, epsilon, o$delta)
      return(list(values = matrix(ex$values, nrow = 1L), sensitivity = dk, noise_scale = ex$sigma,
                  delta = o$delta, J_tau = NA_integer_, noise_exact = TRUE, grid_step = ex$step,
                  zcdp_rho = ex$rho))
    }
    check_float_tails("gaussian", epsilon, o$delta, m = 4 * grid_size(basis$grid) + 1024,
                      shift = if (sg > 0) dk / sg else 0, what = what,
                      calibration = o$calibration)
    f <- basis$vectors %*% (qr_shrink(lam, p$eta, p$psi, S)$s * a)
    vals <- matrix(f, nrow = 1L) + sg * rgp(1, kernel, basis$grid)$values
    return(list(values = vals, sensitivity = dk, noise_scale = sg, delta = o$delta, J_tau = NA_integer_))
  }
  pl <- iclp_plan(mechanism, a, lam, n, epsilon, tau, p, o, sensitivity)
  if (mechanism == "iclp_ar" && pl$J_tau == length(lam)) {
    dpfda_warn(paste("No ICLP-AR threshold reaches `tau`: every basis component is released (J_tau = J);",
                     "the sensitivity is that of the truncated basis."), "dpfda_warning_iclp")
  }
  V <- basis$vectors[, pl$idx, drop = FALSE]
  if (identical(pl$family, "gaussian")) return(frl_gaussian_draw(pl, V, epsilon, o, noise, what))
  ex <- NULL
  vals <- if (noise == "exact" && length(pl$idx)) {
    ex <- iclp_exact_coefficients(pl$center, pl$sd / sqrt(2), epsilon)
    matrix(as.vector(V %*% ex$coef), nrow = 1L)
  } else {
    check_float_tails("laplace", epsilon, m = length(pl$idx), what = what)
    c_iclp_draw(V, as.double(pl$sd), 1L, as.double(pl$center))
  }
  if (!all(is.finite(vals))) {
    dpfda_abort("The released values overflow; rescale the data (tau) or the kernel.",
                class = "dpfda_error_numeric")
  }
  list(values = vals, sensitivity = pl$sensitivity, noise_scale = pl$noise_scale, delta = 0,
       J_tau = pl$J_tau, noise_exact = noise == "exact", grid_step = if (!is.null(ex)) ex$step,
       noise_inflation = if (!is.null(ex)) ex$inflation)
}

# FRL with Gaussian noise (frl_noise = "gaussian"): the classical Gaussian
# mechanism on the first M coefficients, (epsilon, delta)-DP for their l2
# sensitivity 2 tau / n. No smoothing with M = J (every component of the
# basis): the narrowest population band at large n * epsilon (issue 29).
frl_gaussian <- function(mechanism, o) identical(mechanism, "frl") && identical(o$frl_noise, "gaussian")

# The PSS M of FRL with Gaussian noise: the M that minimises the public
# planned squared L2 error, M sigma^2 (the noise of M coefficients; the
# Gaussian scale sigma of the l2 sensitivity 2 tau / n does not depend on M)
# plus the squared worst-case truncation bias of dp_accuracy()
# (bias_linear_l2(), R/bias-bound.R). The paper's rule (M from
# [n^(1/(2h)) - 1, n^(1/3)], pss_params()) is derived for Laplace noise,
# whose scale grows with M, and ignores epsilon; for Gaussian noise it kept
# 3 of the 93 components of dti_cca (n 141) at every epsilon: at epsilon 4 a
# planned L2 error of 0.146, nearly all bias bound, against 0.018 with
# M = 27 here. Public (kernel, grid, n, epsilon, delta, tau), so it costs no
# budget; dp_accuracy() plans with it, and the planned total is
# non-increasing in n and epsilon (a minimum over M of terms that are).
# Invariant under a change of units (both terms scale with the measure of
# the domain).
frl_gaussian_pss_M <- function(basis, n, epsilon, tau, o) {
  J <- length(basis$values)
  sg <- iclp_plan("frl", numeric(J), basis$values, n, epsilon, tau, list(M = J), o)$noise_scale
  err2 <- vapply(seq_len(J), function(M) M * sg^2 + bias_linear_l2(basis, as.double(seq_len(J) <= M), tau)^2, 1)
  as.integer(which.min(err2))
}

check_frl_gaussian <- function(o, mechanism, select) {
  if (mechanism != "frl") {
    dpfda_abort(sprintf("frl_noise = \"gaussian\" is an option of mechanism = \"frl\", not \"%s\".", mechanism),
                arg = "frl_noise")
  }
  if (is.null(o$delta)) {
    dpfda_abort(paste("`delta` is missing: frl_noise = \"gaussian\" is (epsilon, delta)-DP and needs `delta` (in",
                      "`...`); give delta = 1e-5 (well below 1/n), or leave frl_noise out for pure DP."),
                class = c("dpfda_error_argument", "dpfda_error_privacy"), arg = "delta")
  }
  if (select == "pcv") {
    dpfda_abort(paste("select = \"pcv\" is not available with frl_noise = \"gaussian\"; give M (select =",
                      "\"manual\") or use \"pss\"."),
                class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = "select")
  }
  invisible(o)
}

frl_gaussian_draw <- function(pl, V, epsilon, o, noise, what) {
  if (noise == "exact") {
    dpfda_abort(paste("noise = \"exact\" is not available with frl_noise = \"gaussian\"; use the default float",
                      "noise, or the Laplace FRL (exact discrete Laplace)."),
                class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = "noise")
  }
  M <- length(pl$idx)
  check_float_tails("gaussian", epsilon, o$delta, m = M, shift = pl$sensitivity / pl$noise_scale,
                    what = paste0(sub("\\)$", "", what), ", frl_noise = \"gaussian\")"), calibration = o$calibration)
  coef <- pl$center + pl$noise_scale * noise_draw(M, "normal")
  vals <- matrix(as.vector(V %*% coef), nrow = 1L)
  if (!all(is.finite(vals))) {
    dpfda_abort("The released values overflow; rescale the data (tau) or the kernel.", class = "dpfda_error_numeric")
  }
  list(values = vals, sensitivity = pl$sensitivity, noise_scale = pl$noise_scale, delta = o$delta,
       J_tau = NA_integer_, family = "gaussian")
}

# Exact (floating-point-safe) ICLP / FRL noise: the coefficients `center`
# (Laplace scales b_j, calibrated so that sum_j |c_j - c'_j| / b_j <= epsilon)
# are rounded to the grid 2^-k and get discrete Laplace noise. Rounding can
# move a neighbour's coefficients by 2^-k each, adding 2^-k sum_j 1 / b_j to
# the privacy loss; the scales are multiplied by 1 + 2^-k sum_j (1 / b_j) /
# epsilon, which restores epsilon. k is chosen so that this factor is at
# most 1.01 (and the grid is fine against the smallest scale).
# All of it in units of the smallest scale u = min(b), a public number: the
# lattice, the integer draws and so the release do not depend on the data's
# units (a time axis in days or years, heights in cm or m give the same
# release up to the change of units under dp_reproducible()); the lattice
# value is multiplied by u afterwards (post-processing), so the grid step in
# the data's units is u 2^-k.
iclp_exact_coefficients <- function(center, b, epsilon) {
  lat <- exact_lattice(min(b), "laplace")
  S <- sum(1 / (b / lat$unit))
  k <- max(lat$k, ceiling(log2(100 * S / epsilon)))
  inflation <- 1 + 2^-k * S / epsilon
  list(coef = exact_laplace_noise(center, b * inflation, k, lat$unit), step = lat$unit * 2^-k,
       inflation = inflation)
}
