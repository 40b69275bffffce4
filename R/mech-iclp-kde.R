# Pure-DP kernel density estimation with the ICLP and FRL mechanisms
# (Lin and Reimherr, Section 4.3, Theorem 16, Remark 17). Called by dp_kde(mechanism = "iclp" / "frl").
#
# Summary. With (lambda_j, v_j) the kl_basis() of the covariance kernel C
# (lengthscale = bandwidth) on the public grid and K = C^eta the power kernel
# K(x, y) = sum_j lambda_j^eta v_j(x) v_j(y), the estimate is
#   f(t) = c / n sum_i sum_k p_ik K(t, t_k),
# where each data point is spread over the grid by (multi)linear binning
# (weights p_ik >= 0 summing to one) and c is a data-independent normaliser.
# Its coefficients are a_j = c lambda_j^eta (V' p)_j / n.
#
# Sensitivity (replace-one neighbours). One record changes the binning
# vector from u to u' (both convex combinations of rows of V), so
#   a_j - a'_j = c lambda_j^eta (u_j - u'_j) / n.
# ICLP norm: sum_j |a_j - a'_j| / sqrt(lambda_j) = (c/n) sum_j g_j |u_j - u'_j|
# with g_j = lambda_j^(eta - 1/2). This is convex in (u, u'), so its maximum
# over the product of simplices is at vertices: the exact sensitivity is the
# maximum over pairs of grid points (k, l) of (c/n) sum_j g_j |V_kj - V_lj|
# ("exact", O(m^2 J)). The triangle inequality gives (2c/n) max_k sum_j g_j
# |V_kj| ("triangle"), and Cauchy-Schwarz gives Theorem 16,
# (2c/n) sqrt(max_k sum_j lambda_j^eta V_kj^2) sqrt(sum_j lambda_j^(eta-1))
# ("theorem16"). FRL: the same with the l1 norm of the first M coefficients
# (g_j = lambda_j^eta for j <= M). The release is then exactly that of
# dp_mean(): noise sigma * sqrt(lambda_j) * Z_j with sigma = sqrt(2) Delta /
# epsilon (ICLP) or i.i.d. Laplace(Delta / epsilon) (FRL), drawn by
# iclp_release_core().
#
# Data outside memory. The data enter only through the binning vector p
# summed over records, each record's weights a convex combination summing to
# one (1/r per row of an individual with r rows keeps it so): the "kde_grid"
# summary of summarise_kde() (R/summary-bins.R), computed in a database or
# chunk by chunk. Everything after p is shared by both paths.

iclp_kde_options <- c("kernel", "eta", "J", "M", "tol", "sensitivity_method", "counts")

