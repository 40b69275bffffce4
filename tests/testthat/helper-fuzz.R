# Random fuzzing of every exported function (used by test-fuzz.R for a short
# run and by tools/fuzz.R, `make fuzz`, for a long one).
#
# A case is a baseline call of bad_arg_table() (test-bad-arguments.R and the
# helper-bad-args-*.R files) with one to three arguments replaced by values
# drawn from fuzz_values(). Cases run in child R processes (helper-child.R);
# a child that dies (a crash: signal or abort) or stops answering (a hang)
# is restarted after the culprit. The outcome of each case is "ok", a classed
# "dpfda_error", an "other_error" (not classed: a defect), "crash" or "hang";
# successes that return NaN/Inf are counted too. (Symbols and calls are not
# in the pool: do.call() would evaluate them in the child.)

# The definitions of test-bad-arguments.R (its assignments, not its tests),
# evaluated in a new environment whose parent is `parent`.
bad_arg_definitions <- function(parent, dir = ".") {
  env <- new.env(parent = parent)
  f <- file.path(dir, "test-bad-arguments.R")
  if (!file.exists(f)) f <- testthat::test_path("test-bad-arguments.R")
  for (e in parse(f)) if (is.call(e) && identical(e[[1L]], as.name("<-"))) eval(e, env)
  env
}

fuzz_values <- function(defs) {
  c(defs$bad_values(), list(
    "NA_integer_" = NA_integer_, "c(NA, 1)" = c(NA, 1), "c(1, NaN)" = c(1, NaN), "c(-Inf, Inf)" = c(-Inf, Inf),
    "-0" = -0, "1e-300" = 1e-300, "-1e-300" = -1e-300, "1e300" = 1e300, "-1e300" = -1e300,
    ".Machine$integer.max" = .Machine$integer.max, "-2^31" = -2^31, "2^53 + 1" = 2^53 + 1,
    "unsorted grid" = c(1, 0.5, 0), "duplicated grid" = c(0, 0, 1), "one point" = 0.5,
    "non-PSD matrix" = matrix(c(1, 2, 2, 1), 2), "NaN matrix" = matrix(NaN, 2, 2),
    "0-row matrix" = matrix(numeric(0), 0, 2), "3-d array" = array(0, c(2, 2, 2)),
    "long vector" = seq(0, 1, length.out = 1e5), "character vector" = c("a", "b"),
    "factor" = factor(c("a", "b")), "complex" = 1i, "raw" = as.raw(1), "an environment" = new.env(),
    "list(NULL)" = list(NULL), "logical NA vector" = c(NA, NA),
    "integer vector" = 1:3, "negative vector" = c(-1, -2), "named list" = list(a = 1, b = "x")))
}

# n random cases from a fixed seed; defs from bad_arg_definitions().
fuzz_cases <- function(n, seed, defs) {
  tab <- defs$bad_arg_table()
  pool <- fuzz_values(defs)
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv()) else NULL
  on.exit(if (!is.null(old)) assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  funs <- names(tab)
  cases <- vector("list", n)
  for (i in seq_len(n)) {
    fun <- sample(funs, 1L)
    bases <- tab[[fun]]
    b <- sample(length(bases), 1L)
    args <- bases[[b]]
    k <- min(length(args), sample(1:3, 1L, prob = c(0.6, 0.3, 0.1)))
    if (k == 0L) {
      label <- sprintf("%s[%d]()", fun, b)
    } else {
      which_args <- sample(names(args), k)
      vals <- sample(c(names(pool), "wrong length"), k, replace = TRUE)
      for (j in seq_len(k)) {
        a <- which_args[j]
        args[a] <- list(if (vals[j] == "wrong length") defs$wrong_length(args[[a]]) else pool[[vals[j]]])
      }
      label <- sprintf("%s[%d](%s)", fun, b, paste(which_args, vals, sep = " = ", collapse = ", "))
    }
    cases[[i]] <- list(label = label, fun = fun, args = args)
  }
  cases
}

# Run cases in child processes, restarting after a crash or a hang. Returns a
# data frame: label, outcome, class, message, nonfinite, foreign_warning.
fuzz_run <- function(cases, time_limit = 10, timeout = 600) {
  out <- data.frame(label = vapply(cases, `[[`, "", "label"), outcome = NA_character_, class = NA_character_,
                    message = NA_character_, nonfinite = FALSE, foreign_warning = FALSE, seconds = NA_real_)
  start <- 1L
  while (start <= length(cases)) {
    idx <- start:length(cases)
    run <- dpfda_child_run(cases[idx], time_limit = time_limit, timeout = timeout)
    if (!is.null(run$results)) {
      for (j in seq_along(idx)) {
        r <- run$results[[j]]
        out$outcome[idx[j]] <- r$status
        out$class[idx[j]] <- paste(r$class, collapse = "/")
        out$message[idx[j]] <- if (is.null(r$message)) NA_character_ else r$message
        out$nonfinite[idx[j]] <- isTRUE(r$nonfinite)
        out$foreign_warning[idx[j]] <- isTRUE(r$foreign_warning)
        out$seconds[idx[j]] <- r$seconds
      }
      break
    }
    bad <- if (is.na(run$last)) 1L else run$last
    out$outcome[idx[bad]] <- if (identical(run$status, 124L)) "hang" else "crash"
    out$message[idx[bad]] <- paste(utils::tail(run$output, 5), collapse = " | ")
    start <- idx[bad] + 1L
  }
  out
}

fuzz_summary <- function(res) {
  c(cases = nrow(res), ok = sum(res$outcome == "ok"), classed = sum(res$outcome == "dpfda_error"),
    unclassed = sum(res$outcome == "other_error"), crash = sum(res$outcome == "crash"),
    hang = sum(res$outcome == "hang"), nonfinite = sum(res$nonfinite), foreign_warning = sum(res$foreign_warning))
}
