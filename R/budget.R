# Privacy accounting: a budget object that every mechanism charges, a ledger
# of what was spent, and composition theorems (basic, advanced, exact
# composition of Gaussian mechanisms through Gaussian DP, and zCDP).

#' Privacy budgets and composition
#'
#' `privacy_budget()` creates a budget of total privacy loss
#' \eqn{(\epsilon, \delta)}. Every mechanism of dpfda takes `budget =`; the
#' release is charged to the budget, and refused with an error of class
#' `dpfda_error_budget` (before anything is returned) when the budget would
#' be exceeded (beyond a relative \eqn{10^{-9}} of the budget, room for the
#' rounding of floating-point sums: three releases of 0.1 fill a budget of
#' 0.3). The budget is a reference object: charging it inside a
#' mechanism changes it for the caller. `spend()` charges it by hand (for
#' releases made elsewhere); `budget_spent()` reports the composed total;
#' `summary()` gives the ledger (which release spent what).
#'
#' **Composition.** The total loss of the releases charged so far is computed
#' from the whole ledger each time, by the budget's `composition`:
#' * `"basic"`: \eqn{(\sum_i \epsilon_i, \sum_i \delta_i)}.
#' * `"advanced"`: the heterogeneous form of the advanced composition theorem
#'   of Dwork, Rothblum and Vadhan (2010),
#'   \eqn{\epsilon = \sqrt{2 \log(1/\delta') \sum_i \epsilon_i^2} + \sum_i
#'   \epsilon_i (e^{\epsilon_i} - 1)} at \eqn{\delta = \sum_i \delta_i +
#'   \delta'}, where the slack \eqn{\delta'} is all of the budget's
#'   \eqn{\delta} that the releases do not use themselves.
#' * `"gdp"` (default): releases made by a Gaussian mechanism are recorded
#'   with their \eqn{\mu = \Delta_2 / \sigma} (they are \eqn{\mu}-GDP, Dong,
#'   Roth and Su 2022); \eqn{k} of them compose exactly to
#'   \eqn{\sqrt{\sum_i \mu_i^2}}-GDP, converted back to \eqn{(\epsilon,
#'   \delta)} exactly by [gdp_delta()] / [gdp_epsilon()]. Other releases
#'   are added by basic composition.
#' * `"zcdp"`: Gaussian releases are \eqn{\rho = \mu^2/2}-zCDP (releases
#'   with discrete Gaussian noise, `noise = "exact"`, record their
#'   \eqn{\rho = \Delta^2/(2\sigma^2)}), pure
#'   \eqn{\epsilon}-DP releases \eqn{\epsilon^2/2}-zCDP (Bun and Steinke
#'   2016); the \eqn{\rho}'s add, and the sum is converted by
#'   [zcdp_epsilon()]; releases with \eqn{\delta > 0} that are not Gaussian
#'   are added by basic composition.
#'
#' Every rule also falls back on basic composition when that is smaller, so
#' no rule is ever worse than `"basic"`. A Gaussian \eqn{\mu} is used only
#' when it is consistent with the release's own \eqn{(\epsilon, \delta)}
#' (its exact privacy profile at \eqn{\epsilon} is at most \eqn{\delta});
#' otherwise the release counts with its \eqn{(\epsilon, \delta)}.
#'
#' **Automatic bounds.** `tau = "auto"` ([dp_mean()], [dp_cov()],
#' [dp_fpca()]) and `y_bound = "auto"` ([dp_gp_regression()],
#' [dp_bin_regression()]) spend a share \eqn{\epsilon_b} on a private bound
#' (pure \eqn{\epsilon_b}-DP, the exponential mechanism) and the rest on the
#' release, charged together after the release succeeded (or not at all).
#' When no part has a Gaussian or zCDP profile (every pure-DP mechanism:
#' ICLP, FRL, Bernstein, [dp_cov()], [dp_bin_regression()]) that is one
#' entry of \eqn{\epsilon}; under `"zcdp"` it counts as
#' \eqn{\epsilon^2/2}-zCDP. When the release is Gaussian (`mechanism =
#' "gp"` of [dp_mean()], [dp_gp_regression()]) the parts are one entry each,
#' labelled `"... [bound]"` and `"... [release]"`: the bound with its
#' \eqn{\epsilon_b} (added by basic composition under `"gdp"`,
#' \eqn{\epsilon_b^2/2}-zCDP under `"zcdp"`) and the release with its own
#' \eqn{(\epsilon - \epsilon_b, \delta)} and \eqn{\mu}, which depends on
#' \eqn{\epsilon - \epsilon_b} and \eqn{\delta} only, not on the chosen
#' bound, so it composes with the other Gaussian releases exactly. Under
#' `"basic"` either way adds to exactly `epsilon`.
#'
#' Multi-step procedures charge every step: a [dp_bandwidth()] result passed
#' to [dp_kde()] is charged (once, under the label `"dp_bandwidth"`) if it
#' was not charged to this budget yet; [dp_gp_select()] charges the
#' selection and [dp_gp_regression()] the regression. A release refused by
#' the budget is discarded: nothing of it is returned.
#'
#' @param epsilon Total \eqn{\epsilon} of the budget (positive), or, for
#'   `spend()`, the \eqn{\epsilon} of the release being charged.
#' @param delta Total \eqn{\delta} of the budget, in \[0, 1) (for `spend()`:
#'   of the release).
#' @param composition `"gdp"`, `"basic"`, `"advanced"` or `"zcdp"`. With a
#'   budget `delta` of 0 every composition adds pure releases by basic
#'   composition: advanced composition needs a slack \eqn{\delta' > 0}, and
#'   GDP and zCDP gain only for Gaussian releases, which need a delta
#'   (200 releases of epsilon 0.004 spend 0.8 of a budget of (1, 0), and
#'   0.30 of (1, 1e-6) with `"advanced"`).
#' @param budget,object A `dpfda_budget`.
#' @param label A short description of the release for the ledger.
#' @param mu For a release made by a Gaussian mechanism, its
#'   \eqn{\Delta_2/\sigma}; `NULL` otherwise. **What is trusted:** the
#'   accountant cannot see a release charged by hand, so it trusts only the
#'   claimed (`epsilon`, `delta`) and the statement that the release is a
#'   Gaussian mechanism. A `mu` is accepted only when it implies the claim
#'   (its exact profile at `epsilon` is at most `delta`), and the ledger then
#'   records the largest \eqn{\mu} that the claimed (`epsilon`, `delta`)
#'   allows, never a smaller declared value: a tighter `mu` cannot buy more
#'   releases than its (`epsilon`, `delta`) pays for (with `mu = 0.001` and
#'   claims of (0.9, 1e-6), a budget of (1, 1e-5) refuses the second spend).
#'   A `mu` that does not imply the claim is ignored (basic composition).
#' @param ... Not used (in privacy_budget(), spend() and budget_spent(), a
#'   name that is not an option is an error that names it).
#' @return `privacy_budget()`: a `dpfda_budget`. `spend()`: the budget,
#'   invisibly. `budget_spent()`: a list with `epsilon` and `delta` (the
#'   composed total), `remaining_epsilon` (the budget's epsilon minus that
#'   total), `releases` (the number of releases charged), `composition` and
#'   `next_release`: a data frame with the largest `epsilon` (and its
#'   `delta`) of a further release the budget still accepts, one row for a
#'   pure-DP release (`noise = "pure"`, delta 0) and one for a Gaussian one
#'   (`"gaussian"`; delta: the budget's under `"gdp"` and `"zcdp"`, or what
#'   remains of it when a release at that delta fits with a larger epsilon,
#'   as always otherwise). Under GDP, zCDP and advanced composition
#'   releases compose to less than their sum, so a Gaussian release may
#'   spend more than `remaining_epsilon` (after Gaussian releases of
#'   (1, 1e-5) and (0.5, 1e-5), a GDP budget of (2, 1e-5) has 0.854 left
#'   for a pure release and 1.55 for a Gaussian one); `print()` and a refused
#'   release say so. What remains is printed rounded down (spending the
#'   printed amount is accepted). `print()` also says how many of the
#'   releases drew seeded noise ([dp_reproducible()]: reproducible, not
#'   private).
#'   `summary()`: the ledger, a data frame with one row per charge
#'   (`label`, `epsilon`, `delta`, `mu`, `rho`, `unit`: what the release
#'   protects, see below) and the composed running total `total_epsilon`,
#'   which holds at `total_delta` (the sum of the deltas under basic and
#'   advanced composition; under GDP and zCDP the budget's delta once a
#'   Gaussian release is charged, and before that the sum of the other
#'   releases' deltas, 0 while every release so far is pure). `mu`
#'   and `rho` are what a release records of itself: `mu` for Gaussian
#'   float noise, `rho` for discrete Gaussian noise (`noise = "exact"`);
#'   they are blank (`NA`) otherwise. Under `"zcdp"` a Gaussian row counts
#'   as \eqn{\mu^2/2} and a pure row as \eqn{\epsilon^2/2} (or by basic
#'   composition, whichever total is smaller), worked out at each total
#'   rather than stored, so a blank `rho` does not mean the row is left
#'   out. A release made of several private parts, one of them
#'   Gaussian, has one row per part (`"dp_mean (tau = \"auto\") [bound]"`,
#'   `"... [release]"`), charged together, so that the Gaussian part composes
#'   as such.
#'
#'   **Privacy unit.** The total protects what every release charged to the
#'   budget protects. Each charge records its release's unit (`unit` in the
#'   ledger: the name of the unit column of a person-level release, `unit =`,
#'   or `"one record"`: a curve, a point, a row), and `print()` states
#'   the budget's: "a whole id (`unit`, every release)" when all releases
#'   protect the same unit, otherwise one record (a person with several
#'   records is then protected as several). Charging a release whose unit
#'   differs from the earlier ones warns (class `dpfda_warning_privacy`).
#' @references Dwork, C., Rothblum, G. N. and Vadhan, S. (2010). Boosting and
#'   differential privacy. *FOCS*. Dong, J., Roth, A. and Su, W. J. (2022).
#'   Gaussian differential privacy. *JRSS B*. Bun, M. and Steinke, T. (2016).
#'   Concentrated differential privacy. *TCC*.
#' @examples
#' b <- privacy_budget(epsilon = 1, delta = 1e-5)
#' x <- seq(0, 1, length.out = 50)
#' r1 <- dp_gp_release(sin(2 * pi * x), x, kernel_gaussian(0.1), sensitivity = 0.1,
#'                     epsilon = 0.5, delta = 5e-6, budget = b)
#' r2 <- dp_gp_release(cos(2 * pi * x), x, kernel_gaussian(0.1), sensitivity = 0.1,
#'                     epsilon = 0.5, delta = 5e-6, budget = b)
#' b            # the two Gaussian releases compose to less than 1
#' summary(b)
#' try(spend(b, epsilon = 0.9, label = "one too many"))
#' @export
privacy_budget <- function(epsilon, delta = 0, composition = c("gdp", "basic", "advanced", "zcdp"), ...) {
  check_required()
  check_dot_names(dot_args(), character(), "privacy_budget")   # (a misspelt option gets a classed error)
  epsilon <- check_epsilon(epsilon)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  composition <- check_choice(composition, c("gdp", "basic", "advanced", "zcdp"), "composition")
  b <- new.env(parent = emptyenv())
  b$epsilon <- epsilon
  b$delta <- delta
  b$composition <- composition
  b$ledger <- empty_ledger()
  class(b) <- "dpfda_budget"
  b
}

