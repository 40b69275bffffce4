# Intervals for the quantiles of a released density: the set of quantiles of every density that
# lies in a simultaneous band. Post-processing of the release and of its band: no budget.
#
# The target is the quantile that quantile() computes: of the density g that is linear between
# its values f_1..f_m at the sorted grid points (negative values set to zero), normalised on the
# grid's range. Its distribution function at x in [t_i, t_i+1] is F(x) = A / (A + B), A the mass
# left of x and B the mass right of it, both linear in f with non-negative weights:
#
#   A = sum_{j < i} w_j f_j + (h_{i-1}/2 + a(u)) f_i + b(u) f_i+1,     u = x - t_i, h = t_i+1 - t_i,
#   B = (h/2 - a(u)) f_i + (h/2 + h_{i+1}/2 - b(u)) f_i+1 + sum_{j > i+1} w_j f_j,
#   a(u) = u - u^2 / (2h),  b(u) = u^2 / (2h),  w_j the trapezoid weights.
#
# A / (A + B) increases with f_j left of the interval, decreases with f_j right of it, and is
# monotone in each of f_i, f_i+1 (a ratio of linear functions), so over the box lo <= f <= up
# its largest and smallest values are at vertices: the left values at up (lo), the right ones at
# lo (up), and the best of the 4 corners for f_i, f_i+1. On the event that the band holds at
# every grid point, lo(x) <= F(x) <= hi(x) at every x, and the quantile q_p = inf{x: F(x) >= p}
# lies in [max{x: hi(x) < p}, min{x: lo(x) >= p}] for every p at once (evaluated on the grid
# refined `refine` times, which only widens the interval, by at most one refined step).

# Bounds on the distribution function of the piecewise-linear density over the band [lo, up] at
# the grid points t (sorted), at each point of the refined grid x (returned with them).
band_cdf_bounds <- function(t, lo, up, refine = 16L) {
  m <- length(t)
  lo <- pmax(lo, 0)
  up <- pmax(up, lo)
  h <- diff(t)
  w <- (c(0, h) + c(h, 0)) / 2                 # trapezoid weights of the grid points
  cw_up <- c(0, cumsum(w * up))                # cw[i] = sum_{j < i} w_j f_j
  cw_lo <- c(0, cumsum(w * lo))
  rw_up <- rev(cumsum(rev(w * up)))            # rw[i] = sum_{j >= i} w_j f_j
  rw_lo <- rev(cumsum(rev(w * lo)))
  rw_up <- c(rw_up, 0, 0)
  rw_lo <- c(rw_lo, 0, 0)
  i <- rep(seq_len(m - 1L), each = refine)
  frac <- rep((seq_len(refine) - 1) / refine, times = m - 1L)
  i <- c(i, m - 1L)
  frac <- c(frac, 1)
  hi_ <- h[i]
  u <- frac * hi_
  a <- u - u^2 / (2 * hi_)
  b <- u^2 / (2 * hi_)
  hprev <- c(0, h)[i]                          # h_{i-1} (0 for the first interval)
  hnext <- c(h, 0)[i + 1L]                     # h_{i+1} (0 for the last)
  ca <- hprev / 2 + a                          # f_i's weight in A, and in B
  cb <- hi_ / 2 - a
  da <- b                                      # f_i+1's weight in A, and in B
  db <- hi_ / 2 + hnext / 2 - b
  ratio <- function(sa, sb, fi, fj) {
    A <- sa + ca * fi + da * fj
    B <- sb + cb * fi + db * fj
    ifelse(A + B > 0, A / (A + B), NA_real_)
  }
  corners <- list(c(1, 1), c(1, 2), c(2, 1), c(2, 2))
  vals <- list(lo, up)
  # largest F: mass left of x at up, right of it at lo; smallest: the reverse
  fmax <- do.call(pmax, lapply(corners, function(k)
    ratio(cw_up[i], rw_lo[i + 2L], vals[[k[1L]]][i], vals[[k[2L]]][i + 1L])))
  fmin <- do.call(pmin, lapply(corners, function(k)
    ratio(cw_lo[i], rw_up[i + 2L], vals[[k[1L]]][i], vals[[k[2L]]][i + 1L])))
  # a box that allows a density of zero mass says nothing there
  fmax[is.na(fmax)] <- 1
  fmin[is.na(fmin)] <- 0
  list(x = t[i] + u, lower = fmin, upper = fmax)
}

# The interval of the p-quantile over the band, for each p in probs (all at once).
band_quantile_interval <- function(t, lo, up, probs, refine = 16L) {
  cb <- band_cdf_bounds(t, lo, up, refine)
  x <- cb$x
  lower <- vapply(probs, function(p) {
    k <- which(cb$upper < p)
    if (length(k)) x[max(k)] else x[1L]
  }, 0)
  upper <- vapply(probs, function(p) {
    k <- which(cb$lower >= p)
    if (length(k)) x[min(k)] else x[length(x)]
  }, 0)
  list(lower = lower, upper = upper)
}

# quantile(r, interval = ) of a density release: the estimate (quantile() of as_density(r)) and
# the interval of each quantile from the simultaneous band of `type`.
release_quantile_interval <- function(x, probs, interval, level, nsim, seed, smoothness) {
  if (!all(probs > 0 & probs < 1)) {
    dpfda_abort(paste("An interval is for quantiles strictly inside (0, 1): the ends of the support cannot be",
                      "told from a band (a density of 0 and a small one look alike). Leave 0 and 1 out of `probs`."),
                arg = "probs")
  }
  level <- check_number(level, "level", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE,
                        what = "a number in (0, 1)")
  if (!identical(x$values$dim, 1L) || nrow(x$values$values) != 1L) {
    dpfda_abort("Quantile intervals are for one density on a one-dimensional grid.", arg = "x")
  }
  type <- if (interval == "noise") "simultaneous" else "population"
  ci <- stats::confint(x, level = level, type = type, nsim = nsim, seed = seed, smoothness = smoothness)
  o <- order(ci$arg)
  iv <- band_quantile_interval(ci$arg[o], ci$lower[o], ci$upper[o], probs)
  est <- stats::quantile(as_density(x), probs = probs, names = FALSE)
  target <- if (interval == "noise") {
    "the quantiles of the non-private estimate (the same density without the privacy noise)"
  } else {
    sprintf("the quantiles of the population density (%s)", if (is.null(smoothness)) "smoothed by the kernel, as the band's target" else
      "f itself, under the assumed bound on |f''|")
  }
  method <- sprintf(paste("the quantiles of every density within the simultaneous %s%% %s band at the grid points",
                          "(linear between them, negative values set to 0, normalised on the grid's range):",
                          "simultaneous over all probabilities. The band: %s"),
                    format(100 * level), if (interval == "noise") "noise" else "population", attr(ci, "method"))
  structure(data.frame(prob = probs, estimate = est, lower = iv$lower, upper = iv$upper),
            level = level, interval = interval, target = target, method = method,
            class = c("dpfda_quantile_interval", "data.frame"))
}

#' @export
print.dpfda_quantile_interval <- function(x, ...) {
  # (the band's construction is long: attr(, "method") holds it, as for confint())
  cat(sprintf(paste("%s%% intervals for %s, simultaneous over the probabilities: the quantiles of every density",
                    "within the release's simultaneous %s band (attr(, \"method\") says how it was made)\n"),
              format(100 * attr(x, "level")), attr(x, "target"), attr(x, "interval")))
  print(structure(x, class = "data.frame", level = NULL, interval = NULL, target = NULL, method = NULL), ...)
  invisible(x)
}
