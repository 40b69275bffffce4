# quantile(r, interval = ): intervals for the quantiles of a released density, from its
# simultaneous band (R/density-quantile-interval.R).

# The distribution function at x of the density linear between its values f at the grid t,
# normalised on the grid's range (what quantile() inverts).
qi_cdf_at <- function(t, f, x) {
  h <- diff(t)
  pieces <- h * (f[-length(f)] + f[-1L]) / 2
  cum <- c(0, cumsum(pieces))
  vapply(x, function(xx) {
    i <- min(findInterval(xx, t, rightmost.closed = TRUE), length(t) - 1L)
    u <- xx - t[i]
    s <- (f[i + 1L] - f[i]) / h[i]
    (cum[i] + f[i] * u + s * u^2 / 2) / sum(pieces)
  }, 0)
}

# The density of the band's vertices that makes F(x) largest (top = TRUE) or smallest at x.
qi_vertex <- function(t, lo, up, x, top = TRUE) {
  i <- min(findInterval(x, t, rightmost.closed = TRUE), length(t) - 1L)
  left <- seq_along(t) < i
  right <- seq_along(t) > i + 1L
  best <- NULL
  for (a in list(lo, up)) for (b in list(lo, up)) {
    f <- if (top) ifelse(left, up, lo) else ifelse(left, lo, up)
    f[i] <- a[i]
    f[i + 1L] <- b[i + 1L]
    v <- qi_cdf_at(t, f, x)
    if (is.null(best) || (if (top) v > best$v else v < best$v)) best <- list(f = f, v = v)
  }
  best
}

qi_band <- function(seed, m = 15) {
  set.seed(seed)
  t <- sort(c(0, 1, runif(m - 2)))             # an uneven grid
  mid <- dnorm(t, 0.4, 0.2) + 0.3 * dnorm(t, 0.8, 0.05)
  w <- runif(m, 0.05, 0.6) * max(mid)
  list(t = t, lo = pmax(mid - w, 0), up = mid + w)
}

test_that("the bounds on the distribution function hold for every density in the band, and are attained", {
  for (seed in 1:4) {
    b <- qi_band(seed)
    cb <- dpfda:::band_cdf_bounds(b$t, b$lo, b$up)
    expect_true(all(diff(cb$x) >= 0))
    expect_true(all(diff(cb$lower) >= -1e-12) && all(diff(cb$upper) >= -1e-12))   # non-decreasing in x
    for (k in 1:60) {   # random densities in the band, and random vertices of it
      f <- if (k %% 2) b$lo + runif(length(b$t)) * (b$up - b$lo) else ifelse(runif(length(b$t)) < 0.5, b$lo, b$up)
      Fx <- qi_cdf_at(b$t, f, cb$x)
      expect_true(all(Fx >= cb$lower - 1e-12 & Fx <= cb$upper + 1e-12))
    }
    # the bounds are the extremes over the band: a vertex density reaches each of them
    for (j in c(5, 40, 100, 170, 220)) {
      expect_equal(qi_vertex(b$t, b$lo, b$up, cb$x[j], TRUE)$v, cb$upper[j], tolerance = 1e-12)
      expect_equal(qi_vertex(b$t, b$lo, b$up, cb$x[j], FALSE)$v, cb$lower[j], tolerance = 1e-12)
    }
  }
})

test_that("the quantile interval holds every density in the band's quantiles, and its ends are nearly reached", {
  p <- c(0.05, 0.25, 0.5, 0.75, 0.95)
  for (seed in 1:4) {
    b <- qi_band(seed)
    iv <- dpfda:::band_quantile_interval(b$t, b$lo, b$up, p)
    expect_true(all(iv$lower <= iv$upper))
    for (k in 1:60) {
      f <- b$lo + runif(length(b$t)) * (b$up - b$lo)
      q <- quantile(as_density(curves(matrix(f, 1), b$t)), p, names = FALSE)
      expect_true(all(q >= iv$lower - 1e-12 & q <= iv$upper + 1e-12))
    }
    # at one refined step beyond an end, some density of the band has its quantile: the interval
    # is the exact range, up to the refined grid (16 steps per grid interval)
    cb <- dpfda:::band_cdf_bounds(b$t, b$lo, b$up)
    for (j in seq_along(p)) {
      k <- match(iv$lower[j], cb$x)
      if (k < length(cb$x)) {
        v <- qi_vertex(b$t, b$lo, b$up, cb$x[k + 1L], TRUE)$f
        qv <- quantile(as_density(curves(matrix(v, 1), b$t)), p[j], names = FALSE)
        expect_true(qv >= iv$lower[j] - 1e-12 && qv <= cb$x[k + 1L] + 1e-12)
      }
      k <- match(iv$upper[j], cb$x)
      if (k > 1L) {
        v <- qi_vertex(b$t, b$lo, b$up, cb$x[k - 1L], FALSE)$f
        qv <- quantile(as_density(curves(matrix(v, 1), b$t)), p[j], names = FALSE)
        expect_true(qv >= cb$x[k - 1L] - 1e-12 && qv <= iv$upper[j] + 1e-12)
      }
    }
  }
})

