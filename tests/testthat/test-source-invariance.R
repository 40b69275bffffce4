# The source of the data must not change a release (standards: "the source of the data (memory,
# chunks, SQLite, PostgreSQL) must give the same release under dp_reproducible()"). Every release
# function that reads tables is called on data in memory and on the same rows as chunks and as a
# table of each engine, under the same seed; the releases agree to rounding. (This sweep found that
# a call stopped by an error halfway left a list's chunks there, and that pcv_select() raised
# dplyr's error on a table: test-engine.R, test-iclp.R.)

source_data <- function() {
  set.seed(1)
  n <- 120
  g <- seq(0, 1, length.out = 15)
  X <- t(vapply(seq_len(n), function(i) runif(1, 0.5, 1.5) * sin(2 * pi * g) + rnorm(1, 0, 0.3) +
                  0.3 * cos(3 * pi * g) * rnorm(1), numeric(15)))
  person <- rep(seq_len(n / 3), each = 3)
  long <- data.frame(id = rep(seq_len(n), each = 15), t = rep(g, n), y = as.vector(t(X)),
                     person = rep(person, each = 15))
  np <- 400
  pts <- data.frame(a = pmin(pmax(c(rnorm(np / 2, 0.3, 0.1), rnorm(np / 2, 0.7, 0.08)), 0), 1), b = runif(np),
                    person = rep(seq_len(np / 4), 4))
  br <- data.frame(x1 = runif(300), x2 = runif(300), y = rnorm(300))
  md <- data.frame(region = rep(c("a", "b", "c"), each = 200), age = sample(0:100, 600, replace = TRUE),
                   deaths = rpois(600, 3))
  list(g = g, X = X, cv = curves(X, g), person = person, long = long,
       longi = long[!(long$id == 7 & long$t > 0.5), ], pts = pts, br = br, md = md)
}

# The curve releases of `d` from the source `tl` (the long rows; `tli`: with curve 7 incomplete).
sweep_curve_sources <- function(d, tl, tli) {
  g <- d$g
  for (m in c("iclp_qr", "iclp_ar", "frl", "gp", "bernstein")) {
    dl <- if (m == "gp") 1e-5 else 0
    mean_of <- function(x, ...) function() dp_mean(x, epsilon = 2, tau = 2, mechanism = m, delta = dl, ...)
    expect_same_release(mean_of(d$cv), mean_of(tl, grid = g, arg = "t", value = "y"), m)
    expect_same_release(mean_of(d$cv, unit = d$person), mean_of(tl, grid = g, arg = "t", value = "y", unit = "person"),
                       paste(m, "unit"))
    expect_same_release(mean_of(d$longi, grid = g, arg = "t", value = "y", incomplete = "drop"),
                       mean_of(tli, grid = g, arg = "t", value = "y", incomplete = "drop"), paste(m, "drop"))
  }
  for (m in c("iclp_qr", "bernstein")) {
    auto <- function(x, ...) function() dp_mean(x, epsilon = 2, tau = "auto", mechanism = m, ...)
    expect_same_release(auto(d$cv), auto(tl, grid = g, arg = "t", value = "y"), paste(m, "tau auto"))
    band <- function(x, ...) function() {
      confint(dp_mean(x, epsilon = 2, tau = 2, mechanism = m, inference = TRUE, ...), type = "population")$upper
    }
    expect_same_release(band(d$cv, unit = d$person), band(tl, grid = g, arg = "t", value = "y", unit = "person"),
                       paste(m, "population band, unit"))
  }
  ex <- function(x, ...) function() dp_mean(x, epsilon = 1, tau = 2, noise = "exact", ...)
  expect_same_release(ex(d$cv), ex(tl, grid = g, arg = "t", value = "y"), "exact noise")
  cv <- function(x, ...) function() dp_cov(x, 2, 2, J = 6, ...)
  expect_same_release(cv(d$cv), cv(tl, grid = g, arg = "t", value = "y"), "dp_cov")
  expect_same_release(cv(d$cv, unit = d$person), cv(tl, grid = g, arg = "t", value = "y", unit = "person"),
                     "dp_cov unit")
  expect_same_release(cv(d$longi, grid = g, arg = "t", value = "y", incomplete = "drop"),
                     cv(tli, grid = g, arg = "t", value = "y", incomplete = "drop"), "dp_cov drop")
  ca <- function(x, ...) function() dp_cov(x, 2, "auto", J = 6, ...)
  expect_same_release(ca(d$cv), ca(tl, grid = g, arg = "t", value = "y"), "dp_cov tau auto")
  fp <- function(x, ...) function() dp_fpca(x, npc = 2, epsilon = 1, tau = 2, J = 6, ...)
  expect_same_release(fp(d$cv, unit = d$person), fp(tl, grid = g, arg = "t", value = "y", unit = "person"),
                     "dp_fpca unit")
}

