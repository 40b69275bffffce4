# Plot methods draw on a null device; ggplot2 methods build ggplot objects;
# progress bars stay silent outside interactive sessions (R/plot.R,
# R/autoplot.R, R/progress.R).

on_null_device <- function(code) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  force(code)
}

test_that("base plot methods draw curves, releases, densities and mortality distributions", {
  g <- seq(0, 1, length.out = 40)
  x <- curves(rbind(sin(2 * pi * g), cos(2 * pi * g)), g)
  r <- with_seed_mode(1, dp_gp_release(sin(2 * pi * g), g, kernel_gaussian(0.2), 0.1, 1, 1e-3))
  m <- mortality_distribution(rep(0:10, 2), c(10:0 + 1, 0:10 + 1), rep(c("a", "b"), each = 11))
  x2 <- curves(matrix(runif(25), 1), list(seq(0, 1, length.out = 5), seq(0, 1, length.out = 5)))
  on_null_device({
    expect_identical(plot(x), x)
    expect_identical(lines(x), x)
    expect_identical(plot(r), r)
    expect_identical(plot(r, band = TRUE), r)
    expect_identical(plot(r, reference = sin(2 * pi * g)), r)
    expect_identical(plot(r, band = TRUE, reference = curves(sin(2 * pi * g), g)), r)
    expect_identical(lines(r), r)
    expect_identical(plot(m), m)
    expect_identical(plot(x2), x2)
    expect_identical(plot(as_density(curves(dnorm(g, 0.5, 0.1), g))), as_density(curves(dnorm(g, 0.5, 0.1), g)))
  })
  e <- expect_error(on_null_device(plot(r, reference = 1:3)), class = "dpfda_error_argument")
  expect_identical(e$arg, "reference")
})

test_that("autoplot methods build ggplot objects when ggplot2 is installed", {
  skip_if_not_installed("ggplot2")
  g <- seq(0, 1, length.out = 30)
  x <- curves(rbind(sin(2 * pi * g), g), g)
  r <- with_seed_mode(2, dp_gp_release(sin(2 * pi * g), g, kernel_gaussian(0.2), 0.1, 1, 1e-3))
  m <- mortality_distribution(rep(0:10, 2), c(10:0 + 1, 0:10 + 1), rep(c("a", "b"), each = 11))
  x2 <- curves(matrix(runif(25), 1), list(seq(0, 1, length.out = 5), seq(0, 1, length.out = 5)))
  for (obj in list(x, m, x2)) expect_s3_class(ggplot2::autoplot(obj), "ggplot")
  p <- ggplot2::autoplot(r, band = TRUE, reference = sin(2 * pi * g))
  expect_s3_class(p, "ggplot")
  expect_length(p$layers, 2L)                  # band; release and reference (one line layer, by linetype)
  expect_setequal(levels(p$data$what), c("private release", "reference (not private)"))
  on_null_device(print(p))
  set.seed(1)
  k <- with_seed_mode(3, dp_kme(matrix(runif(200), 100, 2), kernel_gaussian(0.3), epsilon = 1, delta = 1e-5,
                                synthetic = matrix(runif(20), 10, 2)))
  pk <- ggplot2::autoplot(k)
  expect_s3_class(pk, "ggplot")
  on_null_device(print(pk))
  on_null_device(expect_identical(plot(k), k))
})

test_that("a density release is plotted against x with a density axis, and its population band's legend wraps", {
  skip_if_not_installed("ggplot2")
  # (the axes said "t" and "value", and the band's legend ran off a 5-inch plot)
  k <- with_seed_mode(4, dp_kde(faithful$eruptions, epsilon = 1, domain = c(1, 6), bandwidth = 0.3,
                                mechanism = "iclp"))
  p <- ggplot2::autoplot(k, band = "population")
  expect_identical(c(p$labels$x, p$labels$y), c("x", "density"))
  lab <- unique(as.character(p$layers[[1L]]$data$band))
  expect_match(lab, "^95% band for the population density\nsmoothed by the kernel$")
  expect_true(all(nchar(strsplit(lab, "\n")[[1L]]) <= 44L))
  on_null_device(print(p))
  # recorded names win; a curve release keeps "t" and "value"
  x <- as_curves(data.frame(id = rep(1:3, each = 5), age = rep(1:5, 3), height = runif(15)), id = id, arg = age,
                 value = height)
  r <- with_seed_mode(5, dp_mean(x, epsilon = 1, tau = 1))
  expect_identical(c(ggplot2::autoplot(r)$labels$x, ggplot2::autoplot(r)$labels$y), c("age", "height"))
  expect_identical(dpfda:::release_labelled_values(k)$arg_name, "x")
})

