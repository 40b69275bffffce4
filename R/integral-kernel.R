# The integral (bin-average) Gaussian kernel and the GP fit to released bin
# means (Smith et al.): data-free building blocks and post-processing of
# dp_bin_regression() (R/mech-gp-binning.R).

# ---- integral kernel ----------------------------------------------------------

#' Integral (bin-average) Gaussian kernel
#'
#' Covariances of bin averages of a Gaussian process with the Gaussian
#' kernel \eqn{k(u, u') = v \exp(-\sum_j (u_j - u'_j)^2 / (2 \ell_j^2))}
#' (the convention of [kernel_gaussian()]), in closed form, as used by the
#' integral-binning baseline of Smith et al. (supplement, "Integral Kernel").
#' In one dimension, with \eqn{a = \sqrt 2 \ell} and
#' \eqn{g(z) = z \sqrt\pi\, \mathrm{erf}(z) + e^{-z^2}},
#' \deqn{k_{FF}((s,t),(s',t')) = \int_s^t\!\!\int_{s'}^{t'} k(u,u')\,du'\,du
#'   = \frac{a^2}{2}\big[g(\frac{t-s'}{a}) + g(\frac{t'-s}{a})
#'   - g(\frac{t-t'}{a}) - g(\frac{s-s'}{a})\big],}
#' \deqn{k_{Ff}((s,t), u) = \int_s^t k(u', u)\,du'
#'   = \frac{\sqrt\pi\, a}{2}\big[\mathrm{erf}(\frac{t-u}{a})
#'   + \mathrm{erf}(\frac{u-s}{a})\big],}
#' times \eqn{v}; in several dimensions the product over dimensions. The
#' paper's code (GPy's integral kernel) writes the kernel as
#' \eqn{\exp(-r^2/\ell^2)}, i.e. its lengthscale is our \eqn{a = \sqrt 2 \ell}.
#'
#' @param lower,upper Corners of the boxes: `B x D` matrices (vectors in one
#'   dimension).
#' @param lower2,upper2 Corners of the second set of boxes (default: the
#'   first).
#' @param points Points for the cross-covariance (vector or `P x D` matrix).
#' @param lengthscale One lengthscale, or one per dimension.
#' @param variance Kernel variance \eqn{v}.
#' @param average If `TRUE`, covariances of bin *averages* (divided by the
#'   volumes) instead of integrals.
#' @return `integral_kernel()`: the `B x B2` matrix of \eqn{k_{FF}};
#'   `integral_cross_kernel()`: the `P x B` matrix of \eqn{k_{fF}}.
#' @examples
#' # GPy convention exp(-r^2 / 0.7^2) is lengthscale 0.7 / sqrt(2) here
#' integral_kernel(0.1, 1.3, -0.4, 0.5, lengthscale = 0.7 / sqrt(2))  # 0.5051847
#' integral_cross_kernel(c(0, 0.5), 0, 1, lengthscale = 0.3)
#' @export
integral_kernel <- function(lower, upper, lower2 = lower, upper2 = upper, lengthscale = 1,
                            variance = 1, average = FALSE, ...) {
  check_dot_names(dot_args(), character(), "integral_kernel")
  check_required()
  b1 <- check_boxes(lower, upper, "lower", "upper")
  b2 <- check_boxes(lower2, upper2, "lower2", "upper2", d = ncol(b1$lower))
  ls <- check_lengthscales(lengthscale, ncol(b1$lower))
  variance <- check_number(variance, "variance", lower = 0, lower_open = TRUE)
  average <- check_flag(average, "average")
  if (average) {
    check_box_width(b1, "lower", "upper")
    check_box_width(b2, "lower2", "upper2")
  }
  check_alloc(as.double(nrow(b1$lower)) * nrow(b2$lower), "integral kernel matrix")
  K <- integral_gram(b1$lower, b1$upper, b2$lower, b2$upper, ls, average = average)
  out <- variance * K
  if (!all(is.finite(out))) {
    dpfda_abort("The integral kernel overflows; rescale the boxes or the variance.",
                class = "dpfda_error_numeric", arg = "variance")
  }
  out
}

#' @rdname integral_kernel
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @export
integral_cross_kernel <- function(points, lower, upper, lengthscale = 1, variance = 1,
                                  average = FALSE, ...) {
  check_dot_names(dot_args(), character(), "integral_cross_kernel")
  check_required()
  b <- check_boxes(lower, upper, "lower", "upper")
  pts <- as_points(points, "points", d = ncol(b$lower))
  ls <- check_lengthscales(lengthscale, ncol(b$lower))
  variance <- check_number(variance, "variance", lower = 0, lower_open = TRUE)
  average <- check_flag(average, "average")
  if (average) check_box_width(b, "lower", "upper")
  check_alloc(as.double(nrow(pts)) * nrow(b$lower), "integral kernel matrix")
  K <- integral_cross(pts, b$lower, b$upper, ls, average = average)
  out <- variance * K
  if (!all(is.finite(out))) {
    dpfda_abort("The integral kernel overflows; rescale the boxes or the variance.",
                class = "dpfda_error_numeric", arg = "variance")
  }
  out
}

