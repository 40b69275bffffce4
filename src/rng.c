/* rng.c -- the single noise source of dpfda.
 *
 * Two modes:
 *  secure (default): bytes from the operating system's CSPRNG (getrandom(2)
 *    on Linux, falling back to /dev/urandom; arc4random_buf on the BSDs and
 *    macOS; rand_s on Windows).  Uniforms carry 53 random bits.
 *  seeded: R's own generator, so set.seed() reproduces a release.  Meant for
 *    tests and teaching; releases made this way say so when printed.
 * Every sampler in the package draws through dpfda_unif/norm/exp/laplace.
 * The .Call glue is in rng-call.c.
 */
#if defined(_WIN32)
#define _CRT_RAND_S
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "dpfda.h"

#if defined(__linux__)
#include <unistd.h>
#include <sys/syscall.h>
#endif
#if !defined(_WIN32)
#include <stdio.h>
#include <pthread.h>
#endif

static int rng_mode = DPFDA_RNG_SECURE;

int dpfda_rng_mode(void) { return rng_mode; }
void dpfda_rng_set_mode(int mode) { rng_mode = mode; }

/* ---- secure byte pool ---------------------------------------------------- */

#define POOL_BYTES 4096
static unsigned char pool[POOL_BYTES];
static size_t pool_pos = POOL_BYTES;
/* the unused half of the last 64 bits taken by dpfda_bits32() */
static uint32_t half_bits;
static int have_half = 0;

/* ---- fork -------------------------------------------------------------------
 * A forked child (parallel::mclapply) inherits a copy of the pool: without
 * care it would draw the very bytes its parent and siblings draw, and two
 * releases would carry the same noise.  The child handler drops the pool
 * and counts the generation, which online.c compares to refuse states made
 * in another process without a system call per query.  (The package never
 * unloads its DLL, so the handler stays valid; Windows has no fork.) */
static volatile unsigned long fork_generation = 0;

static void drop_pool(void)
{
  volatile unsigned char *v = pool;
  for (size_t i = 0; i < POOL_BYTES; i++) v[i] = 0;
  pool_pos = POOL_BYTES;
  half_bits = 0;
  have_half = 0;
}

#if !defined(_WIN32)
static void after_fork_child(void)
{
  drop_pool();
  fork_generation++;
}
#endif

void dpfda_rng_init(void)
{
#if !defined(_WIN32)
  pthread_atfork(NULL, NULL, after_fork_child);
#endif
}

unsigned long dpfda_fork_generation(void) { return fork_generation; }

#if defined(_WIN32)
static int os_bytes(unsigned char *buf, size_t len)
{
  size_t i = 0;
  while (i < len) {
    unsigned int r;
    if (rand_s(&r) != 0) return -1;
    size_t k = len - i < sizeof r ? len - i : sizeof r;
    memcpy(buf + i, &r, k);
    i += k;
  }
  return 0;
}
#else
static int urandom_bytes(unsigned char *buf, size_t len)
{
  FILE *f = fopen("/dev/urandom", "rb");
  if (f == NULL) return -1;
  size_t got = fread(buf, 1, len, f);
  fclose(f);
  return got == len ? 0 : -1;
}

static int os_bytes(unsigned char *buf, size_t len)
{
#if defined(__linux__) && defined(SYS_getrandom)
  size_t i = 0;
  while (i < len) {
    long r = syscall(SYS_getrandom, buf + i, len - i, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      return urandom_bytes(buf + i, len - i);   /* old kernel: ENOSYS */
    }
    i += (size_t) r;
  }
  return 0;
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
  arc4random_buf(buf, len);
  return 0;
#else
  return urandom_bytes(buf, len);
#endif
}
#endif

static uint64_t secure_u64(void)
{
  uint64_t u;
  if (pool_pos + sizeof u > POOL_BYTES) {
    if (os_bytes(pool, POOL_BYTES) != 0)
      Rf_error("dpfda: the operating system's random source is unavailable");
    pool_pos = 0;
  }
  memcpy(&u, pool + pool_pos, sizeof u);
  /* wipe used bytes so that noise cannot be recovered from memory later */
  memset(pool + pool_pos, 0, sizeof u);
  pool_pos += sizeof u;
  return u;
}

