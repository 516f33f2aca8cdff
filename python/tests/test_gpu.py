"""Every algorithm through Python on CuPy arrays against NumPy on the host, from a
fresh build and from the store (a second Cache on the same directory), plus the run
path's argument checks. Skipped without CuPy and a CUDA device."""

import numpy as np
import pytest

import cccl_cache
from cccl_cache import Cache

cp = pytest.importorskip("cupy")
try:
    _gpus = cp.cuda.runtime.getDeviceCount()
except Exception:  # no driver, no device
    _gpus = 0
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(_gpus == 0, reason="no CUDA device")]

N = 10_007
rng = np.random.default_rng(7)


@pytest.fixture(scope="module")
def caches(tmp_path_factory):
    """(fresh, loaded): the first builds every spec, the second finds them in the store."""
    d = str(tmp_path_factory.mktemp("gpu-store"))
    return Cache(d), Cache(d)


def both(caches, make):
    """The executable from a fresh build and the one loaded from the store."""
    fresh, loaded = caches
    a = make(fresh)
    before = loaded.stats()["store_hits"]
    b = make(loaded)
    assert loaded.stats()["store_hits"] == before + 1
    return [a, b]


def run_two_phase(exe, *args, n):
    """CUB's convention: the size query, then the run with a buffer of that size. n: the
    counts temp_storage_bytes takes (a tuple where it takes several)."""
    nbytes = exe(None, *args)
    assert nbytes == (exe.temp_storage_bytes(*n) if isinstance(n, tuple) else exe.temp_storage_bytes(n))
    temp = cp.empty(max(nbytes, 1), cp.uint8)
    assert exe(temp, *args) == nbytes
    return nbytes


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_merge_sort_keys(caches, dtype):
    h = (rng.standard_normal(N) * 1000).astype(dtype)
    for exe in both(caches, lambda c: cccl_cache.make_merge_sort(dtype, None, dtype, None, device=0, cache=c)):
        d_in, d_out = cp.asarray(h), cp.empty(N, dtype)
        run_two_phase(exe, d_in, None, d_out, None, N, n=N)
        np.testing.assert_array_equal(d_out.get(), np.sort(h, kind="stable"))


def test_merge_sort_pairs_greater_is_stable(caches):
    keys = rng.integers(0, 50, N).astype(np.int64)
    vals = np.arange(N, dtype=np.uint32)
    for exe in both(caches, lambda c: cccl_cache.make_merge_sort(np.int64, np.uint32, np.int64, np.uint32,
                                                                  op="greater", device=0, cache=c)):
        dk, dv = cp.asarray(keys), cp.asarray(vals)
        run_two_phase(exe, dk, dv, dk, dv, N, n=N)  # in place
        order = np.argsort(-keys, kind="stable")
        np.testing.assert_array_equal(dk.get(), keys[order])
        np.testing.assert_array_equal(dv.get(), vals[order])


def test_radix_sort(caches):
    h = rng.standard_normal(N).astype(np.float32)
    idx = np.arange(N, dtype=np.int32)
    for exe in both(caches, lambda c: cccl_cache.make_radix_sort(np.float32, np.float32, np.int32, np.int32,
                                                                  order="descending", device=0, cache=c)):
        dk, dko = cp.asarray(h), cp.empty(N, cp.float32)
        dv, dvo = cp.asarray(idx), cp.empty(N, cp.int32)
        run_two_phase(exe, dk, dko, dv, dvo, N, n=N)
        order = np.argsort(-h, kind="stable")
        np.testing.assert_array_equal(dko.get(), h[order])
        np.testing.assert_array_equal(dvo.get(), idx[order])
        np.testing.assert_array_equal(dk.get(), h)  # inputs unchanged


def test_radix_sort_double_buffer(caches):
    """The DoubleBuffer form: the result in current(), the selector set, less temp storage."""
    h = rng.integers(-(2**40), 2**40, N).astype(np.int64)
    idx = np.arange(N, dtype=np.uint32)
    order = np.argsort(h, kind="stable")
    for exe in both(caches, lambda c: cccl_cache.make_radix_sort(np.int64, np.int64, np.uint32, np.uint32,
                                                                  device=0, cache=c)):
        for start in (0, 1):
            keys = cccl_cache.DoubleBuffer(cp.empty(N, cp.int64), cp.empty(N, cp.int64))
            vals = cccl_cache.DoubleBuffer(cp.empty(N, cp.uint32), cp.empty(N, cp.uint32))
            keys.selector = vals.selector = start
            keys.current()[:] = cp.asarray(h)
            vals.current()[:] = cp.asarray(idx)
            nbytes = exe(None, keys, None, vals, None, N)
            assert nbytes == exe.temp_storage_bytes(N, double_buffer=True)
            assert 0 < nbytes <= exe.temp_storage_bytes(N)
            assert exe(cp.empty(nbytes, cp.uint8), keys, None, vals, None, N) == nbytes
            assert keys.selector in (0, 1) and vals.selector == keys.selector
            np.testing.assert_array_equal(keys.current().get(), h[order])
            np.testing.assert_array_equal(vals.current().get(), idx[order])
        # Bits: sorting by the low 16 bits only, as NumPy on the masked keys.
        keys = cccl_cache.DoubleBuffer(cp.asarray(h), cp.empty(N, cp.int64))
        vals = cccl_cache.DoubleBuffer(cp.asarray(idx), cp.empty(N, cp.uint32))
        nbytes = exe(None, keys, None, vals, None, N, 0, 16)
        exe(cp.empty(nbytes, cp.uint8), keys, None, vals, None, N, 0, 16)
        low = np.argsort(h & 0xFFFF, kind="stable")
        np.testing.assert_array_equal(vals.current().get(), idx[low])
    # The one-shot function, keys only, descending.
    keys = cccl_cache.DoubleBuffer(cp.asarray(h), cp.empty(N, cp.int64))
    cccl_cache.radix_sort(keys, None, order="descending")
    np.testing.assert_array_equal(keys.current().get(), np.sort(h)[::-1])


def test_radix_sort_double_buffer_rejects_bad_arguments(caches):
    exe = cccl_cache.make_radix_sort(np.float32, np.float32, device=0, cache=caches[0])
    a, b, temp = cp.empty(N, cp.float32), cp.empty(N, cp.float32), cp.empty(1 << 20, cp.uint8)
    db = cccl_cache.DoubleBuffer(a, b)
    with pytest.raises(ValueError, match="d_out_keys: must be None"):
        exe(temp, db, b, None, None, N)
    with pytest.raises(ValueError, match="d_in_values: must be None"):
        exe(temp, db, None, cccl_cache.DoubleBuffer(a, b), None, N)
    db.selector = 2
    with pytest.raises(ValueError, match="selector is 2"):
        exe(temp, db, None, None, None, N)
    db.selector = 0
    db.d_buffers = [a]
    with pytest.raises(TypeError, match="two arrays"):
        exe(temp, db, None, None, None, N)
    db.d_buffers = [a, cp.empty(N, cp.float64)]
    with pytest.raises(TypeError, match=r"d_in_keys.d_buffers\[1\]"):
        exe(temp, db, None, None, None, N)
    db.d_buffers = [a, cp.empty(N - 1, cp.float32)]
    with pytest.raises(ValueError, match=r"d_in_keys.d_buffers\[1\]"):
        exe(temp, db, None, None, None, N)
    with pytest.raises(ValueError, match=r"d_in_keys.alternate\(\): 10006 items, needs 10007"):
        cccl_cache.radix_sort(cccl_cache.DoubleBuffer(a, cp.empty(N - 1, cp.float32)), None)


def test_radix_sort_bits(caches):
    h = rng.integers(0, 2**16, N).astype(np.uint32)
    exe = cccl_cache.make_radix_sort(np.uint32, np.uint32, device=0, cache=caches[0])
    d_in, d_out = cp.asarray(h), cp.empty(N, cp.uint32)
    nbytes = exe(None, d_in, d_out, None, None, N, begin_bit=0, end_bit=8)
    exe(cp.empty(nbytes, cp.uint8), d_in, d_out, None, None, N, begin_bit=0, end_bit=8)
    np.testing.assert_array_equal(d_out.get(), h[np.argsort(h & 0xFF, kind="stable")])
    with pytest.raises(ValueError, match="bit"):
        exe(None, d_in, d_out, None, None, N, begin_bit=8, end_bit=40)


@pytest.mark.parametrize("keys_t, index_t, order", [
    (np.float32, np.int32, "ascending"),
    (np.int64, np.int64, "descending"),
    (np.uint16, np.int32, "ascending"),  # many equal keys: stability shows
])
def test_radix_argsort(caches, keys_t, index_t, order):
    """An argsort (values_in=counting) against NumPy's stable argsort, fresh and loaded:
    sorted keys to an array or kept in temp storage, indices from 0 or a start."""
    if keys_t == np.float32:
        h = rng.standard_normal(N).astype(keys_t)
    else:
        h = rng.integers(0, 1000, N).astype(keys_t)
    want = np.argsort(h, kind="stable") if order == "ascending" else np.argsort(-h.astype(np.float64), kind="stable")
    for exe in both(caches, lambda c: cccl_cache.make_radix_argsort(keys_t, index_t, order, device=0, cache=c)):
        assert exe.spec.fields["values_in"] == "counting"
        d_keys, d_sorted, d_idx = cp.asarray(h), cp.empty(N, keys_t), cp.empty(N, index_t)
        run_two_phase(exe, d_keys, d_sorted, None, d_idx, N, n=N)
        np.testing.assert_array_equal(d_idx.get(), want.astype(index_t))
        np.testing.assert_array_equal(d_sorted.get(), h[want])
        np.testing.assert_array_equal(d_keys.get(), h)  # the input is left as it was
        # The sorted keys kept in temp storage (counted in the bytes), indices from 5.
        nbytes = exe(None, d_keys, None, 5, d_idx, N)
        assert nbytes >= exe.temp_storage_bytes(N) + N * np.dtype(keys_t).itemsize
        assert exe(cp.empty(nbytes, cp.uint8), d_keys, None, 5, d_idx, N) == nbytes
        np.testing.assert_array_equal(d_idx.get(), (want + 5).astype(index_t))
    # The one-shot function, into an index array only.
    d_idx = cp.empty(N, index_t)
    cccl_cache.argsort(cp.asarray(h), d_idx, order, cache=caches[0])
    np.testing.assert_array_equal(d_idx.get(), want.astype(index_t))


def test_radix_argsort_double_buffer_and_bits(caches):
    """DoubleBuffers: the indices from 0 written into the values' current buffer, then
    sorted within them; and a bit range, as NumPy on the masked keys."""
    h = rng.integers(0, 2**20, N).astype(np.uint32)
    exe = cccl_cache.make_radix_argsort(np.uint32, np.int64, device=0, cache=caches[0])
    keys = cccl_cache.DoubleBuffer(cp.asarray(h), cp.empty(N, cp.uint32))
    idx = cccl_cache.DoubleBuffer(cp.full(N, -1, cp.int64), cp.full(N, -1, cp.int64))
    nbytes = exe(None, keys, None, idx, None, N)
    assert nbytes == exe.temp_storage_bytes(N, double_buffer=True)
    exe(cp.empty(nbytes, cp.uint8), keys, None, idx, None, N)
    np.testing.assert_array_equal(idx.current().get(), np.argsort(h, kind="stable"))
    d_idx = cp.empty(N, cp.int64)
    cccl_cache.argsort(cp.asarray(h), d_idx, begin_bit=4, end_bit=12, cache=caches[0])
    np.testing.assert_array_equal(d_idx.get(), np.argsort((h >> 4) & 0xFF, kind="stable"))


def test_radix_argsort_rejects_bad_arguments(caches):
    exe = cccl_cache.make_radix_argsort(np.float32, np.int32, device=0, cache=caches[0])
    keys, temp = cp.empty(N, cp.float32), cp.empty(1 << 22, cp.uint8)
    with pytest.raises(TypeError, match="d_out_values"):
        exe(temp, keys, None, None, cp.empty(N, cp.int64), N)
    with pytest.raises(TypeError, match="d_in_values"):
        exe(temp, keys, None, 1.5, cp.empty(N, cp.int32), N)
    with pytest.raises(OverflowError):
        exe(temp, keys, None, 2**40, cp.empty(N, cp.int32), N)
    with pytest.raises(ValueError, match="temp_storage"):
        exe(cp.empty(16, cp.uint8), keys, None, None, cp.empty(N, cp.int32), N)
    with pytest.raises(ValueError, match="d_out_indices: 10006 items, needs 10007"):
        cccl_cache.argsort(keys, cp.empty(N - 1, cp.int32))


