# Error bounds of the Bernstein mechanism and the choice of k (Alda &
# Rubinstein 2017, Sections 4.1-4.2: Theorems 3, 5, 6 and Proposition 4), with
# the true Lebesgue constants of the iterated operator in place of the paper's
# bound 2^h - 1.

# ---- error bounds and the choice of k -----------------------------------------

#' Lebesgue constant of the iterated Bernstein operator
#'
#' \eqn{\Lambda_{k,h} = \sup_{y \in [0,1]} \sum_{\nu=0}^k |b^{(h)}_{\nu,k}(y)|},
#' the factor by which evaluation can amplify the lattice noise: \eqn{\sup_y
#' |\sum_\nu Z_\nu w_\nu(y)| \le \max_\nu |Z_\nu| \cdot \Lambda_{k,h}^\ell} in
#' \eqn{\ell} dimensions, where the Lebesgue function of the tensor-product
#' basis factorises. The paper bounds it by \eqn{2^h - 1} (its eq. 12); the
#' true values are much smaller (about 1.16, 1.23, 1.26, 1.30 for \eqn{h =
#' 2, \dots, 5}), and \eqn{\Lambda_{k,1} = 1} because the plain basis is
#' non-negative and sums to one.
#'
#' * `type = "grid"`: the maximum over `ngrid` equally spaced points, an
#'   estimate from below (the reference values above use 2001 points).
#' * `type = "certified"`: a rigorous upper bound. The Lebesgue function is
#'   Lipschitz with constant at most \eqn{k \max_\mu \sum_\nu |A_h[\mu+1,\nu]
#'   - A_h[\mu,\nu]|} (\eqn{A_h} the matrix with \eqn{b^{(h)}(y)^\top =
#'   b(y)^\top A_h}, see below), so on a cell \eqn{[a, c]} it is at most the
#'   mean of the end values plus that constant times \eqn{(c - a)/2}; cells
#'   are bisected until every cell bound is within `tol` of the largest value
#'   seen, and the largest cell bound (capped by \eqn{2^h - 1}) is returned.
#' * `type = "paper"`: \eqn{2^h - 1}.
#'
#' \eqn{A_h = \sum_{j=0}^{h-1} (I - M)^j}, \eqn{M_{\mu\nu} = b_{\nu,k}(\mu/k)},
#' is computed by the Horner recursion \eqn{A_1 = I}, \eqn{A_{j+1} = I + (I -
#' M) A_j}: the paper's alternating binomial sum cancels catastrophically
#' for \eqn{h \gtrsim 30}.
#'
#' @param k Degree (lattice resolution per dimension), a whole number up to
#'   1000.
#' @param h Order of the iterated operator, up to 1000.
#' @param dim Dimension \eqn{\ell}; the result is \eqn{\Lambda_{k,h}^\ell}.
#' @param type `"grid"`, `"certified"` or `"paper"`.
#' @param ngrid Number of grid points for `type = "grid"` (and the starting
#'   resolution of `"certified"`).
#' @param tol Absolute tolerance of `type = "certified"`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return \eqn{\Lambda_{k,h}^\ell} (an estimate for `"grid"`, an upper bound
#'   for `"certified"` and `"paper"`).
#' @references Alda, F. and Rubinstein, B. I. P. (2017). The Bernstein
#'   mechanism: function release under differential privacy. *AAAI* 31.
#' @seealso [bernstein_error_bound()], [bernstein_basis()].
#' @examples
#' bernstein_lebesgue(20, h = 2)                      # 1.1641
#' bernstein_lebesgue(20, h = 2, type = "certified")  # rigorous, slightly above
#' bernstein_lebesgue(20, h = 2, type = "paper")      # 3
#' @export
bernstein_lebesgue <- function(k, h = 1L, dim = 1L, type = c("grid", "certified", "paper"),
                               ngrid = 2001L, tol = 1e-4, ...) {
  check_dot_names(dot_args(), character(), "bernstein_lebesgue")
  check_required()
  k <- check_count(k, "k", max = 1000)
  h <- check_count(h, "h", max = 1000)
  dim <- check_count(dim, "dim", max = 1e3)
  type <- check_choice(type, c("grid", "certified", "paper"), "type")
  ngrid <- check_count(ngrid, "ngrid", min = 2, max = 1e7)
  tol <- check_number(tol, "tol", lower = 0, lower_open = TRUE, upper = 1)
  if (type != "paper" && h > 1L && as.double(ngrid) * (k + 1)^2 > 2e10) {
    dpfda_abort(sprintf("`ngrid` = %s points at k = %d would take too long (ngrid (k + 1)^2 > 2e10).",
                        format(ngrid), k), class = "dpfda_error_numeric", arg = "ngrid")
  }
  lam <- switch(type,
    paper = 2^h - 1,
    grid = if (h == 1L) 1 else bern_lebesgue_grid(k, h, ngrid),
    certified = bern_lebesgue_certified(k, h, ngrid, tol))
  lam^dim
}

