# Private kernel density estimation (Hall, Rinaldo & Wasserman, Section 4).

#' Private kernel density estimate
#'
#' Releases a Gaussian kernel density estimate on a public grid with
#' Gaussian-process noise calibrated by its RKHS sensitivity (Hall, Rinaldo and
#' Wasserman 2013):
#'
#' * `mechanism = "gp"` (Section 4.1, 4.1.1): noise kernel
#'   \eqn{\exp(-\frac12 (x-y)^\top H^{-1} (x-y))}, the KDE's own kernel
#'   unnormalised; isotropic, per-dimension or full bandwidth matrix, any
#'   dimension. Smooth released curves.
#' * `mechanism = "bernstein"` (Alda and Rubinstein 2017): the estimate on the
#'   lattice \eqn{\{0, 1/k, \dots, 1\}^d} of the domain with Laplace noise
#'   (`delta = 0`, pure DP) or Gaussian noise (`delta > 0`), sensitivity
#'   [sensitivity_bernstein_kde()]; the released curve on `grid` is the
#'   iterated Bernstein polynomial of order `h` ([dp_bernstein()]), and
#'   [predict()] evaluates it anywhere.
#' * `mechanism = "iclp"` or `"frl"` (Lin and Reimherr, Section 4.3, Theorem
#'   16; pure \eqn{\epsilon}-DP, `delta` may be omitted or 0 and 0 is
#'   recorded): the data are spread over the grid by (multi)linear binning and
#'   the estimate uses the power kernel \eqn{K = C^\eta}, \eqn{K(x, y) =
#'   \sum_j \lambda_j^\eta v_j(x) v_j(y)} of the [kl_basis()] of a covariance
#'   kernel \eqn{C} whose lengthscale is the bandwidth (Gaussian in 1-D,
#'   exponential in 2-D by default, with the \eqn{\ell_1} norm and one
#'   lengthscale per axis when the bandwidth has one per axis; a Gaussian
#'   \eqn{C} also takes a bandwidth matrix), times a data-independent normaliser
#'   (one over the integral of \eqn{K(\cdot, t^*)}, \eqn{t^*} the grid
#'   point nearest the centre). `"iclp"` adds ICLP noise \eqn{\sigma
#'   \sum_j \sqrt{\lambda_j} Z_j v_j}, \eqn{\sigma = \sqrt 2
#'   \Delta/\epsilon}, with \eqn{\Delta} the sensitivity in the ICLP norm
#'   \eqn{\sum_j |h_j|/\sqrt{\lambda_j}}: by default the exact maximum
#'   over pairs of grid points of \eqn{(c/n)\sum_j \lambda_j^{\eta-1/2}
#'   |v_j(t_k) - v_j(t_l)|} (binned data attain it), or the triangle or
#'   Theorem 16 bounds. The exact maximum costs \eqn{O(m^2 J)} for
#'   \eqn{m} grid points and \eqn{J} components: where \eqn{m^2 J >
#'   5 \times 10^7} (large grids: more than about 370 points with all
#'   their components, e.g. a 20 x 20 grid in 2-D) the default is the triangle bound
#'   \eqn{(2c/n) \max_k \sum_j \lambda_j^{\eta-1/2} |v_j(t_k)|}, which
#'   is larger (more noise, still private); the print and
#'   `r$params$sensitivity_method` say which was used. `"frl"` keeps the first `M` coefficients and adds
#'   i.i.d. Laplace noise calibrated to their \eqn{\ell_1} sensitivity.
#'   Options in `...`: `kernel` (its type is used; the lengthscale is the
#'   bandwidth), `eta` (default \eqn{1 + 1/(2h) + 1/4}, \eqn{h} the
#'   eigenvalue decay exponent), `J`, `tol` (see [kl_basis()]), `M` (FRL;
#'   default the PSS value of [pss_params()]), `sensitivity_method`
#'   (`"exact"`, `"triangle"`, `"theorem16"`) and `counts` (whole-number
#'   frequencies: `x[i]` stands for `counts[i]` records, as for deaths by
#'   age, so `n = sum(counts)` and one record is one unit of a count;
#'   equivalent to `rep(x, counts)` without building it). The grid must be
#'   one-dimensional or a sorted tensor grid; `calibration`, `binned`,
#'   `bins`, `k` and `h` are not used. [predict()] evaluates the release
#'   anywhere by the Nystrom extension of the basis (post-processing).
#' * `mechanism = "sobolev"` (Section 4.2): noise kernel
#'   \eqn{\exp(-\|x-y\|_1/h)} (Sobolev space \eqn{H^1}, \eqn{\gamma = 1/h}),
#'   isotropic bandwidth; rougher curves and \eqn{\sqrt2(2\pi)^{d/4}} times
#'   larger sensitivity, but a general route for functions in \eqn{H^1}.
#'
#' The sensitivities are those of [sensitivity_kde()]; the noise scale is
#' [dp_noise_scale()] with the chosen `calibration` (the paper uses
#' `"hall"`). The grid, domain and bandwidth are public inputs and must not be
#' derived from the data: use [dp_bandwidth()] for a private bandwidth (its
#' budget is recorded in the release). Data outside `domain` are clamped to
#' it. The released curve is the raw noisy estimate (it may be negative and
#' need not integrate to one); [as_density()] post-processes it into a density.
#'
#' `confint(r, type = "population")` gives a band for the smoothed
#' population density \eqn{f_h} (or, with `smoothness`, the density) from
#' the release alone, with no further budget ([confint.dpfda_release()]).
#'
#' Large data sets in one dimension use the binned estimate of
#' [kde_gaussian()] (see `binned`); it has the same sensitivity, proved in
#' [sensitivity_kde()].
#'
#' @param x Private data: a vector, an `n x d` matrix, or a data frame of
#'   numeric columns (e.g. `faithful["eruptions"]`, or `faithful` with
#'   `columns = eruptions` in `...`; `columns` also selects columns of a
#'   matrix with column names, such as `scale()` returns). `n` is public. Or
#'   data outside memory: a database table (dbplyr lazy table), [dp_chunks()]
#'   or a [summarise_kde()] summary, for every mechanism and dimension; give
#'   the columns as `columns = c("x1", "x2")` (one per dimension; optionally
#'   `id`) in `...`; column names are strings or bare names (the rule is in
#'   [as_curves()]). On a one-dimensional grid the engine bins the data
#'   (`binned = TRUE` in memory gives the same release); `"iclp"` and `"frl"`
#'   spread each point over the grid as in memory; in several dimensions
#'   the engine computes the kernel sums at the grid (or Bernstein lattice)
#'   points. The release is the in-memory one under [dp_reproducible()].
#'   **Missing values are refused** on every source (`dpfda_error_data`):
#'   a row with a missing or non-finite value in a used column (or a
#'   missing `unit` or count), as a vector or matrix with one. `n`, the
#'   number of records, is public; dropping a missing record would change
#'   it, and the release would tell whether a record is missing. Remove such
#'   rows yourself (e.g. `stats::na.omit()`, or `dplyr::filter()` on a
#'   table) where the number of complete records may be public, or impute
#'   them.
#' @param grid Public evaluation points (see [curves()]); a list of axes gives
#'   a tensor grid, sampled by the fast Kronecker sampler. With a data frame
#'   or table, a named list (`list(duration = ..., waiting = ...)`) takes the
#'   columns of those names in that order (without names the columns are
#'   taken in the data's order, or as `columns` says; given both, they must
#'   agree). The column names of a `domain` matrix and the names of a
#'   `bandwidth` vector are read the same way.
#' @param bandwidth \eqn{h}, per-dimension \eqn{h_j}, a matrix \eqn{H}, or a
#'   `dpfda_bandwidth` from [dp_bandwidth()] (with `unit`, one released with
#'   the same units: the same `unit` under the same name, and as many units,
#'   as its `privacy_unit` says; one released for points, or for other units
#'   such as rows or visits, is refused with `dpfda_error_privacy` before the
#'   density is charged. A density without `unit` takes any.)
#' @param epsilon,delta Privacy parameters of this release. `delta` is
#'   required by `"gp"` and `"sobolev"`; the pure-DP mechanisms
#'   (`"bernstein"`, `"iclp"`, `"frl"`) take `delta = 0` when it is omitted or `NULL`.
#'   `"iclp"` and `"frl"` are pure DP whatever `delta` says: a `delta > 0` is
#'   not used (the release is \eqn{(\epsilon, 0)}-DP, records and charges
#'   `delta = 0`); for `"bernstein"` a `delta > 0` chooses Gaussian noise.
#' @param mechanism `"gp"`, `"sobolev"`, `"bernstein"`, `"iclp"` (alias
#'   `"iclp_qr"`, the name [dp_mean()] uses) or `"frl"`; see `?dp_mechanisms`.
#' @param domain Public bounds for clamping the data: `c(lower, upper)`, or a
#'   `2 x d` matrix (row 1 lower, row 2 upper; its column names, if any,
#'   select the data's columns), or a list of `d` ranges, one `c(lower, upper)`
#'   per axis (`list(long = c(160, 190), lat = c(-40, -10))`). Default: the range of the grid; points
#'   beyond it get a warning of class `dpfda_warning_data` (on every source:
#'   a table, chunks or summary count them in the same pass), since on a
#'   grid over part of the data the release is then the density of the
#'   points piled at its ends: give `domain`. With a given `domain`, a tenth
#'   or more of the points beyond it get the same warning (a domain that does
#'   not fit the data, e.g. its columns swapped); fewer are clamped silently.
#'   Without `grid` (or with `grid = NULL`), the domain gives the default
#'   grid: 101 equispaced points in one dimension, 51 per axis in two. The
#'   names of the point columns of a data frame (or `columns`) label the
#'   release's axes.
#' @param calibration See [dp_noise_scale()].
#' @param binned,bins See [kde_gaussian()].
#' @param k,h Lattice size and iteration order of the Bernstein mechanism
#'   (one degree `k` for every axis: the lattice has \eqn{(k+1)^d} points).
#' @param ... Options:
#'   * `columns` (and `id` outside memory): see `x`.
#'   * `counts`: whole-number frequencies, for a frequency table. Either one
#'     count per point of a vector or matrix, or a column of a data frame,
#'     database table or chunks (a string or a bare name, e.g. the `Freq` of
#'     `as.data.frame(table(v))`). Point `i` stands for `counts[i]`
#'     records (as deaths by age do), so `n = sum(counts)`, every record is
#'     its own privacy unit, and the release is that of `rep(x, counts)`
#'     without building it, the same from every source (see
#'     [summarise_kde()]). Every mechanism and dimension; in one dimension
#'     `"gp"`, `"sobolev"` and `"bernstein"` use the binned estimate with
#'     each point weighted by its count (`binned = FALSE` is refused), in
#'     several the exact kernel sums times the counts. A missing count is
#'     refused, as a missing value (see `x`). Not
#'     with `unit`. The warning about
#'     points beyond the domain counts records, as `n` does.
#'   * `"gp"` and `"sobolev"`: the rest is passed to [dp_noise_scale()]
#'     (e.g. `allow_large_epsilon`).
#'   * `"iclp"` and `"frl"`: the options listed above.
#'   * `"bernstein"` takes no other option (its Laplace noise has no
#'     calibration to change).
#' @param noise `"float"` (default) or `"exact"` (discrete noise on a
#'   grid in units of the noise scale, see [exact_noise]) for every mechanism (`"iclp"`
#'   and `"frl"`: discrete Laplace on the rounded coefficients, as in
#'   [dp_mean()]).
#' @param budget `NULL`, or a [privacy_budget()] to charge. A
#'   `dpfda_bandwidth` passed as `bandwidth` is charged too (once per budget),
#'   when the density is asked for: it was released already, so it stays
#'   charged if the budget then refuses the density.
#' @param unit The privacy unit when one person has several points: a column
#'   (string or bare name) of a data frame, table or chunks (in chunks, each
#'   unit's rows together; `id` in `...` is its older name), or a vector with one entry per
#'   point for a vector or matrix. A unit with \eqn{r} points adds each with
#'   weight \eqn{1/r}: its contribution is a convex combination of kernels,
#'   which moves the estimate by at most what one point does, so the
#'   sensitivity is that of one point with `n` the number of units. Points in
#'   memory with a unit are summarised as a table is (in one dimension the
#'   binned estimate; `binned = FALSE` is refused), so the release is the
#'   table's. `NULL` (default): every point is its own unit. The print says
#'   which ("privacy unit: one point (500)" / "privacy unit: person (142
#'   units)"; not the units' number of points, which is not private).
#' @return A `dpfda_release` (subclasses `dpfda_kde_release`,
#'   `dpfda_gp_release`) with the released curve, sensitivity, noise scale and
#'   noise kernel. What follows from it costs no budget: bands
#'   ([confint.dpfda_release()]), quantiles with intervals
#'   ([density-summaries]); in two dimensions `summary()` gives the means,
#'   standard deviations and correlation with their noise, and
#'   `as_density(r, margin = )` or `quantile(r, margin = )` one column's
#'   marginal density and quantiles. A release whose expected \eqn{L^2}
#'   noise is more than half the norm of the estimate from a single point
#'   (the largest a density estimate with this bandwidth can have: for the
#'   Gaussian kernel \eqn{((4\pi)^{d/2} |H|^{1/2})^{-1/2}}, \eqn{1/\sqrt{2
#'   \sqrt{\pi} h}} in one dimension) is mostly noise whatever the data, and
#'   warns (`dpfda_warning_utility`): use a larger bandwidth, more points or a
#'   larger epsilon.
#' @references Hall, R., Rinaldo, A. and Wasserman, L. (2013). Differential
#'   privacy for functions and functional data. *JMLR* 14, 703--727.
#' @examples
#' x <- c(rnorm(50, 0.3, 0.1), rnorm(50, 0.7, 0.1))
#' grid <- seq(0, 1, length.out = 500)
#' # the paper's Figure 1 settings; its delta = 0.1 is far above 1/n, hence the warning
#' r <- dp_kde(x, grid, bandwidth = 0.1, epsilon = 1, delta = 0.1, calibration = "hall")
#' r$noise_scale # 0.1380993
#' plot(r)
#' lines(kde_gaussian(x, grid, 0.1), col = "grey")
#' ri <- dp_kde(x, seq(0, 1, length.out = 101), bandwidth = 0.05, epsilon = 1, mechanism = "iclp")
#' ri
#' predict(ri, c(0.301, 0.7))
#' # a frequency table: each row a value and its number of records
#' tab <- as.data.frame(table(eruptions = round(faithful$eruptions, 1)))
#' tab$eruptions <- as.numeric(as.character(tab$eruptions))
#' rc <- dp_kde(tab, seq(1.5, 5.5, length.out = 81), bandwidth = 0.3, epsilon = 1, delta = 1e-5,
#'              counts = Freq, domain = c(1.5, 5.5))
#' rc$privacy_unit   # one record (272)
#' @export
dp_kde <- function(x, grid, bandwidth, epsilon, delta,
                   mechanism = c("gp", "sobolev", "bernstein", "iclp", "frl"),
                   domain = NULL, calibration = c("analytic", "hall", "classical"),
                   binned = NULL, bins = NULL, k = 20L, h = 3L, ..., noise = c("float", "exact"),
                   budget = NULL, unit = NULL) {
  check_required(c("x", "epsilon"))
  call <- match.call()
  # delta = NULL is delta omitted (0 for the pure-DP mechanisms), as in dp_accuracy()
  if (!missing(delta) && is.null(delta)) delta <- 0
  domain <- domain_from_ranges(domain)   # (a list of ranges, one per axis, as the matrix of bounds)
  # (grid = NULL is grid left out: the default from the public domain, or refused in kde_settings())
  if (missing(grid) || is.null(grid)) grid <- kde_default_grid(domain)
  # one path for every source: the estimate from the points in memory or from the summary of a
  # table, chunks or a given summary (R/summary-bins.R), then one release step per mechanism
  engine <- is_engine_input(x)
  # `columns` (and `id` for tables and chunks): strings or bare names (R/entry.R)
  opts <- if (...length()) capture_dots(..., .cols = c("columns", "id", "counts")) else list()
  x <- named_matrix_frame(x, opts$columns)
  if (engine || is.data.frame(x)) {
    opts <- resolve_column_opts(opts, x, c("columns", "id", if (engine) "counts"), n = list(columns = NULL))
    # (the grid given or made from a named domain: its names take the columns)
    opts$columns <- columns_for_named_kde(grid, domain, if (!missing(bandwidth)) bandwidth, engine_names_or(x),
                                          opts$columns)
  }
  # the privacy unit: a column of a data frame, table or chunks, or one entry per point in memory
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  person_level <- !is.null(unit) || (inherits(x, "dpfda_summary") && !is.null(x$unit))
  if (!missing(bandwidth)) check_bandwidth_unit(bandwidth, person_level)
  units <- NULL   # points in memory with a unit: their summary, computed below as a table's
  point_names <- NULL   # the names of the point columns (axis labels of the release)
  if (engine && !is.null(opts$counts)) {   # (a frequency table in a database or chunks: its column)
    check_counts_source(x, if (!is.null(unit)) "unit" else opts$id, "summarise_kde")
  }
  if (engine && !is.null(unit)) {
    opts$id <- point_units(x, unit, opts$columns, opts$id)$id
  } else if (!engine) {
    if (!is.null(opts$id)) {
      dpfda_abort("`id` is used only with a database table or chunks; give `unit` for points in memory.",
                  arg = "id")
    }
    ucol <- NULL
    if (!is.null(unit) && is.data.frame(x)) {   # the unit column of each point, then the point columns alone
      ucol <- check_unit_column(column_names(unit, names(x), "unit"), opts$columns)
      unit <- structure(as.data.frame(x)[[ucol]], name = ucol)
      if (is.null(opts$columns)) opts$columns <- setdiff(names(x), ucol)
    }
    kc <- kde_counts_arg(opts$counts, x, opts$columns)   # (a column of a data frame, or a vector)
    opts$counts <- kc$counts
    if (!is.null(kc$column) && is.null(opts$columns)) opts$columns <- setdiff(names(x), c(kc$column, ucol))
    x <- select_point_columns(x, opts$columns)
    opts$columns <- NULL
    point_names <- if (is.data.frame(x)) names(x)
    cl <- clean_point_frame(x, unit, opts$counts)
    x <- cl$x
    unit <- cl$unit
    opts$counts <- cl$counts
    if (!is.null(unit) && !is.null(opts$counts)) abort_counts_with_unit()
    if (!is.null(unit)) units <- point_units(if (is.data.frame(x)) as.matrix(x) else x, unit, NULL, NULL)
  }
  n_known <- if (!is.null(units)) units$n_units else if (!engine) NROW(x)
  # (records, not points: the n of delta's 1/n check; bad counts are refused later, in their turn)
  kc <- if (!engine) tryCatch(iclp_kde_counts(opts$counts, NROW(x)), error = function(e) NULL)
  if (!is.null(kc)) n_known <- sum(kc)
  warn_privacy(epsilon, if (missing(delta)) 0 else delta, n_known)
  noise <- check_noise(noise)
  budget <- check_budget(budget)
  if (!is.null(binned)) binned <- check_flag(binned, "binned")   # (checked on every source, used in memory)
  st <- kde_settings(grid, bandwidth, mechanism, calibration, epsilon, k, h, budget)
  mechanism <- st$mechanism
  calibration <- st$calibration
  epsilon <- st$epsilon
  k <- st$k
  h <- st$h
  grid <- st$grid
  d <- st$d
  bw <- st$bw
  # (said once the release is made: not before an error about another argument)
  clamped <- if (!engine) clamped_note(x, grid, d, domain, point_names, kc)
  if (engine && is.character(opts$columns)) point_names <- opts$columns
  # a table, chunks or summary: its summary counts the points beyond the domain in the same pass
  used <- if (engine && inherits(x, "dpfda_summary")) x
  note_summary <- if (engine) function(s) used <<- s
  domain_given <- !is.null(domain) || isTRUE(used$domain_given)   # (or given to summarise_kde())
  bw_given <- !missing(bandwidth)
  # the release charged (release_close(), `...` its parts), with the checks and notes that need it made
  done <- function(rel, ...) {
    if (person_level && bw_given) check_bandwidth_same_units(bandwidth, rel)
    rel <- release_close(rel, budget, "dp_kde", ...)
    if (is.null(clamped) && !is.null(used)) {
      clamped <- clamped_note_summary(used, kde_check_domain(as_domain(domain, grid)), d, domain_given,
                                      point_names)
    }
    if (!is.null(clamped)) dpfda_warn(clamped, "dpfda_warning_data")
    if (length(point_names) == d && !anyNA(point_names) && all(nzchar(point_names))) {
      rel$values$arg_name <- point_names
      # predict() takes the point columns of a data frame by name (a test set, columns in another order)
      if (!anyDuplicated(point_names)) rel$predictors <- point_names
    }
    rel
  }
  if (!is.null(units)) {   # points in memory with a unit: the summary a table would give, then its release
    if (d == 1L && isFALSE(binned) && !mechanism %in% c("iclp", "frl")) {
      dpfda_abort(paste("`unit` with points in memory uses the binned estimate in one dimension, as a table does;",
                        "leave `binned` NULL or TRUE."), arg = "binned")
    }
    x <- summarise_kde_impl(units$x, grid, bandwidth, domain, bins, units$columns, "unit", mechanism, k)
    x$unit <- units$label
    engine <- TRUE
  }
  # counts with the kernel mechanisms: the summary of the records, then its release
  if (!engine && !is.null(opts$counts) && !mechanism %in% c("iclp", "frl")) {
    x <- kde_counts_summary(x, opts$counts, grid, bandwidth, domain, bins, binned, d, mechanism, k)
    opts$counts <- NULL
    engine <- TRUE
  }
  if (mechanism %in% c("iclp", "frl")) {   # pure DP (Lin and Reimherr), R/mech-iclp-kde.R: any source
    rel <- do.call(dp_kde_iclp, c(list(x, grid, bandwidth, bw, epsilon, if (missing(delta)) 0 else delta,
                                       mechanism, domain, if (!engine) binned, bins, call, noise = noise,
                                       note_summary = note_summary), opts),
                   quote = TRUE)
    return(done(rel))
  }
  columns <- opts$columns
  id <- opts$id
  counts <- opts$counts   # (a column of a table or chunks; in memory the summary is made above)
  opts$columns <- NULL
  opts$id <- NULL
  opts$counts <- NULL
  # what is left goes to dp_noise_scale() (not used by the Bernstein lattice): anything else, e.g.
  # the `eta` of mechanism "iclp", is refused here rather than by R deep inside
  ok <- if (mechanism != "bernstein") "allow_large_epsilon"
  iclp_only <- intersect(setdiff(names(opts), ok), setdiff(iclp_kde_options, "counts"))
  if (length(iclp_only)) {
    dpfda_abort(sprintf("`%s` is an option of mechanism \"iclp\" and \"frl\" only, not of \"%s\"; see ?dp_kde.",
                        iclp_only[1L], mechanism), arg = iclp_only[1L])
  }
  check_dot_names(opts, ok, "dp_kde", unknown = function(name) {
    if (identical(name, "inference")) {   # (dp_mean()'s option: a KDE's band needs no budget of its own)
      dpfda_abort(paste("`inference` is an option of dp_mean(); dp_kde() needs none: confint(r, type =",
                        "\"population\") gives a band for the population density from the release alone."),
                  arg = "inference")
    }
    abort_unknown_option(name, "dp_kde", c(option_names("dp_kde"), ok, "columns", "id", iclp_kde_options))
  })
  if (engine && d == 1L) grid <- sort(grid)
  if (mechanism == "sobolev" && !bw$isotropic) {
    dpfda_abort(paste("The Sobolev mechanism needs an isotropic (scalar) bandwidth, not one per axis.",
                        "Rescale the columns so that one bandwidth suits all of them, or use mechanism = \"gp\",",
                        "which takes a bandwidth per axis or a matrix."), arg = "bandwidth")
  }
  dom <- kde_check_domain(as_domain(domain, grid))
  est <- if (engine) kde_summary_estimate(x, grid, bandwidth, bw, dom, bins, columns, id, mechanism, k, d, counts) else
    kde_points_estimate(x, bandwidth, dom, binned, bins, d)
  if (is.function(note_summary)) note_summary(est$summary)
  if (is.null(n_known)) warn_privacy(NULL, if (missing(delta)) 0 else delta, est$n)   # (a table's n, from its summary)
  if (mechanism == "bernstein") {
    rel <- kde_bernstein_release(est$at, est$n, grid, bandwidth, bw, d, epsilon, if (missing(delta)) 0 else delta,
                                 dom, calibration, k, h, call, noise)
    rel$privacy_unit <- est$privacy_unit
    rel$bin_width <- est$bin_width((k + 1)^d)   # for confint(type = "population")
    if (inherits(bandwidth, "dpfda_bandwidth")) rel$bandwidth_budget <- bandwidth[c("epsilon", "delta")]
    return(done(rel, list(release_part(rel$lattice))))
  }
  if (missing(delta)) require_arg_error("delta", "dp_kde", delta_advice(mechanism))
  delta <- check_delta(delta, zero = gaussian_delta_zero(sprintf("mechanism \"%s\"", mechanism),
                                                        "mechanism = \"bernstein\", \"iclp\" or \"frl\""))
  rel <- kde_gp_release(est$at(grid), grid, dom, bw, est$n, d, mechanism, epsilon, delta, calibration, bandwidth,
                        call, noise, opts)
  rel$privacy_unit <- est$privacy_unit
  rel$bin_width <- est$bin_width(grid_size(grid))   # for confint(type = "population")
  done(rel)
}

