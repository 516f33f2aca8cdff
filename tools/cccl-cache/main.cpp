// cccl-cache: the operator's CLI. Parses the command line, runs one command and
// maps every failure to a documented exit code (docs/cli.md). The only place that
// catches exceptions.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "cccl_cache/algos/toolchain.hpp"
#include "commands.hpp"
#include "context.hpp"

namespace cccl_cache::cli {

void print_json(const nlohmann::json& j) { std::cout << j.dump(2) << "\n"; }

namespace {

std::string version_text() {
  return std::string("cccl-cache ") + CCCL_CACHE_VERSION +
         "\ntoolchain: " + algos::Toolchain::current().fingerprint();
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
