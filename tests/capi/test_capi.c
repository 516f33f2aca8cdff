/* The C ABI (cccl_cache.h), compiled as C11: status codes and messages for bad input,
 * specs from text and from the struct (every algorithm), keys, a store in a temp
 * directory, one NVRTC build shared by the checks (prewarm, then a store hit after
 * reopening); with a GPU, a merge sort checked against qsort and a double-buffer radix
 * sort against a stable host sort. Without a GPU it runs
 * every check that needs none and exits 77 (ctest: skipped). */
#define _XOPEN_SOURCE 700

#include <cuda_runtime_api.h>
#include <ftw.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cccl_cache.h"

static int failures = 0;

#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s (last error: '%s')\n", __FILE__, __LINE__, \
              #cond, cccl_cache_last_error());                                           \
      ++failures;                                                                        \
    }                                                                                    \
  } while (0)

/* `call` returns `status` and leaves a message naming `says`. */
#define CHECK_FAILS(call, status, says)                                                        \
  do {                                                                                         \
    cccl_cache_status s_ = (call);                                                             \
    if (s_ != (status) || strstr(cccl_cache_last_error(), (says)) == NULL) {                   \
      fprintf(stderr, "%s:%d: %s returned %s ('%s'), expected %s saying '%s'\n", __FILE__,     \
              __LINE__, #call, cccl_cache_status_name(s_), cccl_cache_last_error(),            \
              cccl_cache_status_name(status), (says));                                         \
      ++failures;                                                                              \
    }                                                                                          \
  } while (0)

#define CHECK_OK(call) CHECK((call) == CCCL_CACHE_OK)

