#include "core/materialize.hpp"

#include <algorithm>
#include <vector>

#include "core/iterator.hpp"
#include "core/temp_storage.hpp"

namespace cccl_cache::algos::detail {

namespace {
constexpr const char* kIteratorName = "cccl_cache_materialized";
}  // namespace

std::string materialize_source(const Iterator& it, ScalarType element) {
  const std::string threads = std::to_string(kMaterializeThreads);
  const std::string tile = std::to_string(kMaterializeThreads * kMaterializeItems);
  std::string source;
  std::vector<const Operator*> defined;
  argument_type(source, kIteratorName, it, element, /*output=*/false, /*as_iterators=*/true, {},
                defined);
  // Indices in unsigned long long: a grid of up to 2^31 - 1 blocks steps past 2^32.
  return source +
         "template <class It, class T>\n"
         "__global__ void __launch_bounds__(" +
         threads +
         ") cccl_cache_materialize(T* out, It in, unsigned long long n) {\n"
         "  const unsigned long long step = " +
         tile +
         "ull * gridDim.x;\n"
         "  for (unsigned long long base = " +
         tile +
         "ull * blockIdx.x; base < n; base += step) {\n"
         "#pragma unroll\n"
         "    for (unsigned k = 0; k < " +
         std::to_string(kMaterializeItems) +
         "u; ++k) {\n"
         "      const unsigned long long i = base + k * " +
         threads +
         "u + threadIdx.x;\n"
         "      if (i < n) out[i] = in[static_cast<::cuda::std::ptrdiff_t>(i)];\n"
         "    }\n"
         "  }\n"
         "}\n";
}

std::string materialize_kernel(ScalarType element) {
  return "cccl_cache_materialize<" + std::string(kIteratorName) + ", " +
         std::string(cuda_name(element)) + ">";
}

std::optional<std::size_t> materialized_bytes(std::uint64_t num_items, ScalarType element) noexcept {
  const std::uint64_t size = size_of(element);
  if (size == 0 || num_items > (SIZE_MAX - 255) / size) return std::nullopt;
  return static_cast<std::size_t>(round256(num_items * size));
}

CUresult materialize(const LaunchContext& ctx, std::size_t kernel, const Iterator& it,
                     ScalarType element, const IteratorValue& value, void* out,
                     std::uint64_t num_items, CUstream stream) noexcept {
  IteratorArg in;
  if (!pack_iterator(it, element, value, num_items, in) || kernel >= ctx.num_kernels)
    return CUDA_ERROR_INVALID_VALUE;
  if (num_items == 0) return CUDA_SUCCESS;
  if (ctx.launch == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
  const std::uint64_t blocks = std::min<std::uint64_t>(
      ceil_div(num_items, std::uint64_t{kMaterializeThreads} * kMaterializeItems),
      std::uint64_t(std::max(ctx.max_grid_dim_x, 1)));
  CUlaunchConfig config{};
  config.gridDimX = static_cast<unsigned>(blocks);
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = kMaterializeThreads;
  config.blockDimY = config.blockDimZ = 1;
  config.hStream = stream;
  unsigned long long n = num_items;
  void* args[] = {&out, in.bytes, &n};
  return ctx.launch(&config, ctx.kernels[kernel].function, args, nullptr);
}

}  // namespace cccl_cache::algos::detail
