# Summaries outside memory (R/engine.R, R/summary-*.R): summaries add over
# disjoint parts, chunks give the summary of the whole, a database engine
# (SQLite; PostgreSQL under make test; DuckDB when installed: helper-engines.R)
# gives the in-memory summary to 1e-9, and
# the release from a table equals the in-memory release under
# dp_reproducible(). SQL for PostgreSQL and Spark is checked on dbplyr's
# simulated connections.

eng_data <- function() {
  old <- dp_reproducible(11)
  on.exit(dp_rng(old))
  x <- c(rnorm(300, 0.3, 0.1), rnorm(300, 0.7, 0.1), -0.5, 1.7)     # two rows outside [0, 1]
  t <- seq(0, 1, length.out = 21)
  cu <- curves(outer(runif(40, 0.2, 3), sin(2 * pi * t)) + 0.1, t)
  long <- data.frame(patient = rep(seq_len(40), each = 21), day = rep(t, 40),
                     score = as.vector(t(cu$values)))
  X <- matrix(rnorm(400), ncol = 2)
  z <- matrix(runif(30, -2, 2), ncol = 2)
  md <- data.frame(age = rep(0:30, 3), deaths = c(exp(-(0:30) / 5) * 100, (0:30) * 2 + 1, rep(3, 31)),
                   region = rep(c("a", "b", "c"), each = 31))
  list(x = x, t = t, cu = cu, long = long, X = X, z = z, md = md)
}

same_release <- function(seed, a, b) {
  old <- dp_reproducible(seed)
  on.exit(dp_rng(old))
  r1 <- quiet_grid_clamp(force(a))   # (the in-memory data of these tests pass the grid's ends on purpose)
  dp_reproducible(seed)
  r2 <- quiet_grid_clamp(force(b))
  list(r1, r2)
}

test_that("summaries of disjoint parts add up to the summary of the whole", {
  d <- eng_data()
  s <- summarise_kde(d$x, d$t, 0.05, bins = 500)
  s2 <- summarise_kde(d$x[1:200], d$t, 0.05, bins = 500) + summarise_kde(d$x[-(1:200)], d$t, 0.05, bins = 500)
  expect_equal(s2$sums, s$sums, tolerance = 1e-12)
  expect_equal(s2$n, length(d$x))
  expect_equal(sum(s$sums), length(d$x), tolerance = 1e-12)
  sm <- summarise_mean(d$cu, tau = 1)
  parts <- c(summarise_mean(d$long[d$long$patient <= 10, ], d$t, 1, id = "patient", arg = "day", value = "score"),
             summarise_mean(d$long[d$long$patient > 10, ], d$t, 1, id = "patient", arg = "day", value = "score"))
  expect_equal(parts$sums, sm$sums, tolerance = 1e-12)
  expect_equal(parts$n, 40)
  expect_equal(parts$missing_cells, 0)
  # clipping works: every clipped curve has norm <= tau, so |sum| <= n tau in the norm
  w <- c(diff(d$t), 0) / 2 + c(0, diff(d$t)) / 2
  expect_lte(sqrt(sum(w * sm$sums^2)), 40 * 1 + 1e-9)
  expect_error(s + summarise_kde(d$x, d$t, 0.05, bins = 400), class = "dpfda_error_argument")
  expect_error(s + sm, class = "dpfda_error_argument")
})

test_that("the release from a summary equals the in-memory release", {
  d <- eng_data()
  r <- same_release(1, dp_kde(d$x, d$t, 0.05, epsilon = 1, delta = 1e-3, binned = TRUE, bins = 500),
                    dp_kde(summarise_kde(d$x, d$t, 0.05, bins = 500), d$t, 0.05, epsilon = 1, delta = 1e-3))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  expect_equal(r[[2]]$sensitivity, r[[1]]$sensitivity)
  expect_false(isTRUE(all.equal(r[[1]]$values$values, kde_gaussian(d$x, d$t, 0.05)$values)))   # noise added
  r <- same_release(2, dp_kde(d$x, d$t, 0.05, epsilon = 1, mechanism = "bernstein", binned = TRUE, bins = 500),
                    dp_kde(summarise_kde(d$x, d$t, 0.05, bins = 500), d$t, 0.05, epsilon = 1,
                           mechanism = "bernstein"))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  for (mech in c("iclp_qr", "frl", "gp")) {
    r <- same_release(3, dp_mean(d$cu, epsilon = 1, tau = 1, mechanism = mech, delta = if (mech == "gp") 1e-3),
                      dp_mean(summarise_mean(d$cu, tau = 1), epsilon = 1, tau = 1, mechanism = mech,
                              delta = if (mech == "gp") 1e-3))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
    expect_equal(r[[2]]$sensitivity, r[[1]]$sensitivity)
  }
  r <- same_release(4, dp_mean(d$cu, epsilon = 1, tau = 1, mechanism = "bernstein"),
                    dp_mean(summarise_mean(d$cu, tau = 1, clip = "sup"), epsilon = 1, tau = 1,
                            mechanism = "bernstein"))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  expect_error(dp_mean(summarise_mean(d$cu, tau = 2), epsilon = 1, tau = 1), class = "dpfda_error_argument")
  k <- kernel_gaussian(1)
  r <- same_release(5, dp_kme(d$X, k, 1, 1e-5, synthetic = d$z),
                    dp_kme(summarise_kme(d$X, k, synthetic = d$z), k, 1, 1e-5))
  expect_equal(r[[2]]$weights, r[[1]]$weights, tolerance = 1e-9)
  m1 <- mortality_distribution(d$md$age, d$md$deaths, d$md$region)
  m2 <- mortality_distribution(summarise_mortality(d$md, group = "region"))
  expect_equal(m2$values, m1$values, tolerance = 1e-12)
  expect_equal(m2$groups, m1$groups)
})

test_that("a release from a summary is charged to a budget exactly as in memory", {
  d <- eng_data()
  for (noise in c("float", "exact")) {
    b1 <- privacy_budget(10, 1e-2)
    b2 <- privacy_budget(10, 1e-2)
    with_seed_mode(6, dp_mean(d$cu, epsilon = 1, tau = 1, mechanism = "gp", delta = 1e-3, noise = noise, budget = b1))
    with_seed_mode(6, dp_mean(summarise_mean(d$cu, tau = 1), epsilon = 1, tau = 1, mechanism = "gp",
                              delta = 1e-3, noise = noise, budget = b2))
    expect_equal(budget_spent(b2), budget_spent(b1), info = noise)
  }
  k <- kernel_gaussian(1)
  b1 <- privacy_budget(10, 1e-2)
  b2 <- privacy_budget(10, 1e-2)
  with_seed_mode(7, dp_kme(d$X, k, 1, 1e-5, synthetic = d$z, budget = b1))
  with_seed_mode(7, dp_kme(summarise_kme(d$X, k, synthetic = d$z), k, 1, 1e-5, budget = b2))
  expect_equal(budget_spent(b2), budget_spent(b1))
})

