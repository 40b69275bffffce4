# The non-private targets of the Bernstein mechanism's worked examples (Alda
# & Rubinstein 2017, Section 6): the functions whose sensitivities
# R/bernstein-sensitivity.R gives, evaluated on public points.

# ---- non-private targets ------------------------------------------------------

#' Priestley--Chao kernel regression (non-private)
#'
#' **Not private.** The Priestley--Chao estimator of the Bernstein
#' mechanism's regression example (Alda and Rubinstein 2017, Section 6):
#' \deqn{F_D(y) = \frac1b \sum_{i=2}^n (d_i - d_{i-1})\, K\!\left(\frac{y -
#' d_i}{b}\right) l_i,} with design points \eqn{d_1 \le \dots \le d_n} in
#' \eqn{[0,1]}, responses \eqn{l_i \in [-B, B]} and \eqn{K} the standard
#' normal density. Design points are clamped to \eqn{[0,1]} and responses to
#' \eqn{[-B, B]} (privacy rule 2). Ties in \eqn{d} are ordered by response
#' value, a rule that depends only on the data set as a multiset. Pass it to
#' [dp_bernstein()] inside a function of the lattice points, with
#' [sensitivity_bernstein_priestley_chao()].
#'
#' The sensitivity bound assumes that **every** data set of the universe has
#' consecutive design points at most \eqn{c/n} apart (the corrected
#' condition; see [sensitivity_bernstein]). With `gap = c` the estimator
#' checks this data set and refuses (class `dpfda_error_privacy`) when it is
#' violated. The check itself depends on the data: the curator is
#' responsible for the assumption, and a refusal should not be published.
#'
#' @param x Design points \eqn{d_i} (a numeric vector).
#' @param y Responses \eqn{l_i}, one per design point.
#' @param newdata Evaluation points (a numeric vector).
#' @param bandwidth \eqn{b > 0}.
#' @param bound \eqn{B > 0}; responses are clamped to \eqn{[-B, B]}.
#' @param gap `NULL` (no check) or \eqn{c}: refuse data whose largest
#'   consecutive gap exceeds \eqn{c/n}.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The estimate at `newdata` (a numeric vector).
#' @seealso [sensitivity_bernstein_priestley_chao()], [dp_bernstein()].
#' @examples
#' x <- seq(0, 1, length.out = 101)
#' y <- sin(2 * pi * x) + rnorm(101, sd = 0.2)
#' t <- seq(0, 1, length.out = 5)
#' priestley_chao(x, y, t, bandwidth = 0.05, bound = 2, gap = 1.5)
#' @export
priestley_chao <- function(x, y, newdata, bandwidth, bound, gap = NULL, ...) {
  check_dot_names(dot_args(), character(), "priestley_chao")
  check_required()
  x <- check_numeric_vector(x, "x")
  if (!is.numeric(y) || !is.null(dim(y)) || length(y) != length(x) || !all(is.finite(y))) {
    arg_error("y", sprintf("a numeric vector of %d finite responses (one per `x`)", length(x)), y)
  }
  newdata <- as.vector(as_points(newdata, "newdata", d = 1L))
  bandwidth <- check_number(bandwidth, "bandwidth", lower = 0, lower_open = TRUE)
  bound <- check_number(bound, "bound", lower = 0, lower_open = TRUE)
  n <- length(x)
  if (!is.null(gap)) gap <- check_number(gap, "gap", lower = 0, lower_open = TRUE)
  warn_outside_unit_box(sum(x < 0 | x > 1), n, 1L, "design points of `x`")
  x <- pmin(pmax(x, 0), 1)
  y <- pmin(pmax(as.double(y), -bound), bound)
  o <- order(x, y)
  x <- x[o]
  y <- y[o]
  if (!is.null(gap) && n >= 2L && max(diff(x)) > gap / n) {
    dpfda_abort(sprintf(paste("The data violate the assumption of the sensitivity bound: the largest",
                              "gap between consecutive design points is %s > gap / n = %s."),
                        format(max(diff(x)), digits = 4), format(gap / n, digits = 4)),
                class = "dpfda_error_privacy", arg = "x")
  }
  if (n < 2L) return(numeric(length(newdata)))
  w <- diff(x) * y[-1L] / bandwidth
  bern_kernel_sum(x[-1L], w, newdata, bandwidth)
}

