# Defects found by using the regressions as a statistician would (session of 2026-12-02):
# each test fails on the behaviour before its fix.

test_that("a formula with missing outputs gives the release of the vectors: midpoint, not a refusal to drop", {
  aq <- datasets::airquality
  expect_warning(dp_bin_regression(Ozone ~ Temp, data = aq, bins = 5, y_bound = c(0, 170), epsilon = 1,
                                   domain = c(50, 100)), "37 rows with a missing output", class = "dpfda_warning")
  a <- with_seed_mode(1, suppressWarnings(
    dp_bin_regression(Ozone ~ Temp, data = aq, bins = 5, y_bound = c(0, 170), epsilon = 1, domain = c(50, 100))))
  b <- with_seed_mode(1, suppressWarnings(dp_bin_regression(aq$Temp, aq$Ozone, 5, c(0, 170), 1, c(50, 100))))
  expect_identical(a$values$values, b$values$values)
  expect_identical(a$counts, b$counts)
  # a missing predictor is still refused (its bin is not known), and the message says which part
  aq$Temp[4] <- NA
  e <- expect_error(dp_bin_regression(Ozone ~ Temp, data = aq, bins = 5, y_bound = c(0, 170), epsilon = 1,
                                      domain = c(50, 100)), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "in the formula's predictors (rows 4)", fixed = TRUE)
  # the other regressions still refuse a missing response
  expect_error(dp_gp_regression(Ozone ~ Temp, data = datasets::airquality, newdata = data.frame(Temp = 70),
                                kernel = kernel_gaussian(5, variance = 900), noise_variance = 400,
                                y_bound = c(0, 170), epsilon = 1, delta = 1e-5), class = "dpfda_error_data")
})

test_that("an empty bin's band is the whole of y_bound, not a width of 0", {
  x <- c(stats::runif(60, 0, 0.5), 0.95)
  r <- with_seed_mode(3, dp_bin_regression(x, x^2, 4, c(0, 1), 1, c(0, 1)))
  expect_equal(r$counts[3], 0)
  for (type in c("pointwise", "simultaneous")) {
    ci <- confint(r, type = type)
    expect_identical(ci$se[3], 0)
    expect_identical(c(ci$lower[3], ci$upper[3]), c(0, 1))
    expect_lt(ci$upper[1] - ci$lower[1], 1)   # (occupied bins keep their noise band)
    expect_match(attr(ci, "method"), "1 empty bin: the whole of y_bound", fixed = TRUE)
  }
})

test_that("a non-finite output is named at the position the user gave, before any reordering", {
  set.seed(1)
  x <- stats::runif(300)
  y <- sin(6 * x)
  y[3] <- Inf
  e <- expect_error(dp_gp_regression(x, y, seq(0, 1, length.out = 10), kernel_gaussian(0.2), 0.04, c(-2, 2), 1, 1e-5),
                    class = "dpfda_error_data")
  expect_match(conditionMessage(e), "at position 3[;.]")
  y[3] <- 0
  x[5] <- NaN
  e <- expect_error(dp_gp_regression(x, y, seq(0, 1, length.out = 10), kernel_gaussian(0.2), 0.04, c(-2, 2), 1, 1e-5),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "position 5")
})

test_that("a two-class factor with unused levels is refused with the advice to drop them", {
  ir <- subset(datasets::iris, Species != "setosa")
  g <- list(Sepal.Length = 4:8, Petal.Length = 3:7)
  e <- expect_error(dp_svm(Species ~ Sepal.Length + Petal.Length, data = ir, lambda = 0.05, kernel = kernel_gaussian(1),
                           grid = g, epsilon = 1, delta = 1e-5), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "droplevels", fixed = TRUE)
  expect_match(conditionMessage(e), "3 levels (setosa, versicolor, virginica) of which 2 occur", fixed = TRUE)
  r <- dp_svm(Species ~ Sepal.Length + Petal.Length, data = droplevels(ir), lambda = 0.05,
              kernel = kernel_gaussian(1), grid = g, epsilon = 1, delta = 1e-5)
  out <- paste(capture.output(print(r)), collapse = "\n")
  expect_match(out, "lambda = 0.05; classes versicolor (negative) and virginica (positive)", fixed = TRUE)
})

