# dp_mean(inference = TRUE): the private count of clipped curves (issue 29, R/population-clipped.R).

pc_grid <- seq(0, 1, length.out = 21)
pc_weights <- function() dpfda:::kl_basis(dpfda:::default_mean_kernel(pc_grid), pc_grid)$weights
# curves of persons with 1 to 5 curves each; the curves' norms spread around 1
pc_draw <- function(n_persons) {
  k <- sample(1:5, n_persons, replace = TRUE)
  person <- rep(seq_len(n_persons), k)
  s <- exp(rnorm(length(person), 0, 0.5))
  X <- s * outer(rep(1, length(person)), sqrt(2) * sin(pi * pc_grid)) +
    matrix(rnorm(length(person) * length(pc_grid), 0, 0.1), length(person))
  list(X = X, person = person)
}
pc_long <- function(d) {
  n <- nrow(d$X)
  long <- data.frame(id = rep(seq_len(n), times = ncol(d$X)), person = rep(d$person, times = ncol(d$X)),
                     arg = rep(pc_grid, each = n), value = as.vector(d$X))
  long[order(long$person, long$id), ]
}
# the exact count of a source (no noise), as dp_mean(inference = TRUE) computes it
pc_count <- function(x, tau, unit = NULL, incomplete = "error") {
  u <- if (!is.null(unit)) dpfda:::unit_arg(unit, unit)
  src <- dpfda:::mean_source(x, list(), pc_grid, incomplete, u, "pss")
  dpfda:::population_clipped_count(src, list(weights = pc_weights()), tau, NULL, incomplete)
}
# the hand count: curves (or persons with any curve) whose L2 norm exceeds tau
pc_hand <- function(d, tau, unit = FALSE) {
  over <- sqrt(as.vector(d$X^2 %*% pc_weights())) > tau
  if (unit) length(unique(d$person[over])) else sum(over)
}

test_that("the count of clipped curves is exact on every source, per curve and per unit", {
  set.seed(1)
  d <- pc_draw(40)
  long <- pc_long(d)
  for (tau in c(0.6, 1, 1.8)) {
    expect_equal(pc_count(long, tau), pc_hand(d, tau))
    expect_equal(pc_count(long, tau, unit = "person"), pc_hand(d, tau, unit = TRUE))
  }
  expect_gt(pc_hand(d, 1), 10)                       # (the test has clipped curves)
  expect_lt(pc_hand(d, 1, unit = TRUE), pc_hand(d, 1))
  # through the release: memory, data frame and chunks (read once) give the same noisy count
  rel <- function(x, ...) with_seed_mode(3, dp_mean(x, epsilon = 1, tau = 1, inference = TRUE, ...))
  ch <- function() dp_chunks(unname(split(long, ceiling(seq_len(nrow(long)) / 120))))
  a <- rel(curves(d$X, pc_grid))
  expect_equal(rel(long, grid = pc_grid)$inference$clipped$count, a$inference$clipped$count)
  expect_equal(rel(ch(), grid = pc_grid)$inference$clipped$count, a$inference$clipped$count)
  au <- rel(curves(d$X, pc_grid), unit = d$person)
  expect_equal(rel(long, grid = pc_grid, unit = person)$inference$clipped$count, au$inference$clipped$count)
  expect_equal(rel(ch(), grid = pc_grid, unit = "person")$inference$clipped$count, au$inference$clipped$count)
  # the noise is the same draw in both (same seed): the counts differ by the exact counts' difference
  expect_equal(a$inference$clipped$count - au$inference$clipped$count,
               pc_hand(d, 1) - pc_hand(d, 1, unit = TRUE))
  # incomplete = "drop": an incomplete curve adds nothing (as to the mean)
  short <- long[!(long$id %in% 1:5 & long$arg > 0.8), ]
  keep <- list(X = d$X[-(1:5), ], person = d$person[-(1:5)])
  expect_equal(pc_count(short, 1, incomplete = "drop"), pc_hand(keep, 1))
  expect_equal(pc_count(short, 1, unit = "person", incomplete = "drop"), pc_hand(keep, 1, unit = TRUE))
})

