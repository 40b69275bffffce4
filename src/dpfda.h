/* dpfda.h -- shared prototypes of the dpfda C core.
 *
 * Pure C kernels work on plain double* arrays (column-major, as R stores
 * matrices) and never see a SEXP.  Each .Call entry point is a thin SEXP
 * wrapper named dpfda_<noun>_<verb>: it asserts its arguments with the
 * shared asserts of asserts.h (validation with helpful messages happens in
 * R), allocates the result and calls one kernel.  Modules keep their kernels
 * in <file>.c and their glue in <file>-call.c (bernstein, binning, cloak,
 * discrete, gp, gpreg, iclp, kl-markov, kme, online, rng, svm); the small
 * ones (kde, kernels, linalg, summary) end with a short glue section.  In
 * R, each glue file is reached only through the thin c_*() wrappers of one
 * file R/c-<file>.R.  tools/c-function-lengths.R lists function lengths (no
 * C function over about 80 lines).
 */
#ifndef DPFDA_H
#define DPFDA_H

#define USE_FC_LEN_T
#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include <R_ext/BLAS.h>
#include <R_ext/Lapack.h>
#include <Rmath.h>
#ifndef FCONE
#define FCONE
#endif

/* ---- glue.c: helpers of the .Call wrappers ----------------------------- */
void dpfda_set_names(SEXP x, int n, const char *const *names);
SEXP dpfda_kl_basis_list(SEXP rv, SEXP rV, int npos);   /* iclp-call.c, kl-markov-call.c */

/* ---- rng.c: the one noise source ------------------------------------- */
enum { DPFDA_RNG_SECURE = 0, DPFDA_RNG_SEEDED = 1 };
int    dpfda_rng_mode(void);
void   dpfda_rng_set_mode(int mode);   /* DPFDA_RNG_SECURE or DPFDA_RNG_SEEDED */
void   dpfda_rng_begin(void);   /* GetRNGstate() in seeded mode */
void   dpfda_rng_end(void);     /* PutRNGstate() in seeded mode */
double dpfda_unif(void);        /* uniform on the open interval (0, 1) */
double dpfda_norm(void);        /* standard normal */
double dpfda_exp(void);         /* standard exponential */
double dpfda_laplace(double scale);
void   dpfda_norm_fill(double *z, R_xlen_t n);
#include <stdint.h>
uint32_t dpfda_bits32(void);    /* 32 random bits (exact samplers) */
void   dpfda_rng_init(void);    /* at load: a forked child drops the secure pool */
unsigned long dpfda_fork_generation(void);   /* forks this process descends from */
void   dpfda_rng_fill(int what, R_xlen_t n, double *out);   /* 0 uniform, 1 normal, 2 exponential */
void   dpfda_laplace_fill(R_xlen_t n, double scale, double *out);

/* ---- discrete.c: exact integer samplers -------------------------------- */
void    dpfda_discrete_reset(void);             /* drop buffered random bits */
int64_t dpfda_discrete_gaussian(uint64_t p);    /* N_Z(0, p), integer p >= 1 */
double  dpfda_discrete_gaussian_max(void);     /* largest p allowed */
int     dpfda_discrete_word(void);             /* bits of the integers used: 128 or 64 */
void    dpfda_dlaplace_fill(R_xlen_t n, const double *scale, R_xlen_t nscale, double *out);
void    dpfda_dgauss_fill(R_xlen_t n, double sigma2, double *out);
void    dpfda_bern_exp_fill(R_xlen_t n, double num, double den, int *out);
R_xlen_t dpfda_exp_mech(const double *num, R_xlen_t len, double den);   /* 0-based index */

/* ---- kernels.c --------------------------------------------------------- */
/* Kernel codes shared with R/kernels.R (kernel_code()). */
enum {
  DPFDA_K_GAUSSIAN = 1,   /* v exp(-r2 / 2), points pre-scaled by lengthscales */
  DPFDA_K_EXP_L1   = 2,   /* v exp(-||x - y||_1), pre-scaled */
  DPFDA_K_EXP_L2   = 3,   /* v exp(-||x - y||_2), pre-scaled */
  DPFDA_K_MATERN   = 4    /* Matern(nu) in r = ||x - y||_2, pre-scaled */
};
double dpfda_kernel_eval_r(int type, double r, double nu, double variance,
                           double *bk);
