"""The host's "new game" form: its fields, read from the request, with a message next to each bad field.

Policy fields are not listed here: they come from `dataclasses.fields(PolicyConfig)`, with their types and
metadata (minimum, maximum, label, help), and each value is checked by the configuration loader's own
checks, so a policy added to the configuration appears on the form and is validated the same way.
Nothing is created until every field is valid; the game service then has the last word (the engine
judges player counts and options).
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

from werkzeug.datastructures import MultiDict

import engine
from pbem import config as config_module
from pbem.addresses import address_key, address_mistake
from pbem.chance import Chance
from pbem.config import ConfigError, PolicyConfig
from pbem.errors import ValidationError
from pbem.i18n import gettext
from pbem.service.host.hosting import GameSettings
from pbem.service.text import reserved_name_problem
from pbem.service.turns.values import MAX_NAME, MAX_TITLE, PlayerSpec
from pbem.variants import MAX_DECK_BYTES, parse_deck, variant_choices
from pbem.words.options import OPTION_NOTES
from pbem.words.table import N_, NP_, Words

MAX_ROWS = 12
MAX_BOTS = 11
MAX_PLACES = 12
JOIN_MODES = ("link", "list")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a game's public id (pbem.models.games.new_public_id)

# Each policy in a host's words: the group it sits in on the form, its label, and one line on what it does and what
# its default means. A policy missing here still shows (under "The pace"), with the configuration's own name.
POLICY_TEXT: dict[str, tuple[str, str, str]] = {
    "deadline_hours": ("pace", N_("Time for each turn (hours)"),
                       N_("After this long the turn times out (see below). Empty: no deadline, the game waits.")),
    "timeout_policy": ("pace", N_("When a turn times out"),
                       N_("auto-pass: the game passes for the player (discarding a card). notify-host: the game "
                          "waits for you to decide.")),
    "reminder_delay_hours": ("pace", N_("First reminder after (hours)"),
                             N_("A player who has not moved after this long gets a reminder email.")),
    "reminder_interval_hours": ("pace", N_("Then a reminder every (hours)"), N_("The time between later reminders.")),
    "reminder_count": ("pace", N_("Reminders per turn"), N_("At most this many reminders for one turn (0: none).")),
    "warning_hours": ("pace", N_("Last warning before the deadline (hours)"),
                      N_("A final email this long before the deadline (0: no warning).")),
    "away_cap_days": ("pace", N_("Away time per player (days)"),
                      N_("A player may pause their own clock (holidays) for this many days in the whole game, "
                         "all spells together.")),
    "absent_after": ("pace", N_("Timeouts before a player counts as absent"),
                     N_("After this many timeouts in a row you are asked what to do about the seat.")),
    "quiet_hours": ("mail", N_("Players' nights (quiet hours)"),
                    N_("No email in these hours of each player's own time zone, like 22:00-08:00; a deadline that "
                       "falls in them moves to the morning. Empty: none. Players can set their own.")),
}
# The form's groups and their legends, in the reader's language where read (`groups()`).
GROUPS = (("table", N_("The table")), ("rules", N_("The rules")), ("pace", N_("The pace")), ("mail", N_("Mail")))
# The names of a policy's choices as the form shows them (the value sent stays the configuration's word).
CHOICE_WORDS = Words({"auto-pass": NP_("timeout policy", "auto-pass"), "notify-host": NP_("timeout policy",
                      "notify-host"), "bot": NP_("timeout policy", "bot")})
# The engine's options as the form names them (engine.OPTIONS), and the words of their values.
OPTION_LABELS = Words({
    "auto_pick_gold": N_("Auto pick gold"), "digger_gold_cards": N_("Digger gold cards"),
    "play_out_hands": N_("Play out hands"), "recap_private_moves": N_("Recap private moves"),
    "geologists_share_gold": N_("Geologists share gold"),
})
OPTION_VALUES = Words({"on": NP_("option", "on"), "off": NP_("option", "off"), "players": NP_("option", "players"),
                       "diggers": NP_("option", "diggers")})


def groups() -> list[tuple[str, str]]:
    """The form's groups, each with its legend in the reader's language."""
    return [(name, gettext(legend)) for name, legend in GROUPS]


@dataclass(frozen=True)
class PolicyField:
    """One policy as the form shows it."""

    name: str
    label: str
    help: str
    kind: str  # "choice", "number", "optional_number", "flag", "list", "text"
    choices: tuple[Any, ...]
    default: Any
    minimum: int | None
    maximum: int | None
    group: str = "pace"

    def shown(self, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, (tuple, list)):
            return ", ".join(str(item) for item in value)
        return str(value)

    def choice_label(self, choice: Any) -> str:
        """A choice as the form names it, in the reader's language (its value stays the configuration's)."""
        return CHOICE_WORDS[str(choice)] if str(choice) in CHOICE_WORDS else str(choice)


def policy_fields() -> list[PolicyField]:
    hints = typing.get_type_hints(PolicyConfig)
    defaults = PolicyConfig()
    found = []
    for item in dataclasses.fields(PolicyConfig):
        expected = hints[item.name]
        origin = typing.get_origin(expected)
        args = typing.get_args(expected)
        choices: tuple[Any, ...] = ()
        if origin is Literal:
            kind, choices = "choice", args
        elif origin in (typing.Union, types.UnionType) and type(None) in args:
            kind = "optional_number"
        elif expected is bool:
            kind = "flag"
        elif expected is int:
            kind = "number"
        elif origin is tuple:
            kind = "list"
        else:
            kind = "text"
        meta = item.metadata
        if item.name in POLICY_TEXT:
            group, label, help_text = POLICY_TEXT[item.name]
            label, help_text = gettext(label), gettext(help_text)
        else:
            group, label = "pace", meta.get("label", item.name.replace("_", " ").capitalize())
            help_text = meta.get("help", "")
        found.append(PolicyField(
            name=item.name,
            label=label,
            help=help_text,
            group=group,
            kind=kind,
            choices=choices,
            default=getattr(defaults, item.name),
            minimum=meta.get("minimum"),
            maximum=meta.get("maximum"),
        ))
    order = list(POLICY_TEXT)
    return sorted(found, key=lambda policy: order.index(policy.name) if policy.name in order else len(order))


def read_policy(policy: PolicyField, raw: str | None) -> Any:
    """The value a form field names, checked like the configuration file's; ValueError with the message."""
    text = (raw or "").strip()
    hints = typing.get_type_hints(PolicyConfig)
    metadata = {item.name: item.metadata for item in dataclasses.fields(PolicyConfig)}[policy.name]
    value: Any
    if policy.kind == "flag":
        return raw in ("on", "yes", "true", "1")
    if policy.kind == "optional_number":
        if text in ("", "none"):
            return None
        value = _whole(text)
    elif policy.kind == "number":
        value = _whole(text)
    elif policy.kind == "list":
        parts = [part.strip() for part in text.split(",") if part.strip()]
        item_type = (typing.get_args(hints[policy.name]) or (str,))[0]
        value = [_whole(part) for part in parts] if item_type is int else parts
    else:
        value = text
    _check_bounds(policy, value, metadata)
    try:
        checked = config_module._convert(policy.label, hints[policy.name], value, metadata)
    except ConfigError as exc:
        raise ValueError(_sentence(str(exc))) from None
    except TypeError:
        checked = value  # a type the loader reads differently; the game service checks the key
    return list(checked) if isinstance(checked, tuple) else checked


