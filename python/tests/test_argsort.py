"""An argsort (a radix sort with values_in=counting) without a GPU: the spec the factory
asks for, its argument checks, and its build for sm_90, stored and found again."""

import numpy as np
import pytest

import cccl_cache
from cccl_cache import Cache, Spec, _api


@pytest.fixture
def specs(monkeypatch):
    """The specs the factories ask for, instead of acquiring them on a device."""
    asked = []

    def acquire(algorithm, fields, operators, device, arrays, cache):
        asked.append(Spec.from_fields(algorithm, fields, operators))
        return asked[-1]
    monkeypatch.setattr(_api, "_acquire", acquire)
    return asked


@pytest.mark.parametrize("keys, index, order, text", [
    (np.float32, np.int32, "ascending",
     "radix_sort keys=float32 values=int32 descending=false offset=uint32 values_in=counting"),
    ("uint16", "int64", "descending",
     "radix_sort keys=uint16 values=int64 descending=true offset=uint32 values_in=counting"),
])
def test_factory_spec(specs, keys, index, order, text):
    assert cccl_cache.make_radix_argsort(keys, index, order).text == text


def test_factory_takes_arrays_and_the_offset(specs, fake):
    spec = cccl_cache.make_radix_argsort(fake(typestr="<f8"), fake(typestr="<i8"), offset="uint64")
    assert spec.fields["keys"] == "float64" and spec.fields["values"] == "int64"
    assert spec.fields["offset"] == "uint64" and spec.fields["values_in"] == "counting"


def test_factory_errors(fake):
    f4, i4 = fake(typestr="<f4"), fake(typestr="<i4")
    with pytest.raises(ValueError, match="values_in"):
        cccl_cache.make_radix_argsort(i4, f4)  # float indices
    with pytest.raises(ValueError, match="order"):
        cccl_cache.make_radix_argsort(f4, i4, "sideways")
    with pytest.raises(TypeError, match="d_out_indices"):
        cccl_cache.make_radix_argsort(f4, fake(typestr="<c8"))
    with pytest.raises(ValueError, match="counts in an integer type, not bool"):
        cccl_cache.make_radix_argsort(f4, fake(typestr="|b1"))


def test_one_shot_checks_sizes_before_any_device_work(specs, fake):
    with pytest.raises(ValueError, match="d_out_indices: 7 items, needs 8"):
        cccl_cache.argsort(fake(8, "<f4"), fake(7, "<i4"))
    with pytest.raises(ValueError, match="d_out_keys: 7 items, needs 8"):
        cccl_cache.argsort(fake(8, "<f4"), fake(8, "<i4"), d_out_keys=fake(7, "<f4"))


def test_builds_for_sm90_and_is_found_again(tmp_path):
    spec = Spec("radix_sort keys=float32 values=int32 values_in=counting")
    assert spec.key(90) != Spec("radix_sort keys=float32 values=int32").key(90)
    cache = Cache(str(tmp_path))
    assert cache.prewarm(spec, 90) is True
    assert Cache(str(tmp_path)).prewarm(spec, 90) is False
