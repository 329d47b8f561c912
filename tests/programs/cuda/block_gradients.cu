// Gradient kernels whose differentiated device functions work as a block: __shared__ arrays,
// __syncthreads(), atomicAdd, reads of one address by every thread (a weight), device-function
// calls, loops and branches, libm math; in float and double (templates, kernels named `_f64`/`_f32`).  Each `NAME_grad`
// kernel has its primal `NAME_primal` beside it; tests/test_cuda_gradients.py checks the
// derivatives on the CPU path against central finite differences of the primal kernel, with
// several blocks and block sizes (at most 256 threads: the shared arrays' size).

extern __device__ void __enzyme_autodiff(void *, ...);
extern __device__ void __enzyme_fwddiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;

#define INDEX (blockIdx.x * blockDim.x + threadIdx.x)
#define MAXB 256

// ---- a per-block tree reduction through shared memory: out += (sum of the block's f(x))^2 ------

template <typename T> __device__ T act(T v) { return v * v + sin(v); }

template <typename T> __device__ void block_square(const T *x, T *out, int n) {
  __shared__ T s[MAXB];
  int i = INDEX;
  s[threadIdx.x] = i < n ? act(x[i]) : T(0);
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, s[0] * s[0]);
}
#define BLOCK_SQUARE(T, S)                                                                          \
  extern "C" __global__ void block_square_primal_##S(const T *x, T *out, int n) { block_square(x, out, n); }   \
  extern "C" __global__ void block_square_grad_##S(const T *x, T *dx, T *out, T *dout, int n) {              \
    __enzyme_autodiff((void *)block_square<T>, enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, n);     \
  }
BLOCK_SQUARE(double, f64)
BLOCK_SQUARE(float, f32)

// ---- weights every thread reads (adjoints at one address in the whole block) ------------------

// With __restrict__ the adjoints of w are summed per block before one atomic update each (on
// NVPTX: across the warp by shuffles) and each thread adds into its own dx[i] plainly; without,
// w might be y, whose adjoints the reverse reads back, and every addition is atomic.
// (Not a template: clang infers no `nocapture` for an instantiation's parameters, and an argument
// that may be captured is not known to be the only way to its memory.)
#define WEIGHTED_FN(T, S)                                                                           \
  __device__ void weighted_##S(const T *__restrict__ x, const T *__restrict__ w, T *__restrict__ y, int n) { \
    int i = INDEX;                                                                                  \
    if (i < n) y[i] = w[0] * sin(x[i]) + w[1] * x[i] * x[i] + exp(w[2] * x[i]);                   \
  }
WEIGHTED_FN(double, f64)
WEIGHTED_FN(float, f32)
__device__ void weighted_alias(const double *x, const double *w, double *y, int n) {
  int i = INDEX;
  if (i < n) y[i] = w[0] * sin(x[i]) + w[1] * x[i] * x[i] + exp(w[2] * x[i]);
}
extern "C" __global__ void weighted_alias_grad(const double *x, double *dx, const double *w, double *dw, double *y,
                                               double *dy, int n) {
  __enzyme_autodiff((void *)weighted_alias, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, y, dy, enzyme_const, n);
}
#define WEIGHTED(T, S)                                                                              \
  extern "C" __global__ void weighted_primal_##S(const T *x, const T *w, T *y, int n) { weighted_##S(x, w, y, n); } \
  extern "C" __global__ void weighted_grad_##S(const T *x, T *dx, const T *w, T *dw, T *y, T *dy, int n) {     \
    __enzyme_autodiff((void *)weighted_##S, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_dup, y, dy,           \
                      enzyme_const, n);                                                                       \
  }
WEIGHTED(double, f64)
WEIGHTED(float, f32)

// ---- scatter with atomics: bins[idx[i]] += x[i]^3 ---------------------------------------------

__device__ void scatter(const double *x, const int *idx, double *bins, int n) {
  int i = INDEX;
  if (i < n) atomicAdd(&bins[idx[i]], x[i] * x[i] * x[i]);
}
extern "C" __global__ void scatter_primal(const double *x, const int *idx, double *bins, int n) {
  scatter(x, idx, bins, n);
}
extern "C" __global__ void scatter_grad(const double *x, double *dx, const int *idx, double *bins, double *dbins,
                                        int n) {
  __enzyme_autodiff((void *)scatter, enzyme_dup, x, dx, enzyme_const, idx, enzyme_dup, bins, dbins, enzyme_const, n);
}

