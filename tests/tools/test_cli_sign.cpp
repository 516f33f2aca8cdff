// Signed entries end to end: keygen, export signed by the configured key, import and
// verify --archive accepting only entries signed by a trusted key (unsigned, tampered,
// untrusted and impostor-signed entries rejected), key rotation through two names.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "archive.hpp"
#include "cccl_cache/cache/signing.hpp"
#include "cli_test_util.hpp"

namespace cccl_cache::test {
namespace {

namespace fs = std::filesystem;
using cli::ArchiveWriter;

struct Keys {
  fs::path dir;
  std::string pub(const std::string& name) const {
    std::ifstream in(dir / (name + ".pub"));
    std::string line;
    std::getline(in, line);
    return line;
  }
};

// Writes a config file and returns its path.
fs::path config_file(const fs::path& dir, const std::string& name, const std::string& text) {
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path;
}

std::string trusting(const std::vector<std::string>& keys) {
  std::string list;
  for (const auto& k : keys) list += (list.empty() ? "\"" : ", \"") + k + "\"";
  return "trusted_keys = [" + list + "]\n";
}

class CliSigned : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_.dir = files_.path() / "keys";
    fs::create_directories(keys_.dir);
    for (const char* name : {"ci-2025", "ci-2026", "stranger"})
      ASSERT_EQ(keygen(name, keys_.dir).code, 0);
    fs::create_directories(files_.path() / "impostor");
    ASSERT_EQ(keygen("ci-2026", files_.path() / "impostor").code, 0);
    k90_ = put_build(src_.path(), real_build(90));
    k80_ = put_build(src_.path(), real_build(80));
  }
  static CliResult keygen(const std::string& name, const fs::path& dir) {
    return run_cli({"keygen", name, "--out-dir", dir.string()});
  }
  // Exports the source cache, signed by `secret` (none: unsigned).
  fs::path exported(const std::string& name, const std::optional<fs::path>& secret) {
    const auto file = files_.path() / (name + ".cccl");
    const auto config = config_file(
        files_.path(), name + ".toml",
        secret ? "signing_key = \"" + secret->string() + "\"\n" : std::string());
    auto r = run_cli({"--config", config.string(), "--cache-dir", src_.path().string(), "export",
                      file.string()});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(secret ? "signed by" : "unsigned"), std::string::npos) << r.out;
    return file;
  }
  // Imports `archive` into a fresh cache whose config trusts `trusted`.
  nlohmann::json import(const fs::path& archive, const std::vector<std::string>& trusted,
                        int want_code) {
    const auto dst = files_.path() / ("dst" + std::to_string(++imports_));
    const auto config = config_file(files_.path(), "reader.toml", trusting(trusted));
    auto r = run_cli({"--config", config.string(), "--cache-dir", dst.string(), "import",
                      archive.string(), "--json"});
    EXPECT_EQ(r.code, want_code) << r.out << r.err;
    return r.json();
  }
  fs::path secret(const std::string& name) const { return keys_.dir / (name + ".sec"); }

  TempDir src_, files_;
  Keys keys_;
  CacheKey k90_, k80_;
  int imports_ = 0;
};

