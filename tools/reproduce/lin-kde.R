# Lin & Reimherr (ICLP): private KDE simulations, Figures 3 (d = 1) and 4
# (d = 2). Sourced by tools/reproduce.R.
#
# Settings (spec lin_iclp.md section 7.2; every value of the paper is
# stripped, so these are the spec's flagged defaults or our choices):
#   d = 1: f = 0.5 TN(0.3, 0.1^2) + 0.5 TN(0.7, 0.1^2) on [0, 1].
#   d = 2: f = 0.5 TN((0.3, 0.3), 0.1^2 I) + 0.5 TN((0.7, 0.7), diag(0.1^2,
#     0.15^2)) on [0, 1]^2.
#   N = 1000, epsilon = 1. Covariance kernel C: Gaussian (d = 1), exponential
#     (d = 2), lengthscale = the bandwidth h_N = N^(-1/(4+d)) / 4. The paper's
#     rate with constant 1 (h = 0.25 in d = 1) smooths the bimodal density
#     into one mode, so the non-private KDE could not show what the figures
#     are about; the constant is ours.
#   Mechanisms: ICLP-QR (dp_kde(mechanism = "iclp")) at three eta, FRL with
#     its PSS truncation (the paper chose it by PCV with a least-squares loss),
#     and the Bernstein KDE at two lattice sizes. Grid: 101 points (d = 1), a
#     30 x 30 tensor grid (d = 2).

lin_kde_N <- 1000L

lin_rtn1 <- function(n) {            # the 1-D mixture, truncated to [0, 1] by rejection
  out <- numeric(0)
  while (length(out) < n) {
    z <- stats::rnorm(2 * n, ifelse(stats::runif(2 * n) < 0.5, 0.3, 0.7), 0.1)
    out <- c(out, z[z >= 0 & z <= 1])
  }
  out[seq_len(n)]
}

lin_dtn1 <- function(t) {
  comp <- function(m) stats::dnorm(t, m, 0.1) / (stats::pnorm(1, m, 0.1) - stats::pnorm(0, m, 0.1))
  0.5 * comp(0.3) + 0.5 * comp(0.7)
}

lin_rtn2 <- function(n) {
  out <- matrix(0, 0, 2)
  while (nrow(out) < n) {
    first <- stats::runif(2 * n) < 0.5
    z <- cbind(stats::rnorm(2 * n, ifelse(first, 0.3, 0.7), 0.1),
               stats::rnorm(2 * n, ifelse(first, 0.3, 0.7), ifelse(first, 0.1, 0.15)))
    out <- rbind(out, z[rowSums(z >= 0 & z <= 1) == 2, , drop = FALSE])
  }
  out[seq_len(n), ]
}

lin_dtn2 <- function(s, t) {
  mass <- function(m, sd) stats::pnorm(1, m, sd) - stats::pnorm(0, m, sd)
  c1 <- stats::dnorm(s, 0.3, 0.1) * stats::dnorm(t, 0.3, 0.1) / (mass(0.3, 0.1)^2)
  c2 <- stats::dnorm(s, 0.7, 0.1) * stats::dnorm(t, 0.7, 0.15) / (mass(0.7, 0.1) * mass(0.7, 0.15))
  0.5 * c1 + 0.5 * c2
}

