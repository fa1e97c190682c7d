#pragma once
// Helpers every subcommand uses to check its options.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/core/time.hpp"

namespace collsim {

// Throws InputError for a command-line option: "--op: expected ..., found '...'".
[[noreturn]] void bad_option(const std::string& option, std::string expected, const std::string& found);

// A duration option: nullopt for "", else a positive time with a unit
// ("30s", "2min"); anything else is bad input naming `option`.
std::optional<Time> parse_positive_time(const std::string& option, const std::string& text);

// The watchdog of --timeout: nullopt for "", else a positive time with a unit.
std::optional<Time> parse_timeout(const std::string& text);

// "on" -> true, "off" -> false; anything else is bad input naming `option`.
bool parse_on_off(const std::string& option, const std::string& text);

// A whole decimal integer of 32 bits ("8", "-1"); nullopt for anything else.
std::optional<int32_t> parse_int32(std::string_view text);

// "a,b,c" -> {"a", "b", "c"}
std::vector<std::string> split_list(const std::string& text);

// --disable and --enable, for the commands that run NCCL's tuner or read
// runs it chose for: what NCCL was told not to use, and what it leaves off
// unless told.
void add_algorithm_switches(CLI::App* c, std::vector<std::string>& disable, std::vector<std::string>& enable);
// --disable: every name a registered algorithm. --enable: every name one
// that NCCL leaves off by default, and none also in --disable.
void check_algorithm_switches(const std::vector<std::string>& disable, const std::vector<std::string>& enable);

// NCCL's spellings beside collsim's, without case as NCCL matches NCCL_ALGO:
// algorithms as NCCL_ALGO names them (Ring, Tree, NVLS, NVLSTree,
// CollnetDirect: ring, tree, nvls, nvls_tree, collnet here), protocols as
// NCCL_PROTO does (LL, LL128, Simple), collectives as nccl-tests' binaries
// (all_reduce, reduce_scatter). A name neither knows passes unchanged, for
// the command's own check to report with the choices.
void accept_nccl_algorithm_names(CLI::Option* o);
void accept_nccl_protocol_names(CLI::Option* o);
void accept_nccl_collective_names(CLI::Option* o);

// --gpus-per-thread: nccl-tests' -g, for coll's table, and for validate's and
// calibrate's logs that do not say it. gpus_per_thread(): nullopt for -1 (not given), else the
// count, checked to be 1 or more.
void add_gpus_per_thread_option(CLI::App* c, int& gpus_per_thread, const std::string& names = "--gpus-per-thread");
std::optional<int> gpus_per_thread(int option);

}  // namespace collsim
