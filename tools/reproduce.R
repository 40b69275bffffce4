# tools/reproduce.R -- the `make demo` script.
#
# Run from the repository root with dpfda installed:
#     Rscript tools/reproduce.R
# It writes reproduce/*.png, reproduce/README.md (a Markdown report with one
# section per figure) and reproduce/index.html (the same beside what each
# paper reported, plus the benchmark output; DPFDA_DEMO_BENCH=0 skips the
# benchmarks).
#
# Structure: one function per figure, fig_<name>(out_dir). Each draws its
# PNG with base graphics and returns a section for the report:
#     list(title = , file = , text = , table = )
# where `text` is Markdown and `table` an optional data frame of measured
# numbers. To add a figure (e.g. Hall et al. Figs 1-3), write another
# fig_*() function and append it to `figures` in main() at the bottom.
#
# Noise is drawn in the package's *seeded* mode so that the report is
# reproducible: each figure calls dp_reproducible(<its own seed>) so that
# adding or reordering sections does not change the others. Seeded noise is
# NOT private; main() restores the secure noise source when it finishes.

if (!requireNamespace("dpfda", quietly = TRUE) && dir.exists(".Rlib")) {
  .libPaths(c(normalizePath(".Rlib"), .libPaths()))   # the Makefile's library
}
suppressPackageStartupMessages(library(dpfda))

SEED <- 2026

# `make demo` draws every figure at a size that keeps the whole run to a few
# minutes; `make demo FULL=1` (DPFDA_DEMO_FULL=1) uses the papers' scale and
# also runs the benchmarks. Figure code picks its sizes with demo_size().
DEMO_FULL <- identical(Sys.getenv("DPFDA_DEMO_FULL"), "1")
demo_size <- function(quick, full) if (DEMO_FULL) full else quick

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

# Open a PNG device of the report's standard size.
open_png <- function(file, width = 1100, height = 850) {
  grDevices::png(file, width = width, height = height, res = 110)
}

# A data frame as a Markdown table (numbers formatted to `digits`).
md_table <- function(df, digits = 4) {
  cells <- lapply(df, function(col) {
    if (is.numeric(col)) ifelse(is.na(col), "--", formatC(col, digits = digits, format = "g"))
    else as.character(col)
  })
  cells <- as.data.frame(cells, stringsAsFactors = FALSE, check.names = FALSE)
  c(paste0("| ", paste(names(df), collapse = " | "), " |"),
    paste0("|", paste(rep("---", ncol(df)), collapse = "|"), "|"),
    apply(cells, 1L, function(r) paste0("| ", paste(r, collapse = " | "), " |")))
}

# Run one figure function and report what it wrote and how long it took
# (one line of progress per figure, "[i/N] name ... seconds").
run_figure <- function(fig, name, i, n, out_dir) {
  message(sprintf("  [%2d/%d] %-24s", i, n, sub("^fig_", "", name)), appendLF = FALSE)
  t0 <- proc.time()[["elapsed"]]
  sec <- fig(out_dir)
  sec$seconds <- proc.time()[["elapsed"]] - t0
  message(sprintf(" %-28s %5.1f s", sec$file, sec$seconds))
  sec
}

# ---------------------------------------------------------------------------
# Figure: the four Gaussian-process samplers
# ---------------------------------------------------------------------------