double dpfda_kernel_eval(int type, const double *x, R_xlen_t ldx,
                         const double *y, R_xlen_t ldy, int d, double nu,
                         double variance, double *bk);
void   dpfda_gram(int type, const double *x, int n, const double *y, int m,
                  int d, double nu, double variance, int symmetric,
                  double *out);
int    dpfda_bessel_work_len(double nu);

/* ---- linalg.c ---------------------------------------------------------- */
/* Lower Cholesky of A + tau I in place with a jitter ladder.  Returns 0 on
 * success and writes the jitter used to *tau_used; on failure returns the
 * LAPACK info of the last attempt.  The strict upper triangle is zeroed. */
int dpfda_chol_jitter(double *A, int n, double tau0, double tau_max,
                      double *tau_used);
int dpfda_eigen_top(double *A, int n, double tol, int J, double *values, double *vectors,
                    int *k, int *npos);
int dpfda_tridiag_values(double *A, int n, double *d, double *e, double *tau, double *ev);
int dpfda_tridiag_vectors(double *A, int n, const double *d, const double *e, double *tau,
                          int keep, double *values, double *vectors);
int dpfda_tridiag_range(int n, const double *d, const double *e, int il, int iu, double *values,
                        double *vectors);

/* ---- gp.c -------------------------------------------------------------- */
void dpfda_tril_times_rows(const double *L, int m, int npath, double *Z);
void dpfda_gp_chol_paths(const double *L, int m, int npath, double *out);
void dpfda_gp_markov(const double *t, R_xlen_t m, double rate, double sd,
                     int npath, double *out);
void dpfda_gp_kronecker_paths(const double *const *L, const int *mj, int d, int npath,
                              double *out);
void dpfda_fft(double *re, double *im, R_xlen_t n, int inverse);
double dpfda_circulant_eigen(const double *c, R_xlen_t M, double *lam, double *abssum);
void dpfda_circulant_paths(double *lam, R_xlen_t M, double abssum, int m, int npath,
                           double *out);

/* ---- kde.c ------------------------------------------------------------- */
void dpfda_kde_exact(const double *x, R_xlen_t n, const double *t, R_xlen_t m,
                     int d, double *out);
void dpfda_linear_bin(const double *x, R_xlen_t n, double c0, double delta,
                      int B, double *w);
void dpfda_kde_binned(const double *w, int B, double c0, double delta,
                      const double *t, R_xlen_t m, double *out);

/* ---- gpreg.c ------------------------------------------------------------ */
int dpfda_gp_posterior(double *K, int n, double *Kfs, int P, const double *kss,
                       double *C, double *var, double *Kinv);
int dpfda_gp_standard(double *K, int n, double *Kfs, int P, const double *kss, double *y,
                      double *var, double *stats);

/* ---- bernstein.c -------------------------------------------------------- */
void dpfda_bern_basis(const double *y, R_xlen_t n, int k, int h, int method, double *out);
void dpfda_bern_iterate(int k, int h, int method, double *out);
void dpfda_bern_coef(const double *v, const int *dims, int d, R_xlen_t mt, int h, int method,
                     double *out);
void dpfda_bern_eval(const double *c, const int *dims, int d, R_xlen_t mt, const double *y,
                     R_xlen_t n, double *out);
void dpfda_bern_eval_grid(const double *c, const int *dims, int d, R_xlen_t mt,
                          const double *const *axes, const R_xlen_t *g, double *out);
void dpfda_bern_perturb(const double *v, R_xlen_t n, double scale, int type, double *out);

/* ---- binning.c ---------------------------------------------------------- */
void dpfda_binning_gram(const double *lo1, const double *hi1, int B1, const double *lo2,
                        const double *hi2, int B2, const double *ls, int D, int average,
                        double *K, double *dK);
void dpfda_binning_cross(const double *pts, int P, const double *lo, const double *hi, int B,
                         const double *ls, int D, int average, double *K);

/* ---- iclp.c, kl-markov.c: Karhunen-Loeve bases and ICLP paths ----------- */
int  dpfda_iclp_basis_dense(const double *G, const double *w, int n, double tol, int J,
                            double *values, double *vectors, int *npos);
