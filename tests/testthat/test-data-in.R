# Data in: every form as_curves() understands, the conversions of the
# mechanisms' data (formula, data frames), centring and relative defaults.

expect_dpfda_error <- function(expr, class = "dpfda_error_argument", regexp = NULL) {
  expect_error(expr, class = class, regexp = regexp)
}

g5 <- seq(0, 1, length.out = 5)

test_that("matrices and vectors become curves; fda's column-major layout gets a t(x) hint", {
  M <- rbind(g5, g5^2, 1 - g5)
  cv <- as_curves(M, grid = g5)
  expect_s3_class(cv, "dpfda_curves")
  expect_equal(cv$values, unname(M))
  expect_identical(cv$arg_name, "t")
  expect_identical(cv$value_name, "value")
  expect_equal(as_curves(g5^2, grid = g5)$values, matrix(g5^2, 1L))
  expect_dpfda_error(as_curves(t(M), grid = g5), regexp = "did you mean t\\(x\\)")
  expect_dpfda_error(curves(t(M), g5), regexp = "one curve per row")
  named <- as_curves(M, grid = g5, arg_name = "age", value_name = "height")
  expect_identical(c(named$arg_name, named$value_name), c("age", "height"))
  expect_dpfda_error(as_curves(M, grid = g5, arg_name = 1), regexp = "arg_name")
  expect_dpfda_error(as_curves(list(1, 2)), regexp = "data frame")
  expect_dpfda_error(as_curves(list(coefs = 1, basis = 2)), regexp = "lost its class")
})

test_that("curves onto another grid keep their names and ids", {
  x <- as_curves(rbind(1 + g5, 2 * g5), grid = g5, arg_name = "age")
  x$ids <- c("p", "q")
  y <- as_curves(x, grid = c(0.1, 0.6))
  expect_equal(y$values, rbind(1 + c(0.1, 0.6), 2 * c(0.1, 0.6)))
  expect_identical(y$ids, c("p", "q"))
  expect_identical(y$arg_name, "age")
  expect_error(as_curves(x, grid = c(-1, 0.5)), class = "dpfda_error_data", regexp = "do not cover")
  expect_dpfda_error(dp_mean(x, 1, 1, grid = g5), regexp = "already has its grid")
})

test_that("curves() remembers argument and value names, defaulting to t and value", {
  x <- curves(rbind(g5), g5)
  expect_identical(x$arg_name, "t")
  expect_identical(x$value_name, "value")
  expect_identical(x[1, 2:3]$arg_name, "t")
})

long <- data.frame(who = rep(c("b", "a"), each = 5), when = rep(g5, 2),
                   y = c(g5, 2 * g5), stringsAsFactors = FALSE)

test_that("long data frames: string, bare and variable column names give the same curves", {
  a <- as_curves(long, id = "who", arg = "when", value = "y")
  b <- as_curves(long, id = who, arg = when, value = y)
  col <- "when"
  c3 <- as_curves(long, id = who, arg = col, value = "y")
  expect_equal(a$values, b$values)
  expect_equal(a$values, c3$values)
  expect_identical(a$ids, c("a", "b"))                 # sorted labels
  expect_equal(a$values, unname(rbind(2 * g5, g5)))
  expect_identical(a$arg_name, "when")
  expect_identical(a$value_name, "y")
  # default columns (the layout of as.data.frame() on curves) round-trip
  d <- as.data.frame(a)
  expect_equal(as_curves(d)$values, a$values)
  # factor ids keep their level order
  f <- long
  f$who <- factor(f$who, levels = c("b", "a"))
  expect_identical(as_curves(f, id = who, arg = when, value = y)$ids, c("b", "a"))
  expect_dpfda_error(as_curves(long, id = who, arg = nope, value = y), regexp = "\"nope\"")
  expect_dpfda_error(as_curves(long, arg = when, value = y), regexp = "Give `id`")
  expect_dpfda_error(as_curves(long, id = who, value = y), regexp = "Give `arg`")
})

test_that("tibbles are data frames", {
  skip_if_not_installed("tibble")
  tb <- tibble::as_tibble(long)
  expect_equal(as_curves(tb, id = who, arg = when, value = y)$values,
               as_curves(long, id = who, arg = when, value = y)$values)
})

# Irregular curves: a, b, c observed at different times; each is linear in t.
irr <- data.frame(id = rep(c("a", "b", "c"), c(4, 5, 3)),
                  t = c(0, 0.3, 0.7, 1, 0, 0.2, 0.5, 0.9, 1.1, 0.1, 0.6, 0.95))
irr$value <- ifelse(irr$id == "a", 1 + 2 * irr$t, ifelse(irr$id == "b", -irr$t, 3 * irr$t))

test_that("irregular curves without a grid: a classed error that asks for one and gives the common range", {
  e <- expect_error(as_curves(irr, arg = t), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "different arguments")
  expect_match(conditionMessage(e), "grid = seq\\(0.1, 0.95")
})

test_that("a few short curves: as_curves() also proposes the range most curves cover with incomplete = \"drop\"", {
  # (ChickWeight: chick 18 is weighed on days 0 and 2 only, 45 of the 50 chicks on days 0 to 21)
  e <- expect_error(as_curves(ChickWeight, id = "Chick", arg = "Time", value = "weight"), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "grid = seq(0, 2, length.out = 12) lies inside the range all curves cover", fixed = TRUE)
  # the ranges are read off the data: the message says that the published grid comes from the design
  expect_match(conditionMessage(e), "fix it from the study design (e.g. the planned times), not from these data",
               fixed = TRUE)
  expect_match(conditionMessage(e), "grid = seq(0, 21, length.out = 12) with incomplete = \"drop\"", fixed = TRUE)
  expect_match(conditionMessage(e), "leaves out the 5 curves that do not cover it (45 of 50 do)", fixed = TRUE)
  cv <- as_curves(ChickWeight, id = "Chick", arg = "Time", value = "weight", grid = seq(0, 21, length.out = 12),
                  incomplete = "drop")
  expect_equal(nrow(cv$values), 45L)
  expect_length(cv$dropped, 5L)
})

