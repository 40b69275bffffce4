# The noise source: distributions in both modes, reproducibility, secrecy.

N <- 20000

# Secure-mode draws cannot be seeded, so a right law fails a KS test at level a with probability a on
# every run: the right laws are tested at 1e-6 (1e-4 failed once in a CI run, p = 6.4e-5 for a
# correct exponential sampler), the wrong ones still give p-values far below it at N = 20000.
test_that("Laplace draws pass KS at the right scale and fail at 0.7x and 1.3x", {
  plaplace <- function(q, b) ifelse(q < 0, 0.5 * exp(q / b), 1 - 0.5 * exp(-q / b))
  for (mode in c("seeded", "secure")) {
    old <- dp_rng(mode)
    set.seed(3)
    x <- rlaplace(N, scale = 2)
    dp_rng(old)
    expect_gt(suppressWarnings(ks.test(x, plaplace, b = 2))$p.value, 1e-6)
    expect_lt(suppressWarnings(ks.test(x, plaplace, b = 1.4))$p.value, 1e-6)
    expect_lt(suppressWarnings(ks.test(x, plaplace, b = 2.6))$p.value, 1e-6)
  }
})

test_that("secure-mode normal, uniform and exponential variates have the right laws", {
  old <- dp_rng("secure")
  on.exit(dp_rng(old))
  z <- dpfda:::noise_draw(N, "normal")
  u <- dpfda:::noise_draw(N, "uniform")
  e <- dpfda:::noise_draw(N, "exponential")
  expect_gt(ks.test(z, "pnorm")$p.value, 1e-6)
  expect_lt(ks.test(z, "pnorm", sd = 0.9)$p.value, 1e-8)
  expect_gt(ks.test(u, "punif")$p.value, 1e-6)
  expect_lt(ks.test(u^1.2, "punif")$p.value, 1e-8)   # (and a wrong law fails)
  expect_gt(ks.test(e, "pexp")$p.value, 1e-6)
  expect_lt(ks.test(e, "pexp", rate = 1.1)$p.value, 1e-8)
  expect_true(all(u > 0 & u < 1))
  # both tails are reached symmetrically
  expect_equal(mean(z < 0), 0.5, tolerance = 0.03)
})

test_that("seeded mode: the same seed gives identical output", {
  a <- with_seed_mode(99, list(rlaplace(10, 1), rgp(1, kernel_gaussian(0.3), 1:5 / 5)$values))
  b <- with_seed_mode(99, list(rlaplace(10, 1), rgp(1, kernel_gaussian(0.3), 1:5 / 5)$values))
  expect_identical(a, b)
  old <- dp_reproducible(7)
  x <- rlaplace(3, 1)
  set.seed(7)
  y <- rlaplace(3, 1)
  dp_rng(old)
  expect_identical(x, y)
})

test_that("dp_reproducible(old) with the mode it returned points to dp_rng()", {
  old <- dp_rng("secure")
  on.exit(dp_rng(old))
  prev <- dp_reproducible(3)
  expect_identical(prev, "secure")
  e <- expect_error(dp_reproducible(prev), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "dp_rng(\"secure\")", fixed = TRUE)
  expect_identical(dp_rng(), "seeded")   # (refused: the mode is unchanged)
})

test_that("secure mode: set.seed() does not repeat output", {
  old <- dp_rng("secure")
  on.exit(dp_rng(old))
  set.seed(1)
  a <- rlaplace(5, 1)
  b <- rgp(1, kernel_exponential(0.2), 1:20 / 20)$values
  set.seed(1)
  expect_false(identical(a, rlaplace(5, 1)))
  expect_false(identical(b, rgp(1, kernel_exponential(0.2), 1:20 / 20)$values))
  expect_identical(dp_rng(), "secure")
})

test_that("forked children draw independent secure noise (not the parent's pooled bytes)", {
  skip_on_os("windows")
  old <- dp_rng("secure")
  on.exit(dp_rng(old))
  rlaplace(1, 1)      # fill the pool in the parent before forking
  jobs <- lapply(1:2, function(i) parallel::mcparallel(list(l = rlaplace(4, 1), u = .Call(dpfda:::C_dpfda_discrete_gaussian_draw, 4, 2^40))))
  res <- parallel::mccollect(jobs)
  parent <- rlaplace(4, 1)
  expect_length(res, 2L)
  expect_false(identical(res[[1]]$l, res[[2]]$l))
  expect_false(identical(res[[1]]$u, res[[2]]$u))
  expect_false(any(res[[1]]$l %in% parent) || any(res[[2]]$l %in% parent))
})

test_that("secure mode does not disturb R's own generator state", {
  old <- dp_rng("secure")
  on.exit(dp_rng(old))
  set.seed(10)
  invisible(rlaplace(100, 1))
  expect_identical(runif(1), {set.seed(10); runif(1)})
})

test_that("dp_rng validates and returns the previous mode", {
  old <- dp_rng("seeded")
  expect_identical(dp_rng("secure"), "seeded")
  dp_rng(old)
  expect_error(dp_rng("fast"), class = "dpfda_error_argument")
  # (a partial name switched to non-private noise without a word)
  old <- dp_rng()
  expect_error(dp_rng("seed"), "spelt out", class = "dpfda_error_argument")
  expect_error(dp_rng("s"), class = "dpfda_error_argument")
  expect_identical(dp_rng(), old)
})
