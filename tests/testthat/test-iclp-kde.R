# Pure-DP KDE with the ICLP and FRL mechanisms (R/mech-iclp-kde.R; spec
# lin_iclp.md section 4.4, Theorem 16).

kde_coef <- function(r, pts) {
  b <- r$basis
  axes <- if (is.null(dim(b$grid))) list(b$grid) else dpfda:::tensor_axes(b$grid)
  p <- dpfda:::iclp_kde_bin(as.matrix(pts), axes)
  r$params$normaliser * b$values^r$params$eta * as.vector(crossprod(b$vectors, p)) / nrow(as.matrix(pts))
}

# ICLP norm (sum |h_j| / sqrt(lambda_j)) or l1 norm of the first M coefficients
kde_norm <- function(r, h) {
  if (r$mechanism == "kde-iclp") sum(abs(h) / sqrt(r$basis$values)) else sum(abs(h[seq_len(r$params$M)]))
}

# worst-case pair of grid points for the exact sensitivity
worst_pair <- function(r) {
  V <- r$basis$vectors
  lam <- r$basis$values
  eta <- r$params$eta
  g <- if (r$mechanism == "kde-iclp") lam^(eta - 0.5) else c(lam[seq_len(r$params$M)]^eta,
                                                            rep(0, length(lam) - r$params$M))
  best <- c(0, 1, 1)
  for (k in seq_len(nrow(V))) {
    s <- abs(V - rep(V[k, ], each = nrow(V))) %*% g
    if (max(s) > best[1]) best <- c(max(s), k, which.max(s))
  }
  best[2:3]
}

test_that("the ICLP / FRL KDE sensitivities bound random neighbours and are attained (1-D, 2-D)", {
  with_seed_mode(1, {
    g1 <- seq(0, 1, length.out = 41)
    g2 <- list(seq(0, 1, length.out = 9), seq(0, 1, length.out = 8))
    cases <- list(
      list(grid = g1, d = 1, mech = "iclp", bw = 0.08), list(grid = g1, d = 1, mech = "frl", bw = 0.08),
      list(grid = g2, d = 2, mech = "iclp", bw = 0.3), list(grid = g2, d = 2, mech = "frl", bw = 0.3))
    for (cs in cases) {
      n <- 30
      x <- matrix(runif(n * cs$d), n)
      r <- dp_kde(if (cs$d == 1) x[, 1] else x, cs$grid, cs$bw, epsilon = 1, mechanism = cs$mech)
      expect_equal(r$params$sensitivity_method, "exact")
      b <- r$basis
      bounds <- vapply(c("exact", "triangle", if (cs$mech == "iclp") "theorem16"), function(m)
        dpfda:::iclp_kde_sensitivity(b, r$params$eta, n, r$params$normaliser, cs$mech, r$params$M, m), 0)
      expect_equal(unname(bounds[1]), r$sensitivity)
      expect_true(all(diff(bounds) >= -1e-12))   # exact <= triangle <= theorem 16
      a <- kde_coef(r, x)
      obs <- vapply(1:300, function(i) {
        x2 <- x
        x2[sample.int(n, 1), ] <- runif(cs$d, -0.2, 1.2)   # outside points are clamped
        x2 <- pmin(pmax(x2, 0), 1)
        kde_norm(r, a - kde_coef(r, x2))
      }, 0)
      expect_lte(max(obs), r$sensitivity * (1 + 1e-10))
      # attained by moving one record between the worst pair of grid points
      pts <- dpfda:::as_points(b$grid, "grid")
      kl <- worst_pair(r)
      x3 <- x4 <- x
      x3[1, ] <- pts[kl[1], ]
      x4[1, ] <- pts[kl[2], ]
      expect_equal(kde_norm(r, kde_coef(r, x3) - kde_coef(r, x4)), r$sensitivity, tolerance = 1e-10)
    }
  })
})

