# Alda & Rubinstein (2017), Section 6 and Appendices F-G: worked examples of
# the Bernstein mechanism with their sup-norm sensitivities S(F), the
# non-private targets they are computed for, and the error-bound helpers of
# Sections 4.1-4.2 (Theorems 3, 5, 6; Proposition 4) with the spec's errata
# (../shared/specs/alda_bernstein.md, sections 1.6-1.7, 2.5, 3 and 6).
#
# Every sensitivity here is the replace-one quantity the mechanism needs,
#     S(F) = sup_y sup_{D ~ D'} |F_D(y) - F_D'(y)|,
# and dp_bernstein() adds Laplace noise of scale S(F) (k + 1)^dim / epsilon
# to the lattice values.

# ---- sensitivities ------------------------------------------------------------

#' Sensitivities of the Bernstein mechanism's worked examples
#'
#' Replace-one, uniform-in-\eqn{y} sensitivities \eqn{S(F) = \sup_y
#' \sup_{D \sim D'} |F_D(y) - F_{D'}(y)|} of the five examples of Alda and
#' Rubinstein (2017, Section 6), to be passed to [dp_bernstein()] as
#' `sensitivity`. The query domain is \eqn{[0,1]^\ell} (`dim` \eqn{= \ell}).
#' Where the paper's constant is wrong, the corrected bound is the default and
#' the paper's value stays available as `method = "paper"` (marked as such;
#' DESIGN.md privacy rule 6).
#'
#' @section Kernel density estimation (paper, Section 6):
#' \eqn{F_D(y) = \frac1n \sum_i K_H(y - d_i)} with the Gaussian kernel of
#' covariance \eqn{H} (the estimate of [kde_gaussian()]). Replacing one point
#' changes one non-negative term, so \eqn{S \le \sup K_H / n =
#' 1/(n\sqrt{(2\pi)^\ell \det H})}, i.e. \eqn{1/(n\sqrt{2\pi}\,b)} in one
#' dimension with standard-deviation bandwidth \eqn{b}. This is the sup-norm
#' sensitivity; the RKHS sensitivity of Hall et al.'s mechanism is
#' [sensitivity_kde()].
#'
#' @section Priestley--Chao regression (paper, Section 6; erratum):
#' Data \eqn{(d_i, l_i) \in [0,1] \times [-B, B]}, sorted by \eqn{d}, and
#' \eqn{F_D(y) = \frac1b \sum_{i=2}^n (d_i - d_{i-1}) K((y - d_i)/b)\, l_i}
#' with the standard normal density \eqn{K} (see [priestley_chao()]). The
#' paper's bound \eqn{S \le 4 B c K(0)/(n b)} is stated under the condition
#' "every point has *some* other point within \eqn{c/n}"; that condition does
#' not imply it (two tight clusters: the first point of the second cluster
#' carries the whole gap, and flipping its label changes \eqn{F} by about
#' \eqn{2BK(0)/b} whatever \eqn{n}). The bound holds under the
#' **consecutive-gap condition** \eqn{\max_i (d_i - d_{i-1}) \le c/n} on
#' every data set of the universe: removing a point changes its own term and
#' its successor's gap, inserting one does the same, and each of these four
#' changes is a consecutive gap of \eqn{D} or \eqn{D'} times \eqn{B K(0)/b}.
#' This is the assumption `gap` \eqn{= c} documents.
#'
#' @section Naive Bayes with Gaussian KDE likelihoods (paper, Section 6 and App. F; erratum):
#' \eqn{F_D(y) = g_+(y) - g_-(y)}, \eqn{g_l(y) = \frac{n_l}{n} \prod_{j=1}^\ell
#' \frac1{n_l} \sum_{i: l_i = l} \phi_b(y_j - d_{ij})} (\eqn{g_l = 0} when
#' \eqn{n_l = 0}; see [naive_bayes_kde()]). The paper's bound
#' \eqn{2(1/n + (2^\ell - 1)/(n\sqrt{2\pi} b))} (`method = "paper"`) is valid
#' for \eqn{\ell = 1} only: its App. F assumes every marginal density is at
#' most 1, which fails for small bandwidths. Counterexample (\eqn{\ell = 2},
#' \eqn{b = 0.05}, \eqn{n = 20}): one positive point at \eqn{y = (0.5, 0.5)},
#' moved to the negative class far away, changes \eqn{F(y)} by
#' \eqn{\phi_{\max}^2/n = 3.18 > 2.49}. Derived bound (`method =
#' "corrected"`, the default), with \eqn{\phi_{\max} = \prod_j
#' 1/(\sqrt{2\pi} b_j)}:
#' \deqn{S \le 2 \max(1, \ell - 1)\, \phi_{\max} / n.}
#' Proof: write \eqn{t_j, u_j \in [0,1]} for the other class members' and the
#' moving point's normalised kernel sums; \eqn{\Delta g_l} is multi-affine in
#' them, so its extremes are at vertices. A point leaving a class of size
#' \eqn{m+1} changes \eqn{g_l n / \phi_{\max}} by a value in \eqn{[-(\ell-1), 1]},
#' joining by one in \eqn{[-1, \ell-1]}, and a change within a class by at
#' most \eqn{\ell}; a label change moves both classes at once. The bound is
#' attained for \eqn{\ell \le 2} (e.g. a positive point at \eqn{y} moves to
#' the negative class, also at \eqn{y}, which holds other points at \eqn{y})
#' and approached as \eqn{m \to \infty} for \eqn{\ell \ge 3}. `method =
#' "conservative"` is the spec's simpler valid bound \eqn{2(\ell+1)\phi_{\max}/n}.
#' `"paper"` warns when \eqn{\ell \ge 2}.
#'
#' @section Regularised ERM and the kernel SVM (paper, Section 6; erratum):
#' \eqn{w^\star = \arg\min_w \frac Cn \sum_i L(l_i, f_w(d_i)) + \frac12
#' \|w\|^2} (the paper's program (5), **no intercept**), \eqn{L} convex and
#' \eqn{M}-Lipschitz in the prediction, kernel with \eqn{\kappa^2 = \sup_x
#' K(x,x)}, and \eqn{F_D = f_{w^\star}}. The objective is 1-strongly convex;
#' adding the optimality conditions of \eqn{D} and \eqn{D'} gives
#' \eqn{\|\Delta w\|^2 \le \frac{CM}{n}(|\Delta f(d_n)| + |\Delta f(d_n')|)
#' \le \frac{2CM\kappa}{n}\|\Delta w\|}, so \eqn{S \le 2MC\kappa^2/n}
#' (`method = "corrected"`). The paper states \eqn{MC\kappa^2/n} (`method =
#' "paper"`), too small by a factor 2: with the hinge loss, a linear kernel,
#' \eqn{n} points at \eqn{x = 1} and one label flipped, \eqn{|\Delta f(1)|
#' = 2C/n} exactly. In the parametrisation of [svm_fit()] / [dp_svm()]
#' (\eqn{\frac1n\sum_i L + \lambda\|g\|^2}), \eqn{\lambda = 1/(2C)}.
#' A solver stopped at duality gap \eqn{g} (in the units of [svm_fit()],
#' i.e. of the objective divided by \eqn{C}) is within \eqn{\sqrt{2Cg}} of
#' \eqn{w^\star} in norm; `gap_tol` \eqn{= g} adds \eqn{2\kappa\sqrt{2Cg}} so
#' that the bound covers the computed, not only the exact, minimisers.
#'
#' @section Logistic regression (paper, Section 6 and App. G):
#' Program (5) with the logistic loss (\eqn{M = 1}), the identity feature map
#' and data in \eqn{\{x \in [0,1]^\ell : \|x\|_2 \le 1\}} (so \eqn{\kappa =
#' 1}): \eqn{\|w - w'\|_2 \le 2C/n}, and for \eqn{y \in [0,1]^\ell}
#' (\eqn{\|y\|_2 \le \sqrt\ell}) the linear score \eqn{\langle w, y\rangle}
#' has \eqn{S \le 2C\sqrt\ell/n} (`output = "linear"`) and the sigmoid
#' \eqn{1/(1 + e^{-\langle w, y\rangle})}, being \eqn{1/4}-Lipschitz,
#' \eqn{S \le C\sqrt\ell/(2n)} (`output = "sigmoid"`). The linear score is
#' affine, so \eqn{k = h = 1} reproduces it exactly (no approximation error;
#' Theorem 3(iii)), and the sigmoid of the released score is post-processing.
#' A solver stopped at gradient norm `tol` is within `tol` of \eqn{w^\star}
#' (1-strong convexity), which adds \eqn{2\,\mathrm{tol}\sqrt\ell} (linear) or
#' \eqn{\mathrm{tol}\sqrt\ell/2} (sigmoid). [logistic_fit()] fits it.
#'
#' @param n Number of records (public; neighbouring data sets have the same
#'   size and differ in one record).
#' @param bandwidth Kernel bandwidth. KDE: a standard deviation \eqn{b}
#'   (\eqn{H = b^2 I}), one per dimension, or a covariance matrix \eqn{H}.
#'   Priestley--Chao: \eqn{b}. Naive Bayes: \eqn{b}, or one \eqn{b_j} per
#'   dimension.
#' @param dim The dimension \eqn{\ell} of the query domain (taken from a
#'   matrix or vector bandwidth when one is given).
#' @param bound \eqn{B}: responses lie in \eqn{[-B, B]} (they are clamped to
#'   it by [priestley_chao()]).
#' @param gap \eqn{c}: every data set of the universe has consecutive sorted
#'   design points at most \eqn{c/n} apart (\eqn{c = n} is the unrestricted
#'   case).
#' @param method Naive Bayes: `"corrected"` (default), `"conservative"` or
#'   `"paper"`. ERM: `"corrected"` (default) or `"paper"`.
#' @param C The regularisation constant \eqn{C} of program (5).
#' @param lipschitz \eqn{M}, the Lipschitz constant of the loss in the
#'   prediction (1 for the hinge and logistic losses).
#' @param sup_kxx \eqn{\kappa^2 = \sup_x K(x,x)} (the kernel's `variance`;
#'   1 for the RBF kernel).
#' @param gap_tol Duality gap at which the solver stops (0: exact
#'   minimiser).
#' @param output Logistic regression: `"linear"` score or `"sigmoid"`.
#' @param tol Gradient-norm tolerance of the logistic solver (0: exact).
#' @return The sensitivity \eqn{S(F)}, a positive number.
#' @references Alda, F. and Rubinstein, B. I. P. (2017). The Bernstein
#'   mechanism: function release under differential privacy. *AAAI* 31,
#'   1705--1711.
#' @seealso [dp_bernstein()], [bernstein_error_bound()], [priestley_chao()],
#'   [naive_bayes_kde()], [logistic_fit()], [svm_fit()].
#' @examples
#' # the paper's Figure 1: n = 5000, Gaussian KDE with b = 0.05
#' sensitivity_bernstein_kde(5000, 0.05)          # 1.595769e-3
#' sensitivity_bernstein_priestley_chao(200, bandwidth = 0.1, bound = 1, gap = 3)
#' sensitivity_bernstein_naive_bayes(500, 0.1, dim = 2)
#' sensitivity_bernstein_naive_bayes(500, 0.1, dim = 1, method = "paper")
#' # Figure 2: RBF SVM with C = 1 on 3000 points
#' sensitivity_bernstein_erm(3000, C = 1)          # 2 / 3000
#' sensitivity_bernstein_logistic(1000, C = 1, dim = 2)
#' @name sensitivity_bernstein
NULL

