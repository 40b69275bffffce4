# Summarise a valgrind memcheck log of the test suite (make valgrind): the
# error contexts and the leak records whose stack passes through dpfda's
# shared object. Errors inside R itself (e.g. its parser) are reported but do
# not fail. Exit non-zero when dpfda has an error or a leak.
log <- commandArgs(trailingOnly = TRUE)[1]
if (is.na(log) || !file.exists(log)) stop("usage: Rscript tools/valgrind-summary.R valgrind.log")
x <- sub("^==[0-9]+== ?", "", readLines(log, warn = FALSE))
# records are separated by empty lines; keep those with a stack trace
brk <- cumsum(x == "")
recs <- split(x, brk)
recs <- Filter(function(r) any(grepl("^ +(at|by) 0x", r)), recs)
is_leak <- vapply(recs, function(r) any(grepl("are (definitely|indirectly|possibly) lost", r)), NA)
ours <- vapply(recs, function(r) any(grepl("dpfda\\.so", r)), NA)
es <- grep("ERROR SUMMARY:", x, value = TRUE)
total <- if (length(es)) max(as.integer(sub(".*ERROR SUMMARY: ([0-9]+) errors.*", "\\1", gsub(",", "", es)))) else NA
for (r in recs[ours]) cat(r, "", sep = "\n")
cat(sprintf(paste("valgrind: %s errors in all (%d error contexts outside dpfda); %d error contexts and %d leak",
                  "records through dpfda.so\n"), format(total), sum(!is_leak & !ours), sum(!is_leak & ours),
            sum(is_leak & ours)))
quit(status = if (any(ours)) 1L else 0L)
