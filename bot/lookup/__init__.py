"""Looking entries up outside the chat: the Browse page's filter and About page (``browse``), and the
names suggested while a question is typed (``suggest``). Both read typed words the way search does
(spelling correction, Hinglish glosses, romanized Hindi), so the filter, the box and the answers agree.
"""
