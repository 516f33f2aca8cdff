#include "core/transform_kernel.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "core/codegen.hpp"
#include "core/iterator.hpp"

namespace cccl_cache::algos::transform_kernel::detail {

ArgumentTypes array_arguments(std::span<const ElementType> in, const ElementType& out) {
  ArgumentTypes args{{}, std::string(cuda_name(out)) + "*", {}};
  for (const ElementType& t : in) args.in.push_back("const " + std::string(cuda_name(t)) + "*");
  return args;
}

ArgumentTypes iterator_arguments(std::string& definitions, std::span<const ElementType> in,
                                 std::span<const Iterator> inputs, const ElementType& out,
                                 const Iterator& output, std::vector<const Operator*> defined) {
  ArgumentTypes args = array_arguments(in, out);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    args.iterator_types.push_back(inputs[k].type);
    args.in[k] = algos::detail::argument_type(definitions, "cccl_cache_in" + std::to_string(k) + "_t",
                                              inputs[k], in[k], false, false, args.in[k], defined);
  }
  args.iterator_types.push_back(output.type);
  args.out = algos::detail::argument_type(definitions, "cccl_cache_out_t", output, out, true, false,
                                          args.out, defined);
  return args;
}

algos::detail::GeneratedSource kernel_source(std::span<const ElementType> in, const ElementType& out_type,
                                             std::string_view definitions,
                                             const ArgumentTypes& args, std::string_view header) {
  const std::string& out = args.out;
  std::string ins;  // "const In1*, const In2*"
  for (const std::string& t : args.in) ins += (ins.empty() ? "" : ", ") + t;

  algos::detail::GeneratedSource gen;
  std::vector<ScalarType> types;
  for (const ElementType& t : in) types.push_back(t.scalar);
  types.push_back(out_type.scalar);
  types.insert(types.end(), args.iterator_types.begin(), args.iterator_types.end());
  auto any = [&](ScalarType t) {
    return std::find(types.begin(), types.end(), t) != types.end() ? t : ScalarType::none;
  };
  gen.source = algos::detail::prelude("cub/device/dispatch/kernels/kernel_transform.cuh",
                                      {any(ScalarType::float16), any(ScalarType::bfloat16)});
  if (!header.empty()) gen.source += "#include <" + std::string(header) + ">\n";
  gen.source += algos::detail::struct_source({&in[0], &in[in.size() - 1], &out_type});  // 1 or 2 inputs
  gen.source += definitions;
  gen.source +=
      "using cccl_cache_selector = cub::detail::transform::policy_selector_from_types<"
      "false, true, ::cuda::std::tuple<" +
      ins + ">, " + out + ">;\n";
  // The policy the kernel resolves for the CC being compiled for.
  gen.source += "struct cccl_cache_tuning {\n"
                "  static constexpr cub::TransformPolicy p =\n"
                "      cub::detail::select_policy<cccl_cache_selector>(cub::detail::current_tuning_cc());\n"
                "  static constexpr int threads =\n"
                "      cub::detail::transform::get_threads_per_block<cccl_cache_selector>;\n"
                "};\n";
  gen.source += algos::detail::close_prelude();

  // The kernel's generic lambdas inside device functions are host code to NVRTC
  // without it (CCCL.C compiles its transform with it too).
  gen.nvrtc_options = {"-default-device"};
  // DeviceTransform's offset is ::cuda::std::int64_t in nvcc's host pass, i.e. the host's
  // std::int64_t (types.cpp): the same spelling here.
  gen.kernels = {"cub::detail::transform::transform_kernel<cccl_cache_selector, " +
                 std::string(cuda_name(ScalarType::int64)) +
                 ", ::cuda::always_true, cccl_cache_op, " + out + ", " + ins + ">"};
  // Values in Policy's field order.
  std::string probe =
      "(unsigned long long)cccl_cache_tuning::p.algorithm, "
      "(unsigned long long)cccl_cache_tuning::threads";
  for (std::string_view path : {CCCL_CACHE_TRANSFORM_POLICY(CCCL_CACHE_POLICY_PATH)})
    probe += ", (unsigned long long)cccl_cache_tuning::p." + std::string(path);
  gen.policy_probe = std::string(algos::detail::kPolicyProbeName) + "<" + probe + ">";
  return gen;
}

namespace {

// The threads per block CUB launches the kernel with (get_threads_per_block).
std::uint32_t launched_threads(const Policy& p) {
  switch (p.algorithm) {
    case prefetch:
      return p.prefetch_threads;
    case vectorized:
      return p.vectorized_threads;
    default: return p.async_threads;
  }
}

bool plausible(const Policy& p, std::uint32_t cc) {
  auto items_ok = [](std::uint32_t lo, std::uint32_t hi) { return lo >= 1 && lo <= hi && hi <= 1024; };
  const std::uint32_t threads = launched_threads(p);
  const bool async = p.algorithm != prefetch && p.algorithm != vectorized;
  return p.algorithm <= ublkcp && threads == p.block_threads &&
         algos::detail::warp_block(threads) && p.min_bytes_in_flight > 0 &&
         (async ? items_ok(p.async_min_items, p.async_max_items) && threads % 128 == 0
                : items_ok(p.prefetch_min_items, p.prefetch_max_items) &&
                      p.prefetch_items_no_input >= 1) &&
         (p.algorithm != vectorized ||
          (p.vec_size >= 1 && p.vectorized_items % p.vec_size == 0 && p.vectorized_items >= 1)) &&
         (p.algorithm != ldgsts || cc >= 80) && (p.algorithm != ublkcp || cc >= 90);
}

}  // namespace

Result<void> check(const Policy& p, const BuildRecordView& record) {
  if (!plausible(p, record.cc))
    return algos::detail::implausible_policy("transform (sm_" + std::to_string(record.cc) + ")", p);
  // Compiled with __launch_bounds__(get_threads_per_block<selector>): the policy's.
  const algos::detail::KernelRole roles[1] = {
      {"transform", "16transform_kernel", p.block_threads, true, false}};
  return algos::detail::check_kernels(record, roles, "transform");
}

}  // namespace cccl_cache::algos::transform_kernel::detail
