# Kernel objects. A kernel is a small list of public parameters; evaluation
# happens in C (src/kernels.c) after the points are rescaled to unit
# lengthscale here.

kernel_codes <- c(gaussian = 1L, exponential_l1 = 2L, exponential_l2 = 3L, matern = 4L)

new_dpfda_kernel <- function(type, lengthscale, variance, ..., class = character()) {
  structure(list(type = type, lengthscale = lengthscale, variance = variance, ...),
            class = c(class, "dpfda_kernel"))
}

#' Kernels for Gaussian-process noise
#'
#' Kernel objects describe the covariance of the noise process and the
#' reproducing-kernel Hilbert space (RKHS) in which sensitivities are
#' measured.
#'
#' * `kernel_gaussian()`: \eqn{v \exp(-\|x-y\|^2 / (2\ell^2))}. `lengthscale`
#'   may be one number (isotropic) or one number per dimension. Alternatively
#'   a full bandwidth matrix `H` (symmetric positive definite) gives
#'   \eqn{v \exp(-(x-y)^\top H^{-1} (x-y) / 2)}, the kernel of a Gaussian KDE
#'   with bandwidth matrix `H` up to its normalising constant.
#' * `kernel_exponential()`: \eqn{v \exp(-\|x-y\|_p / \ell)} with the L1
#'   (`norm = "l1"`, the Sobolev/Laplace kernel, separable across dimensions)
#'   or L2 norm. In one dimension both are the Ornstein--Uhlenbeck kernel.
#'   `lengthscale` may be one number per dimension, each coordinate divided
#'   by its own: with the L1 norm,
#'   \eqn{v \exp(-\sum_d |x_d - y_d| / \ell_d)}, a product of
#'   one-dimensional kernels.
#' * `kernel_matern()`: Matern kernel of smoothness `nu` in the Euclidean
#'   distance \eqn{r}, \eqn{v\, 2^{1-\nu}/\Gamma(\nu)\, (\sqrt{2\nu} r/\ell)^\nu
#'   K_\nu(\sqrt{2\nu} r/\ell)}; closed forms for \eqn{\nu = 1/2, 3/2, 5/2},
#'   the modified Bessel function otherwise.
#'
#' @param lengthscale Positive lengthscale(s) \eqn{\ell}.
#' @param variance Positive marginal variance \eqn{v = k(x, x)}.
#' @param H Optional symmetric positive-definite bandwidth matrix (Gaussian
#'   only); when given, `lengthscale` is not used.
#' @param norm `"l1"` or `"l2"`.
#' @param nu Positive smoothness of the Matern kernel.
#' @return An object of class `dpfda_kernel`.
#' @examples
#' kernel_gaussian(0.1)
#' kernel_gaussian(H = diag(c(0.1, 0.2)))
#' kernel_exponential(0.5, norm = "l1")
#' kernel_matern(nu = 5/2, lengthscale = 0.3)
#' @name kernels
NULL

#' @rdname kernels
#' @export
kernel_gaussian <- function(lengthscale = 1, variance = 1, H = NULL, ...) {
  check_dot_names(dot_args(), character(), "kernel_gaussian")
  variance <- check_number(variance, "variance", lower = 0, lower_open = TRUE)
  # checked even when `H` is given (and `lengthscale` unused), so that garbage is not ignored
  check_kernel_lengthscale(lengthscale)
  if (!is.null(H)) {
    if (is.numeric(H) && is.null(dim(H)) && length(H) == 1L) H <- matrix(H)
    ok <- is.numeric(H) && is.matrix(H) && nrow(H) == ncol(H) && nrow(H) >= 1L &&
      all(is.finite(H)) && isSymmetric(unname(H), tol = 1e-10)
    if (!isTRUE(ok)) arg_error("H", "a symmetric positive-definite numeric matrix", H)
    R <- tryCatch(chol(unname(H)), error = function(e) NULL)
    if (is.null(R)) arg_error("H", "a symmetric positive-definite numeric matrix", H)
    storage.mode(R) <- "double"
    return(new_dpfda_kernel("gaussian", lengthscale = NULL, variance = variance,
                            H = unname(H), H_chol = R, dim = nrow(H)))
  }
  new_dpfda_kernel("gaussian", lengthscale = as.double(lengthscale), variance = variance,
                   H = NULL, dim = if (length(lengthscale) > 1L) length(lengthscale) else NA_integer_)
}

