# Age-at-death distributions (R/mortality.R; spec lin_iclp.md section 7.4).

mort_example <- function() {
  a <- 0:100
  list(age = rep(a, 3),
       deaths = c(200 * exp(-a / 2) + 5000 * dnorm(a, 70, 12),
                  5 * exp(-a / 2) + 8000 * dnorm(a, 82, 9),
                  50 * exp(-a / 2) + 6000 * dnorm(a, 75, 10)),
       group = rep(c("Eastern Africa", "Western Europe", "South America"), each = 101))
}

test_that("mortality_distribution() gives each age's deaths as the mass of its cell, by group", {
  e <- mort_example()
  m <- mortality_distribution(e$age, e$deaths, e$group)
  expect_s3_class(m, c("dpfda_mortality", "dpfda_density", "dpfda_curves"), exact = TRUE)
  expect_silent(dpfda:::validate_dpfda_curves(m))
  # groups sorted (as a database table returns them: the same order from every source)
  expect_identical(m$groups, c("Eastern Africa", "South America", "Western Europe"))
  expect_equal(integrate_curves(m), rep(1, 3))
  w <- dpfda:::quadrature_weights(0:100)
  d3 <- e$deaths[102:202]
  expect_equal(m$values[3, ], d3 / (sum(d3) * w))
  expect_equal(m$values[3, ] * w * sum(d3), d3)   # the cell masses are the counts
  expect_equal(m$deaths, as.vector(tapply(e$deaths, factor(e$group), sum)), ignore_attr = TRUE)
  # the mean age at death is the count-weighted mean age (the end ages keep their full weight:
  # as_density() on the counts, which treats them as function values, halves them and is
  # years off with many infant deaths)
  wm <- as.vector(tapply(e$age * e$deaths, factor(e$group), sum) / tapply(e$deaths, factor(e$group), sum))
  expect_equal(summary(m)$distribution$mean, wm, tolerance = 0.1 / 40)
  expect_lt(max(abs(summary(m)$distribution$mean - wm)), 0.1)
  as_counts <- as_density(curves(matrix(e$deaths, 3, byrow = TRUE)[c(1, 3, 2), ], 0:100))
  expect_gt(abs(summary(as_counts)$distribution$mean[1] - wm[1]), 1)
  # factor groups keep their level order; no group = one distribution
  f <- factor(e$group, levels = c("South America", "Eastern Africa", "Western Europe"))
  expect_identical(mortality_distribution(e$age, e$deaths, f)$groups, levels(f))
  one <- mortality_distribution(c(0, 5, 10, 20), c(1, 2, 3, 0))
  expect_identical(one$groups, "all")
  expect_equal(integrate_curves(one), 1)
  # unequal age spacing (5-year groups, 85+) uses the trapezoid weights
  ag <- c(0, 1, seq(5, 85, by = 5))
  dm <- mortality_distribution(ag, seq_along(ag))
  expect_equal(sum(dpfda:::quadrature_weights(ag) * dm$values[1, ]), 1)
})

test_that("print, plot and as.data.frame methods", {
  e <- mort_example()
  m <- mortality_distribution(e$age, e$deaths, e$group)
  expect_output(print(m), "3 age-at-death distributions on 101 ages")
  expect_output(print(m), "Western Europe")
  df <- as.data.frame(m)
  expect_identical(names(df), c("group", "age", "density"))
  expect_identical(nrow(df), 303L)
  expect_identical(levels(df$group), m$groups)
  expect_equal(df$density[df$group == "South America"], m$values[2, ])
  expect_equal(df$age[1:101], 0:100)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(m))
  expect_invisible(plot(m, legend = FALSE, col = "black"))
})

test_that("bad mortality inputs give classed errors naming the argument", {
  e <- mort_example()
  err <- function(expr, arg) {
    cnd <- expect_error(expr, class = "dpfda_error_argument")
    expect_s3_class(cnd, "dpfda_error")
    expect_identical(cnd$arg, arg)
  }
  err(mortality_distribution("a", 1), "age")
  err(mortality_distribution(c(0, NA), c(1, 1)), "age")
  err(mortality_distribution(c(-1, 0), c(1, 1)), "age")
  err(mortality_distribution(5, 1), "age")
  err(mortality_distribution(c(0, 1), c(1, -1)), "deaths")
  err(mortality_distribution(c(0, 1), c(1, Inf)), "deaths")
  err(mortality_distribution(c(0, 1), c(1, NA)), "deaths")
  err(mortality_distribution(c(0, 1), 1:3), "deaths")
  # ages in any order are sorted with their deaths (row order does not matter, on any source)
  expect_equal(mortality_distribution(c(1, 0, 2), c(3, 1, 2))$values, mortality_distribution(0:2, c(1, 3, 2))$values)
  err(mortality_distribution(c(0, 1, 1), c(1, 1, 1)), "age")                # duplicated
  err(mortality_distribution(e$age, e$deaths, e$group[-1]), "group")
  err(mortality_distribution(e$age, e$deaths, replace(e$group, 5, NA)), "group")
  err(mortality_distribution(e$age, e$deaths, as.list(e$group)), "group")
  err(mortality_distribution(c(0, 1, 0, 2), c(1, 1, 1, 1), c("a", "a", "b", "b")), "age")  # not common
  err(mortality_distribution(c(0, 1, 0, 1, 2), rep(1, 5), c("a", "a", "b", "b", "b")), "age")
  err(mortality_distribution(c(0, 1, 0, 1), c(1, 1, 0, 0), c("a", "a", "b", "b")), "deaths")
  err(mortality_distribution(c(0, 1, 0, 1), c(1, 1, 1, 1), c("a", "b", "a", "b")), "age")  # one age per group
})

