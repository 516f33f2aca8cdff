// Every algorithm of the library: its public headers and its line in the list the
// registry (registry.cpp) and AlgorithmCache's instantiations are made from.
// Adding an algorithm adds its include and its line here.
#pragma once

#include "cccl_cache/algos/merge_sort/build.hpp"
#include "cccl_cache/algos/merge_sort/executable.hpp"

// X(traits type) for each algorithm, in id order.
#define CCCL_CACHE_ALGORITHMS(X) X(::cccl_cache::algos::MergeSort)
