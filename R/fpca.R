# Private functional principal components: the eigen-decomposition of a
# private covariance release (post-processing, no extra budget).

#' Private functional principal component analysis
#'
#' Eigenfunctions, eigenvalues and fractions of variance of a covariance
#' released privately by [dp_cov()]. The decomposition is post-processing of
#' the release, so it costs **no budget beyond that of `dp_cov()`**. With
#' curves as `x`, `dp_cov()` is called first with the arguments in `...`
#' (`epsilon`, `tau`, `kernel`, `J`, `budget`, ...), and its budget is spent;
#' `tau = "auto"` chooses the bound privately within that budget (see
#' [dp_cov()]).
#'
#' The released covariance surface \eqn{\tilde C} on the grid is decomposed
#' in \eqn{L^2} with the trapezoid weights \eqn{w} of the grid: the
#' eigenvectors \eqn{u_k} of \eqn{W^{1/2} \tilde C W^{1/2}} give the
#' eigenfunctions \eqn{\phi_k = W^{-1/2} u_k} (orthonormal in \eqn{L^2}),
#' signed to have a positive integral. Privacy noise can make small
#' eigenvalues negative; fractions of variance are taken over the positive
#' eigenvalues, and the print says how many are negative and which
#' components are no larger than the most negative one (not to be told
#' from the noise). The released surface has at most the rank the mechanism
#' keeps (at most `J`, less where its smoothing sets components to zero):
#' eigenvalues at rounding level (below \eqn{10^{-10}} of the largest) are
#' reported as exactly 0, and the result's `rank` and `positive` count the
#' non-zero and the positive ones. Asking for more components than there are
#' positive eigenvalues warns (`dpfda_warning_utility`): the eigenfunctions
#' of the others are an arbitrary basis of the null space (eigenvalue 0) or
#' directions of the privacy noise (negative eigenvalues), not features of
#' the data. The harmonics are a [curves()] object (`$harmonics`, one
#' curve per component, like the `harmonics` of `fda::pca.fd()`), so
#' [as_fd()], [as_tfd()], `plot()` and `autoplot()` work on them; `as_fd(p)`
#' converts them directly. `predict(p, newdata, center = )` gives the scores
#' of curves on the components, or their reconstructions
#' ([predict.dpfda_fpca()]).
#'
#' **Utility.** By the Davis--Kahan theorem an eigenfunction moves by at most
#' \eqn{2\sqrt 2 \|E\| / g_k} in \eqn{L^2} (up to sign), where \eqn{E} is the
#' noise of the covariance release and \eqn{g_k} the gap between the
#' \eqn{k}-th eigenvalue and its neighbours. The result stores the
#' root-mean-square Hilbert--Schmidt norm of \eqn{E} (`noise_hs`, public, from
#' [dp_accuracy()]) and the bound per component (`eigenfunction_bound`, from
#' the released, hence noisy, gaps). To plan the number of curves, ask
#' [dp_accuracy()] for the `n` that brings the noise below a fraction of the
#' gap you expect: `dp_accuracy(mechanism = "cov", n =, epsilon =, tau =,
#' grid =, J =, target_l2 = gap * err / (2 * sqrt(2)))$n_needed` for an
#' eigenfunction error `err`.
#'
#' @param x A `dp_cov()` release (class `dpfda_iclp_cov_release`), or curves
#'   (anything [dp_cov()] accepts, a [summarise_cov()] summary included,
#'   whose `tau` is then taken) to release a covariance first. For
#'   `plot()`: a `dp_fpca()` result.
#' @param npc Number of components to keep (at most the number of grid points:
#'   more are reduced to it, with a warning).
#' @param ... With curves as `x`: arguments of [dp_cov()] (`unit = id` for
#'   person-level privacy when a person has several curves, `incomplete = "drop"`); for `plot()`:
#'   graphical parameters passed to [graphics::matplot()].
#' @return An object of class `dpfda_fpca`: `values` (eigenvalues, all
#'   `npc`), `varprop` (fractions of the positive variance), `harmonics`
#'   (curves), `grid`, `noise_hs`, `eigenfunction_bound`, `rank` and
#'   `positive` (the numbers of non-zero and of positive eigenvalues of the
#'   released surface), `all_values` (all its eigenvalues), and the public
#'   settings of the covariance release (`epsilon`, `delta`, `n`, `tau`,
#'   `mechanism`) in `release`.
#' @examples
#' g <- seq(0, 1, length.out = 51)
#' x <- curves(outer(rnorm(5000), sin(pi * g)) + outer(rnorm(5000, sd = 0.5), cos(pi * g)), g)
#' p <- dp_fpca(x, npc = 2, epsilon = 1, tau = 1.5, J = 8)
#' p
#' plot(p)
#' @export
dp_fpca <- function(x, npc = 3, ...) {
  check_required("x")
  npc <- check_count(npc, "npc", min = 1, max = 1e4)
  # the other packages' names for the number of components (fda's nharm, prcomp's rank., ...) would
  # reach dp_cov() and be refused there as not one of its arguments: say which is meant
  # (and misspellings of npc: n_pc, npcs)
  dn <- names(substitute(list(...)))[-1L]
  other <- dn[dn %in% c("K", "k", "nharm", "ncomp", "rank.", "n_components") |
                (!dn %in% names(formals(dp_cov)) & vapply(dn, function(d) !is.null(closest_name(d, "npc")), NA))]
  if (length(other)) {
    dpfda_abort(sprintf("The number of components of dp_fpca() is `npc`, not `%s`: give npc = %s.", other[1L],
                        deparse(substitute(list(...))[[other[1L]]])), arg = other[1L])
  }
  if (!inherits(x, "dpfda_iclp_cov_release")) {
    if (inherits(x, "dpfda_release")) {
      arg_error("x", "a dp_cov() release or curves", x)
    }
    # (names only: columns may be bare; a summarise_cov() summary has its tau, as dp_cov() takes it)
    miss <- setdiff(c("epsilon", if (!inherits(x, "dpfda_summary")) "tau"), names(substitute(list(...))))
    if (length(miss)) {
      dpfda_abort(sprintf(paste("dp_fpca() with %s releases their covariance first with dp_cov(): give `%s`",
                                "(e.g. epsilon = 1%s), or pass a dp_cov() release."),
                          if (inherits(x, "dpfda_summary")) "a summary" else "curves", miss[1L],
                          if (miss[1L] == "tau") ", and tau a public bound on the curves' L2 norm" else ""),
                  arg = miss[1L])
    }
    x <- dp_cov(x, ...)
  } else if (...length()) {
    dpfda_abort("`...` is only used with curves as `x` (it is passed to dp_cov()).", arg = "...")
  }
  g <- x$basis$grid
  m <- length(g)
  C <- matrix(x$values$values[1L, ], m, m)
  w <- quadrature_weights(g)
  sw <- sqrt(w)
  e <- eigen(sw * t(sw * C), symmetric = TRUE)
  if (npc > m) {   # (said: a 4-point grid gave 4 of 5 components with no word about the fifth)
    dpfda_warn(sprintf(paste("`npc` = %d exceeds the %d points of the grid, which bound the number of components:",
                             "%d are returned."), npc, m, m), class = "dpfda_warning_utility")
    npc <- m
  }
  lam <- e$values
  # the released surface's rank: eigenvalues at rounding level are zeros of the mechanism's truncation
  zero <- abs(lam) <= 1e-10 * max(abs(lam))
  lam[zero] <- 0
  rank <- sum(!zero)
  positive <- sum(lam > 0)
  if (npc > positive) {
    beyond <- if (npc - positive == 1L) sprintf("component %d has", npc) else
      sprintf("components %d to %d have", positive + 1L, npc)
    dpfda_warn(sprintf(paste("The released covariance has %d positive eigenvalue%s (rank %d), so %s",
                             "eigenvalue 0 (an arbitrary direction of the mechanism's null space) or below 0",
                             "(privacy noise), not a feature of the data: ask for npc = %d, or release the",
                             "covariance with more basis functions (J in dp_cov()) or less noise."),
                       positive, if (positive == 1L) "" else "s", rank, beyond, max(positive, 1L)),
               "dpfda_warning_utility")
  }
  phi <- e$vectors[, seq_len(npc), drop = FALSE] / sw
  sgn <- sign(colSums(w * phi))
  sgn[sgn == 0] <- 1
  phi <- phi * rep(sgn, each = m)
  pos <- sum(lam[lam > 0])
  law <- tryCatch(noise_law(x), error = function(e) NULL)
  hs <- if (is.null(law)) NA_real_ else sqrt(sum(law$weights * law$var))
  gaps <- vapply(seq_len(npc), function(k) {
    nb <- c(if (k > 1L) lam[k - 1L], if (k < length(lam)) lam[k + 1L])
    if (length(nb)) min(abs(lam[k] - nb)) else Inf   # (one grid point: a lone eigenvalue, no gap to close)
  }, 0)
  harm <- new_dpfda_curves(t(phi), g, x$values$domain[, 1L])
  a <- x$values$arg_name
  if (is.character(a) && length(a) >= 1L && !is.na(a[1L])) harm$arg_name <- a[1L]   # (the data's argument)
  structure(list(values = lam[seq_len(npc)], varprop = if (pos > 0) pmax(lam[seq_len(npc)], 0) / pos else
                   rep(NA_real_, npc),
                 harmonics = harm, grid = g, noise_hs = hs, eigengap = gaps,
                 eigenfunction_bound = pmin(2 * sqrt(2) * hs / gaps, sqrt(2)),
                 all_values = lam, rank = rank, positive = positive,
                 release = list(mechanism = x$mechanism, epsilon = x$epsilon, delta = x$delta, n = x$n,
                                tau = x$tau, rng = x$rng, tau_auto = x$tau_auto,
                                privacy_unit = x$privacy_unit, centered = x$centered,
                                mean_release = x$mean_release)),
            class = "dpfda_fpca")
}