test_that("the mean mortality distribution is released with dp_mean(), one group per record", {
  with_seed_mode(7, {
    e <- mort_example()
    m <- mortality_distribution(e$age, e$deaths, e$group)
    tau <- 0.3
    r <- dp_mean(m, epsilon = 1, tau = tau, kernel = kernel_matern(3 / 2, 10))
    expect_s3_class(r, "dpfda_iclp_release")
    expect_equal(r$n, 3)                           # privacy unit: one region
    expect_silent(validate_dpfda_release(r))
    # psi is on the unit-measure domain (issue 28): the ages span S years
    S <- sum(r$basis$weights)
    lam <- r$basis$values / S
    p <- r$params
    g <- lam^(p$eta - 0.5) / (lam^p$eta + p$psi) / sqrt(S)
    expect_equal(r$sensitivity, 2 * tau / 3 * sqrt(sum(g^2)))
    expect_false(any(vapply(seq_len(3), function(i) isTRUE(all.equal(predict(r), m$values[i, ])), NA)))
    expect_null(r$x)
    # the private mean can be post-processed into a density
    expect_equal(integrate_curves(as_density(r)), 1)
  })
})

test_that("a data frame in memory gives the distributions of a table and of chunks: any row order, duplicates summed, missing ages 0", {
  # (memory refused shuffled rows, a missing row and a duplicated one, which SQLite and chunks took)
  set.seed(3)
  sh <- un_mortality[sample(nrow(un_mortality)), ]
  ref <- mortality_distribution(un_mortality, age = age, deaths = deaths, group = region)
  m <- mortality_distribution(sh, age = age, deaths = deaths, group = region)
  expect_equal(m$values, ref$values)
  expect_identical(m$groups, ref$groups)   # (a factor keeps its level order)
  ch <- mortality_distribution(dp_chunks(sh, rows = 200), "age", "deaths", "region")
  o <- match(ref$groups, ch$groups)
  expect_equal(ch$values[o, ], ref$values, tolerance = 1e-12)
  # a missing row and a duplicated one: as chunks and a table take them
  gone <- sh[!(sh$region == "Western Europe" & sh$age == 50), ]
  dup <- rbind(sh, sh[1, ])
  for (d in list(gone, dup)) {
    a <- mortality_distribution(d, age = age, deaths = deaths, group = region)
    b <- mortality_distribution(dp_chunks(d, rows = 300), "age", "deaths", "region")
    expect_equal(b$values[match(a$groups, b$groups), ], a$values, tolerance = 1e-12)
    tb <- sqlite_tbl(transform(d, region = as.character(region)))
    cc <- mortality_distribution(tb, "age", "deaths", "region")
    expect_equal(cc$values[match(a$groups, cc$groups), ], a$values, tolerance = 1e-12)
  }
  # a missing count: the row is dropped with a warning, as from chunks
  un <- un_mortality
  un$deaths[5] <- NA
  expect_warning(mortality_distribution(un, age = age, deaths = deaths, group = region), class = "dpfda_warning_data")
  # no group, several rows per age: summed into one distribution, and said
  expect_warning(m1 <- mortality_distribution(un_mortality, age = age, deaths = deaths), "Give `group =`",
                 class = "dpfda_warning_data")
  expect_equal(nrow(m1$values), 1L)
})

test_that("refusals of mortality and density inputs name the entries and the right help page", {
  e <- expect_error(mortality_distribution(c(0, 1, 2), c(1, NA, 2)), class = "dpfda_error_argument")
  expect_match(conditionMessage(e), "entry 2 is not (NA)", fixed = TRUE)
  m <- mortality_distribution(un_mortality, age = age, deaths = deaths, group = region)
  expect_error(quantile(m, 0.5, interval = "noise"), "?`density-summaries`", fixed = TRUE,
               class = "dpfda_error_argument")
  we <- un_mortality[un_mortality$region == "Western Europe", ]
  expect_error(dp_kde(we$age, 0:100, 3, epsilon = 1, mechanism = "iclp", counts = we$deaths / 1000 + 0.5),
               "entries 1, 2, 3, 4, 5 are not", class = "dpfda_error_argument")
})

test_that("a negative age is refused where the data enter, naming the row, on every source", {
  # (it was refused later by a message about the summary's own vector: "a double vector of length 1938")
  u <- un_mortality
  u$age[5] <- -1
  env <- environment()
  srcs <- list(frame = u, chunks = dp_chunks(u, rows = 100), sqlite = sqlite_tbl(u, "neg_age", envir = env))
  for (nm in names(srcs)) {
    e <- expect_error(mortality_distribution(srcs[[nm]], age = age, deaths = deaths, group = region),
                      "`age` must be non-negative", class = "dpfda_error_data", info = nm)
  }
  expect_match(conditionMessage(expect_error(mortality_distribution(u, age = age, deaths = deaths, group = region))),
               "first at row 5", fixed = TRUE)
})
