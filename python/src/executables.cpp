// The bound executables as Python callables. Each call follows the reference
// library's two-phase convention: temp_storage=None returns the bytes a run needs and
// looks at nothing else (pure arithmetic, as CUB's size query); a run checks every
// array against the spec and the bound device, then launches with the GIL released.
#include "calls.hpp"

namespace cccl_cache::python {

void bind_executables(nb::module_& m) {
  bind_sorts(m);
  bind_reductions_and_scans(m);
  bind_selections(m);
  bind_elementwise(m);
}

}  // namespace cccl_cache::python
