# The internals of dp_online() (R/mech-online.R): calibration, capacity and
# the curator process's conditions.

# ---- internals -------------------------------------------------------------------

# The smallest sd whose zCDP rho = S^2 / (2 sd^2) gives (epsilon, delta) by
# zcdp_delta(): exact_gaussian_sigma() with a root search on log rho started
# at the classical bound exp(-(epsilon - rho)^2 / (4 rho)) = delta (always
# valid) instead of a 40-step bisection (a session's creation cost); rho is
# then lowered until the claim holds. Falls back to exact_gaussian_sigma() at
# the extremes.
online_zcdp_sd <- function(S, epsilon, delta) {
  fast <- tryCatch(local({
    L <- -log(delta)
    lo <- (sqrt(L + epsilon) - sqrt(L))^2
    g <- function(lr) log(zcdp_delta_unit(exp(lr), epsilon)) - log(delta)
    hi <- 2 * lo
    for (i in 1:60) if (g(log(hi)) > 0) break else hi <- 2 * hi
    glo <- g(log(lo))
    # (NULL: outside the bracket's regime, the bisection below decides)
    if (!(is.finite(lo) && lo > 0 && is.finite(hi) && is.finite(glo) && glo <= 0 && g(log(hi)) > 0)) return(NULL)
    rho <- exp(stats::uniroot(g, log(c(lo, hi)), f.lower = glo, tol = 1e-13)$root)
    for (i in 1:100) if (zcdp_delta_unit(rho, epsilon) <= delta) break else rho <- rho * (1 - 1e-9)
    if (!(zcdp_delta_unit(rho, epsilon) <= delta)) return(NULL)
    S / sqrt(2 * rho)
  }), error = function(e) NULL, warning = function(w) NULL)
  if (is.null(fast)) exact_gaussian_sigma(S, epsilon, delta) else fast
}

# noise = "exact": the lattice, the discrete Gaussian and its accounting (see
# ?dp_online, section Privacy). In the whitened coordinates of the answered
# The most points an online state can ever answer: 5 doubles per point on
# the Markov path (the general path holds fewer), at most 2^31 - 3.
online_capacity <- function(max_doubles) min(2^31 - 3, floor(max_doubles / 5))

# points (units of f; unit-variance kernel factor) the L2 sensitivity is
# sqrt(v) Delta; rounding each of at most nmax coordinates to the lattice adds
# one step each, so sqrt(nmax) step in L2. The lattice is as fine as the
# sampler allows (2^25 to 2^26 steps per noise sd where 128-bit integers
# exist), nmax = the points that fit in max_doubles (5 doubles per point on
# the Markov path, more on the general path).
online_exact_params <- function(sigma, kernel, sensitivity, epsilon, delta, max_doubles) {
  v <- kernel$variance
  nmax <- online_capacity(max_doubles)
  if (!(nmax >= 1)) {
    dpfda_abort("options(dpfda.max_doubles = ) leaves no room for a single point.", class = "dpfda_error_numeric")
  }
  sw <- sqrt(v) * sensitivity
  pmax <- if (exact_noise_bits() >= 128L) 2^52 else 2^20
  # the lattice in units of the noise sd before rounding (public): its step unit 2^-k, so that the
  # integers drawn, and the answers, do not depend on the data's units (R/noise-exact.R)
  lat <- exact_lattice(max(sigma * sqrt(v), .Machine$double.xmin * 2^40), "gaussian")
  unit <- lat$unit
  k <- lat$k + 1L
  for (it in 1:8) {
    step <- unit * 2^-k
    sens <- sw + exact_rounding(nmax, step, "l2")
    sd <- online_zcdp_sd(sens, epsilon, delta)
    p <- ceiling((sd / step)^2 * (1 + 1e-12))
    if (is.finite(p) && p <= pmax) break
    k <- k - 1L
  }
  if (!(is.finite(p) && p >= 1 && p <= pmax && is.finite(step) && step > 0)) {
    dpfda_abort("The Gaussian scale is too large or too small for the lattice of exact noise.",
                class = "dpfda_error_numeric")
  }
  amp <- sqrt(p) * step
  list(step = step, k = k, unit = unit, p = p, nmax = nmax, amp = amp, sigma = amp / sqrt(v),
       sensitivity = sens, rho = sens^2 / (2 * amp^2))
}

