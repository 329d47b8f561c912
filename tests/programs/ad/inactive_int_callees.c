/* Noinline callees that work only on integers, called from differentiated code: a hash that
 * picks indices, gcd and popcount that pick weights, a callee filling an int array through a
 * pointer, and a global int counter of calls.  None of them may need a derivative, and the
 * active arithmetic around them must still get one. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 10 };

static int calls;

__attribute__((noinline)) unsigned hash(unsigned v) {
  calls++;
  v ^= v >> 16;
  v *= 0x7feb352dU;
  v ^= v >> 15;
  return v;
}
__attribute__((noinline)) int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
__attribute__((noinline)) int popcount(unsigned long v) {
  int c = 0;
  for (; v; v &= v - 1) c++;
  return c;
}
__attribute__((noinline)) void permutation(int *p, int n, unsigned seed) {
  for (int i = 0; i < n; i++) p[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(hash(seed + (unsigned)i) % (unsigned)(i + 1));
    int t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static double f(const double *x, int n, unsigned seed) {
  int perm[N];
  permutation(perm, n, seed);
  double s = 0;
  for (int i = 0; i < n; i++) {
    int j = perm[i];
    double w = gcd(12, i + 1) + 0.5 * popcount((unsigned long)hash((unsigned)i) & 0xffUL);
    s += w * x[i] * x[j] + sin(x[(j + (int)(hash(seed) & 3U)) % n]);
  }
  return s;
}

static float g(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * (float)gcd(i + 2, 6) * (float)popcount((unsigned long)i * 0x101UL);
  return s * s;
}

static double X[N] = {0.3, -0.8, 1.2, 0.45, -0.1, 0.9, -1.4, 0.6, 0.05, 1.7};
static unsigned SEED;
static double f_x(const double *x) { return f(x, N, SEED); }

int main(void) {
  for (SEED = 3; SEED <= 5; SEED++) {
    double dx[N] = {0};
    calls = 0;
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx, enzyme_const, N, enzyme_const, SEED);
    int grad_calls = calls;
    calls = 0;
    f(X, N, SEED);
    check_close("hash calls in the gradient", grad_calls, calls, 0);
    for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);
  }

  float y[N], dy[N] = {0};
  double s = 0;
  for (int i = 0; i < N; i++) {
    y[i] = 0.1f * i - 0.4f;
    s += y[i] * gcd(i + 2, 6) * popcount((unsigned long)i * 0x101UL);
  }
  __enzyme_autodiff((void *)g, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("dg/dy", dy[i], 2 * s * gcd(i + 2, 6) * popcount((unsigned long)i * 0x101UL), 1e-5);
  return check_finish();
}
