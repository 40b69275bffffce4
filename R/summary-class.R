# Sufficient summaries (design section 1, layer "summaries"): every mechanism
# that can run on data outside memory touches the data only through a sum over
# individuals, each individual's contribution bounded first. A summary object
# holds those sums, the number of individuals and the public settings they
# were computed with; summaries of disjoint parts of a data set are added with
# `+` (or `c()`), which is how chunks and map-reduce jobs combine. Summaries
# are non-private: they are never stored inside a release object.

new_dpfda_summary <- function(kind, sums, n, rows, dropped, settings, ...) {
  structure(list(kind = kind, sums = sums, n = as.double(n), rows = as.double(rows),
                 dropped = as.double(dropped), settings = settings, ...),
            class = "dpfda_summary")
}

summary_kinds <- c(kde = "binned 1-D KDE (bin weights)", mean = "clipped curve sums",
                   mortality = "deaths by group and age", kme_kernel = "kernel sums at public points",
                   kme_features = "random-feature sums",
                   cov = "clipped basis coefficients: sums and sums of outer products",
                   binreg = "bin counts and clamped output sums",
                   mean_bins = "curve sums per bin of their norms, with the norms' histogram (tau = \"auto\")")
summary_kinds <- c(summary_kinds, kde_grid = "KDE weights on the grid points (linear binning)",
                   kde_kernel = "Gaussian kernel sums at public points (KDE)",
                   cov_bins = "basis coefficient sums and outer products per bin of the norms (tau = \"auto\" on chunks)",
                   binreg_bins = "bin counts and output sums per bin of |y - centre|, with its histogram (y_bound = \"auto\")")

#' Sufficient summaries for data outside memory
#'
#' A `dpfda_summary` holds what a mechanism needs from the data: sums over
#' individuals after each individual's contribution has been bounded (bin
#' weights of a KDE, sums of clipped curves, deaths by group and age, kernel
#' sums at public points, sums of random features), the number of
#' individuals `n` (with `unit =`: the units, and the curves behind them), the
#' rows read (for curves: the values, one per curve and grid point) and those
#' dropped for missing values.
#' The summaries of disjoint parts of a data set (chunks of a file, the
#' partitions of a map-reduce job) add up with `+` or `c()` to the summary of
#' the whole, provided they were computed with the same public settings (grid,
#' bounds, bins, features; checked). Give a summary to the mechanism in place
#' of the data: [dp_kde()], [dp_mean()], [dp_kme()], [mortality_distribution()],
#' [dp_cov()], [dp_bin_regression()].
#'
#' A summary is **not private**: it is the exact statistic before noise.
#' Keep it where the data are kept; releases never contain it.
#'
#' Each part must hold whole individuals: an individual whose rows are split
#' between two parts would be bounded twice. [dp_chunks()] checks this for
#' chunks whose ids' rows come together.
#'
#' **`+` trusts that the parts are disjoint; it cannot check it.** Adding the
#' same summary twice (or two parts that share people) counts those people
#' twice: `n` doubles, the calibrated noise halves, and one person can move
#' the release twice as far as the guarantee allows. The guarantee then
#' fails. Add only summaries of disjoint sets of individuals (see the wrong
#' use in the examples).
#'
#' @param x,e1,e2,... `dpfda_summary` objects.
#' @return `+` and `c()`: the summary of the union of the parts.
#' @seealso [summarise_kde()], [summarise_mean()], [summarise_mortality()],
#'   [summarise_kme()], [summarise_cov()], [summarise_bin_regression()], [dp_chunks()].
#' @examples
#' g <- seq(0, 1, length.out = 101)
#' x <- runif(1000)
#' s <- summarise_kde(x[1:500], grid = g, bandwidth = 0.1) +
#'   summarise_kde(x[501:1000], grid = g, bandwidth = 0.1)
#' s
#' all.equal(s$sums, summarise_kde(x, grid = g, bandwidth = 0.1)$sums)
#'
#' # WRONG: the same individuals twice. n is 2000 and the noise half of what
#' # the 1000 people need; nothing can detect this, so never do it.
#' s1 <- summarise_kde(x, grid = g, bandwidth = 0.1)
#' wrong <- s1 + s1
#' wrong$n
#' @name dpfda_summary
NULL

