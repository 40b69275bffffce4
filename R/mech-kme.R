# Balog, Tolstikhin & Schoelkopf (ICML 2018): differentially private database
# release via kernel mean embeddings. The C core is src/kme.c.
#
# Privacy model: substitution neighbours (bounded DP), N = nrow(x) public.
# The data are touched only in kme_rowmeans() (Algorithm 1, the exponential
# mechanism) and kme_rff_mean() (Algorithm 2); everything after the noise is
# post-processing of public inputs and the noisy vector.

# ---- the mechanism -------------------------------------------------------------

#' Private database release through kernel mean embeddings (Balog et al.)
#'
#' Releases a weighted synthetic data set \eqn{\{(z_m, w_m)\}_{m=1}^M} whose
#' embedding \eqn{\tilde\mu = \sum_m w_m k(z_m, \cdot)} is an
#' \eqn{(\epsilon, \delta)}-differentially private estimate of the kernel mean
#' embedding \eqn{\hat\mu_X = N^{-1}\sum_n k(x_n, \cdot)} of the rows of `x`
#' (Balog, Tolstikhin and Schoelkopf, 2018). Use the release through
#' [kme_expectation()], [kme_mmd()], [kme_mmd_test()], `predict()` (the
#' function \eqn{\tilde\mu}) and `plot()`.
#'
#' **Privacy model.** Neighbouring data sets differ by the substitution of
#' one row; \eqn{N} = `nrow(x)` is public. The kernel must satisfy
#' \eqn{k(x, x) \le 1} everywhere (checked: the variance of the kernel), so
#' \eqn{\|\hat\mu_D - \hat\mu_{D'}\|_H \le 2/N} (Lemma 13). Rows outside a
#' declared public `domain` are clamped to it (the kernels need no domain for
#' privacy; the box is also used for synthetic points and pre-images).
#'
#' **`method = "subspace"`** (Algorithm 1). The `M` synthetic points are
#' fixed before the data are touched: the rows of `synthetic` (public points
#' that you declare public; when they are rows of `x`, `public = TRUE`
#' acknowledges that those individuals are not protected, as in the paper's
#' "leak" scenario) or, with `synthetic = NULL`, `M` uniform draws from
#' `domain`. An orthonormal basis of \eqn{span\{k(z_m,\cdot)\}} is computed
#' from \eqn{K_{zz}} alone by the authors' sequential incomplete Cholesky that
#' skips points whose squared residual norm is at most `tol`
#' \eqn{\cdot k(z,z)} (their modified Gram-Schmidt; `pivot = TRUE` takes the
#' largest residual first). The \eqn{F} coordinates \eqn{\alpha} of the
#' projection of \eqn{\hat\mu_X} move by at most \eqn{2/N} in L2, get
#' Gaussian noise of scale \eqn{\sigma}, and are mapped back to weights
#' (skipped points get weight 0). With `l1_bound = C`, the weights are
#' replaced by the closest (in the RKHS) weights with \eqn{\|w\|_1 \le C}
#' (Theorem 11; post-processing).
#'
#' **`method = "random_features"`** (Algorithm 2). The mean of `J` random
#' Fourier features ([kme_rff()], cos/sin pairs with \eqn{\|\phi(x)\| = 1}
#' exactly; the authors' cos-only features do not satisfy the norm bound the
#' proof needs) gets Gaussian noise of scale \eqn{\sigma}; then
#' [kme_reduced_set()] fits `M` points and weights to the noisy vector from
#' the public start points `synthetic` (or uniform draws from `domain`)
#' without ever seeing `x`. `lasso_lambda = NULL` is the authors'
#' \eqn{\lambda = 100/N}.
#'
#' **`method = "exponential"`** (Section 3.4). Chooses one of the public
#' `candidates` (each a matrix of points with uniform weights, or a list with
#' `points` and `weights`) by the exponential mechanism with utility
#' \eqn{-\|\hat\mu_X - \mu_R\|_H} and sensitivity \eqn{2/N}, sampled exactly
#' (Gumbel-max, [dp_select()]). Pure \eqn{\epsilon}-DP (`delta` is not used and
#' may be 0). Only for small problems: it evaluates
#' \eqn{\mathrm{mean}(K_{xx})}, \eqn{N^2} kernel values. Not available for
#' database tables and chunks: \eqn{\mathrm{mean}(K_{xx}) = \|\hat\mu_X\|_H^2}
#' is a sum over pairs of rows, not a sum over individuals, so no summary
#' of fixed size (like the kernel sums of the other methods) determines the
#' utility.
#'
#' **Pure differential privacy.** With `delta = 0` (an option of the
#' specification, not used in the paper), Laplace noise replaces the Gaussian
#' noise: the L1 sensitivity of the \eqn{F} subspace coordinates (or \eqn{J}
#' features) is at most \eqn{\sqrt F} (\eqn{\sqrt J}) times the L2
#' sensitivity, so the scale is \eqn{\sqrt F \Delta/\epsilon}
#' (\eqn{\sqrt J \Delta/\epsilon}) and the release is \eqn{\epsilon}-DP. (The
#' authors' unused Laplace branch has the wrong sensitivity \eqn{2/\sqrt N}.)
#'
#' **Noise scale.** \eqn{\sigma} = [dp_noise_scale]`(Delta, epsilon, delta,
#' calibration)` with \eqn{\Delta = 2\sqrt{v}/N}, \eqn{v = k(x, x) \le 1}
#' (the paper's \eqn{2/N} for \eqn{v = 1}). With `tight = TRUE`,
#' \eqn{\Delta = \sqrt{2v}/N}: valid for the subspace and exponential
#' methods because every kernel of the package is nonnegative, so
#' \eqn{\|k(x,\cdot) - k(x',\cdot)\|_H^2 = 2v - 2k(x,x') \le 2v} (an
#' improvement over the paper, not in it; refused for random features, whose
#' inner products can be negative). `"classical"` is the paper's \eqn{\sigma^2 = 8
#' \log(1.25/\delta)/(N^2\epsilon^2)}, proven for \eqn{\epsilon < 1} only
#' (the paper also uses it at \eqn{\epsilon = 1}; here that is refused);
#' `"analytic"` (default) is the exact Gaussian calibration, smaller and
#' valid for every \eqn{\epsilon}. It never depends on the data. The noise
#' is drawn in floating point from the package noise source ([dp_rng()]),
#' i.e. with idealised numerics (no snapping against floating-point attacks,
#' Mironov 2012).
#'
#' **Differences from the paper**, all documented in the package's
#' specification: cos/sin instead of cos-only features; the analytic
#' calibration by default; clamping to an optional public box; the default
#' Adam learning rate is half the lengthscale (the paper: 100 for
#' lengthscales 141 to 224); the reduced set starts from copies of the start
#' points (the authors' code shares them across runs).
#'
#' @param x Private data: a numeric vector (1-D), an `N x D` matrix or a data
#'   frame of numeric columns, one row per individual (`columns` in `...`
#'   selects columns of a data frame, or of a matrix with column names such
#'   as `scale()` returns); or a database table (dbplyr lazy
#'   table), [dp_chunks()] or a [summarise_kme()] summary, summarised outside
#'   memory (give the point `columns` in `...`; methods `"subspace"` and
#'   `"random_features"`: the exponential method needs
#'   \eqn{\|\hat\mu_X\|_H^2}, a sum over pairs of rows rather than over
#'   individuals, so it needs the rows in memory). A row with a missing or
#'   non-finite value in a used column (or a missing `unit` or count) is
#'   refused on every source (`dpfda_error_data`), as in [dp_kde()]: `n` is
#'   public, and dropping the row would release whether a record is
#'   missing. Remove such rows first where their number may be public.
#' @param kernel A kernel object ([kernels]) with variance at most 1.
#' @param epsilon Privacy parameter.
#' @param delta Privacy parameter in \[0, 1): 0 gives pure
#'   \eqn{\epsilon}-DP (Laplace noise, or the exponential mechanism, which
#'   ignores `delta`).
#' @param method `"subspace"`, `"random_features"` or `"exponential"`.
#' @param synthetic Public points: the synthetic points of Algorithm 1 or the
#'   start points of Algorithm 2 (an `M x D` matrix; the first `M` rows are
#'   used); or a public generator, a function of `M` returning `M` points
#'   (e.g. the paper's `function(M) matrix(rnorm(2 * M, 0, 500), M)`), called
#'   without the data; or `NULL` for uniform draws from `domain`. With a data
#'   frame or table as `x`, a matrix with column names takes the columns of
#'   `x` of those names, in that order (as `columns`, which must then agree).
#' @param M Number of synthetic / reduced-set points; `NULL` for all rows of
#'   `synthetic`.
#' @param J Number of random features (even), for `"random_features"`.
#' @param calibration `"analytic"` or `"classical"`.
#' @param domain `NULL` or a public box: `c(lower, upper)`, a `2 x D`
#'   matrix (row 1 lower, row 2 upper; its column names, if any, select the
#'   data's columns, as in [dp_kde()]), or a list of `D` ranges
#'   (`list(duration = c(0.5, 6), waiting = c(40, 110))`). Data are clamped
#'   to it; when a tenth or more of the points lie beyond it (a box that does
#'   not fit the data, e.g. its columns swapped) a warning of class
#'   `dpfda_warning_data` says so, on every source.
#' @param public `TRUE` acknowledges that `synthetic` may contain rows of `x`
#'   that are already public, or points of a public grid that meet discrete
#'   data by chance (otherwise that raises a warning, `dpfda_warning_privacy`,
#'   which reads the data: a message to the curator, not part of the release).
#' @param tol Skip threshold of the basis (relative to \eqn{k(z, z)}).
#' @param pivot Pivoted instead of sequential basis.
#' @param l1_bound `NULL`, or \eqn{C \ge 1}: bound on \eqn{\|w\|_1}
#'   (Theorem 11 for the subspace method; for random features the reduced
#'   set then solves the constrained problem (5) instead of the Lasso).
#' @param iters,lr Adam iterations and learning rate of the pre-image search
#'   (`lr`: one number, or one per coordinate; `NULL`, half the kernel's
#'   lengthscale along each coordinate, so that the search is the same in any
#'   units).
#' @param lasso_lambda Lasso penalty; `NULL` for \eqn{100/N}.
#' @param candidates For `"exponential"`: a list of public candidate data
#'   sets.
#' @param chunk Rows of `x` processed at once (memory \eqn{O(M \cdot chunk)}).
#' @param tight Use the sensitivity \eqn{\sqrt{2v}/N} of nonnegative kernels
#'   instead of the paper's \eqn{2\sqrt{v}/N} (subspace and exponential
#'   methods).
#' @param noise `"float"` (default) or `"exact"`: the noisy coordinates
#'   (subspace coefficients or mean random features) are rounded to a grid
#'   \eqn{2^{-k}} and get discrete Gaussian noise calibrated through zCDP
#'   for the sensitivity plus the rounding distance (discrete Laplace when
#'   `delta = 0`); see [exact_noise]. Not for `method = "exponential"`.
#' @param ... Options:
#'   * `columns`: the `D` point columns, as strings or bare names
#'     (`columns = c(eruptions, waiting)`; the rule is in [as_curves()]); for
#'     a database table or chunks also `id` (an individual's rows are weighted
#'     by one over their number, see [summarise_kme()]).
#'   * `counts`: whole-number frequencies, for a frequency table: one count
#'     per point of a vector or matrix, or a column (string or bare name) of
#'     a data frame, database table or chunks (the `Freq` of
#'     `as.data.frame(table(v))`). Point `i` stands for `counts[i]` records,
#'     so `N = sum(counts)`, every record is its own privacy unit ("privacy
#'     unit: one record (N)"), and the release is that of `rep(x, counts)`
#'     without building it: each point weighs its count in the kernel sums
#'     or features, and in the exponential method's utility (whose
#'     \eqn{N^2} limit then applies to the distinct points). A missing count
#'     is refused, as a missing value; not with `unit`; a summary has
#'     its counts already ([summarise_kme()]'s `counts`). Points beyond
#'     `domain` are counted in records for the warning.
#' @param unit The privacy unit when one person has several points: a column
#'   (string or bare name) of a data frame, table or chunks (in chunks, each
#'   unit's rows together; `id` in `...` is its older name), or a vector with one entry per
#'   point for a vector or matrix. A unit with \eqn{r} points adds each with
#'   weight \eqn{1/r}, so its embedding is a convex combination of kernel
#'   features with norm at most one and the sensitivity is that of one point
#'   with `N` the number of units. Every method; the exponential method
#'   weighs the rows the same way in its utility
#'   \eqn{-\|\hat\mu_X - \mu_R\|_H}, which therefore moves by at most
#'   \eqn{2\sqrt{v}/N} when all points of one unit change (points in memory
#'   only, as without a unit). `NULL` (default): every point is its own unit.
#'   The print says which.
#' @param budget `NULL` or a [privacy_budget()] to charge (Gaussian
#'   releases are recorded with \eqn{\mu = \Delta/\sigma} for exact
#'   composition).
#' @return An object of class `dpfda_kme_release` (a `dpfda_release`): `points`
#'   (`M x D`), `weights`, `method`, `epsilon`, `delta`, the L2 `sensitivity`
#'   used (\eqn{2/N} for unit-variance kernels), `noise_scale`, `noise_dim` (\eqn{F} or \eqn{J}), the kernel,
#'   `n`, the random features (Algorithm 2), the rng mode and the call. It
#'   never holds \eqn{\alpha}, \eqn{\bar k}, the mean features nor the noise.
#'   A release whose noise has an expected RKHS norm (the print's "expected
#'   RKHS norm of the noise") above half of \eqn{\sqrt{v}}, the largest norm
#'   the embedding of any distribution can have, is mostly noise and warns
#'   (class `dpfda_warning_utility`; `options(dpfda.utility_warning = FALSE)`
#'   silences it): more points, a larger `epsilon` or a smaller `M` (or `J`)
#'   help, since the noise grows with the root of their number.
#' @references Balog, M., Tolstikhin, I. and Schoelkopf, B. (2018).
#'   Differentially private database release via kernel mean embeddings.
#'   ICML.
#' @examples
#' old <- dp_reproducible(1)
#' x <- matrix(rnorm(2000), ncol = 2)
#' z <- matrix(runif(200, -3, 3), ncol = 2)
#' k <- kernel_gaussian(1)
#' r <- dp_kme(x, k, epsilon = 0.5, delta = 1e-5, synthetic = z)
#' r
#' kme_expectation(r, function(p) p[, 1]^2)   # E X1^2, smoothed by the kernel
#' r2 <- dp_kme(x, k, epsilon = 0.5, delta = 1e-5, method = "random_features",
#'   synthetic = z[1:20, ], J = 400, iters = 30)
#' kme_mmd(r, r2)
#' # a frequency table: each waiting time once, with its count (272 records)
#' tab <- as.data.frame(table(waiting = faithful$waiting))
#' tab$waiting <- as.numeric(as.character(tab$waiting))
#' rc <- dp_kme(tab, kernel_gaussian(5), epsilon = 1, delta = 1e-5, counts = Freq,
#'   domain = c(40, 100), M = 50, public = TRUE)
#' rc$privacy_unit   # one record (272)
#' dp_rng(old)
#' @export
dp_kme <- function(x, kernel, epsilon, delta, method = c("subspace", "random_features", "exponential"),
                   synthetic = NULL, M = NULL, J = 1000, calibration = c("analytic", "classical"),
                   domain = NULL, public = FALSE, tol = 1e-5, pivot = FALSE, l1_bound = NULL,
                   iters = 100, lr = NULL, lasso_lambda = NULL, candidates = NULL, chunk = 2048,
                   tight = FALSE, noise = c("float", "exact"), budget = NULL, ..., unit = NULL) {
  check_required(c("x", "kernel", "epsilon", "delta"),
                 advice = list(delta = paste("delta = 1e-5 for Gaussian noise (well below 1/N), or delta = 0",
                                             "for pure DP (Laplace noise)")))
  # strings or bare names; `counts` a column (a frequency table) or one count per point
  eng <- if (...length()) capture_dots(..., .cols = c("columns", "id", "counts")) else list()
  domain <- domain_from_ranges(domain)   # (a list of ranges, one per axis, as the matrix of bounds)
  # named synthetic points or domain columns take the data's columns of those names, as dp_kde()'s
  # (a domain read by position clamped all of MASS::geyser, whose columns are waiting then duration)
  if (!missing(x)) x <- named_matrix_frame(x, eng$columns)
  if (!missing(x) && is.null(eng$columns) && is.matrix(x) && is.numeric(x) && !is.null(colnames(x))) {
    # a matrix with column names stays a matrix (a `unit` vector goes with it): the names select its columns
    cols <- columns_for_named_points(synthetic, colnames(x), NULL, "synthetic")
    if (is.matrix(domain)) cols <- columns_for_named_axes(colnames(domain), colnames(x), cols, "domain",
                                                          "names its columns")
    if (!is.null(cols)) x <- x[, cols, drop = FALSE]
  }
  if (!missing(x) && (is.data.frame(x) || is_engine_input(x))) {
    eng <- resolve_column_opts(eng, x, c("columns", "id", if (is_engine_input(x)) "counts"),
                               n = list(columns = NULL))
    if (!is.null(synthetic)) eng$columns <- columns_for_named_points(synthetic, engine_names_or(x), eng$columns, "synthetic")
    if (is.matrix(domain)) {
      eng$columns <- columns_for_named_axes(colnames(domain), engine_names_or(x), eng$columns, "domain",
                                            "names its columns")
    }
  }
  # the privacy unit: a column of a data frame, table or chunks, or one entry per point in memory
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  if (!missing(x) && is_engine_input(x) && !is.null(eng$counts)) {   # (a frequency table: its column)
    check_counts_source(x, if (!is.null(unit)) "unit" else eng$id, "summarise_kme")
  }
  if (!missing(x) && is_engine_input(x) && !is.null(unit)) eng$id <- point_units(x, unit, eng$columns, eng$id)$id
  if (!missing(x) && is_engine_input(x)) {   # database table, chunks or summary: R/summary-kme.R
    return(with_point_names(dp_kme_engine(x, kernel, epsilon, delta, method, synthetic, M, J, calibration, domain,
                                          tol, pivot, l1_bound, iters, lr, lasso_lambda, tight, noise, budget,
                                          match.call(), columns = eng$columns, id = eng$id, counts = eng$counts),
                            eng$columns))
  }
  # counts in memory: one per point, or a column of a data frame (as dp_kde()'s)
  counts <- if (!is.null(eng$counts)) {
    if (!is.null(unit)) abort_counts_with_unit()
    kc <- kde_counts_arg(eng$counts, x, eng$columns)
    if (!is.null(kc$column) && is.null(eng$columns)) eng$columns <- setdiff(names(x), kc$column)
    kc$counts
  }
  eng$counts <- NULL
  if (!is.null(unit) && is.data.frame(x)) {   # the unit column of each point, then the point columns alone
    ucol <- check_unit_column(column_names(unit, names(x), "unit"), eng$columns)
    unit <- structure(as.data.frame(x)[[ucol]], name = ucol)
    if (is.null(eng$columns)) eng$columns <- setdiff(names(x), ucol)
  }
  x <- select_point_columns(x, eng$columns)   # in memory: the named columns of a data frame
  point_names <- if (is.data.frame(x)) names(x)   # (kept for predict() by name and the plot's axes)
  eng$columns <- NULL
  cl <- clean_point_frame(x, unit, counts)   # (a dropped row drops its count)
  x <- cl$x
  unit <- cl$unit
  counts <- iclp_kde_counts(cl$counts, NROW(x))   # (whole numbers >= 0 with a positive sum: n records)
  if (length(eng)) {
    other <- setdiff(names(eng), "id")
    if (length(other) && !nzchar(other[1L])) abort_unnamed_dots()
    if (length(other)) abort_unknown_option(other[1L], "dp_kme", c(option_names("dp_kme"), "columns", "id"))
    dpfda_abort("`id` is used only with a database table or chunks; give `unit` for points in memory.", arg = "id")
  }
  units <- if (!is.null(unit)) point_units(if (is.data.frame(x)) as.matrix(x) else x, unit, NULL, NULL)
  budget <- release_open(budget, epsilon, delta, if (!is.null(counts)) sum(counts) else
    if (is.null(units)) NROW(x) else units$n_units)
  call <- match.call()
  noise <- check_noise(noise)
  method <- check_choice(method, c("subspace", "random_features", "exponential"), "method")
  x <- as_points(x, "x")
  D <- ncol(x)
  N <- nrow(x)
  o <- kme_check_options(kernel, epsilon, delta, calibration, tol, pivot, l1_bound, iters, lr, lasso_lambda,
                         J, M, tight, method)
  list2env(o, environment())   # the checked values replace the arguments of the same names
  laplace <- delta == 0
  box <- kme_domain(domain, D)
  public <- check_flag(public, "public")
  chunk <- check_count(chunk, "chunk", min = 1, max = 1e6)
  # (with counts, the records beyond the box of all the records)
  if (!is.null(box)) warn_clamped(points_outside(x, box, counts), if (is.null(counts)) N else sum(counts), box,
                                  point_names, records = !is.null(counts))
  x <- kme_clamp(x, box)
  kernel_scale_points(kernel, x[1L, , drop = FALSE], "x")   # dimension / overflow check

  if (method != "exponential" && !is.null(candidates)) {
    dpfda_abort("`candidates` is used only with method = \"exponential\"; leave it NULL.", arg = "candidates")
  }
  if (method == "exponential" && !is.null(synthetic)) {
    dpfda_abort("`synthetic` is not used by method = \"exponential\" (give `candidates`); leave it NULL.",
                arg = "synthetic")
  }
  if (method == "exponential") {
    if (noise == "exact") {
      dpfda_abort("`noise = \"exact\"` applies to noisy coordinates; the exponential method has none.",
                  arg = "noise")
    }
    # with a unit: a unit of r points weighs 1/r, so its part of the embedding has norm <= sqrt(v)
    # and the utility moves by at most the sensitivity for n units when one unit changes
    # with counts: a point of count c weighs c / n, n the records (the embedding of rep(x, counts))
    n <- if (!is.null(counts)) sum(counts) else if (is.null(units)) N else units$n_units
    w <- if (!is.null(counts)) counts / n else if (!is.null(units)) as.vector(id_weights(units$x$unit)) / n
    rel <- kme_expmech(x, kernel, epsilon, delta, candidates, chunk, call, kme_sensitivity(kernel, n, tight), w, n)
    rel$privacy_unit <- if (is.null(units)) privacy_unit_points(n, records = !is.null(counts)) else
      privacy_unit_points(n, units$label)
    return(with_point_names(release_close(rel, budget, "dp_kme", list(privacy_part(epsilon, delta))), point_names))
  }
  z <- kme_synthetic(synthetic, M, D, box, x, public)
  M <- nrow(z)
  if (method == "subspace") check_alloc(3 * as.double(M)^2, "synthetic-point Gram matrices") else
    check_alloc(as.double(chunk) * J / 2 + as.double(M) * J + as.double(M)^2, "random-feature matrices")
  # public, data-independent; relative to the start points' centroid (a change of units moves it with them)
  rff <- if (method == "random_features") kme_rff(kernel, J, D, origin = colMeans(z))
  # one path for every source: the summary (kernel sums at z, or mean features; the only touch of
  # the data, in chunks of rows), then the release step shared with tables and chunks
  s <- if (is.null(units)) {   # (counts: each point weighted by its count, n the records)
    summarise_kme_impl(x, kernel, method, synthetic = if (method == "subspace") z, rff = rff, domain = domain,
                       .weights = counts)
  } else {   # a unit with r points adds each with weight 1/r (its embedding has norm <= 1); N counts units
    summarise_kme_impl(units$x, kernel, method, synthetic = if (method == "subspace") z, rff = rff,
                       domain = domain, columns = units$columns, id = "unit")
  }
  if (!is.null(units)) s$unit <- units$label
  with_point_names(kme_release(s, z, rff, kernel, method, epsilon, delta, calibration, tol, pivot, l1_bound, iters,
                               lr, lasso_lambda, tight, noise, box, call, budget), point_names)
}