# `counts` with the kernel mechanisms ("gp", "sobolev", "bernstein"), points in
# memory: the summary of rep(x, counts) without building it (in one dimension
# binned with weight counts[i], in several the kernel sums times the counts),
# n = sum(counts) records, each its own privacy unit, as for "iclp" and "frl".
kde_counts_summary <- function(x, counts, grid, bandwidth, domain, bins, binned, d, mechanism, k) {
  if (d == 1L && isFALSE(binned)) {
    dpfda_abort("`counts` uses the binned estimate (each point weighted by its count); leave `binned` NULL or TRUE.",
                arg = "binned")
  }
  pts <- kde_input_points(x, d)
  counts <- iclp_kde_counts(counts, nrow(pts))
  if (d == 1L) {
    s <- summarise_kde_sums(pts[, 1L], grid, bandwidth, domain, bins, mechanism = mechanism, .weights = counts)
    s$counts <- "counts"   # (its n counts records)
    return(s)
  }
  # (several dimensions: the exact kernel sums at the grid or lattice, each point times its count, as
  # a table's summary with a counts column)
  df <- stats::setNames(as.data.frame(pts), paste0(".x", seq_len(d)))
  df$.dpfda_counts <- counts
  summarise_kde_impl(df, grid, bandwidth, domain, bins, names(df)[seq_len(d)], NULL, mechanism, k,
                     counts = ".dpfda_counts")
}

