#pragma once
// Element types libnpgpu understands. Values are stable: the Python layer maps NumPy dtypes onto them.
#include <cstdint>

#include "npgpu/export.hpp"

namespace npgpu {

enum class DType : std::int32_t {
  Bool = 0,
  Int8 = 1,
  Int16 = 2,
  Int32 = 3,
  Int64 = 4,
  UInt8 = 5,
  UInt16 = 6,
  UInt32 = 7,
  UInt64 = 8,
  Float32 = 9,
  Float64 = 10,
  Complex64 = 11,
  Complex128 = 12,
  Float16 = 13,   // IEEE half; elementwise math runs in float32 and rounds on store, as NumPy's loops do
  BFloat16 = 14,  // bfloat16 (ml_dtypes' layout): storage, conversion and matrix products
};

constexpr int kNumDTypes = 15;

NPGPU_API std::int64_t itemsize(DType t);
NPGPU_API const char* dtype_name(DType t);  // NumPy's name: "float32", "complex64", ...
NPGPU_API bool is_valid_dtype(std::int32_t value);

}  // namespace npgpu
