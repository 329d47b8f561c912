/* collapse(2): the iteration space of a doubly nested loop shared out as one; every a[i] is read
 * by a whole row and every b[j] by a whole column, so their adjoints gather contributions from
 * every thread; the second loop combines collapse(2) with schedule(static, 5) and a reduction. */
#include "omp_check.h"

extern void __enzyme_autodiff(void *, ...);
enum { NI = 13, NJ = 11 };

__attribute__((noinline)) void outer(int n, int m, const double *a, const double *b, double *z) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) z[i * m + j] = a[i] * b[j] + sin(a[i] - b[j]);
}

__attribute__((noinline)) double energy(int n, int m, const double *a, const double *b, const double *w) {
  double e = 0;
#pragma omp parallel for collapse(2) schedule(static, 5) reduction(+ : e)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) e += w[i * m + j] * (a[i] - b[j]) * (a[i] - b[j]);
  return e;
}

static double A[NI], B[NJ], C[NI * NJ];

static double loss(void) {
  double z[NI * NJ], s = 0;
  outer(NI, NJ, A, B, z);
  for (int k = 0; k < NI * NJ; k++) s += C[k] * z[k];
  return s;
}

static double loss_energy(void) { return energy(NI, NJ, A, B, C); }

#ifdef XZ_SELFCHECK
static void ref_outer(int n, int m, const double *a, double *da, const double *b, double *db, double *z, double *dz) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double zb = XZ_SEED * dz[i * m + j], c = cos(a[i] - b[j]);
      z[i * m + j] = a[i] * b[j] + sin(a[i] - b[j]);
      da[i] += zb * (b[j] + c);
      db[j] += zb * (a[i] - c);
      dz[i * m + j] = 0;
    }
}
static void ref_energy(int n, int m, const double *a, double *da, const double *b, double *db, const double *w) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double g = XZ_SEED * 2 * w[i * m + j] * (a[i] - b[j]);
      da[i] += g;
      db[j] -= g;
    }
}
#endif

int main(void) {
  static double da[NI], db[NJ], z[NI * NJ], dz[NI * NJ], da2[NI], db2[NJ];
  for (int i = 0; i < NI; i++) A[i] = 0.3 * i - 1.5;
  for (int j = 0; j < NJ; j++) B[j] = cos(1.7 * j);
  for (int k = 0; k < NI * NJ; k++) dz[k] = C[k] = 0.5 + sin(0.13 * k);
  XZ_DIFF(__enzyme_autodiff((void *)outer, enzyme_const, NI, enzyme_const, NJ, enzyme_dup, A, da, enzyme_dup, B, db,
                            enzyme_dup, z, dz),
          ref_outer(NI, NJ, A, da, B, db, z, dz));
  check_fd("outer da", da, A, NI, loss, 1e-6);
  check_fd("outer db", db, B, NJ, loss, 1e-6);
  check_zero("dz", dz, NI * NJ);

  XZ_DIFF(__enzyme_autodiff((void *)energy, enzyme_const, NI, enzyme_const, NJ, enzyme_dup, A, da2, enzyme_dup, B, db2,
                              enzyme_const, C),
          ref_energy(NI, NJ, A, da2, B, db2, C));
  check_fd("energy da", da2, A, NI, loss_energy, 1e-6);
  check_fd("energy db", db2, B, NJ, loss_energy, 1e-6);
  return check_finish();
}