test_engines("the count of clipped curves: a table counts as memory", function(con) {
  set.seed(2)
  d <- pc_draw(30)
  DBI::dbWriteTable(con, "pc", pc_long(d))
  tb <- dplyr::tbl(con, "pc")
  expect_equal(pc_count(tb, 1), pc_hand(d, 1))
  expect_equal(pc_count(tb, 1, unit = "person"), pc_hand(d, 1, unit = TRUE))
  # tau = "auto" with inference and a unit: the bound, the spread and the count as from memory (one
  # table release: the spread's summary of a table is slow to render in dbplyr, about 3 s). No
  # foreign warning escapes: the spread's summary counted the curves with dbplyr's n_distinct()
  # without na.rm, which warned "Missing values are always removed in SQL aggregation functions"
  # (shown every time here, not once every 8 hours, and also under testthat, where rlang keeps such
  # warnings quiet)
  old <- options(rlib_warning_verbosity = "verbose")
  old_env <- Sys.getenv("TESTTHAT")
  Sys.setenv(TESTTHAT = "false")
  on.exit({
    options(old)
    Sys.setenv(TESTTHAT = old_env)
  }, add = TRUE)
  foreign <- character()
  ra <- withCallingHandlers(
    with_seed_mode(5, dp_mean(tb, grid = pc_grid, epsilon = 4, tau = "auto", inference = TRUE, unit = "person")),
    warning = function(w) {
      if (!inherits(w, "dpfda_warning")) foreign <<- c(foreign, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  Sys.setenv(TESTTHAT = old_env)
  expect_identical(foreign, character())
  rm <- with_seed_mode(5, dp_mean(curves(d$X, pc_grid), epsilon = 4, tau = "auto", inference = TRUE,
                                  unit = d$person))
  expect_equal(ra$tau, rm$tau)
  expect_equal(predict(ra), predict(rm), tolerance = 1e-10)
  expect_equal(ra$inference$second_moment, rm$inference$second_moment, tolerance = 1e-8)
  expect_equal(ra$inference$clipped$count, rm$inference$clipped$count)
})

test_that("the count's noise is calibrated: sensitivity 1 per unit, scale 1 / its epsilon", {
  set.seed(5)
  d <- pc_draw(40)
  # worst-case neighbours: the person with the most curves, all far beyond tau, replaced by curves
  # within it, moves the count of units by exactly 1 (of curves by as many as the person has)
  p <- as.integer(names(which.max(table(d$person))))
  k <- sum(d$person == p)
  out <- d
  out$X[d$person == p, ] <- 10
  inn <- d
  inn$X[d$person == p, ] <- 0
  expect_equal(pc_hand(out, 1, unit = TRUE) - pc_hand(inn, 1, unit = TRUE), 1)
  expect_equal(pc_hand(out, 1) - pc_hand(inn, 1), k)
  expect_equal(pc_count(pc_long(out), 1, unit = "person") - pc_count(pc_long(inn), 1, unit = "person"), 1)
  # the release: clip_share (0.1) of the inference part (0.2 of epsilon)
  r <- dp_mean(curves(d$X, pc_grid), epsilon = 2, tau = 1, inference = TRUE, unit = d$person)
  cl <- r$inference$clipped
  expect_equal(cl$epsilon, 2 * 0.2 * 0.1)
  expect_equal(cl$scale, ceiling(1 / cl$epsilon))
  expect_equal(cl$n, 40)
  # the draws: discrete Laplace of that scale about the exact count (variance about 2 scale^2)
  draws <- with_seed_mode(6, dpfda:::population_clipped_release(rep(17, 4000), 40, 0.04)$count)
  expect_true(all(draws == round(draws)))
  expect_lt(abs(mean(draws) - 17), 4 * 25 * sqrt(2) / sqrt(4000))
  expect_lt(abs(sd(draws) / (sqrt(2) * 25) - 1), 0.06)
  # privacy loss between neighbouring counts (0 and 1) at epsilon 1: the log ratio of the
  # frequencies is at most 1 (it would be 2 with half the scale)
  a <- with_seed_mode(7, dpfda:::population_clipped_release(rep(0, 20000), 10, 1)$count)
  b <- with_seed_mode(8, dpfda:::population_clipped_release(rep(1, 20000), 10, 1)$count)
  ks <- -2:3
  lr <- log(vapply(ks, function(k) mean(a == k), 0) / vapply(ks, function(k) mean(b == k), 0))
  expect_lt(max(abs(lr)), 1 + 0.15)
  expect_gt(max(abs(lr)), 1 - 0.15)
  # with a Gaussian release the count is a Gaussian mechanism of sd 1 / mu_clip in the same mu-GDP budget
  g <- dp_mean(curves(d$X, pc_grid), epsilon = 2, tau = 1, inference = TRUE, mechanism = "frl", M = 21,
               frl_noise = "gaussian", delta = 1e-5)
  gc <- g$inference$clipped
  expect_equal(gc$scale, 1 / g$inference$mu[["clip"]])
  split <- dpfda:::inference_gdp_split(2, 1e-5, 0.2, 0.1)
  gd <- with_seed_mode(9, dpfda:::population_clipped_release(rep(5, 4000), 40, 0, split, 1e-5)$count)
  expect_lt(abs(sd(gd) * split[["clip"]] - 1), 0.06)
})

test_that("confint(population) states the clipped share and warns when clipping is evident", {
  set.seed(10)
  n <- 1000
  X <- outer(exp(rnorm(n, 0, 0.5)), sqrt(2) * sin(pi * pc_grid))
  nr <- sqrt(as.vector(X^2 %*% pc_weights()))
  tau <- unname(quantile(nr, 0.7))                   # 30% of the curves beyond tau
  r <- with_seed_mode(11, dp_mean(curves(X, pc_grid), epsilon = 2, tau = tau, inference = TRUE))
  expect_equal(r$inference$clipped$count / n, 0.3, tolerance = 0.1)   # (noise scale 13 on 600)
  expect_warning(ci <- confint(r, type = "population", nsim = 1000), class = "dpfda_warning_clipping")
  expect_match(attr(ci, "method"), "a private count puts 3[0-9]% of the curves beyond tau|a private count puts 2[5-9]%")
  expect_output(print(r), "clipped: about")
  expect_equal(glance(r)$clipped_fraction, r$inference$clipped$count / n)
  expect_equal(glance(r)$clipped_count, r$inference$clipped$count)
  expect_true(is.na(glance(dp_mean(curves(X, pc_grid), epsilon = 2, tau = tau))$clipped_fraction))
  # the noisy count is unbiased where the clamped fraction is not: 0 of 100 clipped, count epsilon 0.05
  cl <- with_seed_mode(15, dpfda:::population_clipped_release(rep(0, 20000), 100, 0.05))
  expect_lt(abs(mean(cl$count)), 4 * sqrt(2) * 20 / sqrt(20000))   # (sd of the mean: 0.2)
  expect_gt(mean(dpfda:::clipped_fraction(cl)[["estimate"]]), 0.05)   # (the clamped one: 0.098)
  # curves within tau: no warning, an estimate near 0
  r0 <- with_seed_mode(12, dp_mean(curves(X, pc_grid), epsilon = 2, tau = 1.01 * max(nr), inference = TRUE))
  w <- NULL
  withCallingHandlers(confint(r0, type = "population", nsim = 1000),
                      dpfda_warning_clipping = function(e) w <<- e)
  expect_null(w)
  expect_lt(dpfda:::clipped_fraction(r0$inference$clipped)[["lower"]], 0.01)
  # false alarms: with no curve clipped the warning comes at most once in 1000 bands (here: the noisy
  # counts of 5000 releases of 100 curves at the count's epsilon 0.05)
  alarms <- dpfda:::clipped_alarm(with_seed_mode(14, dpfda:::population_clipped_release(rep(0, 20000), 100, 0.05)))
  expect_lte(mean(alarms), 0.002)
  # (the band's warning is that rule: a count of 30 of 100 at that scale is evident, one of 10 is not)
  fake <- list(tau = 1, privacy_unit = "one curve (100)",
               inference = list(clipped = list(count = 30 + 20 * log(1000) + 1, n = 100, family = "laplace",
                                               scale = 20)))
  expect_warning(dpfda:::clipped_statement(fake), class = "dpfda_warning_clipping")
  fake$inference$clipped$count <- 10
  expect_silent(dpfda:::clipped_statement(fake))
  # too few curves to tell: the print says so
  r_small <- with_seed_mode(13, dp_mean(curves(X[1:50, ], pc_grid), epsilon = 1, tau = tau, inference = TRUE))
  out <- paste(capture.output(print(r_small)), collapse = "\n")
  expect_match(out, "clipped: too noisy to tell what share of the curves exceeds tau", fixed = TRUE)
  expect_false(grepl("clipped: about", out, fixed = TRUE))   # (no headline share from a count of that noise)
  # clip_share = 0: no count, the whole inference part buys the spread
  b <- privacy_budget(5)
  rz <- dp_mean(curves(X, pc_grid), epsilon = 2, tau = tau, inference = TRUE, clip_share = 0, budget = b)
  expect_null(rz$inference$clipped)
  expect_equal(rz$inference$epsilon, 0.4)
  expect_match(attr(confint(rz, type = "population", nsim = 1000), "method"), "not checked")
  expect_equal(budget_spent(b)$epsilon, 2, tolerance = 1e-12)
  expect_error(dp_mean(curves(X, pc_grid), epsilon = 2, tau = tau, inference = TRUE, clip_share = 0.7),
               class = "dpfda_error_argument")
})

test_that("a noisy count outside its noise's range is said to be a tail draw (it printed \"0%-0%\" alone)", {
  cl <- list(count = -58, n = 50, family = "laplace", scale = 14, epsilon = 0.072)
  fr <- dpfda:::clipped_fraction(cl)
  expect_true(fr$outside)
  expect_equal(c(fr$lower, fr$upper), c(0, 0))
  txt <- dpfda:::clipped_statement(list(inference = list(clipped = cl)), 0.95)
  expect_match(txt, "interval of its noise 0%-0%; the noisy count, -58 of 50, lies outside its noise's range",
               fixed = TRUE)
  cl$count <- 20
  expect_false(dpfda:::clipped_fraction(cl)$outside)
  expect_false(grepl("tail draw", dpfda:::clipped_statement(list(inference = list(clipped = cl)), 0.95)))
  cl$count <- 50 + 60   # above n by more than the half-width
  expect_true(dpfda:::clipped_fraction(cl)$outside)
})