#' @export
print.dpfda_fpca <- function(x, ...) {
  r <- x$release
  cat(sprintf("<dpfda_fpca> %d private principal components of a %s release (epsilon = %s, n = %s, tau = %s)\n",
              length(x$values), r$mechanism, format(r$epsilon, digits = 4), format(r$n),
              format(r$tau, digits = 4)))
  tab <- data.frame(component = paste0("PC", seq_along(x$values)), eigenvalue = signif(x$values, 4),
                    varprop = signif(x$varprop, 3), eigenfunction_bound = signif(x$eigenfunction_bound, 3))
  print(tab, row.names = FALSE)
  if (!is.null(x$positive) && x$positive < length(x$values)) {
    cat(sprintf(paste("  the released covariance has %d positive eigenvalue%s (rank %d): PC%d and beyond are",
                      "its null space or noise, not features of the data\n"),
                x$positive, if (x$positive == 1L) "" else "s", x$rank, x$positive + 1L))
  }
  print_negative_eigenvalues(x)
  if (!is.null(r$privacy_unit)) cat(sprintf("  privacy unit: %s\n", r$privacy_unit))
  cat(sprintf(paste("  covariance noise: expected Hilbert-Schmidt norm %s; eigenfunction_bound is the",
                    "Davis-Kahan bound 2 sqrt(2) |E| / gap (sqrt(2) = no information)\n"),
              format(x$noise_hs, digits = 3)))
  print_tau_auto(r)
  print_noise_source(r$rng)
  invisible(x)
}

