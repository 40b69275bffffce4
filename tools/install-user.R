# `make install`: install a built tarball (with vignettes) and the packages it
# imports into the user's default library, so that library(dpfda) and
# vignette(package = "dpfda") work in any fresh R session.
#   Rscript tools/install-user.R dpfda_x.y.z.tar.gz
# Run with R_LIBS unset so that .libPaths() is what a fresh session sees; the
# first writable entry is used (R_LIBS_USER is created when none is).
tarball <- commandArgs(trailingOnly = TRUE)[1]
lib <- Filter(function(d) file.access(d, 2) == 0, .libPaths())[1]
if (is.na(lib)) {
  lib <- Sys.getenv("R_LIBS_USER")
  dir.create(lib, recursive = TRUE, showWarnings = FALSE)
}
utils::untar(tarball, files = "dpfda/DESCRIPTION", exdir = tempdir())
desc <- read.dcf(file.path(tempdir(), "dpfda", "DESCRIPTION"))
imports <- trimws(sub("\\(.*", "", strsplit(if ("Imports" %in% colnames(desc)) desc[, "Imports"] else "", ",")[[1]]))
imports <- setdiff(imports[nzchar(imports)], rownames(installed.packages(priority = "base")))
if (length(imports)) {
  status <- system2(file.path(R.home("bin"), "Rscript"), c("tools/install-deps.R", paste0("--lib=", lib), imports))
  if (status != 0) stop("could not install the imported packages: ", paste(imports, collapse = ", "))
}
utils::install.packages(tarball, lib = lib, repos = NULL, type = "source")
message("dpfda installed into ", lib)
