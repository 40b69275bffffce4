# Summarise a valgrind memcheck log of the test suite (make valgrind): the
# error count and the leaks whose stack passes through dpfda's shared
# object. Exit non-zero when either is not zero.
log <- commandArgs(trailingOnly = TRUE)[1]
if (is.na(log) || !file.exists(log)) stop("usage: Rscript tools/valgrind-summary.R valgrind.log")
x <- readLines(log, warn = FALSE)
es <- grep("ERROR SUMMARY:", x, value = TRUE)
errors <- if (length(es)) max(as.integer(sub(".*ERROR SUMMARY: ([0-9,]+) errors.*", "\\1", gsub(",", "", es)))) else NA
# leak records: blocks from "... are definitely|possibly lost" to the next blank record line
starts <- grep("are (definitely|possibly) lost in loss record", x)
ours <- 0L
for (s in starts) {
  e <- s
  while (e < length(x) && grepl("==[0-9]+== +(at|by) ", x[e + 1L])) e <- e + 1L
  if (any(grepl("dpfda\\.so", x[s:e]))) {
    ours <- ours + 1L
    cat(x[s:e], sep = "\n")
  }
}
cat(sprintf("valgrind: %s errors, %d leak records through dpfda.so\n", format(errors), ours))
quit(status = if (!identical(errors, 0L) || ours > 0L) 1L else 0L)
