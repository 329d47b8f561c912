/* IR: fixed-step RK4 ODE integrator with state arrays, function-pointer right-hand sides, energy diagnostics; floating-point hot loop (FASTMATH-safe). */
#include <stdio.h>
#include <math.h>

#define DIM 4

typedef void (*rhs_fn)(double t, const double *y, double *dydt, const double *params);

/* Damped driven oscillator: y = (x, v). */
static void oscillator(double t, const double *y, double *dydt, const double *p)
{
    double omega = p[0], zeta = p[1], force = p[2];
    dydt[0] = y[1];
    dydt[1] = -2.0 * zeta * omega * y[1] - omega * omega * y[0] + force * cos(0.5 * t);
}

/* Planar Kepler orbit: y = (x, y, vx, vy). */
static void kepler(double t, const double *y, double *dydt, const double *p)
{
    (void)t;
    double r2 = y[0] * y[0] + y[1] * y[1];
    double r3 = r2 * sqrt(r2);
    dydt[0] = y[2];
    dydt[1] = y[3];
    dydt[2] = -p[0] * y[0] / r3;
    dydt[3] = -p[0] * y[1] / r3;
}

static void rk4_step(rhs_fn f, int n, double t, double h, double *y, const double *p)
{
    double k1[DIM], k2[DIM], k3[DIM], k4[DIM], tmp[DIM];
    f(t, y, k1, p);
    for (int i = 0; i < n; i++)
        tmp[i] = y[i] + 0.5 * h * k1[i];
    f(t + 0.5 * h, tmp, k2, p);
    for (int i = 0; i < n; i++)
        tmp[i] = y[i] + 0.5 * h * k2[i];
    f(t + 0.5 * h, tmp, k3, p);
    for (int i = 0; i < n; i++)
        tmp[i] = y[i] + h * k3[i];
    f(t + h, tmp, k4, p);
    for (int i = 0; i < n; i++)
        y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

static double integrate(rhs_fn f, int n, double *y, const double *p, double t_end, int steps)
{
    double h = t_end / steps, t = 0.0;
    for (int s = 0; s < steps; s++) {
        rk4_step(f, n, t, h, y, p);
        t += h;
    }
    return t;
}

int main(void)
{
    /* Undamped, unforced: compare with the exact solution cos(omega t). */
    double params[3] = {2.0, 0.0, 0.0};
    double y[DIM] = {1.0, 0.0};
    double t = integrate(oscillator, 2, y, params, 10.0, 2000);
    printf("harmonic: x(10)=%.10g exact=%.10g v(10)=%.10g\n", y[0], cos(20.0), y[1]);

    const double zetas[] = {0.05, 0.5, 1.0, 2.0};
    for (int k = 0; k < 4; k++) {
        double pz[3] = {3.0, zetas[k], 1.0};
        double yz[DIM] = {1.0, 0.0};
        integrate(oscillator, 2, yz, pz, 20.0, 4000);
        printf("zeta=%-4g x(20)=%.10g v(20)=%.10g\n", zetas[k], yz[0], yz[1]);
    }

    /* Circular-ish orbit, check energy and angular momentum conservation. */
    double mu[1] = {1.0};
    double orb[DIM] = {1.0, 0.0, 0.0, 1.1};
    double e0 = 0.5 * (orb[2] * orb[2] + orb[3] * orb[3]) - 1.0 / sqrt(orb[0] * orb[0] + orb[1] * orb[1]);
    double l0 = orb[0] * orb[3] - orb[1] * orb[2];
    t = integrate(kepler, 4, orb, mu, 25.0, 5000);
    double e1 = 0.5 * (orb[2] * orb[2] + orb[3] * orb[3]) - 1.0 / sqrt(orb[0] * orb[0] + orb[1] * orb[1]);
    double l1 = orb[0] * orb[3] - orb[1] * orb[2];
    printf("kepler t=%.10g pos=(%.10g, %.10g)\n", t, orb[0], orb[1]);
    printf("energy %.10g -> %.10g, drift below 1e-8: %s\n", e0, e1, fabs(e1 - e0) < 1e-8 ? "yes" : "no");
    printf("angular momentum %.10g -> %.10g\n", l0, l1);
    return 0;
}