void dpfda_kl_eigenfunction(const double *u, int n, const double *sw, double *v);
void dpfda_iclp_paths(const double *V, int m, int J, const double *s, const double *center,
                      int npath, double *out);
int  dpfda_kl_markov_setup(const double *t, const double *w, int n, double g, double v,
                           double tol, double *d, double *e, double *sw, int *npos);
int  dpfda_kl_markov_vectors(const double *d, const double *e, const double *sw, int n, int keep,
                             double *values, double *vectors);

/* ---- svm.c --------------------------------------------------------------- */
int dpfda_svm(const double *K, const double *y, const double *cap, int n, double lambda, double gap_tol, int maxit,
              double *b, double *a, double *gap, int *iter);

/* ---- cloak.c: the optimal cloaking covariance (Smith et al. 2018) -------- */
typedef struct {
  /* buffers of the caller, zeroed and filled by dpfda_cloak() */
  double *M;               /* P x P noise covariance */
  double *lambda, *q;      /* n: weights and constraint values */
  double *sv;              /* min(P, n) singular values of C */
  /* set by dpfda_cloak() (R_alloc, P x rank) when info == 0 and rank > 0 */
  const double *basis, *factor;
  int rank, iterations, converged, info;   /* info: 0, or 1 SVD, 2 solver, 3 scaling failed */
  double max_constraint, objective, gap, scale, residual, margin;
} dpfda_cloak_out;
void dpfda_cloak(const double *C, int P, int n, double tol, int maxit, double rank_tol,
                 dpfda_cloak_out *o);

/* ---- kme.c: kernel mean embeddings (Balog et al. 2018) ------------------ */
void   kme_rowmeans(int type, const double *Z, int M, const double *X, R_xlen_t N, int D,
                    double nu, double variance, int chunk, double *out);
double kme_mean_gram(int type, const double *X, R_xlen_t N, int D, double nu, double variance);
int    kme_seqchol(double *A, int M, double tol, int *kept, double *d);
int    kme_seqchol_blocked(double *A, int M, double tol, int P, int *kept, double *d);
int    kme_seqchol_pivoted(const double *K, int M, double tol, double *L, int *kept, double *d);
void   kme_rff(const double *X, R_xlen_t N, int D, const double *W, int Jp, double scale,
               int mean, int chunk, double *out);
double kme_pre_objective(const double *Psi, const double *W, int Jp, int D, double scale,
                         const double *z, double *theta, double *grad);
void   kme_greedy(const double *target, const double *W, int D, int Jp, double sc,
                  const double *Zinit, int M, int iters, const double *adam, const double *lo,
                  const double *hi, double *Zout, double *beta, double *rnorm);
int    kme_lasso(const double *G, const double *c, int M, double yy, double lambda, int maxit,
                 double tol, double *w, double *gap);