test_that("chunks give the summary of the whole, with ids kept together", {
  d <- eng_data()
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  utils::write.csv(d$long, f, row.names = FALSE)
  s <- summarise_mean(csv_chunks(f, rows = 50), d$t, 1, id = "patient", arg = "day", value = "score")
  expect_equal(s$sums, summarise_mean(d$cu, tau = 1)$sums, tolerance = 1e-12)
  expect_equal(s$n, 40)
  r <- same_release(6, dp_mean(d$cu, epsilon = 1, tau = 1),
                    dp_mean(csv_chunks(f, rows = 77), epsilon = 1, tau = 1, grid = d$t, id = "patient",
                            arg = "day", value = "score"))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  # random features: the features are drawn inside dp_kme() in the same order
  k <- kernel_gaussian(1)
  pts <- data.frame(a = d$X[, 1], b = d$X[, 2])
  r <- same_release(7, dp_kme(d$X, k, 1, 1e-5, method = "random_features", synthetic = d$z, J = 40, iters = 5),
                    dp_kme(dp_chunks(list(pts[1:50, ], pts[-(1:50), ])), k, 1, 1e-5, method = "random_features",
                           synthetic = d$z, J = 40, iters = 5, columns = c("a", "b")))
  expect_equal(r[[2]]$weights, r[[1]]$weights, tolerance = 1e-9)
  expect_equal(r[[2]]$points, r[[1]]$points, tolerance = 1e-9)
  # ids grouped but not sorted are fine (patient 2's rows, then patient 1's, ...): the same summary;
  # an id whose rows come back after other ids' rows is refused (it would be summarised twice)
  grouped <- d$long[c(22:42, 1:21, 43:nrow(d$long)), ]
  by_chunks <- function(x, cut = 30) {
    summarise_mean(dp_chunks(list(x[1:cut, ], x[-(1:cut), ])), d$t, 1, id = "patient", arg = "day", value = "score")
  }
  expect_equal(by_chunks(grouped)$sums, summarise_mean(d$long, d$t, 1, id = "patient", arg = "day",
                                                       value = "score")$sums, tolerance = 1e-12)
  split_rows <- d$long[c(1:10, 22:42, 11:21, 43:nrow(d$long)), ]
  for (cut in c(5, 15, 35)) {   # patient 1 back within a chunk, or in the next one
    expect_error(by_chunks(split_rows, cut), "`patient` = 1 comes again", class = "dpfda_error_data")
  }
  # factor ids: an ordered factor whose levels run otherwise than the rows (nlme::Oxboys, ChickWeight),
  # and an unordered one (`<` is not defined for it: an unclassed error before)
  f <- d$long
  f$patient <- factor(f$patient, levels = rev(unique(f$patient)), ordered = TRUE)
  expect_equal(summarise_mean(dp_chunks(list(f[1:30, ], f[-(1:30), ])), d$t, 1, id = "patient", arg = "day",
                              value = "score")$sums, by_chunks(d$long)$sums, tolerance = 1e-12)
  f$patient <- factor(paste0("p", d$long$patient))
  fs <- f[c(1:10, 22:42, 11:21, 43:nrow(f)), ]
  expect_error(summarise_mean(dp_chunks(list(fs[1:30, ], fs[-(1:30), ])), d$t, 1, id = "patient", arg = "day",
                              value = "score"), "`patient` = p1 comes again", class = "dpfda_error_data")
  # a source that does not return data frames
  expect_error(summarise_kde(dp_chunks(function() 1), d$t, 0.05, columns = "x"), class = "dpfda_error_argument")
})

test_that("dp_chunks() of a data frame reads it `rows` rows at a time: the summary of the whole frame", {
  d <- eng_data()
  f <- d$long
  # 7 rows at a time splits individuals across chunks (joined by the reader) and leaves a short last chunk
  expect_equal(summarise_mean(dp_chunks(f, rows = 7), d$t, 1, id = "patient", arg = "day", value = "score")$sums,
               summarise_mean(f, d$t, 1, id = "patient", arg = "day", value = "score")$sums, tolerance = 1e-12)
  ch <- dp_chunks(data.frame(x = faithful$eruptions), rows = 100)
  g <- seq(1, 6, length.out = 51)
  s1 <- summarise_kde(ch, g, 0.3, columns = "x")
  s2 <- summarise_kde(ch, g, 0.3, columns = "x")   # read again from the start
  s0 <- summarise_kde(data.frame(x = faithful$eruptions), g, 0.3, columns = "x")
  expect_equal(s1$n, 272)
  expect_equal(s1$sums, s0$sums, tolerance = 1e-12)
  expect_identical(s2$sums, s1$sums)
  expect_error(summarise_kde(dp_chunks(data.frame(x = numeric(0)), rows = 5), g, 0.3, columns = "x"),
               "no rows", class = "dpfda_error_data")
  expect_error(dp_chunks(faithful), "`rows` is missing", class = "dpfda_error_argument")
  expect_error(dp_chunks(faithful, rows = 0), class = "dpfda_error_argument")
  expect_error(dp_chunks(list(faithful), rows = 10), "`rows` is for a data frame", class = "dpfda_error_argument")
})

test_that("bad input: missing and non-numeric columns, NULLs, ids", {
  d <- eng_data()
  df <- data.frame(v = d$x, s = "a")
  expect_error(summarise_kde(df, d$t, 0.05, columns = "w"), class = "dpfda_error_argument")
  expect_error(summarise_kde(df, d$t, 0.05, columns = "s"), class = "dpfda_error_data")
  df$v[c(3, 7)] <- NA
  # points: a missing value is refused (dropping it would make the count of complete rows public)
  expect_error(summarise_kde(dp_chunks(list(df)), d$t, 0.05, columns = "v", bins = 500), "^2 of the",
               class = "dpfda_error_data")
  s <- summarise_kde(dp_chunks(list(df[-c(3, 7), ])), d$t, 0.05, columns = "v", bins = 500)
  expect_equal(c(s$dropped, s$n), c(0, length(d$x) - 2))
  expect_equal(s$sums, summarise_kde(d$x[-c(3, 7)], d$t, 0.05, bins = 500)$sums, tolerance = 1e-12)
  # per-individual bounding: an individual with many rows has total weight one
  many <- data.frame(v = c(d$x, rep(0.9, 1000)), who = c(seq_along(d$x), rep(0L, 1000)))
  s <- summarise_kde(many, d$t, 0.05, columns = "v", id = "who", bins = 500)
  expect_equal(s$n, length(d$x) + 1)
  expect_equal(sum(s$sums), length(d$x) + 1, tolerance = 1e-9)
  # several rows of one individual at one grid point are averaged, absent points count
  lg <- d$long[d$long$patient <= 3, ]
  lg2 <- rbind(lg, transform(lg[1, ], score = lg$score[1] + 2, day = lg$day[1] + 0.01))
  s1 <- summarise_mean(lg, d$t, 10, id = "patient", arg = "day", value = "score")
  s2 <- summarise_mean(lg2, d$t, 10, id = "patient", arg = "day", value = "score")
  expect_equal(s2$sums[1] - s1$sums[1], 1, tolerance = 1e-12)
  s3 <- summarise_mean(lg[-5, ], d$t, 10, id = "patient", arg = "day", value = "score")
  expect_equal(s3$missing_cells, 1)
  # an absent cell is refused at the release, as a curve that does not cover the grid in memory
  expect_error(dp_mean(s3, epsilon = 1, tau = 10), class = "dpfda_error_data")
  expect_error(summarise_mortality(transform(d$md, deaths = -deaths), group = "region"),
               class = "dpfda_error_data")
  expect_error(dp_kme(d$X, kernel_gaussian(1), 1, 1e-5, columns = "a"), class = "dpfda_error_argument")
  expect_error(dp_mean(dp_chunks(list(d$long)), epsilon = 1, tau = 1, id = "patient"), class = "dpfda_error_argument")
})

# ---- KDE: ICLP / FRL weights on the grid, kernel sums in several dimensions ----

