# quantile() and summary() of densities on a grid (R/density-summaries.R)

dens <- function(v, t) as_density(curves(v, t))
dist_mean <- function(d) summary(d)$distribution$mean

test_that("quantiles and means are exact for a density linear between grid points", {
  t <- seq(0, 1, length.out = 11)
  tri <- dens(2 * t, t)   # f(t) = 2t, linear: F(t) = t^2
  p <- c(0, 0.01, 0.25, 0.5, 0.9, 1)
  expect_equal(unname(quantile(tri, p)), sqrt(p), tolerance = 1e-13)
  expect_equal(dist_mean(tri), 2 / 3, tolerance = 1e-13)
  expect_named(quantile(tri, c(0.25, 0.5)), c("25%", "50%"))
  expect_null(names(quantile(tri, 0.5, names = FALSE)))
  # decreasing and flat pieces
  dec <- dens(2 - 2 * t, t)
  expect_equal(unname(quantile(dec, p)), 1 - sqrt(1 - p), tolerance = 1e-13)
  expect_equal(dist_mean(dec), 1 / 3, tolerance = 1e-13)
  expect_equal(unname(quantile(dens(rep(5, 11), t), p)), p, tolerance = 1e-13)
  # a density that is zero on part of the grid: the quantiles skip it (0 and 1 are the ends of the support)
  gap <- dens(ifelse(t < 0.3 | t > 0.7, 1, 0), t)
  q <- quantile(gap, c(0, 0.5, 1))
  expect_equal(unname(q[c(1, 3)]), c(0, 1))
  expect_true(q[2] >= 0.2 && q[2] <= 0.8)
  expect_equal(unname(quantile(dens(replace(numeric(11), 5:7, 1), t), c(0, 1))), t[c(4, 8)], tolerance = 1e-13)
  # a fine grid of a normal density (its tails beyond 6 sd cut off): the normal's quantiles and mean
  g <- seq(-8, 10, length.out = 3001)
  nd <- dens(dnorm(g, 1, 1.5), g)
  expect_equal(unname(quantile(nd, c(0.05, 0.5, 0.975))), qnorm(c(0.05, 0.5, 0.975), 1, 1.5), tolerance = 1e-5)
  s <- summary(nd)$distribution
  expect_equal(c(s$q1, s$median, s$mean, s$q3), c(qnorm(c(0.25, 0.5), 1, 1.5), 1, qnorm(0.75, 1, 1.5)),
               tolerance = 1e-5)
  expect_equal(c(s$min, s$max), c(-8, 10))
  # an unsorted grid is sorted first
  o <- sample(11)
  expect_equal(quantile(dens(2 * t[o], t[o]), p), quantile(tri, p))
  expect_output(print(summary(tri)), "as distributions")
})

test_that("a density with a zero tail has quantiles although its cumulative sum rounds past 1 (was an error)", {
  # 1 in 125 random densities with a zero tail stopped in findInterval(): 'vec' must be sorted
  t <- seq(0, 1, length.out = 11)
  v <- c(0.620793939800933, 0.202912412118167, 0.134169772733003, 0.776833998039365, 0.635949848685414,
         0.282136296620592, 0.191259456099942, 0.265536719933152, 0, 0, 0)
  q <- quantile(dens(v, t), c(0, 0.5, 0.999, 1))
  expect_true(all(diff(q) >= 0))
  expect_equal(unname(q[4]), 0.8)   # the end of the support, where the density reaches zero
  set.seed(1)
  for (i in 1:300) expect_true(all(is.finite(quantile(dens(c(runif(8), 0, 0, 0), t), c(0.5, 1)))))
})

test_that("several densities: one row per density, named by the mortality groups", {
  age <- rep(0:100, 2)
  deaths <- c(200 * exp(-(0:100) / 2) + 50 * dnorm(0:100, 70, 12) * 100, 80 * dnorm(0:100, 82, 9) * 100)
  m <- mortality_distribution(data.frame(age, deaths, region = rep(c("A", "B"), each = 101)), group = region)
  q <- quantile(m, c(0.5, 0.9))
  expect_identical(dim(q), c(2L, 2L))
  expect_identical(rownames(q), c("A", "B"))
  expect_identical(colnames(q), c("50%", "90%"))
  # region B: a normal age at death (mean 82, sd 9) cut at 0 and 100, on whole ages
  cut <- pnorm(c(0, 100), 82, 9)
  expect_equal(unname(q["B", ]), qnorm(cut[1] + c(0.5, 0.9) * diff(cut), 82, 9), tolerance = 1e-3)
  d <- summary(m)$distribution
  expect_identical(d$group, c("A", "B"))
  expect_equal(d$mean[2], 82 + 81 * (dnorm(0, 82, 9) - dnorm(100, 82, 9)) / diff(cut), tolerance = 1e-3)
  expect_equal(d$median, unname(quantile(m, 0.5)[, 1]))
  expect_lt(d$mean[1], d$mean[2])   # region A: deaths in infancy lower the mean
  expect_output(print(summary(m)), "median")
})

