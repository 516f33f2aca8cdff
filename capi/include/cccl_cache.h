/* cccl_cache.h: the C ABI of cccl-cache.
 *
 * A store of NVRTC-built CUB algorithms and the algorithms bound from it, for any
 * language with a C FFI. No C++ type crosses this header; every handle is opaque and
 * every call returns a cccl_cache_status (never throws, never aborts on bad input).
 * On failure the calling thread's last error message (cccl_cache_last_error) says what
 * failed and what to do.
 *
 *   cccl_cache_store* store;      cccl_cache_store_open(NULL, &store);   (default dir)
 *   cccl_cache_spec* spec;        cccl_cache_spec_parse("radix_sort keys=float32", &spec);
 *   cccl_cache_algorithm* sort;   cccl_cache_acquire(store, spec, 0, &sort);
 *   size_t bytes;                 cccl_cache_temp_storage_bytes(sort, n, &bytes);
 *   cccl_cache_radix_sort(sort, d_temp, &bytes, d_in, d_out, NULL, NULL, n, 0, 0, stream);
 *   cccl_cache_algorithm_release(sort); cccl_cache_spec_free(spec); cccl_cache_store_close(store);
 *
 * Threads: every function may be called from any thread. A store handle, a spec and an
 * algorithm may be shared between threads; only their release must not race a use.
 * Lifetimes: an algorithm stays usable after its store is closed; strings returned by
 * the library live as long as the object they describe (last error: until the
 * thread's next failing call).
 *
 * Devices and streams: an algorithm is bound to one device; its calls run on that
 * device's primary context, which must be current on the calling thread (as after
 * cudaSetDevice). A stream is a CUstream / cudaStream_t passed as void* (NULL: the
 * legacy default stream). Device pointers come from the caller (cudaMalloc,
 * cuMemAlloc, any allocator of that device).
 *
 * The hot path: cccl_cache_temp_storage_bytes and the run calls make no device,
 * context, attribute or store query and allocate nothing (but to record an error).
 */
#ifndef CCCL_CACHE_H
#define CCCL_CACHE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define CCCL_CACHE_API __attribute__((visibility("default")))
#else
#define CCCL_CACHE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: a program compiled against a header of another major
 * version must not use the library (cccl_cache_abi_version() tells at run time). */
#define CCCL_CACHE_ABI_VERSION 3

typedef enum cccl_cache_status {
  CCCL_CACHE_OK = 0,
  CCCL_CACHE_ERROR_INVALID_ARGUMENT = 1, /* bad input: NULL handle, bad spec, wrong algorithm */
  CCCL_CACHE_ERROR_NOT_FOUND = 2,        /* a named file or directory is absent */
  CCCL_CACHE_ERROR_IO = 3,               /* filesystem failure */
  CCCL_CACHE_ERROR_PERMISSION = 4,       /* unsafe or foreign-owned directory, no write access */
  CCCL_CACHE_ERROR_READ_ONLY = 5,        /* a write was asked of a read-only store */
  CCCL_CACHE_ERROR_CORRUPT = 6,          /* malformed or damaged bytes */
  CCCL_CACHE_ERROR_UNSUPPORTED = 7,      /* unsupported device, CC, type or operation */
  CCCL_CACHE_ERROR_STORAGE_FULL = 8,     /* the store or disk is full */
  CCCL_CACHE_ERROR_STORE = 9,            /* another failure of the store (LMDB) */
  CCCL_CACHE_ERROR_COMPILE = 10,         /* NVRTC / nvJitLink failure (message carries the log) */
  CCCL_CACHE_ERROR_DRIVER = 11,          /* CUDA driver failure: no driver or device, a launch */
  CCCL_CACHE_ERROR_OUT_OF_MEMORY = 12,   /* host memory exhausted */
  CCCL_CACHE_ERROR_INTERNAL = 13         /* a bug: please report it with the message */
} cccl_cache_status;

/* The algorithms. The numbers never change. */
typedef enum cccl_cache_algorithm_kind {
  CCCL_CACHE_MERGE_SORT = 1,
  CCCL_CACHE_REDUCE = 2,
  CCCL_CACHE_INCLUSIVE_SCAN = 3,
  CCCL_CACHE_EXCLUSIVE_SCAN = 4,
  CCCL_CACHE_UNARY_TRANSFORM = 5,
  CCCL_CACHE_BINARY_TRANSFORM = 6,
  CCCL_CACHE_RADIX_SORT = 7,
  CCCL_CACHE_SEGMENTED_REDUCE = 8,
  CCCL_CACHE_UNIQUE_BY_KEY = 9,
  CCCL_CACHE_SELECT = 10,
  CCCL_CACHE_THREE_WAY_PARTITION = 11,
  CCCL_CACHE_HISTOGRAM_EVEN = 12,
  CCCL_CACHE_BINARY_SEARCH = 13, /* lower_bound and upper_bound */
  CCCL_CACHE_SEGMENTED_SORT = 14,
  CCCL_CACHE_SCAN_BY_KEY = 15, /* inclusive and exclusive: `descending` is `exclusive` */
  CCCL_CACHE_FOR_EACH = 16
} cccl_cache_algorithm_kind;

/* Element types (as spec text names them). NONE: no value type / the default. */
typedef enum cccl_cache_type {
  CCCL_CACHE_TYPE_NONE = 0,
  CCCL_CACHE_INT8 = 1, CCCL_CACHE_INT16 = 2, CCCL_CACHE_INT32 = 3, CCCL_CACHE_INT64 = 4,
  CCCL_CACHE_UINT8 = 5, CCCL_CACHE_UINT16 = 6, CCCL_CACHE_UINT32 = 7, CCCL_CACHE_UINT64 = 8,
  CCCL_CACHE_FLOAT32 = 9, CCCL_CACHE_FLOAT64 = 10,
  CCCL_CACHE_FLOAT16 = 11, CCCL_CACHE_BFLOAT16 = 12, /* __half, __nv_bfloat16 */
  CCCL_CACHE_BOOL = 14 /* C's bool / _Bool: one byte, 0 or 1 (13 is not a cccl_cache_type) */
} cccl_cache_type;