#' Error bounds of the Bernstein mechanism
#'
#' High-probability uniform error bounds of Alda and Rubinstein (2017,
#' Section 4.1): with probability at least \eqn{1 - \beta},
#' \deqn{\sup_{y \in [0,1]^\ell} |\tilde A(y) - F_D(y)| \le
#' \underbrace{A_{\rm approx}(k, h)}_{\rm approximation} +
#' \underbrace{N(\beta)}_{\rm noise}.}
#'
#' **Noise term**, for exactly the noise [dp_bernstein()] adds with the same
#' `sensitivity`, `epsilon`, `k`, `dim`, `delta` and `calibration` to the
#' \eqn{m = (k+1)^\ell} lattice values: Laplace of scale \eqn{\lambda = S m
#' / \epsilon} when `delta = 0` (the paper's Algorithm 1) or with the paper's
#' \eqn{\lambda_\delta = 2S\sqrt{2m\log(1/\delta)}/\epsilon} (`calibration
#' = "composition"`, when it applies); otherwise, for `delta > 0`, Gaussian
#' noise of standard deviation \eqn{\sigma =} [dp_noise_scale]`(S * sqrt(m),
#' epsilon, delta, calibration)`.
#' * `noise = "uniform"` (rigorous): \eqn{N = \Lambda_{k,h}^\ell \cdot t},
#'   with \eqn{t} the exact \eqn{1-\beta} quantile of \eqn{\max_\nu
#'   |Z_\nu|}: \eqn{-\lambda \log(1 - (1-\beta)^{1/m})} for Laplace noise,
#'   \eqn{\sigma\,\Phi^{-1}(1 - q/2)}, \eqn{q = 1 - (1-\beta)^{1/m}}, for
#'   Gaussian noise; \eqn{\Lambda_{k,h}} is the certified Lebesgue constant
#'   of [bernstein_lebesgue()].
#' * `noise = "paper"` (Laplace noise only): Proposition 4 as stated, \eqn{N =
#'   (2^h - 1)^\ell\lambda\log(1/\beta)}. Its proof is pointwise in
#'   \eqn{y}; as a bound on the supremum it is false (erratum E4: for \eqn{h =
#'   1}, \eqn{P(\sup \ge 3\lambda) \approx 0.10 > e^{-3}}). For
#'   reproduction only.
#'
#' **Approximation term**, from the regularity of every \eqn{F_D}:
#' * `class = "none"` (default): not included; `approx` is 0 and `total` is
#'   the noise term alone (a bound on the distance to the non-private
#'   Bernstein polynomial \eqn{B^{(h)}_k F_D}, not to \eqn{F_D}).
#' * `class = "smooth"`, \eqn{F_D} \eqn{(2h, T)}-smooth (`derivative_bound`
#'   \eqn{= T}): \eqn{T D_h k^{-h} \sum_{j=0}^{\ell-1} \Lambda_{k,h}^j}
#'   (Micchelli's Theorem 5 in each coordinate, telescoped over the
#'   coordinates; \eqn{= \ell T/(8k)} for \eqn{h = 1}). \eqn{D_1 = 1/8} is
#'   exact (attained by \eqn{y^2}); the paper does not give \eqn{D_h} for
#'   \eqn{h \ge 2}, which must then be supplied as `micchelli_constant`.
#' * `class = "holder"`, \eqn{(\gamma, L)}-Holder: \eqn{\ell L
#'   (4k)^{-\gamma/2}} (Theorem 6 and App. E), for \eqn{h = 1} only (the
#'   paper has no result for \eqn{h \ge 2}).
#' * `class = "linear"` (affine, or multi-affine in several dimensions): 0
#'   for every \eqn{k, h}, since \eqn{B^{(h)}_k} reproduces such functions.
#'
#' Also returned: `noise_rms` \eqn{= \lambda\sqrt{2 \bar v^\ell}} (Laplace)
#' or \eqn{\sigma\sqrt{\bar v^\ell}} (Gaussian), the root of the expected
#' squared noise averaged over the domain, with \eqn{\bar v = \int_0^1
#' \sum_\nu b^{(h)}_{\nu,k}(y)^2 dy} computed exactly (0.195, 0.260, 0.302,
#' 0.331, 0.354 for \eqn{k = 20}, \eqn{h = 1, \dots, 5}): why larger \eqn{h}
#' costs accuracy at small \eqn{\epsilon}.
#'
#' @param sensitivity \eqn{S(F)}, e.g. from [sensitivity_bernstein].
#' @param epsilon Privacy parameter of the release.
#' @param k One or more degrees (the same in every coordinate; up to 1000).
#' @param h One or more orders of the iterated operator (up to 1000).
#' @param dim Dimension \eqn{\ell}.
#' @param beta Failure probability, in (0, 1).
#' @param delta,calibration As in [dp_bernstein()]: `delta = 0` for pure
#'   \eqn{\epsilon}-DP (Laplace noise); for `delta > 0` the calibration of
#'   the Gaussian noise, or `"composition"` for the paper's
#'   \eqn{\lambda_\delta}.
#' @param class `"none"`, `"smooth"`, `"holder"` or `"linear"`.
#' @param derivative_bound \eqn{T}: bound on the partial derivatives of
#'   \eqn{F_D} up to order \eqn{2h} (`"smooth"`).
#' @param holder_constant,holder_exponent \eqn{L} and \eqn{\gamma \in (0,1]}
#'   (`"holder"`).
#' @param micchelli_constant \eqn{D_h} of Theorem 5 for \eqn{h \ge 2}: `NULL`
#'   or one value per element of `h` (entries for \eqn{h = 1} are ignored and
#'   may be `NA`).
#' @param noise `"uniform"` or `"paper"`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A data frame with one row per combination of `k` and `h` and
#'   columns `k`, `h`, `noise_type` (`"laplace"` or `"gaussian"`),
#'   `noise_scale` (\eqn{\lambda} or \eqn{\sigma}, the `noise_scale` of
#'   the corresponding release), `lebesgue` (\eqn{\Lambda_{k,h}^\ell} used),
#'   `noise`, `approx`, `total` and `noise_rms`.
#' @references Alda, F. and Rubinstein, B. I. P. (2017). The Bernstein
#'   mechanism: function release under differential privacy. *AAAI* 31.
#' @seealso [bernstein_choose_k()], [bernstein_lebesgue()], [dp_bernstein()].
#' @examples
#' S <- sensitivity_bernstein_kde(5000, 0.05)
#' bernstein_error_bound(S, epsilon = 1, k = c(5, 10, 20), h = 1:2)
#' # a (2, T)-smooth target: the full bound for h = 1
#' bernstein_error_bound(S, epsilon = 1, k = 10, class = "smooth", derivative_bound = 50)
#' @export
bernstein_error_bound <- function(sensitivity, epsilon, k, h = 1L, dim = 1L, beta = 0.05, delta = 0,
                                  calibration = c("analytic", "hall", "classical", "composition"),
                                  class = c("none", "smooth", "holder", "linear"), derivative_bound = NULL,
                                  holder_constant = NULL, holder_exponent = 1,
                                  micchelli_constant = NULL, noise = c("uniform", "paper"), ...) {
  check_dot_names(dot_args(), character(), "bernstein_error_bound")
  check_required()
  # sensitivity, epsilon, h, dim, beta, delta and calibration, checked, in place
  list2env(bern_check_bound_args(sensitivity, epsilon, h, dim, beta, delta, calibration), environment())
  k <- bern_count_vector(k, "k", max = 1000)
  class <- check_choice(class, c("none", "smooth", "holder", "linear"), "class")
  noise <- check_choice(noise, c("uniform", "paper"), "noise")
  reg <- bern_check_regularity(class, derivative_bound, holder_constant, holder_exponent,
                               micchelli_constant, h)
  rows <- expand.grid(k = k, h = h)
  out <- lapply(seq_len(nrow(rows)), function(i) {
    bern_bound_row(sensitivity, epsilon, rows$k[i], rows$h[i], dim, beta, delta, calibration, class,
                   reg, noise)
  })
  out <- do.call(rbind, out)
  rownames(out) <- NULL
  out
}

