//! `otrera solve`: prove a position from the command line.
//!
//! Prints the position, a progress line every `--progress` seconds, a summary (statistics and the
//! root moves' status), with `--verify` a line on the proof's check and size, and, as the very
//! last line, `result: win MOVE`, `result: loss` or
//! `result: unknown`. The first Ctrl-C stops the search and prints what is known so far.
//! With `--guide`, a `guide:` line gives the tree search's ranking (its time is not counted in
//! `--time`) and one more line reports each try of a candidate (see [`crate::solver::guide`]).

pub mod oracle;

use super::interrupt;
use crate::mv::Move;
use crate::position::{parse_dims, Position};
use crate::solver::guide::{distinct_legal, Attempt, Guide, Outcome, FIRST_BUDGET};
use crate::solver::{FirstMoves, MoveStatus, ProofCheck, ProofLimits, ProofSolver, Verdict};
use crate::time::read_seconds;
use clap::Args;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Options of `otrera solve`.
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// The position string to solve.
    #[arg(long, conflicts_with = "board")]
    pub position: Option<String>,
    /// A named start instead: `WxH` (W files, H ranks), e.g. 5x5, 4x7, 6x5.
    #[arg(long)]
    pub board: Option<String>,
    /// Search threads (they share the table).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 1024)]
    pub hash: usize,
    /// Stop after this many seconds (or M:SS).
    #[arg(long)]
    pub time: Option<String>,
    /// Stop after this many expanded positions.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seconds between progress lines.
    #[arg(long, default_value = "10")]
    pub progress: String,
    /// After a proof, walk it and check every position of it against its children (the table
    /// only suggests moves), print its size, and exit with status 1 if it does not hold.
    #[arg(long)]
    pub verify: bool,
    /// Guide the root by the engine's tree search: rank the first moves with this many playouts,
    /// then prove the best ranked first, with growing budgets, in turns with the whole root.
    #[arg(long, value_name = "PLAYOUTS")]
    pub guide: Option<u64>,
    /// First moves (distinct up to symmetry) the guide tries, best ranked first.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub guide_moves: usize,
}

fn start_position(args: &SolveArgs) -> Result<Position, String> {
    match (&args.position, &args.board) {
        (Some(p), _) => p.parse().map_err(|e| format!("bad --position: {e}")),
        (None, Some(b)) => {
            let (w, h) = parse_dims(b)
                .ok_or_else(|| format!("bad --board '{b}' (expected WxH, like 5x6)"))?;
            Position::named_start(w, h)
                .ok_or_else(|| format!("no named start for {w}x{h} (files and ranks from 4 to 10)"))
        }
        (None, None) => Err("give --position POS or --board WxH".into()),
    }
}

fn seconds(what: &str, text: &str) -> Result<Duration, String> {
    read_seconds(&format!("--{what}"), text).map_err(|e| e.to_string())
}

