/* A five-point stencil on a 2-D grid with collapse(2) and a reduction: the energy
 * sum (Laplacian of u)^2 / 2 + u^4 / 100.  Each grid value is read by five iterations that
 * belong to different threads, so its adjoint gathers contributions across threads. */
#include "omp_check.h"

extern double __enzyme_autodiff(void *, ...);
enum { NX = 18, NY = 15 };

__attribute__((noinline)) double energy(int nx, int ny, const double *u) {
  double e = 0;
#pragma omp parallel for collapse(2) reduction(+ : e)
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++) {
      double lap = u[(i - 1) * ny + j] + u[(i + 1) * ny + j] + u[i * ny + j - 1] + u[i * ny + j + 1] - 4 * u[i * ny + j];
      e += 0.5 * lap * lap + 0.01 * u[i * ny + j] * u[i * ny + j] * u[i * ny + j] * u[i * ny + j];
    }
  return e;
}

static double U[NX * NY];
static double loss(void) { return energy(NX, NY, U); }

#ifdef XZ_SELFCHECK
static double ref_energy(int nx, int ny, const double *u, double *du) {
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++) {
      int k = i * ny + j;
      double lap = u[k - ny] + u[k + ny] + u[k - 1] + u[k + 1] - 4 * u[k], g = XZ_SEED * lap;
      du[k - ny] += g;
      du[k + ny] += g;
      du[k - 1] += g;
      du[k + 1] += g;
      du[k] += -4 * g + XZ_SEED * 0.04 * u[k] * u[k] * u[k];
    }
  return 0;
}
#endif

int main(void) {
  static double du[NX * NY];
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) U[i * NY + j] = sin(0.4 * i) * cos(0.3 * j) + 0.2 * sin(1.7 * i * j);
  XZ_DIFF(__enzyme_autodiff((void *)energy, enzyme_const, NX, enzyme_const, NY, enzyme_dup, U, du), ref_energy(NX, NY, U, du));
  check_fd("du", du, U, NX * NY, loss, 1e-6);
  return check_finish();
}
