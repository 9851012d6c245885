#pragma once
// The exception hierarchy every libnpgpu function throws. The Python layer maps each type to one Python
// exception class (CUDAError, OutOfMemoryError, ValueError, TypeError, ...).
#include <new>
#include <stdexcept>
#include <string>

#include "npgpu/export.hpp"

namespace npgpu {

// Base of every npgpu error.
class NPGPU_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A CUDA runtime call failed. `code` is the cudaError_t value, `name` its enumerator name (cudaErrorXxx),
// `call` the expression that failed; `sticky` is true when the error corrupted the context (every later
// call in this process will fail too).
class NPGPU_API CudaError : public Error {
 public:
  CudaError(int code, std::string name, std::string call, std::string detail, bool sticky);
  int code() const noexcept { return code_; }
  const std::string& name() const noexcept { return name_; }
  const std::string& call() const noexcept { return call_; }
  bool sticky() const noexcept { return sticky_; }

 private:
  int code_;
  std::string name_;
  std::string call_;
  bool sticky_;
};

// Device or pinned memory could not be allocated. Derives from std::bad_alloc so generic code treats it as
// an allocation failure.
class NPGPU_API OutOfMemoryError : public std::bad_alloc {
 public:
  explicit OutOfMemoryError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// A bad argument value: shape mismatch, size overflow, launch geometry over a device limit, ... (ValueError).
class NPGPU_API InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// An argument of an unsupported type or dtype (TypeError).
class NPGPU_API TypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// An index outside the axis it indexes (IndexError).
class NPGPU_API IndexError : public std::out_of_range {
 public:
  using std::out_of_range::out_of_range;
};

// The operation needs something this process does not have (a GPU, a driver, a library) (RuntimeError).
class NPGPU_API Unavailable : public Error {
 public:
  using Error::Error;
};

// A long operation stopped early because the interrupt check asked it to (see set_interrupt_check in
// runtime.hpp; in Python, Ctrl-C's KeyboardInterrupt). Work it had queued is finished before it throws.
class NPGPU_API Interrupted : public Error {
 public:
  using Error::Error;
};

}  // namespace npgpu
