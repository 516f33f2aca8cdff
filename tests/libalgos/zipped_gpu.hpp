// Struct items read from a zip on a GPU: float32 values on the device zipped with
// counting(0), read as vi64 {value, index} (select_iterator_specs.hpp
// values_with_positions), for the struct tests that take their items from that zip.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cccl_cache/algos/iterator.hpp"
#include "gpu_support.hpp"
#include "select_iterator_specs.hpp"

namespace test_support {

// n float32 values from value() on the device, zipped with counting(0): the zip's
// IteratorValue (its components held here) and the vi64 items it reads.
struct Zipped {
  std::vector<vi64> items;
  cccl_cache::algos::IteratorValue parts[2];
  template <class Value>
  Zipped(std::uint64_t n, std::vector<std::unique_ptr<DeviceBuffer>>& keep, Value value) : items(n) {
    std::vector<float> values(n);
    for (std::uint64_t i = 0; i < n; ++i) items[i] = {values[i] = value(), static_cast<long long>(i)};
    parts[0] = cccl_cache::algos::IteratorValue::array(on_device(values, keep));
    parts[1] = cccl_cache::algos::IteratorValue::counting(std::int64_t{0});
  }
  cccl_cache::algos::Input input() const { return cccl_cache::algos::IteratorValue::zip(parts, 2); }
};

}  // namespace test_support
