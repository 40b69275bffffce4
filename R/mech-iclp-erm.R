# Lin and Reimherr, Section 4.4 (eq. (13), Theorem 18, Remark 19): pure-DP release of a regularised empirical risk
# minimiser with ICLP noise.
#
# Setting. On the public grid t_1..t_m, (lambda_j, v_j) is the kl_basis() of
# the covariance kernel C and K = C^eta restricted to the first J components,
# K(s, t) = sum_j lambda_j^eta v_j(s) v_j(t), whose RKHS is the span of the
# v_j with ||f||_K^2 = sum_j c_j^2 / lambda_j^eta. Data points are snapped to
# their nearest grid point (public post-processing of each record), so that
# f(x_i) = sum_j c_j v_j(x_i) exactly and kappa^2 = max_k K(t_k, t_k) bounds
# K(x, x) for every possible record.
#
# Sensitivity (replace-one). The objective (1/n) sum l(f(x_i), y_i) +
# psi ||f||_K^2 is 2 psi-strongly convex; for an M-admissible loss
# (|l(a, y) - l(b, y)| <= M |a - b|) the minimisers of neighbouring data sets
# satisfy ||f - f'||_K <= M kappa / (n psi). By Cauchy-Schwarz the ICLP norm
# sum_j |c_j - c'_j| / sqrt(lambda_j) is at most ||f - f'||_K (sum_j
# lambda_j^(eta - 1))^(1/2): Delta = M kappa sqrt(tr_J(C^(eta-1))) / (n psi).
# Square loss with |y| <= y_bound: ||f||_K^2 <= y_bound^2 / psi (compare
# with f = 0), so |f(x)| <= kappa y_bound / sqrt(psi) and M = 2 (y_bound +
# kappa y_bound / sqrt(psi)). Logistic loss with y in {-1, 1}: M = 1.

