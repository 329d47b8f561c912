// CFLAGS: -fno-exceptions
// std::function: a midpoint rule over a std::function<double(double)> holding one of two
// lambdas that capture the active parameter by value (the call goes through the invoker
// pointer inside the std::function), and local std::function callbacks capturing a local
// accumulator by reference.
#include "check.h"

#include <functional>

extern "C" double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double integrate(const std::function<double(double)> &f, double a, double b, int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i < n; i++) s += f(a + (i + 0.5) * h);
  return s * h;
}

static double g(double p, int k) {
  std::function<double(double)> f;
  if (k)
    f = [p](double x) { return sin(p * x); };
  else
    f = [p](double x) { return p * x * x; };
  return integrate(f, 0.0, 1.0, 20) * p;
}

static double hooks(double x) {
  double acc = 0;
  std::function<void(double)> square = [&acc](double v) { acc += v * v; };
  std::function<void(double)> decay = [&acc](double v) { acc = acc * exp(-v); };
  for (int r = 0; r < 3; r++) {
    square(x + r);
    decay(x * r);
  }
  return acc;
}

static int K;
static double g_p(double p) { return g(p, K); }

int main() {
  for (K = 0; K < 2; K++) check_close("dg/dp", __enzyme_autodiff((void *)g, 1.3, enzyme_const, K), fd1(g_p, 1.3), 1e-6);
  check_close("dhooks/dx", __enzyme_autodiff((void *)hooks, 0.4), fd1(hooks, 0.4), 1e-6);
  return check_finish();
}