check_boxes <- function(lower, upper, arg_lo, arg_hi, d = NULL) {
  lo <- as_points(lower, arg_lo, d = d)
  hi <- as_points(upper, arg_hi, d = ncol(lo))
  if (nrow(lo) != nrow(hi)) {
    dpfda_abort(sprintf("`%s` and `%s` must have the same number of boxes (rows).", arg_lo, arg_hi),
                arg = arg_hi)
  }
  if (any(hi < lo)) {
    dpfda_abort(sprintf("`%s` must not be below `%s`.", arg_hi, arg_lo), arg = arg_hi)
  }
  list(lower = lo, upper = hi)
}

check_lengthscales <- function(lengthscale, D) {
  ok <- is.numeric(lengthscale) && is.null(dim(lengthscale)) && length(lengthscale) %in% c(1L, D) &&
    all(is.finite(lengthscale)) && all(lengthscale > 0)
  if (!isTRUE(ok)) arg_error("lengthscale", sprintf("a positive number (or %d, one per dimension)", D),
                             lengthscale)
  rep_len(as.double(lengthscale), D)
}

# k_FF (unit variance, product over dimensions), B1 x B2, computed in C
# (src/binning.c); optionally of the averages (divided by the widths), and
# with deriv = TRUE also l_j dK/dl_j (a B1 x B2 x D array, attribute "dK").
integral_gram <- function(lo1, hi1, lo2, hi2, ls, average = FALSE, deriv = FALSE) {
  r <- c_integral_gram(lo1, hi1, lo2, hi2, as.double(ls), average, deriv)
  if (deriv) structure(r$K, dK = r$dK) else r$K
}

# k_fF (unit variance): P points x B boxes.
integral_cross <- function(pts, lo, hi, ls, average = TRUE) {
  c_integral_cross(pts, lo, hi, as.double(ls), average)
}

# ---- integral GP fit (post-processing of the released bin means) -------------

integral_option_names <- c("lengthscale", "variance", "noise_variance", "optimise")

check_integral_options <- function(opts, D) {
  known <- integral_option_names
  nm <- names(opts)
  if (length(opts) && (is.null(nm) || any(!nzchar(nm)) || any(!nm %in% known))) {
    bad <- if (is.null(nm)) "unnamed" else paste(setdiff(nm, known), collapse = ", ")
    dpfda_abort(sprintf("Unknown argument(s) in `...`: %s (the integral fit takes %s).",
                        if (nzchar(bad)) bad else "unnamed", paste(known, collapse = ", ")),
                arg = "...")
  }
  out <- list(lengthscale = NULL, variance = NULL, noise_variance = NULL, optimise = TRUE)
  if (!is.null(opts$lengthscale)) out$lengthscale <- check_lengthscales(opts$lengthscale, D)
  if (!is.null(opts$variance)) {
    out$variance <- check_number(opts$variance, "variance", lower = 0, lower_open = TRUE)
  }
  if (!is.null(opts$noise_variance)) {
    out$noise_variance <- check_number(opts$noise_variance, "noise_variance", lower = 0, lower_open = TRUE)
  }
  if (!is.null(opts$optimise)) out$optimise <- check_flag(opts$optimise, "optimise")
  out
}

# The covariance of the released means of the bins `lohi` under the integral-kernel GP
# (lengthscale ls, variance v) plus independent noise of variance `noise` per bin.
integral_bins_cov <- function(lohi, ls, v, noise) {
  K <- v * integral_gram(lohi$lower, lohi$upper, lohi$lower, lohi$upper, ls, average = TRUE)
  diag(K) <- diag(K) + noise
  K
}

