# Methods and uses of a private kernel mean embedding (dp_kme(), R/mech-kme.R):
# print, summary, data frame, prediction, plot, expectations and MMD. All
# post-processing of the release.

# ---- methods and uses of a release --------------------------------------------

check_kme <- function(release, arg = "release") {
  if (!inherits(release, "dpfda_kme_release")) arg_error(arg, "a dp_kme() release", release)
  release
}

#' @export
print.dpfda_kme_release <- function(x, ...) {
  lab <- c(subspace = "Algorithm 1 (synthetic-data subspace)",
           random_features = "Algorithm 2 (random features + reduced set)",
           exponential = "exponential mechanism")[[x$method]]
  cat(sprintf("<dpfda_kme_release> private kernel mean embedding, %s\n", lab))
  if (x$method == "exponential") {
    cat(sprintf("  epsilon = %s-DP, N = %d, utility sensitivity %s, candidate %d of %d chosen\n",
                format(x$epsilon, digits = 4), x$n, format(x$sensitivity, digits = 4), x$selected, x$noise_dim))
  } else {
    cat(sprintf("  (epsilon = %s, delta = %s)-DP, N = %d, L2 sensitivity %s\n",
                format(x$epsilon, digits = 4), format(x$delta, digits = 4), x$n, format(x$sensitivity, digits = 4)))
    cat(sprintf("  noise: %s, scale %s (%s)\n", x$noise, format(x$noise_scale, digits = 4), x$calibration))
    print_kme_noise_norm(kme_noise_norm(x))
  }
  cat(sprintf("  %d weighted points in %d dimension%s; sum(w) = %s, ||w||_1 = %s\n", nrow(x$points),
              ncol(x$points), if (ncol(x$points) == 1L) "" else "s", format(sum(x$weights), digits = 4),
              format(sum(abs(x$weights)), digits = 4)))
  cat("  kernel: ", format(x$kernel), "\n", sep = "")
  if (!is.null(x$privacy_unit)) cat(sprintf("  privacy unit: %s\n", x$privacy_unit))
  print_noise_source(x$rng)
  invisible(x)
}

# The root-mean-square RKHS norm of the noise a dp_kme() release adds to the
# embedding, (E ||noise||_H^2)^(1/2) = scale sqrt(v noise_dim) (v = 2 for
# Laplace, 1 for Gaussian coordinates): the subspace coordinates are
# orthonormal in the RKHS, so this is the MMD the noise puts between the
# release and the data's embedding. For random features it is the norm in the
# feature space (the reduced-set fit adds its own error). The noise is public,
# so is this. NULL for the exponential method (no additive noise).
kme_noise_norm <- function(x) {
  if (identical(x$method, "exponential") || !is.numeric(x$noise_dim) || !is.numeric(x$noise_scale)) return(NULL)
  v <- if (isTRUE(x$delta == 0)) 2 else 1
  structure(x$noise_scale * sqrt(v * x$noise_dim), method = x$method, coordinates = x$noise_dim)
}

print_kme_noise_norm <- function(e) {
  if (is.null(e)) return(invisible())
  if (identical(attr(e, "method"), "subspace")) {
    cat(sprintf("  expected RKHS norm of the noise %s (the MMD it adds to the data's embedding; %d coordinates)\n",
                format(as.double(e), digits = 4), as.integer(attr(e, "coordinates"))))
  } else {
    cat(sprintf(paste("  expected norm of the noise on the %d features %s (the MMD it adds to the features' embedding;",
                      "the reduced-set fit adds its own)\n"), as.integer(attr(e, "coordinates")), format(as.double(e), digits = 4)))
  }
  invisible()
}

#' @export
glance.dpfda_kme_release <- function(x, ...) {
  out <- NextMethod()
  e <- kme_noise_norm(x)
  out$expected_rkhs <- if (is.null(e)) NA_real_ else as.double(e)
  out
}

#' @export
summary.dpfda_kme_release <- function(object, ...) {
  structure(list(method = object$method, epsilon = object$epsilon, delta = object$delta,
                 sensitivity = object$sensitivity, noise_scale = object$noise_scale,
                 noise_dim = object$noise_dim, M = nrow(object$points), mass = sum(object$weights),
                 l1 = sum(abs(object$weights)), nonzero = sum(object$weights != 0), rng = object$rng,
                 # everything print() says, so that summary() never says less
                 printed = utils::capture.output(print(object))),
            class = "summary.dpfda_kme_release")
}