eng_kde2 <- function() {
  d <- eng_data()
  g2 <- as.matrix(expand.grid(seq(-2, 2, length.out = 9), seq(-2, 2, length.out = 7)))
  dimnames(g2) <- NULL
  d$g2 <- g2                                        # rows of X outside [-2, 2]^2 are clamped
  d$P <- data.frame(a = d$X[, 1], b = d$X[, 2], who = seq_len(nrow(d$X)) %% 37)
  d$gu <- c(0, 0.05, 0.2, 0.3, 0.45, 0.5, 0.7, 0.9, 1)   # an irregular 1-D grid
  d
}

test_that("KDE summaries for ICLP/FRL and several dimensions equal the in-memory estimate", {
  d <- eng_kde2()
  # weights on the grid: the in-memory binning of dp_kde(mechanism = "iclp"), one unit per record
  s <- summarise_kde(d$x, d$t, mechanism = "iclp")
  expect_equal(s$kind, "kde_grid")
  expect_equal(s$sums, dpfda:::iclp_kde_bin(matrix(pmin(pmax(d$x, 0), 1)), list(d$t)), tolerance = 1e-12)
  expect_equal(sum(s$sums), length(d$x), tolerance = 1e-12)
  expect_true(all(s$sums >= 0))
  s2 <- summarise_kde(d$X, d$g2, mechanism = "frl")
  expect_equal(sum(s2$sums), nrow(d$X), tolerance = 1e-12)
  parts <- summarise_kde(d$X[1:70, ], d$g2, mechanism = "frl") + summarise_kde(d$X[-(1:70), ], d$g2, mechanism = "frl")
  expect_equal(parts$sums, s2$sums, tolerance = 1e-12)
  # an individual with many rows still adds total weight one
  si <- summarise_kde(d$P, d$g2, columns = c("a", "b"), id = "who", mechanism = "iclp")
  expect_equal(si$n, 37)
  expect_equal(sum(si$sums), 37, tolerance = 1e-12)
  # kernel sums at the grid points: n f(t) / normaliser of kde_gaussian()
  sk <- summarise_kde(d$X, d$g2, 0.5)
  expect_equal(sk$kind, "kde_kernel")
  f <- kde_gaussian(d$X, d$g2, 0.5, domain = apply(d$g2, 2, range))$values[1, ]   # (clamped to the grid's box, as dp_kde())
  expect_equal(sk$sums / nrow(d$X) / (2 * pi * 0.25), f, tolerance = 1e-12)
  expect_error(summarise_kde(d$P, d$g2, 0.5, columns = "a"), class = "dpfda_error_argument")
  # chunks: NAs refused, non-numeric and missing columns refused, in both summaries
  Pn <- d$P
  Pn$a[c(4, 9)] <- NA
  Pn$s <- "u"
  for (mech in c("gp", "frl")) {
    expect_error(summarise_kde(dp_chunks(list(Pn[1:60, ], Pn[-(1:60), ])), d$g2, 0.5, columns = c("a", "b"),
                               mechanism = mech), "^2 of the 60 rows", class = "dpfda_error_data")
    sn <- summarise_kde(dp_chunks(list(Pn[1:60, ][-c(4, 9), ], Pn[-(1:60), ])), d$g2, 0.5, columns = c("a", "b"),
                        mechanism = mech)
    expect_equal(c(sn$dropped, sn$n), c(0, nrow(d$X) - 2))
    expect_equal(sn$sums, summarise_kde(d$X[-c(4, 9), ], d$g2, 0.5, mechanism = mech)$sums, tolerance = 1e-12)
    expect_error(summarise_kde(dp_chunks(list(Pn)), d$g2, 0.5, columns = c("a", "s"), mechanism = mech),
                 class = "dpfda_error_data")
    expect_error(summarise_kde(dp_chunks(list(Pn)), d$g2, 0.5, columns = c("a", "z"), mechanism = mech),
                 class = "dpfda_error_argument")
  }
  expect_error(summarise_kde(d$X, d$g2[c(2, 1, 3:63), ], mechanism = "iclp"), class = "dpfda_error_argument")
})

test_that("ICLP/FRL and multi-dimensional KDE releases from summaries and chunks equal the in-memory ones", {
  d <- eng_kde2()
  for (mech in c("iclp", "frl")) {
    r <- same_release(31, dp_kde(d$x, d$t, 0.08, epsilon = 1, mechanism = mech),
                      dp_kde(summarise_kde(d$x, d$t, mechanism = mech), d$t, 0.08, epsilon = 1, mechanism = mech))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9, info = mech)
    expect_equal(r[[2]]$sensitivity, r[[1]]$sensitivity, info = mech)
    expect_equal(r[[2]]$coefficients, r[[1]]$coefficients, tolerance = 1e-9, info = mech)
    expect_false(isTRUE(all.equal(r[[1]]$values$values, r[[2]]$values$values * 0)))
    # an irregular grid, and 2-D, from chunks
    ch <- function() dp_chunks(list(data.frame(v = d$x[1:100]), data.frame(v = d$x[-(1:100)])))
    r <- same_release(32, dp_kde(d$x, d$gu, 0.1, epsilon = 1, mechanism = mech),
                      dp_kde(ch(), d$gu, 0.1, epsilon = 1, mechanism = mech, columns = "v"))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9, info = mech)
    ch2 <- dp_chunks(list(d$P[1:50, ], d$P[-(1:50), ]))
    r <- same_release(33, dp_kde(d$X, d$g2, 0.5, epsilon = 1, mechanism = mech),
                      dp_kde(ch2, d$g2, 0.5, epsilon = 1, mechanism = mech, columns = c("a", "b")))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9, info = mech)
    expect_equal(r[[2]]$n, nrow(d$X))
  }
  # counts are for points in memory; a summary for another grid is refused
  expect_error(dp_kde(summarise_kde(d$x, d$t, mechanism = "iclp"), d$t, 0.08, epsilon = 1, mechanism = "iclp",
                      counts = rep(1, 3)), class = "dpfda_error_argument")
  expect_error(dp_kde(summarise_kde(d$x, d$gu, mechanism = "iclp"), d$t, 0.08, epsilon = 1, mechanism = "iclp"),
               class = "dpfda_error_argument")
  expect_error(dp_kde(summarise_kde(d$x, d$t, 0.08), d$t, 0.08, epsilon = 1, mechanism = "frl"),
               class = "dpfda_error_argument")
  # several dimensions: "gp", "sobolev" (kernel sums at the grid), "bernstein" (at the lattice)
  Hm <- matrix(c(0.3, 0.05, 0.05, 0.4), 2)
  ch2 <- function() dp_chunks(list(d$P[1:50, ], d$P[-(1:50), ]))
  for (cs in list(list("gp", 0.5), list("gp", Hm), list("sobolev", 0.5))) {
    r <- same_release(34, dp_kde(d$X, d$g2, cs[[2]], epsilon = 1, delta = 1e-3, mechanism = cs[[1]]),
                      dp_kde(ch2(), d$g2, cs[[2]], epsilon = 1, delta = 1e-3, mechanism = cs[[1]],
                             columns = c("a", "b")))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9, info = cs[[1]])
    expect_equal(r[[2]]$sensitivity, r[[1]]$sensitivity)
  }
  r <- same_release(35, dp_kde(d$X, d$g2, 0.5, epsilon = 1, mechanism = "bernstein", k = 6, h = 2,
                               domain = rbind(c(-2, -2), c(2, 2))),
                    dp_kde(summarise_kde(d$X, d$g2, 0.5, mechanism = "bernstein", k = 6,
                                         domain = rbind(c(-2, -2), c(2, 2))),
                           d$g2, 0.5, epsilon = 1, mechanism = "bernstein", k = 6, h = 2,
                           domain = rbind(c(-2, -2), c(2, 2))))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  expect_equal(r[[2]]$sensitivity, r[[1]]$sensitivity)
  # the lattice summary does not serve another k, nor the grid summary the lattice
  expect_error(dp_kde(summarise_kde(d$X, d$g2, 0.5, mechanism = "bernstein", k = 6), d$g2, 0.5, epsilon = 1,
                      mechanism = "bernstein", k = 5), class = "dpfda_error_argument")
  expect_error(dp_kde(summarise_kde(d$X, d$g2, 0.5), d$g2, 0.5, epsilon = 1, mechanism = "bernstein"),
               class = "dpfda_error_argument")
  expect_error(dp_kde(summarise_kde(d$X, d$g2, 0.5), d$g2, 0.4, epsilon = 1, delta = 1e-3),
               class = "dpfda_error_argument")
})

