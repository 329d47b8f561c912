// Programs differentiated at the structured level (tests/test_mlir_structured.py).

// Float arithmetic of every kind, a select on a comparison, max.
func.func @arith_mix(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %q = arith.divf %x, %y : f64
  %d = arith.subf %p, %q : f64
  %n = arith.negf %d : f64
  %c = arith.cmpf ogt, %x, %y : f64
  %s = arith.select %c, %d, %n : f64
  %m = arith.maxnumf %x, %y : f64
  %r = arith.addf %s, %m : f64
  func.return %r : f64
}

// The math dialect: each op once.
func.func @math_mix(%x: f64, %y: f64) -> f64 {
  %e = math.exp %x : f64
  %s = math.sin %y : f64
  %c = math.cos %x : f64
  %t = math.tanh %s : f64
  %one = arith.constant 1.0 : f64
  %xx = arith.mulf %x, %x : f64
  %q = arith.addf %xx, %one : f64
  %l = math.log %q : f64
  %r = math.sqrt %q : f64
  %p = math.powf %q, %y : f64
  %a = math.atan %x : f64
  %lp = math.log1p %xx : f64
  %u1 = arith.mulf %e, %c : f64
  %u2 = arith.addf %u1, %t : f64
  %u3 = arith.divf %l, %r : f64
  %u4 = arith.addf %u2, %u3 : f64
  %u5 = arith.addf %u4, %p : f64
  %u6 = arith.mulf %a, %lp : f64
  %u7 = arith.addf %u5, %u6 : f64
  func.return %u7 : f64
}

// f32 with conversions to and from f64.
func.func @mixed32(%x: f32, %y: f64) -> f32 {
  %xe = arith.extf %x : f32 to f64
  %p = arith.mulf %xe, %y : f64
  %s = math.sin %p : f64
  %t = arith.truncf %s : f64 to f32
  %e = math.exp %x : f32
  %r = arith.mulf %t, %e : f32
  func.return %r : f32
}

// A loop from 2 by 3 (the induction variable used as data), a value carried, a free float.
func.func @strided(%x: f64, %n: index) -> f64 {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c2 to %n step %c3 iter_args(%p = %one) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %a = arith.mulf %p, %x : f64
    %b = arith.mulf %fi, %x : f64
    %c = math.cos %b : f64
    %d = arith.addf %a, %c : f64
    scf.yield %d : f64
  }
  func.return %r : f64
}

// A carried counter (inactive) beside carried floats; the loop's result used twice.
func.func @counter(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %k0 = arith.constant 0 : i64
  %k1 = arith.constant 1 : i64
  %r:3 = scf.for %i = %c0 to %c6 step %c1 iter_args(%k = %k0, %a = %x, %b = %y) -> (i64, f64, f64) {
    %k2 = arith.addi %k, %k1 : i64
    %fk = arith.sitofp %k2 : i64 to f64
    %s = math.sin %b : f64
    %a2 = arith.mulf %s, %fk : f64
    %a3 = arith.addf %a2, %a : f64
    %b2 = arith.mulf %a, %b : f64
    %b3 = math.tanh %b2 : f64
    scf.yield %k2, %b3, %a3 : i64, f64, f64
  }
  %o = arith.mulf %r#1, %r#2 : f64
  %o2 = arith.addf %o, %r#1 : f64
  func.return %o2 : f64
}

// C = A B with dynamic sizes (three nested loops, an accumulation carried by the innermost).
func.func @matmul(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf64>
  %k = memref.dim %A, %c1 : memref<?x?xf64>
  %n = memref.dim %B, %c1 : memref<?x?xf64>
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f64) {
        %a = memref.load %A[%i, %l] : memref<?x?xf64>
        %b = memref.load %B[%l, %j] : memref<?x?xf64>
        %p = arith.mulf %a, %b : f64
        %acc2 = arith.addf %acc, %p : f64
        scf.yield %acc2 : f64
      }
      memref.store %s, %C[%i, %j] : memref<?x?xf64>
    }
  }
  func.return
}

// An scf.if with results outside any loop.
func.func @branch(%x: f64, %w: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %pos = arith.cmpf ogt, %x, %zero : f64
  %y, %z = scf.if %pos -> (f64, f64) {
    %e = math.exp %x : f64
    %m = arith.mulf %e, %w : f64
    scf.yield %m, %e : f64, f64
  } else {
    %xx = arith.mulf %x, %x : f64
    %one = arith.constant 1.0 : f64
    %q = arith.addf %xx, %one : f64
    %l = math.log %q : f64
    %lw = arith.mulf %l, %w : f64
    scf.yield %lw, %w : f64, f64
  }
  %r = arith.mulf %y, %z : f64
  func.return %r : f64
}

