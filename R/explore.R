# dp_explore(): an interactive explorer of privacy against utility, for
# teaching (shiny, in Suggests). The computations are in R/explore-compute.R,
# the user interface and the server here.

#' Explore privacy against utility in the browser
#'
#' `dp_explore()` builds a Shiny app that shows how private releases change
#' with \eqn{\epsilon}, \eqn{\delta}, the number of records, the clipping
#' bound and the mechanism. It has four tabs:
#'
#' * **Mean curve**: [dp_mean()] with ICLP-QR, ICLP-AR, FRL, GP or Bernstein
#'   on the DTI tract profiles ([dti_cca]) or the Adelaide electricity
#'   demand ([adelaide_monday]); controls for \eqn{\epsilon}, \eqn{\delta}
#'   (GP), the subsample size \eqn{n}, the clipping bound \eqn{\tau} (or
#'   `tau = "auto"`, chosen privately within the same epsilon: the notes give
#'   the chosen bound, and the error panel leaves out the epsilons too small
#'   for it) and the lengthscale of the Matern 3/2 kernel. DTI is released
#'   with the person as the privacy unit (`unit =` of [dp_mean()]): \eqn{n}
#'   counts persons (142, with 376 scans), the subsample takes whole persons,
#'   and the black curve is the mean of the persons' mean scans.
#' * **Density**: [dp_kde()] with the GP, ICLP or Bernstein mechanism on a
#'   beta mixture (true density known) or ages at death ([un_mortality]);
#'   the bounds are the domain the data are clamped to, the lengthscale is
#'   the bandwidth.
#' * **GP regression**: [dp_gp_regression()], cloaking against the standard
#'   mechanism, on a synthetic curve or the Adelaide demand at 18:00 against
#'   the time of year; the bounds are `y_bound`.
#' * **Budget**: releases of the mean curve charged to one
#'   [privacy_budget()], with the ledger, and the refusal once it is
#'   exhausted.
#'
#' Each view draws the non-private estimate, several private releases (the
#' number to overlay is a control), the pointwise 95% noise band of the first
#' release (from `confint()` when the package provides it for releases,
#' otherwise the release plus or minus 1.96 pointwise noise standard
#' deviations; on the mean tab, with "population band" ticked, the release
#' spends a share of epsilon on the spread of the curves (`dp_mean(inference =
#' TRUE)`) and the band is the simultaneous 95% band for the population mean,
#' `confint(type = "population")`; on the density tab the simultaneous 95%
#' band for the smoothed population density, which costs no budget) and, beside it, the root mean square error against
#' \eqn{\epsilon} on a log scale: the expected error of the noise (from
#' `dp_accuracy()` when available, otherwise computed from the release's noise
#' scale and noise kernel or basis) and the measured error of releases against
#' the non-private estimate (which also contains the bias of clipping,
#' shrinkage or truncation). A table gives the numbers and the time the view
#' took to recompute; on the density tab it adds the private median with its
#' 95% interval (`quantile(r, interval = )`: for the noise-free median, or for
#' the population's with "population band" ticked) beside the non-private one.
#'
#' **Modes.** With the package's own data (`mode = "auto"`) the app runs in
#' *teaching mode*: the noise is seeded ([dp_reproducible()]) so that a
#' class sees the same pictures, and every page and plot says that these
#' releases are **not private**. With the user's own `data` it runs in
#' *secure mode*: the noise comes from the operating system's entropy
#' ([dp_rng()]). Even then the app shows non-private estimates of the data
#' and draws many releases from them, and the default ranges of the sliders
#' are computed from the data: it is a tool for the data holder, and its
#' pages must not be published. Only the Budget tab accounts for the
#' releases it makes.
#'
#' The app changes the noise source only while it computes, and restores the
#' caller's mode and R's random stream afterwards.
#'
#' @param data `NULL` (the package's data sets), or the user's data: a
#'   [curves()] object or numeric matrix of curves (rows; Mean curve tab), a
#'   numeric vector (Density tab), a data frame with numeric columns `x` and
#'   `y` (GP regression tab), or a list of these named `mean`, `density`,
#'   `regression`. The user's data are offered first; the package's data sets
#'   stay available.
#' @param mode `"auto"` (teaching mode for the package's data, secure mode
#'   with `data`), `"teaching"` or `"secure"`.
#' @param seed The seed of teaching mode.
#' @return A `shiny.appobj`: `shiny::runApp(dp_explore(), port = 8765)` runs
#'   it; printing it in an interactive session launches it.
#' @seealso [dp_mean()], [dp_kde()], [dp_gp_regression()], [privacy_budget()].
#' @examples
#' if (requireNamespace("shiny", quietly = TRUE)) {
#'   app <- dp_explore()
#'   print(class(app))   # (a shiny app object; printing the app itself launches it)
#'   if (interactive()) shiny::runApp(app)
#' }
#' @export
dp_explore <- function(data = NULL, mode = c("auto", "teaching", "secure"), seed = 1L) {
  need_package("shiny", "dp_explore()")
  mode <- check_choice(mode, c("auto", "teaching", "secure"), "mode")
  seed <- check_count(seed, "seed", min = 0)
  user <- explore_user_data(data)
  builtin <- explore_builtin()
  sets <- lapply(stats::setNames(explore_tabs, explore_tabs), function(tab) {
    s <- builtin[[tab]]
    if (!is.null(user[[tab]])) s <- c(list(user = user[[tab]]), s)
    s
  })
  if (mode == "auto") mode <- if (length(user)) "secure" else "teaching"
  shiny::shinyApp(ui = explore_ui(sets, mode, seed),
                  server = explore_server(sets, mode, if (mode == "teaching") seed else NULL))
}

