// Specs through the C ABI: spec text (the registry's syntax) and the plain struct, both
// ending in the registry's from_text, so that errors name the spec-text field.
#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/spec_text.hpp"
#include "handles.hpp"

namespace cccl_cache::capi {
namespace {

using algos::AlgorithmId;
using algos::FieldText;

static_assert(CCCL_CACHE_MERGE_SORT == static_cast<int>(AlgorithmId::merge_sort));
static_assert(CCCL_CACHE_REDUCE == static_cast<int>(AlgorithmId::reduce));
static_assert(CCCL_CACHE_INCLUSIVE_SCAN == static_cast<int>(AlgorithmId::inclusive_scan));
static_assert(CCCL_CACHE_EXCLUSIVE_SCAN == static_cast<int>(AlgorithmId::exclusive_scan));
static_assert(CCCL_CACHE_UNARY_TRANSFORM == static_cast<int>(AlgorithmId::unary_transform));
static_assert(CCCL_CACHE_BINARY_TRANSFORM == static_cast<int>(AlgorithmId::binary_transform));
static_assert(CCCL_CACHE_RADIX_SORT == static_cast<int>(AlgorithmId::radix_sort));
static_assert(CCCL_CACHE_SEGMENTED_REDUCE == static_cast<int>(AlgorithmId::segmented_reduce));
static_assert(CCCL_CACHE_UNIQUE_BY_KEY == static_cast<int>(AlgorithmId::unique_by_key));
static_assert(CCCL_CACHE_SELECT == static_cast<int>(AlgorithmId::select));
static_assert(CCCL_CACHE_THREE_WAY_PARTITION == static_cast<int>(AlgorithmId::three_way_partition));
static_assert(CCCL_CACHE_HISTOGRAM_EVEN == static_cast<int>(AlgorithmId::histogram_even));
static_assert(CCCL_CACHE_BINARY_SEARCH == static_cast<int>(AlgorithmId::binary_search));
static_assert(CCCL_CACHE_SEGMENTED_SORT == static_cast<int>(AlgorithmId::segmented_sort));
static_assert(CCCL_CACHE_SCAN_BY_KEY == static_cast<int>(AlgorithmId::scan_by_key));
static_assert(CCCL_CACHE_FOR_EACH == static_cast<int>(AlgorithmId::for_each));
static_assert(CCCL_CACHE_OP_EQUAL_TO == static_cast<int>(algos::OpKind::equal_to));
static_assert(CCCL_CACHE_BFLOAT16 == static_cast<int>(algos::ScalarType::bfloat16));
static_assert(CCCL_CACHE_BOOL == static_cast<int>(algos::ScalarType::boolean));
static_assert(CCCL_CACHE_FLOAT32 == static_cast<int>(algos::ScalarType::float32));
static_assert(CCCL_CACHE_OP_NEGATE == static_cast<int>(algos::OpKind::negate));
static_assert(CCCL_CACHE_OP_CUSTOM == static_cast<int>(algos::OpKind::custom));
static_assert(CCCL_CACHE_OP_BIT_NOT == static_cast<int>(algos::OpKind::bit_not));

// The spec-text field names of the struct's members for one algorithm (nullptr: the
// algorithm does not take that member).
struct FieldNames {
  AlgorithmId algorithm;
  const char* type;
  const char* value_type;
  const char* in2_type;
  const char* out_type;
  const char* op;
  const char* offset_type;
  const char* descending;
  const char* op2;  // a second operator (cccl_cache_spec_desc::op2)
};

constexpr FieldNames kFieldNames[] = {
    {AlgorithmId::merge_sort, "keys", "values", nullptr, nullptr, "compare", "offset", nullptr, nullptr},
    {AlgorithmId::radix_sort, "keys", "values", nullptr, nullptr, nullptr, "offset", "descending", nullptr},
    {AlgorithmId::reduce, "type", nullptr, nullptr, nullptr, "op", "offset", nullptr, nullptr},
    {AlgorithmId::inclusive_scan, "type", nullptr, nullptr, nullptr, "op", "offset", "init", nullptr},
    {AlgorithmId::exclusive_scan, "type", nullptr, nullptr, nullptr, "op", "offset", nullptr, nullptr},
    {AlgorithmId::unary_transform, "in", nullptr, nullptr, "out", "op", nullptr, nullptr, nullptr},
    {AlgorithmId::binary_transform, "in1", nullptr, "in2", "out", "op", nullptr, nullptr, nullptr},
    {AlgorithmId::segmented_reduce, "type", nullptr, nullptr, nullptr, "op", "offset", nullptr, nullptr},
    {AlgorithmId::unique_by_key, "keys", "values", nullptr, "selected", "op", "offset", nullptr, nullptr},
    {AlgorithmId::select, "type", nullptr, nullptr, "selected", "op", "offset", nullptr, nullptr},
    {AlgorithmId::three_way_partition, "type", nullptr, nullptr, "selected", "first_op", "offset", nullptr,
     "second_op"},
    {AlgorithmId::histogram_even, "type", "level", nullptr, "counter", nullptr, "offset", nullptr, nullptr},
    {AlgorithmId::binary_search, "type", nullptr, nullptr, "out", "compare", nullptr, "upper", nullptr},
    {AlgorithmId::segmented_sort, "keys", "values", nullptr, nullptr, nullptr, "offset", "descending", nullptr},
    {AlgorithmId::scan_by_key, "keys", "values", nullptr, nullptr, "op", "offset", "exclusive", "equality"},
    {AlgorithmId::for_each, "type", nullptr, nullptr, nullptr, "op", "offset", nullptr, nullptr},
};

// A C enum member read as the int the caller stored: C callers may store any int in it,
// and loading an out-of-range value through the C++ enum type is undefined.
template <class Enum>
int raw(const Enum& member) {
  static_assert(sizeof(Enum) == sizeof(int));
  int value = 0;
  std::memcpy(&value, &member, sizeof value);
  return value;
}

class DescReader {
 public:
  explicit DescReader(std::string algorithm) : algorithm_(std::move(algorithm)) {}

