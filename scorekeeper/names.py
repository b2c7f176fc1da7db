"""Player names: the one rule (rules.md, "Player names") that the engine's checks, the
forms, import, the history search, the known-players list and the stats all use.

Two names are the same when, once their invisible characters are left out and the spaces
then at either end trimmed, they agree after NFKC normalisation and case folding; a name
made only of invisible characters and spaces (the blank braille cell counts as a space)
is empty; a name may not hold a character that would reorder or break the text around it.
The stored name keeps every character (a zero-width joiner inside an emoji stays):
invisible characters are only left out when comparing.
"""
from __future__ import annotations

import bisect
import functools
import json
import re
import unicodedata
from collections.abc import Iterable

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


# U+2800, the blank braille cell, shows as a space but is a symbol to Unicode (and to
# str.isspace): the rules count it as a space.
BLANK_BRAILLE = "\u2800"


def is_space(ch: str) -> bool:
    return ch.isspace() or ch == BLANK_BRAILLE


def trimmed(text: str) -> str:
    """``text`` without the spaces at either end (the blank braille cell is one)."""
    start, end = 0, len(text)
    while start < end and is_space(text[start]):
        start += 1
    while end > start and is_space(text[end - 1]):
        end -= 1
    return text[start:end]


def same_name(name: str) -> str:
    """What two names are compared by: "Zoë" typed either way, "ANN" and "ann", "Ann"
    and "Ann" with a zero-width space or a soft hyphen, "Ann \u200b" and "\u200b Ann" are
    one name. (Unicode's NFKC_Casefold, which also drops default-ignorable characters,
    with the spaces those leave at either end trimmed before it.)"""
    # A table's names are folded on every save (its summary and stats rows): kept, but
    # only names short enough to be someone's, so nothing posted can fill the memory.
    return _kept_fold(name) if len(name) <= 100 else _fold(name)


def _fold(name: str) -> str:
    # In the rules' order: invisible characters out, then the spaces that leaves at
    # either end ("Ann \u200b" is "Ann"), then NFKC and case folding.
    folded = unicodedata.normalize("NFKC", trimmed(without_invisible(name))).casefold()
    # case folding can undo NFKC ("ǅ" folds apart); normalise again so the key is stable
    return without_invisible(unicodedata.normalize("NFKC", folded))


_kept_fold = functools.lru_cache(maxsize=4096)(_fold)


def clean_name(name: str) -> str:
    """A name as it is stored: NFC-normalised and trimmed, every character kept."""
    return unicodedata.normalize("NFC", name).strip()


def is_blank(ch: str) -> bool:
    """Shows nothing on its own: a space or an invisible character (format controls
    such as U+FFF9 count too)."""
    return is_space(ch) or is_invisible(ch) or unicodedata.category(ch) == "Cf"


def is_empty(name: str) -> bool:
    """Nothing anyone could read: only spaces and invisible characters."""
    return all(is_blank(ch) for ch in name)


def forbidden(ch: str) -> str:
    """Why a name may not hold ``ch``, in words ("" when it may): control characters,
    line and paragraph separators and the bidirectional embedding, override and isolate
    controls would break or reorder the text around the name (the marks U+200E, U+200F
    and U+061C only steer the name's own text, so they are allowed)."""
    code = ord(ch)
    what = f"U+{code:04X} ({unicodedata.name(ch, 'a control character').lower()})"
    if 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
        return f"bidirectional controls: {what} would reorder the text around it"
    if code in (0x2028, 0x2029) or unicodedata.category(ch) == "Cc":
        return f"line breaks, control characters or broken text: {what}"
    if unicodedata.category(ch) == "Cs":  # a lone surrogate: JSON can carry one, UTF-8 cannot
        return f"line breaks, control characters or broken text: U+{code:04X} (half of a character)"
    return ""


MAX_LENGTH = 40


