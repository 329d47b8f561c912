"""Gradient kernels of device functions that work as a block (tests/programs/cuda/block_gradients.cu):
shared arrays and barriers reversed, atomics, adjoints that all threads add at one address,
device-function calls, loops and branches, libm math.  On the CPU path, each checked against
central finite differences of its primal kernel (f64; the float32 kernels against those of the
f64 primal, which computes the same function more precisely), several blocks (the last one
partial) and several block sizes; where it is short, against a numpy reference too.

The .cu file is compiled once (a module-scoped fixture); each launch is small.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess

import numpy as np
import pytest
from conftest import REPO, XENZYME_OPT, clang, run

import xenzyme as xz

PROGRAM = REPO / "tests" / "programs" / "cuda" / "block_gradients.cu"


@pytest.fixture(scope="module")
def m():
    clang()
    return xz.cuda.load(PROGRAM, device="cpu")


def blocks(n: int, bs: int) -> int:
    return (n + bs - 1) // bs


def fd(run, x: np.ndarray, seed: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central differences of `run(x) -> outputs`: sum_i seed_i d out_i / d x_j for each j."""
    x = x.astype(np.float64)
    out = np.zeros(x.size)
    for j in range(x.size):
        xp, xm = x.copy(), x.copy()
        xp[j] += h
        xm[j] -= h
        out[j] = np.dot(seed, (run(xp) - run(xm)) / (2 * h))
    return out


def close(got, ref, rtol=1e-6, atol=1e-8) -> None:
    np.testing.assert_allclose(np.asarray(got, dtype=np.float64), ref, rtol=rtol, atol=atol)


@pytest.mark.parametrize(("dtype", "bs"), [("f64", 32), ("f64", 64), ("f64", 128), ("f32", 64)])
def test_block_reduction_shared_barriers_atomic(m, dtype, bs):
    """out += (sum over the block of x^2 + sin x)^2: a tree reduction in shared memory with a
    barrier per level, then one atomicAdd per block."""
    rng = np.random.default_rng(bs)
    n = 150
    t = np.float64 if dtype == "f64" else np.float32
    x, seed = rng.random(n) - 0.5, np.array([0.7])
    primal = m.get_function("block_square_primal_f64")

    def run(xv):
        out = np.zeros(1)
        primal(blocks(n, bs), bs, (xv, out, n))
        return out

    dx, out, dout = np.zeros(n, t), np.zeros(1, t), seed.astype(t)
    m.get_function(f"block_square_grad_{dtype}")(blocks(n, bs), bs, (x.astype(t), dx, out, dout, n))
    sums = np.add.reduceat(x * x + np.sin(x), np.arange(0, n, bs))
    exact = seed[0] * 2 * np.repeat(sums, bs)[:n] * (2 * x + np.cos(x))
    tol = {"rtol": 1e-6, "atol": 1e-8} if dtype == "f64" else {"rtol": 2e-4, "atol": 1e-4}
    close(dx, fd(run, x, seed), **tol)
    close(dx, exact, **tol)
    close(out, run(x), rtol=1e-12 if dtype == "f64" else 1e-5)


@pytest.mark.parametrize(("kernel", "dtype", "bs"), [("weighted_grad", "f64", 16), ("weighted_grad", "f64", 128),
                                                     ("weighted_grad", "f32", 32), ("weighted_alias_grad", "", 64)])
def test_weights_every_thread_reads(m, kernel, dtype, bs):
    """dw sums the adjoints of all threads of all blocks at three addresses: with __restrict__
    combined per block, then added atomically, and dx[i] each thread's own (a plain addition);
    without, every addition atomic."""
    rng = np.random.default_rng(100 + bs)
    n = 200
    t = np.float32 if dtype == "f32" else np.float64
    x, w, seed = rng.random(n), np.array([0.8, -0.3, 0.5]), rng.random(n)
    primal = m.get_function("weighted_primal_f64")

    def run_x(xv):
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (xv, w, y, n))
        return y

    def run_w(wv):
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (x, wv, y, n))
        return y

    dx, dw, y = np.zeros(n, t), np.zeros(3, t), np.zeros(n, t)
    name = f"{kernel}_{dtype}" if dtype else kernel
    m.get_function(name)(blocks(n, bs), bs, (x.astype(t), dx, w.astype(t), dw, y, seed.astype(t), n))
    tol = {"rtol": 1e-4, "atol": 1e-4} if dtype == "f32" else {"rtol": 1e-6, "atol": 1e-8}
    close(dx, fd(run_x, x, seed), **tol)
    close(dw, fd(run_w, w, seed), **tol)
    e = np.exp(w[2] * x)
    close(dw, [seed @ np.sin(x), seed @ (x * x), seed @ (x * e)], **tol)


