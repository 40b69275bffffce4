# Population bands for dp_mean(mechanism = "bernstein", inference = TRUE).
#
# The Bernstein release is mu_hat = T xbar + B e: xbar the mean of the
# centred curves clamped to [-tau, tau] at every grid point, T = B L the
# linear map from grid values to the polynomial on the grid (L: linear
# interpolation to the k + 1 lattice points, B: the Bernstein basis there),
# e the lattice noise (public law). Against the population mean mu its
# error is T (xbar - mu) + B e + (T mu - mu) (+ clipping): the band of the
# linear mechanisms (R/population-band.R) with T's range as the basis.
# V (m x r) spans that range, orthonormal in the grid's quadrature inner
# product W, and a_i = V' W T x_i are the coordinates of the smoothed curve
# (T x_i = V a_i), so every component is kept (shrinkage 1). Both maps
# average with non-negative weights that add to one, so |T x_i(t)| <= tau
# at every t and ||a_i|| = ||T x_i||_W <= tau sqrt(sum W): the radius that
# calibrates the noise of the second moments (inference_radius()). The
# components are ordered by T's singular values: the smooth ones, which T
# passes almost unchanged, come first, so the first K, whose second moments
# are estimated in full, carry most of a smooth population's spread.

# The map T from the grid values of a curve to its Bernstein polynomial on
# the grid (the lattice of dp_mean(): k + 1 equispaced points over the grid's
# range, linear interpolation to them).
bernstein_mean_operator <- function(grid, k) {
  g <- as.double(grid)
  m <- length(g)
  lat <- g[1L] + (0:k) / k * (g[m] - g[1L])
  L <- vapply(seq_len(m), function(i) stats::approx(g, as.double(seq_len(m) == i), xout = lat, rule = 2)$y,
              numeric(k + 1L))
  br <- list(values = list(values = matrix(0, 1L, k + 1L)), k = k, h = 1L, dim = 1L,
             domain = c(g[1L], g[m]), noise_type = "laplace")
  bernstein_map(br, g) %*% matrix(L, k + 1L)
}

# The basis of the band (public: the grid and k only), in the form of
# kl_basis() with the projection P = T' W V (a_i = P' x_i of the clamped
# curve x_i) and the rule that clamps the curves ("sup").
bernstein_inference_basis <- function(grid, k) {
  g <- as.double(grid)
  w <- quadrature_weights(g)
  Tm <- bernstein_mean_operator(g, k)
  sw <- sqrt(w)
  sv <- svd(sw * Tm)   # W^(1/2) T = U D Q'; V = W^(-1/2) U is W-orthonormal
  r <- sum(sv$d > 1e-10 * sv$d[1L])
  V <- sv$u[, seq_len(r), drop = FALSE] / sw
  list(grid = g, weights = w, vectors = V, values = sv$d[seq_len(r)]^2, J = r,
       projection = crossprod(Tm, w * V), clip = "sup")
}

# The bound on ||a_i|| that calibrates the spread's noise: tau for the
# L2-clipped coefficients of the kernel basis, tau sqrt(sum W) for the
# Bernstein coordinates (above).
inference_radius <- function(basis, tau) {
  if (identical(basis$clip, "sup")) tau * sqrt(sum(basis$weights)) else tau
}
