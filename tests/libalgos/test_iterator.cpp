// Iterators without a GPU: the descriptor's canonical encoding (a pointer left out, so
// specs without iterators encode as before), its spec text, validation with errors that
// name the problem, key sensitivity, the generated iterator struct and the call's packed
// bytes (core/iterator.hpp).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/radix_sort/build_result.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/scan/build_result.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/iterator.hpp"
#include "iterator_spec_checks.hpp"
#include "iterator_specs.hpp"
#include "radix_sort/codegen.hpp"
#include "reduce/codegen.hpp"
#include "scan/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

const char* kSquare = "__device__ float square(float x) { return x * x; }";

reduce::Spec reduce_over(Iterator input, ScalarType type = ScalarType::float32) {
  return test_support::over<reduce::Spec>(type, std::move(input));
}

// One spec per supported input kind (and shape), all different.
std::vector<reduce::Spec> iterator_specs() {
  return {
      reduce_over(Iterator::counting(), ScalarType::int32),
      reduce_over(Iterator::counting(ScalarType::int64)),
      reduce_over(Iterator::counting(ScalarType::int32)),
      reduce_over(Iterator::constant()),
      reduce_over(Iterator::constant(ScalarType::int16)),
      reduce_over(Iterator::reverse()),
      reduce_over(Iterator::reverse(ScalarType::uint8)),
      reduce_over(Iterator::permutation(ScalarType::none, ScalarType::int32)),
      reduce_over(Iterator::permutation(ScalarType::float64, ScalarType::uint64)),
      reduce_over(Iterator::transform(Operator::custom("square", kSquare))),
      reduce_over(Iterator::transform(Operator::custom("square", kSquare), ScalarType::float64)),
      reduce_over(Iterator::transform(Operator::of(OpKind::negate))),
      reduce_over(Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true)),
      reduce_over(Iterator::transform(Operator::of(OpKind::negate), ScalarType::none, true),
                  ScalarType::int64),
      reduce_over(Iterator::shuffle(ScalarType::int64)),
      reduce_over(Iterator::shuffle(), ScalarType::uint32),
      reduce_over(Iterator::cache_modified(CacheLoad::cs)),
      reduce_over(Iterator::cache_modified(CacheLoad::ldg, ScalarType::float64)),
  };
}

TEST(Iterator, APointerInputIsLeftOutOfTheEncoding) {
  // reduce type=float32 op=plus offset=uint64, as encoded before iterators existed.
  const std::vector<std::uint8_t> golden = {1, 1, 0, 0, 0, 9, 2, 5, 0, 0, 0,
                                            4, 0, 0, 0, 0, 3, 1, 0, 0, 0, 8};
  const auto bytes = encode_fields(reduce::Spec{});
  ASSERT_EQ(bytes.size(), golden.size());
  EXPECT_EQ(std::memcmp(bytes.data(), golden.data(), golden.size()), 0);
  EXPECT_EQ(spec_text(reduce::Spec{}), "reduce type=float32 op=plus offset=uint64");
  auto back = decode_fields<reduce::Spec>(bytes);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, reduce::Spec{});
}

TEST(Iterator, EveryKindRoundTripsThroughBytesAndText) {
  for (const auto& spec : iterator_specs()) {
    SCOPED_TRACE(spec_text(spec));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    const auto bytes = encode_fields(spec);
    auto back = decode_fields<reduce::Spec>(bytes);
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    // Spec text, a custom operator's source given as a custom operator field's is.
    SpecFields fields = {{"type", describe(spec.type)}, {"input", field_text(spec.input)}};
    if (spec.input.op.kind == OpKind::custom) fields["source"] = spec.input.op.source;
    auto parsed = spec_from_fields("reduce", fields);
    ASSERT_TRUE(parsed) << parsed.error().describe();
    EXPECT_EQ(*parsed, to_any(spec));
  }
}

