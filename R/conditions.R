# Classed conditions. Every error raised by dpfda inherits from
# `dpfda_error`, plus one specific subclass, so callers can catch precisely.

# `call` defaults to the exported function the user called (see user_call()),
# so every error and warning says which function it comes from ("Error in
# dp_mean() : ...") without the data of the call.
dpfda_abort <- function(message, class = "dpfda_error_argument", call = user_call(), ...) {
  cnd <- structure(
    class = c(class, "dpfda_error", "error", "condition"),
    list(message = message, call = call, ...)
  )
  stop(cnd)
}

# Every warning of the package inherits "dpfda_warning" (one handler catches them all; the
# subclasses, e.g. "dpfda_warning_utility", had it only where the caller listed it).
dpfda_warn <- function(message, class = "dpfda_warning", call = user_call()) {
  cnd <- structure(
    class = c(unique(c(class, "dpfda_warning")), "warning", "condition"),
    list(message = message, call = call)
  )
  if (hold_private_warning(cnd)) return(invisible(cnd))   # (until the budget is charged: R/release-driver.R)
  warning(cnd)
}

# The outermost frame on the stack that runs an exported dpfda function, as
# a call without arguments (`dp_mean()`): the function the user called, even
# when the error is raised several helpers deep or through another export
# (dp_fpca() -> dp_cov()). NULL outside such a frame.
user_call <- function() {
  ns <- topenv(environment(user_call))
  exports <- getNamespaceExports(ns)
  # the generics whose methods dpfda registers (predict(), confint(), plot(), ...): an error in a
  # method names the generic the user called
  # (R names a method's frame by the method, predict.dpfda_release(): mapped to its generic)
  s3 <- getNamespaceInfo(ns, "S3methods")
  s3 <- s3[startsWith(s3[, 2L], "dpfda_"), , drop = FALSE]
  generic_of <- stats::setNames(s3[, 1L], ifelse(is.na(s3[, 3L]), paste(s3[, 1L], s3[, 2L], sep = "."), s3[, 3L]))
  exports <- c(exports, unique(s3[, 1L]))
  for (i in seq_len(sys.nframe())) {
    if (!identical(environment(sys.function(i)), ns)) next
    head <- sys.call(i)[[1L]]
    name <- if (is.name(head)) as.character(head) else
      if (is.call(head) && as.character(head[[1L]])[1L] %in% c("::", ":::")) as.character(head[[3L]]) else NA
    if (is.function(head)) {   # do.call(dp_mean, ...): the function itself heads the call
      f <- sys.function(i)
      hit <- Filter(function(e) identical(get0(e, envir = ns), f), exports)   # (get0: tf generics are not visible)
      name <- if (length(hit)) hit[[1L]] else NA
    }
    if (!is.na(name) && name %in% names(generic_of)) name <- generic_of[[name]]
    if (!is.na(name) && name %in% exports) return(as.call(list(as.name(name))))
  }
  NULL
}

# The one check of required arguments: a classed error naming the first of
# `args` (default: every formal of the calling function without a default,
# in order) that the caller did not give, with advice on what to give
# (`advice`, else the package's advice for that argument name).
check_required <- function(args = NULL, advice = list()) {
  env <- parent.frame()
  fm <- formals(sys.function(sys.parent()))
  if (is.null(args)) {
    s <- vapply(fm, is.symbol, NA)
    args <- setdiff(names(fm)[s][!nzchar(as.character(fm[s]))], "...")
  }
  head <- sys.call(sys.parent())[[1L]]
  fname <- if (is.name(head)) as.character(head) else
    if (is.call(head) && as.character(head[[1L]])[1L] %in% c("::", ":::")) as.character(head[[3L]]) else NULL
  # a misspelt name in `...` (taw = 1 for tau) is the likelier cause of a missing argument: name it,
  # for any argument without a default (also those the function checks itself, as dp_kde()'s bandwidth)
  # (cheap when nothing is misspelt: the names in `...` first, then the missing arguments, then distances)
  given <- if ("..." %in% names(fm) && !is.null(fname)) names(dot_args(env)) else NULL
  given <- given[nzchar(given) & !given %in% names(fm)]
  if (length(given)) {
    nodefault <- setdiff(names(fm)[vapply(fm, function(v) is.symbol(v) && !nzchar(as.character(v)), NA)], "...")
    nodefault <- nodefault[vapply(nodefault, function(a) eval(call("missing", as.name(a)), env), NA)]
    for (g in given) {
      near <- closest_name(g, nodefault)
      if (!is.null(near)) abort_unknown_option(g, fname, names(fm))
    }
  }
  miss <- args[vapply(args, function(a) eval(call("missing", as.name(a)), env), NA)]
  if (length(miss) == 1L) require_arg_error(miss, fname, advice[[miss]])
  if (length(miss)) require_args_error(miss, fname, advice)
  invisible(TRUE)
}

