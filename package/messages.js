
// Appended to the page's wasm-bindgen glue by `make web` (package/messages.js),
// before it is minified, so that the module's `messagesNow` import finds it.
//
// The page's module carries no message text: each language's texts are a
// file beside it, `leasefence.ko.json` and `leasefence.en.json` (written by
// the course's build script), and a learner fetches the one they read
// (crates/web/src/page/texts.rs). The bootstrap (embed.js) asks for a
// playground's language (`langOf`) and loads it (`loadMessages`) before it
// mounts; the language switch loads the other before it switches. A text
// needed before its language is in is fetched synchronously
// (`messagesNow`), as the module's second part is (package/rest.js).

/** Each language's file, written in full so bundlers copy both (see embed.js). */
const messageUrls = {
  en: new URL("./leasefence.en.json", import.meta.url),
  ko: new URL("./leasefence.ko.json", import.meta.url),
};
/** Each language's bytes, once fetched. */
const messageBytes = new Map();
/** Each language's fetch under way or done, so it is asked for once. */
const messageFetches = new Map();

/**
 * Fetches the texts of `lang` ("ko" or "en"), once; resolves when they are
 * in. A file that cannot be had rejects, and is asked for again when a
 * text is needed.
 */
function loadMessages(lang) {
  if (!(lang in messageUrls)) return Promise.reject(new TypeError(`leasefence: no texts for language ${JSON.stringify(lang)}; expected "ko" or "en"`));
  if (!messageFetches.has(lang)) {
    const fetched = fetch(messageUrls[lang])
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.arrayBuffer();
      })
      .then((buffer) => {
        messageBytes.set(lang, new Uint8Array(buffer));
      });
    fetched.catch(() => messageFetches.delete(lang));
    messageFetches.set(lang, fetched);
  }
  return messageFetches.get(lang);
}

/** The bytes of `lang`'s file, fetched synchronously if they are not in; `undefined` if they cannot be had. */
function messagesNow(lang) {
  if (messageBytes.has(lang)) return messageBytes.get(lang);
  const url = messageUrls[lang];
  if (url === undefined || typeof XMLHttpRequest !== "function") return undefined;
  // Twice, as for the module's second part: a dropped connection is worth one more try.
  for (let attempt = 0; attempt < 2; attempt++) {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.overrideMimeType("text/plain; charset=x-user-defined");
    try {
      request.send();
    } catch {
      continue;
    }
    if (request.status !== 200) continue;
    const bytes = bytesOf(request.responseText);
    messageBytes.set(lang, bytes);
    return bytes;
  }
  console.error(`leasefence: the texts ${url} could not be loaded; its texts show as ⋯`);
  return undefined;
}

export { loadMessages };
