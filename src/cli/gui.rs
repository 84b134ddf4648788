//! `otrera gui`: its flags, and the server run until the process is stopped (the page, the
//! API and the session are the `gui` library).

use super::settings_args::SettingsArgs;
use crate::engine::Engine;
use crate::gui::session::Controller;
use crate::gui::{Gui, DEFAULT_PORT};
use crate::time::TimeControl;
use std::net::TcpListener;
use std::process::ExitCode;

/// Flags of `otrera gui`.
#[derive(clap::Args, Clone, Debug)]
pub struct GuiArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; any other address lets
    /// everyone who can reach it drive the engine (see docs/gui.md).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Also open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Who plays White at the start: human or engine.
    #[arg(long, default_value = "human", value_parser = parse_controller)]
    pub white: Controller,
    /// Who plays Black at the start: human or engine.
    #[arg(long, default_value = "engine", value_parser = parse_controller)]
    pub black: Controller,
    /// Time control, e.g. `absolute 300`, `fischer 60 2`, `byoyomi 60 10 3`,
    /// `canadian 60 30 5`, `st 5` (seconds or M:SS), `none`, or the compact forms of
    /// `match --tc` (`300`, `60+2`, `canadian:60:30:5`).
    #[arg(long, default_value = "none")]
    pub time: TimeControl,
    #[command(flatten)]
    /// Engine settings, as for the protocol.
    pub settings: SettingsArgs,
}

fn parse_controller(text: &str) -> Result<Controller, String> {
    Controller::parse(text).ok_or_else(|| format!("'{text}' is not human or engine"))
}

/// Runs `otrera gui` until the process is stopped.
pub fn run(args: &GuiArgs) -> ExitCode {
    let settings = args.settings.settings();
    let listener = match TcpListener::bind((args.host.as_str(), args.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("otrera: cannot listen on {}:{}: {e}", args.host, args.port);
            return ExitCode::FAILURE;
        }
    };
    let gui = match Gui::start(
        Engine::new(settings),
        [args.white, args.black],
        args.time,
        listener,
    ) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("otrera: cannot start the server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let addr = gui.addr();
    let url = format!("http://{addr}/");
    println!("Otrera GUI: {url}  (Ctrl-C stops it)");
    if !addr.ip().is_loopback() {
        eprintln!(
            "otrera: warning: listening on {}, not only this machine: anyone who can reach \
             it can play and load games, and use this machine's CPU",
            addr.ip()
        );
    }
    if args.open {
        open_browser(&url);
    }
    loop {
        std::thread::park();
    }
}

/// Starts the user's browser on `url`, or says how to open it.
fn open_browser(url: &str) {
    let tries: &[(&str, &[&str])] = if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else {
        &[("xdg-open", &[]), ("sensible-browser", &[])]
    };
    for (program, args) in tries {
        let started = std::process::Command::new(program)
            .args(*args)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if started.is_ok() {
            return;
        }
    }
    eprintln!("otrera: could not start a browser; open {url} yourself");
}
