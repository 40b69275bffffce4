# Hall, Rinaldo & Wasserman (2013), Section 5, "online" setting: answer
# adaptively chosen point queries one at a time from ONE Gaussian-process
# noise path, sampled conditionally on every earlier answer (src/online.c).
#
# The object is curator-side: it holds `f` (hence the data) and the raw
# noise. It is an environment of class `dpfda_online_session` whose C state lives
# behind an external pointer, which does not survive serialisation: a saved
# and reloaded copy cannot answer (it could otherwise fork the noise path and
# give two independent answers at a new point, doubling the privacy cost).

#' Online release of a function: answer point queries from one noise path
#'
#' `dp_online()` sets up the *online* release of Hall, Rinaldo and Wasserman
#' (2013, Section 5): analysts ask for the private function at points of their
#' choosing, one query after another, possibly chosen after seeing earlier
#' answers, and the curator answers each from the same Gaussian-process noise
#' path, sampled conditionally on everything released before.
#' `query(object, x)` answers, `released(object)` returns everything answered
#' so far as a [release object][new_dpfda_release].
#'
#' @section CURATOR-SIDE OBJECT -- DO NOT SHARE, SAVE OR SERIALISE:
#' The object returned by `dp_online()` holds `f` -- and therefore the
#' private data -- together with the raw noise of every answer. Either one,
#' or the two together, reveal the data. Keep it in the curator's R session
#' only. Never give it to an analyst, never [save()], [saveRDS()] or
#' [serialize()] it, never send it to a parallel worker, and do not print
#' its fields. Only the *answers* of `query()` and the release returned by
#' `released()` are public.
#'
#' The noise state lives in C memory that is not serialised: a saved and
#' reloaded copy refuses to answer (error of class `dpfda_error_state`), and
#' so does a copy in a forked process. Otherwise two copies could each answer
#' a new point with independent noise, and averaging the two answers would
#' leak more than the stated budget.
#'
#' @section Privacy:
#' Any number of queries, chosen adaptively, together cost one
#' \eqn{(\epsilon, \delta)}, in both noise modes; the argument differs.
#' With `noise = "float"` the answers are the values at the queried points of
#' *one* released path
#' \eqn{\tilde f_D = f_D + \sigma G}, \eqn{G \sim GP(0, K)} with `kernel`
#' \eqn{K} and \eqn{\sigma =} [dp_noise_scale]`(sensitivity, epsilon, delta,
#' calibration)`. If every \eqn{f_D} lies in the RKHS of \eqn{K} and
#' \eqn{\|f_D - f_{D'}\|_{\mathcal H} \le} `sensitivity` for neighbouring
#' data sets, releasing the path is \eqn{(\epsilon, \delta)}-DP (Corollary
#' 3.5), so **any number of queries, chosen adaptively, together cost one
#' \eqn{(\epsilon, \delta)}**: each answer is a function of the path at a point
#' chosen from earlier answers, which is post-processing. A repeated point
#' returns the stored answer (no fresh noise: averaging repeated queries gains
#' nothing). Releasing fresh independent noise per query instead would cost
#' \eqn{(\epsilon, \delta)} per query.
#'
#' The paper's online formula has errata, corrected here: the conditional law
#' is that of the *noise* \eqn{\xi_i = \tilde f_D(x_i) - f_D(x_i)} given the
#' earlier noise values (not of \eqn{\tilde f_D} given the earlier released
#' values), with mean \eqn{V_i^\top C_i^{-1} \xi_{<i}} added to \eqn{f_D(x_i)},
#' and its variance is \eqn{\sigma^2 (K(x_i, x_i) - V_i^\top C_i^{-1} V_i)}:
#' scaled by \eqn{\sigma^2}, which the paper omits (also in its
#' Ornstein--Uhlenbeck formulas). Its "sorted doubly linked list" cannot be
#' searched in \eqn{O(\log i)}; a balanced tree is used.
#'
#' The points must be chosen by the analyst from public information and
#' earlier answers; `f` is evaluated only at queried points.
#'
#' This is the guarantee of `noise = "float"`. Because the float sampler's
#' tails stop at about 8.37 standard deviations, float noise is refused
#' (error of class `dpfda_error_tail`) where that would break the claim,
#' counting every point the session can answer, `floor(getOption(
#' "dpfda.max_doubles") / 5)` (\eqn{107{,}374{,}182} by default; about
#' \eqn{\epsilon > 21} at \eqn{\delta = 10^{-5}}, 14.3 at \eqn{10^{-8}});
#' see [float_tails]. Float variates also carry the low-order-bit leak of floating-point noise (see [exact_noise]).
#'
#' @section Exact noise (the default):
#' With `noise = "exact"` no floating-point variate is ever added. Write
#' \eqn{L L^\top} for the covariance \eqn{K/v + \tau I} (Markov path: \eqn{K/v})
#' of the answered points in query order (\eqn{L} depends on the points only,
#' which are public) and \eqn{w = L^{-1} f_D} for the whitened values of
#' \eqn{f_D} at them. A new point with row \eqn{(l^\top, d)} of \eqn{L} has
#' \eqn{w_i = (f_D(x_i) - l^\top w_{<i}) / d} and is answered by
#' \deqn{y_i = s\,(\mathrm{round}(w_i / s) + Z_i), \quad Z_i \sim
#' N_{\mathbf Z}(0, p), \qquad \tilde f(x_i) = l^\top y_{<i} + d\, y_i,}
#' where \eqn{N_{\mathbf Z}(0, p)} is the discrete Gaussian
#' \eqn{P(z) \propto e^{-z^2/(2p)}} on the integers, drawn exactly with
#' integer arithmetic from the package noise source ([exact_noise]), \eqn{s =
#' u\,2^{-k}} the lattice step, \eqn{u} the noise standard deviation before
#' the rounding is accounted for (so the integers drawn, and the answers, do
#' not depend on the units of \eqn{f}; values of \eqn{2^{52}} steps or more are
#' on the lattice already), and \eqn{p} a whole number. So each answer is its conditional mean given the
#' earlier answers, \eqn{l^\top y_{<i}} (public), plus the conditional standard
#' deviation \eqn{d} (public) times a lattice value: the step
#' \eqn{m + \sqrt{v}\,z} of the float path with \eqn{z} a rounded value plus an
#' exact discrete Gaussian. On the Markov path \eqn{l^\top y_{<i}} and
#' \eqn{l^\top w_{<i}} are the two-neighbour interpolations of the answers and
#' of \eqn{f_D}, \eqn{d^2} the conditional variance; the answers have the law
#' of the float path up to the lattice (the noise of the answers has
#' covariance \eqn{\sigma^2 K}, \eqn{\sigma} the noise scale below).
#'
#' *Why it is private.* With exact noise there is no continuous path to
#' post-process; the argument is adaptive composition instead. For
#' neighbouring data sets and any points \eqn{P}, with \eqn{h = f_D - f_{D'}} at
#' the points, \eqn{\sum_i (w_i(D) - w_i(D'))^2 = h^\top (K_P/v + \tau I)^{-1} h
#' \le v\, h^\top K_P^{-1} h \le v \|f_D - f_{D'}\|^2_{\mathcal H} \le v
#' \Delta^2}: the whitened L2 sensitivity is at most \eqn{\sqrt v\,\Delta}
#' however the points were chosen (the jitter only lowers it). Rounding moves each coordinate by at
#' most one step, and at most \eqn{N} points are ever answered, so the rounded
#' coordinates differ by at most \eqn{S = \sqrt v\,\Delta + \sqrt N s} in L2.
#' Each \eqn{y_i} is a discrete Gaussian mechanism with Renyi divergence
#' \eqn{\alpha (\cdot)^2 / (2 p s^2)} of its shift (Canonne, Kamath and Steinke
#' 2020), chosen adaptively; as the squared shifts sum to at most \eqn{S^2} on
#' every run, the Renyi filter of Feldman and Zrnic (2021) makes the whole
#' session \eqn{\rho}-zCDP with \eqn{\rho = S^2 / (2 p s^2)}, hence
#' \eqn{(\epsilon, \delta)}-DP by the conversion of [zcdp_epsilon()]; the
#' answers and the analyst's choices are post-processing of \eqn{y}. The
#' claim is the same \eqn{(\epsilon, \delta)} for any number of adaptive
#' queries; the budget records \eqn{\rho} (`composition = "zcdp"` uses it).
#'
#' *Calibration.* \eqn{N} is the number of points the state can hold,
#' `floor(getOption("dpfda.max_doubles") / 5)` (\eqn{107{,}374{,}182} by
#' default; at most \eqn{2^{31} - 3}); more are refused before any draw (error
#' of class `dpfda_error_numeric`). The step puts \eqn{2^{25}} to
#' \eqn{2^{26}} steps in one noise standard deviation, so the rounding term
#' \eqn{\sqrt N s} is about \eqn{3 \times 10^{-4}} standard deviations (0.1
#' percent of \eqn{\Delta} at \eqn{\epsilon = 1}, \eqn{\delta = 10^{-5}}; a smaller
#' `dpfda.max_doubles` makes it smaller). The standard deviation
#' \eqn{\sqrt p\, s} is the smallest for which \eqn{\rho}-zCDP gives
#' \eqn{(\epsilon, \delta)} (`calibration` is not used): about 8 percent more
#' noise than the analytic calibration of float noise at \eqn{\epsilon = 1},
#' \eqn{\delta = 10^{-5}}. There is no tail limit: exact noise works for every
#' \eqn{\epsilon}, and `sensitivity = 0` adds no noise in either mode.
#'
#' *Cost* (CPU time of a whole session, creation included, exact against
#' float; bench/bench-online.R section (c), a 2-core machine at load 1):
#' Markov path, \eqn{10^4} queries in separate `query()` calls 21 against 16
#' ms (1.31), \eqn{10^5} queries 257 against 224 ms (1.15); the same points
#' in one call 7 against 4 ms (1.75) and 76 against 49 ms (1.55); general
#' path, 2000 points in one call 455 against 455 ms (1.00). Every session
#' costs less than twice the float one, so exact noise is the default (the
#' exact discrete Gaussian draw adds about 0.3 microseconds per point).
#'
#' @section Algorithms:
#' * **General kernel** (`method = "cholesky"`): an incremental Cholesky
#'   factor \eqn{L} of \eqn{K_P + \tau v I} for the answered points \eqn{P}
#'   (\eqn{v} = kernel variance) and the standard normals \eqn{u} used so far.
#'   A new point \eqn{x} gets \eqn{l = L^{-1} K(P, x)},
#'   \eqn{d^2 = K(x, x) + \tau v - |l|^2} (raised to \eqn{\tau v} if rounding
#'   takes it below \eqn{\tau v / 2}: more noise is safe, never less) and the
#'   noise \eqn{l^\top u + d z}. With the same normals the answers equal the
#'   batch release \eqn{f + \sigma L z} on the points in query order. The jitter
#'   \eqn{\tau} is fixed in advance (never adapted to the data); it adds
#'   independent noise, so the covariance \eqn{\sigma^2(K + \tau v I)} dominates
#'   \eqn{\sigma^2 K}. Cost \eqn{O(i^2)} time per query and \eqn{O(i^2)} memory
#'   at \eqn{i} answered points.
#' * **Exponential (Ornstein--Uhlenbeck) kernel in one dimension**
#'   (`method = "markov"`; [kernel_exponential()], or [kernel_matern()] with
#'   `nu = 1/2`): the path is Markov, so a new point depends only on its
#'   answered neighbours \eqn{a < x < b}. With \eqn{t_1 = (x - a)/\ell},
#'   \eqn{t_2 = (b - x)/\ell} and \eqn{q(t) = 1 - e^{-2t}} (computed by
#'   `expm1`), the conditional mean is
#'   \eqn{[e^{-t_1} q(t_2)\, \xi_a + e^{-t_2} q(t_1)\, \xi_b] / q(t_1 + t_2)} and
#'   the variance \eqn{\sigma^2 v\, q(t_1) q(t_2) / q(t_1 + t_2)}; outside the
#'   answered range, mean \eqn{e^{-t}\xi} and variance \eqn{\sigma^2 v\, q(t)}.
#'   These forms are exact, need no jitter, and neither overflow nor cancel
#'   (the paper's \eqn{e^{\gamma|x-y|} - e^{-\gamma|x-y|}} overflows beyond
#'   \eqn{\gamma|x - y| \approx 709}). Answered points are kept in an AVL tree:
#'   \eqn{O(\log i)} time per query.
#'
#' `method = "auto"` uses `"markov"` when the kernel allows it and the first
#' query is one-dimensional, `"cholesky"` otherwise. The dimension of the
#' points is fixed by the first query.
#'
#' A `query()` is answered point by point in the given order, but everything
#' that can be refused is refused before the first draw: points that are not
#' finite or of the wrong dimension, values of `f` that are missing or not
#' finite, and a state that would exceed `getOption("dpfda.max_doubles")`
#' doubles (read when the object is created; default \eqn{2^{29}}, 4.3 GB),
#' i.e. about 32,000 points for the general path by default. The Markov path
#' stores five doubles per point.
#'
#' Every draw comes from the package's noise source ([dp_rng()]): the
#' operating system's entropy by default; in seeded mode ([dp_reproducible()])
#' the same seed and the same queries reproduce the answers, which are then
#' **not private**; `released()` says so.
#'
#' @param f The non-private function, evaluated by the curator: an R function
#'   of the points (a numeric vector in one dimension, a `k x d` matrix with
#'   one point per row otherwise) returning one finite value per point (or a
#'   one-curve [curves()] object on those points, e.g. `function(t)
#'   kde_gaussian(x, t, b)`). It is called once per `query()` with the new
#'   points of that query only.
#' @param kernel The reproducing kernel of the RKHS in which `sensitivity` is
#'   measured, also the covariance of the noise (see [kernels]).
#' @param sensitivity Public RKHS sensitivity \eqn{\Delta}.
#' @param epsilon,delta Privacy parameters, spent once for all queries.
#' @param budget `NULL`, or a [privacy_budget()] to charge (the release is
#'   refused, with an error of class `dpfda_error_budget`, when it would
#'   exceed the budget).
#' @param calibration `"analytic"`, `"hall"` or `"classical"`; see
#'   [dp_noise_scale()]. Float noise only (exact noise is calibrated by zCDP).
#' @param tau Jitter of the general path, relative to the kernel variance, in
#'   \eqn{(0, 0.01]}. Unused by the Markov path, which is exact.
#' @param method `"auto"`, `"cholesky"` (general kernel) or `"markov"` (exact
#'   exponential kernel in one dimension).
#' @param noise `"exact"` (default): discrete Gaussian steps on a lattice of
#'   the whitened coordinates, zCDP-calibrated, no tail limit (section *Exact
#'   noise*); or `"float"`: floating-point Gaussian noise with the `calibration`
#'   given, refused outside its regime ([float_tails]).
#' @param ... For `dp_online()`: passed to [dp_noise_scale()]
#'   (`allow_large_epsilon`). Ignored by the methods.
#' @param object,x For `query()`: an online release and the points to answer
#'   (a numeric vector of one-dimensional points, or a matrix with one point
#'   per row), answered one after the other in the given order. For
#'   `print()` and `length()`: an online release.
#' @return `dp_online()`: a curator-side object of class `dpfda_online_session` (an
#'   environment). `query()`: the answers, one per row of `x`, in order.
#'   `released()`: a `dpfda_release` (subclasses `dpfda_online_release`,
#'   `dpfda_gp_release`) with the answered points (sorted in one dimension,
#'   in query order otherwise) and their answers; [predict()] on it kriges the
#'   released values (post-processing). `length()`: the number of distinct
#'   points answered (0 for a reloaded copy, whose state is gone).
#' @references Hall, R., Rinaldo, A. and Wasserman, L. (2013). Differential
#'   privacy for functions and functional data. *Journal of Machine Learning
#'   Research* 14, 703--727. Canonne, C., Kamath, G. and Steinke, T. (2020).
#'   The discrete Gaussian for differential privacy. *NeurIPS*. Feldman, V.
#'   and Zrnic, T. (2021). Individual privacy accounting via a Renyi filter.
#'   *NeurIPS*.
#' @seealso [dp_gp_release()] for the batch release on a fixed grid;
#'   [exact_noise], [float_tails].
#' @examples
#' old <- dp_reproducible(1)   # seeded: reproducible, NOT private
#' o <- dp_online(function(t) sin(2 * pi * t), kernel_exponential(0.1),
#'                sensitivity = 0.1, epsilon = 1, delta = 1e-5)
#' o                          # prints no private value
#' a <- query(o, 0.5)
#' b <- query(o, c(0.1, 0.9, 0.5))   # 0.5 again: the same answer
#' identical(a, b[3])
#' length(o)
#' released(o)
#'
#' # general kernel, points in the plane
#' o2 <- dp_online(function(p) p[, 1] * p[, 2], kernel_gaussian(0.5),
#'                 sensitivity = 0.1, epsilon = 1, delta = 1e-5)
#' query(o2, rbind(c(0, 0), c(0.5, 0.5)))
#' dp_rng(old)
#' @export
dp_online <- function(f, kernel, sensitivity, epsilon, delta,
                      calibration = c("analytic", "hall", "classical"), tau = 1e-10,
                      method = c("auto", "cholesky", "markov"), ..., noise = c("exact", "float"),
                      budget = NULL) {
  check_required(c("f", "kernel", "sensitivity", "epsilon", "delta"),
                 advice = list(f = "the private function: an R function of the points"))
  budget <- release_open(budget, epsilon, delta)
  call <- match.call()
  noise <- check_choice(noise, c("exact", "float"), "noise")
  if (!is.function(f)) arg_error("f", "an R function of the points", f)
  check_kernel(kernel)
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  tau <- check_number(tau, "tau", lower = 0, lower_open = TRUE, upper = 1e-2)
  method <- check_choice(method, c("auto", "cholesky", "markov"), "method")
  check_noise_dots(list(...), "dp_online")
  sigma <- dp_noise_scale(sensitivity, epsilon, delta, calibration = calibration, ...)
  markov_ok <- kernel_is_markov_1d(kernel)
  if (method == "markov" && !markov_ok) {
    dpfda_abort(paste("`method = \"markov\"` needs the exponential kernel (or Matern with nu = 1/2)",
                      "on one-dimensional points."), arg = "method")
  }
  if (method == "markov" && !is.na(kernel$dim) && kernel$dim != 1L) {
    dpfda_abort("`method = \"markov\"` needs a one-dimensional kernel.", arg = "method")
  }
  amp <- sigma * sqrt(kernel$variance)
  gamma <- if (markov_ok) 1 / kernel$lengthscale else 0
  if (!is.finite(amp) || !is.finite(gamma)) {
    dpfda_abort(sprintf(paste("The noise amplitude overflows (noise scale %s, kernel variance %s,",
                              "lengthscale %s); rescale the problem."),
                        format(sigma), format(kernel$variance), format(kernel$lengthscale)),
                class = "dpfda_error_numeric")
  }
  # memory limit of the state, read once: options(dpfda.max_doubles = ), as check_alloc();
  # it also bounds the number of answered points, which the exact accounting needs
  max_doubles <- as.double(getOption("dpfda.max_doubles", 2^29))
  ex <- NULL
  if (noise == "exact" && sigma > 0) {
    ex <- online_exact_params(sigma, kernel, as.double(sensitivity), epsilon, delta, max_doubles)
    sigma <- ex$sigma
    amp <- ex$amp
  } else if (noise == "float") {
    # float noise only inside its regime (?float_tails), counted for every point the state can
    # hold (the session refuses more, whatever the path): the tail mass grows with that count
    check_float_tails("gaussian", epsilon, delta, m = online_capacity(max_doubles),
                      shift = if (sigma > 0) as.double(sensitivity) / sigma else 0, what = "dp_online()",
                      calibration = calibration)
  }
  # one noise path answers every later query: the whole session is one release
  release_close(NULL, budget, "dp_online", total = NULL,
                list(privacy_part(epsilon, delta, mu = if (is.null(ex) && sigma > 0) as.double(sensitivity) / sigma,
                                  rho = ex$rho)))
  st <- new.env(parent = emptyenv())
  # (a target may return a one-curve curves object on the queried points, as kde_gaussian(x, t, b) does)
  st$f <- function(p) curve_values_at(f(p), p, "f")
  st$kernel <- kernel
  st$sensitivity <- as.double(sensitivity)
  st$epsilon <- as.double(epsilon)
  st$delta <- as.double(delta)
  st$calibration <- calibration
  st$noise_scale <- sigma
  st$tau <- tau
  st$method <- method
  st$call <- call
  st$d <- NULL        # fixed by the first query
  st$kind <- NULL     # "markov" or "cholesky", fixed by the first query
  st$general <- NULL  # kind == "cholesky"
  st$pid <- Sys.getpid()
  st$max_doubles <- max_doubles
  st$noise <- noise
  st$exact <- ex      # NULL: float noise (or no noise at sensitivity 0)
  st$fast <- FALSE    # TRUE once the first query chose the Markov path (query1 in C)
  st$ptr <- c_online_create(amp, tau, kernel_code(kernel),
                            as.double(if (is.null(kernel$nu)) 0.5 else kernel$nu), gamma,
                            if (!is.null(ex)) c(2^-ex$k, ex$p, ex$nmax, ex$unit))
  class(st) <- "dpfda_online_session"
  st
}

