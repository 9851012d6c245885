#pragma once
// Internal: which family a runtime DType belongs to, for argument checks.
#include "npgpu/dtype.hpp"

namespace npgpu::detail {

// Whether `d` is bool or one of the eight integer dtypes.
inline bool is_integer_or_bool(DType d) {
  switch (d) {
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64: return true;
    default: return false;
  }
}

}  // namespace npgpu::detail