/* Operators. DEFAULT: the algorithm's default (less, plus, identity, equal_to). */
typedef enum cccl_cache_op_kind {
  CCCL_CACHE_OP_DEFAULT = 0,
  CCCL_CACHE_OP_LESS = 1, CCCL_CACHE_OP_GREATER = 2,
  CCCL_CACHE_OP_CUSTOM = 3, /* CUDA C++ source defining a __device__ function `name` */
  CCCL_CACHE_OP_PLUS = 4, CCCL_CACHE_OP_MULTIPLIES = 5, CCCL_CACHE_OP_MINIMUM = 6,
  CCCL_CACHE_OP_MAXIMUM = 7, CCCL_CACHE_OP_BIT_AND = 8, CCCL_CACHE_OP_BIT_OR = 9,
  CCCL_CACHE_OP_BIT_XOR = 10, CCCL_CACHE_OP_LOGICAL_AND = 11, CCCL_CACHE_OP_LOGICAL_OR = 12,
  CCCL_CACHE_OP_MINUS = 13, CCCL_CACHE_OP_IDENTITY = 14, CCCL_CACHE_OP_NEGATE = 15,
  CCCL_CACHE_OP_EQUAL_TO = 16, CCCL_CACHE_OP_DIVIDES = 17, CCCL_CACHE_OP_MODULUS = 18,
  CCCL_CACHE_OP_NOT_EQUAL_TO = 19, CCCL_CACHE_OP_LESS_EQUAL = 20, CCCL_CACHE_OP_GREATER_EQUAL = 21,
  CCCL_CACHE_OP_LOGICAL_NOT = 22, CCCL_CACHE_OP_BIT_NOT = 23
} cccl_cache_op_kind;

/* A CUSTOM operator may be stateful: state_size bytes aligned to state_alignment (a power
 * of two up to 16, the size a multiple of it, up to 1024 bytes), passed to the kernels by
 * value at each call (cccl_cache_op_state, the *_with_state run calls). Its function then
 * takes `void* state` first, pointing at its own copy of the bytes, e.g.
 *   __device__ float scaled_plus(void* s, float a, float b) { return a + b * *(float*)s; }
 * The layout is part of the spec (its key); the bytes are not. 0, 0: stateless. Spec text
 * writes it after the name: op=scaled_plus:4/4. Every algorithm that takes an operator
 * takes a stateful one but BINARY_SEARCH (INVALID_ARGUMENT at the spec). */
typedef struct cccl_cache_op {
  cccl_cache_op_kind kind;
  const char* name;   /* CUSTOM only: the function's name, else NULL */
  const char* source; /* CUSTOM only: its CUDA C++ source, else NULL */
  uint32_t state_size;      /* CUSTOM only: the state's bytes, 0 for a stateless operator */
  uint32_t state_alignment; /* CUSTOM only, with state_size */
} cccl_cache_op;

/* A spec as a plain struct: zero it, set `algorithm` and the fields it takes. A field
 * left zero takes the algorithm's default (or is missing, where it is required); a
 * field the algorithm does not take must stay zero. Which fields each takes, by their
 * spec-text names:
 *
 *   algorithm          type     value_type  in2_type  out_type  op        offset  descending
 *   MERGE_SORT         keys*    values      -         -         compare   offset  -
 *   RADIX_SORT         keys*    values      -         -         -         offset  descending
 *   SEGMENTED_SORT     keys*    values      -         -         -         offset  descending
 *   SCAN_BY_KEY        keys*    values*     -         -         op        offset  exclusive
 *   REDUCE, EXCL._SCAN type*    -           -         -         op        offset  -
 *   INCLUSIVE_SCAN     type*    -           -         -         op        offset  init
 *   FOR_EACH           type*    -           -         -         op*       offset  -
 *   SEGMENTED_REDUCE   type*    -           -         -         op        offset  -
 *   UNIQUE_BY_KEY      keys*    values*     -         selected  op        offset  -
 *   SELECT             type*    -           -         selected  op        offset  -
 *   THREE_WAY_PARTITION type*   -           -         selected  first_op  offset  -
 *   HISTOGRAM_EVEN     type*    level       -         counter   -         offset  -
 *   BINARY_SEARCH      type*    -           -         out       compare   -       upper
 *   UNARY_TRANSFORM    in*      -           -         out*      op        -       -
 *   BINARY_TRANSFORM   in1*     -           in2*      out*      op        -       -
 *   (* required; `op2` is THREE_WAY_PARTITION's second_op and SCAN_BY_KEY's equality (zero:
 *   equal_to), zero for every other algorithm;
 *   BINARY_SEARCH's flag is `upper`: 1 for upper_bound, 0 for lower_bound;
 *   INCLUSIVE_SCAN's is `init`: 1 for a scan seeded with an initial value)
 */
typedef struct cccl_cache_spec_desc {
  cccl_cache_algorithm_kind algorithm;
  cccl_cache_type type;
  cccl_cache_type value_type;
  cccl_cache_type in2_type;
  cccl_cache_type out_type;
  cccl_cache_op op;
  cccl_cache_type offset_type;
  int descending; /* 0 or 1 (BINARY_SEARCH: upper; INCLUSIVE_SCAN: init) */
  cccl_cache_op op2; /* a second operator: THREE_WAY_PARTITION's second_op */
} cccl_cache_spec_desc;

typedef struct cccl_cache_store cccl_cache_store;         /* a store and its bound algorithms */
typedef struct cccl_cache_spec cccl_cache_spec;           /* a validated spec */
typedef struct cccl_cache_algorithm cccl_cache_algorithm; /* an algorithm bound to a device */

