/* IR: histogram binning (float->int bin index, clamping, indexed increments), running mean/variance (Welford), percentile from cumulative counts. */
#include <stdio.h>
#include <math.h>
#include <stdint.h>

#define NBINS 20
#define NSAMPLES 20000

/* Deterministic approximately normal samples: sum of 12 uniforms minus 6. */
static uint64_t rng_state = 88172645463325252ull;
static double uniform01(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}
static double approx_normal(void)
{
    double s = 0.0;
    for (int i = 0; i < 12; i++)
        s += uniform01();
    return s - 6.0;
}

struct histogram {
    double lo, hi;
    long bins[NBINS];
    long underflow, overflow;
};

static void hist_add(struct histogram *h, double x)
{
    if (x < h->lo) {
        h->underflow++;
        return;
    }
    int b = (int)((x - h->lo) / (h->hi - h->lo) * NBINS);
    if (b >= NBINS) {
        h->overflow++;
        return;
    }
    h->bins[b]++;
}

static double hist_percentile(const struct histogram *h, double q, long total)
{
    long target = (long)(q * total), cum = h->underflow;
    double width = (h->hi - h->lo) / NBINS;
    for (int b = 0; b < NBINS; b++) {
        if (cum + h->bins[b] >= target) {
            double frac = (double)(target - cum) / (double)h->bins[b];
            return h->lo + (b + frac) * width;
        }
        cum += h->bins[b];
    }
    return h->hi;
}

int main(void)
{
    struct histogram h = {-3.0, 3.0, {0}, 0, 0};
    double mean = 0.0, m2 = 0.0;
    for (long n = 1; n <= NSAMPLES; n++) {
        double x = approx_normal();
        hist_add(&h, x);
        double delta = x - mean;
        mean += delta / n;
        m2 += delta * (x - mean);
    }
    printf("mean=%.17g variance=%.17g\n", mean, m2 / (NSAMPLES - 1));
    printf("underflow=%ld overflow=%ld\n", h.underflow, h.overflow);
    long peak = 0;
    for (int b = 0; b < NBINS; b++)
        if (h.bins[b] > peak)
            peak = h.bins[b];
    for (int b = 0; b < NBINS; b++) {
        int bar = (int)(50 * h.bins[b] / peak);
        printf("[%5.2f,%5.2f) %5ld ", h.lo + b * 0.3, h.lo + (b + 1) * 0.3, h.bins[b]);
        for (int k = 0; k < bar; k++)
            putchar('#');
        putchar('\n');
    }
    printf("median~%.17g p90~%.17g p99~%.17g\n", hist_percentile(&h, 0.5, NSAMPLES),
           hist_percentile(&h, 0.9, NSAMPLES), hist_percentile(&h, 0.99, NSAMPLES));
    double chi = 0.0;
    for (int b = 0; b < NBINS; b++) {
        double a = h.lo + b * 0.3, c = a + 0.3;
        double expect = NSAMPLES * 0.5 * (erf(c / sqrt(2.0)) - erf(a / sqrt(2.0)));
        chi += (h.bins[b] - expect) * (h.bins[b] - expect) / expect;
    }
    printf("chi-square vs normal = %.17g\n", chi);
    return 0;
}
