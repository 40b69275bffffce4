# The computations behind dp_explore() (R/explore.R): the data sets of the
# three views, one release per call through the public mechanisms, the noise
# band and the expected error of a release, and the error against epsilon.
# Nothing here needs shiny, so the tests call these functions directly too.

explore_tabs <- c("mean", "density", "regression")

# Epsilons of the error-against-epsilon panel (log-spaced across the slider).
explore_eps_grid <- c(0.1, 0.3, 1, 3, 10)

explore_mechanisms <- list(
  mean = c("ICLP-QR" = "iclp_qr", "ICLP-AR" = "iclp_ar", "FRL" = "frl", "GP" = "gp",
           "Bernstein" = "bernstein"),
  density = c("GP" = "gp", "ICLP" = "iclp", "Bernstein" = "bernstein"),
  regression = c("Cloaking" = "cloaking", "Standard (Hall et al.)" = "standard"))

# A fixed permutation of 1..n from R's generator, leaving the caller's random
# stream as it was (the subsample of size n is its first n entries).
explore_permutation <- function(n, seed = 20L) {
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had) old <- get(".Random.seed", envir = globalenv())
  on.exit(if (had) assign(".Random.seed", old, envir = globalenv())
          else rm(".Random.seed", envir = globalenv()), add = TRUE)
  set.seed(seed)
  sample.int(n)
}

explore_local_draw <- function(seed, code) {
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had) old <- get(".Random.seed", envir = globalenv())
  on.exit(if (had) assign(".Random.seed", old, envir = globalenv())
          else rm(".Random.seed", envir = globalenv()), add = TRUE)
  set.seed(seed)
  force(code)
}

# ---- data sets ---------------------------------------------------------------

# Every data set is a list with `label`, `n_max`, `n` (default), the slider
# ranges of its tab and the data; `user = TRUE` for the user's own.
# The slider ranges of the user's data are computed from the data, as a
# convenience for the data holder exploring them: a real release must take
# its bounds from public knowledge (see ?dp_explore).

# `unit` (mean): the person of each curve, for person-level privacy; n then
# counts persons, the subsample takes whole persons, and the releases use
# dp_mean(unit =).
explore_mean_set <- function(values, grid, label, tau, tau_range, ls = 0.1, user = FALSE, units = "",
                             unit = NULL) {
  ok <- stats::complete.cases(values)
  values <- values[ok, , drop = FALSE]
  if (!is.null(unit)) unit <- unit[ok]
  n <- if (is.null(unit)) nrow(values) else length(unique(unit))
  list(label = label, values = values, grid = grid, n_max = n,
       n = n, perm = explore_permutation(n), tau = tau, tau_range = tau_range,
       lengthscale = ls, ls_range = signif(c(0.02, 0.5) * diff(range(grid)), 2), user = user,
       units = units, unit = unit)
}

explore_density_set <- function(x, label, bounds, bandwidth, bw_range, n = 1000L, truth = NULL,
                                user = FALSE, units = "") {
  x <- x[is.finite(x)]
  list(label = label, x = x, n_max = length(x), n = min(n, length(x)), perm = explore_permutation(length(x)),
       bounds = bounds, bounds_range = signif(bounds + c(-0.2, 0.2) * diff(bounds), 2), lengthscale = bandwidth,
       ls_range = bw_range, truth = truth, user = user, units = units)
}

explore_regression_set <- function(x, y, label, y_bound, y_range, ls = 0.1, noise_variance, truth = NULL,
                                   n = 150L, user = FALSE, xlab = "x", ylab = "y") {
  ok <- is.finite(x) & is.finite(y)
  x <- x[ok]
  y <- y[ok]
  list(label = label, x = x, y = y, n_max = length(x), n = min(n, length(x)),
       perm = explore_permutation(length(x)), newdata = seq(min(x), max(x), length.out = 50L),
       y_bound = y_bound, bounds_range = y_range, lengthscale = ls,
       ls_range = signif(c(0.02, 0.5) * diff(range(x)), 2), noise_variance = noise_variance, truth = truth,
       user = user, xlab = xlab, ylab = ylab)
}

