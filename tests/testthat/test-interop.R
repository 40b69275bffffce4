# Conversions to and from fda, tf, long data frames and matrices (R/interop.R).

test_that("long data frames and matrices round-trip through curves", {
  g <- seq(0, 1, length.out = 17)
  x <- curves(rbind(sin(2 * pi * g), cos(2 * pi * g), g^2), g)
  d <- as.data.frame(x)
  y <- as_curves(d[sample(nrow(d)), ])          # any row order
  expect_equal(y$values, x$values)
  expect_equal(y$grid, x$grid)
  expect_equal(as_curves(x$values, grid = g)$values, x$values)
  expect_equal(as_curves(sin(g), grid = g)$values, matrix(sin(g), 1))
  expect_identical(as_curves(x), x)
  r <- new_dpfda_release(x, mechanism = "example", epsilon = 1, delta = 0, sensitivity = 1, noise_scale = 1,
                         noise = "none")
  expect_identical(as_curves(r), x)
  # other column names
  d2 <- data.frame(subject = d$id, t = d$arg, fa = d$value)
  expect_equal(as_curves(d2, id = "subject", arg = "t", value = "fa")$values, x$values)
})

test_that("bad long data frames give classed errors naming the argument", {
  d <- data.frame(id = rep(1:2, each = 3), arg = rep(1:3, 2), value = 1:6)
  e <- expect_error(as_curves(d, arg = "time"), class = "dpfda_error_argument")
  expect_identical(e$arg, "arg")
  e <- expect_error(as_curves(d[-1, ]), class = "dpfda_error_argument")
  expect_identical(e$arg, "x")
  d$value[2] <- NA
  e <- expect_error(as_curves(d), class = "dpfda_error_argument")
  expect_identical(e$arg, "value")
  e <- expect_error(as_curves(list(1, 2)), class = "dpfda_error_argument")
  expect_identical(e$arg, "x")
  d <- data.frame(id = c(1, 1), arg = c(1, 1), value = 1:2)
  expect_error(as_curves(d), class = "dpfda_error_argument")
})

test_that("fd -> curves -> fd reproduces the coefficients to 1e-10", {
  skip_if_not_installed("fda")
  b <- fda::create.bspline.basis(c(0, 2), nbasis = 9)
  set.seed(3)
  f <- fda::fd(matrix(rnorm(27), 9, 3), b)
  cv <- as_curves(f, n_grid = 60)
  expect_equal(dim(cv$values), c(3L, 60L))
  expect_equal(range(cv$grid), c(0, 2))
  expect_equal(cv$values, unname(t(fda::eval.fd(cv$grid, f))))
  back <- as_fd(cv, basis = b)
  expect_lt(max(abs(back$coefs - f$coefs)), 1e-10)
  expect_s3_class(as_fd(cv), "fd")
  e <- expect_error(as_curves(f, grid = c(-1, 1)), class = "dpfda_error_argument")
  expect_identical(e$arg, "grid")
  e <- expect_error(as_fd(cv, basis = "bspline"), class = "dpfda_error_argument")
  expect_identical(e$arg, "basis")
})

test_that("as_fd() of a release returns the released values at its grid (issue 32)", {
  skip_if_not_installed("fda")
  g <- seq(0.5, 364.5, length.out = 365)
  x <- curves(t(fda::CanadianWeather$dailyAv[, , "Temperature.C"]), g)
  dp_reproducible(1)
  r <- dp_mean(x, epsilon = 1, tau = 300)
  v <- as.vector(r$values$values)
  f <- as_fd(r)
  # the former default (20 cubic B-splines) missed the values by 4.8 % of their range
  expect_lt(max(abs(fda::eval.fd(g, f) - v)) / diff(range(v)), 1e-9)
  for (m in c(2L, 3L, 4L, 7L)) {   # short grids: a polynomial, then the not-a-knot spline
    gm <- seq(-1, 2, length.out = m)
    cm <- curves(rbind(sin(gm), cos(3 * gm)), gm)
    expect_equal(unname(t(fda::eval.fd(gm, as_fd(cm)))), unname(cm$values), tolerance = 1e-10)
  }
})

