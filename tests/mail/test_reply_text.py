"""The new words of a reply, as common mail programs write replies: quoted history, signatures, HTML, attachments."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from pbem.mail.reply_text import html_to_text, reply_text, strip_quoted

NEW = "I think Cat is the saboteur.\nShe broke my lamp twice!"


def plain(body: str, **params: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Ann <ann@example.org>"
    message["Subject"] = "Re: Test mine - Saboteur"
    message.set_content(body)
    for name, value in params.items():
        message.set_param(name, value)
    return message


@pytest.mark.parametrize(
    "history",
    [
        # Gmail, on one line and wrapped over two
        "On Mon, Jan 5, 2026 at 9:00 AM Saboteur <play+abc@replies.pbem.test> wrote:\n> Hello Ann,\n> It is your turn.",
        "On Mon, Jan 5, 2026 at 9:00 AM Saboteur <\nplay+abc@replies.pbem.test> wrote:\n\n> Hello Ann,",
        # Apple Mail and Thunderbird
        "> On 5 Jan 2026, at 09:00, Saboteur <play+abc@replies.pbem.test> wrote:\n>\n> Hello Ann,",
        "On 05/01/2026 09:00, Saboteur wrote:\n> Hello Ann,",
        # Outlook, desktop and web
        "-----Original Message-----\nFrom: Saboteur <play+abc@replies.pbem.test>\n"
        "Sent: Monday, January 5, 2026 9:00 AM\nTo: ann@example.org\nSubject: Test mine - Saboteur\n\nHello Ann,",
        "________________________________\nFrom: Saboteur <play+abc@replies.pbem.test>\nSent: Monday, 5 January 2026 "
        "09:00\nTo: Ann\nSubject: Test mine - Saboteur\n\nHello Ann,",
        "From: Saboteur <play+abc@replies.pbem.test>\nDate: Monday, 5 January 2026 at 09:00\nTo: Ann\n"
        "Subject: Test mine - Saboteur\n\nHello Ann,",
        # other languages
        "Le lun. 5 janv. 2026 à 09:00, Saboteur <play+abc@replies.pbem.test> a écrit :\n> Bonjour",
        "Am Mo., 5. Jan. 2026 um 09:00 Uhr schrieb Saboteur <play+abc@replies.pbem.test>:\n> Hallo",
        "El lun, 5 ene 2026 a las 9:00, Saboteur (<play+abc@replies.pbem.test>) escribió:\n> Hola",
    ],
)
def test_the_quoted_history_of_common_mail_programs_is_cut(history: str) -> None:
    assert reply_text(plain(f"{NEW}\n\n{history}\n")) == NEW


@pytest.mark.parametrize(
    "signature",
    [
        "-- \nAnn Example\nhttps://ann.example.org",
        "--\nAnn",
        "Sent from my iPhone",
        "Sent from my Galaxy",
        "Get Outlook for Android",
        "Sent from Outlook for iOS",
        "Envoyé de mon iPhone",
        "Von meinem iPhone gesendet",
    ],
)
def test_signatures_and_phone_footers_are_cut(signature: str) -> None:
    assert reply_text(plain(f"{NEW}\n\n{signature}\n\nOn Mon, Ben wrote:\n> earlier")) == NEW


def test_a_sent_from_line_in_the_middle_of_the_text_is_the_players_own() -> None:
    text = "Sent from my phone on the train, so briefly:\nCat did it."

    assert reply_text(plain(text)) == text


def test_an_answer_written_between_quoted_lines_keeps_the_answers() -> None:
    body = "> Ann, are you the saboteur?\nNo!\n> Then who?\nBen, obviously.\n"

    assert reply_text(plain(body)) == "No!\nBen, obviously."


def test_html_only_mail_becomes_text_without_its_quoted_part_or_markup() -> None:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message.set_content(
        '<html><head><style>p{color:red}</style><title>x</title></head><body>'
        '<div dir="ltr">I think <b>Cat</b> did it &amp; she knows.<br>'
        '<a href="https://evil.test/x">look here</a><img src="https://evil.test/p.png" alt="pic"></div><br>'
        '<div class="gmail_quote"><div class="gmail_attr">On Mon, Jan 5, 2026 at 9:00 AM Saboteur '
        '&lt;<a href="mailto:play+x@d">play+x@d</a>&gt; wrote:<br></div>'
        '<blockquote class="gmail_quote">Hello Ann<br>It is your turn</blockquote></div><script>alert(1)</script>'
        "</body></html>",
        subtype="html",
    )

    assert reply_text(message) == "I think Cat did it & she knows.\nlook here"


def test_outlook_html_stops_at_its_rule_and_header_block() -> None:
    html = (
        "<div>Agreed: Ben.</div><div id=\"appendonsend\"></div><hr style=\"display:inline-block;width:98%\">"
        '<div id="divRplyFwdMsg"><b>From:</b> Saboteur &lt;play+x@d&gt;<br><b>Sent:</b> Monday<br>'
        "<b>Subject:</b> Test mine</div><div>Hello Ann</div>"
    )

    assert strip_quoted(html_to_text(html)) == "Agreed: Ben."


def test_the_plain_part_is_preferred_and_attachments_are_never_read() -> None:
    message = plain(NEW)
    message.add_alternative("<p>The HTML part says something else.</p>", subtype="html")
    message.add_attachment(b"\x89PNG fake image bytes", maintype="image", subtype="png", filename="lamp.png")
    message.add_attachment("Attached notes: Cat is innocent.", filename="notes.txt")

    assert reply_text(message) == NEW


def test_flowed_text_is_joined_back_into_its_lines() -> None:
    message = plain("I think Cat is \nthe saboteur.\nReally.\n\n> quoted \n> text\n", format="flowed")

    assert reply_text(message) == "I think Cat is the saboteur.\nReally."


def test_a_wrong_charset_gives_replacement_characters_not_an_error() -> None:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["Content-Type"] = "text/plain; charset=no-such-charset"
    message["Content-Transfer-Encoding"] = "8bit"
    message.set_payload("Caf\xe9 au lait".encode("latin-1"))

    assert reply_text(message).startswith("Caf")


def test_only_quoted_text_leaves_nothing() -> None:
    assert reply_text(plain("On Mon, Jan 5, 2026 Saboteur wrote:\n> Hello Ann\n")) == ""


def test_a_message_without_any_text_body_leaves_nothing() -> None:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message.set_content(b"\x89PNG", maintype="image", subtype="png")

    assert reply_text(message) == ""
