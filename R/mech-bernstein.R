# Alda & Rubinstein (2017): the (iterated) Bernstein mechanism. Noise is added
# once to the target's values on a lattice; every evaluation afterwards is an
# iterated Bernstein polynomial of the noisy values (post-processing). The C
# core is src/bernstein.c.

#' Release a function with the Bernstein mechanism (Alda and Rubinstein)
#'
#' Evaluates the target on the lattice \eqn{\{0, 1/k, \dots, 1\}^d} (rescaled
#' to `domain`), adds independent noise to each of the
#' \eqn{m = (k+1)^d} values and releases the noisy values. The released
#' function is the iterated Bernstein polynomial of order \eqn{h} of these
#' values, evaluated with [predict()][predict.dpfda_bernstein_release] at any
#' points and for any \eqn{h}: evaluation is post-processing, so neither
#' \eqn{h} nor the number of evaluations changes the privacy cost. `k` (and
#' any `h` used to report results) must be chosen without looking at the
#' private data, e.g. by the paper's rate formula, or with privacy budget
#' spent on the choice.
#'
#' `plot()` and `autoplot()` draw the released function, the polynomial of
#' order `h` on 201 points of the domain (an image on 51 x 51 points in two
#' dimensions), with the noisy lattice values as points (and `band =` its
#' noise band, in one dimension); `predict(r, t, interval =
#' "confidence")` gives that band at any points. `confint()`, `tidy()` and
#' `as.data.frame()` describe the released lattice values themselves.
#'
#' **Sensitivity.** `sensitivity` is the paper's \eqn{S(F)}: the largest
#' change of the target at a single point, \eqn{\sup_y \sup_{D \sim D'}
#' |F_D(y) - F_{D'}(y)|}, for neighbouring data sets that differ in one
#' record (replace-one). It is a public input (a bound, never computed from
#' the data).
#'
#' **Noise.**
#' * `delta = 0` (the paper's mechanism, Algorithm 1): i.i.d. Laplace noise of
#'   scale \eqn{\lambda = S (k+1)^d / \epsilon}, since the lattice vector has
#'   L1 sensitivity at most \eqn{m S}. This is \eqn{\epsilon}-DP.
#' * `delta > 0`: i.i.d. Gaussian noise of standard deviation
#'   \eqn{\sigma =} [dp_noise_scale]`(S * sqrt(m), epsilon, delta,
#'   calibration)`: each of the \eqn{m} lattice values moves by at most
#'   \eqn{S}, so the lattice vector has L2 sensitivity at most
#'   \eqn{S\sqrt{m}}. The default `calibration = "analytic"` is the exact
#'   Gaussian-mechanism calibration (valid for every \eqn{\epsilon});
#'   `"hall"` and `"classical"` are the textbook constants (see
#'   [dp_noise_scale()]). The noise standard deviation grows like
#'   \eqn{\sqrt m} instead of \eqn{m}.
#' * `delta > 0, calibration = "composition"`: the paper's Theorem 7, Laplace
#'   noise of scale \eqn{\lambda_\delta = 2 S \sqrt{2 m \log(1/\delta)} /
#'   \epsilon} (advanced composition over the \eqn{m} lattice points). The
#'   composition bound \eqn{\epsilon' = \sqrt{2m\log(1/\delta)}\epsilon_0 + m
#'   \epsilon_0 (e^{\epsilon_0} - 1)}, \eqn{\epsilon_0 = S/\lambda_\delta}, is
#'   checked exactly; when it exceeds \eqn{\epsilon}, or when
#'   \eqn{\lambda_\delta \ge \lambda}, the pure-\eqn{\epsilon} scale
#'   \eqn{\lambda} is used instead (it is also \eqn{(\epsilon, \delta)}-DP).
#'
#' The noise is drawn once, in C, through the package noise source (see
#' [dp_rng()]); the release keeps only the noisy values, never the target's
#' values nor the noise. Floating-point Laplace sampling has the known
#' least-significant-bit weakness (Mironov, 2012); no snapping is applied.
#'
#' **Lattice.** Lattice point \eqn{\nu = (\nu_1, \dots, \nu_d)},
#' \eqn{0 \le \nu_j \le k_j}, is \eqn{lo_j + (\nu_j / k_j)(hi_j - lo_j)};
#' the points are ordered with the first coordinate fastest
#' ([expand.grid()] order), which is also the order of `f` when it is given
#' as values.
#'
#' @param f The target \eqn{F_D}, already closed over the private data: an R
#'   function of the lattice points (a vector in one dimension, an
#'   `m x dim` matrix otherwise) returning one finite value per point (or a
#'   one-curve [curves()] object on those points, e.g.
#'   `function(t) kde_gaussian(x, t, b)`); or the `m` lattice values themselves
#'   (a numeric vector or array in lattice order, or a one-curve curves
#'   object).
#' @param sensitivity Public per-point (sup-norm) sensitivity \eqn{S(F)}, as in
#'   the paper.
#' @param epsilon Positive privacy parameter.
#' @param k Lattice resolution and polynomial degree: a whole number
#'   \eqn{\ge 1}, or one per dimension (an extension: then \eqn{m = \prod_j
#'   (k_j + 1)}).
#' @param h Default order of the iterated Bernstein polynomial used by
#'   [predict()][predict.dpfda_bernstein_release]; post-processing only.
#' @param dim Dimension \eqn{d} of the query domain. When not given: the
#'   number of columns of a `2 x d` matrix `domain`, or the number of degrees
#'   in `k`, and 1 otherwise.
#' @param delta `0` (default) for pure \eqn{\epsilon}-DP with Laplace noise,
#'   or a number in (0, 1) for the \eqn{(\epsilon, \delta)} variants.
#' @param domain The box the lattice spans: `NULL` for \eqn{[0, 1]^d},
#'   `c(lower, upper)` for the same interval in every coordinate, or a
#'   `2 x dim` matrix of bounds (row 1 lower, row 2 upper).
#' @param calibration Only for `delta > 0`: `"analytic"` (default),
#'   `"hall"` or `"classical"` for Gaussian noise via [dp_noise_scale()], or
#'   `"composition"` for the paper's Theorem 7 Laplace scale.
#' @param noise `"float"` (default) for floating-point noise, or `"exact"`
#'   for discrete Laplace / Gaussian noise on a grid of spacing
#'   \eqn{b_0 2^{-j}} (\eqn{b_0} the noise scale, \eqn{j} a power chosen for it, not
#'   the lattice's `k`), sampled exactly (see
#'   [exact_noise]); the per-point
#'   sensitivity is increased by one grid step, Gaussian noise is then
#'   calibrated through zCDP, and the release records `grid_step` (and
#'   `noise_exact = TRUE`).
#' @param budget `NULL`, or a [privacy_budget()] to charge (the release is
#'   refused when it would exceed the budget).
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return A `dpfda_release` of subclass `dpfda_bernstein_release`: `values`
#'   is a [curves()] object holding the noisy lattice values on the lattice
#'   points (in the original domain; an `m x dim` matrix for `dim > 1`);
#'   further fields `k`, `h`, `dim`, `domain` (`c(lower, upper)` in one
#'   dimension, a `2 x dim` matrix otherwise), `calibration` and
#'   `lattice_sensitivity` (the L1, or for Gaussian noise L2, sensitivity of
#'   the lattice vector). `noise_scale` is the Laplace scale or the Gaussian
#'   standard deviation. `privacy_unit` (printed, and in [glance()]) says
#'   that the individual protected is whatever change of the data
#'   `sensitivity` bounds.
#' @references Alda, F. and Rubinstein, B. I. P. (2017). The Bernstein
#'   mechanism: function release under differential privacy. *AAAI*.
#' @seealso [predict.dpfda_bernstein_release()], [bernstein_basis()].
#' @examples
#' # a kernel density estimate of 200 points; S = max kernel / n
#' x <- c(rbeta(100, 2, 5), rbeta(100, 6, 2))
#' b <- 0.1
#' kde <- function(t) sapply(t, function(u) mean(dnorm(u, x, b)))
#' r <- dp_bernstein(kde, sensitivity = dnorm(0, 0, b) / length(x),
#'                   epsilon = 1, k = 10, h = 3)
#' r
#' t <- seq(0, 1, length.out = 5)
#' rbind(h1 = predict(r, t, h = 1), h3 = predict(r, t), truth = kde(t))
#'
#' # two dimensions, lattice values given directly, on [-1, 1]^2
#' r2 <- dp_bernstein(rep(0, 36), sensitivity = 0.01, epsilon = 1, k = 5,
#'                    dim = 2, domain = c(-1, 1))
#' predict(r2, rbind(c(0, 0), c(0.5, -0.5)), h = 2)
#' @export
dp_bernstein <- function(f, sensitivity, epsilon, k, h = 1, dim = 1, delta = 0, domain = NULL,
                         calibration = c("analytic", "hall", "classical", "composition"),
                         noise = c("float", "exact"), budget = NULL, ...) {
  check_required(c("f", "sensitivity", "epsilon", "k"),
                 advice = list(f = "the private function: an R function, or its values on the lattice"))
  check_dot_names(dot_args(), character(), "dp_bernstein")   # (a misspelt option gets a classed error)
  epsilon <- check_epsilon(epsilon)   # (before release_open(): epsilon = Inf warned "above 10", then was refused)
  budget <- release_open(budget, epsilon, delta)
  call <- match.call()
  noise_mode <- check_noise(noise)
  sensitivity <- warn_zero_sensitivity(check_number(sensitivity, "sensitivity", lower = 0,
                                                   class = "dpfda_error_privacy"))
  epsilon <- check_epsilon(epsilon)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  calibration_given <- !missing(calibration)
  calibration <- check_choice(calibration, c("analytic", "hall", "classical", "composition"),
                              "calibration")
  if (calibration_given && delta == 0 && calibration != "analytic") {
    # (Laplace noise has no calibration to choose: "hall" was accepted and meant nothing)
    dpfda_abort(sprintf(paste("`calibration` (\"%s\") applies to delta > 0 (Gaussian noise); with delta = 0 the",
                              "noise is Laplace, calibrated exactly. Leave `calibration` out, or give a delta."),
                        calibration), arg = "calibration")
  }
  # without `dim`, a 2 x d matrix of bounds or d degrees say the dimension (a 2 x 2 domain with
  # dim = 1 was refused as "a double vector of length 4")
  if (missing(dim)) dim <- bernstein_implied_dim(domain, k)
  dim <- check_count(dim, "dim", max = 1000)
  k <- check_bernstein_k(k, dim)
  h <- check_count(h, "h")
  dom <- bernstein_domain(domain, dim)
  kk <- rep_len(k, dim)
  m <- prod(kk + 1)
  check_alloc(m * (dim + 4), sprintf("Bernstein lattice of %s points (k = %s, dim = %d) in memory",
                                     format(m, big.mark = ","), paste(k, collapse = ", "), dim))
  lattice <- bernstein_lattice(kk, dom)

  noise <- bernstein_noise(sensitivity, epsilon, delta, m, calibration)
  target <- bernstein_target(f, lattice, m, kk + 1L)
  grid_step <- NULL
  if (noise_mode == "exact") {
    # round the lattice values to the grid: each moves by at most one grid step more
    # (a grid in units of the noise scale: R/noise-exact.R, exact_lattice())
    lat <- exact_lattice(noise$scale, noise$type)
    grid_step <- lat$step
    noise <- bernstein_noise(sensitivity + grid_step, epsilon, delta, m, calibration)
    if (noise$type == "gaussian") {
      noise$scale <- exact_gaussian_sigma(noise$lattice_sensitivity, epsilon, delta)
      noise$calibration <- "zcdp"
    }
    released <- if (noise$type == "laplace") exact_laplace_noise(target, noise$scale, lat$k, lat$unit)
                else exact_gaussian_noise(target, noise$scale, lat$k, lat$unit)
  } else {
    if (noise$type == "laplace") {
      check_float_tails("laplace", if (noise$scale > 0) noise$lattice_sensitivity / noise$scale else 0,
                        delta, m = m, what = "dp_bernstein()")
    } else {
      check_float_tails("gaussian", epsilon, delta, m = m,
                        shift = if (noise$scale > 0) noise$lattice_sensitivity / noise$scale else 0,
                        what = "dp_bernstein()", calibration = calibration)
    }
    released <- c_bernstein_perturb(target, noise$scale,
                                    if (noise$type == "laplace") 0L else 1L)
  }
  rm(target)
  if (!all(is.finite(released))) {
    dpfda_abort("The released lattice values overflow (the target's values or the noise are too large).",
                class = "dpfda_error_numeric")
  }
  domain_out <- if (dim == 1L) dom[, 1L] else dom
  vals <- new_dpfda_curves(matrix(released, nrow = 1L), lattice, domain_out)
  desc <- sprintf("i.i.d. %s%s on the %s lattice points (k = %s, dim = %d)",
                  if (noise_mode == "exact") "discrete " else "",
                  if (noise$type == "laplace") "Laplace" else "Gaussian",
                  format(m, big.mark = ","), paste(k, collapse = ", "), dim)
  exact <- noise_mode == "exact"
  rel <- new_bernstein_release(vals, mechanism = "bernstein", epsilon = epsilon, delta = delta,
                               sensitivity = sensitivity, noise_scale = noise$scale, noise = desc, call = call,
                               k = k, h = h, dim = dim, domain = domain_out,
                               calibration = noise$calibration, noise_type = noise$type,
                               lattice_sensitivity = noise$lattice_sensitivity,
                               noise_exact = if (exact) TRUE, grid_step = if (exact) grid_step,
                               zcdp_rho = if (exact && noise$type == "gaussian") {
                                 noise$lattice_sensitivity^2 / (2 * noise$scale^2)
                               })
  rel$privacy_unit <- sensitivity_privacy_unit()
  release_close(rel, budget, "dp_bernstein")
}

