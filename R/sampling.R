# Gaussian-process paths on public grids (src/gp.c).

#' Gaussian-process sample paths
#'
#' Draws `n` independent paths of the centred Gaussian process with
#' covariance `kernel` at the points of `grid`, through the package's noise
#' source (see [dp_rng()]). Four exact samplers are available:
#'
#' * `"cholesky"`: any kernel on any points. The Gram matrix \eqn{K} is
#'   factored by LAPACK `dpotrf` after adding `jitter * variance` to its
#'   diagonal, multiplied by 10 until the factorisation succeeds. Jitter only
#'   *adds* independent white noise, so the covariance used is
#'   \eqn{K + \tau I \succeq K}: safe for privacy (never less noise). The jitter
#'   used is returned in the `jitter` field.
#' * `"markov"`: exponential (Ornstein--Uhlenbeck) kernel in one dimension,
#'   by the exact AR(1) recursion \eqn{g_k = \rho_k g_{k-1} +
#'   \sqrt{v(1-\rho_k^2)} z_k}, \eqn{\rho_k = e^{-(t_k - t_{k-1})/\ell}}, in
#'   \eqn{O(m)} time and memory.
#' * `"kronecker"`: separable kernels (Gaussian with isotropic, per-dimension
#'   or diagonal `H` bandwidths; exponential with the L1 norm) on a tensor
#'   grid, as \eqn{(L_1 \otimes \cdots \otimes L_d) z} from per-axis Cholesky
#'   factors.
#' * `"circulant"`: any kernel on a regular one-dimensional grid, by circulant
#'   embedding and the FFT in \eqn{O(M \log M)}. The embedding of size \eqn{M}
#'   (a power of two, at least \eqn{2(m-1)}) is doubled up to three times until
#'   its eigenvalues are non-negative (up to \eqn{10^{-10}} of the largest).
#'   Accepted eigenvalues are raised, never lowered, by a bound on the FFT
#'   rounding error, so the covariance again dominates \eqn{K}. If the
#'   embedding stays indefinite, `"auto"` falls back to `"cholesky"`.
#'
#' `"auto"` picks `"markov"` for the exponential kernel in one dimension,
#' `"kronecker"` for separable kernels on tensor grids, `"circulant"` for
#' regular one-dimensional grids of at least 64 points, and `"cholesky"`
#' otherwise.
#'
#' @param n Number of paths.
#' @param kernel A kernel, see [kernels].
#' @param grid Points: a vector, an `m x d` matrix, or a list of axis vectors
#'   (a tensor grid), see [curves()].
#' @param method The sampler, see Details.
#' @param jitter Relative size of the first jitter rung of the Cholesky
#'   ladder (multiplied by the kernel variance).
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A [curves()] object with `n` paths and fields `method` (sampler
#'   used), `jitter` (absolute jitter added to the diagonal, 0 if none) and
#'   `rng` (the noise-source mode). A one-dimensional grid is sorted, as in
#'   [curves()].
#' @examples
#' g <- rgp(5, kernel_matern(3/2, 0.1), seq(0, 1, length.out = 200))
#' g$method
#' plot(g)
#' rgp(1, kernel_exponential(0.1), runif(50), method = "markov")
#' rgp(1, kernel_gaussian(0.2), list(seq(0, 1, 0.05), seq(0, 1, 0.05)))
#' @export
rgp <- function(n, kernel, grid,
                method = c("auto", "cholesky", "markov", "kronecker", "circulant"),
                jitter = 1e-10, ...) {
  check_dot_names(dot_args(), character(), "rgp")
  check_required()
  n <- check_count(n, "n")
  check_kernel(kernel)
  method <- check_choice(method, c("auto", "cholesky", "markov", "kronecker", "circulant"), "method")
  jitter <- check_number(jitter, "jitter", lower = 0, upper = 1e-2)
  grid <- as_grid(grid, "grid")
  if (is.null(dim(grid))) grid <- sort(grid)   # curves keep 1-D grids sorted
  pts <- as_points(grid, "grid")
  d <- ncol(pts)
  m <- nrow(pts)
  kernel_scale_points(kernel, pts[1L, , drop = FALSE], "grid")   # dimension check
  check_alloc(as.double(n) * m, "matrix of sample paths")

  axes <- tensor_axes(grid)
  factors <- if (!is.null(axes)) kernel_axis_factors(kernel, d) else NULL
  regular <- d == 1L && m >= 3L && is_regular_grid(grid)
  if (method == "auto") {
    method <- if (d == 1L && kernel_is_markov_1d(kernel)) "markov"
      else if (d > 1L && !is.null(factors)) "kronecker"
      else if (regular && m >= 64L) "circulant"
      else "cholesky"
  }
  out <- switch(method,
    markov = {
      if (d != 1L || !kernel_is_markov_1d(kernel)) {
        dpfda_abort("`method = \"markov\"` needs the exponential kernel on one-dimensional points.",
                    arg = "method")
      }
      list(paths = c_gp_markov_path(grid, 1 / kernel$lengthscale,
                                    sqrt(kernel$variance), n), jitter = 0)
    },
    kronecker = {
      if (is.null(factors)) {
        dpfda_abort(paste("`method = \"kronecker\"` needs a separable kernel (Gaussian with diagonal",
                          "bandwidth, or exponential with the L1 norm) on a tensor grid."),
                    arg = "method")
      }
      tau <- 0
      Ls <- lapply(seq_len(d), function(j) {
        f <- chol_jitter(kernel_matrix(factors[[j]], axes[[j]]), jitter)
        tau <<- max(tau, f$jitter)
        f$L
      })
      list(paths = sqrt(kernel$variance) * c_gp_kronecker(Ls, n),
           jitter = kernel$variance * tau)
    },
    circulant = {
      if (!regular) {
        dpfda_abort("`method = \"circulant\"` needs a regular one-dimensional grid (3 or more points).",
                    arg = "method")
      }
      r <- sample_circulant(n, kernel, grid)
      if (is.null(r)) {
        if (m > 10000L) {
          dpfda_abort("The circulant embedding is not positive semi-definite and the grid is too large for the Cholesky fallback.",
                      class = "dpfda_error_numeric")
        }
        method <- "cholesky"
        sample_cholesky(n, kernel, pts, jitter)
      } else r
    },
    cholesky = sample_cholesky(n, kernel, pts, jitter)
  )
  if (!all(is.finite(out$paths))) {
    dpfda_abort(sprintf(paste("The sample paths overflowed (kernel variance %s); rescale the data",
                              "so that the kernel variance is smaller."), format(kernel$variance)),
                class = "dpfda_error_numeric")
  }
  res <- new_dpfda_curves(out$paths, grid, as_domain(NULL, grid))
  res$method <- method
  res$jitter <- out$jitter
  res$rng <- dp_rng()
  res
}

sample_cholesky <- function(n, kernel, pts, jitter) {
  # the factor depends only on public inputs: cached for the session with the KL bases
  # (R/kl-basis.R), so repeated releases on one grid factorise once; same draws either way
  # (small grids factorise faster than the cache look-up: not cached)
  key <- if (nrow(pts) >= 64L) list(what = "cholesky", kernel = kernel, pts = pts, jitter = jitter)
  f <- if (!is.null(key)) kl_cache_get(key)
  if (is.null(f)) {
    check_alloc(as.double(nrow(pts))^2, "kernel matrix")
    K <- kernel_matrix(kernel, pts)
    v <- max(diag(K))
    f <- c_chol_factor(K, jitter * v, 1e-2 * v)
    rm(K)
    if (f$info != 0L) {
      dpfda_abort(sprintf("the kernel matrix is not positive definite even with jitter %g (LAPACK info %d)",
                          f$jitter, f$info), class = "dpfda_error_numeric")
    }
    f <- list(vectors = f$L, jitter = f$jitter)   # `vectors`: sized like a basis by kl_cache_put()
    if (!is.null(key)) kl_cache_put(key, f)
  }
  list(paths = c_gp_chol_draw(f$vectors, n), jitter = f$jitter)
}

# Circulant embedding on a sorted regular grid; NULL when no embedding of up to 8 times the minimal
# size is positive semi-definite.
sample_circulant <- function(n, kernel, grid) {
  m <- length(grid)
  h <- (grid[m] - grid[1L]) / (m - 1)
  M <- 2^ceiling(log2(2 * (m - 1)))
  for (pad in 0:3) {
    Mp <- M * 2^pad
    check_alloc(4 * Mp, "circulant embedding")
    k <- 0:(Mp - 1)
    cov <- kernel_profile_1d(kernel, pmin(k, Mp - k) * h)
    r <- c_gp_circulant(cov, m, n, 1e-10)
    if (!is.null(r$paths)) return(list(paths = r$paths, jitter = 0, embedding = Mp))
  }
  NULL
}

is_regular_grid <- function(grid, tol = 1e-9) {
  g <- sort(grid)
  h <- diff(g)
  all(abs(h - mean(h)) <= tol * mean(h))
}

#' Cholesky factor with a jitter ladder
#'
#' Lower-triangular \eqn{L} with \eqn{L L^\top = A + \tau I}, where \eqn{\tau}
#' starts at `jitter * max(diag(A))` (raised to at least \eqn{10 m
#' \epsilon_{mach}} times that maximum so that it dominates rounding) and is
#' multiplied by 10 until LAPACK `dpotrf` succeeds. The jitter only adds to the
#' diagonal.
#'
#' @param A A symmetric matrix.
#' @param jitter Relative size of the first rung (0 tries without jitter first).
#' @param max_jitter Relative size of the last rung.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A list with `L` and `jitter` (the absolute \eqn{\tau}).
#' @examples
#' K <- kernel_matrix(kernel_gaussian(0.1), seq(0, 1, length.out = 300))
#' chol_jitter(K)$jitter
#' @export
chol_jitter <- function(A, jitter = 1e-10, max_jitter = 1e-2, ...) {
  check_dot_names(dot_args(), character(), "chol_jitter")
  check_required()
  ok <- is.numeric(A) && is.matrix(A) && nrow(A) == ncol(A) && nrow(A) >= 1L && all(is.finite(A))
  if (!isTRUE(ok)) arg_error("A", "a square numeric matrix of finite values", A)
  if (!isSymmetric(unname(A), tol = 1e-10 * max(1, max(abs(A))))) {
    arg_error("A", "a symmetric matrix", A)
  }
  jitter <- check_number(jitter, "jitter", lower = 0, upper = 1)
  max_jitter <- check_number(max_jitter, "max_jitter", lower = 0, lower_open = TRUE)
  storage.mode(A) <- "double"
  v <- max(abs(diag(A)), .Machine$double.xmin)
  f <- c_chol_factor(A, jitter * v, max_jitter * v)
  if (f$info != 0L) {
    dpfda_abort(sprintf("`A` is not positive semi-definite: the Cholesky factorisation failed even with jitter %s.",
                        format(f$jitter, digits = 3)), class = "dpfda_error_numeric", arg = "A")
  }
  if (!all(is.finite(f$L))) {
    dpfda_abort("The Cholesky factor of `A` overflowed; rescale `A` (or lower `max_jitter`).",
                class = "dpfda_error_numeric", arg = "A")
  }
  f[c("L", "jitter")]
}