# The names of the point columns (a data frame's, or `columns` of a table), one per dimension:
# predict() then takes those columns of a data frame by name (as the regressions do), and plot()
# labels its axes with them.
with_point_names <- function(rel, names) {
  if (is.character(names) && length(names) == ncol(rel$points) && !anyNA(names) && all(nzchar(names)) &&
      !anyDuplicated(names)) {
    rel$predictors <- names
  }
  rel
}

# The last step of every dp_kme() path (in memory and from a summary): check
# for overflow, build the release and charge the budget once it exists.
# Gaussian noise on the coordinates is charged as mu = Delta_2 / sigma (GDP);
# discrete Gaussian noise by its zCDP rho.
kme_finish_release <- function(z, w, sigma, ex, extra, kernel, method, epsilon, delta, N, noise_dim, laplace,
                               calibration, box, call, sens, budget) {
  if (!is.finite(sigma) || !all(is.finite(w))) {
    dpfda_abort("The noise scale or the weights overflow; epsilon is too small for this N.",
                class = "dpfda_error_numeric", arg = "epsilon")
  }
  if (!is.null(ex)) extra <- c(extra, list(noise_exact = TRUE, grid_step = ex$step, zcdp_rho = ex$rho))
  rel <- kme_release_object(z, w, kernel, method, epsilon, delta, N, sigma, noise_dim,
                            if (laplace) "laplace" else calibration, box, call, extra, sensitivity = sens)
  release_close(rel, budget, "dp_kme",
                list(privacy_part(epsilon, delta, mu = if (!laplace && is.null(ex)) sens / sigma, rho = ex$rho)))
}

