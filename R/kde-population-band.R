# Population bands for dp_kde() releases (issue 29).
#
# Every supported density release is, at each grid point t,
#
#   r(t) = (1/n) sum_i Y_i(t) + N(t),     Y_i(t) = k(t, X_i),
#
# an average of a known kernel k at the n (clamped, possibly binned) points
# plus noise N with a public law (noise_law()). For i.i.d. points the mean
# mu(t) = E Y(t) is the target: the smoothed density f_h = K_h * f for the
# Gaussian KDE ("gp", "sobolev"; "bernstein" after its lattice polynomial),
# the mechanism's own smoothing with the power kernel for "iclp" / "frl".
# No budget is spent: the band uses only public quantities and r.
#
# Sampling. The kernel is bounded, lo(t) <= Y(t) <= hi(t) for every point of
# the domain, so Var Y(t) <= (hi - mu)(mu - lo) (Bhatia-Davis) and, with
# b = hi - lo, Bernstein's inequality gives for each t and each tail
#   P(|Ybar(t) - mu(t)| > s(mu)) <= alpha_s / m,
#   s(mu) = (b L / 3 + sqrt(b^2 L^2 / 9 + 2 n v(mu) L)) / n,  L = log(2 m / alpha_s),
# a union bound over the m grid points. Noise: |N(t)| <= q(t) at every grid
# point at once with probability 1 - alpha_n (simultaneous quantile of the
# public law, Monte Carlo with a public seed). On both events the true mu(t)
# lies in  {mu in [lo, hi] : |r(t) - mu| <= q(t) + s(mu)}.  s is concave in
# mu (a concave non-decreasing function of the concave v), so |r - mu| - s(mu)
# is convex and the set is an interval, found by a golden-section search for
# its minimum and bisection for its ends. The unknown variance thus needs no
# private estimate: the released value bounds mu, and mu bounds the variance.
# alpha_s + alpha_n = 1 - level; the split is a public rule (below).
#
# Bias to the stated target (added to both ends):
# * binning (a binned 1-D estimate: each point spread linearly over bins of
#   width delta): |interpolated kernel - kernel| <= delta^2 / 8 sup|K_h''|,
#   sup|K_h''| = phi(0) / h^3;
# * "bernstein": the released polynomial's mean is the iterated Bernstein
#   polynomial of f_h, whose error is (I - B_k)^h f_h, at most
#   2^(h-1) D^2 / (8 k) sup|f_h''| (||I - B_k|| <= 2; D the domain width),
#   with sup|f_h''| <= phi(0) / h_bw^3 always and <= B under `smoothness`;
# * `smoothness = B` (|f''| <= B, Gaussian kernel): |f_h - f| <= B tr(H) / 2
#   (second-order Taylor, the kernel's mean zero and second moment H); the
#   band is then for the density f itself;
# * noise = "exact": the rounding of the target to the noise's 2^-k grid
#   (one step per coordinate, through the map to the grid values); the
#   discrete noise's law is taken as the continuous one of its scale (as
#   noise_law() does).
# Bandwidths released by dp_bandwidth() from the same data are refused: given
# the bandwidth, the points are no longer independent draws.

kde_population_mechanisms <- c("kde-gp", "kde-sobolev", "kde-iclp", "kde-frl", "kde-bernstein")

# Refuse what the argument above does not cover, naming why.
kde_population_check <- function(object, smoothness) {
  mech <- object$mechanism
  no <- function(msg, arg = "object") dpfda_abort(msg, class = c("dpfda_error_unsupported", "dpfda_error_argument"),
                                                 arg = arg)
  if (!mech %in% kde_population_mechanisms) {
    no(sprintf("type = \"population\" is not available for a \"%s\" density release.", mech))
  }
  if (!is.null(object$bandwidth_budget)) {
    no(paste("The bandwidth was released from the same data (dp_bandwidth()): the band's sampling argument",
             "needs a bandwidth fixed independently of the data (public, or chosen on a separate sample)."))
  }
  d <- if (is.null(dim(object$values$grid))) 1L else ncol(object$values$grid)
  if (identical(mech, "kde-bernstein") && d != 1L) {
    no("The population band of a Bernstein density release is available in one dimension only.")
  }
  if (!is.null(smoothness) && mech %in% c("kde-iclp", "kde-frl")) {
    no(paste("`smoothness` bounds the bias of a Gaussian kernel; the power kernel of mechanism \"iclp\" / \"frl\"",
             "is not a symmetric probability kernel, so its band is for the mechanism's smoothed density only",
             "(leave `smoothness` NULL)."), "smoothness")
  }
  if (mech %in% c("kde-gp", "kde-sobolev", "kde-bernstein") && d == 1L && is.null(object$bin_width)) {
    no("This release does not record how its estimate was binned; release it again with this version of dpfda.")
  }
  invisible(d)
}

