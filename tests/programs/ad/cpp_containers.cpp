// CFLAGS: -fno-exceptions
// C++ node containers inside the differentiated function: std::map (a red-black tree whose
// insertion, rebalancing, erasure and iteration in both directions are libstdc++ functions the
// module only declares), std::multimap, std::set of active keys, and std::list (hook, unhook,
// splice, reverse), holding values with derivatives; and std::vector's growth beside them.
#include <cmath>
#include <list>
#include <map>
#include <set>
#include <vector>
#include "check.h"

extern "C" double __enzyme_autodiff(void *, ...);

/* values binned by an integer key, some bins erased, then walked forwards and backwards */
static double binned(const double *x, int n) {
  std::map<int, double> bins;
  for (int i = 0; i < n; i++) bins[(i * 7) % 5] += x[i] * x[i] + std::sin(x[i]);
  bins.erase(3);
  double s = 0, w = 1;
  for (auto it = bins.begin(); it != bins.end(); ++it) s += w++ * std::sqrt(it->second + 2.0);
  for (auto it = bins.rbegin(); it != bins.rend(); ++it) s += 0.1 * it->second * it->first;
  std::multimap<int, double> multi;
  for (int i = 0; i < n; i++) multi.insert({i % 2, x[i] * (i + 1)});
  for (auto it = multi.lower_bound(1); it != multi.end(); ++it) s += std::exp(0.2 * it->second);
  return s;
}

/* a set of active keys: iteration order depends on the values (a sort) */
static double ordered(const double *x, int n) {
  std::set<double> keys;
  for (int i = 0; i < n; i++) keys.insert(x[i] * x[i] - 0.3 * x[i]);
  double s = 0, rank = 1;
  for (double k : keys) s += rank++ * k;
  return s + *keys.rbegin() * 0.5;
}

/* a list built at both ends, spliced, reversed, with elements removed */
static double linked(const double *x, int n) {
  std::list<double> a, b;
  for (int i = 0; i < n; i++) {
    if (i % 2) a.push_back(x[i] * 2.0);
    else a.push_front(std::cos(x[i]));
    b.push_back(x[i] * x[(i + 1) % n]);
  }
  a.splice(std::next(a.begin()), b);
  a.reverse();
  a.pop_front();
  double s = 0, w = 1;
  for (double v : a) s += (w += 0.5) * v;
  std::vector<double> tail(a.begin(), a.end());
  return s + tail.back() * tail.front();
}

static double (*current)(const double *, int);
static int current_n;
static double through(const double *x) { return current(x, current_n); }

static void check(const char *name, double (*f)(const double *, int), double *x, const double *dx, int n) {
  current = f;
  current_n = n;
  char what[48];
  for (int i = 0; i < n; i++) {
    snprintf(what, sizeof what, "%s d/dx[%d]", name, i);
    check_close(what, dx[i], fd_array(through, x, i), 1e-6);
  }
}

#define CHECK(f)                                       \
  do {                                                 \
    double x[7] = {0.3, -0.7, 1.1, 0.5, -0.25, 0.9, 1.4}; \
    double dx[7] = {0};                                \
    __enzyme_autodiff((void *)f, x, dx, 7);            \
    check(#f, f, x, dx, 7);                            \
  } while (0)

int main() {
  CHECK(binned);
  CHECK(ordered);
  CHECK(linked);
  return check_finish();
}
