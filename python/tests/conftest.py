"""Shared fixtures. The process's default cache goes to a temporary directory (set
before cccl_cache opens it), so no test touches ~/.cache/cccl-cache."""

import os
import shutil
import tempfile

import pytest

_tmp = tempfile.mkdtemp(prefix="cccl-cache-pytest-")
os.environ["CCCL_CACHE_DIR"] = os.path.join(_tmp, "default")
os.environ.pop("CCCL_CACHE_DISABLE", None)
os.environ.pop("CCCL_CACHE_READ_ONLY", None)


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_tmp, ignore_errors=True)


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs CuPy and a CUDA device (skipped otherwise)")
    # A deprecation our module triggers in a peer library (e.g. CuPy's stream
    # wrappers) fails the test that hits it.
    config.addinivalue_line("filterwarnings", "error::DeprecationWarning:cccl_cache")


class FakeArray:
    """A device array as far as __cuda_array_interface__ goes (no memory behind it):
    the argument checks that come before any driver call can be tested without a GPU."""

    def __init__(self, n=8, typestr="<f4", strides=None, ptr=0x10000, readonly=False, shape=None,
                 **extra):
        self.__cuda_array_interface__ = {
            "shape": shape if shape is not None else (n,), "typestr": typestr,
            "data": (ptr, readonly), "strides": strides, "version": 3, **extra}


@pytest.fixture
def fake():
    return FakeArray


@pytest.fixture(scope="session")
def store_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("store"))
