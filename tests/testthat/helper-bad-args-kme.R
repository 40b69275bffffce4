# Bad-argument entries for the kernel-mean-embedding release (R/mech-kme.R),
# merged into test-bad-arguments.R.

bad_arg_table_kme <- function() {
  x2 <- rbind(c(0.1, 0.2), c(0.8, 0.7), c(0.4, 0.5), c(0.9, 0.1), c(0.3, 0.3))
  z2 <- rbind(c(0, 0), c(1, 1), c(0.5, 0.2))
  k <- kernel_gaussian(0.5)
  old <- dp_rng("seeded")
  on.exit(dp_rng(old))
  set.seed(1)
  rel <- dp_kme(x2, k, 1, 1e-5, synthetic = z2)
  rff <- kme_rff(k, J = 20, dim = 2)
  list(
    dp_kme = list(
      subspace = list(x = x2, kernel = k, epsilon = 1, delta = 1e-5, method = "subspace", synthetic = z2,
                      M = 3, J = 1000, calibration = "analytic", domain = c(0, 1), public = FALSE,
                      tol = 1e-5, pivot = FALSE, l1_bound = 2, iters = 100, lr = NULL, lasso_lambda = NULL,
                      candidates = NULL, chunk = 2048, tight = FALSE, noise = "float", budget = NULL,
                      unit = c(1, 1, 2, 3, 4)),
      rf = list(x = x2, kernel = k, epsilon = 0.5, delta = 1e-5, method = "random_features", synthetic = NULL,
                M = 2, J = 20, calibration = "classical", domain = rbind(c(0, 0), c(1, 1)), public = TRUE,
                tol = 1e-5, pivot = TRUE, l1_bound = NULL, iters = 5, lr = 0.1, lasso_lambda = 1e-3,
                candidates = NULL, chunk = 2, tight = FALSE, noise = "float", budget = NULL, unit = NULL),
      expmech = list(x = x2, kernel = k, epsilon = 1, delta = 0, method = "exponential", synthetic = NULL,
                     M = NULL, J = 1000, calibration = "analytic", domain = NULL, public = FALSE,
                     tol = 1e-5, pivot = FALSE, l1_bound = NULL, iters = 100, lr = NULL, lasso_lambda = NULL,
                     candidates = list(z2, list(points = z2[1:2, ], weights = c(0.3, 0.7))), chunk = 2048,
                     tight = TRUE, noise = "float", budget = NULL, unit = NULL)
    ),
    kme_rff = list(list(kernel = k, J = 20, dim = 2, origin = c(0.5, 0.5))),
    kme_features = list(list(rff = rff, x = x2, mean = TRUE)),
    kme_reduced_set = list(list(target = kme_features(rff, x2, mean = TRUE), rff = rff, start = z2, iters = 5,
                                lr = 0.1, weights = "lasso", lasso_lambda = 1e-3, domain = c(0, 1), l1_bound = 1)),
    kme_expectation = list(list(release = rel, h = function(p) p[, 1], normalise = FALSE)),
    kme_mmd = list(list(release = rel, y = x2, weights_y = NULL)),
    kme_mmd_test = list(list(release = rel, y = x2, B = 9)),
    kme_mog_data = list(list(N = 50, D = 2, C = 3, center = 100, sd_means = 200, sd_within = 30))
  )
}