TEST(Iterator, SpecTextNamesTheIterator) {
  EXPECT_EQ(spec_text(reduce_over(Iterator::counting(ScalarType::int64))),
            "reduce type=float32 op=plus offset=uint64 input=counting(int64)");
  EXPECT_EQ(describe(Iterator::transform(Operator::custom("square", kSquare))),
            "transform(square)");
  EXPECT_EQ(describe(Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true)),
            "transform(negate,counting(int32))");
  EXPECT_EQ(describe(Iterator::permutation(ScalarType::none, ScalarType::int32)),
            "permutation(none,int32)");
  auto s = parse_spec_text("reduce type=float32 input=transform(square) source='" +
                           std::string(kSquare) + "'");
  ASSERT_TRUE(s) << s.error().describe();
  EXPECT_EQ(*s, to_any(reduce_over(Iterator::transform(Operator::custom("square", kSquare)))));
  // A transform's custom operator without source is named.
  auto no_source = parse_spec_text("reduce type=float32 input=transform(square)");
  ASSERT_FALSE(no_source);
  EXPECT_NE(no_source.error().message.find("square"), std::string::npos);
  for (const char* bad : {"counting(", "counting()", "sideways", "counting(int32,int32)",
                          "permutation(int32)", "transform()", "pointer(int32)",
                          "constant(float33)", "transform(negate,counting(float77))"}) {
    auto r = parse_spec_text(std::string("reduce type=float32 input=") + bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().message.find("input"), std::string::npos) << r.error().message;
  }
}

TEST(Iterator, BadCombinationsAreRefusedWithTheirReason) {
  struct Case {
    Iterator it;
    ErrorCode code;
    const char* says;
  };
  Iterator stray_index = Iterator::counting();
  stray_index.index_type = ScalarType::int32;
  Iterator stray_op = Iterator::constant();
  stray_op.op = Operator::of(OpKind::negate);
  Iterator typed_pointer;
  typed_pointer.type = ScalarType::int32;
  const Case cases[] = {
      {Iterator::counting(ScalarType::float32), ErrorCode::invalid_argument, "integer type"},
      {Iterator::permutation(ScalarType::none, ScalarType::none), ErrorCode::invalid_argument,
       "needs an index type"},
      {Iterator::permutation(ScalarType::none, ScalarType::int8), ErrorCode::invalid_argument,
       "index type must be"},
      {stray_index, ErrorCode::invalid_argument, "only a permutation"},
      {stray_op, ErrorCode::invalid_argument, "only a transform"},
      {typed_pointer, ErrorCode::invalid_argument, "pointer iterator takes no"},
      {Iterator::transform(Operator::plus()), ErrorCode::invalid_argument, "unary"},
      {Iterator::transform(Operator::of(OpKind::bit_not)), ErrorCode::invalid_argument,
       "bit_not does not apply to float32"},
      {Iterator::transform(Operator::custom("f", "__device__ float f(void*, float);", 4, 8)),
       ErrorCode::invalid_argument, "operator state 4/8: the size must be a multiple of the alignment"},
      {Iterator::transform(Operator::custom("1f", "x")), ErrorCode::invalid_argument, "identifier"},
  };
  for (const auto& c : cases) {
    const auto spec = reduce_over(c.it);
    SCOPED_TRACE(describe(c.it));
    auto ok = spec.validate();
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.error().code, c.code) << ok.error().message;
    EXPECT_NE(ok.error().message.find(c.says), std::string::npos) << ok.error().message;
    EXPECT_NE(ok.error().message.find("input"), std::string::npos) << ok.error().message;
  }
}

TEST(Iterator, DamagedIteratorBytesAreRejected) {
  const auto spec = reduce_over(Iterator::transform(Operator::custom("square", kSquare)));
  const auto bytes = encode_fields(spec);
  const std::size_t field = test_support::expect_iterator_truncations_rejected<reduce::Spec>(bytes);
  auto with = [&](std::size_t at, std::uint8_t v) {
    return test_support::decode_with_byte<reduce::Spec>(bytes, at, v);
  };
  EXPECT_FALSE(with(field + 5, 10));        // unknown kind
  EXPECT_FALSE(with(field + 6, 200));       // unknown type
  EXPECT_FALSE(with(field + 8, 2));         // counting_base not a bool
  EXPECT_FALSE(with(field + 9, 3 | 0x80));  // operator state flag without a layout
  // A pointer written out is not canonical (the writer leaves it out).
  auto pointer = encode_fields(reduce::Spec{});
  for (std::uint8_t b : {4, 4, 0, 0, 0, 0, 0, 0, 0}) pointer.push_back(std::byte{b});
  auto r = decode_fields<reduce::Spec>(pointer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::corrupt);
}

