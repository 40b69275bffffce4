# Defects found by using the functional summaries as a statistician would (session of 2026-12-02):
# each test fails on the behaviour before its fix.

test_that("dp_cov() and dp_fpca() keep the names of the data's argument and values", {
  skip_if_not_installed("fda")
  cc <- as_curves(t(fda::growth$hgtm), grid = fda::growth$age, arg_name = "age", value_name = "height")
  c1 <- with_seed_mode(1, suppressWarnings(dp_cov(cc, epsilon = 2, tau = 60, center = function(t) 80 + 5 * t)))
  expect_identical(c1$values$arg_name, c("age", "age"))
  expect_identical(c1$values$value_name, "covariance of height")
  p <- suppressWarnings(dp_fpca(c1, npc = 2))
  expect_identical(p$harmonics$arg_name, "age")
  # long data: the columns' names
  O <- as.data.frame(nlme::Orthodont)
  r <- with_seed_mode(1, suppressWarnings(dp_cov(O, id = Subject, arg = age, value = distance, grid = c(8, 10, 12, 14),
                                                 epsilon = 1, tau = 20, center = 25)))
  expect_identical(r$values$arg_name, c("age", "age"))
  expect_identical(r$values$value_name, "covariance of distance")
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_identical(plot(c1), c1)
})

test_that("long data read back without naming its columns is recognised as long", {
  skip_if_not_installed("fda")
  cc <- as_curves(t(fda::growth$hgtm), grid = fda::growth$age, arg_name = "age", value_name = "height")
  d <- as.data.frame(cc, names = TRUE)
  e <- expect_error(as_curves(d), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "it looks like long data", fixed = TRUE)
  expect_match(conditionMessage(e), "as_curves(x, id = id, arg = age, value = height)", fixed = TRUE)
  back <- as_curves(d, id = id, arg = age, value = height)
  expect_equal(back$values, cc$values, ignore_attr = TRUE)
})

test_that("tau = \"auto\" prints its share once and tau to four digits", {
  set.seed(2)
  g <- seq(0, 1, length.out = 21)
  X <- matrix(stats::rnorm(400 * 21, sd = 0.3), 400) + rep(sin(2 * pi * g), each = 400)
  r <- with_seed_mode(3, dp_mean(curves(X, g), epsilon = 1, tau = "auto"))
  out <- paste(capture.output(print(r)), collapse = "\n")
  expect_match(out, sprintf("bound_share %s of epsilon: %s;", format(r$tau_auto$share, digits = 3),
                            format(r$tau_auto$epsilon, digits = 4)), fixed = TRUE)
  expect_false(grepl(", i.e. ", out, fixed = TRUE))
  expect_match(out, sprintf("clipped to tau = %s;", format(r$tau, digits = 4)), fixed = TRUE)
})

test_that("the Bernstein mean's population band is cut to centre +- tau, where the clamped curves lie", {
  g <- seq(0, 1, length.out = 41)
  set.seed(1)
  X <- sweep(matrix(stats::rnorm(400 * 3), 400) %*% rbind(0.3 * sin(pi * g), 0.2 * cos(pi * g), 0.1 * sin(3 * pi * g)),
             2, sin(2 * pi * g) / 2 + g, "+")
  r <- with_seed_mode(1, dp_mean(X, grid = g, epsilon = 2, tau = 3, mechanism = "bernstein", inference = TRUE))
  p <- confint(r, type = "population", nsim = 2000)
  expect_true(all(p$lower >= -3 - 1e-12 & p$upper <= 3 + 1e-12))
  expect_lt(max(p$upper - p$lower), 6 + 1e-12)
  # the cut keeps the truth on the band's event: the band still covers the population mean here
  mu <- sin(2 * pi * g) / 2 + g
  expect_true(all(p$lower <= mu & mu <= p$upper))
  # with a centre, about it
  rc <- with_seed_mode(1, dp_mean(X, grid = g, epsilon = 2, tau = 1.5, mechanism = "bernstein", inference = TRUE,
                                  center = function(t) sin(2 * pi * t) / 2 + t))
  pc <- confint(rc, type = "population", nsim = 2000)
  expect_true(all(pc$lower >= mu - 1.5 - 1e-9 & pc$upper <= mu + 1.5 + 1e-9))
})