# The package's own data sets.
explore_builtin <- function() {
  data_set <- function(name) getExportedValue("dpfda", name)   # lazy data, attached or not
  fa <- data_set("dti_cca")$cca
  ad <- data_set("adelaide_monday") / 1000
  um <- data_set("un_mortality")
  mix <- function(t) 0.6 * stats::dbeta(t, 2, 5) + 0.4 * stats::dbeta(t, 7, 2)
  xm <- explore_local_draw(11L, {
    z <- stats::runif(5000) < 0.6
    ifelse(z, stats::rbeta(5000, 2, 5), stats::rbeta(5000, 7, 2))
  })
  deaths <- tapply(um$deaths, um$age, sum)
  ages <- explore_local_draw(12L, {
    a <- sample(as.numeric(names(deaths)), 5000, replace = TRUE, prob = deaths)
    pmin(a + stats::runif(5000), 100)
  })
  f <- function(t) sin(2 * pi * t) + 0.5 * cos(5 * pi * t)
  xr <- explore_local_draw(13L, sort(stats::runif(1000)))
  yr <- explore_local_draw(14L, f(xr) + stats::rnorm(1000, 0, 0.3))
  # Adelaide: demand at 18:00 against the day of the year (Mondays from 6 July 1997)
  day <- as.numeric(format(as.Date("1997-07-07") + 7 * (seq_len(nrow(ad)) - 1L), "%j"))
  list(
    mean = list(
      # person-level privacy: 142 subjects with 1 to 7 complete scans each
      dti = explore_mean_set(fa, seq(0, 1, length.out = ncol(fa)),
                             "DTI: fractional anisotropy along the corpus callosum (142 persons, 376 scans)",
                             tau = 0.6, tau_range = c(0.1, 1.5), units = "FA",
                             unit = data_set("dti_cca")$id),
      adelaide = explore_mean_set(ad, seq(0, 1, length.out = ncol(ad)),
                                  "Adelaide: electricity demand on Mondays, GW (508 days)",
                                  tau = 2.5, tau_range = c(0.2, 4), units = "GW")),
    density = list(
      mixture = explore_density_set(xm, "Synthetic: beta mixture on [0, 1] (true density known)",
                                    bounds = c(0, 1), bandwidth = 0.05, bw_range = c(0.01, 0.2), truth = mix),
      mortality = explore_density_set(ages, "Age at death: world, UN WPP 2019 (sample of deaths)",
                                      bounds = c(0, 100), bandwidth = 4, bw_range = c(1, 15),
                                      units = "years")),
    regression = list(
      synthetic = explore_regression_set(xr, yr, "Synthetic: sin(2 pi x) + cos(5 pi x) / 2 + noise",
                                         y_bound = c(-2, 2), y_range = c(-5, 5), ls = 0.1,
                                         noise_variance = 0.09, truth = f),
      adelaide = explore_regression_set(day / 366, ad[, "18:00"],
                                        "Adelaide: demand at 18:00 on Mondays (GW) against the time of year",
                                        y_bound = c(0.5, 3.5), y_range = c(0, 5), ls = 0.1,
                                        noise_variance = 0.04, xlab = "time of year",
                                        ylab = "GW"))
  )
}

# The user's data: curves or a matrix (mean), a numeric vector (density), a
# data frame with numeric columns x and y (regression), or a named list of
# these (`mean`, `density`, `regression`).
explore_user_data <- function(data) {
  if (is.null(data)) return(list())
  parts <- if (is.list(data) && !is.data.frame(data) && !inherits(data, "dpfda_curves")) data else
    list(data)
  if (!length(parts)) arg_error("data", "curves, a matrix, a numeric vector, a data frame or a list of them", data)
  out <- list()
  for (i in seq_along(parts)) {
    p <- parts[[i]]
    nm <- if (is.null(names(parts))) "" else names(parts)[i]
    tab <- if (inherits(p, "dpfda_curves") || is.matrix(p)) "mean" else if (is.data.frame(p)) "regression"
           else if (is.numeric(p) && is.null(dim(p))) "density" else NA
    if (is.na(tab) || (nzchar(nm) && nm != tab)) {
      arg_error("data", paste("curves or a numeric matrix (mean), a numeric vector (density), a data frame",
                              "with numeric columns x and y (regression), or a list of these named mean,",
                              "density, regression"), p)
    }
    out[[tab]] <- switch(tab,
      mean = explore_user_mean(p),
      density = explore_user_density(p),
      regression = explore_user_regression(p))
  }
  out
}

