# Data outside memory: database tables (dbplyr lazy tables: SQLite, DuckDB,
# PostgreSQL, Spark through sparklyr) and chunks (a function returning data
# frames). The summaries of R/summary-*.R are computed by the engine in SQL
# that dpfda writes on top of the user's query rendered by dbplyr
# (R/engine-sql.R); only O(grid) numbers come back to R. DBI, dbplyr (with
# dplyr) and the drivers are suggested packages, reached only when such an
# input is given.
#
# Rules shared by every engine summary (documented in ?dp_chunks):
#  * missing columns are errors; the used columns must be numeric (ids may be
#    of any type);
#  * rows with a missing value (NULL / NA) in a used column are dropped and
#    counted (`dropped` in the summary, and a dpfda_warning_data) where a row
#    is part of an individual (curves, deaths); points, where each row is a
#    record, refuse them (abort_missing_points());
#  * values outside the public bounds are clamped in the engine, as in memory.

# TRUE for a dbplyr lazy table (tbl_sql, tbl_spark, ...).
is_lazy_table <- function(x) inherits(x, "tbl_lazy")

# Inputs that take the summarise-then-release route.
is_engine_input <- function(x) is_lazy_table(x) || inherits(x, c("dpfda_chunks", "dpfda_summary"))

# One column name quoted as an identifier for the connection `con` (real or
# simulated). dbplyr::escape() of an ident() does it in every dbplyr version
# this package supports (sql_escape_ident() is exported only from 2.6.0).
sql_ident <- function(con, name) dbplyr::escape(dbplyr::ident(name), con = con)

engine_need <- function() {
  for (p in c("DBI", "dplyr", "dbplyr")) need_package(p, "A database table as input")
}

#' Data in chunks
#'
#' Wraps a source of data frames so that a mechanism reads a data set that
#' does not fit in memory piece by piece, with memory that does not grow with
#' the number of rows: each chunk is summarised ([dpfda_summary]) and the
#' summaries are added. `csv_chunks()` reads a CSV file `rows` lines at a
#' time.
#'
#' **Rules.** Columns are named as for database tables (`columns`, `id`,
#' `arg`, `value`, `age`, `deaths`, `group`). Rows with a missing value in a
#' used column other than `id` (a missing `id` is refused,
#' `dpfda_error_data`) are dropped and counted (the summary's `dropped`, and a
#' warning of class `dpfda_warning_data`; in an SQLite table, whose columns
#' can hold values of any type, a text or blob value in a numeric column is
#' missing as well). Points ([dp_kde()], [dp_kme()], [dp_bandwidth()])
#' refuse such a row instead (`dpfda_error_data`), since each row is a
#' record and dropping it would make the number of complete records
#' public. Values outside the public bounds
#' are clamped. With an `id` (or `unit`) column, the rows of one individual
#' must come together, in any order of the ids (checked: an id that comes
#' again after other ids' rows is an error); the rows of the last id of a
#' chunk are held back and joined to the next chunk, so an individual is
#' never split.
#'
#' **Reading again.** Each call reads its chunks once, from the first: the
#' chunks of a list of data frames or of `csv_chunks()` can be given to any
#' number of calls (e.g. `dp_mean(ch, ...)` then `dp_cov(ch, ...)`), each
#' reading them from the start, also after a call that stopped with an error
#' halfway. A function cannot be rewound: chunks made from a function are
#' read by one call, and a second call is refused (make them again).
#'
#' @param source A function of no arguments that returns the next data frame,
#'   or `NULL` (or a data frame with no rows) when there are no more (an
#'   error it raises becomes a `dpfda_error_data` naming the chunk); or a
#'   list of data frames, every one of them read (a `NULL` or empty element
#'   is skipped, not taken for the end); or a data frame in memory, read
#'   `rows` rows at a time (to try the chunked path, or to keep the work of
#'   each step small).
#' @param file Path of a CSV file with a header line.
#' @param rows Rows per chunk: for `csv_chunks()`, and for `dp_chunks()` of
#'   a data frame (required there; not taken with a list or a function).
#' @param ... For `csv_chunks()`: passed to [utils::read.csv()] (e.g. `sep`,
#'   `colClasses`); a name that `read.csv()` does not take is refused when
#'   the chunks are made. A chunk that cannot be read (e.g. a value that does
#'   not fit `colClasses`) is an error naming its rows, never a silent end of
#'   the data. `dp_chunks()` takes none: a name given is an error that
#'   names it.
#' @return An object of class `dpfda_chunks`.
#' @examples
#' f <- tempfile(fileext = ".csv")
#' write.csv(data.frame(x = runif(5000)), f, row.names = FALSE)
#' ch <- csv_chunks(f, rows = 1000)
#' s <- summarise_kde(ch, grid = seq(0, 1, length.out = 101), bandwidth = 0.1, columns = "x")
#' s$n
#' r <- dp_kde(csv_chunks(f, rows = 1000), seq(0, 1, length.out = 101), 0.1, epsilon = 1,
#'             delta = 1e-6, columns = "x")
#' unlink(f)
#' # a data frame in memory, 100 rows at a time: the same summary as the whole frame
#' ch <- dp_chunks(faithful, rows = 100)
#' summarise_kde(ch, grid = seq(1, 6, length.out = 51), bandwidth = 0.3, columns = "eruptions")$n
#' @export
dp_chunks <- function(source, rows = NULL, ...) {
  check_dot_names(dot_args(), character(), "dp_chunks")
  check_required("source")
  if (is.data.frame(source)) {   # a data frame in memory, `rows` rows at a time (in its order)
    if (is.null(rows)) {
      dpfda_abort(paste("`rows` is missing: dp_chunks() of a data frame reads it `rows` rows at a time",
                        "(e.g. dp_chunks(d, rows = 1e5))."), arg = "rows")
    }
    rows <- check_count(rows, "rows", min = 1)
    d <- source
    starts <- if (nrow(d) > 0L) seq(1, nrow(d), by = rows) else numeric(0)
    return(dp_chunks(lapply(starts, function(a) d[seq.int(a, min(nrow(d), a + rows - 1)), , drop = FALSE])))
  }
  if (!is.null(rows)) {
    dpfda_abort(paste("`rows` is for a data frame, which dp_chunks() splits; a list or a function gives its chunks",
                      "as they are."), arg = "rows")
  }
  if (is.list(source) && !is.data.frame(source)) {
    # every element is read: a NULL or an empty data frame is skipped (it ended the chunks, so the
    # elements after it were left out without a word)
    parts <- source
    i <- 0L
    return(new_chunks(function() {
      repeat {
        i <<- i + 1L
        if (i > length(parts)) return(NULL)
        d <- parts[[i]]
        if (!is.null(d) && !(is.data.frame(d) && nrow(d) == 0L)) return(d)
      }
    }, rewind = function() i <<- 0L))
  }
  if (!is.function(source)) arg_error("source", "a function returning data frames, or a list of data frames",
                                      source)
  k <- 0L
  new_chunks(function() {
    k <<- k + 1L
    # the source's own failure (a lost connection, a bad file) is a classed error that says where
    tryCatch(source(), error = function(e) {
      if (inherits(e, "dpfda_error")) stop(e)
      dpfda_abort(sprintf("The chunk source failed when asked for chunk %d: %s", k, conditionMessage(e)),
                  class = "dpfda_error_data", arg = "source", parent = e)
    })
  })
}

