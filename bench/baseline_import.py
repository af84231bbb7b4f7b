"""The Python yardstick for `make bench`: the same job as `leadport import LIST --campaign NAME`
on the benchmark's messy list, written the way a competent Python user would, with the usual
libraries: csv, phonenumbers (Google's metadata, ported), usaddress (a CRF address tagger) and
sqlite3. It reads the list past its title row, splits names (LAST, FIRST M; couples; prefixes and
suffixes; proper case), cleans and checks emails, repairs Excel-damaged phones and ZIPs, parses
phones to E.164, tags addresses and abbreviates them the USPS way, reads dates, dedupes by email,
phone + family name, then address, and writes FLYR's campaign_addresses and contacts plus a
ledger in 5,000-row transactions.

    python3 bench/baseline_import.py LIST.csv DB.sqlite
It prints `rows=N created=C skipped=S rejected=R` so the run can be checked against LeadPort's.
"""
import csv
import datetime
import hashlib
import os
import re
import sqlite3
import sys
import uuid

import phonenumbers
import usaddress

SUFFIXES = {"jr": "Jr", "sr": "Sr", "ii": "II", "iii": "III", "iv": "IV", "md": "MD", "phd": "PhD", "esq": "Esq"}
PREFIXES = {"mr", "mrs", "ms", "miss", "dr", "prof", "rev"}
PARTICLES = {"de", "del", "della", "der", "di", "da", "la", "le", "van", "von"}
STREET_SUFFIX = {"street": "ST", "st": "ST", "avenue": "AVE", "ave": "AVE", "drive": "DR", "dr": "DR", "lane": "LN", "ln": "LN",
                 "road": "RD", "rd": "RD", "boulevard": "BLVD", "blvd": "BLVD", "way": "WAY", "court": "CT", "ct": "CT"}
DIRECTIONS = {"north": "N", "south": "S", "east": "E", "west": "W", "n": "N", "s": "S", "e": "E", "w": "W",
              "northeast": "NE", "northwest": "NW", "southeast": "SE", "southwest": "SW", "ne": "NE", "nw": "NW", "se": "SE", "sw": "SW"}
UNITS = {"apartment": "APT", "apt": "APT", "suite": "STE", "ste": "STE", "unit": "UNIT", "#": "#"}
STATES = {"massachusetts": "MA", "connecticut": "CT", "new jersey": "NJ", "texas": "TX", "colorado": "CO", "florida": "FL",
          "washington": "WA", "maine": "ME", "arizona": "AZ", "new york": "NY", "california": "CA"}
