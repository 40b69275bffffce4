# Karhunen-Loeve bases of kernels on public grids and ICLP sample paths
# (Lin and Reimherr). The C core is src/iclp.c.

#' Karhunen--Loeve basis of a kernel on a grid
#'
#' Discretises the integral operator \eqn{(Cf)(s) = \int C(s, t) f(t)\,dt}
#' on the public `grid` with quadrature weights \eqn{W = diag(w)} and
#' returns its eigenpairs: the eigenvectors \eqn{u_j} and eigenvalues
#' \eqn{\gamma_j} of the symmetric matrix \eqn{W^{1/2} G W^{1/2}}
#' (\eqn{G_{ik} = C(t_i, t_k)}, LAPACK `dsyevr`) give the operator's
#' eigenvalues \eqn{\lambda_j = \gamma_j} and eigenfunctions on the grid
#' \eqn{v_j(t_i) = u_{ij} / \sqrt{w_i}}, orthonormal in the weighted inner
#' product \eqn{\langle f, g \rangle_W = \sum_i w_i f(t_i) g(t_i)}
#' (\eqn{V^\top W V = I}). Then \eqn{G = V \mathrm{diag}(\lambda) V^\top} when
#' all eigenpairs are kept.
#'
#' **Which eigenpairs are kept.** Eigenvalues that are not positive or not
#' above `tol` times the largest are dropped (they are rounding noise and
#' their inverse square roots would blow up the ICLP sensitivities). With
#' `J = NULL` all remaining eigenpairs are kept; otherwise the `J` largest,
#' and asking for more than remain is an error. Signs are fixed so that the
#' largest entry (in absolute value) of each \eqn{u_j} is positive (the first
#' one within a relative \eqn{10^{-9}} of the largest, so that mirrored
#' entries of symmetric and antisymmetric vectors decide alike).
#'
#' **Weights.** By default the trapezoid rule on the grid (products of
#' trapezoid rules on tensor grids), as in [integrate_curves()]; pass
#' `weights = rep(1/m, m)` to reproduce the authors' code.
#'
#' **Speed.** Only the kept eigenpairs are computed (LAPACK `dsytrd`, then
#' `dstemr` on the index range of the kept eigenvalues and the
#' back-transformation of those vectors only). On a grid symmetric about its
#' centre with symmetric weights (a uniform grid, a tensor of such grids) and
#' a stationary kernel, the weighted Gram matrix is centrosymmetric and is
#' split exactly (an orthogonal change of basis) into two half-size blocks
#' whose eigenvectors are the symmetric and the antisymmetric ones: a quarter
#' of the work. The exponential kernel (and Matern with \eqn{\nu = 1/2}) on a
#' one-dimensional grid needs no \eqn{m^3} step: its Gram matrix has a
#' tridiagonal inverse (the Ornstein-Uhlenbeck process is Markov), so the
#' eigenvalues are the reciprocals of those of a tridiagonal matrix, with the
#' same eigenvectors (`dsterf`, then `dstemr` for the kept vectors); it is
#' used when the weighted Gram matrix has condition number at most
#' \eqn{10^6} (the largest eigenvalues then agree with the dense route to
#' about \eqn{10^{-10}} relative), the dense route otherwise. At m = 500
#' with all eigenpairs kept: about 19 ms against 43 ms, 1.3 Cholesky
#' factorisations. A separable kernel (a Gaussian kernel with one
#' lengthscale per axis or a diagonal `H`, the exponential kernel with the
#' \eqn{l_1} norm) on a tensor grid with product weights (the default
#' trapezoid weights, or equal weights) needs no \eqn{m^3} step either: the
#' weighted Gram matrix is the Kronecker product of the axes' ones, so its
#' eigenpairs are the products of the axes' eigenpairs, exactly. On a
#' 51 x 51 grid that takes the basis from about 5 s to a tenth of a second,
#' and the noise law of an ICLP release on it draws its paths through the
#' axes' eigenvectors. Within an eigenvalue shared by several products (equal
#' axes) this basis is the product one, where the dense route would return
#' an arbitrary rotation of it; the ICLP sensitivities are computed in
#' whichever basis the noise is added. Bases are cached for the R
#' session per (kernel, grid, weights, `tol`, `J`): repeated releases on the
#' same public grid reuse the basis instead of recomputing it. The cache holds
#' at most `getOption("dpfda.kl_cache_size", 8)` bases (0 disables it); all
#' its inputs are public, so caching has no privacy cost.
#'
#' **Nystrom extension.** `predict(basis, newdata)` evaluates the
#' eigenfunctions at new points by \eqn{v_j(x) = \lambda_j^{-1} \sum_i w_i
#' C(x, t_i) v_j(t_i)}, which reproduces \eqn{v_j} at the grid points.
#'
#' @param kernel A kernel, see [kernels].
#' @param grid The public grid: a vector, an `m x d` matrix or a list of axis
#'   vectors (see [curves()]). A one-dimensional grid is sorted (with its
#'   weights).
#' @param J `NULL` (all eigenvalues above the tolerance) or the number of
#'   leading eigenpairs to keep.
#' @param weights `NULL` (trapezoid rule) or `m` positive quadrature weights.
#' @param tol Relative eigenvalue tolerance in \[0, 1).
#' @param object,x A `dpfda_kl_basis`.
#' @param newdata Points at which to evaluate the eigenfunctions.
#' @param ... Unused.
#' @return `kl_basis()`: an object of class `dpfda_kl_basis` with `values`
#'   (\eqn{\lambda_1 \ge \dots \ge \lambda_J > 0}), `vectors` (`m x J`,
#'   \eqn{v_j} on the grid), `J`, `grid`, `weights`, `kernel`, `trace`
#'   (\eqn{\sum_{j \le J} \lambda_j}), `trace_total` (\eqn{\sum_i w_i C(t_i,
#'   t_i)}, the trace of the discretised operator), `n_positive` and `tol`.
#'   `predict()`: a `length(newdata) x J` matrix of \eqn{v_j(x)}.
#' @examples
#' t <- seq(0, 1, length.out = 101)
#' b <- kl_basis(kernel_matern(3/2, 0.1), t, J = 20)
#' b
#' b$trace
#' round(crossprod(b$vectors, b$weights * b$vectors)[1:3, 1:3], 10)
#' v <- predict(b, c(0.005, 0.5))
#' @export
kl_basis <- function(kernel, grid, J = NULL, weights = NULL, tol = 1e-12, ...) {
  check_dot_names(dot_args(), character(), "kl_basis")
  check_required()
  check_kernel(kernel)
  grid <- as_grid(grid, "grid")
  m <- grid_size(grid)
  tol <- check_number(tol, "tol", lower = 0, upper = 1, upper_open = TRUE)
  if (!is.null(J)) J <- check_count(J, "J", min = 1, max = m)
  pts <- as_points(grid, "grid")
  kernel_scale_points(kernel, pts[1L, , drop = FALSE], "grid")   # dimension check
  if (is.null(weights)) {
    w <- quadrature_weights(grid)
    if (m == 1L) w <- 1
  } else {
    ok <- is.numeric(weights) && is.null(dim(weights)) && length(weights) == m &&
      all(is.finite(weights)) && all(weights > 0)
    if (!isTRUE(ok)) arg_error("weights", sprintf("%d positive finite quadrature weights", m), weights)
    w <- as.double(weights)
  }
  if (is.null(dim(grid)) && is.unsorted(grid)) {
    o <- order(grid)
    grid <- grid[o]
    w <- w[o]
    pts <- pts[o, , drop = FALSE]
  }
  # small grids: the eigendecomposition is faster than the cache look-up
  key <- if (m >= 32L) list(kernel = kernel, pts = pts, w = w, tol = tol, J = J)
  hit <- if (!is.null(key)) kl_cache_get(key)
  if (!is.null(hit)) {
    hit$grid <- grid
    hit$kernel <- kernel
    return(hit)
  }
  Jc <- if (is.null(J)) -1L else J
  # a separable kernel on a tensor grid: products of the axes' eigenpairs, O(sum m_d^3)
  r <- kl_kron_basis(kernel, pts, w, tol, Jc)
  if (is.null(r)) check_alloc(4 * as.double(m)^2, "weighted Gram matrix and its eigenvectors")
  # exponential kernel on a 1-D grid: from the tridiagonal inverse of the Gram
  # matrix, O(m^2) (src/kl-markov.c); NULL when ill-conditioned or not applicable
  if (is.null(r) && is.null(dim(grid)) && m >= 3L && kernel_is_markov_1d(kernel) &&
      length(kernel$lengthscale) == 1L) {
    r <- c_kl_markov_basis(as.double(grid), w, 1 / kernel$lengthscale, kernel$variance, tol, Jc)
  }
  trace_total <- kernel$variance * sum(w)   # (a stationary kernel: k(t, t) = variance)
  if (is.null(r)) {
    G <- kernel_matrix(kernel, pts)
    if (!all(is.finite(G)) || !all(is.finite(sqrt(w) * G))) {
      dpfda_abort("The weighted Gram matrix overflows; rescale the kernel variance or the weights.",
                  class = "dpfda_error_numeric")
    }
    r <- c_iclp_basis(G, w, tol, Jc)
    trace_total <- sum(w * diag(G))
  }
  if (length(r$values) == 0L) {
    dpfda_abort("The kernel has no positive eigenvalue on this grid.", class = "dpfda_error_numeric")
  }
  if (!is.null(J) && J > r$n_positive) {
    dpfda_abort(sprintf(paste("`J` must be at most %d, the number of eigenvalues above `tol` times the",
                              "largest on this grid, not %d."), r$n_positive, J), arg = "J")
  }
  out <- structure(list(values = r$values, vectors = r$vectors, J = length(r$values), grid = grid,
                        weights = w, kernel = kernel, trace = sum(r$values),
                        trace_total = trace_total, n_positive = r$n_positive, tol = tol, kron = r$kron),
                   class = "dpfda_kl_basis")
  if (!is.null(key)) kl_cache_put(key, out)
  out
}

