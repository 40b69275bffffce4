# Install the CRAN packages that are missing or too old into the project
# library (used by the Makefile).
#
#   Rscript tools/install-deps.R [--lib=DIR] [--imports] [--suggests=all|pkg,pkg]
#                                [pkg pkg>=version ...]
#
# --imports: every package of DESCRIPTION's Imports (with its version
# requirement; base packages left out). --suggests: all of DESCRIPTION's
# Suggests, or the named ones, with their version requirements; naming a
# package that DESCRIPTION does not suggest is an error, so each make target
# lists only what it uses and DESCRIPTION stays the one place of truth.
# Further packages (tools outside DESCRIPTION, e.g. the benchmark peers) are
# given by name.
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

# "pkg (>= 1.2)" fields of DESCRIPTION -> c("pkg>=1.2", ...)
desc_field <- function(field) {
  d <- read.dcf("DESCRIPTION", fields = field)[1L, 1L]
  if (is.na(d)) return(character())
  parts <- trimws(strsplit(gsub("\\s+", " ", d), ",")[[1]])
  parts <- parts[nzchar(parts)]
  name <- trimws(sub("\\(.*", "", parts))
  ver <- ifelse(grepl(">=", parts), trimws(sub(".*>=\\s*([^)]*)\\).*", "\\1", parts)), NA_character_)
  out <- ifelse(is.na(ver), name, paste0(name, ">=", ver))
  base <- rownames(utils::installed.packages(priority = "base"))
  out[!name %in% c(base, "R")]
}
from_desc <- character()
if ("--imports" %in% args) from_desc <- desc_field("Imports")
sug_arg <- grep("^--suggests=", args, value = TRUE)
if (length(sug_arg)) {
  sug <- desc_field("Suggests")
  want <- strsplit(sub("^--suggests=", "", sug_arg[1]), ",")[[1]]
  if (!identical(want, "all")) {
    sug_names <- sub(">=.*", "", sug)
    unknown <- setdiff(want, sug_names)
    if (length(unknown)) stop("not in DESCRIPTION's Suggests: ", paste(unknown, collapse = ", "))
    sug <- sug[sug_names %in% want]
  }
  from_desc <- c(from_desc, sug)
}
args <- c(from_desc, setdiff(args, c("--imports", sug_arg)))
args <- args[!duplicated(sub(">=.*", "", args))]

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
