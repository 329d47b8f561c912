/* Arrays inside structs next to int fields: a polynomial {int degree; double coef[8]; int tag},
 * a float grid {long nx; float vals[12]; double h; int bc[2]} whose boundary codes pick the
 * stencil, and a mesh {int edge[6][2]; double y[5]; double k[6]} whose int connectivity indexes
 * its own double array.  Only the float and double members get derivatives; the shadows of the
 * int members are left as the caller set them. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

struct poly { int degree; double coef[8]; int tag; };
struct grid { long nx; float vals[12]; double h; int bc[2]; };
struct mesh { int edge[6][2]; double y[5]; double k[6]; };

static double poly_eval(const struct poly *p, double x) {
  double s = 0;
  for (int i = p->degree; i >= 0; i--) s = s * x + p->coef[i];
  return s;
}
static double polys(const struct poly *p, double x) {
  return poly_eval(p, x) * poly_eval(p, -x) + p->coef[p->tag] * x;
}

static double grid_energy(const struct grid *g) {
  double e = 0;
  for (long i = 0; i < g->nx; i++) {
    double left = i > 0 ? g->vals[i - 1] : (g->bc[0] == 0 ? 0.0 : g->vals[0]);
    double right = i + 1 < g->nx ? g->vals[i + 1] : (g->bc[1] == 0 ? 0.0 : g->vals[i]);
    double lap = (left - 2.0 * g->vals[i] + right) / (g->h * g->h);
    e += g->h * lap * lap;
  }
  return e;
}

static double mesh_energy(const struct mesh *m) {
  double e = 0;
  for (int k = 0; k < 6; k++) {
    double d = m->y[m->edge[k][1]] - m->y[m->edge[k][0]];
    e += m->k[k] * (sqrt(1.0 + d * d) - 1.0);
  }
  return e;
}

static struct poly P = {5, {0.5, -1.0, 0.25, 0.8, -0.3, 0.1, 99, 99}, 3};
static double X = 0.7;
static double polys_at(const double *unused) { (void)unused; return polys(&P, X); }
static double polys_x(double x) { return polys(&P, x); }

static struct grid G;
static double GV[12];
static double grid_ref(const double *v) {
  struct grid t = G;
  double e = 0;
  for (long i = 0; i < t.nx; i++) {
    double left = i > 0 ? v[i - 1] : (t.bc[0] == 0 ? 0.0 : v[0]);
    double right = i + 1 < t.nx ? v[i + 1] : (t.bc[1] == 0 ? 0.0 : v[i]);
    double lap = (left - 2.0 * v[i] + right) / (t.h * t.h);
    e += t.h * lap * lap;
  }
  return e;
}
static double grid_h(double h) {
  struct grid t = G;
  t.h = h;
  return grid_energy(&t);
}

static struct mesh M = {{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 2}, {1, 4}}, {0.1, 0.5, -0.3, 0.8, 0.2}, {1, 2, 1.5, 0.5, 3, 2.5}};
static double mesh_at(const double *unused) { (void)unused; return mesh_energy(&M); }

int main(void) {
  struct poly dp = {-5, {0}, 1234};
  double dx = __enzyme_autodiff((void *)polys, enzyme_dup, &P, &dp, X);
  check_close("polys d/dx", dx, fd1(polys_x, X), 1e-6);
  for (int i = 0; i < 8; i++) check_close("polys d/dcoef", dp.coef[i], fd_array(polys_at, &P.coef[i], 0), 1e-6);
  check_close("polys shadow ints", dp.degree + dp.tag, 1229, 0);

  for (int bc = 0; bc < 4; bc++) {
    G.nx = 10;
    G.h = 0.4;
    G.bc[0] = bc & 1;
    G.bc[1] = bc >> 1;
    for (int i = 0; i < 12; i++) GV[i] = G.vals[i] = (float)(sin(0.6 * i) + 0.1 * i);
    struct grid dg;
    dg.nx = 77;
    dg.h = 0;
    dg.bc[0] = dg.bc[1] = -1;
    for (int i = 0; i < 12; i++) dg.vals[i] = 0;
    __enzyme_autodiff_v((void *)grid_energy, enzyme_dup, &G, &dg);
    for (int i = 0; i < 12; i++) check_close("grid d/dvals", dg.vals[i], fd_array(grid_ref, GV, i), 1e-5);
    check_close("grid d/dh", dg.h, fd1(grid_h, G.h), 1e-5);
    check_close("grid shadow ints", dg.nx + dg.bc[0] + dg.bc[1], 75, 0);
  }

  struct mesh dm = {{{0}}, {0}, {0}};
  for (int k = 0; k < 6; k++) dm.edge[k][0] = dm.edge[k][1] = 3;
  __enzyme_autodiff_v((void *)mesh_energy, enzyme_dup, &M, &dm);
  for (int i = 0; i < 5; i++) check_close("mesh d/dy", dm.y[i], fd_array(mesh_at, &M.y[i], 0), 1e-6);
  for (int k = 0; k < 6; k++) check_close("mesh d/dk", dm.k[k], fd_array(mesh_at, &M.k[k], 0), 1e-6);
  for (int k = 0; k < 6; k++) check_close("mesh shadow edges", dm.edge[k][0] * 10 + dm.edge[k][1], 33, 0);
  return check_finish();
}
