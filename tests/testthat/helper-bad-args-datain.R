# Bad-argument harness entries for the data-in arguments (R/entry.R,
# R/interop.R): merged into test-bad-arguments.R.

bad_arg_allowed_datain <- function() {
  nums <- c("-1", "0", "1e10", "2^31", "double.xmax")
  rbind(
    # x: a number is one curve on one grid point (as_curves()), a valid if tiny data set
    allow("dp_mean", "x", nums),
    allow("dp_cov", "x", nums),
    allow("pcv_select", "x", nums),
    # kernel = NULL is the default (Matern 3/2, lengthscale 0.1 x the domain's width)
    allow("dp_mean", "kernel", "NULL"),
    allow("dp_cov", "kernel", "NULL"),
    allow("dp_erm", "kernel", "NULL"),
    # center: a number or a function of the grid is a valid public centre; NULL is none
    allow("dp_mean", "center", c("NULL", nums, "a function")),
    allow("dp_cov", "center", c("NULL", nums, "a function")),
    allow("pcv_select", "center", c("NULL", nums, "a function")),
    # unit = NULL: every curve is its own privacy unit (the default)
    allow("dp_mean", "unit", "NULL"),
    # inference = TRUE is valid with a unit (the exact-noise baseline has one)
    allow("dp_mean", "inference", "TRUE"),
    allow("dp_cov", "unit", "NULL"),
    allow("pcv_select", "unit", "NULL"),
    allow("dp_kde", "unit", "NULL"),
    allow("dp_kme", "unit", "NULL"),
    allow("dp_bandwidth", "unit", "NULL"),
    allow("dp_bin_regression", "unit", "NULL"),
    allow(c("dp_krr", "dp_svm", "krr_fit", "svm_fit", "dp_erm", "dp_gp_regression", "dp_sparse_gp_regression",
            "dp_gp_select"), "unit", "NULL"),
    # counts = NULL: each row is one record (the default)
    allow(c("dp_krr", "dp_svm", "krr_fit", "svm_fit"), "counts", "NULL"),
    # grid = NULL: x is already curves (any other grid with curves is an error)
    allow("dp_mean", "grid", "NULL"),
    allow("dp_cov", "grid", "NULL"),
    allow("pcv_select", "grid", "NULL"),
    # data = NULL is the default (no formula)
    allow("dp_gp_regression", "data", "NULL"),
    allow("dp_bin_regression", "data", "NULL"),
    allow("dp_sparse_gp_regression", "data", "NULL"),
    allow(c("dp_svm", "dp_krr"), "data", "NULL"),
    allow("dp_gp_regression", "method", "NULL"),
    allow("mortality_distribution", "data", "NULL"),
    # domain: NULL is none; c(1, 2) is a valid 1-D domain
    allow("dp_bandwidth", "domain", c("NULL", "wrong length"))
  )
}

# Column arguments given as bare names, strings or expressions (R/entry.R):
# unknown columns, non-names and failing expressions are classed errors.
# (The calls run in a child process: the data are written inline.)
nasty_cases_datain <- function() {
  list(
    nasty(as_curves(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6),
                    id = who, arg = nope, value = y)),
    nasty(as_curves(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6),
                    id = who, arg = paste0(nope), value = y)),
    nasty(as_curves(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6),
                    id = who, arg = 1, value = y)),
    nasty(as_curves(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6),
                    id = who, arg = c(when, y), value = y)),
    nasty(as_curves(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6),
                    id = who, arg = NA_character_, value = y)),
    nasty(as_curves(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6),
                    id = who, arg = when, value = y), expect = "ok"),
    nasty(dp_mean(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6), 1, 1,
                  id = who, arg = nope, value = y)),
    nasty(dp_mean(data.frame(who = rep(1:2, each = 3), when = rep(c(0, 0.5, 1), 2), y = 1:6), 1, 1,
                  id = who, arg = stop("boom"), value = y)),
    nasty(dp_kde(data.frame(a = c(0.1, 0.2, 0.3, 0.4)), c(0, 0.5, 1), 0.3, 1, 1e-5, columns = c(a, nope))),
    nasty(dp_kde(data.frame(a = c(0.1, 0.2, 0.3, 0.4)), c(0, 0.5, 1), 0.3, 1, 1e-5, columns = list())),
    nasty(dp_kde(c(0.1, 0.2, 0.3, 0.4), c(0, 0.5, 1), 0.3, 1, 1e-5, columns = a)),
    nasty(dp_kme(data.frame(a = c(0.1, 0.2, 0.3), b = c(1, 2, 3)), kernel_gaussian(1), 1, 1e-5,
                 synthetic = cbind(c(0, 1), c(1, 2)), columns = c(a, b, nope))),
    nasty(dp_kme(data.frame(a = c(0.1, 0.2, 0.3), b = c(1, 2, 3)), kernel_gaussian(1), 1, 1e-5,
                 synthetic = c(0, 1), columns = 2)),
    nasty(mortality_distribution(data.frame(age = 0:3, n = 1:4), age = age, deaths = nope)),
    nasty(mortality_distribution(data.frame(age = 0:3, n = 1:4), age = age, deaths = n, group = g_nope))
  )
}
