"""CUDA kernels through `xz.cuda`: primal kernels and gradient kernels on the CPU path (checked
against numpy and against central finite differences of the primal kernels), their PTX accepted
by ptxas, the launch API's errors, and the GPU path where a GPU is present.

Each .cu file is compiled once per module (module-scoped fixtures); the launches are small.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from conftest import REPO, XENZYME_OPT, clang, run

import xenzyme as xz

PROGRAMS = REPO / "tests" / "programs" / "cuda"
KERNELS = PROGRAMS / "kernels.cu"
GRADIENTS = PROGRAMS / "gradients.cu"


@pytest.fixture(scope="module")
def k2():
    """kernels.cu at -O2 through the enzyme pipeline, on the CPU."""
    clang()
    return xz.cuda.load(KERNELS, device="cpu")


@pytest.fixture(scope="module")
def k0():
    """kernels.cu at -O0 without LLVM's optimiser before the lowering: allocas everywhere."""
    clang()
    return xz.cuda.load(KERNELS, device="cpu", clang_flags=["-O0"], preopt=0)


@pytest.fixture(scope="module")
def grads():
    clang()
    return xz.cuda.load(GRADIENTS, device="cpu")


def close(got, ref, rtol=1e-12, atol=1e-12) -> None:
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), ref, rtol=rtol, atol=atol)


def blocks(n: int, bs: int) -> int:
    return (n + bs - 1) // bs


# ---------------------------------------------------------------------------------------------
# Primal kernels
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bs", [32, 128, 500])
def test_saxpy_f32(k2, bs):
    rng = np.random.default_rng(bs)
    n = 1000
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    ref = 2.5 * x.astype(np.float64) + y
    k2.get_function("saxpy")(blocks(n, bs), bs, (n, np.float32(2.5), x, y))
    close(y, ref, rtol=1e-6)


def test_scale_shift_grid_stride_mangled(k2):
    """A C++ (mangled) kernel found by its source name; a grid-stride loop over fewer threads."""
    rng = np.random.default_rng(1)
    n = 1000
    x, out = rng.random(n), np.zeros(n)
    k = k2.get_function("scale_shift")
    assert k.info.symbol.startswith("_Z11scale_shift")
    k(3, 64, (out, x, 1.5, -2, n))  # an int for a double parameter is converted
    close(out, 1.5 * x - 2.0)


@pytest.mark.parametrize("bs", [64, 256])
def test_math_f64(k2, bs):
    rng = np.random.default_rng(2)
    n = 700
    x, out = rng.random(n), np.zeros(6 * n)
    k2.get_function("math_f64")(blocks(n, bs), bs, (x, out, n))
    ref = np.stack([np.sin(x) + np.cos(x), np.exp(x) * np.log(x + 2), np.sqrt(x + 1), (x + 1) ** 1.5, np.tanh(x),
                    x * x + 0.5], axis=1).ravel()  # fmt: skip
    close(out, ref, rtol=1e-14)


def test_math_f32(k2):
    rng = np.random.default_rng(3)
    n = 700
    x, out = rng.random(n, dtype=np.float32), np.zeros(4 * n, dtype=np.float32)
    k2.get_function("math_f32")(blocks(n, 128), 128, (x, out, n))
    v = x.astype(np.float64)
    ref = np.stack([np.sin(v) * np.exp(v), np.log(v + 2) + np.sqrt(v + 1), (v + 1) ** 2.5 + np.tanh(v),
                    3 * v + 1 + 1 / np.sqrt(v + 1) + np.minimum(v, 0.25)], axis=1).ravel()  # fmt: skip
    close(out, ref, rtol=2e-6)


@pytest.mark.parametrize(("level", "bs"), [("O2", 32), ("O2", 256), ("O0", 64)])
def test_block_sum_shared_barrier_atomic(k2, k0, level, bs):
    """A reduction through __shared__ memory with barriers in a loop, then atomicAdd."""
    m = k2 if level == "O2" else k0
    rng = np.random.default_rng(bs)
    n = 1000
    x, total, partial = rng.random(n), np.zeros(1), np.zeros(blocks(n, bs))
    m.get_function("block_sum")(blocks(n, bs), bs, (x, total, partial, n))
    close(partial, np.add.reduceat(x, np.arange(0, n, bs)))
    close(total[0], x.sum(), rtol=1e-13)