empty_ledger <- function() {
  data.frame(label = character(), epsilon = numeric(), delta = numeric(), mu = numeric(),
             rho = numeric(), id = character(), unit = character(), charge = numeric(), seeded = logical(),
             stringsAsFactors = FALSE)
}

check_budget <- function(budget, arg = "budget", null_ok = TRUE) {
  if (is.null(budget) && null_ok) return(NULL)
  if (!inherits(budget, "dpfda_budget") || !is.environment(budget) ||
      !is.data.frame(budget$ledger)) {
    # (spend() and budget_spent() need a budget: "NULL or ..." offered what they then refused)
    arg_error(arg, if (null_ok) "NULL or a privacy_budget()" else "a privacy_budget()", budget)
  }
  budget
}

#' @rdname privacy_budget
#' @export
spend <- function(budget, epsilon, delta = 0, label = "manual", mu = NULL, ...) {
  check_dot_names(dot_args(), character(), "spend")
  check_required()
  budget <- check_budget(budget, null_ok = FALSE)
  epsilon <- check_epsilon(epsilon)
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  if (!is.character(label) || length(label) != 1L || is.na(label)) arg_error("label", "a string", label)
  if (!is.null(mu)) {
    mu <- check_number(mu, "mu", lower = 0, lower_open = TRUE, class = "dpfda_error_privacy")
    # A hand-declared mu is not trusted as a number: the accountant cannot see the release. It
    # is accepted only as the statement "this release is a Gaussian mechanism" and only when it
    # implies the claimed (epsilon, delta); the ledger then records the largest mu that the
    # claimed (epsilon, delta) allows (>= the declared one), never the declared value itself, so
    # a small declared mu cannot buy more than the (epsilon, delta) claim pays for.
    # (with the ledger's tolerance: a mu computed for exactly this (epsilon, delta) is over by rounding,
    # 3e-14 relative, and was dropped without a word, the charge counted by basic composition)
    if (gaussian_delta_unit(epsilon, mu) <= delta * (1 + 1e-9)) {
      mu <- gdp_mu_for(epsilon, delta)
    } else {
      # (with delta = 0 no mu implies the claim: it said "at most NULL here")
      fix <- if (delta > 0) {
        sprintf("give the mu of the release's noise (sensitivity / sigma), at most %s here.",
                format(gdp_mu_for(epsilon, delta), digits = 6))
      } else {
        "a Gaussian release has a delta above 0 at every epsilon: give its delta, or no mu for a pure-DP release."
      }
      dpfda_warn(sprintf(paste("`mu` = %s does not imply (epsilon = %s, delta = %s): a mu-GDP release at it has",
                               "delta %s at this epsilon. The charge is counted as a plain (epsilon, delta) release;",
                               "%s"),
                         format(mu, digits = 6), format(epsilon), format(delta),
                         format(gaussian_delta_unit(epsilon, mu), digits = 3), fix), "dpfda_warning_privacy")
      mu <- NULL
    }
  }
  charge_budget(budget, epsilon, delta, label, mu = mu, seeded = NA)   # (declared by hand: no noise drawn here)
}