#' The release of dp_bernstein(): class `dpfda_bernstein_release` (also the
#' lattice inside a dp_kde(mechanism = "bernstein") and a Bernstein dp_mean()).
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `values` are the released
#'   lattice values.
#' @param k,h,dim The lattice order per axis, the iteration of the Bernstein
#'   operator and the dimension.
#' @param domain The domain (a range, or a 2 x dim matrix).
#' @param calibration How the Gaussian noise was calibrated ("zcdp" for exact
#'   noise).
#' @param noise_type "laplace" or "gaussian".
#' @param lattice_sensitivity The sensitivity of the lattice vector (L1 or L2).
#' @param noise_exact,grid_step,zcdp_rho Exact noise only: TRUE, the rounding
#'   grid, and the zCDP rho (Gaussian).
#' @param privacy_unit What the release protects, as printed (dp_bernstein():
#'   what `sensitivity` bounds).
#' @noRd
new_bernstein_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                                  call = NULL, k = NULL, h = NULL, dim = NULL, domain = NULL, calibration = NULL,
                                  noise_type = NULL, lattice_sensitivity = NULL, noise_exact = NULL,
                                  grid_step = NULL, zcdp_rho = NULL, privacy_unit = NULL) {
  release_from_fields(new_bernstein_release, "dpfda_bernstein_release")
}