# Negative eigenvalues are the privacy noise's: the most negative one is a size of noise that a
# positive eigenvalue must exceed to be told from it. varprop is over the positive eigenvalues, so
# "100% explained" of DTI profiles hid a -0.0156 larger than PC2 (0.0083) and PC3 (0.0048).
print_negative_eigenvalues <- function(x) {
  lam <- x$all_values
  neg <- lam[lam < 0]
  if (!length(neg)) return(invisible())
  worst <- min(neg)
  below <- which(x$values > 0 & x$values <= -worst)
  pcs <- paste0("PC", below)
  cat(sprintf("  %d negative eigenvalue%s, the most negative %s: %s; varprop counts only the eigenvalues above 0\n",
              length(neg), if (length(neg) == 1L) "" else "s", format(worst, digits = 3),
              if (!length(below)) "the size of the privacy noise" else
                sprintf("the privacy noise is that large, so %s (no larger) cannot be told from it",
                        if (length(pcs) == 1L) pcs else paste(paste(pcs[-length(pcs)], collapse = ", "), "and",
                                                                pcs[length(pcs)]))))
  invisible()
}

# plot() and autoplot() of components draw no band
refuse_band_fpca <- function(dots) {
  refuse_band_option(dots, "the components of a functional PCA",
                     "how far each can be from the one without noise is its eigenfunction_bound (print()).")
}