# Chunks: `next_chunk()` gives the next data frame (NULL at the end); `rewind()`, where the source can,
# starts again. Every call reads its chunks once, from the start (chunks_start()): a list or a file is
# read again by the next call, even after one that stopped with an error halfway (which would
# otherwise have gone on from there, silently leaving out the first chunks); a function cannot be
# rewound, so it is read by one call only.
new_chunks <- function(next_chunk, rewind = NULL) {
  structure(list(next_chunk = next_chunk, rewind = rewind, state = new.env(parent = emptyenv())),
            class = "dpfda_chunks")
}

chunks_start <- function(chunks) {
  if (is.function(chunks$rewind)) return(invisible(chunks$rewind()))
  if (is.environment(chunks$state)) {
    if (isTRUE(chunks$state$started)) {
      dpfda_abort(paste("These chunks were read by an earlier call: dp_chunks() of a function reads it once.",
                        "Create the chunks again for each call, or give dp_chunks() a list of data frames",
                        "(or use csv_chunks()), which every call reads from the start."),
                  class = "dpfda_error_data", arg = "x")
    }
    chunks$state$started <- TRUE
  }
  invisible()
}

#' @rdname dp_chunks
#' @export
csv_chunks <- function(file, rows = 1e6, ...) {
  check_required("file")
  # `...` goes to read.csv(), lazily at the first read: a name it does not take is refused now
  read_opts <- setdiff(names(formals(utils::read.table)), c("file", "nrows", "header", "col.names", "skip", "..."))
  check_dot_names(dot_args(), read_opts, "csv_chunks", unknown = function(name) {
    near <- closest_name(name, c("rows", read_opts))
    if (is.null(near) && grepl("row", name, ignore.case = TRUE)) near <- "rows"
    dpfda_abort(sprintf("`%s` is not an option of csv_chunks() or of read.csv()%s; see ?csv_chunks.", name,
                        did_you_mean(name, near = near)), arg = name)
  })
  rows <- check_count(rows, "rows", min = 1, max = 1e9)
  if (!is.character(file) || length(file) != 1L || !file.exists(file)) {
    arg_error("file", "the path of an existing CSV file", file)
  }
  con <- NULL
  header <- NULL
  done <- FALSE
  read <- 0   # data rows read so far (for the error of a chunk that cannot be read)
  args <- list(...)
  rewind <- function() {
    if (!is.null(con)) try(close(con), silent = TRUE)
    con <<- NULL
    done <<- FALSE
    read <<- 0
  }
  new_chunks(function() {
    if (done) return(NULL)
    if (is.null(con)) {
      con <<- file(file, "r")
      header <<- csv_read_or_abort(con, file, 0, c(list(nrows = 1L, header = TRUE), args))
      header <<- names(header)
      close(con)
      con <<- file(file, "r")
      readLines(con, n = 1L)
    }
    d <- csv_read_or_abort(con, file, read, c(list(nrows = rows, header = FALSE, col.names = header), args))
    if (!is.null(d)) read <<- read + nrow(d)
    if (is.null(d) || nrow(d) == 0L) {
      close(con)
      con <<- NULL
      done <<- TRUE
      return(NULL)
    }
    d
  }, rewind)
}

# read.csv() of the next rows of `con`: NULL at the end of the file (read.csv()'s "no lines
# available"); any other failure (a value that does not fit `colClasses`, a broken line) is a
# classed error naming the file and the rows, never a silent end of the data.
csv_read_or_abort <- function(con, file, read, args) {
  tryCatch(do.call(utils::read.csv, c(list(con), args)), error = function(e) {
    eof <- c("no lines available in input", gettext("no lines available in input", domain = "R-utils"))
    if (any(vapply(eof, grepl, NA, x = conditionMessage(e), fixed = TRUE))) return(NULL)
    try(close(con), silent = TRUE)
    what <- if (isTRUE(args$header)) "the header line" else
      sprintf("data rows %s to %s", format(read + 1, big.mark = ","), format(read + args$nrows, big.mark = ","))
    dpfda_abort(sprintf("Reading %s of %s failed (the data would be cut short there): %s", what, basename(file),
                        conditionMessage(e)), class = "dpfda_error_data", arg = "file")
  })
}

#' @export
print.dpfda_chunks <- function(x, ...) {
  cat("<dpfda_chunks> data read chunk by chunk\n")
  invisible(x)
}

# The key of each row of a chunk by which chunks_reduce() and chunks_tee()
# keep an individual's rows together: column `id`, or where it is missing the
# `id` of another row with the same `fill_by` (the unit its curve names; for
# the grouping only: the row keeps its missing value).
chunk_keys <- function(d, id, fill_by = NULL) {
  ids <- d[[id]]
  if (!is.null(fill_by) && anyNA(ids) && fill_by %in% names(d)) {
    na <- is.na(ids)
    key <- d[[fill_by]]
    named <- !na & !is.na(key)
    ids[na] <- ids[named][match(key[na], key[named])]
  }
  ids
}

