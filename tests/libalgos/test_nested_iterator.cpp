// Nested iterators without a GPU (a transform over an iterator, a permutation over
// iterators): spec bytes, text and keys; refusals naming the problem; the generated
// structs; the call's values packed into the nested layout and advanced.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/iterator.hpp"
#include "iterator_spec_checks.hpp"
#include "nested_iterator_specs.hpp"
#include "reduce/codegen.hpp"
#include "scan/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using namespace test_support;

namespace {

Iterator array(ScalarType t) { return Iterator::array(t); }
const Operator kNegate = Operator::of(OpKind::negate);

// Reduce inputs over nested iterators, all different, with their spec text.
struct Shape {
  ScalarType type;
  Iterator input;
  const char* text;
};
std::vector<Shape> shapes() {
  return {
      {ScalarType::int64, dot_product().input, "transform(multiplies,zip(int32,int32))"},
      {ScalarType::int64, shuffled_running_sum().input, "permutation(int64,shuffle(int64))"},
      {ScalarType::int64, strided_counts().input,
       "permutation(counting(int64),transform(times3,counting(int64)))"},
      {ScalarType::int64, running_madd().input,
       "transform(madd,zip(int64,reverse(int64),constant(int64)))"},
      {ScalarType::float64, negated_gather().input, "transform(negate,permutation(float64,int32))"},
      {ScalarType::float64,
       Iterator::transform_of(kNegate, Iterator::reverse(ScalarType::float32), ScalarType::float64),
       "transform(negate,reverse(float32),float64)"},
      {ScalarType::int64,
       Iterator::transform_of(times3(), Iterator::transform_of(kNegate, Iterator::shuffle(ScalarType::int64))),
       "transform(times3,transform(negate,shuffle(int64)))"},
      {ScalarType::float32,
       Iterator::permutation_of(Iterator::cache_modified(CacheLoad::ldg, ScalarType::float32),
                                array(ScalarType::uint32)),
       "permutation(cache_modified(ldg,float32),uint32)"},
      {ScalarType::int64, reversed_counts().input, "reverse(transform(times3,counting(int64)))"},
      {ScalarType::int64, reversed_gather().input, "reverse(permutation(int64,shuffle(int64)))"},
      {ScalarType::float64, Iterator::reverse_of(Iterator::transform(kNegate, ScalarType::float32)),
       "reverse(transform(negate,float32))"},
  };
}

TEST(NestedIterator, EveryShapeRoundTripsThroughBytesAndTextAndKeysDiffer) {
  std::vector<CacheKey> keys = {cache_key(reduce::Spec{}, 90, key_toolchain())};
  const OperatorTable ops = {{"madd", madd().source}, {"times3", times3().source}};
  for (const auto& s : shapes()) {
    const auto spec = over<reduce::Spec>(s.type, s.input);
    SCOPED_TRACE(s.text);
    ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
    EXPECT_EQ(describe(s.input), s.text);
    auto back = decode_fields<reduce::Spec>(encode_fields(spec));
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, spec);
    auto parsed = parse_spec_text("reduce type=" + std::string(name(s.type)) + " input=" + s.text, ops);
    ASSERT_TRUE(parsed) << parsed.error().describe();
    auto decoded = decode_fields<reduce::Spec>(parsed->fields);
    ASSERT_TRUE(decoded) << decoded.error().describe();
    EXPECT_EQ(*decoded, spec);
    keys.push_back(cache_key(spec, 90, key_toolchain()));
  }
  // Two arrays stay the two-array permutation's text (and encoding).
  auto parsed = parse_spec_text("reduce type=float32 input=permutation(float32,int32)", ops);
  ASSERT_TRUE(parsed);
  auto decoded = decode_fields<reduce::Spec>(parsed->fields);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->input, Iterator::permutation(ScalarType::float32, ScalarType::int32));
  // The base's operator source, the components' order and the output role count.
  keys.push_back(cache_key(over<reduce::Spec>(ScalarType::int64,
                                              Iterator::transform_of(Operator::of(OpKind::plus),
                                                                     dot_product().input.components[0])),
                           90, key_toolchain()));
  keys.push_back(cache_key(over<reduce::Spec>(ScalarType::int64,
                                              Iterator::permutation_of(array(ScalarType::int64),
                                                                       Iterator::shuffle(ScalarType::int32))),
                           90, key_toolchain()));
  auto other_source = running_madd();
  other_source.input.op.source += " ";
  keys.push_back(cache_key(other_source, 90, key_toolchain()));
  keys.push_back(cache_key(scattered_running_sum(), 90, key_toolchain()));
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
}