#' @rdname sensitivity_bernstein
#' @export
sensitivity_bernstein_kde <- function(n, bandwidth, dim = 1L) {
  check_required()
  n <- check_count(n, "n", max = 1e15)
  dim <- bern_dim_from_bandwidth(bandwidth, dim)
  bw <- as_bandwidth(bandwidth, dim)
  bern_positive_result(-log(n) - 0.5 * dim * log(2 * pi) - 0.5 * bw$logdet, "bandwidth")
}

#' @rdname sensitivity_bernstein
#' @export
sensitivity_bernstein_priestley_chao <- function(n, bandwidth, bound, gap) {
  check_required()
  n <- check_count(n, "n", max = 1e15)
  bandwidth <- check_number(bandwidth, "bandwidth", lower = 0, lower_open = TRUE)
  bound <- check_number(bound, "bound", lower = 0, lower_open = TRUE)
  gap <- check_number(gap, "gap", lower = 0, lower_open = TRUE)
  if (gap > n) {
    dpfda_abort(sprintf(paste("`gap` must be at most `n` (%s): gaps of c/n > 1 cannot occur on [0, 1],",
                              "and c = n is already the unrestricted case, not %s."),
                        format(n), format(gap)), arg = "gap")
  }
  # 4 B c K(0) / (n b), K the standard normal density
  bern_positive_result(log(4) + log(bound) + log(gap) - 0.5 * log(2 * pi) - log(n) - log(bandwidth),
                       "bandwidth")
}

