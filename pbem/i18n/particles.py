"""Korean particles that take their form from the word before them: 을/를, 이/가, 은/는, 으로/로, 이라/라.

The Korean catalogue writes both forms after a placeholder ("%(tool)s을(를)"), since it cannot know the word. Once
the word is in the sentence, `with_particles` picks the form its last sound asks for: "랜턴이", "곡괭이를",
"3명으로". A word whose last sound its letters do not tell (a Latin name, an email address) keeps both forms, as a
Korean reader expects of software.
"""

from __future__ import annotations

import re
from typing import TypeVar

from markupsafe import Markup

# The word's last letter, what may close it before the particle (a tag, a quote, a bracket), and the particle.
_PARTICLE = re.compile(
    r"(?P<last>[가-힣0-9])(?P<closing>(?:</[a-z]+>|['’”\"」』)\]])*)"
    r"(?P<particle>을\(를\)|이\(가\)|은\(는\)|\(으\)로|\(이\)라)"
)
# (after a final consonant, after a vowel)
_FORMS = {"을(를)": ("을", "를"), "이(가)": ("이", "가"), "은(는)": ("은", "는"), "(이)라": ("이라", "라")}
# Digits read as Sino-Korean numbers: 영 일 이 삼 사 오 육 칠 팔 구; a last 0 of a larger number is 십, 백, 천 or
# 만, each ending in a consonant other than ㄹ.
_DIGIT_FINALS = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ", "9": ""}
_RIEUL = 8  # ㄹ among the 28 final consonants of a Hangul syllable (0: none)

Text = TypeVar("Text", str, Markup)


def with_particles(text: Text) -> Text:
    """`text` with each double particle after a Hangul syllable or a digit in the one form that word takes."""
    if "(" not in text:
        return text
    chosen = _PARTICLE.sub(_choose, str(text))
    return Markup(chosen) if isinstance(text, Markup) else chosen


def _choose(found: re.Match[str]) -> str:
    final, rieul = _final_sound(found["last"])
    particle = found["particle"]
    if particle == "(으)로":
        form = "으로" if final and not rieul else "로"  # a word ending in ㄹ takes 로, like a vowel
    else:
        after_consonant, after_vowel = _FORMS[particle]
        form = after_consonant if final else after_vowel
    return found["last"] + found["closing"] + form


def _final_sound(letter: str) -> tuple[bool, bool]:
    """Whether `letter` ends in a consonant, and whether that consonant is ㄹ."""
    if letter.isdigit():
        final = _DIGIT_FINALS[letter]
        return bool(final), final == "ㄹ"
    consonant = (ord(letter) - ord("가")) % 28
    return consonant != 0, consonant == _RIEUL
