#include <catch2/catch.hpp>

#include <vector>

#include "sim/core/simulator.hpp"

using namespace collsim;
using namespace collsim::literals;

TEST_CASE("events run in time order and first-in first-out at equal times") {
    Simulator sim;
    std::vector<int> order;
    sim.schedule_at(5_ns, [&] { order.push_back(3); });
    sim.schedule_at(1_ns, [&] { order.push_back(1); });
    sim.schedule_at(5_ns, [&] { order.push_back(4); });
    sim.schedule_at(2_ns, [&] { order.push_back(2); });
    sim.schedule_at(5_ns, [&] { order.push_back(5); });
    sim.run();
    CHECK(order == std::vector<int>{1, 2, 3, 4, 5});
    CHECK(sim.now() == 5_ns);
    CHECK(sim.events_processed() == 5);
}

TEST_CASE("an event can schedule successors, including at the current time") {
    Simulator sim;
    std::vector<Time> seen;
    sim.schedule_at(1_us, [&] {
        seen.push_back(sim.now());
        sim.schedule_in(Time{}, [&] { seen.push_back(sim.now()); });
        sim.schedule_in(2_us, [&] { seen.push_back(sim.now()); });
    });
    sim.run();
    CHECK(seen == std::vector<Time>{1_us, 1_us, 3_us});
}

TEST_CASE("a cancelled event never runs and cancelling twice reports false") {
    Simulator sim;
    int ran = 0;
    EventHandle h = sim.schedule_at(1_ns, [&] { ran += 10; });
    sim.schedule_at(2_ns, [&] { ran += 1; });
    CHECK(sim.pending() == 2);
    CHECK(sim.cancel(h));
    CHECK_FALSE(sim.cancel(h));
    CHECK(sim.pending() == 1);
    sim.run();
    CHECK(ran == 1);
    CHECK_FALSE(sim.cancel(h));
}

TEST_CASE("a handle to an event that already ran cannot cancel a newer event in its slot") {
    Simulator sim;
    int ran = 0;
    EventHandle old = sim.schedule_at(1_ns, [&] { ++ran; });
    sim.run();
    sim.schedule_at(2_ns, [&] { ++ran; });
    CHECK_FALSE(sim.cancel(old));
    sim.run();
    CHECK(ran == 2);
}

TEST_CASE("run_until stops at the limit and leaves later events pending") {
    Simulator sim;
    int ran = 0;
    sim.schedule_at(1_us, [&] { ++ran; });
    sim.schedule_at(2_us, [&] { ++ran; });
    sim.schedule_at(3_us, [&] { ++ran; });
    sim.run_until(2_us);
    CHECK(ran == 2);
    CHECK(sim.now() == 2_us);
    CHECK(sim.pending() == 1);
    sim.run_until(10_us);
    CHECK(ran == 3);
    CHECK(sim.now() == 10_us);
    CHECK(sim.last_event() == 3_us);  // where a run that ran dry stopped (hang reports)
}

TEST_CASE("scheduling in the past is a logic error") {
    Simulator sim;
    sim.schedule_at(5_ns, [] {});
    sim.run();
    CHECK_THROWS_AS(sim.schedule_at(1_ns, [] {}), std::logic_error);
}

TEST_CASE("two simulators in one process are independent") {
    Simulator a, b;
    int ra = 0, rb = 0;
    a.schedule_at(1_ns, [&] { ++ra; });
    b.schedule_at(1_ns, [&] { ++rb; });
    a.run();
    CHECK(ra == 1);
    CHECK(rb == 0);
    CHECK(b.pending() == 1);
}

TEST_CASE("large captures still work (they fall back to the heap)") {
    Simulator sim;
    std::array<int64_t, 32> big{};
    big[31] = 7;
    int64_t got = 0;
    sim.schedule_at(1_ns, [big, &got] { got = big[31]; });
    sim.run();
    CHECK(got == 7);
}

TEST_CASE("an event past the clock's 2^63 ps is a ClockOverflow, not a wrap into the past") {
    Simulator sim;
    const Time long_step = Time::from_ps(int64_t{6} * 1'000'000'000'000'000'000);  // 6e18 ps, about 70 days
    int ran = 0;
    sim.schedule_in(long_step, [&] {
        ++ran;
        CHECK_THROWS_AS(sim.schedule_in(long_step, [&ran] { ++ran; }), ClockOverflow);
    });
    sim.run();
    CHECK(ran == 1);
    CHECK(sim.now() == long_step);
    CHECK_THROWS_AS(sim.schedule_at(Time::from_ps(-1), [&ran] { ++ran; }), ClockOverflow);
}
