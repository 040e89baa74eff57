// A function's name in the page's module without the crates'
// disambiguators: `<leasefence_web[71b814a29ae00443]::page::Page>::build`
// is `<leasefence_web::page::Page>::build`. crates/web/first-part.txt holds
// names in this form (scripts/first-part.mjs writes them,
// scripts/split-module.mjs matches them), so that a new compiler or a
// dependency's new version, which changes every disambiguator, does not
// empty the module's first part.
export const plain = (name) => name.replace(/\[[0-9a-f]{16}\]/g, "");
