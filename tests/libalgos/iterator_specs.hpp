// A reduce or scan spec over an input iterator, as the iterator tests (unit, build, GPU)
// make them.
#pragma once

#include <utility>

#include "cccl_cache/algos/iterator.hpp"
#include "cccl_cache/algos/types.hpp"

namespace test_support {

// Spec (reduce::Spec, scan::InclusiveSpec, scan::ExclusiveSpec) of `type` items read
// through `input`; `init` where the spec has it (a seeded inclusive scan).
template <class Spec>
Spec over(cccl_cache::algos::ScalarType type, cccl_cache::algos::Iterator input, bool init = false) {
  Spec s;
  s.type = type;
  s.input = std::move(input);
  if constexpr (requires { s.init; }) s.init = init;
  return s;
}

}  // namespace test_support
