# Hall, Rinaldo & Wasserman (2013): Figures 1-3. Sourced by tools/reproduce.R.
#
# Settings the paper leaves open, and the values chosen (spec section 4):
#   Figures 1-2: mixture weights 0.5 / 0.5 and component sd 0.1 (the paper
#     gives only n = 100 and the means 0.3, 0.7); h = 0.1, epsilon = 1,
#     delta = 0.1, 1000-point grid on [0, 1], calibration "hall" (the paper's).
#   Figure 3 (nothing is specified): n = 1000 uniform on [0, 1]^2, label +1
#     inside the circle of radius 0.3 about (0.5, 0.5), 5% of labels flipped,
#     bias-free hinge SVM with lambda = 0.01, Gaussian kernel h = 0.1,
#     epsilon = 1, delta = 0.1, calibration "hall", 100 x 100 grid.

hall_mixture <- function(n) {
  comp <- stats::rbinom(n, 1, 0.5)
  ifelse(comp == 1, stats::rnorm(n, 0.7, 0.1), stats::rnorm(n, 0.3, 0.1))
}

fig_hall_kde <- function(out_dir) {
  dp_reproducible(SEED + 10)
  file <- "hall-fig1-fig2-kde.png"
  x <- hall_mixture(100)
  grid <- seq(0, 1, length.out = 1000)
  f <- kde_gaussian(x, grid, 0.1, domain = c(0, 1))   # (the data clamped to [0, 1], as the releases' targets)
  r1 <- dp_kde(x, grid, 0.1, epsilon = 1, delta = 0.1, mechanism = "gp", calibration = "hall", domain = c(0, 1))
  r2 <- dp_kde(x, grid, 0.1, epsilon = 1, delta = 0.1, mechanism = "sobolev", calibration = "hall",
               domain = c(0, 1))
  yl <- range(f$values, r1$values$values, r2$values$values)
  open_png(file.path(out_dir, file), height = 500)
  op <- graphics::par(mfrow = c(1, 2), mar = c(4, 4, 3, 1))
  for (r in list(r1, r2)) {
    graphics::plot(grid, f$values[1, ], type = "l", lwd = 2, ylim = yl, xlab = "x", ylab = "density",
                   cex.main = 1, main = sprintf("Figure %d: %s\nnoise scale %.4f",
                                  if (identical(r, r1)) 1L else 2L,
                                  if (identical(r, r1)) "Gaussian-kernel GP (4.1)" else "Sobolev / OU (4.2)",
                                  r$noise_scale))
    graphics::lines(grid, r$values$values[1, ], col = "blue")
    graphics::legend("topright", c("KDE (non-private)", "released"), col = c("black", "blue"),
                     lwd = c(2, 1), bty = "n", cex = 0.8)
  }
  graphics::par(op)
  grDevices::dev.off()
  rms <- function(r) sqrt(mean((r$values$values - f$values)^2))
  list(
    title = "Hall et al., Figures 1 and 2: private kernel density estimates",
    file = file,
    text = paste(
      "n = 100 points from the mixture of N(0.3, 0.1^2) and N(0.7, 0.1^2) with equal weights",
      "(the paper gives only the means; weights and sd are our choice), Gaussian KDE with",
      "h = 0.1 (black), released on 1000 grid points of [0, 1] (blue) with epsilon = 1,",
      "delta = 0.1 and the paper's calibration c(delta) Delta / epsilon. Left: noise from the",
      "Gaussian-kernel GP (Section 4.1), smooth; right: the Sobolev mechanism (Section 4.2),",
      "OU noise exp(-|x - y| / h) drawn by the exact AR(1) sampler, rough, as the paper notes.",
      "The noise scales match the paper's settings: 0.1381 and 0.3092."),
    table = data.frame(mechanism = c("gp (Fig. 1)", "sobolev (Fig. 2)"),
                       sensitivity = c(r1$sensitivity, r2$sensitivity),
                       `noise scale` = c(r1$noise_scale, r2$noise_scale),
                       `rms(released - KDE)` = c(rms(r1), rms(r2)),
                       sampler = c(r1$sampler, r2$sampler), check.names = FALSE)
  )
}

fig_hall_svm <- function(out_dir) {
  dp_reproducible(SEED + 11)
  file <- "hall-fig3-svm.png"
  n <- 1000
  x <- matrix(stats::runif(2 * n), n, 2)
  y <- ifelse(sqrt(rowSums((x - 0.5)^2)) < 0.3, 1, -1)
  flip <- sample(n, round(0.05 * n))
  y[flip] <- -y[flip]
  axes <- list(seq(0, 1, length.out = 100), seq(0, 1, length.out = 100))
  grid <- as.matrix(expand.grid(axes))
  k <- kernel_gaussian(0.1)
  fit <- svm_fit(x, y, lambda = 0.01, kernel = k)
  f <- predict(fit, grid)
  r <- dp_svm(x, y, lambda = 0.01, kernel = k, grid = axes, epsilon = 1, delta = 0.1,
              calibration = "hall", strict = FALSE)
  ft <- predict(r)
  agree <- mean(sign(f) == sign(ft))
  open_png(file.path(out_dir, file), width = 700, height = 1300)
  op <- graphics::par(mfrow = c(2, 1), mar = c(4, 4, 3, 1))
  cols <- c(grDevices::adjustcolor("tomato", 0.35), grDevices::adjustcolor("steelblue", 0.35))
  for (panel in 1:2) {
    z <- matrix(if (panel == 1) sign(f) else sign(ft), 100, 100)
    graphics::image(axes[[1]], axes[[2]], z, col = cols, breaks = c(-2, 0, 2), xlab = "x1", ylab = "x2",
                    main = if (panel == 1) "Figure 3 (top): non-private kernel SVM" else
                      sprintf("Figure 3 (bottom): private SVM, scale %.4f", r$noise_scale), cex.main = 1)
    graphics::points(x, pch = 20, cex = 0.5, col = ifelse(y > 0, "steelblue4", "tomato3"))
  }
  graphics::par(op)
  grDevices::dev.off()
  list(
    title = "Hall et al., Figure 3: private kernel SVM in R^2",
    file = file,
    text = paste(
      "The paper specifies nothing but the Gaussian kernel; our settings (spec section 4.3):",
      "n = 1000 points uniform on the unit square, label +1 inside the circle of radius 0.3 about",
      "(0.5, 0.5) with 5% of labels flipped, bias-free hinge-loss SVM with lambda = 0.01 and",
      "Gaussian kernel h = 0.1 solved by dual coordinate ascent in C, sensitivity 1 / (lambda n) = 0.1,",
      "epsilon = 1, delta = 0.1, calibration \"hall\", released on a 100 x 100 grid (Kronecker sampler).",
      "Background: predicted class; points: training data (shown for illustration only: evaluating",
      "the release at the private training points would not be private)."),
    table = data.frame(quantity = c("sensitivity", "noise scale", "share of grid cells with unchanged class",
                                    "duality gap of the fit"),
                       value = c(r$sensitivity, r$noise_scale, agree, fit$gap))
  )
}
