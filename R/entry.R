# What every exported mechanism does at entry: coerce the user's data once,
# re-validate it whatever its class claims (finite values, dimensions, grid
# consistency), name missing arguments with advice on how to choose them,
# speak one vocabulary of mechanism names, and warn about privacy settings
# that protect little (epsilon > 10, delta >= 1/n).

# ---- data -------------------------------------------------------------------

# Data errors are argument errors too (the class the constructors raise).
data_error_class <- c("dpfda_error_data", "dpfda_error_argument")

# Curves for a mechanism: anything as_curves() understands, then a full
# re-validation of the object (a hand-edited curves object may hold NaN).
as_mech_curves <- function(x, ..., .arg = "x") {
  if (missing(x)) require_arg_error(.arg)
  dots <- capture_dots(..., .cols = c("id", "arg", "value"))
  if (isTRUE(dots$restrict)) {
    # the grid a mechanism releases on must be public: restricting it to the range every curve
    # covers would publish the observation times
    dpfda_abort(paste("`restrict = TRUE` would choose the released grid from the data (the range that every",
                      "curve covers) and so publish observation times. Give a public `grid` that the data",
                      "cover, or call as_curves(x, ..., restrict = TRUE) yourself and treat the grid it",
                      "keeps as published."), class = "dpfda_error_privacy", arg = "restrict")
  }
  if ((inherits(x, "dpfda_curves") || inherits(x, "dpfda_release")) && !is.null(dots$grid)) {
    dpfda_abort(paste("`grid` is for data that are not curves yet (a matrix, a data frame, fd or tfd);",
                      "`x` already has its grid (subset it with x[, j], or rebuild it with curves())."),
                arg = "grid")
  }
  if (!inherits(x, "dpfda_curves")) {
    if (inherits(x, "dpfda_release")) x <- x$values else x <- do.call(as_curves, c(list(x), dots))
  }
  check_curves_data(x, .arg)
}

# Deep check of a dpfda_curves object with classed errors that say what is
# wrong and where; returns the object (values as a double matrix).
check_curves_data <- function(x, arg = "x") {
  v <- x$values
  if (!is.numeric(v) || !is.matrix(v) || length(v) == 0L) {
    dpfda_abort(sprintf("`%s$values` must be a non-empty numeric matrix (one curve per row), not %s.",
                        arg, describe_value(v)), class = data_error_class, arg = arg)
  }
  bad <- !is.finite(v)
  if (any(bad)) {
    rows <- which(rowSums(bad) > 0)
    ids <- if (!is.null(x$ids) && length(x$ids) == nrow(v)) as.character(x$ids[rows]) else as.character(rows)
    kinds <- c(if (anyNA(v[bad])) "NA/NaN", if (any(is.infinite(v[bad]))) "Inf")
    # (missing observations of a matrix: as_curves(na.rm = TRUE) interpolates each curve from the others)
    na_hint <- if (anyNA(v[bad])) paste(" For missing observations of a matrix, give na.rm = TRUE: each curve is",
                                        "interpolated from its observed points, and with incomplete = \"drop\" the",
                                        "curves that do not cover the grid are left out; incomplete = \"drop\"",
                                        "alone leaves out every curve with a missing value.") else ""
    dpfda_abort(sprintf(paste("`%s` holds %d non-finite value%s (%s) in %d curve%s (%s%s); a release needs",
                              "finite data. Remove or repair those curves, e.g. x[-c(%s), ] drops them.%s"),
                        arg, sum(bad), if (sum(bad) == 1L) "" else "s", paste(kinds, collapse = ", "),
                        length(rows), if (length(rows) == 1L) "" else "s",
                        paste(utils::head(ids, 5L), collapse = ", "), if (length(rows) > 5L) ", ..." else "",
                        paste(utils::head(rows, 5L), collapse = ", "), na_hint),
                class = data_error_class, arg = arg, rows = rows)
  }
  g <- x$grid
  gm <- if (is.null(dim(g))) length(g) else nrow(g)
  if (!is.numeric(g) || gm == 0L || !all(is.finite(g)) || (!is.null(dim(g)) && length(dim(g)) != 2L)) {
    dpfda_abort(sprintf("`%s$grid` must be a numeric vector or matrix of finite points, not %s.",
                        arg, describe_value(g)), class = data_error_class, arg = arg)
  }
  if (gm != ncol(v)) {
    dpfda_abort(sprintf("`%s` is inconsistent: its grid has %d points but its values have %d columns.",
                        arg, gm, ncol(v)), class = data_error_class, arg = arg)
  }
  d <- if (is.null(dim(g))) 1L else ncol(g)
  if (!identical(as.integer(x$dim), d)) {
    dpfda_abort(sprintf("`%s` is inconsistent: `dim` is %s but the grid has %d dimension%s.", arg,
                        describe_value(x$dim), d, if (d == 1L) "" else "s"),
                class = data_error_class, arg = arg)
  }
  if (d == 1L) {
    if (is.unsorted(g, strictly = TRUE)) {
      dpfda_abort(sprintf("`%s$grid` must be strictly increasing (sorted, no duplicates); rebuild with curves().",
                          arg), class = data_error_class, arg = arg)
    }
    dom <- x$domain
    if (!is.numeric(dom) || length(dom) != 2L || !all(is.finite(dom)) || dom[1] > g[1] || dom[2] < g[gm]) {
      dpfda_abort(sprintf("`%s$domain` must be finite c(lower, upper) containing the grid [%s, %s].", arg,
                          format(g[1]), format(g[gm])), class = data_error_class, arg = arg)
    }
  } else {
    if (anyDuplicated(g)) {
      dpfda_abort(sprintf("`%s$grid` has duplicated points; rebuild with curves().", arg),
                  class = data_error_class, arg = arg)
    }
    dom <- x$domain
    rng <- apply(g, 2L, range)
    if (!is.numeric(dom) || !identical(dim(dom), c(2L, d)) || !all(is.finite(dom)) ||
        any(dom[1, ] > rng[1, ]) || any(dom[2, ] < rng[2, ])) {
      dpfda_abort(sprintf("`%s$domain` must be a finite 2 x %d matrix containing the grid.", arg, d),
                  class = data_error_class, arg = arg)
    }
  }
  if (!is.double(v)) storage.mode(x$values) <- "double"
  x
}