#' @rdname dp_online
#' @export
query <- function(object, x, ...) {
  # explicit checks, not check_required(): query() is called once per point
  if (missing(object)) require_arg_error("object", "query", "a dp_online() release")
  if (missing(x)) require_arg_error("x", "query", "the public points at which to answer (a number or vector)")
  # fast path, before dispatch: one finite double on the Markov (OU) path of a dpfda_online_session
  # object is answered by one C call that checks everything itself (search, f, draw, insertion);
  # integer 0 means "not handled": dispatch as usual, the method checks and reports
  out <- c_online_query1(object, x)
  if (is.double(out)) return(out)
  if (is.null(out)) online_unavailable(object)
  if (out) online_failure(out, NA_real_, NULL, 1L, object)   # a status after the draw
  UseMethod("query")
}

#' @export
query.default <- function(object, x, ...) {
  arg_error("object", "an online release made by dp_online()", object)
}

#' @rdname dp_online
#' @export
query.dpfda_online_session <- function(object, x, ...) {
  # .subset2() skips `$` dispatch on the classed environment
  # (the C entry points also refuse to answer in a process other than the creator's)
  ptr <- if (is.environment(object)) .subset2(object, "ptr")
  if (typeof(ptr) != "externalptr") arg_error("object", "an online release made by dp_online()", object)
  if (is.numeric(x) && is.null(dim(x)) && length(x) >= 1L && all(is.finite(x))) {
    if (!is.double(x)) x <- as.double(x)     # a vector: one-dimensional points
    dx <- 1L
  } else {
    x <- as_points(x, "x")
    dx <- ncol(x)
  }
  d <- .subset2(object, "d")
  if (is.null(d) || (dx != d && identical(c_online_count(ptr), 0L))) {
    # (the first query fixes the dimension; one that answered nothing, e.g. f's values refused, does not)
    d <- online_setup(object, dx)
  } else if (dx != d) {
    dpfda_abort(sprintf("`x` must have %d column%s (the dimension of the earlier queries), not %d.",
                        d, if (d == 1L) "" else "s", dx), arg = "x")
  }
  xs <- NULL
  if (.subset2(object, "general")) {
    if (is.null(dim(x))) x <- matrix(x, ncol = 1L)
    xs <- kernel_scale_points(.subset2(object, "kernel"), x, "x")
  }
  need <- c_online_plan(ptr, x)
  if (is.null(need)) online_unavailable(object)
  v <- NULL
  if (nn <- length(need)) {
    pts <- if (is.null(dim(x))) { if (nn == length(x)) x else x[need] }
      else if (nn == nrow(x)) x else x[need, , drop = FALSE]
    v <- withCallingHandlers(.subset2(object, "f")(pts), error = online_f_failed)
    if (!is.double(v) && is.numeric(v)) v <- as.double(v)
  }
  # C checks the values of f (number, finiteness) and the memory before any draw
  out <- c_online_answer(ptr, x, xs, need, v, .subset2(object, "max_doubles"))
  if (is.null(out)) online_unavailable(object)
  status <- attr(out, "status")
  if (!is.null(status)) online_failure(status, out, v, nn, object)
  out
}