#' Naive Bayes with Gaussian kernel density likelihoods (non-private)
#'
#' **Not private.** The naive Bayes score of the Bernstein mechanism's
#' classification example (Alda and Rubinstein 2017, Section 6):
#' \deqn{F_D(y) = g_+(y) - g_-(y), \quad g_l(y) = \frac{n_l}{n}
#' \prod_{j=1}^\ell \frac{1}{n_l} \sum_{i:\, l_i = l} \phi_{b_j}(y_j -
#' d_{ij}),} the class prior times the product of the one-dimensional
#' Gaussian kernel density estimates of the class (\eqn{g_l = 0} for an
#' empty class). Predict the positive class where \eqn{F_D \ge 0}. The points
#' of `x` and of `newdata` are clamped to \eqn{[0,1]^\ell}, the domain of the
#' Bernstein mechanism, with a warning (class `dpfda_warning_data`) when any
#' lies outside: rescale the features to \eqn{[0,1]} with public bounds
#' first. Release it with [dp_bernstein()] and
#' [sensitivity_bernstein_naive_bayes()].
#'
#' @param x Points: a vector (one dimension) or an `n x dim` matrix.
#' @param y Labels: \eqn{\pm 1}, 0/1, logical, or a two-level factor (the second level
#'   is the positive class).
#' @param newdata Evaluation points, with the columns of `x`.
#' @param bandwidth \eqn{b}, or one \eqn{b_j} per dimension.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return \eqn{F_D} at `newdata` (a numeric vector).
#' @seealso [sensitivity_bernstein_naive_bayes()], [dp_bernstein()].
#' @examples
#' x <- rbind(matrix(rnorm(100, 0.3, 0.1), 50), matrix(rnorm(100, 0.7, 0.1), 50))
#' y <- rep(c(1, -1), each = 50)
#' naive_bayes_kde(x, y, rbind(c(0.3, 0.3), c(0.7, 0.7)), bandwidth = 0.1)
#' @export
naive_bayes_kde <- function(x, y, newdata, bandwidth, ...) {
  check_dot_names(dot_args(), character(), "naive_bayes_kde")
  check_required()
  x <- as_points(x, "x")
  d <- ncol(x)
  y <- svm_labels(y, nrow(x))
  p <- as_points(newdata, "newdata", d = d)
  b <- bern_nb_bandwidth(bandwidth, d, data_dim = TRUE)
  # the score is defined on [0, 1]^d, the domain of the Bernstein mechanism: data and evaluation
  # points are clamped to it, and said so (clamped in silence, Boston's rm and lstat scored ~1e-29)
  out_x <- sum(rowSums(x < 0 | x > 1) > 0)
  out_p <- sum(rowSums(p < 0 | p > 1) > 0)
  if (out_x + out_p > 0) {
    dpfda_warn(sprintf(paste("%s of the %d points of `x` and %s of the %d of `newdata` lie outside [0, 1]^%d, the",
                             "domain of the score, and were moved to its edges. Rescale each feature to [0, 1] with",
                             "public bounds first, (x - lower) / (upper - lower), and the bandwidth with it."),
                       format(out_x), nrow(x), format(out_p), nrow(p), d), class = "dpfda_warning_data")
  }
  x <- pmin(pmax(x, 0), 1)
  p <- pmin(pmax(p, 0), 1)
  n <- nrow(x)
  out <- numeric(nrow(p))
  for (cl in c(1, -1)) {
    idx <- which(y == cl)
    nl <- length(idx)
    if (nl == 0L) next
    g <- rep(nl / n, nrow(p))
    for (j in seq_len(d)) {
      g <- g * bern_kernel_sum(x[idx, j], rep(1 / nl, nl), p[, j], b[j]) / b[j]
    }
    out <- out + cl * g
  }
  if (!all(is.finite(out))) {
    dpfda_abort("The naive Bayes score overflowed; use a larger `bandwidth`.",
                class = "dpfda_error_numeric", arg = "bandwidth")
  }
  out
}