#' Choose the degree k (and order h) of the Bernstein mechanism
#'
#' Picks the lattice resolution \eqn{k} (and the order \eqn{h}) of
#' [dp_bernstein()] from public quantities only, by one of two rules:
#'
#' * `method = "rate"`: the paper's balancing rule (eq. 4), which equates the
#'   rates of the approximation and noise terms and ignores their constants:
#'   \eqn{k = (\epsilon / (S\log(1/\beta)))^{1/(h+\ell)}} for smooth targets,
#'   \eqn{(\cdot)^{2/(2\ell+\gamma)}} for Holder targets (with \eqn{h = 1}),
#'   and \eqn{k = h = 1} for (multi-)affine targets, which
#'   \eqn{B^{(1)}_1} reproduces exactly. With \eqn{\delta > 0} (Theorem 7):
#'   \eqn{(\epsilon/(S\log(1/\beta)\sqrt{\log(1/\delta)}))^{2/(\ell+2h)}}
#'   (smooth) and \eqn{(\cdot)^{2/(\ell+\gamma)}} (Holder). The paper gives no
#'   rounding rule; we use \eqn{\max(1, \mathrm{round}(x))} (at most
#'   \eqn{10^6}) and also return the unrounded value. A single `h` is
#'   required; the regularity constants are not used.
#' * `method = "bound"`: minimises the total of [bernstein_error_bound()]
#'   (uniform noise bound) over \eqn{k = 1, \dots,} `k_max` and the given `h`
#'   values; it needs the regularity constants of `class` (for \eqn{h \ge 2}
#'   also `micchelli_constant`). Candidates are visited in increasing order
#'   of a lower bound on their total (the same bound with \eqn{\Lambda = 1})
#'   and the search stops when that lower bound exceeds the best total found,
#'   so that the certified Lebesgue constant is computed for few \eqn{(k,h)}.
#'
#' The choice uses only public quantities, so it costs no privacy. Choosing
#' \eqn{k} or \eqn{h} by looking at the data (or at releases of it) is not
#' free.
#'
#' @inheritParams bernstein_error_bound
#' @param h The order(s) \eqn{h} to consider.
#' @param class `"smooth"`, `"holder"` or `"linear"`.
#' @param method `"rate"` or `"bound"`.
#' @param k_max Largest degree searched by `method = "bound"` (up to 1000).
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A list with `k` (integer) and `h`, and for `"rate"` `unrounded`
#'   (the formula's value), for `"bound"` `bound` (the minimal total error
#'   bound) and `table` (the bounds computed, as from
#'   [bernstein_error_bound()]).
#' @references Alda, F. and Rubinstein, B. I. P. (2017). The Bernstein
#'   mechanism: function release under differential privacy. *AAAI* 31.
#' @seealso [bernstein_error_bound()], [dp_bernstein()].
#' @examples
#' S <- sensitivity_bernstein_kde(5000, 0.05)
#' bernstein_choose_k(S, epsilon = 1)$unrounded            # 14.46
#' bernstein_choose_k(S, epsilon = 1, h = 2)$k              # 6
#' bernstein_choose_k(S, epsilon = 1, method = "bound", derivative_bound = 50)[c("k", "h", "bound")]
#' @export
bernstein_choose_k <- function(sensitivity, epsilon, h = 1L, dim = 1L, beta = 0.05, delta = 0,
                               calibration = c("analytic", "hall", "classical", "composition"),
                               class = c("smooth", "holder", "linear"), method = c("rate", "bound"),
                               derivative_bound = NULL, holder_constant = NULL, holder_exponent = 1,
                               micchelli_constant = NULL, k_max = 200L, ...) {
  check_dot_names(dot_args(), character(), "bernstein_choose_k")
  check_required()
  # sensitivity, epsilon, h, dim, beta, delta and calibration, checked, in place
  list2env(bern_check_bound_args(sensitivity, epsilon, h, dim, beta, delta, calibration), environment())
  class <- check_choice(class, c("smooth", "holder", "linear"), "class")
  method <- check_choice(method, c("rate", "bound"), "method")
  k_max <- check_count(k_max, "k_max", max = 1000)
  if (method == "rate") {
    holder_exponent <- check_number(holder_exponent, "holder_exponent", lower = 0, upper = 1,
                                    lower_open = TRUE)
    # the constants are not used by the rule, but must not be garbage
    bern_check_regularity("none", derivative_bound, holder_constant, holder_exponent,
                          micchelli_constant, h)
    if (length(h) != 1L) {
      dpfda_abort("`method = \"rate\"` needs a single `h` (it has no rule for h).", arg = "h")
    }
    if (class == "linear") return(list(k = 1L, h = 1L, unrounded = 1))
    if (class == "holder" && h != 1L) {
      dpfda_abort("The Holder rate (Theorem 3(ii)) is for h = 1 only.", arg = "h")
    }
    base <- log(epsilon) - log(sensitivity) - log(log(1 / beta))
    if (delta > 0) base <- base - 0.5 * log(log(1 / delta))
    expo <- if (delta == 0) {
      if (class == "smooth") 1 / (h + dim) else 2 / (2 * dim + holder_exponent)
    } else {
      if (class == "smooth") 2 / (dim + 2 * h) else 2 / (dim + holder_exponent)
    }
    x <- exp(base * expo)
    k <- if (is.finite(x)) max(1, min(floor(x + 0.5), 1e6)) else 1e6   # half up, like round()
    return(list(k = as.integer(k), h = h, unrounded = x))
  }

  reg <- bern_check_regularity(class, derivative_bound, holder_constant, holder_exponent,
                               micchelli_constant, h)
  cand <- expand.grid(k = seq_len(k_max), h = h)
  # lower bound on each total: Lambda = 1 in both terms
  cand$lower <- vapply(seq_len(nrow(cand)), function(i) {
    m <- (cand$k[i] + 1)^dim
    bern_noise_quantile(bernstein_noise(sensitivity, epsilon, delta, m, calibration), m, beta) +
      bern_approx_term(class, reg, cand$k[i], cand$h[i], dim, lebesgue = 1)
  }, 0)
  cand <- cand[order(cand$lower, cand$k), ]
  best <- Inf
  rows <- list()
  for (i in seq_len(nrow(cand))) {
    if (cand$lower[i] > best) break
    b <- bern_bound_row(sensitivity, epsilon, cand$k[i], cand$h[i], dim, beta, delta, calibration,
                        class, reg, "uniform")
    rows[[length(rows) + 1L]] <- b
    best <- min(best, b$total)
  }
  tab <- do.call(rbind, rows)
  tab <- tab[order(tab$h, tab$k), ]
  rownames(tab) <- NULL
  i <- which.min(tab$total)
  list(k = as.integer(tab$k[i]), h = as.integer(tab$h[i]), bound = tab$total[i], table = tab)
}

