# Private rule-of-thumb bandwidth (Hall et al. Section 4.1.2) through a
# private interquartile range by propose-test-release (after Dwork & Lei).

#' Private rule-of-thumb bandwidth
#'
#' The rule of thumb of Hall, Rinaldo and Wasserman (Section 4.1.2),
#' \eqn{h_j = (4/((d+1) n))^{1/(d+4)}\, \mathrm{IQR}_j / 1.34} (or Scott's
#' constant \eqn{4/(d+2)} with `rule = "scott"`), with each coordinate's
#' interquartile range released by propose-test-release (PTR):
#'
#' 1. propose the bin of width \eqn{w = \log(1 + 1/\log n)} of
#'    \eqn{\log(\mathrm{IQR}/r)} (offset by `offset`) that contains the data's
#'    value, \eqn{r} the width of `domain` in that coordinate (public; 1
#'    without `domain`), so that with a `domain` the bandwidth follows a
#'    change of units (under [dp_reproducible()], the same bandwidth in the
#'    new units);
#' 2. compute \eqn{A}, the number of data points that must change to move the
#'    IQR out of the bin (each order statistic stays between its neighbours
#'    \eqn{j} places away after \eqn{j} changes, so \eqn{A} has sensitivity 1);
#' 3. if \eqn{A + \mathrm{Laplace}(1/\epsilon') > 1 + \log(1/\delta')/\epsilon'}
#'    release the bin centre, otherwise try the next offset; if every attempt
#'    fails the coordinate gets the public `fallback`.
#'
#' Each attempt is \eqn{(\epsilon', \delta')}-DP; the budget
#' (`epsilon`, `delta`) is split evenly over the \eqn{d} coordinates and all
#' `offsets` (every attempt is counted, used or not), so the whole result is
#' (`epsilon`, `delta`)-DP by basic composition. Pass the result to
#' [dp_kde()] as `bandwidth`; it is the diagonal bandwidth matrix
#' \eqn{H = \mathrm{diag}(h_j^2)} and the KDE release records this budget.
#' PTR needs enough data: with \eqn{n \approx 100} it usually falls back.
#' The result's `n_needed` (printed, and previewed without data by
#' `dp_accuracy(mechanism = "bandwidth", epsilon = , delta = )`) is the
#' smallest `n` at which the test passes with probability at least 0.9 for
#' continuous, Gaussian-shaped data (one of the two default offsets puts the
#' log IQR at least a quarter bin from an edge; the number of changes that
#' moves it there grows like \eqn{n}); ties (rounded values) and heavy tails
#' need more. Give a public `fallback` below it.
#'
#' **Person-level privacy.** With `unit`, one person (unit) with several
#' points is the individual protected: each unit's points weigh 1 / (its
#' number of points), the quartiles are those of the weighted points (the
#' distribution a [dp_kde()] with the same `unit` estimates), `n` counts
#' units, and replacing a whole unit moves the cumulative weight at any
#' value by at most 1, so the distance \eqn{A} keeps sensitivity 1 in
#' replacements of units. With one point per unit the result is the one
#' without `unit`. A [dp_kde()] with `unit` refuses a bandwidth released
#' without one, or with other units (its `privacy_unit` must be the
#' density's, e.g. "person (300 units)").
#'
#' @param x Private data: a vector, an `n x d` matrix, or a data frame of
#'   numeric columns (with `unit`, plus the unit's column); or a database
#'   table (dbplyr) or [dp_chunks()] with `columns` (see `binned`). A row with a
#'   missing or non-finite value in a used column (or a missing unit or
#'   count) is refused on every source (`dpfda_error_data`), as in
#'   [dp_kde()]: dropping it would release whether a record is missing. For `tidy()` and
#'   `glance()`: a `dpfda_bandwidth`.
#' @param epsilon,delta Total budget of the bandwidth release.
#' @param rule `"paper"` (the paper's \eqn{d+1}) or `"scott"` (\eqn{d+2}).
#' @param fallback Public bandwidth(s) used for coordinates whose test fails
#'   (one number or one per dimension). With `NULL`, a failed test is an error
#'   of class `dpfda_error_ptr` (the budget is spent all the same).
#' @param budget `NULL`, or a [privacy_budget()] to charge (before the data
#'   are used; the result remembers it was charged, so [dp_kde()] does not
#'   charge it again).
#' @param offsets Bin offsets tried in turn (fractions of a bin width).
#' @param domain `NULL`, or the public bounds of the data, as in [dp_kde()]:
#'   `c(lower, upper)`, a `2 x d` matrix or a list of ranges; the data are clamped to them
#'   first, exactly as [dp_kde()] does, and a tenth or more of the points
#'   beyond them get its warning (`dpfda_warning_data`, on every source). With
#'   a data frame as `x`, a matrix with column names takes the columns of
#'   those names, in that order.
#' @param noise `"exact"` (default): the integer distance \eqn{A} gets
#'   discrete Laplace noise sampled exactly ([exact_noise]), with the
#'   threshold computed from the effective \eqn{\epsilon' \le \epsilon} of
#'   the integer scale, so the PTR guarantee holds without floating-point
#'   caveats; `"float"`: the continuous Laplace sampler (the former
#'   behaviour; refused outside its regime, see [float_tails]). A whole
#'   call costs about the same either way (measured CPU time, exact against
#'   float: 2.1 against 2.1 ms for 1000 points, 12.6 against 9.5 ms for
#'   5000 points in two dimensions; the sorting dominates, the noise is one
#'   draw per attempt), hence the default.
#' @param ... Options:
#'   * `columns`: the point columns of a data frame, a database table
#'     or chunks (strings or bare names; for a table or chunks required, unless
#'     a `domain` matrix names them).
#'   * `counts`: whole-number frequencies, for a frequency table, as in
#'     [dp_kde()]: one count per point of a vector or matrix, or a column
#'     (string or bare name) of a data frame, table or chunks. Point `i`
#'     stands for `counts[i]` records, every record is its own privacy unit,
#'     `n` counts records, and the quartiles are those of `rep(x, counts)`
#'     (each point weighs its count; the result is that of the repeated
#'     points under the same seed, binned or not). The many ties of a
#'     frequency table make the test harder to pass than `n_needed` says.
#'     A missing count is refused, as a missing value.
#'     Not with `unit`.
#'
#'   Any other name is an error that names it.
#' @param unit The privacy unit when one person has several points: a column
#'   of a data frame, a table or chunks (in chunks, each unit's rows together; a string or a
#'   bare name), or a vector with one entry per point in memory. `NULL`: each
#'   point is its own unit.
#' @param binned `FALSE` (default): the quartiles of the data themselves.
#'   `TRUE` (and always for a table or chunks, which need a `domain`): of the
#'   data rounded to the centres of 2^16 equal bins of the domain per
#'   coordinate, so that only a histogram is read (a database groups the rows
#'   by bin); the IQR moves by at most one bin width, and memory with
#'   `binned = TRUE` gives the bandwidth of the same rows in a table under
#'   [dp_reproducible()].
#' @return An object of class `dpfda_bandwidth`: `bandwidth` (the \eqn{h_j}),
#'   `H`, `private` (which coordinates passed the test), `epsilon`, `delta`,
#'   `rule`, `rng`, `n_needed` (see above), `n` (points, or units), `unit`
#'   (the unit's name, or `NULL`) and `privacy_unit`. `tidy()` gives one
#'   row per coordinate (`coordinate`, `bandwidth`, `private`), `glance()`
#'   one row (the guarantee, `rule`, `n`, how many coordinates are private,
#'   `n_needed`, `rng`, `privacy_unit`).
#' @examples
#' old <- dp_reproducible(1)
#' x <- matrix(rnorm(4000), ncol = 2)
#' b <- dp_bandwidth(x, epsilon = 1, delta = 1e-6, fallback = 0.3)
#' b
#' # planning, without data: the n the private test needs at this budget
#' dp_accuracy(mechanism = "bandwidth", epsilon = 1, delta = 1e-6, d = 2)$n_needed
#' dp_rng(old)
#' @export
dp_bandwidth <- function(x, epsilon, delta, rule = c("paper", "scott"), fallback = NULL,
                         offsets = c(0, 0.5), noise = c("exact", "float"), budget = NULL, domain = NULL, ...,
                         unit = NULL, binned = FALSE) {
  check_required(c("x", "epsilon", "delta"))
  domain <- domain_from_ranges(domain)
  # `columns` (tables, chunks, data frames) and `counts`: strings or bare names; anything else misspelt is named
  opts <- if (...length()) capture_dots(..., .cols = c("columns", "counts")) else list()
  check_dot_names(opts, c("columns", "counts"), "dp_bandwidth")
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  engine <- is_engine_input(x)
  if (inherits(x, "dpfda_summary")) {
    dpfda_abort("dp_bandwidth() needs the data (points, a data frame, a table or chunks), not a summary.", arg = "x")
  }
  binned <- check_flag(binned, "binned")
  if (engine || is.data.frame(x)) {
    opts <- resolve_column_opts(opts, x, c("columns", if (engine) "counts"), n = list(columns = NULL))
  }
  # a frequency table (each point with its number of records): records are the individuals, the quartiles
  # those of rep(x, counts) (each point weighs its count, as a unit's points weigh 1 / their number)
  counts <- NULL
  if (!is.null(opts$counts)) {
    if (engine) {
      check_counts_source(x, if (!is.null(unit)) "unit")
      counts <- opts$counts
    } else {
      if (!is.null(unit)) abort_counts_with_unit()
      kc <- kde_counts_arg(opts$counts, x, opts$columns)
      counts <- kc$counts
      if (!is.null(kc$column)) x <- as.data.frame(x)[setdiff(names(x), kc$column)]
    }
    opts$counts <- NULL
  }
  if (!engine && !is.null(unit) && is.data.frame(x)) {   # the unit column of each point, then the point columns
    ucol <- check_unit_column(column_names(unit, names(x), "unit"), opts$columns)
    unit <- structure(as.data.frame(x)[[ucol]], name = ucol)
    x <- as.data.frame(x)[setdiff(names(x), ucol)]
  }
  budget <- release_open(budget, epsilon, delta)   # (the delta warning once n is known, below)
  noise <- check_choice(noise, c("exact", "float"), "noise")
  units <- NULL
  if (engine) {   # a table or chunks: columns by name (`columns`, or those a named domain gives)
    have <- engine_names_or(x)
    cols <- opts$columns %||% if (is.matrix(domain)) colnames(domain)
    if (is.null(cols)) {
      dpfda_abort("`columns` (in `...`) is required: the names of the point columns of the table or chunks.",
                  arg = "columns")
    }
    cols <- engine_columns(cols, have, "columns")
    ucol <- if (!is.null(unit)) check_unit_column(column_names(unit, have, "unit"), cols)
    d <- length(cols)
  } else {
    x <- select_point_columns(x, opts$columns)
    # a domain with column names takes those columns of a data frame (as dp_kde())
    if (is.matrix(domain)) x <- frame_named_columns(x, colnames(domain), "domain", "names its columns")
    # (a data frame: rows with a missing value dropped, as dp_kde() does; a dropped row drops its count)
    cl <- clean_point_frame(x, unit, counts)
    x <- as_points(cl$x, "x")
    unit <- cl$unit
    counts <- iclp_kde_counts(cl$counts, nrow(x))   # (whole numbers >= 0, positive sum: the records)
    units <- if (!is.null(unit)) point_units(x, unit, NULL, NULL)
    d <- ncol(x)
  }
  if (!is.null(domain)) {
    # the public bounds dp_kde() takes: data are clamped to them, as there
    ok <- is.numeric(domain) && all(is.finite(domain)) &&
      (if (d == 1L) length(domain) == 2L && domain[1] < domain[2]
       else is.matrix(domain) && identical(dim(domain), c(2L, d)) && all(domain[1, ] < domain[2, ]))
    if (!isTRUE(ok)) {
      arg_error("domain", if (d == 1L) "NULL or c(lower, upper) with lower < upper"
                else sprintf("NULL or a 2 x %d matrix of lower and upper bounds", d), domain)
    }
    if (!engine) {   # (counted first: a domain that misses a tenth of the points is said, as in dp_kde())
      n_out <- points_outside(x, matrix(as.double(domain), 2L), counts)
      x <- clamp_to_domain(x, if (d == 1L) as.double(domain) else domain)
    }
  } else if (engine || binned) {
    dpfda_abort(sprintf(paste("`domain` is required %s: the public bounds on which the data are rounded to",
                              "2^16 bins per coordinate for their quartiles."),
                        if (engine) "for a table or chunks" else "with binned = TRUE"), arg = "domain")
  }
  epsilon <- check_epsilon(epsilon)
  delta <- check_delta(delta, zero = paste("the private test of dp_bandwidth() (propose-test-release) is (epsilon, delta)-DP",
                                           "only with delta > 0: give a small delta, e.g. 1e-6, or a public bandwidth"))
  rule <- check_choice(rule, c("paper", "scott"), "rule")
  dom <- if (!is.null(domain)) (if (d == 1L) matrix(as.double(domain), 2L) else domain)
  ats <- NULL   # binned: the order statistics of each coordinate, from its histogram
  if (engine || binned) {
    if (engine) {
      hs <- bandwidth_histograms(x, dom, ucol, cols, counts)
      label <- ucol
    } else {
      frame <- stats::setNames(as.data.frame(x), paste0(".x", seq_len(d)))
      if (!is.null(units)) frame$.unit <- units$x$unit
      if (!is.null(counts)) frame$.counts <- counts
      hs <- bandwidth_histograms(frame, dom, if (!is.null(units)) ".unit", names(frame)[seq_len(d)],
                                 if (!is.null(counts)) ".counts")
      label <- units$label
    }
    w_bin <- (dom[2L, ] - dom[1L, ]) / bandwidth_hist_bins
    ats <- lapply(seq_len(d), function(j) bandwidth_hist_at(hs$H[, j], dom[1L, j], w_bin[j]))
    units <- if (!is.null(label)) list(label = label, n_units = hs$n)
  }
  if (!is.null(domain)) {   # (memory: counted before the clamping; a table or chunks: in the histograms' pass)
    total <- if (!is.null(counts)) (if (engine) hs$n else sum(counts)) else if (engine) hs$rows - hs$dropped else nrow(x)
    warn_clamped(if (engine) hs$outside %||% 0 else n_out, total, domain, if (engine) cols else colnames(x),
                 records = !is.null(counts))
  }
  # (the individuals protected: points, units or records)
  n <- if (!is.null(ats)) hs$n else if (!is.null(counts)) sum(counts) else if (is.null(units)) nrow(x) else
    units$n_units
  warn_privacy(NULL, delta, n)   # (every source: a table's n is known from its histogram)
  if (n < 8L) {
    dpfda_abort(sprintf("`x` needs at least 8 %s for a private IQR, not %d.",
                        if (!is.null(counts)) "records" else if (is.null(units)) "observations" else "units", n),
                arg = "x")
  }
  if (!is.null(fallback)) {
    ok <- is.numeric(fallback) && length(fallback) %in% c(1L, d) && all(is.finite(fallback)) &&
      all(fallback > 0) && all(fallback < 1e150)
    if (!isTRUE(ok)) {
      arg_error("fallback", if (d == 1L) "NULL or a positive number" else
        sprintf("NULL, a positive number, or one positive number per dimension (%d)", d), fallback)
    }
    fallback <- rep_len(as.double(fallback), d)
  }
  ok <- is.numeric(offsets) && length(offsets) >= 1L && all(is.finite(offsets)) &&
    all(offsets >= 0 & offsets < 1)
  if (!isTRUE(ok)) arg_error("offsets", "numbers in [0, 1)", offsets)
  # charged before the data are used: a failed private test has spent the budget too
  id <- new_release_id("dp_bandwidth")
  charge_budget(budget, epsilon, delta, "dp_bandwidth", id = id, unit = units$label)
  eps1 <- epsilon / (d * length(offsets))
  del1 <- delta / (d * length(offsets))
  if (noise == "float") {
    check_float_tails("laplace", eps1, del1, m = d * length(offsets), what = "dp_bandwidth()")
  }
  # the bins of log IQR are taken relative to the domain's width (public), so that a change of units
  # moves them with the data; without a domain, relative to 1 in the data's units
  ref <- if (is.null(domain)) rep(1, d) else if (d == 1L) diff(as.double(domain)) else domain[2L, ] - domain[1L, ]
  iqr <- vapply(seq_len(d), function(j) {
    if (!is.null(ats)) return(ptr_iqr_at(ats[[j]], n, eps1, del1, offsets, noise, ref[j]))
    # (each unit's points weigh 1 / its number of points: one unit, weight 1; with counts, a point its count)
    ptr_iqr(x[, j], eps1, del1, offsets, noise, ref[j],
            if (!is.null(counts)) counts else if (!is.null(units)) unit_weights(units$x$unit), n)
  }, 1)
  const <- (4 / ((d + if (rule == "paper") 1 else 2) * n))^(1 / (d + 4))
  h <- const * iqr / 1.34
  private <- !is.na(h)
  if (any(!private)) {
    if (is.null(fallback)) {
      n_need <- bandwidth_n_needed(epsilon, delta, d, offsets)
      # (with n beyond what Gaussian-shaped data need, the cause is the data's shape: the advice to
      # raise n or epsilon contradicted itself, "needs about n >= 5,714 (30000 given)")
      why <- if (n >= n_need) {
        sprintf(paste("At epsilon = %s Gaussian-shaped data need about n >= %s, and %s are given: the data's",
                      "interquartile range is unstable here (many ties, an IQR near 0, e.g. constant or rounded",
                      "values, or points piled at the ends of `domain`), which no n fixes; check `domain`,",
                      "or give a public bandwidth."), format(epsilon, digits = 4), format(n_need, big.mark = ","),
                format(n, big.mark = ","))
      } else {
        sprintf(paste("At epsilon = %s the test needs about n >= %s (Gaussian-shaped data; %d given)%s;",
                      "plan with dp_accuracy(mechanism = \"bandwidth\")."), format(epsilon, digits = 4),
                format(n_need, big.mark = ","), n, bandwidth_epsilon_hint(n, delta, d, offsets))
      }
      dpfda_abort(sprintf(paste("The private IQR test failed for coordinate(s) %s and no public `fallback`",
                                "was given (the budget of this call is spent: give a fallback next time). %s"),
                          paste(which(!private), collapse = ", "), why),
                  class = "dpfda_error_ptr")
    }
    h[!private] <- fallback[!private]
  }
  if (!is.null(ats)) {   # binned: the rounding is negligible only where a bin is small against the IQR
    coarse <- which(private & w_bin > 0.01 * iqr)
    if (length(coarse)) {
      dpfda_warn(sprintf(paste("The bins of `domain` (2^16 per coordinate, width %s) exceed 1%% of the released",
                               "IQR (%s) in coordinate(s) %s: the rounding of the data moves the bandwidth. Give",
                               "a narrower `domain` around the data's public range."),
                         format(signif(w_bin[coarse[1L]], 3)), format(signif(iqr[coarse[1L]], 3)),
                         paste(coarse, collapse = ", ")), class = "dpfda_warning_utility")
    }
  }
  structure(list(bandwidth = h, H = diag(h^2, d), private = private,
                 epsilon = epsilon, delta = delta, rule = rule, n = n, rng = dp_rng(),
                 noise = noise, release_id = id,
                 n_needed = bandwidth_n_needed(epsilon, delta, d, offsets),
                 unit = units$label, privacy_unit = privacy_unit_points(n, units$label, !is.null(counts))),
            class = "dpfda_bandwidth")
}

