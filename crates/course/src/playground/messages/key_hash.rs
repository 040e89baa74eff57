/// A message key's 32-bit FNV-1a hash. The message tables are ordered by
/// it, and a key is found by it, not by its text: a key written in the
/// code is found while the program is compiled ([`super::Key`]), so no
/// key's text is in the module. The build script (`build/messages.rs`,
/// which includes this file) stops the build if two keys share a hash.
pub(crate) const fn key_hash(key: &str) -> u32 {
    let bytes = key.as_bytes();
    let mut hash: u32 = 0x811c_9dc5;
    let mut at = 0;
    while at < bytes.len() {
        hash = (hash ^ bytes[at] as u32).wrapping_mul(0x0100_0193);
        at += 1;
    }
    hash
}
