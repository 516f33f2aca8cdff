// cccl_cache.Spec: spec text (the CLI's syntax, tools/cccl-cache/spec_text.hpp) and
// fields, both through the registry.
#include <map>
#include <string>

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

#include "bound.hpp"
#include "errors.hpp"
#include "spec_text.hpp"

namespace cccl_cache::python {

namespace {

const algos::AlgorithmEntry& entry_of(const PySpec& s) { return *algos::find_algorithm(s.any.algorithm); }

nb::dict fields_of(const PySpec& s) {
  nb::dict out;
  for (const auto& f : take(entry_of(s).to_text(s.any.fields))) out[f.name.c_str()] = f.value;
  return out;
}

nb::dict operators_of(const PySpec& s) {
  nb::dict out;
  for (const auto& f : take(entry_of(s).to_text(s.any.fields)))
    if (!f.source.empty()) out[algos::definition_name(f.value).c_str()] = f.source;
  return out;
}

}  // namespace

void bind_spec(nb::module_& m) {
  using namespace nb::literals;
  nb::class_<PySpec>(m, "Spec",
                     "A validated algorithm spec, e.g. Spec('merge_sort keys=float32'). Spec text is "
                     "the CLI's: the algorithm, then field=value (missing optional fields take their "
                     "defaults); a custom operator's source comes from `operators` (name -> CUDA C++).")
      .def(
          "__init__",
          [](PySpec* self, const std::string& text, const std::map<std::string, std::string>& ops) {
            new (self) PySpec{take(cli::parse_spec_text(text, ops))};
          },
          "text"_a, "operators"_a = std::map<std::string, std::string>{})
      .def_static(
          "from_fields",
          [](const std::string& algorithm, const std::map<std::string, std::string>& fields,
             const std::map<std::string, std::string>& ops) {
            for (const char* reserved : {"source", "source_file"})
              if (fields.count(reserved))
                throw nb::value_error("from_fields: give custom operator sources in `operators`");
            return PySpec{take(cli::spec_from_fields(algorithm, fields, ops))};
          },
          "algorithm"_a, "fields"_a, "operators"_a = std::map<std::string, std::string>{},
          "The spec of `algorithm` from field name -> value text.")
      .def_prop_ro("algorithm", [](const PySpec& s) { return std::string(algos::algorithm_name(s.any.algorithm)); })
      .def_prop_ro("text", [](const PySpec& s) { return algos::spec_text(s.any); },
                   "Canonical spec text (custom operators by name).")
      .def_prop_ro("fields", &fields_of, "Field name -> value text, every field, in order.")
      .def_prop_ro("operators", &operators_of, "Custom operator name -> source.")
      .def(
          "key", [](const PySpec& s, std::uint32_t cc) { return algos::cache_key(s.any, cc).to_string(); },
          "cc"_a, "The store key of this spec for sm_<cc> (cc = 90 for sm_90) with this process's toolchain.")
      .def("__str__", [](const PySpec& s) { return algos::spec_text(s.any); })
      .def("__repr__", [](const PySpec& s) { return "Spec('" + algos::spec_text(s.any) + "')"; })
      .def("__eq__", [](const PySpec& a, const PySpec& b) { return a.any == b.any; }, nb::is_operator())
      .def("__hash__", [](const PySpec& s) {
        return nb::hash(nb::bytes(reinterpret_cast<const char*>(s.any.fields.data()), s.any.fields.size()));
      });
}

}  // namespace cccl_cache::python
