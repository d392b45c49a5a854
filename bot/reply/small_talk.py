"""Greetings, thanks, "help", "who are you": a short friendly reply saying what the bot can do."""

from __future__ import annotations

from bot.identity import GlossaryIdentity
from bot.reply.answer import Answer
from bot.reply.context import Context
from bot.understand.text import Lang


def small_talk(kind: str, lang: Lang, identity: GlossaryIdentity) -> Answer:
    """A greeting, thanks or "who are you": a short friendly reply saying what the bot can do."""
    text = identity.say(f"small_talk_{kind}", lang)
    return Answer(text=text, citations=[], abstained=False, lang=lang, kind="small talk")


def reply(ctx: Context) -> Answer:
    kind = ctx.query.small_talk
    assert kind is not None  # routed here only for small talk
    return small_talk(kind, ctx.lang, ctx.identity)
