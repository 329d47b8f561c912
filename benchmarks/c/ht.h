/* ADBench hand tracking (HT): the hand model, its data files and the objective, shared by
 * ht_simple.c and ht_complicated.c.
 *
 * The model (benchmarks/data/hand/model/, ADBench's files):
 *   - bones.txt: 22 lines "name:parent:R(16):A(16)": the parent bone (-1 for the root; parents
 *     come before their children), the base-relative transform R and the inverse base-absolute
 *     transform A, 4x4 row-major;
 *   - vertices.txt: M lines "x:y:z:n1:n2:n3:t1:t2:k:b1:w1:...:bk:wk": the base position, a normal
 *     and texture coordinates (unused), then k (bone, weight) pairs for linear blend skinning;
 *   - triangles.txt: lines "a:b:c" of vertex indices (the complicated variant).
 * An instance (benchmarks/data/hand/{simple,complicated}_small/handI_t26_cC.txt): "C 26", C lines
 * "vertex-or-triangle y1 y2 y3" (the correspondences: a point y_k and what it belongs to), for the
 * complicated variant C lines "u1 u2" (barycentric coordinates), then the 26 pose parameters.
 *
 * The pose theta in R^26: theta[0..2] the global rotation (angle-axis), theta[3..5] the global
 * translation, then for each of the 5 fingers (bones 2+4f .. 5+4f; bones 0 and 1 belong to the
 * wrist) two angles of its first bone and one angle of each of the next two; the other bones
 * keep their base pose.
 *
 * The objective, for each bone b (parents first):
 *   (x_b, z_b, y_b) = the bone's three angles (zero where theta gives none);
 *   relative_b  = R_b * [Rz(z_b) Ry(y_b) Rx(x_b), 0; 0, 1];
 *   absolute_b  = absolute_parent(b) * relative_b   (relative_b for the root);
 *   transform_b = absolute_b * A_b;
 * then each vertex v_i = G * sum_b w_ib (transform_b * [x_i; 1])[0..2] + theta[3..5], with G
 * the rotation by the angle-axis vector theta[0..2] (Rodrigues' formula; the identity when its
 * angle is below 1e-4), and the residual of correspondence k is
 *   simple:       y_k - v_{c(k)},
 *   complicated:  y_k - (u_k1 v_a + u_k2 v_b + (1 - u_k1 - u_k2) v_c), triangle c(k) = (a, b, c).
 *
 * Input: the instance file named by $XENZYME_BENCH_INPUT, else the variant's default instance in
 * benchmarks/data/hand/ (found from this header's own path, so a program built from the
 * repository runs from any working directory).  The model is read from the folder `model` beside
 * the instance, or beside the instance's folder (both ADBench's layout and benchmarks/data's).
 * An instance of N correspondences takes the file's first N, cycling through them when N is
 * larger than the file's count.
 */
#ifndef XENZYME_HT_H
#define XENZYME_HT_H

#include <sys/stat.h>

#include "bench.h"

int enzyme_width;

#define HT_BONES 22
#define HT_THETA 26
#define HT_INSTANCE "hand6_t26_c1600.txt"

typedef struct {
  int n_verts, n_tris;
  int parents[HT_BONES];
  double base_relatives[HT_BONES][16];
  double inverse_base_absolutes[HT_BONES][16];
  double *positions; /* n_verts x 3 */
  double *weights;   /* n_verts x HT_BONES, dense */
  int *triangles;    /* n_tris x 3 */
} ht_model;

typedef struct {
  ht_model model;
  int n;          /* correspondences */
  int *corr;      /* the vertex (simple) or triangle (complicated) of each correspondence */
  double *points; /* n x 3 */
  double *us;     /* n x 2 (complicated; zeros otherwise) */
  double theta[HT_THETA];
  char path[4096]; /* the instance file */
} ht_data;

/* ---- the objective ------------------------------------------------------------------------ */