@pytest.mark.parametrize("dtype, op, init, ref", [
    (np.float32, "plus", 1.5, lambda h: np.float32(1.5) + h.sum(dtype=np.float64)),
    (np.int64, "maximum", -(2**62), lambda h: h.max()),
    (np.int32, "plus", 3, lambda h: 3 + h.sum()),
])
def test_reduce(caches, dtype, op, init, ref):
    h = (rng.standard_normal(N) * 100).astype(dtype)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(dtype, dtype, op, device=0, cache=c)):
        d_out = cp.zeros(1, dtype)
        run_two_phase(exe, cp.asarray(h), d_out, N, init, n=N)
        np.testing.assert_allclose(d_out.get()[0], ref(h), rtol=1e-5)


@pytest.mark.parametrize("dtype, offsets, op, init, ref", [
    (np.float64, np.int64, "plus", 0.5, lambda s, init: init + s.sum()),
    (np.int32, np.int32, "minimum", 1000, lambda s, init: min(init, s.min(initial=init))),
])
def test_segmented_reduce(caches, dtype, offsets, op, init, ref):
    h = rng.integers(-100, 100, N).astype(dtype)
    bounds = np.sort(rng.integers(0, N, 40)).astype(offsets)
    bounds[5] = bounds[6]  # an empty segment
    begin, end = bounds[:-1], bounds[1:]
    m = len(begin)
    for exe in both(caches, lambda c: cccl_cache.make_segmented_reduce(dtype, dtype, offsets, offsets, op,
                                                                        device=0, cache=c)):
        d_out = cp.empty(m, dtype)
        run_two_phase(exe, cp.asarray(h), d_out, m, cp.asarray(begin), cp.asarray(end), init, n=m)
        want = [ref(h[b:e], dtype(init)) for b, e in zip(begin, end)]
        np.testing.assert_array_equal(d_out.get(), np.array(want, dtype))
    d_out = cp.empty(m, dtype)
    cccl_cache.segmented_reduce(cp.asarray(h), d_out, cp.asarray(begin), cp.asarray(end), op, init,
                                cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), np.array(want, dtype))


@pytest.mark.parametrize("keys, values, offsets, order, segments", [
    (np.float32, None, np.int32, "ascending", 40),     # CUB's fallback kernel
    (np.int16, np.int64, np.int64, "descending", 900),  # partitioned by size (above 500)
])
def test_segmented_sort(caches, keys, values, offsets, order, segments):
    h_keys = rng.integers(-1000, 1000, N).astype(keys)
    h_values = None if values is None else np.arange(N).astype(values)
    bounds = np.sort(rng.integers(0, N, segments + 1)).astype(offsets)
    bounds[5] = bounds[6]  # an empty segment
    bounds[0], bounds[-1] = 0, N
    begin, end = bounds[:-1], bounds[1:]
    want_keys, want_values = h_keys.copy(), None if values is None else h_values.copy()
    for b, e in zip(begin, end):
        k = h_keys[b:e]
        idx = np.argsort(-k if order == "descending" else k, kind="stable")
        want_keys[b:e] = k[idx]
        if values is not None:
            want_values[b:e] = h_values[b:e][idx]
    d_keys, d_values = cp.asarray(h_keys), None if values is None else cp.asarray(h_values)
    for exe in both(caches, lambda c: cccl_cache.make_segmented_sort(keys, keys, values, values, offsets, offsets,
                                                                      order, device=0, cache=c)):
        out_keys = cp.empty(N, keys)
        out_values = None if values is None else cp.empty(N, values)
        run_two_phase(exe, d_keys, out_keys, d_values, out_values, N, segments, cp.asarray(begin), cp.asarray(end),
                      n=(N, segments))
        np.testing.assert_array_equal(out_keys.get(), want_keys)
        if values is not None:
            np.testing.assert_array_equal(out_values.get(), want_values)
    out_keys = cp.empty(N, keys)
    out_values = None if values is None else cp.empty(N, values)
    cccl_cache.segmented_sort(d_keys, out_keys, d_values, out_values, None, None, cp.asarray(begin),
                              cp.asarray(end), order, cache=caches[0])
    np.testing.assert_array_equal(out_keys.get(), want_keys)