# The piecewise-linear integral of the values v on grid g from g[1] to each x, normalised: the
# distribution function that quantile() inverts.
qi_cdf_lin <- function(v, g, x) {
  m <- length(g)
  dt <- diff(g)
  cum <- c(0, cumsum(dt * (v[-m] + v[-1L]) / 2))
  i <- pmin(findInterval(x, g, rightmost.closed = TRUE), m - 1L)
  u <- x - g[i]
  (cum[i] + (u - u^2 / (2 * dt[i])) * v[i] + u^2 / (2 * dt[i]) * v[i + 1L]) / cum[m]
}

test_that("the noise interval (through the distribution function) covers the non-private quartiles, at its level", {
  set.seed(11)
  x <- c(rnorm(1200, 2, 0.5), rnorm(800, 4, 0.7))
  g <- seq(0, 6, length.out = 61)
  p <- c(0.25, 0.5, 0.75)
  fh <- kde_gaussian(x, g, 0.3, domain = c(0, 6))$values[1L, ]   # the non-private estimate of "gp"
  target <- quantile(as_density(curves(matrix(fh, 1), g)), p, names = FALSE)
  reps <- 40
  cover <- cover_F <- cover_F50 <- 0
  for (r in seq_len(reps)) {
    rel <- with_seed_mode(r, dp_kde(x, g, 0.3, epsilon = 0.5, delta = 1e-5, domain = c(0, 6)))
    q <- quantile(rel, p, interval = "noise", nsim = 1000)
    expect_true(all(q$lower <= q$estimate & q$estimate <= q$upper))
    cover <- cover + all(q$lower <= target & target <= q$upper)
    # the bounds on the distribution function behind it, at 0.95 and at 0.5
    for (lev in c(0.95, 0.5)) {
      res <- dpfda:::kde_cdf_quantile_interval(rel, p, "noise", lev, 1000, 1)
      F <- qi_cdf_lin(fh, g, res$x)
      ok <- all(res$lo <= F + 1e-12 & F <= res$hi + 1e-12)
      if (lev == 0.95) cover_F <- cover_F + ok else cover_F50 <- cover_F50 + ok
    }
  }
  expect_gte(cover / reps, 0.95)
  expect_gte(cover_F / reps, 0.93)
  # at level 0.5 the bounds hold about as often as they claim (0.74 measured): a noise taken too
  # small would hold them less than half the time, one taken far too large nearly always
  expect_gte(cover_F50 / reps, 0.5)
  expect_lte(cover_F50 / reps, 0.9)
  expect_match(attr(q, "method"), "integrated privacy noise", fixed = TRUE)
})