# k: one whole number >= 1, or one per dimension.
check_bernstein_k <- function(k, dim, arg = "k") {
  ok <- is.numeric(k) && is.null(dim(k)) && (length(k) == 1L || length(k) == dim) &&
    all(is.finite(k)) && all(k == round(k)) && all(k >= 1) && all(k <= .Machine$integer.max - 1)
  if (!isTRUE(ok)) {
    what <- if (dim == 1L) "a whole number of at least 1"
            else sprintf("a whole number of at least 1, or %d of them (one per dimension)", dim)
    arg_error(arg, what, k)
  }
  as.integer(k)
}

# domain -> 2 x dim matrix (row 1 lower, row 2 upper) of finite, ordered bounds.
bernstein_domain <- function(domain, dim) {
  if (is.null(domain)) return(matrix(c(0, 1), 2L, dim))
  what <- if (dim == 1L) "c(lower, upper) with lower < upper"
          else sprintf("c(lower, upper) or a 2 x %d matrix of bounds with lower < upper", dim)
  ok <- is.numeric(domain) && all(is.finite(domain)) &&
    ((is.null(dim(domain)) && length(domain) == 2L) ||
       (is.matrix(domain) && identical(dim(domain), c(2L, as.integer(dim)))))
  if (!isTRUE(ok)) arg_error("domain", what, domain)
  d <- matrix(as.double(domain), 2L, dim)
  if (!all(d[1L, ] < d[2L, ]) || !all(is.finite(d[2L, ] - d[1L, ]))) arg_error("domain", what, domain)
  d
}

