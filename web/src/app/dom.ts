/** A few DOM helpers: build elements from attributes and children, no framework. */

type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** The handler each listened element now runs, by event type. An element listens
 * through one dispatcher per type that looks its handler up here, so that `patch`,
 * keeping an old element for a new one, gives it the new one's handlers: a handler
 * made for the screen before (the table before a rematch, an answer to the question
 * before) must never run for the one now shown. */
const handlers = new WeakMap<Element, Map<string, EventListener>>();

function listen(el: Element, type: string, fn: EventListener): void {
  let mine = handlers.get(el);
  if (!mine) handlers.set(el, (mine = new Map()));
  if (!mine.has(type)) el.addEventListener(type, (e) => handlers.get(el)?.get(type)?.(e));
  mine.set(type, fn);
}

/** `was`, kept for `node`, runs `node`'s handlers (and none of its own). */
function takeOver(was: Element, node: Element): void {
  const mine = handlers.get(was);
  const theirs = handlers.get(node);
  if (mine) for (const type of mine.keys()) if (!theirs?.has(type)) mine.set(type, () => {});
  if (theirs) for (const [type, fn] of theirs) listen(was, type, fn);
}

/** `was`, equal to `node`, takes over `node`'s handlers, its descendants too. */
function adopt(was: Node, node: Node): void {
  if (!(was instanceof Element) || !(node instanceof Element)) return;
  takeOver(was, node);
  for (let i = 0; i < was.children.length; i++) adopt(was.children[i], node.children[i]);
}

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
    if (k.startsWith("on") && typeof v === "function") listen(el, k.slice(2), v);
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
  refocus(el, () => {
    el.replaceChildren();
    append(el, children);
  });
}

/** `draw` changes `el`'s children; keyboard focus, if it was inside and its element is
 * gone, goes to the new element with the same `data-key`. */
function refocus(el: Element, draw: () => void): void {
  const active = document.activeElement as HTMLElement | null;
  const key = active && el.contains(active) ? active.dataset.key : undefined;
  draw();
  if (key && !el.contains(active))
    el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus({
      preventScroll: true,
    });
}

/** Make `el`'s children what `children` would be, keeping every node already on screen
 * that would come back the same. A screen redrawn for news that changed only part of it
 * (someone came to watch, a seat went away) must not swap the button under a pressed
 * finger, mouse or key: the press and the release then land on two different elements
 * and the press is lost. A kept node is made to look exactly like the new one (its
 * attributes and text set, its children patched alike) and takes over its handlers,
 * so a press runs what the new screen means by it. Changing a node in place instead of
 * replacing it spares the browser styling and laying out a whole new subtree (the grid
 * changes its label on every move) and keeps the focus where it is. Children with a
 * `data-key` are matched by it, wherever they moved (a row listed above the others
 * shifts nothing into the place of another), the others by their order. Keyboard focus
 * stays where it was, or goes to the new element with the same `data-key` if the
 * focused one was replaced. */
export function patch(el: Element, ...children: Child[]): void {
  refocus(el, () => {
    const fresh = document.createDocumentFragment();
    append(fresh, children);
    patchChildren(el, [...fresh.childNodes]);
  });
}

const keyOf = (n: Node): string | null =>
  n instanceof Element ? n.getAttribute("data-key") : null;

/** The old children that stand for `fresh` (by key, else the next unkeyed one in
 * order), then those not wanted removed first, so a kept node moves only when the order
 * of the kept ones changed, never for a node put in or taken out beside it. */
function patchChildren(parent: Node, fresh: Node[]): void {
  const old = [...parent.childNodes];
  const keyed = new Map<string, Node>();
  for (const n of old) {
    const k = keyOf(n);
    if (k !== null && !keyed.has(k)) keyed.set(k, n);
  }
  const loose = old.filter((n) => keyOf(n) === null);
  let next = 0;
  const matched = fresh.map((node) => {
    const k = keyOf(node);
    if (k === null) return loose[next++];
    const was = keyed.get(k);
    keyed.delete(k);
    return was;
  });
  const wanted = new Set(matched);
  for (const n of old) if (!wanted.has(n)) parent.removeChild(n);
  fresh.forEach((node, i) => {
    const was = matched[i];
    const shown = was ? patchNode(was, node) : node;
    const at = parent.childNodes[i];
    if (at !== shown) parent.insertBefore(shown, at ?? null);
  });
}

/** `was` made to look like `node`, or replaced by it: the node now on screen. */
function patchNode(was: Node, node: Node): Node {
  if (was.isEqualNode(node)) {
    adopt(was, node);
    return was;
  }
  if (was instanceof Text && node instanceof Text) {
    was.data = node.data;
    return was;
  }
  if (was instanceof Element && node instanceof Element && reusable(was, node)) {
    for (const attr of [...was.attributes])
      if (!node.hasAttribute(attr.name)) was.removeAttribute(attr.name);
    for (const attr of node.attributes)
      if (was.getAttribute(attr.name) !== attr.value) was.setAttribute(attr.name, attr.value);
    takeOver(was, node);
    patchChildren(was, [...node.childNodes]);
    return was;
  }
  (was as ChildNode).replaceWith(node);
  return node;
}

/** Form controls, whose state no attribute shows (a value typed, an option chosen). */
const CONTROLS = new Set(["INPUT", "SELECT", "TEXTAREA", "OPTION"]);

/** `a` can stand for `b`: the same tag, and a form control only with the same
 * attributes (one that differs is replaced, its state with it). */
function reusable(a: Element, b: Element): boolean {
  if (a.tagName !== b.tagName) return false;
  if (!CONTROLS.has(a.tagName)) return true;
  if (a.attributes.length !== b.attributes.length) return false;
  for (const attr of b.attributes) if (a.getAttribute(attr.name) !== attr.value) return false;
  return true;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing`);
  return el as T;
}