fig_gp_samplers <- function(out_dir) {
  dp_reproducible(SEED)
  file <- "gp-samplers.png"
  n <- 5L

  # cholesky: any kernel on any points (here irregular points)
  t_irr <- sort(stats::runif(150))
  g_chol <- rgp(n, kernel_gaussian(0.1), t_irr, method = "cholesky")
  # markov: exponential (Ornstein-Uhlenbeck) kernel, exact AR(1) recursion
  g_mark <- rgp(n, kernel_exponential(0.2), seq(0, 1, length.out = 2000), method = "markov")
  # kronecker: separable Gaussian kernel on a 2-D tensor grid
  axes <- list(seq(0, 1, length.out = 80), seq(0, 1, length.out = 60))
  g_kron <- rgp(1, kernel_gaussian(c(0.1, 0.25)), axes, method = "kronecker")
  # circulant: Matern 3/2 on a regular grid, circulant embedding + FFT
  g_circ <- rgp(n, kernel_matern(3 / 2, 0.05), seq(0, 1, length.out = 4096), method = "circulant")

  open_png(file.path(out_dir, file))
  op <- graphics::par(mfrow = c(2, 2), mar = c(4, 4, 3, 1))
  plot(g_chol, main = sprintf("cholesky: Gaussian, l = 0.1, %d irregular points", length(t_irr)))
  graphics::rug(t_irr, ticksize = 0.02, col = "grey50")
  plot(g_mark, main = "markov: exponential (OU), l = 0.2, 2000 points")
  plot(g_kron, main = "kronecker: Gaussian, l = (0.1, 0.25), 80 x 60 grid")
  plot(g_circ, main = "circulant: Matern 3/2, l = 0.05, 4096 points")
  graphics::par(op)
  grDevices::dev.off()

  jit <- c(g_chol$jitter, g_mark$jitter, g_kron$jitter, g_circ$jitter)
  list(
    title = "Gaussian-process paths from the four samplers",
    file = file,
    text = paste(
      "Sample paths of the centred Gaussian process drawn by each exact sampler of `rgp()`:",
      "`cholesky` (dense Gram matrix, any kernel on any points; here 150 irregular points,",
      "marked by the rug), `markov` (exact AR(1) recursion for the exponential kernel, O(m)),",
      "`kronecker` (separable kernel on a tensor grid; one path shown as an image with contours)",
      "and `circulant` (circulant embedding and FFT on a regular grid).",
      sprintf("Seeded mode, `dp_reproducible(%d)`.", SEED)),
    table = data.frame(sampler = c("cholesky", "markov", "kronecker", "circulant"),
                       kernel = c("Gaussian l = 0.1", "exponential l = 0.2",
                                  "Gaussian l = (0.1, 0.25)", "Matern 3/2 l = 0.05"),
                       points = c(length(t_irr), 2000, prod(lengths(axes)), 4096),
                       paths = c(n, n, 1, n),
                       `jitter added` = jit, check.names = FALSE)
  )
}

# ---------------------------------------------------------------------------
# Figure: empirical covariance of each sampler against the kernel
# ---------------------------------------------------------------------------

