//! Commands: reading a command line, and the table of commands with their argument checks and
//! handlers. Handlers talk to the engine facade only; those that search return an [`Action`] for
//! the loop to run on a search thread.

use super::analyze::{self, AnalyzeArgs};
use crate::color::Color;
use crate::engine::Engine;
use crate::mv::Move;
use crate::perft::perft;
use crate::position::Position;
use crate::settings::OPTIONS;
use crate::sgf;
use crate::time::{read_count, read_seconds, TimeControl, TimeError};
use std::io::Read;
use std::time::Duration;

/// A command line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id, as given.
    pub id: Option<String>,
    /// The command name, lower case.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// Reads a raw input line the GTP way: control characters other than tab are dropped, everything
/// from `#` on is a comment, tabs are spaces. `None` for a line with nothing left; a line with only
/// an id gives a command with an empty name.
pub fn parse(raw: &str) -> Option<Command> {
    let text: String = raw
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|&c| !c.is_control() || c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let mut words = text.split_whitespace();
    let mut first = words.next()?;
    let mut id = None;
    if first.bytes().all(|b| b.is_ascii_digit()) {
        id = Some(first.to_string());
        first = words.next().unwrap_or("");
    }
    Some(Command {
        id,
        name: first.to_ascii_lowercase(),
        args: words.map(String::from).collect(),
    })
}

/// What the loop must do after a handler succeeded.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Answer `=` with this text.
    Reply(String),
    /// Choose a move for this colour (the side to move) on a search thread; `play` also plays it.
    Genmove {
        /// The side.
        color: Color,
        /// Whether to play the move (`genmove`) or only name it (`reg_genmove`).
        play: bool,
    },
    /// Stream analysis until the next command arrives.
    Analyze(AnalyzeArgs),
    /// Answer `=` and stop.
    Quit,
}

type Handler = fn(&mut Engine, &[String]) -> Result<Action, String>;

/// Where a command comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// GTP version 2.
    Gtp,
    /// Another engine's or server's convention (KGS, Leela Zero / KataGo, GNU Go, Quarry).
    Convention,
    /// Specific to this engine or to Amazons.
    Amazons,
}

/// One command of the table.
pub struct Spec {
    /// Its name.
    pub name: &'static str,
    /// Its arguments, for error messages.
    pub usage: &'static str,
    /// Fewest arguments.
    pub min: usize,
    /// Most arguments.
    pub max: usize,
    /// Where it comes from.
    pub origin: Origin,
    /// What it does.
    pub run: Handler,
}

