//! The GUI's HTTP API over real connections on 127.0.0.1: a whole game, refused requests that
//! change nothing, the analysis stream, and paths outside the embedded files.

use otrera::engine::Engine;
use otrera::gui::session::Controller;
use otrera::gui::Gui;
use otrera::player_kind::PlayerKind;
use otrera::settings::Settings;
use otrera::time::TimeControl;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// Long enough for a loaded machine; the tests never wait this long when things work.
const PATIENCE: Duration = Duration::from_secs(120);

fn start(player: PlayerKind) -> Gui {
    let settings = Settings {
        player,
        seed: Some(11),
        threads: 1,
        memory_mb: 64,
        playouts: (player != PlayerKind::Mcts).then_some(200),
        ..Settings::default()
    };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    Gui::start(
        Engine::new(settings),
        [Controller::Human, Controller::Human],
        TimeControl::Unlimited,
        listener,
    )
    .unwrap()
}

/// Sends raw bytes, returns the status and the body.
fn raw(addr: SocketAddr, bytes: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(PATIENCE)).unwrap();
    // The server may answer and close before reading everything (a refused body).
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, String) {
    raw(
        addr,
        format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nX-Otrera: 1\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}

fn ok(addr: SocketAddr, path: &str, body: &str) -> String {
    let (status, text) = post(addr, path, body);
    assert_eq!(status, 200, "{path} {body}: {text}");
    text
}

/// The raw JSON text after `"key":` up to the end of its value (good enough for scalars and
/// flat arrays of scalars).
fn field<'a>(json: &'a str, key: &str) -> &'a str {
    let start = json
        .find(&format!("\"{key}\":"))
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        + key.len()
        + 3;
    let rest = &json[start..];
    let end = if rest.starts_with('[') {
        rest.find(']').unwrap() + 1
    } else if let Some(quoted) = rest.strip_prefix('"') {
        quoted.find('"').unwrap() + 2
    } else {
        rest.find([',', '}']).unwrap()
    };
    &rest[..end]
}

fn strings(array: &str) -> Vec<String> {
    array
        .trim_matches(['[', ']'])
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_matches('"').to_string())
        .collect()
}

/// The state without its version number (which every publication bumps) and age.
fn unversioned(state: &str) -> String {
    let v = field(state, "version");
    let age = field(state, "ageMs");
    state
        .replacen(&format!("\"version\":{v},"), "", 1)
        .replacen(&format!(",\"ageMs\":{age}"), "", 1)
}

fn state(addr: SocketAddr) -> String {
    let (status, body) = get(addr, "/api/state");
    assert_eq!(status, 200);
    body
}

