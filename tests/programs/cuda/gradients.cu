// Gradient kernels in Enzyme's CUDA convention for tests/test_cuda.py: a __global__ kernel calls
// __enzyme_autodiff / __enzyme_fwddiff on a __device__ function (no barrier, no shared memory, no
// atomics).  Each has its primal kernel beside it; the test checks the derivatives on the CPU
// against central finite differences of the primal kernel.

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_autodiff(void *, double);           // one active scalar
extern __device__ double __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const, enzyme_dupnoneed;

#define INDEX (blockIdx.x * blockDim.x + threadIdx.x)

// ---- elementwise math, f64: each thread differentiates its own element ------------------------

__device__ void ew(const double *x, double *y, int i) {
  double v = x[i];
  y[i] = sin(v) * exp(v) + log(1.0 + v * v) + sqrt(v + 2.0) * tanh(v) + pow(v + 1.0, 1.5);
}
extern "C" __global__ void ew_primal(const double *x, double *y, int n) {
  int i = INDEX;
  if (i < n) ew(x, y, i);
}
extern "C" __global__ void ew_grad(const double *x, double *dx, double *y, double *dy, int n) {
  int i = INDEX;
  if (i < n) __enzyme_autodiff((void *)ew, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, i);
}

// ---- float32 ----------------------------------------------------------------------------------

__device__ void ew_f32(const float *x, float *y, int i) {
  float v = x[i];
  y[i] = expf(-v * v) * cosf(3.0f * v) + v / (1.0f + fabsf(v)) + fmaf(v, v, 1.0f) * logf(2.0f + v);
}
extern "C" __global__ void ew_f32_primal(const float *x, float *y, int n) {
  int i = INDEX;
  if (i < n) ew_f32(x, y, i);
}
extern "C" __global__ void ew_f32_grad(const float *x, float *dx, float *y, float *dy, int n) {
  int i = INDEX;
  if (i < n) __enzyme_autodiff((void *)ew_f32, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, i);
}

// ---- the differentiated function reads the thread ids itself ---------------------------------

__device__ void by_tid(const double *x, double *y, int n) {
  int i = INDEX;
  if (i < n) y[i] = x[i] * x[i] * cos(x[i]);
}
extern "C" __global__ void by_tid_primal(const double *x, double *y, int n) { by_tid(x, y, n); }
extern "C" __global__ void by_tid_grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)by_tid, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// ---- neighbours: threads read each other's inputs (their adjoints meet in dx) ----------------

__device__ void diffusion(const double *x, double *y, int n) {
  int i = INDEX;
  if (i >= n) return;
  double l = i > 0 ? x[i - 1] : 0.0, r = i + 1 < n ? x[i + 1] : 0.0;
  y[i] = x[i] * x[i] + 0.5 * l * r - sin(l - r);
}
extern "C" __global__ void diffusion_primal(const double *x, double *y, int n) { diffusion(x, y, n); }
extern "C" __global__ void diffusion_grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)diffusion, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// ---- a per-thread loop with a data-dependent trip count --------------------------------------

__device__ void iterate(const double *x, double *y, const int *steps, int i) {
  double v = x[i];
  for (int k = 0; k < steps[i]; k++) v = v - 0.3 * sin(v) + 0.01 * v * v;
  y[i] = v;
}
extern "C" __global__ void iterate_primal(const double *x, double *y, const int *steps, int n) {
  int i = INDEX;
  if (i < n) iterate(x, y, steps, i);
}
extern "C" __global__ void iterate_grad(const double *x, double *dx, double *y, double *dy, const int *steps, int n) {
  int i = INDEX;
  if (i < n) __enzyme_autodiff((void *)iterate, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, steps, enzyme_const, i);
}

// ---- an active scalar: the derivative is returned, each thread stores its own -----------------

__device__ double bump(double v) { return v * v * exp(-v) + atan(v); }
extern "C" __global__ void bump_primal(const double *x, double *y, int n) {
  int i = INDEX;
  if (i < n) y[i] = bump(x[i]);
}
extern "C" __global__ void bump_grad(const double *x, double *dx, int n) {
  int i = INDEX;
  if (i < n) dx[i] = __enzyme_autodiff((void *)bump, x[i]);
}

// ---- forward mode: tangents of a 2-D grid of points ----------------------------------------

__device__ double field(double a, double b) { return sin(a) * cos(b) + a * b * b; }
extern "C" __global__ void field_primal(const double *a, const double *b, double *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = field(a[y * w + x], b[y * w + x]);
}
extern "C" __global__ void field_tangent(const double *a, const double *da, const double *b, const double *db,
                                         double *dout, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    int k = y * w + x;
    dout[k] = __enzyme_fwddiff((void *)field, a[k], da[k], b[k], db[k]);
  }
}

// ---- forward mode through an atomic: the tangents are added atomically too -------------------

__device__ void sum_squares(const double *x, double *sum, int n) {
  int i = INDEX;
  if (i < n) atomicAdd(sum, x[i] * x[i] * x[i]);
}
extern "C" __global__ void sum_squares_primal(const double *x, double *sum, int n) { sum_squares(x, sum, n); }
extern "C" __global__ void sum_squares_tangent(const double *x, const double *dx, double *sum, double *dsum, int n) {
  __enzyme_fwddiff((void *)sum_squares, enzyme_dup, x, dx, enzyme_dup, sum, dsum, enzyme_const, n);
}

// ---- a grid-stride loop, a device function that reads the thread ids (not inlined), two active
// ---- inputs of pow ----------------------------------------------------------------------------

__device__ __noinline__ int first_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ void strided(const double *x, const double *e, double *y, int n) {
  for (int i = first_index(); i < n; i += blockDim.x * gridDim.x) y[i] = pow(x[i] + 1.0, e[i]);
}
extern "C" __global__ void strided_primal(const double *x, const double *e, double *y, int n) { strided(x, e, y, n); }
extern "C" __global__ void strided_grad(const double *x, double *dx, const double *e, double *de, double *y, double *dy,
                                        int n) {
  __enzyme_autodiff((void *)strided, enzyme_dup, x, dx, enzyme_dup, e, de, enzyme_dup, y, dy, enzyme_const, n);
}
