/* IR: composite Simpson and trapezoid rules, adaptive Simpson recursion, integrand callbacks, Richardson extrapolation; FP loop accumulations (FASTMATH-safe). */
#include <stdio.h>
#include <math.h>

typedef double (*integrand)(double x, const void *ctx);

static double f_gauss(double x, const void *ctx) { (void)ctx; return exp(-x * x); }
static double f_poly(double x, const void *ctx)
{
    const double *c = ctx; /* c0 + c1 x + c2 x^2 + c3 x^3 */
    return ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
}
static double f_osc(double x, const void *ctx) { return sin(*(const double *)ctx * x) / (1.0 + x * x); }

static double simpson(integrand f, const void *ctx, double a, double b, int n)
{
    if (n % 2)
        n++;
    double h = (b - a) / n, s = f(a, ctx) + f(b, ctx);
    for (int i = 1; i < n; i++)
        s += f(a + i * h, ctx) * (i % 2 ? 4.0 : 2.0);
    return s * h / 3.0;
}

static double trapezoid(integrand f, const void *ctx, double a, double b, int n)
{
    double h = (b - a) / n, s = 0.5 * (f(a, ctx) + f(b, ctx));
    for (int i = 1; i < n; i++)
        s += f(a + i * h, ctx);
    return s * h;
}

static int adaptive_calls;
static double adaptive(integrand f, const void *ctx, double a, double b, double fa, double fm, double fb,
                       double whole, double tol, int depth)
{
    adaptive_calls++;
    double m = 0.5 * (a + b), lm = 0.5 * (a + m), rm = 0.5 * (m + b);
    double flm = f(lm, ctx), frm = f(rm, ctx);
    double left = (m - a) / 6.0 * (fa + 4.0 * flm + fm);
    double right = (b - m) / 6.0 * (fm + 4.0 * frm + fb);
    double diff = left + right - whole;
    if (depth <= 0 || fabs(diff) <= 15.0 * tol)
        return left + right + diff / 15.0;
    return adaptive(f, ctx, a, m, fa, flm, fm, left, tol / 2.0, depth - 1) +
           adaptive(f, ctx, m, b, fm, frm, fb, right, tol / 2.0, depth - 1);
}

static double integrate_adaptive(integrand f, const void *ctx, double a, double b, double tol)
{
    double fa = f(a, ctx), fb = f(b, ctx), fm = f(0.5 * (a + b), ctx);
    return adaptive(f, ctx, a, b, fa, fm, fb, (b - a) / 6.0 * (fa + 4.0 * fm + fb), tol, 40);
}

int main(void)
{
    const double exact_gauss = 0.5 * sqrt(3.14159265358979323846) * erf(2.0);
    for (int n = 4; n <= 256; n *= 4) {
        double s = simpson(f_gauss, NULL, 0.0, 2.0, n), t = trapezoid(f_gauss, NULL, 0.0, 2.0, n);
        printf("n=%3d simpson=%.10g trapezoid=%.10g simpson err<1e-6: %s\n", n, s, t,
               fabs(s - exact_gauss) < 1e-6 ? "yes" : "no");
    }
    double t1 = trapezoid(f_gauss, NULL, 0.0, 2.0, 64), t2 = trapezoid(f_gauss, NULL, 0.0, 2.0, 128);
    printf("richardson=%.10g exact=%.10g\n", (4.0 * t2 - t1) / 3.0, exact_gauss);

    const double coeffs[4] = {1.0, -2.0, 0.5, 0.25};
    printf("cubic over [-1,3]: simpson(2)=%.10g exact=%.10g\n", simpson(f_poly, coeffs, -1.0, 3.0, 2),
           4.0 - 2.0 * 4.0 + 0.5 * 28.0 / 3.0 + 0.25 * 80.0 / 4.0);

    const double freqs[] = {1.0, 5.0, 20.0};
    for (int k = 0; k < 3; k++) {
        adaptive_calls = 0;
        double v = integrate_adaptive(f_osc, &freqs[k], 0.0, 10.0, 1e-9);
        double ref = simpson(f_osc, &freqs[k], 0.0, 10.0, 20000);
        printf("omega=%-4g adaptive=%.10g reference=%.10g agree=%s\n", freqs[k], v, ref,
               fabs(v - ref) < 1e-8 ? "yes" : "no");
    }
    return 0;
}
