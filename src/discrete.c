/* discrete.c -- exact samplers on the integers (Canonne, Kamath and Steinke,
 * "The discrete Gaussian for differential privacy", NeurIPS 2020).
 *
 *  - Bernoulli(exp(-n/d)) for integers n >= 0, d >= 1 (their Algorithm 1);
 *  - discrete Laplace, P(x) proportional to exp(-|x| / t), integer t >= 1
 *    (Algorithm 2 with s = 1);
 *  - discrete Gaussian, P(x) proportional to exp(-x^2 / (2 p)), integer
 *    sigma^2 = p >= 1 (Algorithm 3).
 *
 * Only integer arithmetic and uniformly random bits (dpfda_bits32(), the
 * package noise source of rng.c: secure or seeded) are used; no floating
 * point touches a random quantity, so the output law is exact.  Integers
 * are unsigned 128-bit where the compiler has them (gcc, clang), else
 * 64-bit; the R side (R/noise-exact.R) keeps the parameters within the
 * limits given by dpfda_discrete_bits() so that no product can overflow.
 * The .Call glue (discrete-call.c) asserts those limits.
 */
#include "dpfda.h"

#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 dpu;
#define DPU_BITS 128
#else
typedef uint64_t dpu;
#define DPU_BITS 64
#endif

/* ---- random bits ---------------------------------------------------------- */

static uint64_t bitbuf = 0;
static int bitcount = 0;

static void bits_reset(void) { bitbuf = 0; bitcount = 0; }

/* k (<= 32) random bits */
static uint32_t take_bits(int k)
{
  if (k <= 0) return 0;
  if (bitcount < k) {
    bitbuf |= ((uint64_t) dpfda_bits32()) << bitcount;
    bitcount += 32;
  }
  uint32_t out = (uint32_t) (bitbuf & ((k == 32) ? 0xFFFFFFFFull : ((1ull << k) - 1ull)));
  bitbuf = (k == 64) ? 0 : bitbuf >> k;
  bitcount -= k;
  return out;
}

/* one random bit (the lazy comparisons of bern_frac() take them one by one) */
static inline int take_bit(void)
{
  if (bitcount == 0) {
    bitbuf = (uint64_t) dpfda_bits32();
    bitcount = 32;
  }
  int out = (int) (bitbuf & 1u);
  bitbuf >>= 1;
  bitcount--;
  return out;
}

static int bitlen(dpu x)
{
#if DPU_BITS == 128
  /* (gcc and clang, the compilers with 128-bit integers, have clz) */
  uint64_t hi = (uint64_t) (x >> 64), lo = (uint64_t) x;
  if (hi) return 128 - __builtin_clzll(hi);
  return lo ? 64 - __builtin_clzll(lo) : 0;
#else
  int b = 0;
  while (x) { b++; x >>= 1; }
  return b;
#endif
}

/* uniform on {0, ..., N - 1}, N >= 1, by rejection from bitlen(N - 1) bits */
static dpu uniform_below(dpu N)
{
  if (N <= 1) return 0;
  int b = bitlen(N - 1);
  for (;;) {
    dpu r = 0;
    int left = b, shift = 0;
    while (left > 0) {
      int k = left > 32 ? 32 : left;
      r |= ((dpu) take_bits(k)) << shift;
      shift += k;
      left -= k;
    }
    if (r < N) return r;
  }
}

/* ---- Bernoulli(n / d) ---------------------------------------------------------- */

/* 1 with probability exactly n / d (0 <= n, 1 <= d): the uniform U in [0, 1)
 * is read bit by bit and compared with the binary digits of n / d (long
 * division); the first bit where they differ decides U < n / d.  Two random
 * bits on average, where uniform_below(d) < n takes log2(d) bits or more. */
static int bern_frac(dpu n, dpu d)
{
  if (n == 0) return 0;
  if (n >= d) return 1;
  if (d >> (DPU_BITS - 1)) return uniform_below(d) < n;   /* 2 r could overflow */
  dpu r = n;                      /* n / d = 0.b1 b2 ..., remainder r < d */
  for (;;) {
    r <<= 1;
    int digit = r >= d;
    if (digit) r -= d;
    int bit = take_bit();
    if (bit != digit) return bit < digit;
    if (r == 0) return 0;         /* the digits end: U >= n / d (U = n / d has probability 0) */
  }
}

/* ---- Bernoulli(exp(-gamma)), gamma = n / d ---------------------------------- */

/* gamma in [0, 1]: K <- 1; while Bernoulli(gamma / K) succeeds, K++; return
 * [K odd].  Bernoulli(n / (d K)) is drawn as Bernoulli(n / d) AND
 * Bernoulli(1 / K) (independent), which never forms the product d K. */
static int bern_exp_le1(dpu n, dpu d)
{
  if (n == 0) return 1;
  uint64_t K = 1;
  for (;;) {
    int a = bern_frac(n, d) && bern_frac(1, (dpu) K);
    if (!a) break;
    K++;
  }
  return (int) (K & 1u);
}

static int bern_exp(dpu n, dpu d)
{
  if (n <= d) return bern_exp_le1(n, d);
  dpu q = n / d, r = n % d;
  for (dpu i = 0; i < q; i++) {
    if (!bern_exp_le1(1, 1)) return 0;
  }
  return bern_exp_le1(r, d);
}

/* ---- discrete Laplace and Gaussian ------------------------------------------ */

