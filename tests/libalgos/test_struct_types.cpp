// Struct element types on the CPU: the layout's validation, the encoding (a scalar's
// bytes unchanged, a struct's round trip, damage rejected), key sensitivity to every
// part of a struct, each algorithm's rules and the spec text.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "cccl_cache/algos/algorithms.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/codegen.hpp"
#include "iterator_specs.hpp"
#include "struct_specs.hpp"
#include "three_way_partition_iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using namespace test_support;

namespace {

ElementType with_layout(std::string name, std::string definition, std::uint32_t size,
                        std::uint32_t alignment) {
  return ElementType::structure(std::move(name), std::move(definition), size, alignment);
}

TEST(StructTypes, LayoutIsValidatedWithClearErrors) {
  struct Case {
    ElementType type;
    const char* says;  // nullptr: valid
  };
  const std::string def = "struct s { int a; };";
  const char* kMultiple = "multiple of the alignment";
  for (const auto& c : {Case{with_layout("s", def, 4, 4), nullptr},
                        Case{with_layout("s", def, 256, 16), nullptr},
                        Case{with_layout("s", def, 12, 3), "power of two"},
                        Case{with_layout("s", def, 32, 32), "power of two"},
                        Case{with_layout("s", def, 4, 0), "power of two"},
                        Case{with_layout("s", def, 0, 4), kMultiple},
                        Case{with_layout("s", def, 6, 4), kMultiple},
                        Case{with_layout("s", def, 272, 16), "256"},
                        Case{with_layout("1s", def, 4, 4), "identifier"},
                        Case{with_layout("cccl_cache_s", def, 4, 4), "cccl_cache_"},
                        Case{with_layout("s", " \n", 4, 4), "empty"},
                        Case{with_layout("s", "#include \"s.h\"\n" + def, 4, 4), "include"}}) {
    SCOPED_TRACE(describe(c.type));
    const auto r = validate_struct("what", c.type);
    EXPECT_EQ(static_cast<bool>(r), c.says == nullptr);
    if (!r) {
      EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
      EXPECT_NE(r.error().message.find(c.says), std::string::npos) << r.error().message;
      EXPECT_NE(r.error().message.find("what: struct '"), std::string::npos) << r.error().message;
    }
  }
  EXPECT_TRUE(validate_struct("what", ScalarType::float32));
}

// A spec whose struct has a size the host dispatch has no stand-in for: unsupported,
// the message naming the sizes it takes (`takes`).
template <class Spec>
void expect_size_refused(const Spec& spec, const std::string& takes) {
  const auto refused = spec.validate();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::unsupported);
  EXPECT_NE(refused.error().message.find(takes), std::string::npos) << refused.error().message;
}

// The rules of struct items of a reduction or scan (validate_items): `spec` is valid; a
// well-known operator, an input iterator and a size without a stand-in are refused.
template <class Spec>
void expect_item_rules(const Spec& spec, const std::string& algorithm) {
  SCOPED_TRACE(algorithm);
  EXPECT_TRUE(spec.validate());
  auto summed = spec;
  summed.op = Operator::plus();
  EXPECT_EQ(summed.validate().error().code, ErrorCode::invalid_argument);
  auto counted = spec;
  counted.input = Iterator::counting(ScalarType::int32);
  EXPECT_EQ(counted.validate().error().code, ErrorCode::unsupported);
  auto wide = spec;
  wide.type = with_layout(spec.type.layout.name, "struct w { char c[20]; };", 20, 4);
  expect_size_refused(wide, algorithm + " takes structs of 1, 2, 4, 8, 12, 16, 24, 32");
}

