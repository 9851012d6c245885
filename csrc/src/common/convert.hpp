#pragma once
// Internal: converting one element between dtypes as NumPy's astype does (complex to real keeps the real
// part, anything to bool is "!= 0"). Shared by kernels and host loops.
#include <cstdint>
#include <type_traits>

#include "common/complex.hpp"
#include "common/half.hpp"
#include "common/hd.hpp"
#include "npgpu/dtype.hpp"
#include "npgpu/view.hpp"

namespace npgpu::detail {

template <class To, class From>
NPGPU_HD To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;  // bit for bit, as NumPy's copies: a float16 NaN's payload would not survive float32
  } else if constexpr (is_half<From>::value) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (is_half<To>::value) {
    if constexpr (is_complex<From>::value) return To(static_cast<double>(v.re));
    else return To(static_cast<double>(v));
  } else if constexpr (is_complex<To>::value) {
    using R = decltype(To{}.re);
    if constexpr (is_complex<From>::value) return To(static_cast<R>(v.re), static_cast<R>(v.im));
    else return To(static_cast<R>(v), R(0));
  } else if constexpr (is_complex<From>::value) {
    if constexpr (std::is_same_v<To, bool>) return v.re != 0 || v.im != 0;
    else return static_cast<To>(v.re);
  } else {
    return static_cast<To>(v);
  }
}

// Load element at p (of runtime dtype d) converted to T.
template <class T>
NPGPU_HD T load_as(const void* p, DType d) {
  switch (d) {
    case DType::Bool: return convert<T>(*static_cast<const bool*>(p));
    case DType::Int8: return convert<T>(*static_cast<const std::int8_t*>(p));
    case DType::Int16: return convert<T>(*static_cast<const std::int16_t*>(p));
    case DType::Int32: return convert<T>(*static_cast<const std::int32_t*>(p));
    case DType::Int64: return convert<T>(*static_cast<const std::int64_t*>(p));
    case DType::UInt8: return convert<T>(*static_cast<const std::uint8_t*>(p));
    case DType::UInt16: return convert<T>(*static_cast<const std::uint16_t*>(p));
    case DType::UInt32: return convert<T>(*static_cast<const std::uint32_t*>(p));
    case DType::UInt64: return convert<T>(*static_cast<const std::uint64_t*>(p));
    case DType::Float32: return convert<T>(*static_cast<const float*>(p));
    case DType::Float64: return convert<T>(*static_cast<const double*>(p));
    case DType::Complex64: return convert<T>(*static_cast<const complex64*>(p));
    case DType::Complex128: return convert<T>(*static_cast<const complex128*>(p));
    case DType::Float16: return convert<T>(*static_cast<const float16*>(p));
    case DType::BFloat16: return convert<T>(*static_cast<const bfloat16*>(p));
  }
  return T{};
}

// Store v (of type T) at p converted to runtime dtype d.
template <class T>
NPGPU_HD void store_as(void* p, DType d, T v) {
  switch (d) {
    case DType::Bool: *static_cast<bool*>(p) = convert<bool>(v); break;
    case DType::Int8: *static_cast<std::int8_t*>(p) = convert<std::int8_t>(v); break;
    case DType::Int16: *static_cast<std::int16_t*>(p) = convert<std::int16_t>(v); break;
    case DType::Int32: *static_cast<std::int32_t*>(p) = convert<std::int32_t>(v); break;
    case DType::Int64: *static_cast<std::int64_t*>(p) = convert<std::int64_t>(v); break;
    case DType::UInt8: *static_cast<std::uint8_t*>(p) = convert<std::uint8_t>(v); break;
    case DType::UInt16: *static_cast<std::uint16_t*>(p) = convert<std::uint16_t>(v); break;
    case DType::UInt32: *static_cast<std::uint32_t*>(p) = convert<std::uint32_t>(v); break;
    case DType::UInt64: *static_cast<std::uint64_t*>(p) = convert<std::uint64_t>(v); break;
    case DType::Float32: *static_cast<float*>(p) = convert<float>(v); break;
    case DType::Float64: *static_cast<double*>(p) = convert<double>(v); break;
    case DType::Complex64: *static_cast<complex64*>(p) = convert<complex64>(v); break;
    case DType::Complex128: *static_cast<complex128*>(p) = convert<complex128>(v); break;
    case DType::Float16: *static_cast<float16*>(p) = convert<float16>(v); break;
    case DType::BFloat16: *static_cast<bfloat16*>(p) = convert<bfloat16>(v); break;
  }
}

// A Scalar operand's value as T.
template <class T>
inline T scalar_as(const Scalar& s) {
  switch (s.dtype) {
    case DType::Bool: return convert<T>(s.value.b);
    case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64:
      return convert<T>(s.value.i);
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
      return convert<T>(s.value.u);
    case DType::Float32: case DType::Float64: return convert<T>(s.value.f);
    case DType::Complex64: case DType::Complex128:
      return convert<T>(complex128(s.value.c[0], s.value.c[1]));
    case DType::Float16: case DType::BFloat16: return convert<T>(s.value.f);
  }
  return T{};
}

}  // namespace npgpu::detail
