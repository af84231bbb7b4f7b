"""Deterministic lead lists for `make bench` (seeded; same bytes every run).

- leads-1m.csv: 1,000,000 rows x 15 columns (~165 MB); about a third of rows have quoted
  fields, some with embedded newlines, and a fifth carry non-ASCII names.
- leads-200k.xlsx: 200,000 rows x 15 columns with a shared-string table, written directly as
  SpreadsheetML with Python's zipfile (XlsxWriter takes minutes at this size).
"""
import os, random, sys, zipfile
from xml.sax.saxutils import escape

FIRST = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "William", "Susan"]
FIRST_X = ["José", "Zoë", "François", "Søren", "Łukasz", "Müller", "Renée", "Björn", "Chloé", "Nuñez"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez", "O'Neil", "McDonald"]
STREETS = ["Main St", "Oak Ave", "Elm St", "Maple Dr", "Cedar Ln", "Pine Rd", "Washington Blvd", "Lake Shore Dr"]
CITIES = [("Boston", "MA", "02134"), ("Cambridge", "MA", "02139"), ("Austin", "TX", "78701"), ("Denver", "CO", "80202"),
          ("Miami", "FL", "33101"), ("Seattle", "WA", "98101"), ("Portland", "OR", "97201"), ("Phoenix", "AZ", "85001")]
HEADER = ["First Name", "Last Name", "Email", "Phone", "Mobile", "Address", "Unit", "City", "State", "ZIP",
          "Source", "Status", "Created", "Price", "Notes"]


def row(rng, i):
    first = rng.choice(FIRST_X) if i % 5 == 0 else rng.choice(FIRST)
    last = rng.choice(LAST)
    city, state, zipc = rng.choice(CITIES)
    return [first, last, f"{first.lower()}.{last.lower()}{i}@example.com".replace("'", ""),
            f"({rng.randint(200, 999)}) 555-{rng.randint(0, 9999):04d}", f"+1 617 555 {rng.randint(0, 9999):04d}",
            f"{rng.randint(1, 9999)} {rng.choice(STREETS)}", rng.choice(["", "Apt 2", "Unit 5B", "#12"]), city, state, zipc,
            rng.choice(["Zillow", "Open house", "Referral", "Website"]), rng.choice(["new", "hot", "warm", "cold"]),
            f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", str(rng.randint(150, 2500) * 1000),
            rng.choice(["", "Call after 5pm", "Wants 3BR, near schools", "Spoke to spouse"])]


def quote(field):
    return '"' + field.replace('"', '""') + '"'


def write_csv(path, rows=1_000_000):
    rng = random.Random(1)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(",".join(HEADER) + "\r\n")
        for i in range(rows):
            r = row(rng, i)
            if i % 3 == 0:
                r[5] = quote(r[5] + ", " + r[7])
                r[14] = quote(r[14] + ("\nsecond line" if i % 9 == 0 else "") + ', "VIP"')
            f.write(",".join(r) + "\r\n")


def col(k):
    s = ""
    k += 1
    while k:
        k, rem = divmod(k - 1, 26)
        s = chr(65 + rem) + s
    return s


def write_xlsx(path, rows=200_000):
    rng = random.Random(2)
    strings, index = [], {}

    def sid(text):
        if text not in index:
            index[text] = len(strings)
            strings.append(text)
        return index[text]

    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            out = [f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {ns}><sheetData>']
            for r in range(rows + 1):
                values = HEADER if r == 0 else row(rng, r)
                cells = []
                for c, v in enumerate(values):
                    ref = f"{col(c)}{r + 1}"
                    if r > 0 and c == 13:
                        cells.append(f'<c r="{ref}"><v>{v}</v></c>')
                    elif r > 0 and c == 12:
                        y, m, d = map(int, v.split("-"))
                        serial = 45292 + (m - 1) * 30 + d  # a 2024 date serial
                        cells.append(f'<c r="{ref}" s="1"><v>{serial}</v></c>')
                    elif v == "":
                        continue
                    else:
                        cells.append(f'<c r="{ref}" t="s"><v>{sid(v)}</v></c>')
                out.append(f'<row r="{r + 1}">' + "".join(cells) + "</row>")
                if len(out) > 2000:
                    sheet.write("".join(out).encode())
                    out = []
            out.append("</sheetData></worksheet>")
            sheet.write("".join(out).encode())
        sst = "".join(f"<si><t>{escape(s)}</t></si>" for s in strings)
        z.writestr("xl/sharedStrings.xml", f'<?xml version="1.0" encoding="UTF-8"?><sst {ns} count="{len(strings)}" uniqueCount="{len(strings)}">{sst}</sst>')
        z.writestr("xl/styles.xml", f'<?xml version="1.0" encoding="UTF-8"?><styleSheet {ns}><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>')
        z.writestr("xl/workbook.xml", f'<?xml version="1.0" encoding="UTF-8"?><workbook {ns} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Leads" sheetId="1" r:id="rId1"/></sheets></workbook>')
        rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        z.writestr("xl/_rels/workbook.xml.rels", f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   f'<Relationship Id="rId1" Type="{rel}/worksheet" Target="worksheets/sheet1.xml"/>'
                   f'<Relationship Id="rId2" Type="{rel}/sharedStrings" Target="sharedStrings.xml"/>'
                   f'<Relationship Id="rId3" Type="{rel}/styles" Target="styles.xml"/></Relationships>')
        z.writestr("_rels/.rels", f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   f'<Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                   '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "bench/data"
    os.makedirs(out, exist_ok=True)
    if not os.path.exists(f"{out}/leads-1m.csv"):
        write_csv(f"{out}/leads-1m.csv.tmp")
        os.replace(f"{out}/leads-1m.csv.tmp", f"{out}/leads-1m.csv")
    if not os.path.exists(f"{out}/leads-200k.xlsx"):
        write_xlsx(f"{out}/leads-200k.xlsx.tmp")
        os.replace(f"{out}/leads-200k.xlsx.tmp", f"{out}/leads-200k.xlsx")
