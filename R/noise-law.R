# The public law of the privacy noise of a release, on its grid.
#
# Every mechanism adds noise whose law is fixed by public quantities (noise
# scale, kernel or basis, lattice): the released values are the non-private
# summary plus a draw from this law. noise_law() rebuilds that law from the
# public fields of a release, without data, so that accuracy statements,
# bands and tidy summaries need no budget. A law is a list with
#   family  "gaussian" or "laplace" (linear images of i.i.d. Laplace noise)
#   var     the pointwise noise variance on the release's grid
#   draw    function(nsim) -> nsim x m matrix of independent noise draws
#   note    a short description
#   grid, weights  the release's grid and its quadrature weights.

`%||%` <- function(a, b) if (is.null(a)) b else a

noise_law <- function(x, ...) UseMethod("noise_law")

#' @export
noise_law.default <- function(x, ...) {
  dpfda_abort(sprintf(paste("The noise law of a %s release is not available: its noise is not additive on",
                            "the released values."), x$mechanism %||% class(x)[1L]),
              class = "dpfda_error_unsupported", arg = "x")
}

# A law from a linear map: noise = A %*% (scale * z), z i.i.d. standard
# normal (family "gaussian") or standard Laplace (density exp(-|z|) / 2,
# variance 2; family "laplace"). A = NULL is the identity. `map`, when
# given, computes z %*% t(A) faster than the product (a Kronecker basis).
law_linear <- function(A, scale, family, grid, note, map = NULL) {
  zvar <- if (family == "laplace") 2 else 1
  v <- zvar * scale^2
  var <- if (is.null(A)) v else as.vector((A * A) %*% v)
  zdraw <- function(nsim) {
    p <- length(scale)
    z <- if (family == "laplace") matrix(stats::rexp(nsim * p) - stats::rexp(nsim * p), nsim, p)
         else matrix(stats::rnorm(nsim * p), nsim, p)
    z * rep(scale, each = nsim)
  }
  draw <- function(nsim) if (!is.null(map)) map(zdraw(nsim)) else if (is.null(A)) zdraw(nsim) else zdraw(nsim) %*% t(A)
  cov <- function() if (is.null(A)) diag(v, length(v)) else A %*% (v * t(A))
  out <- new_law(family, var, draw, cov, grid, note)
  out$iid <- is.null(A)
  out$A <- A
  out$zdraw <- zdraw
  out$map <- map
  out
}

# A Gaussian law from its pointwise variance (cheap) and a function that
# builds the full covariance (for draws).
law_gaussian_cov <- function(var, cov, grid, note) {
  draw <- function(nsim) {
    S <- cov()
    e <- eigen(S, symmetric = TRUE)
    R <- e$vectors %*% (sqrt(pmax(e$values, 0)) * t(e$vectors))
    matrix(stats::rnorm(nsim * nrow(S)), nsim, nrow(S)) %*% R
  }
  new_law("gaussian", var, draw, cov, grid, note)
}

new_law <- function(family, var, draw, cov, grid, note) {
  # trapezoid weights; scattered points in several dimensions get equal weights
  w <- tryCatch(quadrature_weights(grid), error = function(e) rep(1 / grid_size(grid), grid_size(grid)))
  if (length(w) == 1L) w <- 1
  structure(list(family = family, var = pmax(as.double(var), 0), draw = draw, cov = cov, grid = grid,
                 weights = w, note = note), class = "dpfda_noise_law")
}

# Pointwise variance of a kernel on points (diagonal only).
kernel_diag <- function(kernel, grid) {
  m <- grid_size(grid)
  if (kernel$type %in% c("gaussian", "matern", "exponential")) return(rep(kernel$variance, m))
  pts <- as_points(grid, "grid")
  vapply(seq_len(m), function(i) kernel_matrix(kernel, pts[i, , drop = FALSE])[1L, 1L], 0)
}