// Spec text nested far deeper than a valid tree is refused before the parse recurses.
TEST(NestedIterator, DeeplyNestedSpecTextIsRefusedNotRecursedInto) {
  std::string text;
  for (int k = 0; k < 100000; ++k) text += "transform(negate,";
  text += "shuffle(int64)" + std::string(100000, ')');
  auto parsed = parse_spec_text("reduce type=int64 input=" + text, {});
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().message.find("nested more than 4 deep"), std::string::npos) << parsed.error().message;
  auto zips = parse_spec_text("reduce type=int64 input=" + std::string(50000, '(') + std::string(50000, ')'), {});
  EXPECT_FALSE(zips);
}

TEST(NestedIterator, AScanWritesThroughAPermutationByAnIndexIterator) {
  const auto spec = scattered_running_sum();
  ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
  EXPECT_NE(spec_text(spec).find(" output=permutation(int32,shuffle(int64))"), std::string::npos)
      << spec_text(spec);
  auto back = decode_fields<scan::InclusiveSpec>(encode_fields(spec));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, spec);
}

TEST(NestedIterator, WhatCannotNestIsRefusedByName) {
  struct Case {
    Iterator it;
    bool output;
    ErrorCode code;
    const char* says;
  };
  const Iterator two = Iterator::zip({array(ScalarType::int64), array(ScalarType::int64)});
  Iterator deep = Iterator::shuffle(ScalarType::int64);
  for (int k = 0; k < 4; ++k) deep = Iterator::transform_of(kNegate, deep);
  const Operator other = Operator::custom("twice", "__device__ long long twice(long long x) { return 2 * x; }");
  const Case cases[] = {
      {Iterator::transform_of(kNegate, array(ScalarType::int64)), false, ErrorCode::invalid_argument,
       "written transform(OP,V)"},
      {Iterator::transform_of(kNegate, Iterator::counting(ScalarType::int64)), false,
       ErrorCode::invalid_argument, "transform(OP,counting(V))"},
      {Iterator::permutation_of(array(ScalarType::int64), array(ScalarType::int32)), false,
       ErrorCode::invalid_argument, "written permutation(V,I)"},
      {Iterator::permutation_of(array(ScalarType::int64), Iterator::constant(ScalarType::float32)), false,
       ErrorCode::invalid_argument, "indices must be int32, uint32, int64 or uint64, not float32"},
      {Iterator::permutation_of(two, array(ScalarType::int32)), false, ErrorCode::unsupported, "a zip here"},
      {Iterator::transform_of(kNegate, two), false, ErrorCode::invalid_argument, "binary kind"},
      {Iterator::transform_of(Operator::of(OpKind::multiplies), Iterator::reverse(ScalarType::int64)), false,
       ErrorCode::invalid_argument, "unary"},
      {Iterator::transform_of(Operator::of(OpKind::multiplies),
                              Iterator::zip({array(ScalarType::int64), array(ScalarType::int64),
                                             array(ScalarType::int64)})),
       false, ErrorCode::invalid_argument, "custom (of 3 arguments)"},
      {Iterator::transform_of(Operator::of(OpKind::bit_and),
                              Iterator::zip({array(ScalarType::float32), array(ScalarType::int32)})),
       false, ErrorCode::invalid_argument, "bit_and does not apply to float32"},
      {Iterator::permutation_of(Iterator::transform_of(madd(), Iterator::zip({array(ScalarType::int64),
                                                                              array(ScalarType::int64),
                                                                              array(ScalarType::int64)})),
                                array(ScalarType::int32)),
       false, ErrorCode::invalid_argument, "transform(OP,zip(...),V)"},
      {Iterator::transform_of(times3(), Iterator::transform(other, ScalarType::int64, true)), false,
       ErrorCode::invalid_argument, "share one source"},
      {deep, false, ErrorCode::unsupported, "nested more than 4 deep"},
      {Iterator::transform_of(madd(), Iterator::zip(std::vector<Iterator>(
                                          3, Iterator::permutation_of(array(ScalarType::int64),
                                                                      Iterator::shuffle(ScalarType::int64))))),
       false, ErrorCode::unsupported, "the iterator's state is 192 bytes, more than 128"},
      {Iterator::permutation_of(Iterator::shuffle(ScalarType::int64), array(ScalarType::int32)), false,
       ErrorCode::unsupported, "permutation's values: a shuffle iterator is not supported here"},
      {Iterator::permutation_of(Iterator::transform_of(kNegate, Iterator::reverse(ScalarType::int64)),
                                array(ScalarType::int32)),
       false, ErrorCode::unsupported, "a reverse iterator is not supported here"},
      {Iterator::transform_of(kNegate, Iterator::reverse(ScalarType::int64)), true, ErrorCode::unsupported,
       "an output transform iterator writes an array"},
      {Iterator::permutation_of(Iterator::counting(ScalarType::int64), array(ScalarType::int32)), true,
       ErrorCode::unsupported, "writes its values to an array"},
      {Iterator::permutation_of(array(ScalarType::int64), Iterator::transform(times3(), ScalarType::none, true)),
       false, ErrorCode::invalid_argument, "a component names its value type"},
      {Iterator::reverse_of(array(ScalarType::int64)), false, ErrorCode::invalid_argument,
       "a reverse over an array is written reverse(V)"},
      {Iterator::reverse_of(two), false, ErrorCode::unsupported, "reverse each component: zip(reverse(V0)"},
      {Iterator::reverse_of(Iterator::counting(ScalarType::int64)), true, ErrorCode::unsupported,
       "an output reverse iterator writes an array"},
      {Iterator::permutation_of(Iterator::reverse_of(Iterator::counting(ScalarType::int64)),
                                array(ScalarType::int32)),
       false, ErrorCode::unsupported, "permutation's values: a reverse iterator is not supported here"},
      {Iterator::reverse_of(Iterator::transform(times3(), ScalarType::none, true)), false,
       ErrorCode::invalid_argument, "a component names its value type"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(describe(c.it));
    auto spec = over<scan::InclusiveSpec>(ScalarType::int64, c.output ? Iterator{} : c.it);
    if (c.output) spec.output = c.it;
    auto ok = spec.validate();
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.error().code, c.code) << ok.error().message;
    EXPECT_NE(ok.error().message.find(c.says), std::string::npos) << ok.error().message;
    EXPECT_NE(ok.error().message.find(c.output ? "'output'" : "'input'"), std::string::npos)
        << ok.error().message;
  }
}