test_that("the population interval covers the quartiles of the smoothed population density; its sampling term is needed", {
  g <- seq(-5, 5, length.out = 201)
  h <- 0.4
  p <- c(0.25, 0.5, 0.75)
  # the quartiles of f_h on [-5, 5], normalised there (quadrature)
  xs <- seq(-5, 5, length.out = 4001)
  wq <- c(0.5, rep(1, length(xs) - 2), 0.5) * diff(xs[1:2])
  f <- dnorm(xs, 0.5, 1.2) / sum(wq * dnorm(xs, 0.5, 1.2))
  fhx <- vapply(xs, function(t) sum(wq * dnorm(t - xs, sd = h) * f), 0)
  cdf <- cumsum(wq * fhx) / sum(wq * fhx)
  target <- vapply(p, function(pp) stats::approx(cdf, xs, pp, ties = "ordered")$y, 0)
  reps <- 30
  cover <- cover_nosampling <- 0
  set.seed(12)
  for (r in seq_len(reps)) {
    x <- rnorm(800, 0.5, 1.2)
    x <- x[abs(x) <= 5]
    rel <- suppressWarnings(with_seed_mode(r, dp_kde(x, g, h, epsilon = 8, delta = 1e-5, domain = c(-5, 5))))
    q <- quantile(rel, p, interval = "population", nsim = 1000)
    cover <- cover + all(q$lower <= target & target <= q$upper)
    b <- dpfda:::kde_cdf_quantile_interval(rel, p, "population", 0.95, 1000, 1, sampling = FALSE)
    cover_nosampling <- cover_nosampling + all(b$lower <= target & target <= b$upper)
  }
  expect_gte(cover / reps, 0.95)
  expect_lt(cover_nosampling / reps, 0.8)   # (0.425 measured: sampling dominates at epsilon 8)
  expect_true(all(q$upper - q$lower < 2))   # informative (the domain is 10 wide)
  expect_s3_class(q, "dpfda_quantile_interval")
  expect_named(q, c("prob", "estimate", "lower", "upper"))
  expect_identical(attr(q, "interval"), "population")
  expect_match(attr(q, "method"), "Dvoretzky-Kiefer-Wolfowitz", fixed = TRUE)
  expect_output(print(q), "95% intervals for the quantiles of the population density")
})

test_that("with smoothness, or another mechanism, the intervals come from the population band", {
  g <- seq(-5, 5, length.out = 51)
  p <- c(0.25, 0.5, 0.75)
  set.seed(14)
  x <- rnorm(3000, 0.5, 1.2)
  x <- x[abs(x) <= 5]
  # the truncated normal's own quartiles; |f''| <= max |phi''| / sd^3 = 0.4 / 1.2^3 (and the truncation)
  Z <- diff(pnorm(c(-5, 5), 0.5, 1.2))
  target <- qnorm(pnorm(-5, 0.5, 1.2) + p * Z, 0.5, 1.2)
  B <- 1.05 * dnorm(0) / 1.2^3 / Z
  cover <- 0
  for (r in 1:20) {
    rel <- with_seed_mode(r, dp_kde(x, g, 0.4, epsilon = 2, delta = 1e-5, domain = c(-5, 5)))
    qs <- quantile(rel, p, interval = "population", nsim = 1000, smoothness = B)
    cover <- cover + all(qs$lower <= target & target <= qs$upper)
  }
  expect_gte(cover / 20, 0.95)
  expect_match(attr(qs, "target"), "f itself")
  expect_match(attr(qs, "method"), "simultaneous 95% population band", fixed = TRUE)
  # the band route is the range of the quantiles of the densities in the band: as computed here
  ci <- confint(rel, type = "population", nsim = 1000, smoothness = B)
  b <- dpfda:::band_quantile_interval(ci$arg, ci$lower, ci$upper, p)
  expect_equal(c(qs$lower, qs$upper), c(pmin(b$lower, qs$estimate), pmax(b$upper, qs$estimate)))
  ri <- with_seed_mode(2, dp_kde(x, g, 0.4, epsilon = 2, mechanism = "iclp", domain = c(-5, 5)))
  qi <- quantile(ri, p, interval = "population", nsim = 1000)
  expect_match(attr(qi, "method"), "simultaneous 95% population band", fixed = TRUE)
  expect_true(all(qi$lower <= qi$estimate & qi$estimate <= qi$upper))
  # the noise interval needs only the additive noise law: every mechanism goes through the
  # distribution function, narrower than the band's range
  qn <- quantile(ri, p, interval = "noise", nsim = 1000)
  expect_match(attr(qn, "method"), "through the distribution function", fixed = TRUE)
  cin <- confint(ri, type = "simultaneous", nsim = 1000)
  bn <- dpfda:::band_quantile_interval(cin$arg, cin$lower, cin$upper, p)
  expect_lt(sum(qn$upper - qn$lower), sum(bn$upper - bn$lower))
})

