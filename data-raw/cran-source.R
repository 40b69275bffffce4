# Helpers for the data-raw scripts: every data set of dpfda is rebuilt from a
# package on CRAN (a package registry), never from a download elsewhere.
# Run the scripts from the repository root: Rscript data-raw/<name>.R

cran_repo <- function() {
  r <- getOption("repos")[["CRAN"]]
  if (is.null(r) || identical(r, "@CRAN@")) "https://cloud.r-project.org" else r
}

# The unpacked source tree of a CRAN package (a temporary directory). Source
# tarballs carry the data files, so packages whose dependencies do not build
# here (fds needs libcurl, refund needs a newer mgcv) can still be read.
cran_source <- function(pkg) {
  dir <- file.path(tempdir(), paste0("cran-", pkg))
  if (!dir.exists(file.path(dir, pkg))) {
    dir.create(dir, showWarnings = FALSE)
    tarball <- utils::download.packages(pkg, destdir = dir, repos = cran_repo(), type = "source",
                                        quiet = TRUE)[1, 2]
    utils::untar(tarball, exdir = dir)
    attr(dir, "version") <- read.dcf(file.path(dir, pkg, "DESCRIPTION"), "Version")[1, 1]
  }
  file.path(dir, pkg)
}

cran_version <- function(pkg) read.dcf(file.path(cran_source(pkg), "DESCRIPTION"), "Version")[1, 1]

# One object stored in data/<file> of a CRAN source package.
cran_data <- function(pkg, file, object) {
  e <- new.env()
  load(file.path(cran_source(pkg), "data", file), envir = e)
  get(object, envir = e)
}

save_data <- function(object, name) {
  e <- new.env()
  assign(name, object, envir = e)
  save(list = name, envir = e, file = file.path("data", paste0(name, ".rda")), compress = "xz",
       version = 2)
  message(sprintf("wrote data/%s.rda (%s bytes)", name, file.size(file.path("data", paste0(name, ".rda")))))
}
