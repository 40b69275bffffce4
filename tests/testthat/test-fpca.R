# dp_fpca(): private functional principal components from dp_cov().

fp_grid <- seq(0, 1, length.out = 41)
fp_phi1 <- sqrt(2) * sin(pi * fp_grid)       # orthonormal in L2[0, 1]
fp_phi2 <- sqrt(2) * sin(2 * pi * fp_grid)
fp_data <- function(n, seed = 1) {
  set.seed(seed)
  curves(outer(rnorm(n, sd = 0.6), fp_phi1) + outer(rnorm(n, sd = 0.25), fp_phi2), fp_grid)
}

test_that("eigenfunctions are orthonormal, eigenvalues sorted, fractions of the positive variance", {
  r <- with_seed_mode(1, dp_cov(fp_data(500), epsilon = 1, tau = 2, J = 6))
  p <- dp_fpca(r, npc = 3)
  expect_s3_class(p, "dpfda_fpca")
  w <- dpfda:::quadrature_weights(fp_grid)
  H <- p$harmonics$values
  expect_equal(H %*% (w * t(H)), diag(3), tolerance = 1e-8)
  expect_false(is.unsorted(rev(p$values)))
  expect_true(all(p$varprop >= 0) && sum(p$varprop) <= 1 + 1e-12)
  expect_equal(p$varprop, pmax(p$values, 0) / sum(p$all_values[p$all_values > 0]))
  # signed to a positive integral
  expect_true(all(H %*% w > 0))
  # the eigen-decomposition of the released surface, reconstructed
  C <- matrix(predict(r), 41, 41)
  expect_equal(as.vector((C %*% (w * H[1, ]))), p$values[1] * H[1, ], tolerance = 1e-6)
})

test_that("with enough data the private components recover the true ones", {
  x <- fp_data(20000, seed = 2)
  r <- with_seed_mode(2, dp_cov(x, epsilon = 2, tau = 2, J = 6))
  p <- dp_fpca(r, npc = 2)
  w <- dpfda:::quadrature_weights(fp_grid)
  expect_gt(abs(sum(w * p$harmonics$values[1, ] * fp_phi1)), 0.95)
  expect_gt(abs(sum(w * p$harmonics$values[2, ] * fp_phi2)), 0.8)
  expect_lt(abs(p$values[1] - 0.36), 0.1)
  # the Davis-Kahan bound holds here and is informative for the first component
  expect_lt(p$eigenfunction_bound[1], sqrt(2))
  err1 <- sqrt(sum(w * (p$harmonics$values[1, ] - sign(sum(w * p$harmonics$values[1, ] * fp_phi1)) * fp_phi1)^2))
  expect_lte(err1, p$eigenfunction_bound[1])
  # noise_hs is dp_accuracy's expected Hilbert-Schmidt norm of the covariance noise
  expect_equal(p$noise_hs, dp_accuracy(r, nsim = 50)$expected_l2)
})

test_that("dp_fpca costs no budget beyond dp_cov()", {
  x <- fp_data(300, seed = 3)
  b <- privacy_budget(epsilon = 2)
  p <- with_seed_mode(3, dp_fpca(x, npc = 2, epsilon = 0.5, tau = 2, J = 5, budget = b))
  s <- dpfda:::budget_spent(b)
  expect_equal(s$epsilon, 0.5)
  expect_equal(s$releases, 1L)
  r <- with_seed_mode(3, dp_cov(x, epsilon = 0.5, tau = 2, J = 5))
  p2 <- dp_fpca(r, npc = 2)
  expect_equal(p$values, p2$values)                  # same seed, same release
  expect_equal(p2$release$epsilon, 0.5)
  expect_equal(p2$release$n, 300)
})

