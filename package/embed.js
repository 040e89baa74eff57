// leasefence embed: one script tag mounts every [data-leasefence] element.
// The source of the package's embed.js (`make web` minifies it into
// www/pkg/, beside the module, its wasm and the stylesheet it adds).
//
//   <script type="module" src="pkg/embed.js"></script>
//   <div data-leasefence data-scenario="canonical" lang="ko"></div>
//
// Attributes: data-scenario (a chapter id), lang (ko | en; else the page's
// lang or the browser's), data-compact (no editor and extras), data-hash
// (read/write the scenario in the URL hash; the full page uses it).
// Each element fires `leasefence:step` and `leasefence:verdict` events.
// An unknown data-scenario shows the first chapter and warns in the console.
// Elements added after the page loaded: `import { mountAll } from
// ".../embed.js"; await mountAll(container);`.
import init, { mount } from "./leasefence.js";

const here = import.meta.url;
const ready = init({ module_or_path: new URL("./leasefence_bg.wasm", here) });

function addStyles() {
  const href = new URL("./leasefence.css", here).href;
  if (![...document.styleSheets].some((sheet) => sheet.href === href)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
}

/** Mounts every playground under `scope` that is not mounted yet. */
export async function mountAll(scope = document) {
  addStyles();
  await ready;
  const mounted = [];
  for (const element of scope.querySelectorAll("[data-leasefence]")) {
    if (element.leasefence) continue;
    try {
      element.leasefence = mount(element, {
        scenario: element.dataset.scenario,
        lang: element.getAttribute("lang") || undefined,
        // The full page (data-hash) also takes ?compact, for iframes.
        compact: element.hasAttribute("data-compact")
          || (element.hasAttribute("data-hash") && new URLSearchParams(location.search).has("compact")),
        hash: element.hasAttribute("data-hash"),
      });
      mounted.push(element.leasefence);
    } catch (error) {
      element.textContent = `leasefence: ${error.message ?? error}`;
      console.error("leasefence:", error);
    }
  }
  return mounted;
}

export const mounted = mountAll();
