// Types of the one-tag bootstrap (embed.js): importing it mounts every
// `[data-leasefence]` element of the document.
import type { Playground } from "./leasefence.js";

/** Mounts every playground under `scope` (default: the document) not mounted yet. */
export function mountAll(scope?: ParentNode): Promise<Playground[]>;
/** The playgrounds the import mounted, once the module is ready. */
export const mounted: Promise<Playground[]>;