# `counts` as given: a vector (one count per point), or a column of a data
# frame in memory (a string or a bare name naming one of its columns; a bare
# name that is not a column is the variable's value). Returns the counts and
# the column they came from (NULL for a vector).
kde_counts_arg <- function(counts, x, columns) {
  ref <- inherits(counts, "dpfda_column_ref")
  val <- if (ref) counts$value else counts
  named <- ref && is.symbol(counts$expr) && is.data.frame(x) && as.character(counts$expr) %in% names(x)
  if (!named && !(is.character(val) && length(val) == 1L)) {
    if (inherits(val, "error")) {
      # (a bare name that is neither a column nor a variable: most likely a misspelt column)
      if (ref && is.symbol(counts$expr) && is.data.frame(x)) missing_column_error(as.character(counts$expr), names(x),
                                                                                 "counts")
      dpfda_abort(sprintf("`counts` could not be evaluated (%s); give a vector of counts or a column name.",
                          conditionMessage(val)), arg = "counts")
    }
    return(list(counts = val, column = NULL))
  }
  if (!is.data.frame(x)) {
    dpfda_abort(paste("`counts` names a column, which needs a data frame `x` in memory; for points in a vector or",
                      "matrix give the counts themselves (one per point)."), arg = "counts")
  }
  col <- column_names(counts, names(x), "counts")
  check_counts_column(col, columns)
  # (the column's name rides along, for a message about its values: clean_point_frame())
  list(counts = structure(as.data.frame(x)[[col]], column = col), column = col)
}

