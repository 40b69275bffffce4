# Kernel-mean-embedding summaries (dp_kme()): kernel sums at public points
# (Algorithm 1, sum_n k(z_m, x_n)) and random-feature sums (Algorithm 2,
# sum_n phi(x_n)). In a database each sum is a column of one aggregate, the
# public points or frequencies written into the query as exact literals.

#' Summaries for private kernel mean embeddings
#'
#' `method = "subspace"`: the kernel sums \eqn{\sum_n k(z_m, x_n)} at the
#' public points `synthetic` (Algorithm 1 of [dp_kme()]); `method =
#' "random_features"`: the sums \eqn{\sum_n \phi(x_n)} of the random Fourier
#' features `rff` (Algorithm 2). Rows are clamped to `domain` when it is
#' given. With `id`, an individual with \eqn{r} rows contributes each with
#' weight \eqn{1/r} (so their embedding still has norm at most one) and `n`
#' counts individuals. In a database the kernel (Gaussian, exponential, or
#' Matern with \eqn{\nu} = 1/2, 3/2, 5/2) or the features are evaluated
#' in the engine, one sum per public point or feature (the points and
#' frequencies written into the query; no join), and only `M` (or `J`) sums
#' come back.
#'
#' @param x Points (vector or matrix), a data frame, a database table
#'   (dbplyr) or [dp_chunks()].
#' @param kernel The kernel.
#' @param method `"subspace"` or `"random_features"`.
#' @param synthetic Public points `z` (an `M x D` matrix), for `"subspace"`.
#' @param rff A [kme_rff()] object, for `"random_features"`.
#' @param domain `NULL` or a public box (`c(lower, upper)` or `2 x D`).
#' @param columns Names of the `D` point columns (strings or bare names, as in [as_curves()]).
#' @param id `NULL` or an id column (a string or a bare name); `unit` is its
#'   newer name.
#' @param unit The privacy unit when one person has several points: a column
#'   (as `id`), or a vector with one entry per point for points in memory
#'   (see [dp_kme()]).
#' @param counts `NULL`, or a column (string or bare name) of a data frame,
#'   table or chunks holding whole-number frequencies (a frequency table):
#'   each row stands for that many records, its weight in the sums is its
#'   count and `n` is the number of records, each its own privacy unit (not
#'   with `unit`). A missing count is refused as other missing
#'   values are; a negative or fractional count is an error (`dpfda_error_data`).
#' @param .query Internal: return the lazy query instead of running it.
#' @param ... Not used: a name that is not an option (a misspelling) is an
#'   error that names it.
#' @return A [dpfda_summary] (kind `"kme_kernel"` or `"kme_features"`).
#' @examples
#' x <- matrix(rnorm(200), ncol = 2)
#' z <- matrix(runif(20, -2, 2), ncol = 2)
#' s <- summarise_kme(x, kernel_gaussian(1), synthetic = z)
#' s$sums / s$n
#' @export
summarise_kme <- function(x, kernel, method = c("subspace", "random_features"), synthetic = NULL, rff = NULL,
                          domain = NULL, columns = NULL, id = NULL, .query = FALSE, unit = NULL, counts = NULL, ...) {
  check_required(c("x", "kernel"))
  check_dot_names(dot_args(), character(), "summarise_kme")   # (a misspelt option gets a classed error)
  columns <- column_arg_names("columns", x, NULL)
  id <- column_arg_names("id", x)
  pu <- point_units(x, unit_arg(substitute(unit), tryCatch(unit, error = function(e) e)), columns, id)
  counts <- column_arg_names("counts", x)
  if (!is.null(counts)) check_counts_source(x, pu$id)
  summarise_kme_impl(pu$x, kernel, method, synthetic, rff, domain, pu$columns, pu$id, .query, counts = counts)
}