explore_user_mean <- function(p) {
  if (inherits(p, "dpfda_curves")) {
    if (p$dim != 1L) dpfda_abort("dp_explore() needs curves on a one-dimensional grid.", arg = "data")
    v <- p$values
    g <- p$grid
  } else {
    if (!is.numeric(p)) arg_error("data", "a numeric matrix of curves (one per row)", p)
    v <- p
    g <- seq(0, 1, length.out = ncol(p))
  }
  if (nrow(v) < 10L || ncol(v) < 5L) {
    dpfda_abort("The curves for dp_explore() need at least 10 rows and 5 grid points.", arg = "data")
  }
  w <- quadrature_weights(g)
  nrm <- sqrt(as.vector((v * v) %*% w))
  top <- max(nrm[is.finite(nrm)])
  explore_mean_set(v, g, sprintf("Your curves (%d)", nrow(v)), tau = signif(top, 2),
                   tau_range = signif(c(0.05, 2) * top, 2), ls = 0.1 * diff(range(g)), user = TRUE)
}

explore_user_density <- function(p) {
  p <- p[is.finite(p)]
  if (length(p) < 10L) dpfda_abort("The data for dp_explore() need at least 10 finite values.", arg = "data")
  r <- range(p)
  if (r[1] == r[2]) r <- r + c(-1, 1)
  explore_density_set(p, sprintf("Your data (%d values)", length(p)), bounds = signif(r, 3),
                      bandwidth = signif(diff(r) / 20, 2), bw_range = signif(diff(r) * c(0.005, 0.25), 2),
                      user = TRUE)
}

explore_user_regression <- function(p) {
  if (!all(c("x", "y") %in% names(p)) || !is.numeric(p$x) || !is.numeric(p$y)) {
    miss <- setdiff(c("x", "y"), names(p))
    dpfda_abort(sprintf(paste("`data` must be a data frame with numeric columns x and y (a regression); %s.",
                              "Rename its columns, e.g. data.frame(x = d$waiting, y = d$eruptions)."),
                        if (length(miss)) sprintf("it has no column %s (its columns: %s)", paste(miss, collapse = " or "),
                                                  paste(names(p), collapse = ", "))
                        else "its x or y is not numeric"), arg = "data")
  }
  o <- order(p$x)
  x <- p$x[o]
  y <- p$y[o]
  if (sum(is.finite(x) & is.finite(y)) < 10L) {
    dpfda_abort("The data for dp_explore() need at least 10 complete (x, y) pairs.", arg = "data")
  }
  r <- range(y[is.finite(y)])
  if (r[1] == r[2]) r <- r + c(-1, 1)
  explore_regression_set(x, y, sprintf("Your data (%d points)", length(x)), y_bound = signif(r, 3),
                         y_range = signif(r + c(-1, 1) * diff(r), 3), ls = 0.1 * diff(range(x, na.rm = TRUE)),
                         noise_variance = stats::var(y, na.rm = TRUE) / 10, user = TRUE)
}

# ---- releases ------------------------------------------------------------------

# Parameters of a view: mechanism, epsilon, delta, n, tau (mean) or bounds
# (density: domain; regression: y_bound), lengthscale, releases; `tuning`
# (ICLP-QR): "fixed" keeps psi at its PSS value for epsilon = 1, "pss"
# retunes it at each epsilon (dp_mean()'s default).
explore_defaults <- function(set, tab) {
  list(mechanism = explore_mechanisms[[tab]][[1]], tuning = "fixed", epsilon = 1, delta = 1e-3, n = set$n,
       tau = set$tau, bounds = if (tab == "mean") NULL else if (tab == "density") set$bounds else set$y_bound,
       lengthscale = set$lengthscale, releases = 5L)
}

