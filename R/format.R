# format() of the package's objects: one line, the header their print() starts
# with (as format() of a release, a curves object or a kernel already was).
# format() of a list or an environment was each field deparsed: a budget
# gave "<environment: 0x...>", an accuracy plan a column of numbers per field,
# so paste(), message() or an inline `r b` in R Markdown showed nothing useful.

# The first `lines` lines of print(x), joined by "; ".
format_header <- function(x, lines = 1L) {
  out <- trimws(utils::capture.output(print(x)))
  paste(out[seq_len(min(lines, length(out)))], collapse = "; ")
}

#' One-line descriptions of dpfda objects
#'
#' `format()` gives one line that names the object and its main settings: the
#' line its `print()` starts with, and for a privacy budget and an accuracy
#' plan also what is spent and remains, or the expected error. Useful in
#' `paste()`, `message()` and inline R Markdown.
#'
#' @param x A dpfda object.
#' @param ... Unused.
#' @return A character string.
#' @examples
#' b <- privacy_budget(epsilon = 2, delta = 1e-5)
#' format(b)
#' g <- seq(0, 1, length.out = 21)
#' format(dp_accuracy(mechanism = "iclp_qr", n = 100, epsilon = 1, tau = 1, grid = g))
#' @name format-dpfda
NULL

#' @rdname format-dpfda
#' @export
format.dpfda_budget <- function(x, ...) format_header(x, 2L)   # (the header, then what is spent and remains)

#' @rdname format-dpfda
#' @export
format.dpfda_accuracy <- function(x, ...) {
  total <- if (is.finite(x$total_l2 %||% NA_real_)) sprintf(", total with the bias at most %s",
                                                             format(x$total_l2, digits = 4)) else ""
  sprintf("%s: expected L2 noise error %s%s", format_header(x), format(x$expected_l2, digits = 4), total)
}

#' @rdname format-dpfda
#' @export
format.dpfda_fpca <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_kme_release <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_bandwidth <- function(x, ...) format_header(x, 2L)   # (the header, then h)

#' @rdname format-dpfda
#' @export
format.dpfda_selection <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_pcv_selection <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_audit <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_online_session <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_summary <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_chunks <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_kl_basis <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_mortality <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_accuracy_bandwidth <- function(x, ...) format_header(x, 2L)   # (the header, then the n the test needs)

#' @rdname format-dpfda
#' @export
format.dpfda_krr_fit <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_svm_fit <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_logistic_fit <- function(x, ...) format_header(x)

#' @rdname format-dpfda
#' @export
format.dpfda_kme_rff <- function(x, ...) format_header(x)