test_that("the print of dp_krr() shows lambda and the clipping of the outputs", {
  x <- seq(0, 1, length.out = 40)
  r <- suppressWarnings(dp_krr(x, x^2, epsilon = 1, delta = 1e-5, lambda = 0.1, kernel = kernel_gaussian(0.2),
                               grid = seq(0, 1, length.out = 10), y_bound = c(0, 2)))
  out <- paste(capture.output(print(r)), collapse = "\n")
  expect_match(out, "kernel ridge regression: lambda = 0.1; outputs clipped to [0, 2] and centred at 1 (added back)",
               fixed = TRUE)
})

test_that("predict() off the grid of a grid-only release refuses without first warning of extended values", {
  r <- dp_gp_regression(accel ~ times, data = MASS::mcycle, newdata = data.frame(times = seq(0, 60, length.out = 20)),
                        kernel = kernel_gaussian(5, variance = 2500), noise_variance = 500, y_bound = c(-150, 100),
                        epsilon = 5, delta = 1e-5)
  expect_no_warning(expect_error(predict(r, data.frame(times = c(12, 70))), class = "dpfda_error_argument"))
  # a release that extends itself still warns beyond its grid
  g <- seq(0, 1, length.out = 21)
  rg <- dp_gp_release(sin(2 * pi * g), g, kernel_gaussian(0.2), sensitivity = 0.01, epsilon = 1, delta = 1e-5)
  expect_warning(predict(rg, 1.5), class = "dpfda_warning_extrapolation")
})