// Where a role refuses a kind (segmented reduce's input: reverse and shuffle, whose lengths
// only the offsets know), it refuses it nested too.
TEST(NestedIterator, ARoleThatRefusesAKindRefusesItNested) {
  for (const Iterator& nested :
       {Iterator::transform_of(kNegate, Iterator::reverse(ScalarType::int64)),
        Iterator::reverse_of(Iterator::counting(ScalarType::int64)),
        Iterator::permutation_of(array(ScalarType::int64), Iterator::shuffle(ScalarType::int64)),
        Iterator::transform_of(Operator::of(OpKind::plus),
                               Iterator::zip({array(ScalarType::int64), Iterator::reverse(ScalarType::int64)}))}) {
    SCOPED_TRACE(describe(nested));
    segmented_reduce::Spec s;
    s.type = ScalarType::int64;
    s.input = nested;
    auto ok = s.validate();
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.error().code, ErrorCode::unsupported) << ok.error().message;
    EXPECT_NE(ok.error().message.find("iterator is not supported here"), std::string::npos) << ok.error().message;
    s.input = Iterator::transform_of(kNegate, Iterator::constant(ScalarType::int64));
    EXPECT_TRUE(s.validate());
  }
  // So does a zip over its struct items.
  segmented_reduce::Spec s;
  s.type = ElementType::structure("vi", "struct vi { float v; int i; };", 8, 4);
  s.op = Operator::custom("mx", "__device__ vi mx(vi a, vi b) { return a.v > b.v ? a : b; }");
  s.input = Iterator::zip({array(ScalarType::float32), Iterator::counting(ScalarType::int32)});
  ASSERT_TRUE(s.validate()) << s.validate().error().describe();
  s.input.components[0] = Iterator::reverse(ScalarType::float32);
  auto ok = s.validate();
  ASSERT_FALSE(ok);
  EXPECT_NE(ok.error().message.find("zip component 0: a reverse iterator is not supported here"), std::string::npos)
      << ok.error().message;
}

