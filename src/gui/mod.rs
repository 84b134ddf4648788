//! `otrera gui`: the engine behind a web page served on this machine. Play (against the
//! engine, engine against engine, or two humans), step through the game, and watch the engine's
//! analysis, the territory and the regions on the board.
//!
//! The page's files are embedded in the binary ([`assets`]); a small HTTP server ([`http`])
//! answers a JSON API ([`routes`]) and streams states and analysis as Server-Sent Events
//! ([`events`]). Behind it one [`session`] thread owns the engine facade.

pub mod assets;
pub mod events;
pub mod http;
pub mod routes;
pub mod session;
pub mod timing;
pub mod view;

use crate::engine::Engine;
use crate::time::TimeControl;
use session::{Controller, Handle};
use std::io;
use std::net::{SocketAddr, TcpListener};

/// Port used when none is given.
pub const DEFAULT_PORT: u16 = 8190;

/// A running GUI: the server and its session.
pub struct Gui {
    server: http::Server,
    session: Handle,
}

impl Gui {
    /// Serves a session around `engine` on `listener`.
    pub fn start(
        engine: Engine,
        players: [Controller; 2],
        control: TimeControl,
        listener: TcpListener,
    ) -> io::Result<Gui> {
        let session = session::start(engine, players, control);
        let server = http::Server::start(listener, routes::handler(session.clone()))?;
        Ok(Gui { server, session })
    }

    /// The address it serves.
    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// The session.
    pub fn session(&self) -> &Handle {
        &self.session
    }
}