# Points: the checks of as_points() with messages that count what is wrong
# (data-frame columns that are not numeric, non-finite values and where).
points_problem <- function(x, arg) {
  cls <- if (arg %in% c("x", "data")) data_error_class else "dpfda_error_argument"
  if (is.data.frame(x)) {
    num <- vapply(x, is.numeric, NA)
    if (!all(num)) {
      fix <- if (any(num)) sprintf("select the columns to use, e.g. %s[c(\"%s\")]", arg,
                                   paste(names(x)[num], collapse = "\", \"")) else
        if (any(vapply(x, is.factor, NA))) {
          paste("convert them first if they hold numbers: as.numeric(as.character(f)) for a factor f (as.numeric()",
                "alone gives its level codes), as.numeric() for text")
        } else "convert them first, e.g. with as.numeric(), if they hold numbers stored as text"
      dpfda_abort(sprintf("`%s` must have numeric columns only; column%s %s %s not numeric (%s).",
                          arg, if (sum(!num) == 1L) "" else "s", paste0("`", names(x)[!num], "`", collapse = ", "),
                          if (sum(!num) == 1L) "is" else "are", fix),
                  class = cls, arg = arg)
    }
    x <- as.matrix(x)
  }
  if (is.numeric(x) && length(x) && !all(is.finite(x))) {
    bad <- !is.finite(x)
    where <- if (is.null(dim(x)) || length(dim(x)) != 2L) {
      sprintf(" at position%s %s", if (sum(bad) == 1L) "" else "s", paste(utils::head(which(bad), 5L), collapse = ", "))
    } else {
      r <- which(rowSums(bad) > 0)
      sprintf(" in row%s %s", if (length(r) == 1L) "" else "s", paste(utils::head(r, 5L), collapse = ", "))
    }
    dpfda_abort(sprintf("`%s` holds %d non-finite value%s (NA, NaN or Inf)%s%s; remove %s first (e.g. with stats::complete.cases()).",
                        arg, sum(bad), if (sum(bad) == 1L) "" else "s", where,
                        if (sum(bad) > 5L) ", ..." else "", if (arg %in% c("x", "data")) "those records" else "them"),
                class = cls, arg = arg)
  }
  invisible(NULL)
}

# ---- missing arguments ------------------------------------------------------

# How to choose each required argument (the advice of a missing-argument error).
arg_advice <- c(
  x = "the private data",
  y = "the private responses, one per row of `x`",
  f = "the private function: an R function, its values on the grid, or a curves object",
  epsilon = "the privacy budget of this release; epsilon = 1 is a common choice (smaller is more private)",
  delta = "a small public delta, e.g. delta = 1e-5 (well below 1/n)",
  tau = paste("a public bound on the size of one curve, chosen without looking at the data (e.g. from the",
              "measurement range, after subtracting a public `center`); curves are clipped to it"),
  kernel = "a kernel object, e.g. kernel_gaussian(0.1 * width of the domain) or kernel_matern(3/2, ...)",
  grid = "public evaluation points chosen without looking at the data, e.g. seq(lower, upper, length.out = 101)",
  newdata = "the public points at which to evaluate (or release) the function, e.g. seq(lower, upper, length.out = 50)",
  bandwidth = "a public value (e.g. 0.1 * width of the domain) or one released by dp_bandwidth()",
  sensitivity = "the public sensitivity of the target (see sensitivity_kde() and friends)",
  noise_variance = "the public observation noise variance of the GP model",
  y_bound = "public bounds c(lower, upper) on the responses (they are clipped to them)",
  lambda = "the public regularisation parameter, e.g. 1 / n",
  psi = "the public regularisation parameter, e.g. 1 / n",
  bins = "the public number of bins per dimension, e.g. 20",
  domain = "public bounds of the data, e.g. c(lower, upper)",
  inducing = "public inducing points (or their number)",
  candidates = "the public candidate values to select from",
  k = "the Bernstein lattice size, e.g. k = 20",
  age = "the name of the age column (or a numeric vector of ages)",
  deaths = "the name of the deaths column (or a numeric vector of death counts)",
  release = "a dp_kme() release",
  budget = "a privacy_budget() object",
  object = "an online session from dp_online()",
  file = "the path of a CSV file with a header line",
  source = "a list of data frames, or a function returning the next data frame (NULL at the end)",
  epsilon_select = "the budget of the selection, spent on top of epsilon (e.g. epsilon_select = 0.5)",
  mechanism = "a function of one data set returning a release, e.g. function(d) dp_mean(d, epsilon = 1, tau = 1)",
  data = "the data set to audit, one that `mechanism` accepts",
  neighbour = "its neighbouring data set (the same with one individual changed), e.g. the worst case",
  start = "public start points, an M x dim matrix (one reduced-set point per row)",
  rff = "random Fourier features from kme_rff()",
  target = "the target embedding's feature vector (length of the features), e.g. kme_features(rff, x)"
)