# Without a `domain`, the grid's range bounds the data and points beyond it are
# moved to its ends: on a grid over part of the data (a zoom on [3, 4] of
# faithful's eruptions) the release was that of a pile at each end, 0.49 at 3
# where the density is 0.055, without a word. With a `domain`, clamping a few
# points is its purpose, but a tenth or more says the domain does not fit the
# data (MASS::geyser's columns are waiting, then duration: a domain written
# for duration, waiting moved all 299 points to one corner). Said to the
# curator, who holds the data (as the count of dropped missing values is).
# The warning's message, or NULL.
clamped_note <- function(x, grid, d, domain, point_names = NULL, counts = NULL) {
  pts <- tryCatch(kde_input_points(x, d), error = function(e) NULL)   # (bad input: refused later, by name)
  dom <- tryCatch(as_domain(domain, grid), error = function(e) NULL)
  if (is.null(pts) || !is.numeric(pts) || is.null(dom) || !nrow(pts)) return(NULL)
  if (length(counts) != nrow(pts)) counts <- NULL   # (checked counts, one per point: the records)
  clamped_message(points_outside(pts, dom, counts), if (is.null(counts)) nrow(pts) else sum(counts), dom, d,
                  !is.null(domain), point_names, !is.null(counts))
}

# The same from a table, chunks or a summary: the count of points beyond the
# domain that the summary took in the same pass (`outside`; a summary of an
# earlier version has none: nothing is said).
clamped_note_summary <- function(s, dom, d, domain_given, point_names = NULL) {
  if (!inherits(s, "dpfda_summary") || is.null(s$outside)) return(NULL)
  clamped_message(s$outside, if (is.null(s$counts)) s$rows - s$dropped else s$n, dom, d, domain_given, point_names,
                  !is.null(s$counts))
}

