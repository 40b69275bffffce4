# Lin and Reimherr: pure-DP release of functional means with the Independent
# Component Laplace Process (ICLP), and the comparators of their Section 6
# (FRL, Bernstein, the Gaussian-process mechanism). Building blocks: R/iclp-core.R; tuning: R/iclp-tuning.R.

iclp_mechanisms <- c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp")

# Options of as_curves() that dp_mean(...) passes on.
as_curves_options <- c("id", "arg", "value", "method", "restrict", "na.rm", "df", "n_grid")

# Options of dp_mean(...) that one mechanism alone uses (given with another: an error).
mechanism_only_options <- list(frl = c("M", "frl_bound", "frl_noise"), iclp_ar = c("ar_bound", "threshold_scale"),
                               bernstein = "bernstein_k")

# Names accepted in dp_mean(...).
dp_mean_options <- c("eta", "psi", "M", "J", "bernstein_k", "h", "delta", "calibration", "weights", "tol",
                     "pss_rule", "frl_bound", "ar_bound", "threshold_scale", "epsilon_select",
                     "candidates", "folds", "count_share", "bound_share", "bound_range", "bound_quantile",
                     "inference_share", "clip_share", "frl_noise")

#' Differentially private mean function
#'
#' Releases the mean of `n` curves observed on a common public grid. Every
#' curve is first **clipped** to the public bound `tau`, so that one record
#' can move the mean by at most \eqn{2\tau/n} (replace-one neighbours):
#'
#' * ICLP and FRL and GP mechanisms: radial clipping in the weighted
#'   \eqn{L^2} norm of the basis, \eqn{X \leftarrow X \min(1, \tau/\|X\|_W)},
#'   \eqn{\|X\|_W^2 = \sum_i w_i X(t_i)^2} (Assumption 10 of the paper).
#' * Bernstein: `tau` is a sup-norm bound; values are clamped to
#'   \eqn{[-\tau, \tau]} pointwise.
#'
#' With \eqn{(\lambda_j, v_j)} the [kl_basis()] of `kernel` on the grid
#' (all positive eigenvalues unless `J` is given) and \eqn{a_j = \langle
#' \bar X, v_j \rangle_W}, the mechanisms are (Lin and Reimherr, Sections 3 and 4):
#'
#' * `"iclp_qr"` (default): spectral shrinkage \eqn{\hat\mu = \sum_j s_j a_j
#'   v_j}, \eqn{s_j = \lambda_j^\eta / (\lambda_j^\eta + \psi)}, plus
#'   \eqn{\sigma X} with \eqn{X} an ICLP on the **same** \eqn{J} components,
#'   \eqn{\sigma = \sqrt 2 \Delta / \epsilon}. Sensitivity in the ICLP norm
#'   \eqn{\|h\|_{\mathcal L} = \sum_j |h_j| / \sqrt{\lambda_j}} (Cauchy--Schwarz,
#'   attained): \eqn{\Delta = (2\tau/n) (\sum_j g_j^2)^{1/2}}, \eqn{g_j =
#'   \lambda_j^{\eta - 1/2} / (\lambda_j^\eta + \psi)}.
#' * `"iclp_ar"`: soft thresholding \eqn{S_{t_j}(a_j)} with \eqn{t_j = c\,
#'   \psi / (2 \lambda_j^{\eta/2})} (`threshold_scale` \eqn{c = 1}; the
#'   authors' code corresponds to \eqn{c = 2\sqrt 2}); components with \eqn{t_j
#'   \ge \tau} are 0 for every data set and receive no noise; on the other
#'   \eqn{J_\tau} components \eqn{\Delta = (2\tau/n) \sum_{j \le J_\tau}
#'   \lambda_j^{-1/2}} (`ar_bound = "sum"`, the paper's) or the tighter
#'   \eqn{(2\tau/n)(\sum_{j \le J_\tau} \lambda_j^{-1})^{1/2}} (`"cs"`).
#' * `"frl"`: the first `M` coefficients plus i.i.d. Laplace noise of scale
#'   \eqn{\Delta_1/\epsilon} with \eqn{\Delta_1 = 2\tau M / n} (`frl_bound =
#'   "M"`, the paper's) or \eqn{2\tau\sqrt M / n} (`"sqrtM"`, attained).
#' * `"bernstein"`: [dp_bernstein()] (Laplace, pure DP) on the pointwise mean
#'   interpolated linearly at the lattice of `k + 1` points spanning the grid,
#'   with per-point sensitivity \eqn{2\tau/n}; the released values are the
#'   Bernstein polynomial on the grid. One-dimensional grids only.
#' * `"gp"`: the \eqn{(\epsilon, \delta)} Gaussian-process mechanism: the
#'   QR summary plus \eqn{\sigma_G} times a path of `rgp(1, kernel, grid)`,
#'   with Cameron--Martin sensitivity \eqn{\Delta_K = (2\tau/n) \max_j g_j}
#'   and \eqn{\sigma_G =} [dp_noise_scale]`(Delta_K, epsilon, delta,
#'   calibration)`. `delta` must be given.
#'
#' The summary is projected on exactly the components that receive noise, so
#' nothing leaks through their complement.
#'
#' **Units.** The release does not depend on the units of the grid or of
#' the values: with the argument in other units (\eqn{t \to a + bt},
#' \eqn{b > 0}: a reversed axis, \eqn{b < 0}, reflects the basis, whose
#' eigenvectors' signs then differ, so its release is another draw; `tau`
#' times \eqn{\sqrt{|b|}} per dimension, the default kernel or one whose
#' lengthscale is scaled with the grid) and the values in other units
#' (\eqn{y \to cy}, \eqn{c > 0}, `tau` times \eqn{c}), the same seed gives the same
#' release in the new units. (Values with their sign flipped, \eqn{c < 0},
#' give a release of the same law but another draw: the noise is not flipped
#' with them.) For this \eqn{\psi} (given or chosen) is on the
#' domain rescaled to **unit measure**: the formulas above are applied with
#' \eqn{\lambda_j / S} in place of \eqn{\lambda_j} and the AR thresholds
#' multiplied by \eqn{\sqrt S}, \eqn{S} the measure of the grid's domain (the
#' sum of its quadrature weights); i.e. on the data's scale \eqn{\psi S^\eta}
#' (QR, GP) and \eqn{\psi S^{(\eta+1)/2}} (AR). On \eqn{[0, 1]} (the paper's
#' setting) nothing changes. \eqn{\psi} is unit-free for QR and GP; for AR it
#' is a threshold in the units of the values.
#'
#' **Automatic bound** (`tau = "auto"`). A share `bound_share` of
#' `epsilon` buys `tau` privately, and the rest of `epsilon` (and all of
#' `delta`) goes to the release, so the whole call is still
#' `epsilon`-DP (with `delta` for `"gp"`). The candidates are public:
#' \eqn{c_0 < \dots < c_K}, five per decade on a log scale over
#' `bound_range` (default \eqn{[10^{-4}, 10^4] \sqrt S}, \eqn{S} the measure
#' of the grid's domain, for the \eqn{L^2} norm of the ICLP, FRL and GP
#' mechanisms; \eqn{[10^{-4}, 10^4]} for Bernstein's sup norm). Each
#' individual's norm (after the public `center`; with `unit`, the largest norm
#' of the unit's curves; an incomplete individual dropped by `incomplete =
#' "drop"` counts as norm 0; `unit` and `incomplete = "drop"` together are not
#' available with `tau = "auto"` yet) falls in a bin \eqn{(c_{b-1}, c_b]}; the
#' exponential mechanism picks a bin with utility minus the distance of the
#' target rank \eqn{n - k_0} to the bin's ranks \eqn{[r_{b-1}, r_b]}
#' (\eqn{r_b} the number of norms at most \eqn{c_b}; replacing one individual
#' changes every \eqn{r_b} by at most 1, sensitivity 1; exact sampling as
#' [dp_select()]), and the bin's upper end becomes `tau`. The target leaves
#' \eqn{k_0 = \max((1 - q) n, 2(\log(K + 2) + \log 1000) / \epsilon_b)} norms
#' above the bound (\eqn{q} = `bound_quantile`, default 0.9;
#' \eqn{\epsilon_b} = `bound_share * epsilon`): the second term keeps the
#' chance of a bound above all the norms (where the rank utility is flat)
#' below 1/1000, and at small \eqn{n} it makes the target a lower quantile,
#' which is also what a noisier release prefers. `bound_share` defaults to
#' 0.1, raised (at most to 0.5) to the smallest share with \eqn{n \ge 2 k_0}
#' when \eqn{n\,\epsilon} is small (a public rule: 0.43 at \eqn{n = 100},
#' 0.14 at 300, 0.1 from about 430 at \eqn{\epsilon = 1}). The shares of
#' `count_share` (with `incomplete = "drop"`) and `inference_share` come
#' first: a `bound_share` that leaves the release nothing of what they leave
#' is an error of class `dpfda_error_argument` that names them, raised before
#' anything is spent, and the default is raised to at most three quarters of
#' what they leave. Too few
#' individuals for the share (\eqn{n < 2 k_0}) is an error of class
#' `dpfda_error_privacy` (the epsilon it suggests leaves room for those
#' shares); a choice in the bin below \eqn{c_0} or above
#' \eqn{c_K} (the norms lie outside `bound_range`) is an error of class
#' `dpfda_error_data`, after the bound's budget is charged. Each says what to
#' do (give `tau`, a larger share or another range). Tables and chunks give
#' the same release as curves in memory: the engine computes, per bin, the
#' count of individuals and the sums of their curves and of their curves over
#' their norms (signs for Bernstein), from which the sum of the curves clipped
#' at any candidate follows exactly. A [summarise_mean()] summary (clipped at
#' a fixed `tau`) cannot choose a bound. The candidates are bounds in the
#' data's units: after a change of units (values times \eqn{c}, arguments
#' times \eqn{b}) the release is the same under [dp_reproducible()], up to
#' the units, only with `bound_range` scaled alike (by \eqn{|c| \sqrt b}; by
#' \eqn{|c|} for Bernstein); the default range is fixed, so in other units
#' it offers other candidates and draws other noise. The release records `tau` (the chosen
#' bound, public once privatised) and `tau_auto` (`epsilon`, `share`,
#' `quantile` (the targeted level \eqn{1 - k_0/n}), `range`); the print says
#' "tau chosen privately (share ... of epsilon)". On simulated curves
#' (`bench/bench-tau-auto.R`) the error is within about 1.3 times the best of
#' hand-picked bounds and a fraction of that of a bound ten times too large.
#'
#' **Parameters** (\eqn{\eta}, \eqn{\psi}, `M`, `k`) are chosen by
#' `select`: `"pss"` ([pss_params()], data-independent, no budget),
#' `"manual"` (give them in `...`), or `"pcv"` ([pcv_select()]: private
#' cross-validation with its own budget `epsilon_select`, added to the
#' release's `epsilon`). The EDR exponent `h` of the kernel
#' (\eqn{\lambda_j \asymp j^{-2h}}) is \eqn{\nu + 1/2} for Matern and 1
#' for the exponential kernel in one dimension (\eqn{(2\nu + d)/(2d)} in
#' \eqn{d} dimensions); give `h` for the Gaussian kernel.
#'
#' @param x The `n` private curves on a public grid: a [curves()] object or
#'   anything [as_curves()] understands (a matrix with `grid`, a long or wide
#'   data frame, an \pkg{fda} `fd`, a \pkg{tf} `tfd`). It is re-validated
#'   at entry whatever its class (finite values, dimensions, grid).
#'   Or long data outside memory: a database table (dbplyr lazy table),
#'   [dp_chunks()] or a [summarise_mean()] summary, with `grid` and the
#'   column names `id`, `arg`, `value` (strings or bare names) in `...`
#'   (see [summarise_mean()] for
#'   the rules); `select = "pcv"` and `center` need curves in memory.
#' @param epsilon Privacy budget of the release (with `select = "pcv"` the
#'   selection's `epsilon_select` is charged on top: the call spends
#'   `epsilon + epsilon_select`, which the release's `epsilon` and the
#'   budget's ledger report).
#' @param tau Public bound on the norm of a curve (see above), or `"auto"`:
#'   a bound chosen privately with a share of `epsilon` (see Automatic bound).
#'   For the L2 mechanisms it is the norm over the grid's domain: on a domain
#'   of length \eqn{S} a curve at a root-mean-square distance \eqn{r} from
#'   the centre has norm \eqn{r\sqrt{S}} (heights on ages 1 to 18: `tau =
#'   60` allows about 14.6 cm; the print says so).
#'   For a summary `x` ([summarise_mean()]) it may be left out: the summary's
#'   own bound is taken, as is its `center` when `center` is not given.
#' @param mechanism One of `"iclp_qr"`, `"iclp_ar"`, `"frl"`, `"bernstein"`, `"gp"`.
#' @param kernel The ICLP / GP covariance kernel (default Matern 3/2 with
#'   lengthscale 0.1 times the width of the domain, so the default does not
#'   depend on the units of the grid).
#' @param select `"pss"`, `"pcv"` or `"manual"`.
#' @param ... Options: `eta`, `psi` (QR, AR, GP; on the unit-measure domain, see
#'   Units), `M` (FRL), `bernstein_k`
#'   (Bernstein lattice size `k`, default 20; not `k`, which would match `kernel`), `J`, `weights`, `tol` (see [kl_basis()]), `h` (EDR),
#'   `delta` and `calibration` (GP; the pure mechanisms do not use
#'   `delta`: their releases record and charge 0), `pss_rule` (see [pss_params()]),
#'   `frl_bound`, `frl_noise` (FRL: `"laplace"`, the default, pure DP; or
#'   `"gaussian"`, the Gaussian mechanism on the first `M` coefficients,
#'   calibrated to their L2 sensitivity \eqn{2\tau/n} whatever `M`, with
#'   `delta` and `calibration`: \eqn{(\epsilon, \delta)}-DP, not with
#'   `select = "pcv"` or `noise = "exact"`; its `"pss"` default `M`
#'   minimises the planned total L2 error of [dp_accuracy()], \eqn{M
#'   \sigma^2 + (\tau^2/\lambda_1)\lambda_{M+1}}, noise and worst-case
#'   truncation bias, as the paper's rule for `M` is made for Laplace
#'   noise), `ar_bound`, `threshold_scale`, `count_share` (see
#'   `incomplete`), `bound_share`, `bound_range`, `bound_quantile` (with
#'   `tau = "auto"`, see Automatic bound), `inference_share` and `clip_share` (see `inference`), and for `select = "pcv"`:
#'   `epsilon_select`, `candidates`, `folds`. A share given without its
#'   switch (`count_share` without `incomplete = "drop"`, `inference_share`
#'   or `clip_share` without `inference = TRUE`, the bound's options without
#'   `tau = "auto"`, `epsilon_select`, `candidates` or `folds` without
#'   `select = "pcv"`) is an error, not ignored, and so is an option of
#'   another mechanism (`M`, `frl_bound`, `frl_noise` of `"frl"`; `ar_bound`,
#'   `threshold_scale` of `"iclp_ar"`; `bernstein_k` of `"bernstein"`). The options of [as_curves()]
#'   (`id`, `arg`, `value` as strings or bare names, e.g. `dp_mean(nlme::Oxboys,
#'   id = Subject, arg = age, value = height, grid = g, ...)`; `method`,
#'   `na.rm`, `df`, `n_grid`; not `restrict`, whose grid would depend on the
#'   data) are passed to it when `x` is not a curves object; the column names
#'   also for tables and chunks. A long data frame (`id`, `arg`, `value`)
#'   with a one-dimensional `grid` follows the rule of tables and chunks (see
#'   [summarise_mean()]: each row's argument is snapped to the nearest grid
#'   point, a row more than half a grid step beyond the grid's ends is left
#'   out with a warning, and the rows of a cell averaged), so the same rows give the same
#'   release in memory and in a database. Give `method = "linear"` (or
#'   `"smooth"`) to interpolate each curve to the grid instead, in memory
#'   only: irregular arguments, such as the ages of `nlme::Oxboys`, need it
#'   when the grid is finer than their spacing.
#' @param noise `"float"` (default) or `"exact"`: floating-point-safe noise
#'   (ICLP-QR, ICLP-AR, FRL: the coefficients are rounded to a grid
#'   \eqn{u 2^{-k}}, \eqn{u} the smallest noise scale, and get discrete
#'   Laplace noise with scales enlarged by at
#'   most 1% to cover the rounding; Bernstein: see [dp_bernstein()]; `"gp"`:
#'   discrete Gaussian noise in the whitened coordinates of the grid, as
#'   [dp_gp_release()], for grids of at most 4000 points; it stays optional
#'   because a whole call costs more than twice the float one on small grids
#'   (measured CPU time, exact against float: 9.5 against 4.1 ms for 50 grid
#'   points, 42 against 25 ms for 200, 2.8 against 2.3 s for 1000) and the
#'   zCDP calibration of the discrete Gaussian needs about 8 percent more
#'   noise). See [exact_noise].
#' @param budget `NULL` or a [privacy_budget()], charged once with the
#'   release's `epsilon` (including the selection budget of `select = "pcv"`).
#' @param center A public reference curve, subtracted from every curve
#'   before clipping and added back to the release (post-processing): a
#'   function of the grid, a number, one value per grid point, or a
#'   one-curve [curves()] object on the grid. Centring on a public reference
#'   (e.g. a published growth standard) lets `tau` bound the deviations
#'   rather than the raw values, which can shrink the noise a lot. It must
#'   not be computed from the private data. Every source takes it: for a
#'   database table or chunks the engine subtracts it (see
#'   [summarise_mean()]); a summary must have been computed with the same
#'   `center`.
#' @param grid Passed to [as_curves()] when `x` is not a curves object
#'   (the grid of a matrix, or the public grid to interpolate a data frame
#'   onto).
#' @param unit The privacy unit when one person has several curves: a
#'   column (string or bare name) of a data frame, table or chunks, or a
#'   vector with one entry per curve for curves and matrices (for curves that
#'   `as_curves(incomplete = "drop")` made from the rows of a wide table, one
#'   entry per row of that table also works: `unit = dti_cca$id`). Each unit
#'   contributes the mean of its clipped curves (norm at most `tau`), so
#'   changing everything about one unit moves the release by at most the
#'   sensitivity it is calibrated for, and `n` counts units; in chunks each
#'   unit's rows must come together. `NULL` (default): every curve is its own unit (a person
#'   with 8 curves would move the mean up to 8 times as much as calibrated).
#'   The print says which it is ("privacy unit: one curve (376)" / "privacy
#'   unit: id (142 units)"; not the units' number of curves, which is
#'   private), naming a vector by the variable or
#'   column it came from (`unit = dti_cca$id[ok]` and `unit = factor(id)` print "id").
#' @param incomplete What to do with individuals whose curve does not cover
#'   the grid (curves objects: not observed over the whole grid range, see
#'   [as_curves()]; long data, a data frame, table or chunks: no row at some
#'   grid point, each row
#'   counting for the grid point nearest its argument, so a grid finer than
#'   the times of observation, e.g. every day of `ChickWeight`'s
#'   every-other-day weighings, leaves every curve incomplete). The
#'   same rule on every source: `"error"` (default) refuses the release and
#'   says how many; `"drop"` leaves them out. Which individuals are complete
#'   depends on the data, so `"drop"` is accounted for: the mean is released
#'   over all \eqn{N} individuals with the incomplete ones counting as 0 (the
#'   noise is calibrated for \eqn{N}, as without dropping), with
#'   `epsilon * (1 - count_share)`; a count of the complete individuals is
#'   released with exact discrete Laplace noise of scale `1 / (epsilon *
#'   count_share)` (`count_share`, in `...`, default 0.1); the mean is divided
#'   by that noisy share (post-processing). The noisy count is clamped to
#'   \eqn{[1, N]}, so when (nearly) every individual is complete the factor
#'   \eqn{N / \tilde n_c} is at least 1 and the release is scaled up on
#'   average: by about 6.5 percent at \eqn{N = 100}, epsilon 1 (its mean factor
#'   1.065), less with larger \eqn{N \epsilon}; use `"drop"` where
#'   individuals are in fact missing. The whole call is
#'   `epsilon`-DP (with `delta` for `"gp"`); the release records `n_complete`
#'   (the noisy count), `scale_factor` and `epsilon_count`, and [confint()]
#'   scales its bands by the factor. The count's relative error is about
#'   \eqn{1.4 / (\epsilon\,\mathrm{count\_share}\, n_{complete})}: dropping
#'   pays off with many individuals (3 percent at 500, epsilon 1), less with
#'   few (30 percent at 50), where a grid the data cover is better; when the
#'   count's noise sd exceeds half the noisy count, a warning of class
#'   `dpfda_warning_count` (a `dpfda_warning_utility`) says so. With
#'   `unit`, incomplete curves are dropped first and the units counted
#'   after: each unit contributes the mean of its complete curves, a unit
#'   with no complete curve counts as 0, \eqn{N} is the number of units and
#'   the noisy count is of the units with at least one complete curve (one
#'   unit changes it by at most 1, so its scale is the same). Curves from
#'   `as_curves(incomplete = "drop")` remember how many they left out: they
#'   need `incomplete = "drop"` here too (the default refuses them, as it
#'   refuses data with gaps, rather than count the dropped as 0). In long
#'   data (a data frame, table or chunks) a row with a missing value is
#'   dropped before the curves are formed; an individual none of whose
#'   rows is left stays in `n` with no observation (dropping it would let
#'   `n` tell whether its values are missing): `"error"` refuses it, as any
#'   gap, and `"drop"` counts it as incomplete, as a matrix's row of missing
#'   values is counted (the same release from a matrix, a data frame, chunks
#'   and a table). A matrix with missing values and `"drop"` leaves out every
#'   row with a missing value (with `na.rm = TRUE`: every row whose observed
#'   values do not reach the grid's ends).
#' @param inference `TRUE` to make a band for the **population** mean
#'   possible ([confint()] with `type = "population"`): a share
#'   `inference_share` (in `...`, default 0.2, at most 0.9) of `epsilon` is
#'   spent on a private upper bound of the spread of the clipped curves, and
#'   the mean is released with the rest, so the whole call is still
#'   `epsilon`-DP (for `"gp"`: `(epsilon, delta)`-DP, charged as such). The
#'   spread is the matrix of second moments of the kept basis coefficients
#'   (shrunk by \eqn{s_j}; FRL: \eqn{s_j = 1} on the first `M`) on the first
#'   \eqn{K \le 4} components (about the released mean, with exact discrete
#'   Laplace noise calibrated to its L1 sensitivity \eqn{(\|s_K\|^2 +
#'   s_1^2)(\tau + \|p\|)^2 / n}) and the largest eigenvalue of the second
#'   moments of the components kept at least 1\% beyond them (sensitivity
#'   \eqn{s_{K+1}^2 \tau^2 / n}, by Weyl's inequality); half of the share
#'   each (after `clip_share` of it, below). Every source gives the same release (chunks are read
#'   once). Available for every mechanism (`"iclp_qr"`, `"frl"` and `"gp"`,
#'   linear in the mean; `"bernstein"` and `"iclp_ar"` as below) with every `select` (with `"pcv"` the band holds at level
#'   \eqn{1 - (1 - \mathrm{level})/L} for each of the \eqn{L} candidates, so
#'   that it covers whichever the private cross-validation picks), with
#'   `incomplete = "drop"` (the band is then for the population mean of the
#'   complete curves, as the release; the incomplete individuals add nothing
#'   to the second moments either, and the band is widened by the error of
#'   the noisy count, with probability 0.05 of `1 - level` left to it; a
#'   count whose noise at level 0.95 exceeds half of it gives no band, which
#'   the release says at once, with the `count_share` that would do:
#'   `dpfda_warning_count`), and
#'   not from a mean summary (which lacks the second moments). With `tau =
#'   "auto"` the band is for the mean of the curves clipped at the private
#'   bound (the spread is summed at it, so the data are read twice: not
#'   from chunks, which are read once; with a Gaussian release the
#'   \eqn{\mu}-GDP budget is what the bound's pure-DP share leaves); the
#'   bound targets a quantile of the norms (`bound_quantile`, 0.9), so some
#'   curves are clipped, as the count below reports. With a
#'   Gaussian release (`"gp"`, or `"frl"` with `frl_noise = "gaussian"`;
#'   float noise and the default analytic calibration) the release and the
#'   spread are Gaussian mechanisms sharing one
#'   \eqn{\mu}-GDP budget, \eqn{\mu} the largest that is
#'   \eqn{(\epsilon, \delta)}-DP: the spread gets `inference_share` of
#'   \eqn{\mu^2} (its block calibrated to the Frobenius sensitivity
#'   \eqn{\sqrt 2 s_1^2 (\tau + \|p\|)^2 / n}, its eigenvalue to
#'   \eqn{s_{K+1}^2 \tau^2 / n}), the release the rest, and the call is charged
#'   as one Gaussian entry (`inference$mu` records the parts; GDP composes
#'   exactly, so the whole is still \eqn{(\epsilon, \delta)}-DP). With `unit`, \eqn{n} counts units and the band is for
#'   the population mean of the units' mean curves; each unit adds the mean
#'   of its curves' second moments, an upper bound on those of its mean
#'   curve, so the band is conservative when a unit's curves differ. With
#'   `"bernstein"` the spread is that of the curves clamped to
#'   \eqn{[-\tau, \tau]} and mapped to their Bernstein polynomials (the
#'   release's own map, linear), on a basis of the polynomials' range
#'   ordered by that map's singular values (the smooth components first),
#'   every component kept; each clamped curve's coordinates have norm at
#'   most \eqn{\tau \sqrt{|domain|}}, which calibrates the noise as
#'   \eqn{\tau} does above, and the Bernstein approximation bias enters as
#'   the bound [dp_accuracy()] reports. With `"iclp_ar"`, whose soft
#'   thresholding is not linear, the spread is that of the released
#'   components (unshrunk), and the band bounds the sampling error by
#'   \eqn{\sum_j |v_j(t)| |\bar a_j - a_j|} (thresholding is nondecreasing
#'   and 1-Lipschitz), each component bounded at once (Bonferroni), plus
#'   a Monte Carlo quantile of the noise: valid for any thresholding, and
#'   wider than the linear bands.
#'   The band is for the mean of the clipped curves: where curves exceed
#'   `tau` the population mean differs from it by an amount no private
#'   statistic of bounded sensitivity can bound. A share `clip_share` (in
#'   `...`, default 0.1, at most 0.5; 0 to skip) of the inference part buys
#'   a private count of the curves (units: with any curve) beyond `tau` (one
#'   individual changes it by at most 1; exact discrete Laplace noise, or a
#'   Gaussian mechanism in the same \eqn{\mu}-GDP budget). `print()` and
#'   `glance()` (`clipped_fraction`) show it, the band's `method` states it
#'   with the interval of its noise, and `confint(type = "population")`
#'   warns (`dpfda_warning_clipping`) when the fraction is above 5\% with
#'   confidence 0.999 (a false alarm at most once in 1000 bands): then use a larger `tau` or a `center` nearer the curves. At
#'   small \eqn{n \epsilon} the count is too noisy to tell (the print says
#'   so); a larger `clip_share` sharpens it at the cost of the spread.
#'   The smoothing of `"iclp_qr"` and `"gp"` enters the band as a worst-case
#'   bias bound, which dominates it at large `n * epsilon`. Keeping every
#'   component (`mechanism = "frl", M = <number of grid points>`) has no
#'   smoothing bias; with `frl_noise = "gaussian", delta = 1e-5` it gives
#'   the narrowest band at large `n * epsilon` (at `epsilon = 4`, `n = 1000`
#'   on 50 grid points 4.3-5.3 times the non-private band, against 7.4-9.4
#'   times for the Laplace FRL, 10.5-13.3 for `"gp"` and 14-18 for
#'   `"iclp_qr"`), but a wider one
#'   at small `n * epsilon`, where `"iclp_qr"` is best, and its noise grows
#'   with the square root of the number of grid points (see
#'   `bench/bench-population-band.R`).
#' @return A `dpfda_release` of class `dpfda_iclp_release` with the released
#'   mean on the grid (`values`), `coefficients` (released coefficients in the
#'   basis), `basis`, `params`, `tau`, `n`, `selection`, `epsilon_release`,
#'   `epsilon_select`, and with `tau = "auto"` `tau_auto`. It holds neither
#'   the data, the non-private mean nor the
#'   noise. [predict()] evaluates it at new points by the Nystrom extension
#'   of the basis (Bernstein: its polynomial), which is post-processing. With
#'   `center`, the release holds `center` (the function, or its grid values)
#'   and `coefficients` are those of the centred release; `predict()` adds
#'   the centre back (interpolated linearly when given as values). With
#'   `inference = TRUE` it also holds `inference` (the private second
#'   moments and their noise scales, and `clipped`, the private count of
#'   clipped curves) and `epsilon_inference`; `epsilon` is
#'   the total.
#' @examples
#' t <- seq(0, 1, length.out = 101)
#' x <- curves(outer(runif(200, 0.5, 1), sin(2 * pi * t)), t)
#' r <- dp_mean(x, epsilon = 1, tau = 1)
#' r
#' predict(r, c(0.25, 0.333))
#' dp_mean(x, epsilon = 1, tau = 1, mechanism = "frl", select = "manual", M = 5)
#' dp_mean(x, epsilon = 1, tau = 1, mechanism = "gp", delta = 1e-3)
#' # every component, Gaussian noise: (epsilon, delta)-DP, no smoothing
#' dp_mean(x, epsilon = 1, tau = 1, mechanism = "frl", select = "manual", M = 101,
#'         frl_noise = "gaussian", delta = 1e-5)
#' # a plain matrix with its grid; a public centre so tau bounds the deviations
#' m <- 1 + outer(runif(200, 0.9, 1.1), t)
#' dp_mean(m, epsilon = 1, tau = 0.3, grid = t, center = function(t) 1 + t)
#' # no guess: a tenth of epsilon buys the bound privately
#' ra <- dp_mean(x, epsilon = 1, tau = "auto")
#' ra$tau
#' ra
#' # a band for the population mean: 20% of epsilon buys the spread of the curves
#' r <- dp_mean(m, epsilon = 1, tau = 0.3, grid = t, center = function(t) 1 + t, inference = TRUE)
#' head(confint(r, type = "population"))
#' @export
dp_mean <- function(x, epsilon, tau, mechanism = c("iclp_qr", "iclp_ar", "frl", "bernstein", "gp"),
                    kernel = NULL, select = c("pss", "pcv", "manual"), ...,
                    noise = c("float", "exact"), budget = NULL, center = NULL, grid = NULL,
                    incomplete = c("error", "drop"), unit = NULL, inference = FALSE) {
  if (!missing(x) && inherits(x, "dpfda_summary")) {   # the public tau and centre summarise_mean() recorded
    if (missing(tau) && !is.null(x$settings$tau)) tau <- x$settings$tau
    center <- center %||% x$settings$center
  }
  check_required(c("x", "epsilon", "tau"))
  call <- match.call()
  budget <- release_open(budget)
  noise <- check_noise(noise)
  incomplete <- check_choice(incomplete, c("error", "drop"), "incomplete")
  opts <- capture_dots(..., .cols = c("id", "arg", "value"))   # column names: strings or bare names
  if (length(opts) && (is.null(names(opts)) || any(!nzchar(names(opts))))) {
    abort_unnamed_dots()
  }
  # a misspelt or unknown name is named before the data are read (whose errors would hide it)
  bad <- setdiff(names(opts), c(dp_mean_options, as_curves_options))
  if (length(bad)) abort_unknown_option(bad[1L], "dp_mean", c(option_names("dp_mean"), dp_mean_options, as_curves_options))
  # one path for every source: settings -> summary (R/summary-mean.R) -> one release
  # the privacy unit: a column (string or bare name) of a data frame, table or chunks, or one
  # entry per curve for curves and matrices
  unit <- unit_arg(substitute(unit), tryCatch(unit, error = function(e) e))
  select <- check_choice(select, c("pss", "pcv", "manual"), "select")
  src <- mean_source(x, opts, grid, incomplete, unit, select)
  epsilon <- check_epsilon(epsilon)
  auto <- identical(tau, "auto")   # a private bound (R/auto-bound.R)
  if (!auto) tau <- check_tau(tau)
  mechanism <- check_mechanism(mechanism, iclp_mechanisms, "dp_mean")
  if (is.null(kernel)) kernel <- default_mech_kernel(src$domain)
  check_kernel(kernel)
  bad <- setdiff(names(src$opts), dp_mean_options)
  if (length(bad)) {
    abort_unknown_option(bad[1L], "dp_mean", c(option_names("dp_mean"), dp_mean_options))
  }
  o <- iclp_check_options(src$opts, mechanism, select)
  # incomplete = "drop": a share of epsilon buys a noisy count of the complete individuals
  eps_count <- if (incomplete == "drop") o$count_share * epsilon else 0
  eps_rel <- epsilon - eps_count
  # inference = TRUE: a share of epsilon buys a private bound on the spread of the curves
  inference <- check_flag(inference, "inference")
  # (a share whose switch is off would be ignored: an error, as for an unknown option)
  switch_unused(src$opts, if (!inference) c("inference_share", "clip_share"), "inference = TRUE")
  switch_unused(src$opts, if (incomplete != "drop") "count_share", "incomplete = \"drop\"")
  # ... and so would the options of the private cross-validation without it, and those of another
  # mechanism (M with "iclp_qr" was accepted and the release made with PSS tuning, as if not given)
  switch_unused(src$opts, if (select != "pcv") c("epsilon_select", "candidates", "folds"), "select = \"pcv\"")
  for (m in names(mechanism_only_options)) {
    if (mechanism != m) switch_unused(src$opts, mechanism_only_options[[m]], sprintf("mechanism = \"%s\"", m))
  }
  if (inference) check_inference(mechanism, select, incomplete, unit, src)
  if (inference && auto && inherits(src$data, "dpfda_chunks")) {
    # the spread is summed at the bound, which is known only after a pass over the data
    dpfda_abort(paste("inference = TRUE with tau = \"auto\" reads the data twice (the spread is summed at the",
                      "private bound, known after a first pass); chunks are read once. Give a numeric tau, or",
                      "the data as a data frame or a database table."),
                class = "dpfda_error_unsupported", arg = "inference")
  }
  # (a Gaussian release, "gp" or FRL with Gaussian noise, with float noise and the analytic (exact)
  # calibration: the release and the spread are Gaussian mechanisms that share one mu-GDP budget,
  # R/population-band.R; charged as one Gaussian entry, no split of epsilon)
  gdp_ok <- (mechanism == "gp" || frl_gaussian(mechanism, o)) && noise == "float" && o$calibration == "analytic"
  # (the mu-GDP split is made below, after tau = "auto" has taken its pure-DP share)
  eps_inf <- if (inference && !gdp_ok) o$inference_share * eps_rel else 0
  eps_rel <- eps_rel - eps_inf
  # (clip_share of the inference part buys the count of clipped curves, R/population-clipped.R)
  eps_clip <- o$clip_share * eps_inf
  if (select == "pcv" && (incomplete == "drop" || length(src$curves$dropped))) {
    abort_pcv_dropped("dp_mean(select = \"pcv\")", "select")
  }
  if (select == "pcv" && is.null(src$curves)) {
    dpfda_abort("select = \"pcv\" needs the curves in memory; use \"pss\" or \"manual\" with a table or chunks.",
                arg = "select")
  }
  cen <- center_values(center, src$grid)
  if (!is.null(cen) && !is.null(src$curves)) src$curves$values <- src$curves$values - rep(cen, each = src$n)
  clip <- if (mechanism == "bernstein") "sup" else "l2"
  if (mechanism == "bernstein" && grid_size(src$grid) < 2L) {
    dpfda_abort("mechanism = \"bernstein\" needs at least 2 grid points.", arg = "grid")
  }
  if (mechanism == "bernstein" && src$dim != 1L) {
    dpfda_abort("mechanism = \"bernstein\" needs curves on a one-dimensional grid.", arg = "x")
  }
  basis <- if (clip == "l2") kl_basis(kernel, src$grid, J = o$J, weights = o$weights, tol = o$tol)
  # the basis of the spread: the kernel's, or (Bernstein) that of the polynomials' range, public
  ibasis <- if (!inference) NULL else if (clip == "l2") basis else bernstein_inference_basis(src$grid, o$k)
  if (inference && inherits(src$data, "dpfda_chunks")) {
    # chunks are read once: the second moments are summed as the mean summary reads them, on
    # the components the shrinkage keeps (public: n is not known yet, so all of them)
    # (with a unit, its rows come together in the chunks, and a unit is never split)
    by <- src$cols$unit %||% src$cols$id %||% "id"
    fill <- if (!is.null(src$cols$unit)) src$cols$id %||% "id"   # (a row without its unit goes with its curve)
    inc <- if (incomplete == "drop") "drop" else "zero"
    tee <- chunks_tee(src$data, function(d) {
      summarise_cov_basis(d, ibasis, tau, src$cols$id %||% "id", src$cols$arg %||% "arg",
                          src$cols$value %||% "value", center = cen, unit = src$cols$unit, incomplete = inc)
    }, by, fill)
    src$data <- tee$chunks
    src$tee <- tee
    if (o$clip_share > 0) {   # ... and the norms, for the count of clipped curves
      src$clip_tee <- chunks_tee(src$data, function(d) clipped_bins_frame(d, src, tau, ibasis, cen, inc), by, fill)
      src$data <- src$clip_tee$chunks
    }
  }
  ab <- NULL
  if (auto) {
    # a share of epsilon buys tau; the rest (and all of delta) goes to the release
    w <- if (clip == "l2") basis$weights else numeric()
    # (the count of complete individuals and the inference take their shares first: a bound_share that
    # leaves the release nothing is refused before the bound is bought)
    others <- paste(c(if (eps_count > 0) "count_share", if (eps_inf > 0) "inference_share"), collapse = " and ")
    ab <- mean_auto_bound(src, auto_bound_options(src$opts, clip, if (clip == "l2") sum(w) else 1), clip, w,
                          cen, incomplete, epsilon, budget, room = eps_rel / epsilon, others = others)
    s <- check_summary(ab$summary, "mean")
    tau <- ab$tau
    eps_rel <- eps_rel - ab$epsilon   # (positive: auto_bound_share() refuses a share that leaves nothing)
  } else {
    auto_bound_unused(src$opts)
    s <- mean_summary(src, tau, clip, basis, cen, incomplete)
  }
  o$gdp <- if (inference && gdp_ok) inference_gdp_split(eps_rel, o$delta, o$inference_share, o$clip_share)
  warn_privacy(epsilon, if (mechanism == "gp" || frl_gaussian(mechanism, o)) o$delta else 0, s$n)
  # (with a centre, the utility check waits for the centre to be added back: centre_later(); with
  # incomplete = "drop", for the division by the noisy share of complete individuals)
  rescale <- eps_count > 0
  made <- centre_later(if (mechanism == "bernstein") {
    list(release = quiet_privacy(mean_release_bernstein(s, eps_rel, tau, o, select, call, noise, src)))
  } else {
    mean_release_iclp(s, basis, mechanism, eps_rel, tau, kernel, select, o, noise, call, src)
  }, cen, rescale)
  rel <- made$release
  # the release proper (and a private selection) as privacy parts, before the other parts join it
  parts <- if (mechanism == "bernstein") list(release_part(rel)) else
    list(iclp_mean_part(made$charge, mechanism, eps_rel),
         privacy_part(made$charge$par$epsilon_select, name = "selection"))
  rel <- centre_later(mean_rescale_complete(rel, s, eps_count), cen)
  if (rescale && is.null(cen)) release_utility_check(rel)
  rel$privacy_unit <- privacy_unit_of(s)
  if (inference) {   # after the mean: its released coefficients are the public centring point
    sh <- inference_keep(mechanism, ibasis, rel$params)
    kk <- inference_components(sh)
    cs <- population_summary(src, ibasis, kk[["Jt"]], tau, cen, incomplete)
    coef <- if (clip == "l2") rel$coefficients else
      as.vector(kl_coef(ibasis, bernstein_predict(rel$bernstein, ibasis$grid)))   # (centred, unscaled)
    rel$inference <- population_inference(cs, coef, sh, kk[["K"]], kk[["Jt"]], s$n, inference_radius(ibasis, tau),
                                          eps_inf - eps_clip, gdp = o$gdp, delta = o$delta)
    if (clip == "sup") rel$inference$basis <- ibasis   # (the band's basis: R/population-band-bernstein.R)
    if (o$clip_share > 0) {
      rel$inference$clipped <- population_clipped_release(
        population_clipped_count(src, ibasis, tau, cen, incomplete), s$n, eps_clip, o$gdp, o$delta)
      if (!is.null(o$gdp)) rel$inference$mu[["clip"]] <- o$gdp[["clip"]]
    }
    rel$epsilon <- rel$epsilon + eps_inf
    rel$epsilon_inference <- eps_inf   # (0 with a shared mu-GDP budget: rel$inference$mu says its share)
    if (!is.null(o$gdp)) parts[[1L]] <- privacy_part(eps_rel, o$delta, mu = o$gdp[["total"]])
    rel$zcdp_rho <- NULL   # (GP, exact noise: the release with the spread part is not rho-zCDP)
    refusal <- drop_band_refusal(rel)   # (said now, not first at confint(): the spread's epsilon is spent)
    if (!is.null(refusal)) dpfda_warn(refusal, c("dpfda_warning_count", "dpfda_warning_utility"))
  }
  rel <- add_center(rel, cen, center, src$grid)
  if (auto) {
    rel$epsilon <- rel$epsilon + ab$epsilon
    rel$tau_auto <- ab[c("epsilon", "share", "quantile", "range")]
  }
  # one charge for every part: the release, a selection, the bound, the count and the spread
  parts <- c(parts, list(privacy_part(if (auto) ab$epsilon else 0, name = "bound"),
                         privacy_part(eps_count, name = "count"), privacy_part(eps_inf - eps_clip, name = "spread"),
                         privacy_part(eps_clip, name = "clipped count")))
  # a mean of densities (as_density(), mortality_distribution()) is a density: quantile() takes it
  if (inherits(x, "dpfda_density")) rel$of_densities <- TRUE
  release_close(rel, budget, if (auto) "dp_mean (tau = \"auto\")" else if (select == "pcv") "dp_mean + pcv_select"
                else "dp_mean", parts)
}

