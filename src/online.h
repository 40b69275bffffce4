/* online.h -- the state of an online Gaussian-process release (online.c) and
 * the kernel functions its .Call glue (online-call.c) uses. */
#ifndef DPFDA_ONLINE_H
#define DPFDA_ONLINE_H
#include "dpfda.h"

enum { KIND_UNSET = 0, KIND_GENERAL = 1, KIND_MARKOV = 2 };
enum { ST_OK = 0, ST_NONFINITE = 1, ST_NOMEM = 2, ST_FULL = 4, ST_BAD_F_LEN = 5,
       ST_BAD_F_VAL = 6, ST_LIMIT = 7 };

#define AVL_MAX_DEPTH 128   /* AVL height <= 1.44 log2(n + 2) < 48 for n < 2^31 */

/* A tree node is split in two arrays: what a search and a rebalancing read
 * (24 bytes), and the values (16 bytes; 40 bytes in all). */
typedef struct {
  double key;     /* the point */
  int child[2];   /* left (smaller keys), right; -1: none */
  int height;
} ou_node;

typedef struct {
  double g;       /* unit-variance noise value of the path at key (exact: f(key)) */
  double ans;     /* released answer */
} ou_val;

/* the nodes a search passed, root first: where an insertion goes */
typedef struct {
  int n;
  int node[AVL_MAX_DEPTH];
} ou_path;

typedef struct {
  int kind, d, n, cap;
  int ktype;          /* kernel code of kernels.c */
  double nu;          /* Matern order */
  double amp;         /* sigma * sqrt(kernel variance) */
  double tau;         /* relative jitter (general) */
  double gamma;       /* 1 / lengthscale (markov) */
  int seeded;         /* some answer used the seeded (non-private) source */
  int exact;          /* noise = "exact": discrete Gaussian whitened steps */
  double gstep;       /* exact: lattice step of the whitened coordinates in units of gunit (2^-k) */
  double gunit;       /* exact: the unit of the lattice (the noise sd before rounding), so that the
                         integers drawn do not depend on the data's units */
  uint64_t dgp;       /* exact: variance of the discrete Gaussian, in steps^2 */
  int nmax;           /* exact: most points the privacy accounting allows */
  unsigned long gen;  /* fork generation of the creating process (rng.c): a fork must not answer */
  /* general (u: normals; exact: the noisy whitened y; w: exact only, w = L^{-1} f) */
  double *x, *xs, *ans, *u, *L, *w;
  size_t capL;
  /* markov */
  ou_node *nodes;
  ou_val *vals;
  int root;
} online_state;

/* online.c: plain C on the state (no R objects).  Statuses are ST_*. */
online_state *online_new(double amp, double tau, int ktype, double nu, double gamma,
                         const double *exact);
void online_free(online_state *s);
int  online_setup(online_state *s, int kind, int d);
int  online_plan(online_state *s, const double *x, int k, int d, int *rows);
int  online_answer(online_state *s, const double *x, const double *xs, int k, const int *need,
                   int nn, const double *fval, R_xlen_t nf, double limit, double *out);
int  online_markov_lookup(const online_state *s, double x, double *ans);
int  online_markov_add(online_state *s, double x, double fx, double limit, double *ans);
void online_condition(const online_state *s, const double *x, const double *xs, int k,
                      double *out);
void online_collect(const online_state *s, double *points, double *values);
#endif
