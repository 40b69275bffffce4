# The preamble and epilogue shared by every mechanism (issue 28): what each
# exported release function does before it reads data and after its noise is
# drawn, in one place.
#
#   budget <- release_open(budget, epsilon, delta, n)   # budget checked, privacy warnings
#   ... settings -> summary -> the mechanism's own release step ...
#   release_close(rel, budget, "dp_xxx", parts)          # one charge, checked against the release
#
# A release may be made of several private parts (a noisy count, a private
# bound, a private selection, the release proper). release_close() charges
# them all or none. Parts without a Gaussian (mu) or zCDP (rho) profile are
# one ledger entry, the sum of their (epsilon, delta) (exact under basic
# composition, valid under every accountant). When a part has such a profile
# and there are others, each part gets its own entry ("label [part]"), so the
# GDP and zCDP accountants compose the Gaussian part tightly. Before charging
# it checks that the parts add up to the (epsilon, delta) the release object
# reports, so a release never claims a guarantee other than the one the
# budget paid for.

# One private part of a release. `mu`: the part is a Gaussian mechanism with
# this mu (sensitivity / sigma); `rho`: zCDP (the discrete Gaussian).
privacy_part <- function(epsilon, delta = 0, mu = NULL, rho = NULL, name = "release") {
  list(epsilon = as.double(epsilon), delta = as.double(delta), mu = mu, rho = rho, name = name)
}

# The part that a release object (or a sub-release, e.g. a KDE lattice)
# describes by its own fields.
release_part <- function(x, sensitivity = NULL) {
  rho <- if (isTRUE(x$noise_exact) && isTRUE(x$delta > 0)) x$zcdp_rho
  privacy_part(x$epsilon, x$delta, mu = release_mu(x, sensitivity), rho = rho)
}

# calibration = "hall" beyond epsilon = 1 (allow_large_epsilon = TRUE, the paper's figures) has no
# proven guarantee: its Gaussian noise of shift mu = sensitivity / sigma gives the exact delta(epsilon)
# of gaussian_delta(), which can exceed the delta asked for (0.156 for 1e-5 at epsilon 40). The release
# records that true delta (the asked one as `delta_claimed`), and a budget is charged with it: it kept
# the false claim in its print and its charge.
hall_true_delta <- function(rel) {
  if (!identical(rel$calibration, "hall") || !isTRUE(rel$epsilon > 1)) return(rel)
  mu <- release_mu(rel)
  if (is.null(mu) || !is.finite(mu)) return(rel)
  td <- gaussian_delta_unit(rel$epsilon, mu)
  if (!(td > rel$delta * (1 + 1e-9))) return(rel)
  rel$delta_claimed <- rel$delta
  rel$delta <- min(td, 1)
  rel
}

# Preamble: the budget is checked before any data are read; with `epsilon`,
# the privacy warnings for weak settings (n, when known, sharpens them). With
# a budget, the warnings that may show a private value wait for its charge
# (defer_private_warnings()).
release_open <- function(budget, epsilon = NULL, delta = 0, n = NULL) {
  budget <- check_budget(budget)
  if (!is.null(epsilon)) warn_privacy(epsilon, if (is.null(delta)) 0 else delta, n)
  if (!is.null(budget)) defer_private_warnings(parent.frame())
  budget
}

# Warnings that can show a private value (the bound a tau = "auto" or y_bound = "auto" chose, a
# noisy count: classes dpfda_warning_utility and dpfda_warning_count) are held while a release with a
# budget is made, and given once the budget is charged (ledger_commit(), release_close()). A release
# the budget refuses returns nothing and says nothing of these: its utility warning showed the
# private bound, a fresh draw at every refused call, for free (found by a user test). The holds
# nest (a release inside a release); each ends, discarding what it still holds, when the function
# that opened it exits.
private_warning_classes <- c("dpfda_warning_utility", "dpfda_warning_count")
held_warnings <- new.env(parent = emptyenv())
held_warnings$stack <- list()

