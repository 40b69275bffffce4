# Hall, Rinaldo & Wasserman (2013), Section 4.3: private minimisers of
# regularised risks in an RKHS. The bias-free kernel SVM (the paper's example,
# solved in src/svm.c) and, as a documented extension, kernel ridge
# regression. Both release f_D + sigma G on a public grid through
# gp_release(), with the RKHS sensitivity of sensitivity_erm().

#' Sensitivity of regularised empirical risk minimisers in an RKHS
#'
#' Replace-one RKHS sensitivity of \deqn{f_D = \arg\min_{g \in \mathcal H}
#' \frac1n \sum_{i=1}^n c(g(x_i), y_i) + \lambda \|g\|_{\mathcal H}^2}
#' (Hall, Rinaldo and Wasserman 2013, eq. 12 and Section 4.3, after Bousquet
#' and Elisseeff 2002) for a loss \eqn{c} convex and \eqn{M}-Lipschitz in its
#' first argument ("\eqn{M}-admissible"):
#' \deqn{\|f_D - f_{D'}\|_{\mathcal H} \le \frac{M \sqrt{\sup_x K(x,x)}}{\lambda n}.}
#'
#' Proof sketch: the objective is \eqn{2\lambda}-strongly convex, so
#' comparing the two optimality conditions gives \eqn{2\lambda\|\delta\|^2
#' \le \frac Mn (|\delta(x_n)| + |\delta(x_n')|) \le \frac{2M}{n}\kappa
#' \|\delta\|} with \eqn{\delta = f_{D'} - f_D} and \eqn{\kappa^2 = \sup_x
#' K(x,x)} (reproducing property and Cauchy--Schwarz). The bound holds for the
#' *exact* minimiser of the objective *without an intercept*, with \eqn{\lambda}
#' as above (libsvm's \eqn{C} corresponds to \eqn{\lambda = 1/(2nC)}).
#'
#' Examples: the hinge loss of the SVM with labels in \eqn{\{-1, +1\}}, the
#' logistic loss and the absolute loss have \eqn{M = 1}; the Huber loss with
#' threshold \eqn{t} has \eqn{M = t}; for the squared loss see [dp_krr()].
#' For every dpfda kernel \eqn{\sup_x K(x,x)} is the kernel's `variance`.
#'
#' @param lipschitz The Lipschitz constant \eqn{M} of the loss in its first
#'   argument.
#' @param lambda Regularisation \eqn{\lambda > 0}.
#' @param n Number of observations (public).
#' @param sup_kxx \eqn{\sup_x K(x, x)}.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return \eqn{\Delta = M\sqrt{\sup_x K(x,x)}/(\lambda n)}.
#' @references Hall, R., Rinaldo, A. and Wasserman, L. (2013). Differential
#'   privacy for functions and functional data. *JMLR* 14, 703--727.
#'
#'   Bousquet, O. and Elisseeff, A. (2002). Stability and generalization.
#'   *JMLR* 2, 499--526.
#' @examples
#' sensitivity_erm(1, lambda = 0.01, n = 1000) # 0.1: SVM of the paper's Figure 3
#' @export
sensitivity_erm <- function(lipschitz, lambda, n, sup_kxx = 1, ...) {
  check_dot_names(dot_args(), character(), "sensitivity_erm")
  check_required()
  lipschitz <- check_number(lipschitz, "lipschitz", lower = 0, lower_open = TRUE)
  lambda <- check_number(lambda, "lambda", lower = 0, lower_open = TRUE)
  n <- check_count(n, "n")
  sup_kxx <- check_number(sup_kxx, "sup_kxx", lower = 0, lower_open = TRUE)
  out <- lipschitz * sqrt(sup_kxx) / (lambda * n)
  # in log space when the direct formula under- or overflows on the way
  if (!is.finite(out) || out == 0) out <- exp(log(lipschitz) + 0.5 * log(sup_kxx) - log(lambda) - log(n))
  if (!is.finite(out) || out == 0) {
    dpfda_abort(sprintf("The sensitivity %s / (%s * %d) is not a finite positive number.",
                        format(lipschitz), format(lambda), n),
                class = "dpfda_error_numeric", arg = "lambda")
  }
  out
}

