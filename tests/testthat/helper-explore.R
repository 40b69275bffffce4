# Helpers for the browser tests of dp_explore(): the app in a background R
# process on 127.0.0.1, driven by chromote in Debian's headless Chromium.

# The Chromium / Chrome binary: CHROMOTE_CHROME, else the usual names ("" if none).
explore_chromium <- function() {
  env <- Sys.getenv("CHROMOTE_CHROME")
  if (nzchar(env) && file.exists(env)) return(env)
  for (nm in c("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
    p <- Sys.which(nm)
    if (nzchar(p)) return(unname(p))
  }
  ""
}

# Poll `cond()` until it is TRUE or `timeout` seconds have passed.
explore_wait <- function(cond, timeout = 20, interval = 0.1) {
  end <- Sys.time() + timeout
  repeat {
    ok <- tryCatch(isTRUE(cond()), error = function(e) FALSE)
    if (ok) return(TRUE)
    if (Sys.time() > end) return(FALSE)
    Sys.sleep(interval)
  }
}

# Start dp_explore() in a background R process on 127.0.0.1; returns the
# callr process and the URL, after the server answers.
explore_start_app <- function(timeout = 30) {
  port <- httpuv::randomPort(host = "127.0.0.1")
  proc <- callr::r_bg(function(port) {
    shiny::runApp(dpfda::dp_explore(), port = port, host = "127.0.0.1", launch.browser = FALSE)
  }, args = list(port = port), supervise = TRUE)
  url <- sprintf("http://127.0.0.1:%d/", port)
  up <- explore_wait(function() {
    con <- url(url)
    on.exit(close(con))
    length(suppressWarnings(readLines(con, n = 1L, warn = FALSE))) > 0L
  }, timeout = timeout, interval = 0.2)
  if (!up) {
    err <- tryCatch(proc$read_all_error(), error = function(e) "")
    proc$kill()
    stop("the app did not start: ", err)
  }
  list(proc = proc, url = url)
}

# A headless Chromium session (with --no-sandbox, needed as root).
explore_browser <- function(chrome, width = 1400, height = 1000) {
  args <- unique(c(chromote::default_chrome_args(), "--no-sandbox", "--disable-gpu"))
  cm <- chromote::Chromote$new(browser = chromote::Chrome$new(path = chrome, args = args))
  s <- chromote::ChromoteSession$new(parent = cm, width = width, height = height)
  list(chromote = cm, session = s)
}

# Evaluate JavaScript in the page and return its value.
explore_js <- function(s, js) {
  r <- s$Runtime$evaluate(js, returnByValue = TRUE)
  if (!is.null(r$exceptionDetails)) stop("JavaScript error: ", r$exceptionDetails$text)
  r$result$value
}

# The text of a cell of a numbers table (data-key), or "" while absent.
explore_number <- function(s, output_id, key) {
  explore_js(s, sprintf(
    "(function(){var e=document.querySelector('#%s td[data-key=\"%s\"]');return e?e.innerText:'';})()",
    output_id, key))
}

# Drag the handle of a shiny slider with the mouse to the position of `value`.
explore_drag_slider <- function(s, id, value) {
  geo <- explore_js(s, sprintf(paste0(
    "(function(){var c=document.getElementById('%s').parentElement;",
    "var h=c.querySelector('.irs-handle.single')||c.querySelector('.irs-handle');",
    "var l=c.querySelector('.irs-line');var sl=$('#%s').data('ionRangeSlider');",
    "var hr=h.getBoundingClientRect(), lr=l.getBoundingClientRect();",
    "return [hr.left+hr.width/2, hr.top+hr.height/2, lr.left, lr.width, sl.options.min, sl.options.max, hr.width];})()"),
    id, id))
  geo <- unlist(geo)
  x0 <- geo[1]
  y0 <- geo[2]
  # the handle's centre runs over the line less one handle width
  frac <- (value - geo[5]) / (geo[6] - geo[5])
  x1 <- geo[3] + geo[7] / 2 + frac * (geo[4] - geo[7])
  s$Input$dispatchMouseEvent(type = "mouseMoved", x = x0, y = y0)
  s$Input$dispatchMouseEvent(type = "mousePressed", x = x0, y = y0, button = "left", clickCount = 1)
  for (x in seq(x0, x1, length.out = 8)[-1]) {
    s$Input$dispatchMouseEvent(type = "mouseMoved", x = x, y = y0, button = "left", buttons = 1)
  }
  s$Input$dispatchMouseEvent(type = "mouseReleased", x = x1, y = y0, button = "left", clickCount = 1)
  invisible(x1)
}