test_that("pcv_select()'s default candidates follow the units of the values; 'paper' keeps the paper's ends", {
  g <- seq(0, 1, length.out = 48)
  X <- adelaide_monday
  sel <- function(x, tau, c0, mech, ...) {
    with_seed_mode(3, suppressWarnings(pcv_select(x, epsilon = 1, tau = tau, center = c0, mechanism = mech,
                                                  epsilon_select = 0.5, ...)))
  }
  for (mech in c("iclp_ar", "iclp_qr")) {
    a <- sel(curves(X, g), 1000, 1500, mech)
    b <- sel(curves(X / 1000, g), 1, 1.5, mech)
    expect_identical(a$index, b$index)
    expect_equal(a$candidates / if (mech == "iclp_ar") 1000 else 1, b$candidates, tolerance = 1e-12)
  }
  # at tau = 1 the default grids are the paper's
  p1 <- sel(curves(X / 1000, g), 1, 1.5, "iclp_qr", candidates = "paper")
  expect_equal(p1$candidates, sel(curves(X / 1000, g), 1, 1.5, "iclp_qr")$candidates)
  pa <- sel(curves(X, g), 1000, 1500, "iclp_ar", candidates = "paper")
  expect_equal(range(pa$candidates), sort(c(0.5 * 1000 / nrow(X), 1 / nrow(X))))
})

test_that("curves from as_curves(incomplete = \"drop\") need incomplete = \"drop\" in dp_mean() and dp_cov()", {
  # (the 45 complete ChickWeight chicks of 50 were summed and divided by 50: the mean pulled 10%
  # towards `center`, printed over "one curve (50)")
  days <- c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21)
  ctr <- 40 + 8 * days
  x <- as_curves(datasets::ChickWeight, id = Chick, arg = Time, value = weight, grid = days, incomplete = "drop")
  expect_length(x$dropped, 5L)
  e <- expect_error(dp_mean(x, epsilon = 1, tau = 600, center = ctr), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "holds 45 complete curves of 50", fixed = TRUE)
  expect_match(conditionMessage(e), "by 10% in silence", fixed = TRUE)
  expect_identical(e$arg, "incomplete")
  expect_error(dp_cov(x, epsilon = 1, tau = 600, center = ctr), "to dp_cov() as well", fixed = TRUE,
               class = "dpfda_error_data")
  # with it: the mean of the complete curves (a large epsilon: only the count's noise is left)
  r <- with_seed_mode(1, suppressWarnings(dp_mean(x, epsilon = 1e4, tau = 600, center = ctr, noise = "exact",
                                                  select = "manual", eta = 1, psi = 1e-12, incomplete = "drop")))
  m <- colMeans(x$values)
  expect_lt(max(abs((r$values$values[1, ] - ctr) / (m - ctr) - 1)), 0.25)
  expect_equal(r$n, 50)
  # the same curves rebuilt by curves() are a data set of 45, released as such
  expect_silent(suppressWarnings(dp_mean(curves(x$values, days), epsilon = 1, tau = 600, center = ctr)))
  # with a unit: refused only when a unit has no complete curve left
  u <- rep(1:15, each = 3)
  expect_silent(suppressWarnings(dp_mean(x, epsilon = 1, tau = 600, center = ctr, unit = u)))
})

test_that("r - r is refused, and a band's method gives no share from an uninformative clipped count", {
  skip_if_not_installed("fda")
  gr <- fda::growth
  gy <- seq(1, 18, by = 0.5)
  boys <- as_curves(as_curves(t(gr$hgtm), grid = gr$age), grid = gy)
  ref <- function(a) pmin(75 + 6.2 * (a - 1), 170)
  rb <- with_seed_mode(2, dp_mean(boys, epsilon = 1, tau = 25 * sqrt(17), center = ref, inference = TRUE))
  # (the difference of a release with itself printed a noise sd of 17 and a band of +-33.5 around 0)
  expect_error(rb - rb, "are the same release", class = "dpfda_error_argument")
  # every boy is within tau; the count's noise spans most of 0-100%: the method states no share
  # (it said "a private count puts 100% of the curves beyond tau", where the print said "too noisy")
  m <- attr(confint(rb, type = "population"), "method")
  expect_match(m, "too noisy to tell what share of the curves is beyond tau", fixed = TRUE)
  expect_false(grepl("puts 100%", m, fixed = TRUE))
  expect_output(print(rb), "too noisy to tell", fixed = TRUE)
})

test_that("a summary's print says how many individuals were incomplete and how many cells had no row", {
  # (summarise_mean(dti_cca, incomplete = "drop") printed "0 values dropped" with 6 scans left out)
  gr <- seq(0, 1, length.out = 93)
  s <- summarise_mean(dti_cca, grid = gr, tau = 0.3, center = 0.45, incomplete = "drop")
  expect_equal(s$incomplete_n, 6)
  expect_output(print(s), "6 incomplete individuals (not observed at every grid point)", fixed = TRUE)
  d <- data.frame(id = rep(1:3, each = 3), arg = c(0, 0.5, 1, 0, 0.5, 1, 0, 1, 1), value = 1)
  expect_output(print(summarise_mean(d, grid = c(0, 0.5, 1), tau = 2)), "1 (individual, grid point) cells without a row",
                fixed = TRUE)
})