# Float noise only inside its regime (?float_tails): Laplace on m coordinates
# (pure epsilon), or Gaussian with an L2 shift of `shift` standard deviations.
kme_check_tails <- function(laplace, epsilon, delta, m, shift) {
  if (laplace) check_float_tails("laplace", epsilon, delta, m = m, what = "dp_kme()")
  else check_float_tails("gaussian", epsilon, delta, m = m, shift = if (is.finite(shift)) shift else 0,
                         what = "dp_kme()")
}

# Exact (floating-point-safe) noise for the F noisy coordinates of dp_kme():
# they are rounded to the grid 2^-k, which can move a neighbour's vector by
# 2^-k per coordinate (L2: sqrt(F) 2^-k, L1: F 2^-k); discrete Gaussian noise
# calibrated through zCDP for the larger L2 sensitivity, or discrete Laplace
# (delta = 0) for the L1 sensitivity sqrt(F) Delta + F 2^-k. Returns the
# sampler, the noise scale, the grid step and rho (Gaussian).
kme_exact <- function(F, sens, epsilon, delta, laplace) {
  if (laplace) {
    b0 <- sqrt(F) * sens / epsilon
    k <- max(exact_grid(b0, "laplace"), ceiling(log2(100 * F / (sqrt(F) * sens))))
    b <- (sqrt(F) * sens + F * 2^-k) / epsilon
    return(list(draw = function(v) exact_laplace_noise(v, b, k), scale = b, step = 2^-k, rho = NULL))
  }
  k <- exact_grid(kme_sigma(1, epsilon, delta, "analytic", sens), "gaussian")
  s2 <- sens + exact_rounding(F, 2^-k, "l2")
  sigma <- exact_gaussian_sigma(s2, epsilon, delta)
  list(draw = function(v) exact_gaussian_noise(v, sigma, k), scale = sigma, step = 2^-k,
       rho = s2^2 / (2 * sigma^2))
}

