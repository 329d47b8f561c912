/* IR: fptosi/fptoui/sitofp/uitofp, fpext/fptrunc, float<->int of several widths, unsigned 64-bit <-> double, rounding of large values. */
#include <stdio.h>
#include <stdint.h>
#include <inttypes.h>

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
double ds[] = {0.0, 0.999, -0.999, 2.5, -2.5, 1e9, -2147483648.0, 4294967295.0, 123456789.987};
uint64_t us[] = {0, 1, 9007199254740993ull, (1ull << 63), (1ull << 63) + 1025, UINT64_MAX,
    12345678901234567890ull};
int64_t ss[] = {-1, INT64_MIN, INT64_MAX, -9007199254740993ll};

int main(void)
{
    for (int i = 0; i < 9; i++) {
        double d = ds[i];
        int32_t si = (d > -2147483649.0 && d < 2147483648.0) ? (int32_t)d : 0;
        int64_t sl = (int64_t)d;
        uint32_t ui = (d >= 0.0 && d < 4294967296.0) ? (uint32_t)d : 0u;
        float f = (float)d;
        printf("d=%.17g i32=%" PRId32 " i64=%" PRId64 " u32=%" PRIu32 " float=%.9g\n", d, si, sl, ui, (double)f);
    }

    /* uint64 -> double needs special handling above 2^63. */
    for (int i = 0; i < 7; i++) {
        double d = (double)us[i];
        float f = (float)us[i];
        uint64_t back = d < 18446744073709551616.0 ? (uint64_t)d : UINT64_MAX;
        printf("u64=%" PRIu64 " double=%.17g float=%.9g back=%" PRIu64 "\n", us[i], d, (double)f, back);
    }
    for (int i = 0; i < 4; i++)
        printf("i64=%" PRId64 " double=%.17g float=%.9g\n", ss[i], (double)ss[i], (double)(float)ss[i]);

    /* Narrowing and widening between float and double. */
    double third = 1.0 / 3.0;
    float ft = (float)third;
    double widened = ft;
    printf("1/3 double=%.17g float=%.9g widened=%.17g error=%.17g\n", third, (double)ft, widened, widened - third);

    /* Small-integer conversions: uint8 pixel normalisation round trip. */
    int mismatches = 0;
    double sum = 0.0;
    for (int v = 0; v < 256; v++) {
        uint8_t px = (uint8_t)v;
        float norm = px / 255.0f;
        uint8_t back = (uint8_t)(norm * 255.0f + 0.5f);
        mismatches += back != px;
        sum += norm;
    }
    printf("pixel roundtrip mismatches=%d sum=%.9g\n", mismatches, sum);

    /* int16 PCM to float and back. */
    int16_t pcm[6] = {0, 1, -1, 16384, 32767, -32768};
    for (int i = 0; i < 6; i++) {
        float x = pcm[i] / 32768.0f;
        int16_t q = (int16_t)(x * 32767.0f);
        printf("pcm %d -> %.9g -> %d\n", pcm[i], (double)x, q);
    }
    unsigned char c = 200;
    signed char sc = -56;
    printf("char conversions: %.17g %.17g %d\n", (double)c, (double)sc, (int)(float)sc);
    return 0;
}
