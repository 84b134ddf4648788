//! The random player: a sparring partner and a sanity baseline.

use crate::game::Game;
use crate::player::{Decision, Limits, Player, SearchReport};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;

/// Plays a random legal move (see `Position::random_move`).
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    /// A random player, reproducible when seeded.
    pub fn new(seed: Option<u64>) -> RandomPlayer {
        RandomPlayer {
            rng: match seed {
                Some(s) => SmallRng::seed_from_u64(s),
                None => SmallRng::from_entropy(),
            },
        }
    }
}

impl Player for RandomPlayer {
    fn choose(
        &mut self,
        game: &Game,
        _limits: &Limits,
        _stop: &AtomicBool,
        _on_report: &mut dyn FnMut(&SearchReport),
    ) -> Decision {
        Decision {
            mv: game.position().random_move(&mut self.rng),
            ..Decision::default()
        }
    }

    fn name(&self) -> &'static str {
        "random"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    #[test]
    fn random_player_is_reproducible_and_legal() {
        let stop = AtomicBool::new(false);
        let play = |seed| {
            let mut p = RandomPlayer::new(Some(seed));
            let mut g = Game::new(Position::start(6).unwrap());
            while let Some(m) = p.choose(&g, &Limits::default(), &stop, &mut |_| {}).mv {
                g.play(m).unwrap();
            }
            g.moves().to_vec()
        };
        let a = play(3);
        assert!(!a.is_empty());
        assert_eq!(a, play(3));
    }
}