STATE_CODES = set(STATES.values()) | {"RI", "NH", "VT", "PR"}
ZERO_STATES = {"CT", "MA", "ME", "NH", "NJ", "RI", "VT", "PR"}
COMMON_DOMAINS = ["gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "aol.com", "icloud.com", "comcast.net"]
EMAIL = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$")


def proper(word):
    if word != word.upper() and word != word.lower():
        return word
    w = word.lower()
    if w.startswith("mc") and len(w) > 3:
        return "Mc" + w[2:].capitalize()
    if len(w) > 2 and w[1] == "'":
        return w[0].upper() + "'" + w[2:].capitalize()
    return "-".join(p.capitalize() for p in w.split("-"))


def split_name(text):
    text = text.strip()
    if not text:
        return None, None
    if "&" in text or " and " in text:
        text = re.split(r"\s+(?:&|and)\s+", text)[0] + " " + text.split()[-1]
    if "," in text:
        family, rest = [p.strip() for p in text.split(",", 1)]
        words = rest.split()
        return (proper(words[0]) if words else None), " ".join(proper(w) for w in family.split())
    words = [w for w in text.split() if w.lower().strip(".") not in PREFIXES]
    while words and words[-1].lower().strip(".,") in SUFFIXES:
        words.pop()
    if not words:
        return None, None
    if len(words) == 1:
        return proper(words[0]), None
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in PARTICLES:
        start -= 1
    family = " ".join(w.lower() if w.lower() in PARTICLES and k < len(words) - 1 else proper(w) for k, w in enumerate(words[start:], start))
    return proper(words[0]), family


def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def clean_email(text):
    t = text.strip()
    m = re.search(r"<([^>]*)>", t)
    if m:
        t = m.group(1)
    if t.lower().startswith("mailto:"):
        t = t[7:]
    t = "".join(t.split()).strip(".,;:!)]}>\"'").lstrip("([{<\"'")
    if "@" not in t:
        return None, None
    local, domain = t.rsplit("@", 1)
    domain = domain.lower()
    address = local + "@" + domain
    suggestion = None
    if domain not in COMMON_DOMAINS:
        for candidate in COMMON_DOMAINS:
            if edit_distance(domain, candidate) <= (2 if len(candidate) >= 9 else 1):
                suggestion = local + "@" + candidate
                break
    return (address if EMAIL.match(address) else None), suggestion


def phone_e164(text):
    t = text.strip()
    if not t:
        return None
    m = re.fullmatch(r"(\d)\.(\d+)E\+(\d+)", t)
    if m:
        digits = m.group(1) + m.group(2)
        if len(digits) != int(m.group(3)) + 1:
            return None
        t = digits
    elif re.fullmatch(r"\d+\.0", t):
        t = t[:-2]
    try:
        number = phonenumbers.parse(t, "US")
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    number.extension = None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def state_code(text):
    t = text.strip().replace(".", "")
    if t.upper() in STATE_CODES:
        return t.upper()
    return STATES.get(t.lower())


def repair_zip(text, state):
    digits = text.strip()
    if re.fullmatch(r"\d{9}", digits):
        return digits[:5] + "-" + digits[5:]
    if re.fullmatch(r"\d{3,4}", digits) and state in ZERO_STATES:
        return digits.zfill(5)
    return digits if re.fullmatch(r"\d{5}(-\d{4})?", digits) else None


def parse_street(text):
    try:
        tagged, _ = usaddress.tag(text)
    except usaddress.RepeatedLabelError:
        return None
    if "AddressNumber" not in tagged or "StreetName" not in tagged:
        return None
    parts = [tagged["AddressNumber"]]
    if "StreetNamePreDirectional" in tagged:
        parts.append(DIRECTIONS.get(tagged["StreetNamePreDirectional"].lower().strip("."), tagged["StreetNamePreDirectional"].upper()))
    parts.append(tagged["StreetName"].upper())
    if "StreetNamePostType" in tagged:
        parts.append(STREET_SUFFIX.get(tagged["StreetNamePostType"].lower().strip("."), tagged["StreetNamePostType"].upper()))
    if "StreetNamePostDirectional" in tagged:
        parts.append(DIRECTIONS.get(tagged["StreetNamePostDirectional"].lower(), tagged["StreetNamePostDirectional"].upper()))
    unit_id = tagged.get("OccupancyIdentifier")
    if unit_id:
        unit_type = UNITS.get(tagged.get("OccupancyType", "#").lower().strip("."), "#")
        unit_id = unit_id.lstrip("#")
        parts += [unit_type, unit_id]
    return " ".join(parts), " ".join(parts[:-2] if unit_id else parts), unit_id


def parse_date(text):
    t = text.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t):
        return t
    if re.fullmatch(r"\d{5}", t):
        return (datetime.date(1899, 12, 30) + datetime.timedelta(days=int(t))).isoformat()
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", t)
    if m:
        month, day, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        try:
            return datetime.date(year, month, day).isoformat()
        except ValueError:
            return None
    return None


SCHEMA = """
CREATE TABLE campaigns (id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, name TEXT NOT NULL, address_source TEXT, status TEXT DEFAULT 'draft');
CREATE TABLE campaign_addresses (id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL REFERENCES campaigns(id), address TEXT, formatted TEXT,
  house_number TEXT, street_name TEXT, locality TEXT, region TEXT, postal_code TEXT, gers_id TEXT, seq INTEGER, source TEXT, created_at TEXT);
CREATE INDEX idx_addresses_campaign_seq ON campaign_addresses(campaign_id, seq);
CREATE TABLE contacts (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, full_name TEXT NOT NULL, phone TEXT, email TEXT, address TEXT,
  campaign_id TEXT REFERENCES campaigns(id), address_id TEXT, status TEXT, notes TEXT, created_at TEXT, updated_at TEXT);
CREATE INDEX idx_contacts_campaign ON contacts(campaign_id);
CREATE TABLE leadport_ledger (destination TEXT NOT NULL, dedupe_key TEXT NOT NULL, remote_id TEXT NOT NULL, content_hash TEXT NOT NULL,
  run_id TEXT NOT NULL, source_row INTEGER, updated_at TEXT, PRIMARY KEY (destination, dedupe_key));
"""


