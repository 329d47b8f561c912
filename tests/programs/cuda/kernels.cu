// Primal CUDA kernels for tests/test_cuda.py: run through xz.cuda on the CPU and checked against
// numpy, and emitted as PTX for ptxas.  Some are extern "C", others keep their C++ (mangled) names.

#define TILE 16
#define RADIUS 2

// ---- elementwise maps -------------------------------------------------------------------------

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void scale_shift(double *out, const double *x, double a, double b, int n) {  // mangled
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = a * x[i] + b;
}

extern "C" __global__ void math_f64(const double *x, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  out[6 * i + 0] = sin(v) + cos(v);
  out[6 * i + 1] = exp(v) * log(v + 2.0);
  out[6 * i + 2] = sqrt(v + 1.0);
  out[6 * i + 3] = pow(v + 1.0, 1.5);
  out[6 * i + 4] = tanh(v);
  out[6 * i + 5] = fma(v, v, 0.5);
}

extern "C" __global__ void math_f32(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  out[4 * i + 0] = sinf(v) * expf(v);
  out[4 * i + 1] = logf(v + 2.0f) + sqrtf(v + 1.0f);
  out[4 * i + 2] = powf(v + 1.0f, 2.5f) + tanhf(v);
  out[4 * i + 3] = fmaf(v, 3.0f, 1.0f) + rsqrtf(v + 1.0f) + fminf(v, 0.25f);
}

// ---- reductions and atomics -------------------------------------------------------------------

extern "C" __global__ void block_sum(const double *x, double *total, double *partial, int n) {
  __shared__ double buf[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? x[i] : 0.0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = buf[0];
    atomicAdd(total, buf[0]);
  }
}

extern "C" __global__ void scatter_add(const int *index, const float *value, float *bins, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[index[i]], value[i]);
    atomicAdd(&count[index[i]], 1);
  }
}

// One block per row: max and sum through shared memory, then the normalised row.
extern "C" __global__ void softmax(const double *x, double *y, int cols) {
  __shared__ double red[128];
  const double *row = x + blockIdx.x * cols;
  double *out = y + blockIdx.x * cols;
  int t = threadIdx.x;
  double m = -HUGE_VAL;
  for (int j = t; j < cols; j += blockDim.x) m = fmax(m, row[j]);
  red[t] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) red[t] = fmax(red[t], red[t + s]);
    __syncthreads();
  }
  double mx = red[0];
  __syncthreads();
  double sum = 0.0;
  for (int j = t; j < cols; j += blockDim.x) sum += exp(row[j] - mx);
  red[t] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    __syncthreads();
  }
  double total = red[0];
  for (int j = t; j < cols; j += blockDim.x) out[j] = exp(row[j] - mx) / total;
}

// ---- shared tiles -----------------------------------------------------------------------------

extern "C" __global__ void stencil_1d(const double *in, double *out, int n) {
  __shared__ double tile[256 + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0.0;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + blockDim.x;
    tile[l - RADIUS] = left >= 0 && left < n ? in[left] : 0.0;
    tile[l + blockDim.x] = right < n ? in[right] : 0.0;
  }
  __syncthreads();
  if (g < n) {
    double s = 0.0;
    for (int k = -RADIUS; k <= RADIUS; k++) s += (k + 3) * tile[l + k];
    out[g] = s;
  }
}

// 2-D grid and blocks: a 3x3 blur of a w x h image through a shared tile with a one-pixel halo
// (TILE x TILE pixels per block, whatever the block's shape).
extern "C" __global__ void blur_2d(const float *img, float *out, int w, int h) {
  __shared__ float tile[TILE + 2][TILE + 2];
  for (int dy = threadIdx.y; dy < TILE + 2; dy += blockDim.y)
    for (int dx = threadIdx.x; dx < TILE + 2; dx += blockDim.x) {
      int sx = blockIdx.x * TILE + dx - 1, sy = blockIdx.y * TILE + dy - 1;
      tile[dy][dx] = sx >= 0 && sx < w && sy >= 0 && sy < h ? img[sy * w + sx] : 0.0f;
    }
  __syncthreads();
  for (int ty = threadIdx.y; ty < TILE; ty += blockDim.y)
    for (int tx = threadIdx.x; tx < TILE; tx += blockDim.x) {
      int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
      if (x >= w || y >= h) continue;
      float s = 0.0f;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) s += tile[ty + a][tx + b];
      out[y * w + x] = s / 9.0f;
    }
}