law_gp <- function(sigma, kernel, grid, jitter = 0, note = NULL) {
  jit <- if (is.null(jitter) || !is.finite(jitter)) 0 else jitter
  var <- sigma^2 * (kernel_diag(kernel, grid) + jit)
  cov <- function() {
    m <- grid_size(grid)
    check_alloc(as.double(m)^2, "noise covariance on the grid")
    sigma^2 * (kernel_matrix(kernel, as_points(grid, "grid")) + diag(jit, m))
  }
  law <- law_gaussian_cov(var, cov, grid, note %||% sprintf("Gaussian process, %s, times %s", format(kernel),
                                                             format(sigma, digits = 4)))
  # a tensor grid with a separable kernel: draws through the factors' eigendecompositions (the
  # same law; the dense one decomposed the m x m matrix, 30 s for a 51 x 51 grid)
  g <- if (!is.null(dim(grid)) && ncol(grid) >= 2L && kernel_separable(kernel)) as_points(grid, "grid")
  axes <- if (!is.null(g)) tensor_axes(g)
  k1 <- if (!is.null(axes)) kernel_axis_factors(kernel, length(axes))
  if (!is.null(k1)) law$draw <- function(nsim) {
    ke <- kron_axis_eigen(k1, axes)
    eig <- ke$eig
    root <- sigma * sqrt(pmax(kernel$variance * ke$lam, 0) + jit)
    Z <- t(matrix(stats::rnorm(nsim * length(root)), length(root), nsim))   # (one path per row)
    W <- kron_rows_apply(Z, lapply(eig, function(e) t(e$vectors)), lengths(axes)) * rep(root, each = nsim)
    kron_rows_apply(W, lapply(eig, function(e) e$vectors), lengths(axes))
  }
  law
}

#' @export
noise_law.dpfda_gp_release <- function(x, ...) {
  law_gp(x$noise_scale, x$noise, x$values$grid, x$jitter)
}

#' @export
noise_law.dpfda_gpreg_release <- function(x, ...) {
  S <- x$noise_covariance
  if (!is.matrix(S)) return(NextMethod())     # the standard method: GP noise with the prior kernel
  law_gaussian_cov(diag(S), function() S, x$values$grid, "Gaussian with the cloaking covariance")
}

#' @export
noise_law.dpfda_bin_release <- function(x, ...) {
  bin_step_law(as.double(x$laplace_scale), x$bins, x$domain, x$values$grid)
}

# Independent Laplace noise on the bin means (scales `scale`, one per bin at the `centres`). The
# released function is a step function: each bin's value holds over its whole bin, so its L2 norm
# weighs every bin by its volume (the trapezoid rule over the bin centres gave the end bins half
# weight: 258.9 for 321 on airquality's ten bins, whose noisiest bin is at an end).
bin_step_law <- function(scale, bins, domain, centres) {
  law <- law_linear(NULL, scale, "laplace", centres, "independent Laplace on the bin means")
  dom <- matrix(as.double(domain), 2L)
  law$weights <- rep(prod((dom[2L, ] - dom[1L, ]) / bins), length(law$var))
  law
}

#' @export
noise_law.dpfda_bernstein_release <- function(x, ...) {
  fam <- if (identical(x$noise_type, "gaussian")) "gaussian" else "laplace"
  m <- ncol(x$values$values)
  law_linear(NULL, rep(x$noise_scale, m), fam, x$values$grid,
             sprintf("i.i.d. %s on the lattice values", fam))
}

