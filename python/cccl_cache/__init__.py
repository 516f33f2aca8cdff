"""cccl_cache: NVRTC-built CUB algorithms from Python, cached on disk.

The same store, configuration and environment as the C++ library (CCCL_CACHE_DIR, ...).
Two shapes, as cuda.compute users know them:

* factories (make_merge_sort, make_radix_sort, make_radix_argsort, make_reduce_into, make_segmented_reduce,
  make_segmented_sort, make_unique_by_key, make_scan_by_key, make_select, make_three_way_partition, make_histogram_even, make_lower_bound, make_upper_bound, make_inclusive_scan, make_exclusive_scan, make_unary_transform, make_binary_transform, make_for_each) return reusable
  callables with CUB's two-phase convention: call with temp_storage=None to get the
  bytes a run needs, then with a device buffer of at least that size (transforms and
  for_each take none);
* one-shot functions (merge_sort, radix_sort, argsort, reduce_into, segmented_reduce, segmented_sort, unique_by_key,
  inclusive_scan_by_key, exclusive_scan_by_key, select, three_way_partition, histogram_even, lower_bound, upper_bound, inclusive_scan,
  exclusive_scan, unary_transform, binary_transform, for_each) allocate temp storage through
  the caller's allocator (CuPy's memory pool for CuPy arrays, PyTorch's for tensors).

A radix sort also takes DoubleBuffers (CUB's, shaped as cuda.compute's) for its keys and
values: it sorts within them and sets their selector to the buffer holding the result.
An argsort (make_radix_argsort, argsort) is a radix sort whose values are the indices
0, 1, ... (spec values_in=counting): the sorted values are the keys' stable permutation.
Struct element types (cccl_cache.gpu_struct, from NumPy structured dtypes) serve reduce,
merge sort and select with custom operators over them.
A reduction's input may be an iterator (cccl_cache.iterators: CountingIterator,
ConstantIterator, ReverseIterator, PermutationIterator, TransformIterator).

Arrays: anything with __cuda_array_interface__ (CuPy, PyTorch, Numba) or DLPack;
streams: None, an int handle, or an object with __cuda_stream__ (or CuPy's .ptr,
PyTorch's .cuda_stream). Bad arguments raise TypeError / ValueError; library errors
raise cccl_cache.Error (a RuntimeError with .code).
"""

from ._core import (
    BinarySearch,
    BinaryTransform,
    Cache,
    Error,
    ExclusiveScan,
    ForEach,
    HistogramEven,
    InclusiveScan,
    MergeSort,
    RadixSort,
    Reduce,
    ScanByKey,
    SegmentedReduce,
    SegmentedSort,
    Select,
    Spec,
    ThreeWayPartition,
    UnaryTransform,
    UniqueByKey,
    device_count,
    driver_status,
)
from ._api import (
    DoubleBuffer,
    Op,
    argsort,
    binary_transform,
    default_cache,
    exclusive_scan,
    exclusive_scan_by_key,
    for_each,
    histogram_even,
    inclusive_scan,
    inclusive_scan_by_key,
    lower_bound,
    make_binary_transform,
    make_exclusive_scan,
    make_for_each,
    make_histogram_even,
    make_inclusive_scan,
    make_lower_bound,
    make_merge_sort,
    make_radix_argsort,
    make_radix_sort,
    make_reduce_into,
    make_scan_by_key,
    make_segmented_reduce,
    make_segmented_sort,
    make_select,
    make_three_way_partition,
    make_unary_transform,
    make_unique_by_key,
    make_upper_bound,
    merge_sort,
    radix_sort,
    reduce_into,
    segmented_reduce,
    segmented_sort,
    select,
    three_way_partition,
    unary_transform,
    unique_by_key,
    upper_bound,
)

from . import iterators
from .structs import Struct, gpu_struct

__version__ = "0.1.0"

__all__ = [
    "BinarySearch", "BinaryTransform", "Cache", "DoubleBuffer", "Error", "ExclusiveScan", "ForEach", "HistogramEven", "InclusiveScan", "MergeSort", "Op",
    "RadixSort", "Reduce", "ScanByKey", "SegmentedReduce", "SegmentedSort", "Select", "Spec", "ThreeWayPartition", "UnaryTransform", "UniqueByKey", "argsort", "binary_transform", "default_cache",
    "device_count", "gpu_struct", "Struct", "driver_status", "iterators", "exclusive_scan", "exclusive_scan_by_key", "for_each", "histogram_even", "inclusive_scan",
    "inclusive_scan_by_key", "lower_bound", "make_binary_transform",
    "make_exclusive_scan", "make_for_each", "make_histogram_even", "make_inclusive_scan", "make_lower_bound", "make_merge_sort", "make_radix_argsort", "make_radix_sort",
    "make_reduce_into", "make_scan_by_key", "make_segmented_reduce", "make_segmented_sort", "make_select", "make_three_way_partition", "make_unary_transform", "make_unique_by_key", "make_upper_bound", "merge_sort",
    "radix_sort", "reduce_into", "segmented_reduce", "segmented_sort", "select", "three_way_partition", "unary_transform", "unique_by_key", "upper_bound",
]