fig_gp_covariance <- function(out_dir) {
  dp_reproducible(SEED + 1)
  file <- "gp-covariance.png"
  N <- 20000L
  t <- seq(0, 1, length.out = 15)
  tt <- seq(0, 1, length.out = 400)

  # Empirical covariance with the known zero mean: crossprod(X) / N. Its
  # Monte Carlo standard error for entry (i, j) is
  # sqrt((K_ii K_jj + K_ij^2) / N).
  emp_cov <- function(X) crossprod(X) / nrow(X)
  mc_se <- function(K) sqrt((outer(diag(K), diag(K)) + K^2) / N)

  # Draw N paths on t with each sampler; kronecker needs a tensor grid, so it
  # samples on t x {0}, which has the same covariance for the L1 exponential.
  draw <- function(kernel, sampler) {
    if (sampler == "kronecker") {
      rgp(N, kernel, list(t, 0), method = "kronecker")$values
    } else {
      g <- rgp(N, kernel, t, method = sampler)
      stopifnot(g$method == sampler)
      g$values
    }
  }
  cases <- list(
    list(name = "exponential (OU), l = 0.3", kernel = kernel_exponential(0.3),
         samplers = c("cholesky", "markov", "kronecker", "circulant")),
    list(name = "Matern 3/2, l = 0.3", kernel = kernel_matern(3 / 2, 0.3),
         samplers = c("cholesky", "circulant"))
  )
  cols <- c(cholesky = "#1b9e77", markov = "#d95f02", kronecker = "#7570b3", circulant = "#e7298a")
  pchs <- c(cholesky = 1, markov = 2, kronecker = 0, circulant = 4)
  offs <- c(cholesky = -1.5, markov = -0.5, kronecker = 0.5, circulant = 1.5) * 0.006

  rows <- list()
  for (i in seq_along(cases)) {
    cs <- cases[[i]]
    K <- kernel_matrix(cs$kernel, t)
    se <- mc_se(K)
    cases[[i]]$emp <- lapply(stats::setNames(cs$samplers, cs$samplers), function(s) {
      C <- emp_cov(draw(cs$kernel, s))
      rows[[length(rows) + 1L]] <<- data.frame(
        kernel = cs$name, sampler = s,
        `max abs(empirical - exact)` = max(abs(C - K)),
        `max abs z` = max(abs(C - K) / se),
        `first row: max abs z` = max(abs(C[1, ] - K[1, ]) / se[1, ]), check.names = FALSE)
      C
    })
    cases[[i]]$K <- K
    cases[[i]]$se <- se
  }
  tab <- do.call(rbind, rows)

  open_png(file.path(out_dir, file))
  op <- graphics::par(mfrow = c(2, 2), mar = c(4, 4.2, 3, 1))
  # top row: k(0, t) exact (line) and empirical (points, slightly offset)
  for (cs in cases) {
    exact <- kernel_matrix(cs$kernel, tt, 0)
    graphics::plot(tt, exact, type = "l", lwd = 2, ylim = c(-0.05, 1.05),
                   xlab = "t", ylab = "cov(g(0), g(t))",
                   main = sprintf("%s, %d paths per sampler", cs$name, N), cex.main = 0.95)
    for (s in cs$samplers) {
      graphics::points(t + offs[[s]], cs$emp[[s]][1, ], col = cols[[s]], pch = pchs[[s]], cex = 1.1)
    }
    graphics::legend("topright", c("kernel k(0, t)", cs$samplers), lwd = c(2, rep(NA, length(cs$samplers))),
                     pch = c(NA, pchs[cs$samplers]), col = c("black", cols[cs$samplers]), bty = "n")
  }
  # bottom row: empirical - exact with a +/- 2 Monte Carlo standard error band
  for (cs in cases) {
    lim <- 4 * max(cs$se[1, ])
    graphics::plot(range(t), c(-lim, lim), type = "n", xlab = "t",
                   ylab = "empirical - exact, first row",
                   main = "error of the first row, +/- 2 Monte Carlo s.e. shaded", cex.main = 0.95)
    graphics::polygon(c(t, rev(t)), c(2 * cs$se[1, ], rev(-2 * cs$se[1, ])),
                      col = grDevices::adjustcolor("grey70", 0.5), border = NA)
    graphics::abline(h = 0, col = "grey40")
    for (s in cs$samplers) {
      graphics::points(t + offs[[s]], cs$emp[[s]][1, ] - cs$K[1, ], col = cols[[s]], pch = pchs[[s]],
                       type = "b", lty = 3)
    }
  }
  graphics::par(op)
  grDevices::dev.off()

  list(
    title = "Empirical covariance of each sampler against the kernel",
    file = file,
    text = paste(
      sprintf("For 15 equally spaced points of [0, 1], %d paths were drawn by each applicable", N),
      "sampler and their empirical covariance (with the known zero mean) compared with the",
      "kernel. Top: the first row k(0, t) (points, offset slightly for legibility) against",
      "the exact kernel (line). Bottom: the error of the first row with a band of +/- 2 Monte",
      "Carlo standard errors, sqrt((k(s,s) k(t,t) + k(s,t)^2) / N). `kronecker` samples the",
      "tensor grid t x {0}, whose L1-exponential covariance is that of t. `markov` and",
      "`kronecker` do not apply to the Matern kernel. The table gives, over all 15 x 15",
      "entries, the largest absolute error and the largest error in standard errors",
      "(|z| up to about 4 is expected from 120 distinct, correlated entries)."),
    table = tab
  )
}