#' Private kernel support vector machine (Hall et al., Section 4.3)
#'
#' Fits the bias-free soft-margin kernel SVM
#' \deqn{f_D = \arg\min_{g \in \mathcal H} \frac1n \sum_{i=1}^n (1 - y_i
#' g(x_i))_+ + \lambda \|g\|_{\mathcal H}^2}
#' and releases \eqn{\tilde f_D = f_D + \sigma G} on the public `grid`, with
#' \eqn{G} one path of the Gaussian process whose covariance is the SVM's own
#' kernel and \eqn{\sigma =} [dp_noise_scale()]`(`\eqn{\Delta}`, epsilon,
#' delta)`. The hinge loss is 1-Lipschitz, so \eqn{\Delta = \sqrt{\sup_x
#' K(x,x)}/(\lambda n)} ([sensitivity_erm()]). The classifier is
#' \eqn{\mathrm{sign}(\tilde f_D)}, available through `predict(type =
#' "class")` (post-processing).
#'
#' **Exactness (`strict`).** The sensitivity bound is for the exact
#' minimiser. The solver (dual coordinate ascent, see [svm_fit()]) stops at a
#' duality gap of at most `gap_tol`; the objective is \eqn{2\lambda}-strongly
#' convex, so the returned \eqn{\hat g} satisfies \eqn{\|\hat g -
#' f_D\|_{\mathcal H} \le \sqrt{\mathrm{gap\_tol}/\lambda}}. With `strict =
#' TRUE` (the default) the sensitivity is therefore
#' \eqn{\Delta + 2\sqrt{\mathrm{gap\_tol}/\lambda}}, which covers the released
#' approximate solutions exactly. The fixed, public `gap_tol` is used, never
#' the realised gap: a noise scale computed from the data would leak.
#' `strict = FALSE` uses the paper's \eqn{\Delta} (the exact-minimiser
#' idealisation). If the solver has not reached `gap_tol` after `maxit`
#' sweeps an error is raised and nothing is released; note that this event
#' itself depends on the data, so use a generous `maxit` and do not publish
#' such failures.
#'
#' **Model.** There is no intercept: the privacy analysis covers only this
#' form (a libsvm-style SVM with a free bias is not covered). Labels may be
#' given as \eqn{\pm 1}, as 0/1 (0 becomes \eqn{-1}), as `TRUE`/`FALSE`
#' (`FALSE` becomes \eqn{-1}) or as a factor with exactly two levels (the
#' first level becomes \eqn{-1}, the second \eqn{+1}); predicted classes
#' (`predict(type = "class")`) are in the labels' own terms (see `type`).
#'
#' **Public inputs.** `lambda`, `kernel`, `grid`, `domain`, `gap_tol` and
#' `n = nrow(x)` (with `unit`, the number of units) are public (neighbouring
#' data sets differ by replacing one observation, or every row of one unit). The grid must not be derived from the data, and the
#' released function must not be evaluated at the training points and
#' published. When `domain` is given, covariates outside it are clamped to it
#' (documented privacy rule 2); the bound above holds for any covariates
#' because \eqn{K(x,x)} is the kernel's `variance` everywhere.
#'
#' **Several rows per person (`unit`).** Without `unit` each row is one
#' individual: a person with \eqn{k} rows (visits, repeated measurements)
#' moves \eqn{f_D} up to \eqn{k} times as far as \eqn{\Delta} allows. With
#' `unit`, each unit's rows share one unit of weight: the objective is
#' \eqn{\frac1n \sum_{u=1}^{n} \frac{1}{k_u} \sum_{i \in u} c(g(x_i), y_i) +
#' \lambda\|g\|^2_{\mathcal H}} with \eqn{n} the number of units and
#' \eqn{k_u} the rows of unit \eqn{u}. Each unit's average loss is convex and
#' \eqn{M}-Lipschitz in the function's values as one row's loss is, so the
#' proof of [sensitivity_erm()] goes through with one unit in place of one
#' row: replacing all rows of one unit (any number of them, any values)
#' moves \eqn{f_D} by at most \eqn{\Delta} with \eqn{n} the number of
#' units, which is what the noise is calibrated to. The number of units is
#' public; the number of rows of each is not needed. With one row per unit
#' the release is the one without `unit`. The print states the privacy unit
#' ("privacy unit: Chick (50 units)").
#'
#' **A frequency table (`counts`).** When each row stands for several
#' records with the same covariates and label (a table of distinct rows and
#' how often each occurs), give their numbers as `counts`: row \eqn{i}
#' weighs \eqn{c_i} in the loss and \eqn{n = \sum_i c_i} counts records, so
#' the objective, the sensitivity and the release are those of the rows
#' repeated \eqn{c_i} times (the same minimiser; the solver meets the same
#' `gap_tol`), and each record is its own privacy unit ("privacy unit: one
#' record (n)"). A count of 0 leaves its row out. Not with `unit`.
#'
#' The release stores no data, no fitted non-private function, no
#' coefficients and no realised gap or iteration count (all data-dependent);
#' data passed literally in the call (e.g. through [do.call()]) are removed
#' from the stored call.
#'
#' @param x Private covariates: a vector (one dimension) or an `n x d` matrix
#'   (or numeric data frame); or a formula `label ~ x1 + ...` whose variables
#'   are columns of `data` (then `grid` may be a data frame with the
#'   predictor columns).
#' @param y Private labels: \eqn{\pm 1}, 0/1, logical, or a two-level factor; one per
#'   row of `x`.
#' @param data With a formula (in the pipe's order the data frame may come
#'   first and the formula second, `d |> f(y ~ x, ...)`): the data frame holding its variables.
#' @param lambda Public regularisation \eqn{\lambda > 0} (the paper's eq. 12;
#'   libsvm's `cost` is \eqn{1/(2 n \lambda)}).
#' @param kernel The SVM kernel, also the covariance of the noise (see
#'   [kernels]).
#' @param grid Public evaluation points (vector, matrix, or a list of axes for
#'   a tensor grid, sampled by the fast Kronecker sampler for separable
#'   kernels); see [curves()]. With a data frame `x`, a named list of axes
#'   takes the columns of `x` of those names, in that order (a kernel's
#'   per-axis lengthscales and `predict()` follow that order). With a
#'   formula, a named grid's axes are matched to the predictors by name and
#'   put in the formula's order (the lengthscales follow the formula).
#' @param epsilon,delta Privacy parameters.
#' @param budget `NULL`, or a [privacy_budget()] to charge (the release is
#'   refused, with an error of class `dpfda_error_budget`, when it would
#'   exceed the budget).
#' @param calibration `"analytic"`, `"hall"` (the paper's \eqn{c(\delta)
#'   \Delta/\epsilon}) or `"classical"`; see [dp_noise_scale()].
#' @param strict Add \eqn{2\sqrt{\mathrm{gap\_tol}/\lambda}} to the
#'   sensitivity to cover the optimisation error (see Details).
#' @param gap_tol Duality-gap tolerance of the solver, in (0, 1] (the gap at
#'   the starting point is 1).
#' @param maxit Maximum number of solver sweeps.
#' @param domain Optional public bounds for the covariates: `c(lower, upper)`
#'   for every coordinate, a `2 x d` matrix (row 1 lower, row 2 upper), or
#'   a list of ranges, one per covariate (named: matched to the covariates
#'   by name, as `list(Temp = c(55, 100), Wind = c(0, 22))`).
#'   Covariates outside are clamped.
#' @param ... Passed to [dp_noise_scale()] (e.g. `allow_large_epsilon`).
#' @param noise `"float"` (default), or `"exact"` for discrete Gaussian noise
#'   on a \eqn{2^{-k}} grid in whitened coordinates, calibrated through zCDP
#'   (see [exact_noise]).
#' @param unit The privacy unit when one person has several rows: a vector
#'   with one entry per row of `x` (e.g. a person id), or with a formula a
#'   column of `data` (a string or a bare name). Each unit's rows weigh 1 /
#'   (its rows) in the loss and `n` counts units (see Details). `NULL`: each
#'   row is its own unit.
#' @param counts A frequency table: a vector of whole numbers, one per row of
#'   `x`, each the number of records that row stands for (or with a formula
#'   a column of `data`, a string or a bare name). The release is that of the
#'   rows repeated, `n` counts records (see Details). `NULL`: each row is one
#'   record.
#' @return A `dpfda_release` of subclasses `dpfda_svm_release` and
#'   `dpfda_gp_release` (mechanism `"svm"`): the released function on the
#'   grid, the sensitivity, noise scale and kernel, and the public settings
#'   `lambda`, `n` (rows, or units with `unit`), `strict`, `gap_tol`,
#'   `calibration`, and with `unit` the `privacy_unit`.
#' @seealso [svm_fit()] for the non-private fit (tests and figures),
#'   [dp_krr()] for kernel ridge regression.
#' @references Hall, R., Rinaldo, A. and Wasserman, L. (2013). Differential
#'   privacy for functions and functional data. *JMLR* 14, 703--727.
#' @examples
#' # the setting of the paper's Figure 3 (our reproduction of it)
#' n <- 500
#' x <- matrix(runif(2 * n), n)
#' y <- ifelse(sqrt(rowSums((x - 0.5)^2)) < 0.3, 1, -1)
#' flip <- sample(n, n / 20); y[flip] <- -y[flip]
#' axes <- list(seq(0, 1, length.out = 50), seq(0, 1, length.out = 50))
#' r <- dp_svm(x, y, lambda = 0.01, kernel = kernel_gaussian(0.1), grid = axes,
#'             epsilon = 1, delta = 0.1, calibration = "hall")
#' r
#' plot(r)
#' table(predict(r, type = "class"))
#' predict(r, rbind(c(0.5, 0.5), c(0.05, 0.05)), type = "class")
#' @export
dp_svm <- function(x, y, lambda, kernel, grid, epsilon, delta,
                   calibration = c("analytic", "hall", "classical"), strict = TRUE,
                   gap_tol = 1e-8, maxit = 1e5, domain = NULL, ..., noise = c("float", "exact"),
                   budget = NULL, data = NULL, unit = NULL, counts = NULL) {
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  counts <- unit_arg(substitute(counts), tryCatch(counts, error = function(e) e), "counts")
  frame <- data   # (the formula's data frame, for a `unit` or `counts` column: `data` is reused below)
  # (y ~ x1 + ..., variables in `data`, as dp_gp_regression())
  fr <- if (!missing(x)) frame_predictors(x)   # (named columns of a data frame: kept for predict())
  fd <- if (!missing(x)) formula_call(x, !missing(y), data, if (!missing(grid)) grid, "dp_svm", "grid", labels = TRUE,
                                                y = if (!missing(y)) y)
  if (!is.null(fd)) {
    x <- fd$x
    y <- fd$y
    data <- fd$data
    if (!missing(grid)) grid <- grid_in_predictor_order(fd$newdata, fd$predictors)
  }
  check_required(c("x", "y", "lambda", "kernel", "grid", "epsilon", "delta"))
  budget <- release_open(budget, epsilon, delta, if (is.null(unit) && is.null(counts)) NROW(x))
  call <- match.call()   # new_dpfda_release() removes data values from it
  noise <- check_noise(noise)
  check_kernel(kernel)
  lambda <- check_number(lambda, "lambda", lower = 0, lower_open = TRUE)
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  strict <- check_flag(strict, "strict")
  gap_tol <- check_number(gap_tol, "gap_tol", lower = 0, upper = 1, lower_open = TRUE)
  maxit <- check_count(maxit, "maxit")
  classes <- label_classes(y)
  x <- grid_named_columns(x, grid)
  if (!is.null(fr)) fr <- frame_predictors(x)   # (the columns the grid chose, in its order)
  data <- svm_data(x, y, kernel, domain)
  wr <- erm_weighted_rows(data, unit, counts, frame, delta)
  data <- wr$data
  units <- wr$units
  # (the release does not depend on the order of the individuals; a unit's weight travels with its rows)
  o <- if (is.null(units)) canonical_rows(data$x, data$y) else canonical_rows(cbind(data$x, data$y), units$weights)
  data$x <- data$x[o, , drop = FALSE]
  data$y <- data$y[o]
  if (!is.null(units)) units$weights <- units$weights[o]
  grid <- as_grid(grid, "grid")
  if (is.null(dim(grid))) grid <- sort(grid)
  pts <- as_points(grid, "grid", d = ncol(data$x))
  kernel_scale_points(kernel, pts, "grid")   # overflow is the grid's fault, say so
  n <- if (is.null(units)) length(data$y) else units$n

  # everything that sets the noise scale is public: n, lambda, kernel, gap_tol
  sens <- sensitivity_erm(1, lambda, n, kernel$variance)
  if (strict) sens <- sens + 2 * sqrt(gap_tol / lambda)
  check_noise_dots(list(...), "dp_svm")
  sigma <- dp_noise_scale(sens, epsilon, delta, calibration = calibration, ...)

  fit <- svm_solve(data$x, data$y, lambda, kernel, gap_tol, maxit, units = units)
  values <- erm_kernel_expansion(kernel, data$x, fit$a, pts)
  rm(fit, data)
  rel <- gp_release(values, grid, kernel, sigma, mechanism = "svm", epsilon = epsilon, delta = delta,
                    sensitivity = sens, call = call, calibration = calibration, loss = "hinge",
                    lambda = lambda, n = n, strict = strict, gap_tol = gap_tol,
                    build = new_svm_release, noise_mode = noise)
  if (!is.null(units)) rel$privacy_unit <- privacy_unit_points(n, units$label, isTRUE(units$records))
  rel$classes <- classes
  release_close(formula_release(rel, fd %||% fr, response = FALSE), budget, "dp_svm")
}

