// Every algorithm of the library with its executable: what embedders include (through
// algorithm_cache.hpp) to acquire any of them. The list itself is algorithm_list.hpp.
#pragma once

#include "cccl_cache/algos/algorithm_list.hpp"
#include "cccl_cache/algos/histogram_even/executable.hpp"
#include "cccl_cache/algos/binary_search/executable.hpp"
#include "cccl_cache/algos/merge_sort/executable.hpp"
#include "cccl_cache/algos/radix_sort/executable.hpp"
#include "cccl_cache/algos/reduce/executable.hpp"
#include "cccl_cache/algos/scan/executable.hpp"
#include "cccl_cache/algos/scan_by_key/executable.hpp"
#include "cccl_cache/algos/for_each/executable.hpp"
#include "cccl_cache/algos/select/executable.hpp"
#include "cccl_cache/algos/three_way_partition/executable.hpp"
#include "cccl_cache/algos/transform/executable.hpp"
#include "cccl_cache/algos/segmented_reduce/executable.hpp"
#include "cccl_cache/algos/segmented_sort/executable.hpp"
#include "cccl_cache/algos/unique_by_key/executable.hpp"
