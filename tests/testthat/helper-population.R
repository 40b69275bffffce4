# A known population of curves for the population-band tests (test-population-band.R,
# test-frl-gaussian.R): mean pb_mu on a 21-point grid plus two Gaussian components.
pb_grid <- seq(0, 1, length.out = 21)
pb_mu <- function(t) 0.4 * sin(2 * pi * t) + 0.3 * t
pb_draw <- function(n, g = pb_grid) {
  phi <- rbind(sqrt(2) * sin(pi * g), sqrt(2) * cos(2 * pi * g))
  outer(rep(1, n), pb_mu(g)) + (matrix(rnorm(2 * n), n) * rep(c(0.4, 0.2), each = n)) %*% phi
}
