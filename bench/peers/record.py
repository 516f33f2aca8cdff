#!/usr/bin/env python3
"""Record a run_all.sh run in docs/gpu-results/ (on the development machine).

  record.py FILES_AT --command 'PEERS_COMMIT=... bash bench/peers/run_all.sh' [--name peers]

FILES_AT: the folder where the device tool put the returned $OUT files
(peers.log, reference.json, peers-report.md, ours/*.log). Writes
docs/gpu-results/<date>-<name>.md (date, commit, command, report, full log)
and copies reference.json beside it as <date>-<name>.json. Refuses to
overwrite an existing record.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files_at")
    ap.add_argument("--command", required=True, help="the device-tool command, verbatim")
    ap.add_argument("--name", default="peers")
    ap.add_argument("--dest", default=str(ROOT / "docs" / "gpu-results"))
    args = ap.parse_args(argv)

    src = Path(args.files_at)
    log_path, report_path, ref_path = src / "peers.log", src / "peers-report.md", src / "reference.json"
    if not log_path.is_file():
        print(f"record: {log_path} not found", file=sys.stderr)
        return 2
    log = log_path.read_text(errors="replace")
    report = report_path.read_text(errors="replace") if report_path.is_file() else "(no report was written)\n"
    date = None
    if ref_path.is_file():
        try:
            date = json.loads(ref_path.read_text()).get("started_utc", "")[:10] or None
        except ValueError:
            pass
    if not date:
        m = re.search(r"\b(20\d\d-\d\d-\d\d)\b", log)
        date = m.group(1) if m else "undated"
    m = re.search(r"^commit: (\S+)", log, re.M)
    commit = m.group(1) if m else "unknown"

    dest = Path(args.dest)
    dest.mkdir(parents=True, exist_ok=True)
    md_out = dest / f"{date}-{args.name}.md"
    if md_out.exists():
        print(f"record: {md_out} exists; choose another --name", file=sys.stderr)
        return 2
    ours_logs = sorted((src / "ours").glob("*.log")) if (src / "ours").is_dir() else []
    demoted = "\n".join("#" + l if l.startswith("#") else l for l in report.splitlines())
    parts = [
        f"# {date}: {args.name} (bench/peers/run_all.sh)", "",
        f"- Commit: `{commit}`",
        f"- Command (device tool): `{args.command}`",
        f"- Returned files: {', '.join(sorted(p.name for p in src.iterdir() if p.is_file()))}"
        + (f"; ours/: {', '.join(p.name for p in ours_logs)}" if ours_logs else ""),
        "", "## Report (bench/peers/report.py)", "", demoted, "",
        "## Log (peers.log)", "", "```", log.rstrip(), "```",
    ]
    for p in ours_logs:
        parts += ["", f"## ours/{p.name}", "", "```", p.read_text(errors="replace").rstrip(), "```"]
    md_out.write_text("\n".join(parts) + "\n")
    if ref_path.is_file():
        shutil.copyfile(ref_path, dest / f"{date}-{args.name}.json")
    print(f"wrote {md_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
