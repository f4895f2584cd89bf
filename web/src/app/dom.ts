/** A few DOM helpers: build elements from attributes and children, no framework. */

type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** Elements given listeners by `h`: `patch` never reuses their old children. */
const listened = new WeakSet<Element>();

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
    if (k.startsWith("on") && typeof v === "function") {
      el.addEventListener(k.slice(2), v);
      listened.add(el);
    }
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

/** Make `el`'s children what `children` would be, keeping every node already on screen
 * that would come back the same. A screen redrawn for news that changed only part of it
 * (someone came to watch, a seat went away) must not swap the button under a pressed
 * finger or mouse: the press and the release then land on two different elements and
 * the tap is lost. A kept node looks exactly like the new one (`isEqualNode`); a node
 * with listeners is kept whole or replaced whole, never mixed with new children, so its
 * listeners always belong to what it shows. Keyboard focus stays where it was, or goes
 * to the new element with the same `data-key` if the focused one was replaced. */
export function patch(el: Element, ...children: Child[]): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active && el.contains(active) ? active.dataset.key : undefined;
  const fresh = document.createDocumentFragment();
  append(fresh, children);
  patchChildren(el, [...fresh.childNodes]);
  if (key && active && !el.contains(active)) {
    const again = el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    again?.focus({ preventScroll: true });
  }
}

function patchChildren(parent: Node, fresh: Node[]): void {
  const old = [...parent.childNodes];
  fresh.forEach((node, i) => {
    const was = old[i];
    if (!was) parent.appendChild(node);
    else if (was !== node) patchNode(was, node);
  });
  for (const gone of old.slice(fresh.length)) if (gone.parentNode === parent) gone.remove();
}

function patchNode(was: Node, node: Node): void {
  if (was.isEqualNode(node)) return;
  if (was instanceof Element && node instanceof Element && sameShell(was, node)) {
    patchChildren(was, [...node.childNodes]);
    return;
  }
  (was as ChildNode).replaceWith(node);
}

/** The same tag and attributes, and no listeners on either. */
function sameShell(a: Element, b: Element): boolean {
  if (a.tagName !== b.tagName || listened.has(a) || listened.has(b)) return false;
  if (a.attributes.length !== b.attributes.length) return false;
  for (const attr of b.attributes) if (a.getAttribute(attr.name) !== attr.value) return false;
  return true;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
}
