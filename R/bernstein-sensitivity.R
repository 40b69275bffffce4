# The Bernstein mechanism's worked examples (Alda & Rubinstein 2017, Section 6
# and Appendices F-G): the replace-one sup-norm sensitivities S(F) that
# dp_bernstein() needs,
#     S(F) = sup_y sup_{D ~ D'} |F_D(y) - F_D'(y)|,
# with the paper's errata (the corrected bound by default, the paper's value
# as method = "paper"). dp_bernstein() adds Laplace noise of scale
# S(F) (k + 1)^dim / epsilon to the lattice values. The non-private targets
# are in R/bernstein-targets.R, the error bounds in R/bernstein-accuracy.R.

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
#' "conservative"` is a simpler valid bound \eqn{2(\ell+1)\phi_{\max}/n}.
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
#'   matrix or vector bandwidth when one is given; a `dim` given as well must
#'   agree with it, or is refused).
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
#'   minimiser, the paper's bound). A fit made with [svm_fit()] stops at its
#'   own `gap_tol` (1e-8 by default): give the same value here so that the
#'   bound covers the computed minimiser (at n = 3000, C = 1 it raises S from
#'   0.00067 to 0.00095); [dp_svm()] does this itself (`strict = TRUE`).
#' @param output Logistic regression: `"linear"` score or `"sigmoid"`.
#' @param tol Gradient-norm tolerance of the logistic solver (0: exact; a
#'   [logistic_fit()] stops at its own `tol`, which belongs here too).
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
sensitivity_bernstein_kde <- function(n, bandwidth, dim = 1L, ...) {
  check_dot_names(dot_args(), character(), "sensitivity_bernstein_kde")
  check_required()
  n <- check_count(n, "n", max = 1e15)
  dim <- bern_dim_from_bandwidth(bandwidth, dim, given = !missing(dim))
  bw <- as_bandwidth(bandwidth, dim)
  bern_positive_result(-log(n) - 0.5 * dim * log(2 * pi) - 0.5 * bw$logdet, "bandwidth")
}

#' @rdname sensitivity_bernstein
#' @export
sensitivity_bernstein_priestley_chao <- function(n, bandwidth, bound, gap, ...) {
  check_dot_names(dot_args(), character(), "sensitivity_bernstein_priestley_chao")
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
                                              method = c("corrected", "conservative", "paper"), ...) {
  check_dot_names(dot_args(), character(), "sensitivity_bernstein_naive_bayes")
  check_required()
  n <- check_count(n, "n", max = 1e15)
  method <- check_choice(method, c("corrected", "conservative", "paper"), "method")
  b <- bern_nb_bandwidth(bandwidth, dim, given = !missing(dim))
  dim <- length(b)
  log_phi <- -0.5 * dim * log(2 * pi) - sum(log(b))   # log of prod_j phi_max_j
  if (method == "paper") {
    if (dim >= 2L) {
      dpfda_warn(paste("The paper's naive-Bayes sensitivity is not valid for dim >= 2",
                       "(an erratum: its bound omits the other dimensions' factors); use method = \"corrected\"."),
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
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @export
sensitivity_bernstein_erm <- function(n, C = 1, lipschitz = 1, sup_kxx = 1, gap_tol = 0,
                                      method = c("corrected", "paper"), ...) {
  check_dot_names(dot_args(), character(), "sensitivity_bernstein_erm")
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
                                           tol = 0, ...) {
  check_dot_names(dot_args(), character(), "sensitivity_bernstein_logistic")
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

# ---- internals ----------------------------------------------------------------

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
bern_dim_from_bandwidth <- function(bandwidth, dim, given = FALSE) {
  d_bw <- if (is.numeric(bandwidth) && is.matrix(bandwidth)) nrow(bandwidth) else
    if (is.numeric(bandwidth) && is.null(dim(bandwidth)) && length(bandwidth) > 1L) length(bandwidth)
  if (is.null(d_bw)) return(check_count(dim, "dim", max = 1e4))
  if (given) check_dim_agrees(check_count(dim, "dim", max = 1e4), d_bw)
  d_bw
}

# A `dim` given with a bandwidth of another dimension (3 features, a bandwidth of 2 values) was
# ignored: the sensitivity of the bandwidth's dimension, about 4 times too small for the data's.
check_dim_agrees <- function(dim, d_bw, arg = "dim") {
  if (dim != d_bw) {
    dpfda_abort(sprintf(paste("`%s` (%d) disagrees with `bandwidth`, which has %d dimension%s: give one bandwidth per",
                              "dimension of the data (or one number for all), or the data's `%s`."),
                        arg, dim, d_bw, if (d_bw == 1L) "" else "s", arg),
                arg = arg, class = c("dpfda_error_argument", "dpfda_error_privacy"))
  }
}

# Naive-Bayes bandwidths: b or one b_j per dimension -> vector of length dim.
bern_nb_bandwidth <- function(bandwidth, dim, data_dim = FALSE, given = FALSE) {
  if (!data_dim) {
    dim <- if (is.numeric(bandwidth) && is.null(dim(bandwidth)) && length(bandwidth) > 1L) {
      if (given) check_dim_agrees(check_count(dim, "dim", max = 1e4), length(bandwidth))
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
