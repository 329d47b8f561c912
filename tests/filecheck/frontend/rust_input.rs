// REQUIRES: rustc
// RUN: xenzyme-opt %s | filecheck %s
// RUN: xenzyme-opt %s --rustc-arg=-Copt-level=0 | filecheck %s --check-prefix=O0
// RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

// Rust input goes through rustc as one bitcode module (a library crate here: there is no
// `fn main`), -C opt-level=2 and -C panic=abort unless --rustc-arg says otherwise; the module is
// named after the source file, not the codegen unit.  The function passed as `f as usize` is a
// `ptrtoint` constant expression.

unsafe extern "C" {
    fn __enzyme_autodiff(f: usize, ...) -> f64;
}

#[no_mangle]
pub extern "C" fn cube(x: f64) -> f64 {
    x * x * x
}

#[no_mangle]
pub extern "C" fn dcube(x: f64) -> f64 {
    unsafe { __enzyme_autodiff(cube as *const () as usize, x) }
}

// CHECK:       builtin.module attributes {llvm.source_filename = "{{.*}}rust_input.rs"
// CHECK-LABEL: llvm.func unnamed_addr @cube(
// CHECK-LABEL: llvm.func unnamed_addr @dcube(
// CHECK:         %[[F:.*]] = llvm.mlir.addressof @cube : !llvm.ptr
// CHECK:         %[[I:.*]] = llvm.ptrtoint %[[F]] : !llvm.ptr to i64
// CHECK:         llvm.call tail @__enzyme_autodiff(%[[I]], %{{.*}})

// At opt-level=0 the call keeps no attributes of LLVM's optimiser (noundef, tail).
// O0-LABEL:    llvm.func unnamed_addr @dcube(
// O0:            llvm.call @__enzyme_autodiff(

// LLVM: source_filename = "{{.*}}rust_input.rs"
// LLVM: call {{.*}}double (i64, ...) @__enzyme_autodiff(i64 {{.*}}ptrtoint (ptr @cube to i64), double