# The `...` of the calling function as unevaluated expressions (their names
# are what a check needs; a misspelt `ages = age` must not be evaluated).
dot_args <- function(env = parent.frame()) as.list(eval(quote(substitute(list(...))), env))[-1L]

# The candidate a misspelt argument name most likely meant: the closest by
# edit distance, within 1 edit for names of 4 letters, 2 up to 8 and 3 beyond; NULL
# when none is that close (a suggestion far off misleads more than none).
closest_name <- function(name, candidates) {
  candidates <- setdiff(unique(candidates[nzchar(candidates)]), c("...", name))
  if (!length(candidates)) return(NULL)
  d <- drop(utils::adist(tolower(name), tolower(candidates)))
  # a prefix typo (eps for epsilon) counts as close
  d[startsWith(candidates, name) & nchar(name) >= 3L] <- 0
  # ties: the candidate of the nearest length (centre: center, not centered)
  best <- order(d, abs(nchar(candidates) - nchar(name)))[1L]
  if (d[best] <= if (nchar(name) <= 4L) 1L else if (nchar(name) <= 8L) 2L else 3L) candidates[best] else NULL
}

# ---- named constructors for messages that recur ------------------------------
# One wording per situation, whichever function meets it.

abort_unnamed_dots <- function() dpfda_abort("All arguments in `...` must be named.", arg = "...")

abort_unknown_option <- function(name, fun, candidates = option_names(fun)) {
  if (identical(name, "delta")) {   # (it suggested `data`: the release is pure DP, with no delta to give)
    dpfda_abort(sprintf("`delta` is not an option of %s(): its release is pure epsilon-DP, with no delta; leave it out.",
                        fun), arg = name, class = c("dpfda_error_argument", "dpfda_error_privacy"))
  }
  if (name %in% memory_curve_options && fun %in% c("dp_mean", "dp_cov", "dp_fpca", "pcv_select")) {
    abort_memory_option(name)
  }
  dpfda_abort(sprintf("`%s` is not an option of %s()%s; see ?%s.", name, fun, did_you_mean(name, candidates), fun),
              arg = name)
}

# The options of curves read in memory (as_curves()) that a table, chunks or a summary do not take:
# there the rows are snapped to the grid in the engine. ("`method` is not an option of dp_mean()"
# did not say why, or what to do)
memory_curve_options <- c("method", "na.rm", "df", "restrict")
abort_memory_option <- function(name) {
  dpfda_abort(sprintf(paste("`%s` applies to curves read in memory (as_curves()); a database table, chunks or a",
                            "summary are summarised where they are, each row averaged at the nearest grid point",
                            "(missing values dropped and counted), so it has no effect there: leave it out, or bring",
                            "the rows into memory (dplyr::collect()) to interpolate each curve."), name), arg = name)
}

# " (did you mean `x`?)" for the candidate closest to a misspelt `name`, or "" when none is close.
did_you_mean <- function(name, candidates, near = closest_name(name, candidates)) {
  if (is.null(near)) "" else sprintf(" (did you mean `%s`?)", near)
}

# The argument names of dpfda's function `fun` (a name), for suggestions.
option_names <- function(fun) {
  ns <- topenv(environment(option_names))
  f <- if (exists(fun, envir = ns, inherits = FALSE)) get(fun, envir = ns) else NULL
  if (is.function(f)) setdiff(names(formals(f)), "...") else character()
}