/// Every command, in the order `list_commands` shows them.
pub const COMMANDS: &[Spec] = &[
    spec("protocol_version", "", 0, 0, Origin::Gtp, |_, _| reply("2")),
    spec("name", "", 0, 0, Origin::Gtp, |_, _| reply("Otrera")),
    spec("version", "", 0, 0, Origin::Gtp, |_, _| {
        reply(env!("CARGO_PKG_VERSION"))
    }),
    spec("known_command", "NAME", 1, 1, Origin::Gtp, known_command),
    spec("list_commands", "", 0, 0, Origin::Gtp, list_commands),
    spec("quit", "", 0, 0, Origin::Gtp, |_, _| Ok(Action::Quit)),
    spec("list_games", "", 0, 0, Origin::Convention, |_, _| {
        reply("Amazons")
    }),
    spec("set_game", "NAME", 1, 1, Origin::Convention, set_game),
    spec("boardsize", "SIZE", 1, 1, Origin::Gtp, boardsize),
    spec("clear_board", "", 0, 0, Origin::Gtp, |e, _| {
        e.clear_board();
        reply("")
    }),
    spec(
        "set_position",
        "POSITION",
        1,
        2,
        Origin::Amazons,
        set_position,
    ),
    spec("get_position", "", 0, 0, Origin::Amazons, |e, _| {
        reply(e.position().to_string())
    }),
    spec("showboard", "", 0, 0, Origin::Gtp, |e, _| {
        reply(format!("\n{}", e.position().diagram()))
    }),
    spec("play", "COLOR MOVE", 2, 2, Origin::Gtp, play),
    spec("genmove", "COLOR", 1, 1, Origin::Gtp, |e, a| {
        genmove(e, a, true)
    }),
    spec("reg_genmove", "COLOR", 1, 1, Origin::Gtp, |e, a| {
        genmove(e, a, false)
    }),
    spec("undo", "", 0, 0, Origin::Gtp, |e, _| {
        e.undo().map_err(|err| err.to_string())?;
        reply("")
    }),
    spec("is_legal", "COLOR MOVE", 2, 2, Origin::Convention, is_legal),
    spec("legal_moves", "", 0, 0, Origin::Amazons, legal_moves),
    spec("perft", "DEPTH", 1, 1, Origin::Amazons, perft_command),
    spec(
        "time_settings",
        "MAIN BYO_YOMI STONES",
        3,
        3,
        Origin::Gtp,
        time_settings,
    ),
    spec(
        "kgs-time_settings",
        "none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES",
        1,
        4,
        Origin::Convention,
        kgs_time_settings,
    ),
    spec(
        "kata-time_settings",
        "none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES \
         | fischer MAIN INCREMENT | st SECONDS | MAIN[+INC] | canadian:MAIN:PERIOD:STONES",
        0,
        usize::MAX,
        Origin::Convention,
        kata_time_settings,
    ),
    spec(
        "time_left",
        "COLOR TIME STONES",
        3,
        3,
        Origin::Gtp,
        time_left,
    ),
    spec("clock", "", 0, 0, Origin::Amazons, clock_command),
    spec("final_score", "", 0, 0, Origin::Gtp, |e, _| {
        let score = e.final_score().map_err(|err| err.to_string())?;
        reply(score.to_string())
    }),
    spec("regions", "", 0, 0, Origin::Amazons, regions),
    spec("solve", "[SECONDS]", 0, 1, Origin::Amazons, solve),
    spec("loadsgf", "FILE [MOVE_NUMBER]", 1, 2, Origin::Gtp, loadsgf),
    spec("printsgf", "[FILE]", 0, 1, Origin::Convention, printsgf),
    spec(
        "analyze",
        "[COLOR] [INTERVAL] [maxmoves N]",
        0,
        5,
        Origin::Convention,
        analyze_command,
    ),
    spec("set_option", "NAME VALUE", 2, 2, Origin::Amazons, |e, a| {
        e.set_option(&a[0], &a[1]).map_err(|err| err.to_string())?;
        reply("")
    }),
    spec("get_option", "NAME", 1, 1, Origin::Amazons, |e, a| {
        reply(e.option(&a[0]).map_err(|err| err.to_string())?)
    }),
    spec("list_options", "", 0, 0, Origin::Amazons, list_options),
];

const fn spec(
    name: &'static str,
    usage: &'static str,
    min: usize,
    max: usize,
    origin: Origin,
    run: Handler,
) -> Spec {
    Spec {
        name,
        usage,
        min,
        max,
        origin,
        run,
    }
}

/// The table entry for `name`.
pub fn find(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|s| s.name == name)
}

/// Checks the arguments of `cmd` and runs it. On error the engine is unchanged and the text says
/// what was wrong.
pub fn dispatch(engine: &mut Engine, cmd: &Command) -> Result<Action, String> {
    if cmd.name.is_empty() {
        return Err("empty command (an id must be followed by a command name)".into());
    }
    let spec = find(&cmd.name).ok_or_else(|| format!("unknown command '{}'", cmd.name))?;
    let n = cmd.args.len();
    if n < spec.min || n > spec.max {
        let takes = if spec.usage.is_empty() {
            "no arguments".to_string()
        } else {
            spec.usage.to_string()
        };
        return Err(format!(
            "wrong number of arguments: {} takes {takes} (got {n})",
            spec.name
        ));
    }
    (spec.run)(engine, &cmd.args)
}

