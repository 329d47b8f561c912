//! Shared helpers of the Rust gradient programs: each program computes derivatives with
//! Enzyme's entry points, compares them with central finite differences of the primal computed
//! here, prints one line per check, and ends with `finish()`: PASS and status 0, or status 1.
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};

static FAILURES: AtomicUsize = AtomicUsize::new(0);

pub fn close(what: &str, got: f64, want: f64, tol: f64) {
    let scale = want.abs().max(1.0);
    if (got - want).abs() <= tol * scale {
        println!("ok   {what} = {got:.12}");
    } else {
        println!("FAIL {what}: got {got:.17}, expected {want:.17}");
        FAILURES.fetch_add(1, Ordering::Relaxed);
    }
}

/// Central difference of a scalar function of one variable.
pub fn fd1(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// Central difference of `g` with respect to `x[i]`.
pub fn fd_at(g: impl Fn(&[f64]) -> f64, x: &[f64], i: usize) -> f64 {
    let h = 1e-6 * x[i].abs().max(1.0);
    let mut up = x.to_vec();
    let mut down = x.to_vec();
    up[i] += h;
    down[i] -= h;
    (g(&up) - g(&down)) / (2.0 * h)
}

pub fn finish() {
    let n = FAILURES.load(Ordering::Relaxed);
    if n > 0 {
        println!("{n} check(s) failed");
        std::process::exit(1);
    }
    println!("PASS");
}
