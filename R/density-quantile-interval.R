# Intervals for the quantiles of a released density (quantile(r, interval = )). Post-processing of
# the release and of its public noise law: no budget. Two routes: through the simultaneous band
# (any density release; here first), and through the distribution function (Gaussian-kernel
# densities; below).
#
# The band route. The target is the quantile that quantile() computes: of the density g that is linear between
# its values f_1..f_m at the sorted grid points (negative values set to zero), normalised on the
# grid's range. Its distribution function at x in [t_i, t_i+1] is F(x) = A / (A + B), A the mass
# left of x and B the mass right of it, both linear in f with non-negative weights:
#
#   A = sum_{j < i} w_j f_j + (h_{i-1}/2 + a(u)) f_i + b(u) f_i+1,     u = x - t_i, h = t_i+1 - t_i,
#   B = (h/2 - a(u)) f_i + (h/2 + h_{i+1}/2 - b(u)) f_i+1 + sum_{j > i+1} w_j f_j,
#   a(u) = u - u^2 / (2h),  b(u) = u^2 / (2h),  w_j the trapezoid weights.
#
# A / (A + B) increases with f_j left of the interval, decreases with f_j right of it, and is
# monotone in each of f_i, f_i+1 (a ratio of linear functions), so over the box lo <= f <= up
# its largest and smallest values are at vertices: the left values at up (lo), the right ones at
# lo (up), and the best of the 4 corners for f_i, f_i+1. On the event that the band holds at
# every grid point, lo(x) <= F(x) <= hi(x) at every x, and the quantile q_p = inf{x: F(x) >= p}
# lies in [max{x: hi(x) < p}, min{x: lo(x) >= p}] for every p at once (evaluated on the grid
# refined `refine` times, which only widens the interval, by at most one refined step).

# Bounds on the distribution function of the piecewise-linear density over the band [lo, up] at
# the grid points t (sorted), at each point of the refined grid x (returned with them).
band_cdf_bounds <- function(t, lo, up, refine = 16L) {
  m <- length(t)
  lo <- pmax(lo, 0)
  up <- pmax(up, lo)
  h <- diff(t)
  w <- (c(0, h) + c(h, 0)) / 2                 # trapezoid weights of the grid points
  cw_up <- c(0, cumsum(w * up))                # cw[i] = sum_{j < i} w_j f_j
  cw_lo <- c(0, cumsum(w * lo))
  rw_up <- rev(cumsum(rev(w * up)))            # rw[i] = sum_{j >= i} w_j f_j
  rw_lo <- rev(cumsum(rev(w * lo)))
  rw_up <- c(rw_up, 0, 0)
  rw_lo <- c(rw_lo, 0, 0)
  i <- rep(seq_len(m - 1L), each = refine)
  frac <- rep((seq_len(refine) - 1) / refine, times = m - 1L)
  i <- c(i, m - 1L)
  frac <- c(frac, 1)
  hi_ <- h[i]
  u <- frac * hi_
  a <- u - u^2 / (2 * hi_)
  b <- u^2 / (2 * hi_)
  hprev <- c(0, h)[i]                          # h_{i-1} (0 for the first interval)
  hnext <- c(h, 0)[i + 1L]                     # h_{i+1} (0 for the last)
  ca <- hprev / 2 + a                          # f_i's weight in A, and in B
  cb <- hi_ / 2 - a
  da <- b                                      # f_i+1's weight in A, and in B
  db <- hi_ / 2 + hnext / 2 - b
  ratio <- function(sa, sb, fi, fj) {
    A <- sa + ca * fi + da * fj
    B <- sb + cb * fi + db * fj
    ifelse(A + B > 0, A / (A + B), NA_real_)
  }
  corners <- list(c(1, 1), c(1, 2), c(2, 1), c(2, 2))
  vals <- list(lo, up)
  # largest F: mass left of x at up, right of it at lo; smallest: the reverse
  fmax <- do.call(pmax, lapply(corners, function(k)
    ratio(cw_up[i], rw_lo[i + 2L], vals[[k[1L]]][i], vals[[k[2L]]][i + 1L])))
  fmin <- do.call(pmin, lapply(corners, function(k)
    ratio(cw_lo[i], rw_up[i + 2L], vals[[k[1L]]][i], vals[[k[2L]]][i + 1L])))
  # a box that allows a density of zero mass says nothing there
  fmax[is.na(fmax)] <- 1
  fmin[is.na(fmin)] <- 0
  list(x = t[i] + u, lower = fmin, upper = fmax)
}

