// leasefence embed: one script tag mounts every [data-leasefence] element.
// The source of the package's embed.js (`make web` minifies it into
// www/pkg/, beside the module, its wasm and the stylesheet it adds).
//
//   <script type="module" src="pkg/embed.js"></script>
//   <div data-leasefence data-scenario="canonical" lang="ko"></div>
//
// Attributes: data-scenario (a chapter id), lang (ko | en; else the page's
// lang or the browser's), data-show (what is shown beyond the chapter:
// "chapters sandbox tools lab", any of them, separated by spaces or
// commas; none unless named), data-compact (none of them: an embed's
// default, and the full page's too), data-hash (read/write the scenario
// in the URL hash; the full page uses it, and shows every part unless
// data-show, else its address's ?show= or ?compact, says otherwise),
// data-predict="off" (open showing each verdict instead of asking first),
// data-lab (a level of the lab to open: finish, boundary, reclaim, claim,
// transaction; shown whatever data-show says).
// The author's own scenario, instead of a chapter: a <template
// data-lesson> (or a <script type="application/json">) inside the element, or
// data-scenario-json="{...}", or data-src="lesson.json"; with data-title,
// data-narration-ko and data-narration-en.
// Each element fires `leasefence:step`, `leasefence:verdict` and (after each
// grading in the lab) `leasefence:complete` events.
// An unknown chapter or a broken scenario is said in the playground, in the
// learner's language (and the first chapter is shown).
// Elements added after the page loaded are mounted when they appear, and
// unmounted when they leave the document (a MutationObserver), so hosts
// that swap pages in place need no glue; `mountAll(container)` mounts at
// once and says when it is done.
import init, { langOf, loadMessages, loadRest, mount, waitsForRest } from "./leasefence.js";

// Each URL is written `new URL("./file", import.meta.url)` in full, the
// one form Vite, esbuild, webpack and Parcel all recognise: they copy the
// file into the build and rewrite the URL (a URL made from a variable
// is left alone, and the bundled page asked its own folder for the wasm).
//
// The module comes in two parts (scripts/split-module.mjs): the first, all
// that a chapter drawn from its written timeline needs, and the rest,
// asked for once those are drawn (below).
const ready = init({ module_or_path: new URL("./leasefence_first.wasm", import.meta.url) });
// The module carries no message text: each playground's language's texts
// (leasefence.<lang>.json, package/messages.js) are loaded before it is
// mounted, once `langOf` has said which. The likely one is asked for
// now, beside the module: a guess from the page (a wrong one costs a
// file more, never a wrong word).
loadMessages(likelyLang()).catch(() => {});
// The module's second part (SQLite among it) is asked for once the page's
// first mountAll has drawn what it can draw at once (a chapter, from its
// timeline written down): fetched and compiled then, it does not hold up
// those drawings; with nothing to draw at once, at once. A playground
// that needs it before its first drawing (an author's lesson, a shared
// timeline, the lab, a chapter whose panels open with it: `waitsForRest`)
// is mounted once it is in, its element's own content shown meanwhile. A
// call into it before then still works (package/rest.js loads it
// synchronously). The page marks when it asked (`leasefence:drawn`), for
// its own measurements.
let restAsked;
const restIn = new Promise((asked) => {
  restAsked = asked;
}).then(() => loadRest(new URL("./leasefence_rest.wasm", import.meta.url)));
restIn.catch((error) => console.error("leasefence: the module's second part did not load in the background:", error));
let askedForRest = false;
function askForRest() {
  if (askedForRest) return;
  askedForRest = true;
  globalThis.performance?.mark?.("leasefence:drawn");
  restAsked();
}
// How long a waiting playground waits for the background load before it is
// mounted anyway (and fetches the rest itself): time for the rest on a slow
// mobile connection, and an end for one that stalled without failing.
const PATIENCE_MS = 20_000;
const restInOrTimeUp = () => Promise.race([
  restIn.catch(() => {}),
  new Promise((done) => setTimeout(done, PATIENCE_MS)),
]);
const styles = new URL("./leasefence.css", import.meta.url).href;
const theme = new URL("./leasefence-theme.css", import.meta.url).href;