test_that("chunks give the release of memory (every mean mechanism, cov, fpca, with unit and drop)", {
  d <- source_data()
  rows <- function(df) dp_chunks(split(df, ceiling(seq_len(nrow(df)) / 400)))
  sweep_curve_sources(d, rows(d$long), rows(d$longi))
})

test_engines("every release function from a table equals memory", function(con) {
  d <- source_data()
  for (nm in c("long", "longi", "pts", "br", "md")) DBI::dbWriteTable(con, nm, d[[nm]])
  tb <- function(nm) dplyr::tbl(con, nm)
  sweep_curve_sources(d, tb("long"), tb("longi"))
  # densities: every mechanism, with and without a unit, 1-D (the engine bins, as binned = TRUE) and 2-D
  gp <- seq(0, 1, length.out = 41)
  for (m in c("gp", "sobolev", "bernstein", "iclp", "frl")) {
    dl <- if (m %in% c("gp", "sobolev")) 1e-6 else 0
    kd <- function(x, ...) function() dp_kde(x, gp, 0.05, epsilon = 1, delta = dl, mechanism = m, ...)
    expect_same_release(kd(d$pts$a, binned = if (!m %in% c("iclp", "frl")) TRUE), kd(tb("pts"), columns = "a"),
                       paste("kde", m))
    expect_same_release(kd(d$pts$a, unit = d$pts$person), kd(tb("pts"), columns = "a", unit = "person"),
                       paste("kde unit", m))
  }
  g2 <- list(a = seq(0, 1, length.out = 9), b = seq(0, 1, length.out = 9))
  for (m in c("gp", "bernstein")) {
    k2 <- function(x, ...) function() dp_kde(x, g2, 0.1, epsilon = 1, delta = if (m == "gp") 1e-6 else 0,
                                             mechanism = m, ...)
    expect_same_release(k2(d$pts), k2(tb("pts")), paste("kde 2-D", m))
    expect_same_release(k2(d$pts, unit = "person"), k2(tb("pts"), unit = "person"), paste("kde 2-D unit", m))
  }
  kb <- function(x, ...) function() confint(dp_kde(x, gp, 0.05, epsilon = 1, mechanism = "bernstein", ...),
                                            type = "population")$upper
  expect_same_release(kb(d$pts$a, binned = TRUE), kb(tb("pts"), columns = "a"), "kde population band")
  # embeddings
  k <- kernel_gaussian(0.2)
  P <- as.matrix(d$pts[c("a", "b")])
  Z <- as.matrix(expand.grid(a = seq(0, 1, length.out = 5), b = seq(0, 1, length.out = 5)))
  km <- function(x, ...) function() dp_kme(x, k, 1, 1e-5, ...)
  expect_same_release(km(P, synthetic = Z, unit = d$pts$person),
                     km(tb("pts"), synthetic = Z, columns = c("a", "b"), unit = "person"), "kme synthetic unit")
  for (meth in c("random_features", "subspace")) {
    expect_same_release(km(P, method = meth, domain = rbind(c(0, 0), c(1, 1)), M = 20),
                       km(tb("pts"), method = meth, domain = rbind(c(0, 0), c(1, 1)), M = 20, columns = c("a", "b")),
                       paste("kme", meth))
  }
  # bin regression (a public and a private bound; two predictors), mortality
  bg <- function(x, ...) function() dp_bin_regression(x, y = "y", columns = "x1", epsilon = 1, bins = 10,
                                                      domain = c(0, 1), ...)
  expect_same_release(bg(d$br, y_bound = c(-3, 3)), bg(tb("br"), y_bound = c(-3, 3)), "bin regression")
  expect_same_release(bg(d$br, y_bound = "auto"), bg(tb("br"), y_bound = "auto"), "bin regression, y_bound auto")
  b2 <- function(x) function() dp_bin_regression(x, y = "y", columns = c("x1", "x2"), epsilon = 1, y_bound = c(-3, 3),
                                                 bins = c(4, 3), domain = rbind(c(0, 0), c(1, 1)))
  expect_same_release(b2(d$br), b2(tb("br")), "bin regression 2-D")
  expect_same_release(function() summarise_mortality(d$md, group = "region"),
                     function() summarise_mortality(tb("md"), group = "region"), "mortality summary")
})

