//! The running score of a match: results per engine and colour, forfeits by kind, and the
//! pentanomial counts of completed colour-swapped pairs.

use super::outcome::{ForfeitKind, Outcome, Termination};
use super::stats::{los, EloEstimate, Pentanomial};
use crate::color::Color;
use std::collections::HashMap;

/// Results so far. Engine 0 plays White in even-numbered games (0, 2, ...) and Black in the others;
/// games `2k` and `2k + 1` form pair `k` (same opening, colours swapped).
#[derive(Clone, Debug)]
pub struct Tally {
    /// Display names of the two engines.
    pub names: [String; 2],
    /// `wins[engine][colour]`: games won by that engine playing that colour.
    pub wins: [[u64; 2]; 2],
    /// `losses[engine][colour]`.
    pub losses: [[u64; 2]; 2],
    /// `forfeits[engine][kind]`: games lost by that engine through each kind of forfeit.
    pub forfeits: [[u64; ForfeitKind::ALL.len()]; 2],
    /// Games lost by resignation, per engine.
    pub resignations: [u64; 2],
    /// Games that ended with the loser out of moves.
    pub normal_ends: u64,
    /// Games stopped by adjudication.
    pub adjudications: u64,
    /// Completed pairs.
    pub penta: Pentanomial,
    /// Score of engine 0 in the first finished game of each pair still waiting for its partner.
    open_pairs: HashMap<usize, f64>,
}

impl Tally {
    /// An empty tally.
    pub fn new(names: [String; 2]) -> Tally {
        Tally {
            names,
            wins: [[0; 2]; 2],
            losses: [[0; 2]; 2],
            forfeits: [[0; ForfeitKind::ALL.len()]; 2],
            resignations: [0; 2],
            normal_ends: 0,
            adjudications: 0,
            penta: Pentanomial::default(),
            open_pairs: HashMap::new(),
        }
    }

    /// Which engine plays `color` in game `index`.
    pub fn engine_playing(index: usize, color: Color) -> usize {
        (index % 2) ^ color.index()
    }

    /// Counts a finished game.
    pub fn record(&mut self, index: usize, outcome: &Outcome) {
        let winner = Tally::engine_playing(index, outcome.winner);
        let loser = 1 - winner;
        self.wins[winner][outcome.winner.index()] += 1;
        self.losses[loser][(!outcome.winner).index()] += 1;
        match outcome.termination {
            Termination::NoMoves => self.normal_ends += 1,
            Termination::Adjudication => self.adjudications += 1,
            Termination::Resignation => self.resignations[loser] += 1,
            Termination::Forfeit(kind) => self.forfeits[loser][kind.index()] += 1,
        }
        let score = if winner == 0 { 1.0 } else { 0.0 };
        let pair = index / 2;
        match self.open_pairs.remove(&pair) {
            Some(first) => self.penta.add(first, score),
            None => {
                self.open_pairs.insert(pair, score);
            }
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins.iter().flatten().sum()
    }

    /// Total wins of `engine`.
    pub fn total_wins(&self, engine: usize) -> u64 {
        self.wins[engine].iter().sum()
    }

    /// Total losses of `engine`.
    pub fn total_losses(&self, engine: usize) -> u64 {
        self.losses[engine].iter().sum()
    }

    /// Games won by the side playing White.
    pub fn white_wins(&self) -> u64 {
        self.wins[0][Color::White.index()] + self.wins[1][Color::White.index()]
    }

    /// Total forfeits of `engine`.
    pub fn total_forfeits(&self, engine: usize) -> u64 {
        self.forfeits[engine].iter().sum()
    }

    /// Elo difference of engine 0 over engine 1: from the completed pairs when there are any (the
    /// pentanomial model), otherwise from single games.
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.penta.pairs() > 0 {
            EloEstimate::from_pentanomial(&self.penta)
        } else {
            EloEstimate::from_games(self.total_wins(0), 0, self.total_losses(0))
        }
    }

    /// Likelihood that engine 0 is the stronger.
    pub fn los(&self) -> f64 {
        los(self.total_wins(0), self.total_losses(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(winner: Color, termination: Termination) -> Outcome {
        Outcome {
            winner,
            termination,
            reason: String::new(),
            margin: None,
        }
    }

    #[test]
    fn counts_by_engine_colour_and_pair() {
        let mut t = Tally::new(["a".into(), "b".into()]);
        // Game 0: a is White and wins. Game 1: a is Black and wins by b's illegal move.
        t.record(0, &win(Color::White, Termination::NoMoves));
        assert_eq!(t.penta.pairs(), 0);
        t.record(
            1,
            &win(Color::Black, Termination::Forfeit(ForfeitKind::IllegalMove)),
        );
        // Game 3 before game 2: b (White in game 3) resigns, then a (White in game 2) loses.
        t.record(3, &win(Color::Black, Termination::Resignation));
        t.record(2, &win(Color::Black, Termination::NoMoves));
        assert_eq!(t.games(), 4);
        assert_eq!(t.wins[0], [1, 2]);
        assert_eq!(t.losses[0], [1, 0]);
        assert_eq!(t.wins[1], [0, 1]);
        assert_eq!(t.losses[1], [2, 1]);
        assert_eq!(t.forfeits[1][ForfeitKind::IllegalMove.index()], 1);
        assert_eq!(t.resignations, [0, 1]);
        assert_eq!(t.white_wins(), 1);
        assert_eq!(t.penta.counts, [0, 0, 1, 0, 1]);
        assert!(t.elo().unwrap().elo > 0.0);
        assert!(t.los() > 0.5);
    }
}
