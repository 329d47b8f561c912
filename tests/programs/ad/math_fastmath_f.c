// CFLAGS: -ffast-math
/* Every math function in single precision under -ffast-math (llvm.*.f32 intrinsics), with float
 * data passed by pointer; the reference is the same formula's exact derivative in double. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);

static void f(const float *in, float *out) {
  float x = in[0], y = in[1];
  float a = sqrtf(x) + cbrtf(y) + expf(x) * exp2f(0.5f * y) + expm1f(0.1f * x);
  float b = logf(x) * log2f(y) + log10f(x + y) + log1pf(x * y) + powf(x, y) + __builtin_powif(y, 3);
  float c = sinf(x) * cosf(y) + tanf(0.3f * x) + asinf(0.2f * y) + acosf(0.25f * x) + atanf(x - y) + atan2f(y, x);
  float d = sinhf(0.5f * x) + coshf(0.4f * y) + tanhf(x * y) + erff(x - 0.5f) + erfcf(0.7f * y) + hypotf(x, y);
  float e = fabsf(x - y) + fminf(x, y) * fmaxf(x * y, 1.0f) + copysignf(x, -y) + fmaf(x, y, x);
  float r = floorf(x * 3) + ceilf(y) + roundf(x + y) + truncf(x * y);
  out[0] = a + b + c + d + e + r * x;
}

/* The same function in double, for central differences at float-representable points. */
static double fd(double x, double y) {
  double a = sqrt(x) + cbrt(y) + exp(x) * exp2(0.5 * y) + expm1(0.1 * x);
  double b = log(x) * log2(y) + log10(x + y) + log1p(x * y) + pow(x, y) + y * y * y;
  double c = sin(x) * cos(y) + tan(0.3 * x) + asin(0.2 * y) + acos(0.25 * x) + atan(x - y) + atan2(y, x);
  double d = sinh(0.5 * x) + cosh(0.4 * y) + tanh(x * y) + erf(x - 0.5) + erfc(0.7 * y) + hypot(x, y);
  double e = fabs(x - y) + fmin(x, y) * fmax(x * y, 1.0) + copysign(x, -y) + fma(x, y, x);
  double r = floor(x * 3) + ceil(y) + round(x + y) + trunc(x * y);
  return a + b + c + d + e + r * x;
}
static double X, Y;
static double fx(double x) { return fd(x, Y); }
static double fy(double y) { return fd(X, y); }

int main(void) {
  static const float pts[][2] = {{0.62f, 1.37f}, {1.43f, 0.81f}, {2.27f, 1.88f}};
  for (int k = 0; k < 3; k++) {
    float in[2] = {pts[k][0], pts[k][1]}, din[2] = {0, 0}, out[1], dout[1] = {1.0f};
    X = in[0];
    Y = in[1];
    __enzyme_autodiff((void *)f, in, din, out, dout);
    check_close("df/dx", din[0], fd1(fx, X), 2e-5);
    check_close("df/dy", din[1], fd1(fy, Y), 2e-5);
    check_zerof("dout", dout, 1);
  }
  return check_finish();
}