dp_kde_iclp <- function(x, grid, bandwidth, bw, epsilon, delta, mechanism, domain, binned, bins, call,
                        noise = "float", note_summary = NULL, ...) {
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1) (the mechanism is pure DP: delta = 0 is recorded)",
                        class = "dpfda_error_privacy")
  if (!is.null(binned)) check_flag(binned, "binned")       # unused: data are always binned to the grid
  if (!is.null(bins)) check_count(bins, "bins", min = 2, max = 1e8)
  opts <- list(...)
  if (length(opts) && (is.null(names(opts)) || any(!nzchar(names(opts))))) {
    abort_unnamed_dots()
  }
  engine <- is_engine_input(x)   # a table, chunks or summary: the weights p come from summarise_kde()
  bad <- setdiff(names(opts), c(iclp_kde_options, if (engine) c("columns", "id")))
  if (length(bad)) {
    why <- if (bad[1L] %in% c("allow_large_epsilon", "calibration")) {
      " (an option of the Gaussian calibration of \"gp\" and \"sobolev\": this pure-DP mechanism has none)"
    } else ""
    dpfda_abort(sprintf("`%s` is not an option of dp_kde(mechanism = \"%s\")%s; see ?dp_kde.", bad[1L],
                        mechanism, why), arg = bad[1L])
  }
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  if (!all(is.finite(bw$H))) arg_error("bandwidth", "a finite positive bandwidth", bandwidth)
  kernel <- iclp_kde_kernel(opts$kernel, bw, d, mechanism)
  h_edr <- if (kernel$type == "gaussian") Inf else kernel_edr(kernel, d)
  eta <- if (is.null(opts$eta)) 1 + 0.5 / h_edr + 0.25 else
    check_number(opts$eta, "eta", lower = 0.5, lower_open = TRUE, upper = 10)
  if (eta <= 1 + 0.5 / h_edr) {
    dpfda_warn(sprintf(paste("`eta` = %s is not above 1 + 1/(2h) = %s: the sensitivity is finite on the",
                             "grid but diverges as the grid is refined (Theorem 16)."),
                       format(eta), format(1 + 0.5 / h_edr)), "dpfda_warning_iclp")
  }
  tol <- if (is.null(opts$tol)) 1e-12 else
    check_number(opts$tol, "tol", lower = 0, upper = 1, upper_open = TRUE)
  J <- if (is.null(opts$J)) NULL else check_count(opts$J, "J", min = 1, max = grid_size(grid))
  axes <- kde_grid_axes(grid)
  dom <- as_domain(domain, grid)
  kde_check_domain(dom)
  if (engine) {
    s <- if (inherits(x, "dpfda_summary")) x else
      summarise_kde(x, grid, domain = dom, columns = opts$columns, id = opts$id, mechanism = "iclp",
                    counts = opts$counts)
    s <- check_summary(s, "kde_grid")
    if (is.function(note_summary)) note_summary(s)   # (dp_kde() says how many points the domain clamped)
    if (!isTRUE(all.equal(s$settings, list(axes = axes, domain = dom)))) {
      dpfda_abort("The summary was computed on another grid or `domain`.", arg = "grid")
    }
    p <- s$sums
    n <- s$n
    pu <- privacy_unit_points(n, s$unit, !is.null(s$counts))
  } else {
    pts <- clamp_to_domain(kde_input_points(x, d), dom)
    counts <- iclp_kde_counts(opts$counts, nrow(pts))
    n <- if (is.null(counts)) nrow(pts) else sum(counts)
    p <- iclp_kde_bin(pts, axes, counts)
    pu <- privacy_unit_points(n, records = !is.null(counts))
  }

  basis <- kl_basis(kernel, grid, J = J, tol = tol)
  lam <- basis$values
  V <- basis$vectors
  M <- NULL
  if (mechanism == "frl") {
    M <- if (is.null(opts$M)) {
      if (is.finite(h_edr)) pss_params("frl", n, epsilon, h_edr)$M else max(1L, floor(n^(1 / 3) + 1e-9))
    } else check_count(opts$M, "M", max = 1e5)
    M <- as.integer(min(M, basis$J))
  }
  nz <- iclp_kde_normaliser(basis, eta, dom)
  a <- nz * lam^eta * as.vector(crossprod(V, p)) / n
  method <- if (is.null(opts$sensitivity_method)) {
    if (as.double(nrow(V))^2 * basis$J <= 5e7) "exact" else "triangle"
  } else check_choice(opts$sensitivity_method, c("exact", "triangle", "theorem16"), "sensitivity_method")
  sens <- iclp_kde_sensitivity(basis, eta, n, nz, mechanism, M, method)
  if (!is.finite(sens)) {
    dpfda_abort("The KDE sensitivity overflows; increase `eta` or `tol`.", class = "dpfda_error_numeric")
  }
  out <- iclp_release_core(if (mechanism == "iclp") "iclp_qr" else "frl", a, lam, basis, n, epsilon,
                           tau = NA_real_, params = list(params = list(eta = eta, psi = 0, M = M)),
                           o = list(frl_bound = "M"), kernel = kernel, sensitivity = sens, noise = noise,
                           what = sprintf("dp_kde(mechanism = \"%s\")", mechanism))
  vals <- new_dpfda_curves(out$values, basis$grid, dom)
  bw_budget <- if (inherits(bandwidth, "dpfda_bandwidth")) bandwidth[c("epsilon", "delta")] else NULL
  new_iclp_kde_release(vals, mechanism = paste0("kde-", mechanism), epsilon = epsilon, delta = 0,
                    sensitivity = out$sensitivity, noise_scale = out$noise_scale,
                    noise = if (mechanism == "iclp") kernel else
                      sprintf("i.i.d. Laplace on the first %d KL coefficients", M),
                    call = call, coefficients = as.vector(kl_coef(basis, out$values)), basis = basis,
                    params = list(eta = eta, M = M, J = basis$J, normaliser = nz,
                                  sensitivity_method = method),
                    n = n, bandwidth = bw$H, bandwidth_budget = bw_budget, noise_exact = out$noise_exact,
                    grid_step = out$grid_step, noise_inflation = out$noise_inflation, privacy_unit = pu)
}