/* c = a * b, 4x4 row-major. */
static void ht_mat4_mul(const double *a, const double *b, double *c) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double s = 0;
      for (int k = 0; k < 4; k++) s += a[4 * i + k] * b[4 * k + j];
      c[4 * i + j] = s;
    }
}

/* t = [Rz(z) Ry(y) Rx(x), 0; 0, 1] for the angles given in the order (x, z, y). */
static void ht_euler(const double *xzy, double *t) {
  double cx = cos(xzy[0]), sx = sin(xzy[0]);
  double cz = cos(xzy[1]), sz = sin(xzy[1]);
  double cy = cos(xzy[2]), sy = sin(xzy[2]);
  double r[9] = {cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx,
                 sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx,
                 -sy,     cy * sx,                cy * cx};
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) t[4 * i + j] = r[3 * i + j];
    t[4 * i + 3] = 0;
  }
  t[12] = t[13] = t[14] = 0;
  t[15] = 1;
}

/* The rotation by the angle-axis vector aa (3x3 row-major). */
static void ht_angle_axis(const double *aa, double *r) {
  double angle = sqrt(aa[0] * aa[0] + aa[1] * aa[1] + aa[2] * aa[2]);
  if (angle < 1e-4) {
    for (int i = 0; i < 9; i++) r[i] = i % 4 == 0;
    return;
  }
  double x = aa[0] / angle, y = aa[1] / angle, z = aa[2] / angle;
  double s = sin(angle), c = cos(angle), d = 1 - c;
  r[0] = x * x + (1 - x * x) * c;
  r[1] = x * y * d - z * s;
  r[2] = x * z * d + y * s;
  r[3] = x * y * d + z * s;
  r[4] = y * y + (1 - y * y) * c;
  r[5] = y * z * d - x * s;
  r[6] = x * z * d - y * s;
  r[7] = y * z * d + x * s;
  r[8] = z * z + (1 - z * z) * c;
}

/* The posed hand: every vertex's position, into pos (n_verts x 3). */
static void ht_skin(const double *theta, const ht_model *m, double *pos) {
  double angles[HT_BONES][3] = {{0}};
  int t = 6;
  for (int f = 0; f < 5; f++) {
    int b = 2 + 4 * f;
    angles[b][0] = theta[t++];
    angles[b][1] = theta[t++];
    angles[b + 1][0] = theta[t++];
    angles[b + 2][0] = theta[t++];
  }
  double relative[HT_BONES][16], absolute[HT_BONES][16], transform[HT_BONES][16], e[16];
  for (int b = 0; b < HT_BONES; b++) {
    ht_euler(angles[b], e);
    ht_mat4_mul(m->base_relatives[b], e, relative[b]);
  }
  for (int b = 0; b < HT_BONES; b++) {
    if (m->parents[b] < 0)
      for (int k = 0; k < 16; k++) absolute[b][k] = relative[b][k];
    else
      ht_mat4_mul(absolute[m->parents[b]], relative[b], absolute[b]);
    ht_mat4_mul(absolute[b], m->inverse_base_absolutes[b], transform[b]);
  }
  double g[9];
  ht_angle_axis(theta, g);
  for (int v = 0; v < m->n_verts; v++) {
    const double *x = m->positions + 3 * v, *w = m->weights + HT_BONES * v;
    double p[3] = {0, 0, 0};
    for (int b = 0; b < HT_BONES; b++)
      for (int i = 0; i < 3; i++) {
        const double *row = transform[b] + 4 * i;
        p[i] += w[b] * (row[0] * x[0] + row[1] * x[1] + row[2] * x[2] + row[3]);
      }
    for (int i = 0; i < 3; i++)
      pos[3 * v + i] = g[3 * i] * p[0] + g[3 * i + 1] * p[1] + g[3 * i + 2] * p[2] + theta[3 + i];
  }
}

/* err (3n) = the residuals of the simple variant. */
void ht_objective_simple(const double *theta, const ht_model *m, const int *corr,
                         const double *points, int n, double *err) {
  double *pos = malloc(sizeof(double) * 3 * (size_t)m->n_verts);
  ht_skin(theta, m, pos);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < 3; i++) err[3 * k + i] = points[3 * k + i] - pos[3 * corr[k] + i];
  free(pos);
}

