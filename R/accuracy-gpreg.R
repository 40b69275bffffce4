# dp_accuracy(mechanism = "gp_regression"): the noise of dp_gp_regression()'s
# cloaking release before it is made. In Smith et al.'s model the inputs `x`
# are public and only the outputs are private, and the cloaking covariance,
# the sensitivity and so the whole noise law depend on the inputs, the test
# points, the kernel, the noise variance and `y_bound` alone: the plan is
# exact, and costs no budget. Nothing is drawn (the noise source of
# dp_reproducible() is not advanced).

accuracy_gpreg_options <- c("newdata", "noise_variance", "y_bound", "unit", "calibration", "tol", "noise")

accuracy_settings_gpreg <- function(x, n, epsilon, delta, kernel, grid, opts) {
  bad <- setdiff(names(opts), accuracy_gpreg_options)
  if (length(bad)) {
    abort_unknown_option(bad[1L], "dp_accuracy", c(option_names("dp_accuracy"), accuracy_gpreg_options))
  }
  need <- function(v, arg, hint) plan_need(v, arg, "gp_regression", hint)
  need(x, "x", "the public inputs of the regression (its outputs are the private part and are not needed)")
  pts <- as_points(x, "x")
  check_plan_n(n, pts)
  need(epsilon, "epsilon", "the privacy budget you plan to spend, e.g. epsilon = 1")
  epsilon <- check_epsilon(epsilon)
  delta <- check_delta(delta, zero = gaussian_delta_zero("mechanism \"gp_regression\""))
  newdata <- opts$newdata %||% grid
  need(newdata, "newdata", "the public test points of the release (or `grid`)")
  need(kernel, "kernel", "the GP prior kernel of the regression")
  check_kernel(kernel)
  need(opts$noise_variance, "noise_variance", "the public observation noise variance of the GP model")
  need(opts$y_bound, "y_bound", "public bounds c(lower, upper) on the outputs")
  yb <- plan_y_bound(opts$y_bound)
  calibration <- check_choice(opts$calibration %||% "analytic", c("analytic", "hall", "classical"), "calibration")
  tol <- opts$tol %||% 1e-8
  # outputs at the midpoint stand in for the private ones: the noise law does not depend on them
  parts <- gp_regression_parts(pts, rep(mean(yb), nrow(pts)), newdata, kernel, opts$noise_variance, yb)
  cl <- cloaking_covariance(parts$C, tol = tol)
  units <- if (!is.null(opts$unit)) regression_units(opts$unit, nrow(pts), NULL)
  several <- !is.null(units) && units$n < length(units$codes)
  sens <- parts$d * if (several) cloaking_unit_bound(parts$C, cl, units$codes) else sqrt(cl$max_constraint)
  # noise = "exact": the discrete Gaussian of the release, on the rank of M, its sd raised for the
  # lattice's rounding (a plan at a large epsilon, which float noise refuses, can be released so)
  noise <- check_noise(opts[["noise"]] %||% "float")   # ([[: opts$noise partially matches noise_variance)
  law <- function(n, e) {
    sigma <- dp_noise_scale(sens, e, delta, calibration = calibration)
    if (noise == "exact") sigma <- gp_exact_sigma(sigma, sens, ncol(cl$basis), e, delta)$sigma
    S <- sigma^2 * cl$M
    law_gaussian_cov(diag(S), function() S, parts$grid, "Gaussian with the cloaking covariance")
  }
  list(law = law, bias = function(n, e) list(note = "not bounded (it depends on the regression function)"),
       mechanism = "gp-regression-cloaking", n = if (is.null(units)) nrow(pts) else units$n,
       epsilon = epsilon, delta = delta, tau = NULL)
}

# `y_bound` of a regression plan: numeric bounds ("auto" is chosen from the outputs).
plan_y_bound <- function(y_bound) {
  if (identical(y_bound, "auto")) {
    dpfda_abort(paste("y_bound = \"auto\" is chosen from the outputs, so its noise cannot be planned from public",
                      "settings: plan with numeric bounds (the auto bound spends a share of epsilon as well)."),
                arg = "y_bound")
  }
  check_y_bound(y_bound)   # (c(lower, upper); one number B is c(-B, B))
}

# `n` of a regression plan: the inputs fix it (a value that differs is refused, not ignored).
check_plan_n <- function(n, pts) {
  # (not one number: most likely the outputs, passed by position after `x` as in the regression's
  # call; described, never printed, so that no private value reaches the message)
  if (!is.null(n) && !(is.numeric(n) && length(n) == 1L && is.null(dim(n)))) {
    arg_error("n", sprintf(paste("one number, the number of inputs, which `x` fixes (%d rows): leave it out (the",
                                 "outputs are not needed to plan; give only `x` and the settings)"), nrow(pts)), n)
  }
  if (!is.null(n) && !isTRUE(all.equal(as.double(n), nrow(pts)))) {
    dpfda_abort(sprintf(paste("`n` (%s) is the number of inputs, which `x` fixes (%d rows): leave `n` out. To plan",
                              "a larger study, give the inputs it would have."), format(n), nrow(pts)), arg = "n")
  }
}

# dp_accuracy(mechanism = "bin_regression"): dp_bin_regression()'s noise, Laplace of scale
# d / (n_b epsilon) on each occupied bin's mean, where the counts n_b (weights with a unit) come
# from the public inputs alone; an empty bin is the midpoint of y_bound, without noise.
accuracy_bin_options <- c("bins", "domain", "y_bound", "unit")

accuracy_settings_binreg <- function(x, n, epsilon, opts) {
  bad <- setdiff(names(opts), accuracy_bin_options)
  if (length(bad)) abort_unknown_option(bad[1L], "dp_accuracy", c(option_names("dp_accuracy"), accuracy_bin_options))
  for (a in c("bins", "domain", "y_bound")) {
    plan_need(opts[[a]], a, "bin_regression", "in `...`, as for dp_bin_regression()")
  }
  plan_need(x, "x", "bin_regression", "the public inputs of the regression (the bins' counts set the noise)")
  plan_need(epsilon, "epsilon", "bin_regression", "the privacy budget you plan to spend, e.g. epsilon = 1")
  epsilon <- check_epsilon(epsilon)
  yb <- plan_y_bound(opts$y_bound)
  pts <- as_points(x, "x")
  check_plan_n(n, pts)
  # outputs at the midpoint stand in for the private ones: the counts do not depend on them
  s <- summarise_bin_regression_impl(pts, rep(mean(yb), nrow(pts)), opts$bins, yb, opts$domain, unit = opts$unit)
  st <- s$settings
  counts <- s$sums[, 1L]
  centres <- bin_centres(st$bins, st$domain)
  law <- function(n, e) {
    scale <- ifelse(counts > 0, diff(yb) / (pmax(counts, 1e-300) * e), 0)
    bin_step_law(scale, st$bins, st$domain, centres)
  }
  list(law = law, bias = function(n, e) list(note = "not bounded (it depends on the regression function)"),
       mechanism = "bin-laplace", n = s$n, epsilon = epsilon, delta = 0, tau = NULL)
}