# dp_kme() and dp_bandwidth(): the warning of a given box `dom` (c(lower, upper) or 2 x d) beyond
# which a tenth or more of the points lie (a box that does not fit the data, e.g. its columns swapped).
warn_clamped <- function(out, total, dom, point_names = NULL, records = FALSE) {
  dm <- matrix(as.double(dom), nrow = 2L)
  msg <- clamped_message(out, total, dm, ncol(dm), TRUE, point_names, records)
  if (!is.null(msg)) dpfda_warn(msg, class = "dpfda_warning_data")
}

# The warning for `out` of `total` points clamped to the box `dom`, or NULL:
# any, when the box is the grid's range (no `domain`); a tenth, with a domain.
# (`records`: a frequency table's, counted in records as its n is)
clamped_message <- function(out, total, dom, d, domain_given, point_names = NULL, records = FALSE) {
  if (!(total > 0) || !(out > 0)) return(NULL)
  what <- if (records) "records" else "points"
  dm <- matrix(dom, nrow = 2L)
  box <- format_box(dm[1L, ], dm[2L, ])
  edge <- if (d == 1L) "ends" else "edges"
  f <- function(v) format(v, big.mark = ",", scientific = FALSE)
  if (!domain_given) {
    return(sprintf(paste("%s of the %s %s lie outside the range of the grid (%s), which bounds the data when no",
                         "`domain` is given: they were moved to its %s, so the release there is the density of those",
                         "piled-up points. Give `domain`, public bounds of all the data (e.g. c(lower, upper)), to release",
                         "the density of all the points on this grid."), f(out), f(total), what, box, edge))
  }
  if (out / total < 0.1) return(NULL)
  sprintf(paste("%s of the %s %s (%s%%) lie outside `domain` (%s) and were moved to its %s: check that it bounds",
                "the data%s."), f(out), f(total), what, format(round(100 * out / total)), box, edge,
          if (d > 1L && length(point_names) == d) sprintf(", its columns in the order of the points' (%s)",
                                                          paste(point_names, collapse = ", ")) else "")
}