# Planning the PTR test (public): the smallest n at which, for continuous data
# shaped like a Gaussian, the test passes with probability at least `pass`.
# With the offsets 0 and 1/2 one of the two bins has the data's log IQR at
# least w/4 from its nearer edge; moving the IQR by the factor exp(w/4) takes
# about n t changes, t the smaller of Phi(q e^(w/4)) - 3/4 (widening) and
# 3/4 - Phi(q e^(-w/4)) (narrowing), q = Phi^-1(3/4). The attempt passes with
# probability 1 - exp(-(A - thr) epsilon') / 2 when A > thr, so A must exceed
# the threshold by log(1 / (2 (1 - pass))) / epsilon'. (A guide: ties, e.g.
# rounded values, and heavy tails need more.)
bandwidth_n_needed <- function(epsilon, delta, d = 1L, offsets = c(0, 0.5), pass = 0.9) {
  tt <- bandwidth_test_terms(delta, d, offsets, pass)
  thr <- 1 + tt$cost / epsilon
  a_of <- tt$a_of
  hi <- 16
  while (a_of(hi) < thr) {
    hi <- hi * 2
    if (hi > 1e15) return(Inf)
  }
  lo <- hi / 2
  while (hi - lo > 1) {
    mid <- floor((lo + hi) / 2)
    if (a_of(mid) >= thr) hi <- mid else lo <- mid
  }
  hi
}