#' @rdname dpfda_summary
#' @export
`+.dpfda_summary` <- function(e1, e2) {
  if (missing(e2)) return(e1)
  if (!inherits(e1, "dpfda_summary") || !inherits(e2, "dpfda_summary")) {
    dpfda_abort("Only dpfda_summary objects can be added to a dpfda_summary.", arg = "e2")
  }
  if (!identical(e1$kind, e2$kind)) {
    dpfda_abort(sprintf("Cannot add a %s summary to a %s summary.", e2$kind, e1$kind), arg = "e2")
  }
  if (!isTRUE(all.equal(e1$settings, e2$settings, tolerance = 0))) {
    dpfda_abort(paste("The summaries were computed with different public settings (grid, bounds, bins,",
                      "kernel or features); compute every part with the same settings."), arg = "e2")
  }
  out <- e1
  if (e1$kind == "mortality") {
    out$sums <- mortality_add(e1$sums, e2$sums)
  } else {
    out$sums <- e1$sums + e2$sums
  }
  out$n <- e1$n + e2$n
  if (e1$kind == "mortality") {   # (groups, which two parts can share: the rows of the table)
    out$n <- as.double(nrow(out$sums))
    if (!is.null(e1$groups_seen) || !is.null(e2$groups_seen)) {
      out$groups_seen <- sort(union(e1$groups_seen, e2$groups_seen))
    }
  }
  out$rows <- e1$rows + e2$rows
  out$dropped <- e1$dropped + e2$dropped
  if (!is.null(e1$beyond) || !is.null(e2$beyond)) out$beyond <- (e1$beyond %||% 0) + (e2$beyond %||% 0)
  if (!is.null(e1$missing_cells)) out$missing_cells <- e1$missing_cells + e2$missing_cells
  if (!is.null(e1$incomplete_n)) out$incomplete_n <- e1$incomplete_n + e2$incomplete_n
  if (!is.null(e1$missing_y)) out$missing_y <- e1$missing_y + e2$missing_y
  if (!is.null(e1$outside)) out$outside <- e1$outside + e2$outside   # (KDE points beyond the domain)
  if (isTRUE(e2$domain_given)) out$domain_given <- TRUE   # (the same bounds, given in one part at least)
  if (!identical(e1$unit, e2$unit) || !identical(e1$counts, e2$counts)) {   # n counts units (records) in one part and curves in the other
    dpfda_abort("The summaries were computed with different privacy units (`unit`, `counts`); compute every part with the same.",
                arg = "e2")
  }
  if (!is.null(e1$norm_counts)) out$norm_counts <- e1$norm_counts + e2$norm_counts   # (tau = "auto")
  if (!is.null(e1$curves) && !is.null(e2$curves)) out$curves <- e1$curves + e2$curves   # curves behind the units
  out
}

#' @rdname dpfda_summary
#' @export
c.dpfda_summary <- function(...) Reduce(`+.dpfda_summary`, list(...))

