//! The HTTP API: which request does what. Every request is checked here or by the session
//! before anything changes; a refused one gets a status and a clear message, and the game is
//! as it was.
//!
//! - `GET /api/state`: the state (JSON); `GET /api/events`: the event stream (`state` and
//!   `analysis` events); `GET /api/sgf`: the whole line as an SGF file.
//! - `POST /api/...` with a plain-text body: `play` (a move), `undo`, `redo`, `goto` (a number
//!   of moves), `new` (a board: `N` for N x N, or `WxH`), `position` (a position string), `sgf`
//!   (SGF text), `players` (`white=human black=engine`), `time` (a time control), `analysis`
//!   (`on`/`off`), `resume`. They answer the new state, or 400 with `{"error": ...}`. They must carry the
//!   header `X-Otrera: 1`, which other sites' pages cannot send without the server's consent
//!   (which it never gives), so a page elsewhere cannot drive the game.
//! - Anything else is one of the embedded files, or 404.

use super::assets::{self, CONTENT_SECURITY_POLICY};
use super::http::{Handler, Request, Response};
use super::session::{Command, Controller, Handle};
use crate::json::write::Object;
use crate::time::TimeError;
use std::sync::Arc;

/// The header every `POST` must carry.
pub const POST_HEADER: &str = "x-otrera";

/// The request handler for a session.
pub fn handler(session: Handle) -> Arc<Handler> {
    Arc::new(move |request| route(&session, &request))
}

fn json_response(status: u16, body: &str) -> Response {
    Response::new(status, "application/json", body.as_bytes().to_vec())
}

fn error(status: u16, text: &str) -> Response {
    json_response(status, &Object::new().str("error", text).finish())
}

fn route(session: &Handle, request: &Request) -> Response {
    let path = request.path.as_str();
    match (request.method.as_str(), path) {
        ("GET", "/api/state") => json_response(200, &session.state()),
        ("GET", "/api/events") => match session.subscribe() {
            Some(events) => Response::Events(events),
            None => error(503, "too many open pages"),
        },
        ("GET", "/api/sgf") => match session.call(Command::SaveSgf) {
            Ok(text) => Response::Full {
                status: 200,
                content_type: "application/x-go-sgf; charset=utf-8",
                headers: vec![(
                    "Content-Disposition",
                    "attachment; filename=\"otrera.sgf\"".into(),
                )],
                body: text.into_bytes(),
            },
            Err(e) => error(503, &e),
        },
        ("POST", _) if path.starts_with("/api/") => post(session, request),
        (_, _) if POSTS.contains(&path.trim_start_matches("/api/")) => {
            error(405, "this request changes the game: send it with POST")
        }
        (_, _) if path.starts_with("/api/") => error(404, &format!("no such request: {path}")),
        ("GET", _) => match assets::find(path) {
            Some(asset) => Response::Full {
                status: 200,
                content_type: asset.content_type,
                headers: vec![("Content-Security-Policy", CONTENT_SECURITY_POLICY.into())],
                body: asset.body.as_bytes().to_vec(),
            },
            None => Response::error(404, "not found"),
        },
        _ => Response::error(405, "only GET and POST are served"),
    }
}

fn post(session: &Handle, request: &Request) -> Response {
    if request.header(POST_HEADER) != Some("1") {
        return error(
            403,
            "requests that change the game must carry the header X-Otrera: 1",
        );
    }
    let Ok(body) = std::str::from_utf8(&request.body) else {
        return error(400, "the request body is not UTF-8 text");
    };
    let command = match command(&request.path, body.trim()) {
        Ok(Some(c)) => c,
        Ok(None) => return error(404, &format!("no such request: {}", request.path)),
        Err(e) => return error(400, &e),
    };
    match session.call(command) {
        Ok(state) => json_response(200, &state),
        Err(e) => error(400, &e),
    }
}

/// The requests sent with `POST`.
const POSTS: &[&str] = &[
    "play", "undo", "redo", "resume", "goto", "new", "position", "sgf", "players", "time",
    "analysis",
];

/// The command a `POST` asks for; `None` for an unknown path.
fn command(path: &str, body: &str) -> Result<Option<Command>, String> {
    let command = match path.trim_start_matches("/api/") {
        "play" => Command::Play(body.to_string()),
        "undo" => Command::Undo,
        "redo" => Command::Redo,
        "resume" => Command::Resume,
        "goto" => Command::Goto(
            body.parse()
                .map_err(|_| format!("bad move number '{body}' (a whole number)"))?,
        ),
        "new" => {
            let bad = || format!("bad board size '{body}' (N for N x N, or WxH: W files, H ranks)");
            let (w, h) = match body.trim().parse::<usize>() {
                Ok(n) => (n, n),
                Err(_) => crate::position::parse_dims(body).ok_or_else(bad)?,
            };
            Command::NewGame(w, h)
        }
        "position" => Command::SetPosition(body.to_string()),
        "sgf" => Command::LoadSgf(body.to_string()),
        "players" => Command::Players(players(body)?),
        "time" => Command::Time(body.parse().map_err(|e: TimeError| e.to_string())?),
        "analysis" => Command::Analysis(match body.to_ascii_lowercase().as_str() {
            "on" => true,
            "off" => false,
            _ => return Err(format!("bad analysis switch '{body}' (on or off)")),
        }),
        _ => return Ok(None),
    };
    Ok(Some(command))
}

/// Reads `white=human black=engine` (either order, separated by spaces or `&`).
fn players(body: &str) -> Result<[Controller; 2], String> {
    let mut out = [None, None];
    for part in body.split(['&', ' ']).filter(|p| !p.is_empty()) {
        let (side, who) = part
            .split_once('=')
            .ok_or_else(|| format!("bad player setting '{part}' (white=human black=engine)"))?;
        let index = match side.to_ascii_lowercase().as_str() {
            "white" => 0,
            "black" => 1,
            _ => return Err(format!("bad side '{side}' (white or black)")),
        };
        out[index] = Some(
            Controller::parse(who)
                .ok_or_else(|| format!("bad player '{who}' (human or engine)"))?,
        );
    }
    match out {
        [Some(w), Some(b)] => Ok([w, b]),
        _ => Err("name both sides: white=human|engine black=human|engine".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_checked_before_the_session_sees_them() {
        for (path, body, want) in [
            ("/api/goto", "-1", "bad move number"),
            ("/api/new", "ten", "bad board size"),
            ("/api/players", "white=human", "name both sides"),
            (
                "/api/players",
                "white=robot black=human",
                "bad player 'robot'",
            ),
            ("/api/players", "red=human black=human", "bad side"),
            ("/api/time", "absolute x", "bad main time"),
            ("/api/analysis", "maybe", "on or off"),
        ] {
            let e = command(path, body).unwrap_err();
            assert!(e.contains(want), "{path} {body}: {e}");
        }
        assert!(command("/api/frobnicate", "").unwrap().is_none());
        for name in POSTS {
            let known = !matches!(command(&format!("/api/{name}"), "1"), Ok(None));
            assert!(known, "{name}");
        }
        assert_eq!(
            players("black=engine&white=human").unwrap(),
            [Controller::Human, Controller::Engine]
        );
    }
}
