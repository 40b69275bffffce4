# Tests make many deliberately tiny releases (n = 2, epsilon = 0.01, ...):
# the utility warning of new releases is off in the suite and switched on
# locally by the tests that check it (test-accuracy.R).
options(dpfda.utility_warning = FALSE)

