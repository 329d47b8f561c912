/* Library calls whose results are constant data for the derivative: srand/rand choose weights
 * and indices inside the differentiated function (reseeded on entry, so each call sees the same
 * numbers), clock() and time() are read for a timing check that never changes the result, and
 * a float function adds rand() noise to its active inputs. */
#include <time.h>
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);
enum { N = 8 };

static double f(const double *x, int n, unsigned seed) {
  clock_t t0 = clock();
  time_t now = time(NULL);
  srand(seed);
  double s = 0;
  for (int i = 0; i < n; i++) {
    double w = (double)rand() / RAND_MAX;
    int j = rand() % n;
    s += w * x[i] * x[j] + cos(x[j]) * (rand() % 3);
  }
  if (clock() < t0 || now == (time_t)-1) s = -s; /* never */
  return s;
}

__attribute__((noinline)) float noise(void) { return (float)rand() / (float)RAND_MAX - 0.5f; }

static float g(const float *x, int n) {
  srand(7);
  float s = 0;
  for (int i = 0; i < n; i++) {
    float v = x[i] + 0.25f * noise();
    s += v * v * (1.0f + noise());
  }
  return s;
}

static double X[N] = {0.3, -0.8, 1.2, 0.45, -0.1, 0.9, -1.4, 0.6};
static unsigned SEED;
static double f_x(const double *x) { return f(x, N, SEED); }

int main(void) {
  for (SEED = 1; SEED <= 3; SEED++) {
    double dx[N] = {0};
    __enzyme_autodiff_v((void *)f, enzyme_dup, X, dx, enzyme_const, N, enzyme_const, SEED);
    for (int i = 0; i < N; i++) check_close("df/dx", dx[i], fd_array(f_x, X, i), 1e-6);
  }

  float y[N], dy[N] = {0};
  double want[N];
  for (int i = 0; i < N; i++) y[i] = 0.2f * i - 0.7f;
  srand(7);
  for (int i = 0; i < N; i++) {
    double n1 = (float)rand() / (float)RAND_MAX - 0.5f;
    double v = y[i] + 0.25 * (float)n1;
    double n2 = (float)rand() / (float)RAND_MAX - 0.5f;
    want[i] = 2 * v * (1.0 + n2);
  }
  srand(12345); /* g reseeds itself */
  __enzyme_autodiff_v((void *)g, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; i++) check_close("dg/dy", dy[i], want[i], 1e-5);
  return check_finish();
}
