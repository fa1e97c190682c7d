#pragma once
// The NCCL_* settings a measured run records, and what they mean for
// predicting it: NCCL_ALGO and NCCL_PROTO force, allow (a list) or exclude
// (a ^list) algorithms and protocols, NCCL_NVLS_ENABLE=0 turns NVLS off, NCCL_COLLNET_ENABLE=1 turns
// CollNet on. The CSV form states them on its '# env:' line, NCCL's own log
// ('NCCL INFO NCCL_ALGO set by environment to Ring') in raw nccl-tests output.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "algorithms/tuner/tuner.hpp"
#include "sim/core/error.hpp"
#include "sim/exec/collective.hpp"

namespace collsim {

struct NcclSetting {
    std::string name, value;  // "NCCL_ALGO", "Ring"
    SourceLocation at;        // where the log states it
};

// Every NAME=VALUE with a NAME starting "NCCL_" in a text, each at its
// column (1-based) on `line`. A comma and a space end a value where another
// setting follows ("NCCL_NVLS_ENABLE=0, NCCL_ALGO=ring"); before anything
// else ("NCCL_ALGO=Tree, Ring in turn") the value is prose about several
// runs, not a setting, and is skipped.
std::vector<NcclSetting> nccl_settings_in(std::string_view text, const std::string& file, int line, int first_column);

// What the settings ask of the prediction, in collsim's names.
struct NcclSelection {
    std::string algo = "auto", proto = "auto";
    std::vector<std::string> disabled, enabled;
    ProtoSwitches protos;  // NCCL_PROTO as a list or a ^list
};

// What they ask of a run of `op` (NCCL >= 2.24 takes lists per function:
// "NCCL_ALGO=ring;allreduce:tree"). Throws InputError (at the setting) for
// values NCCL would not take or that collsim cannot follow (an algorithm or a
// protocol it does not model), and for one setting given two values.
NcclSelection nccl_selection(const std::vector<NcclSetting>& settings, CollOp op);

// collsim's algorithm for one of NCCL_ALGO's names, matched without case
// ("Ring", "NVLSTree", "CollnetDirect"); nullopt for a name NCCL does not
// have, or one collsim does not model (PAT, CollnetChain).
std::optional<std::string> algorithm_for_nccl_name(std::string_view nccl_name);

// Appends a value unless the list has it already.
template <typename T>
void add_once(std::vector<T>& v, const std::type_identity_t<T>& value) {
    if (std::find(v.begin(), v.end(), value) == v.end()) v.push_back(value);
}

}  // namespace collsim
