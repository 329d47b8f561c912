/* Nested structs: a system holding an int count, an array of bodies (each with two nested
 * vec3s, an int tag, a nested {float q; short kind} charge and a double mass) and an anonymous
 * nested parameter struct.  A noinline helper receives pointers to inner vec3 members.  Every
 * double and the float charge get derivatives; the int and short fields' shadows stay as set. */
#include "check.h"

extern void __enzyme_autodiff(void *, ...);
enum { NB = 4 };

struct vec3 { double x, y, z; };
struct charge { float q; short kind; };
struct body {
  struct vec3 pos, vel;
  int tag;
  struct charge c;
  double mass;
};
struct system {
  int n;
  struct body b[NB];
  struct { double k; int model; double rest; } params;
};

__attribute__((noinline)) double dist(const struct vec3 *a, const struct vec3 *b) {
  double dx = a->x - b->x, dy = a->y - b->y, dz = a->z - b->z;
  return sqrt(dx * dx + dy * dy + dz * dz);
}

static double energy(const struct system *s) {
  double e = 0;
  for (int i = 0; i < s->n; i++) {
    const struct body *bi = &s->b[i];
    e += 0.5 * bi->mass * (bi->vel.x * bi->vel.x + bi->vel.y * bi->vel.y + bi->vel.z * bi->vel.z);
    for (int j = i + 1; j < s->n; j++) {
      const struct body *bj = &s->b[j];
      double r = dist(&bi->pos, &bj->pos);
      if (bi->c.kind == bj->c.kind) e += bi->c.q * bj->c.q / r;
      if (s->params.model == 1 && (bi->tag + bj->tag) % 2 == 0) {
        double d = r - s->params.rest;
        e += 0.5 * s->params.k * d * d;
      }
    }
  }
  return e;
}

static struct system S;
static double at(const double *unused) { (void)unused; return energy(&S); }

/* Double-precision twin of the charge dependence for the float field. */
static double charge_energy(const double *q) {
  struct system t = S;
  double e = energy(&t), base = 0;
  for (int i = 0; i < NB; i++)
    for (int j = i + 1; j < NB; j++)
      if (S.b[i].c.kind == S.b[j].c.kind) {
        double r = dist(&S.b[i].pos, &S.b[j].pos);
        base += (double)S.b[i].c.q * S.b[j].c.q / r;
        e += q[i] * q[j] / r;
      }
  return e - base;
}

int main(void) {
  S.n = NB;
  S.params.k = 2.5;
  S.params.model = 1;
  S.params.rest = 0.8;
  for (int i = 0; i < NB; i++) {
    struct body *b = &S.b[i];
    b->pos = (struct vec3){cos(1.1 * i), sin(0.7 * i + 0.2), 0.3 * i};
    b->vel = (struct vec3){0.1 * i, -0.2, 0.05 * i * i};
    b->tag = i;
    b->c.q = i % 2 ? -0.5f : 0.75f;
    b->c.kind = (short)(i < 3);
    b->mass = 1.0 + i;
  }
  struct system ds;
  ds.n = -99;
  ds.params.model = 77;
  ds.params.k = ds.params.rest = 0;
  for (int i = 0; i < NB; i++) {
    ds.b[i].pos = ds.b[i].vel = (struct vec3){0, 0, 0};
    ds.b[i].tag = 500 + i;
    ds.b[i].c.q = 0;
    ds.b[i].c.kind = 9;
    ds.b[i].mass = 0;
  }
  __enzyme_autodiff((void *)energy, enzyme_dup, &S, &ds);
  double q[NB];
  for (int i = 0; i < NB; i++) q[i] = S.b[i].c.q;
  for (int i = 0; i < NB; i++) {
    check_close("dE/dpos.x", ds.b[i].pos.x, fd_array(at, &S.b[i].pos.x, 0), 1e-6);
    check_close("dE/dpos.y", ds.b[i].pos.y, fd_array(at, &S.b[i].pos.y, 0), 1e-6);
    check_close("dE/dpos.z", ds.b[i].pos.z, fd_array(at, &S.b[i].pos.z, 0), 1e-6);
    check_close("dE/dvel.y", ds.b[i].vel.y, fd_array(at, &S.b[i].vel.y, 0), 1e-6);
    check_close("dE/dvel.z", ds.b[i].vel.z, fd_array(at, &S.b[i].vel.z, 0), 1e-6);
    check_close("dE/dmass", ds.b[i].mass, fd_array(at, &S.b[i].mass, 0), 1e-6);
    check_close("dE/dq", ds.b[i].c.q, fd_array(charge_energy, q, i), 1e-6);
    if (ds.b[i].tag != 500 + i || ds.b[i].c.kind != 9) {
      printf("FAIL shadow int fields of body %d changed\n", i);
      check_failures++;
    }
  }
  check_close("dE/dk", ds.params.k, fd_array(at, &S.params.k, 0), 1e-6);
  check_close("dE/drest", ds.params.rest, fd_array(at, &S.params.rest, 0), 1e-6);
  if (ds.n != -99 || ds.params.model != 77) {
    printf("FAIL shadow int fields of the system changed\n");
    check_failures++;
  }
  return check_finish();
}
