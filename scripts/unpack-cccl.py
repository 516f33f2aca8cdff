#!/usr/bin/env python3
"""Unpacks the pinned nvidia-cuda-cccl wheel's headers into DEST (idempotent).

usage: unpack-cccl.py WHEEL DEST   (env CCCL_WHEEL_SHA256: the expected sha256 of WHEEL)

DEST/include holds cub/, thrust/, cuda/, nv/ (the wheel's nvidia/cu13/include/cccl)
and DEST/.complete is written last, so an interrupted unpack is redone. Used by
scripts/install-deps.sh here and by scripts/gpu/run.sh on the GPU machine (no package
index there; python3's zipfile is all it needs).
"""
import hashlib, os, shutil, sys, zipfile

def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wheel, dest = sys.argv[1], sys.argv[2]
    want = os.environ.get("CCCL_WHEEL_SHA256", "")
    if not want:
        sys.exit("unpack-cccl: CCCL_WHEEL_SHA256 (the pinned wheel's sha256) is not set")
    if os.path.isfile(os.path.join(dest, ".complete")):
        return
    h = hashlib.sha256()
    with open(wheel, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    if h.hexdigest() != want:
        sys.exit(f"unpack-cccl: {wheel} has sha256 {h.hexdigest()}, expected {want}: refusing it")
    prefix = "nvidia/cu13/include/cccl/"
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        unpack(wheel, prefix, tmp)
    except (zipfile.BadZipFile, OSError) as e:
        shutil.rmtree(tmp, ignore_errors=True)
        sys.exit(f"unpack-cccl: cannot unpack {wheel}: {e}")
    version_h = os.path.join(tmp, "include", "cuda", "std", "__cccl", "version.h")
    if not os.path.isfile(version_h):
        sys.exit(f"unpack-cccl: {wheel} holds no cuda/std/__cccl/version.h")
    shutil.rmtree(dest, ignore_errors=True)
    os.rename(tmp, dest)
    with open(os.path.join(dest, ".complete"), "w") as f:
        f.write(h.hexdigest() + "\n")

def unpack(wheel, prefix, tmp):
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            name = info.filename
            if not name.startswith(prefix) or name.endswith("/"):
                continue
            rel = os.path.normpath(name[len(prefix):])
            if rel.startswith("..") or os.path.isabs(rel):
                sys.exit(f"unpack-cccl: unsafe path {name} in {wheel}")
            out = os.path.join(tmp, "include", rel)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with z.open(info) as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)

if __name__ == "__main__":
    main()
