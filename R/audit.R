# Empirical privacy auditing: a statistical lower bound on epsilon from
# repeated runs of a mechanism on two neighbouring data sets.

#' Audit a mechanism: an empirical lower bound on epsilon
#'
#' Runs `mechanism` `n` times on `data` and `n` times on `neighbour` (in the
#' seeded noise mode, so the audit is reproducible), reduces each output to
#' one number by a projection, and looks for an event \eqn{E} (a threshold
#' on the projection, as in the stochastic testers of the major DP
#' libraries) for which \eqn{P_1(E) > e^{\epsilon} P_2(E) + \delta} can be
#' shown. The event is chosen on the first half of the runs; the bound is
#' computed on the second half only, so the selection does not bias it:
#' \deqn{\epsilon_{lower} = \log\frac{\underline p_1 - \delta}{\overline p_2},}
#' with Clopper-Pearson bounds \eqn{\underline p_1} (lower) and
#' \eqn{\overline p_2} (upper), each at level \eqn{1 - (1 - c)/2} for
#' `confidence` \eqn{c}, so that with probability at least \eqn{c} the true
#' \eqn{\epsilon} of an \eqn{(\epsilon, \delta)}-DP mechanism is at least
#' `epsilon_lower`. Both directions (data against neighbour and back) and
#' both sides of every threshold are candidates.
#'
#' A correct mechanism gives `epsilon_lower` below its \eqn{\epsilon}
#' (except with probability at most \eqn{1 - c}); a mechanism whose noise is
#' too small gives a bound above it once `n` is large enough. An audit can
#' only ever *refute* a privacy claim: a small bound proves nothing, and its
#' power depends on the neighbours (use worst-case ones) and the projection.
#'
#' **Projections.** `"lda"` (default for vector outputs): the direction
#' \eqn{S^{-1}(\bar x_1 - \bar x_2)} from the means and pooled covariance of
#' the first half (optimal for Gaussian noise); `"laplace"`: the
#' log-likelihood ratio of independent Laplace coordinates,
#' \eqn{\sum_j (|x_j - m_{2j}| - |x_j - m_{1j}|)/b_j} with medians \eqn{m}
#' and mean absolute deviations \eqn{b} from the first half (optimal for
#' Laplace noise); `"identity"` for scalar outputs; or a function of one
#' output returning one number.
#'
#' **Replayed runs.** With `digits` (audits in idealised arithmetic), runs
#' need not all be made end to end. In the seeded mode each run draws its noise
#' from R's generator through one of the package's samplers, and most
#' mechanisms are affine in those variates: output \eqn{= T + A z}, with
#' \eqn{T} and \eqn{A} fixed by the data set and the public parameters. The
#' audit reads off which sampler a run uses and how many variates it consumes,
#' fits \eqn{T} and \eqn{A} to a few dozen runs made end to end, and then
#' makes only a share `genuine` of the remaining runs end to end; the others are
#' \eqn{T + A z} for the variates that the next run would have drawn, so every
#' row is (up to rounding) the output the mechanism returns at that position of
#' the random stream. Every run made end to end must consume the same number of
#' variates and agree with the fit to 1e-11 of the output's scale; at the first
#' disagreement (a mechanism that is not affine in its noise, such as an
#' exponential mechanism or exact integer noise) all runs are made end to end
#' from the same seed, so the result is the same as with `genuine = 1`. A
#' non-affine effect that occurs in fewer than about one in `genuine * n` runs
#' can escape the checks: use `genuine = 1` to audit such rare branches. Which
#' path was taken is in the `replay` field.
#'
#' @param mechanism A function of one data set returning a release (a
#'   `dpfda_release`, a `dpfda_selection`, a `dpfda_bandwidth`, or a numeric
#'   vector); it should pass the data on to a mechanism of the package (or
#'   draw its noise through [rlaplace()] / [dp_rng()]) so the seed applies.
#'   Releases it makes with a `budget` are not charged to it (the audit
#'   publishes none of them; its noise is seeded).
#'   Its errors stop the audit with a classed error naming the data set (it
#'   keeps the class of the mechanism's own classed error); its
#'   own warnings come back once per data set and message, with their count,
#'   as a `dpfda_warning_audit`; the package's warnings come back the same
#'   way (once, with their count), keeping their classes.
#' @param data,neighbour Two neighbouring data sets (any R objects that
#'   `mechanism` accepts).
#' @param n Runs per data set (at least 100; half select the event, half
#'   bound it).
#' @param epsilon The claimed \eqn{\epsilon} (optional; reported and
#'   compared).
#' @param delta The claimed \eqn{\delta}, subtracted in the bound.
#' @param projection `"lda"`, `"laplace"`, `"identity"` or a function of
#'   one output as a numeric vector (the values the mechanism returned, e.g.
#'   a release's values on its grid; not the release object), returning one
#'   number. `"lda"` (Fisher's direction between the two data sets' outputs)
#'   suits Gaussian noise; for Laplace noise on many coordinates (ICLP, FRL,
#'   Bernstein releases) `"laplace"` (the log-likelihood ratio of
#'   independent Laplace coordinates) has more power: on `dp_kde(mechanism =
#'   "iclp")` of two neighbouring data sets it refuted a claimed epsilon of
#'   0.1 for an epsilon-1 release where `"lda"` did not.
#' @param confidence Confidence level of the bound, in (0, 1).
#' @param seed Seed of the runs (the user's R random state is restored).
#' @param thresholds Number of candidate thresholds (quantiles of the first
#'   half).
#' @param digits `NULL` (default) to audit the outputs as they are, bit for
#'   bit; or a number of significant digits to round them to first, which
#'   audits the mechanism in idealised arithmetic. Floating-point noise
#'   (`noise = "float"`) leaks through the lowest bits of its outputs
#'   (Mironov, 2012), and an audit of the raw outputs can find events that
#'   exploit it (for instance thresholds at an exactly repeated value);
#'   mechanisms with `noise = "exact"` release values on a grid and have no
#'   such leak.
#' @param genuine The share of runs made end to end when the runs are
#'   replayed (see Details; only with `digits`): 0.1 (default) makes every
#'   tenth run by calling `mechanism` and checks it against the replay, 1 makes
#'   every run end to end.
#' @param x A `dpfda_audit`.
#' @param breaks Histogram breaks.
#' @param ... Unused (plot: passed to [graphics::plot()]).
#' @return A `dpfda_audit`: a list with `epsilon_lower`, `estimate` (the
#'   plug-in estimate on the second half, with half a count added to the
#'   smaller frequency), `epsilon`, `delta`,
#'   `confidence`, `n`, `event` (`threshold`, `side` `">"` or `"<="`,
#'   `direction` `"data>neighbour"` or `"neighbour>data"`), `counts` and
#'   `n_eval` of the second half, `passed` (`epsilon_lower <= epsilon`, or
#'   `NA`), `projections` (the projected second-half outputs, for the
#'   plot), and `replay` (per data set: the sampler and the number of variates
#'   per run of the replay, or `NA`, and how many runs were made end to end and
#'   replayed). `plot()` draws the two distributions and the event.
#' @references Ding, Z., Wang, Y., Wang, G., Zhang, D. and Kifer, D. (2018).
#'   Detecting violations of differential privacy. *CCS*. Jagielski, M.,
#'   Ullman, J. and Oprea, A. (2020). Auditing differentially private
#'   machine learning. *NeurIPS*.
#' @examples
#' # Laplace mechanism on a count: correct, then with 0.7 times the noise
#' good <- function(d) sum(d) + rlaplace(1, 1 / 1)
#' bad <- function(d) sum(d) + rlaplace(1, 0.7 / 1)
#' a <- dp_audit(good, c(1, 0, 1), c(1, 0, 0), n = 5000, epsilon = 1)
#' a
#' dp_audit(bad, c(1, 0, 1), c(1, 0, 0), n = 5000, epsilon = 1)$epsilon_lower
#' plot(a)
#' # in idealised arithmetic (digits): nine runs in ten are replayed, same bound
#' r <- dp_audit(good, c(1, 0, 1), c(1, 0, 0), n = 5000, epsilon = 1, digits = 10)
#' c(r$epsilon_lower, a$epsilon_lower)
#' r$replay$data
#' @export
dp_audit <- function(mechanism, data, neighbour, n = 10000, epsilon = NULL, delta = 0,
                     projection = c("lda", "laplace", "identity"), confidence = 0.95, seed = 1,
                     thresholds = 64, digits = NULL, genuine = 0.1, ...) {
  check_dot_names(dot_args(), character(), "dp_audit")
  check_required()
  if (!is.function(mechanism)) arg_error("mechanism", "a function of one data set", mechanism)
  if (missing(data)) arg_error("data", "a data set", NULL)
  if (missing(neighbour)) arg_error("neighbour", "a neighbouring data set", NULL)
  n <- check_count(n, "n", min = 100, max = 1e8)
  if (!is.null(epsilon)) epsilon <- check_epsilon(epsilon)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  if (!is.function(projection)) projection <- check_choice(projection, c("lda", "laplace", "identity"),
                                                           "projection")
  confidence <- check_number(confidence, "confidence", lower = 0, upper = 1, lower_open = TRUE,
                             upper_open = TRUE, what = "a number strictly between 0 and 1")
  seed <- check_count(seed, "seed", min = -.Machine$integer.max)
  thresholds <- check_count(thresholds, "thresholds", min = 1, max = 1e4)
  if (!is.null(digits)) digits <- check_count(digits, "digits", min = 1, max = 22)
  genuine <- check_number(genuine, "genuine", lower = 0, upper = 1, lower_open = TRUE,
                          what = "a number in (0, 1]")

  # seeded runs; the caller's noise mode and R random state are restored
  had_seed <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had_seed) saved <- get(".Random.seed", envir = globalenv(), inherits = FALSE)
  old <- dp_reproducible(seed)
  on.exit({
    dp_rng(old)
    if (had_seed) assign(".Random.seed", saved, envir = globalenv())
    else if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
      rm(".Random.seed", envir = globalenv())
    }
  }, add = TRUE)
  # outputs audited in idealised arithmetic may be replayed (audit_replay_runs);
  # bit-for-bit audits make every run end to end
  batch <- !is.null(digits)
  X1 <- audit_runs(mechanism, data, n, "data", genuine, batch)
  X2 <- audit_runs(mechanism, neighbour, n, "neighbour", genuine, batch)
  replay <- list(data = attr(X1, "replay"), neighbour = attr(X2, "replay"))
  if (!is.null(digits)) {
    X1 <- signif(X1, digits)
    X2 <- signif(X2, digits)
  }
  if (ncol(X1) != ncol(X2)) {
    dpfda_abort("`mechanism` returns outputs of different lengths on `data` and `neighbour`.",
                arg = "mechanism")
  }
  half <- n %/% 2
  sel <- seq_len(half)
  ev <- seq.int(half + 1L, n)
  proj <- audit_projection(projection, X1[sel, , drop = FALSE], X2[sel, , drop = FALSE])
  p1 <- proj(X1)
  p2 <- proj(X2)
  if (!all(is.finite(p1)) || !all(is.finite(p2))) {
    dpfda_abort("The projection of the outputs is not finite.", class = "dpfda_error_numeric",
                arg = "projection")
  }
  alpha <- (1 - confidence) / 2
  # choose the event on the first half: the largest bound there, at a level
  # corrected for the number of candidates (which favours events with many
  # counts over lucky tail events: the winner's curse)
  best <- audit_select_event(p1[sel], p2[sel], thresholds, delta, alpha)
  # bound on the second half only
  a <- if (best$direction == "data>neighbour") p1[ev] else p2[ev]
  b <- if (best$direction == "data>neighbour") p2[ev] else p1[ev]
  ca <- audit_count(a, best$threshold, best$side)
  cb <- audit_count(b, best$threshold, best$side)
  ne <- length(ev)
  lower <- max(0, audit_bound(ca, cb, ne, delta, alpha))
  # plug-in estimate, with half a count added below so that it stays finite
  est <- if (ca / ne > delta) max(0, log((ca / ne - delta) / ((cb + 0.5) / ne))) else 0
  structure(list(epsilon_lower = lower, estimate = est, epsilon = epsilon, delta = delta,
                 confidence = confidence, n = n,
                 event = list(threshold = best$threshold, side = best$side, direction = best$direction),
                 counts = c(first = ca, second = cb), n_eval = ne,
                 passed = if (is.null(epsilon)) NA else lower <= epsilon,
                 projection = if (is.function(projection)) "user" else projection, digits = digits,
                 replay = replay,
                 projections = list(data = p1[ev], neighbour = p2[ev])),
            class = "dpfda_audit")
}