TEST_F(CliSigned, KeygenWritesAPrivateSecretAndRefusesToOverwrite) {
  struct stat st {};
  ASSERT_EQ(::stat(secret("ci-2026").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_TRUE(PublicKey::parse(keys_.pub("ci-2026"))) << keys_.pub("ci-2026");
  const auto before = read_file(secret("ci-2026"));
  auto again = keygen("ci-2026", keys_.dir);
  EXPECT_NE(again.code, 0);
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
  EXPECT_EQ(read_file(secret("ci-2026")), before) << "the old key is kept";
  EXPECT_EQ(keygen("bad name", keys_.dir).code, 2);
}

TEST_F(CliSigned, SignedArchiveImportsUnderTrust) {
  auto j = import(exported("signed", secret("ci-2026")), {keys_.pub("ci-2026")}, 0);
  EXPECT_EQ(j["imported"], 2);
  EXPECT_EQ(j["signatures_required"], true);
  EXPECT_EQ(j["rejected_signatures"], 0);
}

TEST_F(CliSigned, UnsignedUntrustedAndImpostorSignedArchivesAreRejected) {
  const std::vector<std::string> trust{keys_.pub("ci-2026")};
  struct Case {
    const char* name;
    std::optional<fs::path> key;
    const char* reason;
  } cases[] = {
      {"unsigned", std::nullopt, "unsigned"},
      {"stranger", secret("stranger"), "untrusted"},
      {"impostor", files_.path() / "impostor" / "ci-2026.sec", "bad signature"},
  };
  for (const auto& c : cases) {
    auto j = import(exported(c.name, c.key), trust, 1);
    EXPECT_EQ(j["imported"], 0) << c.name;
    EXPECT_EQ(j["rejected_signatures"], 2) << c.name;
    ASSERT_EQ(j["problems"].size(), 2u) << c.name;
    EXPECT_NE(j["problems"][0].get<std::string>().find(c.reason), std::string::npos)
        << c.name << ": " << j["problems"][0];
  }
  // Without trusted keys nothing is required: the unsigned archive imports.
  EXPECT_EQ(import(exported("open", std::nullopt), {}, 0)["imported"], 2);
}

TEST_F(CliSigned, TamperedEntryWithRecomputedChecksumsIsRejected) {
  const auto file = exported("signed", secret("ci-2026"));
  auto contents = cli::read_archive(file);
  ASSERT_TRUE(contents && contents->entries.size() == 2);
  // An attacker rewrites the archive: a changed payload byte, every checksum redone,
  // the original signature kept.
  ArchiveWriter writer(true);
  for (std::size_t i = 0; i < 2; ++i) {
    Entry e = contents->entries[i];
    if (i == 0) e.payload[e.payload.size() - 100] ^= std::byte{0x20};
    writer.add(e, contents->signatures[i]);
  }
  const auto tampered = files_.path() / "tampered.cccl";
  ASSERT_TRUE(writer.write(tampered));
  auto j = import(tampered, {keys_.pub("ci-2026")}, 1);
  EXPECT_EQ(j["imported"], 1);
  EXPECT_EQ(j["rejected_signatures"], 1);
  EXPECT_NE(j["problems"][0].get<std::string>().find("bad signature"), std::string::npos);

  auto v = run_cli({"verify", "--archive", tampered.string(), "--trusted-key",
                    keys_.pub("ci-2026")});
  EXPECT_EQ(v.code, 1) << v.out << v.err;
  EXPECT_NE(v.out.find("bad signature"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("OK  " + contents->entries[1].key.to_string() + " signed by ci-2026"),
            std::string::npos)
      << v.out;
}

TEST_F(CliSigned, RotationAcceptsOldAndNewKeysWhileBothAreTrusted) {
  const auto old_signed = exported("old", secret("ci-2025"));
  const auto new_signed = exported("new", secret("ci-2026"));
  const std::vector<std::string> both{keys_.pub("ci-2025"), keys_.pub("ci-2026")};
  EXPECT_EQ(import(old_signed, both, 0)["imported"], 2);
  EXPECT_EQ(import(new_signed, both, 0)["imported"], 2);
  // The old key retired: its entries are no longer accepted.
  EXPECT_EQ(import(old_signed, {keys_.pub("ci-2026")}, 1)["rejected_signatures"], 2);
  auto v = run_cli({"verify", "--archive", new_signed.string(), "--trusted-key",
                    keys_.pub("ci-2026"), "--json"});
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  auto j = v.json();
  EXPECT_EQ(j["ok"], 2);
  EXPECT_EQ(j["entries"][0]["signed_by"], "ci-2026");
}

TEST_F(CliSigned, VerifyArchiveWithoutTrustedKeysSaysSignaturesWereNotChecked) {
  auto v = run_cli({"--config", config_file(files_.path(), "none.toml", "").string(), "verify",
                    "--archive", exported("unsigned", std::nullopt).string()});
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("signatures not checked"), std::string::npos) << v.out;
  auto bad = run_cli({"verify", "--archive", "x.cccl", "--trusted-key", "nocolon"});
  EXPECT_EQ(bad.code, 2) << bad.err;
}

// A store filled from a signed archive keeps the signatures: verify checks them (with
// trusted_keys, or the signing key's own), stats counts them, export carries them, an
// entry replaced unsigned loses its signature and verify --repair removes it.
TEST_F(CliSigned, StoreKeepsSignaturesForVerifyStatsAndExport) {
  const auto archive = exported("signed", secret("ci-2026"));
  import(archive, {keys_.pub("ci-2026")}, 0);
  const auto dst = files_.path() / "dst1";
  const auto trusting_ci = config_file(files_.path(), "trust.toml", trusting({keys_.pub("ci-2026")}));
  const auto signing_ci =
      config_file(files_.path(), "sign.toml", "signing_key = \"" + secret("ci-2026").string() + "\"\n");
  const auto trusting_other =
      config_file(files_.path(), "other.toml", trusting({keys_.pub("stranger")}));
  auto verify = [&](const fs::path& config, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--config", config.string(), "--cache-dir", dst.string(),
                                  "verify", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  for (const auto& config : {trusting_ci, signing_ci}) {
    auto v = verify(config);
    EXPECT_EQ(v.code, 0) << v.out << v.err;
    EXPECT_EQ(v.json()["signatures_required"], true);
    EXPECT_EQ(v.json()["signature_ok"], 2);
    EXPECT_EQ(v.json()["orphan_signatures"].size(), 0u);
  }
  auto other = verify(trusting_other);
  EXPECT_EQ(other.code, 1) << other.out;
  EXPECT_EQ(other.json()["bad"].size(), 2u);
  EXPECT_NE(other.json()["bad"][0]["reason"].get<std::string>().find("untrusted"), std::string::npos)
      << other.out;
  auto stats = run_cli({"--cache-dir", dst.string(), "stats", "--json"});
  EXPECT_EQ(stats.json()["signed_entries"], 2) << stats.out;

  // Export without a signing key carries the stored signatures.
  const auto reexported = files_.path() / "re.cccl";
  auto e = run_cli({"--config", config_file(files_.path(), "none.toml", "").string(), "--cache-dir",
                    dst.string(), "export", reexported.string()});
  EXPECT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.out.find("2 with their stored signatures"), std::string::npos) << e.out;
  auto va = run_cli({"verify", "--archive", reexported.string(), "--trusted-key",
                     keys_.pub("ci-2026"), "--json"});
  EXPECT_EQ(va.code, 0) << va.out;
  EXPECT_EQ(va.json()["ok"], 2);

  // Replaced unsigned: required signatures make it bad; --repair removes it.
  put_build(dst, real_build(90));
  auto bad = verify(trusting_ci);
  EXPECT_EQ(bad.code, 1) << bad.out;
  ASSERT_EQ(bad.json()["bad"].size(), 1u) << bad.out;
  EXPECT_EQ(bad.json()["bad"][0]["key"], k90_.to_string());
  EXPECT_NE(bad.json()["bad"][0]["reason"].get<std::string>().find("unsigned"), std::string::npos);
  EXPECT_EQ(verify(trusting_ci, {"--repair"}).code, 1) << "it reports what it removed";
  auto clean = verify(trusting_ci);
  EXPECT_EQ(clean.code, 0) << clean.out;
  EXPECT_EQ(clean.json()["signature_ok"], 1);
  EXPECT_EQ(run_cli({"--cache-dir", dst.string(), "stats", "--json"}).json()["signed_entries"], 1);
}

}  // namespace
}  // namespace cccl_cache::test