# A frequency table (each row a point and its count): `counts` was an option of "iclp" and "frl" for
# a vector in memory only. Every mechanism and source now gives the release of the repeated points.
test_engines("dp_kde(counts = ) gives the release of the repeated points on every source", function(con) {
  set.seed(4)
  ft <- data.frame(a = round(runif(40), 2), b = round(runif(40), 2), n = rpois(40, 4), w = 0)
  ft$n[3] <- 0
  DBI::dbWriteTable(con, "ft", ft)
  tb <- dplyr::tbl(con, "ft")
  ch <- dp_chunks(ft, rows = 9)
  g <- seq(0, 1, length.out = 31)
  rep_a <- rep(ft$a, ft$n)
  for (m in c("gp", "sobolev", "bernstein", "iclp", "frl")) {
    dl <- if (m %in% c("gp", "sobolev")) 1e-6 else 0
    kd <- function(x, ...) function() dp_kde(x, g, 0.08, epsilon = 1, delta = dl, mechanism = m, domain = c(0, 1), ...)
    ref <- kd(rep_a, binned = if (!m %in% c("iclp", "frl")) TRUE)
    expect_same_release(ref, kd(ft$a, counts = ft$n), paste("counts, vector", m), tol = 1e-6)
    expect_same_release(ref, kd(ft[c("a", "n")], counts = n), paste("counts, data frame", m), tol = 1e-6)
    expect_same_release(ref, kd(tb, columns = "a", counts = "n"), paste("counts, table", m), tol = 1e-6)
    expect_same_release(ref, kd(ch, columns = "a", counts = n), paste("counts, chunks", m), tol = 1e-6)
    sm <- summarise_kde(tb, g, 0.08, domain = c(0, 1), columns = "a", counts = "n", mechanism = m)
    expect_same_release(ref, kd(sm), paste("counts, summary", m), tol = 1e-6)
    r <- with_seed_mode(5, suppressWarnings(kd(tb, columns = "a", counts = "n")()))
    expect_identical(r$privacy_unit, sprintf("one record (%d)", sum(ft$n)), info = m)
    expect_identical(with_seed_mode(5, suppressWarnings(kd(sm)()))$privacy_unit, r$privacy_unit, info = m)
  }
  # two dimensions: the kernel sums times the counts
  g2 <- list(a = seq(0, 1, length.out = 6), b = seq(0, 1, length.out = 6))
  rep2 <- ft[rep(seq_len(nrow(ft)), ft$n), c("a", "b")]
  for (m in c("gp", "bernstein", "iclp")) {
    k2 <- function(x, ...) function() dp_kde(x, g2, 0.15, epsilon = 1, delta = if (m == "gp") 1e-6 else 0,
                                             mechanism = m, domain = list(c(0, 1), c(0, 1)), ...)
    expect_same_release(k2(rep2), k2(ft[c("a", "b", "n")], counts = "n"), paste("counts 2-D, data frame", m))
    expect_same_release(k2(rep2), k2(tb, columns = c("a", "b"), counts = "n"), paste("counts 2-D, table", m))
    expect_same_release(k2(rep2), k2(ch, columns = c("a", "b"), counts = "n"), paste("counts 2-D, chunks", m))
  }
  # the summary says what n counts; its parts add only with the same counts
  s <- summarise_kde(tb, g, 0.08, columns = "a", counts = n, domain = c(0, 1))
  expect_equal(s$n, sum(ft$n))
  expect_output(print(s), "records \\(the counts of \"n\"\\)")
  expect_error(s + summarise_kde(tb, g, 0.08, columns = "a", domain = c(0, 1)), class = "dpfda_error_argument")
  # a negative or fractional count is refused, not used as a weight; a unit with counts too
  DBI::dbWriteTable(con, "ftbad", transform(ft, n = replace(n, 5, -2)))
  expect_error(dp_kde(dplyr::tbl(con, "ftbad"), g, 0.08, epsilon = 1, delta = 1e-6, columns = "a", counts = "n"),
               class = "dpfda_error_data", regexp = "counts")
  expect_error(dp_kde(transform(ft, n = replace(n, 5, 0.5)), g, 0.08, epsilon = 1, delta = 1e-6, columns = "a",
                      counts = "n"), class = "dpfda_error_argument", regexp = "counts")
  expect_error(dp_kde(tb, g, 0.08, epsilon = 1, delta = 1e-6, columns = "a", counts = "n", unit = "b"),
               class = "dpfda_error_argument", regexp = "not both")
  expect_error(dp_kde(s, g, 0.08, epsilon = 1, delta = 1e-6, counts = "n"), class = "dpfda_error_argument")
  expect_error(dp_kde(tb, g, 0.08, epsilon = 1, delta = 1e-6, columns = "a", counts = "nn"),
               class = "dpfda_error_argument", regexp = "nn")
}, engines = c("sqlite", "postgres", "duckdb"))

