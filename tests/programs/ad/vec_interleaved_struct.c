// CFLAGS: -ffast-math
/* An array of {re, im} structs (interleaved): the vectoriser loads wide vectors and separates
 * the lanes with shufflevector; the adjoints go back through the shuffles. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 64 };

typedef struct { double re, im; } cplx;

/* sum |z_i|^2 * w_i + Re(z_i * conj(z_{i+1}))-like coupling, and a 3-component layout. */
static double f(const cplx *z, const double *w, int n) {
  double s = 0, c = 0;
  for (int i = 0; i < n; i++) s += (z[i].re * z[i].re + z[i].im * z[i].im) * w[i];
  for (int i = 0; i < n; i++) c += z[i].re * w[i] - 0.5 * z[i].im;
  return s + c * c * 0.01;
}

typedef struct { double x, y, z; } vec3;
static double g(const vec3 *p, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e += p[i].x * p[i].y + 0.5 * p[i].z * p[i].z - p[i].x;
  return e;
}

static cplx Z[N];
static double W[N];
static vec3 P[N];
static double fz(const double *unused) { (void)unused; return f(Z, W, N); }
static double fp(const double *unused) { (void)unused; return g(P, N); }

int main(void) {
  cplx dz[N];
  double dw[N] = {0};
  vec3 dp[N];
  for (int i = 0; i < N; i++) {
    Z[i].re = cos(0.3 * i); Z[i].im = sin(0.5 * i); W[i] = 1.0 + 0.01 * i;
    P[i].x = 0.1 * i; P[i].y = cos(i); P[i].z = sin(0.2 * i);
    dz[i].re = dz[i].im = 0;
    dp[i].x = dp[i].y = dp[i].z = 0;
  }
  __enzyme_autodiff((void *)f, Z, dz, W, dw, N);
  for (int i = 0; i < N; i += 9) {
    check_close("df/dre", dz[i].re, fd_array(fz, &Z[i].re, 0), 1e-6);
    check_close("df/dim", dz[i].im, fd_array(fz, &Z[i].im, 0), 1e-6);
    check_close("df/dw", dw[i], fd_array(fz, &W[i], 0), 1e-6);
  }
  __enzyme_autodiff((void *)g, P, dp, N);
  for (int i = 0; i < N; i += 7) {
    check_close("dg/dx", dp[i].x, fd_array(fp, &P[i].x, 0), 1e-6);
    check_close("dg/dy", dp[i].y, fd_array(fp, &P[i].y, 0), 1e-6);
    check_close("dg/dz", dp[i].z, fd_array(fp, &P[i].z, 0), 1e-6);
  }
  return check_finish();
}