fig_lin_fig3 <- function(out_dir) {
  dp_reproducible(SEED + 45)
  file <- "lin-fig3-kde-1d.png"
  N <- lin_kde_N
  x <- lin_rtn1(N)
  grid <- seq(0, 1, length.out = 101)
  h <- N^(-1 / 5) / 4
  truth <- lin_dtn1(grid)
  npkde <- kde_gaussian(x, grid, h)$values[1, ]
  panels <- list(
    `ICLP-QR, eta = 1.25` = list(mechanism = "iclp", eta = 1.25),
    `ICLP-QR, eta = 2` = list(mechanism = "iclp", eta = 2),
    `ICLP-QR, eta = 3` = list(mechanism = "iclp", eta = 3),
    `FRL (PSS M)` = list(mechanism = "frl"),
    `Bernstein, k = 10` = list(mechanism = "bernstein", k = 10L),
    `Bernstein, k = 30` = list(mechanism = "bernstein", k = 30L))
  cols <- c("#33a02c", "#33a02c", "#33a02c", "#1f78b4", "#6a3d9a", "#6a3d9a")
  draws <- 20L
  rows <- list()
  open_png(file.path(out_dir, file), width = 1400, height = 850)
  op <- graphics::par(mfrow = c(2, 3), mar = c(4, 4, 2.5, 0.5))
  w <- kl_basis(kernel_gaussian(h), grid)$weights
  for (i in seq_along(panels)) {
    p <- panels[[i]]
    rel <- lapply(seq_len(draws), function(d) {
      if (p$mechanism == "bernstein") {
        dp_kde(x, grid, h, epsilon = 1, mechanism = "bernstein", domain = c(0, 1), k = p$k, h = 1L)
      } else if (p$mechanism == "iclp") {
        dp_kde(x, grid, h, epsilon = 1, mechanism = "iclp", domain = c(0, 1), eta = p$eta)
      } else dp_kde(x, grid, h, epsilon = 1, mechanism = "frl", domain = c(0, 1))
    })
    V <- t(vapply(rel, function(r) r$values$values[1, ], grid))
    graphics::plot(grid, truth, type = "n", ylim = c(-0.5, 3.2), xlab = "x", ylab = "density",
                   main = names(panels)[i])
    graphics::matlines(grid, t(V), lty = 1, col = grDevices::adjustcolor(cols[i], 0.35))
    graphics::lines(grid, truth, lwd = 2.5)
    graphics::lines(grid, npkde, lwd = 2, lty = 2)
    rows[[i]] <- data.frame(mechanism = names(panels)[i],
                            `E||f_tilde - f||^2` = mean(as.vector((sweep(V, 2L, truth))^2 %*% w)),
                            `E||f_tilde - f_hat||^2` = mean(as.vector((sweep(V, 2L, npkde))^2 %*% w)),
                            noise_scale = rel[[1]]$noise_scale, check.names = FALSE)
  }
  graphics::par(op)
  grDevices::dev.off()
  tab <- do.call(rbind, rows)
  list(
    title = "Lin and Reimherr, Figure 3: private KDE in one dimension",
    file = file,
    text = paste(
      "N = 1000 draws from 0.5 TN(0.3, 0.1^2) + 0.5 TN(0.7, 0.1^2) on [0, 1], epsilon = 1 (pure DP),",
      "bandwidth h = N^(-1/5)/4 =", signif(h, 3), "(constant ours: with constant 1 the KDE is",
      "unimodal). Each panel: the true density (black), the non-private Gaussian KDE (dashed) and",
      draws, "private releases. ICLP-QR uses the Gaussian covariance kernel with lengthscale h and",
      "K = C^eta (a larger eta smooths more); FRL its PSS truncation; Bernstein the iterated-order-1",
      "Bernstein KDE of Alda and Rubinstein on k + 1 lattice points. The table gives the mean",
      "squared L2 errors to the truth and to the non-private KDE over the draws. Paper's findings:",
      "QR similar to FRL, a larger eta gives smoother curves but over-smooths; Bernstein needs many",
      "lattice points for the two modes, which brings noisy tails."),
    table = tab
  )
}