# incomplete = "drop": the release above is the mean over all N individuals,
# the incomplete ones counting as 0 (so its noise is calibrated for N, which
# the data do not choose); here it is divided by the share of complete
# individuals, estimated by a count with exact discrete Laplace noise of
# scale 1 / eps_count (one person changes the count by at most 1), clamped
# to [1, N]: post-processing of two private releases, epsilon in total.
mean_rescale_complete <- function(rel, s, eps_count) {
  if (!(eps_count > 0)) return(rel)
  N <- s$n
  n_complete <- N - (s$incomplete_n %||% 0)
  count <- noisy_complete_count(n_complete, N, eps_count)
  f <- N / count
  rel$values$values <- rel$values$values * f
  rel$scale_factor <- f
  rel$n_complete <- count
  rel$epsilon <- rel$epsilon + eps_count
  rel$epsilon_count <- eps_count
  rel
}

# The print's line on the scale error the division by the noisy count adds, which the noise
# figures (the release's law, scaled by N / count) leave out: ChickWeight's 45 complete chicks at
# epsilon 1 printed a noise sd of 27.7 while releases over seeds varied by 135-200 (counts of 1 in
# 6 of 300 seeds). Public: the count's noise sd against the noisy count.
count_scale_note <- function(x) {
  if (is.null(x$epsilon_count) || is.null(x$n_complete)) return("")
  sd <- complete_count_sd(x$epsilon_count)
  sprintf(paste("    the count's noise sd %s makes the scale of the release uncertain by about %s%% (a factor",
                "the noise figures above leave out)\n"), format(sd, digits = 3),
          format(signif(100 * sd / x$n_complete, 2)))
}

