# Lines per function of the C core (issue 32: no C function over about 80
# lines). A function runs from its header (the first line of the declaration,
# at column 0) to the closing brace at column 0; initialisers of arrays and
# structs (a `=` before the brace) are not functions.
# Run: Rscript tools/c-function-lengths.R [top-n] [src-dir]
args <- commandArgs(trailingOnly = TRUE)
top <- if (length(args) >= 1) as.integer(args[1]) else 10L
dir <- if (length(args) >= 2) args[2] else "src"
rows <- list()
for (f in list.files(dir, pattern = "[.][ch]$", full.names = TRUE)) {
  x <- readLines(f, warn = FALSE)
  # drop comments and string/char literals so their braces do not count
  s <- paste(x, collapse = "\n")
  x <- readLines(f, warn = FALSE)
  txt <- paste(x, collapse = "\n")
  m <- gregexpr("(?s)/\\*.*?\\*/|//[^\n]*|\"(\\\\.|[^\"\\\\])*\"|'(\\\\.|[^'\\\\])*'", txt, perl = TRUE)[[1]]
  if (m[1] > 0) {
    for (k in rev(seq_along(m))) {
      piece <- substr(txt, m[k], m[k] + attr(m, "match.length")[k] - 1L)
      blank <- gsub("[^\n]", " ", piece)
      substr(txt, m[k], m[k] + nchar(piece) - 1L) <- blank
    }
  }
  x <- strsplit(txt, "\n", fixed = TRUE)[[1]]
  depth <- 0L
  start <- NA_integer_
  for (i in seq_along(x)) {
    ln <- x[i]
    opens <- lengths(regmatches(ln, gregexpr("{", ln, fixed = TRUE)))
    closes <- lengths(regmatches(ln, gregexpr("}", ln, fixed = TRUE)))
    if (depth == 0L && opens > 0L) {
      # header: walk back to the line at column 0 that begins the declaration
      h <- i
      while (h > 1L && !grepl("^[A-Za-z_]", x[h]) ) h <- h - 1L
      decl <- paste(x[h:i], collapse = " ")
      decl <- sub("\\{.*$", "", decl)
      is_fun <- grepl("\\)\\s*$", decl) && !grepl("=", decl) && !grepl("^(typedef|struct|enum|union)\\b", decl)
      start <- if (is_fun) h else NA_integer_
      name <- if (is_fun) sub("^.*?([A-Za-z_][A-Za-z0-9_]*)\\s*\\(.*$", "\\1", decl, perl = TRUE) else NA
    }
    depth <- depth + opens - closes
    if (depth == 0L && !is.na(start) && closes > 0L) {
      rows[[length(rows) + 1L]] <- data.frame(file = basename(f), fun = name, lines = i - start + 1L)
      start <- NA_integer_
    }
  }
}
d <- do.call(rbind, rows)
d <- d[order(-d$lines, d$file), ]
cat(sprintf("%d functions; %d over 80 lines\n", nrow(d), sum(d$lines > 80)))
print(utils::head(d, top), row.names = FALSE)
