// The ELF seed: three kernels named like the blob seed's kernel names.
extern "C" __global__ void block_sort(float* p) { p[threadIdx.x] *= 2.0f; }
extern "C" __global__ void partition(int* p) { p[threadIdx.x] += 1; }
extern "C" __global__ void merge(float* a, const float* b) { a[threadIdx.x] += b[threadIdx.x]; }