/** Links the stylesheet at `href` into the document, once. */
function addToDocument(href) {
  if (![...document.styleSheets].some((sheet) => sheet.href === href)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
}

/** The language the page's first playground likely draws in: its address's, its element's, the browser's. */
function likelyLang() {
  const element = document.querySelector("[data-leasefence]");
  const fromAddress = element?.hasAttribute("data-hash") ? new URLSearchParams(location.hash.slice(1)).get("lang") : null;
  const tag = fromAddress || element?.closest("[lang]")?.getAttribute("lang") || navigator.language || "";
  return tag.toLowerCase().startsWith("ko") ? "ko" : "en";
}

/** The shadow roots this script made: another's is never taken over. */
const ours = new WeakSet();

/**
 * Where the playground of `element` draws. An embed draws inside the
 * element's own shadow root, with the playground's stylesheet linked
 * there alone: the host's rules (MkDocs Material's `.md-typeset details`,
 * a theme's `button`) do not reach in, and the playground's do not reach
 * out. The host's theme and `--lf-*` colours still do, as inherited
 * custom properties (leasefence-theme.css). The element's own content,
 * the no-JavaScript fallback, shows through a slot until the stylesheet
 * is in and the playground draws over it. The full page (`data-hash`),
 * and an element that cannot have a shadow root of ours (a `<ul>`, a
 * custom element with its own), draw into the element itself, styled from
 * the document.
 */
async function drawingRoot(element) {
  if (!element.hasAttribute("data-hash")) {
    let shadow = element.shadowRoot;
    if (!shadow) {
      try {
        shadow = element.attachShadow({ mode: "open" });
        ours.add(shadow);
      } catch {
        // Not an element that may have one, or a closed one of its own.
      }
    }
    if (ours.has(shadow)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = styles;
      const loaded = new Promise((done) => {
        link.onload = done;
        link.onerror = () => {
          console.error(`leasefence: the stylesheet ${styles} could not be loaded`);
          done();
        };
      });
      const slot = document.createElement("slot");
      shadow.replaceChildren(link, slot);
      // Not waited for past a few seconds (a slow network, an element
      // taken out meanwhile, whose link never loads): the playground then
      // draws, and its styles apply when they come.
      await Promise.race([loaded, new Promise((done) => setTimeout(done, 5000))]);
      // The slot alone is replaced: a stylesheet's link taken out and put
      // back loads its sheet again, and the playground would draw unstyled
      // meanwhile.
      const root = document.createElement("div");
      slot.replaceWith(root);
      return root;
    }
  }
  addToDocument(styles);
  return element;
}

/**
 * What the element asks to show: a chapter (`data-scenario`), or the
 * author's own scenario (inline JSON, `data-scenario-json`, `data-src`)
 * with its title and narration. A file that cannot be fetched is passed on
 * as `scenarioError`, for the playground to say in the learner's language.
 */
async function authored(element) {
  const { dataset } = element;
  // A <template> is never run, so it survives hosts that re-create
  // scripts (MkDocs Material's instant navigation drops their type).
  const inline = element.querySelector("template[data-lesson]")?.content.textContent
    ?? element.querySelector('script[type="application/json"]')?.textContent;
  const options = {
    scenario: inline ?? dataset.scenarioJson ?? dataset.scenario,
    title: dataset.title,
    narration: { ko: dataset.narrationKo, en: dataset.narrationEn },
  };
  if (dataset.src && options.scenario === undefined) {
    try {
      const response = await fetch(new URL(dataset.src, document.baseURI));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      options.scenario = await response.text();
    } catch (error) {
      options.scenarioError = `${dataset.src}: ${error.message ?? error}`;
    }
  }
  return options;
}

/**
 * `node` itself if it is a playground's element, and those inside it. A
 * node the host made whose own methods throw is left alone, rather than
 * throwing out of the host's own change.
 */
const within = (node) => {
  try {
    return [
      ...(node.matches?.("[data-leasefence]") ? [node] : []),
      ...(node.querySelectorAll?.("[data-leasefence]") ?? []),
    ];
  } catch {
    return [];
  }
};

/** Whether `node` is inside a mounted playground (which draws on its own). */
const insidePlayground = (node) => {
  try {
    return Boolean(node.closest?.("[data-leasefence]")?.leasefence);
  } catch {
    return false;
  }
};

/** The elements a call of `mountAll` is mounting now (it awaits). */
const mounting = new WeakSet();

/** Mounts every playground under `scope` (itself included) not mounted yet. */
export function mountAll(scope = document) {
  return mountUnder(scope, false);
}

/**
 * `mountAll`; `first` for the page's own first call, which asks for the
 * module's second part once it has drawn what it could draw at once.
 * Resolves with the playgrounds mounted, those that waited for the rest
 * last.
 */
async function mountUnder(scope, first) {
  addToDocument(theme);
  // Fetched beside the module, for every shadow root to link at once.
  preload(styles);
  await ready;
  const now = [];
  const later = [];
  const langs = new Set();
  for (const element of within(scope)) {
    // Mounted, or being mounted by another call (an element added while
    // the module loaded is seen by both the first call and the observer).
    if (element.leasefence || mounting.has(element)) continue;
    mounting.add(element);
    try {
      const options = await optionsOf(element);
      (waitsForRest(element, options) ? later : now).push({ element, options });
      langs.add(langOf(element, options));
    } catch (error) {
      failed(element, error);
    }
  }
  // A language whose texts do not come is asked for again, synchronously,
  // by the first drawing that needs them.
  await Promise.all([...langs].map((lang) => loadMessages(lang).catch((error) => {
    console.error(`leasefence: the ${lang} texts did not load in the background:`, error);
  })));
  if (first && now.length === 0) askForRest();
  const mounted = [];
  for (const { element, options } of now) await mountNow(element, options, mounted);
  if (first) askForRest();
  if (later.length > 0) await restInOrTimeUp();
  for (const { element, options } of later) await mountNow(element, options, mounted);
  return mounted;
}

/** What the element asks for, as `mount`'s options. */
async function optionsOf(element) {
  return {
    ...(await authored(element)),
    lang: element.getAttribute("lang") || undefined,
    // The full page (data-hash) also takes ?show= and ?compact, for iframes.
    // Names as an author writes them, by spaces, commas or lines; mount
    // reads them separated by spaces.
    show: (element.dataset.show ?? query(element).get("show") ?? undefined)?.split(/[\s,]+/).filter(Boolean).join(" "),
    compact: element.hasAttribute("data-compact") || query(element).has("compact"),
    hash: element.hasAttribute("data-hash"),
    // data-predict="off": the embed opens showing, not asking.
    predict: element.dataset.predict === "off" ? false : undefined,
    // data-lab="finish": open the lab at that level.
    lab: element.dataset.lab,
  };
}

/** The page address's query, for the full page (data-hash) only. */
function query(element) {
  return new URLSearchParams(element.hasAttribute("data-hash") ? location.search : "");
}

/** Mounts `element`'s playground, adding it to `mounted`, unless it left the document meanwhile. */
async function mountNow(element, options, mounted) {
  try {
    // Taken out of the document while it waited (for the rest, for its
    // stylesheet): the observer has already seen it go, so it is not
    // mounted at all.
    if (!element.isConnected) return;
    const root = await drawingRoot(element);
    if (!element.isConnected) return;
    element.leasefence = mountOrUnread(element, root, options);
    mounted.push(element.leasefence);
  } catch (error) {
    failed(element, error);
  } finally {
    mounting.delete(element);
  }
}

/**
 * `mount(root, options)`; on the full page, whose address may say what it
 * shows (`?show=`, `?compact`), a refusal of that is a link's typo: the
 * page then shows every part and says why in the console, as it does for
 * other parts of a link it cannot read.
 */
function mountOrUnread(element, root, options) {
  try {
    return mount(root, options);
  } catch (error) {
    const fromAddress = element.dataset.show === undefined && !element.hasAttribute("data-compact")
      && (query(element).has("show") || query(element).has("compact"));
    if (!fromAddress) throw error;
    console.warn(`leasefence: ${error.message ?? error}; ?show and ?compact left unread`);
    return mount(root, { ...options, show: undefined, compact: false });
  }
}

/** Says why `element` could not be mounted, where it shows: in the shadow root once there is one. */
function failed(element, error) {
  mounting.delete(element);
  (ours.has(element.shadowRoot) ? element.shadowRoot : element).textContent = `leasefence: ${error.message ?? error}`;
  console.error("leasefence:", error);
}

/** Asks for the stylesheet at `href` early, once, unless the document has it. */
function preload(href) {
  const asked = [...document.querySelectorAll("link[rel=preload], link[rel=stylesheet]")].some((link) => link.href === href);
  if (!asked) {
    const link = document.createElement("link");
    link.rel = "preload";
    link.as = "style";
    link.href = href;
    document.head.append(link);
  }
}

export const mounted = mountUnder(document, true);

// Hosts that swap their content without reloading the page (MkDocs
// Material's instant navigation, Docusaurus, other single-page sites):
// an element that appears is mounted, and one taken out of the document
// is unmounted (its listeners detached, its module memory freed). What a
// playground draws inside itself is not looked at.
new MutationObserver((records) => {
  for (const { target, addedNodes, removedNodes } of records) {
    if (insidePlayground(target)) continue;
    for (const node of removedNodes) {
      for (const element of within(node)) {
        // Moved, not removed: it is back in the document by now.
        queueMicrotask(() => {
          if (element.isConnected || !element.leasefence) return;
          element.leasefence.unmount();
          element.leasefence.free();
          delete element.leasefence;
        });
      }
    }
    for (const node of addedNodes) if (within(node).length) mountAll(node);
  }
}).observe(document.documentElement, { childList: true, subtree: true });