# The interval of the p-quantile over the band, for each p in probs (all at once).
band_quantile_interval <- function(t, lo, up, probs, refine = 16L) {
  cb <- band_cdf_bounds(t, lo, up, refine)
  cdf_bounds_quantiles(cb$x, cb$lower, cb$upper, probs)
}

# ---- the route through the distribution function (Gaussian-kernel densities) ------------------
#
# For "gp" and "sobolev" the released values are r(t_j) = fhat(t_j) + N_j: fhat the Gaussian KDE
# (1/n) sum phi_h(t - X_i) of the points clamped to the domain (possibly binned, possibly rounded
# to the exact noise's grid), N the noise of a public law. The quantile is that of the density
# linear between its grid values, so only integrals matter: with A(x) the integral from t_1 to x
# (of that piecewise-linear density) and B(x) the integral from x to t_m, F(x) = A / (A + B). An
# integral of the noise is a linear functional of it: its simultaneous quantile over all x is much
# smaller than the integral of a simultaneous band of the noise at each point, whose errors add.
#
# * interval = "noise": the target is A / (A + B) of the noise-free values, and the released A_r,
#   B_r differ from it by the integrated noise only: |N_A(x)| <= q s_A(x), |N_B(x)| <= q s_B(x) for
#   all x at once with probability `level` (Monte Carlo quantile of the maximum of both
#   standardised families under the public law, public seed).
# * interval = "population": the target is the quantile of f_h = K_h * f on [t_1, t_m] (f the
#   density of the clamped points), normalised there. Three more errors, all bounded without the
#   data: sampling, |G_n(x) - G(x)| <= sup |F_n - F| <= eps for the smoothed distribution
#   functions G = F * Phi_h (a convolution with a distribution contracts the sup norm), eps from the
#   Dvoretzky-Kiefer-Wolfowitz inequality with Massart's constant, P(sup |F_n - F| > eps) <=
#   2 exp(-2 n eps^2); A and B are differences of G at two points. F_n - F is 0 outside the domain
#   [lo, hi] (every clamped point is in it), so the smoothed difference at y is at most eps times the
#   kernel's mass within the domain, c(y) = Phi((y - lo)/h) - Phi((y - hi)/h): at most 1, and 1/2 at a
#   grid end that is a domain end, so A and B err by at most eps (c(x) + c(t_1)) and eps (c(x) +
#   c(t_m)), 1.5 eps rather than 2 eps inside a grid that spans the domain. Discretisation:
#   the piecewise-linear interpolant of fhat integrates to within (max dt)^2 / 8 * int |fhat''|
#   <= (max dt)^2 / 8 * 4 phi(1) / h^2 of fhat on any [t_1, x] (the interpolation error's Green
#   function integrates to at most dt^2 / 8). Binning and rounding: their pointwise bounds
#   (kde_population_kernel()) integrated over the grid. 1 - level is split between the sampling and
#   the noise by a public rule (the split of least width at the release's public noise law).
# On those events lo(x) <= F(x) <= hi(x), and F is non-decreasing, so the bounds are taken
# monotone (a running maximum / minimum) before they are inverted as in band_quantile_interval().

kde_cdf_mechanisms <- c("kde-gp", "kde-sobolev")

# Whether the route through the distribution function applies: a Gaussian-kernel density of
# independent points (no `unit`), for f_h (no `smoothness`).
kde_cdf_route <- function(x, smoothness) {
  x$mechanism %in% kde_cdf_mechanisms && is.null(smoothness) && !kde_has_unit(x)
}