/* err (3n) = the residuals of the complicated variant; us: n x 2 barycentric coordinates. */
void ht_objective_complicated(const double *theta, const double *us, const ht_model *m,
                              const int *corr, const double *points, int n, double *err) {
  double *pos = malloc(sizeof(double) * 3 * (size_t)m->n_verts);
  ht_skin(theta, m, pos);
  for (int k = 0; k < n; k++) {
    const int *tri = m->triangles + 3 * corr[k];
    double u1 = us[2 * k], u2 = us[2 * k + 1], u3 = 1 - u1 - u2;
    for (int i = 0; i < 3; i++)
      err[3 * k + i] = points[3 * k + i] - (u1 * pos[3 * tri[0] + i] + u2 * pos[3 * tri[1] + i] +
                                            u3 * pos[3 * tri[2] + i]);
  }
  free(pos);
}

/* ---- reading the data --------------------------------------------------------------------- */

static void ht_fail(const char *path, int line, const char *what) {
  if (line > 0)
    fprintf(stderr, "%s:%d: %s\n", path, line, what);
  else
    fprintf(stderr, "%s: %s\n", path, what);
  exit(1);
}

static void *ht_alloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

static FILE *ht_open(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cannot open %s (set XENZYME_BENCH_INPUT to an ADBench hand instance)\n", path);
    exit(1);
  }
  return f;
}

/* Splits a ':'-separated line in place into at most max fields; returns their number. */
static int ht_fields(char *line, char **out, int max) {
  int n = 0;
  char *s = line;
  while (n < max) {
    out[n++] = s;
    char *c = strchr(s, ':');
    if (!c) break;
    *c = 0;
    s = c + 1;
  }
  return n;
}

/* A number of a ':'-separated field, the whole field or an error. */
static double ht_num(const char *field, const char *path, int line) {
  char *end;
  double v = strtod(field, &end);
  while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') end++;
  if (end == field || *end) ht_fail(path, line, "expected a number");
  return v;
}

static int ht_int(const char *field, const char *path, int line) {
  double v = ht_num(field, path, line);
  if (v != (int)v) ht_fail(path, line, "expected an integer");
  return (int)v;
}

#define HT_MAX_LINE (1 << 16)
#define HT_MAX_FIELDS 256

