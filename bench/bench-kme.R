# Private kernel mean embeddings (Balog et al.) against a plain-R
# implementation of the same algorithms, at the issue's sizes:
#   Algorithm 1: N = 1e5 rows, D = 5, M = 1000 synthetic points  (target < 3 s)
#   Algorithm 2: N = 1e5, D = 5, J = 1e4 features, 100 reduced-set points (target < 20 s)
# Both compute the embedding in chunks of rows, memory O(M * chunk).
# Issue 19 row: Algorithm 2 against the BLAS floor, the feature-matrix
# product X W alone (N x D times D x J, in the same chunks), and the feature
# means alone (kme_rff_mean: the product plus 2 N J sines and cosines; the
# sines and cosines run in a vectorised loop, src/kme.c kme_sincos_block).
# Times are CPU seconds.
# Run: R_LIBS=<lib with dpfda> Rscript bench/bench-kme.R
if (!requireNamespace("dpfda", quietly = TRUE) && dir.exists(".Rlib")) {
  .libPaths(c(normalizePath(".Rlib"), .libPaths()))
}
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # bench_ratio()
old <- dp_rng("seeded")
set.seed(1)
N <- 1e5; D <- 5; M <- 1000; J <- 1e4; Mrs <- 100
dat <- kme_mog_data(N, D)
x <- dat$x
ell <- 100 * sqrt(D / 2)                 # the paper's gamma = 1e-4 / D
k <- kernel_gaussian(ell)
z <- matrix(rnorm(M * D, 0, 500), M, D)  # "random" public points
eps <- 0.1; delta <- 1e-6
sigma <- dp_noise_scale(2 / N, eps, delta)
chunk <- 2048

# ---- plain R, same algorithm ---------------------------------------------------
gauss_cross <- function(a, b) {          # k(a_i, b_j) by differences of scaled points
  d2 <- outer(rowSums(a^2), rowSums(b^2), "+") - 2 * tcrossprod(a, b)
  exp(-pmax(d2, 0) / (2 * ell^2))
}
alg1_plain <- function() {
  K <- gauss_cross(z, z)
  kbar <- numeric(M)
  for (s in seq(1, N, by = chunk)) {
    idx <- s:min(N, s + chunk - 1)
    kbar <- kbar + colSums(gauss_cross(x[idx, , drop = FALSE], z))
  }
  kbar <- kbar / N
  L <- matrix(0, M, M); d <- diag(K); kept <- integer(0)
  for (f in seq_len(M)) {                # sequential skip Cholesky
    if (d[f] <= 1e-5) next
    Fc <- length(kept)
    col <- K[, f]
    if (Fc) col <- col - L[, seq_len(Fc), drop = FALSE] %*% L[f, seq_len(Fc)]
    col <- col / sqrt(d[f]); col[seq_len(f - 1)] <- 0; col[f] <- sqrt(d[f])
    L[, Fc + 1] <- col
    if (f < M) d[(f + 1):M] <- d[(f + 1):M] - col[(f + 1):M]^2
    kept <- c(kept, f)
  }
  Ls <- L[kept, seq_along(kept)]
  beta <- forwardsolve(Ls, kbar[kept]) + sigma * rnorm(length(kept))
  w <- numeric(M); w[kept] <- backsolve(Ls, beta, upper.tri = FALSE, transpose = TRUE)
  w
}