test_that("tfd <-> curves round-trips, releases become tfd", {
  skip_if_not_installed("tf")
  g <- seq(0, 1, length.out = 25)
  x <- curves(rbind(sin(2 * pi * g), g), g)
  tt <- as_tfd(x)
  expect_s3_class(tt, "tfd")
  back <- as_curves(tt)
  expect_equal(back$values, x$values, tolerance = 1e-12)
  expect_equal(back$grid, g)
  r <- with_seed_mode(1, dp_mean(curves(outer(runif(50, 0.5, 1), sin(2 * pi * g)), g), 1, 1))
  expect_length(as_tfd(r), 1L)
  # evaluate on another grid
  expect_equal(as_curves(tt, grid = c(0, 0.5, 1))$values[2, ], c(0, 0.5, 1), tolerance = 1e-12)
})

test_that("tfb objects (tf's basis representation) are evaluated exactly at the grid", {
  skip_if_not_installed("tf")
  g <- seq(0, 1, length.out = 41)
  x <- as_tfd(curves(rbind(a = sin(2 * pi * g), b = g^2, c = cos(pi * g)), g))
  b <- suppressMessages(tf::tfb(x, k = 12, verbose = FALSE))
  cb <- as_curves(b)
  expect_s3_class(cb, "dpfda_curves")
  expect_identical(cb$ids, c("a", "b", "c"))
  expect_equal(cb$grid, g)
  expect_equal(cb$values, do.call(rbind, lapply(tf::tf_evaluate(b, arg = g), as.double)), tolerance = 1e-12,
               ignore_attr = TRUE)
  # another grid: the basis itself there, not an interpolation of its values on its own arguments
  g2 <- c(0.013, 0.31, 0.77)
  expect_equal(as_curves(b, grid = g2)$values, do.call(rbind, lapply(tf::tf_evaluate(b, arg = g2), as.double)),
               tolerance = 1e-12, ignore_attr = TRUE)
  expect_error(as_curves(b, grid = c(-1, 0.5)), "domain", class = "dpfda_error_argument")
  # a tfb column of a data frame, and straight into a release (the same as its curves)
  d <- data.frame(id = c("u", "v", "w"))
  d$f <- b
  cd <- as_curves(d, value = f)
  expect_identical(cd$ids, c("u", "v", "w"))
  expect_equal(cd$values, cb$values, tolerance = 1e-12)
  r1 <- with_seed_mode(3, suppressWarnings(dp_mean(b, epsilon = 1, tau = 2)))
  r2 <- with_seed_mode(3, suppressWarnings(dp_mean(cb, epsilon = 1, tau = 2)))
  expect_equal(r1$values$values, r2$values$values)
})

test_that("conversions to tf / fda give a classed error when the package is missing", {
  g <- seq(0, 1, length.out = 5)
  cv <- curves(g, g)
  if (!requireNamespace("tf", quietly = TRUE)) expect_error(as_tfd(cv), class = "dpfda_error_dependency")
  if (!requireNamespace("fda", quietly = TRUE)) expect_error(as_fd(cv), class = "dpfda_error_dependency")
  expect_error(dpfda:::need_package("surely.not.a.package", "x"), class = "dpfda_error_dependency")
})

