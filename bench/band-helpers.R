# Shared by the population-band benches (bench-population-band.R,
# bench-population-band-unit.R, -decompose.R, -whitened.R), sourced from the
# repository root.

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
