# Age-at-death distributions by group (Lin and Reimherr, Section 7.2): one density per region on a common age grid.

#' Mortality (age-at-death) distributions
#'
#' Turns death counts by age and group (for example the UN World Population
#' Prospects deaths by region and single year of age) into one age-at-death
#' density per group on a common age grid. Counts are masses: the deaths at
#' an age are the probability of its cell of the age grid (the trapezoid cell,
#' from half-way to the previous age to half-way to the next; half a cell at
#' the youngest and the oldest age), so the density at age \eqn{a} is
#' \eqn{d_a / (D w_a)}, with \eqn{D} the group's total deaths and \eqn{w_a}
#' the trapezoid weight of the age. Each density integrates to one on the
#' grid, and its mean age (`summary()`) is, up to the grid's integration
#' error, the count-weighted mean age `weighted.mean(age, deaths)`. (Normalising the
#' counts like function values, as [as_density()] does, would give the
#' first and last age half their weight: with many infant deaths the mean age
#' at death would be years too old.) On a one-year grid the density at the
#' first and last age is twice the share of their deaths. The integration
#' error comes from the half cells at the two ends and grows with their
#' width: at most 0.084 years on `un_mortality`'s one-year grid, but 0.43
#' years for the abridged ages 0, 1, 5, 10, 20 (a mean of 7.57 against a
#' weighted mean of 8). For an abridged life table, compare means on that
#' table's own ages, or use single years of age where the data have them.
#'
#' Validation: `age` and `deaths` are finite numeric vectors of the same
#' length, ages non-negative and deaths non-negative; `group` (if given) has
#' the same length and no missing values; within each group the ages are
#' unique (in any order), every group has the same ages (at least two) and a
#' positive number of deaths. Failures are classed errors
#' (`dpfda_error_argument`) naming the argument. A data frame follows the rule
#' of a database table and of chunks, so that every source gives the same
#' distributions: deaths are summed by (group, age) in any row order, an age
#' that a group lacks counts 0 deaths, and rows with a missing or non-finite
#' value are dropped with a warning (`dpfda_warning_data`). A row whose group
#' is missing, and a group none of whose rows is complete, are refused
#' (`dpfda_error_data`): the group would vanish from the public number of
#' groups.
#'
#' **Private mean mortality distribution.** The object is a [curves()] object
#' with one row per group, so [dp_mean()] releases the mean distribution
#' directly. The privacy unit is then **one group (region)**: neighbouring
#' data sets differ in the whole age-at-death distribution of one region
#' (replace-one, with the number of regions `n` public); it does **not** use
#' the deaths as records (for a per-region density with one death as the unit,
#' use [dp_kde()] on the region's ages with `mechanism = "iclp"`). Give a
#' public bound `tau` on the weighted \eqn{L^2} norm of a density (curves are
#' clipped to it; the 19 regions of [un_mortality] have norms from 0.13 to
#' 0.37, largest where infant deaths are many) and a kernel whose lengthscale
#' is in years: `dp_mean(m, epsilon = 1, tau = 0.4, kernel = kernel_matern(3/2, 10))`.
#' With few regions (19 in the paper) the noise is large: the sensitivity is
#' proportional to `tau / n`.
#'
#' @param data A data frame (or tibble) with one row per age and group;
#'   `age`, `deaths` and `group` then name its columns (strings or bare
#'   names; `age` and `deaths` default to the columns of those names, and
#'   `group` to a column `group` where the data have one: one distribution
#'   otherwise). For compatibility, `mortality_distribution(age, deaths,
#'   group)` with three vectors still works.
#'   Or data outside memory: a database table (dbplyr lazy table),
#'   [dp_chunks()] or a [summarise_mortality()] summary; `age`, `deaths` and
#'   `group` then name its columns (strings), with the same defaults, so
#'   that every source gives the same distributions (chunks: the first chunk
#'   says whether there is a column `group`).
#' @param age Ages (years), one per count: a column of `data` or a vector.
#' @param deaths Death counts (non-negative; need not be whole numbers, e.g.
#'   thousands): a column of `data` or a vector.
#' @param group Group labels (e.g. regions), one per count, or `NULL` for a
#'   single group: a column of `data` or a vector.
#' @param x A `dpfda_mortality` object.
#' @param y Unused.
#' @param col,lty Line colours and types (recycled over groups).
#' @param legend Whether to draw a legend of the groups.
#' @param xlab,ylab,main Axis labels and title.
#' @param row.names,optional Unused (for compatibility with [as.data.frame()]).
#' @param ... Passed to [graphics::matplot()] (`plot`), unused otherwise.
#' @return `mortality_distribution()`: an object of class `dpfda_mortality`
#'   (also `dpfda_density` and `dpfda_curves`) with `values` (one density per
#'   group, rows; groups in sorted order, as from a database table, or in
#'   the level order of a factor), `grid` (the ages), `domain`, `groups` and `deaths` (the
#'   total deaths per group). `as.data.frame()`: a data frame with columns
#'   `group`, `age`, `density`.
#' @examples
#' age <- rep(0:100, 2)
#' deaths <- c(200 * exp(-(0:100) / 2) + 50 * dnorm(0:100, 70, 12) * 100,
#'             5 * exp(-(0:100) / 2) + 80 * dnorm(0:100, 82, 9) * 100)
#' d <- data.frame(age, deaths, region = rep(c("developing", "developed"), each = 101))
#' m <- mortality_distribution(d, age = age, deaths = deaths, group = region)
#' m
#' plot(m)
#' head(as.data.frame(m))
#' # private mean distribution, one region = one record (two regions: the
#' # release is mostly noise, as its warning says; see vignette("iclp-functional-summaries")
#' # for the 19 regions of the UN table)
#' r <- dp_mean(m, epsilon = 1, tau = 0.4, kernel = kernel_matern(3/2, 10))
#' @export
mortality_distribution <- function(data = NULL, age, deaths, group = NULL, ...) {
  check_dot_names(dot_args(), character(), "mortality_distribution")
  if (is.data.frame(data) || (!is.null(data) && is_engine_input(data))) {
    # column names: strings or bare names (the rule of column_names(), R/entry.R)
    age <- if (missing(age)) NULL else column_arg(substitute(age), tryCatch(age, error = function(e) e), "age")
    deaths <- if (missing(deaths)) NULL else
      column_arg(substitute(deaths), tryCatch(deaths, error = function(e) e), "deaths")
    group <- column_arg(substitute(group), tryCatch(group, error = function(e) e), "group")
  }
  if (!is.null(data) && is_engine_input(data)) {   # table, chunks or summary: R/summary-bins.R
    if (inherits(data, "dpfda_summary")) return(mortality_from_summary(data))
    have <- engine_names_or(data)
    eng_col <- function(v, arg, default) column_names(v, have, arg, default = default, what = "`data`")
    # without `group`, a column "group" groups where the data have one, as in memory (chunks:
    # settled by the first chunk; summarise_mortality_impl())
    return(mortality_from_summary(summarise_mortality_impl(data, age = eng_col(age, "age", "age"),
                                                           deaths = eng_col(deaths, "deaths", "deaths"),
                                                           group = if (is.null(group)) "group" else
                                                             eng_col(group, "group", NULL),
                                                           group_if_present = is.null(group))))
  }
  if (is.data.frame(data)) {
    have <- names(data)
    col <- function(v, arg, default = NULL) {
      column_names(v, have, arg, default = if (!is.null(default) && default %in% have) default, what = "`data`")
    }
    age_nm <- col(age, "age", "age")
    deaths_nm <- col(deaths, "deaths", "deaths")
    group_nm <- col(group, "group", "group")   # (a column "group" where there is one: as every source)
    if (is.null(age_nm)) require_arg_error("age", "mortality_distribution")
    if (is.null(deaths_nm)) require_arg_error("deaths", "mortality_distribution")
    data <- as.data.frame(data)
    # the rule of a table and of chunks (summarise_mortality()): deaths summed by (group, age) in any
    # row order, an age a group lacks counting 0 deaths, rows with a missing value dropped with a
    # warning (memory refused shuffled rows that SQLite and chunks took); a factor keeps its level order
    if (is.null(group_nm) && anyDuplicated(data[[age_nm]][!is.na(data[[age_nm]])])) {
      dpfda_warn(sprintf(paste("Several rows have the same age and no `group` is given: their deaths are summed",
                               "into one distribution. Give `group =` (a column, e.g. the region) for one",
                               "distribution per group.")), class = "dpfda_warning_data")
    }
    s <- warn_dropped(summarise_mortality_impl(data, age_nm, deaths_nm, group_nm), after = mortality_dropped_note)
    if (!is.null(group_nm) && is.factor(data[[group_nm]])) s$settings$group_levels <- levels(data[[group_nm]])
    out <- mortality_from_summary(s)
    out$arg_name <- age_nm
    return(out)
  }
  if (!is.null(data)) {
    # the former signature mortality_distribution(age, deaths, group): positional vectors
    if (!missing(deaths)) group <- deaths
    if (missing(age)) require_arg_error("deaths", "mortality_distribution")
    deaths <- age
    age <- data
  }
  check_required(c("age", "deaths"))
  if (!(is.numeric(age) && is.null(dim(age)) && length(age) >= 2L && all(is.finite(age)) && all(age >= 0))) {
    arg_error("age", "a numeric vector of at least 2 finite non-negative ages", age)
  }
  if (is.numeric(deaths) && is.null(dim(deaths)) && !all(is.finite(deaths) & deaths >= 0, na.rm = FALSE)) {
    bad <- which(!(is.finite(deaths) & deaths >= 0))
    dpfda_abort(sprintf(paste("`deaths` must be finite non-negative death counts; entr%s %s %s (%s). Remove or",
                              "repair %s (a data frame drops rows with a missing value, with a warning)."),
                        if (length(bad) == 1L) "y" else "ies", paste(utils::head(bad, 5L), collapse = ", "),
                        if (length(bad) == 1L) "is not" else "are not",
                        paste(utils::head(format(deaths[bad]), 5L), collapse = ", "),
                        if (length(bad) == 1L) "it" else "them"), arg = "deaths")
  }
  if (!(is.numeric(deaths) && is.null(dim(deaths)))) {
    arg_error("deaths", "a numeric vector of finite non-negative death counts", deaths)
  }
  if (length(deaths) != length(age)) {
    dpfda_abort(sprintf("`deaths` must have one count per age (%d), not %d.", length(age), length(deaths)),
                arg = "deaths")
  }
  if (is.null(group)) {
    group <- rep("all", length(age))
  } else {
    ok <- (is.character(group) || is.factor(group) || is.numeric(group) || is.logical(group)) &&
      is.null(dim(group)) && length(group) == length(age) && !anyNA(group)
    if (!isTRUE(ok)) {
      arg_error("group", sprintf("a vector of %d group labels without missing values", length(age)), group)
    }
  }
  # groups in sorted order, as a database returns them, so every source lists them alike; a
  # factor keeps its level order (the user's choice)
  lev <- if (is.factor(group)) levels(droplevels(group)) else sort(unique(as.character(group)))
  gi <- match(as.character(group), lev)
  o <- order(gi, age)   # (any order of the entries: each group's ages sorted)
  gi <- gi[o]
  age <- age[o]
  deaths <- deaths[o]
  ages <- NULL
  vals <- matrix(0, length(lev), 0L)
  for (k in seq_along(lev)) {
    sel <- gi == k
    a <- as.double(age[sel])
    if (length(a) < 2L || is.unsorted(a, strictly = TRUE)) {
      dpfda_abort(sprintf("`age` must be unique with at least 2 ages within each group; group \"%s\" is not.",
                          lev[k]), arg = "age")
    }
    if (is.null(ages)) {
      ages <- a
      vals <- matrix(0, length(lev), length(a))
    } else if (length(a) != length(ages) || any(a != ages)) {
      dpfda_abort(sprintf("Every group must have the same ages (a common age grid); group \"%s\" differs from \"%s\".",
                          lev[k], lev[1L]), arg = "age")
    }
    vals[k, ] <- as.double(deaths[sel])
  }
  total <- as.vector(rowSums(vals))
  if (any(!(total > 0))) {
    dpfda_abort(sprintf("Every group needs a positive number of deaths; group \"%s\" has none.",
                        lev[which(!(total > 0))[1L]]), arg = "deaths")
  }
  # counts are masses, not values of a function: each age's deaths are the mass of its trapezoid
  # cell (half a cell at the first and last age), so the density integrates to one and its mean
  # age (summary()) is the count-weighted mean age; normalising the counts as function values
  # gave the first age half its weight (mean age at death 4 years too old with many infant deaths)
  dens <- vals / outer(total, quadrature_weights(ages))
  new_dpfda_curves(dens, ages, range(ages), groups = lev, deaths = total,
                   arg_name = "age", value_name = "density", class = c("dpfda_mortality", "dpfda_density"))
}

