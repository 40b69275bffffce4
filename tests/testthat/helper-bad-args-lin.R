# Bad-argument harness entries for Lin and Reimherr's ERM extension
# (R/mech-iclp-erm.R); merged into test-bad-arguments.R.

bad_arg_table_lin <- function() {
  g <- seq(0, 1, length.out = 11)
  x <- seq(0.05, 0.95, length.out = 12)
  list(
    dp_erm = list(
      square = list(x = x, y = sin(2 * pi * x), epsilon = 1, psi = 0.1, grid = g,
                    kernel = kernel_matern(3 / 2, 0.1), loss = "square", eta = 2, y_bound = 2, J = 5,
                    domain = c(0, 1), noise = "exact", budget = privacy_budget(1e6), data = NULL,
                    unit = rep(1:6, 2)),
      logistic = list(x = x, y = rep(c(-1, 1), 6), epsilon = 1, psi = 0.1, grid = g,
                      kernel = kernel_matern(3 / 2, 0.1), loss = "logistic", eta = 2, y_bound = NULL,
                      J = NULL, domain = NULL, noise = "float", budget = NULL, data = NULL, unit = NULL))
  )
}

bad_arg_allowed_lin <- function() {
  rbind(
    # NULL is the default of these (all components; the grid's range; the
    # kernel's eta); y_bound = NULL is required by the logistic loss
    allow("dp_erm", c("J", "domain", "eta", "y_bound", "data"), "NULL"),
    # large privacy budgets, regularisation and bounds are valid (less noise / clamping)
    allow("dp_erm", c("epsilon", "psi", "y_bound"), c("1e10", "2^31")),
    allow("dp_erm", "epsilon", "double.xmax"),
    # a one-point grid (a number) or a list / data frame of axes is a valid
    # grid; every record then sits at its nearest grid point
    allow("dp_erm", "grid", c("-1", "0", "1e10", "2^31", "double.xmax", "a list", "a data.frame")),
    # a scalar response bound of any positive size is valid
    allow("dp_erm", "y_bound", "double.xmax")
  )
}