// In place: a[i] = sin(a[i] * a[i-1]) (each load reads what an earlier iteration stored).
func.func @inplace(%a: memref<?xf64>, %w: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  scf.for %i = %c1 to %n step %c1 {
    %im1 = arith.subi %i, %c1 : index
    %u = memref.load %a[%i] : memref<?xf64>
    %v = memref.load %a[%im1] : memref<?xf64>
    %p = arith.mulf %u, %v : f64
    %q = arith.mulf %p, %w : f64
    %s = math.sin %q : f64
    memref.store %s, %a[%i] : memref<?xf64>
  }
  func.return
}

// A temporary of dynamic size: squares, then a weighted sum of neighbours.
func.func @temporary(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %t = memref.alloc(%n) : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %t[%i] : memref<?xf64>
  }
  %nm1 = arith.subi %n, %c1 : index
  %r = scf.for %i = %c0 to %nm1 step %c1 iter_args(%acc = %zero) -> (f64) {
    %ip1 = arith.addi %i, %c1 : index
    %a = memref.load %t[%i] : memref<?xf64>
    %b = memref.load %t[%ip1] : memref<?xf64>
    %p = arith.mulf %a, %b : f64
    %s = math.sqrt %p : f64
    %acc2 = arith.addf %acc, %s : f64
    scf.yield %acc2 : f64
  }
  memref.dealloc %t : memref<?xf64>
  func.return %r : f64
}

// A call of a function with two active floats (its derivative returns two values).
func.func private @hyp(%a: f64, %b: f64) -> f64 {
  %aa = arith.mulf %a, %a : f64
  %bb = arith.mulf %b, %b : f64
  %s = arith.addf %aa, %bb : f64
  %r = math.sqrt %s : f64
  func.return %r : f64
}

func.func @norms(%x: memref<5xf64>, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<5xf64>
    %h = func.call @hyp(%v, %y) : (f64, f64) -> f64
    %hh = arith.mulf %h, %acc : f64
    %acc2 = arith.addf %hh, %h : f64
    scf.yield %acc2 : f64
  }
  func.return %r : f64
}

// Cross entropy: logsumexp(x) - x[label], the label an index argument.
func.func @xent(%x: memref<?xf64>, %label: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %mx = scf.for %i = %c1 to %n step %c1 iter_args(%m = %x0) -> (f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %m2 = arith.maxnumf %m, %v : f64
    scf.yield %m2 : f64
  }
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %mx : f64
    %e = math.exp %d : f64
    %acc2 = arith.addf %acc, %e : f64
    scf.yield %acc2 : f64
  }
  %l = math.log %s : f64
  %lse = arith.addf %l, %mx : f64
  %xl = memref.load %x[%label] : memref<?xf64>
  %r = arith.subf %lse, %xl : f64
  func.return %r : f64
}

// Softmax into y, f64, through a temporary of static size.
func.func @softmax4(%x: memref<4xf64>, %y: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %e = memref.alloc() : memref<4xf64>
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f64) {
    %v = memref.load %x[%i] : memref<4xf64>
    %ev = math.exp %v : f64
    memref.store %ev, %e[%i] : memref<4xf64>
    %acc2 = arith.addf %acc, %ev : f64
    scf.yield %acc2 : f64
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %ev = memref.load %e[%i] : memref<4xf64>
    %p = arith.divf %ev, %s : f64
    memref.store %p, %y[%i] : memref<4xf64>
  }
  memref.dealloc %e : memref<4xf64>
  func.return
}

// An ODE time loop: Heun's method on a damped oscillator, the state in a memref<2xf64>,
// parameters k (active) and c (in a const memref); the energy at the end returned.
func.func @heun(%u: memref<2xf64>, %k: f64, %pc: memref<1xf64>, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = arith.constant 0.05 : f64
  %half = arith.constant 0.5 : f64
  %c = memref.load %pc[%c0] : memref<1xf64>
  scf.for %t = %c0 to %steps step %c1 {
    %x = memref.load %u[%c0] : memref<2xf64>
    %v = memref.load %u[%c1] : memref<2xf64>
    %kx = arith.mulf %k, %x : f64
    %cv = arith.mulf %c, %v : f64
    %a0 = arith.addf %kx, %cv : f64
    %a = arith.negf %a0 : f64
    %hv = arith.mulf %h, %v : f64
    %xp = arith.addf %x, %hv : f64
    %ha = arith.mulf %h, %a : f64
    %vp = arith.addf %v, %ha : f64
    %kxp = arith.mulf %k, %xp : f64
    %sx = math.sin %xp : f64
    %kxs = arith.addf %kxp, %sx : f64
    %cvp = arith.mulf %c, %vp : f64
    %ap0 = arith.addf %kxs, %cvp : f64
    %ap = arith.negf %ap0 : f64
    %vs = arith.addf %v, %vp : f64
    %dx = arith.mulf %vs, %half : f64
    %as = arith.addf %a, %ap : f64
    %dv = arith.mulf %as, %half : f64
    %hdx = arith.mulf %h, %dx : f64
    %x2 = arith.addf %x, %hdx : f64
    %hdv = arith.mulf %h, %dv : f64
    %v2 = arith.addf %v, %hdv : f64
    memref.store %x2, %u[%c0] : memref<2xf64>
    memref.store %v2, %u[%c1] : memref<2xf64>
  }
  %xf = memref.load %u[%c0] : memref<2xf64>
  %vf = memref.load %u[%c1] : memref<2xf64>
  %xx = arith.mulf %xf, %xf : f64
  %kxx = arith.mulf %k, %xx : f64
  %vv = arith.mulf %vf, %vf : f64
  %en = arith.addf %kxx, %vv : f64
  func.return %en : f64
}