# The advice for `arg`: the caller's, else the table's, else NULL.
advice_for <- function(arg, advice = NULL) {
  if (!is.null(advice)) advice else if (arg %in% names(arg_advice)) arg_advice[[arg]] else NULL
}

require_arg_error <- function(arg, fun = NULL, advice = NULL) {
  advice <- advice_for(arg, advice)
  dpfda_abort(sprintf("`%s` is missing%s%s", arg, if (is.null(fun)) "" else sprintf(" in %s()", fun),
                      if (!is.null(advice)) sprintf(": give %s.", advice)
                      else if (!is.null(fun)) sprintf("; see ?%s for what it is.", fun) else "."),
              class = "dpfda_error_argument", arg = arg)
}

# Several required arguments missing at once: all named in one error (one at a time costs a user a
# call per argument), each with its advice; `arg` is the first.
require_args_error <- function(args, fun = NULL, advice = list()) {
  adv <- lapply(args, function(a) advice_for(a, advice[[a]]))
  has <- !vapply(adv, is.null, NA)
  give <- sprintf("`%s`, %s", args[has], unlist(adv[has]))
  # (the arguments without advice are named once, with the help page that says what they are)
  rest <- if (any(!has)) sprintf("%s%s", paste0("`", args[!has], "`", collapse = ", "),
                                 if (is.null(fun)) "" else sprintf(" (see ?%s)", fun))
  dpfda_abort(sprintf("%s are missing%s: give %s.", paste0("`", args, "`", collapse = ", "),
                      if (is.null(fun)) "" else sprintf(" in %s()", fun), paste(c(give, rest), collapse = "; ")),
              class = "dpfda_error_argument", arg = args[[1L]])
}

# Why delta = 0 is refused by a release with Gaussian noise (check_delta(zero = )): `what` names
# it, `pure` (optional) the pure-DP alternative.
gaussian_delta_zero <- function(what, pure = NULL) {
  sprintf("%s adds Gaussian noise, which is (epsilon, delta)-DP only with delta > 0: give a small delta, e.g. 1e-5 (well below 1/n)%s",
          what, if (is.null(pure)) "" else paste(", or use", pure, "for pure DP"))
}

delta_advice <- function(mechanism, pure = "iclp") {
  sprintf("delta = 1e-5 (well below 1/n): mechanism \"%s\" is (epsilon, delta)-DP; or use mechanism = \"%s\" for pure DP",
          mechanism, pure)
}

# ---- privacy warnings ------------------------------------------------------

# Warn about settings that give little protection. Only public quantities.
warn_privacy <- function(epsilon, delta = 0, n = NULL) {
  if (isFALSE(getOption("dpfda.privacy_warnings", TRUE))) return(invisible(NULL))
  if (is.numeric(epsilon) && length(epsilon) == 1L && isTRUE(epsilon > 10)) {
    dpfda_warn(sprintf(paste("epsilon = %s is above 10: the privacy guarantee is then very weak",
                             "(outputs may be e^%s times more likely under one data set than a neighbour);",
                             "epsilon between 0.1 and 2 is usual."),
                       format(epsilon, digits = 4), format(epsilon, digits = 4)),
               "dpfda_warning_epsilon")
  }
  # (a delta of 1 or more is refused by the mechanism's own check: no warning before that error)
  if (!is.null(n) && is.numeric(delta) && length(delta) == 1L && isTRUE(delta > 0 && delta < 1) && isTRUE(n >= 1) &&
      isTRUE(delta >= 1 / n)) {
    dpfda_warn(sprintf(paste("delta = %s is at least 1/n = %s: a mechanism that publishes one record outright",
                             "meets such a delta; use delta well below 1/n, e.g. %s."),
                       format(delta, digits = 4), format(1 / n, digits = 4),
                       format(min(1e-5, 0.01 / n), digits = 2)),
               "dpfda_warning_delta")
  }
  invisible(NULL)
}

# Evaluate `expr` without the privacy warnings (for a mechanism that calls
# another exported mechanism and has already warned).
quiet_privacy <- function(expr) {
  withCallingHandlers(expr, dpfda_warning_epsilon = function(w) invokeRestart("muffleWarning"),
                      dpfda_warning_delta = function(w) invokeRestart("muffleWarning"))
}

# ---- mechanism names --------------------------------------------------------