# The sd of the noisy count's discrete Laplace noise (scale 1 / eps_count, rounded up).
complete_count_sd <- function(eps_count) sqrt(2) * ceiling(1 / eps_count)

# The noisy count of complete individuals of incomplete = "drop" (dp_mean(),
# dp_cov()), clamped to [1, N]; the release is multiplied by N / count. When
# the count's noise (sd about sqrt(2) / eps_count) is more than half of
# the count itself, that factor is unreliable (ChickWeight per diet, 10 to 20
# chicks at epsilon 1: a count of 1, the release multiplied by 20): said,
# from public values only (the noisy count and its public noise scale).
noisy_complete_count <- function(n_complete, N, eps_count) {
  count <- min(max(exact_laplace_noise(n_complete, 1 / eps_count, 0L), 1), N)
  sd <- complete_count_sd(eps_count)
  if (sd > 0.5 * count) {
    dpfda_warn(sprintf(paste("The noisy count of complete individuals is %s, against a noise sd of %s: the release,",
                             "divided by it (multiplied by %s), is uncertain in scale by about %s%%. Dropping pays",
                             "off with many individuals; here use a grid that every curve covers (no dropping), a",
                             "larger count_share (in ...) or a larger epsilon. (Long data cover a grid point where",
                             "a row lies nearer to it than to the other grid points: a grid finer than the times",
                             "of observation leaves every curve incomplete. Use the schedule of the times as the",
                             "grid, or interpolate with as_curves() first.)"),
                       format(count), format(sd, digits = 3), format(N / count, digits = 3),
                       format(round(100 * sd / count))), c("dpfda_warning_count", "dpfda_warning_utility"))
  }
  count
}