@pytest.mark.parametrize("keys, items, count, op", [
    (np.int32, np.float64, np.int64, "equal_to"),
    (np.int64, np.int32, np.int32, cccl_cache.Op("same_ten", "__device__ bool same_ten(long long a, long long b) "
                                                             "{ return a / 10 == b / 10; }")),
])
def test_unique_by_key(caches, keys, items, count, op):
    h_keys = np.repeat(rng.integers(0, 50, N // 4), rng.integers(1, 5, N // 4))[:N].astype(keys)
    n = len(h_keys)
    h_items = np.arange(n).astype(items)
    group = h_keys // 10 if isinstance(op, cccl_cache.Op) else h_keys
    first = np.concatenate(([True], group[1:] != group[:-1]))
    d_keys, d_items = cp.asarray(h_keys), cp.asarray(h_items)
    for exe in both(caches, lambda c: cccl_cache.make_unique_by_key(keys, items, keys, items, count, op,
                                                                     device=0, cache=c)):
        k_out, i_out, sel = cp.empty(n, keys), cp.empty(n, items), cp.empty(1, count)
        run_two_phase(exe, d_keys, d_items, k_out, i_out, sel, n, n=n)
        m = int(sel.get()[0])
        assert m == first.sum()
        np.testing.assert_array_equal(k_out.get()[:m], h_keys[first])
        np.testing.assert_array_equal(i_out.get()[:m], h_items[first])
    k_out, i_out, sel = cp.empty(n, keys), cp.empty(n, items), cp.empty(1, count)
    cccl_cache.unique_by_key(d_keys, d_items, k_out, i_out, sel, op, cache=caches[0])
    assert int(sel.get()[0]) == first.sum()
    np.testing.assert_array_equal(i_out.get()[:first.sum()], h_items[first])


def test_unique_by_key_over_iterators(caches):
    """Each run's first position (a CountingIterator as the items) with the keys discarded,
    fresh and store-loaded, against NumPy."""
    from cccl_cache.iterators import CountingIterator, DiscardIterator
    h_keys = np.repeat(rng.integers(0, 50, N // 4), rng.integers(1, 5, N // 4))[:N].astype(np.int32)
    n = len(h_keys)
    first = np.flatnonzero(np.concatenate(([True], h_keys[1:] != h_keys[:-1])))
    d_keys = cp.asarray(h_keys)
    for exe in both(caches, lambda c: cccl_cache.make_unique_by_key(
            d_keys, CountingIterator(np.int64(0)), DiscardIterator(), cp.empty(n, cp.int64),
            cp.empty(1, cp.uint64), device=0, cache=c)):
        pos, sel = cp.full(n, -1, cp.int64), cp.empty(1, cp.uint64)
        run_two_phase(exe, d_keys, CountingIterator(np.int64(0)), DiscardIterator(), pos, sel, n, n=n)
        assert int(sel.get()[0]) == first.size
        np.testing.assert_array_equal(pos.get()[:first.size], first)
    k_out, pos, sel = cp.empty(n, cp.int32), cp.empty(n, cp.int64), cp.empty(1, cp.uint64)
    cccl_cache.unique_by_key(d_keys, CountingIterator(np.int64(0)), k_out, pos, sel, cache=caches[0])
    np.testing.assert_array_equal(k_out.get()[:first.size], h_keys[first])
    np.testing.assert_array_equal(pos.get()[:first.size], first)


def test_merge_sort_over_iterators(caches):
    """An argsort (a CountingIterator as the values) and a sort of keys read last first
    (a ReverseIterator, keys only), fresh and store-loaded, against NumPy's stable sort."""
    from cccl_cache.iterators import CountingIterator, ReverseIterator
    h_keys = rng.integers(-1000, 1000, N).astype(np.float32)
    order = np.argsort(h_keys, kind="stable")
    d_keys = cp.asarray(h_keys)
    for exe in both(caches, lambda c: cccl_cache.make_merge_sort(
            d_keys, CountingIterator(np.int64(0)), cp.empty(N, cp.float32), cp.empty(N, cp.int64),
            device=0, cache=c)):
        k_out, pos = cp.empty(N, cp.float32), cp.full(N, -1, cp.int64)
        run_two_phase(exe, d_keys, CountingIterator(np.int64(0)), k_out, pos, N, n=N)
        np.testing.assert_array_equal(k_out.get(), h_keys[order])
        np.testing.assert_array_equal(pos.get(), order)
    k_out = cp.empty(N, cp.float32)
    cccl_cache.merge_sort(ReverseIterator(d_keys), None, k_out, None, cache=caches[0])
    np.testing.assert_array_equal(k_out.get(), np.sort(h_keys[::-1], kind="stable"))


@pytest.mark.parametrize("keys, values, op, exclusive", [
    (np.int32, np.int8, "plus", False),
    (np.int16, np.int16, "plus", True),
    (np.int64, np.float32, "maximum", False),
])
def test_scan_by_key(caches, keys, values, op, exclusive):
    """Sums of int8 and int16 values overflow the value type: CUB accumulates them in int
    and stores each output in the value type, as the reference does."""
    h_keys = np.repeat(rng.integers(0, 50, N // 4), rng.integers(1, 400, N // 4))[:N].astype(keys)
    n = len(h_keys)
    h_values = rng.integers(-100, 100, n).astype(values)
    init = 7
    combine = max if op == "maximum" else (lambda a, b: a + b)
    want, acc = np.empty(n, values), 0
    for i in range(n):
        head = i == 0 or h_keys[i] != h_keys[i - 1]
        if exclusive:
            acc = init if head else combine(acc, h_values[i - 1].item())
        else:
            acc = h_values[i].item() if head else combine(acc, h_values[i].item())
        want[i] = np.array(acc).astype(np.float32 if values == np.float32 else np.int64).astype(values)
    d_keys, d_values = cp.asarray(h_keys), cp.asarray(h_values)
    for exe in both(caches, lambda c: cccl_cache.make_scan_by_key(keys, values, values, op, exclusive=exclusive,
                                                                   device=0, cache=c)):
        out = cp.empty(n, values)
        run_two_phase(exe, d_keys, d_values, out, n, init if exclusive else None, n=n)
        np.testing.assert_array_equal(out.get(), want)
    out = cp.empty(n, values)
    if exclusive:
        cccl_cache.exclusive_scan_by_key(d_keys, d_values, out, op, init, cache=caches[0])
    else:
        cccl_cache.inclusive_scan_by_key(d_keys, d_values, out, op, cache=caches[0])
    np.testing.assert_array_equal(out.get(), want)


def test_scan_by_key_over_iterators(caches):
    """Each item's rank in its run (a ConstantIterator as the values) and an exclusive sum
    of counting values written last first (a ReverseIterator output), fresh and
    store-loaded, against NumPy."""
    from cccl_cache.iterators import ConstantIterator, CountingIterator, ReverseIterator
    h_keys = np.repeat(rng.integers(0, 50, N // 4), rng.integers(1, 400, N // 4))[:N].astype(np.int32)
    n = len(h_keys)
    heads = np.flatnonzero(np.r_[True, h_keys[1:] != h_keys[:-1]])
    run_start = heads[np.searchsorted(heads, np.arange(n), side="right") - 1]
    ranks = (np.arange(n) - run_start + 1).astype(np.int32)
    d_keys = cp.asarray(h_keys)
    for exe in both(caches, lambda c: cccl_cache.make_scan_by_key(
            d_keys, ConstantIterator(np.int32(1)), cp.empty(n, cp.int32), device=0, cache=c)):
        out = cp.full(n, -1, cp.int32)
        run_two_phase(exe, d_keys, ConstantIterator(np.int32(1)), out, n, None, n=n)
        np.testing.assert_array_equal(out.get(), ranks)
    # Exclusive over counting values from 0, seeded with 7: 7 + the sum of run_start..i-1.
    idx = np.arange(n, dtype=np.int64)
    want = 7 + (idx * (idx - 1) // 2 - run_start * (run_start - 1) // 2)
    out = cp.full(n, -1, cp.int64)
    cccl_cache.exclusive_scan_by_key(d_keys, CountingIterator(np.int64(0)), ReverseIterator(out), "plus", 7,
                                     cache=caches[0])
    np.testing.assert_array_equal(out.get(), want[::-1])


@pytest.mark.parametrize("dtype, count, cond", [
    (np.int32, np.int64, "identity"),
    (np.float32, np.uint32, cccl_cache.Op("positive", "__device__ bool positive(float x) { return x > 0.0f; }")),
])
def test_select(caches, dtype, count, cond):
    h = rng.integers(-3, 4, N).astype(dtype)
    keep = h > 0 if isinstance(cond, cccl_cache.Op) else h != 0
    for exe in both(caches, lambda c: cccl_cache.make_select(dtype, dtype, count, cond, device=0, cache=c)):
        d_out, sel = cp.empty(N, dtype), cp.empty(1, count)
        run_two_phase(exe, cp.asarray(h), d_out, sel, N, n=N)
        m = int(sel.get()[0])
        assert m == keep.sum()
        np.testing.assert_array_equal(d_out.get()[:m], h[keep])
    d_out, sel = cp.empty(N, dtype), cp.empty(1, count)
    cccl_cache.select(cp.asarray(h), d_out, sel, cond, cache=caches[0])
    assert int(sel.get()[0]) == keep.sum()
    np.testing.assert_array_equal(d_out.get()[:keep.sum()], h[keep])
    empty = cp.empty(0, dtype)
    cccl_cache.select(empty, empty, sel, cond, cache=caches[0])
    assert int(sel.get()[0]) == 0


@pytest.mark.parametrize("dtype, count, offset, first, second", [
    (np.int32, np.int64, "int64", "identity", "identity"),
    (np.float32, np.uint32, "int32", cccl_cache.Op("positive", "__device__ bool positive(float x) { return x > 0.0f; }"),
     cccl_cache.Op("small", "__device__ bool small(float x) { return x > -2.0f; }")),
])
def test_three_way_partition(caches, dtype, count, offset, first, second):
    h = rng.integers(-3, 4, N).astype(dtype)
    if isinstance(first, cccl_cache.Op):
        part = np.where(h > 0, 0, np.where(h > -2, 1, 2))
    else:
        part = np.where(h != 0, 0, 2)
    want = [h[part == p] for p in range(3)]

    def check(outs, sel):
        assert [int(x) for x in sel.get()] == [len(want[0]), len(want[1])]
        for p in range(3):
            np.testing.assert_array_equal(outs[p].get()[:len(want[p])], want[p])

    for exe in both(caches, lambda c: cccl_cache.make_three_way_partition(
            dtype, dtype, dtype, dtype, count, first, second, offset=offset, device=0, cache=c)):
        outs, sel = [cp.empty(N, dtype) for _ in range(3)], cp.empty(2, count)
        run_two_phase(exe, cp.asarray(h), *outs, sel, N, n=N)
        check(outs, sel)
    outs, sel = [cp.empty(N, dtype) for _ in range(3)], cp.empty(2, count)
    cccl_cache.three_way_partition(cp.asarray(h), *outs, sel, first, second, cache=caches[0])
    check(outs, sel)
    empty = cp.empty(0, dtype)
    cccl_cache.three_way_partition(empty, empty, empty, empty, sel, first, second, cache=caches[0])
    assert [int(x) for x in sel.get()] == [0, 0]


def cub_histogram(h, lower, upper, bins):
    """CUB's even bins on the host: integers as (x - lower) * bins // (upper - lower),
    floats as (x - lower) * (bins / (upper - lower)) in the samples' float type; samples
    outside [lower, upper) not counted."""
    inside = h[(h >= lower) & (h < upper)]
    if np.issubdtype(h.dtype, np.floating):
        t = h.dtype.type
        b = ((inside - t(lower)) * t(t(bins) / t(t(upper) - t(lower)))).astype(np.int64)
    else:
        b = (inside.astype(np.int64) - int(lower)) * bins // (int(upper) - int(lower))
    return np.bincount(b, minlength=bins)


@pytest.mark.parametrize("dtype, counter, lower, upper, levels", [
    (np.int32, np.int32, -2, 1000, 257),                      # shared-memory bins
    (np.float32, np.uint64, -1.5, 1000.0, 2049),              # global-memory bins
    (np.uint8, np.uint32, np.int32(10), np.int32(250), 257),  # byte samples, int bounds
])
def test_histogram_even(caches, dtype, counter, lower, upper, levels):
    bins = levels - 1
    h = rng.integers(-100, 1100, N).clip(0, 255).astype(dtype) if dtype == np.uint8 else \
        rng.integers(-100, 1100, N).astype(dtype)
    want = cub_histogram(h, lower, upper, bins)
    for exe in both(caches, lambda c: cccl_cache.make_histogram_even(
            dtype, counter, levels, lower, upper, device=0, cache=c)):
        d = cp.empty(bins, counter)
        nbytes = exe(None, cp.asarray(h), d, levels, lower, upper, N)
        assert nbytes == exe.temp_storage_bytes(N, levels)
        assert exe(cp.empty(max(nbytes, 1), cp.uint8), cp.asarray(h), d, levels, lower, upper, N) == nbytes
        np.testing.assert_array_equal(d.get(), want)
        with pytest.raises(ValueError, match="levels"):
            exe(None, cp.asarray(h), d, 1, lower, upper, N)
        with pytest.raises(ValueError, match="lower below upper"):
            exe(None, cp.asarray(h), d, levels, upper, lower, N)
    d = cp.empty(bins, counter)
    cccl_cache.histogram_even(cp.asarray(h), d, levels, lower, upper, cache=caches[0])
    np.testing.assert_array_equal(d.get(), want)
    cccl_cache.histogram_even(cp.empty(0, dtype), d, levels, lower, upper, cache=caches[0])
    assert int(d.get().sum()) == 0


def test_histogram_even_over_iterators(caches):
    """The bins of the squares of a float32 array (a TransformIterator) and of a
    CountingIterator's integers, fresh and store-loaded, against the host's bins."""
    from cccl_cache.iterators import CountingIterator, TransformIterator
    square = cccl_cache.Op("square", "__device__ float square(float x) { return x * x; }")
    h = rng.integers(-20, 21, N).astype(np.float32)
    d_h = cp.asarray(h)
    want = cub_histogram(h * h, np.float32(0.5), np.float32(300.25), 64)
    for exe in both(caches, lambda c: cccl_cache.make_histogram_even(
            TransformIterator(d_h, square), cp.empty(64, cp.int32), 65, np.float32(0.5), np.float32(300.25),
            device=0, cache=c)):
        d = cp.full(64, -1, cp.int32)
        nbytes = exe(None, TransformIterator(d_h, square), d, 65, np.float32(0.5), np.float32(300.25), N)
        exe(cp.empty(max(nbytes, 1), cp.uint8), TransformIterator(d_h, square), d, 65, np.float32(0.5),
            np.float32(300.25), N)
        np.testing.assert_array_equal(d.get(), want)
    d = cp.empty(10, cp.int32)
    cccl_cache.histogram_even(CountingIterator(np.int32(-50)), d, 11, 0, 1000, num_samples=N, cache=caches[0])
    np.testing.assert_array_equal(d.get(), cub_histogram(np.arange(-50, N - 50, dtype=np.int32), 0, 1000, 10))


def test_cache_modified_input_iterator(caches):
    """Sums of an int64 array read with streaming loads (cuda.compute's "stream"), fresh and
    store-loaded, and of a float32 array through the read-only cache into float64, against
    NumPy."""
    from cccl_cache.iterators import CacheModifiedInputIterator
    h = rng.integers(-1000, 1000, N).astype(np.int64)
    d = cp.asarray(h)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(
            CacheModifiedInputIterator(d, "stream"), cp.empty(1, cp.int64), "plus", np.int64(0),
            device=0, cache=c)):
        out = cp.empty(1, cp.int64)
        run_two_phase(exe, CacheModifiedInputIterator(d, "stream"), out, N, np.int64(0), n=N)
        assert int(out.get()[0]) == int(h.sum())
    # Integer-valued floats summed in float64 (the output's type): exact in any order.
    hf = rng.integers(-1000, 1000, N).astype(np.float32)
    out = cp.empty(1, cp.float64)
    cccl_cache.reduce_into(CacheModifiedInputIterator(cp.asarray(hf), "ldg"), out, cache=caches[0])
    assert float(out.get()[0]) == float(hf.astype(np.float64).sum())


def test_shuffle_iterator_is_a_permutation(caches):
    """A ShuffleIterator written out by a unary transform, fresh and store-loaded: each of
    0..N-1 once, the same order for the same seed, another for another; its sum by a
    reduction; read over another length than its own, refused."""
    from cccl_cache.iterators import ShuffleIterator
    outs = []
    for exe in both(caches, lambda c: cccl_cache.make_unary_transform(
            ShuffleIterator(N, 5), cp.empty(N, cp.int64), "identity", device=0, cache=c)):
        d = cp.full(N, -1, cp.int64)
        exe(ShuffleIterator(N, 5), d, N)
        outs.append(d.get())
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(np.sort(outs[0]), np.arange(N))
    assert (outs[0] != np.arange(N)).sum() > N - N // 16
    other = cp.empty(N, cp.int64)
    cccl_cache.unary_transform(ShuffleIterator(N, 6), other, "identity", cache=caches[0])
    assert not np.array_equal(other.get(), outs[0])
    total = cp.empty(1, cp.int64)
    cccl_cache.reduce_into(ShuffleIterator(N, 5), total, cache=caches[0])
    assert int(total.get()[0]) == N * (N - 1) // 2
    with pytest.raises(ValueError, match="must agree"):
        cccl_cache.unary_transform(ShuffleIterator(N, 5), other, "identity", num_items=N - 1, cache=caches[0])


@pytest.mark.parametrize("dtype, out, comp, upper", [
    (np.int32, np.int64, "less", False),
    (np.float32, np.uint64, "greater", True),
    (np.int64, np.int32, cccl_cache.Op("by_tens", "__device__ bool by_tens(long long a, long long b) "
                                       "{ return a / 10 < b / 10; }"), False),
])
def test_lower_and_upper_bound(caches, dtype, out, comp, upper):
    h_data = np.sort(rng.integers(5, 500, N)).astype(dtype)
    h_values = rng.integers(0, 520, 3 * N).astype(dtype)  # below, between, equal, above
    side = "right" if upper else "left"
    if comp == "greater":
        h_data = h_data[::-1].copy()
        want = len(h_data) - np.searchsorted(h_data[::-1], h_values, side="left" if upper else "right")
    elif isinstance(comp, cccl_cache.Op):
        want = np.searchsorted(h_data // 10, h_values // 10, side=side)
    else:
        want = np.searchsorted(h_data, h_values, side=side)
    make = cccl_cache.make_upper_bound if upper else cccl_cache.make_lower_bound
    d_data, d_values = cp.asarray(h_data), cp.asarray(h_values)
    for exe in both(caches, lambda c: make(dtype, dtype, out, comp, device=0, cache=c)):
        d_out = cp.empty(len(h_values), out)
        nbytes = exe(None, d_data, N, d_values, len(h_values), d_out)
        assert nbytes == exe.temp_storage_bytes() == 1
        assert exe(cp.empty(1, cp.uint8), d_data, N, d_values, len(h_values), d_out) == nbytes
        np.testing.assert_array_equal(d_out.get(), want.astype(out))
    d_out = cp.empty(len(h_values), out)
    (cccl_cache.upper_bound if upper else cccl_cache.lower_bound)(d_data, d_values, d_out, comp, cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), want.astype(out))
    empty = cp.empty(0, dtype)
    (cccl_cache.upper_bound if upper else cccl_cache.lower_bound)(empty, d_values, d_out, comp, cache=caches[0])
    assert not d_out.get().any()


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_inclusive_scan(caches, dtype):
    h = rng.integers(-100, 100, N).astype(dtype)
    for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(dtype, dtype, device=0, cache=c)):
        d = cp.asarray(h)
        run_two_phase(exe, d, d, N, n=N)  # in place
        np.testing.assert_array_equal(d.get(), np.cumsum(h, dtype=dtype))


def test_seeded_inclusive_scan(caches):
    # int8 sums overflow: CUB accumulates in int from the seed and stores each as int8.
    h = rng.integers(-128, 128, N).astype(np.int8)
    want = (7 + np.cumsum(h.astype(np.int64))).astype(np.int8)
    for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(np.int8, np.int8, init=True, device=0,
                                                                      cache=c)):
        d_out = cp.empty(N, cp.int8)
        nbytes = exe(None, None, None, N)
        temp = cp.empty(max(nbytes, 1), cp.uint8)
        with pytest.raises(ValueError, match="h_init"):
            exe(temp, cp.asarray(h), d_out, N)
        exe(temp, cp.asarray(h), d_out, N, h_init=np.int8(7))
        np.testing.assert_array_equal(d_out.get(), want)
        d_out[:] = 0  # the seed from device memory (CUB's FutureValue)
        exe(temp, cp.asarray(h), d_out, N, h_init=cp.asarray([7], cp.int8))
        np.testing.assert_array_equal(d_out.get(), want)
        with pytest.raises(TypeError, match="h_init"):
            exe(temp, cp.asarray(h), d_out, N, h_init=cp.asarray([7], cp.int16))
    d_out = cp.empty(N, cp.int8)
    cccl_cache.inclusive_scan(cp.asarray(h), d_out, h_init=7, cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), want)
    plain = cccl_cache.make_inclusive_scan(np.int8, np.int8, device=0, cache=caches[0])
    with pytest.raises(ValueError, match="h_init"):
        plain(cp.empty(max(plain(None, None, None, N), 1), cp.uint8), cp.asarray(h), d_out, N, h_init=7)


def _iterator_cases(seed, n=100_003):
    """(x, d_x, cases): a float32 array on the host and the device, and one iterator of
    each kind with its output type and the values it reads, every partial sum (of squares
    too) exact in float32."""
    from cccl_cache.iterators import (ConstantIterator, CountingIterator, PermutationIterator, ReverseIterator,
                                      TransformIterator)
    square = cccl_cache.Op("square", "__device__ float square(float x) { return x * x; }")
    rng = np.random.default_rng(seed)
    x = rng.integers(-8, 8, n).astype(np.float32)
    idx = rng.integers(0, n, n).astype(np.int64)
    d_x, d_idx = cp.asarray(x), cp.asarray(idx)
    return x, d_x, [
        (CountingIterator(np.int64(7)), "int64", np.arange(7, 7 + n, dtype=np.int64)),
        (ConstantIterator(np.float32(0.5)), "float32", np.full(n, 0.5, np.float32)),
        (ReverseIterator(d_x), "float32", x[::-1]),
        (PermutationIterator(d_x, d_idx), "float32", x[idx]),
        (TransformIterator(d_x, square), "float32", x * x),
        (TransformIterator(CountingIterator(np.int32(0)), "negate"), "int64", -np.arange(n, dtype=np.int64)),
    ]


def test_reduce_over_each_iterator_kind(caches):
    from cccl_cache.iterators import ReverseIterator
    n = 100_003
    x, d_x, cases = _iterator_cases(3, n)
    for it, out_type, values in cases:
        want = values.sum(dtype=out_type)
        d_out = cp.zeros(1, out_type)
        for exe in both(caches, lambda c: cccl_cache.make_reduce_into(it, d_out, "plus", device=0, cache=c)):
            d_out[:] = 0
            run_two_phase(exe, it, d_out, n, 0, n=n)
            assert d_out.get()[0] == want, (it, d_out.get()[0], want)
    # The one-shot form takes the array-backed iterator's length as num_items.
    d_out = cp.zeros(1, cp.float32)
    cccl_cache.reduce_into(ReverseIterator(d_x), d_out, cache=caches[0])
    assert d_out.get()[0] == x.sum()
    # A call with an iterator of another kind, or a plain array, is refused.
    exe = cccl_cache.make_reduce_into(ReverseIterator(d_x), d_out, device=0, cache=caches[0])
    with pytest.raises(TypeError, match="reverse iterator"):
        exe(cp.empty(max(exe(None, None, None, n, 0), 1), cp.uint8), d_x, d_out, n, 0)


def test_scans_over_each_iterator_kind(caches):
    from cccl_cache.iterators import CountingIterator, ReverseIterator
    n = 100_003
    x, d_x, cases = _iterator_cases(5, n)
    for it, out_type, values in cases:
        inclusive = np.cumsum(values, dtype=out_type)
        exclusive = 3 + np.concatenate(([0], inclusive[:-1])).astype(out_type)
        d_out = cp.zeros(n, out_type)
        for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(it, d_out, device=0, cache=c)):
            d_out[:] = 0
            run_two_phase(exe, it, d_out, n, n=n)
            np.testing.assert_array_equal(d_out.get(), inclusive, err_msg=repr(it))
        for exe in both(caches, lambda c: cccl_cache.make_exclusive_scan(it, d_out, device=0, cache=c)):
            d_out[:] = 0
            run_two_phase(exe, it, d_out, n, 3, n=n)
            np.testing.assert_array_equal(d_out.get(), exclusive, err_msg=repr(it))
            d_out[:] = 0  # the initial value in device memory
            run_two_phase(exe, it, d_out, n, cp.asarray([3], out_type), n=n)
            np.testing.assert_array_equal(d_out.get(), exclusive, err_msg=repr(it))
    # The one-shot forms: a seeded inclusive scan of a reversed array (its length is
    # num_items), an exclusive scan of a counting iterator (num_items given).
    d_out = cp.zeros(n, cp.float32)
    cccl_cache.inclusive_scan(ReverseIterator(d_x), d_out, h_init=np.float32(1), cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), 1 + np.cumsum(x[::-1], dtype=np.float32))
    d_out = cp.zeros(n, cp.int64)
    cccl_cache.exclusive_scan(CountingIterator(np.int64(1)), d_out, h_init=0, num_items=n, cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), np.concatenate(([0], np.cumsum(np.arange(1, n)))))
    # A call with an iterator of another kind, or a plain array, is refused.
    exe = cccl_cache.make_inclusive_scan(ReverseIterator(d_x), cp.float32, device=0, cache=caches[0])
    temp = cp.empty(max(exe(None, None, None, n), 1), cp.uint8)
    with pytest.raises(TypeError, match="reverse iterator"):
        exe(temp, d_x, cp.zeros(n, cp.float32), n)
    with pytest.raises(TypeError, match="reverse iterator"):
        exe(temp, CountingIterator(np.int64(0)), cp.zeros(n, cp.float32), n)


def test_scans_and_reductions_into_output_iterators(caches):
    """Outputs through iterators: a running sum written last first, scattered, stored
    halved as float64 and discarded; a norm read through a transform iterator and written
    through a transform output iterator. Fresh and store-loaded executables, against NumPy."""
    from cccl_cache.iterators import (CountingIterator, DiscardIterator, PermutationIterator, ReverseIterator,
                                      TransformIterator, TransformOutputIterator)
    n = 100_003
    rng_ = np.random.default_rng(7)
    x = rng_.integers(-8, 8, n).astype(np.float32)
    d_x = cp.asarray(x)
    sums = np.cumsum(x, dtype=np.float32)
    perm = rng_.permutation(n).astype(np.int32)
    d_perm = cp.asarray(perm)
    scattered = np.empty_like(sums)
    scattered[perm] = sums
    halve = cccl_cache.Op("halve", "__device__ float halve(float x) { return x * 0.5f; }")
    cases = [
        (ReverseIterator, np.float32, sums[::-1]),
        (lambda a: PermutationIterator(a, d_perm), np.float32, scattered),
        (lambda a: TransformOutputIterator(a, halve), np.float64, (sums * np.float32(0.5)).astype(np.float64)),
    ]
    for make, dtype, want in cases:
        d_out = cp.zeros(n, dtype)
        out = make(d_out)
        for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(d_x, out, device=0, cache=c)):
            d_out[:] = 0
            run_two_phase(exe, d_x, out, n, n=n)
            np.testing.assert_array_equal(d_out.get(), want, err_msg=repr(out))
    # One-shot forms: an exclusive scan into a discard iterator (nothing to read back: it
    # runs), a scan written last first.
    cccl_cache.exclusive_scan(CountingIterator(np.int64(0)), DiscardIterator(), h_init=0, num_items=n,
                              cache=caches[0])
    d_out = cp.zeros(n, cp.float32)
    cccl_cache.inclusive_scan(d_x, ReverseIterator(d_out), cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), sums[::-1])
    # The norm: sqrt of the sum of squares, stored as float64.
    square = cccl_cache.Op("square", "__device__ float square(float x) { return x * x; }")
    root = cccl_cache.Op("root", "__device__ float root(float x) { return sqrtf(x); }")
    d_norm = cp.zeros(1, cp.float64)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(TransformIterator(d_x, square),
                                                                  TransformOutputIterator(d_norm, root),
                                                                  device=0, cache=c)):
        d_norm[:] = 0
        run_two_phase(exe, TransformIterator(d_x, square), TransformOutputIterator(d_norm, root), n, 0, n=n)
        assert d_norm.get()[0] == np.float64(np.sqrt((x * x).sum(dtype=np.float32))), d_norm.get()
    # An output of another kind, or an array for an iterator spec, is refused.
    exe = cccl_cache.make_inclusive_scan(d_x, ReverseIterator(d_out), device=0, cache=caches[0])
    temp = cp.empty(max(exe(None, None, None, n), 1), cp.uint8)
    with pytest.raises(TypeError, match="output is a reverse iterator"):
        exe(temp, d_x, d_out, n)
    with pytest.raises(TypeError, match="output is a reverse iterator"):
        exe(temp, d_x, DiscardIterator(), n)