test_that("harmonics are curves: as_curves, as_fd, plot, autoplot, print", {
  r <- with_seed_mode(4, dp_cov(fp_data(300, 4), epsilon = 1, tau = 2, J = 5))
  p <- dp_fpca(r, npc = 2)
  expect_s3_class(as_curves(p), "dpfda_curves")
  expect_equal(as_curves(p)$values, p$harmonics$values)
  expect_output(print(p), "private principal components")
  expect_output(print(p), "PC2")
  pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(p))
  skip_if_not_installed("fda")
  f <- as_fd(p)
  expect_s3_class(f, "fd")
  expect_equal(ncol(f$coefs), 2L)
  expect_lt(max(abs(t(fda::eval.fd(fp_grid, f)) - p$harmonics$values)), 0.05)
  skip_if_not_installed("ggplot2")
  expect_s3_class(ggplot2::autoplot(p), "ggplot")
})

test_that("dp_fpca errors are classed", {
  g <- seq(0, 1, length.out = 11)
  m <- with_seed_mode(5, dp_mean(curves(matrix(0, 50, 11), g), epsilon = 1, tau = 1))
  expect_error(dp_fpca(m), class = "dpfda_error_argument")
  r <- with_seed_mode(5, dp_cov(curves(matrix(0, 50, 11), g), epsilon = 1, tau = 1, J = 3))
  expect_error(dp_fpca(r, epsilon = 1), class = "dpfda_error_argument")
  expect_error(dp_fpca(r, npc = 0), class = "dpfda_error_argument")
  expect_error(dp_fpca(curves(matrix(0, 50, 11), g)), class = "dpfda_error_argument", regexp = "epsilon")
  expect_error(dp_fpca(curves(matrix(0, 50, 11), g), epsilon = 1), class = "dpfda_error_argument", regexp = "tau")
})

test_that("another package's name for the number of components points to npc", {
  x <- curves(matrix(rnorm(200), 20), seq(0, 1, length.out = 10))
  for (nm in c("K", "nharm", "ncomp")) {
    args <- c(list(x, epsilon = 1, tau = 2), stats::setNames(list(3), nm))
    e <- expect_error(do.call(dp_fpca, args), class = "dpfda_error_argument")
    expect_match(conditionMessage(e), sprintf("is `npc`, not `%s`: give npc = 3", nm), fixed = TRUE)
  }
})

test_that("dp_cov() and dp_fpca() work on 100-point spectra by default (J capped by the size limit)", {
  g <- seq(850, 1050, length.out = 100)
  set.seed(3)
  x <- curves(3 + outer(rnorm(60, 0, 0.5), sin(pi * (g - 850) / 200)), g)
  r <- with_seed_mode(2, suppressWarnings(dp_cov(x, epsilon = 1, tau = 15, center = 3)))
  expect_identical(r$params$J, 57L)
  # the same release as with J = 57 given, and as the summary's default
  r57 <- with_seed_mode(2, suppressWarnings(dp_cov(x, epsilon = 1, tau = 15, center = 3, J = 57)))
  expect_identical(r$values, r57$values)
  s <- summarise_cov(x, tau = 15, center = 3)
  expect_identical(ncol(s$settings$projection), 57L)
  expect_identical(with_seed_mode(2, suppressWarnings(dp_cov(s, epsilon = 1)))$values, r$values)
  f <- with_seed_mode(2, suppressWarnings(dp_fpca(x, npc = 2, epsilon = 1, tau = 15, center = 3)))
  expect_length(f$values, 2L)
  # an explicit J above the limit is still refused with advice
  expect_error(dp_cov(x, epsilon = 1, tau = 15, J = 80), class = "dpfda_error_numeric", regexp = "Give J = 57 or fewer")
  # planning uses the same basis
  a <- dp_accuracy(mechanism = "cov", n = 60, epsilon = 1, tau = 15, grid = g, nsim = 100)
  expect_true(is.finite(a$expected_l2))
})

test_that("tidy() and as.data.frame() of dp_fpca(): eigenfunctions long, or the eigenvalues", {
  p <- with_seed_mode(1, suppressWarnings(dp_fpca(fp_data(300), npc = 2, epsilon = 2, tau = 2, J = 8)))
  d <- tidy(p)
  expect_identical(names(d), c("component", "arg", "value"))
  expect_identical(nrow(d), 2L * length(fp_grid))
  expect_identical(d$value[d$component == 2L], p$harmonics$values[2L, ])
  expect_identical(as.data.frame(p), d)
  e <- tidy(p, matrix = "eigenvalues")
  expect_identical(e$eigenvalue, p$values)
  expect_identical(e$varprop, p$varprop)
  expect_error(tidy(p, matrix = "rotation"), class = "dpfda_error_argument")
  expect_error(tidy(p, matirx = "eigenvalues"), class = "dpfda_error_argument", regexp = "`matirx`")
})