# n outputs of the mechanism as rows of a matrix: every run end to end, or
# (batch = TRUE) the replay of audit_replay_runs() where it applies.
audit_runs <- function(mechanism, d, n, what, genuine = 1, batch = FALSE) {
  # the mechanism's own warnings (not dpfda's), once each with their count and the data set, as a
  # dpfda_warning_audit: thousands of runs would otherwise repeat them thousands of times
  # the package's own warnings the same way, with their classes (2000 runs gave 2000 times "the release
  # is mostly noise")
  warned <- list()
  ours <- list()
  out <- withCallingHandlers(audit_runs_all(mechanism, d, n, what, genuine, batch), warning = function(w) {
    m <- conditionMessage(w)
    if (inherits(w, "dpfda_warning")) {
      key <- paste(class(w)[1L], m, sep = "\r")
      ours[[key]] <<- list(class = setdiff(class(w), c("warning", "condition")), message = m,
                           count = (if (is.null(ours[[key]])) 0 else ours[[key]]$count) + 1)
    } else {
      warned[[m]] <<- (if (is.null(warned[[m]])) 0 else warned[[m]]) + 1
    }
    invokeRestart("muffleWarning")
  })
  times <- function(k) sprintf("%d time%s", k, if (k == 1) "" else "s")
  for (w in ours) {
    dpfda_warn(sprintf("%s (%s, in the audit's runs on `%s`)", w$message, times(w$count), what), w$class)
  }
  for (m in names(warned)) {
    dpfda_warn(sprintf("`mechanism` warned on `%s` (%s): %s", what, times(warned[[m]]), m), "dpfda_warning_audit")
  }
  out
}

