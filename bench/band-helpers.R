# Shared by the population-band benches (bench-population-band.R,
# bench-population-band-unit.R), sourced from the repository root.

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
