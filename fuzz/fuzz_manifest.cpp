// Fuzzes prewarm manifests (tools/cccl-cache/manifest.hpp), TOML text.
#include "fuzz_util.hpp"
#include "manifest.hpp"

using namespace cccl_cache;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // source_file= paths resolve against a directory that does not exist: no file is read.
  const auto r = cli::parse_manifest(fuzz::text_of(data, size), "/nonexistent-cccl-cache-fuzz",
                               "fuzz.toml");
  if (r) {
    // Every expanded spec is one the CLI could build: it prints as spec text.
    for (const auto& spec : r->specs) fuzz::touch(cli::to_spec_text(spec));
  }
  return 0;
}
