//! A void function writing an output array, differentiated with the output's shadow as the
//! seed (a vector-Jacobian product): a dense layer y = softmax(W x + b) with nested loops over
//! a row-major matrix, the matrix and the bias duplicated too.
mod common;
use common::{close, fd_at, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...);
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

const N: usize = 3;
const M: usize = 4;

fn dense_softmax(w: *const f64, b: *const f64, x: *const f64, y: *mut f64) {
    let (w, b, x, y) = unsafe {
        (std::slice::from_raw_parts(w, M * N), std::slice::from_raw_parts(b, M),
         std::slice::from_raw_parts(x, N), std::slice::from_raw_parts_mut(y, M))
    };
    let mut z = [0.0; M];
    let mut top = f64::NEG_INFINITY;
    for i in 0..M {
        let mut s = b[i];
        for j in 0..N {
            s += w[i * N + j] * x[j];
        }
        z[i] = s;
        top = top.max(s);
    }
    let mut total = 0.0;
    for i in 0..M {
        z[i] = (z[i] - top).exp();
        total += z[i];
    }
    for i in 0..M {
        y[i] = z[i] / total;
    }
}

fn main() {
    let w: Vec<f64> = (0..M * N).map(|k| 0.3 * ((k * 7 % 5) as f64) - 0.5).collect();
    let b = [0.1, -0.2, 0.05, 0.3];
    let x = [0.7, -1.2, 0.4];
    let seed = [1.0, -0.5, 2.0, 0.25];
    let (mut dw, mut db, mut dx) = (vec![0.0; M * N], [0.0; M], [0.0; N]);
    let mut y = [0.0; M];
    let mut dy = seed;
    unsafe {
        __enzyme_autodiff(dense_softmax as usize, enzyme_dup, w.as_ptr(), dw.as_mut_ptr(), enzyme_dup, b.as_ptr(),
                          db.as_mut_ptr(), enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), enzyme_dup, y.as_mut_ptr(),
                          dy.as_mut_ptr())
    };
    let weighted = |w: &[f64], b: &[f64], x: &[f64]| {
        let mut out = [0.0; M];
        dense_softmax(w.as_ptr(), b.as_ptr(), x.as_ptr(), out.as_mut_ptr());
        (0..M).map(|i| seed[i] * out[i]).sum::<f64>()
    };
    for k in 0..M * N {
        close("d seed.y/dW", dw[k], fd_at(|v| weighted(v, &b, &x), &w, k), 1e-6);
    }
    for i in 0..M {
        close("d seed.y/db", db[i], fd_at(|v| weighted(&w, v, &x), &b, i), 1e-6);
    }
    for j in 0..N {
        close("d seed.y/dx", dx[j], fd_at(|v| weighted(&w, &b, v), &x, j), 1e-6);
    }
    close("primal sum(y) = 1", y.iter().sum(), 1.0, 1e-12);
    finish();
}
