"""The store through Python: a build is stored, found again by another cache and by a
new process; settings come from the same configuration as C++'s (no GPU needed:
prewarm builds for a named CC). One NVRTC build for the whole file."""

import os
import subprocess
import sys

import pytest

import cccl_cache
from cccl_cache import Cache, Spec

SPEC = "unary_transform in=float32 out=float32 op=negate"


@pytest.fixture(scope="module")
def built(store_dir):
    cache = Cache(store_dir)
    return cache, cache.prewarm(Spec(SPEC), 90)


def test_prewarm_builds_and_stores(built, store_dir):
    cache, did_build = built
    assert did_build is True
    assert cache.stats()["builds"] == 1
    assert cache.dir == store_dir
    assert os.path.getsize(os.path.join(store_dir, "data.mdb")) > 0
    assert cache.prewarm(Spec(SPEC), 90) is False  # in the store now
    assert cache.stats()["builds"] == 1


def test_another_cache_finds_the_entry(built, store_dir):
    assert Cache(store_dir).prewarm(Spec(SPEC), 90) is False


def test_a_new_process_finds_the_entry(built, store_dir):
    code = ("import cccl_cache, sys; c = cccl_cache.Cache(sys.argv[1]); "
            "print(c.prewarm(cccl_cache.Spec(sys.argv[2]), 90), c.stats()['builds'])")
    out = subprocess.run([sys.executable, "-c", code, store_dir, SPEC], capture_output=True, text=True,
                         env=os.environ, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "0"]


def test_environment_configures_the_default_cache():
    assert cccl_cache.default_cache() is cccl_cache.default_cache()
    assert cccl_cache.default_cache().dir == os.environ["CCCL_CACHE_DIR"]


def test_disabled_cache_stores_nothing(tmp_path):
    cache = Cache(str(tmp_path / "off"), disabled=True)
    assert not (tmp_path / "off").exists()
    assert cache.stats() == {"builds": 0, "store_hits": 0, "memory_hits": 0}


def test_bad_configuration_is_an_error(tmp_path):
    env = dict(os.environ, CCCL_CACHE_MAX_SIZE="lots")
    code = "import cccl_cache; cccl_cache.Cache()"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 1
    assert "ValueError" in out.stderr and "CCCL_CACHE_MAX_SIZE" in out.stderr


def test_prewarm_rejects_an_unknown_cc(built):
    cache, _ = built
    with pytest.raises((ValueError, cccl_cache.Error)):
        cache.prewarm(Spec(SPEC), 1)


def test_import_is_light():
    code = "import sys, cccl_cache; print(sorted(m for m in ('numpy', 'cupy', 'torch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
