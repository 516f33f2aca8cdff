// Segmented reduce over iterators without a GPU: its input, output and offset fields
// left out of the encoding as pointers (array specs keep their keys), named in spec text,
// in every key, validated naming the field; a spec with any iterator compiled with all
// four arguments as iterators; a call's values packed, each of its kind.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/segmented_reduce/build_result.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/iterator.hpp"
#include "iterator_spec_checks.hpp"
#include "iterator_specs.hpp"
#include "segmented_iterator_specs.hpp"
#include "segmented_reduce/codegen.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;
using namespace test_support;

namespace {

using SR = segmented_reduce::Spec;

TEST(SegmentedReduceIterator, FieldsRoundTripAndKeysDiffer) {
  const SR plain;
  EXPECT_FALSE(plain.iterators());
  EXPECT_EQ(spec_text(plain), "segmented_reduce type=float32 op=plus offset=int64");
  std::vector<SR> specs = {fixed_size_sums(), counting_sums_reversed()};
  for (auto [field, it] :
       {std::pair{0, Iterator::counting(ScalarType::int32)}, std::pair{1, Iterator::discard()},
        std::pair{2, Iterator::counting(ScalarType::int64)},
        std::pair{3, Iterator::counting(ScalarType::int64)},
        std::pair{2, Iterator::permutation(ScalarType::int64, ScalarType::int32)}}) {
    SR s;
    (field == 0   ? s.input
     : field == 1 ? s.output
     : field == 2 ? s.begin_offsets
                  : s.end_offsets) = it;
    specs.push_back(s);
  }
  for (const auto& s : specs) EXPECT_TRUE(s.iterators()) << spec_text(s);
  check_iterator_specs(specs, {{"times8", times8().source}});
  EXPECT_EQ(spec_text(fixed_size_sums()),
            "segmented_reduce type=float32 op=plus offset=int64 "
            "begin_offsets=transform(times8,counting(int64)) "
            "end_offsets=transform(times8,counting(int64))");
}

TEST(SegmentedReduceIterator, WhatCannotBeAnArgumentIsRefusedByName) {
  struct Case {
    int field;
    Iterator it;
    ErrorCode code;
  };
  const Case cases[] = {
      {0, Iterator::reverse(), ErrorCode::unsupported},
      {0, Iterator::discard(), ErrorCode::unsupported},
      {1, Iterator::counting(ScalarType::int32), ErrorCode::unsupported},
      {2, Iterator::counting(ScalarType::float32), ErrorCode::invalid_argument},
      {3, Iterator::zip({Iterator::array(ScalarType::int64)}), ErrorCode::unsupported},
  };
  const char* names[] = {"'input'", "'output'", "'begin_offsets'", "'end_offsets'"};
  for (const auto& c : cases) {
    SCOPED_TRACE(describe(c.it));
    SR s;
    (c.field == 0   ? s.input
     : c.field == 1 ? s.output
     : c.field == 2 ? s.begin_offsets
                    : s.end_offsets) = c.it;
    const auto ok = s.validate();
    ASSERT_FALSE(ok);
    EXPECT_EQ(ok.error().code, c.code) << ok.error().message;
    EXPECT_NE(ok.error().message.find(names[c.field]), std::string::npos) << ok.error().message;
  }
}

// Array specs keep their kernel; any iterator makes all four arguments iterators, and an
// operator both offsets use is defined once.
TEST(SegmentedReduceIterator, AnyIteratorMakesEveryArgumentOne) {
  using Steps = detail::BuildSteps<SegmentedReduce>;
  const auto plain = Steps::source(SR{});
  ASSERT_EQ(plain.kernels.size(), 1u);
  EXPECT_NE(plain.kernels[0].find("float*, float*, long*, long*, long,"), std::string::npos)
      << plain.kernels[0];
  EXPECT_EQ(plain.source.find("cccl_cache_in_t"), std::string::npos);
  const auto fixed = Steps::source(fixed_size_sums());
  EXPECT_NE(fixed.kernels[0].find(
                "cccl_cache_in_t, cccl_cache_out_t, cccl_cache_begin_t, cccl_cache_end_t, long,"),
            std::string::npos)
      << fixed.kernels[0];
  for (const char* s : {"struct cccl_cache_in_t {", "struct cccl_cache_out_t {",
                        "struct cccl_cache_begin_t {", "struct cccl_cache_end_t {"})
    EXPECT_NE(fixed.source.find(s), std::string::npos) << s;
  const auto first = fixed.source.find(times8().source);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(fixed.source.find(times8().source, first + 1), std::string::npos) << "defined twice";
}

// The call's arguments of an iterator spec: each of its kind, an array as an array
// iterator's {V* p}; a value of another kind is refused.
TEST(SegmentedReduceIterator, EveryArgumentIsPackedAsAnIterator) {
  static const float values[8] = {};
  detail::IteratorArg packed;
  const void* address = nullptr;
  ASSERT_TRUE(detail::argument_address(Iterator{}, ScalarType::float32,
                                       IteratorValue::array(values), 8, true, packed, address));
  EXPECT_EQ(address, static_cast<const void*>(packed.bytes));
  const void* p = nullptr;
  std::memcpy(&p, packed.bytes, sizeof p);
  EXPECT_EQ(p, static_cast<const void*>(values));
  ASSERT_TRUE(detail::argument_address(Iterator{}, ScalarType::float32,
                                       IteratorValue::array(values), 8, false, packed, address));
  EXPECT_EQ(address, static_cast<const void*>(values)) << "an array spec takes the array";
  EXPECT_FALSE(detail::argument_address(Iterator{}, ScalarType::float32, IteratorValue::counting(1),
                                        8, true, packed, address));
  EXPECT_FALSE(detail::argument_address(Iterator::counting(ScalarType::int64), ScalarType::int64,
                                        IteratorValue::array(values), 8, true, packed, address));
}

// Advancing packed bytes between launches moves them as the device struct's += n: the
// bytes equal those packed from the values n elements on.
TEST(SegmentedReduceIterator, PackedBytesAdvanceAsTheDeviceStructDoes) {
  static const double values[16] = {};
  static const std::int32_t index[16] = {};
  auto packed = [](const Iterator& it, ScalarType element, const IteratorValue& v,
                   std::uint64_t n) {
    detail::IteratorArg a;
    EXPECT_TRUE(detail::pack_iterator(it, element, v, n, a));
    return std::vector<unsigned char>(a.bytes, a.bytes + sizeof a.bytes);
  };
  auto advanced = [&](const Iterator& it, ScalarType element, const IteratorValue& v,
                      std::uint64_t n, std::int64_t by) {
    detail::IteratorArg a;
    EXPECT_TRUE(detail::pack_iterator(it, element, v, n, a));
    detail::advance_packed(it, element, a.bytes, by);
    return std::vector<unsigned char>(a.bytes, a.bytes + sizeof a.bytes);
  };
  const auto f64 = ScalarType::float64;
  EXPECT_EQ(advanced(Iterator::counting(ScalarType::int16), f64,
                     IteratorValue::counting(std::int16_t{32765}), 4, 5),
            packed(Iterator::counting(ScalarType::int16), f64,
                   IteratorValue::counting(std::int16_t{-32766}), 4))
      << "wraps in int16";
  EXPECT_EQ(advanced(Iterator::constant(), f64, IteratorValue::constant(2.5), 4, 3),
            packed(Iterator::constant(), f64, IteratorValue::constant(2.5), 4));
  EXPECT_EQ(advanced(Iterator::reverse(), f64, IteratorValue::reverse(values), 10, 3),
            packed(Iterator::reverse(), f64, IteratorValue::reverse(values), 7))
      << "the end moves back";
  const Iterator perm = Iterator::permutation(ScalarType::none, ScalarType::int32);
  EXPECT_EQ(advanced(perm, f64, IteratorValue::permutation(values, index), 8, 3),
            packed(perm, f64, IteratorValue::permutation(values, index + 3), 8));
  const Iterator zip =
      Iterator::zip({Iterator::array(ScalarType::float64), Iterator::counting(ScalarType::int64)});
  const IteratorValue from[] = {IteratorValue::array(values),
                                IteratorValue::counting(std::int64_t{7})};
  const IteratorValue to[] = {IteratorValue::array(values + 6),
                              IteratorValue::counting(std::int64_t{13})};
  EXPECT_EQ(advanced(zip, ScalarType::structure, IteratorValue::zip(from, 2), 8, 6),
            packed(zip, ScalarType::structure, IteratorValue::zip(to, 2), 8));
  // An array packed as an array iterator moves by elements of its type.
  detail::IteratorArg a;
  const void* address = nullptr;
  ASSERT_TRUE(
      detail::argument_address(Iterator{}, f64, IteratorValue::array(values), 8, true, a, address));
  detail::advance_packed(Iterator::array(f64), f64, a.bytes, 5);
  const void* p = nullptr;
  std::memcpy(&p, a.bytes, sizeof p);
  EXPECT_EQ(p, static_cast<const void*>(values + 5));
  // An array of structs (its element the structure, no scalar size) by its struct's size.
  detail::advance_array(a.bytes, 3, 12);
  std::memcpy(&p, a.bytes, sizeof p);
  EXPECT_EQ(p, static_cast<const void*>(reinterpret_cast<const unsigned char*>(values + 5) + 36));
}

}  // namespace
