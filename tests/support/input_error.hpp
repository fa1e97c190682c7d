#pragma once
// The message of the input error that reading something bad throws, for
// tests that check what a user is told. A reader reports one InputError or,
// when it collects several, InputErrors; either counts.
#include <string>
#include <utility>

#include "sim/core/error.hpp"

namespace collsim::test {

// What `read()` threw as an input error, or "no error" when it returned.
template <class Read>
std::string input_error_of(Read&& read) {
    try {
        std::forward<Read>(read)();
    } catch (const InputErrors& e) {
        return e.what();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace collsim::test
