//! What the page draws about the shown position, as JSON: the pieces, the legal moves (the page
//! holds no rules of its own), the territory map by queen distance, the regions with their moves
//! left, the score once the game is decided, and the winner once it is over.
//!
//! Squares are numbered `rank * width + file` with rank 0 = rank 1 (White's side), so the page
//! needs no knowledge of the engine's padded layout. Boards may be rectangles (`width` files by
//! `height` ranks), as the small boards of the solver are.

use crate::bitboard::Bitboard;
use crate::engine::Engine;
use crate::json::write::{self as json, Object};
use crate::player::SearchReport;
use crate::position::{Piece, Position};
use crate::regions::RegionKind;
use crate::square::Square;
use crate::territory::{queen_distances, DistanceMap};
use crate::Color;

/// Moves shown per analysis snapshot.
pub const ANALYSIS_MOVES: usize = 8;
/// Longest principal variation sent.
const MAX_PV: usize = 12;

/// The page's number for `sq` on a board `width` files wide.
pub fn square_number(sq: Square, width: usize) -> usize {
    sq.rank() * width + sq.file()
}

/// The squares of `b` as page numbers.
fn numbers(b: Bitboard, width: usize) -> String {
    json::array(b.iter().map(|s| square_number(s, width).to_string()))
}

/// The position part of the state, as a JSON object.
pub fn position(engine: &Engine) -> String {
    let pos = engine.position();
    let (width, height) = (pos.width(), pos.height());
    let mut pieces = String::with_capacity(width * height);
    for rank in 0..height {
        for file in 0..width {
            pieces.push(match pos.piece_at(Square::new(file, rank)) {
                None => '.',
                Some(Piece::Amazon(Color::White)) => 'W',
                Some(Piece::Amazon(Color::Black)) => 'B',
                Some(Piece::Arrow) => 'x',
            });
        }
    }
    let over = pos.is_game_over();
    let legal: Vec<String> = if over {
        Vec::new()
    } else {
        pos.legal_moves().iter().map(ToString::to_string).collect()
    };
    let mut object = Object::new()
        .int("width", width as i64)
        .int("height", height as i64)
        .str("toMove", pos.side_to_move().name())
        .str("position", &pos.to_string())
        .str("pieces", &pieces)
        .raw("legal", &json::string_array(&legal))
        .raw("territory", &territory(pos))
        .raw("regions", &regions(engine));
    object = match engine.final_score() {
        Ok(score) => object.raw(
            "score",
            &Object::new()
                .str("text", &score.to_string())
                .opt_str("winner", score.winner().map(Color::name))
                .bool("exact", score.is_exact())
                .finish(),
        ),
        Err(_) => object.raw("score", "null"),
    };
    let winner = over.then(|| (!pos.side_to_move()).name());
    object.opt_str("winner", winner).finish()
}

/// For every square, both sides' queen distances (`-1`: occupied or unreachable).
fn territory(pos: &Position) -> String {
    let (width, height) = (pos.width(), pos.height());
    let maps = [
        queen_distances(pos, Color::White),
        queen_distances(pos, Color::Black),
    ];
    let side = |map: &DistanceMap| {
        let mut d = vec![-1i64; width * height];
        for level in 1..=map.depth {
            for sq in map.levels[level] {
                d[square_number(sq, width)] = level as i64;
            }
        }
        json::array(d.into_iter().map(|x| x.to_string()))
    };
    Object::new()
        .raw("white", &side(&maps[0]))
        .raw("black", &side(&maps[1]))
        .finish()
}

/// The regions, with their owners' moves left from the exact endgame, once any region has
/// closed (a position with a single mixed region is sent as no regions at all).
fn regions(engine: &Engine) -> String {
    let pos = engine.position();
    let split = crate::regions::regions(pos);
    let closed = split
        .iter()
        .any(|r| r.kind() != RegionKind::Mixed && r.kind() != RegionKind::Dead);
    if !closed {
        return "[]".into();
    }
    let width = pos.width();
    json::array(engine.regions().iter().map(|r| {
        Object::new()
            .str("kind", r.kind.name())
            .opt_str("movesLeft", r.moves_left.map(|m| m.to_string()).as_deref())
            .raw("squares", &numbers(r.region.squares(), width))
            .finish()
    }))
}

