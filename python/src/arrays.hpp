// Arguments of the Python module: device arrays (__cuda_array_interface__ or DLPack),
// streams and host scalars, checked against an executable's spec. Every check throws
// a Python TypeError (not a device array, wrong element type) or ValueError (too few
// items, not contiguous, read-only output, wrong device, host memory) naming the
// argument; nothing here crashes on a malformed object.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include <nanobind/nanobind.h>

#include "cccl_cache/algos/types.hpp"

namespace cccl_cache::python {

namespace nb = nanobind;
using algos::ScalarType;

// A contiguous device array as its producer described it.
struct DeviceArray {
  void* data = nullptr;
  std::uint64_t size = 0;              // elements
  std::size_t itemsize = 0;            // bytes per element
  std::optional<ScalarType> type;      // nullopt: not one of our element types (bool, complex)
  std::optional<int> device;           // DLPack says; __cuda_array_interface__ does not
  const char* type_name = "";          // the producer's spelling, for messages ("<c8", "bool")
};

// `obj` as a device array: __cuda_array_interface__ (v0..v3) first, else DLPack
// (__dlpack__, through nanobind). TypeError for None, an object that is neither, a
// host (CPU) array or a masked one; ValueError for non-contiguous strides, a read-only
// array where `writable`, or a malformed interface. `what` names the argument.
DeviceArray device_array(nb::handle obj, const char* what, bool writable);

// TypeError unless a.type == want ("d_in_keys: float64 array, the spec needs float32").
void check_type(const DeviceArray& a, ScalarType want, const char* what);
// ValueError unless a.size >= n.
void check_size(const DeviceArray& a, std::uint64_t n, const char* what);
// ValueError unless the array's memory is on `device` (a DLPack device id, else one
// driver query of the pointer; host memory is refused too). Skipped for empty arrays.
void check_device(const DeviceArray& a, int device, const char* what);

// A device array of element type `want` with at least `n` items on `device`, all checked.
DeviceArray checked_array(nb::handle obj, const char* what, bool writable, ScalarType want,
                          std::uint64_t n, int device);
// The same for a spec's element type; for a struct, an array of items of its size whose
// dtype is no scalar type (a NumPy structured dtype: typestr "|V<size>"; TypeError else).
DeviceArray checked_array(nb::handle obj, const char* what, bool writable,
                          const algos::ElementType& want, std::uint64_t n, int device);

// A stream argument: None (0, the legacy default stream), an int handle, an object with
// __cuda_stream__ (a method or attribute giving (version, handle)), .cuda_stream
// (PyTorch) or .ptr (CuPy). TypeError otherwise.
CUstream stream_handle(nb::handle obj);

// One element of `type` on the host, for initial values: a Python bool/int/float
// (ints range-checked: OverflowError; floats only for float types: TypeError) or a
// one-element host buffer (NumPy scalar or array) of exactly that type.
struct HostScalar {
  alignas(8) unsigned char bytes[8] = {};
};
HostScalar host_scalar(nb::handle obj, ScalarType type, const char* what);
// The same for a spec's element type: a scalar as host_scalar, a struct's value a
// one-element host buffer (a NumPy structured scalar or array) of exactly its size.
struct HostValue {
  alignas(16) unsigned char bytes[algos::kMaxStructSize] = {};
};
HostValue host_value(nb::handle obj, const algos::ElementType& type, const char* what);

// Whether `obj` is a device array rather than a host value: it has a
// __cuda_array_interface__, or its __dlpack_device__ names CUDA or CUDA-managed memory
// (a NumPy array's names the CPU). For arguments that take either (a scan's h_init).
bool is_device_value(nb::handle obj);

// Our element type of a NumPy-style type string or DLPack dtype ("<f4" -> float32);
// nullopt if none. For the Python layer's factories.
std::optional<ScalarType> type_of_typestr(const char* typestr);

}  // namespace cccl_cache::python