# The release of dp_kme() from the released points and weights: the values,
# the description of the noise, and the fields of new_kme_release() (`extra`:
# the method's own, named as its arguments).
kme_release_object <- function(z, w, kernel, method, epsilon, delta, N, sigma, noise_dim, calibration, box,
                               call, extra = list(), sensitivity = 2 / N) {
  vals <- new_dpfda_curves(matrix(as.double(w), nrow = 1L), as.double(seq_along(w)), c(1, max(1, length(w))))
  kind <- if (method != "exponential" && delta == 0) "Laplace" else "Gaussian"
  noise <- switch(method,
    subspace = sprintf("%s on %d subspace coordinates", kind, noise_dim),
    random_features = sprintf("%s on %d random features", kind, noise_dim),
    exponential = sprintf("exponential mechanism over %d candidates", noise_dim))
  do.call(new_kme_release,
          c(list(vals, mechanism = paste0("kme_", method), epsilon = epsilon, delta = delta,
                 sensitivity = sensitivity, noise_scale = sigma, noise = noise, call = call,
                 points = z, weights = as.double(w), method = method, kernel = kernel, n = N,
                 noise_dim = noise_dim, calibration = calibration, domain = box), extra),
          quote = TRUE)
}

#' The release of dp_kme(): class `dpfda_kme_release` (and `dpfda_kme`, the
#' class DESIGN.md names, kept for code that tests it).
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `values` are the weights as a
#'   curve over their index.
#' @param points,weights The released (synthetic or candidate) points and
#'   their weights: the private embedding is sum_j weights_j k(points_j, .).
#' @param method "subspace", "random_features" or "exponential".
#' @param kernel The kernel of the embedding.
#' @param n The number of points (or units).
#' @param noise_dim The number of noisy coordinates (candidates for the
#'   exponential method).
#' @param calibration How the noise was calibrated ("laplace" for delta = 0).
#' @param domain The public box of the points (always stored, possibly NULL).
#' @param kept,tol,pivot Subspace: the kept directions, the tolerance and
#'   pivoting of the subspace (always stored for the noisy methods, possibly
#'   NULL).
#' @param l1_bound,rff,lasso_lambda,iters Random features: the weights' L1
#'   bound, the public features, the lasso penalty and iterations (l1_bound
#'   and rff are stored for both noisy methods, possibly NULL).
#' @param selected The exponential method's chosen candidate.
#' @param noise_exact,grid_step,zcdp_rho Exact noise only (zcdp_rho NULL for
#'   discrete Laplace).
#' @param privacy_unit What one individual of the guarantee is (set after the
#'   release).
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_kme_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL, call = NULL,
                            points = NULL, weights = NULL, method = NULL, kernel = NULL, n = NULL,
                            noise_dim = NULL, calibration = NULL, domain = NULL, kept = NULL, tol = NULL,
                            pivot = NULL, l1_bound = NULL, rff = NULL, lasso_lambda = NULL, iters = NULL,
                            selected = NULL, noise_exact = NULL, grid_step = NULL, zcdp_rho = NULL,
                            privacy_unit = NULL, predictors = NULL) {
  release_from_fields(new_kme_release, c("dpfda_kme_release", "dpfda_kme"),
                      nullable = c("domain", "kept", "tol", "pivot", "l1_bound", "rff", "lasso_lambda", "iters",
                                   "selected", "zcdp_rho"))
}

