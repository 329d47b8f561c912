/* IR: fabs floor ceil round trunc fmod fmin fmax hypot atan2 copysign (llvm.fabs/floor/ceil/round/trunc/minnum/maxnum/copysign intrinsics), lround. */
#include <stdio.h>
#include <math.h>

double xs[] = {-2.5, -1.5, -0.5, -0.0, 0.3, 0.5, 1.5, 2.5, 2.7, -7.25, 1e15 + 0.5, 4503599627370497.0};
enum { NX = sizeof xs / sizeof xs[0] };

/* Wrap an angle into (-pi, pi] using fmod and copysign. */
static double wrap_angle(double a)
{
    const double pi = 3.14159265358979323846;
    double r = fmod(a + pi, 2.0 * pi);
    if (r <= 0.0)
        r += 2.0 * pi;
    return r - pi;
}

/* Clamp with fmin/fmax. */
static double clamp(double x, double lo, double hi) { return fmax(lo, fmin(x, hi)); }

/* Polar coordinates of points via hypot and atan2. */
static void to_polar(double x, double y, double *r, double *theta)
{
    *r = hypot(x, y);
    *theta = atan2(y, x);
}

/* Round to a given number of decimal places. */
static double round_to(double x, int places)
{
    double scale = pow(10.0, places);
    return round(x * scale) / scale;
}

/* Input data: mutable globals so the optimiser cannot fold the computation away. */
double angles[] = {0.0, 3.5, -3.5, 10.0, -100.0, 6.283185307179586, 1000.25};
double pts[][2] = {{3, 4}, {-1, 1}, {0, -2}, {-5, -12}, {1e200, 1e200}, {1e-200, 3e-200}};

int main(void)
{
    for (int i = 0; i < NX; i++) {
        double x = xs[i];
        printf("x=%.17g floor=%.17g ceil=%.17g round=%.17g trunc=%.17g fabs=%.17g lround=%ld\n", x, floor(x),
               ceil(x), round(x), trunc(x), fabs(x), lround(x));
    }
    for (int i = 0; i < 7; i++)
        printf("wrap(%.17g) = %.17g\n", angles[i], wrap_angle(angles[i]));
    printf("fmod: %.17g %.17g %.17g %.17g\n", fmod(7.5, 2.0), fmod(-7.5, 2.0), fmod(7.5, -2.0), fmod(1e17, 3.0));
    printf("clamp: %.17g %.17g %.17g\n", clamp(xs[9], -1.0, 1.0), clamp(xs[4], -1.0, 1.0), clamp(xs[8], -1.0, 1.0));
    printf("fmin/fmax: %.17g %.17g %.17g %.17g\n", fmin(xs[7], xs[9]), fmax(xs[7], xs[9]), fmin(xs[3], 5.0), fmax(1e-300, xs[3]));
    for (int i = 0; i < 6; i++) {
        double r, th;
        to_polar(pts[i][0], pts[i][1], &r, &th);
        printf("polar(%g, %g) = r %.17g theta %.17g\n", pts[i][0], pts[i][1], r, th);
    }
    printf("copysign: %.17g %.17g %.17g\n", copysign(3.0, xs[3]), copysign(xs[0], 1.0), copysign(xs[5], -1.0));
    printf("round_to: %.17g %.17g %.17g\n", round_to(3.14159265, 2), round_to(-2.71828, 3), round_to(1234.5678, 0));
    float f = -3.7f;
    printf("float: floorf=%.9g ceilf=%.9g roundf=%.9g truncf=%.9g fabsf=%.9g\n", (double)floorf(f), (double)ceilf(f),
           (double)roundf(f), (double)truncf(f), (double)fabsf(f));
    return 0;
}
