# dp_accuracy(mechanism = "kme"): the noise of a dp_kme() release before it is
# made. Its noise law follows from public settings only: the number of
# individuals n, epsilon, delta, the kernel's variance (the sensitivity
# 2 sqrt(v) / n), and the number of noisy coordinates -- F, the rank the
# subspace basis keeps of the synthetic points' Gram matrix (public points),
# or J random features. So the plan needs no data; its headline figure is the
# root-mean-square RKHS norm of the noise (the MMD it adds to the embedding),
# `expected_rkhs`, which a target (`target_rkhs`) solves for n or epsilon.

# The options of dp_kme() a plan takes: those that set the noise, and those that
# do not (post-processing of the noisy coordinates), so that a release's call can
# be copied.
accuracy_kme_options <- c("method", "synthetic", "M", "J", "calibration", "domain", "tol", "pivot", "tight",
                          "noise", "d", "public", "iters", "lr", "lasso_lambda", "chunk")

accuracy_settings_kme <- function(n, epsilon, delta, kernel, grid, opts, seed) {
  need <- function(v, arg, hint) plan_need(v, arg, "kme", hint)
  bad <- setdiff(names(opts), accuracy_kme_options)
  if (length(bad) && bad[1L] %in% c("unit", "counts", "columns", "id")) {
    dpfda_abort(sprintf(paste("`%s` is an argument of dp_kme() that dp_accuracy() does not plan with: leave it out",
                              "and give `n`, the number of %s."), bad[1L],
                        if (bad[1L] == "counts") "records (the sum of the counts)" else "individuals (units)"),
                arg = bad[1L])
  }
  if (length(bad) && identical(bad[1L], "l1_bound")) {
    dpfda_abort(paste("With `l1_bound` the weights are projected onto an L1 ball after the noise (a non-linear",
                      "step), so the embedding has no additive noise law to plan: plan without it (the projection",
                      "moves the embedding towards the data's, it adds no privacy noise)."),
                class = c("dpfda_error_unsupported", "dpfda_error_argument"), arg = "l1_bound")
  }
  if (length(bad)) abort_unknown_option(bad[1L], "dp_accuracy", c(option_names("dp_accuracy"), accuracy_kme_options))
  if (!is.null(grid)) {
    dpfda_abort(paste("`grid` is not a setting of mechanism \"kme\": the embedding lives on its synthetic points;",
                      "give them as `synthetic` (or a public `domain` and `M` to draw them from)."), arg = "grid")
  }
  need(n, "n", "the number of individuals whose points are embedded (units, with `unit =` in dp_kme())")
  n <- check_count(n, "n", min = 1, max = 1e15)
  need(epsilon, "epsilon", "the privacy budget you plan to spend, e.g. epsilon = 1")
  need(kernel, "kernel", "the kernel of the embedding, e.g. kernel_gaussian(1)")
  method <- check_choice(opts[["method"]] %||% "subspace", c("subspace", "random_features", "exponential"), "method")
  if (method == "exponential") {
    dpfda_abort(paste("method = \"exponential\" selects one public candidate: it adds no noise, and its error",
                      "depends on the candidates and the data, so it has no plan; plan \"subspace\" or",
                      "\"random_features\"."), class = c("dpfda_error_unsupported", "dpfda_error_argument"),
                arg = "method")
  }
  # every option as dp_kme() checks it (the defaults are dp_kme()'s)
  o <- kme_check_options(kernel, epsilon, delta, opts[["calibration"]] %||% "analytic",
                         opts[["tol"]] %||% 1e-5, opts[["pivot"]] %||% FALSE, NULL, opts[["iters"]] %||% 100,
                         opts[["lr"]], opts[["lasso_lambda"]], opts[["J"]] %||% 1000, opts[["M"]],
                         opts[["tight"]] %||% FALSE, method)
  noise <- check_noise(opts[["noise"]] %||% "float")
  laplace <- o$delta == 0
  # the dimension: of the synthetic points, the domain, the kernel, or `d` (1 by default)
  syn <- opts[["synthetic"]]
  dom <- domain_from_ranges(opts[["domain"]])
  D <- if (is.matrix(syn) || is.data.frame(syn)) ncol(syn) else if (is.matrix(dom)) ncol(dom) else
    if (!is.null(opts[["d"]])) check_count(opts[["d"]], "d", min = 1, max = 1e4) else
      if (is.numeric(kernel$dim) && !is.na(kernel$dim)) kernel$dim else 1L
  box <- kme_domain(dom, D)
  # public points (drawn under the plan's public seed when `synthetic` is NULL or a generator: a
  # release draws its own, so F may differ by the few points the basis skips), and the features
  pts <- with_public_seed(seed, {
    z <- kme_synthetic(if (is.data.frame(syn)) as.matrix(syn) else syn, o$M, D, box, NULL, TRUE)
    list(z = z, rff = if (method == "random_features") kme_rff(kernel, o$J, D, origin = colMeans(z)))
  })
  z <- pts$z
  if (method == "subspace") {
    check_alloc(3 * as.double(nrow(z))^2, "synthetic-point Gram matrices")
    K <- kernel_matrix(kernel, z)
    b <- kme_basis(K, o$tol, o$pivot)
    F <- b$F
    A <- t(forwardsolve(b$Ls, K[b$kept, , drop = FALSE]))
  } else {
    F <- o$J
    A <- kme_features_raw(pts$rff, z)
  }
  where <- if (method == "subspace") sprintf("%d subspace coordinates", F) else sprintf("%d random features", F)
  # the scale of each noisy coordinate, as kme_release() sets it
  scale_at <- function(n, e, check = FALSE) {
    sens <- kme_sensitivity(kernel, n, o$tight)
    if (noise == "exact") return(kme_exact(F, sens, e, o$delta, laplace)$scale)
    sigma <- if (laplace) sens / e else kme_sigma(n, e, o$delta, o$calibration, sens)
    if (check) kme_check_tails(laplace, e, o$delta, F, if (laplace) 1 else sens / sigma)
    if (laplace) sqrt(F) * sigma else sigma
  }
  fam <- if (laplace) "laplace" else "gaussian"
  rkhs <- function(n, e, check = FALSE) {
    structure(scale_at(n, e, check) * sqrt((if (laplace) 2 else 1) * F), method = method, coordinates = F)
  }
  law <- function(n, e) {
    law_linear(A, rep(scale_at(n, e, check = TRUE), F), fam, if (D == 1L) as.vector(z) else z,
               sprintf("%s noise on %s, seen at the %s points%s", fam, where,
                       if (method == "subspace") "synthetic" else "start",
                       if (noise == "exact") "; discrete noise on a fine grid, taken as continuous" else ""))
  }
  law(n, o$epsilon)   # (the float noise's regime is checked now, as the release does)
  bias <- function(n, e) {
    list(l2 = NA_real_, sup = NA_real_, worst_l2 = NA_real_,
         note = paste("the embedding's error beyond the noise (the projection onto the points' span, the",
                      "reduced-set fit) depends on the data: no public bound"))
  }
  list(law = law, bias = bias, rkhs = rkhs, mechanism = paste0("kme_", method), n = n, epsilon = o$epsilon,
       delta = o$delta, tau = NULL)
}
