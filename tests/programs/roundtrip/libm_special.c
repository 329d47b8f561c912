/* IR: libm special functions (erf erfc tgamma lgamma), calls in loops, use in probability formulas (normal CDF, binomial via lgamma). */
#include <stdio.h>
#include <math.h>

/* Standard normal cumulative distribution function. */
static double normal_cdf(double x) { return 0.5 * (1.0 + erf(x / sqrt(2.0))); }

/* log of the binomial coefficient C(n, k) via lgamma. */
static double log_choose(double n, double k) { return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0); }

/* Binomial probability mass function. */
static double binom_pmf(int n, int k, double p)
{
    return exp(log_choose(n, k) + k * log(p) + (n - k) * log1p(-p));
}

/* Volume of the unit ball in d dimensions: pi^(d/2) / Gamma(d/2 + 1). */
static double unit_ball_volume(int d)
{
    const double pi = 3.14159265358979323846;
    return pow(pi, d / 2.0) / tgamma(d / 2.0 + 1.0);
}

/* Beta function through tgamma. */
static double beta_fn(double a, double b) { return tgamma(a) * tgamma(b) / tgamma(a + b); }

int main(void)
{
    const double zs[] = {-3.0, -1.96, -1.0, -0.5, 0.0, 0.5, 1.0, 1.645, 2.5758, 4.0};
    for (int i = 0; i < 10; i++)
        printf("z=%-7g erf=%.17g erfc=%.17g Phi=%.17g\n", zs[i], erf(zs[i]), erfc(zs[i]), normal_cdf(zs[i]));

    const double gs[] = {0.5, 1.0, 1.5, 2.0, 3.7, 5.0, 10.5, 20.0, -0.5, -2.5};
    for (int i = 0; i < 10; i++)
        printf("gamma(%g)=%.17g lgamma=%.17g\n", gs[i], tgamma(gs[i]), lgamma(gs[i]));

    double total = 0.0, mean = 0.0;
    for (int k = 0; k <= 20; k++) {
        double pk = binom_pmf(20, k, 0.3);
        total += pk;
        mean += k * pk;
    }
    printf("binomial(20, 0.3): total=%.17g mean=%.17g P(k=6)=%.17g\n", total, mean, binom_pmf(20, 6, 0.3));
    printf("log C(1000, 500) = %.17g\n", log_choose(1000.0, 500.0));

    for (int d = 1; d <= 10; d += 3)
        printf("unit ball volume d=%d: %.17g\n", d, unit_ball_volume(d));
    printf("B(2.5, 1.5) = %.17g, B(0.5, 0.5) = %.17g\n", beta_fn(2.5, 1.5), beta_fn(0.5, 0.5));
    printf("float: erff=%.9g tgammaf=%.9g lgammaf=%.9g\n", (double)erff(0.75f), (double)tgammaf(4.5f),
           (double)lgammaf(30.0f));
    return 0;
}
