# Bin-count summaries: the linearly binned 1-D KDE (bin weights on regular
# centres spanning the domain) and deaths by group and age (mortality
# distributions). In memory, in a database (dbplyr) or chunk by chunk.

#' Summaries by binning: kernel density estimates and mortality distributions
#'
#' `summarise_kde()` computes the linear-binning weights of one-dimensional
#' data on `bins` regular centres spanning `domain` (data clamped to it): the
#' summary behind the binned estimate of [kde_gaussian()] and [dp_kde()].
#' `summarise_mortality()` computes the deaths by group and age behind
#' [mortality_distribution()] (rows with the same group and age are added;
#' an age absent from a group counts as 0 deaths).
#'
#' The data may be a numeric vector (KDE) or data frame in memory, a database
#' table (a dbplyr lazy table: SQLite, DuckDB, PostgreSQL, Spark), or
#' [dp_chunks()]. In a database, clamping, binning and the sums run in the
#' engine and only the `bins` sums (or the group x age table) come back.
#'
#' **Individuals.** Without `id`, each row is one individual (`n` = rows).
#' With `id` (KDE), an individual with \eqn{r} rows contributes each with
#' weight \eqn{1/r}, so every individual adds total weight one (a convex
#' combination of kernels, whose sensitivity is that of one record) and `n`
#' is the number of distinct ids. For mortality the unit is the group (see
#' [mortality_distribution()]).
#'
#' **Bad input.** A missing column is an error (`dpfda_error_argument`), a
#' non-numeric column too (`dpfda_error_data`); rows with a missing value
#' (NULL) in a used column are dropped and counted (`dropped`, with a warning
#' of class `dpfda_warning_data`); negative deaths are an error.
#'
#' @param x The data: see above.
#' @param grid Public evaluation grid (one-dimensional).
#' @param bandwidth The public bandwidth \eqn{h} (sets the default `bins`).
#' @param domain Public bounds `c(lower, upper)`; default the range of `grid`.
#' @param bins Number of bin centres; default as in [kde_gaussian()]: at least
#'   4096 and 8 per bandwidth.
#' @param columns Name of the data column (tables, data frames, chunks).
#' @param id `NULL` or the name of an id column (see Individuals).
#' @param age,deaths,group Column names for `summarise_mortality()`; `group`
#'   may be `NULL` (one group).
#' @param .query Internal: return the lazy query instead of running it.
#' @return A [dpfda_summary].
#' @examples
#' x <- c(rnorm(500, 0.3, 0.1), rnorm(500, 0.7, 0.1))
#' g <- seq(0, 1, length.out = 201)
#' s <- summarise_kde(x, grid = g, bandwidth = 0.05)
#' s
#' if (requireNamespace("RSQLite", quietly = TRUE) && requireNamespace("dbplyr", quietly = TRUE)) {
#'   con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
#'   DBI::dbWriteTable(con, "obs", data.frame(value = x))
#'   s2 <- summarise_kde(dplyr::tbl(con, "obs"), grid = g, bandwidth = 0.05, columns = "value")
#'   print(max(abs(s2$sums - s$sums)))
#'   DBI::dbDisconnect(con)
#' }
#' @export
summarise_kde <- function(x, grid, bandwidth, domain = NULL, bins = NULL, columns = NULL, id = NULL,
                          .query = FALSE) {
  require_args(c("x", "grid", "bandwidth"), "summarise_kde")
  grid <- as_grid(grid, "grid")
  if (!is.null(dim(grid))) {
    dpfda_abort("The binned KDE summary is one-dimensional: give a grid vector.", arg = "grid")
  }
  dom <- as_domain(domain, grid)
  bw <- as_bandwidth(bandwidth, 1L)
  h <- sqrt(bw$H[1, 1])
  B <- if (is.null(bins)) min(2^22, max(4096, ceiling(8 * diff(dom) / h) + 1)) else
    check_count(bins, "bins", min = 2, max = 2^26)
  settings <- list(domain = dom, bins = as.double(B))
  delta <- diff(dom) / (B - 1)
  if (!is.null(id)) id <- engine_columns(id, engine_names_or(x), "id", 1L)

  if (inherits(x, "dpfda_chunks")) {
    return(warn_dropped(chunks_reduce(x, function(d) {
      summarise_kde(d, grid, bandwidth, dom, B, columns, id)
    }, id = id)))
  }
  if (is_lazy_table(x)) {
    columns <- engine_columns(columns, colnames(x), "columns", 1L)
    cols <- c(columns = columns, id = id)
    q <- lazy_select(x, cols, c("x", if (!is.null(id)) "id"), numeric = "x", check = !.query)
    nn <- lazy_drop_null(q, c("x", if (!is.null(id)) "id"), check = !.query)
    q <- lazy_weight(nn$q, id)
    lo <- dom[1]
    q <- dplyr::mutate(q, pos = (pmin(pmax(!!as.name("x"), !!lo, na.rm = TRUE), !!dom[2], na.rm = TRUE) - !!lo) /
                         !!delta)
    q <- dplyr::mutate(q, b = pmin(floor(!!as.name("pos")), !!(B - 2), na.rm = TRUE))
    q <- dplyr::mutate(q, f = !!as.name("pos") - !!as.name("b"))
    q <- dplyr::group_by(q, !!as.name("b"))
    q <- dplyr::summarise(q, a0 = sum(!!quote(wt * (1 - f)), na.rm = TRUE),
                          a1 = sum(!!quote(wt * f), na.rm = TRUE), cnt = sum(!!quote(wt), na.rm = TRUE))
    if (.query) return(q)
    res <- dplyr::collect(q)
    w <- numeric(B)
    b <- as.integer(res$b)
    w[b + 1L] <- w[b + 1L] + res$a0
    w[b + 2L] <- w[b + 2L] + res$a1
    n <- if (is.null(id)) sum(res$cnt) else lazy_n_ids(nn$q)
    return(warn_dropped(new_dpfda_summary("kde", w, n, nn$rows, nn$dropped, settings)))
  }
  # in memory: a vector / one-column matrix, or a data frame with `columns`
  if (is.data.frame(x)) {
    columns <- engine_columns(columns, names(x), "columns", 1L)
    cl <- frame_clean(x, columns, id)
    d <- cl$data
    v <- d[[columns]]
    ids <- if (!is.null(id)) d[[id]]
    dropped <- cl$dropped
    rows <- cl$rows
  } else {
    v <- as_points(x, "x", d = 1L)[, 1L]
    ids <- NULL
    dropped <- 0
    rows <- length(v)
  }
  v <- pmin(pmax(as.double(v), dom[1]), dom[2])
  wt <- if (is.null(ids)) numeric(0) else {
    r <- table(ids)
    as.double(1 / r[match(as.character(ids), names(r))])
  }
  w <- .Call(C_dpfda_summary_bin, v, wt, dom[1], delta, as.integer(B))
  n <- if (is.null(ids)) length(v) else length(unique(ids))
  new_dpfda_summary("kde", w, n, rows, dropped, settings)
}

