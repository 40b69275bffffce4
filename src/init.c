/* init.c -- routine registration only. */
#include "dpfda.h"
#include <R_ext/Rdynload.h>
#include <R_ext/Visibility.h>

#define CALLDEF(name, n) {#name, (DL_FUNC) &name, n}

static const R_CallMethodDef call_methods[] = {
  CALLDEF(dpfda_rng_mode_get, 0),
  CALLDEF(dpfda_rng_mode_set, 1),
  CALLDEF(dpfda_rng_draw, 2),
  CALLDEF(dpfda_laplace_draw, 2),
  CALLDEF(dpfda_kernel_gram, 5),
  CALLDEF(dpfda_chol_factor, 3),
  CALLDEF(dpfda_gp_chol_draw, 2),
  CALLDEF(dpfda_gp_markov_path, 4),
  CALLDEF(dpfda_gp_kronecker, 2),
  CALLDEF(dpfda_gp_circulant, 4),
  CALLDEF(dpfda_online_create, 6),
  CALLDEF(dpfda_online_setup, 3),
  CALLDEF(dpfda_online_count, 1),
  CALLDEF(dpfda_online_plan, 2),
  CALLDEF(dpfda_online_answer, 6),
  CALLDEF(dpfda_online_query1, 2),
  CALLDEF(dpfda_online_condition, 3),
  CALLDEF(dpfda_online_collect, 1),
  CALLDEF(dpfda_svm_fit, 6),
  CALLDEF(dpfda_cloak_solve, 4),
  CALLDEF(dpfda_kde_sum, 2),
  CALLDEF(dpfda_gp_posterior_parts, 4),
  CALLDEF(dpfda_gp_standard_parts, 4),
  CALLDEF(dpfda_kde_binned_sum, 5),
  CALLDEF(dpfda_summary_bin, 5), CALLDEF(dpfda_summary_kde, 4),
  CALLDEF(dpfda_integral_gram, 7),
  CALLDEF(dpfda_integral_cross, 5),
  CALLDEF(dpfda_bernstein_basis, 4), CALLDEF(dpfda_bernstein_iterate, 3), CALLDEF(dpfda_bernstein_coef, 4),
  CALLDEF(dpfda_bernstein_eval, 3), CALLDEF(dpfda_bernstein_eval_grid, 3), CALLDEF(dpfda_bernstein_perturb, 3),
  CALLDEF(dpfda_discrete_laplace_draw, 2), CALLDEF(dpfda_discrete_gaussian_draw, 2),
  CALLDEF(dpfda_bernoulli_exp_draw, 3), CALLDEF(dpfda_discrete_bits, 0),
  CALLDEF(dpfda_exp_mech_exact, 2),
  CALLDEF(dpfda_iclp_basis, 4), CALLDEF(dpfda_iclp_draw, 4), CALLDEF(dpfda_kl_markov_basis, 6),
  /* kme-call.c (Balog et al.) */
  CALLDEF(dpfda_kme_rowmeans, 6), CALLDEF(dpfda_kme_seqchol, 4), CALLDEF(dpfda_kme_rff, 5),
  CALLDEF(dpfda_kme_greedy, 8), CALLDEF(dpfda_kme_preimage_grad, 4), CALLDEF(dpfda_kme_lasso, 7),
  CALLDEF(dpfda_kme_mean_gram, 4),
  CALLDEF(dpfda_unit_runs, 1),
  {NULL, NULL, 0}
};

void attribute_visible R_init_dpfda(DllInfo *dll)
{
  R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
  dpfda_rng_init();
}