class _StructArray:
    """A device buffer seen as an array of a struct dtype (typestr |V<size>), whatever
    CuPy makes of structured dtypes."""

    def __init__(self, buf, dtype):
        self.dtype = dtype
        self._buf = buf
        self.__cuda_array_interface__ = {"shape": (buf.nbytes // dtype.itemsize,), "typestr": f"|V{dtype.itemsize}",
                                         "data": (buf.data.ptr, False), "strides": None, "version": 3}


def _vi_items(values_below=50):
    """(vi, h): the struct {value, index} and N items of it, values drawn below
    `values_below` (many ties), indices 0..N-1."""
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    h = np.empty(N, vi.dtype)
    h["value"] = rng.integers(0, values_below, N)
    h["index"] = np.arange(N)
    return vi, h


def _argmax_items():
    """(vi, argmax, h, init): the struct {value, index}, the argmax over it (the lower index
    among equal values), N items with many ties, and the argmax's identity."""
    vi, h = _vi_items()
    argmax = cccl_cache.Op("argmax", "__device__ vi argmax(vi a, vi b) {\n"
                                     "  if (a.value != b.value) return a.value > b.value ? a : b;\n"
                                     "  return a.index < b.index ? a : b;\n}")
    return vi, argmax, h, np.array((-1e30, -1), vi.dtype)[()]


def test_reduce_of_struct_items(caches):
    vi, argmax, h, init = _argmax_items()
    best = int(np.flatnonzero(h["value"] == h["value"].max())[0])
    d_in = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
    d_out = _StructArray(cp.zeros(8, cp.uint8), vi.dtype)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(d_in, d_out, argmax, device=0, cache=c)):
        d_out._buf[:] = 0
        run_two_phase(exe, d_in, d_out, N, init, n=N)
        got = d_out._buf.get().view(vi.dtype)[0]
        assert (float(got["value"]), int(got["index"])) == (float(h["value"][best]), best)
    # An array of another item size, and a scalar initial value, are refused by name.
    exe = cccl_cache.make_reduce_into(d_in, d_out, argmax, device=0, cache=caches[0])
    temp = cp.empty(max(exe(None, d_in, d_out, N, init), 1), cp.uint8)
    with pytest.raises(TypeError, match="struct vi"):
        exe(temp, cp.zeros(N, cp.float32), d_out, N, init)
    with pytest.raises(TypeError, match="struct vi"):
        exe(temp, d_in, d_out, N, 0.0)
    # The one-shot form, on CuPy's own structured array where CuPy makes one.
    try:
        d_cupy = cp.asarray(h)
    except Exception:  # noqa: BLE001 - CuPy versions without structured dtypes
        return
    out = cp.zeros(1, vi.dtype)
    cccl_cache.reduce_into(d_cupy, out, argmax, init, cache=caches[0])
    assert int(out.get()[0]["index"]) == best


def test_scans_of_struct_items(caches):
    # A running argmax, inclusive and exclusive (seeded on the host and in device memory).
    vi, argmax, h, init = _argmax_items()
    running = np.maximum.accumulate(h["value"])
    first = np.array([int(np.flatnonzero(h["value"][:i + 1] == running[i])[0]) for i in range(N)])
    d_in = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
    d_out = _StructArray(cp.zeros(N * 8, cp.uint8), vi.dtype)

    def out():
        return d_out._buf.get().view(vi.dtype)

    for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(d_in, d_out, argmax, device=0, cache=c)):
        d_out._buf[:] = 0
        run_two_phase(exe, d_in, d_out, N, n=N)
        np.testing.assert_array_equal(out()["value"], running)
        np.testing.assert_array_equal(out()["index"], first)
    for exe in both(caches, lambda c: cccl_cache.make_exclusive_scan(d_in, d_out, argmax, device=0, cache=c)):
        d_init = _StructArray(cp.asarray(np.array([init], vi.dtype).view(np.uint8)), vi.dtype)
        for h_init in (init, d_init):  # the seed on the host, then in device memory
            d_out._buf[:] = 0
            run_two_phase(exe, d_in, d_out, N, h_init, n=N)
            assert out()[0].tobytes() == init.tobytes()
            np.testing.assert_array_equal(out()["value"][1:], running[:-1])
            np.testing.assert_array_equal(out()["index"][1:], first[:-1])