#' @rdname dp_online
#' @export
released <- function(object, ...) {
  check_required()
  UseMethod("released")
}

#' @export
released.default <- function(object, ...) {
  arg_error("object", "an online release made by dp_online()", object)
}

#' @rdname dp_online
#' @export
released.dpfda_online_session <- function(object, ...) {
  online_check(object)
  res <- c_online_collect(object$ptr)
  if (is.null(res)) online_unavailable(object)
  n <- length(res$values)
  if (n == 0L) {
    dpfda_abort("No query has been answered yet: there is nothing to release.",
                class = "dpfda_error_state", arg = "object")
  }
  vals <- res$values
  if (object$d == 1L) {
    grid <- res$points[, 1L]
    o <- order(grid)
    grid <- grid[o]
    vals <- vals[o]
  } else {
    grid <- res$points
  }
  cv <- new_dpfda_curves(matrix(vals, nrow = 1L), grid, as_domain(NULL, grid))
  rel <- new_online_release(cv, mechanism = "gp_online", epsilon = object$epsilon,
                            delta = object$delta, sensitivity = object$sensitivity,
                            noise_scale = object$noise_scale, noise = object$kernel,
                            call = object$call, calibration = object$calibration,
                            jitter = if (object$kind == "cholesky") object$tau * object$kernel$variance else 0,
                            sampler = paste0("online-", object$kind, if (!is.null(object$exact)) "-exact"),
                            queries = n, noise_exact = if (!is.null(object$exact)) TRUE,
                            grid_step = object$exact$step, calibration_exact = if (!is.null(object$exact)) "zcdp",
                            zcdp_rho = object$exact$rho)
  # the noise source of the session's draws, not of now
  rel$rng <- if (isTRUE(res$seeded)) "seeded" else "secure"
  rel
}