test_that("quantile() of a KDE release: its density's quantiles, close to the data's at a large epsilon", {
  x <- faithful$eruptions
  g <- seq(1, 6, length.out = 201)
  r <- with_seed_mode(2, dp_kde(x, g, 0.1, epsilon = 5, delta = 1e-6, domain = c(1, 6)))
  expect_identical(quantile(r, c(0.25, 0.5)), quantile(as_density(r), c(0.25, 0.5)))
  expect_equal(unname(quantile(r, c(0.25, 0.5, 0.75))), unname(quantile(x, c(0.25, 0.5, 0.75))), tolerance = 0.05)
  # the non-private estimate's median and mean are the data's, up to the kernel's smoothing
  k <- as_density(kde_gaussian(x, g, 0.1, domain = c(1, 6)))
  expect_equal(unname(quantile(k, 0.5)), median(x), tolerance = 0.02)
  expect_equal(dist_mean(k), mean(x), tolerance = 0.01)
  # summary() of the release shows the same distribution as summary() of its density
  s <- summary(r)
  expect_identical(s$distribution, summary(as_density(r))$distribution)
  expect_output(print(s), "as a distribution")
  expect_output(print(s), format(signif(s$distribution$median, 4)), fixed = TRUE)
  # (none for a density in the plane, nor for a release that is not a density)
  r2 <- with_seed_mode(2, dp_kde(as.matrix(faithful), list(seq(1, 6, length.out = 11), seq(40, 100, length.out = 11)),
                                 c(0.3, 5), epsilon = 5, delta = 1e-6, domain = cbind(c(1, 6), c(40, 100))))
  expect_null(summary(r2)$distribution)
})

test_that("quantile() refuses what is not a one-dimensional density, by name", {
  t <- seq(0, 1, length.out = 11)
  tri <- dens(2 * t, t)
  for (bad in list(-0.1, 1.1, NA, "a", numeric(0), matrix(0.5))) {
    expect_error(quantile(tri, bad), class = "dpfda_error_argument")
  }
  expect_error(quantile(tri, 0.5, names = NA), class = "dpfda_error_argument")
  expect_error(quantile(tri, 0.5, type = 7), "type", class = "dpfda_error_argument")
  # curves that are not densities (quantile.default failed with "NULL[]: `i` must be positions of curves")
  expect_error(quantile(curves(t - 0.5, t), 0.5), "as_density", class = "dpfda_error_argument")
  neg <- tri
  neg$values[1, 3] <- -1
  expect_error(quantile(neg, 0.5), "negative", class = "dpfda_error_data")
  g2 <- as.matrix(expand.grid(t, t))
  d2 <- as_density(curves(matrix(1, 1, 121), g2))
  expect_error(quantile(d2, 0.5), "one-dimensional", class = "dpfda_error_argument")
  expect_named(summary(d2)$distribution, c("group", "mean_arg1", "mean_arg2", "sd_arg1", "sd_arg2", "correlation"))
  expect_equal(unlist(summary(d2)$distribution[1, 2:5]), c(mean_arg1 = 0.5, mean_arg2 = 0.5,
                                                           sd_arg1 = sqrt(1 / 12), sd_arg2 = sqrt(1 / 12)),
               tolerance = 0.02)   # (the uniform density on the square; the trapezoid weights' ends)
  r <- with_seed_mode(1, dp_mean(curves(matrix(runif(40), 4), seq(0, 1, length.out = 10)), epsilon = 1, tau = 1))
  expect_error(quantile(r, 0.5), "quantile\\(\\) is for densities, and this iclp_qr release is not one",
               class = "dpfda_error_argument")
  expect_null(summary(r)$distribution)
})

