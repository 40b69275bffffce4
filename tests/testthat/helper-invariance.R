# The invariance sweeps (test-order-invariance.R, test-source-invariance.R): the numbers of a
# release (curve values; an embedding's points and weights; an FPCA's eigenvalues and unsigned
# eigenfunctions; a bandwidth; a summary's sums), and the check that two calls under the same seed
# give the same release to rounding (relative `tol`).
release_value <- function(r) {
  if (is.atomic(r)) return(as.double(r))
  if (inherits(r, "dpfda_fpca")) return(c(r$values, abs(r$harmonics$values)))
  if (inherits(r, "dpfda_bandwidth")) return(r$bandwidth)
  if (inherits(r, "dpfda_summary")) return(as.double(unlist(r$sums)))
  c(as.vector(r$values$values), if (!is.null(r$points)) as.vector(r$points), r$weights)
}

expect_same_release <- function(f1, f2, label, tol = 1e-9) {
  a <- with_seed_mode(5, suppressWarnings(f1()))
  b <- with_seed_mode(5, suppressWarnings(f2()))
  va <- release_value(a)
  vb <- release_value(b)
  expect_equal(length(vb), length(va), label = label)
  expect_lte(max(abs(va - vb)) / max(abs(va), 1e-300), tol, label = label)
}