# ---- internals ----------------------------------------------------------------

# The regularity constants of the error bound, checked; those the class
# needs must be present.
bern_check_regularity <- function(class, derivative_bound, holder_constant, holder_exponent,
                                  micchelli_constant, h) {
  if (!is.null(derivative_bound)) {
    derivative_bound <- check_number(derivative_bound, "derivative_bound", lower = 0)
  }
  if (!is.null(holder_constant)) {
    holder_constant <- check_number(holder_constant, "holder_constant", lower = 0)
  }
  holder_exponent <- check_number(holder_exponent, "holder_exponent", lower = 0, upper = 1,
                                  lower_open = TRUE)
  if (!is.null(micchelli_constant)) {
    ok <- is.numeric(micchelli_constant) && is.null(dim(micchelli_constant)) &&
      length(micchelli_constant) %in% c(1L, length(h)) && !any(is.nan(micchelli_constant)) &&
      all(is.na(micchelli_constant) | (is.finite(micchelli_constant) & micchelli_constant >= 0))
    if (!isTRUE(ok)) {
      arg_error("micchelli_constant", sprintf("NULL or %d non-negative number(s) (NA where h = 1)",
                                              length(h)), micchelli_constant)
    }
    micchelli_constant <- rep_len(as.double(micchelli_constant), length(h))
  }
  if (class == "smooth") {
    if (is.null(derivative_bound)) {
      dpfda_abort("`class = \"smooth\"` needs `derivative_bound` (T).", arg = "derivative_bound")
    }
    need <- h >= 2L
    if (any(need) && (is.null(micchelli_constant) || anyNA(micchelli_constant[need]))) {
      dpfda_abort(paste("For h >= 2 the smooth bound needs Micchelli's constant D_h, which the paper",
                        "does not give: supply `micchelli_constant` (one value per h)."),
                  arg = "micchelli_constant")
    }
  }
  if (class == "holder") {
    if (is.null(holder_constant)) {
      dpfda_abort("`class = \"holder\"` needs `holder_constant` (L).", arg = "holder_constant")
    }
    if (any(h != 1L)) {
      dpfda_abort("The Holder bound (Theorem 6) is for h = 1 only.", arg = "h")
    }
  }
  list(derivative_bound = derivative_bound, holder_constant = holder_constant,
       holder_exponent = holder_exponent, micchelli_constant = micchelli_constant,
       h = h)
}