# The ICLP / FRL / GP release of dp_mean() from a mean summary: the only
# place where this noise is drawn. `src` (mean_source()) gives the curves
# for PCV (in memory), the dimension, domain and axis names.
mean_release_iclp <- function(s, basis, mechanism, epsilon, tau, kernel, select, o, noise, call, src) {
  n <- s$n
  h <- if (is.null(o$h)) kernel_edr(kernel, src$dim) else o$h
  par <- iclp_params(mechanism, select, o, n, epsilon, tau, h, basis, src$curves, kernel, src$unit)
  a <- as.vector(kl_coef(basis, matrix(s$sums / n, nrow = 1L)))
  out <- iclp_release_core(mechanism, a, basis$values, basis, n, epsilon, tau, par, o, kernel, noise = noise)
  if (frl_gaussian(mechanism, o)) par$params$frl_noise <- "gaussian"   # (the noise law reads it)
  vals <- mean_release_curves(out$values, basis$grid, src)
  # (iclp_ar: the threshold scale, for the public bias bound)
  rel <- iclp_mean_release(out, vals, basis, mechanism, epsilon, par, kernel, call, h, tau, n, select,
                           threshold_scale = if (mechanism == "iclp_ar") o$threshold_scale)
  # the release, and what its charge needs (the core's output and the tuning)
  list(release = rel, charge = c(out, list(par = par)))
}