def _check_bounds(policy: PolicyField, value: Any, metadata: Any) -> None:
    """The configuration loader's checks of a number's bounds and of a choice, said in the reader's language
    (ValueError); the loader checks the rest."""
    minimum, maximum = metadata.get("minimum"), metadata.get("maximum")
    if isinstance(value, int) and not isinstance(value, bool):
        if minimum is not None and value < minimum:
            raise ValueError(gettext("%(label)s must be at least %(minimum)s, not %(value)s.", label=policy.label,
                                     minimum=minimum, value=value))
        if maximum is not None and value > maximum:
            raise ValueError(gettext("%(label)s must be at most %(maximum)s, not %(value)s.", label=policy.label,
                                     maximum=maximum, value=value))
    if policy.kind == "choice" and value not in policy.choices:
        raise ValueError(gettext("%(label)s must be one of %(choices)s, not %(value)s.", label=policy.label,
                                 choices=", ".join(map(repr, policy.choices)), value=repr(value)))


def _quiet_hours_problem(loader_words: str, text: Any) -> str:
    """What is wrong with the quiet hours typed, from the loader's words (pbem/times.py), in the reader's language."""
    if loader_words.startswith("quiet hours are written like"):
        return gettext("Quiet hours are written like 22:00-08:00, not %(value)s.", value=repr(text))
    if loader_words.startswith("quiet hours must start and end"):
        return gettext("Quiet hours must start and end at different times.")
    return _sentence(loader_words)


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(gettext("Please enter a whole number.")) from None


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")


