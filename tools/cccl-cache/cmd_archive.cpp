// cccl-cache export FILE [filters] / import FILE: moving entries between machines
// through one portable, checksummed archive (archive.hpp).
#include <cstdio>
#include <memory>

#include "archive.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "commands.hpp"
#include "entry_check.hpp"
#include "format.hpp"

namespace cccl_cache::cli {

namespace {

struct ExportOptions {
  std::string file;
  std::string algorithm;
  std::string arch;
  bool no_compress = false;
};

struct ImportOptions {
  std::string file;
  bool json = false;
};

int run_export(const Context& ctx, const ExportOptions& o) {
  const auto arch = parse_arch_filter(o.arch);
  if (!arch) return report(arch.error());
  const std::optional<std::uint32_t> cc = *arch;
  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  auto signer = load_signing_key(*config);  // signs every entry when configured, else
  if (!signer) return report(signer.error());  // each carries its stored signature
  auto store = open_store(ctx.globals, OpenMode::read);
  if (!store) return report(store.error());
  std::vector<CacheKey> keys;
  auto r = (*store)->for_each([&](const CacheKey& k, const EntryMeta& m) {
    if ((o.algorithm.empty() || m.algorithm == o.algorithm) && (!cc || k.cc == *cc))
      keys.push_back(k);
    return true;
  });
  if (!r) return report(r.error());
  ArchiveWriter writer(!o.no_compress);
  std::size_t skipped = 0, stored_signed = 0;
  std::uint64_t bytes = 0;
  for (const auto& k : keys) {
    auto e = (*store)->peek(k);
    if (!e) return report(e.error());
    if (!*e) {
      // Listed but unreadable: its envelope fails the checksum. It is never exported.
      std::fprintf(stderr,
                   "cccl-cache: skipping %s: fails its checksum (see 'cccl-cache verify')\n",
                   k.to_string().c_str());
      ++skipped;
      continue;
    }
    bytes += (*e)->payload.size();
    const auto& entry = **e;
    stored_signed += !entry.signature.empty();
    writer.add(entry, *signer ? (*signer)->sign(entry.key, signed_fields(entry.meta), entry.payload)
                              : entry.signature);
  }
  if (auto w = writer.write(o.file); !w) return report(w.error());
  std::printf("exported %llu entries (%s of payload) to %s, %s%s\n",
              static_cast<unsigned long long>(writer.count()), human_size(bytes).c_str(),
              o.file.c_str(),
              *signer          ? ("signed by " + printable((*signer)->name())).c_str()
              : stored_signed ? (std::to_string(stored_signed) + " with their stored signatures").c_str()
                              : "unsigned",
              skipped ? " (corrupt entries skipped)" : "");
  return skipped ? kExitProblems : kExitOk;
}

int run_import(const Context& ctx, const ImportOptions& o) {
  auto contents = read_archive(o.file);
  if (!contents) return report(contents.error());
  auto config = load_config(ctx.globals);
  if (!config) return report(config.error());
  auto trust = TrustSet::from_config(*config);
  if (!trust) return report(trust.error());
  SignatureGate gate(std::move(*trust));  // with trusted keys: only entries they signed
  auto store = open_store(ctx.globals, OpenMode::create);
  if (!store) return report(store.error());
  std::vector<std::string> problems = contents->problems;
  std::uint64_t imported = 0, present = 0, checksum_only = 0;
  const std::string source = "archive " + printable(o.file);
  for (std::size_t i = 0; i < contents->entries.size(); ++i) {
    const auto& e = contents->entries[i];
    // Before anything parses the payload: an entry from outside needs its signature.
    if (auto signer = gate.check(e.key, signed_fields(e.meta), e.payload,
                                 contents->signatures[i], source);
        !signer) {
      problems.push_back(e.key.to_string() + ": " + std::string(to_string(signer.error())) +
                         ", rejected");
      continue;
    }
    // check_payload recomputes the key from the payload's own spec, CC and toolchain: an
    // entry whose key cannot be recomputed here (another toolchain: stale) is rejected too.
    const auto check = check_payload(e.key, e.meta, e.payload);
    if (check.status == CheckStatus::bad || check.status == CheckStatus::stale) {
      problems.push_back(e.key.to_string() + ": " + check.reason + ", skipped");
      continue;
    }
    // Keep a good entry already there; replace only a missing or unreadable one.
    auto existing = (*store)->peek(e.key);
    const auto kept = existing && *existing
                          ? check_payload(e.key, (*existing)->meta, (*existing)->payload).status
                          : CheckStatus::bad;
    if (kept == CheckStatus::ok || kept == CheckStatus::unchecked) {
      ++present;
      continue;
    }
    EntryMeta meta = e.meta;
    meta.summary = derived_summary(e.key, e.meta, e.payload);  // never the archive's
    // The archive's signature is kept while it covers what is stored (a signed image).
    const std::string& signature =
        meta.summary == e.meta.summary ? contents->signatures[i] : std::string();
    if (auto p = (*store)->put(e.key, meta, e.payload, signature); !p) return report(p.error());
    ++imported;
    if (check.status == CheckStatus::unchecked) ++checksum_only;
  }
  if (o.json) {
    print_json({{"imported", imported},
                {"already_present", present},
                {"checksum_only", checksum_only},
                {"signatures_required", gate.enabled()},
                {"rejected_signatures", gate.counts().rejected()},
                {"bad", problems.size()},
                {"problems", problems},
                {"trailer_ok", contents->trailer_ok}});
  } else {
    for (const auto& p : problems) std::printf("BAD %s\n", printable(p).c_str());
    std::printf("imported %llu entries (%llu checksum only), %llu already present, %zu problems%s\n",
                static_cast<unsigned long long>(imported),
                static_cast<unsigned long long>(checksum_only),
                static_cast<unsigned long long>(present), problems.size(),
                gate.enabled() ? (", " + std::to_string(gate.counts().rejected()) +
                                  " rejected for their signature")
                                     .c_str()
                               : "");
  }
  return problems.empty() ? kExitOk : kExitProblems;
}

}  // namespace

void add_export_import(CLI::App& app, Context& ctx) {
  auto eo = std::make_shared<ExportOptions>();
  auto* ex =
      app.add_subcommand("export", "Write entries to one portable, checksummed archive file");
  ex->add_option("file", eo->file, "Archive file to write")->required();
  ex->add_option("--algorithm", eo->algorithm, "Only entries of this algorithm");
  ex->add_option("--arch", eo->arch, "Only entries for this compute capability (sm_XY)");
  ex->add_flag("--no-compress", eo->no_compress, "Do not zstd-compress the archive");
  ex->callback([&ctx, eo] { ctx.run = [&ctx, eo] { return run_export(ctx, *eo); }; });

  auto io = std::make_shared<ImportOptions>();
  auto* im = app.add_subcommand(
      "import", "Add the entries of an archive, verifying each; bad ones are skipped");
  im->add_option("file", io->file, "Archive file to read")->required();
  im->add_flag("--json", io->json, "Print JSON");
  im->callback([&ctx, io] { ctx.run = [&ctx, io] { return run_import(ctx, *io); }; });
}

}  // namespace cccl_cache::cli