# The other way round: the smallest epsilon at which the test passes with
# probability `pass` on n such points (Inf when no epsilon does). The test
# needs A(n) >= 1 + cost / epsilon, so epsilon >= cost / (A(n) - 1).
bandwidth_epsilon_needed <- function(n, delta, d = 1L, offsets = c(0, 0.5), pass = 0.9) {
  tt <- bandwidth_test_terms(delta, d, offsets, pass)
  a <- tt$a_of(n)
  if (a > 1) tt$cost / (a - 1) else Inf
}

# ", or epsilon >= e on these n points" for a failed test's message ("" when no epsilon suffices).
bandwidth_epsilon_hint <- function(n, delta, d, offsets) {
  e <- bandwidth_epsilon_needed(n, delta, d, offsets)
  if (!is.finite(e)) return("")
  u <- 10^(floor(log10(e)) - 2)   # (three significant digits, rounded up)
  sprintf(", or about epsilon >= %s on these %d points", format(ceiling(e / u) * u), n)
}

# The two parts of the planning rule above: the threshold's cost, k times
# (log(k / delta) + log(1 / (2 (1 - pass)))) for k = d x offsets attempts at
# epsilon / k each (the threshold is 1 + cost / epsilon), and A(n), the
# changes that move the log IQR out of its bin.
bandwidth_test_terms <- function(delta, d, offsets, pass) {
  k <- d * length(offsets)
  q <- stats::qnorm(0.75)
  # one offset: the log IQR may sit at an edge; it is at least w/20 from it with probability 0.9
  # when its place in the bin is uniform (a guide, not a guarantee)
  frac <- if (length(offsets) >= 2L) 1 / 4 else 1 / 20
  list(cost = k * (log(k / delta) + log(1 / (2 * (1 - pass)))),
       a_of = function(n) {
         w <- log(1 + 1 / log(n))
         n * min(stats::pnorm(q * exp(frac * w)) - 0.75, 0.75 - stats::pnorm(q * exp(-frac * w)))
       })
}

