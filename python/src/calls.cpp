// The Python calls' plumbing (calls.hpp).
#include "calls.hpp"

#include <cstring>

namespace cccl_cache::python {

// The temp-storage array (any element type), checked against what the run needs.
Temp temp_array(nb::handle temp, std::size_t need, int device) {
  DeviceArray t = device_array(temp, "temp_storage", true);
  const std::size_t have = t.size * t.itemsize;
  if (have < need)
    throw nb::value_error(("temp_storage: " + std::to_string(have) + " bytes, the run needs " +
                           std::to_string(need))
                              .c_str());
  check_device(t, device, "temp_storage");
  return {t.data, have};
}

void require_none(nb::handle obj, const char* what, const char* why) {
  if (!obj.is_none()) throw nb::value_error((std::string(what) + ": must be None (" + why + ")").c_str());
}

// A keys-only sort's value arguments: both must be None.
void require_no_values(nb::handle values_in, nb::handle values_out) {
  require_none(values_in, "d_in_values", "the spec sorts keys only");
  require_none(values_out, "d_out_values", "the spec sorts keys only");
}

// The call's values for the spec's iterator `it` (of `arg`, e.g. "d_in" or "d_out", or a
// component "d_in[1]"; written where `output`) from the Python iterator `obj`: its kind
// must be the spec's; a start or constant (`_value`) in the iterator's type, device
// arrays (`_base`, `_index`) of its value and index types on the executable's device (an
// output's `_base` written); a zip's or nested iterator's components (`_components`)
// into `parts`, which the value points at.
algos::IteratorValue iterator_value(nb::handle obj, const std::string& arg, bool output,
                                    const algos::Iterator& it, ScalarType element, std::uint64_t n,
                                    int dev, ZipParts& parts) {
  const std::string want(algos::iterator_kind_name(it.kind));
  if (!nb::hasattr(obj, "_iterator_kind") || nb::cast<std::string>(obj.attr("_iterator_kind")) != want)
    throw nb::type_error((arg + ": the spec's " + (output ? "output" : "input") + " is a " + want +
                          " iterator: give a cccl_cache.iterators one, got " +
                          nb::cast<std::string>(obj.type().attr("__qualname__")))
                             .c_str());
  const ScalarType v = it.type == ScalarType::none ? element : it.type;
  algos::IteratorValue out{it.kind};
  if (it.kind == algos::IteratorKind::discard) return out;
  // A transform's stateful operator: its state, the bytes the Python iterator holds.
  const void* state = nullptr;
  if (it.kind == algos::IteratorKind::transform && it.op.stateful()) {
    const nb::object held = nb::getattr(obj, "_state", nb::none());
    if (!nb::isinstance<nb::bytes>(held) || nb::cast<nb::bytes>(held).size() != it.op.state_size)
      throw nb::value_error((arg + ": the spec's transform operator '" + it.op.name + "' is stateful: give the " +
                             "iterator its " + std::to_string(it.op.state_size) + " bytes of state (state=)")
                                .c_str());
    state = nb::cast<nb::bytes>(held).c_str();
  }
  if (!it.components.empty()) {
    const auto components = nb::hasattr(obj, "_components") ? nb::cast<nb::tuple>(obj.attr("_components"))
                                                             : nb::tuple();
    const std::size_t count = it.components.size();
    if (components.size() != count)
      throw nb::type_error((arg + ": the spec's " + want + " has " + std::to_string(count) +
                            " components, the " + nb::cast<std::string>(obj.type().attr("__qualname__")) +
                            " " + std::to_string(components.size()))
                               .c_str());
    if (parts.used + count > parts.values.size())
      throw nb::value_error((arg + ": more than " + std::to_string(parts.values.size()) +
                             " iterator components")
                                .c_str());
    algos::IteratorValue* values = parts.values.data() + parts.used;
    parts.used += count;
    // A permutation's values are read (written) at its indices: any length; its indices
    // are read.
    const bool permutation = it.kind == algos::IteratorKind::permutation;
    for (std::size_t k = 0; k < count; ++k) {
      const algos::Iterator& c = it.components[k];
      const std::string ck = arg + "[" + std::to_string(k) + "]";
      const bool written = output && !(permutation && k == 1);
      values[k] = c.is_pointer()
                      ? algos::IteratorValue::array(
                            checked_array(components[k], ck.c_str(), written, c.type,
                                          permutation && k == 0 ? 0 : n, dev)
                                .data)
                      : iterator_value(components[k], ck, written, c,
                                       algos::component_value_type(c), n, dev, parts);
    }
    return algos::IteratorValue::of(it.kind, std::uint64_t{count}, values).with_state(state);
  }
  if (it.kind == algos::IteratorKind::shuffle) {
    // Its domain is the call's length: reading past it would never end.
    const auto num_items = nb::cast<std::uint64_t>(obj.attr("_num_items"));
    if (num_items != n)
      throw nb::value_error((arg + ": ShuffleIterator(num_items=" + std::to_string(num_items) +
                             ") is read over " + std::to_string(n) + " items; they must agree")
                                .c_str());
    return algos::IteratorValue::shuffle(nb::cast<std::uint64_t>(obj.attr("_seed")));
  }
  const bool by_value = it.kind == algos::IteratorKind::counting || it.kind == algos::IteratorKind::constant ||
                        (it.kind == algos::IteratorKind::transform && it.counting_base);
  if (by_value) {
    const HostScalar value = host_scalar(obj.attr("_value"), v, arg.c_str());
    std::memcpy(out.value, value.bytes, sizeof out.value);
    return out.with_state(state);
  }
  // A permutation's values are read (written) at its indices: any length; the others n.
  const bool permutation = it.kind == algos::IteratorKind::permutation;
  out.pointer =
      checked_array(obj.attr("_base"), arg.c_str(), output, v, permutation ? 0 : n, dev).data;
  if (permutation)
    out.index =
        checked_array(obj.attr("_index"), (arg + " indices").c_str(), false, it.index_type, n, dev)
            .data;
  return state != nullptr ? out.with_state(state) : out;
}

// The call's input: the d_in array of the spec's type, or for a spec with an input
// iterator its values from the cccl_cache.iterators object.
algos::Input call_input(nb::handle in, const algos::Iterator& it, const algos::ElementType& type,
                        std::uint64_t n, int dev, ZipParts& parts, const char* arg) {
  if (it.is_pointer()) return checked_array(in, arg, false, type, n, dev).data;
  return iterator_value(in, arg, false, it, type.scalar, n, dev, parts);
}

// The call's output of n items, likewise.
algos::Output call_output(nb::handle out, const algos::Iterator& it, const algos::ElementType& type,
                          std::uint64_t n, int dev, ZipParts& parts, const char* arg) {
  if (it.is_pointer()) return checked_array(out, arg, true, type, n, dev).data;
  return iterator_value(out, arg, true, it, type.scalar, n, dev, parts);
}

}  // namespace cccl_cache::python