# Lattice points in the original domain: a vector (dim 1) or m x dim matrix,
# first coordinate fastest.
bernstein_lattice <- function(k, dom) {
  axes <- lapply(seq_along(k), function(j) {
    t <- (0:k[j]) / k[j]
    a <- (1 - t) * dom[1L, j] + t * dom[2L, j]
    if (is.unsorted(a, strictly = TRUE)) {
      dpfda_abort(sprintf("`domain` is too narrow for %d distinct lattice points in coordinate %d.",
                          k[j] + 1L, j), arg = "domain")
    }
    a
  })
  if (length(k) == 1L) return(axes[[1L]])
  g <- as.matrix(expand.grid(axes, KEEP.OUT.ATTRS = FALSE))
  dimnames(g) <- NULL
  g
}

# The target's values on the lattice; messages never show the values.
bernstein_target <- function(f, lattice, m, sizes = NULL) {
  is_fun <- is.function(f)
  v <- if (is_fun) {
    withCallingHandlers(
      tryCatch(f(lattice), error = function(e) {
        dpfda_abort(sprintf("`f` failed on the lattice: %s", conditionMessage(e)), arg = "f")
      }),
      warning = function(w) {
        dpfda_warn(sprintf("`f` warned on the lattice: %s", conditionMessage(w)), "dpfda_warning_target")
        invokeRestart("muffleWarning")
      })
  } else if (inherits(f, "dpfda_curves") && nrow(f$values) == 1L) {
    # (its values were taken whatever its grid: a curve on other points of the same number was used)
    v0 <- curve_values_at(f, lattice, "f")
    if (inherits(v0, "dpfda_curves")) {
      dpfda_abort(sprintf(paste("`f` is a curve on other points than the %s lattice points of k and `domain`;",
                                "evaluate it there first (see ?dp_bernstein, section Lattice)."),
                          format(m, big.mark = ",")), arg = "f")
    }
    v0
  } else {
    # an array of lattice values has one extent per axis, k + 1 each, in lattice order (a 4 x 5 array for
    # k = c(4, 3), whose lattice is 5 x 4, was read as a flat vector: every value at another point)
    da <- dim(f)
    if (is.numeric(f) && length(da) > 1L) {
      kk1 <- sizes
      # (a one-axis lattice takes a one-column or one-row matrix as well)
      if (!is.null(kk1) && !identical(as.integer(da), as.integer(kk1)) &&
          !(length(kk1) == 1L && sum(da > 1L) <= 1L)) {
        dpfda_abort(sprintf(paste("`f` is a %s array, but the lattice of `k` is %s (k + 1 values per axis, the first",
                                  "axis varying fastest): give the values in that shape, e.g. aperm() a transposed",
                                  "array, or as a vector in lattice order."),
                            paste(da, collapse = " x "), paste(kk1, collapse = " x ")), arg = "f")
      }
    }
    f
  }
  # (a function may return a one-curve curves object on the lattice, as kde_gaussian(x, t, b) does)
  if (is_fun) v <- curve_values_at(v, lattice, "f")
  if (!is.numeric(v) || is.object(v) || length(v) != m || !all(is.finite(v))) {
    shape <- if (!is.numeric(v) || is.object(v)) sprintf("an object of class <%s>", class(v)[1L])
             else if (length(v) != m) sprintf("%d values", length(v))
             else "non-finite values"
    dpfda_abort(sprintf(paste("`f` must %s %s finite numbers (one per lattice point, first coordinate",
                              "fastest), not %s."),
                        if (is_fun) "return" else "be", format(m, big.mark = ","), shape),
                arg = "f")
  }
  as.double(v)
}