#' @export
print.summary.dpfda_kme_release <- function(x, ...) {
  cat(x$printed, sep = "\n")
  cat(sprintf("summary: kme release (%s): epsilon = %s, delta = %s, noise scale %s on %d coordinates\n", x$method,
              format(x$epsilon, digits = 4), format(x$delta, digits = 4), format(x$noise_scale, digits = 4),
              x$noise_dim))
  cat(sprintf("%d points (%d nonzero weights), total mass %s, ||w||_1 = %s, rng %s\n", x$M, x$nonzero,
              format(x$mass, digits = 4), format(x$l1, digits = 4), x$rng))
  invisible(x)
}

# The names of a KME release's point columns: the data's (`predictors`, when the release was made
# from named columns) unless one would clash with a column of the tables below, else z1, z2, ...
kme_point_names <- function(x) {
  lab <- x[["predictors"]]
  d <- ncol(x$points)
  if (is.character(lab) && length(lab) == d && !anyDuplicated(lab) &&
      !any(lab %in% c("weight", "value", "se", "lower", "upper", "estimate", "std.error", "conf.low", "conf.high"))) {
    lab
  } else paste0("z", seq_len(d))
}

#' @export
as.data.frame.dpfda_kme_release <- function(x, row.names = NULL, optional = FALSE, level = 0.95, ...) {
  p <- x$points
  colnames(p) <- kme_point_names(x)
  # the embedding at the points with its noise band (R/confint.R), NA without a noise law
  ci <- tryCatch(confint.dpfda_kme_release(x, level = level, ...), dpfda_error_unsupported = function(e) NULL)
  d <- data.frame(p, weight = x$weights, value = stats::predict(x), check.names = FALSE)
  d$se <- if (is.null(ci)) NA_real_ else ci$se
  d$lower <- if (is.null(ci)) NA_real_ else ci$lower
  d$upper <- if (is.null(ci)) NA_real_ else ci$upper
  d
}

#' Evaluate a private kernel mean embedding
#'
#' \eqn{\tilde\mu(y) = \sum_m w_m k(z_m, y)} at the rows of `newdata` (by
#' default at the synthetic points): post-processing of the release.
#'
#' @param object A [dp_kme()] release.
#' @param newdata Points (vector or matrix with the release's dimension), or
#'   `NULL` for the synthetic points. A data frame is read by column name
#'   when the release was made from named columns (a data frame, or
#'   `columns`): the release's `predictors`.
#' @param ... Unused.
#' @return The embedding at each point.
#' @examples
#' old <- dp_reproducible(2)
#' r <- dp_kme(rnorm(500), kernel_gaussian(0.5), 1, 1e-5, synthetic = seq(-3, 3, by = 0.5))
#' predict(r, c(-1, 0, 1))
#' dp_rng(old)
#' @export
predict.dpfda_kme_release <- function(object, newdata = NULL, ...) {
  refuse_interval(list(...), "a kernel mean embedding")
  if (is.null(newdata)) newdata <- object$points
  newdata <- predictor_columns(object, newdata)   # (a data frame: the data's point columns by name)
  release_predict(object, newdata, ...)
}

#' @export
release_predict.dpfda_kme_release <- function(object, newdata, ...) {
  y <- as_points(newdata, "newdata", d = ncol(object$points))
  nz <- object$weights != 0
  if (!any(nz)) return(numeric(nrow(y)))
  as.vector(kernel_matrix(object$kernel, y, object$points[nz, , drop = FALSE]) %*% object$weights[nz])
}

# plot() and autoplot() of an embedding draw no band
refuse_band_kme <- function(dots) {
  refuse_band_option(dots, "the weighted points of an embedding",
                     "its noise is described by dp_accuracy() (the expected RKHS norm) and confint() at the points.")
}

#' @export
plot.dpfda_kme_release <- function(x, y = NULL, dims = c(1L, 2L), main = NULL, ...) {
  refuse_band_kme(list(...))
  p <- x$points
  w <- x$weights
  if (is.null(main)) main <- sprintf("dp_kme (%s), epsilon = %s", x$method, format(x$epsilon, digits = 3))
  col <- ifelse(w >= 0, "#1F77B4", "#D62728")
  if (ncol(p) == 1L) {
    graphics::plot(p[, 1L], w, type = "h", col = col, xlab = x[["predictors"]][1L] %||% "z", ylab = "weight", main = main,
                   ...)
    graphics::abline(h = 0, col = "grey60")
  } else {
    cex <- 0.3 + 3 * sqrt(abs(w) / max(abs(w), .Machine$double.eps))
    lab <- kme_point_names(x)   # (the data's column names, when recorded)
    graphics::plot(p[, dims[1L]], p[, dims[2L]], cex = cex, col = col, pch = 16,
                   xlab = lab[dims[1L]], ylab = lab[dims[2L]], main = main, ...)
    graphics::legend("topright", legend = c("positive weight", "negative weight"),
                     col = c("#1F77B4", "#D62728"), pch = 16, bty = "n")
  }
  invisible(x)
}

