# Non-private Gaussian kernel density estimates on a public grid. Used by the
# private mechanisms (which never return these values) and by users who want
# the non-private reference for comparison.

#' Gaussian kernel density estimate on a grid (non-private)
#'
#' \eqn{f_D(t) = \frac{1}{n} \sum_i (2\pi)^{-d/2} |H|^{-1/2}
#' \exp(-\frac12 (t - x_i)^\top H^{-1} (t - x_i))} evaluated at the points of
#' `grid`, in C. The bandwidth is a scalar \eqn{h} (\eqn{H = h^2 I}), one
#' \eqn{h_j} per dimension (\eqn{H = \mathrm{diag}(h_j^2)}) or a matrix
#' \eqn{H}; the normalising constant is applied in log space so that large
#' dimensions neither overflow nor underflow. This is **not private**; see
#' [dp_kde()] for the private release.
#'
#' With `binned = TRUE` (one dimension only) the data are first linearly
#' binned onto `bins` equally spaced centres spanning `domain` (without a
#' `domain`, the range of the grid, and points beyond it enter exactly,
#' each with its own kernel), and the estimate is the kernel sum over bins:
#' \eqn{O(n + m B)} instead of \eqn{O(nm)}. Each data point becomes a convex combination of kernels at
#' two neighbouring centres, which changes the estimate by \eqn{O(\delta^2)}
#' (\eqn{\delta} the bin width) and leaves its RKHS sensitivity unchanged
#' (see [sensitivity_kde()]).
#'
#' @param x Data: a vector or an `n x d` matrix.
#' @param grid Public evaluation points (see [curves()]).
#' @param bandwidth \eqn{h} (a number), \eqn{(h_1, \dots, h_d)}, or a
#'   \eqn{d \times d} bandwidth matrix \eqn{H}; or a `dpfda_bandwidth` from
#'   [dp_bandwidth()].
#' @param domain Public bounds on the data: `c(lower, upper)` in one
#'   dimension or a `2 x d` matrix. Data outside are clamped to it, as the
#'   private releases of [dp_kde()] do. `NULL` (default): the data are used
#'   as they are (a Gaussian kernel needs no bounds), so the estimate at a
#'   few points, e.g. the queries of [dp_online()], is the estimate of all
#'   the data there. (It used to clamp the data to the range of the grid:
#'   evaluated at the single point 3, the estimate of `faithful$eruptions`
#'   was that of 272 points at 3.)
#' @param binned Use the binned fast path (one dimension only). `NULL` uses it
#'   when \eqn{n \cdot m > 10^7}.
#' @param bins Number of bin centres; by default at least 4096 and at least 8
#'   per bandwidth across the domain.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A `dpfda_curves` object with one curve. Its grid is sorted, as in
#'   every curves object: for an unsorted `grid`, `$values[1, ]` follows the
#'   sorted points (`f$values[1, match(grid, f$grid)]` gives them in the
#'   order of `grid`). [dp_bernstein()] and [dp_online()] take a target that
#'   returns this object and align it with their points.
#' @examples
#' x <- c(rnorm(50, 0.3, 0.1), rnorm(50, 0.7, 0.1))
#' grid <- seq(0, 1, length.out = 200)
#' f <- kde_gaussian(x, grid, 0.1)
#' plot(f)
#' @export
kde_gaussian <- function(x, grid, bandwidth, domain = NULL, binned = NULL, bins = NULL, ...) {
  check_dot_names(dot_args(), character(), "kde_gaussian")
  check_required()
  grid <- as_grid(grid, "grid")
  if (is.null(dim(grid))) grid <- sort(grid)
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  x <- as_points(x, "x", d = d)
  clamp <- !is.null(domain)   # (without a public domain the data are used as they are)
  domain <- as_domain(domain, grid)
  if (clamp) x <- clamp_to_domain(x, domain)
  bw <- as_bandwidth(bandwidth, d)
  n <- nrow(x)
  m <- grid_size(grid)
  if (is.null(binned)) binned <- d == 1L && as.double(n) * m > 1e7
  binned <- check_flag(binned, "binned")
  if (!is.null(bins)) bins <- check_count(bins, "bins", min = 2, max = 2^26)
  if (binned && d != 1L) {
    dpfda_abort("`binned = TRUE` is available in one dimension only.", arg = "binned")
  }
  pts <- as_points(grid, "grid")
  if (binned) {
    h <- sqrt(bw$H[1, 1])
    if (is.null(bins)) bins <- kde_default_bins(domain, h)
    delta <- diff(domain) / (bins - 1)
    if (!is.finite(delta / h) || !(delta / h > 0) || !all(is.finite(c(x, pts, domain) / h))) {
      dpfda_abort("`bandwidth` is out of range for binning on this domain; use binned = FALSE.",
                  class = "dpfda_error_numeric", arg = "bandwidth")
    }
    beyond <- as.vector(x < domain[1] | x > domain[2])   # (only without a domain: points beyond the bins, exactly)
    s <- c_kde_binned_sum(as.double(x[!beyond]) / h, as.double(pts) / h, domain[1] / h, delta / h, bins)
    if (any(beyond)) s <- s + c_kde_sum(bw$scale(x[beyond, , drop = FALSE]), bw$scale(pts))
  } else {
    check_alloc(as.double(n) * m / 64, "kernel sum (n x m / 64)")
    s <- c_kde_sum(bw$scale(x), bw$scale(pts))
  }
  vals <- exp(bw$log_norm - log(n) + log(s))
  new_dpfda_curves(matrix(vals, nrow = 1L), grid, domain)
}