def test_scan_by_key_of_struct_values(caches):
    """A running argmax of {value, index} values per run of int32 keys, inclusive and
    exclusive (seeded with a structured scalar); fresh and store-loaded executables against
    a host scan by key, and the one-shot forms."""
    vi, argmax, h, init = _argmax_items()
    h_keys = np.repeat(np.arange(N), rng.integers(1, 300, N))[:N].astype(np.int32)
    inclusive, exclusive = np.empty(N, vi.dtype), np.empty(N, vi.dtype)
    best = None

    def better(a, b):
        return b if (b["value"] > a["value"] or (b["value"] == a["value"] and b["index"] < a["index"])) else a

    for i in range(N):
        head = i == 0 or h_keys[i] != h_keys[i - 1]
        exclusive[i] = init if head else best
        best = h[i] if head else better(best, h[i])
        inclusive[i] = best
    d_keys = cp.asarray(h_keys)
    d_in = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
    d_out = _StructArray(cp.zeros(N * 8, cp.uint8), vi.dtype)
    for is_exclusive, want in ((False, inclusive), (True, exclusive)):
        for exe in both(caches, lambda c: cccl_cache.make_scan_by_key(d_keys, d_in, d_out, argmax, exclusive=is_exclusive,
                                                                       device=0, cache=c)):
            d_out._buf[:] = 0
            run_two_phase(exe, d_keys, d_in, d_out, N, init if is_exclusive else None, n=N)
            assert d_out._buf.get().tobytes() == want.tobytes()
    d_out._buf[:] = 0
    cccl_cache.exclusive_scan_by_key(d_keys, d_in, d_out, argmax, init, cache=caches[0])
    assert d_out._buf.get().tobytes() == exclusive.tobytes()
    d_out._buf[:] = 0
    cccl_cache.inclusive_scan_by_key(d_keys, d_in, d_out, argmax, cache=caches[0])
    assert d_out._buf.get().tobytes() == inclusive.tobytes()


def test_zips_read_and_write_struct_items(caches):
    """An argmax that reports where (a reduce of ZipIterator(values, CountingIterator)
    into a 16-byte struct), a running argmax written field by field through a ZipIterator
    of two arrays, and an argmax of magnitudes read as a TransformIterator's struct results
    over a zip. Fresh and store-loaded executables, against NumPy."""
    from cccl_cache.iterators import CountingIterator, DiscardIterator, TransformIterator, ZipIterator
    vi64 = cccl_cache.gpu_struct("vi64", [("value", np.float32), ("index", np.int64)])
    argmax64 = cccl_cache.Op("argmax64", "__device__ vi64 argmax64(vi64 a, vi64 b) {\n"
                                         "  if (a.value != b.value) return a.value > b.value ? a : b;\n"
                                         "  return a.index < b.index ? a : b;\n}")
    x = rng.integers(0, 50, N).astype(np.float32)
    d_x = cp.asarray(x)
    best = int(np.flatnonzero(x == x.max())[0])
    init = np.array((-1e30, -1), vi64.dtype)[()]
    d_best = _StructArray(cp.zeros(16, cp.uint8), vi64.dtype)
    start = np.int64(1000)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(ZipIterator(d_x, CountingIterator(start)), d_best,
                                                                  argmax64, device=0, cache=c)):
        d_best._buf[:] = 0
        run_two_phase(exe, ZipIterator(d_x, CountingIterator(start)), d_best, N, init, n=N)
        got = d_best._buf.get().view(vi64.dtype)[0]
        assert (float(got["value"]), int(got["index"])) == (float(x[best]), best + 1000)
    # The one-shot form; its length is the array's.
    d_best._buf[:] = 0
    cccl_cache.reduce_into(ZipIterator(d_x, CountingIterator(np.int64(0))), d_best, argmax64, init, cache=caches[0])
    assert int(d_best._buf.get().view(vi64.dtype)[0]["index"]) == best
    # A running argmax into two arrays (the struct named by value_type between two zips),
    # and its indices alone (the values discarded).
    running = np.maximum.accumulate(x)
    first = np.array([int(np.flatnonzero(x[:i + 1] == running[i])[0]) for i in range(N)])
    d_values, d_index = cp.zeros(N, cp.float32), cp.zeros(N, cp.int64)
    src = ZipIterator(d_x, CountingIterator(np.int64(0)), value_type=vi64)
    for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(src, ZipIterator(d_values, d_index), argmax64,
                                                                     device=0, cache=c)):
        d_values[:] = 0
        d_index[:] = 0
        run_two_phase(exe, src, ZipIterator(d_values, d_index), N, n=N)
        np.testing.assert_array_equal(d_values.get(), running)
        np.testing.assert_array_equal(d_index.get(), first)
    d_index[:] = 0
    cccl_cache.inclusive_scan(src, ZipIterator(DiscardIterator(), d_index), argmax64, cache=caches[0])
    np.testing.assert_array_equal(d_index.get(), first)
    # The argmax of |y| with its position, the items read as a TransformIterator's vi64
    # results over the zip.
    abs_at = cccl_cache.Op("abs_at", "__device__ vi64 abs_at(float v, long long i) { return vi64{fabsf(v), i}; }")
    y = rng.integers(-50, 50, N).astype(np.float32)
    mags = TransformIterator(ZipIterator(cp.asarray(y), CountingIterator(np.int64(0))), abs_at)
    top = int(np.flatnonzero(np.abs(y) == np.abs(y).max())[0])
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(mags, d_best, argmax64, device=0, cache=c)):
        d_best._buf[:] = 0
        run_two_phase(exe, mags, d_best, N, init, n=N)
        got = d_best._buf.get().view(vi64.dtype)[0]
        assert (float(got["value"]), int(got["index"])) == (float(abs(y[top])), top)
    # A zip of another number of components than the spec's is refused.
    exe = cccl_cache.make_reduce_into(ZipIterator(d_x, CountingIterator(start)), d_best, argmax64, device=0,
                                      cache=caches[0])
    temp = cp.empty(max(exe(None, None, None, N, init), 1), cp.uint8)
    with pytest.raises(TypeError, match="2 components"):
        exe(temp, ZipIterator(d_x), d_best, N, init)


def test_segmented_reduce_over_iterators(caches):
    """Fixed-size segments from computed offsets (TransformIterator over CountingIterator),
    and sums of a counting input over offset arrays written last first. Fresh and
    store-loaded executables, against NumPy."""
    from cccl_cache.iterators import CountingIterator, ReverseIterator, TransformIterator
    times8 = cccl_cache.Op("times8", "__device__ long long times8(long long i) { return 8 * i; }")
    segments = 10_001
    x = rng.integers(0, 4, 8 * segments).astype(np.float32)
    d_x = cp.asarray(x)
    want = x.reshape(segments, 8).sum(axis=1, dtype=np.float32) + np.float32(0.5)
    starts = TransformIterator(CountingIterator(np.int64(0)), times8)
    ends = TransformIterator(CountingIterator(np.int64(1)), times8)
    d_out = cp.zeros(segments, cp.float32)
    for exe in both(caches, lambda c: cccl_cache.make_segmented_reduce(d_x, d_out, starts, ends, device=0, cache=c)):
        d_out[:] = 0
        run_two_phase(exe, d_x, d_out, segments, starts, ends, np.float32(0.5), n=segments)
        np.testing.assert_array_equal(d_out.get(), want)
    d_out[:] = 0
    cccl_cache.segmented_reduce(d_x, d_out, starts, ends, h_init=np.float32(0.5), num_segments=segments,
                                cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), want)
    # A counting input over int32 offset arrays (segments of 0..9 items), written last first.
    sizes = rng.integers(0, 10, segments)
    begin = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int32)
    end = (begin + sizes).astype(np.int32)
    sums = np.array([np.arange(b, e, dtype=np.int64).sum() + 3 * (e - b) for b, e in zip(begin, end)]) - 1
    d_sums = cp.zeros(segments, cp.int64)
    cccl_cache.segmented_reduce(CountingIterator(np.int64(3)), ReverseIterator(d_sums), cp.asarray(begin),
                                cp.asarray(end), h_init=np.int64(-1), cache=caches[0])
    np.testing.assert_array_equal(d_sums.get(), sums[::-1])


def test_segmented_sort_over_offset_iterators(caches):
    """Rows of 8 sorted by key with their positions as values, the offsets computed
    (TransformIterator over CountingIterator); fresh and store-loaded executables and the
    one-shot call, against NumPy's stable argsort of each row."""
    from cccl_cache.iterators import CountingIterator, TransformIterator
    times8 = cccl_cache.Op("times8", "__device__ long long times8(long long i) { return 8 * i; }")
    rows = 10_001
    keys = rng.integers(-4, 5, 8 * rows).astype(np.float32)
    order = np.argsort(keys.reshape(rows, 8), axis=1, kind="stable") + 8 * np.arange(rows)[:, None]
    want_keys, want_values = keys[order.ravel()], order.ravel().astype(np.int32)
    d_keys, d_values = cp.asarray(keys), cp.arange(8 * rows, dtype=cp.int32)
    starts = TransformIterator(CountingIterator(np.int64(0)), times8)
    ends = TransformIterator(CountingIterator(np.int64(1)), times8)
    keys_out, values_out = cp.empty_like(d_keys), cp.empty_like(d_values)
    for exe in both(caches, lambda c: cccl_cache.make_segmented_sort(d_keys, keys_out, d_values, values_out,
                                                                      starts, ends, device=0, cache=c)):
        keys_out[:], values_out[:] = 0, -1
        run_two_phase(exe, d_keys, keys_out, d_values, values_out, 8 * rows, rows, starts, ends, n=(8 * rows, rows))
        np.testing.assert_array_equal(keys_out.get(), want_keys)
        np.testing.assert_array_equal(values_out.get(), want_values)
    keys_out[:] = 0
    cccl_cache.segmented_sort(d_keys, keys_out, None, None, None, rows, starts, ends, "descending", cache=caches[0])
    want = -np.sort(-keys.reshape(rows, 8), axis=1)
    np.testing.assert_array_equal(keys_out.get(), want.ravel())


def test_radix_and_segmented_sort_of_struct_values(caches):
    """float32 keys with {value, index} struct values: a radix sort, and a segmented sort
    of rows of 8 descending; fresh and store-loaded executables against NumPy's stable
    argsort, the values moved with their keys."""
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    keys = rng.integers(-20, 21, 8 * 1001).astype(np.float32)
    values = np.zeros(keys.size, vi.dtype)
    values["value"], values["index"] = keys * 0.5, np.arange(keys.size)
    d_keys, keys_out = cp.asarray(keys), cp.empty(keys.size, cp.float32)
    d_values = _StructArray(cp.asarray(values.view(np.uint8)), vi.dtype)
    values_out = _StructArray(cp.empty(values.nbytes, cp.uint8), vi.dtype)
    order = np.argsort(keys, kind="stable")
    for exe in both(caches, lambda c: cccl_cache.make_radix_sort(d_keys, keys_out, d_values, values_out,
                                                                  device=0, cache=c)):
        run_two_phase(exe, d_keys, keys_out, d_values, values_out, keys.size, n=keys.size)
        np.testing.assert_array_equal(keys_out.get(), keys[order])
        assert values_out._buf.get().tobytes() == values[order].tobytes()
    rows = keys.size // 8
    starts = cp.arange(0, keys.size, 8, dtype=cp.int64)
    ends = starts + 8
    row_order = (np.argsort(-keys.reshape(rows, 8), axis=1, kind="stable") + 8 * np.arange(rows)[:, None]).ravel()
    for exe in both(caches, lambda c: cccl_cache.make_segmented_sort(d_keys, keys_out, d_values, values_out, starts,
                                                                      ends, "descending", device=0, cache=c)):
        run_two_phase(exe, d_keys, keys_out, d_values, values_out, keys.size, rows, starts, ends,
                      n=(keys.size, rows))
        np.testing.assert_array_equal(keys_out.get(), keys[row_order])
        assert values_out._buf.get().tobytes() == values[row_order].tobytes()


def test_merge_sort_of_struct_keys(caches):
    # {value, index} keys by value only, with uint32 values: stable, so among equal values
    # keys and values keep their input order.
    vi, _, h, _ = _argmax_items()
    by_value = cccl_cache.Op("by_value", "__device__ bool by_value(const vi& a, const vi& b) "
                                         "{ return a.value < b.value; }")
    vals = np.arange(N, dtype=np.uint32)[::-1].copy()
    order = np.argsort(h["value"], kind="stable")
    for exe in both(caches, lambda c: cccl_cache.make_merge_sort(vi.dtype, np.uint32, vi.dtype, np.uint32,
                                                                  op=by_value, device=0, cache=c)):
        d_keys = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
        d_vals = cp.asarray(vals)
        run_two_phase(exe, d_keys, d_vals, d_keys, d_vals, N, n=N)  # in place
        assert d_keys._buf.get().view(vi.dtype).tobytes() == h[order].tobytes()
        np.testing.assert_array_equal(d_vals.get(), vals[order])


def test_select_of_struct_items(caches):
    vi, h = _vi_items()
    high = cccl_cache.Op("high", "__device__ bool high(const vi& x) { return x.value > 25.0f; }")
    keep = h[h["value"] > 25]
    d_in = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
    d_out = _StructArray(cp.zeros(N * 8, cp.uint8), vi.dtype)
    sel = cp.empty(1, cp.int64)
    for exe in both(caches, lambda c: cccl_cache.make_select(d_in, d_out, sel, high, device=0, cache=c)):
        run_two_phase(exe, d_in, d_out, sel, N, n=N)
        m = int(sel.get()[0])
        assert m == len(keep)
        assert d_out._buf.get().view(vi.dtype)[:m].tobytes() == keep.tobytes()


