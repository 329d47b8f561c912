// GPU kernels for benchmarks/gpu_kernels.py, in the spirit of the SC'21 evaluation of AD of GPU
// kernels: a stencil, n-body with shared tiles, an LBM-style streaming and collision step and an
// XSBench-style cross-section lookup.  Each `NAME_primal` kernel runs a __device__ function that
// `NAME_grad` differentiates (Enzyme's CUDA convention); the benchmark times both on the CPU path
// of xenzyme.cuda (and on a GPU where there is one) after checking the gradient against central
// differences of the primal.

extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

// ---- stencil: one explicit step of u_t = k lap(u) - u^3 on a 2-D grid (2-D blocks) -----------

__device__ void heat(const double *__restrict__ u, double *__restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  double c = u[i];
  double l = x > 0 ? u[i - 1] : c, r = x + 1 < w ? u[i + 1] : c;
  double d = y > 0 ? u[i - w] : c, t = y + 1 < h ? u[i + w] : c;
  out[i] = c + 0.1 * (l + r + d + t - 4.0 * c) - 0.01 * c * c * c;
}
extern "C" __global__ void heat_primal(const double *u, double *out, int w, int h) { heat(u, out, w, h); }
extern "C" __global__ void heat_grad(const double *u, double *du, double *out, double *dout, int w, int h) {
  __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_dup, out, dout, enzyme_const, w, enzyme_const, h);
}

// ---- n-body: accelerations from all pairs, positions and masses through shared tiles ---------

#define TILE 64
__device__ void nbody(const double *__restrict__ pos, double *__restrict__ acc, int n) {
  __shared__ double tile[TILE * 4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double px = 0.0, py = 0.0, pz = 0.0, ax = 0.0, ay = 0.0, az = 0.0;
  if (i < n) px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
  for (int start = 0; start < n; start += TILE) {
    int j = start + threadIdx.x;
    for (int c = 0; c < 4; c++) tile[4 * threadIdx.x + c] = j < n ? pos[4 * j + c] : 0.0;
    __syncthreads();
    for (int k = 0; k < TILE && start + k < n; k++) {
      double dx = tile[4 * k] - px, dy = tile[4 * k + 1] - py, dz = tile[4 * k + 2] - pz;
      double r2 = dx * dx + dy * dy + dz * dz + 0.01;
      double s = tile[4 * k + 3] / (r2 * sqrt(r2));
      ax += dx * s, ay += dy * s, az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) acc[3 * i] = ax, acc[3 * i + 1] = ay, acc[3 * i + 2] = az;
}
extern "C" __global__ void nbody_primal(const double *pos, double *acc, int n) { nbody(pos, acc, n); }
extern "C" __global__ void nbody_grad(const double *pos, double *dpos, double *acc, double *dacc, int n) {
  __enzyme_autodiff((void *)nbody, enzyme_dup, pos, dpos, enzyme_dup, acc, dacc, enzyme_const, n);
}

// ---- LBM-style: D1Q3 streaming (periodic) and BGK collision, one step -----------------------

__device__ void lbm(const double *__restrict__ f, double *__restrict__ g, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double w[3] = {4.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0}, omega = 1.2;
  double f0 = f[i], f1 = f[n + (i + n - 1) % n], f2 = f[2 * n + (i + 1) % n];  // streamed in
  double rho = f0 + f1 + f2, u = (f1 - f2) / rho;
  double base = 1.0 - 1.5 * u * u;
  g[i] = f0 - omega * (f0 - w[0] * rho * base);
  g[n + i] = f1 - omega * (f1 - w[1] * rho * (base + 3.0 * u + 4.5 * u * u));
  g[2 * n + i] = f2 - omega * (f2 - w[2] * rho * (base - 3.0 * u + 4.5 * u * u));
}
extern "C" __global__ void lbm_primal(const double *f, double *g, int n) { lbm(f, g, n); }
extern "C" __global__ void lbm_grad(const double *f, double *df, double *g, double *dg, int n) {
  __enzyme_autodiff((void *)lbm, enzyme_dup, f, df, enzyme_dup, g, dg, enzyme_const, n);
}

// ---- XSBench-style: macroscopic cross sections by a binary search in an energy grid ----------
// Each lookup (energy e[i], material mat[i]) finds e in the sorted grid, interpolates the cross
// section of every nuclide of the material and sums them weighted by their concentrations; the
// gradient is with respect to the cross-section table (adjoints scattered to data-dependent
// addresses, atomically) and the concentrations.

#define NUC 8
__device__ void xs_lookup(const double *__restrict__ grid, const double *__restrict__ xs,
                          const double *__restrict__ conc, const double *__restrict__ e, const int *__restrict__ mat,
                          double *__restrict__ out, int n, int points) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double energy = e[i];
  int lo = 0, hi = points - 1;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (grid[mid] > energy) hi = mid;
    else lo = mid;
  }
  double t = (energy - grid[lo]) / (grid[hi] - grid[lo]);
  double total = 0.0;
  for (int k = 0; k < NUC; k++) {
    double a = xs[k * points + lo], b = xs[k * points + hi];
    total += conc[mat[i] * NUC + k] * (a + t * (b - a));
  }
  out[i] = total;
}
extern "C" __global__ void xs_primal(const double *grid, const double *xs, const double *conc, const double *e,
                                     const int *mat, double *out, int n, int points) {
  xs_lookup(grid, xs, conc, e, mat, out, n, points);
}
extern "C" __global__ void xs_grad(const double *grid, const double *xs, double *dxs, const double *conc,
                                   double *dconc, const double *e, const int *mat, double *out, double *dout, int n,
                                   int points) {
  __enzyme_autodiff((void *)xs_lookup, enzyme_const, grid, enzyme_dup, xs, dxs, enzyme_dup, conc, dconc,
                    enzyme_const, e, enzyme_const, mat, enzyme_dup, out, dout, enzyme_const, n, enzyme_const,
                    points);
}

// ---- what combining per block gains: every thread reads the same few weights ----------------
// `fit` with __restrict__ pointers: the weights' adjoints are summed per block (on NVPTX across
// the warp by shuffles) before one atomic update each, and x's adjoints are plain additions;
// `fit_atomic` is the same code without __restrict__ (w might be y, whose adjoints the reverse
// reads back), where every addition is atomic.

#define FIT_BODY                                                                                  \
  int i = blockIdx.x * blockDim.x + threadIdx.x;                                                  \
  if (i < n) y[i] = tanh(w[0] * x[i] + w[1]) * w[2] + w[3] * x[i];
__device__ void fit(const double *__restrict__ x, const double *__restrict__ w, double *__restrict__ y, int n) {
  FIT_BODY
}
__device__ void fit_atomic(const double *x, const double *w, double *y, int n) { FIT_BODY }
extern "C" __global__ void fit_primal(const double *x, const double *w, double *y, int n) { fit(x, w, y, n); }
extern "C" __global__ void fit_grad(const double *x, double *dx, const double *w, double *dw, double *y, double *dy,
                                    int n) {
  __enzyme_autodiff((void *)fit, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, y, dy, enzyme_const, n);
}
extern "C" __global__ void fit_atomic_grad(const double *x, double *dx, const double *w, double *dw, double *y,
                                           double *dy, int n) {
  __enzyme_autodiff((void *)fit_atomic, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, y, dy, enzyme_const, n);
}