# ---------------------------------------------------------------------------
# Figure: noise calibration sigma / Delta against epsilon
# ---------------------------------------------------------------------------

fig_calibration <- function(out_dir) {
  file <- "calibration.png"
  delta <- 1e-5
  eps <- 10^seq(-2, log10(20), length.out = 300)
  # dp_noise_scale() takes one epsilon at a time.
  # (the Hall scale beyond epsilon = 1 is computed to show where it fails: its warning is the point here)
  scale <- function(e, cal, ...) {
    suppressWarnings(dp_noise_scale(1, e, delta, calibration = cal, ...), classes = "dpfda_warning_privacy")
  }
  s_an <- vapply(eps, scale, 1, cal = "analytic")
  s_hall <- vapply(eps, scale, 1, cal = "hall", allow_large_epsilon = TRUE)
  small <- eps < 1
  s_cl <- rep(NA_real_, length(eps))
  s_cl[small] <- vapply(eps[small], scale, 1, cal = "classical")
  # Where does the Hall et al. scale stop being (epsilon, delta)-DP? Exact
  # privacy profile of the Gaussian mechanism (Balle and Wang 2018).
  hall_excess <- function(e) {
    gaussian_delta(e, scale(e, "hall", allow_large_epsilon = TRUE), 1) - delta
  }
  hall_fails <- eps[vapply(eps, hall_excess, 1) > 0]
  if (length(hall_fails)) {   # the exact crossing, between two grid points
    i <- match(min(hall_fails), eps)
    hall_fails <- c(stats::uniroot(hall_excess, eps[c(i - 1L, i)], tol = 1e-8)$root, hall_fails)
  }

  open_png(file.path(out_dir, file), height = 600)
  op <- graphics::par(mfrow = c(1, 2), mar = c(4.2, 4.4, 3, 1))
  cols <- c(analytic = "black", hall = "#1f78b4", classical = "#e31a1c")
  eps_ticks <- c(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20)
  graphics::plot(eps, s_an, log = "xy", type = "l", lwd = 2, col = cols[["analytic"]],
                 ylim = range(s_an, s_hall, s_cl, na.rm = TRUE), xaxt = "n", yaxt = "n",
                 xlab = expression(epsilon), ylab = expression(sigma / Delta),
                 main = "Noise multiplier, delta = 1e-5", cex.main = 0.95)
  graphics::axis(1, at = eps_ticks, labels = format(eps_ticks, drop0trailing = TRUE, trim = TRUE))
  s_ticks <- c(0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500)
  graphics::axis(2, at = s_ticks, labels = format(s_ticks, drop0trailing = TRUE, trim = TRUE), las = 1)
  graphics::lines(eps[eps <= 1], s_hall[eps <= 1], lwd = 2, col = cols[["hall"]])
  graphics::lines(eps[eps >= 1], s_hall[eps >= 1], lwd = 2, lty = 2, col = cols[["hall"]])
  graphics::lines(eps, s_cl, lwd = 2, col = cols[["classical"]])
  graphics::abline(v = 1, lty = 3, col = "grey50")
  graphics::legend("bottomleft", bty = "n", lwd = 2, cex = 0.85, lty = c(1, 1, 2, 1),
                   col = cols[c("analytic", "hall", "hall", "classical")],
                   legend = c("analytic (Balle & Wang)", "hall: c(delta) / epsilon",
                              "hall beyond its proof (epsilon > 1)",
                              "classical (epsilon < 1)"))
  # right: ratio to the analytic calibration (extra noise paid)
  graphics::plot(eps, s_hall / s_an, log = "x", type = "n",
                 ylim = c(0, max(s_hall / s_an, s_cl / s_an, na.rm = TRUE)), xaxt = "n",
                 xlab = expression(epsilon), ylab = "sigma / sigma(analytic)",
                 main = "Noise relative to the analytic calibration", cex.main = 0.95)
  graphics::axis(1, at = eps_ticks, labels = format(eps_ticks, drop0trailing = TRUE, trim = TRUE))
  if (length(hall_fails)) {
    graphics::rect(min(hall_fails), -1, max(eps) * 2, 1e3, border = NA,
                   col = grDevices::adjustcolor("#e31a1c", 0.12))
    graphics::text(min(hall_fails), 0.15, sprintf("hall not DP from eps = %.3g", min(hall_fails)),
                   adj = c(1.03, 0.5), cex = 0.8, col = "#e31a1c")
  }
  graphics::abline(h = 1, col = cols[["analytic"]], lwd = 2)
  graphics::lines(eps[eps <= 1], (s_hall / s_an)[eps <= 1], lwd = 2, col = cols[["hall"]])
  graphics::lines(eps[eps >= 1], (s_hall / s_an)[eps >= 1], lwd = 2, lty = 2, col = cols[["hall"]])
  graphics::lines(eps, s_cl / s_an, lwd = 2, col = cols[["classical"]])
  graphics::abline(v = 1, lty = 3, col = "grey50")
  graphics::par(op)
  grDevices::dev.off()

  at <- c(0.1, 0.5, 1)
  tab <- data.frame(
    epsilon = at,
    analytic = vapply(at, scale, 1, cal = "analytic"),
    hall = vapply(at, scale, 1, cal = "hall"),
    classical = vapply(at, function(e) if (e < 1) scale(e, "classical") else NA_real_, 1))
  list(
    title = "Calibration of the Gaussian noise",
    file = file,
    text = paste(
      "The noise multiplier sigma / Delta returned by `dp_noise_scale(1, epsilon, 1e-5,",
      "calibration = ...)`: `analytic` (the smallest sigma satisfying the exact privacy profile",
      "of Balle and Wang 2018, valid for every epsilon), `hall` (c(delta) / epsilon of Hall,",
      "Rinaldo and Wasserman, proven for epsilon <= 1; drawn dashed beyond 1, where it needs",
      "`allow_large_epsilon = TRUE`) and `classical` (sqrt(2 log(1.25 / delta)) / epsilon,",
      "epsilon < 1 only). Right: the ratio to the analytic multiplier.",
      if (length(hall_fails)) {
        sprintf(paste("Checked with the exact profile (`gaussian_delta()`), the `hall` multiplier",
                      "is not (epsilon, 1e-5)-DP from epsilon = %.3g on (shaded)."), min(hall_fails))
      } else {
        "Checked with the exact profile (`gaussian_delta()`), the `hall` multiplier stays DP on the whole range."
      },
      "The table gives sigma for Delta = 1 and delta = 1e-5 (classical is undefined at epsilon = 1)."),
    table = tab
  )
}