def test_three_way_partition_of_struct_items(caches):
    vi, h = _vi_items()
    high = cccl_cache.Op("high", "__device__ bool high(const vi& x) { return x.value > 25.0f; }")
    even = cccl_cache.Op("even", "__device__ bool even(const vi& x) { return x.index % 2 == 0; }")
    first = h["value"] > 25
    second = ~first & (h["index"] % 2 == 0)
    want = (h[first], h[second], h[~first & ~second])
    d_in = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
    outs = [_StructArray(cp.zeros(N * 8, cp.uint8), vi.dtype) for _ in range(3)]
    sel = cp.empty(2, cp.int64)
    for exe in both(caches, lambda c: cccl_cache.make_three_way_partition(d_in, *outs, sel, high, even, device=0,
                                                                         cache=c)):
        run_two_phase(exe, d_in, *outs, sel, N, n=N)
        counts = sel.get()
        assert list(counts) == [len(want[0]), len(want[1])]
        for out, part in zip(outs, want):
            assert out._buf.get().view(vi.dtype)[:len(part)].tobytes() == part.tobytes()


def test_unique_by_key_of_struct_keys_and_values(caches):
    vi, h = _vi_items(3)
    same = cccl_cache.Op("same", "__device__ bool same(const vi& a, const vi& b) { return a.value == b.value; }")
    firsts = np.concatenate(([True], h["value"][1:] != h["value"][:-1]))
    d_keys = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
    d_vals = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)  # the keys as values too
    keys_out = _StructArray(cp.zeros(N * 8, cp.uint8), vi.dtype)
    vals_out = _StructArray(cp.zeros(N * 8, cp.uint8), vi.dtype)
    sel = cp.empty(1, cp.int64)
    for exe in both(caches, lambda c: cccl_cache.make_unique_by_key(d_keys, d_vals, keys_out, vals_out, sel, same,
                                                                   device=0, cache=c)):
        run_two_phase(exe, d_keys, d_vals, keys_out, vals_out, sel, N, n=N)
        m = int(sel.get()[0])
        assert m == int(firsts.sum())
        for out in (keys_out, vals_out):
            assert out._buf.get().view(vi.dtype)[:m].tobytes() == h[firsts].tobytes()


def test_binary_search_and_transforms_of_struct_items(caches):
    """Lower bounds of structs among structs sorted by a custom comparator; a struct read
    by a unary transform; a ZipIterator read as a struct by one. Fresh and store-loaded
    executables, against NumPy."""
    from cccl_cache.iterators import CountingIterator, ZipIterator
    vi = cccl_cache.gpu_struct("vi", [("value", np.float32), ("index", np.int32)])
    vi64 = cccl_cache.gpu_struct("vi64", [("value", np.float32), ("index", np.int64)])
    by_value = cccl_cache.Op("by_value", "__device__ bool by_value(const vi& a, const vi& b) "
                                         "{ return a.value < b.value; }")
    data = np.empty(N, vi.dtype)
    data["value"] = np.sort(rng.integers(0, 500, N))
    data["index"] = np.arange(N)
    values = np.empty(N, vi.dtype)
    values["value"] = rng.integers(-10, 510, N)
    values["index"] = 0
    want = np.searchsorted(data["value"], values["value"], side="left")
    d_data = _StructArray(cp.asarray(data.view(np.uint8)), vi.dtype)
    d_values = _StructArray(cp.asarray(values.view(np.uint8)), vi.dtype)
    for exe in both(caches, lambda c: cccl_cache.make_lower_bound(d_data, d_values, cp.empty(N, cp.int64), by_value,
                                                                  device=0, cache=c)):
        d_out = cp.empty(N, cp.int64)
        exe(cp.empty(1, cp.uint8), d_data, N, d_values, N, d_out)
        np.testing.assert_array_equal(d_out.get(), want)
    twice = cccl_cache.Op("twice", "__device__ float twice(const vi& x) { return 2 * x.value; }")
    for exe in both(caches, lambda c: cccl_cache.make_unary_transform(d_data, cp.empty(N, cp.float32), twice,
                                                                     device=0, cache=c)):
        d_out = cp.empty(N, cp.float32)
        exe(d_data, d_out, N)
        np.testing.assert_array_equal(d_out.get(), 2 * data["value"])
    weighted = cccl_cache.Op("weighted", "__device__ double weighted(const vi64& x) "
                                         "{ return double(x.value) * x.index; }")
    x = rng.integers(-100, 100, N).astype(np.float32)
    d_x = cp.asarray(x)
    zipped = ZipIterator(d_x, CountingIterator(np.int64(0)), value_type=vi64)
    for exe in both(caches, lambda c: cccl_cache.make_unary_transform(zipped, cp.empty(N, cp.float64), weighted,
                                                                     device=0, cache=c)):
        d_out = cp.empty(N, cp.float64)
        exe(ZipIterator(d_x, CountingIterator(np.int64(0)), value_type=vi64), d_out, N)
        np.testing.assert_array_equal(d_out.get(), x.astype(np.float64) * np.arange(N))


def test_segmented_reduce_of_struct_items(caches):
    """An argmax per segment over {value, index} structs, its initial value a NumPy
    struct scalar; fresh and store-loaded executables, against NumPy."""
    vi, argmax, h, init = _argmax_items()
    bounds = np.sort(rng.integers(0, N, 40)).astype(np.int64)
    bounds[5] = bounds[6]  # an empty segment
    begin, end = bounds[:-1], bounds[1:]
    m = len(begin)
    d_in = _StructArray(cp.asarray(h.view(np.uint8)), vi.dtype)
    # The first maximum of each segment (its index the lowest), the initial value where empty.
    want = np.array([h[b + int(np.argmax(h["value"][b:e]))] if e > b else init for b, e in zip(begin, end)],
                    vi.dtype)
    for exe in both(caches, lambda c: cccl_cache.make_segmented_reduce(
            d_in, _StructArray(cp.zeros(m * 8, cp.uint8), vi.dtype), cp.asarray(begin), cp.asarray(end), argmax,
            device=0, cache=c)):
        d_out = _StructArray(cp.zeros(m * 8, cp.uint8), vi.dtype)
        run_two_phase(exe, d_in, d_out, m, cp.asarray(begin), cp.asarray(end), init, n=m)
        assert d_out._buf.get().view(vi.dtype).tobytes() == want.tobytes()


def test_exclusive_scan(caches):
    h = rng.integers(-100, 100, N).astype(np.int64)
    for exe in both(caches, lambda c: cccl_cache.make_exclusive_scan(np.int64, np.int64, device=0, cache=c)):
        d_out = cp.empty(N, cp.int64)
        run_two_phase(exe, cp.asarray(h), d_out, N, 5, n=N)
        np.testing.assert_array_equal(d_out.get(), 5 + np.concatenate(([0], np.cumsum(h)[:-1])))
        # The initial value from device memory, written by work queued before on the stream.
        d_init = cp.empty(1, cp.int64)
        d_out[:] = 0
        d_init.fill(-3)
        run_two_phase(exe, cp.asarray(h), d_out, N, d_init, n=N)
        np.testing.assert_array_equal(d_out.get(), -3 + np.concatenate(([0], np.cumsum(h)[:-1])))
        with pytest.raises(ValueError, match="h_init"):
            run_two_phase(exe, cp.asarray(h), d_out, N, cp.empty(0, cp.int64), n=N)
    d_out = cp.empty(N, cp.int64)
    cccl_cache.exclusive_scan(cp.asarray(h), d_out, h_init=cp.asarray([2], cp.int64), cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), 2 + np.concatenate(([0], np.cumsum(h)[:-1])))


def test_float16_scan(caches):
    h = rng.integers(0, 4, 512).astype(np.float16)
    exe = cccl_cache.make_inclusive_scan(np.float16, np.float16, device=0, cache=caches[0])
    d_out = cp.empty(512, cp.float16)
    run_two_phase(exe, cp.asarray(h), d_out, 512, n=512)
    np.testing.assert_array_equal(d_out.get(), np.cumsum(h.astype(np.float32)).astype(np.float16))


def test_transforms(caches):
    a = rng.standard_normal(N).astype(np.float32)
    b = rng.standard_normal(N).astype(np.float32)
    for exe in both(caches, lambda c: cccl_cache.make_unary_transform(np.float32, np.float32, "negate",
                                                                       device=0, cache=c)):
        d_out = cp.empty(N, cp.float32)
        exe(cp.asarray(a), d_out, N)
        np.testing.assert_array_equal(d_out.get(), -a)
    for exe in both(caches, lambda c: cccl_cache.make_binary_transform(np.float32, np.float32, np.float32,
                                                                        "plus", device=0, cache=c)):
        d_out = cp.empty(N, cp.float32)
        exe(cp.asarray(a), cp.asarray(b), d_out, N, stream=cp.cuda.get_current_stream())
        np.testing.assert_array_equal(d_out.get(), a + b)


def test_for_each(caches):
    """Items doubled in place (one-shot and factory), and a stateful scatter over a
    CountingIterator writing 3i + 1 through a device pointer in its state. Fresh and
    store-loaded executables, against NumPy."""
    from cccl_cache.iterators import CountingIterator
    a = rng.standard_normal(N).astype(np.float32)
    twice = cccl_cache.Op("twice", "__device__ void twice(float& x) { x *= 2; }")
    for exe in both(caches, lambda c: cccl_cache.make_for_each(np.float32, twice, device=0, cache=c)):
        d = cp.asarray(a)
        exe(d, N)
        np.testing.assert_array_equal(d.get(), a * 2)
    d = cp.asarray(a)
    cccl_cache.for_each(d, twice, cache=caches[0])
    np.testing.assert_array_equal(d.get(), a * 2)
    scatter = cccl_cache.Op("scatter3", "__device__ void scatter3(void* s, long long i) "
                                        "{ (*(long long**)s)[i] = 3 * i + 1; }", state_size=8, state_alignment=8)
    counting = CountingIterator(np.int64(0))
    for exe in both(caches, lambda c: cccl_cache.make_for_each(counting, scatter, device=0, cache=c)):
        out = cp.zeros(N, cp.int64)
        exe(counting, N, op_state=np.uint64(out.data.ptr))
        np.testing.assert_array_equal(out.get(), 3 * np.arange(N) + 1)
        with pytest.raises((ValueError, cccl_cache.Error)):
            exe(counting, N)  # its state is required


def test_transforms_over_iterators(caches):
    """Each input and the output of a transform as an iterator: a negated counting input,
    an array scaled by its index, a gather plus a constant written last first. Fresh and
    store-loaded executables, against NumPy."""
    from cccl_cache.iterators import (ConstantIterator, CountingIterator, PermutationIterator,
                                      ReverseIterator)
    d_out = cp.zeros(N, cp.float32)
    counting = CountingIterator(np.int64(-5))
    for exe in both(caches, lambda c: cccl_cache.make_unary_transform(counting, d_out, "negate", device=0,
                                                                       cache=c)):
        d_out[:] = 0
        exe(counting, d_out, N)
        np.testing.assert_array_equal(d_out.get(), -np.arange(-5, N - 5, dtype=np.int64).astype(np.float32))
    scale = cccl_cache.Op("scale_add",
                          "__device__ float scale_add(float x, long long i) { return x * 0.5f + (float)(i % 7); }")
    x = rng.integers(-100, 100, N).astype(np.float32)
    d_x = cp.asarray(x)
    for exe in both(caches, lambda c: cccl_cache.make_binary_transform(d_x, CountingIterator(np.int64(0)), d_out,
                                                                        scale, device=0, cache=c)):
        d_out[:] = 0
        exe(d_x, CountingIterator(np.int64(3)), d_out, N)
        np.testing.assert_array_equal(d_out.get(), x * np.float32(0.5) + ((np.arange(N) + 3) % 7).astype(np.float32))
    values = rng.integers(0, 1 << 20, 97).astype(np.uint32)
    idx = rng.integers(0, 97, N).astype(np.int64)
    d_u = cp.zeros(N, cp.uint32)
    cccl_cache.binary_transform(PermutationIterator(cp.asarray(values), cp.asarray(idx)),
                                ConstantIterator(np.uint32(7)), ReverseIterator(d_u), "plus", cache=caches[0])
    np.testing.assert_array_equal(d_u.get(), (values[idx] + np.uint32(7))[::-1])
    # An array where the spec reads an iterator is refused by name.
    exe = cccl_cache.make_unary_transform(counting, d_out, "negate", device=0, cache=caches[0])
    with pytest.raises(TypeError, match="d_in: the spec's input is a counting iterator"):
        exe(d_x, d_out, N)


