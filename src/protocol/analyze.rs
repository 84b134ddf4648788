//! `analyze` arguments and its `info` lines, in the style of Leela Zero's `lz-analyze` and KataGo's
//! `kata-analyze` (win rates as fractions, as the format asks).

use crate::color::Color;
use crate::player::SearchReport;
use crate::solver::Verdict;
use std::fmt::Write;
use std::time::Duration;

/// Report interval when none is given.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(1);
/// Longest interval accepted, in centiseconds (one hour).
const MAX_CENTISECONDS: u64 = 360_000;

/// What `analyze` was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeArgs {
    /// The side to analyse for (must be the side to move); `None`: the side to move.
    pub color: Option<Color>,
    /// Time between `info` lines.
    pub interval: Duration,
    /// Most moves per line (`None`: all the player reports).
    pub max_moves: Option<usize>,
}

/// Reads `[COLOR] [INTERVAL | interval INTERVAL] [maxmoves N]`, intervals in centiseconds.
pub fn parse_args(args: &[String]) -> Result<AnalyzeArgs, String> {
    let mut out = AnalyzeArgs {
        color: None,
        interval: DEFAULT_INTERVAL,
        max_moves: None,
    };
    let mut rest = args.iter().map(String::as_str).peekable();
    if let Some(c) = rest.peek().and_then(|a| Color::parse(a)) {
        out.color = Some(c);
        rest.next();
    }
    let mut interval_seen = false;
    while let Some(word) = rest.next() {
        let lower = word.to_ascii_lowercase();
        let (key, value) = match lower.as_str() {
            "interval" | "maxmoves" => {
                let v = rest
                    .next()
                    .ok_or_else(|| format!("{lower} needs a number"))?;
                (lower.clone(), v)
            }
            _ if word.bytes().all(|b| b.is_ascii_digit()) => ("interval".to_string(), word),
            _ => {
                return Err(format!(
                    "unexpected '{word}' (analyze takes [COLOR] [INTERVAL] [maxmoves N], \
                     INTERVAL in centiseconds)"
                ))
            }
        };
        if key == "interval" {
            if interval_seen {
                return Err("the interval is given twice".into());
            }
            interval_seen = true;
            let cs = value
                .parse::<u64>()
                .ok()
                .filter(|cs| (1..=MAX_CENTISECONDS).contains(cs))
                .ok_or_else(|| {
                    format!("bad interval '{value}' (centiseconds, 1 to {MAX_CENTISECONDS})")
                })?;
            out.interval = Duration::from_millis(cs * 10);
        } else {
            let n = value
                .parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("bad maxmoves '{value}' (a positive integer)"))?;
            out.max_moves = Some(n);
        }
    }
    Ok(out)
}

/// The `info` line for a report: one `info move ... pv ...` block per candidate, best first; `None`
/// when the report has no candidates. When the solver proved the position, a second line follows:
/// `solved win MOVE` or `solved loss` (a line of its own, so that parsers of the `info` line are
/// not disturbed).
pub fn info_line(report: &SearchReport, max_moves: Option<usize>) -> Option<String> {
    let mut line = String::new();
    let n = max_moves.unwrap_or(usize::MAX);
    for (order, m) in report.moves.iter().take(n).enumerate() {
        if order > 0 {
            line.push(' ');
        }
        let _ = write!(
            line,
            "info move {} visits {} winrate {:.4} prior {:.4} order {order} pv",
            m.mv, m.visits, m.winrate, m.prior
        );
        if m.pv.is_empty() {
            let _ = write!(line, " {}", m.mv);
        }
        for p in &m.pv {
            let _ = write!(line, " {p}");
        }
    }
    if line.is_empty() {
        return None;
    }
    if let Some(v) = report.solved.filter(|v| *v != Verdict::Unknown) {
        let _ = write!(line, "\nsolved {v}");
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mv::Move;
    use crate::player::MoveStats;

    fn args(text: &str) -> Result<AnalyzeArgs, String> {
        let v: Vec<String> = text.split_whitespace().map(String::from).collect();
        parse_args(&v)
    }

    #[test]
    fn argument_forms() {
        let ms = Duration::from_millis;
        let ok = [
            ("", None, DEFAULT_INTERVAL, None),
            ("b", Some(Color::Black), DEFAULT_INTERVAL, None),
            ("W 50", Some(Color::White), ms(500), None),
            ("white interval 10", Some(Color::White), ms(100), None),
            ("25 maxmoves 3", None, ms(250), Some(3)),
        ];
        for (text, color, interval, max_moves) in ok {
            assert_eq!(
                args(text),
                Ok(AnalyzeArgs {
                    color,
                    interval,
                    max_moves
                }),
                "{text}"
            );
        }
        for (text, want) in [
            ("b 0", "bad interval"),
            ("b -5", "unexpected"),
            ("b 10 20", "twice"),
            ("interval", "needs a number"),
            ("maxmoves 0", "bad maxmoves"),
            ("green", "unexpected"),
            ("b 99999999999999999999999", "bad interval"),
        ] {
            let e = args(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn info_lines() {
        let m = |t: &str| Move::parse(t, 10).unwrap();
        let report = SearchReport {
            moves: vec![
                MoveStats {
                    mv: m("d1-d7/g7"),
                    visits: 120,
                    winrate: 0.56123,
                    prior: 0.0123,
                    pv: vec![m("d1-d7/g7"), m("a7-a5/a6")],
                },
                MoveStats {
                    mv: m("g1-g7/d7"),
                    visits: 30,
                    winrate: 0.5,
                    prior: 0.5,
                    pv: vec![],
                },
            ],
            playouts: 150,
            nodes: 600,
            elapsed: Duration::from_millis(300),
            solved: None,
        };
        assert_eq!(
            info_line(&report, None).unwrap(),
            "info move d1-d7/g7 visits 120 winrate 0.5612 prior 0.0123 order 0 pv d1-d7/g7 \
             a7-a5/a6 info move g1-g7/d7 visits 30 winrate 0.5000 prior 0.5000 order 1 pv g1-g7/d7"
        );
        assert_eq!(
            info_line(&report, Some(1)).unwrap(),
            "info move d1-d7/g7 visits 120 winrate 0.5612 prior 0.0123 order 0 pv d1-d7/g7 a7-a5/a6"
        );
        assert_eq!(info_line(&SearchReport::default(), None), None);
        let solved = |v| SearchReport {
            solved: Some(v),
            ..report.clone()
        };
        assert_eq!(
            info_line(&solved(Verdict::Win(m("d1-d7/g7"))), Some(1)).unwrap(),
            "info move d1-d7/g7 visits 120 winrate 0.5612 prior 0.0123 order 0 pv d1-d7/g7 a7-a5/a6\n\
             solved win d1-d7/g7"
        );
        assert!(info_line(&solved(Verdict::Loss), Some(1))
            .unwrap()
            .ends_with(" a7-a5/a6\nsolved loss"));
    }
}