#' Mechanism names
#'
#' One vocabulary of mechanism names is used by every function that takes a
#' `mechanism` argument ([dp_mean()], [dp_kde()], [pss_params()],
#' [pcv_select()], [sensitivity_kde()]). Each function accepts the subset it
#' implements; older or alternative spellings are kept as aliases.
#'
#' | name | noise | privacy | aliases |
#' |---|---|---|---|
#' | `"gp"` | Gaussian process (Hall et al.) | (epsilon, delta) | `"gaussian"` |
#' | `"sobolev"` | GP with a Sobolev-norm sensitivity | (epsilon, delta) | |
#' | `"bernstein"` | Laplace on a Bernstein lattice | pure (or Gaussian with `delta`) | |
#' | `"iclp_qr"` | ICLP with spectral shrinkage (Lin and Reimherr) | pure | `"iclp"`, `"qr"`, `"iclp-qr"` |
#' | `"iclp_ar"` | ICLP with soft thresholding | pure | `"ar"`, `"iclp-ar"` |
#' | `"frl"` | Laplace on the first `M` coefficients (Gaussian: `frl_noise = "gaussian"`) | pure (or (epsilon, delta)) | `"laplace"` |
#'
#' [dp_kde()] stores its ICLP release as `"kde-iclp"` (its `"iclp"` is
#' `"iclp_qr"`); [dp_mean()] stores `"iclp_qr"`.
#'
#' @name dp_mechanisms
#' @examples
#' t <- seq(0, 1, length.out = 51)
#' x <- curves(outer(runif(100, 0.5, 1), sin(2 * pi * t)), t)
#' dp_mean(x, epsilon = 1, tau = 1, mechanism = "iclp")$mechanism   # "iclp_qr"
NULL

mechanism_aliases <- c(iclp = "iclp_qr", qr = "iclp_qr", "iclp-qr" = "iclp_qr", ar = "iclp_ar",
                       "iclp-ar" = "iclp_ar", gaussian = "gp", laplace = "frl")

# Normalise a mechanism name to the shared vocabulary and check that this
# function implements it. `choices` are canonical names; `local` maps a
# canonical name to the function's internal spelling (e.g. dp_kde's "iclp").
check_mechanism <- function(mechanism, choices, fun, local = NULL) {
  norm <- function(m) ifelse(m %in% names(mechanism_aliases), mechanism_aliases[m], m)
  # the formal default (the whole vector of choices) means its first element
  if (is.character(mechanism) && length(mechanism) > 1L && !anyNA(mechanism) &&
      setequal(norm(tolower(mechanism)), choices)) mechanism <- mechanism[1L]
  if (!is.character(mechanism) || length(mechanism) != 1L || is.na(mechanism)) {
    arg_error("mechanism", sprintf("one of %s", paste0("\"", choices, "\"", collapse = ", ")), mechanism)
  }
  m <- tolower(mechanism)
  if (m %in% names(mechanism_aliases)) m <- mechanism_aliases[[m]]
  if (!(m %in% choices)) {
    al <- mechanism_aliases[mechanism_aliases %in% choices]
    dpfda_abort(sprintf("`mechanism` \"%s\" is not available in %s(); use one of %s%s (see ?dp_mechanisms).",
                        mechanism, fun, paste0("\"", choices, "\"", collapse = ", "),
                        if (length(al)) sprintf(", or an alias (%s)",
                                                paste0("\"", names(al), "\" = \"", al, "\"", collapse = ", ")) else ""),
                class = "dpfda_error_argument", arg = "mechanism")
  }
  if (!is.null(local) && m %in% names(local)) m <- local[[m]]
  m
}

# ---- defaults relative to the domain ----------------------------------------

# Width of a domain (1-D: upper - lower; d-D: the largest side).
domain_width <- function(domain) {
  w <- if (is.matrix(domain)) max(domain[2, ] - domain[1, ]) else domain[2] - domain[1]
  if (!is.finite(w) || w <= 0) 1 else w
}

# The default Matern 3/2 kernel with lengthscale 0.1 x the domain's width
# (on [0, 1] this is the former absolute default 0.1).
default_mech_kernel <- function(domain) kernel_matern(3 / 2, 0.1 * domain_width(domain))

# ---- centring ---------------------------------------------------------------

# Values of a public centre on the grid: NULL, a number, a function of the
# grid, a vector with one value per grid point, or a one-curve curves object
# on the same grid.
center_values <- function(center, grid) {
  if (is.null(center)) return(NULL)
  m <- grid_size(grid)
  v <- if (is.function(center)) {
    tryCatch(center(grid), error = function(e) {
      dpfda_abort(sprintf("`center` failed on the grid: %s", conditionMessage(e)), arg = "center")
    })
  } else if (inherits(center, "dpfda_release")) {
    center_values(center$values, grid)
  } else if (inherits(center, "dpfda_curves")) {
    if (nrow(center$values) != 1L || ncol(center$values) != m ||
        !isTRUE(all.equal(as.vector(center$grid), as.vector(grid)))) {
      dpfda_abort("`center` given as curves must be one curve on the grid of `x`.", arg = "center")
    }
    center$values[1L, ]
  } else center
  if (is.numeric(v) && length(v) == 1L) v <- rep(v, m)
  if (is.numeric(v) && length(v) == m && !all(is.finite(v))) {
    dpfda_abort(sprintf("`center` must be finite on the grid; it is %s at %d of the %d grid points.",
                        paste(unique(format(v[!is.finite(v)])), collapse = "/"), sum(!is.finite(v)), m),
                arg = "center")
  }
  if (!is.numeric(v) || length(v) != m) {
    arg_error("center", sprintf("a public function, number, or %d finite values (one per grid point)", m), v)
  }
  as.double(v)
}