TEST(Iterator, EveryIteratorChangesTheKey) {
  const Toolchain tc = test_support::key_toolchain();
  std::vector<CacheKey> keys = {cache_key(reduce::Spec{}, 90, tc)};
  for (const auto& spec : iterator_specs()) keys.push_back(cache_key(spec, 90, tc));
  // A transform's custom operator's source counts.
  keys.push_back(
      cache_key(reduce_over(Iterator::transform(Operator::custom("square",
                                                                 "__device__ float square(float x) "
                                                                 "{ return x * x + 0; }"))),
                90, tc));
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
}

TEST(Iterator, TheGeneratedSourceReadsTheIteratorInPlaceOfTheArray) {
  using Steps = detail::BuildSteps<Reduce>;
  const auto plain = Steps::source(reduce::Spec{});
  EXPECT_EQ(plain.source.find("cccl_cache_in_t"), std::string::npos);
  const auto sq =
      Steps::source(reduce_over(Iterator::transform(Operator::custom("square", kSquare))));
  EXPECT_NE(sq.source.find("struct cccl_cache_in_t_op"), std::string::npos);
  EXPECT_NE(sq.source.find("struct cccl_cache_in_t {"), std::string::npos);
  EXPECT_NE(sq.source.find(kSquare), std::string::npos);
  EXPECT_NE(
      sq.kernels[0].find("DeviceReduceSingleTileKernel<cccl_cache_single_tile, cccl_cache_in_t,"),
      std::string::npos);
  EXPECT_NE(sq.kernels[1].find("cccl_cache_first_pass, true, cccl_cache_in_t,"), std::string::npos);
  EXPECT_EQ(sq.kernels[2], plain.kernels[2]);  // the second pass reads the partials
  // Each kind's layout (iterator.hpp).
  EXPECT_NE(
      detail::iterator_struct("it", Iterator::counting(ScalarType::int64), ScalarType::float32)
          .find("  long start;\n"),
      std::string::npos);
  EXPECT_NE(detail::iterator_struct("it", Iterator::reverse(), ScalarType::float32)
                .find("  const float* end;\n"),
            std::string::npos);
  EXPECT_NE(
      detail::iterator_struct("it", Iterator::permutation(ScalarType::none, ScalarType::uint32),
                              ScalarType::int32)
          .find("  const ::cuda::std::int32_t* values;\n  const ::cuda::std::uint32_t* idx;\n"),
      std::string::npos);
  // The key's codegen digest covers the iterator's shape, not its operator's name.
  const auto a =
      Reduce::codegen_digest(reduce_over(Iterator::transform(Operator::custom("square", kSquare))));
  const auto b = Reduce::codegen_digest(reduce_over(
      Iterator::transform(Operator::custom("sq", "__device__ float sq(float x) { return x; }"))));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, Reduce::codegen_digest(reduce::Spec{}));
  EXPECT_NE(Reduce::codegen_digest(reduce_over(Iterator::counting())),
            Reduce::codegen_digest(reduce_over(Iterator::constant())));
}

// The key of a spec with an iterator covers the host packing (pack_iterator's layout,
// which the struct's text does not show): its generated source starts the iterator with
// the packing's line; a pointer spec's source has none, so its key does not depend on
// it. The lines are pinned here with the layout the next test checks byte by byte:
// change both together (and so every iterator spec's key).
TEST(Iterator, TheKeyCoversTheHostPackingOfIteratorsOnly) {
  using Steps = detail::BuildSteps<Reduce>;
  EXPECT_EQ(Steps::source(reduce::Spec{}).source.find("host packing"), std::string::npos);
  for (const auto& spec : iterator_specs()) {
    const std::string packing = detail::iterator_packing(spec.input);
    ASSERT_FALSE(packing.empty()) << describe(spec.input);
    EXPECT_NE(Steps::source(spec).source.find(packing), std::string::npos) << describe(spec.input);
  }
  EXPECT_EQ(detail::iterator_packing(Iterator{}), "");
  const std::string tail = "; 16 bytes aligned 16, the rest zero\n";
  const std::string head = "// cccl-cache host packing 1: ";
  EXPECT_EQ(detail::iterator_packing(Iterator::counting()), head + "V start@0" + tail);
  EXPECT_EQ(detail::iterator_packing(Iterator::constant()), head + "V value@0" + tail);
  EXPECT_EQ(detail::iterator_packing(Iterator::reverse()),
            head + "V* end@0 (first + num_items)" + tail);
  EXPECT_EQ(detail::iterator_packing(Iterator::permutation(ScalarType::none, ScalarType::int32)),
            head + "V* values@0, I* idx@8" + tail);
  EXPECT_EQ(detail::iterator_packing(Iterator::transform(Operator::of(OpKind::negate))),
            head + "V* p@0" + tail);
  EXPECT_EQ(detail::iterator_packing(
                Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true)),
            head + "V start@0" + tail);
  static_assert(sizeof(detail::IteratorArg) == 16 * kMaxZipComponents &&
                alignof(detail::IteratorArg) == 16);
}

