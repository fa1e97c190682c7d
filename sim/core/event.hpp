#pragma once
// A move-only callable with inline storage. Simulation events capture a few
// pointers and ids; keeping them inline means scheduling an event allocates
// nothing (std::function allocates past 16 bytes in libstdc++).
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace collsim {

class Event {
public:
    static constexpr std::size_t kInline = 48;

    Event() = default;

    template <class F, class D = std::decay_t<F>,
              class = std::enable_if_t<!std::is_same_v<D, Event> && std::is_invocable_v<D&>>>
    Event(F&& f) {  // NOLINT: implicit on purpose, so lambdas pass straight in
        if constexpr (sizeof(D) <= kInline && alignof(D) <= alignof(std::max_align_t) &&
                      std::is_nothrow_move_constructible_v<D>) {
            ::new (static_cast<void*>(buf_)) D(std::forward<F>(f));
            ops_ = &inline_ops<D>;
        } else {
            // Rare: a large capture. Correct, just not allocation-free.
            *reinterpret_cast<D**>(buf_) = new D(std::forward<F>(f));
            ops_ = &heap_ops<D>;
        }
    }

    Event(Event&& o) noexcept : ops_(o.ops_) {
        if (ops_) ops_->move(o.buf_, buf_);
        o.ops_ = nullptr;
    }
    Event& operator=(Event&& o) noexcept {
        if (this != &o) {
            reset();
            ops_ = o.ops_;
            if (ops_) ops_->move(o.buf_, buf_);
            o.ops_ = nullptr;
        }
        return *this;
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() { reset(); }

    explicit operator bool() const { return ops_ != nullptr; }
    void operator()() { ops_->call(buf_); }
    void reset() {
        if (ops_) ops_->destroy(buf_);
        ops_ = nullptr;
    }

private:
    struct Ops {
        void (*call)(void*);
        void (*move)(void* from, void* to);  // move-constructs into `to`, destroys `from`
        void (*destroy)(void*);
    };

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
        [](void* from, void* to) { *static_cast<D**>(to) = *static_cast<D**>(from); },
        [](void* p) { delete *static_cast<D**>(p); },
    };

    alignas(std::max_align_t) std::byte buf_[kInline];
    const Ops* ops_ = nullptr;
};

}  // namespace collsim