# The same for kernel mean embeddings: dp_kme() had no `counts` (a frequency table of points had to
# be expanded with rep() first, and its exponential method then met the N^2 limit of the records).
test_engines("dp_kme(counts = ) gives the release of the repeated points on every source", function(con) {
  set.seed(6)
  ft <- data.frame(a = round(runif(30), 2), b = round(runif(30), 2), n = rpois(30, 3))
  ft$n[2] <- 0
  ft$a[4] <- 1.3   # (beyond the domain: clamped, and counted in records for the warning)
  DBI::dbWriteTable(con, "kft", ft)
  tb <- dplyr::tbl(con, "kft")
  ch <- dp_chunks(ft, rows = 7)
  rep1 <- rep(ft$a, ft$n)
  rep2 <- as.matrix(ft[rep(seq_len(nrow(ft)), ft$n), c("a", "b")])
  N <- sum(ft$n)
  z1 <- matrix(seq(0, 1, 0.25))   # (well separated: the weights themselves are compared, not only the embedding)
  z2 <- as.matrix(expand.grid(a = c(0, 0.5, 1), b = c(0, 0.5, 1)))
  for (m in c("subspace", "random_features")) {
    for (D in 1:2) {
      z <- if (D == 1L) z1 else z2
      k <- kernel_gaussian(0.3)
      km <- function(x, ...) function() dp_kme(x, k, epsilon = 1, delta = 1e-5, method = m, synthetic = z,
                                                 domain = if (D == 1L) c(0, 1) else list(c(0, 1), c(0, 1)),
                                                 J = 60, iters = 15, public = TRUE, ...)
      cols <- if (D == 1L) "a" else c("a", "b")
      ref <- km(if (D == 1L) rep1 else rep2)
      lab <- paste(m, D)
      if (D == 1L) expect_same_release(ref, km(ft$a, counts = ft$n), paste("kme counts, vector", lab))
      expect_same_release(ref, km(ft[c(cols, "n")], counts = n), paste("kme counts, data frame", lab))
      expect_same_release(ref, km(tb, columns = cols, counts = "n"), paste("kme counts, table", lab))
      expect_same_release(ref, km(ch, columns = cols, counts = n), paste("kme counts, chunks", lab))
      sm <- summarise_kme(tb, k, m, synthetic = if (m == "subspace") z,
                          rff = if (m == "random_features") with_seed_mode(5, kme_rff(k, 60, D, origin = colMeans(z))),
                          domain = if (D == 1L) c(0, 1) else rbind(c(0, 0), c(1, 1)), columns = cols, counts = "n")
      expect_equal(sm$n, N)
      if (m == "subspace") expect_same_release(ref, km(sm), paste("kme counts, summary", lab))
      # n counts records: the sensitivity and the noise are those of the N records, not of the rows
      r <- with_seed_mode(5, suppressWarnings(km(tb, columns = cols, counts = "n")()))
      expect_equal(r$sensitivity, 2 / N)
      expect_equal(r$noise_scale, with_seed_mode(5, suppressWarnings(ref()))$noise_scale)
      expect_identical(r$privacy_unit, sprintf("one record (%d)", N))
      expect_identical(with_seed_mode(5, suppressWarnings(km(sm)()))$privacy_unit, r$privacy_unit)
    }
  }
  # a missing count is refused on every source, a data frame in memory too (it was dropped, which made
  # the number of records public); dp_kde() and dp_bandwidth() alike
  ftm <- transform(ft, n = replace(n, 7, NA))
  DBI::dbWriteTable(con, "kftm", ftm)
  k <- kernel_gaussian(0.3)
  kmm <- function(x, ...) dp_kme(x, k, epsilon = 1, delta = 1e-5, synthetic = z1, domain = c(0, 1),
                                 public = TRUE, columns = "a", counts = "n", ...)
  kdm <- function(x) dp_kde(x, seq(0, 1, 0.1), 0.1, epsilon = 1, delta = 1e-6, domain = c(0, 2), columns = "a",
                            counts = "n")
  bwm <- function(x) dp_bandwidth(x, epsilon = 1, delta = 1e-6, fallback = 0.1, domain = c(0, 2), binned = TRUE,
                                  columns = "a", counts = "n")
  for (src in list(ftm, dplyr::tbl(con, "kftm"), dp_chunks(ftm, rows = 7))) {
    expect_error(kmm(src), "^1 of the", class = "dpfda_error_data")
    expect_error(kdm(src), "^1 of the", class = "dpfda_error_data")
    expect_error(bwm(src), "^1 of the", class = "dpfda_error_data")
  }
  # the exponential method (in memory): the utility of the repeated points, the same choice
  cand <- lapply(c(0.2, 0.5, 0.8), function(c0) matrix(c0 + seq(-0.1, 0.1, length.out = 5)))
  ke <- kernel_gaussian(0.3)
  cw <- lapply(cand, function(p) list(points = p, weights = rep(0.2, 5)))
  expect_equal(dpfda:::kme_exp_utility(matrix(ft$a), ke, cw, 2048, ft$n / N),
               dpfda:::kme_exp_utility(matrix(rep1), ke, cw, 2048), tolerance = 1e-12)
  ex <- function(x, ...) function() dp_kme(x, ke, 1, 1e-5, method = "exponential", candidates = cand,
                                           domain = c(0, 1), ...)
  for (s in 1:5) {
    a <- with_seed_mode(s, suppressWarnings(ex(rep1)()))
    b <- with_seed_mode(s, suppressWarnings(ex(ft["a"], counts = ft$n)()))
    expect_identical(b$selected, a$selected)
    expect_equal(b$sensitivity, a$sensitivity)
    expect_identical(b$privacy_unit, sprintf("one record (%d)", N))
  }
  # the clamping warning counts records on every source (ft$a[4] = 1.3 stands for ft$n[4] records)
  w_of <- function(f) conditionMessage(expect_warning(f(), class = "dpfda_warning_data"))
  kd1 <- function(x, ...) function() dp_kme(x, kernel_gaussian(0.3), 1, 1e-5, synthetic = z1, public = TRUE,
                                             domain = c(0, 0.2), ...)
  msg <- sprintf("%d of the %d records", sum(ft$n[ft$a > 0.2]), N)
  expect_match(w_of(kd1(ft$a, counts = ft$n)), msg, fixed = TRUE)
  expect_match(w_of(kd1(tb, columns = "a", counts = "n")), msg, fixed = TRUE)
  expect_match(w_of(kd1(ch, columns = "a", counts = "n")), msg, fixed = TRUE)
  kde1 <- function(x, ...) function() dp_kde(x, seq(0, 1, 0.1), 0.1, epsilon = 1, delta = 1e-6, ...)
  msg <- sprintf("%d of the %d records lie outside the range of the grid", ft$n[4], N)
  for (mk in c("gp", "iclp")) {
    expect_match(w_of(kde1(ft$a, counts = ft$n, mechanism = mk)), msg, fixed = TRUE)
    expect_match(w_of(kde1(tb, columns = "a", counts = "n", mechanism = mk)), msg, fixed = TRUE)
    expect_match(w_of(kde1(ch, columns = "a", counts = "n", mechanism = mk)), msg, fixed = TRUE)
  }
  # refusals, classed and naming the argument
  expect_error(dp_kme(tb, ke, 1, 1e-5, columns = "a", counts = "n", unit = "b", synthetic = z1),
               class = "dpfda_error_argument", regexp = "not both")
  expect_error(dp_kme(sm, ke, 1, 1e-5, counts = "n"), class = "dpfda_error_argument", regexp = "summary")
  expect_error(dp_kme(ft, ke, 1, 1e-5, columns = "a", counts = nn, synthetic = z1), class = "dpfda_error_argument",
               regexp = "nn")
  expect_error(dp_kme(ft$a, ke, 1, 1e-5, counts = -ft$n, synthetic = z1), class = "dpfda_error_argument",
               regexp = "non-negative whole numbers")
  DBI::dbWriteTable(con, "kftbad", transform(ft, n = replace(n, 5, 1.5)))
  expect_error(dp_kme(dplyr::tbl(con, "kftbad"), ke, 1, 1e-5, columns = "a", counts = "n", synthetic = z1),
               class = "dpfda_error_data", regexp = "counts")
}, engines = c("sqlite", "postgres", "duckdb"))

