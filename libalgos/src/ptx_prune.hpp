// Drops module-scope PTX symbols that no kept kernel reaches. Private to libalgos.
//
// NVRTC emits every `static constexpr` data member the CCCL headers touch as a
// module-scope `.global` variable (over a thousand for merge sort); ptxas keeps
// them, so the cubin grows ~5x over nvcc's. This pass parses the module-scope
// grammar of PTX (a tokenizer plus statement splitter, not line matching):
//   module    := statement*
//   statement := line-directive          (.version/.target/.address_size/.file: up to end of line)
//              | head ';'                (declarations, prototypes, pragmas)
//              | head '=' initializer ';' (variables; initializers may nest braces)
//              | head '{' body '}'       (.func/.entry definitions, .section blocks)
// and keeps the requested entries, every statement that is not a symbol, and,
// transitively to a fixpoint, every variable and function named by a kept
// statement. Comments are dropped from the output.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cccl_cache/cache/error.hpp"

namespace cccl_cache::algos::detail {

struct PruneStats {
  std::size_t variables = 0, variables_dropped = 0;
  std::size_t functions = 0, functions_dropped = 0;  // .func definitions and prototypes
  std::size_t entries = 0, entries_dropped = 0;
};

struct PrunedPtx {
  std::string ptx;
  PruneStats stats;
};

// Keeps the `.entry` kernels named in `keep_entries` and everything they reach
// (another entry only if a kept statement names it); drops the rest.
// Errors: invalid_argument (malformed PTX: unterminated comment or block, stray
// characters, unbalanced braces) or a kept entry that the module does not define.
Result<PrunedPtx> prune_ptx(std::string_view ptx, const std::vector<std::string>& keep_entries);

}  // namespace cccl_cache::algos::detail