#' The release of released() on a dp_online() session: class
#' `dpfda_online_release`, a `dpfda_gp_release` on the queried points.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `call` is dp_online()'s.
#' @param calibration How sigma was calibrated.
#' @param jitter The diagonal jitter of the Cholesky path (0 on the Markov
#'   path).
#' @param sampler "online-markov" or "online-cholesky" (with "-exact").
#' @param queries The number of points answered.
#' @param noise_exact,grid_step,calibration_exact,zcdp_rho The exact-noise
#'   record (always stored, NULL for float noise).
#' @noRd
new_online_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                               call = NULL, calibration = NULL, jitter = NULL, sampler = NULL, queries = NULL,
                               noise_exact = NULL, grid_step = NULL, calibration_exact = NULL, zcdp_rho = NULL) {
  release_from_fields(new_online_release, c("dpfda_online_release", "dpfda_gp_release"),
                      nullable = c("noise_exact", "grid_step", "calibration_exact", "zcdp_rho"))
}

#' @rdname dp_online
#' @export
print.dpfda_online_session <- function(x, ...) {
  n <- if (is.environment(x) && typeof(x$ptr) == "externalptr") c_online_count(x$ptr) else -1L
  cat("<dpfda_online_session> CURATOR-SIDE online session: it holds the data.\n")
  cat("  Do not share, save or serialise it; only its answers are public.\n")
  if (!is.environment(x) || is.null(x$kernel)) return(invisible(x))
  cat(sprintf("  Gaussian-process noise, (epsilon = %s, delta = %s)-DP for any number of adaptive queries\n",
              format(x$epsilon, digits = 4), format(x$delta, digits = 4)))
  if (is.null(x$exact)) {
    cat(sprintf("  sensitivity %s, noise scale %s (%s calibration, float noise)\n", format(x$sensitivity, digits = 4),
                format(x$noise_scale, digits = 4), x$calibration))
  } else {
    cat(sprintf("  sensitivity %s, noise scale %s (exact noise: discrete Gaussian steps, lattice %s, zCDP rho %s)\n",
                format(x$sensitivity, digits = 4), format(x$noise_scale, digits = 4),
                format(x$exact$step, digits = 3), format(x$exact$rho, digits = 4)))
  }
  cat("  noise: ", format(x$kernel), "\n", sep = "")
  path <- if (is.null(x$kind)) sprintf("chosen at the first query (method = \"%s\")", x$method)
    else if (x$kind == "markov") "exact Ornstein-Uhlenbeck (Markov), O(log i) per query"
    else sprintf("incremental Cholesky, jitter %s, O(i^2) per query", format(x$tau * x$kernel$variance, digits = 3))
  cat("  path: ", path, "\n", sep = "")
  if (n < 0L) {
    cat("  STATE LOST (saved and reloaded): this copy cannot answer queries.\n")
  } else {
    cat(sprintf("  answered %d distinct point%s; released() gives the public answers\n", n,
                if (n == 1L) "" else "s"))
  }
  print_noise_source(dp_rng())
  invisible(x)
}

#' @rdname dp_online
#' @export
length.dpfda_online_session <- function(x) {
  if (!is.environment(x) || typeof(x$ptr) != "externalptr") return(0L)
  max(0L, c_online_count(x$ptr))
}
