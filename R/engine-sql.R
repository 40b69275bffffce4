# SQL written directly for the engine summaries' inner queries.
#
# dbplyr translates every expression of every verb again at each render
# (about 5 ms per expression and 15 ms per level of a query here), and a
# summary's chain of ten or so verbs was rendered for its count of rows, its
# sums and its count of individuals: most of the time of a release from a
# table of a few thousand rows, and more than half of the engine tests' time.
# The inner queries use a handful of constructs that every engine dpfda
# supports spells alike (CASE, CAST, FLOOR, SQRT, SUM / AVG / COUNT, window
# aggregates, GROUP BY, LEFT JOIN), so they are written here as text on top
# of the user's query rendered once by dbplyr; the scalar minimum and maximum
# are the one difference (SQLite's two-argument MIN / MAX, LEAST / GREATEST
# elsewhere). A query in progress is list(con, sql, vars); sq_lazy() hands it
# back to dbplyr as a table of that SQL (for collect(), head(), joins).

# A query in progress from a lazy table (rendered once).
sq_from <- function(q) {
  list(con = dbplyr::remote_con(q), sql = as.character(dbplyr::sql_render(q)), vars = colnames(q))
}

# The lazy table of a query in progress (its render is the text itself).
sq_lazy <- function(s) dplyr::tbl(s$con, dbplyr::sql(s$sql), vars = s$vars)

# Quoted identifiers (vectorised) on the query's connection. Plain names
# (letters, digits, underscores) take the connection's quote characters,
# read from one name; any other goes through dbplyr (the covariance's
# J (J + 1) sums name thousands of columns: 0.2 ms each).
sq_id <- function(s, nm) {
  if (!length(nm)) return(character())
  key <- paste(class(s$con), collapse = " ")   # (the quoting is the dialect's: one per connection class)
  probe <- sq_quotes[[key]] %||% (sq_quotes[[key]] <- as.character(sql_ident(s$con, "a")))
  out <- paste0(substr(probe, 1L, 1L), nm, substr(probe, 3L, 3L))
  odd <- !grepl("^[A-Za-z_][A-Za-z0-9_]*$", nm)
  out[odd] <- vapply(nm[odd], function(v) as.character(sql_ident(s$con, v)), "", USE.NAMES = FALSE)
  out
}

sq_quotes <- new.env(parent = emptyenv())

# The most result columns of one query: SQLite allows 2000 by default,
# PostgreSQL 1664; others (DuckDB, Spark) get a cautious 500. The covariance's
# J (J + 1) / 2 sums of products are split into queries of this many, each a
# scan of the data (J = 50: one query, not three).
sq_max_columns <- function(con) {
  if (inherits(con, "SQLiteConnection")) 1900L else if (is_postgres(con)) 1600L else 500L
}

# The query `sql` as a subquery of FROM or JOIN: in parentheses, indented
# one level (engine_sql() shows it to people), with its alias (PostgreSQL
# needs one; the same name at every level of nesting is allowed, as
# dbplyr's q01).
sq_sub <- function(sql, alias = "dpfda_q") {
  if (sq_breaks_in_quotes(sql)) return(sprintf("(\n%s\n) AS %s", sql, alias))   # (indenting would change them)
  sprintf("(\n  %s\n) AS %s", gsub("\n", "\n  ", sql, fixed = TRUE), alias)
}

# Whether a line break stands inside a quoted string or name of `sql` (a
# filter of the user's on text with a line break in it, say).
sq_breaks_in_quotes <- function(sql) {
  if (!grepl("\n", sql, fixed = TRUE)) return(FALSE)
  q <- regmatches(sql, gregexpr("'([^']|'')*'|\"([^\"]|\"\")*\"|`([^`]|``)*`", sql))[[1L]]
  any(grepl("\n", q, fixed = TRUE))
}

# The scalar minimum / maximum of two SQL expressions.
sq_least <- function(s, a, b) {
  sprintf(if (inherits(s$con, "SQLiteConnection")) "MIN(%s, %s)" else "LEAST(%s, %s)", a, b)
}
sq_greatest <- function(s, a, b) {
  sprintf(if (inherits(s$con, "SQLiteConnection")) "MAX(%s, %s)" else "GREATEST(%s, %s)", a, b)
}
sq_clamp <- function(s, x, lo, hi) sq_least(s, sq_greatest(s, x, lo), hi)

# A double as an SQL literal exact to the last bit (as sql_lit()).
sq_lit <- function(x) as.character(sql_lit(x))

# SELECT the existing columns (each replaced by `exprs[[name]]` when named
# there, in place) and the new `exprs` after them; `keep`: the existing
# columns to keep (all by default).
sq_mutate <- function(s, exprs, keep = s$vars) {
  old <- intersect(keep, s$vars)
  cols <- vapply(old, function(v) if (v %in% names(exprs)) paste(exprs[[v]], "AS", sq_id(s, v)) else sq_id(s, v), "",
                 USE.NAMES = FALSE)
  new <- setdiff(names(exprs), old)
  cols <- c(cols, if (length(new)) paste(unlist(exprs[new]), "AS", sq_id(s, new)))
  list(con = s$con, sql = sprintf("SELECT %s\nFROM %s", paste(cols, collapse = ", "), sq_sub(s$sql)),
       vars = c(old, new))
}

# Rows for which the SQL condition `cond` holds.
sq_filter <- function(s, cond) {
  list(con = s$con, sql = sprintf("SELECT *\nFROM %s\nWHERE %s", sq_sub(s$sql), cond), vars = s$vars)
}

# The rows of `a` with the columns `add` of their matches in `b` on the
# column `by` (type "LEFT": rows without a match keep NULL there).
sq_join <- function(a, b, by, add, type = c("LEFT", "INNER")) {
  type <- match.arg(type)
  k <- sq_id(a, by)
  sql <- sprintf("SELECT %s, %s\nFROM %s\n%s JOIN %s ON (dpfda_a.%s = dpfda_b.%s)",
                 paste0("dpfda_a.", sq_id(a, a$vars), collapse = ", "), paste0("dpfda_b.", sq_id(a, add), collapse = ", "),
                 sq_sub(a$sql, "dpfda_a"), type, sq_sub(b$sql, "dpfda_b"), k, k)
  list(con = a$con, sql = sql, vars = c(a$vars, add))
}

# Aggregates `exprs` (named SQL) by the columns `by` (none: one row).
sq_summarise <- function(s, by, exprs) {
  b <- sq_id(s, by)
  cols <- c(b, if (length(exprs)) paste(unlist(exprs), "AS", sq_id(s, names(exprs))))
  list(con = s$con, sql = sprintf("SELECT %s\nFROM %s%s", paste(cols, collapse = ", "), sq_sub(s$sql),
                                  if (length(b)) paste0("\nGROUP BY ", paste(b, collapse = ", ")) else ""),
       vars = c(by, names(exprs)))
}
