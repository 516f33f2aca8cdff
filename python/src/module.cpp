// The Python module cccl_cache._core: specs, the cache and the bound executables. The
// Python package (python/cccl_cache/) adds the reference-library-shaped factories and
// one-shot functions on top.
#include <optional>
#include <string>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include "arrays.hpp"
#include "bound.hpp"
#include "cccl_cache/algos/device.hpp"
#include "errors.hpp"

namespace cccl_cache::python {
namespace {

using namespace nb::literals;

// (element type name or None, items, DLPack device or None, address), without any
// driver call: for the factories, which derive a spec from arrays.
nb::tuple array_info(nb::handle obj, const std::string& what) {
  DeviceArray a = device_array(obj, what.c_str(), false);
  nb::object type = a.type ? nb::object(nb::str(algos::name(*a.type).data())) : nb::none();
  nb::object device = a.device ? nb::object(nb::int_(*a.device)) : nb::none();
  return nb::make_tuple(type, a.size, device, reinterpret_cast<std::uintptr_t>(a.data));
}

// None for an empty array without an address (CuPy's): it names no memory, so no device.
std::optional<int> array_device(nb::handle obj, const std::string& what) {
  DeviceArray a = device_array(obj, what.c_str(), false);
  if (a.device) return *a.device;
  if (a.size == 0 && a.data == nullptr) return std::nullopt;
  return take(algos::pointer_device(a.data));
}

}  // namespace
}  // namespace cccl_cache::python

NB_MODULE(_core, m) {
  using namespace cccl_cache::python;
  m.doc() = "cccl-cache's C++ API: specs, the cache, bound executables.";
  register_errors(m);
  bind_spec(m);
  bind_executables(m);
  bind_cache(m);
  m.def("array_info", &array_info, "array"_a, "what"_a = "array",
        "(element type name or None, items, DLPack device or None, address) of a device array; "
        "TypeError/ValueError as the executables' checks.");
  m.def("array_device", &array_device, "array"_a, "what"_a = "array",
        "The device ordinal holding a device array's memory (ValueError for host memory; None for an "
        "empty array without an address).");
  m.def("stream_handle", [](nb::handle s) { return reinterpret_cast<std::uintptr_t>(stream_handle(s)); },
        "stream"_a.none(), "The raw CUstream of a stream argument (None -> 0).");
  m.def("_host_value", [](nb::handle value, const std::string& type) {
    auto t = cccl_cache::algos::parse_scalar_type(type);
    if (!t || !cccl_cache::algos::is_element_type(*t)) throw nb::value_error("unknown element type");
    HostScalar s = host_scalar(value, *t, "h_init");
    return nb::bytes(reinterpret_cast<const char*>(s.bytes), cccl_cache::algos::size_of(*t));
  }, "value"_a.none(), "type"_a, "The bytes an initial value of `type` is passed as (tests).");
  m.def("device_count", [] { return take(cccl_cache::algos::device_count()); },
        "GPUs the driver sees (0 without a driver).");
  m.def("driver_status", []() -> std::optional<std::string> {
    auto s = cccl_cache::algos::driver_status();
    if (s) return std::nullopt;
    return s.error().message;
  }, "None where the CUDA driver is usable, else why not.");
}
