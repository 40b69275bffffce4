# The optimal cloaking covariance of Smith, Alvarez, Zwiessele and Lawrence
# (Section 3 and supplement), solved in src/cloak.c.

#' Optimal cloaking noise covariance (Smith et al., Section 3)
#'
#' Finds the noise covariance of the cloaking mechanism for differentially
#' private Gaussian-process regression: given the cloaking matrix
#' \eqn{C = K_{*f} K^{-1}} (\eqn{P \times n}, one column \eqn{c_i} per
#' training point, so that changing \eqn{y_i} by \eqn{d} moves the test
#' predictions by \eqn{d\, c_i}), it returns
#' \deqn{M = \sum_i \lambda_i c_i c_i^\top, \quad \lambda \ge 0,}
#' of least volume (\eqn{-\log \mathrm{pdet}\, M} as large as possible) such
#' that \eqn{q_i = c_i^\top M^+ c_i \le 1} for every training point. Adding
#' \eqn{N(0, \sigma^2 M)} noise with \eqn{\sigma} calibrated to a
#' Mahalanobis sensitivity of \eqn{d} then protects every \eqn{y_i} (see
#' [dp_gp_regression()]).
#'
#' **The problem.** \eqn{\{z : z^\top M^+ z \le 1\}} is the minimum-volume
#' origin-centred ellipsoid containing all \eqn{\pm c_i}; its dual is
#' D-optimal experimental design (Kiefer--Wolfowitz). At the optimum
#' \eqn{\max_i q_i = 1}, \eqn{q_i = 1} wherever \eqn{\lambda_i > 0} and
#' \eqn{\sum_i \lambda_i = r = \mathrm{rank}(C)}. \eqn{M} is unique,
#' \eqn{\lambda} need not be. When \eqn{C} has full column rank
#' (\eqn{r = n \le P}) the solution is \eqn{\lambda = 1}, \eqn{M = C C^\top}.
#'
#' **The solver** (not the paper's projected gradient descent, which needs
#' \eqn{10^4}--\eqn{10^5} steps and often stops early). \eqn{C} is reduced by
#' a thin SVD \eqn{C = U S V^\top} to the \eqn{r \times n} matrix
#' \eqn{V_r^\top} of its \eqn{r} singular values above `rank_tol` times the
#' largest; the problem is affine invariant and this reduction keeps it well
#' conditioned even when \eqn{M} is singular (more test points than training
#' points, or a smooth kernel). On the reduced problem: a start on \eqn{r}
#' columns chosen by QR with column pivoting, Frank--Wolfe steps with away
#' steps and exact line search (the Todd--Yildirim algorithm, linearly
#' convergent), and Newton polishing (an active-set Newton method on the
#' current support plus the largest violators). It stops when
#' the certified duality gap \eqn{\max_i q_i / r - 1} (for weights on the
#' simplex), and the complementarity gap \eqn{1 - \min_{\lambda_i > 0} q_i /
#' r}, are at most `tol`; the optimal \eqn{-\log \mathrm{pdet}\, M} is then
#' at most \eqn{r \log(1 + \mathrm{tol})} above `objective`.
#'
#' **Final scaling.** Whatever the accuracy reached, \eqn{\lambda} (and
#' \eqn{M}) are finally multiplied by \eqn{s = \max_i q_i (1 + m)},
#' with \eqn{q} recomputed from the weights, so that the constraint holds
#' for *every* training point: `max_constraint` \eqn{= 1/(1 + m) \le 1}
#' (up to rounding).
#' Privacy therefore never depends on convergence; an unconverged solution
#' only adds more noise than necessary, and a `dpfda_warning_convergence`
#' warning is given. The rounding margin \eqn{m = 8\,\epsilon_{mach}\,
#' s_1 / s_r} (`margin`; at most \eqn{1.8 \times 10^{-7}} with the default
#' `rank_tol`) covers the rounding error of the reduction: \eqn{q_i}
#' computed from `C` by any other route agrees with ours only to about
#' \eqn{\epsilon_{mach} s_1 / s_r} (relative), with \eqn{s_1 \ge s_r}
#' the largest and smallest retained singular values.
#'
#' **Singular \eqn{M} and what the noise covers.** \eqn{M} has rank \eqn{r}
#' and lives on the range of \eqn{C}, spanned by the orthonormal columns of
#' `basis`; `factor` is a \eqn{P \times r} matrix with \eqn{M =}
#' `factor %*% t(factor)`, so `factor %*% z` with \eqn{z} a standard normal
#' vector of length \eqn{r} is an exact \eqn{N(0, M)} draw. The parts of the columns \eqn{c_i} outside that range
#' (singular values below the rank threshold) are not covered by any noise;
#' their largest Euclidean norm is `residual` (zero when `C` has exact rank
#' \eqn{r}). For an exact guarantee, release `basis %*% crossprod(basis, f)`
#' plus noise rather than the mean \eqn{f} itself.
#'
#' Zero columns (training points that do not influence the predictions)
#' never constrain and get \eqn{\lambda_i = 0}. `C` is rescaled by its
#' largest absolute entry internally; the result does not depend on the
#' scale of `C` except through `M`, `factor` and `objective`.
#'
#' @param C The cloaking matrix \eqn{K_{*f} K^{-1}}: a numeric \eqn{P \times
#'   n} matrix of finite values (test points in rows, training points in
#'   columns).
#' @param tol Convergence tolerance on the relative duality gap, in
#'   \eqn{(0, 1)}.
#' @param maxit Maximum number of solver steps (Frank--Wolfe plus Newton).
#' @param rank_tol Relative threshold on the singular values of `C` that
#'   defines its numerical rank, in \eqn{(0, 1)}. The default \eqn{10^{-8}}
#'   (about \eqn{\sqrt{\epsilon_{mach}}}, close to the effective rank of the
#'   paper's code, which takes the pseudo-inverse of \eqn{M} with cut-off
#'   \eqn{10^{-15}}) keeps `margin` negligible; smaller values cover more
#'   (ever smaller) directions at the price of a larger `margin`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A list with
#'   * `M`: the \eqn{P \times P} noise covariance (symmetric, positive
#'     semi-definite, rank `rank`), after the final scaling;
#'   * `lambda`: the \eqn{n} weights, \eqn{M = C\, \mathrm{diag}(\lambda)\,
#'     C^\top} on the range of \eqn{C};
#'   * `q`: \eqn{c_i^\top M^+ c_i} for every training point;
#'   * `max_constraint`: \eqn{\max_i q_i}, equal to `1 / (1 + margin)` up
#'     to rounding, and at most 1;
#'   * `objective`: \eqn{-\log \mathrm{pdet}\, M};
#'   * `rank`: \eqn{r}, the numerical rank of `C`;
#'   * `iterations`, `converged`, `gap` (the optimality gap when the solver
#'     stopped, before scaling), `scale` (the factor \eqn{s} of the final
#'     scaling; \eqn{s - 1} is tiny when converged) and `margin` (\eqn{m});
#'   * `basis` (\eqn{P \times r}, orthonormal), `factor` (\eqn{P \times r},
#'     \eqn{M = F F^\top}; each column's entry of largest size is positive,
#'     so that rounding does not flip the noise drawn through it),
#'     `singular_values` of `C`, and `residual` (see above).
#' @references Smith, M. T., Alvarez, M. A., Zwiessele, M. and Lawrence,
#'   N. D. (2018). Differentially private regression with Gaussian
#'   processes. *AISTATS*, PMLR 84, 1195--1203.
#'
#'   Todd, M. J. and Yildirim, E. A. (2007). On Khachiyan's algorithm for the
#'   computation of minimum-volume enclosing ellipsoids. *Discrete Applied
#'   Mathematics* 155, 1731--1744.
#' @seealso [dp_gp_regression()], which builds `C` and draws the noise.
#' @examples
#' # 20 training points, 50 test points (P > n, so M is singular)
#' k <- kernel_gaussian(0.2)
#' x <- seq(0, 1, length.out = 20)
#' xs <- seq(-0.2, 1.2, length.out = 50)
#' C <- kernel_matrix(k, xs, x) %*% solve(kernel_matrix(k, x) + 0.1 * diag(20))
#' cl <- cloaking_covariance(C)
#' c(rank = cl$rank, sum_lambda = sum(cl$lambda), max_q = cl$max_constraint)
#' # noise sd at each test point (per unit of d c(delta) / epsilon)
#' head(sqrt(diag(cl$M)))
#'
#' # full column rank: lambda = 1 and M = C C'
#' C2 <- matrix(c(1, 0.2, -0.5, 0.3, 1, 0.4), 3, 2)
#' all.equal(cloaking_covariance(C2)$M, tcrossprod(C2))
#' @export
cloaking_covariance <- function(C, tol = 1e-8, maxit = 10000, rank_tol = 1e-8, ...) {
  check_dot_names(dot_args(), character(), "cloaking_covariance")
  check_required()
  ok <- is.numeric(C) && is.matrix(C) && nrow(C) >= 1L && ncol(C) >= 1L && all(is.finite(C))
  if (!isTRUE(ok)) {
    arg_error("C", "a numeric matrix of finite values with at least one row and one column", C)
  }
  tol <- check_number(tol, "tol", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                      what = "a number strictly between 0 and 1")
  maxit <- check_count(maxit, "maxit", min = 1)
  rank_tol <- check_number(rank_tol, "rank_tol", lower = 0, upper = 1, lower_open = TRUE,
                           upper_open = TRUE, what = "a number strictly between 0 and 1")
  P <- nrow(C)
  n <- ncol(C)
  # M (P x P) plus the SVD's copies of C: refuse sizes beyond about 2 GB
  if (as.double(P) * P + 4 * as.double(P) * n > 2^28) {
    dpfda_abort(sprintf("`C` is too large (%d x %d): the %d x %d covariance and its SVD would need more than 2 GB.",
                        P, n, P, P), class = "dpfda_error_numeric", arg = "C")
  }
  storage.mode(C) <- "double"
  cmax <- max(abs(C))
  Cs <- if (cmax > 0) C / cmax else C
  dimnames(Cs) <- NULL
  res <- c_cloak_solve(Cs, tol, maxit, rank_tol)
  if (res$info != 0L) {
    dpfda_abort(sprintf("The cloaking covariance could not be computed (%s).",
                        switch(res$info, "the SVD of `C` failed", "the solver failed",
                               "the final covariance is not positive definite on the range of `C`")),
                class = "dpfda_error_numeric", arg = "C")
  }
  r <- res$rank
  if (cmax > 0 && cmax != 1) {
    res$M <- res$M * cmax^2
    res$factor <- res$factor * cmax
    res$singular_values <- res$singular_values * cmax
    res$residual <- res$residual * cmax
    res$objective <- res$objective - 2 * r * log(cmax)
  }
  if (!all(is.finite(res$M)) || !all(is.finite(res$factor)) || !is.finite(res$objective) ||
      (r > 0L && max(abs(res$M)) == 0)) {
    dpfda_abort("The cloaking covariance overflows or underflows: rescale `C`.",
                class = "dpfda_error_numeric", arg = "C")
  }
  if (!res$converged) {
    dpfda_warn(sprintf(paste("The cloaking solver stopped after %d steps with optimality gap %s > `tol`;",
                             "M was scaled to satisfy every constraint (privacy holds), but it is larger than",
                             "necessary. Increase `maxit`."), res$iterations, format(res$gap, digits = 3)),
               class = c("dpfda_warning_convergence", "dpfda_warning"))
  }
  # each column of the factor with its largest entry positive: the SVD's signs follow rounding, and
  # a flipped column would turn the same standard normal draw into another noise realisation of the
  # same law (a change of units of the data then changed a seeded release)
  if (length(res$factor) && ncol(res$factor) > 0L) {
    flip <- vapply(seq_len(ncol(res$factor)), function(j) {
      f <- res$factor[, j]
      f[which.max(abs(f))] < 0
    }, NA)
    res$factor[, flip] <- -res$factor[, flip]
  }
  dn <- dimnames(C)
  if (!is.null(dn[[1L]])) dimnames(res$M) <- list(dn[[1L]], dn[[1L]])
  if (!is.null(dn[[2L]])) names(res$lambda) <- names(res$q) <- dn[[2L]]
  res$info <- NULL
  res[c("M", "lambda", "max_constraint", "iterations", "rank", "converged", "objective", "q",
        "gap", "scale", "margin", "basis", "factor", "singular_values", "residual")]
}