# The bandwidth of a frequency table: dp_bandwidth() had no `counts`, so the private bandwidth a
# dp_kde(counts = ) needs could be had only from the expanded rows.
test_engines("dp_bandwidth(counts = ) gives the bandwidth of the repeated points on every source", function(con) {
  set.seed(8)
  v <- round(rnorm(5000, 50, 10), 1)
  ft <- as.data.frame(table(v = v), stringsAsFactors = FALSE)
  ft$v <- as.numeric(ft$v)
  ft <- rbind(ft, data.frame(v = 130, Freq = 0))   # (a zero count: no record)
  DBI::dbWriteTable(con, "bft", ft)
  tb <- dplyr::tbl(con, "bft")
  ch <- dp_chunks(ft, rows = 11)
  bw <- function(x, ...) function() dp_bandwidth(x, epsilon = 1, delta = 1e-6, fallback = 1, ...)
  for (s in 1:3) {
    ref <- with_seed_mode(s, suppressWarnings(bw(v)()))
    expect_true(all(ref$private))
    for (f in list(bw(ft$v, counts = ft$Freq), bw(ft, counts = Freq), bw(ft, counts = "Freq", columns = "v"))) {
      r <- with_seed_mode(s, suppressWarnings(f()))
      expect_identical(r$bandwidth, ref$bandwidth)
      expect_identical(r$n, 5000)   # (records, not the rows of the table: the rule's constant and the test use n)
      expect_identical(r$privacy_unit, "one record (5,000)")
    }
    # binned, and from a table or chunks (which bin): the bandwidth of the repeated points binned
    refb <- with_seed_mode(s, suppressWarnings(bw(v, domain = c(0, 140), binned = TRUE)()))
    for (f in list(bw(ft, counts = Freq, domain = c(0, 140), binned = TRUE),
                   bw(tb, columns = "v", counts = "Freq", domain = c(0, 140)),
                   bw(ch, columns = "v", counts = Freq, domain = c(0, 140)))) {
      r <- with_seed_mode(s, suppressWarnings(f()))
      expect_equal(r$bandwidth, refb$bandwidth, tolerance = 1e-12)
      expect_identical(r$privacy_unit, "one record (5,000)")
    }
  }
  # the clamping warning counts records; the bandwidth goes on to the frequency table's density
  msg <- sprintf("%s of the 5,000 records", format(sum(v > 45), big.mark = ","))
  for (x in list(ft, tb, ch)) {
    w <- expect_warning(dp_bandwidth(x, epsilon = 1, delta = 1e-6, fallback = 1, columns = "v", counts = "Freq",
                                     domain = c(0, 45)), class = "dpfda_warning_data")
    expect_match(conditionMessage(w), msg, fixed = TRUE)
  }
  b <- with_seed_mode(1, suppressWarnings(bw(tb, columns = "v", counts = "Freq", domain = c(0, 140))()))
  r <- with_seed_mode(2, dp_kde(tb, bandwidth = b, epsilon = 1, delta = 1e-6, columns = "v", counts = "Freq",
                                domain = c(0, 140)))
  expect_identical(r$privacy_unit, "one record (5,000)")
  # refusals, classed
  expect_error(dp_bandwidth(tb, 1, 1e-6, columns = "v", counts = "Freq", unit = "v", domain = c(0, 140)),
               class = "dpfda_error_argument", regexp = "not both")
  expect_error(dp_bandwidth(ft, 1, 1e-6, counts = Freq, unit = v), class = "dpfda_error_argument",
               regexp = "not both")
  expect_error(dp_bandwidth(ft$v, 1, 1e-6, counts = ft$Freq[-1]), class = "dpfda_error_argument",
               regexp = "counts")
  expect_error(dp_bandwidth(ft, 1, 1e-6, counts = Frq), class = "dpfda_error_argument", regexp = "Frq")
  DBI::dbWriteTable(con, "bftbad", transform(ft, Freq = replace(Freq, 3, -1)))
  expect_error(dp_bandwidth(dplyr::tbl(con, "bftbad"), 1, 1e-6, columns = "v", counts = "Freq", domain = c(0, 140)),
               class = "dpfda_error_data", regexp = "counts")
  expect_error(dp_bandwidth(dp_chunks(transform(ft, Freq = replace(Freq, 3, 0.5)), rows = 11), 1, 1e-6,
                            columns = "v", counts = "Freq", domain = c(0, 140)),
               class = "dpfda_error_data", regexp = "counts")
}, engines = c("sqlite", "postgres", "duckdb"))

