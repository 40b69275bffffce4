# Bad arguments: every exported function must reject bad input with a classed
# condition inheriting from `dpfda_error` (R/conditions.R), and no input may
# crash R (DESIGN.md section 4).
#
# * bad_arg_table() gives, for every exported function, one or more valid
#   baseline calls with every formal argument spelled out.
# * Each argument of each baseline is replaced, one at a time, by each value
#   of bad_values(). Such a call must raise a `dpfda_error`, unless the
#   (function, argument, value) combination is in bad_arg_allowed(): those are
#   legitimately valid inputs, which may succeed (but still never raise any
#   other kind of error nor return NaN / Inf).
# * nasty_cases() are hand-written calls (memory, sizes, grids, matrices).
# * Everything runs in a child R process (helper-child.R), so that a segfault,
#   an abort or a hang fails the test instead of killing the test run.
#
# Topic files may keep their entries apart: a helper file
# `helper-bad-args-<topic>.R` defining `bad_arg_table_<topic>()`,
# `bad_arg_allowed_<topic>()`, `nasty_cases_<topic>()` and/or
# `bad_arg_excluded_<topic>()` (named reasons) is merged in
# automatically (see bad_arg_extensions()).
#
# Adding an exported function: add an entry to bad_arg_table() (the first test
# fails until you do) with a value for every formal argument, run this file,
# and add the replacements that are genuinely valid to bad_arg_allowed(), with
# a comment saying why.

# Exports that are deliberately not tested here, with the reason.
bad_arg_excluded <- c(
  # low-level constructor used by the mechanisms: no validation by design
  # (DESIGN.md section 5); validate_dpfda_release() is the checker
  new_dpfda_release = "constructor without validation"
)

# The functions named `bad_arg_<kind>_<topic>` (or `nasty_cases_<topic>`)
# defined in helper files, called and returned in a list.
bad_arg_extensions <- function(prefix) {
  e <- environment(bad_arg_extensions)
  out <- list()
  while (!identical(e, globalenv()) && !identical(e, emptyenv())) {
    for (nm in setdiff(sort(ls(e, pattern = paste0("^", prefix, "_"))), paste0(prefix, "_core"))) {
      if (is.null(out[[nm]]) && is.function(f <- get(nm, e))) out[[nm]] <- f()
    }
    e <- parent.env(e)
  }
  out
}

# function name -> list of valid baseline argument lists (optionally named).
bad_arg_table <- function() c(bad_arg_table_core(), unlist(unname(bad_arg_extensions("bad_arg_table")),
                                                          recursive = FALSE))

bad_arg_allowed <- function() do.call(rbind, c(list(bad_arg_allowed_core()),
                                               unname(bad_arg_extensions("bad_arg_allowed"))))

nasty_cases <- function() c(nasty_cases_core(), unlist(unname(bad_arg_extensions("nasty_cases")),
                                                       recursive = FALSE))

