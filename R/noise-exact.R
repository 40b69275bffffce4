# Floating-point-safe noise: discrete Laplace and discrete Gaussian noise on a
# grid of spacing 2^-k, drawn exactly in integers (src/discrete.c, after
# Canonne, Kamath and Steinke 2020). Internal API used by the mechanisms:
#
#   lat   <- exact_lattice(scale0, "laplace" | "gaussian") # grid unit * 2^-k from a first scale
#   v     <- exact_laplace_noise(values, scale, lat$k, lat$unit)   # round, add scale-Laplace
#   v     <- exact_gaussian_noise(values, sigma, lat$k, lat$unit)  # round, add discrete N(0, sigma^2)
#   sigma <- exact_gaussian_sigma(l2_sensitivity, epsilon, delta)  # zCDP calibration
#
# A mechanism with summary vector s (m coordinates, sensitivity Delta in some
# norm) does: the lattice from its ordinary scale; Delta' = Delta + the
# rounding (lat$step per coordinate: m step in L1, sqrt(m) step in L2); the
# scale from Delta'; release exact_*_noise(s, scale, k, unit). The released
# values are unit times multiples of 2^-k (unit: the first scale, so the
# release does not depend on the data's units; dp_online() does the same in C).
# The grid 2^-k in the values' own units (k <- exact_grid(scale0), unit = 1,
# exact_rounding(m, 2^-k, norm) for the sensitivity) serves the unit-free ones:
# counts, kernel mean embeddings.

#' Floating-point-safe ("exact") noise
#'
#' Textbook samplers that add a floating-point Laplace or Gaussian variate to
#' a floating-point answer leak information through the low-order bits of the
#' result (Mironov, 2012). With `noise = "exact"` the mechanisms listed below
#' instead
#' 1. round each coordinate of the summary to the grid \eqn{2^{-k}\mathbf Z}
#'    (a coordinate of \eqn{2^{52}} grid steps or more is on the grid
#'    already; nothing is clamped, so the release stays correct however large
#'    epsilon is, up to a refusal when the step would leave the range of
#'    doubles: noise scales below about \eqn{2^{-980}});
#' 2. increase the sensitivity by the rounding distance: per coordinate at
#'    most one grid step, so \eqn{m 2^{-k}} in L1 and \eqn{\sqrt m 2^{-k}} in
#'    L2 for \eqn{m} coordinates;
#' 3. add discrete Laplace noise, \eqn{P(x) \propto e^{-|x|/t}}, or discrete
#'    Gaussian noise, \eqn{P(x) \propto e^{-x^2/(2\sigma^2)}}, in grid units,
#'    sampled exactly with integer arithmetic only (Canonne, Kamath and
#'    Steinke, 2020: Bernoulli\eqn{(e^{-\gamma})} for rational \eqn{\gamma},
#'    discrete Laplace by geometric sampling, discrete Gaussian by rejection
#'    from the discrete Laplace), from the package noise source
#'    ([dp_rng()]); scales are rounded up to whole grid units.
#'
#' The grid is chosen from the public noise scale \eqn{b_0} before the
#' rounding is accounted for: its step is at most \eqn{b_0 2^{-20}} (Laplace)
#' or \eqn{b_0 2^{-24}} (Gaussian), so the released values are \eqn{b_0} times
#' multiples of \eqn{2^{-k}} (the summary is divided by \eqn{b_0}, noised in
#' integers and multiplied back: post-processing), the integers drawn do not
#' depend on the data's units (a change of units gives the same release,
#' converted, under [dp_reproducible()]), and the rounding
#' costs a relative increase of the noise of about \eqn{m 2^{-20}/\epsilon}
#' (Laplace) or \eqn{\sqrt m\, 2^{-24}\sigma/\Delta} (Gaussian). The discrete
#' Laplace mechanism is \eqn{\epsilon}-DP exactly as the continuous one. The
#' discrete Gaussian is calibrated through concentrated DP: it is
#' \eqn{\Delta^2/(2\sigma^2)}-zCDP (Canonne et al., Theorem 14), converted to
#' \eqn{(\epsilon, \delta)} by [zcdp_epsilon()]; this needs a somewhat larger
#' \eqn{\sigma} than the analytic calibration of the continuous Gaussian
#' (about 8 percent for \eqn{\epsilon \in [0.5, 2]}, \eqn{\delta =
#' 10^{-5}}; 21 percent at \eqn{(2, 0.1)}), which is the main utility cost.
#'
#' Mechanisms with `noise = "exact"`: [dp_bernstein()] (all calibrations:
#' the lattice values are independent coordinates); [dp_gp_release()],
#' [dp_kde()] (`"gp"`, `"sobolev"`), [dp_svm()], [dp_krr()] and
#' [dp_gp_regression()] (`"standard"`) through the whitened coordinates
#' \eqn{L^{-1} f} with \eqn{LL^\top = K + \tau I}, whose L2 sensitivity is at
#' most the RKHS sensitivity (the release is \eqn{L} times the noisy
#' coordinates, post-processing); the cloaking mechanisms
#' ([dp_gp_regression()] `"cloaking"`, [dp_sparse_gp_regression()]) through
#' the whitened coordinates of the range of \eqn{M}; [dp_kde()]
#' `"bernstein"` through its lattice; [dp_bin_regression()] on the bin sums
#' (discrete Laplace); [dp_mean()] (ICLP-QR, ICLP-AR, FRL on the
#' coefficients, Bernstein, and `"gp"` through the whitened coordinates);
#' [dp_cov()], [dp_erm()] and [dp_kde()] `"iclp"` / `"frl"` on their
#' coefficients; [dp_kme()]; [dp_select()] (an exact exponential mechanism:
#' exact Bernoulli\eqn{(e^{-\gamma})} acceptance of uniform proposals on
#' score gaps rounded to a dyadic grid; the default) and [dp_bandwidth()]
#' (discrete Laplace on the integer distance of propose-test-release; the
#' default). The whitened GP route needs a dense Cholesky factor, so it is
#' limited to grids of at most 4000 points. [dp_online()] (the default)
#' takes discrete Gaussian steps in the whitened coordinates of the answered
#' points, one per query, accounted by adaptive zCDP composition (see its
#' section *Exact noise*).
#'
#' **Defaults.** Exact noise is the default where a whole call costs at most
#' twice the float one and the calibration loses nothing: [dp_select()]
#' (0.06 against 0.24 ms for 10 candidates) and [dp_bandwidth()] (2.1
#' against 2.1 ms for 1000 points); and in [dp_online()], where a session
#' costs at most 1.83 times the float one and float noise would otherwise be
#' refused at large \eqn{\epsilon} (its discrete Gaussian needs about 8
#' percent more noise). Elsewhere `"float"` stays the default:
#' the zCDP calibration of the discrete Gaussian needs more noise, and
#' [dp_mean()] `"gp"` costs 2.3 times the float call on a 50-point grid.
#' Float noise is refused where its truncated tails would break the claim
#' ([float_tails]).
#'
#' @seealso [float_tails]
#' @name exact_noise
#' @references Mironov, I. (2012). On significance of the least significant
#'   bits for differential privacy. *CCS*. Canonne, C., Kamath, G. and
#'   Steinke, T. (2020). The discrete Gaussian for differential privacy.
#'   *NeurIPS*.
#' @examples
#' r <- dp_bernstein(rep(0.5, 11), sensitivity = 0.01, epsilon = 1, k = 10,
#'                   noise = "exact")
#' r$grid_step
#' v <- predict(r)
#' all(v / r$grid_step == round(v / r$grid_step))   # on the grid
NULL

