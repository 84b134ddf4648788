//! Sides.

use std::fmt;
use std::ops::Not;

/// A side: White moves first.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses `w`, `white`, `b`, `black` in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "w" | "white" => Some(Color::White),
            "b" | "black" => Some(Color::Black),
            _ => None,
        }
    }

    /// `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