TEST(StructTypes, EachAlgorithmsRules) {
  EXPECT_TRUE(sort_key3().validate());
  EXPECT_TRUE(sort_key3_payload().validate());
  EXPECT_TRUE(select_heavy().validate());
  // Struct keys need a custom comparator; struct items a custom predicate.
  auto by_less = sort_key3();
  by_less.comparator = Operator::less();
  EXPECT_EQ(by_less.validate().error().code, ErrorCode::invalid_argument);
  auto by_identity = select_heavy();
  by_identity.op = Operator::of(OpKind::identity);
  EXPECT_EQ(by_identity.validate().error().code, ErrorCode::invalid_argument);
  // Merge sort's host dispatch is instantiated for some sizes only: others are refused by name.
  auto odd = sort_key3();
  odd.key_type = with_layout("key3", "struct key3 { char c[20]; };", 20, 4);
  expect_size_refused(odd, "12, 16, 24, 32");
  // Select's host dispatch never touches items: any valid layout.
  auto wide = select_heavy();
  wide.type = with_layout("payload", "struct payload { double weight; char pad[120]; };", 128, 8);
  EXPECT_TRUE(wide.validate());
  // Reduce and the scans: struct items with a custom operator, an array input, a stand-in
  // size; the scans an alignment of at most 8 (the host's stand-in's).
  expect_item_rules(reduce_argmax(), "reduce");
  expect_item_rules(reduce_stats3(), "reduce");
  expect_item_rules(scan_stats3(), "inclusive_scan");
  expect_item_rules(scan_argmax(), "exclusive_scan");
  expect_item_rules(scan_quad_seeded(), "inclusive_scan");
  auto aligned16 = scan_quad_seeded();
  aligned16.type = with_layout("quad", "struct alignas(16) quad { unsigned a, b, c, d; };", 16, 16);
  auto refused = aligned16.validate();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::unsupported);
  EXPECT_NE(refused.error().message.find("aligned to at most 8"), std::string::npos)
      << refused.error().message;
  // Three-way partition: struct items with two custom predicates, any valid layout;
  // arrays or zips of their fields, no other iterator.
  EXPECT_TRUE(partition_payload().validate());
  EXPECT_TRUE(partition_positions().validate());
  auto second_identity = partition_payload();
  second_identity.second_op = Operator::of(OpKind::identity);
  EXPECT_EQ(second_identity.validate().error().code, ErrorCode::invalid_argument);
  auto reversed = partition_payload();
  reversed.unselected_output = Iterator::reverse();
  EXPECT_EQ(reversed.validate().error().code, ErrorCode::unsupported);
  auto zipped_scalars = partition_positions();
  zipped_scalars.type = ScalarType::float32;
  zipped_scalars.first_op = zipped_scalars.second_op = Operator::of(OpKind::identity);
  EXPECT_EQ(zipped_scalars.validate().error().code, ErrorCode::invalid_argument);
  auto wide_parts = partition_payload();
  wide_parts.type = wide.type;
  EXPECT_TRUE(wide_parts.validate());
  // unique_by_key: struct keys with a custom equality, struct values, any valid layout;
  // arrays or zips of their fields.
  EXPECT_TRUE(unique_key3_payload().validate());
  EXPECT_TRUE(unique_run_starts().validate());
  auto by_equal_to = unique_key3_payload();
  by_equal_to.op = Operator::of(OpKind::equal_to);
  EXPECT_EQ(by_equal_to.validate().error().code, ErrorCode::invalid_argument);
  auto scalar_keys = unique_key3_payload();
  scalar_keys.key_type = ScalarType::int32;
  scalar_keys.op = Operator::of(OpKind::equal_to);
  EXPECT_TRUE(scalar_keys.validate());  // struct values under scalar keys
  auto values_reversed = unique_key3_payload();
  values_reversed.values_out = Iterator::reverse();
  EXPECT_EQ(values_reversed.validate().error().code, ErrorCode::unsupported);
  auto wide_values = unique_key3_payload();
  wide_values.value_type = wide.type;
  EXPECT_TRUE(wide_values.validate());
  // Segmented reduce: as reduce (a custom operator, a stand-in size, arrays or zips).
  expect_item_rules(segmented_argmax(), "segmented_reduce");
  expect_item_rules(segmented_stats3(), "segmented_reduce");
  // Binary search: struct items with a custom comparator; arrays or zips.
  EXPECT_TRUE(lower_bound_key3().validate());
  auto by_less_search = lower_bound_key3();
  by_less_search.comparator = Operator::less();
  EXPECT_EQ(by_less_search.validate().error().code, ErrorCode::invalid_argument);
  auto counted_range = lower_bound_key3();
  counted_range.data_in = Iterator::counting();
  EXPECT_EQ(counted_range.validate().error().code, ErrorCode::unsupported);
  // Transforms: structs in or out with a custom operator; a zip in.
  EXPECT_TRUE(transform_weight().validate());
  EXPECT_TRUE(transform_pair().validate());
  EXPECT_TRUE(transform_weighted_positions().validate());
  auto negated = transform_weight();
  negated.op = Operator::of(OpKind::negate);
  EXPECT_EQ(negated.validate().error().code, ErrorCode::invalid_argument);
  auto added = transform_pair();
  added.op = Operator::plus();
  EXPECT_EQ(added.validate().error().code, ErrorCode::invalid_argument);
  auto scattered = transform_pair();
  scattered.output = Iterator::reverse();
  EXPECT_EQ(scattered.validate().error().code, ErrorCode::unsupported);
  // Radix and segmented sort: struct values of a stand-in size under scalar keys (the
  // keys' bits are what they order); a struct value type has no counting input.
  EXPECT_TRUE(radix_key3_values().validate());
  EXPECT_TRUE(segmented_payload_values().validate());
  EXPECT_FALSE(radix_key3_values().keys_only());
  auto odd_values = segmented_payload_values();
  odd_values.value_type = with_layout("key3", "struct key3 { char c[20]; };", 20, 4);
  expect_size_refused(odd_values, "12, 16, 24, 32");
  auto counted_values = radix_key3_values();
  counted_values.values_in = Iterator::counting(ScalarType::int64);
  EXPECT_EQ(counted_values.validate().error().code, ErrorCode::invalid_argument);
  // Scan by key: struct keys with a custom equality, struct values with a custom
  // operator, each of a stand-in size; struct values from arrays or zips.
  for (const auto& spec : {scan_by_key_argmax(), scan_by_key_key3_stats3(), scan_by_key_quads(),
                           scan_by_key_zip_argmax()})
    EXPECT_TRUE(spec.validate()) << summary(spec);
  auto equal_keys = scan_by_key_key3_stats3();
  equal_keys.equality = Operator::of(OpKind::equal_to);
  EXPECT_EQ(equal_keys.validate().error().code, ErrorCode::invalid_argument);
  auto summed = scan_by_key_quads();
  summed.op = Operator::plus();
  EXPECT_EQ(summed.validate().error().code, ErrorCode::invalid_argument);
  auto counted = scan_by_key_argmax();
  counted.values_in = Iterator::counting();
  EXPECT_EQ(counted.validate().error().code, ErrorCode::unsupported);
  auto wide_keys = scan_by_key_key3_stats3();
  wide_keys.key_type = with_layout("key3", "struct key3 { char c[20]; };", 20, 4);
  expect_size_refused(wide_keys, "12, 16, 24, 32");
  // An invalid layout is refused by every algorithm.
  auto bad = select_heavy();
  bad.type.layout.alignment = 3;
  EXPECT_FALSE(bad.validate());
}

