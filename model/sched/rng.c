/* model/sched/rng.c — the simulator's seeded random numbers.
 *
 * xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number
 * generators", ACM TOMS 2021; reference code at prng.di.unimi.it) seeded
 * through splitmix64 (Steele, Lea & Flood, OOPSLA 2014), which is the seeding
 * the xoshiro authors recommend.  State lives in the caller's SchedRng: no
 * globals, reentrant. */
#include "config.h"

#include <math.h>

#include "sched_int.h"

uint64_t sched_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void sched_rng_seed(SchedRng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = sched_splitmix64(&x);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1; /* the all-zero state is the one fixed point */
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sched_rng_next(SchedRng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double sched_rng_uniform(SchedRng *r)
{
    /* 53 random bits, shifted by half an ulp so the result is in (0,1):
     * log() of it is always finite. */
    return ((double)(sched_rng_next(r) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

double sched_rng_exp(SchedRng *r, double mean)
{
    /* inversion: -mean·ln U is exponential with that mean */
    return -mean * log(sched_rng_uniform(r));
}

double sched_rng_normal(SchedRng *r)
{
    /* Box–Muller (one of the pair; the generator is cheap) */
    double u1 = sched_rng_uniform(r), u2 = sched_rng_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

double sched_rng_lognormal(SchedRng *r, double mean, double cv)
{
    /* A lognormal with mean m and coefficient of variation cv has
     * sigma² = ln(1 + cv²), mu = ln m − sigma²/2 (moments of the lognormal,
     * e.g. Johnson, Kotz & Balakrishnan, Continuous Univariate Distributions
     * vol. 1, ch. 14). */
    if (cv <= 0)
        return mean;
    SchedLognormal ln = sched_lognormal_params(mean, cv);
    return sched_rng_lognormal_p(r, &ln);
}

SchedLognormal sched_lognormal_params(double mean, double cv)
{
    double s2 = log1p(cv * cv);
    return (SchedLognormal){.mu = log(mean) - 0.5 * s2, .sigma = sqrt(s2)};
}

double sched_rng_lognormal_p(SchedRng *r, const SchedLognormal *p)
{
    /* the same operations in the same order as from mean and cv: the same
     * doubles (C11 without FP contraction) */
    return exp(p->mu + p->sigma * sched_rng_normal(r));
}

uint64_t sched_rng_below(SchedRng *r, uint64_t n)
{
    /* Lemire's multiply-shift on 32 bits (n < 2^32 here: a GPU index); the
     * bias (< n / 2^32) is far below anything the simulator can resolve. */
    uint64_t x = sched_rng_next(r) >> 32;
    return n <= 1 ? 0 : (x * (n & 0xffffffffULL)) >> 32;
}