#' Expectations under a private kernel mean embedding
#'
#' \eqn{E\,h(X) = \langle \mu_X, h\rangle_H \approx \sum_m w_m h(z_m)} by the
#' reproducing property (Balog et al., eq. 4); exact for \eqn{h} in the RKHS
#' up to the release's error, an approximation otherwise. The weights can be
#' negative and need not sum to one; `normalise = TRUE` divides by
#' \eqn{\sum_m w_m} (a user choice, not part of the paper).
#'
#' @param release A [dp_kme()] release.
#' @param h A function of an `M x D` matrix of points returning `M` finite
#'   numbers (or an `M x q` matrix for several functions at once).
#' @param normalise Divide by the total mass \eqn{\sum_m w_m}.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The estimate(s), with the total mass as attribute `"mass"`.
#' @examples
#' old <- dp_reproducible(3)
#' r <- dp_kme(rnorm(1000, 1), kernel_gaussian(0.5), 1, 1e-5, synthetic = seq(-3, 5, by = 0.25))
#' kme_expectation(r, function(p) p[, 1])    # about 1
#' dp_rng(old)
#' @export
kme_expectation <- function(release, h, normalise = FALSE, ...) {
  check_dot_names(dot_args(), character(), "kme_expectation")
  check_required(advice = list(h = "a function of the points (one per row), e.g. function(p) p[, 1]^2"))
  check_kme(release)
  if (!is.function(h)) arg_error("h", "a function of the points", h)
  normalise <- check_flag(normalise, "normalise")
  pts <- release$points
  pv <- release[["predictors"]]
  if (is.character(pv) && length(pv) == ncol(pts)) colnames(pts) <- pv   # (h may take the data's columns by name)
  v <- tryCatch(h(pts), error = function(e) {
    dpfda_abort(sprintf("`h` failed on the release's points (columns %s): %s",
                        if (is.null(colnames(pts))) "unnamed" else paste0("\"", colnames(pts), "\"", collapse = ", "),
                        conditionMessage(e)), arg = "h", parent = e)
  })
  if (!is.numeric(v) || !all(is.finite(v)) || NROW(v) != nrow(release$points)) {
    dpfda_abort(sprintf("`h` must return one finite number per point (%d), or a matrix with that many rows.",
                        nrow(release$points)), arg = "h")
  }
  out <- if (is.matrix(v)) as.vector(crossprod(v, release$weights)) else sum(release$weights * v)
  mass <- sum(release$weights)
  if (normalise) {
    if (abs(mass) < .Machine$double.eps) {
      dpfda_abort("The total mass of the release is 0: it cannot be normalised.",
                  class = "dpfda_error_numeric", arg = "normalise")
    }
    out <- out / mass
  }
  attr(out, "mass") <- mass
  out
}

# Two releases compared in one RKHS: the same kernel (a distance between embeddings in two spaces
# is no distance: 153.5 one way and 0.18 the other for lengthscales 1 and 5).
check_same_kme_kernel <- function(a, b) {
  if (!isTRUE(all.equal(unclass(a$kernel), unclass(b$kernel)))) {
    dpfda_abort(sprintf(paste("The two releases have different kernels (%s and %s): their embeddings live in",
                              "different spaces; release both with one kernel to compare them."),
                        format(a$kernel), format(b$kernel)), arg = "y")
  }
  invisible()
}

# Weighted sample (points, weights) from a release or points.
kme_as_weighted <- function(y, d, arg, weights = NULL) {
  if (inherits(y, "dpfda_kme_release")) return(list(points = y$points, weights = y$weights))
  p <- as_points(y, arg, d = d)
  if (is.null(weights)) return(list(points = p, weights = rep(1 / nrow(p), nrow(p))))
  weights <- check_numeric_vector(weights, "weights_y")
  if (length(weights) != nrow(p)) {
    dpfda_abort(sprintf("`weights_y` must have one weight per row of `y` (%d), not %d.", nrow(p),
                        length(weights)), arg = "weights_y")
  }
  list(points = p, weights = weights)
}