# Largest mu such that a mu-GDP (Gaussian) mechanism is (epsilon, delta)-DP, i.e. the mu of the
# claimed (epsilon, delta) pair; the upper end of a bisection bracket of relative width 1e-13,
# so it is never below the exact value (the accountant errs towards more privacy loss).
gdp_mu_for <- function(epsilon, delta) {
  if (!(delta > 0)) return(NULL)
  bisect_edge(function(m) gaussian_delta_unit(epsilon, m) <= delta, 1e-13)[2L]
}

# The edge of a predicate that holds below it and fails above: c(lo, hi)
# with ok(lo) (or lo = 0), !ok(hi) and hi - lo <= rel_tol * hi, searched by
# doubling from 1 and bisection; NULL when it still holds beyond 1e12.
bisect_edge <- function(ok, rel_tol) {
  lo <- 0
  hi <- 1
  while (ok(hi)) {
    lo <- hi
    hi <- hi * 2
    if (hi > 1e12) return(NULL)
  }
  while (hi - lo > rel_tol * hi) {
    mid <- (lo + hi) / 2
    if (ok(mid)) lo <- mid else hi <- mid
  }
  c(lo, hi)
}

#' @rdname privacy_budget
#' @export
budget_spent <- function(budget, ...) {
  check_dot_names(dot_args(), character(), "budget_spent")
  check_required()
  budget <- check_budget(budget, null_ok = FALSE)
  tot <- ledger_total(budget$ledger, budget$delta, budget$composition)
  list(epsilon = tot$epsilon, delta = tot$delta,
       remaining_epsilon = max(0, budget$epsilon - tot$epsilon),
       releases = length(unique(budget$ledger$charge)), composition = budget$composition,
       next_release = budget_headroom(budget, tot))
}

# The largest further release the budget still accepts, of each kind: pure
# DP (delta 0) and Gaussian (its mu composes; delta: the budget's under GDP
# and zCDP, where the Gaussian releases' deltas are not summed, else what
# remains of it). Under GDP, zCDP and advanced composition the total grows
# slower than the sum, so this is not the budget minus what is spent: after
# (1, 1e-5) and (0.5, 1e-5) of a GDP budget of (2, 1e-5), 0.854 remains for
# a pure release but a Gaussian one of epsilon 1.55 still fits. The composed
# total is the smaller of the basic sum and the composition's own (see
# ledger_total()), so the headroom is the larger of the two: the basic one
# is a difference; GDP and zCDP solve for the largest total mu or rho once
# (their epsilon is monotone in it); advanced composition bisects on the
# release's epsilon. `tot`: the composed total of the ledger.
budget_headroom <- function(budget, tot) {
  led <- budget$ledger
  eps_b <- budget$epsilon
  comp <- budget$composition
  g_delta <- if (comp %in% c("gdp", "zcdp")) budget$delta else max(0, budget$delta - sum(led$delta))
  basic_rest <- max(0, eps_b - sum(led$epsilon))
  pure <- if (sum(led$delta) <= budget$delta) basic_rest else 0
  gauss <- if (g_delta > 0 && sum(led$delta) + g_delta <= budget$delta * (1 + 1e-12)) basic_rest else 0
  if (comp == "gdp") {
    p <- gdp_parts(led, budget$delta)
    if (p$any && p$slack > 0) pure <- max(pure, eps_b - tot$epsilon)
    if (p$slack > 0 && eps_b > p$other) {
      # the largest mu of all Gaussian releases together, then the new release's share of it
      mu_new2 <- gdp_mu_for(eps_b - p$other, p$slack)^2 - p$mu2
      if (mu_new2 > 0) gauss <- max(gauss, gdp_epsilon_unit(sqrt(mu_new2), g_delta))
    }
  } else if (comp == "zcdp") {
    # (a pure release added by the basic rule to the composed total: the room it leaves)
    pure <- max(pure, eps_b - tot$epsilon)
    for (pure_in in c(TRUE, FALSE)) {   # (the pure releases in the zCDP sum, or added after: ledger_total())
      p <- zcdp_parts(led, budget$delta, pure_in)
      if (p$slack > 0 && eps_b > p$other) {
        rho_new <- zcdp_rho_for(eps_b - p$other, p$slack) - p$rho
        if (rho_new > 0) {
          if (pure_in) pure <- max(pure, sqrt(2 * rho_new))
          gauss <- max(gauss, gdp_epsilon_unit(sqrt(2 * rho_new), g_delta))
        }
      }
    }
  } else if (comp == "advanced") {
    pure <- max(pure, headroom_bisect(budget, function(e) ledger_row("next", e, 0)))
  }
  # each side is the upper end of a bisection: step back until the ledger accepts it
  pure <- headroom_accepted(budget, pure, function(e) ledger_row("next", e, 0))
  gauss <- if (g_delta > 0) headroom_accepted(budget, gauss, function(e) {
    ledger_row("next", e, g_delta, mu = gdp_mu_for(e, g_delta))
  }) else 0
  # under advanced composition a Gaussian release at all the delta left leaves the composition no delta
  # of its own ("no Gaussian release fits", and then one of (0.2, 1e-6) was accepted): the best of a
  # release at a part of it
  if (comp == "advanced" && g_delta > 0) {
    best <- g_delta
    # (down to a billionth: after 572 releases of (0.01, 1e-6) on (1, 1e-3) none of a half, a tenth or a
    # hundredth of the 4.3e-4 left fit, and the budget said "no Gaussian release fits" while one of
    # (0.007, 1e-9) was accepted)
    for (f in c(0.5, 10^-seq(1, 9, by = 0.5))) {
      d_f <- f * g_delta
      e_f <- headroom_bisect(budget, function(e) ledger_row("next", e, d_f, mu = gdp_mu_for(e, d_f)))
      if (e_f > gauss * (1 + 1e-9)) {
        gauss <- e_f
        best <- d_f
      }
    }
    g_delta <- best
  }
  # under GDP and zCDP, a Gaussian release at the budget's delta may not fit while one at the delta that
  # the basic sum leaves does (a (0.3, 0) and a (0.5, 1e-7) release on a zCDP budget of (1, 1e-6): 0 at
  # delta 1e-6, but 0.2 at delta 9e-7): report the larger
  rest_delta <- budget$delta - sum(led$delta)
  if (comp %in% c("gdp", "zcdp") && rest_delta > 0 && rest_delta < g_delta && basic_rest > gauss) {
    gb <- headroom_accepted(budget, basic_rest, function(e) {
      ledger_row("next", e, rest_delta, mu = gdp_mu_for(e, rest_delta))
    })
    if (gb > gauss) {
      gauss <- gb
      g_delta <- rest_delta
    }
  }
  data.frame(noise = c("pure", "gaussian"), epsilon = c(pure, gauss), delta = c(0, g_delta), row.names = NULL)
}

# Whether the budget accepts the ledger row `row` now (as ledger_commit()).
budget_accepts <- function(budget, row) {
  row$charge <- 0
  row$seeded <- NA
  within_budget(budget, ledger_total(rbind(budget$ledger, row), budget$delta, budget$composition))
}

