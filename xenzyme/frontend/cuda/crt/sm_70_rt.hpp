/* Stands in for the CUDA toolkit's header of this name, which clang's
 * __clang_cuda_intrinsics.h includes after defining everything it needs from it. */
#pragma once
