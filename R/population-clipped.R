# The clipped individuals of dp_mean(inference = TRUE) (issue 29).
#
# The release estimates the mean of the clipped curves; the population band
# covers that mean. Where curves exceed tau the population mean differs from
# it by E[X - clip(X)], whose size no statistic of finite sensitivity bounds
# (a curve may exceed tau by any amount). What can be released cheaply is how
# often it happens: the number of individuals (units: with any curve) whose
# centred norm exceeds tau changes by at most 1 when one of them is
# replaced. A share `clip_share` of the inference budget buys that count
# (exact discrete Laplace noise; with a Gaussian release a Gaussian
# mechanism in the same mu-GDP budget), and confint(type = "population")
# states it and warns when clipping is evident.

# The exact count of the individuals (units) whose norm, after the centre,
# exceeds tau; the same on every source (the binned norms of tau = "auto",
# R/auto-bound.R, with tau as the only candidate: bin 1 is "above tau").
population_clipped_count <- function(src, basis, tau, cen, incomplete) {
  if (!is.null(src$clip_tee)) return(clipped_from_bins(src$clip_tee$summary()))
  st <- clipped_bins_settings(src, tau, basis)   # (Bernstein: clip "sup", beyond tau at some grid point)
  if (!is.null(src$curves)) {
    X <- src$curves$values   # (centred already)
    over <- if (st$clip == "l2") as.vector(X^2 %*% st$weights) > tau^2 else rowSums(abs(X) > tau) > 0
    if (is.null(src$unit)) return(sum(over))
    u <- curve_units(src$unit, nrow(X))
    return(length(unique(u$index[over])))
  }
  x <- src$data
  inc <- if (incomplete == "drop") "drop" else "zero"
  if (is_lazy_table(x)) {
    cols <- src$cols
    # (the mean summary has warned about the rows it dropped already)
    s <- withCallingHandlers(
      lazy_mean_bins(x, src$grid, tau, st$weights, st$clip, cols$id %||% "id", cols$arg %||% "arg",
                     cols$value %||% "value", cen, inc, cols$unit, st),
      dpfda_warning_data = function(e) invokeRestart("muffleWarning"))
    return(clipped_from_bins(s))
  }
  clipped_from_bins(clipped_bins_frame(x, src, tau, basis, cen, inc))
}

# One data frame (in memory, or a chunk as it passes): its binned norms.
clipped_bins_frame <- function(d, src, tau, basis, cen, inc) {
  cols <- src$cols
  st <- clipped_bins_settings(src, tau, basis)
  frame_mean_bins(d, src$grid, tau, st$weights, st$clip, cols$id %||% "id", cols$arg %||% "arg",
                  cols$value %||% "value", cen, inc, cols$unit, st)
}

clipped_bins_settings <- function(src, tau, basis) {
  list(grid = as.double(src$grid), weights = as.double(basis$weights), candidates = tau,
       clip = basis$clip %||% "l2")
}

clipped_from_bins <- function(s) sum(as.double(s$norm_counts)[-1L])

# The private count: `count` exact, n individuals (units); with a mu-GDP
# budget (`gdp`, R/population-band.R) Gaussian noise of sd 1 / mu_clip,
# otherwise discrete Laplace of scale 1 / epsilon_clip. (Vectorised over
# `count`, each with its own noise: the tests draw many at once.)
population_clipped_release <- function(count, n, epsilon_clip, gdp = NULL, delta = 0) {
  if (!is.null(gdp)) {
    mu <- gdp[["clip"]]
    if (!(mu > 0)) return(NULL)
    check_float_tails("gaussian", gdp[["total"]], delta, shift = mu,
                      what = "dp_mean(inference = TRUE) (the count of clipped curves)")
    return(list(count = count + noise_draw(length(count), "normal") / mu, n = n, family = "gaussian",
                scale = 1 / mu, mu = mu, epsilon = NA_real_))
  }
  if (!(epsilon_clip > 0)) return(NULL)
  # (the integer noise has scale ceiling(1 / epsilon_clip), R/noise-exact.R)
  list(count = exact_laplace_noise(count, 1 / epsilon_clip, 0L), n = n, family = "laplace",
       scale = ceiling(1 / epsilon_clip), epsilon = epsilon_clip)
}