TEST(Iterator, TheCallsValuesArePackedInTheDocumentedLayout) {
  detail::IteratorArg arg;
  const std::int64_t start = -5;
  ASSERT_TRUE(detail::pack_iterator(Iterator::counting(ScalarType::int64), ScalarType::float32,
                                    IteratorValue::counting(start), 10, arg));
  std::int64_t got = 0;
  std::memcpy(&got, arg.bytes, 8);
  EXPECT_EQ(got, start);
  // reverse: the end of num_items elements of the value type.
  alignas(8) static const double values[4] = {};
  ASSERT_TRUE(detail::pack_iterator(Iterator::reverse(), ScalarType::float64,
                                    IteratorValue::reverse(values), 4, arg));
  const void* end = nullptr;
  std::memcpy(&end, arg.bytes, sizeof end);
  EXPECT_EQ(end, values + 4);
  static const int index[4] = {};
  ASSERT_TRUE(detail::pack_iterator(Iterator::permutation(ScalarType::none, ScalarType::int32),
                                    ScalarType::float64, IteratorValue::permutation(values, index),
                                    4, arg));
  const void* p[2] = {};
  std::memcpy(p, arg.bytes, sizeof p);
  EXPECT_EQ(p[0], values);
  EXPECT_EQ(p[1], index);
  // constant and a transform over counting: the value at 0; a transform over an array:
  // its pointer at 0; the rest zero.
  ASSERT_TRUE(detail::pack_iterator(Iterator::constant(ScalarType::int16), ScalarType::int32,
                                    IteratorValue::constant(std::int16_t{-2}), 3, arg));
  std::int16_t c = 0;
  std::memcpy(&c, arg.bytes, 2);
  EXPECT_EQ(c, -2);
  for (std::size_t i = 2; i < sizeof arg.bytes; ++i) EXPECT_EQ(arg.bytes[i], 0) << i;
  ASSERT_TRUE(detail::pack_iterator(
      Iterator::transform(Operator::of(OpKind::negate), ScalarType::int32, true), ScalarType::int32,
      IteratorValue::of(IteratorKind::transform, std::int32_t{9}), 3, arg));
  std::int32_t t = 0;
  std::memcpy(&t, arg.bytes, 4);
  EXPECT_EQ(t, 9);
  ASSERT_TRUE(detail::pack_iterator(Iterator::transform(Operator::of(OpKind::negate)),
                                    ScalarType::float64, IteratorValue::transform(values), 3, arg));
  std::memcpy(&end, arg.bytes, sizeof end);
  EXPECT_EQ(end, values);
  // A value of another kind is refused.
  EXPECT_FALSE(detail::pack_iterator(Iterator::counting(), ScalarType::int32,
                                     IteratorValue::constant(1), 1, arg));
  EXPECT_FALSE(detail::pack_iterator(Iterator::reverse(), ScalarType::int32,
                                     IteratorValue::array(values), 1, arg));
}