test_that("a change of units moves the intervals with the data", {
  set.seed(13)
  x <- rnorm(800, 3, 1)
  x <- x[x > 0 & x < 6]
  g <- seq(0, 6, length.out = 41)
  a <- with_seed_mode(4, dp_kde(x, g, 0.4, epsilon = 1, delta = 1e-5, domain = c(0, 6)))
  b <- with_seed_mode(4, dp_kde(10 * x + 5, 10 * g + 5, 4, epsilon = 1, delta = 1e-5, domain = c(5, 65)))
  for (type in c("noise", "population")) {
    qa <- quantile(a, c(0.1, 0.5, 0.9), interval = type, nsim = 1000)
    qb <- quantile(b, c(0.1, 0.5, 0.9), interval = type, nsim = 1000)
    for (col in c("estimate", "lower", "upper")) expect_equal(qb[[col]], 10 * qa[[col]] + 5, tolerance = 1e-8)
  }
  # the band route too (smoothness in the other units: |f''| scales by 1 / 10^3)
  qa <- quantile(a, c(0.1, 0.5, 0.9), interval = "population", nsim = 1000, smoothness = 0.5)
  qb <- quantile(b, c(0.1, 0.5, 0.9), interval = "population", nsim = 1000, smoothness = 0.5e-3)
  for (col in c("estimate", "lower", "upper")) expect_equal(qb[[col]], 10 * qa[[col]] + 5, tolerance = 1e-8)
})

test_that("quantile intervals refuse what they cannot give, by name", {
  x <- faithful$eruptions
  g <- seq(1, 6, length.out = 41)
  r <- with_seed_mode(1, dp_kde(x, g, 0.3, epsilon = 1, delta = 1e-5, domain = c(1, 6)))
  expect_error(quantile(r, c(0, 0.5), interval = "noise"), "strictly inside", class = "dpfda_error_argument")
  expect_error(quantile(r, 0.5, interval = "both"), class = "dpfda_error_argument")
  expect_error(quantile(r, 0.5, interval = "noise", level = 1), class = "dpfda_error_argument")
  expect_error(quantile(r, 0.5, interval = "noise", smoothness = 1), "population", class = "dpfda_error_argument")
  expect_error(quantile(r, 0.5, smoothness = 1), "population", class = "dpfda_error_argument")
  expect_error(quantile(r, 0.5, intervall = "noise"), "did you mean `interval`", class = "dpfda_error_argument")
  expect_error(quantile(r, NA, interval = "noise"), class = "dpfda_error_argument")
  # the Monte Carlo settings are checked on both routes ("gp" goes through the distribution
  # function; nsim = -1 stopped in matrix() there, seed = "a" warned and ran)
  for (type in c("noise", "population")) for (sm in list(NULL, 1)) {
    if (type == "noise" && !is.null(sm)) next
    for (bad in list(NA, -1, 0, "a", list(1), c(100, 200))) {
      expect_error(quantile(r, 0.5, interval = type, nsim = bad, smoothness = sm), class = "dpfda_error_argument")
    }
    for (bad in list(NA, Inf, "a", 1e10, -1)) {
      expect_error(quantile(r, 0.5, interval = type, seed = bad, smoothness = sm), class = "dpfda_error_argument")
    }
  }
  r2 <- with_seed_mode(2, dp_kde(as.matrix(faithful), list(seq(1, 6, length.out = 11), seq(40, 100, length.out = 11)),
                                 c(0.3, 5), epsilon = 5, delta = 1e-6, domain = cbind(c(1, 6), c(40, 100))))
  expect_error(quantile(r2, 0.5, interval = "noise"), class = "dpfda_error_argument")
})