# The approximation term for degree k, order h (lebesgue: Lambda_{k,h}).
bern_approx_term <- function(class, reg, k, h, dim, lebesgue) {
  switch(class,
    none = 0,
    linear = 0,
    holder = dim * reg$holder_constant * (4 * k)^(-reg$holder_exponent / 2),
    smooth = {
      Dh <- if (h == 1L) 1 / 8 else reg$micchelli_constant[match(h, reg$h)]
      reg$derivative_bound * Dh * k^(-h) * sum(lebesgue^(0:(dim - 1L)))
    })
}

# One row of bernstein_error_bound().
bern_bound_row <- function(sensitivity, epsilon, k, h, dim, beta, delta, calibration, class, reg, noise) {
  m <- (k + 1)^dim
  nzd <- bernstein_noise(sensitivity, epsilon, delta, m, calibration)
  if (noise == "paper" && nzd$type != "laplace") {
    dpfda_abort("`noise = \"paper\"` (Proposition 4) is for Laplace noise only (delta = 0).", arg = "noise")
  }
  leb <- bern_lebesgue_certified(k, h)
  leb_noise <- if (noise == "paper") 2^h - 1 else leb
  nz <- if (noise == "paper") leb_noise^dim * nzd$scale * log(1 / beta)
        else leb_noise^dim * bern_noise_quantile(nzd, m, beta)
  approx <- bern_approx_term(class, reg, k, h, dim, leb)
  vbar <- bern_variance_factor(k, h)
  out <- data.frame(k = k, h = h, noise_type = nzd$type, noise_scale = nzd$scale,
                    lebesgue = leb_noise^dim, noise = nz, approx = approx, total = approx + nz,
                    noise_rms = nzd$scale * sqrt((if (nzd$type == "laplace") 2 else 1) * vbar^dim),
                    stringsAsFactors = FALSE)
  if (!all(is.finite(unlist(out[, -3L])))) {
    dpfda_abort("The error bound is not finite (overflow); check the constants.",
                class = "dpfda_error_numeric")
  }
  out
}

