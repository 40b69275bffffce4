# un_mortality: annual deaths by single year of age (0, 1, ..., 99, 100+) in
# 2015-2020 for the 19 UN sub-regions of Lin & Reimherr's Table 3, from the
# CRAN package wpp2019 (UN World Population Prospects 2019; CC BY 3.0 IGO).
#
# wpp2019 gives age-specific death rates m_x (ages 0, 1-4, 5-9, ..., 95-99,
# 100+) per five-year period and population by five-year group (thousands)
# at 2015 and 2020. Deaths per year in a group = m_x times the mean of the
# two populations (the person-years per year of the period). The 0-4
# population is split 1/5 (age 0) and 4/5 (ages 1-4). Group deaths are
# spread evenly over the single years of the group, converted from thousands
# and rounded to whole deaths. The age-100 entry holds all deaths at 100+.
# Run from the repository root.
source("data-raw/cran-source.R")
src <- cran_source("wpp2019")
read_wpp <- function(name) {            # the source package stores data as .R / .txt files
  e <- new.env()
  sys.source(file.path(src, "data", paste0(name, ".R")), envir = e, chdir = TRUE)
  get(name, envir = e)
}
regions <- c("Eastern Africa", "Middle Africa", "Northern Africa", "Southern Africa", "Western Africa",
             "Central Asia", "Eastern Asia", "Southern Asia", "South-Eastern Asia", "Western Asia",
             "Eastern Europe", "Northern Europe", "Southern Europe", "Western Europe", "Caribbean",
             "Central America", "South America", "Northern America", "Australia/New Zealand")
period <- "2015-2020"
pop_groups <- c(sprintf("%d-%d", seq(0, 95, 5), seq(4, 99, 5)), "100+")
mx_ages <- c(0, 1, seq(5, 100, 5))
# wpp2019 repeats a few rows (e.g. Northern America, age 100 of mxM): keep one.
one_region <- function(d, region) {
  d <- d[d$name == region, ]
  d <- d[!duplicated(d), ]
  stopifnot(!anyDuplicated(d$age))
  d
}
one_sex <- function(mx, pop, region) {
  m <- one_region(mx, region)
  p <- one_region(pop, region)
  stopifnot(identical(as.numeric(m$age), mx_ages), identical(as.character(p$age), pop_groups))
  py <- (p[["2015"]] + p[["2020"]]) / 2              # thousands, person-years per year
  py <- c(py[1] / 5, py[1] * 4 / 5, py[-1])          # split 0-4 into 0 and 1-4
  m[[period]] * py                                   # thousands of deaths per year, by mx group
}
widths <- c(1, 4, rep(5, 19), 1)
wpp <- lapply(c(mxM = "mxM", popM = "popM", mxF = "mxF", popF = "popF"), read_wpp)
rows <- lapply(regions, function(r) {
  d <- one_sex(wpp$mxM, wpp$popM, r) + one_sex(wpp$mxF, wpp$popF, r)
  single <- rep(d / widths, widths)                  # ages 0..100
  data.frame(region = r, age = 0:100, deaths = as.integer(round(1000 * single)))
})
un_mortality <- do.call(rbind, rows)
un_mortality$region <- factor(un_mortality$region, levels = regions)
attr(un_mortality, "source") <- sprintf("wpp2019 %s, mxM/mxF/popM/popF, period %s", cran_version("wpp2019"),
                                        period)
stopifnot(nrow(un_mortality) == 19L * 101L, all(un_mortality$deaths >= 0))
save_data(un_mortality, "un_mortality")
