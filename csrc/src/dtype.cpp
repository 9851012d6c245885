#include "npgpu/dtype.hpp"

#include "npgpu/errors.hpp"

namespace npgpu {

std::int64_t itemsize(DType t) {
  switch (t) {
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8:
      return 1;
    case DType::Int16:
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16:
      return 2;
    case DType::Int32:
    case DType::UInt32:
    case DType::Float32:
      return 4;
    case DType::Int64:
    case DType::UInt64:
    case DType::Float64:
    case DType::Complex64:
      return 8;
    case DType::Complex128:
      return 16;
  }
  throw TypeError("unknown npgpu dtype code " + std::to_string(static_cast<int>(t)));
}

const char* dtype_name(DType t) {
  static const char* names[kNumDTypes] = {"bool",   "int8",    "int16",   "int32",     "int64",
                                          "uint8",  "uint16",  "uint32",  "uint64",    "float32",
                                          "float64", "complex64", "complex128", "float16",
                                          "bfloat16"};
  auto i = static_cast<int>(t);
  return (i >= 0 && i < kNumDTypes) ? names[i] : "unknown";
}

bool is_valid_dtype(std::int32_t value) { return value >= 0 && value < kNumDTypes; }

}  // namespace npgpu