fn reply(text: impl Into<String>) -> Result<Action, String> {
    Ok(Action::Reply(text.into()))
}

fn color(text: &str) -> Result<Color, String> {
    Color::parse(text).ok_or_else(|| format!("bad color '{text}' (expected w, white, b or black)"))
}

fn move_text(text: &str, pos: &Position) -> Result<Move, String> {
    if ["pass", "resign"].contains(&text.to_ascii_lowercase().as_str()) {
        return Err(format!(
            "'{text}' is not a move: Amazons has no passing, and a side that cannot move has lost"
        ));
    }
    Move::parse_rect(text, pos.width(), pos.height()).map_err(|e| e.to_string())
}

fn seconds(what: &str, text: &str) -> Result<Duration, String> {
    read_seconds(what, text).map_err(|e| e.to_string())
}

fn count(what: &str, text: &str) -> Result<u32, String> {
    read_count(what, text).map_err(|e| e.to_string())
}

fn known_command(_: &mut Engine, a: &[String]) -> Result<Action, String> {
    reply(if find(&a[0]).is_some() {
        "true"
    } else {
        "false"
    })
}

fn list_commands(_: &mut Engine, _: &[String]) -> Result<Action, String> {
    let names: Vec<&str> = COMMANDS.iter().map(|s| s.name).collect();
    reply(names.join("\n"))
}

fn set_game(_: &mut Engine, a: &[String]) -> Result<Action, String> {
    if a[0].eq_ignore_ascii_case("amazons") {
        reply("")
    } else {
        Err(format!(
            "unsupported game '{}' (this engine plays Amazons)",
            a[0]
        ))
    }
}

fn boardsize(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let size = a[0]
        .parse::<usize>()
        .map_err(|_| format!("bad size '{}' (a whole number, 6 to 10)", a[0]))?;
    e.set_board_size(size).map_err(|err| err.to_string())?;
    reply("")
}

fn set_position(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let pos: Position = a.join(" ").parse().map_err(|err| format!("{err}"))?;
    e.set_position(pos);
    reply("")
}

fn play(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let c = color(&a[0])?;
    let mv = move_text(&a[1], e.position())?;
    e.play(c, mv).map_err(|err| err.to_string())?;
    reply("")
}

fn genmove(e: &mut Engine, a: &[String], play: bool) -> Result<Action, String> {
    let c = color(&a[0])?;
    e.check_turn(c).map_err(|err| err.to_string())?;
    Ok(Action::Genmove { color: c, play })
}

fn is_legal(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let c = color(&a[0])?;
    let mv = move_text(&a[1], e.position())?;
    let legal = c == e.position().side_to_move() && e.position().check_move(mv).is_ok();
    reply(if legal { "1" } else { "0" })
}

/// Seconds `solve` takes when none are given.
const SOLVE_DEFAULT_SECONDS: f64 = 10.0;

