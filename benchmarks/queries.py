"""Benchmark inputs: the dev set's questions (read through bot.evaluation), or a built-in mix."""

from __future__ import annotations

from pathlib import Path

from bot.evaluation import EvalError, EvalItem, load_items

#: Used when the dev set is absent: English, Hindi, Hinglish, comparisons and out-of-scope questions.
FALLBACK = [
    "What is gradient clipping?",
    "What does PEFT stand for?",
    "how does LoRA work",
    "what is overfitting and how do I avoid it",
    "explain dropout regularisation",
    "what is a learning rate warmup",
    "why use mixed precision training",
    "what is knowledge distillation",
    "difference between batch and epoch",
    "batch vs mini-batch",
    "what is weight decay",
    "what does an optimizer do",
    "what are adapter layers",
    "what is quantization of a model",
    "what is tokenization",
    "ओवरफिटिंग क्या है?",
    "ड्रॉपआउट का उपयोग क्यों करते हैं?",
    "लर्निंग रेट क्या होता है?",
    "ग्रेडिएंट संचयन क्या है?",
    "फ़ाइन-ट्यूनिंग ज़रूरी क्यों है?",
    "मिनी-बैच और बैच में क्या अंतर है?",
    "बैच आकार का प्रशिक्षण पर क्या असर होता है?",
    "प्रॉम्प्ट ट्यूनिंग क्या है?",
    "मॉडल को छोटा कैसे करें?",
    "LoRA में low-rank matrices कहाँ inject की जाती हैं?",
    "dropout kya hai?",
    "learning rate warmup kyu karte hai",
    "overfitting se kaise bache",
    "gradient clipping kab use karte hain",
    "epoch aur batch mein kya fark hai",
    "fine tuning kya hota hai",
    "quantization se model chhota kaise hota hai",
    "PEFT ka matlab kya hai",
    "distillation kaise kaam karta hai",
    "LoRA vs full fine-tuning",
    "Adam vs SGD",
    "what is the capital of France?",
    "best recipe for biryani",
    "who won the cricket world cup",
    "मौसम कैसा रहेगा कल?",
]


def load_queries(dev_set: Path, limit: int = 0) -> tuple[list[str], list[EvalItem], str]:
    """(questions, labelled items for the quality check, where they came from)."""
    try:
        items = load_items(dev_set)
    except EvalError:
        items = []
    if not items:
        queries = FALLBACK[:limit] if limit else FALLBACK
        return queries, [], f"built-in list ({len(queries)} questions; {dev_set} not found)"
    items = items[:limit] if limit else items
    return [i.query for i in items], items, f"{dev_set.name} ({len(items)} questions)"