# The `...` of `fun`: named, and only the `allowed` names (none for a
# function whose `...` is there for its help page's methods), so that a typo
# gets a classed error naming it instead of being ignored or reaching R's
# "unused argument" from deep inside. `unknown(name)` raises the error for a
# name not allowed (default: "not an option of fun()"). Returns `dots`.
check_dot_names <- function(dots, allowed, fun,
                            unknown = function(name) abort_unknown_option(name, fun, c(option_names(fun), allowed))) {
  nms <- names(dots) %||% rep("", length(dots))
  bad <- nms[!nms %in% allowed]
  if (length(bad)) {
    if (!nzchar(bad[1L])) {
      if (length(allowed)) abort_unnamed_dots()
      dpfda_abort(sprintf("%s() was given a value after its last argument (an unnamed value in `...`); see ?%s.",
                          fun, fun), arg = "...")
    }
    unknown(bad[1L])
  }
  invisible(dots)
}

# The `...` that a mechanism passes to dp_noise_scale(): only what it takes
# beyond the calibration the mechanism sets.
check_noise_dots <- function(dots, fun) check_dot_names(dots, "allow_large_epsilon", fun)

# `grid` missing where it must be public: `why` says what the grid is.
abort_grid_required <- function(why = "evaluation points must be public and chosen without looking at the data",
                                hint = "") {
  dpfda_abort(sprintf("`grid` is required: %s.%s", why, hint), arg = "grid")
}

# A curve whose rows carry two privacy units (`curve`: its id, when known).
abort_curve_in_two_units <- function(curve = NULL) {
  dpfda_abort(if (is.null(curve)) "A curve (`id`) must belong to one `unit`; some curves have rows of two units." else
    sprintf("A curve (`id`) must belong to one `unit`; curve %s has rows of two units.", curve),
    class = "dpfda_error_data", arg = "unit")
}

abort_no_rows <- function() dpfda_abort("The chunks hold no rows.", class = "dpfda_error_data", arg = "x")

# A summary given to a release computed with another public centre (`fun`: its summarise_*()).
abort_summary_center <- function(fun) {
  dpfda_abort(sprintf(paste("The summary was computed with another `center` than this release's; give %s()",
                            "the same public centre."), fun), arg = "center")
}

# A short, printable description of what the user gave.
describe_value <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.function(x)) return("a function")
  if (is.list(x) && !is.data.frame(x)) {
    # (a release, a tfd, an fd: its class says what it is; "a list of length 23" did not)
    return(if (is.object(x)) sprintf("a <%s> object", class(x)[1L]) else sprintf("a list of length %d", length(x)))
  }
  if (is.factor(x)) return(sprintf("a factor of length %d (levels %s)", length(x), levels_text(x)))
  if (!is.atomic(x)) return(sprintf("an object of class <%s>", class(x)[1L]))
  if (is.object(x) && length(x) != 1L) return(sprintf("a <%s> vector of length %d", class(x)[1L], length(x)))
  # the shape of a matrix or array, also when empty: a 0 x 5 matrix (no curves) and a 2 x 3 x 4
  # array read "an empty double vector" and "an integer vector of length 24"
  if (length(dim(x)) > 2L) return(array_text(x))
  if (is.matrix(x) && length(x) == 0L) return(sprintf("an empty %d x %d %s matrix", nrow(x), ncol(x), typeof(x)))
  if (length(x) == 0L) return(sprintf("an empty %s vector", typeof(x)))
  if (is.matrix(x)) {
    shown <- if (is.numeric(x) && length(x) <= 6L) {
      sprintf(" (rows %s)", paste(apply(x, 1L, function(r) sprintf("c(%s)", paste(format(r), collapse = ", "))),
                                  collapse = ", "))
    } else ""
    return(sprintf("a %d x %d %s matrix%s", nrow(x), ncol(x), typeof(x), shown))
  }
  if (length(x) > 1L) {
    shown <- if (is.numeric(x) && length(x) <= 4L) sprintf(" (c(%s))", paste(format(x, trim = TRUE), collapse = ", ")) else ""
    return(sprintf("%s %s vector of length %d%s%s", article(typeof(x)), typeof(x), length(x), shown,
                   missing_text(x)))
  }
  if (is.character(x)) return(sprintf("\"%s\"", x))
  format(x)
}

array_text <- function(x) sprintf("a %s %s array", paste(dim(x), collapse = " x "), typeof(x))

