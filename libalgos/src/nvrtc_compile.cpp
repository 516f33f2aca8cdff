#include "nvrtc_compile.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "jit_libraries.hpp"

#if defined(__SANITIZE_ADDRESS__)
// LeakSanitizer: nvJitLink keeps a few small allocations it makes during
// nvJitLinkComplete (72 bytes in 3 objects per process, CUDA 13.0) after its handle is
// destroyed. Not ours to free; everything else stays checked.
extern "C" const char* __lsan_default_suppressions() { return "leak:libnvJitLink.so\n"; }
#endif

namespace cccl_cache::algos::detail {

// A handle exists only where the library's table was loaded.
NvrtcProgram& NvrtcProgram::operator=(NvrtcProgram&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) (*nvrtc())->nvrtcDestroyProgram(&handle_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

NvrtcProgram::~NvrtcProgram() {
  if (handle_ != nullptr) (*nvrtc())->nvrtcDestroyProgram(&handle_);
}

NvJitLinkHandle& NvJitLinkHandle::operator=(NvJitLinkHandle&& other) noexcept {
  if (this != &other) {
    if (handle_ != nullptr) (*nvjitlink())->nvJitLinkDestroy(&handle_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}

NvJitLinkHandle::~NvJitLinkHandle() {
  if (handle_ != nullptr) (*nvjitlink())->nvJitLinkDestroy(&handle_);
}

std::string cuda_include_dir() {
  if (const char* env = std::getenv("CCCL_CACHE_CUDA_INCLUDE"); env != nullptr && *env != '\0')
    return env;
  return CCCL_CACHE_CUDA_INCLUDE_DIR;
}

namespace {

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// <dir of the binary holding libalgos>/../CCCL_CACHE_CCCL_INSTALL_SUBDIR, or "".
std::string installed_cccl_dir() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<const void*>(&installed_cccl_dir), &info) == 0 ||
      info.dli_fname == nullptr)
    return {};
  char real[PATH_MAX];
  if (::realpath(info.dli_fname, real) == nullptr) return {};
  std::string path = real;
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return {};
  path.resize(slash);
  path += "/../" CCCL_CACHE_CCCL_INSTALL_SUBDIR;
  return is_dir(path) ? path : std::string{};
}

}  // namespace

std::string cccl_include_dir() {
  if (const char* env = std::getenv("CCCL_CACHE_CCCL_INCLUDE"); env != nullptr && *env != '\0')
    return env;
  static const std::string dir = [] {
    auto installed = installed_cccl_dir();
    return installed.empty() ? std::string(CCCL_CACHE_CCCL_INCLUDE_DIR) : installed;
  }();
  return dir;
}

const std::vector<std::string>& common_nvrtc_options() {
  // CUB_DISABLE_CDP: no device-side launches, so no device runtime to link.
  static const std::vector<std::string> options = {"-std=c++20", "-DCUB_DISABLE_CDP"};
  return options;
}

const std::vector<std::string>& lto_link_options() {
  static const std::vector<std::string> options = {"-lto", "-O3", "-optimize-unused-variables"};
  return options;
}

Result<std::vector<int>> nvrtc_supported_archs() {
  const auto& api = nvrtc();
  if (!api) return tl::unexpected(api.error());
  int count = 0;
  if ((*api)->nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0)
    return fail(ErrorCode::internal, "nvrtcGetNumSupportedArchs failed");
  std::vector<int> archs(static_cast<std::size_t>(count));
  if ((*api)->nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS)
    return fail(ErrorCode::internal, "nvrtcGetSupportedArchs failed");
  std::sort(archs.begin(), archs.end());
  return archs;
}

namespace {

// The loaded tables: only after compile() / link_ltoir() checked that they loaded.
const NvrtcApi& rtc() noexcept { return **nvrtc(); }
const NvJitLinkApi& jl() noexcept { return **nvjitlink(); }

std::string program_log(nvrtcProgram prog) {
  std::size_t size = 0;
  if (rtc().nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (rtc().nvrtcGetProgramLog(prog, log.data()) != NVRTC_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

tl::unexpected<Error> nvrtc_fail(const char* what, nvrtcResult rc) {
  return fail(ErrorCode::internal, std::string(what) + " failed: " + rtc().nvrtcGetErrorString(rc));
}

// Creates the program, registers the name expressions and compiles it with the
// common options, `arch_option`, `extra_options` and the include paths.
Result<NvrtcProgram> compile(const std::string& source, const std::string& program_name,
                             const std::string& arch_option,
                             const std::vector<std::string>& name_expressions,
                             const std::vector<std::string>& extra_options = {}) {
  if (const auto& api = nvrtc(); !api) return tl::unexpected(api.error());
  nvrtcProgram raw = nullptr;
  if (auto rc = rtc().nvrtcCreateProgram(&raw, source.c_str(), program_name.c_str(), 0, nullptr, nullptr);
      rc != NVRTC_SUCCESS) {
    return nvrtc_fail("nvrtcCreateProgram", rc);
  }
  NvrtcProgram prog(raw);
  for (const auto& expr : name_expressions) {
    if (auto rc = rtc().nvrtcAddNameExpression(prog.get(), expr.c_str()); rc != NVRTC_SUCCESS) {
      return nvrtc_fail("nvrtcAddNameExpression", rc);
    }
  }
  const std::string include = cuda_include_dir();
  const std::string cccl = cccl_include_dir();
  std::vector<std::string> options = common_nvrtc_options();
  options.push_back(arch_option);
  options.insert(options.end(), extra_options.begin(), extra_options.end());
  // The pinned CCCL first, then the toolkit's headers (cuda_device_runtime_api.h ...);
  // the toolkit's own CCCL (<include>/cccl) is never on the path.
  options.push_back("-I" + cccl);
  options.push_back("-I" + include);
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  const auto rc = rtc().nvrtcCompileProgram(prog.get(), static_cast<int>(argv.size()), argv.data());
  if (rc != NVRTC_SUCCESS) {
    return fail(ErrorCode::compile, "NVRTC could not compile " + program_name + " (" +
                                        rtc().nvrtcGetErrorString(rc) + ", CCCL " + cccl +
                                        ", include dir " + include +
                                        "):\n" + program_log(prog.get()));
  }
  return prog;
}

Result<std::vector<std::string>> lowered_names(nvrtcProgram prog,
                                               const std::vector<std::string>& exprs) {
  std::vector<std::string> names;
  for (const auto& expr : exprs) {
    const char* lowered = nullptr;
    if (auto rc = rtc().nvrtcGetLoweredName(prog, expr.c_str(), &lowered);
        rc != NVRTC_SUCCESS || lowered == nullptr) {
      return fail(ErrorCode::compile, "NVRTC has no lowered name for " + expr);
    }
    names.emplace_back(lowered);
  }
  return names;
}

std::string nvjitlink_log(nvJitLinkHandle handle) {
  std::size_t size = 0;
  std::string log;
  if (jl().nvJitLinkGetErrorLogSize(handle, &size) == NVJITLINK_SUCCESS && size > 1) {
    std::string part(size, '\0');
    if (jl().nvJitLinkGetErrorLog(handle, part.data()) == NVJITLINK_SUCCESS) log += part.c_str();
  }
  if (jl().nvJitLinkGetInfoLogSize(handle, &size) == NVJITLINK_SUCCESS && size > 1) {
    std::string part(size, '\0');
    if (jl().nvJitLinkGetInfoLog(handle, part.data()) == NVJITLINK_SUCCESS) log += part.c_str();
  }
  return log;
}

}  // namespace

Result<LtoOutput> compile_to_ltoir(const std::string& source, const std::string& program_name,
                                   std::uint32_t cc,
                                   const std::vector<std::string>& name_expressions,
                                   const std::vector<std::string>& extra_options) {
  std::vector<std::string> options = {"-dlto"};
  options.insert(options.end(), extra_options.begin(), extra_options.end());
  auto prog = compile(source, program_name, "-arch=sm_" + std::to_string(cc), name_expressions,
                      options);
  if (!prog) return tl::unexpected(prog.error());
  LtoOutput out;
  out.log = program_log(prog->get());
  auto names = lowered_names(prog->get(), name_expressions);
  if (!names) return tl::unexpected(names.error());
  out.lowered_names = std::move(*names);
  std::size_t size = 0;
  if (auto rc = rtc().nvrtcGetLTOIRSize(prog->get(), &size); rc != NVRTC_SUCCESS)
    return nvrtc_fail("nvrtcGetLTOIRSize", rc);
  if (size == 0) return fail(ErrorCode::internal, "NVRTC produced no LTO IR");
  out.ltoir.resize(size);
  if (auto rc = rtc().nvrtcGetLTOIR(prog->get(), out.ltoir.data()); rc != NVRTC_SUCCESS)
    return nvrtc_fail("nvrtcGetLTOIR", rc);
  return out;
}

Result<std::vector<std::byte>> compile_to_cubin_naive(
    const std::string& source, const std::string& program_name, std::uint32_t cc,
    const std::vector<std::string>& name_expressions,
    const std::vector<std::string>& extra_options) {
  auto prog = compile(source, program_name, "-arch=sm_" + std::to_string(cc), name_expressions,
                      extra_options);
  if (!prog) return tl::unexpected(prog.error());
  std::size_t size = 0;
  if (auto rc = rtc().nvrtcGetCUBINSize(prog->get(), &size); rc != NVRTC_SUCCESS)
    return nvrtc_fail("nvrtcGetCUBINSize", rc);
  std::vector<std::byte> cubin(size);
  if (auto rc = rtc().nvrtcGetCUBIN(prog->get(), reinterpret_cast<char*>(cubin.data()));
      rc != NVRTC_SUCCESS) {
    return nvrtc_fail("nvrtcGetCUBIN", rc);
  }
  return cubin;
}

Result<std::vector<std::byte>> link_ltoir(std::span<const char> ltoir, std::uint32_t cc,
                                          const std::vector<std::string>& kernels,
                                          const std::string& program_name) {
  std::vector<std::string> options = {"-arch=sm_" + std::to_string(cc)};
  for (const auto& o : lto_link_options()) options.push_back(o);
  for (const auto& k : kernels) options.push_back("-kernels-used=" + k);
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  if (const auto& api = nvjitlink(); !api) return tl::unexpected(api.error());
  nvJitLinkHandle raw = nullptr;
  if (auto rc = jl().nvJitLinkCreate(&raw, static_cast<std::uint32_t>(argv.size()), argv.data());
      rc != NVJITLINK_SUCCESS) {
    return fail(ErrorCode::compile,
                "nvJitLinkCreate failed (code " + std::to_string(rc) + ") for " + options[0]);
  }
  NvJitLinkHandle link(raw);
  if (auto rc = jl().nvJitLinkAddData(link.get(), NVJITLINK_INPUT_LTOIR, ltoir.data(), ltoir.size(),
                                 (program_name + ".ltoir").c_str());
      rc != NVJITLINK_SUCCESS) {
    return fail(ErrorCode::compile, "nvJitLink rejected NVRTC's LTO IR (code " +
                                        std::to_string(rc) + "; nvJitLink must be at least " +
                                        "NVRTC's version):\n" + nvjitlink_log(link.get()));
  }
  if (auto rc = jl().nvJitLinkComplete(link.get()); rc != NVJITLINK_SUCCESS) {
    return fail(ErrorCode::compile, "nvJitLink could not link the LTO IR (code " +
                                        std::to_string(rc) + "):\n" + nvjitlink_log(link.get()));
  }
  std::size_t size = 0;
  if (jl().nvJitLinkGetLinkedCubinSize(link.get(), &size) != NVJITLINK_SUCCESS || size == 0) {
    return fail(ErrorCode::internal, "nvJitLinkGetLinkedCubinSize failed");
  }
  std::vector<std::byte> cubin(size);
  if (jl().nvJitLinkGetLinkedCubin(link.get(), cubin.data()) != NVJITLINK_SUCCESS) {
    return fail(ErrorCode::internal, "nvJitLinkGetLinkedCubin failed");
  }
  return cubin;
}

}  // namespace cccl_cache::algos::detail