# (`sampling = FALSE`, for the tests: the population route without its sampling term)
# (`law`: the noise law of x$values, noise_law(x) by default; a margin's is the release's integrated
# over the other axes)
kde_cdf_quantile_interval <- function(x, probs, interval, level, nsim, seed, max_points = 600L, sampling = TRUE,
                                      law = noise_law(x)) {
  population <- interval == "population"
  kr <- if (population) kde_population_kernel(x, kde_population_check(x, NULL))
  o <- order(as.double(x$values$grid))
  t <- as.double(x$values$grid)[o]
  r <- as.vector(x$values$values[1L, ])[o]
  m <- length(t)
  dt <- diff(t)
  # evaluation points: each grid interval cut `refine` times (x = t_i + u, u in [0, dt_i))
  refine <- max(1L, min(16L, floor(max_points / (m - 1L))))
  i <- c(rep(seq_len(m - 1L), each = refine), m - 1L)
  u <- c(rep((seq_len(refine) - 1) / refine, times = m - 1L), 1) * dt[i]
  a <- u - u^2 / (2 * dt[i])           # the weights of v_i and v_i+1 in the integral from t_i to x
  b <- u^2 / (2 * dt[i])
  cum_r <- c(0, cumsum(dt * (r[-m] + r[-1L]) / 2))   # the released integral at the grid points
  A_r <- cum_r[i] + a * r[i] + b * r[i + 1L]
  B_r <- cum_r[m] - A_r
  # the integrated noise at every evaluation point, under the public law (public seed)
  nsim <- as.integer(min(nsim, max(1000, floor(4e6 / length(i)))))   # (memory: a few draws x points matrices)
  D <- with_public_seed(seed, law$draw(nsim))[, o, drop = FALSE]
  U <- matrix(0, m - 1L, m - 1L)   # cumulative trapezoid sums as one matrix product
  U[upper.tri(U, diag = TRUE)] <- rep(dt / 2, times = m - 1L)[upper.tri(U, diag = TRUE)]
  C <- cbind(0, (D[, -m, drop = FALSE] + D[, -1L, drop = FALSE]) %*% U)
  NA_ <- C[, i, drop = FALSE] + D[, i, drop = FALSE] * rep(a, each = nsim) + D[, i + 1L, drop = FALSE] *
    rep(b, each = nsim)
  # (at x = t_m the integral is the total: exactly, so that B = 0 there and no rounding residue
  # enters the standardised maximum, whose sd would be rounding too)
  NA_[, length(i)] <- C[, m]
  A_r[length(i)] <- cum_r[m]
  B_r[length(i)] <- 0
  NB_ <- C[, m] - NA_
  sA <- sqrt(colMeans(NA_^2))          # (the noise has mean zero)
  sB <- sqrt(colMeans(NB_^2))
  ratio <- pmax(standardised_row_max(NA_, sA), standardised_row_max(NB_, sB))
  alpha <- 1 - level
  if (population) {
    h <- sqrt(as.matrix(x$bandwidth)[1L, 1L])
    w <- (c(0, dt) + c(dt, 0)) / 2
    det <- sum(w * kr$bias) + max(dt)^2 / 8 * 4 * stats::dnorm(1) / h^2
    # the sampling deviation D = F_n - F of the clamped points is 0 outside the domain [lo, hi), so its
    # smoothed version D_h(y) = E D(y - S) (S ~ N(0, h^2)) is at most eps c(y), c(y) the kernel's mass
    # within the domain; A's error is D_h(x) - D_h(t_1), B's D_h(t_m) - D_h(x)
    dom <- as.double(x$domain %||% x$values$domain)   # (the bounds the points were clamped to)
    mass_in <- function(y) stats::pnorm((y - dom[1L]) / h) - stats::pnorm((y - dom[2L]) / h)
    cA <- mass_in(t[i] + u) + mass_in(t[1L])
    cB <- mass_in(t[i] + u) + mass_in(t[m])
    dkw <- function(alpha_s) sqrt(log(2 / alpha_s) / (2 * x$n))
    shares <- seq(0.05, 0.95, by = 0.05)   # the share of alpha given to the noise
    width <- vapply(shares, function(sh) dkw((1 - sh) * alpha) * mean(c(cA, cB)) +
                      stats::quantile(ratio, 1 - sh * alpha, names = FALSE, type = 8) * mean(c(sA, sB)), 0)
    share <- shares[which.min(width)]
    eps <- if (sampling) dkw((1 - share) * alpha) else 0
  } else {
    share <- 1
    eps <- det <- 0
    cA <- cB <- 0
  }
  q <- stats::quantile(ratio, 1 - share * alpha, names = FALSE, type = 8)
  eA <- eps * cA + q * sA + det
  eB <- eps * cB + q * sB + det
  lowA <- pmax(A_r - eA, 0)
  lowB <- pmax(B_r - eB, 0)
  hi <- ifelse(A_r + eA + lowB > 0, (A_r + eA) / (A_r + eA + lowB), 1)
  lo <- ifelse(lowA + B_r + eB > 0, lowA / (lowA + B_r + eB), 0)
  hi <- rev(cummin(rev(pmin(hi, 1))))   # F is non-decreasing: F(x) <= F(y) <= hi(y) for y >= x
  lo <- cummax(pmax(lo, 0))
  xs <- t[i] + u
  iv <- cdf_bounds_quantiles(xs, lo, hi, probs)
  method <- if (population) {
    sprintf(paste("through the distribution function, simultaneous over all x: sampling by the",
                  "Dvoretzky-Kiefer-Wolfowitz inequality (Massart's constant; sup |F_n - F| <= %s with probability",
                  "%s, which bounds the smoothed distribution functions by the kernel's mass within the domain",
                  "times it), the integrated privacy noise by the",
                  "simultaneous quantile of its public law (probability %s, Monte Carlo, %d draws), the",
                  "integration on the grid, binning and rounding bounded (%s); of the points clamped to the domain"),
            format(eps, digits = 3), format(1 - (1 - share) * alpha, digits = 4),
            format(1 - share * alpha, digits = 4), nsim, format(det, digits = 3))
  } else {
    sprintf(paste("through the distribution function: the integrated privacy noise, simultaneous over all x",
                  "by the quantile of its public law (Monte Carlo, %d draws)"), nsim)
  }
  list(lower = iv$lower, upper = iv$upper, method = method, q = q, sA = sA, sB = sB, eps = eps, det = det,
       cA = cA, cB = cB, x = xs, lo = lo, hi = hi, refine = refine)
}

