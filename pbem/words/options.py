"""What each game option changes, in a host's words (the new-game form shows these)."""

from __future__ import annotations

from pbem.words.table import N_, Words

OPTION_NOTES = Words({
    "auto_pick_gold": N_("After a gold-diggers' win, each digger's pick takes the highest gold card left, "
                         "without asking."),
    "digger_gold_cards": N_("Gold cards drawn after a gold-diggers' win: one per player (the printed rule) "
                            "or one per gold-digger."),
    "play_out_hands": N_("Off: once the draw pile is empty and nobody can play a card, the round ends at once "
                         "(the printed rule). On: play on, discarding, until every hand is empty."),
    "recap_private_moves": N_("On: when a round ends, its recap, replay and archive tell everyone what each map "
                              "showed and which cards went face down (discards, swapped hands). The printed "
                              "rules never reveal these. Off: only what the table saw."),
    "geologists_share_gold": N_("Saboteur 2: when the Boss, the Profiteer or a Geologist reaches the gold, do "
                                "the Geologists also count as winners and take a share? Off: they only take "
                                "their crystals. On: a share as well."),
})
