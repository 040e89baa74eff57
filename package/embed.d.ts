// Types of the one-tag bootstrap (embed.js): importing it mounts every
// `[data-leasefence]` element of the document.
import type { Playground } from "./leasefence.js";

/** Mounts every playground under `scope` (default: the document) not mounted yet. */
export function mountAll(scope?: ParentNode): Promise<Playground[]>;
/**
 * The playgrounds the import mounted: those drawn at once (chapters)
 * first, then those that waited for the module's second part (an author's
 * lesson, the lab, a chapter whose panels open with it), once it is in.
 */
export const mounted: Promise<Playground[]>;