# The covariance kernel C with the bandwidth as its lengthscale. Default:
# Gaussian in one dimension, exponential (l1) in more (as in Lin and Reimherr's density examples).
iclp_kde_kernel <- function(kernel, bw, d, mechanism = "iclp") {
  type <- if (is.null(kernel)) (if (d == 1L) "gaussian" else "exponential") else {
    check_kernel(kernel)
    kernel$type
  }
  if (type == "gaussian") return(bw$kernel)
  H <- as.matrix(bw$H)
  if (type == "exponential" && all(H[row(H) != col(H)] == 0)) {
    # a bandwidth per axis: each coordinate scaled by its own (l1: a product of one-dimensional kernels)
    ls <- sqrt(diag(H))
    if (all(ls == ls[1L])) ls <- ls[1L]
    return(kernel_exponential(ls, norm = if (is.null(kernel$norm)) "l1" else kernel$norm))
  }
  if (!bw$isotropic) {
    expo <- type == "exponential"
    dpfda_abort(sprintf(paste("The %s kernel of mechanism \"%s\" needs %s, not %s. Give kernel =",
                              "kernel_gaussian(1) (a Gaussian kernel takes a bandwidth per axis, or a bandwidth",
                              "matrix; its lengthscale is the bandwidth), %s, or use mechanism = \"gp\"."),
                        type, if (identical(mechanism, "frl")) "frl" else "iclp",
                        if (expo) "a bandwidth per axis (a diagonal bandwidth matrix)" else "an isotropic (scalar) bandwidth",
                        if (expo) "a bandwidth matrix with correlations" else "one per axis",
                        if (expo) "one bandwidth per axis (e.g. sqrt(diag(H)))" else
                          paste("rescale the columns so that one bandwidth suits all of them (e.g. divide each by",
                                "its public scale)")),
                arg = "bandwidth")
  }
  ls <- sqrt(bw$H[1L, 1L])
  switch(type,
         exponential = kernel_exponential(ls, norm = if (is.null(kernel$norm)) "l1" else kernel$norm),
         matern = kernel_matern(kernel$nu, ls),
         dpfda_abort(sprintf("Kernel type \"%s\" is not supported by the ICLP KDE.", type), arg = "kernel"))
}

# Data-independent normaliser: one over the integral of K(., t*) with t* the
# grid point nearest the centre of the domain.
iclp_kde_normaliser <- function(basis, eta, dom) {
  g <- as_points(basis$grid, "grid")
  centre <- if (is.null(dim(dom))) mean(dom) else colMeans(dom)
  k <- which.min(colSums((t(g) - centre)^2))
  kcol <- basis$vectors %*% (basis$values^eta * basis$vectors[k, ])
  mass <- sum(basis$weights * kcol)
  if (is.finite(mass) && mass > 0) 1 / mass else 1
}

# Frequency weights: NULL, or whole numbers >= 0, one per point, with a
# positive total (the number of records n).
iclp_kde_counts <- function(counts, npts) {
  if (is.null(counts)) return(NULL)
  ok <- is.numeric(counts) && is.null(dim(counts)) && length(counts) == npts && all(is.finite(counts)) &&
    all(counts >= 0) && all(counts == round(counts)) && sum(counts) > 0
  if (isTRUE(ok) && sum(counts) > 1e15) {   # (the sensitivities take n up to 1e15, and named `n`)
    dpfda_abort(sprintf("`counts` add up to %s records, more than the 1e15 a release can count.",
                        format(sum(counts), digits = 4)), arg = "counts")
  }
  if (!isTRUE(ok)) {
    # (which entries are wrong, when the length is right: "not a double vector of length 101" said nothing)
    bad <- if (is.numeric(counts) && is.null(dim(counts)) && length(counts) == npts) {
      which(!(is.finite(counts) & counts >= 0 & counts == round(counts)))
    }
    if (length(bad)) {
      dpfda_abort(sprintf(paste("`counts` must be %d non-negative whole numbers (records per point); entr%s %s",
                                "%s not (%s)."), npts, if (length(bad) == 1L) "y" else "ies",
                          paste(utils::head(bad, 5L), collapse = ", "), if (length(bad) == 1L) "is" else "are",
                          paste(utils::head(format(counts[bad]), 5L), collapse = ", ")), arg = "counts",
                  class = argument_error_class(counts))
    }
    arg_error("counts", sprintf("%d non-negative whole numbers (records per point) with a positive sum", npts),
              counts)
  }
  as.double(counts)
}

