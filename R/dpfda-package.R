#' dpfda: differentially private release of functions and functional data
#'
#' Mechanisms that publish curves, densities, regression functions and
#' functional means under differential privacy, with a C core for the noise.
#' Start with [rgp()], [dp_noise_scale()] and [curves()]; the noise source is
#' described in [dp_rng()].
#'
#' @keywords internal
#' @useDynLib dpfda, .registration = TRUE, .fixes = "C_"
"_PACKAGE"
