// CFLAGS: -fno-exceptions
// Forward mode through C++ node containers built inside the function: std::map (insertion,
// erasure, iteration both ways), std::set of active keys, std::list (splice, reverse), the
// libstdc++ functions that link their nodes called on the tangents' shadow nodes too.
#include <cmath>
#include <list>
#include <map>
#include <set>
#include "fwd.h"

extern "C" double __enzyme_fwddiff(void *, ...);

static double containers(const double *x, int n) {
  std::map<int, double> bins;
  for (int i = 0; i < n; i++) bins[(i * 3) % 4] += x[i] * std::exp(0.3 * x[i]);
  bins.erase(2);
  double s = 0, w = 1;
  for (auto it = bins.begin(); it != bins.end(); ++it) s += w++ * it->second * it->second;
  for (auto it = bins.rbegin(); it != bins.rend(); ++it) s += 0.5 * std::sin(it->second);
  std::set<double> keys(x, x + n);
  double rank = 1;
  for (double k : keys) s += rank++ * k * k;
  std::list<double> a, b;
  for (int i = 0; i < n; i++) (i % 2 ? a : b).push_back(std::cos(x[i]) + x[(i + 2) % n]);
  a.splice(a.begin(), b);
  a.reverse();
  a.pop_back();
  w = 0.5;
  for (double v : a) s += (w *= 1.5) * v;
  return s;
}

int main() {
  double x[6] = {0.4, -0.9, 1.2, 0.15, -0.3, 0.8}, v[6] = {1.0, -0.5, 0.25, 2.0, -1.5, 0.75};
  check_close("containers along v", __enzyme_fwddiff((void *)containers, x, v, 6), fd_dir(containers, x, v, 6), 1e-6);
  double e[6] = {0, 0, 0, 1, 0, 0};
  check_close("containers along e3", __enzyme_fwddiff((void *)containers, x, e, 6), fd_dir(containers, x, e, 6), 1e-6);
  return check_finish();
}