# Whether a composed total fits the budget (with room for floating-point sums).
within_budget <- function(budget, tot) {
  tot$epsilon <= budget$epsilon * (1 + 1e-9) && tot$delta <= budget$delta * (1 + 1e-9)
}

# e if the budget accepts it, else a little less (e is the end of a bisection),
# else (the ledger's rule differs from the solve, e.g. the basic sum chosen
# when its delta is too large) the bisection on the release's epsilon.
headroom_accepted <- function(budget, e, make) {
  if (!(e > 0)) return(0)
  for (k in 0:4) {
    if (budget_accepts(budget, make(e))) return(e)
    e <- e * (1 - 10^(2 * k - 9))
  }
  if (budget_accepts(budget, make(budget$epsilon * 1e-9))) headroom_bisect(budget, make) else 0
}

# The largest epsilon of the release made by `make` that the budget accepts
# (monotone), by bisection to 1e-7 of the budget's epsilon.
headroom_bisect <- function(budget, make) {
  hi <- budget$epsilon
  if (budget_accepts(budget, make(hi))) return(hi)
  lo <- 0
  while (hi - lo > 1e-7 * budget$epsilon) {
    mid <- (lo + hi) / 2
    if (budget_accepts(budget, make(mid))) lo <- mid else hi <- mid
  }
  lo
}

# The one place where mechanisms charge a budget (internal API). Charges
# (epsilon, delta) -- with mu for a Gaussian mechanism -- under `label`;
# refuses with class dpfda_error_budget when the composed total would exceed
# the budget. `id`: a charge with an id already in the ledger is skipped (a
# sub-step such as a released bandwidth reused by several releases). NULL
# budget: nothing to do.
charge_budget <- function(budget, epsilon, delta = 0, label = "release", mu = NULL, id = NULL,
                          rho = NULL, unit = NULL, seeded = NULL) {
  if (is.null(budget)) return(invisible(NULL))
  budget <- check_budget(budget)
  if (!is.null(id) && id %in% budget$ledger$id) {   # (charged once before: what was held may be said)
    give_private_warnings()
    return(invisible(budget))
  }
  row <- ledger_row(label, epsilon, delta, mu, rho, id, unit)
  if (!is.null(seeded)) row$seeded <- seeded   # (else ledger_commit() reads the noise source)
  ledger_commit(budget, row)
}

# One ledger row. mu (a Gaussian mechanism's profile) and rho (zCDP, e.g. the
# discrete Gaussian) are kept only when they imply the claimed (epsilon,
# delta): the accountant never trusts a profile looser than the claim.
ledger_row <- function(label, epsilon, delta = 0, mu = NULL, rho = NULL, id = NULL, unit = NULL) {
  if (!(is.numeric(epsilon) && length(epsilon) == 1L && isTRUE(epsilon > 0) && is.numeric(delta) &&
        length(delta) == 1L && isTRUE(delta >= 0) && isTRUE(delta < 1))) {
    dpfda_abort(sprintf("Internal accounting error: \"%s\" charges (epsilon = %s, delta = %s); nothing was charged.",
                        label, format(epsilon), format(delta)), class = "dpfda_error_internal")
  }
  m <- NA_real_
  if (!is.null(mu) && is.finite(mu) && mu > 0 &&
      gaussian_delta_unit(epsilon, mu) <= delta * (1 + 1e-9)) m <- mu
  r <- NA_real_
  if (!is.null(rho) && is.finite(rho) && rho > 0 &&
      zcdp_delta_unit(rho, epsilon) <= delta * (1 + 1e-9)) r <- rho
  data.frame(label = label, epsilon = epsilon, delta = delta, mu = m, rho = r,
             id = if (is.null(id)) NA_character_ else id,
             unit = if (is.null(unit) || is.na(unit)) NA_character_ else as.character(unit), stringsAsFactors = FALSE)
}

# The privacy unit of the ledger's releases: NA for one record (a curve, a point, a row: each
# release's own), or the name of the unit column of person-level releases (`unit =`).
ledger_units <- function(ledger) if (is.null(ledger$unit)) rep(NA_character_, nrow(ledger)) else ledger$unit

# A budget's total holds for a whole unit only if every release charged to it protects that unit:
# one release of records (or of another unit) and the total holds for one record. Said when a
# charge mixes them (class dpfda_warning_privacy), and in the budget's print.
warn_mixed_units <- function(ledger, rows) {
  old <- unique(ledger_units(ledger))
  new <- unique(ledger_units(rows))
  if (!length(old) || identical(old, new)) return(invisible())
  name <- function(u) if (is.na(u)) "one record" else sprintf("a whole %s (`unit`)", u)
  dpfda_warn(sprintf(paste("This release protects %s, while earlier releases charged to this budget protect %s:",
                           "the budget's total now holds only for %s. Give every release the same `unit =`",
                           "for a person-level total."), name(new[1L]), paste(vapply(old, name, ""), collapse = " and "),
                     if (anyNA(c(old, new))) "one record (a person with several is protected as several)" else
                       "what all of them protect"),
             class = "dpfda_warning_privacy")
}

# The print's line on the privacy unit of the whole budget.
budget_unit_text <- function(ledger) {
  u <- ledger_units(ledger)
  if (!length(u)) return("")
  if (!anyNA(u) && length(unique(u)) == 1L) return(sprintf("privacy unit: a whole %s (`unit`, every release)", u[1L]))
  if (all(is.na(u))) return("privacy unit: one record (curve, point or row) of each release's data")
  if (!anyNA(u)) {   # (every charge protects a unit, under different names: it said "the others one record")
    return(sprintf(paste("privacy unit: one record -- every charge protects a whole unit, but they are named",
                         "differently (%s): the total holds for a person only if these are the same units"),
                   paste(unique(u), collapse = ", ")))
  }
  sprintf(paste("privacy unit: one record -- %d of %d charges protect a whole unit (%s), the others one",
                "record, so the total holds for one record; a person with several is protected as several"),
          sum(!is.na(u)), length(u), paste(unique(u[!is.na(u)]), collapse = ", "))
}