# Fit the integral-kernel GP to the released means of the occupied bins by
# type-II maximum likelihood. Uses only the release (public).
integral_gp_fit <- function(rel, opts) {
  dom <- rel$domain
  D <- ncol(dom)
  d <- diff(rel$y_bound)
  occ <- which(rel$counts > 0)
  width <- dom[2, ] - dom[1, ]
  binw <- width / rel$bins
  ls0 <- if (is.null(opts$lengthscale)) width / 4 else opts$lengthscale
  v0 <- if (is.null(opts$variance)) (d / 4)^2 else opts$variance
  t0 <- if (is.null(opts$noise_variance)) (d / 20)^2 else opts$noise_variance
  if (!length(occ)) {
    return(list(lengthscale = ls0, variance = v0, noise_variance = t0, alpha = numeric(0),
                log_likelihood = 0, convergence = 0L, optimised = FALSE))
  }
  yv <- as.vector(rel$values$values)[occ] - mean(rel$y_bound)
  lohi <- bin_bounds(occ, rel$bins, dom)
  lap_var <- 2 * rel$laplace_scale[occ]^2
  cache <- new.env()
  eval_nll <- function(th) {
    if (!identical(cache$th, th)) {
      cache$val <- integral_nll(th, lohi, yv, lap_var)
      cache$th <- th
    }
    cache$val
  }
  nll <- function(th) eval_nll(th)$f
  nll_grad <- function(th) eval_nll(th)$g
  th0 <- c(log(ls0), log(v0), log(t0))
  lower <- c(log(binw / 20), log(1e-8 * d^2), log(1e-10 * d^2))
  upper <- c(log(width * 20), log(25 * d^2), log(4 * d^2))
  th0 <- pmin(pmax(th0, lower), upper)
  conv <- 0L
  if (isTRUE(opts$optimise)) {
    starts <- list(th0)
    if (is.null(opts$lengthscale)) {
      starts[[2L]] <- replace(th0, seq_len(D), pmin(pmax(log(2 * binw), lower[seq_len(D)]), upper[seq_len(D)]))
    }
    best <- NULL
    for (st in starts) {
      o <- tryCatch(stats::optim(st, nll, nll_grad, method = "L-BFGS-B", lower = lower, upper = upper,
                                 control = list(maxit = 200, factr = 1e9)),
                    error = function(e) NULL)
      if (!is.null(o) && (is.null(best) || o$value < best$value)) best <- o
    }
    if (!is.null(best)) {
      th0 <- best$par
      conv <- best$convergence
    }
  }
  ls <- exp(th0[seq_len(D)])
  v <- exp(th0[D + 1L])
  tau <- exp(th0[D + 2L])
  fct <- chol_jitter(integral_bins_cov(lohi, ls, v, lap_var + tau), jitter = 0)
  alpha <- backsolve(t(fct$L), forwardsolve(fct$L, yv))
  list(lengthscale = ls, variance = v, noise_variance = tau, alpha = as.vector(alpha),
       log_likelihood = -nll(th0), convergence = as.integer(conv), optimised = isTRUE(opts$optimise))
}

# Negative log-likelihood of the released means (yv, centred) of the boxes
# lohi with known Laplace variances, and its gradient in
# theta = (log l_1..l_D, log v, log tau^2).
integral_nll <- function(th, lohi, yv, lap_var) {
  D <- ncol(lohi$lower)
  ls <- exp(th[seq_len(D)])
  v <- exp(th[D + 1L])
  tau <- exp(th[D + 2L])
  Kb <- integral_gram(lohi$lower, lohi$upper, lohi$lower, lohi$upper, ls, average = TRUE, deriv = TRUE)
  K <- v * Kb
  diag(K) <- diag(K) + lap_var + tau
  R <- tryCatch(chol(K), error = function(e) NULL)
  if (is.null(R)) return(list(f = 1e100, g = rep(0, D + 2L)))
  z <- backsolve(R, yv, transpose = TRUE)
  f <- 0.5 * sum(z^2) + sum(log(diag(R))) + 0.5 * length(yv) * log(2 * pi)
  alpha <- backsolve(R, z)
  W <- chol2inv(R) - tcrossprod(alpha)       # dNLL / dtheta = tr(W dK / dtheta) / 2
  dK <- attr(Kb, "dK")
  g <- c(vapply(seq_len(D), function(j) 0.5 * v * sum(W * dK[, , j]), 1),
         0.5 * v * sum(W * Kb), 0.5 * tau * sum(diag(W)))
  if (!is.finite(f) || !all(is.finite(g))) return(list(f = 1e100, g = rep(0, D + 2L)))
  list(f = f, g = g)
}

# An average over a box of zero width is 0 / 0 (it said "the integral kernel overflows; rescale the
# boxes or the variance").
check_box_width <- function(b, lo, up) {
  flat <- which(rowSums(b$upper - b$lower <= 0) > 0)
  if (length(flat)) {
    dpfda_abort(sprintf(paste("Box %d of `%s`/`%s` has zero width in a coordinate: an average over it is 0 / 0.",
                              "Give boxes of positive width, or average = FALSE (the integral, 0 over a flat box);",
                              "a kernel at a point is kernel_matrix()."), flat[1L], lo, up), arg = up)
  }
}