fn wait_for(addr: SocketAddr, what: &str, done: impl Fn(&str) -> bool) -> String {
    let t = Instant::now();
    loop {
        let s = state(addr);
        if done(&s) {
            return s;
        }
        assert!(t.elapsed() < PATIENCE, "waiting for {what}: {s}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Plays human against human from state `s` to the end, always the first legal move: the final
/// state and the moves played.
fn play_out(addr: SocketAddr, mut s: String) -> (String, Vec<String>) {
    let mut played = Vec::new();
    while field(&s, "winner") == "null" {
        let legal = strings(field(&s, "legal"));
        assert!(!legal.is_empty(), "{s}");
        s = ok(addr, "/api/play", &legal[0]);
        played.push(legal[0].clone());
    }
    (s, played)
}

#[test]
fn a_whole_game_through_the_api() {
    let gui = start(PlayerKind::Random);
    let addr = gui.addr();
    let s = ok(addr, "/api/new", "6");
    assert_eq!((field(&s, "width"), field(&s, "height")), ("6", "6"));
    let (s, played) = play_out(addr, state(addr));
    let winner = field(&s, "winner").trim_matches('"').to_string();
    assert!(winner == "white" || winner == "black", "{s}");
    assert!(field(&s, "text").starts_with(&format!("\"{}+", &winner[..1].to_uppercase())));
    assert_eq!(strings(field(&s, "moves")), played);
    // Save, step back, load the record again: the same game.
    let (status, sgf) = get(addr, "/api/sgf");
    assert_eq!(status, 200);
    assert!(sgf.contains("GM[18]") && sgf.contains("SZ[6]"), "{sgf}");
    let s = ok(addr, "/api/goto", "2");
    assert_eq!(field(&s, "ply"), "2");
    assert_eq!(strings(field(&s, "moves")).len(), played.len());
    ok(addr, "/api/new", "8");
    let s = ok(addr, "/api/sgf", &sgf);
    assert_eq!(strings(field(&s, "moves")), played);
    assert_eq!(field(&s, "winner"), format!("\"{winner}\""));
    // Undo and redo.
    let s = ok(addr, "/api/undo", "");
    assert_eq!(field(&s, "ply"), (played.len() - 1).to_string());
    let s = ok(addr, "/api/redo", "");
    assert_eq!(field(&s, "ply"), played.len().to_string());
    // Against the engine: it answers a human move by itself.
    ok(addr, "/api/new", "10");
    ok(addr, "/api/players", "white=human black=engine");
    ok(addr, "/api/play", "d1-d7/g7");
    let s = wait_for(addr, "the engine's reply", |s| field(s, "ply") == "2");
    assert_eq!(field(&s, "toMove"), "\"white\"");
    // Undo against the engine takes back its reply and the human's move.
    let s = ok(addr, "/api/undo", "");
    assert_eq!(field(&s, "ply"), "0");
    assert_eq!(field(&s, "paused"), "true");
}

#[test]
fn a_rectangle_through_the_api() {
    let gui = start(PlayerKind::Random);
    let addr = gui.addr();
    // The named 5x4 start: 5 files, 4 ranks.
    let s = ok(addr, "/api/new", "5x4");
    assert_eq!((field(&s, "width"), field(&s, "height")), ("5", "4"));
    assert_eq!(field(&s, "pieces"), "\".W.W.W...WB...B.B.B.\"");
    let (_, played) = play_out(addr, s);
    let (status, sgf) = get(addr, "/api/sgf");
    assert_eq!(status, 200);
    assert!(sgf.contains("SZ[5:4]"), "{sgf}");
    ok(addr, "/api/new", "4x6");
    let s = ok(addr, "/api/sgf", &sgf);
    assert_eq!(strings(field(&s, "moves")), played);
    assert_eq!(field(&s, "width"), "5");
    // A rectangle set up by its position string.
    let s = ok(addr, "/api/position", "B5/6/5W w");
    assert_eq!((field(&s, "width"), field(&s, "height")), ("6", "3"));
}

#[test]
fn refused_requests_leave_the_game_unchanged() {
    let gui = start(PlayerKind::Random);
    let addr = gui.addr();
    ok(addr, "/api/play", "d1-d7/g7");
    let before = unversioned(&state(addr));
    let huge = "x".repeat(2 << 20);
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("/api/play", "d1-d7/g7".into(), 400, "no amazon"),
        ("/api/play", "a7-a1/a2".into(), 400, "illegal"),
        ("/api/play", "a7-a6".into(), 400, "cannot read move"),
        ("/api/play", "z9-a1/a2".into(), 400, ""),
        ("/api/play", "".into(), 400, ""),
        ("/api/position", "3B2B3/9 w".into(), 400, "bad position"),
        ("/api/position", "rubbish".into(), 400, "bad position"),
        ("/api/sgf", "(;GM[1]SZ[19])".into(), 400, "bad SGF"),
        (
            "/api/sgf",
            "(;GM[18]SZ[10];W[zzzzzz])".into(),
            400,
            "bad SGF",
        ),
        ("/api/sgf", "not sgf at all".into(), 400, "bad SGF"),
        ("/api/new", "11".into(), 400, "no start position for 11x11"),
        ("/api/new", "3x5".into(), 400, "no start position for 3x5"),
        ("/api/new", "-1".into(), 400, "bad board size"),
        ("/api/new", "5by4".into(), 400, "bad board size"),
        ("/api/goto", "5".into(), 400, "there is no move 5"),
        ("/api/redo", "".into(), 400, "nothing to redo"),
        ("/api/time", "absolute -5".into(), 400, "bad main time"),
        (
            "/api/players",
            "white=alien black=human".into(),
            400,
            "bad player",
        ),
        ("/api/frobnicate", "".into(), 404, "no such request"),
    ];
    for (path, body, status, want) in &cases {
        let (got, text) = post(addr, path, body);
        assert_eq!(got, *status, "{path} {body}: {text}");
        assert!(
            text.contains("\"error\":") && text.contains(want),
            "{path} {body}: {text}"
        );
        assert_eq!(unversioned(&state(addr)), before, "{path} {body}");
    }
    let raw_cases: Vec<(Vec<u8>, u16)> = vec![
        // No X-Otrera header: another site's page could send this.
        (b"POST /api/undo HTTP/1.1\r\nContent-Length: 0\r\n\r\n".to_vec(), 403),
        (
            format!(
                "POST /api/sgf HTTP/1.1\r\nX-Otrera: 1\r\nContent-Length: {}\r\n\r\n{huge}",
                huge.len()
            )
            .into_bytes(),
            413,
        ),
        (b"POST /api/play HTTP/1.1\r\nX-Otrera: 1\r\nContent-Length: x\r\n\r\n".to_vec(), 400),
        (
            b"POST /api/play HTTP/1.1\r\nX-Otrera: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                .to_vec(),
            411,
        ),
        (b"GARBAGE\r\n\r\n".to_vec(), 400),
        (b"GET / HTTP/1.1\r\nBad Header\r\n\r\n".to_vec(), 400),
        (
            format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(40_000)).into_bytes(),
            431,
        ),
        (
            format!("GET / HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(100)).into_bytes(),
            431,
        ),
        (b"POST /api/play HTTP/1.1\r\nX-Otrera: 1\r\nContent-Length: 4\r\n\r\n\xff\xfe\xfd\xfc".to_vec(), 400),
        (b"PUT /api/play HTTP/1.1\r\n\r\n".to_vec(), 405),
        (b"DELETE / HTTP/1.1\r\n\r\n".to_vec(), 405),
    ];
    for (bytes, status) in &raw_cases {
        let (got, text) = raw(addr, bytes);
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).to_string();
        assert_eq!(got, *status, "{shown}: {text}");
        assert_eq!(unversioned(&state(addr)), before, "{shown}");
    }
    // Abrupt disconnects: a half-sent head, a half-sent body, a stream closed at once.
    for bytes in [
        &b"GET /api/sta"[..],
        b"POST /api/play HTTP/1.1\r\nX-Otrera: 1\r\nContent-Length: 100\r\n\r\nd1",
        b"GET /api/events HTTP/1.1\r\n\r\n",
    ] {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(bytes).unwrap();
        drop(s);
    }
    assert_eq!(unversioned(&state(addr)), before);
    assert_eq!(get(addr, "/").0, 200);
}

#[test]
fn only_embedded_files_are_served() {
    let gui = start(PlayerKind::Random);
    let addr = gui.addr();
    for path in ["/", "/index.html", "/app.js", "/style.css", "/favicon.svg"] {
        let (status, body) = get(addr, path);
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty(), "{path}");
    }
    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/src/main.rs",
        "/etc/passwd",
        "//etc/passwd",
        "/app.js/",
        "/index.html%00",
        "/api",
        "/api/nothing",
        "/Cargo.toml",
    ] {
        let (status, _) = get(addr, path);
        assert_eq!(status, 404, "{path}");
    }
}

