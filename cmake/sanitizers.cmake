# CCCL_CACHE_SANITIZE="address;undefined" builds everything with ASan/UBSan.
if(CCCL_CACHE_SANITIZE)
  string(REPLACE ";" "," _san "${CCCL_CACHE_SANITIZE}")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${_san}> $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  # -O0 -g1 (after the build type's -O2 -g, so they win): instrumented code compiles
  # about 2.6x faster than at -O1 (algorithm_cache.cpp: 54 s against 140 s of CPU), the
  # tests' time goes to NVRTC, LMDB and child processes, not to our code, and line
  # tables are all a report's stack trace needs.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-O0> $<$<COMPILE_LANGUAGE:CXX>:-g1>)
  # Debian's and Ubuntu's GCC link with --as-needed by default, but not when -fsanitize
  # is given (the spec reads %{!fsanitize=*:--as-needed}). CUDA's imported targets may drag
  # the toolkit's stub libcuda.so into every libalgos program's link; without
  # --as-needed it becomes NEEDED (libcuda.so.1), so on a machine without a driver no
  # such program starts, gtest_discover_tests fails the build, and where it starts,
  # libalgos's dlopen finds the stub instead of the driver. Restore it. (The GCC spec
  # links the sanitizer runtimes with --no-as-needed itself.)
  add_link_options(-fsanitize=${_san} LINKER:--as-needed)
endif()