# One-dimensional PTR interquartile range; NA when every attempt fails.
# noise = "exact": A is an integer, so on the grid 2^-k (k >= 0) it rounds to
# itself; discrete Laplace of t = ceil(2^k / epsilon) grid units is
# epsilon' = 2^k / t <= epsilon DP for sensitivity 1, and the threshold uses
# epsilon': P(X >= log(1/delta) / epsilon') <= q^(t log(1/delta)) / (1 + q)
# <= delta with q = exp(-1/t), so the PTR guarantee is unchanged.
ptr_iqr <- function(x, epsilon, delta, offsets, noise = "float", ref = 1, wts = NULL, n_units = NULL) {
  o <- order(x)
  # the order statistic at cumulative weight r (points weigh 1, or 1 / their unit's points)
  ptr_iqr_at(ptr_order_stat(x[o], if (!is.null(wts)) wts[o]), if (is.null(wts)) length(x) else n_units,
             epsilon, delta, offsets, noise, ref)
}

# The same from the order statistics `at` (ptr_order_stat()) of n individuals.
ptr_iqr_at <- function(at, n, epsilon, delta, offsets, noise = "float", ref = 1) {
  w <- log(1 + 1 / log(n))
  i1 <- ceiling(n / 4)
  i3 <- ceiling(3 * n / 4)
  s <- at(i3) - at(i1)
  if (noise == "exact") {
    kx <- max(0L, exact_grid(1 / epsilon, "laplace"))
    eps_eff <- 2^kx / ceiling(2^kx / epsilon)
    thr <- 1 + log(1 / delta) / eps_eff
  } else {
    thr <- 1 + log(1 / delta) / epsilon
  }
  for (o in offsets) {
    # drawn before the data are looked at, independent of them
    lap <- if (noise == "exact") exact_laplace_noise(0, 1 / epsilon, kx) else rlaplace(1, 1 / epsilon)
    if (!(s > 0)) next                       # the test is refused outright
    lr <- log(ref)
    k <- floor((log(s) - lr) / w - o)
    lo <- lr + (k + o) * w
    hi <- lr + (k + o + 1) * w
    A <- ptr_iqr_distance(at, n, i1, i3, lo, hi)
    if (A + lap > thr) return(ref * exp((k + o + 0.5) * w))
  }
  NA_real_
}

