/* ADBench bundle adjustment (BA): the residuals of n cameras, m points and p observations, and
 * their sparse Jacobian, one observation at a time by reverse passes (__enzyme_autodiff).
 *
 * A camera has 11 parameters: angle-axis rotation r (3), centre C (3), focal length f,
 * principal point x0 (2), radial distortion k1, k2.  Observation i sees point i mod m from camera
 * i mod n, with weight w_i and feature u_i (BENCHMARKS.md):
 *
 *   Y = rotate(r, X - C)          Rodrigues' formula; Y = X' + r x X' when |r|^2 = 0
 *   q = Y[0..1] / Y[2];  s = |q|^2;  proj = f (1 + k1 s + k2 s^2) q + x0
 *   reprojection residual  w_i (proj - u_i)   (2 values)
 *   weight residual        1 - w_i^2          (1 value)
 *
 * The Jacobian has a 2 x 15 block per observation (its camera's 11 parameters, its point's 3,
 * its weight) and one entry per weight residual; the gradient call computes all of them: for each
 * observation two reverse passes through the reprojection residual (seeds (1, 0) and (0, 1)) and
 * one through the weight residual.  The DUMP file holds the blocks (row-major, observation by
 * observation: 30 values each), then the p weight derivatives.
 *
 * The instance file has n, m, p and one camera, point, weight and feature, replicated to those
 * sizes as ADBench does.  N is the number of observations p (the file's n and m stay).  Before
 * timing, each block is checked against central differences along three random directions
 * (1e-5 relative, 2-norm); XENZYME_BENCH_MODE=fd makes the program the finite-difference peer
 * (adbench.h): every column of every block by central differences.
 */
#include "adbench.h"

extern double __enzyme_autodiff(void *, ...);

#define BA_DEFAULT_INPUT "ba/ba1_n49_m7776_p31843.txt"
#define BA_NCAM 11
#define BA_BLOCK (2 * (BA_NCAM + 3 + 1))

/* ---- the objective ------------------------------------------------------------------------ */

