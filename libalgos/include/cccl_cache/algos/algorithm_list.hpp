// Every algorithm of the library, device-independent side: the traits headers and the
// list the registry (registry.cpp) and AlgorithmCache's instantiations are made from.
// Adding an algorithm adds its build_result.hpp here and its line to the list (and its
// executable.hpp to algorithms.hpp).
#pragma once

#include "cccl_cache/algos/for_each/build_result.hpp"
#include "cccl_cache/algos/histogram_even/build_result.hpp"
#include "cccl_cache/algos/binary_search/build_result.hpp"
#include "cccl_cache/algos/merge_sort/build_result.hpp"
#include "cccl_cache/algos/radix_sort/build_result.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/algos/scan_by_key/build_result.hpp"
#include "cccl_cache/algos/select/build_result.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/algos/segmented_sort/build_result.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "cccl_cache/algos/transform/build_result.hpp"
#include "cccl_cache/algos/unique_by_key/build_result.hpp"

// X(traits type) for each algorithm, in id order.
#define CCCL_CACHE_ALGORITHMS(X)            \
  X(::cccl_cache::algos::MergeSort)         \
  X(::cccl_cache::algos::Reduce)            \
  X(::cccl_cache::algos::InclusiveScan)     \
  X(::cccl_cache::algos::ExclusiveScan)     \
  X(::cccl_cache::algos::UnaryTransform)    \
  X(::cccl_cache::algos::BinaryTransform)   \
  X(::cccl_cache::algos::RadixSort)         \
  X(::cccl_cache::algos::SegmentedReduce)   \
  X(::cccl_cache::algos::UniqueByKey)       \
  X(::cccl_cache::algos::Select)            \
  X(::cccl_cache::algos::ThreeWayPartition) \
  X(::cccl_cache::algos::HistogramEven)     \
  X(::cccl_cache::algos::BinarySearch)      \
  X(::cccl_cache::algos::SegmentedSort)     \
  X(::cccl_cache::algos::ScanByKey)         \
  X(::cccl_cache::algos::ForEach)