engine_names_or <- function(x) {
  if (is.data.frame(x) || is_lazy_table(x)) engine_names(x) else NULL
}

# dp_kde() on a table, chunks or a summary: the binned estimate from the bin
# weights, then the release of dp_kde() ("gp", "sobolev", "bernstein").
dp_kde_engine <- function(x, grid, bandwidth, epsilon, delta, mechanism, domain, calibration, bins, k, h,
                          noise, budget, call, ...) {
  opts <- resolve_column_opts(capture_dots(..., .cols = c("columns", "id")), x, c("columns", "id"),
                              n = list(columns = NULL))
  columns <- opts$columns
  id <- opts$id
  opts$columns <- NULL
  opts$id <- NULL
  noise <- check_noise(noise)
  budget <- check_budget(budget)
  mechanism <- check_choice(mechanism, c("gp", "sobolev", "bernstein", "iclp", "frl"), "mechanism")
  if (mechanism %in% c("iclp", "frl")) {
    dpfda_abort(sprintf(paste("mechanism = \"%s\" is not available for database tables and chunks yet;",
                              "use \"gp\", \"sobolev\" or \"bernstein\"."), mechanism), arg = "mechanism")
  }
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  epsilon <- check_epsilon(epsilon)
  grid <- as_grid(grid, "grid")
  if (!is.null(dim(grid))) {
    dpfda_abort("Database tables and chunks are summarised in one dimension only: give a grid vector.",
                arg = "grid")
  }
  grid <- sort(grid)
  bw <- as_bandwidth(bandwidth, 1L)
  if (!is.null(budget) && inherits(bandwidth, "dpfda_bandwidth")) charge_bandwidth(budget, bandwidth)
  dom <- as_domain(domain, grid)
  s <- if (inherits(x, "dpfda_summary")) x else
    summarise_kde(x, grid, bandwidth, domain = dom, bins = bins, columns = columns, id = id)
  s <- check_summary(s, "kde")
  if (!isTRUE(all.equal(s$settings$domain, dom))) {
    dpfda_abort("The summary was computed on another `domain`.", arg = "domain")
  }
  hh <- sqrt(bw$H[1, 1])
  B <- s$settings$bins
  delta_b <- diff(dom) / (B - 1)
  n <- s$n
  if (!is.finite(delta_b / hh) || !(delta_b / hh > 0)) {
    dpfda_abort("`bandwidth` is out of range for binning on this domain.", class = "dpfda_error_numeric",
                arg = "bandwidth")
  }
  kde_at <- function(p) {
    sums <- .Call(C_dpfda_summary_kde, s$sums, as.double(p) / hh, dom[1] / hh, delta_b / hh)
    exp(bw$log_norm - log(n) + log(sums))
  }
  if (mechanism == "bernstein") {
    delta <- if (missing(delta)) 0 else delta
    delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                          what = "a number in [0, 1)", class = "dpfda_error_privacy")
    k <- check_count(k, "k", min = 1, max = 1e4)
    h <- check_count(h, "h", min = 1, max = 1000)
    sens <- sensitivity_bernstein_kde(n, bandwidth, dim = 1L)
    lat <- dp_bernstein(function(p) kde_at(as.vector(p)), sensitivity = sens, epsilon = epsilon, k = k, h = h,
                        dim = 1L, delta = delta, domain = dom,
                        calibration = if (delta > 0) calibration else "analytic", noise = noise)
    vals <- stats::predict(lat, grid)
    rel <- new_dpfda_release(new_dpfda_curves(matrix(vals, nrow = 1L), grid, dom), mechanism = "kde-bernstein",
                             epsilon = epsilon, delta = delta, sensitivity = sens,
                             noise_scale = lat$noise_scale,
                             noise = sprintf("%s noise on the (k + 1)^1 lattice, k = %d, h = %d", lat$noise_type,
                                             as.integer(k), as.integer(h)),
                             call = call, lattice = lat, n = n, bandwidth = bw$H,
                             class = c("dpfda_kde_bernstein_release", "dpfda_kde_release"))
    charge_release(budget, rel$lattice, "dp_kde")
    return(rel)
  }
  delta <- check_delta(delta)
  f <- kde_at(grid)
  sens <- sensitivity_kde(n, hh, d = 1L, mechanism = mechanism)
  noise_kernel <- if (mechanism == "gp") bw$kernel else kernel_exponential(hh, norm = "l1")
  sigma <- do.call(dp_noise_scale, c(list(sens, epsilon, delta, calibration = calibration), opts))
  bw_budget <- if (inherits(bandwidth, "dpfda_bandwidth")) bandwidth[c("epsilon", "delta")] else NULL
  rel <- gp_release(f, grid, noise_kernel, sigma, mechanism = paste0("kde-", mechanism), epsilon = epsilon,
                    delta = delta, sensitivity = sens, call = call, calibration = calibration, n = n,
                    bandwidth = bw$H, domain = dom, bandwidth_budget = bw_budget,
                    class = "dpfda_kde_release", noise_mode = noise)
  charge_release(budget, rel, "dp_kde")
  rel
}