TEST(StructTypes, ScalarElementTypesEncodeAsScalarTypesDid) {
  merge_sort::Spec s;  // float32 keys: field 1 is tag, length 1, the ScalarType byte
  const auto bytes = encode_fields(s);
  const std::vector<std::byte> keys(bytes.begin(), bytes.begin() + 6);
  EXPECT_EQ(keys, (std::vector<std::byte>{std::byte{1}, std::byte{1}, std::byte{0}, std::byte{0},
                                          std::byte{0}, std::byte{9}}));
  auto back = decode_fields<merge_sort::Spec>(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, s);
}

TEST(StructTypes, StructsRoundTripThroughTheEncoding) {
  for (const auto& spec : {sort_key3(), sort_key3_payload()}) {
    auto back = decode_fields<merge_sort::Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
  }
  auto back = decode_fields<select::Spec>(encode_fields(select_heavy()));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, select_heavy());
}

TEST(StructTypes, DamagedStructFieldsAreCorrupt) {
  const auto good = encode_fields(select_heavy());
  // Field 1 (type): tag, u32 length, then 13, size, alignment, name length, name, definition.
  auto damage = [&](auto change) {
    auto bytes = good;
    change(bytes);
    return decode_fields<select::Spec>(bytes);
  };
  // The name's length past the field's end.
  auto r = damage([](std::vector<std::byte>& b) { b[5 + 9 + 3] = std::byte{0x7f}; });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::corrupt);
  // A struct marker alone (length 1), and a scalar with trailing bytes.
  select::Spec scalar;
  auto marker = encode_fields(scalar);
  marker[5] = static_cast<std::byte>(ScalarType::structure);
  EXPECT_EQ(decode_fields<select::Spec>(marker).error().code, ErrorCode::corrupt);
  r = damage([](std::vector<std::byte>& b) { b[5] = static_cast<std::byte>(ScalarType::int32); });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::corrupt);
  // Every truncation of the field's length is an error, never a read past the bytes.
  for (std::uint32_t n = 0; n < 13; ++n) {
    auto bytes = good;
    const std::uint32_t length = 13 + 7 + static_cast<std::uint32_t>(payload().layout.definition.size());
    ASSERT_EQ(std::to_integer<std::uint32_t>(bytes[1]), length);
    bytes[1] = static_cast<std::byte>(n);
    EXPECT_FALSE(decode_fields<select::Spec>(bytes)) << n;
  }
}