# Calls f(data frame) on every chunk and adds the summaries. With `id`, the
# rows of the last id of each chunk are held back for the next one, and the
# ids already finished are remembered: an id that comes back after other ids'
# rows is an error (its rows would be summarised as two individuals).
# Grouped is enough, sorted is not needed: nlme's Oxboys and datasets'
# ChickWeight list each subject's rows together in the order 1, 2, 3, ...,
# while their ordered factors' levels run "10" < "26" < ... (and `<` is not
# defined for an unordered factor). `fill_by`: with `id` a privacy unit of
# curves, the curves' id column: a row whose unit is missing goes with the
# unit its curve names in another row (in memory it is dropped as a row with a
# missing value, and its curve stays; split off into a piece of its own, the
# curve seemed to have no unit, and the chunk size decided a refusal).
chunks_reduce <- function(chunks, f, id = NULL, fill_by = NULL) {
  force(fill_by)
  id_arg <- attr(id, "arg", exact = TRUE) %||% "id"   # (the argument that named the column, for errors)
  chunks_start(chunks)
  # a call that stops halfway lets go of its source (a file's connection was left open until the
  # garbage collector closed it with a warning); the next call starts again anyway
  finished_ok <- FALSE
  k_chunk <- 0L
  on.exit(if (!finished_ok && is.function(chunks$rewind)) try(chunks$rewind(), silent = TRUE), add = TRUE)
  total <- NULL
  held <- NULL
  finished <- new.env(hash = TRUE, parent = emptyenv())
  repeat {
    d <- chunks$next_chunk()
    end <- is.null(d) || (is.data.frame(d) && nrow(d) == 0L)
    if (!end && !is.data.frame(d)) {
      dpfda_abort(sprintf("The chunk source returned %s, not a data frame.", describe_value(d)),
                  arg = "x")
    }
    if (!is.null(id) && !end) {
      if (!id %in% names(d)) engine_missing_column(id, names(d), id_arg)
      d <- if (is.null(held)) d else rbind(held, d[names(held)])
      ids <- chunk_keys(d, id, fill_by)
      ok <- !is.na(ids)
      if (any(ok)) {
        runs <- rle(id_keys(ids[ok]))$values   # (the held id, if any, is the first run)
        back <- anyDuplicated(runs)
        seen <- unlist(mget(runs, envir = finished, ifnotfound = list(FALSE)), use.names = FALSE)
        if (back || any(seen)) {
          again <- if (back) runs[back] else runs[which(seen)[1L]]
          dpfda_abort(sprintf(paste("The rows of one individual must come together in the chunks: `%s` = %s",
                                    "comes again after rows of other individuals (its rows would be",
                                    "summarised as two individuals). Sort or group the data by `%s`",
                                    "first (e.g. ORDER BY %s when reading from a database)."),
                              id, substring(again, 2L), id, id), class = "dpfda_error_data", arg = id_arg)
        }
        done <- runs[-length(runs)]
        if (length(done)) list2env(as.list(stats::setNames(rep(TRUE, length(done)), done)), envir = finished)
        lid <- ids[ok][sum(ok)]
        hold <- ok & ids == lid
        held <- d[hold, , drop = FALSE]
        d <- d[!hold, , drop = FALSE]
      }
    }
    if (end) {
      d <- held
      held <- NULL
      if (is.null(d)) break
    }
    if (nrow(d)) {
      k_chunk <- k_chunk + 1L
      s <- tryCatch(f(d), dpfda_error_data = function(e) {
        # (which chunk: a row number in the message counts within it)
        e$message <- sprintf("%s (In chunk %d of the source.)", conditionMessage(e), k_chunk)
        stop(e)
      })
      total <- if (is.null(total)) s else total + s
    }
    if (end) break
  }
  if (is.null(total)) {
    abort_no_rows()
  }
  finished_ok <- TRUE
  total
}

# Ids as strings that tell them apart (doubles to all their digits), never "" (not a name in an
# environment): the keys of chunks_reduce()'s finished ids.
id_keys <- function(ids) {
  paste0("k", if (is.double(ids)) sprintf("%.17g", ids) else as.character(ids))
}

engine_missing_column <- function(col, have, arg) {
  dpfda_abort(sprintf("`%s` names the column \"%s\", which the data do not have (columns: %s).", arg, col,
                      paste(utils::head(have, 20L), collapse = ", ")), arg = arg)
}

# The column of a privacy unit as chunks_reduce()'s `id`: its errors then name `unit`. (NULL stays NULL.)
unit_id <- function(unit) if (is.null(unit)) NULL else structure(unit, arg = "unit")

# Checks a column-name argument: a character vector of existing columns.
engine_columns <- function(cols, have, arg, n = NULL) {
  if (is.null(cols) && identical(arg, "columns")) {
    dpfda_abort(sprintf("`columns` is needed here: name the column%s of the points%s, e.g. columns = %s.",
                        if (identical(n, 1L)) "" else "s",
                        if (is.null(have)) " (chunks are read one at a time, so their columns cannot be guessed)" else
                          sprintf(" among %s", paste0("\"", utils::head(have, 10L), "\"", collapse = ", ")),
                        if (is.null(have) || !length(have)) "\"x\"" else
                          sprintf(if (identical(n, 1L) || length(have) == 1L) "\"%s\"" else "c(\"%s\", ...)", have[1L])),
                arg = "columns")
  }
  ok <- is.character(cols) && length(cols) >= 1L && !anyNA(cols) && (is.null(n) || length(cols) == n)
  if (!isTRUE(ok)) {
    arg_error(arg, if (is.null(n) || n > 1L) "column names (a character vector)" else "a column name (a string)",
              cols)
  }
  if (!is.null(have)) for (cl in cols) if (!cl %in% have) engine_missing_column(cl, have, arg)
  cols
}

# Column names of a data frame or lazy table.
engine_names <- function(x) if (is.data.frame(x)) names(x) else colnames(x)

# A column that must be numeric and is not: its first entry that is not a number, so that a stray
# text value in a large file can be found; a factor's level codes are not its values.
abort_not_numeric <- function(v, cl, arg) {
  first <- ""
  if (is.character(v) || is.factor(v)) {
    txt <- as.character(v)
    bad <- which(!is.na(txt) & is.na(suppressWarnings(as.numeric(txt))))
    if (length(bad)) first <- sprintf(" (\"%s\" in row %d%s)", substr(txt[bad[1L]], 1L, 40L), bad[1L],
                                      if (length(bad) > 1L) sprintf(", and %d more", length(bad) - 1L) else "")
  }
  fix <- if (is.factor(v)) {
    paste(": as.numeric() of a factor gives its level codes, not its values; convert with",
          "as.numeric(as.character(x)) if its levels are numbers")
  } else if (inherits(v, c("Date", "POSIXt", "difftime"))) {
    paste0(": ", sub("[.]$", "", date_arg_fix(cl, v)))   # (as long_to_curves() says)
  } else ""
  dpfda_abort(sprintf("Column \"%s\" must be numeric, not %s%s%s.", cl, class(v)[1L], first, fix),
              class = "dpfda_error_data", arg = arg)
}

# In-memory rule (chunks and data frames): numeric checks, drop and count
# rows with a missing value. Returns the kept data frame and the count.
frame_clean <- function(d, numeric_cols, other_cols = character()) {
  if (!nrow(d)) engine_no_rows("data frame")
  # points that dpfda itself checked and framed (point_units()): finite, no missing value
  if (isTRUE(attr(d, "dpfda_clean", exact = TRUE))) return(list(data = d, dropped = 0, rows = nrow(d)))
  for (cl in numeric_cols) {
    if (!is.numeric(d[[cl]]) && !all(is.na(d[[cl]]))) abort_not_numeric(d[[cl]], cl, cl)
  }
  cols <- c(numeric_cols, other_cols)
  bad <- Reduce(`|`, lapply(cols, function(cl) is.na(d[[cl]])), FALSE)
  for (cl in numeric_cols) bad <- bad | (is.numeric(d[[cl]]) & !is.na(d[[cl]]) & !is.finite(d[[cl]]))
  nb <- sum(bad)
  list(data = if (nb) d[!bad, , drop = FALSE] else d, dropped = nb, rows = nrow(d))   # (no copy when clean)
}