def read_name(typed: str) -> tuple[str, str, str]:
    """A typed name as stored (NFC, trimmed), what it is compared by, and what is wrong
    with it on its own ("" when nothing is)."""
    # Every replay checks its players' names, and a table's names are the same from hand
    # to hand: reading them character by character was a tenth of a save. Only a name short
    # enough to be someone's is kept (a longer one is refused anyway): keeping whatever is
    # posted or imported would let anyone fill the server's memory.
    return _read_name(typed) if len(typed) > 100 else _kept_name(typed)


def _read_name(typed: str) -> tuple[str, str, str]:
    name = clean_name(typed)
    key = same_name(name)
    return name, key, _wrong(name)


_kept_name = functools.lru_cache(maxsize=4096)(_read_name)


def _wrong(name: str) -> str:
    if not name:
        return "a name cannot be empty"
    if is_empty(name):
        return f"a name cannot be empty: {visible(name)} holds only invisible characters"
    if len(name) > MAX_LENGTH:
        return f"a name is at most {MAX_LENGTH} characters, got {len(name)}"
    for ch in name:
        what = forbidden(ch)
        if what:
            return f"a name cannot hold {what}, got {visible(name)}"
    return ""


def visible(name: str) -> str:
    """A name in quotes for a message, as JSON writes it but with its invisible
    characters (and any space but the plain one, and every character a name may not
    hold) as escapes ("Ann\\u200b"), so two names that look alike on screen can be told
    apart, and the message reads in its own order."""
    return "".join(_escaped(ch) for ch in json.dumps(name, ensure_ascii=False))


def _escaped(ch: str) -> str:
    if not (is_invisible(ch) or unicodedata.category(ch) in ("Cf", "Cs", "Cc", "Zl", "Zp", "Zs")
            or ch == BLANK_BRAILLE) or ch == " ":
        return ch
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # as JSON writes it: a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


# --- a name shown among other words -----------------------------------------------------
# Unicode's isolates: FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE. Between them a name
# takes its own direction from its first letter and counts as one neutral character to the
# text around it, so a right-to-left name never reorders a sentence or the score after it.
FSI, PDI = "\u2068", "\u2069"


def isolated(name: str) -> str:
    """A name for plain text (the share line, the save notice, a terminal, a sentence on a
    page): isolated from the words and numbers around it. A name without a right-to-left
    character cannot reorder the app's left-to-right sentences (its digits and marks take
    the direction of the words before them, as the isolates would), so it is left as it
    is: a copied line carries no invisible characters it does not need."""
    return f"{FSI}{name}{PDI}" if needs_isolating(name) else name


# Bidi classes that can reorder left-to-right text: right-to-left letters (Hebrew R,
# Arabic AL), Arabic digits (AN), and the explicit embeddings, overrides and isolates
# (refused in a new name; a name stored before the rule may hold one).
REORDERING = frozenset(("R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"))


def needs_isolating(name: str) -> bool:
    return _needs_isolating(name) if len(name) <= 100 else True


@functools.lru_cache(maxsize=4096)
def _needs_isolating(name: str) -> bool:
    return any(unicodedata.bidirectional(ch) in REORDERING for ch in name)


def isolate_names(text: str, names: Iterable[str]) -> str:
    """``text`` (a sentence the engine or a game wrote, such as an explanation) with each
    of ``names`` in it isolated: where a name stands as a whole (not inside a longer word
    or name), not already isolated."""
    pattern = _names_pattern(tuple(names))
    if pattern is None:  # no name that needs it (every page of a left-to-right table)
        return text
    return pattern.sub(lambda m: isolated(m.group(0)), text)


@functools.lru_cache(maxsize=256)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    # longest first, so "Anne" is one name and not "Ann" and an "e"; a name stands alone
    # when no letter, digit or mark touches it, and is not yet inside an isolate
    wanted = sorted({n for n in names if n and FSI not in n and needs_isolating(n)}, key=len, reverse=True)
    if not wanted:
        return None
    alternatives = "|".join(re.escape(n) for n in wanted)
    return re.compile(rf"(?<![\w{FSI}])(?:{alternatives})(?![\w{PDI}])")
