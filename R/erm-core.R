# The non-private fits and data checks behind dp_svm() and dp_krr()
# (R/mech-svm.R): kernel expansions, solvers, label and bound checks.

# A fitted kernel expansion g = offset + sum_i a_i K(x_i, .) (non-private).
new_erm_fit <- function(x, a, kernel, ..., offset = 0, class) {
  force(x); force(a); force(kernel); force(offset)
  fun <- function(newdata) {
    p <- as_points(newdata, "newdata", d = ncol(x))
    offset + erm_kernel_expansion(kernel, x, a, p)
  }
  structure(list(coefficients = a, offset = offset, fun = fun, x = x, kernel = kernel, ...),
            class = class)
}

# sum_i a_i K(x_i, p_j) for every row of p, in blocks of rows so that the
# cross-Gram matrix stays small.
erm_kernel_expansion <- function(kernel, x, a, p, block_doubles = 2^22) {
  m <- nrow(p)
  out <- numeric(m)
  keep <- a != 0
  if (!any(keep) || m == 0L) return(out)
  x <- x[keep, , drop = FALSE]
  a <- a[keep]
  step <- max(1L, as.integer(block_doubles %/% nrow(x)))
  for (s in seq(1L, m, by = step)) {
    idx <- s:min(m, s + step - 1L)
    out[idx] <- kernel_matrix(kernel, p[idx, , drop = FALSE], x) %*% a
  }
  if (!all(is.finite(out))) {
    dpfda_abort("The fitted function overflowed on the evaluation points.", class = "dpfda_error_numeric")
  }
  out
}

# The weights of the rows' losses (summing to 1): 1/n, or 1 / (n_units k) for a row of a unit with k rows
# (regression_units()), so that each unit's rows weigh as one row does without a unit.
erm_weights <- function(n, units = NULL) if (is.null(units)) rep(1 / n, n) else units$weights / units$n

# Solve the SVM dual in C (hinge losses weighted by erm_weights()); error if it did not converge.
svm_solve <- function(x, y, lambda, kernel, gap_tol, maxit, keep_gram = FALSE, units = NULL) {
  K <- kernel_matrix(kernel, x)
  if (!all(is.finite(K))) {
    dpfda_abort("The kernel matrix of `x` is not finite.", class = "dpfda_error_numeric", arg = "x")
  }
  fit <- c_svm_fit(K, y, erm_weights(length(y), units), lambda, gap_tol, maxit)
  if (!isTRUE(fit$converged)) {
    dpfda_abort(sprintf(paste("The SVM solver did not reach the duality gap `gap_tol` = %s within",
                              "`maxit` = %d sweeps (gap %s); raise `maxit` or `gap_tol`."),
                        format(gap_tol), maxit, format(fit$gap, digits = 3)),
                class = "dpfda_error_numeric", arg = "maxit")
  }
  if (!all(is.finite(fit$a))) {
    dpfda_abort("The SVM coefficients overflowed; increase `lambda`.",
                class = "dpfda_error_numeric", arg = "lambda")
  }
  if (keep_gram) fit$K <- K
  fit
}

# Solve (K + n lambda I) a = y by Cholesky; no jitter (it would change lambda). With a privacy unit
# (regression_units(): row weights w_i = 1 / (its unit's rows), n the number of units) the minimiser of
# (1/n) sum_i w_i (y_i - g(x_i))^2 + lambda ||g||^2 solves (W K + n lambda I) a = W y; with a = W^(1/2) c
# the system is the symmetric (W^(1/2) K W^(1/2) + n lambda I) c = W^(1/2) y.
krr_solve <- function(x, y, lambda, kernel, units = NULL) {
  n <- if (is.null(units)) length(y) else units$n
  if (!is.finite(n * lambda)) {
    dpfda_abort(sprintf("`lambda` * n overflows (lambda = %s); use a smaller `lambda`.", format(lambda)),
                class = "dpfda_error_numeric", arg = "lambda")
  }
  A <- kernel_matrix(kernel, x)
  if (!is.null(units)) {
    s <- sqrt(units$weights)
    A <- A * tcrossprod(s)
    y <- s * y
  }
  diag(A) <- diag(A) + n * lambda
  R <- if (all(is.finite(A))) tryCatch(chol(A), error = function(e) NULL) else NULL
  if (is.null(R)) {
    dpfda_abort(sprintf(paste("The kernel ridge system K + n lambda I is numerically singular",
                              "(lambda = %s); increase `lambda`."), format(lambda)),
                class = "dpfda_error_numeric", arg = "lambda")
  }
  a <- backsolve(R, forwardsolve(R, y, upper.tri = TRUE, transpose = TRUE))
  if (!is.null(units)) a <- s * a
  if (!all(is.finite(a))) {
    dpfda_abort("The kernel ridge coefficients overflowed; increase `lambda`.",
                class = "dpfda_error_numeric", arg = "lambda")
  }
  as.vector(a)
}