# The released values as curves on the grid, with the data's domain and axis names.
mean_release_curves <- function(values, grid, src) {
  vals <- new_dpfda_curves(values, grid, src$domain)
  nm <- source_axis_names(src)
  vals$arg_name <- nm$arg
  vals$value_name <- nm$value
  vals
}

# The names of a source's argument and values: those of its curves, or of long data's columns.
source_axis_names <- function(src) {
  if (!is.null(src$curves)) return(list(arg = src$curves$arg_name, value = src$curves$value_name))
  if (is.character(src$cols$arg) && is.character(src$cols$value)) {
    return(list(arg = src$cols$arg, value = src$cols$value))
  }
  list()
}

# The release object of dp_mean()'s ICLP/FRL/GP mechanisms from the output of
# iclp_release_core(); shared by the in-memory and the engine path.
iclp_mean_release <- function(out, vals, basis, mechanism, epsilon, par, kernel, call, h, tau, n, select,
                              threshold_scale = NULL) {
  new_iclp_release(vals, mechanism = mechanism, epsilon = epsilon + par$epsilon_select,
                   delta = out$delta, sensitivity = out$sensitivity, noise_scale = out$noise_scale,
                   noise = kernel, call = call,
                   coefficients = as.vector(kl_coef(basis, out$values)), basis = basis,
                   params = c(par$params, list(h = h, J = basis$J, J_tau = out$J_tau)),
                   tau = tau, n = n, selection = select, epsilon_release = epsilon,
                   epsilon_select = par$epsilon_select, pcv = par$pcv, noise_exact = out$noise_exact,
                   grid_step = out$grid_step, noise_inflation = out$noise_inflation,
                   zcdp_rho = out$zcdp_rho, threshold_scale = threshold_scale)
}