fig_lin_fig4 <- function(out_dir) {
  dp_reproducible(SEED + 46)
  file <- "lin-fig4-kde-2d.png"
  N <- lin_kde_N
  x <- lin_rtn2(N)
  ax <- seq(0, 1, length.out = 30)
  grid <- list(ax, ax)
  h <- N^(-1 / 6) / 4
  dom <- rbind(c(0, 0), c(1, 1))
  truth <- outer(ax, ax, lin_dtn2)
  npkde <- matrix(kde_gaussian(x, grid, h)$values[1, ], 30, 30)
  eta0 <- 1 + 1 / (2 * 0.75)            # 1 + 1/(2h), h = 3/4 for the exponential kernel in 2-D
  panels <- list(
    `ICLP-QR, eta small` = list(mechanism = "iclp", eta = eta0 + 0.25),
    `ICLP-QR, eta medium` = list(mechanism = "iclp", eta = eta0 + 1),
    `ICLP-QR, eta large` = list(mechanism = "iclp", eta = eta0 + 2),
    `FRL (PSS M)` = list(mechanism = "frl"),
    `Bernstein, k = 5` = list(mechanism = "bernstein", k = 5L),
    `Bernstein, k = 12` = list(mechanism = "bernstein", k = 12L))
  est <- lapply(panels, function(p) {
    r <- if (p$mechanism == "bernstein") {
      dp_kde(x, grid, h, epsilon = 1, mechanism = "bernstein", domain = dom, k = p$k, h = 1L)
    } else if (p$mechanism == "iclp") {
      dp_kde(x, grid, h, epsilon = 1, mechanism = "iclp", domain = dom, eta = p$eta)
    } else dp_kde(x, grid, h, epsilon = 1, mechanism = "frl", domain = dom)
    list(z = matrix(r$values$values[1, ], 30, 30), eta = r$params$eta, noise = r$noise_scale)
  })
  zl <- range(truth, npkde, 0)
  zl[2] <- zl[2] * 1.15
  pal <- grDevices::hcl.colors(64, "viridis")
  open_png(file.path(out_dir, file), width = 1500, height = 800)
  op <- graphics::par(mfrow = c(2, 4), mar = c(3, 3, 2.5, 0.5), mgp = c(1.8, 0.6, 0))
  show <- function(z, main) {
    graphics::image(ax, ax, pmin(pmax(z, zl[1]), zl[2]), zlim = zl, col = pal, xlab = "x1", ylab = "x2",
                    main = main, cex.main = 0.95)
    graphics::contour(ax, ax, z, add = TRUE, drawlabels = FALSE, col = "white", nlevels = 6)
  }
  show(truth, "true density")
  show(npkde, "non-private KDE")
  for (nm in names(est)) {
    lab <- if (!is.null(est[[nm]]$eta)) sprintf("%s (%.2f)", nm, est[[nm]]$eta) else nm
    show(est[[nm]]$z, lab)
  }
  graphics::par(op)
  grDevices::dev.off()
  wq <- outer(dpfda:::quadrature_weights(ax), dpfda:::quadrature_weights(ax))
  tab <- data.frame(mechanism = names(est),
                    `||f_tilde - f||^2` = vapply(est, function(e) sum(wq * (e$z - truth)^2), 0),
                    `||f_tilde - f_hat||^2` = vapply(est, function(e) sum(wq * (e$z - npkde)^2), 0),
                    noise_scale = vapply(est, `[[`, 0, "noise"), check.names = FALSE)
  rownames(tab) <- NULL
  list(
    title = "Lin and Reimherr, Figure 4: private KDE in two dimensions",
    file = file,
    text = paste(
      "N = 1000 draws from 0.5 TN((0.3, 0.3), 0.1^2 I) + 0.5 TN((0.7, 0.7), diag(0.1^2, 0.15^2)) on",
      "[0, 1]^2, epsilon = 1, one release per panel on a 30 x 30 grid, common colour scale (values",
      "clipped to it). Bandwidth h = N^(-1/6)/4 =", signif(h, 3), "; ICLP-QR with the exponential",
      "covariance kernel (lengthscale h) and eta = 1 + 1/(2h_EDR) + 0.25, + 1, + 2 (h_EDR = 3/4);",
      "FRL with its PSS truncation; Bernstein KDE with (k + 1)^2 lattice points. Paper's findings:",
      "small eta is precise at the peaks but noisy in low-density regions, large eta smooth but",
      "under the peaks, the middle one the sweet point; FRL looks like the over-smoothed QR;",
      "Bernstein fails even with more lattice points. Table: squared L2 errors of the single draw shown."),
    table = tab
  )
}