test_that("the privacy loss of the coefficient release is at most epsilon and attained", {
  with_seed_mode(2, {
    g <- seq(0, 1, length.out = 51)
    for (mech in c("iclp", "frl")) {
      n <- 50
      x <- runif(n)
      eps <- 0.7
      r <- dp_kde(x, g, 0.06, epsilon = eps, mechanism = mech)
      lam <- r$basis$values
      J <- if (mech == "iclp") length(lam) else r$params$M
      # Laplace scale of coefficient j
      bj <- if (mech == "iclp") r$noise_scale * sqrt(lam / 2) else rep(r$noise_scale, J)
      if (mech == "iclp") expect_equal(r$noise_scale, sqrt(2) * r$sensitivity / eps)
      else expect_equal(r$noise_scale, r$sensitivity / eps)
      kl <- worst_pair(r)
      x1 <- x2 <- x
      x1[1] <- g[kl[1]]
      x2[1] <- g[kl[2]]
      f1 <- kde_coef(r, x1)[seq_len(J)]
      f2 <- kde_coef(r, x2)[seq_len(J)]
      loss <- function(y) sum((abs(y - f2) - abs(y - f1)) / bj)
      ys <- replicate(2000, f1 + bj * (rexp(J) - rexp(J)) * 3)
      expect_lte(max(apply(ys, 2, loss)), eps + 1e-9)
      yw <- f1 + max(bj) * sign(f1 - f2)
      expect_equal(loss(yw), eps, tolerance = 1e-8)
    }
  })
})

test_that("the release is the projected KDE: exact without noise, Nystrom at grid points", {
  with_seed_mode(3, {
    g <- seq(0, 1, length.out = 31)
    xs <- g[c(5, 12, 12, 16, 20, 28)]            # data on grid points: binning is exact
    k <- kernel_exponential(1)
    # the noiseless limit (no privacy claimed): the float-tail guard is switched off (?float_tails)
    expect_warning(r <- dpfda:::without_float_tail_check(
                     dp_kde(xs, g, 0.2, epsilon = 1e12, mechanism = "iclp", kernel = k, eta = 1)),
                   class = "dpfda_warning_iclp")   # eta = 1 <= 1 + 1/(2h): allowed, flagged
    expect_equal(r$basis$J, 31L)                 # all eigenpairs kept: K = C on the grid
    direct <- r$params$normaliser * colMeans(kernel_matrix(kernel_exponential(0.2), xs, g))
    expect_equal(predict(r), direct, tolerance = 1e-8)
    expect_equal(predict(r, g), predict(r), tolerance = 1e-10)
    off <- c(0.013, 0.5, 0.977)
    expect_equal(predict(r, off),
                 as.vector(predict(r$basis, off) %*% r$coefficients))
    # coefficients are those of the released values
    expect_equal(as.vector(crossprod(r$basis$vectors, r$basis$weights * predict(r))), r$coefficients,
                 tolerance = 1e-10)
    # FRL: values lie in the span of the first M eigenvectors
    rf <- dp_kde(runif(40), g, 0.1, epsilon = 1, mechanism = "frl", M = 4)
    expect_equal(rf$params$M, 4L)
    expect_lt(max(abs(rf$coefficients[-(1:4)])), 1e-10)
  })
})

test_that("linear binning preserves mass and means; densities integrate to one", {
  with_seed_mode(4, {
    g <- seq(0, 1, length.out = 21)
    x <- runif(100)
    p <- dpfda:::iclp_kde_bin(matrix(x), list(g))
    expect_equal(sum(p), 100)
    expect_equal(sum(p * g), sum(x))
    ax <- list(seq(0, 1, length.out = 6), seq(0, 2, length.out = 5))
    x2 <- cbind(runif(50), runif(50, 0, 2))
    p2 <- dpfda:::iclp_kde_bin(x2, ax)
    pts <- as.matrix(expand.grid(ax))
    expect_equal(sum(p2), 50)
    expect_equal(colSums(p2 * pts), colSums(x2), ignore_attr = TRUE)
    # the normaliser makes the kernel at the centre integrate to one
    r <- dpfda:::without_float_tail_check(dp_kde(rep(0.5, 10), g, 0.05, epsilon = 1e12, mechanism = "iclp"))
    expect_equal(integrate_curves(r$values), 1, tolerance = 1e-6)
    r2 <- dp_kde(x, g, 0.05, epsilon = 1, mechanism = "iclp")
    expect_equal(integrate_curves(as_density(r2)), 1)
    r3 <- dp_kde(x2, list(seq(0, 1, length.out = 12), seq(0, 2, length.out = 12)), 0.3, epsilon = 1,
                 mechanism = "frl", domain = rbind(c(0, 0), c(1, 2)))
    expect_equal(integrate_curves(as_density(r3)), 1)
  })
})