#' The release of dp_svm(): class `dpfda_svm_release` (a GP-noise release).
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()).
#' @param jitter,sampler,noise_exact,grid_step,calibration_exact,zcdp_rho The
#'   GP noise fields (see new_gp_release()).
#' @param calibration How sigma was calibrated.
#' @param loss "hinge".
#' @param lambda The public regularisation.
#' @param n The number of training points (public).
#' @param strict Whether the sensitivity includes the solver's duality gap.
#' @param gap_tol The solver's duality-gap tolerance.
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_svm_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL, call = NULL,
                            jitter = NULL, sampler = NULL, noise_exact = NULL, grid_step = NULL,
                            calibration_exact = NULL, zcdp_rho = NULL, calibration = NULL, loss = NULL,
                            lambda = NULL, n = NULL, strict = NULL, gap_tol = NULL, predictors = NULL) {
  release_from_fields(new_svm_release, c("dpfda_svm_release", "dpfda_gp_release"))
}

#' The release of dp_krr(): class `dpfda_krr_release` (a GP-noise release).
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()).
#' @param jitter,sampler,noise_exact,grid_step,calibration_exact,zcdp_rho The
#'   GP noise fields (see new_gp_release()).
#' @param calibration How sigma was calibrated.
#' @param loss "squared".
#' @param lambda The public regularisation.
#' @param n The number of training points (public).
#' @param y_bound The public response bounds used (after centring).
#' @param offset The public centre subtracted from the responses and added
#'   back to the released function.
#' @param predictors The names of the data's columns behind the points, when
#'   named (set after the release): predict() reads a data frame by them.
#' @noRd
new_krr_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL, call = NULL,
                            jitter = NULL, sampler = NULL, noise_exact = NULL, grid_step = NULL,
                            calibration_exact = NULL, zcdp_rho = NULL, calibration = NULL, loss = NULL,
                            lambda = NULL, n = NULL, y_bound = NULL, offset = NULL, predictors = NULL) {
  release_from_fields(new_krr_release, c("dpfda_krr_release", "dpfda_gp_release"))
}