#' Differentially private regularised ERM with the ICLP (Lin and Reimherr)
#'
#' Fits \eqn{f_D = \arg\min_f \frac1n \sum_i \ell(f(x_i), y_i) + \psi
#' \|f\|^2_{K}} over the RKHS of the power kernel \eqn{K = C^\eta} of a
#' covariance kernel \eqn{C} on a public grid, and releases it with ICLP
#' noise: pure \eqn{\epsilon}-DP (Theorem 18 of Lin and Reimherr; spec
#' section 4.5).
#'
#' The function lives in the span of the first `J` eigenfunctions \eqn{v_j}
#' of \eqn{C} on the grid ([kl_basis()]) with \eqn{\|f\|_K^2 = \sum_j
#' c_j^2/\lambda_j^\eta}. Each \eqn{x_i} is clamped to the domain and moved to
#' its nearest grid point (a public, record-by-record step), so that
#' \eqn{\kappa^2 = \max_k K(t_k, t_k)} bounds \eqn{K(x, x)} for every
#' possible record. The objective is \eqn{2\psi}-strongly convex, hence for an
#' \eqn{M}-admissible loss the minimisers of two neighbouring data sets
#' (one record replaced) satisfy \eqn{\|f_D - f_{D'}\|_K \le M\kappa /
#' (n\psi)}, and by Cauchy--Schwarz the ICLP-norm sensitivity is
#' \deqn{\Delta = \frac{M\kappa}{n\psi}\Big(\sum_{j \le J}
#' \lambda_j^{\eta-1}\Big)^{1/2}.}
#' The release is \eqn{\sum_j (c_j + \sigma\sqrt{\lambda_j} Z_j) v_j} with
#' unit-variance Laplace \eqn{Z_j} and \eqn{\sigma = \sqrt2\Delta/\epsilon}.
#'
#' Losses: `"square"` \eqn{(f(x) - y)^2} with responses clamped to
#' \eqn{[-y_b, y_b]} (`y_bound`), \eqn{M = 2(y_b + \kappa y_b/\sqrt\psi)}
#' (since \eqn{\|f_D\|_K \le y_b/\sqrt\psi}), solved exactly; `"logistic"`
#' \eqn{\log(1 + e^{-y f(x)})} with \eqn{y \in \{-1, 1\}}, \eqn{M = 1},
#' solved by Newton's method to a gradient norm below `1e-10` (the bound
#' assumes exact minimisers; the solver error is many orders of magnitude
#' below the noise). The hinge loss is not offered: without a certified
#' solver the bound does not apply ([dp_svm()] releases SVMs).
#'
#' @param x Covariates: a vector (one-dimensional grid) or a matrix with one
#'   column per dimension of `grid`; or a formula `y ~ x1 + ...` whose
#'   variables are columns of `data`.
#' @param data With a formula (in the pipe's order the data frame may come
#'   first and the formula second, `d |> f(y ~ x, ...)`): the data frame holding its variables.
#' @param y Responses: numbers (square loss) or labels (logistic loss):
#'   \eqn{\pm 1}, 0/1, logical or a two-level factor, as in [dp_svm()]
#'   (the second level, 1 or `TRUE` is \eqn{+1}).
#' @param epsilon Privacy budget (pure DP).
#' @param psi Regularisation \eqn{\psi > 0} (public), on the domain rescaled to
#'   unit measure: the objective uses \eqn{\psi S^{\eta - 1}} with \eqn{S}
#'   the measure of the grid's domain (the sum of its quadrature weights), so
#'   the same `psi` gives the same fit and noise in any unit of `x` (on
#'   \eqn{[0, 1]} it is the paper's \eqn{\psi}).
#' @param grid The public grid (see [curves()]).
#' @param kernel The covariance kernel \eqn{C} (default Matern 3/2 with
#'   lengthscale 0.1 times the width of the domain).
#' @param loss `"square"` or `"logistic"`.
#' @param eta Power of the kernel, \eqn{\eta > 0} (default \eqn{1 +
#'   1/(2h) + 1/4}, with \eqn{h} the eigenvalue decay exponent of `kernel`;
#'   1.25 for the Gaussian kernel). Above \eqn{1 + 1/(2h)} the sensitivity
#'   stays bounded as the grid is refined.
#' @param y_bound Public bound on the responses (square loss): a number
#'   \eqn{B}, \eqn{|y| \le B}, or `c(lower, upper)`. Responses are clamped
#'   to it; with `c(lower, upper)` they are centred at its midpoint before
#'   the fit and the midpoint is added back to the release (public
#'   post-processing), so \eqn{y_b = (upper - lower)/2} in the sensitivity
#'   (`B` is `c(-B, B)`).
#' @param J Number of components (default: all positive eigenvalues).
#' @param domain Public domain of `x` (default: the range of the grid).
#' @param noise `"float"` or `"exact"` (discrete Laplace on the rounded
#'   coefficients, see [dp_mean()] and [exact_noise]).
#' @param budget `NULL` or a [privacy_budget()] to charge.
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @param unit The privacy unit when one person has several rows: a vector
#'   with one entry per point of `x`, or with a formula a column of `data`.
#'   Each unit's rows weigh 1 / (its rows) in the risk and \eqn{n} counts
#'   units: a unit's average loss is \eqn{M}-admissible as one row's is, so
#'   \eqn{\Delta} with \eqn{n} units bounds the change when all rows of one
#'   unit are replaced (as in [dp_svm()]). `NULL`: each row is its own unit.
#' @return A `dpfda_release` of class `dpfda_iclp_erm_release` with the
#'   released function on the grid, `coefficients`, `basis`, `params`
#'   (`eta`, `psi`, `J`, `kappa`, `M`, `loss`), `n`; [predict()] evaluates
#'   it anywhere by the Nystrom extension. No data, no non-private fit.
#' @examples
#' x <- runif(5000)
#' y <- sin(2 * pi * x) + rnorm(5000, sd = 0.3)
#' g <- seq(0, 1, length.out = 101)
#' r <- dp_erm(x, y, epsilon = 1, psi = 0.01, grid = g, eta = 2, y_bound = 2)
#' r
#' plot(g, r$values$values[1, ], type = "l")
#' lines(g, sin(2 * pi * g), lty = 2)
#' lab <- ifelse(x + rnorm(5000, sd = 0.2) > 0.5, 1, -1)
#' dp_erm(x, lab, epsilon = 1, psi = 0.01, grid = g, eta = 2, loss = "logistic")
#' @export
dp_erm <- function(x, y, epsilon, psi, grid, kernel = NULL,
                   loss = c("square", "logistic"), eta = NULL, y_bound = NULL, J = NULL, domain = NULL,
                   noise = c("float", "exact"), budget = NULL, ..., data = NULL, unit = NULL) {
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  # (y ~ x1 + ..., variables in `data`, as dp_gp_regression())
  fr <- if (!missing(x)) frame_predictors(x)   # (named columns of a data frame: kept for predict())
  fd <- if (!missing(x)) formula_call(x, !missing(y), data, if (!missing(grid)) grid, "dp_erm", "grid", labels = TRUE,
                                                y = if (!missing(y)) y)
  if (!is.null(fd)) {
    x <- fd$x
    y <- fd$y
    data <- fd$data
    if (!missing(grid)) grid <- fd$newdata
  }
  check_required(c("x", "y", "epsilon", "psi", "grid"))
  check_dot_names(dot_args(), character(), "dp_erm")   # (a misspelt option gets a classed error)
  budget <- release_open(budget, epsilon)
  call <- match.call()
  noise <- check_noise(noise)
  epsilon <- check_epsilon(epsilon)
  psi <- check_number(psi, "psi", lower = 0, lower_open = TRUE, upper = 1e10)
  grid <- as_grid(grid, "grid")
  if (is.null(kernel)) kernel <- default_mech_kernel(as_domain(domain, grid))
  check_kernel(kernel)
  loss <- check_choice(loss, c("square", "logistic"), "loss")
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  pts <- as_points(x, "x", d = d)
  n <- nrow(pts)
  if (n < 1L) arg_error("x", "at least one point", x)
  if (loss == "square") {
    ok <- is.numeric(y) && is.null(dim(y)) && length(y) == n && all(is.finite(y))
    if (!isTRUE(ok)) arg_error("y", sprintf("%d finite numbers, one per point of `x`", n), y)
  }
  units <- regression_units(unit, n, data)
  offset <- 0
  yb <- NULL
  classes <- NULL
  if (loss == "logistic") {
    classes <- label_classes(y)
    y <- svm_labels(y, n)   # (+-1, 0/1, logical or a two-level factor, as dp_svm())
    if (!is.null(y_bound)) dpfda_abort("`y_bound` is only used by the square loss.", arg = "y_bound")
  } else {
    if (is.null(y_bound)) {
      dpfda_abort("`y_bound` (a public bound B on |y|, or c(lower, upper)) is required for the square loss.",
                  arg = "y_bound")
    }
    # B (|y| <= B), or c(lower, upper): the responses are clamped to it and centred at its (public) midpoint,
    # which is added back to the release (post-processing), so the loss sees |y - mid| <= (upper - lower) / 2
    yb <- erm_y_bound(y_bound)
    y <- pmin(pmax(y, yb[1L]), yb[2L])
    offset <- yb[1L] / 2 + yb[2L] / 2
    y <- y - offset
    y_bound <- yb[2L] / 2 - yb[1L] / 2
  }
  basis <- kl_basis(kernel, grid, J = J)
  eta <- if (is.null(eta)) (if (kernel$type == "gaussian") 1.25 else 1 + 0.5 / kernel_edr(kernel, d) + 0.25) else
    check_number(eta, "eta", lower = 0, lower_open = TRUE, upper = 10)
  lam <- basis$values
  V <- basis$vectors
  dom <- as_domain(domain, grid)
  idx <- nearest_grid_point(clamp_to_domain(pts, dom), as_points(basis$grid, "grid"))
  Phi <- V[idx, , drop = FALSE]
  prior <- 1 / lam^eta                                    # ||f||_K^2 = sum c_j^2 prior_j
  kappa <- sqrt(max((V^2) %*% lam^eta))
  # psi is on the unit-measure domain (issue 28): ||f||_K^2 scales as S^(1 - eta) under a change of
  # units of the argument (S: basis_measure()), so the objective uses psi * S^(eta - 1), the same
  # trade-off between fit and smoothness in every unit
  psi_n <- psi * basis_measure(basis)^(eta - 1)
  if (!(is.finite(psi_n) && psi_n > 0)) {
    dpfda_abort("`psi` under- or overflows on the scale of this grid; rescale the grid.",
                class = "dpfda_error_numeric", arg = "psi")
  }
  fit <- if (is.null(units)) erm_solve(Phi, as.double(y), psi_n, prior, loss)
         else erm_solve(Phi, as.double(y), psi_n, prior, loss, v = n * erm_weights(n, units))
  if (!is.null(units)) n <- units$n   # (each unit's rows weigh one row: n counts units)
  M <- if (loss == "square") 2 * (y_bound + kappa * y_bound / sqrt(psi_n)) else 1
  sens <- M * kappa / (n * psi_n) * sqrt(sum(lam^(eta - 1)))
  if (!is.finite(sens)) {
    dpfda_abort("The ERM sensitivity overflows; increase `psi` or `eta`.", class = "dpfda_error_numeric")
  }
  out <- iclp_release_core("iclp_qr", fit, lam, basis, n, epsilon, tau = NA_real_,
                           params = list(params = list(eta = eta, psi = 0)), o = list(), kernel = kernel,
                           sensitivity = sens, noise = noise, what = "dp_erm()")
  vals <- new_dpfda_curves(out$values + offset, basis$grid, dom)
  rel <- new_iclp_erm_release(vals, mechanism = paste0("erm-", loss), epsilon = epsilon, delta = 0,
                              sensitivity = out$sensitivity, noise_scale = out$noise_scale, noise = kernel,
                              call = call, coefficients = as.vector(kl_coef(basis, out$values)), basis = basis,
                              params = list(eta = eta, psi = psi, J = basis$J, kappa = kappa, M = M, loss = loss),
                              n = n, noise_exact = out$noise_exact, grid_step = out$grid_step,
                              noise_inflation = out$noise_inflation, y_bound = yb, offset = offset)
  if (!is.null(units)) {
    # (n counts units, the sensitivity's n; not their rows, whose number is private)
    rel$privacy_unit <- privacy_unit_points(n, units$label)
  }
  rel$classes <- classes
  release_close(formula_release(rel, fd %||% fr, response = loss == "square"), budget, "dp_erm")
}

