#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "sim/net/network.hpp"

using namespace collsim;
using namespace collsim::literals;

namespace {
Bandwidth gbps(int64_t g) { return Bandwidth::bytes_per_s(g * 1'000'000'000); }
}  // namespace

TEST_CASE("max-min gives the bottleneck share to every flow on a saturated link") {
    // Link 0: 10 GB/s, link 1: 4 GB/s. f1 uses link 0, f2 both, f3 link 1.
    // Link 1 is the bottleneck: f2 and f3 get 2 each; f1 takes the rest of link 0.
    Simulator sim;
    Network net(sim, {gbps(10), gbps(4)});
    FlowId f1 = net.start_flow({0}, Bytes(1'000'000'000), Time{}, [] {});
    FlowId f2 = net.start_flow({0, 1}, Bytes(1'000'000'000), Time{}, [] {});
    FlowId f3 = net.start_flow({1}, Bytes(1'000'000'000), Time{}, [] {});
    net.settle();
    CHECK(net.rate(f1) == gbps(8));
    CHECK(net.rate(f2) == gbps(2));
    CHECK(net.rate(f3) == gbps(2));
}

TEST_CASE("an uncontended flow takes latency plus size over bandwidth, exactly") {
    Simulator sim;
    Network net(sim, {gbps(50)});
    Time done{};
    net.start_flow({0}, Bytes(1'000'000), 2_us, [&] { done = sim.now(); });
    sim.run();
    CHECK(done == 22_us);  // 1 MB at 50 GB/s = 20 us, plus 2 us latency
}

TEST_CASE("a flow speeds up when the flow it shared a link with ends") {
    Simulator sim;
    Network net(sim, {gbps(10)});
    Time small_done{}, big_done{};
    net.start_flow({0}, Bytes(10'000), Time{}, [&] { small_done = sim.now(); });
    net.start_flow({0}, Bytes(30'000), Time{}, [&] { big_done = sim.now(); });
    sim.run();
    // Both at 5 GB/s: the small one ends at 2 us with 20 KB of the big one left,
    // which then runs alone at 10 GB/s for 2 us more.
    CHECK(small_done == 2_us);
    CHECK(big_done == 4_us);
}

TEST_CASE("re-rating touches only flows connected through shared links") {
    Simulator sim;
    Network net(sim, {gbps(10), gbps(10), gbps(10), gbps(10)});
    // Group A on links 0-1, group B on links 2-3: disjoint.
    net.start_flow({0}, Bytes(1'000'000), Time{}, [] {});
    net.start_flow({0, 1}, Bytes(1'000'000), Time{}, [] {});
    net.start_flow({1}, Bytes(1'000'000), Time{}, [] {});
    net.start_flow({2}, Bytes(1'000'000), Time{}, [] {});
    net.settle();
    const uint64_t before = net.rerated_flows();
    FlowId joined = net.start_flow({3, 2}, Bytes(1'000'000), Time{}, [] {});
    net.settle();
    // Only group B (the existing flow on link 2 and the new one) is re-rated.
    CHECK(net.rerated_flows() - before == 2);
    CHECK(net.rate(joined) == gbps(5));
}

TEST_CASE("bytes carried per link add up to what the flows moved") {
    Simulator sim;
    Network net(sim, {gbps(10), gbps(10)});
    net.start_flow({0}, Bytes(4'000), Time{}, [] {});
    net.start_flow({0, 1}, Bytes(6'000), Time{}, [] {});
    sim.run();
    CHECK(net.carried(0).count() == 10'000);
    CHECK(net.carried(1).count() == 6'000);
    CHECK(net.active_flows() == 0);
}

TEST_CASE("flows started at the same instant are re-rated once, together") {
    Simulator sim;
    Network net(sim, {gbps(10)});
    std::vector<FlowId> flows;
    for (int i = 0; i < 100; ++i) flows.push_back(net.start_flow({0}, Bytes(1'000'000), Time{}, [] {}));
    CHECK(net.rerated_flows() == 0);
    CHECK(net.rate(flows[0]) == Bandwidth{});
    sim.run_until(Time{});
    CHECK(net.rerated_flows() == 100);  // one filling of the 100, not 1 + 2 + ... + 100
    CHECK(net.rate(flows[0]) == Bandwidth::bytes_per_s(100'000'000));
}

TEST_CASE("a zero-byte flow pays only its latency") {
    Simulator sim;
    Network net(sim, {gbps(10)});
    Time done{};
    net.start_flow({0}, Bytes(0), 3_us, [&] { done = sim.now(); });
    sim.run();
    CHECK(done == 3_us);
}

TEST_CASE("an added resource limits the flows that use it, and is handed out again once returned") {
    Simulator sim;
    Network net(sim, {gbps(10)});
    const ResourceId cap = net.add_resource(gbps(4));
    CHECK(cap == 1);
    const FlowId held = net.start_flow({0, cap}, Bytes(4'000), Time{}, [] {});
    const FlowId free = net.start_flow({0}, Bytes(4'000), Time{}, [] {});
    net.settle();
    CHECK(net.rate(held) == gbps(4));
    CHECK(net.rate(free) == gbps(6));
    CHECK_THROWS_AS(net.remove_resource(cap), std::logic_error);  // a flow still uses it
    sim.run();
    net.remove_resource(cap);
    CHECK(net.add_resource(gbps(1)) == cap);
    CHECK(net.capacity(cap) == gbps(1));
    CHECK(net.carried(cap) == Bytes(0));
}

TEST_CASE("a pipeline's stream that ends hands its share to another pipeline's stream at that moment") {
    // Streams of two pipelines on one 10 GB/s link, 5 GB/s each: A's 10 KB
    // ends at 2 us, and B's 30 KB has 20 KB left, which it then sends alone
    // at 10 GB/s: done at 4 us (at 5 GB/s throughout it would be 6 us).
    Simulator sim;
    Network net(sim, {gbps(10)});
    const uint32_t a = net.new_pipeline(), b = net.new_pipeline();
    Time a_done{}, b_done{};
    net.start_flow({0}, Bytes(10'000), Time{}, [&] { a_done = sim.now(); }, {}, a);
    const FlowId fb = net.start_flow({0}, Bytes(30'000), Time{}, [&] { b_done = sim.now(); }, {}, b);
    net.settle();
    CHECK(net.rate(fb) == gbps(5));
    sim.run_until(Time::from_ps(2'000'000));
    net.settle();
    CHECK(a_done == Time::from_ps(2'000'000));
    CHECK(net.rate(fb) == gbps(10));
    sim.run();
    CHECK(b_done == Time::from_ps(4'000'000));
}

TEST_CASE("a pipeline's stream that ends leaves its own pipeline's streams at their pace") {
    // The same two streams in one pipeline: the longer one was held to the
    // pipeline's pace, not by the shorter, so it keeps 5 GB/s: done at 6 us.
    Simulator sim;
    Network net(sim, {gbps(10)});
    const uint32_t p = net.new_pipeline();
    Time done{};
    net.start_flow({0}, Bytes(10'000), Time{}, [] {}, {}, p);
    net.start_flow({0}, Bytes(30'000), Time{}, [&] { done = sim.now(); }, {}, p);
    sim.run();
    CHECK(done == Time::from_ps(6'000'000));
}

TEST_CASE("a flow of weight w takes the rates, times and link bytes of w identical flows") {
    // Links 0 (10 GB/s), 1 (4 GB/s), 2 (7 GB/s). Three like flows over {0, 1}
    // beside a flow over {0} and one over {1, 2}; then the same with the three
    // as one flow of weight 3. Sizes differ so that flows end at different
    // times and re-rating runs between.
    struct Run {
        std::vector<Time> done;
        std::vector<Bytes> carried;
        std::size_t members_on_1 = 0;
    };
    auto run = [](bool weighted) {
        Simulator sim;
        Network net(sim, {gbps(10), gbps(4), gbps(7)});
        Run r;
        r.done.assign(3, Time{});
        if (weighted) {
            net.start_flow({0, 1}, Bytes(3'000'000), 1_us, [&] { r.done[0] = sim.now(); }, {}, 0, 3);
        } else {
            for (int i = 0; i < 3; ++i) net.start_flow({0, 1}, Bytes(3'000'000), 1_us, [&] { r.done[0] = sim.now(); });
        }
        net.start_flow({0}, Bytes(20'000'000), Time{}, [&] { r.done[1] = sim.now(); });
        net.start_flow({1, 2}, Bytes(1'000'000), Time{}, [&] { r.done[2] = sim.now(); });
        net.settle();
        r.members_on_1 = net.flows_on(1);
        sim.run();
        for (ResourceId l = 0; l < 3; ++l) r.carried.push_back(net.carried(l));
        return r;
    };
    const Run each = run(false), weighted = run(true);
    CHECK(weighted.members_on_1 == 4);
    CHECK(weighted.members_on_1 == each.members_on_1);
    CHECK(weighted.done == each.done);
    CHECK(weighted.carried == each.carried);
    CHECK(weighted.carried[1] == Bytes(10'000'000));  // 3 x 3 MB + 1 MB
    // Link 1: four members at 1 GB/s each, so the 1 MB flow ends at 1 ms; the
    // three then share it at 4/3 GB/s for their last 2 MB each (1.5 ms), plus 1 us.
    CHECK(weighted.done[2] == 1000_us);
    CHECK(weighted.done[0] > 2501_us);
    CHECK(weighted.done[0] < 2501_us + 1_ns);
}

TEST_CASE("a flow of no members is refused") {
    Simulator sim;
    Network net(sim, {gbps(10)});
    CHECK_THROWS_AS(net.start_flow({0}, Bytes(1'000), Time{}, [] {}, {}, 0, 0), std::invalid_argument);
}