# summarise_kme() with column names (strings); a summary with an `id` records it as its privacy unit,
# one with `counts` (a column) that its n counts records. `.weights`: counts given in memory, one per point.
summarise_kme_impl <- function(x, kernel, method = c("subspace", "random_features"), synthetic = NULL, rff = NULL,
                               domain = NULL, columns = NULL, id = NULL, .query = FALSE, counts = NULL,
                               .weights = NULL) {
  s <- summarise_kme_sums(x, kernel, method, synthetic, rff, domain, columns, id, .query, counts, .weights)
  if (!is.null(id) && inherits(s, "dpfda_summary")) s$unit <- as.vector(id)
  if (inherits(s, "dpfda_summary") && (!is.null(counts) || !is.null(.weights))) s$counts <- counts %||% "counts"
  s
}

summarise_kme_sums <- function(x, kernel, method = c("subspace", "random_features"), synthetic = NULL, rff = NULL,
                               domain = NULL, columns = NULL, id = NULL, .query = FALSE, counts = NULL,
                               .weights = NULL) {
  method <- check_choice(method, c("subspace", "random_features"), "method")
  kme_check_kernel(kernel)
  D <- if (!is.null(columns)) length(columns) else if (method == "subspace" && !is.null(synthetic))
    ncol(as_points(synthetic, "synthetic")) else if (!is.null(rff)) rff$dim else
      ncol(as_points(x, "x"))
  box <- kme_domain(domain, D)
  if (method == "subspace") {
    z <- as_points(synthetic, "synthetic", d = D)
    settings <- list(kernel = kernel, z = z, box = box)
  } else {
    rff <- kme_check_rff(rff)
    settings <- list(kernel = kernel, W = rff$W, scale = rff$scale, box = box, origin = kme_rff_origin(rff))
  }
  kind <- if (method == "subspace") "kme_kernel" else "kme_features"
  have <- engine_names_or(x)
  if (!is.null(have) && !is.null(id)) id <- engine_columns(id, have, "id", 1L)
  if (inherits(x, "dpfda_chunks")) {
    return(warn_dropped(chunks_reduce(x, function(d) {
      summarise_kme_impl(d, kernel, method, synthetic, rff, domain, columns, id, counts = counts)
    }, id = id)))
  }
  if (is_lazy_table(x)) {
    # (default: all but the id and the counts)
    columns <- engine_columns(columns %||% setdiff(have, c(id, counts)), have, "columns")
    return(summarise_kme_lazy(x, kernel, method, if (method == "subspace") z, rff, box, columns, id, kind,
                              settings, .query, counts = counts))
  }
  ids <- NULL
  dropped <- 0
  if (is.data.frame(x)) {
    columns <- engine_columns(columns %||% setdiff(names(x), c(id, counts)), names(x), "columns")
    check_counts_column(counts, columns)
    cl <- frame_clean_points(x, c(columns, counts), id)
    ids <- if (!is.null(id)) cl$data[[id]]
    if (!is.null(counts)) .weights <- check_count_values(cl$data[[counts]])
    dropped <- cl$dropped
    rows <- cl$rows
    x <- as.matrix(cl$data[columns])
    if (!nrow(x)) {   # every row dropped: the empty summary, as a table's or a chunk source's
      len <- if (method == "subspace") nrow(z) else ncol(kme_features_raw(rff, matrix(0, 1L, D)))
      return(new_dpfda_summary(kind, numeric(len), 0, rows, dropped, settings, outside = if (!is.null(box)) 0))
    }
  }
  x <- as_points(x, "x", d = D)
  if (is.null(ids)) rows <- nrow(x)
  # (counted for dp_kme()'s warning, as dp_kde()'s; with counts, the records)
  outside <- if (!is.null(box)) points_outside(x, box, .weights)
  x <- kme_clamp(x, box)
  wt <- if (!is.null(.weights)) .weights else if (is.null(ids)) NULL else id_weights(ids)
  n <- if (!is.null(.weights)) sum(.weights) else if (is.null(ids)) nrow(x) else length(unique(ids))
  sums <- if (method == "subspace") {
    if (is.null(wt)) kme_rowmeans(kernel, z, x) * nrow(x) else
      as.vector(kernel_matrix(kernel, z, x) %*% wt)
  } else {
    if (is.null(wt)) kme_features_raw(rff, x, mean = TRUE) * nrow(x) else
      as.vector(crossprod(kme_features_raw(rff, x), wt))
  }
  new_dpfda_summary(kind, sums, n, rows, dropped, settings, outside = outside)
}