# Points (dp_kde(), dp_kme(), dp_bandwidth() and their summaries): a row with
# a missing or non-finite value is refused, not dropped. Each row is a record
# (or one point of a unit), and n, the number of records, is public: a record
# replaced by a missing one would vanish, and the release would show the exact
# count of complete records. Removing the rows first is the user's choice to
# make that count public. (`rows`: the rows read, of `x` or of one chunk.)
abort_missing_points <- function(dropped, rows, arg = "x",
                                 where = "a used column (a point, its unit or its count)") {
  if (!(dropped > 0)) return(invisible(NULL))
  dpfda_abort(sprintf(paste("%s of the %s rows read from `%s` %s a missing or non-finite value in %s. dpfda",
                            "does not drop them: whether a record is missing is private, and dropping it would",
                            "release the exact number of complete records. If that number may be public, remove",
                            "those rows first: stats::na.omit() or stats::complete.cases() in memory,",
                            "dplyr::filter(tbl, !is.na(col)) on a table, or in the function that reads the chunks;",
                            "otherwise fill the values in."),
                      format(dropped, big.mark = ","), format(rows, big.mark = ","), arg,
                      if (dropped == 1) "holds" else "hold", where),
              class = "dpfda_error_data", arg = arg)
}

# An individual of long data (or a mortality group) none of whose rows is
# complete would vanish if its rows were dropped, and n (public) with it.
# Curves keep it as an individual without a cell (vanished_individuals());
# refused are: a mortality group (`who` "group"); with a privacy unit and
# incomplete "zero", an individual that would count as a zero curve in its
# unit's mean (`unit`; with "drop" it is an incomplete curve); and one with no
# row that names its unit (`no_unit`). `k`: how many.
abort_vanished_individuals <- function(k, who = "individual", by = "id", unit = FALSE, no_unit = FALSE) {
  if (!(k > 0)) return(invisible(NULL))
  s <- if (k == 1) "" else "s"
  has <- if (k == 1) "has" else "have"
  lead <- sprintf("%s %s%s of `x`", format(k, big.mark = ","), who, s)
  msg <- if (no_unit) {
    sprintf(paste("%s %s no row that names its `unit`: dpfda cannot tell whose curve it is, and does not drop",
                  "it (the number of individuals is public). Give those rows their unit."), lead, has)
  } else if (unit) {
    sprintf(paste("%s %s no row that is complete and within the grid's reach. With `unit` and incomplete =",
                  "\"zero\", such an",
                  "individual would count as a curve of zeros in its unit's mean. Give incomplete = \"drop\" (it",
                  "then counts as an incomplete curve, as a matrix's row of missing values does), fill in a value,",
                  "or remove its rows first where their number may be public."), lead, has)
  } else {
    sprintf(paste("%s (a `%s` with rows) %s no row without a missing value. dpfda does not drop %s: the number of",
                  "%ss is public, and dropping one would release whether its values are missing. If that may be",
                  "public, remove %s rows first (e.g. dplyr::filter() by %s); otherwise fill in a value."),
            lead, by, has, if (k == 1) "it" else "them", who, if (k == 1) "its" else "their", by)
  }
  dpfda_abort(msg, class = "dpfda_error_data", arg = "x")
}

# A row of long data whose `id` (or mortality `group`) is missing belongs to no individual: dropped, it
# would take a record whose id went missing out of the public n (the individual with it, were it its
# only row). Refused on every source.
abort_missing_ids <- function(k, rows, by = "id", who = "individual") {
  if (!(k > 0)) return(invisible(NULL))
  dpfda_abort(sprintf(paste("%s of the %s rows read from `x` %s a missing `%s`: such a row belongs to no %s, and",
                            "dpfda does not drop it (a record whose `%s` went missing would leave the public",
                            "number of %ss). Give those rows their `%s`, or remove them first where their",
                            "number may be public (e.g. stats::complete.cases() or dplyr::filter(tbl, !is.na(%s)))."),
                      format(k, big.mark = ","), format(rows, big.mark = ","), if (k == 1) "has" else "have", by, who,
                      by, who, by, by),
              class = "dpfda_error_data", arg = by)
}

# "column "a"" / "columns "a", "b"" (names already quoted), or "a used column" for none.
columns_phrase <- function(quoted) {
  if (!length(quoted)) return("a used column")
  sprintf("column%s %s", if (length(quoted) == 1L) "" else "s", paste(quoted, collapse = ", "))
}

# frame_clean() of points: refuses rows with a missing value (abort_missing_points()).
# The message names the columns that hold them (dpfda's own columns of a unit or counts given as a
# vector by what they are, counts taken from a column of the data by that column: `counts_label`).
frame_clean_points <- function(d, numeric_cols, other_cols = character(), counts_label = NULL) {
  cl <- frame_clean(d, numeric_cols, other_cols)
  if (cl$dropped > 0) {
    cols <- c(numeric_cols, other_cols)
    bad <- cols[vapply(cols, function(cn) any(!is.finite(d[[cn]]) & (is.numeric(d[[cn]]) | is.na(d[[cn]]))), NA)]
    klab <- if (is.null(counts_label)) "`counts`" else sprintf("\"%s\"", counts_label)
    bad <- ifelse(bad == ".dpfda_unit", "`unit`", ifelse(bad == ".dpfda_counts", klab, sprintf("\"%s\"", bad)))
    abort_missing_points(cl$dropped, cl$rows, where = columns_phrase(bad))
  }
  cl
}

# The last step of every summary outside memory: the numbers of the summary
# as plain doubles (whatever types the engine returned), then the warning
# for dropped rows.
warn_dropped <- function(s, what = "a missing or non-finite value", after = "") {
  s <- summary_as_double(s)
  warn_dropped_rows(s$dropped, what, after)
  warn_beyond_rows(s$beyond, s$settings$grid)
  s
}

# The warning for rows of long data beyond the grid's reach (grid_reach()), left out.
warn_beyond_rows <- function(n, grid) {
  if (!isTRUE(n > 0)) return(invisible())
  r <- grid_reach(grid)
  reach <- if (length(grid) < 2L) sprintf("the grid's one point, %s (a grid of one point reaches no farther)",
                                          format(grid[1L], digits = 6)) else
    sprintf("the grid's reach [%s, %s] (its ends and half a grid step more), near no grid point",
            format(r[1L], digits = 6), format(r[2L], digits = 6))
  dpfda_warn(sprintf(paste("%s row%s of long data lie%s beyond %s: left out. Extend the grid to cover them, or",
                           "filter them out first to silence this."), format(n, big.mark = ","),
                     if (n == 1) "" else "s", if (n == 1) "s" else "", reach),
             "dpfda_warning_data")
}

# A summary of a data frame in memory warns of its dropped rows as a table's and chunks' do (it was
# silent); other inputs have warned already, or drop nothing.
warn_dropped_frame <- function(s, x, ...) if (is.data.frame(x)) warn_dropped(s, ...) else s

