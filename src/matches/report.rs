//! What the runner writes: the live progress line, the final table, JSON lines for scripts and the
//! SGF record of each game.

use super::clock::{sgf_overtime, ClockReport};
use super::outcome::ForfeitKind;
use super::runner::{Ending, FinishedGame, MatchConfig, MatchResult};
use super::sprt::{Sprt, SprtStatus};
use super::stats::EloEstimate;
use super::tally::Tally;
use crate::color::Color;
use crate::json::write::{number, quoted};
use crate::sgf::{self, GameInfo};
use crate::time::{seconds_text, TimeControl};
use std::fmt::Write;
use std::time::{SystemTime, UNIX_EPOCH};

/// `+70.4 ± 68.3`, with `inf` for a perfect score.
pub fn format_elo(e: &EloEstimate) -> String {
    let num = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 { "+inf" } else { "-inf" }.to_string()
        } else if x.abs() < 0.05 {
            // Avoid printing "-0.0".
            "+0.0".to_string()
        } else {
            format!("{x:+.1}")
        }
    };
    let margin = e.margin();
    if margin.is_finite() {
        format!("{} ± {:.1}", num(e.elo), margin)
    } else {
        format!("{} [{}, {}]", num(e.elo), num(e.lower), num(e.upper))
    }
}

/// One-line state of the match for the progress display.
pub fn progress_line(tally: &Tally, total: usize, sprt: Option<&Sprt>) -> String {
    let mut s = format!(
        "games {}/{}  {} {}-{} {}",
        tally.games(),
        total,
        tally.names[0],
        tally.total_wins(0),
        tally.total_losses(0),
        tally.names[1]
    );
    if let Some(e) = tally.elo() {
        let _ = write!(s, "  elo {}", format_elo(&e));
    }
    if let Some(sp) = sprt {
        let (lo, hi) = sp.bounds();
        let _ = write!(
            s,
            "  llr {:.2} ({:.2}, {:.2})",
            sp.llr(&tally.penta),
            lo,
            hi
        );
    }
    let forfeits = tally.total_forfeits(0) + tally.total_forfeits(1);
    if forfeits > 0 {
        let _ = write!(s, "  forfeits {forfeits}");
    }
    s
}

/// One line per finished game, for logs.
pub fn game_line(fg: &FinishedGame, tally: &Tally) -> String {
    let o = fg.outcome();
    format!(
        "game {} ({} white, {} black): {} wins, {}",
        fg.index + 1,
        tally.names[fg.white],
        tally.names[1 - fg.white],
        o.winner,
        o.reason
    )
}

/// The summary line of the Elo difference of the first engine over the second.
pub fn elo_line(t: &Tally, e: &EloEstimate) -> String {
    format!(
        "Elo difference {} - {}: {} (95%, {}), LOS {:.1}%",
        t.names[0],
        t.names[1],
        format_elo(e),
        if t.penta.pairs() > 0 {
            "from pairs"
        } else {
            "from games"
        },
        100.0 * t.los()
    )
}

