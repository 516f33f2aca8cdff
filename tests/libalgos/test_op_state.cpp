// Stateful custom operators without a GPU: the state layout's validation, canonical
// encoding and spec text, which algorithms take state, the generated operator struct,
// and the call's state checked against the layout (core/launch.hpp op_state_arg).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cccl_cache/algos/binary_search/spec.hpp"
#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/merge_sort/spec.hpp"
#include "cccl_cache/algos/reduce/spec.hpp"
#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/scan/spec.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"
#include "cccl_cache/algos/select/spec.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "cccl_cache/algos/three_way_partition/build_result.hpp"
#include "cccl_cache/algos/transform/spec.hpp"
#include "cccl_cache/algos/unique_by_key/spec.hpp"
#include "core/codegen.hpp"
#include "core/launch.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

const char* kScaledPlus =
    "__device__ float scaled_plus(void* s, float a, float b) { return a + b * *(float*)s; }";

Operator scaled_plus(std::uint32_t size = 4, std::uint32_t alignment = 4) {
  return Operator::custom("scaled_plus", kScaledPlus, size, alignment);
}

reduce::Spec reduce_with(Operator op) {
  return {ScalarType::float32, std::move(op), ScalarType::uint64};
}

TEST(OpState, LayoutIsValidatedWithClearErrors) {
  struct Case {
    std::uint32_t size, alignment;
    const char* says;  // nullptr: valid
  };
  const char* kMultiple = "multiple of the alignment";
  for (const Case c :
       {Case{4, 4, nullptr}, Case{1, 1, nullptr}, Case{1024, 16, nullptr}, Case{24, 8, nullptr},
        Case{4, 3, "power of two"}, Case{32, 32, "power of two"}, Case{0, 4, kMultiple},
        Case{6, 4, kMultiple}, Case{2048, 16, "1024"}, Case{4, 0, "power of two"}}) {
    SCOPED_TRACE(std::to_string(c.size) + "/" + std::to_string(c.alignment));
    const auto r = reduce_with(scaled_plus(c.size, c.alignment)).validate();
    EXPECT_EQ(static_cast<bool>(r), c.says == nullptr);
    if (!r) {
      EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
      EXPECT_NE(r.error().message.find(c.says), std::string::npos) << r.error().message;
      EXPECT_NE(r.error().message.find("operator state"), std::string::npos) << r.error().message;
    }
  }
  Operator well_known = Operator::plus();
  well_known.state_size = well_known.state_alignment = 4;
  EXPECT_FALSE(reduce_with(well_known).validate());
}

TEST(OpState, EveryAlgorithmThatTakesAnOperatorTakesState) {
  EXPECT_TRUE(reduce_with(scaled_plus()).validate());
  transform::Spec<2> binary;
  binary.op = scaled_plus();
  EXPECT_TRUE(binary.validate());
  select::Spec sel{
      ScalarType::float32,
      Operator::custom("above",
                       "__device__ bool above(void* s, float x) { return x > *(float*)s; }", 4, 4)};
  EXPECT_TRUE(sel.validate());
  merge_sort::Spec sort;
  sort.comparator = Operator::custom(
      "less_mod", "__device__ bool less_mod(void* s, float a, float b) { return a < b; }", 8, 8);
  EXPECT_TRUE(sort.validate());
  scan::Spec<AlgorithmId::inclusive_scan> inclusive{ScalarType::float32, scaled_plus(),
                                                    ScalarType::uint64};
  EXPECT_TRUE(inclusive.validate());
  scan::Spec<AlgorithmId::exclusive_scan> exclusive{ScalarType::float32, scaled_plus(),
                                                    ScalarType::uint64};
  EXPECT_TRUE(exclusive.validate());
  EXPECT_TRUE((segmented_reduce::Spec{ScalarType::float32, scaled_plus()}.validate()));
  unique_by_key::Spec unique;
  unique.key_type = ScalarType::float32;
  unique.op = sort.comparator;
  EXPECT_TRUE(unique.validate());
  three_way_partition::Spec partition;
  partition.type = ScalarType::float32;
  partition.first_op = sel.op;
  EXPECT_TRUE(partition.validate());
  partition.second_op = sel.op;
  EXPECT_TRUE(partition.validate());
  // Binary search's comparator rides in DeviceFind's search functor, its state with it.
  binary_search::Spec search;
  search.comparator = sort.comparator;
  EXPECT_TRUE(search.validate());
}

