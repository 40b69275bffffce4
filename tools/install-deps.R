# Install the named CRAN packages that are missing or too old (used by the
# Makefile). Arguments: package names, optionally with a minimum version,
# e.g. "evaluate>=1.0".
args <- commandArgs(trailingOnly = TRUE)
pkgs <- sub(">=.*", "", args)
min_version <- ifelse(grepl(">=", args), sub(".*>=", "", args), NA_character_)
# Installed (and recent enough)? Checked without loading namespaces, which
# could pin old versions of shared dependencies in this session.
needed <- function(p, v) {
  if (!nzchar(system.file(package = p))) return(TRUE)
  !is.na(v) && package_version(utils::packageDescription(p, fields = "Version")) < package_version(v)
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
  still <- pkgs[mapply(needed, pkgs, min_version)]
  if (length(still)) stop("could not install: ", paste(still, collapse = ", "))
}