// A call's input (iterator.hpp Input): an array for a pointer spec, else the spec's kind
// packed into the call's stack bytes; a value of another kind is refused.
TEST(Iterator, AnInputIsTheArrayOrTheSpecsKindPacked) {
  static const float values[4] = {};
  detail::IteratorArg packed;
  const void* address = nullptr;
  ASSERT_TRUE(detail::iterator_address(Iterator{}, ScalarType::float32, Input(values).value, 4, packed,
                                    address));
  EXPECT_EQ(address, static_cast<const void*>(values));
  ASSERT_TRUE(detail::iterator_address(Iterator::reverse(), ScalarType::float32,
                                    IteratorValue::reverse(values), 4, packed, address));
  EXPECT_EQ(address, static_cast<const void*>(packed.bytes));
  const void* end = nullptr;
  std::memcpy(&end, packed.bytes, sizeof end);
  EXPECT_EQ(end, static_cast<const void*>(values + 4));
  EXPECT_FALSE(detail::iterator_address(Iterator{}, ScalarType::float32,
                                     IteratorValue::counting(1), 4, packed, address));
  EXPECT_FALSE(detail::iterator_address(Iterator::counting(), ScalarType::int32, Input(values).value, 4,
                                     packed, address));
  EXPECT_FALSE(detail::iterator_address(Iterator::counting(), ScalarType::int32,
                                     IteratorValue::constant(1), 4, packed, address));
}

// The scans take the same input iterators: left out of the encoding as a pointer (array
// scans keep their keys), named in the spec text, in every key, and read by the scan
// kernels (and CUB's tuning) in place of the array.
template <class Spec>
Spec scan_over(Iterator input, ScalarType type = ScalarType::float32) {
  return test_support::over<Spec>(type, std::move(input));
}

template <class Spec>
void check_scan_inputs(const char* name) {
  SCOPED_TRACE(name);
  const Toolchain tc = test_support::key_toolchain();
  const Spec plain{};
  EXPECT_EQ(spec_text(plain).find("input"), std::string::npos);
  std::vector<CacheKey> keys = {cache_key(plain, 90, tc)};
  for (const auto& r : iterator_specs()) {
    const Spec spec = scan_over<Spec>(r.input, r.type.scalar);
    SCOPED_TRACE(spec_text(spec));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    auto back = decode_fields<Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    EXPECT_NE(spec_text(spec).find(" input=" + describe(spec.input)), std::string::npos);
    SpecFields fields = {{"type", describe(spec.type)}, {"input", field_text(spec.input)}};
    if (spec.input.op.kind == OpKind::custom) fields["source"] = spec.input.op.source;
    auto parsed = spec_from_fields(name, fields);
    ASSERT_TRUE(parsed) << parsed.error().describe();
    EXPECT_EQ(*parsed, to_any(spec));
    keys.push_back(cache_key(spec, 90, tc));
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
  // The same checks as reduce's input, named by the field.
  auto bad = scan_over<Spec>(Iterator::counting(ScalarType::float32));
  ASSERT_FALSE(bad.validate());
  EXPECT_NE(bad.validate().error().message.find("input"), std::string::npos);
  // The generated source: both kernels and the policy selector read the iterator.
  using Steps = detail::BuildSteps<typename Spec::Algorithm>;
  const auto array = Steps::source(plain);
  EXPECT_EQ(array.source.find("cccl_cache_in_t"), std::string::npos);
  const auto sq =
      Steps::source(scan_over<Spec>(Iterator::transform(Operator::custom("square", kSquare))));
  EXPECT_NE(sq.source.find("struct cccl_cache_in_t {"), std::string::npos);
  EXPECT_NE(sq.source.find(kSquare), std::string::npos);
  EXPECT_NE(sq.source.find("policy_selector_from_types<\n    cccl_cache_in_t, cccl_cache_t*"),
            std::string::npos);
  ASSERT_EQ(sq.kernels.size(), array.kernels.size());
  for (const auto& k : sq.kernels)
    EXPECT_NE(k.find("cccl_cache_selector, cccl_cache_in_t, cccl_cache_t*,"), std::string::npos)
        << k;
}

TEST(Iterator, ScansTakeEveryInputIterator) {
  check_scan_inputs<scan::InclusiveSpec>("inclusive_scan");
  check_scan_inputs<scan::ExclusiveSpec>("exclusive_scan");
}

// Radix sort's value input (an argsort's counting values): a value array is left out of
// the encoding, so existing radix sort specs encode and key as before.
radix_sort::Spec argsort(Iterator values_in) {
  radix_sort::Spec s;
  s.key_type = ScalarType::float32;
  s.value_type = ScalarType::uint32;
  s.values_in = std::move(values_in);
  return s;
}

TEST(RadixSortValuesIn, AValueArrayIsLeftOutOfTheEncoding) {
  // radix_sort keys=float32 values=uint32 offset=uint32, as encoded before values_in.
  const std::vector<std::uint8_t> golden = {1, 1, 0, 0, 0, 9, 2, 1, 0, 0, 0, 7,
                                            3, 1, 0, 0, 0, 0, 4, 1, 0, 0, 0, 7};
  const auto bytes = encode_fields(argsort(Iterator{}));
  ASSERT_EQ(bytes.size(), golden.size());
  EXPECT_EQ(std::memcmp(bytes.data(), golden.data(), golden.size()), 0);
  EXPECT_EQ(spec_text(argsort(Iterator{})),
            "radix_sort keys=float32 values=uint32 descending=false offset=uint32");
  auto back = decode_fields<radix_sort::Spec>(bytes);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, argsort(Iterator{}));
}