test_that("fd objects give their fdnames to the curves, and as_fd() writes them back", {
  skip_if_not_installed("fda")
  gr <- fda::growth
  b <- fda::create.bspline.basis(range(gr$age), nbasis = 12)
  f <- fda::smooth.basis(gr$age, gr$hgtf, fda::fdPar(b),
                         fdnames = list("Age (years)", colnames(gr$hgtf), "Height (cm)"))$fd
  cv <- as_curves(f, grid = gr$age)
  expect_identical(c(cv$arg_name, cv$value_name), c("Age (years)", "Height (cm)"))
  expect_identical(cv$ids, colnames(gr$hgtf))
  d <- as.data.frame(cv, names = TRUE)
  expect_named(d, c("id", "Age (years)", "Height (cm)"))
  expect_identical(levels(d$id), colnames(gr$hgtf))
  expect_named(as.data.frame(cv), c("id", "arg", "value"))          # the default layout is unchanged
  expect_equal(as_curves(as.data.frame(cv))$values, cv$values)
  # fda's default names (smooth.basis stores the arguments in fdnames[[1]]): the list's names label them
  f0 <- fda::smooth.basis(gr$age, gr$hgtf, b)$fd
  c0 <- as_curves(f0)
  expect_identical(c(c0$arg_name, c0$value_name), c(names(f0$fdnames)[1], f0$fdnames[[3]]))
  expect_identical(as_curves(f0, arg_name = "age", value_name = "cm")$arg_name, "age")
  # through a mechanism: the release keeps the names and its plot labels use them
  r <- with_seed_mode(3, dp_mean(f, epsilon = 1, tau = 50, center = function(a) 80 + 5 * a))
  expect_identical(c(dpfda:::curves_arg_label(r$values), dpfda:::curves_value_label(r$values)),
                   c("Age (years)", "Height (cm)"))
  expect_named(as.data.frame(r, names = TRUE), c("id", "Age (years)", "Height (cm)", "se", "lower", "upper"))
  # and back to fda: the same names
  back <- as_fd(cv)
  expect_identical(back$fdnames[[1]], "Age (years)")
  expect_identical(back$fdnames[[2]], colnames(gr$hgtf))
  expect_identical(back$fdnames[[3]], "Height (cm)")
  expect_identical(as_curves(back)$value_name, "Height (cm)")
  # a multivariate fd is refused with a hint
  fm <- fda::fd(array(rnorm(12 * 2 * 2), c(12, 2, 2)), b)
  expect_error(as_curves(fm), class = "dpfda_error_argument", regexp = "multivariate")
  skip_if_not_installed("ggplot2")
  p <- ggplot2::autoplot(r, band = TRUE)
  expect_equal(c(p$labels$x, p$labels$y), c("Age (years)", "Height (cm)"))
})

test_that("tfd objects: names label the curves; arg_name / value_name or a tf column name the axes", {
  skip_if_not_installed("tf")
  g <- seq(0, 1, length.out = 11)
  x <- tf::tfd(rbind(a = sin(2 * pi * g), b = g), arg = g)
  cv <- as_curves(x)
  expect_identical(cv$ids, c("a", "b"))
  expect_identical(c(cv$arg_name, cv$value_name), c("t", "value"))
  named <- as_curves(x, arg_name = "week", value_name = "score")
  expect_identical(c(named$arg_name, named$value_name), c("week", "score"))
  # a tf column of a data frame (tidyfun's layout): the column's name is the value name
  d <- data.frame(who = c("p", "q"))
  d$score <- x
  cd <- as_curves(d, id = who, value = score)
  expect_identical(cd$value_name, "score")
  expect_identical(cd$ids, c("p", "q"))
  expect_equal(cd$values, cv$values)
  expect_identical(as_curves(d)$value_name, "score")                 # the single tf column is found
  r <- with_seed_mode(4, dp_mean(d, epsilon = 1, tau = 1, value = score))
  expect_identical(r$values$value_name, "score")
  # back to tf: the labels travel as names
  expect_identical(names(as_tfd(cv)), c("a", "b"))
})

