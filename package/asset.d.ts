// Types of the package's asset subpaths (`leasefence/leasefence_bg.wasm`,
// `leasefence/leasefence.css`, `leasefence/leasefence-theme.css`) as bundlers import them: the file's URL
// (Vite's `?url`, esbuild's `file` loader, webpack's `asset/resource`).
declare const url: string;
export default url;
