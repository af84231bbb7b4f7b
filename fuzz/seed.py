"""Writes the seed corpus of each fuzz target into DIR/<target>/ from fixtures/, mappings/
and fuzz/seeds/. Targets that take a settings byte first (fuzz/Sources) get one.
Run from the repository root: python3 fuzz/seed.py DIR
"""
import glob, os, sys, zipfile

out = sys.argv[1]


def put(target, name, data):
    os.makedirs(f"{out}/{target}", exist_ok=True)
    with open(f"{out}/{target}/{name}", "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


csvs = sorted(glob.glob("fixtures/csv/*") + glob.glob("fixtures/presets/*.csv") + glob.glob("fixtures/bad/*.csv"))
books = sorted(glob.glob("fixtures/xlsx/*.xlsx") + glob.glob("fixtures/presets/*.xlsx") + glob.glob("fixtures/bad/*.xlsx"))
for k, path in enumerate(csvs):
    data = read(path)[: 64 << 10]
    put("csv-tokenizer", f"{k}", bytes([k % 256]) + data)
    put("csv-reader", f"{k}", bytes([k % 256]) + data)
    put("inspect", f"csv{k}", data)
for k, path in enumerate(books):
    data = read(path)
    put("xlsx", f"{k}", data)
    put("inspect", f"xlsx{k}", data)
    try:
        with zipfile.ZipFile(path) as z:
            for n, info in enumerate(z.infolist()):
                name = info.filename
                if info.file_size > 16 << 20:
                    continue
                part = z.read(name)[: 64 << 10]
                if "sharedStrings" in name:
                    put("shared-strings", f"{k}-{n}", bytes([k % 256]) + part)
                elif "worksheets/" in name and name.endswith(".xml"):
                    put("sheet-xml", f"{k}-{n}", bytes([k % 256]) + part)
    except Exception:
        pass  # the hostile files in bad/ are seeds for the whole-file targets only
for rule in ["phone", "email", "name", "address", "date"]:
    for k, line in enumerate(read(f"fuzz/seeds/{rule}.txt").splitlines()):
        put(rule, f"{k}", bytes([k % 256]) + line)
for k, path in enumerate(sorted(glob.glob("mappings/*.yaml"))):
    put("mapping", f"{k}", read(path))
