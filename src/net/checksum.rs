//! FNV-1a, 64 bits: the checksum of network files and of self-play blocks. Simple, and enough to
//! catch a damaged file (it is no defence against a forged one, which the engine need not fear).

/// The FNV-1a 64 hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