#[test]
fn the_analysis_stream_delivers_updates() {
    let gui = start(PlayerKind::Mcts);
    let addr = gui.addr();
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream
        .write_all(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut lines = BufReader::new(stream).lines();
    let mut next = || lines.next().unwrap().unwrap();
    assert_eq!(next(), "HTTP/1.1 200 OK");
    while !next().is_empty() {}
    // The stream opens with the current state.
    assert_eq!(next(), "event: state");
    assert!(next().starts_with("data: {\"version\":"));
    ok(addr, "/api/analysis", "on");
    let mut analyses = 0;
    let t = Instant::now();
    while analyses < 2 {
        assert!(t.elapsed() < PATIENCE, "no analysis events");
        if next() == "event: analysis" {
            let data = next();
            assert_eq!(field(&data, "ply"), "0", "{data}");
            assert_eq!(field(&data, "side"), "\"white\"", "{data}");
            assert!(
                data.contains("\"move\":\"") && data.contains("\"pv\":["),
                "{data}"
            );
            analyses += 1;
        }
    }
    let s = ok(addr, "/api/analysis", "off");
    assert_eq!(field(&s, "analysis"), "false");
    let s = wait_for(addr, "the analysis to stop", |s| {
        field(s, "status") == "\"idle\""
    });
    // The analysis left an estimate for the graph.
    assert_ne!(field(&s, "winrates"), "[null]");
}

#[test]
fn stepping_back_stops_the_engine_and_its_move_is_not_played() {
    let gui = start(PlayerKind::Mcts);
    let addr = gui.addr();
    // An hour each: the engine's first move takes long enough to be interrupted.
    ok(addr, "/api/time", "absolute 3600");
    ok(addr, "/api/players", "white=human black=engine");
    ok(addr, "/api/play", "d1-d7/g7");
    // The session answers while the engine thinks.
    ok(addr, "/api/analysis", "off");
    let s = state(addr);
    assert_eq!(field(&s, "status"), "\"thinking:black\"", "{s}");
    assert_eq!(field(&s, "running"), "\"black\"");
    let (status, text) = post(addr, "/api/play", "a7-a6/a5");
    assert_eq!(status, 400);
    assert!(text.contains("the engine is thinking"), "{text}");
    let s = ok(addr, "/api/goto", "0");
    assert_eq!(field(&s, "ply"), "0");
    assert_eq!(field(&s, "status"), "\"idle\"");
    assert_eq!(strings(field(&s, "moves")), ["d1-d7/g7"]);
    // Stepping forward again leaves the engine waiting to be told to play.
    let s = ok(addr, "/api/redo", "");
    assert_eq!(field(&s, "paused"), "true");
    assert_eq!(field(&s, "status"), "\"idle\"");
    assert_eq!(strings(field(&s, "moves")), ["d1-d7/g7"]);
}
