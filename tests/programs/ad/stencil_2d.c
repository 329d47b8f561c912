/* A 2-D five-point stencil on arrays passed as `double u[][W]` (getelementptr through [W x double]
 * rows), a few Jacobi-style smoothing sweeps into a local 2-D array, with active boundary
 * values and a nonlinear reaction term. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { H = 8, W = 9 };

static double smooth(const double u[][W], const double *bc, double nu, int sweeps) {
  double a[H][W], b[H][W];
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) a[i][j] = (i == 0 || j == 0 || i == H - 1 || j == W - 1) ? bc[(i + j) % 4] : u[i][j];
  for (int s = 0; s < sweeps; s++) {
    for (int i = 0; i < H; i++)
      for (int j = 0; j < W; j++) {
        if (i == 0 || j == 0 || i == H - 1 || j == W - 1) { b[i][j] = a[i][j]; continue; }
        double lap = a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1] - 4 * a[i][j];
        b[i][j] = a[i][j] + nu * lap - 0.05 * a[i][j] * a[i][j];
      }
    for (int i = 0; i < H; i++)
      for (int j = 0; j < W; j++) a[i][j] = b[i][j];
  }
  double e = 0;
  for (int i = 1; i < H - 1; i++)
    for (int j = 1; j < W - 1; j++) e += a[i][j] * a[i][j] * (1 + 0.1 * i - 0.05 * j);
  return e;
}

static double U[H][W], BC[4] = {0.1, -0.2, 0.3, 0.05};
static double fu(const double *unused) { (void)unused; return smooth(U, BC, 0.2, 5); }

int main(void) {
  double du[H][W] = {{0}}, dbc[4] = {0};
  for (int i = 0; i < H; i++)
    for (int j = 0; j < W; j++) U[i][j] = sin(0.7 * i) * cos(0.4 * j);
  __enzyme_autodiff((void *)smooth, U, du, BC, dbc, enzyme_const, 0.2, 5);
  for (int i = 1; i < H - 1; i += 2)
    for (int j = 1; j < W - 1; j += 2) check_close("dE/du", du[i][j], fd_array(fu, &U[i][j], 0), 1e-6);
  for (int k = 0; k < 4; k++) check_close("dE/dbc", dbc[k], fd_array(fu, &BC[k], 0), 1e-6);
  check_close("boundary of u unused", du[0][3], 0.0, 0);
  return check_finish();
}