test_that("dp_kme(method = \"exponential\") outside memory is refused with the reason; tight is checked alike", {
  d <- eng_data()
  k <- kernel_gaussian(1)
  chunks <- function() dp_chunks(list(data.frame(a = d$X[, 1], b = d$X[, 2])))
  ch <- chunks()
  err <- tryCatch(dp_kme(ch, k, 1, 0, method = "exponential", candidates = list(d$z), columns = c("a", "b")),
                  error = function(e) e)
  expect_s3_class(err, "dpfda_error_argument")
  expect_match(conditionMessage(err), "pairs", fixed = TRUE)
  expect_match(conditionMessage(err), "\"subspace\"", fixed = TRUE)
  # `tight` with random features: refused in both paths, each naming the methods it offers
  e1 <- tryCatch(dp_kme(d$X, k, 1, 1e-5, method = "random_features", synthetic = d$z, tight = TRUE),
                 error = function(e) e)
  e2 <- tryCatch(dp_kme(chunks(), k, 1, 1e-5, method = "random_features", synthetic = d$z, tight = TRUE,
                        columns = c("a", "b")), error = function(e) e)
  expect_s3_class(e1, "dpfda_error_privacy")
  expect_s3_class(e2, "dpfda_error_privacy")
  expect_match(conditionMessage(e1), "\"exponential\"", fixed = TRUE)
  expect_false(grepl("exponential", conditionMessage(e2), fixed = TRUE))
  # the shared option checks name the same argument in both paths
  for (bad in list(list(J = 3), list(iters = 0), list(l1_bound = 0.5), list(tol = 1), list(M = 0),
                   list(calibration = "hall"), list(lr = -1), list(lasso_lambda = -1))) {
    e1 <- tryCatch(do.call(dp_kme, c(list(d$X, k, 1, 1e-5, synthetic = d$z), bad)), error = function(e) e)
    e2 <- tryCatch(do.call(dp_kme, c(list(chunks(), k, 1, 1e-5, synthetic = d$z, columns = c("a", "b")), bad)),
                   error = function(e) e)
    expect_s3_class(e1, "dpfda_error")
    expect_equal(class(e2), class(e1), info = names(bad))
    expect_equal(conditionMessage(e2), conditionMessage(e1), info = names(bad))
  }
})

# ---- database engines -----------------------------------------------------------

engine_equal_checks <- function(con) {
  d <- eng_data()
  DBI::dbWriteTable(con, "pts", data.frame(v = d$x, who = seq_along(d$x) %% 97), overwrite = TRUE)
  DBI::dbWriteTable(con, "visits", d$long, overwrite = TRUE)
  DBI::dbWriteTable(con, "pts2", data.frame(a = d$X[, 1], b = d$X[, 2]), overwrite = TRUE)
  DBI::dbWriteTable(con, "deaths", d$md, overwrite = TRUE)
  pts <- dplyr::tbl(con, "pts")
  # KDE bins: engine == memory, clamping included (two rows outside the grid)
  se <- summarise_kde(pts, d$t, 0.05, bins = 500, columns = "v")
  expect_equal(se$sums, summarise_kde(d$x, d$t, 0.05, bins = 500)$sums, tolerance = 1e-9)
  expect_equal(se$n, length(d$x))
  si <- summarise_kde(pts, d$t, 0.05, bins = 500, columns = "v", id = "who")
  expect_equal(si$sums, summarise_kde(dplyr::collect(pts), d$t, 0.05, bins = 500, columns = "v", id = "who")$sums,
               tolerance = 1e-9)
  expect_equal(si$n, 97)
  r <- same_release(21, dp_kde(d$x, d$t, 0.05, epsilon = 1, delta = 1e-3, binned = TRUE, bins = 500),
                    dp_kde(pts, d$t, 0.05, epsilon = 1, delta = 1e-3, bins = 500, columns = "v"))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  # functional mean
  vis <- dplyr::tbl(con, "visits")
  for (mech in c("iclp_qr", "bernstein")) {
    tau <- if (mech == "bernstein") 1 else 0.5
    r <- same_release(22, dp_mean(d$cu, epsilon = 1, tau = tau, mechanism = mech),
                      dp_mean(vis, id = "patient", arg = "day", value = "score", grid = d$t, epsilon = 1, tau = tau,
                              mechanism = mech))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  }
  # a non-uniform grid (CASE snapping), rows between grid points and beyond the grid's reach (left out,
  # with the same warning and count from the table and memory)
  out <- rbind(d$long, data.frame(patient = c(1, 2), day = c(-3, 5), score = c(10, -10)))
  DBI::dbWriteTable(con, "visits2", out, overwrite = TRUE)
  g2 <- c(0, 0.1, 0.25, 0.5, 0.8, 1)
  for (g in list(g2, d$t)) {
    expect_warning(se <- summarise_mean(dplyr::tbl(con, "visits2"), g, 2, id = "patient", arg = "day", value = "score"),
                   "2 rows of long data lie beyond", class = "dpfda_warning_data")
    expect_warning(sm <- summarise_mean(out, g, 2, id = "patient", arg = "day", value = "score"),
                   "2 rows of long data lie beyond", class = "dpfda_warning_data")
    expect_equal(se$sums, sm$sums, tolerance = 1e-9)
    expect_equal(c(se$beyond, sm$beyond), c(2, 2))
  }
  # KME, Algorithms 1 and 2
  p2 <- dplyr::tbl(con, "pts2")
  for (k in list(kernel_matern(3 / 2, 0.7), kernel_exponential(0.8, norm = "l1"))) {
    expect_equal(summarise_kme(p2, k, synthetic = d$z, columns = c("a", "b"))$sums,
                 summarise_kme(d$X, k, synthetic = d$z)$sums, tolerance = 1e-9)
  }
  k <- kernel_gaussian(1)
  r <- same_release(23, dp_kme(d$X, k, 1, 1e-5, synthetic = d$z),
                    dp_kme(p2, k, 1, 1e-5, synthetic = d$z, columns = c("a", "b")))
  expect_equal(r[[2]]$weights, r[[1]]$weights, tolerance = 1e-9)
  r <- same_release(24, dp_kme(d$X, k, 1, 1e-5, method = "random_features", synthetic = d$z, J = 40, iters = 5),
                    dp_kme(p2, k, 1, 1e-5, method = "random_features", synthetic = d$z, J = 40, iters = 5,
                           columns = c("a", "b")))
  expect_equal(r[[2]]$weights, r[[1]]$weights, tolerance = 1e-9)
  # KDE for ICLP / FRL (weights on the grid: a regular grid by FLOOR, an
  # irregular one by CASE; rows outside the grid clamped) and in 2-D
  d2 <- eng_kde2()
  for (g in list(d$t, d2$gu)) {
    expect_equal(summarise_kde(pts, g, columns = "v", mechanism = "iclp")$sums,
                 summarise_kde(d$x, g, mechanism = "iclp")$sums, tolerance = 1e-9)
  }
  sw <- summarise_kde(pts, d$t, columns = "v", id = "who", mechanism = "frl")
  expect_equal(sw$sums, summarise_kde(dplyr::collect(pts), d$t, columns = "v", id = "who", mechanism = "frl")$sums,
               tolerance = 1e-9)
  expect_equal(sw$n, 97)
  DBI::dbWriteTable(con, "pts3", d2$P, overwrite = TRUE)
  p3 <- dplyr::tbl(con, "pts3")
  for (mech in c("iclp", "frl")) {
    se <- summarise_kde(p3, d2$g2, columns = c("a", "b"), mechanism = mech)
    expect_equal(se$sums, summarise_kde(d$X, d2$g2, mechanism = mech)$sums, tolerance = 1e-9)
    expect_equal(summarise_kde(p3, d2$g2, columns = c("a", "b"), id = "who", mechanism = mech)$sums,
                 summarise_kde(d2$P, d2$g2, columns = c("a", "b"), id = "who", mechanism = mech)$sums,
                 tolerance = 1e-9)
    r <- same_release(25, dp_kde(d$x, d$t, 0.08, epsilon = 1, mechanism = mech),
                      dp_kde(pts, d$t, 0.08, epsilon = 1, mechanism = mech, columns = "v"))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
    r <- same_release(26, dp_kde(d$X, d2$g2, 0.5, epsilon = 1, mechanism = mech),
                      dp_kde(p3, d2$g2, 0.5, epsilon = 1, mechanism = mech, columns = c("a", "b")))
    expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  }
  # 2-D kernel sums (a full bandwidth matrix too) and the 2-D releases
  Hm <- matrix(c(0.3, 0.05, 0.05, 0.4), 2)
  for (bw in list(0.5, c(0.4, 0.6), Hm)) {
    expect_equal(summarise_kde(p3, d2$g2, bw, columns = c("a", "b"))$sums,
                 summarise_kde(d$X, d2$g2, bw)$sums, tolerance = 1e-9)
  }
  expect_equal(summarise_kde(p3, d2$g2, 0.5, columns = c("a", "b"), id = "who")$sums,
               summarise_kde(d2$P, d2$g2, 0.5, columns = c("a", "b"), id = "who")$sums, tolerance = 1e-9)
  r <- same_release(27, dp_kde(d$X, d2$g2, Hm, epsilon = 1, delta = 1e-3),
                    dp_kde(p3, d2$g2, Hm, epsilon = 1, delta = 1e-3, columns = c("a", "b")))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  r <- same_release(28, dp_kde(d$X, d2$g2, 0.5, epsilon = 1, mechanism = "bernstein", k = 5, h = 2),
                    dp_kde(p3, d2$g2, 0.5, epsilon = 1, mechanism = "bernstein", k = 5, h = 2, columns = c("a", "b")))
  expect_equal(r[[2]]$values$values, r[[1]]$values$values, tolerance = 1e-9)
  # mortality
  m1 <- mortality_distribution(d$md$age, d$md$deaths, d$md$region)
  m2 <- mortality_distribution(summarise_mortality(dplyr::tbl(con, "deaths"), group = "region"))
  expect_equal(m2$values, m1$values, tolerance = 1e-9)
  invisible(TRUE)
}

