//! Scalar functions: one active argument (the derivative is the call's value), two active
//! arguments (a `#[repr(C)]` pair returned in registers, as Enzyme's C ABI does), a constant
//! integer argument, math functions of std (sin, exp, ln, powi, powf, sqrt, tanh, hypot).
mod common;
use common::{close, fd1, finish};

#[repr(C)]
#[derive(Clone, Copy)]
struct Pair {
    dx: f64,
    dy: f64,
}

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    // Any name containing __enzyme_autodiff is a request: one declaration per result type.
    fn __enzyme_autodiff_pair(f: usize, ...) -> Pair;
    static enzyme_const: i32;
}

fn wave(x: f64) -> f64 {
    x.sin() * (-0.5 * x).exp() + x.powi(3) - (1.0 + x * x).ln()
}

#[no_mangle]
pub extern "C" fn bumpy(x: f64, y: f64) -> f64 {
    (x * y).tanh() + x.hypot(y) + y.powf(1.5) * x.sqrt()
}

fn scaled(x: f64, k: i32) -> f64 {
    (k as f64) * x.cos() + (x / k as f64).exp()
}

fn main() {
    for &x in &[0.3, 1.2, 2.5] {
        let d = unsafe { __enzyme_autodiff(wave as usize, x) };
        close("d wave/dx", d, fd1(wave, x), 1e-6);
    }
    let (x, y) = (0.8, 1.7);
    let p = unsafe { __enzyme_autodiff_pair(bumpy as usize, x, y) };
    close("d bumpy/dx", p.dx, fd1(|t| bumpy(t, y), x), 1e-6);
    close("d bumpy/dy", p.dy, fd1(|t| bumpy(x, t), y), 1e-6);
    let d = unsafe { __enzyme_autodiff(scaled as usize, 0.9, enzyme_const, 4) };
    close("d scaled/dx", d, fd1(|t| scaled(t, 4), 0.9), 1e-6);
    finish();
}