audit_runs_all <- function(mechanism, d, n, what, genuine, batch) {
  bar <- dp_progress(n, sprintf("dp_audit(): %d runs on the %s", n, what))
  on.exit(bar$done())
  if (batch && genuine < 1) {
    s0 <- audit_seed()
    out <- audit_replay_runs(mechanism, d, n, what, genuine, bar)
    if (!is.null(out)) return(out)
    audit_seed(s0)   # not affine in its noise: every run end to end, from the same seed
  }
  first <- audit_vector(audit_call(mechanism, d, what), what)
  m <- length(first)
  out <- matrix(0, n, m)
  out[1L, ] <- first
  for (i in seq_len(n - 1L) + 1L) {
    out[i, ] <- audit_one(mechanism, d, what, m)
    if (i %% 100L == 0L) bar$tick(100L)
  }
  attr(out, "replay") <- list(family = NA_character_, variates = NA_integer_, genuine = n, replayed = 0L)
  out
}

audit_one <- function(mechanism, d, what, m) {
  v <- audit_vector(audit_call(mechanism, d, what), what)
  if (length(v) != m) dpfda_abort("`mechanism` returns outputs of varying length.", arg = "mechanism")
  v
}

# The replay path. In the seeded mode every draw of the package comes from R's
# generator through one of four samplers of the C noise source (src/rng.c), and
# most mechanisms are affine in those variates: output = T + A z, with T and A
# fixed by the data set and the public parameters (calibration, kernel, grid,
# basis). Then the runs need not all be made end to end:
#   1. two runs from the audit's seed; the sampler and the number p of
#      variates the second consumed are found by replaying the generator from
#      the same state (the state after the run must be reached exactly; the
#      first run may do one-off work, such as filling a cache);
#   2. 2p + 9 more runs end to end; the variates each of them consumed are
#      replayed, and T and A are fitted to them by least squares; the fit must
#      reproduce every run (to 1e-11 of each output's scale);
#   3. the other runs: between runs made end to end (a share `genuine` of all
#      runs), the next variates of the stream are drawn through the same
#      sampler and mapped by T + A z, in blocks. Each run made end to end must
#      consume exactly p variates and equal T + A z for its own variates.
# So every replayed row is the output the mechanism would have returned at
# that position of the stream (up to rounding), not a draw from a model of
# it: the noise comes from the package's sampler, the calibration and the
# noise structure from the mechanism's own code. NULL (nothing kept) as soon
# as a check fails: the caller then makes every run end to end.
audit_replay_runs <- function(mechanism, d, n, what, genuine, bar) {
  first <- audit_vector(audit_call(mechanism, d, what), what)
  m <- length(first)
  s1 <- audit_seed()
  second <- audit_one(mechanism, d, what, m)
  s2 <- audit_seed()
  cands <- audit_find_sampler(s1, s2, pmax = 8L * m + 64L)
  if (!length(cands)) return(NULL)
  audit_seed(s2)
  k <- min(n - 1L, 2L * max(vapply(cands, `[[`, 0L, "p")) + 10L)
  Y <- matrix(0, k, m)
  Y[1L, ] <- second
  for (i in seq_len(k - 1L) + 1L) Y[i, ] <- audit_one(mechanism, d, what, m)
  sk <- audit_seed()
  fit <- NULL
  for (found in cands) {
    audit_seed(s1)
    p <- found$p
    Z <- matrix(audit_draw(found$family, k * p), k, p, byrow = TRUE)
    # every run must have consumed exactly p variates, and the fit must hold
    if (identical(audit_seed(), sk)) fit <- audit_affine_fit(Y, Z)
    if (!is.null(fit)) break
  }
  if (is.null(fit)) return(NULL)
  out <- matrix(0, n, m)
  out[1L, ] <- first
  out[1L + seq_len(k), ] <- Y
  every <- max(2L, as.integer(round(1 / genuine)))
  i <- k + 1L
  made <- k + 1L
  while (i < n) {
    b <- min(every - 1L, n - i)           # replayed rows ...
    zb <- matrix(audit_draw(found$family, b * p), b, p, byrow = TRUE)
    out[i + seq_len(b), ] <- audit_affine_apply(fit, zb)
    i <- i + b
    if (i < n) {                          # ... then one run end to end, checked
      s <- audit_seed()
      z <- matrix(audit_draw(found$family, p), 1L, p)
      sz <- audit_seed()
      audit_seed(s)
      v <- audit_one(mechanism, d, what, m)
      if (!identical(audit_seed(), sz) || !audit_affine_ok(fit, matrix(v, 1L), z)) return(NULL)
      i <- i + 1L
      made <- made + 1L
      out[i, ] <- v
    }
    bar$tick(every)
  }
  attr(out, "replay") <- list(family = found$family, variates = p, genuine = made, replayed = n - made)
  out
}