#' The release of dp_erm(): class `dpfda_iclp_erm_release`.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()).
#' @param coefficients,basis The released KL coefficients and the public basis.
#' @param params The tuning and the loss (eta, psi, J, kappa, M, loss).
#' @param n The number of training points (public).
#' @param noise_exact,grid_step,noise_inflation The exact-noise record of the
#'   ICLP core (always stored, possibly NULL).
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_iclp_erm_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                                 call = NULL, coefficients = NULL, basis = NULL, params = NULL, n = NULL,
                                 noise_exact = NULL, grid_step = NULL, noise_inflation = NULL, y_bound = NULL,
                                 offset = 0, predictors = NULL) {
  release_from_fields(new_iclp_erm_release, "dpfda_iclp_erm_release",
                      nullable = c("noise_exact", "grid_step", "noise_inflation", "y_bound"))
}

#' @rdname dp_erm
#' @param object A `dpfda_iclp_erm_release`.
#' @param newdata `NULL` for the grid, or new points (the Nystrom extension,
#'   post-processing). For a release fit through a formula, a data frame
#'   (e.g. a test set) whose predictor columns are taken by name.
#' @param type `"link"` (default) for the released function; for the
#'   logistic loss also `"response"`, the probability of the positive class
#'   (`plogis()` of it), and `"class"`, the positive class where the function
#'   is \eqn{\ge 0} in the labels' own terms (a factor with the levels of a
#'   factor `y`, `TRUE`/`FALSE` for logical labels, \eqn{\pm 1} for
#'   numeric ones). For the square loss `"response"` is the function itself.
#' @export
predict.dpfda_iclp_erm_release <- function(object, newdata = NULL, type = c("link", "response", "class"), ...) {
  type <- check_choice(type, c("link", "response", "class"), "type")
  logistic <- identical(object$params$loss, "logistic")
  if (type == "class" && !logistic) {
    dpfda_abort("type = \"class\" is for the logistic loss; this release has the square loss (use \"response\").",
                arg = "type")
  }
  v <- predict.dpfda_release(object, newdata, ...)
  if (!logistic || type == "link") return(v)
  if (type == "response") return(stats::plogis(v))
  score_classes(v, object$classes)
}