TEST(NestedIterator, TheGeneratedStructsCallTheOperatorOnTheBasesElements) {
  const std::string dot = detail::iterator_struct("it", dot_product().input, ScalarType::int64);
  EXPECT_NE(dot.find("struct it_0 {"), std::string::npos) << dot;
  EXPECT_NE(dot.find("  it_0 c0;\n  it_1 c1;\n"), std::string::npos) << dot;
  EXPECT_NE(dot.find("static_cast<long>(it_op{}(c0[i], c1[i]))"), std::string::npos) << dot;
  EXPECT_NE(dot.find("cuda::std::multiplies"), std::string::npos) << dot;
  const std::string three = detail::iterator_struct("it", running_madd().input, ScalarType::int64);
  EXPECT_NE(three.find("template <class... T>"), std::string::npos) << three;
  EXPECT_NE(three.find("return madd(a...);"), std::string::npos) << three;
  const std::string gather = detail::iterator_struct("it", shuffled_running_sum().input, ScalarType::int64);
  EXPECT_NE(gather.find("  it_0 values;\n  it_1 idx;\n"), std::string::npos) << gather;
  EXPECT_NE(gather.find("values[idx[i]]"), std::string::npos) << gather;
  EXPECT_NE(gather.find("return idx.position();"), std::string::npos) << gather;
  const std::string scatter =
      detail::output_iterator_struct("out", scattered_running_sum().output, ScalarType::int32);
  EXPECT_NE(scatter.find("  ::cuda::std::int32_t* values;\n  out_1 idx;\n"), std::string::npos) << scatter;
  EXPECT_NE(scatter.find("reference{values + idx[i]}"), std::string::npos) << scatter;
  const std::string reversed = detail::iterator_struct("it", reversed_counts().input, ScalarType::int64);
  EXPECT_NE(reversed.find("  it_0 base;\n  long long last;\n"), std::string::npos) << reversed;
  EXPECT_NE(reversed.find("base[last - i]"), std::string::npos) << reversed;
  EXPECT_NE(reversed.find("last -= n;"), std::string::npos) << reversed;
  EXPECT_NE(reversed.find("static_assert(sizeof(it_0) == 8 && sizeof(it) == 16 && alignof(it) == 8"),
            std::string::npos)
      << reversed;
  // The key covers the nested packing's line.
  EXPECT_EQ(detail::iterator_packing(shuffled_running_sum().input).rfind(
                "// cccl-cache host packing 1: permutation c0 int64 {V* p@0}@0, c1 int64 {u64 pos@0", 0),
            0u)
      << detail::iterator_packing(shuffled_running_sum().input);
}

