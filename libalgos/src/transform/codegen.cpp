#include "transform/codegen.hpp"

#include <span>
#include <string>
#include <string_view>

#include "cccl_cache/algos/transform/build_result.hpp"
#include "core/codegen.hpp"

namespace cccl_cache::algos {

algos::detail::GeneratedSource transform::detail::kernel_source(
    std::span<const ScalarType> in, ScalarType out_type, std::string_view op_definition,
    std::string_view header) {
  const std::string out{cuda_name(out_type)};
  std::string ins;  // "const In1*, const In2*"
  for (ScalarType t : in) ins += (ins.empty() ? "const " : ", const ") + std::string(cuda_name(t)) + "*";

  algos::detail::GeneratedSource gen;
  gen.source = algos::detail::prelude("cub/device/dispatch/kernels/kernel_transform.cuh",
                                      {in.front(), in.back(), out_type});
  if (!header.empty()) gen.source += "#include <" + std::string(header) + ">\n";
  gen.source += op_definition;
  gen.source += "using cccl_cache_selector = cub::detail::transform::policy_selector_from_types<"
                "false, true, ::cuda::std::tuple<" + ins + ">, " + out + "*>;\n";
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
                 ", ::cuda::always_true, cccl_cache_op, " + out + "*, " + ins + ">"};
  // Values in Policy's field order.
  std::string probe =
      "(unsigned long long)cccl_cache_tuning::p.algorithm, "
      "(unsigned long long)cccl_cache_tuning::threads";
  for (std::string_view path : {CCCL_CACHE_TRANSFORM_POLICY(CCCL_CACHE_POLICY_PATH)})
    probe += ", (unsigned long long)cccl_cache_tuning::p." + std::string(path);
  gen.policy_probe = std::string(algos::detail::kPolicyProbeName) + "<" + probe + ">";
  return gen;
}

template <int N>
detail::GeneratedSource detail::BuildSteps<Transform<N>>::source(const transform::Spec<N>& spec) {
  // A custom operator's result is converted to the output type; a well-known one is
  // CUB's own function object, its result assigned to the output as in CUB.
  const std::string op =
      algos::detail::user_source(spec.op) +
      algos::detail::operator_struct(
          "cccl_cache_op", spec.op, N,
          spec.op.kind == OpKind::custom ? std::string(cuda_name(spec.out)) : std::string(),
          spec.in[0] == spec.in[N - 1] ? spec.in[0] : ScalarType::none);
  return transform::detail::kernel_source(spec.in, spec.out, op);
}

template struct detail::BuildSteps<UnaryTransform>;
template struct detail::BuildSteps<BinaryTransform>;
// build, codegen_digest (core/build.hpp)
template struct AlgorithmBase<UnaryTransform, transform::UnarySpec>;
template struct AlgorithmBase<BinaryTransform, transform::BinarySpec>;
}  // namespace cccl_cache::algos
