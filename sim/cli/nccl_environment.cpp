#include "sim/cli/nccl_environment.hpp"

#include <array>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/validate/nccl_env.hpp"

namespace collsim {

namespace {
constexpr std::array<const char*, 4> kFollowed{"NCCL_ALGO", "NCCL_PROTO", "NCCL_NVLS_ENABLE", "NCCL_COLLNET_ENABLE"};
}  // namespace

std::vector<std::string> nccl_environment_settings() {
    std::vector<std::string> out;
    for (const char* name : kFollowed)
        if (const char* value = std::getenv(name); value && *value) out.push_back(fmt::format("{}={}", name, value));
    return out;
}

std::vector<std::string> follow_nccl_environment(CollOp op, AlgorithmChoice& choice) {
    std::vector<NcclSetting> settings;
    for (const char* name : kFollowed)
        if (const char* value = std::getenv(name); value && *value)
            settings.push_back(NcclSetting{name, value, SourceLocation{"environment", 0, 0}});
    std::vector<std::string> notes;
    if (settings.empty()) return notes;
    const NcclSelection env = nccl_selection(settings, op);
    const auto note = [&](const NcclSetting& s, bool given, const std::string& option, const std::string& meaning) {
        notes.push_back(given ? fmt::format("{}={} in the environment is overridden by {}", s.name, s.value, option)
                              : fmt::format("following {}={} from the environment: {}", s.name, s.value, meaning));
    };
    for (const NcclSetting& s : settings) {
        if (s.name == "NCCL_ALGO") {
            note(s, choice.algo_given || (choice.switches_given && env.algo == "auto"), "--algo",
                 env.algo != "auto" ? "--algo " + env.algo : fmt::format("--disable {}", fmt::join(env.disabled, ",")));
        } else if (s.name == "NCCL_PROTO") {
            note(s, choice.proto_given, "--proto",
                 env.proto != "auto" ? "--proto " + env.proto : "the tuner chooses among the protocols it allows");
        } else {
            const std::string meaning = s.name == "NCCL_NVLS_ENABLE"
                                            ? (s.value == "0" ? "--disable nvls,nvls_tree" : "nothing (NVLS is on by default)")
                                            : (s.value == "1" ? "--enable collnet" : "nothing (CollNet is off by default)");
            note(s, choice.switches_given, "--disable/--enable", meaning);
        }
    }
    if (!choice.algo_given) choice.algo = env.algo;
    if (!choice.proto_given) {
        choice.proto = env.proto;
        choice.protos = env.protos;
    }
    if (!choice.switches_given) {
        for (const std::string& a : env.disabled)
            if (a != choice.algo) add_once(choice.disabled, a);
        for (const std::string& a : env.enabled) add_once(choice.enabled, a);
    }
    return notes;
}

}  // namespace collsim
