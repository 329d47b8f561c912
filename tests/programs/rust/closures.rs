//! Closures turned into functions: a closure without captures coerced to a `fn` pointer is a
//! function of its own, passed to `__enzyme_autodiff` like any other; closures inside the
//! differentiated code (iterator adaptors, a local helper) are inlined or called directly; a
//! function taking a `fn` argument (a numerical integral of the given integrand) differentiated
//! with the function pointer constant.
mod common;
use common::{close, fd1, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    static enzyme_const: i32;
}

/// Trapezoidal rule of f(t) * x over [0, 1]: the derivative with respect to x.
fn integral(f: fn(f64, f64) -> f64, x: f64) -> f64 {
    let n = 64;
    let h = 1.0 / n as f64;
    let mut s = 0.5 * (f(0.0, x) + f(1.0, x));
    for i in 1..n {
        s += f(i as f64 * h, x);
    }
    s * h
}

fn main() {
    let gauss: fn(f64) -> f64 = |x| (-x * x).exp() * (3.0 * x).cos();
    let d = unsafe { __enzyme_autodiff(gauss as usize, 0.4) };
    close("d gauss/dx", d, fd1(gauss, 0.4), 1e-6);

    let poly: fn(f64) -> f64 = |x| {
        let coeffs = [1.0, -2.0, 0.5, 0.25];
        let horner = |acc: f64, c: &f64| acc * x + c;
        coeffs.iter().fold(0.0, horner)
    };
    let d = unsafe { __enzyme_autodiff(poly as usize, 1.3) };
    close("d poly/dx", d, 3.0 * 1.3 * 1.3 - 4.0 * 1.3 + 0.5, 1e-10);

    let integrand: fn(f64, f64) -> f64 = |t, x| (x * t).sin() / (1.0 + t);
    let d = unsafe { __enzyme_autodiff(integral as usize, enzyme_const, integrand, 0.9) };
    close("d integral/dx", d, fd1(|x| integral(integrand, x), 0.9), 1e-6);
    finish();
}