def test_three_way_partition_over_iterators(caches):
    """A three-way partition of a counting input (values above 1000 first, the other
    nonzero ones written last first, the zero discarded) and of a reversed array, fresh and
    store-loaded, against NumPy."""
    from cccl_cache.iterators import CountingIterator, DiscardIterator, ReverseIterator
    big = cccl_cache.Op("big", "__device__ bool big(long long x) { return x > 1000; }")
    first, second = cp.zeros(N, cp.int64), cp.zeros(N, cp.int64)
    counts = cp.zeros(2, cp.uint64)
    start = -(N // 2)
    x = np.arange(start, start + N, dtype=np.int64)
    want_first, want_second = x[x > 1000], x[(x <= 1000) & (x != 0)]
    for exe in both(caches, lambda c: cccl_cache.make_three_way_partition(
            CountingIterator(np.int64(0)), first, ReverseIterator(second), DiscardIterator(), counts, big,
            device=0, cache=c)):
        first[:] = 0
        second[:] = 0
        counts[:] = 0
        nbytes = exe(None, CountingIterator(np.int64(start)), first, ReverseIterator(second), DiscardIterator(),
                     counts, N)
        exe(cp.empty(max(nbytes, 1), cp.uint8), CountingIterator(np.int64(start)), first,
            ReverseIterator(second), DiscardIterator(), counts, N)
        np.testing.assert_array_equal(counts.get(), [want_first.size, want_second.size])
        np.testing.assert_array_equal(first.get()[:want_first.size], want_first)
        np.testing.assert_array_equal(second.get()[N - want_second.size:], want_second[::-1])
    h = rng.integers(-2, 3, N).astype(np.float32)
    parts = [cp.full(N, -7, cp.float32) for _ in range(3)]
    positive = cccl_cache.Op("positive", "__device__ bool positive(float x) { return x > 0; }")
    cccl_cache.three_way_partition(ReverseIterator(cp.asarray(h)), *parts, counts, positive, num_items=N,
                                   cache=caches[0])
    r = h[::-1]
    wants = [r[r > 0], r[r < 0], r[r == 0]]
    np.testing.assert_array_equal(counts.get(), [wants[0].size, wants[1].size])
    for part, want in zip(parts, wants):
        np.testing.assert_array_equal(part.get()[:want.size], want)


def test_binary_search_over_iterators(caches):
    """Where each of a CountingIterator's integers goes in a sorted array (lower bounds,
    written last first), fresh and store-loaded, against NumPy's searchsorted."""
    from cccl_cache.iterators import CountingIterator, ReverseIterator
    data = np.sort(rng.integers(-3000, 3000, 4097)).astype(np.int64)
    d_data, d_out = cp.asarray(data), cp.zeros(N, cp.int64)
    want = np.searchsorted(data, np.arange(-4000, -4000 + N, dtype=np.int64), side="left")
    for exe in both(caches, lambda c: cccl_cache.make_lower_bound(d_data, CountingIterator(np.int64(0)),
                                                                   ReverseIterator(d_out), device=0, cache=c)):
        d_out[:] = 0
        exe(cp.empty(1, cp.uint8), d_data, data.size, CountingIterator(np.int64(-4000)), N,
            ReverseIterator(d_out))
        np.testing.assert_array_equal(d_out.get(), want[::-1])
    cccl_cache.upper_bound(d_data, CountingIterator(np.int64(-4000)), d_out, num_values=N, cache=caches[0])
    np.testing.assert_array_equal(d_out.get(), np.searchsorted(data, np.arange(-4000, -4000 + N), side="right"))


def test_one_shot_functions_on_cupy_arrays():
    h = rng.standard_normal(N).astype(np.float32)
    d, out = cp.asarray(h), cp.empty(N, cp.float32)
    cccl_cache.merge_sort(d, None, out, None)
    np.testing.assert_array_equal(out.get(), np.sort(h))
    cccl_cache.radix_sort(d, out)
    np.testing.assert_array_equal(out.get(), np.sort(h))
    s = cp.empty(1, cp.float32)
    cccl_cache.reduce_into(d, s, h_init=0.0)
    np.testing.assert_allclose(s.get()[0], h.sum(dtype=np.float64), rtol=1e-4)
    cccl_cache.inclusive_scan(d, out)
    np.testing.assert_allclose(out.get(), np.cumsum(h, dtype=np.float64), rtol=1e-3, atol=1e-2)
    cccl_cache.exclusive_scan(d, out, h_init=0.0)
    assert out.get()[0] == 0
    cccl_cache.unary_transform(d, out, "negate")
    np.testing.assert_array_equal(out.get(), -h)
    cccl_cache.binary_transform(d, d, out, "plus")
    np.testing.assert_array_equal(out.get(), h + h)
    with cp.cuda.Stream() as s2:
        cccl_cache.merge_sort(d, None, out, None, stream=s2)
        s2.synchronize()
    np.testing.assert_array_equal(out.get(), np.sort(h))


def test_run_path_rejects_bad_arguments(caches):
    exe = cccl_cache.make_merge_sort(np.float32, None, np.float32, None, device=0, cache=caches[0])
    f4, f8 = cp.zeros(N, cp.float32), cp.zeros(N, cp.float64)
    nbytes = exe(None, f4, None, f4, None, N)
    assert exe(None, None, None, None, None, N) == nbytes  # a size query reads only num_items
    temp = cp.empty(nbytes, cp.uint8)
    with pytest.raises(TypeError, match="d_in_keys: float64 array, the spec needs float32"):
        exe(temp, f8, None, f4, None, N)
    with pytest.raises(ValueError, match="d_out_keys: .* needs at least"):
        exe(temp, f4, None, f4[:10], None, N)
    with pytest.raises(ValueError, match="temp_storage"):
        exe(temp[:1], f4, None, f4, None, N)
    with pytest.raises(ValueError, match="not C-contiguous"):
        exe(temp, cp.zeros(2 * N, cp.float32)[::2], None, f4, None, N)
    with pytest.raises(TypeError, match="host array"):
        exe(temp, np.zeros(N, np.float32), None, f4, None, N)
    with pytest.raises(ValueError, match="keys only"):
        exe(temp, f4, f4, f4, f4, N)
    with pytest.raises(TypeError):
        exe(temp, f4, None, f4, None, -1)
    with pytest.raises(TypeError, match="stream"):
        exe(temp, f4, None, f4, None, N, stream="default")
    red = cccl_cache.make_reduce_into(np.int32, np.int32, device=0, cache=caches[0])
    i4 = cp.zeros(N, cp.int32)
    with pytest.raises(TypeError, match="h_init"):
        red(cp.empty(red(None, i4, i4, N, 0), cp.uint8), i4, i4, N, 1.5)
    with pytest.raises(OverflowError):
        red(cp.empty(red(None, i4, i4, N, 0), cp.uint8), i4, i4, N, 2**40)


def test_host_pinned_and_wrong_device(caches):
    exe = cccl_cache.make_unary_transform(np.float32, np.float32, "negate", device=0, cache=caches[0])
    pinned = cp.cuda.alloc_pinned_memory(4 * 16)
    host = np.frombuffer(pinned, np.float32, 16)

    class HostCai:  # a CAI pointing at page-locked host memory
        __cuda_array_interface__ = {"shape": (16,), "typestr": "<f4", "data": (host.ctypes.data, False),
                                    "version": 3}
    with pytest.raises(ValueError, match="not device memory"):
        exe(HostCai(), cp.empty(16, cp.float32), 16)
    if _gpus < 2:
        pytest.skip("one device: the wrong-device check needs two")
    with cp.cuda.Device(1):
        other = cp.zeros(16, cp.float32)
    with pytest.raises(ValueError, match="device 1"):
        exe(other, cp.empty(16, cp.float32), 16)


def test_dlpack_arrays(caches):
    class OnlyDlpack:  # hides __cuda_array_interface__
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kw):
            return self.a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()
    h = rng.standard_normal(N).astype(np.float32)
    exe = cccl_cache.make_unary_transform(np.float32, np.float32, "negate", device=0, cache=caches[0])
    d_out = cp.empty(N, cp.float32)
    exe(OnlyDlpack(cp.asarray(h)), OnlyDlpack(d_out), N)
    np.testing.assert_array_equal(d_out.get(), -h)


# --- stateful operators: the state is a call argument, so one executable serves each ---

def test_reduce_with_state_changes_with_the_state(caches):
    op = cccl_cache.Op("plus_mod", "__device__ unsigned plus_mod(void* s, unsigned a, unsigned b) "
                       "{ return (a + b) % *(unsigned*)s; }", state_size=4)
    h = rng.integers(0, 1000, N).astype(np.uint32)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(np.uint32, np.uint32, op, device=0, cache=c)):
        for m in (1000003, 97):
            d_out = cp.zeros(1, np.uint32)
            nbytes = exe(None, cp.asarray(h), d_out, N, 0)
            temp = cp.empty(max(nbytes, 1), cp.uint8)
            exe(temp, cp.asarray(h), d_out, N, 0, op_state=np.uint32(m))
            assert int(d_out.get()[0]) == int(h.astype(np.uint64).sum() % m)
        with pytest.raises(ValueError, match="op_state"):
            exe(temp, cp.asarray(h), d_out, N, 0)
        with pytest.raises(ValueError, match="op_state"):
            exe(temp, cp.asarray(h), d_out, N, 0, op_state=np.uint64(5))


def test_select_and_transform_with_state(caches):
    h = rng.integers(0, 1000, N).astype(np.int32)
    above = cccl_cache.Op("above", "__device__ bool above(void* s, int x) { return x > *(int*)s; }",
                          state_size=4)
    d_out, d_count = cp.empty(N, np.int32), cp.zeros(1, np.uint64)
    for t in (500, 900):
        cccl_cache.select(cp.asarray(h), d_out, d_count, above, cache=caches[0], op_state=np.int32(t))
        want = h[h > t]
        assert int(d_count.get()[0]) == want.size
        np.testing.assert_array_equal(d_out.get()[:want.size], want)
    affine = cccl_cache.Op("affine", "__device__ int affine(void* s, int x) "
                           "{ const int* k = (const int*)s; return x * k[0] + k[1]; }", state_size=8)
    for k in ((3, -7), (-2, 5)):
        cccl_cache.unary_transform(cp.asarray(h), d_out, affine, cache=caches[0], op_state=np.array(k, np.int32))
        np.testing.assert_array_equal(d_out.get(), h * k[0] + k[1])


PLUS_MOD = "__device__ unsigned plus_mod(void* s, unsigned a, unsigned b) { return (a + b) % *(unsigned*)s; }"


def test_scans_with_state(caches):
    op = cccl_cache.Op("plus_mod", PLUS_MOD, state_size=4)
    h = rng.integers(0, 1000, N).astype(np.uint32)
    sums = np.cumsum(h.astype(np.uint64))
    for m in (1000003, 97):
        d_out = cp.empty(N, np.uint32)
        cccl_cache.inclusive_scan(cp.asarray(h), d_out, op, cache=caches[0], op_state=np.uint32(m))
        want = (sums % m).astype(np.uint32)
        want[0] = h[0]  # the first item is not combined with anything
        np.testing.assert_array_equal(d_out.get(), want)
        cccl_cache.exclusive_scan(cp.asarray(h), d_out, op, 0, cache=caches[0], op_state=np.uint32(m))
        np.testing.assert_array_equal(d_out.get(), np.concatenate(([0], sums[:-1] % m)).astype(np.uint32))
    with pytest.raises(ValueError, match="op_state"):
        cccl_cache.inclusive_scan(cp.asarray(h), d_out, op, cache=caches[0])


