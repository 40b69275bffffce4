# dp_accuracy(solve_for = "tau"): the largest public bound tau whose total error (noise and the
# smoothing-bias bound) meets a target.
#
# For every mechanism with a tau the sensitivity, hence the noise, and the smoothing-bias bound are
# proportional to tau (to tau^2 for "cov", whose summands are outer products), and the default tuning
# does not depend on tau's scale (it is set on the unit-measure domain from n, epsilon and the
# kernel): the total error is tau^k times its value at tau = 1, and the bound for a target is
# closed-form. The proportionality is checked at 2 tau on every call; should a tuning ever depend on
# tau, a bisection over tau takes over (each step rebuilds the settings).

# `st`: the settings at the given tau; `err_at(s)`: the total error of settings s; `settings_at(tau)`:
# the settings at another tau. Returns the largest tau with err <= target (to 1e-4 relative).
accuracy_tau_needed <- function(st, err_at, target, settings_at) {
  tau0 <- st$tau
  if (!(is.numeric(tau0) && length(tau0) == 1L && is.finite(tau0))) {
    dpfda_abort(sprintf(paste("Mechanism \"%s\" has no bound tau to solve for (a density's or a function's",
                              "sensitivity is given, not a bound on each curve); use solve_for = \"n\" or",
                              "\"epsilon\"."), st$mechanism), arg = "solve_for")
  }
  k <- if (identical(st$mechanism, "cov")) 2 else 1
  e0 <- err_at(st)
  e2 <- err_at(settings_at(2 * tau0))
  if (!(is.finite(e0) && e0 > 0)) {
    dpfda_abort("The planned error is not a positive number at this tau: no bound can be solved for.",
                class = "dpfda_error_numeric", arg = "tau")
  }
  if (is.finite(e2) && abs(e2 / e0 / 2^k - 1) < 1e-8) return(tau0 * (target / e0)^(1 / k))
  # (not proportional: bisection on 1 / tau, the error falling with it)
  1 / solve_monotone(function(v) err_at(settings_at(1 / v)), target, start = 1 / tau0, lower = 1e-300,
                     upper = 1e300, integer = FALSE)
}