@pytest.mark.parametrize("bs", [32, 96])
def test_scatter_atomics(m, bs):
    """bins[idx[i]] += x[i]^3 with atomicAdd, many threads per bin: dx[i] = 3 x[i]^2 dbins[idx[i]],
    and dbins keeps its value (an addition passes the adjoint through)."""
    rng = np.random.default_rng(200 + bs)
    n, nbins = 130, 7
    x, idx = rng.random(n), rng.integers(0, nbins, n).astype(np.int32)
    seed = rng.random(nbins)
    primal = m.get_function("scatter_primal")

    def run(xv):
        bins = np.zeros(nbins)
        primal(blocks(n, bs), bs, (xv, idx, bins, n))
        return bins

    dx, bins, dbins = np.zeros(n), np.zeros(nbins), seed.copy()
    m.get_function("scatter_grad")(blocks(n, bs), bs, (x, dx, idx, bins, dbins, n))
    close(dx, fd(run, x, seed))
    close(dx, 3 * x * x * seed[idx], rtol=1e-13)
    close(dbins, seed, rtol=0, atol=0)
    close(bins, run(x), rtol=1e-12)


@pytest.mark.parametrize("bs", [16, 64, 100])
def test_shared_tile_with_halos(m, bs):
    """A stencil read through a shared tile that the block's edge threads extend by a halo: the
    adjoints of the tile go back through the barrier to the threads that loaded each element."""
    rng = np.random.default_rng(300 + bs)
    n = 230
    x, seed = rng.random(n), rng.random(n)
    primal = m.get_function("tile_stencil_primal")

    def run(xv):
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (xv, y, n))
        return y

    dx, y = np.zeros(n), np.zeros(n)
    m.get_function("tile_stencil_grad")(blocks(n, bs), bs, (x, dx, y, seed.copy(), n))
    close(dx, fd(run, x, seed))
    close(y, run(x), rtol=1e-13)


@pytest.mark.parametrize("bs", [32, 50])
def test_block_softmax(m, bs):
    """Softmax over each block's values: a maximum and a sum, each computed by thread 0 from
    shared memory between barriers, then read by every thread (shared scalars)."""
    rng = np.random.default_rng(400 + bs)
    n = 120
    x, seed = rng.random(n) * 4 - 2, rng.random(n)
    primal = m.get_function("block_softmax_primal")

    def run(xv):
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (xv, y, n))
        return y

    dx, y = np.zeros(n), np.zeros(n)
    m.get_function("block_softmax_grad")(blocks(n, bs), bs, (x, dx, y, seed.copy(), n))
    close(dx, fd(run, x, seed))
    ref = np.zeros(n)
    for s in range(0, n, bs):
        xs, g = x[s : s + bs], seed[s : s + bs]
        p = np.exp(xs - xs.max())
        p /= p.sum()
        ref[s : s + bs] = p * (g - g @ p)
    close(dx, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("bs", [16, 64])
def test_calls_loops_branches_then_barrier(m, bs):
    """A per-thread loop with a data-dependent trip count over a branching device function, a
    polynomial by another (neither inlined), then each thread reads its neighbour's value
    through shared memory: log1p, cosh, sqrt, pow, atan."""
    rng = np.random.default_rng(500 + bs)
    n = 90
    x, seed = rng.random(n), rng.random(n)
    iters = rng.integers(0, 5, n).astype(np.int32)
    primal = m.get_function("branchy_primal")

    def run(xv):
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (xv, y, iters, n))
        return y

    dx, y = np.zeros(n), np.zeros(n)
    m.get_function("branchy_grad")(blocks(n, bs), bs, (x, dx, y, seed.copy(), iters, n))
    close(dx, fd(run, x, seed), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("bs", [16, 64])
def test_dynamic_shared_memory(m, bs):
    """extern __shared__: the shadow is a copy of the dynamic shared memory after the launch's
    own (the gradient kernel takes twice the bytes asked for)."""
    rng = np.random.default_rng(600 + bs)
    n = 100
    x, seed = rng.random(n), rng.random(n)
    primal = m.get_function("flip_primal")

    def run(xv):
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (xv, y, n), shared_mem=bs * 8)
        return y

    dx, y = np.zeros(n), np.zeros(n)
    m.get_function("flip_grad")(blocks(n, bs), bs, (x, dx, y, seed.copy(), n), shared_mem=bs * 8)
    close(dx, fd(run, x, seed))


