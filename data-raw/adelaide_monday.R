# adelaide_monday: half-hourly electricity demand in Adelaide on the 508
# Mondays from 6 July 1997 to 31 March 2007 (CRAN package fds,
# `mondaydemand`; Lin & Reimherr section 7.1). Rows are days, columns the 48
# half-hour periods. Run from the repository root.
source("data-raw/cran-source.R")
md <- cran_data("fds", "mondaydemand.rda", "mondaydemand")
y <- t(unclass(md)$y)                      # fds stores 48 x 508 (time x day)
stopifnot(identical(dim(y), c(508L, 48L)), all(is.finite(y)))
periods <- sprintf("%02d:%02d", (0:47) %/% 2, 30 * ((0:47) %% 2))
adelaide_monday <- matrix(as.double(y), 508L, 48L, dimnames = list(NULL, periods))
attr(adelaide_monday, "source") <- sprintf("fds %s, mondaydemand", cran_version("fds"))
save_data(adelaide_monday, "adelaide_monday")