# Noise type and scale for m lattice points.
bernstein_noise <- function(sensitivity, epsilon, delta, m, calibration) {
  lambda <- sensitivity * m / epsilon
  overflow <- function() {
    dpfda_abort(sprintf("The noise scale overflows for sensitivity %s, epsilon %s and %s lattice points.",
                        format(sensitivity), format(epsilon), format(m)),
                class = "dpfda_error_numeric")
  }
  out <- if (delta == 0) {
    list(type = "laplace", scale = lambda, calibration = "laplace", lattice_sensitivity = sensitivity * m)
  } else if (calibration == "composition") {
    l1 <- log(1 / delta)
    if (!is.finite(l1)) l1 <- -log(delta)
    root <- sqrt(2 * m * l1)
    lambda_d <- 2 * sensitivity * root / epsilon
    eps0 <- if (lambda_d > 0) sensitivity / lambda_d else 0
    eps_used <- root * eps0 + m * eps0 * expm1(eps0)
    if (is.finite(lambda_d) && lambda_d < lambda && eps_used <= epsilon) {
      list(type = "laplace", scale = lambda_d, calibration = "composition",
           lattice_sensitivity = sensitivity * m)
    } else {
      list(type = "laplace", scale = lambda, calibration = "laplace", lattice_sensitivity = sensitivity * m)
    }
  } else {
    l2 <- sensitivity * sqrt(m)
    if (!is.finite(l2)) overflow()
    list(type = "gaussian", scale = dp_noise_scale(l2, epsilon, delta, calibration = calibration),
         calibration = calibration, lattice_sensitivity = l2)
  }
  # draws are scale * (a standard variate below about 40): keep them finite
  if (!is.finite(out$scale) || out$scale > 1e300) overflow()
  out
}

