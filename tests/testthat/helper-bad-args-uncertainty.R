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
      settings = list(x = NULL, mechanism = "iclp_qr", n = 100, epsilon = 1, delta = 0, tau = 1,
                      kernel = NULL, grid = g, sensitivity = NULL, target_l2 = 0.5, target_sup = NULL,
                      solve_for = "n", nsim = 50, seed = 1)
    ),
    dp_fpca = list(list(x = cv, npc = 2))
  )
}

bad_arg_excluded_uncertainty <- function() {
  c(tidy = "a generic re-exported from generics; its method is tested in test-confint.R",
    glance = "a generic re-exported from generics; its method is tested in test-confint.R",
    dp_explore = "returns a Shiny app object; its inputs (data, mode, seed) are tested in test-explore.R")
}