kme_synthetic <- function(synthetic, M, D, box, x, public) {
  if (is.function(synthetic)) {
    # a public generator: called with M only, it never sees the data
    if (is.null(M)) dpfda_abort("`M` is needed to draw points from the `synthetic` generator.", arg = "M")
    check_alloc(as.double(M) * D, "synthetic points")
    z <- synthetic(M)
    if (is.null(dim(z)) && D > 1L && is.numeric(z) && length(z) == M * D) z <- matrix(z, M, D)
    z <- as_points(z, "synthetic(M)", d = D)
    if (nrow(z) != M) {
      dpfda_abort(sprintf("`synthetic(M)` must return %d points, not %d.", M, nrow(z)), arg = "synthetic")
    }
    return(z)
  }
  if (is.null(synthetic)) {
    if (is.null(box)) {
      dpfda_abort(sprintf(paste("`synthetic` (or `domain`) is missing in dp_kme(): give public synthetic points",
                                "(a matrix of %d column%s), or a public `domain` to draw them from, chosen without",
                                "looking at the data: %s, with M = the number of points."), D, if (D == 1L) "" else "s",
                          if (D == 1L) "domain = c(lower, upper)" else
                            "domain = rbind(lower, upper) (one column per dimension)"),
                  arg = "synthetic")
    }
    if (is.null(M)) {
      dpfda_abort(paste("`M`, the number of synthetic points to draw from `domain`, is missing: give e.g. M = 200",
                        "(more points represent the embedding better and cost time), or the points as `synthetic`."),
                  arg = "M")
    }
    check_alloc(as.double(M) * D, "synthetic points")
    z <- vapply(seq_len(D), function(k) stats::runif(M, box[1L, k], box[2L, k]), numeric(M))
    return(matrix(z, M, D))
  }
  z <- as_points(synthetic, "synthetic", d = D)
  if (!is.null(M)) {
    if (M > nrow(z)) {
      dpfda_abort(sprintf("`M` (%d) exceeds the number of `synthetic` points (%d).", M, nrow(z)), arg = "M")
    }
    z <- z[seq_len(M), , drop = FALSE]
  }
  # This check reads the data: it is a message to the curator who runs the
  # mechanism, never part of the release.
  # (a public grid meets discrete data by chance, e.g. faithful$waiting's whole minutes: the message
  # says so, and how many)
  k <- if (!public) kme_rows_in(z, x) else 0L
  if (k > 0L) {
    dpfda_warn(sprintf(paste("%d of the %d `synthetic` points equal rows of `x`. Points taken from the data protect",
                             "those individuals only if their rows were already public; points chosen without",
                             "the data (a public grid) can meet discrete data by chance. Either way, set public =",
                             "TRUE to acknowledge, or choose points without the data."), k, nrow(z)),
               class = "dpfda_warning_privacy")
  }
  z
}