@dataclass
class NewGameForm:
    """What the host typed, and the errors by field name (empty when valid)."""

    title: str = ""
    join: str = "link"  # "link": one invite link people join by; "list": the host types every player
    places: int = 4  # with an invite link: seats for people, the host's own included
    auto_start: bool = False
    players_may_rematch: bool = True
    host_timezone: str = "UTC"
    rows: list[tuple[str, str]] = field(default_factory=list)
    host_plays: bool = False
    host_name: str = ""
    bots: int = 0
    order: str = "listed"  # a list: "listed" or "shuffled"; a link: "joined" or "shuffled"
    variant: str = "base"
    policies: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)  # the engine's options that differ from its defaults
    deck: dict[str, Any] | None = None  # a Saboteur 2 host's own deck (TOML upload)
    # The table's channel: a URL typed (a secret: never written back into the form), or the channel of the host's
    # game this form was copied from (`keep_channel_of`, shown masked as `kept_channel`) kept when ticked.
    channel: str = ""
    keep_channel_of: str = ""
    keep_channel: bool = False
    kept_channel: str | None = None
    errors: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # hints next to a field that are not mistakes

    def engine_options(self) -> dict[str, Any] | None:
        chosen = dict(self.options)
        if self.deck is not None:
            chosen["deck"] = self.deck
        return chosen or None

    @property
    def valid(self) -> bool:
        return not self.errors

    def players(self, host_email: str, chance: Chance) -> list[PlayerSpec]:
        people = [PlayerSpec(name, email) for name, email in self.rows if name or email]
        if self.host_plays:
            people.insert(0, PlayerSpec(self.host_name, host_email))
        if self.order == "shuffled":
            people = chance.shuffled(people)
        return people + [PlayerSpec(f"Bot {number}", None, is_bot=True) for number in range(1, self.bots + 1)]


def blank_form() -> NewGameForm:
    return NewGameForm(rows=[("", "")] * 4, order="joined", policies={p.name: p.default for p in policy_fields()})


def copied_form(settings: GameSettings, host_email: str, game_id: str = "") -> NewGameForm:
    """The form filled from an earlier game: its title, rules, pace, players and (ticked, shown masked) its
    channel, ready to change and send."""
    people = list(settings.people)[:MAX_ROWS]
    return NewGameForm(
        title=settings.title, join="list", places=len(people) + (settings.host_name is not None),
        rows=people + [("", "")] * max(4 - len(people), 0), host_plays=settings.host_name is not None,
        host_name=settings.host_name or "", bots=settings.bots, order="listed", variant=settings.variant,
        policies={p.name: settings.policies.get(p.name, p.default) for p in policy_fields()},
        options=dict(settings.options),
        notes={"deck": gettext("The earlier game used your own deck: upload its file again to use it.")}
        if settings.had_own_deck else {},
        keep_channel_of=game_id if settings.channel else "", keep_channel=True, kept_channel=settings.channel,
    )


@dataclass(frozen=True)
class EngineOption:
    """One of the engine's game options (`engine.OPTIONS`): its values, the first being the default."""

    name: str
    label: str
    values: tuple[Any, ...]
    note: str = ""  # what the option changes, in the engine's words for a host
    variants: tuple[str, ...] = ()  # the variants it belongs to; empty: every variant

    def applies_to(self, variant: str) -> bool:
        return not self.variants or variant in self.variants

    def shown(self, value: Any) -> str:
        """The value as the form sends it back ("on", "off", "players")."""
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def value_label(self, value: Any) -> str:
        """The value as the form names it, in the reader's language."""
        shown = self.shown(value)
        return OPTION_VALUES[shown] if shown in OPTION_VALUES else shown


