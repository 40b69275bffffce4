# Screenshots of the tabs of dp_explore() (teaching mode, the package's data)
# taken in headless Chromium, plus the recompute times each tab reports.
#
#   Rscript tools/reproduce/explore-screens.R OUTDIR
#
# Writes OUTDIR/explore-mean.png, explore-density.png, explore-regression.png,
# explore-budget.png (after enough releases for the budget to refuse one) and
# OUTDIR/explore-timings.csv. Needs the installed dpfda, shiny, chromote,
# callr, httpuv and a Chromium or Chrome binary (CHROMOTE_CHROME, or
# `chromium` on the PATH; Debian: apt-get install chromium). The app listens
# on 127.0.0.1 only.
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[1] else "reproduce"
dir.create(out, recursive = TRUE, showWarnings = FALSE)
for (p in c("dpfda", "shiny", "chromote", "callr", "httpuv")) {
  if (!requireNamespace(p, quietly = TRUE)) stop("explore-screens.R needs the package ", p)
}
chrome <- Sys.getenv("CHROMOTE_CHROME")
if (!nzchar(chrome)) {
  cand <- Sys.which(c("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"))
  chrome <- unname(cand[nzchar(cand)][1])
}
if (is.na(chrome) || !nzchar(chrome)) stop("no Chromium or Chrome binary: set CHROMOTE_CHROME")

wait_for <- function(cond, timeout = 30) {
  end <- Sys.time() + timeout
  repeat {
    if (isTRUE(tryCatch(cond(), error = function(e) FALSE))) return(TRUE)
    if (Sys.time() > end) return(FALSE)
    Sys.sleep(0.1)
  }
}

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
cm <- chromote::Chromote$new(browser = chromote::Chrome$new(path = chrome, args = cargs))
on.exit(try(cm$close(), silent = TRUE), add = TRUE)
s <- chromote::ChromoteSession$new(parent = cm, width = 1500, height = 1050)
js <- function(code) s$Runtime$evaluate(code, returnByValue = TRUE)$result$value
cell <- function(id, key) {
  js(sprintf("(function(){var e=document.querySelector('#%s td[data-key=\"%s\"]');return e?e.innerText:'';})()",
             id, key))
}
plots_ready <- function(tab) {
  js(sprintf(paste0("(function(){var a=document.querySelector('#%s_plot img'),",
                    "b=document.querySelector('#%s_errors img');",
                    "return !!(a && b && a.complete && b.complete && a.naturalWidth > 0 && b.naturalWidth > 0",
                    " && !document.querySelector('#%s_plot.recalculating, #%s_errors.recalculating'));})()"),
             tab, tab, tab, tab))
}
invisible(s$Page$navigate(url))
timings <- data.frame()
for (tab in c("mean", "density", "regression", "budget")) {
  js(sprintf("document.querySelector('a[data-value=\"%s\"]').click()", tab))
  if (tab == "budget") {
    wait_for(function() identical(cell("budget_status", "releases"), "0"))
    for (i in 1:4) {
      js("document.getElementById('budget_release').click()")
      wait_for(function() grepl(if (i < 4) sprintf("Release %d made", i) else "Refused",
                                js("document.getElementById('budget_message').innerText")))
    }
    wait_for(function() js("(function(){var a=document.querySelector('#budget_plot img');return !!(a && a.complete);})()"))
  } else {
    if (!wait_for(function() nzchar(cell(paste0(tab, "_numbers"), "seconds")) && plots_ready(tab))) {
      stop("the ", tab, " tab did not render")
    }
    txt <- cell(paste0(tab, "_numbers"), "seconds")
    sec <- as.numeric(regmatches(txt, gregexpr("[0-9]+[.][0-9]+", txt))[[1]])
    timings <- rbind(timings, data.frame(tab = tab, releases_s = sec[1], releases_cpu_s = sec[2],
                                         error_panel_s = sec[3], error_panel_cpu_s = sec[4]))
  }
  Sys.sleep(0.5)
  f <- file.path(out, sprintf("explore-%s.png", tab))
  s$screenshot(f, selector = "html", show = FALSE)
  message("wrote ", f)
}
utils::write.csv(timings, file.path(out, "explore-timings.csv"), row.names = FALSE)
print(timings)
