# dp_cov(incomplete = "drop") and dp_fpca(): the rule of dp_mean() for
# individuals whose curves do not cover the grid, on every source.

cov_drop_data <- function(n = 120, seed = 11) {
  set.seed(seed)
  t <- seq(0, 1, length.out = 9)
  x <- curves(outer(rnorm(n), sin(pi * t)) + outer(rnorm(n), cos(pi * t)) / 2, t)
  d <- as.data.frame(x)
  list(t = t, d = d[!(d$id %in% c(3, 7, 20) & d$arg > 0.6), ], full = d)
}

test_that("dp_cov() refuses incomplete curves by default and names the fix", {
  cd <- cov_drop_data()
  expect_error(dp_cov(cd$d, epsilon = 1, tau = 2, grid = cd$t), class = "dpfda_error_data")
  expect_error(dp_cov(cd$d, epsilon = 1, tau = 2, grid = cd$t), "incomplete = \"drop\"")
  expect_error(dp_cov(cd$d, epsilon = 1, tau = 2, grid = cd$t, count_share = 0.2), class = "dpfda_error_argument")
  expect_error(dp_cov(cd$d, epsilon = 1, tau = 2, grid = cd$t, incomplete = "drop", mean_share = 2),
               class = "dpfda_error_argument")
  expect_error(dp_cov(cd$d, epsilon = 1, tau = 2, grid = cd$t, incomplete = "nope"), class = "dpfda_error_argument")
})

test_that("dp_cov(incomplete = \"drop\"): three releases, epsilon in all, calibrated for every individual", {
  cd <- cov_drop_data()
  bud <- privacy_budget(1, composition = "basic")
  r <- with_seed_mode(3, dp_cov(cd$d, epsilon = 1, tau = 2, grid = cd$t, incomplete = "drop", budget = bud))
  expect_equal(budget_spent(bud)$epsilon, 1)
  expect_equal(nrow(bud$ledger), 1L)
  expect_equal(r$n, 120)                       # N, not the data-chosen count of complete individuals
  expect_null(r$incomplete_n)                 # (no exact count: N minus it is the count that n_complete hides)
  expect_equal(r$epsilon_count, 0.1)
  expect_equal(r$epsilon_mean, 0.225)          # mean_share 0.25 of the rest
  expect_equal(r$epsilon_release, 0.675)
  expect_equal(r$epsilon_count + r$epsilon_mean + r$epsilon_release, r$epsilon)
  expect_equal(r$scale_factor, r$n / r$n_complete)
  # the second moment is calibrated as the uncentred release at N (2 tau^2 / N in the tensor norm)
  s <- summarise_cov(cd$d, grid = cd$t, tau = 2, incomplete = "drop")
  expect_equal(s$n, 120)
  expect_equal(s$incomplete_n, 3)
  ref <- dpfda:::cov_release(s$sums[, 1L], s$sums[, -1L], 120, r$basis, 0.675, 2, r$noise, FALSE, NULL, NULL,
                             NULL, "float", NULL, c(0, 1))
  expect_equal(r$sensitivity, ref$sensitivity)
  expect_equal(r$noise_scale, ref$noise_scale)
  expect_equal(r$noise_scale, sqrt(2) * r$sensitivity / 0.675)   # Laplace sd; fails with a smaller noise
  # the private mean: ICLP-QR at N with its own share
  expect_equal(r$mean_release$n, 120)
  expect_equal(r$mean_release$epsilon, 0.225)
  expect_equal(r$mean_release$noise_scale, sqrt(2) * r$mean_release$sensitivity / 0.225)
  # centered = FALSE: no mean part, the whole rest for the second moment
  r2 <- with_seed_mode(3, dp_cov(cd$d, epsilon = 1, tau = 2, grid = cd$t, incomplete = "drop", centered = FALSE,
                                 count_share = 0.2))
  expect_null(r2$mean_release)
  expect_equal(r2$epsilon_release, 0.8)
  expect_output(print(r), "noisy count of")
})

