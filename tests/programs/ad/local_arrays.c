/* Local arrays (allocas) holding active data: a small ring buffer, a scratch vector filled and
 * reduced, and a 2-D local array indexed with computed indices. */
#include "check.h"

typedef struct { double dx, dy; } grad2;
extern grad2 __enzyme_autodiff(void *, ...);

static double f(double x, double y) {
  double buf[8];
  double grid[4][4];
  for (int i = 0; i < 8; i++) buf[i] = x * (i + 1) - y * y * i;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) grid[i][j] = buf[(i + 2 * j) % 8] * (i == j ? y : 1.0);
  double ring[3] = {x, y, x * y};
  for (int t = 0; t < 10; t++) ring[t % 3] = 0.5 * ring[(t + 1) % 3] + sin(ring[(t + 2) % 3]);
  double s = 0;
  for (int i = 0; i < 4; i++) s += grid[i][3 - i] * grid[i][i];
  return s + ring[0] * ring[1] - ring[2];
}

static double X, Y;
static double fx(double x) { return f(x, Y); }
static double fy(double y) { return f(X, y); }

int main(void) {
  static const double pts[][2] = {{0.4, -0.3}, {1.1, 0.7}, {-0.8, 1.5}};
  for (int k = 0; k < 3; k++) {
    X = pts[k][0];
    Y = pts[k][1];
    grad2 g = __enzyme_autodiff((void *)f, X, Y);
    check_close("df/dx", g.dx, fd1(fx, X), 1e-6);
    check_close("df/dy", g.dy, fd1(fy, Y), 1e-6);
  }
  return check_finish();
}
