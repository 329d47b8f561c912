// RUN: xenzyme-opt %s -p reverse-diff | filecheck %s --check-prefix=CUT
// RUN: xenzyme-opt %s -p 'reverse-diff{mincut=false}' | filecheck %s --check-prefix=LEAVES

// The minimum cut at the structured level.  x and w are overwritten in the loop, so their
// loads cannot be repeated in the reverse sweep, which needs p (for c's adjoint) and exp(p*c)
// (for exp's).  Recomputing everything from what cannot be recomputed caches a and b: two
// memrefs.  The cut, with the llvm level's cost model, caches p alone and recomputes
// y = exp(p * c) from it inside the reversed loop: one memref, half the bytes.

// CUT-LABEL:  func.func private @diffe_f
// CUT:          %p_cache = memref.alloc() : memref<8xf64>
// CUT-NOT:      memref.alloc
// CUT:          %p = arith.mulf %a, %b : f64
// CUT-NEXT:     memref.store %p, %p_cache[%i] : memref<8xf64>
// CUT:          scf.for
// CUT:            %i_rev = arith.subi
// CUT-NEXT:       %p_1 = memref.load %p_cache[%i_rev] : memref<8xf64>
// CUT-NEXT:       %q_1 = arith.mulf %p_1, %c : f64
// CUT-NEXT:       %y_1 = math.exp %q_1 : f64
// CUT-NOT:      memref.alloc
// CUT:          memref.dealloc %p_cache : memref<8xf64>
// CUT-NEXT:     func.return

// LEAVES-LABEL: func.func private @diffe_f
// LEAVES:         %a_cache = memref.alloc() : memref<8xf64>
// LEAVES-NEXT:    %b_cache = memref.alloc() : memref<8xf64>
// LEAVES:         %a_1 = memref.load %a_cache[%i_rev] : memref<8xf64>
// LEAVES-NEXT:    %b_1 = memref.load %b_cache[%i_rev] : memref<8xf64>
// LEAVES-NEXT:    %p_1 = arith.mulf %a_1, %b_1 : f64
func.func @f(%x: memref<8xf64>, %w: memref<8xf64>, %c: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %zero) -> (f64) {
    %a = memref.load %x[%i] : memref<8xf64>
    %b = memref.load %w[%i] : memref<8xf64>
    %p = arith.mulf %a, %b : f64
    %q = arith.mulf %p, %c : f64
    %y = math.exp %q : f64
    memref.store %p, %x[%i] : memref<8xf64>
    memref.store %a, %w[%i] : memref<8xf64>
    %t = arith.addf %s, %y : f64
    scf.yield %t : f64
  }
  func.return %r : f64
}

func.func @df(%x: memref<8xf64>, %w: memref<8xf64>, %c: f64) -> f64 {
  %d = autodiff.autodiff @f(%x, %w, %c) activity [const, const, active] ret active : (memref<8xf64>, memref<8xf64>, f64) -> f64
  func.return %d : f64
}
