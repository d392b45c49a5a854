"""The Hugging Face Space entry point: ``python app.py`` serves the glossary bot's app.

It listens on 127.0.0.1:7860 (``GLOSSARY_BOT_HOST`` / ``_PORT``) and fetches nothing at run time:
no share link, no analytics, no hub. The app itself is the ``ui`` package: the page and its
callbacks, ``POST /api/answer`` (JSON for programs, beside Gradio's queue), and Gradio's ``/ask``
(question -> answer markdown, the same text as ``glossary-bot ask``) and ``/chat`` (question,
history -> cleared box, new history) for gradio_client. Exit codes: ``bot.exitcodes.ExitCode``.
"""

from ui.serve import main

if __name__ == "__main__":
    main()