  // Adds member `member` (spec-text field `field`) if set; an error if the algorithm
  // does not take it.
  Result<void> type(const char* member, const char* field, int value) {
    if (value == CCCL_CACHE_TYPE_NONE) return {};
    CCCL_CACHE_CHECK(takes(member, field));
    const auto t = static_cast<algos::ScalarType>(value);
    if (!algos::is_element_type(t)) {
      return fail(ErrorCode::invalid_argument, algorithm_ + ": " + member + " = " +
                                                   std::to_string(value) +
                                                   " is not a cccl_cache_type");
    }
    fields_.push_back({field, std::string(algos::name(t)), {}});
    return {};
  }

  // Adds operator member `member` (spec-text field `field`) if set.
  // A stateful CUSTOM one as spec text writes it, its layout after the name (name:SIZE/ALIGN).
  Result<void> op(const char* member, const char* field, const cccl_cache_op& op) {
    const int op_kind = raw(op.kind);
    const bool layout = op.state_size != 0 || op.state_alignment != 0;
    if (op_kind == CCCL_CACHE_OP_DEFAULT && op.name == nullptr && op.source == nullptr && !layout)
      return {};
    CCCL_CACHE_CHECK(takes(member, field));
    if (op_kind == CCCL_CACHE_OP_CUSTOM) {
      if (op.name == nullptr || op.source == nullptr)
        return fail(ErrorCode::invalid_argument,
                    algorithm_ + ": " + member + ": a CUSTOM operator needs its name and source");
      std::string name = op.name;
      if (layout)
        name += ":" + std::to_string(op.state_size) + "/" + std::to_string(op.state_alignment);
      fields_.push_back({field, std::move(name), op.source});
      return {};
    }
    if (layout)
      return fail(ErrorCode::invalid_argument, algorithm_ + ": " + member +
                                                   ": only a CUSTOM operator has a state "
                                                   "(leave state_size and state_alignment zero)");
    const auto kind = static_cast<algos::OpKind>(op_kind);
    const auto text = algos::op_kind_name(kind);
    if (op.name != nullptr || op.source != nullptr || !algos::parse_op_kind(text)) {
      return fail(ErrorCode::invalid_argument,
                  algorithm_ + ": " + member + ": kind " + std::to_string(op_kind) +
                      (op_kind == CCCL_CACHE_OP_DEFAULT || algos::parse_op_kind(text)
                           ? " takes no name or source (only CUSTOM does)"
                           : " is not a cccl_cache_op_kind"));
    }
    fields_.push_back({field, std::string(text), {}});
    return {};
  }

  Result<void> flag(const char* field, int value) {
    if (value == 0) return {};
    CCCL_CACHE_CHECK(takes("descending", field));
    if (value != 1)
      return fail(ErrorCode::invalid_argument,
                  algorithm_ + ": descending (" + field + ") must be 0 or 1");
    fields_.push_back({field, "true", {}});
    return {};
  }

  std::vector<FieldText>& fields() { return fields_; }

