#include <gtest/gtest.h>

#include "cccl_cache/algos/types.hpp"

using namespace cccl_cache::algos;

TEST(ScalarType, NamesSizesAndCudaSpellingsAgree) {
  struct Row {
    ScalarType t;
    const char* name;
    std::size_t size;
    const char* cuda;
  };
  const Row rows[] = {
      {ScalarType::none, "none", 0, "void"},
      {ScalarType::int8, "int8", 1, "::cuda::std::int8_t"},
      {ScalarType::int16, "int16", 2, "::cuda::std::int16_t"},
      {ScalarType::int32, "int32", 4, "::cuda::std::int32_t"},
      {ScalarType::int64, "int64", 8, "long"},
      {ScalarType::uint8, "uint8", 1, "::cuda::std::uint8_t"},
      {ScalarType::uint16, "uint16", 2, "::cuda::std::uint16_t"},
      {ScalarType::uint32, "uint32", 4, "::cuda::std::uint32_t"},
      {ScalarType::uint64, "uint64", 8, "unsigned long"},
      {ScalarType::float32, "float32", 4, "float"},
      {ScalarType::float64, "float64", 8, "double"},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(name(r.t), r.name);
    EXPECT_EQ(size_of(r.t), r.size) << r.name;
    EXPECT_EQ(cuda_name(r.t), r.cuda) << r.name;
    EXPECT_EQ(parse_scalar_type(r.name), r.t) << r.name;
  }
}

TEST(ScalarType, ParsesShortFormsAndRejectsUnknown) {
  EXPECT_EQ(parse_scalar_type("f32"), ScalarType::float32);
  EXPECT_EQ(parse_scalar_type("f64"), ScalarType::float64);
  EXPECT_EQ(parse_scalar_type("i32"), ScalarType::int32);
  EXPECT_EQ(parse_scalar_type("u8"), ScalarType::uint8);
  EXPECT_EQ(parse_scalar_type("float"), ScalarType::float32);
  EXPECT_FALSE(parse_scalar_type("int128"));
  EXPECT_FALSE(parse_scalar_type(""));
  EXPECT_FALSE(parse_scalar_type("Int32"));
  EXPECT_EQ(name(static_cast<ScalarType>(200)), "unknown");
  EXPECT_EQ(size_of(static_cast<ScalarType>(200)), 0u);
}

TEST(Comparator, DescribesEachKind) {
  EXPECT_EQ(describe(Comparator::less()), "less");
  EXPECT_EQ(describe(Comparator::greater()), "greater");
  EXPECT_EQ(describe(Comparator::custom("abs_less", "...")), "abs_less");
}
