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
    # grid = NULL: x is already curves (any other grid with curves is an error)
    allow("dp_mean", "grid", "NULL"),
    allow("dp_cov", "grid", "NULL"),
    # data = NULL is the default (no formula)
    allow("dp_gp_regression", "data", "NULL"),
    allow("mortality_distribution", "data", "NULL"),
    # domain: NULL is none; c(1, 2) is a valid 1-D domain
    allow("dp_bandwidth", "domain", c("NULL", "wrong length"))
  )
}
