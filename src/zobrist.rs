//! Zobrist keys, generated at compile time from a fixed seed (splitmix64) so hashes are the same on
//! every build and machine.

use crate::square::NUM_INDICES;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> ([[u64; NUM_INDICES]; 3], u64) {
    let mut keys = [[0u64; NUM_INDICES]; 3];
    // A fixed seed: every key follows from it, so changing it changes the search.
    let mut state = 0x4869_7070_6F6C_7974;
    let mut kind = 0;
    while kind < 3 {
        let mut i = 0;
        while i < NUM_INDICES {
            let (s, v) = splitmix(state);
            state = s;
            keys[kind][i] = v;
            i += 1;
        }
        kind += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const TABLES: ([[u64; NUM_INDICES]; 3], u64) = build();

/// Keys per piece kind (0 white amazon, 1 black amazon, 2 arrow) and padded square index.
pub static PIECE: [[u64; NUM_INDICES]; 3] = TABLES.0;
/// XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = TABLES.1;
/// Kind index of arrows in [`PIECE`].
pub const ARROW: usize = 2;