test_that("irregular tfd: curves that do not cover the grid are named, or dropped with incomplete = \"drop\"", {
  # (the error said only "Some curves are not defined on all of `grid`", and incomplete = "drop" was ignored)
  skip_if_not_installed("tf")
  g <- seq(0, 1, length.out = 11)
  a <- list(g, g[2:11], g[1:9], g[c(1, 3, 5, 7, 9, 11)])
  x <- tf::tfd(lapply(a, function(t) 1 + t^2), arg = a)
  names(x) <- c("w", "x", "y", "z")
  e <- expect_error(as_curves(x, grid = g), class = "dpfda_error_data")
  expect_identical(e$arg, "grid")
  expect_match(conditionMessage(e), "2 curves do not cover the grid [0, 1]", fixed = TRUE)
  expect_match(conditionMessage(e), "x on [0.1, 1]; y on [0, 0.8]", fixed = TRUE)
  expect_match(conditionMessage(e), "The range all curves cover is [0.1, 0.8]", fixed = TRUE)
  cv <- as_curves(x, grid = g, incomplete = "drop")
  expect_identical(cv$ids, c("w", "z"))
  expect_identical(cv$dropped, c("x", "y"))
  expect_equal(cv$values[1L, ], 1 + g^2)
  expect_equal(cv$values[2L, ], approx(a[[4]], 1 + a[[4]]^2, g)$y)   # linear between the observations
  # inside the range all cover: every curve, as tf evaluates it
  h <- seq(0.1, 0.8, length.out = 5)
  expect_equal(as_curves(x, grid = h)$values, do.call(rbind, tf::tf_evaluate(x, arg = h)), ignore_attr = TRUE)
  # no grid: the range all curves cover is suggested
  e <- expect_error(as_curves(x), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "grid = seq(0.1, 0.8", fixed = TRUE)
  # the releases: dp_mean(incomplete = "drop") leaves them out and counts privately
  r <- with_seed_mode(2, suppressWarnings(dp_mean(x, epsilon = 1, tau = 3, grid = g, incomplete = "drop")))
  expect_false(is.null(r$epsilon_count))
  expect_error(dp_mean(x, epsilon = 1, tau = 3, grid = g), class = "dpfda_error_data")
  # a tf column with `id`: the dropped curves are named by it, the others keep its type
  d <- data.frame(who = c(11L, 12L, 13L, 14L))
  d$y <- unname(x)
  cd <- as_curves(d, id = who, value = y, grid = g, incomplete = "drop")
  expect_identical(cd$ids, c(11L, 14L))
  expect_identical(cd$dropped, c("12", "13"))
  d$who[2] <- 11L
  expect_error(as_curves(d, id = who, value = y, grid = g), "repeats values", class = "dpfda_error_argument")
  # unnamed: ids 1, 2, ... in the tfd's order
  expect_identical(as_curves(unname(x), grid = g, incomplete = "drop")$ids, c(1L, 4L))
})

test_that("a tf column with a grid and a unit column gives the release of the same long data frame", {
  # (dp_mean(d, value = <tf column>, grid = ) read the frame as long data and asked for an `arg` column;
  # without `id` the unit column could not follow the curves left out)
  skip_if_not_installed("tf")
  g <- seq(0, 1, length.out = 11)
  set.seed(3)
  a <- lapply(1:60, function(i) if (i %% 7 == 0) g[2:11] else g)
  v <- lapply(a, function(t) 0.5 + 0.3 * sin(2 * pi * t) + stats::rnorm(length(t), 0, 0.05))
  d <- data.frame(who = 101:160, person = rep(1:20, each = 3))
  d$y <- tf::tfd(v, arg = a)
  long <- data.frame(who = rep(d$who, lengths(a)), person = rep(d$person, lengths(a)), t = unlist(a), v = unlist(v))
  rel <- function(data, ...) with_seed_mode(6, suppressWarnings(dp_mean(data, epsilon = 2, tau = 1, grid = g,
                                                                            unit = person, incomplete = "drop", ...)))
  ref <- rel(long, id = who, arg = t, value = v)
  shuffled <- d[sample(60), ]
  for (r in list(rel(d, id = who, value = y), rel(d, value = y), rel(shuffled, value = y))) {
    expect_equal(r$values$values, ref$values$values, tolerance = 1e-12)
    expect_identical(r$n, ref$n)
  }
  cd <- as_curves(d, value = y, grid = g, incomplete = "drop")
  expect_identical(cd$dropped, as.character(seq(7, 56, by = 7)))
  expect_identical(cd$frame_rows, setdiff(1:60, seq(7, 56, by = 7)))
  # the summaries read the tf column as the releases do ("`id` names a column "id" that `x` does not have")
  sm <- summarise_mean(d, tau = 1, value = y, grid = g, incomplete = "drop", unit = person)
  sl <- summarise_mean(long, tau = 1, id = who, arg = t, value = v, grid = g, incomplete = "drop", unit = person)
  expect_identical(sm$n, sl$n)
  expect_equal(sm$sums, sl$sums, tolerance = 1e-12)
  sc <- summarise_cov(d, tau = 1, value = y, grid = g, incomplete = "drop", unit = person)
  scl <- summarise_cov(long, tau = 1, id = who, arg = t, value = v, grid = g, incomplete = "drop", unit = person)
  expect_identical(sc$n, scl$n)
  expect_equal(sc$sums, scl$sums, tolerance = 1e-12)
  # a bare `value` naming a matrix column is read once (R warned "restarting interrupted promise evaluation")
  m <- do.call(rbind, lapply(1:60, function(i) 0.5 + 0.3 * sin(2 * pi * g)))
  colnames(m) <- g
  dm <- data.frame(person = rep(1:20, each = 3))
  dm$cca <- m
  expect_no_warning(summarise_cov(dm, tau = 1, value = cca, unit = person))
})

