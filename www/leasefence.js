// The one tag for course pages: <script type="module" src=".../leasefence.js">.
// The bootstrap itself is the package's embed.js (source: package/embed.js).
export * from "./pkg/embed.js";