static void ht_read_model(const char *dir, ht_model *m) {
  static char line[HT_MAX_LINE];
  char *f[HT_MAX_FIELDS], path[4200];

  snprintf(path, sizeof path, "%s/bones.txt", dir);
  FILE *fp = ht_open(path);
  int nb = 0, ln = 0;
  while (fgets(line, sizeof line, fp)) {
    ln++;
    if (line[0] == '\n' || line[0] == 0) continue;
    if (nb == HT_BONES) ht_fail(path, ln, "more than 22 bones");
    if (ht_fields(line, f, HT_MAX_FIELDS) != 34) ht_fail(path, ln, "expected 34 ':'-separated fields");
    int parent = ht_int(f[1], path, ln);
    if (parent < -1 || parent >= nb) ht_fail(path, ln, "a bone's parent must come before it");
    m->parents[nb] = parent;
    for (int k = 0; k < 16; k++) {
      m->base_relatives[nb][k] = ht_num(f[2 + k], path, ln);
      m->inverse_base_absolutes[nb][k] = ht_num(f[18 + k], path, ln);
    }
    nb++;
  }
  fclose(fp);
  if (nb != HT_BONES) ht_fail(path, 0, "expected 22 bones");

  snprintf(path, sizeof path, "%s/vertices.txt", dir);
  fp = ht_open(path);
  int cap = 0;
  m->n_verts = 0;
  m->positions = NULL;
  m->weights = NULL;
  ln = 0;
  while (fgets(line, sizeof line, fp)) {
    ln++;
    if (line[0] == '\n' || line[0] == 0) continue;
    int nf = ht_fields(line, f, HT_MAX_FIELDS);
    if (nf < 9) ht_fail(path, ln, "expected at least 9 ':'-separated fields");
    int k = ht_int(f[8], path, ln);
    if (k < 0 || nf != 9 + 2 * k) ht_fail(path, ln, "the number of (bone, weight) pairs does not match");
    if (m->n_verts == cap) {
      cap = cap ? 2 * cap : 1024;
      m->positions = realloc(m->positions, sizeof(double) * 3 * (size_t)cap);
      m->weights = realloc(m->weights, sizeof(double) * HT_BONES * (size_t)cap);
      if (!m->positions || !m->weights) ht_fail(path, ln, "out of memory");
    }
    int v = m->n_verts++;
    for (int i = 0; i < 3; i++) m->positions[3 * v + i] = ht_num(f[i], path, ln);
    for (int b = 0; b < HT_BONES; b++) m->weights[HT_BONES * v + b] = 0;
    for (int j = 0; j < k; j++) {
      int b = ht_int(f[9 + 2 * j], path, ln);
      if (b < 0 || b >= HT_BONES) ht_fail(path, ln, "bone index out of range");
      m->weights[HT_BONES * v + b] += ht_num(f[10 + 2 * j], path, ln);
    }
  }
  fclose(fp);
  if (m->n_verts == 0) ht_fail(path, 0, "no vertices");

  snprintf(path, sizeof path, "%s/triangles.txt", dir);
  fp = ht_open(path);
  cap = 0;
  m->n_tris = 0;
  m->triangles = NULL;
  ln = 0;
  while (fgets(line, sizeof line, fp)) {
    ln++;
    if (line[0] == '\n' || line[0] == 0) continue;
    if (ht_fields(line, f, HT_MAX_FIELDS) != 3) ht_fail(path, ln, "expected 3 ':'-separated fields");
    if (m->n_tris == cap) {
      cap = cap ? 2 * cap : 2048;
      m->triangles = realloc(m->triangles, sizeof(int) * 3 * (size_t)cap);
      if (!m->triangles) ht_fail(path, ln, "out of memory");
    }
    for (int i = 0; i < 3; i++) {
      int v = ht_int(f[i], path, ln);
      if (v < 0 || v >= m->n_verts) ht_fail(path, ln, "vertex index out of range");
      m->triangles[3 * m->n_tris + i] = v;
    }
    m->n_tris++;
  }
  fclose(fp);
}