# The linear map from Bernstein lattice values to the polynomial of order `h` on
# `points` (or, with type = "nearest", to the nearest lattice values there).
bernstein_map <- function(br, points, h = br$h, type = "bernstein") {
  if (type == "bernstein" && identical(as.integer(br$dim), 1L) && is.null(dim(points)) && !is.list(points)) {
    dom <- as.double(br$domain)   # (the iterated basis directly)
    u <- pmin(pmax((points - dom[1L]) / (dom[2L] - dom[1L]), 0), 1)
    return(bernstein_basis(u, br$k, h))
  }
  d <- as.integer(br$dim)
  k <- rep_len(br$k, d)
  p <- prod(k + 1)
  dom <- matrix(as.double(br$domain), 2L, d)
  if (is.list(points) && !is.data.frame(points)) points <- as.matrix(expand.grid(points))   # (first axis fastest)
  if (d > 1L && is.numeric(points) && is.null(dim(points)) && length(points) == d) points <- matrix(points, 1L)
  pts <- as_points(points, "newdata", d = d)
  u <- vapply(seq_len(d), function(j) pmin(pmax((pts[, j] - dom[1L, j]) / (dom[2L, j] - dom[1L, j]), 0), 1),
              numeric(nrow(pts)))
  u <- matrix(u, ncol = d)
  if (type == "nearest") {   # one lattice value per point
    A <- matrix(0, nrow(pts), p)
    A[cbind(seq_len(nrow(pts)), nearest_lattice_index(u, k))] <- 1
    return(A)
  }
  check_alloc(as.double(nrow(pts)) * p * 2, "Bernstein map in memory")
  # the plain tensor basis at the points (a row-wise Kronecker product of the axes' bases, first axis
  # fastest), times the map from lattice values to the coefficients of order h (the identity for h = 1):
  # one evaluation per point instead of one per lattice value
  Tb <- bernstein_basis(u[, 1L], k[1L])
  for (j in seq_len(d)[-1L]) {
    Bj <- bernstein_basis(u[, j], k[j])
    Tb <- Bj[, rep(seq_len(k[j] + 1L), each = ncol(Tb)), drop = FALSE] * Tb[, rep(seq_len(ncol(Tb)), times = k[j] + 1L),
                                                                       drop = FALSE]
  }
  if (h == 1L) return(Tb)
  Ch <- vapply(seq_len(p), function(j) bernstein_coef(as.double(seq_len(p) == j), k, h), numeric(p))
  Tb %*% Ch
}

law_bernstein <- function(br, grid) {
  fam <- if (identical(br$noise_type, "gaussian")) "gaussian" else "laplace"
  A <- bernstein_map(br, grid)
  law_linear(A, rep(br$noise_scale, ncol(A)), fam, grid,
             sprintf("i.i.d. %s on %d Bernstein lattice values, then the polynomial", fam, ncol(A)))
}

#' @export
noise_law.dpfda_kde_bernstein_release <- function(x, ...) law_bernstein(x$lattice, x$values$grid)

# ICLP / FRL releases (dp_mean, dp_kde "iclp"/"frl", dp_erm): Laplace noise on
# KL coefficients. Per-coefficient standard deviations from the public fields.
#' @export
noise_law.dpfda_iclp_release <- function(x, ...) {
  mech <- x$mechanism
  law <- if (identical(mech, "bernstein")) law_bernstein(x$bernstein, x$values$grid) else
    if (identical(mech, "gp")) law_gp(x$noise_scale, x$noise, x$values$grid) else law_iclp(x)
  law_scale(law, x$scale_factor %||% 1)
}

# The law of f times the noise (dp_mean(incomplete = "drop") divides by the
# noisy share of complete individuals; the law given that share).
law_scale <- function(law, f) {
  if (f == 1) return(law)
  draw <- law$draw
  cov <- law$cov
  law$var <- law$var * f^2
  law$draw <- function(nsim) f * draw(nsim)
  law$cov <- function() f^2 * cov()
  if (!is.null(law$A)) law$A <- law$A * f
  if (!is.null(law$map)) {
    map <- law$map
    law$map <- function(z) f * map(z)
  }
  law$note <- sprintf("%s, times %s (1 / the noisy share of complete individuals)", law$note,
                      format(f, digits = 4))
  law
}

#' @export
noise_law.dpfda_iclp_kde_release <- function(x, ...) law_iclp(x)

#' @export
noise_law.dpfda_iclp_erm_release <- function(x, ...) law_iclp(x)