/* ---- Library ------------------------------------------------------------------------ */

/* "0.1.0": the library's version. */
CCCL_CACHE_API const char* cccl_cache_version(void);
/* CCCL_CACHE_ABI_VERSION of the library loaded. */
CCCL_CACHE_API int cccl_cache_abi_version(void);
/* The calling thread's message of its last failed call ("" if none): what failed and
 * what to do. Valid until this thread's next failing call. */
CCCL_CACHE_API const char* cccl_cache_last_error(void);
/* "ok", "invalid_argument", ... ("unknown" for other numbers). */
CCCL_CACHE_API const char* cccl_cache_status_name(cccl_cache_status status);

/* ---- Stores ------------------------------------------------------------------------- */

/* Opens the store of the configuration (defaults < TOML file < environment, as the
 * C++ API and the CLI: ~/.cache/cccl-cache or $CCCL_CACHE_DIR by default), in `dir`
 * instead where `dir` is not NULL (created owner-only if absent). `config_file`: a TOML
 * file to read instead of the default one (NULL: $CCCL_CACHE_CONFIG, else
 * ~/.config/cccl-cache/config.toml if it exists). Keep one store per process: it holds
 * the algorithms bound so far and hands them out again. Errors: INVALID_ARGUMENT (NULL
 * out, a bad config), NOT_FOUND (a named config file), PERMISSION (an unsafe or
 * unwritable directory), IO, CORRUPT, STORE. */
CCCL_CACHE_API cccl_cache_status cccl_cache_store_open(const char* dir, const char* config_file,
                                                       cccl_cache_store** out);
/* The store's directory. NULL for a NULL store. */
CCCL_CACHE_API const char* cccl_cache_store_dir(const cccl_cache_store* store);
/* Closes the handle (NULL: nothing). Algorithms acquired through it stay usable. */
CCCL_CACHE_API void cccl_cache_store_close(cccl_cache_store* store);

/* ---- Specs -------------------------------------------------------------------------- */

/* A spec from spec text, the syntax of manifests and the CLI (docs/cli.md):
 * "merge_sort keys=float32 values=none compare=less offset=int64"; a custom operator's
 * source inline (source='__device__ bool f(float a, float b) { ... }'; source_file= is
 * not read here). Error INVALID_ARGUMENT naming the field (unknown algorithm, field or
 * type, a missing required field, ...). */
CCCL_CACHE_API cccl_cache_status cccl_cache_spec_parse(const char* text, cccl_cache_spec** out);
/* A spec from the struct (see cccl_cache_spec_desc). Error INVALID_ARGUMENT naming the
 * field, as for spec text. */
CCCL_CACHE_API cccl_cache_status cccl_cache_spec_from_desc(const cccl_cache_spec_desc* desc,
                                                           cccl_cache_spec** out);
/* The spec's text with every field ("radix_sort keys=float32 values=none
 * descending=false offset=uint32"; custom operators by name only), valid while the
 * spec lives. NULL for a NULL spec. */
CCCL_CACHE_API const char* cccl_cache_spec_text(const cccl_cache_spec* spec);
/* The spec's algorithm; 0 for a NULL spec. */
CCCL_CACHE_API cccl_cache_algorithm_kind cccl_cache_spec_algorithm(const cccl_cache_spec* spec);
/* The spec's store key for sm_<cc> (e.g. 90) as the CLI prints it ("<32 hex
 * digits>-sm90"), NUL-terminated into `buf` of `size` bytes (CCCL_CACHE_KEY_SIZE is
 * enough). Needs no device. Error INVALID_ARGUMENT (NULL spec or buf, a short buf). */
#define CCCL_CACHE_KEY_SIZE 48
CCCL_CACHE_API cccl_cache_status cccl_cache_spec_key(const cccl_cache_spec* spec, uint32_t cc,
                                                     char* buf, size_t size);
/* Frees a spec (NULL: nothing). */
CCCL_CACHE_API void cccl_cache_spec_free(cccl_cache_spec* spec);

/* ---- Building and binding ----------------------------------------------------------- */

/* Builds the spec for sm_<cc> and stores it, unless the store has it; needs no GPU
 * (prewarming, CI). `built` (may be NULL): 1 if it built, 0 if stored already. Errors:
 * INVALID_ARGUMENT, UNSUPPORTED (a CC NVRTC cannot target), COMPILE, and the store's. */
CCCL_CACHE_API cccl_cache_status cccl_cache_prewarm(cccl_cache_store* store,
                                                    const cccl_cache_spec* spec, uint32_t cc,
                                                    int* built);
/* The spec's algorithm bound to device ordinal `device`: the one this store bound
 * already, else a store hit bound, else a build (seconds) stored and bound. Release
 * it with cccl_cache_algorithm_release. Errors: INVALID_ARGUMENT, DRIVER ("no NVIDIA
 * driver found", no such device), UNSUPPORTED, COMPILE. */
CCCL_CACHE_API cccl_cache_status cccl_cache_acquire(cccl_cache_store* store,
                                                    const cccl_cache_spec* spec, int device,
                                                    cccl_cache_algorithm** out);
/* Releases an algorithm (NULL: nothing). Other handles to the same algorithm (later
 * acquires) stay usable. */
CCCL_CACHE_API void cccl_cache_algorithm_release(cccl_cache_algorithm* algorithm);
/* The bound algorithm's kind, device ordinal and CC (90 for sm_90); 0 / -1 / 0 for NULL. */
CCCL_CACHE_API cccl_cache_algorithm_kind cccl_cache_algorithm_kind_of(const cccl_cache_algorithm* a);
CCCL_CACHE_API int cccl_cache_algorithm_device(const cccl_cache_algorithm* algorithm);
CCCL_CACHE_API uint32_t cccl_cache_algorithm_cc(const cccl_cache_algorithm* algorithm);

