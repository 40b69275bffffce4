# Install the CRAN packages that are missing or too old into the project
# library (used by the Makefile).
#
#   Rscript tools/install-deps.R [--lib=DIR] [--imports] [--suggests=all|pkg,pkg]
#                                [--dry-run] [pkg pkg>=version ...]
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
dry_run <- "--dry-run" %in% args
args <- setdiff(args, "--dry-run")
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

# The whole dependency tree (Depends, Imports, LinkingTo), with the highest
# version any package in it asks of each member. An installed package (here,
# or prebuilt, e.g. from Debian's r-cran-* packages) is kept when its version
# meets every such requirement, and its own DESCRIPTION then says what it
# needs; otherwise the repository's version is installed into `lib` and the
# repository's index says what that one needs. install.packages() alone
# installs only what is absent, so an old prebuilt dependency would stay and
# fail to load. Repeated until no further package must be replaced.
db <- utils::available.packages(repos = repos)
split_reqs <- function(field) {
  if (is.null(field) || is.na(field) || !nzchar(field)) return(character())
  parts <- trimws(strsplit(gsub("\\s+", " ", field), ",")[[1]])
  parts[nzchar(parts)]
}
base_pkgs <- rownames(utils::installed.packages(priority = "base"))
installed_version <- function(p) {
  if (!nzchar(system.file(package = p))) return(NA_character_)
  utils::packageDescription(p, fields = "Version")
}
# Absent, or older than v? Read without loading namespaces, which could pin
# old versions of shared dependencies in this session.
needed <- function(p, v) {
  have <- installed_version(p)
  is.na(have) || (!is.na(v) && package_version(have) < package_version(v))
}
reqs_of <- function(p, from_repo) {
  if (!from_repo) {
    d <- utils::packageDescription(p, fields = c("Depends", "Imports"))
    return(unlist(lapply(d, split_reqs)))
  }
  if (!p %in% rownames(db)) return(character())
  unlist(lapply(db[p, c("Depends", "Imports", "LinkingTo")], split_reqs))
}
tree_requirements <- function(replace) {
  required <- stats::setNames(min_version, pkgs)
  queue <- pkgs
  seen <- character()
  while (length(queue)) {
    p <- queue[1]; queue <- queue[-1]
    if (p %in% seen) next
    seen <- c(seen, p)
    from_repo <- p %in% replace || is.na(installed_version(p))
    for (r in reqs_of(p, from_repo)) {
      name <- trimws(sub("\\(.*", "", r))
      if (name %in% c("R", base_pkgs)) next
      ver <- if (grepl(">=", r)) trimws(sub(".*>=\\s*([^)]*)\\).*", "\\1", r)) else NA_character_
      old <- if (name %in% names(required)) required[[name]] else NA_character_
      if (!name %in% names(required) ||
          (!is.na(ver) && (is.na(old) || package_version(ver) > package_version(old)))) {
        required[name] <- if (is.na(ver)) old else ver
      }
      if (!name %in% seen) queue <- c(queue, name)
    }
  }
  required
}
replace <- character()
repeat {
  required <- tree_requirements(replace)
  missing <- names(required)[mapply(needed, names(required), required)]
  if (all(missing %in% replace)) break
  replace <- union(replace, missing)
}
if (dry_run) {
  have <- vapply(names(required), installed_version, "")
  print(data.frame(package = names(required), required = required, installed = have,
                   install = names(required) %in% missing, row.names = NULL))
  quit(save = "no")
}
if (length(missing)) {
  message("installing into ", lib, ": ", paste(missing, collapse = ", "))
  cores <- max(1L, parallel::detectCores(), na.rm = TRUE)
  options(Ncpus = cores)
  # and make's jobs within a package: the C++ packages at the end of a dependency chain (dplyr,
  # RPostgres, websocket) otherwise compile one file at a time while the other core idles
  if (!nzchar(Sys.getenv("MAKEFLAGS"))) Sys.setenv(MAKEFLAGS = paste0("-j", cores))
  utils::install.packages(missing, lib = lib, repos = repos, quiet = TRUE)
  still <- pkgs[mapply(needed, pkgs, min_version)]
  if (length(still)) stop("could not install: ", paste(still, collapse = ", "))
}