def test_scatter_add_atomics(k2):
    rng = np.random.default_rng(4)
    n = 1000
    idx = rng.integers(0, 17, n).astype(np.int32)
    val = rng.random(n, dtype=np.float32)
    bins, count = np.zeros(17, np.float32), np.zeros(17, np.int32)
    k2.get_function("scatter_add")(5, 200, (idx, val, bins, count, n))
    close(bins, np.bincount(idx, val.astype(np.float64), 17), rtol=1e-5)
    assert (count == np.bincount(idx, minlength=17)).all()


@pytest.mark.parametrize("bs", [32, 128])
def test_softmax(k2, bs):
    rng = np.random.default_rng(5)
    rows, cols = 7, 300
    x, y = rng.standard_normal((rows, cols)), np.zeros((rows, cols))
    k2.get_function("softmax")(rows, bs, (x, y, cols))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    close(y, e / e.sum(axis=1, keepdims=True), rtol=1e-14)


@pytest.mark.parametrize(("level", "bs"), [("O2", 16), ("O2", 256), ("O0", 64)])
def test_stencil_shared_tile_with_halo(k2, k0, level, bs):
    m = k2 if level == "O2" else k0
    rng = np.random.default_rng(6)
    n = 1000
    x, out = rng.random(n), np.zeros(n)
    m.get_function("stencil_1d")(blocks(n, bs), bs, (x, out, n))
    p = np.pad(x, 2)
    close(out, sum((k + 3) * p[2 + k : 2 + k + n] for k in range(-2, 3)))


@pytest.mark.parametrize("block", [(16, 16), (16, 8), (8, 4)])
def test_blur_2d_grid(k2, block):
    rng = np.random.default_rng(7)
    w, h = 37, 29
    img, out = rng.random((h, w), dtype=np.float32), np.zeros((h, w), np.float32)
    k2.get_function("blur_2d")((blocks(w, 16), blocks(h, 16)), block, (img, out, w, h))
    p = np.pad(img.astype(np.float64), 1)
    close(out, sum(p[a : a + h, b : b + w] for a in range(3) for b in range(3)) / 9, rtol=1e-5)


@pytest.mark.parametrize(("level", "shape"), [("O2", (33, 50, 21)), ("O2", (16, 16, 16)), ("O0", (20, 7, 35))])
def test_tiled_matmul(k2, k0, level, shape):
    m = k2 if level == "O2" else k0
    n, k, p = shape
    rng = np.random.default_rng(n)
    a, b, c = rng.random((n, k)), rng.random((k, p)), np.zeros((n, p))
    m.get_function("matmul")((blocks(p, 16), blocks(n, 16)), (16, 16), (a, b, c, n, k, p))
    close(c, a @ b, rtol=1e-13)