test_that("ICLP / FRL KDE releases are pure DP and hold no data", {
  with_seed_mode(5, {
    x <- c(0.123456789, 0.87654321, 0.5555555, 0.3141592)
    r <- dp_kde(x, seq(0, 1, length.out = 21), 0.1, epsilon = 1, mechanism = "iclp")
    r0 <- dp_kde(x, seq(0, 1, length.out = 21), 0.1, epsilon = 1, delta = 0, mechanism = "frl")
    for (rr in list(r, r0)) {
      expect_s3_class(rr, "dpfda_iclp_kde_release")
      expect_s3_class(rr, "dpfda_release")
      expect_identical(rr$delta, 0)
      expect_silent(validate_dpfda_release(rr))
      num <- unlist(lapply(unclass(rr), function(f) if (is.list(f)) unlist(f) else f))
      num <- suppressWarnings(as.numeric(num[vapply(num, is.numeric, NA)]))
      expect_false(any(vapply(x, function(v) any(abs(num - v) < 1e-12, na.rm = TRUE), NA)))
      expect_output(print(rr), "KDE of 4 points")
    }
    r2 <- dp_kde(c(0.11, 0.22), seq(0, 1, length.out = 11), 0.1, epsilon = 1, mechanism = "iclp")
    expect_false(grepl("0.11", paste(deparse(r2$call), collapse = "")))
    expect_identical(dp_kde(x, seq(0, 1, length.out = 21), 0.1, epsilon = 1, delta = 1e-5,
                            mechanism = "iclp")$delta, 0)
  })
})

test_that("bad ICLP / FRL KDE inputs give classed errors naming the argument", {
  g <- seq(0, 1, length.out = 11)
  x <- runif(10)
  err <- function(expr, arg, class = "dpfda_error_argument") {
    e <- expect_error(expr, class = class)
    expect_identical(e$arg, arg)
  }
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", foo = 1), "foo")
  err(dp_kde(x, g, 0.1, 1, 0, "iclp", NULL, "analytic", NULL, NULL, 20, 3, 7), "...")
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", eta = -1), "eta")
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", J = 0), "J")
  err(dp_kde(x, g, 0.1, 1, mechanism = "frl", M = 1.5), "M")
  err(dp_kde(x, g, 0.1, 1, mechanism = "frl", sensitivity_method = "theorem16"), "sensitivity_method")
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", sensitivity_method = "x"), "sensitivity_method")
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", kernel = "gaussian"), "kernel")
  err(dp_kde(x, g, 0.1, 1, delta = 1.5, mechanism = "iclp"), "delta", "dpfda_error_privacy")
  err(dp_kde(x, g, 0.1, 1, delta = -1, mechanism = "frl"), "delta", "dpfda_error_privacy")
  err(dp_kde(cbind(x, x), list(g, g), matrix(c(0.01, 0.005, 0.005, 0.04), 2), 1, mechanism = "iclp"), "bandwidth")
  err(dp_kde(cbind(x, x), cbind(runif(5), runif(5)), 0.1, 1, mechanism = "iclp"), "grid")
  err(dp_kde(cbind(x, x), g, 0.1, 1, mechanism = "iclp"), "x")
  expect_warning(dp_kde(x, g, 0.1, 1, mechanism = "iclp", kernel = kernel_matern(1.5, 1), eta = 1.1),
                 class = "dpfda_warning_iclp")
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", counts = rep(1.5, 10)), "counts")
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", counts = rep(1, 9)), "counts")
  err(dp_kde(x, g, 0.1, 1, mechanism = "frl", counts = c(-1, rep(1, 9))), "counts")
  err(dp_kde(x, g, 0.1, 1, mechanism = "frl", counts = rep(0, 10)), "counts")
  err(dp_kde(x, g, 0.1, 1, mechanism = "frl", counts = c(NA, rep(1, 9))), "counts")
  # (more records than a sensitivity can count was refused as a bad `n`, an argument not given)
  err(dp_kde(x, g, 0.1, 1, mechanism = "bernstein", counts = c(1e15, rep(1, 9))), "counts")
  err(dp_kde(x, g, 0.1, 1, mechanism = "iclp", counts = c(1e15, rep(1, 9))), "counts")
})