# Add `rows` to the ledger all together or not at all: refused (class
# dpfda_error_budget, saying what remains) when the composed total would
# exceed the budget.
ledger_commit <- function(budget, rows) {
  if (isTRUE(audit_state$active)) return(invisible(budget))   # (the runs of dp_audit(): R/audit.R)
  # `charge`: the entries of one release share a number (a release may charge several parts)
  rows$charge <- if (nrow(budget$ledger)) max(budget$ledger$charge) + 1 else 1
  if (is.null(budget$ledger$unit)) budget$ledger$unit <- rep(NA_character_, nrow(budget$ledger))
  if (is.null(budget$ledger$seeded)) budget$ledger$seeded <- rep(NA, nrow(budget$ledger))
  # whether the release's noise was seeded (dp_reproducible(): reproducible, NOT private), which a
  # ledger of such releases did not say
  if (is.null(rows$seeded)) rows$seeded <- identical(dp_rng(), "seeded")
  new <- rbind(budget$ledger, rows)
  tot <- ledger_total(new, budget$delta, budget$composition)
  if (!within_budget(budget, tot)) {
    before <- ledger_total(budget$ledger, budget$delta, budget$composition)
    label <- sub(" \\[[^]]*\\]$", "", rows$label[1L])   # (the parts of one release: "label [part]")
    dpfda_abort(sprintf(paste0("The privacy budget would be exceeded: \"%s\" asks for (epsilon = %s, ",
                               "delta = %s) but (epsilon = %s, delta = %s) of the budget ",
                               "(epsilon = %s, delta = %s, %s composition) is already spent, so %s ",
                               "remains%s; the release is refused and nothing is returned."),
                        label, format(sum(rows$epsilon), digits = 4), format(sum(rows$delta), digits = 4),
                        format(before$epsilon, digits = 4), format(before$delta, digits = 4),
                        format(budget$epsilon, digits = 4), format(budget$delta, digits = 4),
                        budget$composition, budget_remaining_text(budget, before),
                        paste0(if (nzchar(nx <- budget_next_text(budget, before))) paste0(" (", nx, ")") else "",
                               if (sum(rows$delta) > budget$delta) {
                                 sprintf("; its delta alone is more than the budget's delta = %s%s",
                                         format(budget$delta, digits = 4),
                                         if (budget$composition %in% c("gdp", "zcdp")) "" else
                                           " (GDP or zCDP composition can count a Gaussian release at the budget's delta)")
                               } else "", exact_gdp_note(budget, new))),
                class = c("dpfda_error_budget", "dpfda_error_privacy"), arg = "budget")
  }
  warn_mixed_units(budget$ledger, rows)
  budget$ledger <- new
  give_private_warnings()   # (charged: the warnings held until now, R/release-driver.R)
  invisible(budget)
}

# A GDP budget counts an exact-noise Gaussian release (a discrete Gaussian: rho-zCDP, no exact
# mu-GDP profile) by basic composition, so its refusals came early ("no Gaussian release fits"
# after one exact release of (1, 1e-5) in a (2, 1e-5) budget): say what counts it by its rho.
exact_gdp_note <- function(budget, ledger) {
  if (!identical(budget$composition, "gdp") || is.null(ledger$rho)) return("")
  exact <- !is.na(ledger$rho) & is.na(ledger$mu %||% NA) & ledger$delta > 0
  if (!any(exact)) return("")
  paste("; exact-noise Gaussian releases (noise = \"exact\") have no GDP profile and count by basic",
        "composition in a GDP budget: a zCDP budget, privacy_budget(..., composition = \"zcdp\"), counts them",
        "by their rho")
}

# What remains of a budget, in words: (epsilon, delta) for basic and advanced
# composition; for GDP and zCDP the spent epsilon is that of the composed
# releases at the budget's delta, so what remains is epsilon at that delta.
budget_remaining_text <- function(budget, spent) {
  # (rounded down, as the next release's headroom: "remaining epsilon = 0.569" was printed for
  # 0.56897, and spending 0.569 was refused)
  eps <- format_down(max(0, budget$epsilon - spent$epsilon))
  if (budget$composition %in% c("gdp", "zcdp") && budget$delta > 0) {
    sprintf("epsilon = %s (at the budget's delta = %s)", eps, format(budget$delta, digits = 4))
  } else {
    sprintf("(epsilon = %s, delta = %s)", eps, format_down(max(0, budget$delta - spent$delta)))
  }
}

# The largest next release in words, when it is not the difference above (GDP,
# zCDP and advanced composition are sublinear); "" otherwise. Rounded down.
budget_next_text <- function(budget, spent) {
  if (budget$composition == "basic" || !nrow(budget$ledger)) return("")
  nx <- spent$next_release %||% budget_headroom(budget, spent)
  rest <- max(0, budget$epsilon - spent$epsilon)
  # (said also when the Gaussian row is at less than the budget's delta, which the remaining text states)
  other_delta <- budget$composition %in% c("gdp", "zcdp") && nx$epsilon[2L] > 0 && nx$delta[2L] < budget$delta
  if (!any(nx$epsilon > 0) || (all(abs(nx$epsilon - rest) <= 1e-6 * budget$epsilon) && !other_delta)) return("")
  # (a budget with delta = 0 admits no Gaussian release: "up to (epsilon 0, delta 0) if Gaussian" said nothing)
  if (!(nx$epsilon[2L] > 0) && !(budget$delta > 0)) {
    if (abs(nx$epsilon[1L] - rest) <= 1e-6 * budget$epsilon) return("")   # (the remaining epsilon says it)
    return(sprintf("the next release may spend up to epsilon %s (pure DP: the budget's delta is 0)",
                   format_down(nx$epsilon[1L])))
  }
  # (advanced composition near its end: "(epsilon 0, delta 7e-06) if Gaussian" offered no release)
  if (!(nx$epsilon[2L] > 0)) {
    return(sprintf("the next release may spend up to epsilon %s if pure-DP; no Gaussian release fits",
                   format_down(nx$epsilon[1L])))
  }
  sprintf("the next release may spend up to epsilon %s if pure-DP, or up to (epsilon %s, delta %s) if Gaussian",
          format_down(nx$epsilon[1L]), format_down(nx$epsilon[2L]), format_down(nx$delta[2L]))
}

# x with `digits` significant digits, rounded towards 0 (a displayed headroom must fit).
format_down <- function(x, digits = 4) {
  if (!(x > 0)) return("0")
  p <- 10^(digits - 1 - floor(log10(x)))
  format(floor(x * p * (1 + 1e-12)) / p, digits = digits)
}

# mu = (L2 sensitivity) / sigma for releases with Gaussian noise, else NULL.
release_mu <- function(release, sensitivity = NULL) {
  if (!is.numeric(release$delta) || !(release$delta > 0)) return(NULL)
  if (isTRUE(release$noise_exact)) return(NULL)   # discrete Gaussian: zCDP, not exactly GDP
  gauss <- identical(release$noise_type, "gaussian") || inherits(release, "dpfda_gp_release") ||
    inherits(release, "dpfda_gpreg_release")
  if (!gauss) return(NULL)
  s <- if (is.null(sensitivity)) {
    if (!is.null(release$lattice_sensitivity)) release$lattice_sensitivity else release$sensitivity
  } else sensitivity
  if (length(s) != 1L || length(release$noise_scale) != 1L || !(release$noise_scale > 0)) return(NULL)
  s / release$noise_scale
}