# The subsample of size n, the grid and the non-private estimate.
explore_subsample <- function(set, tab, p) {
  n <- max(2L, min(as.integer(p$n), set$n_max))
  idx <- set$perm[seq_len(n)]
  switch(tab,
    mean = {
      if (!is.null(set$unit)) {   # the first n persons of the permutation, with all their curves
        persons <- unique(set$unit)[idx]
        keep <- set$unit %in% persons
        x <- curves(set$values[keep, , drop = FALSE], set$grid)
        u <- structure(set$unit[keep], name = "person")   # (the name the prints give the unit)
        # the estimand of a person-level release: the mean over persons of each person's mean curve
        pm <- rowsum(x$values, u, reorder = FALSE) / as.vector(table(u)[as.character(unique(u))])
        return(list(x = x, unit = u, grid = set$grid, nonprivate = colMeans(pm), n = n))
      }
      x <- curves(set$values[idx, , drop = FALSE], set$grid)
      list(x = x, grid = set$grid, nonprivate = colMeans(x$values), n = n)
    },
    density = {
      grid <- seq(p$bounds[1], p$bounds[2], length.out = 101L)
      x <- set$x[idx]
      np <- kde_gaussian(x, grid, p$lengthscale, domain = p$bounds)$values[1L, ]
      list(x = x, grid = grid, nonprivate = np, n = n,
           truth = if (!is.null(set$truth)) set$truth(grid))
    },
    regression = {
      x <- set$x[idx]
      y <- set$y[idx]
      parts <- gp_regression_parts(x, y, set$newdata, kernel_gaussian(p$lengthscale), set$noise_variance,
                                   p$bounds)
      list(x = x, y = y, grid = set$newdata, nonprivate = parts$mean, n = n,
           truth = if (!is.null(set$truth)) set$truth(set$newdata))
    })
}

# One release through the public API (budget: NULL or a privacy_budget()).
explore_release <- function(tab, set, sub, p, epsilon = p$epsilon, budget = NULL) {
  m <- p$mechanism
  switch(tab,
    mean = {
      k <- kernel_matern(3 / 2, p$lengthscale)
      # tau = "auto": the bound is bought privately inside the call (its psi is then the PSS one)
      tau <- if (isTRUE(p$tau_auto)) "auto" else p$tau
      # the population band: inference = TRUE spends a share of epsilon on the spread of the curves;
      # where a setting does not offer it, the release goes without and a note says why
      mean_call <- function(...) {
        if (!isTRUE(p$population)) return(dp_mean(...))
        tryCatch(dp_mean(..., inference = TRUE), dpfda_error_unsupported = function(e) {
          dpfda_warn(sprintf("No population band here (%s); the band is the noise band.", conditionMessage(e)),
                     "dpfda_warning_explore")
          dp_mean(...)
        })
      }
      if (m == "iclp_qr" && identical(p$tuning, "fixed") && !isTRUE(p$tau_auto)) {
        # psi of PSS at epsilon = 1 for every epsilon: the noise then scales as 1 / epsilon
        psi <- pss_params("iclp_qr", sub$n, 1, kernel_edr(k), p$tau)$psi
        return(mean_call(sub$x, epsilon, p$tau, mechanism = m, kernel = k, psi = psi, budget = budget,
                         unit = sub$unit))
      }
      if (m == "gp") {
        mean_call(sub$x, epsilon, tau, mechanism = m, kernel = k, delta = p$delta, budget = budget,
                  unit = sub$unit)
      } else mean_call(sub$x, epsilon, tau, mechanism = m, kernel = k, budget = budget, unit = sub$unit)
    },
    density = {
      if (m == "gp") {
        dp_kde(sub$x, sub$grid, p$lengthscale, epsilon, p$delta, mechanism = "gp", domain = p$bounds,
               budget = budget)
      } else {
        dp_kde(sub$x, sub$grid, p$lengthscale, epsilon, mechanism = m, domain = p$bounds, budget = budget)
      }
    },
    regression = dp_gp_regression(sub$x, sub$y, set$newdata, kernel_gaussian(p$lengthscale),
                                  set$noise_variance, p$bounds, epsilon, p$delta, method = m,
                                  budget = budget))
}