# Validated covariates (clamped to the domain) and labels in {-1, +1}.
svm_data <- function(x, y, kernel, domain) {
  inputs <- colnames(x)   # (the covariates' names, for a domain given as a named list)
  x <- as_points(x, "x")
  kernel_scale_points(kernel, x[1L, , drop = FALSE], "x")   # dimension check
  y <- svm_labels(y, nrow(x))
  list(x = erm_clamp_domain(x, domain, inputs = inputs), y = y)
}

krr_data <- function(x, y, kernel, domain, yb) {
  inputs <- colnames(x)   # (the covariates' names, for a domain given as a named list)
  x <- as_points(x, "x")
  kernel_scale_points(kernel, x[1L, , drop = FALSE], "x")
  if (is.data.frame(y) && ncol(y) == 1L) y <- y[[1L]]
  ok <- is.numeric(y) && (is.null(dim(y)) || (length(dim(y)) == 2L && ncol(y) == 1L)) &&
    length(y) >= 1L && all(is.finite(y))
  if (!isTRUE(ok)) arg_error("y", "a numeric vector of finite responses", y)
  y <- as.double(y)
  erm_check_length(y, nrow(x))
  y <- pmin(pmax(y, yb$bound[1L]), yb$bound[2L]) - yb$offset
  list(x = erm_clamp_domain(x, domain, inputs = inputs), y = y)
}

# `centre`, the older spelling of `center`, given in `...` of dp_krr() or
# krr_fit(): the value to use, the name to check it under, and the rest of `...`.
# Both spellings given, and different: refused (`centre = TRUE` overrode `center = FALSE` in silence).
centre_alias <- function(center, dots, center_given = FALSE) {
  if (!"centre" %in% names(dots)) return(list(center = center, arg = "center", dots = dots))
  if (center_given && !identical(center, dots[["centre"]])) {
    dpfda_abort(sprintf(paste("`center` (%s) and `centre` (%s, its older spelling) disagree: give one of them."),
                        paste(format(center), collapse = ", "), paste(format(dots[["centre"]]), collapse = ", ")),
                arg = "centre")
  }
  list(center = dots[["centre"]], arg = "centre", dots = dots[names(dots) != "centre"])
}

# Public response bound: clipping interval, offset and B with |y - offset| <= B.
krr_bound <- function(y_bound, center) {
  y_bound <- check_y_bound(y_bound)
  if (center) {
    offset <- y_bound[1L] / 2 + y_bound[2L] / 2   # no overflow for huge bounds
    B <- y_bound[2L] / 2 - y_bound[1L] / 2
  } else {
    offset <- 0
    B <- max(abs(y_bound))
  }
  list(bound = y_bound, offset = offset, B = B)
}

# Labels: +-1, 0/1, logical (TRUE is +1) or a two-level factor -> double +-1.
# The user's two classes, negative then positive, where the labels name them (a two-level factor's
# levels, FALSE/TRUE): public schema, kept so that predict(type = "class") answers in them. NULL for
# numeric labels (whether they were coded 0/1 or -1/+1 is read off the data, so it is not kept).
label_classes <- function(y) {
  if (is.data.frame(y) && ncol(y) == 1L) y <- y[[1L]]
  if (is.factor(y) && nlevels(y) == 2L) return(levels(y))
  if (is.logical(y)) return(c(FALSE, TRUE))
  NULL
}