#' @rdname dp_fpca
#' @param y Unused.
#' @param main,xlab,ylab Graphical parameters.
#' @export
plot.dpfda_fpca <- function(x, y, main = NULL, xlab = NULL, ylab = "eigenfunction", ...) {
  refuse_band_fpca(list(...))
  if (is.null(main)) main <- sprintf("Private FPCA (epsilon = %s)", format(x$release$epsilon, digits = 3))
  h <- x$harmonics
  k <- nrow(h$values)
  col <- curve_palette(max(k, 2L))[seq_len(k)]
  graphics::matplot(h$grid, t(h$values), type = "l", lty = 1, lwd = 2, col = col, main = main,
                    xlab = xlab %||% (h$arg_name %||% "t"), ylab = ylab, ...)
  graphics::abline(h = 0, col = "grey70", lty = 3)
  graphics::legend("topright", legend = sprintf("PC%d (%.0f%%)", seq_len(k), 100 * x$varprop), col = col,
                   lty = 1, lwd = 2, bty = "n")
  invisible(x)
}

#' @export
as_curves.dpfda_fpca <- function(x, ...) x$harmonics

#' Scores of curves on private principal components
#'
#' The principal component scores \eqn{\xi_{ik} = \int (x_i(t) - \mu(t))
#' \phi_k(t)\,dt} of curves on the eigenfunctions \eqn{\phi_k} of a
#' [dp_fpca()] result (by the trapezoid rule on its grid, the inner product
#' in which the eigenfunctions are orthonormal), or their reconstruction
#' \eqn{\mu + \sum_k \xi_{ik} \phi_k} from the `npc` components, as
#' `predict()` of [stats::prcomp()] and the scores of `fda::pca.fd()` give.
#'
#' **Privacy.** The eigenfunctions are private; the scores are not a
#' release. Each score is a value of one curve, so the scores of the
#' confidential curves themselves (the data `dp_fpca()` was given) reveal
#' those curves and must not be published: use them inside the protected
#' analysis, or compute scores of public or new curves. Publish summaries of
#' confidential scores only through a mechanism.
#'
#' **Centre.** The covariance was centred on the data's own mean, which was
#' not released, so the scores need a mean to subtract: `center` a private
#' mean ([dp_mean()] of the same curves, with its own budget), a public
#' reference (a function, one curve, a number or one value per grid point,
#' as in [dp_mean()]), or `"newdata"` for the mean of `newdata` (the scores
#' then sum to zero over `newdata`, as those of `prcomp()` do over its data).
#' A covariance released with `incomplete = "drop"` carries a private mean,
#' which is the default then.
#'
#' @param object A `dp_fpca()` result.
#' @param newdata Curves: anything [as_curves()] reads (curves, a matrix of
#'   curves in rows on the components' grid, a long data frame, `fd`, `tfd`,
#'   ...), evaluated or interpolated on the components' grid; the options of
#'   [as_curves()] (`id`, `arg`, `value`, ...) go in `...`.
#' @param center The mean to subtract (see above); required unless the
#'   release carries a private mean.
#' @param type `"scores"` (a matrix, one row per curve and one column per
#'   component, `PC1`, `PC2`, ...) or `"curves"` (the reconstructions, a
#'   [curves()] object).
#' @param ... Options of [as_curves()] for `newdata`.
#' @return A numeric matrix of scores (row names the curves' labels), or
#'   [curves()].
#' @examples
#' g <- seq(0, 1, length.out = 51)
#' x <- curves(outer(rnorm(5000), sin(pi * g)) + outer(rnorm(5000, sd = 0.5), cos(pi * g)), g)
#' p <- dp_fpca(x, npc = 2, epsilon = 1, tau = 1.5, J = 8)
#' m <- dp_mean(x, epsilon = 0.5, tau = 1.5)        # a private mean (its own budget)
#' new <- curves(rbind(sin(pi * g), cos(pi * g)), g)   # public curves
#' predict(p, new, center = m)
#' plot(predict(p, new, center = m, type = "curves"))
#' @seealso [dp_fpca()]
#' @export
predict.dpfda_fpca <- function(object, newdata, center = NULL, type = c("scores", "curves"), ...) {
  check_required("newdata")
  type <- check_choice(type, c("scores", "curves"), "type")
  # (the object's contents, not its class: components on a one-dimensional grid)
  h <- check_curves_data(object$harmonics, "object")
  g <- h$grid
  if (h$dim != 1L || !identical(length(object$grid), length(g))) {
    dpfda_abort("`object` is not a dp_fpca() result: its components and grid do not match.", arg = "object")
  }
  x <- if (inherits(newdata, "dpfda_curves") && !...length() && length(newdata$grid) == length(g) &&
           isTRUE(all.equal(as.vector(newdata$grid), as.vector(g)))) {
    check_curves_data(newdata, "newdata")
  } else if (inherits(newdata, "dpfda_curves") && newdata$dim == 1L &&
             (min(newdata$grid) > min(g) || max(newdata$grid) < max(g))) {
    dpfda_abort(sprintf(paste("`newdata` covers [%s, %s] but the components are on [%s, %s]: give curves that cover",
                              "that range (they are interpolated onto its %d points, never extrapolated)."),
                        format(min(newdata$grid)), format(max(newdata$grid)), format(min(g)), format(max(g)),
                        length(g)), arg = "newdata")
  } else {
    tryCatch(as_curves(newdata, grid = g, ...), dpfda_error = function(e) {
      dpfda_abort(sprintf("`newdata` must be curves on the grid of the components ([%s, %s], %d points): %s",
                          format(min(g)), format(max(g)), length(g), conditionMessage(e)), arg = "newdata")
    })
  }
  if (x$dim != 1L || ncol(x$values) != length(g)) {
    dpfda_abort(sprintf("`newdata` must be one-dimensional curves on the %d grid points of the components.",
                        length(g)), arg = "newdata")
  }
  mu <- fpca_center(object, center, x)
  w <- quadrature_weights(g)
  dev <- x$values - rep(mu, each = nrow(x$values))
  scores <- dev %*% (w * t(h$values))
  colnames(scores) <- paste0("PC", seq_len(ncol(scores)))
  rownames(scores) <- x$ids
  if (type == "scores") return(scores)
  rec <- rep(mu, each = nrow(scores)) + scores %*% h$values
  out <- x
  out$values <- unname(rec)
  out
}