test_that("the delta warning is the same from every source (it was given in memory only for points)", {
  local_privacy_warnings()
  d <- source_data()
  tp <- sqlite_tbl(d$pts, "pts")
  ch <- function() dp_chunks(split(d$pts, rep(1:4, each = 100)))
  deltas <- function(f) {   # the dpfda_warning_delta messages a call gives
    out <- character()
    withCallingHandlers(f(), dpfda_warning_delta = function(w) {
      out <<- c(out, conditionMessage(w))
      invokeRestart("muffleWarning")
    }, warning = function(w) invokeRestart("muffleWarning"))
    out
  }
  calls <- list(
    kde = function(x, ...) function() dp_kde(x, grid = seq(0, 1, 0.1), bandwidth = 0.1, epsilon = 1, delta = 0.01,
                                              domain = c(0, 1), ...),
    kme = function(x, ...) function() dp_kme(x, kernel_gaussian(0.3), 1, 0.01, synthetic = seq(0, 1, 0.25), ...),
    bandwidth = function(x, ...) function() dp_bandwidth(x, epsilon = 1, delta = 0.01, domain = c(0, 1),
                                                          fallback = 0.1, ...))
  for (nm in names(calls)) {
    f <- calls[[nm]]
    ref <- deltas(f(d$pts$a))   # 400 points: delta 0.01 >= 1/400
    expect_length(ref, 1L)
    expect_identical(deltas(f(d$pts, columns = "a")), ref, info = nm)
    expect_identical(deltas(f(tp, columns = "a")), ref, info = nm)
    expect_identical(deltas(f(ch(), columns = "a")), ref, info = nm)
    # with a unit, 1/n is one over the 100 persons: 0.01 is at it
    ru <- deltas(f(d$pts, columns = "a", unit = "person"))
    expect_length(ru, 1L)
    expect_match(ru, "1/n = 0.01", fixed = TRUE, info = nm)
    expect_identical(deltas(f(tp, columns = "a", unit = "person")), ru, info = nm)
  }
})