# Composed (epsilon, delta) of a ledger under a budget of total delta.
ledger_total <- function(ledger, delta_budget, composition) {
  eps <- ledger$epsilon
  del <- ledger$delta
  basic <- list(epsilon = sum(eps), delta = sum(del))
  if (!length(eps) || composition == "basic") return(basic)
  # the composition's total where it is valid and smaller, or where the basic sum's delta does not fit
  # the budget (a Gaussian (0.5, 1e-3) release of mu 0.30 on a GDP budget of (2, 1e-5) is 0.79 at
  # delta 1e-5: it was refused because the basic sum, smaller in epsilon, was taken with its delta)
  basic_fits <- basic$delta <= delta_budget * (1 + 1e-12)
  best <- function(cand) {
    if (is.finite(cand$epsilon) && cand$delta <= delta_budget * (1 + 1e-12) &&
        (cand$epsilon < basic$epsilon || !basic_fits)) cand else basic
  }
  if (composition == "advanced") {
    slack <- delta_budget - sum(del)
    if (!(slack > 0)) return(basic)
    adv <- sqrt(2 * log(1 / slack) * sum(eps^2)) + sum(eps * expm1(eps))
    return(best(list(epsilon = adv, delta = delta_budget)))
  }
  if (composition == "gdp") {
    p <- gdp_parts(ledger, delta_budget)
    if (!p$any || !(p$slack > 0)) return(basic)
    return(best(list(epsilon = gdp_epsilon_unit(sqrt(p$mu2), p$slack) + p$other, delta = delta_budget)))
  }
  # pure epsilon-DP releases either join the zCDP sum (as epsilon^2 / 2) or are added by the basic
  # rule to the converted Gaussian part, whichever is smaller: three Gaussian (0.3, 1e-6) releases
  # and a pure 0.3 on a budget of (1, 1e-5) are 0.512 + 0.3 = 0.812 the second way, but the first
  # way alone refused the pure 0.3 while the print said 0.488 remained
  cand <- lapply(c(TRUE, FALSE), function(pure_in) {
    p <- zcdp_parts(ledger, delta_budget, pure_in)
    if (!p$any || !(p$slack > 0)) return(basic)
    best(list(epsilon = zcdp_epsilon_unit(p$rho, p$slack) + p$other, delta = delta_budget))
  })
  cand[[which.min(vapply(cand, function(t) t$epsilon, 1))]]
}

# A ledger under GDP composition: the Gaussian releases (`any`; their mu^2
# add up to `mu2`), the others' epsilons (added, `other`) and the delta left
# for the Gaussian part (`slack`: the budget's minus the others').
gdp_parts <- function(ledger, delta_budget) {
  g <- !is.na(ledger$mu)
  list(any = any(g), mu2 = sum(ledger$mu[g]^2), other = sum(ledger$epsilon[!g]),
       slack = delta_budget - sum(ledger$delta[!g]))
}

# A ledger under zCDP: Gaussian mu^2 / 2, recorded rho and pure epsilon-DP
# epsilon^2 / 2 add up to `rho`; the rest compose by the basic rule
# (`other`, and `slack` the delta left to the zCDP part).
zcdp_parts <- function(ledger, delta_budget, pure_in = TRUE) {
  g <- !is.na(ledger$mu)
  hr <- !is.na(ledger$rho)
  z <- g | hr | (pure_in & ledger$delta == 0)
  list(any = any(z), rho = sum(ifelse(g, ledger$mu^2 / 2, ifelse(hr, ledger$rho, ledger$epsilon^2 / 2))[z]),
       other = sum(ledger$epsilon[!z]), slack = delta_budget - sum(ledger$delta[!z]))
}

#' @export
print.dpfda_budget <- function(x, ...) {
  s <- budget_spent(x)
  cat(sprintf("<dpfda_budget> (epsilon = %s, delta = %s), %s composition\n",
              format(x$epsilon, digits = 4), format(x$delta, digits = 4), x$composition))
  cat(sprintf("  spent: epsilon %s, delta %s over %d release%s; remaining %s\n",
              format(s$epsilon, digits = 4), format(s$delta, digits = 4), s$releases,
              if (s$releases == 1L) "" else "s", budget_remaining_text(x, s)))
  nx <- budget_next_text(x, s)
  if (nzchar(nx)) cat(sprintf("  %s%s\n", toupper(substr(nx, 1, 1)), substring(nx, 2)))
  if (x$composition %in% c("gdp", "zcdp") && x$delta > 0 && s$releases > 0) {
    cat(sprintf(paste("  (%s composition: the releases compose into one %s guarantee, stated as the",
                      "epsilon it gives at the budget's delta = %s; that delta is not summed over releases)\n"),
                x$composition, if (x$composition == "gdp") "mu-GDP" else "rho-zCDP", format(x$delta, digits = 4)))
  }
  ut <- budget_unit_text(x$ledger)
  if (nzchar(ut)) cat(sprintf("  %s\n", ut))
  sd <- x$ledger$seeded %in% TRUE
  if (any(sd)) {
    k <- length(unique(x$ledger$charge[sd]))
    cat(sprintf("  %d of the %d releases drew seeded noise (dp_reproducible()): reproducible, NOT private\n",
                k, length(unique(x$ledger$charge))))
  }
  invisible(x)
}

#' @rdname privacy_budget
#' @export
summary.dpfda_budget <- function(object, ...) {
  l <- object$ledger
  # the running total and the delta it is stated at (a sum under basic and advanced composition;
  # the budget's delta under GDP and zCDP): total_epsilon alone did not say which delta it holds at
  run <- vapply(seq_len(nrow(l)), function(i) {
    tot <- ledger_total(l[seq_len(i), , drop = FALSE], object$delta, object$composition)
    c(tot$epsilon, tot$delta)
  }, c(0, 0))
  out <- data.frame(label = l$label, epsilon = l$epsilon, delta = l$delta, mu = l$mu, rho = l$rho,
                    unit = ifelse(is.na(ledger_units(l)), "one record", ledger_units(l)),
                    total_epsilon = run[1L, ], total_delta = run[2L, ], stringsAsFactors = FALSE)
  structure(out, budget = c(epsilon = object$epsilon, delta = object$delta),
            composition = object$composition, class = c("summary.dpfda_budget", "data.frame"))
}

#' @rdname privacy_budget
#' @param x For `tidy()`, `glance()` and `as.data.frame()`: a `dpfda_budget`.
#' @details `tidy()` and `as.data.frame()` give the ledger of `summary()` as a
#'   plain data frame (for a report or a table); `glance()` one row: the budget
#'   (`epsilon`, `delta`, `composition`), what is spent (`spent_epsilon`,
#'   `spent_delta`, `releases`), `remaining_epsilon`, and the largest next
#'   release (`next_epsilon_pure`, `next_epsilon_gaussian` at
#'   `next_delta_gaussian`). Under advanced composition the Gaussian release
#'   is offered at a part of the delta left (a half, a tenth or a hundredth,
#'   whichever allows the largest epsilon): the composition needs some of
#'   that delta for itself, so at all of it no release would fit.
#' @export
tidy.dpfda_budget <- function(x, ...) {
  check_dot_names(list(...), character(), "tidy")
  out <- summary(check_budget(x, "x"))
  attributes(out)[c("budget", "composition")] <- NULL
  class(out) <- "data.frame"
  out
}

#' @rdname privacy_budget
#' @export
glance.dpfda_budget <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  s <- budget_spent(check_budget(x, "x"))
  nx <- s$next_release
  data.frame(epsilon = x$epsilon, delta = x$delta, composition = x$composition, spent_epsilon = s$epsilon,
             spent_delta = s$delta, releases = s$releases, remaining_epsilon = s$remaining_epsilon,
             next_epsilon_pure = nx$epsilon[nx$noise == "pure"], next_epsilon_gaussian = nx$epsilon[nx$noise == "gaussian"],
             next_delta_gaussian = nx$delta[nx$noise == "gaussian"], stringsAsFactors = FALSE)
}

#' @rdname privacy_budget
#' @param row.names,optional Unused (for compatibility with [as.data.frame()]).
#' @export
as.data.frame.dpfda_budget <- function(x, row.names = NULL, optional = FALSE, ...) tidy.dpfda_budget(x, ...)