#' @rdname dp_svm
#' @param object A `dpfda_svm_release`.
#' @param newdata `NULL` for the grid, or new points; off-grid points are
#'   evaluated by kriging on the released path (post-processing, see
#'   [predict.dpfda_release()]). For a release fit through a formula, a
#'   data frame (e.g. a test set) whose predictor columns are taken by name.
#' @param type `"response"` for the released function, `"class"` for the
#'   predicted classes: the positive class where the released function is
#'   \eqn{\ge 0}, in the labels' own terms (a factor with the levels of a
#'   factor `y`, `TRUE`/`FALSE` for logical labels, \eqn{\pm 1} for numeric
#'   ones). With `interval` (in `...`), the classes at the fit and at the
#'   band's ends (`fit`, `lwr`, `upr`): a matrix for logical and numeric
#'   labels, a data frame of three factors for a factor `y`; a point whose
#'   `lwr` and `upr` classes differ is one the noise could flip.
#' @export
predict.dpfda_svm_release <- function(object, newdata = NULL, type = c("response", "class"), ...) {
  type <- check_choice(type, c("response", "class"), "type")
  v <- predict.dpfda_release(object, newdata, ...)
  if (type == "class") v <- score_classes(v, object$classes)
  v
}

#' Non-private bias-free kernel SVM (for tests and figures)
#'
#' **Not private.** Fits the SVM of [dp_svm()] without noise and returns
#' everything about the fit, including the data; use it to compare with a
#' release or to draw the paper's Figure 3 (top panel), never to publish.
#'
#' The dual problem \deqn{\max_b \sum_i b_i - \frac{1}{4\lambda} b^\top Q b,
#' \quad 0 \le b_i \le 1/n, \quad Q_{ij} = y_i y_j K(x_i, x_j),}
#' is solved in C by exact coordinate ascent on a precomputed Gram matrix:
#' each sweep visits every coordinate once, in a random order drawn from an
#' internal generator with a fixed seed (so the fit is a deterministic
#' function of the data and R's random-number stream is not touched), and
#' maintains \eqn{Qb} incrementally. After each sweep the duality gap
#' \deqn{\frac1n\sum_i \big(1 - (Qb)_i/(2\lambda)\big)_+ +
#' \frac{1}{2\lambda} b^\top Q b - \sum_i b_i} (primal objective at
#' \eqn{g = \sum_i a_i K(x_i, \cdot)}, \eqn{a_i = b_i y_i/(2\lambda)}, minus
#' the dual objective) is computed; the solver stops once it is at most
#' `gap_tol`, confirmed with \eqn{Qb} recomputed from scratch. Reaching
#' `maxit` sweeps first is an error of class `dpfda_error_numeric`.
#'
#' @inheritParams dp_svm
#' @param unit `NULL`, or a vector with one privacy unit per row of `x`: each
#'   unit's rows weigh 1 / (its rows) in the loss, as in [dp_svm()].
#' @param counts `NULL`, or one whole count per row of `x` (a frequency
#'   table): each row weighs its count in the loss, as in [dp_svm()].
#' @param x Covariates: a vector (one dimension) or an `n x d` matrix (or
#'   numeric data frame).
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return An object of class `dpfda_svm_fit`: `coefficients` \eqn{a},
#'   `dual` \eqn{b}, `gap`, `iterations` (sweeps), `objective` (primal and
#'   dual values), `fitted` (\eqn{g(x_i)}), `fun` (a function of new points
#'   evaluating \eqn{g}), and `x`, `y` (\eqn{\pm 1}), `lambda`, `kernel`.
#'   `predict(fit, newdata, type = c("response", "class"))` evaluates it
#'   (classes in the labels' own terms, as for [dp_svm()]).
#' @examples
#' x <- matrix(runif(400), 200)
#' y <- ifelse(rowSums((x - 0.5)^2) < 0.09, 1, -1)
#' fit <- svm_fit(x, y, lambda = 0.01, kernel = kernel_gaussian(0.15))
#' fit
#' mean(predict(fit, x, type = "class") == y) # training accuracy
#' @export
svm_fit <- function(x, y, lambda, kernel, gap_tol = 1e-8, maxit = 1e5, domain = NULL, unit = NULL, ...,
                    counts = NULL) {
  check_dot_names(dot_args(), character(), "svm_fit")
  check_required()
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  counts <- unit_arg(substitute(counts), tryCatch(counts, error = function(e) e), "counts")
  check_kernel(kernel)
  lambda <- check_number(lambda, "lambda", lower = 0, lower_open = TRUE)
  gap_tol <- check_number(gap_tol, "gap_tol", lower = 0, upper = 1, lower_open = TRUE)
  maxit <- check_count(maxit, "maxit")
  data <- svm_data(x, y, kernel, domain)
  wr <- erm_weighted_rows(data, unit, counts)
  data <- wr$data
  units <- wr$units
  fit <- svm_solve(data$x, data$y, lambda, kernel, gap_tol, maxit, keep_gram = TRUE, units = units)
  f <- as.vector(fit$K %*% fit$a)
  quad <- sum(fit$a * f)   # a'Ka = ||g||^2
  w <- erm_weights(length(data$y), units)
  objective <- c(primal = sum(w * pmax(0, 1 - data$y * f)) + lambda * quad,
                 dual = sum(fit$b) - lambda * quad)   # b'Qb / (4 lambda) = lambda a'Ka
  out <- new_erm_fit(data$x, fit$a, kernel, class = "dpfda_svm_fit", dual = fit$b, gap = fit$gap,
                     iterations = fit$iterations, objective = objective, fitted = f, y = data$y,
                     lambda = lambda, loss = "hinge", weights = w)
  out$classes <- label_classes(y)   # (predict(type = "class") in the labels' terms, as dp_svm()'s)
  out
}

