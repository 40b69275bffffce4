t <- seq(0, 1, length.out = 11)

test_that("curves store n x m values on a sorted grid", {
  x <- curves(rbind(t, t^2), t)
  expect_s3_class(x, "dpfda_curves")
  expect_identical(length(x), 2L)
  expect_identical(dim(as.matrix(x)), c(2L, 11L))
  y <- curves(rev(t^2), rev(t))
  expect_identical(y$grid, t)
  expect_equal(as.vector(y$values), t^2)
  expect_identical(curves(1:3)$grid, c(0, 0.5, 1))
})

test_that("format, print and summary have the documented header", {
  x <- curves(rbind(t, -t), t)
  expect_identical(format(x), "dpfda_curves[2]: [0, 1] -> [-1, 1] on 11 points")
  expect_snapshot({
    print(x)
    summary(x)
    curves(matrix(1:8, 2), list(1:2, 3:4))
  })
})

test_that("subsetting, mean and as.data.frame", {
  x <- curves(rbind(t, t^2, t^3), t)
  expect_identical(length(x[2:3]), 2L)
  expect_identical(x[1, 1:3]$grid, t[1:3])
  expect_equal(as.vector(mean(x)$values), colMeans(rbind(t, t^2, t^3)))
  df <- as.data.frame(x)
  expect_named(df, c("id", "arg", "value"))
  expect_identical(nrow(df), 33L)
  expect_equal(df$value[df$id == 2], t^2)
  expect_equal(df$arg[df$id == 3], t)
  x2 <- curves(matrix(1:8, 2), list(1:2, 3:4))
  expect_named(as.data.frame(x2), c("id", "arg1", "arg2", "value"))
})

test_that("as_density clamps negatives and integrates to one", {
  g <- seq(-3, 3, length.out = 201)
  x <- curves(rbind(dnorm(g) + 0.05 * sin(7 * g), -abs(g), 2 * dnorm(g)), g)
  # (an all-negative curve became uniform silently)
  expect_warning(d <- as_density(x), "1 of the 3 curves has no positive part \\(curve 2\\): it is replaced by the uniform",
                 class = "dpfda_warning_utility")
  expect_s3_class(d, "dpfda_density")
  expect_true(all(d$values >= 0))
  expect_equal(integrate_curves(d), rep(1, 3), tolerance = 1e-12)
  expect_equal(d$values[2, ], rep(1 / 6, 201))   # all-negative curve -> uniform
  d2 <- expect_no_warning(as_density(curves(matrix(runif(12), 1), list(1:3, 1:4))))
  expect_equal(integrate_curves(d2), 1)
})

test_that("bad grids are classed errors", {
  expect_error(curves(matrix(1, 2, 3), 1:2), class = "dpfda_error_argument")
  expect_error(curves(1:3, c(1, 1, 2)), class = "dpfda_error_argument")
  expect_error(curves(c(1, NA)), class = "dpfda_error_argument")
})

test_that("plots draw to a null device", {
  pdf(NULL)
  on.exit(dev.off())
  x <- curves(rbind(t, t^2), t)
  expect_invisible(plot(x))
  expect_invisible(lines(x[1]))
  expect_invisible(plot(rgp(1, kernel_gaussian(0.3), list(t, t))))
  expect_error(plot(curves(1:3, matrix(runif(9), 3))), class = "dpfda_error")
})

test_that("x[i] subsets what as_curves() recorded per curve, by number or logical", {
  m <- matrix(1:12, 4, dimnames = list(c("a", "b", "c", "d"), NULL))
  x <- as_curves(m, grid = 1:3)
  expect_identical(x[c(2, 4)]$ids, x$ids[c(2, 4)])
  expect_identical(x[c(FALSE, TRUE, TRUE, FALSE)]$ids, x$ids[2:3])
  expect_identical(x[-1]$ids, x$ids[-1])
  expect_identical(x[, 1:2]$ids, x$ids)
})

test_that("x[i, j] refuses positions that do not exist (an NA made a curve of missing values)", {
  x <- curves(matrix(1:12, 4), 1:3)
  for (i in list(10, NA, c(TRUE, FALSE, TRUE, TRUE, TRUE), "a", list(1), -5, c(-1, 2))) {
    expect_error(x[i], class = "dpfda_error_argument")
  }
  expect_error(x[, 5], class = "dpfda_error_argument")
  expect_equal(x[-1]$values, x$values[-1, ])
  expect_equal(x[c(TRUE, FALSE)]$values, x$values[c(1, 3), ])
})