# The basis of a separable kernel k(x, y) = v prod_d k_d(x_d, y_d) on a tensor grid whose weights are a
# product w = (x) w_d (the trapezoid rule's are): W^{1/2} G W^{1/2} is then the Kronecker product of the
# axes' weighted Gram matrices, so its eigenpairs are the products of the axes' eigenpairs, exactly.
# Each axis needs only the eigenvalues above tol times its largest (a product with a smaller factor is
# below tol times the largest product). NULL when not applicable (the dense route then runs). The
# result also keeps the factors (`kron`: the axes' eigenvectors and each component's index on every
# axis), from which noise_law() draws paths without the m x J matrix.
kl_kron_basis <- function(kernel, pts, w, tol, J) {
  D <- ncol(pts)
  k1 <- if (D >= 2L) kernel_axis_factors(kernel, D)   # (NULL: not separable)
  if (is.null(k1)) return(NULL)
  axes <- tensor_axes(pts)
  if (is.null(axes) || any(lengths(axes) < 2L) || any(vapply(axes, is.unsorted, NA))) return(NULL)
  dims <- lengths(axes)
  wd <- weight_factors(w, dims)
  if (is.null(wd)) return(NULL)
  b <- lapply(seq_len(D), function(d) kl_basis(k1[[d]], axes[[d]], weights = wd[[d]], tol = tol))
  lam <- kernel$variance * Reduce(function(acc, bd) as.vector(outer(acc, bd$values)), b[-1L], b[[1L]]$values)
  o <- order(lam, decreasing = TRUE)
  o <- o[lam[o] > 0 & lam[o] > tol * lam[o[1L]]]
  npos <- length(o)
  if (J > 0L && J < npos) o <- o[seq_len(J)]
  check_alloc(3 * as.double(nrow(pts)) * length(o), "Karhunen-Loeve basis (grid points x components)")
  Jd <- vapply(b, function(bd) bd$J, 1L)
  idx <- arrayInd(o, Jd)                       # each kept component's eigenvector on every axis
  V <- b[[1L]]$vectors[, idx[, 1L], drop = FALSE]
  for (d in 2:D) {
    Vd <- b[[d]]$vectors[, idx[, d], drop = FALSE]
    V <- V[rep(seq_len(nrow(V)), times = dims[d]), , drop = FALSE] *
      Vd[rep(seq_len(dims[d]), each = nrow(V)), , drop = FALSE]
  }
  # the sign convention of the dense route: positive at the first entry of u = sqrt(w) v within 1e-9
  # (relative) of the largest (the axes' conventions give it in exact arithmetic; this is for rounding)
  sw <- sqrt(w)
  for (j in seq_len(ncol(V))) {
    u <- abs(V[, j]) * sw
    i <- which(u >= max(u) * (1 - 1e-9))[1L]
    if (V[i, j] < 0) V[, j] <- -V[, j]
  }
  list(values = lam[o], vectors = V, n_positive = npos,
       kron = list(vectors = lapply(b, function(bd) bd$vectors), index = idx, dims = Jd))
}

