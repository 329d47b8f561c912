/* IR: C99 double complex as {double,double} aggregates, complex mul/div (__muldc3/__divdc3 calls), cexp/cabs/carg/csqrt, complex returned by value. */
#include <stdio.h>
#include <complex.h>
#include <math.h>

static void show(const char *label, double complex z) { printf("%-12s %.17g %+.17gi\n", label, creal(z), cimag(z)); }

/* Naive DFT of a short real signal. */
static void dft(const double *x, double complex *out, int n)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < n; k++) {
        double complex acc = 0.0;
        for (int t = 0; t < n; t++)
            acc += x[t] * cexp(-2.0 * pi * I * (double)(k * t) / n);
        out[k] = acc;
    }
}

/* Evaluate a polynomial with complex coefficients by Horner's rule. */
static double complex horner(const double complex *c, int deg, double complex z)
{
    double complex r = c[deg];
    for (int i = deg - 1; i >= 0; i--)
        r = r * z + c[i];
    return r;
}

/* Impedance of a series RLC circuit at angular frequency w. */
static double complex rlc_impedance(double r, double l, double c, double w) { return r + I * (w * l - 1.0 / (w * c)); }

int main(void)
{
    double complex a = 3.0 + 4.0 * I, b = -1.5 + 0.5 * I;
    show("a*b", a * b);
    show("a/b", a / b);
    show("conj(a)", conj(a));
    printf("|a|=%.17g arg(a)=%.17g\n", cabs(a), carg(a));
    show("sqrt(b)", csqrt(b));
    show("exp(i*pi/3)", cexp(I * 3.14159265358979323846 / 3.0));

    const double signal[8] = {1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0};
    double complex spec[8];
    dft(signal, spec, 8);
    for (int k = 0; k < 8; k++)
        printf("X[%d] magnitude %.17g\n", k, cabs(spec[k]));

    /* p(z) = z^3 - 1 has roots on the unit circle. */
    const double complex coeffs[4] = {-1.0, 0.0, 0.0, 1.0};
    const double complex root = -0.5 + sqrt(3.0) / 2.0 * I;
    double complex val = horner(coeffs, 3, root);
    printf("|p(root)| < 1e-15: %s\n", cabs(val) < 1e-15 ? "yes" : "no");
    show("p(1+i)", horner(coeffs, 3, 1.0 + I));

    for (double w = 100.0; w <= 10000.0; w *= 10.0) {
        double complex z = rlc_impedance(50.0, 0.1, 1e-6, w);
        printf("w=%-6g |Z|=%.17g phase=%.17g\n", w, cabs(z), carg(z));
    }
    float complex fz = 1.0f + 2.0f * I;
    fz = fz * fz;
    printf("float complex square: %.9g %+.9gi\n", (double)crealf(fz), (double)cimagf(fz));
    return 0;
}
