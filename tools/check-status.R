# Fail unless an R CMD check log ends in "Status: OK", or its only notes are
# the allowed ones (arguments after the log: texts an allowed note contains).
args <- commandArgs(trailingOnly = TRUE)
log <- readLines(args[1], warn = FALSE)
allowed <- args[-1]
status <- grep("^Status:", log, value = TRUE)
if (identical(status, "Status: OK")) quit(status = 0L)
# each problem is a "* checking ... NOTE|WARNING|ERROR" line plus its details
heads <- grep("^\\* .*(NOTE|WARNING|ERROR)$", log)
ok <- vapply(heads, function(h) {
  if (!grepl("NOTE$", log[h])) return(FALSE)
  end <- c(grep("^\\* ", log), length(log) + 1L)
  body <- log[(h + 1L):(min(end[end > h]) - 1L)]
  length(allowed) > 0L && any(vapply(allowed, function(a) any(grepl(a, body, fixed = TRUE)), NA))
}, NA)
if (length(heads) && all(ok) && grepl("^Status: [0-9]+ NOTEs?$", status)) {
  cat("check: only the allowed note(s):", log[heads], sep = "\n")
  quit(status = 0L)
}
cat(tail(log, 40), sep = "\n")
quit(status = 1L)
