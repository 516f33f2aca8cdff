// The cache-modified input iterator without a GPU: its spec text for every load, its
// encoding (the load's byte, in every key), the refusals that name their reason, the
// generated struct (CUB's ThreadLoad with the load's modifier) and the call's packed
// bytes (the array's address, as a pointer's).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cccl_cache/algos/core/key.hpp"
#include "cccl_cache/algos/core/spec_codec.hpp"
#include "cccl_cache/algos/reduce/build_result.hpp"
#include "cccl_cache/algos/segmented_reduce/spec.hpp"
#include "cccl_cache/algos/spec_text.hpp"
#include "core/iterator.hpp"
#include "iterator_spec_checks.hpp"
#include "iterator_specs.hpp"

using namespace cccl_cache;
using namespace cccl_cache::algos;

namespace {

constexpr CacheLoad kLoads[] = {CacheLoad::ca, CacheLoad::cg,  CacheLoad::cs,
                                CacheLoad::cv, CacheLoad::ldg, CacheLoad::volatile_load};

reduce::Spec reduce_over(Iterator input, ScalarType type = ScalarType::float32) {
  return test_support::over<reduce::Spec>(type, std::move(input));
}

TEST(CacheModifiedIterator, EveryLoadIsNamedInSpecTextAndKeysDiffer) {
  const Toolchain tc = test_support::key_toolchain();
  std::vector<CacheKey> keys = {cache_key(reduce::Spec{}, 90, tc)};
  for (const CacheLoad load : kLoads) {
    for (const ScalarType v : {ScalarType::none, ScalarType::float64}) {
      const reduce::Spec spec = reduce_over(Iterator::cache_modified(load, v));
      SCOPED_TRACE(spec_text(spec));
      ASSERT_TRUE(spec.validate()) << spec.validate().error().describe();
      const std::string name(cache_load_name(load));
      EXPECT_EQ(describe(spec.input),
                "cache_modified(" + name + (v == ScalarType::none ? "" : ",float64") + ")");
      auto parsed = parse_spec_text(spec_text(spec));
      ASSERT_TRUE(parsed) << parsed.error().describe();
      EXPECT_EQ(*parsed, to_any(spec));
      auto back = decode_fields<reduce::Spec>(encode_fields(spec));
      ASSERT_TRUE(back) << back.error().describe();
      EXPECT_EQ(*back, spec);
      keys.push_back(cache_key(spec, 90, tc));
    }
  }
  keys.push_back(cache_key(reduce_over(Iterator::transform(Operator::of(OpKind::identity))), 90, tc));
  for (std::size_t i = 0; i < keys.size(); ++i)
    for (std::size_t j = i + 1; j < keys.size(); ++j) EXPECT_NE(keys[i], keys[j]) << i << " " << j;
}

TEST(CacheModifiedIterator, ItsEncodingEndsWithTheLoadsByte) {
  const auto spec = reduce_over(Iterator::cache_modified(CacheLoad::cg));
  const auto bytes = encode_fields(spec);
  const std::size_t field = test_support::expect_iterator_truncations_rejected<reduce::Spec>(bytes);
  // tag, u32 length 5, then kind, V, I, counting base and the load.
  ASSERT_EQ(bytes.size(), field + 10);
  EXPECT_EQ(bytes[field + 5], std::byte{9});
  EXPECT_EQ(bytes[field + 9], std::byte{static_cast<std::uint8_t>(CacheLoad::cg)});
  auto r = test_support::decode_with_byte<reduce::Spec>(bytes, field + 9, 7);
  EXPECT_TRUE(!r || !r->validate()) << "an unknown load is refused";
}

TEST(CacheModifiedIterator, WhatItCannotBeIsRefusedWithTheReason) {
  Iterator no_load = Iterator::cache_modified(CacheLoad::cs);
  no_load.load = CacheLoad::none;
  Iterator stray_load = Iterator::reverse();
  stray_load.load = CacheLoad::cs;
  struct Case {
    Iterator it;
    const char* says;
  };
  for (const Case& c : {Case{no_load, "needs a load"}, Case{stray_load, "only a cache_modified"}}) {
    SCOPED_TRACE(c.says);
    auto ok = reduce_over(c.it).validate();
    ASSERT_FALSE(ok);
    EXPECT_NE(ok.error().message.find(c.says), std::string::npos) << ok.error().message;
  }
  reduce::Spec out;
  out.output = Iterator::cache_modified(CacheLoad::cs);
  auto r = out.validate();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::unsupported) << r.error().message;
  for (const char* bad : {"cache_modified", "cache_modified()", "cache_modified(stream)",
                          "cache_modified(cs,float77)", "cache_modified(float32)"}) {
    auto p = parse_spec_text(std::string("reduce type=float32 input=") + bad);
    ASSERT_FALSE(p) << bad;
    EXPECT_NE(p.error().message.find("input"), std::string::npos) << p.error().message;
  }
}