#' @rdname sensitivity_bernstein
#' @export
sensitivity_bernstein_naive_bayes <- function(n, bandwidth, dim = 1L,
                                              method = c("corrected", "conservative", "paper")) {
  check_required()
  n <- check_count(n, "n", max = 1e15)
  method <- check_choice(method, c("corrected", "conservative", "paper"), "method")
  b <- bern_nb_bandwidth(bandwidth, dim)
  dim <- length(b)
  log_phi <- -0.5 * dim * log(2 * pi) - sum(log(b))   # log of prod_j phi_max_j
  if (method == "paper") {
    if (dim >= 2L) {
      dpfda_warn(paste("The paper's naive-Bayes sensitivity is not valid for dim >= 2",
                       "(erratum, spec section 3.3); use method = \"corrected\"."),
                 class = "dpfda_warning_erratum")
    }
    if (length(unique(b)) > 1L) {
      dpfda_abort("The paper's naive-Bayes bound is stated for one common bandwidth.", arg = "bandwidth")
    }
    # 2 (1/n + (2^l - 1) / (n sqrt(2 pi) b))
    return(bern_positive_result(log(2) - log(n) + log1p((2^dim - 1) / (sqrt(2 * pi) * b[1L])),
                                "bandwidth"))
  }
  factor <- if (method == "corrected") 2 * max(1, dim - 1) else 2 * (dim + 1)
  bern_positive_result(log(factor) + log_phi - log(n), "bandwidth")
}