exact_noise_bits <- function() c_discrete_bits()

# Grid exponent k (grid step 2^-k) for noise of scale `scale` (Laplace scale
# or Gaussian standard deviation): about 2^20 (Laplace) or 2^24 (Gaussian;
# 2^8 without 128-bit integers) grid steps per unit of scale.
exact_grid <- function(scale, type = c("laplace", "gaussian")) {
  type <- match.arg(type)
  target <- if (type == "laplace") 2^20 else if (exact_noise_bits() >= 128L) 2^24 else 2^8
  if (!(is.finite(scale) && scale > 0)) {
    dpfda_abort("Exact noise needs a positive finite noise scale.", class = "dpfda_error_numeric")
  }
  k <- -floor(log2(scale / target))
  if (k > 1000 || k < -900) {
    # (the grid step 2^-k must stay a normal double, as must every lattice value)
    dpfda_abort(sprintf(paste("The noise scale %s is out of the range of exact noise (%s to %s for %s noise:",
                              "a grid of 2^-1000 to 2^900); %s."),
                        format(scale), format(target * 2^-1000, digits = 3), format(target * 2^900, digits = 3),
                        type, if (scale < 1) "use a smaller epsilon, or noise = \"float\"" else
                          "use a larger epsilon or rescale the data"),
                class = "dpfda_error_numeric")
  }
  as.integer(k)
}

# Extra sensitivity from rounding m coordinates to a grid of step `step`
# (2^-k, or exact_lattice()'s unit 2^-k).
exact_rounding <- function(m, step, norm = c("l1", "l2", "linf")) {
  norm <- match.arg(norm)
  switch(norm, l1 = m * step, l2 = sqrt(m) * step, linf = step)
}

# Round to the grid 2^-k (values, not units). A value of 2^52 grid units or
# more is already on the grid (its ulp is at least one unit), so it is kept
# as it is, and nothing overflows: no clamping, whatever the size of the
# value against the step (large epsilon makes the step tiny).
exact_round_grid <- function(values, k) {
  u <- values * 2^k
  small <- is.finite(u) & abs(u) < 2^52
  values[small] <- round(u[small]) * 2^-k
  values
}