# The warning for `n` dropped rows (none for 0); `after`: what the dropping means for this summary.
warn_dropped_rows <- function(n, what = "a missing or non-finite value", after = "") {
  if (n > 0) {
    dpfda_warn(sprintf(paste("%s row%s with %s in a used column %s dropped (rows are dropped",
                             "one by one, which keeps the contribution bound).%s"),
                       format(n, big.mark = ","), if (n == 1) "" else "s", what, if (n == 1) "was" else "were",
                       after),
               "dpfda_warning_data")
  }
}

# A dropped row of death counts leaves its (group, age) cell empty: 0 deaths there (as an age a group
# lacks), where the other groups have the age.
mortality_dropped_note <- paste(" The age of such a row then counts 0 deaths in its group where other groups",
                                "have it (an age a group lacks counts 0): if a count is unknown rather than zero,",
                                "fill it in or leave that age out of every group.")

# Every number of a summary as a plain double on every engine (counts come
# back as integer64 from PostgreSQL, as integer from SQLite).
summary_as_double <- function(s) {
  for (f in intersect(names(s), c("sums", "n", "rows", "dropped", "missing_cells", "missing_y", "outside", "beyond"))) {
    if (is.numeric(s[[f]]) || inherits(s[[f]], "integer64")) s[[f]] <- plain_double(s[[f]])
  }
  s
}

# ---- lazy tables ------------------------------------------------------------

# Validates the columns of a lazy table: present; numeric (from the first
# rows, which carry the column types); returns the table restricted to the
# used columns renamed to `new` names, the numeric ones as the engine's
# doubles (integer, bigint, numeric or real columns then take the arithmetic
# of doubles, as in memory: PostgreSQL would otherwise compute in NUMERIC,
# exact decimals, and slowly; a cast of a double column to a double is no
# work; SQLite needs none). One SELECT on the user's query (R/engine-sql.R).
# `nan_null`: columns whose NaN reads as NULL (summaries that clamp +-Inf
# but drop missing values; the others drop every non-finite value,
# lazy_drop_null()).
lazy_select <- function(tbl, cols, new, numeric = new, check = TRUE, nan_null = character()) {
  engine_need()
  have <- colnames(tbl)
  for (i in seq_along(cols)) if (!cols[[i]] %in% have) engine_missing_column(cols[[i]], have, names(cols)[i])
  s <- sq_from(tbl)
  dtype <- sql_double_type(s$con)
  src <- sq_id(s, unname(cols))
  sel <- function(expr) {
    sq_lazy(list(con = s$con, sql = sprintf("SELECT %s\nFROM %s", paste(expr, "AS", sq_id(s, new), collapse = ", "),
                                            sq_sub(s$sql)), vars = new))
  }
  expr <- if (is.null(dtype)) src else ifelse(new %in% numeric, sprintf("CAST(%s AS %s)", src, dtype), src)
  if (inherits(s$con, "SQLiteConnection")) {
    # a column of SQLite holds any type: a text value in a numeric column passed (x - x) = 0 (text
    # computes as 0) and was clamped to the top of the domain (text sorts above every number); it
    # is missing, as a NULL is, and dropped and counted
    num <- new %in% numeric
    expr[num] <- sprintf("CASE WHEN typeof(%s) IN ('integer', 'real') THEN %s END", expr[num], expr[num])
  }
  # NaN as NULL (R's is.na(NaN)): PostgreSQL, DuckDB and Spark store it (SQLite stores NULL); finite
  # values and +-Inf kept (1 / Inf = 0), in a CASE so that 1 / 0 is never evaluated
  nan <- new %in% nan_null & !inherits(s$con, "SQLiteConnection")
  expr[nan] <- sprintf("CASE WHEN (%s - %s) = 0 THEN %s WHEN (1.0 / %s) = 0 THEN %s END", expr[nan], expr[nan],
                       expr[nan], expr[nan], expr[nan])
  q <- sel(expr)
  if (!check) return(q)
  head_rows <- dplyr::collect(utils::head(sel(src), 100L))   # (the types as stored: before the cast)
  for (nm in numeric) {
    v <- head_rows[[nm]]
    if (!is.null(v) && !is.numeric(v) && !inherits(v, "integer64") && !all(is.na(v))) {   # bigint: integer64
      dpfda_abort(sprintf("Column \"%s\" must be numeric, not %s.", cols[[match(nm, new)]], class(v)[1L]),
                  class = "dpfda_error_data", arg = names(cols)[match(nm, new)])
    }
  }
  lazy_math(tbl)
  q
}

# Counts the rows and the rows with a NULL in any of `cols`, then drops them.
# `finite`: the columns among them whose values must also be finite (the
# in-memory rule, frame_clean(): NaN and +-Inf are dropped as missing; a
# table can hold them: PostgreSQL's 'Infinity' and 'NaN', SQLite's Inf).
# (x - x) = 0 holds exactly for a finite x: Inf - Inf is NaN (NULL in
# SQLite), and NaN = 0 is false or NULL on every engine. `ids`: also counts
# the distinct values of that column among the kept rows (`n_ids`; in the
# same scan: the summaries of curves need their number). An individual none
# of whose rows is kept: `gone` "refuse" (mortality groups), "refuse_unit"
# (curves with a unit and incomplete "zero") or "keep" (curves): then `n_ids`
# counts it too, and with `units` (the unit column) `n_units` counts the units
# of all rows (vanished_individuals() in memory). `reach`: list(col, lo, hi),
# the rows whose `col` lies outside [lo, hi] are left out too and counted
# (`beyond`; the rows of long data beyond the grid's reach, grid_reach()),
# in the same scan and the same filter (no subquery more).
lazy_drop_null <- function(q, cols, check = TRUE, ids = NULL, finite = character(), ids_by = "id",
                           ids_who = "individual", gone = "refuse", units = NULL, reach = NULL) {
  s <- sq_from(q)
  fin <- intersect(cols, finite)
  qc <- sq_id(s, cols)
  keep <- paste0("(", paste(ifelse(cols %in% fin, sprintf("(%s - %s) = 0", qc, qc), paste(qc, "IS NOT NULL")),
                            collapse = " AND "), ")")
  use <- keep   # (the rows kept: complete, and within the reach)
  if (!is.null(reach) && all(is.finite(c(reach$lo, reach$hi)))) {
    rc <- sq_id(s, reach$col)
    within <- sprintf("(%s >= %s AND %s <= %s)", rc, sq_lit(reach$lo), rc, sq_lit(reach$hi))
    use <- sprintf("(%s AND %s)", keep, within)
  } else reach <- NULL
  kept <- sq_lazy(sq_filter(s, use))
  if (!check) return(list(q = kept, rows = NA_real_, dropped = NA_real_))
  cnt <- engine_collect(sq_lazy(sq_summarise(s, character(), c(list(
    rows = "COUNT(*)", nulls = sprintf("SUM(CASE WHEN %s THEN 0 ELSE 1 END)", keep)),
    if (!is.null(reach)) list(beyond = sprintf("SUM(CASE WHEN %s AND NOT %s THEN 1 ELSE 0 END)", keep, within)),
    if (!is.null(ids)) list(ids = sprintf("COUNT(DISTINCT CASE WHEN %s THEN %s END)", use, sq_id(s, ids)))))))
  rows <- plain_number(cnt$rows, 0)
  if (!(rows > 0)) engine_no_rows("table")
  beyond <- if (!is.null(reach)) plain_number(cnt$beyond, 0) else 0   # (a tibble warns of an absent column)
  n_units <- NULL   # (the units of all rows, when an individual vanished)
  if (!is.null(ids) && plain_number(cnt$nulls, 0) + beyond > 0) {
    # rows of no individual, and individuals with no row left: refused (a second scan, only when rows
    # were dropped: the first gives the kept ids' count, the usual case needs no other)
    id_ <- sq_id(s, ids)
    ia <- engine_collect(sq_lazy(sq_summarise(s, character(), c(list(
      ids_all = sprintf("COUNT(DISTINCT %s)", id_),
      ids_null = sprintf("SUM(CASE WHEN %s IS NULL THEN 1 ELSE 0 END)", id_)),
      if (!is.null(units)) list(units_all = sprintf("COUNT(DISTINCT %s)", sq_id(s, units)),
                                ids_named = sprintf("COUNT(DISTINCT CASE WHEN %s IS NOT NULL THEN %s END)",
                                                    sq_id(s, units), id_))))))
    abort_missing_ids(plain_number(ia$ids_null, 0), rows, ids_by, ids_who)
    k_gone <- plain_number(ia$ids_all, 0) - plain_number(cnt$ids, 0)
    if (gone == "refuse") abort_vanished_individuals(k_gone, ids_who, ids_by)
    if (gone == "refuse_unit") abort_vanished_individuals(k_gone, unit = TRUE)
    if (!is.null(units)) {
      abort_vanished_individuals(plain_number(ia$ids_all, 0) - plain_number(ia$ids_named, 0), no_unit = TRUE)
      if (k_gone > 0) n_units <- plain_number(ia$units_all, 0)
    }
    if (k_gone > 0) cnt$ids <- ia$ids_all
  }
  # (SUM over no rows is NULL: no missing values)
  list(q = kept, rows = rows, dropped = plain_number(cnt$nulls, 0),
       n_ids = if (!is.null(ids)) plain_number(cnt$ids, 0), n_units = n_units, beyond = beyond)
}