#' Private kernel ridge regression (extension of Hall et al., Section 4.3)
#'
#' **An extension, not in the paper.** Releases kernel ridge regression
#' \deqn{f_D = \arg\min_{g \in \mathcal H} \frac1n \sum_{i=1}^n (\tilde y_i -
#' g(x_i))^2 + \lambda \|g\|_{\mathcal H}^2,\qquad
#' a = (K + n\lambda I)^{-1}\tilde y,}
#' plus \eqn{\sigma G} as in [dp_svm()], where \eqn{\tilde y_i} is \eqn{y_i}
#' clipped to the public `y_bound` and (with `center = TRUE`) shifted by the
#' public midpoint \eqn{m} of `y_bound`; the released function is \eqn{m +
#' f_D + \sigma G}. Adding the public constant \eqn{m} is post-processing.
#'
#' **Why the sensitivity holds.** The squared loss is not Lipschitz on the
#' whole line, but only its values on a bounded range matter. With
#' \eqn{|\tilde y_i| \le B} (\eqn{B} = half the width of `y_bound` when
#' centred, else \eqn{\max|}`y_bound`\eqn{|}), comparing with \eqn{g = 0}
#' gives \eqn{\lambda\|f_D\|^2 \le \frac1n\sum\tilde y_i^2 \le B^2}, so
#' \eqn{\|f_D\|_{\mathcal H} \le B/\sqrt\lambda} and \eqn{|f_D(x)| \le \kappa
#' B/\sqrt\lambda} with \eqn{\kappa^2 = \sup_x K(x,x)}, for every data set.
#' The proof of [sensitivity_erm()] only evaluates the loss between
#' \eqn{f_D(x)} and \eqn{f_{D'}(x)}, where \eqn{|\partial_t (t - y)^2| = 2|t -
#' y| \le 2B(1 + \kappa/\sqrt\lambda) = M}. Hence
#' \deqn{\Delta = \frac{2B\kappa(1 + \kappa/\sqrt\lambda)}{\lambda n}.}
#' The linear system is solved exactly by a Cholesky factorisation (no
#' optimisation tolerance to account for).
#'
#' **Several rows per person (`unit`).** As in [dp_svm()]: the loss is
#' \eqn{\frac1n \sum_u \frac1{k_u} \sum_{i \in u} (\tilde y_i - g(x_i))^2}
#' with \eqn{n} the number of units, solved exactly as \eqn{(WK + n\lambda
#' I)a = W\tilde y} with \eqn{W} the diagonal of the row weights \eqn{1/k_u}.
#' The weights add up to \eqn{n}, so \eqn{\|f_D\|_{\mathcal H} \le
#' B/\sqrt\lambda} still holds, each unit's average loss has the same
#' Lipschitz constant \eqn{M} on the range that matters, and \eqn{\Delta}
#' above with \eqn{n} units bounds the change when all rows of one unit are
#' replaced.
#'
#' **A frequency table (`counts`).** As in [dp_svm()]: \eqn{W} holds the
#' counts, \eqn{n} is their sum, and the release is exactly that of the rows
#' repeated.
#'
#' @inheritParams dp_svm
#' @param data With a formula (`y ~ x1 + ...` as `x`, as in [dp_svm()]; in the
#'   pipe's order the data frame may come first and the formula second, `d |>
#'   f(y ~ x, ...)`): the data frame holding its variables.
#' @param y Private responses (finite numbers), one per row of `x`; clipped to
#'   `y_bound`.
#' @param lambda Public regularisation \eqn{\lambda > 0}.
#' @param kernel The regression kernel, also the covariance of the noise.
#' @param y_bound Public bounds `c(lower, upper)` on the responses (one
#'   positive number `B` stands for `c(-B, B)`).
#' @param center Fit the responses minus the midpoint of `y_bound` (smaller
#'   \eqn{B}, shrinkage towards the midpoint rather than 0). `centre`, its
#'   older spelling, is still accepted in `...`.
#' @return A `dpfda_release` of subclasses `dpfda_krr_release` and
#'   `dpfda_gp_release` (mechanism `"krr"`), with the public `offset`
#'   \eqn{m}, `y_bound`, `lambda` and `n`. `predict()` off the grid krigs the
#'   released path around the offset.
#' @seealso [krr_fit()] for the non-private fit.
#' @examples
#' # (the sensitivity falls as 1 / (lambda n): at n = 300 and lambda = 0.01 the
#' # release would be mostly noise, and say so)
#' n <- 1000
#' x <- runif(n)
#' y <- sin(2 * pi * x) + rnorm(n, sd = 0.3)
#' grid <- seq(0, 1, length.out = 200)
#' r <- dp_krr(x, y, lambda = 0.1, kernel = kernel_gaussian(0.1), grid = grid,
#'             y_bound = c(-2, 2), epsilon = 1, delta = 1e-5)
#' plot(r)
#' lines(grid, krr_fit(x, y, 0.1, kernel_gaussian(0.1), c(-2, 2))$fun(grid), col = "grey")
#' # several rows per person (1 to 3 visits each): protect the person, not a visit
#' id <- rep(1:700, times = sample(1:3, 700, replace = TRUE))
#' xv <- runif(length(id))
#' yv <- sin(2 * pi * xv) + rnorm(length(id), sd = 0.3)
#' rp <- dp_krr(xv, yv, lambda = 0.1, kernel = kernel_gaussian(0.1), grid = grid,
#'              y_bound = c(-2, 2), epsilon = 1, delta = 1e-5, unit = id)
#' rp$privacy_unit
#' @export
dp_krr <- function(x, y, lambda, kernel, grid, y_bound, epsilon, delta,
                   calibration = c("analytic", "hall", "classical"), center = TRUE,
                   domain = NULL, ..., noise = c("float", "exact"), budget = NULL, data = NULL, unit = NULL,
                   counts = NULL) {
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  counts <- unit_arg(substitute(counts), tryCatch(counts, error = function(e) e), "counts")
  frame <- data   # (the formula's data frame, for a `unit` or `counts` column: `data` is reused below)
  # (y ~ x1 + ..., variables in `data`, as dp_gp_regression())
  fr <- if (!missing(x)) frame_predictors(x)   # (named columns of a data frame: kept for predict())
  fd <- if (!missing(x)) formula_call(x, !missing(y), data, if (!missing(grid)) grid, "dp_krr", "grid", labels = FALSE,
                                                y = if (!missing(y)) y)
  if (!is.null(fd)) {
    x <- fd$x
    y <- fd$y
    data <- fd$data
    if (!missing(grid)) grid <- grid_in_predictor_order(fd$newdata, fd$predictors)
  }
  check_required(c("x", "y", "lambda", "kernel", "grid", "y_bound", "epsilon", "delta"))
  budget <- release_open(budget, epsilon, delta, if (is.null(unit) && is.null(counts)) NROW(x))
  call <- match.call()   # new_dpfda_release() removes data values from it
  noise <- check_noise(noise)
  check_kernel(kernel)
  lambda <- check_number(lambda, "lambda", lower = 0, lower_open = TRUE)
  calibration <- check_choice(calibration, c("analytic", "hall", "classical"), "calibration")
  ca <- centre_alias(center, list(...), !missing(center))
  center <- check_flag(ca$center, ca$arg)
  yb <- krr_bound(y_bound, center)
  x <- grid_named_columns(x, grid)
  if (!is.null(fr)) fr <- frame_predictors(x)   # (the columns the grid chose, in its order)
  data <- krr_data(x, y, kernel, domain, yb)
  wr <- erm_weighted_rows(data, unit, counts, frame, delta)
  data <- wr$data
  units <- wr$units
  grid <- as_grid(grid, "grid")
  if (is.null(dim(grid))) grid <- sort(grid)
  pts <- as_points(grid, "grid", d = ncol(data$x))
  kernel_scale_points(kernel, pts, "grid")   # overflow is the grid's fault, say so
  n <- if (is.null(units)) length(data$y) else units$n

  sens <- sensitivity_krr(yb$B, lambda, n, kernel$variance)
  sigma <- do.call(dp_noise_scale, c(list(sens, epsilon, delta, calibration = calibration),
                                     check_noise_dots(ca$dots, "dp_krr")))

  a <- krr_solve(data$x, data$y, lambda, kernel, units)
  values <- yb$offset + erm_kernel_expansion(kernel, data$x, a, pts)
  rm(a, data)
  rel <- gp_release(values, grid, kernel, sigma, mechanism = "krr", epsilon = epsilon, delta = delta,
                    sensitivity = sens, call = call, calibration = calibration, loss = "squared",
                    lambda = lambda, n = n, y_bound = yb$bound, offset = yb$offset,
                    build = new_krr_release, noise_mode = noise)
  if (!is.null(units)) rel$privacy_unit <- privacy_unit_points(n, units$label, isTRUE(units$records))
  release_close(formula_release(rel, fd %||% fr), budget, "dp_krr")
}

