! REQUIRES: flang
! RUN: xenzyme-opt %s | filecheck %s
! RUN: xenzyme-opt %s --flang-arg=-O0 | filecheck %s --check-prefix=O0
! RUN: xenzyme-opt %s -t llvm | filecheck %s --check-prefix=LLVM

! Fortran input goes through flang-new-19 as bitcode (-O2 unless --flang-arg says otherwise),
! then the importer; the module is named after the source file, not flang's "FIRModule".  At -O0
! the type descriptor of a derived type is kept, with the `mul` constant expressions flang-19
! writes into it and LLVM 22 cannot read: they arrive as address arithmetic.

module shapes
  type :: box
    real(8) :: w, h
  end type
contains
  subroutine area(b, a)
    type(box), intent(in) :: b
    real(8), intent(out) :: a
    a = b%w * b%h
  end subroutine
end module

! CHECK:       builtin.module attributes {llvm.source_filename = "{{.*}}fortran_input.f90"
! CHECK-LABEL: llvm.func local_unnamed_addr @_QMshapesParea(
! CHECK:         llvm.fmul

! O0:          llvm.mlir.global linkonce_odr constant @_QMshapesE.dt.box()
! O0:          llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<{{[0-9]+}} x i8>
! O0-LABEL:    llvm.func @_QMshapesParea(
! O0:            llvm.getelementptr %{{.*}}[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"_QMshapesTbox", (f64, f64)>

! LLVM: source_filename = "{{.*}}fortran_input.f90"
! LLVM: define void @_QMshapesParea(ptr {{.*}}, ptr {{.*}})