# The points of a density estimate in memory (n x d), with advice for a
# data frame that has other columns than the d of the points.
kde_input_points <- function(x, d) {
  if (is.data.frame(x) && ncol(x) != d && all(vapply(x, is.numeric, NA))) {   # which columns to take
    dpfda_abort(sprintf(paste("`x` is a data frame with %d columns (%s) for a %d-dimensional grid; choose the",
                              "column%s of the points with `columns`, e.g. columns = %s."),
                        ncol(x), paste0("\"", utils::head(names(x), 5L), "\"", collapse = ", "), d,
                        if (d == 1L) "" else "s",
                        if (d == 1L) sprintf("\"%s\"", names(x)[1L]) else
                          sprintf("c(%s)", paste0("\"", utils::head(names(x), d), "\"", collapse = ", "))),
                arg = "x")
  }
  as_points(x, "x", d = d)
}

# The kernel density estimate from points in memory: a function evaluating
# it at any points (the grid, or the Bernstein lattice), and n.
kde_points_estimate <- function(x, bandwidth, dom, binned, bins, d) {
  pts <- kde_input_points(x, d)
  list(at = function(p) as.vector(kde_gaussian(pts, p, bandwidth, domain = dom, binned = binned,
                                               bins = bins)$values),
       n = nrow(pts), privacy_unit = privacy_unit_points(nrow(pts)),
       bin_width = function(m) kde_bin_width(nrow(pts), m, d, dom, bandwidth, binned, bins))
}