test_engines("the engine summary and release equal the in-memory ones", engine_equal_checks)

test_engines("kernel values that underflow agree with memory (no SQL range error)", function(con) {
  DBI::dbWriteTable(con, "f", datasets::faithful, overwrite = TRUE)
  z <- matrix(seq(40.1234, 99.8766, length.out = 24))   # not rows of the data (no public-point warning)
  k <- kernel_gaussian(1)          # most kernel values are far below e^-708
  s_db <- summarise_kme(dplyr::tbl(con, "f"), k, synthetic = z, domain = c(40, 100), columns = "waiting")
  s_mem <- summarise_kme(matrix(datasets::faithful$waiting), k, synthetic = z, domain = c(40, 100))
  expect_equal(s_db$sums, s_mem$sums, tolerance = 1e-9)
  r <- same_release(3, dp_kme(matrix(datasets::faithful$waiting), k, 1, 1e-5, synthetic = z, domain = c(40, 100)),
                    dp_kme(dplyr::tbl(con, "f"), k, 1, 1e-5, synthetic = z, domain = c(40, 100),
                           columns = waiting))
  expect_equal(r[[2]]$weights, r[[1]]$weights, tolerance = 1e-9)
})

test_engines("bad input in a table", function(con) {
  d <- eng_data()
  df <- data.frame(v = d$x, s = "a", who = 1)
  df$v[c(2, 5, 9)] <- NA
  DBI::dbWriteTable(con, "bad", df)
  tb <- dplyr::tbl(con, "bad")
  expect_error(summarise_kde(tb, d$t, 0.05, columns = "nope"), class = "dpfda_error_argument")
  expect_error(dp_kde(tb, d$t, 0.05, epsilon = 1, delta = 1e-3, columns = "s"), class = "dpfda_error_data")
  # points: NULLs refused (dropping them would make the count of complete rows public); without them the
  # summary equals memory
  expect_error(summarise_kde(tb, d$t, 0.05, columns = "v", bins = 500), "^3 of the .* in column \"v\"\\.",
               class = "dpfda_error_data")
  DBI::dbWriteTable(con, "good", df[!is.na(df$v), ])
  tg <- dplyr::tbl(con, "good")
  s <- summarise_kde(tg, d$t, 0.05, columns = "v", bins = 500)
  expect_equal(c(s$dropped, s$rows), c(0, length(d$x) - 3))
  expect_equal(s$sums, summarise_kde(d$x[-c(2, 5, 9)], d$t, 0.05, bins = 500)$sums, tolerance = 1e-9)
  expect_error(dp_mean(tb, epsilon = 1, tau = 1, grid = d$t, id = "who", arg = "v", value = "s"),
               class = "dpfda_error_data")
  # ICLP / FRL and 2-D KDE: the same rules (missing and non-numeric columns, NULLs refused, rows outside
  # the domain clamped)
  expect_error(dp_kde(tb, d$t, 0.05, epsilon = 1, columns = "s", mechanism = "iclp"), class = "dpfda_error_data")
  expect_error(dp_kde(tb, d$t, 0.05, epsilon = 1, columns = "nope", mechanism = "frl"),
               class = "dpfda_error_argument")
  expect_error(summarise_kde(tb, d$t, columns = "v", mechanism = "iclp"), "^3 of the", class = "dpfda_error_data")
  expect_error(dp_kde(tb, d$t, 0.08, epsilon = 1, columns = "v", mechanism = "iclp"), "^3 of the",
               class = "dpfda_error_data")
  s <- summarise_kde(tg, d$t, columns = "v", mechanism = "iclp")
  expect_equal(c(s$dropped, s$n), c(0, length(d$x) - 3))
  expect_equal(s$sums, summarise_kde(d$x[-c(2, 5, 9)], d$t, mechanism = "iclp")$sums, tolerance = 1e-9)
  expect_warning(r <- dp_kde(tg, d$t, 0.08, epsilon = 1, columns = "v", mechanism = "iclp"),
                 "lie outside the range of the grid", class = "dpfda_warning_data")
  expect_equal(r$n, length(d$x) - 3)
  df2 <- data.frame(a = c(0.5, NA, 9, -9, 0.2), b = c(0.1, 0.3, NA, 0.2, 12), s = "x")
  DBI::dbWriteTable(con, "bad2", df2)
  tb2 <- dplyr::tbl(con, "bad2")
  g2 <- as.matrix(expand.grid(seq(0, 1, length.out = 5), seq(0, 1, length.out = 4)))
  ok <- stats::complete.cases(df2[c("a", "b")])
  DBI::dbWriteTable(con, "bad2c", df2[ok, ])
  for (mech in c("gp", "iclp")) {
    expect_error(summarise_kde(tb2, g2, 0.3, columns = c("a", "b"), mechanism = mech), "^2 of the 5 rows",
                 class = "dpfda_error_data")
    s <- summarise_kde(dplyr::tbl(con, "bad2c"), g2, 0.3, columns = c("a", "b"), mechanism = mech)
    expect_equal(s$sums, summarise_kde(as.matrix(df2[ok, c("a", "b")]), g2, 0.3, mechanism = mech)$sums,
                 tolerance = 1e-9)
    # clamped: (-9, 0.2) counts as (0, 0.2) and (0.2, 12) as (0.2, 1)
    expect_equal(s$sums, summarise_kde(rbind(c(0.5, 0.1), c(0, 0.2), c(0.2, 1)), g2, 0.3, mechanism = mech)$sums,
                 tolerance = 1e-9)
    expect_error(summarise_kde(tb2, g2, 0.3, columns = c("a", "s"), mechanism = mech), class = "dpfda_error_data")
    expect_error(summarise_kde(tb2, g2, 0.3, columns = c("a", "c"), mechanism = mech),
                 class = "dpfda_error_argument")
    expect_error(summarise_kde(tb2, g2, 0.3, columns = "a", mechanism = mech), class = "dpfda_error_argument")
  }
})