/// Runs `otrera solve`.
pub fn run(args: &SolveArgs) -> ExitCode {
    let parsed = start_position(args).and_then(|pos| {
        let time = args
            .time
            .as_deref()
            .map(|t| seconds("time", t))
            .transpose()?;
        let every = seconds("progress", &args.progress)?.max(Duration::from_millis(100));
        if args.guide == Some(0) {
            return Err("bad --guide 0 (playouts of the tree search, at least 1)".into());
        }
        Ok((pos, time, every))
    });
    let (pos, time, report_every) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("otrera: {e}");
            return ExitCode::from(2);
        }
    };
    println!("{}", pos.diagram());
    println!("position {} ({})", pos, pos.dims_text());
    let threads = args.threads.clamp(1, 256);
    let mut solver = ProofSolver::with_threads(args.hash, threads);
    println!(
        "table {} MiB{}, {} thread{}",
        solver.table_mib(),
        if solver.table_start_mib() < solver.table_mib() {
            format!(
                " (from {} MiB, grown when three quarters full)",
                solver.table_start_mib()
            )
        } else {
            String::new()
        },
        threads,
        if threads == 1 { "" } else { "s" },
    );
    let limits = ProofLimits {
        nodes: args.nodes.unwrap_or(u64::MAX),
        time,
        report_every,
    };
    interrupt::install();
    let report = match args.guide {
        None => solver.solve(&pos, &limits, interrupt::flag(), &mut |p| {
            println!("progress: {p}");
        }),
        Some(playouts) => {
            let started = Instant::now();
            let ranked = oracle::ranked_moves(&pos, playouts, interrupt::flag());
            let visits = |m: Move| ranked.iter().find(|r| r.0 == m).map_or(0, |r| r.1);
            let all: Vec<Move> = ranked.iter().map(|r| r.0).collect();
            let mut candidates = distinct_legal(&pos, &all);
            candidates.truncate(args.guide_moves);
            let list: Vec<String> = candidates
                .iter()
                .map(|&m| format!("{m} ({} visits)", visits(m)))
                .collect();
            println!(
                "guide: tree search, {playouts} playouts in {:.1}s: {}",
                started.elapsed().as_secs_f64(),
                if list.is_empty() {
                    "no move".to_string()
                } else {
                    list.join(", ")
                }
            );
            // Square roots of the visits: the top move gets most of each round, not all.
            let guide = Guide {
                candidates: candidates
                    .iter()
                    .map(|&m| (m, (visits(m) as f64).sqrt()))
                    .collect(),
                first_budget: FIRST_BUDGET,
            };
            solver.solve_guided(
                &pos,
                &guide,
                &limits,
                interrupt::flag(),
                &mut |p| println!("progress: {p}"),
                &mut |a| println!("{}", attempt_line(a)),
            )
        }
    };
    if report.stopped && report.verdict == Verdict::Unknown {
        println!("stopped before a proof (limit reached or interrupted)");
    }
    if let Some((mib, nodes)) = report.grown {
        println!("table grown: {mib} MiB three quarters full after {nodes} nodes, solved again with the whole table");
    }
    let s = report.stats;
    println!(
        "summary: {} in {:.2}s, {} nodes ({} leaves), {:.0} nodes/s, table {:.1}%, proven {} disproven {}, table memory {:.1} MiB",
        report.verdict,
        s.elapsed.as_secs_f64(),
        s.nodes,
        s.leaves,
        s.rate(),
        s.table_usage * 100.0,
        s.proven,
        s.disproven,
        solver.table_resident_mib()
    );
    let first = FirstMoves::of(&report.moves);
    println!(
        "root moves (up to symmetry): {} winning, {} losing, {} open",
        first.won,
        first.lost,
        first.total - first.won - first.lost
    );
    if report.verdict == Verdict::Unknown {
        for (m, st) in report.moves.iter().take(5) {
            if let MoveStatus::Open { pn, dn } = st {
                println!("  open {m}: opponent pn {pn} dn {dn}");
            }
        }
    }
    let mut status = ExitCode::SUCCESS;
    if args.verify {
        let win = match report.verdict {
            Verdict::Win(_) => Some(true),
            Verdict::Loss => Some(false),
            Verdict::Unknown => None,
        };
        match win {
            None => println!("proof: none to check"),
            Some(win) => {
                let started = Instant::now();
                let check = solver.check_proof(&pos, win, interrupt::flag());
                println!("{}", proof_line(&check, started.elapsed()));
                if !check.verified {
                    status = ExitCode::FAILURE;
                }
            }
        }
    }
    println!("result: {}", report.verdict);
    status
}

/// The line that reports one try of a guide's candidate.
fn attempt_line(a: &Attempt) -> String {
    let outcome = match a.outcome {
        Outcome::Wins => "wins",
        Outcome::Loses => "loses",
        Outcome::Open => "open",
    };
    format!(
        "guide: round {}, {} (budget {} nodes): {outcome} after {} nodes",
        a.round, a.mv, a.budget, a.nodes
    )
}

/// The line that reports a proof check.
fn proof_line(c: &ProofCheck, took: Duration) -> String {
    let size = format!(
        "{} positions with the winner to move, {} with the loser to move, {} leaves (distinct up \
         to symmetry), {} nodes, {} nodes searched again, {:.2}s",
        c.winner,
        c.loser,
        c.leaves,
        c.nodes,
        c.resolved_nodes,
        took.as_secs_f64()
    );
    if c.verified {
        format!("proof: verified, {size}")
    } else if c.interrupted {
        format!("proof: check interrupted after {size}")
    } else {
        let at = c.gap.as_deref().unwrap_or("?");
        format!("proof: NOT verified, no proof found for {at} after {size}")
    }
}
