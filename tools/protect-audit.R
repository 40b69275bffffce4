# A static audit of the PROTECT discipline of every .Call entry point in src/
# (rchk needs an LLVM build of R that this machine does not have).
#
# For each function `SEXP dpfda_*(...)` defined in src/*.c it checks, on the
# text of the function body:
#   1. every R allocation (Rf_allocVector, Rf_allocMatrix, Rf_duplicate,
#      Rf_mkString, Rf_ScalarReal, ...) whose result is kept in a variable is
#      made inside PROTECT(...), or is returned at once;
#   2. no allocation is passed straight into a call that may allocate before
#      storing it (f(..., Rf_ScalarReal(x)) with f allocating);
#   3. the number of PROTECT calls equals the count given to UNPROTECT before
#      every `return` that follows a PROTECT (each path balanced).
# Allocations nested directly in SET_VECTOR_ELT / SET_STRING_ELT / setAttrib
# of a protected object are safe and not flagged. Prints one line per entry
# point and exits non-zero when a rule is broken. Run: Rscript tools/protect-audit.R
files <- list.files("src", pattern = "[.]c$", full.names = TRUE)
alloc <- "Rf_(allocVector|allocMatrix|alloc3DArray|duplicate|mkString|mkChar|ScalarReal|ScalarInteger|ScalarLogical|lengthgets|coerceVector)\\("

# Functions that may take a fresh allocation as an argument: they store it in
# a protected object, or protect it before allocating (R's Rf_ScalarString;
# gp.c's named_pair, fixed on 2026-11-21 after this audit found it did not).
safe_callers <- c("PROTECT", "SET_VECTOR_ELT", "SET_STRING_ELT", "Rf_setAttrib", "REAL", "INTEGER",
                  "LOGICAL", "Rf_asReal", "Rf_asInteger", "if", "while", "for", "switch", "return", "sizeof",
                  "Rf_ScalarString", "named_pair")

# Name of the function whose argument list encloses position `pos` of `st`.
enclosing_call <- function(st, pos) {
  chars <- strsplit(substr(st, 1, pos - 1L), "")[[1]]
  depth <- 0L
  for (i in rev(seq_along(chars))) {
    if (chars[i] == ")") depth <- depth + 1L
    if (chars[i] == "(") {
      if (depth == 0L) {
        id <- regmatches(substr(st, 1, i - 1L), regexpr("[A-Za-z_][A-Za-z0-9_]*\\s*$", substr(st, 1, i - 1L)))
        return(if (length(id)) trimws(id) else "")
      }
      depth <- depth - 1L
    }
  }
  ""
}

strip_comments <- function(s) {
  s <- gsub("/\\*.*?\\*/", " ", s, perl = TRUE)
  gsub("//[^\n]*", " ", s, perl = TRUE)
}

body_of <- function(txt, start) {       # text from the first "{" after start to its match
  open <- regexpr("\\{", substring(txt, start))
  i <- start + open - 1L
  depth <- 0L
  chars <- strsplit(substring(txt, i), "")[[1]]
  for (k in seq_along(chars)) {
    if (chars[k] == "{") depth <- depth + 1L
    if (chars[k] == "}") {
      depth <- depth - 1L
      if (depth == 0L) return(substring(txt, i, i + k - 1L))
    }
  }
  substring(txt, i)
}

# Entry points whose PROTECT / UNPROTECT pairs sit in if / else branches,
# which the linear count above cannot follow: reviewed by hand (2026-11-21),
# every path balanced.
reviewed <- c(
  dpfda_integral_gram = "der / else branches each leave dK protected once; 4 released at the end",
  dpfda_online_answer = "the status branch protects and releases one scalar; out released at the end",
  # reviewed 2026-11-25
  dpfda_gp_posterior_parts = "Kinv is protected once in either branch of the mode test; C, var, Kinv, out released by UNPROTECT(4)",
  # reviewed 2026-11-27 (glue split from online.c)
  dpfda_online_query1 = "returns before f protect nothing; after it, every return releases ptr, call and fv (UNPROTECT(3))"
)

problems <- character()
rows <- list()
for (f in files) {
  txt <- strip_comments(paste(readLines(f, warn = FALSE), collapse = "\n"))
  m <- gregexpr("\\nSEXP (dpfda_[A-Za-z0-9_]+)\\([^)]*\\)\\s*\\{", txt, perl = TRUE)[[1]]
  if (m[1] < 0) next
  for (k in seq_along(m)) {
    head <- regmatches(txt, list(m))[[1]][k]
    name <- sub("^\\nSEXP (dpfda_[A-Za-z0-9_]+)\\(.*", "\\1", head)
    body <- body_of(txt, m[k])
    stmts <- trimws(strsplit(body, ";")[[1]])
    n_protect <- 0L
    bad <- character()
    for (si in seq_along(stmts)) {
      st <- stmts[si]
      n_here <- lengths(regmatches(st, gregexpr("\\bPROTECT(_WITH_INDEX)?\\(", st)))
      if (grepl(alloc, st) && grepl("^[^=]*[A-Za-z0-9_\\]]\\s*=[^=]", st) && n_here == 0L &&
          !grepl("SET_(VECTOR|STRING)_ELT|Rf_setAttrib", st)) {
        bad <- c(bad, sprintf("unprotected allocation: %s", gsub("\\s+", " ", substr(st, 1, 80))))
      }
      for (pos in gregexpr(alloc, st)[[1]]) {
        if (pos < 0) break
        caller <- enclosing_call(st, pos)
        if (nzchar(caller) && !caller %in% safe_callers) {
          bad <- c(bad, sprintf("allocation passed unprotected to %s()", caller))
        }
      }
      n_protect <- n_protect + n_here
      if (grepl("\\bUNPROTECT\\(", st)) {
        u <- suppressWarnings(as.integer(sub(".*UNPROTECT\\(([0-9]+)\\).*", "\\1", st)))
        if (is.na(u)) bad <- c(bad, "UNPROTECT with a non-literal count")
        else if (u != n_protect) bad <- c(bad, sprintf("UNPROTECT(%d) after %d PROTECT calls", u, n_protect))
      }
      if (grepl("^return\\b", st) && n_protect > 0L && !grepl("UNPROTECT", st)) {
        prev <- stmts[max(1L, si - 1L)]
        if (!grepl("\\bUNPROTECT\\(", prev)) bad <- c(bad, "return without UNPROTECT")
      }
    }
    status <- if (!length(bad)) "ok" else if (name %in% names(reviewed)) "reviewed" else "PROBLEM"
    rows[[length(rows) + 1L]] <- data.frame(file = basename(f), entry = name, protect = n_protect,
                                            status = status)
    if (status == "PROBLEM") problems <- c(problems, paste0(basename(f), ": ", name, ": ", unique(bad)))
  }
}
tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)
cat(sprintf("\nPROTECT audit: %d entry points in %d files (%d reviewed by hand), %d problems\n", nrow(tab),
            length(files), sum(tab$status == "reviewed"), length(problems)))
if (length(problems)) {
  cat(problems, sep = "\n")
  quit(status = 1L)
}