# ---------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------

write_readme <- function(sections, out_dir, total_seconds) {
  md <- c(
    "# dpfda: reproduced figures",
    "",
    sprintf("Generated on %s by `tools/reproduce.R` (`make demo`) with dpfda %s on %s.",
            format(Sys.Date()), format(utils::packageVersion("dpfda")), R.version.string),
    "",
    sprintf(paste("Random draws use the seeded noise source (`dp_reproducible(%d)`, offset per",
                  "figure), so the figures are reproducible and the noise in them is **not private**."),
            SEED),
    "",
    sprintf("Total run time %.1f s.", total_seconds),
    "",
    "## Contents",
    "",
    sprintf("%d. [%s](#%s)", seq_along(sections), vapply(sections, `[[`, "", "title"),
            gsub("[^a-z0-9-]", "", gsub(" ", "-", tolower(vapply(sections, `[[`, "", "title")))))
  )
  for (sec in sections) {
    md <- c(md, "", paste("##", sec$title), "", strwrap(sec$text, width = 100), "",
            sprintf("![%s](%s)", sec$title, sec$file))
    if (!is.null(sec$table)) md <- c(md, "", md_table(sec$table))
  }
  writeLines(md, file.path(out_dir, "README.md"))
}

# The one-page HTML report (reproduce/index.html): per section our figure,
# text and table beside what the paper reported (tools/reproduce/
# paper-claims.R), then the benchmark output.
write_html <- function(sections, out_dir, total_seconds, bench) {
  md <- function(x) markdown::mark(paste(x, collapse = "\n"), options = "-embed_resources")   # images stay links
  esc <- function(x) gsub("<", "&lt;", gsub("&", "&amp;", x))
  claims <- if (exists("paper_claims")) paper_claims() else list()
  anchor <- function(t) gsub("[^a-z0-9-]", "", gsub(" ", "-", tolower(t)))
  css <- paste(
    "body{font-family:sans-serif;max-width:1500px;margin:auto;padding:1em;line-height:1.4}",
    ".sec{display:flex;gap:1.5em;border-top:1px solid #ccc;padding-top:.5em}",
    ".ours{flex:3;min-width:0}.paper{flex:1.3;background:#f6f6f0;padding:.2em 1em;font-size:.95em}",
    "img{max-width:100%}table{border-collapse:collapse;font-size:.85em;display:block;overflow-x:auto}",
    "td,th{border:1px solid #ddd;padding:2px 6px}pre{background:#f4f4f4;padding:.5em;overflow-x:auto}")
  body <- c(
    "<h1>dpfda: reproduced figures and tables</h1>",
    md(c(sprintf("Generated on %s by `tools/reproduce.R` (`make demo`) with dpfda %s on %s; total %.0f s.",
                 format(Sys.Date()), format(utils::packageVersion("dpfda")), R.version.string, total_seconds),
         "",
         sprintf(paste("Random draws use the seeded noise source (`dp_reproducible(%d)`, offset per figure):",
                       "the figures are reproducible and their noise is **not private**."), SEED))),
    "<h2>Contents</h2><ol>",
    sprintf("<li><a href=\"#%s\">%s</a></li>", vapply(sections, function(s) anchor(s$title), ""),
            vapply(sections, function(s) esc(s$title), "")),
    if (length(bench)) "<li><a href=\"#benchmarks\">Benchmarks</a></li>",
    "</ol>")
  for (sec in sections) {
    claim <- claims[[sec$file]]
    body <- c(body, sprintf("<h2 id=\"%s\">%s</h2>", anchor(sec$title), esc(sec$title)),
              "<div class=\"sec\"><div class=\"ours\">",
              sprintf("<img src=\"%s\" alt=\"%s\">", sec$file, esc(sec$title)), md(sec$text),
              if (!is.null(sec$table)) md(md_table(sec$table)),
              sprintf("<p><small>%.1f s</small></p>", sec$seconds),
              "</div><div class=\"paper\"><h3>What the paper reported</h3>",
              if (is.null(claim)) "<p>(no note)</p>" else md(claim), "</div></div>")
  }
  if (length(bench)) {
    body <- c(body, "<h2 id=\"benchmarks\">Benchmarks</h2>",
              md(paste("Output of the `bench/` scripts (dpfda against what a user would otherwise use), from",
                 if (DEMO_FULL) "this run (`make demo FULL=1`)." else "the last `make bench` (`reproduce/bench.txt`).")))
    for (b in names(bench)) body <- c(body, sprintf("<h3>%s</h3><pre>%s</pre>", b, esc(paste(bench[[b]], collapse = "\n"))))
  }
  html <- c("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>dpfda: reproduced figures</title>",
            sprintf("<style>%s</style></head><body>", css), body, "</body></html>")
  writeLines(html, file.path(out_dir, "index.html"))
}