alg2_plain <- function(rff, start, iters = 100, lr = ell / 2, lambda = 100 / N) {
  W <- rff$W; s <- rff$scale; Jp <- ncol(W)
  mu <- numeric(2 * Jp)
  for (st in seq(1, N, by = 1024)) {
    P <- x[st:min(N, st + 1023), , drop = FALSE] %*% W
    mu <- mu + c(colSums(cos(P)), colSums(sin(P)))
  }
  psi <- s * mu / N + sigma * rnorm(2 * Jp)
  target <- psi
  Z <- start
  for (m in seq_len(nrow(start))) {
    zz <- start[m, ]; mv <- vv <- numeric(D)
    for (t in seq_len(iters)) {
      th <- as.vector(crossprod(W, zz)); cth <- cos(th); sth <- sin(th)
      A <- s * sum(psi[1:Jp] * cth + psi[Jp + 1:Jp] * sth)
      gA <- s * as.vector(W %*% (-psi[1:Jp] * sth + psi[Jp + 1:Jp] * cth))
      g <- -2 * A * gA / (s^2 * Jp)
      mv <- 0.9 * mv + 0.1 * g; vv <- 0.999 * vv + 0.001 * g^2
      zz <- zz - lr * sqrt(1 - 0.999^t) / (1 - 0.9^t) * mv / (sqrt(vv) + 1e-8)
    }
    th <- as.vector(crossprod(W, zz)); ph <- s * c(cos(th), sin(th))
    psi <- psi - sum(psi * ph) / sum(ph^2) * ph
    Z[m, ] <- zz
  }
  Phi <- s * cbind(cos(Z %*% W), sin(Z %*% W))
  G <- tcrossprod(Phi); cc <- as.vector(Phi %*% target)
  w <- numeric(nrow(Z)); r <- cc
  for (sweep in 1:1000) {                 # Lasso by coordinate descent
    wold <- w
    for (j in seq_along(w)) {
      rho <- r[j] + G[j, j] * w[j]
      nw <- sign(rho) * max(abs(rho) - lambda / 2, 0) / G[j, j]
      r <- r - G[, j] * (nw - w[j]); w[j] <- nw
    }
    if (max(abs(w - wold)) < 1e-10) break
  }
  list(points = Z, weights = w)
}

# CPU seconds (user + sys): everything here is single-threaded, and on a
# shared machine elapsed time mostly measures the other processes.
time_s <- function(expr) {
  t0 <- proc.time()
  force(expr)
  t1 <- proc.time() - t0
  t1[["user.self"]] + t1[["sys.self"]]
}

t1 <- time_s(r1 <- dp_kme(x, k, eps, delta, synthetic = z))
t1p <- time_s(w1 <- alg1_plain())
start <- z[seq_len(Mrs), ]
t2 <- time_s(r2 <- dp_kme(x, k, eps, delta, method = "random_features", synthetic = start, J = J, M = Mrs))
rff <- kme_rff(k, J, D)
t2p <- time_s(r2p <- alg2_plain(rff, start))
t_floor <- time_s(for (st in seq(1, N, by = 1024)) P <- x[st:min(N, st + 1023), , drop = FALSE] %*% rff$W)
t_feat <- time_s(kme_features(rff, x, mean = TRUE))
dp_rng(old)

res <- data.frame(
  task = c(sprintf("Algorithm 1: N = %g, D = %d, M = %d (F = %d)", N, D, M, r1$noise_dim),
           sprintf("Algorithm 2: N = %g, D = %d, J = %g, %d reduced-set points", N, D, J, Mrs)),
  dpfda_s = c(t1, t2), plain_R_s = c(t1p, t2p), ratio_plain_dpfda = c(t1p / t1, t2p / t2),
  target_s = c(3, 20))
res$result <- ifelse(res$dpfda_s < res$target_s, "PASS", "FAIL")
cat("Private kernel mean embeddings (Balog et al.): dpfda vs the same algorithm in plain R\n")
print(format(res, digits = 3), row.names = FALSE)
cat(sprintf("memory: embedding in chunks of %d rows (O(M * chunk)), never an N x M matrix\n", chunk))
for (i in seq_len(nrow(res))) cat(sprintf("%s: %s (%.2f s < %g s)\n", res$result[i], res$task[i],
                                          res$dpfda_s[i], res$target_s[i]))
la <- if (file.exists("/proc/loadavg")) strsplit(readLines("/proc/loadavg"), " ")[[1]][1] else "?"
cat(sprintf("Algorithm 2 pieces (CPU s, load %s): feature product X W alone (BLAS floor) %.2f s; feature means (product + sin/cos) %.2f s\n",
            la, t_floor, t_feat))
bench_ratio("KME Algorithm 2, N = 1e5, J = 1e4 / BLAS floor (X W alone)", t2, t_floor, "X %*% W", 1.5)
bench_ratio("KME feature means (X W + sin/cos) / BLAS floor (X W alone)", t_feat, t_floor, "X %*% W", 1.5)
