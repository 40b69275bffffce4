# Regularised ERM with ICLP noise (R/mech-iclp-erm.R; Lin and Reimherr,
# Theorem 18; spec lin_iclp.md section 4.5).

erm_fit <- function(x, y, g, loss, psi, eta, y_bound = NULL) {
  # the noiseless fit: a release with a vanishing noise would still be noisy,
  # so solve with the package's internals on the same basis
  b <- kl_basis(kernel_matern(3 / 2, 0.1), g)
  idx <- dpfda:::nearest_grid_point(cbind(pmin(pmax(x, 0), 1)), cbind(g))
  yy <- if (is.null(y_bound)) y else pmin(pmax(y, -y_bound), y_bound)
  list(c = dpfda:::erm_solve(b$vectors[idx, , drop = FALSE], yy, psi, 1 / b$values^eta, loss), b = b)
}

test_that("dp_erm solves the regularised problem exactly and reports Theorem 18's sensitivity", {
  g <- seq(0, 1, length.out = 41)
  x <- seq(0.01, 0.99, length.out = 60)
  y <- sin(2 * pi * x)
  r <- with_seed_mode(1, dp_erm(x, y, 1, psi = 0.01, grid = g, eta = 2, y_bound = 2))
  f <- erm_fit(x, y, g, "square", 0.01, 2, 2)
  b <- f$b
  # first-order condition of (1/n) sum (f(x_i) - y_i)^2 + psi sum c_j^2 / lambda_j^eta
  idx <- dpfda:::nearest_grid_point(cbind(x), cbind(g))
  Phi <- b$vectors[idx, ]
  grad <- 2 * crossprod(Phi, Phi %*% f$c - y) / 60 + 2 * 0.01 * f$c / b$values^2
  expect_lt(max(abs(grad)), 1e-10)
  kappa <- sqrt(max(b$vectors^2 %*% b$values^2))
  M <- 2 * (2 + kappa * 2 / sqrt(0.01))
  expect_equal(r$params$kappa, kappa)
  expect_equal(r$sensitivity, M * kappa / (60 * 0.01) * sqrt(sum(b$values)), tolerance = 1e-12)
  expect_equal(r$noise_scale, sqrt(2) * r$sensitivity)
  # logistic: Newton reaches the minimiser
  lab <- ifelse(x > 0.5, 1, -1)
  fl <- erm_fit(x, lab, g, "logistic", 0.01, 2)
  p <- 1 / (1 + exp(lab * as.vector(Phi %*% fl$c)))
  gl <- -crossprod(Phi, lab * p) / 60 + 2 * 0.01 * fl$c / b$values^2
  expect_lt(max(abs(gl)), 1e-9)
  rl <- dp_erm(x, lab, 1, psi = 0.01, grid = g, eta = 2, loss = "logistic")
  expect_equal(rl$params$M, 1)
  expect_null(rl$x)
  expect_false(any(vapply(rl, function(v) identical(v, y), NA)))
})

test_that("ERM sensitivity holds by brute force on random and extreme neighbours", {
  g <- seq(0, 1, length.out = 31)
  worst <- c(square = 0, logistic = 0)
  for (trial in 1:25) {
    set.seed(trial)
    n <- 30
    x <- runif(n)
    y <- sin(2 * pi * x) + rnorm(n, sd = 0.5)
    lab <- ifelse(runif(n) < plogis(4 * (x - 0.5)), 1, -1)
    # replace record 1 by an extreme one: an end of the domain with the largest response
    x2 <- x
    x2[1] <- if (trial %% 2) 0 else runif(1)
    y2 <- y
    y2[1] <- if (trial %% 2) -2 * sign(y[1]) else rnorm(1)
    lab2 <- lab
    lab2[1] <- -lab[1]
    for (loss in names(worst)) {
      yy <- if (loss == "square") list(y, y2) else list(lab, lab2)
      yb <- if (loss == "square") 2 else NULL
      r <- dp_erm(x, yy[[1]], 1, psi = 0.05, grid = g, eta = 1.75, y_bound = yb, loss = loss)
      f1 <- erm_fit(x, yy[[1]], g, loss, 0.05, 1.75, yb)
      f2 <- erm_fit(x2, yy[[2]], g, loss, 0.05, 1.75, yb)
      iclp_norm <- sum(abs(f1$c - f2$c) / sqrt(f1$b$values))
      worst[[loss]] <- max(worst[[loss]], iclp_norm / r$sensitivity)
    }
  }
  expect_lte(max(worst), 1)
  expect_gt(min(worst), 1e-3)   # the neighbours do move the fit
})