# The default number of bin centres of the binned estimate.
kde_default_bins <- function(domain, h) min(2^22, max(4096, ceiling(8 * diff(domain) / h) + 1))

# The bin width of the estimate kde_gaussian() makes of n points at m points
# (0 when it does not bin), by its own rule; the population band of a
# release bounds the binning error with it.
kde_bin_width <- function(n, m, d, domain, bandwidth, binned = NULL, bins = NULL) {
  if (d != 1L) return(0)
  if (is.null(binned)) binned <- as.double(n) * m > 1e7
  if (!isTRUE(binned)) return(0)
  if (is.null(bins)) bins <- kde_default_bins(domain, sqrt(as_bandwidth(bandwidth, 1L)$H[1, 1]))
  diff(domain) / (bins - 1)
}

# Bandwidth as H with a rescaling function (x -> x H^{-1/2}) and the log of
# the Gaussian normalising constant (2 pi)^{-d/2} |H|^{-1/2}.
as_bandwidth <- function(bandwidth, d, arg = "bandwidth") {
  if (inherits(bandwidth, "dpfda_bandwidth")) bandwidth <- bandwidth$bandwidth
  if (is.numeric(bandwidth) && is.matrix(bandwidth)) {
    k <- tryCatch(kernel_gaussian(H = bandwidth), dpfda_error = function(e) {
      arg_error(arg, "a positive number, one per dimension, or a positive-definite matrix", bandwidth)
    })
    if (nrow(bandwidth) != d) {
      dpfda_abort(sprintf("`%s` is %d x %d but the data have %d dimension%s.", arg, nrow(bandwidth),
                          ncol(bandwidth), d, if (d == 1L) "" else "s"), arg = arg)
    }
    logdet <- 2 * sum(log(diag(k$H_chol)))
  } else {
    ok <- is.numeric(bandwidth) && is.null(dim(bandwidth)) && length(bandwidth) %in% c(1L, d) &&
      all(is.finite(bandwidth)) && all(bandwidth > 0)
    if (!isTRUE(ok)) {
      what <- if (d == 1L) "a positive number (or a 1 x 1 positive-definite matrix)" else
        sprintf("a positive number, %d positive numbers, or a %d x %d positive-definite matrix", d, d, d)
      # (a bandwidth chosen from the data spends privacy: dp_bandwidth() does it, with its own epsilon)
      if (is.character(bandwidth)) what <- paste0(what, "; for one chosen privately from the data, see dp_bandwidth()")
      arg_error(arg, what, bandwidth)
    }
    h <- rep_len(as.double(bandwidth), d)
    k <- kernel_gaussian(if (length(bandwidth) == 1L) h[1] else h)
    logdet <- 2 * sum(log(h))
  }
  list(kernel = k, H = if (!is.null(k$H)) k$H else diag(rep_len(k$lengthscale, d)^2, d),
       isotropic = is.null(k$H) && length(k$lengthscale) == 1L,
       log_norm = -0.5 * d * log(2 * pi) - 0.5 * logdet, logdet = logdet,
       scale = function(p) kernel_scale_points(k, p, "x"))
}

clamp_to_domain <- function(x, domain) {
  if (is.null(dim(domain))) return(pmin(pmax(x, domain[1]), domain[2]))
  for (j in seq_len(ncol(x))) x[, j] <- pmin(pmax(x[, j], domain[1, j]), domain[2, j])
  x
}