static int remove_entry(const char* path, const struct stat* st, int flag, struct FTW* ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void* other_thread_error(void* arg) {
  *(int*)arg = cccl_cache_last_error()[0] == '\0';
  return NULL;
}

static void check_library(void) {
  pthread_t t;
  int clean = 0;
  CHECK(strcmp(cccl_cache_version(), "") != 0);
  CHECK(cccl_cache_abi_version() == CCCL_CACHE_ABI_VERSION);
  CHECK(strcmp(cccl_cache_status_name(CCCL_CACHE_OK), "ok") == 0);
  CHECK(strcmp(cccl_cache_status_name(CCCL_CACHE_ERROR_DRIVER), "driver") == 0);
  CHECK(strcmp(cccl_cache_status_name((cccl_cache_status)999), "unknown") == 0);
  /* The last error is per thread. */
  CHECK_FAILS(cccl_cache_spec_parse(NULL, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "out is NULL");
  CHECK(pthread_create(&t, NULL, other_thread_error, &clean) == 0);
  CHECK(pthread_join(t, NULL) == 0);
  CHECK(clean);
  CHECK(strstr(cccl_cache_last_error(), "out is NULL") != NULL);
}

static void check_null_handles(void) {
  cccl_cache_spec* spec = (cccl_cache_spec*)1;
  cccl_cache_algorithm* alg = (cccl_cache_algorithm*)1;
  size_t bytes = 0;
  char key[CCCL_CACHE_KEY_SIZE];
  CHECK_FAILS(cccl_cache_spec_parse(NULL, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "text is NULL");
  CHECK(spec == NULL);
  CHECK_FAILS(cccl_cache_spec_from_desc(NULL, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "desc is NULL");
  CHECK_FAILS(cccl_cache_store_open(NULL, NULL, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "out is NULL");
  CHECK_FAILS(cccl_cache_acquire(NULL, NULL, 0, &alg), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "store is NULL");
  CHECK(alg == NULL);
  CHECK_FAILS(cccl_cache_prewarm(NULL, NULL, 90, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "store is NULL");
  CHECK_FAILS(cccl_cache_spec_key(NULL, 90, key, sizeof key), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "spec is NULL");
  CHECK_FAILS(cccl_cache_temp_storage_bytes(NULL, 10, &bytes), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "algorithm is NULL");
  CHECK_FAILS(cccl_cache_merge_sort(NULL, NULL, &bytes, NULL, NULL, NULL, NULL, 10, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_radix_sort(NULL, NULL, &bytes, NULL, NULL, NULL, NULL, 10, 0, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_radix_sort_double_buffer(NULL, NULL, &bytes, NULL, 10, 0, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_radix_argsort(NULL, NULL, &bytes, NULL, NULL, 0, NULL, 10, 0, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_unary_transform(NULL, NULL, NULL, 10, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "algorithm is NULL");
  CHECK_FAILS(cccl_cache_binary_transform_iterators(NULL, NULL, NULL, NULL, 10, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_for_each(NULL, NULL, 10, NULL, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "algorithm is NULL");
  CHECK_FAILS(cccl_cache_for_each_iterators(NULL, NULL, 10, NULL, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "algorithm is NULL");
  CHECK_FAILS(cccl_cache_segmented_reduce(NULL, NULL, &bytes, NULL, NULL, 10, NULL, NULL, NULL, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_unique_by_key(NULL, NULL, &bytes, NULL, NULL, NULL, NULL, NULL, 10, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_scan_by_key(NULL, NULL, &bytes, NULL, NULL, NULL, 10, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_select(NULL, NULL, &bytes, NULL, NULL, NULL, 10, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "algorithm is NULL");
  CHECK_FAILS(cccl_cache_scan_device_init(NULL, NULL, &bytes, NULL, NULL, 10, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_scan_iterator(NULL, NULL, &bytes, NULL, NULL, 10, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  {
    cccl_cache_iterator_value discard;
    memset(&discard, 0, sizeof discard);
    discard.kind = CCCL_CACHE_ITERATOR_DISCARD;
    CHECK_FAILS(cccl_cache_scan_iterators(NULL, NULL, &bytes, NULL, &discard, 10, NULL, NULL, NULL, NULL),
                CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
    CHECK_FAILS(cccl_cache_reduce_iterators(NULL, NULL, &bytes, NULL, &discard, 10, NULL, NULL, NULL),
                CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
    CHECK_FAILS(cccl_cache_scan_iterators(NULL, NULL, &bytes, NULL, NULL, 10, NULL, NULL, NULL, NULL),
                CCCL_CACHE_ERROR_INVALID_ARGUMENT, "cccl_cache_scan_iterators: out is NULL");
  }
  CHECK_FAILS(cccl_cache_three_way_partition(NULL, NULL, &bytes, NULL, NULL, NULL, NULL, NULL, 10, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_histogram_even(NULL, NULL, &bytes, NULL, NULL, 257, NULL, NULL, 10, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_binary_search(NULL, NULL, &bytes, NULL, 10, NULL, 10, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK_FAILS(cccl_cache_segmented_sort(NULL, NULL, &bytes, NULL, NULL, NULL, NULL, 10, 2, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "algorithm is NULL");
  CHECK(cccl_cache_spec_text(NULL) == NULL);
  CHECK(cccl_cache_spec_algorithm(NULL) == 0);
  CHECK(cccl_cache_store_dir(NULL) == NULL);
  CHECK(cccl_cache_algorithm_device(NULL) == -1);
  cccl_cache_spec_free(NULL);
  cccl_cache_store_close(NULL);
  cccl_cache_algorithm_release(NULL);
}

static void check_bad_text(void) {
  static const struct {
    const char* text;
    const char* says;
  } cases[] = {
      {"", "empty"},
      {"histogram keys=int32", "unknown algorithm"},
      {"merge_sort values=int32", "keys"},
      {"merge_sort keys=float128", "float128"},
      {"merge_sort keys=int32 colour=red", "colour"},
      {"merge_sort keys=int32 source='open", "unterminated"},
      {"merge_sort keys=int32 compare=mine", "no source"},
      {"merge_sort keys=float32 compare=f source_file=f.cuh", "source_file is not read here"},
      {"reduce type=float32 op=bit_and", "reduce"},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    cccl_cache_spec* spec = (cccl_cache_spec*)1;
    CHECK_FAILS(cccl_cache_spec_parse(cases[i].text, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                cases[i].says);
    CHECK(spec == NULL);
  }
}

/* `text` parses to a spec of the same key as `desc`'s, and both print as `printed` (NULL:
 * `text`; custom operators print by name only). */
static void check_desc_is_text(const cccl_cache_spec_desc* desc, const char* text, const char* printed) {
  cccl_cache_spec* from_desc = NULL;
  cccl_cache_spec* from_text = NULL;
  char key1[CCCL_CACHE_KEY_SIZE] = "";
  char key2[CCCL_CACHE_KEY_SIZE] = "";
  CHECK_OK(cccl_cache_spec_from_desc(desc, &from_desc));
  CHECK_OK(cccl_cache_spec_parse(text, &from_text));
  if (from_desc == NULL || from_text == NULL) return;
  if (printed == NULL) printed = text;
  if (strcmp(cccl_cache_spec_text(from_desc), printed) != 0) {
    fprintf(stderr, "spec text '%s', expected '%s'\n", cccl_cache_spec_text(from_desc), printed);
    ++failures;
  }
  CHECK(strcmp(cccl_cache_spec_text(from_text), printed) == 0);
  CHECK(cccl_cache_spec_algorithm(from_desc) == desc->algorithm);
  CHECK_OK(cccl_cache_spec_key(from_desc, 90, key1, sizeof key1));
  CHECK_OK(cccl_cache_spec_key(from_text, 90, key2, sizeof key2));
  CHECK(strcmp(key1, key2) == 0);
  CHECK(strstr(key1, "-sm90") != NULL && strlen(key1) == 32 + 5);
  cccl_cache_spec_free(from_desc);
  cccl_cache_spec_free(from_text);
}

#define ABS_LESS "__device__ bool abs_less(int a, int b) { return abs(a) < abs(b); }"
#define TWICE "__device__ void twice(float& x) { x *= 2; }"

static void check_descs(void) {
  /* For every algorithm: a struct, the text of the same spec, and how both print. */
  static const struct {
    cccl_cache_spec_desc desc;
    const char* text;
    const char* printed;
  } cases[] = {
      {{.algorithm = CCCL_CACHE_MERGE_SORT, .type = CCCL_CACHE_FLOAT32},
       "merge_sort keys=float32 values=none compare=less offset=int64", NULL},
      {{.algorithm = CCCL_CACHE_MERGE_SORT, .type = CCCL_CACHE_INT32,
        .op = {CCCL_CACHE_OP_CUSTOM, "abs_less", ABS_LESS}},
       "merge_sort keys=int32 compare=abs_less source='" ABS_LESS "'",
       "merge_sort keys=int32 values=none compare=abs_less offset=int64"},
      {{.algorithm = CCCL_CACHE_RADIX_SORT, .type = CCCL_CACHE_UINT32,
        .value_type = CCCL_CACHE_INT64, .descending = 1},
       "radix_sort keys=uint32 values=int64 descending=true offset=uint32", NULL},
      {{.algorithm = CCCL_CACHE_REDUCE, .type = CCCL_CACHE_FLOAT64, .op = {CCCL_CACHE_OP_MAXIMUM, NULL, NULL}},
       "reduce type=float64 op=maximum offset=uint64", NULL},
      {{.algorithm = CCCL_CACHE_REDUCE, .type = CCCL_CACHE_BOOL, .op = {CCCL_CACHE_OP_LOGICAL_OR, NULL, NULL}},
       "reduce type=bool op=logical_or offset=uint64", NULL},
      {{.algorithm = CCCL_CACHE_INCLUSIVE_SCAN, .type = CCCL_CACHE_INT32},
       "inclusive_scan type=int32 op=plus offset=uint64", NULL},
      {{.algorithm = CCCL_CACHE_INCLUSIVE_SCAN, .type = CCCL_CACHE_INT8, .descending = 1},
       "inclusive_scan type=int8 op=plus offset=uint64 init=true", NULL},
      {{.algorithm = CCCL_CACHE_EXCLUSIVE_SCAN, .type = CCCL_CACHE_INT64, .offset_type = CCCL_CACHE_UINT32},
       "exclusive_scan type=int64 op=plus offset=uint32", NULL},
      {{.algorithm = CCCL_CACHE_UNARY_TRANSFORM, .type = CCCL_CACHE_FLOAT32, .out_type = CCCL_CACHE_FLOAT32,
        .op = {CCCL_CACHE_OP_NEGATE, NULL, NULL}},
       "unary_transform in=float32 out=float32 op=negate", NULL},
      {{.algorithm = CCCL_CACHE_BINARY_TRANSFORM, .type = CCCL_CACHE_FLOAT32, .in2_type = CCCL_CACHE_FLOAT32,
        .out_type = CCCL_CACHE_FLOAT32, .op = {CCCL_CACHE_OP_MINUS, NULL, NULL}},
       "binary_transform in1=float32 in2=float32 out=float32 op=minus", NULL},
      {{.algorithm = CCCL_CACHE_SEGMENTED_REDUCE, .type = CCCL_CACHE_INT32, .offset_type = CCCL_CACHE_INT32},
       "segmented_reduce type=int32 op=plus offset=int32", NULL},
      {{.algorithm = CCCL_CACHE_UNIQUE_BY_KEY, .type = CCCL_CACHE_INT64, .value_type = CCCL_CACHE_FLOAT32,
        .out_type = CCCL_CACHE_INT32, .offset_type = CCCL_CACHE_UINT32},
       "unique_by_key keys=int64 values=float32 op=equal_to offset=uint32 selected=int32", NULL},
      {{.algorithm = CCCL_CACHE_UNIQUE_BY_KEY, .type = CCCL_CACHE_INT32, .value_type = CCCL_CACHE_INT32,
        .op = {CCCL_CACHE_OP_EQUAL_TO, NULL, NULL}},
       "unique_by_key keys=int32 values=int32 op=equal_to offset=uint64 selected=uint64", NULL},
      {{.algorithm = CCCL_CACHE_SCAN_BY_KEY, .type = CCCL_CACHE_INT32, .value_type = CCCL_CACHE_INT8},
       "scan_by_key keys=int32 values=int8", "scan_by_key keys=int32 values=int8 equality=equal_to op=plus "
                                             "exclusive=false offset=uint64"},
      {{.algorithm = CCCL_CACHE_SCAN_BY_KEY, .type = CCCL_CACHE_INT64, .value_type = CCCL_CACHE_FLOAT32,
        .op = {CCCL_CACHE_OP_MAXIMUM, NULL, NULL}, .offset_type = CCCL_CACHE_UINT32, .descending = 1},
       "scan_by_key keys=int64 values=float32 equality=equal_to op=maximum exclusive=true offset=uint32", NULL},
      {{.algorithm = CCCL_CACHE_SELECT, .type = CCCL_CACHE_FLOAT32, .out_type = CCCL_CACHE_INT32},
       "select type=float32 op=identity offset=int64 selected=int32", NULL},
      {{.algorithm = CCCL_CACHE_FOR_EACH, .type = CCCL_CACHE_FLOAT32, .offset_type = CCCL_CACHE_UINT32,
        .op = {CCCL_CACHE_OP_CUSTOM, "twice", TWICE}},
       "for_each type=float32 op=twice offset=uint32 source='" TWICE "'",
       "for_each type=float32 op=twice offset=uint32"},
      {{.algorithm = CCCL_CACHE_THREE_WAY_PARTITION, .type = CCCL_CACHE_UINT8, .offset_type = CCCL_CACHE_INT32,
        .out_type = CCCL_CACHE_UINT32},
       "three_way_partition type=uint8 first_op=identity second_op=identity offset=int32 selected=uint32", NULL},
      {{.algorithm = CCCL_CACHE_HISTOGRAM_EVEN, .type = CCCL_CACHE_UINT8, .value_type = CCCL_CACHE_INT32,
        .out_type = CCCL_CACHE_UINT32},
       "histogram_even type=uint8 level=int32 counter=uint32 offset=int32", NULL},
      {{.algorithm = CCCL_CACHE_HISTOGRAM_EVEN, .type = CCCL_CACHE_FLOAT32, .offset_type = CCCL_CACHE_INT64},
       "histogram_even type=float32 level=none counter=int32 offset=int64", NULL},
      {{.algorithm = CCCL_CACHE_SEGMENTED_SORT, .type = CCCL_CACHE_UINT16, .value_type = CCCL_CACHE_FLOAT64,
        .offset_type = CCCL_CACHE_INT64, .descending = 1},
       "segmented_sort keys=uint16 values=float64 descending=true offset=int64", NULL},
      {{.algorithm = CCCL_CACHE_SEGMENTED_SORT, .type = CCCL_CACHE_FLOAT32},
       "segmented_sort keys=float32 values=none descending=false offset=int32", NULL},

      {{.algorithm = CCCL_CACHE_BINARY_SEARCH, .type = CCCL_CACHE_FLOAT64, .out_type = CCCL_CACHE_UINT32,
        .op = {CCCL_CACHE_OP_GREATER, NULL, NULL}, .descending = 1},
       "binary_search type=float64 out=uint32 compare=greater upper=true", NULL},
  };
  cccl_cache_spec_desc d;
  cccl_cache_spec* spec = NULL;
  char key_80[CCCL_CACHE_KEY_SIZE], key_90[CCCL_CACHE_KEY_SIZE], small[8];
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    check_desc_is_text(&cases[i].desc, cases[i].text, cases[i].printed);

  /* Keys differ by CC; a short buffer is refused. */
  CHECK_OK(cccl_cache_spec_from_desc(&cases[0].desc, &spec));
  CHECK_OK(cccl_cache_spec_key(spec, 80, key_80, sizeof key_80));
  CHECK_OK(cccl_cache_spec_key(spec, 90, key_90, sizeof key_90));
  CHECK(strcmp(key_80, key_90) != 0);
  CHECK_FAILS(cccl_cache_spec_key(spec, 90, small, sizeof small), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "CCCL_CACHE_KEY_SIZE");
  cccl_cache_spec_free(spec);

  /* Bad structs: each names what is wrong. */
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_SELECT;
  d.type = CCCL_CACHE_INT16;
  d.offset_type = CCCL_CACHE_UINT64;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "must be int64");
  d.algorithm = CCCL_CACHE_THREE_WAY_PARTITION;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "must be int32 or int64");
  memset(&d, 0, sizeof d);
  d.algorithm = (cccl_cache_algorithm_kind)99;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "not a cccl_cache_algorithm_kind");
  d.algorithm = CCCL_CACHE_MERGE_SORT;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "keys");
  d.type = (cccl_cache_type)99;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "not a cccl_cache_type");
  d.type = CCCL_CACHE_FLOAT32;
  d.descending = 1;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "no field for descending");
  d.descending = 0;
  d.op.kind = CCCL_CACHE_OP_CUSTOM;
  d.op.name = "f";
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "needs its name and source");
  d.op.kind = CCCL_CACHE_OP_LESS;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "takes no name");
  d.op.name = NULL;
  d.op.kind = (cccl_cache_op_kind)77;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "not a cccl_cache_op_kind");
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_REDUCE;
  d.type = CCCL_CACHE_FLOAT32;
  d.value_type = CCCL_CACHE_INT32;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "no field for value_type");
  CHECK(spec == NULL);
}

/* A three-way partition's two predicates from the struct: op and op2, each well-known or
 * custom (two custom ones in one spec, which one spec text cannot carry); op2's source is
 * part of the key; op2 elsewhere is refused. */
static void second_operator_from_desc(void) {
  cccl_cache_spec_desc d;
  cccl_cache_spec *spec = NULL, *other = NULL;
  char key[CCCL_CACHE_KEY_SIZE] = "", other_key[CCCL_CACHE_KEY_SIZE] = "";
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_THREE_WAY_PARTITION;
  d.type = CCCL_CACHE_INT32;
  d.op = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "small",
                         "__device__ bool small(int x) { return x < 10; }", 0, 0};
  d.op2 = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "even",
                          "__device__ bool even(int x) { return x % 2 == 0; }", 0, 0};
  CHECK_OK(cccl_cache_spec_from_desc(&d, &spec));
  if (spec != NULL) {
    CHECK(strstr(cccl_cache_spec_text(spec), "first_op=small second_op=even") != NULL);
    CHECK_OK(cccl_cache_spec_key(spec, 90, key, sizeof key));
  }
  d.op2.source = "__device__ bool even(int x) { return x % 2 != 1; }";
  CHECK_OK(cccl_cache_spec_from_desc(&d, &other));
  if (other != NULL) CHECK_OK(cccl_cache_spec_key(other, 90, other_key, sizeof other_key));
  CHECK(key[0] != '\0' && strcmp(key, other_key) != 0);
  cccl_cache_spec_free(spec);
  cccl_cache_spec_free(other);
  d.op2 = (cccl_cache_op){CCCL_CACHE_OP_IDENTITY, NULL, NULL, 0, 0};
  CHECK_OK(cccl_cache_spec_from_desc(&d, &spec));
  if (spec != NULL) CHECK(strstr(cccl_cache_spec_text(spec), "second_op=identity") != NULL);
  cccl_cache_spec_free(spec);
  spec = NULL;
  d.op2 = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "even", NULL, 0, 0};
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "op2: a CUSTOM operator needs its name and source");
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_SELECT;
  d.type = CCCL_CACHE_INT32;
  d.op2.kind = CCCL_CACHE_OP_IDENTITY;
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "no field for op2");
  CHECK(spec == NULL);
}

#define PLUS_MOD                                                                      \
  "__device__ unsigned plus_mod(void* s, unsigned a, unsigned b) { return (a + b) % " \
  "*(unsigned*)s; }"
#define BELOW "__device__ bool below(void* s, int x) { return x < *(int*)s; }"
#define CLOSER                                                                              \
  "__device__ bool closer(void* s, int a, int b) { const int p = *(int*)s; "                \
  "return (a > p ? a - p : p - a) < (b > p ? b - p : p - b); }"
#define ABOVE_MULTIPLE                                                                          \
  "__device__ bool above_multiple(void* s, int x) { const long long* h = (const long long*)s; " \
  "return x > h[0] && x % h[1] == 0; }"

/* A stateful CUSTOM operator's layout in the desc: spec text writes it after the name, it
 * is in the key, each of three-way partition's predicates has its own; a layout on a
 * well-known kind is refused; binary search's comparator takes one too. */
static void stateful_ops_from_desc(void) {
  cccl_cache_spec_desc d;
  cccl_cache_spec *spec = NULL, *stateless = NULL;
  char key[CCCL_CACHE_KEY_SIZE] = "", other[CCCL_CACHE_KEY_SIZE] = "";
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_INCLUSIVE_SCAN;
  d.type = CCCL_CACHE_UINT32;
  d.op = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "plus_mod", PLUS_MOD, 4, 4};
  check_desc_is_text(&d, "inclusive_scan type=uint32 op=plus_mod:4/4 source='" PLUS_MOD "'",
                     "inclusive_scan type=uint32 op=plus_mod:4/4 offset=uint64");
  CHECK_OK(cccl_cache_spec_from_desc(&d, &spec));
  d.op.state_size = d.op.state_alignment = 0;
  CHECK_OK(cccl_cache_spec_from_desc(&d, &stateless));
  if (spec != NULL && stateless != NULL) {
    CHECK_OK(cccl_cache_spec_key(spec, 90, key, sizeof key));
    CHECK_OK(cccl_cache_spec_key(stateless, 90, other, sizeof other));
    CHECK(strcmp(key, other) != 0);
  }
  cccl_cache_spec_free(spec);
  cccl_cache_spec_free(stateless);
  spec = NULL;

  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_THREE_WAY_PARTITION;
  d.type = CCCL_CACHE_INT32;
  d.op = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "below", BELOW, 4, 4};
  d.op2 = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "above_multiple", ABOVE_MULTIPLE, 16, 8};
  CHECK_OK(cccl_cache_spec_from_desc(&d, &spec));
  if (spec != NULL)
    CHECK(strstr(cccl_cache_spec_text(spec), "first_op=below:4/4 second_op=above_multiple:16/8") !=
          NULL);
  cccl_cache_spec_free(spec);
  spec = NULL;
  d.op2 = (cccl_cache_op){CCCL_CACHE_OP_IDENTITY, NULL, NULL, 4, 4};
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "only a CUSTOM operator has a state");
  d.op2 = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "above_multiple", ABOVE_MULTIPLE, 16, 3};
  CHECK_FAILS(cccl_cache_spec_from_desc(&d, &spec), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "power of two");
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_BINARY_SEARCH;
  d.type = CCCL_CACHE_INT32;
  d.op = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "lt",
                         "__device__ bool lt(void* s, int a, int b) { return a < b; }", 4, 4};
  CHECK_OK(cccl_cache_spec_from_desc(&d, &spec));
  if (spec != NULL) CHECK(strstr(cccl_cache_spec_text(spec), "compare=lt:4/4") != NULL);
  cccl_cache_spec_free(spec);
}

/* The algorithm of desc `d` acquired from `store` on device 0, checked to be of `kind`;
 * NULL (a failed check recorded) where there is none. */
/* The algorithm of `spec` (freed here) on device 0, NULL where a check failed. */
static cccl_cache_algorithm* acquire_spec(cccl_cache_store* store, cccl_cache_spec* spec) {
  cccl_cache_algorithm* alg = NULL;
  if (spec == NULL) return NULL;
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &alg));
  cccl_cache_spec_free(spec);
  return alg;
}

static cccl_cache_algorithm* acquire_desc(cccl_cache_store* store, const cccl_cache_spec_desc* d,
                                          cccl_cache_algorithm_kind kind) {
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* alg = NULL;
  CHECK_OK(cccl_cache_spec_from_desc(d, &spec));
  alg = acquire_spec(store, spec);
  if (alg != NULL) CHECK(cccl_cache_algorithm_kind_of(alg) == kind);
  return alg;
}

/* The algorithm of spec text `text` on device 0 (NULL where a check failed). */
static cccl_cache_algorithm* acquire_text(cccl_cache_store* store, const char* text) {
  cccl_cache_spec* spec = NULL;
  CHECK_OK(cccl_cache_spec_parse(text, &spec));
  return acquire_spec(store, spec);
}

/* The algorithms of two spec texts; 0 (and neither held) where one could not be had. */
static int acquire_two(cccl_cache_store* store, const char* text_a, const char* text_b, cccl_cache_algorithm** a,
                       cccl_cache_algorithm** b) {
  *a = acquire_text(store, text_a);
  *b = acquire_text(store, text_b);
  if (*a != NULL && *b != NULL) return 1;
  cccl_cache_algorithm_release(*a);
  cccl_cache_algorithm_release(*b);
  return 0;
}

/* Lower bounds of the integers -5..994 (a counting input) in 0, 10, ..., 990, written
 * last first (output=reverse), through the C ABI; the array call refuses the spec. */
static void binary_search_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 100, m = 1000 };
  static long long data[n], out[m];
  const long long start = -5;
  size_t bytes = 0;
  int i, ok = 1;
  void *d_data = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_iterator_value values, dst;
  cccl_cache_algorithm* alg =
      acquire_text(store, "lower_bound type=int64 values_in=counting output=reverse");
  if (alg == NULL) return;
  for (i = 0; i < n; ++i) data[i] = 10LL * i;
  memset(&values, 0, sizeof values);
  memset(&dst, 0, sizeof dst);
  values.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&values.value, &start, sizeof start);
  CHECK(cudaMalloc(&d_data, sizeof data) == cudaSuccess &&
        cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_data, data, sizeof data, cudaMemcpyHostToDevice) == cudaSuccess);
  dst.kind = CCCL_CACHE_ITERATOR_REVERSE;
  dst.pointer = d_out;
  CHECK_OK(cccl_cache_binary_search_iterators(alg, NULL, &bytes, d_data, n, &values, m, &dst, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_binary_search(alg, d_temp, &bytes, d_data, n, d_data, m, d_out, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_binary_search_iterators");
  CHECK_FAILS(cccl_cache_binary_search_iterators(alg, d_temp, &bytes, d_data, n, &dst, m, &dst, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "values");
  CHECK_OK(cccl_cache_binary_search_iterators(alg, d_temp, &bytes, d_data, n, &values, m, &dst, NULL));
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < m; ++i) {
    const long long v = start + i;
    const long long want = v <= 0 ? 0 : (v + 9) / 10 > n ? n : (v + 9) / 10;
    ok &= out[m - 1 - i] == want;
  }
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_out);
  cudaFree(d_data);
  cccl_cache_algorithm_release(alg);
  printf("lower bounds of a counting input written last first through the C ABI: %s\n",
         ok ? "ok" : "MISMATCH");
}

/* An iterator value of `kind` over `pointer` (an array, a reverse's, ...), and a counting
 * iterator's from int64 `start`. */
static cccl_cache_iterator_value pointer_value(cccl_cache_iterator_kind kind, const void* pointer) {
  cccl_cache_iterator_value v;
  memset(&v, 0, sizeof v);
  v.kind = kind;
  v.pointer = pointer;
  return v;
}
static cccl_cache_iterator_value counting_value(long long start) {
  cccl_cache_iterator_value v = pointer_value(CCCL_CACHE_ITERATOR_COUNTING, NULL);
  memcpy(&v.value, &start, sizeof start);
  return v;
}

/* Lower bounds of eight int64 values among the integers -500..4499 (the range a counting
 * iterator, data_in=counting) through the C ABI; the other binary search calls refuse the
 * spec, naming cccl_cache_binary_search_range_iterator. */
static void range_iterator_search_on_gpu(cccl_cache_store* store) {
  enum { m = 8 };
  static const long long values[m] = {-1000, -500, -499, 0, 4499, 4500, 9999, 7};
  long long out[m] = {0};
  const long long start = -500, items = 5000;
  size_t bytes = 0;
  int i, ok = 1;
  void *d_values = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_iterator_value data = counting_value(start), vals, dst;
  cccl_cache_algorithm* alg = acquire_text(store, "lower_bound type=int64 data_in=counting");
  if (alg == NULL) return;
  CHECK(cudaMalloc(&d_values, sizeof values) == cudaSuccess && cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  vals = pointer_value(CCCL_CACHE_ITERATOR_POINTER, d_values);
  dst = pointer_value(CCCL_CACHE_ITERATOR_POINTER, d_out);
  CHECK_OK(cccl_cache_binary_search_range_iterator(alg, NULL, &bytes, &data, items, &vals, m, &dst, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_binary_search(alg, d_temp, &bytes, d_values, items, d_values, m, d_out, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_binary_search_range_iterator");
  CHECK_FAILS(cccl_cache_binary_search_iterators(alg, d_temp, &bytes, d_values, items, &vals, m, &dst, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_binary_search_range_iterator");
  CHECK_FAILS(cccl_cache_binary_search_range_iterator(alg, d_temp, &bytes, &vals, items, &vals, m, &dst, NULL,
                                                      NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "data");
  CHECK_OK(cccl_cache_binary_search_range_iterator(alg, d_temp, &bytes, &data, items, &vals, m, &dst, NULL, NULL));
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < m; ++i) {
    const long long want = values[i] - start < 0 ? 0 : values[i] - start > items ? items : values[i] - start;
    ok &= out[i] == want;
  }
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_out);
  cudaFree(d_values);
  cccl_cache_algorithm_release(alg);
  printf("lower bounds among the integers of a counting range through the C ABI: %s\n", ok ? "ok" : "MISMATCH");
}

/* Upper bounds of six int32 values in a sorted int32 range (uint64 indices) through the
 * C ABI, from the desc (its flag is the spec's `upper`). */
static void binary_search_on_gpu(cccl_cache_store* store) {
  enum { n = 6, m = 5 };
  const int data[n] = {1, 3, 3, 5, 7, 9}, values[m] = {0, 3, 4, 9, 10};
  const unsigned long long want[m] = {0, 3, 3, 6, 6};
  unsigned long long out[m];
  int i, same = 1;
  cccl_cache_algorithm* alg = NULL;
  void *d_data = NULL, *d_values = NULL, *d_out = NULL, *d_temp = NULL;
  size_t bytes = 0, queried = 0;
  cccl_cache_spec_desc d;
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_BINARY_SEARCH;
  d.type = CCCL_CACHE_INT32;
  d.out_type = CCCL_CACHE_UINT64;
  d.descending = 1;
  alg = acquire_desc(store, &d, CCCL_CACHE_BINARY_SEARCH);
  if (alg == NULL) return;
  CHECK_OK(cccl_cache_binary_search(alg, NULL, &bytes, NULL, n, NULL, m, NULL, NULL));
  CHECK_OK(cccl_cache_temp_storage_bytes(alg, n, &queried));
  CHECK(bytes == queried && bytes == 1);
  CHECK(cudaMalloc(&d_data, sizeof data) == cudaSuccess && cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_out, sizeof out) == cudaSuccess && cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_data, data, sizeof data, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_FAILS(cccl_cache_binary_search(alg, d_temp, &bytes, NULL, n, d_values, m, d_out, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "null pointer");
  CHECK_OK(cccl_cache_binary_search(alg, d_temp, &bytes, d_data, n, d_values, m, d_out, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < m; ++i) same = same && out[i] == want[i];
  CHECK(same);
  cudaFree(d_data);
  cudaFree(d_values);
  cudaFree(d_out);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("upper bounds of %d int32 in %d on device 0 through the C ABI: %s\n", m, n, same ? "ok" : "MISMATCH");
}

static void check_bad_stores(const char* tmp) {
  char path[4096];
  FILE* f;
  cccl_cache_store* store = (cccl_cache_store*)1;
  CHECK_FAILS(cccl_cache_store_open("", NULL, &store), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "dir is empty");
  CHECK(store == NULL);
  /* Under a regular file: no directory can be made there, root or not. */
  snprintf(path, sizeof path, "%s/file", tmp);
  f = fopen(path, "w");
  CHECK(f != NULL);
  if (f != NULL) fclose(f);
  snprintf(path, sizeof path, "%s/file/store", tmp);
  CHECK(cccl_cache_store_open(path, NULL, &store) != CCCL_CACHE_OK);
  CHECK(store == NULL && strstr(cccl_cache_last_error(), path) != NULL);
  /* World-writable: never trusted. */
  snprintf(path, sizeof path, "%s/open", tmp);
  CHECK(mkdir(path, 0700) == 0 && chmod(path, 0777) == 0);
  CHECK_FAILS(cccl_cache_store_open(path, NULL, &store), CCCL_CACHE_ERROR_PERMISSION, "writable");
  snprintf(path, sizeof path, "%s/missing.toml", tmp);
  CHECK_FAILS(cccl_cache_store_open(NULL, path, &store), CCCL_CACHE_ERROR_NOT_FOUND, "missing.toml");
}

/* Sorts random floats on device 0 and compares with qsort. */
static int less_float(const void* a, const void* b) {
  float x = *(const float*)a, y = *(const float*)b;
  return (x > y) - (x < y);
}

static void sort_on_gpu(cccl_cache_store* store, const cccl_cache_spec* spec) {
  enum { n = 100003 };
  static float keys[n], out[n];
  cccl_cache_algorithm *sort = NULL, *again = NULL;
  void *d_keys = NULL, *d_temp = NULL;
  size_t bytes = 0, queried = 0, tiny = 1;
  unsigned seed = 12345;
  int i, sorted = 1;
  float init = 0.0f;
  for (i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    keys[i] = (float)((int)(seed >> 8) % 2000001 - 1000000) / 7.0f;
  }
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &sort));
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &again));
  if (sort == NULL || again == NULL) return;
  CHECK(cccl_cache_algorithm_kind_of(sort) == CCCL_CACHE_MERGE_SORT);
  CHECK(cccl_cache_algorithm_device(sort) == 0 && cccl_cache_algorithm_cc(sort) >= 50);
  cccl_cache_algorithm_release(again); /* the other handle stays usable */
  CHECK_OK(cccl_cache_temp_storage_bytes(sort, n, &bytes));
  CHECK_OK(cccl_cache_merge_sort(sort, NULL, &queried, NULL, NULL, NULL, NULL, n, NULL));
  CHECK(bytes > 0 && bytes == queried);
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess);
  CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_FAILS(cccl_cache_reduce(sort, d_temp, &bytes, d_keys, d_keys, n, &init, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "is a merge_sort, not a reduce");
  CHECK_FAILS(cccl_cache_merge_sort(sort, d_temp, &tiny, d_keys, NULL, d_keys, NULL, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "temp storage");
  CHECK_OK(cccl_cache_merge_sort(sort, d_temp, &bytes, d_keys, NULL, d_keys, NULL, n, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out, d_keys, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  qsort(keys, n, sizeof keys[0], less_float);
  for (i = 0; i < n; ++i) sorted = sorted && keys[i] == out[i];
  CHECK(sorted);
  cudaFree(d_keys);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(sort);
  printf("sorted %d float32 keys on device 0 through the C ABI: %s\n", n, sorted ? "ok" : "MISMATCH");
}

/* The double-buffer radix sort of uint32 keys with their indices on device 0: the result
 * where the selector says, equal to a stable host sort; its argument checks. */
static unsigned* g_keys; /* for less_by_key: qsort has no context argument */
static int less_by_key(const void* a, const void* b) {
  unsigned x = g_keys[*(const unsigned*)a], y = g_keys[*(const unsigned*)b];
  if (x != y) return (x > y) - (x < y);
  return (*(const unsigned*)a > *(const unsigned*)b) - (*(const unsigned*)a < *(const unsigned*)b);
}

static void radix_double_buffer_on_gpu(cccl_cache_store* store) {
  enum { n = 100003 };
  static unsigned keys[n], idx[n], order[n], out_keys[n], out_idx[n];
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* sort = NULL;
  cccl_cache_double_buffer db;
  void *d[4] = {NULL, NULL, NULL, NULL}, *d_temp = NULL;
  size_t bytes = 0, separate = 0;
  unsigned seed = 777;
  int i, start, same = 1;
  for (i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    keys[i] = (seed >> 4) % 5000u; /* many equal keys: stability shows */
    idx[i] = order[i] = (unsigned)i;
  }
  g_keys = keys;
  qsort(order, n, sizeof order[0], less_by_key);
  CHECK_OK(cccl_cache_spec_parse("radix_sort keys=uint32 values=uint32", &spec));
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &sort));
  if (sort == NULL) return;
  memset(&db, 0, sizeof db);
  CHECK_OK(cccl_cache_radix_sort_double_buffer(sort, NULL, &bytes, &db, n, 0, 0, NULL));
  CHECK_OK(cccl_cache_temp_storage_bytes(sort, n, &separate));
  CHECK(bytes > 0 && bytes <= separate);
  for (i = 0; i < 4; ++i) CHECK(cudaMalloc(&d[i], sizeof keys) == cudaSuccess);
  CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK_FAILS(cccl_cache_radix_sort_double_buffer(sort, d_temp, &bytes, NULL, n, 0, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "buffers is NULL");
  db.selector = 2;
  CHECK_FAILS(cccl_cache_radix_sort_double_buffer(sort, d_temp, &bytes, &db, n, 0, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "selector is 2");
  db.selector = 0;
  CHECK_FAILS(cccl_cache_radix_sort_double_buffer(sort, d_temp, &bytes, &db, n, 8, 4, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "bit");
  for (start = 0; start < 2; ++start) {
    db.keys[0] = d[0], db.keys[1] = d[1], db.values[0] = d[2], db.values[1] = d[3];
    db.selector = start;
    CHECK(cudaMemcpy(db.keys[start], keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(db.values[start], idx, sizeof idx, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_OK(cccl_cache_radix_sort_double_buffer(sort, d_temp, &bytes, &db, n, 0, 0, NULL));
    CHECK(db.selector == 0 || db.selector == 1);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(out_keys, db.keys[db.selector & 1], sizeof keys, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(cudaMemcpy(out_idx, db.values[db.selector & 1], sizeof idx, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (i = 0; i < n; ++i) same = same && out_idx[i] == order[i] && out_keys[i] == keys[order[i]];
  }
  CHECK(same);
  for (i = 0; i < 4; ++i) cudaFree(d[i]);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(sort);
  cccl_cache_spec_free(spec);
  printf("radix-sorted %d uint32 pairs in double buffers through the C ABI: %s\n", n,
         same ? "ok" : "MISMATCH");
}

/* An argsort of uint32 keys on device 0 (values_in=counting, indices from 10): the
 * indices of a stable host sort plus 10; the other radix calls refuse its spec. */
static void radix_argsort_on_gpu(cccl_cache_store* store) {
  enum { n = 100003 };
  static unsigned keys[n], order[n], out_keys[n], out_idx[n];
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* sort = NULL;
  void *d_keys = NULL, *d_out = NULL, *d_idx = NULL, *d_temp = NULL;
  size_t bytes = 0, queried = 0;
  unsigned seed = 4242;
  int i, same = 1;
  for (i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    keys[i] = (seed >> 4) % 5000u;
    order[i] = (unsigned)i;
  }
  g_keys = keys;
  qsort(order, n, sizeof order[0], less_by_key);
  CHECK_OK(cccl_cache_spec_parse("radix_sort keys=uint32 values=uint32 values_in=counting", &spec));
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &sort));
  if (sort == NULL) return;
  CHECK_OK(cccl_cache_radix_argsort(sort, NULL, &bytes, NULL, NULL, 10, NULL, n, 0, 0, NULL));
  CHECK_OK(cccl_cache_temp_storage_bytes(sort, n, &queried));
  CHECK(bytes == queried && bytes > sizeof keys);
  CHECK_FAILS(cccl_cache_radix_sort(sort, NULL, &queried, NULL, NULL, NULL, NULL, n, 0, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "cccl_cache_radix_argsort");
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess);
  CHECK(cudaMalloc(&d_out, sizeof keys) == cudaSuccess);
  CHECK(cudaMalloc(&d_idx, sizeof keys) == cudaSuccess);
  CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_radix_argsort(sort, d_temp, &bytes, d_keys, d_out, 10, d_idx, n, 0, 0, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out_keys, d_out, sizeof keys, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(out_idx, d_idx, sizeof keys, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) same = same && out_idx[i] == order[i] + 10 && out_keys[i] == keys[order[i]];
  CHECK(same);
  cudaFree(d_keys);
  cudaFree(d_out);
  cudaFree(d_idx);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(sort);
  cccl_cache_spec_free(spec);
  printf("argsorted %d uint32 keys through the C ABI: %s\n", n, same ? "ok" : "MISMATCH");
}

/* Sums int32 segments (an empty one among them) on device 0 with an initial value. */
static void segmented_sum_on_gpu(cccl_cache_store* store) {
  enum { n = 10000, m = 4 };
  static int items[n];
  const int begin[m] = {0, 10, 10, 5000}, end[m] = {10, 10, 5000, n};
  int out[m] = {0}, want[m], i, s, init = 7, same = 1;
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* alg = NULL;
  void *d_in = NULL, *d_out = NULL, *d_begin = NULL, *d_end = NULL, *d_temp = NULL;
  size_t bytes = 0;
  for (i = 0; i < n; ++i) items[i] = i % 13 - 6;
  for (s = 0; s < m; ++s)
    for (want[s] = init, i = begin[s]; i < end[s]; ++i) want[s] += items[i];
  CHECK_OK(cccl_cache_spec_parse("segmented_reduce type=int32 offset=int32", &spec));
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &alg));
  cccl_cache_spec_free(spec);
  if (alg == NULL) return;
  CHECK(cccl_cache_algorithm_kind_of(alg) == CCCL_CACHE_SEGMENTED_REDUCE);
  CHECK_OK(cccl_cache_segmented_reduce(alg, NULL, &bytes, NULL, NULL, m, NULL, NULL, NULL, 0, NULL));
  CHECK(cudaMalloc(&d_in, sizeof items) == cudaSuccess && cudaMalloc(&d_out, sizeof out) == cudaSuccess &&
        cudaMalloc(&d_begin, sizeof begin) == cudaSuccess && cudaMalloc(&d_end, sizeof end) == cudaSuccess &&
        cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_in, items, sizeof items, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_begin, begin, sizeof begin, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_end, end, sizeof end, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_FAILS(cccl_cache_segmented_reduce(alg, d_temp, &bytes, d_in, d_out, m, d_begin, d_end, NULL, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "h_init");
  CHECK_FAILS(cccl_cache_reduce(alg, d_temp, &bytes, d_in, d_out, n, &init, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "is a segmented_reduce, not a reduce");
  CHECK_OK(cccl_cache_segmented_reduce(alg, d_temp, &bytes, d_in, d_out, m, d_begin, d_end, &init, 0, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (s = 0; s < m; ++s) same = same && out[s] == want[s];
  CHECK(same);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_begin);
  cudaFree(d_end);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("summed %d int32 segments on device 0 through the C ABI: %s\n", m, same ? "ok" : "MISMATCH");
}

/* Keeps the first key and value of each run of int32 keys on device 0; the count comes
 * back from device memory. */
static void unique_on_gpu(cccl_cache_store* store) {
  enum { n = 9 };
  const int keys[n] = {3, 3, 1, 1, 1, 7, 3, 3, 9}, values[n] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  const int want_keys[5] = {3, 1, 7, 3, 9}, want_values[5] = {0, 2, 5, 6, 8};
  int out_keys[n] = {0}, out_values[n] = {0}, selected = -1, i, same = 1;
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* alg = NULL;
  void *d_keys = NULL, *d_values = NULL, *d_keys_out = NULL, *d_values_out = NULL, *d_selected = NULL,
       *d_temp = NULL;
  size_t bytes = 0;
  CHECK_OK(cccl_cache_spec_parse("unique_by_key keys=int32 values=int32 offset=uint32 selected=int32", &spec));
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &alg));
  cccl_cache_spec_free(spec);
  if (alg == NULL) return;
  CHECK(cccl_cache_algorithm_kind_of(alg) == CCCL_CACHE_UNIQUE_BY_KEY);
  CHECK_OK(cccl_cache_unique_by_key(alg, NULL, &bytes, NULL, NULL, NULL, NULL, NULL, n, NULL));
  CHECK_FAILS(cccl_cache_unique_by_key(alg, NULL, &bytes, NULL, NULL, NULL, NULL, NULL, 1ull << 32, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "offset type");
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess && cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_keys_out, sizeof keys) == cudaSuccess &&
        cudaMalloc(&d_values_out, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_selected, sizeof selected) == cudaSuccess && cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_FAILS(cccl_cache_segmented_reduce(alg, d_temp, &bytes, d_keys, d_keys_out, 1, d_keys, d_keys, keys, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "is a unique_by_key, not a segmented_reduce");
  CHECK_OK(cccl_cache_unique_by_key(alg, d_temp, &bytes, d_keys, d_values, d_keys_out, d_values_out, d_selected,
                                    n, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&selected, d_selected, sizeof selected, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(out_keys, d_keys_out, sizeof out_keys, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(out_values, d_values_out, sizeof out_values, cudaMemcpyDeviceToHost) == cudaSuccess);
  same = selected == 5;
  for (i = 0; i < 5; ++i) same = same && out_keys[i] == want_keys[i] && out_values[i] == want_values[i];
  CHECK(same);
  cudaFree(d_keys);
  cudaFree(d_values);
  cudaFree(d_keys_out);
  cudaFree(d_values_out);
  cudaFree(d_selected);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("kept the first of %d runs of int32 keys on device 0 through the C ABI: %s\n", 5,
         same ? "ok" : "MISMATCH");
}

/* Sums int8 values by runs of int32 keys through the C ABI, inclusive and exclusive (seed
 * 5): the sums overflow int8; CUB accumulates in int and stores each output as int8. */
static void scan_by_key_on_gpu(cccl_cache_store* store) {
  enum { n = 9 };
  const int keys[n] = {3, 3, 3, 1, 1, 7, 3, 3, 3};
  const signed char values[n] = {100, 100, 100, -100, -100, 9, 120, 120, 1}, init = 5;
  signed char out[n] = {0}, want[n];
  const char* texts[2] = {"scan_by_key keys=int32 values=int8",
                          "scan_by_key keys=int32 values=int8 exclusive=true"};
  int exclusive, i, same = 1;
  void *d_keys = NULL, *d_values = NULL, *d_out = NULL, *d_temp = NULL;
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess && cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  for (exclusive = 0; exclusive < 2; ++exclusive) {
    cccl_cache_spec* spec = NULL;
    cccl_cache_algorithm* alg = NULL;
    size_t bytes = 0;
    int acc = 0;
    for (i = 0; i < n; ++i) {
      const int head = i == 0 || keys[i - 1] != keys[i];
      if (exclusive) {
        acc = head ? init : acc + values[i - 1];
      } else {
        acc = head ? values[i] : acc + values[i];
      }
      want[i] = (signed char)(unsigned char)(acc & 0xff);
    }
    CHECK_OK(cccl_cache_spec_parse(texts[exclusive], &spec));
    CHECK_OK(cccl_cache_acquire(store, spec, 0, &alg));
    cccl_cache_spec_free(spec);
    if (alg == NULL) break;
    CHECK(cccl_cache_algorithm_kind_of(alg) == CCCL_CACHE_SCAN_BY_KEY);
    CHECK_OK(cccl_cache_scan_by_key(alg, NULL, &bytes, NULL, NULL, NULL, n, NULL, NULL));
    CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
    CHECK_FAILS(cccl_cache_unique_by_key(alg, d_temp, &bytes, d_keys, d_values, d_out, d_out, d_out, n, NULL),
                CCCL_CACHE_ERROR_INVALID_ARGUMENT, "is a scan_by_key, not a unique_by_key");
    CHECK_OK(cccl_cache_scan_by_key(alg, d_temp, &bytes, d_keys, d_values, d_out, n, &init, NULL));
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (i = 0; i < n; ++i) same = same && out[i] == want[i];
    cudaFree(d_temp);
    d_temp = NULL;
    cccl_cache_algorithm_release(alg);
  }
  CHECK(same);
  cudaFree(d_keys);
  cudaFree(d_values);
  cudaFree(d_out);
  printf("scanned int8 values by runs of int32 keys on device 0 through the C ABI: %s\n",
         same ? "ok" : "MISMATCH");
}

/* A seeded inclusive scan of int8 values (seed 5, CUB's InclusiveScanInit) through the C
 * ABI: the sums overflow int8 (CUB accumulates in int); each inclusive call refuses the
 * spec of the other form; the seed from device memory (cccl_cache_scan_device_init)
 * gives the same output. */
static void seeded_scan_on_gpu(cccl_cache_store* store) {
  enum { n = 6 };
  const signed char values[n] = {100, 100, -100, 9, 120, 1}, init = 5;
  signed char out[n] = {0}, out_dev[n] = {0};
  int i, acc = init, same = 1;
  size_t bytes = 0;
  void *d_values = NULL, *d_out = NULL, *d_temp = NULL, *d_init = NULL;
  cccl_cache_algorithm *seeded = NULL, *plain = NULL;
  if (!acquire_two(store, "inclusive_scan type=int8 init=true", "inclusive_scan type=int8", &seeded, &plain))
    return;
  CHECK(cudaMalloc(&d_values, sizeof values) == cudaSuccess && cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_inclusive_scan_init(seeded, NULL, &bytes, NULL, NULL, n, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK_FAILS(cccl_cache_inclusive_scan(seeded, d_temp, &bytes, d_values, d_out, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_inclusive_scan_init");
  CHECK_FAILS(cccl_cache_inclusive_scan_init(plain, d_temp, &bytes, d_values, d_out, n, &init, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_inclusive_scan)");
  CHECK_FAILS(cccl_cache_inclusive_scan_init(seeded, d_temp, &bytes, d_values, d_out, n, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "h_init");
  CHECK_OK(cccl_cache_inclusive_scan_init(seeded, d_temp, &bytes, d_values, d_out, n, &init, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) {
    acc += values[i];
    same = same && out[i] == (signed char)(unsigned char)(acc & 0xff);
  }
  /* The seed from device memory, into a cleared output. */
  CHECK(cudaMalloc(&d_init, 1) == cudaSuccess);
  CHECK(cudaMemcpy(d_init, &init, 1, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemset(d_out, 0, sizeof out) == cudaSuccess);
  CHECK_FAILS(cccl_cache_scan_device_init(plain, d_temp, &bytes, d_values, d_out, n, d_init, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_inclusive_scan)");
  CHECK_FAILS(cccl_cache_scan_device_init(seeded, d_temp, &bytes, d_values, d_out, n, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "d_init");
  CHECK_OK(cccl_cache_scan_device_init(seeded, d_temp, &bytes, d_values, d_out, n, d_init, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out_dev, d_out, sizeof out_dev, cudaMemcpyDeviceToHost) == cudaSuccess);
  same = same && memcmp(out, out_dev, sizeof out) == 0;
  CHECK(same);
  cudaFree(d_init);
  cudaFree(d_temp);
  cudaFree(d_values);
  cudaFree(d_out);
  cccl_cache_algorithm_release(seeded);
  cccl_cache_algorithm_release(plain);
  printf("seeded inclusive scan of int8 values (seed on the host and in device memory) on device 0 "
         "through the C ABI: %s\n",
         same ? "ok" : "MISMATCH");
}

/* An argmax through the C ABI: a reduce of struct items {float value; int index} named
 * in spec text (the struct's definition in struct.vi=, a custom operator returning it);
 * the initial value is the struct's bytes on the host. Ties keep the lowest index. */
static void struct_reduce_on_gpu(cccl_cache_store* store) {
  typedef struct {
    float value;
    int index;
  } vi;
  enum { n = 5000 };
  static vi items[n];
  const vi init = {-1.0e30f, -1};
  vi best = {0.0f, 0}, want = init;
  size_t bytes = 0;
  int i;
  void *d_items = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_algorithm* alg = acquire_text(
      store,
      "reduce type=vi:8/4 struct.vi='struct vi { float value; int index; };' op=argmax "
      "source='__device__ vi argmax(vi a, vi b) { if (a.value != b.value) return a.value > b.value ? a : b; "
      "return a.index < b.index ? a : b; }'");
  if (alg == NULL) return;
  for (i = 0; i < n; ++i) {
    items[i].value = (float)((i * 7919) % 613);
    items[i].index = i;
    if (items[i].value > want.value) want = items[i];
  }
  CHECK(cudaMalloc(&d_items, sizeof items) == cudaSuccess && cudaMalloc(&d_out, sizeof best) == cudaSuccess);
  CHECK(cudaMemcpy(d_items, items, sizeof items, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_reduce(alg, NULL, &bytes, NULL, NULL, n, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK_OK(cccl_cache_reduce(alg, d_temp, &bytes, d_items, d_out, n, &init, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&best, d_out, sizeof best, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(best.value == want.value && best.index == want.index);
  cudaFree(d_temp);
  cudaFree(d_items);
  cudaFree(d_out);
  cccl_cache_algorithm_release(alg);
  printf("argmax over struct items (value %g at %d) on device 0 through the C ABI: %s\n", (double)best.value,
         best.index, best.value == want.value && best.index == want.index ? "ok" : "MISMATCH");
}

/* The float32 sum `alg` (a reduce over an input iterator of kind `kind`) gives of the four
 * floats at d_x, into d_out: query, temp storage, run, copy back. */
static float sum_of_four(cccl_cache_algorithm* alg, cccl_cache_iterator_kind kind, void* d_x, void* d_out) {
  const float fzero = 0.0f;
  float fsum = 0.0f;
  size_t bytes = 0;
  void* d_temp = NULL;
  cccl_cache_iterator_value in;
  memset(&in, 0, sizeof in);
  in.kind = kind;
  in.pointer = d_x;
  CHECK_OK(cccl_cache_reduce_iterator(alg, NULL, &bytes, &in, NULL, 4, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_OK(cccl_cache_reduce_iterator(alg, d_temp, &bytes, &in, d_out, 4, &fzero, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&fsum, d_out, sizeof fsum, cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(d_temp);
  return fsum;
}

/* Reduces a counting iterator (1, 2, ..., 1000 as int64) and a reversed float array
 * through the C ABI's iterator form: the spec names the iterator, the call its values. */
static void reduce_iterator_on_gpu(cccl_cache_store* store) {
  enum { n = 1000 };
  const int64_t start = 1, zero = 0;
  const float x[4] = {1.5f, 2.0f, -4.0f, 8.0f};
  int64_t sum = 0;
  float fsum = 0.0f;
  size_t bytes = 0;
  void *d_out = NULL, *d_x = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in;
  cccl_cache_algorithm *counting = NULL, *reverse = NULL;
  if (!acquire_two(store, "reduce type=int64 input=counting(int64)", "reduce type=float32 input=reverse", &counting,
                   &reverse))
    return;
  CHECK(cudaMalloc(&d_out, 8) == cudaSuccess && cudaMalloc(&d_x, sizeof x) == cudaSuccess);
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&in, 0, sizeof in);
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&in.value, &start, sizeof start);
  CHECK_OK(cccl_cache_reduce_iterator(counting, NULL, &bytes, &in, NULL, n, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_reduce_iterator(counting, d_temp, &bytes, NULL, d_out, n, &zero, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, ": in is NULL");
  in.kind = CCCL_CACHE_ITERATOR_CONSTANT;
  CHECK_FAILS(cccl_cache_reduce_iterator(counting, d_temp, &bytes, &in, d_out, n, &zero, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "not the spec's input kind (counting)");
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  CHECK_OK(cccl_cache_reduce_iterator(counting, d_temp, &bytes, &in, d_out, n, &zero, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(sum == (int64_t)n * (n + 1) / 2);
  cudaFree(d_temp);
  fsum = sum_of_four(reverse, CCCL_CACHE_ITERATOR_REVERSE, d_x, d_out);
  CHECK(fsum == 7.5f);
  cudaFree(d_x);
  cudaFree(d_out);
  cccl_cache_algorithm_release(counting);
  cccl_cache_algorithm_release(reverse);
  printf("reduced a counting and a reverse iterator on device 0 through the C ABI: %s\n",
         sum == (int64_t)n * (n + 1) / 2 && fsum == 7.5f ? "ok" : "MISMATCH");
}

/* A sum of four floats read with streaming loads (a cache-modified input) through the
 * C ABI. */
static void cache_modified_on_gpu(cccl_cache_store* store) {
  const float x[4] = {1.5f, 2.0f, -4.0f, 8.0f};
  float fsum = 0.0f;
  void *d_out = NULL, *d_x = NULL;
  cccl_cache_algorithm* alg = acquire_text(store, "reduce type=float32 input=cache_modified(cs)");
  if (alg == NULL) return;
  CHECK(cudaMalloc(&d_out, 4) == cudaSuccess && cudaMalloc(&d_x, sizeof x) == cudaSuccess);
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess);
  fsum = sum_of_four(alg, CCCL_CACHE_ITERATOR_CACHE_MODIFIED, d_x, d_out);
  CHECK(fsum == 7.5f);
  cudaFree(d_x);
  cudaFree(d_out);
  cccl_cache_algorithm_release(alg);
  printf("summed 4 float32 read with streaming loads through the C ABI: %s\n", fsum == 7.5f ? "ok" : "MISMATCH");
}

/* Scans over iterators through the C ABI: the inclusive scan of a counting iterator
 * (1, 2, ..., 1000 as int64: the triangular numbers), and the exclusive scan of a
 * reversed float array seeded on the host and in device memory. */
static void scan_iterator_on_gpu(cccl_cache_store* store) {
  enum { n = 1000 };
  const int64_t start = 1;
  const float x[4] = {1.5f, 2.0f, -4.0f, 8.0f}, zero = 0.0f, one = 1.0f;
  const float want_host[4] = {0.0f, 8.0f, 4.0f, 6.0f}, want_device[4] = {1.0f, 9.0f, 5.0f, 7.0f};
  int64_t sums[n];
  float fout[4];
  size_t bytes = 0;
  int i, ok = 1;
  void *d_out = NULL, *d_x = NULL, *d_one = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in;
  cccl_cache_algorithm *counting = NULL, *reverse = NULL;
  if (!acquire_two(store, "inclusive_scan type=int64 input=counting(int64)",
                   "exclusive_scan type=float32 input=reverse", &counting, &reverse))
    return;
  CHECK(cudaMalloc(&d_out, sizeof sums) == cudaSuccess && cudaMalloc(&d_x, sizeof x) == cudaSuccess &&
        cudaMalloc(&d_one, sizeof one) == cudaSuccess);
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_one, &one, sizeof one, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&in, 0, sizeof in);
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&in.value, &start, sizeof start);
  CHECK_OK(cccl_cache_scan_iterator(counting, NULL, &bytes, &in, NULL, n, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_inclusive_scan(counting, d_temp, &bytes, d_x, d_out, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "the spec's input is an iterator (use cccl_cache_scan_iterators)");
  CHECK_FAILS(cccl_cache_scan_iterator(counting, d_temp, &bytes, &in, d_out, n, &zero, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "takes no initial value");
  in.kind = CCCL_CACHE_ITERATOR_REVERSE;
  CHECK_FAILS(cccl_cache_scan_iterator(counting, d_temp, &bytes, &in, d_out, n, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "not the spec's input kind (counting)");
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  CHECK_OK(cccl_cache_scan_iterator(counting, d_temp, &bytes, &in, d_out, n, NULL, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= sums[i] == (int64_t)(i + 1) * (i + 2) / 2;
  CHECK(ok);
  cudaFree(d_temp);
  memset(&in, 0, sizeof in);
  in.kind = CCCL_CACHE_ITERATOR_REVERSE;
  in.pointer = d_x;
  CHECK_OK(cccl_cache_scan_iterator(reverse, NULL, &bytes, &in, NULL, 4, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_exclusive_scan(reverse, d_temp, &bytes, d_x, d_out, 4, &zero, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_scan_iterator");
  CHECK_FAILS(cccl_cache_scan_iterator(reverse, d_temp, &bytes, &in, d_out, 4, &zero, d_one, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "not both");
  CHECK_FAILS(cccl_cache_scan_iterator(reverse, d_temp, &bytes, &in, d_out, 4, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "h_init and d_init are NULL");
  CHECK_OK(cccl_cache_scan_iterator(reverse, d_temp, &bytes, &in, d_out, 4, &zero, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(fout, d_out, sizeof fout, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < 4; ++i) ok &= fout[i] == want_host[i];
  CHECK_OK(cccl_cache_scan_iterator(reverse, d_temp, &bytes, &in, d_out, 4, NULL, d_one, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(fout, d_out, sizeof fout, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < 4; ++i) ok &= fout[i] == want_device[i];
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_one);
  cudaFree(d_x);
  cudaFree(d_out);
  cccl_cache_algorithm_release(counting);
  cccl_cache_algorithm_release(reverse);
  printf("scanned a counting and a reverse iterator on device 0 through the C ABI: %s\n",
         ok ? "ok" : "MISMATCH");
}

/* Output iterators through the C ABI: a running sum written last first (an inclusive scan
 * into a reverse iterator) and a sum stored negated as float64 (a reduce into a transform
 * output iterator); the array and one-iterator calls refuse both specs by name. */
static void output_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 1000 };
  const float x[4] = {1.5f, 2.0f, -4.0f, 8.0f}, fzero = 0.0f;
  int32_t values[n], sums[n];
  double negated = 0.0;
  size_t bytes = 0;
  int i, ok = 1;
  void *d_values = NULL, *d_sums = NULL, *d_x = NULL, *d_neg = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in, out;
  cccl_cache_algorithm *reversed = NULL, *negate = NULL;
  if (!acquire_two(store, "inclusive_scan type=int32 output=reverse",
                   "reduce type=float32 output=transform(negate,float64)", &reversed, &negate))
    return;
  for (i = 0; i < n; ++i) values[i] = i + 1;
  CHECK(cudaMalloc(&d_values, sizeof values) == cudaSuccess && cudaMalloc(&d_sums, sizeof sums) == cudaSuccess &&
        cudaMalloc(&d_x, sizeof x) == cudaSuccess && cudaMalloc(&d_neg, sizeof negated) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&in, 0, sizeof in);
  memset(&out, 0, sizeof out);
  in.kind = CCCL_CACHE_ITERATOR_POINTER;
  in.pointer = d_values;
  out.kind = CCCL_CACHE_ITERATOR_REVERSE;
  out.pointer = d_sums;
  CHECK_OK(cccl_cache_scan_iterators(reversed, NULL, &bytes, &in, &out, n, NULL, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_inclusive_scan(reversed, d_temp, &bytes, d_values, d_sums, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "the spec's output is an iterator (use cccl_cache_scan_iterators)");
  CHECK_FAILS(cccl_cache_scan_iterator(reversed, d_temp, &bytes, &in, d_sums, n, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "the spec's output is an iterator (use cccl_cache_scan_iterators)");
  CHECK_FAILS(cccl_cache_scan_iterators(reversed, d_temp, &bytes, &in, NULL, n, NULL, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, ": out is NULL");
  out.kind = CCCL_CACHE_ITERATOR_DISCARD;
  CHECK_FAILS(cccl_cache_scan_iterators(reversed, d_temp, &bytes, &in, &out, n, NULL, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "out->kind 6 is not the spec's output kind (reverse)");
  out.kind = CCCL_CACHE_ITERATOR_REVERSE;
  CHECK_OK(cccl_cache_scan_iterators(reversed, d_temp, &bytes, &in, &out, n, NULL, NULL, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= sums[n - 1 - i] == (int32_t)((i + 1) * (i + 2) / 2);
  CHECK(ok);
  cudaFree(d_temp);
  in.pointer = d_x;
  out.kind = CCCL_CACHE_ITERATOR_TRANSFORM;
  out.pointer = d_neg;
  CHECK_OK(cccl_cache_reduce_iterators(negate, NULL, &bytes, &in, &out, 4, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_reduce(negate, d_temp, &bytes, d_x, d_neg, 4, &fzero, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "the spec's output is an iterator (use cccl_cache_reduce_iterators)");
  CHECK_FAILS(cccl_cache_reduce_iterator(negate, d_temp, &bytes, &in, d_neg, 4, &fzero, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_reduce_iterators");
  CHECK_OK(cccl_cache_reduce_iterators(negate, d_temp, &bytes, &in, &out, 4, &fzero, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&negated, d_neg, sizeof negated, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(negated == -7.5);
  cudaFree(d_temp);
  cudaFree(d_neg);
  cudaFree(d_x);
  cudaFree(d_sums);
  cudaFree(d_values);
  cccl_cache_algorithm_release(reversed);
  cccl_cache_algorithm_release(negate);
  printf("scanned into a reverse and reduced into a transform output iterator through the C ABI: %s\n",
         ok && negated == -7.5 ? "ok" : "MISMATCH");
}

/* Zips through the C ABI: an argmax that reports where (a reduce of zip(float32 values,
 * counting(int64)) into a 16-byte {value, index}), and a running argmax read from a zip and
 * written field by field into a zip of two arrays; a zip's count and component kinds are
 * checked. */
static void zips_on_gpu(cccl_cache_store* store) {
  typedef struct {
    float value;
    long long index;
  } vi64;
  enum { n = 3000 };
  static float values[n], running[n];
  static int32_t where[n];
  const vi64 init = {-1.0e30f, -1};
  vi64 best = {0.0f, 0}, want = init;
  const long long start = 100;
  const int32_t zero = 0;
  size_t bytes = 0;
  int i, ok = 1;
  float top = -1.0e30f;
  int32_t top_at = -1;
  void *d_values = NULL, *d_best = NULL, *d_running = NULL, *d_where = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in, out, in_parts[2], out_parts[2];
  cccl_cache_algorithm *argmax = NULL, *scan = NULL;
  if (!acquire_two(
          store,
          "reduce type=vi64:16/8 struct.vi64='struct vi64 { float value; long long index; };' "
          "op=argmax64 "
          "input=zip(float32,counting(int64)) source='__device__ vi64 argmax64(vi64 a, vi64 b) { "
          "if (a.value "
          "!= b.value) return a.value > b.value ? a : b; return a.index < b.index ? a : b; }'",
          "inclusive_scan type=vi:8/4 struct.vi='struct vi { float value; int index; };' op=argmax "
          "input=zip(float32,counting(int32)) output=zip(float32,int32) source='__device__ vi "
          "argmax(vi a, "
          "vi b) { if (a.value != b.value) return a.value > b.value ? a : b; return a.index < "
          "b.index ? a : "
          "b; }'",
          &argmax, &scan))
    return;
  for (i = 0; i < n; ++i) {
    values[i] = (float)((i * 7919) % 613);
    if (values[i] > want.value) {
      want.value = values[i];
      want.index = start + i;
    }
  }
  CHECK(cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_best, sizeof best) == cudaSuccess &&
        cudaMalloc(&d_running, sizeof running) == cudaSuccess &&
        cudaMalloc(&d_where, sizeof where) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&in, 0, sizeof in);
  memset(&out, 0, sizeof out);
  memset(in_parts, 0, sizeof in_parts);
  memset(out_parts, 0, sizeof out_parts);
  in_parts[0].kind = CCCL_CACHE_ITERATOR_POINTER;
  in_parts[0].pointer = d_values;
  in_parts[1].kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&in_parts[1].value, &start, sizeof start);
  in.kind = CCCL_CACHE_ITERATOR_ZIP;
  in.pointer = in_parts;
  in.value = 2;
  out.kind = CCCL_CACHE_ITERATOR_POINTER;
  out.pointer = d_best;
  CHECK_OK(cccl_cache_reduce_iterators(argmax, NULL, &bytes, &in, &out, n, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  in.value = 3;
  CHECK_FAILS(cccl_cache_reduce_iterators(argmax, d_temp, &bytes, &in, &out, n, &init, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "in is a zip of 2 components");
  in.value = 2;
  in_parts[1].kind = CCCL_CACHE_ITERATOR_CONSTANT;
  CHECK_FAILS(cccl_cache_reduce_iterators(argmax, d_temp, &bytes, &in, &out, n, &init, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "in->pointer[1]->kind 2 is not the spec's input kind (counting)");
  in_parts[1].kind = CCCL_CACHE_ITERATOR_COUNTING;
  CHECK_OK(cccl_cache_reduce_iterators(argmax, d_temp, &bytes, &in, &out, n, &init, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&best, d_best, sizeof best, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(best.value == want.value && best.index == want.index);
  cudaFree(d_temp);

  in_parts[1].value = 0;
  memcpy(&in_parts[1].value, &zero, sizeof zero);
  out_parts[0].kind = CCCL_CACHE_ITERATOR_POINTER;
  out_parts[0].pointer = d_running;
  out_parts[1].kind = CCCL_CACHE_ITERATOR_POINTER;
  out_parts[1].pointer = d_where;
  out.kind = CCCL_CACHE_ITERATOR_ZIP;
  out.pointer = out_parts;
  out.value = 2;
  CHECK_OK(cccl_cache_scan_iterators(scan, NULL, &bytes, &in, &out, n, NULL, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_OK(cccl_cache_scan_iterators(scan, d_temp, &bytes, &in, &out, n, NULL, NULL, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(running, d_running, sizeof running, cudaMemcpyDeviceToHost) == cudaSuccess &&
        cudaMemcpy(where, d_where, sizeof where, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) {
    if (values[i] > top) {
      top = values[i];
      top_at = i;
    }
    ok &= running[i] == top && where[i] == top_at;
  }
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_where);
  cudaFree(d_running);
  cudaFree(d_best);
  cudaFree(d_values);
  cccl_cache_algorithm_release(argmax);
  cccl_cache_algorithm_release(scan);
  printf(
      "an argmax read through a zip, a running argmax written into a zip, through the C ABI: %s\n",
      ok && best.value == want.value && best.index == want.index ? "ok" : "MISMATCH");
}

/* Fixed-size segments from computed offsets through the C ABI: begin and end offsets
 * transform(times8, counting(int64)) from 0 and 1, the input and output arrays; the array
 * call refuses the spec, naming the iterator call. */
static void segmented_iterators_on_gpu(cccl_cache_store* store) {
  enum { segments = 1000 };
  static float values[8 * segments], sums[segments];
  const float init = 0.5f;
  const int64_t zero = 0, one = 1;
  size_t bytes = 0;
  int i, k, ok = 1;
  void *d_values = NULL, *d_sums = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in, out, begin, end;
  cccl_cache_algorithm* alg =
      acquire_text(store,
                   "segmented_reduce type=float32 begin_offsets=transform(times8,counting(int64)) "
                   "end_offsets=transform(times8,counting(int64)) source='__device__ long long "
                   "times8(long long i) { "
                   "return 8 * i; }'");
  if (alg == NULL) return;
  for (i = 0; i < 8 * segments; ++i) values[i] = (float)(i % 5);
  CHECK(cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_sums, sizeof sums) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&in, 0, sizeof in);
  memset(&out, 0, sizeof out);
  memset(&begin, 0, sizeof begin);
  memset(&end, 0, sizeof end);
  in.kind = CCCL_CACHE_ITERATOR_POINTER;
  in.pointer = d_values;
  out.kind = CCCL_CACHE_ITERATOR_POINTER;
  out.pointer = d_sums;
  begin.kind = end.kind = CCCL_CACHE_ITERATOR_TRANSFORM;
  memcpy(&begin.value, &zero, sizeof zero);
  memcpy(&end.value, &one, sizeof one);
  CHECK_OK(cccl_cache_segmented_reduce_iterators(alg, NULL, &bytes, &in, &out, segments, &begin,
                                                 &end, NULL, 0, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_segmented_reduce(alg, d_temp, &bytes, d_values, d_sums, segments, d_values,
                                          d_values, &init, 0, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_segmented_reduce_iterators");
  end.kind = CCCL_CACHE_ITERATOR_COUNTING;
  CHECK_FAILS(cccl_cache_segmented_reduce_iterators(alg, d_temp, &bytes, &in, &out, segments,
                                                    &begin, &end, &init, 0, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "end_offsets->kind 1 is not the spec's input kind (transform)");
  end.kind = CCCL_CACHE_ITERATOR_TRANSFORM;
  CHECK_OK(cccl_cache_segmented_reduce_iterators(alg, d_temp, &bytes, &in, &out, segments, &begin,
                                                 &end, &init, 0, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < segments; ++i) {
    float want = init;
    for (k = 8 * i; k < 8 * i + 8; ++k) want += values[k];
    ok &= sums[i] == want;
  }
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_sums);
  cudaFree(d_values);
  cccl_cache_algorithm_release(alg);
  printf("summed fixed-size segments from computed offsets through the C ABI: %s\n",
         ok ? "ok" : "MISMATCH");
}

/* Rows of 8 sorted through the C ABI, their offsets transform(times8, counting(int64)) from
 * 0 and 1: int32 keys descending with their positions as float32 values; the array call
 * refuses the spec, naming the iterator call. */
static void segmented_sort_iterators_on_gpu(cccl_cache_store* store) {
  enum { rows = 1000, n = 8 * rows };
  static int32_t keys[n], keys_out[n];
  static float values[n], values_out[n];
  const int64_t zero = 0, one = 1;
  size_t bytes = 0;
  int i, k, ok = 1;
  void *d_keys = NULL, *d_values = NULL, *d_keys_out = NULL, *d_values_out = NULL, *d_temp = NULL;
  cccl_cache_iterator_value begin, end;
  cccl_cache_algorithm* alg = acquire_text(
      store,
      "segmented_sort keys=int32 values=float32 descending=true offset=int64 "
      "begin_offsets=transform(times8,counting(int64)) end_offsets=transform(times8,counting(int64)) "
      "source='__device__ long long times8(long long i) { return 8 * i; }'");
  if (alg == NULL) return;
  for (i = 0; i < n; ++i) keys[i] = (i * 7919) % 13 - 6, values[i] = (float)i;
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess &&
        cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_keys_out, sizeof keys) == cudaSuccess &&
        cudaMalloc(&d_values_out, sizeof values) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&begin, 0, sizeof begin);
  memset(&end, 0, sizeof end);
  begin.kind = end.kind = CCCL_CACHE_ITERATOR_TRANSFORM;
  memcpy(&begin.value, &zero, sizeof zero);
  memcpy(&end.value, &one, sizeof one);
  CHECK_OK(cccl_cache_segmented_sort_iterators(alg, NULL, &bytes, NULL, NULL, NULL, NULL, n, rows,
                                               &begin, &end, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_segmented_sort(alg, d_temp, &bytes, d_keys, d_keys_out, d_values,
                                        d_values_out, n, rows, d_keys, d_keys, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_segmented_sort_iterators");
  CHECK_FAILS(cccl_cache_segmented_sort_iterators(alg, d_temp, &bytes, d_keys, d_keys_out, d_values,
                                                  d_values_out, n, rows, &begin, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "end_offsets");
  CHECK_OK(cccl_cache_segmented_sort_iterators(alg, d_temp, &bytes, d_keys, d_keys_out, d_values,
                                               d_values_out, n, rows, &begin, &end, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(keys_out, d_keys_out, sizeof keys, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(values_out, d_values_out, sizeof values, cudaMemcpyDeviceToHost) == cudaSuccess);
  /* Each row descending, equal keys in their input order, each value its key's position. */
  for (i = 0; i < rows; ++i)
    for (k = 8 * i; k < 8 * i + 8; ++k) {
      const int p = (int)values_out[k];
      ok &= p >= 8 * i && p < 8 * i + 8 && keys[p] == keys_out[k];
      if (k > 8 * i)
        ok &= keys_out[k - 1] > keys_out[k] ||
              (keys_out[k - 1] == keys_out[k] && values_out[k - 1] < values_out[k]);
    }
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_values_out);
  cudaFree(d_keys_out);
  cudaFree(d_values);
  cudaFree(d_keys);
  cccl_cache_algorithm_release(alg);
  printf("sorted rows of 8 from computed offsets through the C ABI: %s\n", ok ? "ok" : "MISMATCH");
}

/* Transforms over iterators through the C ABI: a negated counting input, and the sum of an
 * array and a counting index written last first. */
static void transform_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 3000 };
  static float x[n], out[n];
  const int64_t start = 40;
  int i, ok = 1;
  void *d_x = NULL, *d_out = NULL;
  cccl_cache_iterator_value in, in2, dst;
  cccl_cache_algorithm *negate = NULL, *indexed = NULL;
  if (!acquire_two(store, "unary_transform in=float32 out=float32 op=negate input=counting(int64)",
                   "binary_transform in1=float32 in2=int64 out=float32 op=plus input2=counting "
                   "output=reverse",
                   &negate, &indexed))
    return;
  for (i = 0; i < n; ++i) x[i] = (float)(i % 11);
  CHECK(cudaMalloc(&d_x, sizeof x) == cudaSuccess && cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&in, 0, sizeof in);
  memset(&in2, 0, sizeof in2);
  memset(&dst, 0, sizeof dst);
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&in.value, &start, sizeof start);
  dst.kind = CCCL_CACHE_ITERATOR_POINTER;
  dst.pointer = d_out;
  CHECK_FAILS(cccl_cache_unary_transform(negate, d_x, d_out, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_unary_transform_iterators");
  CHECK_FAILS(cccl_cache_unary_transform_iterators(negate, &dst, &dst, n, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "in->kind 0 is not the spec's input kind (counting)");
  CHECK_OK(cccl_cache_unary_transform_iterators(negate, &in, &dst, n, NULL, NULL));
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= out[i] == -(float)(start + i);

  in.kind = CCCL_CACHE_ITERATOR_POINTER;
  in.pointer = d_x;
  in2.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&in2.value, &start, sizeof start);
  dst.kind = CCCL_CACHE_ITERATOR_REVERSE;
  CHECK_FAILS(cccl_cache_binary_transform_iterators(indexed, &in, &in2, NULL, n, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "out is NULL");
  CHECK_OK(cccl_cache_binary_transform_iterators(indexed, &in, &in2, &dst, n, NULL, NULL));
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= out[n - 1 - i] == x[i] + (float)(start + i);
  CHECK(ok);
  cudaFree(d_out);
  cudaFree(d_x);
  cccl_cache_algorithm_release(negate);
  cccl_cache_algorithm_release(indexed);
  printf("transformed counting inputs into arrays and reverse outputs through the C ABI: %s\n",
         ok ? "ok" : "MISMATCH");
}

/* A pseudo-random permutation of 0..n-1 written out of a shuffle iterator (its seed the
 * call's value) through the C ABI: each index once, the same order for the same seed. */
static void shuffle_on_gpu(cccl_cache_store* store) {
  enum { n = 5000 };
  static long long out[n], again[n];
  static unsigned char seen[n];
  const uint64_t seed = 0x1234abcdULL;
  int i, ok = 1, fixed = 0;
  void* d_out = NULL;
  cccl_cache_iterator_value in, dst;
  cccl_cache_algorithm* alg =
      acquire_text(store, "unary_transform in=int64 out=int64 op=identity input=shuffle(int64)");
  if (alg == NULL) return;
  CHECK(cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  memset(&in, 0, sizeof in);
  memset(&dst, 0, sizeof dst);
  in.kind = CCCL_CACHE_ITERATOR_SHUFFLE;
  in.value = seed;
  dst.kind = CCCL_CACHE_ITERATOR_POINTER;
  dst.pointer = d_out;
  CHECK_OK(cccl_cache_unary_transform_iterators(alg, &in, &dst, n, NULL, NULL));
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK_OK(cccl_cache_unary_transform_iterators(alg, &in, &dst, n, NULL, NULL));
  CHECK(cudaMemcpy(again, d_out, sizeof again, cudaMemcpyDeviceToHost) == cudaSuccess);
  memset(seen, 0, sizeof seen);
  for (i = 0; i < n; ++i) {
    const long long x = out[i];
    ok &= x >= 0 && x < n && !seen[x] && again[i] == x;
    if (x >= 0 && x < n) seen[x] = 1;
    fixed += x == i;
  }
  ok &= fixed < n / 16;
  CHECK(ok);
  cudaFree(d_out);
  cccl_cache_algorithm_release(alg);
  printf("wrote a shuffle of 0..%d through the C ABI (%d fixed points): %s\n", n - 1, fixed,
         ok ? "ok" : "MISMATCH");
}

/* Nested iterators through the C ABI: a dot product (a reduce over
 * transform(multiplies,zip(int32,int32))), the base's value behind `pointer`; a component
 * count that is not the spec's is refused naming it. */
static void nested_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 4000 };
  static int32_t a[n], b[n];
  long long want = 3, got = 0;
  const long long init = 3;
  size_t bytes = 0;
  int i;
  void *d_a = NULL, *d_b = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in, out, zip, parts[2];
  cccl_cache_algorithm* alg =
      acquire_text(store, "reduce type=int64 input=transform(multiplies,zip(int32,int32))");
  if (alg == NULL) return;
  for (i = 0; i < n; ++i) {
    a[i] = (i * 7919) % 201 - 100;
    b[i] = (i * 104729) % 199 - 99;
    want += (long long)a[i] * b[i];
  }
  CHECK(cudaMalloc(&d_a, sizeof a) == cudaSuccess && cudaMalloc(&d_b, sizeof b) == cudaSuccess &&
        cudaMalloc(&d_out, sizeof got) == cudaSuccess);
  CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice) == cudaSuccess &&
        cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice) == cudaSuccess);
  memset(&in, 0, sizeof in);
  memset(&out, 0, sizeof out);
  memset(&zip, 0, sizeof zip);
  memset(parts, 0, sizeof parts);
  parts[0].kind = parts[1].kind = CCCL_CACHE_ITERATOR_POINTER;
  parts[0].pointer = d_a;
  parts[1].pointer = d_b;
  zip.kind = CCCL_CACHE_ITERATOR_ZIP;
  zip.pointer = parts;
  zip.value = 2;
  in.kind = CCCL_CACHE_ITERATOR_TRANSFORM;
  in.pointer = &zip;
  in.value = 1;
  out.kind = CCCL_CACHE_ITERATOR_POINTER;
  out.pointer = d_out;
  CHECK_OK(cccl_cache_reduce_iterators(alg, NULL, &bytes, &in, &out, n, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  in.value = 2;
  CHECK_FAILS(cccl_cache_reduce_iterators(alg, d_temp, &bytes, &in, &out, n, &init, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "in is a transform of 1 component:");
  in.value = 1;
  CHECK_OK(cccl_cache_reduce_iterators(alg, d_temp, &bytes, &in, &out, n, &init, NULL, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got == want);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_out);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("dot product of %d pairs through a nested transform iterator (C ABI): %lld vs %lld: %s\n", n, got,
         want, got == want ? "ok" : "MISMATCH");
}

/* A running count/min/max of 12-byte struct items (an inclusive scan named in spec text)
 * through the C ABI. */
static void struct_scan_on_gpu(cccl_cache_store* store) {
  typedef struct {
    int count;
    float lo, hi;
  } stats3;
  enum { n = 5000 };
  static stats3 items[n], out[n], want[n];
  size_t bytes = 0;
  int i, same = 1;
  void *d_items = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_algorithm* alg = acquire_text(
      store,
      "inclusive_scan type=stats3:12/4 struct.stats3='struct stats3 { int count; float lo; float hi; };' "
      "op=merge_stats source='__device__ stats3 merge_stats(stats3 a, stats3 b) { return {a.count + b.count, "
      "a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi}; }'");
  if (alg == NULL) return;
  for (i = 0; i < n; ++i) {
    const float v = (float)((i * 7919) % 613) - 300.0f;
    items[i].count = 1;
    items[i].lo = items[i].hi = v;
    want[i] = items[i];
    if (i > 0) {
      want[i].count = want[i - 1].count + 1;
      want[i].lo = want[i - 1].lo < v ? want[i - 1].lo : v;
      want[i].hi = want[i - 1].hi > v ? want[i - 1].hi : v;
    }
  }
  CHECK(cudaMalloc(&d_items, sizeof items) == cudaSuccess && cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_items, items, sizeof items, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_inclusive_scan(alg, NULL, &bytes, NULL, NULL, n, NULL));
  CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK_OK(cccl_cache_inclusive_scan(alg, d_temp, &bytes, d_items, d_out, n, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) same &= memcmp(&out[i], &want[i], sizeof out[i]) == 0;
  CHECK(same);
  cudaFree(d_temp);
  cudaFree(d_items);
  cudaFree(d_out);
  cccl_cache_algorithm_release(alg);
  printf("running count/min/max of 12-byte struct items on device 0 through the C ABI: %s\n",
         same ? "ok" : "MISMATCH");
}

/* Keeps the odd items of nine int16 through the C ABI; the count (int64) is read back
 * from device memory. */
/* bool through the C ABI: a mask a[i] < b[i] of float32 (a binary transform into bool),
 * then whether any and whether all of it holds (reduce with logical_or / logical_and). */
static void bool_on_gpu(cccl_cache_store* store) {
  enum { n = 6 };
  const float a[n] = {1.f, 5.f, -2.f, 3.f, 0.f, 7.f}, b[n] = {2.f, 4.f, -1.f, 3.f, 1.f, 6.f};
  const bool want[n] = {true, false, true, false, true, false};
  bool mask[n] = {false}, any = false, all = true, init = false;
  int i, same = 1, k;
  cccl_cache_algorithm *less = NULL, *reduce[2] = {NULL, NULL};
  void *d_a = NULL, *d_b = NULL, *d_mask = NULL, *d_out = NULL, *d_temp = NULL;
  size_t bytes = 0;
  cccl_cache_spec_desc d;
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_BINARY_TRANSFORM;
  d.type = d.in2_type = CCCL_CACHE_FLOAT32;
  d.out_type = CCCL_CACHE_BOOL;
  d.op.kind = CCCL_CACHE_OP_LESS;
  less = acquire_desc(store, &d, CCCL_CACHE_BINARY_TRANSFORM);
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_REDUCE;
  d.type = CCCL_CACHE_BOOL;
  d.op.kind = CCCL_CACHE_OP_LOGICAL_OR;
  reduce[0] = acquire_desc(store, &d, CCCL_CACHE_REDUCE);
  d.op.kind = CCCL_CACHE_OP_LOGICAL_AND;
  reduce[1] = acquire_desc(store, &d, CCCL_CACHE_REDUCE);
  if (less == NULL || reduce[0] == NULL || reduce[1] == NULL) return;
  CHECK(cudaMalloc(&d_a, sizeof a) == cudaSuccess && cudaMalloc(&d_b, sizeof b) == cudaSuccess &&
        cudaMalloc(&d_mask, sizeof mask) == cudaSuccess && cudaMalloc(&d_out, 1) == cudaSuccess);
  CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_binary_transform(less, d_a, d_b, d_mask, n, NULL));
  CHECK(cudaMemcpy(mask, d_mask, sizeof mask, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) same = same && mask[i] == want[i];
  for (k = 0; k < 2; ++k) {
    init = k == 1;
    CHECK_OK(cccl_cache_reduce(reduce[k], NULL, &bytes, NULL, NULL, n, NULL, NULL));
    CHECK(cudaMalloc(&d_temp, bytes) == cudaSuccess);
    CHECK_OK(cccl_cache_reduce(reduce[k], d_temp, &bytes, d_mask, d_out, n, &init, NULL));
    CHECK(cudaMemcpy(k == 0 ? &any : &all, d_out, 1, cudaMemcpyDeviceToHost) == cudaSuccess);
    cudaFree(d_temp);
  }
  same = same && any && !all;
  CHECK(same);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_mask);
  cudaFree(d_out);
  cccl_cache_algorithm_release(less);
  cccl_cache_algorithm_release(reduce[0]);
  cccl_cache_algorithm_release(reduce[1]);
  printf("a bool mask of %d float32 comparisons, any and all of it, through the C ABI: %s\n", n,
         same ? "ok" : "MISMATCH");
}

static void select_on_gpu(cccl_cache_store* store) {
  enum { n = 9 };
  const short items[n] = {4, 7, -3, 8, 0, 11, 2, 5, 6}, want[4] = {7, -3, 11, 5};
  short out[n] = {0};
  long long selected = -1;
  int i, same = 1;
  cccl_cache_algorithm* alg = NULL;
  void *d_in = NULL, *d_out = NULL, *d_selected = NULL, *d_temp = NULL;
  size_t bytes = 0, queried = 0;
  cccl_cache_spec_desc d;
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_SELECT;
  d.type = CCCL_CACHE_INT16;
  d.out_type = CCCL_CACHE_INT64;
  d.op.kind = CCCL_CACHE_OP_CUSTOM;
  d.op.name = "odd";
  d.op.source = "__device__ bool odd(short x) { return x % 2 != 0; }";
  alg = acquire_desc(store, &d, CCCL_CACHE_SELECT);
  if (alg == NULL) return;
  CHECK_OK(cccl_cache_select(alg, NULL, &bytes, NULL, NULL, NULL, n, NULL));
  CHECK_OK(cccl_cache_temp_storage_bytes(alg, n, &queried));
  CHECK(bytes == queried && bytes > 0);
  CHECK(cudaMalloc(&d_in, sizeof items) == cudaSuccess && cudaMalloc(&d_out, sizeof out) == cudaSuccess &&
        cudaMalloc(&d_selected, sizeof selected) == cudaSuccess && cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_in, items, sizeof items, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_FAILS(cccl_cache_unique_by_key(alg, d_temp, &bytes, d_in, d_in, d_out, d_out, d_selected, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "is a select, not a unique_by_key");
  CHECK_OK(cccl_cache_select(alg, d_temp, &bytes, d_in, d_out, d_selected, n, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(&selected, d_selected, sizeof selected, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  same = selected == 4;
  for (i = 0; i < 4; ++i) same = same && out[i] == want[i];
  CHECK(same);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_selected);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("selected the odd ones of %d int16 on device 0 through the C ABI: %s\n", n, same ? "ok" : "MISMATCH");
}

/* select over iterators through the C ABI: the indices below n whose square is above a
 * bound from a counting input, and a count_if (a discard output). */
static void select_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 5000 };
  static long long out[n];
  long long selected = -1;
  const long long start = 0;
  size_t bytes = 0;
  int i, ok = 1, want = 0;
  void *d_out = NULL, *d_selected = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in, dst;
  cccl_cache_algorithm *indices = NULL, *count = NULL;
  if (!acquire_two(
          store,
          "select type=int64 op=big input=counting source='__device__ bool big(long long i) "
          "{ return i * i > 1000000; }'",
          "select type=int64 op=big input=counting output=discard source='__device__ bool "
          "big(long long i) { return i * i > 1000000; }'",
          &indices, &count))
    return;
  memset(&in, 0, sizeof in);
  memset(&dst, 0, sizeof dst);
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&in.value, &start, sizeof start);
  CHECK(cudaMalloc(&d_out, sizeof out) == cudaSuccess &&
        cudaMalloc(&d_selected, sizeof selected) == cudaSuccess);
  dst.kind = CCCL_CACHE_ITERATOR_POINTER;
  dst.pointer = d_out;
  CHECK_OK(
      cccl_cache_select_iterators(indices, NULL, &bytes, &in, &dst, d_selected, n, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_select(indices, d_temp, &bytes, d_out, d_out, d_selected, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_select_iterators");
  CHECK_OK(
      cccl_cache_select_iterators(indices, d_temp, &bytes, &in, &dst, d_selected, n, NULL, NULL));
  CHECK(cudaMemcpy(&selected, d_selected, sizeof selected, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i)
    if ((long long)i * i > 1000000) ok &= out[want++] == i;
  ok &= selected == want;
  /* The count alone: nothing written but the number. */
  dst.kind = CCCL_CACHE_ITERATOR_DISCARD;
  dst.pointer = NULL;
  selected = -1;
  CHECK(cudaMemcpy(d_selected, &selected, sizeof selected, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(
      cccl_cache_select_iterators(count, d_temp, &bytes, &in, &dst, d_selected, n, NULL, NULL));
  CHECK(cudaMemcpy(&selected, d_selected, sizeof selected, cudaMemcpyDeviceToHost) == cudaSuccess);
  ok &= selected == want;
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_selected);
  cudaFree(d_out);
  cccl_cache_algorithm_release(indices);
  cccl_cache_algorithm_release(count);
  printf(
      "selected indices from a counting input and counted them into a discard output through "
      "the C ABI: %s\n",
      ok ? "ok" : "MISMATCH");
}

/* Splits -2500..2499 (a counting input) into those above 1000 (a custom first_op), the
 * other nonzero ones (identity), written last first (second_output=reverse), and the
 * zero, discarded (unselected_output=discard), through the C ABI; the array call refuses
 * the spec, naming the iterator call. */
static void three_way_partition_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 5000 };
  static long long parts[2][n];
  long long counts[2] = {-1, -1};
  const long long start = -2500;
  size_t bytes = 0;
  int i, ok = 1, want[2] = {0, 0};
  void *d_parts[2] = {NULL, NULL}, *d_counts = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in, first, second, rest;
  cccl_cache_algorithm* alg = acquire_text(
      store,
      "three_way_partition type=int64 first_op=big input=counting second_output=reverse "
      "unselected_output=discard source='__device__ bool big(long long x) { return x > 1000; }'");
  if (alg == NULL) return;
  memset(&in, 0, sizeof in);
  memset(&first, 0, sizeof first);
  memset(&second, 0, sizeof second);
  memset(&rest, 0, sizeof rest);
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&in.value, &start, sizeof start);
  rest.kind = CCCL_CACHE_ITERATOR_DISCARD;
  CHECK(cudaMalloc(&d_parts[0], sizeof parts[0]) == cudaSuccess &&
        cudaMalloc(&d_parts[1], sizeof parts[1]) == cudaSuccess &&
        cudaMalloc(&d_counts, sizeof counts) == cudaSuccess);
  first.kind = CCCL_CACHE_ITERATOR_POINTER;
  first.pointer = d_parts[0];
  second.kind = CCCL_CACHE_ITERATOR_REVERSE;
  second.pointer = d_parts[1];
  CHECK_OK(cccl_cache_three_way_partition_iterators(alg, NULL, &bytes, &in, &first, &second, &rest,
                                                    d_counts, n, NULL, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_three_way_partition(alg, d_temp, &bytes, d_parts[0], d_parts[0],
                                             d_parts[1], d_parts[1], d_counts, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_three_way_partition_iterators");
  CHECK_FAILS(cccl_cache_three_way_partition_iterators(alg, d_temp, &bytes, &in, &first, &second,
                                                       &first, d_counts, n, NULL, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "unselected_out");
  CHECK_OK(cccl_cache_three_way_partition_iterators(alg, d_temp, &bytes, &in, &first, &second,
                                                    &rest, d_counts, n, NULL, NULL, NULL));
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(parts[0], d_parts[0], sizeof parts[0], cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(parts[1], d_parts[1], sizeof parts[1], cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) {
    const long long x = start + i;
    if (x > 1000)
      ok &= parts[0][want[0]++] == x;
    else if (x != 0)
      ok &= parts[1][n - 1 - want[1]++] == x;
  }
  ok &= counts[0] == want[0] && counts[1] == want[1] && want[0] + want[1] == n - 1;
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_counts);
  cudaFree(d_parts[0]);
  cudaFree(d_parts[1]);
  cccl_cache_algorithm_release(alg);
  printf(
      "partitioned a counting input into an array and a reverse output, the rest discarded, "
      "through the C ABI: %s\n",
      ok ? "ok" : "MISMATCH");
}

/* Splits ten int32 into those above 6 (a custom first_op), the other nonzero ones (the
 * default identity second_op) and the rest through the C ABI; the two counts (int32)
 * are read back from device memory. */
static void three_way_partition_on_gpu(cccl_cache_store* store) {
  enum { n = 10 };
  const int items[n] = {4, 9, 7, -3, 8, 0, 11, 2, 5, 6};
  const int want[n] = {9, 7, 8, 11, 4, -3, 2, 5, 6, 0}; /* parts of 4, 5 and 1 items */
  int out[3][n], counts[2] = {-1, -1}, i, same = 1;
  cccl_cache_algorithm* alg = NULL;
  void *d_in = NULL, *d_out[3] = {NULL, NULL, NULL}, *d_counts = NULL, *d_temp = NULL;
  size_t bytes = 0, queried = 0;
  cccl_cache_spec_desc d;
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_THREE_WAY_PARTITION;
  d.type = CCCL_CACHE_INT32;
  d.out_type = CCCL_CACHE_INT32;
  d.op.kind = CCCL_CACHE_OP_CUSTOM;
  d.op.name = "big";
  d.op.source = "__device__ bool big(int x) { return x > 6; }";
  alg = acquire_desc(store, &d, CCCL_CACHE_THREE_WAY_PARTITION);
  if (alg == NULL) return;
  CHECK_OK(cccl_cache_three_way_partition(alg, NULL, &bytes, NULL, NULL, NULL, NULL, NULL, n, NULL));
  CHECK_OK(cccl_cache_temp_storage_bytes(alg, n, &queried));
  CHECK(bytes == queried && bytes > 0);
  CHECK(cudaMalloc(&d_in, sizeof items) == cudaSuccess && cudaMalloc(&d_counts, sizeof counts) == cudaSuccess &&
        cudaMalloc(&d_temp, bytes) == cudaSuccess);
  for (i = 0; i < 3; ++i) CHECK(cudaMalloc(&d_out[i], sizeof items) == cudaSuccess);
  CHECK(cudaMemcpy(d_in, items, sizeof items, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_FAILS(cccl_cache_select(alg, d_temp, &bytes, d_in, d_out[0], d_counts, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "is a three_way_partition, not a select");
  CHECK_OK(cccl_cache_three_way_partition(alg, d_temp, &bytes, d_in, d_out[0], d_out[1], d_out[2], d_counts, n,
                                          NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < 3; ++i) CHECK(cudaMemcpy(out[i], d_out[i], sizeof items, cudaMemcpyDeviceToHost) == cudaSuccess);
  same = counts[0] == 4 && counts[1] == 5;
  for (i = 0; i < n; ++i) same = same && (i < 4 ? out[0][i] : i < 9 ? out[1][i - 4] : out[2][i - 9]) == want[i];
  CHECK(same);
  cudaFree(d_in);
  for (i = 0; i < 3; ++i) cudaFree(d_out[i]);
  cudaFree(d_counts);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("partitioned %d int32 three ways on device 0 through the C ABI: %s\n", n, same ? "ok" : "MISMATCH");
}

/* Lower bounds in ranges ordered by distance from a pivot (the comparator's state, a
 * `compare=closer:4/4` spec) through the C ABI: two pivots, one algorithm; a missing
 * state is refused. */
static void stateful_search_on_gpu(cccl_cache_store* store) {
  enum { n = 6, m = 3 };
  const int ranges[2][n] = {{0, 1, -2, 3, -5, 8}, {10, 9, 12, 6, 15, 2}}; /* by |x|, |x - 10| */
  const int pivots[2] = {0, 10}, values[m] = {-1, 4, 13};
  const long long want[2][m] = {{1, 4, 6}, {6, 5, 3}};
  long long got[m];
  int k, i, ok = 1;
  size_t bytes = 0;
  void *d_data = NULL, *d_values = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_op_state state;
  cccl_cache_algorithm* alg =
      acquire_text(store, "binary_search type=int32 out=int64 compare=closer:4/4 source='" CLOSER "'");
  if (alg == NULL) return;
  CHECK(cudaMalloc(&d_data, sizeof ranges[0]) == cudaSuccess && cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_out, sizeof got) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_binary_search(alg, NULL, &bytes, NULL, n, NULL, m, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_binary_search(alg, d_temp, &bytes, d_data, n, d_values, m, d_out, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "op_state");
  for (k = 0; k < 2; ++k) {
    state.data = &pivots[k];
    state.size = sizeof pivots[k];
    CHECK(cudaMemcpy(d_data, ranges[k], sizeof ranges[k], cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_OK(cccl_cache_binary_search_with_state(alg, d_temp, &bytes, d_data, n, d_values, m, d_out, NULL,
                                                 &state));
    CHECK(cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (i = 0; i < m; ++i) ok &= got[i] == want[k][i];
  }
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_out);
  cudaFree(d_values);
  cudaFree(d_data);
  cccl_cache_algorithm_release(alg);
  printf("lower bounds by distance from two pivots (a stateful comparator) through the C ABI: %s\n",
         ok ? "ok" : "MISMATCH");
}

/* Stateful operators through the *_with_state calls: an inclusive scan by (a + b) % m
 * for two m on one algorithm, and a three-way partition with a state per predicate; a
 * stateful operator's call without its state, or with one of another size, is refused. */
static void stateful_on_gpu(cccl_cache_store* store) {
  enum { n = 8 };
  const unsigned items[n] = {5, 9, 2, 7, 1, 8, 3, 6};
  const int values[n] = {40, 3, 150, 9, 600, 12, 450, 81};
  const unsigned mods[2] = {1000u, 7u};
  const unsigned want_scan[2][n] = {{5, 14, 16, 23, 24, 32, 35, 41}, {5, 0, 2, 2, 3, 4, 0, 6}};
  /* below 10 first; of the rest, above 100 and a multiple of 3 second */
  const int want_parts[n] = {3, 9, 150, 600, 450, 40, 12, 81};
  const int lo = 10;
  const long long hi[2] = {100, 3};
  unsigned out[n];
  int parts[3][n], counts[2] = {-1, -1}, i, k, same = 1;
  cccl_cache_algorithm *scan = NULL, *partition = NULL;
  void *d_in = NULL, *d_out = NULL, *d_parts[3] = {NULL, NULL, NULL}, *d_counts = NULL,
       *d_temp = NULL;
  size_t bytes = 0;
  cccl_cache_op_state state, lo_state = {&lo, sizeof lo}, hi_state = {hi, sizeof hi};
  const unsigned long long wide = 5;
  cccl_cache_spec_desc d;
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_INCLUSIVE_SCAN;
  d.type = CCCL_CACHE_UINT32;
  d.op = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "plus_mod", PLUS_MOD, 4, 4};
  scan = acquire_desc(store, &d, CCCL_CACHE_INCLUSIVE_SCAN);
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_THREE_WAY_PARTITION;
  d.type = CCCL_CACHE_INT32;
  d.out_type = CCCL_CACHE_INT32;
  d.op = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "below", BELOW, 4, 4};
  d.op2 = (cccl_cache_op){CCCL_CACHE_OP_CUSTOM, "above_multiple", ABOVE_MULTIPLE, 16, 8};
  partition = acquire_desc(store, &d, CCCL_CACHE_THREE_WAY_PARTITION);
  if (scan == NULL || partition == NULL) {
    cccl_cache_algorithm_release(scan);
    cccl_cache_algorithm_release(partition);
    return;
  }
  CHECK_OK(cccl_cache_inclusive_scan(scan, NULL, &bytes, NULL, NULL, n, NULL));
  CHECK(cudaMalloc(&d_in, sizeof items) == cudaSuccess &&
        cudaMalloc(&d_out, sizeof items) == cudaSuccess &&
        cudaMalloc(&d_temp, bytes < 4096 ? 4096 : bytes) == cudaSuccess &&
        cudaMalloc(&d_counts, sizeof counts) == cudaSuccess);
  for (i = 0; i < 3; ++i) CHECK(cudaMalloc(&d_parts[i], sizeof values) == cudaSuccess);
  CHECK(cudaMemcpy(d_in, items, sizeof items, cudaMemcpyHostToDevice) == cudaSuccess);
  for (k = 0; k < 2; ++k) {
    state.data = &mods[k];
    state.size = sizeof mods[k];
    CHECK_OK(
        cccl_cache_inclusive_scan_with_state(scan, d_temp, &bytes, d_in, d_out, n, NULL, &state));
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (i = 0; i < n; ++i) same = same && out[i] == want_scan[k][i];
  }
  CHECK(same);
  CHECK_FAILS(cccl_cache_inclusive_scan(scan, d_temp, &bytes, d_in, d_out, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "op_state");
  state.data = &wide;
  state.size = sizeof wide;
  CHECK_FAILS(
      cccl_cache_inclusive_scan_with_state(scan, d_temp, &bytes, d_in, d_out, n, NULL, &state),
      CCCL_CACHE_ERROR_INVALID_ARGUMENT, "op_state");

  CHECK_OK(cccl_cache_three_way_partition_with_state(partition, NULL, &bytes, NULL, NULL, NULL,
                                                     NULL, NULL, n, NULL, NULL, NULL));
  CHECK(bytes <= 4096);
  CHECK(cudaMemcpy(d_in, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_three_way_partition_with_state(partition, d_temp, &bytes, d_in, d_parts[0],
                                                     d_parts[1], d_parts[2], d_counts, n, NULL,
                                                     &lo_state, &hi_state));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < 3; ++i)
    CHECK(cudaMemcpy(parts[i], d_parts[i], sizeof values, cudaMemcpyDeviceToHost) == cudaSuccess);
  same = same && counts[0] == 2 && counts[1] == 3;
  for (i = 0; i < n; ++i)
    same = same && (i < 2   ? parts[0][i]
                    : i < 5 ? parts[1][i - 2]
                            : parts[2][i - 5]) == want_parts[i];
  CHECK(same);
  /* Each predicate's state must fit its own layout: swapped, they are refused. */
  CHECK_FAILS(cccl_cache_three_way_partition_with_state(partition, d_temp, &bytes, d_in, d_parts[0],
                                                        d_parts[1], d_parts[2], d_counts, n, NULL,
                                                        &hi_state, &lo_state),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "op_state");
  cudaFree(d_in);
  cudaFree(d_out);
  for (i = 0; i < 3; ++i) cudaFree(d_parts[i]);
  cudaFree(d_counts);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(scan);
  cccl_cache_algorithm_release(partition);
  printf("stateful scan and three-way partition on device 0 through the C ABI: %s\n",
         same ? "ok" : "MISMATCH");
}

/* Counts ten float32 in four bins over [0, 8) through the C ABI (two samples outside);
 * the temp-storage size comes from the call's own query (it depends on the levels). */
static void histogram_on_gpu(cccl_cache_store* store) {
  enum { n = 10, levels = 5 };
  const float samples[n] = {0.5f, 1.9f, 2.0f, 7.99f, 8.0f, -0.1f, 3.5f, 4.0f, 6.0f, 2.5f};
  const float lower = 0.0f, upper = 8.0f;
  const int want[levels - 1] = {2, 3, 1, 2};
  int hist[levels - 1] = {-1, -1, -1, -1}, i, same = 1;
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* alg = NULL;
  void *d_samples = NULL, *d_hist = NULL, *d_temp = NULL;
  size_t bytes = 0, queried = 0;
  CHECK_OK(cccl_cache_spec_parse("histogram_even type=float32", &spec));
  if (spec == NULL) return;
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &alg));
  cccl_cache_spec_free(spec);
  if (alg == NULL) return;
  CHECK(cccl_cache_algorithm_kind_of(alg) == CCCL_CACHE_HISTOGRAM_EVEN);
  CHECK_OK(cccl_cache_histogram_even(alg, NULL, &bytes, NULL, NULL, levels, &lower, &upper, n, NULL));
  CHECK(bytes > 0);
  CHECK_FAILS(cccl_cache_temp_storage_bytes(alg, n, &queried), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "number of levels");
  CHECK_FAILS(cccl_cache_histogram_even(alg, NULL, &queried, NULL, NULL, 1, &lower, &upper, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "fewer than 2 levels");
  CHECK_FAILS(cccl_cache_histogram_even(alg, NULL, &queried, NULL, NULL, levels, &upper, &lower, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "lower not below upper");
  CHECK(cudaMalloc(&d_samples, sizeof samples) == cudaSuccess && cudaMalloc(&d_hist, sizeof hist) == cudaSuccess &&
        cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_samples, samples, sizeof samples, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_histogram_even(alg, d_temp, &bytes, d_samples, d_hist, levels, &lower, &upper, n, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(hist, d_hist, sizeof hist, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < levels - 1; ++i) same = same && hist[i] == want[i];
  CHECK(same);
  cudaFree(d_samples);
  cudaFree(d_hist);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("counted %d float32 in %d bins on device 0 through the C ABI: %s\n", n, levels - 1, same ? "ok" : "MISMATCH");
}

/* The first position of each run of int32 keys (a counting value input, the keys
 * discarded) through the C ABI; the array call refuses the spec. */
static void unique_by_key_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 12 };
  const int keys[n] = {1, 1, 2, 2, 2, 5, 1, 1, 9, 9, 9, 9};
  const long long want[4 + 1] = {0, 2, 5, 6, 8};
  const long long start = 0;
  long long positions[n], count = -1;
  size_t bytes = 0;
  int i, ok = 1;
  void *d_keys = NULL, *d_out = NULL, *d_count = NULL, *d_temp = NULL;
  cccl_cache_iterator_value keys_in, values_in, keys_out, values_out;
  cccl_cache_algorithm* alg = acquire_text(
      store, "unique_by_key keys=int32 values=int64 selected=int64 values_in=counting keys_out=discard");
  if (alg == NULL) return;
  memset(&keys_in, 0, sizeof keys_in);
  memset(&values_in, 0, sizeof values_in);
  memset(&keys_out, 0, sizeof keys_out);
  memset(&values_out, 0, sizeof values_out);
  values_in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&values_in.value, &start, sizeof start);
  keys_out.kind = CCCL_CACHE_ITERATOR_DISCARD;
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess && cudaMalloc(&d_out, sizeof positions) == cudaSuccess &&
        cudaMalloc(&d_count, sizeof count) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  keys_in.kind = CCCL_CACHE_ITERATOR_POINTER;
  keys_in.pointer = d_keys;
  values_out.kind = CCCL_CACHE_ITERATOR_POINTER;
  values_out.pointer = d_out;
  CHECK_OK(cccl_cache_unique_by_key_iterators(alg, NULL, &bytes, &keys_in, &values_in, &keys_out, &values_out,
                                              d_count, n, NULL, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_unique_by_key(alg, d_temp, &bytes, d_keys, d_keys, d_out, d_out, d_count, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_unique_by_key_iterators");
  CHECK_FAILS(cccl_cache_unique_by_key_iterators(alg, d_temp, &bytes, &keys_in, &keys_in, &keys_out, &values_out,
                                                 d_count, n, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "values_in");
  CHECK_OK(cccl_cache_unique_by_key_iterators(alg, d_temp, &bytes, &keys_in, &values_in, &keys_out, &values_out,
                                              d_count, n, NULL, NULL));
  CHECK(cudaMemcpy(positions, d_out, sizeof positions, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost) == cudaSuccess);
  ok = count == 5;
  for (i = 0; ok && i < 5; ++i) ok &= positions[i] == want[i];
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_count);
  cudaFree(d_out);
  cudaFree(d_keys);
  cccl_cache_algorithm_release(alg);
  printf("each run's first position from a counting value input through the C ABI: %s\n",
         ok ? "ok" : "MISMATCH");
}

/* An argsort of float keys (a counting value input: each sorted key's position) through
 * the C ABI; the array call refuses the spec. */
static void merge_sort_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 9 };
  const float keys[n] = {3.f, -1.f, 2.f, 3.f, 0.f, -1.f, 7.f, 2.f, 3.f};
  const float want_keys[n] = {-1.f, -1.f, 0.f, 2.f, 2.f, 3.f, 3.f, 3.f, 7.f};
  const long long want[n] = {1, 5, 4, 2, 7, 0, 3, 8, 6}; /* stable: ties keep their order */
  const long long start = 0;
  float sorted[n];
  long long positions[n];
  size_t bytes = 0;
  int i, ok = 1;
  void *d_keys = NULL, *d_sorted = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_iterator_value keys_in, values_in;
  cccl_cache_algorithm* alg =
      acquire_text(store, "merge_sort keys=float32 values=int64 values_in=counting");
  if (alg == NULL) return;
  memset(&keys_in, 0, sizeof keys_in);
  memset(&values_in, 0, sizeof values_in);
  values_in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&values_in.value, &start, sizeof start);
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess && cudaMalloc(&d_sorted, sizeof sorted) == cudaSuccess &&
        cudaMalloc(&d_out, sizeof positions) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  keys_in.kind = CCCL_CACHE_ITERATOR_POINTER;
  keys_in.pointer = d_keys;
  CHECK_OK(cccl_cache_merge_sort_iterators(alg, NULL, &bytes, &keys_in, &values_in, d_sorted, d_out, n, NULL,
                                           NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_merge_sort(alg, d_temp, &bytes, d_keys, d_keys, d_sorted, d_out, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_merge_sort_iterators");
  CHECK_FAILS(cccl_cache_merge_sort_iterators(alg, d_temp, &bytes, &keys_in, &keys_in, d_sorted, d_out, n, NULL,
                                              NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "values_in");
  CHECK_OK(cccl_cache_merge_sort_iterators(alg, d_temp, &bytes, &keys_in, &values_in, d_sorted, d_out, n, NULL,
                                           NULL));
  CHECK(cudaMemcpy(sorted, d_sorted, sizeof sorted, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(positions, d_out, sizeof positions, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= sorted[i] == want_keys[i] && positions[i] == want[i];
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_out);
  cudaFree(d_sorted);
  cudaFree(d_keys);
  cccl_cache_algorithm_release(alg);
  printf("an argsort of float keys from a counting value input through the C ABI: %s\n", ok ? "ok" : "MISMATCH");
}

/* Each item's rank in its run of equal keys (constant values of 1, scanned inclusively)
 * through the C ABI; the array call refuses the spec. */
static void scan_by_key_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 9 };
  const int keys[n] = {4, 4, 4, 1, 7, 7, 4, 4, 2};
  const int want[n] = {1, 2, 3, 1, 1, 2, 1, 2, 1};
  const int one = 1;
  int ranks[n];
  size_t bytes = 0;
  int i, ok = 1;
  void *d_keys = NULL, *d_out = NULL, *d_temp = NULL;
  cccl_cache_iterator_value keys_in, values_in = pointer_value(CCCL_CACHE_ITERATOR_CONSTANT, NULL), values_out;
  cccl_cache_algorithm* alg = acquire_text(store, "scan_by_key keys=int32 values=int32 values_in=constant");
  if (alg == NULL) return;
  memcpy(&values_in.value, &one, sizeof one);
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess && cudaMalloc(&d_out, sizeof ranks) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  keys_in = pointer_value(CCCL_CACHE_ITERATOR_POINTER, d_keys);
  values_out = pointer_value(CCCL_CACHE_ITERATOR_POINTER, d_out);
  CHECK_OK(cccl_cache_scan_by_key_iterators(alg, NULL, &bytes, &keys_in, &values_in, &values_out, n, NULL,
                                            NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_FAILS(cccl_cache_scan_by_key(alg, d_temp, &bytes, d_keys, d_keys, d_out, n, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_scan_by_key_iterators");
  CHECK_FAILS(cccl_cache_scan_by_key_iterators(alg, d_temp, &bytes, &keys_in, &keys_in, &values_out, n, NULL,
                                               NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "values_in");
  CHECK_FAILS(cccl_cache_scan_by_key_iterators(alg, d_temp, &bytes, &keys_in, &values_in, NULL, n, NULL, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "values_out");
  CHECK_OK(cccl_cache_scan_by_key_iterators(alg, d_temp, &bytes, &keys_in, &values_in, &values_out, n, NULL,
                                            NULL));
  CHECK(cudaMemcpy(ranks, d_out, sizeof ranks, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= ranks[i] == want[i];
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_out);
  cudaFree(d_keys);
  cccl_cache_algorithm_release(alg);
  printf("each item's rank in its run from constant values through the C ABI: %s\n", ok ? "ok" : "MISMATCH");
}

/* Counts the integers 0..999 (a counting iterator) in ten bins over [100, 600) through
 * the C ABI (50 each); the array call refuses the spec. */
static void histogram_iterators_on_gpu(cccl_cache_store* store) {
  enum { n = 1000, levels = 11 };
  const int start = 0, lower = 100, upper = 600;
  int hist[levels - 1], i, ok = 1;
  size_t bytes = 0;
  void *d_hist = NULL, *d_temp = NULL;
  cccl_cache_iterator_value samples;
  cccl_cache_algorithm* alg = acquire_text(store, "histogram_even type=int32 samples=counting");
  if (alg == NULL) return;
  memset(&samples, 0, sizeof samples);
  samples.kind = CCCL_CACHE_ITERATOR_COUNTING;
  memcpy(&samples.value, &start, sizeof start);
  CHECK_OK(cccl_cache_histogram_even_iterators(alg, NULL, &bytes, &samples, NULL, levels, &lower, &upper,
                                               n, NULL));
  CHECK(cudaMalloc(&d_hist, sizeof hist) == cudaSuccess && cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK_FAILS(cccl_cache_histogram_even(alg, d_temp, &bytes, d_hist, d_hist, levels, &lower, &upper, n, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "use cccl_cache_histogram_even_iterators");
  CHECK_FAILS(cccl_cache_histogram_even_iterators(alg, d_temp, &bytes, NULL, d_hist, levels, &lower, &upper, n,
                                                  NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "samples");
  CHECK_OK(cccl_cache_histogram_even_iterators(alg, d_temp, &bytes, &samples, d_hist, levels, &lower, &upper,
                                               n, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(hist, d_hist, sizeof hist, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < levels - 1; ++i) ok &= hist[i] == 50;
  CHECK(ok);
  cudaFree(d_temp);
  cudaFree(d_hist);
  cccl_cache_algorithm_release(alg);
  printf("counted a counting iterator's integers in %d bins through the C ABI: %s\n", levels - 1,
         ok ? "ok" : "MISMATCH");
}

/* Sorts three segments of int32 keys with float32 values, descending, through the C ABI
 * (one empty, one item outside every segment left unwritten); the temp-storage size comes
 * from the call's own query (it depends on the number of segments). */
static void segmented_sort_on_gpu(cccl_cache_store* store) {
  enum { n = 9, segments = 3 };
  const int keys[n] = {3, 1, 2, 7, 7, 5, 0, 9, 4};
  const float values[n] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  const int begin[segments] = {0, 3, 3}, end[segments] = {3, 3, 8};
  const int want_keys[n] = {3, 2, 1, 9, 7, 7, 5, 0, -1};
  const float want_values[n] = {0, 2, 1, 7, 3, 4, 5, 6, -1};
  int got_keys[n], i, same = 1;
  float got_values[n];
  cccl_cache_spec* spec = NULL;
  cccl_cache_algorithm* alg = NULL;
  void *d_keys = NULL, *d_values = NULL, *d_keys_out = NULL, *d_values_out = NULL, *d_begin = NULL,
       *d_end = NULL, *d_temp = NULL;
  size_t bytes = 0, queried = 0;
  CHECK_OK(cccl_cache_spec_parse("segmented_sort keys=int32 values=float32 descending=true", &spec));
  if (spec == NULL) return;
  CHECK_OK(cccl_cache_acquire(store, spec, 0, &alg));
  cccl_cache_spec_free(spec);
  if (alg == NULL) return;
  CHECK(cccl_cache_algorithm_kind_of(alg) == CCCL_CACHE_SEGMENTED_SORT);
  CHECK_OK(cccl_cache_segmented_sort(alg, NULL, &bytes, NULL, NULL, NULL, NULL, n, segments, NULL, NULL, NULL));
  CHECK(bytes > 0);
  CHECK_FAILS(cccl_cache_temp_storage_bytes(alg, n, &queried), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "number of segments");
  CHECK(cudaMalloc(&d_keys, sizeof keys) == cudaSuccess && cudaMalloc(&d_values, sizeof values) == cudaSuccess &&
        cudaMalloc(&d_keys_out, sizeof keys) == cudaSuccess &&
        cudaMalloc(&d_values_out, sizeof values) == cudaSuccess && cudaMalloc(&d_begin, sizeof begin) == cudaSuccess &&
        cudaMalloc(&d_end, sizeof end) == cudaSuccess && cudaMalloc(&d_temp, bytes) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys, keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_begin, begin, sizeof begin, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_end, end, sizeof end, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(d_keys_out, want_keys, sizeof keys, cudaMemcpyHostToDevice) == cudaSuccess); /* -1 at 8 */
  CHECK(cudaMemcpy(d_values_out, want_values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemset(d_keys_out, 0, 8 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(d_values_out, 0, 8 * sizeof(float)) == cudaSuccess);
  queried = 1;
  CHECK_FAILS(cccl_cache_segmented_sort(alg, d_temp, &queried, d_keys, d_keys_out, d_values, d_values_out, n,
                                        segments, d_begin, d_end, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "temp storage smaller");
  CHECK_OK(cccl_cache_segmented_sort(alg, d_temp, &bytes, d_keys, d_keys_out, d_values, d_values_out, n, segments,
                                     d_begin, d_end, NULL));
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaMemcpy(got_keys, d_keys_out, sizeof keys, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaMemcpy(got_values, d_values_out, sizeof values, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) same = same && got_keys[i] == want_keys[i] && got_values[i] == want_values[i];
  CHECK(same);
  cudaFree(d_keys);
  cudaFree(d_values);
  cudaFree(d_keys_out);
  cudaFree(d_values_out);
  cudaFree(d_begin);
  cudaFree(d_end);
  cudaFree(d_temp);
  cccl_cache_algorithm_release(alg);
  printf("sorted %d int32 pairs in %d segments on device 0 through the C ABI: %s\n", n, segments,
         same ? "ok" : "MISMATCH");
}

/* for_each: items doubled in place; a stateful scatter over a counting iterator
 * (out[i] = 3i + 1 through the state's pointer); the array call refuses the iterator spec. */
static void for_each_on_gpu(cccl_cache_store* store) {
  enum { n = 3000 };
  static float x[n];
  static long long out[n];
  int i, ok = 1;
  void *d_x = NULL, *d_out = NULL;
  cccl_cache_iterator_value in;
  cccl_cache_op_state state;
  cccl_cache_algorithm* twice = acquire_text(store, "for_each type=float32 op=twice source='" TWICE "'");
  cccl_cache_algorithm* scatter = acquire_text(
      store,
      "for_each type=int64 op=scatter3:8/8 input=counting(int64) source='__device__ void scatter3(void* s, "
      "long long i) { (*(long long**)s)[i] = 3 * i + 1; }'");
  if (twice == NULL || scatter == NULL) return;
  for (i = 0; i < n; ++i) x[i] = (float)(i % 97) - 40.0f;
  CHECK(cudaMalloc(&d_x, sizeof x) == cudaSuccess && cudaMalloc(&d_out, sizeof out) == cudaSuccess);
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK_OK(cccl_cache_for_each(twice, d_x, n, NULL, NULL));
  CHECK(cudaMemcpy(x, d_x, sizeof x, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= x[i] == 2.0f * ((float)(i % 97) - 40.0f);
  memset(&in, 0, sizeof in);
  in.kind = CCCL_CACHE_ITERATOR_COUNTING;
  state.data = &d_out;
  state.size = sizeof d_out;
  CHECK_FAILS(cccl_cache_for_each(scatter, d_out, n, NULL, &state), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "use cccl_cache_for_each_iterators");
  CHECK_FAILS(cccl_cache_for_each_iterators(scatter, &in, n, NULL, NULL), CCCL_CACHE_ERROR_INVALID_ARGUMENT,
              "state");
  CHECK_OK(cccl_cache_for_each_iterators(scatter, &in, n, NULL, &state));
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (i = 0; i < n; ++i) ok &= out[i] == 3LL * i + 1;
  CHECK(ok);
  cudaFree(d_x);
  cudaFree(d_out);
  cccl_cache_algorithm_release(twice);
  cccl_cache_algorithm_release(scatter);
  printf("doubled %d floats in place and scattered 3i+1 through a for_each's state: %s\n", n,
         ok ? "ok" : "MISMATCH");
}

/* Sums a * i + b over a counting input through a transform iterator whose operator is
 * stateful ({a, b} behind the value's index), and refuses the call without the state. */
static void stateful_iterator_on_gpu(cccl_cache_store* store) {
  enum { n = 5000 };
  const long long start = -100, ab[2] = {3, -7}, zero = 0;
  long long sum = 0, want = 0;
  size_t bytes = 0;
  int i;
  void *d_out = NULL, *d_temp = NULL;
  cccl_cache_iterator_value in;
  cccl_cache_algorithm* alg = acquire_text(
      store,
      "reduce type=int64 input=transform(affine:16/8,counting(int64)) source='__device__ long long affine(void* s, "
      "long long i) { const long long* ab = (const long long*)s; return ab[0] * i + ab[1]; }'");
  if (alg == NULL) return;
  for (i = 0; i < n; ++i) want += ab[0] * (start + i) + ab[1];
  CHECK(cudaMalloc(&d_out, sizeof sum) == cudaSuccess);
  memset(&in, 0, sizeof in);
  in.kind = CCCL_CACHE_ITERATOR_TRANSFORM;
  memcpy(&in.value, &start, sizeof start);
  CHECK_FAILS(cccl_cache_reduce_iterator(alg, NULL, &bytes, &in, d_out, n, &zero, NULL),
              CCCL_CACHE_ERROR_INVALID_ARGUMENT, "in->index is NULL: the spec's transform operator 'affine' is stateful");
  in.index = ab;
  CHECK_OK(cccl_cache_reduce_iterator(alg, NULL, &bytes, &in, d_out, n, &zero, NULL));
  CHECK(cudaMalloc(&d_temp, bytes > 0 ? bytes : 1) == cudaSuccess);
  CHECK_OK(cccl_cache_reduce_iterator(alg, d_temp, &bytes, &in, d_out, n, &zero, NULL));
  CHECK(cudaMemcpy(&sum, d_out, sizeof sum, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(sum == want);
  cudaFree(d_temp);
  cudaFree(d_out);
  cccl_cache_algorithm_release(alg);
  printf("summed 3i-7 through a transform iterator's state: %s\n", sum == want ? "ok" : "MISMATCH");
}

int main(void) {
  char tmp[] = "/tmp/cccl-cache-capi-XXXXXX";
  char dir[4096];
  cccl_cache_store* store = NULL;
  cccl_cache_spec *spec = NULL, *same = NULL;
  cccl_cache_algorithm* alg = (cccl_cache_algorithm*)1;
  cccl_cache_spec_desc d;
  int built = -1, devices = 0;

  if (mkdtemp(tmp) == NULL) return perror("mkdtemp"), 1;
  check_library();
  check_null_handles();
  check_bad_text();
  check_descs();
  second_operator_from_desc();
  stateful_ops_from_desc();
  check_bad_stores(tmp);

  /* One build, then hits: the same spec from text, and after reopening the store. */
  snprintf(dir, sizeof dir, "%s/store", tmp);
  CHECK_OK(cccl_cache_store_open(dir, NULL, &store));
  CHECK(store != NULL && strcmp(cccl_cache_store_dir(store), dir) == 0);
  memset(&d, 0, sizeof d);
  d.algorithm = CCCL_CACHE_MERGE_SORT;
  d.type = CCCL_CACHE_FLOAT32;
  CHECK_OK(cccl_cache_spec_from_desc(&d, &spec));
  CHECK_OK(cccl_cache_spec_parse("merge_sort keys=float32", &same));
  CHECK_FAILS(cccl_cache_prewarm(store, NULL, 90, &built), CCCL_CACHE_ERROR_INVALID_ARGUMENT, "spec is NULL");
  CHECK_OK(cccl_cache_prewarm(store, spec, 90, &built));
  CHECK(built == 1);
  CHECK_OK(cccl_cache_prewarm(store, same, 90, &built));
  CHECK(built == 0);
  cccl_cache_store_close(store);
  CHECK_OK(cccl_cache_store_open(dir, NULL, &store));
  CHECK_OK(cccl_cache_prewarm(store, same, 90, &built));
  CHECK(built == 0);

  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    /* Without a device, acquire says why and hands out nothing. */
    CHECK_FAILS(cccl_cache_acquire(store, spec, 0, &alg), CCCL_CACHE_ERROR_DRIVER, "");
    CHECK(alg == NULL && cccl_cache_last_error()[0] != '\0');
    printf(
        "SKIP: no CUDA device (%s); the GPU part (a merge sort, a segmented sum, a unique_by_key, "
        "a scan_by_key, a seeded inclusive scan, a reduce and scans over iterators, transforms and "
        "a select over iterators, an argmax and a scan over structs, a select, a three-way "
        "partition, a histogram, a binary search (over a range iterator too), a segmented sort, stateful "
        "operators, bool masks, a for_each) did not run\n",
        cccl_cache_last_error());
  } else {
    sort_on_gpu(store, spec);
    radix_double_buffer_on_gpu(store);
    radix_argsort_on_gpu(store);
    segmented_sum_on_gpu(store);
    unique_on_gpu(store);
    scan_by_key_on_gpu(store);
    seeded_scan_on_gpu(store);
    reduce_iterator_on_gpu(store);
    cache_modified_on_gpu(store);
    scan_iterator_on_gpu(store);
    output_iterators_on_gpu(store);
    zips_on_gpu(store);
    segmented_iterators_on_gpu(store);
    segmented_sort_iterators_on_gpu(store);
    transform_iterators_on_gpu(store);
    shuffle_on_gpu(store);
    nested_iterators_on_gpu(store);
    struct_reduce_on_gpu(store);
    struct_scan_on_gpu(store);
    select_on_gpu(store);
    select_iterators_on_gpu(store);
    three_way_partition_on_gpu(store);
    three_way_partition_iterators_on_gpu(store);
    histogram_on_gpu(store);
    histogram_iterators_on_gpu(store);
    unique_by_key_iterators_on_gpu(store);
    merge_sort_iterators_on_gpu(store);
    scan_by_key_iterators_on_gpu(store);
    binary_search_on_gpu(store);
    binary_search_iterators_on_gpu(store);
    range_iterator_search_on_gpu(store);
    segmented_sort_on_gpu(store);
    stateful_on_gpu(store);
    stateful_search_on_gpu(store);
    bool_on_gpu(store);
    for_each_on_gpu(store);
    stateful_iterator_on_gpu(store);
  }
  cccl_cache_spec_free(spec);
  cccl_cache_spec_free(same);
  cccl_cache_store_close(store);
  chmod(tmp, 0700);
  nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("all C ABI checks passed\n");
  return devices == 0 ? 77 : 0;
}