test_that("the ERM release is pure epsilon-DP: exact Laplace loss on neighbours, 0.7x noise fails", {
  g <- seq(0, 1, length.out = 25)
  x <- c(rep(0, 10), rep(1, 10))
  y <- c(rep(2, 10), rep(-2, 10))
  x2 <- x
  y2 <- y
  x2[1] <- 1
  y2[1] <- -2
  r <- dp_erm(x, y, 0.5, psi = 0.02, grid = g, eta = 2, y_bound = 2)
  f1 <- erm_fit(x, y, g, "square", 0.02, 2, 2)
  f2 <- erm_fit(x2, y2, g, "square", 0.02, 2, 2)
  b <- r$noise_scale * sqrt(f1$b$values / 2)        # Laplace scales of the coefficients
  loss <- sum(abs(f1$c - f2$c) / b)
  expect_lte(loss, 0.5 + 1e-12)
  # the same pair at the bound's scale: a noise scale below the bound's would break it
  expect_gt(sum(abs(f1$c - f2$c) / (0.7 * r$noise_scale * sqrt(f1$b$values / 2))),
            loss / 0.7 - 1e-12)
  # seeded releases: the coefficient noise has the calibrated Laplace scale
  rs <- with_seed_mode(5, lapply(1:400, function(i) dp_erm(x, y, 0.5, psi = 0.02, grid = g, eta = 2,
                                                           y_bound = 2)$coefficients))
  Z <- (do.call(rbind, rs) - rep(f1$c, each = 400)) / rep(r$noise_scale * sqrt(f1$b$values), each = 400)
  z <- as.vector(Z[, 1:5])
  expect_gt(suppressWarnings(ks.test(z, function(q) ifelse(q < 0, 0.5 * exp(sqrt(2) * q),
                                                        1 - 0.5 * exp(-sqrt(2) * q)))$p.value), 1e-3)
  expect_lt(suppressWarnings(ks.test(z / 0.7, function(q) ifelse(q < 0, 0.5 * exp(sqrt(2) * q),
                                                              1 - 0.5 * exp(-sqrt(2) * q)))$p.value), 1e-3)
})

test_that("bad dp_erm inputs give classed errors naming the argument", {
  g <- seq(0, 1, length.out = 11)
  x <- runif(10)
  y <- rnorm(10)
  err <- function(expr, arg, class = "dpfda_error_argument") {
    e <- expect_error(expr, class = class)
    expect_identical(e$arg, arg)
  }
  err(dp_erm(x, y, 1, 0.1, g), "y_bound")
  err(dp_erm(x, y[-1], 1, 0.1, g, y_bound = 1), "y")
  err(dp_erm(x, y, 1, 0.1, g, loss = "logistic"), "y")
  err(dp_erm(x, sign(y), 1, 0.1, g, loss = "logistic", y_bound = 1), "y_bound")
  err(dp_erm(x, y, 1, -1, g, y_bound = 1), "psi")
  err(dp_erm(x, y, 1, 0.1, g, loss = "hinge", y_bound = 1), "loss")
  err(dp_erm(x, y, 1, 0.1, g, eta = 0, y_bound = 1), "eta")
  err(dp_erm(cbind(x, x), y, 1, 0.1, g, y_bound = 1), "x")
  expect_error(dp_erm(x, y, 0, 0.1, g, y_bound = 1), class = "dpfda_error_privacy")
})

test_that("y_bound = c(lower, upper) centres the responses at its midpoint; labels as dp_svm() takes them", {
  g <- seq(0, 1, length.out = 41)
  x <- seq(0.01, 0.99, length.out = 60)
  y <- 120 + 30 * sin(2 * pi * x)
  y[c(3, 40)] <- c(60, 200)   # beyond the bounds: clamped
  fit <- function(y, yb, seed = 2, ...) with_seed_mode(seed, dp_erm(x, y, 1, psi = 0.01, grid = g, eta = 2,
                                                                    y_bound = yb, ...))
  r <- fit(y, c(80, 160))
  # = the fit of the centred, clamped responses with B = 40, plus the midpoint 120 (post-processing)
  r0 <- fit(pmin(pmax(y, 80), 160) - 120, 40)
  expect_equal(r$values$values, r0$values$values + 120, tolerance = 1e-12)
  expect_identical(r$sensitivity, r0$sensitivity)
  expect_equal(predict(r, c(0.3, 0.7)), predict(r0, c(0.3, 0.7)) + 120, tolerance = 1e-12)
  expect_equal(predict(r, g), as.vector(r$values$values), tolerance = 1e-9)
  expect_output(print(r), "responses clamped to [80, 160] and centred at 120 (added back)", fixed = TRUE)
  # B is c(-B, B): the same release, to the bit
  expect_identical(fit(y / 100, 1.5)$values, fit(y / 100, c(-1.5, 1.5))$values)
  # without the centring, the bound B = 160 would give 4x the sensitivity
  expect_gt(fit(y, 160)$sensitivity, 3.9 * r$sensitivity)
  for (bad in list(c(2, 1), c(0, Inf), c(NA, 1), c(1, 2, 3), -1, "a")) {
    expect_error(fit(y, bad), class = "dpfda_error_argument")
  }
  # logistic labels: +-1, 0/1, logical and a two-level factor give the same release
  lab <- ifelse(x > 0.5, 1, -1)
  lf <- function(l) fit(l, NULL, loss = "logistic")$values
  ref <- lf(lab)
  expect_identical(lf((lab + 1) / 2), ref)
  expect_identical(lf(lab > 0), ref)
  expect_identical(lf(factor(lab, labels = c("no", "yes"))), ref)
  expect_error(lf(c(lab[-1], 2)), class = "dpfda_error_argument")
})