# Whole numbers, as a vector.
bern_count_vector <- function(x, arg, min = 1, max = 1e4) {
  ok <- is.numeric(x) && is.null(dim(x)) && length(x) >= 1L && all(is.finite(x)) &&
    all(x == round(x)) && all(x >= min) && all(x <= max)
  if (!isTRUE(ok)) {
    arg_error(arg, sprintf("one or more whole numbers between %s and %s", format(min), format(max)), x)
  }
  as.integer(x)
}

# Exact 1 - beta quantile of max_nu |Z_nu| over m i.i.d. noise draws
# (noise: a list(type, scale) from bernstein_noise()).
bern_noise_quantile <- function(noise, m, beta) {
  q <- -expm1(log1p(-beta) / m)   # per-coordinate exceedance 1 - (1 - beta)^(1/m)
  if (noise$type == "laplace") -noise$scale * log(q)
  else noise$scale * stats::qnorm(q / 2, lower.tail = FALSE)
}

# The Lebesgue function sum_nu |b^(h)_nu(t)| at t, given A_h.
bern_lebesgue_function <- function(t, A) {
  k <- nrow(A) - 1L
  out <- numeric(length(t))
  step <- max(1L, as.integer(2^20 %/% (k + 1L)))
  for (s in seq(1L, length(t), by = step)) {
    idx <- s:min(length(t), s + step - 1L)
    out[idx] <- rowSums(abs(bernstein_basis(t[idx], k) %*% A))
  }
  out
}