#' Iterated Bernstein basis
#'
#' Values of the iterated Bernstein basis of degree \eqn{k} and order
#' \eqn{h}, \eqn{b^{(h)}(y)^\top = b(y)^\top A_h} with the plain basis
#' \eqn{b_{\nu,k}(y) = \binom{k}{\nu} y^\nu (1-y)^{k-\nu}} and
#' \eqn{A_h = \sum_{j=0}^{h-1} (I - M)^j}, \eqn{M_{\mu\nu} = b_{\nu,k}(\mu/k)}
#' (Micchelli's iterated operator \eqn{I - (I - B_k)^h}).
#'
#' The plain basis is computed in C from the mode of the binomial
#' distribution outward by ratios (the value at the mode from R's
#' `dbinom()`), so it neither overflows nor loses accuracy for large
#' \eqn{k} (tested to \eqn{k = 10^4}). \eqn{A_h} is computed by the stable
#' Horner recursion \eqn{A_1 = I}, \eqn{A_{j+1} = I + (I - M) A_j} (for
#' \eqn{h > 16} by binary powering of the same sum), never by the paper's
#' alternating binomial sum, which cancels catastrophically for
#' \eqn{h \gtrsim 30}. For large \eqn{k} and few points the recursion runs
#' on the basis vectors instead of forming \eqn{A_h}.
#'
#' The rows sum to one for every \eqn{h}; for \eqn{h \ge 2} entries can be
#' negative.
#'
#' @param y Points in \eqn{[0, 1]}: a numeric vector.
#' @param k Degree: a whole number \eqn{\ge 1}.
#' @param h Order: a whole number \eqn{\ge 1} (`1` is the plain basis).
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A `length(y) x (k + 1)` matrix; column \eqn{\nu + 1} holds
#'   \eqn{b^{(h)}_{\nu,k}(y)}.
#' @examples
#' y <- seq(0, 1, by = 0.25)
#' B <- bernstein_basis(y, k = 4)
#' rowSums(B)                                  # partition of unity
#' # B_k^(h) reproduces y^2 up to y (1 - y) / k^h
#' bernstein_basis(y, 4, h = 3) %*% ((0:4) / 4)^2 - (y^2 + y * (1 - y) / 4^3)
#' @export
bernstein_basis <- function(y, k, h = 1, ...) {
  check_dot_names(dot_args(), character(), "bernstein_basis")
  check_required()
  ok <- is.numeric(y) && is.null(dim(y)) && length(y) >= 1L && all(is.finite(y)) &&
    all(y >= 0 & y <= 1)
  if (!isTRUE(ok)) arg_error("y", "a numeric vector of points in [0, 1]", y)
  k <- check_count(k, "k", max = .Machine$integer.max - 1)
  h <- check_count(h, "h")
  n <- length(y)
  check_alloc(as.double(n) * (k + 1) * (if (h > 1) 4 else 2) + if (h > 1) 4 * (k + 1)^2 else 0,
              sprintf("Bernstein basis (%s points, k = %d) in memory", format(n, big.mark = ","), k))
  c_bernstein_basis(as.double(y), k, h, 0L)
}

# A_h = sum_{j < h} (I - M)^j. method: "auto", "horner", "doubling".
bernstein_iter_matrix <- function(k, h, method = c("auto", "horner", "doubling")) {
  method <- match.arg(method)
  k <- check_count(k, "k", max = .Machine$integer.max - 1)
  h <- check_count(h, "h")
  check_alloc(4 * (k + 1)^2, sprintf("iterated Bernstein matrix (k = %d) in memory", k))
  c_bernstein_iterate(k, h, match(method, c("auto", "horner", "doubling")) - 1L)
}

# Coefficient tensor c = v x_1 A_h ... x_d A_h of lattice values v (lattice
# order) with per-dimension degrees k. method: "auto", "form" (form A_h),
# "columns" (Horner recursion on the columns).
bernstein_coef <- function(values, k, h, method = c("auto", "form", "columns")) {
  method <- match.arg(method)
  m <- prod(k + 1)
  if (h > 1) {
    # two tensors, a work block of m, the node matrix M and, when A_h is formed, 3 more (k+1)^2
    check_alloc(3 * m + 4 * max(k + 1)^2, "iterated Bernstein coefficients in memory")
  }
  c_bernstein_coef(as.double(values), as.double(k + 1), as.integer(h),
                   match(method, c("auto", "form", "columns")) - 1L)
}