#' @export
print.summary.dpfda_budget <- function(x, ...) {
  b <- attr(x, "budget")
  cat(sprintf("Privacy ledger: budget (epsilon = %s, delta = %s), %s composition\n",
              format(b[["epsilon"]], digits = 4), format(b[["delta"]], digits = 4),
              attr(x, "composition")))
  if (!nrow(x)) cat("  (nothing spent)\n") else print(as.data.frame(unclass(x)), digits = 4, row.names = FALSE)
  invisible(x)
}

# ---- composition theorems --------------------------------------------------

#' Composition theorems and conversions
#'
#' * `compose_epsilon()`: total \eqn{\epsilon} of releases with the given
#'   \eqn{\epsilon_i} (and \eqn{\delta_i}): basic composition
#'   \eqn{\sum_i\epsilon_i}, or advanced composition (Dwork, Rothblum and
#'   Vadhan 2010; heterogeneous form) \eqn{\sqrt{2\log(1/\delta')\sum_i
#'   \epsilon_i^2} + \sum_i \epsilon_i(e^{\epsilon_i}-1)}, valid at
#'   \eqn{\delta = \sum_i \delta_i + \delta'}. For \eqn{k} releases of the
#'   same \eqn{\epsilon_0} this is the theorem's
#'   \eqn{\sqrt{2k\log(1/\delta')}\epsilon_0 + k\epsilon_0(e^{\epsilon_0}-1)}.
#' * `gdp_delta()`: the exact privacy profile of \eqn{\mu}-Gaussian DP,
#'   \eqn{\delta(\epsilon) = \Phi(-\epsilon/\mu + \mu/2) - e^\epsilon
#'   \Phi(-\epsilon/\mu - \mu/2)}; `gdp_epsilon()` inverts it. \eqn{k}
#'   Gaussian mechanisms of \eqn{\mu_i} compose exactly to
#'   \eqn{\sqrt{\sum\mu_i^2}}-GDP (so \eqn{k}-fold \eqn{\mu}-GDP is
#'   \eqn{\sqrt k \mu}-GDP).
#' * `zcdp_epsilon()` / `zcdp_delta()`: conversion of \eqn{\rho}-zCDP to
#'   \eqn{(\epsilon,\delta)}-DP by the bound of Canonne, Kamath and Steinke
#'   (2020, Corollary 13), \eqn{\delta = \inf_{\alpha>1}
#'   \frac{e^{(\alpha-1)(\alpha\rho-\epsilon)}}{\alpha-1}
#'   (1-1/\alpha)^\alpha}. The Gaussian mechanism with L2 sensitivity
#'   \eqn{\Delta} and standard deviation \eqn{\sigma} is
#'   \eqn{\Delta^2/(2\sigma^2)}-zCDP, and \eqn{\rho}'s add under composition.
#'
#' @param epsilon Per-release \eqn{\epsilon_i} (`compose_epsilon()`), or the
#'   \eqn{\epsilon} at which to evaluate \eqn{\delta}.
#' @param delta Per-release \eqn{\delta_i} (recycled), or the target
#'   \eqn{\delta} of a conversion.
#' @param method `"basic"` or `"advanced"`. `"advanced"` returns the
#'   theorem's bound as it is, which can exceed the basic sum (one release
#'   of epsilon 1 with \eqn{\delta' = 10^{-5}}: 6.52; a hundred of epsilon
#'   2: 1383 against 200): both bounds hold, so report the smaller (a
#'   [privacy_budget()] with `"advanced"` takes the smaller at every total).
#' @param delta_slack The extra \eqn{\delta'} of advanced composition.
#' @param mu The GDP parameter \eqn{\mu > 0} (at most \eqn{10^6}); a vector
#'   for `gdp_epsilon()` (one \eqn{\epsilon} per value).
#' @param rho The zCDP parameter \eqn{\rho > 0} (at most \eqn{10^6}); a
#'   vector for `zcdp_epsilon()`.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return `compose_epsilon()`: a list with `epsilon` and `delta`;
#'   `gdp_delta()`, `zcdp_delta()`: \eqn{\delta}; `gdp_epsilon()`,
#'   `zcdp_epsilon()`: the smallest \eqn{\epsilon} (up to \eqn{10^{-10}}
#'   relative, rounded up) with that \eqn{\delta}, one per \eqn{\mu} or
#'   \eqn{\rho} (the deltas and epsilons are vectorised over `epsilon`).
#' @examples
#' # 10 releases at epsilon 0.1: basic 1, advanced with delta' = 1e-6
#' compose_epsilon(rep(0.1, 10), method = "advanced", delta_slack = 1e-6)
#' gdp_delta(1, mu = 1)
#' gdp_epsilon(mu = sqrt(4) * 0.5, delta = 1e-5)   # four 0.5-GDP releases
#' zcdp_epsilon(rho = 1 / 32, delta = 1e-3)         # Gaussian sigma = 4, sensitivity 1
#' @export
compose_epsilon <- function(epsilon, delta = 0, method = c("basic", "advanced"), delta_slack = NULL, ...) {
  check_dot_names(dot_args(), character(), "compose_epsilon")
  check_required()
  ok <- is.numeric(epsilon) && is.null(dim(epsilon)) && length(epsilon) >= 1L &&
    all(is.finite(epsilon)) && all(epsilon > 0)
  if (!isTRUE(ok)) arg_error("epsilon", "a vector of positive numbers", epsilon, "dpfda_error_privacy")
  ok <- is.numeric(delta) && is.null(dim(delta)) && length(delta) %in% c(1L, length(epsilon)) &&
    all(is.finite(delta)) && all(delta >= 0 & delta < 1)
  if (!isTRUE(ok)) {
    arg_error("delta", "numbers in [0, 1), one or one per epsilon", delta, "dpfda_error_privacy")
  }
  method <- check_choice(method, c("basic", "advanced"), "method")
  delta <- rep_len(delta, length(epsilon))
  if (method == "basic") {
    if (!is.null(delta_slack)) arg_error("delta_slack", "NULL for method = \"basic\"", delta_slack)
    tot <- sum(epsilon)
    if (!is.finite(tot)) {
      dpfda_abort("The sum of the epsilons overflows.", class = "dpfda_error_numeric", arg = "epsilon")
    }
    return(list(epsilon = tot, delta = min(1, sum(delta))))
  }
  delta_slack <- check_delta(delta_slack, "delta_slack")
  adv <- sqrt(2 * log(1 / delta_slack) * sum(epsilon^2)) + sum(epsilon * expm1(epsilon))
  if (!is.finite(adv)) {
    dpfda_abort("Advanced composition overflows for these epsilons.", class = "dpfda_error_numeric",
                arg = "epsilon")
  }
  list(epsilon = adv, delta = min(1, sum(delta) + delta_slack))
}

#' @rdname compose_epsilon
#' @export
gdp_delta <- function(epsilon, mu, ...) {
  check_dot_names(dot_args(), character(), "gdp_delta")
  check_required()
  ok <- is.numeric(epsilon) && length(epsilon) >= 1L && all(is.finite(epsilon)) && all(epsilon >= 0)
  if (!isTRUE(ok)) arg_error("epsilon", "non-negative finite numbers", epsilon, "dpfda_error_privacy")
  mu <- check_number(mu, "mu", lower = 0, lower_open = TRUE, upper = 1e6, class = "dpfda_error_privacy")
  gaussian_delta_unit(epsilon, mu)
}

