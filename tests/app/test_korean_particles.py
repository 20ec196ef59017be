"""Korean particles take the form the word before them asks for, once the word is in the sentence: 을/를, 이/가,
은/는, 으로/로, 이라/라; a word whose sound its letters do not tell keeps both forms."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2 import Environment
from markupsafe import Markup

from pbem.i18n import gettext, in_language, install_translations
from pbem.i18n.particles import with_particles

pytestmark = pytest.mark.usefixtures("compiled_catalogues")


@pytest.mark.parametrize(("written", "read"), [
    ("곡괭이을(를) 부쉈어요", "곡괭이를 부쉈어요"),  # a vowel at the end
    ("랜턴이(가) 부서져서", "랜턴이 부서져서"),  # a consonant at the end
    ("지도은(는)", "지도는"),
    ("집(으)로", "집으로"),
    ("서울(으)로", "서울로"),  # ㄹ takes 로, like a vowel
    ("민수(이)라는", "민수라는"),
    ("준(이)라는", "준이라는"),
    ("3명(으)로", "3명으로"),
    ("0이(가) 아니라", "0이 아니라"),  # 영
    ("2을(를)", "2를"),  # 이
    ("7(으)로", "7로"),  # 칠
    ("10을(를)", "10을"),  # 십
    ("‘민수’은(는)", "‘민수’는"),  # the quote closes the word
    ("<strong>수레</strong>을(를)", "<strong>수레</strong>를"),  # so does a tag
])
def test_a_double_particle_takes_the_form_of_the_word_before_it(written: str, read: str) -> None:
    assert with_particles(written) == read


@pytest.mark.parametrize("written", ["Ann을(를)", "ann@example.org(으)로", "(으)로 시작", "괄호 (설명) 안"])
def test_a_word_whose_sound_the_letters_do_not_tell_keeps_both_forms(written: str) -> None:
    assert with_particles(written) == written


def ends_in_consonant(word: str) -> tuple[bool, bool]:
    """The last syllable's final consonant, read from its Unicode decomposition (jamo), and whether it is ㄹ."""
    jamo = unicodedata.normalize("NFD", word[-1])
    final = jamo[-1] if len(jamo) == 3 else None
    return final is not None, final == "\u11af"


@given(st.text(st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3), min_size=1, max_size=4),
       st.sampled_from(["을(를)", "이(가)", "은(는)", "(으)로", "(이)라"]))
def test_every_hangul_word_gets_exactly_the_form_its_last_sound_asks_for(word: str, particle: str) -> None:
    consonant, rieul = ends_in_consonant(word)
    expected = {
        "을(를)": "을" if consonant else "를",
        "이(가)": "이" if consonant else "가",
        "은(는)": "은" if consonant else "는",
        "(으)로": "으로" if consonant and not rieul else "로",
        "(이)라": "이라" if consonant else "라",
    }[particle]

    assert with_particles(f"{word}{particle} 끝") == f"{word}{expected} 끝"


def test_markup_stays_markup_and_escaped() -> None:
    finished = with_particles(Markup("<b>곡괭이</b>을(를) &amp; 더"))

    assert isinstance(finished, Markup)
    assert finished == Markup("<b>곡괭이</b>를 &amp; 더")


def test_a_korean_sentence_from_the_catalogue_is_finished_and_other_languages_are_untouched() -> None:
    with in_language("ko"):
        korean = gettext("You broke your %(tool)s.", tool="곡괭이")
    with in_language("en"):
        english = gettext("You broke your %(tool)s.", tool="곡괭이을(를)")

    assert korean == "내 곡괭이를 부쉈어요."
    assert english == "You broke your 곡괭이을(를)."


def test_a_template_sentence_is_finished_after_jinja_fills_in_and_escapes_the_values() -> None:
    environment = Environment(autoescape=True)
    install_translations(environment)
    template = environment.from_string(
        '{{ _("You broke your %(tool)s.", tool=tool) }} {% trans tool=tool %}You broke your {{ tool }}.{% endtrans %}'
    )

    with in_language("ko"):
        drawn = template.render(tool="랜턴")
        escaped = template.render(tool="<i>")

    assert drawn == "내 랜턴을 부쉈어요. 내 랜턴을 부쉈어요."
    assert "&lt;i&gt;" in escaped and "<i>" not in escaped
