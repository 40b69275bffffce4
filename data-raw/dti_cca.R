# dti_cca: fractional anisotropy (FA) profiles along the corpus callosum
# (382 scans x 93 positions) with subject id, visit and MS status, from the
# CRAN package refund (`DTI`; Lin & Reimherr section 7.1). Run from the
# repository root.
source("data-raw/cran-source.R")
dti <- cran_data("refund", "DTI.RData", "DTI")
cca <- unname(as.matrix(dti$cca))
stopifnot(identical(dim(cca), c(382L, 93L)))
dti_cca <- data.frame(id = as.integer(dti$ID), visit = as.integer(dti$visit),
                      case = as.integer(dti$case), sex = dti$sex)
dti_cca$cca <- cca
attr(dti_cca, "source") <- sprintf("refund %s, DTI", cran_version("refund"))
stopifnot(length(unique(dti_cca$id)) == 142L, sum(!stats::complete.cases(cca)) == 6L)
save_data(dti_cca, "dti_cca")