// Power iteration-like: an inner reduction feeds the value the outer loop carries; an scf.if
// inside the loop picks between two updates.
func.func @iterate(%A: memref<3xf64>, %v0: f64, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %t = %c0 to %steps step %c1 iter_args(%v = %v0) -> (f64) {
    %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f64) {
      %a = memref.load %A[%j] : memref<3xf64>
      %av = arith.mulf %a, %v : f64
      %acc2 = arith.addf %acc, %av : f64
      scf.yield %acc2 : f64
    }
    %big = arith.cmpf ogt, %s, %v : f64
    %nv = scf.if %big -> (f64) {
      %th = math.tanh %s : f64
      scf.yield %th : f64
    } else {
      %sv = arith.mulf %s, %v : f64
      %sn = math.sin %sv : f64
      scf.yield %sn : f64
    }
    scf.yield %nv : f64
  }
  func.return %r : f64
}

// A matrix-vector product with const weights and a dup input, 2-D static memrefs.
func.func @layer(%W: memref<3x4xf64>, %x: memref<4xf64>, %b: memref<3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%tot = %zero) -> (f64) {
    %bi = memref.load %b[%i] : memref<3xf64>
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %bi) -> (f64) {
      %w = memref.load %W[%i, %j] : memref<3x4xf64>
      %xj = memref.load %x[%j] : memref<4xf64>
      %p = arith.mulf %w, %xj : f64
      %acc2 = arith.addf %acc, %p : f64
      scf.yield %acc2 : f64
    }
    %t = math.tanh %s : f64
    %tt = arith.mulf %t, %t : f64
    %tot2 = arith.addf %tot, %tt : f64
    scf.yield %tot2 : f64
  }
  func.return %r : f64
}

// A triangular nest: the inner bound is the outer induction variable.  Nothing of the inner
// loop needs caching (sum_i sum_{j<i} x_j * x_i), so the structured level takes it.
func.func @triangle(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%tot = %zero) -> (f64) {
    %xi = memref.load %x[%i] : memref<?xf64>
    %s = scf.for %j = %c0 to %i step %c1 iter_args(%acc = %tot) -> (f64) {
      %xj = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %xj, %xi : f64
      %acc2 = arith.addf %acc, %p : f64
      scf.yield %acc2 : f64
    }
    scf.yield %s : f64
  }
  func.return %r : f64
}

// The same nest, with a nonlinear carried value the inner loop must cache per iteration: its
// cache would be sized by a bound known only inside the outer loop, so it goes to the llvm level.
func.func @triangle_cached(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%tot = %zero) -> (f64) {
    %xi = memref.load %x[%i] : memref<?xf64>
    %s = scf.for %j = %c0 to %i step %c1 iter_args(%acc = %tot) -> (f64) {
      %xj = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %xj, %xi : f64
      %q = arith.mulf %acc, %p : f64
      %t = math.sin %q : f64
      %acc2 = arith.addf %acc, %t : f64
      scf.yield %acc2 : f64
    }
    %s2 = arith.addf %s, %xi : f64
    scf.yield %s2 : f64
  }
  func.return %r : f64
}

// An scf.if without else or results inside a loop, storing in place.
func.func @masked(%x: memref<4xf64>, %w: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf64>
    %neg = arith.cmpf olt, %v, %zero : f64
    scf.if %neg {
      %s = arith.mulf %v, %w : f64
      %t = math.sin %s : f64
      memref.store %t, %x[%i] : memref<4xf64>
    }
  }
  func.return
}

