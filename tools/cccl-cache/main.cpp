// cccl-cache: the operator's CLI. Parses the command line, runs one command and
// maps every failure to a documented exit code (docs/cli.md). The only place that
// catches exceptions.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "cccl_cache/algos/registry.hpp"
#include "cccl_cache/algos/toolchain.hpp"
#include "commands.hpp"
#include "context.hpp"

namespace cccl_cache::cli {

// ASCII only (other characters as \u escapes) and bytes that are not UTF-8 replaced,
// so that the output is valid JSON whatever the cache or an archive holds.
void print_json(const nlohmann::json& j) {
  std::cout << j.dump(2, ' ', true, nlohmann::json::error_handler_t::replace) << "\n";
}

namespace {

// The shared fingerprint, then each algorithm's dispatch ABI word: an algorithm's
// entries carry the shared part followed by its word.
std::string version_text() {
  const auto& tc = algos::Toolchain::current();
  std::string out = std::string("cccl-cache ") + CCCL_CACHE_VERSION +
                    "\ntoolchain: " + tc.shared_fingerprint() + "\ndispatch abi:";
  for (const auto& a : algos::algorithms())
    out += std::string(" ") + std::string(a.name) + "=" +
           std::string(algos::split_fingerprint(tc.fingerprint(a.name)).abi);
  return out;
}

// Every option that takes a value refuses an empty one: `--cache-dir ''` or
// `--arch ''` would otherwise mean "not given" and be silently ignored.
void refuse_empty_values(CLI::App& app) {
  const CLI::Validator non_empty(
      [](std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); },
      "NONEMPTY");
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size() != 0) opt->check(non_empty);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    refuse_empty_values(*sub);
}

std::string command_names(const CLI::App& app) {
  std::string out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out += (out.empty() ? "" : ", ") + sub->get_name();
  return out;
}

// The first argument that is neither an option nor a global option's value: what
// the user meant as the command. Empty when there is none.
std::string command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--cache-dir" || a == "--config") {
      ++i;
    } else if (!a.empty() && a[0] != '-') {
      return a;
    }
  }
  return {};
}

int run_main(int argc, char** argv) {
  CLI::App app{"cccl-cache: fill, inspect and trim the cccl-cache kernel cache", "cccl-cache"};
  Context ctx;
  app.add_option("--cache-dir", ctx.globals.cache_dir,
                 "Cache directory (default: $CCCL_CACHE_DIR, else $XDG_CACHE_HOME/cccl-cache, else "
                 "~/.cache/cccl-cache)");
  app.add_option("--config", ctx.globals.config_file,
                 "Configuration file (TOML; default: $CCCL_CACHE_CONFIG)");
  app.add_flag("-v,--verbose", ctx.globals.verbosity,
               "More log output on stderr (-v info, -vv debug)");
  app.set_version_flag("--version", version_text,
                       "Print the version and the toolchain fingerprint");
  app.require_subcommand(1);
  app.fallthrough();  // global options may also follow the command
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    return std::string(e.what()) + " (see '" + a->get_name() + " --help')\n";
  });

  add_prewarm(app, ctx);
  add_ls(app, ctx);
  add_inspect(app, ctx);
  add_stats(app, ctx);
  add_evict(app, ctx);
  add_verify(app, ctx);
  add_why(app, ctx);
  add_export_import(app, ctx);
  add_clear(app, ctx);
  add_keygen(app, ctx);
  add_remote(app, ctx);
  refuse_empty_values(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion&) {
    std::cout << version_text() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (app.get_subcommands().empty()) {
      const std::string word = command_word(argc, argv);
      bool known = false;
      for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        known = known || sub->check_name(word);
      if (!known) {
        return report(
            kExitUsage,
            (word.empty() ? std::string("no command given") : "unknown command '" + word + "'") +
                "; commands: " + command_names(app) + " (see 'cccl-cache --help')");
      }
    }
    std::string msg = e.what();
    return report(kExitUsage, msg + " (see 'cccl-cache --help')");
  }
  auto config = load_config(ctx.globals);
  configure_logging(ctx.globals, config ? config->log_level : std::string("warn"));
  if (!ctx.run) return report(kExitUsage, "no command given (see 'cccl-cache --help')");
  return ctx.run();
}

}  // namespace
}  // namespace cccl_cache::cli

int main(int argc, char** argv) {
  try {
    return cccl_cache::cli::run_main(argc, argv);
  } catch (const std::exception& e) {
    return cccl_cache::cli::report(cccl_cache::cli::kExitInternal,
                                   std::string("internal error: ") + e.what());
  } catch (...) {
    return cccl_cache::cli::report(cccl_cache::cli::kExitInternal,
                                   "internal error: unknown exception");
  }
}