test_that("tf's own tfd() and as.tfd() convert curves and releases (an empty tfd with a warning before)", {
  skip_if_not_installed("tf")
  g <- seq(0, 1, length.out = 11)
  cv <- curves(rbind(sin(2 * pi * g), g), g)
  expect_equal(tf::tfd(cv), as_tfd(cv))
  expect_equal(tf::as.tfd(cv), as_tfd(cv))
  r <- with_seed_mode(4, dp_mean(cv, epsilon = 1, tau = 1))
  expect_no_warning(t1 <- tf::tfd(r))
  expect_length(t1, 1L)
  expect_equal(tf::as.tfd(r), as_tfd(r))
  expect_equal(as.vector(tf::tf_evaluations(t1)[[1]]), as.vector(r$values$values[1, ]))
})

test_that("wide data frames: a repeated column name is refused, and a covariate among arguments is named", {
  # (two columns "x1": the second vanished, its curve values with it)
  d <- data.frame(id = c("a", "b"), x1 = c(1, 2), x2 = c(3, 4), x1 = c(100, 200), check.names = FALSE)
  expect_error(as_curves(d), "two columns named \"x1\"", class = "dpfda_error_data")
  expect_error(dp_mean(d, epsilon = 1, tau = 1), "two columns named \"x1\"", class = "dpfda_error_data")
  dw <- data.frame(Subject = c("a", "b"), age = c(30, 40), `1` = 1:2, `2` = 3:4, check.names = FALSE)
  expect_error(as_curves(dw, id = Subject), "Column \"age\" names no argument", class = "dpfda_error_argument")
  expect_equal(as_curves(dw[-2], id = Subject)$grid, c(1, 2))
})

