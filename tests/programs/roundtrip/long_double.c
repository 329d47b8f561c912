/* IR: x86_fp80 long double arithmetic, fpext/fptrunc to and from x86_fp80, long double libm (sqrtl expl logl), extended-precision accumulation. */
#include <stdio.h>
#include <math.h>

/* Sum 1/k^2 in double and in long double. */
static void basel(int n)
{
    double sd = 0.0;
    long double sl = 0.0L;
    for (int k = n; k >= 1; k--) {
        sd += 1.0 / ((double)k * k);
        sl += 1.0L / ((long double)k * k);
    }
    printf("basel(%d): double=%.17g long double=%.21Lg\n", n, sd, sl);
}

/* Extended-precision dot product, then rounded back to double. */
static double dot_ext(const double *x, const double *y, int n)
{
    long double acc = 0.0L;
    for (int i = 0; i < n; i++)
        acc += (long double)x[i] * y[i];
    return (double)acc;
}

/* Newton iteration for sqrt in long double. */
static long double sqrt_newton(long double a)
{
    long double x = a > 1.0L ? a / 2.0L : 1.0L;
    for (int i = 0; i < 60; i++) {
        long double next = 0.5L * (x + a / x);
        if (next == x)
            break;
        x = next;
    }
    return x;
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
long double vals[] = {2.0L, 10.0L, 0.5L, 12345.678L};

int main(void)
{
    basel(1000);
    basel(20000);

    double x[4] = {1e16, 1.0, -1e16, 3.5};
    double y[4] = {1.0, 1.0, 1.0, 2.0};
    double plain = 0.0;
    for (int i = 0; i < 4; i++)
        plain += x[i] * y[i];
    printf("dot plain=%.17g extended=%.17g\n", plain, dot_ext(x, y, 4));

    for (int i = 0; i < 4; i++) {
        long double s = sqrt_newton(vals[i]);
        printf("sqrt(%Lg): newton=%.21Lg sqrtl=%.21Lg diff=%Lg\n", vals[i], s, sqrtl(vals[i]), s - sqrtl(vals[i]));
    }
    printf("expl(1)=%.21Lg logl(10)=%.21Lg powl(2,0.5)=%.21Lg\n", expl(1.0L), logl(10.0L), powl(2.0L, 0.5L));

    long double big = 18446744073709551615.0L; /* 2^64 - 1 exactly representable */
    unsigned long long u = (unsigned long long)big;
    printf("2^64-1 as long double -> %llu, +1 -> %.21Lg\n", u, big + 1.0L);
    long double tiny = 1.0L;
    int bits = 0;
    while (1.0L + tiny / 2.0L != 1.0L) {
        tiny /= 2.0L;
        bits++;
    }
    printf("long double epsilon 2^-%d = %Lg, double -> %.17g\n", bits, tiny, (double)tiny);
    long double third = 1.0L / 3.0L;
    printf("1/3: %.21Lg as double %.17g as float %.9g\n", third, (double)third, (double)(float)third);
    return 0;
}
