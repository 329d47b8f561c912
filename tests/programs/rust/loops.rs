//! Loops: nested `for` loops over ranges, a `while` loop whose trip count depends on the data
//! (Newton iterations to a tolerance), `loop` with `break`, and an early `return`.
mod common;
use common::{close, fd1, fd_at, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

/// sum_i sum_j x_i x_j exp(-|i - j| / 2) (a quadratic form with a kernel matrix).
fn quad_form(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..n {
            let k = (-((i as f64) - (j as f64)).abs() / 2.0).exp();
            s += x[i] * k * x[j];
        }
    }
    s
}

/// The cube root of a by Newton's method, iterated until the step is tiny.
fn cbrt_newton(a: f64) -> f64 {
    let mut y = a.max(1.0);
    let mut step: f64 = 1.0;
    while step.abs() > 1e-14 * y.abs() {
        step = (y * y * y - a) / (3.0 * y * y);
        y -= step;
    }
    y
}

/// Sum of a decreasing series until the terms are below a threshold, at most 200 terms.
fn series(x: f64) -> f64 {
    let mut term = 1.0;
    let mut s = 0.0;
    let mut k = 1;
    loop {
        s += term;
        term *= x / k as f64;
        k += 1;
        if term.abs() < 1e-15 || k > 200 {
            break;
        }
    }
    s
}

/// Returns early when the running product leaves [-10, 10].
fn clipped_product(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut p = 1.0;
    for v in x {
        p *= v;
        if p.abs() > 10.0 {
            return 10.0 * p.signum() + 0.01 * p;
        }
    }
    p
}

fn main() {
    let x = [0.5, -0.3, 1.2, 0.8, -1.5, 0.1];
    let n = x.len();
    let mut dx = [0.0; 6];
    unsafe { __enzyme_autodiff(quad_form as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), enzyme_const, n) };
    for i in 0..n {
        close("d quad_form/dx", dx[i], fd_at(|v| quad_form(v.as_ptr(), n), &x, i), 1e-6);
    }
    for &a in &[2.0f64, 27.0, 100.0] {
        let d = unsafe { __enzyme_autodiff(cbrt_newton as usize, a) };
        close("d cbrt/da", d, 1.0 / (3.0 * a.cbrt() * a.cbrt()), 1e-8);
    }
    for &t in &[0.5, 2.0] {
        let d = unsafe { __enzyme_autodiff(series as usize, t) };
        close("d series/dx", d, fd1(series, t), 1e-6);
    }
    for y in [[1.5, 2.0, 1.1, 0.5], [3.0, 4.0, 1.5, 2.0]] {
        let mut dy = [0.0; 4];
        unsafe { __enzyme_autodiff(clipped_product as usize, enzyme_dup, y.as_ptr(), dy.as_mut_ptr(), enzyme_const, 4usize) };
        for i in 0..4 {
            close("d clipped_product/dx", dy[i], fd_at(|v| clipped_product(v.as_ptr(), 4), &y, i), 1e-6);
        }
    }
    finish();
}
