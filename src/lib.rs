//! Otrera: a Game of the Amazons engine.
//!
//! The rules core (`square`, `bitboard`, `lines`, `position`, `movegen`, `mv`) is exact and fast;
//! everything else stands on it.
#![warn(missing_docs)]

pub mod bench;
pub mod bitboard;
#[cfg(feature = "cli")]
pub mod cli;
pub mod color;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod game;
pub mod greedy;
pub mod gui;
pub mod json;
pub mod learn;
pub mod lines;
pub mod matches;
pub mod mcts;
pub mod memory;
pub mod movegen;
pub mod mv;
pub mod net;
pub mod perft;
pub mod player;
pub mod player_kind;
pub mod position;
pub mod proof;
pub mod proof_player;
pub mod protocol;
pub mod random_player;
pub mod regions;
pub mod settings;
pub mod sgf;
pub mod shard;
pub mod solver;
pub mod splitmix;
pub mod square;
pub mod symmetry;
pub mod territory;
pub mod time;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::Color;
pub use game::Game;
pub use mv::{IllegalMoveError, Move, ParseMoveError};
pub use position::{ParsePositionError, Piece, Position};
pub use square::Square;