#' @export
release_predict.dpfda_iclp_erm_release <- function(object, newdata, ...) {
  as.vector(stats::predict(object$basis, newdata) %*% object$coefficients) + (object$offset %||% 0)
}

#' @export
release_details.dpfda_iclp_erm_release <- function(x) {
  p <- x$params
  pts <- if (is.null(x$privacy_unit)) sprintf("%d points", x$n) else sprintf("the points of %d units", x$n)
  cat(sprintf("  %s-loss ERM of %s: psi = %s, eta = %s, J = %d, kappa = %s, M = %s\n", p$loss, pts,
              format(p$psi, digits = 4), format(p$eta, digits = 4), p$J, format(p$kappa, digits = 4),
              format(p$M, digits = 4)))
  yb <- x$y_bound
  if (!is.null(yb)) {
    cat(sprintf("  responses clamped to [%s, %s]%s\n", format(yb[1L], digits = 4), format(yb[2L], digits = 4),
                if (x$offset != 0) sprintf(" and centred at %s (added back)", format(x$offset, digits = 4)) else ""))
  }
}

# The square loss's y_bound: B > 0 (|y| <= B) or c(lower, upper), as c(lower, upper).
erm_y_bound <- function(y_bound) {
  if (is.numeric(y_bound) && is.null(dim(y_bound)) && length(y_bound) == 1L) {
    B <- check_number(y_bound, "y_bound", lower = 0, lower_open = TRUE, upper = 1e150)
    return(c(-B, B))
  }
  ok <- is.numeric(y_bound) && is.null(dim(y_bound)) && length(y_bound) == 2L && all(is.finite(y_bound)) &&
    y_bound[1L] < y_bound[2L] && all(abs(y_bound) <= 1e150)
  if (!isTRUE(ok)) {
    arg_error("y_bound", "a positive number B (|y| <= B), or c(lower, upper) with lower < upper (finite, at most 1e150 in size)",
              y_bound)
  }
  as.double(y_bound)
}