@pytest.mark.parametrize("shape", [(13, 10, 9), (16, 8, 24)])
def test_tiled_matmul_2d_grid(m, shape):
    """C = A B by 8 x 8 tiles of A and B in shared memory on a 2-D grid: dA = dC B^T, dB = A^T dC,
    exactly, and against central differences."""
    n, k, mm = shape
    rng = np.random.default_rng(sum(shape))
    a, b, seed = rng.random((n, k)), rng.random((k, mm)), rng.random((n, mm))
    grid = (blocks(mm, 8), blocks(n, 8))
    primal = m.get_function("matmul_primal")

    def run(av, bv):
        c = np.zeros((n, mm))
        primal(grid, (8, 8), (av, bv, c, n, k, mm))
        return c.ravel()

    da, db, c = np.zeros((n, k)), np.zeros((k, mm)), np.zeros((n, mm))
    m.get_function("matmul_grad")(grid, (8, 8), (a, da, b, db, c, seed.copy(), n, k, mm))
    close(c, a @ b, rtol=1e-13)
    close(da, seed @ b.T, rtol=1e-12)
    close(db, a.T @ seed, rtol=1e-12)
    close(da.ravel(), fd(lambda x: run(x.reshape(n, k), b), a.ravel(), seed.ravel()))


@pytest.mark.parametrize(("name", "bs", "shared"), [("tile_stencil", 32, 0), ("block_softmax", 50, 0),
                                               ("flip", 16, 16 * 8)])
def test_forward_mode_shared_memory(m, name, bs, shared):
    """Forward mode through shared arrays and barriers: the tangents of shared memory live in
    shadow shared arrays (for dynamic shared memory, a copy after the launch's own)."""
    rng = np.random.default_rng(800 + bs)
    n, h = 90, 1e-6
    x, v = rng.random(n), rng.random(n)
    primal = m.get_function(f"{name}_primal")

    def run(xv):
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (xv, y, n), shared_mem=shared)
        return y

    y, dy = np.zeros(n), np.zeros(n)
    m.get_function(f"{name}_tangent")(blocks(n, bs), bs, (x, v.copy(), y, dy, n), shared_mem=shared)
    close(dy, (run(x + h * v) - run(x - h * v)) / (2 * h))
    close(y, run(x), rtol=1e-13)


def test_dynamic_shared_memory_limit_counts_the_shadow(m):
    """The gradient kernel needs the dynamic shared memory twice: asking for more than half the
    limit is an error that says why, and nothing runs."""
    x, dx, y, dy = (np.zeros(32) for _ in range(4))
    with pytest.raises(xz.XenzymeError, match="shadow copies"):
        m.get_function("flip_grad")(1, 32, (x, dx, y, dy, 32), shared_mem=40 * 1024)
    m.get_function("flip_primal")(1, 32, (x, y, 32), shared_mem=40 * 1024)


@contextlib.contextmanager
def host_threads(n: int):
    """Launches from this thread run their blocks on a team of `n` libomp threads."""
    from xenzyme.backend.jit import _libomp

    omp = _libomp()
    before = omp.omp_get_max_threads()
    omp.omp_set_num_threads(n)
    try:
        yield
    finally:
        omp.omp_set_num_threads(before)


@pytest.mark.parametrize("threads", [1, 2])
def test_atomics_with_one_and_two_host_threads(m, threads):
    """A team of one host thread runs every block one after the other, with the kernel's atomic
    updates made plain (a block function of its own); two run blocks side by side, atomically.
    Both against central differences: user atomics (a scatter), every adjoint added atomically
    (weights that may alias the output), the neighbours' adjoints of a stencil, adjoints added
    in a device global, and caches of loops with run-time trip counts (heap buffers each thread
    of a block takes from a pool slot of its own, kept from block to block)."""
    with host_threads(threads):
        test_scatter_atomics(m, 32)
        test_weights_every_thread_reads(m, "weighted_alias_grad", "", 64)
        test_shared_tile_with_halos(m, 16)
        test_device_global_shadows_zero_at_each_launch(m, 32)
        for _ in range(2):  # (the second launch reuses what the first left in the slots: none)
            test_block_reduction_shared_barriers_atomic(m, "f64", 32)
        test_tiled_matmul_2d_grid(m, (16, 8, 24))


