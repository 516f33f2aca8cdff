#include <gtest/gtest.h>

#include "ptx_prune.hpp"

using cccl_cache::ErrorCode;
using cccl_cache::algos::detail::prune_ptx;

namespace {

// A hand-written module: two kernels, variables reached directly, through an
// initializer and through a function, unreferenced variables and functions, a
// prototype, comments and nested initializer braces.
constexpr const char* kModule = R"(//
// hand-written
//
.version 9.0
.target sm_90
.address_size 64

	// .globl	keep_me
.extern .func (.param .b32 func_retval0) vprintf (.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.global .align 4 .u32 used_direct = 7;
.global .align 8 .u64 used_by_init = generic(pointee);
.global .align 4 .u32 pointee[2] = {1, 2};
.global .align 4 .u32 unused_a;
.visible .global .align 1 .u8 unused_b = 1;
.weak .global .align 4 .b8 unused_nested[8] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
.const .align 4 .u32 used_by_func;
.extern .shared .align 16 .b8 unused_dynamic_smem[];
/* block comment mentioning unused_a; and { braces */
.func (.param .b32 func_retval0) helper(.param .b32 helper_param_0)
{
	.reg .b32 %r<3>;
	ld.const.u32 %r1, [used_by_func];
	st.param.b32 [func_retval0], %r1;
	ret;
}
.func never_called()
{
	ld.global.u32 %r1, [unused_a];
	ret;
}
.weak .entry keep_me(.param .u64 keep_me_param_0)
.maxntid 256, 1, 1
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	ld.global.u32 %r1, [used_direct];
	ld.global.u64 %rd1, [used_by_init];
	{ // nested scope
	.reg .b32 %inner;
	call.uni (%r2), helper, (%r1);
	}
$L__BB0_1:
	ret;
}
.weak .entry drop_me()
{
	ld.global.u32 %r1, [unused_a];
	ret;
}
)";

bool contains(const std::string& text, const char* what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST(PtxPrune, KeepsWhatKeptEntriesReachTransitively) {
  auto out = prune_ptx(kModule, {"keep_me"});
  ASSERT_TRUE(out) << out.error().message;
  const auto& ptx = out->ptx;
  for (const char* kept : {".version 9.0", ".target sm_90", ".address_size 64", "used_direct = 7",
                           "used_by_init", "pointee[2] = {1, 2};", "used_by_func;", "helper(.param",
                           ".entry keep_me", ".maxntid 256"}) {
    EXPECT_TRUE(contains(ptx, kept)) << kept;
  }
  for (const char* dropped :
       {"unused_a", "unused_b", "unused_nested", "unused_dynamic_smem", "never_called", "drop_me",
        "vprintf", "hand-written", "block comment"}) {
    EXPECT_FALSE(contains(ptx, dropped)) << dropped;
  }
  EXPECT_EQ(out->stats.variables, 8u);
  EXPECT_EQ(out->stats.variables_dropped, 4u);
  EXPECT_EQ(out->stats.functions, 3u);
  EXPECT_EQ(out->stats.functions_dropped, 2u);
  EXPECT_EQ(out->stats.entries, 2u);
  EXPECT_EQ(out->stats.entries_dropped, 1u);
}

TEST(PtxPrune, OutputIsAFixpoint) {
  auto once = prune_ptx(kModule, {"keep_me"});
  ASSERT_TRUE(once);
  auto twice = prune_ptx(once->ptx, {"keep_me"});
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->ptx, once->ptx);
  EXPECT_EQ(twice->stats.variables_dropped + twice->stats.functions_dropped +
                twice->stats.entries_dropped,
            0u);
}

TEST(PtxPrune, KeepingBothEntriesKeepsTheirVariables) {
  auto out = prune_ptx(kModule, {"keep_me", "drop_me"});
  ASSERT_TRUE(out);
  EXPECT_TRUE(contains(out->ptx, "unused_a;"));
  EXPECT_TRUE(contains(out->ptx, ".entry drop_me"));
  EXPECT_FALSE(contains(out->ptx, "never_called"));
}

TEST(PtxPrune, PrototypeIsKeptWhenCalled) {
  const std::string ptx =
      std::string(".version 9.0\n.target sm_90\n.address_size 64\n") +
      ".extern .func (.param .b32 r) vprintf (.param .b64 a, .param .b64 b);\n"
      ".global .align 1 .b8 fmt[3] = {104, 105, 0};\n"
      ".entry k()\n{\n\tmov.u64 %rd1, fmt;\n\tcall.uni (%r1), vprintf, (%rd1, %rd2);\n\tret;\n}\n";
  auto out = prune_ptx(ptx, {"k"});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(contains(out->ptx, "vprintf (.param"));
  EXPECT_TRUE(contains(out->ptx, "fmt[3]"));
  EXPECT_EQ(out->stats.variables_dropped, 0u);
}

TEST(PtxPrune, RejectsMalformedModules) {
  struct Case {
    const char* what;
    std::string ptx;
  };
  const Case cases[] = {
      {"unterminated comment", ".version 9.0\n/* never closed"},
      {"unterminated body", ".version 9.0\n.entry k()\n{\n ret;\n"},
      {"stray close brace", ".version 9.0\n}\n"},
      {"unterminated declaration", ".version 9.0\n.global .u32 x"},
      {"statement without directive", ".version 9.0\nmov.u32 %r1, 1;\n"},
      {"stray character", ".version 9.0\n.global .u32 x \x01;\n"},
      {"unterminated string", ".version 9.0\n.file 1 \"abc\n"},
  };
  for (const auto& c : cases) {
    auto out = prune_ptx(c.ptx, {});
    ASSERT_FALSE(out) << c.what;
    EXPECT_EQ(out.error().code, ErrorCode::invalid_argument) << c.what;
  }
}

TEST(PtxPrune, MissingEntryIsAnError) {
  auto out = prune_ptx(kModule, {"keep_me", "no_such_kernel"});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("no_such_kernel"), std::string::npos);
  // A variable's name is not an entry.
  EXPECT_FALSE(prune_ptx(kModule, {"used_direct"}));
}

TEST(PtxPrune, EntryNamedByAKeptStatementStays) {
  const std::string ptx = std::string(".version 9.0\n.target sm_90\n.address_size 64\n") +
                          ".global .align 8 .u64 table[1] = {generic(other)};\n"
                          ".entry other()\n{\n\tret;\n}\n"
                          ".entry k()\n{\n\tld.global.u64 %rd1, [table];\n\tret;\n}\n";
  auto out = prune_ptx(ptx, {"k"});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(contains(out->ptx, ".entry other()"));
  EXPECT_EQ(out->stats.entries_dropped, 0u);
}
