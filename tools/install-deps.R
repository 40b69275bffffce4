# Install the named CRAN packages that are missing (used by the Makefile).
pkgs <- commandArgs(trailingOnly = TRUE)
missing <- pkgs[!vapply(pkgs, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing)) {
  lib <- .libPaths()[1]
  if (file.access(lib, 2) != 0) {
    lib <- Sys.getenv("R_LIBS_USER")
    dir.create(lib, recursive = TRUE, showWarnings = FALSE)
    .libPaths(c(lib, .libPaths()))
  }
  options(Ncpus = max(1L, parallel::detectCores()))
  install.packages(missing, lib = lib, repos = "https://cloud.r-project.org")
  still <- missing[!vapply(missing, requireNamespace, logical(1), quietly = TRUE)]
  if (length(still)) stop("could not install: ", paste(still, collapse = ", "))
}
