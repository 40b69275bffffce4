# Bad-argument entries for accounting, auditing and exact noise (R/budget.R,
# R/audit.R, R/noise-exact.R), merged into test-bad-arguments.R. Budgets are
# environments, so they are passed as quoted calls (built in the child).

bad_arg_table_acct <- function() {
  list(
    privacy_budget = list(list(epsilon = 1, delta = 1e-5, composition = "gdp")),
    spend = list(list(budget = quote(privacy_budget(100, 1e-3, "basic")), epsilon = 0.1, delta = 0,
                      label = "manual", mu = NULL)),
    budget_spent = list(list(budget = quote(privacy_budget(1, 1e-5)))),
    compose_epsilon = list(
      advanced = list(epsilon = c(0.1, 0.2), delta = 1e-6, method = "advanced", delta_slack = 1e-6),
      basic = list(epsilon = c(0.1, 0.2), delta = c(0, 1e-6), method = "basic", delta_slack = NULL)
    ),
    gdp_delta = list(list(epsilon = c(0.5, 1), mu = 1)),
    gdp_epsilon = list(list(mu = 1, delta = 1e-5)),
    zcdp_delta = list(list(epsilon = c(0.5, 1), rho = 0.1)),
    zcdp_epsilon = list(list(rho = 0.1, delta = 1e-5)),
    dp_audit = list(list(mechanism = function(d) d + rlaplace(1, 1), data = 0, neighbour = 1, n = 100,
                         epsilon = 1, delta = 0, projection = "identity", confidence = 0.95, seed = 1,
                         thresholds = 8, digits = NULL, genuine = 0.1))
  )
}

bad_arg_allowed_acct <- function() {
  huge <- c("1e10", "2^31", "double.xmax")
  mechs <- c("dp_bernstein", "dp_svm", "dp_krr", "dp_gp_release", "dp_kde", "dp_gp_regression",
             "dp_bandwidth", "dp_bin_regression", "dp_gp_select", "dp_sparse_gp_regression", "dp_select",
             "dp_online", "dp_mean", "dp_cov", "pcv_select", "dp_erm", "dp_kme")
  rbind(
    # budget = NULL is the default: no accounting
    do.call(rbind, lapply(mechs, allow, args = "budget", values = "NULL")),
    # any positive epsilon is a valid budget / release; delta = 0 is pure DP
    allow("privacy_budget", "epsilon", huge),
    allow("privacy_budget", "delta", "0"),
    # spend(): huge epsilons are refused by the budget (a classed error), any string is a label
    allow("spend", "epsilon", huge),
    allow("spend", "label", "a string"),
    allow("spend", "delta", "0"),
    allow("spend", "mu", "NULL"),
    # more releases (a longer vector) are valid; delta_slack = NULL is right for basic composition
    allow("compose_epsilon", c("epsilon", "delta"), "wrong length"),
    allow("gdp_delta", "epsilon", "wrong length"),
    allow("zcdp_delta", "epsilon", "wrong length"),
    allow("gdp_epsilon", "mu", "wrong length"),     # (vectorised over mu: one epsilon per value)
    allow("zcdp_epsilon", "rho", "wrong length"),   # (and over rho)
    allow("compose_epsilon", "delta_slack", "NULL"),
    allow("spend", "mu", c("1e10", "2^31", "double.xmax")),
    allow("compose_epsilon", "epsilon", huge),
    allow("compose_epsilon", "delta", "0"),
    allow("gdp_delta", "epsilon", c("0", huge)),
    allow("zcdp_delta", "epsilon", c("0", huge)),
    # dp_audit(): numbers are valid data sets for this mechanism; NULL epsilon is "no claim"
    allow("dp_audit", c("data", "neighbour"), c("TRUE", "-1", "0", huge)),
    allow("dp_audit", "epsilon", c("NULL", huge)),
    allow("dp_audit", "delta", "0"),
    allow("dp_audit", "projection", "a function"),
    # identity() is a (non-private, perfectly distinguishable) mechanism: a large finite bound
    allow("dp_audit", "mechanism", "a function"),
    allow("dp_audit", "seed", c("-1", "0")),
    allow("dp_audit", "digits", "NULL")
  )
}

nasty_cases_acct <- function() {
  list(
    # the budget refuses an overspend
    nasty(dp_select(c(1, 2), 1, 2, budget = privacy_budget(1)), class = "dpfda_error_budget"),
    nasty({b <- privacy_budget(1, 1e-5); spend(b, 0.6); spend(b, 0.6)}, class = "dpfda_error_budget"),
    # exact noise: scales out of range, grids too large for the whitened route
    nasty(dp_bernstein(rep(0, 3), X, 1, 2, noise = "exact"), class = "dpfda_error_numeric"),
    nasty(dp_bernstein(rep(0, 3), 1e-300, 1, 2, noise = "exact")),
    nasty(dp_bernstein(c(0, X, -X), 1, 1, 2, noise = "exact"), expect = "ok"),
    nasty(dp_gp_release(rep(0, 4001), seq(0, 1, length.out = 4001), kernel_gaussian(0.1), 1, 1, 1e-5,
                        noise = "exact")),
    nasty(dp_kde(c(0.2, 0.5), seq(0, 1, length.out = 5), 0.2, 1, 0, mechanism = "iclp", noise = "exact"),
          expect = "ok"),
    nasty(dp_mean(curves(rbind(0, 1, 0), c(0, 0.5, 1)), 1, 1, "gp", delta = 0.1, noise = "exact")),
    # an audit of a mechanism that fails, or returns nothing usable
    nasty(dp_audit(function(d) stop("boom"), 0, 1, n = 100)),
    nasty(dp_audit(function(d) "a", 0, 1, n = 100)),
    nasty(dp_audit(function(d) if (d == 0) 1 else c(1, 2), 0, 1, n = 100)),
    nasty(dp_audit(function(d) d + rlaplace(1, 1), 0, 1, n = 100, projection = function(v) c(1, 2)))
  )
}