# dp_kde() said so when points in memory were moved to the grid's ends (no `domain`), or a tenth
# beyond a given one; a table, chunks or a summary clamped them alike without a word. The summary
# now counts them in its one pass (`outside`), so every source says the same.
test_engines("dp_kde() says on every source how many points were moved to the grid's ends", function(con) {
  x <- faithful$eruptions
  g <- seq(3, 4, by = 0.05)
  df <- data.frame(x = x, person = rep(1:136, each = 2))
  DBI::dbWriteTable(con, "erupt", df)
  tb <- dplyr::tbl(con, "erupt")
  sources <- list(memory = x, table = tb, chunks = dp_chunks(df, rows = 50))
  for (m in c("gp", "bernstein", "iclp")) {
    dl <- if (m == "gp") 1e-6 else 0
    for (src in names(sources)) {
      cols <- if (src != "memory") list(columns = "x")
      w <- expect_warning(do.call(dp_kde, c(list(sources[[src]], g, 0.3, epsilon = 1, delta = dl, mechanism = m),
                                           cols)), class = "dpfda_warning_data")
      expect_match(conditionMessage(w), "229 of the 272 points lie outside the range of the grid \\(\\[3, 4\\]\\)",
                   info = paste(m, src))
    }
    # a summary given to dp_kde() says it too; with a domain that bounds the data, nothing
    s <- summarise_kde(tb, g, 0.3, columns = "x", mechanism = m)
    expect_equal(s$outside, 229)
    expect_warning(dp_kde(s, g, 0.3, epsilon = 1, delta = dl, mechanism = m), "229 of the 272",
                   class = "dpfda_warning_data")
    expect_silent(dp_kde(tb, g, 0.3, epsilon = 1, delta = dl, mechanism = m, columns = "x", domain = c(1, 6)))
    # a domain given to the summary is given: its release speaks of `domain`, not of the grid's range
    # (before, dp_kde(s) told to give the domain the summary had been given)
    sd <- summarise_kde(tb, g, 0.3, columns = "x", mechanism = m, domain = c(3, 4))
    w <- expect_warning(dp_kde(sd, g, 0.3, epsilon = 1, delta = dl, mechanism = m), class = "dpfda_warning_data")
    expect_match(conditionMessage(w), "229 of the 272 points (84%) lie outside `domain`", fixed = TRUE)
    expect_identical(conditionMessage(w), conditionMessage(expect_warning(
      dp_kde(tb, g, 0.3, epsilon = 1, delta = dl, mechanism = m, columns = "x", domain = c(3, 4)))))
    # ... and kept when parts are added
    parts <- summarise_kde(dp_chunks(df[1:100, ], rows = 50), g, 0.3, columns = "x", mechanism = m) +
      summarise_kde(dp_chunks(df[101:272, ], rows = 50), g, 0.3, columns = "x", mechanism = m, domain = c(3, 4))
    expect_true(parts$domain_given)
  }
  # with a unit: the points are counted (not the units), and said once
  said <- character()
  withCallingHandlers(dp_kde(tb, g, 0.3, epsilon = 1, delta = 1e-6, columns = "x", unit = "person"),
                      dpfda_warning_data = function(w) {
                        said <<- c(said, conditionMessage(w))
                        invokeRestart("muffleWarning")
                      })
  expect_length(grep("229 of the 272", said), 1L)
  said <- character()
  withCallingHandlers(dp_kde(x, g, 0.3, epsilon = 1, delta = 1e-6, unit = df$person),
                      dpfda_warning_data = function(w) {
                        said <<- c(said, conditionMessage(w))
                        invokeRestart("muffleWarning")
                      })
  expect_length(grep("229 of the 272", said), 1L)
  # in the plane (kernel sums at the grid from the engine): a domain written for the columns the other way
  # round moves every point to a corner
  DBI::dbWriteTable(con, "geyser2", data.frame(w = faithful$waiting, e = faithful$eruptions))
  g2 <- list(seq(1, 6, length.out = 6), seq(40, 100, length.out = 6))
  dom <- rbind(c(1, 40), c(6, 100))
  for (src in list(dplyr::tbl(con, "geyser2"), dp_chunks(data.frame(w = faithful$waiting, e = faithful$eruptions),
                                                          rows = 100))) {
    expect_warning(dp_kde(src, g2, c(0.3, 5), epsilon = 1, delta = 1e-6, columns = c("w", "e"), domain = dom),
                   "272 of the 272 points \\(100%\\) lie outside `domain`.*\\(w, e\\)", class = "dpfda_warning_data")
  }
  expect_equal(summarise_kde(dplyr::tbl(con, "geyser2"), g2, c(0.3, 5), columns = c("e", "w"), domain = dom)$outside, 0)
})