test_that("frequency counts give exactly the release of the repeated data", {
  g <- seq(0, 1, length.out = 41)
  ages <- seq(0, 1, by = 0.05)
  cnt <- c(0, rpois(length(ages) - 1, 30))
  for (mech in c("iclp", "frl")) {
    a <- with_seed_mode(7, dp_kde(ages, g, 0.08, epsilon = 1, mechanism = mech, domain = c(0, 1),
                                  counts = cnt))
    b <- with_seed_mode(7, dp_kde(rep(ages, cnt), g, 0.08, epsilon = 1, mechanism = mech,
                                  domain = c(0, 1)))
    expect_equal(a$n, sum(cnt))
    expect_equal(a$sensitivity, b$sensitivity, tolerance = 1e-12)
    expect_equal(a$values$values, b$values$values, tolerance = 1e-10)
  }
})

test_that("frequency counts with the kernel mechanisms: the release of the repeated data, n = records", {
  # (counts were an option of "iclp" and "frl" only)
  g <- seq(0, 1, length.out = 41)
  ages <- seq(0, 1, by = 0.05)
  set.seed(11)
  cnt <- c(0, rpois(length(ages) - 1, 30))
  for (mech in c("gp", "sobolev", "bernstein")) {
    dl <- if (mech == "bernstein") 0 else 1e-5
    a <- with_seed_mode(7, dp_kde(ages, g, 0.08, epsilon = 1, delta = dl, mechanism = mech, domain = c(0, 1),
                                  counts = cnt))
    b <- with_seed_mode(7, dp_kde(rep(ages, cnt), g, 0.08, epsilon = 1, delta = dl, mechanism = mech,
                                  domain = c(0, 1)))
    expect_equal(a$n, sum(cnt), info = mech)
    expect_identical(a$privacy_unit, sprintf("one record (%d)", sum(cnt)), info = mech)
    # the sensitivity (and so the noise) is that of sum(cnt) records, not of the 21 points
    expect_equal(a$sensitivity, b$sensitivity, tolerance = 1e-12, info = mech)
    expect_equal(a$noise_scale, b$noise_scale, tolerance = 1e-12, info = mech)
    expect_equal(a$values$values, b$values$values, tolerance = 1e-6, info = mech)
  }
  # a data frame's row with a missing point is refused, with its count (the count of records would tell)
  d <- data.frame(age = c(ages, NA))
  expect_error(dp_kde(d, g, 0.08, epsilon = 1, delta = 1e-5, domain = c(0, 1), counts = c(cnt, 1000)),
               "^1 of the 22 rows read from `x` holds", class = "dpfda_error_data")
  expect_error(dp_kde(ages, g, 0.08, epsilon = 1, delta = 1e-5, counts = cnt, binned = FALSE),
               class = "dpfda_error_argument", regexp = "binned")
  expect_error(dp_kde(ages, g, 0.08, epsilon = 1, delta = 1e-5, counts = cnt, unit = seq_along(ages)),
               class = "dpfda_error_argument", regexp = "not both")
  expect_error(dp_kde(ages, g, 0.08, epsilon = 1, delta = 1e-5, counts = cnt[-1]), class = "dpfda_error_argument",
               regexp = "counts")
  # in two dimensions (it was refused): the exact kernel sums times the counts
  P <- cbind(ages, rev(ages))
  a2 <- with_seed_mode(7, dp_kde(P, list(g[1:11], g[1:11]), 0.1, epsilon = 1, delta = 1e-5, counts = cnt,
                                 domain = list(c(0, 1), c(0, 1))))
  b2 <- with_seed_mode(7, dp_kde(P[rep(seq_along(ages), cnt), ], list(g[1:11], g[1:11]), 0.1, epsilon = 1,
                                 delta = 1e-5, domain = list(c(0, 1), c(0, 1))))
  expect_equal(a2$values$values, b2$values$values, tolerance = 1e-10)
  expect_identical(a2$privacy_unit, sprintf("one record (%d)", sum(cnt)))
  # a frequency table: the counts as a column (string or bare name), the other column the points
  tab <- data.frame(age = ages, deaths = cnt)
  for (mech in c("gp", "iclp")) {
    dl <- if (mech == "gp") 1e-5 else 0
    a <- with_seed_mode(7, dp_kde(ages, g, 0.08, epsilon = 1, delta = dl, mechanism = mech, domain = c(0, 1),
                                  counts = cnt))
    b <- with_seed_mode(7, dp_kde(tab, g, 0.08, epsilon = 1, delta = dl, mechanism = mech, domain = c(0, 1),
                                  counts = deaths))
    b2 <- with_seed_mode(7, dp_kde(tab, g, 0.08, epsilon = 1, delta = dl, mechanism = mech, domain = c(0, 1),
                                   counts = "deaths"))
    expect_equal(b$values$values, a$values$values, info = mech)
    expect_equal(b2$values$values, a$values$values, info = mech)
    expect_identical(b$values$arg_name, "age")
  }
  expect_output(print(b), sprintf("KDE of %d records", sum(cnt)))
  expect_error(dp_kde(tab, g, 0.08, epsilon = 1, delta = 1e-5, counts = deats), class = "dpfda_error_argument",
               regexp = "\"deats\"")
  expect_error(dp_kde(ages, g, 0.08, epsilon = 1, delta = 1e-5, counts = "deaths"), class = "dpfda_error_argument",
               regexp = "data frame")
  expect_error(dp_kde(tab, g, 0.08, epsilon = 1, delta = 1e-5, counts = deaths, columns = c("deaths")),
               class = "dpfda_error_argument", regexp = "column of their own")
})