# Run `code` with the app's noise source: seeded with `seed` (teaching mode)
# or the operating system's entropy (secure mode, seed NULL); the caller's
# mode and R's random stream are restored afterwards.
explore_with_noise <- function(seed, code) {
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had) old_seed <- get(".Random.seed", envir = globalenv())
  old <- if (is.null(seed)) dp_rng("secure") else dp_reproducible(seed)
  on.exit({
    dp_rng(old)
    if (had) assign(".Random.seed", old_seed, envir = globalenv())
    else if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) rm(".Random.seed", envir = globalenv())
  }, add = TRUE)
  force(code)
}

# Collect the warnings of `code` as notes instead of letting them escape.
explore_quietly <- function(code, notes) {
  withCallingHandlers(code, warning = function(w) {
    notes$text <- unique(c(notes$text, conditionMessage(w)))
    invokeRestart("muffleWarning")
  })
}

# ---- noise band and expected error ---------------------------------------------

# Pointwise standard deviation of the noise of a release on its grid, from the
# public noise information it holds (used when dp_accuracy() is not there).
explore_pointwise_sd <- function(rel) {
  m <- ncol(rel$values$values)
  grid <- rel$values$grid
  if (!is.null(rel$noise_covariance)) return(sqrt(pmax(diag(rel$noise_covariance), 0)))
  if (inherits(rel, "dpfda_kde_bernstein_release")) return(explore_bernstein_sd(rel$lattice, grid))
  if (inherits(rel, "dpfda_bernstein_release")) return(explore_bernstein_sd(rel, grid))
  if (!is.null(rel$bernstein)) return(explore_bernstein_sd(rel$bernstein, grid))
  if (inherits(rel$noise, "dpfda_kernel") && (inherits(rel, "dpfda_gp_release") || rel$mechanism == "gp")) {
    jit <- if (is.numeric(rel$jitter)) rel$jitter else 0
    return(rep(rel$noise_scale * sqrt(rel$noise$variance + jit), m))
  }
  if (!is.null(rel$basis)) {
    lam <- rel$basis$values
    V <- rel$basis$vectors
    mech <- sub("^kde-", "", rel$mechanism)
    sdj <- switch(mech,
      iclp_qr = , iclp = rel$noise_scale * sqrt(lam),
      iclp_ar = rel$noise_scale * sqrt(lam[seq_len(rel$params$J_tau)]),
      frl = rep((if (identical(rel$params$frl_noise, "gaussian")) 1 else sqrt(2)) * rel$noise_scale, rel$params$M),
      NULL)
    if (!is.null(sdj)) {
      infl <- if (is.numeric(rel$noise_inflation)) rel$noise_inflation else 1
      V <- V[, seq_along(sdj), drop = FALSE]
      return(infl * sqrt(as.vector((V * V) %*% (sdj^2))))
    }
  }
  dpfda_abort(sprintf("dp_explore() cannot compute the noise of a %s release.", rel$mechanism))
}

# Bernstein: i.i.d. noise on the lattice, evaluated by the iterated basis.
explore_bernstein_sd <- function(b, grid) {
  dom <- b$domain
  u <- (grid - dom[1]) / (dom[2] - dom[1])
  B <- bernstein_basis(pmin(pmax(u, 0), 1), b$k, b$h)
  sd0 <- if (identical(b$noise_type, "laplace")) sqrt(2) * b$noise_scale else b$noise_scale
  sd0 * sqrt(rowSums(B * B))
}

explore_has <- function(name) exists(name, envir = asNamespace("dpfda"), inherits = FALSE)

# Expected error of a release: pointwise sd, and the root mean square over the
# domain (quadrature weights), sqrt(E int noise^2 / |domain|). Uses
# dp_accuracy() where the package has it.
explore_expected_error <- function(rel) {
  w <- quadrature_weights(rel$values$grid)
  acc <- NULL
  if (explore_has("dp_accuracy")) {
    acc <- tryCatch(get("dp_accuracy", envir = asNamespace("dpfda"))(rel, nsim = 200),   # fast enough for a slider
                    error = function(e) NULL)
  }
  sd <- if (!is.null(acc) && is.numeric(acc$pointwise_sd) &&
            length(acc$pointwise_sd) == ncol(rel$values$values)) as.vector(acc$pointwise_sd)
        else explore_pointwise_sd(rel)
  list(pointwise_sd = sd, rms = sqrt(sum(w * sd^2) / sum(w)),
       expected_l2 = if (!is.null(acc)) acc$expected_l2, expected_sup = if (!is.null(acc)) acc$expected_sup,
       bias_l2 = if (!is.null(acc)) acc$bias_l2, total_l2 = if (!is.null(acc)) acc$total_l2,
       source = if (is.null(acc)) "from the noise scale and kernel or basis" else "dp_accuracy()")
}