/* ---- mode brackets ------------------------------------------------------- */

void dpfda_rng_begin(void) { if (rng_mode == DPFDA_RNG_SEEDED) GetRNGstate(); }
void dpfda_rng_end(void)   { if (rng_mode == DPFDA_RNG_SEEDED) PutRNGstate(); }

/* ---- variates ------------------------------------------------------------ */

/* (k + 1/2) 2^-53 with k uniform on 0..2^53-1: never 0, never 1. */
double dpfda_unif(void)
{
  if (rng_mode == DPFDA_RNG_SEEDED) return unif_rand();
  uint64_t k = secure_u64() >> 11;
  return ((double) k + 0.5) * 0x1.0p-53;
}

/* Inversion of a 53-bit uniform through R's accurate qnorm; the sign is taken
 * from a separate bit and the uniform maps to the upper half only, so both
 * tails reach the same depth (|z| up to about 8.3). */
double dpfda_norm(void)
{
  if (rng_mode == DPFDA_RNG_SEEDED) return norm_rand();
  uint64_t u = secure_u64();
  double p = ((double) (u >> 11) + 0.5) * 0x1.0p-54;    /* (0, 1/2) */
  double z = -Rf_qnorm5(p, 0.0, 1.0, 1, 0);             /* > 0 */
  return (u & 1u) ? -z : z;
}

double dpfda_exp(void)
{
  if (rng_mode == DPFDA_RNG_SEEDED) return exp_rand();
  return -log(dpfda_unif());
}

double dpfda_laplace(double scale)
{
  if (rng_mode == DPFDA_RNG_SEEDED) {
    double s = unif_rand() < 0.5 ? -1.0 : 1.0;
    return s * scale * exp_rand();
  }
  uint64_t u = secure_u64();
  double e = -log(((double) (u >> 11) + 0.5) * 0x1.0p-53);
  return ((u & 1u) ? -scale : scale) * e;
}

/* 32 uniformly random bits (exact integer samplers, src/discrete.c).  In
 * seeded mode from R's unif_rand(), whose default Mersenne-Twister has
 * 32-bit resolution; secure mode uses both halves of 64 OS bits (the
 * second half is kept for the next call, then wiped). */
uint32_t dpfda_bits32(void)
{
  if (rng_mode == DPFDA_RNG_SEEDED) {
    double u = unif_rand() * 4294967296.0;
    return u >= 4294967295.0 ? 4294967295u : (uint32_t) u;
  }
  if (have_half) {
    uint32_t out = half_bits;
    half_bits = 0;
    have_half = 0;
    return out;
  }
  uint64_t u = secure_u64();
  half_bits = (uint32_t) u;
  have_half = 1;
  return (uint32_t) (u >> 32);
}

void dpfda_norm_fill(double *z, R_xlen_t n)
{
  for (R_xlen_t i = 0; i < n; i++) {
    z[i] = dpfda_norm();
    if ((i & 0xFFFFF) == 0xFFFFF) R_CheckUserInterrupt();
  }
}

/* out (n): draws of what (0 uniform, 1 normal, 2 exponential) */
void dpfda_rng_fill(int what, R_xlen_t n, double *o)
{
  dpfda_rng_begin();
  for (R_xlen_t i = 0; i < n; i++)
    o[i] = what == 0 ? dpfda_unif() : (what == 1 ? dpfda_norm() : dpfda_exp());
  dpfda_rng_end();
}

/* out (n): Laplace draws of scale b */
void dpfda_laplace_fill(R_xlen_t n, double b, double *o)
{
  dpfda_rng_begin();
  for (R_xlen_t i = 0; i < n; i++) o[i] = dpfda_laplace(b);
  dpfda_rng_end();
}