# (Multi)linear binning of the n x d points on the tensor grid with sorted
# axes (first axis fastest): the vector of total weights per grid point
# (each point weighted by its count when `counts` is given).
iclp_kde_bin <- function(pts, axes, counts = NULL) {
  sizes <- vapply(axes, length, 1L)
  m <- prod(sizes)
  idx <- matrix(0L, nrow(pts), length(axes))
  frac <- matrix(0, nrow(pts), length(axes))
  for (j in seq_along(axes)) {
    a <- axes[[j]]
    xj <- pmin(pmax(pts[, j], a[1L]), a[length(a)])
    if (length(a) == 1L) {
      idx[, j] <- 1L
      next
    }
    i <- findInterval(xj, a, rightmost.closed = TRUE)
    idx[, j] <- i
    frac[, j] <- (xj - a[i]) / (a[i + 1L] - a[i])
  }
  strides <- cumprod(c(1, sizes))[seq_along(axes)]
  out <- numeric(m)
  corners <- as.matrix(expand.grid(rep(list(0:1), length(axes))))
  for (r in seq_len(nrow(corners))) {
    b <- corners[r, ]
    w <- if (is.null(counts)) rep(1, nrow(pts)) else counts
    pos <- rep(1, nrow(pts))
    for (j in seq_along(axes)) {
      w <- w * (if (b[j] == 1L) frac[, j] else 1 - frac[, j])
      pos <- pos + (pmin(idx[, j] + b[j], sizes[j]) - 1) * strides[j]
    }
    keep <- w > 0
    if (any(keep)) {
      s <- rowsum(w[keep], pos[keep])
      out[as.integer(rownames(s))] <- out[as.integer(rownames(s))] + s[, 1L]
    }
  }
  out
}

# Sensitivity of the KDE coefficients: ICLP norm ("iclp") or l1 norm of the
# first M coefficients ("frl").
iclp_kde_sensitivity <- function(basis, eta, n, nz, mechanism, M = NULL, method = "exact") {
  lam <- basis$values
  V <- basis$vectors
  g <- if (mechanism == "iclp") lam^(eta - 0.5) else c(lam[seq_len(M)]^eta, rep(0, basis$J - M))
  g <- nz * g
  switch(method,
    exact = {
      keep <- g > 0
      Vk <- V[, keep, drop = FALSE]
      gk <- g[keep]
      best <- 0
      for (k in seq_len(nrow(Vk))) {
        s <- abs(Vk - rep(Vk[k, ], each = nrow(Vk))) %*% gk
        best <- max(best, s)
      }
      best / n
    },
    triangle = 2 / n * max(abs(V) %*% g),
    theorem16 = {
      if (mechanism != "iclp") {
        dpfda_abort("sensitivity_method = \"theorem16\" is the ICLP bound; use \"exact\" or \"triangle\" for FRL.",
                    arg = "sensitivity_method")
      }
      kappa <- max((V^2) %*% lam^eta)
      2 * nz / n * sqrt(kappa) * sqrt(sum(lam^(eta - 1)))
    })
}

#' @export
release_predict.dpfda_iclp_kde_release <- function(object, newdata, ...) {
  as.vector(stats::predict(object$basis, newdata) %*% object$coefficients)
}

#' @export
release_details.dpfda_iclp_kde_release <- function(x) {
  p <- x$params
  cat(sprintf("  KDE of %s %s; kernel %s, eta = %s, J = %d%s; sensitivity: %s\n", format(x$n),
              if (is.null(x$privacy_unit) || startsWith(x$privacy_unit, "one point")) "points" else
                if (startsWith(x$privacy_unit, "one record")) "records" else "units",
              format(x$basis$kernel), format(p$eta, digits = 4), p$J,
              if (is.null(p$M)) "" else sprintf(", M = %d", p$M), p$sensitivity_method))
}

#' The release of dp_kde(mechanism = "iclp" or "frl"): class
#' `dpfda_iclp_kde_release`, a `dpfda_kde_release`.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()).
#' @param coefficients,basis The released KL coefficients and the public basis.
#' @param params The tuning (eta, M, J, normaliser, sensitivity_method).
#' @param n The number of points (or units).
#' @param bandwidth The bandwidth matrix H.
#' @param bandwidth_budget The (epsilon, delta) of a released bandwidth
#'   (always stored, NULL for a public one).
#' @param noise_exact,grid_step,noise_inflation The exact-noise record of the
#'   ICLP core (always stored, possibly NULL).
#' @param privacy_unit What one individual of the guarantee is.
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_iclp_kde_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                                 call = NULL, coefficients = NULL, basis = NULL, params = NULL, n = NULL,
                                 bandwidth = NULL, bandwidth_budget = NULL, noise_exact = NULL, grid_step = NULL,
                                 noise_inflation = NULL, privacy_unit = NULL, predictors = NULL) {
  release_from_fields(new_iclp_kde_release, c("dpfda_iclp_kde_release", "dpfda_kde_release"),
                      nullable = c("bandwidth_budget", "noise_exact", "grid_step", "noise_inflation",
                                   "privacy_unit"))
}
