//! A `Vec` allocated inside the differentiated function: its buffer comes from Rust's global
//! allocator (`__rust_alloc`, `__rust_realloc`, `__rust_dealloc`), whose memory needs a
//! shadow as `malloc`'s does.
mod common;
use common::{close, fd_at, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

fn smoothed(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut products: Vec<f64> = Vec::with_capacity(n);
    for i in 0..n {
        products.push(x[i] * x[(i + 1) % n]);
    }
    products.iter().map(|v| v.exp()).sum::<f64>().ln()
}

fn main() {
    let x = [0.2, -0.5, 0.9, 1.4, 0.1];
    let mut dx = [0.0; 5];
    unsafe { __enzyme_autodiff(smoothed as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), enzyme_const, 5usize) };
    for i in 0..5 {
        close("d smoothed/dx", dx[i], fd_at(|v| smoothed(v.as_ptr(), 5), &x, i), 1e-6);
    }
    finish();
}