# The range [lo, hi] of the kernel k(t, x) over x at each grid point, and the
# bias bounds to the stated target that do not depend on `smoothness`.
kde_population_kernel <- function(object, d) {
  mech <- object$mechanism
  grid <- object$values$grid
  m <- grid_size(grid)
  H <- as.matrix(object$bandwidth)
  peak <- exp(-0.5 * d * log(2 * pi) - 0.5 * as.numeric(determinant(H, logarithm = TRUE)$modulus))   # K_h(0)
  h1 <- sqrt(H[1L, 1L])
  bin_bias <- function(delta) if (isTRUE(delta > 0)) delta^2 / 8 / (sqrt(2 * pi) * h1^3) else 0
  # noise = "exact" rounds the (whitened) target to a 2^-k grid before the noise: at most one step
  # per coordinate, seen through the map to the grid values
  step <- if (isTRUE(object$noise_exact) && is.numeric(object$grid_step)) object$grid_step else 0
  if (mech %in% c("kde-gp", "kde-sobolev")) {
    rnd <- if (step > 0) {
      step * rowSums(abs(chol_jitter(kernel_matrix(object$noise, as_points(grid, "grid")), jitter = 1e-10)$L))
    } else 0
    return(list(lo = rep(0, m), hi = rep(peak, m), bias = rep(bin_bias(object$bin_width), m) + rnd, range = c(0, peak),
                target = "the smoothed density f_h = K_h * f (Gaussian kernel K_h of the bandwidth)"))
  }
  if (mech == "kde-bernstein") {
    lat <- object$lattice
    A <- bernstein_map(lat, grid)
    hi <- peak * rowSums(pmax(A, 0))
    lo <- -peak * rowSums(pmax(-A, 0))
    dom <- as.double(lat$domain)
    fpp <- 1 / (sqrt(2 * pi) * h1^3)                     # sup |f_h''| for any density f
    poly <- 2^(lat$h - 1) * diff(dom)^2 / (8 * lat$k)
    lstep <- if (isTRUE(lat$noise_exact) && is.numeric(lat$grid_step)) lat$grid_step else 0
    return(list(lo = lo, hi = hi, bias = (bin_bias(object$bin_width) + lstep) * rowSums(abs(A)),
                poly = poly, fpp = fpp, poly_exact = bernstein_bias_worst(A, grid, lat, dom, h1), range = c(0, peak),
                target = sprintf(paste("the smoothed density f_h = K_h * f (its iterated Bernstein polynomial,",
                                       "k = %d, h = %d, is the mean of the release)"), lat$k, lat$h)))
  }
  # ICLP / FRL: k(t, x) = c sum_l Kmat[t, l] p_l(x), p(x) the (multi)linear binning weights of x on the
  # grid (a convex combination of grid points), so k(t, .) ranges over [min_l, max_l] of c Kmat[t, l]
  b <- object$basis
  idx <- if (mech == "kde-frl") seq_len(object$params$M) else seq_along(b$values)
  V <- b$vectors[, idx, drop = FALSE]
  Kmat <- object$params$normaliser * V %*% (b$values[idx]^object$params$eta * t(V))
  list(lo = pmin(apply(Kmat, 1L, min), 0), hi = pmax(apply(Kmat, 1L, max), 0), bias = step * rowSums(abs(V)),
       target = sprintf(paste("the mechanism's smoothed density E k(t, X): the %spower kernel C^eta (eta = %s%s)",
                              "of the bandwidth, after linear binning of the points to the grid"),
                        if (mech == "kde-frl") "truncated " else "", format(object$params$eta, digits = 4),
                        if (mech == "kde-frl") sprintf(", first %d components", object$params$M) else ""))
}

# The largest bias of the iterated Bernstein polynomial to f_h = K_h * f at each grid point, over
# every law f of the (clamped) data on the domain. The bias, sum_nu A[t, nu] f_h(x_nu) - f_h(t), is
# linear in the law, so its largest size is that of one point mass y: max over y in the domain
# of |sum_nu A[t, nu] K_h(x_nu - y) - K_h(t - y)|. Taken on a grid of y of step delta (at most
# h / 200), plus the most the function can rise between its points: its slope is at most
# (sum |A[t, ]| + 1) sup|K_h'|, sup|K_h'| = exp(-1/2) / (sqrt(2 pi) h^2). The general bound
# 2^(h-1) D^2 / (8 k) sup|f_h''| was 6 on faithful's eruptions (k = 20, bandwidth 0.3), 11 times the
# density's peak; this one is the bias of the worst law itself.
bernstein_bias_worst <- function(A, grid, lat, dom, bw) {
  D <- diff(dom)
  xl <- dom[1L] + (0:lat$k) / lat$k * D
  ny <- min(max(2001L, ceiling(200 * D / bw) + 1L), 100001L)
  y <- seq(dom[1L], dom[2L], length.out = ny)
  grid <- as.double(grid)
  out <- rep(0, nrow(A))
  for (blk in split(seq_len(ny), ceiling(seq_len(ny) / 2000L))) {
    B <- A %*% stats::dnorm(outer(xl, y[blk], "-"), sd = bw) - stats::dnorm(outer(grid, y[blk], "-"), sd = bw)
    out <- pmax(out, apply(abs(B), 1L, max))
  }
  slope <- (rowSums(abs(A)) + 1) * exp(-0.5) / (sqrt(2 * pi) * bw^2)
  out + slope * (D / (ny - 1L)) / 2
}

