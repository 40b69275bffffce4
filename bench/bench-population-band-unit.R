# Coverage and width of the person-level population band (issues 29, 31):
# dp_mean(unit = person, inference = TRUE) + confint(type = "population").
# Known population: persons with 1 to 6 curves each (the number independent of
# the curves); a person's curves share a person effect (the scores of
# bench-population-band.R's smooth population, Gaussian or t3 tails) plus a
# small own deviation, so curves of one person are strongly correlated. The
# target is the population mean of the persons' mean curves, which is mu.
# Every cell: the simultaneous coverage of mu at nominal 0.95 (it must not be
# below; the band is conservative by design), the mean half-width, and its
# ratio to the non-private band from the persons' mean curves (Gaussian
# multiplier band, sample covariance) -- and, for contrast, the coverage of the
# same band made as if every curve were its own unit (no `unit`), which
# ignores the correlation within persons.
#
#   Rscript bench/bench-population-band-unit.R [reps] [nsim]
# (reps per cell, default 200; nsim Monte Carlo draws per band, default 1000.)
#
# Measured 2026-11-28 (1000 replications per cell, nsim 1000, 14.4 min):
# coverage 1.000 in all 8 cells (conservative, never below nominal); width
# 16.6-18.5 times the non-private band at epsilon 4, 26.3-29.5 at epsilon 1
# (the privacy noise of the mean dominates); the band made as if every curve
# were its own unit covered 0.998-1.000 here, because the noise dominates it too.

suppressPackageStartupMessages(library(dpfda))
source("bench/band-helpers.R")   # nonprivate_band(), band_cell_done()
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 200L
nsim <- if (length(args) >= 2L) as.integer(args[2L]) else 1000L
m <- 50L
g <- seq(0, 1, length.out = m)
mu <- function(t) 0.4 * sin(2 * pi * t) + 0.3 * t
phi <- rbind(sqrt(2) * sin(pi * g), sqrt(2) * cos(2 * pi * g), sqrt(2) * sin(3 * pi * g))
sds <- c(0.4, 0.25, 0.15)
tau <- 1.5
truth <- mu(g)

draw <- function(n_persons, tails) {
  k <- sample(1:6, n_persons, replace = TRUE)
  person <- rep(seq_len(n_persons), k)
  z <- if (tails == "light") matrix(rnorm(3 * n_persons), n_persons) else
    matrix(rt(3 * n_persons, 3) / sqrt(3), n_persons)
  eff <- z * rep(sds, each = n_persons)                              # per person
  own <- matrix(rnorm(3 * length(person)), length(person)) * 0.05    # per curve
  X <- outer(rep(1, length(person)), truth) + (eff[person, , drop = FALSE] + own) %*% phi
  list(X = X, person = person)
}


cells <- expand.grid(epsilon = c(1, 4), n_persons = c(200, 1000), tails = c("light", "heavy"),
                     stringsAsFactors = FALSE)
set.seed(3129)
out <- NULL
t_all <- Sys.time()
for (i in seq_len(nrow(cells))) {
  cl <- cells[i, ]
  hit <- hit_rows <- logical(reps)
  half <- np_half <- numeric(reps)
  for (r in seq_len(reps)) {
    d <- draw(cl$n_persons, cl$tails)
    x <- curves(d$X, g)
    rel <- suppressWarnings(dp_mean(x, epsilon = cl$epsilon, tau = tau, unit = d$person, inference = TRUE))
    ci <- confint(rel, type = "population", nsim = nsim)
    hit[r] <- all(ci$lower <= truth & truth <= ci$upper)
    half[r] <- mean(ci$upper - ci$lower) / 2
    rr <- suppressWarnings(dp_mean(x, epsilon = cl$epsilon, tau = tau, inference = TRUE))   # curves as units
    cr <- confint(rr, type = "population", nsim = nsim)
    hit_rows[r] <- all(cr$lower <= truth & truth <= cr$upper)
    pm <- rowsum(d$X, d$person) / as.vector(table(d$person))   # the persons' mean curves
    np_half[r] <- mean(nonprivate_band(pm)$half)
  }
  row <- data.frame(cl, reps = reps, coverage = mean(hit), mc_se = sqrt(mean(hit) * (1 - mean(hit)) / reps),
                    half_width = mean(half), nonprivate_half = mean(np_half), width_ratio = mean(half) / mean(np_half),
                    coverage_curves_as_units = mean(hit_rows))
  out <- band_cell_done(row, out)
}
cat(sprintf("\n%d cells x %d replications in %.1f min\n", nrow(cells), reps,
            as.numeric(difftime(Sys.time(), t_all, units = "mins"))))
print(out, digits = 3, row.names = FALSE)