audit_seed <- function(state = NULL) {
  if (is.null(state)) return(get0(".Random.seed", envir = globalenv(), inherits = FALSE))
  assign(".Random.seed", state, envir = globalenv())
  invisible(state)
}

# The standard variates of the noise source (seeded mode), k at a time.
audit_samplers <- c("normal", "laplace", "exponential", "uniform")
audit_draw <- function(family, k) {
  k <- as.double(k)
  if (k == 0) return(numeric(0))
  switch(family,
         normal = c_rng_draw(k, 1L),
         laplace = c_laplace_draw(k, 1),
         exponential = c_rng_draw(k, 2L),
         uniform = c_rng_draw(k, 0L))
}

# The samplers and counts p of variates that take the generator from state s0
# to s1 (p = 0: the run drew nothing), within pmax draws each. Samplers that
# consume the generator alike tie (one normal and one Laplace variate both
# take two uniforms, mostly): all are returned, and the fit decides.
audit_find_sampler <- function(s0, s1, pmax) {
  if (identical(s0, s1)) return(list(list(family = "none", p = 0L)))
  out <- list()
  for (f in audit_samplers) {
    audit_seed(s0)
    for (p in seq_len(pmax)) {
      audit_draw(f, 1)
      if (identical(audit_seed(), s1)) {
        out[[length(out) + 1L]] <- list(family = f, p = p)
        break
      }
    }
  }
  out
}

