/** A few DOM helpers: build elements from attributes and children, no framework. */

type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** `h("button", {class: "x", onclick: f}, "Go")`: an element; `false`/null children and
 * attributes are skipped, `on*` attributes become listeners. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

/** Replace `el`'s children, keeping keyboard focus on the element with the same
 * `data-key` if the focused one was inside. */
export function replace(el: Element, ...children: Child[]): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active && el.contains(active) ? active.dataset.key : undefined;
  el.replaceChildren();
  append(el, children);
  if (key) {
    const again = el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    again?.focus({ preventScroll: true });
  }
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
}