bad_arg_table_core <- function() {
  t5 <- seq(0, 1, length.out = 5)
  x250 <- seq(0.002, 0.998, length.out = 250)
  v5 <- rbind(sin(2 * pi * t5), cos(2 * pi * t5))
  cv <- curves(v5, t5)
  g2 <- cbind(c(0, 1, 0, 1), c(0, 0, 1, 1))
  rel <- new_dpfda_release(cv, mechanism = "example", epsilon = 1, delta = 1e-5,
                           sensitivity = 0.1, noise_scale = 0.5, noise = kernel_gaussian(0.1))
  list(
    as_density = list(curves = list(x = cv, margin = NULL), release = list(x = rel, margin = NULL),
                      plane = list(x = curves(rbind(1:4, 4:1), g2), margin = 2)),
    chol_jitter = list(list(A = kernel_matrix(kernel_gaussian(0.3), t5), jitter = 1e-10,
                            max_jitter = 1e-2)),
    # cloaking covariance (R/cloak.R): a 5 x 4 GP cloaking matrix (P > n); no
    # allow-list entries: scalars, vectors and data frames are not matrices
    cloaking_covariance = list(list(
      C = kernel_matrix(kernel_gaussian(0.3), t5, c(0.1, 0.4, 0.6, 0.9)) %*%
        solve(kernel_matrix(kernel_gaussian(0.3), c(0.1, 0.4, 0.6, 0.9)) + 0.1 * diag(4)),
      tol = 1e-8, maxit = 10000, rank_tol = 1e-8)),
    curves = list(
      d1 = list(values = v5, grid = t5, domain = c(0, 1)),
      d2 = list(values = rbind(1:4, 4:1), grid = g2, domain = rbind(c(0, 0), c(1, 1)))
    ),
    # Bernstein mechanism (R/mech-bernstein.R): a target function on a rescaled
    # 1-D domain; lattice values with per-dimension k and Gaussian noise; the
    # paper's advanced-composition Laplace variant
    dp_bernstein = list(
      d1 = list(f = function(t) sin(2 * pi * t), sensitivity = 0.1, epsilon = 1, k = 4, h = 2, dim = 1,
                delta = 0, domain = c(-1, 2), calibration = "analytic", noise = "float", budget = NULL),
      d2 = list(f = as.double(1:12), sensitivity = 0.1, epsilon = 1, k = c(2, 3), h = 1, dim = 2,
                delta = 1e-5, domain = rbind(c(0, 0), c(1, 2)), calibration = "hall", noise = "float", budget = NULL),
      composition = list(f = function(p) p[, 1] * p[, 2], sensitivity = 0.1, epsilon = 0.5, k = c(3, 2),
                         h = 3, dim = 2, delta = 1e-3, domain = c(0, 1), calibration = "composition", noise = "float", budget = NULL)
    ),
    bernstein_basis = list(list(y = c(0, 0.3, 1), k = 4, h = 2)),
    # Bernstein worked examples, error bounds, choice of k (R/bernstein-examples.R)
    sensitivity_bernstein_kde = list(list(n = 100, bandwidth = 0.1, dim = 2)),
    sensitivity_bernstein_priestley_chao = list(list(n = 100, bandwidth = 0.1, bound = 1, gap = 2)),
    sensitivity_bernstein_naive_bayes = list(list(n = 100, bandwidth = 0.1, dim = 2,
                                                  method = "conservative")),
    sensitivity_bernstein_erm = list(list(n = 100, C = 1, lipschitz = 1, sup_kxx = 1, gap_tol = 1e-8,
                                          method = "paper")),
    sensitivity_bernstein_logistic = list(list(n = 100, C = 1, dim = 2, output = "sigmoid", tol = 1e-10)),
    priestley_chao = list(list(x = c(0.1, 0.4, 0.6, 0.9), y = c(0.5, -0.2, 0.3, 1), newdata = t5,
                               bandwidth = 0.2, bound = 1, gap = 2)),
    naive_bayes_kde = list(list(x = g2, y = c(1, -1, 1, -1), newdata = g2, bandwidth = c(0.2, 0.3))),
    logistic_fit = list(list(x = g2 / 2, y = c(1, -1, 1, -1), C = 2, tol = 1e-8, maxit = 50)),
    bernstein_lebesgue = list(list(k = 5, h = 2, dim = 2, type = "certified", ngrid = 101, tol = 1e-3)),
    bernstein_error_bound = list(
      laplace = list(sensitivity = 0.01, epsilon = 1, k = c(3, 5), h = 1:2, dim = 1, beta = 0.1, delta = 0,
                     calibration = "analytic", class = "smooth", derivative_bound = 2, holder_constant = 1,
                     holder_exponent = 0.5, micchelli_constant = c(NA, 1), noise = "paper"),
      gaussian = list(sensitivity = 0.01, epsilon = 1, k = 4, h = 1, dim = 2, beta = 0.05, delta = 1e-5,
                      calibration = "hall", class = "holder", derivative_bound = NULL, holder_constant = 1,
                      holder_exponent = 1, micchelli_constant = NULL, noise = "uniform"),
      none = list(sensitivity = 0.01, epsilon = 1, k = 4, h = 3, dim = 2, beta = 0.05, delta = 1e-3,
                  calibration = "composition", class = "none", derivative_bound = 1, holder_constant = NULL,
                  holder_exponent = 1, micchelli_constant = 2, noise = "uniform")
    ),
    bernstein_choose_k = list(
      rate = list(sensitivity = 0.001, epsilon = 1, h = 2, dim = 1, beta = 0.05, delta = 1e-5,
                  calibration = "analytic", class = "smooth", method = "rate", derivative_bound = NULL,
                  holder_constant = NULL, holder_exponent = 1, micchelli_constant = NULL, k_max = 100),
      bound = list(sensitivity = 0.001, epsilon = 1, h = 1:2, dim = 2, beta = 0.05, delta = 0,
                   calibration = "composition", class = "smooth", method = "bound", derivative_bound = 10,
                   holder_constant = NULL, holder_exponent = 1, micchelli_constant = c(NA, 0.5), k_max = 30)
    ),
    dp_cdelta = list(list(delta = 1e-5)),
    dp_noise_scale = list(
      analytic = list(sensitivity = 1, epsilon = 0.5, delta = 1e-5, calibration = "analytic",
                      allow_large_epsilon = FALSE),
      hall = list(sensitivity = 1, epsilon = 0.5, delta = 1e-5, calibration = "hall",
                  allow_large_epsilon = TRUE),
      classical = list(sensitivity = 1, epsilon = 0.5, delta = 1e-5, calibration = "classical",
                       allow_large_epsilon = FALSE)
    ),
    dp_reproducible = list(list(seed = 42)),
    dp_rng = list(list(mode = "seeded")),
    # private kernel SVM and kernel ridge regression (R/mech-svm.R): 2-D
    # covariates for the SVM (so that 1-D grids are wrong), 1-D for KRR
    dp_svm = list(list(x = rbind(c(0.1, 0.2), c(0.8, 0.7), c(0.4, 0.5), c(0.9, 0.1)),
                       y = c(1, -1, 1, -1), lambda = 0.1, kernel = kernel_gaussian(0.3), grid = g2,
                       epsilon = 1, delta = 1e-5, calibration = "hall", strict = TRUE,
                       gap_tol = 1e-8, maxit = 1000, domain = c(0, 1), noise = "float", budget = NULL,
                       data = NULL, unit = c(1, 1, 2, 3), counts = NULL)),
    svm_fit = list(list(x = rbind(c(0.1, 0.2), c(0.8, 0.7), c(0.4, 0.5), c(0.9, 0.1)),
                        y = factor(c("a", "b", "a", "b")), lambda = 0.1, kernel = kernel_gaussian(0.3),
                        gap_tol = 1e-8, maxit = 1000, domain = rbind(c(0, 0), c(1, 1)), unit = NULL,
                        counts = c(1, 2, 0, 1))),
    sensitivity_erm = list(list(lipschitz = 1, lambda = 0.1, n = 10, sup_kxx = 1)),
    dp_krr = list(list(x = c(0.1, 0.4, 0.6, 0.9), y = c(0.5, -0.2, 0.3, 1), lambda = 0.1,
                       kernel = kernel_gaussian(0.3), grid = t5, y_bound = c(-1, 1), epsilon = 1,
                       delta = 1e-5, calibration = "analytic", center = TRUE, domain = c(0, 1), noise = "float", budget = NULL,
                       data = NULL, unit = c("a", "a", "b", "c"), counts = NULL)),
    krr_fit = list(list(x = c(0.1, 0.4, 0.6, 0.9), y = c(0.5, -0.2, 0.3, 1), lambda = 0.1,
                        kernel = kernel_gaussian(0.3), y_bound = c(-1, 1), center = FALSE,
                        domain = c(0, 1), unit = c(1, 2, 2, 3), counts = NULL)),
    gaussian_delta = list(list(epsilon = c(0.5, 1), sigma = 2, sensitivity = 1)),
    dp_gp_release = list(list(f = function(t) sin(2 * pi * t), grid = t5, kernel = kernel_gaussian(0.3),
                              sensitivity = 0.1, epsilon = 1, delta = 1e-5, calibration = "analytic",
                              method = "auto", noise = "float", budget = NULL)),
    dp_kde = list(
      d1 = list(x = c(0.1, 0.4, 0.45, 0.9), grid = t5, bandwidth = 0.2, epsilon = 1, delta = 1e-5,
                mechanism = "sobolev", domain = c(0, 1), calibration = "hall", binned = FALSE,
                bins = 100, k = 5, h = 2, noise = "float", budget = NULL, unit = NULL),
      d2 = list(x = g2, grid = list(t5, t5), bandwidth = diag(c(0.04, 0.09)), epsilon = 1,
                delta = 1e-5, mechanism = "gp", domain = rbind(c(0, 0), c(1, 1)),
                calibration = "analytic", binned = FALSE, bins = 100, k = 5, h = 2, noise = "float", budget = NULL,
                unit = NULL),
      bern = list(x = c(0.1, 0.4, 0.45, 0.9), grid = t5, bandwidth = 0.2, epsilon = 1, delta = 0,
                  mechanism = "bernstein", domain = c(0, 1), calibration = "analytic", binned = NULL,
                  bins = 100, k = 5, h = 2, noise = "float", budget = NULL, unit = c(1, 1, 2, 3)),
      # pure-DP ICLP / FRL KDE (R/mech-iclp-kde.R): 1-D, and 2-D on a tensor grid
      iclp = list(x = c(0.1, 0.4, 0.45, 0.9), grid = t5, bandwidth = 0.2, epsilon = 1, delta = 0,
                  mechanism = "iclp", domain = c(0, 1), calibration = "analytic", binned = FALSE,
                  bins = 100, k = 5, h = 2, noise = "float", budget = NULL, unit = c("a", "b", "b", "c")),
      frl2 = list(x = g2, grid = list(t5, t5), bandwidth = c(0.3, 0.2), epsilon = 1, delta = 0,
                  mechanism = "frl", domain = rbind(c(0, 0), c(1, 1)), calibration = "analytic",
                  binned = FALSE, bins = 100, k = 5, h = 2, noise = "float", budget = NULL, unit = NULL)
    ),
    # age-at-death distributions (R/mortality.R): two groups on a common age grid
    mortality_distribution = list(list(data = NULL, age = rep(c(0, 1, 5, 10), 2), deaths = c(3, 1, 2, 4, 1, 1, 2, 6),
                                       group = rep(c("a", "b"), each = 4))),
    # private GP regression (R/mech-gp-regression.R): P = 5 test points > n = 4
    dp_gp_regression = list(
      cloaking = list(x = c(0.1, 0.4, 0.6, 0.9), y = c(0.5, -0.2, 0.3, 1), newdata = t5,
                      kernel = kernel_gaussian(0.3), noise_variance = 0.1, y_bound = c(-1, 1), epsilon = 1,
                      delta = 1e-5, mechanism = "cloaking", calibration = "analytic", bound = "rkhs",
                      tol = 1e-8, noise = "float", budget = NULL, data = NULL, method = NULL, unit = c(1, 1, 2, 3)),
      standard = list(x = c(0.1, 0.4, 0.6, 0.9), y = c(0.5, -0.2, 0.3, 1), newdata = t5,
                      kernel = kernel_gaussian(0.3), noise_variance = 0.1, y_bound = c(-1, 1), epsilon = 1,
                      delta = 1e-5, mechanism = "standard", calibration = "hall", bound = "paper_b",
                      tol = 1e-8, noise = "float", budget = NULL, data = NULL, method = NULL, unit = NULL),
      # y_bound = "auto" (a private bound): enough outputs for the private quantile at epsilon = 1
      auto = list(x = x250, y = sin(6 * x250), newdata = t5, kernel = kernel_gaussian(0.3), noise_variance = 0.1,
                  y_bound = "auto", epsilon = 1, delta = 1e-5, mechanism = "cloaking", calibration = "analytic",
                  bound = "rkhs", tol = 1e-8, noise = "float", budget = NULL, data = NULL, method = NULL, unit = NULL)
    ),
    kde_gaussian = list(list(x = c(0.1, 0.4, 0.45, 0.9), grid = t5, bandwidth = 0.2, domain = c(0, 1),
                             binned = TRUE, bins = 64)),
    sensitivity_kde = list(list(n = 100, bandwidth = 0.1, d = 2, mechanism = "sobolev")),
    dp_bandwidth = list(list(x = seq(0, 1, length.out = 40), epsilon = 1, delta = 1e-5, rule = "scott",
                             fallback = 0.2, offsets = c(0, 0.5), noise = "exact", budget = NULL, domain = NULL, unit = NULL,
                             binned = FALSE)),
    # Smith et al. baselines and extensions (R/mech-gp-binning.R, R/gp-select.R,
    # R/mech-gp-sparse.R)
    dp_bin_regression = list(
      simple = list(x = c(0.1, 0.4, 0.6, 0.9), y = c(0.5, -0.2, 0.3, 1), bins = 3, y_bound = c(-1, 1),
                    epsilon = 1, domain = c(0, 1), newdata = t5, method = "simple", noise = "float", budget = NULL,
                    data = NULL, unit = NULL),
      integral = list(x = g2, y = c(0.5, -0.2, 0.3, 1), bins = c(2, 2), y_bound = c(-1, 1), epsilon = 1,
                      domain = rbind(c(0, 0), c(1, 1)), newdata = g2, method = "integral", noise = "float", budget = NULL,
                      data = NULL, unit = NULL),
      auto = list(x = x250, y = sin(6 * x250), bins = 3, y_bound = "auto", epsilon = 1, domain = c(0, 1),
                  newdata = t5, method = "simple", noise = "float", budget = NULL, data = NULL, unit = NULL)
    ),
    integral_kernel = list(list(lower = c(0, 0.5), upper = c(0.4, 1), lower2 = 0.1, upper2 = 0.3,
                                lengthscale = 0.3, variance = 2, average = TRUE)),
    integral_cross_kernel = list(list(points = c(0.2, 0.7), lower = c(0, 0.5), upper = c(0.4, 1),
                                      lengthscale = 0.3, variance = 2, average = FALSE)),
    dp_gp_select = list(
      frame = list(x = seq(0.05, 0.95, length.out = 8), y = sin(1:8), y_bound = c(-1, 1), epsilon = 1,
                   candidates = data.frame(lengthscale = c(0.1, 0.5), noise_variance = c(0.1, 0.2)),
                   folds = 4, error_limit = 4, include_dp_noise = TRUE, epsilon_regression = 1,
                   delta = 1e-5, sensitivity_rule = "corrected", calibration = "analytic", tol = 1e-8, budget = NULL,
                   unit = rep(1:4, each = 2), data = NULL),
      list = list(x = g2, y = c(0.5, -0.2, 0.3, 1), y_bound = c(-1, 1), epsilon = 1,
                  candidates = list(list(kernel = kernel_gaussian(0.3), noise_variance = 0.1),
                                    list(kernel = kernel_matern(2.5, 0.5), noise_variance = 0.2)),
                  folds = c(1, 2, 1, 2), error_limit = 2, include_dp_noise = FALSE,
                  epsilon_regression = NULL, delta = NULL, sensitivity_rule = "paper",
                  calibration = "hall", tol = 1e-8, budget = NULL, unit = NULL, data = NULL)
    ),
    dp_sparse_gp_regression = list(
      kmeans = list(x = c(0.1, 0.4, 0.6, 0.9), y = c(0.5, -0.2, 0.3, 1), newdata = t5, inducing = 2,
                    kernel = kernel_gaussian(0.3), noise_variance = 0.1, y_bound = c(-1, 1), epsilon = 1,
                    delta = 1e-5, calibration = "analytic", tol = 1e-8, noise = "float", budget = NULL, data = NULL,
                    unit = c(1, 2, 2, 2)),
      matrix = list(x = g2, y = c(0.5, -0.2, 0.3, 1), newdata = g2[1:3, ], inducing = g2[c(1, 4), ],
                    kernel = kernel_gaussian(c(0.3, 0.5)), noise_variance = 0.1, y_bound = c(-1, 1),
                    epsilon = 1, delta = 1e-5, calibration = "hall", tol = 1e-6, noise = "float", budget = NULL,
                    data = NULL, unit = NULL)
    ),
    dp_select = list(list(utility = c(1, 3, 2), sensitivity = 1, epsilon = 1, budget = NULL, noise = "exact")),
    sobolev_norm_1d = list(list(f = function(t) exp(-abs(t - 0.5)), fprime = function(t) -sign(t - 0.5) * exp(-abs(t - 0.5)),
                                gamma = 1, lower = 0, upper = 1)),
    integrate_curves = list(list(x = cv)),
    kernel_exponential = list(list(lengthscale = 0.5, norm = "l2", variance = 2)),
    kernel_gaussian = list(
      iso = list(lengthscale = 0.5, variance = 2, H = NULL),
      H = list(lengthscale = 1, variance = 1, H = diag(c(0.1, 0.2)))
    ),
    kernel_matern = list(list(nu = 2.5, lengthscale = 0.5, variance = 2)),
    kernel_matrix = list(
      d1 = list(kernel = kernel_matern(2.5, 0.5), x = t5, y = c(0.2, 0.4)),
      d2 = list(kernel = kernel_gaussian(H = diag(c(0.1, 0.2))), x = g2, y = g2[1:2, ])
    ),
    rgp = list(
      cholesky = list(n = 2, kernel = kernel_gaussian(0.3), grid = t5, method = "cholesky",
                      jitter = 1e-10),
      markov = list(n = 1, kernel = kernel_exponential(0.2), grid = t5, method = "markov",
                    jitter = 1e-10),
      kronecker = list(n = 1, kernel = kernel_gaussian(0.3), grid = list(c(0, 0.5, 1), c(0, 1)),
                       method = "kronecker", jitter = 1e-10),
      circulant = list(n = 1, kernel = kernel_matern(1.5, 0.2), grid = seq(0, 1, length.out = 64),
                       method = "circulant", jitter = 1e-10)
    ),
    # online release (R/mech-online.R). Its objects hold an external pointer
    # that does not survive serialisation to the child (by design: a reloaded
    # copy refuses to answer), so query() and released() get a quoted call
    # that builds a fresh object in the child: do.call() evaluates it there.
    dp_online = list(
      markov = list(f = function(t) sin(t), kernel = kernel_exponential(0.2), sensitivity = 0.1,
                    epsilon = 1, delta = 1e-5, calibration = "analytic", tau = 1e-10,
                    method = "markov", noise = "exact", budget = NULL),
      cholesky = list(f = function(p) rowSums(as.matrix(p)), kernel = kernel_gaussian(0.3),
                      sensitivity = 0.1, epsilon = 1, delta = 1e-5, calibration = "hall",
                      tau = 1e-8, method = "cholesky", noise = "float", budget = NULL)
    ),
    query = list(
      markov = list(object = quote(dp_online(function(t) sin(t), kernel_exponential(0.2), 0.1, 1, 1e-5)),
                    x = c(0.2, 0.5, 0.2)),
      cholesky = list(object = quote(dp_online(function(p) p[, 1] * p[, 2], kernel_gaussian(0.3), 0.1, 1,
                                               1e-5)),
                      x = rbind(c(0, 0), c(0.5, 0.5)))
    ),
    released = list(list(object = quote({
      o <- dp_online(function(t) sin(t), kernel_exponential(0.2), 0.1, 1, 1e-5)
      query(o, c(0.2, 0.5))
      o
    }))),
    rlaplace = list(list(n = 3, scale = 2)),
    # ICLP (R/kl-basis.R, R/mech-iclp.R): 8 curves on a 6-point grid
    kl_basis = list(list(kernel = kernel_matern(1.5, 0.2), grid = seq(0, 1, length.out = 6), J = 3,
                         weights = rep(1 / 6, 6), tol = 1e-12)),
    riclp = list(list(n = 2, kernel = kernel_matern(1.5, 0.2), grid = seq(0, 1, length.out = 6), J = 3)),
    dp_mean = list(
      qr = list(x = curves(outer(seq(0.1, 0.8, length.out = 8), sin(2 * pi * seq(0, 1, length.out = 6))),
                           seq(0, 1, length.out = 6)),
                epsilon = 1, tau = 1, mechanism = "iclp_qr", kernel = kernel_matern(1.5, 0.2),
                select = "pss", noise = "float", budget = NULL, center = NULL, grid = NULL,
                incomplete = "drop", unit = NULL, inference = FALSE),
      exact = list(x = curves(outer(seq(0.1, 0.8, length.out = 8), sin(2 * pi * seq(0, 1, length.out = 6))),
                              seq(0, 1, length.out = 6)),
                   epsilon = 1, tau = 1, mechanism = "frl", kernel = kernel_matern(1.5, 0.2),
                   select = "pss", noise = "exact", budget = privacy_budget(100), center = function(t) 1 + t,
                   grid = NULL, incomplete = "error", unit = c(1, 1, 2, 3, 4, 5, 6, 7), inference = FALSE)
    ),
    # ICLP covariance (R/mech-iclp-cov.R): second moment of 8 curves on 6 points
    dp_cov = list(list(x = curves(outer(seq(0.1, 0.8, length.out = 8), sin(2 * pi * seq(0, 1, length.out = 6))),
                                  seq(0, 1, length.out = 6)),
                       epsilon = 1, tau = 1, kernel = kernel_matern(1.5, 0.2), centered = FALSE, eta = 1.25,
                       psi = 0.01, J = 3, h = 2, noise = "float", budget = NULL, grid = NULL, center = NULL,
                       unit = c(1, 1, 2, 3, 4, 5, 6, 7), incomplete = "error")),
    pss_params = list(list(mechanism = "iclp_qr", n = 100, epsilon = 1, h = 2, tau = 1, rule = "theory",
                           const = 1)),
    pcv_select = list(list(x = curves(outer(seq(0.1, 0.8, length.out = 8), sin(2 * pi * seq(0, 1, length.out = 6))),
                                      seq(0, 1, length.out = 6)),
                           epsilon = 1, tau = 1, mechanism = "frl", basis = kernel_matern(1.5, 0.2),
                           epsilon_select = 0.5, candidates = c(1, 2), folds = 2, eta = NULL, h = 2,
                           frl_bound = "M", ar_bound = "sum", threshold_scale = 1, budget = NULL, grid = NULL,
                           unit = c(1, 1, 2, 3, 4, 5, 6, 7), center = NULL, kernel = NULL)),
    validate_dpfda_release = list(list(x = rel))
  )
}

