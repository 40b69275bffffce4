# Install the named CRAN packages that are missing or too old into the
# project library (used by the Makefile).
#
#   Rscript tools/install-deps.R [--lib=DIR] pkg [pkg>=version ...]
#
# DIR defaults to the first entry of R_LIBS (the Makefile exports .Rlib/
# there), so nothing is written to the site or user library. Packages come
# from the user's `repos` option; CRAN's cloud mirror is the fallback when no
# repository is set (or only the "@CRAN@" placeholder).
args <- commandArgs(trailingOnly = TRUE)
lib_arg <- grep("^--lib=", args, value = TRUE)
args <- setdiff(args, lib_arg)
lib <- if (length(lib_arg)) sub("^--lib=", "", lib_arg[1]) else
  strsplit(Sys.getenv("R_LIBS"), .Platform$path.sep, fixed = TRUE)[[1]][1]
if (is.na(lib) || !nzchar(lib)) stop("no project library: give --lib=DIR or set R_LIBS")
dir.create(lib, recursive = TRUE, showWarnings = FALSE)
.libPaths(c(normalizePath(lib), .libPaths()))

repos <- getOption("repos")
repos <- repos[nzchar(repos) & repos != "@CRAN@"]
if (!length(repos)) repos <- c(CRAN = "https://cloud.r-project.org")
if (!"CRAN" %in% names(repos)) repos <- c(repos, CRAN = "https://cloud.r-project.org")

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
  message("installing into ", lib, ": ", paste(missing, collapse = ", "))
  options(Ncpus = max(1L, parallel::detectCores()))
  utils::install.packages(missing, lib = lib, repos = repos, quiet = TRUE)
  still <- pkgs[mapply(needed, pkgs, min_version)]
  if (length(still)) stop("could not install: ", paste(still, collapse = ", "))
}