# Y = 1 T' + Z A' by least squares; NULL unless the fit is exact to rounding.
audit_affine_fit <- function(Y, Z) {
  X <- cbind(1, Z)
  q <- qr(X)
  if (q$rank < ncol(X)) return(NULL)
  fit <- list(B = qr.coef(q, Y), scale = pmax(apply(abs(Y), 2L, max), .Machine$double.xmin))
  if (anyNA(fit$B) || !audit_affine_ok(fit, Y, Z)) return(NULL)
  fit
}

audit_affine_apply <- function(fit, Z) {
  out <- cbind(1, Z) %*% fit$B
  dimnames(out) <- NULL
  out
}

audit_affine_ok <- function(fit, Y, Z) {
  err <- abs(Y - audit_affine_apply(fit, Z))
  all(err <= 1e-11 * rep(fit$scale, each = nrow(Y)))
}

# One run of the mechanism. Its releases are never published, so no budget is charged nor can
# refuse them (audit_state$active: ledger_commit() does nothing); an audit of a release with
# `budget =` spent the budget in its first runs and then failed on the refusal. A failure keeps
# the mechanism's own error class (a classed error of the package still reads as one).
audit_state <- new.env(parent = emptyenv())
audit_state$active <- FALSE
audit_call <- function(mechanism, d, what) {
  was <- audit_state$active
  audit_state$active <- TRUE
  on.exit(audit_state$active <- was, add = TRUE)
  tryCatch(mechanism(d), error = function(e) {
    own <- setdiff(class(e), c("dpfda_error", "error", "condition", "simpleError", "rlang_error"))
    dpfda_abort(sprintf("`mechanism` failed on `%s`: %s", what, conditionMessage(e)),
                class = unique(c(own, "dpfda_error_argument")), arg = "mechanism")
  })
}

