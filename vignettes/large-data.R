## ----setup, include = FALSE---------------------------------------------------
has_db <- requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE) &&
  requireNamespace("dplyr", quietly = TRUE) && requireNamespace("DBI", quietly = TRUE)
knitr::opts_chunk$set(collapse = TRUE, comment = "#>", fig.width = 7, fig.height = 4, eval = has_db)
library(dpfda)
old_rng <- dp_reproducible(18)   # seeded noise: reproducible, NOT private

## ----data---------------------------------------------------------------------
library(DBI)
con <- dbConnect(RSQLite::SQLite(), ":memory:")
days <- 0:30
n <- 2000
amp <- runif(n, 0.5, 2)
visits <- data.frame(patient = rep(seq_len(n), each = length(days)), day = rep(days, n),
                     score = as.vector(outer(sin(2 * pi * days / 30), amp)) + rnorm(n * 31, 0, 0.2))
dbWriteTable(con, "visits", visits)
tbl_visits <- dplyr::tbl(con, "visits")

## ----mean---------------------------------------------------------------------
r <- dp_mean(tbl_visits, id = "patient", arg = "day", value = "score", grid = days,
             epsilon = 1, tau = 8, kernel = kernel_matern(3 / 2, 5))
r
plot(r)
lines(days, sin(2 * pi * days / 30) * mean(amp), col = "grey")   # the non-private truth

## ----sql----------------------------------------------------------------------
cat(engine_sql(tbl_visits, "mean", grid = days, tau = 8, id = "patient", arg = "day",
               value = "score"))

## ----kde----------------------------------------------------------------------
dbWriteTable(con, "ages", data.frame(age = c(rnorm(5e4, 40, 12), rnorm(2e4, 75, 6))))
g <- seq(0, 100, length.out = 201)
rk <- dp_kde(dplyr::tbl(con, "ages"), g, bandwidth = 3, epsilon = 1, delta = 1e-6, columns = "age")
plot(rk)

## ----kme----------------------------------------------------------------------
dbWriteTable(con, "pts", data.frame(a = rnorm(2e4), b = rnorm(2e4)))
z <- matrix(runif(100, -3, 3), ncol = 2)
rm <- dp_kme(dplyr::tbl(con, "pts"), kernel_gaussian(1), epsilon = 1, delta = 1e-6, synthetic = z,
             columns = c("a", "b"))
kme_expectation(rm, function(p) p[, 1]^2)

## ----bad----------------------------------------------------------------------
dbWriteTable(con, "gaps", data.frame(age = c(30, NA, 45, 200, NA)))
s <- suppressWarnings(summarise_kde(dplyr::tbl(con, "gaps"), g, 3, columns = "age"))
c(rows = s$rows, dropped = s$dropped, n = s$n)
dbDisconnect(con)

## ----chunks-------------------------------------------------------------------
f <- tempfile(fileext = ".csv")
write.csv(data.frame(age = rnorm(2e4, 50, 15)), f, row.names = FALSE)
s <- summarise_kde(csv_chunks(f, rows = 5000), g, 3, columns = "age")
s
r2 <- dp_kde(s, g, 3, epsilon = 1, delta = 1e-6)
unlink(f)

## ----simulated----------------------------------------------------------------
t_pg <- dbplyr::tbl_lazy(data.frame(age = 1), con = dbplyr::simulate_postgres())
cat(engine_sql(t_pg, "kde", grid = g, bandwidth = 3, columns = "age"))

## ----cleanup, include = FALSE-------------------------------------------------
dp_rng(old_rng)

