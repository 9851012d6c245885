// Argument-check messages built only when a check fails: the checks run on every call, and composing a
// message (describe(), to_string) costs host time that small calls notice.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

namespace npgpu::detail {

// The text of `m`: a string or a callable returning one.
template <class Msg>
std::string message_text(Msg&& m) {
  if constexpr (std::is_invocable_v<Msg&>) return std::string(m());
  else return std::string(std::forward<Msg>(m));
}

}  // namespace npgpu::detail