/* ---- Running (CUB's two-phase convention) ------------------------------------------- */

/* Temp-storage bytes a call for `num_items` needs (radix sort: all key bits, not the
 * double-buffer form; transforms: 0; segmented reduce: num_items is the number of
 * segments), from values fixed at bind. A count the spec's offset type cannot index gives
 * 0 where the algorithm refuses it (scans, unique_by_key). HISTOGRAM_EVEN's depends on
 * its number of levels, SEGMENTED_SORT's on its number of segments: INVALID_ARGUMENT here;
 * query it with cccl_cache_histogram_even / cccl_cache_segmented_sort and d_temp_storage
 * NULL. */
CCCL_CACHE_API cccl_cache_status cccl_cache_temp_storage_bytes(const cccl_cache_algorithm* algorithm,
                                                               uint64_t num_items, size_t* bytes);

/* Every run call: d_temp_storage NULL sets *temp_storage_bytes and returns OK;
 * otherwise runs on `stream` (asynchronously). Errors: INVALID_ARGUMENT (a NULL
 * handle or temp_storage_bytes, an algorithm of another kind, temp storage too small,
 * too many items for the spec's offset type, a NULL init, bad bits), DRIVER (a launch
 * failure, or a fork()ed child's call: the message names the CUresult). */

/* A stateful operator's state at a call: `size` bytes at `data` in host memory, read
 * before the call returns (the kernels get a copy); size must be the operator's
 * state_size. The *_with_state calls take one per operator (NULL: a stateless operator;
 * a size query, d_temp_storage NULL, may leave a stateful one's out); a missing state for
 * a stateful operator, a state for a stateless one or a size that does not fit is
 * INVALID_ARGUMENT. The calls without _with_state are the same with NULL states. */
typedef struct cccl_cache_op_state {
  const void* data;
  size_t size;
} cccl_cache_op_state;

/* Sorts keys (and values, unless keys-only) from the inputs into the outputs; they may
 * alias (in place). A spec with an input iterator takes cccl_cache_merge_sort_iterators. */
CCCL_CACHE_API cccl_cache_status cccl_cache_merge_sort(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, const void* d_values_in, void* d_keys_out, void* d_values_out,
    uint64_t num_items, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_merge_sort_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, const void* d_values_in, void* d_keys_out, void* d_values_out,
    uint64_t num_items, void* stream, const cccl_cache_op_state* op_state);
/* Sorts keys by bits [begin_bit, end_bit) (0, 0: all of the key's bits) into the
 * outputs, stably, in the spec's order; inputs are left unchanged; values are ignored
 * for keys-only. */
CCCL_CACHE_API cccl_cache_status cccl_cache_radix_sort(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, void* d_keys_out, const void* d_values_in, void* d_values_out,
    uint64_t num_items, int begin_bit, int end_bit, void* stream);
/* An argsort: a radix sort whose spec has a counting value input ("values_in=counting")
 * sorts d_keys_in into d_keys_out as cccl_cache_radix_sort does and writes into
 * d_values_out, for each sorted key, `start` + its input position (in the iterator's
 * type: `start`'s low bytes). Its temp storage (cccl_cache_temp_storage_bytes, or
 * d_temp_storage NULL) holds the values before they are sorted; d_temp_storage must be
 * aligned to the value size. A spec without values_in here, or one with it in
 * cccl_cache_radix_sort or the double-buffer form: INVALID_ARGUMENT. */
CCCL_CACHE_API cccl_cache_status cccl_cache_radix_argsort(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, void* d_keys_out, int64_t start, void* d_values_out,
    uint64_t num_items, int begin_bit, int end_bit, void* stream);
/* The double-buffer form of a radix sort (CUB's DoubleBuffer overloads): keys[selector]
 * (and values[selector]) hold the input; the sort may overwrite both buffers of each
 * pair and sets selector to the one holding the sorted result (on the host, when the
 * call returns: the data is ready when the stream reaches it). It needs less temp
 * storage than cccl_cache_radix_sort (no third buffer); query its own size. values:
 * NULL, NULL for keys-only (ignored there). selector must be 0 or 1. */
typedef struct cccl_cache_double_buffer {
  void* keys[2];
  void* values[2];
  int selector;
} cccl_cache_double_buffer;
/* Sorts `buffers` by bits [begin_bit, end_bit) (0, 0: all bits), stably, in the spec's
 * order. Errors as every run call, and INVALID_ARGUMENT for a NULL buffers or a selector
 * other than 0 or 1. */
CCCL_CACHE_API cccl_cache_status cccl_cache_radix_sort_double_buffer(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    cccl_cache_double_buffer* buffers, uint64_t num_items, int begin_bit, int end_bit,
    void* stream);
/* Sorts each segment [d_begin_offsets[i], d_end_offsets[i]) (i < num_segments; end <= begin:
 * empty) of d_keys_in (and d_values_in) into the same positions of d_keys_out (and
 * d_values_out), stably, in the spec's order (cub::DeviceSegmentedSort::SortKeys /
 * SortPairs and their Descending forms); the offset arrays hold the spec's offset type;
 * items outside every segment are left unwritten; inputs are left unchanged; values are
 * ignored for keys-only. Above CUB's partitioning threshold (500 segments on current
 * GPUs) CUB reads the segment groups' sizes on the host: the call returns once `stream`
 * has reached that point. */
CCCL_CACHE_API cccl_cache_status cccl_cache_segmented_sort(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, void* d_keys_out, const void* d_values_in, void* d_values_out,
    uint64_t num_items, uint64_t num_segments, const void* d_begin_offsets,
    const void* d_end_offsets, void* stream);