# w = (x)_d w_d (the first axis fastest) for a weight vector on a tensor grid of size dims: the factors,
# or NULL when w is not such a product.
weight_factors <- function(w, dims) {
  D <- length(dims)
  W <- array(w, dims)
  tot <- sum(w)
  f <- lapply(seq_len(D), function(d) apply(W, d, sum))
  f[[1L]] <- f[[1L]] / tot^(D - 1L)
  prod_w <- Reduce(function(acc, fd) as.vector(outer(acc, fd)), f[-1L], f[[1L]])
  if (max(abs(prod_w - w)) > 1e-12 * max(abs(w))) return(NULL)
  f
}

# The map from coefficients on the components `idx` of a Kronecker basis (one draw per row of z) to
# paths on the grid (one per row), through the axes' eigenvectors: O(m sum_d m_d) per path instead
# of O(m J).
kron_coef_map <- function(kron, idx) {
  pos <- as.vector((kron$index[idx, , drop = FALSE] - 1L) %*% cumprod(c(1, kron$dims[-length(kron$dims)]))) + 1
  full <- length(pos) == prod(kron$dims) && identical(pos, seq_along(pos))
  function(z) {
    if (!full) {
      C <- matrix(0, nrow(z), prod(kron$dims))
      C[, pos] <- z
      z <- C
    }
    kron_rows_apply(z, kron$vectors, kron$dims)
  }
}