# ---- column names: strings or bare names -----------------------------------
#
# The rule (tidyselect's): a bare name that is a column of the data means that
# column; anything else (a string, a variable holding column names, c("a",
# "b"), paste0(...)) is evaluated as usual and must give column names. So
# `as_curves(d, arg = age)` and `as_curves(d, arg = "age")` are the same, and
# `col <- "age"; as_curves(d, arg = col)` works unless `d` has a column named
# `col`. c() of bare names (`columns = c(eruptions, waiting)`) names several.
# The function the user calls captures the argument's expression with
# substitute() and its value by forcing the promise (which evaluates it where
# the user wrote it, also through `...`); the data's names decide later, in
# column_names(). For data whose names are unknown before reading (dp_chunks),
# a bare name is the column of that name unless it is a variable that holds
# column names.

# A column argument: its value when the expression is not a bare name (or c()
# of bare names and strings), otherwise a reference that keeps both.
column_arg <- function(expr, value, arg) {
  if (inherits(value, "dpfda_column_ref")) return(value)   # passed on by dpfda itself
  if (is.null(column_expr_names(expr))) {
    if (inherits(value, "error")) {
      dpfda_abort(sprintf("`%s` could not be evaluated (%s); give column names as strings or bare names.", arg,
                          conditionMessage(value)), arg = arg)
    }
    return(value)
  }
  structure(list(expr = expr, value = value), class = "dpfda_column_ref")
}

# The `unit =` argument (the privacy unit): a column argument, except that a
# variable holding NULL is NULL (no unit), as in a function that passes its
# own `unit` on.
unit_arg <- function(expr, value, arg = "unit") {
  out <- column_arg(expr, value, arg)
  if (inherits(out, "dpfda_column_ref")) return(if (is.null(out$value)) NULL else out)
  if (length(out) > 1L) out <- with_unit_label(out, expr)   # a vector written as an expression (`d$id[ok]`)
  out
}

# Units given as a vector (`u`, from the expression `expr`), named for the
# print by where they came from, unless they have a name already.
with_unit_label <- function(u, expr) {
  if (is.null(dim(u)) && (is.atomic(u) || is.factor(u)) && is.null(attr(u, "name", exact = TRUE)) &&
      !is.null(lab <- unit_label(expr))) {
    attr(u, "name") <- lab
  }
  u
}

# The name of the variable or column a privacy unit given as a vector comes
# from, for the print ("privacy unit: id (142 units, ...)"): `ids` -> "ids",
# `d$id[ok]` -> "id", `d[["id"]]` -> "id", `d[ok, "id"]` -> "id", `factor(id)` -> "id"; NULL for
# anything else (the print then says "unit").
unit_label <- function(expr) {
  repeat {
    if (is.symbol(expr)) return(if (nzchar(as.character(expr))) as.character(expr))
    if (!is.call(expr)) return(NULL)
    f <- expr[[1L]]
    # (a conversion keeps the units, and their name: factor(id), as.character(d$id))
    if (is.symbol(f) && as.character(f) %in% c("factor", "as.factor", "as.character", "as.integer", "as.numeric",
                                                "as.vector") && length(expr) >= 2L) {
      expr <- expr[[2L]]
      next
    }
    if ((identical(f, as.name("$")) || identical(f, as.name("[["))) && length(expr) == 3L) {
      k <- expr[[3L]]
      return(if (is.symbol(k) || (is.character(k) && length(k) == 1L)) as.character(k))
    }
    if (!identical(f, as.name("[")) || length(expr) < 3L) return(NULL)
    if (length(expr) == 4L) {   # d[rows, "id"]: the column
      k <- expr[[4L]]
      return(if (is.character(k) && length(k) == 1L) k)
    }
    expr <- expr[[2L]]   # x[ok]: x
  }
}

# The names in a bare name or in c() of bare names and strings; NULL otherwise.
column_expr_names <- function(expr) {
  if (is.symbol(expr)) return(if (nzchar(as.character(expr))) as.character(expr) else NULL)
  if (is.call(expr) && identical(expr[[1L]], as.name("c")) && length(expr) > 1L) {
    parts <- as.list(expr)[-1L]
    ok <- vapply(parts, function(p) is.symbol(p) || (is.character(p) && length(p) == 1L), NA)
    if (all(ok) && any(vapply(parts, is.symbol, NA))) return(vapply(parts, as.character, ""))
  }
  NULL
}

# Curves for a mechanism whose `...` holds only as_curves() options, captured
# by capture_dots() (column names as strings or bare names); `fun` names the
# mechanism in the error for anything else.
mech_curves_with_options <- function(x, grid, conv, fun, incomplete = "error") {
  nms <- names(conv) %||% rep("", length(conv))
  bad <- nms[!nms %in% as_curves_options]
  if (length(bad)) {
    if (!nzchar(bad[1L])) abort_unnamed_dots()
    dpfda_abort(sprintf("`%s` is not an argument of %s() or an option of as_curves()%s; see ?%s.",
                        bad[1L], fun, did_you_mean(bad[1L], c(option_names(fun), as_curves_options)), fun),
                arg = bad[1L])
  }
  if (is.data.frame(x)) conv <- resolve_column_opts(conv, x, c("id", "arg", "value"))
  if (long_frame_on_grid(x, conv, grid)) {   # long data: the rule of tables (see mean_source())
    x <- frame_snap_curves(x, sort(as_grid(grid, "grid")), conv$id %||% "id", conv$arg %||% "arg",
                           conv$value %||% "value", incomplete = incomplete, drop_hint = identical(fun, "dp_cov"))
    return(check_curves_data(x))
  }
  curves_in <- inherits(x, "dpfda_curves") || inherits(x, "dpfda_release")
  tryCatch(do.call(as_mech_curves, c(list(x, grid = grid), conv,
                                     if (!curves_in && incomplete == "drop") list(incomplete = "drop"))),
           dpfda_error_data = function(e) abort_long_frame_grid(e, x, conv, fun))
}