static int ht_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Reads the model and an instance of n correspondences for variant "simple" or "complicated". */
static void ht_read(const char *variant, long n, ht_data *d) {
  int complicated = strcmp(variant, "complicated") == 0;
  const char *env = getenv("XENZYME_BENCH_INPUT");
  if (env && *env) {
    snprintf(d->path, sizeof d->path, "%s", env);
  } else {
    const char *here = __FILE__; /* .../benchmarks/c/ht.h */
    const char *slash = strrchr(here, '/');
    int len = slash ? (int)(slash - here) + 1 : 0;
    snprintf(d->path, sizeof d->path, "%.*s../data/hand/%s_small/%s", len, here, variant, HT_INSTANCE);
  }
  char dir[4096], model[4200];
  snprintf(dir, sizeof dir, "%s", d->path);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = 0;
  else
    snprintf(dir, sizeof dir, ".");
  snprintf(model, sizeof model, "%s/model", dir);
  if (!ht_is_dir(model)) snprintf(model, sizeof model, "%s/../model", dir);
  ht_read_model(model, &d->model);

  FILE *fp = ht_open(d->path);
  int nc, nt;
  if (fscanf(fp, "%d %d", &nc, &nt) != 2 || nc < 1 || nt != HT_THETA)
    ht_fail(d->path, 1, "expected the header \"correspondences 26\"");
  int *corr = ht_alloc((size_t)nc, sizeof(int));
  double *pts = ht_alloc(3 * (size_t)nc, sizeof(double));
  double *us = ht_alloc(2 * (size_t)nc, sizeof(double));
  int limit = complicated ? d->model.n_tris : d->model.n_verts;
  for (int k = 0; k < nc; k++) {
    if (fscanf(fp, "%d %lf %lf %lf", &corr[k], &pts[3 * k], &pts[3 * k + 1], &pts[3 * k + 2]) != 4)
      ht_fail(d->path, 2 + k, "expected \"index y1 y2 y3\"");
    if (corr[k] < 0 || corr[k] >= limit)
      ht_fail(d->path, 2 + k, complicated ? "triangle index out of range" : "vertex index out of range");
  }
  if (complicated)
    for (int k = 0; k < nc; k++)
      if (fscanf(fp, "%lf %lf", &us[2 * k], &us[2 * k + 1]) != 2)
        ht_fail(d->path, 2 + nc + k, "expected \"u1 u2\"");
  for (int i = 0; i < HT_THETA; i++)
    if (fscanf(fp, "%lf", &d->theta[i]) != 1) ht_fail(d->path, 0, "expected 26 pose parameters at the end");
  fclose(fp);

  d->n = (int)n;
  d->corr = ht_alloc((size_t)n, sizeof(int));
  d->points = ht_alloc(3 * (size_t)n, sizeof(double));
  d->us = ht_alloc(2 * (size_t)n, sizeof(double));
  for (long k = 0; k < n; k++) {
    long s = k % nc;
    d->corr[k] = corr[s];
    for (int i = 0; i < 3; i++) d->points[3 * k + i] = pts[3 * s + i];
    for (int i = 0; i < 2; i++) d->us[2 * k + i] = us[2 * s + i];
  }
  free(corr);
  free(pts);
  free(us);
}

/* ---- checking, dumping and timing the Jacobian ------------------------------------------- */

/* The residuals as a function of the Jacobian's column variables x (ncols of them). */
typedef void (*ht_residuals_fn)(const ht_data *d, const double *x, double *err);

/* Checks the Jacobian J (given as ncols columns of m entries) against central differences of
 * f, every column, and prints the "check" record; returns 0 when it passed (1e-6 relative in the
 * Frobenius norm).  Cheap: 2 * ncols evaluations of the residuals. */
static int ht_check(const char *bench, const ht_data *d, ht_residuals_fn f, const double *x0,
                    int ncols, double *const *cols, long m) {
  double *x = ht_alloc((size_t)ncols, sizeof(double));
  double *ep = ht_alloc((size_t)m, sizeof(double)), *em = ht_alloc((size_t)m, sizeof(double));
  double num = 0, den = 0;
  for (int j = 0; j < ncols; j++) {
    double h = 1e-6 * (fabs(x0[j]) > 1 ? fabs(x0[j]) : 1.0);
    memcpy(x, x0, sizeof(double) * (size_t)ncols);
    x[j] = x0[j] + h;
    f(d, x, ep);
    x[j] = x0[j] - h;
    f(d, x, em);
    for (long i = 0; i < m; i++) {
      double fd = (ep[i] - em[i]) / (2 * h);
      num += (cols[j][i] - fd) * (cols[j][i] - fd);
      den += fd * fd;
    }
  }
  free(x);
  free(ep);
  free(em);
  double err = den > 0 ? sqrt(num / den) : sqrt(num);
  char against[96];
  snprintf(against, sizeof against, "central differences, all %d columns (Frobenius norm)", ncols);
  return bench_report_check(bench, d->n, cols[0][0], err, 1e-6, against);
}

/* Writes the Jacobian row-major (m x ncols) to path. */
static int ht_dump(const char *path, double *const *cols, int ncols, long m) {
  double *rows = ht_alloc((size_t)m * (size_t)ncols, sizeof(double));
  for (long i = 0; i < m; i++)
    for (int j = 0; j < ncols; j++) rows[i * ncols + j] = cols[j][i];
  int rc = bench_dump(path, rows, m * ncols);
  free(rows);
  return rc;
}

#endif