# Index of the nearest grid point of each row of pts (Euclidean), in chunks.
nearest_grid_point <- function(pts, gp) {
  if (ncol(gp) == 1L) {
    o <- order(gp[, 1L])
    s <- gp[o, 1L]
    i <- findInterval(pts[, 1L], s, all.inside = TRUE)
    if (length(s) == 1L) return(rep(o[1L], nrow(pts)))
    left <- pts[, 1L] - s[i] <= s[i + 1L] - pts[, 1L]
    return(o[ifelse(left, i, i + 1L)])
  }
  out <- integer(nrow(pts))
  g2 <- rowSums(gp^2)
  chunk <- max(1L, floor(2e6 / nrow(gp)))
  for (s in seq(1L, nrow(pts), by = chunk)) {
    r <- s:min(nrow(pts), s + chunk - 1L)
    D <- outer(rowSums(pts[r, , drop = FALSE]^2), g2, "+") - 2 * pts[r, , drop = FALSE] %*% t(gp)
    out[r] <- max.col(-D, ties.method = "first")
  }
  out
}

# Coefficients minimising (1/n) sum v_i l(Phi c, y) + psi sum prior_j c_j^2, with v_i = 1, or with a
# privacy unit n / (n_units k_i) for a row of a unit with k_i rows (each unit's rows weigh one row).
erm_solve <- function(Phi, y, psi, prior, loss, v = rep(1, nrow(Phi))) {
  solve <- function(A, b) {
    tryCatch(base::solve(A, b), error = function(e) {
      dpfda_abort(sprintf("The ERM system is numerically singular (%s); increase `psi`.", conditionMessage(e)),
                  class = "dpfda_error_numeric", arg = "psi")
    })
  }
  n <- nrow(Phi)
  if (loss == "square") {
    r <- sqrt(v)
    A <- crossprod(Phi * r) / n
    diag(A) <- diag(A) + psi * prior
    return(as.vector(solve(A, crossprod(Phi, v * y) / n)))
  }
  cf <- numeric(ncol(Phi))
  for (it in seq_len(100L)) {
    f <- as.vector(Phi %*% cf)
    p <- 1 / (1 + exp(y * f))                           # -dl/df / y
    g <- -as.vector(crossprod(Phi, v * y * p)) / n + 2 * psi * prior * cf
    if (sqrt(sum(g^2)) < 1e-10) break
    H <- crossprod(Phi, Phi * (v * p * (1 - p))) / n
    diag(H) <- diag(H) + 2 * psi * prior
    cf <- cf - solve(H, g)
  }
  cf
}