# The shape of a value that is private (what the user's non-private function returned): its type
# and length, and how many entries are missing or not finite, never the numbers. describe_value()
# showed short vectors, and the refusal of a dp_online() query put f's values in an analyst's
# error message.
describe_shape <- function(x) {
  if (!is.atomic(x) || is.null(x)) return(describe_value(x))
  bad <- if (is.numeric(x)) sum(!is.finite(x)) else sum(is.na(x))
  shape <- if (length(dim(x)) > 2L) array_text(x) else
    if (is.matrix(x)) sprintf("a %d x %d %s matrix", nrow(x), ncol(x), typeof(x)) else
    sprintf("%s %s vector of length %d", article(typeof(x)), typeof(x), length(x))
  paste0(shape, if (bad) sprintf(" with %d missing or non-finite value%s", bad, if (bad == 1L) "" else "s") else "")
}

# Where a longer vector holds missing or non-finite values, for a refusal that names the value:
# "not a double vector of length 50" left the user to find the NA at position 7.
missing_text <- function(x) {
  if (length(x) <= 4L) return("")
  bad <- if (is.numeric(x)) !is.finite(x) else is.na(x)
  k <- sum(bad)
  if (k == 0L) return("")
  sprintf(" with %d missing or non-finite value%s (at position%s %s%s)", k, if (k == 1L) "" else "s",
          if (k == 1L) "" else "s", paste(utils::head(which(bad), 5L), collapse = ", "), if (k > 5L) ", ..." else "")
}

# "a" or "an" before a word.
article <- function(word) if (grepl("^[aeiou]", word)) "an" else "a"

# A factor's first levels, quoted, for messages.
levels_text <- function(x) {
  lv <- levels(x)
  paste0(paste0("\"", utils::head(lv, 3L), "\"", collapse = ", "), if (length(lv) > 3L) ", ..." else "")
}

arg_error <- function(arg, what, value, class = "dpfda_error_argument", private = FALSE) {
  if (identical(class, "dpfda_error_argument")) class <- argument_error_class(value)
  dpfda_abort(sprintf("`%s` must be %s, not %s.", arg, what, if (private) describe_shape(value) else describe_value(value)),
              class = class, arg = arg)
}

# A vector of data with a missing value (`y`, `unit`, `counts`) is also a data error, as a missing
# value in a column is: one handler of dpfda_error_data catches every refusal of missing values.
argument_error_class <- function(value) {
  c("dpfda_error_argument",
    if ((is.atomic(value) || is.factor(value)) && length(value) > 1L && anyNA(value)) "dpfda_error_data")
}

# A declared sensitivity of 0 (dp_gp_release(), dp_bernstein()): no noise is added, which is
# private only for a function that does not depend on the data; said, as it was silent.
warn_zero_sensitivity <- function(sensitivity) {
  if (identical(as.double(sensitivity), 0) && !isFALSE(getOption("dpfda.privacy_warnings", TRUE))) {
    dpfda_warn(paste("`sensitivity` is 0: no noise is added, and the release is `f` itself. That is private only",
                     "if `f` does not depend on the data; otherwise give the sensitivity of `f`."),
               "dpfda_warning_privacy")
  }
  invisible(sensitivity)
}

# ---- argument checkers (return the cleaned value) -----------------------------

# Options of a switch that is off (`names`, e.g. inference_share without inference = TRUE): an error
# naming the switch (they would be ignored).
switch_unused <- function(opts, names, switch) {
  given <- intersect(names, names(opts))
  if (length(given)) {
    dpfda_abort(sprintf("`%s` is an option of %s; give %s or leave it out.", given[1L], switch, switch),
                arg = given[1L])
  }
  invisible()
}

check_number <- function(x, arg, lower = -Inf, upper = Inf, lower_open = FALSE,
                         upper_open = FALSE, what = NULL,
                         class = "dpfda_error_argument") {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    (if (lower_open) x > lower else x >= lower) &&
    (if (upper_open) x < upper else x <= upper)
  # the message is formatted only when the check fails (this runs on every release)
  if (!isTRUE(ok)) arg_error(arg, what %||% number_what(lower, upper, lower_open, upper_open), x, class)
  as.double(x)
}