# The benchmark output for the report: `make demo FULL=1` runs the bench/
# scripts (DPFDA_DEMO_BENCH=0 skips them); the quick demo shows the output of
# the last `make bench` (reproduce/bench.txt) when there is one.
run_benchmarks <- function(out_dir) {
  txt <- file.path(out_dir, "bench.txt")
  if (!DEMO_FULL || identical(Sys.getenv("DPFDA_DEMO_BENCH"), "0") || !dir.exists("bench")) {
    if (!file.exists(txt)) return(list())
    lines <- readLines(txt)
    starts <- grep("^== ", lines)
    ends <- c(starts[-1] - 1L, length(lines))
    return(stats::setNames(lapply(seq_along(starts), function(i) lines[seq.int(starts[i] + 1L, length.out = ends[i] - starts[i])]),
                           sub("^== (bench/)?", "", lines[starts])))
  }
  out <- list()
  for (f in sort(list.files("bench", pattern = "^bench-.*[.]R$", full.names = TRUE))) {
    t0 <- proc.time()[["elapsed"]]
    res <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), f, stdout = TRUE, stderr = TRUE,
                                    env = c("BENCH_REPS=3", "DPFDA_BENCH_PGD_CAP=20")))
    out[[basename(f)]] <- res
    message(sprintf("  %-28s %5.1f s", basename(f), proc.time()[["elapsed"]] - t0))
  }
  writeLines(unlist(lapply(names(out), function(b) c(paste("==", b), out[[b]]))), txt)
  out
}