law_iclp <- function(x) {
  b <- x$basis
  lam <- b$values
  infl <- x$noise_inflation %||% 1
  frl <- x$mechanism %in% c("frl", "kde-frl")
  idx <- if (frl) seq_len(x$params$M)
         else if (identical(x$mechanism, "iclp_ar")) seq_len(x$params$J_tau)
         else seq_along(lam)
  scale <- if (frl) rep(x$noise_scale, length(idx)) else x$noise_scale * sqrt(lam[idx]) / sqrt(2)
  A <- b$vectors[, idx, drop = FALSE]
  fam <- if (frl && identical(x$params$frl_noise, "gaussian")) "gaussian" else "laplace"   # (scale: the sd)
  map <- if (!is.null(b$kron)) kron_coef_map(b$kron, idx)   # a separable kernel on a tensor grid
  law_linear(A, scale * infl, fam, x$values$grid, map = map,
             sprintf("%s on %d Karhunen-Loeve coefficients", if (fam == "gaussian") "Gaussian" else "Laplace",
                     length(idx)))
}

# dp_cov(): Laplace noise Z (J x J) on the tensor coefficients, symmetrised:
# N = V (Z + Z') / 2 V'. With var(Z_jk) = c lam_j lam_k the pointwise
# variance is c / 2 (a_s a_t + B_st^2), a = diag(V Lam V'), B = V Lam V'.
#' @export
noise_law.dpfda_iclp_cov_release <- function(x, ...) {
  b <- x$basis
  V <- b$vectors
  lam <- b$values
  infl <- x$noise_inflation %||% 1
  c2 <- (x$noise_scale * infl)^2
  a <- as.vector((V * V) %*% lam)
  B <- V %*% (lam * t(V))
  var <- c2 / 2 * (outer(a, a) + B^2)
  J <- length(lam)
  m <- nrow(V)
  sdl <- as.vector(x$noise_scale * infl * sqrt(outer(lam, lam)) / sqrt(2))   # Laplace scales
  tr <- as.vector(t(matrix(seq_len(J * J), J, J)))                          # vec(Z) -> vec(Z')
  # symmetrised coefficients, one draw per row: vec((Z + Z') / 2)
  zdraw <- function(nsim) {
    z <- matrix(stats::rexp(nsim * J * J) - stats::rexp(nsim * J * J), nsim, J * J) * rep(sdl, each = nsim)
    (z + z[, tr, drop = FALSE]) / 2
  }
  small <- as.double(m)^2 * J^2 <= 2^24
  A <- if (small) kronecker(V, V) else NULL                                  # vec(V S V') = (V x V) vec(S)
  draw <- function(nsim) {
    z <- zdraw(nsim)
    if (small) return(z %*% t(A))
    t(vapply(seq_len(nsim), function(i) as.vector(V %*% matrix(z[i, ], J, J) %*% t(V)), numeric(m^2)))
  }
  out <- new_law("laplace", as.vector(var), draw, function() NULL, x$values$grid,
                 sprintf("Laplace on %d x %d tensor Karhunen-Loeve coefficients, symmetrised", J, J))
  if (small) {
    out$A <- A
    out$zdraw <- zdraw
  }
  if (is.null(x$scale_factor)) return(out)
  cov_law_drop(out, x)
}

# dp_cov(incomplete = "drop"): the release is f (M + E) - f^2 (m + e)(m + e)'
# with E the second moment's noise and e the mean's (given the noisy share,
# f public). Its noise about f M - f^2 m m' is f E - f^2 (m e' + e m' + e e').
# The variance: f^2 var(E) + f^4 (m_s^2 v_t + m_t^2 v_s + 2 m_s m_t c_st) +
# f^4 var(e_s e_t), the last with the Gaussian fourth moment (v_s v_t + c_st^2);
# E, e independent and symmetric, so the cross terms vanish.
cov_law_drop <- function(law, x) {
  f <- x$scale_factor
  law <- law_scale(law, f)
  mr <- x$mean_release
  if (is.null(mr)) return(law)
  ml <- noise_law(mr)
  m <- length(ml$var)
  mv <- as.vector(mr$values$values)   # the released mean stands in for m (public, post-processing)
  C <- ml$cov()
  v <- ml$var
  lin <- outer(mv^2, v) + outer(v, mv^2) + 2 * outer(mv, mv) * C
  law$var <- law$var + f^4 * as.vector(lin + outer(v, v) + C^2)
  d2 <- law$draw
  law$draw <- function(nsim) {
    e <- ml$draw(nsim)
    out <- d2(nsim)
    for (i in seq_len(nsim)) {
      ei <- e[i, ]
      out[i, ] <- out[i, ] - f^2 * as.vector(outer(mv, ei) + outer(ei, mv) + outer(ei, ei))
    }
    out
  }
  law$cov <- function() NULL
  law$A <- NULL
  law$zdraw <- NULL
  law$note <- paste0(law$note, "; minus f^2 times the outer products of the private mean's noise")
  law
}