test_that("dp_cov(incomplete = \"drop\") is the same release from curves, a data frame and chunks", {
  cd <- cov_drop_data()
  rel <- function(x, ...) with_seed_mode(5, dp_cov(x, epsilon = 2, tau = 2, incomplete = "drop", ...))
  a <- rel(cd$d, grid = cd$t)
  b <- rel(dp_chunks(split(cd$d, ceiling(seq_len(nrow(cd$d)) / 100))), grid = cd$t)
  cu <- suppressWarnings(as_curves(cd$d, grid = cd$t, incomplete = "drop"))
  c <- rel(cu)
  expect_equal(a$values$values, b$values$values, tolerance = 1e-10)
  expect_equal(a$values$values, c$values$values, tolerance = 1e-10)
  expect_equal(c$n, 120)
  # complete data: "drop" changes nothing in the summary
  s1 <- summarise_cov(cd$full, grid = cd$t, tau = 2, incomplete = "drop")
  s0 <- summarise_cov(cd$full, grid = cd$t, tau = 2)
  expect_equal(s1$sums, s0$sums)
  expect_equal(s1$incomplete_n, 0)
})

test_engines("dp_cov(incomplete = \"drop\") on a table equals the data frame", function(con) {
  cd <- cov_drop_data()
  DBI::dbWriteTable(con, "cvd", cd$d)
  tb <- dplyr::tbl(con, "cvd")
  expect_error(dp_cov(tb, epsilon = 1, tau = 2, grid = cd$t), class = "dpfda_error_data")
  a <- with_seed_mode(5, dp_cov(cd$d, epsilon = 2, tau = 2, grid = cd$t, incomplete = "drop"))
  b <- with_seed_mode(5, dp_cov(tb, epsilon = 2, tau = 2, grid = cd$t, incomplete = "drop"))
  expect_equal(a$values$values, b$values$values, tolerance = 1e-9)
  expect_equal(b$n, 120)
  expect_null(b$incomplete_n)
  # per person: a unit without a complete curve still counts
  du <- cd$d
  du$person <- (du$id - 1) %/% 2
  DBI::dbWriteTable(con, "cvu", du)
  su <- summarise_cov(dplyr::tbl(con, "cvu"), grid = cd$t, tau = 2, unit = "person", incomplete = "drop")
  sf <- summarise_cov(du, grid = cd$t, tau = 2, unit = "person", incomplete = "drop")
  expect_equal(su$sums, sf$sums, tolerance = 1e-9)
  expect_equal(su$n, 60)
  expect_equal(sf$n, 60)
  expect_equal(su$incomplete_n, sf$incomplete_n)
})

test_that("the noise law of a dropped covariance matches its draws, and the release is accurate", {
  cd <- cov_drop_data(n = 2000)
  r <- with_seed_mode(7, dp_cov(cd$d, epsilon = 4, tau = 2, grid = cd$t, incomplete = "drop"))
  law <- dpfda:::noise_law(r)
  set.seed(1)
  v <- apply(law$draw(3000), 2, var)
  expect_lt(max(abs(v / law$var - 1)), 0.15)
  # the complete individuals' covariance (the truth: sin sin' + cos cos' / 4), within the noise
  t <- cd$t
  truth <- outer(sin(pi * t), sin(pi * t)) + outer(cos(pi * t), cos(pi * t)) / 4
  err <- matrix(r$values$values, length(t)) - truth
  expect_lt(sqrt(mean(err^2)), 4 * sqrt(mean(law$var)) + 0.1)
  # dp_fpca() passes the option on
  f <- with_seed_mode(7, dp_fpca(cd$d, epsilon = 4, tau = 2, grid = cd$t, incomplete = "drop"))
  expect_s3_class(f, "dpfda_fpca")
})