/* P(x) proportional to exp(-|x| / t) on the integers, t >= 1. */
static int64_t dlaplace(uint64_t t)
{
  for (;;) {
    dpu U = uniform_below((dpu) t);
    if (!bern_exp(U, (dpu) t)) continue;
    uint64_t V = 0;
    while (bern_exp(1, 1)) V++;
    if (V > (1u << 20)) continue;          /* probability below exp(-2^20) */
    dpu X = U + (dpu) t * (dpu) V;
    int B = (int) take_bits(1);
    if (B && X == 0) continue;
    if (X > (dpu) INT64_MAX) continue;     /* probability below exp(-2^20) */
    return B ? -(int64_t) X : (int64_t) X;
  }
}

static uint64_t isqrt64(uint64_t p)
{
  uint64_t r = (uint64_t) sqrt((double) p);
  while (r > 0 && r * r > p) r--;
  while ((r + 1) * (r + 1) <= p) r++;
  return r;
}

/* P(x) proportional to exp(-x^2 / (2 p)), integer p = sigma^2 >= 1:
 * Y ~ discrete Laplace with t = floor(sigma) + 1, accepted with probability
 * exp(-(|Y| - sigma^2 / t)^2 / (2 sigma^2)) = exp(-(|Y| t - p)^2 / (2 p t^2)). */
static int64_t dgauss(uint64_t p)
{
  uint64_t t = isqrt64(p) + 1;
  /* |Y| t - p must stay below 2^(DPU_BITS / 2 - 1) so its square fits */
  dpu cap = ((dpu) 1) << (DPU_BITS / 2 - 1);
  for (;;) {
    int64_t Y = dlaplace(t);
    uint64_t z = (uint64_t) (Y < 0 ? -Y : Y);
    if (z > (1ull << 40)) continue;        /* acceptance probability below exp(-2^19) */
    dpu zt = (dpu) z * (dpu) t;
    dpu diff = zt > (dpu) p ? zt - (dpu) p : (dpu) p - zt;
    if (diff >= cap) continue;             /* acceptance probability below exp(-2^19) */
    dpu num = diff * diff;
    dpu den = (dpu) 2 * (dpu) p * (dpu) t * (dpu) t;
    if (bern_exp(num, den)) return Y;
  }
}

/* For other C files (online.c): one discrete Gaussian draw, N_Z(0, p) with
 * integer variance 1 <= p <= the limit of dpfda_discrete_bits(), inside a
 * dpfda_rng_begin() / dpfda_rng_end() bracket opened by
 * dpfda_discrete_reset() and closed by it again (no random bit is carried
 * from one bracket to the next: seeded mode stays reproducible). */
void dpfda_discrete_reset(void) { bits_reset(); }
int64_t dpfda_discrete_gaussian(uint64_t p) { return dgauss(p); }
double dpfda_discrete_gaussian_max(void) { return DPU_BITS == 128 ? 0x1.0p52 : 0x1.0p20; }
int dpfda_discrete_word(void) { return DPU_BITS; }

/* ---- the kernels of the .Call entry points (discrete-call.c) --------------- */
/* Each draws inside one dpfda_rng_begin() / dpfda_rng_end() bracket with no
 * random bit carried in or out; parameters within the limits asserted by the
 * glue (whole numbers; scales in [1, 2^40], variances in [1,
 * dpfda_discrete_gaussian_max()], num and den below 2^52). */

/* out (n): discrete Laplace draws, scale sc[0] (ns == 1) or sc[i] */
void dpfda_dlaplace_fill(R_xlen_t n, const double *sc, R_xlen_t ns, double *o)
{
  dpfda_rng_begin();
  bits_reset();
  for (R_xlen_t i = 0; i < n; i++) {
    o[i] = (double) dlaplace((uint64_t) sc[ns == 1 ? 0 : i]);
    if ((i & 0xFFFF) == 0xFFFF) R_CheckUserInterrupt();
  }
  bits_reset();
  dpfda_rng_end();
}

/* out (n): discrete Gaussian draws of variance s */
void dpfda_dgauss_fill(R_xlen_t n, double s, double *o)
{
  dpfda_rng_begin();
  bits_reset();
  for (R_xlen_t i = 0; i < n; i++) {
    o[i] = (double) dgauss((uint64_t) s);
    if ((i & 0xFFFF) == 0xFFFF) R_CheckUserInterrupt();
  }
  bits_reset();
  dpfda_rng_end();
}

/* out (n): Bernoulli(exp(-a / b)) draws (0 or 1) */
void dpfda_bern_exp_fill(R_xlen_t n, double a, double b, int *o)
{
  dpfda_rng_begin();
  bits_reset();
  for (R_xlen_t i = 0; i < n; i++) {
    o[i] = bern_exp((dpu) a, (dpu) b);
    if ((i & 0xFFFF) == 0xFFFF) R_CheckUserInterrupt();
  }
  bits_reset();
  dpfda_rng_end();
}

/* Exact exponential mechanism: index i (0-based) with probability
 * proportional to exp(-a[i] / b), whole a[i] >= 0 (the score gaps to the best
 * candidate, one of them 0) and b >= 1, by rejection from the uniform
 * proposal: draw i uniformly, accept with Bernoulli(exp(-a[i] / b)).  The
 * accepted index has exactly that law; the expected number of proposals is
 * len / sum_i exp(-a[i] / b) <= len. */
R_xlen_t dpfda_exp_mech(const double *a, R_xlen_t len, double b)
{
  R_xlen_t pick = 0;
  uint64_t tries = 0;
  dpfda_rng_begin();
  bits_reset();
  for (;;) {
    R_xlen_t i = (R_xlen_t) uniform_below((dpu) len);
    if (bern_exp((dpu) a[i], (dpu) b)) { pick = i; break; }
    if ((++tries & 0xFFFFF) == 0) R_CheckUserInterrupt();
  }
  bits_reset();
  dpfda_rng_end();
  return pick;
}