audit_vector <- function(out, what) {
  v <- if (inherits(out, "dpfda_release")) as.vector(out$values$values)
       else if (inherits(out, "dpfda_selection")) out$index
       else if (inherits(out, "dpfda_bandwidth")) out$bandwidth
       else if (is.numeric(out) && !is.object(out)) as.vector(out)
       else NULL
  if (is.null(v) || !length(v) || !all(is.finite(v))) {
    dpfda_abort(sprintf(paste("`mechanism` must return a dpfda release, selection, bandwidth or a",
                              "vector of finite numbers; on `%s` it returned %s."), what, describe_value(out)),
                arg = "mechanism")
  }
  as.double(v)
}

# Projection (a function of an n x m output matrix) fitted on the first half.
audit_projection <- function(projection, A, B) {
  if (is.function(projection)) {
    return(function(X) vapply(seq_len(nrow(X)), function(i) {
      # (its errors classed: "$ operator is invalid for atomic vectors" came out as a plain error)
      v <- tryCatch(projection(X[i, ]), error = function(e) {
        dpfda_abort(sprintf(paste("`projection` failed on an output: %s (it receives one output as a numeric",
                                  "vector of %d values, not the release object)"), conditionMessage(e), ncol(X)),
                    arg = "projection")
      })
      if (!is.numeric(v) || length(v) != 1L) {
        dpfda_abort("`projection` must return one number per output.", arg = "projection")
      }
      as.double(v)
    }, 1))
  }
  m <- ncol(A)
  if (projection == "identity" || m == 1L) {
    if (m != 1L) dpfda_abort("`projection = \"identity\"` needs scalar outputs.", arg = "projection")
    return(function(X) X[, 1L])
  }
  if (projection == "laplace") {
    m1 <- apply(A, 2L, stats::median)
    m2 <- apply(B, 2L, stats::median)
    b <- (colMeans(abs(sweep(A, 2L, m1))) + colMeans(abs(sweep(B, 2L, m2)))) / 2
    b[!(b > 0)] <- 1
    return(function(X) {
      as.vector((abs(sweep(X, 2L, m2)) - abs(sweep(X, 2L, m1))) %*% (1 / b))
    })
  }
  d <- colMeans(A) - colMeans(B)
  S <- (stats::cov(A) + stats::cov(B)) / 2
  S <- S + diag(1e-8 * max(mean(diag(S)), .Machine$double.xmin), m)
  w <- tryCatch(solve(S, d), error = function(e) d)
  function(X) as.vector(X %*% w)
}