bern_lebesgue_grid <- function(k, h, ngrid) {
  check_alloc(as.double(k + 1) * (k + 1), "iterated Bernstein matrix")
  max(bern_lebesgue_function(seq(0, 1, length.out = ngrid), bernstein_iter_matrix(k, h)))
}

# Rigorous upper bound on Lambda_{k,h} by Lipschitz bisection (see
# bernstein_lebesgue()). Cached per (k, h).
bern_lebesgue_cache <- new.env(parent = emptyenv())
bern_lebesgue_certified <- function(k, h, ngrid = 2001L, tol = 1e-4) {
  if (h == 1L) return(1)
  key <- paste(k, h, ngrid, tol)
  if (!is.null(v <- bern_lebesgue_cache[[key]])) return(v)
  check_alloc(as.double(k + 1) * (k + 1), "iterated Bernstein matrix")
  A <- bernstein_iter_matrix(k, h)
  lip <- k * max(rowSums(abs(diff(A))))   # sup |L'| <= k max_mu sum_nu |A[mu+1, ] - A[mu, ]|
  # the Lebesgue function is symmetric about 1/2: search [0, 1/2]
  t <- seq(0, 0.5, length.out = max(3L, ngrid %/% 2L + 1L))
  v <- bern_lebesgue_function(t, A)
  paper <- 2^h - 1
  work <- 0   # stop refining after about 4e9 multiply-adds: the bound stays valid, only looser
  for (iter in 1:60) {
    ub <- (v[-1L] + v[-length(v)]) / 2 + lip * diff(t) / 2
    lb <- max(v)
    active <- which(ub > lb + tol)
    work <- work + length(active) * (k + 1)^2
    if (!length(active) || length(t) > 2e6 || work > 4e9) break
    mid <- (t[active] + t[active + 1L]) / 2
    vm <- bern_lebesgue_function(mid, A)
    o <- order(c(t, mid))
    t <- c(t, mid)[o]
    v <- c(v, vm)[o]
  }
  ub <- (v[-1L] + v[-length(v)]) / 2 + lip * diff(t) / 2
  out <- min(paper, max(ub, v))
  bern_lebesgue_cache[[key]] <- out
  out
}

# vbar = int_0^1 sum_nu b^(h)_nu(y)^2 dy = trace(A' G A), G the Gram matrix
# of the plain basis: int b_mu b_nu = C(k,mu) C(k,nu) / ((2k+1) C(2k, mu+nu)).
bern_variance_factor <- function(k, h) {
  j <- 0:k
  G <- exp(outer(lchoose(k, j), lchoose(k, j), "+") - log(2 * k + 1) - lchoose(2 * k, outer(j, j, "+")))
  A <- if (h == 1L) diag(k + 1L) else bernstein_iter_matrix(k, h)
  sum(A * (G %*% A))
}

# The arguments bernstein_error_bound() and bernstein_choose_k() share, checked.
bern_check_bound_args <- function(sensitivity, epsilon, h, dim, beta, delta, calibration) {
  list(sensitivity = check_number(sensitivity, "sensitivity", lower = 0, lower_open = TRUE),
       epsilon = check_epsilon(epsilon), h = bern_count_vector(h, "h", max = 1000),
       dim = check_count(dim, "dim", max = 1e3),
       beta = check_number(beta, "beta", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE),
       delta = check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE, what = "a number in [0, 1)",
                            class = "dpfda_error_privacy"),
       calibration = check_choice(calibration, c("analytic", "hall", "classical", "composition"), "calibration"))
}
