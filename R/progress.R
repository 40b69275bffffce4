# Progress bars for long loops (simulations, cross-validation, audits):
# shown in interactive sessions only, never in knitr, R CMD check or
# scripts, and never when options(dpfda.progress = FALSE).

#' Progress reporting
#'
#' Long computations of dpfda (private cross-validation over many
#' candidates, hyper-parameter selection, audits, the reproduction scripts)
#' report their progress with a text bar from \pkg{utils} when the session
#' is interactive, not knitting a document, and `getOption("dpfda.progress")`
#' is not `FALSE`. Set `options(dpfda.progress = FALSE)` to silence them, or
#' `TRUE` to force them (for example in a script run by hand).
#'
#' @param total Number of steps.
#' @param label Text shown before the bar.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return `dp_progress()`: a list of two functions, `tick(k = 1)` (advance)
#'   and `done()` (close the bar). `dp_progress_enabled()`: `TRUE` or
#'   `FALSE`.
#' @examples
#' p <- dp_progress(3, "demo")
#' for (i in 1:3) p$tick()
#' p$done()
#' dp_progress_enabled()
#' @export
dp_progress <- function(total, label = "dpfda", ...) {
  check_dot_names(dot_args(), character(), "dp_progress")
  check_required()
  total <- check_count(total, "total", min = 0, max = 2^31 - 1)
  if (!is.character(label) || length(label) != 1L || is.na(label)) arg_error("label", "a string", label)
  if (!dp_progress_enabled() || total < 1) {
    return(list(tick = function(k = 1) invisible(NULL), done = function() invisible(NULL)))
  }
  message(label)
  bar <- utils::txtProgressBar(min = 0, max = total, style = 3, file = stderr())
  at <- 0
  list(tick = function(k = 1) {
         at <<- min(total, at + k)
         utils::setTxtProgressBar(bar, at)
         invisible(NULL)
       },
       done = function() {
         close(bar)
         invisible(NULL)
       })
}

#' @rdname dp_progress
#' @export
dp_progress_enabled <- function(...) {
  check_dot_names(dot_args(), character(), "dp_progress_enabled")
  opt <- getOption("dpfda.progress")
  if (isFALSE(opt)) return(FALSE)
  if (isTRUE(opt)) return(TRUE)
  interactive() && !isTRUE(getOption("knitr.in.progress")) && !nzchar(Sys.getenv("TESTTHAT"))
}
