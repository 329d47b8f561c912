/* A 2-D Jacobi stencil: a time loop of parallel sweeps over a grid (collapse(2)), swapping
   buffers, and a parallel residual norm. */
#include <math.h>
#include <omp.h>
#include <stdio.h>

#define NX 64
#define NY 48

__attribute__((noinline)) void sweep(int nx, int ny, const double *u, double *v, double w) {
#pragma omp parallel for collapse(2)
  for (int i = 1; i < nx - 1; i++)
    for (int j = 1; j < ny - 1; j++) {
      double lap = u[(i - 1) * ny + j] + u[(i + 1) * ny + j] + u[i * ny + j - 1] + u[i * ny + j + 1] - 4 * u[i * ny + j];
      v[i * ny + j] = u[i * ny + j] + w * lap;
    }
}

__attribute__((noinline)) double residual(int n, const double *u, const double *v) {
  double r = 0;
#pragma omp parallel for reduction(+ : r)
  for (int i = 0; i < n; i++) r += (u[i] - v[i]) * (u[i] - v[i]);
  return sqrt(r);
}

__attribute__((noinline)) double relax(int steps, double *u, double *v) {
  double r = 0;
  for (int t = 0; t < steps; t++) {
    sweep(NX, NY, u, v, 0.2);
    r = residual(NX * NY, u, v);
    double *tmp = u;
    u = v;
    v = tmp;
  }
  return r;
}

int main(void) {
  static double u[NX * NY], v[NX * NY];
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) u[i * NY + j] = v[i * NY + j] = sin(0.3 * i) * cos(0.2 * j) + (i == NX / 2);
  double r = relax(20, u, v);
  double s = 0;
  for (int k = 0; k < NX * NY; k++) s += u[k] * (1 + k % 3);
  printf("%.12g %.12g\n", r, s);
  return 0;
}
