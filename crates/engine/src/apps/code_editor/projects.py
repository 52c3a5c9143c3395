"""The small projects the code_editor tasks open in Geany (imported by make_tasks.py)."""

INVENTORY = {
    "projects/inventory/inventory/__init__.py": '"""Inventory tool: items, stock statistics and reports."""\n\n__version__ = "1.4.0"\n',
    "projects/inventory/inventory/models.py": '''"""Data model of the inventory tool."""


class Item:
    def __init__(self, sku, name, qty, price):
        self.sku = sku
        self.name = name
        self.qty = qty
        self.price = price

    def value(self):
        return self.qty * self.price

    def __repr__(self):
        return "Item(%r, %r, qty=%d)" % (self.sku, self.name, self.qty)
''',
    "projects/inventory/inventory/stats.py": '''"""Summary statistics over inventory items."""


def total_value(items):
    total = 0
    for item in items:
        total += item.value()
    return total


def average_price(items):
    if not items:
        return 0
    return sum(item.price for item in items) / len(items)


def low_stock(items, threshold=5):
    return [item for item in items if item.qty < threshold]
''',
    "projects/inventory/inventory/report.py": '''"""Plain-text stock reports."""

from inventory.stats import total_value, low_stock

API_URL = "http://inventory.example.test/api"


def summary(items):
    lines = ["Items: %d" % len(items)]
    lines.append("Stock value: %.2f" % total_value(items))
    for item in low_stock(items):
        print("low:", item)
        lines.append("Reorder: %s" % item.name)
    return "\\n".join(lines)


def upload(items):
    return {"url": API_URL + "/reports", "body": summary(items)}
''',
    "projects/inventory/README.md": "# inventory 1.4.0\n\nA small stock-keeping tool. Reports are uploaded to http://inventory.example.test/api.\n",
}

WEATHER = {
    "projects/weather/weather/__init__.py": '"""Weather helpers."""\n',
    "projects/weather/weather/convert.py": '''"""Unit conversions."""


def c_to_f(celsius):
    return celsius * 9 / 5 + 32


def f_to_c(fahrenheit):
    return (fahrenheit - 32) * 5 / 9


def kmh_to_ms(kmh):
    return kmh / 3.6
''',
    "projects/weather/weather/fetch.py": '''"""Fetching forecasts from the weather service."""

from weather.convert import c_to_f

BASE_URL = "http://api.weather.test/v1"
TIMEOUT = 10


def forecast_url(city, days):
    return "%s/forecast?city=%s&days=%d" % (BASE_URL, city, days)


def daily_highs(readings):
    highs = []
    for i in range(len(readings)):
        highs.append(c_to_f(max(readings[i])))
    return highs
''',
    "projects/weather/weather/cli.py": '''"""Command-line entry point."""

import sys

from weather.fetch import forecast_url, BASE_URL


def main(argv):
    city = argv[1] if len(argv) > 1 else "Oslo"
    print("service:", BASE_URL)
    print(forecast_url(city, 3))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
''',
}

SITE = {
    "projects/site/index.html": '''<!doctype html>
<html>
<head><title>Harbor Bakery</title><link rel="stylesheet" href="style.css"></head>
<body>
<nav class="top-nav"><a href="index.html">Home</a> <a href="about.html">About</a></nav>
<h1 class="headline">Harbor Bakery</h1>
<p class="intro">Fresh bread every morning since 2009.</p>
<script src="app.js"></script>
</body>
</html>
''',
    "projects/site/about.html": '''<!doctype html>
<html>
<head><title>About - Harbor Bakery</title><link rel="stylesheet" href="style.css"></head>
<body>
<nav class="top-nav"><a href="index.html">Home</a> <a href="about.html">About</a></nav>
<h1 class="headline">About us</h1>
<p>Open Monday to Saturday, 7:00-15:00. Call 555-0142.</p>
</body>
</html>
''',
    "projects/site/style.css": '''.top-nav {
\tbackground: #223344;
\tpadding: 8px;
}

.headline {
\tfont-size: 32px;
\tcolor: #223344;
}
''',
    "projects/site/app.js": '''// Opening hours banner.
function isOpen(hour) {
  return hour >= 7 && hour <= 15;
}

function banner(hour) {
  if (isOpen(hour)) {
    return "We are open";
  }
  return "We are closed";
}
''',
}
