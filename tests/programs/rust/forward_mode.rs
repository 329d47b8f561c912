//! Forward mode from Rust: `__enzyme_fwddiff(f as usize, x, dx)` returns the directional
//! derivative; pointers come with tangent arrays, and the tangents of an output array are
//! written to its shadow.
mod common;
use common::{close, fd1, finish};

unsafe extern "C" {
    fn __enzyme_fwddiff(f: usize, ...) -> f64;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

fn f(x: f64, y: f64) -> f64 {
    (x * y).sin() + x.exp() / (1.0 + y * y)
}

/// out[i] = tanh(w * x[i]) + x[i]^2
fn layer(x: *const f64, out: *mut f64, w: f64, n: usize) {
    let (x, out) = unsafe { (std::slice::from_raw_parts(x, n), std::slice::from_raw_parts_mut(out, n)) };
    for i in 0..n {
        out[i] = (w * x[i]).tanh() + x[i] * x[i];
    }
}

fn main() {
    let (x, y) = (0.6, -0.4);
    // Direction (1, 0) and (0.5, 2).
    let dfx = unsafe { __enzyme_fwddiff(f as usize, x, 1.0, y, 0.0) };
    close("df/dx", dfx, fd1(|t| f(t, y), x), 1e-6);
    let dfv = unsafe { __enzyme_fwddiff(f as usize, x, 0.5, y, 2.0) };
    close("df . (0.5, 2)", dfv, 0.5 * fd1(|t| f(t, y), x) + 2.0 * fd1(|t| f(x, t), y), 1e-6);

    let xs = [0.1, -0.7, 1.3];
    let dxs = [1.0, 0.0, -2.0];
    let mut out = [0.0; 3];
    let mut dout = [0.0; 3];
    let w = 0.8;
    unsafe {
        __enzyme_fwddiff(layer as usize, enzyme_dup, xs.as_ptr(), dxs.as_ptr(), enzyme_dup, out.as_mut_ptr(),
                         dout.as_mut_ptr(), enzyme_const, w, enzyme_const, 3usize)
    };
    for i in 0..3 {
        let g = |t: f64| (w * t).tanh() + t * t;
        close("tangent of out", dout[i], dxs[i] * fd1(g, xs[i]), 1e-6);
    }
    finish();
}