#' @rdname sensitivity_bernstein
#' @export
sensitivity_bernstein_erm <- function(n, C = 1, lipschitz = 1, sup_kxx = 1, gap_tol = 0,
                                      method = c("corrected", "paper")) {
  check_required()
  n <- check_count(n, "n", max = 1e15)
  C <- check_number(C, "C", lower = 0, lower_open = TRUE)
  lipschitz <- check_number(lipschitz, "lipschitz", lower = 0, lower_open = TRUE)
  sup_kxx <- check_number(sup_kxx, "sup_kxx", lower = 0, lower_open = TRUE)
  gap_tol <- check_number(gap_tol, "gap_tol", lower = 0)
  method <- check_choice(method, c("corrected", "paper"), "method")
  factor <- if (method == "corrected") 2 else 1
  s <- bern_positive_result(log(factor) + log(lipschitz) + log(C) + log(sup_kxx) - log(n), "C")
  if (gap_tol > 0) {
    s <- s + bern_positive_result(log(2) + 0.5 * (log(sup_kxx) + log(2) + log(C) + log(gap_tol)),
                                  "gap_tol")
  }
  if (!is.finite(s)) {
    dpfda_abort("The sensitivity is not a finite number.", class = "dpfda_error_numeric", arg = "C")
  }
  s
}