fn solve(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let time = match a.first() {
        Some(t) => seconds("solve time", t)?,
        None => Duration::from_secs_f64(SOLVE_DEFAULT_SECONDS),
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    reply(e.solve(time, &never).to_string())
}

fn legal_moves(e: &mut Engine, _: &[String]) -> Result<Action, String> {
    let moves: Vec<String> = e
        .position()
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    reply(moves.join(" "))
}

/// Deepest `perft` the protocol runs (about a second from the 10x10 start); deeper counts belong
/// to the `otrera perft` subcommand.
const MAX_PERFT: u32 = 3;

fn perft_command(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let depth = a[0]
        .parse::<u32>()
        .ok()
        .filter(|&d| d <= MAX_PERFT)
        .ok_or_else(|| {
            format!(
                "bad depth '{}' (0 to {MAX_PERFT}; use `otrera perft` for deeper counts)",
                a[0]
            )
        })?;
    let mut pos = e.position().clone();
    reply(perft(&mut pos, depth).to_string())
}

fn time_settings(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let main = seconds("main time", &a[0])?;
    let byo = seconds("byo-yomi time", &a[1])?;
    let stones = count("stone count", &a[2])?;
    e.set_time_control(TimeControl::from_gtp(main, byo, stones));
    reply("")
}

/// `kgs-time_settings`: the words of a KGS time system (`fischer` is not one), read by the one
/// time control parser.
fn kgs_time_settings(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    if !["none", "absolute", "byoyomi", "canadian"].contains(&a[0].to_ascii_lowercase().as_str()) {
        return Err(format!(
            "unknown time system '{}' (expected none, absolute, byoyomi or canadian)",
            a[0]
        ));
    }
    kata_time_settings(e, a)
}

/// `kata-time_settings`: any time control the one parser reads (the words of
/// `kata-time_settings`, `st SECONDS`, or the compact forms of `match --tc`).
fn kata_time_settings(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let control: TimeControl = a.join(" ").parse().map_err(|e: TimeError| e.to_string())?;
    e.set_time_control(control);
    reply("")
}

fn time_left(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let c = color(&a[0])?;
    // Some servers report a little below zero when a period ran out in transit.
    let time = match a[1].strip_prefix('-') {
        Some(below) if read_seconds("time", below).is_ok() => Duration::ZERO,
        _ => seconds("time", &a[1])?,
    };
    let stones = count("stone count", &a[2])?;
    e.set_time_left(c, time, stones, report_unit(&a[1]));
    reply("")
}

/// The rounding unit of a time as written: 1 s for a whole number (what GTP sends), 0.1 s for
/// `12.5`, 1 ms for `12.345`.
fn report_unit(text: &str) -> Duration {
    let decimals = text.split_once('.').map_or(0, |(_, frac)| {
        frac.bytes().take_while(u8::is_ascii_digit).count()
    });
    Duration::from_nanos(10u64.pow(9 - decimals.min(9) as u32))
}

/// `clock`: the time control, both sides' time as the engine knows it, and what it learned about
/// the controller's clock.
fn clock_command(e: &mut Engine, _: &[String]) -> Result<Action, String> {
    let clock = e.clock();
    let s = |d: Duration| format!("{:.3}", d.as_secs_f64());
    let mut lines = vec![format!("control {}", clock.control())];
    for c in Color::BOTH {
        let t = clock.side(c);
        let phase = if t.overtime {
            format!("overtime {} count {}", s(t.period_left), t.count)
        } else {
            format!("main {}", s(t.main))
        };
        lines.push(format!("{c} {phase} precision {}", s(t.precision)));
    }
    lines.push(format!(
        "lag learned {} buffer {} move_overhead {}",
        s(clock.lag().learned()),
        s(clock.lag_buffer()),
        s(e.settings().move_overhead)
    ));
    reply(lines.join("\n"))
}

/// Largest SGF file `loadsgf` reads.
const MAX_SGF_BYTES: u64 = 4 << 20;

/// One line per region: `KIND moves N amazons SQ... empty N SQ...`, where N of moves is exact
/// (`12`), bounded (`10..12`) or `-` for a mixed region.
fn regions(e: &mut Engine, _: &[String]) -> Result<Action, String> {
    let names =
        |b: crate::bitboard::Bitboard| b.iter().map(|s| format!(" {s}")).collect::<String>();
    let lines: Vec<String> = e
        .regions()
        .iter()
        .map(|r| {
            let moves = r.moves_left.map_or("-".to_string(), |m| m.to_string());
            let amazons = r.region.white | r.region.black;
            format!(
                "{} moves {moves} amazons{} empty {}{}",
                r.kind.name(),
                names(amazons),
                r.region.empty.count(),
                names(r.region.empty)
            )
        })
        .collect();
    reply(lines.join("\n"))
}

fn loadsgf(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let number = match a.get(1) {
        None => None,
        Some(t) => Some(
            t.parse::<usize>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("bad move number '{t}' (a positive integer)"))?,
        ),
    };
    let path = &a[0];
    let cannot = |err: std::io::Error| format!("cannot read '{path}': {err}");
    // Only regular files: a device or a pipe (even our own stdin) could block forever.
    if !std::fs::metadata(path).map_err(cannot)?.is_file() {
        return Err(format!("cannot read '{path}': not a regular file"));
    }
    let mut text = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SGF_BYTES + 1).read_to_end(&mut text))
        .map_err(cannot)?;
    if text.len() as u64 > MAX_SGF_BYTES {
        return Err(format!(
            "'{path}' is too large for a game record (over {MAX_SGF_BYTES} bytes)"
        ));
    }
    let record = sgf::parse(&String::from_utf8_lossy(&text)).map_err(|err| err.to_string())?;
    // GTP: the position before move MOVE_NUMBER is played.
    e.load(record, number.map(|n| n - 1));
    reply("")
}

