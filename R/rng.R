#' Choose the noise source
#'
#' Every random draw of dpfda (Gaussian-process paths, Laplace and Gaussian
#' noise, selections) comes from one noise source in C with two modes:
#'
#' * `"secure"` (the default each time the package is loaded): bytes from the
#'   operating system's cryptographic generator (`getrandom()` on Linux with a
#'   fallback to `/dev/urandom`, `arc4random_buf()` on macOS and the BSDs,
#'   `rand_s()` on Windows). Uniforms carry 53 random bits; normal variates are
#'   obtained by inversion, exponential and Laplace variates by the logarithm
#'   of a uniform. `set.seed()` has no effect on them. The bytes are read
#'   4096 at a time and wiped once used; a process forked from this one
#'   (`parallel::mclapply()`, `parallel::mcparallel()`) drops the inherited
#'   buffer, so parallel workers never draw the same noise.
#' * `"seeded"`: R's own generator (`unif_rand()`, `norm_rand()`,
#'   `exp_rand()`), so that `set.seed()` reproduces every release. Use it for
#'   tests, teaching and reproducible reports only: an adversary who knows the
#'   seed can subtract the noise. Objects produced in this mode say so when
#'   printed.
#'
#' @param mode `NULL` to query, or `"secure"` / `"seeded"` to set (spelt out:
#'   a partial name such as `"seed"` is refused).
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The mode in force before the call (invisibly when setting), so that
#'   it can be restored.
#' @seealso [dp_reproducible()]
#' @examples
#' dp_rng()
#' old <- dp_rng("seeded")
#' set.seed(1); a <- rlaplace(3, 1)
#' set.seed(1); b <- rlaplace(3, 1)
#' identical(a, b)
#' dp_rng(old)
#' @export
dp_rng <- function(mode = NULL, ...) {
  check_dot_names(dot_args(), character(), "dp_rng")
  old <- c_rng_mode_get()
  if (is.null(mode)) return(old)
  # (one mode: c("secure", "seeded") set "secure" in silence, as a default of choices would)
  if (length(mode) != 1L) arg_error("mode", "one of \"secure\", \"seeded\"", mode)
  # spelt out: a partial match (dp_rng("seed"), "s") switched to non-private noise without a word
  if (!(is.character(mode) && !is.na(mode) && mode %in% c("secure", "seeded"))) {
    arg_error("mode", "\"secure\" or \"seeded\", spelt out (\"seeded\" makes every later release non-private)",
              mode)
  }
  c_rng_mode_set(if (mode == "seeded") 1L else 0L)
  invisible(old)
}

#' Reproducible (non-private) noise
#'
#' Switches the noise source to `"seeded"` mode and calls `set.seed(seed)`.
#' Releases made afterwards are reproducible and therefore **not private**
#' against anyone who knows the seed; they are labelled as such. Call
#' `dp_rng("secure")` to return to the operating system's entropy.
#'
#' @param seed A single whole number passed to [set.seed()].
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return The previous mode (`"secure"` or `"seeded"`), invisibly: restore
#'   it with `dp_rng(old)` (not `dp_reproducible(old)`, which needs a seed).
#'   `dp_rng(old)` restores the mode only: R's random-number state stays as
#'   `set.seed(seed)` and the releases left it. Inside a function that should
#'   leave its caller's stream alone, save `.Random.seed` (in the global
#'   environment) first and put it back on exit.
#' @examples
#' old <- dp_reproducible(42)
#' rlaplace(2, scale = 1)
#' dp_rng(old)
#' @export
dp_reproducible <- function(seed, ...) {
  check_dot_names(dot_args(), character(), "dp_reproducible")
  check_required()
  # `old <- dp_reproducible(1); ...; dp_reproducible(old)` is the options() idiom, but `old` is a
  # mode ("secure" / "seeded"): dp_rng() restores it
  if (is.character(seed) && length(seed) == 1L && seed %in% c("secure", "seeded")) {
    dpfda_abort(sprintf(paste("`seed` is a number; \"%s\" is a noise mode, as dp_reproducible() returns:",
                              "restore it with dp_rng(\"%s\")."), seed, seed), arg = "seed")
  }
  seed <- check_count(seed, "seed", min = -.Machine$integer.max)
  old <- dp_rng("seeded")
  set.seed(seed)
  invisible(old)
}

#' Laplace noise
#'
#' Draws from the Laplace distribution with density
#' \eqn{\exp(-|x|/b) / (2b)} through the package's noise source (see
#' [dp_rng()]).
#'
#' @param n Number of draws.
#' @param scale The scale \eqn{b > 0}; \eqn{\Delta_1 / \epsilon} for the
#'   Laplace mechanism. At most \eqn{10^{300}}, so that the draws stay finite.
#' @param ... Not used: a name that is not an option (a misspelling) is an error that names it.
#' @return A numeric vector of length `n`.
#' @examples
#' x <- rlaplace(1000, scale = 2)
#' mean(abs(x)) # close to 2
#' @export
rlaplace <- function(n, scale = 1, ...) {
  check_dot_names(dot_args(), character(), "rlaplace")
  check_required()
  n <- check_count(n, "n", min = 0, max = 2^31 - 1)
  # draws are scale * E with E below about 40: the bound keeps them finite
  scale <- check_number(scale, "scale", lower = 0, lower_open = TRUE, upper = 1e300)
  check_alloc(n, "vector of Laplace draws")
  c_laplace_draw(as.double(n), scale)
}

# Internal draws through the same source (uniform, normal, exponential).
noise_draw <- function(n, what = c("uniform", "normal", "exponential")) {
  what <- match.arg(what)
  c_rng_draw(as.double(n), match(what, c("uniform", "normal", "exponential")) - 1L)
}