#' @rdname summarise_kde
#' @export
summarise_mortality <- function(x, age = "age", deaths = "deaths", group = "group", .query = FALSE) {
  require_args("x", "summarise_mortality")
  have <- engine_names_or(x)
  if (!is.null(have)) {
    age <- engine_columns(age, have, "age", 1L)
    deaths <- engine_columns(deaths, have, "deaths", 1L)
    if (!is.null(group)) group <- engine_columns(group, have, "group", 1L)
  }
  if (inherits(x, "dpfda_chunks")) {
    return(warn_dropped(chunks_reduce(x, function(d) summarise_mortality(d, age, deaths, group))))
  }
  if (is_lazy_table(x)) {
    cols <- c(age = age, deaths = deaths, group = group)
    new <- c("age", "deaths", if (!is.null(group)) "grp")
    q <- lazy_select(x, cols, new, numeric = c("age", "deaths"), check = !.query)
    nn <- lazy_drop_null(q, new, check = !.query)
    q <- if (is.null(group)) dplyr::mutate(nn$q, grp = "all") else nn$q
    q <- dplyr::group_by(q, !!as.name("grp"), !!as.name("age"))
    q <- dplyr::summarise(q, d = sum(!!as.name("deaths"), na.rm = TRUE),
                          neg = sum(dplyr::if_else(!!quote(deaths < 0), 1, 0), na.rm = TRUE))
    if (.query) return(q)
    res <- as.data.frame(dplyr::collect(q))
    if (any(res$neg > 0)) {
      dpfda_abort("`deaths` must be non-negative; the table has negative death counts.",
                  class = "dpfda_error_data", arg = "deaths")
    }
    s <- mortality_table(res$grp, res$age, res$d)
    return(warn_dropped(new_dpfda_summary("mortality", s, nrow(s), nn$rows, nn$dropped, list())))
  }
  if (!is.data.frame(x)) arg_error("x", "a data frame, database table or dp_chunks()", x)
  cl <- frame_clean(x, c(age, deaths), group)
  d <- cl$data
  if (any(d[[deaths]] < 0)) {
    dpfda_abort("`deaths` must be non-negative; the data have negative death counts.",
                class = "dpfda_error_data", arg = "deaths")
  }
  g <- if (is.null(group)) rep("all", nrow(d)) else d[[group]]
  s <- mortality_table(g, d[[age]], d[[deaths]])
  new_dpfda_summary("mortality", s, nrow(s), cl$rows, cl$dropped, list())
}

# Deaths summed by (group, age) as a named group x age matrix.
mortality_table <- function(g, a, d) {
  g <- as.character(g)
  a <- as.double(a)
  lev <- sort(unique(g))
  ages <- sort(unique(a))
  out <- matrix(0, length(lev), length(ages), dimnames = list(lev, format_age(ages)))
  if (length(d)) {
    s <- tapply(as.double(d), list(factor(g, lev), factor(format_age(a), format_age(ages))), sum)
    s[is.na(s)] <- 0
    out[, ] <- s
  }
  out
}

# The mortality distributions of a summary (groups in order of first
# appearance, ages sorted).
mortality_from_summary <- function(s) {
  s <- check_summary(s, "mortality", "age")
  m <- s$sums
  ages <- as.double(colnames(m))
  mortality_distribution(rep(ages, nrow(m)), as.vector(t(m)), rep(rownames(m), each = ncol(m)))
}
