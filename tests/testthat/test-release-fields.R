# Audit: privacy leaks through the stored fields of published objects.
#
# A release (a `dpfda_release`, and the other published results: dp_bandwidth(),
# pcv_select(), dp_gp_select(), dp_select(), dp_fpca()) is handed to the analyst whole,
# so every field it stores must be either public (a function of the public inputs: n,
# epsilon, delta, grid, tau, kernel, the settings) or noisy (computed from noisy values
# only). A field that is an exact function of the private data (a count of incomplete
# or missing individuals, a number of rows per unit, a clipped fraction, a data range,
# a solver's gap or iterations, ...) leaks: it can tell two neighbouring data sets apart
# with certainty. (dp_cov(incomplete = "drop") once stored `incomplete_n`, the exact
# count of incomplete individuals.)
#
# Method, for every release-producing function: two NEIGHBOURING data sets, with the
# same public n, differing in one individual (one record, row, curve, point, output, or
# all rows of one privacy unit), chosen so that a data-dependent field would move: one
# curve or point made extreme (clipping and clamping differ), a value made missing
# where that is allowed, a point moved outside the domain, a unit given another number
# of rows, one record moved between the rows of a frequency table. Both are released
# under the same seed (with_seed_mode(), helper-dpfda.R), every field but `call` is
# flattened (attributes included, functions dropped) and the fields that differ must be
# within an explicit allow-list of noisy fields for that release. Each comparison also
# asks that some noisy field differs, so that it has the power to fail. Where the noise
# might make the noisy fields agree for one seed (private selections, clamped noisy
# counts, a propose-test-release test), a few seeds are compared and the differences
# pooled.
#
# Fields that depend only on a noisy value are noisy: e.g. dp_mean(inference = TRUE)
# centres its spread at the released coefficients (`inference$point`) and calibrates to
# tau + |point| (`inference$sensitivity`, `laplace_scale`, `entry_sd`); a privately
# chosen tau, y_bound, psi or M moves the `sensitivity`, `noise_scale` and `params` that
# follow from it; dp_fpca()'s `noise_hs` follows the noisy count's scale factor.
#
# Leaks that this audit found were fixed (dp_cov's incomplete_n, dp_erm's n_rows, PCV over the
# complete curves) and their blocks now check the fix. One known gap is open and its blocks are
# skipped with the reason: a row with a missing value is dropped and n counts the rest.

# ---- helpers -----------------------------------------------------------------------