# The column argument `name` (a string or a bare name) of the function whose
# frame is `env`, as column names checked against the columns of `x` (for
# chunks, not known yet: see column_names()). For the exported summarise_*()
# functions, whose internal versions take names only.
column_arg_names <- function(name, x, n = 1L, env = parent.frame()) {
  expr <- eval(call("substitute", as.name(name)), env)
  spec <- column_arg(expr, tryCatch(get(name, envir = env), error = function(e) e), name)
  column_names(spec, engine_names_or(x), name, n = n)
}

# delta = 0 given to a pure-DP release that has no `delta` argument (dp_cov(), dp_fpca(),
# pcv_select()): what it gives anyway, so dropped from the options; any other delta is refused
# with the reason, where it would be "not an argument".
pure_dp_delta <- function(opts, fn) {
  if (!"delta" %in% names(opts)) return(opts)
  d <- opts$delta
  if (is.numeric(d) && length(d) == 1L && isTRUE(d == 0)) {
    opts$delta <- NULL
    return(opts)
  }
  dpfda_abort(sprintf("`delta` is not used by %s, which is pure epsilon-DP (delta = 0): leave it out, or give delta = 0.",
                      fn), class = c("dpfda_error_argument", "dpfda_error_privacy"), arg = "delta")
}

# `...` as a named list in which the column arguments `cols` are kept as
# column_arg()s (other arguments are evaluated as list(...) would). An
# argument that cannot be evaluated is most often a column named under a
# wrong or misspelt name (`colums = waiting`, `y = uptake`): a classed error
# that says so, instead of R's bare "object 'waiting' not found".
capture_dots <- function(..., .cols = character()) {
  ex <- as.list(substitute(list(...)))[-1L]
  nms <- names(ex)
  out <- vector("list", length(ex))
  for (i in seq_along(ex)) {
    out[i] <- list(if (!is.null(nms) && nms[i] %in% .cols) {
      column_arg(ex[[i]], tryCatch(...elt(i), error = function(e) e), nms[i])
    } else tryCatch(...elt(i), error = function(e) {
      if (inherits(e, "dpfda_error")) stop(e)   # (an error of dpfda's own, from the argument's call: as it is)
      abort_dot_evaluation(nms[i], ex[[i]], e, .cols)
    }))
  }
  names(out) <- nms
  out
}

abort_dot_evaluation <- function(name, expr, err, cols) {
  name <- if (is.null(name) || is.na(name)) "" else name
  shown <- paste(deparse(expr, width.cutoff = 60L)[1L], collapse = "")
  what <- if (nzchar(name)) sprintf("`%s = %s`", name, shown) else sprintf("`%s`", shown)
  near <- if (nzchar(name)) closest_name(name, cols) else NULL
  hint <- if (!is.null(near)) {
    sprintf(" Did you mean `%s = %s`?", near, shown)
  } else if (length(cols) && is.symbol(expr)) {
    sprintf(" If `%s` is a column of the data, give it as %s (a string or a bare name).", shown,
            paste0("`", cols, " = `", collapse = " or "))
  } else ""
  dpfda_abort(sprintf("%s could not be evaluated: %s.%s", what, conditionMessage(err), hint),
              arg = if (nzchar(name)) name else "...")
}

# The unit's column must not be one of the point columns: a point's coordinate is not a person
# (dp_bandwidth() lost the column and stopped with "undefined columns selected", found by tools/fuzz.R).
check_unit_column <- function(ucol, columns) {
  if (!is.null(ucol) && ucol %in% columns) {
    dpfda_abort(sprintf(paste("`unit` (\"%s\") is also one of the point columns (`columns`); the privacy unit",
                              "must be a column of its own, e.g. a person id."), ucol), arg = "unit")
  }
  invisible(ucol)
}

# Column names from a column argument (NULL gives `default`), checked against
# the data's names `have` (NULL: not known yet); `n` names expected (NULL: any
# number, at least one).
column_names <- function(spec, have, arg, n = 1L, default = NULL, what = "`x`") {
  if (is.null(spec)) return(default)
  if (inherits(spec, "dpfda_column_ref")) {
    nm <- column_expr_names(spec$expr)
    syms <- if (is.symbol(spec$expr)) TRUE else vapply(as.list(spec$expr)[-1L], is.symbol, NA)
    val <- spec$value
    if (if (is.null(have)) !is.character(val) else all(nm[syms] %in% have)) {
      spec <- nm
    } else if (is.character(val)) {
      spec <- val
    } else {
      missing_column_error(nm[syms][!nm[syms] %in% have][1L] %||% nm[1L], have, arg, what)
    }
  }
  if (!is.character(spec) || !length(spec) || anyNA(spec) || (!is.null(n) && length(spec) != n)) {
    arg_error(arg, if (identical(n, 1L)) "a column name (a string or a bare name)"
              else "column names (strings, bare names or c() of them)", spec)
  }
  if (!is.null(have)) for (s in spec) if (!s %in% have) missing_column_error(s, have, arg, what)
  spec
}

