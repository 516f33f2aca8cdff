// One registration function per command (cmd_<name>.cpp). Each adds its subcommand
// to `app` and, when chosen, sets ctx.run to the code that runs it after parsing.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "context.hpp"

namespace cccl_cache::cli {

void add_prewarm(CLI::App& app, Context& ctx);
void add_ls(CLI::App& app, Context& ctx);
void add_inspect(CLI::App& app, Context& ctx);
void add_stats(CLI::App& app, Context& ctx);
void add_evict(CLI::App& app, Context& ctx);
void add_verify(CLI::App& app, Context& ctx);
void add_why(CLI::App& app, Context& ctx);
void add_export_import(CLI::App& app, Context& ctx);
void add_clear(CLI::App& app, Context& ctx);
void add_keygen(CLI::App& app, Context& ctx);

// verify --archive FILE: each entry's checksum, build result and signature (against the
// config's trusted keys plus `extra_keys`, "name:base64"). Exit 1 on any problem.
int run_verify_archive(const Context& ctx, const std::string& file,
                       const std::vector<std::string>& extra_keys, bool json);
void add_remote(CLI::App& app, Context& ctx);  // remote ping, push, pull

// Prints `j` (pretty) on stdout; the --json output of every command.
void print_json(const nlohmann::json& j);

}  // namespace cccl_cache::cli
