#pragma once
// The whole public C++ API of libnpgpu.
#include "npgpu/creation.hpp"
#include "npgpu/dtype.hpp"
#include "npgpu/elementwise.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/launch.hpp"
#include "npgpu/memory.hpp"
#include "npgpu/random.hpp"
#include "npgpu/runtime.hpp"
#include "npgpu/stencil.hpp"
#include "npgpu/version.hpp"
#include "npgpu/view.hpp"