/* Scans d_values_in into d_values_out with the spec's op, restarting at every run of
 * consecutive keys of d_keys_in equal under its equality (cub::DeviceScan::
 * InclusiveScanByKey / ExclusiveScanByKey); an exclusive spec seeds each run with *h_init
 * (one value on the host), an inclusive one ignores h_init (may be NULL). A spec with an
 * iterator takes cccl_cache_scan_by_key_iterators. */
CCCL_CACHE_API cccl_cache_status cccl_cache_scan_by_key(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, const void* d_values_in, void* d_values_out, uint64_t num_items,
    const void* h_init, void* stream);
/* A call's values for a spec's input or output iterator (reduce's and the scans' `input`
 * and `output`, made from spec text such as "reduce type=float32 input=counting(int64)" or
 * "inclusive_scan type=int32 output=reverse"). `kind` must be the spec's; the rest as the
 * kind reads them:
 *   POINTER             pointer: the device array
 *   COUNTING, CONSTANT  value: the start or the constant, the iterator's value type's
 *                       bytes in its low bytes (memcpy a value of that type into it)
 *   TRANSFORM           over or into an array: pointer; over counting: value (as COUNTING);
 *                       over another iterator ("input=transform(multiplies,zip(float32,
 *                       float32))"): pointer: its base's value (one
 *                       cccl_cache_iterator_value), value: 1; with a stateful operator
 *                       ("input=transform(scale:4/4,float32)"), in any form: index: its
 *                       state (state_size bytes on the host, read during the call)
 *   REVERSE             pointer: the first of the num_items elements read (written) last
 *                       first; over another iterator ("input=reverse(transform(times3,
 *                       counting(int64)))"): pointer: its base's value (one
 *                       cccl_cache_iterator_value), value: 1
 *   PERMUTATION         pointer: the values; index: the num_items indices; over iterators
 *                       ("input=permutation(float32,shuffle(int64))"): pointer: an array
 *                       of two cccl_cache_iterator_value, the values' then the indices'
 *                       (an array of them: POINTER), value: 2
 *   DISCARD             nothing (outputs only)
 *   ZIP                 pointer: an array of `value` cccl_cache_iterator_value, one per
 *                       component in the spec's order (an array component: POINTER); value:
 *                       their number (at most 8). Struct items: "reduce type=vi:16/8
 *                       struct.vi='struct vi { float v; long long i; };' op=argmax
 *                       input=zip(float32,counting(int64))" reads {d[i], start + i}; an output
 *                       zip writes field k through component k
 *   SHUFFLE             value: the seed (a uint64); element i is P(i), P a pseudo-random
 *                       permutation of [0, n) that the seed fixes (n: the call's number of
 *                       items read through it), e.g. "unary_transform in=int64
 *                       out=int64 op=identity input=shuffle(int64)" writes a random
 *                       permutation of 0..n-1
 *   CACHE_MODIFIED      pointer: the device array, read with the spec's PTX cache load
 *                       ("reduce type=float32 input=cache_modified(cs)": streaming loads)
 * An output's arrays are written through `pointer` (const only so that one type serves
 * both roles). */
typedef enum cccl_cache_iterator_kind {
  CCCL_CACHE_ITERATOR_POINTER = 0,
  CCCL_CACHE_ITERATOR_COUNTING = 1,
  CCCL_CACHE_ITERATOR_CONSTANT = 2,
  CCCL_CACHE_ITERATOR_TRANSFORM = 3,
  CCCL_CACHE_ITERATOR_REVERSE = 4,
  CCCL_CACHE_ITERATOR_PERMUTATION = 5,
  CCCL_CACHE_ITERATOR_DISCARD = 6,
  CCCL_CACHE_ITERATOR_ZIP = 7,
  CCCL_CACHE_ITERATOR_SHUFFLE = 8,
  CCCL_CACHE_ITERATOR_CACHE_MODIFIED = 9
} cccl_cache_iterator_kind;
typedef struct cccl_cache_iterator_value {
  cccl_cache_iterator_kind kind;
  const void* pointer;
  const void* index;
  uint64_t value;
} cccl_cache_iterator_value;

/* d_out[0] = op(*h_init, d_in[0..num_items)); h_init: one element on the host. */
CCCL_CACHE_API cccl_cache_status cccl_cache_reduce(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* h_init, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_reduce_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* h_init, void* stream,
    const cccl_cache_op_state* op_state);
/* A reduction over the spec's input iterator (`in`, its values for this call; a spec
 * without one takes cccl_cache_reduce): INVALID_ARGUMENT where in->kind is not the
 * spec's input kind or `in` is NULL; a spec with an output iterator takes
 * cccl_cache_reduce_iterators. */
CCCL_CACHE_API cccl_cache_status cccl_cache_reduce_iterator(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, void* d_out, uint64_t num_items, const void* h_init,
    void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_reduce_iterator_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, void* d_out, uint64_t num_items, const void* h_init,
    void* stream, const cccl_cache_op_state* op_state);
/* Any reduce spec: its input's values `in` and its output's `out` (each of the spec's kind,
 * POINTER for an array), e.g. a norm written through a transform output iterator; element
 * 0 of the output is written. op_state: NULL for a stateless operator. INVALID_ARGUMENT
 * where `in` or `out` is NULL or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_reduce_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, const cccl_cache_iterator_value* out, uint64_t num_items,
    const void* h_init, void* stream, const cccl_cache_op_state* op_state);
/* d_out[i] = op(*h_init, d_in[d_begin_offsets[i]..d_end_offsets[i])) for each i <
 * num_segments (*h_init for an empty segment); the offset arrays hold the spec's offset
 * type; h_init: one element on the host. max_segment_size: 0, or a bound on every
 * segment's length that lets CUB reduce short segments per thread or per warp (a longer
 * segment's result is then undefined). */