# The fraction of clipped individuals: the estimate (in [0, 1]) and a
# two-sided interval at `level` from the public law of the noise (the noise
# only: the count is of the sample).
clipped_fraction <- function(cl, level = 0.95) {
  a <- 1 - level
  # (discrete Laplace of scale b: P(|L| >= k) <= 2 exp(-k / b))
  q <- if (identical(cl$family, "gaussian")) stats::qnorm(1 - a / 2) * cl$scale else cl$scale * log(2 / a)
  f <- function(v) pmin(pmax(v / cl$n, 0), 1)
  # (`outside`: the noisy count is so far below 0 or above n that the interval misses [0, n]; a
  # draw in the tails, which the clamped "0%-0%" alone would present as certainty)
  list(estimate = f(cl$count), lower = f(cl$count - q), upper = f(cl$count + q),
       outside = cl$count + q < 0 | cl$count - q > cl$n)
}

# The clause of a print or a band's method when the noisy count is a tail draw ("" otherwise).
clipped_tail_note <- function(cl, fr) {
  if (!isTRUE(fr[["outside"]])) return("")
  sprintf("; the noisy count, %s of %s, lies outside its noise's range: a tail draw", format(round(cl$count)),
          format(cl$n))
}

# Is the private count of clipped curves too noisy to give a share (its interval, at the level of
# clipped_fraction(), wider than half of 0-100%, inside the range)? Then no share is stated.
clipped_uninformative <- function(fr) !isTRUE(fr[["outside"]]) && fr[["upper"]] - fr[["lower"]] > 0.5

# Is clipping evident? The fraction above 5% with confidence 0.999.
clipped_alarm <- function(cl) clipped_fraction(cl, 0.998)[["lower"]] > 0.05

# The sentence of the population band's method, and the warning when the
# fraction is above 5% with confidence 0.999 (the lower end of a 0.998
# two-sided interval: a false alarm at most once in 1000 bands where no
# curve is clipped, fewer than with the 95% interval shown): the band is for
# the mean of the clipped curves, which then differs from the population mean.
clipped_statement <- function(object, level = 0.95) {
  cl <- object$inference$clipped
  if (is.null(cl)) return("clipping bias not included (not checked: clip_share = 0)")
  fr <- clipped_fraction(cl, level)
  pct <- function(v) paste0(format(100 * v, digits = 2, nsmall = 0), "%")
  who <- if (is.null(object$privacy_unit) || startsWith(object$privacy_unit, "one curve")) "curves" else "units"
  auto <- !is.null(object$tau_auto)
  # (as the print: a share from a count whose noise spans most of 0-100% is no finding; the method
  # said "puts 100% of the curves beyond tau" of growth curves all within tau)
  share <- if (clipped_uninformative(fr)) {
    sprintf("a private count is too noisy to tell what share of the %s is beyond tau (%s%% interval of its noise %s-%s)",
            who, format(100 * level), pct(fr[["lower"]]), pct(fr[["upper"]]))
  } else sprintf("a private count puts %s of the %s beyond tau (%s%% interval of its noise %s-%s%s)",
                 pct(fr[["estimate"]]), who, format(100 * level), pct(fr[["lower"]]), pct(fr[["upper"]]),
                 clipped_tail_note(cl, fr))
  txt <- sprintf("clipping bias not included (it is none when the curves are within tau%s); %s",
                 if (auto) ", here chosen privately" else "", share)
  if (clipped_alarm(cl)) {
    advice <- if (!auto) "Use a larger tau, or a `center` nearer the curves." else
      sprintf(paste("tau was chosen privately near the %s quantile of the norms: a larger bound_quantile",
                    "(e.g. 0.99) clips fewer."), format(object$tau_auto$quantile))
    dpfda_warn(sprintf(paste("About %s of the %s exceed tau = %s (a private count; at least %s with confidence",
                             "0.999): the release and its population band are for the mean of the clipped curves,",
                             "which can be far from the population mean. %s"),
                       pct(fr[["estimate"]]), who, format(object$tau), pct(clipped_fraction(cl, 0.998)[["lower"]]),
                       advice),
               c("dpfda_warning_clipping", "dpfda_warning_utility"))
  }
  txt
}
