/* IR: Q15/Q16.16 fixed-point DSP arithmetic (i16/i32/i64 mul with shifts, rounding, saturation via min/max), FIR filter, integer sqrt; sext/trunc heavy. */
#include <stdio.h>
#include <stdint.h>

typedef int16_t q15;
typedef int32_t q16_16;

static q15 q15_sat(int32_t x)
{
    if (x > INT16_MAX)
        return INT16_MAX;
    if (x < INT16_MIN)
        return INT16_MIN;
    return (q15)x;
}
static q15 q15_mul(q15 a, q15 b) { return q15_sat(((int32_t)a * b + (1 << 14)) >> 15); }
static q15 q15_add(q15 a, q15 b) { return q15_sat((int32_t)a + b); }
static q15 q15_from_double(double x) { return q15_sat((int32_t)(x * 32768.0 + (x >= 0 ? 0.5 : -0.5))); }

static q16_16 fx_mul(q16_16 a, q16_16 b) { return (q16_16)(((int64_t)a * b) >> 16); }
static q16_16 fx_div(q16_16 a, q16_16 b) { return (q16_16)(((int64_t)a << 16) / b); }

/* Integer square root by bit-by-bit method. */
static uint32_t isqrt64(uint64_t n)
{
    uint64_t res = 0, bit = 1ull << 62;
    while (bit > n)
        bit >>= 2;
    while (bit) {
        if (n >= res + bit) {
            n -= res + bit;
            res = (res >> 1) + bit;
        } else {
            res >>= 1;
        }
        bit >>= 2;
    }
    return (uint32_t)res;
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
double taps_d[8] = {0.02, 0.06, 0.16, 0.26, 0.26, 0.16, 0.06, 0.02};
uint64_t squares[] = {0, 1, 15, 16, 17, 1000000, 999999999999ull, 18446744073709551615ull};

int main(void)
{
    /* 8-tap low-pass FIR in Q15 applied to a square wave with saturation. */
    q15 taps[8];
    for (int i = 0; i < 8; i++)
        taps[i] = q15_from_double(taps_d[i]);
    q15 delay[8] = {0};
    int64_t energy = 0;
    printf("filtered:");
    for (int n = 0; n < 40; n++) {
        q15 in = (n / 5) % 2 ? (q15)-30000 : (q15)30000;
        for (int k = 7; k > 0; k--)
            delay[k] = delay[k - 1];
        delay[0] = in;
        q15 acc = 0;
        for (int k = 0; k < 8; k++)
            acc = q15_add(acc, q15_mul(delay[k], taps[k]));
        energy += (int64_t)acc * acc;
        if (n % 4 == 3)
            printf(" %d", acc);
    }
    printf("\nenergy=%lld\n", (long long)energy);
    printf("saturation: %d %d %d\n", q15_add(30000, 10000), q15_add(-30000, -10000), q15_mul(INT16_MIN, INT16_MIN));

    /* Q16.16: compute pi/4 with the Leibniz series and compare with 1/3 arithmetic. */
    q16_16 one = 1 << 16, sum = 0;
    for (int k = 0; k < 200; k++) {
        q16_16 term = fx_div(one, (q16_16)((2 * k + 1) << 16));
        sum += (k % 2) ? -term : term;
    }
    printf("leibniz pi ~ %d/65536 (x4 = %.17g)\n", sum, 4.0 * sum / 65536.0);
    q16_16 third = fx_div(one, 3 << 16);
    printf("1/3 = %d, 3*(1/3) = %d, (1/3)^2 = %d\n", third, fx_mul(third, 3 << 16), fx_mul(third, third));

    for (int i = 0; i < 8; i++)
        printf("isqrt(%llu) = %u\n", (unsigned long long)squares[i], isqrt64(squares[i]));
    return 0;
}