CCCL_CACHE_API cccl_cache_status cccl_cache_segmented_reduce(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_segments, const void* d_begin_offsets,
    const void* d_end_offsets, const void* h_init, uint64_t max_segment_size, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_segmented_reduce_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_segments, const void* d_begin_offsets,
    const void* d_end_offsets, const void* h_init, uint64_t max_segment_size, void* stream,
    const cccl_cache_op_state* op_state);
/* A segmented reduce spec with iterators (spec text such as "segmented_reduce type=float32
 * begin_offsets=transform(times8,counting(int64)) end_offsets=transform(times8,counting(int64))
 * source=..."): every argument is a cccl_cache_iterator_value of the spec's kind, an array
 * one CCCL_CACHE_ITERATOR_POINTER (the input, output and both offsets; the array calls
 * above refuse such a spec). op_state: NULL for a stateless operator. */
CCCL_CACHE_API cccl_cache_status cccl_cache_segmented_reduce_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, const cccl_cache_iterator_value* out,
    uint64_t num_segments, const cccl_cache_iterator_value* begin_offsets,
    const cccl_cache_iterator_value* end_offsets, const void* h_init, uint64_t max_segment_size,
    void* stream, const cccl_cache_op_state* op_state);
/* A segmented sort spec with offset iterators (spec text such as "segmented_sort
 * keys=float32 offset=int64 begin_offsets=transform(times8,counting(int64))
 * end_offsets=transform(times8,counting(int64)) source=..."): both offsets are
 * cccl_cache_iterator_values of the spec's kinds, an array one CCCL_CACHE_ITERATOR_POINTER,
 * packed for num_segments elements (cccl_cache_segmented_sort refuses such a spec). */
CCCL_CACHE_API cccl_cache_status cccl_cache_segmented_sort_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, void* d_keys_out, const void* d_values_in, void* d_values_out,
    uint64_t num_items, uint64_t num_segments, const cccl_cache_iterator_value* begin_offsets,
    const cccl_cache_iterator_value* end_offsets, void* stream);
/* Of each run of consecutive keys the spec's op calls equal, the first key and its value
 * go to d_keys_out / d_values_out in order, and the number of runs to *d_num_selected_out
 * (device memory, one element of the spec's `selected` type). Outputs must not overlap
 * the inputs. */
CCCL_CACHE_API cccl_cache_status cccl_cache_unique_by_key(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, const void* d_values_in, void* d_keys_out, void* d_values_out,
    void* d_num_selected_out, uint64_t num_items, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_unique_by_key_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_keys_in, const void* d_values_in, void* d_keys_out, void* d_values_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state);
/* Any unique_by_key spec (the calls above refuse one with an iterator, naming this call):
 * the keys and values read and written, each of the spec's kind (POINTER for an array),
 * e.g. "unique_by_key keys=int32 values=int64 values_in=counting" (each run's first
 * position) or keys_out=discard. A reverse output ends num_items past its array's start.
 * `op_state` as in cccl_cache_unique_by_key_with_state (NULL: stateless). INVALID_ARGUMENT
 * where a value is NULL or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_unique_by_key_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* keys_in, const cccl_cache_iterator_value* values_in,
    const cccl_cache_iterator_value* keys_out, const cccl_cache_iterator_value* values_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state);
/* Any merge sort spec (cccl_cache_merge_sort refuses one with an input iterator, naming
 * this call): the keys and values read, each of the spec's kind (POINTER for an array),
 * e.g. "merge_sort keys=int64 values=int64 values_in=counting" (an argsort: each key's
 * position) or keys_in=transform(..) to sort a function of the keys; the sorted keys and
 * values go to the output arrays. A keys-only sort reads no values (values_in may be
 * NULL). `op_state` as in cccl_cache_merge_sort_with_state (NULL: stateless).
 * INVALID_ARGUMENT where a value is NULL (but a keys-only sort's values_in) or not of the
 * spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_merge_sort_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* keys_in, const cccl_cache_iterator_value* values_in,
    void* d_keys_out, void* d_values_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state);
/* Any scan_by_key spec (cccl_cache_scan_by_key refuses one with an iterator, naming this
 * call): the keys and values read and the scan written, each of the spec's kind (POINTER
 * for an array), e.g. "scan_by_key keys=int64 values=int64 values_in=constant" (each item's
 * rank in its run, counted from 1) or keys_in=transform(..) for keys computed from the
 * positions. h_init as in cccl_cache_scan_by_key. INVALID_ARGUMENT where a value is NULL
 * or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_scan_by_key_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* keys_in, const cccl_cache_iterator_value* values_in,
    const cccl_cache_iterator_value* values_out, uint64_t num_items, const void* h_init,
    void* stream);
/* The items of d_in for which the spec's predicate (op) holds go to d_out in order, and
 * their number to *d_num_selected_out (device memory, one element of the spec's
 * `selected` type). d_out must not overlap d_in. */
CCCL_CACHE_API cccl_cache_status cccl_cache_select(const cccl_cache_algorithm* algorithm,
                                                   void* d_temp_storage, size_t* temp_storage_bytes,
                                                   const void* d_in, void* d_out,
                                                   void* d_num_selected_out, uint64_t num_items,
                                                   void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_select_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state);
/* Any select spec (the array calls refuse one with an iterator, naming this call): its
 * input's values `in` and its output's `out`, each of the spec's kind (POINTER for an
 * array), e.g. "select type=int64 op=is_even input=counting" (the even indices) or
 * output=discard (only the number selected: a count_if). op_state: NULL for a stateless
 * predicate. INVALID_ARGUMENT where `in` or `out` is NULL or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status
cccl_cache_select_iterators(const cccl_cache_algorithm* algorithm, void* d_temp_storage,
                            size_t* temp_storage_bytes, const cccl_cache_iterator_value* in,
                            const cccl_cache_iterator_value* out, void* d_num_selected_out,
                            uint64_t num_items, void* stream, const cccl_cache_op_state* op_state);
/* The items of d_in the spec's first_op selects go to d_first_part_out, of the others
 * those its second_op selects to d_second_part_out and the rest to d_unselected_out, each
 * in order; the first two parts' sizes to d_num_selected_out[0] and [1] (device memory,
 * two elements of the spec's `selected` type). No output may overlap d_in or another. */