#' @rdname dpfda_summary
#' @export
print.dpfda_summary <- function(x, ...) {
  cat(sprintf("<dpfda_summary> %s (not private)\n", summary_kinds[[x$kind]]))
  f <- function(v) format(v, big.mark = ",", scientific = FALSE)
  # curve summaries read one value per (curve, grid point) (a row of long data, a cell of a matrix)
  what <- if (x$kind %in% c("mean", "cov", "mean_bins", "cov_bins")) "values" else "rows"
  who <- if (!is.null(x$counts)) sprintf("records (the counts of \"%s\")", x$counts) else
    if (is.null(x$unit)) "individuals" else
    sprintf("units of \"%s\"%s", x$unit, if (is.null(x$curves)) "" else sprintf(" (%s curves)", f(x$curves)))
  cat(sprintf("  %s %s from %s %s; %s %s dropped (missing values)\n", f(x$n), who, f(x$rows), what,
              f(x$dropped), what))
  # (curves left out as incomplete and cells with no row: the print said "0 values dropped" for a
  # summary that had left out 6 incomplete scans)
  if (isTRUE(x$incomplete_n > 0)) {
    cat(sprintf("  %s incomplete %s (not observed at every grid point): counted in n, contributing nothing\n",
                f(x$incomplete_n), if (is.null(x$unit)) "individuals" else "units"))
  }
  if (isTRUE(x$missing_cells > 0)) {
    cat(sprintf("  %s (individual, grid point) cells without a row, counted as 0\n", f(x$missing_cells)))
  }
  len <- if (is.matrix(x$sums)) sprintf("%d x %d", nrow(x$sums), ncol(x$sums)) else length(x$sums)
  cat(sprintf("  %s sums\n", len))
  if (isTRUE(x$outside > 0)) {   # (a density's points beyond its domain, clamped to it)
    cat(sprintf("  %s points outside the domain, clamped to it\n", f(x$outside)))
  }
  invisible(x)
}

# Deaths by group (rows) and age (columns), named; the union of the groups
# and ages of both parts, absent cells counting as 0 deaths.
mortality_add <- function(a, b) {
  g <- union(rownames(a), rownames(b))
  ages <- sort(union(as.double(colnames(a)), as.double(colnames(b))))
  key <- format_age(ages)
  out <- matrix(0, length(g), length(ages), dimnames = list(g, key))
  out[rownames(a), format_age(as.double(colnames(a)))] <- a
  out[rownames(b), format_age(as.double(colnames(b)))] <-
    out[rownames(b), format_age(as.double(colnames(b))), drop = FALSE] + b
  out
}

format_age <- function(a) formatC(a, digits = 17, format = "g")

# The kinds whose rows are points, each a record or one point of a unit (abort_missing_points()).
point_summary_kinds <- c("kde", "kde_grid", "kde_kernel", "kme_kernel", "kme_features", "bw_hist")

# Checks that `s` is a summary of the given kind.
check_summary <- function(s, kind, arg = "x") {
  if (!identical(s$kind, kind)) {
    dpfda_abort(sprintf("`%s` is a %s summary; this mechanism needs a %s summary (see ?dpfda_summary).",
                        arg, s$kind, kind), arg = arg)
  }
  if (!is.numeric(s$n) || length(s$n) != 1L || !is.finite(s$n)) {
    dpfda_abort(sprintf("`%s$n` must be one finite number (the number of individuals), not %s.", arg,
                        describe_value(s$n)), class = data_error_class, arg = arg)
  }
  if (!(s$n > 0)) {
    dpfda_abort(sprintf("`%s` holds no individuals (every row was dropped or the table is empty).", arg),
                class = "dpfda_error_data", arg = arg)
  }
  # points: a summary that dropped rows (made otherwise, or edited) is refused as their data are
  if (kind %in% point_summary_kinds && is.numeric(s$dropped) && length(s$dropped) == 1L) {
    abort_missing_points(s$dropped, s$rows %||% NA, arg)
  }
  # never trust the class: a summary computed from (or edited into) non-finite cells is refused
  # here, where it enters a release, whatever produced it
  if (!is.numeric(s$sums) || !length(s$sums) || !all(is.finite(s$sums))) {
    bad <- if (is.numeric(s$sums)) sum(!is.finite(s$sums)) else NA
    dpfda_abort(sprintf(paste("`%s$sums` must be finite numbers%s; a release needs a summary of finite data.",
                              "Recompute it from the data (summarise_*() checks the values it reads)."),
                        arg, if (is.na(bad)) sprintf(", not %s", describe_value(s$sums)) else
                          sprintf(" (%d non-finite cell%s)", bad, if (bad == 1L) "" else "s")),
                class = data_error_class, arg = arg)
  }
  s
}
