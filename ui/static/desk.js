// The support desk on the chat page: copy actions on every answer, suggestions as you type, the "/"
// shortcut. Served from the app's own origin (ui/desk.py) so that a strict CSP lets it run; the
// texts come in GLOSSARY_DESK_TEXTS, prepended by the server from the message catalog.
(() => {
  "use strict";
  const DEBOUNCE_MS = 150;
  const answers = () =>
    [...document.querySelectorAll("#chat .message:not(.thought) > [data-testid=bot]")];
  const uiLang = () => document.querySelector("#ui-lang input:checked")?.value === "hi" ? "hi" : "en";
  const text = (key) => GLOSSARY_DESK_TEXTS[uiLang()][key];
  let tickets = [];

  // --- copy actions --------------------------------------------------------------------------------
  async function copy(value, button) {
    let ok = true;
    try {
      await navigator.clipboard.writeText(value);
    } catch (_) {
      ok = false;
    }
    const status = button.parentElement.querySelector(".desk-status");
    status.textContent = text(ok ? "copied" : "copy_failed");
    setTimeout(() => { status.textContent = ""; }, 2500);
  }

  function actionBar(index) {
    const bar = document.createElement("div");
    bar.className = "desk-actions";
    bar.dataset.answer = String(index);
    for (const [key, field] of [["copy_ticket", "plain"], ["copy_details", "full"], ["copy_link", "link"]]) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "desk-" + field;
      button.dataset.key = key;
      button.textContent = text(key);
      button.addEventListener("click", (event) => {
        event.stopPropagation();
        const ticket = tickets[Number(bar.dataset.answer)];
        if (ticket) copy(ticket[field], button);
      });
      bar.append(button);
    }
    const status = document.createElement("span");
    status.className = "desk-status";
    status.setAttribute("role", "status");
    bar.append(status);
    return bar;
  }

  function decorate() {
    answers().forEach((answer, index) => {
      let bar = answer.querySelector(":scope > .desk-actions");
      if (!tickets[index]) {
        bar?.remove();
        return;
      }
      if (!bar) answer.append(bar = actionBar(index));
      bar.dataset.answer = String(index);
      bar.querySelectorAll("button").forEach((b) => {
        if (b.textContent !== text(b.dataset.key)) b.textContent = text(b.dataset.key);
      });
    });
  }

  // The server writes one ticket (or null) per answer, as JSON, into a box the page does not show
  // (ui/layout.py); it is read here, since a strict CSP forbids events that run JavaScript strings.
  // Decorated on every tick, not only when the tickets change: the box may be written before the
  // answer it describes is drawn (seen on a loaded machine), and that answer must still get its bar.
  function readTickets() {
    const raw = document.querySelector("#desk-tickets textarea")?.value;
    if (raw !== undefined && raw !== readTickets.last) {
      readTickets.last = raw;
      try {
        const list = JSON.parse(raw);
        tickets = Array.isArray(list) ? list : [];
      } catch (_) {
        tickets = [];
      }
    }
    decorate();
  }
  setInterval(readTickets, 300);

  // --- suggestions as you type: an ARIA combobox over the question box ----------------------------
  let list = null;
  let active = -1;
  let timer = null;
  let asked = 0;

  const box = () => document.querySelector("#question textarea");

  function options() {
    return list ? [...list.querySelectorAll("[role=option]")] : [];
  }

  function close() {
    if (list) list.hidden = true;
    active = -1;
    const input = box();
    if (input) {
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }
  }

  function highlight(index) {
    const items = options();
    active = items.length ? (index + items.length) % items.length : -1;
    items.forEach((item, i) => item.setAttribute("aria-selected", String(i === active)));
    const input = box();
    if (active >= 0) input.setAttribute("aria-activedescendant", items[active].id);
    else input.removeAttribute("aria-activedescendant");
  }

  function pick(item) {
    const input = box();
    input.value = item.dataset.name;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    close();
    input.focus();
  }

  function show(found) {
    const input = box();
    if (!list) {
      list = document.createElement("ul");
      list.id = "question-suggestions";
      list.setAttribute("role", "listbox");
      input.closest("#question").append(list);
    }
    list.setAttribute("aria-label", text("suggestions"));
    list.replaceChildren(
      ...found.map((s, i) => {
        const item = document.createElement("li");
        item.id = "suggestion-" + i;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        item.dataset.name = s.name;
        item.textContent = s.other && s.other !== s.name ? `${s.name} · ${s.other}` : s.name;
        item.addEventListener("mousedown", (event) => { event.preventDefault(); pick(item); });
        return item;
      }),
    );
    list.hidden = found.length === 0;
    input.setAttribute("aria-expanded", String(found.length > 0));
    active = -1;
  }

  async function suggest(value) {
    const ticket = ++asked;
    const params = new URLSearchParams({ q: value, lang: uiLang() });
    try {
      const reply = await fetch("suggest?" + params.toString());
      const found = reply.ok ? await reply.json() : [];
      if (ticket === asked && box()?.value === value) show(found);
    } catch (_) {
      close();
    }
  }

  function prepare(input) {
    if (input.dataset.desk) return;
    input.dataset.desk = "1";
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", "question-suggestions");
    input.setAttribute("aria-expanded", "false");
    input.addEventListener("input", (event) => {
      limitNote(input);
      clearTimeout(timer);
      if (!event.isTrusted) return;  // our own pick
      const value = input.value;
      if (!value.trim()) { close(); return; }
      timer = setTimeout(() => suggest(value), DEBOUNCE_MS);
    });
    input.addEventListener("blur", () => setTimeout(close, 100));
  }

  // Capture phase: the list takes Enter and the arrows before the box would send the question.
  document.addEventListener("keydown", (event) => {
    const input = box();
    if (event.target === input && list && !list.hidden) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        highlight(active + (event.key === "ArrowDown" ? 1 : -1));
      } else if (event.key === "Enter" && active >= 0) {
        pick(options()[active]);
      } else if (event.key === "Escape") {
        close();
      } else {
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    const typing = event.target.closest?.("input, textarea, select, [contenteditable=true]");
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey && input) {
      event.preventDefault();
      input.focus();
    }
  }, true);

  // --- the question box's limit: said when reached, not a silent stop ------------------------------
  function limitNote(input) {
    const limit = input.maxLength;
    let note = document.getElementById("question-limit");
    const full = limit > 0 && input.value.length >= limit;
    if (!full) { note?.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.id = "question-limit";
      note.setAttribute("role", "status");
      input.closest("#question").append(note);
    }
    note.textContent = text("box_limit").replace("{limit}", limit.toLocaleString("en"));
  }

  // --- Clear asks first: the chat is the only copy of the conversation --------------------------------
  document.addEventListener("click", (event) => {
    const clear = event.target.closest?.("#chat button[aria-label=Clear]");
    if (clear && !window.confirm(text("clear_confirm"))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  // --- links: a shared link has asked its question once; a reload must not ask it again ----------
  const linked = new URLSearchParams(location.search);
  let linkOpen = linked.has("q") || linked.has("entry");

  new MutationObserver(() => {
    const input = box();
    if (input) prepare(input);
    if (linkOpen && answers().length) {
      linkOpen = false;
      history.replaceState(null, "", location.pathname);
    }
    decorate();
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
