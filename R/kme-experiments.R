# Experiments of Balog et al. (Appendix B): RKHS distances of Algorithm 1 and
# Algorithm 2 releases to the empirical embedding of the full private data.
# ORACLE code: it reads the private data to evaluate distances, so its output
# is not private; used by tools/reproduce/balog.R and the vignette. Internal.

# The paper's grid of M (its Figures 1-2): 84 values from 1 to Mmax.
kme_paper_grid_M <- function(Mmax = 1e4) {
  Ms <- floor(exp(seq(0, log(1e4), length.out = 100)))
  Ms <- unique(c(Ms, 1e4))
  Ms <- Ms[Ms <= Mmax]
  if (Mmax < 1e4) Ms <- unique(c(Ms, Mmax))
  as.integer(Ms)
}

# Report points of the paper's Algorithm 2 experiment.
kme_paper_report_M <- function(M = 1e4) as.integer(unique(floor(10^seq(0, log10(M + 1) - 1e-12, by = 0.25))))

# Algorithm 1 along a grid of M (one factorisation; prefix property).
# sigma: "paper" (the paper's classical formula also at epsilon = 1) or a
# calibration for kme_sigma(). fresh = TRUE draws new noise per M and
# epsilon as the authors did (each point is a separate release).
kme_alg1_path <- function(x, z, kernel, Ms, epsilons, delta, tol = 1e-5, kxx = NULL,
                          sigma = "paper", fresh = TRUE) {
  N <- nrow(x)
  Mmax <- max(Ms)
  z <- z[seq_len(Mmax), , drop = FALSE]
  if (is.null(kxx)) kxx <- kme_mean_gram(kernel, x)
  f <- kme_fit_subspace(x, z, kernel, 1, tol = tol, noise = FALSE)
  K <- f$K
  kept <- f$basis$kept
  # column sums of the upper triangle (with the diagonal), without M x M temporaries
  v <- vapply(seq_len(ncol(K)), function(j) sum(K[seq_len(j), j]), 0)
  SK <- cumsum(2 * v - diag(K))                  # sum(K[1:M, 1:M])
  ck <- cumsum(f$kbar)
  sig <- vapply(epsilons, function(e) {
    if (identical(sigma, "paper")) kme_sigma_paper(N, e, delta) else kme_sigma(N, e, delta, sigma)
  }, 0)
  gfull <- lapply(epsilons, function(e) noise_draw(length(kept), "normal"))
  rows <- lapply(Ms, function(M) {
    Fm <- sum(kept <= M)
    a2 <- sum(f$alpha[seq_len(Fm)]^2)
    proj2 <- max(0, kxx - a2)
    alg <- vapply(seq_along(epsilons), function(i) {
      g <- if (fresh) noise_draw(Fm, "normal") else gfull[[i]][seq_len(Fm)]
      sqrt(proj2 + sig[i]^2 * sum(g^2))
    }, 0)
    base2 <- SK[M] / M^2 - 2 * ck[M] / M + kxx
    data.frame(M = M, F = Fm, proj = sqrt(proj2), base = sqrt(max(0, base2)),
               t(stats::setNames(alg, paste0("alg1_eps", epsilons))), check.names = FALSE)
  })
  do.call(rbind, rows)
}

# Algorithm 2 (random scenario): one greedy pass per epsilon from copies of
# the start points; the Lasso refit and the true-kernel distance at every
# report point.
kme_alg2_path <- function(x, kernel, z_init, epsilons, delta, J, report, iters = 100, lr = NULL,
                          lasso_alpha = 100, kxx = NULL, sigma = "paper") {
  N <- nrow(x)
  Mmax <- max(report)
  if (is.null(kxx)) kxx <- kme_mean_gram(kernel, x)
  rff <- kme_rff(kernel, J, ncol(x))
  mu <- kme_features_raw(rff, x, mean = TRUE)
  adam <- kme_adam_settings(lr, kernel, ncol(x), eps = 1e-8)   # (the authors' epsilon)
  out <- list()
  for (e in epsilons) {
    s <- if (identical(sigma, "paper")) kme_sigma_paper(N, e, delta) else kme_sigma(N, e, delta, sigma)
    noisy <- mu + s * noise_draw(J, "normal")
    g <- c_kme_greedy(noisy, rff$W, rff$scale, z_init[seq_len(Mmax), , drop = FALSE] + 0,
                      as.integer(iters), adam, numeric(0), numeric(0))
    Z <- g[[1L]]
    Phi <- kme_features_raw(rff, Z)
    G <- tcrossprod(Phi)
    cc <- as.vector(Phi %*% noisy)
    K <- kernel_matrix(kernel, Z)
    kb <- kme_rowmeans(kernel, Z, x)
    w <- numeric(0)
    for (m in report) {
      idx <- seq_len(m)
      w0 <- c(w, numeric(m - length(w)))         # warm start along the path
      fit <- c_kme_lasso(G[idx, idx, drop = FALSE], cc[idx], sum(noisy^2), lasso_alpha / N,
                         w0, 10000L, 1e-10)
      w <- fit[[1L]]
      d2 <- kxx - 2 * sum(w * kb[idx]) + sum(w * (K[idx, idx, drop = FALSE] %*% w))
      out[[length(out) + 1L]] <- data.frame(M = m, eps = e, dist = sqrt(max(0, d2)))
    }
  }
  do.call(rbind, out)
}
