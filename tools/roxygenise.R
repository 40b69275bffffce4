# Regenerate NAMESPACE and man/ without compiling src/: the R sources are
# sourced (roxygen2::load_source) and the data sets in data/ loaded beside
# them. Run from the repository root: Rscript tools/roxygenise.R
load_source_and_data <- function(path) {
  env <- roxygen2::load_source(path)
  for (f in list.files(file.path(path, "data"), pattern = "[.]rda$", full.names = TRUE)) load(f, envir = env)
  env
}
roxygen2::roxygenise(load_code = load_source_and_data)