/* ---- .Call entry points ------------------------------------------------- */
SEXP dpfda_rng_mode_get(void);
SEXP dpfda_rng_mode_set(SEXP mode);
SEXP dpfda_rng_draw(SEXP n, SEXP what);
SEXP dpfda_laplace_draw(SEXP n, SEXP scale);
SEXP dpfda_kernel_gram(SEXP x, SEXP y, SEXP type, SEXP nu, SEXP variance);
SEXP dpfda_chol_factor(SEXP A, SEXP tau0, SEXP tau_max);
SEXP dpfda_gp_chol_draw(SEXP L, SEXP npath);
SEXP dpfda_gp_markov_path(SEXP t, SEXP rate, SEXP sd, SEXP npath);
SEXP dpfda_gp_kronecker(SEXP factors, SEXP npath);
SEXP dpfda_gp_circulant(SEXP cov, SEXP m, SEXP npath, SEXP tol);
SEXP dpfda_online_create(SEXP amp, SEXP tau, SEXP ktype, SEXP nu, SEXP gamma, SEXP exact);
SEXP dpfda_online_setup(SEXP ptr, SEXP kind, SEXP d);
SEXP dpfda_online_count(SEXP ptr);
SEXP dpfda_online_plan(SEXP ptr, SEXP x);
SEXP dpfda_online_answer(SEXP ptr, SEXP x, SEXP xs, SEXP need, SEXP fval, SEXP limit);
SEXP dpfda_online_query1(SEXP object, SEXP x);
SEXP dpfda_online_condition(SEXP ptr, SEXP x, SEXP xs);
SEXP dpfda_online_collect(SEXP ptr);
SEXP dpfda_svm_fit(SEXP K, SEXP y, SEXP cap, SEXP lambda, SEXP gap_tol, SEXP maxit);
SEXP dpfda_cloak_solve(SEXP C, SEXP tol, SEXP maxit, SEXP rank_tol);
SEXP dpfda_kde_sum(SEXP x, SEXP t);
SEXP dpfda_gp_posterior_parts(SEXP K, SEXP Kfs, SEXP kss, SEXP want_inverse);
SEXP dpfda_gp_standard_parts(SEXP K, SEXP Kfs, SEXP kss, SEXP y);
SEXP dpfda_kde_binned_sum(SEXP x, SEXP t, SEXP c0, SEXP delta, SEXP B);
/* summary.c */
SEXP dpfda_summary_bin(SEXP x, SEXP wt, SEXP c0, SEXP delta, SEXP B);
SEXP dpfda_summary_kde(SEXP w, SEXP t, SEXP c0, SEXP delta);
SEXP dpfda_integral_gram(SEXP lo1, SEXP hi1, SEXP lo2, SEXP hi2, SEXP ls, SEXP average,
                         SEXP deriv);
SEXP dpfda_integral_cross(SEXP pts, SEXP lo, SEXP hi, SEXP ls, SEXP average);

/* bernstein-call.c */
SEXP dpfda_bernstein_basis(SEXP y, SEXP k, SEXP h, SEXP method);
SEXP dpfda_bernstein_iterate(SEXP k, SEXP h, SEXP method);
SEXP dpfda_bernstein_coef(SEXP values, SEXP dims, SEXP h, SEXP method);
SEXP dpfda_bernstein_eval(SEXP coef, SEXP dims, SEXP Y);
SEXP dpfda_bernstein_eval_grid(SEXP coef, SEXP dims, SEXP axes);
SEXP dpfda_bernstein_perturb(SEXP values, SEXP scale, SEXP type);

/* discrete-call.c: exact discrete Laplace / Gaussian (Canonne, Kamath, Steinke) */
SEXP dpfda_discrete_laplace_draw(SEXP n, SEXP scale);
SEXP dpfda_discrete_gaussian_draw(SEXP n, SEXP sigma2);
SEXP dpfda_bernoulli_exp_draw(SEXP n, SEXP num, SEXP den);
SEXP dpfda_discrete_bits(void);
SEXP dpfda_exp_mech_exact(SEXP num, SEXP den);

/* iclp-call.c, kl-markov-call.c */
SEXP dpfda_iclp_basis(SEXP G, SEXP w, SEXP tol, SEXP J);
SEXP dpfda_kl_markov_basis(SEXP t, SEXP w, SEXP gamma, SEXP variance, SEXP tol, SEXP J);
SEXP dpfda_iclp_draw(SEXP V, SEXP s, SEXP npath, SEXP center);

/* kme-call.c */
SEXP dpfda_kme_rowmeans(SEXP Z, SEXP X, SEXP type, SEXP nu, SEXP variance, SEXP chunk);
SEXP dpfda_kme_seqchol(SEXP K, SEXP tol, SEXP pivot, SEXP block);
SEXP dpfda_kme_rff(SEXP X, SEXP W, SEXP scale, SEXP mean, SEXP chunk);
SEXP dpfda_kme_greedy(SEXP target, SEXP W, SEXP scale, SEXP Zinit, SEXP iters, SEXP adam,
                      SEXP lower, SEXP upper);
SEXP dpfda_kme_preimage_grad(SEXP target, SEXP W, SEXP scale, SEXP z);
SEXP dpfda_kme_lasso(SEXP G, SEXP c, SEXP yy, SEXP lambda, SEXP w0, SEXP maxit, SEXP tol);
SEXP dpfda_kme_mean_gram(SEXP X, SEXP type, SEXP nu, SEXP variance);
SEXP dpfda_unit_runs(SEXP key);
#endif