# A kernel's lengthscale: one positive number, or one per dimension.
check_kernel_lengthscale <- function(lengthscale) {
  ok <- is.numeric(lengthscale) && is.null(dim(lengthscale)) && length(lengthscale) >= 1L &&
    all(is.finite(lengthscale)) && all(lengthscale > 0)
  if (!isTRUE(ok)) arg_error("lengthscale", "a positive number (or one per dimension)", lengthscale)
  invisible(lengthscale)
}

#' @rdname kernels
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @export
kernel_exponential <- function(lengthscale = 1, norm = c("l1", "l2"), variance = 1, ...) {
  check_dot_names(dot_args(), character(), "kernel_exponential")
  check_kernel_lengthscale(lengthscale)
  norm <- check_choice(norm, c("l1", "l2"), "norm")
  variance <- check_number(variance, "variance", lower = 0, lower_open = TRUE)
  # (one lengthscale per dimension: each coordinate divided by its own; with the l1 norm the kernel is
  # then the product of one-dimensional exponential kernels)
  new_dpfda_kernel("exponential", lengthscale = as.double(lengthscale), variance = variance,
                   norm = norm, dim = if (length(lengthscale) > 1L) length(lengthscale) else NA_integer_)
}

#' @rdname kernels
#' @export
kernel_matern <- function(nu = 3 / 2, lengthscale = 1, variance = 1, ...) {
  check_dot_names(dot_args(), character(), "kernel_matern")
  nu <- check_number(nu, "nu", lower = 0, lower_open = TRUE, upper = 1e3)
  lengthscale <- check_number(lengthscale, "lengthscale", lower = 0, lower_open = TRUE)
  variance <- check_number(variance, "variance", lower = 0, lower_open = TRUE)
  new_dpfda_kernel("matern", lengthscale = lengthscale, variance = variance, nu = nu,
                   dim = NA_integer_)
}

check_kernel <- function(kernel, arg = "kernel") {
  if (!inherits(kernel, "dpfda_kernel")) {
    arg_error(arg, "a kernel object such as kernel_gaussian()", kernel)
  }
  kernel
}

kernel_code <- function(kernel) {
  switch(kernel$type,
         gaussian = kernel_codes[["gaussian"]],
         exponential = if (kernel$norm == "l1") kernel_codes[["exponential_l1"]]
                       else kernel_codes[["exponential_l2"]],
         matern = kernel_codes[["matern"]])
}

# Rescale points so that the kernel has unit lengthscale.
kernel_scale_points <- function(kernel, x, arg = "x") {
  d <- ncol(x)
  if (!is.na(kernel$dim) && kernel$dim != d) {
    dpfda_abort(sprintf("`%s` has %d column%s but the kernel is defined in %d dimensions.",
                        arg, d, if (d == 1L) "" else "s", kernel$dim), arg = arg)
  }
  xs <- if (kernel$type == "gaussian" && !is.null(kernel$H)) {
    t(backsolve(kernel$H_chol, t(x), transpose = TRUE))
  } else {
    ls <- kernel$lengthscale
    if (length(ls) > 1L && length(ls) != d) {   # (sweep() would recycle them over the points, with a warning)
      dpfda_abort(sprintf("`%s` has %d column%s but the kernel has %d lengthscales, one per dimension.", arg, d,
                          if (d == 1L) "" else "s", length(ls)), arg = arg)
    }
    if (length(ls) == 1L) x / ls else sweep(x, 2L, ls, "/")
  }
  if (!all(is.finite(xs))) {
    dpfda_abort(sprintf("`%s` overflows when divided by the kernel's lengthscale; rescale the points.", arg),
                class = "dpfda_error_numeric", arg = arg)
  }
  xs
}

