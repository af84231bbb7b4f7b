"""A messy lead list for the import benchmark (seeded; the same bytes every run): names in
every shape (SMITH, JOHN A; couples; particles; ALL CAPS), emails with mailto:, display names,
misspelt domains and invalid ones, phones in ten shapes including Excel's 2.01555E+09 and
2015550123.0, one-line US addresses with units and directionals, state names, ZIPs that lost
their leading zero or their dash, dates in three forms, about 5% duplicates and 2% bad rows.

    python3 bench/messy.py OUT.csv [ROWS]
"""
import random
import sys

FIRST = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "David", "Elizabeth", "José", "Zoë", "DeShawn", "Renée"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "O'Neil", "McDonald", "de la Cruz", "van der Berg"]
STREETS = ["Main Street", "North Main St", "Oak Avenue", "Elm St", "Maple Drive", "Cedar Lane", "Pine Road", "Washington Boulevard",
           "Lake Shore Dr", "W 59th St", "Park Ave SE", "Harbor Way"]
UNITS = ["", "", "", "Apt 4", "Unit 5B", "#12", "Suite 200", "Apt. 3"]
PLACES = [("Boston", "MA", "02134"), ("Cambridge", "Massachusetts", "02139"), ("Hartford", "CT", "06103"), ("Newark", "New Jersey", "07102"),
          ("Austin", "TX", "78701"), ("Denver", "CO", "80202"), ("Miami", "FL", "33101"), ("Seattle", "WA", "98101"),
          ("Portland", "ME", "04101"), ("Phoenix", "AZ", "85001")]
DOMAINS = ["gmail.com", "yahoo.com", "outlook.com", "example.com", "icloud.com", "gmial.com", "hotmial.com", "comcast.net"]
HEADER = ["Owner Name", "Email", "Phone", "Mobile", "Property Address", "City", "State", "Zip", "Signed Up", "Notes"]


def name(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    shape = rng.randrange(6)
    if shape == 0:
        return f"{last.upper()}, {first.upper()} {rng.choice('ABCDEFGH')}"
    if shape == 1:
        return f"{first} & {rng.choice(FIRST)} {last}"
    if shape == 2:
        return f"Dr. {first} {last} Jr."
    if shape == 3:
        return f"{first.upper()} {last.upper()}"
    return f"{first} {last}"


def email(rng, i, full):
    local = "".join(c for c in full.lower() if c.isalpha())[:12] + str(i)
    domain = rng.choice(DOMAINS)
    shape = rng.randrange(8)
    if shape == 0:
        return f"mailto:{local}@{domain.upper()}"
    if shape == 1:
        return f"{full} <{local}@{domain}>"
    if shape == 2:
        return f" {local}@{domain}. "
    if shape == 3 and i % 7 == 0:
        return f"{local}.{domain}"  # no @
    return f"{local}@{domain}"


def phone(rng):
    area, line = rng.choice(["617", "508", "201", "212", "303", "415"]), f"{rng.randint(0, 9999):04d}"
    number = f"{area}{rng.randint(200, 999)}{line}"
    shape = rng.randrange(10)
    return [f"({number[:3]}) {number[3:6]}-{number[6:]}", f"{number[:3]}.{number[3:6]}.{number[6:]}", f"+1 {number[:3]} {number[3:6]} {number[6:]}",
            f"{number}.0", f"{number[0]}.{number[1:]}E+09", f"{number[:3]}-{number[3:6]}-{number[6:]} x{rng.randint(1, 99)}",
            number, f"1-{number[:3]}-{number[3:6]}-{number[6:]}", f"{number[:3]} {number[3:6]} {number[6:]}", "call me"][shape]


def row(rng, i):
    full = name(rng)
    city, state, zipc = rng.choice(PLACES)
    unit = rng.choice(UNITS)
    street = f"{rng.randint(1, 9999)} {rng.choice(STREETS)}" + (f" {unit}" if unit else "")
    z = rng.randrange(5)
    zip_text = zipc.lstrip("0") if z == 0 else (zipc + f"{rng.randint(0, 9999):04d}" if z == 1 else zipc)
    d = rng.randrange(3)
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    date = [f"{month:02d}/{day:02d}/2024", f"2024-{month:02d}-{day:02d}", str(45292 + rng.randint(0, 365))][d]
    return [full, email(rng, i, full), phone(rng), phone(rng) if i % 3 == 0 else "", street, city, state, zip_text, date,
            rng.choice(["", "Call after 5pm", "Wants 3BR, near schools", "=HYPERLINK(\"x\")"])]


def main(path, rows):
    import csv
    rng = random.Random(7)
    previous = []
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Spring farm list — exported 2024-05-02"])
        w.writerow(HEADER)
        for i in range(rows):
            if previous and i % 20 == 0:
                w.writerow(rng.choice(previous))  # a duplicate of an earlier row
                continue
            if i % 50 == 0:
                w.writerow(["", "not-an-email", "call me", "", "", "", "", "", "", "nothing usable"])
                continue
            r = row(rng, i)
            if len(previous) < 1000:
                previous.append(r)
            w.writerow(r)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000)