def main(path, db_path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.remove(db_path + suffix)
    db = sqlite3.connect(db_path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    db.executescript(SCHEMA)
    campaign = str(uuid.uuid4())
    db.execute("INSERT INTO campaigns (id, owner_id, name, address_source) VALUES (?, ?, ?, 'import_list')", (campaign, "u", "Spring farm"))
    seen, batch = {}, []
    counts = {"created": 0, "skipped": 0, "rejected": 0}
    run_id = str(uuid.uuid4())
    seq = 0

    def flush():
        nonlocal seq
        now = datetime.datetime.utcnow().isoformat(timespec="milliseconds") + "Z"
        db.execute("BEGIN")
        for lead in batch:
            address_id = None
            if lead["street"]:
                seq += 1
                address_id = str(uuid.uuid4())
                db.execute("INSERT INTO campaign_addresses VALUES (?,?,?,?,?,?,?,?,?,NULL,?,'import_list',?)",
                           (address_id, campaign, lead["street"], lead["formatted"], lead["house"], lead["street_name"], lead["city"],
                            lead["state"], lead["zip"], seq, now))
            contact_id = str(uuid.uuid4())
            db.execute("INSERT INTO contacts VALUES (?,?,?,?,?,?,?,?,'new',?,?,?)",
                       (contact_id, "u", lead["name"], lead["phone"], lead["email"], lead["formatted"], campaign, address_id, lead["notes"], now, now))
            content = hashlib.sha1(repr(sorted(lead.items())).encode()).hexdigest()
            db.execute("INSERT INTO leadport_ledger VALUES (?,?,?,?,?,?,?) ON CONFLICT (destination, dedupe_key) DO UPDATE SET remote_id = excluded.remote_id",
                       ("sqlite:" + db_path, lead["key"], contact_id + ("|a:" + address_id if address_id else ""), content, run_id, lead["row"], now))
        db.execute("COMMIT")
        batch.clear()

    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        next(reader)  # the title row
        header = next(reader)
        col = {name: k for k, name in enumerate(header)}
        for row_number, row in enumerate(reader, start=3):
            cell = lambda name: row[col[name]] if col[name] < len(row) else ""
            given, family = split_name(cell("Owner Name"))
            email, _ = clean_email(cell("Email"))
            phone = phone_e164(cell("Phone")) or phone_e164(cell("Mobile"))
            state = state_code(cell("State"))
            zipcode = repair_zip(cell("Zip"), state)
            street = parse_street(cell("Property Address")) if cell("Property Address") else None
            parse_date(cell("Signed Up"))
            name = " ".join(p for p in (given, family) if p) or None
            if not (name or email or phone or street):
                counts["rejected"] += 1
                continue
            city = cell("City").upper() or None
            line, street_name, unit = street if street else (None, None, None)
            formatted = ", ".join(p for p in (line, city, " ".join(p for p in (state, zipcode) if p)) if p) or None
            if email:
                key = "email:" + email.lower()
            elif phone:
                key = "phone:" + phone + "|" + (family or "").lower()
            elif line:
                key = "address:" + street_name + (" #" + unit if unit else "") + "|" + (zipcode or city or "")
            else:
                key = "row:%d" % row_number
            if key in seen:
                counts["skipped"] += 1
                continue
            seen[key] = row_number
            batch.append({"name": name or email or phone or line, "phone": phone, "email": email, "street": line, "street_name": street_name,
                          "house": line.split()[0] if line else None, "city": city, "state": state, "zip": zipcode, "formatted": formatted,
                          "notes": cell("Notes") or None, "key": key, "row": row_number})
            counts["created"] += 1
            if len(batch) >= 5000:
                flush()
    flush()
    rows = sum(counts.values())
    print(f"rows={rows} created={counts['created']} skipped={counts['skipped']} rejected={counts['rejected']}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
