// Rings and tori for TPU-style studies. Each endpoint hangs off its own router
// (a chip's on-die interconnect router, as on TPU v4's ICI), so traffic may
// cross intermediate chips without a GPU forwarding it: routes never transit
// GPUs (routes.hpp). Router i sits at coordinates with the first dimension
// varying fastest and links to its +1 neighbour in every dimension, wrapping
// around when `wrap` (a size-2 dimension has one link, not two).
#include <fmt/format.h>

#include "sim/hw/fabric.hpp"

namespace collsim {

void build_torus(YamlFields& /*f*/, FragmentBuilder& b, const FabricSpec& spec) {
    const std::size_t n = spec.endpoints.size();
    const DeviceId first = static_cast<DeviceId>(b.device_count());
    for (std::size_t i = 0; i < n; ++i)
        if (!b.add_device(fabric_switch(spec, fmt::format("{}.router{}", spec.name, i)), spec.path, spec.node))
            return;  // a name clash, reported once
    int64_t endpoint_bps = 0;
    for (std::size_t i = 0; i < n; ++i) {
        Link l = spec.endpoint_link;
        l.a = spec.endpoints[i];
        l.b = first + static_cast<DeviceId>(i);
        b.add_link(l);
        endpoint_bps += l.bandwidth.bps();
    }
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t stride = 1;
        for (int size : spec.dims) {
            const auto s = static_cast<std::size_t>(size);
            const std::size_t coord = (i / stride) % s;
            std::size_t next = SIZE_MAX;
            if (coord + 1 < s)
                next = i + stride;
            else if (spec.wrap && s > 2)
                next = i - coord * stride;
            if (next != SIZE_MAX) {
                Link l = spec.link;
                l.a = first + static_cast<DeviceId>(i);
                l.b = first + static_cast<DeviceId>(next);
                b.add_link(l);
            }
            stride *= s;
        }
    }
    FabricInfo info{spec.name, spec.kind_name, 1, static_cast<uint32_t>(n), {}};
    // A torus has no up direction, so no oversubscription.
    info.tiers.push_back({"router", static_cast<uint32_t>(n), endpoint_bps, 0, "", static_cast<int64_t>(n),
                          static_cast<int64_t>(n)});
    b.add_fabric(std::move(info));
}

}  // namespace collsim
