# Install the named CRAN packages that are missing or too old (used by the
# Makefile). Arguments: package names, optionally with a minimum version,
# e.g. "evaluate>=1.0".
args <- commandArgs(trailingOnly = TRUE)
pkgs <- sub(">=.*", "", args)
min_version <- ifelse(grepl(">=", args), sub(".*>=", "", args), NA_character_)
needed <- function(p, v) {
  if (!requireNamespace(p, quietly = TRUE)) return(TRUE)
  !is.na(v) && utils::packageVersion(p) < package_version(v)
}
missing <- pkgs[mapply(needed, pkgs, min_version)]
if (length(missing)) {
  lib <- .libPaths()[1]
  if (file.access(lib, 2) != 0) {
    lib <- Sys.getenv("R_LIBS_USER")
    dir.create(lib, recursive = TRUE, showWarnings = FALSE)
    .libPaths(c(lib, .libPaths()))
  }
  options(Ncpus = max(1L, parallel::detectCores()))
  install.packages(missing, lib = lib, repos = "https://cloud.r-project.org")
  for (p in missing) if (isNamespaceLoaded(p)) unloadNamespace(p)
  still <- pkgs[mapply(needed, pkgs, min_version)]
  if (length(still)) stop("could not install: ", paste(still, collapse = ", "))
}