# Every leaf of a (published) object as a named list: list elements by name (index when
# unnamed), attributes as `field@attr`; functions and environments are not compared.
audit_leaves <- function(x, path = "") {
  if (is.function(x) || is.environment(x)) return(list())
  at <- attributes(x)
  at$names <- NULL
  out <- list()
  if (is.list(x)) {
    nms <- names(x) %||% rep("", length(x))
    for (i in seq_along(x)) {
      key <- if (!is.na(nms[i]) && nzchar(nms[i])) nms[i] else as.character(i)
      out <- c(out, audit_leaves(x[[i]], if (nzchar(path)) paste0(path, ".", key) else key))
    }
  } else {
    attributes(x) <- NULL
    out[[if (nzchar(path)) path else "."]] <- x
  }
  for (a in names(at)) out <- c(out, audit_leaves(at[[a]], paste0(path, "@", a)))
  out
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# The fields (paths, numeric path segments removed) that differ between two objects.
# `volatile`: fields that differ between any two calls for a public reason (ids).
differing_fields <- function(a, b, volatile = character()) {
  strip <- function(r) {
    r <- unclass(r)
    r[c("call", volatile)] <- NULL
    audit_leaves(r)
  }
  A <- strip(a)
  B <- strip(b)
  nm <- union(names(A), names(B))
  d <- nm[!vapply(nm, function(k) identical(A[[k]], B[[k]]), TRUE)]
  unique(gsub("\\.[0-9]+(?=\\.|@|$)", "", d, perl = TRUE))
}

# Release `a` and `b` (neighbours) with `release()` under the same seed, for each seed;
# the union of the fields that differ.
neighbour_diff <- function(release, a, b, seeds = 3, volatile = character()) {
  d <- character()
  for (s in seeds) {
    ra <- with_seed_mode(s, suppressWarnings(release(a)))
    rb <- with_seed_mode(s, suppressWarnings(release(b)))
    d <- union(d, differing_fields(ra, rb, volatile))
  }
  d
}

# Only noisy fields differ ...
expect_only_noisy <- function(d, noisy, label) {
  expect_identical(setdiff(d, noisy), character(), label = paste(label, "- non-noisy fields that differ"))
}
# ... and some noisy field (one of `power`) does, so the comparison could fail.
expect_power <- function(d, power, label) {
  expect_true(length(intersect(d, power)) > 0,
              label = paste(label, "- some noisy field differs between the neighbours"))
}
# Both, for comparisons without a known leak.
expect_noisy_diff <- function(d, noisy, label, power = noisy) {
  expect_only_noisy(d, noisy, label)
  expect_power(d, power, label)
}

# ---- data ----------------------------------------------------------------------------

audit_curves <- function(n = 60, m = 10, seed = 1) {
  set.seed(seed)
  t <- seq(0, 1, length.out = m)
  X <- outer(rnorm(n), sin(pi * t)) + outer(rnorm(n), cos(pi * t)) / 2
  X2 <- X
  X2[1L, ] <- 20                 # one curve made extreme: clipped in one data set, not in the other
  list(t = t, X = X, X2 = X2)
}

# Two data sets of the same N individuals, 3 of them incomplete; in the second, individual 4
# is replaced by an extreme and incomplete curve (4 incomplete).
audit_incomplete <- function(n = 120, m = 10, seed = 1) {
  cu <- audit_curves(n, m, seed)
  A <- cu$X
  A[1:3, m] <- NA
  B <- A
  B[4L, ] <- c(rep(20, m - 1L), NA)
  list(t = cu$t, A = A, B = B)
}

# A unit (person) with 2 curves in one data set and 5 (other) curves in the other: the
# units' numbers of curves are not public.
audit_unit_rows <- function(n_units = 30, m = 8, seed = 2) {
  set.seed(seed)
  t <- seq(0, 1, length.out = m)
  XA <- outer(rnorm(2 * n_units), sin(pi * t))
  uA <- rep(seq_len(n_units), each = 2)
  XB <- rbind(outer(rnorm(5), cos(pi * t)) + 3, XA[-(1:2), ])
  uB <- c(rep(1L, 5), uA[-(1:2)])
  list(t = t, A = list(x = XA, u = uA), B = list(x = XB, u = uB))
}

mean_noisy <- c("values.values", "coefficients", "bernstein.values.values")
inference_noisy <- c("inference.second_moment", "inference.point", "inference.laplace_scale",
                     "inference.sensitivity", "inference.entry_sd", "inference.tail_top",
                     "inference.tail_scale", "inference.clipped.count")
drop_noisy <- c("scale_factor", "n_complete")
# a privately chosen tau, psi or M, and what follows from it
chosen_noisy <- c("tau", "sensitivity", "noise_scale", "params.psi", "params.M", "params.J_tau")

# ---- dp_mean -------------------------------------------------------------------------

test_that("dp_mean(): only noisy fields differ between neighbours, for every mechanism and option", {
  cu <- audit_curves()
  for (mech in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
    rel <- function(...) {
      a <- list(...)
      function(x) do.call(dp_mean, c(list(x, grid = cu$t, mechanism = mech,
                                            delta = if (mech == "gp") 1e-3), a))
    }
    eps <- if (mech == "iclp_ar") 5 else 2   # (AR at small epsilon thresholds every component to 0)
    d <- neighbour_diff(rel(epsilon = eps, tau = 1), cu$X, cu$X2)
    expect_noisy_diff(d, mean_noisy, paste(mech, "plain"))
    d <- neighbour_diff(rel(epsilon = eps, tau = 1, inference = TRUE), cu$X, cu$X2)
    expect_noisy_diff(d, c(mean_noisy, inference_noisy), paste(mech, "inference = TRUE"),
                      power = inference_noisy)
    d <- neighbour_diff(rel(epsilon = 4, tau = "auto"), cu$X, cu$X2)
    expect_noisy_diff(d, c(mean_noisy, chosen_noisy), paste(mech, "tau = \"auto\""), power = mean_noisy)
    d <- neighbour_diff(rel(epsilon = 4, tau = "auto", inference = TRUE), cu$X, cu$X2)
    expect_noisy_diff(d, c(mean_noisy, chosen_noisy, inference_noisy), paste(mech, "tau = \"auto\", inference"),
                      power = inference_noisy)
    if (mech != "bernstein") {
      d <- neighbour_diff(rel(epsilon = eps, tau = 1, noise = "exact"), cu$X, cu$X2)
      expect_noisy_diff(d, mean_noisy, paste(mech, "noise = \"exact\""))
    }
  }
  d <- neighbour_diff(function(x) dp_mean(x, grid = cu$t, epsilon = 2, tau = 1, mechanism = "frl", select = "manual",
                                          M = 5, frl_noise = "gaussian", delta = 1e-3, inference = TRUE),
                      cu$X, cu$X2)
  expect_noisy_diff(d, c(mean_noisy, inference_noisy), "frl gaussian, inference")
  # private cross-validation (complete curves): the chosen psi and what follows from it
  d <- neighbour_diff(function(x) dp_mean(x, grid = cu$t, epsilon = 2, tau = 1, select = "pcv", epsilon_select = 1),
                      cu$X, cu$X2)
  expect_noisy_diff(d, c(mean_noisy, chosen_noisy, "pcv.index", "pcv.value", "pcv.psi"), "select = \"pcv\"",
                    power = mean_noisy)
})

test_that("dp_mean(incomplete = \"drop\") and dp_mean(unit =): only noisy fields differ", {
  inc <- audit_incomplete()
  for (mech in c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")) {
    rel <- function(...) {
      a <- list(...)
      function(x) do.call(dp_mean, c(list(x, grid = inc$t, na.rm = TRUE, incomplete = "drop", mechanism = mech,
                                            delta = if (mech == "gp") 1e-3), a))
    }
    d <- neighbour_diff(rel(epsilon = 2, tau = 1), inc$A, inc$B, seeds = 1:3)
    expect_noisy_diff(d, c(mean_noisy, drop_noisy), paste(mech, "drop"), power = "n_complete")
    d <- neighbour_diff(rel(epsilon = 2, tau = 1, inference = TRUE), inc$A, inc$B, seeds = 1:3)
    expect_noisy_diff(d, c(mean_noisy, drop_noisy, inference_noisy), paste(mech, "drop, inference"),
                      power = "n_complete")
  }
  d <- neighbour_diff(function(x) dp_mean(x, grid = inc$t, na.rm = TRUE, incomplete = "drop", epsilon = 2,
                                          tau = "auto"), inc$A, inc$B, seeds = 1:3)
  expect_noisy_diff(d, c(mean_noisy, drop_noisy, chosen_noisy), "drop, tau = \"auto\"", power = "n_complete")
  # a unit with 2 curves in one data set, 5 in the other (n counts units)
  ur <- audit_unit_rows()
  for (mech in c("iclp_qr", "frl", "bernstein", "gp")) {
    d <- neighbour_diff(function(s) dp_mean(s$x, grid = ur$t, epsilon = 2, tau = 1, mechanism = mech, unit = s$u,
                                            delta = if (mech == "gp") 1e-3, inference = TRUE), ur$A, ur$B)
    expect_noisy_diff(d, c(mean_noisy, inference_noisy), paste(mech, "unit, inference"), power = mean_noisy)
  }
  d <- neighbour_diff(function(s) dp_mean(s$x, grid = ur$t, epsilon = 8, tau = "auto", unit = s$u), ur$A, ur$B)
  expect_noisy_diff(d, c(mean_noisy, chosen_noisy), "unit, tau = \"auto\"", power = mean_noisy)
  # long data with units (3 of 30 without a complete curve): one unit's two curves replaced, one
  # extreme, both incomplete
  cu <- audit_curves()
  dA <- as.data.frame(curves(cu$X, cu$t))
  dA$person <- (dA$id - 1) %/% 2
  dA <- dA[!(dA$id %in% 11:16 & dA$arg > 0.95), ]
  dB <- dA
  dB$value[dB$id == 3] <- 20
  dB <- dB[!(dB$id %in% c(3, 4) & dB$arg > 0.95), ]
  d <- neighbour_diff(function(x) dp_mean(x, grid = cu$t, epsilon = 2, tau = 1, unit = "person",
                                          incomplete = "drop"), dA, dB, seeds = 1:4)
  expect_noisy_diff(d, c(mean_noisy, drop_noisy), "long data, unit, drop", power = "n_complete")
})

test_that("long data: an individual whose values are all missing stays in n, on every source, as a matrix's row", {
  # Same ids (N = 30) in both data frames; in the second, individual 1's values are all
  # missing. Dropping its rows made it vanish from n, so the release's exact n (and the
  # sensitivity, noise scale and PSS psi that follow from it) told whether one person's
  # values are missing. It stays an individual, with no cell: incomplete = "error" refuses
  # it as it refuses any missing cell (nothing is charged), and incomplete = "drop" counts
  # it as incomplete (the noisy count's business), as a matrix's row of missing values is
  # counted. So the release is the same from a matrix, a data frame, chunks and SQLite.
  set.seed(1)
  t <- seq(0, 1, length.out = 6)
  X <- outer(rnorm(30), sin(pi * t)) + 0.3
  XB <- X
  XB[1, ] <- NA
  dA <- as.data.frame(curves(X, t))
  dA$person <- (dA$id + 1) %/% 2   # (persons of two curves: individual 1 shares person 1 with 2)
  dB <- dA
  dB$value[dB$id == 1] <- NA
  dC <- dA
  dC$value[dC$id == 1 & dC$arg == t[3]] <- NA   # (one value of individual 1: still in n)
  env <- environment()   # (the tables' connections close when the test ends)
  srcs <- function(d, nm) list(frame = d, chunks = dp_chunks(d, rows = 7), sqlite = sqlite_tbl(d, nm, envir = env))
  sB <- srcs(dB, "mB")
  sC <- srcs(dC, "mC")
  rel <- function(x, ...) with_seed_mode(11, suppressWarnings(dp_mean(x, grid = t, epsilon = 2, tau = 1, ...)))
  relc <- function(x, ...) with_seed_mode(12, suppressWarnings(dp_cov(x, grid = t, epsilon = 2, tau = 1, J = 3, ...)))
  ref <- rel(XB, incomplete = "drop")
  ref_unit <- rel(XB, incomplete = "drop", unit = (1:30 + 1) %/% 2)
  ref_cov <- relc(XB, incomplete = "drop")
  expect_equal(c(ref$n, ref_unit$n, ref_cov$n), c(30, 15, 30))
  # without na.rm, a matrix's row with a missing value is left out by incomplete = "drop" (it was an
  # error), as a row of long data; with na.rm the same (an empty row cannot be interpolated)
  expect_equal(rel(XB, incomplete = "drop", na.rm = TRUE)$values$values, ref$values$values)
  for (src in names(sB)) {
    b <- privacy_budget(epsilon = 10)
    # (the warning of the dropped rows comes first: suppressed here)
    expect_error(suppressWarnings(dp_mean(sB[[src]], grid = t, epsilon = 2, tau = 1, budget = b)),
                 "6 \\(individual, grid point\\) cells have no observation", class = "dpfda_error_data")
    expect_error(suppressWarnings(dp_cov(sB[[src]], grid = t, epsilon = 2, tau = 1, J = 3, budget = b)),
                 class = "dpfda_error_data")
    expect_equal(nrow(b$ledger), 0L)
    r <- rel(sB[[src]], incomplete = "drop")
    expect_equal(r$n, 30, info = src)
    expect_equal(r$values$values, ref$values$values, tolerance = 1e-12, info = src)
    expect_equal(rel(sB[[src]], incomplete = "drop", unit = "person")$values$values, ref_unit$values$values,
                 tolerance = 1e-12, info = src)
    rc <- relc(sB[[src]], incomplete = "drop")
    expect_equal(rc$n, 30, info = src)
    expect_equal(rc$values, ref_cov$values, tolerance = 1e-10, info = src)
    # the summaries: n 30, one incomplete; with "zero" its 6 cells are missing
    s0 <- suppressWarnings(summarise_mean(sB[[src]], grid = t, tau = 1))
    expect_equal(c(s0$n, s0$missing_cells), c(30, 6), info = src)
    s1 <- suppressWarnings(summarise_cov(sB[[src]], grid = t, tau = 1, J = 3, incomplete = "drop"))
    expect_equal(c(s1$n, s1$incomplete_n, s1$missing_cells), c(30, 1, 0), info = src)
    # with a unit and "zero" it would be a curve of zeros in its unit's mean: refused, naming "drop"
    expect_error(suppressWarnings(summarise_mean(sB[[src]], grid = t, tau = 1, unit = "person")),
                 "incomplete = \"drop\"", class = "dpfda_error_data", info = src)
    r <- rel(sC[[src]], incomplete = "drop")
    expect_equal(r$n, 30, label = paste(src, "n with one missing value"))
  }
  # a person left with no complete curve counts as an incomplete unit; an individual none of whose rows
  # names its unit is refused (whose is it?)
  dD <- dB
  dD$value[dD$id == 2] <- NA   # (person 1's two curves)
  dE <- dA
  dE$person[dE$id == 1] <- NA
  sD <- srcs(dD, "mD")
  sE <- srcs(dE, "mE")
  for (src in names(sD)) {
    s <- suppressWarnings(summarise_mean(sD[[src]], grid = t, tau = 1, unit = "person", incomplete = "drop"))
    expect_equal(c(s$n, s$curves, s$incomplete_n), c(15, 30, 1), info = src)
    expect_error(suppressWarnings(summarise_mean(sE[[src]], grid = t, tau = 1, unit = "person",
                                                 incomplete = "drop")),
                 "names its `unit`", class = "dpfda_error_data", info = src)
  }
})

test_that("a row of long data with a missing id, or a group with no complete row, is refused on every source", {
  # A row whose id is missing belongs to no individual: it was dropped, and an individual all of
  # whose ids went missing vanished from n (60 against 59 in dp_mean(); with unit =, a person
  # from the number of units). Mortality: a group whose death counts are all missing, or a row
  # without its group, left the public number of groups (12 against 11). Found by a user test.
  set.seed(2)
  g <- seq(0, 1, length.out = 11)
  L <- do.call(rbind, lapply(1:60, function(i) data.frame(id = i, person = (i + 1) %/% 2, arg = rep(g, each = 2),
                                                            value = rnorm(22))))
  L1 <- L
  L1$id[L1$id == 3] <- NA     # (every row of individual 3)
  L2 <- L
  L2$id[L2$person == 2] <- NA   # (every row of person 2, with unit = person)
  m <- expand.grid(age = 0:20, group = paste0("r", 1:12), stringsAsFactors = FALSE)
  m$deaths <- rpois(252, 50)
  m1 <- m
  m1$deaths[m1$group == "r3"] <- NA
  m2 <- m
  m2$group[5] <- NA
  env <- environment()
  srcs <- function(d, nm) list(frame = d, chunks = dp_chunks(d, rows = 50), sqlite = sqlite_tbl(d, nm, envir = env))
  s <- list(L1 = srcs(L1, "L1"), L2 = srcs(L2, "L2"), m = srcs(m, "m"), m1 = srcs(m1, "m1"), m2 = srcs(m2, "m2"))
  for (src in names(s$L1)) {
    b <- privacy_budget(epsilon = 100)
    expect_error(dp_mean(s$L1[[src]], epsilon = 1, tau = 3, grid = g, budget = b), "missing `id`",
                 class = "dpfda_error_data", info = src)
    expect_error(dp_cov(s$L1[[src]], epsilon = 1, tau = 3, grid = g, J = 3, incomplete = "drop", budget = b),
                 "missing `id`", class = "dpfda_error_data", info = src)
    expect_error(dp_mean(s$L2[[src]], epsilon = 1, tau = 3, grid = g, unit = "person", budget = b), "missing `id`",
                 class = "dpfda_error_data", info = src)
    expect_error(summarise_mortality(s$m1[[src]]), "1 group of `x`.*no row without a missing value",
                 class = "dpfda_error_data", info = src)
    expect_error(summarise_mortality(s$m2[[src]]), "missing `group`", class = "dpfda_error_data", info = src)
    expect_equal(nrow(b$ledger), 0L)
    # the complete table: 12 groups from every source (chunks of 50 rows split groups: they counted 17)
    expect_equal(summarise_mortality(s$m[[src]])$n, 12, info = src)
  }
  expect_error(mortality_distribution(m1, age = age, deaths = deaths, group = group), class = "dpfda_error_data")
  # one missing value (of an individual, or a group's death count) is dropped with the same warning on
  # every source (a data frame in memory was silent)
  L3 <- L
  L3$value[5] <- NA
  m3 <- m
  m3$deaths[7] <- NA
  s3 <- list(L = srcs(L3, "L3"), m = srcs(m3, "m3"))
  for (src in names(s3$L)) {
    expect_warning(summarise_mean(s3$L[[src]], grid = g, tau = 3), "1 row", class = "dpfda_warning_data")
    expect_warning(dp_mean(s3$L[[src]], epsilon = 1, tau = 3, grid = g), "1 row", class = "dpfda_warning_data")
    expect_warning(dp_cov(s3$L[[src]], epsilon = 1, tau = 3, grid = g, J = 3), "1 row", class = "dpfda_warning_data")
    expect_warning(summarise_mortality(s3$m[[src]]), "1 row", class = "dpfda_warning_data")
  }
})

test_that("dp_mean(select = \"pcv\", incomplete = \"drop\") is refused: it would store an exact count", {
  # The private cross-validation would run on the complete curves only, calibrated to their exact
  # number (pcv$n, pcv$privacy_unit, its sensitivity and candidates): N minus that is the count of
  # incomplete individuals that the noisy n_complete is bought to hide (the incomplete_n leak
  # again). It is refused before anything is spent.
  inc <- audit_incomplete()
  for (mech in c("iclp_qr", "frl")) {
    b <- privacy_budget(epsilon = 10)
    expect_error(dp_mean(inc$A, grid = inc$t, na.rm = TRUE, epsilon = 2, tau = 1, mechanism = mech,
                         incomplete = "drop", select = "pcv", epsilon_select = 1, budget = b),
                 class = "dpfda_error_unsupported")
    expect_equal(nrow(b$ledger), 0L)
  }
})

# ---- dp_cov, dp_fpca -----------------------------------------------------------------

test_that("dp_cov() and dp_fpca(): only noisy fields differ between neighbours", {
  cu <- audit_curves()
  inc <- audit_incomplete()
  ur <- audit_unit_rows()
  cov_base <- c("values.values", "coefficients")
  # incomplete = "drop": the noisy count and the private mean; tau = "auto": the chosen tau and what follows
  cov_drop <- c(drop_noisy, "mean_release.values.values", "mean_release.coefficients")
  cov_auto <- c(chosen_noisy, "mean_release.tau", "mean_release.sensitivity", "mean_release.noise_scale")
  # dp_fpca(): everything computed from the released surface (and its noise law, scaled by the noisy count)
  fpca_base <- c("values", "varprop", "harmonics.values", "eigengap", "eigenfunction_bound", "all_values",
                 "rank", "positive")
  allowed <- function(f, extra = character()) {
    if (f == "cov") c(cov_base, extra) else c(fpca_base, "noise_hs"[length(extra) > 0], paste0("release.", extra))
  }
  for (f in c("cov", "fpca")) {
    rel <- function(...) {
      a <- list(...)
      function(x) do.call(if (f == "cov") dp_cov else dp_fpca, c(list(x), a))
    }
    power <- if (f == "cov") "values.values" else "values"
    d <- neighbour_diff(rel(grid = cu$t, epsilon = 2, tau = 1, J = 4), cu$X, cu$X2)
    expect_noisy_diff(d, allowed(f), paste(f, "plain"), power)
    d <- neighbour_diff(rel(grid = cu$t, epsilon = 2, tau = 1, J = 4, centered = FALSE, noise = "exact"),
                        cu$X, cu$X2)
    expect_noisy_diff(d, allowed(f), paste(f, "uncentred, exact"), power)
    d <- neighbour_diff(rel(grid = cu$t, epsilon = 4, tau = "auto", J = 4), cu$X, cu$X2)
    expect_noisy_diff(d, allowed(f, cov_auto), paste(f, "tau = \"auto\""), power)
    d <- neighbour_diff(rel(grid = inc$t, epsilon = 2, tau = 1, J = 4, incomplete = "drop", na.rm = TRUE),
                        inc$A, inc$B, seeds = 1:3)
    expect_noisy_diff(d, allowed(f, cov_drop), paste(f, "drop"), if (f == "cov") "n_complete" else power)
    d <- neighbour_diff(function(s) rel(grid = ur$t, epsilon = 2, tau = 1, J = 3, unit = s$u)(s$x), ur$A, ur$B)
    expect_noisy_diff(d, allowed(f), paste(f, "unit"), power)
  }
})

# ---- pcv_select, dp_select, dp_gp_select -----------------------------------------------

test_that("pcv_select(), dp_select() and dp_gp_select(): only the private choice differs", {
  cu <- audit_curves()
  b <- kl_basis(kernel_matern(3 / 2, 0.1), cu$t)
  pcv_noisy <- c("index", "value", "psi", "M")
  for (mech in c("iclp_qr", "frl")) {
    d <- neighbour_diff(function(x) pcv_select(curves(x, cu$t), epsilon = 1, tau = 1, mechanism = mech, basis = b,
                                               epsilon_select = 20), cu$X, cu$X2, seeds = 1:60)
    expect_noisy_diff(d, pcv_noisy, paste("pcv_select", mech))
  }
  ur <- audit_unit_rows()
  d <- neighbour_diff(function(s) pcv_select(curves(s$x, ur$t), epsilon = 1, tau = 1, mechanism = "iclp_qr",
                                             epsilon_select = 5, unit = s$u), ur$A, ur$B, seeds = 1:30)
  expect_noisy_diff(d, pcv_noisy, "pcv_select unit")
  d <- neighbour_diff(function(u) dp_select(u, sensitivity = 1, epsilon = 2), c(1, 5, 2), c(1, 4, 3), seeds = 1:40)
  expect_noisy_diff(d, c("index", "label"), "dp_select")
  set.seed(1)
  x <- seq(0, 1, length.out = 60)
  y <- sin(6 * x) + rnorm(60, 0, 0.2)
  y2 <- y
  y2[3] <- -30
  cand <- expand.grid(lengthscale = c(0.05, 0.2, 0.8), noise_variance = c(0.04, 0.5))
  sel <- function(...) {
    a <- list(...)
    function(yy) do.call(dp_gp_select, c(list(x, yy, cand, y_bound = c(-2, 2), epsilon = 50, folds = 5,
                                               epsilon_regression = 1, delta = 1e-3), a))
  }
  gp_noisy <- c("index", "candidate.lengthscale", "candidate.noise_variance", "candidate@row.names", "kernel.lengthscale",
                "noise_variance")
  d <- neighbour_diff(sel(), y, y2, seeds = 1:10)
  expect_noisy_diff(d, gp_noisy, "dp_gp_select")
  d <- neighbour_diff(sel(unit = rep(1:30, each = 2)), y, y2, seeds = 10:20)
  expect_noisy_diff(d, gp_noisy, "dp_gp_select unit")
})

test_that("pcv_select() refuses curves from as_curves(incomplete = \"drop\"): it would record their exact count", {
  # dp_mean() and dp_cov() refuse such curves unless incomplete = "drop" (then n is N and the
  # count of complete curves is noisy); pcv_select() took them and recorded n, the exact number
  # of complete curves, with the sensitivity and candidates calibrated to it (97 against 96).
  set.seed(1)
  t <- seq(0, 1, length.out = 10)
  X <- outer(rnorm(100), sin(pi * t)) + outer(rnorm(100), cos(pi * t)) / 2
  d0 <- as.data.frame(curves(X, t))
  cA <- suppressWarnings(as_curves(d0[!(d0$id %in% 1:3 & d0$arg > 0.95), ], grid = t, incomplete = "drop"))
  expect_error(pcv_select(cA, epsilon = 1, tau = 1, epsilon_select = 5), class = "dpfda_error_unsupported")
  # complete curves are taken as before
  expect_s3_class(pcv_select(curves(X, t), epsilon = 1, tau = 1, epsilon_select = 5), "dpfda_pcv_selection")
})

# ---- dp_kde, dp_bandwidth --------------------------------------------------------------

test_that("dp_kde(): only noisy fields differ, with points beyond the grid, units and counts", {
  set.seed(1)
  x <- pmin(pmax(c(rnorm(40, 0.3, 0.1), rnorm(40, 0.7, 0.1)), 0.02), 0.98)
  x2 <- x
  x2[1] <- 5                                   # beyond the grid / domain: clamped in one data set only
  g <- seq(0, 1, length.out = 41)
  kde_noisy <- c("values.values", "coefficients", "lattice.values.values")
  u <- rep(1:40, each = 2)
  xu <- c(runif(6, 0.05, 0.95), x[-(1:2)])     # unit 1 with 6 points in place of 2
  uu <- c(rep(1L, 6), u[-(1:2)])
  cnt <- rep(2L, 80)
  cnt2 <- cnt
  cnt2[1] <- 1L                                # one record moved from point 1 to point 2
  cnt2[2] <- 3L
  for (mech in c("gp", "sobolev", "bernstein", "iclp", "frl")) {
    rel <- function(...) {
      a <- list(...)
      function(p) do.call(dp_kde, c(list(p, g, bandwidth = 0.1, epsilon = 1, mechanism = mech,
                                          delta = if (mech %in% c("gp", "sobolev")) 1e-3), a))
    }
    d <- neighbour_diff(rel(), x, x2)
    expect_noisy_diff(d, kde_noisy, paste(mech, "no domain"))
    d <- neighbour_diff(rel(domain = c(0, 1), noise = "exact"), x, x2)
    expect_noisy_diff(d, kde_noisy, paste(mech, "domain, exact"))
    d <- neighbour_diff(function(s) rel(unit = s$u)(s$x), list(x = x, u = u), list(x = xu, u = uu))
    expect_noisy_diff(d, kde_noisy, paste(mech, "unit"))
    d <- neighbour_diff(function(cc) rel(counts = cc)(x), cnt, cnt2)
    expect_noisy_diff(d, kde_noisy, paste(mech, "counts"))
  }
  X <- cbind(runif(60, 0.1, 0.9), runif(60, 0.1, 0.9))
  X2 <- X
  X2[1, ] <- c(4, -3)
  ax <- list(seq(0, 1, length.out = 9), seq(0, 1, length.out = 9))
  for (mech in c("gp", "bernstein", "iclp")) {
    d <- neighbour_diff(function(p) dp_kde(p, ax, bandwidth = 0.2, epsilon = 1, mechanism = mech, k = 5L,
                                           delta = if (mech == "gp") 1e-3), X, X2)
    expect_noisy_diff(d, kde_noisy, paste(mech, "2-D"))
  }
})

test_that("dp_kde(), dp_kme(), dp_bandwidth(): a row with a missing value is refused on every source", {
  # Same N = 80 rows; in the second data frame one row's value (or count) is missing.
  # Dropping that row made n (with privacy_unit, the sensitivity and the noise scale
  # computed from it) the exact number of complete rows: it told whether one person's value
  # is missing. Such a row is now refused on every source, before anything is charged.
  # (dp_bin_regression() counts a missing output at the midpoint of y_bound, for the same reason.)
  set.seed(1)
  x <- pmin(pmax(c(rnorm(40, 0.3, 0.1), rnorm(40, 0.7, 0.1)), 0.02), 0.98)
  d1 <- data.frame(v = x, w = rev(x), cnt = 2L, u = rep(1:40, 2))
  d2 <- d1
  d2$v[1] <- NA
  d3 <- d1
  d3$cnt[1] <- NA
  d4 <- d1
  d4$u[5] <- NA
  g <- seq(0, 1, length.out = 41)
  z <- cbind(seq(0, 1, length.out = 8), seq(1, 0, length.out = 8))
  env <- environment()   # (the tables' connections close when the test ends)
  srcs <- function(d, nm) list(frame = d, chunks = dp_chunks(d, rows = 9), sqlite = sqlite_tbl(d, nm, envir = env))
  all_srcs <- list(d1 = srcs(d1, "p1"), d2 = srcs(d2, "p2"), d3 = srcs(d3, "p3"), d4 = srcs(d4, "p4"))
  refused <- function(expr, label) {
    expect_error(expr, "1 of the .*rows read from `x` holds a missing or non-finite value", class = "dpfda_error_data",
                 label = label)
  }
  for (src in names(all_srcs$d1)) {
    b <- privacy_budget(epsilon = 100)
    for (mech in c("gp", "bernstein", "iclp")) {
      refused(dp_kde(all_srcs$d2[[src]], g, bandwidth = 0.1, epsilon = 1, delta = if (mech == "gp") 1e-3 else 0,
                     mechanism = mech, columns = "v", budget = b), paste("dp_kde", mech, src))
    }
    refused(dp_kde(all_srcs$d3[[src]], g, bandwidth = 0.1, epsilon = 1, delta = 1e-3, columns = "v", counts = "cnt",
                   budget = b), paste("dp_kde counts", src))
    # (the message names the counts' column, as it names a point column; a data frame said `counts`)
    expect_error(dp_kde(all_srcs$d3[[src]], g, bandwidth = 0.1, epsilon = 1, delta = 1e-3, columns = "v",
                        counts = cnt, budget = b), "in column \"cnt\"", class = "dpfda_error_data", info = src)
    refused(dp_kde(all_srcs$d4[[src]], g, bandwidth = 0.1, epsilon = 1, delta = 1e-3, columns = "v", unit = "u",
                   budget = b), paste("dp_kde unit", src))
    refused(dp_kde(all_srcs$d2[[src]], as.matrix(expand.grid(g[c(TRUE, FALSE)], g[c(TRUE, FALSE)])), bandwidth = 0.1,
                   epsilon = 1, delta = 1e-3, columns = c("v", "w"), budget = b), paste("dp_kde 2-D", src))
    refused(dp_kme(all_srcs$d2[[src]], kernel_gaussian(0.3), epsilon = 1, delta = 1e-5, synthetic = z,
                   columns = c("v", "w"), budget = b), paste("dp_kme", src))
    refused(dp_kme(all_srcs$d2[[src]], kernel_gaussian(0.3), epsilon = 1, delta = 1e-5, method = "random_features",
                   synthetic = z, domain = rbind(c(0, 0), c(1, 1)), columns = c("v", "w"), budget = b), paste("dp_kme rff", src))
    refused(dp_bandwidth(all_srcs$d2[[src]], epsilon = 1, delta = 1e-6, fallback = 0.3, columns = "v",
                         domain = c(0, 1), budget = b), paste("dp_bandwidth", src))
    refused(dp_bandwidth(all_srcs$d3[[src]], epsilon = 1, delta = 1e-6, fallback = 0.3, columns = "v",
                         counts = "cnt", domain = c(0, 1), budget = b), paste("dp_bandwidth counts", src))
    expect_equal(nrow(b$ledger), 0L)
    # the complete data give a release, which the neighbour never does
    expect_s3_class(dp_kde(all_srcs$d1[[src]], g, bandwidth = 0.1, epsilon = 1, delta = 1e-3, columns = "v"),
                    "dpfda_release")
  }
  # in memory without columns, and the summaries (and a summary edited to hide it)
  refused(dp_kde(d2[c("v", "w")], as.matrix(expand.grid(g[c(TRUE, FALSE)], g[c(TRUE, FALSE)])), bandwidth = 0.1,
                 epsilon = 1, delta = 1e-3), "dp_kde frame")
  refused(summarise_kde(d2, g, bandwidth = 0.1, columns = "v"), "summarise_kde")
  refused(summarise_kme(d2, kernel_gaussian(0.3), synthetic = z, columns = c("v", "w")), "summarise_kme")
  s <- summarise_kde(d1, g, bandwidth = 0.1, columns = "v")
  s$dropped <- 1
  expect_error(dp_kde(s, g, bandwidth = 0.1, epsilon = 1, delta = 1e-3), class = "dpfda_error_data")
})

test_that("dp_bandwidth(): only the propose-test-release outcome differs", {
  # (release_id, a counter and the clock, differs between any two calls and is left out)
  set.seed(550)
  y <- rnorm(550)
  y2 <- y
  y2[which.min(y)] <- 100                      # moves the quartiles by one rank: the test passes in one only
  bw_noisy <- c("bandwidth", "H", "private")
  rel <- function(...) function(v) dp_bandwidth(v, epsilon = 5, delta = 1e-6, fallback = 0.3, ...)
  d <- neighbour_diff(rel(), y, y2, seeds = 1:5, volatile = "release_id")
  expect_noisy_diff(d, bw_noisy, "dp_bandwidth")
  d <- neighbour_diff(rel(noise = "float"), y, y2, seeds = 1:5, volatile = "release_id")
  expect_noisy_diff(d, bw_noisy, "dp_bandwidth float")
  d <- neighbour_diff(rel(domain = c(-4.5, 4.5), binned = TRUE), y, y2, seeds = 1:5, volatile = "release_id")
  expect_noisy_diff(d, bw_noisy, "dp_bandwidth binned")
  # one unit (2 points) replaced, n = 490 units
  set.seed(490)
  yu <- rnorm(980)
  u <- rep(1:490, each = 2)
  yu2 <- yu
  yu2[u == u[which.min(yu)]] <- c(100, 101)
  d <- neighbour_diff(function(v) rel(unit = u)(v), yu, yu2, seeds = 1:5, volatile = "release_id")
  expect_noisy_diff(d, bw_noisy, "dp_bandwidth unit")
  # one record moved from the smallest to the largest row of a frequency table (n = 700 records)
  set.seed(350)
  yc <- rnorm(350)
  cnt <- rep(2L, 350)
  cnt2 <- cnt
  cnt2[which.min(yc)] <- 1L
  cnt2[which.max(yc)] <- 3L
  d <- neighbour_diff(function(cc) rel(counts = cc)(yc), cnt, cnt2, seeds = 1:5, volatile = "release_id")
  expect_noisy_diff(d, bw_noisy, "dp_bandwidth counts")
})

# ---- dp_kme ----------------------------------------------------------------------------

test_that("dp_kme(): only noisy fields differ, for every method, with units and counts", {
  set.seed(1)
  x <- matrix(rnorm(120), ncol = 2)
  x2 <- x
  x2[1, ] <- c(8, -8)
  z <- matrix(runif(40, -3, 3), ncol = 2)
  k <- kernel_gaussian(1)
  kme_noisy <- c("values.values", "weights", "points", "values.values@dim", "points@dim", "selected")
  rel <- function(..., delta = 1e-5) {
    a <- list(...)
    function(p) do.call(dp_kme, c(list(p, k, epsilon = 1, delta = delta, synthetic = z), a))
  }
  d <- neighbour_diff(rel(), x, x2)
  expect_noisy_diff(d, kme_noisy, "subspace")
  d <- neighbour_diff(rel(domain = c(-3, 3), l1_bound = 2, noise = "exact"), x, x2)
  expect_noisy_diff(d, kme_noisy, "subspace, domain, l1_bound, exact")
  d <- neighbour_diff(rel(delta = 0, tight = TRUE), x, x2)
  expect_noisy_diff(d, kme_noisy, "subspace, pure")
  d <- neighbour_diff(function(p) dp_kme(p, k, epsilon = 1, delta = 1e-5, method = "random_features",
                                         synthetic = z[1:5, ], J = 50, iters = 10), x, x2)
  expect_noisy_diff(d, kme_noisy, "random features")
  u <- rep(1:30, each = 2)
  d <- neighbour_diff(function(s) rel(unit = s$u)(s$x), list(x = x, u = u),
                      list(x = rbind(matrix(rnorm(10), 5), x[-(1:2), ]), u = c(rep(1L, 5), u[-(1:2)])))
  expect_noisy_diff(d, kme_noisy, "subspace, unit")
  cnt <- rep(2L, 60)
  cnt2 <- cnt
  cnt2[1] <- 1L
  cnt2[2] <- 3L
  d <- neighbour_diff(function(cc) rel(counts = cc)(x), cnt, cnt2)
  expect_noisy_diff(d, kme_noisy, "subspace, counts")
  # the exponential mechanism: a small N, so that one row can change the choice
  set.seed(4)
  xe <- matrix(rnorm(8), ncol = 2)
  xe2 <- xe
  xe2[1, ] <- c(2, 2)
  zc <- matrix(runif(20, -2, 2), ncol = 2)
  cand <- list(zc[1:3, ], zc[4:6, ], zc[7:10, ])
  d <- neighbour_diff(function(p) dp_kme(p, k, epsilon = 5, delta = 0, method = "exponential", candidates = cand),
                      xe, xe2, seeds = 1:20)
  expect_noisy_diff(d, kme_noisy, "exponential")
})

# ---- functions of a function: dp_gp_release, dp_bernstein, dp_online -------------------

test_that("dp_gp_release(), dp_bernstein() and dp_online(): only the released values differ", {
  grid <- seq(0, 1, length.out = 30)
  f1 <- function(t) sin(2 * pi * t)
  f2 <- function(t) sin(2 * pi * t) + 0.05 * cos(pi * t)
  for (nz in c("float", "exact")) {
    d <- neighbour_diff(function(f) dp_gp_release(f, grid, kernel_gaussian(0.1), sensitivity = 0.05, epsilon = 1,
                                                  delta = 1e-5, noise = nz), f1, f2)
    expect_noisy_diff(d, "values.values", paste("dp_gp_release", nz))
    d <- neighbour_diff(function(f) dp_gp_release(f, grid, kernel_exponential(0.1), sensitivity = 0.05, epsilon = 1,
                                                  delta = 1e-5, noise = nz, method = "markov"), f1, f2)
    expect_noisy_diff(d, "values.values", paste("dp_gp_release markov", nz))
    d <- neighbour_diff(function(f) dp_bernstein(f, sensitivity = 0.05, epsilon = 1, k = 10, h = 3, noise = nz),
                        f1, f2)
    expect_noisy_diff(d, "values.values", paste("dp_bernstein", nz))
    online <- function(f) {
      o <- dp_online(f, kernel_exponential(0.1), sensitivity = 0.05, epsilon = 1, delta = 1e-5, noise = nz)
      query(o, c(0.5, 0.1))
      query(o, 0.9)
      released(o)
    }
    d <- neighbour_diff(online, f1, f2)
    expect_noisy_diff(d, "values.values", paste("dp_online", nz))
  }
  d <- neighbour_diff(function(f) dp_bernstein(f, sensitivity = 0.05, epsilon = 1, k = 10, delta = 1e-5), f1, f2)
  expect_noisy_diff(d, "values.values", "dp_bernstein gaussian")
  d <- neighbour_diff(function(v) dp_bernstein(v, sensitivity = 0.01, epsilon = 1, k = 5, dim = 2, domain = c(-1, 1)),
                      rep(0, 36), c(1, rep(0, 35)))
  expect_noisy_diff(d, "values.values", "dp_bernstein 2-D")
  online2 <- function(f) {
    o <- dp_online(f, kernel_gaussian(0.5), sensitivity = 0.05, epsilon = 1, delta = 1e-5)
    query(o, rbind(c(0, 0), c(0.5, 0.5)))
    released(o)
  }
  d <- neighbour_diff(online2, function(p) p[, 1] * p[, 2], function(p) p[, 1] * p[, 2] + 0.01)
  expect_noisy_diff(d, "values.values", "dp_online 2-D")
})

# ---- regression: dp_gp_regression, dp_sparse_gp_regression, dp_bin_regression ---------

test_that("dp_gp_regression() and dp_sparse_gp_regression(): only noisy fields differ (outputs private)", {
  set.seed(1)
  x <- sort(runif(60))
  y <- sin(6 * x) + rnorm(60, 0, 0.2)
  y2 <- y
  y2[5] <- 50                                  # clipped to y_bound in one data set only
  nd <- seq(0, 1, length.out = 8)
  k <- kernel_gaussian(0.2)
  reg_noisy <- "values.values"
  # a privately chosen y_bound, and what follows from it
  auto_noisy <- c(reg_noisy, "y_bound", "y_bound_auto.bound", "sensitivity", "noise_scale", "noise_covariance")
  rel <- function(...) {
    a <- list(...)
    function(yy) do.call(dp_gp_regression, c(list(x, yy, nd, k, noise_variance = 0.04, epsilon = 1, delta = 1e-5), a))
  }
  d <- neighbour_diff(rel(y_bound = c(-2, 2)), y, y2)
  expect_noisy_diff(d, reg_noisy, "cloaking")
  d <- neighbour_diff(rel(y_bound = c(-2, 2), noise = "exact", unit = rep(1:30, each = 2)), y, y2)
  expect_noisy_diff(d, reg_noisy, "cloaking, exact, unit")
  for (b in c("rkhs", "paper_b", "infinity")) {
    d <- neighbour_diff(rel(y_bound = c(-2, 2), mechanism = "standard", bound = b), y, y2)
    expect_noisy_diff(d, reg_noisy, paste("standard", b))
  }
  d <- neighbour_diff(rel(y_bound = c(-2, 2), mechanism = "standard", unit = rep(1:30, each = 2)), y, y2)
  expect_noisy_diff(d, reg_noisy, "standard, unit")
  # y_bound = "auto" (a few hundred outputs)
  set.seed(2)
  xa <- runif(400)
  ya <- 10 + sin(6 * xa) + rnorm(400, 0, 0.3)
  ya2 <- ya
  ya2[1] <- -1e3
  for (mech in c("cloaking", "standard")) {
    d <- neighbour_diff(function(yy) dp_gp_regression(xa, yy, nd, k, noise_variance = 0.09, y_bound = "auto",
                                                      epsilon = 1, delta = 1e-5, bound_center = 10, mechanism = mech),
                        ya, ya2)
    expect_noisy_diff(d, auto_noisy, paste(mech, "y_bound = \"auto\""), power = "values.values")
  }
  # sparse (FITC) cloaking
  set.seed(3)
  xs <- runif(80)
  ys <- sin(6 * xs) + rnorm(80, 0, 0.3)
  ys2 <- ys
  ys2[5] <- -50
  for (ind in list(6, seq(0, 1, length.out = 5))) {
    d <- neighbour_diff(function(yy) dp_sparse_gp_regression(xs, yy, nd, inducing = ind, kernel = kernel_gaussian(0.15),
                                                             noise_variance = 0.09, y_bound = c(-2, 2), epsilon = 1,
                                                             delta = 1e-5), ys, ys2)
    expect_noisy_diff(d, reg_noisy, "sparse")
  }
  d <- neighbour_diff(function(yy) dp_sparse_gp_regression(xs, yy, nd, inducing = 6, kernel = kernel_gaussian(0.15),
                                                           noise_variance = 0.09, y_bound = c(-2, 2), epsilon = 1,
                                                           delta = 1e-5, noise = "exact", unit = rep(1:40, each = 2)),
                      ys, ys2)
  expect_noisy_diff(d, reg_noisy, "sparse, exact, unit")
})

test_that("dp_bin_regression(): only noisy fields differ (outputs private, inputs public)", {
  set.seed(1)
  x <- runif(200)
  y <- sin(6 * x) + rnorm(200, 0, 0.2)
  y2 <- y
  y2[5] <- -50
  y3 <- y
  y3[5] <- NA                                  # a missing output counts at the midpoint
  # (the integral fit is fitted to the released means only)
  bin_noisy <- c("values.values", "predictions", paste0("fit.", c("lengthscale", "variance", "noise_variance",
                                                                  "alpha", "log_likelihood", "convergence")))
  # a privately chosen y_bound, and what follows from it
  auto_noisy <- c(bin_noisy, "y_bound", "y_bound_auto.bound", "sensitivity", "noise_scale", "laplace_scale")
  rel <- function(...) {
    a <- list(...)
    function(yy) do.call(dp_bin_regression, c(list(x, yy, domain = c(0, 1)), a))
  }
  d <- neighbour_diff(rel(bins = 10, y_bound = c(-2, 2), epsilon = 1, newdata = seq(0, 1, 0.1)), y, y2)
  expect_noisy_diff(d, bin_noisy, "simple")
  d <- neighbour_diff(rel(bins = 10, y_bound = c(-2, 2), epsilon = 1, newdata = seq(0, 1, 0.1)), y, y3)
  expect_noisy_diff(d, bin_noisy, "simple, a missing output")
  d <- neighbour_diff(rel(bins = 10, y_bound = c(-2, 2), epsilon = 1, noise = "exact",
                          unit = rep(1:100, each = 2)), y, y2)
  expect_noisy_diff(d, bin_noisy, "exact, unit")
  d <- neighbour_diff(rel(bins = 6, y_bound = c(-2, 2), epsilon = 1, method = "integral",
                          newdata = seq(0, 1, 0.25)), y, y2)
  expect_noisy_diff(d, bin_noisy, "integral")
  d <- neighbour_diff(rel(bins = 10, y_bound = "auto", epsilon = 3), y, y2)
  expect_noisy_diff(d, auto_noisy, "y_bound = \"auto\"", power = "values.values")
  d <- neighbour_diff(rel(bins = 10, y_bound = "auto", epsilon = 3, unit = rep(1:100, each = 2)), y, y2)
  expect_noisy_diff(d, auto_noisy, "y_bound = \"auto\", unit", power = "values.values")
})

# ---- dp_krr, dp_svm, dp_erm ------------------------------------------------------------

# Regression data and a neighbour: one covariate beyond the domain (clamped in one data set only),
# one output far beyond its bound, three labels flipped.
audit_erm_data <- function(n) {
  set.seed(1)
  x <- runif(n)
  y <- sin(2 * pi * x) + rnorm(n, sd = 0.3)
  lab <- ifelse(x + rnorm(n, sd = 0.2) > 0.5, 1, -1)
  A <- list(x = x, y = y, lab = lab)
  B <- A
  B$x[1] <- 7
  B$y[1] <- -50
  B$lab[1:3] <- -B$lab[1:3]
  list(x = x, y = y, lab = lab, A = A, B = B)
}

test_that("dp_krr() and dp_svm(): only the released function differs (covariates and outputs private)", {
  e <- audit_erm_data(80)
  x <- e$x
  y <- e$y
  lab <- e$lab
  g <- seq(0, 1, length.out = 25)
  k <- kernel_gaussian(0.1)
  A <- c(e$A, list(u = rep(1:40, each = 2)))
  B <- c(e$B, list(u = A$u))
  U <- list(x = c(runif(5), x[-(1:2)]), y = c(rep(3, 5), y[-(1:2)]), lab = c(rep(1, 5), lab[-(1:2)]),
            u = c(rep(1L, 5), A$u[-(1:2)]))    # unit 1 with 5 rows in place of 2
  krr <- function(...) function(s) dp_krr(s$x, s$y, lambda = 0.1, kernel = k, grid = g, y_bound = c(-2, 2),
                                          epsilon = 1, delta = 1e-5, ...)
  svm <- function(...) function(s) dp_svm(s$x, s$lab, lambda = 0.05, kernel = k, grid = g, epsilon = 1,
                                          delta = 1e-5, ...)
  for (nm in c("krr", "svm")) {
    f <- get(nm)
    d <- neighbour_diff(f(), A, B)
    expect_noisy_diff(d, "values.values", nm)
    d <- neighbour_diff(f(domain = c(0, 1), noise = "exact"), A, B)
    expect_noisy_diff(d, "values.values", paste(nm, "domain, exact"))
    d <- neighbour_diff(function(s) f(unit = s$u)(s), A, U)
    expect_noisy_diff(d, "values.values", paste(nm, "unit"))
    cnt <- rep(2L, 80)
    cnt2 <- cnt
    cnt2[1] <- 0L                              # a count of 0 leaves its row out
    cnt2[2] <- 4L
    d <- neighbour_diff(function(cc) f(counts = cc)(A), cnt, cnt2)
    expect_noisy_diff(d, "values.values", paste(nm, "counts"))
  }
  d <- neighbour_diff(svm(strict = FALSE), A, B)
  expect_noisy_diff(d, "values.values", "svm strict = FALSE")
})

test_that("dp_erm(): only the released function differs", {
  e <- audit_erm_data(100)
  g <- seq(0, 1, length.out = 21)
  A <- e$A
  B <- e$B
  erm_noisy <- c("values.values", "coefficients")
  sq <- function(...) function(s) dp_erm(s$x, s$y, epsilon = 1, psi = 0.01, grid = g, eta = 2, y_bound = 2, ...)
  lg <- function(...) function(s) dp_erm(s$x, s$lab, epsilon = 1, psi = 0.01, grid = g, eta = 2, loss = "logistic", ...)
  d <- neighbour_diff(sq(), A, B)
  expect_noisy_diff(d, erm_noisy, "square")
  d <- neighbour_diff(sq(noise = "exact", domain = c(0, 1)), A, B)
  expect_noisy_diff(d, erm_noisy, "square, exact, domain")
  d <- neighbour_diff(lg(), A, B)
  expect_noisy_diff(d, erm_noisy, "logistic")
})

test_that("dp_erm(unit =) records no number of rows of the units", {
  # n counts units (public); the units' numbers of rows are not public (dp_mean(): "a release
  # never states how many curves the units have"; dp_svm(): "the number of rows of each is not
  # needed"). dp_erm(unit =) stores (and prints) n_rows, their total.
  set.seed(1)
  x <- runif(80, 0.05, 0.95)
  A <- list(x = x, y = sin(6 * x), lab = sign(x - 0.5), u = rep(1:40, each = 2))
  xb <- c(runif(6, 0.05, 0.95), x[-(1:2)])
  B <- list(x = xb, y = sin(6 * xb) + 1, lab = sign(xb - 0.3), u = c(rep(1L, 6), A$u[-(1:2)]))
  g <- seq(0, 1, length.out = 15)
  for (loss in c("square", "logistic")) {
    d <- neighbour_diff(function(s) dp_erm(s$x, if (loss == "square") s$y else s$lab, epsilon = 1, psi = 0.01,
                                           grid = g, eta = 2, loss = loss, y_bound = if (loss == "square") 2,
                                           unit = s$u), A, B)
    # (it stored n_rows, 80 against 84, the total number of rows of the units)
    expect_only_noisy(d, c("values.values", "coefficients"), paste("dp_erm unit,", loss))
    expect_power(d, "values.values", paste("dp_erm unit,", loss))
  }
})

# ---- mortality -------------------------------------------------------------------------

test_that("the private mean of mortality distributions: only noisy fields differ (one region replaced)", {
  d <- un_mortality
  d2 <- d
  r1 <- d2$region == levels(d2$region)[1]
  d2$deaths[r1] <- d2$deaths[r1] * rev(seq_len(sum(r1)))   # one region's distribution replaced
  m1 <- mortality_distribution(d, age = age, deaths = deaths, group = region)
  m2 <- mortality_distribution(d2, age = age, deaths = deaths, group = region)
  k <- kernel_matern(3 / 2, 10)
  for (mech in c("iclp_qr", "frl", "gp", "bernstein")) {
    dd <- neighbour_diff(function(m) dp_mean(m, epsilon = 1, tau = if (mech == "bernstein") 0.1 else 0.4, kernel = k,
                                             mechanism = mech, delta = if (mech == "gp") 1e-3), m1, m2)
    expect_noisy_diff(dd, mean_noisy, paste("mortality", mech))
  }
  dd <- neighbour_diff(function(m) dp_mean(m, epsilon = 1, tau = 0.4, kernel = k, inference = TRUE), m1, m2)
  expect_noisy_diff(dd, c(mean_noisy, inference_noisy), "mortality, inference")
  dd <- neighbour_diff(function(m) dp_cov(m, epsilon = 1, tau = 0.4, kernel = k, J = 5), m1, m2)
  expect_noisy_diff(dd, c("values.values", "coefficients"), "mortality, covariance")
})