#' Kernel (Gram) matrices
#'
#' Evaluates \eqn{k(x_i, y_j)} for all pairs of rows, in C.
#'
#' @param kernel A kernel object, see [kernels].
#' @param x Points: a numeric vector (one-dimensional points) or a matrix with
#'   one point per row.
#' @param y Points in the same dimension; by default `x`, in which case the
#'   symmetric Gram matrix is returned.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A `nrow(x)` by `nrow(y)` matrix.
#' @examples
#' kernel_matrix(kernel_gaussian(0.5), c(0, 0.5, 1))
#' kernel_matrix(kernel_matern(5/2), matrix(runif(6), 3), matrix(runif(4), 2))
#' @export
kernel_matrix <- function(kernel, x, y = x, ...) {
  check_dot_names(dot_args(), character(), "kernel_matrix")
  check_required()
  check_kernel(kernel)
  sym <- missing(y) || identical(x, y)
  x <- as_points(x, "x")
  xs <- kernel_scale_points(kernel, x, "x")
  if (sym) {
    ys <- NULL
  } else {
    y <- as_points(y, "y", d = ncol(x))
    ys <- kernel_scale_points(kernel, y, "y")
  }
  check_alloc(as.double(nrow(x)) * (if (sym) nrow(x) else nrow(y)), "kernel matrix")
  c_kernel_gram(xs, ys, kernel_code(kernel),
                as.double(if (is.null(kernel$nu)) 0.5 else kernel$nu), kernel$variance)
}

# k(r) for a one-dimensional stationary use: distances r >= 0.
kernel_profile_1d <- function(kernel, r) {
  as.vector(kernel_matrix(kernel, matrix(r, ncol = 1L), matrix(0, 1L, 1L)))
}

# Separable kernels factor across coordinates: returns per-axis 1-D kernels
# (unit variance) or NULL.
kernel_axis_factors <- function(kernel, d) {
  if (kernel$type == "gaussian") {
    ls <- if (!is.null(kernel$H)) {
      if (any(abs(kernel$H[row(kernel$H) != col(kernel$H)]) > 0)) return(NULL)
      sqrt(diag(kernel$H))
    } else rep_len(kernel$lengthscale, d)
    return(lapply(ls, function(l) kernel_gaussian(l)))
  }
  if (kernel$type == "exponential" && (kernel$norm == "l1" || d == 1L)) {
    return(lapply(rep_len(kernel$lengthscale, d), function(l) kernel_exponential(l, "l1")))
  }
  if (d == 1L) return(list(kernel))
  NULL
}

# Exponential kernel in 1-D (OU process): Markov, sampled by AR(1).
kernel_is_markov_1d <- function(kernel) {
  (kernel$type == "exponential" || (kernel$type == "matern" && kernel$nu == 0.5)) && length(kernel$lengthscale) == 1L
}

#' @export
format.dpfda_kernel <- function(x, ...) {
  v <- if (x$variance == 1) "" else paste0(format(x$variance, digits = 4), " * ")
  switch(x$type,
    gaussian = if (!is.null(x$H)) {
      sprintf("Gaussian kernel %sexp(-(x - y)' H^-1 (x - y) / 2), H %d x %d", v, nrow(x$H), ncol(x$H))
    } else {
      sprintf("Gaussian kernel %sexp(-|x - y|^2 / (2 l^2)), l = %s", v,
              paste(format(x$lengthscale, digits = 4), collapse = ", "))
    },
    exponential = sprintf("Exponential kernel %sexp(-|x - y|_%s / l), l = %s", v,
                          substring(x$norm, 2), paste(format(x$lengthscale, digits = 4), collapse = ", ")),
    matern = sprintf("Matern kernel, nu = %s, l = %s%s", format(x$nu, digits = 4),
                     format(x$lengthscale, digits = 4),
                     if (x$variance == 1) "" else paste0(", variance = ", format(x$variance, digits = 4)))
  )
}

#' @export
print.dpfda_kernel <- function(x, ...) {
  cat("<dpfda_kernel> ", format(x), "\n", sep = "")
  invisible(x)
}

# Refuse allocations that cannot work before C tries them. The default limit,
# 2^29 doubles (4.3 GB), can be raised with options(dpfda.max_doubles = ).
check_alloc <- function(n_doubles, what, limit = getOption("dpfda.max_doubles", 2^29)) {
  if (!is.finite(n_doubles) || n_doubles > limit) {
    dpfda_abort(sprintf(paste("The %s would need %s doubles (%s GB), more than dpfda allows (%s).",
                              "Use fewer points (a coarser grid, fewer test points or a subsample of",
                              "public points), or raise options(dpfda.max_doubles = ) if the memory is there."),
                        what, format(n_doubles, big.mark = ",", scientific = FALSE),
                        format(n_doubles * 8 / 1e9, digits = 3),
                        format(limit, big.mark = ",", scientific = FALSE)),
                class = "dpfda_error_numeric")
  }
  invisible(TRUE)
}
