//! Zobrist keys, generated at compile time from a fixed seed (splitmix64) so hashes are the same on
//! every build and machine.

use crate::splitmix::next as splitmix;
use crate::square::NUM_INDICES;

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