TEST(NestedIterator, TheCallsValuesArePackedInTheNestedLayoutAndAdvanced) {
  alignas(8) static const std::int64_t values[8] = {};
  detail::IteratorArg arg;
  // permutation(int64, shuffle(int64)): the values' pointer at 0, the shuffle's state at 8.
  const IteratorValue parts[] = {IteratorValue::array(values), IteratorValue::shuffle(7)};
  const Iterator gather = shuffled_running_sum().input;
  ASSERT_TRUE(detail::pack_iterator(gather, ScalarType::int64, IteratorValue::permutation_of(parts), 100, arg));
  const void* p = nullptr;
  std::memcpy(&p, arg.bytes, sizeof p);
  EXPECT_EQ(p, values);
  const detail::ShuffleState want = detail::shuffle_state(100, 7);
  EXPECT_EQ(std::memcmp(arg.bytes + 8, &want, sizeof want), 0);
  EXPECT_EQ(detail::argument_extent(gather, ScalarType::int64).size, 8 + sizeof want);
  // Advancing moves the indices (the shuffle's position), not the values.
  detail::advance_packed(gather, ScalarType::int64, arg.bytes, 5);
  std::memcpy(&p, arg.bytes, sizeof p);
  EXPECT_EQ(p, values);
  std::uint64_t pos = 0;
  std::memcpy(&pos, arg.bytes + 8, sizeof pos);
  EXPECT_EQ(pos, 5u);
  // transform(madd, zip(int64, reverse(int64), constant(int64))): the zip's layout.
  const IteratorValue zipped[] = {IteratorValue::array(values), IteratorValue::reverse(values),
                                  IteratorValue::constant(std::int64_t{-3})};
  const IteratorValue zip = IteratorValue::zip(zipped, 3);
  ASSERT_TRUE(detail::pack_iterator(running_madd().input, ScalarType::int64, IteratorValue::transform_of(&zip),
                                    8, arg));
  const void* q[2] = {};
  std::int64_t c = 0;
  std::memcpy(q, arg.bytes, sizeof q);
  std::memcpy(&c, arg.bytes + 16, sizeof c);
  EXPECT_EQ(q[0], values);
  EXPECT_EQ(q[1], values + 8);
  EXPECT_EQ(c, -3);
  // reverse(permutation(int64, shuffle(int64))): the permutation at 0, last (n - 1) after it;
  // advancing moves last back and leaves the base.
  const Iterator reversed = reversed_gather().input;
  const IteratorValue permuted = IteratorValue::permutation_of(parts);
  ASSERT_TRUE(detail::pack_iterator(reversed, ScalarType::int64, IteratorValue::reverse_of(&permuted), 100, arg));
  const std::size_t at = 8 + sizeof want;
  EXPECT_EQ(detail::argument_extent(reversed, ScalarType::int64).size, at + 8);
  std::int64_t last = 0;
  std::memcpy(&last, arg.bytes + at, sizeof last);
  EXPECT_EQ(last, 99);
  EXPECT_EQ(std::memcmp(arg.bytes + 8, &want, sizeof want), 0);
  detail::advance_packed(reversed, ScalarType::int64, arg.bytes, 5);
  std::memcpy(&last, arg.bytes + at, sizeof last);
  EXPECT_EQ(last, 94);
  EXPECT_EQ(std::memcmp(arg.bytes + 8, &want, sizeof want), 0);
  EXPECT_NE(detail::iterator_packing(reversed).find(", i64 last@64 (num_items - 1)"), std::string::npos)
      << detail::iterator_packing(reversed);
  // An array's reverse value for the nested form is refused.
  EXPECT_FALSE(detail::pack_iterator(reversed, ScalarType::int64, IteratorValue::reverse(values), 100, arg));
  // A value of another shape is refused: an old-form value, a wrong count, a wrong kind.
  EXPECT_FALSE(detail::pack_iterator(gather, ScalarType::int64, IteratorValue::permutation(values, values), 8, arg));
  EXPECT_FALSE(detail::pack_iterator(running_madd().input, ScalarType::int64, IteratorValue::transform(values), 8,
                                     arg));
  const IteratorValue wrong[] = {IteratorValue::array(values), IteratorValue::counting(std::int64_t{0})};
  EXPECT_FALSE(detail::pack_iterator(gather, ScalarType::int64, IteratorValue::permutation_of(wrong), 8, arg));
}

TEST(NestedIterator, DamagedNestedBytesAreRejected) {
  const auto spec = over<reduce::Spec>(ScalarType::int64, running_madd().input);
  const auto bytes = encode_fields(spec);
  const std::size_t field = expect_iterator_truncations_rejected<reduce::Spec>(bytes);
  EXPECT_FALSE(decode_with_byte<reduce::Spec>(bytes, field + 8, 3));  // base marker not 0, 1 or 2
  EXPECT_FALSE(decode_with_byte<reduce::Spec>(bytes, field + 12, 0xff));  // the base's length past the end
}

}  // namespace