// A loop inside a top-level scf.if: its caches are allocated before the if.
func.func @loop_in_if(%x: memref<3xf64>, %w: f64, %flag: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.if %flag -> (f64) {
    %q = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %w) -> (f64) {
      %v = memref.load %x[%i] : memref<3xf64>
      %p = arith.mulf %acc, %v : f64
      %t = math.tanh %p : f64
      scf.yield %t : f64
    }
    scf.yield %q : f64
  } else {
    %m = arith.mulf %w, %w : f64
    scf.yield %m : f64
  }
  func.return %r : f64
}

// An outer iteration's value used nonlinearly by the inner loop; the rows written back.
func.func @outer_value(%A: memref<3x4xf64>, %y: memref<3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%tot = %zero) -> (f64) {
    %yi = memref.load %y[%i] : memref<3xf64>
    %o = math.exp %yi : f64
    %ot = arith.mulf %o, %tot : f64
    %u = arith.addf %ot, %yi : f64
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %tot) -> (f64) {
      %a = memref.load %A[%i, %j] : memref<3x4xf64>
      %p = arith.mulf %u, %a : f64
      %t = math.sin %p : f64
      %q = arith.mulf %t, %acc : f64
      %acc2 = arith.addf %q, %t : f64
      scf.yield %acc2 : f64
    }
    memref.store %s, %y[%i] : memref<3xf64>
    scf.yield %s : f64
  }
  func.return %r : f64
}

// An inner bound that is a constant written inside the outer loop: still a static cache shape.
func.func @inner_constant(%x: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%p = %one) -> (f64) {
    %c4 = arith.constant 4 : index
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %p) -> (f64) {
      %v = memref.load %x[%j] : memref<4xf64>
      %m = arith.mulf %acc, %v : f64
      %t = math.sin %m : f64
      scf.yield %t : f64
    }
    scf.yield %s : f64
  }
  func.return %r : f64
}

// Two memrefs overwritten in the loop that reads them: the minimum cut caches their product
// (one memref) rather than both loads, and recomputes exp from it in the reversed loop.
func.func @overwritten_product(%x: memref<?xf64>, %w: memref<?xf64>, %c: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f64) {
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %w[%i] : memref<?xf64>
    %p = arith.mulf %a, %b : f64
    %q = arith.mulf %p, %c : f64
    %y = math.exp %q : f64
    memref.store %p, %x[%i] : memref<?xf64>
    memref.store %a, %w[%i] : memref<?xf64>
    %sy = arith.mulf %s, %y : f64
    %t = arith.addf %sy, %y : f64
    scf.yield %t : f64
  }
  func.return %r : f64
}

// A scratch memref holding x*x that only a dead value reads (no shadow, no adjoint), beside one
// whose data reaches the result; a counter carried beside the sum.
func.func @scratch(%x: f64, %a: memref<4xf64>, %k: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %t = memref.alloc() : memref<4xf64>
  %u = memref.alloc() : memref<4xf64>
  %s, %cnt = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero, %c = %k) -> (f64, index) {
    %v = memref.load %a[%i] : memref<4xf64>
    %m = arith.mulf %v, %x : f64
    %e = math.sin %m : f64
    %unused = arith.mulf %x, %x : f64
    memref.store %unused, %t[%i] : memref<4xf64>
    memref.store %e, %u[%i] : memref<4xf64>
    %acc2 = arith.addf %acc, %e : f64
    %c2 = arith.addi %c, %c1 : index
    scf.yield %acc2, %c2 : f64, index
  }
  %w = memref.load %t[%c0] : memref<4xf64>
  %dead = arith.mulf %w, %w : f64
  %y = memref.load %u[%c1] : memref<4xf64>
  %r = arith.addf %s, %y : f64
  memref.dealloc %t : memref<4xf64>
  memref.dealloc %u : memref<4xf64>
  func.return %r : f64
}

// The same in f32 over a 2-D nest: the cut caches one f32 memref of products (rows x columns).
func.func @overwritten_rows(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %c: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?x?xf32>
  %n = memref.dim %A, %c1 : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %m step %c1 iter_args(%s = %zero) -> (f32) {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %s) -> (f32) {
      %a = memref.load %A[%i, %j] : memref<?x?xf32>
      %b = memref.load %B[%i, %j] : memref<?x?xf32>
      %p = arith.mulf %a, %b : f32
      %q = arith.mulf %p, %c : f32
      %y = math.exp %q : f32
      memref.store %p, %A[%i, %j] : memref<?x?xf32>
      memref.store %a, %B[%i, %j] : memref<?x?xf32>
      %acc2 = arith.addf %acc, %y : f32
      scf.yield %acc2 : f32
    }
    scf.yield %row : f32
  }
  func.return %r : f32
}