kme_sq_dist <- function(kernel, a, b) {
  check_alloc(as.double(length(a$weights) + length(b$weights))^2, "kernel matrices")
  saa <- sum(a$weights * (kernel_matrix(kernel, a$points) %*% a$weights))
  sbb <- sum(b$weights * (kernel_matrix(kernel, b$points) %*% b$weights))
  sab <- sum(a$weights * (kernel_matrix(kernel, a$points, b$points) %*% b$weights))
  saa - 2 * sab + sbb
}

#' Maximum mean discrepancy to a private embedding
#'
#' \eqn{\|\sum_m w_m k(z_m,\cdot) - \sum_l v_l k(y_l,\cdot)\|_H} with
#' \eqn{v_l = 1/L} (a sample) or given weights, or between two releases (same
#' kernel). The square is clamped at 0 before the root.
#'
#' @param release A [dp_kme()] release.
#' @param y A sample (`L x D` matrix or vector) or another release.
#' @param weights_y Optional weights for the rows of `y`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The RKHS distance.
#' @examples
#' old <- dp_reproducible(4)
#' r <- dp_kme(rnorm(1000), kernel_gaussian(1), 1, 1e-5, synthetic = seq(-3, 3, by = 0.5))
#' kme_mmd(r, rnorm(200))
#' kme_mmd(r, rnorm(200, 2))
#' dp_rng(old)
#' @export
kme_mmd <- function(release, y, weights_y = NULL, ...) {
  check_dot_names(dot_args(), character(), "kme_mmd")
  check_required(advice = list(y = paste("a sample to compare with the release (a matrix with its dimension,",
                                         "or a vector in one dimension), or another dp_kme() release")))
  check_kme(release)
  a <- list(points = release$points, weights = release$weights)
  # (a data frame: the release's point columns by name, as predict() reads newdata)
  if (inherits(y, "dpfda_kme_release")) check_same_kme_kernel(release, y) else y <- predictor_columns(release, y, "y")
  if (!inherits(y, "dpfda_kme_release") && is.null(weights_y)) {
    # a plain sample: row means and the mean Gram matrix in C, no L x L matrix
    y <- as_points(y, "y", d = ncol(a$points))
    check_alloc(as.double(nrow(a$points))^2, "kernel matrix of the release")
    saa <- sum(a$weights * (kernel_matrix(release$kernel, a$points) %*% a$weights))
    sab <- sum(a$weights * kme_rowmeans(release$kernel, a$points, y))
    return(sqrt(max(0, saa - 2 * sab + kme_mean_gram(release$kernel, y))))
  }
  b <- kme_as_weighted(y, ncol(a$points), "y", weights_y)
  sqrt(max(0, kme_sq_dist(release$kernel, a, b)))
}