# One number from a query result as a plain double: `default` for NULL, an
# empty result or NA; bit64::integer64 (PostgreSQL's COUNT(*) is bigint) and
# other numeric classes converted by value.
plain_number <- function(a, default) {
  if (is.null(a) || length(a) == 0L) return(default)
  a <- plain_double(a[1L])
  if (is.na(a)) default else a
}

# A numeric vector (or matrix) from a query result as plain double, keeping
# its dimensions and names. integer64 values are converted through their own
# as.double() method (bit64 is loaded whenever such a value exists); an
# unclassed integer64 would read as tiny doubles (9.9e-324 for 2).
plain_double <- function(a) {
  if (is.null(a)) return(a)
  at <- attributes(a)
  v <- as.double(a)
  keep <- at[intersect(names(at), c("dim", "dimnames", "names"))]
  attributes(v) <- if (length(keep)) keep else NULL
  v
}

# The input holds no rows: a classed error (a summary of nothing cannot be
# released, and every engine's aggregates over no rows are NULL).
engine_no_rows <- function(what) {
  dpfda_abort(sprintf("The %s has no rows: there is nothing to summarise.", what),
              class = "dpfda_error_data", arg = "x")
}

# SQLite has floor(), exp(), sqrt(), cos() ... only when compiled with its
# math functions; otherwise RSQLite's extension provides them.
lazy_math <- function(tbl) {
  con <- dbplyr::remote_con(tbl)
  if (!inherits(con, "SQLiteConnection")) return(invisible())
  ok <- tryCatch({
    DBI::dbGetQuery(con, "SELECT floor(1.5) AS a, exp(0) AS b, sqrt(4) AS c, cos(0) AS d")
    TRUE
  }, error = function(e) FALSE)
  if (!ok) RSQLite::initExtension(con, "math")
  invisible()
}

# Adds a per-row weight `wt`: 1, or 1 / (rows of the individual) with an id.
lazy_weight <- function(q, id, counts = FALSE) {
  s <- sq_from(q)
  # (a frequency table: each row weighs its count, the column cw, checked by lazy_check_counts())
  if (counts) return(sq_lazy(sq_mutate(s, list(wt = sql_double(s$con, sq_id(s, "cw"))))))
  if (is.null(id)) return(sq_lazy(sq_mutate(s, list(wt = sql_double(s$con, "1.0")))))
  i <- sq_id(s, "id")
  nk <- sq_id(s, "nk")
  if (inherits(s$con, "SQLiteConnection")) {
    # SQLite: the rows per individual as a grouped count joined back (its window sorts the rows
    # and costs more). A left join: SQLite (3.40) runs an inner join with the counts as the outer
    # loop and a scan of the rows inside it, quadratic (2e4 points: 15 s); a left join keeps the
    # rows outside and searches the counts by an automatic index. PostgreSQL and DuckDB are faster
    # with the window.
    w <- sq_join(s, sq_summarise(s, "id", list(nk = "COUNT(*)")), "id", "nk")
  } else {
    w <- sq_mutate(s, list(nk = sprintf("COUNT(*) OVER (PARTITION BY %s)", i)))
  }
  sq_lazy(sq_mutate(w, list(wt = paste0("1.0 / ", sql_double(s$con, nk)))))
}

# The SQL expression `e` typed as the engine's double. PostgreSQL reads `1.0`
# and `1.0 / COUNT(*)` as NUMERIC, and weights so typed made every product
# and sum with them decimal arithmetic (the KDE summary with a unit took 1.7
# times as long).
sql_double <- function(con, e) {
  dtype <- sql_double_type(con)
  if (is.null(dtype)) e else sprintf("CAST(%s AS %s)", e, dtype)
}

# The number of distinct values of the column `col` of the rows q.
lazy_n_distinct <- function(q, col) {
  s <- sq_from(q)
  plain_number(engine_collect(sq_lazy(sq_summarise(s, character(), list(n = sprintf("COUNT(DISTINCT %s)",
                                                                                      sq_id(s, col))))))$n, 0)
}

