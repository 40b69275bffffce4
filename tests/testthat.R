library(testthat)
library(dpfda)

test_check("dpfda")