test_that("summarise_kde() refuses counts that are also a point column, in any dimension", {
  d <- data.frame(a = c(0.1, 0.5, 0.9), b = c(0.2, 0.4, 0.6), n = c(2, 1, 3))
  g2 <- as.matrix(expand.grid(seq(0, 1, length.out = 4), seq(0, 1, length.out = 4)))
  for (m in c("gp", "iclp")) {
    expect_error(summarise_kde(d, g2, 0.2, domain = rbind(c(0, 0), c(1, 1)), columns = c("a", "n"), counts = "n",
                               mechanism = m), class = "dpfda_error_argument", regexp = "column of their own")
  }
  expect_error(summarise_kde(d, seq(0, 1, 0.25), 0.2, domain = c(0, 1), columns = "n", counts = n),
               class = "dpfda_error_argument", regexp = "column of their own")
  # (a separate counts column is still taken)
  expect_s3_class(summarise_kde(d, g2, 0.2, domain = rbind(c(0, 0), c(1, 1)), columns = c("a", "b"), counts = "n"),
                  "dpfda_summary")
})

# ---- dp_cov(): covariance by reduction to a mean (Appendix C.1; R/mech-iclp-cov.R)

test_that("dp_cov() sensitivity bounds random neighbours; privacy loss attained; symmetric release", {
  with_seed_mode(8, {
    t <- seq(0, 1, length.out = 12)
    n <- 20
    X <- outer(rnorm(n), sin(pi * t)) + outer(rnorm(n), cos(pi * t))
    k <- kernel_matern(1.5, 0.3)
    for (cen in c(FALSE, TRUE)) {
      r <- dp_cov(curves(X, t), epsilon = 1, tau = 1, kernel = k, centered = cen)
      b <- r$basis
      lam2 <- as.vector(outer(b$values, b$values))
      s <- dpfda:::qr_shrink(lam2, r$params$eta, r$params$psi)
      expect_equal(r$sensitivity, (if (cen) 6 else 2) / n * sqrt(sum(s$g^2)))
      expect_equal(r$noise_scale, sqrt(2) * r$sensitivity)
      summ <- function(Y) {
        A <- dpfda:::kl_coef(b, dpfda:::clip_curves_l2(Y, b$weights, 1))
        S <- crossprod(A) / n
        if (cen) S <- S - tcrossprod(colMeans(A))
        s$s * as.vector(S)
      }
      f1 <- summ(X)
      obs <- vapply(1:200, function(i) {
        Y <- X
        Y[sample.int(n, 1), ] <- rnorm(1, 0, 3) * sin(runif(1, 1, 6) * t) + rnorm(12)
        sum(abs(f1 - summ(Y)) / sqrt(lam2))
      }, 0)
      expect_lte(max(obs), r$sensitivity)
      # exact privacy loss of the coefficient release on an observed pair
      Y <- X
      Y[1, ] <- -3 * X[1, ]
      f2 <- summ(Y)
      bj <- r$noise_scale * sqrt(lam2 / 2)
      loss <- function(y) sum((abs(y - f2) - abs(y - f1)) / bj)
      yw <- f1 + bj * sign(f1 - f2)
      expect_equal(loss(yw), sum(abs(f1 - f2) / sqrt(lam2)) * sqrt(2) / r$noise_scale)
      expect_lte(loss(yw), 1 + 1e-12)
      ys <- replicate(500, f1 + bj * (rexp(length(f1)) - rexp(length(f1))) * 3)
      expect_lte(max(apply(ys, 2, loss)), 1 + 1e-12)
      M <- matrix(predict(r), 12, 12)
      expect_equal(M, t(M))
      expect_equal(predict(r, cbind(t[3], t[7])), M[3, 7], tolerance = 1e-10)
      expect_silent(validate_dpfda_release(r))
    }
  })
})

