# Bad-argument entries for accuracy, FPCA and the explorer (R/accuracy.R,
# R/fpca.R, R/explore.R), merged into test-bad-arguments.R.

bad_arg_table_uncertainty <- function() {
  g <- seq(0, 1, length.out = 11)
  old <- dp_rng("seeded")
  on.exit(dp_rng(old))
  set.seed(1)
  cv <- dp_cov(curves(outer(seq(-1, 1, length.out = 20), sin(pi * g)), g), epsilon = 1, tau = 1, J = 4)
  list(
    dp_accuracy = list(
      # target_l2: reachable for every allowed tau (up to 1e10): the total includes the smoothing-bias
      # bound, which is about tau at small n, and an unreachable target gives n_needed = Inf
      settings = list(x = NULL, mechanism = "iclp_qr", n = 100, epsilon = 1, delta = 0, tau = 1,
                      kernel = NULL, grid = g, sensitivity = NULL, target_l2 = 2e10, target_sup = NULL,
                      solve_for = "n", nsim = 50, seed = 1, target_rkhs = NULL)
    ),
    dp_fpca = list(list(x = cv, npc = 2))
  )
}

bad_arg_excluded_uncertainty <- function() {
  c(tidy = "a generic re-exported from generics; its method is tested in test-confint.R",
    glance = "a generic re-exported from generics; its method is tested in test-confint.R",
    dp_explore = "returns a Shiny app object; its inputs (data, mode, seed) are tested in test-explore.R")
}

bad_arg_allowed_uncertainty <- function() {
  rbind(
    # dp_accuracy(): NULL selects the settings mode and documented defaults;
    # large n, epsilon, tau and targets are valid public settings (huge
    # sensitivities are refused above 1e150); delta = 0 (or NULL) is pure DP; seed 0 is
    # a valid seed; a one-column data frame of grid points is a valid grid
    allow("dp_accuracy", c("x", "kernel", "target_l2", "target_sup", "target_rkhs"), "NULL"),
    allow("dp_accuracy", c("n", "epsilon", "tau", "target_l2"), c("1e10", "2^31")),
    allow("dp_accuracy", "target_l2", "double.xmax"),
    allow("dp_accuracy", "sensitivity", c("1e10", "2^31", "NULL")),
    # with a target and solve_for = "n" (the default), n is what is solved for: it needs no value
    allow("dp_accuracy", "n", "NULL"),
    allow("dp_accuracy", "delta", c("0", "NULL")),   # (NULL: 0, pure DP)
    allow("dp_accuracy", "seed", "0"),
    allow("dp_accuracy", "grid", "a data.frame")
  )
}