# The order statistics of sorted points `xs` as a function of the cumulative weight r: the
# smallest point whose cumulative weight reaches r, -Inf for r < 1 and Inf beyond the total
# (with unit weights, the r-th order statistic). With a privacy unit each unit's points weigh
# 1 / (its number of points), so replacing a unit moves the cumulative weight at any value by at
# most 1 (its old points' weight out, its new points' in), as replacing a point does without one:
# after j replacements the statistic at r lies between those at r - j and r + j. (The cumulative
# sums of fractions are compared with a tolerance of 1e-9 of a unit for their rounding.)
ptr_order_stat <- function(xs, ws = NULL) {
  n <- length(xs)
  if (is.null(ws)) return(function(i) ifelse(i < 1, -Inf, ifelse(i > n, Inf, xs[pmin(pmax(i, 1), n)])))
  cw <- cumsum(ws)
  total <- round(cw[n])
  function(r) {
    k <- findInterval(r - 1e-9, cw, left.open = TRUE) + 1L
    ifelse(r < 1, -Inf, ifelse(r > total, Inf, xs[pmin(pmax(k, 1L), n)]))
  }
}

# Distance to instability: the smallest j >= 1 for which some data set j
# replacements (of points, or of units) away can have its IQR outside
# [exp(lo), exp(hi)); `at` gives the order statistics (ptr_order_stat()).
ptr_iqr_distance <- function(at, n, i1, i3, lo, hi) {
  # (in blocks of doubling length from j = 1: the distance is usually a small fraction of n, and
  # every j up to n + 1 took seconds at n = 1e6)
  from <- 1L
  size <- 256L
  repeat {
    j <- seq.int(from, min(n + 1L, from + size - 1L))
    L <- at(i3 - j) - at(i1 + j)
    U <- at(i3 + j) - at(i1 - j)
    bad <- !(L > 0) | suppressWarnings(log(L)) < lo | suppressWarnings(log(U)) >= hi
    if (any(bad)) return(j[which(bad)[1L]])
    from <- from + size
    size <- 2L * size
  }
}

