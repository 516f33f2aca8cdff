// The Python module's types: a spec of any algorithm (Spec) and a bound executable
// (one Python class per algorithm, each a callable with CUB's two-phase convention).
#pragma once

#include <memory>

#include <nanobind/nanobind.h>

#include "cccl_cache/algos/algorithm_cache.hpp"

namespace cccl_cache::python {

namespace nb = nanobind;

// cccl_cache.Spec: a validated spec of any algorithm, in canonical form.
struct PySpec {
  algos::AnySpec any;
};

// A bound executable shared with the AlgorithmCache that made it.
template <class Exe>
struct Bound {
  std::shared_ptr<const Exe> exe;
};

// Registers Spec.
void bind_spec(nb::module_& m);
// Registers MergeSort, RadixSort, Reduce, SegmentedReduce, UniqueByKey, ScanByKey, Select,
// ThreeWayPartition, HistogramEven, SegmentedSort, BinarySearch, InclusiveScan, ExclusiveScan, UnaryTransform,
// BinaryTransform.
void bind_executables(nb::module_& m);
// Registers Cache (acquire returns the classes above).
void bind_cache(nb::module_& m);

}  // namespace cccl_cache::python