test_that("the sampling term of the route through the distribution function: eps times the kernel's mass in the domain", {
  # F_n - F of the clamped points is 0 outside the domain, so the smoothed integrals from t_1 to x err by
  # at most eps (c(x) + c(t_1)), c the kernel's mass within the domain (1/2 at a domain end): 1.5 eps
  # inside a grid that spans the domain, instead of 2 eps before
  g <- seq(-5, 5, length.out = 101)
  h <- 0.3
  set.seed(21)
  x <- rnorm(2000)
  rel <- with_seed_mode(1, dp_kde(x, g, h, epsilon = 4, delta = 1e-5, domain = c(-5, 5)))
  b <- dpfda:::kde_cdf_quantile_interval(rel, 0.5, "population", 0.95, 1000, 1)
  mid <- which.min(abs(b$x))
  expect_equal(b$cA[mid], 1.5, tolerance = 1e-6)
  expect_equal(b$cA[1L], 1, tolerance = 1e-12)    # c(t_1) + c(t_1) = 1/2 + 1/2
  expect_equal(b$cB[length(b$x)], 1, tolerance = 1e-12)
  # a domain far beyond the grid: no gain, 2 eps in the middle
  rel2 <- with_seed_mode(1, dp_kde(x, seq(-2, 2, length.out = 101), h, epsilon = 4, delta = 1e-5, domain = c(-50, 50)))
  b2 <- dpfda:::kde_cdf_quantile_interval(rel2, 0.5, "population", 0.95, 1000, 1)
  expect_equal(b2$cA[which.min(abs(b2$x))], 2, tolerance = 1e-6)
  # the bound holds for samples whose points pile at the domain's ends (clamped): the smoothed error of
  # the integral from t_1, computed exactly, within eps (c(x) + c(t_1)) at every x, in at least 95% of them
  # (smoothing makes the bound loose: the 95% quantile of the error's ratio to it was 0.40 in 300 samples,
  # so this fails for a bound too small by a factor of 2.5 or more, as c = 0 or a wrong eps would be)
  n <- 400
  dom <- c(-1, 1)
  eps <- sqrt(log(2 / 0.05) / (2 * n))
  xs <- seq(-1, 1, length.out = 201)
  mass_in <- function(y) pnorm((y - dom[1]) / h) - pnorm((y - dom[2]) / h)
  bound <- eps * (mass_in(xs) + mass_in(dom[1]))
  # the population: N(0, 0.8) clamped to [-1, 1] (21% of its mass at each end); G = F * Phi_h
  s <- seq(-6, 6, length.out = 2401) * h
  ws <- dnorm(s, sd = h) * diff(s[1:2])
  Fpop <- function(y) ifelse(y < dom[1], 0, ifelse(y >= dom[2], 1, pnorm(y, sd = 0.8)))
  Gpop <- function(y) vapply(y, function(v) sum(ws * Fpop(v - s)), 0)
  A_pop <- Gpop(xs) - Gpop(dom[1])
  held <- vapply(1:200, function(r) {
    u <- pmin(pmax(rnorm(n, sd = 0.8), dom[1]), dom[2])
    Gn <- function(y) vapply(y, function(v) mean(pnorm((v - u) / h)), 0)
    A_n <- Gn(xs) - Gn(dom[1])
    all(abs(A_n - A_pop) <= bound)
  }, NA)
  expect_gte(mean(held), 0.95)
})

test_that("noise intervals of a margin's quantiles cover the non-private margin's, for each mechanism's law", {
  # quantile(r, margin = , interval = "noise") of a density in the plane: the release integrated over
  # the other axis is the non-private margin plus the integrated noise. The target: the margin of the
  # non-private estimate, the Gaussian KDE of the clamped points ("gp") or its smoothed projection on
  # the release's basis ("iclp")
  set.seed(12)
  X <- data.frame(a = c(rnorm(500, 0.3, 0.1), rnorm(300, 0.7, 0.1)), b = rnorm(800, 0, 1))
  g <- list(a = seq(0, 1, length.out = 21), b = seq(-3, 3, length.out = 17))
  P <- cbind(pmin(pmax(X$a, 0), 1), pmin(pmax(X$b, -3), 3))
  p <- c(0.25, 0.5, 0.75)
  rel <- function(seed, mech) with_seed_mode(seed, suppressWarnings(
    if (mech == "gp") dp_kde(X, g, c(0.08, 0.5), epsilon = 1, delta = 1e-5)
    else dp_kde(X, g, 0.3, epsilon = 1, mechanism = "iclp", kernel = kernel_gaussian(1),
                sensitivity_method = "triangle")))   # (the exact method: 0.5 s a release here)
  for (mech in c("gp", "iclp")) {
    x <- rel(1, mech)
    np <- if (mech == "gp") kde_gaussian(P, g, c(0.08, 0.5))$values else {
      b <- x$basis
      a <- x$params$normaliser * b$values^x$params$eta * as.vector(crossprod(b$vectors, dpfda:::iclp_kde_bin(P, g))) / x$n
      matrix(b$vectors %*% a, 1L)
    }
    truth <- x
    truth$values$values <- np
    fa <- as.vector(dpfda:::curves_margin(truth$values, "a")$values)
    target <- quantile(as_density(truth, margin = "a"), p, names = FALSE)
    reps <- 25
    cover <- cover_F <- cover_F50 <- 0
    for (r in seq_len(reps)) {
      x <- rel(r, mech)
      # the interval (before quantile() widens it to the estimate) and the bounds on the margin's
      # distribution function behind it, at 0.95 and at 0.5
      for (lev in c(0.95, 0.5)) {
        res <- dpfda:::margin_quantile_interval(x, "a", p, lev, 600, 1)
        F <- qi_cdf_lin(fa, g$a, res$x)
        ok <- all(res$lo <= F + 1e-12 & F <= res$hi + 1e-12)
        if (lev == 0.95) {
          res95 <- res
          cover_F <- cover_F + ok
          cover <- cover + all(res$lower <= target & target <= res$upper)
        } else cover_F50 <- cover_F50 + ok
      }
    }
    q <- quantile(x, p, margin = "a", interval = "noise", nsim = 600)
    expect_equal(q$estimate, unname(quantile(x, p, margin = "a")))
    expect_equal(q$lower, pmin(res95$lower, q$estimate))
    expect_true(all(q$lower <= q$estimate & q$estimate <= q$upper))
    expect_gte(cover / reps, 0.9)
    expect_gte(cover_F / reps, 0.9)
    # at level 0.5 the bounds hold about as often as they claim: a noise taken too small (e.g. not
    # integrated over the other axis) would hold them less than half the time, one far too large always
    # (measured with 30 replications: 0.67 for "gp"; 0.97 for "iclp", whose bounds on the ratio A / (A + B)
    # are conservative for its Laplace law: there only the lower limit can tell)
    expect_gte(cover_F50 / reps, 0.3)
    if (mech == "gp") expect_lte(cover_F50 / reps, 0.9)
  }
  expect_match(attr(q, "method"), "the margin of a", fixed = TRUE)
  expect_match(attr(q, "target"), "the margin of a of the non-private", fixed = TRUE)
  expect_error(quantile(x, 0.5, margin = "a", interval = "population"), "not given for a margin",
               class = "dpfda_error_argument")
  expect_error(quantile(x, 0.5, margin = "c", interval = "noise"), "margin", class = "dpfda_error_argument")
  expect_error(quantile(x, 0.5, interval = "noise"), "give `margin`", class = "dpfda_error_argument")
  r1 <- with_seed_mode(1, dp_kde(X$a, g$a, 0.08, epsilon = 1, delta = 1e-5))
  expect_error(quantile(r1, 0.5, margin = 1, interval = "noise"), "two or more dimensions",
               class = "dpfda_error_argument")
})