test_that("a KRR or ERM release that is mostly noise gets the utility warning", {
  mc <- data.frame(t = seq(2, 58, length.out = 133), a = 40 * sin(seq(2, 58, length.out = 133) / 6))
  old <- options(dpfda.utility_warning = TRUE)   # (off in the suite: helper-uncertainty.R)
  on.exit(options(old))
  # (MASS::mcycle's setting with a kernel of variance 2500: noise sd 8e7 against outputs of size 150)
  expect_warning(with_seed_mode(1, dp_krr(a ~ t, data = mc, lambda = 0.05, kernel = kernel_gaussian(3, 2500),
                                          grid = seq(0, 60, 1), y_bound = c(-150, 100), epsilon = 1, delta = 1e-5)),
                 class = "dpfda_warning_utility")
  expect_no_warning(with_seed_mode(1, dp_krr(a ~ t, data = mc, lambda = 1, kernel = kernel_gaussian(3),
                                             grid = seq(0, 60, 1), y_bound = c(-50, 50), epsilon = 1, delta = 1e-5)))
  expect_warning(with_seed_mode(1, dp_erm(a ~ t, data = mc, psi = 1e-4, grid = seq(0, 60, 1), y_bound = c(-150, 100),
                                          epsilon = 0.1)), class = "dpfda_warning_utility")
})

test_that("predict() of a logistic release: link, probability and classes in the labels' own terms", {
  # (it had only the score: `type` was "not an option of predict()", and dp_svm()'s classes were -1/+1
  # whatever the labels)
  set.seed(41)
  x <- runif(400)
  lab <- factor(ifelse(x + rnorm(400, 0, 0.2) > 0.5, "case", "control"), levels = c("control", "case"))
  g <- seq(0, 1, length.out = 21)
  r <- with_seed_mode(42, dp_erm(x, lab, epsilon = 1, psi = 0.01, grid = g, loss = "logistic"))
  expect_identical(r$classes, c("control", "case"))
  f <- predict(r, c(0.1, 0.9))
  expect_identical(predict(r, c(0.1, 0.9), type = "link"), f)
  expect_equal(predict(r, c(0.1, 0.9), type = "response"), stats::plogis(f))
  cl <- predict(r, c(0.1, 0.9), type = "class")
  expect_identical(cl, factor(ifelse(f >= 0, "case", "control"), levels = c("control", "case")))
  # logical labels give TRUE/FALSE, numeric ones -1/+1 (their coding is not kept: it is read off the data)
  rl <- with_seed_mode(42, dp_erm(x, lab == "case", epsilon = 1, psi = 0.01, grid = g, loss = "logistic"))
  expect_identical(predict(rl, c(0.1, 0.9), type = "class"), f >= 0)
  rn <- with_seed_mode(42, dp_erm(x, as.integer(lab == "case"), epsilon = 1, psi = 0.01, grid = g, loss = "logistic"))
  expect_null(rn$classes)
  expect_identical(predict(rn, c(0.1, 0.9), type = "class"), ifelse(f >= 0, 1L, -1L))
  # the square loss has no classes
  rs <- with_seed_mode(43, dp_erm(x, x + rnorm(400, 0, 0.1), epsilon = 1, psi = 0.01, grid = g, y_bound = 2))
  expect_identical(predict(rs, 0.5, type = "response"), predict(rs, 0.5))
  expect_error(predict(rs, 0.5, type = "class"), "is for the logistic loss", class = "dpfda_error_argument")
  expect_error(predict(r, 0.5, type = "prob"), class = "dpfda_error_argument")
  # dp_svm() likewise: a factor's levels
  xs <- cbind(x, runif(400))
  rsvm <- with_seed_mode(44, dp_svm(xs, lab, lambda = 0.05, kernel = kernel_gaussian(0.3), grid = xs[1:5, ],
                                    epsilon = 1, delta = 1e-5))
  expect_identical(predict(rsvm, type = "class"),
                   factor(ifelse(predict(rsvm) >= 0, "case", "control"), levels = c("control", "case")))
})