#' @export
release_predict.dpfda_krr_release <- function(object, newdata, ...) {
  vals <- object$values
  vals$values <- vals$values - object$offset
  object$offset + kriging_predict(vals, object$noise, newdata, object$jitter)
}

#' Non-private kernel ridge regression (for tests and figures)
#'
#' **Not private.** The estimator of [dp_krr()] without noise: responses
#' clipped to `y_bound` (and centred at its midpoint when `center = TRUE`),
#' \eqn{a = (K + n\lambda I)^{-1}\tilde y}, fitted function \eqn{m + \sum_i
#' a_i K(x_i, \cdot)}.
#'
#' @inheritParams dp_krr
#' @param unit `NULL`, or a vector with one privacy unit per row of `x`: each
#'   unit's rows weigh 1 / (its rows) in the loss, as in [dp_krr()].
#' @param counts `NULL`, or one whole count per row of `x` (a frequency
#'   table): each row weighs its count in the loss, as in [dp_krr()].
#' @param x Covariates: a vector (one dimension) or an `n x d` matrix (or
#'   numeric data frame).
#' @param ... `centre`, the older spelling of `center`.
#' @return An object of class `dpfda_krr_fit` with `coefficients`, `offset`,
#'   `fitted`, `fun` (a function of new points), `x`, `y` (clipped),
#'   `lambda`, `kernel`, `y_bound`; `predict(fit, newdata)` evaluates it.
#' @examples
#' x <- runif(100)
#' fit <- krr_fit(x, sin(2 * pi * x), lambda = 1e-3, kernel = kernel_gaussian(0.1),
#'                y_bound = c(-1, 1))
#' predict(fit, c(0.25, 0.75))
#' @export
krr_fit <- function(x, y, lambda, kernel, y_bound, center = TRUE, domain = NULL, ..., unit = NULL, counts = NULL) {
  check_required()
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  counts <- unit_arg(substitute(counts), tryCatch(counts, error = function(e) e), "counts")
  ca <- centre_alias(center, list(...), !missing(center))
  if (length(ca$dots)) {
    nm <- names(ca$dots)[1L]
    abort_unknown_option(if (is.null(nm) || !nzchar(nm)) "..." else nm, "krr_fit")
  }
  check_kernel(kernel)
  lambda <- check_number(lambda, "lambda", lower = 0, lower_open = TRUE)
  center <- check_flag(ca$center, ca$arg)
  if (missing(y_bound)) {
    dpfda_abort("`y_bound` is required: public bounds c(lower, upper) for the responses.",
                arg = "y_bound")
  }
  yb <- krr_bound(y_bound, center)
  data <- krr_data(x, y, kernel, domain, yb)
  wr <- erm_weighted_rows(data, unit, counts)
  data <- wr$data
  a <- krr_solve(data$x, data$y, lambda, kernel, wr$units)
  fit <- new_erm_fit(data$x, a, kernel, class = "dpfda_krr_fit", offset = yb$offset,
                     y = data$y + yb$offset, lambda = lambda, y_bound = yb$bound, loss = "squared")
  fit$fitted <- fit$fun(data$x)
  fit
}