# Simulate with a fixed public seed, leaving the user's RNG state untouched.
# The draws concern the public noise law only, never data.
with_public_seed <- function(seed, expr) {
  old <- if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) get(".Random.seed", envir = globalenv())
  old_kind <- RNGkind()
  on.exit({
    do.call(RNGkind, as.list(old_kind))
    if (is.null(old)) rm(".Random.seed", envir = globalenv())
    else assign(".Random.seed", old, envir = globalenv())
  })
  RNGkind("Mersenne-Twister", "Inversion", "Rejection")
  set.seed(seed)
  expr
}

# Summaries of a law: pointwise sd, root-mean-square L2 norm (exact), mean
# sup norm (Monte Carlo, nsim draws).
law_summary <- function(law, nsim = 2000L, seed = 1L, sup = TRUE) {
  sd <- sqrt(law$var)
  l2 <- sqrt(sum(law$weights * law$var))
  es <- NA_real_
  if (sup) es <- mean(law_sup_draws(law, nsim, seed))
  list(pointwise_sd = sd, expected_l2 = l2, expected_sup = es)
}

# nsim draws of sup_t |noise(t)|, simulated in chunks (large grids).
law_sup_draws <- function(law, nsim, seed = 1L) {
  with_public_seed(seed, {
    chunk <- max(1L, min(nsim, floor(2e6 / max(1, length(law$var)))))
    out <- numeric(0)
    while (length(out) < nsim) {
      d <- law$draw(min(chunk, nsim - length(out)))
      out <- c(out, apply(abs(d), 1L, max))
    }
    out
  })
}

# Pointwise level-quantiles of |noise| by Monte Carlo. With a linear law the
# coefficients are drawn once and the grid is done in blocks (memory bounded);
# otherwise at most 5e6 values are simulated. Returns the quantiles and the
# number of draws used.
law_abs_quantiles <- function(law, level, nsim, seed) {
  m <- length(law$var)
  q <- function(d) apply(abs(d), 2L, stats::quantile, probs = level, names = FALSE, type = 8)
  nsim <- mc_draws(nsim, m)
  with_public_seed(seed, {
    if (!is.null(law$map) && !is.null(law$zdraw)) {
      list(q = q(law$map(law$zdraw(nsim))), nsim = nsim)   # (at most 1e7 values: mc_draws())
    } else if (!is.null(law$A) && !is.null(law$zdraw)) {
      z <- law$zdraw(nsim)
      block <- max(1L, floor(5e6 / nsim))
      out <- numeric(m)
      for (b in split(seq_len(m), ceiling(seq_len(m) / block))) {
        out[b] <- q(z %*% t(law$A[b, , drop = FALSE]))
      }
      list(q = out, nsim = nsim)
    } else {
      n_eff <- as.integer(min(nsim, max(500, floor(5e6 / m))))
      list(q = q(law$draw(n_eff)), nsim = n_eff)
    }
  })
}

# Monte Carlo draws used on a grid of m points: at most `nsim`, and at most
# 1e7 simulated values (but at least 1000 draws) on large grids such as the
# m^2 points of a covariance surface.
mc_draws <- function(nsim, m) as.integer(min(nsim, max(1000, floor(1e7 / m))))
