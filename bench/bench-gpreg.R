# dp_gp_regression(): the standard mechanism (Hall et al.'s GP noise with the
# sensitivity from K^{-1}) against cloaking (Smith et al.), n = 2000 training
# points, 100 test points (issue 19: standard <= cloaking, both <= 1 s).
# Also prints the LAPACK floor both share: one Cholesky factor of the n x n
# training covariance (chol()), and the extra floor of the standard method:
# the inverse K^{-1} from that factor (chol2inv(), dpotri), whose row
# functionals set its sensitivity.
# Run: R_LIBS=<lib with dpfda> Rscript bench/bench-gpreg.R
if (!requireNamespace("dpfda", quietly = TRUE) && dir.exists(".Rlib")) {
  .libPaths(c(normalizePath(".Rlib"), .libPaths()))
}
suppressPackageStartupMessages(library(dpfda))
source("bench/timing.R")   # med(), fmt_s(), verdict(), bench_ratio()
reps <- as.integer(Sys.getenv("BENCH_REPS", "3"))
set.seed(1)
n <- 2000L
x <- runif(n)
y <- sin(6 * x) + rnorm(n, sd = 0.3)
nd <- seq(0, 1, length.out = 100)
k <- kernel_gaussian(0.1)
run <- function(method) dp_gp_regression(x, y, nd, k, 0.09, c(-2, 2), 1, 1e-3, method = method)
t_std <- med(function() run("standard"), reps)
t_clo <- med(function() run("cloaking"), reps)
K <- kernel_matrix(k, x) + diag(0.09, n)
t_chol <- med(function() chol(K), reps)
t_inv <- med(function() chol2inv(chol(K)), reps)
cat(sprintf("n = %d, 100 test points, median of %d: standard %s, cloaking %s; floors: chol() %s, chol2inv(chol()) %s\n",
            n, reps, fmt_s(t_std), fmt_s(t_clo), fmt_s(t_chol), fmt_s(t_inv)))
bench_ratio("dp_gp_regression standard / cloaking, n = 2000", t_std, t_clo, "cloaking", 1)
bench_ratio("dp_gp_regression standard / LAPACK floor (chol + inverse)", t_std, t_inv, "chol2inv(chol())", 1.2)
verdict(t_std <= 1 && t_clo <= 1, sprintf("both methods <= 1 s (standard %s, cloaking %s)", fmt_s(t_std), fmt_s(t_clo)))