#' @export
predict.dpfda_svm_fit <- function(object, newdata, type = c("response", "class"), ...) {
  type <- check_choice(type, c("response", "class"), "type")
  v <- object$fun(newdata)
  # (it gave -1 / +1 for factor labels, so that an accuracy against them was 0 in silence)
  if (type == "class") v <- score_classes(v, object$classes)
  v
}

#' @export
predict.dpfda_krr_fit <- function(object, newdata, ...) object$fun(newdata)

#' @export
print.dpfda_svm_fit <- function(x, ...) {
  cat(sprintf("<dpfda_svm_fit> NON-PRIVATE bias-free kernel SVM, n = %d, lambda = %s\n",
              length(x$y), format(x$lambda, digits = 4)))
  cat("  kernel: ", format(x$kernel), "\n", sep = "")
  w <- x$weights
  cat(sprintf("  %d support vectors (%d at %s), duality gap %s after %d sweeps\n",
              sum(x$dual > 0), sum(x$dual >= w),
              if (length(unique(w)) == 1L) "the bound 1/n" else "their bound 1 / (units x rows of the unit)",
              format(x$gap, digits = 3),
              x$iterations))
  invisible(x)
}

#' @export
print.dpfda_krr_fit <- function(x, ...) {
  cat(sprintf("<dpfda_krr_fit> NON-PRIVATE kernel ridge regression, n = %d, lambda = %s\n",
              length(x$y), format(x$lambda, digits = 4)))
  cat("  kernel: ", format(x$kernel), "\n", sep = "")
  invisible(x)
}

# ---- internals ------------------------------------------------------------------

# Replace-one sensitivity of kernel ridge regression with |y| <= B.
sensitivity_krr <- function(B, lambda, n, sup_kxx) {
  kappa <- sqrt(sup_kxx)
  sensitivity_erm(2 * B * (1 + kappa / sqrt(lambda)), lambda, n, sup_kxx)
}

# The regularisation and the clipping of a release: what a reader needs to judge it (the print
# showed neither).
#' @export
release_details.dpfda_krr_release <- function(x) {
  yb <- x$y_bound
  cat(sprintf("  kernel ridge regression: lambda = %s; outputs clipped to [%s, %s]%s\n", format(x$lambda, digits = 4),
              format(yb[1L], digits = 4), format(yb[2L], digits = 4),
              if (isTRUE(x$offset != 0)) sprintf(" and centred at %s (added back)", format(x$offset, digits = 4))
              else ""))
}

#' @export
release_details.dpfda_svm_release <- function(x) {
  cat(sprintf("  support vector machine (hinge loss): lambda = %s%s\n", format(x$lambda, digits = 4),
              if (!is.null(x$classes)) sprintf("; classes %s (negative) and %s (positive)", x$classes[1L],
                                               x$classes[2L]) else ""))
}