# Exponential mechanism over public candidate data sets (utility -||mu_X - mu_R||_H).
# `w`: weights of the rows of `x` (NULL: 1/N each; with a privacy unit 1/(n r)
# for a unit of r points), `n` the number of individuals the release reports.
kme_expmech <- function(x, kernel, epsilon, delta, candidates, chunk, call, sens, w = NULL, n = nrow(x)) {
  ok <- is.list(candidates) && !is.data.frame(candidates) && length(candidates) >= 1L &&
    length(candidates) <= 1e4
  if (!isTRUE(ok)) arg_error("candidates", "a list of 1 to 10000 public candidate data sets", candidates)
  D <- ncol(x)
  N <- nrow(x)
  cand <- lapply(seq_along(candidates), function(i) {
    cc <- candidates[[i]]
    if (is.list(cc) && !is.data.frame(cc)) {
      p <- as_points(cc$points, sprintf("candidates[[%d]]$points", i), d = D)
      w <- check_numeric_vector(cc$weights, sprintf("candidates[[%d]]$weights", i))
      if (length(w) != nrow(p)) {
        dpfda_abort(sprintf("`candidates[[%d]]` has %d points but %d weights.", i, nrow(p), length(w)),
                    arg = "candidates")
      }
    } else {
      p <- as_points(cc, sprintf("candidates[[%d]]", i), d = D)
      w <- rep(1 / nrow(p), nrow(p))
    }
    list(points = p, weights = w)
  })
  if (as.double(N)^2 > 4e10) {
    dpfda_abort("The exponential mechanism needs N^2 kernel values; N is too large (at most 2e5).",
                class = "dpfda_error_numeric", arg = "x")
  }
  util <- kme_exp_utility(x, kernel, cand, chunk, w)
  sel <- quiet_privacy(dp_select(util, sensitivity = sens, epsilon = epsilon))
  ch <- cand[[sel$index]]
  kme_release_object(ch$points, ch$weights, kernel, "exponential", epsilon, delta, n, 0, length(cand),
                     "exponential", NULL, call, list(selected = sel$index), sensitivity = sens)
}