test_that("dp_cov(incomplete = \"drop\") stays epsilon-DP when a person's curve turns incomplete (audit)", {
  g <- seq(0, 1, length.out = 4)
  long <- function(vals, covered) {
    do.call(rbind, lapply(seq_along(vals), function(i) {
      a <- if (covered[i]) g else g[1:2]
      data.frame(id = i, arg = a, value = vals[i])
    }))
  }
  d1 <- long(c(1, rep(0, 4)), rep(TRUE, 5))
  d2 <- long(c(-1, rep(0, 4)), c(FALSE, rep(TRUE, 4)))
  k <- kernel_matern(3 / 2, 0.3)
  mech <- function(d) {
    r <- suppressWarnings(dp_cov(d, epsilon = 2, tau = 1, grid = g, kernel = k, J = 1, incomplete = "drop",
                                 count_share = 0.4))
    c(r$values$values[1L, 1L], r$n_complete, r$mean_release$values$values[1L, 1L])
  }
  a <- dp_audit(mech, d1, d2, n = 1500, epsilon = 2, projection = "lda", seed = 2802, digits = 10,
                confidence = 0.99)
  expect_lte(a$epsilon_lower, 2)
  expect_gt(a$epsilon_lower, 0.2)   # the audit has power
})

test_that("a noisy count of complete individuals too uncertain for its division is said (dpfda_warning_utility)", {
  # (ChickWeight per diet: 10 to 20 chicks at epsilon 1, the count's noise sd 14; a count clamped to 1
  # multiplied the release by 20, with no word about it)
  days <- c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21)
  d1 <- ChickWeight[ChickWeight$Diet == 1, ]
  rel <- function(f, ...) with_seed_mode(7, f(d1, id = Chick, arg = Time, value = weight, grid = days, epsilon = 1,
                                               tau = 1500, center = 100, incomplete = "drop", ...))
  for (f in list(dp_mean, dp_cov)) {
    w <- NULL
    r <- withCallingHandlers(rel(f), warning = function(e) {
      if (inherits(e, "dpfda_warning_utility") && grepl("noisy count of complete", conditionMessage(e))) w <<- e
      invokeRestart("muffleWarning")
    })
    expect_false(is.null(w))
    expect_match(conditionMessage(w), sprintf("is %s, against a noise sd of 14.1", format(r$n_complete)), fixed = TRUE)
    expect_match(conditionMessage(w), "larger count_share", fixed = TRUE)
  }
  # enough individuals (dti_cca's 141 first visits, epsilon 2): no such warning
  w <- NULL
  withCallingHandlers(with_seed_mode(7, dp_mean(dti_cca[dti_cca$visit == 1, ], grid = seq(0, 1, length.out = 93),
                                                epsilon = 2, tau = 0.2, center = 0.5, incomplete = "drop")),
                      warning = function(e) {
                        if (grepl("noisy count of complete", conditionMessage(e))) w <<- e
                        invokeRestart("muffleWarning")
                      })
  expect_null(w)
})

test_that("a grid finer than the times of observation is named as a cause of a small noisy count", {
  # (ChickWeight weighed every other day: grid = 0:21 leaves every chick incomplete, and the warning
  # only advised a larger epsilon)
  d1 <- ChickWeight[ChickWeight$Diet == 1, ]
  w <- NULL
  withCallingHandlers(with_seed_mode(7, dp_mean(d1, id = Chick, arg = Time, value = weight, grid = 0:21,
                                                epsilon = 1, tau = 1500, center = 100, incomplete = "drop")),
                      warning = function(e) {
                        if (inherits(e, "dpfda_warning_count")) w <<- e
                        invokeRestart("muffleWarning")
                      })
  expect_false(is.null(w))
  expect_match(conditionMessage(w), "a grid finer than the times of observation leaves every curve incomplete",
               fixed = TRUE)
  expect_match(conditionMessage(w), "as_curves()", fixed = TRUE)
})