#' @rdname sensitivity_bernstein
#' @export
sensitivity_bernstein_logistic <- function(n, C = 1, dim = 1L, output = c("linear", "sigmoid"),
                                           tol = 0) {
  check_required()
  n <- check_count(n, "n", max = 1e15)
  C <- check_number(C, "C", lower = 0, lower_open = TRUE)
  dim <- check_count(dim, "dim", max = 1e6)
  output <- check_choice(output, c("linear", "sigmoid"), "output")
  tol <- check_number(tol, "tol", lower = 0)
  # linear: 2 C sqrt(l) / n; the sigmoid is 1/4-Lipschitz: C sqrt(l) / (2 n)
  lf <- if (output == "linear") log(2) else -log(2)
  s <- bern_positive_result(lf + log(C) + 0.5 * log(dim) - log(n), "C")
  # a computed w within tol of w*, for D and for D': 2 tol sqrt(l), times 1/4 for the sigmoid
  if (tol > 0) s <- s + (if (output == "linear") 2 else 0.5) * tol * sqrt(dim)
  if (!is.finite(s)) {
    dpfda_abort("The sensitivity is not a finite number.", class = "dpfda_error_numeric", arg = "tol")
  }
  s
}

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
#' @return The estimate at `newdata` (a numeric vector).
#' @seealso [sensitivity_bernstein_priestley_chao()], [dp_bernstein()].
#' @examples
#' x <- seq(0, 1, length.out = 101)
#' y <- sin(2 * pi * x) + rnorm(101, sd = 0.2)
#' t <- seq(0, 1, length.out = 5)
#' priestley_chao(x, y, t, bandwidth = 0.05, bound = 2, gap = 1.5)
#' @export
priestley_chao <- function(x, y, newdata, bandwidth, bound, gap = NULL) {
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
#' empty class). Predict the positive class where \eqn{F_D \ge 0}. Points are
#' clamped to \eqn{[0,1]^\ell}. Release it with [dp_bernstein()] and
#' [sensitivity_bernstein_naive_bayes()].
#'
#' @param x Points: a vector (one dimension) or an `n x dim` matrix.
#' @param y Labels: \eqn{\pm 1}, 0/1, or a two-level factor (the second level
#'   is the positive class).
#' @param newdata Evaluation points, with the columns of `x`.
#' @param bandwidth \eqn{b}, or one \eqn{b_j} per dimension.
#' @return \eqn{F_D} at `newdata` (a numeric vector).
#' @seealso [sensitivity_bernstein_naive_bayes()], [dp_bernstein()].
#' @examples
#' x <- rbind(matrix(rnorm(100, 0.3, 0.1), 50), matrix(rnorm(100, 0.7, 0.1), 50))
#' y <- rep(c(1, -1), each = 50)
#' naive_bayes_kde(x, y, rbind(c(0.3, 0.3), c(0.7, 0.7)), bandwidth = 0.1)
#' @export
naive_bayes_kde <- function(x, y, newdata, bandwidth) {
  check_required()
  x <- as_points(x, "x")
  d <- ncol(x)
  y <- svm_labels(y, nrow(x))
  p <- as_points(newdata, "newdata", d = d)
  b <- bern_nb_bandwidth(bandwidth, d, data_dim = TRUE)
  x <- pmin(pmax(x, 0), 1)
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
#' @param y Labels: \eqn{\pm 1}, 0/1, or a two-level factor.
#' @param C Regularisation constant \eqn{C > 0} of program (5).
#' @param tol Gradient-norm tolerance.
#' @param maxit Maximum number of Newton steps.
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
logistic_fit <- function(x, y, C = 1, tol = 1e-10, maxit = 100L) {
  check_required()
  x <- as_points(x, "x")
  y <- svm_labels(y, nrow(x))
  C <- check_number(C, "C", lower = 0, lower_open = TRUE, upper = 1e12)
  tol <- check_number(tol, "tol", lower = 0, lower_open = TRUE)
  maxit <- check_count(maxit, "maxit", max = 1e5)
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
#'   estimate from below (the spec's reference table uses 2001 points).
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
                               ngrid = 2001L, tol = 1e-4) {
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
#' \sum_\nu b^{(h)}_{\nu,k}(y)^2 dy} computed exactly (0.195, 0.261, 0.302,
#' 0.332, 0.354 for \eqn{k = 20}, \eqn{h = 1, \dots, 5}): why larger \eqn{h}
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
                                  micchelli_constant = NULL, noise = c("uniform", "paper")) {
  check_required()
  sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, lower_open = TRUE)
  epsilon <- check_epsilon(epsilon)
  k <- bern_count_vector(k, "k", max = 1000)
  h <- bern_count_vector(h, "h", max = 1000)
  dim <- check_count(dim, "dim", max = 1e3)
  beta <- check_number(beta, "beta", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  calibration <- check_choice(calibration, c("analytic", "hall", "classical", "composition"),
                              "calibration")
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
                               micchelli_constant = NULL, k_max = 200L) {
  check_required()
  sensitivity <- check_number(sensitivity, "sensitivity", lower = 0, lower_open = TRUE)
  epsilon <- check_epsilon(epsilon)
  h <- bern_count_vector(h, "h", max = 1000)
  dim <- check_count(dim, "dim", max = 1e3)
  beta <- check_number(beta, "beta", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  calibration <- check_choice(calibration, c("analytic", "hall", "classical", "composition"),
                              "calibration")
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

# ---- internals ----------------------------------------------------------------------

# exp(logv) as a finite positive number, or a classed error naming `arg`.
bern_positive_result <- function(logv, arg) {
  v <- exp(logv)
  if (!is.finite(v) || !(v > 0)) {
    dpfda_abort(sprintf("The sensitivity is not a finite positive number (log value %s); check `%s`.",
                        format(logv, digits = 4), arg), class = "dpfda_error_numeric", arg = arg)
  }
  v
}

# The dimension implied by a KDE bandwidth (matrix or per-dimension vector).
bern_dim_from_bandwidth <- function(bandwidth, dim) {
  if (is.numeric(bandwidth) && is.matrix(bandwidth)) return(nrow(bandwidth))
  if (is.numeric(bandwidth) && is.null(dim(bandwidth)) && length(bandwidth) > 1L) {
    return(length(bandwidth))
  }
  check_count(dim, "dim", max = 1e4)
}

# Naive-Bayes bandwidths: b or one b_j per dimension -> vector of length dim.
bern_nb_bandwidth <- function(bandwidth, dim, data_dim = FALSE) {
  if (!data_dim) {
    dim <- if (is.numeric(bandwidth) && is.null(dim(bandwidth)) && length(bandwidth) > 1L) {
      length(bandwidth)
    } else check_count(dim, "dim", max = 1e4)
  }
  ok <- is.numeric(bandwidth) && is.null(dim(bandwidth)) && length(bandwidth) %in% c(1L, dim) &&
    all(is.finite(bandwidth)) && all(bandwidth > 0)
  if (!isTRUE(ok)) {
    arg_error("bandwidth", sprintf("a positive number or %d positive numbers (one per dimension)", dim),
              bandwidth)
  }
  rep_len(as.double(bandwidth), dim)
}

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