static void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Rotates x by the angle-axis vector r (Rodrigues' formula). */
static void rodrigues_rotate(const double *r, const double *x, double *out) {
  double sqtheta = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  if (sqtheta != 0) {
    double theta = sqrt(sqtheta), c = cos(theta), s = sin(theta);
    double a[3] = {r[0] / theta, r[1] / theta, r[2] / theta}, axx[3];
    cross(a, x, axx);
    double t = (a[0] * x[0] + a[1] * x[1] + a[2] * x[2]) * (1 - c);
    for (int i = 0; i < 3; i++) out[i] = x[i] * c + axx[i] * s + a[i] * t;
  } else {
    double rxx[3];
    cross(r, x, rxx);
    for (int i = 0; i < 3; i++) out[i] = x[i] + rxx[i];
  }
}

static void project(const double *cam, const double *X, double *proj) {
  double xc[3] = {X[0] - cam[3], X[1] - cam[4], X[2] - cam[5]}, y[3];
  rodrigues_rotate(cam, xc, y);
  double q0 = y[0] / y[2], q1 = y[1] / y[2];
  double s = q0 * q0 + q1 * q1;
  double l = 1 + cam[9] * s + cam[10] * s * s;
  proj[0] = cam[6] * l * q0 + cam[7];
  proj[1] = cam[6] * l * q1 + cam[8];
}

void ba_reproj_error(const double *cam, const double *X, const double *w, const double *feat,
                     double *err) {
  double proj[2];
  project(cam, X, proj);
  err[0] = *w * (proj[0] - feat[0]);
  err[1] = *w * (proj[1] - feat[1]);
}

double ba_weight_error(double w) { return 1 - w * w; }

/* All residuals: reprojection errors (2 p) and weight errors (p). */
void ba_objective(long n, long m, long p, const double *cams, const double *X, const double *w,
                  const int *obs, const double *feats, double *reproj_err, double *w_err) {
  (void)n, (void)m;
  for (long i = 0; i < p; i++)
    ba_reproj_error(cams + BA_NCAM * obs[2 * i], X + 3 * obs[2 * i + 1], w + i, feats + 2 * i,
                    reproj_err + 2 * i);
  for (long i = 0; i < p; i++) w_err[i] = ba_weight_error(w[i]);
}

/* ---- the instance ------------------------------------------------------------------------- */

typedef struct {
  long n, m, p;
  double *cams, *X, *w, *feats;
  int *obs;
  double *reproj_err, *w_err;
  double *J;  /* p blocks of 2 x 15 (camera 11 | point 3 | weight 1), row-major */
  double *Jw; /* p weight derivatives */
} ba_t;

static void ba_read(const char *path, long p, ba_t *b) {
  adb_reader r = adb_open(path);
  b->n = adb_long(&r);
  b->m = adb_long(&r);
  adb_long(&r); /* the file's p; N decides */
  b->p = p;
  double cam[BA_NCAM], x[3], w, feat[2];
  for (int j = 0; j < BA_NCAM; j++) cam[j] = adb_double(&r);
  for (int j = 0; j < 3; j++) x[j] = adb_double(&r);
  w = adb_double(&r);
  feat[0] = adb_double(&r);
  feat[1] = adb_double(&r);
  fclose(r.f);
  b->cams = adb_alloc((size_t)(BA_NCAM * b->n), sizeof(double));
  b->X = adb_alloc((size_t)(3 * b->m), sizeof(double));
  b->w = adb_alloc((size_t)p, sizeof(double));
  b->feats = adb_alloc((size_t)(2 * p), sizeof(double));
  b->obs = adb_alloc((size_t)(2 * p), sizeof(int));
  for (long i = 0; i < b->n; i++) memcpy(b->cams + BA_NCAM * i, cam, sizeof cam);
  for (long i = 0; i < b->m; i++) memcpy(b->X + 3 * i, x, sizeof x);
  for (long i = 0; i < p; i++) {
    b->w[i] = w;
    b->feats[2 * i] = feat[0];
    b->feats[2 * i + 1] = feat[1];
    b->obs[2 * i] = (int)(i % b->n);
    b->obs[2 * i + 1] = (int)(i % b->m);
  }
  b->reproj_err = adb_alloc((size_t)(2 * p), sizeof(double));
  b->w_err = adb_alloc((size_t)p, sizeof(double));
  b->J = adb_alloc((size_t)(BA_BLOCK * p), sizeof(double));
  b->Jw = adb_alloc((size_t)p, sizeof(double));
}

static void ba_residuals(ba_t *b) {
  ba_objective(b->n, b->m, b->p, b->cams, b->X, b->w, b->obs, b->feats, b->reproj_err, b->w_err);
}

/* The Jacobian: per observation, one reverse pass per reprojection residual, one for the weight. */
static void ba_jacobian(ba_t *b) {
  for (long i = 0; i < b->p; i++) {
    const double *cam = b->cams + BA_NCAM * b->obs[2 * i], *X = b->X + 3 * b->obs[2 * i + 1];
    double *row = b->J + BA_BLOCK * i;
    for (int k = 0; k < 2; k++) {
      double *dcam = row + 15 * k, *dX = dcam + BA_NCAM, *dw = dX + 3;
      double err[2], derr[2] = {k == 0, k == 1};
      memset(dcam, 0, sizeof(double) * 15);
      __enzyme_autodiff((void *)ba_reproj_error, enzyme_dup, cam, dcam, enzyme_dup, X, dX,
                        enzyme_dup, b->w + i, dw, enzyme_const, b->feats + 2 * i,
                        enzyme_dupnoneed, err, derr);
    }
    b->Jw[i] = __enzyme_autodiff((void *)ba_weight_error, b->w[i]);
  }
}

/* The residuals of observation i as a function of its 15 inputs (camera, point, weight). */
static void ba_block_residual(const ba_t *b, long i, const double *in, double *err) {
  ba_reproj_error(in, in + BA_NCAM, in + BA_NCAM + 3, b->feats + 2 * i, err);
}

static void ba_block_inputs(const ba_t *b, long i, double *in) {
  memcpy(in, b->cams + BA_NCAM * b->obs[2 * i], sizeof(double) * BA_NCAM);
  memcpy(in + BA_NCAM, b->X + 3 * b->obs[2 * i + 1], sizeof(double) * 3);
  in[BA_NCAM + 3] = b->w[i];
}

/* The whole Jacobian by central differences, column by column of every block. */
static void ba_fd_jacobian(const ba_t *b, double *J, double *Jw) {
  for (long i = 0; i < b->p; i++) {
    double in[15], ep[2], em[2];
    ba_block_inputs(b, i, in);
    for (int j = 0; j < 15; j++) {
      double x = in[j], h = adb_step(x);
      in[j] = x + h;
      ba_block_residual(b, i, in, ep);
      in[j] = x - h;
      ba_block_residual(b, i, in, em);
      in[j] = x;
      for (int k = 0; k < 2; k++) J[BA_BLOCK * i + 15 * k + j] = (ep[k] - em[k]) / (2 * h);
    }
    double h = adb_step(b->w[i]);
    Jw[i] = (ba_weight_error(b->w[i] + h) - ba_weight_error(b->w[i] - h)) / (2 * h);
  }
}

typedef struct {
  ba_t *b;
  double *fdJ, *fdJw;
} ctx_t;

static void run_primal(void *p) {
  ctx_t *c = p;
  ba_residuals(c->b);
  bench_sink = c->b->reproj_err[0];
}

static void run_gradient(void *p) {
  ctx_t *c = p;
  ba_jacobian(c->b);
  bench_sink = c->b->J[0];
}

static void run_fd(void *p) {
  ctx_t *c = p;
  ba_fd_jacobian(c->b, c->fdJ, c->fdJw);
  bench_sink = c->fdJ[0];
}

int main(int argc, char **argv) {
  const char *path = adb_input(BA_DEFAULT_INPUT);
  adb_reader r = adb_open(path); /* the default N is the file's p */
  adb_long(&r);
  adb_long(&r);
  long p_file = adb_long(&r);
  fclose(r.f);
  bench_args a = bench_parse(argc, argv, p_file);
  ba_t b;
  ba_read(path, a.n, &b);
  ctx_t c = {&b, NULL, NULL};
  ba_residuals(&b);
  ba_jacobian(&b);
  int fd = adb_fd_mode();

  if (fd) {
    c.fdJ = adb_alloc((size_t)(BA_BLOCK * b.p), sizeof(double));
    c.fdJw = adb_alloc((size_t)b.p, sizeof(double));
    ba_fd_jacobian(&b, c.fdJ, c.fdJw);
    double num = 0, den = 0;
    for (long i = 0; i < BA_BLOCK * b.p; i++) {
      num += (b.J[i] - c.fdJ[i]) * (b.J[i] - c.fdJ[i]);
      den += c.fdJ[i] * c.fdJ[i];
    }
    for (long i = 0; i < b.p; i++) {
      num += (b.Jw[i] - c.fdJw[i]) * (b.Jw[i] - c.fdJw[i]);
      den += c.fdJw[i] * c.fdJw[i];
    }
    if (bench_report_check("ba", a.n, b.reproj_err[0], sqrt(num / den), 1e-5,
                           "central differences in every column"))
      return 1;
  } else {
    /* Each block times three random directions against central differences of its residuals;
     * the weight derivatives against -2 w. */
    double num = 0, den = 0, h = 1e-6;
    uint64_t state = 5;
    for (long i = 0; i < b.p; i++) {
      double in[15], v[15], xp[15], xm[15], ep[2], em[2];
      ba_block_inputs(&b, i, in);
      for (int r = 0; r < 3; r++) {
        adb_direction(&state, v, 15);
        for (int j = 0; j < 15; j++) {
          xp[j] = in[j] + h * v[j];
          xm[j] = in[j] - h * v[j];
        }
        ba_block_residual(&b, i, xp, ep);
        ba_block_residual(&b, i, xm, em);
        for (int k = 0; k < 2; k++) {
          double jv = 0, fdv = (ep[k] - em[k]) / (2 * h);
          for (int j = 0; j < 15; j++) jv += b.J[BA_BLOCK * i + 15 * k + j] * v[j];
          num += (jv - fdv) * (jv - fdv);
          den += fdv * fdv;
        }
      }
      double gw = -2 * b.w[i];
      num += (b.Jw[i] - gw) * (b.Jw[i] - gw);
      den += gw * gw;
    }
    if (bench_report_check("ba", a.n, b.reproj_err[0], sqrt(num / den), 1e-5,
                           "central differences along 3 random directions per block"))
      return 1;
    if (a.dump) {
      double *all = adb_alloc((size_t)((BA_BLOCK + 1) * b.p), sizeof(double));
      memcpy(all, b.J, sizeof(double) * (size_t)(BA_BLOCK * b.p));
      memcpy(all + BA_BLOCK * b.p, b.Jw, sizeof(double) * (size_t)b.p);
      if (bench_dump(a.dump, all, (BA_BLOCK + 1) * b.p)) return 1;
      free(all);
    }
  }

  if (a.samples > 0) {
    bench_fn fns[] = {{"primal", run_primal, &c}, {"gradient", fd ? run_fd : run_gradient, &c}};
    bench_time("ba", a.n, a.samples, fns, 2);
  }
  return 0;
}