#' @rdname compose_epsilon
#' @export
gdp_epsilon <- function(mu, delta, ...) {
  check_dot_names(dot_args(), character(), "gdp_epsilon")
  check_required()
  # (vectorised over mu, as gdp_delta() is over epsilon: a curve of epsilon against mu in one call)
  mu <- check_positive_vector(mu, "mu")
  delta <- check_delta(delta)
  vapply(mu, function(m) finite_epsilon(gdp_epsilon_unit(m, delta)), 0)
}

# Positive finite numbers at most 1e6 (mu of GDP, rho of zCDP), one or more.
check_positive_vector <- function(x, arg) {
  ok <- is.numeric(x) && is.null(dim(x)) && length(x) >= 1L && all(is.finite(x)) && all(x > 0) && all(x <= 1e6)
  if (!isTRUE(ok)) arg_error(arg, "positive numbers at most 1e6", x, "dpfda_error_privacy")
  as.double(x)
}

#' @rdname compose_epsilon
#' @export
zcdp_delta <- function(epsilon, rho, ...) {
  check_dot_names(dot_args(), character(), "zcdp_delta")
  check_required()
  ok <- is.numeric(epsilon) && length(epsilon) >= 1L && all(is.finite(epsilon)) && all(epsilon >= 0)
  if (!isTRUE(ok)) arg_error("epsilon", "non-negative finite numbers", epsilon, "dpfda_error_privacy")
  rho <- check_number(rho, "rho", lower = 0, lower_open = TRUE, upper = 1e6, class = "dpfda_error_privacy")
  if (length(epsilon) == 1L) zcdp_delta_unit(rho, epsilon) else zcdp_delta_many(rho, epsilon)
}

#' @rdname compose_epsilon
#' @export
zcdp_epsilon <- function(rho, delta, ...) {
  check_dot_names(dot_args(), character(), "zcdp_epsilon")
  check_required()
  rho <- check_positive_vector(rho, "rho")   # (vectorised over rho, as zcdp_delta() is over epsilon)
  delta <- check_delta(delta)
  vapply(rho, function(r) finite_epsilon(zcdp_epsilon_unit(r, delta)), 0)
}

finite_epsilon <- function(e) {
  if (!is.finite(e)) {
    dpfda_abort("No finite epsilon achieves this delta.", class = "dpfda_error_numeric", arg = "delta")
  }
  e
}

# Smallest epsilon >= 0 with delta_fun(epsilon) <= delta (delta_fun decreasing),
# by bisection, returning the upper end of the bracket.
epsilon_for_delta <- function(delta_fun, delta, rel_tol = 1e-10) {
  if (delta_fun(0) <= delta) return(0)
  hi <- 1
  while (delta_fun(hi) > delta) {
    hi <- hi * 2
    if (hi > 1e12) return(Inf)
  }
  lo <- 0
  while (hi - lo > rel_tol * hi) {
    mid <- (lo + hi) / 2
    if (delta_fun(mid) <= delta) hi <- mid else lo <- mid
  }
  hi
}

gdp_epsilon_unit <- function(mu, delta) epsilon_for_delta(function(e) gaussian_delta_unit(e, mu), delta)

# CKS20 Corollary 13, in log space, minimised over alpha > 1 (alpha = 1 +
# exp(la), la in [-30, 30]). The objective is an upper bound on log delta at
# every la, so an imprecise minimum only overstates delta.
zcdp_log_delta_objective <- function(la, rho, e) {
  a <- 1 + exp(la)
  v <- (a - 1) * (a * rho - e) - log(a - 1) + a * log1p(-1 / a)
  v[is.nan(v)] <- 1e308                       # huge epsilon: delta underflows to 0
  pmax(-1e308, pmin(1e308, v))
}

# One epsilon (the calibrations call this many times): Brent's method.
zcdp_delta_unit <- function(rho, epsilon) {
  f <- function(la) {   # the scalar form of zcdp_log_delta_objective(), without vector overhead
    a <- 1 + exp(la)
    v <- (a - 1) * (a * rho - epsilon) - log(a - 1) + a * log1p(-1 / a)
    if (is.nan(v)) 1e308 else max(-1e308, min(1e308, v))
  }
  opt <- stats::optimize(f, c(-30, 30), tol = 1e-12)
  min(1, exp(min(opt$objective, f(-30), f(30))))
}

# Many epsilons (zcdp_delta() on a vector): golden-section search vectorised
# over epsilon, one pass of vector arithmetic per step; 80 steps shrink the
# bracket to 60 * 0.618^80 < 1e-15. Agrees with zcdp_delta_unit() to 1e-13.
zcdp_delta_many <- function(rho, epsilon) {
  f <- function(la, e) zcdp_log_delta_objective(la, rho, e)
  n <- length(epsilon)
  gr <- (sqrt(5) - 1) / 2
  lo <- rep(-30, n)
  hi <- rep(30, n)
  c1 <- hi - gr * (hi - lo)
  d1 <- lo + gr * (hi - lo)
  fc <- f(c1, epsilon)
  fd <- f(d1, epsilon)
  for (i in seq_len(80L)) {
    l <- fc < fd                               # the minimum lies in [lo, d1]
    r <- !l
    hi[l] <- d1[l]; d1[l] <- c1[l]; fd[l] <- fc[l]
    c1[l] <- hi[l] - gr * (hi[l] - lo[l]); fc[l] <- f(c1[l], epsilon[l])
    lo[r] <- c1[r]; c1[r] <- d1[r]; fc[r] <- fd[r]
    d1[r] <- lo[r] + gr * (hi[r] - lo[r]); fd[r] <- f(d1[r], epsilon[r])
  }
  pmin(1, exp(pmin(fc, fd, f(rep(-30, n), epsilon), f(rep(30, n), epsilon))))
}

# The largest rho whose zCDP guarantee is (epsilon, delta)-DP (rho -> delta at
# epsilon is increasing), the lower end of a bisection: never above it.
zcdp_rho_for <- function(epsilon, delta) {
  bisect_edge(function(r) zcdp_delta_unit(r, epsilon) <= delta, 1e-10)[1L] %||% Inf
}

zcdp_epsilon_unit <- function(rho, delta) {
  # the closed form rho + 2 sqrt(rho log(1/delta)) is an upper bound: search below it
  epsilon_for_delta(function(e) zcdp_delta_unit(rho, e), delta)
}

# Ids for sub-step objects (released bandwidths, selections), so a budget
# charges each of them once however often it is reused. A counter, never R's
# random stream (drawing would shift seeded releases).
acct_state <- new.env(parent = emptyenv())
acct_state$counter <- 0
new_release_id <- function(prefix) {
  acct_state$counter <- acct_state$counter + 1
  sprintf("%s-%d-%s", prefix, acct_state$counter, format(as.numeric(Sys.time()) * 1e6, scientific = FALSE))
}

charge_bandwidth <- function(budget, bw) {
  if (!is.numeric(bw$epsilon) || !is.numeric(bw$delta)) return(invisible(NULL))
  charge_budget(budget, bw$epsilon, bw$delta, "dp_bandwidth (used by dp_kde)", id = bw$release_id, unit = bw$unit)
}
