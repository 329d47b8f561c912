//! Structs: parameters in a `#[repr(C)]` struct passed by reference, with a shadow struct that
//! receives the derivative of each float field (the integer field stays untouched); a struct of
//! arrays; a struct built and read inside the differentiated function.
mod common;
use common::{close, fd1, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Params {
    scale: f64,
    steps: i32,
    rate: f64,
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Points {
    x: [f64; 3],
    y: [f64; 3],
}

#[derive(Clone, Copy)]
struct Complex {
    re: f64,
    im: f64,
}

impl Complex {
    fn mul(self, o: Complex) -> Complex {
        Complex { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
}

fn decay(p: &Params, x: f64) -> f64 {
    let mut v = x;
    for _ in 0..p.steps {
        v = p.scale * v * (-p.rate * v).exp();
    }
    v
}

fn spread(pts: &Points) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let (dx, dy) = (pts.x[i] - pts.x[(i + 1) % 3], pts.y[i] - pts.y[(i + 1) % 3]);
        s += (dx * dx + dy * dy).sqrt();
    }
    s
}

/// |z^3|^2 for z = a + i b: complex arithmetic through a struct that lives in registers.
fn cube_norm(a: f64, b: f64) -> f64 {
    let z = Complex { re: a, im: b };
    let w = z.mul(z).mul(z);
    w.re * w.re + w.im * w.im
}

fn main() {
    let p = Params { scale: 1.3, steps: 4, rate: 0.2 };
    let mut dp = Params::default();
    let x = 0.7;
    let dx = unsafe { __enzyme_autodiff(decay as usize, enzyme_dup, &p as *const Params, &mut dp as *mut Params, x) };
    close("d decay/dx", dx, fd1(|t| decay(&p, t), x), 1e-6);
    close("d decay/dscale", dp.scale, fd1(|t| decay(&Params { scale: t, ..p }, x), p.scale), 1e-6);
    close("d decay/drate", dp.rate, fd1(|t| decay(&Params { rate: t, ..p }, x), p.rate), 1e-6);
    if dp.steps != 0 {
        println!("FAIL the shadow's integer field was written: {}", dp.steps);
        std::process::exit(1);
    }

    let pts = Points { x: [0.0, 1.0, 0.3], y: [0.2, -0.4, 1.1] };
    let mut dpts = Points::default();
    unsafe { __enzyme_autodiff(spread as usize, enzyme_dup, &pts as *const Points, &mut dpts as *mut Points) };
    for i in 0..3 {
        close("d spread/dx", dpts.x[i], fd1(|t| { let mut q = pts; q.x[i] = t; spread(&q) }, pts.x[i]), 1e-6);
        close("d spread/dy", dpts.y[i], fd1(|t| { let mut q = pts; q.y[i] = t; spread(&q) }, pts.y[i]), 1e-6);
    }

    let da = unsafe { __enzyme_autodiff(cube_norm as usize, 0.6, enzyme_const, 0.8) };
    close("d |z^3|^2/da", da, fd1(|t| cube_norm(t, 0.8), 0.6), 1e-6);
    finish();
}
