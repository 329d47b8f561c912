//! Generic code and traits: a generic function monomorphised for f64, a trait object-free
//! static dispatch through a trait with an associated function, `impl` blocks with methods
//! on a struct held in a fixed-size array, `Option` handling inside the differentiated code.
mod common;
use common::{close, fd1, fd_at, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

trait Activation {
    fn apply(x: f64) -> f64;
}

struct Swish;
struct Softplus;

impl Activation for Swish {
    fn apply(x: f64) -> f64 {
        x / (1.0 + (-x).exp())
    }
}

impl Activation for Softplus {
    fn apply(x: f64) -> f64 {
        (1.0 + x.exp()).ln()
    }
}

fn network<A: Activation>(x: f64) -> f64 {
    let h = A::apply(1.5 * x - 0.2);
    A::apply(0.7 * h + 0.1 * x)
}

#[derive(Clone, Copy)]
struct Spring {
    k: f64,
    rest: f64,
}

impl Spring {
    fn energy(&self, length: f64) -> f64 {
        0.5 * self.k * (length - self.rest).powi(2)
    }
}

/// Energy of a chain of springs between consecutive positions; a missing next position
/// (`None` at the end) contributes nothing.
fn chain_energy(x: *const f64, springs: *const [Spring; 3]) -> f64 {
    let (x, springs) = unsafe { (std::slice::from_raw_parts(x, 4), &*springs) };
    let mut e = 0.0;
    for (i, s) in springs.iter().enumerate() {
        if let Some(next) = x.get(i + 1) {
            e += s.energy(next - x[i]);
        }
    }
    e
}

fn main() {
    let d = unsafe { __enzyme_autodiff(network::<Swish> as usize, 0.8) };
    close("d swish net/dx", d, fd1(network::<Swish>, 0.8), 1e-6);
    let d = unsafe { __enzyme_autodiff(network::<Softplus> as usize, -0.3) };
    close("d softplus net/dx", d, fd1(network::<Softplus>, -0.3), 1e-6);

    let springs = [Spring { k: 2.0, rest: 1.0 }, Spring { k: 0.5, rest: 0.8 }, Spring { k: 1.5, rest: 1.2 }];
    let x = [0.0, 1.3, 1.9, 3.4];
    let mut dx = [0.0; 4];
    unsafe { __enzyme_autodiff(chain_energy as usize, enzyme_dup, x.as_ptr(), dx.as_mut_ptr(), enzyme_const, &springs as *const [Spring; 3]) };
    for i in 0..4 {
        close("d chain/dx", dx[i], fd_at(|v| chain_energy(v.as_ptr(), &springs), &x, i), 1e-6);
    }
    finish();
}