TEST(StructTypes, EveryPartOfAStructChangesTheKey) {
  Toolchain tc;
  tc.cccl_version = 3005000;
  tc.nvrtc_major = tc.nvjitlink_major = 13;
  const merge_sort::Spec base = sort_key3_payload();
  std::vector<std::pair<std::string, CacheKey>> keys = {{"base", cache_key(base, 90, tc)}};
  auto vary = [&](std::string what, auto change) {
    merge_sort::Spec s = base;
    change(s);
    keys.emplace_back(std::move(what), cache_key(s, 90, tc));
  };
  vary("key name", [](auto& s) { s.key_type.layout.name = "key4"; });
  vary("key definition", [](auto& s) { s.key_type.layout.definition += " "; });
  vary("key size", [](auto& s) { s.key_type.layout.size = 16; });
  vary("key alignment", [](auto& s) { s.key_type.layout.alignment = 8; });
  vary("value definition", [](auto& s) { s.value_type.layout.definition += " "; });
  vary("value size", [](auto& s) { s.value_type.layout.size = 32; });
  vary("scalar values", [](auto& s) { s.value_type = ScalarType::uint32; });
  vary("keys and values swapped", [](auto& s) { std::swap(s.key_type, s.value_type); });
  std::set<Digest128> digests;
  for (const auto& [what, key] : keys) EXPECT_TRUE(digests.insert(key.spec).second) << what;
}

// Reduce of struct items: its spec text, and a key that each part of the struct and the
// operator's source changes (the scalar reduce's key is not one of them).
using test_support::key_toolchain;

// The keys of `spec` (struct items with a custom operator) and of it with each part of
// its struct, its operator's source and its offset type changed (to a struct of
// `other_size` bytes) all differ, from each other and from `digests`.
template <class Spec>
void expect_item_keys_differ(const Spec& spec, std::set<Digest128>& digests, std::uint32_t other_size) {
  auto vary = [&](std::string what, auto change) {
    Spec s = spec;
    change(s);
    EXPECT_TRUE(digests.insert(cache_key(s, 90, key_toolchain()).spec).second) << what;
  };
  vary("as given", [](auto&) {});
  vary("definition", [](auto& s) { s.type.layout.definition += " "; });
  vary("name", [](auto& s) { s.type.layout.name += "2"; });
  vary("size", [&](auto& s) { s.type.layout.size = other_size; });
  vary("alignment", [](auto& s) { s.type.layout.alignment = 8; });
  vary("operator source", [](auto& s) { s.op.source += " "; });
  vary("offset", [](auto& s) { s.offset_type = ScalarType::uint32; });
}

TEST(StructTypes, ReduceOfStructsHasSpecTextAndKeys) {
  const reduce::Spec want = reduce_argmax();
  auto spec = parse_spec_text("reduce type=vi:8/4 struct.vi='" + want.type.layout.definition +
                              "' op=argmax source='" + want.op.source + "'");
  ASSERT_TRUE(spec) << spec.error().describe();
  auto typed = decode_fields<reduce::Spec>(spec->fields);
  ASSERT_TRUE(typed) << typed.error().describe();
  EXPECT_EQ(*typed, want);
  EXPECT_EQ(spec_text(want), "reduce type=vi:8/4 op=argmax offset=uint64");
  std::set<Digest128> digests = {cache_key(reduce::Spec{}, 90, key_toolchain()).spec};
  expect_item_keys_differ(want, digests, 16);
}