@pytest.mark.parametrize("bs", [32, 64])
def test_device_global_shadows_zero_at_each_launch(m, bs):
    """A device function adding into a __device__ global by atomics and reading it after a
    barrier leaves the adjoint of that read in the global's shadow: each launch of the gradient
    kernel starts with it at zero, so the second and third launches give what the first does,
    which is central differences of the primal (the global reset before each launch)."""
    rng = np.random.default_rng(300 + bs)
    n = 150
    x, seed = rng.random(n) - 0.5, rng.random(n)
    reset, primal, grad = (m.get_function(f"block_total_{k}") for k in ("reset", "primal", "grad"))

    def run(xv):
        reset(blocks(n, bs), bs, ())
        y = np.zeros(n)
        primal(blocks(n, bs), bs, (xv, y, n))
        return y

    ref = fd(run, x, seed)
    starts = np.arange(0, n, bs)
    total, back = (np.repeat(np.add.reduceat(v, starts), bs)[:n] for v in (x * x, seed * np.sin(x)))
    close(ref, seed * np.cos(x) * total + 2 * x * back, rtol=1e-6, atol=1e-8)
    for _ in range(3):
        reset(blocks(n, bs), bs, ())
        dx, y = np.zeros(n), np.zeros(n)
        grad(blocks(n, bs), bs, (x, dx, y, seed.copy(), n))
        close(dx, ref)
        close(y, run(x), rtol=1e-13)


def test_device_global_shadows_between_different_gradient_kernels(m):
    """Two gradient kernels reading a __device__ global's earlier value and writing its next:
    the adjoint of the value read, left in the global's shadow by one launch, must not reach
    the reverse of the write in the next launch, of the same kernel or of the other.  Forward
    mode's tangents of the global likewise start at zero."""
    rng = np.random.default_rng(400)
    n, bs = 130, 32
    x, seed, p0 = rng.random(n), rng.random(n), rng.random(n)
    set_prev = m.get_function("prev_set")

    def primal(name):
        def run(xv):
            set_prev(blocks(n, bs), bs, (p0, n))
            y = np.zeros(n)
            m.get_function(f"{name}_primal")(blocks(n, bs), bs, (xv, y, n))
            return y

        return run

    refs = {name: fd(primal(name), x, seed) for name in ("step_a", "step_b")}
    close(refs["step_a"], seed * (p0 + np.cos(x)), rtol=1e-6, atol=1e-8)
    close(refs["step_b"], seed * np.exp(p0), rtol=1e-6, atol=1e-8)
    for name in ("step_a", "step_a", "step_b", "step_a"):
        set_prev(blocks(n, bs), bs, (p0, n))
        dx, y = np.zeros(n), np.zeros(n)
        m.get_function(f"{name}_grad")(blocks(n, bs), bs, (x, dx, y, seed.copy(), n))
        close(dx, refs[name])
    for _ in range(2):
        set_prev(blocks(n, bs), bs, (p0, n))
        y, ty = np.zeros(n), np.zeros(n)
        m.get_function("step_a_fwd")(blocks(n, bs), bs, (x, seed, y, ty, n))
        close(ty, refs["step_a"])


def test_ptx_accepted_by_ptxas(m, tmp_path):
    """Every kernel is an .entry of the PTX, which ptxas assembles; the adjoints of the weights
    are summed across the warp by shuffles before one atomic, the shadows of the shared arrays
    are shared arrays, and each barrier is mirrored in the reverse."""
    ptxas = shutil.which("ptxas")
    if ptxas is None or shutil.which("nvcc") is None:
        pytest.skip("the CUDA toolkit (ptxas, and nvcc to find libdevice) is not installed")
    ptx = tmp_path / "k.ptx"
    r = run([*XENZYME_OPT, str(PROGRAM), "-p", "enzyme", "-t", "ptx{arch=sm_90}", "-o", str(ptx)])
    assert r.returncode == 0, r.stderr
    text = ptx.read_text()
    for k in m.kernels:
        assert f".visible .entry {k.symbol}(" in text, k.symbol
    externs = [ln.split()[-1] for ln in text.splitlines() if ln.startswith(".extern .func")]
    assert set(externs) <= {"malloc", "free"}, externs  # libdevice's math linked in
    entries = text.split(".visible .entry ")
    weighted = next(e for e in entries if e.startswith("weighted_grad_f64("))
    assert "shfl.sync.bfly" in weighted and "atom.global.add.f64" in weighted
    aliased = next(e for e in entries if e.startswith("weighted_alias_grad("))
    assert "shfl" not in aliased and "atom.global.add.f64" in aliased
    softmax = next(e for e in entries if e.startswith("block_softmax_grad("))
    assert softmax.count("bar.sync") >= 8, softmax.count("bar.sync")
    assert text.count("_$_shadow[") >= 5  # the shadows of the static shared arrays
    for k in ("block_total_grad", "step_a_grad", "step_b_grad", "step_a_fwd"):  # ... and of device globals
        assert f".visible .entry xenzyme_zero_shadows_{k}()" in text, k
    assert ".global .align 8 .b8 prev_$_shadow[8192]" in text
    r = subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.fixture(scope="module")
