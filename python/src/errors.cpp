#include "errors.hpp"

#include <string>

namespace cccl_cache::python {

namespace {
PyObject* g_error = nullptr;  // cccl_cache.Error, alive as long as the module
}

void register_errors(nb::module_& m) {
  g_error = PyErr_NewException("cccl_cache.Error", PyExc_RuntimeError, nullptr);
  if (g_error == nullptr) throw nb::python_error();
  m.attr("Error") = nb::borrow(g_error);
}

void raise(const Error& e) {
  if (e.code == ErrorCode::invalid_argument) throw nb::value_error(e.message.c_str());
  nb::object exc = nb::borrow(g_error)(nb::str(e.describe().c_str()));
  exc.attr("code") = nb::str(to_string(e.code));
  PyErr_SetObject(g_error, exc.ptr());
  throw nb::python_error();
}

}  // namespace cccl_cache::python