test_that("dp_mean() and dp_cov() on a long frame without grid propose a grid for their rule (snap), checked", {
  # a common schedule with missed visits: the distinct arguments, with incomplete = "drop"
  for (f in c("dp_mean", "dp_cov")) {
    e <- expect_error(do.call(f, list(ChickWeight, id = "Chick", arg = "Time", value = "weight", epsilon = 1,
                                      tau = 300)), class = "dpfda_error_data")
    msg <- conditionMessage(e)
    expect_match(msg, sprintf("Give %s() the public `grid`", f), fixed = TRUE)
    expect_match(msg, "grid = c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21) with incomplete = \"drop\"", fixed = TRUE)
    expect_match(msg, "the 5 curves without a row nearest each point (45 of 50 have one)", fixed = TRUE)
    expect_match(msg, "method = \"linear\"", fixed = TRUE)
    expect_identical(e$arg, "grid")
  }
  # following the hint: the release is over the 45 complete chicks (noisy count of them), all 50 counted
  old <- dp_reproducible(3)
  on.exit(dp_rng(old))
  r <- dp_mean(ChickWeight, id = "Chick", arg = "Time", value = "weight", epsilon = 1, tau = 1000, center = 100,
               grid = c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21), incomplete = "drop")
  expect_equal(r$n, 50)
  expect_true(r$n_complete >= 1 && r$n_complete <= 50)
  # ages that vary around nine visits (as nlme::Oxboys): an equispaced grid of nine points keeps every curve
  set.seed(4)
  ox <- data.frame(id = rep(1:20, each = 9), age = rep(seq(-1, 1, length.out = 9), 20) + runif(180, -0.02, 0.02))
  ox$height <- 150 + 7 * ox$age + rep(rnorm(20, 0, 5), each = 9)
  e <- expect_error(dp_mean(ox, arg = "age", value = "height", epsilon = 1, tau = 30, center = 150),
                    class = "dpfda_error_data")
  hint <- regmatches(conditionMessage(e), regexpr("grid = seq\\([^)]*\\)", conditionMessage(e)))
  expect_match(hint, "length.out = 9", fixed = TRUE)
  expect_match(conditionMessage(e), "every curve has a row nearest each of its points", fixed = TRUE)
  g <- eval(parse(text = sub("grid = ", "", hint)))
  r <- dp_mean(ox, arg = "age", value = "height", epsilon = 1, tau = 30, center = 150, grid = g)
  expect_equal(r$n, 20)
  # visits at uneven, roughly common times (datasets::Theoph, 0 to 24 h): neither the 78 distinct times nor an
  # equispaced grid keeps a curve complete; the medians of each curve's j-th time keep all twelve
  e <- expect_error(dp_mean(datasets::Theoph, id = "Subject", arg = "Time", value = "conc", epsilon = 1, tau = 30),
                    class = "dpfda_error_data")
  msg <- conditionMessage(e)
  expect_match(msg, "grid = c(0, 0.27, 0.545, 1.02, 2.02, 3.53, 5.02, 7.03, 9.03, 12.08, 24.2) (the median of",
               fixed = TRUE)
  expect_match(msg, "nominal times, if it has them, are public", fixed = TRUE)
  expect_match(msg, "every curve has a row nearest each of its points", fixed = TRUE)
  g <- eval(parse(text = regmatches(msg, regexpr("c\\([^)]*\\)", msg))))
  r <- dp_mean(datasets::Theoph, id = "Subject", arg = "Time", value = "conc", epsilon = 1, tau = 30, center = 5,
               grid = g)
  expect_equal(r$n, 12)
  # the study's nominal times leave one cell empty (subject 10 at 0.37 and 0.77 h): named, in memory
  for (f in c("dp_mean", "dp_cov")) {
    e <- expect_error(do.call(f, list(datasets::Theoph, id = "Subject", arg = "Time", value = "conc", epsilon = 1,
                                      tau = 30, grid = c(0, 0.25, 0.5, 1, 2, 3.5, 5, 7, 9, 12, 24))),
                      class = "dpfda_error_data")
    expect_match(conditionMessage(e), "1 (individual, grid point) cell has no observation (Subject 10 at Time = 0.5)",
                 fixed = TRUE)
  }
  e <- expect_error(dp_mean(ChickWeight, id = "Chick", arg = "Time", value = "weight", epsilon = 1, tau = 300,
                            grid = unique(ChickWeight$Time)), class = "dpfda_error_data")
  expect_match(conditionMessage(e), paste("22 (individual, grid point) cells have no observation (Chick 18 at",
                                          "Time = 4, Chick 18 at Time = 6, Chick 18 at Time = 8, ...)"), fixed = TRUE)
  # any other error of the conversion is not touched
  expect_error(dp_mean(ox, arg = "age", value = "nope", epsilon = 1, tau = 30), "nope")
})

test_that("linear interpolation onto a grid is exact for linear curves", {
  g <- seq(0.1, 0.95, length.out = 7)
  cv <- as_curves(irr, arg = t, grid = g)
  expect_equal(cv$grid, g)
  expect_equal(cv$values, rbind(1 + 2 * g, -g, 3 * g))
  expect_identical(cv$ids, c("a", "b", "c"))
})

test_that("curves that do not cover the grid are named, with the common range and restrict = TRUE", {
  g <- seq(0, 1, by = 0.05)
  e <- expect_error(as_curves(irr, arg = t, grid = g), class = "dpfda_error_data")
  msg <- conditionMessage(e)
  expect_match(msg, "1 curve does not cover the grid \\[0, 1\\]")
  expect_match(msg, "c on \\[0.1, 0.95\\]")
  expect_match(msg, "common|all curves cover")
  expect_match(msg, "restrict = TRUE")
  expect_match(msg, "incomplete = \"drop\"", fixed = TRUE)   # the way that keeps the public grid
  expect_identical(e$ids, "c")
  # ... and it works as the message says
  expect_identical(nrow(as_curves(irr, arg = t, grid = g, incomplete = "drop")$values), 2L)
  r <- as_curves(irr, arg = t, grid = g, restrict = TRUE)
  expect_true(all(r$grid >= 0.1 - 1e-12 & r$grid <= 0.95 + 1e-12))
  expect_equal(r$grid, g[g >= 0.1 - 1e-12 & g <= 0.95 + 1e-12])
  expect_equal(r$values[3, ], 3 * r$grid)
  disjoint <- data.frame(id = rep(1:2, each = 2), t = c(0, 0.4, 0.6, 1), value = 1:4)
  expect_error(as_curves(disjoint, arg = t, grid = c(0.5)), class = "dpfda_error_data", regexp = "no common range")
})

test_that("smoothing recovers noisy sparse curves better than the noise, and fits lines to tiny curves", {
  dp_reproducible(11)
  n_obs <- 25
  d <- data.frame(id = rep(1:4, each = n_obs), t = rep(seq(0, 1, length.out = n_obs), 4))
  d$value <- sin(2 * pi * d$t) + stats::rnorm(nrow(d), sd = 0.3)
  g <- seq(0, 1, length.out = 41)
  sm <- as_curves(d, arg = t, grid = g, method = "smooth")
  li <- as_curves(d, arg = t, grid = g)
  truth <- matrix(sin(2 * pi * g), 4, length(g), byrow = TRUE)
  rmse <- function(v) sqrt(mean((v - truth)^2))
  expect_lt(rmse(sm$values), 0.3)               # below the noise sd
  expect_lt(rmse(sm$values), rmse(li$values))   # and better than interpolating the noise
  # fixed degrees of freedom: 2 is a straight line
  lin <- as_curves(d, arg = t, grid = g, method = "smooth", df = 2)
  expect_equal(max(abs(diff(diff(lin$values[1, ])))), 0, tolerance = 1e-6)
  # fewer than 4 points: the least-squares line (exact for linear data)
  expect_equal(as_curves(irr, arg = t, grid = c(0.2, 0.5, 0.9), method = "smooth")$values[3, ], 3 * c(0.2, 0.5, 0.9))
  expect_dpfda_error(as_curves(d, arg = t, grid = g, method = "spline"), regexp = "method")
})

