"""`bench/run.py --only vdp` (issue 25): `leadport export vdp` of a 10,000-address campaign in
the embedded file.

1. A list of 10,000 people at distinct addresses is imported into a new embedded file.
2. The first export makes 10,000 slugs (one `qr_codes` row each), 10,000 PNGs and the
   manifest, into a ZIP: wall time and the ZIP's size.
3. The rerun reads the slugs back and writes no row, into a folder this time: wall time and
   the folder's size; then 50 images spread over the campaign are decoded with zbarimg and
   compared with the manifest's URLs.
"""
import csv, os, resource, shutil, sqlite3, subprocess, sys, time

from common import verdict

ADDRESSES = 10_000
STREETS = ["Main St", "Oak Ave", "Maple Dr", "Cedar Ln", "Elm St", "Park Ave SE", "Washington Blvd", "Lake Rd"]
PLACES = [("Boston", "MA", "02134"), ("Cambridge", "MA", "02139"), ("Hartford", "CT", "06103"), ("Worcester", "MA", "01602"),
          ("Providence", "RI", "02903"), ("Portland", "ME", "04101")]


def write_list(path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Name", "Email", "Address", "City", "State", "Zip"])
        for n in range(1, ADDRESSES + 1):
            city, state, zip_code = PLACES[n % len(PLACES)]
            unit = f" Apt {n % 7 + 1}" if n % 5 == 0 else ""
            w.writerow([f"Person {n} Lee", f"person{n}@example.com", f"{n} {STREETS[n % len(STREETS)]}{unit}", city, state, zip_code])


def timed(cmd):
    """Wall seconds, CPU seconds (user and system: what a busy machine does not inflate), and
    the summary line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {proc.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stderr.decode().strip().splitlines()[-1]


def folder_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def vdp_benchmark(binary, args):
    os.makedirs(args.data, exist_ok=True)
    listing = os.path.join(args.data, "vdp-10k.csv")
    if not os.path.exists(listing):
        write_list(listing)
    work = os.path.join(args.data, "vdp")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "leads.db")
    subprocess.run([binary, "import", listing, "--to", "sqlite:" + db, "--campaign", "VDP bench", "--progress", "none"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    codes = lambda: sqlite3.connect(db).execute("SELECT count(*) FROM qr_codes").fetchone()[0]

    zip_path = os.path.join(work, "vdp.zip")
    first, first_cpu, first_line = timed([binary, "export", "vdp", "VDP bench", "--to", "sqlite:" + db, "--zip", zip_path, "--progress", "none"])
    made = codes()
    folder = os.path.join(work, "print")
    rerun, rerun_cpu, rerun_line = timed([binary, "export", "vdp", "VDP bench", "--to", "sqlite:" + db, "--out", folder, "--progress", "none"])
    kept = codes()

    with open(os.path.join(folder, "vdp-manifest.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    sample = rows[:: max(1, len(rows) // 50)][:50]
    decoded = 0
    for row in sample:
        out = subprocess.run(["zbarimg", "--raw", "-q", os.path.join(folder, row["image"])], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        decoded += out.stdout.decode().strip() == row["qr_url"]

    ok = made == ADDRESSES and kept == ADDRESSES and len(rows) == ADDRESSES and decoded == len(sample)
    print(f"export vdp, {ADDRESSES:,} addresses: first {first:.2f} s wall, {first_cpu:.2f} s CPU ({ADDRESSES / first:,.0f} addresses/s), "
          f"ZIP {os.path.getsize(zip_path) / 1e6:.2f} MB; rerun {rerun:.2f} s wall, {rerun_cpu:.2f} s CPU, folder {folder_bytes(folder) / 1e6:.2f} MB; "
          f"qr_codes {made:,} then {kept:,}; "
          f"{decoded}/{len(sample)} sampled images decoded  {verdict(ok)}")
    print(f"  {first_line}\n  {rerun_line}")
    return 0 if ok else 1
