/* IR: Horner evaluation loops, polynomial multiply (convolution), derivative, Chebyshev recurrence, Taylor series approximations vs libm (FASTMATH-safe). */
#include <stdio.h>
#include <math.h>

#define MAXDEG 16

static double horner(const double *c, int deg, double x)
{
    double r = c[deg];
    for (int i = deg - 1; i >= 0; i--)
        r = r * x + c[i];
    return r;
}

static int poly_mul(const double *a, int da, const double *b, int db, double *out)
{
    for (int i = 0; i <= da + db; i++)
        out[i] = 0.0;
    for (int i = 0; i <= da; i++)
        for (int j = 0; j <= db; j++)
            out[i + j] += a[i] * b[j];
    return da + db;
}

static int poly_deriv(const double *a, int da, double *out)
{
    for (int i = 1; i <= da; i++)
        out[i - 1] = i * a[i];
    return da - 1;
}

/* Chebyshev polynomial T_n(x) by the three-term recurrence. */
static double chebyshev(int n, double x)
{
    double t0 = 1.0, t1 = x;
    if (n == 0)
        return t0;
    for (int k = 2; k <= n; k++) {
        double t2 = 2.0 * x * t1 - t0;
        t0 = t1;
        t1 = t2;
    }
    return t1;
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
double xs[] = {-1.0, -0.25, 0.3, 0.9, 1.5};
double factor_p[3] = {1.0, 2.0, 3.0}, factor_q[4] = {4.0, -1.0, 0.0, 1.0};

int main(void)
{
    /* Taylor coefficients of exp and sin around 0. */
    double ex[MAXDEG + 1], sn[MAXDEG + 1];
    double fact = 1.0;
    for (int i = 0; i <= MAXDEG; i++) {
        if (i > 0)
            fact *= i;
        ex[i] = 1.0 / fact;
        sn[i] = (i % 2) ? ((i / 2) % 2 ? -1.0 : 1.0) / fact : 0.0;
    }
    for (int k = 0; k < 5; k++) {
        double x = xs[k];
        printf("x=%-5g taylor exp=%.10g libm=%.10g | taylor sin=%.10g libm=%.10g\n", x, horner(ex, MAXDEG, x),
               exp(x), horner(sn, MAXDEG, x), sin(x));
    }
    /* (1 + 2x + 3x^2)(4 - x + x^3) */
    double pq[MAXDEG + 1], dpq[MAXDEG + 1];
    int d = poly_mul(factor_p, 2, factor_q, 3, pq);
    printf("product:");
    for (int i = 0; i <= d; i++)
        printf(" %.10g", pq[i]);
    printf("\n");
    int dd = poly_deriv(pq, d, dpq);
    printf("derivative at 0.5 = %.10g, value at 0.5 = %.10g (check %.10g)\n", horner(dpq, dd, 0.5),
           horner(pq, d, 0.5), horner(factor_p, 2, 0.5) * horner(factor_q, 3, 0.5));
    for (int n = 1; n <= 9; n += 2)
        printf("T_%d(0.3) = %.10g, cos(n acos x) = %.10g\n", n, chebyshev(n, 0.3), cos(n * acos(0.3)));
    return 0;
}