TEST(CacheModifiedIterator, TheStructLoadsThroughThreadLoadAndPacksThePointer) {
  const std::string s = detail::iterator_struct("it", Iterator::cache_modified(CacheLoad::ldg),
                                                ScalarType::float32);
  EXPECT_NE(s.find("  const float* p;\n"), std::string::npos) << s;
  EXPECT_NE(s.find("cub::ThreadLoad<cub::LOAD_LDG>(p + i)"), std::string::npos) << s;
  EXPECT_NE(detail::iterator_struct("it", Iterator::cache_modified(CacheLoad::volatile_load),
                                    ScalarType::int32)
                .find("cub::LOAD_VOLATILE"),
            std::string::npos);
  EXPECT_EQ(detail::iterator_packing(Iterator::cache_modified(CacheLoad::cs)),
            "// cccl-cache host packing 1: V* p@0 (loaded cs); 16 bytes aligned 16, the rest "
            "zero\n");
  alignas(8) static const float values[4] = {};
  detail::IteratorArg arg;
  ASSERT_TRUE(detail::pack_iterator(Iterator::cache_modified(CacheLoad::cs), ScalarType::float32,
                                    IteratorValue::cache_modified(values), 4, arg));
  const void* p = nullptr;
  std::memcpy(&p, arg.bytes, sizeof p);
  EXPECT_EQ(p, static_cast<const void*>(values));
  EXPECT_FALSE(detail::pack_iterator(Iterator::cache_modified(CacheLoad::cs), ScalarType::float32,
                                     IteratorValue::array(values), 4, arg));
  // Advanced as an array: by whole elements of V.
  ASSERT_TRUE(detail::pack_iterator(Iterator::cache_modified(CacheLoad::cs, ScalarType::float64),
                                    ScalarType::float32, IteratorValue::cache_modified(values), 4,
                                    arg));
  detail::advance_packed(Iterator::cache_modified(CacheLoad::cs, ScalarType::float64),
                         ScalarType::float32, arg.bytes, 3);
  std::memcpy(&p, arg.bytes, sizeof p);
  EXPECT_EQ(p, static_cast<const void*>(reinterpret_cast<const unsigned char*>(values) + 24));
}

TEST(CacheModifiedIterator, EveryInputTakesIt) {
  segmented_reduce::Spec seg;
  seg.input = Iterator::cache_modified(CacheLoad::cs);
  seg.begin_offsets = Iterator::cache_modified(CacheLoad::ldg);
  EXPECT_TRUE(seg.validate()) << seg.validate().error().describe();
  const Iterator zip = Iterator::zip({Iterator::cache_modified(CacheLoad::cs, ScalarType::float32),
                                      Iterator::counting(ScalarType::int64)});
  EXPECT_TRUE(validate_zip_iterator("input", zip, false));
  EXPECT_EQ(describe(zip), "zip(cache_modified(cs,float32),counting(int64))");
}

}  // namespace
