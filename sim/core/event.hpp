#pragma once
// A move-only callable with inline storage. Simulation events capture a few
// pointers and ids; keeping them inline means scheduling an event allocates
// nothing (std::function allocates past 16 bytes in libstdc++).
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace collsim {

class Event {
public:
    static constexpr std::size_t kInline = 48;
    // Pointer alignment rather than max_align_t: it keeps an Event at 56 bytes,
    // so the simulator's slot (event, generation, flag) fills one cache line.
    // Captures that need 16-byte alignment take the heap path.
    static constexpr std::size_t kAlign = alignof(void*);

    Event() = default;

    template <class F, class D = std::decay_t<F>,
              class = std::enable_if_t<!std::is_same_v<D, Event> && std::is_invocable_v<D&>>>
    Event(F&& f) {  // NOLINT: implicit on purpose, so lambdas pass straight in
        if constexpr (sizeof(D) <= kInline && alignof(D) <= kAlign &&
                      std::is_nothrow_move_constructible_v<D>) {
            ::new (static_cast<void*>(buf_)) D(std::forward<F>(f));
            if constexpr (std::is_trivially_copyable_v<D>)
                ops_ = &trivial_ops<D>;
            else
                ops_ = &inline_ops<D>;
        } else {
            // Rare: a large capture. Correct, just not allocation-free.
            *reinterpret_cast<D**>(buf_) = new D(std::forward<F>(f));
            ops_ = &heap_ops<D>;
        }
    }

    Event(Event&& o) noexcept : ops_(o.ops_) {
        relocate_from(o);
    }
    Event& operator=(Event&& o) noexcept {
        if (this != &o) {
            reset();
            ops_ = o.ops_;
            relocate_from(o);
        }
        return *this;
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() { reset(); }

    explicit operator bool() const { return ops_ != nullptr; }
    void operator()() { ops_->call(buf_); }
    void reset() {
        if (ops_ && ops_->destroy) ops_->destroy(buf_);
        ops_ = nullptr;
    }

private:
    // A null move or destroy means the stored bytes can be copied, or left,
    // as they are: most events capture only pointers and ids, and the engine
    // moves every event twice, so this skips two indirect calls per event.
    struct Ops {
        void (*call)(void*);
        void (*move)(void* from, void* to);  // move-constructs into `to`, destroys `from`
        void (*destroy)(void*);
    };

    void relocate_from(Event& o) noexcept {  // ops_ is already o.ops_
        if (ops_ && ops_->move)
            ops_->move(o.buf_, buf_);
        else if (ops_)
            std::memcpy(buf_, o.buf_, kInline);
        o.ops_ = nullptr;
    }

    template <class D>
    static constexpr Ops trivial_ops{[](void* p) { (*static_cast<D*>(p))(); }, nullptr, nullptr};

    template <class D>
    static constexpr Ops inline_ops{
        [](void* p) { (*static_cast<D*>(p))(); },
        [](void* from, void* to) {
            ::new (to) D(std::move(*static_cast<D*>(from)));
            static_cast<D*>(from)->~D();
        },
        [](void* p) { static_cast<D*>(p)->~D(); },
    };

    template <class D>
    static constexpr Ops heap_ops{
        [](void* p) { (**static_cast<D**>(p))(); },
        nullptr,  // the owning pointer moves as bytes
        [](void* p) { delete *static_cast<D**>(p); },
    };

    alignas(kAlign) std::byte buf_[kInline];
    const Ops* ops_ = nullptr;
};

}  // namespace collsim