# quantile(r, probs, margin = , interval = "noise") of a density release on a tensor grid: the
# route through the distribution function applied to the margin. The margin's values are the
# release's integrated over the other axes (a linear map), so they are the margin of the non-private
# estimate plus the margin of the noise, whose law is the release's mapped (draws in chunks: a draw
# on the whole grid is large). That holds for any additive noise, so every mechanism takes it.
margin_quantile_interval <- function(x, margin, probs, level, nsim, seed) {
  mm <- margin_map(x$values, margin)
  law <- noise_law(x)
  m <- length(law$var)
  chunked <- function(f, width) function(nsim) {     # (nsim draws, at most 2e6 values at a time)
    chunk <- max(1L, floor(2e6 / width))
    do.call(rbind, lapply(split(seq_len(nsim), ceiling(seq_len(nsim) / chunk)), function(b) f(length(b))))
  }
  mlaw <- if (!is.null(law$A) && !is.null(law$zdraw)) {
    PA <- t(mm$map(t(law$A)))                        # a linear law: its map, integrated (m_k x J)
    list(draw = chunked(function(k) law$zdraw(k) %*% t(PA), ncol(law$A)))
  } else if (law$family == "gaussian" && m <= 4000L && !is.null(S <- law$cov())) {
    # a Gaussian law: the margin's covariance P S P' (m_k x m_k), then draws from it
    Sk <- mm$map(t(mm$map(S)))
    e <- eigen((Sk + t(Sk)) / 2, symmetric = TRUE)
    R <- e$vectors %*% (sqrt(pmax(e$values, 0)) * t(e$vectors))
    list(draw = function(nsim) matrix(stats::rnorm(nsim * nrow(R)), nsim) %*% R)
  } else {
    list(draw = chunked(function(k) mm$map(law$draw(k)), m))   # draws on the whole grid, integrated
  }
  iv <- kde_cdf_quantile_interval(list(values = mm$curves), probs, "noise", level, nsim, seed, law = mlaw)
  iv$label <- mm$curves$arg_name
  iv$method <- sprintf("%s, integrated over the other axes (the margin of %s)", iv$method, iv$label)
  iv$estimate <- stats::quantile(as_density(mm$curves), probs = probs, names = FALSE)
  iv
}

# The interval of each p-quantile from bounds lo(x) <= F(x) <= hi(x), both non-decreasing, at the
# sorted points x: q_p = inf{x: F(x) >= p} lies in [max{x: hi(x) < p}, min{x: lo(x) >= p}].
cdf_bounds_quantiles <- function(x, lo, hi, probs) {
  lower <- vapply(probs, function(p) {
    k <- which(hi < p)
    if (length(k)) x[max(k)] else x[1L]
  }, 0)
  upper <- vapply(probs, function(p) {
    k <- which(lo >= p)
    if (length(k)) x[min(k)] else x[length(x)]
  }, 0)
  list(lower = lower, upper = upper)
}

