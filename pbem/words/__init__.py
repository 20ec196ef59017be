"""The game's words, each in one place, in the reader's language: roles, goals, cards, places, counting, event
lines, round outcomes and the rules' refusals.

The engine says what happened as data (events, results, refusal codes); these modules tell it, every sentence a
gettext message (pbem.i18n) so a translation can say it whole. English is the source text.
"""