test_that("the print says how uncertain the noisy count makes the release's scale", {
  # (ChickWeight's 45 complete chicks at epsilon 1: a noise sd of 27.7 printed, while the releases over
  # seeds varied by 135-200, the division by the noisy count left out)
  days <- c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21)
  for (f in list(dp_mean, dp_cov)) {
    r <- suppressWarnings(with_seed_mode(5, f(ChickWeight, id = Chick, arg = Time, value = weight, grid = days,
                                              epsilon = 1, tau = 1500, center = 100, incomplete = "drop")))
    pct <- format(signif(100 * sqrt(2) * 10 / r$n_complete, 2))
    expect_output(print(r), sprintf("the count's noise sd 14.1 makes the scale of the release uncertain by about %s%%",
                                    pct), fixed = TRUE)
  }
  r <- with_seed_mode(5, dp_mean(dti_cca[dti_cca$visit == 1 & stats::complete.cases(dti_cca$cca), ],
                                 grid = seq(0, 1, length.out = 93), epsilon = 1, tau = 0.2, center = 0.5))
  expect_false(any(grepl("count's noise sd", utils::capture.output(print(r)))))
})

test_that("the utility warning of incomplete = \"drop\" quotes the noise of the divided release", {
  # (the check ran before the division by the noisy share of complete individuals: ChickWeight's diet 1
  # at epsilon 5 was said to have an expected L2 error of 1164 while print() showed 1551, 20 / 15 times it)
  old <- options(dpfda.utility_warning = TRUE)
  on.exit(options(old))
  days <- c(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 21)
  d1 <- ChickWeight[ChickWeight$Diet == 1, ]
  for (f in list(dp_mean, dp_cov)) {
    for (center in list(NULL, 100)) {
      msgs <- character()
      r <- withCallingHandlers(
        with_seed_mode(3, f(d1, id = Chick, arg = Time, value = weight, grid = days, epsilon = 5, tau = 1500,
                            center = center, incomplete = "drop")),
        warning = function(e) {
          if (inherits(e, "dpfda_warning_utility") && grepl("more than half", conditionMessage(e))) {
            msgs <<- c(msgs, conditionMessage(e))
          }
          invokeRestart("muffleWarning")
        })
      expect_length(msgs, 1L)                   # said once, after the division
      expect_false(r$scale_factor == 1)
      law <- dpfda:::noise_law(r)
      l2 <- sqrt(sum(law$weights * law$var))
      expect_match(msgs, sprintf("expected L2 error %s)", format(l2, digits = 3)), fixed = TRUE)
    }
  }
})

test_that("incomplete = \"drop\": a release holds no exact count of the incomplete individuals", {
  # Two data sets of the same N that differ only in how many individuals are incomplete (3 or 9),
  # released under one seed: every field but the noisy ones must be the same. An exact count of the
  # incomplete individuals (dp_cov() stored one as `incomplete_n`) gives N minus it, the count of
  # the complete ones that the noisy `n_complete` is bought to hide.
  set.seed(1)
  t <- seq(0, 1, length.out = 10)
  X <- outer(rnorm(40), sin(pi * t)) + 0.5
  X1 <- X
  X1[1:3, 10] <- NA
  X2 <- X
  X2[1:9, 10] <- NA
  leaves <- function(r) {
    u <- unlist(unclass(r)[setdiff(names(r), "call")])
    u[!vapply(u, is.function, TRUE)]
  }
  noisy <- c("values.values", "coefficients", "scale_factor", "n_complete", "mean_release.values.values",
             "mean_release.coefficients")
  for (f in c("mean", "cov")) {
    rel <- function(Z) {
      with_seed_mode(3, suppressWarnings(if (f == "mean") {
        dp_mean(Z, grid = t, na.rm = TRUE, epsilon = 1, tau = 2, center = 0.5, incomplete = "drop")
      } else {
        dp_cov(Z, grid = t, na.rm = TRUE, epsilon = 1, tau = 2, center = 0.5, incomplete = "drop", J = 4)
      }))
    }
    a <- leaves(rel(X1))
    b <- leaves(rel(X2))
    nm <- union(names(a), names(b))
    differ <- unique(sub("[0-9]+$", "", nm[!vapply(nm, function(k) identical(a[k], b[k]), TRUE)]))
    expect_true(all(differ %in% noisy), info = paste(f, ":", paste(setdiff(differ, noisy), collapse = ", ")))
    expect_true("n_complete" %in% differ, info = f)   # (the test sees a difference where there is one)
  }
})
