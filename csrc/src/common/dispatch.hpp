#pragma once
// Internal: run a generic lambda with the C++ type of a runtime DType.
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/complex.hpp"
#include "common/half.hpp"
#include "npgpu/dtype.hpp"
#include "npgpu/errors.hpp"

namespace npgpu::detail {

template <DType D> struct ctype;
template <> struct ctype<DType::Bool> { using type = bool; };
template <> struct ctype<DType::Int8> { using type = std::int8_t; };
template <> struct ctype<DType::Int16> { using type = std::int16_t; };
template <> struct ctype<DType::Int32> { using type = std::int32_t; };
template <> struct ctype<DType::Int64> { using type = std::int64_t; };
template <> struct ctype<DType::UInt8> { using type = std::uint8_t; };
template <> struct ctype<DType::UInt16> { using type = std::uint16_t; };
template <> struct ctype<DType::UInt32> { using type = std::uint32_t; };
template <> struct ctype<DType::UInt64> { using type = std::uint64_t; };
template <> struct ctype<DType::Float32> { using type = float; };
template <> struct ctype<DType::Float64> { using type = double; };
template <> struct ctype<DType::Complex64> { using type = complex64; };
template <> struct ctype<DType::Complex128> { using type = complex128; };
template <> struct ctype<DType::Float16> { using type = float16; };
template <> struct ctype<DType::BFloat16> { using type = bfloat16; };

template <class T> struct type_tag { using type = T; };

// The DType of C++ element type T.
template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DType::Bool;
  else if constexpr (std::is_same_v<T, std::int8_t>) return DType::Int8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return DType::Int16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return DType::Int32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return DType::Int64;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return DType::UInt8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return DType::UInt16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return DType::UInt32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return DType::UInt64;
  else if constexpr (std::is_same_v<T, float>) return DType::Float32;
  else if constexpr (std::is_same_v<T, double>) return DType::Float64;
  else if constexpr (std::is_same_v<T, complex64>) return DType::Complex64;
  else if constexpr (std::is_same_v<T, complex128>) return DType::Complex128;
  else if constexpr (std::is_same_v<T, float16>) return DType::Float16;
  else return DType::BFloat16;
}

// fn(type_tag<T>{}) for the C++ type T of `d`: the 13 dtypes operations compute in. float16 and bfloat16
// are storage types (load_as/store_as convert them; their math runs in float32), so they raise TypeError
// here; dispatch_storage_dtype includes them.
template <class Fn>
decltype(auto) dispatch_dtype(DType d, Fn&& fn) {
  switch (d) {
    case DType::Bool: return fn(type_tag<bool>{});
    case DType::Int8: return fn(type_tag<std::int8_t>{});
    case DType::Int16: return fn(type_tag<std::int16_t>{});
    case DType::Int32: return fn(type_tag<std::int32_t>{});
    case DType::Int64: return fn(type_tag<std::int64_t>{});
    case DType::UInt8: return fn(type_tag<std::uint8_t>{});
    case DType::UInt16: return fn(type_tag<std::uint16_t>{});
    case DType::UInt32: return fn(type_tag<std::uint32_t>{});
    case DType::UInt64: return fn(type_tag<std::uint64_t>{});
    case DType::Float32: return fn(type_tag<float>{});
    case DType::Float64: return fn(type_tag<double>{});
    case DType::Complex64: return fn(type_tag<complex64>{});
    case DType::Complex128: return fn(type_tag<complex128>{});
    case DType::Float16:
    case DType::BFloat16:
      break;
  }
  throw TypeError(std::string("this operation does not compute in ") + dtype_name(d) +
                  " (float16/bfloat16 operands are computed in float32)");
}

// dispatch_dtype plus the 2-byte float storage types.
template <class Fn>
decltype(auto) dispatch_storage_dtype(DType d, Fn&& fn) {
  if (d == DType::Float16) return fn(type_tag<float16>{});
  if (d == DType::BFloat16) return fn(type_tag<bfloat16>{});
  return dispatch_dtype(d, static_cast<Fn&&>(fn));
}

}  // namespace npgpu::detail