# In the engine, one scan of the table per block of at most 500 sums, each
# sum a column of the aggregate: sum_n wt_n k(z_m, x_n) with the public point
# z_m (or the frequency w_j) written into the SQL as exact literals. No join:
# a join of every row with a public table costs the engine a joined row per
# (row, point) -- on PostgreSQL several times the kernel evaluations
# themselves -- and the literals are typed constants folded once per query.
summarise_kme_lazy <- function(x, kernel, method, z, rff, box, columns, id, kind, settings, .query,
                               counts = NULL) {
  D <- length(columns)
  xn <- paste0("x", seq_len(D))
  nn <- lazy_weighted_points(x, columns, xn, id, counts, check = !.query)
  weighted <- !is.null(id) || !is.null(counts)
  s <- sq_from(nn$q)   # (SQL written out: R/engine-sql.R)
  con <- s$con
  id_sql <- function(nm) sq_id(s, nm)
  if (!is.null(box)) {
    # (the points the box clamps, counted for dp_kde()'s warning, R/summary-bins.R)
    # (in the step that clamps: SQLite's parser has a depth limit)
    out_sum <- sq_flag_sum(id_sql("outside"), if (!is.null(counts)) id_sql("wt"))   # (with counts: the records)
    cl <- lapply(seq_len(D), function(j) sq_clamp(s, id_sql(xn[j]), sq_lit(box[1L, j]), sq_lit(box[2L, j])))
    s <- sq_mutate(s, c(stats::setNames(cl, xn),
                        list(outside = sq_outside_flag(vapply(xn, id_sql, ""), box[1L, ], box[2L, ]))))
  }
  lit <- function(v) paste0("(", sql_num(v), ")")
  wt <- if (!weighted) "" else paste0(id_sql("wt"), " * ")   # (without ids or counts every row has weight 1)
  un <- paste0("u", seq_len(D))
  if (method == "subspace") {
    if (!kme_kernel_sql_ok(kernel)) {
      dpfda_abort(paste("In a database the kernel must be Gaussian, exponential or Matern with nu = 1/2,",
                        "3/2 or 5/2."), arg = "kernel")
    }
    # unit-lengthscale coordinates u = x A, as kernel_scale_points() in memory
    # (a division by the lengthscale; a full bandwidth matrix by its factor)
    A <- kernel_scale_points(kernel, diag(D))
    lin <- lapply(seq_len(D), function(j) {
      if (is.null(kernel$H)) {
        ls <- rep_len(kernel$lengthscale, D)[j]
        return(sprintf("%s / %s", id_sql(xn[j]), sq_lit(ls)))
      }
      k <- which(A[, j] != 0)
      if (!length(k)) return("0.0")
      paste0("(", paste(sprintf("%s * %s", vapply(xn[k], id_sql, ""), vapply(A[k, j], sq_lit, "")),
                        collapse = " + "), ")")
    })
    s <- sq_mutate(s, stats::setNames(lin, un))
    zs <- kernel_scale_points(kernel, z, "synthetic")
    v <- lit(kernel$variance)
    # SQLite's exp() raises "Numerical result out of range" and PostgreSQL's
    # "value out of range: underflow" where the result underflows: the
    # exponent is bounded below by -708, so a kernel value below e^-708
    # (3.3e-308, where R has a smaller number or 0) counts as e^-708. The
    # exponent is computed once, with no test.
    greatest <- if (inherits(con, "SQLiteConnection")) "MAX" else "GREATEST"
    ex <- function(a) sprintf("EXP(%s(%s, -708))", greatest, a)
    sums <- vapply(seq_len(nrow(zs)), function(m) {
      dif <- sprintf("(%s - %s)", vapply(un, id_sql, ""), vapply(zs[m, ], lit, ""))
      r2 <- paste0("(", paste(sprintf("%s * %s", dif, dif), collapse = " + "), ")")
      l1 <- paste0("(", paste(sprintf("ABS%s", dif), collapse = " + "), ")")
      kv <- switch(kernel$type,
        gaussian = sprintf("%s * %s", v, ex(sprintf("(-0.5 * %s)", r2))),
        exponential = if (identical(kernel$norm, "l1")) sprintf("%s * %s", v, ex(sprintf("(-%s)", l1))) else
          sprintf("%s * %s", v, ex(sprintf("(-SQRT(%s))", r2))),
        matern = switch(as.character(kernel$nu),
          "0.5" = sprintf("%s * %s", v, ex(sprintf("(-SQRT(%s))", r2))),
          "1.5" = sprintf("%s * (1 + SQRT(3 * %s)) * %s", v, r2, ex(sprintf("(-SQRT(3 * %s))", r2))),
          "2.5" = sprintf("%s * (1 + SQRT(5 * %s) + 5 * %s / 3) * %s", v, r2, r2, ex(sprintf("(-SQRT(5 * %s))", r2)))))
      sprintf("SUM(%s%s)", wt, kv)
    }, "")
    names(sums) <- paste0("s", seq_along(sums))
  } else {
    W <- rff$W
    Jp <- ncol(W)
    o <- kme_rff_origin(rff)
    # (each coordinate relative to the features' origin, as kme_features_raw() takes it)
    xo <- vapply(seq_along(xn), function(d) {
      if (o[d] == 0) id_sql(xn[d]) else sprintf("(%s - %s)", id_sql(xn[d]), lit(o[d]))
    }, "")
    tt <- vapply(seq_len(Jp), function(j) {
      paste0("(", paste(sprintf("%s * %s", xo, vapply(W[, j], lit, "")), collapse = " + "), ")")
    }, "")
    sums <- c(sprintf("SUM(%sCOS(%s))", wt, tt), sprintf("SUM(%sSIN(%s))", wt, tt))
    names(sums) <- c(paste0("c", seq_len(Jp)), paste0("s", seq_len(Jp)))
  }
  res <- lazy_wide_sums(sq_lazy(s), sums, c(cnt = if (!weighted) "COUNT(*)" else sprintf("SUM(%s)", id_sql("wt")),
                                             if (!is.null(box)) c(out = out_sum)), .query)
  if (.query) return(res)
  out <- plain_double(unname(res$sums))
  if (method == "random_features") out <- rff$scale * out
  n <- if (!weighted) plain_number(res$extra[["cnt"]], 0) else round(plain_number(res$extra[["cnt"]], 0))
  warn_dropped(new_dpfda_summary(kind, out, n, nn$rows, nn$dropped, settings,
                                 outside = if (!is.null(box)) plain_number(res$extra[["out"]], 0)))
}

