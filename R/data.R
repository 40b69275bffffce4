#' Deaths by single year of age in 19 world regions (UN WPP 2019)
#'
#' Annual deaths by single year of age in 2015-2020 for the 19 UN
#' sub-regions of Lin and Reimherr's Table 3, the data of their mortality
#' application. Use [mortality_distribution()] to turn them into
#' age-at-death distributions.
#'
#' Built by `data-raw/un_mortality.R` from the CRAN package \pkg{wpp2019}
#' (United Nations, Department of Economic and Social Affairs, Population
#' Division, World Population Prospects 2019; licence CC BY 3.0 IGO). WPP
#' 2019 publishes death rates by age group (0, 1-4, 5-9, ..., 95-99, 100+)
#' and population by five-year group; deaths per year in a group are the
#' 2015-2020 death rate times the mean of the 2015 and 2020 populations (the
#' 0-4 population split 1/5 to age 0 and 4/5 to ages 1-4), spread evenly
#' over the single years of the group and rounded to whole deaths. Age 100
#' holds every death at 100 or over. The single-year counts are therefore a
#' smooth-within-group reconstruction, not registered counts.
#'
#' The privacy unit depends on the analysis. For one region's age-at-death
#' density, each death is one record ([dp_kde()] with `mechanism = "iclp"`
#' and `counts`): the neighbouring relation changes one death's age, and the
#' number of deaths of the region is treated as public. For the mean
#' distribution over regions ([mortality_distribution()], then [dp_mean()],
#' as in the paper), the unit is a whole region: its entire distribution may
#' change.
#'
#' @format A data frame with 1919 rows (19 regions x 101 ages) and columns
#'   `region` (factor, the 19 sub-regions in the order of the paper's Table
#'   3), `age` (0, ..., 100; 100 means 100+) and `deaths` (integer, deaths
#'   per year).
#' @source United Nations (2019), World Population Prospects 2019, through the
#'   CRAN package \pkg{wpp2019} (data sets `mxM`, `mxF`, `popM`, `popF`).
#' @seealso [mortality_distribution()], [dp_kde()] with `mechanism = "iclp"`.
#' @examples
#' m <- mortality_distribution(un_mortality, age = age, deaths = deaths, group = region)
#' m
#' tapply(un_mortality$deaths, un_mortality$region, sum)
"un_mortality"

#' Fractional anisotropy profiles of the corpus callosum (DTI)
#'
#' Diffusion tensor imaging tract profiles: fractional anisotropy along the
#' corpus callosum at 93 equally spaced positions, for 382 scans of 142
#' subjects (multiple sclerosis patients and controls; Lin and Reimherr's
#' first application, their Table 2 and Figure 5).
#'
#' The rows are **scans, not people**: subjects have 1 to 8 visits. A
#' mechanism that protects one row (one scan) protects a subject with `k`
#' scans only at `k` times the budget (group privacy). For person-level
#' privacy give the subject as the privacy unit, `unit = id`, to [dp_mean()],
#' [dp_cov()], [dp_fpca()] or [pcv_select()] (with the data frame itself as
#' `x` and the grid, or with `curves()` and `unit = dti_cca$id`): each subject then contributes
#' the mean of their scans and `n` counts the 142 subjects (the print says
#' "privacy unit: id (142 units)"). Six scans have missing
#' values; the paper's analysis uses the 376 complete ones.
#'
#' @format A data frame with 382 rows and columns `id` (subject), `visit`
#'   (1-8), `case` (1 = multiple sclerosis, 0 = control), `sex` (factor) and
#'   `cca`, a 382 x 93 matrix of FA values (column j at position (j - 1) / 92
#'   of the tract, rescaled to \[0, 1\]).
#' @source Built by `data-raw/dti_cca.R` from the `DTI` data of the CRAN
#'   package \pkg{refund} (GPL >= 2). The data were collected at Johns
#'   Hopkins University and the Kennedy-Krieger Institute.
#' @examples
#' ok <- stats::complete.cases(dti_cca$cca)
#' x <- curves(dti_cca$cca[ok, ], seq(0, 1, length.out = 93))
#' x
#' length(unique(dti_cca$id))
#' # person-level privacy: one subject is the unit, n = 142 subjects
#' r <- dp_mean(x, epsilon = 1, tau = 0.2, center = 0.5, unit = dti_cca$id[ok])
#' r$n
#' r$privacy_unit
#' # the same from the data frame: `cca` is its curves, `id` a column of its rows
#' r2 <- dp_mean(dti_cca[ok, ], epsilon = 1, tau = 0.2, center = 0.5, unit = id,
#'               grid = seq(0, 1, length.out = 93))
#' r2$privacy_unit
"dti_cca"

#' Electricity demand in Adelaide on Mondays
#'
#' Half-hourly electricity demand (megawatts) in Adelaide, South Australia,
#' on the 508 Mondays from 6 July 1997 to 31 March 2007 (Lin and Reimherr's
#' second application, their Table 2 and Figure 5). One row per day.
#'
#' @format A 508 x 48 numeric matrix; column names are the starting times of
#'   the half-hour periods ("00:00", "00:30", ..., "23:30").
#' @source Built by `data-raw/adelaide_monday.R` from `mondaydemand` of the
#'   CRAN package \pkg{fds} (GPL >= 2), originally from the Australian
#'   National Electricity Market; see Hyndman and Shang (2010).
#' @examples
#' x <- curves(adelaide_monday, seq(0, 1, length.out = 48))
#' plot(x[1:20])
"adelaide_monday"