#' Evaluate a Bernstein release
#'
#' Evaluates the iterated Bernstein polynomial of order `h` of the released
#' noisy lattice values at new points (the paper's Algorithm 1, evaluation
#' step, with the tensor-product basis of Definition 9). This is
#' post-processing of the release: any `h`, any number of points, at no
#' privacy cost and without drawing any noise.
#'
#' Points are first mapped to \eqn{[0, 1]^d} through the release's domain.
#' **Points outside the domain are clamped to it** (coordinate-wise), since
#' polynomials extrapolate wildly and no guarantee covers them; a classed
#' warning (`dpfda_warning_extrapolation`) says how many were.
#'
#' The evaluation applies \eqn{A_h} along every mode of the lattice tensor
#' once per call, then contracts the tensor with the plain basis vectors of
#' each coordinate, one mode at a time (cost about \eqn{(k+1)^d} per point).
#' A list of axis vectors (or a matrix that is exactly such a tensor grid, in
#' [expand.grid()] order) is evaluated by matrix products with the basis
#' matrices of the axes, \eqn{B_1 C B_2^\top} in two dimensions.
#'
#' @param object A release from [dp_bernstein()].
#' @param newdata Points: a vector (one dimension), an `n x dim` matrix or
#'   data frame, a single point of length `dim`, or a list of `dim` axis
#'   vectors for a tensor grid. `NULL` returns the released (noisy) lattice
#'   values themselves.
#' @param h Order of the iterated Bernstein polynomial; defaults to the
#'   release's `h`.
#' @param type `"bernstein"` (default), or `"nearest"` for the paper's
#'   baseline: the noisy value at the nearest lattice point (ties away from
#'   zero, \eqn{\lfloor y k + 1/2 \rfloor}).
#' @param interval `"none"` (default) or `"confidence"`: the pointwise band
#'   of the **privacy noise** of the evaluated function at each point, as a
#'   matrix with columns `fit`, `lwr`, `upr` (as [stats::predict.lm()]). The
#'   value at a point is a fixed linear combination of the noisy lattice
#'   values, so the band is that of the combined noise: exact normal
#'   quantiles for Gaussian noise, and quantiles of 10,000 draws from the
#'   public Laplace law (seed 1, reproducible) for a combination of Laplace
#'   values (exact Laplace quantiles with `type = "nearest"`). Inside the
#'   domain the polynomial averages several lattice values, so its band is
#'   narrower than the lattice's. The band covers the polynomial of the
#'   non-private lattice values, not the target itself: the Bernstein
#'   approximation's bias ([bernstein_error_bound()]) is not in it.
#' @param level Coverage probability of the interval.
#' @param ... Unused; a name that is not an argument is an error.
#' @return A numeric vector with one value per point; for a list of axes in
#'   `dim > 1`, an array with one dimension per axis; with `interval =
#'   "confidence"`, a matrix with columns `fit`, `lwr`, `upr` and one row per
#'   point (for a list of axes, in [expand.grid()] order).
#' @examples
#' r <- dp_bernstein(function(t) sin(2 * pi * t), sensitivity = 0.01,
#'                   epsilon = 1, k = 12)
#' t <- c(0, 0.1, 0.5, 2)  # 2 is clamped to 1
#' predict(r, t)
#' predict(r, t, h = 4)     # same release, no new noise
#' predict(r, t, type = "nearest")
#' predict(r, c(0.25, 0.5), interval = "confidence")
#' @export
predict.dpfda_bernstein_release <- function(object, newdata = NULL, h = object$h,
                                            type = c("bernstein", "nearest"), interval = c("none", "confidence"),
                                            level = 0.95, ...) {
  check_dot_names(list(...), character(), "predict")
  interval <- check_choice(interval, c("none", "confidence"), "interval")
  if (is.null(newdata)) {
    if (!missing(h) || !missing(type)) {
      dpfda_abort("`newdata` is needed to evaluate the release (pass the lattice, `object$values$grid`, to evaluate there).",
                  arg = "newdata")
    }
    if (interval == "confidence") return(release_predict_band(object, NULL, level))   # the lattice values
    return(as.vector(object$values$values))
  }
  warn_outside_grid(object$values, newdata)   # (clamped there, as predict() of other releases warns)
  type <- check_choice(type, c("bernstein", "nearest"), "type")   # (one value for bernstein_map() below)
  fit <- bernstein_predict(object, newdata, h = h, type = type)
  if (interval == "none") return(fit)
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                        what = "a number in (0, 1)")
  # the linear map from the lattice values to the evaluations
  m <- length(object$values$values)
  check_alloc(as.double(length(fit)) * m * 2, "the Bernstein prediction band in memory")
  A <- matrix(bernstein_map(object, newdata, h = h, type = type), nrow = length(fit))
  fam <- if (identical(object$noise_type, "gaussian")) "gaussian" else "laplace"
  note <- "i.i.d. noise on the lattice values, then the evaluation"
  one_value <- rowSums(A != 0) == 1L   # a point that takes one lattice value (nearest, an end point): exact
  half <- numeric(length(fit))
  if (any(one_value)) {
    law <- law_linear(NULL, object$noise_scale * rowSums(abs(A[one_value, , drop = FALSE])), fam,
                      which(one_value), note)
    half[one_value] <- noise_band(law, level, "pointwise", 10000L, 1L)$half
  }
  if (!all(one_value)) {
    law <- law_linear(A[!one_value, , drop = FALSE], rep(object$noise_scale, m), fam, which(!one_value), note)
    half[!one_value] <- noise_band(law, level, "pointwise", 10000L, 1L)$half
  }
  fit <- as.vector(fit)
  cbind(fit = fit, lwr = fit - half, upr = fit + half)
}

