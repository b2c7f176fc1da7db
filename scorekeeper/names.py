"""How player names are compared: the one rule (rules.md, "Player names") that the
engine's checks, the history search, the known-players list and the stats all use.

Two names are the same after NFKC normalisation and case folding, ignoring invisible
characters; a name made only of invisible characters and spaces is empty. The stored
name keeps every character (a zero-width joiner inside an emoji stays): invisible
characters are only left out when comparing.
"""
from __future__ import annotations

import bisect
import functools
import json
import unicodedata

# Unicode's Default_Ignorable_Code_Point, from DerivedCoreProperties.txt
# (https://www.unicode.org/Public/UCD/latest/ucd/DerivedCoreProperties.txt), as
# inclusive (first, last) ranges. Python's unicodedata has no such property; this
# table was checked code point by code point against Perl's \p{Default_Ignorable_Code_Point}.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE, ZW NON-JOINER, ZW JOINER, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # WORD JOINER, invisible operators, bidi isolates, deprecated format characters
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1..16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE (byte order mark)
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT controls
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM..END PHRASE
    (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17..256, reserved
)
_STARTS = [first for first, _ in DEFAULT_IGNORABLE]


def is_invisible(ch: str) -> bool:
    """True for a Default_Ignorable_Code_Point character."""
    code = ord(ch)
    index = bisect.bisect_right(_STARTS, code) - 1
    return index >= 0 and code <= DEFAULT_IGNORABLE[index][1]


def without_invisible(text: str) -> str:
    return "".join(ch for ch in text if not is_invisible(ch))


def same_name(name: str) -> str:
    """What two names are compared by: "Zoë" typed either way, "ANN" and "ann", "Ann"
    and "Ann" with a zero-width space or a soft hyphen are one name. (Unicode's
    NFKC_Casefold, which also drops default-ignorable characters.)"""
    # A table's names are folded on every save (its summary and stats rows): kept, but
    # only names short enough to be someone's, so nothing posted can fill the memory.
    return _kept_fold(name) if len(name) <= 100 else _fold(name)


def _fold(name: str) -> str:
    folded = unicodedata.normalize("NFKC", without_invisible(name)).casefold()
    # case folding can undo NFKC ("ǅ" folds apart); normalise again so the key is stable
    return without_invisible(unicodedata.normalize("NFKC", folded))


_kept_fold = functools.lru_cache(maxsize=4096)(_fold)


def clean_name(name: str) -> str:
    """A name as it is stored: NFC-normalised and trimmed, every character kept."""
    return unicodedata.normalize("NFC", name).strip()


def is_empty(name: str) -> bool:
    """Nothing anyone could read: only spaces and invisible characters (format
    controls such as U+FFF9 count too: they show nothing on their own)."""
    return all(ch.isspace() or is_invisible(ch) or unicodedata.category(ch) == "Cf" for ch in name)


def visible(name: str) -> str:
    """A name in quotes for a message, as JSON writes it but with its invisible
    characters as escapes ("Ann\\u200b"), so two names that look alike on screen can
    be told apart."""
    return "".join(_escaped(ch) for ch in json.dumps(name, ensure_ascii=False))


def _escaped(ch: str) -> str:
    if not (is_invisible(ch) or unicodedata.category(ch) in ("Cf", "Cs")):
        return ch
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # as JSON writes it: a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