#' The release of dp_mean(): class `dpfda_iclp_release` (every mechanism:
#' ICLP-QR/AR, FRL, GP on the KL basis, and Bernstein).
#' @param values,mechanism,epsilon,delta,sensitivity,noise_scale,noise,call
#'   The common fields (new_dpfda_release()); `epsilon` is the whole call's
#'   (every part below included), `noise` the kernel (a description for
#'   Bernstein).
#' @param coefficients,basis The released KL coefficients and the public basis
#'   (not for Bernstein).
#' @param bernstein The dp_bernstein() lattice release (Bernstein only).
#' @param params The tuning (eta, psi or M; h, J, J_tau; k for Bernstein).
#' @param tau The public bound.
#' @param n The number of individuals (public: add/remove-free neighbours).
#' @param selection How the tuning was chosen ("pss", "pcv", "manual").
#' @param epsilon_release The epsilon of the release proper.
#' @param epsilon_select The epsilon of a private (PCV) selection, else 0.
#' @param pcv The PCV selection (NULL otherwise; stored for the KL mechanisms).
#' @param noise_exact,grid_step,noise_inflation,zcdp_rho The exact-noise
#'   record of the ICLP core (stored, possibly NULL, for the KL mechanisms;
#'   zcdp_rho is removed with `inference`).
#' @param threshold_scale ICLP-AR's threshold scale (for the bias bound).
#' @param scale_factor,n_complete,epsilon_count incomplete = "drop" (set
#'   after the release by mean_rescale_complete()): the factor N / count, the
#'   noisy count of complete individuals and its epsilon.
#' @param privacy_unit What one individual of the guarantee is (set after the
#'   release).
#' @param inference,epsilon_inference inference = TRUE (set after the
#'   release): the private spread of the population and its epsilon.
#' @param center The public centre added back (set by add_center()).
#' @param tau_auto tau = "auto" (set after the release): the record of the
#'   private choice of tau.
#' @noRd
new_iclp_release <- function(values, mechanism, epsilon, delta, sensitivity, noise_scale, noise = NULL,
                             call = NULL, coefficients = NULL, basis = NULL, bernstein = NULL, params = NULL,
                             tau = NULL, n = NULL, selection = NULL, epsilon_release = NULL,
                             epsilon_select = NULL, pcv = NULL, noise_exact = NULL, grid_step = NULL,
                             noise_inflation = NULL, zcdp_rho = NULL, threshold_scale = NULL,
                             scale_factor = NULL, n_complete = NULL, epsilon_count = NULL, privacy_unit = NULL,
                             inference = NULL, epsilon_inference = NULL, center = NULL, tau_auto = NULL) {
  release_from_fields(new_iclp_release, "dpfda_iclp_release",
                      nullable = c("pcv", "noise_exact", "grid_step", "noise_inflation", "zcdp_rho"))
}