def engine_options() -> list[EngineOption]:
    return [EngineOption(name, OPTION_LABELS[name] if name in OPTION_LABELS else name.replace("_", " ").capitalize(),
                         tuple(values), OPTION_NOTES.get(name, ""), engine.OPTION_VARIANTS.get(name, ()))
            for name, values in engine.OPTIONS.items()]


def read_form(data: MultiDict[str, str], host_email: str, files: MultiDict[str, Any] | None = None) -> NewGameForm:
    form = NewGameForm()
    errors = form.errors
    form.title = " ".join(data.get("title", "").split())
    if not form.title:
        errors["title"] = gettext("Give the game a title.")
    elif len(form.title) > MAX_TITLE:
        errors["title"] = gettext("At most %(max)d characters.", max=MAX_TITLE)
    for index in range(MAX_ROWS):
        name = " ".join(data.get(f"name_{index}", "").split())
        email = data.get(f"email_{index}", "").strip()
        form.rows.append((name, email))
    form.join = data.get("join", "list")
    if form.join not in JOIN_MODES:
        errors["join"] = gettext("Choose how players join: by a link you share, or by the list you type.")
        form.join = "list"
    by_link = form.join == "link"
    form.host_plays = data.get("host_plays") == "yes"
    form.host_name = " ".join(data.get("host_name", "").split())
    form.host_timezone = (data.get("host_timezone") or "UTC").strip()[:64]
    form.channel = data.get("channel", "").strip()  # checked by the notification rules (the route asks them)
    keep_of = data.get("keep_channel_of", "").strip()
    form.keep_channel_of = keep_of if GAME_ID.fullmatch(keep_of) else ""
    form.keep_channel = data.get("keep_channel") == "yes"
    form.auto_start = data.get("auto_start") == "yes"
    form.players_may_rematch = data.get("players_may_rematch") == "yes"
    in_order = "joined" if by_link else "listed"
    raw_order = data.get("order", "in_order")
    form.order = in_order if raw_order in ("in_order", "listed", "joined") else raw_order
    orders = (in_order, "shuffled")
    if form.order not in orders:
        errors["order"] = (gettext("Choose the seat order: as people join, or shuffled at the start.") if by_link
                           else gettext("Choose the seat order: as listed, or shuffled."))
    try:
        form.places = int(data.get("places", "4") or "0")
        if by_link and not 1 <= form.places <= MAX_PLACES:
            raise ValueError
    except ValueError:
        errors["places"] = gettext("Choose 1 to %(max)d seats for people.", max=MAX_PLACES)
        form.places = 4
    form.variant = data.get("variant", "base")
    choices = {choice.name: choice for choice in variant_choices()}
    if form.variant not in choices:
        errors["variant"] = gettext("Unknown variant: choose one of %(choices)s.", choices=", ".join(choices))
    try:
        form.bots = int(data.get("bots", "0") or "0")
        if not 0 <= form.bots <= MAX_BOTS:
            raise ValueError
    except ValueError:
        errors["bots"] = gettext("Choose 0 to %(max)d computer players.", max=MAX_BOTS)
        form.bots = 0

    seen: dict[str, str] = {}
    names: dict[str, str] = {}
    if form.host_plays:
        if not form.host_name:
            errors["host_name"] = gettext("Your name at the table is needed when you play.")
        elif len(form.host_name) > MAX_NAME:
            errors["host_name"] = gettext("At most %(max)d characters.", max=MAX_NAME)
        elif reserved_name_problem(form.host_name):
            errors["host_name"] = reserved_name_problem(form.host_name) or ""
        seen[address_key(host_email)] = "host_name"
        names[form.host_name.casefold()] = "host_name"
    for index, (name, email) in enumerate(form.rows):
        if by_link or (not name and not email):
            continue
        if not name:
            errors[f"name_{index}"] = gettext("A name is needed for this player.")
        elif len(name) > MAX_NAME:
            errors[f"name_{index}"] = gettext("At most %(max)d characters.", max=MAX_NAME)
        elif reserved_name_problem(name):
            errors[f"name_{index}"] = reserved_name_problem(name) or ""
        elif name.casefold() in names or name.casefold().startswith("bot "):
            errors[f"name_{index}"] = gettext(
                "Every player needs a different name (and 'Bot N' is for computer players).")
        else:
            names[name.casefold()] = f"name_{index}"
        mistake = address_mistake(email, gettext)
        if mistake:
            errors[f"email_{index}"] = mistake
        elif address_key(email) in seen:
            errors[f"email_{index}"] = gettext("This address is already in the game; each player needs their own.")
        else:
            seen[address_key(email)] = f"email_{index}"

    if by_link:
        count = form.places + form.bots
        if form.places and form.host_plays and form.places < 1:
            errors["places"] = gettext("Your own seat counts among the seats for people: choose at least 1.")
    else:
        count = sum(1 for name, email in form.rows if name or email) + form.host_plays + form.bots
    variant = choices.get(form.variant)
    if variant is not None and not variant.min_players <= count <= variant.max_players and "places" not in errors:
        if by_link:
            errors["places"] = gettext(
                "%(game)s takes %(min)d to %(max)d players; seats for people and computer players make %(count)d.",
                game=variant.title, min=variant.min_players, max=variant.max_players, count=count)
        else:
            errors["players"] = gettext("%(game)s takes %(min)d to %(max)d players; this game has %(count)d.",
                                        game=variant.title, min=variant.min_players, max=variant.max_players,
                                        count=count)

    for policy in policy_fields():
        raw = data.get(f"policy_{policy.name}")
        try:
            form.policies[policy.name] = read_policy(policy, raw)
        except ValueError as exc:
            errors[f"policy_{policy.name}"] = str(exc)
            form.policies[policy.name] = raw or ""
    for option in engine_options():
        raw = data.get(f"option_{option.name}")
        if raw is None:
            continue
        matches = [value for value in option.values if option.shown(value) == raw]
        if not matches:
            errors[f"option_{option.name}"] = gettext(
                "Choose one of %(choices)s.", choices=", ".join(option.shown(v) for v in option.values))
        elif matches[0] != option.values[0] and option.applies_to(form.variant):
            form.options[option.name] = matches[0]
    upload = (files or MultiDict()).get("deck")
    if upload is not None and upload.filename:
        raw_deck = upload.read(MAX_DECK_BYTES + 1)
        if len(raw_deck) > MAX_DECK_BYTES:
            errors["deck"] = gettext("A deck file may be at most %(size)d KB.", size=MAX_DECK_BYTES // 1024)
        else:
            try:
                form.deck = parse_deck(raw_deck.decode("utf-8"), gettext("The deck file"))
            except UnicodeDecodeError:
                errors["deck"] = gettext("The deck file is not UTF-8 text.")
            except ValidationError as exc:
                errors["deck"] = exc.message
    if not any(key.startswith("policy_") for key in errors):
        # Checks across a whole policy set, or of a value's form (quiet hours), live in PolicyConfig itself.
        try:
            PolicyConfig(**form.policies)
        except ConfigError as exc:
            named = re.match(r"policies\.(\w+): (.*)", str(exc))
            field_name = f"policy_{named.group(1)}" if named else "policies"
            if named and named.group(1) == "quiet_hours":
                errors[field_name] = _quiet_hours_problem(named.group(2), form.policies.get("quiet_hours"))
            else:
                errors[field_name] = _sentence(named.group(2) if named else str(exc))
        except TypeError as exc:
            errors["policies"] = _sentence(str(exc))
    known = {f"policy_{p.name}" for p in policy_fields()}
    unknown = sorted(key for key in data if key.startswith("policy_") and key not in known)
    if unknown:
        errors["policies"] = gettext("Unknown options: %(names)s.",
                                     names=", ".join(key.removeprefix("policy_") for key in unknown))
    return form
