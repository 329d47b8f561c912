// CFLAGS: -fno-exceptions
// C++ heap memory: operator new / delete (scalar and array), a std::vector, and a class that
// owns its buffer (constructor allocates, destructor frees).
#include "check.h"

#include <vector>

double __enzyme_autodiff(void *, ...);

class Polynomial {
 public:
  explicit Polynomial(int n) : n_(n), c_(new double[n]) {}
  ~Polynomial() { delete[] c_; }
  double &operator[](int i) { return c_[i]; }
  double operator()(double x) const {
    double s = 0;
    for (int i = n_ - 1; i >= 0; i--) s = s * x + c_[i];
    return s;
  }

 private:
  int n_;
  double *c_;
};

static double with_new(const double *x, int n) {
  double *t = new double[n];
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i] + 1.0;
  double *scale = new double(0.5);
  double s = 0;
  for (int i = 0; i < n; i++) s += *scale * log(t[i]);
  delete scale;
  delete[] t;
  return s;
}

static double with_class(const double *x, int n) {
  Polynomial p(n);
  for (int i = 0; i < n; i++) p[i] = sin(x[i]);
  return p(0.7) + p(-0.3);
}

static double with_vector(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; i++) v.push_back(x[i] * (i + 1));
  double s = 0;
  for (double e : v) s += e * e;
  return s;
}

#define CHECK(f, x, n)                                                               \
  do {                                                                               \
    double dx[8] = {0};                                                              \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);                \
    for (int i = 0; i < n; i++) check_close(#f, dx[i], fd_array_n(f, x, n, i), 1e-6); \
  } while (0)

int main() {
  double x[6] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9};
  CHECK(with_new, x, 6);
  CHECK(with_class, x, 6);
  CHECK(with_vector, x, 6);
  return check_finish();
}
