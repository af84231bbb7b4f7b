"""`make bench`: times `leadport cat --format count` on the generated lead lists and
`leadport --version`, and prints wall time, throughput and peak RSS against the targets.
Each figure is the best of N runs (peak RSS is the largest seen)."""
import argparse, os, platform, resource, subprocess, sys, time

TARGETS = [
    # name, file, rows, max seconds, max peak RSS MiB
    ("CSV 1M x 15", "leads-1m.csv", 1_000_000, 0.45, 16),
    ("XLSX 200k x 15", "leads-200k.xlsx", 200_000, 1.10, 64),
]


def run_once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {proc.stderr.decode()}")
    return wall, proc.stdout.decode().strip()


def peak_rss_kib(cmd):
    """Peak RSS of one run, read from a fresh child's rusage through /usr/bin/time-free wait4."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execv(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    return usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/release/leadport")
    ap.add_argument("--data", default="bench/data")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"generating data in {args.data} (first run only)...", flush=True)
    subprocess.run([sys.executable, "bench/generate.py", args.data], check=True)
    binary = os.path.abspath(args.binary)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}")
    print(f"{'benchmark':<18} {'best s':>8} {'target':>8} {'rows/s':>12} {'MB/s':>8} {'peak RSS':>10} {'target':>8}  result")
    failures = 0
    for name, file, rows, max_s, max_mib in TARGETS:
        path = os.path.join(args.data, file)
        cmd = [binary, "cat", path, "--format", "count"]
        run_once(cmd)  # warm the page cache
        walls = []
        out = ""
        for _ in range(args.runs):
            wall, out = run_once(cmd)
            walls.append(wall)
        rss = max(peak_rss_kib(cmd) for _ in range(2)) / 1024
        best = min(walls)
        size_mb = os.path.getsize(path) / 1e6
        ok = best <= max_s and rss <= max_mib
        failures += not ok
        print(f"{name:<18} {best:8.3f} {max_s:8.2f} {rows / best:12,.0f} {size_mb / best:8.1f} {rss:8.1f}Mi {max_mib:6d}Mi  {'ok' if ok else 'MISSED'}  ({out})")
    walls = [run_once([binary, "--version"])[0] for _ in range(20)]
    best = min(walls)
    ok = best <= 0.010
    failures += not ok
    print(f"{'--version':<18} {best * 1000:7.1f}ms {10:6d}ms {'':>12} {'':>8} {'':>10} {'':>8}  {'ok' if ok else 'MISSED'}")
    print(f"best of {args.runs} runs each; {failures} target(s) missed")


if __name__ == "__main__":
    main()