missing_column_error <- function(name, have, arg, what = "`x`") {
  dpfda_abort(sprintf("`%s` names a column \"%s\" that %s does not have; its columns are %s.", arg, name, what,
                      paste0("\"", utils::head(have, 20L), "\"", collapse = ", ")), arg = arg)
}

# Column arguments of `opts` (from capture_dots()) resolved to strings
# against the columns of `x` (a data frame, lazy table, or chunks: unknown).
resolve_column_opts <- function(opts, x, cols = names(opts), n = list()) {
  have <- if (is.data.frame(x) || is_lazy_table(x)) engine_names(x) else NULL
  for (nm in intersect(cols, names(opts))) {
    if (!is.null(opts[[nm]])) {
      opts[nm] <- list(column_names(opts[[nm]], have, nm, n = if (nm %in% names(n)) n[[nm]] else 1L))
    }
  }
  opts
}

# The records (rows of the inputs `x` with their outputs `y`) in a canonical order: sorted by the
# inputs, then the output. Mechanisms whose iterative solvers visit the records in turn (the
# cloaking program of dp_gp_regression(), the SVM's coordinate steps) otherwise gave releases that
# moved by about 1e-7 when the same individuals came in another order. Returns the order.
# (Without `y`: the rows of `x` alone, as k-means' public points.)
canonical_rows <- function(x, y = NULL) do.call(order, c(unname(as.data.frame(x)), if (!is.null(y)) list(y),
                                                          list(method = "radix")))

# The point columns of a data frame, table or chunks (`have`: their names) for a grid whose axes
# are named (`grid = list(duration = ..., waiting = ...)`): without `columns` the named columns, in
# the grid's order; with `columns` they must agree. The columns were taken in the data's order
# whatever the names: `MASS::geyser` (waiting, duration) against a grid of (duration, waiting)
# clamped every point into the wrong domain without a word.
columns_for_named_grid <- function(grid, have, columns) {
  columns_for_named_axes(if (is.list(grid)) names(grid), have, columns, "grid", "names its axes")
}

# A density's point columns from every named input: the grid's axes, the domain's column names and
# a named bandwidth vector each choose them (when nothing did before) or must agree.
columns_for_named_kde <- function(grid, domain, bandwidth, have, columns) {
  # (which input chose the columns, for a message about a later one that disagrees: the user may
  # have given no `columns`)
  named <- function(nm) !is.null(nm) && all(nzchar(nm)) && !is.null(have)
  from <- if (!is.null(columns)) "`columns`" else if (is.list(grid) && named(names(grid))) "`grid` (its axes)"
  columns <- columns_for_named_grid(grid, have, columns)
  if (is.matrix(domain)) {
    columns <- columns_for_named_axes(colnames(domain), have, columns, "domain", "names its columns", from)
    if (is.null(from) && named(colnames(domain))) from <- "`domain` (its columns)"
  }
  if (is.numeric(bandwidth) && is.null(dim(bandwidth)) && length(bandwidth) > 1L) {
    columns <- columns_for_named_axes(names(bandwidth), have, columns, "bandwidth", "names its entries", from)
  }
  columns
}

# The inputs `x` of a regression released on `grid` (dp_svm(), dp_krr()): a
# data frame takes the columns that a named grid names, in its order.
grid_named_columns <- function(x, grid) {
  # (a matrix of points whose column names are columns of `x` names them too: it was read by position,
  # and a grid of (Wind, Temp) was fit as (Temp, Wind))
  nm <- if (is.list(grid)) names(grid) else if (is.matrix(grid) && is.data.frame(x) && length(colnames(grid)) &&
                                                 all(colnames(grid) %in% names(x))) colnames(grid)
  frame_named_columns(x, nm, "grid", "names its axes")
}

# The axes of a named grid (a list of axes, or a data frame / matrix of points with column names)
# put in the order of a formula's predictors `pv` (dp_svm(), dp_krr()): the kernel's per-axis
# lengthscales and predict() follow the formula. The grid was read by position: the axes of
# list(rm = , lstat = ) for medv ~ lstat + rm were fit as (lstat, rm), a release of another function.
grid_in_predictor_order <- function(grid, pv) {
  nm <- if (is.list(grid) || is.matrix(grid)) colnames(grid) %||% names(grid)
  if (is.null(nm) || length(pv) < 2L || identical(nm, pv) || !all(nzchar(nm))) return(grid)
  # (names that are not the predictors, e.g. list(g, g) named after a variable: read by position)
  if (length(nm) != length(pv) || !setequal(nm, pv) || anyDuplicated(nm)) return(grid)
  if (is.matrix(grid)) grid[, pv, drop = FALSE] else grid[pv]
}

