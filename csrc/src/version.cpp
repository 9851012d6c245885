#include "npgpu/version.hpp"
namespace npgpu {
const char* version() { return NPGPU_VERSION_STRING; }
}