def m0():
    """The same file at -O0 without LLVM's optimiser before differentiation: allocas everywhere."""
    clang()
    return xz.cuda.load(PROGRAM, device="cpu", clang_flags=["-O0"], preopt=0)


@pytest.mark.parametrize(
    ("test", "args"),
    [
        (test_block_reduction_shared_barriers_atomic, ("f32", 32)),
        (test_weights_every_thread_reads, ("weighted_grad", "f64", 32)),
        (test_scatter_atomics, (32,)),
        (test_shared_tile_with_halos, (64,)),
        (test_block_softmax, (50,)),
        (test_calls_loops_branches_then_barrier, (16,)),
        (test_dynamic_shared_memory, (16,)),
    ],
    ids=lambda v: v.__name__.removeprefix("test_") if callable(v) else "-".join(map(str, v)),
)
def test_at_O0(m0, test, args):
    """The checks above, on the kernels compiled by clang -O0."""
    test(m0, *args)


# ---------------------------------------------------------------------------------------------
# What reverse mode of device code does not support: an error when the file is loaded
# ---------------------------------------------------------------------------------------------

_HEADER = """
extern __device__ void __enzyme_autodiff(void *, ...);
__device__ int enzyme_dup, enzyme_const;
"""
_REQUEST = """
__global__ void g(TYPE *x, TYPE *dx, TYPE *y, TYPE *dy) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
}
"""


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("""__device__ void f(double *x, double *y) {
              double v = x[threadIdx.x];
              if (threadIdx.x < 16) __syncthreads();
              y[threadIdx.x] = v * v;
            }""",
         r"__syncthreads\(\) in @\S+ is in control flow that differs between the threads of a block"),
        ("""__device__ void f(float *x, float *y) { atomicExch(y, x[threadIdx.x]); }""",
         r"cannot differentiate @\S+: atomic 'xchg' updates of memory with derivatives are not supported in reverse mode"),
        ("""__device__ void f(double *x, double *y) { y[threadIdx.x] = atomicAdd(x, 1.0) * 2.0; }""",
         r"the result of 'llvm.atomicrmw' \(the value the memory held\) carries a derivative"),
        ("""__device__ void f(float *x, float *y) {
              y[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1);
            }""",
         r"the GPU intrinsic @llvm.nvvm.shfl.sync.down.f32 has no derivative"),
    ],
    ids=["divergent-barrier", "atomic-exchange", "atomic-old-value", "shuffle"],
)  # fmt: skip
def test_unsupported_in_reverse_mode(body, message):
    clang()
    t = "float" if "float" in body else "double"
    with pytest.raises(xz.XenzymeError, match=message):
        xz.cuda.load(_HEADER + body + _REQUEST.replace("TYPE", t), device="cpu")


# ---------------------------------------------------------------------------------------------
# The benchmark's kernels (benchmarks/cuda/kernels.cu) at small sizes, every partial derivative
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bench():
    clang()
    return xz.cuda.load(REPO / "benchmarks" / "cuda" / "kernels.cu", device="cpu")


def test_bench_stencil_2d_blocks(bench):
    w, h = 13, 9
    rng = np.random.default_rng(700)
    u, seed = rng.random(w * h), rng.random(w * h)
    grid, block = (blocks(w, 4), blocks(h, 4)), (4, 4)
    primal = bench.get_function("heat_primal")

    def run(x):
        out = np.zeros(w * h)
        primal(grid, block, (x, out, w, h))
        return out

    du, out = np.zeros(w * h), np.zeros(w * h)
    bench.get_function("heat_grad")(grid, block, (u, du, out, seed.copy(), w, h))
    close(du, fd(run, u, seed))