CCCL_CACHE_API cccl_cache_status cccl_cache_three_way_partition(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_first_part_out, void* d_second_part_out, void* d_unselected_out,
    void* d_num_selected_out, uint64_t num_items, void* stream);
/* Each predicate with its own state: first_op_state for first_op, second_op_state for
 * second_op (NULL for a stateless one). */
CCCL_CACHE_API cccl_cache_status cccl_cache_three_way_partition_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_first_part_out, void* d_second_part_out, void* d_unselected_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* first_op_state, const cccl_cache_op_state* second_op_state);
/* Any three-way partition spec (the array calls refuse one with an iterator, naming this
 * call): its input's values `in` and each part's output `first_out`, `second_out`,
 * `unselected_out`, each of the spec's kind (POINTER for an array), e.g.
 * "three_way_partition type=int64 ... input=counting" (the indices of each part) or
 * unselected_output=discard (the two selected parts alone). The op states: NULL for a
 * stateless predicate. INVALID_ARGUMENT where a value is NULL or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_three_way_partition_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, const cccl_cache_iterator_value* first_out,
    const cccl_cache_iterator_value* second_out, const cccl_cache_iterator_value* unselected_out,
    void* d_num_selected_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* first_op_state, const cccl_cache_op_state* second_op_state);
/* Counts the samples of d_samples[0, num_samples) (the spec's type) in num_levels - 1
 * equal-width bins over [*h_lower, *h_upper) into d_histogram[0, num_levels - 1) (the
 * spec's counter type, device memory); samples outside are not counted. h_lower and
 * h_upper point to one value each of the spec's level type (its sample type for none) in
 * host memory, read before return, in both phases. INVALID_ARGUMENT also for
 * num_levels < 2, NULL bounds, lower not below upper, or bounds whose integer bin
 * arithmetic overflows ((upper - lower) * bins). */
CCCL_CACHE_API cccl_cache_status cccl_cache_histogram_even(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_samples, void* d_histogram, int num_levels, const void* h_lower,
    const void* h_upper, uint64_t num_samples, void* stream);
/* Any histogram_even spec (cccl_cache_histogram_even refuses one with a samples
 * iterator, naming this call): the samples `samples` of the spec's kind (POINTER for an
 * array), e.g. "histogram_even type=int32 samples=counting" (the bins of num_samples
 * consecutive integers) or samples=transform over an array. INVALID_ARGUMENT where
 * `samples` is NULL or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_histogram_even_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* samples, void* d_histogram, int num_levels,
    const void* h_lower, const void* h_upper, uint64_t num_samples, void* stream);

/* For each i < num_values, the lower (spec upper=false) or upper bound of d_values[i] in
 * d_data[0, num_items), sorted by the spec's compare, to d_out[i] as the spec's `out`
 * type (cub::DeviceFind::LowerBound / UpperBound; temp storage: 1 byte). d_out must not
 * overlap d_data or d_values. */
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_search(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_data, uint64_t num_items, const void* d_values, uint64_t num_values, void* d_out,
    void* stream);
/* As cccl_cache_binary_search, with a stateful comparator's state (compare=NAME:SIZE/ALIGN,
 * a `__device__ bool f(void* state, T a, T b)`); NULL: stateless. */
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_search_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_data, uint64_t num_items, const void* d_values, uint64_t num_values, void* d_out,
    void* stream, const cccl_cache_op_state* op_state);
/* Any binary search spec (cccl_cache_binary_search refuses one with an iterator, naming
 * this call): the values searched for `values` and the output `out`, each of the spec's
 * kind (POINTER for an array), e.g. "lower_bound type=int64 values_in=counting" (where
 * each of num_values consecutive integers would go) or output=reverse. The sorted range
 * d_data is an array (cccl_cache_binary_search_range_iterator takes an iterator range).
 * INVALID_ARGUMENT where a value is NULL or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_search_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_data, uint64_t num_items, const cccl_cache_iterator_value* values,
    uint64_t num_values, const cccl_cache_iterator_value* out, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_search_iterators_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_data, uint64_t num_items, const cccl_cache_iterator_value* values,
    uint64_t num_values, const cccl_cache_iterator_value* out, void* stream,
    const cccl_cache_op_state* op_state);
/* Any binary search spec, the sorted range `data` given as the spec's data_in too (an
 * array value for an array range; e.g. a counting iterator's start for a search among
 * the integers), with a stateful comparator's state (NULL: stateless). The other calls
 * refuse a spec whose range is an iterator, naming this one. */
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_search_range_iterator(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* data, uint64_t num_items,
    const cccl_cache_iterator_value* values, uint64_t num_values,
    const cccl_cache_iterator_value* out, void* stream, const cccl_cache_op_state* op_state);
/* Inclusive scan of d_in into d_out (may be equal); a spec with init=1 takes
 * cccl_cache_inclusive_scan_init instead (INVALID_ARGUMENT here). */
CCCL_CACHE_API cccl_cache_status cccl_cache_inclusive_scan(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_inclusive_scan_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state);
/* Inclusive scan seeded with *h_init (one element on the host), a spec with init=1
 * (cub::DeviceScan::InclusiveScanInit): d_out[i] = *h_init op d_in[0] op ... op d_in[i]. */
CCCL_CACHE_API cccl_cache_status cccl_cache_inclusive_scan_init(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* h_init, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_inclusive_scan_init_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* h_init, void* stream,
    const cccl_cache_op_state* op_state);
/* Exclusive scan seeded with *h_init (one element on the host). */
CCCL_CACHE_API cccl_cache_status cccl_cache_exclusive_scan(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* h_init, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_exclusive_scan_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* h_init, void* stream,
    const cccl_cache_op_state* op_state);
