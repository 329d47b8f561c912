/* Structs: double fields, struct copies, and a struct holding pointers to the data. */
#include "fwd.h"

extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double pos[3];
  double mass;
  int id;
} Particle;

typedef struct {
  const double *data;
  double *scratch;
  int n;
} View;

static double energy(const Particle *p, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    Particle q = p[i]; /* struct copy */
    e += 0.5 * q.mass * (q.pos[0] * q.pos[0] + q.pos[1] * q.pos[1] + q.pos[2] * q.pos[2]) * (q.id + 1);
  }
  return e;
}

double through_view(View *v) {
  for (int i = 0; i < v->n; i++) v->scratch[i] = v->data[i] * v->data[i];
  double s = 0;
  for (int i = 0; i < v->n; i++) s += sin(v->scratch[i]);
  return s;
}

static double energy_flat(const double *x, int n) {
  Particle p[2];
  for (int i = 0; i < 2; i++) {
    for (int k = 0; k < 3; k++) p[i].pos[k] = x[4 * i + k];
    p[i].mass = x[4 * i + 3];
    p[i].id = i;
  }
  return energy(p, 2);
}

static double view_flat(const double *x, int n) {
  double s[4];
  View v = {x, s, n};
  return through_view(&v);
}

int main(void) {
  Particle p[2] = {{{0.1, 0.2, 0.3}, 1.5, 0}, {{-0.4, 0.5, 0.6}, 2.0, 1}};
  Particle dp[2] = {{{1, 0, 0.5}, 0.25, 0}, {{0, -1, 0}, 1, 0}};
  double x[8], v[8];
  for (int i = 0; i < 2; i++) {
    for (int k = 0; k < 3; k++) x[4 * i + k] = p[i].pos[k], v[4 * i + k] = dp[i].pos[k];
    x[4 * i + 3] = p[i].mass, v[4 * i + 3] = dp[i].mass;
  }
  check_close("dE", __enzyme_fwddiff((void *)energy, p, dp, 2), fd_dir(energy_flat, x, v, 8), 1e-6);

  double d[4] = {0.3, 0.9, -1.2, 0.5}, dd[4] = {1, -1, 0.5, 2}, s[4], ds[4];
  View vw = {d, s, 4}, dvw = {dd, ds, 4};
  check_close("d view", __enzyme_fwddiff((void *)through_view, &vw, &dvw), fd_dir(view_flat, d, dd, 4), 1e-6);
  return check_finish();
}
