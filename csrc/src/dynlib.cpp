// Opening NVIDIA's libraries at run time (see common/dynlib.hpp).
#include "common/dynlib.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "npgpu/errors.hpp"

namespace npgpu::detail {
namespace {

std::string directory_of_this_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&open_cuda_library), &info) == 0 || info.dli_fname == nullptr) return {};
  std::string path = info.dli_fname;
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::vector<std::string> candidate_directories() {
  std::vector<std::string> dirs;
  const std::string here = directory_of_this_library();
  if (!here.empty()) {
    dirs.push_back(here + "/../../nvidia/cu13/lib");  // installed wheel: site-packages/npgpu/lib
    dirs.push_back(here + "/../nvidia/cu13/lib");
  }
  if (const char* env = std::getenv("NPGPU_CUDA_LIBRARY_PATH")) {
    std::string list = env;
    std::size_t start = 0;
    while (start <= list.size()) {
      const auto end = list.find(':', start);
      const std::string dir = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (!dir.empty()) dirs.push_back(dir);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(var)) dirs.push_back(std::string(root) + "/lib64");
  dirs.push_back("/usr/local/cuda/lib64");
  return dirs;
}

}  // namespace

void* open_cuda_library(const char* soname, const char* pip_package) {
  static std::mutex mutex;
  static std::map<std::string, void*> opened;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = opened.find(soname); it != opened.end()) return it->second;
  std::string tried;
  for (const std::string& dir : candidate_directories()) {
    const std::string path = dir + "/" + soname;
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return opened[soname] = h;
    tried += "\n  " + path;
  }
  if (void* h = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) return opened[soname] = h;
  const char* err = dlerror();
  throw Unavailable(std::string(soname) + " could not be loaded (install it with `pip install " + pip_package +
                    "`, or point NPGPU_CUDA_LIBRARY_PATH at its directory); tried:" + tried +
                    "\n  the system search path: " + (err ? err : "not found"));
}

void* library_symbol(void* library, const char* symbol, const char* soname) {
  dlerror();
  void* p = dlsym(library, symbol);
  if (p == nullptr)
    throw Unavailable(std::string(soname) + " has no symbol " + symbol + ": npgpu needs a newer version");
  return p;
}

}  // namespace npgpu::detail