TEST(RadixSortValuesIn, TheValueInputChangesTheKey) {
  const Toolchain tc = test_support::key_toolchain();
  auto wider = argsort(Iterator::counting());
  wider.value_type = ScalarType::int64;
  const CacheKey keys[] = {cache_key(argsort(Iterator{}), 90, tc),
                           cache_key(argsort(Iterator::counting()), 90, tc),
                           cache_key(argsort(Iterator::counting(ScalarType::uint32)), 90, tc),
                           cache_key(argsort(Iterator::counting(ScalarType::int64)), 90, tc),
                           cache_key(wider, 90, tc)};
  for (std::size_t i = 0; i < std::size(keys); ++i)
    for (std::size_t j = i + 1; j < std::size(keys); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
}

TEST(RadixSortValuesIn, ACountingValueInputIsEncodedReadAndNamedInSpecText) {
  for (const auto& it : {Iterator::counting(), Iterator::counting(ScalarType::int64)}) {
    const auto spec = argsort(it);
    SCOPED_TRACE(describe(it));
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    EXPECT_GT(encode_fields(spec).size(), encode_fields(argsort(Iterator{})).size());
    const std::string text =
        "radix_sort keys=float32 values=uint32 descending=false offset=uint32 values_in=" +
        describe(it);
    EXPECT_EQ(spec_text(spec), text);
    auto back = decode_fields<radix_sort::Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    const AlgorithmEntry* entry = find_algorithm("radix_sort");
    ASSERT_NE(entry, nullptr);
    auto parsed = entry->from_text(fields_as_text(spec));
    ASSERT_TRUE(parsed) << parsed.error().describe();
    EXPECT_EQ(parsed->fields, encode_fields(spec));
    EXPECT_EQ(algos::spec_text(*parsed), text);
  }
}

// Counting only (over an integer type), and only with a value type to sort.
TEST(RadixSortValuesIn, OtherValueInputsAreRefusedByName) {
  struct Case {
    radix_sort::Spec spec;
    ErrorCode code;
  };
  auto keys_only = argsort(Iterator::counting());
  keys_only.value_type = ScalarType::none;
  auto float_values = argsort(Iterator::counting());
  float_values.value_type = ScalarType::float32;
  const Case cases[] = {
      {keys_only, ErrorCode::invalid_argument},
      {float_values, ErrorCode::invalid_argument},
      {argsort(Iterator::counting(ScalarType::float64)), ErrorCode::invalid_argument},
      {argsort(Iterator::constant()), ErrorCode::unsupported},
      {argsort(Iterator::reverse()), ErrorCode::unsupported},
      {argsort(Iterator::permutation(ScalarType::uint32, ScalarType::int32)), ErrorCode::unsupported},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(describe(c.spec.values_in));
    for (const auto& ok :
         {c.spec.validate(),
          decode_fields<radix_sort::Spec>(encode_fields(c.spec)).map([](auto&&) {})}) {
      ASSERT_FALSE(ok);
      EXPECT_EQ(ok.error().code, c.code);
      EXPECT_NE(ok.error().message.find("values_in"), std::string::npos) << ok.error().message;
    }
  }
}

}  // namespace
