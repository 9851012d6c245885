#pragma once
// Symbols of libnpgpu are hidden unless marked NPGPU_API.
#if defined(_WIN32)
#define NPGPU_API __declspec(dllexport)
#else
#define NPGPU_API __attribute__((visibility("default")))
#endif
