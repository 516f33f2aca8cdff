// cccl-cache keygen NAME: an Ed25519 key pair for signed entries (signing.hpp); and
// verify --archive FILE: every entry of an archive checked, its signature included.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "archive.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "commands.hpp"
#include "entry_check.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

struct KeygenOptions {
  std::string name;
  std::string out_dir = ".";
};

int run_keygen(const KeygenOptions& o) {
  auto key = SecretKey::generate(o.name);
  if (!key) return report(key.error());
  const std::filesystem::path dir(o.out_dir);
  const auto secret = dir / (o.name + ".sec"), pub = dir / (o.name + ".pub");
  if (auto w = key->write(secret, pub); !w) return report(w.error());
  std::printf("%s\n", key->public_key().to_text().c_str());
  std::fprintf(stderr,
               "cccl-cache: wrote %s (secret, mode 0600: keep it on the machines that publish) "
               "and %s (public: add its line to trusted_keys of the readers)\n",
               printable(secret.string()).c_str(), printable(pub.string()).c_str());
  return kExitOk;
}

}  // namespace

int run_verify_archive(const Context& ctx, const std::string& file,
                       const std::vector<std::string>& extra_keys, bool json) {
  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  auto trust = TrustSet::from_config(*config);
  if (!trust) return report(trust.error());
  for (const auto& text : extra_keys) {
    auto key = PublicKey::parse(text);
    if (!key) return report(key.error());
    if (auto added = trust->add(*key); !added) return report(added.error());
  }
  auto contents = read_archive(file);
  if (!contents) return report(contents.error());
  const bool required = trust->enabled();
  std::vector<std::string> problems = contents->problems;
  nlohmann::json entries = nlohmann::json::array();
  std::uint64_t ok = 0;
  for (std::size_t i = 0; i < contents->entries.size(); ++i) {
    const auto& e = contents->entries[i];
    const auto& sig = contents->signatures[i];
    std::string signer = "-", problem;
    if (required) {  // first, as import does: nothing parses an entry its signature refuses
      auto v = trust->verify(e.key, signed_fields(e.meta), e.payload, sig);
      if (v)
        signer = *v;
      else
        problem = std::string(to_string(v.error()));
    } else if (!sig.empty()) {
      signer = "unchecked (no trusted keys)";
    }
    if (problem.empty()) {
      const auto check = check_payload(e.key, e.meta, e.payload);
      if (check.status == CheckStatus::bad || check.status == CheckStatus::stale)
        problem = check.reason;
    }
    if (problem.empty()) ++ok;
    else problems.push_back(e.key.to_string() + ": " + problem);
    entries.push_back({{"key", e.key.to_string()},
                       {"signed_by", signer},
                       {"ok", problem.empty()},
                       {"problem", problem}});
    if (!json)
      std::printf("%s %s signed by %s%s\n", problem.empty() ? "OK " : "BAD",
                  e.key.to_string().c_str(), printable(signer).c_str(),
                  problem.empty() ? "" : (": " + printable(problem)).c_str());
  }
  if (json) {
    print_json({{"archive", file},
                {"signatures_required", required},
                {"trusted_keys", trust->size()},
                {"ok", ok},
                {"bad", problems.size()},
                {"entries", entries},
                {"problems", problems},
                {"trailer_ok", contents->trailer_ok}});
  } else {
    for (const auto& p : contents->problems) std::printf("BAD %s\n", printable(p).c_str());
    std::printf("%llu entries ok, %zu problems%s\n", static_cast<unsigned long long>(ok),
                problems.size(),
                required ? "" : " (no trusted keys configured: signatures not checked)");
  }
  return problems.empty() ? kExitOk : kExitProblems;
}

void add_keygen(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<KeygenOptions>();
  auto* cmd = app.add_subcommand(
      "keygen", "Write an Ed25519 key pair NAME.sec (mode 0600) and NAME.pub for signed entries");
  cmd->add_option("name", o->name, "Key name (letters, digits, '.', '_', '-'), e.g. ci-2026")
      ->required();
  cmd->add_option("-o,--out-dir", o->out_dir, "Directory to write the two files in (default .)");
  cmd->callback([&ctx, o] { ctx.run = [o] { return run_keygen(*o); }; });
}

}  // namespace cccl_cache::cli
