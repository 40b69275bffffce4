# Run calls in a child R process, so that a crash (segfault, abort) or a hang
# fails a test instead of killing the test run.
#
# `cases` is a list; each case is a list with a `label` and either
#   * `fun` (name of a dpfda export) and `args` (a list), called with do.call(), or
#   * `expr`, a quoted expression evaluated with dpfda attached,
# and optionally `keep = TRUE` to return the value to the parent.
# The child uses the installed copy of dpfda that this session has loaded,
# and this session's .libPaths().
#
# Returns a list with `status` (exit status of the child; 0 is normal),
# `finished` (TRUE if the child got through every case), `last` (index of the
# last case started, to name the culprit after a crash or hang), `output`
# (what the child printed) and `results`: per case a list with `status`
# ("ok", "dpfda_error" or "other_error"), `class` and `message` of the
# error, `warnings` (messages), `foreign_warning` (TRUE if a warning not of
# a dpfda_* class was raised), `nonfinite` (TRUE when a successful call returned NaN or
# +/-Inf somewhere in its value), `seconds`, and `value` if kept.
dpfda_child_lib <- function() {
  path <- getNamespaceInfo("dpfda", "path")
  # an installed package has Meta/; devtools::load_all() loads a source tree
  if (!file.exists(file.path(path, "Meta", "package.rds"))) return(NULL)
  dirname(path)
}

dpfda_child_run <- function(cases, time_limit = 10, timeout = 240) {
  lib <- dpfda_child_lib()
  testthat::skip_if(is.null(lib), "dpfda is not installed (loaded from source): the child needs an installed copy")
  dir <- tempfile("dpfda-child-")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  job <- file.path(dir, "job.rds")
  progress <- file.path(dir, "progress.txt")
  out <- file.path(dir, "results.rds")
  log <- file.path(dir, "log.txt")
  script <- file.path(dir, "child.R")
  saveRDS(list(cases = cases, lib = lib, libpaths = .libPaths(), time_limit = time_limit), job)
  writeLines(dpfda_child_script, script)
  # R CMD check's R_TESTS startup file must not be sourced by the child
  old_tests <- Sys.getenv("R_TESTS", unset = NA)
  Sys.unsetenv("R_TESTS")
  on.exit(if (!is.na(old_tests)) Sys.setenv(R_TESTS = old_tests), add = TRUE)
  status <- suppressWarnings(system2(
    file.path(R.home("bin"), "Rscript"),
    c("--vanilla", shQuote(script), shQuote(job), shQuote(progress), shQuote(out)),
    stdout = log, stderr = log, timeout = timeout
  ))
  started <- if (file.exists(progress)) suppressWarnings(as.integer(readLines(progress))) else integer()
  list(status = status, finished = file.exists(out),
       last = if (length(started)) started[length(started)] else NA_integer_,
       output = if (file.exists(log)) readLines(log, warn = FALSE) else character(),
       results = if (file.exists(out)) readRDS(out) else NULL)
}

# Describe a failed child run (crash / hang / abnormal exit) for a test message.
dpfda_child_failure <- function(run, cases) {
  culprit <- if (!is.na(run$last)) cases[[run$last]]$label else "(before the first case)"
  sprintf("Child R process exited with status %s%s; last call started: %s\nChild output (tail):\n%s",
          format(run$status), if (identical(run$status, 124L)) " (timeout: a call hangs)" else "",
          culprit, paste(utils::tail(run$output, 25), collapse = "\n"))
}

dpfda_child_script <- '
args <- commandArgs(trailingOnly = TRUE)
job <- readRDS(args[1])
.libPaths(unique(c(job$lib, job$libpaths)))
suppressPackageStartupMessages(library(dpfda, lib.loc = job$lib))
nonfinite <- function(x) {
  if (is.double(x)) return(any(!is.finite(x)))
  if (is.list(x)) return(any(vapply(x, nonfinite, NA)))
  FALSE
}
res <- vector("list", length(job$cases))
for (i in seq_along(job$cases)) {
  cs <- job$cases[[i]]
  cat(i, "\n", file = args[2], append = TRUE)
  warns <- character()
  foreign <- FALSE
  t0 <- sum(proc.time()[c("user.self", "sys.self")])
  # CPU time is the limit (a loaded machine stretches wall time); wall time only stops true hangs
  setTimeLimit(cpu = job$time_limit, elapsed = 5 * job$time_limit, transient = TRUE)
  r <- tryCatch(
    withCallingHandlers({
      val <- if (is.null(cs$expr)) do.call(getExportedValue("dpfda", cs$fun), cs$args)
             else eval(cs$expr, envir = new.env(parent = globalenv()))
      list(status = "ok", nonfinite = nonfinite(val),
           value = if (isTRUE(cs$keep)) val)
    }, warning = function(w) {
      if (!any(startsWith(class(w), "dpfda_"))) foreign <<- TRUE
      warns <<- c(warns, paste0("<", class(w)[1L], "> ", conditionMessage(w)))
      invokeRestart("muffleWarning")
    }),
    error = function(e) {
      list(status = if (inherits(e, "dpfda_error")) "dpfda_error" else "other_error",
           class = class(e), message = conditionMessage(e), nonfinite = FALSE)
    })
  setTimeLimit(cpu = Inf, elapsed = Inf)
  r$warnings <- warns
  r$foreign_warning <- foreign
  r$seconds <- sum(proc.time()[c("user.self", "sys.self")]) - t0   # CPU seconds
  res[[i]] <- r
}
saveRDS(res, args[3])
'
