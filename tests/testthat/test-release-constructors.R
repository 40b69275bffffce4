# One constructor per class of release (issue 32): a class's fields are the
# arguments of its constructor, documented next to its mechanism, and
# release_fields() reads them from there. A release of every class (with the
# fields some paths add after the release: tau = "auto", incomplete = "drop",
# inference, a centre, units, exact noise, y_bound = "auto") must store only
# the common fields and its class's documented ones, so a field stored at a
# call site without documenting it fails here.

constructor_fixtures <- function() {
  with_seed_mode(32, {
    t <- seq(0, 1, length.out = 9)
    x <- curves(outer(seq(-1, 1, length.out = 40), sin(pi * t)) / 2, t)
    long <- data.frame(id = rep(seq_len(40), each = 9), arg = rep(t, 40), value = as.vector(t(x$values)),
                       person = rep(seq_len(20), each = 18))
    k <- kernel_matern(3 / 2, 0.2)
    pts <- matrix(stats::rnorm(200), ncol = 2)
    lab <- ifelse(pts[, 1] > 0, 1, -1)
    xr <- seq(0, 1, length.out = 30)
    yr <- sin(2 * pi * xr)
    u <- stats::runif(100)
    syn <- matrix(seq(-2, 2, length.out = 20), 10)
    session <- dp_online(function(a) sin(2 * pi * a), kernel_exponential(0.1), sensitivity = 0.1, epsilon = 1,
                         delta = 1e-5, noise = "exact")
    query(session, c(0.1, 0.5))
    list(
      gp = dp_gp_release(sin(t), t, kernel_gaussian(0.3), 0.1, epsilon = 1, delta = 1e-5),
      gp_exact = dp_gp_release(sin(t), t, kernel_gaussian(0.3), 0.1, epsilon = 1, delta = 1e-5, noise = "exact"),
      mean_ar_center = dp_mean(x, epsilon = 1, tau = 1, mechanism = "iclp_ar", center = function(a) 0.1 * a),
      mean_frl_pcv = dp_mean(x, epsilon = 1, tau = 1, mechanism = "frl", select = "pcv", epsilon_select = 0.3),
      mean_gp_exact = dp_mean(x, epsilon = 1, tau = 1, mechanism = "gp", kernel = k, delta = 1e-5,
                              noise = "exact"),
      mean_bernstein = dp_mean(x, epsilon = 1, tau = 1, mechanism = "bernstein"),
      mean_auto = dp_mean(x, epsilon = 4, tau = "auto"),
      mean_inference = dp_mean(x, epsilon = 1, tau = 1, inference = TRUE),
      mean_drop_unit = suppressWarnings(dp_mean(long[-(1:3), ], epsilon = 1, tau = 1, grid = t,
                                                incomplete = "drop", unit = "person"), classes = "dpfda_warning_utility"),
      cov_auto = dp_cov(x, epsilon = 4, tau = "auto", kernel = k, J = 4),
      cov_drop = suppressWarnings(dp_cov(long[-(1:3), 1:3], epsilon = 1, tau = 1, kernel = k, J = 4, grid = t,
                                         incomplete = "drop"), classes = "dpfda_warning_utility"),
      cov_exact = dp_cov(x, epsilon = 1, tau = 1, kernel = k, J = 4, noise = "exact"),
      erm = dp_erm(xr, yr, epsilon = 1, psi = 0.01, grid = t, eta = 2, y_bound = 2, noise = "exact"),
      kde_iclp = dp_kde(data.frame(x = u, p = rep(1:50, 2)), t, 0.2, epsilon = 1, mechanism = "iclp", unit = "p"),
      kde_gp = dp_kde(u, t, 0.2, epsilon = 1, delta = 1e-5, noise = "exact"),
      kde_bernstein = dp_kde(data.frame(x = u, p = rep(1:50, 2)), t, 0.2, epsilon = 1, delta = 1e-5,
                             mechanism = "bernstein", unit = "p"),
      bernstein = dp_bernstein(function(a) a^2, sensitivity = 0.1, epsilon = 1, k = 4, delta = 1e-5,
                               noise = "exact"),
      bin_exact = dp_bin_regression(xr, yr, 5, c(-1, 1), epsilon = 1, domain = c(0, 1), noise = "exact",
                                    newdata = c(0.2, 0.7)),
      bin_integral = dp_bin_regression(xr, yr, 5, c(-1, 1), epsilon = 1, domain = c(0, 1), method = "integral"),
      gpreg_exact = dp_gp_regression(xr, yr, t, kernel_gaussian(0.2), 0.1, c(-1, 1), epsilon = 1, delta = 1e-5,
                                     noise = "exact"),
      gpreg_standard = dp_gp_regression(xr, yr, t, kernel_gaussian(0.2), 0.1, c(-1, 1), epsilon = 1,
                                        delta = 1e-5, mechanism = "standard", noise = "exact"),
      gpreg_auto = dp_gp_regression(xr, yr, t, kernel_gaussian(0.2), 0.1, "auto", epsilon = 2, delta = 1e-5,
                                    bound_share = 0.9),
      gpreg_sparse = dp_sparse_gp_regression(xr, yr, t, 5, kernel_gaussian(0.2), 0.1, c(-1, 1), epsilon = 1,
                                             delta = 1e-5),
      svm = dp_svm(pts, lab, lambda = 0.01, kernel = kernel_gaussian(0.5), grid = pts[1:5, ], epsilon = 1,
                   delta = 1e-5, noise = "exact"),
      krr = dp_krr(xr, yr, lambda = 1e-2, kernel = kernel_gaussian(0.1), grid = t, y_bound = c(-1, 1),
                   epsilon = 1, delta = 1e-5),
      kme_subspace = dp_kme(data.frame(a = pts[, 1], b = pts[, 2], p = rep(1:50, 2)), kernel_gaussian(1),
                            epsilon = 0.5, delta = 1e-5, synthetic = syn, unit = "p", noise = "exact"),
      kme_features = dp_kme(pts, kernel_gaussian(1), epsilon = 0.5, delta = 0, method = "random_features",
                            M = 5, synthetic = syn, noise = "exact"),
      kme_exponential = dp_kme(pts, kernel_gaussian(1), epsilon = 0.5, delta = 1e-5, method = "exponential",
                               candidates = list(syn, syn / 2)),
      online = released(session)
    )
  })
}