# The release step of the Bernstein KDE, shared with data outside memory
# (R/summary-bins.R): `target` evaluates the non-private estimate at lattice
# points, from the data or from their summary.
kde_bernstein_release <- function(target, n, grid, bandwidth, bw, d, epsilon, delta, dom, calibration, k, h,
                                  call, noise) {
  delta <- check_number(delta, "delta", lower = 0, upper = 1, upper_open = TRUE,
                        what = "a number in [0, 1)", class = "dpfda_error_privacy")
  sens <- sensitivity_bernstein_kde(n, bandwidth, dim = d)
  if (!is.finite(sens) || !(sens > 1e10 * .Machine$double.xmin)) {
    dpfda_abort("`bandwidth` gives a sensitivity that underflows or overflows.", class = "dpfda_error_numeric",
                arg = "bandwidth")
  }
  lat <- quiet_privacy(dp_bernstein(target, sensitivity = sens, epsilon = epsilon, k = k, h = h, dim = d,
                      delta = delta, domain = dom,
                      calibration = if (delta > 0) calibration else "analytic", noise = noise))
  vals <- bernstein_predict(lat, grid)   # (clamped to the domain, as documented; no warning)
  new_kde_bernstein_release(new_dpfda_curves(matrix(vals, nrow = 1L), grid, dom), mechanism = "kde-bernstein",
                    epsilon = epsilon, delta = delta, sensitivity = sens, noise_scale = lat$noise_scale,
                    noise = sprintf("%s noise on the (k + 1)^%d lattice, k = %d, h = %d", lat$noise_type, d,
                                    as.integer(k), as.integer(h)),
                    call = call, lattice = lat, n = n, bandwidth = bw$H)
}

# The settings of dp_kde() that the in-memory and the engine path share, checked
# in the order the bad-argument tests expect; a released bandwidth is a
# sub-step, charged here unless already charged to this budget. `grid` and
# `bandwidth` may be the caller's missing arguments (missing() sees through).
kde_settings <- function(grid, bandwidth, mechanism, calibration, epsilon, k, h, budget) {
  grid_hint <- paste("Give it, or a public `domain` (c(lower, upper), or a 2 x 2 matrix of bounds",
                     "in two dimensions) for a default grid over it; in three or more dimensions there is no",
                     "default grid: give one, e.g. a list of axes, one per column.")
  if (is.null(grid) && missing(bandwidth)) {   # (both named at once)
    dpfda_abort(paste("`grid` (or `domain`) and `bandwidth` are missing in dp_kde(): evaluation points must be",
                      "public and chosen without looking at the data;", sub("^Give it", "give the grid", grid_hint),
                      "Give `bandwidth` as a public value or one released by dp_bandwidth()."), arg = "grid")
  }
  if (is.null(grid)) abort_grid_required(hint = paste0(" ", grid_hint))
  if (missing(bandwidth)) {
    dpfda_abort("`bandwidth` is required: give a public value or one released by dp_bandwidth().",
                arg = "bandwidth")
  }
  mechanism <- check_mechanism(mechanism, c("gp", "sobolev", "bernstein", "iclp_qr", "frl"), "dp_kde",
                               local = c(iclp_qr = "iclp"))
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  epsilon <- check_epsilon(epsilon)
  grid <- as_grid(grid, "grid")
  d <- if (is.null(dim(grid))) 1L else ncol(grid)
  if (d == 1L) grid <- sort(grid)   # (every mechanism on one sorted grid, as ?curves says; Bernstein kept it reversed)
  if (is.numeric(k) && d > 1L && length(k) == d && is.null(dim(k)) && !anyNA(k)) {
    # (dp_bernstein() takes one degree per axis; the KDE's lattice has one degree for all)
    if (all(k == k[1L])) {
      k <- k[1L]
    } else {
      dpfda_abort(sprintf(paste("dp_kde(mechanism = \"bernstein\") uses one degree `k` on every axis (a lattice of",
                                "(k + 1)^d points over the domain): give one number, e.g. k = %s, not one per axis."),
                          format(max(k))), arg = "k")
    }
  }
  k <- check_count(k, "k", min = 1, max = 1e4)
  h <- check_count(h, "h", min = 1, max = 1000)
  bw <- as_bandwidth(bandwidth, d)
  if (!is.null(budget) && inherits(bandwidth, "dpfda_bandwidth")) charge_bandwidth(budget, bandwidth)
  list(mechanism = mechanism, calibration = calibration, epsilon = epsilon, k = k, h = h, grid = grid, d = d,
       bw = bw)
}

# The release step of the "gp" and "sobolev" KDE, shared with data outside
# memory: the estimate `f` on the grid, RKHS sensitivity, Gaussian-process noise.
kde_gp_release <- function(f, grid, dom, bw, n, d, mechanism, epsilon, delta, calibration, bandwidth, call,
                           noise, opts = list()) {
  sens <- sensitivity_kde(n, if (is.matrix(bw$H) && !bw$isotropic) bw$H else sqrt(bw$H[1, 1]),
                          d = d, mechanism = mechanism)
  noise_kernel <- if (mechanism == "gp") bw$kernel else
    kernel_exponential(sqrt(bw$H[1, 1]), norm = "l1")
  sigma <- do.call(dp_noise_scale, c(list(sens, epsilon, delta, calibration = calibration), opts))
  bw_budget <- if (inherits(bandwidth, "dpfda_bandwidth")) bandwidth[c("epsilon", "delta")] else NULL
  gp_release(f, grid, noise_kernel, sigma, mechanism = paste0("kde-", mechanism), epsilon = epsilon,
             delta = delta, sensitivity = sens, call = call, calibration = calibration, n = n,
             bandwidth = bw$H, domain = dom, bandwidth_budget = bw_budget, build = new_kde_release,
             noise_mode = noise)
}

#' @export
release_predict.dpfda_kde_bernstein_release <- function(object, newdata, ...) {
  bernstein_predict(object$lattice, newdata, ...)   # (predict() warned already outside the grid)
}

