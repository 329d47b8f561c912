//! Slices passed as pointer + length with their shadows: a Rust function taking `&[f64]`
//! receives two LLVM arguments (the pointer, the length), so the request passes `enzyme_dup,
//! x, dx` for the pointer and the length after it; a C-ABI function building its slice with
//! `from_raw_parts`; a function writing an output slice, whose shadow is the seed.
mod common;
use common::{close, fd_at, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

fn energy(x: &[f64], w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * x[i] * x[i] + x[i].sin() * x[(i + 1) % x.len()];
    }
    s
}

#[no_mangle]
pub extern "C" fn norm2(x: *const f64, n: usize) -> f64 {
    let xs = unsafe { std::slice::from_raw_parts(x, n) };
    xs.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// out[i] = x[i] * x[i+1] (cyclic): the shadow of `out` seeds the reverse sweep.
fn pairs(x: &[f64], out: &mut [f64]) {
    let n = x.len();
    for i in 0..n {
        out[i] = x[i] * x[(i + 1) % n];
    }
}

fn main() {
    let x = [0.4, -1.1, 0.7, 2.0, 0.3];
    let w = [1.0, 0.5, 2.0, 0.25, 1.5];
    let n = x.len();

    let mut dx = [0.0; 5];
    unsafe { __enzyme_autodiff(energy as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), n, enzyme_const, w.as_ptr(), n) };
    for i in 0..n {
        close("d energy/dx", dx[i], fd_at(|v| energy(v, &w), &x, i), 1e-6);
    }

    let mut dx = [0.0; 5];
    unsafe { __enzyme_autodiff(norm2 as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), enzyme_const, n) };
    for i in 0..n {
        close("d norm2/dx", dx[i], fd_at(|v| norm2(v.as_ptr(), n), &x, i), 1e-6);
    }

    // Seed out[2] and out[4]: dx = 1 * d out[2]/dx + 3 * d out[4]/dx.
    let mut dx = [0.0; 5];
    let mut out = [0.0; 5];
    let mut dout = [0.0, 0.0, 1.0, 0.0, 3.0];
    unsafe {
        __enzyme_autodiff(pairs as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), n,
                          enzyme_dup, out.as_mut_ptr(), dout.as_mut_ptr(), n)
    };
    let seeded = |v: &[f64]| {
        let mut o = [0.0; 5];
        pairs(v, &mut o);
        o[2] + 3.0 * o[4]
    };
    for i in 0..n {
        close("d (out[2] + 3 out[4])/dx", dx[i], fd_at(seeded, &x, i), 1e-6);
    }
    close("primal out[1]", out[1], x[1] * x[2], 1e-12);
    finish();
}
