// The registry's table and the generic operations each line instantiates.
#include "cccl_cache/algos/registry.hpp"

#include <array>

#include "cccl_cache/algos/core/blob.hpp"
#include "cccl_cache/algos/core/built.hpp"
#include "cccl_cache/algos/algorithm_list.hpp"

namespace cccl_cache::algos {
namespace {

template <class T>
constexpr bool kOperatorField = std::is_same_v<std::decay_t<T>, Operator>;

template <class A>
std::vector<FieldDesc> fields_of() {
  std::vector<FieldDesc> out;
  const typename A::Spec defaults{};
  A::Spec::fields(defaults, [&](const Field& f, const auto& value) {
    out.push_back(FieldDesc{std::string(f.name), f.need == Need::required,
                            kOperatorField<decltype(value)>,
                            kIsElementType<std::decay_t<decltype(value)>>, field_text(value),
                            std::is_same_v<std::decay_t<decltype(value)>, Iterator>});
  });
  return out;
}

template <class A>
Result<AnySpec> from_text(const std::vector<FieldText>& given) {
  const std::string algorithm(algorithm_name(A::Spec::kAlgorithm));
  typename A::Spec spec{};
  std::vector<bool> used(given.size(), false);
  std::optional<Error> error;
  std::string known;
  A::Spec::fields(spec, [&](const Field& f, auto& value) {
    known += (known.empty() ? "" : ", ") + std::string(f.name);
    if (error) return;
    const FieldText* text = nullptr;
    for (std::size_t i = 0; i < given.size(); ++i) {
      if (given[i].name != f.name) continue;
      if (text != nullptr) {
        error = Error{ErrorCode::invalid_argument,
                      algorithm + ": field '" + std::string(f.name) + "' given twice"};
        return;
      }
      text = &given[i];
      used[i] = true;
    }
    if (text == nullptr) {
      if (f.need == Need::required)
        error = Error{ErrorCode::invalid_argument,
                      algorithm + ": field '" + std::string(f.name) + "' is required"};
      return;
    }
    if (auto ok = parse_field(f, text->value, text->source, value); !ok)
      error = Error{ErrorCode::invalid_argument, algorithm + ": " + ok.error().message};
  });
  if (error) return tl::unexpected(*error);
  for (std::size_t i = 0; i < given.size(); ++i) {
    if (!used[i])
      return fail(ErrorCode::invalid_argument,
                  algorithm + ": unknown field '" + given[i].name + "' (known: " + known + ")");
  }
  if (auto ok = spec.validate(); !ok)
    return fail(ErrorCode::invalid_argument, algorithm + ": " + ok.error().message);
  return to_any(spec);
}

template <class A>
CacheKey key_of(std::span<const std::byte> bytes, std::uint32_t cc, const Toolchain& tc) {
  auto spec = decode_fields<typename A::Spec>(bytes);
  return spec_key(A::Spec::kAlgorithm, bytes, spec ? A::codegen_digest(*spec) : 0, cc, tc);
}

template <class A>
Result<std::vector<FieldText>> to_text(std::span<const std::byte> bytes) {
  auto spec = decode_fields<typename A::Spec>(bytes);
  if (!spec) return tl::unexpected(spec.error());
  return fields_as_text(*spec);
}

template <class A>
Result<BuildRecord> build(std::span<const std::byte> bytes, std::uint32_t cc) {
  auto spec = decode_fields<typename A::Spec>(bytes);
  if (!spec) return fail(ErrorCode::invalid_argument, spec.error().message);
  auto built = A::build(*spec, cc);
  if (!built) return tl::unexpected(built.error());
  return std::move(built->record);
}

template <class A>
Result<void> check(const BuildRecordView& record) {
  auto v = typed_view<A>(record);
  if (!v) return tl::unexpected(v.error());
  return {};
}

template <class A>
constexpr AlgorithmEntry entry() {
  return {A::Spec::kAlgorithm, algorithm_name(A::Spec::kAlgorithm), &fields_of<A>,
          A::kKernelRoles,     &policy_names<typename A::Policy>,  &from_text<A>,
          &key_of<A>,          &to_text<A>,         &build<A>,                           &check<A>};
}

#define CCCL_CACHE_ENTRY(A) entry<A>(),
const std::array kAlgorithms = {CCCL_CACHE_ALGORITHMS(CCCL_CACHE_ENTRY)};
#undef CCCL_CACHE_ENTRY

}  // namespace

std::span<const AlgorithmEntry> algorithms() { return kAlgorithms; }

const AlgorithmEntry* find_algorithm(std::string_view name) {
  for (const auto& a : kAlgorithms) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const AlgorithmEntry* find_algorithm(AlgorithmId id) {
  for (const auto& a : kAlgorithms) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

CacheKey cache_key(const AnySpec& spec, std::uint32_t cc, const Toolchain& tc) {
  const auto* a = find_algorithm(spec.algorithm);
  return a != nullptr ? a->key(spec.fields, cc, tc) : spec_key(spec.algorithm, spec.fields, 0, cc, tc);
}

std::string spec_text(const AnySpec& spec) {
  const auto* a = find_algorithm(spec.algorithm);
  if (a == nullptr) return "unknown";
  std::string out(a->name);
  auto fields = a->to_text(spec.fields);
  if (!fields) return out + " <unreadable spec>";
  for (const auto& f : *fields) out += " " + f.name + "=" + f.value;
  return out;
}

Result<BuildRecordView> check_blob(std::span<const std::byte> blob,
                                   std::optional<std::uint32_t> expected_cc) {
  auto record = parse_record(blob, expected_cc);
  if (!record) return tl::unexpected(record.error());
  const auto* a = find_algorithm(record->algorithm);
  if (a == nullptr) return fail(ErrorCode::corrupt, "build record of an unknown algorithm");
  if (auto ok = a->check_record(*record); !ok) return tl::unexpected(ok.error());
  return record;
}

}  // namespace cccl_cache::algos