test_that("a tfd's empty (NA) curve is an individual without observations: refused, or kept in n with \"drop\"", {
  skip_if_not_installed("tf")
  skip_if_not_installed("fda")
  age <- fda::growth$age
  H <- t(fda::growth$hgtf)
  H9 <- H
  H9[9, ] <- NA
  ref <- 75 + 6.2 * (age - 1)
  # an irregular tfd (one missing value) and a regular one with an NA element
  Hn <- H9
  Hn[3, 10] <- NA
  irr <- suppressWarnings(tf::tfd(Hn, arg = age))
  reg <- tf::tfd(H, arg = age)
  reg[9] <- NA
  for (td in list(irr, reg)) {
    # (it was dropped in silence: n 53, so that n told whether girl09's curve is missing)
    expect_error(as_curves(td, grid = age), "girl09", class = "dpfda_error_data")
    expect_error(dp_mean(td, grid = age, epsilon = 1, tau = 100, center = ref), class = "dpfda_error_data")
    cv <- as_curves(td, grid = age, incomplete = "drop")
    expect_identical(cv$dropped, "girl09")
    expect_identical(nrow(cv$values), 53L)
    r <- with_seed_mode(1, suppressWarnings(dp_mean(td, grid = age, epsilon = 1, tau = 100, center = ref,
                                                    incomplete = "drop")))
    expect_identical(r$n, 54)
  }
  # the regular one is the matrix with its row of missing values, release for release
  r_tf <- with_seed_mode(1, suppressWarnings(dp_mean(reg, grid = age, epsilon = 1, tau = 100, center = ref,
                                                     incomplete = "drop")))
  r_m <- with_seed_mode(1, suppressWarnings(dp_mean(H9, grid = age, epsilon = 1, tau = 100, center = ref,
                                                    incomplete = "drop")))
  expect_equal(r_tf$values$values, r_m$values$values, tolerance = 1e-12)
  expect_identical(dp_cov(reg, grid = age, epsilon = 1, tau = 100, J = 3, incomplete = "drop")$n, 54)
  # a tf column with a unit: the person whose only other curve is complete stays, as for the matrix
  d <- data.frame(person = rep(1:27, each = 2))
  d$h <- reg
  r_u <- with_seed_mode(1, suppressWarnings(dp_mean(d, value = h, unit = person, grid = age, epsilon = 1, tau = 100,
                                                    center = ref, incomplete = "drop")))
  r_um <- with_seed_mode(1, suppressWarnings(dp_mean(H9, unit = rep(1:27, each = 2), grid = age, epsilon = 1,
                                                     tau = 100, center = ref, incomplete = "drop")))
  expect_identical(r_u$n, 27)
  expect_equal(r_u$values$values, r_um$values$values, tolerance = 1e-12)
  # a grid beyond the domain: the long rules (named, or left out with "drop"), not tf's own error
  expect_error(as_curves(tf::tfd(H, arg = age), grid = 0:20), "do not cover the grid", class = "dpfda_error_data")
  expect_error(as_curves(tf::tfd(H, arg = age), grid = 0:20, incomplete = "drop"), "No curve covers",
               class = "dpfda_error_data")
  # df is checked as for long data (a bad one fell back to GCV with a warning a curve)
  expect_error(as_curves(irr, grid = age, method = "smooth", df = "a"), class = "dpfda_error_argument")
  expect_error(as_curves(irr, grid = age, method = "smooth", df = 0.5), class = "dpfda_error_argument")
})

test_that("long data interpolated with incomplete = \"drop\": a curve with a missing value is left out and counted", {
  g <- seq(0, 1, length.out = 6)
  X <- outer(seq(0.2, 0.8, length.out = 12), g + 0.5)
  X[4, 3] <- NA
  L <- data.frame(id = rep(seq_len(12), each = 6), arg = rep(g, 12), value = as.vector(t(X)))
  # (refused, with a message that advised incomplete = "drop")
  cv <- as_curves(L, grid = g, method = "linear", incomplete = "drop")
  expect_identical(cv$dropped, "4")
  expect_identical(nrow(cv$values), 11L)
  # (the warning that the noisy count of so few individuals is uncertain: both)
  r_l <- with_seed_mode(2, suppressWarnings(dp_mean(L, grid = g, epsilon = 1, tau = 2, method = "linear",
                                                    incomplete = "drop")))
  r_m <- with_seed_mode(2, suppressWarnings(dp_mean(X, grid = g, epsilon = 1, tau = 2, incomplete = "drop")))
  expect_identical(r_l$n, 12)
  expect_equal(r_l$values$values, r_m$values$values, tolerance = 1e-12)
  expect_error(as_curves(L, grid = g, method = "linear"), "incomplete = \"drop\"", class = "dpfda_error_data")
  L$value <- NA_real_
  expect_error(as_curves(L, grid = g, method = "linear", incomplete = "drop"), "Every curve",
               class = "dpfda_error_data")
})

