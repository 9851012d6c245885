#pragma once
#include "npgpu/export.hpp"
namespace npgpu {
NPGPU_API const char* version();
}