// ---- a stencil through a shared tile with halos -----------------------------------------------

__device__ double edge(const double *x, int i, int n) { return i >= 0 && i < n ? x[i] : 0.0; }
__device__ void tile_stencil(const double *x, double *y, int n) {
  __shared__ double t[MAXB + 2];
  int i = INDEX, l = threadIdx.x + 1;
  t[l] = edge(x, i, n);
  if (threadIdx.x == 0) t[0] = edge(x, i - 1, n);
  if (threadIdx.x == blockDim.x - 1) t[l + 1] = edge(x, i + 1, n);
  __syncthreads();
  if (i < n) y[i] = t[l - 1] * t[l + 1] + cos(t[l]) * t[l] - 0.5 * tanh(t[l + 1] - t[l - 1]);
}
extern "C" __global__ void tile_stencil_primal(const double *x, double *y, int n) { tile_stencil(x, y, n); }
extern "C" __global__ void tile_stencil_grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)tile_stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

extern "C" __global__ void tile_stencil_tangent(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_fwddiff((void *)tile_stencil, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// ---- softmax of each block's values: two reductions (max, sum) through shared memory ----------

__device__ void block_softmax(const double *x, double *y, int n) {
  __shared__ double s[MAXB];
  __shared__ double m, z;
  int i = INDEX;
  double v = i < n ? x[i] : -1e300;
  s[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double best = s[0];
    for (int k = 1; k < blockDim.x; k++) best = fmax(best, s[k]);
    m = best;
  }
  __syncthreads();
  double e = i < n ? exp(v - m) : 0.0;
  s[threadIdx.x] = e;
  __syncthreads();
  if (threadIdx.x == 0) {
    double sum = 0.0;
    for (int k = 0; k < blockDim.x; k++) sum += s[k];
    z = sum;
  }
  __syncthreads();
  if (i < n) y[i] = e / z;
}
extern "C" __global__ void block_softmax_primal(const double *x, double *y, int n) { block_softmax(x, y, n); }
extern "C" __global__ void block_softmax_grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)block_softmax, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// ---- device-function calls (not inlined), a per-thread loop with branches, then a barrier -----

__device__ __noinline__ double poly(double v, int degree) {
  double r = 0.0;
  for (int k = degree; k >= 0; k--) r = r * v + (k % 2 ? 0.5 : -1.0 / (k + 1));
  return r;
}
__device__ __noinline__ double step(double v, int k) {
  if (v > 0.5) return v - 0.1 * log1p(v * v);
  return k % 2 ? v * cosh(0.3 * v) : sqrt(v * v + 1.0) - 0.5;
}
__device__ void branchy(const double *x, double *y, const int *iters, int n) {
  __shared__ double s[MAXB];
  int i = INDEX;
  double v = i < n ? x[i] : 0.0;
  for (int k = 0; k < (i < n ? iters[i] : 0); k++) v = step(v, k);
  s[threadIdx.x] = poly(v, 3);
  __syncthreads();
  int j = (threadIdx.x + 1) % blockDim.x;  // the next thread's value, around the block
  if (i < n) y[i] = s[threadIdx.x] * s[j] + (s[j] > 0.0 ? pow(s[j], 2.5) : atan(s[j]));
}
extern "C" __global__ void branchy_primal(const double *x, double *y, const int *iters, int n) {
  branchy(x, y, iters, n);
}
extern "C" __global__ void branchy_grad(const double *x, double *dx, double *y, double *dy, const int *iters, int n) {
  __enzyme_autodiff((void *)branchy, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, iters, enzyme_const, n);
}

extern "C" __global__ void block_softmax_tangent(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_fwddiff((void *)block_softmax, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// ---- dynamic shared memory (extern __shared__): each block's values reversed, squared ---------

__device__ void flip(const double *x, double *y, int n) {
  extern __shared__ double d[];
  int i = INDEX;
  d[threadIdx.x] = i < n ? x[i] : 0.0;
  __syncthreads();
  double v = d[blockDim.x - 1 - threadIdx.x];
  if (i < n) y[i] = v * v * d[threadIdx.x];
}
extern "C" __global__ void flip_primal(const double *x, double *y, int n) { flip(x, y, n); }
extern "C" __global__ void flip_tangent(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_fwddiff((void *)flip, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
extern "C" __global__ void flip_grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)flip, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// ---- tiled matrix product on a 2-D grid: shared tiles of A and B, two barriers per tile --------

#define T8 8
__device__ void matmul(const double *A, const double *B, double *C, int n, int k, int m) {
  __shared__ double a[T8][T8], b[T8][T8];
  int row = blockIdx.y * T8 + threadIdx.y, col = blockIdx.x * T8 + threadIdx.x;
  double sum = 0.0;
  for (int t = 0; t < (k + T8 - 1) / T8; t++) {
    int ka = t * T8 + threadIdx.x, kb = t * T8 + threadIdx.y;
    a[threadIdx.y][threadIdx.x] = row < n && ka < k ? A[row * k + ka] : 0.0;
    b[threadIdx.y][threadIdx.x] = kb < k && col < m ? B[kb * m + col] : 0.0;
    __syncthreads();
    for (int j = 0; j < T8; j++) sum += a[threadIdx.y][j] * b[j][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < m) C[row * m + col] = sum;
}
extern "C" __global__ void matmul_primal(const double *A, const double *B, double *C, int n, int k, int m) {
  matmul(A, B, C, n, k, m);
}
extern "C" __global__ void matmul_grad(const double *A, double *dA, const double *B, double *dB, double *C, double *dC,
                                       int n, int k, int m) {
  __enzyme_autodiff((void *)matmul, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup, C, dC, enzyme_const, n,
                    enzyme_const, k, enzyme_const, m);
}

// ---- __device__ globals: their shadows are zero as each gradient launch starts ----------------

#define NBLOCKS 64
__device__ double block_total[NBLOCKS];  // one per block, summed by its threads' atomics
__device__ double prev[1024];            // each element's value from the previous step

// y[i] = sin(x[i]) * (sum over the block of x^2): the sum goes through a device global, read
// after a barrier.  The adjoint of that read stays in the global's shadow after the reverse
// (an atomic addition passes it on): a second launch must not find it there.
__device__ void block_total_fn(const double *x, double *y, int n) {
  int i = INDEX;
  if (i < n) atomicAdd(&block_total[blockIdx.x], x[i] * x[i]);
  __syncthreads();
  if (i < n) y[i] = sin(x[i]) * block_total[blockIdx.x];
}
extern "C" __global__ void block_total_reset() {
  if (threadIdx.x == 0) block_total[blockIdx.x] = 0.0;
}
extern "C" __global__ void block_total_primal(const double *x, double *y, int n) { block_total_fn(x, y, n); }
extern "C" __global__ void block_total_grad(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)block_total_fn, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// Two steps reading the previous value and writing the new one: the adjoint of the value read
// is left in prev's shadow (nothing earlier wrote it), where the next launch's reverse of the
// write would take it.
__device__ void step_a(const double *x, double *y, int i) {
  y[i] = prev[i] * x[i] + sin(x[i]);
  prev[i] = x[i] * x[i];
}
__device__ void step_b(const double *x, double *y, int i) {
  y[i] = exp(prev[i]) * x[i];
  prev[i] = cos(x[i]);
}
extern "C" __global__ void prev_set(const double *p, int n) {
  int i = INDEX;
  if (i < n) prev[i] = p[i];
}
extern "C" __global__ void step_a_primal(const double *x, double *y, int n) {
  int i = INDEX;
  if (i < n) step_a(x, y, i);
}
extern "C" __global__ void step_b_primal(const double *x, double *y, int n) {
  int i = INDEX;
  if (i < n) step_b(x, y, i);
}
extern "C" __global__ void step_a_grad(const double *x, double *dx, double *y, double *dy, int n) {
  int i = INDEX;
  if (i < n) __enzyme_autodiff((void *)step_a, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, i);
}
extern "C" __global__ void step_b_grad(const double *x, double *dx, double *y, double *dy, int n) {
  int i = INDEX;
  if (i < n) __enzyme_autodiff((void *)step_b, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, i);
}
extern "C" __global__ void step_a_fwd(const double *x, const double *tx, double *y, double *ty, int n) {
  int i = INDEX;
  if (i < n) __enzyme_fwddiff((void *)step_a, enzyme_dup, x, tx, enzyme_dup, y, ty, enzyme_const, i);
}