test_that("dp_cov() without noise is the projected (shrunk) covariance; bad inputs are classed", {
  with_seed_mode(9, {
    t <- seq(0, 1, length.out = 10)
    X <- outer(rnorm(30), sin(pi * t)) / 3
    r <- dpfda:::without_float_tail_check(
      dp_cov(curves(X, t), epsilon = 1e13, tau = 10, kernel = kernel_exponential(1), psi = 1e-14, eta = 1))
    expect_equal(r$basis$J, 10L)
    emp <- crossprod(sweep(X, 2, colMeans(X))) / 30
    expect_equal(matrix(predict(r), 10, 10), emp, tolerance = 1e-6)
  })
  x <- curves(matrix(rnorm(20), 4), seq(0, 1, length.out = 5))
  expect_error(dp_cov(x, 1, -1), class = "dpfda_error_argument")
  expect_error(dp_cov(x, 1, 1, centered = NA), class = "dpfda_error_argument")
  expect_error(dp_cov(x, 1, 1, psi = 0), class = "dpfda_error_argument")
  expect_error(dp_cov(curves(1:4, cbind(c(0, 1, 0, 1), c(0, 0, 1, 1))), 1, 1), class = "dpfda_error_argument")
  expect_error(dp_cov(curves(matrix(1, 2, 200)), 1, 1, kernel = kernel_matern(1.5, 0.01), J = 100),
               class = "dpfda_error_numeric")
})

test_that("a bandwidth per axis with the default 2-D kernel: one lengthscale per axis; a correlated one names the way out", {
  q <- quakes[1:200, c("long", "lat")]
  dom <- list(long = c(160, 190), lat = c(-40, -10))
  H <- matrix(c(1, 0.3, 0.3, 0.25), 2)
  for (mech in c("iclp", "frl")) {
    # (before: refused, as the exponential kernel took one lengthscale only)
    r <- with_seed_mode(2, dp_kde(q, epsilon = 1, domain = dom, bandwidth = c(1, 0.5), mechanism = mech))
    expect_equal(r$basis$kernel$lengthscale, c(1, 0.5))
    expect_identical(r$basis$kernel$norm, "l1")
    # a bandwidth matrix with a correlation is not a lengthscale per axis (frl's message said mechanism "iclp")
    e <- expect_error(dp_kde(q, epsilon = 1, domain = dom, bandwidth = H, mechanism = mech),
                      class = "dpfda_error_argument")
    expect_match(conditionMessage(e), sprintf("exponential kernel of mechanism \"%s\"", mech), fixed = TRUE)
    expect_match(conditionMessage(e), "kernel = kernel_gaussian(1)", fixed = TRUE)
    # the way out it names works, and uses the bandwidth matrix
    r <- with_seed_mode(2, dp_kde(q, epsilon = 1, domain = dom, bandwidth = H, mechanism = mech,
                                  kernel = kernel_gaussian(1)))
    expect_s3_class(r, "dpfda_release")
    expect_equal(r$bandwidth, H, ignore_attr = TRUE)
  }
  # a Matern kernel still takes one bandwidth only
  expect_error(dp_kde(q, epsilon = 1, domain = dom, bandwidth = c(1, 0.5), mechanism = "iclp",
                      kernel = kernel_matern(3 / 2, 1)), "isotropic", class = "dpfda_error_argument")
})