# The points to predict at as the training points are: a data frame `newdata`
# of dp_gp_regression() and dp_sparse_gp_regression() takes the columns of a
# data frame `x`, in x's order (the kernel's lengthscales follow x's columns),
# as a formula's `newdata` does; they were matched by position.
newdata_in_x_order <- function(newdata, x) {
  # (a matrix whose column names are x's columns: taken by name too; it was read by position)
  if (is.data.frame(x) && is.matrix(newdata) && ncol(newdata) == ncol(x) && setequal(colnames(newdata), names(x)) &&
      !anyDuplicated(colnames(newdata))) {
    return(newdata[, names(x), drop = FALSE])
  }
  if (!is.data.frame(x) || !is.data.frame(newdata) || identical(names(x), names(newdata))) return(newdata)
  miss <- setdiff(names(x), names(newdata))
  if (length(miss)) {
    dpfda_abort(sprintf("`newdata` must have the columns of `x` (%s); it has no column \"%s\" (its columns: %s).",
                        paste0("\"", names(x), "\"", collapse = ", "), miss[1L],
                        paste0("\"", utils::head(names(newdata), 10L), "\"", collapse = ", ")), arg = "newdata")
  }
  newdata[names(x)]
}

# A data frame `x` narrowed to the columns `nm` that another argument names
# (`arg`: a grid's axes, a domain's column names), in that order; anything
# else as it is.
frame_named_columns <- function(x, nm, arg, says) {
  if (!is.data.frame(x)) return(x)
  cols <- columns_for_named_axes(nm, names(x), NULL, arg, says)
  if (is.null(cols)) x else as.data.frame(x)[cols]
}

# The same for points whose columns are named (dp_kme()'s `synthetic`).
columns_for_named_points <- function(pts, have, columns, arg) {
  columns_for_named_axes(point_column_names(pts), have, columns, arg, "names its columns")
}

# The column names of points given as a data frame or a matrix, else NULL.
point_column_names <- function(pts) if (is.data.frame(pts)) names(pts) else if (is.matrix(pts)) colnames(pts)

columns_for_named_axes <- function(nm, have, columns, arg, says, from = "`columns`") {
  if (is.null(nm) || !all(nzchar(nm)) || is.null(have)) return(columns)
  if (is.null(columns)) {
    miss <- setdiff(nm, have)
    if (length(miss)) {
      dpfda_abort(sprintf(paste("`%s` %s %s, but `x` has no column \"%s\" (its columns: %s): use the names",
                                "of the columns of the points, or choose them with `columns`."),
                          arg, says, paste0("\"", nm, "\"", collapse = ", "), miss[1L],
                          paste0("\"", utils::head(have, 10L), "\"", collapse = ", ")), arg = arg)
    }
    return(nm)
  }
  if (!identical(as.character(columns), nm)) {
    from <- from %||% "`columns`"
    dpfda_abort(sprintf("`%s` %s %s but %s takes %s: they must agree, in the same order.", arg, says,
                        paste0("\"", nm, "\"", collapse = ", "), from, paste0("\"", columns, "\"", collapse = ", ")),
                arg = if (from == "`columns`") "columns" else arg)
  }
  columns
}

# Point data in memory: the `columns` of a data frame (NULL: all of `x`).
select_point_columns <- function(x, columns) {
  if (is.null(columns)) return(x)
  if (!is.data.frame(x)) {
    what <- if (is.matrix(x)) sprintf("a %d x %d matrix without column names", nrow(x), ncol(x)) else describe_value(x)
    dpfda_abort(sprintf(paste("`columns` selects columns of a data frame, a matrix with column names, a database",
                              "table or chunks; `x` is %s."), what), arg = "columns")
  }
  as.data.frame(x)[columns]
}

# A numeric matrix with column names (scale(), model.matrix()) whose `columns`
# are named is read as the data frame of its columns (bare names or strings).
named_matrix_frame <- function(x, columns) {
  if (is.null(columns) || !is.matrix(x) || !is.numeric(x) || is.null(colnames(x))) return(x)
  as.data.frame(x)
}

# Points in a data frame in memory follow the rule of the same rows as chunks
# or a table (frame_clean_points()): numeric columns, a data frame with rows,
# and a row with a missing or non-finite value (or a missing `unit` or count)
# refused, on every source alike (dropping it made the count of complete
# records public). Vectors and matrices keep as_points()'s rule (finite
# values only).
clean_point_frame <- function(x, unit = NULL, counts = NULL) {
  if (!is.data.frame(x)) return(list(x = x, unit = unit, counts = counts))
  d <- as.data.frame(x)
  cols <- names(d)
  # (a column of text: points_problem()'s message names the numeric columns to select)
  if (!all(vapply(d, function(v) is.numeric(v) || all(is.na(v)), NA))) points_problem(d, "x")
  u <- if (!is.null(unit) && length(unit) == nrow(d)) ".dpfda_unit"
  if (!is.null(u)) d[[u]] <- as.vector(unit)
  # (the counts of dp_kde() and a unit follow their rows)
  k <- if (is.numeric(counts) && is.null(dim(counts)) && length(counts) == nrow(d)) ".dpfda_counts"
  if (!is.null(k)) d[[k]] <- as.double(counts)
  # (a missing count is refused, as a missing point or unit, here as in a table or chunks)
  cl <- frame_clean_points(d, c(cols, k), u, counts_label = attr(counts, "column", exact = TRUE))
  list(x = cl$data[cols], unit = if (!is.null(u)) structure(cl$data[[u]], name = attr(unit, "name")) else unit,
       counts = if (!is.null(k)) cl$data[[k]] else counts)
}