test_that("tidy() of curves is their long data frame; glance() of densities their distribution table", {
  t <- seq(0, 1, length.out = 11)
  x <- curves(rbind(a = t, b = 1 - t), t)
  expect_identical(tidy(x), as.data.frame(x))
  expect_identical(tidy(x, names = TRUE), as.data.frame(x, names = TRUE))
  expect_error(tidy(x, nmaes = TRUE), class = "dpfda_error_argument")
  d <- as_density(x)
  expect_identical(glance(d), summary(d)$distribution)
  expect_equal(nrow(glance(d)), 2L)
  age <- rep(0:100, 2)
  deaths <- c(dnorm(0:100, 70, 12), dnorm(0:100, 80, 9))
  m <- mortality_distribution(data.frame(age, deaths, region = rep(c("A", "B"), each = 101)), group = region)
  expect_identical(tidy(m), as.data.frame(m))
  expect_identical(glance(m)$group, c("A", "B"))
  g2 <- as.matrix(expand.grid(t, t))
  expect_equal(glance(as_density(curves(matrix(1, 1, 121), g2)))$correlation, 0)   # (in the plane: moments)
  g3 <- as.matrix(expand.grid(t[1:3], t[1:3], t[1:3]))
  expect_error(glance(as_density(curves(matrix(1, 1, 27), g3))), "one- and two-dimensional",
               class = "dpfda_error_argument")
})

test_that("summary() in the plane: moments of densities, and of a release with their noise", {
  # a density on a tensor grid: the moments of a known bivariate normal (correlation 0.6)
  a1 <- seq(-5, 5, length.out = 81)
  a2 <- seq(-6, 6, length.out = 91)
  g <- as.matrix(expand.grid(a1, a2))
  rho <- 0.6
  dens <- exp(-(g[, 1]^2 - 2 * rho * g[, 1] * (g[, 2] / 1.5) + (g[, 2] / 1.5)^2) / (2 * (1 - rho^2)))
  d <- as_density(curves(matrix(dens, 1), list(x = a1, y = a2)))
  s <- summary(d)$distribution
  expect_named(s, c("group", "mean_arg1", "mean_arg2", "sd_arg1", "sd_arg2", "correlation"))
  expect_equal(unlist(s[1, -1]), c(mean_arg1 = 0, mean_arg2 = 0, sd_arg1 = 1, sd_arg2 = 1.5, correlation = 0.6),
               tolerance = 2e-3)
  expect_output(print(summary(d)), "means, standard deviations, correlation")
  # a release: signed moments, with the noise sd from the public law; a larger epsilon, a smaller sd
  q <- quakes[, c("long", "lat")]
  dom <- list(long = c(160, 190), lat = c(-40, -10))
  rel <- function(e) with_seed_mode(3, dp_kde(q, epsilon = e, delta = 1e-5, domain = dom, bandwidth = c(1, 1)))
  r1 <- rel(1)
  m1 <- summary(r1)$moments
  expect_identical(m1$statistic, c("mean_long", "mean_lat", "sd_long", "sd_lat", "correlation"))
  # the estimate is the signed release's: the noise-free estimate's moments plus the noise's effect
  est <- dpfda:::moments_2d(r1$values$values, as.matrix(r1$values$grid), dpfda:::quadrature_weights(r1$values$grid))
  expect_equal(m1$estimate, as.vector(est))
  fhat <- kde_gaussian(as.matrix(q), r1$values$grid, c(1, 1), domain = rbind(c(160, -40), c(190, -10)))
  np <- as.vector(dpfda:::moments_2d(fhat$values, as.matrix(r1$values$grid), dpfda:::quadrature_weights(r1$values$grid)))
  expect_true(all(abs(m1$estimate - np) < 4 * m1$noise_sd))
  m8 <- summary(rel(8))$moments
  expect_true(all(m8$noise_sd < m1$noise_sd / 4))
  expect_true(all(abs(m8$estimate - np) < 4 * m8$noise_sd))
  expect_output(print(summary(r1)), "as a distribution in the plane (the released values as a signed density",
                fixed = TRUE)
  expect_false(any(m1$moved))
})

test_that("summary() in the plane: a moment the noise makes impossible is moved into its range, and said", {
  # (a Bernstein release of faithful at epsilon 0.5 gave mean_eruptions -49.7 on [1, 6], mean_waiting 135 on
  # [40, 100]; gp releases at epsilon 1 gave correlations up to 1.45)
  gr <- list(eruptions = seq(1, 6, length.out = 31), waiting = seq(40, 100, length.out = 31))
  lo <- c(1, 40)
  hi <- c(6, 100)
  n_moved <- 0
  for (seed in 1:12) {
    r <- suppressWarnings(with_seed_mode(seed, dp_kde(faithful, grid = gr, bandwidth = c(eruptions = 0.3, waiting = 5),
                                                      epsilon = 0.5, mechanism = "bernstein", k = 10,
                                                      domain = list(eruptions = c(1, 6), waiting = c(40, 100)))))
    m <- summary(r)$moments
    raw <- as.vector(dpfda:::moments_2d(r$values$values, as.matrix(r$values$grid),
                                        dpfda:::quadrature_weights(r$values$grid)))
    est <- m$estimate
    expect_true(all(est[1:2] >= lo & est[1:2] <= hi))
    expect_true(all(est[3:4] >= 0 & est[3:4] <= (hi - lo) / 2))
    expect_true(is.na(est[5]) || abs(est[5]) <= 1)
    # unmoved estimates are the signed density's; moved ones are marked
    same <- !m$moved
    expect_equal(est[same & !is.na(raw)], raw[same & !is.na(raw)])
    expect_true(all(m$moved[!is.na(raw) & (raw[1:5] < c(lo, 0, 0, -1) | raw[1:5] > c(hi, (hi - lo) / 2, 1))]))
    if (any(m$moved)) {
      n_moved <- n_moved + 1
      expect_output(print(summary(r)), "(the noise dominates) moved into it", fixed = TRUE)
    }
  }
  expect_gt(n_moved, 0)   # (the case arises at this epsilon)
})