/// Which position an analysis is about: the session's serial number of the shown position
/// (which changes with every move, step or new game), its ply, side to move and board width.
#[derive(Copy, Clone, Debug)]
pub struct Shown {
    /// Serial number of the shown position.
    pub id: u64,
    /// Moves played to reach it.
    pub ply: usize,
    /// Side to move.
    pub side: Color,
    /// Files of the board (the page numbers squares by them).
    pub width: usize,
}

/// An analysis snapshot as JSON: the top moves (visits, win rate for the side to move, PV) of
/// the shown position.
pub fn analysis(report: &SearchReport, shown: Shown) -> String {
    let Shown {
        id,
        ply,
        side,
        width,
    } = shown;
    let moves = report.moves.iter().take(ANALYSIS_MOVES).map(|m| {
        let pv: Vec<String> = m.pv.iter().take(MAX_PV).map(ToString::to_string).collect();
        let path = |mv: &crate::Move| {
            json::array(
                [mv.from, mv.to, mv.arrow]
                    .iter()
                    .map(|s| square_number(*s, width).to_string()),
            )
        };
        Object::new()
            .str("move", &m.mv.to_string())
            .raw("squares", &path(&m.mv))
            .int("visits", m.visits as i128)
            .float("winrate", m.winrate)
            .raw("pv", &json::string_array(&pv))
            .finish()
    });
    Object::new()
        .int("positionId", id as i128)
        .int("ply", ply as i64)
        .str("side", side.name())
        .int("playouts", report.playouts as i128)
        .int("ms", report.elapsed.as_millis() as i128)
        .raw("moves", &json::array(moves))
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn the_start_position_as_the_page_sees_it() {
        let mut e = Engine::new(Settings::default());
        e.set_board_size(6).unwrap();
        let json = position(&e);
        let pieces = e.position().to_string();
        assert!(json.contains("\"width\":6,\"height\":6"), "{json}");
        assert!(
            json.contains(&format!("\"position\":\"{pieces}\"")),
            "{json}"
        );
        assert!(json.contains("\"regions\":[]"), "{json}");
        assert!(json.contains("\"score\":null"), "{json}");
        assert!(json.contains("\"winner\":null"), "{json}");
        let legal = json
            .split("\"legal\":[")
            .nth(1)
            .unwrap()
            .split(']')
            .next()
            .unwrap();
        assert_eq!(
            legal.split(',').count(),
            e.position().legal_moves().len(),
            "{legal}"
        );
    }

    #[test]
    fn a_rectangle_numbers_its_squares_by_rank_and_file() {
        let mut e = Engine::new(Settings::default());
        // 5 files, 4 ranks: a White amazon on e1 (number 4), a Black one on a4 (number 15).
        e.set_position("B4/5/5/4W w".parse().unwrap());
        let json = position(&e);
        assert!(json.contains("\"width\":5,\"height\":4"), "{json}");
        assert!(
            json.contains("\"pieces\":\"....W..........B....\""),
            "{json}"
        );
        let white = json.split("\"white\":[").nth(1).unwrap();
        let white: Vec<&str> = white.split(']').next().unwrap().split(',').collect();
        assert_eq!(white.len(), 20);
        // d1 (3) and e2 (9) are one queen step from e1; e1 itself is occupied.
        assert_eq!((white[3], white[9], white[4]), ("1", "1", "-1"));
    }

    #[test]
    fn a_finished_game_has_a_winner_a_score_and_closed_regions() {
        let mut e = Engine::new(Settings::default());
        e.set_position("Bx3/xx3/5/5/W4 b".parse().unwrap());
        let json = position(&e);
        assert!(json.contains("\"winner\":\"white\""), "{json}");
        assert!(json.contains("\"score\":{\"text\":\"W+"), "{json}");
        assert!(
            json.contains("\"kind\":\"white\",\"movesLeft\":\""),
            "{json}"
        );
        assert!(json.contains("\"legal\":[]"), "{json}");
    }
}