# A small public table (the projection matrix of a covariance summary)
# inside the query, joined by a key. Typed: integer columns as integers,
# doubles as exact literals cast to the engine's double type, so that the
# engine neither reads them as decimals (PostgreSQL's NUMERIC, slow) nor casts
# them again for every joined row. Written as VALUES, which PostgreSQL,
# DuckDB and Spark SQL alias with column names and SQLite names column1, ...
# Strings are quoted by the connection.
lazy_inline <- function(q, df) {
  con <- dbplyr::remote_con(q)
  dtype <- sql_double_type(con)
  cells <- vapply(names(df), function(nm) {
    v <- df[[nm]]
    if (is.integer(v) || inherits(v, "integer64")) return(as.character(v))
    if (is.character(v)) return(as.character(DBI::dbQuoteString(con, v)))
    l <- as.character(sql_lit(as.double(v)))
    if (is.null(dtype)) l else sprintf("CAST(%s AS %s)", l, dtype)
  }, character(nrow(df)))
  cells <- matrix(cells, nrow = nrow(df))
  rows <- paste0("(", apply(cells, 1L, paste, collapse = ", "), ")", collapse = ", ")
  cols <- vapply(names(df), function(nm) as.character(sql_ident(con, nm)), "")
  sql <- if (inherits(con, "SQLiteConnection")) {
    sprintf("SELECT %s FROM (VALUES %s)", paste(sprintf("column%d AS %s", seq_along(cols), cols), collapse = ", "),
            rows)
  } else {
    sprintf("SELECT * FROM (VALUES %s) AS dpfda_public (%s)", rows, paste(cols, collapse = ", "))
  }
  dplyr::tbl(con, dbplyr::sql(sql), vars = names(df))
}

# The engine's name of a double type for CAST (NULL for SQLite, where a
# literal with a decimal point is already a double and a cast is not needed).
sql_double_type <- function(con) {
  if (inherits(con, "SQLiteConnection")) return(NULL)
  cls <- paste(class(con), collapse = " ")
  if (grepl("spark|duckdb", cls, ignore.case = TRUE)) "DOUBLE" else "DOUBLE PRECISION"
}

# Sums given as SQL aggregate expressions (named), computed in blocks of at
# most `block` columns per query (backends limit the columns of a query),
# each block one scan of `q`; `extra` (named SQL) is added to the first
# block. Returns list(sums = named numeric, extra = named list), or with
# .query the lazy query of the first block.
lazy_wide_sums <- function(q, sums, extra = character(), .query = FALSE,
                           block = sq_max_columns(dbplyr::remote_con(q)) - length(extra)) {
  s <- sq_from(lazy_fence(q))
  blocks <- split(seq_along(sums), ceiling(seq_along(sums) / block))
  agg <- function(i, with_extra) sq_lazy(sq_summarise(s, character(), as.list(c(if (with_extra) extra, sums[i]))))
  if (.query) return(agg(blocks[[1L]], TRUE))
  out <- numeric(length(sums))
  names(out) <- names(sums)
  ext <- list()
  for (b in seq_along(blocks)) {
    res <- as.list(engine_collect(agg(blocks[[b]], b == 1L)))
    if (b == 1L) ext <- res[names(extra)]
    out[blocks[[b]]] <- vapply(names(sums)[blocks[[b]]], function(nm) plain_number(res[[nm]], 0), 0)
  }
  list(sums = out, extra = ext)
}

# The rows of `q` computed once, before an aggregate that refers to their
# columns many times: PostgreSQL and SQLite otherwise pull the subquery up and
# evaluate its expressions (clamping, scaling) again at every reference, per
# row. OFFSET 0 (PostgreSQL) and LIMIT -1 OFFSET 0 (SQLite) are their fences;
# other engines get the query unchanged.
lazy_fence <- function(q) {
  con <- dbplyr::remote_con(q)
  tail <- if (inherits(con, "SQLiteConnection")) " LIMIT -1 OFFSET 0" else if (is_postgres(con)) " OFFSET 0" else
    return(q)
  dplyr::tbl(con, dbplyr::sql(paste0(dbplyr::sql_render(q), tail)), vars = colnames(q))
}

is_postgres <- function(con) inherits(con, c("PqConnection", "PostgreSQLConnection"))

# The hint of "`grid` is required" for a database table of long curves
# (dp_mean(), dp_cov(), summarise_mean()): the distinct values of the
# argument column, read with one small query (at most 102 rows), as a grid to
# give if they are a public schedule, or their range when there are more than
# 101. Rows are snapped to the nearest grid point, so either works. "" for
# chunks (read once, by the release), or when the query fails.
table_grid_hint <- function(x, arg) {
  if (!is_lazy_table(x) || !is.character(arg) || length(arg) != 1L) return("")
  tryCatch({
    s <- sq_from(x)
    if (!arg %in% s$vars) return("")
    a <- sq_id(s, arg)
    q <- function(sql) as.data.frame(engine_collect(sq_lazy(list(con = s$con, sql = sql, vars = c("v", "w")))))
    v <- q(sprintf("SELECT DISTINCT %s AS v, 0 AS w\nFROM %s\nWHERE %s IS NOT NULL\nORDER BY 1\nLIMIT 102",
                   a, sq_sub(s$sql), a))$v
    v <- suppressWarnings(as.double(v))
    v <- v[is.finite(v)]
    if (!length(v)) return("")
    f <- function(z) format(signif(z, 6))
    if (length(v) <= 101L) {
      shown <- if (length(v) <= 12L) sprintf("c(%s)", paste(vapply(v, f, ""), collapse = ", ")) else
        sprintf("c(%s, ..., %s)", paste(vapply(v[1:3], f, ""), collapse = ", "), f(v[length(v)]))
      return(sprintf(paste(" The column `%s` of the table holds %d distinct value%s, %s: if they are public (a",
                           "study's schedule), give them as `grid`; rows are snapped to the nearest grid point."),
                     arg, length(v), if (length(v) == 1L) "" else "s", shown))
    }
    r <- q(sprintf("SELECT MIN(%s) AS v, MAX(%s) AS w\nFROM %s", a, a, sq_sub(s$sql)))
    sprintf(paste(" The column `%s` of the table holds more than 101 distinct values, from %s to %s: give a public",
                  "grid over the range of interest, grid = seq(%s, %s, length.out = k) with k at most the number",
                  "of rows of a curve: rows are snapped to the nearest grid point, and a curve without a row",
                  "nearest some grid point is incomplete (see `incomplete`)."), arg, f(r$v), f(r$w), f(r$v), f(r$w))
  }, error = function(e) "")
}

# dplyr::collect() of an engine summary. On PostgreSQL without its JIT
# compiler for the query: the summaries are one scan with many expressions,
# which the JIT spends far longer compiling than the scan takes (43 s against
# 10 s for 50 kernel sums over 1e6 rows); the session's setting is restored.
engine_collect <- function(q) {
  con <- dbplyr::remote_con(q)
  if (is_postgres(con) && !inherits(con, "TestConnection")) {
    old <- tryCatch(DBI::dbGetQuery(con, "SHOW jit")[[1L]], error = function(e) NULL)
    if (length(old) == 1L && !identical(old, "off")) {
      DBI::dbExecute(con, "SET jit = off")
      on.exit(try(DBI::dbExecute(con, paste0("SET jit = ", DBI::dbQuoteString(con, old))), silent = TRUE))
    }
  }
  tryCatch(dplyr::collect(q), error = function(e) {
    # PostgreSQL refuses a floating-point result that underflows to 0 or overflows (R gives 0 or Inf):
    # with data or a bound near the limits of double precision (a tau of 1e-300 squares to 0)
    m <- paste(conditionMessage(e), if (!is.null(e$parent)) conditionMessage(e$parent))
    if (grepl("out of range: (underflow|overflow)", m)) {
      dpfda_abort(paste("The database refused a floating-point result out of range (PostgreSQL raises an error",
                        "where a product underflows to 0 or overflows): the data or `tau` are near the limits",
                        "of double precision. Rescale the data (e.g. to other units) so that values and bounds",
                        "are within about 1e-150 to 1e150."), class = "dpfda_error_numeric", arg = "x")
    }
    stop(e)
  })
}