# The release proper of an ICLP / FRL / GP mean as a privacy part: Gaussian
# float noise as mu-GDP, exact (discrete Gaussian) noise as zCDP rho.
iclp_mean_part <- function(out, mechanism, epsilon) {
  gaussian <- mechanism == "gp" || identical(out$family, "gaussian")   # (FRL with frl_noise = "gaussian")
  privacy_part(epsilon, out$delta,
               mu = if (gaussian && !isTRUE(out$noise_exact)) out$sensitivity / out$noise_scale,
               rho = out$zcdp_rho)
}

# The Bernstein release of dp_mean() from a mean summary clipped pointwise
# ("sup"): the mean of the clamped curves, interpolated to the lattice, is
# released by dp_bernstein() (sensitivity 2 tau / n).
mean_release_bernstein <- function(s, epsilon, tau, o, select, call, noise, src) {
  g <- as.double(s$settings$grid)
  n <- s$n
  lat <- g[1L] + (0:o$k) / o$k * (g[length(g)] - g[1L])
  f_lat <- stats::approx(g, s$sums / n, xout = lat, rule = 2)$y   # (check_summary(): all finite)
  br <- dp_bernstein(f_lat, sensitivity = 2 * tau / n, epsilon = epsilon, k = o$k,
                     domain = c(g[1L], g[length(g)]), noise = noise)
  br$call <- NULL
  vals <- mean_release_curves(matrix(bernstein_predict(br, g), nrow = 1L), g, src)
  new_iclp_release(vals, mechanism = "bernstein", epsilon = epsilon, delta = 0,
                   sensitivity = 2 * tau / n, noise_scale = br$noise_scale,
                   noise = sprintf("i.i.d. Laplace on %d Bernstein lattice values", o$k + 1L),
                   call = call, bernstein = br, params = list(k = o$k), tau = tau, n = n,
                   selection = select, epsilon_release = epsilon, epsilon_select = 0,
                   noise_exact = noise == "exact")
}

