//! A small ODE integrator: classical Runge-Kutta on a fixed-size state (`[f64; 2]`, on the
//! stack) of a damped, driven pendulum; the loss is a function of the final state.  Derivatives
//! with respect to the initial state and the parameters (a struct), against finite differences.
mod common;
use common::{close, fd1, finish};

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
    static enzyme_dup: i32;
    static enzyme_const: i32;
}

#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Pendulum {
    damping: f64,
    drive: f64,
}

type State = [f64; 2];

fn rhs(t: f64, y: &State, p: &Pendulum) -> State {
    [y[1], -y[0].sin() - p.damping * y[1] + p.drive * (0.7 * t).cos()]
}

fn axpy(y: &State, h: f64, k: &State) -> State {
    [y[0] + h * k[0], y[1] + h * k[1]]
}

fn rk4(y0: &State, p: &Pendulum, steps: usize, h: f64) -> State {
    let mut y = *y0;
    for s in 0..steps {
        let t = s as f64 * h;
        let k1 = rhs(t, &y, p);
        let k2 = rhs(t + 0.5 * h, &axpy(&y, 0.5 * h, &k1), p);
        let k3 = rhs(t + 0.5 * h, &axpy(&y, 0.5 * h, &k2), p);
        let k4 = rhs(t + h, &axpy(&y, h, &k3), p);
        for i in 0..2 {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    y
}

fn loss(y0: *const State, p: *const Pendulum, steps: usize) -> f64 {
    let (y0, p) = unsafe { (&*y0, &*p) };
    let y = rk4(y0, p, steps, 0.05);
    y[0] * y[0] + 0.5 * y[1]
}

fn main() {
    let y0: State = [0.8, -0.2];
    let p = Pendulum { damping: 0.3, drive: 0.5 };
    let steps = 60usize;
    let mut dy0: State = [0.0; 2];
    let mut dp = Pendulum::default();
    unsafe {
        __enzyme_autodiff(loss as usize, enzyme_dup, &y0 as *const State, &mut dy0 as *mut State,
                          enzyme_dup, &p as *const Pendulum, &mut dp as *mut Pendulum, enzyme_const, steps)
    };
    for i in 0..2 {
        let fd = fd1(|t| { let mut y = y0; y[i] = t; loss(&y, &p, steps) }, y0[i]);
        close("d loss/dy0", dy0[i], fd, 1e-6);
    }
    close("d loss/ddamping", dp.damping, fd1(|t| loss(&y0, &Pendulum { damping: t, ..p }, steps), p.damping), 1e-6);
    close("d loss/ddrive", dp.drive, fd1(|t| loss(&y0, &Pendulum { drive: t, ..p }, steps), p.drive), 1e-6);
    finish();
}
