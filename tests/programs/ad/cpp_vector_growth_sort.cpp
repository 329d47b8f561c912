// CFLAGS: -fno-exceptions
// std::vector grown by push_back (libstdc++ moves the old elements into each new block after
// storing the new one, with memcpy/memmove or an integer copy), resized with a fill value, and
// std::sort on a vector and on a local array (insertion steps that shift elements while the
// test reads them).  Each gradient is checked against central differences.  Floats pushed one
// by one at a constant count: -O3 unrolls the growth, moving two old floats as one integer; and
// the same by hand, two floats memcpy'd into an operator-new block holding a third.
#include <algorithm>
#include <cstring>
#include <vector>
#include "check.h"

extern "C" double __enzyme_autodiff(void *, ...);
#define N 6

int n_runtime = N;  // (not static: its value is known only at run time)

static double pushed(const double *x) {
  std::vector<double> v;
  for (int i = 0; i < n_runtime; i++) v.push_back(x[i] * x[i]);
  v.push_back(x[0]);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += v[i] * (double)(i + 1);
  return s;
}

static double resized(const double *x) {
  std::vector<double> v;
  for (int i = 0; i < n_runtime; i++) v.push_back(x[i] * x[(i + 1) % n_runtime]);
  v.resize(n_runtime + 3, x[0]);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += v[i] * v[i];
  return s;
}

static double sorted_vector(const double *x) {
  std::vector<double> v(x, x + n_runtime);
  std::sort(v.begin(), v.end());
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (double)(i + 1) * v[i];
  return s;
}

static double sorted_array(const double *x) {
  double v[N];
  for (int i = 0; i < N; i++) v[i] = x[i];
  std::sort(v, v + N);
  double s = 0;
  for (int i = 0; i < N; i++) s += (i + 1) * v[i] * v[i];
  return s;
}

static double pushed_floats(const double *x) {
  std::vector<float> v;
  for (int i = 0; i < 5; i++) v.push_back((float)x[i]);
  double s = 0;
  for (size_t i = 0; i < v.size(); i++) s += (double)(i + 1) * v[i] * v[i];
  return s;
}

static double new_block_floats(const double *x) {
  float *b = (float *)::operator new(2 * sizeof(float));
  b[0] = (float)x[0];
  b[1] = (float)x[1];
  float *c = (float *)::operator new(3 * sizeof(float));
  c[2] = (float)x[2];
  memcpy(c, b, 2 * sizeof(float));
  ::operator delete(b);
  double s = 0;
  for (int i = 0; i < 3; i++) s += (i + 1) * (double)c[i] * c[i];
  ::operator delete(c);
  return s;
}

int main() {
  double x[N] = {0.3, -0.7, 1.1, 0.5, -0.25, 0.9};
  CHECK_GRADIENT_FD(pushed, x, N);
  CHECK_GRADIENT_FD(resized, x, N);
  CHECK_GRADIENT_FD(sorted_vector, x, N);
  CHECK_GRADIENT_FD(sorted_array, x, N);
  double dx[N] = {0};
  __enzyme_autodiff((void *)pushed_floats, enzyme_dup, x, dx);
  for (int k = 0; k < N; k++)  // d/dx_k (k+1) v_k^2, v_k = (float)x_k
    check_close("pushed_floats d/dx", dx[k], k < 5 ? 2.0 * (k + 1) * (float)x[k] : 0.0, 1e-6);
  double dy[N] = {0};
  __enzyme_autodiff((void *)new_block_floats, enzyme_dup, x, dy);
  for (int k = 0; k < N; k++)
    check_close("new_block_floats d/dx", dy[k], k < 3 ? 2.0 * (k + 1) * (float)x[k] : 0.0, 1e-6);
  double y[N] = {1.5, 0.2, -0.4, 2.5, 0.8, -1.9};
  CHECK_GRADIENT_FD(sorted_vector, y, N);
  CHECK_GRADIENT_FD(sorted_array, y, N);
  return check_finish();
}
