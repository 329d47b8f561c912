// REQUIRES: clang
// RUN: xenzyme-opt %s --clang-arg=-O0 -p raise-openmp | filecheck %s
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s --check-prefixes=CHECK,O2
// RUN: xenzyme-opt %s --clang-arg=-O2 -p raise-openmp | filecheck %s --check-prefix=NONE

// Dynamically scheduled loops: __kmpc_dispatch_init/next/deinit become par.dispatch_init /
// dispatch_next / dispatch_fini.  The runtime writes the bounds only when it hands out a chunk,
// so each slot gets `%more ? new : old`; promoted, the loop's bounds are block arguments fed by
// the two dispatch_next ops (before the loop and at its latch).

void dynamic(int n, double *x) {
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; i++) x[i] *= 2;
}

void guided_unsigned(unsigned n, double *x) {
#pragma omp parallel for schedule(guided, 2)
  for (unsigned i = 0; i < n; i++) x[i] += 1;
}

void runtime_long(long n, double *x) {
#pragma omp parallel for schedule(runtime)
  for (long i = 0; i < n; i++) x[i] -= 1;
}

// NONE:        builtin.module
// NONE-NOT:    llvm.call @__kmpc

// CHECK-LABEL: llvm.func internal @dynamic.omp_outlined(
// CHECK:         par.dispatch_init dynamic nonmonotonic %{{.*}} to %{{.*}} step %{{.*}} chunk %{{.*}} : i32
// CHECK:         %[[MORE:.*]], %[[LB:.*]], %[[UB:.*]], %{{.*}}, %{{.*}} = par.dispatch_next : i32
// CHECK:         llvm.select %[[MORE]], %[[LB]], %{{.*}} : i1, i32
// CHECK:         llvm.select %[[MORE]], %[[UB]], %{{.*}} : i1, i32
// O2:            llvm.cond_br %{{.*}}, ^{{.*}}, ^[[BODY:.*]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, i32, i32, i32)
// O2:            par.dispatch_next : i32
// O2:            ^[[BODY]](%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
// CHECK:         par.dispatch_fini
// CHECK-LABEL: llvm.func internal @guided_unsigned.omp_outlined(
// CHECK:         par.dispatch_init guided nonmonotonic unsigned %{{.*}} : i32
// CHECK:         par.dispatch_next unsigned : i32
// CHECK-LABEL: llvm.func internal @runtime_long.omp_outlined(
// CHECK:         par.dispatch_init runtime nonmonotonic %{{.*}} : i64
// CHECK:         par.dispatch_next : i64