kme_kernel_sql_ok <- function(kernel) {
  kernel$type %in% c("gaussian", "exponential") ||
    (kernel$type == "matern" && as.character(kernel$nu) %in% c("0.5", "1.5", "2.5"))
}

# dp_kme() on a table, chunks or summary: Algorithm 1 or 2 from the sums.
# The public draws (synthetic points, then features) happen in the same order
# as in memory, so dp_reproducible() gives the same release.
dp_kme_engine <- function(x, kernel, epsilon, delta, method, synthetic, M, J, calibration, domain, tol, pivot,
                          l1_bound, iters, lr, lasso_lambda, tight, noise, budget, call, columns, id, counts = NULL) {
  budget <- release_open(budget, epsilon)   # (the epsilon warning; delta's once n is known)
  noise <- check_noise(noise)
  method <- check_choice(method, c("subspace", "random_features", "exponential"), "method")
  if (method == "exponential") {
    dpfda_abort(paste("method = \"exponential\" needs the data in memory: its utility -||mu_X - mu_R||",
                      "involves ||mu_X||^2 = (1/N^2) sum over all pairs of rows of k(x_n, x_m), a sum over",
                      "pairs of individuals (N^2 kernel values), not over individuals, so no summary of",
                      "fixed size gives it. Use method = \"subspace\" or \"random_features\", or collect",
                      "the rows (at most 2e5) into memory."), arg = "method")
  }
  o <- kme_check_options(kernel, epsilon, delta, calibration, tol, pivot, l1_bound, iters, lr, lasso_lambda,
                         J, M, tight, method, exponential_ok = FALSE)
  list2env(o, environment())   # the checked values replace the arguments of the same names
  laplace <- delta == 0
  D <- if (inherits(x, "dpfda_summary")) {
    if (x$kind == "kme_kernel") ncol(x$settings$z) else nrow(x$settings$W)
  } else {
    # (not given: every column of a table but the id, as for a data frame in memory)
    columns <- engine_columns(columns %||% setdiff(engine_names_or(x), c(id, counts)), engine_names_or(x), "columns")
    length(columns)
  }
  box <- kme_domain(domain, D)
  if (inherits(x, "dpfda_summary")) {
    s <- check_summary(x, if (method == "subspace") "kme_kernel" else "kme_features")
    if (!identical(s$settings$kernel, kernel)) dpfda_abort("The summary was computed with another kernel.",
                                                          arg = "kernel")
    z <- if (method == "subspace") s$settings$z else kme_synthetic(synthetic, M, D, box, NULL, TRUE)
  } else {
    z <- kme_synthetic(synthetic, M, D, box, NULL, TRUE)
  }
  rff <- if (method == "random_features") {
    if (inherits(x, "dpfda_summary")) {
      structure(list(W = s$settings$W, scale = s$settings$scale, J = 2L * ncol(s$settings$W), dim = D,
                     kernel = kernel, origin = s$settings$origin), class = "dpfda_kme_rff")
    } else kme_rff(kernel, J, D, origin = colMeans(z))
  }
  if (!inherits(x, "dpfda_summary")) {
    s <- summarise_kme_impl(x, kernel, method, synthetic = if (method == "subspace") z, rff = rff, domain = domain,
                            columns = columns, id = id, counts = counts)
  }
  if (!is.null(box) && !is.null(s$outside)) {
    warn_clamped(s$outside, if (is.null(s$counts)) s$rows - s$dropped else s$n, box, columns,
                 records = !is.null(s$counts))
  }
  warn_privacy(NULL, delta, s$n)   # (as in memory: n is known from the summary)
  kme_release(s, z, rff, kernel, method, epsilon, delta, calibration, tol, pivot, l1_bound, iters, lr,
              lasso_lambda, tight, noise, box, call, budget)
}

