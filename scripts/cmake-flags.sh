# The flags scripts/quickstart.sh and scripts/test.sh configure a build dir with (sourced
# by both): the same ones, so that the Quick start's two commands, run one after the
# other in one checkout, compile the library once. -g1 (line tables, enough for a
# backtrace): full -g costs a third more compile time, in g++ and in nvcc's host pass.
# shellcheck shell=bash
release_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo
               -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
               -DCMAKE_CUDA_FLAGS_RELWITHDEBINFO="-O2 -Xcompiler=-g1 -DNDEBUG")