// Three-way partition's two predicates carry their layouts apart: each round-trips, and
// the key tells which predicate holds which layout.
TEST(OpState, TwoPredicatesKeepTheirOwnLayouts) {
  const auto pred = [](std::uint32_t size, std::uint32_t alignment) {
    return Operator::custom("p", "__device__ bool p(void* s, int x) { return x > 0; }", size,
                            alignment);
  };
  three_way_partition::Spec both;
  both.first_op = pred(4, 4);
  both.second_op = pred(16, 8);
  ASSERT_TRUE(both.validate());
  auto back = decode_fields<three_way_partition::Spec>(encode_fields(both));
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, both);
  three_way_partition::Spec swapped = both;
  std::swap(swapped.first_op, swapped.second_op);
  three_way_partition::Spec first_only = both;
  first_only.second_op = pred(0, 0);
  const std::vector<CacheKey> keys = {cache_key(both, 90), cache_key(swapped, 90),
                                      cache_key(first_only, 90)};
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
}

TEST(OpState, LayoutRoundTripsThroughTheEncodingAndStatelessBytesAreUnchanged) {
  const reduce::Spec stateful = reduce_with(scaled_plus(8, 8));
  const auto bytes = encode_fields(stateful);
  auto back = decode_fields<reduce::Spec>(bytes);
  ASSERT_TRUE(back) << back.error().describe();
  EXPECT_EQ(*back, stateful);
  EXPECT_EQ(back->op.state_size, 8u);
  EXPECT_EQ(back->op.state_alignment, 8u);
  // A stateless operator encodes as before state existed: kind, name length, name, source.
  const reduce::Spec stateless = reduce_with(Operator::custom("f", "src"));
  const auto plain = encode_fields(stateless);
  const std::vector<std::byte> op_field(plain.begin() + 6, plain.begin() + 6 + 5 + 1 + 4 + 1 + 3);
  const std::vector<std::byte> expected = {std::byte{2},   std::byte{9},   std::byte{0},
                                           std::byte{0},   std::byte{0},  // tag, length
                                           std::byte{3},   std::byte{1},   std::byte{0},
                                           std::byte{0},   std::byte{0},  // custom, name size
                                           std::byte{'f'}, std::byte{'s'}, std::byte{'r'},
                                           std::byte{'c'}};
  EXPECT_EQ(op_field, expected);
  EXPECT_NE(encode_fields(reduce_with(scaled_plus(4, 4))),
            encode_fields(reduce_with(scaled_plus(8, 4))));
  EXPECT_NE(encode_fields(reduce_with(scaled_plus(8, 4))),
            encode_fields(reduce_with(scaled_plus(8, 8))));
}