test_that("the SQL for PostgreSQL and Spark is generated", {
  skip_if_not_installed("dbplyr", "2.5.0")
  df <- data.frame(id = 1, arg = 0.5, value = 1, x = 0.2, y = 0.1, age = 1, deaths = 2, group = "a")
  g <- seq(0, 1, length.out = 11)
  cons <- list(postgres = dbplyr::simulate_postgres())
  if (exists("simulate_spark_sql", asNamespace("dbplyr"))) cons$spark <- dbplyr::simulate_spark_sql()
  for (nm in names(cons)) {
    t <- dbplyr::tbl_lazy(df, con = cons[[nm]])
    if (nm == "spark") {   # the translation differs from PostgreSQL's in quoting and types: one query each
      q <- engine_sql(t, "kme_kernel", kernel = kernel_gaussian(1), synthetic = matrix(1:4, 2), columns = c("x", "y"))
      expect_match(q, "CAST(`x` AS DOUBLE) AS `x1`", fixed = TRUE)
      expect_false(grepl("DOUBLE PRECISION", q, fixed = TRUE))
      expect_match(q, "EXP(GREATEST((-0.5 * ", fixed = TRUE)
      expect_match(engine_sql(t, "kde", grid = g, bandwidth = 0.1, columns = "x"), "GREATEST(`x`", fixed = TRUE)
      expect_match(engine_sql(t, "kde", grid = g, columns = "x", mechanism = "iclp"), "FLOOR", ignore.case = TRUE)
      expect_match(engine_sql(t, "kde", grid = list(g, g), bandwidth = 0.2, columns = c("x", "y")), "EXP",
                   ignore.case = TRUE)
      next
    }
    q <- engine_sql(t, "kde", grid = g, bandwidth = 0.1, columns = "x", id = "id")
    expect_match(q, "GREATEST", fixed = TRUE)
    expect_match(q, "FLOOR", ignore.case = TRUE)
    expect_match(q, "GROUP BY", fixed = TRUE)
    expect_match(q, "OVER", fixed = TRUE)                       # per-individual weights by window
    q <- engine_sql(t, "mean", grid = g, tau = 1)
    expect_match(q, "SQRT", ignore.case = TRUE)
    expect_match(q, "PARTITION BY", fixed = TRUE)
    q <- engine_sql(t, "kme_kernel", kernel = kernel_gaussian(1), synthetic = matrix(1:4, 2),
                    columns = c("x", "y"))
    expect_match(q, "EXP", ignore.case = TRUE)
    expect_match(q, "CAST(\"x\" AS DOUBLE PRECISION) AS \"x1\"", fixed = TRUE)   # any numeric column: doubles
    q <- engine_sql(t, "kme_features", kernel = kernel_gaussian(1),
                    rff = with_seed_mode(1, kme_rff(kernel_gaussian(1), 6, 2)), columns = c("x", "y"))
    expect_match(q, "COS", ignore.case = TRUE)
    # KDE weights on the grid (ICLP / FRL): FLOOR on a regular axis, CASE on an irregular one, no
    # join (a scan per row in SQLite); 2-D kernel sums at the grid points
    q <- engine_sql(t, "kde", grid = g, columns = "x", mechanism = "iclp", id = "id")
    expect_match(q, "LEAST(FLOOR", fixed = TRUE)
    expect_false(grepl("JOIN", q, fixed = TRUE))
    expect_match(q, "OVER", fixed = TRUE)
    expect_match(q, "GROUP BY", fixed = TRUE)
    q <- engine_sql(t, "kde", grid = list(c(0, 0.1, 0.5, 1), g), columns = c("x", "y"), mechanism = "frl")
    expect_match(q, "CASE WHEN \"x1\" < 0.10000000000000001 THEN 0", fixed = TRUE)
    expect_match(q, "WHEN \"x1\" < 0.5 THEN (\"x1\" - 0.10000000000000001) / 0.40000000000000002", fixed = TRUE)
    expect_match(q, "GREATEST", fixed = TRUE)
    q <- engine_sql(t, "kde", grid = list(g, g), bandwidth = 0.2, columns = c("x", "y"))
    expect_match(q, "EXP", ignore.case = TRUE)
    # kernel sums: one column per public point, no join with a table of points; the exponent bounded
    # below (no underflow), computed once per kernel value; the rows computed once (OFFSET 0)
    expect_false(grepl("JOIN", q, fixed = TRUE))
    expect_match(q, "EXP(GREATEST((-0.5 * ", fixed = TRUE)
    # (one CASE: the count of points beyond the domain, not a test per kernel value)
    expect_identical(lengths(regmatches(q, gregexpr("CASE", q, fixed = TRUE))), 1L)
    expect_match(q, "SUM(\"outside\")", fixed = TRUE)
    expect_match(q, "OFFSET 0", fixed = TRUE)
    expect_match(q, "AS \"s121\"", fixed = TRUE)
    q <- engine_sql(t, "mortality")
    expect_match(q, "SUM", ignore.case = TRUE)
  }
})

test_that("per-individual weights: a joined count on SQLite, a window elsewhere (the faster on each)", {
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "p", data.frame(id = c(1, 1, 2, 3, 3, 3), x = c(0.1, 0.2, 0.5, 0.7, 0.8, 0.9)))
  t <- dplyr::tbl(con, "p")
  g <- seq(0, 1, length.out = 11)
  q <- dbplyr::sql_render(summarise_kde(t, grid = g, bandwidth = 0.1, columns = "x", unit = "id", .query = TRUE))
  expect_match(q, "JOIN", fixed = TRUE)
  expect_false(grepl("OVER", q, fixed = TRUE))
  s <- summarise_kde(t, grid = g, bandwidth = 0.1, columns = "x", unit = "id")
  m <- summarise_kde(data.frame(id = c(1, 1, 2, 3, 3, 3), x = c(0.1, 0.2, 0.5, 0.7, 0.8, 0.9)), grid = g,
                     bandwidth = 0.1, columns = "x", unit = "id")
  expect_equal(s$sums, m$sums, tolerance = 1e-12)
  expect_equal(s$n, 3)
})