test_that("refusals show the value the user gave: its missing positions, short vectors, an empty data frame", {
  x <- stats::runif(50)
  e <- expect_error(dp_bin_regression(x, x, 0, c(0, 1), 1, c(0, 1)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "a whole number of bins, at least 1, not 0", fixed = TRUE)
  e <- expect_error(dp_bin_regression(x, x, 5, c(0, 1), 1, c(1, 0)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "(c(1, 0))", fixed = TRUE)
  y <- x
  y[7] <- NA
  e <- expect_error(dp_erm(x, y, epsilon = 1, psi = 0.1, grid = seq(0, 1, length.out = 10), y_bound = c(0, 1)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "with 1 missing or non-finite value (at position 7)", fixed = TRUE)
  e <- expect_error(dp_mean(matrix(stats::rnorm(1000), 50), epsilon = 1, tau = 1, unit = c(rep(1:24, each = 2), NA, NA)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "2 missing or non-finite values (at positions 49, 50)", fixed = TRUE)
  d <- data.frame(x = x, y = x)
  e <- expect_error(dp_bin_regression(y ~ x, data = d[0, ], bins = 5, y_bound = c(0, 1), epsilon = 1, domain = c(0, 1)),
                    class = "dpfda_error_data")
  expect_match(conditionMessage(e), "`data` has no rows", fixed = TRUE)
})

test_that("a formula reads a name that is not a column where it was written, as lm() does", {
  s <- 60
  a <- with_seed_mode(1, dp_bin_regression(eruptions * s ~ waiting, data = datasets::faithful, bins = 5,
                                           y_bound = c(0, 400), epsilon = 1, domain = c(40, 100)))
  b <- with_seed_mode(1, dp_bin_regression(I(eruptions * 60) ~ waiting, data = datasets::faithful, bins = 5,
                                           y_bound = c(0, 400), epsilon = 1, domain = c(40, 100)))
  expect_identical(a$values$values, b$values$values)
  e <- expect_error(dp_bin_regression(eruptions ~ waitng_nowhere, data = datasets::faithful, bins = 5,
                                      y_bound = c(0, 6), epsilon = 1, domain = c(40, 100)),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "`waitng_nowhere`, which is not a column", fixed = TRUE)
})

test_that("the sparse regression says how many inducing inputs it used, and why fewer than asked", {
  set.seed(1)
  x <- round(stats::runif(200) * 10) / 10
  r <- suppressWarnings(dp_sparse_gp_regression(x, sin(6 * x), seq(0, 1, length.out = 10), kernel_gaussian(0.2), 0.04,
                                                c(-2, 2), 1, 1e-5, inducing = 50))
  expect_identical(nrow(r$inducing), 11L)
  out <- paste(capture.output(print(r)), collapse = "\n")
  expect_match(out, "11 inducing inputs (k-means on x; 50 asked, but x has only 11 distinct points)", fixed = TRUE)
  r2 <- suppressWarnings(dp_sparse_gp_regression(x, sin(6 * x), seq(0, 1, length.out = 10), kernel_gaussian(0.2), 0.04,
                                                 c(-2, 2), 1, 1e-5, inducing = c(0.2, 0.5, 0.8)))
  expect_match(paste(capture.output(print(r2)), collapse = "\n"), "\n  3 inducing inputs(\n|$)")   # (a seeded-noise footer may follow)
})

test_that("a named grid is matched to a formula's predictors by name in dp_krr() and dp_svm()", {
  # (the grid was read by position: list(rm = , lstat = ) for medv ~ lstat + rm released the fit at
  # swapped inputs, 27.3 where the fit is 22.2)
  skip_if_not_installed("MASS")
  d <- MASS::Boston[1:200, ]
  al <- seq(2, 35, length.out = 6)
  ar <- seq(4, 8.5, length.out = 5)
  k <- kernel_gaussian(c(4, 0.5))
  run <- function(g) {
    dp_reproducible(4)
    suppressWarnings(dp_krr(medv ~ lstat + rm, data = d, lambda = 0.05, kernel = k, grid = g, y_bound = c(5, 50),
                            epsilon = 1e6, delta = 1e-5, noise = "exact"))
  }
  r1 <- run(list(lstat = al, rm = ar))
  r2 <- run(list(rm = ar, lstat = al))
  nd <- data.frame(lstat = c(10, 5, 20), rm = c(6, 7, 5.5))
  np <- krr_fit(as.matrix(d[c("lstat", "rm")]), d$medv, 0.05, k, c(5, 50))$fun(as.matrix(nd))
  expect_equal(predict(r2, nd), predict(r1, nd))
  expect_equal(predict(r1, nd), np, tolerance = 0.05)
  expect_equal(r2$values$values, r1$values$values)   # (the same grid, in the formula's order)
  # the classifier alike
  b <- transform(d, hi = medv > 25)
  svm <- function(g) {
    dp_reproducible(4)
    suppressWarnings(dp_svm(hi ~ lstat + rm, data = b, lambda = 0.01, kernel = k, grid = g, epsilon = 1e6,
                            delta = 1e-5, noise = "exact"))
  }
  expect_equal(predict(svm(list(rm = ar, lstat = al)), nd), predict(svm(list(lstat = al, rm = ar)), nd))
  # a data frame `x`: the grid chooses the columns in its order, and predict() takes them by name
  x <- d[c("lstat", "rm")]
  r3 <- suppressWarnings({
    dp_reproducible(4)
    dp_krr(x, d$medv, lambda = 0.05, kernel = k, grid = list(rm = ar, lstat = al), y_bound = c(5, 50), epsilon = 1e6,
           delta = 1e-5, noise = "exact")
  })
  expect_identical(r3$predictors, c("rm", "lstat"))
  G <- as.data.frame(expand.grid(rm = ar, lstat = al))
  expect_equal(predict(r3, G[c("lstat", "rm")]), as.vector(r3$values$values), tolerance = 1e-8)
})

test_that("bin regression puts a point on a bin edge in the same bin in any units, on every source", {
  # (airquality's 65 F is an edge of 10 bins on [50, 100]; at 18.33 C its position was
  # 2.9999999999999996 bins: two records moved down a bin, and the means changed by up to 5.7)
  aq <- stats::na.omit(datasets::airquality)
  aq$TempC <- (aq$Temp - 32) * 5 / 9
  f <- function(fm, dom, nd) with_seed_mode(3, dp_bin_regression(fm, data = aq, bins = 10, y_bound = c(0, 170),
                                                                 epsilon = 1, domain = dom, newdata = nd))
  a <- f(Ozone ~ Temp, c(50, 100), data.frame(Temp = c(55, 65, 70, 85)))
  b <- f(Ozone ~ TempC, (c(50, 100) - 32) * 5 / 9, data.frame(TempC = (c(55, 65, 70, 85) - 32) * 5 / 9))
  expect_identical(b$counts, a$counts)
  expect_equal(b$values$values, a$values$values)
  expect_equal(b$predictions, a$predictions)
  # a shift and an inexact scale (mcycle's times in seconds from 3 s): the same bin at an edge
  d <- MASS::mcycle
  g <- function(x, dom, nd) with_seed_mode(7, dp_bin_regression(x, d$accel, bins = 10, y_bound = 150, epsilon = 1,
                                                                domain = dom, newdata = nd))
  p1 <- g(d$times, c(0, 60), c(30, 12.3))$predictions
  p2 <- g(3 + d$times / 1000, 3 + c(0, 60) / 1000, 3 + c(30, 12.3) / 1000)$predictions
  expect_equal(p2, p1)
  # a table bins as memory does
  skip_if_not_installed("RSQLite")
  skip_if_not_installed("dbplyr")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "aq", aq[c("Ozone", "TempC")])
  s_tab <- summarise_bin_regression(dplyr::tbl(con, "aq"), y = "Ozone", columns = "TempC", bins = 10,
                                    domain = (c(50, 100) - 32) * 5 / 9, y_bound = c(0, 170))
  s_mem <- summarise_bin_regression(aq[c("Ozone", "TempC")], y = "Ozone", columns = "TempC", bins = 10,
                                    domain = (c(50, 100) - 32) * 5 / 9, y_bound = c(0, 170))
  expect_equal(s_tab$sums, s_mem$sums)
  expect_equal(unname(s_mem$sums[, "count"]), as.double(a$counts))
})

test_that("tidy() lists a selection's candidates; dp_gp_select() names a bad candidate; dp_gp_release() takes a curve-valued f", {
  # (tidy() of a selection was R's unclassed "no applicable method")
  s <- with_seed_mode(1, dp_select(c(a = 1, b = 5, c = 2), sensitivity = 1, epsilon = 2))
  td <- tidy(s)
  expect_identical(names(td), c("index", "label", "chosen"))
  expect_identical(td$label, c("a", "b", "c"))
  expect_identical(which(td$chosen), s$index)
  expect_false(any(c("utility", "score") %in% names(td)))   # (never the utilities)
  expect_identical(names(tidy(with_seed_mode(1, dp_select(c(1, 5), 1, 2)))), c("index", "chosen"))
  cand <- expand.grid(lengthscale = c(2, 5), noise_variance = c(200, 800))
  g <- with_seed_mode(2, dp_gp_select(MASS::mcycle$times, MASS::mcycle$accel, cand, y_bound = c(-150, 100),
                                      epsilon = 1, include_dp_noise = FALSE))
  tg <- tidy(g)
  expect_identical(nrow(tg), 4L)
  expect_identical(tg$lengthscale, cand$lengthscale)
  expect_identical(sum(tg$chosen), 1L)
  p <- with_seed_mode(3, pcv_select(curves(matrix(rnorm(40 * 11), 40), seq(0, 1, length.out = 11)), epsilon = 1,
                                    tau = 2, mechanism = "iclp_qr", epsilon_select = 0.5))
  tp <- tidy(p)
  expect_identical(names(tp), c("index", "psi", "chosen"))
  expect_identical(tp$psi[tp$chosen], p$psi)
  # (a negative lengthscale was "must be a data frame ..., not an object of class <data.frame>")
  bad <- transform(cand, lengthscale = c(2, -1, 5, 5))
  expect_error(dp_gp_select(MASS::mcycle$times, MASS::mcycle$accel, bad, y_bound = c(-150, 100), epsilon = 1),
               "`candidates`: its column `lengthscale` must hold positive finite numbers; row 2 is -1", fixed = TRUE,
               class = "dpfda_error_argument")
  # a function returning one curve on the grid, as kde_gaussian() does
  x <- datasets::faithful$eruptions
  gr <- seq(1, 6, length.out = 51)
  a <- with_seed_mode(4, dp_gp_release(function(t) kde_gaussian(x, t, 0.3), gr, kernel_gaussian(0.3), 1,
                                       epsilon = 1, delta = 1e-5))
  b <- with_seed_mode(4, dp_gp_release(function(t) kde_gaussian(x, t, 0.3)$values[1, ], gr, kernel_gaussian(0.3), 1,
                                       epsilon = 1, delta = 1e-5))
  expect_identical(a$values$values, b$values$values)
})

test_that("the expected L2 noise error of bin regression is that of its step function over the domain", {
  # (the trapezoid rule over the bin centres gave the end bins half weight: 258.9 for 321 on
  # airquality, whose noisiest bin is at an end; and the sd range began at the empty bin's 0)
  aq <- stats::na.omit(datasets::airquality)
  a <- with_seed_mode(3, suppressWarnings(dp_bin_regression(Ozone ~ Temp, data = aq, bins = 10, y_bound = c(0, 170),
                                                            epsilon = 1, domain = c(50, 100))))
  s <- a$laplace_scale
  exact <- sqrt(sum(2 * s^2 * 5))   # Laplace variance 2 b^2 over each bin of width 5
  expect_equal(dp_accuracy(a)$expected_l2, exact, tolerance = 1e-10)
  out <- capture.output(print(a))
  expect_true(any(grepl(sprintf("expected L2 noise error %s", format(exact, digits = 4)), out, fixed = TRUE)))
  expect_true(any(grepl("(1 empty bin: the midpoint of y_bound, no estimate)", out, fixed = TRUE)))
  expect_true(any(grepl(sprintf("noise sd of the bin means in [%s,", format(min(sqrt(2) * s[a$counts > 0]), digits = 4)),
                        out, fixed = TRUE)))
  # the same by simulation of the published law
  law <- dpfda:::noise_law(a)
  z <- law$draw(4000)
  expect_equal(sqrt(mean(rowSums(z^2 * rep(law$weights, each = 4000)))), exact, tolerance = 0.05)
})

test_that("a regression on several predictors names its axes after them", {
  # (as.data.frame(names = TRUE) gave arg1, arg2 for y ~ a + b)
  set.seed(12)
  d <- data.frame(a = runif(60), b = runif(60) * 10)
  d$y <- sin(3 * d$a) + d$b / 10
  nd <- expand.grid(a = seq(0.1, 0.9, length.out = 3), b = seq(1, 9, length.out = 3))
  f <- with_seed_mode(1, suppressWarnings(dp_gp_regression(y ~ a + b, data = d, newdata = nd,
                                                           kernel = kernel_gaussian(lengthscale = c(0.3, 3)),
                                                           noise_variance = 0.01, y_bound = c(-1, 3),
                                                           epsilon = 1, delta = 1e-5)))
  df <- as.data.frame(f, names = TRUE)
  expect_identical(names(df)[2:4], c("a", "b", "y"))
  expect_equal(df$a, nd$a)
  expect_equal(df$b, nd$b)
  expect_named(as.data.frame(f), c("id", "arg1", "arg2", "value", "se", "lower", "upper"))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(f))
})

test_that("a matrix of points with the predictors' column names is read by name, as a data frame is", {
  aq <- stats::na.omit(airquality)
  k <- kernel_gaussian(c(10, 5), variance = 900)
  nd <- expand.grid(Temp = seq(60, 95, by = 5), Wind = c(5, 10, 15))
  nd2 <- nd[, c("Wind", "Temp")]
  f <- function(newd) with_seed_mode(1, suppressWarnings(dp_gp_regression(aq[c("Temp", "Wind")], aq$Ozone, newd,
                                                                          kernel = k, noise_variance = 400,
                                                                          y_bound = c(0, 170), epsilon = 1,
                                                                          delta = 1e-5)))
  a <- f(nd)
  expect_equal(f(as.matrix(nd2))$values$values, a$values$values, tolerance = 1e-12)   # (it differed by 202)
  kk <- kernel_gaussian(c(10, 5))
  g <- function(grid) with_seed_mode(1, suppressWarnings(dp_krr(aq[c("Temp", "Wind")], aq$Ozone, lambda = 0.1,
                                                                kernel = kk, grid = grid, y_bound = c(0, 170),
                                                                epsilon = 1, delta = 1e-5)))
  r2 <- g(as.matrix(nd2))
  r3 <- g(nd2)
  expect_identical(r2$predictors, r3$predictors)
  expect_equal(predict(r2, nd[1:5, ]), predict(r3, nd[1:5, ]), tolerance = 1e-12)
  r1 <- g(as.matrix(nd))
  expect_equal(predict(r1, as.matrix(nd2[1:3, ])), predict(r1, nd[1:3, ]), tolerance = 1e-12)
  # a matrix whose names are not the predictors' is read by position, as before
  m <- as.matrix(nd)
  colnames(m) <- c("a", "b")
  expect_equal(g(m)$values$values, r1$values$values, tolerance = 1e-12)
})
