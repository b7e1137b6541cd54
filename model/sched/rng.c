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

uint64_t sched_rng_below(SchedRng *r, uint64_t n)
{
    /* Lemire's multiply-shift on 32 bits (n < 2^32 here: a GPU index); the
     * bias (< n / 2^32) is far below anything the simulator can resolve. */
    uint64_t x = sched_rng_next(r) >> 32;
    return n <= 1 ? 0 : (x * (n & 0xffffffffULL)) >> 32;
}