# The mean that predict.dpfda_fpca() subtracts, on the components' grid.
fpca_center <- function(object, center, x) {
  if (identical(center, "newdata")) return(colMeans(x$values))
  if (is.null(center)) {
    mr <- object$release$mean_release
    if (is.null(mr)) {
      dpfda_abort(paste("`center` is needed: the covariance was centred on the data's mean, which was not released.",
                        "Give a private mean (center = dp_mean(x, ...), with its own budget), a public reference",
                        "curve, or center = \"newdata\" for the mean of the curves scored."), arg = "center")
    }
    center <- mr
  }
  center_values(center, x$grid)
}

#' @rdname dp_fpca
#' @param matrix For `tidy()`: `"eigenfunctions"` (one row per component and
#'   grid point: `component`, `arg`, `value`) or `"eigenvalues"` (one row per
#'   component: `component`, `eigenvalue`, `varprop`, `eigenfunction_bound`),
#'   as `broom::tidy()` of `prcomp()` does with its `matrix`.
#' @export
tidy.dpfda_fpca <- function(x, matrix = c("eigenfunctions", "eigenvalues"), ...) {
  check_dot_names(list(...), character(), "tidy")
  matrix <- check_choice(matrix, c("eigenfunctions", "eigenvalues"), "matrix")
  k <- length(x$values)
  if (matrix == "eigenvalues") {
    return(data.frame(component = seq_len(k), eigenvalue = x$values, varprop = x$varprop,
                      eigenfunction_bound = x$eigenfunction_bound))
  }
  h <- x$harmonics
  data.frame(component = rep(seq_len(k), each = length(h$grid)), arg = rep(h$grid, k),
             value = as.vector(t(h$values)))
}

