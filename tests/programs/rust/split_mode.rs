//! Split mode from Rust: `__enzyme_augmentfwd` runs the forward sweep and returns the tape
//! (with the primal result), `__enzyme_reverse` takes the return's adjoint and the tape later.
mod common;
use common::{close, fd_at, finish};

#[repr(C)]
struct Augmented {
    tape: *mut u8,
    primal: f64,
}

unsafe extern "C" {
    fn __enzyme_augmentfwd(f: usize, ...) -> Augmented;
    fn __enzyme_reverse(f: usize, ...);
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

fn logsumexp(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let top = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    top + x.iter().map(|v| (v - top).exp()).sum::<f64>().ln()
}

fn main() {
    let x = [0.3, 1.7, -0.4, 1.1];
    let mut dx = [0.0; 4];
    let aug = unsafe { __enzyme_augmentfwd(logsumexp as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), enzyme_const, 4usize) };
    close("primal", aug.primal, logsumexp(x.as_ptr(), 4), 1e-12);
    // The adjoint of the result is 2: dx = 2 * softmax(x).
    unsafe { __enzyme_reverse(logsumexp as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), enzyme_const, 4usize, 2.0, aug.tape) };
    for i in 0..4 {
        close("d 2 lse/dx", dx[i], 2.0 * fd_at(|v| logsumexp(v.as_ptr(), 4), &x, i), 1e-6);
    }
    finish();
}