def test_segmented_reduce_and_unique_by_key_with_state(caches):
    op = cccl_cache.Op("plus_mod", PLUS_MOD, state_size=4)
    h = rng.integers(0, 1000, N).astype(np.uint32)
    offsets = np.arange(0, N + 1, 100, dtype=np.int64)
    d_out = cp.empty(offsets.size - 1, np.uint32)
    for m in (1000003, 97):
        cccl_cache.segmented_reduce(cp.asarray(h), d_out, cp.asarray(offsets[:-1]), cp.asarray(offsets[1:]), op,
                                    0, cache=caches[0], op_state=np.uint32(m))
        want = [int(h[a:b].astype(np.uint64).sum() % m) for a, b in zip(offsets[:-1], offsets[1:])]
        np.testing.assert_array_equal(d_out.get(), np.array(want, np.uint32))
    eq = cccl_cache.Op("div_equal", "__device__ bool div_equal(void* s, int a, int b) "
                       "{ const int d = *(int*)s; return a / d == b / d; }", state_size=4)
    keys = rng.integers(0, 60, N).astype(np.int32)
    values = np.arange(N, dtype=np.int32)
    k_out, v_out, count = cp.empty(N, np.int32), cp.empty(N, np.int32), cp.zeros(1, np.uint64)
    for d in (5, 20):
        cccl_cache.unique_by_key(cp.asarray(keys), cp.asarray(values), k_out, v_out, count, eq,
                                 cache=caches[0], op_state=np.int32(d))
        keep = np.concatenate(([True], keys[1:] // d != keys[:-1] // d))
        assert int(count.get()[0]) == int(keep.sum())
        np.testing.assert_array_equal(k_out.get()[:keep.sum()], keys[keep])
        np.testing.assert_array_equal(v_out.get()[:keep.sum()], values[keep])


def test_lower_bound_with_a_stateful_comparator(caches):
    """Lower bounds in a range ordered by distance from a pivot, the pivot the comparator's
    state: two pivots on one executable, fresh and store-loaded, against NumPy."""
    closer = cccl_cache.Op("closer", "__device__ bool closer(void* s, int a, int b) { const int p = *(int*)s; "
                           "return (a > p ? a - p : p - a) < (b > p ? b - p : p - b); }", state_size=4)
    h = rng.integers(-1000, 1000, N).astype(np.int32)
    values = rng.integers(-1200, 1200, 999).astype(np.int32)
    d_values = cp.asarray(values)
    exes = both(caches, lambda c: cccl_cache.make_lower_bound(cp.asarray(h), d_values, cp.empty(999, cp.int64),
                                                              closer, device=0, cache=c))
    for pivot in (0, 300):
        dist = np.abs(h.astype(np.int64) - pivot)
        d_data = cp.asarray(h[np.argsort(dist, kind="stable")])
        want = np.searchsorted(np.sort(dist), np.abs(values.astype(np.int64) - pivot), side="left")
        for exe in exes:
            out = cp.full(999, -1, cp.int64)
            assert exe(None, d_data, N, d_values, 999, out) == 1
            exe(cp.empty(1, cp.uint8), d_data, N, d_values, 999, out, op_state=np.int32(pivot))
            np.testing.assert_array_equal(out.get(), want)
        out = cp.full(999, -1, cp.int64)
        cccl_cache.lower_bound(d_data, d_values, out, closer, cache=caches[0], op_state=np.int32(pivot))
        np.testing.assert_array_equal(out.get(), want)


def test_three_way_partition_with_two_states(caches):
    below = cccl_cache.Op("below", "__device__ bool below(void* s, int x) { return x < *(int*)s; }", state_size=4)
    above = cccl_cache.Op("above_multiple", "__device__ bool above_multiple(void* s, int x) "
                          "{ const long long* h = (const long long*)s; return x > h[0] && x % h[1] == 0; }",
                          state_size=16, state_alignment=8)
    h = rng.integers(0, 1000, N).astype(np.int32)
    outs = [cp.empty(N, np.int32) for _ in range(3)]
    count = cp.zeros(2, np.uint64)
    for lo, hi in ((100, (500, 3)), (300, (200, 7))):
        cccl_cache.three_way_partition(cp.asarray(h), *outs, count, below, above, cache=caches[0],
                                       first_op_state=np.int32(lo), second_op_state=np.array(hi, np.int64))
        first = h < lo
        second = ~first & (h > hi[0]) & (h % hi[1] == 0)
        rest = ~first & ~second
        assert [int(c) for c in count.get()] == [int(first.sum()), int(second.sum())]
        for out, mask in zip(outs, (first, second, rest)):
            np.testing.assert_array_equal(out.get()[:mask.sum()], h[mask])


def test_bool_masks_reductions_sorts_and_selections(caches):
    """bool arrays (CuPy's, typestr |b1): a comparison's mask, any/all of it, a stable radix
    sort by it, the trues kept by select and where True goes in a sorted mask; fresh and
    store-loaded, against NumPy."""
    a = rng.standard_normal(N).astype(np.float32)
    b = rng.standard_normal(N).astype(np.float32)
    d_a, d_b = cp.asarray(a), cp.asarray(b)
    for exe in both(caches, lambda c: cccl_cache.make_binary_transform(np.float32, np.float32, np.bool_,
                                                                        "less", device=0, cache=c)):
        d_mask = cp.zeros(N, cp.bool_)
        exe(d_a, d_b, d_mask, N)
        np.testing.assert_array_equal(d_mask.get(), a < b)
    mask = a < b
    ones = cp.ones(N, cp.bool_)
    exes = {op: both(caches, lambda c: cccl_cache.make_reduce_into(np.bool_, np.bool_, op, device=0, cache=c))
            for op in ("logical_or", "logical_and")}
    for op, init, src, want in (("logical_or", False, d_mask, mask.any()),
                                ("logical_and", True, d_mask, mask.all()), ("logical_and", True, ones, True)):
        for exe in exes[op]:
            out = cp.zeros(1, cp.bool_)
            run_two_phase(exe, src, out, N, init, n=N)
            assert out.get()[0] == want, (op, init)
    out = cp.ones(1, cp.bool_)
    cccl_cache.reduce_into(d_mask, out, "logical_and", cache=caches[0])  # h_init=0: False
    assert not out.get()[0]
    keys, vals = cp.empty(N, cp.bool_), cp.empty(N, cp.int32)
    cccl_cache.radix_sort(d_mask, keys, cp.arange(N, dtype=cp.int32), vals, cache=caches[0])
    order = np.argsort(mask, kind="stable")
    np.testing.assert_array_equal(keys.get(), mask[order])
    np.testing.assert_array_equal(vals.get(), order)
    kept, count = cp.zeros(N, cp.bool_), cp.zeros(1, cp.uint64)
    cccl_cache.select(d_mask, kept, count, cache=caches[0])
    assert int(count.get()[0]) == int(mask.sum())
    assert kept.get()[: int(mask.sum())].all()
    bounds = cp.full(2, -1, cp.int64)
    cccl_cache.lower_bound(keys, cp.asarray(np.array([False, True])), bounds, cache=caches[0])
    np.testing.assert_array_equal(bounds.get(), [0, N - int(mask.sum())])


def test_lower_bound_among_the_integers_of_a_counting_range(caches):
    """The sorted range a CountingIterator (d_data an iterator, num_items its length): each
    value's lower bound is its distance from the start, clamped; fresh and store-loaded."""
    from cccl_cache.iterators import CountingIterator
    values = rng.integers(-1000, 6000, N).astype(np.int64)
    want = np.clip(values + 500, 0, 5000)
    d_values = cp.asarray(values)
    rng_it = CountingIterator(np.int64(-500))
    for exe in both(caches, lambda c: cccl_cache.make_lower_bound(rng_it, d_values, cp.empty(N, cp.int64),
                                                                   device=0, cache=c)):
        out = cp.full(N, -1, cp.int64)
        run_two_phase(exe, rng_it, 5000, d_values, N, out, n=())
        np.testing.assert_array_equal(out.get(), want)
    out = cp.full(N, -1, cp.int64)
    cccl_cache.lower_bound(rng_it, d_values, out, num_items=5000, cache=caches[0])
    np.testing.assert_array_equal(out.get(), want)
    with pytest.raises(ValueError, match="num_items: required"):
        cccl_cache.lower_bound(rng_it, d_values, out, cache=caches[0])


def test_complex_arrays_are_structs_of_real_and_imag(caches):
    """CuPy complex64 / complex128 arrays are the structs complex64 / complex128 {real,
    imag}: a sum by a custom operator (reduce) and a running sum (inclusive scan) against
    NumPy, fresh and store-loaded."""
    cadd = cccl_cache.Op("cadd", "__device__ complex64 cadd(complex64 a, complex64 b) "
                                 "{ return {a.real + b.real, a.imag + b.imag}; }")
    h = (rng.integers(-8, 8, N) + 1j * rng.integers(-8, 8, N)).astype(np.complex64)
    d = cp.asarray(h)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(d, cp.zeros(1, cp.complex64), cadd, device=0,
                                                                   cache=c)):
        out = cp.zeros(1, cp.complex64)
        run_two_phase(exe, d, out, N, np.complex64(1 + 2j), n=N)
        assert out.get()[0] == h.sum() + (1 + 2j)  # small integers: exact in float32
    out = cp.zeros(1, cp.complex64)
    cccl_cache.reduce_into(d, out, cadd, cache=caches[0])  # its h_init 0: complex64(0)
    assert out.get()[0] == h.sum()
    zadd = cccl_cache.Op("zadd", "__device__ complex128 zadd(complex128 a, complex128 b) "
                                 "{ return {a.real + b.real, a.imag + b.imag}; }")
    h2 = h.astype(np.complex128)
    out = cp.zeros(N, cp.complex128)
    cccl_cache.inclusive_scan(cp.asarray(h2), out, zadd, cache=caches[0])
    np.testing.assert_array_equal(out.get(), np.cumsum(h2))


def test_nested_iterators(caches):
    """A dot product (a reduction over a transform of a zip), values gathered in the order a
    ShuffleIterator fixes, both read last first through a ReverseIterator too, fresh and
    store-loaded, against NumPy."""
    from cccl_cache.iterators import (CountingIterator, PermutationIterator, ReverseIterator, ShuffleIterator,
                                      TransformIterator, ZipIterator)
    rng = np.random.default_rng(7)
    a = rng.integers(-99, 99, N).astype(np.int32)
    b = rng.integers(-99, 99, N).astype(np.int32)
    d_a, d_b = cp.asarray(a), cp.asarray(b)
    dot = TransformIterator(ZipIterator(d_a, d_b), "multiplies")
    d_out = cp.zeros(1, cp.int64)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(dot, d_out, "plus", device=0, cache=c)):
        d_out[:] = 0
        run_two_phase(exe, dot, d_out, N, np.int64(0), n=N)
        assert int(d_out.get()[0]) == int((a.astype(np.int64) * b).sum())
    v = rng.integers(-10**6, 10**6, N).astype(np.int64)
    gathered = PermutationIterator(cp.asarray(v), ShuffleIterator(N, 3))
    order = cp.empty(N, cp.int64)
    cccl_cache.unary_transform(ShuffleIterator(N, 3), order, "identity", cache=caches[0])
    outs = []
    for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(gathered, cp.empty(N, cp.int64), "plus",
                                                                     device=0, cache=c)):
        d = cp.empty(N, cp.int64)
        run_two_phase(exe, gathered, d, N, n=N)
        outs.append(d.get())
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(outs[0], np.cumsum(v[order.get()]))
    # The same gather read last first: a ReverseIterator over the PermutationIterator.
    backwards = ReverseIterator(gathered)
    d = cp.empty(N, cp.int64)
    cccl_cache.inclusive_scan(backwards, d, "plus", cache=caches[0])
    np.testing.assert_array_equal(d.get(), np.cumsum(v[order.get()][::-1]))
    # Counts negated, last first: a ReverseIterator over a TransformIterator of a counting
    # (no end of its own: num_items given).
    counts = ReverseIterator(TransformIterator(CountingIterator(np.int64(5)), "negate"))
    for exe in both(caches, lambda c: cccl_cache.make_inclusive_scan(counts, cp.empty(N, cp.int64), "plus",
                                                                     device=0, cache=c)):
        d = cp.empty(N, cp.int64)
        run_two_phase(exe, counts, d, N, n=N)
        np.testing.assert_array_equal(d.get(), np.cumsum(-(5 + np.arange(N, dtype=np.int64))[::-1]))


def test_stateful_transform_iterators(caches):
    """Transform iterators whose operators are stateful, the state carried by the iterator:
    an affine map over a counting input summed, running sums stored scaled through a
    TransformOutputIterator, fresh and store-loaded, against NumPy."""
    from cccl_cache.iterators import CountingIterator, TransformIterator, TransformOutputIterator
    affine = cccl_cache.Op("affine", "__device__ long long affine(void* s, long long i) { "
                           "const long long* ab = (const long long*)s; return ab[0] * i + ab[1]; }",
                           state_size=16, state_alignment=8)
    counts = TransformIterator(CountingIterator(np.int64(-1000)), affine, state=np.array([3, -7], np.int64))
    d_out = cp.zeros(1, cp.int64)
    for exe in both(caches, lambda c: cccl_cache.make_reduce_into(counts, d_out, "plus", device=0, cache=c)):
        d_out[:] = 0
        run_two_phase(exe, counts, d_out, N, np.int64(0), n=N)
        assert int(d_out.get()[0]) == int((3 * (np.arange(N, dtype=np.int64) - 1000) - 7).sum())
    scale = cccl_cache.Op("scale", "__device__ double scale(void* s, double x) { return x * *(const double*)s; }",
                          state_size=8)
    h = rng.integers(-1000, 1000, N).astype(np.int32)
    d_x = cp.asarray(h)
    outs = []
    for k, exe in zip((0.25, 0.5), both(caches, lambda c: cccl_cache.make_inclusive_scan(
            d_x, TransformOutputIterator(cp.empty(N, cp.float64), scale, state=np.float64(1)), "plus",
            device=0, cache=c))):
        d = cp.empty(N, cp.float64)
        out = TransformOutputIterator(d, scale, state=np.float64(k))
        run_two_phase(exe, d_x, out, N, n=N)
        np.testing.assert_array_equal(d.get(), np.cumsum(h.astype(np.int64)) * k)
        outs.append(d.get() / k)
    np.testing.assert_array_equal(outs[0], outs[1])