#' @rdname dp_fpca
#' @param object A `dpfda_fpca`.
#' @export
summary.dpfda_fpca <- function(object, ...) {
  check_dot_names(list(...), character(), "summary")
  structure(list(components = tidy.dpfda_fpca(object, "eigenvalues"), release = object$release,
                 noise_hs = object$noise_hs,
                 # everything print() says, so that summary() never says less
                 printed = utils::capture.output(print(object))),
            class = "summary.dpfda_fpca")
}

#' @export
print.summary.dpfda_fpca <- function(x, ...) {
  cat(x$printed, sep = "\n")
  invisible(x)
}

#' @rdname dp_fpca
#' @details `glance()` gives one row: the guarantee, `n`, `tau`, the number of
#'   components, the share of the released variance they hold
#'   (`varprop_total`), the expected Hilbert-Schmidt norm of the covariance
#'   noise, the largest Davis-Kahan bound of the eigenfunctions, and the
#'   most negative eigenvalue of the released surface (`negative_min`, 0 when
#'   none is negative: a size of the privacy noise that a component's
#'   eigenvalue must exceed to be told from it; the print names the
#'   components that do not), the noise source and `privacy_unit` (as the
#'   print states it).
#' @export
glance.dpfda_fpca <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  r <- x$release
  data.frame(mechanism = r$mechanism, epsilon = r$epsilon, delta = r$delta, n = r$n, tau = r$tau,
             npc = length(x$values), varprop_total = sum(x$varprop), noise_hs = x$noise_hs,
             eigenfunction_bound_max = max(x$eigenfunction_bound), negative_min = min(0, x$all_values),
             rng = r$rng, privacy_unit = release_privacy_unit(r), stringsAsFactors = FALSE)
}

#' @rdname dp_fpca
#' @param row.names,optional Unused (for the generic).
#' @export
as.data.frame.dpfda_fpca <- function(x, row.names = NULL, optional = FALSE, ...) tidy.dpfda_fpca(x, ...)

#' @rdname dp_fpca
#' @export
confint.dpfda_fpca <- function(object, ...) {
  # (R's "no applicable method for 'vcov'")
  dpfda_abort(paste("There is no band for a functional PCA: its print bounds how far each eigenfunction can be",
                    "from the one without noise (Davis-Kahan: `eigenfunction_bound`); for a band of the covariance",
                    "surface, confint() the dp_cov() release it decomposes."),
              class = "dpfda_error_unsupported", arg = "object")
}

# ggplot2 method, registered in .onLoad().
autoplot_dpfda_fpca <- function(object, ...) {
  need_package("ggplot2", "autoplot()")
  refuse_band_fpca(list(...))
  h <- object$harmonics
  d <- as.data.frame(h)
  lab <- sprintf("PC%d (%.0f%%)", seq_len(nrow(h$values)), 100 * object$varprop)
  d$component <- factor(lab[d$id], levels = lab)
  ggplot2::ggplot(d, ggplot2::aes(x = arg, y = value, colour = component)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70", linetype = 3) + ggplot2::geom_line() +
    ggplot2::labs(x = h$arg_name %||% "t", y = "eigenfunction", colour = NULL,
                  title = sprintf("Private FPCA (epsilon = %s)", format(object$release$epsilon, digits = 3)))
}