@pytest.mark.parametrize("bs", [32, 64])
def test_nbody_dynamic_shared(k2, bs):
    rng = np.random.default_rng(8)
    n = 100
    pos, acc = rng.random((n, 4)), np.zeros((n, 3))
    k2.get_function("nbody")(blocks(n, bs), bs, (pos, acc, n), shared_mem=bs * 4 * 8)
    d = pos[None, :, :3] - pos[:, None, :3]
    r2 = (d**2).sum(axis=2) + 0.01
    close(acc, (d * (pos[None, :, 3] / (r2 * np.sqrt(r2)))[:, :, None]).sum(axis=1), rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("bs", [64, 16])
def test_dynamic_shared_reverse(k2, k0, bs):
    for m in (k2, k0):
        data = np.arange(256, dtype=np.int32)
        m.get_function("reverse_blocks")(256 // bs, bs, (data, 256), shared_mem=bs * 4)
        assert (data == np.arange(256).reshape(-1, bs)[:, ::-1].ravel()).all()


def test_barrier_loop_with_argument_trip_count(k2):
    rng = np.random.default_rng(9)
    x = rng.random(256)
    ref = x.reshape(2, 128).copy()
    k2.get_function("smooth")(2, 128, (x, 5))
    for _ in range(5):
        left = np.concatenate([ref[:, :1], ref[:, :-1]], axis=1)
        right = np.concatenate([ref[:, 1:], ref[:, -1:]], axis=1)
        ref = 0.25 * left + 0.5 * ref + 0.25 * right
    close(x, ref.ravel())


def test_data_dependent_loop(k2):
    rng = np.random.default_rng(10)
    n = 300
    start, steps = rng.integers(1, 5000, n).astype(np.int64), np.zeros(n, np.int32)
    k2.get_function("collatz")(blocks(n, 64), 64, (start, steps, n))

    def collatz(v: int) -> int:
        s = 0
        while v != 1:
            v, s = (3 * v + 1 if v % 2 else v // 2), s + 1
        return s

    assert steps.tolist() == [collatz(int(v)) for v in start]


@pytest.mark.parametrize("level", ["O2", "O0"])
def test_device_function_calls(k2, k0, level):
    m = k2 if level == "O2" else k0
    rng = np.random.default_rng(11)
    n = 500
    x, out = rng.random(n), np.zeros(n)
    m.get_function("device_calls")(blocks(n, 128), 128, (x, out, n, 4))
    p = sum((d + 1) * x**d for d in range(5))
    close(out, p + 0.25 * (x - p))


@pytest.mark.parametrize(("grid", "block"), [((2, 3, 2), (3, 2, 4)), ((5, 6, 7), 1), (1, (5, 6, 7))])
def test_3d_grid_and_blocks(k2, grid, block):
    nx, ny, nz = 5, 6, 7
    out = np.zeros(3 * nx * ny * nz, np.int32)
    k2.get_function("coords_3d")(grid, block, (out, nx, ny, nz))
    g = grid if isinstance(grid, tuple) else (grid, 1, 1)
    zz, yy, xx = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    assert (out == np.stack([xx, yy, zz + 100 * g[0] * g[1] * g[2]], axis=-1).ravel()).all()


# ---------------------------------------------------------------------------------------------
# Gradient kernels (reverse and forward mode, per-thread work), against finite differences
# ---------------------------------------------------------------------------------------------


def fd_vjp(primal, x, seed, extra, grid, block, h=1e-6):
    """Central differences of the primal kernel `primal(x, y, *extra)`: sum_i seed_i dy_i/dx_j."""
    out = np.zeros(x.size)
    for j in range(x.size):
        xp, xm = x.copy(), x.copy()
        xp[j] += h
        xm[j] -= h
        yp, ym = np.zeros_like(x), np.zeros_like(x)
        primal(grid, block, (xp, yp, *extra))
        primal(grid, block, (xm, ym, *extra))
        step = float(xp[j]) - float(xm[j])
        out[j] = np.dot(seed.astype(np.float64), (yp.astype(np.float64) - ym) / step)
    return out


@pytest.mark.parametrize("name", ["ew", "by_tid", "diffusion"])
@pytest.mark.parametrize("bs", [8, 32])
def test_reverse_gradient_kernel(grads, name, bs):
    """Per-thread device functions; `by_tid` reads the thread ids itself, `diffusion` reads its
    neighbours' inputs, so that adjoints of different threads meet in dx."""
    rng = np.random.default_rng(bs)
    n = 45
    x, seed = rng.random(n), rng.random(n)
    dx, y, dy = np.zeros(n), np.zeros(n), seed.copy()
    grads.get_function(name + "_grad")(blocks(n, bs), bs, (x, dx, y, dy, n))
    ref = fd_vjp(grads.get_function(name + "_primal"), x, seed, [n], blocks(n, bs), bs)
    close(dx, ref, rtol=1e-6, atol=1e-8)


def test_reverse_gradient_kernel_f32(grads):
    rng = np.random.default_rng(12)
    n = 45
    x, seed = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    dx, y = np.zeros(n, np.float32), np.zeros(n, np.float32)
    grads.get_function("ew_f32_grad")(3, 16, (x, dx, y, seed.copy(), n))
    ref = fd_vjp(grads.get_function("ew_f32_primal"), x, seed, [n], 3, 16, h=3e-3)
    close(dx, ref, rtol=5e-3, atol=1e-3)


def test_reverse_gradient_data_dependent_loop(grads):
    rng = np.random.default_rng(13)
    n = 40
    x, seed, steps = rng.random(n), rng.random(n), rng.integers(0, 6, n).astype(np.int32)
    dx, y = np.zeros(n), np.zeros(n)
    grads.get_function("iterate_grad")(2, 32, (x, dx, y, seed.copy(), steps, n))
    ref = fd_vjp(grads.get_function("iterate_primal"), x, seed, [steps, n], 2, 32)
    close(dx, ref, rtol=1e-6, atol=1e-8)


def test_reverse_grid_stride_loop_two_inputs(grads):
    """Fewer threads than elements (a grid-stride loop), the index from a device function that is
    not inlined, derivatives for both inputs of pow."""
    rng = np.random.default_rng(19)
    n = 37
    x, e, seed = rng.random(n), rng.random(n) + 0.5, rng.random(n)
    dx, de, y = np.zeros(n), np.zeros(n), np.zeros(n)
    grads.get_function("strided_grad")(2, 8, (x, dx, e, de, y, seed.copy(), n))
    primal = grads.get_function("strided_primal")
    close(dx, fd_vjp(lambda g, b, a: primal(g, b, (a[0], e, *a[1:])), x, seed, [n], 2, 8), rtol=1e-6, atol=1e-8)
    close(de, fd_vjp(lambda g, b, a: primal(g, b, (x, a[0], *a[1:])), e, seed, [n], 2, 8), rtol=1e-6, atol=1e-8)


def test_reverse_active_scalar(grads):
    rng = np.random.default_rng(14)
    n = 50
    x, dx = rng.random(n) * 3, np.zeros(n)
    grads.get_function("bump_grad")(4, 16, (x, dx, n))
    ref = fd_vjp(grads.get_function("bump_primal"), x, np.ones(n), [n], 4, 16)
    close(dx, ref, rtol=1e-6, atol=1e-8)


def test_forward_mode_2d_grid(grads):
    rng = np.random.default_rng(15)
    w, h = 9, 7
    a, b, da, db = (rng.random((h, w)) for _ in range(4))
    dout = np.zeros((h, w))
    grads.get_function("field_tangent")((3, 2), (4, 4), (a, da, b, db, dout, w, h))
    primal, eps = grads.get_function("field_primal"), 1e-6
    up, down = np.zeros((h, w)), np.zeros((h, w))
    primal((3, 2), (4, 4), (a + eps * da, b + eps * db, up, w, h))
    primal((3, 2), (4, 4), (a - eps * da, b - eps * db, down, w, h))
    close(dout, (up - down) / (2 * eps), rtol=1e-6, atol=1e-8)


def test_forward_mode_through_atomics(grads):
    rng = np.random.default_rng(18)
    n = 50
    x, dx = rng.random(n), rng.random(n)
    total, dtotal = np.zeros(1), np.zeros(1)
    grads.get_function("sum_squares_tangent")(4, 16, (x, dx, total, dtotal, n))
    primal, eps = grads.get_function("sum_squares_primal"), 1e-6
    up, down = np.zeros(1), np.zeros(1)
    primal(4, 16, (x + eps * dx, up, n))
    primal(4, 16, (x - eps * dx, down, n))
    close(total, (x**3).sum(), rtol=1e-13)
    close(dtotal, (up - down) / (2 * eps), rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# PTX for every kernel, accepted by ptxas
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("program", "compiled"), [(KERNELS, "k2"), (GRADIENTS, "grads")], ids=["kernels", "gradients"])
def test_ptx_accepted_by_ptxas(program, compiled, request, tmp_path):
    """Every kernel of the file is an .entry of its PTX (libdevice linked, no function left
    external but the device's malloc and free), which ptxas assembles."""
    ptxas = shutil.which("ptxas")
    if ptxas is None or shutil.which("nvcc") is None:
        pytest.skip("the CUDA toolkit (ptxas, and nvcc to find libdevice) is not installed")
    symbols = [k.symbol for k in request.getfixturevalue(compiled).kernels]
    assert len(symbols) >= 14
    ptx = tmp_path / "k.ptx"
    r = run([*XENZYME_OPT, str(program), "-p", "enzyme", "-t", "ptx{arch=sm_90}", "-o", str(ptx)])
    assert r.returncode == 0, r.stderr
    text = ptx.read_text()
    for symbol in symbols:
        assert f".visible .entry {symbol}(" in text, symbol
    externs = [ln.split()[-1] for ln in text.splitlines() if ln.startswith(".extern .func")]
    assert set(externs) <= {"malloc", "free"}, externs
    r = subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------------------------------------
# The launch API's errors: nothing is launched
# ---------------------------------------------------------------------------------------------


def test_launch_errors(k2):
    k = k2.get_function("saxpy")
    x, y = np.zeros(4, np.float32), np.zeros(4, np.float32)
    cases = [
        (lambda: k(1, 4, (4, 1.0, x)), "takes 4 arguments, 3 given"),
        (lambda: k(1, 4, (4, 1.0, x, 5)), "argument 3 of kernel 'saxpy' is a pointer: pass a numpy array, not int"),
        (lambda: k(1, 4, (x, 1.0, x, y)), "argument 0 of kernel 'saxpy' (int32) takes a number, not ndarray"),
        (lambda: k(1, 4, (4.5, 1.0, x, y)), "(int32) takes an integer, not a float"),
        (lambda: k(1, 4, (2**40, 1.0, x, y)), "does not fit in 32 bits"),
        (lambda: k(1, 4, (4, "a", x, y)), "(float) takes a number, not str"),
        (lambda: k(1, 4, (4, 1.0, x[::2], y)), "must be C-contiguous"),
        (lambda: k(1, 4, [4, 1.0, x, y][0]), "args must be a tuple"),
        (lambda: k(1, (32, 32, 2), (4, 1.0, x, y)), "2048 threads"),  # more than 1024 threads
        (lambda: k(1, (1, 1, 65), (4, 1.0, x, y)), "block size 65 along z is out of range (1 to 64)"),
        (lambda: k((1, 70000), 1, (4, 1.0, x, y)), "grid size 70000 along y is out of range"),
        (lambda: k(0, 4, (4, 1.0, x, y)), "grid size 0 along x is out of range"),
        (lambda: k((1, 2, 3, 4), 4, (4, 1.0, x, y)), "grid must be an int or a tuple of 1 to 3 ints"),
        (lambda: k(1.0, 4, (4, 1.0, x, y)), "grid must be an int or a tuple of 1 to 3 ints"),
        (lambda: k(1, 4, (4, 1.0, x, y), shared_mem=-1), "shared_mem must be a number of bytes"),
        (lambda: k(1, 4, (4, 1.0, x, y), shared_mem=49153), "more than the 49152 a block may have"),
    ]
    for call, message in cases:
        with pytest.raises(xz.XenzymeError, match=message.replace("(", r"\(").replace(")", r"\)")):
            call()
    assert not y.any()
    with pytest.raises(xz.XenzymeError, match="static shared memory"):
        k2.get_function("block_sum")(1, 32, (x, y, y, 4), shared_mem=48 * 1024)  # 2 KiB static already


def test_unknown_kernel_and_bad_device(k2):
    with pytest.raises(xz.XenzymeError, match=r"no kernel named 'nope' \(the kernels: .*saxpy"):
        k2.get_function("nope")
    with pytest.raises(xz.XenzymeError, match="unknown device 'tpu'"):
        xz.cuda.load(KERNELS, device="tpu")
    with pytest.raises(xz.XenzymeError, match="is not CUDA source"):
        xz.cuda.load(REPO / "tests" / "filecheck" / "cli" / "Inputs" / "blank.c", device="cpu")


def test_divergent_barrier_found_when_compiling():
    """A barrier under a condition the threads compute from different addresses of an array."""
    clang()
    src = """
    extern "C" __global__ void k(const int *flags, double *x) {
      int f = flags[threadIdx.x % 2];
      x[threadIdx.x] = 1.0;
      if (f) __syncthreads();
      x[threadIdx.x] += 1.0;
    }
    """
    with pytest.raises(xz.XenzymeError, match="control flow that differs between the threads"):
        xz.cuda.load(src, device="cpu")


def test_divergent_barrier_found_at_run_time():
    """A condition that looks the same for the whole block (one shared address) but is not: every
    thread overwrites it first (a race).  Some threads reach the barrier, others return."""
    clang()
    src = """
    extern "C" __global__ void k(double *x) {
      volatile __shared__ int s;
      s = threadIdx.x;
      if (s % 2) __syncthreads();
      x[threadIdx.x] = 1.0;
    }
    """
    k = xz.cuda.load(src, device="cpu").get_function("k")
    x = np.zeros(4)
    k(1, 1, (x,))  # one thread: no divergence
    with pytest.raises(xz.XenzymeError, match="a __syncthreads\\(\\) was reached by only some threads of a block"):
        k(1, 4, (x,))


def test_source_text_and_overloads():
    clang()
    src = """
    __global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }
    __global__ void twice(double *x) { x[threadIdx.x] *= 2.0; }
    """
    m = xz.cuda.load(src, device="cpu")
    with pytest.raises(xz.XenzymeError, match="names 2 overloaded kernels"):
        m.get_function("twice")
    x = np.ones(8)
    m.get_function("_Z5twicePd")(1, 8, (x,))
    assert (x == 2).all()


def test_gpu_device_without_gpu():
    if xz.cuda.gpu_available():
        pytest.skip("a GPU is present")
    with pytest.raises(xz.XenzymeError, match=r"cuda-bindings|CUDA driver|no GPU"):
        xz.cuda.load(KERNELS, device="gpu")


# ---------------------------------------------------------------------------------------------
# On a GPU (skipped, saying so, where there is none)
# ---------------------------------------------------------------------------------------------

needs_gpu = pytest.mark.skipif(
    not xz.cuda.gpu_available(), reason="no CUDA GPU here (the driver and cuda-bindings, xenzyme[cuda])"
)


@pytest.fixture(scope="module")
def gpu_kernels():
    return xz.cuda.load(KERNELS, device="gpu")


@needs_gpu
def test_gpu_block_sum_and_matmul(gpu_kernels):
    rng = np.random.default_rng(16)
    n, bs = 1000, 128
    x, total, partial = rng.random(n), np.zeros(1), np.zeros(blocks(n, bs))
    gpu_kernels.get_function("block_sum")(blocks(n, bs), bs, (x, total, partial, n))
    close(partial, np.add.reduceat(x, np.arange(0, n, bs)), rtol=1e-13)
    close(total[0], x.sum(), rtol=1e-13)
    a, b, c = rng.random((33, 50)), rng.random((50, 21)), np.zeros((33, 21))
    gpu_kernels.get_function("matmul")((2, 3), (16, 16), (a, b, c, 33, 50, 21))
    close(c, a @ b, rtol=1e-13)


@needs_gpu
def test_gpu_gradient_matches_cpu(grads):
    gpu = xz.cuda.load(GRADIENTS, device="gpu")
    rng = np.random.default_rng(17)
    n = 200
    x, seed = rng.random(n), rng.random(n)
    for m in (gpu, grads):
        dx, y = np.zeros(n), np.zeros(n)
        m.get_function("diffusion_grad")(blocks(n, 64), 64, (x, dx, y, seed.copy(), n))
        if m is gpu:
            on_gpu = dx
    close(on_gpu, dx, rtol=1e-12)


def test_nvptx_backend_abort_is_an_error():
    """What NVPTX cannot select aborts LLVM: in a child process, and reported with LLVM's words."""
    from xenzyme.backend.ptx import emit_ptx

    ir = """
    target triple = "nvptx64-nvidia-cuda"
    define ptx_kernel void @k(ptr %p) {
      %x = load double, ptr %p
      %y = call double @llvm.exp.f64(double %x)
      store double %y, ptr %p
      ret void
    }
    declare double @llvm.exp.f64(double)
    """
    with pytest.raises(xz.XenzymeError, match="NVPTX backend crashed") as e:
        emit_ptx(ir)
    assert any("fexp" in n for n in e.value.notes)