# Session cache of KL bases. The basis depends only on public inputs (kernel,
# grid points, weights, tol, J), so repeated releases on the same grid reuse
# it. Entries are found by a cheap hash of the serialised inputs and confirmed
# with identical() on the inputs themselves (a hash collision can only cost a
# recomputation, never return a wrong basis). At most
# getOption("dpfda.kl_cache_size", 8) bases are kept (first in, first out);
# 0 disables the cache; bases above 256 MB are not cached.
kl_cache <- new.env(parent = emptyenv())

kl_hash <- function(x) {
  r <- as.integer(serialize(x, NULL, xdr = FALSE))
  n <- length(r)
  sprintf("%d:%.0f:%.0f:%.0f", n, sum(r), sum(r[seq.int(1L, n, by = 7L)]), sum(r[seq.int(2L, n, by = 3L)]))
}

kl_cache_size <- function() {
  s <- getOption("dpfda.kl_cache_size", 8)
  if (!is.numeric(s) || length(s) != 1L || is.na(s) || s < 0) 8 else floor(s)
}

kl_cache_get <- function(key) {
  if (kl_cache_size() == 0) return(NULL)
  h <- kl_hash(key)
  e <- kl_cache$entries[[h]]
  if (is.null(e) || !identical(e$key, key)) return(NULL)
  e$basis
}

kl_cache_put <- function(key, basis) {
  size <- kl_cache_size()
  if (size == 0 || 8 * as.double(length(basis$vectors)) > 2^28) return(invisible())
  h <- kl_hash(key)
  entries <- kl_cache$entries
  if (is.null(entries)) entries <- list()
  entries[[h]] <- list(key = key, basis = basis)
  if (length(entries) > size) entries <- entries[seq.int(length(entries) - size + 1L, length(entries))]
  kl_cache$entries <- entries
  invisible()
}

# Empties the cache (tests, benchmarks).
kl_cache_clear <- function() {
  kl_cache$entries <- list()
  invisible()
}