# quantile(r, interval = ) of a density release: the estimate (quantile() of as_density(r)) and
# the interval of each quantile from the simultaneous band of `type`.
release_quantile_interval <- function(x, probs, interval, level, nsim, seed, smoothness, margin = NULL) {
  if (!all(probs > 0 & probs < 1)) {
    dpfda_abort(paste("An interval is for quantiles strictly inside (0, 1): the ends of the support cannot be",
                      "told from a band (a density of 0 and a small one look alike). Leave 0 and 1 out of `probs`."),
                arg = "probs")
  }
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                        what = "a number in (0, 1)")
  # (checked here for both routes, as confint() checks them for the band's)
  nsim <- check_count(nsim, "nsim", min = 100, max = 1e7)
  seed <- check_count(seed, "seed", min = 0)
  if (!is.null(margin)) {
    if (interval == "population") {
      dpfda_abort(paste("Population intervals are not given for a margin: the population band is of the density",
                        "in the plane, whose integral over the other axes misses the kernel's mass beyond the domain.",
                        "Use interval = \"noise\" (the privacy noise of the margin), or release the column's",
                        "density on its own."), arg = "interval")
    }
    if (nrow(x$values$values) != 1L) dpfda_abort("Quantile intervals are for one density.", arg = "x")
    iv <- margin_quantile_interval(x, margin, probs, level, nsim, seed)
    est <- iv$estimate
    how <- iv$method
  } else {
    if (!identical(x$values$dim, 1L) || nrow(x$values$values) != 1L) {
      dpfda_abort(paste0("Quantile intervals are for one density on a one-dimensional grid.",
                         if (x$values$dim > 1L) sprintf(paste(" For a density on a %d-dimensional grid, give `margin`",
                                                              "(an axis: quantile(r, probs, margin = %s, interval =",
                                                              "\"noise\")), and summary() gives its moments with their",
                                                              "noise sd."), x$values$dim,
                                                        margin_value_hint(x$values))), arg = "x")
    }
    est <- stats::quantile(as_density(x), probs = probs, names = FALSE)
    # (the noise interval needs only the noise's additive public law: the route through the
    # distribution function for every mechanism; the population one needs a Gaussian-kernel density)
    if (interval == "noise" || kde_cdf_route(x, smoothness)) {
      iv <- kde_cdf_quantile_interval(x, probs, interval, level, nsim, seed)
      how <- iv$method
    } else {   # (a population interval)
      ci <- stats::confint(x, level = level, type = "population", nsim = nsim, seed = seed, smoothness = smoothness)
      o <- order(ci$arg)
      iv <- band_quantile_interval(ci$arg[o], ci$lower[o], ci$upper[o], probs)
      how <- sprintf(paste("the quantiles of every density within the simultaneous %s%% population band at the grid",
                           "points (linear between them, negative values set to 0, normalised on the grid's range):",
                           "simultaneous over all probabilities. The band: %s"),
                     format(100 * level), attr(ci, "method"))
    }
  }
  target <- if (interval == "noise") {
    sprintf("the quantiles of %sthe non-private estimate (the same density without the privacy noise)",
            if (is.null(margin)) "" else sprintf("the margin of %s of ", iv$label))
  } else if (isTRUE(x$of_densities)) {
    "the quantiles of the population mean density (the mean of the individuals' densities, on the grid's range)"
  } else {
    sprintf("the quantiles of the population density (%s)", if (is.null(smoothness))
      "smoothed by the kernel, on the grid's range" else "f itself, under the assumed bound on |f''|")
  }
  # (the estimate sets negative values to zero, the route through the distribution function keeps
  # them: an interval that misses the estimate is widened to it, which can only raise its coverage)
  structure(data.frame(prob = probs, estimate = est, lower = pmin(iv$lower, est), upper = pmax(iv$upper, est)),
            level = level, interval = interval, target = target, method = how,
            class = c("dpfda_quantile_interval", "data.frame"))
}

#' @export
print.dpfda_quantile_interval <- function(x, ...) {
  # (the band's construction is long: attr(, "method") holds it, as for confint())
  cat(sprintf("%s%% intervals for %s, simultaneous over the probabilities (attr(, \"method\") says how they were made)\n",
              format(100 * attr(x, "level")), attr(x, "target")))
  print(structure(x, class = "data.frame", level = NULL, interval = NULL, target = NULL, method = NULL), ...)
  invisible(x)
}