test_that("sql_lookup(): the CASE tree maps every k to its value, and anything else to NULL", {
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  for (n in c(1, 2, 4, 5, 7, 16, 50, 101)) {
    vals <- stats::rnorm(n) / 3
    DBI::dbWriteTable(con, "ks", data.frame(k = c(-1, seq_len(n) - 1, n, NA)), overwrite = TRUE)
    q <- dplyr::tbl(con, "ks")
    got <- dplyr::collect(dplyr::mutate(q, v = !!dpfda:::sql_lookup(q, "k", vals)))
    expect_identical(got$v, c(NA, vals, NA, NA))   # exact to the last bit (17 digits)
  }
  # about log2(n) comparisons on the way to a leaf of at most four
  s <- as.character(dpfda:::sql_lookup(q, "k", seq_len(64) / 7))
  expect_equal(lengths(regmatches(s, gregexpr("CASE", s))), 31)
})

test_engines("a table without `grid`: the error shows the argument column's distinct values (or range)", function(con) {
  sched <- data.frame(who = rep(1:6, each = 4), day = rep(c(0, 7, 14, 28), 6), y = rnorm(24))
  DBI::dbWriteTable(con, "sched", sched)
  tb <- dplyr::tbl(con, "sched")
  for (f in list(function() dp_mean(tb, epsilon = 1, tau = 1, id = who, arg = day, value = y),
                 function() dp_cov(tb, epsilon = 1, tau = 1, id = who, arg = "day", value = y),
                 function() summarise_mean(tb, tau = 1, id = who, arg = day, value = y),
                 function() summarise_cov(tb, tau = 1, id = who, arg = day, value = y))) {
    e <- expect_error(f(), class = "dpfda_error_argument")
    expect_match(conditionMessage(e), "`grid` is required", fixed = TRUE)
    expect_match(conditionMessage(e), "The column `day` of the table holds 4 distinct values, c(0, 7, 14, 28)",
                 fixed = TRUE)
    expect_identical(e$arg, "grid")
  }
  # following it gives the release; more than 101 distinct values: their range
  r <- dp_mean(tb, epsilon = 1, tau = 1, id = who, arg = day, value = y, grid = c(0, 7, 14, 28))
  expect_equal(r$n, 6)
  irr <- data.frame(who = rep(1:60, each = 2), day = seq(0.5, 60, by = 0.5), y = 1)
  DBI::dbWriteTable(con, "irr", irr)
  e <- expect_error(dp_mean(dplyr::tbl(con, "irr"), epsilon = 1, tau = 1, id = who, arg = day, value = y),
                    class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "more than 101 distinct values, from 0.5 to 60", fixed = TRUE)
})

test_that("every call reads its chunks from the start (also after an error halfway); a function once", {
  set.seed(1)
  g <- seq(0, 1, length.out = 5)
  d <- data.frame(id = rep(1:40, each = 5), arg = rep(g, 40), value = rnorm(200))
  ref <- with_seed_mode(2, suppressWarnings(dp_mean(d, epsilon = 1, tau = 2, grid = g)))
  # a call that stops at the first chunk (a wrong column name) left a list's chunks there: the next
  # call silently released the other 30 individuals, n = 30
  ch <- dp_chunks(split(d, rep(1:4, each = 50)))
  expect_error(dp_mean(ch, epsilon = 1, tau = 2, grid = g, value = "nope"), "nope", class = "dpfda_error_argument")
  r <- with_seed_mode(2, suppressWarnings(dp_mean(ch, epsilon = 1, tau = 2, grid = g)))
  expect_equal(r$n, 40)
  expect_equal(predict(r), predict(ref), tolerance = 1e-12)
  # the same chunks serve any number of calls, each from the start
  r2 <- with_seed_mode(2, suppressWarnings(dp_mean(ch, epsilon = 1, tau = 2, grid = g)))
  expect_identical(predict(r2), predict(r))
  expect_equal(summarise_cov(ch, grid = g, tau = 2, kernel = kernel_matern(1.5, 0.2), J = 3)$n, 40)
  # a file: the same, also after an error halfway
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  utils::write.csv(d, f, row.names = FALSE)
  cc <- csv_chunks(f, rows = 60)
  expect_error(dp_mean(cc, epsilon = 1, tau = 2, grid = g, value = "nope"), "nope", class = "dpfda_error_argument")
  for (k in 1:2) {
    r3 <- with_seed_mode(2, suppressWarnings(dp_mean(cc, epsilon = 1, tau = 2, grid = g)))
    expect_equal(predict(r3), predict(ref), tolerance = 1e-12)
  }
  # a function cannot be rewound: read by one call, a second one refused (it found no rows before)
  parts <- split(d, rep(1:4, each = 50))
  i <- 0
  fc <- dp_chunks(function() {
    i <<- i + 1
    if (i > 4) NULL else parts[[i]]
  })
  expect_equal(summarise_mean(fc, grid = g, tau = 2)$n, 40)
  e <- expect_error(summarise_mean(fc, grid = g, tau = 2), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "read by an earlier call", fixed = TRUE)
  expect_match(conditionMessage(e), "a list of data frames", fixed = TRUE)
})

test_that("dp_chunks(): a list's empty element is skipped, not the end; a source's error is classed", {
  d1 <- data.frame(v = seq(0.05, 0.95, length.out = 50))
  g <- seq(0, 1, length.out = 11)
  # (a NULL or empty element ended the chunks: 50 of the 100 rows were summarised without a word)
  expect_equal(summarise_kde(dp_chunks(list(d1, NULL, d1)), columns = "v", grid = g, bandwidth = 0.1)$n, 100)
  expect_equal(summarise_kde(dp_chunks(list(d1[0, , drop = FALSE], d1, d1[0, , drop = FALSE], d1)), columns = "v",
                             grid = g, bandwidth = 0.1)$n, 100)
  expect_equal(summarise_kde(dp_chunks(list(d1, NULL, d1)), columns = "v", grid = g, bandwidth = 0.1)$sums,
               summarise_kde(rbind(d1, d1), columns = "v", grid = g, bandwidth = 0.1)$sums)
  i <- 0
  f <- function() {
    i <<- i + 1
    if (i == 2) stop("network down")
    if (i > 3) NULL else d1
  }
  e <- expect_error(summarise_kde(dp_chunks(f), columns = "v", grid = g, bandwidth = 0.1), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "The chunk source failed when asked for chunk 2: network down", fixed = TRUE)
  expect_s3_class(e$parent, "simpleError")
})

test_that("an equispaced grid has exact trapezoid weights, so a long grid makes a short SQL statement", {
  # (the weights of seq() differed in their last bits: a CASE tree of 1e5 leaves, compiled by SQLite in 112 s)
  g <- seq(0, 1, length.out = 1e4)
  w <- dpfda:::quadrature_weights(g)
  expect_identical(unique(w), c(1 / 9999 / 2, 1 / 9999))
  expect_equal(sum(w), 1, tolerance = 1e-14)
  irr <- c(0, 0.1, 0.3, 0.35, 1)
  expect_identical(dpfda:::quadrature_weights(irr), (c(diff(irr), 0) + c(0, diff(irr))) / 2)
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  d <- data.frame(id = rep(1:6, each = 5), arg = rep(seq(0, 1, length.out = 5), 6), value = sin(1:30))
  DBI::dbWriteTable(con, "t", d)
  sql <- engine_sql(dplyr::tbl(con, "t"), "mean", grid = seq(0, 1, length.out = 1e5), tau = 2, id = "id",
                    arg = "arg", value = "value")
  expect_lt(nchar(as.character(sql)), 3000)   # (2e6 characters before)
  a <- summarise_mean(dplyr::tbl(con, "t"), grid = seq(0, 1, length.out = 1e5), tau = 2, id = "id", arg = "arg",
                      value = "value")
  expect_equal(a$sums, summarise_mean(d, grid = seq(0, 1, length.out = 1e5), tau = 2, id = "id", arg = "arg",
                                      value = "value")$sums, tolerance = 1e-12)
})

