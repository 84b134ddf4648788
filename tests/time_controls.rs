//! One time control, three front ends: for every row, the protocol's `kata-time_settings`, the
//! GUI's `--time` and the match runner's `--tc` give the same control or the same refusal, the
//! one parser's (`TimeControl`'s `FromStr`); `--st` agrees with `st SECONDS` in the other two.

use clap::Parser;
use otrera::cli::gui::GuiArgs;
use otrera::cli::matches::MatchArgs;
use otrera::engine::Engine;
use otrera::protocol::command::{dispatch, parse};
use otrera::settings::Settings;
use otrera::time::{TimeControl, TimeError};
use std::time::Duration;

#[derive(Parser)]
struct Gui {
    #[command(flatten)]
    args: GuiArgs,
}

#[derive(Parser)]
struct Match {
    #[command(flatten)]
    args: MatchArgs,
}

/// What a front end made of a text: the control, or its error message.
type Answer = Result<TimeControl, String>;

fn protocol(text: &str) -> Answer {
    let mut e = Engine::new(Settings::default());
    let cmd = parse(&format!("kata-time_settings {text}")).expect("a command");
    dispatch(&mut e, &cmd).map(|_| *e.clock().control())
}

fn gui(text: &str) -> Answer {
    Gui::try_parse_from(["gui", &format!("--time={text}")])
        .map(|g| g.args.time)
        .map_err(|e| e.to_string())
}

fn match_runner(flag: &str, text: &str) -> Answer {
    let m = Match::try_parse_from([
        "match",
        "--engine",
        "a",
        "--engine",
        "b",
        &format!("--{flag}={text}"),
    ])
    .map_err(|e| e.to_string())?;
    m.args.to_config().map(|c| c.settings.controls[0])
}

/// Checks that every front end gives `want`: the same control, or an error that says what the
/// parser's error says.
fn agree(text: &str, want: &Result<TimeControl, TimeError>, answers: [(&str, Answer); 3]) {
    for (front, answer) in answers {
        match (want, &answer) {
            (Ok(c), Ok(got)) => assert_eq!(got, c, "{front} read '{text}'"),
            (Err(e), Err(got)) => assert!(
                got.contains(&e.to_string()),
                "{front} refused '{text}' with {got:?}, not {e}"
            ),
            _ => panic!("{front} answered '{text}' with {answer:?}, the parser with {want:?}"),
        }
    }
}

#[test]
fn every_front_end_reads_a_control_as_the_parser_does() {
    let rows = [
        // The issue's rows.
        "canadian 60 30 0",
        "absolute 0",
        "byoyomi 60 0 3",
        "100000000",
        "absolute 100000000",
        "absolute 100000001",
        "1e9",
        "1:30",
        "absolute 1:30",
        // Every control, in words and compact.
        "none",
        "absolute 300",
        "Fischer 60 2",
        "fischer 0 0",
        "byoyomi 60 10 3",
        "byoyomi 0 10 3",
        "canadian 600 300 25",
        "canadian 0 1 1",
        "st 1.5",
        "st 0",
        "60",
        "60+0.5",
        "0+1",
        "1:30+5",
        "canadian:10:5:5",
        "canadian:10:0:5",
        "canadian:10:5:0",
        "byoyomi:60:10:3",
        // Bad, huge, negative and NaN numbers; missing and extra words.
        "absolute x",
        "absolute 1e99",
        "fischer 60 -2",
        "absolute -1",
        "-1",
        "st -1",
        "absolute NaN",
        "NaN",
        "inf",
        "canadian 60 30 -1",
        "canadian 60 30 4294967296",
        "byoyomi 60 30 1.5",
        "1:x",
        "1+",
        "+1",
        "1+x",
        "",
        "absolute",
        "fischer 60",
        "byoyomi 60 10",
        "canadian:10:5",
        "absolute 60 5",
        "none 5",
        "canadian 60 30 5 5",
        "canadian:10:5:5:5",
        "60 5",
        "sudden 3",
    ];
    for text in rows {
        let want = text.parse::<TimeControl>();
        agree(
            text,
            &want,
            [
                ("protocol", protocol(text)),
                ("gui --time", gui(text)),
                ("match --tc", match_runner("tc", text)),
            ],
        );
    }
}

#[test]
fn the_issue_rows_have_the_gtp_meaning() {
    let s = Duration::from_secs;
    for (text, want) in [
        ("canadian 60 30 0", TimeControl::Absolute { main: s(60) }),
        ("absolute 0", TimeControl::Absolute { main: s(0) }),
        ("byoyomi 60 0 3", TimeControl::Absolute { main: s(60) }),
        (
            "100000000",
            TimeControl::Absolute {
                main: s(100_000_000),
            },
        ),
        ("1:30", TimeControl::Absolute { main: s(90) }),
    ] {
        assert_eq!(text.parse(), Ok(want), "{text}");
    }
    assert!("100000001".parse::<TimeControl>().is_err());
}

#[test]
fn a_fixed_time_per_move_is_read_alike() {
    for seconds in ["1.5", "0", "1:00", "-1", "x", "1e9"] {
        let text = format!("st {seconds}");
        let want = text.parse::<TimeControl>();
        agree(
            &text,
            &want,
            [
                ("protocol", protocol(&text)),
                ("gui --time", gui(&text)),
                ("match --st", match_runner("st", seconds)),
            ],
        );
    }
}
