# dp_accuracy() with several mechanisms: the same plan for each, side by
# side, so that the choice of mechanism is part of planning (on dti_cca's
# grid, n = 142, tau = 0.2, an L2 total of 0.02 needs epsilon 387 with
# ICLP-QR and 9.3 with the GP mechanism, and is out of reach of FRL, whose
# truncation bias alone exceeds it).

# `args`: dp_accuracy()'s arguments, evaluated, without `mechanism`.
accuracy_compare <- function(mechanism, args) {
  ok <- is.character(mechanism) && !anyNA(mechanism) && !anyDuplicated(mechanism) &&
    all(mechanism %in% c(accuracy_mechanisms, names(accuracy_aliases)))
  if (!ok) {
    arg_error("mechanism", sprintf(paste("one mechanism, or several different ones to compare, among %s",
                                         "(\"bandwidth\" plans a different quantity: alone)"),
                                   paste0("\"", accuracy_mechanisms, "\"", collapse = ", ")), mechanism)
  }
  plans <- lapply(mechanism, function(m) do.call(dp_accuracy, c(list(mechanism = m), args)))
  names(plans) <- mechanism
  num <- function(v) if (is.numeric(v) && length(v) == 1L) as.double(v) else NA_real_
  rows <- lapply(plans, function(p) {
    r <- data.frame(mechanism = p$mechanism, n = num(p$n), epsilon = num(p$epsilon), delta = num(p$delta),
                    tau = num(p$tau), expected_l2 = p$expected_l2, bias_l2 = num(p$bias_l2),
                    total_l2 = num(p$total_l2), expected_sup = p$expected_sup, total_sup = num(p$total_sup),
                    stringsAsFactors = FALSE)
    if (!is.null(p$n_needed)) r$n_needed <- p$n_needed
    if (!is.null(p$epsilon_needed)) r$epsilon_needed <- p$epsilon_needed
    if (!is.null(p$tau_needed)) r$tau_needed <- p$tau_needed
    # a target out of reach, solving for what was not given: no plan to show (its row would describe
    # the search's starting value)
    out_e <- !is.null(p$epsilon_needed) && !is.finite(p$epsilon_needed) && is.null(args$epsilon)
    out_n <- !is.null(p$n_needed) && !is.finite(p$n_needed) && is.null(args$n)
    if (out_e || out_n) {
      r[c(if (out_e) "epsilon" else "n", "expected_l2", "bias_l2", "total_l2", "expected_sup", "total_sup")] <- NA
    }
    r
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  structure(out, plans = plans, class = c("dpfda_accuracy_comparison", "data.frame"))
}

# The mechanisms dp_accuracy() plans (one at a time, or compared), and other names it accepts for them.
# (iclp_mechanisms of R/mech-iclp.R and two more, written out: this file is collated before that one)
accuracy_mechanisms <- c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp", "cov", "kde")
accuracy_aliases <- c(iclp = "iclp_qr", qr = "iclp_qr", ar = "iclp_ar", gp_release = "gp")

#' @export
print.dpfda_accuracy_comparison <- function(x, ...) {
  cat(sprintf("<dpfda_accuracy_comparison> %d mechanisms (one row each; attr(x, \"plans\") holds each plan)\n",
              nrow(x)))
  print(structure(x, class = "data.frame", plans = NULL), digits = 4, row.names = FALSE)
  best <- function(v, what) {
    ok <- is.finite(v)
    if (any(ok)) cat(sprintf("  %s: %s\n", what, x$mechanism[ok][which.min(v[ok])]))
  }
  if (!is.null(x$epsilon_needed)) best(x$epsilon_needed, "least epsilon for the target") else
    if (!is.null(x$n_needed)) best(x$n_needed, "fewest individuals for the target") else
      if (!is.null(x$tau_needed)) best(-x$tau_needed, "largest bound tau for the target (least clipping)") else
        best(x$total_l2, "smallest total L2 error (noise and smoothing bias)")
  if (any(!is.finite(x$epsilon_needed %||% x$n_needed %||% 0))) {
    cat("  Inf: the target is out of reach (the bias bound alone exceeds it, or the search range)\n")
  }
  invisible(x)
}
