# Screenshots of the tabs of dp_explore() (teaching mode, the package's data)
# taken in headless Chromium, with the recompute times each tab reports.
#
# Sourced by tools/reproduce.R (`make demo`): fig_explore(out_dir) writes
# explore-mean.png, explore-density.png, explore-regression.png and
# explore-budget.png (after enough releases for the budget to refuse one)
# and returns the report's section. Also runs on its own:
#
#   Rscript tools/reproduce/explore-screens.R OUTDIR
#
# which writes the four PNGs and OUTDIR/explore-timings.csv. Needs the
# installed dpfda, shiny, chromote, callr, httpuv and a Chromium or Chrome
# binary (CHROMOTE_CHROME, or `chromium` on the PATH; Debian: apt-get
# install chromium, done by `make deps-system`). The app listens on
# 127.0.0.1 only.

explore_screens_tabs <- c("mean", "density", "regression", "budget")

# "" when everything is there, else what is missing.
explore_screens_missing <- function() {
  miss <- Filter(function(p) !requireNamespace(p, quietly = TRUE), c("dpfda", "shiny", "chromote", "callr", "httpuv"))
  if (length(miss)) return(paste("the R package(s)", paste(miss, collapse = ", ")))
  if (!nzchar(explore_screens_chrome())) return("a Chromium or Chrome binary (set CHROMOTE_CHROME)")
  ""
}

explore_screens_chrome <- function() {
  chrome <- Sys.getenv("CHROMOTE_CHROME")
  if (nzchar(chrome) && file.exists(chrome)) return(chrome)
  cand <- Sys.which(c("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"))
  cand <- unname(cand[nzchar(cand)])
  if (length(cand)) cand[1] else ""
}

explore_screens_wait <- function(cond, timeout = 60) {
  end <- Sys.time() + timeout
  repeat {
    if (isTRUE(tryCatch(cond(), error = function(e) FALSE))) return(TRUE)
    if (Sys.time() > end) return(FALSE)
    Sys.sleep(0.1)
  }
}

# Close the session and the browser quietly: the browser's websocket reports
# "got non-close frame while closing" (websocketpp, through R's stderr) from
# the event loop, which would print it later, inside the next figure's line
# of progress. The loop is run here until the socket is done, with R's
# message stream diverted.
explore_screens_close <- function(cm, s) {
  sink_to <- file(nullfile(), open = "w")
  sink(sink_to, type = "message")
  on.exit({
    sink(type = "message")
    close(sink_to)
  })
  if (!is.null(s)) try(s$close(), silent = TRUE)
  try(cm$close(), silent = TRUE)
  for (i in 1:20) later::run_now(0.05)
  invisible()
}