/* An exclusive scan, or an inclusive scan whose spec has init=1, seeded with an initial
 * value in device memory: d_init points to one element of the spec's type, read by the
 * kernels when they run (cub::FutureValue), so work queued before on the stream may
 * write it. The executable is the one the host-value calls use. INVALID_ARGUMENT also
 * for an inclusive scan without init, another algorithm, or a NULL d_init outside a
 * size query. */
CCCL_CACHE_API cccl_cache_status cccl_cache_scan_device_init(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* d_init, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_scan_device_init_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const void* d_in, void* d_out, uint64_t num_items, const void* d_init, void* stream,
    const cccl_cache_op_state* op_state);
/* A scan (inclusive or exclusive, by the algorithm) over the spec's input iterator (`in`,
 * its values for this call; a spec without one takes the array calls above, which refuse
 * one with an iterator with INVALID_ARGUMENT). The initial value: none for an inclusive
 * scan without init (h_init and d_init NULL), else exactly one of h_init (one element on
 * the host) and d_init (one in device memory, as cccl_cache_scan_device_init reads it).
 * INVALID_ARGUMENT where in->kind is not the spec's input kind, `in` is NULL, or the
 * initial values do not fit the spec. */
CCCL_CACHE_API cccl_cache_status cccl_cache_scan_iterator(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, void* d_out, uint64_t num_items, const void* h_init,
    const void* d_init, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_scan_iterator_with_state(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, void* d_out, uint64_t num_items, const void* h_init,
    const void* d_init, void* stream, const cccl_cache_op_state* op_state);
/* Any scan spec (the one-iterator and array calls refuse a spec with an output iterator by
 * naming this call): as cccl_cache_scan_iterator_with_state, with the output's values
 * `out` (of the spec's kind, POINTER for an array) in place of d_out. */
CCCL_CACHE_API cccl_cache_status cccl_cache_scan_iterators(
    const cccl_cache_algorithm* algorithm, void* d_temp_storage, size_t* temp_storage_bytes,
    const cccl_cache_iterator_value* in, const cccl_cache_iterator_value* out, uint64_t num_items,
    const void* h_init, const void* d_init, void* stream, const cccl_cache_op_state* op_state);
/* d_out[i] = op(d_in[i]); no temp storage. A spec with an input or output iterator takes
 * cccl_cache_unary_transform_iterators (INVALID_ARGUMENT here, naming it). */
CCCL_CACHE_API cccl_cache_status cccl_cache_unary_transform(const cccl_cache_algorithm* algorithm,
                                                            const void* d_in, void* d_out,
                                                            uint64_t num_items, void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_unary_transform_with_state(
    const cccl_cache_algorithm* algorithm, const void* d_in, void* d_out, uint64_t num_items,
    void* stream, const cccl_cache_op_state* op_state);
/* Any unary transform spec (spec text such as "unary_transform in=float32 out=float32
 * op=negate input=counting(int64)"): its input's values `in` and its output's `out`, each of
 * the spec's kind (POINTER for an array). op_state: NULL for a stateless operator.
 * INVALID_ARGUMENT where `in` or `out` is NULL or not of the spec's kind. */
CCCL_CACHE_API cccl_cache_status cccl_cache_unary_transform_iterators(
    const cccl_cache_algorithm* algorithm, const cccl_cache_iterator_value* in,
    const cccl_cache_iterator_value* out, uint64_t num_items, void* stream,
    const cccl_cache_op_state* op_state);
/* d_out[i] = op(d_in1[i], d_in2[i]); no temp storage. A spec with an iterator takes
 * cccl_cache_binary_transform_iterators (INVALID_ARGUMENT here, naming it). */
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_transform(const cccl_cache_algorithm* algorithm,
                                                             const void* d_in1, const void* d_in2,
                                                             void* d_out, uint64_t num_items,
                                                             void* stream);
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_transform_with_state(
    const cccl_cache_algorithm* algorithm, const void* d_in1, const void* d_in2, void* d_out,
    uint64_t num_items, void* stream, const cccl_cache_op_state* op_state);
/* Any binary transform spec (input1, input2 and output iterator fields): each argument's
 * values of the spec's kind (POINTER for an array), as cccl_cache_unary_transform_iterators. */
CCCL_CACHE_API cccl_cache_status cccl_cache_binary_transform_iterators(
    const cccl_cache_algorithm* algorithm, const cccl_cache_iterator_value* in1,
    const cccl_cache_iterator_value* in2, const cccl_cache_iterator_value* out, uint64_t num_items,
    void* stream, const cccl_cache_op_state* op_state);
/* Calls the spec's operator (CUSTOM: a __device__ function taking the item, by reference
 * to change it in place) on every item of d_in[0..num_items), in no particular order
 * (cub::DeviceFor::ForEachN); no temp storage. op_state: its state, NULL for a stateless
 * operator. A spec with an input iterator takes cccl_cache_for_each_iterators
 * (INVALID_ARGUMENT here, naming it). */
CCCL_CACHE_API cccl_cache_status cccl_cache_for_each(const cccl_cache_algorithm* algorithm,
                                                     void* d_in, uint64_t num_items, void* stream,
                                                     const cccl_cache_op_state* op_state);
/* Any for_each spec (spec text such as "for_each type=int64 op=f:8/8 input=counting(int64)"):
 * its input's values `in`, of the spec's kind (POINTER for an array). */
CCCL_CACHE_API cccl_cache_status cccl_cache_for_each_iterators(
    const cccl_cache_algorithm* algorithm, const cccl_cache_iterator_value* in,
    uint64_t num_items, void* stream, const cccl_cache_op_state* op_state);

#ifdef __cplusplus
}
#endif

#endif /* CCCL_CACHE_H */