# What check_number() asks for, in words.
number_what <- function(lower, upper, lower_open, upper_open) {
  # (another finite lower bound is said too: `l1_bound` 0.5 was refused as "not a finite number")
  other_lower <- is.finite(lower) && lower != 0
  what <- if (is.finite(lower) && lower == 0 && lower_open) "a positive number"
          else if (is.finite(lower) && lower == 0) "a non-negative number"
          else if (other_lower) sprintf("a number %s %s", if (lower_open) "above" else "at least", format(lower))
          else "a finite number"
  if (is.finite(upper)) {
    what <- sprintf("%s%s %s %s", what, if (other_lower) " and" else "", if (upper_open) "below" else "at most",
                    format(upper))
  }
  what
}

check_count <- function(x, arg, min = 1, max = .Machine$integer.max) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && is.finite(x) &&
    x == round(x) && x >= min && x <= max
  if (!isTRUE(ok)) {
    arg_error(arg, sprintf("a whole number between %s and %s", format(min, big.mark = ",", scientific = FALSE),
                           format(max, big.mark = ",", scientific = FALSE)), x)
  }
  if (max > .Machine$integer.max) as.double(x) else as.integer(x)
}

check_numeric_vector <- function(x, arg, min_length = 1L, finite = TRUE) {
  ok <- is.numeric(x) && is.null(dim(x)) && length(x) >= min_length &&
    (!finite || all(is.finite(x)))
  if (!isTRUE(ok)) {
    arg_error(arg, sprintf("a numeric vector of finite values with length at least %d",
                           min_length), x)
  }
  as.double(x)
}

check_flag <- function(x, arg) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) arg_error(arg, "TRUE or FALSE", x)
  x
}

check_choice <- function(x, choices, arg) {
  if (is.null(x)) arg_error(arg, sprintf("one of %s", paste0("\"", choices, "\"", collapse = ", ")), x)
  if (identical(x, choices)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || is.na(x)) {
    arg_error(arg, sprintf("one of %s", paste0("\"", choices, "\"", collapse = ", ")), x)
  }
  # a unique abbreviation is accepted, as match.arg() does (type = "pop" for "population")
  i <- if (nzchar(x)) pmatch(x, choices) else NA_integer_
  if (is.na(i)) {
    several <- nzchar(x) && sum(startsWith(choices, x)) > 1L
    arg_error(arg, sprintf("one of %s%s", paste0("\"", choices, "\"", collapse = ", "),
                           if (several) " (the abbreviation matches more than one)" else ""), x)
  }
  choices[i]
}

# Points: vector (1-D) or numeric matrix with finite entries -> n x d matrix.
as_points <- function(x, arg, d = NULL) {
  points_problem(x, arg)
  if (is.data.frame(x)) x <- as.matrix(x)
  ok <- is.numeric(x) && length(x) >= 1L && all(is.finite(x)) &&
    (is.null(dim(x)) || length(dim(x)) == 2L)
  if (!isTRUE(ok)) {
    arg_error(arg, "a numeric vector or matrix of finite values (one point per row)", x)
  }
  x <- if (is.null(dim(x))) matrix(as.double(x), ncol = 1L) else {
    storage.mode(x) <- "double"
    x
  }
  if (!is.null(d) && ncol(x) != d) {
    dpfda_abort(sprintf("`%s` must have %d column%s (the dimension of the points), not %d.",
                        arg, d, if (d == 1L) "" else "s", ncol(x)), arg = arg)
  }
  dimnames(x) <- NULL
  x
}

# The outputs `y` of a regression: a numeric vector of n finite values, one per
# row of `x`; the refusal names the non-finite entries (a vector with an NA was
# said to be "not a double vector of length 50").
check_y_values <- function(y, n) {
  if (is.numeric(y) && is.null(dim(y)) && length(y) == n && !all(is.finite(y))) {
    bad <- which(!is.finite(y))
    dpfda_abort(sprintf(paste("`y` holds %d non-finite value%s (NA, NaN or Inf) at position%s %s%s; remove those",
                              "records (their rows of `x` and entries of `y`) first, e.g. with",
                              "stats::complete.cases()."),
                        length(bad), if (length(bad) == 1L) "" else "s", if (length(bad) == 1L) "" else "s",
                        paste(utils::head(bad, 5L), collapse = ", "), if (length(bad) > 5L) ", ..." else ""),
                class = "dpfda_error_data", arg = "y")
  }
  if (!is.numeric(y) || !is.null(dim(y)) || length(y) != n) {
    arg_error("y", sprintf("a numeric vector of %d finite values (one per row of `x`)", n), y)
  }
  invisible(y)
}