def test_bench_nbody_shared_tiles(bench):
    n = 70
    rng = np.random.default_rng(701)
    pos = rng.random((n, 4))
    pos[:, 3] += 0.5
    pos, seed = pos.ravel(), rng.random(3 * n)
    primal = bench.get_function("nbody_primal")

    def run(x):
        acc = np.zeros(3 * n)
        primal(blocks(n, 64), 64, (x, acc, n))
        return acc

    dpos, acc = np.zeros(4 * n), np.zeros(3 * n)
    bench.get_function("nbody_grad")(blocks(n, 64), 64, (pos, dpos, acc, seed.copy(), n))
    close(dpos, fd(run, pos, seed), rtol=1e-5, atol=1e-7)


def test_bench_lbm(bench):
    n = 50
    rng = np.random.default_rng(702)
    f, seed = 0.2 + 0.1 * rng.random(3 * n), rng.random(3 * n)
    primal = bench.get_function("lbm_primal")

    def run(x):
        g = np.zeros(3 * n)
        primal(blocks(n, 16), 16, (x, g, n))
        return g

    df, g = np.zeros(3 * n), np.zeros(3 * n)
    bench.get_function("lbm_grad")(blocks(n, 16), 16, (f, df, g, seed.copy(), n))
    close(df, fd(run, f, seed))


def test_bench_xsbench_lookup(bench):
    """A binary search (a data-dependent loop) picks the addresses the adjoints go to."""
    n, points, mats = 40, 20, 4
    rng = np.random.default_rng(703)
    grid_e, xs, conc = np.sort(rng.random(points)), rng.random(8 * points), rng.random(8 * mats)
    e, mat, seed = rng.uniform(0.05, 0.95, n), rng.integers(0, mats, n).astype(np.int32), rng.random(n)
    primal = bench.get_function("xs_primal")

    def run(xv, cv):
        out = np.zeros(n)
        primal(blocks(n, 16), 16, (grid_e, xv, cv, e, mat, out, n, points))
        return out

    dxs, dconc, out = np.zeros(8 * points), np.zeros(8 * mats), np.zeros(n)
    bench.get_function("xs_grad")(blocks(n, 16), 16, (grid_e, xs, dxs, conc, dconc, e, mat, out, seed.copy(), n, points))
    close(dxs, fd(lambda v: run(v, conc), xs, seed))
    close(dconc, fd(lambda v: run(xs, v), conc, seed))


def test_bench_ptx_accepted_by_ptxas(bench, tmp_path):
    ptxas = shutil.which("ptxas")
    if ptxas is None or shutil.which("nvcc") is None:
        pytest.skip("the CUDA toolkit (ptxas, and nvcc to find libdevice) is not installed")
    ptx = tmp_path / "k.ptx"
    source = REPO / "benchmarks" / "cuda" / "kernels.cu"
    r = run([*XENZYME_OPT, str(source), "-p", "enzyme", "-t", "ptx{arch=sm_90}", "-o", str(ptx)])
    assert r.returncode == 0, r.stderr
    text = ptx.read_text()
    for k in bench.kernels:
        assert f".visible .entry {k.symbol}(" in text, k.symbol
    r = subprocess.run([ptxas, "-arch=sm_90", str(ptx), "-o", str(tmp_path / "k.cubin")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_concurrent_launches_from_python_threads(m):
    """Launches from two Python threads at once, each with a team of one host thread (whose
    block function adds the adjoints of the weights every thread reads without atomics): they
    run one after the other, as on a CUDA stream, so every launch's adjoints arrive -- dw is
    the number of launches times the closed form that test_weights_every_thread_reads checks
    against central differences."""
    import threading

    from xenzyme.backend.jit import _libomp

    rng = np.random.default_rng(500)
    n, bs, launches = 1 << 14, 64, 12
    x, w, seed = rng.random(n), np.array([0.8, -0.3, 0.5]), rng.random(n)
    grad = m.get_function("weighted_alias_grad")
    dw = np.zeros(3)
    start = threading.Barrier(2)

    def worker():
        _libomp().omp_set_num_threads(1)
        start.wait()
        for _ in range(launches):
            grad(blocks(n, bs), bs, (x, np.zeros(n), w, dw, np.zeros(n), seed.copy(), n))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    e = np.exp(w[2] * x)
    close(dw, 2 * launches * np.array([seed @ np.sin(x), seed @ (x * x), seed @ (x * e)]), rtol=1e-10)
