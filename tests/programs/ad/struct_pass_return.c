/* Structs across noinline calls, in the shapes the C ABI gives them: a 3x3 matrix of doubles
 * passed by value (byval) and returned by value (sret), a box {double lo[3], hi[3]; int id}
 * passed by value whose int field is only read, a pair of floats passed and returned in one
 * <2 x float> register, and a struct updated through a pointer. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);

struct m3 { double a[3][3]; };
struct box { double lo[3], hi[3]; int id; };
struct pf { float a, b; };
struct state { double pos; int steps; double vel; };

__attribute__((noinline)) struct m3 mul(struct m3 x, struct m3 y) {
  struct m3 r;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += x.a[i][k] * y.a[k][j];
      r.a[i][j] = s;
    }
  return r;
}
__attribute__((noinline)) double trace(struct m3 x) { return x.a[0][0] + x.a[1][1] + x.a[2][2]; }

/* tr(M^3) + tr(M^T M) via copies of M. */
static double mats(const struct m3 *m) {
  struct m3 t = *m;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) t.a[i][j] = m->a[j][i];
  return trace(mul(mul(*m, *m), *m)) + trace(mul(t, *m));
}

__attribute__((noinline)) double volume(struct box b) {
  double v = 1;
  for (int k = 0; k < 3; k++) v *= b.hi[k] - b.lo[k];
  return v * (b.id % 2 ? 1.0 : 0.5);
}
static double boxes(const struct box *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += volume(b[i]) * volume(b[(i + 1) % n]);
  return s;
}

__attribute__((noinline)) struct pf swirl(struct pf p, float t) {
  struct pf r = {p.a * cosf(t) - p.b, p.b * sinf(t) + p.a * p.a};
  return r;
}
__attribute__((noinline)) float dotf(struct pf p, struct pf q) { return p.a * q.a + p.b * q.b; }
static float pfs(const float *v) {
  struct pf p = {v[0], v[1]}, q = swirl(p, v[2]);
  return dotf(q, swirl(q, 0.5f)) + dotf(p, q);
}

__attribute__((noinline)) void advance(struct state *s, double dt) {
  double acc = -s->pos * s->pos * s->pos;
  s->vel += dt * acc;
  s->pos += dt * s->vel;
  s->steps++;
}
static double run(struct state *s, double dt) {
  for (int i = 0; i < 5; i++) advance(s, dt);
  return s->pos * s->vel + s->steps;
}

static struct m3 M;
static double mats_at(const double *unused) { (void)unused; return mats(&M); }
static struct box B[3];
static double boxes_at(const double *unused) { (void)unused; return boxes(B, 3); }
static double V[3] = {0.6, -0.9, 0.35};
static double pfs_ref(const double *v) {
  double a = v[0], b = v[1], t = v[2];
  double qa = a * cos(t) - b, qb = b * sin(t) + a * a;
  double ra = qa * cos(0.5) - qb, rb = qb * sin(0.5) + qa * qa;
  return qa * ra + qb * rb + a * qa + b * qb;
}
static double run_ref(const double *pv) {
  struct state s = {pv[0], 0, pv[1]};
  return run(&s, 0.1);
}

int main(void) {
  struct m3 dm = {{{0}}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) M.a[i][j] = sin(1.0 + i + 2.0 * j) * 0.8;
  __enzyme_autodiff((void *)mats, enzyme_dup, &M, &dm);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) check_close("mats d/dm", dm.a[i][j], fd_array(mats_at, &M.a[i][j], 0), 1e-6);

  struct box db[3];
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 3; k++) {
      B[i].lo[k] = 0.1 * k - 0.2 * i;
      B[i].hi[k] = 1.0 + 0.3 * k + 0.1 * i;
      db[i].lo[k] = db[i].hi[k] = 0;
    }
    B[i].id = i;
    db[i].id = 40 + i;
  }
  __enzyme_autodiff((void *)boxes, enzyme_dup, B, db, enzyme_const, 3);
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 3; k++) {
      check_close("boxes d/dlo", db[i].lo[k], fd_array(boxes_at, &B[i].lo[k], 0), 1e-6);
      check_close("boxes d/dhi", db[i].hi[k], fd_array(boxes_at, &B[i].hi[k], 0), 1e-6);
    }
    check_close("boxes shadow id", db[i].id, 40 + i, 0);
  }

  float v[3], dv[3] = {0};
  for (int i = 0; i < 3; i++) v[i] = (float)V[i], V[i] = v[i];
  __enzyme_autodiff((void *)pfs, enzyme_dup, v, dv);
  for (int i = 0; i < 3; i++) check_close("pfs d/dv", dv[i], fd_array(pfs_ref, V, i), 1e-5);

  double pv[2] = {0.9, -0.4};
  struct state s = {pv[0], 0, pv[1]}, ds = {0, 123, 0};
  __enzyme_autodiff((void *)run, enzyme_dup, &s, &ds, enzyme_const, 0.1);
  check_close("run d/dpos", ds.pos, fd_array(run_ref, pv, 0), 1e-6);
  check_close("run d/dvel", ds.vel, fd_array(run_ref, pv, 1), 1e-6);
  check_close("run steps", s.steps, 5, 0);
  check_close("run shadow steps", ds.steps, 123, 0);
  return check_finish();
}
