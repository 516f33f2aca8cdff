/* Sorts float32 keys on GPU 0 through cccl-cache's C ABI (README, "Use from C").
 *
 *   cc -std=c11 sort_floats.c $(pkg-config --cflags --libs cccl_cache) \
 *      -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart_static -lrt -ldl -lpthread
 *   ./a.out [N]
 *
 * The first run builds the sort with NVRTC (seconds) into the default store
 * (~/.cache/cccl-cache or $CCCL_CACHE_DIR); later runs load it. Without a GPU it prints
 * the spec and its store key for sm_90 and stops. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#include "cccl_cache.h"

static int fail(const char* what, cccl_cache_status s) {
  fprintf(stderr, "%s: %s: %s\n", what, cccl_cache_status_name(s), cccl_cache_last_error());
  return 1;
}

int main(int argc, char** argv) {
  unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000ul;
  cccl_cache_store* store = NULL;
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* sort = NULL;
  cccl_cache_status s;
  char key[CCCL_CACHE_KEY_SIZE];
  float *keys, *d_keys = NULL;
  void* d_temp = NULL;
  size_t bytes = 0, i;
  int devices = 0, ok = 1;

  printf("cccl_cache %s\n", cccl_cache_version());
  if ((s = cccl_cache_store_open(NULL, NULL, &store)) != CCCL_CACHE_OK) return fail("open", s);
  printf("store: %s\n", cccl_cache_store_dir(store));
  if ((s = cccl_cache_spec_parse("merge_sort keys=float32", &spec)) != CCCL_CACHE_OK)
    return fail("spec", s);
  if ((s = cccl_cache_spec_key(spec, 90, key, sizeof key)) != CCCL_CACHE_OK) return fail("key", s);
  printf("spec: %s\nkey for sm_90: %s\n", cccl_cache_spec_text(spec), key);
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("no GPU here: nothing to sort\n");
    cccl_cache_spec_free(spec);
    cccl_cache_store_close(store);
    return 0;
  }

  /* The device's primary context must be current: cudaSetDevice makes it so. */
  if (cudaSetDevice(0) != cudaSuccess) return fprintf(stderr, "cudaSetDevice failed\n"), 1;
  if ((s = cccl_cache_acquire(store, spec, 0, &sort)) != CCCL_CACHE_OK) return fail("acquire", s);
  keys = malloc(n * sizeof *keys);
  if (keys == NULL) return fprintf(stderr, "out of memory\n"), 1;
  for (i = 0; i < n; ++i) keys[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  /* CUB's two phases: ask for the temp-storage size, then sort (here in place). */
  cccl_cache_merge_sort(sort, NULL, &bytes, NULL, NULL, NULL, NULL, n, NULL);
  if (cudaMalloc((void**)&d_keys, n * sizeof *keys) != cudaSuccess ||
      cudaMalloc(&d_temp, bytes ? bytes : 1) != cudaSuccess)
    return fprintf(stderr, "cudaMalloc failed\n"), 1;
  cudaMemcpy(d_keys, keys, n * sizeof *keys, cudaMemcpyHostToDevice);
  s = cccl_cache_merge_sort(sort, d_temp, &bytes, d_keys, NULL, d_keys, NULL, n, NULL /* stream */);
  if (s != CCCL_CACHE_OK) return fail("sort", s);
  cudaMemcpy(keys, d_keys, n * sizeof *keys, cudaMemcpyDeviceToHost); /* synchronizes */
  for (i = 1; i < n; ++i) ok = ok && keys[i - 1] <= keys[i];
  printf("sorted %lu keys on device 0 (sm_%u): %s\n", n, cccl_cache_algorithm_cc(sort),
         ok ? "in order" : "NOT IN ORDER");
  cudaFree(d_keys);
  cudaFree(d_temp);
  free(keys);
  cccl_cache_algorithm_release(sort);
  cccl_cache_spec_free(spec);
  cccl_cache_store_close(store);
  return ok ? 0 : 1;
}