test_that("glance() and summary() of dp_fpca() (glance() was R's unclassed 'no applicable method')", {
  p <- with_seed_mode(1, suppressWarnings(dp_fpca(fp_data(300), npc = 2, epsilon = 2, tau = 2, J = 8)))
  g <- glance(p)
  expect_identical(nrow(g), 1L)
  expect_identical(g$npc, 2L)
  expect_equal(g$varprop_total, sum(p$varprop))
  expect_identical(g$epsilon, 2)
  expect_identical(g$n, p$release$n)
  expect_identical(g$noise_hs, p$noise_hs)
  expect_identical(g$eigenfunction_bound_max, max(p$eigenfunction_bound))
  expect_identical(g$privacy_unit, "one curve (300)")
  expect_output(print(p), "privacy unit: one curve (300)", fixed = TRUE)
  expect_error(glance(p, foo = 1), class = "dpfda_error_argument", regexp = "`foo` is not an option of glance")
  s <- summary(p)
  expect_s3_class(s, "summary.dpfda_fpca")
  expect_identical(s$components, tidy(p, matrix = "eigenvalues"))
  # summary() says at least what print() says
  expect_identical(utils::capture.output(print(s)), utils::capture.output(print(p)))
})

test_that("dp_fpca() on a one-point grid: one component, no gap to close, no foreign warning", {
  # (min() over no neighbouring eigenvalue warned "no non-missing arguments to min": the table fuzzer)
  old <- dp_reproducible(31)
  on.exit(dp_rng(old))
  d <- data.frame(id = 1:40, arg = 0, value = runif(40))
  foreign <- character()
  r <- withCallingHandlers(dp_fpca(d, npc = 2, epsilon = 1, tau = 2, grid = 0), warning = function(w) {
    if (!inherits(w, "dpfda_warning")) foreign <<- c(foreign, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  expect_identical(foreign, character())
  expect_length(r$values, 1L)
  expect_identical(r$eigengap, Inf)
  expect_identical(r$eigenfunction_bound, 0)
})

test_that("components beyond the positive eigenvalues of the released surface warn; rounding zeros are 0", {
  # (CanadianWeather with J = 3 printed PC3 with eigenvalue 4.7e-13 and an arbitrary eigenfunction)
  r <- with_seed_mode(3, dp_cov(fp_data(500), epsilon = 1, tau = 2, J = 2))
  ev <- eigen(r$coefficients, symmetric = TRUE, only.values = TRUE)$values
  expect_true(ev[1] > 0 && ev[2] < 0)   # (this seed: one positive, one negative from the noise)
  expect_warning(p <- dp_fpca(r, npc = 4), "1 positive eigenvalue \\(rank 2\\), so components 2 to 4 have",
                 class = "dpfda_warning_utility")
  expect_identical(c(p$rank, p$positive), c(2L, 1L))
  expect_identical(p$values[2:4], c(0, 0, 0))            # the null space of the rank-2 surface, exactly 0
  expect_identical(sum(p$all_values != 0), 2L)
  expect_lt(min(p$all_values), 0)                        # the negative one comes last
  expect_equal(sort(p$all_values[p$all_values != 0]), sort(ev), tolerance = 1e-8)
  expect_output(print(p), "1 positive eigenvalue (rank 2): PC2 and beyond are its null space or noise", fixed = TRUE)
  # within the positive ones: no warning, no line
  expect_no_warning(p1 <- dp_fpca(r, npc = 1))
  expect_false(any(grepl("positive eigenvalue", capture.output(print(p1)))))
  expect_warning(dp_fpca(r, npc = 2), "so component 2 has eigenvalue 0", class = "dpfda_warning_utility")
  r6 <- with_seed_mode(3, dp_cov(fp_data(500), epsilon = 1, tau = 2, J = 6))
  expect_no_warning(p6 <- dp_fpca(r6, npc = 2))
  expect_gte(p6$positive, 2L)
})

test_that("predict() gives the scores and reconstructions of curves on the private components", {
  p <- with_seed_mode(3, dp_fpca(fp_data(500), npc = 2, epsilon = 1, tau = 2, J = 6))
  H <- p$harmonics$values
  set.seed(4)
  co <- matrix(rnorm(10), 5)
  mu <- 0.2 + fp_grid
  y <- curves(sweep(co %*% H, 2, mu, "+"), fp_grid)
  # the scores of curves in the span of the components are their coefficients (trapezoid inner product)
  s <- predict(p, y, center = mu)
  expect_equal(unname(s), co, tolerance = 1e-10)
  expect_identical(colnames(s), c("PC1", "PC2"))
  rec <- predict(p, y, center = mu, type = "curves")
  expect_s3_class(rec, "dpfda_curves")
  expect_equal(rec$values, y$values, tolerance = 1e-10)
  # a centre as a function, as one curve and as a release of a mean: the same scores
  expect_equal(predict(p, y, center = function(t) 0.2 + t), s)
  expect_equal(predict(p, y, center = curves(mu, fp_grid)), s)
  m <- with_seed_mode(5, dp_mean(fp_data(500), epsilon = 1, tau = 2))
  expect_equal(predict(p, y, center = m), predict(p, y, center = m$values$values[1, ]))
  # centred on the scored curves: the scores sum to zero, as prcomp()'s do over its data
  expect_equal(unname(colSums(predict(p, y, center = "newdata"))), c(0, 0), tolerance = 1e-10)
  # row names: the curves' labels; a matrix on the grid and a long data frame give the same scores
  mat <- y$values
  rownames(mat) <- letters[1:5]
  s2 <- predict(p, mat, center = mu)
  expect_identical(rownames(s2), letters[1:5])
  expect_equal(unname(s2), unname(s))
  expect_equal(unname(predict(p, as.data.frame(y), center = mu)), unname(s))
  # curves on a finer grid are interpolated onto the components' grid
  fine <- seq(0, 1, length.out = 401)
  yf <- curves(t(apply(y$values, 1L, function(v) stats::approx(fp_grid, v, fine)$y)), fine)
  expect_equal(unname(predict(p, yf, center = mu)), unname(s), tolerance = 1e-10)
})

test_that("predict() of FPCA asks for a centre, and refuses curves off its grid", {
  p <- with_seed_mode(3, dp_fpca(fp_data(300), npc = 2, epsilon = 1, tau = 2, J = 6))
  y <- fp_data(4, seed = 9)
  expect_error(predict(p, y), "dp_mean", class = "dpfda_error_argument")
  expect_error(predict(p, y, center = 1:3), class = "dpfda_error_argument")
  # a centre that is not finite on the grid says so (it read "not a double vector of length 41")
  expect_error(predict(p, y, center = Inf), "finite on the grid; it is Inf at 41 of the 41", class = "dpfda_error_argument")
  expect_error(predict(p, y, center = function(t) log(t)), "-Inf at 1 of", class = "dpfda_error_argument")
  expect_error(predict(p, y, center = 0, type = "loadings"), class = "dpfda_error_argument")
  expect_error(predict(p, curves(y$values, seq(0, 0.5, length.out = 41)), center = 0), "covers \\[0, 0.5\\]",
               class = "dpfda_error_argument")
  expect_error(predict(p, center = 0), "newdata", class = "dpfda_error")
  expect_error(predict(p, "curves", center = 0), class = "dpfda_error_argument")
  # a damaged object: a classed error, not one of matrix algebra
  bad <- p
  bad$harmonics$values <- bad$harmonics$values[, -1L]
  expect_error(predict(bad, y, center = 0), class = "dpfda_error")
  bad <- p
  bad$grid <- bad$grid[-1L]
  expect_error(predict(bad, y, center = 0), "not a dp_fpca", class = "dpfda_error_argument")
})

test_that("the scores of an FPCA with incomplete = \"drop\" use its private mean", {
  set.seed(11)
  t <- seq(0, 1, length.out = 9)
  x <- curves(outer(rnorm(120), sin(pi * t)) + outer(rnorm(120), cos(pi * t)) / 2, t)
  d <- as.data.frame(x)
  d <- d[!(d$id %in% c(3, 7) & d$arg > 0.6), ]
  f <- with_seed_mode(7, dp_fpca(d, epsilon = 4, tau = 2, grid = t, incomplete = "drop", npc = 2))
  mr <- f$release$mean_release
  expect_s3_class(mr, "dpfda_release")
  expect_equal(predict(f, x), predict(f, x, center = mr))
})

test_that("curves() keeps a matrix's row names as the curves' labels", {
  m <- matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))
  expect_identical(curves(m, 1:3)$ids, c("a", "b"))
  expect_null(curves(unname(m), 1:3)$ids)
  expect_identical(as_curves(m, grid = 1:3)$ids, c("a", "b"))
})

test_that("the print of dp_fpca() names the negative eigenvalues and the components no larger", {
  # (DTI profiles, unit = id: varprop 0.457 / 0.342 / 0.201, "100% explained", beside an unmentioned
  # eigenvalue of -0.0156, larger in size than PC2 and PC3)
  ok <- stats::complete.cases(dti_cca$cca)
  dti <- curves(dti_cca$cca[ok, ], seq(0, 1, length.out = 93))
  p <- with_seed_mode(1, suppressWarnings(dp_fpca(dti, npc = 3, epsilon = 1, tau = 0.2, center = 0.5, J = 6,
                                                  unit = dti_cca$id[ok])))
  worst <- min(p$all_values)
  expect_lt(worst, 0)
  expect_identical(glance(p)$negative_min, worst)
  out <- capture.output(print(p))
  k <- sum(p$all_values < 0)
  expect_true(any(grepl(sprintf("%d negative eigenvalue", k), out, fixed = TRUE)))
  small <- which(p$values > 0 & p$values <= -worst)
  expect_identical(small, 1:2)   # (this seed: both positive components are within the noise's size)
  expect_true(any(grepl("so PC1 and PC2 (no larger) cannot be told from it", out, fixed = TRUE)))
  # a surface with no negative eigenvalue: no line, negative_min 0
  q <- p
  q$all_values <- abs(q$all_values)
  expect_false(any(grepl("negative eigenvalue", capture.output(print(q)), fixed = TRUE)))
  expect_identical(glance(q)$negative_min, 0)
})

test_that("dp_fpca() of a summarise_cov() summary takes its tau, as dp_cov() does", {
  ok <- stats::complete.cases(dti_cca$cca)
  x <- curves(dti_cca$cca[ok, ], seq(0, 1, length.out = 93))
  sc <- summarise_cov(x, tau = 0.2, center = 0.5, unit = dti_cca$id[ok], J = 5)
  a <- with_seed_mode(3, suppressWarnings(dp_fpca(sc, epsilon = 1)))
  b <- with_seed_mode(3, suppressWarnings(dp_fpca(dp_cov(sc, epsilon = 1))))
  expect_equal(a$values, b$values)
  expect_identical(a$release$tau, 0.2)
  expect_error(dp_fpca(sc), class = "dpfda_error_argument", regexp = "with a summary .* give `epsilon`")
  expect_error(dp_fpca(x, epsilon = 1), class = "dpfda_error_argument", regexp = "give `tau`")
})

test_that("the covariance of dp_fpca() of curves is charged under dp_fpca's name", {
  # (the ledger said "dp_cov" for it: a user test)
  t <- seq(0, 1, length.out = 20)
  set.seed(1)
  cv <- curves(outer(rnorm(100), sin(2 * pi * t)), t)
  b <- privacy_budget(5)
  with_seed_mode(1, dp_fpca(cv, npc = 1, epsilon = 1, tau = 2, budget = b))
  with_seed_mode(1, dp_cov(cv, epsilon = 1, tau = 2, budget = b))
  expect_identical(b$ledger$label, c("dp_fpca (its covariance)", "dp_cov"))
})
