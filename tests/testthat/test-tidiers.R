# tidy() and glance() of the results that are not releases: a bandwidth, a selection (dp_select(),
# dp_gp_select(), pcv_select()) and an accuracy plan (R/bandwidth.R, R/mech-exponential.R,
# R/iclp-tuning.R, R/accuracy.R). They were R's unclassed "no applicable method".

test_that("a released bandwidth: one row per coordinate, and one row of settings", {
  x <- cbind(faithful$eruptions, faithful$waiting)
  b <- with_seed_mode(1, dp_bandwidth(x, epsilon = 1, delta = 1e-6, fallback = c(0.3, 5)))
  td <- tidy(b)
  expect_identical(names(td), c("coordinate", "bandwidth", "private"))
  expect_identical(td$coordinate, 1:2)
  expect_equal(td$bandwidth, as.double(b$bandwidth))
  expect_identical(td$private, as.logical(b$private))
  g <- glance(b)
  expect_identical(nrow(g), 1L)
  expect_equal(g[c("epsilon", "delta", "n", "dim")], data.frame(epsilon = 1, delta = 1e-6, n = 272L, dim = 2L))
  expect_identical(g$private, sum(b$private))
  expect_equal(g$n_needed, b$n_needed %||% NA_real_)
  expect_identical(g$rng, "seeded")
  expect_error(tidy(b, matrix = 1), class = "dpfda_error_argument")
})

test_that("a selection: its index and guarantee as one row, never the utilities", {
  s <- with_seed_mode(2, dp_select(c(a = 1, b = 5, c = 2), sensitivity = 1, epsilon = 2))
  g <- glance(s)
  expect_identical(names(g), c("index", "label", "n_candidates", "epsilon", "sensitivity", "noise", "rng"))
  expect_identical(c(g$index, g$n_candidates), c(s$index, 3L))
  # the candidates' names are public: the chosen one's is kept and printed
  expect_identical(g$label, c("a", "b", "c")[s$index])
  expect_output(print(s), sprintf("candidate %d (\"%s\") of 3", s$index, c("a", "b", "c")[s$index]), fixed = TRUE)
  s2 <- with_seed_mode(2, dp_select(c(1, 5, 2), sensitivity = 1, epsilon = 2))
  expect_null(s2$label)
  expect_true(is.na(glance(s2)$label))
  expect_output(print(s2), sprintf("candidate %d of 3", s2$index), fixed = TRUE)
  x <- seq(0, 1, length.out = 40)
  y <- sin(6 * x) + stats::rnorm(40, 0, 0.2)
  gs <- with_seed_mode(3, dp_gp_select(x, y, expand.grid(lengthscale = c(0.1, 0.5), noise_variance = 0.04),
                                       y_bound = c(-2, 2), epsilon = 1, delta = 1e-5, folds = 4,
                                       epsilon_regression = 1))
  gg <- glance(gs)
  # the selection's own guarantee (pure epsilon), and the regression's apart (glance() showed the
  # regression's delta 1e-5 next to the selection's epsilon 1, a guarantee nothing had)
  expect_identical(c(gg$epsilon, gg$delta), c(1, 0))
  expect_identical(c(gg$epsilon_regression, gg$delta_regression), c(1, 1e-5))
  expect_identical(gg$noise_variance, gs$noise_variance)
  t <- seq(0, 1, length.out = 30)
  cv <- curves(outer(stats::runif(200, 0.5, 1), sin(2 * pi * t)), t)
  p <- with_seed_mode(4, pcv_select(cv, epsilon = 1, tau = 1, mechanism = "frl", epsilon_select = 0.5))
  gp <- glance(p)
  expect_identical(c(gp$parameter, gp$mechanism), c("M", "frl"))
  expect_equal(gp$value, p$value)
  expect_equal(gp$n_candidates, length(p$candidates))
})

test_that("an accuracy plan: settings and figures as one row, with what was solved for", {
  g <- seq(0, 1, length.out = 41)
  a <- dp_accuracy(mechanism = "iclp_qr", n = 500, epsilon = 1, tau = 1, grid = g)
  ga <- glance(a)
  expect_identical(nrow(ga), 1L)
  expect_equal(ga[c("expected_l2", "expected_sup", "bias_l2", "total_l2")],
               data.frame(expected_l2 = a$expected_l2, expected_sup = a$expected_sup, bias_l2 = a$bias_l2,
                          total_l2 = a$total_l2))
  expect_false("n_needed" %in% names(ga))
  a2 <- dp_accuracy(mechanism = "iclp_qr", n = 500, epsilon = 1, tau = 1, grid = g, target_l2 = 0.05)
  expect_equal(glance(a2)$n_needed, a2$n_needed)
  ac <- dp_accuracy(mechanism = "cov", n = 100, epsilon = 1, tau = 1, grid = seq(0, 1, length.out = 11), J = 4,
                    nsim = 50)
  expect_true(is.na(glance(ac)$bias_sup))
})

test_that("plot() and summary() of a bandwidth, a selection and an online session: classed, or the public answers", {
  # (R's default plot() failed with unclassed errors, and summary() printed the raw list)
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  b <- with_seed_mode(1, dp_bandwidth(datasets::faithful$eruptions, 1, 1e-5, fallback = 0.3))
  expect_error(plot(b), "plot the density released with it", class = "dpfda_error_unsupported")
  expect_identical(summary(b), b)
  s <- with_seed_mode(2, dp_select(c(1, 5, 2), sensitivity = 1, epsilon = 2))
  expect_error(plot(s), class = "dpfda_error_unsupported")
  expect_identical(summary(s), s)
  t <- seq(0, 1, length.out = 30)
  p <- with_seed_mode(4, pcv_select(curves(outer(stats::runif(200, 0.5, 1), sin(2 * pi * t)), t), epsilon = 1,
                                    tau = 1, mechanism = "frl", epsilon_select = 0.5))
  expect_error(plot(p), class = "dpfda_error_unsupported")
  # predict() of a number is refused the same way, saying what to release (it was "no applicable method")
  expect_error(predict(b), "dp_kde", class = "dpfda_error_unsupported")
  expect_error(predict(s), "chooses a candidate", class = "dpfda_error_unsupported")
  expect_error(predict(p, t), "select = \"manual\"", class = "dpfda_error_unsupported")
  o <- with_seed_mode(3, dp_online(function(u) sin(2 * pi * u), kernel_exponential(0.1), 0.1, 1, 1e-5))
  expect_error(glance(o), class = "dpfda_error_state")   # (nothing answered yet)
  invisible(query(o, seq(0, 1, length.out = 20)))
  r <- released(o)
  expect_identical(glance(o), glance(r))
  expect_identical(tidy(o), tidy(r))
  expect_equal(plot(o)$values$values, r$values$values)
  expect_output(print(summary(o)), "gp_online")
})
