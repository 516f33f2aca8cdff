# CCCL_CACHE_SANITIZE="address;undefined" builds everything with ASan/UBSan.
if(CCCL_CACHE_SANITIZE)
  string(REPLACE ";" "," _san "${CCCL_CACHE_SANITIZE}")
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${_san}> $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=${_san})
endif()
