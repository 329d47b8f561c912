// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-enzyme-calls,raise-openmp,reverse-diff | filecheck %s

// The reverse of parallel regions (clang -O2 IR, vectorised): each region's body is split into
// an augmented and a reverse function run by every thread of a team.  Where an adjoint goes
// into shared memory is chosen per load: plain additions where each address belongs to one
// iteration of the worksharing loop (x[i], also in the vectorised loop and its remainders);
// atomic additions where several iterations read one address (a stencil's neighbours); a
// thread-private partial sum, added atomically once at the end, for a shared variable the
// region only reads (k, at one address for the whole region).  Barriers are mirrored, a '*'
// reduction's reverse calls the team's helper, critical sections are replayed in the reverse
// of the primal's order (each thread waits for its turn), and an atomic subtraction passes
// the negated adjoint on without writing the shared adjoint (to x[i] * x[i], whose two
// contributions to x[i] are added in registers, then into dx[i]).

extern void __enzyme_autodiff(void *, ...);

void owned(int n, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
}

// CHECK-LABEL: llvm.func internal @reverse_owned.omp_outlined(
// CHECK-NOT:     atomic
// CHECK:         autodiff.accumulate %{{.*}}, %{{.*}} {alignment = 8 : i64} : !llvm.ptr, vector<2xf64>
// CHECK-NOT:     atomic
// CHECK:         llvm.return

void stencil(int n, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++) y[i] = x[i - 1] - 2 * x[i] + x[i + 1];
}

// CHECK-LABEL: llvm.func internal @reverse_stencil.omp_outlined(
// CHECK:         autodiff.accumulate %{{.*}}, %{{.*}} atomic {alignment = 8 : i64} : !llvm.ptr, f64
// CHECK:         llvm.return

void scaled(int n, double k, const double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) y[i] = k * x[i];
}

// CHECK-LABEL: llvm.func internal @reverse_scaled.omp_outlined(
// CHECK:         %partial = llvm.alloca %{{.*}} x f64
// CHECK:         llvm.store %{{.*}}, %partial
// CHECK:         autodiff.accumulate %partial, %{{.*}} : !llvm.ptr, f64
// CHECK:         %[[SUM:.*]] = llvm.load %partial : !llvm.ptr -> f64
// CHECK-NEXT:    autodiff.accumulate %{{.*}}, %[[SUM]] atomic {alignment = 8 : i64} : !llvm.ptr, f64
// CHECK:         llvm.return

double product(int n, const double *x) {
  double p = 1;
#pragma omp parallel for reduction(* : p)
  for (int i = 0; i < n; i++) p *= x[i];
  return p;
}

// CHECK-LABEL: llvm.func internal @augmented_product.omp_outlined(
// CHECK:         llvm.call @xenzyme.par.reduce.mul.f64(
// CHECK-LABEL: llvm.func internal @reverse_product.omp_outlined(
// CHECK:         llvm.call @xenzyme.par.reduce.reverse.f64(

void phases(int n, const double *x, double *y, double *z) {
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
#pragma omp for
    for (int i = 0; i < n; i++) z[i] = y[n - 1 - i] * x[i];
  }
}

// CHECK-LABEL: llvm.func internal @reverse_phases.omp_outlined(
// CHECK:         "omp.barrier"() : () -> ()
// CHECK:         "omp.barrier"() : () -> ()
// CHECK:         llvm.return

void accumulate(int n, const double *x, double *total) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    *total -= x[i] * x[i];
  }
}

// CHECK-LABEL: llvm.func internal @reverse_accumulate.omp_outlined(
// CHECK-NOT:     atomic
// CHECK:         %[[D:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f64
// CHECK-NEXT:    %[[N:.*]] = llvm.fneg %[[D]] : f64
// CHECK-NEXT:    %[[XI:.*]] = autodiff.cache.peek %{{.*}} : !autodiff.cache<f64>
// CHECK-NEXT:    %[[P1:.*]] = llvm.fmul %[[N]], %[[XI]] : f64
// CHECK-NEXT:    %[[P2:.*]] = llvm.fmul %[[N]], %[[XI]] : f64
// CHECK-NEXT:    %[[DXI:.*]] = llvm.fadd %[[P1]], %[[P2]] : f64
// CHECK:         autodiff.accumulate %{{.*}}, %[[DXI]] {alignment = 8 : i64} : !llvm.ptr, f64
// CHECK-NOT:     atomic
// CHECK:         llvm.return

void ordered_updates(int n, const double *x, double *acc) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical
    *acc = *acc * 0.5 + x[i];
  }
}

// CHECK-LABEL: llvm.func internal @augmented_ordered_updates.omp_outlined(
// CHECK:         par.critical_begin @".gomp_critical_user_.var"
// CHECK:         llvm.atomicrmw add %team
// CHECK:         par.critical_end @".gomp_critical_user_.var"
// CHECK-LABEL: llvm.func internal @reverse_ordered_updates.omp_outlined(
// CHECK:         llvm.call @xenzyme.par.wait_turn(%team
// CHECK:         par.critical_begin @".gomp_critical_user_.var"
// CHECK:         par.critical_end @".gomp_critical_user_.var"
// CHECK:         llvm.atomicrmw xchg %team

void grads(int n, double k, double *dk, double *x, double *dx, double *y, double *dy, double *z, double *dz) {
  __enzyme_autodiff((void *)owned, n, x, dx, y, dy);
  __enzyme_autodiff((void *)stencil, n, x, dx, y, dy);
  __enzyme_autodiff((void *)scaled, n, k, x, dx, y, dy);
  __enzyme_autodiff((void *)product, n, x, dx);
  __enzyme_autodiff((void *)phases, n, x, dx, y, dy, z, dz);
  __enzyme_autodiff((void *)accumulate, n, x, dx, y, dy);
  __enzyme_autodiff((void *)ordered_updates, n, x, dx, y, dy);
}
