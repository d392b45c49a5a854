"""The Gradio app (and Hugging Face Space entry point): chat with the glossary bot.

``python app.py`` serves on 127.0.0.1:7860 (``GLOSSARY_BOT_HOST`` / ``_PORT``).
Nothing is fetched at run time: no share link, no analytics, no hub.
"""

from __future__ import annotations

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import gradio as gr

from bot.answer import Answer
from bot.core import GlossaryBot
from bot.settings import Settings

EXAMPLES = [
    "What is gradient clipping?",
    "ओवरफिटिंग क्या है?",
    "dropout kya hai?",
    "batch vs epoch",
    "LoRA में low-rank matrices कहाँ inject की जाती हैं?",
    "learning rate warmup kyu karte hai",
]


def sources_markdown(answer: Answer) -> str:
    if not answer.hits:
        return "—"
    lines = ["| # | Term | Source | Score |", "|---|---|---|---|"]
    for hit in answer.hits:
        e = hit.entry
        lines.append(f"| {hit.rank} | {e.term_en} · {e.term_hi} | `{e.source.cite()}` | {hit.score:.3f} |")
    return "\n".join(lines)


def reply_messages(answer: Answer) -> list[dict]:
    """The answer, then a collapsible Sources block (a titled message in Gradio's chatbot)."""
    title = "Sources" if answer.lang == "en" else "स्रोत (Sources)"
    return [
        {"role": "assistant", "content": answer.text},
        {
            "role": "assistant",
            "content": sources_markdown(answer),
            "metadata": {"title": title, "status": "done"},
        },
    ]


def build_app(bot: GlossaryBot) -> gr.Blocks:
    def chat(message: str, history: list[dict]) -> tuple[str, list[dict]]:
        answer = bot.answer(message, history)
        return "", [*history, {"role": "user", "content": message}, *reply_messages(answer)]

    def ask(question: str) -> str:
        return bot.answer(question).text

    with gr.Blocks(title="AI शब्दावली बॉट · AI Glossary Bot") as demo:
        gr.Markdown(
            "## AI शब्दावली बॉट · AI Glossary Bot\n"
            "Ask in Hindi, English or Hinglish what an AI/ML training term means. "
            "हिंदी, अंग्रेज़ी या हिंग्लिश में पूछें।"
        )
        chatbot = gr.Chatbot(label="Chat", height=520, sanitize_html=True, render_markdown=True)
        box = gr.Textbox(placeholder="e.g. dropout kya hai?", label="Question / प्रश्न", submit_btn=True)
        gr.Examples(examples=EXAMPLES, inputs=box, label="Examples / उदाहरण")
        box.submit(chat, [box, chatbot], [box, chatbot], api_name="chat")
        gr.api(ask, api_name="ask")
    return demo


def main() -> None:
    settings = Settings()
    bot = GlossaryBot.load(settings)
    demo = build_app(bot)
    demo.queue(default_concurrency_limit=4, max_size=64)
    demo.launch(server_name=settings.host, server_port=settings.port, share=False, show_error=False)


if __name__ == "__main__":
    main()