# Draws of max_t |N(t)| / sd(t) from the public noise law (one set serves every level).
kde_noise_max_ratio <- function(law, nsim, seed) {
  sd <- sqrt(law$var)
  pos <- noisy_points(sd)
  if (!any(pos)) return(list(ratio = rep(0, 1L), sd = sd, nsim = 0L))
  nsim <- mc_draws(nsim, length(sd))
  list(ratio = noise_max_ratios(law, sd, nsim, seed), sd = sd, nsim = nsim)
}

# Bernstein's deviation at variance v (vectorised), L = log(2 m / alpha_s).
kde_bernstein_dev <- function(v, b, n, L) (b * L / 3 + sqrt((b * L / 3)^2 + 2 * n * pmax(v, 0) * L)) / n

# The interval {mu in [lo, hi] : |r - mu| <= q + s(mu)} at every grid point
# (vectorised). g(mu) = |r - mu| - q - s(mu) is convex: golden section for
# its minimum, then bisection for the two ends. Where the set is empty (the
# events failed) the interval is the minimiser alone.
kde_mu_interval <- function(r, q, lo, hi, n, L, iter = 80L) {
  b <- pmax(hi - lo, 0)
  g <- function(mu) abs(r - mu) - q - kde_bernstein_dev((hi - mu) * (mu - lo), b, n, L)
  a <- lo
  z <- hi
  phi <- (sqrt(5) - 1) / 2
  for (i in seq_len(iter)) {
    x1 <- z - phi * (z - a)
    x2 <- a + phi * (z - a)
    left <- g(x1) <= g(x2)
    z <- ifelse(left, x2, z)
    a <- ifelse(left, a, x1)
  }
  mid <- (a + z) / 2
  gm <- g(mid)
  bisect <- function(inside, outside) {   # g(inside) <= 0 < g(outside)
    for (i in seq_len(iter)) {
      x <- (inside + outside) / 2
      ok <- g(x) <= 0
      inside <- ifelse(ok, x, inside)
      outside <- ifelse(ok, outside, x)
    }
    outside   # the conservative end
  }
  up <- ifelse(g(hi) <= 0, hi, bisect(mid, hi))
  low <- ifelse(g(lo) <= 0, lo, bisect(mid, lo))
  empty <- gm > 0
  up[empty] <- low[empty] <- mid[empty]
  list(lower = low, upper = up, empty = empty)
}

# The share of 1 - level given to the noise: a public rule (no data), the
# share in 0.05, ..., 0.95 that minimises the mean width of the band at a
# reference density, the uniform one on the domain (clipped into [lo, hi]).
kde_noise_share <- function(ratio, sd, lo, hi, n, m, alpha, vol) {
  shares <- seq(0.05, 0.95, by = 0.05)
  mu <- pmin(pmax(1 / vol, lo), hi)
  v <- (hi - mu) * (mu - lo)
  w <- vapply(shares, function(sh) {
    q <- stats::quantile(ratio, 1 - sh * alpha, names = FALSE, type = 8) * sd
    mean(q + kde_bernstein_dev(v, hi - lo, n, log(2 * m / ((1 - sh) * alpha))))
  }, 0)
  shares[which.min(w)]
}