test_that("quantile() of a dp_mean() of densities: intervals for the mean density's quantiles", {
  # 4000 individuals, each one density (a normal with its own mean); FRL on every component, so the
  # release without noise is the mean of the densities itself
  set.seed(15)
  g <- seq(-4, 6, length.out = 51)
  D <- as_density(curves(t(vapply(rnorm(4000, 1, 0.7), function(m) dnorm(g, m, 1), numeric(51))), g))
  cen <- dnorm(g, 1, 1.2)
  p <- c(0.25, 0.5, 0.75)
  target <- quantile(as_density(curves(matrix(colMeans(D$values), 1L), g)), p, names = FALSE)
  reps <- 20
  cover <- 0
  for (r in seq_len(reps)) {
    rel <- with_seed_mode(r, suppressWarnings(dp_mean(D, epsilon = 2, tau = 0.6, mechanism = "frl", M = 51,
                                                      center = cen)))
    expect_true(isTRUE(rel$of_densities))
    q <- quantile(rel, p, interval = "noise", nsim = 1000)
    cover <- cover + all(q$lower <= target & target <= q$upper)
  }
  expect_gte(cover / reps, 0.9)
  expect_match(attr(q, "method"), "through the distribution function", fixed = TRUE)
  expect_equal(q$estimate, unname(quantile(as_density(rel), p)))
  expect_lt(max(q$upper - q$lower), 1)          # informative: the quartiles are 1.6 apart
  # the population interval (the band route) needs the inference of dp_mean()
  expect_error(quantile(rel, p, interval = "population"), class = "dpfda_error")
  ri <- with_seed_mode(1, suppressWarnings(dp_mean(D, epsilon = 2, tau = 0.6, center = cen, inference = TRUE)))
  qp <- quantile(ri, p, interval = "population", nsim = 1000)
  expect_match(attr(qp, "target"), "population mean density", fixed = TRUE)
  expect_true(all(qp$lower <= qnorm(p, 1, sqrt(1.49)) & qnorm(p, 1, sqrt(1.49)) <= qp$upper))
  # a mean of curves that are not densities is still refused
  rc <- with_seed_mode(1, dp_mean(curves(matrix(runif(400), 8), seq(0, 1, length.out = 50)), epsilon = 1, tau = 1))
  expect_error(quantile(rc, 0.5), "dp_mean\\(\\) of densities", class = "dpfda_error_argument")
})
