/* Structs passed and returned by value between noinline functions: a pair of doubles (two
 * registers), a box of two double arrays and an int (passed byval, returned through sret), a
 * pair of floats (one <2 x float> register) and an {int, double} result mixing an inactive and
 * an active field; the same structs also passed by pointer. */
#include "check.h"

extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_autodiff_v(void *, ...);

struct pt { double x, y; };
struct box { double lo[3], hi[3]; int id; };
struct pf { float a, b; };
struct tagged { int tag; double value; };

__attribute__((noinline)) double len(struct pt p) { return sqrt(p.x * p.x + p.y * p.y); }
__attribute__((noinline)) struct pt rot(struct pt p, double a) {
  struct pt r = {cos(a) * p.x - sin(a) * p.y, sin(a) * p.x + cos(a) * p.y};
  return r;
}
__attribute__((noinline)) void scale_pt(struct pt *p, double s) {
  p->x *= s;
  p->y *= s * s;
}

static double pts(double x, double y, double a) {
  struct pt p = {x, y};
  for (int i = 0; i < 3; i++) p = rot(p, a * (i + 1));
  scale_pt(&p, 1.0 + a);
  return len(p) * p.y + p.x;
}

__attribute__((noinline)) double volume(struct box b) {
  double v = 1;
  for (int k = 0; k < 3; k++) v *= b.hi[k] - b.lo[k];
  return v * (b.id % 2 ? 1.0 : 0.5);
}
__attribute__((noinline)) struct box grow(struct box b, double d) {
  for (int k = 0; k < 3; k++) {
    b.lo[k] -= d * b.lo[k] * b.lo[k];
    b.hi[k] += d;
  }
  b.id++;
  return b;
}
static double boxes(const struct box *in, double d) {
  struct box b = grow(*in, d);
  return volume(b) + volume(grow(b, d * d));
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

__attribute__((noinline)) struct tagged best(const double *a, int n) {
  struct tagged t = {0, a[0] * a[0]};
  for (int i = 1; i < n; i++)
    if (a[i] * a[i] > t.value) {
      t.tag = i;
      t.value = a[i] * a[i];
    }
  return t;
}
static double tagged_sum(const double *a, int n) {
  struct tagged t = best(a, n);
  return t.value * a[(t.tag + 1) % n] + t.tag;
}

typedef struct { double dx, dy, da; } g3;
extern g3 __enzyme_autodiff_3(void *, ...);

static double X = 0.8, Y = -0.3, A = 0.4;
static double pts_x(double x) { return pts(x, Y, A); }
static double pts_y(double y) { return pts(X, y, A); }
static double pts_a(double a) { return pts(X, Y, a); }
static struct box B = {{0.1, -0.2, 0.3}, {1.0, 0.9, 1.5}, 3};
static double D = 0.15;
static double boxes_b(const double *unused) { (void)unused; return boxes(&B, D); }
static double boxes_d(double d) { return boxes(&B, d); }
static double V[3] = {0.6, -0.9, 0.35};
static double pfs_ref(const double *v) {
  double a = v[0], b = v[1], t = v[2];
  double qa = a * cos(t) - b, qb = b * sin(t) + a * a;
  double ra = qa * cos(0.5) - qb, rb = qb * sin(0.5) + qa * qa;
  return qa * ra + qb * rb + a * qa + b * qb;
}
static double T[5] = {0.5, -1.2, 0.9, 1.1, -0.3};
static double tagged_t(const double *a) { return tagged_sum(a, 5); }

int main(void) {
  g3 g = __enzyme_autodiff_3((void *)pts, X, Y, A);
  check_close("pts d/dx", g.dx, fd1(pts_x, X), 1e-6);
  check_close("pts d/dy", g.dy, fd1(pts_y, Y), 1e-6);
  check_close("pts d/da", g.da, fd1(pts_a, A), 1e-6);

  struct box db = {{0, 0, 0}, {0, 0, 0}, 42};
  double dd = __enzyme_autodiff((void *)boxes, enzyme_dup, &B, &db, D);
  check_close("boxes d/dd", dd, fd1(boxes_d, D), 1e-6);
  for (int k = 0; k < 3; k++) {
    check_close("boxes d/dlo", db.lo[k], fd_array(boxes_b, &B.lo[k], 0), 1e-6);
    check_close("boxes d/dhi", db.hi[k], fd_array(boxes_b, &B.hi[k], 0), 1e-6);
  }
  check_close("boxes shadow id", db.id, 42, 0);

  float v[3], dv[3] = {0};
  for (int i = 0; i < 3; i++) v[i] = (float)V[i], V[i] = v[i];
  __enzyme_autodiff_v((void *)pfs, enzyme_dup, v, dv);
  for (int i = 0; i < 3; i++) check_close("pfs d/dv", dv[i], fd_array(pfs_ref, V, i), 1e-5);

  double dt[5] = {0};
  __enzyme_autodiff_v((void *)tagged_sum, enzyme_dup, T, dt, enzyme_const, 5);
  for (int i = 0; i < 5; i++) check_close("tagged d/da", dt[i], fd_array(tagged_t, T, i), 1e-6);
  return check_finish();
}