test_that("missing values are counted and located; na.rm = TRUE drops them", {
  d <- irr
  d$value[c(2, 6)] <- NA
  e <- expect_error(as_curves(d, arg = t, grid = c(0.2, 0.5)), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "2 missing or non-finite values, in 2 curves \\(a, b\\)")
  expect_match(conditionMessage(e), "na.rm = TRUE")
  r <- as_curves(d, arg = t, grid = c(0.2, 0.5), na.rm = TRUE)
  expect_equal(r$values[1, ], 1 + 2 * c(0.2, 0.5))
  d2 <- irr
  d2$t[1] <- NA
  expect_error(as_curves(d2, arg = t, grid = 0.5), class = "dpfda_error_data", regexp = "`arg` column has 1")
  d3 <- irr
  d3$id[1] <- NA
  expect_dpfda_error(as_curves(d3, arg = t, grid = 0.5), regexp = "`id` column has 1 missing")
  dup <- rbind(irr, irr[1, ])
  expect_error(as_curves(dup, arg = t, grid = 0.5), class = "dpfda_error_data", regexp = "Curve a has two values")
})

test_that("wide data frames: arguments from column names, a grid, or interpolation", {
  w <- data.frame(t0 = c(1, 2), t0.5 = c(2, 3), t1 = c(3, 5))
  cw <- as_curves(w)
  expect_equal(cw$grid, c(0, 0.5, 1))
  expect_equal(cw$values, rbind(c(1, 2, 3), c(2, 3, 5)))
  num <- data.frame(`0` = 1:2, `2` = 3:4, check.names = FALSE)
  expect_equal(as_curves(num)$grid, c(0, 2))
  un <- data.frame(a = 1:2, b = 3:4, c = 5:6)
  expect_dpfda_error(as_curves(un), regexp = "one point per column")
  expect_equal(as_curves(un, grid = c(1, 2, 4))$grid, c(1, 2, 4))
  lab <- data.frame(name = c("x", "y"), w)
  expect_identical(as_curves(lab, id = name)$ids, c("x", "y"))
  expect_dpfda_error(as_curves(lab), regexp = "not numeric")
  expect_error(as_curves(lab), "If column \"name\" labels the curves, give id = name.", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_equal(as_curves(w, grid = c(0.25, 0.75))$values, rbind(c(1.5, 2.5), c(2.5, 4)))
  # a column named "id" labels the curves without id = (as in long data; it was read as a curve value
  # column and refused as not numeric)
  wid <- data.frame(id = c("p", "q"), w)
  expect_identical(as_curves(wid)$ids, c("p", "q"))
  expect_equal(as_curves(wid)$values, cw$values)
  r1 <- with_seed_mode(3, dp_mean(wid, epsilon = 1, tau = 9))
  r2 <- with_seed_mode(3, dp_mean(w, epsilon = 1, tau = 9))
  expect_identical(r1$values$values, r2$values$values)
})

test_that("nlme's Oxboys (irregular growth curves) become curves in one call and feed dp_mean()", {
  skip_if_not_installed("nlme")
  ox <- as_curves(nlme::Oxboys, id = Subject, arg = age, value = height, grid = seq(-1, 0.99, length.out = 30))
  expect_identical(dim(ox$values), c(26L, 30L))
  expect_identical(ox$arg_name, "age")
  expect_identical(ox$value_name, "height")
  expect_identical(ox$ids, levels(nlme::Oxboys$Subject))
  # each boy's interpolated curve passes through his own measurements
  b1 <- nlme::Oxboys[nlme::Oxboys$Subject == ox$ids[1], ]
  expect_equal(ox$values[1, 1], b1$height[which.min(b1$age)])
  e <- expect_error(as_curves(nlme::Oxboys, id = "Subject", arg = "age", value = "height"),
                    class = "dpfda_error_data")
  expect_match(conditionMessage(e), "grid")
  dp_reproducible(3)
  r <- dp_mean(nlme::Oxboys, epsilon = 1, tau = 10, center = function(a) 149 + 7 * a,
               grid = seq(-1, 0.99, length.out = 30), id = "Subject", arg = "age", value = "height",
               method = "linear")
  expect_s3_class(r, "dpfda_iclp_release")
  expect_identical(r$values$arg_name, "age")
})

test_that("fda's growth data and fd objects, tf's tfd objects are accepted by the mechanisms", {
  skip_if_not_installed("fda")
  gr <- fda::growth
  expect_dpfda_error(as_curves(gr$hgtm, grid = gr$age), regexp = "t\\(x\\)")
  cv <- as_curves(t(gr$hgtm), grid = gr$age)
  expect_identical(dim(cv$values), c(ncol(gr$hgtm), length(gr$age)))
  b <- fda::create.bspline.basis(range(gr$age), nbasis = 12)
  f <- fda::smooth.basis(gr$age, gr$hgtm, b)$fd
  dp_reproducible(4)
  r <- dp_mean(f, epsilon = 1, tau = 50, center = function(a) 80 + 5 * a)
  expect_s3_class(r, "dpfda_release")
  expect_equal(range(r$values$grid), range(gr$age))
})

test_that("tf's tfd objects go into dp_mean()", {
  skip_if_not_installed("tf")
  t <- seq(0, 1, length.out = 21)
  x <- tf::tfd(outer(seq(0.2, 1, length.out = 30), sin(2 * pi * t)), arg = t)
  dp_reproducible(5)
  expect_s3_class(dp_mean(x, epsilon = 1, tau = 1), "dpfda_release")
})

test_that("dp_mean() and dp_cov() take a matrix with grid or a data frame, the same as curves", {
  t <- seq(0, 1, length.out = 11)
  M <- outer(seq(0.1, 1, length.out = 40), sin(2 * pi * t))
  dp_reproducible(6)
  a <- dp_mean(M, epsilon = 1, tau = 1, grid = t)
  dp_reproducible(6)
  b <- dp_mean(curves(M, t), epsilon = 1, tau = 1)
  dp_reproducible(6)
  c3 <- dp_mean(as.data.frame(curves(M, t)), epsilon = 1, tau = 1)
  expect_equal(a$values$values, b$values$values)
  expect_equal(c3$values$values, b$values$values)
  dp_reproducible(7)
  v1 <- dp_cov(M, epsilon = 1, tau = 1, grid = t)
  dp_reproducible(7)
  v2 <- dp_cov(curves(M, t), epsilon = 1, tau = 1)
  expect_equal(v1$values$values, v2$values$values)
  expect_dpfda_error(dp_mean(M, epsilon = 1, tau = 1, grid = t[-1]), regexp = "10 points")
})

test_that("center is subtracted before clipping and added back, exactly", {
  t <- seq(0, 1, length.out = 21)
  cen <- function(s) 100 + 10 * s
  X <- curves(outer(seq(-1, 1, length.out = 50), sin(pi * t)) + rep(cen(t), each = 50), t)
  D <- X
  D$values <- X$values - rep(cen(t), each = 50)
  for (m in c("iclp_qr", "frl", "bernstein")) {
    dp_reproducible(8)
    rc <- dp_mean(X, epsilon = 1, tau = 1, mechanism = m, center = cen)
    dp_reproducible(8)
    rd <- dp_mean(D, epsilon = 1, tau = 1, mechanism = m)
    expect_equal(rc$values$values, rd$values$values + rep(cen(t), each = 1), info = m)
    expect_equal(predict(rc, c(0.33, 0.5)), predict(rd, c(0.33, 0.5)) + cen(c(0.33, 0.5)), info = m)
  }
  expect_output(print(rc), "centred on a public reference")
  # a centre given as values or as a number: the same release
  dp_reproducible(8)
  rv <- dp_mean(X, epsilon = 1, tau = 1, center = cen(t))
  dp_reproducible(8)
  rf <- dp_mean(X, epsilon = 1, tau = 1, center = cen)
  expect_equal(rv$values$values, rf$values$values)
  expect_equal(predict(rv, 0.52), predict(rf, 0.52), tolerance = 1e-8)   # linear centre: exact
  dp_reproducible(8)
  expect_s3_class(dp_mean(X, epsilon = 1, tau = 1, center = 100), "dpfda_release")
  # centring keeps the release near the data where clipping raw values cannot
  dp_reproducible(9)
  raw <- dp_mean(X, epsilon = 1, tau = 1)
  expect_lt(max(abs(rc$values$values - cen(t))), 5)
  expect_gt(max(abs(raw$values$values - cen(t))), 90)
  expect_dpfda_error(dp_mean(X, epsilon = 1, tau = 1, center = 1:3), regexp = "center")
  expect_dpfda_error(dp_mean(X, epsilon = 1, tau = 1, center = function(s) stop("no")), regexp = "center")
  expect_dpfda_error(dp_mean(X, epsilon = 1, tau = 1, center = curves(rbind(t, t), t)), regexp = "center")
})

test_that("the default kernel lengthscale is 0.1 times the width of the domain", {
  t <- seq(0, 1, length.out = 11)
  x <- curves(outer(seq(0.1, 1, length.out = 30), sin(2 * pi * t)), t)
  x100 <- curves(x$values, 100 * t)
  expect_equal(dp_mean(x, epsilon = 1, tau = 1)$noise$lengthscale, 0.1)
  expect_equal(dp_mean(x100, epsilon = 1, tau = 10)$noise$lengthscale, 10)
  expect_equal(dp_cov(x100, epsilon = 1, tau = 10)$noise$lengthscale, 10)
  # the same data in other units: the same parameters of the basis
  a <- dp_mean(x, epsilon = 1, tau = 1)
  b <- dp_mean(x100, epsilon = 1, tau = 10)
  expect_equal(a$params$J, b$params$J)
  # an explicit kernel is used as given (the papers' reproductions pass one)
  expect_equal(dp_mean(x100, epsilon = 1, tau = 10, kernel = kernel_matern(3 / 2, 0.1))$noise$lengthscale, 0.1)
  expect_equal(dp_erm(c(10, 50, 90), c(1, -1, 1), epsilon = 1, psi = 0.1, grid = seq(0, 100, by = 10),
                      y_bound = 1)$noise$lengthscale, 10)
})

test_that("mortality_distribution() takes a data frame with column names, bare or quoted", {
  d <- data.frame(a = rep(c(0, 1, 5, 10), 2), n = c(3, 1, 2, 4, 1, 1, 2, 6), reg = rep(c("N", "S"), each = 4))
  m1 <- mortality_distribution(d, age = a, deaths = n, group = reg)
  m2 <- mortality_distribution(d, age = "a", deaths = "n", group = "reg")
  m3 <- mortality_distribution(d$a, d$n, d$reg)                    # the former positional form
  m4 <- mortality_distribution(age = d$a, deaths = d$n, group = d$reg)
  expect_equal(m1$values, m3$values)
  expect_equal(m2$values, m3$values)
  expect_equal(m4$values, m3$values)
  expect_identical(m1$groups, c("N", "S"))
  expect_identical(m1$arg_name, "a")
  dd <- data.frame(age = d$a[1:4], deaths = d$n[1:4])
  expect_equal(mortality_distribution(dd)$values, mortality_distribution(d$a[1:4], d$n[1:4])$values)
  expect_dpfda_error(mortality_distribution(d, age = a), regexp = "`deaths` is missing")
  expect_dpfda_error(mortality_distribution(d, age = a, deaths = nope), regexp = "\"nope\"")
  m5 <- mortality_distribution(un_mortality, age = age, deaths = deaths, group = region)
  expect_identical(nrow(m5$values), nlevels(un_mortality$region))
})

# A regression released from a formula and from the same x and y, under one seed.
formula_and_xy <- function(fun, seed, formula_args, xy_args, args) {
  dp_reproducible(seed)
  a <- do.call(fun, c(formula_args, args))
  dp_reproducible(seed)
  list(formula = a, xy = do.call(fun, c(xy_args, args)))
}

test_that("dp_gp_regression() takes a formula with data and newdata (MASS's mcycle)", {
  skip_if_not_installed("MASS")
  mc <- MASS::mcycle
  g <- data.frame(times = seq(2, 58, length.out = 50))
  args <- list(kernel = kernel_gaussian(5, variance = 2500), noise_variance = 500, y_bound = c(-150, 100),
               epsilon = 1, delta = 1e-5)
  ab <- formula_and_xy(dp_gp_regression, 10, list(accel ~ times, data = mc, newdata = g),
                       list(mc$times, mc$accel, g$times), args)
  expect_equal(ab$formula$values$values, ab$xy$values$values)
  expect_equal(ab$formula$values$grid, g$times)
  expect_dpfda_error(dp_gp_regression(accel ~ times, newdata = g, kernel = kernel_gaussian(5),
                                      noise_variance = 1, y_bound = c(-1, 1), epsilon = 1, delta = 1e-5),
                     regexp = "needs `data`")
  expect_dpfda_error(do.call(dp_gp_regression, c(list(accel ~ speed, data = mc, newdata = g), args)),
                     regexp = "`speed`")
  expect_dpfda_error(do.call(dp_gp_regression, c(list(accel ~ times, data = mc,
                                                      newdata = data.frame(t = 1)), args)),
                     regexp = "predictor column")
  bad <- mc
  bad$accel[3] <- NA
  expect_error(do.call(dp_gp_regression, c(list(accel ~ times, data = bad, newdata = g), args)),
               class = "dpfda_error_data", regexp = "1 row")
  expect_dpfda_error(do.call(dp_gp_regression, c(list(mc$times, mc$accel, g$times, data = mc), args)),
                     regexp = "formula")
  # a formula without newdata: what to give, with the formula's predictors (it said "`newdata` must be
  # a numeric vector or matrix of finite grid points, not NULL")
  e <- expect_error(do.call(dp_gp_regression, c(list(accel ~ times, data = mc), args)), class = "dpfda_error_argument")
  expect_identical(e$arg, "newdata")
  expect_match(conditionMessage(e), "`newdata` is missing in dp_gp_regression(): give the public points", fixed = TRUE)
  expect_match(conditionMessage(e), "newdata = data.frame(times = seq(", fixed = TRUE)
  aq <- stats::na.omit(datasets::airquality)
  e <- expect_error(do.call(dp_gp_regression, c(list(Ozone ~ Temp + Wind, data = aq), args)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "expand.grid(Temp = seq(lower, upper, length.out = 10), Wind = seq(", fixed = TRUE)
})

test_that("a release fit through a formula predicts from a data frame by its predictors' names, as predict.lm()", {
  # (predict(r, test_set) took every numeric column: "`newdata` must have 1 column ..., not 2", or with a
  # factor column "must have numeric columns only")
  aq <- stats::na.omit(datasets::airquality)
  test <- aq[c(5, 40, 90), ]
  old <- dp_reproducible(31)
  on.exit(dp_rng(old))
  b <- dp_bin_regression(Ozone ~ Temp, data = aq, bins = 8, y_bound = c(0, 170), epsilon = 1, domain = c(50, 100))
  expect_identical(b$predictors, "Temp")
  expect_identical(predict(b, test), predict(b, test$Temp))
  k1 <- suppressWarnings(dp_krr(Ozone ~ Temp, data = aq, lambda = 0.05, kernel = kernel_gaussian(10, variance = 900),
                                grid = data.frame(Temp = seq(55, 95, length.out = 9)), y_bound = c(0, 170),
                                epsilon = 1, delta = 1e-5))
  on_grid <- data.frame(Ozone = c(1, 2), Temp = c(60, 75))   # (intervals: at grid points)
  expect_identical(predict(k1, on_grid, interval = "confidence"), predict(k1, c(60, 75), interval = "confidence"))
  expect_identical(b$values$arg_name, "Temp")       # plots label the axis and the values
  expect_identical(b$values$value_name, "Ozone")
  g <- expand.grid(Temp = seq(55, 95, length.out = 5), Wind = seq(2, 20, length.out = 5))
  k <- suppressWarnings(dp_krr(Ozone ~ Temp + Wind, data = aq, lambda = 0.05, kernel = kernel_gaussian(10, variance = 900),
                               grid = g, y_bound = c(0, 170), epsilon = 1, delta = 1e-5))
  # columns by name, whatever their order in newdata (in the order given they would be swapped silently)
  expect_equal(predict(k, test[c("Wind", "Ozone", "Temp", "Month")]), predict(k, as.matrix(test[c("Temp", "Wind")])))
  expect_dpfda_error(predict(k, test["Temp"]), regexp = "it lacks \"Wind\"")
  skip_if_not_installed("MASS")
  P <- MASS::Pima.tr
  s <- suppressWarnings(dp_svm(type ~ glu + bmi, data = P, lambda = 0.01, kernel = kernel_gaussian(30), epsilon = 1,
                               delta = 1e-5, grid = expand.grid(glu = seq(50, 200, length.out = 5),
                                                                bmi = seq(15, 70, length.out = 5))))
  cl <- predict(s, MASS::Pima.te, type = "class")   # a test set with a factor column and others
  expect_s3_class(cl, "factor")
  expect_identical(cl, predict(s, as.matrix(MASS::Pima.te[c("glu", "bmi")]), type = "class"))
  expect_identical(s$values$value_name, "value")    # a classifier's values are scores, not the labels
})

test_that("a fit on a data frame of named columns (no formula) predicts from a test set by name", {
  # (predict(dp_svm(Pima.tr[c("glu", "bmi")], ...), Pima.te[c("bmi", "glu")]) read bmi as glu, silently; the whole
  # test set was refused for its factor column)
  skip_if_not_installed("MASS")
  tr <- MASS::Pima.tr
  te <- MASS::Pima.te
  grid <- expand.grid(glu = seq(50, 200, length.out = 8), bmi = seq(15, 70, length.out = 8))
  s <- with_seed_mode(5, suppressWarnings(dp_svm(tr[c("glu", "bmi")], tr$type, lambda = 0.01, grid = grid,
                                                 kernel = kernel_gaussian(c(30, 7)), epsilon = 1, delta = 1e-5)))
  expect_identical(s$predictors, c("glu", "bmi"))
  ref <- suppressWarnings(predict(s, as.matrix(te[c("glu", "bmi")])))
  expect_equal(suppressWarnings(predict(s, te[c("bmi", "glu")])), ref)
  expect_equal(suppressWarnings(predict(s, te)), ref)
  expect_dpfda_error(predict(s, te["glu"]), regexp = "it lacks \"bmi\"")
  aq <- stats::na.omit(datasets::airquality)
  k <- with_seed_mode(6, suppressWarnings(dp_krr(aq[c("Temp", "Wind")], aq$Ozone, lambda = 0.05,
                                                 kernel = kernel_gaussian(c(10, 4), variance = 900),
                                                 grid = expand.grid(Temp = seq(55, 95, length.out = 5),
                                                                    Wind = seq(2, 20, length.out = 5)),
                                                 y_bound = c(0, 170), epsilon = 1, delta = 1e-5)))
  expect_equal(suppressWarnings(predict(k, aq[c("Wind", "Ozone", "Temp")])),
               suppressWarnings(predict(k, as.matrix(aq[c("Temp", "Wind")]))))
  gp <- with_seed_mode(7, suppressWarnings(dp_gp_regression(aq["Temp"], aq$Ozone, newdata = data.frame(Temp = 60:90),
                                                            kernel = kernel_gaussian(8, variance = 900),
                                                            noise_variance = 400, y_bound = c(0, 170), epsilon = 1,
                                                            delta = 1e-5)))
  expect_identical(gp$predictors, "Temp")
  expect_identical(gp$values$arg_name, "Temp")   # plots label the axis by the column
  expect_equal(predict(gp, aq[c("Ozone", "Temp")][1:5, ]), predict(gp, aq$Temp[1:5]))
})

test_that("dp_bin_regression() and dp_sparse_gp_regression() take a formula as dp_gp_regression() does", {
  # (dp_bin_regression(Ozone ~ Temp, data = aq, ...) said "`y` is missing")
  aq <- stats::na.omit(datasets::airquality)
  g <- data.frame(Temp = seq(55, 95, by = 5))
  dp_reproducible(21)
  a <- dp_bin_regression(Ozone ~ Temp, data = aq, bins = 10, y_bound = c(0, 170), epsilon = 1, domain = c(50, 100),
                         newdata = g)
  dp_reproducible(21)
  b <- dp_bin_regression(aq$Temp, aq$Ozone, bins = 10, y_bound = c(0, 170), epsilon = 1, domain = c(50, 100),
                         newdata = g$Temp)
  expect_identical(a$values$values, b$values$values)
  expect_identical(a$predictions, b$predictions)
  dp_reproducible(21)
  a2 <- dp_bin_regression(Ozone ~ Temp + Wind, data = aq, bins = 3, y_bound = c(0, 170), epsilon = 1,
                          domain = rbind(c(50, 0), c(100, 25)))
  dp_reproducible(21)
  b2 <- dp_bin_regression(cbind(aq$Temp, aq$Wind), aq$Ozone, bins = 3, y_bound = c(0, 170), epsilon = 1,
                          domain = rbind(c(50, 0), c(100, 25)))
  expect_identical(a2$values$values, b2$values$values)
  expect_dpfda_error(dp_bin_regression(Ozone ~ Temp, data = aq, y = aq$Ozone, bins = 3, y_bound = c(0, 170),
                                       epsilon = 1, domain = c(50, 100)), regexp = "not a formula and `y`")
  expect_dpfda_error(dp_bin_regression(aq$Temp, aq$Ozone, bins = 3, y_bound = c(0, 170), epsilon = 1,
                                       domain = c(50, 100), data = aq), regexp = "formula")
  args <- list(inducing = 5, kernel = kernel_gaussian(8, variance = 900), noise_variance = 400, y_bound = c(0, 170),
               epsilon = 1, delta = 1e-5)
  s12 <- formula_and_xy(dp_sparse_gp_regression, 22, list(Ozone ~ Temp, data = aq, newdata = g),
                        list(aq$Temp, aq$Ozone, g$Temp), args)
  expect_identical(s12$formula$values$values, s12$xy$values$values)
  e <- expect_error(do.call(dp_sparse_gp_regression, c(list(Ozone ~ Temp, data = aq), args)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "newdata = data.frame(Temp = seq(", fixed = TRUE)
})

test_that("point data for dp_kde(), dp_kme() and dp_bandwidth() can be data-frame columns", {
  grid <- seq(1, 6, length.out = 30)
  dp_reproducible(12)
  a <- dp_kde(faithful["eruptions"], grid, bandwidth = 0.3, epsilon = 1, delta = 1e-5)
  dp_reproducible(12)
  b <- dp_kde(faithful$eruptions, grid, bandwidth = 0.3, epsilon = 1, delta = 1e-5)
  expect_equal(a$values$values, b$values$values)
  df <- data.frame(x = 1:10 / 10, lab = letters[1:10])
  expect_error(dp_kde(df, grid, bandwidth = 0.3, epsilon = 1, delta = 1e-5), class = "dpfda_error_data",
               regexp = "`lab` is not numeric")
  dp_reproducible(13)
  k <- dp_kme(faithful, kernel_gaussian(1), epsilon = 1, delta = 1e-5, M = 20, domain = rbind(c(1, 40), c(6, 100)))
  expect_s3_class(k, "dpfda_kme_release")
})

test_that("dp_bandwidth() takes the domain dp_kde() takes and clamps the data to it", {
  dp_reproducible(14)
  x <- c(stats::rnorm(2000), 1e6)
  dp_reproducible(15)
  a <- dp_bandwidth(x, epsilon = 1, delta = 1e-6, fallback = 0.3, domain = c(-5, 5))
  dp_reproducible(15)
  b <- dp_bandwidth(pmin(x, 5), epsilon = 1, delta = 1e-6, fallback = 0.3)
  expect_equal(a$bandwidth, b$bandwidth)
  expect_dpfda_error(dp_bandwidth(x, epsilon = 1, delta = 1e-6, domain = c(5, -5)), regexp = "domain")
  expect_dpfda_error(dp_bandwidth(cbind(x, x), epsilon = 1, delta = 1e-6, domain = c(-5, 5)), regexp = "2 x 2")
})

test_that("dp_cov() on a fine grid takes the most components that fit, and says which J fits", {
  t <- seq(0, 1, length.out = 101)
  x <- curves(outer(seq(0.1, 1, length.out = 20), sin(2 * pi * t)), t)
  expect_identical(suppressWarnings(dp_cov(x, epsilon = 1, tau = 1))$params$J, 57L)
  e <- expect_error(dp_cov(x, epsilon = 1, tau = 1, J = 60), class = "dpfda_error_numeric")
  expect_match(conditionMessage(e), "Give J = 57 or fewer \\(e.g. J = 10\\)")
  expect_s3_class(dp_cov(x, epsilon = 1, tau = 1, J = 10), "dpfda_release")
})

# ---- column names as bare names through every entry point ---------------------

test_that("column names: a bare name that is a column wins; anything else is evaluated (tidyselect's rule)", {
  # a variable named like a column: the column wins
  when <- "y"
  expect_identical(as_curves(long, id = who, arg = when, value = y)$arg_name, "when")
  # a variable holding a name, inside a function (the promise is evaluated where it was written)
  f <- function(d, a) as_curves(d, id = who, arg = a, value = y)
  expect_equal(f(long, "when")$values, as_curves(long, id = "who", arg = "when", value = "y")$values)
  # forwarded through `...`
  g <- function(d, ...) as_curves(d, ...)
  expect_equal(g(long, id = who, arg = when, value = y)$values, as_curves(long, id = "who", arg = "when", value = "y")$values)
  # an expression that gives a name
  expect_identical(as_curves(long, id = who, arg = paste0("wh", "en"), value = y)$arg_name, "when")
  # failures are classed and name the argument
  expect_dpfda_error(as_curves(long, id = who, arg = paste0(nope), value = y), regexp = "`arg` could not be evaluated")
  expect_dpfda_error(as_curves(long, id = who, arg = 3, value = y), regexp = "a column name")
  expect_dpfda_error(as_curves(long, id = who, arg = c("when", "y"), value = y), regexp = "a column name")
})

test_that("dp_mean() takes id, arg, value as bare names, strings or variables, also through a wrapper", {
  skip_if_not_installed("nlme")
  g <- seq(-1, 0.99, length.out = 20)
  cen <- function(a) 149 + 7 * a
  rel <- function(...) {
    dp_reproducible(31)
    dp_mean(nlme::Oxboys, epsilon = 1, tau = 10, grid = g, center = cen, method = "linear", ...)$values$values
  }
  ref <- rel(id = "Subject", arg = "age", value = "height")
  expect_equal(rel(id = Subject, arg = age, value = height), ref)
  col <- "age"
  expect_equal(rel(id = Subject, arg = col, value = height), ref)
  wrap <- function(d, ...) {
    dp_reproducible(31)
    dp_mean(d, epsilon = 1, tau = 10, grid = g, center = cen, method = "linear", ...)$values$values
  }
  expect_equal(wrap(nlme::Oxboys, id = Subject, arg = age, value = height), ref)
  dp_reproducible(31)
  r <- dp_mean(nlme::Oxboys, 1, 10, id = Subject, arg = age, value = height, grid = g, center = cen,
               method = "linear")
  expect_identical(c(r$values$arg_name, r$values$value_name), c("age", "height"))
  expect_dpfda_error(dp_mean(nlme::Oxboys, 1, 10, id = Subject, arg = nope, value = height, grid = g),
                     regexp = "\"nope\"")
})

test_that("dp_kde() and dp_kme() select data-frame columns with `columns` (bare or quoted) in memory", {
  grid <- seq(1, 6, length.out = 30)
  same <- function(seed, a, b) {
    dp_reproducible(seed)
    ra <- force(a)
    dp_reproducible(seed)
    rb <- force(b)
    expect_equal(ra, rb)
  }
  ref_kde <- function() dp_kde(faithful$eruptions, grid, 0.3, epsilon = 1, delta = 1e-5)$values$values
  same(32, dp_kde(faithful, grid, 0.3, epsilon = 1, delta = 1e-5, columns = eruptions)$values$values, ref_kde())
  same(32, dp_kde(faithful, grid, 0.3, epsilon = 1, delta = 1e-5, columns = "eruptions")$values$values, ref_kde())
  same(33, dp_kde(faithful, grid, 0.3, epsilon = 1, mechanism = "iclp", columns = eruptions)$values$values,
       dp_kde(faithful$eruptions, grid, 0.3, epsilon = 1, mechanism = "iclp")$values$values)
  dom <- rbind(c(1, 40), c(6, 100))
  k <- kernel_gaussian(1)
  same(34, dp_kme(faithful, k, 1, 1e-5, M = 15, domain = dom, columns = c(eruptions, waiting))$weights,
       dp_kme(as.matrix(faithful), k, 1, 1e-5, M = 15, domain = dom)$weights)
  cols <- c("waiting", "eruptions")
  same(35, dp_kme(faithful, k, 1, 1e-5, M = 15, domain = dom[, 2:1], columns = cols)$weights,
       dp_kme(as.matrix(faithful[cols]), k, 1, 1e-5, M = 15, domain = dom[, 2:1])$weights)
  expect_dpfda_error(dp_kde(faithful, grid, 0.3, epsilon = 1, delta = 1e-5, columns = nope), regexp = "\"nope\"")
  expect_dpfda_error(dp_kde(faithful$eruptions, grid, 0.3, epsilon = 1, delta = 1e-5, columns = "eruptions"),
                     regexp = "selects columns of a data frame")
  expect_dpfda_error(dp_kde(faithful, grid, 0.3, epsilon = 1, delta = 1e-5, columns = eruptions, id = waiting),
                     regexp = "`id` is used only")
  expect_dpfda_error(dp_kme(faithful, k, 1, 1e-5, M = 15, domain = dom, columns = c(eruptions, nope)),
                     regexp = "\"nope\"")
})

test_that("mortality_distribution() resolves bare names, strings and variables the same way", {
  d <- data.frame(a = rep(c(0, 1, 5, 10), 2), n = c(3, 1, 2, 4, 1, 1, 2, 6), reg = rep(c("N", "S"), each = 4))
  ref <- mortality_distribution(d, age = "a", deaths = "n", group = "reg")$values
  g <- "reg"
  expect_equal(mortality_distribution(d, age = a, deaths = n, group = g)$values, ref)
  f <- function(dd, ...) mortality_distribution(dd, ...)
  expect_equal(f(d, age = a, deaths = n, group = reg)$values, ref)
  expect_dpfda_error(mortality_distribution(d, age = a, deaths = n, group = paste0(nope)),
                     regexp = "`group` could not be evaluated")
})

test_that("chunks and database tables take bare column names in `...` (the engine path)", {
  d <- data.frame(patient = rep(1:30, each = 11), day = rep(seq(0, 1, by = 0.1), 30))
  d$score <- sin(2 * pi * d$day) * rep(seq(0.2, 1, length.out = 30), each = 11)
  g <- seq(0, 1, by = 0.1)
  ref <- function(seed) {
    dp_reproducible(seed)
    dp_mean(dp_chunks(list(d)), epsilon = 1, tau = 1, grid = g, id = "patient", arg = "day", value = "score")$values$values
  }
  dp_reproducible(36)
  a <- dp_mean(dp_chunks(list(d)), epsilon = 1, tau = 1, grid = g, id = patient, arg = day, value = score)
  expect_equal(a$values$values, ref(36))
  x <- data.frame(v = faithful$eruptions)
  dp_reproducible(37)
  k1 <- dp_kde(dp_chunks(list(x)), seq(1, 6, length.out = 20), 0.3, epsilon = 1, delta = 1e-5, columns = v)
  dp_reproducible(37)
  k2 <- dp_kde(dp_chunks(list(x)), seq(1, 6, length.out = 20), 0.3, epsilon = 1, delta = 1e-5, columns = "v")
  expect_equal(k1$values$values, k2$values$values)
  md <- data.frame(yrs = rep(0:10, 2), dd = c(11:1, 1:11), area = rep(c("p", "q"), each = 11))
  expect_equal(mortality_distribution(dp_chunks(list(md)), age = yrs, deaths = dd, group = area)$values,
               mortality_distribution(md, age = yrs, deaths = dd, group = area)$values, tolerance = 1e-12)
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr", "2.5.0")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  DBI::dbWriteTable(con, "visits", d)
  DBI::dbWriteTable(con, "md", md)
  DBI::dbWriteTable(con, "pts", data.frame(a = faithful$eruptions, b = faithful$waiting / 20))
  vis <- dplyr::tbl(con, "visits")
  dp_reproducible(36)
  b <- dp_mean(vis, epsilon = 1, tau = 1, grid = g, id = patient, arg = day, value = score)
  expect_equal(b$values$values, ref(36), tolerance = 1e-9)
  col <- "score"
  dp_reproducible(36)
  b2 <- dp_mean(vis, epsilon = 1, tau = 1, grid = g, id = patient, arg = day, value = col)
  expect_equal(b2$values$values, ref(36), tolerance = 1e-9)
  expect_dpfda_error(dp_mean(vis, epsilon = 1, tau = 1, grid = g, id = patient, arg = nope, value = score),
                     regexp = "\"nope\"")
  expect_equal(mortality_distribution(dplyr::tbl(con, "md"), age = yrs, deaths = dd, group = area)$values,
               mortality_distribution(md, age = yrs, deaths = dd, group = area)$values, tolerance = 1e-9)
  z <- cbind(seq(1.5, 5.5, length.out = 8), seq(45, 95, length.out = 8) / 20)
  kk <- kernel_gaussian(1)
  dp_reproducible(38)
  m1 <- dp_kme(dplyr::tbl(con, "pts"), kk, 1, 1e-5, synthetic = z, columns = c(a, b))
  dp_reproducible(38)
  m2 <- dp_kme(dplyr::tbl(con, "pts"), kk, 1, 1e-5, synthetic = z, columns = c("a", "b"))
  expect_equal(m1$weights, m2$weights)
})

test_that("dp_cov() and dp_fpca() take long data frames with their column names, bare or quoted", {
  skip_if_not_installed("nlme")
  g <- seq(-1, 0.95, length.out = 12)
  ox <- as_curves(nlme::Oxboys, id = Subject, arg = age, value = height, grid = g)
  x <- curves(sweep(ox$values, 2, 149 + 6.5 * g), g)
  d <- nlme::Oxboys
  d$dev <- d$height - (149 + 6.5 * d$age)
  dp_reproducible(56)
  a <- dp_cov(x, epsilon = 1, tau = 28, J = 4)
  dp_reproducible(56)
  b <- dp_cov(d, epsilon = 1, tau = 28, J = 4, grid = g, id = Subject, arg = age, value = dev, method = "linear")
  expect_equal(b$values$values, a$values$values)
  dp_reproducible(56)
  p <- dp_fpca(d, npc = 2, epsilon = 1, tau = 28, J = 4, grid = g, id = Subject, arg = "age", value = dev,
               method = "linear")
  expect_equal(p$values, dp_fpca(a, npc = 2)$values)
  expect_dpfda_error(dp_cov(d, epsilon = 1, tau = 28, grid = g, id = Subject, arg = age, value = dev, J = 4,
                            nope = 1), regexp = "`nope` is not an argument of dp_cov")
  expect_dpfda_error(dp_cov(d, 1, 28, grid = g, id = Subject, arg = age, value = nope), regexp = "\"nope\"")
})

test_that("wide columns named by reshape() (\"distance.8\") give their arguments, in any column order", {
  o <- data.frame(nlme::Orthodont)[, c("Subject", "age", "distance")]
  w <- reshape(o, idvar = "Subject", timevar = "age", direction = "wide")   # distance.8, ..., distance.14
  x <- as_curves(w, id = Subject)
  expect_equal(x$grid, c(8, 10, 12, 14))   # (read as 0.8, 0.1, 0.12, 0.14 before)
  i <- match("M01", as.character(x$ids))
  expect_equal(x$values[i, ], o$distance[o$Subject == "M01"][order(o$age[o$Subject == "M01"])])
  # the same curves whatever the order of the columns, and with the public grid given
  x2 <- as_curves(w[, c("Subject", "distance.14", "distance.8", "distance.12", "distance.10")], id = Subject,
                  grid = c(8, 10, 12, 14))
  expect_identical(x2$values, x$values)
  expect_equal(dpfda:::args_from_column_names(c("t1", "age12.5", "t1e-04", "distance.0.5", "x_-1", "X0.5", "v.-0.5")),
               c(1, 12.5, 1e-4, 0.5, -1, 0.5, -0.5))
  # make.names()'s "X.5" may stand for "-5" or ".5": not read, the grid is asked for
  expect_true(is.na(dpfda:::args_from_column_names(c("X.5", "t1"))[1L]))
})

test_that("dates as arguments: a message that says how to turn them into numbers (it said \"not a double vector\")", {
  d <- data.frame(id = rep(1:3, each = 4), day = rep(as.Date("2026-01-01") + 0:3, 3), y = rnorm(12))
  e <- expect_error(as_curves(d, id = id, arg = day, value = y), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "holds Date values")
  d$days <- as.numeric(difftime(d$day, as.Date("2020-01-01"), units = "days"))   # as the message says
  expect_s3_class(as_curves(d, id = id, arg = days, value = y), "dpfda_curves")
  d$t <- as.POSIXct("2026-01-01", tz = "UTC") + rep(0:3, 3) * 3600
  expect_error(as_curves(d, id = id, arg = t, value = y), class = "dpfda_error_argument", regexp = "POSIXct values")
  expect_match(dpfda:::describe_value(Sys.Date() + 0:1), "a <Date> vector of length 2", fixed = TRUE)
})

test_that("an empty matrix and an array are described by their shape in a refusal", {
  # (they read "an empty double vector" and "an integer vector of length 24")
  e <- expect_error(curves(matrix(numeric(0), 0, 5), 1:5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "an empty 0 x 5 double matrix", fixed = TRUE)
  e <- expect_error(as_curves(array(1:24, c(2, 3, 4))), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "a 2 x 3 x 4 integer array", fixed = TRUE)
  expect_identical(dpfda:::describe_shape(array(0, c(2, 2, 2))), "a 2 x 2 x 2 double array")
})

test_that("points in a data frame refuse rows with missing or non-finite values as chunks and tables do", {
  # (they were once refused in memory only, while the same data frame as chunks gave a release: the
  # table fuzzer; then dropped everywhere, which made the count of complete rows public; now refused
  # everywhere, a vector or matrix as before)
  set.seed(9)
  df <- data.frame(x = runif(60), person = rep(1:20, each = 3))
  df$x[c(4, 10, 33)] <- c(NA, Inf, NaN)
  dfu <- data.frame(x = runif(60), person = rep(1:20, each = 3))
  dfu$person[50] <- NA
  g <- seq(0, 1, length.out = 21)
  rel <- function(x, ...) {
    old <- dp_reproducible(21)
    on.exit(dp_rng(old))
    dp_kde(x, g, 0.2, 1, 1e-5, binned = TRUE, ...)
  }
  msg <- "3 of the 60 rows read from `x` hold a missing or non-finite value"
  expect_error(rel(df["x"]), msg, class = "dpfda_error_data")
  expect_error(rel(dp_chunks(split(df["x"], rep(1:3, each = 20))), columns = "x"), "of the 20 rows read",
               class = "dpfda_error_data")
  # with a unit: a missing unit is refused too
  expect_error(rel(dfu, columns = "x", unit = person), "1 of the 60 rows", class = "dpfda_error_data")
  expect_equal(rel(dfu[-50, ], columns = "x", unit = person)$n, 20)
  # the kernel mean embedding alike
  k <- kernel_gaussian(0.3)
  z <- matrix(seq(0, 1, length.out = 7))
  kme <- function(x) {
    old <- dp_reproducible(22)
    on.exit(dp_rng(old))
    dp_kme(x, k, 1, 1e-5, synthetic = z, domain = c(0, 1))
  }
  expect_error(kme(df["x"]), msg, class = "dpfda_error_data")
  expect_equal(kme(df[-c(4, 10, 33), "x", drop = FALSE])$n, 57)
  # nothing left, and a vector with a missing value: classed errors
  expect_error(rel(data.frame(x = c(NA, Inf))), class = "dpfda_error_data")
  expect_error(suppressWarnings(rel(data.frame(x = numeric(0)))), class = "dpfda_error_data")
  expect_error(rel(c(0.5, NA)), class = "dpfda_error_data", regexp = "non-finite")
  expect_error(summarise_kme(data.frame(x = c(NA, NaN)), k, synthetic = z, domain = c(0, 1), columns = "x"),
               class = "dpfda_error_data")
})

test_that("dp_bin_regression() takes a data frame with `columns` as chunks and tables do (it was refused)", {
  set.seed(12)
  d <- data.frame(u = runif(200), out = rnorm(200))
  d$u[3] <- NA
  rel <- function(x, ...) with_seed_mode(8, suppressWarnings(dp_bin_regression(x, y = "out", bins = 5,
                                                                               y_bound = c(-2, 2), epsilon = 1,
                                                                               domain = c(0, 1), ...)))
  a <- rel(d, columns = "u")
  b <- rel(dp_chunks(split(d, rep(1:4, each = 50))), columns = "u")
  expect_equal(a$values$values, b$values$values, tolerance = 1e-12)
  expect_warning(rel2 <- dp_bin_regression(d, y = out, bins = 5, y_bound = c(-2, 2), epsilon = 1, domain = c(0, 1),
                                           columns = u), class = "dpfda_warning_data")   # (bare names; the NA row)
  # a matrix of inputs still takes the outputs themselves
  expect_error(dp_bin_regression(cbind(d$u), d$out, 5, c(-2, 2), 1, c(0, 1), columns = "u"),
               class = "dpfda_error_argument", regexp = "`columns` is for a data frame")
})