# The release: grid values plus integer noise z in grid units, in one
# correctly rounded addition. Where |u + z| < 2^53 this is (u + z) 2^-k
# exactly; beyond, it is that exact lattice value rounded to a double, a
# function of the lattice value only (post-processing).
exact_add <- function(grid_values, z, k) grid_values + z * 2^-k

# The lattice of exact noise in units of a public scale `unit` (the noise
# scale before the rounding is accounted for): values are divided by it,
# rounded to the grid 2^-k and get integer noise there, and the lattice value
# is multiplied by it (post-processing of the exact release). The grid step
# in the data's units is unit 2^-k, proportional to the noise scale, so the
# integers drawn, and the release, do not depend on the data's units (a
# power-of-2 grid in the data's units drew other integers after a change of
# units: dp_kde(noise = "exact") moved by 8-51% between a time axis in years
# and one in months under dp_reproducible()).
exact_lattice <- function(unit, type = c("laplace", "gaussian")) {
  if (!(is.finite(unit) && unit > 0)) {
    dpfda_abort("Exact noise needs a positive finite noise scale.", class = "dpfda_error_numeric")
  }
  exact_grid(unit, type)   # (its refusal of a scale beyond the range of exact noise)
  k <- exact_grid(1, type)
  list(unit = unit, k = k, step = unit * 2^-k)
}

# `scale`: one Laplace scale, or one per coordinate (e.g. ICLP coefficients),
# in the units of `values`; `unit`: see exact_lattice() (1: the grid 2^-k in
# the values' own units).
exact_laplace_noise <- function(values, scale, k, unit = 1) {
  u <- exact_round_grid(as.double(values) / unit, k)
  t <- ceiling(as.double(scale) / unit * 2^k)
  if (!(length(t) %in% c(1L, length(u)) && all(is.finite(t)) && all(t >= 1) && all(t <= 2^40))) {
    dpfda_abort("The Laplace scale is too large or too small for the grid of exact noise.",
                class = "dpfda_error_numeric")
  }
  z <- c_discrete_laplace_draw(as.double(length(u)), t)
  exact_unscale(exact_add(u, z, k), unit)
}

exact_gaussian_noise <- function(values, sigma, k, unit = 1) {
  u <- exact_round_grid(as.double(values) / unit, k)
  p <- ceiling((sigma / unit * 2^k)^2 * (1 + 1e-12))
  pmax <- if (exact_noise_bits() >= 128L) 2^52 else 2^20
  if (!(is.finite(p) && p >= 1 && p <= pmax)) {
    dpfda_abort("The Gaussian scale is too large or too small for the grid of exact noise.",
                class = "dpfda_error_numeric")
  }
  z <- c_discrete_gaussian_draw(as.double(length(u)), as.double(p))
  exact_unscale(exact_add(u, z, k), unit)
}

# The lattice values back in the data's units: unit * lattice, a function of
# the lattice value only (post-processing); a finite lattice value whose
# product overflows (a summary near the largest double, divided by a unit
# below 1 and multiplied back) is the largest double of its sign.
exact_unscale <- function(lattice, unit) {
  if (unit == 1) return(lattice)
  out <- unit * lattice
  over <- is.infinite(out) & is.finite(lattice)
  out[over] <- sign(lattice[over]) * .Machine$double.xmax
  out
}

# Smallest sigma (up to 1e-10 relative, rounded up) such that the
# Delta^2 / (2 sigma^2)-zCDP discrete Gaussian is (epsilon, delta)-DP.
exact_gaussian_sigma <- function(sensitivity, epsilon, delta) {
  if (sensitivity == 0) return(0)
  # the zCDP bisection does not involve the sensitivity: memoised per (epsilon, delta)
  lo <- if (length(epsilon) == 1L && length(delta) == 1L) {
    calib_memo("exact_rho", c(epsilon, delta), function() exact_gaussian_rho(epsilon, delta))
  } else exact_gaussian_rho(epsilon, delta)
  sensitivity / sqrt(2 * lo)
}

# The largest rho (to 1e-11 relative, from below) whose rho-zCDP is (epsilon, delta)-DP.
exact_gaussian_rho <- function(epsilon, delta) {
  ok <- function(rho) zcdp_delta_unit(rho, epsilon) <= delta
  lo <- 0
  hi <- epsilon
  while (ok(hi)) hi <- hi * 2
  while (hi - lo > 1e-11 * hi) {
    mid <- (lo + hi) / 2
    if (ok(mid)) lo <- mid else hi <- mid
  }
  if (!(lo > 0)) dpfda_abort("No noise scale achieves this (epsilon, delta).", class = "dpfda_error_numeric")
  lo
}

check_noise <- function(noise) check_choice(noise, c("float", "exact"), "noise")