# The bad values; "wrong length" is made from the baseline value.
bad_values <- function() {
  list(
    "NULL" = NULL, "NA" = NA, "NA_real_" = NA_real_, "NaN" = NaN,
    "Inf" = Inf, "-Inf" = -Inf, "-1" = -1, "0" = 0,
    "numeric(0)" = numeric(0), "character(0)" = character(0),
    "a string" = "xyzzy", "TRUE" = TRUE, "a list" = list(1), "a function" = identity,
    "a data.frame" = data.frame(x = c(0, 0.5, 1)),
    "1e10" = 1e10, "2^31" = 2^31, "double.xmax" = .Machine$double.xmax
  )
}

wrong_length <- function(base) {
  if (is.function(base)) return(function(...) c(1, 2))   # a function returning the wrong length
  if (is.language(base)) return(list(base, base))          # a quoted object (see query() below)
  if (is.environment(base)) return(list(base, base))       # a reference object (a privacy budget)
  if (length(base) == 0L) return(c(1, 2))
  if (is.list(base)) return(c(unclass(base), unclass(base)))
  rep(as.vector(base), 2L)
}

# (function, argument, value) combinations that are valid inputs and may
# succeed. They must still never raise a non-dpfda error or return NaN / Inf.
bad_arg_allowed_core <- function() {
  finite_points <- c("-1", "0", "1e10", "2^31", "double.xmax")
  huge <- c("1e10", "2^31", "double.xmax")
  rbind(
    # curves(): `grid = NULL` is the default (equally spaced points) and
    # `domain = NULL` the default (range of the grid)
    allow("curves", "grid", "NULL"),
    allow("curves", "domain", "NULL"),
    allow("as_density", "margin", "NULL"),   # (no margin: the density itself)
    # dp_noise_scale(): a zero sensitivity needs no noise; any epsilon > 0 is
    # valid with the analytic calibration, and with "hall" when
    # allow_large_epsilon = TRUE; TRUE is a valid flag
    allow("dp_noise_scale", "sensitivity", c("0", "1e10", "2^31", "double.xmax")),
    allow("dp_noise_scale", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_noise_scale", "allow_large_epsilon", "TRUE"),
    # Hall et al. mechanisms: data are clamped to the domain and any finite
    # points are valid data / grids; large sensitivities, epsilons and
    # bandwidths are valid public inputs; NULL selects documented defaults;
    # identity() is a valid target function (it returns one value per point)
    allow("dp_gp_release", "f", "a function"),
    allow("dp_gp_release", "grid", c("-1", "0", "1e10", "2^31", "a list", "a data.frame")),
    allow("dp_gp_release", "sensitivity", c("0", "1e10", "2^31")),
    allow("dp_gp_release", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_kde", "x", c(finite_points, "a data.frame", "wrong length")),
    allow("dp_kde", "grid", c("0", "a list", "a data.frame", "NULL")),   # (NULL: the default grid of the domain)
    allow("dp_kde", "bandwidth", c("1e10", "2^31")),
    allow("dp_kde", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_kde", c("domain", "binned", "bins"), "NULL"),
    allow("dp_kde", "binned", "TRUE"),
    allow("dp_kde", "delta", "0"),   # pure DP with the Bernstein mechanism (Laplace noise)
    allow("dp_kde", "delta", "NULL"),   # (delta omitted: 0 for the pure-DP mechanisms; gp refuses it)
    allow("dp_kde", "k", "wrong length"),   # (in the plane, one equal degree per axis, as dp_bernstein() takes it)
    allow("kde_gaussian", "x", c(finite_points, "a data.frame", "wrong length")),
    allow("kde_gaussian", "grid", c("0", "a list", "a data.frame")),
    allow("kde_gaussian", "bandwidth", c("1e10", "2^31")),
    allow("kde_gaussian", c("domain", "binned", "bins"), "NULL"),
    allow("kde_gaussian", "binned", "TRUE"),
    allow("sensitivity_kde", "n", c("1e10", "2^31")),
    allow("sensitivity_kde", "bandwidth", c("1e10", "2^31", "double.xmax")),
    allow("dp_bandwidth", "x", "wrong length"),
    allow("dp_bandwidth", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_bandwidth", "fallback", c("1e10", "2^31")),
    allow("dp_bandwidth", "offsets", c("0", "wrong length")),
    allow("dp_select", "utility", c("-1", "0", "1e10", "2^31", "double.xmax", "wrong length")),
    allow("dp_select", c("sensitivity", "epsilon"), c("1e10", "2^31", "double.xmax")),
    # sobolev_norm_1d(): identity() is a valid function; any finite interval
    # and any positive rate are valid
    allow("sobolev_norm_1d", c("f", "fprime"), "a function"),
    allow("sobolev_norm_1d", "gamma", c("1e10", "2^31")),
    allow("sobolev_norm_1d", "lower", c("-1", "0")),
    allow("sobolev_norm_1d", "upper", c("1e10", "2^31", "double.xmax")),
    # dp_gp_regression(): any finite test point(s) (a single point, a numeric
    # data frame, a list holding one axis) are valid; a large public noise
    # variance only pulls the mean to the prior; any epsilon > 0 is valid
    # with the analytic calibration (the cloaking baseline)
    allow("dp_gp_regression", "newdata", c("-1", "0", "1e10", "2^31", "a list", "a data.frame")),
    allow("dp_gp_regression", "noise_variance", c("1e10", "2^31", "double.xmax")),
    allow("dp_gp_regression", "epsilon", c("1e10", "2^31", "double.xmax")),
    # one positive number B as y_bound is c(-B, B) in every regression (as in dp_erm()); the largest
    # double is refused (its range 2B overflows)
    do.call(rbind, lapply(c("dp_krr", "krr_fit", "dp_gp_regression", "dp_bin_regression", "dp_gp_select",
                            "dp_sparse_gp_regression"), allow, "y_bound", c("1e10", "2^31"))),
    # dp_bin_regression(): any epsilon > 0 (Laplace); `newdata = NULL` is the
    # default and any finite points are valid (outside the domain they get
    # the midpoint of y_bound)
    allow("dp_bin_regression", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_bin_regression", "newdata", c("NULL", finite_points, "a data.frame", "wrong length")),
    # integral kernels: boxes [-1, 0.3], [0, 0.3], [0.1, 1e10] are valid; any
    # finite points; positive scale parameters; TRUE is a valid flag
    allow("integral_kernel", "lower2", c("-1", "0")),
    allow("integral_kernel", "upper2", c("1e10", "2^31", "double.xmax")),
    allow("integral_kernel", c("lengthscale", "variance"), c("1e10", "2^31", "double.xmax")),
    allow("integral_kernel", "average", "TRUE"),
    allow("integral_cross_kernel", "points", c(finite_points, "a data.frame", "wrong length")),
    allow("integral_cross_kernel", c("lengthscale", "variance"), c("1e10", "2^31", "double.xmax")),
    allow("integral_cross_kernel", "average", "TRUE"),
    # dp_gp_select(): large epsilons and error limits are valid; TRUE is a
    # valid flag; NULL is the default of the regression's privacy parameters
    # (needed only with include_dp_noise = TRUE); a doubled list of
    # candidates is a valid list of four candidates
    allow("dp_gp_select", c("epsilon", "epsilon_regression", "error_limit"), c("1e10", "2^31", "double.xmax")),
    allow("dp_gp_select", "include_dp_noise", "TRUE"),
    allow("dp_gp_select", c("epsilon_regression", "delta", "data"), "NULL"),
    allow("dp_gp_select", "candidates", "wrong length"),
    # dp_sparse_gp_regression(): any finite test points, a numeric data
    # frame of inducing inputs, a large public noise variance, any epsilon > 0
    # with the analytic calibration
    allow("dp_sparse_gp_regression", "newdata", c("-1", "0", "1e10", "2^31", "double.xmax", "a list",
                                                  "a data.frame")),
    allow("dp_sparse_gp_regression", "inducing", "a data.frame"),
    allow("dp_sparse_gp_regression", "noise_variance", c("1e10", "2^31", "double.xmax")),
    allow("dp_sparse_gp_regression", "epsilon", c("1e10", "2^31", "double.xmax")),
    # dp_bernstein(): identity() is a valid 1-D target (one value per point);
    # a zero sensitivity needs no noise, large ones and any epsilon > 0 are
    # valid public inputs; delta = 0 is pure epsilon-DP; domain = NULL is [0, 1]^dim
    allow("dp_bernstein", "f", "a function"),
    allow("dp_bernstein", "sensitivity", c("0", "1e10", "2^31")),
    allow("dp_bernstein", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_bernstein", "delta", "0"),
    allow("dp_bernstein", "domain", "NULL"),
    # bernstein_basis(): y = 0 and repeated points are valid points of [0, 1]
    allow("bernstein_basis", "y", c("0", "wrong length")),
    # Bernstein examples (R/bernstein-examples.R): n, bandwidths, bounds, C,
    # Lipschitz and kernel constants are public scale parameters, any positive
    # value with a finite positive sensitivity is valid; a bandwidth vector of
    # length dim is a per-dimension bandwidth; zero solver tolerances mean exact
    allow("sensitivity_bernstein_kde", c("n", "bandwidth"), c("1e10", "2^31")),
    allow("sensitivity_bernstein_kde", "bandwidth", "wrong length"),
    allow("sensitivity_bernstein_naive_bayes", c("n", "bandwidth"), c("1e10", "2^31")),
    allow("sensitivity_bernstein_naive_bayes", "bandwidth", "wrong length"),
    allow("sensitivity_bernstein_priestley_chao", "n", c("1e10", "2^31")),
    allow("sensitivity_bernstein_priestley_chao", c("bandwidth", "bound"), huge),
    allow("sensitivity_bernstein_erm", "n", c("1e10", "2^31")),
    allow("sensitivity_bernstein_erm", c("C", "lipschitz", "sup_kxx", "gap_tol"), huge),
    allow("sensitivity_bernstein_erm", "gap_tol", "0"),
    allow("sensitivity_bernstein_logistic", "n", c("1e10", "2^31")),
    allow("sensitivity_bernstein_logistic", c("C", "tol"), huge),
    allow("sensitivity_bernstein_logistic", "tol", "0"),
    # the non-private targets: any finite evaluation points (a single point, a
    # one-column data frame, repeated points); large bandwidths and bounds;
    # gap = NULL skips the check and large gaps always pass; a large C may stop
    # at maxit (a classed error); large tolerances stop at once
    allow("priestley_chao", "newdata", c(finite_points, "a data.frame", "wrong length")),
    allow("priestley_chao", c("bandwidth", "bound", "gap"), huge),
    allow("priestley_chao", "gap", "NULL"),
    allow("naive_bayes_kde", "bandwidth", huge),
    allow("naive_bayes_kde", "newdata", "wrong length"),
    allow("logistic_fit", "C", c("1e10", "2^31")),
    allow("logistic_fit", "tol", huge),
    # error bounds and the choice of k: any positive sensitivity and epsilon
    # (an overflowing noise scale is a classed error); vectors of k and h;
    # delta = 0 is pure epsilon-DP; regularity constants may be 0 or large,
    # and NULL or NA where the class does not use them
    allow("bernstein_error_bound", c("sensitivity", "epsilon"), huge),
    allow("bernstein_error_bound", c("k", "h"), "wrong length"),
    allow("bernstein_error_bound", "delta", "0"),
    allow("bernstein_error_bound", c("derivative_bound", "holder_constant"), c("NULL", "0", huge)),
    allow("bernstein_error_bound", "micchelli_constant", c("NULL", "NA_real_", "0", huge)),
    allow("bernstein_choose_k", c("sensitivity", "epsilon"), huge),
    allow("bernstein_choose_k", "h", "wrong length"),
    allow("bernstein_choose_k", "delta", "0"),
    allow("bernstein_choose_k", c("derivative_bound", "holder_constant"), c("NULL", "0", huge)),
    allow("bernstein_choose_k", "micchelli_constant", c("NULL", "NA_real_", "0", huge)),
    # dp_reproducible(): any whole number in integer range is a seed
    allow("dp_reproducible", "seed", c("-1", "0")),
    # dp_rng(): `mode = NULL` queries the mode
    allow("dp_rng", "mode", "NULL"),
    # gaussian_delta(): epsilon is a vector of non-negative numbers; any
    # positive sigma / sensitivity is valid
    allow("gaussian_delta", "epsilon", c("0", "1e10", "2^31", "double.xmax", "wrong length")),
    allow("gaussian_delta", c("sigma", "sensitivity"), c("1e10", "2^31", "double.xmax")),
    # kernels: lengthscales and variances are scale parameters, any positive
    # finite value is valid (overflow downstream is a classed error, see the
    # nasty cases); kernel_gaussian() takes one lengthscale per dimension;
    # `H = NULL` is the default and a positive number is a 1 x 1 bandwidth matrix
    allow("kernel_exponential", c("lengthscale", "variance"), c("1e10", "2^31", "double.xmax")),
    allow("kernel_matern", c("lengthscale", "variance"), c("1e10", "2^31", "double.xmax")),
    allow("kernel_gaussian", c("lengthscale", "variance"), c("1e10", "2^31", "double.xmax")),
    allow("kernel_gaussian", "lengthscale", "wrong length"),
    allow("kernel_exponential", "lengthscale", "wrong length"),   # (one lengthscale per dimension)
    allow("kernel_gaussian", "H", c("NULL", "1e10", "2^31", "double.xmax")),
    # kernel_matrix(): `x` and `y` may be any finite points (a number, a
    # numeric data frame, repeated points)
    allow("kernel_matrix", "x", c(finite_points, "a data.frame", "wrong length")),
    allow("kernel_matrix", "y", c(finite_points, "a data.frame", "wrong length")),
    # rgp(): the grid may be any finite points (here a single point, a
    # numeric data frame, or a list of axes: "wrong length" doubles the list
    # of axes of the kronecker baseline into a valid 4-D tensor grid)
    allow("rgp", "grid", c(finite_points, "a data.frame", "a list", "wrong length")),
    # jitter = 0 tries without jitter first
    allow("rgp", "jitter", "0"),
    # chol_jitter(): jitter = 0 tries without jitter first; any positive last
    # rung is allowed (an overflowing factor is a classed error)
    allow("chol_jitter", "jitter", "0"),
    allow("chol_jitter", "max_jitter", c("1e10", "2^31", "double.xmax")),
    # dp_online(): f is evaluated only at queries (identity and a function
    # returning the wrong length are valid at creation); a zero sensitivity
    # needs no noise; large sensitivities and (analytic) epsilons are valid
    allow("dp_online", "f", c("a function", "wrong length")),
    allow("dp_online", "sensitivity", c("0", "1e10", "2^31")),
    allow("dp_online", "epsilon", c("1e10", "2^31", "double.xmax")),
    # query(): any finite points (a vector of 1-D points for a fresh object,
    # a numeric data frame, repeated points)
    allow("query", "x", c(finite_points, "a data.frame", "wrong length")),
    # rlaplace(): zero draws, and large finite scales
    allow("rlaplace", "n", "0"),
    allow("rlaplace", "scale", c("1e10", "2^31")),
    # ICLP: J = NULL keeps all positive eigenvalues, weights = NULL is the
    # trapezoid rule, tol = 0 keeps every positive eigenvalue; a numeric data
    # frame is a valid grid; epsilon, tau, n, h, const, threshold_scale and the
    # selection budget are public scale parameters (any positive value is
    # valid); candidates = NULL gives the default grid and repeated candidates
    # are valid; eta = NULL means the PSS eta, h = NULL the kernel's EDR
    allow("kl_basis", c("J", "weights"), "NULL"),
    allow("kl_basis", "tol", "0"),
    allow("riclp", "grid", "a data.frame"),
    allow("riclp", "J", "NULL"),
    allow("dp_mean", "epsilon", huge),
    allow("dp_mean", "tau", c("1e10", "2^31")),
    # dp_cov(): NULL eta / psi / J / h select the documented defaults (PSS, all
    # eigenpairs, the kernel's EDR); h is only used for them (any finite
    # positive value is valid); large epsilon, tau and psi are valid
    # public inputs; TRUE is a valid flag (the centred covariance)
    allow("dp_cov", c("eta", "psi", "J", "h"), "NULL"),
    allow("dp_cov", "epsilon", huge),
    allow("dp_cov", c("tau", "psi"), c("1e10", "2^31")),
    allow("dp_cov", "h", huge),
    allow("dp_cov", "centered", "TRUE"),
    allow("pss_params", c("n", "epsilon", "h", "tau", "const"), c("1e10", "2^31")),
    allow("pss_params", "h", "double.xmax"),
    allow("pcv_select", c("epsilon", "epsilon_select"), huge),
    allow("pcv_select", c("tau", "threshold_scale"), c("1e10", "2^31")),
    allow("pcv_select", "h", c("NULL", huge)),
    allow("pcv_select", c("candidates", "eta"), "NULL"),
    allow("pcv_select", c("basis", "kernel"), "NULL"),   # dp_mean()'s default kernel
    allow("pcv_select", "candidates", "wrong length"),
    # SVM / KRR (R/mech-svm.R): any positive lambda is a valid (if useless)
    # regularisation, any epsilon > 0 with the analytic calibration, TRUE is
    # a valid flag, `domain = NULL` means no clamping; KRR on 1-D covariates
    # accepts any finite single grid point, a numeric data frame or a list
    # holding one axis as its grid
    allow("dp_svm", "lambda", c("1e10", "2^31", "double.xmax")),
    allow("svm_fit", "lambda", c("1e10", "2^31", "double.xmax")),
    allow("dp_krr", "lambda", c("1e10", "2^31", "double.xmax")),
    allow("krr_fit", "lambda", c("1e10", "2^31", "double.xmax")),
    allow("dp_svm", "domain", "NULL"),
    allow("svm_fit", "domain", "NULL"),
    allow("dp_krr", "domain", "NULL"),
    allow("krr_fit", "domain", "NULL"),
    allow("dp_svm", "strict", "TRUE"),
    allow("dp_krr", "center", "TRUE"),
    allow("krr_fit", "center", "TRUE"),
    allow("dp_krr", "epsilon", c("1e10", "2^31", "double.xmax")),
    allow("dp_krr", "grid", c(finite_points, "a data.frame", "a list")),
    # sensitivity_erm(): Lipschitz constants, lambda and sup K(x, x) are
    # scale parameters; any positive value with a finite positive result is valid
    allow("sensitivity_erm", c("lipschitz", "lambda", "sup_kxx"), c("1e10", "2^31", "double.xmax"))
  )
}

# Exports whose `...` is not a list of options: generics passing it to their
# methods, and functions passing it on to base R or to a user function.
dots_pass_on <- c(as_curves = "generic (the matrix and data-frame methods check their own)",
                  glance = "generic (generics)",
                  tidy = "generic (generics)", query = "generic", released = "generic",
                  csv_chunks = "passed to utils::read.csv()")

bad_arg_cases <- function() {
  tab <- bad_arg_table()
  bad <- bad_values()
  allowed <- bad_arg_allowed()
  key <- paste(allowed$fun, allowed$arg, allowed$value, sep = "\r")
  cases <- list()
  for (fun in names(tab)) {
    for (b in seq_along(tab[[fun]])) {
      base <- tab[[fun]][[b]]
      id <- names(tab[[fun]])[b]
      tag <- if (is.null(id) || !nzchar(id)) fun else sprintf("%s [%s]", fun, id)
      cases[[length(cases) + 1L]] <- list(label = sprintf("%s baseline", tag), fun = fun,
                                          args = base, baseline = TRUE)
      # a misspelt option in `...` is named in a classed error, not ignored nor left to R's "unused
      # argument" from deep inside (the generics pass `...` on to methods that may take more)
      if ("..." %in% names(formals(getExportedValue("dpfda", fun))) && !fun %in% names(dots_pass_on)) {
        cases[[length(cases) + 1L]] <- list(label = sprintf("%s: zz_not_an_option = 1 in ...", tag), fun = fun,
                                            args = c(base, list(zz_not_an_option = 1)), baseline = FALSE,
                                            allowed = FALSE)
      }
      for (arg in names(base)) {
        vals <- c(bad, list("wrong length" = wrong_length(base[[arg]])))
        for (v in names(vals)) {
          args <- base
          args[arg] <- list(vals[[v]])   # keeps NULL as a value
          cases[[length(cases) + 1L]] <- list(
            label = sprintf("%s: %s = %s", tag, arg, v), fun = fun, args = args,
            baseline = FALSE, allowed = paste(fun, arg, v, sep = "\r") %in% key)
        }
      }
    }
  }
  cases
}

# Hand-written calls. expect: "error" (a dpfda_error of the given class), "ok"
# (must succeed; a logical value must be TRUE) or "either" (succeed with a
# finite value, or a dpfda_error). Each must take under 5 seconds.
nasty_cases_core <- function() {
  list(
    # memory: a 1e6 x 1e6 Gram matrix must be refused up front, not attempted
    nasty(rgp(1, kernel_gaussian(0.1), seq(0, 1, length.out = 1e6), method = "cholesky"),
          class = "dpfda_error_numeric"),
    nasty(kernel_matrix(kernel_gaussian(0.1), seq(0, 1, length.out = 1e5))),
    nasty(rgp(1, kernel_gaussian(0.1), list(seq(0, 1, length.out = 1e5), seq(0, 1, length.out = 1e5)))),
    nasty(rgp(2^31, kernel_gaussian(0.1), seq(0, 1, length.out = 5))),
    nasty(rgp(2^31 - 1, kernel_gaussian(0.1), seq(0, 1, length.out = 5))),
    nasty(rlaplace(2^31 - 1)),
    # shapes and grids
    nasty(curves(matrix(1, 2, 3), 1:2)),
    nasty(curves(matrix(1, 0, 3), 1:3)),
    nasty(curves(array(1, c(2, 2, 2)))),
    nasty(curves(1:3, c(0, 1, 1))),
    nasty(curves(1:2, matrix(1, 2, 2))),
    nasty(curves(1:4, list(c(0, 1), c(0, 0)))),
    nasty(curves(1:3, c(0, 0.5, 1), domain = c(0.2, 1))),
    nasty(curves(1:3, c(0, 0.5, 1), domain = c(1, 0))),
    nasty({
      x <- curves(c(10, 30, 20), c(0, 1, 0.5))   # unsorted grid: sorted, values follow
      identical(x$grid, c(0, 0.5, 1)) && identical(as.vector(x$values), c(10, 20, 30))
    }, expect = "ok"),
    nasty(rgp(1, kernel_gaussian(0.1), c(0, 0.5, 0.5))),
    nasty(rgp(1, kernel_gaussian(0.1), cbind(c(0, 1, 0), c(0, 1, 0)))),
    nasty({
      g <- rgp(2, kernel_gaussian(0.3), c(0.5, 0, 1, 0.25))
      dpfda:::validate_dpfda_curves(g)
      identical(g$grid, c(0, 0.25, 0.5, 1))
    }, expect = "ok"),
    nasty({
      dp_reproducible(1)
      a <- rgp(1, kernel_exponential(0.3), c(0.5, 0, 1), method = "markov")
      dp_reproducible(1)
      b <- rgp(1, kernel_exponential(0.3), c(0, 0.5, 1), method = "markov")
      identical(a$grid, b$grid) && identical(a$values, b$values)
    }, expect = "ok"),
    nasty(rgp(1, kernel_gaussian(c(0.1, 0.2)), seq(0, 1, length.out = 5))),
    nasty(rgp(1, kernel_exponential(0.1), cbind(1:3, 1:3), method = "markov")),
    nasty(rgp(1, kernel_matern(2.5, 0.1), c(0, 0.1, 0.5), method = "circulant")),
    nasty(rgp(1, kernel_matern(2.5, 0.1), cbind(runif(4), runif(4)), method = "kronecker")),
    nasty(kernel_matrix(kernel_gaussian(0.1), cbind(1:3, 1:3), 1:2)),
    nasty(kernel_matrix(kernel_gaussian(c(0.1, 0.2)), 1:3)),
    nasty(kernel_matrix(kernel_gaussian(0.1), array(1, c(2, 2, 2)))),
    # matrices
    nasty(kernel_gaussian(H = matrix(c(1, 2, 2, 1), 2))),
    nasty(kernel_gaussian(H = matrix(c(1, 0, 1, 1), 2))),
    nasty(kernel_gaussian(lengthscale = "a", H = diag(2))),
    nasty(chol_jitter(matrix(c(1, 2, 2, 1), 2)), class = "dpfda_error_numeric"),
    nasty(chol_jitter(-diag(3)), class = "dpfda_error_numeric"),
    nasty(chol_jitter(matrix(c(1, 2, 3, 4), 2))),
    nasty(chol_jitter(matrix(1, 2, 3))),
    nasty(chol_jitter(matrix(numeric(0), 0, 0))),
    nasty(chol_jitter(diag(X, 2)), class = "dpfda_error_numeric"),
    nasty(chol_jitter(2 * matrix(c(1, 2, 2, 1), 2), max_jitter = X), expect = "either"),
    nasty(cloaking_covariance(matrix(X, 2, 3)), class = "dpfda_error_numeric"),
    nasty(cloaking_covariance(matrix(1e-300, 2, 3)), class = "dpfda_error_numeric"),
    nasty(cloaking_covariance(matrix(0, 1e5, 1)), class = "dpfda_error_numeric"),
    nasty(cloaking_covariance(cbind(c(-X, X), 0, 1e-300)), expect = "either"),
    nasty(abs(max(cloaking_covariance(matrix(1:6, 1))$lambda) - 1) < 1e-12, expect = "ok"),
    # overflow must be a classed error, never NaN / Inf
    nasty(rgp(1, kernel_gaussian(1, variance = X), seq(0, 1, length.out = 5), method = "cholesky")),
    nasty(rgp(1, kernel_gaussian(1, variance = X), seq(0, 1, length.out = 64), method = "circulant")),
    nasty(rgp(1, kernel_matern(1.5, 1, variance = X), seq(0, 1, length.out = 5)), expect = "either"),
    nasty(rgp(1, kernel_exponential(1, variance = X), seq(0, 1, length.out = 5)), expect = "either"),
    nasty(rgp(1, kernel_gaussian(1e-300), seq(0, 1, length.out = 5)), expect = "either"),
    nasty(rgp(1, kernel_gaussian(1), c(-X, X)), expect = "either"),
    nasty(kernel_matrix(kernel_matern(2.3, 1), c(-X, 0, X)), expect = "either"),
    nasty(rlaplace(5, X)),
    nasty(dp_noise_scale(X, 1, 1e-5), class = "dpfda_error_numeric"),
    nasty(dp_noise_scale(1, X, 1e-5), expect = "either"),
    nasty(dp_noise_scale(1e10, 1e-300, 1e-5, calibration = "hall"), class = "dpfda_error_numeric"),
    nasty(dp_noise_scale(1, 1e-300, 1e-320), expect = "either"),
    nasty(dp_noise_scale(1, 0.5, 1e-320, calibration = "classical"), expect = "either"),
    nasty(dp_noise_scale(1, 2, 1e-5, calibration = "hall"), class = "dpfda_error_privacy"),
    nasty(dp_noise_scale(1, 1, 1e-5, calibration = "classical"), class = "dpfda_error_privacy"),
    nasty(dp_cdelta(1e-320) > 38, expect = "ok"),
    nasty(gaussian_delta(X, 1) == 0, expect = "ok"),
    nasty(gaussian_delta(1, X) == 0, expect = "ok"),
    nasty(gaussian_delta(c(0, X), X, 1e-300), expect = "either"),
    # releases
    nasty(validate_dpfda_release(structure(list(), class = "dpfda_release"))),
    nasty({
      r <- new_dpfda_release(curves(1:3), mechanism = "x", epsilon = -1, delta = 0,
                             sensitivity = 1, noise_scale = 1)
      validate_dpfda_release(r)
    }),
    nasty({
      r <- new_dpfda_release(list(values = 1), mechanism = "x", epsilon = 1, delta = 0,
                             sensitivity = 1, noise_scale = 1)
      validate_dpfda_release(r)
    }),
    nasty({
      r <- new_dpfda_release(curves(1:3), mechanism = "x", epsilon = 1, delta = 0,
                             sensitivity = 1, noise_scale = 1, f = 1:3)
      validate_dpfda_release(r)
    }, class = "dpfda_error_privacy"),
    nasty(as_density(curves(1:3, cbind(c(0, 1, 0.3), c(0, 0, 1))))),
    nasty(integrate_curves(curves(1:3, cbind(c(0, 1, 0.3), c(0, 0, 1))))),
    nasty(as_density(new_dpfda_release(1:3, "x", 1, 0, 1, 1))),
    nasty(dp_rng(c("secure", "seeded", "x"))),
    nasty(dp_reproducible(1.5)),
    # online release: reloaded state, nothing to release, memory, dimensions, f, overflow
    nasty({
      o <- dp_online(function(t) sin(t), kernel_exponential(0.2), 0.1, 1, 1e-5)
      query(o, 0.5)
      file <- tempfile()
      saveRDS(o, file)
      query(readRDS(file), 0.7)
    }, class = "dpfda_error_state"),
    nasty(released(dp_online(function(t) t, kernel_gaussian(0.2), 0.1, 1, 1e-5)),
          class = "dpfda_error_state"),
    nasty(query(dp_online(function(t) t, kernel_gaussian(0.1), 0.1, 1, 1e-5), seq(0, 1, length.out = 1e5)),
          class = "dpfda_error_numeric"),
    nasty({
      o <- dp_online(function(t) t, kernel_exponential(0.2), 0.1, 1, 1e-5)
      query(o, 0.5)
      query(o, cbind(1, 2))
    }),
    nasty(query(dp_online(function(t) stop("boom"), kernel_exponential(0.2), 0.1, 1, 1e-5), 0.5)),
    # exact noise: scales outside the lattice, extreme epsilons and points, a tiny state limit
    nasty(dp_online(function(t) t, kernel_exponential(0.2), 1e300, 1, 1e-5, noise = "exact"),
          class = "dpfda_error_numeric"),
    nasty(query(dp_online(function(t) t, kernel_exponential(0.2), 0.1, X, 1e-5, noise = "exact"), 0.5),
          expect = "either"),
    nasty(query(dp_online(function(t) t, kernel_exponential(0.2), 0.1, 1e-300, 0.5, noise = "exact"), 0.5),
          expect = "either"),
    nasty(query(dp_online(function(t) t, kernel_exponential(0.2), 1, 1, 1e-5, noise = "exact"), c(-X, 0, X, 1e-300)),
          expect = "either"),
    nasty(query(dp_online(function(p) p[, 1] * X, kernel_gaussian(0.2), 1, 1, 1e-5, noise = "exact"),
                cbind(c(-X, 0, X), 1)), expect = "either"),
    nasty({
      old <- options(dpfda.max_doubles = 3)
      on.exit(options(old))
      dp_online(function(t) t, kernel_exponential(0.2), 0.1, 1, 1e-5, noise = "exact")
    }, class = "dpfda_error_numeric"),
    nasty(query(dp_online(function(t) c(1, 2), kernel_exponential(0.2), 0.1, 1, 1e-5), 0.5)),
    nasty(query(dp_online(function(t) rep(X, length(t)), kernel_exponential(1e-3), 1e300, 1, 1e-5),
                seq(0, 1, length.out = 40)), class = "dpfda_error_numeric"),
    nasty(query(dp_online(function(t) t, kernel_exponential(1, variance = X), 1, 1, 1e-5), c(0, 0.5, 1)),
          expect = "either"),
    nasty(query(dp_online(function(t) t, kernel_exponential(1e-300), 1, 1, 1e-5), c(-X, 0, X)),
          expect = "either"),
    nasty(query(dp_online(function(t) t, kernel_exponential(1e300), 1, 1, 1e-5), c(-X, 0, X, 1e-300)),
          expect = "either"),
    nasty(query(dp_online(function(p) p[, 1], kernel_matern(2.3, 0.5), 1, 1, 1e-5), cbind(c(-X, 0, X), 0)),
          expect = "either"),
    nasty({
      o <- dp_online(function(t) t, kernel_exponential(0.2), 0.1, 1, 1e-5)
      a <- query(o, c(0.3, 0.3, 0.1))
      identical(a[1], a[2]) && identical(query(o, 0.3), a[1]) && length(o) == 2L
    }, expect = "ok"),
    # SVM / KRR: sizes, overflow and labels
    nasty(svm_fit(matrix(runif(2e5), 1e5), rep(c(-1, 1), 5e4), 0.1, kernel_gaussian(0.1)),
          class = "dpfda_error_numeric"),
    nasty(svm_fit(runif(20), rep(c(-1, 1), 10), 0.01, kernel_gaussian(1, variance = X)),
          expect = "either"),
    nasty(dp_svm(runif(20), rep(c(-1, 1), 10), 0.01, kernel_gaussian(1, variance = X), c(0, 1), 1, 1e-5),
          expect = "either"),
    nasty(svm_fit(runif(20), rep(c(-1, 1), 10), 1e-300, kernel_gaussian(0.1), maxit = 100),
          expect = "either"),
    nasty(svm_fit(c(-X, X), c(-1, 1), 0.1, kernel_gaussian(1)), expect = "either"),
    nasty(dp_svm(runif(4), c(1, 1, 1, 1), 0.1, kernel_gaussian(0.3), c(0, 1), 1, 1e-5), expect = "ok"),
    nasty(dp_svm(runif(4), c(-1, 1, 0, 1), 0.1, kernel_gaussian(0.3), c(0, 1), 1, 1e-5)),
    nasty(dp_svm(runif(4), c(-1, 1, -1, 1), 0.1, kernel_gaussian(0.3), c(0, 1), 1, 1e-5,
                 allow_large_epsilon = TRUE, calibration = "hall"), expect = "ok"),
    nasty(krr_fit(runif(20), rnorm(20), 1e-300, kernel_gaussian(0.1), c(-1, 1)), expect = "either"),
    nasty(dp_krr(runif(20), rnorm(20), 0.1, kernel_gaussian(0.1), c(0, 1), c(-X, X), 1, 1e-5),
          expect = "either"),
    nasty(dp_krr(runif(20), rnorm(20), 0.1, kernel_gaussian(0.1), c(0, 1), c(-1, 1), 1, 1e-5,
                 centre = FALSE), expect = "ok"),
    # Bernstein mechanism: impossible lattices, huge k and h, overflow, clamping
    nasty(dp_bernstein(function(p) rep(0, nrow(p)), 1, 1, k = 1e4, dim = 5), class = "dpfda_error_numeric"),
    nasty(dp_bernstein(function(t) t, 0.1, 1, k = 2^31 - 2), class = "dpfda_error_numeric"),
    nasty(dp_bernstein(function(t) rep(X, length(t)), 1e300, 1e-5, k = 3), class = "dpfda_error_numeric"),
    nasty(dp_bernstein(function(t) t, 0.1, 1, k = 3, domain = c(-X, X))),
    nasty(dp_bernstein(function(t) t, 0.1, 1, k = 10, domain = c(1, 1 + 4.5e-16))),
    nasty(bernstein_basis(runif(1e6), 1e4), class = "dpfda_error_numeric"),
    nasty(bernstein_basis(0.5, 2^31 - 2), class = "dpfda_error_numeric"),
    nasty(all(abs(rowSums(bernstein_basis(c(0, 1e-300, 0.5, 1), 1e4)) - 1) < 1e-12), expect = "ok"),
    nasty(bernstein_basis(c(0, 0.5, 1), 20, h = 2^31 - 1), expect = "either"),
    nasty(predict(dp_bernstein(function(t) t, 0.1, 1, k = 3), c(-X, 0, X, 1e-300)), expect = "either"),
    nasty(predict(dp_bernstein(function(t) t, 0.1, 1, k = 20), 0.5, h = 2^31 - 1), expect = "either"),
    nasty(predict(dp_bernstein(function(p) p[, 1], 0.1, 1, k = 3, dim = 2),
                  list(seq(0, 1, length.out = 1e5), seq(0, 1, length.out = 1e5))), class = "dpfda_error_numeric"),
    nasty(predict(dp_bernstein(function(p) p[, 1], 0.1, 1, k = 3, dim = 2), cbind(1, 2, 3))),
    nasty(predict(dp_bernstein(function(t) t, 0.1, 1, k = 3), 0.5, h = 0)),
    # Bernstein examples: cost limits, overflow, data that violate an assumption
    nasty(bernstein_lebesgue(1000, 3, ngrid = 1e7), class = "dpfda_error_numeric"),
    nasty(bernstein_lebesgue(1001, 2)),
    nasty(bernstein_lebesgue(5, 1000) > 3.1, expect = "ok"),
    nasty(sensitivity_bernstein_kde(10, 1e-300, dim = 3), class = "dpfda_error_numeric"),
    nasty(sensitivity_bernstein_naive_bayes(10, 1e-300, dim = 3), class = "dpfda_error_numeric"),
    nasty(sensitivity_bernstein_priestley_chao(10, 0.1, 1, gap = 20)),
    nasty(priestley_chao(c(0, 0.1, 0.9, 1), rep(1, 4), 0.5, 0.1, 1, gap = 2), class = "dpfda_error_privacy"),
    nasty(naive_bayes_kde(cbind(c(-X, 0, X), 0), c(1, -1, 1), rbind(c(0.5, 0.5)), 1e-300), expect = "either"),
    nasty(logistic_fit(cbind(c(-X, 0, X), c(X, 0, -X)), c(1, -1, 1)), expect = "ok"),
    nasty(bernstein_error_bound(X, 1e-300, k = 20), class = "dpfda_error_numeric"),
    nasty(bernstein_error_bound(1, 1, k = 5, noise = "paper", delta = 1e-5)),
    nasty(bernstein_choose_k(1e-300, X, h = 3)$k >= 1, expect = "ok"),
    nasty(bernstein_choose_k(1, 1, h = 2, method = "bound", derivative_bound = 1)),
    # Smith et al. binning, selection and sparse cloaking: sizes and overflow
    nasty(dp_bin_regression(runif(10), runif(10), 1e9, c(0, 1), 1, c(0, 1)), class = "dpfda_error_numeric"),
    nasty(dp_bin_regression(runif(10), runif(10), 3, c(0, 1e300), 1e-300, c(0, 1)),
          class = "dpfda_error_numeric"),
    nasty(dp_bin_regression(runif(10), runif(10), 3, c(-X, X), 1, c(0, 1))),
    nasty(dp_bin_regression(c(-X, 0, X), runif(3), 3, c(0, 1), 1, c(-X, X), method = "integral"),
          expect = "either"),
    nasty(dp_bin_regression(runif(10), runif(10), 3, c(0, 1), 1, c(0, 1), method = "integral",
                            lengthscale = X), expect = "either"),
    nasty(integral_kernel(c(-X, 0), c(X, 1), lengthscale = 1), expect = "either"),
    nasty(integral_kernel(0, 1, lengthscale = 1e-300), expect = "either"),
    nasty(integral_kernel(0, 0, average = TRUE), class = "dpfda_error_argument"),   # (a box of zero width: named)
    nasty(dp_gp_select(runif(1e5), runif(1e5), data.frame(lengthscale = 1, noise_variance = 1), c(0, 1), 1,
                       include_dp_noise = FALSE), class = "dpfda_error_numeric"),
    nasty(dp_gp_select(runif(20), runif(20), data.frame(lengthscale = 1e-300, noise_variance = 1e-300),
                       c(0, 1), 1, include_dp_noise = FALSE), expect = "either"),
    nasty(dp_gp_select(runif(20), runif(20), data.frame(lengthscale = 0.1, noise_variance = 0.1), c(-X, X), 1,
                       include_dp_noise = FALSE)),
    nasty(dp_sparse_gp_regression(runif(1e6), runif(1e6), seq(0, 1, length.out = 1000), 1000,
                                  kernel_gaussian(0.1), 0.1, c(0, 1), 1, 0.01), class = "dpfda_error_numeric"),
    nasty(dp_sparse_gp_regression(runif(50), runif(50), c(0, 1), 1e-300 * (1:3), kernel_gaussian(1e-300),
                                  1e-300, c(0, 1), 1, 0.01), expect = "either"),
    nasty(dp_sparse_gp_regression(runif(50), runif(50), c(0, 1), 5, kernel_gaussian(0.3, variance = X), 0.1,
                                  c(0, 1), 1, 0.01), expect = "either")
  )
}

run_bad_arg_cases <- function() {
  cases <- c(bad_arg_cases(), nasty_cases())
  run <- dpfda_child_run(cases)
  list(cases = cases, run = run)
}

describe_result <- function(r) {
  out <- if (r$status == "ok") {
    if (isTRUE(r$nonfinite)) "succeeded with NaN/Inf in its value" else "succeeded"
  } else sprintf("%s <%s>: %s", r$status, paste(r$class, collapse = "/"), r$message)
  if (isTRUE(r$foreign_warning)) {
    out <- paste0(out, "; warnings: ", paste(r$warnings, collapse = "; "))
  }
  out
}

test_that("every exported function has an entry in the bad-argument table", {
  exports <- sort(getNamespaceExports("dpfda"))
  exports <- exports[vapply(exports, function(f) is.function(getExportedValue("dpfda", f)), NA)]
  tab <- bad_arg_table()
  excluded <- c(bad_arg_excluded, unlist(unname(bad_arg_extensions("bad_arg_excluded"))))
  missing_entry <- setdiff(exports, c(names(tab), names(excluded)))
  expect(length(missing_entry) == 0L,
         sprintf("Exported functions without an entry in bad_arg_table() (test-bad-arguments.R): %s",
                 paste(missing_entry, collapse = ", ")))
  expect_length(setdiff(names(tab), exports), 0L)
  # every formal argument (except ...) appears in every baseline
  for (fun in names(tab)) {
    formals_f <- setdiff(names(formals(getExportedValue("dpfda", fun))), "...")
    for (base in tab[[fun]]) {
      expect(setequal(names(base), formals_f),
             sprintf("Baseline for %s() must give exactly its arguments %s, not %s.", fun,
                     paste(formals_f, collapse = ", "), paste(names(base), collapse = ", ")))
    }
  }
  # the allow-list names real functions, arguments and bad values
  allowed <- bad_arg_allowed()
  expect_true(all(allowed$fun %in% names(tab)))
  expect_true(all(allowed$value %in% c(names(bad_values()), "wrong length")))
  for (i in seq_len(nrow(allowed))) {
    expect(allowed$arg[i] %in% names(formals(getExportedValue("dpfda", allowed$fun[i]))),
           sprintf("bad_arg_allowed(): %s() has no argument `%s`.", allowed$fun[i], allowed$arg[i]))
  }
})

bad_arg_run <- NULL   # shared by the last two tests: one child process for both
test_that("bad arguments give dpfda_error in a child process that does not crash", {
  bad_arg_run <<- run_bad_arg_cases()
  run <- bad_arg_run$run
  cases <- bad_arg_run$cases
  expect(identical(run$status, 0L) && run$finished, dpfda_child_failure(run, cases))
  skip_if_not(run$finished, "child process did not finish")
  r <- run$results
  is_table <- vapply(cases, function(cs) !is.null(cs$fun), NA)
  n_bad <- sum(vapply(cases[is_table], function(cs) !isTRUE(cs$baseline), NA))
  expect_gt(n_bad, 300L)

  # baselines must succeed, or every replacement would "fail" trivially
  base_bad <- vapply(seq_along(cases), function(i) {
    isTRUE(cases[[i]]$baseline) && (r[[i]]$status != "ok" || isTRUE(r[[i]]$nonfinite))
  }, NA)
  expect(!any(base_bad), paste0("Baseline calls that do not succeed:\n",
    paste0("  ", vapply(cases[base_bad], `[[`, "", "label"), ": ",
           vapply(r[base_bad], describe_result, ""), collapse = "\n")))

  offending <- vapply(seq_along(cases), function(i) {
    cs <- cases[[i]]
    if (!is_table[i] || isTRUE(cs$baseline)) return(FALSE)
    st <- r[[i]]$status
    isTRUE(r[[i]]$foreign_warning) ||   # base R warnings mean a check is missing
      if (cs$allowed) st == "other_error" || (st == "ok" && isTRUE(r[[i]]$nonfinite))
      else st != "dpfda_error"
  }, NA)
  expect(!any(offending), sprintf(
    paste("%d of %d bad calls did not raise a dpfda_error, or warned (add a check in R/, or,",
          "if the value is valid, an entry in bad_arg_allowed()):\n%s"),
    sum(offending), n_bad,
    paste0("  ", vapply(cases[offending], `[[`, "", "label"), " -> ",
           vapply(r[offending], describe_result, ""), collapse = "\n")))
})

test_that("hand-written nasty calls give classed errors, not crashes, hangs or nonsense", {
  skip_if(is.null(bad_arg_run) || !bad_arg_run$run$finished, "child process did not finish")
  cases <- bad_arg_run$cases
  r <- bad_arg_run$run$results
  problems <- character()
  for (i in which(vapply(cases, function(cs) !is.null(cs$expect), NA))) {
    cs <- cases[[i]]
    ri <- r[[i]]
    ok <- switch(cs$expect,
      error = ri$status == "dpfda_error" && cs$class %in% ri$class,
      ok = ri$status == "ok" && !isTRUE(ri$nonfinite) && (!is.logical(ri$value) || isTRUE(ri$value)),
      either = ri$status == "dpfda_error" || (ri$status == "ok" && !isTRUE(ri$nonfinite)))
    if (!ok || isTRUE(ri$foreign_warning)) {
      problems <- c(problems, sprintf("  %s\n    expected %s%s, got %s", cs$label, cs$expect,
                                      if (cs$expect == "error") paste0(" <", cs$class, ">") else "",
                                      describe_result(ri)))
    }
    if (ri$seconds > 5) {
      problems <- c(problems, sprintf("  %s\n    took %.1f s", cs$label, ri$seconds))
    }
  }
  expect(length(problems) == 0L, paste0("Nasty calls misbehaving:\n", paste(problems, collapse = "\n")))
})

test_that("refusals found by using the package name what is wrong (y with NA, a reversed y_bound, npc, seed, NA values)", {
  yy <- cars$dist
  yy[3] <- NA
  gpr <- function(y, y_bound = c(0, 130)) dp_gp_regression(cars$speed, y, seq(4, 25, length.out = 22),
                                                           kernel_gaussian(4, variance = 400), noise_variance = 200,
                                                           y_bound = y_bound, epsilon = 1, delta = 1e-5)
  # (was: "`y` must be a numeric vector of 50 finite values ..., not a double vector of length 50")
  e <- expect_error(gpr(yy), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "`y` holds 1 non-finite value (NA, NaN or Inf) at position 3", fixed = TRUE)
  yy[10] <- Inf
  expect_error(gpr(yy), "2 non-finite values (NA, NaN or Inf) at positions 3, 10", fixed = TRUE)
  expect_error(gpr(cars$dist[-1]), "a numeric vector of 50 finite values", class = "dpfda_error_argument")
  expect_error(gpr(cars$dist, c(130, 0)), "Did you mean c(0, 130)?", fixed = TRUE, class = "dpfda_error_argument")
  expect_error(dp_sparse_gp_regression(cars$speed, yy, seq(4, 25, length.out = 22), inducing = seq(4, 25, by = 3),
                                       kernel = kernel_gaussian(4, variance = 400),
                                       noise_variance = 200, y_bound = c(0, 130), epsilon = 1, delta = 1e-5),
               "at positions 3, 10", class = "dpfda_error_data")
  # both limits of a whole number in one format
  expect_error(dp_reproducible(1.5), "between -2,147,483,647 and 2,147,483,647", fixed = TRUE)
  # npc beyond the grid: reduced, and said
  M <- matrix(stats::rnorm(40 * 4, 24, 2), 40)
  msgs <- character()
  withCallingHandlers(with_seed_mode(1, dp_fpca(curves(M, c(8, 10, 12, 14)), npc = 5, epsilon = 1, tau = 10,
                                                center = 24)),
                      dpfda_warning_utility = function(w) {
                        msgs <<- c(msgs, conditionMessage(w))
                        invokeRestart("muffleWarning")
                      })
  expect_true(any(grepl("`npc` = 5 exceeds the 4 points of the grid", msgs, fixed = TRUE)))
  # long data with missing values: the refusal names incomplete = "drop"
  g93 <- seq(0, 1, length.out = 93)
  expect_error(dp_mean(dti_cca, unit = id, grid = g93, epsilon = 1, tau = 0.2, center = 0.5),
               "incomplete = \"drop\"", fixed = TRUE, class = "dpfda_error_data")
})

test_that("delta given to a pure-DP release says so; a missing delta of the GP regression names dp_bin_regression()", {
  # (dp_erm(delta = ) asked "did you mean `data`?"; the GP regression advised a mechanism value that does not exist)
  e <- expect_error(dp_erm(dist ~ speed, data = cars, psi = 0.1, grid = data.frame(speed = 4:25), y_bound = c(0, 130),
                           epsilon = 1, delta = 1e-5), class = "dpfda_error_privacy")
  expect_match(conditionMessage(e), "pure epsilon-DP, with no delta; leave it out", fixed = TRUE)
  e2 <- expect_error(dp_gp_regression(dist ~ speed, data = cars, newdata = data.frame(speed = 4:25),
                                      kernel = kernel_gaussian(5, variance = 400), noise_variance = 225,
                                      y_bound = c(0, 130), epsilon = 1))
  expect_match(conditionMessage(e2), "for pure DP, dp_bin_regression()", fixed = TRUE)
  expect_false(grepl("mechanism = \"bin regression", conditionMessage(e2), fixed = TRUE))
})
