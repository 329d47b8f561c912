//! f32: floats cannot travel through `...` in Rust (nor in C), so the entry point is declared
//! without variadics, with f32 parameters -- one declaration per signature, each a name that
//! contains `__enzyme_autodiff`.  f32 arrays pass by pointer.  Finite differences in f64 of the
//! f32 function with a step suited to f32.
mod common;
use common::{close, finish};

unsafe extern "C" {
    fn __enzyme_autodiff_f32(f: usize, x: f32) -> f32;
    fn __enzyme_autodiff_f32x2(f: usize, x: f32, y: f32) -> Pair32;
    fn __enzyme_autodiff_f32_array(f: usize, m: i32, x: *const f32, dx: *mut f32, c: i32, n: usize) -> f32;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

#[repr(C)]
struct Pair32 {
    dx: f32,
    dy: f32,
}

fn soft(x: f32) -> f32 {
    (1.0 + x.exp()).ln() * x.sin()
}

fn mix(x: f32, y: f32) -> f32 {
    x * y.cos() + (x * x + y).sqrt()
}

fn mean_sq(x: *const f32, n: usize) -> f32 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    x.iter().map(|v| v * v * v).sum::<f32>() / n as f32
}

fn fd32(f: impl Fn(f32) -> f32, x: f32) -> f64 {
    let h = 1e-2f32 * x.abs().max(1.0);
    ((f(x + h) as f64) - (f(x - h) as f64)) / (2.0 * h as f64)
}

fn main() {
    let x = 0.9f32;
    let d = unsafe { __enzyme_autodiff_f32(soft as usize, x) };
    let exact = (x.exp() / (1.0 + x.exp())) * x.sin() + (1.0 + x.exp()).ln() * x.cos();
    close("d soft/dx", d as f64, exact as f64, 1e-5);
    close("d soft/dx (fd)", d as f64, fd32(soft, x), 2e-3);

    let p = unsafe { __enzyme_autodiff_f32x2(mix as usize, 1.2, 0.4) };
    close("d mix/dx", p.dx as f64, fd32(|t| mix(t, 0.4), 1.2), 2e-3);
    close("d mix/dy", p.dy as f64, fd32(|t| mix(1.2, t), 0.4), 2e-3);

    let xs = [0.5f32, -1.0, 2.0, 0.25];
    let mut dxs = [0.0f32; 4];
    unsafe { __enzyme_autodiff_f32_array(mean_sq as usize, enzyme_dup, xs.as_ptr(), dxs.as_mut_ptr(), enzyme_const, 4) };
    for i in 0..4 {
        close("d mean_sq/dx", dxs[i] as f64, 3.0 * (xs[i] as f64).powi(2) / 4.0, 1e-6);
    }
    finish();
}