online_check <- function(object) {
  if (!is.environment(object) || typeof(object$ptr) != "externalptr") {
    arg_error("object", "an online release made by dp_online()", object)
  }
  invisible(object)
}

online_other_process <- function() {
  dpfda_abort(paste("This online release was created in another process (a fork or a reloaded copy);",
                    "it cannot answer here, or the noise path would split. Create a new one",
                    "(which spends a new privacy budget)."),
              class = "dpfda_error_state", arg = "object")
}

online_f_failed <- function(e) {
  dpfda_abort(sprintf("`f` failed on the queried points: %s", conditionMessage(e)), arg = "f")
}


# The C state refused: saved and reloaded (NULL pointer), or a forked process.
online_unavailable <- function(object) {
  if (!identical(object$pid, Sys.getpid())) online_other_process()
  online_gone()
}

online_gone <- function() {
  dpfda_abort(paste("This online release was saved and reloaded (or serialised): its noise state is",
                    "gone and it cannot answer. Online releases must stay in the curator's session;",
                    "use released() on the original for the public answers."),
              class = "dpfda_error_state", arg = "object")
}

online_failure <- function(status, out, v, nn, object) {
  switch(as.character(status),
    "5" = arg_error("f", sprintf("a function returning %d number%s (one per new point)", nn,
                                 if (nn == 1L) "" else "s"), v, private = TRUE),
    "6" = arg_error("f", sprintf("a function returning %d finite value%s (one per new point)", nn,
                                 if (nn == 1L) "" else "s"), v, private = TRUE),
    "7" = dpfda_abort(sprintf(paste("The online state would need more than %s doubles, the limit set by",
                                    "options(dpfda.max_doubles = ) when it was created; nothing was answered."),
                              format(object$max_doubles, big.mark = ",", scientific = FALSE)),
                      class = "dpfda_error_numeric"),
    "4" = dpfda_abort("An online release answers fewer than 2^31 - 2 distinct points; nothing was answered.",
                      class = "dpfda_error_numeric")
  )
  msg <- if (status == 1L) "An answer is not finite (is `f` of the order of .Machine$double.xmax?)."
    else "Out of memory while extending the online state."
  dpfda_abort(sprintf("%s %d of the queried points were answered before the failure.", msg,
                      sum(!is.na(out))), class = "dpfda_error_numeric")
}

# Fix the algorithm and the dimension at the first query.
online_setup <- function(object, d) {
  k <- object$kernel
  if (!is.na(k$dim) && k$dim != d) {
    dpfda_abort(sprintf("`x` has %d column%s but the kernel is defined in %d dimensions.",
                        d, if (d == 1L) "" else "s", k$dim), arg = "x")
  }
  markov <- object$method == "markov" ||
    (object$method == "auto" && d == 1L && kernel_is_markov_1d(k))
  if (markov && d != 1L) {
    dpfda_abort(sprintf("`x` must be one-dimensional for `method = \"markov\"`, not %d columns.", d),
                arg = "x")
  }
  ok <- c_online_setup(object$ptr, if (markov) 2L else 1L, d)
  if (!isTRUE(ok)) online_unavailable(object)
  object$kind <- if (markov) "markov" else "cholesky"
  object$general <- !markov
  object$fast <- markov
  object$d <- as.integer(d)
  object$d
}

# Test hook (curator side): conditional mean and variance of the unit-variance
# noise path at the points x given the answers so far, drawing nothing.
online_condition <- function(object, x) {
  online_check(object)
  x <- as_points(x, "x", d = object$d)
  xs <- if (object$kind == "cholesky") kernel_scale_points(object$kernel, x, "x") else NULL
  r <- c_online_condition(object$ptr, x, xs)
  if (is.null(r)) online_unavailable(object)
  list(mean = r[, 1L], var = r[, 2L])
}