test_that("csv_chunks(): a chunk that cannot be read is an error, never the end of the data", {
  # (read.csv()'s error on a value that does not fit colClasses ended the chunks silently: 60 of 100 rows used)
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  v <- format(seq(0.005, 0.995, length.out = 100))
  writeLines(c("v", v), f)
  g <- seq(0, 1, length.out = 11)
  expect_equal(summarise_kde(csv_chunks(f, rows = 20, colClasses = "numeric"), columns = "v", grid = g,
                             bandwidth = 0.1)$n, 100)
  v[75] <- "abc"
  writeLines(c("v", v), f)
  e <- expect_error(summarise_kde(csv_chunks(f, rows = 20, colClasses = "numeric"), columns = "v", grid = g,
                                  bandwidth = 0.1), class = "dpfda_error_data")
  expect_match(conditionMessage(e), "Reading data rows 61 to 80 of", fixed = TRUE)
  expect_match(conditionMessage(e), "got 'abc'", fixed = TRUE)
  # the same chunks read again from the start give the same error (the connection was closed and reopened)
  cc <- csv_chunks(f, rows = 20, colClasses = "numeric")
  for (k in 1:2) expect_error(summarise_kde(cc, columns = "v", grid = g, bandwidth = 0.1), "rows 61 to 80",
                              class = "dpfda_error_data")
  # an option that read.csv() does not take is refused when the chunks are made (it reached read.table() at
  # the first read, unclassed), with the likeliest meaning
  expect_error(csv_chunks(f, chunk_rows = 40), "`chunk_rows` is not an option of csv_chunks() or of read.csv() (did you mean `rows`?)",
               fixed = TRUE, class = "dpfda_error_argument")
  expect_error(csv_chunks(f, colclasses = "numeric"), "did you mean `colClasses`?", fixed = TRUE,
               class = "dpfda_error_argument")
  expect_s3_class(csv_chunks(f, sep = ",", dec = "."), "dpfda_chunks")
})

test_that("the SQL lookup and interval trees agree with flat CASE lists and stay shallow for long grids", {
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  set.seed(2)
  for (m in c(1, 3, 5, 17, 100, 3000)) for (op in c("<", "<=")) {
    b <- sort(unique(round(stats::runif(m), 3)))
    v <- c(b, (b[-1] + b[-length(b)]) / 2, -1, 2, NA, 1e308, -1e308)
    DBI::dbWriteTable(con, "v", data.frame(v = v), overwrite = TRUE)
    flat <- paste0("CASE ", paste(sprintf("WHEN v %s %s THEN %d", op, dpfda:::sql_num(b), seq_along(b) - 1L),
                                  collapse = " "), sprintf(" ELSE %d END", length(b)))
    tree <- dpfda:::sql_interval_tree("v", b, op, 0L, 0L)
    expect_identical(DBI::dbGetQuery(con, paste("SELECT", tree, "AS i FROM v"))$i,
                     DBI::dbGetQuery(con, paste("SELECT", flat, "AS i FROM v"))$i)
  }
  # the lookup of values by k, over runs of equal values: k off the list (and NULL) give NULL
  vals <- c(0.5, rep(1, 50), 2, 3, rep(4, 7), 0.5)
  DBI::dbWriteTable(con, "k", data.frame(k = c(-1L, seq_along(vals) - 1L, length(vals), NA)), overwrite = TRUE)
  got <- DBI::dbGetQuery(con, paste("SELECT", dpfda:::sql_lookup_tree("k", vals, 0L), "AS w FROM k"))$w
  expect_identical(got, c(NA, vals, NA, NA))
  # nesting: a grid of 1e5 distinct weights nested about 17 CASEs deep, past SQLite's parser stack
  # ("parser stack overflow", found by tools/fuzz.R seed 20); the trees stop at depth 10
  depth <- function(sql) {
    lv <- cumsum(ifelse(regmatches(sql, gregexpr("CASE|END", sql))[[1]] == "CASE", 1L, -1L))
    max(lv)
  }
  expect_lte(depth(dpfda:::sql_lookup_tree("k", seq_len(1e5) / 7, 0L)), 11L)
  expect_lte(depth(dpfda:::sql_interval_tree("v", seq_len(1e5) / 7, "<", 0L, 0L)), 11L)
  expect_identical(dpfda:::sql_lookup_tree("k", rep(1, 1e5), 0L), "CASE WHEN k >= 0 AND k < 100000 THEN 1 END")
})

test_that("rows of long data beyond the grid's reach are left out with a warning, the same on every source", {
  # nlme's Orthodont is measured at ages 8, 10, 12, 14; on the grid 8, 10, 12 the age-14 rows were
  # snapped to 12 and averaged with it (25.37 at 12 against the mean 24.65 there), without a word.
  # A row more than half a grid step beyond the ends is near no grid point: left out and counted.
  o <- as.data.frame(nlme::Orthodont)
  o$Subject <- as.character(o$Subject)
  g <- c(8, 10, 12)
  o2 <- o
  o2$age[o2$Subject == "M01"] <- 16   # (every row of one subject beyond: it stays in n, with no cell)
  env <- environment()
  srcs <- list(frame = o2, chunks = dp_chunks(o2, rows = 10), sqlite = sqlite_tbl(o2, "orth", envir = env))
  truth <- tapply(o$distance[o$Subject != "M01"], o$age[o$Subject != "M01"], mean)
  for (nm in names(srcs)) {
    expect_warning(s <- summarise_mean(srcs[[nm]], id = "Subject", arg = "age", value = "distance", grid = g,
                                       tau = 100),
                   "30 rows of long data lie beyond the grid's reach \\[7, 13\\]", class = "dpfda_warning_data")
    expect_equal(s$n, 27, info = nm)
    expect_equal(s$beyond, 30, info = nm)
    expect_equal(s$missing_cells, 3, info = nm)   # (M01's three cells)
    expect_equal(s$sums / 26, as.vector(truth[1:3]), tolerance = 1e-12, info = nm)
    r <- suppressWarnings(summarise_mean(srcs[[nm]], id = "Subject", arg = "age", value = "distance", grid = g,
                                         tau = 100, incomplete = "drop"))
    expect_equal(c(r$n, r$incomplete_n), c(27, 1), info = nm)
    expect_warning(sc <- summarise_cov(srcs[[nm]], id = "Subject", arg = "age", value = "distance", grid = g,
                                       tau = 100, J = 2), "beyond the grid's reach", class = "dpfda_warning_data")
    expect_equal(sc$beyond, 30, info = nm)
  }
  # the releases agree across sources; rows within half a step of an end still count at it
  rel <- function(x) with_seed_mode(3, suppressWarnings(dp_mean(x, id = Subject, arg = age, value = distance,
                                                                grid = g, tau = 40, epsilon = 1, incomplete = "drop")))
  ref <- rel(o2)
  for (nm in names(srcs)[-1L]) expect_equal(rel(srcs[[nm]])$values$values, ref$values$values, tolerance = 1e-12)
  near <- o[o$age <= 12, ]
  near$age[near$age == 12] <- 12.9
  expect_no_warning(s2 <- summarise_mean(near, id = "Subject", arg = "age", value = "distance", grid = g, tau = 100))
  expect_null(s2$beyond)
})