# The release of dp_kme() (subspace and random features) from its summary:
# the only place where this noise is drawn, for points in memory, tables,
# chunks and given summaries alike.
# The noisy mean features rounded to a lattice of 2^-20 times the noise
# scale (post-processing: each moves by at most sigma 2^-21) before the
# reduced-set search. The search (Adam steps from public starts, lasso
# weights, clamping to the domain) is not continuous in its target: the
# rounding of the feature sums in another order (the order of the points,
# or a database's SUM) moved its release by up to 19% (test-order-invariance.R).
# A perturbation of 1e-16 now crosses a lattice point with probability about
# 1e-10 / sigma per coordinate, so the same data give the same release in any
# order and from any source. (Exact noise is on its lattice already.)
kme_canonical_target <- function(v, sigma) {
  if (!(is.finite(sigma) && sigma > 0)) return(v)
  step <- 2^(floor(log2(sigma)) - 20)
  round(v / step) * step
}

kme_release <- function(s, z, rff, kernel, method, epsilon, delta, calibration, tol, pivot, l1_bound, iters, lr,
                        lasso_lambda, tight, noise, box, call, budget) {
  laplace <- delta == 0
  M <- nrow(z)
  if (method == "subspace") {
    s <- check_summary(s, "kme_kernel")
    N <- s$n
    sens <- kme_sensitivity(kernel, N, tight)
    sigma <- if (laplace) sens / epsilon else kme_sigma(N, epsilon, delta, calibration, sens)
    K <- kernel_matrix(kernel, z)
    basis <- kme_basis(K, tol, pivot)
    ex <- if (noise == "exact") kme_exact(basis$F, sens, epsilon, delta, laplace) else NULL
    if (is.null(ex)) kme_check_tails(laplace, epsilon, delta, basis$F, sens / sigma)   # as in memory
    kbar <- s$sums / N
    kept <- basis$kept
    alpha <- forwardsolve(basis$Ls, kbar[kept])
    scale <- if (laplace) sqrt(basis$F) * sigma else sigma
    g <- if (laplace) rlaplace(basis$F, 1) else noise_draw(basis$F, "normal")
    beta <- if (!is.null(ex)) ex$draw(alpha) else alpha + scale * g
    w <- numeric(M)
    w[kept] <- backsolve(basis$Ls, beta, upper.tri = FALSE, transpose = TRUE)
    sigma <- if (is.null(ex)) scale else ex$scale
    if (!is.null(l1_bound)) w <- kme_l1_reweight(K, w, l1_bound)
    noise_dim <- basis$F
    extra <- list(kept = kept, tol = tol, pivot = pivot, l1_bound = l1_bound, rff = NULL)
  } else {
    J <- rff$J
    s <- check_summary(s, "kme_features")
    N <- s$n
    sens <- kme_sensitivity(kernel, N, FALSE)
    sigma <- if (laplace) sqrt(J) * sens / epsilon else kme_sigma(N, epsilon, delta, calibration, sens)
    ex <- if (noise == "exact") kme_exact(J, sens, epsilon, delta, laplace) else NULL
    if (is.null(ex)) kme_check_tails(laplace, epsilon, delta, J, if (laplace) sens / (sigma / sqrt(J)) else sens / sigma)
    if (!is.null(ex)) sigma <- ex$scale
    mu <- s$sums / N
    noisy <- if (!is.null(ex)) ex$draw(mu) else if (laplace) mu + sigma * rlaplace(length(mu), 1) else
      mu + sigma * noise_draw(length(mu), "normal")
    noisy <- kme_canonical_target(noisy, sigma)
    if (is.null(lasso_lambda)) lasso_lambda <- 100 / N
    rs <- kme_reduced_set(noisy, rff, start = z, iters = iters, lr = lr,
                          weights = if (is.null(l1_bound)) "lasso" else "l1ball",
                          lasso_lambda = lasso_lambda, domain = box,
                          l1_bound = if (is.null(l1_bound)) 1 else l1_bound)
    z <- rs$points
    w <- rs$weights
    noise_dim <- J
    extra <- list(kept = NULL, tol = NULL, pivot = NULL, l1_bound = l1_bound, rff = rff,
                  lasso_lambda = lasso_lambda, iters = iters)
  }
  rel <- kme_finish_release(z, w, sigma, ex, extra, kernel, method, epsilon, delta, N, noise_dim, laplace,
                            calibration, box, call, sens, budget)
  rel$privacy_unit <- privacy_unit_points(N, s$unit, !is.null(s$counts))
  rel
}
