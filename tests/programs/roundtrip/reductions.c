/* IR: reduction loops over int/float/double (sum, product, min/max with index, any/all), integer reductions vectorised with vector.reduce intrinsics. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>
#include <float.h>

#define N 2048

static int32_t ia[N];
static float fa[N];
static double da[N];
static uint8_t ba[N];

static void fill(void)
{
    uint32_t s = 2463534242u; /* xorshift32, deterministic */
    for (int i = 0; i < N; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        ia[i] = (int32_t)(s % 20001u) - 10000;
        fa[i] = (float)ia[i] / 64.0f;
        da[i] = (double)(s % 1000003u) / 1000003.0 - 0.5;
        ba[i] = (uint8_t)(s >> 24);
    }
}

int main(void)
{
    fill();

    long isum = 0;
    int imin = INT_MAX, imax = INT_MIN;
    for (int i = 0; i < N; i++) {
        isum += ia[i];
        imin = ia[i] < imin ? ia[i] : imin;
        imax = ia[i] > imax ? ia[i] : imax;
    }
    printf("int: sum=%ld min=%d max=%d\n", isum, imin, imax);

    uint32_t xor_all = 0, or_all = 0, and_all = ~0u;
    unsigned bsum = 0;
    for (int i = 0; i < N; i++) {
        xor_all ^= (uint32_t)ia[i];
        or_all |= ba[i];
        and_all &= (uint32_t)ia[i] | 0xffff0000u;
        bsum += ba[i];
    }
    printf("bits: xor=%08x or=%02x and=%08x bytesum=%u\n", xor_all, or_all, and_all, bsum);

    float fsum = 0.0f, fmax = -FLT_MAX;
    int fargmax = -1;
    for (int i = 0; i < N; i++) {
        fsum += fa[i];
        if (fa[i] > fmax) {
            fmax = fa[i];
            fargmax = i;
        }
    }
    printf("float: sum=%.9g max=%.9g at %d\n", (double)fsum, (double)fmax, fargmax);

    double dsum = 0.0, dsq = 0.0, dmin = DBL_MAX, prod = 1.0;
    for (int i = 0; i < N; i++) {
        dsum += da[i];
        dsq += da[i] * da[i];
        dmin = da[i] < dmin ? da[i] : dmin;
    }
    for (int i = 0; i < 64; i++)
        prod *= 1.0 + da[i] / 8.0;
    double mean = dsum / N;
    printf("double: sum=%.17g mean=%.17g\n", dsum, mean);
    printf("double: sumsq=%.17g min=%.17g prod=%.17g\n", dsq, dmin, prod);

    int any_big = 0, all_small = 1, count_pos = 0;
    for (int i = 0; i < N; i++) {
        any_big |= ia[i] > 9990;
        all_small &= ia[i] < 10000;
        count_pos += ia[i] > 0;
    }
    printf("any_big=%d all_small=%d count_pos=%d\n", any_big, all_small, count_pos);

    /* Kahan compensated sum vs naive sum of a decreasing series. */
    double naive = 0.0, kahan = 0.0, comp = 0.0;
    for (int i = 1; i <= N; i++) {
        double term = 1.0 / ((double)i * i);
        naive += term;
        double y = term - comp;
        double t = kahan + y;
        comp = (t - kahan) - y;
        kahan = t;
    }
    printf("basel partial: naive=%.17g kahan=%.17g\n", naive, kahan);
    return 0;
}
