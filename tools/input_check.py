"""Checks of the report tools' input files before anything is drawn or written.

A hand-edited g500 JSON or CSV can hold a string where a number belongs, a list where an object
belongs, NaN, a number no run can give or a negative count. The tools check every field they read
against a small schema first, so such a file is one line naming the file and the field, e.g.

  run.json: roots[0].levels[3].time_s is a string, expected a number

raised as InputError, instead of a traceback after half of the pictures were written.

Schemas: Number(min, max), Count(min, max) (a whole number), Text(), Word() (a name that can
be part of a file name), Flag(), ListOf(schema), Record({key: schema}, required=(keys...)). Numbers are finite and of magnitude at most
LARGEST_NUMBER, counts at most LARGEST_COUNT: nothing a run writes comes near either, and both keep
the arithmetic of the pictures finite.
"""
import csv
import math
import re

LARGEST_NUMBER = 1e30   # TEPS, seconds, bytes: far beyond any run, far below float overflow
LARGEST_COUNT = 2 ** 53  # vertices, edges, ranks: exact as floats


class InputError(Exception):
    """One line: the file, the field and what is wrong with it."""


def _kind(value):
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null" if value is None else type(value).__name__


class Number:
    def __init__(self, min=-LARGEST_NUMBER, max=LARGEST_NUMBER):
        self.min, self.max = min, max

    def check(self, value, where):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{where} is {_kind(value)}, expected a number"
        try:
            number = float(value)
        except OverflowError:
            return f"{where} is a number too large to use (expected {self.min:g} to {self.max:g})"
        if math.isnan(number):
            return f"{where} is NaN, expected a number"
        if math.isinf(number):
            return f"{where} is infinite, expected a number from {self.min:g} to {self.max:g}"
        if not self.min <= number <= self.max:
            return f"{where} is {number:g}, expected a number from {self.min:g} to {self.max:g}"
        return None


class Count:
    def __init__(self, min=0, max=LARGEST_COUNT):
        self.min, self.max = min, max

    def check(self, value, where):
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # JSON writers may print 3.0 for 3
        if isinstance(value, bool) or not isinstance(value, int):
            kind = "a fractional or non-finite number" if isinstance(value, float) else _kind(value)
            return f"{where} is {kind}, expected a whole number"
        if not self.min <= value <= self.max:
            shown = str(value) if abs(value) < 10 ** 30 else "a number of " + str(len(str(abs(value)))) + " digits"
            return f"{where} is {shown}, expected a whole number from {self.min} to {self.max}"
        return None


class Text:
    def check(self, value, where):
        return None if isinstance(value, str) else f"{where} is {_kind(value)}, expected a string"


class Word:
    """A name from a file that becomes part of an output file name: no '/', no '..', no spaces."""
    PATTERN = re.compile(r"[A-Za-z0-9_:+-][A-Za-z0-9_.:+-]{0,63}")

    def check(self, value, where):
        if not isinstance(value, str):
            return f"{where} is {_kind(value)}, expected a name"
        if not self.PATTERN.fullmatch(value):
            return f"{where} is not a name (expected up to 64 letters, digits and . _ : + -, not starting with .)"
        return None


class Flag:
    def check(self, value, where):
        return None if isinstance(value, bool) else f"{where} is {_kind(value)}, expected true or false"


class ListOf:
    def __init__(self, item, min_items=0):
        self.item, self.min_items = item, min_items

    def check(self, value, where):
        if not isinstance(value, list):
            return f"{where} is {_kind(value)}, expected a list"
        if len(value) < self.min_items:
            return f"{where} has {len(value)} items, expected at least {self.min_items}"
        for i, item in enumerate(value):
            problem = self.item.check(item, f"{where}[{i}]")
            if problem:
                return problem
        return None


class Record:
    """An object whose listed keys have these schemas (other keys are not read, so not checked)."""

    def __init__(self, fields, required=()):
        self.fields, self.required = fields, required

    def check(self, value, where):
        if not isinstance(value, dict):
            return f"{where} is {_kind(value)}, expected an object"
        for key in self.required:
            if key not in value:
                return f"{where + '.' if where else ''}{key} is missing"
        for key, schema in self.fields.items():
            if key in value:
                problem = schema.check(value[key], f"{where + '.' if where else ''}{key}")
                if problem:
                    return problem
        return None


def check_json(path, data, schema):
    """Raises InputError when `data` (read from `path`) does not match `schema`."""
    problem = schema.check(data, "")
    if problem:
        raise InputError(f"{path}: {problem.strip() or 'the file'}")


def read_csv_rows(path, columns):
    """The rows of a CSV file as dicts, every column of `columns` ({name: schema of Number, Count
    or Text}) present and its cells converted; InputError names the file, line and column."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            missing = [c for c in columns if c not in (reader.fieldnames or [])]
            if missing:
                raise InputError(f"{path}: no column {', '.join(missing)} in the header "
                                 f"(expected {','.join(columns)})")
            rows = []
            for row in reader:
                line = reader.line_num
                converted = dict(row)
                for name, schema in columns.items():
                    cell = row[name]
                    if cell is None:
                        raise InputError(f"{path}:{line}: the row has no {name} field")
                    value = cell if isinstance(schema, (Text, Word)) else _cell_number(cell)
                    problem = schema.check(value, f"{name} '{cell[:40]}'")
                    if problem:
                        raise InputError(f"{path}:{line}: {problem}")
                    converted[name] = value
                rows.append(converted)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    except (csv.Error, UnicodeDecodeError) as e:
        raise InputError(f"{path}: not a CSV file ({e})") from None
    return rows


def _cell_number(text):
    """A CSV cell as int or float; any other text stays a string (and is refused by the schema)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text