#' @rdname dp_bandwidth
#' @export
tidy.dpfda_bandwidth <- function(x, ...) {
  check_dot_names(list(...), character(), "tidy")
  data.frame(coordinate = seq_along(x$bandwidth), bandwidth = as.double(x$bandwidth),
             private = as.logical(x$private))
}

#' @rdname dp_bandwidth
#' @export
glance.dpfda_bandwidth <- function(x, ...) {
  check_dot_names(list(...), character(), "glance")
  data.frame(rule = x$rule, epsilon = x$epsilon, delta = x$delta, n = x$n, dim = length(x$bandwidth),
             private = sum(x$private), n_needed = x$n_needed %||% NA_real_, rng = x$rng,
             privacy_unit = x$privacy_unit %||% NA_character_)
}

#' @export
print.dpfda_bandwidth <- function(x, ...) {
  cat(sprintf("<dpfda_bandwidth> rule of thumb (%s), (epsilon = %s, delta = %s)-DP\n", x$rule,
              format(x$epsilon, digits = 4), format(x$delta, digits = 4)))
  cat(sprintf("  h = %s\n", paste(format(x$bandwidth, digits = 4), collapse = ", ")))
  if (any(!x$private)) {
    cat(sprintf("  coordinate(s) %s: public fallback (private test failed)\n",
                paste(which(!x$private), collapse = ", ")))
  }
  if (!is.null(x$n_needed)) {
    cat(sprintf("  the private test needs about n >= %s at this epsilon (Gaussian-shaped data; n = %s)\n",
                format(x$n_needed, big.mark = ","), format(x$n, big.mark = ",")))
  }
  if (!is.null(x$privacy_unit)) cat(sprintf("  privacy unit: %s\n", x$privacy_unit))
  print_noise_source(x$rng)
  invisible(x)
}