fx <- constructor_fixtures()

# Every release inside a release too (a Bernstein KDE's lattice, the private
# mean of dp_cov(incomplete = "drop"), a Bernstein dp_mean()'s lattice).
all_releases <- function(objs) {
  out <- list()
  for (nm in names(objs)) {
    r <- objs[[nm]]
    out[[nm]] <- r
    subs <- Filter(function(f) inherits(f, "dpfda_release"), unclass(r))
    if (length(subs)) out <- c(out, all_releases(stats::setNames(subs, paste0(nm, "$", names(subs)))))
  }
  out
}

test_that("every field of every release is documented by its class's constructor", {
  common <- dpfda:::release_common_fields
  all <- all_releases(fx)
  for (nm in names(all)) {
    r <- all[[nm]]
    cls <- class(r)[1L]
    expect_true(cls %in% names(dpfda:::release_constructors), info = nm)
    expect_identical(setdiff(names(r), c(common, dpfda:::release_fields(cls))), character(0), info = nm)
  }
  # (a release inside a release may drop its call: the outer one keeps it)
  for (r in fx) expect_valid_release(r)
})

test_that("every class of release has a fixture and a constructor that sets it", {
  ctors <- dpfda:::release_constructors
  have <- unique(vapply(all_releases(fx), function(r) class(r)[1L], ""))
  expect_setequal(have, names(ctors))
  ns <- asNamespace("dpfda")
  for (cls in names(ctors)) {
    ctor <- get(ctors[[cls]], envir = ns, mode = "function")
    # the common fields first, then the documented ones, and no open `...`
    expect_identical(names(formals(ctor))[1:8],
                     c("values", "mechanism", "epsilon", "delta", "sensitivity", "noise_scale", "noise", "call"))
    expect_false("..." %in% names(formals(ctor)))
    expect_false(anyDuplicated(dpfda:::release_fields(cls)) > 0)
  }
  # every class a release has is documented, but the base class and dpfda_kme (the KME's other name)
  expect_setequal(setdiff(unique(unlist(lapply(all_releases(fx), class))), c("dpfda_release", "dpfda_kme")),
                  names(ctors))
})

test_that("a constructor stores what it is given, in the order of its fields, and refuses other fields", {
  t <- seq(0, 1, length.out = 5)
  v <- curves(sin(t), t)
  r <- dpfda:::new_bernstein_release(v, "bernstein", 1, 0, 0.1, 0.2, noise = "x", k = 4, h = 1, dim = 1L,
                                     grid_step = NULL, noise_type = "laplace")
  expect_s3_class(r, c("dpfda_bernstein_release", "dpfda_release"), exact = TRUE)
  expect_identical(setdiff(names(r), dpfda:::release_common_fields), c("k", "h", "dim", "noise_type"))
  # the fields some releases have always stored even as NULL
  b <- dpfda:::new_bin_release(v, "bin-laplace", 1, 0, 1, 1, counts = 1:5, fit = NULL, predictions = NULL)
  expect_identical(setdiff(names(b), dpfda:::release_common_fields), c("counts", "fit", "predictions"))
  expect_null(b$fit)
  expect_error(dpfda:::new_gp_release(v, "gp", 1, 1e-5, 0.1, 0.2, undocumented = 1), "unused argument")
  expect_error(dpfda:::release_fields("dpfda_release"), class = "dpfda_error")
  # a GP-regression release is a GP release exactly when it carries a GP path
  g <- dpfda:::new_gpreg_release(v, "gp-regression-standard", 1, 1e-5, 0.1, 0.2, jitter = 0, sampler = "x")
  expect_s3_class(g, c("dpfda_gpreg_release", "dpfda_gp_release", "dpfda_release"), exact = TRUE)
  expect_s3_class(dpfda:::new_gpreg_release(v, "gp-regression-cloaking", 1, 1e-5, 0.1, 0.2),
                  c("dpfda_gpreg_release", "dpfda_release"), exact = TRUE)
})

test_that("the constructor and the validator refuse a guarantee that is not a finite number", {
  t <- seq(0, 1, length.out = 20)
  v <- curves(sin(2 * pi * t), t)
  mk <- function(...) {
    a <- utils::modifyList(list(values = v, mechanism = "x", epsilon = 1, delta = 1e-5, sensitivity = 0.1,
                                noise_scale = 0.5), list(...))
    do.call(new_dpfda_release, a)
  }
  expect_s3_class(mk(), "dpfda_release")
  for (bad in list(list(epsilon = Inf), list(epsilon = NA_real_), list(epsilon = c(1, 2)), list(delta = NA_real_),
                   list(delta = 1), list(sensitivity = Inf), list(sensitivity = NaN))) {
    e <- expect_error(do.call(mk, bad), class = "dpfda_error_privacy")
    expect_identical(e$arg, names(bad))
  }
  r <- mk()
  r$epsilon <- Inf
  expect_error(validate_dpfda_release(r), "`epsilon` must be a finite number > 0", class = "dpfda_error_argument")
  r <- mk()
  r$sensitivity <- Inf
  expect_error(validate_dpfda_release(r), "`sensitivity` must be finite", class = "dpfda_error_argument")
})