/// The final table.
pub fn summary(cfg: &MatchConfig, result: &MatchResult) -> String {
    let t = &result.tally;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Match {} vs {}: {} games on {}x{}, time control {}, margin {} s, openings: {}",
        t.names[0],
        t.names[1],
        t.games(),
        cfg.settings.size,
        cfg.settings.size,
        describe_controls(&cfg.settings.controls, &t.names),
        seconds_text(cfg.settings.margin),
        cfg.book.describe()
    );
    if cfg.settings.clock_report != ClockReport::Exact || !cfg.settings.controller_lag.is_zero() {
        let _ = writeln!(
            s,
            "Controller: {} reports, {} ms lag charged per move",
            match cfg.settings.clock_report {
                ClockReport::Exact => "exact",
                ClockReport::WholeSeconds => "whole-second",
            },
            cfg.settings.controller_lag.as_millis()
        );
    }
    let _ = writeln!(
        s,
        "Ended: {} after {:.1} s",
        match result.ending {
            Ending::Completed => "all games played".to_string(),
            Ending::Sprt(SprtStatus::AcceptH1) => "SPRT accepted H1".to_string(),
            Ending::Sprt(SprtStatus::AcceptH0) => "SPRT accepted H0".to_string(),
            Ending::Sprt(SprtStatus::Continue) => "SPRT".to_string(),
            Ending::Interrupted => "interrupted (games in progress not counted)".to_string(),
        },
        result.elapsed.as_secs_f64()
    );
    let width = t.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        s,
        "{:<width$} {:>6} {:>6} {:>6} {:>7} {:>10} {:>10} {:>8}",
        "engine", "games", "wins", "losses", "score", "white W-L", "black W-L", "forfeits"
    );
    for e in 0..2 {
        let (w, l) = (t.total_wins(e), t.total_losses(e));
        let games = w + l;
        let score = if games > 0 {
            format!("{:.1}%", 100.0 * w as f64 / games as f64)
        } else {
            "-".into()
        };
        let wc = Color::White.index();
        let bc = Color::Black.index();
        let _ = writeln!(
            s,
            "{:<width$} {:>6} {:>6} {:>6} {:>7} {:>10} {:>10} {:>8}",
            t.names[e],
            games,
            w,
            l,
            score,
            format!("{}-{}", t.wins[e][wc], t.losses[e][wc]),
            format!("{}-{}", t.wins[e][bc], t.losses[e][bc]),
            t.total_forfeits(e)
        );
    }
    if t.games() > 0 {
        let _ = writeln!(
            s,
            "White won {} of {} games ({:.1}%).",
            t.white_wins(),
            t.games(),
            100.0 * t.white_wins() as f64 / t.games() as f64
        );
    }
    match t.elo() {
        Some(e) => {
            let _ = writeln!(s, "{}", elo_line(t, &e));
        }
        None => {
            let _ = writeln!(s, "No games finished.");
        }
    }
    let c = t.penta.counts;
    let _ = writeln!(
        s,
        "Pairs [LL, LD, WL+DD, WD, WW] for {}: [{}, {}, {}, {}, {}]",
        t.names[0], c[0], c[1], c[2], c[3], c[4]
    );
    if let Some(sp) = &cfg.sprt {
        let (lo, hi) = sp.bounds();
        let _ = writeln!(
            s,
            "SPRT ({}): LLR {:.2} ({:.2}, {:.2})",
            sp.describe(),
            sp.llr(&t.penta),
            lo,
            hi
        );
    }
    let mut ends = format!("Ends: {} out of moves", t.normal_ends);
    let resigned = t.resignations[0] + t.resignations[1];
    if resigned > 0 {
        let _ = write!(ends, ", {resigned} resigned");
    }
    if t.adjudications > 0 {
        let _ = write!(ends, ", {} adjudicated", t.adjudications);
    }
    let _ = writeln!(s, "{ends}");
    for e in 0..2 {
        let kinds: Vec<String> = ForfeitKind::ALL
            .iter()
            .filter(|k| t.forfeits[e][k.index()] > 0)
            .map(|k| format!("{} {}", k.key(), t.forfeits[e][k.index()]))
            .collect();
        let listed = if kinds.is_empty() {
            "none".to_string()
        } else {
            kinds.join(", ")
        };
        let _ = writeln!(s, "Forfeits by {}: {}", t.names[e], listed);
    }
    s
}

/// The engines' time controls (indexed like the engines): one notation when they are the same,
/// else each engine's by name.
pub fn describe_controls(controls: &[TimeControl; 2], names: &[String; 2]) -> String {
    if controls[0] == controls[1] {
        controls[0].notation()
    } else {
        format!(
            "{} {}, {} {}",
            names[0],
            controls[0].notation(),
            names[1],
            controls[1].notation()
        )
    }
}

/// One JSON object (one line) describing a finished game; `controls` are indexed like the engines.
pub fn game_json(fg: &FinishedGame, tally: &Tally, controls: &[TimeControl; 2]) -> String {
    let o = fg.outcome();
    let r = &fg.report;
    let moves: Vec<String> = r.game.moves().iter().map(|m| m.to_string()).collect();
    let winner_engine = Tally::engine_playing(fg.index, o.winner);
    format!(
        concat!(
            "{{\"type\":\"game\",\"game\":{},\"pair\":{},\"white\":{},\"black\":{},",
            "\"winner\":{},\"winner_color\":{},\"result\":{},\"termination\":{},\"reason\":{},",
            "\"plies\":{},\"time_control\":{},\"white_control\":{},\"black_control\":{},",
            "\"white_time\":{:.3},\"black_time\":{:.3},",
            "\"opening\":{},\"moves\":{}}}"
        ),
        fg.index + 1,
        fg.index / 2 + 1,
        quoted(&tally.names[fg.white]),
        quoted(&tally.names[1 - fg.white]),
        quoted(&tally.names[winner_engine]),
        quoted(o.winner.name()),
        quoted(&o.sgf_result()),
        quoted(o.termination.key()),
        quoted(&o.reason),
        r.plies,
        quoted(&describe_controls(controls, &tally.names)),
        quoted(&controls[fg.white].notation()),
        quoted(&controls[1 - fg.white].notation()),
        r.time_used[0].as_secs_f64(),
        r.time_used[1].as_secs_f64(),
        quoted(&fg.opening.describe()),
        quoted(&moves.join(" ")),
    )
}

