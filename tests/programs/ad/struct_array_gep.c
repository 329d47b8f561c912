/* getelementptr into an array of structs with mixed members (doubles, an int flag, a nested
 * array): the potential energy of point masses with pairwise springs. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 6 };

typedef struct {
  double pos[3];
  int fixed;
  double mass;
} Particle;

static double energy(const Particle *p, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    e += 9.81 * p[i].mass * p[i].pos[2];
    for (int j = i + 1; j < n; j++) {
      if (p[i].fixed && p[j].fixed) continue;
      double d2 = 0;
      for (int k = 0; k < 3; k++) {
        double d = p[i].pos[k] - p[j].pos[k];
        d2 += d * d;
      }
      double r = sqrt(d2);
      e += 0.5 * (r - 1.0) * (r - 1.0) * p[i].mass * p[j].mass;
    }
  }
  return e;
}

static Particle P[N];
static double at(const double *unused) { (void)unused; return energy(P, N); }

int main(void) {
  Particle dp[N];
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 3; k++) P[i].pos[k] = sin(1.7 * i + k);
    P[i].fixed = i % 3 == 0;
    P[i].mass = 1.0 + 0.25 * i;
  }
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 3; k++) dp[i].pos[k] = 0;
    dp[i].fixed = 0;
    dp[i].mass = 0;
  }
  __enzyme_autodiff((void *)energy, enzyme_dup, P, dp, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 3; k++) check_close("dE/dpos", dp[i].pos[k], fd_array(at, &P[i].pos[k], 0), 1e-6);
    check_close("dE/dmass", dp[i].mass, fd_array(at, &P[i].mass, 0), 1e-6);
  }
  return check_finish();
}