TEST(StructTypes, ScansOfStructsHaveSpecTextAndKeys) {
  const scan::InclusiveSpec want = scan_quad_seeded();
  auto spec = parse_spec_text("inclusive_scan type=quad:16/4 struct.quad='" +
                              want.type.layout.definition + "' op=add_quad source='" +
                              want.op.source + "' init=true");
  ASSERT_TRUE(spec) << spec.error().describe();
  auto typed = decode_fields<scan::InclusiveSpec>(spec->fields);
  ASSERT_TRUE(typed) << typed.error().describe();
  EXPECT_EQ(*typed, want);
  EXPECT_EQ(spec_text(want), "inclusive_scan type=quad:16/4 op=add_quad offset=uint64 init=true");
  EXPECT_EQ(spec_text(scan_argmax()), "exclusive_scan type=vi:8/4 op=argmax offset=uint64");
  std::set<Digest128> digests = {cache_key(scan_argmax(), 90, key_toolchain()).spec};
  expect_item_keys_differ(want, digests, 32);
  auto unseeded = want;
  unseeded.init = false;
  EXPECT_TRUE(digests.insert(cache_key(unseeded, 90, key_toolchain()).spec).second);
}

TEST(StructTypes, SpecTextNamesTheLayoutAndTakesTheDefinition) {
  const merge_sort::Spec want = sort_key3_payload();
  const std::string text = "merge_sort keys=key3:12/4 values=payload:16/8 struct.key3='" +
                           want.key_type.layout.definition + "' struct.payload='" +
                           want.value_type.layout.definition + "' compare=key3_less source='" +
                           want.comparator.source + "'";
  auto spec = parse_spec_text(text);
  ASSERT_TRUE(spec) << spec.error().describe();
  auto typed = decode_fields<merge_sort::Spec>(spec->fields);
  ASSERT_TRUE(typed);
  EXPECT_EQ(*typed, want);
  EXPECT_EQ(spec_text(want),
            "merge_sort keys=key3:12/4 values=payload:16/8 compare=key3_less offset=int64");
  // The registry's text form carries the definitions, and reads back.
  const auto* entry = find_algorithm("merge_sort");
  auto fields = entry->to_text(encode_fields(want));
  ASSERT_TRUE(fields);
  EXPECT_EQ((*fields)[0].source, want.key_type.layout.definition);
  auto again = entry->from_text(*fields);
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(again->fields, encode_fields(want));
  // A manifest's operator table may hold the definition under the struct's name.
  auto from_table = parse_spec_text("select type=payload:16/8 op=heavy",
                                    {{"payload", payload().layout.definition},
                                     {"heavy", select_heavy().op.source}});
  ASSERT_TRUE(from_table) << from_table.error().describe();
  EXPECT_EQ(from_table->fields, encode_fields(select_heavy()));
  // Errors name the problem.
  auto missing = parse_spec_text("select type=payload:16/8 op=heavy source='x'");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("struct.payload"), std::string::npos) << missing.error().message;
  auto unused = parse_spec_text("select type=int32 struct.p='struct p {};'");
  ASSERT_FALSE(unused);
  EXPECT_NE(unused.error().message.find("no field uses"), std::string::npos) << unused.error().message;
  auto malformed = parse_spec_text("select type=payload:16 struct.payload='x' op=heavy source='x'");
  ASSERT_FALSE(malformed);
  EXPECT_NE(malformed.error().message.find("NAME:SIZE/ALIGN"), std::string::npos)
      << malformed.error().message;
}

TEST(StructTypes, GeneratedSourceChecksTheLayout) {
  const ElementType k = key3(), p = payload();
  const ElementType scalar = ScalarType::int32;
  const std::string src = detail::struct_source({&k, &scalar, &p, &k});
  EXPECT_NE(src.find("#line 1 \"struct key3\""), std::string::npos);
  EXPECT_NE(src.find("cccl_cache_size_check<key3, sizeof(key3), 12>"), std::string::npos) << src;
  EXPECT_NE(src.find("cccl_cache_alignment_check<payload, alignof(payload), 8>"), std::string::npos) << src;
  EXPECT_NE(src.find("is_trivially_copyable_v<payload>"), std::string::npos) << src;
  // Each struct once.
  EXPECT_EQ(src.find("struct key3 {"), src.rfind("struct key3 {"));
  EXPECT_TRUE(detail::struct_source({&scalar}).empty());
}

}  // namespace