#' The release of dp_kde(mechanism = "gp" or "sobolev"): class
#' `dpfda_kde_release` (a GP-noise release).
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `noise` is the noise kernel.
#' @param jitter,sampler,noise_exact,grid_step,calibration_exact,zcdp_rho The
#'   GP noise fields (see new_gp_release()).
#' @param calibration How sigma was calibrated.
#' @param n The number of points (or units).
#' @param bandwidth The bandwidth matrix H.
#' @param domain The domain of the density.
#' @param bandwidth_budget The (epsilon, delta) of a released bandwidth
#'   (always stored, NULL for a public one).
#' @param privacy_unit What one individual of the guarantee is (set after the
#'   release by dp_kde()).
#' @param bin_width The width of the bins the points were counted in (NULL:
#'   not binned), for confint(type = "population") (set after the release by
#'   dp_kde()).
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_kde_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL, call = NULL,
                            jitter = NULL, sampler = NULL, noise_exact = NULL, grid_step = NULL,
                            calibration_exact = NULL, zcdp_rho = NULL, calibration = NULL, n = NULL,
                            bandwidth = NULL, domain = NULL, bandwidth_budget = NULL, privacy_unit = NULL,
                            bin_width = NULL, predictors = NULL) {
  release_from_fields(new_kde_release, c("dpfda_kde_release", "dpfda_gp_release"),
                      nullable = "bandwidth_budget")
}

#' The release of dp_kde(mechanism = "bernstein"): class
#' `dpfda_kde_bernstein_release`, a `dpfda_kde_release`.
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `values` are the lattice
#'   polynomial on the grid.
#' @param lattice The dp_bernstein() release of the lattice values.
#' @param n The number of points (or units).
#' @param bandwidth The bandwidth matrix H.
#' @param privacy_unit What one individual of the guarantee is (set after the
#'   release by dp_kde()).
#' @param bin_width,bandwidth_budget As for new_kde_release() (set after the
#'   release by dp_kde()).
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_kde_bernstein_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                                      call = NULL, lattice = NULL, n = NULL, bandwidth = NULL,
                                      privacy_unit = NULL, bin_width = NULL, bandwidth_budget = NULL,
                                      predictors = NULL) {
  release_from_fields(new_kde_bernstein_release, c("dpfda_kde_bernstein_release", "dpfda_kde_release"))
}

# dp_kde()'s default grid from a public domain: 101 equispaced points on c(lower, upper), or a tensor grid
# of 51 per axis on a 2 x 2 matrix of bounds (its column names name the columns); NULL otherwise (refused
# by kde_settings(); three or more dimensions need a grid chosen for the cost of its size).
kde_default_grid <- function(domain) {
  if (is.null(dim(domain)) && length(domain) == 2L) {
    domain <- as_domain(domain, domain[1L])   # (refuses a reversed or non-finite pair, naming it)
    return(seq(domain[1L], domain[2L], length.out = 101L))
  }
  if (is.null(domain)) return(NULL)
  bounds <- is.numeric(domain) && is.matrix(domain) && nrow(domain) == 2L && all(is.finite(domain)) &&
    all(domain[1L, ] < domain[2L, ])
  if (!isTRUE(bounds)) {
    # (a domain was given, but not as bounds: say why, rather than that grid is missing; bounds in three or
    # more dimensions leave `grid` required, as the message of kde_settings() says)
    dpfda_abort(sprintf(paste("`domain` gives no default grid: it must be c(lower, upper), or in two dimensions a",
                              "2 x 2 matrix of bounds (row 1 the lower bounds, row 2 the upper, one column per axis)",
                              "or a list of two ranges c(lower, upper); it is %s.%s"), describe_value(domain),
                        domain_transposed_hint(domain)), arg = "domain")
  }
  if (ncol(domain) == 2L) {
    axes <- lapply(1:2, function(j) seq(domain[1L, j], domain[2L, j], length.out = 51L))
    names(axes) <- colnames(domain)
    return(axes)
  }
  NULL
}

# A bandwidth released by dp_bandwidth() protects what its own privacy unit is; a density that protects
# persons (`unit`, or a summary with one) cannot use one released for points: a person with several
# points would not be covered by the bandwidth's guarantee.
check_bandwidth_unit <- function(bandwidth, person_level) {
  if (person_level && inherits(bandwidth, "dpfda_bandwidth") && is.null(bandwidth$unit)) {
    dpfda_abort(paste("`bandwidth` was released by dp_bandwidth() with one point as the privacy unit, but this",
                      "density protects a whole unit (`unit`), whose several points that guarantee does not",
                      "cover. Release the bandwidth with dp_bandwidth(..., unit = ) on the same units, or give a",
                      "public bandwidth."), arg = "bandwidth", class = c("dpfda_error_argument", "dpfda_error_privacy"))
  }
  invisible()
}

# ... and one released with a unit must have had this density's units: the same unit and the same
# number of them (its privacy_unit). A finer one (rows, or another grouping such as time points
# across persons) would spread one person over several of its units. (Checked on the release, before
# its charge: the density's units are known only once its summary is made. A density of points or
# records may use a bandwidth of persons: each point is within one.)
check_bandwidth_same_units <- function(bandwidth, rel) {
  if (!inherits(bandwidth, "dpfda_bandwidth") || is.null(bandwidth$unit) || is.null(rel$privacy_unit)) {
    return(invisible())
  }
  if (!identical(bandwidth$privacy_unit, rel$privacy_unit)) {
    dpfda_abort(sprintf(paste("`bandwidth` was released by dp_bandwidth() for the privacy unit %s, but this density",
                              "protects %s: the bandwidth's guarantee covers a whole unit of its own kind only, and one",
                              "of this density's units may be several of those. Release the bandwidth with the same",
                              "`unit` (the same column or vector, under the same name) on the same data, or give a",
                              "public bandwidth. The density was not released, nor its epsilon charged."),
                        dQuote(bandwidth$privacy_unit, FALSE), dQuote(rel$privacy_unit, FALSE)),
                arg = "bandwidth", class = c("dpfda_error_argument", "dpfda_error_privacy"))
  }
  invisible()
}
