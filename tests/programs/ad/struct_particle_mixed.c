/* Arrays of structs mixing int, long, double and float fields:
 * struct particle { int id; double x, v; long flags; float m; }.  A few leapfrog steps update x
 * and v in place (forces from pairs whose flags allow it), then an energy is returned.  The
 * doubles and the float mass carry derivatives; the int and long fields must not, and their
 * shadows must come back untouched. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { N = 5, STEPS = 4 };

struct particle {
  int id;
  double x, v;
  long flags;
  float m;
};

static double pair_force(double dx, long fa, long fb) {
  if ((fa & fb & 1L) == 0) return 0.0;
  return -dx / pow(1.0 + dx * dx, 1.5);
}

/* The same simulation for two layouts: the float mass of the program, and a double mass for
 * the finite differences in m (a float cannot hold m + 1e-6 m). */
#define SIMULATE(NAME, T)                                                                       \
  static double NAME(T *p, int n, double dt) {                                                  \
    for (int s = 0; s < STEPS; s++) {                                                           \
      double f[N];                                                                              \
      for (int i = 0; i < n; i++) f[i] = -0.5 * p[i].x * p[i].id;                               \
      for (int i = 0; i < n; i++)                                                               \
        for (int j = 0; j < n; j++)                                                             \
          if (i != j) f[i] += pair_force(p[i].x - p[j].x, p[i].flags, p[j].flags);              \
      for (int i = 0; i < n; i++) {                                                             \
        p[i].v += dt * f[i] / p[i].m;                                                           \
        p[i].x += dt * p[i].v;                                                                  \
      }                                                                                         \
    }                                                                                           \
    double e = 0;                                                                               \
    for (int i = 0; i < n; i++)                                                                 \
      e += 0.5 * p[i].m * p[i].v * p[i].v + 0.25 * p[i].id * p[i].x * p[i].x;                   \
    return e;                                                                                   \
  }

struct particle_dm {
  int id;
  double x, v;
  long flags;
  double m;
};
SIMULATE(simulate, struct particle)
SIMULATE(simulate_dm, struct particle_dm)

static struct particle P0[N];
static void reset(struct particle *p) {
  for (int i = 0; i < N; i++) p[i] = P0[i];
}
static double energy_of(const struct particle *p) {
  struct particle q[N];
  for (int i = 0; i < N; i++) q[i] = p[i];
  return simulate(q, N, 0.05);
}
static double at_x(const double *unused) { (void)unused; return energy_of(P0); }

static double energy_m(const double *m) {
  struct particle_dm q[N];
  for (int i = 0; i < N; i++) {
    q[i].id = P0[i].id;
    q[i].x = P0[i].x;
    q[i].v = P0[i].v;
    q[i].flags = P0[i].flags;
    q[i].m = m[i];
  }
  return simulate_dm(q, N, 0.05);
}

int main(void) {
  for (int i = 0; i < N; i++) {
    P0[i].id = i + 1;
    P0[i].x = 0.4 * i - 0.7;
    P0[i].v = 0.1 * (i % 3) - 0.05;
    P0[i].flags = (i % 4 == 3) ? 2L : 3L | (1L << 40);
    P0[i].m = 1.0f + 0.5f * i;
  }
  struct particle p[N], dp[N];
  reset(p);
  for (int i = 0; i < N; i++) {
    dp[i].id = 1000 + i;
    dp[i].flags = -7L;
    dp[i].x = dp[i].v = 0;
    dp[i].m = 0;
  }
  __enzyme_autodiff((void *)simulate, enzyme_dup, p, dp, enzyme_const, N, enzyme_const, 0.05);
  for (int i = 0; i < N; i++) {
    check_close("dE/dx", dp[i].x, fd_array(at_x, &P0[i].x, 0), 1e-6);
    check_close("dE/dv", dp[i].v, fd_array(at_x, &P0[i].v, 0), 1e-6);
    double m[N];
    for (int k = 0; k < N; k++) m[k] = P0[k].m;
    check_close("dE/dm", dp[i].m, fd_array(energy_m, m, i), 1e-6);
    if (dp[i].id != 1000 + i || dp[i].flags != -7L) {
      printf("FAIL shadow int fields of particle %d changed: %d %ld\n", i, dp[i].id, dp[i].flags);
      check_failures++;
    }
  }
  return check_finish();
}