# Pointwise noise band of a release at `level`: confint() where the package has
# a method for releases, else the release +- z sd (normal approximation).
explore_band <- function(rel, level = 0.95, sd = NULL, population = FALSE) {
  v <- rel$values$values[1L, ]
  if (isTRUE(population) && inherits(rel, "dpfda_kde_release")) {   # the band for the smoothed density f_h
    ci <- tryCatch(stats::confint(rel, type = "population", level = level, nsim = 2000),
                   dpfda_error_unsupported = function(e) e)
    if (inherits(ci, "error")) return(c(explore_band(rel, level, sd), note = conditionMessage(ci)))
    b <- explore_band_columns(ci, length(v))
    if (!is.null(b)) return(c(b, source = "confint(type = \"population\")", population = TRUE))
  }
  if (!is.null(rel$inference)) {   # dp_mean(inference = TRUE): the band for the population mean
    ci <- tryCatch(stats::confint(rel, type = "population", level = level), error = function(e) NULL)
    b <- explore_band_columns(ci, length(v))
    if (!is.null(b)) return(c(b, source = "confint(type = \"population\")", population = TRUE))
  }
  if (explore_has("confint.dpfda_release")) {
    ci <- tryCatch(stats::confint(rel, level = level, nsim = 1000), error = function(e) NULL)
    b <- explore_band_columns(ci, length(v))
    if (!is.null(b)) return(c(b, source = "confint()"))
  }
  if (is.null(sd)) sd <- explore_pointwise_sd(rel)
  z <- stats::qnorm((1 + level) / 2)
  list(lower = v - z * sd, upper = v + z * sd, source = sprintf("release +- %.2f sd", z))
}

# lower / upper vectors of a confint() result (data frame, matrix or list).
explore_band_columns <- function(ci, m) {
  if (is.null(ci)) return(NULL)
  get_col <- function(nm) {
    if (is.data.frame(ci) || is.list(ci)) return(ci[[nm]])
    if (is.matrix(ci) && nm %in% colnames(ci)) return(ci[, nm])
    NULL
  }
  lo <- get_col("lower")
  up <- get_col("upper")
  if (is.null(lo) && is.matrix(ci) && ncol(ci) == 2L) {
    lo <- ci[, 1]
    up <- ci[, 2]
  }
  if (!is.numeric(lo) || !is.numeric(up) || length(lo) != m || length(up) != m) return(NULL)
  list(lower = as.vector(lo), upper = as.vector(up))
}

# The density tab's median: the first release's, with its interval from the band on screen (the
# noise band, or the population band when ticked; quantile(r, interval = )), and the non-private
# estimate's. NULL where the release has no such band.
explore_median <- function(rel, nonprivate, population) {
  type <- if (population) "population" else "noise"
  # (1000 Monte Carlo draws, the least the interval takes: 2000 made the view of a "gp" density 0.26-0.40 s
  # of CPU, past the explorer's 0.3 s; the interval's Monte Carlo error is far below its width)
  q <- tryCatch(stats::quantile(rel, 0.5, interval = type, nsim = 1000), dpfda_error = function(e) NULL)
  if (is.null(q)) return(NULL)
  np <- tryCatch(stats::quantile(as_density(curves(matrix(pmax(nonprivate, 0), 1L), rel$values$grid)), 0.5,
                                 names = FALSE), dpfda_error = function(e) NA_real_)
  list(estimate = q$estimate, lower = q$lower, upper = q$upper, type = type, nonprivate = np)
}

explore_rms <- function(e, grid) {
  w <- quadrature_weights(grid)
  sqrt(sum(w * e^2) / sum(w))
}

# ---- views -----------------------------------------------------------------------