test_that("progress bars are silent unless enabled and count to their total", {
  expect_false(dp_progress_enabled())          # tests are not interactive
  p <- dp_progress(5, "x")
  expect_silent(for (i in 1:5) p$tick())
  expect_silent(p$done())
  old <- options(dpfda.progress = TRUE)
  on.exit(options(old))
  expect_true(dp_progress_enabled())
  out <- capture.output(type = "message", {
    p <- dp_progress(4, "counting")
    for (i in 1:4) p$tick()
    p$done()
  })
  expect_true(any(grepl("counting", out)))
  expect_true(any(grepl("100%", out)))
  options(dpfda.progress = FALSE)
  expect_false(dp_progress_enabled())
  e <- expect_error(dp_progress(-1), class = "dpfda_error_argument")
  expect_identical(e$arg, "total")
})

test_that("a Bernstein release is drawn as its polynomial with its band, not as its lattice joined by lines", {
  # (plot() joined the 11 noisy lattice values by straight lines: a rougher function than the one released)
  f <- function(t) sin(2 * pi * t) + 2
  r <- with_seed_mode(5, dp_bernstein(f, sensitivity = 0.01, epsilon = 1, k = 10, domain = c(0, 2)))
  v <- dpfda:::release_view(r)
  expect_length(v$values$grid, 201L)
  expect_equal(range(v$values$grid), c(0, 2))
  expect_equal(as.vector(v$values$values), predict(r, v$values$grid), tolerance = 1e-14)
  ci <- confint(v)
  B <- bernstein_basis(v$values$grid / 2, 10)
  expect_equal(ci$se, r$noise_scale * sqrt(2) * sqrt(rowSums(B^2)), tolerance = 1e-12)   # Laplace sd of B %*% noise
  expect_equal(ci$se[c(1, 201)], rep(r$noise_scale * sqrt(2), 2), tolerance = 1e-12)     # the end lattice values
  expect_lt(max(ci$se[20:180]), 0.6 * r$noise_scale * sqrt(2))                           # averaging inside
  on_null_device({
    expect_identical(plot(r, band = TRUE, reference = f), r)
    expect_identical(plot(r, reference = f(seq(0, 2, length.out = 11))), r)    # on the lattice, as before
    expect_identical(plot(r, reference = f(v$values$grid)), r)
    expect_identical(lines(r), r)
  })
  e <- expect_error(on_null_device(plot(r, reference = 1:3)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "201 \\(the polynomial's grid\\) or 11 \\(the lattice\\)")
  e <- expect_error(on_null_device(plot(r, reference = function(t) stop("no"))), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "failed at the release's grid: no")
  e <- expect_error(on_null_device(plot(r, reference = function(t) 1)), class = "dpfda_error_argument")
  expect_identical(e$arg, "reference")
  # in the plane: the polynomial on 51 x 51 points of the box, drawn as an image
  r2 <- with_seed_mode(6, dp_bernstein(function(p) p[, 1] * p[, 2], sensitivity = 0.01, epsilon = 1, k = 6, dim = 2,
                                       domain = rbind(c(0, -1), c(2, 1))))
  v2 <- dpfda:::release_view(r2)
  ax <- list(seq(0, 2, length.out = 51), seq(-1, 1, length.out = 51))
  expect_equal(nrow(v2$values$grid), 2601L)
  expect_equal(as.vector(v2$values$values), as.vector(predict(r2, ax)), tolerance = 1e-14)
  expect_equal(as.vector(v2$values$values)[c(1, 52, 2601)], predict(r2, rbind(c(0, -1), c(0, -1 + 2 / 50), c(2, 1))),
               tolerance = 1e-12)
  on_null_device(expect_identical(plot(r2), r2))
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(r, band = TRUE, reference = f)
  rel <- p$data[p$data$what == "Bernstein polynomial (h = 1)", ]
  expect_equal(rel$value, as.vector(v$values$values))
  expect_equal(p$data$value[p$data$what == "reference (not private)"], f(v$values$grid))
  pts <- Filter(function(l) inherits(l$geom, "GeomPoint"), p$layers)
  expect_length(pts, 1L)
  expect_equal(pts[[1L]]$data$value, as.vector(r$values$values))
  on_null_device(print(p))
})

test_that("a density of named columns is labelled by them; a band in the plane is refused, not dropped", {
  # (axes read x1, x2 for MASS::geyser's waiting and duration; plot(r, band = TRUE) drew no band, silently)
  d <- data.frame(waiting = c(80, 71, 57, 80, 75, 77, 60, 86, 77, 56), duration = c(4, 2.2, 4.7, 4.2, 3.9, 1.9, 4.5,
                                                                                   1.8, 4.6, 4.7))
  dom <- rbind(c(40, 0.5), c(110, 6))
  r <- with_seed_mode(1, dp_kde(d, bandwidth = c(5, 0.4), epsilon = 1, delta = 1e-6, domain = dom))
  expect_identical(r$values$arg_name, c("waiting", "duration"))
  expect_identical(names(as.data.frame(r$values, names = TRUE))[2:3], c("waiting", "duration"))
  expect_identical(dpfda:::curves_axis_labels(r$values), c("waiting", "duration"))
  on_null_device(expect_identical(plot(r), r))
  e <- expect_error(on_null_device(plot(r, band = TRUE)), class = "dpfda_error_unsupported")
  expect_identical(e$arg, "band")
  expect_error(on_null_device(plot(r, reference = 1)), class = "dpfda_error_unsupported")
  r1 <- with_seed_mode(1, dp_kde(d, bandwidth = 0.4, epsilon = 1, delta = 1e-6, domain = c(0.5, 6),
                                 columns = "duration"))
  expect_identical(dpfda:::curves_arg_label(r1$values), "duration")
  # a domain that does not fit the data (its columns swapped) is said; a few points beyond it are not
  w <- expect_warning(dp_kde(d, bandwidth = c(5, 0.4), epsilon = 1, delta = 1e-6, domain = dom[, 2:1]),
                      class = "dpfda_warning_data")
  expect_match(conditionMessage(w), "10 of the 10 points \\(100%\\) lie outside `domain` \\(\\[0.5, 6\\] x \\[40, 110\\]\\)")
  expect_match(conditionMessage(w), "order of the points' \\(waiting, duration\\)")
  expect_silent(with_seed_mode(1, dp_kde(c(d$duration, 9), seq(0.5, 6, length.out = 30), 0.4, epsilon = 1,
                                         delta = 1e-6, domain = c(0.5, 6))))   # 1 of 11 beyond: its purpose
  expect_warning(with_seed_mode(1, dp_kde(c(d$duration, 9, 9), seq(0.5, 6, length.out = 30), 0.4, epsilon = 1,
                                          delta = 1e-6, domain = c(0.5, 6))), "2 of the 12 points \\(17%\\)",
                 class = "dpfda_warning_data")
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(r)
  expect_identical(c(p$labels$x, p$labels$y), c("waiting", "duration"))
  expect_error(ggplot2::autoplot(r, band = TRUE), class = "dpfda_error_unsupported")
})

test_that("a release's default title goes on two lines when one would be cut off", {
  expect_identical(dpfda:::release_title(list(mechanism = "kde-gp", epsilon = 1, delta = 1e-5)),
                   "kde-gp release, epsilon = 1, delta = 1e-05")
  # (gp-regression-cloaking's title ran past a 7-inch device)
  expect_identical(dpfda:::release_title(list(mechanism = "gp-regression-cloaking", epsilon = 1, delta = 1e-5)),
                   "gp-regression-cloaking release\nepsilon = 1, delta = 1e-05")
})

test_that("a binned regression is drawn as the step function it publishes, with its band per bin", {
  set.seed(4)
  x <- stats::runif(200, 0, 60)
  y <- 50 * sin(x / 10) + stats::rnorm(200, sd = 10)
  r <- with_seed_mode(2, dp_bin_regression(x, y, 12, c(-100, 100), 2, c(0, 60)))
  v <- dpfda:::release_view(r)
  expect_s3_class(v, "dpfda_bin_step_view")
  expect_length(v$values$grid, 24L)
  # each bin's mean over the whole bin, as predict() gives it (not a line between the centres)
  expect_equal(as.vector(v$values$values), predict(r, v$values$grid))
  expect_equal(v$values$grid[c(1, 24)], c(0, 60), tolerance = 1e-7)
  # the noise of a bin is one draw: the band at both ends of a bin is the release's band at its centre
  for (type in c("pointwise", "simultaneous")) {
    a <- dpfda:::release_band(v, type, 0.95)
    b <- confint(r, type = type)
    expect_equal(a$lower, rep(b$lower, each = 2), tolerance = 1e-12)
    expect_equal(a$upper, rep(b$upper, each = 2), tolerance = 1e-12)
  }
  on_null_device({
    expect_identical(plot(r, band = "simultaneous", reference = function(t) 50 * sin(t / 10)), r)
    expect_identical(plot(r, reference = 50 * sin(dpfda:::bin_centres(12, matrix(c(0, 60))) / 10)), r)
  })
  e <- expect_error(on_null_device(plot(r, reference = 1:5)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "12 (the bin centres)", fixed = TRUE)
  # integral fits and many bins are drawn as before
  expect_identical(dpfda:::release_view(with_seed_mode(2, dp_bin_regression(x, y, 600, c(-100, 100), 2, c(0, 60)))) |>
                     class(), c("dpfda_bin_release", "dpfda_release"))
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(r, band = TRUE, reference = function(t) 50 * sin(t / 10))
  expect_equal(p$data$value[p$data$what == "bin means (a step function)"], as.vector(v$values$values))
  expect_length(p$data$value[p$data$what == "reference (not private)"], 201L)
  on_null_device(print(p))
})
