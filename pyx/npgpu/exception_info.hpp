#pragma once
// Binding layer: classify the C++ exception being handled so Cython can raise the matching Python exception
// (see _errors.pyx). Called only from inside a catch block.
#include <new>
#include <stdexcept>
#include <string>

#include "npgpu/errors.hpp"

namespace npgpu_pyx {

enum ExceptionKind {
  kCudaError, kOutOfMemory, kValueError, kTypeError, kUnavailable, kMemoryError, kRuntimeError, kIndexError,
  kInterrupted
};

struct ExceptionInfo {
  ExceptionKind kind = kRuntimeError;
  int code = 0;
  bool sticky = false;
  std::string name, call, message;
};

inline void current_exception_info(ExceptionInfo& info) {
  try {
    throw;
  } catch (const npgpu::CudaError& e) {
    info.kind = kCudaError;
    info.code = e.code();
    info.name = e.name();
    info.call = e.call();
    info.sticky = e.sticky();
    info.message = e.what();
  } catch (const npgpu::OutOfMemoryError& e) {
    info.kind = kOutOfMemory;
    info.message = e.what();
  } catch (const npgpu::TypeError& e) {
    info.kind = kTypeError;
    info.message = e.what();
  } catch (const npgpu::InvalidArgument& e) {
    info.kind = kValueError;
    info.message = e.what();
  } catch (const npgpu::IndexError& e) {
    info.kind = kIndexError;
    info.message = e.what();
  } catch (const npgpu::Interrupted& e) {
    info.kind = kInterrupted;
    info.message = e.what();
  } catch (const npgpu::Unavailable& e) {
    info.kind = kUnavailable;
    info.message = e.what();
  } catch (const std::bad_alloc& e) {
    info.kind = kMemoryError;
    info.message = e.what();
  } catch (const std::invalid_argument& e) {
    info.kind = kValueError;
    info.message = e.what();
  } catch (const std::exception& e) {
    info.kind = kRuntimeError;
    info.message = e.what();
  } catch (...) {
    info.kind = kRuntimeError;
    info.message = "unknown C++ exception";
  }
}

}  // namespace npgpu_pyx