#' Two-sample test against a private embedding (extension)
#'
#' Tests \eqn{H_0: \mu_Y = \mu_X} with statistic \eqn{T =
#' \|\tilde\mu_X - \hat\mu_Y\|_H^2} for a sample `y`, treating the release as
#' fixed. The paper only says a test can be built on this distance; this
#' calibration is an extension of the package. The null distribution of
#' \eqn{T} is simulated as the sum of (i) the privacy noise, exactly
#' \eqn{\sigma^2\chi^2_F} for Algorithm 1 (for Algorithm 2,
#' \eqn{\sigma^2\chi^2_J}, the noise norm in feature space; the sum of squared
#' Laplace draws for `delta = 0`), and (ii) the
#' sampling error of both empirical embeddings, by the bootstrap of
#' \eqn{\|\hat\mu_{Y^*} - \hat\mu_Y\|^2} scaled by \eqn{1 + L/N}. The
#' projection or reduced-set bias of the release is **not** accounted for,
#' so the test is conservative only when that bias is small (many
#' well-spread synthetic points). Resampling uses R's generator.
#'
#' @param release A [dp_kme()] release.
#' @param y The sample, `L x D`.
#' @param B Number of null simulations.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return An object of class `htest`.
#' @examples
#' old <- dp_reproducible(5)
#' r <- dp_kme(rnorm(2000), kernel_gaussian(1), 1, 1e-5, synthetic = seq(-4, 4, by = 0.25))
#' kme_mmd_test(r, rnorm(200), B = 199)$p.value
#' kme_mmd_test(r, rnorm(200, 1), B = 199)$p.value
#' dp_rng(old)
#' @export
kme_mmd_test <- function(release, y, B = 999, ...) {
  check_dot_names(dot_args(), character(), "kme_mmd_test")
  check_required(advice = list(y = paste("the sample to test against the release (a matrix with its dimension,",
                                         "or a vector in one dimension)")))
  check_kme(release)
  # (named before `y` is replaced by its points: deparsing the value printed the whole matrix)
  data_name <- sprintf("%s against the private embedding %s", short_deparse(substitute(y)),
                       short_deparse(substitute(release)))
  y <- as_points(predictor_columns(release, y, "y"), "y", d = ncol(release$points))
  B <- check_count(B, "B", min = 1, max = 1e6)
  L <- nrow(y)
  if (L < 2L) {   # (its bootstrap of one point has no spread: p = 1 / (B + 1) whatever the sample)
    dpfda_abort("`y` must hold at least 2 points: the test resamples them to simulate the sampling error.", arg = "y")
  }
  check_alloc(as.double(L)^2, "kernel matrix of y")
  Kyy <- kernel_matrix(release$kernel, y)
  a <- list(points = release$points, weights = release$weights)
  stat <- max(0, kme_sq_dist(release$kernel, a, list(points = y, weights = rep(1 / L, L))))
  scale <- 1 + L / release$n
  null <- vapply(seq_len(B), function(b) {
    cnt <- tabulate(sample.int(L, L, replace = TRUE), L) / L - 1 / L
    boot <- max(0, sum(cnt * (Kyy %*% cnt)))
    priv <- if (release$noise_scale == 0) 0 else if (identical(release$calibration, "laplace")) {
      release$noise_scale^2 * sum(stats::rexp(release$noise_dim)^2)   # |Laplace(b)| = b Exp(1)
    } else release$noise_scale^2 * stats::rchisq(1, release$noise_dim)
    scale * boot + priv
  }, 0)
  p <- (1 + sum(null >= stat)) / (B + 1)
  structure(list(statistic = c(MMD2 = stat), p.value = p, parameter = c(B = B),
                 method = "MMD test against a private kernel mean embedding (bootstrap + privacy noise)",
                 data.name = data_name, alternative = "mu_Y != mu_X"),
            class = "htest")
}

# An expression for a test's data name: one line, at most `width` characters.
short_deparse <- function(e, width = 60L) {
  s <- deparse1(e, collapse = " ")
  if (nchar(s) > width) paste0(substr(s, 1L, width - 3L), "...") else s
}

#' Mixture-of-Gaussians data of Balog et al. (Appendix B)
#'
#' \eqn{C} components with weights proportional to \eqn{1, 1/2, \dots, 1/C};
#' component means drawn from \eqn{N(center\,1_D, sd\_means^2 I)} and rows from
#' \eqn{N(\mu_c, sd\_within^2 I)}. The paper says "covariance 200 I" and
#' "30 I"; the authors' code uses them as standard deviations, as here.
#' Uses R's generator.
#'
#' @param N Number of rows.
#' @param D Dimension.
#' @param C Number of components.
#' @param center,sd_means,sd_within Mean of the component means and the two
#'   standard deviations.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A list with `x` (`N x D`), `label`, `means` (`C x D`) and `probs`.
#' @examples
#' d <- kme_mog_data(1000, 2)
#' dim(d$x)
#' @export
kme_mog_data <- function(N = 1e5, D = 2, C = 10, center = 100, sd_means = 200, sd_within = 30, ...) {
  check_dot_names(dot_args(), character(), "kme_mog_data")
  N <- check_count(N, "N", min = 1, max = 1e8)
  D <- check_count(D, "D", min = 1, max = 1e4)
  C <- check_count(C, "C", min = 1, max = 1e6)
  center <- check_number(center, "center", lower = -1e100, upper = 1e100)
  sd_means <- check_number(sd_means, "sd_means", lower = 0, upper = 1e100)
  sd_within <- check_number(sd_within, "sd_within", lower = 0, upper = 1e100)
  check_alloc(as.double(N) * D + as.double(C) * D, "mixture data")
  probs <- (1 / seq_len(C)) / sum(1 / seq_len(C))
  means <- matrix(stats::rnorm(C * D, center, sd_means), C, D)
  label <- sample.int(C, N, replace = TRUE, prob = probs)
  x <- means[label, , drop = FALSE] + matrix(stats::rnorm(N * D, 0, sd_within), N, D)
  list(x = x, label = label, means = means, probs = probs)
}