# The main panel of a tab: `releases` private releases at p$epsilon, the
# non-private estimate, the band of the first release, expected and measured
# errors. `seed`: teaching mode (NULL: secure mode).
explore_view <- function(tab, set, p, seed = NULL) {
  t0 <- proc.time()
  notes <- new.env()
  notes$text <- character()
  sub <- explore_subsample(set, tab, p)
  k <- max(1L, as.integer(p$releases))
  rels <- explore_with_noise(seed, explore_quietly(
    lapply(seq_len(k), function(i) explore_release(tab, set, sub, p)), notes))
  vals <- do.call(rbind, lapply(rels, function(r) r$values$values[1L, ]))
  grid <- rels[[1L]]$values$grid
  if (!is.null(rels[[1L]]$tau_auto)) {
    notes$text <- c(notes$text, sprintf("tau chosen privately: %s (first release; share %s of epsilon)",
                                        format(rels[[1L]]$tau, digits = 3),
                                        format(rels[[1L]]$tau_auto$share, digits = 3)))
  }
  acc <- explore_expected_error(rels[[1L]])
  # (the population band warns when many curves exceed tau: a note, as the releases' warnings)
  band <- explore_quietly(explore_band(rels[[1L]], 0.95, acc$pointwise_sd,
                                       population = tab == "density" && isTRUE(p$population)), notes)
  if (!is.null(band$note)) notes$text <- c(notes$text, sprintf("No population band here (%s)", band$note))
  measured <- apply(vals, 1L, function(v) explore_rms(v - sub$nonprivate, grid))
  median <- if (tab == "density") explore_median(rels[[1L]], sub$nonprivate, isTRUE(p$population))
  tm <- proc.time() - t0
  list(tab = tab, grid = grid, nonprivate = sub$nonprivate, truth = sub$truth, releases = vals,
       band = band, sd = acc$pointwise_sd, expected = acc$rms, accuracy = acc, measured = measured,
       median = median,
       halfwidth = mean(band$upper - band$lower) / 2, release = rels[[1L]], n = sub$n, params = p,
       points = if (tab == "regression") list(x = sub$x, y = sub$y), notes = notes$text,
       seconds = tm[["elapsed"]], cpu = tm[["user.self"]] + tm[["sys.self"]])
}

# Expected and measured error at the epsilons of explore_eps_grid (one release
# each); the regression tab does both methods.
explore_errors <- function(tab, set, p, seed = NULL) {
  t0 <- proc.time()
  notes <- new.env()
  notes$text <- character()
  sub <- explore_subsample(set, tab, p)
  mechs <- if (tab == "regression") unname(explore_mechanisms$regression) else p$mechanism
  # the warnings of the panel's releases (e.g. "mostly noise" at epsilon 0.1) describe those
  # releases, not the one on screen: they are dropped, not shown as notes
  panel_warnings <- new.env()
  panel_warnings$text <- character()
  rows <- explore_with_noise(if (is.null(seed)) NULL else seed + 1L, explore_quietly(
    lapply(mechs, function(m) {
      q <- p
      q$mechanism <- m
      do.call(rbind, lapply(explore_eps_grid, function(e) {
        r <- if (isTRUE(p$tau_auto)) {
          # tau = "auto" needs n epsilon large enough: the epsilons below that are left out, with a note
          tryCatch(explore_release(tab, set, sub, q, epsilon = e), dpfda_error = function(err) {
            notes$text <- unique(c(notes$text, sprintf("tau = \"auto\" at epsilon %s: %s", format(e),
                                                       conditionMessage(err))))
            NULL
          })
        } else explore_release(tab, set, sub, q, epsilon = e)
        if (is.null(r)) return(NULL)
        data.frame(mechanism = m, epsilon = e, expected = explore_expected_error(r)$rms,
                   measured = explore_rms(r$values$values[1L, ] - sub$nonprivate, r$values$grid),
                   stringsAsFactors = FALSE)
      }))
    }), panel_warnings))
  tm <- proc.time() - t0
  list(table = do.call(rbind, rows), notes = notes$text, seconds = tm[["elapsed"]],
       cpu = tm[["user.self"]] + tm[["sys.self"]])
}
