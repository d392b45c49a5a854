"""Replies: the typed :class:`~bot.reply.answer.Answer` and the markdown each kind of reply is written in.

One module per kind of reply, with its rendering: the term card (``card``), a comparison, a near
miss, a decline, the FAQ's answer, a remedy, an opposite, small talk, a follow-up about an earlier
answer (``follow_up``); the pieces they share (``cards``), the interface's own words
(``messages``), the Sources block (``sources``) and the plain-text copy for a ticket (``ticket``).
"""
