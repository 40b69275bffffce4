# Shared by the population-band benches (bench-population-band.R,
# bench-population-band-unit.R, -decompose.R, -whitened.R, -difference.R) and the
# density ones (bench-kde-population-band.R, bench-quantile-interval.R), sourced
# from the repository root.

# The smooth, light-tailed population of the width studies on m grid points of
# [0, 1]: the mean mu and three components with sds 0.4, 0.25, 0.15 (the
# functions phi on the grid); draw(n) gives n curves as an n x m matrix.
band_smooth_population <- function(m = 50) {
  g <- seq(0, 1, length.out = m)
  mu <- function(t) 0.4 * sin(2 * pi * t) + 0.3 * t
  phi <- rbind(sqrt(2) * sin(pi * g), sqrt(2) * cos(2 * pi * g), sqrt(2) * sin(3 * pi * g))
  sds <- c(0.4, 0.25, 0.15)
  list(m = m, g = g, mu = mu, phi = phi, sds = sds,
       draw = function(n) outer(rep(1, n), mu(g)) + (matrix(rnorm(3 * n), n) * rep(sds, each = n)) %*% phi)
}

# The non-private simultaneous band of the mean of the rows of X: a Gaussian
# multiplier band from the sample covariance (the reference of issue 29).
nonprivate_band <- function(X, level = 0.95, nsim = 2000) {
  n <- nrow(X)
  m <- ncol(X)
  S <- stats::cov(X) / n
  e <- eigen(S, symmetric = TRUE)
  A <- e$vectors %*% diag(sqrt(pmax(e$values, 0)))
  sd0 <- sqrt(pmax(diag(S), 1e-300))
  Z <- matrix(rnorm(nsim * m), nsim) %*% t(A)
  q <- stats::quantile(apply(abs(Z) / rep(sd0, each = nsim), 1, max), level)
  list(centre = colMeans(X), half = q * sd0)
}

# A cell's verdict at nominal 0.95: the target [0.93, 0.97], conservative
# above it, and anti-conservative (a failure) below.
band_verdict <- function(coverage) {
  if (coverage >= 0.93 && coverage <= 0.97) "in target" else
    if (coverage > 0.97) "conservative" else "ANTI-CONSERVATIVE"
}

# One cell's row: printed as it is made, and appended to `out`.
band_cell_done <- function(row, out) {
  row$verdict <- band_verdict(row$coverage)
  print(row, digits = 3, row.names = FALSE)
  rbind(out, row)
}

# The known densities of the density-band benches (bench-kde-population-band.R,
# bench-quantile-interval.R), each truncated to the domain `dom`: a standard normal, the bimodal
# mixture 0.5 N(-1.5, 0.5^2) + 0.5 N(1.5, 0.5^2), and a t with 3 degrees of freedom (heavy
# tails). For each: f on the grid g, fx on the quadrature points xs (weights wq), the smoothed
# density fh = K_h * f on g (quadrature), B = 1.05 max |f''| on the domain, and draw(n).
kde_bench_populations <- function(dom, g, h) {
  xs <- seq(dom[1], dom[2], length.out = 8001)
  wq <- c(0.5, rep(1, length(xs) - 2), 0.5) * diff(xs[1:2])
  raw <- list(normal = function(x) dnorm(x),
              bimodal = function(x) 0.5 * dnorm(x, -1.5, 0.5) + 0.5 * dnorm(x, 1.5, 0.5),
              t3 = function(x) dt(x, 3))
  rawdraw <- list(normal = function(n) rnorm(n),
                  bimodal = function(n) rnorm(n, ifelse(runif(n) < 0.5, -1.5, 1.5), 0.5),
                  t3 = function(n) rt(n, 3))
  pops <- lapply(names(raw), function(p) {
    Z <- sum(wq * raw[[p]](xs))
    f <- function(x) raw[[p]](x) / Z
    fx <- f(xs)
    fh <- vapply(g, function(t) sum(wq * dnorm(t - xs, sd = h) * fx), 0)
    dx <- 1e-3
    fpp <- max(abs(f(xs + dx) - 2 * f(xs) + f(xs - dx)) / dx^2)
    draw <- function(n) {
      out <- numeric(0)
      while (length(out) < n) {
        y <- rawdraw[[p]](2 * n)
        out <- c(out, y[y >= dom[1] & y <= dom[2]])
      }
      out[seq_len(n)]
    }
    list(name = p, f = f(g), fx = fx, fh = fh, B = 1.05 * fpp, draw = draw)
  })
  list(pops = pops, xs = xs, wq = wq)
}