explore_mode_label <- function(mode, seed) {
  if (mode == "teaching") {
    sprintf("TEACHING MODE: seeded noise (seed %d), reproducible and therefore NOT private", seed)
  } else {
    "SECURE MODE: noise from the operating system's entropy"
  }
}

# ---- user interface -------------------------------------------------------------

explore_css <- "
.dpx-banner { padding: 8px 14px; margin: 8px 0 12px 0; border-radius: 4px; font-weight: bold; }
.dpx-teaching { background: #fff3cd; border: 2px solid #d9534f; color: #8a1f11; }
.dpx-secure { background: #dff0d8; border: 2px solid #3c763d; color: #2b542c; }
.dpx-numbers td { padding: 2px 10px; }
.dpx-numbers td.dpx-value { font-family: monospace; text-align: right; }
.dpx-refusal { background: #f2dede; border: 2px solid #a94442; color: #a94442; padding: 8px; border-radius: 4px; }
.dpx-ok { background: #eef5fb; border: 1px solid #9ac; padding: 8px; border-radius: 4px; }
.dpx-help { color: #555; font-size: 90%; }
"

explore_titles <- c(mean = "Mean curve", density = "Density", regression = "GP regression")

explore_help <- list(
  mean = paste("Private mean of the curves (dp_mean()). Black: the non-private mean of the subsample;",
               "orange: private releases; blue band: pointwise 95% noise band of the first release.",
               "Right: root mean square error against epsilon (line: expected noise; points: measured",
               "against the non-private mean, which includes the bias of clipping and smoothing).",
               "ICLP-QR: with psi retuned by PSS at each epsilon, a larger epsilon buys less smoothing",
               "instead of less noise, so the band hardly narrows while the error still falls."),
  density = paste("Private kernel density estimate (dp_kde()). Black: the non-private Gaussian KDE with",
                  "the same bandwidth; dashed green: the true density where it is known. The bounds are",
                  "the public domain; data outside are clamped to it."),
  regression = paste("Private GP regression (dp_gp_regression()): the posterior mean at 50 test points,",
                     "released with the cloaking or the standard mechanism. Grey: the data; black: the",
                     "non-private posterior mean. Right: both mechanisms against epsilon."),
  budget = paste("Releases of the mean curve (with the data and settings of the Mean curve tab) charged",
                 "to one privacy budget. Once the budget cannot pay for another release, the release is",
                 "refused and nothing is returned."))

explore_tab_ui <- function(tab, sets) {
  ns <- function(id) paste0(tab, "_", id)
  s <- sets[[1L]]
  d <- explore_defaults(s, tab)
  choices <- stats::setNames(names(sets), vapply(sets, function(x) x$label, ""))
  delta_ui <- shiny::sliderInput(ns("delta_log10"), "log10(delta)", min = -8, max = -1, value = -3, step = 0.5)
  if (tab != "regression") {
    delta_ui <- shiny::conditionalPanel(sprintf("input.%s == 'gp'", ns("mechanism")), delta_ui)
  }
  bound_ui <- switch(tab,
    mean = shiny::tagList(
      shiny::sliderInput(ns("tau"), "tau (clipping bound, L2 norm)", min = s$tau_range[1],
                         max = s$tau_range[2], value = s$tau, step = explore_step(s$tau_range)),
      shiny::checkboxInput(ns("tau_auto"), "tau = \"auto\": choose it privately (a share of epsilon)", FALSE),
      shiny::checkboxInput(ns("population"),
                           "population band (inference = TRUE: a share of epsilon buys the spread of the curves)",
                           FALSE)),
    density = shiny::tagList(
      shiny::sliderInput(ns("bounds"), "bounds (public domain)", min = s$bounds_range[1],
                         max = s$bounds_range[2], value = s$bounds, step = explore_step(s$bounds_range)),
      shiny::checkboxInput(ns("population"),
                           "population band (the smoothed density f_h: sampling and noise, no extra budget)",
                           FALSE)),
    regression = shiny::sliderInput(ns("bounds"), "bounds on y (y_bound)", min = s$bounds_range[1],
                                    max = s$bounds_range[2], value = s$y_bound,
                                    step = explore_step(s$bounds_range)))
  shiny::tabPanel(
    explore_titles[[tab]], value = tab,
    shiny::sidebarLayout(
      shiny::sidebarPanel(
        width = 3,
        shiny::selectInput(ns("data"), "Data", choices),
        shiny::selectInput(ns("mechanism"), "Mechanism", explore_mechanisms[[tab]]),
        if (tab == "mean") shiny::conditionalPanel(
          "input.mean_mechanism == 'iclp_qr'",
          shiny::selectInput("mean_tuning", "ICLP-QR smoothing psi",
                             c("fixed (PSS value at epsilon = 1)" = "fixed",
                               "PSS, retuned at each epsilon" = "pss"))),
        shiny::sliderInput(ns("epsilon"), "epsilon", min = 0.1, max = 10, value = d$epsilon, step = 0.1),
        delta_ui,
        shiny::sliderInput(ns("n"), "n (subsample size)", min = min(10L, s$n_max), max = s$n_max,
                           value = s$n, step = 1),
        bound_ui,
        shiny::sliderInput(ns("lengthscale"), if (tab == "density") "bandwidth (kernel lengthscale)"
                           else "kernel lengthscale", min = s$ls_range[1], max = s$ls_range[2],
                           value = s$lengthscale, step = explore_step(s$ls_range)),
        shiny::sliderInput(ns("releases"), "releases to overlay", min = 1, max = 10, value = d$releases,
                           step = 1)),
      shiny::mainPanel(
        width = 9,
        shiny::p(class = "dpx-help", explore_help[[tab]]),
        shiny::fluidRow(
          shiny::column(7, shiny::plotOutput(ns("plot"), height = "420px")),
          shiny::column(5, shiny::plotOutput(ns("errors"), height = "420px"))),
        shiny::htmlOutput(ns("numbers")),
        shiny::htmlOutput(ns("notes")))))
}

# A slider step of about 1/100 of the range, rounded to one significant digit.
explore_step <- function(r) signif(diff(r) / 100, 1)

explore_budget_ui <- function() {
  shiny::tabPanel(
    "Budget", value = "budget",
    shiny::sidebarLayout(
      shiny::sidebarPanel(
        width = 3,
        shiny::sliderInput("budget_epsilon", "total epsilon of the budget", min = 0.2, max = 5,
                           value = 1, step = 0.1),
        shiny::sliderInput("budget_delta_log10", "log10(total delta)", min = -8, max = -2, value = -5,
                           step = 0.5),
        shiny::selectInput("budget_composition", "composition",
                           c("basic" = "basic", "Gaussian DP (exact for Gaussian noise)" = "gdp",
                             "zCDP" = "zcdp", "advanced" = "advanced")),
        shiny::selectInput("budget_mechanism", "mechanism of each release", explore_mechanisms$mean),
        shiny::sliderInput("budget_release_epsilon", "epsilon of each release", min = 0.05, max = 2,
                           value = 0.3, step = 0.05),
        shiny::conditionalPanel("input.budget_mechanism == 'gp'",
          shiny::sliderInput("budget_release_delta_log10", "log10(delta of each release)", min = -9,
                             max = -2, value = -6, step = 0.5)),
        shiny::actionButton("budget_release", "Release", class = "btn-primary"),
        shiny::actionButton("budget_reset", "New budget")),
      shiny::mainPanel(
        width = 9,
        shiny::p(class = "dpx-help", explore_help$budget),
        shiny::htmlOutput("budget_message"),
        shiny::htmlOutput("budget_status"),
        shiny::fluidRow(
          shiny::column(7, shiny::plotOutput("budget_plot", height = "380px")),
          shiny::column(5, shiny::h4("Ledger"), shiny::tableOutput("budget_ledger"))))))
}

explore_ui <- function(sets, mode, seed) {
  banner <- shiny::div(
    id = "mode_banner", class = paste("dpx-banner", if (mode == "teaching") "dpx-teaching" else "dpx-secure"),
    explore_mode_label(mode, seed),
    if (mode == "secure") shiny::span(
      style = "font-weight: normal;",
      paste(" -- the releases are private, but this page also shows non-private estimates of the data",
            "and draws many releases from them: it is for the data holder, not for publication.")))
  shiny::fluidPage(
    title = "dpfda explorer",
    shiny::tags$head(shiny::tags$style(shiny::HTML(explore_css))),
    shiny::h3("dpfda explorer: privacy against utility"),
    banner,
    shiny::tabsetPanel(
      id = "tab",
      explore_tab_ui("mean", sets$mean),
      explore_tab_ui("density", sets$density),
      explore_tab_ui("regression", sets$regression),
      explore_budget_ui()))
}

# ---- server -----------------------------------------------------------------------

explore_server <- function(sets, mode, seed) {
  label <- explore_mode_label(mode, if (is.null(seed)) 0L else seed)
  function(input, output, session) {
    val <- function(id, default) {
      v <- input[[id]]
      if (is.null(v)) default else v
    }
    # parameters of a tab without epsilon and the number of releases (the
    # error panel depends on these only)
    core <- lapply(stats::setNames(explore_tabs, explore_tabs), function(tab) {
      shiny::reactive({
        ns <- function(id) paste0(tab, "_", id)
        set <- sets[[tab]][[val(ns("data"), names(sets[[tab]])[1L])]]
        d <- explore_defaults(set, tab)
        p <- list(mechanism = val(ns("mechanism"), d$mechanism), delta = 10^val(ns("delta_log10"), -3),
                  n = val(ns("n"), d$n), lengthscale = val(ns("lengthscale"), d$lengthscale))
        if (tab == "mean") {
          p$tau <- val(ns("tau"), d$tau)
          p$tau_auto <- isTRUE(val(ns("tau_auto"), FALSE))
          p$tuning <- val("mean_tuning", d$tuning)
        } else {
          p$bounds <- val(ns("bounds"), d$bounds)
        }
        list(set = set, p = p)
      })
    })
    params <- lapply(stats::setNames(explore_tabs, explore_tabs), function(tab) {
      shiny::reactive({
        cp <- core[[tab]]()
        cp$p$epsilon <- val(paste0(tab, "_epsilon"), 1)
        cp$p$releases <- val(paste0(tab, "_releases"), 5L)
        if (tab %in% c("mean", "density")) cp$p$population <- isTRUE(val(paste0(tab, "_population"), FALSE))
        cp
      })
    })
    views <- lapply(stats::setNames(explore_tabs, explore_tabs), function(tab) {
      shiny::reactive({
        pp <- params[[tab]]()
        tryCatch(explore_view(tab, pp$set, pp$p, seed), error = function(e) list(error = conditionMessage(e)))
      })
    })
    errors <- lapply(stats::setNames(explore_tabs, explore_tabs), function(tab) {
      shiny::reactive({
        cp <- core[[tab]]()
        tryCatch(explore_errors(tab, cp$set, cp$p, seed), error = function(e) list(error = conditionMessage(e)))
      })
    })

    lapply(explore_tabs, function(tab) {
      ns <- function(id) paste0(tab, "_", id)
      # a new data set: new slider ranges; the old values are frozen meanwhile
      shiny::observeEvent(input[[ns("data")]], {
        set <- sets[[tab]][[input[[ns("data")]]]]
        ids <- c("n", "lengthscale", if (tab == "mean") "tau" else "bounds")
        for (id in ids) shiny::freezeReactiveValue(input, ns(id))
        shiny::updateSliderInput(session, ns("n"), min = min(10L, set$n_max), max = set$n_max, value = set$n)
        shiny::updateSliderInput(session, ns("lengthscale"), min = set$ls_range[1], max = set$ls_range[2],
                                 value = set$lengthscale, step = explore_step(set$ls_range))
        if (tab == "mean") {
          shiny::updateSliderInput(session, ns("tau"), min = set$tau_range[1], max = set$tau_range[2],
                                   value = set$tau, step = explore_step(set$tau_range))
        } else {
          shiny::updateSliderInput(session, ns("bounds"), min = set$bounds_range[1], max = set$bounds_range[2],
                                   value = if (tab == "density") set$bounds else set$y_bound,
                                   step = explore_step(set$bounds_range))
        }
      }, ignoreInit = TRUE)
      output[[ns("plot")]] <- shiny::renderPlot(explore_plot_view(views[[tab]](), core[[tab]]()$set, label, mode))
      output[[ns("errors")]] <- shiny::renderPlot(explore_plot_errors(errors[[tab]](), views[[tab]](), label,
                                                                      mode))
      output[[ns("numbers")]] <- shiny::renderUI(explore_numbers_html(views[[tab]](), errors[[tab]]()))
      output[[ns("notes")]] <- shiny::renderUI({
        n <- c(views[[tab]]()$notes, errors[[tab]]()$notes)
        if (length(n)) shiny::div(class = "dpx-help", shiny::HTML(paste("Note:", explore_escape(n),
                                                                        collapse = "<br>")))
      })
    })

    # ---- budget ----
    bud <- shiny::reactiveValues(budget = privacy_budget(1, 1e-5, "basic"), releases = list(),
                                 message = NULL, refused = FALSE, count = 0L, version = 0L)
    new_budget <- function() {
      bud$budget <- privacy_budget(val("budget_epsilon", 1), 10^val("budget_delta_log10", -5),
                                   composition = val("budget_composition", "basic"))
      bud$releases <- list()
      bud$refused <- FALSE
      bud$message <- "A new budget: nothing spent yet."
      bud$version <- bud$version + 1L
    }
    shiny::observeEvent(list(input$budget_epsilon, input$budget_delta_log10, input$budget_composition,
                             input$budget_reset), new_budget(), ignoreNULL = FALSE)
    shiny::observeEvent(input$budget_release, {
      cp <- shiny::isolate(core$mean())
      p <- cp$p
      p$mechanism <- val("budget_mechanism", "iclp_qr")
      p$delta <- 10^val("budget_release_delta_log10", -6)
      eps <- val("budget_release_epsilon", 0.3)
      sub <- explore_subsample(cp$set, "mean", p)
      bud$count <- bud$count + 1L
      s <- if (is.null(seed)) NULL else seed + 100L + bud$count
      res <- tryCatch(
        explore_with_noise(s, suppressWarnings(explore_release("mean", cp$set, sub, p, epsilon = eps,
                                                               budget = bud$budget))),
        dpfda_error_budget = function(e) e,
        error = function(e) e)
      if (inherits(res, "dpfda_error_budget")) {
        bud$refused <- TRUE
        bud$message <- paste("Refused:", conditionMessage(res))
      } else if (inherits(res, "error")) {
        bud$refused <- FALSE
        bud$message <- paste("Error:", conditionMessage(res))
      } else {
        bud$refused <- FALSE
        bud$releases <- c(bud$releases, list(res))
        bud$message <- sprintf("Release %d made (%s, epsilon = %s).", length(bud$releases), p$mechanism,
                               format(eps))
      }
      bud$version <- bud$version + 1L
    })
    budget_state <- shiny::reactive({
      bud$version
      b <- bud$budget
      list(spent = budget_spent(b), ledger = summary(b), budget = b, releases = bud$releases,
           refused = bud$refused, message = bud$message)
    })
    output$budget_message <- shiny::renderUI({
      st <- budget_state()
      shiny::div(id = "budget_message_box", class = if (st$refused) "dpx-refusal" else "dpx-ok", st$message)
    })
    output$budget_status <- shiny::renderUI({
      st <- budget_state()
      s <- st$spent
      explore_table_html(list(
        list("budget", sprintf("epsilon = %s, delta = %s, %s composition", format(st$budget$epsilon),
                               format(st$budget$delta), st$budget$composition), "budget"),
        list("releases made", s$releases, "releases"),
        list("epsilon spent (composed)", format(s$epsilon, digits = 4), "spent"),
        list("delta spent", format(s$delta, digits = 4), "spent_delta"),
        list("epsilon remaining", format(s$remaining_epsilon, digits = 4), "remaining"),
        list("largest next release (pure-DP / Gaussian)",
             sprintf("epsilon %s / (epsilon %s, delta %s)", format_down(s$next_release$epsilon[1L]),
                     format_down(s$next_release$epsilon[2L]), format(s$next_release$delta[2L], digits = 4)),
             "next_release")))
    })
    output$budget_ledger <- shiny::renderTable({
      l <- budget_state()$ledger
      if (!nrow(l)) return(data.frame(label = "(nothing spent)"))
      data.frame(release = seq_len(nrow(l)), label = l$label, epsilon = l$epsilon, delta = l$delta,
                 total_epsilon = l$total_epsilon)
    }, digits = 4)
    output$budget_plot <- shiny::renderPlot({
      st <- budget_state()
      cp <- core$mean()
      explore_plot_budget(st, explore_subsample(cp$set, "mean", cp$p), cp$set, label, mode)
    })
  }
}

# ---- plots and tables ---------------------------------------------------------------

explore_escape <- function(x) {
  x <- gsub("&", "&amp;", x, fixed = TRUE)
  x <- gsub("<", "&lt;", x, fixed = TRUE)
  gsub(">", "&gt;", x, fixed = TRUE)
}

# rows: list(name, value, key); the value cells carry data-key for the tests.
explore_table_html <- function(rows) {
  tr <- vapply(rows, function(r) {
    sprintf("<tr><td>%s</td><td class=\"dpx-value\" data-key=\"%s\">%s</td></tr>", explore_escape(r[[1]]),
            r[[3]], explore_escape(as.character(r[[2]])))
  }, "")
  shiny::HTML(paste0("<table class=\"dpx-numbers\">", paste(tr, collapse = ""), "</table>"))
}

explore_numbers_html <- function(v, er) {
  if (!is.null(v$error)) return(shiny::div(class = "dpx-refusal", v$error))
  r <- v$release
  f <- function(x) format(x, digits = 4)
  # the public bound on the smoothing bias and the total (noise and bias) of dp_accuracy(), where
  # the mechanism has one
  bias <- v$accuracy$bias_l2
  bias_rows <- if (is.numeric(bias) && length(bias) == 1L && is.finite(bias)) list(
    list("smoothing bias bound, L2 (dp_accuracy(); a mean as smooth as the kernel allows)", f(bias), "bias"),
    list("total L2 error bound, noise and bias (dp_accuracy())", f(v$accuracy$total_l2), "total"))
  # the density tab: the private median with its 95% interval, and the non-private one
  md <- v$median
  median_row <- if (!is.null(md)) list(list(
    sprintf("median, private [95%% interval for the %s median] (quantile(r, interval = \"%s\")); non-private",
            if (md$type == "population") "population's" else "noise-free", md$type),
    sprintf("%s [%s, %s]; %s", f(md$estimate), f(md$lower), f(md$upper), f(md$nonprivate)), "median"))
  explore_table_html(c(list(
    list("mechanism", r$mechanism, "mechanism"),
    list("epsilon, delta", sprintf("%s, %s", f(r$epsilon), f(r$delta)), "privacy"),
    list(if (is.null(r$privacy_unit) || startsWith(r$privacy_unit, "one ")) "n (records)" else
      sprintf("n (privacy units: %s)", r$privacy_unit), v$n, "n"),
    list("sensitivity", paste(f(r$sensitivity), collapse = ", "), "sensitivity"),
    list("noise scale", f(r$noise_scale), "noise_scale"),
    list(sprintf("expected RMS noise (%s)", v$accuracy$source), f(v$expected), "expected")), bias_rows, list(
    list("measured RMS error, mean over the releases", f(mean(v$measured)), "measured"),
    list(sprintf("half-width of the 95%% band, averaged over the grid (%s)", v$band$source), f(v$halfwidth),
         "halfwidth")), median_row, list(
    list("recomputed in, wall clock (CPU): releases; error panel",
         sprintf("%.3f s (%.3f); %s", v$seconds, v$cpu,
                 if (is.null(er$seconds)) "-" else sprintf("%.3f s (%.3f)", er$seconds, er$cpu)),
         "seconds"))))
}

explore_stamp <- function(label, mode) {
  graphics::mtext(label, side = 1, line = 4, adj = 0, cex = 0.75,
                  col = if (mode == "teaching") "firebrick" else "darkgreen", font = 2)
}

explore_message_plot <- function(msg) {
  graphics::plot.new()
  graphics::text(0.5, 0.5, paste(strwrap(msg, 60), collapse = "\n"), col = "firebrick")
}

explore_plot_view <- function(v, set, label, mode) {
  if (!is.null(v$error)) return(explore_message_plot(v$error))
  op <- graphics::par(mar = c(5.5, 4, 3, 1))
  on.exit(graphics::par(op))
  g <- v$grid
  yl <- range(c(v$releases, v$band$lower, v$band$upper, v$nonprivate, v$truth), finite = TRUE)
  xlab <- if (v$tab == "regression") set$xlab else if (v$tab == "density") "x" else "t"
  r <- v$release
  main <- sprintf("%s, epsilon = %s%s, n = %d", r$mechanism, format(r$epsilon, digits = 3),
                  if (r$delta > 0) sprintf(", delta = %s", format(r$delta, digits = 2)) else "", v$n)
  graphics::plot(range(g), yl, type = "n", xlab = xlab, ylab = if (v$tab == "density") "density" else "value",
                 main = main)
  if (!is.null(v$points)) {
    graphics::points(v$points$x, v$points$y, pch = 16, cex = 0.5, col = grDevices::adjustcolor("grey40", 0.35))
  }
  graphics::polygon(c(g, rev(g)), c(v$band$lower, rev(v$band$upper)),
                    col = grDevices::adjustcolor("steelblue", 0.25), border = NA)
  graphics::matlines(g, t(v$releases), lty = 1, lwd = 1.2, col = grDevices::adjustcolor("darkorange3", 0.75))
  if (!is.null(v$truth)) graphics::lines(g, v$truth, lty = 2, lwd = 2, col = "darkgreen")
  graphics::lines(g, v$nonprivate, lwd = 3)
  leg <- c("non-private", sprintf("%d private release%s", nrow(v$releases), if (nrow(v$releases) > 1) "s" else ""),
           if (isTRUE(v$band$population)) "95% population band (1st release)" else "95% noise band (1st release)",
           if (!is.null(v$truth)) "truth")
  graphics::legend("topright", leg, lwd = c(3, 1.2, 8, 2)[seq_along(leg)],
                   lty = c(1, 1, 1, 2)[seq_along(leg)],
                   col = c("black", "darkorange3", grDevices::adjustcolor("steelblue", 0.25), "darkgreen")[seq_along(leg)],
                   bg = "white", cex = 0.8)
  explore_stamp(label, mode)
}

explore_plot_errors <- function(er, v, label, mode) {
  if (!is.null(er$error)) return(explore_message_plot(er$error))
  if (!is.null(v$error)) return(explore_message_plot(v$error))
  op <- graphics::par(mar = c(5.5, 4, 3, 1))
  on.exit(graphics::par(op))
  tb <- er$table
  mechs <- unique(tb$mechanism)
  cols <- c("steelblue", "firebrick")[seq_along(mechs)]
  yl <- range(c(tb$expected, tb$measured, v$measured, v$expected), finite = TRUE)
  graphics::plot(range(tb$epsilon), yl, type = "n", log = "xy", xlab = "epsilon", ylab = "RMS error",
                 main = "Error against epsilon")
  for (i in seq_along(mechs)) {
    s <- tb[tb$mechanism == mechs[i], ]
    graphics::lines(s$epsilon, s$expected, lwd = 2, col = cols[i])
    graphics::points(s$epsilon, s$measured, pch = 19, col = cols[i])
  }
  eps <- v$params$epsilon
  graphics::abline(v = eps, lty = 3)
  graphics::points(rep(eps, length(v$measured)), v$measured, pch = 4, col = "darkorange3")
  graphics::points(eps, v$expected, pch = 8, cex = 1.4, col = "darkorange3")
  graphics::legend("topright", c(paste(mechs, "expected"), paste(mechs, "measured"), "current releases"),
                   lty = c(rep(1, length(mechs)), rep(NA, length(mechs)), NA),
                   pch = c(rep(NA, length(mechs)), rep(19, length(mechs)), 4),
                   col = c(cols, cols, "darkorange3"), bg = "white", cex = 0.8)
  explore_stamp(if (mode == "teaching") "TEACHING MODE: NOT private" else "secure mode", mode)
}

explore_plot_budget <- function(st, sub, set, label, mode) {
  op <- graphics::par(mar = c(5.5, 4, 3, 1))
  on.exit(graphics::par(op))
  g <- set$grid
  vals <- if (length(st$releases)) do.call(rbind, lapply(st$releases, function(r) r$values$values[1L, ]))
  yl <- range(c(vals, sub$nonprivate), finite = TRUE)
  graphics::plot(range(g), yl, type = "n", xlab = "t", ylab = "value",
                 main = sprintf("%d release%s under one budget", length(st$releases),
                                if (length(st$releases) == 1L) "" else "s"))
  if (!is.null(vals)) graphics::matlines(g, t(vals), lty = 1, col = grDevices::adjustcolor("darkorange3", 0.8))
  graphics::lines(g, sub$nonprivate, lwd = 3)
  explore_stamp(label, mode)
}