#' @export
release_predict.dpfda_iclp_release <- function(object, newdata, ...) {
  out <- if (identical(object$mechanism, "bernstein")) bernstein_predict(object$bernstein, newdata) else {
    B <- stats::predict(object$basis, newdata)
    as.vector(B %*% object$coefficients)
  }
  if (!is.null(object$scale_factor)) out <- out * object$scale_factor   # incomplete = "drop"
  if (!is.null(object$center)) out <- out + center_at(object$center, newdata)
  out
}

# Add the public centre back to a release (post-processing) and remember it
# for predict(): a function is kept, values are interpolated linearly.
# With a centre, the utility check waits until the centre is added back (it
# uses the centre's size); add_center() makes it.
centre_later <- function(expr, cen, later = FALSE) if (is.null(cen) && !later) expr else quiet_utility(expr)

add_center <- function(rel, cen, center, grid) {
  if (is.null(cen)) return(rel)
  rel$values$values <- rel$values$values + rep(cen, each = nrow(rel$values$values))
  if (!all(is.finite(rel$values$values))) {
    dpfda_abort("The release plus `center` overflows double precision; give a centre of a sensible size.",
                class = "dpfda_error_numeric", arg = "center")
  }
  rel$center <- if (is.function(center)) center else list(grid = grid, values = cen)
  release_utility_check(rel)
}

center_at <- function(center, newdata) {
  if (is.function(center)) return(as.double(center(newdata)))
  if (!is.null(dim(center$grid))) {
    dpfda_abort("predict() with a `center` given as values needs a one-dimensional grid; give `center` as a function.",
                arg = "center")
  }
  pts <- if (is.matrix(newdata)) newdata[, 1L] else newdata
  if (length(center$grid) == 1L) return(rep(center$values, length(pts)))
  stats::approx(center$grid, center$values, xout = pts, rule = 2)$y
}

# tau is an L2 norm over the grid's domain, not a distance in the values' units: on a domain of
# measure S != 1 say which root-mean-square deviation it allows (tau / sqrt(S)), so that a bound
# chosen "in cm" on a time axis in years is seen to clip (growth curves on [1, 18]: tau = 60 is an
# RMS deviation of 14.6 cm).
print_tau_scale <- function(x) {
  S <- if (!identical(x$mechanism, "bernstein") && !is.null(x$basis)) basis_measure(x$basis) else 1
  if (S == 1 || !is.numeric(x$tau)) return(invisible())
  cat(sprintf(paste("  tau is the L2 norm over a domain of measure %s: a curve at a root-mean-square distance",
                    "of %s from %s is at the bound\n"), format(S, digits = 4),
              format(x$tau / sqrt(S), digits = 4), if (is.null(x$center)) "0" else "the centre"))
}

#' @export
release_details.dpfda_iclp_release <- function(x) {
  p <- x$params[!vapply(x$params, function(v) is.null(v) || all(is.na(v)), NA)]
  per_unit <- !is.null(x$privacy_unit) && !startsWith(x$privacy_unit, "one curve")
  cat(sprintf("  mean of %d %s clipped to tau = %s; parameters (%s): %s\n", x$n,
              if (per_unit) "units (the mean of each unit's curves)" else "curves", format(x$tau, digits = 4),
              x$selection, paste(names(p), vapply(p, function(v) format(v, digits = 4), ""), sep = " = ",
                                 collapse = ", ")))
  print_tau_scale(x)
  if (!is.null(x$center)) {
    cat("  curves centred on a public reference before clipping; the reference is added back\n")
  }
  print_tau_auto(x)
  if (!is.null(x$scale_factor)) {
    cat(sprintf(paste("  incomplete curves dropped: the mean is over a noisy count of %s complete individuals",
                      "(epsilon %s of the total)\n%s"), format(x$n_complete, digits = 6),
                format(x$epsilon_count, digits = 4), count_scale_note(x)))
  }
  cl <- x$inference$clipped
  band_promise <- if (is.null(drop_band_refusal(x))) "confint(type = \"population\") gives a band for the population mean" else
    "but the noisy count of complete individuals is too uncertain for a population band at level 0.95"
  if (!is.null(x$inference$mu)) {
    cat(sprintf(paste("  inference: the release, the spread of the curves (%d components)%s are Gaussian",
                      "mechanisms sharing mu = %s (GDP; spread %s%s, release %s): (epsilon, delta) in all;",
                      "%s\n"), x$inference$K,
                if (is.null(cl)) "" else sprintf(" and the count of clipped %s", if (per_unit) "units" else "curves"),
                format(x$inference$mu[["total"]], digits = 4), format(x$inference$mu[["spread"]], digits = 4),
                if (is.null(cl)) "" else paste(", count", format(cl$mu, digits = 4)),
                format(x$inference$mu[["release"]], digits = 4), band_promise))
  } else if (!is.null(x$inference)) {
    cat(sprintf(paste("  inference: epsilon %s of the total spent on the spread of the curves (%d components)%s;",
                      "%s\n"),
                format(x$epsilon_inference, digits = 4), x$inference$K,
                if (is.null(cl)) "" else sprintf(" and the count of clipped %s (epsilon %s of it)",
                                                  if (per_unit) "units" else "curves", format(cl$epsilon, digits = 4)),
                band_promise))
  }
  if (!is.null(cl)) {
    fr <- clipped_fraction(cl)
    who <- if (per_unit) "units" else "curves"
    if (clipped_uninformative(fr)) {
      # (no headline share: "about 100%" of the curves, from a count whose noise spans 0%-100%, was read
      # as a finding; the private count itself is in glance()$clipped_count)
      cat(sprintf(paste("  clipped: too noisy to tell what share of the %s exceeds tau (the 95%% interval of the",
                        "private count's noise spans %s%%-%s%%); a larger clip_share buys a sharper count\n"),
                  who, format(100 * fr[["lower"]], digits = 2), format(100 * fr[["upper"]], digits = 2)))
    } else cat(sprintf("  clipped: about %s%% of the %s exceed tau (private count; 95%% interval of its noise %s%%-%s%%%s)\n",
                format(100 * fr[["estimate"]], digits = 2), who,
                format(100 * fr[["lower"]], digits = 2), format(100 * fr[["upper"]], digits = 2),
                if (isTRUE(fr[["outside"]])) clipped_tail_note(cl, fr) else ""))
  }
  if (x$epsilon_select > 0) {
    cat(sprintf("  epsilon = %s (release) + %s (private cross-validation)\n",
                format(x$epsilon_release, digits = 4), format(x$epsilon_select, digits = 4)))
  }
}
