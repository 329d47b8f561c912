/* IR: Newton and secant root finding with convergence loops (early exit), function pointers for f and f', Newton for a 2x2 nonlinear system. */
#include <stdio.h>
#include <math.h>

typedef double (*fn)(double);

static double f_cubic(double x) { return x * x * x - 2.0 * x - 5.0; }
static double df_cubic(double x) { return 3.0 * x * x - 2.0; }
static double f_kepler(double e) { return e - 0.3 * sin(e) - 1.2; } /* Kepler's equation, eccentricity 0.3 */
static double df_kepler(double e) { return 1.0 - 0.3 * cos(e); }
static double f_cosx(double x) { return cos(x) - x; }
static double df_cosx(double x) { return -sin(x) - 1.0; }

static double newton(fn f, fn df, double x0, double tol, int *iters)
{
    double x = x0;
    for (int i = 1; i <= 50; i++) {
        double step = f(x) / df(x);
        x -= step;
        if (fabs(step) < tol * (1.0 + fabs(x))) {
            *iters = i;
            return x;
        }
    }
    *iters = -1;
    return x;
}

static double secant(fn f, double a, double b, double tol, int *iters)
{
    double fa = f(a), fb = f(b);
    for (int i = 1; i <= 100; i++) {
        double c = b - fb * (b - a) / (fb - fa);
        a = b;
        fa = fb;
        b = c;
        fb = f(b);
        if (fabs(b - a) < tol) {
            *iters = i;
            return b;
        }
    }
    *iters = -1;
    return b;
}

/* Solve x^2 + y^2 = 4, x*y = 1 with Newton's method on the 2x2 Jacobian. */
static void newton_system(double *x, double *y, int *iters)
{
    for (int i = 1; i <= 50; i++) {
        double f1 = *x * *x + *y * *y - 4.0, f2 = *x * *y - 1.0;
        double j11 = 2.0 * *x, j12 = 2.0 * *y, j21 = *y, j22 = *x;
        double det = j11 * j22 - j12 * j21;
        double dx = (f1 * j22 - f2 * j12) / det;
        double dy = (j11 * f2 - j21 * f1) / det;
        *x -= dx;
        *y -= dy;
        if (fabs(dx) + fabs(dy) < 1e-14) {
            *iters = i;
            return;
        }
    }
    *iters = -1;
}

int main(void)
{
    struct { const char *name; fn f, df; double x0; } problems[] = {
        {"x^3-2x-5", f_cubic, df_cubic, 2.0},
        {"kepler", f_kepler, df_kepler, 1.0},
        {"cos(x)-x", f_cosx, df_cosx, 0.5},
    };
    for (int i = 0; i < 3; i++) {
        int it_n, it_s;
        double rn = newton(problems[i].f, problems[i].df, problems[i].x0, 1e-13, &it_n);
        double rs = secant(problems[i].f, problems[i].x0, problems[i].x0 + 0.1, 1e-12, &it_s);
        printf("%-9s newton=%.10g (%d its) secant=%.10g small residual: %s\n", problems[i].name, rn, it_n, rs,
               fabs(problems[i].f(rn)) < 1e-12 ? "yes" : "no");
        printf("          secant iterations: %s\n", it_s > 0 && it_s < 15 ? "few" : "many");
    }
    /* Reciprocal square root by Newton, as in graphics code. */
    const double vals[] = {0.25, 2.0, 10.0, 12345.0};
    for (int i = 0; i < 4; i++) {
        double a = vals[i], y = 1.0 / a;
        if (y > 1.0)
            y = 1.0;
        for (int k = 0; k < 40; k++)
            y = y * (1.5 - 0.5 * a * y * y);
        printf("rsqrt(%g) = %.10g (1/sqrt = %.10g)\n", a, y, 1.0 / sqrt(a));
    }
    double x = 2.0, y = 0.5;
    int its;
    newton_system(&x, &y, &its);
    printf("system: x=%.10g y=%.10g converged=%s\n", x, y, its > 0 ? "yes" : "no");
    return 0;
}