TEST(OpState, SpecTextWritesTheLayoutAfterTheName) {
  const auto spec = parse_spec_text(std::string("reduce type=float32 op=scaled_plus:8/8 source='") +
                                    kScaledPlus + "'");
  ASSERT_TRUE(spec) << spec.error().describe();
  auto typed = decode_fields<reduce::Spec>(spec->fields);
  ASSERT_TRUE(typed);
  EXPECT_EQ(typed->op, scaled_plus(8, 8));
  EXPECT_EQ(spec_text(*typed), "reduce type=float32 op=scaled_plus:8/8 offset=uint64");
  // The [operators] table is looked up by the name.
  const auto from_table =
      parse_spec_text("reduce type=float32 op=scaled_plus:4/4", {{"scaled_plus", kScaledPlus}});
  ASSERT_TRUE(from_table) << from_table.error().describe();
  // ... under the name definition_name gives a field's value (what embedders key sources by).
  EXPECT_EQ(definition_name("scaled_plus:4/4"), "scaled_plus");
  EXPECT_EQ(definition_name("abs_less"), "abs_less");
  EXPECT_EQ(definition_name("pair:8/4"), "pair");
  EXPECT_EQ(definition_name("transform(negate,transform(square,float32))"), "square");
  for (const char* bad :
       {"op=plus:4/4", "op=scaled_plus:4", "op=scaled_plus:x/4", "op=scaled_plus:4/3"}) {
    SCOPED_TRACE(bad);
    const auto r = parse_spec_text(std::string("reduce type=float32 ") + bad + " source='" +
                                   kScaledPlus + "'");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::invalid_argument);
  }
}

TEST(OpState, AFlaggedOperatorWithoutLayoutIsCorrupt) {
  auto bytes = encode_fields(reduce_with(scaled_plus(4, 4)));
  // The op field: tag (2), length, then the kind byte with the state flag.
  ASSERT_EQ(std::to_integer<int>(bytes[6 + 5]), 0x80 | 3);
  for (std::size_t i = 0; i < 8; ++i) bytes[6 + 5 + 5 + 11 + i] = std::byte{0};
  const auto r = decode_fields<reduce::Spec>(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::corrupt);
}

TEST(OpState, TheGeneratedStructHoldsTheStateAndPassesItFirst) {
  const std::string s = detail::operator_struct("cccl_cache_op", scaled_plus(8, 8), 2);
  EXPECT_NE(s.find("alignas(8) unsigned long long state[1];"), std::string::npos) << s;
  EXPECT_NE(s.find("scaled_plus(reinterpret_cast<unsigned char*>(const_cast<unsigned long long*>(state)), a, b)"),
            std::string::npos)
      << s;
  const std::string plain = detail::operator_struct("cccl_cache_op", Operator::custom("f", "x"), 2);
  EXPECT_EQ(plain.find("state"), std::string::npos) << plain;
}

// The state is held in words of its alignment (at most 8 bytes), which the compiler reads
// from the kernel's parameters a word at a time.
TEST(OpState, TheStateIsHeldInWordsOfItsAlignment) {
  const struct {
    std::uint32_t size, alignment;
    const char* member;
  } cases[] = {{3, 1, "alignas(1) unsigned char state[3];"},
               {6, 2, "alignas(2) unsigned short state[3];"},
               {12, 4, "alignas(4) unsigned int state[3];"},
               {24, 8, "alignas(8) unsigned long long state[3];"},
               {32, 16, "alignas(16) unsigned long long state[4];"}};
  for (const auto& c : cases) {
    const std::string s = detail::state_member(scaled_plus(c.size, c.alignment));
    EXPECT_EQ(s, std::string("  ") + c.member + "\n") << c.size << "/" << c.alignment;
  }
}

TEST(OpState, TheCallsStateMustFitTheLayout) {
  using detail::kNoOpState;
  using detail::op_state_arg;
  const Operator stateful = scaled_plus(8, 8);
  const Operator stateless = Operator::plus();
  const double state = 2.0;
  EXPECT_EQ(op_state_arg(stateful, {&state, 8}, true), &state);
  EXPECT_EQ(op_state_arg(stateful, {&state, 4}, true), nullptr);  // size mismatch
  EXPECT_EQ(op_state_arg(stateful, {nullptr, 8}, true), nullptr);
  EXPECT_EQ(op_state_arg(stateful, {}, true), nullptr);      // a launch needs the state
  EXPECT_EQ(op_state_arg(stateful, {}, false), kNoOpState);  // a size query does not
  EXPECT_EQ(op_state_arg(stateless, {}, true), kNoOpState);
  EXPECT_EQ(op_state_arg(stateless, {&state, 8}, true), nullptr);  // no state to give
}

}  // namespace