# The simultaneous band for the population density of a dp_kde() release.
# `parts` (internal, for the tests) drops the sampling or the noise term.
kde_population_band <- function(object, level, nsim, seed, smoothness = NULL,
                                parts = c("sampling", "noise")) {
  d <- kde_population_check(object, smoothness)
  if (!is.null(smoothness)) {
    smoothness <- check_number(smoothness, "smoothness", lower = 0,
                               what = "a non-negative number: a bound on |f''| (the Hessian's norm in several dimensions)")
  }
  kr <- kde_population_kernel(object, d)
  r <- as.vector(object$values$values[1L, ])
  m <- length(r)
  n <- object$n
  alpha <- 1 - level
  law <- noise_law(object)
  mr <- kde_noise_max_ratio(law, nsim, seed)
  dom <- object$values$domain
  vol <- if (is.null(dim(dom))) diff(as.double(dom)) else prod(dom[2L, ] - dom[1L, ])
  share <- if (!"sampling" %in% parts) 1 else if (!"noise" %in% parts) 0 else
    kde_noise_share(mr$ratio, mr$sd, kr$lo, kr$hi, n, m, alpha, vol)
  q <- if ("noise" %in% parts) stats::quantile(mr$ratio, 1 - share * alpha, names = FALSE, type = 8) * mr$sd
       else rep(0, m)
  L <- if ("sampling" %in% parts) log(2 * m / ((1 - share) * alpha)) else 0
  iv <- kde_mu_interval(r, q, kr$lo, kr$hi, n, L)
  bias <- kr$bias
  fpp <- if (!is.null(kr$fpp)) min(kr$fpp, if (is.null(smoothness)) Inf else smoothness)
  # (both bounds hold; the worst law's own bias is far smaller unless `smoothness` is tight)
  if (!is.null(kr$poly)) bias <- bias + pmin(kr$poly * fpp, kr$poly_exact)
  smooth <- if (is.null(smoothness)) 0 else smoothness * sum(diag(as.matrix(object$bandwidth))) / 2
  lower <- iv$lower - bias - smooth
  upper <- iv$upper + bias + smooth
  if (!is.null(smoothness) || !identical(object$mechanism, "kde-iclp") && !identical(object$mechanism, "kde-frl")) {
    lower <- pmax(lower, 0)   # f_h and f are non-negative
  }
  # f_h is an average of kernels, so never above the kernel's peak K_h(0): a band wider than that
  # (a Bernstein release's bias bound) is cut there (of the full band only, so that the parts of
  # a decomposition add up)
  capped <- is.null(smoothness) && !is.null(kr$range) && all(c("sampling", "noise") %in% parts) &&
    any(upper > kr$range[2L])
  if (capped) upper <- pmin(upper, kr$range[2L])
  vmax <- pmax((kr$hi - iv$lower) * (iv$lower - kr$lo), (kr$hi - iv$upper) * (iv$upper - kr$lo), 0)
  mid <- (kr$lo + kr$hi) / 2
  inside <- iv$lower <= mid & mid <= iv$upper
  vmax[inside] <- ((kr$hi - kr$lo) / 2)[inside]^2
  if (kde_has_unit(object)) {
    # a unit adds the average of its points' kernels, also in [lo, hi]: the same argument over n
    # independent units, for the mean of the units' own (smoothed) densities
    kr$target <- paste(kr$target, "averaged over the privacy units (each unit's own smoothed density;",
                       "f_h itself when every point has the density f, however many points a unit has)")
  }
  target <- if (is.null(smoothness)) kr$target else
    sprintf("the density f (|f''| <= %s assumed; %s plus the bias bound %s tr(H) / 2 = %s)",
            format(smoothness, digits = 4), sub("^the ", "", kr$target), format(smoothness, digits = 4),
            format(smooth, digits = 3))
  method <- sprintf(paste(
    "population band for %s, of the data clamped to the domain, simultaneous at the %d grid points:",
    "sampling by Bernstein's inequality with the variance bound (hi - mu)(mu - lo) of a kernel in [lo, hi]",
    "and a union bound over the grid (probability %s), the value bounding the variance (no budget spent);",
    "privacy noise by the simultaneous quantile of its public law (probability %s, Monte Carlo, %d draws)%s%s%s"),
    target, m, format(1 - (1 - share) * alpha, digits = 4), format(1 - share * alpha, digits = 4), mr$nsim,
    if (any(kr$bias > 0)) sprintf("; binning, rounding and lattice bias at most %s", format(max(bias), digits = 3)) else "",
    if (!is.null(kr$poly)) {
      sprintf(paste("; Bernstein polynomial bias at most %s (the smaller of the worst law's own bias, a point mass,",
                    "and the bound with sup|f_h''| <= %s)"),
              format(max(pmin(kr$poly * fpp, kr$poly_exact)), digits = 3), format(fpp, digits = 4))
    } else "",
    if (capped) sprintf("; cut to the largest value of f_h, the kernel's peak %s", format(kr$range[2L], digits = 4))
    else "")
  if (!all(parts %in% c("sampling", "noise")) || length(parts) < 2L) method <- paste(method, "[parts:", toString(parts), "]")
  list(lower = lower, upper = upper, half = (upper - lower) / 2,
       sd = sqrt(law$var + if ("sampling" %in% parts) vmax / n else 0),
       bias = bias + smooth, noise_share = share, empty = iv$empty, method = method)
}

# Whether a density release was made with `unit` (a unit of several points).
kde_has_unit <- function(object) {
  pu <- object$privacy_unit
  is.character(pu) && length(pu) == 1L && !startsWith(pu, "one ")
}