# SQL literal for a double, exact to the last bit.
sql_num <- function(x) sprintf("%.17g", x)

# CASE expression mapping the integer column `col` to values[k + 1], k = 0, 1, ...
# A balanced tree of CASEs on k < mid: about log2(length) comparisons per row
# instead of a scan of the list (SQLite evaluates WHEN branches in order: 50
# grid points cost it 25 comparisons per cell and value on average).
sql_lookup <- function(q, col, values) {
  con <- dbplyr::remote_con(q)
  dbplyr::sql(sql_lookup_tree(as.character(sql_ident(con, col)), values, 0L))
}

# The CASE tree for values[k + 1] with k in [from, from + length(values)), over the runs of equal
# values (an equispaced grid's quadrature weights are three runs, whatever its length).
sql_lookup_tree <- function(qc, values, from) {
  r <- rle(values)
  lo <- from + c(0L, cumsum(r$lengths))[seq_along(r$lengths)]
  sql_run_tree(qc, lo, lo + r$lengths, r$values, 0L)
}

# Runs [lo, hi) of k holding v. Split in halves on k < mid down to 4 runs, or to depth 10: SQLite's
# parser stack (100 entries) overflowed at about 14 nested CASEs (a grid of 1e5 points); below the
# depth cap a leaf lists its runs flat (the 1e5 distinct values of an irregular grid: about 100 per
# leaf). Every leaf tests its k: NULL or a k off the list gives NULL, as a flat CASE.
sql_run_tree <- function(qc, lo, hi, v, depth) {
  n <- length(v)
  if (n <= 4L || depth >= 10L) {
    cond <- ifelse(hi - lo == 1L, sprintf("%s = %d", qc, lo), sprintf("%s >= %d AND %s < %d", qc, lo, qc, hi))
    return(paste0("CASE ", paste(sprintf("WHEN %s THEN %s", cond, sql_num(v)), collapse = " "), " END"))
  }
  h <- n %/% 2L
  left <- seq_len(h)
  sprintf("CASE WHEN %s < %d THEN %s ELSE %s END", qc, lo[h + 1L], sql_run_tree(qc, lo[left], hi[left], v[left], depth + 1L),
          sql_run_tree(qc, lo[-left], hi[-left], v[-left], depth + 1L))
}

# CASE expression: index (0-based) of the interval of `col` between the
# sorted `breaks` (values below breaks[1] -> 0, at or above breaks[j] -> j;
# op = "<=": intervals closed on the right, at breaks[j] -> j - 1), on the
# query in progress `s` (R/engine-sql.R).
sql_interval <- function(s, col, breaks, op = "<") sql_interval_tree(sq_id(s, col), breaks, op, 0L, 0L)

# The interval's index as a tree of CASEs on the middle break: about log2(m) comparisons per row
# instead of m / 2 in a flat list (a grid of 5,000 points on 1e6 rows), and a statement SQLite
# compiles in time (a flat list of 1e5 breaks took it 70 s). Depth capped as in sql_run_tree();
# the leaves are flat lists. NULL (and NaN, and +Inf) fail every comparison and reach the last
# leaf's ELSE, the index past the last break, as in one flat list.
sql_interval_tree <- function(qc, breaks, op, offset, depth) {
  n <- length(breaks)
  if (n <= 4L || depth >= 10L) {
    return(paste0("CASE ", paste(sprintf("WHEN %s %s %s THEN %d", qc, op, sql_num(breaks), offset + seq_len(n) - 1L),
                                 collapse = " "), sprintf(" ELSE %d END", offset + n)))
  }
  h <- n %/% 2L
  sprintf("CASE WHEN %s %s %s THEN %s ELSE %s END", qc, op, sql_num(breaks[h + 1L]),
          sql_interval_tree(qc, breaks[seq_len(h)], op, offset, depth + 1L),
          sql_interval_tree(qc, breaks[-seq_len(h + 1L)], op, offset + h + 1L, depth + 1L))
}

#' Show the SQL of an engine summary
#'
#' Returns the query that a database engine would run for a summary (the
#' main aggregation; the row and missing-value counts are a second, simple
#' query), without running it. Useful to check what a backend such as
#' PostgreSQL or Spark receives; with dbplyr's simulated connections
#' (`dbplyr::tbl_lazy(df, con = dbplyr::simulate_postgres())`) no database is
#' needed.
#'
#' @param x A lazy table.
#' @param summary One of `"kde"`, `"mean"`, `"mortality"`, `"kme_kernel"`,
#'   `"kme_features"`, `"cov"`, `"bin_regression"` (for `"cov"`, the first
#'   of the queries when the \eqn{J^2} products are split over several).
#' @param ... Arguments of the corresponding `summarise_*()` function
#'   (for `"kde"`, `mechanism = "iclp"` gives the weights on the grid, and a
#'   grid matrix the kernel sums at its points; see [summarise_kde()]).
#' @return The SQL (a character string of class `sql`).
#' @examples
#' if (requireNamespace("dbplyr", quietly = TRUE)) {
#'   t <- dbplyr::tbl_lazy(data.frame(x = 1), con = dbplyr::simulate_postgres())
#'   engine_sql(t, "kde", grid = seq(0, 1, length.out = 11), bandwidth = 0.1, columns = "x")
#' }
#' @export
engine_sql <- function(x, summary = c("kde", "mean", "mortality", "kme_kernel", "kme_features", "cov",
                                      "bin_regression"), ...) {
  check_required("x")
  engine_need()
  if (!is_lazy_table(x)) arg_error("x", "a lazy table (dbplyr)", x)
  summary <- check_choice(summary, c("kde", "mean", "mortality", "kme_kernel", "kme_features", "cov",
                                     "bin_regression"), "summary")
  q <- switch(summary,
              kde = summarise_kde(x, ..., .query = TRUE),
              mean = summarise_mean(x, ..., .query = TRUE),
              mortality = summarise_mortality(x, ..., .query = TRUE),
              kme_kernel = summarise_kme(x, ..., method = "subspace", .query = TRUE),
              kme_features = summarise_kme(x, ..., method = "random_features", .query = TRUE),
              cov = summarise_cov(x, ..., .query = TRUE),
              bin_regression = summarise_bin_regression(x, ..., .query = TRUE))
  dbplyr::sql_render(q)
}
