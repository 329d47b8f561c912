/* A time loop of 2-D Jacobi sweeps (collapse(2)) that swaps its two buffers, the sweep and a
 * residual norm (reduction) in non-inlined functions, each with its own parallel region: the
 * derivative of the last residual plus a weighted sum of the final grid with respect to the
 * initial grid. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { NX = 20, NY = 16, STEPS = 6 };

__attribute__((noinline)) void sweep(int nx, int ny, const double *u, double *v, double w) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) {
      int k = i * ny + j;
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) {
        v[k] = u[k];
      } else {
        double lap = u[k - ny] + u[k + ny] + u[k - 1] + u[k + 1] - 4 * u[k];
        v[k] = u[k] + w * lap + 0.05 * sin(u[k]);
      }
    }
}

__attribute__((noinline)) double residual(int n, const double *u, const double *v) {
  double r = 0;
#pragma omp parallel for reduction(+ : r)
  for (int i = 0; i < n; i++) r += (u[i] - v[i]) * (u[i] - v[i]);
  return sqrt(r);
}

__attribute__((noinline)) double relax(int steps, double *u, double *v, const double *c) {
  double r = 0;
  for (int t = 0; t < steps; t++) {
    sweep(NX, NY, u, v, 0.2);
    r = residual(NX * NY, u, v);
    double *s = u;
    u = v;
    v = s;
  }
  double e = 0;
  for (int k = 0; k < NX * NY; k++) e += c[k] * u[k];
  return r + e;
}

static double U0[NX * NY], C[NX * NY];
static double loss(void) {
  double u[NX * NY], v[NX * NY];
  memcpy(u, U0, sizeof u);
  return relax(STEPS, u, v, C);
}

#ifdef XZ_SELFCHECK
/* The reverse of one sweep: the adjoint of u from that of v. */
static void sweep_adjoint(const double *u, const double *vb, double *ub) {
  for (int k = 0; k < NX * NY; k++) ub[k] = 0;
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      int k = i * NY + j;
      if (i == 0 || j == 0 || i == NX - 1 || j == NY - 1) {
        ub[k] += vb[k];
      } else {
        ub[k] += vb[k] * (1 - 4 * 0.2 + 0.05 * cos(u[k]));
        ub[k - NY] += vb[k] * 0.2;
        ub[k + NY] += vb[k] * 0.2;
        ub[k - 1] += vb[k] * 0.2;
        ub[k + 1] += vb[k] * 0.2;
      }
    }
}
static double ref_relax(int steps, double *u, double *du, double *v, double *dv, const double *c) {
  static double hist[STEPS + 1][NX * NY];
  double g[NX * NY], ub[NX * NY];
  memcpy(hist[0], u, sizeof g);
  for (int t = 0; t < steps; t++) sweep(NX, NY, hist[t], hist[t + 1], 0.2);
  double r = residual(NX * NY, hist[steps - 1], hist[steps]);
  relax(steps, u, v, c);
  for (int k = 0; k < NX * NY; k++) g[k] = XZ_SEED * c[k]; /* adjoint of the last grid */
  double rb = XZ_SEED / r;                                 /* d sqrt(sum d^2) = d / r */
  for (int k = 0; k < NX * NY; k++) g[k] += rb * (hist[steps][k] - hist[steps - 1][k]);
  sweep_adjoint(hist[steps - 1], g, ub);
  for (int k = 0; k < NX * NY; k++) ub[k] -= rb * (hist[steps][k] - hist[steps - 1][k]);
  for (int t = steps - 2; t >= 0; t--) {
    sweep_adjoint(hist[t], ub, g);
    memcpy(ub, g, sizeof g);
  }
  for (int k = 0; k < NX * NY; k++) du[k] += ub[k], dv[k] = 0;
  return 0;
}
#endif

int main(void) {
  static double u[NX * NY], du[NX * NY], v[NX * NY], dv[NX * NY];
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      int k = i * NY + j;
      U0[k] = u[k] = v[k] = sin(0.3 * i) * cos(0.2 * j) + (i == NX / 2 && j == NY / 2);
      C[k] = 0.3 * ((i * 7 + j * 3) % 11) - 1.2;
    }
  XZ_DIFF(__enzyme_autodiff((void *)relax, enzyme_const, STEPS, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, C),
          ref_relax(STEPS, u, du, v, dv, C));
  check_fd_dir("du0", du, U0, NX * NY, loss, 1e-6);
  for (int k = 3; k < NX * NY; k += 37) {
    char name[32];
    snprintf(name, sizeof name, "du0[%d]", k);
    check_close(name, du[k], fd_at(loss, &U0[k]), 1e-6);
  }
  check_zero("dv", dv, NX * NY);
  return check_finish();
}