# Take the screenshots into out_dir; returns the timings the tabs report
# (wall clock and CPU seconds of the releases and of the error panel).
explore_screens <- function(out_dir) {
  dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)
  miss <- explore_screens_missing()
  if (nzchar(miss)) stop("explore-screens.R needs ", miss)
  wait_for <- explore_screens_wait
  port <- httpuv::randomPort(host = "127.0.0.1")
  app <- callr::r_bg(function(port) {
    shiny::runApp(dpfda::dp_explore(), port = port, host = "127.0.0.1", launch.browser = FALSE)
  }, args = list(port = port), supervise = TRUE)
  on.exit(app$kill(), add = TRUE)
  url <- sprintf("http://127.0.0.1:%d/", port)
  if (!wait_for(function() {
    con <- url(url)
    on.exit(close(con))
    length(suppressWarnings(readLines(con, n = 1L, warn = FALSE))) > 0L
  })) stop("the app did not start: ", app$read_all_error())

  cargs <- unique(c(chromote::default_chrome_args(), "--no-sandbox", "--disable-gpu"))
  cm <- chromote::Chromote$new(browser = chromote::Chrome$new(path = explore_screens_chrome(), args = cargs))
  s <- NULL
  on.exit(explore_screens_close(cm, s), add = TRUE)
  s <- chromote::ChromoteSession$new(parent = cm, width = 1500, height = 1050)
  js <- function(code) s$Runtime$evaluate(code, returnByValue = TRUE)$result$value
  cell <- function(id, key) {
    js(sprintf("(function(){var e=document.querySelector('#%s td[data-key=\"%s\"]');return e?e.innerText:'';})()",
               id, key))
  }
  img_ready <- function(ids) {
    js(sprintf("(function(){return [%s].every(function(id){var a=document.querySelector('#'+id+' img');
      return !!(a && a.complete && a.naturalWidth > 0) && !document.querySelector('#'+id+'.recalculating');});})()",
      paste0("'", ids, "'", collapse = ",")))
  }
  invisible(s$Page$navigate(url))
  timings <- data.frame()
  for (tab in explore_screens_tabs) {
    js(sprintf("document.querySelector('a[data-value=\"%s\"]').click()", tab))
    if (tab == "budget") {
      wait_for(function() identical(cell("budget_status", "releases"), "0"))
      for (i in 1:4) {
        js("document.getElementById('budget_release').click()")
        wait_for(function() grepl(if (i < 4) sprintf("Release %d made", i) else "Refused",
                                  js("document.getElementById('budget_message').innerText")))
      }
      wait_for(function() identical(cell("budget_status", "releases"), "3") && img_ready("budget_plot"))
    } else {
      ok <- wait_for(function() nzchar(cell(paste0(tab, "_numbers"), "seconds")) &&
                       img_ready(paste0(tab, c("_plot", "_errors"))))
      if (!ok) stop("the ", tab, " tab did not render")
      txt <- cell(paste0(tab, "_numbers"), "seconds")
      sec <- as.numeric(regmatches(txt, gregexpr("[0-9]+[.][0-9]+", txt))[[1]])
      timings <- rbind(timings, data.frame(tab = tab, releases_s = sec[1], releases_cpu_s = sec[2],
                                           error_panel_s = sec[3], error_panel_cpu_s = sec[4]))
    }
    Sys.sleep(0.5)
    f <- file.path(out_dir, sprintf("explore-%s.png", tab))
    s$screenshot(f, selector = "html", show = FALSE)
  }
  timings
}

# The section of the make demo report.
fig_explore <- function(out_dir) {
  file <- "explore-mean.png"
  miss <- explore_screens_missing()
  if (nzchar(miss)) {
    grDevices::png(file.path(out_dir, file), width = 800, height = 200)
    graphics::plot.new()
    graphics::text(0.5, 0.5, paste("Explorer screenshots skipped: needs", miss))
    grDevices::dev.off()
    return(list(title = "The explorer dp_explore()", file = file,
                text = paste("Screenshots skipped: this machine lacks", miss, "."), table = NULL))
  }
  # in a child R process whose output goes to a log: the websocket library of chromote prints
  # "got non-close frame while closing" from C++ when the browser closes, past any sink()
  script <- file.path("tools", "reproduce", "explore-screens.R")
  log <- file.path(out_dir, "explore-screens.log")
  status <- system2(file.path(R.home("bin"), "Rscript"), c(shQuote(script), shQuote(out_dir)), stdout = log,
                    stderr = log)
  if (!identical(as.integer(status), 0L)) {
    stop("the explorer screenshots failed (see ", log, "): ", paste(utils::tail(readLines(log), 3L), collapse = " "))
  }
  tm <- utils::read.csv(file.path(out_dir, "explore-timings.csv"))
  list(title = "The explorer dp_explore()", file = file,
       text = paste(
         "Screenshots of `shiny::runApp(dp_explore())` in headless Chromium (driven by chromote), in",
         "teaching mode (seeded noise, labelled NOT private). Mean curve tab above; then the density,",
         "GP regression and budget tabs (the budget after three releases of epsilon 0.3 from 1 and a",
         "refused fourth). The table gives the time each tab took to recompute, wall clock and CPU, as",
         "the tab reports it on its first draw:",
         "![density](explore-density.png) ![regression](explore-regression.png)",
         "![budget](explore-budget.png)"),
       table = tm)
}

if (sys.nframe() == 0L) {
  args <- commandArgs(trailingOnly = TRUE)
  out <- if (length(args)) args[1] else "reproduce"
  tm <- explore_screens(out)
  utils::write.csv(tm, file.path(out, "explore-timings.csv"), row.names = FALSE)
  print(tm)
  message("wrote ", paste(file.path(out, sprintf("explore-%s.png", explore_screens_tabs)), collapse = ", "))
}