#' Ridge logistic regression without intercept (non-private)
#'
#' **Not private.** Fits the logistic-regression example of Alda and
#' Rubinstein (2017, Section 6 and App. G):
#' \deqn{w^\star = \arg\min_w \frac Cn \sum_{i=1}^n \log(1 + e^{-l_i\langle
#' w, d_i\rangle}) + \frac12\|w\|_2^2,} no intercept, by Newton's method
#' (the objective is 1-strongly convex). Rows of `x` are clamped to
#' \eqn{[0,1]^\ell} and then scaled onto the unit ball when their norm
#' exceeds 1, the data domain the sensitivity assumes. The solver stops when
#' the gradient norm is at most `tol`, so \eqn{\|\hat w - w^\star\| \le}
#' `tol`; pass the same `tol` to [sensitivity_bernstein_logistic()] to cover
#' it. `predict(fit, newdata, type = c("link", "response"))` evaluates
#' \eqn{\langle \hat w, y\rangle} or its sigmoid.
#'
#' @param x Covariates: a vector or an `n x dim` matrix.
#' @param y Labels: \eqn{\pm 1}, 0/1, logical, or a two-level factor.
#' @param C Regularisation constant \eqn{C > 0} of program (5).
#' @param tol Gradient-norm tolerance.
#' @param maxit Maximum number of Newton steps.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return An object of class `dpfda_logistic_fit` with `coefficients`,
#'   `C`, `n`, `gradient_norm` and `iterations`.
#' @seealso [sensitivity_bernstein_logistic()], [dp_bernstein()].
#' @examples
#' x <- matrix(runif(400) / 2, 200)
#' y <- ifelse(x[, 1] - x[, 2] + rnorm(200, sd = 0.1) > 0, 1, -1)
#' fit <- logistic_fit(x, y, C = 10)
#' fit
#' predict(fit, rbind(c(0.4, 0.1), c(0.1, 0.4)), type = "response")
#' @export
logistic_fit <- function(x, y, C = 1, tol = 1e-10, maxit = 100L, ...) {
  check_dot_names(dot_args(), character(), "logistic_fit")
  check_required()
  x <- as_points(x, "x")
  y <- svm_labels(y, nrow(x))
  C <- check_number(C, "C", lower = 0, lower_open = TRUE, upper = 1e12)
  tol <- check_number(tol, "tol", lower = 0, lower_open = TRUE)
  maxit <- check_count(maxit, "maxit", max = 1e5)
  warn_outside_unit_box(sum(rowSums(x < 0 | x > 1) > 0), nrow(x), ncol(x), "rows of `x`")
  x <- pmin(pmax(x, 0), 1)
  nr <- sqrt(rowSums(x^2))
  x[nr > 1, ] <- x[nr > 1, , drop = FALSE] / nr[nr > 1]
  n <- nrow(x)
  d <- ncol(x)
  w <- numeric(d)
  obj <- function(w) (C / n) * sum(bern_log1pexp(-y * as.vector(x %*% w))) + 0.5 * sum(w^2)
  it <- 0L
  repeat {
    m <- y * as.vector(x %*% w)
    s <- stats::plogis(-m)                      # sigma(-m), stable
    grad <- w - (C / n) * as.vector(crossprod(x, y * s))
    gn <- sqrt(sum(grad^2))
    if (gn <= tol) break
    if (it >= maxit) {
      dpfda_abort(sprintf("The logistic solver did not reach `tol` = %s within `maxit` = %d steps.",
                          format(tol), maxit), class = "dpfda_error_numeric", arg = "maxit")
    }
    H <- diag(1, d) + (C / n) * crossprod(x, x * (s * (1 - s)))
    step <- solve(H, grad)
    # damped Newton: halve until the objective does not increase (up to
    # rounding, so that the last, tiny steps near the optimum are taken)
    f0 <- obj(w)
    t <- 1
    while (obj(w - t * step) > f0 + 1e-14 * abs(f0) && t > 1e-10) t <- t / 2
    w <- w - t * step
    it <- it + 1L
  }
  structure(list(coefficients = w, C = C, n = n, gradient_norm = gn, iterations = it),
            class = "dpfda_logistic_fit")
}

#' @export
predict.dpfda_logistic_fit <- function(object, newdata, type = c("link", "response"), ...) {
  type <- check_choice(type, c("link", "response"), "type")
  p <- as_points(newdata, "newdata", d = length(object$coefficients))
  v <- as.vector(p %*% object$coefficients)
  if (type == "response") stats::plogis(v) else v
}

#' @export
print.dpfda_logistic_fit <- function(x, ...) {
  cat(sprintf("<dpfda_logistic_fit> NON-PRIVATE ridge logistic regression, n = %d, C = %s\n",
              x$n, format(x$C, digits = 4)))
  cat("  coefficients: ", paste(format(x$coefficients, digits = 4), collapse = " "), "\n", sep = "")
  cat(sprintf("  gradient norm %s after %d Newton steps\n", format(x$gradient_norm, digits = 3),
              x$iterations))
  invisible(x)
}

# ---- internals ----------------------------------------------------------------

# sum_i w_i phi((t - x_i) / b) for every t, in blocks (phi the standard normal density).
bern_kernel_sum <- function(x, w, t, b, block_doubles = 2^22) {
  out <- numeric(length(t))
  if (!length(x) || !length(t)) return(out)
  step <- max(1L, as.integer(block_doubles %/% length(x)))
  for (s in seq(1L, length(t), by = step)) {
    idx <- s:min(length(t), s + step - 1L)
    out[idx] <- as.vector(crossprod(w, stats::dnorm(outer(x, t[idx], "-") / b)))
  }
  out
}

# log(1 + exp(z)) without overflow.
bern_log1pexp <- function(z) ifelse(z > 0, z + log1p(exp(-z)), log1p(exp(z)))

# Points of a Bernstein target's data outside [0, 1]^d, the domain its sensitivity assumes, are moved to
# its edges: said, as naive_bayes_kde() says it (priestley_chao() on x in [0, 30] returned zeros, and
# logistic_fit() of x * 5 put every row at one corner, without a word).
warn_outside_unit_box <- function(k, n, d, what) {
  if (k > 0) {
    dpfda_warn(sprintf(paste("%s of the %d %s lie outside [0, 1]%s, the domain of the Bernstein mechanism's",
                             "targets, and were moved to its edges. Rescale each variable to [0, 1] with public",
                             "bounds first, (x - lower) / (upper - lower), and the bandwidth with it."),
                       format(k), n, what, if (d == 1L) "" else sprintf("^%d", d)), class = "dpfda_warning_data")
  }
}
