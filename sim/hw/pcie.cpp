#include "sim/hw/pcie.hpp"

#include <array>

namespace collsim {

namespace {
// PCI-SIG base specifications, per lane and direction:
//   Gen1 2.5 GT/s and Gen2 5 GT/s with 8b/10b encoding;
//   Gen3 8 GT/s, Gen4 16 GT/s, Gen5 32 GT/s with 128b/130b encoding;
//   Gen6 64 GT/s PAM4 in 256-byte FLITs carrying 242 bytes of TLP payload.
// x16 comes to 15.75 / 31.5 / 63.0 GB/s for Gen3 / Gen4 / Gen5 (the usual
// published figures, e.g. MODEL-FACTS.md "PCIe raw per lane per dir").
struct PcieGen {
    int64_t mega_transfers;  // MT/s per lane
    int64_t code_num, code_den;
};
constexpr std::array<PcieGen, 6> kGens{{
    {2'500, 8, 10},
    {5'000, 8, 10},
    {8'000, 128, 130},
    {16'000, 128, 130},
    {32'000, 128, 130},
    {64'000, 242, 256},
}};
}  // namespace

bool valid_pcie_lanes(int lanes) {
    return lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8 || lanes == 16 || lanes == 32;
}

std::optional<Bandwidth> pcie_bandwidth(int gen, int lanes) {
    if (gen < 1 || gen > static_cast<int>(kGens.size())) return std::nullopt;
    const PcieGen& g = kGens[static_cast<size_t>(gen - 1)];
    // bits/s = MT/s * 1e6 * efficiency; bytes = bits / 8
    int64_t bytes = g.mega_transfers * 1'000'000 * g.code_num * lanes / (g.code_den * 8);
    return Bandwidth::bytes_per_s(bytes);
}

}  // namespace collsim
