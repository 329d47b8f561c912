__global__ void k(float *x) { x[threadIdx.x] = undeclared_thing; }