#' @rdname mortality_distribution
#' @export
print.dpfda_mortality <- function(x, ...) {
  g <- x$groups
  cat(sprintf("<dpfda_mortality> %d age-at-death distribution%s on %d ages %s\n", length(g),
              if (length(g) == 1L) "" else "s", length(x$grid), format_range(range(x$grid))))
  shown <- utils::head(g, 6L)
  cat(sprintf("  groups: %s%s\n", paste(shown, collapse = ", "),
              if (length(g) > 6L) sprintf(", ... (%d more)", length(g) - 6L) else ""))
  invisible(x)
}

#' @rdname mortality_distribution
#' @export
plot.dpfda_mortality <- function(x, y, col = NULL, lty = 1, legend = TRUE, xlab = "age",
                                 ylab = "density", main = "Age-at-death distributions", ...) {
  G <- nrow(x$values)
  if (is.null(col)) col <- curve_palette(G)
  col <- rep_len(col, G)
  lty <- rep_len(lty, G)
  graphics::matplot(x$grid, t(x$values), type = "l", col = col, lty = lty, xlab = xlab, ylab = ylab,
                    main = main, ...)
  if (isTRUE(legend)) {
    graphics::legend("topright", legend = x$groups, col = col, lty = lty, bty = "n", cex = 0.8)
  }
  invisible(x)
}

#' @rdname mortality_distribution
#' @export
as.data.frame.dpfda_mortality <- function(x, row.names = NULL, optional = FALSE, ...) {
  G <- nrow(x$values)
  m <- ncol(x$values)
  data.frame(group = factor(rep(x$groups, each = m), levels = x$groups), age = rep(x$grid, G),
             density = as.vector(t(x$values)), stringsAsFactors = FALSE)
}
