// cccl-cache why <spec>: explains a miss. Computes the key; when it is absent, finds
// the stored entries of the same algorithm nearest to the spec and names the key
// components that differ (types, comparator, CC, toolchain, the algorithm's dispatch
// ABI, format version). With no
// entry for the CC itself, an entry of a lower minor of its major serves it (cc_fallback,
// cc_family.hpp): why names that entry. The
// stored spec comes from the checked build record, so the comparison is exact.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/cc_family.hpp"
#include "commands.hpp"
#include "entry_check.hpp"
#include "format.hpp"
#include "manifest.hpp"
#include "spec_text.hpp"

namespace cccl_cache::cli {

namespace {

struct WhyOptions {
  std::vector<std::string> spec;
  std::string arch;
  std::string manifest;
  std::size_t limit = 3;
  bool json = false;
};

struct Diff {
  std::string component, entry, wanted;
};

struct Candidate {
  CacheKey key;
  EntryMeta meta;
  std::vector<Diff> diffs;
  std::string spec_text;
};

// The key components in which an entry differs from the wanted spec: each spec field
// (an operator's source separately), then CC, toolchain (the part every algorithm
// shares, then the algorithm's own dispatch ABI word) and format version.
std::vector<Diff> compare(const std::vector<algos::FieldText>& want, std::uint32_t cc,
                          const std::string& fp, const CacheKey& key, const EntryMeta& meta,
                          const Result<std::vector<algos::FieldText>>& got,
                          const std::string& want_text) {
  std::vector<Diff> d;
  if (got) {
    for (std::size_t i = 0; i < want.size() && i < got->size(); ++i) {
      const auto& g = (*got)[i];
      const auto& w = want[i];
      if (g.value != w.value) {
        d.push_back({w.name, g.value, w.value});
      } else if (g.source != w.source) {
        d.push_back({w.name + " source", "source of " + std::to_string(g.source.size()) + " bytes",
                     "source of " + std::to_string(w.source.size()) + " bytes"});
      }
    }
  } else {
    d.push_back({"spec (payload unreadable)", got.error().describe(), want_text});
  }
  if (key.cc != cc) d.push_back({"compute capability", cc_name(key.cc), cc_name(cc)});
  const auto entry_tc = algos::split_fingerprint(meta.toolchain);
  const auto want_tc = algos::split_fingerprint(fp);
  if (entry_tc.shared != want_tc.shared)
    d.push_back({"toolchain", std::string(entry_tc.shared), std::string(want_tc.shared)});
  if (entry_tc.abi != want_tc.abi)
    d.push_back({"dispatch ABI", entry_tc.abi.empty() ? "none" : std::string(entry_tc.abi),
                 std::string(want_tc.abi)});
  if (meta.payload_format != algos::kBuildFormatVersion) {
    d.push_back({"format version", std::to_string(meta.payload_format),
                 std::to_string(algos::kBuildFormatVersion)});
  }
  return d;
}

int run_why(const Context& ctx, const WhyOptions& o) {
  OperatorTable ops;
  std::filesystem::path base;
  if (!o.manifest.empty()) {
    auto m = load_manifest(o.manifest);
    if (!m) return report(m.error());
    ops = m->operators;
    base = std::filesystem::path(o.manifest).parent_path();
  }
  auto spec = o.spec.size() == 1 ? parse_spec_text(o.spec[0], ops, base)
                                 : parse_spec_tokens(o.spec, ops, base);
  if (!spec) return report(spec.error());
  auto archs = resolve_archs(o.arch);
  if (!archs) return report(archs.error());
  if (archs->size() != 1) return report(kExitUsage, "why: give one --arch");
  const std::uint32_t cc = archs->front();
  const auto& tc = algos::Toolchain::current();
  const CacheKey key = algos::cache_key(*spec, cc, tc);
  const auto* algorithm = algos::find_algorithm(spec->algorithm);
  const std::string fp = tc.fingerprint(algorithm->name);  // the toolchain of its entries
  const std::string algorithm_name(algorithm->name);
  auto want = algorithm->to_text(spec->fields);
  if (!want) return report(want.error());

  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  auto store = open_store(ctx.globals, OpenMode::read);
  if (!store) return report(store.error());
  // The entry a device of `cc` is served by: the exact one, else (cc_fallback) the one
  // of the nearest lower minor of its major, as AlgorithmCache::acquire picks it.
  std::optional<Entry> hit;
  for (std::uint32_t serving : serving_ccs(cc, config->cc_fallback)) {
    auto e = (*store)->peek(serving == cc ? key : algos::cache_key(*spec, serving, tc));
    if (!e) return report(e.error());
    if (*e) {
      hit = std::move(**e);
      break;
    }
  }
  const bool present = hit.has_value();
  const bool exact = present && hit->key == key;
  std::vector<Candidate> near;
  std::size_t same_algorithm = 0;
  if (!present) {
    std::vector<std::pair<CacheKey, EntryMeta>> listed;
    auto r = (*store)->for_each([&](const CacheKey& k, const EntryMeta& m) {
      if (m.algorithm == algorithm_name) listed.emplace_back(k, m);
      return true;
    });
    if (!r) return report(r.error());
    same_algorithm = listed.size();
    for (const auto& [k, m] : listed) {
      Result<std::vector<algos::FieldText>> got = fail(ErrorCode::not_found, "entry vanished");
      std::string stored_text = m.summary;
      if (auto e = (*store)->peek(k); !e) {
        got = tl::unexpected(e.error());
      } else if (*e) {
        auto record = decode_record(k, (*e)->payload);
        if (!record) {
          got = tl::unexpected(record.error());
        } else {
          got = algorithm->to_text(record->spec);
          stored_text = to_spec_text(algos::spec_of(*record));
        }
      }
      Candidate c{k, m, compare(*want, cc, fp, k, m, got, to_spec_text(*spec)), stored_text};
      if (c.diffs.empty()) c.diffs.push_back({"key derivation", k.to_string(), key.to_string()});
      near.push_back(std::move(c));
    }
    std::stable_sort(near.begin(), near.end(), [](const Candidate& a, const Candidate& b) {
      return a.diffs.size() < b.diffs.size();
    });
    if (near.size() > o.limit) near.resize(o.limit);
  }

  if (o.json) {
    auto list = nlohmann::json::array();
    for (const auto& c : near) {
      auto diffs = nlohmann::json::array();
      for (const auto& d : c.diffs)
        diffs.push_back({{"component", d.component}, {"entry", d.entry}, {"wanted", d.wanted}});
      list.push_back({{"key", c.key.to_string()},
                      {"spec", c.spec_text},
                      {"arch", cc_name(c.key.cc)},
                      {"differs", diffs}});
    }
    print_json({{"spec", to_spec_text(*spec)},
                {"arch", cc_name(cc)},
                {"toolchain", fp},
                {"key", key.to_string()},
                {"hit", present},
                {"served_by", present ? nlohmann::json{{"key", hit->key.to_string()},
                                                      {"arch", cc_name(hit->key.cc)},
                                                      {"exact", exact}}
                                      : nlohmann::json(nullptr)},
                {"cc_fallback", config->cc_fallback},
                {"stored_of_algorithm", same_algorithm},
                {"nearest", list}});
    return kExitOk;
  }
  std::printf("spec:      %s\narch:      %s\ntoolchain: %s\nkey:       %s\n",
              printable(to_spec_text(*spec)).c_str(), cc_name(cc).c_str(), fp.c_str(),
              key.to_string().c_str());
  if (present) {
    if (!exact)
      std::printf("result:    HIT (cc_fallback): no %s entry; served by the %s entry %s\n",
                  cc_name(cc).c_str(), cc_name(hit->key.cc).c_str(), hit->key.to_string().c_str());
    std::printf("%s stored %s, last used %s, %llu hits\n", exact ? "result:    HIT:" : "          ",
                format_time(hit->meta.created_unix).c_str(),
                format_time(hit->meta.last_used_unix).c_str(),
                static_cast<unsigned long long>(hit->meta.hits));
    return kExitOk;
  }
  std::printf("result:    MISS: no entry under this key\n");
  if (near.empty()) {
    std::printf("no stored %s entries to compare with (fill the cache with 'cccl-cache prewarm')\n",
                algorithm_name.c_str());
    return kExitOk;
  }
  std::printf("nearest stored %s entries (%zu of %zu):\n", algorithm_name.c_str(), near.size(),
              same_algorithm);
  for (const auto& c : near) {
    std::printf("  %s  %s  %s\n", c.key.to_string().c_str(), printable(c.spec_text).c_str(),
                cc_name(c.key.cc).c_str());
    for (const auto& d : c.diffs) {
      std::printf("    differs in %s: entry has %s, wanted %s\n", d.component.c_str(),
                  printable(d.entry).c_str(), printable(d.wanted).c_str());
    }
  }
  return kExitOk;
}

}  // namespace

void add_why(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<WhyOptions>();
  auto* cmd = app.add_subcommand(
      "why", "Explain a miss: the key of a spec and how the nearest entries differ");
  cmd->add_option("spec", o->spec,
                  "Spec in manifest syntax, e.g. 'merge_sort keys=float32 values=none compare=less "
                  "offset=int64'")
      ->required();
  cmd->add_option("--arch", o->arch, "Compute capability to explain (default: the local GPU's)");
  cmd->add_option("--manifest", o->manifest,
                  "Manifest whose [operators] define custom comparators named in the spec");
  cmd->add_option("--limit", o->limit, "How many nearest entries to show (default 3)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1000000}));
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_why(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