// C = A B, A n x k, B k x m; TILE x TILE blocks, the barrier inside the loop over tiles.
__global__ void matmul(const double *A, const double *B, double *C, int n, int k, int m) {  // mangled
  __shared__ double As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  double acc = 0.0;
  for (int t0 = 0; t0 < k; t0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < n && t0 + threadIdx.x < k ? A[row * k + t0 + threadIdx.x] : 0.0;
    Bs[threadIdx.y][threadIdx.x] = col < m && t0 + threadIdx.y < k ? B[(t0 + threadIdx.y) * m + col] : 0.0;
    __syncthreads();
    for (int j = 0; j < TILE; j++) acc += As[threadIdx.y][j] * Bs[j][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < m) C[row * m + col] = acc;
}

// All-pairs gravity-like accelerations; positions (x, y, z, mass) staged through shared memory.
extern "C" __global__ void nbody(const double *pos, double *acc, int n) {
  extern __shared__ double sh[];  // blockDim.x bodies of 4 doubles
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double xi = 0, yi = 0, zi = 0;
  if (i < n) { xi = pos[4 * i]; yi = pos[4 * i + 1]; zi = pos[4 * i + 2]; }
  double ax = 0, ay = 0, az = 0;
  for (int base = 0; base < n; base += blockDim.x) {
    int j = base + threadIdx.x;
    for (int c = 0; c < 4; c++) sh[4 * threadIdx.x + c] = j < n ? pos[4 * j + c] : 0.0;
    __syncthreads();
    for (int jj = 0; jj < blockDim.x && base + jj < n; jj++) {
      double dx = sh[4 * jj] - xi, dy = sh[4 * jj + 1] - yi, dz = sh[4 * jj + 2] - zi;
      double r2 = dx * dx + dy * dy + dz * dz + 0.01;
      double inv = sh[4 * jj + 3] / (r2 * sqrt(r2));
      ax += dx * inv; ay += dy * inv; az += dz * inv;
    }
    __syncthreads();
  }
  if (i < n) { acc[3 * i] = ax; acc[3 * i + 1] = ay; acc[3 * i + 2] = az; }
}

// Dynamic shared memory: each block reverses its slice.
extern "C" __global__ void reverse_blocks(int *data, int n) {
  extern __shared__ int rev[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  rev[t] = i < n ? data[i] : -1;
  __syncthreads();
  int src = blockDim.x - 1 - t;
  int j = blockIdx.x * blockDim.x + src;
  if (i < n && j < n) data[i] = rev[src];
}

// A barrier in a loop whose trip count is a kernel argument: Jacobi smoothing in shared memory.
extern "C" __global__ void smooth(double *x, int iters) {
  __shared__ double cur[128], nxt[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  cur[t] = x[i];
  __syncthreads();
  for (int it = 0; it < iters; it++) {
    double l = t > 0 ? cur[t - 1] : cur[t], r = t + 1 < blockDim.x ? cur[t + 1] : cur[t];
    nxt[t] = 0.25 * l + 0.5 * cur[t] + 0.25 * r;
    __syncthreads();
    cur[t] = nxt[t];
    __syncthreads();
  }
  x[i] = cur[t];
}

// ---- control flow and device functions --------------------------------------------------------

// A per-thread loop whose trip count depends on the data (Collatz steps).
extern "C" __global__ void collatz(const long long *start, int *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long v = start[i];
  int s = 0;
  while (v != 1) {
    v = v % 2 ? 3 * v + 1 : v / 2;
    s++;
  }
  steps[i] = s;
}

__device__ __noinline__ double poly(double x, int degree) {  // stays a call
  double r = 0.0;
  for (int d = degree; d >= 0; d--) r = r * x + (d + 1);
  return r;
}

__device__ __noinline__ int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }  // reads thread ids

__device__ double lerp(double a, double b, double t) { return a + t * (b - a); }

extern "C" __global__ void device_calls(const double *x, double *out, int n, int degree) {
  int i = global_index();
  if (i < n) out[i] = lerp(poly(x[i], degree), x[i], 0.25);
}

// 3-D blocks and grid: every thread writes its coordinates.
extern "C" __global__ void coords_3d(int *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    int at = (z * ny + y) * nx + x;
    out[3 * at] = x;
    out[3 * at + 1] = y;
    out[3 * at + 2] = z + 100 * (gridDim.x * gridDim.y * gridDim.z);
  }
}
