/**
 * The table's chat box: the lines this page heard (kept in the browser across a reload,
 * per table and seat, the last `CHAT_KEEP`) and the field to say one. It is one and the
 * same element in every drawing of the table.
 */
import type { ChatLineMsg } from "../lib/protocol";
import { h, replace } from "./dom";
import type { ChatBoxHost } from "./host";
import { CHAT_KEEP, savedChat, type Here, type KeptChat } from "./store";
import { _ } from "./i18n";
import { colourName } from "./words";

export class ChatBox {
  /** The box, keyed: a redraw moves it into the new tree before comparing, and unkeyed
   * the boxes after it (the seat's buttons) were matched one place off, so rebuilt every
   * time, under a finger too. */
  readonly box: HTMLElement;
  private lines: KeptChat[] = [];
  private readonly list: HTMLElement;
  private readonly input: HTMLInputElement;

  constructor(private readonly host: ChatBoxHost) {
    this.list = h("ol", { class: "chat-lines", "aria-label": _("Chat lines"), tabindex: 0 });
    this.input = h("input", {
      id: "chat-text",
      type: "text",
      maxlength: 280,
      autocomplete: "off",
      "aria-label": _("Chat message"),
      placeholder: _("Say something"),
    });
    const form = h(
      "form",
      { class: "chat-form", onsubmit: (e: Event) => this.send(e) },
      this.input,
      h("button", { type: "submit" }, _("Send")),
    );
    this.box = h(
      "section",
      { class: "chat", "data-key": "chat", "aria-labelledby": "chat-h" },
      h("h2", { id: "chat-h" }, _("Chat")),
      this.list,
      form,
    );
  }

  /** The server's limit of a line's length. */
  set maxLength(n: number) {
    this.input.maxLength = n;
  }

  /** The lines kept of `seat` at `table` (null: watching), from before a reload. */
  load(table: string, seat: number | null): void {
    this.lines = savedChat.get(table, seat);
    this.render();
  }

  /** A line heard at the table `here` (kept there). */
  heard(msg: ChatLineMsg, here: Here | null): void {
    this.lines.push(msg);
    if (this.lines.length > CHAT_KEEP) this.lines.shift();
    if (here) savedChat.put(here.table, here.seat, this.lines);
    this.render();
  }

  /** Every line, its speaker's colour said once the game's view is known. */
  render(): void {
    const colours = this.host.t.view?.colours;
    const lines = this.lines.map((c) =>
      h(
        "li",
        {},
        h(
          "strong",
          {},
          c.seat != null && colours ? `${colourName(colours[c.seat] ?? "")} ${c.name}` : c.name,
        ),
        ": ",
        c.text,
      ),
    );
    replace(this.list, lines.length ? lines : h("li", { class: "muted" }, _("No chat yet.")));
    this.list.scrollTop = this.list.scrollHeight;
  }

  private send(e: Event): void {
    e.preventDefault();
    const text = this.input.value.trim();
    const c = this.host.client;
    if (!text || !c) return;
    c.command("chat", { text })
      .then(() => {
        this.input.value = "";
      })
      .catch((err) => this.host.refused(err));
  }
}