# The utilities -||mu_X - mu_R||_H of the candidates R (lists of points and
# weights). Unweighted rows: the C kernel means. Weighted rows (a privacy
# unit): w' K_xx w and K_rx w by blocks of rows, so that no N x N matrix is
# held (the N^2 kernel values are evaluated once, as in the unweighted case).
kme_exp_utility <- function(x, kernel, cand, chunk, w = NULL) {
  if (is.null(w)) {
    kxx <- kme_mean_gram(kernel, x)
    kbar <- function(p) kme_rowmeans(kernel, p, x, chunk)
  } else {
    N <- nrow(x)
    step <- max(1L, min(N, floor(1e7 / N)))
    kxx <- 0
    for (a in seq(1L, N, by = step)) {
      b <- seq.int(a, min(N, a + step - 1L))
      kxx <- kxx + sum(w[b] * (kernel_matrix(kernel, x[b, , drop = FALSE], x) %*% w))
    }
    kbar <- function(p) drop(kernel_matrix(kernel, p, x) %*% w)
  }
  vapply(cand, function(cc) {
    K <- kernel_matrix(kernel, cc$points)
    -sqrt(max(0, kxx - 2 * sum(cc$weights * kbar(cc$points)) + sum(cc$weights * (K %*% cc$weights))))
  }, 0)
}