# The event (threshold, side, direction) with the largest bound on the
# first halves a and b, at a level corrected for the number of candidates.
# Every candidate at once: the counts below each threshold from the sorted
# halves (findInterval); ties go to the first in the order threshold, side
# (">", "<="), direction.
audit_select_event <- function(a, b, thresholds, delta, alpha) {
  half <- length(a)
  cand <- unique(stats::quantile(c(a, b), probs = seq(0, 1, length.out = thresholds + 2L),
                                 names = FALSE, type = 1))
  le1 <- findInterval(cand, sort(a))
  le2 <- findInterval(cand, sort(b))
  grid <- expand.grid(dir = c("data>neighbour", "neighbour>data"), side = c(">", "<="),
                      t = seq_along(cand), stringsAsFactors = FALSE)
  c1 <- ifelse(grid$side == ">", half - le1[grid$t], le1[grid$t])
  c2 <- ifelse(grid$side == ">", half - le2[grid$t], le2[grid$t])
  fwd <- grid$dir == "data>neighbour"
  v <- audit_bound(ifelse(fwd, c1, c2), ifelse(fwd, c2, c1), half, delta, alpha / (4 * length(cand)))
  w <- which.max(v)
  if (!is.finite(v[w])) return(list(value = 0, threshold = cand[1L], side = ">", direction = "data>neighbour"))
  list(value = v[w], threshold = cand[grid$t[w]], side = grid$side[w], direction = grid$dir[w])
}

audit_count <- function(p, t, side) if (side == ">") sum(p > t) else sum(p <= t)

# log((lower CP of ca/n - delta) / upper CP of cb/n), each one-sided at alpha
# (vectorised over the counts).
audit_bound <- function(ca, cb, n, delta, alpha) {
  lo <- numeric(length(ca))
  hi <- rep(1, length(cb))
  a <- ca > 0
  b <- cb < n
  lo[a] <- stats::qbeta(alpha, ca[a], n - ca[a] + 1)
  hi[b] <- stats::qbeta(1 - alpha, cb[b] + 1, n - cb[b])
  out <- rep(-Inf, length(lo))
  ok <- lo > delta
  out[ok] <- log((lo[ok] - delta) / hi[ok])
  out
}

#' @rdname dp_audit
#' @export
print.dpfda_audit <- function(x, ...) {
  cat(sprintf("<dpfda_audit> %d runs per data set (%d to bound), %s projection\n", x$n, x$n_eval,
              x$projection))
  cat(sprintf("  epsilon lower bound %s at confidence %s (plug-in estimate %s)%s\n",
              format(x$epsilon_lower, digits = 4), format(x$confidence),
              format(x$estimate, digits = 4),
              if (x$delta > 0) sprintf(", delta = %s accounted for", format(x$delta, digits = 3)) else ""))
  cat(sprintf("  event: projection %s %s (%s), counts %d vs %d\n", x$event$side,
              format(x$event$threshold, digits = 4), x$event$direction, x$counts[[1]], x$counts[[2]]))
  rp <- x$replay$data
  if (!is.null(rp) && !is.na(rp$family)) {
    cat(sprintf("  runs: %d end to end, %d replayed (%s noise, %d variate%s per run)\n",
                rp$genuine + x$replay$neighbour$genuine, rp$replayed + x$replay$neighbour$replayed,
                rp$family, rp$variates, if (rp$variates == 1L) "" else "s"))
  }
  if (!is.null(x$epsilon)) {
    cat(sprintf("  claimed epsilon %s: %s\n", format(x$epsilon, digits = 4),
                if (isTRUE(x$passed)) "not refuted" else "REFUTED (the mechanism leaks more than claimed)"))
  }
  invisible(x)
}

#' @rdname dp_audit
#' @export
plot.dpfda_audit <- function(x, breaks = 60, ...) {
  a <- x$projections$data
  b <- x$projections$neighbour
  br <- pretty(range(a, b), n = breaks)
  ha <- graphics::hist(a, breaks = br, plot = FALSE)
  hb <- graphics::hist(b, breaks = br, plot = FALSE)
  graphics::plot(range(br), c(0, max(ha$density, hb$density)), type = "n", xlab = "projected output",
                 ylab = "density", main = sprintf("Audit: epsilon >= %s (%s%% confidence)",
                                                  format(x$epsilon_lower, digits = 3),
                                                  format(100 * x$confidence)), ...)
  graphics::lines(ha$mids, ha$density, type = "s", col = "steelblue", lwd = 2)
  graphics::lines(hb$mids, hb$density, type = "s", col = "firebrick", lwd = 2)
  graphics::abline(v = x$event$threshold, lty = 2)
  graphics::legend("topright", c("data", "neighbour", "event threshold"),
                   col = c("steelblue", "firebrick", "black"), lty = c(1, 1, 2), bty = "n")
  invisible(x)
}
