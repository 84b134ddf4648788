//! A game record: a start position and the moves played from it, with undo.

use crate::mv::{IllegalMoveError, Move};
use crate::position::Position;

/// The moves played from a start position (the standard start or one that was set).
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    current: Position,
}

impl Game {
    /// A game starting at `start` with no moves played.
    pub fn new(start: Position) -> Game {
        Game {
            current: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The position the record starts from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Moves played since the start, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Checks and plays `m`; on error nothing changes.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMoveError> {
        self.current.play(m)?;
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.current.unmake(m);
        Some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_back_to_start() {
        let mut g = Game::new(Position::standard());
        let mut rng = rand::thread_rng();
        for _ in 0..20 {
            let m = g.position().random_move(&mut rng).unwrap();
            g.play(m).unwrap();
        }
        assert_eq!(g.moves().len(), 20);
        while g.undo().is_some() {}
        assert_eq!(g.position(), &Position::standard());
        assert_eq!(g.position().hash(), Position::standard().hash());
    }
}
