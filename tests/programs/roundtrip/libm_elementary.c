/* IR: calls to libm elementary functions (sin cos tan exp log log1p expm1 pow sqrt cbrt) and llvm math intrinsics they map to, float and double variants. */
#include <stdio.h>
#include <math.h>

double inputs[] = {0.0, 1e-8, 0.1, 0.5, 1.0, 2.0, 3.14159, 10.0, 123.456};
enum { NIN = sizeof inputs / sizeof inputs[0] };

/* Projectile range with drag-free trajectory: sin/cos in a physics formula. */
static double projectile_range(double v0, double angle_deg)
{
    const double pi = 3.14159265358979323846;
    double th = angle_deg * pi / 180.0;
    return v0 * v0 * sin(2.0 * th) / 9.81;
}

/* Compound interest with continuous and discrete compounding. */
static void interest(double principal, double rate, int years)
{
    double cont = principal * exp(rate * years);
    double monthly = principal * pow(1.0 + rate / 12.0, 12.0 * years);
    double doubling = log(2.0) / log1p(rate);
    printf("interest r=%.17g: continuous=%.17g monthly=%.17g doubling=%.17g years\n", rate, cont, monthly,
           doubling);
}

int main(void)
{
    for (int i = 0; i < NIN; i++) {
        double x = inputs[i];
        printf("x=%-9g sin=%.17g cos=%.17g tan=%.17g\n", x, sin(x), cos(x), tan(x));
    }
    for (int i = 0; i < NIN; i++) {
        double x = inputs[i];
        printf("x=%-9g exp=%.17g expm1=%.17g log1p=%.17g sqrt=%.17g cbrt=%.17g\n", x, exp(x), expm1(x),
               log1p(x), sqrt(x), cbrt(-x));
    }
    for (int i = 1; i < NIN; i++) {
        double x = inputs[i];
        printf("log(%g)=%.17g pow(x,2.5)=%.17g pow(x,-1/3)=%.17g\n", x, log(x), pow(x, 2.5), pow(x, -1.0 / 3.0));
    }
    float fsum = 0.0f;
    for (int i = 0; i < NIN; i++) {
        float xf = (float)inputs[i] * 0.1f;
        fsum += sinf(xf) + cosf(xf) + expf(xf) + sqrtf(xf) + logf(1.0f + xf) + powf(xf + 1.0f, 1.5f);
    }
    printf("float mix sum = %.9g\n", (double)fsum);

    for (int a = 15; a <= 75; a += 15)
        printf("range(v=30, %d deg) = %.17g m\n", a, projectile_range(30.0, a));
    interest(1000.0, 0.05, 10);
    interest(250.0, 0.0725, 30);
    return 0;
}