#' @export
release_predict.dpfda_bernstein_release <- function(object, newdata, ...) {
  bernstein_predict(object, newdata, ...)
}

bernstein_predict <- function(object, newdata, h = object$h, type = c("bernstein", "nearest"), ...) {
  type <- check_choice(type, c("bernstein", "nearest"), "type")
  h <- check_count(h, "h")
  d <- object$dim
  k <- rep_len(object$k, d)
  v <- object$values$values
  dom <- matrix(object$domain, 2L, d)
  if (!is.matrix(v) || length(v) != prod(k + 1) || !is.matrix(dom) || !all(dom[1L, ] < dom[2L, ])) {
    dpfda_abort("`object` is not a valid Bernstein release.", arg = "object")
  }
  to_unit <- function(y, j) {
    u <- (y - dom[1L, j]) / (dom[2L, j] - dom[1L, j])
    pmin(pmax(u, 0), 1)     # clamp to the domain (documented)
  }
  axes <- NULL
  if (is.list(newdata) && !is.data.frame(newdata)) {
    ok <- length(newdata) == d &&
      all(vapply(newdata, function(a) is.numeric(a) && is.null(dim(a)) && length(a) >= 1L &&
                   all(is.finite(a)), NA))
    if (!isTRUE(ok)) arg_error("newdata", sprintf("a list of %d numeric axis vectors of finite values", d), newdata)
    axes <- newdata
  } else {
    if (d > 1L && is.numeric(newdata) && is.null(dim(newdata)) && length(newdata) == d) {
      newdata <- matrix(newdata, nrow = 1L)
    }
    p <- as_points(newdata, "newdata", d = d)
    if (d > 1L && nrow(p) >= 256L) axes <- tensor_axes(p)   # a tensor grid: fast path
  }
  if (!is.null(axes)) {
    sizes <- vapply(axes, length, 1)
    u <- lapply(seq_len(d), function(j) to_unit(as.double(axes[[j]]), j))
    out <- if (type == "nearest") {
      idx <- lapply(seq_len(d), function(j) nearest_index(u[[j]], k[j]))
      lin <- Reduce(function(a, j) outer(a, idx[[j]] * prod(k[seq_len(j - 1L)] + 1), `+`),
                    seq_len(d)[-1L], idx[[1L]])
      as.vector(v)[as.vector(lin) + 1]
    } else {
      inter <- vapply(seq_len(d), function(j) prod(sizes[seq_len(j)]) * prod((k + 1)[-seq_len(j)]), 1)
      check_alloc(2 * max(inter, prod(k + 1)) + sum(sizes * (k + 1)), "Bernstein grid evaluation in memory")
      cf <- bernstein_coef(v, k, h)
      c_bernstein_eval_grid(cf, as.double(k + 1), u)
    }
    if (is.list(newdata) && !is.data.frame(newdata) && d > 1L) return(array(out, dim = sizes))
    return(as.vector(out))
  }
  check_alloc(as.double(nrow(p)) * (d + 2), "Bernstein evaluation in memory")
  u <- vapply(seq_len(d), function(j) to_unit(p[, j], j), numeric(nrow(p)))
  if (!is.matrix(u)) u <- matrix(u, ncol = d)
  if (type == "nearest") return(as.vector(v)[nearest_lattice_index(u, k)])
  cf <- bernstein_coef(v, k, h)
  c_bernstein_eval(cf, as.double(k + 1), u)
}

# floor(u k + 1/2) (not round(): that rounds half to even), within 0..k.
nearest_index <- function(u, k) pmin(pmax(floor(u * k + 0.5), 0), k)

# The position (from 1, first axis fastest) of the lattice value nearest to each row of the unit
# coordinates `u` (n x d).
nearest_lattice_index <- function(u, k) {
  lin <- 0
  for (j in seq_len(ncol(u))) lin <- lin + nearest_index(u[, j], k[j]) * prod(k[seq_len(j - 1L)] + 1)
  lin + 1
}

#' @export
release_details.dpfda_bernstein_release <- function(x) {
  cat(sprintf("  Bernstein lattice k = %s, dim = %d; default order h = %d (any h via predict(x, newdata, h = ))\n",
              paste(x$k, collapse = ", "), x$dim, x$h))
}

# The dimension a Bernstein release's `domain` (a 2 x d matrix) or `k` (one degree per axis) implies,
# 1 when neither does (a malformed value is refused by its own check, with its name).
bernstein_implied_dim <- function(domain, k) {
  if (is.matrix(domain) && nrow(domain) == 2L && ncol(domain) >= 1L) return(ncol(domain))
  if (is.numeric(k) && is.null(dim(k)) && length(k) > 1L) return(length(k))
  1L
}