# Scores to classes: the positive class where the score is >= 0; in the user's classes when known,
# else -1 / +1 (keeps the shape of v).
score_classes <- function(v, classes) {
  pos <- v >= 0
  if (is.null(classes)) return(ifelse(pos, 1L, -1L))
  if (is.logical(classes)) return(pos)
  out <- factor(ifelse(pos, classes[2L], classes[1L]), levels = classes)
  if (is.null(dim(v))) return(out)
  # (with an interval: the classes at the fit and the band's ends, as three factor columns; a
  # factor with dimensions printed without the column names and lost them in data.frame())
  nm <- colnames(v) %||% paste0("V", seq_len(ncol(v)))
  as.data.frame(stats::setNames(lapply(seq_len(ncol(v)), function(j) out[(j - 1L) * nrow(v) + seq_len(nrow(v))]), nm))
}

svm_labels <- function(y, n) {
  what <- "labels in {-1, +1}, in {0, 1}, TRUE/FALSE, or a factor with two levels"
  if (is.data.frame(y) && ncol(y) == 1L) y <- y[[1L]]
  # (a missing label, said as such: the message spoke of the labels' type only)
  if (is.null(dim(y)) && (is.atomic(y) || is.factor(y)) && anyNA(y)) {
    k <- which(is.na(y))
    dpfda_abort(sprintf(paste("`y` holds %d missing label%s (first at position %d); a release needs every",
                              "label: drop or label those rows."), length(k), if (length(k) == 1L) "" else "s", k[1L]),
                class = c("dpfda_error_data", "dpfda_error_argument"), arg = "y")
  }
  if (is.logical(y) && is.null(dim(y)) && length(y) >= 1L && !anyNA(y)) {
    out <- ifelse(y, 1, -1)
  } else if (is.factor(y)) {
    used <- levels(y)[tabulate(as.integer(y), nlevels(y)) > 0L]
    if (nlevels(y) > 2L && length(used) <= 2L && !anyNA(y)) {
      # (subset() keeps a factor's levels: the two classes are for the user to name, not for the
      # data to choose, so the levels are not dropped here)
      dpfda_abort(sprintf(paste("`y` is a factor with %d levels (%s) of which %d occur%s; the classes of a",
                                "two-class model are its two levels: drop the others first, e.g. y <-",
                                "droplevels(y), or data <- droplevels(data)."),
                          nlevels(y), paste(levels(y), collapse = ", "), length(used),
                          if (length(used) == 1L) "s" else ""), arg = "y")
    }
    if (nlevels(y) != 2L || anyNA(y)) arg_error("y", what, y)
    out <- ifelse(as.integer(y) == 2L, 1, -1)
  } else {
    ok <- is.numeric(y) && (is.null(dim(y)) || (length(dim(y)) == 2L && ncol(y) == 1L)) &&
      length(y) >= 1L && !anyNA(y)
    if (!isTRUE(ok)) arg_error("y", what, y)
    y <- as.double(y)
    out <- if (all(y == -1 | y == 1)) y
      else if (all(y == 0 | y == 1)) 2 * y - 1
      else arg_error("y", what, y)
  }
  erm_check_length(out, n)
  out
}

erm_check_length <- function(y, n) {
  if (length(y) != n) {
    dpfda_abort(sprintf("`y` must have one entry per row of `x` (%d), not %d.", n, length(y)),
                arg = "y")
  }
  invisible(y)
}

# Clamp points (n x d) to public bounds: NULL (no clamping), c(lower, upper)
# for every coordinate, or a 2 x d matrix.
erm_clamp_domain <- function(x, domain, arg = "domain", inputs = colnames(x)) {
  if (is.null(domain)) return(x)
  d <- ncol(x)
  # (a list of ranges, one per covariate, as dp_kde() takes it; named, matched to the columns by name)
  domain <- domain_by_names(domain_from_ranges(domain), inputs)
  what <- sprintf("c(lower, upper), a 2 x %d matrix of finite bounds with lower < upper, or a list of ranges", d)
  ok <- is.numeric(domain) && all(is.finite(domain)) &&
    ((is.null(dim(domain)) && length(domain) == 2L) ||
       (is.matrix(domain) && identical(dim(domain), c(2L, d))))
  if (!isTRUE(ok)) arg_error(arg, what, domain)
  lo <- if (is.matrix(domain)) domain[1L, ] else rep(domain[1L], d)
  hi <- if (is.matrix(domain)) domain[2L, ] else rep(domain[2L], d)
  if (any(lo >= hi)) arg_error(arg, what, domain)
  for (j in seq_len(d)) x[, j] <- pmin(pmax(x[, j], lo[j]), hi[j])
  x
}
