#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora into fuzz/corpus/<target>/.

Standard library only. Checksums are left zero: the envelope and blob harnesses fix
them up themselves, and the archive parser reads an entry before checking its sum.
A real cubin (fuzz/seeds/kernels.cubin, made with `nvcc -cubin -arch=sm_90` from
fuzz/seeds/kernels.cu) is the ELF seed and the blob's cubin; regenerate it with
--cubin when nvcc is at hand. With --zstd, the archive corpus gets a compressed
archive made by the zstd program. Usage: fuzz/make_seeds.py [--cubin] [--zstd]
"""
import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
SEEDS = os.path.join(HERE, "seeds")


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def cubin():
    path = os.path.join(SEEDS, "kernels.cubin")
    if "--cubin" in sys.argv:
        subprocess.run(["nvcc", "-cubin", "-arch=sm_90", "-o", path,
                        os.path.join(SEEDS, "kernels.cu")], check=True)
    with open(path, "rb") as f:
        return f.read()


def envelope(algorithm, summary, toolchain, payload, payload_format=1):
    meta = b"".join(struct.pack("<H", len(s)) + s for s in (algorithm, summary, toolchain))
    head = b"CCCLKENV" + struct.pack("<IIQqIIQ", 1, len(meta), len(payload), 1700000000,
                                     payload_format, 0, 0)
    return head + meta + payload


def spec_fields():
    """merge_sort keys=float32 values=none compare=less offset=int64, encoded as the core
    encodes spec fields: tag:u8 | length:u32 | bytes."""
    field = lambda tag, b: bytes([tag]) + struct.pack("<I", len(b)) + b
    less = bytes([1]) + struct.pack("<I", 0)  # kind, empty name, empty source
    return field(1, bytes([9])) + field(2, bytes([0])) + field(3, less) + field(4, bytes([4]))


def blob(elf):
    """A build record in the core's grammar (libalgos/.../core/blob.hpp)."""
    s = lambda b: struct.pack("<Q", len(b)) + b
    names = (b"block_sort", b"partition", b"merge")
    return (b"CCBR" + struct.pack("<IBI", 2, 1, 90) + s(spec_fields()) +
            s(b"cccl-3.5.0 nvrtc-13.0 nvjitlink-13.0 fmt-2") + s(elf) +
            bytes([len(names)]) + b"".join(s(n) for n in names) +
            bytes([4]) + struct.pack("<QQQQ", 256, 256 * 17, 0, 0))


def archive_entry(key, payload):
    st = lambda b: struct.pack("<I", len(b)) + b
    body = (key + st(b"merge_sort") + st(b"keys=int32 values=none cmp=less offset=int64") +
            st(b"cuda13.0") + struct.pack("<IqqQQ", 1, 1700000000, 1700000100, 3, len(payload)) +
            payload)
    return b"ENTR" + struct.pack("<I", len(body)) + body + bytes(16)


def main():
    # Overwrites its own seeds; leaves the regression inputs (regress-*) alone.
    elf = cubin()
    put("fuzz_elf", "kernels.cubin", elf)
    b = blob(elf)
    put("fuzz_blob", "merge_sort.blob", b)
    put("fuzz_blob", "short", b"CCBR" + struct.pack("<IBI", 2, 1, 90) + bytes(8))
    put("fuzz_envelope", "small", envelope(b"merge_sort", b"keys=int32", b"cuda13.0", b"\x01\x02\x03"))
    put("fuzz_envelope", "empty_fields", envelope(b"", b"", b"", b""))
    put("fuzz_envelope", "blob", envelope(b"merge_sort", b"keys=float32 values=none cmp=less offset=int64",
                                          b"cuda13.0-cccl3.0-fmt1", b))
    key = bytes(range(16)) + struct.pack(">I", 90)
    body = archive_entry(key, b"payload") + archive_entry(key, b"") + b"END!" + struct.pack("<Q", 2) + bytes(16)
    put("fuzz_archive_body", "two_entries", body)
    put("fuzz_archive_body", "empty", b"END!" + struct.pack("<Q", 0) + bytes(16))
    head = lambda flags: b"CCCLARCH" + struct.pack("<II", 1, flags)
    put("fuzz_archive", "plain", head(0) + body)
    if "--zstd" in sys.argv:
        z = subprocess.run(["zstd", "-q", "-c", "-3"], input=body, check=True,
                           stdout=subprocess.PIPE).stdout
        put("fuzz_archive", "zstd", head(1) + z)
    put("fuzz_spec_text", "builtin", "merge_sort keys=float32 values=none compare=less offset=int64")
    put("fuzz_spec_text", "custom", "merge_sort keys=float32 compare=abs_less")
    put("fuzz_spec_text", "quoted",
        "merge_sort keys=f32 values=int32 cmp=my_less source='__device__ bool my_less(float a, float b) { return a < b; }'")
    put("fuzz_spec_text", "source_file", "merge_sort keys=uint64 compare=op source_file=\"ops/op.cuh\" offset=uint32")
    with open(os.path.join(HERE, "..", "config", "manifest.example.toml"), "rb") as f:
        put("fuzz_manifest", "example.toml", f.read())
    put("fuzz_manifest", "small.toml",
        'arch = ["sm_80", "sm_90"]\n[operators.abs_less]\nsource = "__device__ bool abs_less(float a, float b) '
        '{ return fabsf(a) < fabsf(b); }"\n[[merge_sort]]\nkeys = ["float32", "int32"]\nvalues = "none"\n'
        'compare = "abs_less"\n[[merge_sort]]\nkeys = "int64"\noffset = "uint32"\n')
    with open(os.path.join(HERE, "..", "config", "cccl-cache.toml"), "rb") as f:
        put("fuzz_config", "cccl-cache.toml", f.read())
    put("fuzz_config", "all_keys.toml",
        'dir = "/tmp/c"\nmax_size = "2G"\ninitial_map_size = 1048576\nmax_map_size = "64GiB"\n'
        'max_readers = 126\ndisabled = false\nread_only = true\nshared = false\n'
        'touch_interval = "15m"\nlog_level = "debug"\n[cli]\nx = 1\n')


if __name__ == "__main__":
    main()