main <- function(out_dir = "reproduce") {
  dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
  on.exit(dp_rng("secure"), add = TRUE)   # never leave the session seeded
  # The papers' settings include epsilon > 10, delta >= 1/n and releases that
  # are mostly noise, on purpose; the report says so beside each figure, so
  # the console warnings meant for users' own analyses are off here.
  op <- options(dpfda.privacy_warnings = FALSE, dpfda.utility_warning = FALSE)
  on.exit(options(op), add = TRUE)
  # One function per figure, in report order; add later sections here.
  figures <- c("fig_gp_samplers", "fig_gp_covariance", "fig_calibration", "fig_hall_kde", "fig_hall_svm",
               "fig_smith_kung", "fig_smith_oxboys", "fig_smith_toy", "fig_smith_spatial",
               "fig_alda_kde", "fig_alda_svm", "fig_alda_vs_gp",
               "fig_lin_table1", "fig_lin_fig1", "fig_lin_fig2", "fig_lin_fig3", "fig_lin_fig4",
               "fig_lin_table2", "fig_lin_table3", "fig_balog_fig1", "fig_balog_alg2", "fig_audit",
               "fig_explore")
  only <- Sys.getenv("DPFDA_DEMO_ONLY")          # a regular expression on the names, for development
  if (nzchar(only)) figures <- grep(only, figures, value = TRUE)
  message(sprintf("Writing %s (%s run; %d figures):", normalizePath(out_dir),
                  if (DEMO_FULL) "full, FULL=1" else "quick", length(figures)))
  t0 <- proc.time()[["elapsed"]]
  sections <- lapply(seq_along(figures), function(i)
    run_figure(get(figures[i]), figures[i], i, length(figures), out_dir))
  total <- proc.time()[["elapsed"]] - t0
  write_readme(sections, out_dir, total)
  bench <- run_benchmarks(out_dir)
  write_html(sections, out_dir, total, bench)
  dp_rng("secure")
  message(sprintf("  %-28s done in %.1f s; noise source back to \"%s\"", "README.md", total, dp_rng()))
  invisible(sections)
}

# The papers' figures live in tools/reproduce/<paper>.R.
for (f in sort(list.files("tools/reproduce", pattern = "[.]R$", full.names = TRUE))) source(f)

main()