/// The final JSON line: totals, Elo, LOS, SPRT state and forfeits.
pub fn summary_json(cfg: &MatchConfig, result: &MatchResult) -> String {
    let t = &result.tally;
    let e = t.elo();
    let forfeits = |i: usize| -> String {
        let items: Vec<String> = ForfeitKind::ALL
            .iter()
            .map(|k| format!("{}:{}", quoted(k.key()), t.forfeits[i][k.index()]))
            .collect();
        format!("{{{}}}", items.join(","))
    };
    let sprt = match &cfg.sprt {
        Some(sp) => format!(
            "{{\"llr\":{},\"lower\":{},\"upper\":{},\"parameters\":{}}}",
            number(sp.llr(&t.penta)),
            number(sp.bounds().0),
            number(sp.bounds().1),
            quoted(&sp.describe())
        ),
        None => "null".into(),
    };
    let ending = match result.ending {
        Ending::Completed => "completed",
        Ending::Sprt(SprtStatus::AcceptH1) => "sprt_h1",
        Ending::Sprt(SprtStatus::AcceptH0) => "sprt_h0",
        Ending::Sprt(SprtStatus::Continue) => "sprt",
        Ending::Interrupted => "interrupted",
    };
    let c = t.penta.counts;
    format!(
        concat!(
            "{{\"type\":\"summary\",\"engines\":[{},{}],\"games\":{},\"wins\":[{},{}],",
            "\"white_wins\":{},\"elo\":{},\"elo_lower\":{},\"elo_upper\":{},\"los\":{},",
            "\"pentanomial\":[{},{},{},{},{}],\"sprt\":{},\"ending\":{},",
            "\"forfeits\":[{},{}],\"seconds\":{:.1}}}"
        ),
        quoted(&t.names[0]),
        quoted(&t.names[1]),
        t.games(),
        t.total_wins(0),
        t.total_wins(1),
        t.white_wins(),
        e.map_or("null".into(), |e| number(e.elo)),
        e.map_or("null".into(), |e| number(e.lower)),
        e.map_or("null".into(), |e| number(e.upper)),
        number(t.los()),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        sprt,
        quoted(ending),
        forfeits(0),
        forfeits(1),
        result.elapsed.as_secs_f64()
    )
}

/// The SGF record of a finished game: players, result (`W+`, `B+R`, `W+T`, `B+F`), time control,
/// date, and the reason the game ended as the game comment.
pub fn sgf_record(fg: &FinishedGame, tally: &Tally, controls: &[TimeControl; 2]) -> String {
    let o = fg.outcome();
    // TM and OT describe one control for the game; with time odds they are left out and the
    // comment gives each side's.
    let common = Some(controls[0]).filter(|c| *c == controls[1]);
    let info = GameInfo {
        white: Some(tally.names[fg.white].clone()),
        black: Some(tally.names[1 - fg.white].clone()),
        result: Some(o.sgf_result()),
        // TM is the main time in seconds, OT the overtime; the full control is also spelled out
        // in the comment.
        time_control: common.map(|c| seconds_text(c.main())),
        overtime: common.as_ref().and_then(sgf_overtime),
        date: Some(today()),
        event: Some(format!(
            "Otrera match {} vs {}, game {}",
            tally.names[0],
            tally.names[1],
            fg.index + 1
        )),
        comment: Some(format!(
            "{} wins ({}): {}; time control {}",
            o.winner,
            o.termination.key(),
            o.reason,
            if common.is_some() {
                controls[0].notation()
            } else {
                format!(
                    "White {}, Black {}",
                    controls[fg.white].notation(),
                    controls[1 - fg.white].notation()
                )
            }
        )),
    };
    sgf::write(&fg.report.game, &info)
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_422), (2025, 11, 30));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn elo_text() {
        let e = EloEstimate::from_games(60, 0, 40).unwrap();
        assert_eq!(format_elo(&e), "+70.4 ± 70.6");
        let perfect = EloEstimate::from_games(4, 0, 0).unwrap();
        assert!(format_elo(&perfect).starts_with("+inf"));
    }
}