bad_arg_allowed_kme <- function() {
  finite_points <- c("-1", "0", "1e10", "2^31", "double.xmax")
  rbind(
    # dp_kme(): a numeric data frame holds valid rows (scalars are 1-D rows,
    # which do not match the 2-D synthetic points); epsilon is a scale parameter valid with the
    # analytic calibration; NULL selects documented defaults (all synthetic
    # points, uniform draws from the domain, no domain, the default lr and
    # lambda); TRUE is a valid flag; tol = 0 keeps every independent point;
    # delta = 0 is valid for the (pure) exponential mechanism; large iteration
    # counts, chunks and l1 bounds are valid public inputs
    allow("dp_kme", "x", "a data.frame"),
    allow("dp_kme", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_kme", c("M", "domain", "l1_bound", "lr", "lasso_lambda", "synthetic"), "NULL"),
    allow("dp_kme", c("public", "pivot", "tight"), "TRUE"),
    allow("dp_kme", "tol", "0"),
    allow("dp_kme", "delta", "0"),
    allow("dp_kme", c("l1_bound", "lr", "lasso_lambda", "chunk"), c("1e10", "2^31", "double.xmax")),
    allow("dp_kme", "lasso_lambda", "0"),
    allow("dp_kme", "J", c("1e10", "2^31")),
    allow("dp_kme", "iters", "TRUE"),
    allow("dp_kme", c("M", "chunk", "iters"), "TRUE"),
    allow("dp_kme", "candidates", c("NULL", "wrong length")),   # a doubled list of candidates is valid
    allow("dp_kme", "domain", "wrong length"),   # c(1, 2) is a valid box
    allow("dp_kme", "method", "NULL"),
    # identity() as a generator returns M = 3 numbers: 3 points only in 1-D (here 2-D: an error)
    # kme_rff(): large J would be refused by the allocation check; TRUE is 1
    allow("kme_rff", "dim", "TRUE"),
    allow("kme_rff", "origin", "NULL"),   # NULL is the zero origin
    # kme_features(): any finite points; TRUE is a valid flag
    allow("kme_features", "x", c("a data.frame")),
    allow("kme_features", "mean", "TRUE"),
    # kme_reduced_set(): any finite public start points inside the box;
    # large learning rates are clipped by the box; lambda = 0 is least squares
    allow("kme_reduced_set", "start", c("a data.frame")),
    allow("kme_reduced_set", "iters", "TRUE"),
    allow("kme_reduced_set", "lr", c("NULL", "1e10", "2^31", "double.xmax")),
    # (the data are in the plane: two numbers are one Adam step per coordinate)
    allow("kme_reduced_set", "lr", "wrong length"),
    allow("dp_kme", "lr", "wrong length"),
    allow("kme_reduced_set", "lasso_lambda", c("0", "1e10", "2^31", "double.xmax")),
    allow("kme_reduced_set", "domain", "NULL"),
    allow("kme_reduced_set", "l1_bound", c("1e10", "2^31", "double.xmax")),
    # kme_expectation(): identity returns one value per point for 1-column
    # matrices only (here 2 columns: an error); TRUE is a valid flag
    allow("kme_expectation", "normalise", "TRUE"),
    allow("kme_expectation", "h", "a function"),   # identity: one row per point, two functions
    # kme_mmd(): any finite sample; NULL weights are uniform
    allow("kme_mmd", "y", c("a data.frame")),
    allow("kme_mmd", "weights_y", "NULL"),
    allow("kme_mmd_test", "B", "TRUE"),
    # kme_mog_data(): any finite centre, zero spreads, TRUE = 1
    allow("kme_mog_data", "center", c("-1", "0", "1e10", "2^31")),
    allow("kme_mog_data", c("sd_means", "sd_within"), c("0", "1e10", "2^31")),
    allow("kme_mog_data", c("N", "D", "C"), "TRUE"),
    allow("kme_mog_data", "C", "1e10")
  )
}

nasty_cases_kme <- function() {
  list(
    # memory: M = 1e5 synthetic points would need 3 * 1e10 doubles
    nasty(dp_kme(matrix(0, 2, 1), kernel_gaussian(1), 1, 1e-5, synthetic = matrix(seq(0, 1, length.out = 1e5))),
          class = "dpfda_error_numeric"),
    nasty(kme_rff(kernel_gaussian(1), J = 2e6, dim = 1e3), class = "dpfda_error_numeric"),
    # dimension mismatches
    nasty(dp_kme(matrix(0, 3, 2), kernel_gaussian(1), 1, 1e-5, synthetic = matrix(0, 2, 3))),
    nasty(dp_kme(matrix(0, 3, 2), kernel_gaussian(c(1, 2, 3)), 1, 1e-5, synthetic = matrix(0, 2, 2))),
    nasty(dp_kme(matrix(0, 3, 2), kernel_gaussian(1), 1, 1e-5, synthetic = matrix(0, 2, 2), M = 5)),
    nasty(dp_kme(matrix(0, 3, 2), kernel_gaussian(1), 1, 1e-5, M = 5)),
    nasty(dp_kme(matrix(0, 3, 2), kernel_gaussian(1), 1, 1e-5, J = 7, method = "random_features",
                 synthetic = matrix(0, 2, 2))),
    nasty(dp_kme(matrix(0, 3, 2), kernel_gaussian(1), 1, 1e-5, method = "exponential",
                 candidates = list(matrix(0, 2, 3)))),
    nasty(dp_kme(matrix(0, 3, 2), kernel_gaussian(1), 1, 1e-5, method = "exponential",
                 candidates = list(list(points = matrix(0, 2, 2), weights = 1)))),
    # huge data values with a tiny lengthscale overflow when rescaled
    nasty(dp_kme(matrix(X, 3, 2), kernel_gaussian(1e-300), 1, 1e-5, synthetic = matrix(0, 2, 2)),
          class = "dpfda_error_numeric"),
    # duplicated synthetic points: skipped, weight 0
    nasty({
      r <- dp_kme(matrix(0, 3, 1), kernel_gaussian(1), 1, 1e-5, synthetic = c(0, 0, 1))
      r$weights[2] == 0 && r$noise_dim == 2L
    }, expect = "ok"),
    # features: target of the wrong length, start points of the wrong dimension
    nasty(kme_reduced_set(1:3, kme_rff(kernel_gaussian(1), 4, 1), start = 0)),
    nasty(kme_reduced_set(rep(0.1, 4), kme_rff(kernel_gaussian(1), 4, 1), start = matrix(0, 1, 2))),
    nasty(kme_features(kme_rff(kernel_gaussian(1), 4, 2), 1:3)),
    nasty(kme_mmd_test(structure(list(), class = "dpfda_kme_release"), 1)),
    nasty(kme_mmd(dp_kme(1:3, kernel_gaussian(1), 1, 1e-5, synthetic = 1:2), matrix(0, 2, 2)))
  )
}