defer_private_warnings <- function(frame) {
  held_warnings$stack <- c(held_warnings$stack, list(list(open = TRUE, held = list())))
  depth <- length(held_warnings$stack)
  do.call(base::on.exit, list(bquote(.(end_private_warnings)(.(depth))), TRUE, FALSE), envir = frame)
}

end_private_warnings <- function(depth) {
  if (length(held_warnings$stack) >= depth) held_warnings$stack <- held_warnings$stack[seq_len(depth - 1L)]
}

# TRUE when `cnd` is held (dpfda_warn() then does not signal it).
hold_private_warning <- function(cnd) {
  k <- length(held_warnings$stack)
  if (!k || !isTRUE(held_warnings$stack[[k]]$open) || !inherits(cnd, private_warning_classes)) return(FALSE)
  held_warnings$stack[[k]]$held <- c(held_warnings$stack[[k]]$held, list(cnd))
  TRUE
}

# After a charge: the innermost hold gives its warnings, and later ones pass at once.
give_private_warnings <- function() {
  k <- length(held_warnings$stack)
  if (!k || !isTRUE(held_warnings$stack[[k]]$open)) return(invisible(NULL))
  held <- held_warnings$stack[[k]]$held
  held_warnings$stack[[k]] <- list(open = FALSE, held = list())
  for (cnd in held) warning(cnd)
  invisible(NULL)
}

# Epilogue: one charge for all `parts` (default: the release's own fields),
# made only after the release succeeded (a refused or failed release leaves
# the budget untouched). `total`: the object whose epsilon and delta must
# equal the parts' sum (default `rel`; NULL skips the check, for objects such
# as the live online session whose fields are set later). `id`: as in
# charge_budget() (a sub-step charged once however often it is reused).
release_close <- function(rel, budget, label, parts = list(release_part(rel)), total = rel, id = NULL) {
  if (missing(parts)) rel <- hall_true_delta(rel)   # (before `parts` and `total` read it)
  parts <- Filter(function(p) p$epsilon > 0 || p$delta > 0, parts)
  eps <- sum(vapply(parts, function(p) p$epsilon, 0))
  del <- sum(vapply(parts, function(p) p$delta, 0))
  if (!is.null(total)) {
    te <- as.double(total$epsilon)
    td <- as.double(total$delta %||% 0)
    if (!isTRUE(abs(te - eps) <= 1e-9 * max(1, te)) || !isTRUE(abs(td - del) <= 1e-12 + 1e-9 * td)) {
      dpfda_abort(sprintf(paste("Internal accounting error in %s: the release reports (epsilon = %s, delta = %s)",
                                "but its parts add up to (%s, %s). Nothing was charged; please report this."),
                          label, format(te), format(td), format(eps), format(del)),
                  class = "dpfda_error_internal")
    }
  }
  profiled <- any(vapply(parts, function(p) !is.null(p$mu) || !is.null(p$rho), NA))
  unit <- release_unit_name(rel)
  if (length(parts) == 1L) {
    p <- parts[[1L]]
    charge_budget(budget, p$epsilon, p$delta, label, mu = p$mu, id = id, rho = p$rho, unit = unit)
  } else if (length(parts) && !profiled) {
    charge_budget(budget, eps, del, label, id = id, unit = unit)
  } else if (length(parts) && !is.null(budget)) {
    budget <- check_budget(budget)
    if (is.null(id) || !id %in% budget$ledger$id) {
      ledger_commit(budget, do.call(rbind, lapply(parts, function(p) {
        ledger_row(sprintf("%s [%s]", label, p$name), p$epsilon, p$delta, p$mu, p$rho, id, unit)
      })))
    }
  }
  give_private_warnings()   # (charged, or a sub-step charged before: what was held may be said)
  rel
}

# The unit column's name of a person-level release (its privacy_unit reads "<unit> (n units)"), or NA
# for one record ("one curve (n)", "one point (n)", or a release that states none: one row).
release_unit_name <- function(rel) {
  pu <- rel$privacy_unit
  if (!is.character(pu) || length(pu) != 1L || !grepl(" units\\)$", pu)) return(NA_character_)
  sub(" \\([0-9,]+ units\\)$", "", pu)
}