#' @rdname kl_basis
#' @export
predict.dpfda_kl_basis <- function(object, newdata, ...) {
  pts <- as_points(object$grid, "grid")
  p <- as_points(newdata, "newdata", d = ncol(pts))
  check_alloc(as.double(nrow(p)) * (nrow(pts) + object$J), "Nystrom extension")
  K <- kernel_matrix(object$kernel, p, pts)
  out <- K %*% (object$weights * object$vectors)
  sweep(out, 2L, object$values, "/")
}

#' @rdname kl_basis
#' @export
print.dpfda_kl_basis <- function(x, ...) {
  cat(sprintf("<dpfda_kl_basis> %d eigenpair%s of %s\n", x$J, if (x$J == 1L) "" else "s",
              format(x$kernel)))
  cat(sprintf("  on %d grid points; lambda in [%s, %s]; trace %s of %s\n", length(x$weights),
              format(x$values[x$J], digits = 4), format(x$values[1L], digits = 4),
              format(x$trace, digits = 6), format(x$trace_total, digits = 6)))
  invisible(x)
}

# Coefficients <f, v_j>_W of the rows of an n x m matrix: n x J.
kl_coef <- function(basis, values) values %*% (basis$weights * basis$vectors)

#' Independent Component Laplace Process paths
#'
#' Draws `n` paths of the ICLP \eqn{X = \sum_{j \le J} \sqrt{\lambda_j} Z_j
#' v_j} with \eqn{(\lambda_j, v_j)} from [kl_basis()] and \eqn{Z_j}
#' independent **unit-variance** Laplace variables (scale \eqn{1/\sqrt 2}),
#' drawn in C through the package noise source (see [dp_rng()]). Its
#' covariance on the grid is the truncated kernel \eqn{\sum_{j \le J}
#' \lambda_j v_j(s) v_j(t)}, equal to the kernel matrix when all eigenpairs
#' are kept (the default).
#'
#' @param n Number of paths.
#' @param kernel A kernel (see [kernels]) or a precomputed [kl_basis()]
#'   (then `grid` is ignored and `J` may only shorten it).
#' @param grid The public grid, see [curves()].
#' @param J `NULL` (all positive eigenvalues, see [kl_basis()]) or the number
#'   of components.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A [curves()] object with `n` paths and fields `J` (components
#'   used), `trace` (\eqn{\sum \lambda_j}, the expected squared weighted norm)
#'   and `rng` (the noise-source mode).
#' @examples
#' t <- seq(0, 1, length.out = 100)
#' x <- riclp(3, kernel_matern(3/2, 0.1), t)
#' plot(x)
#' riclp(2, kernel_gaussian(0.2), t, J = 10)
#' @export
riclp <- function(n, kernel, grid, J = NULL, ...) {
  check_dot_names(dot_args(), character(), "riclp")
  check_required(c("n", "kernel"))   # `grid` only with a kernel: a kl_basis() carries its grid
  n <- check_count(n, "n", max = 2^31 - 1)
  if (!inherits(kernel, "dpfda_kl_basis")) check_required("grid")
  if (inherits(kernel, "dpfda_kl_basis")) {
    basis <- kernel
    if (!is.null(J)) {
      J <- check_count(J, "J", min = 1, max = basis$J)
      basis$values <- basis$values[seq_len(J)]
      basis$vectors <- basis$vectors[, seq_len(J), drop = FALSE]
      basis$J <- J
    }
  } else {
    basis <- kl_basis(kernel, grid, J = J)
  }
  m <- nrow(basis$vectors)
  check_alloc(as.double(n) * m, "matrix of sample paths")
  paths <- c_iclp_draw(basis$vectors, sqrt(basis$values), n, NULL)
  if (!all(is.finite(paths))) {
    dpfda_abort("The sample paths overflowed; rescale the kernel variance.", class = "dpfda_error_numeric")
  }
  res <- new_dpfda_curves(paths, basis$grid, as_domain(NULL, basis$grid))
  res$J <- basis$J
  res$trace <- sum(basis$values)
  res$rng <- dp_rng()
  res
}
