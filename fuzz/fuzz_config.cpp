// Fuzzes the store configuration file (cache/config.hpp, Config::from_toml).
#include "cccl_cache/cache/config.hpp"
#include "fuzz_util.hpp"

using namespace cccl_cache;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto r = Config::from_toml(fuzz::text_of(data, size), "fuzz.toml");
  if (r) fuzz::require(r->max_readers >= 1 && r->max_readers <= 1'000'000, "max_readers range");
  return 0;
}