test_that("a wide frame whose names read as other arguments than a grid of one point per column is refused", {
  skip_if_not_installed("fda")
  age <- fda::growth$age
  W <- as.data.frame(t(fda::growth$hgtf))
  names(W) <- paste0("visit", seq_along(age))
  # (read at ages 1..31 and interpolated onto the ages, 34 cm off, without a word)
  expect_error(as_curves(W, grid = age), "ambiguous", class = "dpfda_error_argument")
  expect_error(dp_mean(W, grid = age, epsilon = 1, tau = 100), "ambiguous", class = "dpfda_error_argument")
  names(W) <- paste0("age_", age)
  expect_equal(as_curves(W, grid = age)$values, unname(as.matrix(W)), ignore_attr = TRUE)
  expect_identical(length(as_curves(W, grid = seq(1, 18, length.out = 7))$grid), 7L)   # (another length: onto it)
})

test_that("messages for a tfd or a release where curves are wanted, a date column, an fd basis off the grid", {
  skip_if_not_installed("tf")
  skip_if_not_installed("fda")
  g <- seq(0, 1, length.out = 11)
  X <- outer(seq(0.2, 0.8, length.out = 10), g + 0.5)
  r <- with_seed_mode(1, dp_mean(X, grid = g, epsilon = 1, tau = 2))
  expect_equal(integrate_curves(r), integrate_curves(r$values))
  expect_error(summarise_mean(tf::tfd(X, arg = g), grid = g, tau = 2), "<tfd_reg> object.*|as_curves",
               class = "dpfda_error_argument")
  expect_error(query(r, 0.5), "dpfda_iclp_release", class = "dpfda_error_argument")
  d <- data.frame(id = rep(1:3, each = 3), Time = rep(as.Date("2020-01-01") + 0:2, 3), y = 1:9)
  expect_error(dp_mean(d, id = id, arg = Time, value = y, grid = 0:2, epsilon = 1, tau = 10), "difftime",
               class = "dpfda_error_data")
  expect_error(as_fd(curves(X, g + 1), basis = fda::create.bspline.basis(c(0, 1), 5)), "does not span",
               class = "dpfda_error_argument")
})

test_that("a one-point grid reaches its point only: the other rows of long data are left out, on every source", {
  # (every row was averaged into the one point: growth's heights at all ages gave 135.2 at age 5)
  L <- data.frame(id = rep(1:5, each = 3), arg = rep(c(4, 5, 6), 5), value = rep(c(1, 2, 3), 5) * rep(1:5, each = 3))
  expect_warning(s <- summarise_mean(L, grid = 5, tau = 100), "10 rows of long data lie beyond the grid's one point",
                 class = "dpfda_warning_data")
  expect_equal(s$sums / s$n, mean(2 * 1:5))
  r_m <- with_seed_mode(1, suppressWarnings(dp_mean(L, grid = 5, epsilon = 1, tau = 100)))
  r_c <- with_seed_mode(1, suppressWarnings(dp_mean(dp_chunks(L, 4), grid = 5, epsilon = 1, tau = 100)))
  expect_equal(r_c$values$values, r_m$values$values, tolerance = 1e-12)
  expect_identical(r_m$n, 5)
  skip_if_not_installed("RSQLite")
  env <- environment()
  tb <- sqlite_tbl(L, "one_point", envir = env)
  expect_warning(s_t <- summarise_mean(tb, grid = 5, tau = 100), "beyond the grid's one point",
                 class = "dpfda_warning_data")
  expect_equal(s_t$sums, s$sums, tolerance = 1e-12)
  r_t <- with_seed_mode(1, suppressWarnings(dp_mean(tb, grid = 5, epsilon = 1, tau = 100)))
  expect_equal(r_t$values$values, r_m$values$values, tolerance = 1e-12)
  expect_error(dp_mean(tb, grid = c(4, 5, 6), epsilon = 1, tau = 10, method = "linear"),
               "applies to curves read in memory", class = "dpfda_error_argument")
})