 private:
  Result<void> takes(const char* member, const char* field) const {
    if (field != nullptr) return {};
    return fail(ErrorCode::invalid_argument, algorithm_ + ": the spec has no field for " + member +
                                                 " (leave it zero; cccl_cache.h lists each "
                                                 "algorithm's fields)");
  }
  std::string algorithm_;
  std::vector<FieldText> fields_;
};

Result<algos::AnySpec> from_desc(const cccl_cache_spec_desc& d) {
  const FieldNames* names = nullptr;
  const int algorithm = raw(d.algorithm);
  for (const auto& n : kFieldNames) names = static_cast<int>(n.algorithm) == algorithm ? &n : names;
  const auto* entry = names ? algos::find_algorithm(names->algorithm) : nullptr;
  if (entry == nullptr) {
    return fail(ErrorCode::invalid_argument,
                "spec: algorithm " + std::to_string(algorithm) +
                    " is not a cccl_cache_algorithm_kind (known: " + algos::known_algorithms() + ")");
  }
  DescReader r{std::string(entry->name)};
  CCCL_CACHE_CHECK(r.type("type", names->type, raw(d.type)));
  CCCL_CACHE_CHECK(r.type("value_type", names->value_type, raw(d.value_type)));
  CCCL_CACHE_CHECK(r.type("in2_type", names->in2_type, raw(d.in2_type)));
  CCCL_CACHE_CHECK(r.type("out_type", names->out_type, raw(d.out_type)));
  CCCL_CACHE_CHECK(r.op("op", names->op, d.op));
  CCCL_CACHE_CHECK(r.op("op2", names->op2, d.op2));
  CCCL_CACHE_CHECK(r.type("offset_type", names->offset_type, raw(d.offset_type)));
  CCCL_CACHE_CHECK(r.flag(names->descending, d.descending));
  return entry->from_text(r.fields());
}

cccl_cache_status make_spec(Result<algos::AnySpec> any, cccl_cache_spec** out) {
  if (!any) return set_error(any.error());
  auto spec = std::make_unique<cccl_cache_spec>();
  spec->text = algos::spec_text(*any);
  spec->any = std::move(*any);
  *out = spec.release();
  return CCCL_CACHE_OK;
}

}  // namespace
}  // namespace cccl_cache::capi

using namespace cccl_cache;
using namespace cccl_cache::capi;

extern "C" {

cccl_cache_status cccl_cache_spec_parse(const char* text, cccl_cache_spec** out) {
  return guarded("cccl_cache_spec_parse", [&] {
    if (out == nullptr) return null_argument("cccl_cache_spec_parse", "out");
    *out = nullptr;
    if (text == nullptr) return null_argument("cccl_cache_spec_parse", "text");
    return make_spec(algos::parse_spec_text(text), out);
  });
}

cccl_cache_status cccl_cache_spec_from_desc(const cccl_cache_spec_desc* desc,
                                            cccl_cache_spec** out) {
  return guarded("cccl_cache_spec_from_desc", [&] {
    if (out == nullptr) return null_argument("cccl_cache_spec_from_desc", "out");
    *out = nullptr;
    if (desc == nullptr) return null_argument("cccl_cache_spec_from_desc", "desc");
    return make_spec(from_desc(*desc), out);
  });
}

const char* cccl_cache_spec_text(const cccl_cache_spec* spec) {
  return spec == nullptr ? nullptr : spec->text.c_str();
}

cccl_cache_algorithm_kind cccl_cache_spec_algorithm(const cccl_cache_spec* spec) {
  return spec == nullptr ? cccl_cache_algorithm_kind{}
                         : static_cast<cccl_cache_algorithm_kind>(spec->any.algorithm);
}

cccl_cache_status cccl_cache_spec_key(const cccl_cache_spec* spec, uint32_t cc, char* buf,
                                      size_t size) {
  return guarded("cccl_cache_spec_key", [&] {
    if (spec == nullptr) return null_argument("cccl_cache_spec_key", "spec");
    if (buf == nullptr) return null_argument("cccl_cache_spec_key", "buf");
    const std::string key = algos::cache_key(spec->any, cc).to_string();
    if (key.size() + 1 > size) {
      return set_error(CCCL_CACHE_ERROR_INVALID_ARGUMENT,
                       "cccl_cache_spec_key: buf holds " + std::to_string(size) + " bytes, the key needs " +
                           std::to_string(key.size() + 1) + " (use CCCL_CACHE_KEY_SIZE)");
    }
    key.copy(buf, key.size());
    buf[key.size()] = '\0';
    return CCCL_CACHE_OK;
  });
}

void cccl_cache_spec_free(cccl_cache_spec* spec) { delete spec; }

}  // extern "C"
