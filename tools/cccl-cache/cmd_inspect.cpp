// cccl-cache inspect KEY: everything about one entry, from its metadata and its
// deserialized build result, and the devices it serves (its CC and, with cc_fallback,
// higher minors of its major that have no nearer entry).
#include <cstdio>
#include <memory>

#include "cccl_cache/algos/toolchain.hpp"
#include "cccl_cache/cache/cc_family.hpp"
#include "commands.hpp"
#include "entry_check.hpp"
#include "format.hpp"
#include "spec_text.hpp"

namespace cccl_cache::cli {

namespace {

struct InspectOptions {
  std::string key;
  bool json = false;
};

// A full key ("<32 hex>-sm90") or a unique prefix of one (at least 4 characters).
Result<CacheKey> resolve_key(Store& store, const std::string& text) {
  if (auto k = CacheKey::parse(text)) return *k;
  if (text.size() < 4)
    return fail(ErrorCode::invalid_argument, "'" + text + "' is not a key (see 'cccl-cache ls')");
  std::vector<CacheKey> matches;
  auto r = store.for_each([&](const CacheKey& key, const EntryMeta&) {
    if (key.to_string().rfind(text, 0) == 0) matches.push_back(key);
    return matches.size() < 2;
  });
  if (!r) return tl::unexpected(r.error());
  if (matches.size() > 1)
    return fail(ErrorCode::invalid_argument, "key prefix '" + text + "' is ambiguous");
  if (matches.empty()) return fail(ErrorCode::not_found, "no entry with key '" + text + "'");
  return matches[0];
}

const char* check_name(CheckStatus s) {
  switch (s) {
    case CheckStatus::ok:
      return "ok";
    case CheckStatus::bad:
      return "bad";
    case CheckStatus::stale:
      return "stale";
    case CheckStatus::unchecked:
      break;
  }
  return "unchecked";
}

// The build record, its spec fields and runtime values named by its algorithm.
nlohmann::json build_json(const algos::BuildRecordView& r) {
  const auto* algorithm = algos::find_algorithm(r.algorithm);
  nlohmann::json fields = nlohmann::json::object();
  nlohmann::json sources = nlohmann::json::object();
  if (auto text = algorithm->to_text(r.spec)) {
    for (const auto& f : *text) {
      fields[f.name] = f.value;
      if (!f.source.empty()) sources[f.name] = f.source;
    }
  }
  nlohmann::json kernels = nlohmann::json::object();
  for (std::size_t i = 0; i < r.num_kernels && i < algorithm->kernel_roles.size(); ++i)
    kernels[std::string(algorithm->kernel_roles[i])] = std::string(r.kernel_names[i]);
  nlohmann::json policy = nlohmann::json::object();
  const auto names = algorithm->value_names();
  for (std::size_t i = 0; i < r.num_values && i < names.size(); ++i)
    policy[std::string(names[i])] = r.value_array[i];
  return {
      {"spec_text", to_spec_text(algos::spec_of(r))},
      {"fields", fields},
      {"operator_sources", sources},
      {"cc", r.cc},
      {"toolchain", std::string(r.toolchain)},
      {"cubin_bytes", r.cubin.size()},
      {"kernels", kernels},
      {"policy", policy},
  };
}

// The device CCs (of this NVRTC's list) this entry serves: its own, and with cc_fallback
// each higher minor of its major whose own entry, or a nearer minor's, is absent.
Result<std::vector<std::uint32_t>> served_devices(Store& store, const CacheKey& key,
                                                  const algos::AnySpec& spec, bool fallback) {
  std::vector<std::uint32_t> out;
  const auto& tc = algos::Toolchain::current();
  for (std::uint32_t device : family_from(key.cc)) {
    for (std::uint32_t serving : serving_ccs(device, fallback)) {
      if (serving == key.cc) {
        out.push_back(device);
        break;
      }
      if (serving < key.cc) break;
      auto e = store.peek(algos::cache_key(spec, serving, tc));
      if (!e) return tl::unexpected(e.error());
      if (*e) break;  // served by its own entry or a nearer minor's
    }
  }
  return out;
}

std::string cc_list(const std::vector<std::uint32_t>& ccs) {
  std::string out;
  for (auto cc : ccs) out += (out.empty() ? "" : ", ") + cc_name(cc);
  return out;
}

// How an entry's toolchain relates to this cccl-cache's for its algorithm: the same,
// another dispatch ABI of that algorithm only, or another toolchain.
std::string toolchain_relation(const EntryMeta& m) {
  const std::string own = algos::Toolchain::current().fingerprint(m.algorithm);
  if (m.toolchain == own) return "this toolchain";
  const auto stored = algos::split_fingerprint(m.toolchain);
  const auto here = algos::split_fingerprint(own);
  if (algos::find_algorithm(m.algorithm) != nullptr && stored.shared == here.shared)
    return "another dispatch ABI of " + printable(m.algorithm) + ": this cccl-cache's is " +
           std::string(here.abi);
  return "another toolchain";
}

void print_text(const Entry& e, const CheckResult& check, const nlohmann::json* build) {
  const auto& m = e.meta;
  std::printf("key:            %s\n", e.key.to_string().c_str());
  std::printf("algorithm:      %s\n", printable(m.algorithm).c_str());
  std::printf("spec:           %s\n", printable(m.summary).c_str());
  std::printf("arch:           %s\n", cc_name(e.key.cc).c_str());
  std::printf("toolchain:      %s (%s)\n", printable(m.toolchain).c_str(),
              toolchain_relation(m).c_str());
  std::printf("payload format: %u\n", m.payload_format);
  std::printf("payload size:   %s (%llu bytes)\n", human_size(m.payload_size).c_str(),
              static_cast<unsigned long long>(m.payload_size));
  std::printf("created:        %s\n", format_time(m.created_unix).c_str());
  std::printf("last used:      %s\n", format_time(m.last_used_unix).c_str());
  std::printf("hits:           %llu\n", static_cast<unsigned long long>(m.hits));
  std::printf("check:          %s\n",
              check.status == CheckStatus::ok ? "ok" : printable(check.reason).c_str());
  if (build != nullptr && build->contains("serves"))
    std::printf("serves devices: %s\n", (*build)["serves"].get<std::string>().c_str());
  if (build == nullptr) return;
  const auto& b = *build;
  std::printf("build result:\n");
  std::printf("  spec:         %s\n", printable(b["spec_text"].get<std::string>()).c_str());
  for (const auto& [field, source] : b["operator_sources"].items()) {
    std::printf("  %s source:\n    %s\n", printable(field).c_str(),
                printable(source.get<std::string>(), true).c_str());
  }
  std::printf("  cubin:        %s\n", human_size(b["cubin_bytes"].get<std::uint64_t>()).c_str());
  std::printf("  kernels:\n");
  for (const auto& [role, name] : b["kernels"].items()) {
    std::printf("    %-11s %s\n", role.c_str(), printable(name.get<std::string>()).c_str());
  }
  std::string policy;
  for (const auto& [name, value] : b["policy"].items())
    policy += " " + name + "=" + std::to_string(value.get<std::uint64_t>());
  std::printf("  policy:      %s\n", policy.c_str());
}

int run_inspect(const Context& ctx, const InspectOptions& o) {
  auto store = open_store(ctx.globals, OpenMode::read);
  if (!store) return report(store.error());
  auto key = resolve_key(**store, o.key);
  if (!key)
    return key.error().code == ErrorCode::not_found ? report(kExitProblems, key.error().message)
                                                    : report(key.error());
  auto entry = (*store)->peek(*key);
  if (!entry)
    return report(kExitProblems,
                  "entry " + key->to_string() + " is unreadable: " + entry.error().describe());
  if (!*entry) {
    // Listed but unreadable means the envelope fails its checksum (peek reports a miss).
    bool listed = false;
    (void)(*store)->for_each(
        [&](const CacheKey& k, const EntryMeta&) { return !(listed = k == *key); });
    return report(kExitProblems, listed ? "entry " + key->to_string() +
                                              " fails its checksum (see 'cccl-cache verify')"
                                        : "no entry with key '" + key->to_string() + "'");
  }
  const Entry& e = **entry;
  const CheckResult check = check_payload(e.key, e.meta, e.payload);
  std::optional<nlohmann::json> build;
  std::vector<std::uint32_t> serves;
  if (auto record = decode_record(e.key, e.payload)) {
    build = build_json(*record);
    if (check.status == CheckStatus::ok) {  // keys of other CCs: this toolchain's only
      auto config = load_config(ctx.globals);
      auto served = served_devices(**store, e.key, algos::spec_of(*record),
                                   config && config->cc_fallback);
      if (!served) return report(served.error());
      serves = *served;
      (*build)["serves"] = cc_list(serves);
    }
  }
  if (o.json) {
    auto j = entry_json(e.key, e.meta);
    j["check"] = check_name(check.status);
    if (!check.reason.empty()) j["check_reason"] = check.reason;
    j["build"] = build ? *build : nlohmann::json(nullptr);
    auto devices = nlohmann::json::array();
    for (auto cc : serves) devices.push_back(cc_name(cc));
    j["serves_devices"] = devices;
    print_json(j);
  } else {
    print_text(e, check, build ? &*build : nullptr);
  }
  return check.status == CheckStatus::bad ? kExitProblems : kExitOk;
}

}  // namespace

void add_inspect(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<InspectOptions>();
  auto* cmd =
      app.add_subcommand("inspect", "Everything about one entry: spec, kernels, policy, times");
  cmd->add_option("key", o->key, "The entry's key as 'cccl-cache ls' prints it, or a unique prefix")
      ->required();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([&ctx, o] { ctx.run = [&ctx, o] { return run_inspect(ctx, *o); }; });
}

}  // namespace cccl_cache::cli