test_that("as_density(margin = ) integrates the other axes: the marginal density of one axis", {
  a1 <- c(0, 0.1, 0.3, 0.45, 0.7, 1)          # uneven spacing: its own trapezoid weights
  a2 <- seq(-1, 2, length.out = 9)
  a3 <- seq(0, 1, length.out = 4)
  f1 <- 1 + a1
  f2 <- exp(-a2^2)
  f3 <- 2 - a3
  g2 <- as.matrix(expand.grid(a1, a2))
  x <- curves(rbind(as.vector(outer(f1, f2)), as.vector(outer(f1^2, f2))), g2)
  x$groups <- c("a", "b")
  tr <- function(t, f) sum(diff(t) * (f[-1] + f[-length(f)]) / 2)
  m1 <- as_density(x, margin = 1)
  expect_s3_class(m1, "dpfda_density")
  expect_equal(m1$grid, a1)
  expect_equal(m1$values[1, ], f1 / tr(a1, f1), tolerance = 1e-12)       # a product density: its factor
  expect_equal(m1$values[2, ], f1^2 / tr(a1, f1^2), tolerance = 1e-12)
  expect_identical(m1$groups, c("a", "b"))
  expect_equal(as.vector(as_density(x, margin = 2)$values[1, ]), f2 / tr(a2, f2), tolerance = 1e-12)
  # three axes
  g3 <- as.matrix(expand.grid(a1, a2, a3))
  x3 <- curves(matrix(as.vector(outer(outer(f1, f2), f3)), 1L), g3)
  expect_equal(as.vector(as_density(x3, margin = 3)$values), f3 / tr(a3, f3), tolerance = 1e-12)
  # signed values are integrated before the negative ones are set to zero
  v <- as.vector(outer(f1, f2))
  v[c(2, 8, 20)] <- -0.5
  xs <- curves(matrix(v, 1L), g2)
  raw <- as.vector(array(v, c(6, 9)) %*% dpfda:::quadrature_weights(a2))
  expect_equal(as.vector(as_density(xs, margin = 1)$values), pmax(raw, 0) / tr(a1, pmax(raw, 0)), tolerance = 1e-12)
  # refusals, by name
  expect_error(as_density(m1, margin = 1), "two or more dimensions", class = "dpfda_error_argument")
  for (bad in list(0, 3, 1.5, NA, "lat", c(1, 2))) {
    expect_error(as_density(x, margin = bad), "margin", class = "dpfda_error_argument")
  }
  expect_error(as_density(curves(matrix(1, 1, 5), cbind(1:5, c(1, 3, 2, 5, 4))), margin = 1), "tensor grid",
               class = "dpfda_error_argument")
})

test_that("the margins of a density release in the plane: by the data's column names, close to the data's", {
  r <- with_seed_mode(4, dp_kde(quakes[, c("long", "lat")], epsilon = 5, delta = 1e-6, bandwidth = c(0.5, 0.5),
                                domain = list(long = c(160, 190), lat = c(-40, -10))))
  lat <- as_density(r, margin = "lat")
  expect_identical(lat$arg_name, "lat")
  expect_equal(range(lat$grid), c(-40, -10))
  expect_identical(as_density(r, margin = 2)$values, lat$values)
  expect_equal(unname(quantile(lat, c(0.25, 0.5, 0.75))), unname(quantile(quakes$lat, c(0.25, 0.5, 0.75))),
               tolerance = 0.03)
  # the advice of quantile() in the plane names the margin
  expect_error(quantile(r), "as_density\\(x, margin = \"long\"\\)", class = "dpfda_error_argument")
  expect_error(quantile(r, 0.5, interval = "noise"), "margin = \"long\", interval = \"noise\"",
               class = "dpfda_error_argument")
})