fn printsgf(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let text = e.sgf();
    match a.first() {
        None => reply(text),
        Some(path) => {
            std::fs::write(path, text).map_err(|err| format!("cannot write '{path}': {err}"))?;
            reply("")
        }
    }
}

fn analyze_command(e: &mut Engine, a: &[String]) -> Result<Action, String> {
    let args = analyze::parse_args(a)?;
    if let Some(c) = args.color {
        e.check_turn(c).map_err(|err| err.to_string())?;
    }
    Ok(Action::Analyze(args))
}

fn list_options(e: &mut Engine, _: &[String]) -> Result<Action, String> {
    let mut lines = Vec::new();
    for o in OPTIONS {
        let value = e.option(o.name).map_err(|err| err.to_string())?;
        lines.push(format!("{} {value}", o.name));
    }
    reply(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn reading_lines() {
        let cmd = |id: Option<&str>, name: &str, args: &[&str]| Command {
            id: id.map(String::from),
            name: name.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
        };
        let cases = [
            ("", None),
            ("   \t ", None),
            ("# a comment", None),
            ("name", Some(cmd(None, "name", &[]))),
            (
                "  12 PLAY\tw  d1-d7/g7 \r",
                Some(cmd(Some("12"), "play", &["w", "d1-d7/g7"])),
            ),
            ("7 # only an id", Some(cmd(Some("7"), "", &[]))),
            ("gen\u{7}move b # x", Some(cmd(None, "genmove", &["b"]))),
            ("007 name", Some(cmd(Some("007"), "name", &[]))),
            ("12a name", Some(cmd(None, "12a", &["name"]))),
        ];
        for (raw, want) in cases {
            assert_eq!(parse(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn table_is_consistent() {
        for (i, s) in COMMANDS.iter().enumerate() {
            assert!(s.min <= s.max, "{}", s.name);
            assert_eq!(s.name, s.name.to_ascii_lowercase());
            assert!(
                COMMANDS[..i].iter().all(|t| t.name != s.name),
                "duplicate {}",
                s.name
            );
        }
    }

    #[test]
    fn solve_answers_win_loss_or_unknown() {
        let mut e = Engine::new(Settings::default());
        let mut run = |line: &str| match dispatch(&mut e, &parse(line).unwrap()) {
            Ok(Action::Reply(text)) => text,
            other => panic!("{line}: {:?}", other.map(|_| ())),
        };
        run("set_position xxB/xxx/W1x w");
        assert_eq!(run("solve"), "win a1-b1/a1");
        run("set_position 1BB1/B2B/W2W/1WW1 w");
        assert_eq!(run("solve 1000"), "loss");
        assert_eq!(run("get_position"), "1BB1/B2B/W2W/1WW1 w");
        run("set_position 1BB1/B2B/4/4/W2W/1WW1 w");
        assert_eq!(run("solve 0"), "unknown");
        let err = dispatch(&mut e, &parse("solve soon").unwrap()).unwrap_err();
        assert!(err.contains("bad solve time"), "{err}");
    }

    #[test]
    fn argument_errors_say_what_was_wrong() {
        let mut e = Engine::new(Settings::default());
        let cases = [
            ("frobnicate", "unknown command 'frobnicate'"),
            ("7", "empty command"),
            ("play w", "play takes COLOR MOVE (got 1)"),
            ("clear_board now", "clear_board takes no arguments (got 1)"),
            ("play green d1-d7/g7", "bad color 'green'"),
            ("play w pass", "no passing"),
            ("play w d1-d7", "cannot read move"),
            ("play b d1-d7/g7", "it is White's turn"),
            ("play w d1-d8/g7", "illegal move"),
            ("genmove b", "it is White's turn"),
            ("boardsize 11", "unacceptable size 11"),
            ("boardsize ten", "bad size"),
            (
                "set_position 3B2B3/9 w",
                "rank 1 has 9 squares but the top rank has 10",
            ),
            ("perft 4", "0 to 3"),
            ("time_settings 10 x 0", "bad byo-yomi time 'x'"),
            ("time_settings -1 0 0", "bad main time"),
            ("time_settings 10 5 -2", "bad stone count"),
            ("kgs-time_settings fischer 10 2", "unknown time system"),
            (
                "kgs-time_settings byoyomi 10 2",
                "bad time control 'byoyomi 10 2' (byoyomi takes 3 value(s) (main time, period, \
                 periods), got 2)",
            ),
            ("kata-time_settings fischer 10", "takes 2 value(s)"),
            ("kata-time_settings fischer 10 2 3", "got 3"),
            ("kata-time_settings 60 x", "'60' takes nothing after it"),
            ("time_left w 10", "time_left takes COLOR TIME STONES"),
            ("time_left w nan 0", "bad time"),
            (
                "final_score",
                "the game is not decided yet: some region still holds amazons of both sides \
                 (White to move has 2176 legal moves)",
            ),
            ("loadsgf /nonexistent/x.sgf", "cannot read"),
            ("loadsgf x.sgf 0", "bad move number"),
            ("loadsgf /dev/zero", "not a regular file"),
            ("loadsgf /", "not a regular file"),
            ("undo", "cannot undo"),
            ("set_game Go", "unsupported game 'Go'"),
            ("analyze b", "it is White's turn"),
            ("set_option threads 0", "bad value '0' for threads"),
            ("get_option color", "unknown option 'color'"),
        ];
        let before = e.position().to_string();
        for (line, want) in cases {
            let err = dispatch(&mut e, &parse(line).unwrap()).unwrap_err();
            assert!(err.contains(want), "{line}: {err}");
            assert_eq!(e.position().to_string(), before, "{line}");
        }
    }

    #[test]
    fn time_commands_set_the_control() {
        let mut e = Engine::new(Settings::default());
        let s = Duration::from_secs;
        let cases = [
            ("time_settings 0 1 0", TimeControl::Unlimited),
            (
                "time_settings 0 1 1",
                TimeControl::Canadian {
                    main: s(0),
                    period: s(1),
                    stones: 1,
                },
            ),
            ("kgs-time_settings none", TimeControl::Unlimited),
            (
                "kgs-time_settings absolute 300",
                TimeControl::Absolute { main: s(300) },
            ),
            (
                "kgs-time_settings byoyomi 60 10 3",
                TimeControl::ByoYomi {
                    main: s(60),
                    period: s(10),
                    periods: 3,
                },
            ),
            (
                "kgs-time_settings canadian 60 300 25",
                TimeControl::Canadian {
                    main: s(60),
                    period: s(300),
                    stones: 25,
                },
            ),
            (
                "kgs-time_settings canadian 60 300 0",
                TimeControl::Absolute { main: s(60) },
            ),
            (
                "kata-time_settings fischer 120 5",
                TimeControl::Fischer {
                    main: s(120),
                    increment: s(5),
                },
            ),
        ];
        for (line, want) in cases {
            dispatch(&mut e, &parse(line).unwrap()).unwrap();
            assert_eq!(e.clock().control(), &want, "{line}");
        }
        dispatch(&mut e, &parse("time_left b 12.5 3").unwrap()).unwrap();
        assert_eq!(
            e.clock().side(Color::Black).main,
            Duration::from_millis(12_500)
        );
    }
}
